"""'lowest score wins': a scoring line that ranks lower scores first.

The outcome (ranking, winners, ties, tie-breaks, what decided), a `winners`
rule beside it, a variant that turns it round, the end screen, and the
players: the greedy AI's margin and its results against a random player in
a tiny game where the lowest score wins. Each game is a small rulebook that
sets the scores and ends at once, played through the `Game` API.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from interpreter import load_rulebook
from interpreter.ai.players import _margin
from interpreter.simulation.simulate import Plan, simulate
from interpreter.terminal.render import OutcomeView, render_to_text

SET = """\
game "Set"
players 3
variable points of each player: number = 0
variable gems of each player: number = 0
phase play
  set points(0) = {a}
  set points(1) = {b}
  set points(2) = {c}
  set gems(0) = {ga}
  set gems(1) = {gb}
  set gems(2) = {gc}
  end game
scoring
  score = points(p)
{scoring}
"""

# Three turns each: keep 1 to 3 points, or give 2 to the other player.
LOW = """\
game "Low"
players 2
variable points of each player: number = 0
phase play
  repeat 3 times
    for each p in players
      turn p
        p takes an action
  end game
action keep(n: one of [1, 2, 3])
  add n to points(me)
action give
  add 2 to points(opponent(me))
scoring
  score = points(p)
{order}
"""


def write(tmp_path: Path, text: str, name: str = "game.rules") -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def outcome(tmp_path, points, gems=(0, 0, 0), scoring="  lowest score wins"):
    a, b, c = points
    ga, gb, gc = gems
    game = load_rulebook(write(tmp_path, SET.format(a=a, b=b, c=c, ga=ga, gb=gb, gc=gc,
                                                    scoring=scoring)))
    state = game.new_game(players=3, seed=1)
    assert state.over
    return game, game.outcome(state)


def test_the_lowest_score_wins_and_the_ranking_goes_up_from_it(tmp_path):
    game, out = outcome(tmp_path, (7, 2, 5))
    assert game.lowest_wins and out.lowest_wins
    assert out.scores == (7, 2, 5)
    assert out.winners == (1,) and out.ranking == (1, 2, 0)
    assert out.decided_by == "score" and not out.draw
    assert out.to_json()["lowest_wins"] is True


def test_without_the_line_the_highest_score_wins(tmp_path):
    for scoring in ("", "  highest score wins"):
        game, out = outcome(tmp_path, (7, 2, 5), scoring=scoring)
        assert not game.lowest_wins and not out.lowest_wins
        assert out.winners == (0,) and out.ranking == (0, 2, 1)


def test_equal_lowest_share_the_victory(tmp_path):
    _, out = outcome(tmp_path, (3, 9, 3))
    assert out.winners == (0, 2) and out.ranking == (0, 2, 1)
    assert out.decided_by == "score" and not out.draw


@pytest.mark.parametrize("step, winner", [("most", 2), ("fewest", 1)])
def test_a_tie_break_keeps_its_own_direction(tmp_path, step, winner):
    """Level on the lowest score, 'most gems' favours the player with more
    gems and 'fewest gems' the one with fewer, as without the line."""
    _, out = outcome(tmp_path, (3, 1, 1), gems=(0, 1, 4),
                     scoring=f"  lowest score wins\n  tie break {step} gems(p) as \"gems\"")
    assert out.winners == (winner,)
    assert out.ranking == (winner, 3 - winner, 0)
    assert out.decided_by == "gems"
    assert out.tie_breaks == ((0,), (1,), (4,))


def test_a_winners_rule_names_the_winners_and_the_rest_rank_lowest_first(tmp_path):
    _, out = outcome(tmp_path, (4, 8, 6),
                     scoring="  winners = [p in players where points(p) > 5]\n"
                             "  lowest score wins")
    assert out.winners == (1, 2) and out.ranking == (2, 1, 0)
    assert out.decided_by == "winners"


def test_a_variant_turns_the_order_round(tmp_path):
    base = write(tmp_path, SET.format(a=7, b=2, c=5, ga=0, gb=0, gc=0,
                                      scoring="  lowest score wins"), "base.rules")
    variant = write(tmp_path, f'variant of "{Path(base).name}"\n'
                              "scoring\n  highest score wins\n", "variant.rules")
    game = load_rulebook(variant)
    out = game.outcome(game.new_game(players=3, seed=1))
    assert not game.lowest_wins and out.winners == (0,)
    assert load_rulebook(base).lowest_wins


def test_the_end_screen_says_the_lowest_score_won(tmp_path):
    _, out = outcome(tmp_path, (7, 2, 5))
    text = render_to_text(OutcomeView.of(out.to_json()), 100)
    assert "Ranking: P1 P2 P0" in text and "Winner: P1" in text
    assert "Decided by the score (lowest wins)." in text


# -- players ------------------------------------------------------------------------------

def test_the_greedy_margin_follows_the_direction(tmp_path):
    low = load_rulebook(write(tmp_path, LOW.format(order="  lowest score wins"), "low.rules"))
    high = load_rulebook(write(tmp_path, LOW.format(order=""), "high.rules"))
    for game, sign in ((low, -1), (high, 1)):
        state = game.new_game(players=2, seed=0)
        state = game.apply(state, game.parse_action(state, 0, "keep 3"))   # P0 3, P1 0
        assert _margin(game, state, 0) == sign * 3
        assert _margin(game, state, 1) == -sign * 3


def test_greedy_beats_random_where_the_lowest_score_wins(tmp_path):
    game = load_rulebook(write(tmp_path, LOW.format(order="  lowest score wins")))
    report = simulate(game, Plan(players=2, seats=("greedy", "random"), seed=3), 200)
    assert report["lowest_wins"] is True
    greedy, rand = report["seats"]
    assert greedy["win_rate"] > 0.9 > 0.1 > rand["win_rate"]
    assert greedy["score"]["mean"] < rand["score"]["mean"]

"""Scores explained: `part "LABEL" = formula` names parts of the score and
`most/fewest … as "LABEL"` names a tie-break step; the outcome carries each
player's parts and tie-break values and what decided, and the end screen
shows them as a table."""

from __future__ import annotations

import re

import pytest

from interpreter import load_rulebook
from interpreter.errors import RulebookErrors
from interpreter.terminal.render import OutcomeView, render_to_text

GAME = """\
game "Parts"
players 3
variable gold of each player: number = 0
variable gems of each player: number = 0
phase play
  set gold(0) = 5
  set gold(1) = 5
  set gold(2) = {low}
  set gems(0) = 2
  set gems(1) = {gems}
  end game
scoring
  score = gold(p) + gems(p)
  part "gold" = gold(p)
  part "gems" = gems(p)
  tie break most gold(p) as "most gold", fewest gems(p)
"""


def outcome(tmp_path, low=1, gems=2, extra=""):
    path = tmp_path / "parts.rules"
    path.write_text(GAME.format(low=low, gems=gems) + extra, encoding="utf-8")
    game = load_rulebook(str(path))
    state = game.new_game(players=3, seed=1)
    assert state.over
    return game, game.outcome(state)


def test_the_outcome_carries_each_players_parts_and_tie_break_values(tmp_path):
    _, out = outcome(tmp_path, gems=1)
    assert out.scores == (7, 6, 1)
    assert out.parts == ({"gold": 5, "gems": 2}, {"gold": 5, "gems": 1}, {"gold": 1, "gems": 0})
    assert out.tie_breaks == ((5, 2), (5, 1), (1, 0))
    assert out.steps[0] == "most gold" and out.steps[1].startswith("fewest")
    assert out.winners == (0,) and out.decided_by == "score"


def test_a_tie_on_the_score_names_the_step_that_decided(tmp_path):
    # P0 5+2 against P2 7+0 … P2 has more gold: the first step decides
    _, out = outcome(tmp_path, low=7, gems=2)
    assert out.scores == (7, 7, 7) and out.winners == (2,)
    assert out.decided_by == "most gold"


def test_an_unlabelled_step_is_named_by_its_kind_and_line(tmp_path):
    _, out = outcome(tmp_path, low=6, gems=2)
    assert out.steps[1] == "fewest (tie-break at line 16)"
    # P2 (6) loses on the score; P0 and P1 (5 + 2) are level through every step
    assert out.winners == (0, 1) and out.decided_by == "score"


def test_nothing_tells_equal_players_apart(tmp_path):
    game, _ = outcome(tmp_path)
    path = tmp_path / "level.rules"
    path.write_text(GAME.format(low=5, gems=2).replace("  set gems(0) = 2\n", "  set gems(0) = 2\n"
                                                       "  set gems(2) = 2\n"), encoding="utf-8")
    out = load_rulebook(str(path))
    state = out.new_game(players=3, seed=1)
    assert out.outcome(state).decided_by == "tie"


def test_the_end_screen_shows_the_table_and_what_decided(tmp_path):
    _, out = outcome(tmp_path, low=7, gems=2)
    text = render_to_text(OutcomeView.of(out.to_json()), 100)
    header = next(line for line in text.splitlines() if "player" in line)
    assert re.search(r"player\s+score\s+gold\s+gems\s+most gold\s+fewest", header)
    assert "P2 *" in text
    assert "decided by: most gold" in text


def test_two_parts_of_one_label_are_refused(tmp_path):
    path = tmp_path / "twice.rules"
    path.write_text(GAME.format(low=1, gems=2).replace('part "gems"', 'part "gold"'))
    with pytest.raises(RulebookErrors) as info:
        load_rulebook(str(path))
    error = info.value.errors[0]
    assert error.code == "rulebook/duplicate-name" and error.span.line == 15


def test_the_shipped_games_say_why_someone_won():
    import random
    expected = {"paris": (["lit", "group", "reserve", "stamps", "postcards"],
                          ("free cells of one's colour",)),
                "samurai": ([], ("markers of castes not led", "markers")),
                "hanamikoji": (["geisha"], ())}
    for name, (labels, steps) in expected.items():
        game = load_rulebook(name)
        state = game.playout(game.new_game(players=game.min_players, seed=4), random.Random(4))
        out = game.outcome(state)
        assert list(out.parts[0]) == labels and out.steps == steps, name
        assert out.decided_by is not None
    paris = game = load_rulebook("paris")
    state = game.playout(game.new_game(players=2, seed=4), random.Random(4))
    out = paris.outcome(state)
    assert [sum(p.values()) for p in out.parts] == list(out.scores)   # PA-E1 … E5 add up

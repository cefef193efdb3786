"""Draws: what the outcome holds when nobody is set above the others, and
how `simulate` and `compare` count them (text and JSON).

A draw is every player level on the score and every tie-break (all of them
winners, decided by "tie") or a `winners` rule that names nobody (no
winners). A victory shared by some players but not all is no draw.
"""

from __future__ import annotations

import io
import json
from pathlib import Path

from rich.console import Console

from interpreter import load_rulebook
from interpreter.simulation import parallel
from interpreter.simulation.parallel import Source
from interpreter.simulation.simulate import Plan
from interpreter.terminal import cli
from interpreter.terminal.render import OutcomeView, render_to_text
from interpreter.terminal.reports import draws_line, print_simulation

SET = """\
game "Set"
players 3
variable points of each player: number = 0
phase play
  set points(0) = {a}
  set points(1) = {b}
  set points(2) = {c}
  end game
scoring
  score = points(p)
{scoring}
"""

# Each player picks 0 or 1 once: level, a draw, about half the time.
LEVEL = """\
game "Level"
players 2
variable points of each player: number = 0
phase play
  for each p in players
    turn p
      p takes an action
  end game
action pick(n: one of [0, 1])
  add n to points(me)
scoring
  score = points(p)
"""


def write(tmp_path: Path, text: str, name: str) -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def outcome(tmp_path, points, scoring=""):
    a, b, c = points
    game = load_rulebook(write(tmp_path, SET.format(a=a, b=b, c=c, scoring=scoring), "set.rules"))
    return game.outcome(game.new_game(players=3, seed=1))


def test_every_player_level_is_a_draw_they_all_win(tmp_path):
    out = outcome(tmp_path, (4, 4, 4), "  tie break most points(p)")
    assert out.winners == (0, 1, 2) and out.ranking == (0, 1, 2)
    assert out.decided_by == "tie" and out.draw
    assert out.to_json()["draw"] is True


def test_a_winners_rule_that_names_nobody_is_a_draw_nobody_wins(tmp_path):
    out = outcome(tmp_path, (1, 5, 3), "  winners = [p in players where points(p) > 9]")
    assert out.winners == () and out.decided_by == "winners" and out.draw
    assert out.ranking == (1, 2, 0)         # by the score, as ever


def test_a_victory_shared_by_some_is_no_draw(tmp_path):
    out = outcome(tmp_path, (4, 4, 1))
    assert out.winners == (0, 1) and out.decided_by == "score" and not out.draw
    out = outcome(tmp_path, (4, 4, 1), "  winners = players")
    assert out.winners == (0, 1, 2) and out.decided_by == "winners" and not out.draw


def test_the_end_screen_says_draw(tmp_path):
    text = render_to_text(OutcomeView.of(outcome(tmp_path, (2, 2, 2)).to_json()), 100)
    assert "Winners (shared): P0, P1, P2" in text and "A draw" in text
    text = render_to_text(OutcomeView.of(
        outcome(tmp_path, (2, 2, 2), "  winners = []").to_json()), 100)
    assert "No winner: a draw." in text


# -- simulate and compare ----------------------------------------------------------------

def run_json(tmp_path, name, *argv) -> dict:
    out = tmp_path / f"{name}.json"
    assert cli.main([*argv, "--workers", "1", "--json", str(out), "--quiet"]) == 0
    return json.loads(out.read_text())


def test_simulate_counts_the_draws_in_its_json_and_on_a_line(tmp_path, capsys):
    path = write(tmp_path, LEVEL, "level.rules")
    report = run_json(tmp_path, "level", "simulate", path, "--games", "60")
    game = load_rulebook(path)
    plan = Plan(players=2, seats=("random", "random"))
    records = parallel.run([Source.of(game, path)], plan, 60, loaded=[game],
                           keep_records=True).records[0]
    level = sum(r.scores[0] == r.scores[1] for r in records)
    assert 0 < level < 60
    draws = report["draws"]
    assert draws == {"count": level, "rate": level / 60, "ci95": draws["ci95"],
                     "level": level, "no_winner": 0}
    assert draws["ci95"][0] < level / 60 < draws["ci95"][1]
    # a level game counts half a win to each seat: the win rates still add up to 1
    assert abs(sum(s["win_rate"] for s in report["seats"]) - 1) < 1e-9
    capsys.readouterr()
    assert cli.main(["simulate", path, "--games", "60", "--workers", "1"]) == 0
    text = capsys.readouterr().out
    assert f"draws: {level} of 60 games ({level / 60:.1%}" in text
    assert "every player level (a victory shared by all: 1/2 of a win to each seat above)" in text


def test_a_draw_nobody_wins_counts_apart_and_no_seat_wins(tmp_path, capsys):
    path = write(tmp_path, LEVEL + "  winners = []\n", "nobody.rules")
    report = run_json(tmp_path, "nobody", "simulate", path, "--games", "20")
    capsys.readouterr()
    assert report["draws"]["count"] == report["draws"]["no_winner"] == 20
    assert [s["win_rate"] for s in report["seats"]] == [0.0, 0.0]
    assert draws_line(report["draws"], 20, 2) == (
        "draws: 20 of 20 games (100.0%, 95% interval 83.9%–100.0%): 20 won by nobody")


def test_a_run_without_draws_says_so(tmp_path):
    report = {"plan": {"players": 2, "seats": ["random", "random"], "seed": 0,
                       "max_decisions": 9}, "games": 5, "completed": 5, "capped": 0,
              "seats": [], "draws": {"count": 0, "rate": 0.0, "ci95": [0.0, 0.43],
                                     "level": 0, "no_winner": 0},
              "decisions": {"mean": 2, "sd": 0, "min": 2, "max": 2, "quantiles": {"p50": 2}},
              "rounds": {"mean": 0, "sd": 0, "min": 0, "max": 0, "quantiles": {"p50": 0}},
              "actions": {}}
    console = Console(file=io.StringIO(), width=100)
    print_simulation(report, console, "Level")
    assert "draws: none of 5 games" in console.file.getvalue()


def test_compare_counts_the_draws_of_each_rulebook(tmp_path, capsys):
    base = write(tmp_path, LEVEL, "level.rules")
    variant = write(tmp_path, 'variant of "level.rules"\nscoring\n  winners = []\n',
                    "nobody.rules")
    result = run_json(tmp_path, "compare", "compare", base, variant, "--games", "40")
    draws = result["comparison"]["draws"]
    assert draws["base"]["count"] == result["base"]["draws"]["count"] < 40
    assert draws["variant"]["count"] == result["variant"]["draws"]["count"] == 40
    assert draws["variant"]["rate"] == 1.0 and draws["difference"]["difference"] > 0
    assert draws["difference"]["p"] < 0.05
    capsys.readouterr()
    assert cli.main(["compare", base, variant, "--games", "40", "--workers", "1"]) == 0
    text = capsys.readouterr().out
    assert f"draws: 100.0% ± 0.0 with the variant vs {draws['base']['rate']:.1%}" in text
    assert ": significant (p" in text.split("draws: 100.0%")[1]

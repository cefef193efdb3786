"""`compare` also tests the game's length and the first player's advantage.

The length in decisions and in rounds is paired by seed like the win rates:
the difference of the means with its 95% interval and the paired z-test,
checked here against the per-game figures of `--records`. The first
player's advantage is P0's win rate against an even 1/N, with its Wilson
interval and the score test that interval inverts (table-driven, and the
two must agree). Both read in the text and in the JSON.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from unittest import mock

import pytest

from interpreter.simulation import report_html, stats
from interpreter.terminal import cli

ROOT = Path(__file__).resolve().parent.parent
COUNTER = ROOT / "tests" / "engine" / "counter.rules"

# P0 always wins: ten points ahead before anyone moves.
AHEAD = """\
game "Ahead"
players 2
variable points of each player: number = 0
phase play
  for each p in players
    turn p
      p takes an action
  end game
action step
  add 1 to points(me)
scoring
  score = points(p) + (10 if p == 0 else 0)
"""


def compare(tmp_path, *argv) -> tuple:
    out, records = tmp_path / "compare.json", tmp_path / "games.jsonl"
    assert cli.main(["compare", *argv, "--json", str(out), "--records", str(records),
                     "--quiet", "--workers", "1"]) == 0
    lines = [json.loads(line) for line in records.read_text().splitlines()]
    return json.loads(out.read_text()), lines


def test_the_length_difference_is_paired_by_seed(tmp_path, capsys):
    result, lines = compare(tmp_path, str(COUNTER), str(COUNTER), "--variant-option", "target=3",
                            "--games", "40")
    capsys.readouterr()
    length = result["comparison"]["length"]
    for measure in ("decisions", "rounds"):
        base = [r[measure] for r in lines if r["side"] == "A"]
        variant = [r[measure] for r in lines if r["side"] == "B"]
        assert length[measure]["difference"] == stats.paired_test(base, variant)
        assert length[measure]["base"]["mean"] == result["base"][measure]["mean"]
        assert length[measure]["variant"]["mean"] == result["variant"][measure]["mean"]
        assert length[measure]["base"]["half_width"] == stats.half_width(base)
    # a target of 3 instead of 10 makes games far shorter
    assert length["decisions"]["difference"]["difference"] < 0
    assert length["decisions"]["difference"]["p"] < 0.05


def test_the_text_says_the_length_and_the_first_players_advantage(tmp_path, capsys):
    path = tmp_path / "ahead.rules"
    path.write_text(AHEAD, encoding="utf-8")
    result, _ = compare(tmp_path, str(path), str(COUNTER), "--games", "20")
    capsys.readouterr()
    first = result["comparison"]["seat_p0"]
    assert first["base"]["win_rate"] == 1.0 and first["base"]["expected"] == 0.5
    assert first["base"]["ci95"] == list(stats.wilson(20, 20))
    assert first["base"]["p"] < 0.001
    assert first["variant"]["win_rate"] == result["variant"]["seats"][0]["win_rate"]
    # P0 moves first in these rulebooks: the first mover is seat P0
    mover = result["comparison"]["first_mover"]
    assert mover["base"]["moved_first"] == [20, 0]
    assert {k: v for k, v in mover["base"].items() if k != "moved_first"} == \
        {k: v for k, v in first["base"].items() if k != "seat"}
    assert cli.main(["compare", str(path), str(COUNTER), "--games", "20", "--quiet",
                     "--workers", "1"]) == 0
    text = capsys.readouterr().out
    assert ("first mover's advantage with the base: the player who moved first (P0 in 20) "
            "wins 100.0% of 20 games (95% interval 83.9%–100.0%) against an even 50.0% "
            "(+50.0 points): significant (p < 0.001)") in text
    assert ("seat P0 with the base: seat P0 wins 100.0% of 20 games (95% interval "
            "83.9%–100.0%) against an even 50.0% (+50.0 points): significant (p < 0.001)") in text
    decisions = result["comparison"]["length"]["decisions"]
    assert (f"game length: {decisions['variant']['mean']:.2f} ± "
            f"{decisions['variant']['half_width']:.2f} decisions per game with the variant vs "
            f"2.00 ± 0.00 with the base") in text
    assert "rounds per game with the variant" in text
    assert "first mover's advantage with the variant: the player who moved first" in text
    assert "seat P0 with the variant: seat P0 wins" in text


def test_simulate_reports_the_first_players_advantage_too(tmp_path, capsys):
    path = tmp_path / "ahead.rules"
    path.write_text(AHEAD, encoding="utf-8")
    out = tmp_path / "report.json"
    assert cli.main(["simulate", str(path), "--games", "20", "--quiet", "--workers", "1",
                     "--json", str(out)]) == 0
    text = capsys.readouterr().out
    report = json.loads(out.read_text())
    test = stats.rate_test(20, 20, 0.5)
    assert report["seat_p0"] == {"seat": 0, "win_rate": test["rate"],
                                 **{k: v for k, v in test.items() if k != "rate"}}
    assert report["first_mover"] == {"win_rate": test.pop("rate"), **test,
                                     "moved_first": [20, 0]}
    assert "first mover's advantage: the player who moved first (P0 in 20) wins 100.0%" in text
    assert "seat P0: seat P0 wins 100.0%" in text


@pytest.mark.parametrize("wins, n, expected, z, p", [
    (50, 100, 0.5, 0.0, 1.0),
    (60, 100, 0.5, 2.0, 0.0455),
    (20, 20, 0.5, 4.4721, 0.0000),
    (10, 90, 1 / 3, -4.4721, 0.0000),
    (37.5, 100, 1 / 3, 0.8839, 0.3768),       # shared wins count a fraction
    (0, 0, 0.5, 0.0, 1.0),                    # no game: nothing to tell
    (5, 5, 1.0, 0.0, 1.0),                    # one player: no spread
])
def test_rate_test(wins, n, expected, z, p):
    got = stats.rate_test(wins, n, expected)
    assert got["z"] == pytest.approx(z, abs=1e-4)
    assert got["p"] == pytest.approx(p, abs=1e-4)
    assert got["difference"] == pytest.approx(wins / n - expected if n else 0.0)


def test_the_test_agrees_with_the_wilson_interval():
    rng = random.Random(3)
    for _ in range(2000):
        n = rng.randrange(1, 300)
        wins = rng.randrange(0, 2 * n + 1) / 2            # halves: shared wins
        expected = 1 / rng.randrange(2, 6)
        got = stats.rate_test(wins, n, expected)
        low, high = got["ci95"]
        if abs(expected - low) > 1e-9 and abs(expected - high) > 1e-9:
            assert (got["p"] < 0.05) == (not low <= expected <= high)


def test_the_page_says_who_moved_first_and_seat_p0_apart(tmp_path, capsys):
    """The note under the win rates (drawn here by a stand-in for matplotlib)."""
    out = tmp_path / "hk.json"
    assert cli.main(["simulate", "hanamikoji", "--games", "16", "--seed", "3", "--ai",
                     "1=greedy", "--quiet", "--workers", "1", "--json", str(out)]) == 0
    capsys.readouterr()
    report = json.loads(out.read_text())
    first, p0 = report["first_mover"], report["seat_p0"]
    assert first["win_rate"] != p0["win_rate"]
    page = report_html.win_rates(mock.MagicMock(), [("this run", report)])
    assert (f"this run: the player who moved first wins {first['win_rate']:.1%} of "
            f"{first['n']} games (95% interval "
            f"{first['ci95'][0]:.1%}–{first['ci95'][1]:.1%}) against an even 50.0%, "
            f"p = {first['p']:.3f}.") in page
    assert f"this run: seat P0 wins {p0['win_rate']:.1%} of {p0['n']} games (95% interval" in page

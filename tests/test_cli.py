"""The `rulebook` command line: exit codes, error codes and spans, output shape.

Tests call `cli.main(argv)` in-process (fast) and assert codes and
file:line:column, never wording; one test runs the module as a real process
to prove that no traceback escapes.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from interpreter import cli
from interpreter.simulate import simulate
from tests.fake_game import FakeGame

ROOT = Path(__file__).resolve().parent.parent
HANAMIKOJI = ROOT / "rulebooks" / "hanamikoji.rules"


def run(capsys, *argv):
    code = cli.main(list(argv))
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return code, out, err


# -- validate ------------------------------------------------------------------

def test_validate_a_good_rulebook(capsys):
    code, out, _ = run(capsys, "validate", str(HANAMIKOJI))
    assert code == 0
    assert f"{HANAMIKOJI}: ok" in out
    assert "1 valid, 0 invalid" in out


def test_validate_a_syntax_error_shows_code_place_and_caret(capsys, tmp_path):
    bad = tmp_path / "bad.rules"
    bad.write_text('game "Broken"\nplayers two\n')
    code, out, _ = run(capsys, "validate", str(bad))
    assert code == 1
    assert f"{bad}:2:9: error[rulebook/syntax]" in out
    assert "   2 | players two\n" in out
    assert "\n" + " " * len("   2 | players ") + "^" in out
    assert "0 valid, 1 invalid" in out


def test_validate_lists_every_error_of_a_rulebook(capsys, tmp_path):
    source = HANAMIKOJI.read_text()
    typos = {"to secret(me)": "to secrte(me)", "to trade_off(me)": "to trade_of(me)"}
    for right, wrong in typos.items():
        assert right in source
        source = source.replace(right, wrong)
    bad = tmp_path / "typos.rules"
    bad.write_text(source)
    code, out, _ = run(capsys, "validate", str(bad))
    assert code == 1
    assert out.count("error[rulebook/unknown-name]") == 2
    for line_no, line in enumerate(source.splitlines(), 1):
        for wrong in typos.values():
            if wrong in line:
                column = line.index(wrong) + len("to ") + 1
                assert f"{bad}:{line_no}:{column}: error[rulebook/unknown-name]" in out
                assert f"{line_no:>4} | {line}\n" in out
    assert "= hint: did you mean 'secret'?" in out
    assert "1 invalid (2 errors)" in out


def test_validate_a_missing_file_and_go_on_with_the_rest(capsys, tmp_path):
    missing = tmp_path / "missing.rules"
    code, out, _ = run(capsys, "validate", str(missing), str(HANAMIKOJI))
    assert code == 1
    assert "error[rulebook/file]" in out
    assert f"{HANAMIKOJI}: ok" in out
    assert "2 files checked: 1 valid, 1 invalid" in out


def test_no_traceback_escapes_from_the_real_command(tmp_path):
    bad = tmp_path / "bad.rules"
    bad.write_text("players\n")
    done = subprocess.run([sys.executable, "-m", "interpreter.cli", "validate", str(bad)],
                          cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 1
    assert "error[rulebook/syntax]" in done.stdout
    assert "Traceback" not in done.stdout + done.stderr


# -- simulate ------------------------------------------------------------------

def test_simulate_prints_win_rates_and_speed(capsys):
    code, out, _ = run(capsys, "simulate", "hanamikoji", "--games", "4",
                       "--players", "2", "--seed", "3", "--quiet")
    assert code == 0
    assert "P0" in out and "P1" in out and "%" in out
    assert "games per second" in out


def test_simulate_json_figures_add_up(capsys):
    code, out, _ = run(capsys, "simulate", str(HANAMIKOJI), "--games", "4",
                       "--players", "2", "--seed", "3", "--json")
    assert code == 0
    figures = json.loads(out)
    assert figures["completed"] + figures["capped"] == 4
    assert sum(figures["wins"]) == pytest.approx(figures["completed"])
    assert figures["mean_rounds"] >= 1
    assert figures["games_per_second"] > 0


def test_simulate_counts_shared_wins_as_fractions_and_cut_off_games():
    result = simulate(FakeGame(), 2, 40, seed=0)
    assert result.completed == 40 and result.capped == 0
    assert sum(result.wins) == pytest.approx(40)
    # The toy game ties now and then: a tie is half a win each.
    assert [0.5, 0.5] in [simulate(FakeGame(), 2, 1, seed=s).wins for s in range(40)]
    capped = simulate(FakeGame(), 2, 5, seed=0, max_decisions=3)
    assert capped.capped == 5 and capped.completed == 0 and capped.win_rates == [0.0, 0.0]


def test_simulate_is_reproducible():
    a = simulate(FakeGame(), 2, 20, seed=11)
    b = simulate(FakeGame(), 2, 20, seed=11)
    assert (a.wins, a.mean_decisions) == (b.wins, b.mean_decisions)


# -- show --------------------------------------------------------------------------

def test_show_ir_prints_json(capsys):
    code, out, _ = run(capsys, "show", str(HANAMIKOJI), "--ir")
    assert code == 0
    assert isinstance(json.loads(out), dict)


# -- bad command lines ---------------------------------------------------------------

@pytest.mark.parametrize("argv", [
    [],
    ["no-such-command"],
    ["simulate"],
    ["simulate", "hanamikoji", "--games", "many"],
    ["play", "hanamikoji", "--ai", "P1"],
    ["play", "hanamikoji", "--ai", "X=random"],
    ["play", "hanamikoji", "--ai", "1=genius"],
    ["play", "hanamikoji", "--players", "2", "--ai", "5=random"],
    ["play", "hanamikoji", "--option", "no_value"],
])
def test_bad_usage_exits_2_with_a_code(capsys, argv):
    code, out, err = run(capsys, *argv)
    assert code == 2
    assert "error[command/usage]" in err


def test_an_unknown_game_exits_2(capsys, tmp_path):
    code, _, err = run(capsys, "play", str(tmp_path / "nowhere.rules"))
    assert code == 2
    assert "error[rulebook/file]" in err
    code, _, err = run(capsys, "simulate", "no_such_game_at_all", "--games", "1")
    assert code == 2
    assert "error[" in err


def test_a_bad_option_or_player_count_exits_2(capsys):
    code, _, err = run(capsys, "simulate", "hanamikoji", "--players", "9", "--games", "1")
    assert code == 2
    assert "error[option/invalid]" in err

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

from interpreter.terminal import cli

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
    done = subprocess.run([sys.executable, "-m", "interpreter.terminal.cli", "validate", str(bad)],
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


def test_simulate_json_figures_add_up(capsys, tmp_path):
    out_file = tmp_path / "report.json"
    code, out, _ = run(capsys, "simulate", str(HANAMIKOJI), "--games", "4", "--players", "2",
                       "--seed", "3", "--json", str(out_file), "--quiet", "--workers", "1")
    assert code == 0
    assert "P0" in out  # the text report is printed as well
    figures = json.loads(out_file.read_text())
    assert figures["completed"] + figures["capped"] == 4
    assert sum(s["wins"] for s in figures["seats"]) == pytest.approx(figures["completed"])
    assert figures["rounds"]["mean"] >= 1
    assert figures["timing"]["games_per_second"] > 0
    code, out, _ = run(capsys, "simulate", str(HANAMIKOJI), "--games", "4", "--seed", "3",
                       "--json", "-", "--quiet", "--workers", "1")
    assert code == 0
    assert json.loads(out)["seats"] == figures["seats"]


def test_simulate_with_ai_seats_and_coverage(capsys):
    code, out, _ = run(capsys, "simulate", "hanamikoji", "--games", "3", "--ai", "P1=ismcts",
                       "--iterations", "3", "--coverage", "--quiet", "--workers", "1")
    assert code == 0
    assert "P1 ismcts (3 iterations/move)" in out
    assert "coverage: " in out and "fired" in out
    assert "hanamikoji.rules:84:7: reveal in phase scoring_the_round " \
           "(off by option reveal_trade_off_at_round_end)" in out


def test_compare_prints_a_verdict_per_seat(capsys):
    code, out, _ = run(capsys, "compare", "hanamikoji", "hanamikoji", "--variant-option",
                       "first_player=P0", "--games", "4", "--quiet", "--workers", "1")
    assert code == 0
    # wins and scores of two seats, the draws, the length in decisions and in
    # rounds, and the first mover's advantage and seat P0's on each rulebook
    assert out.count("significant (p ") == 11
    assert "first mover's advantage with the variant: the player who moved first (P0 in 4)" \
        in out
    assert "paired" in out


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


@pytest.mark.parametrize("argv", [
    ["simulate", "hanamikoji", "--ai", "1=genius"],
    ["simulate", "hanamikoji", "--players", "2", "--ai", "2=random"],
    ["simulate", "hanamikoji", "--games", "0"],
    ["simulate", "hanamikoji", "--games", "-5"],
    ["simulate", "hanamikoji", "--workers", "0"],
    ["simulate", "hanamikoji", "--workers", "two"],
    ["simulate", "hanamikoji", "--iterations", "0"],
    ["simulate", "hanamikoji", "--max-decisions", "0"],
    ["simulate", "hanamikoji", "--backend", "spark"],
    ["simulate", "hanamikoji", "--address", "10.0.0.1:6379"],
    ["simulate", "hanamikoji", "--json", "/no/such/folder/report.json"],
    ["compare", "hanamikoji"],
    ["compare", "hanamikoji", "hanamikoji", "--ai", "7=greedy"],
    ["compare", "hanamikoji", "hanamikoji", "--games", "0"],
    ["simulate", "hanamikoji", "--report", "charts.png"],
    ["simulate", "hanamikoji", "--report", "-"],
    ["simulate", "hanamikoji", "--report", "/no/such/folder/report.html"],
    ["compare", "hanamikoji", "hanamikoji", "--report", "same.html", "--records", "same.html"],
])
def test_bad_simulation_input_is_one_line_and_exit_2(capsys, argv):
    code, out, err = run(capsys, *argv)
    assert code == 2
    assert err.startswith("error[command/usage]")
    assert err.strip().count("\n") == 0


def test_a_bad_variant_option_exits_2(capsys):
    code, _, err = run(capsys, "compare", "hanamikoji", "hanamikoji", "--games", "1",
                       "--variant-option", "first_player=seat_9")
    assert code == 2
    assert "error[option/invalid]" in err


def test_ray_missing_is_a_one_line_error(capsys):
    try:
        import ray  # noqa: F401
    except ImportError:
        pass
    else:
        pytest.skip("ray is installed")
    code, out, err = run(capsys, "simulate", "hanamikoji", "--games", "1", "--backend", "ray")
    assert code == 1
    assert err.startswith("error[simulate/ray-missing]")
    assert err.strip().count("\n") == 0


@pytest.mark.parametrize("command", [["simulate", "hanamikoji"],
                                     ["compare", "hanamikoji", "hanamikoji"]])
def test_a_report_without_matplotlib_says_how_to_install_it(capsys, tmp_path, monkeypatch,
                                                            command):
    # None in sys.modules makes `import matplotlib…` fail as if it were not installed
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    monkeypatch.setitem(sys.modules, "matplotlib.figure", None)
    page, records = tmp_path / "report.html", tmp_path / "games.jsonl"
    code, out, err = run(capsys, *command, "--games", "1", "--quiet", "--report", str(page),
                         "--records", str(records))
    assert code == 1
    assert err.startswith("error[simulate/plot-missing]")
    assert "pip install 'rulebook[plot]'" in err
    assert err.strip().count("\n") == 0
    assert not page.exists() and not records.exists() and out == ""   # refused before the run


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

"""Numbers are bounded where they are made: a sum, a difference, a product,
a `sum(…)` or an `add` whose result has more than 30 digits (as a number
written in a rulebook may have: limits.MAX_NUMBER) is `rule/limit` at that
formula or statement — never Python's own limit of digits, an overflow in the statistics, or a
squaring that runs for seconds. `validate --play`, `play` and `simulate`
end with the coded error, and the table saves the game."""

from __future__ import annotations

import io
import json
import time

import pytest
from rich.console import Console

from interpreter import load_rulebook
from tests.scenario import place
from interpreter.errors import RuleError
from interpreter.language.limits import MAX_NUMBER
from interpreter.simulation import stats
from interpreter.terminal import cli
from interpreter.terminal.repl import Repl, read_save

BIGGEST = "9" * 30            # the largest number a rulebook may write

GAME = """\
game "Growth"
players 2
variable x: number = 10
variable w: number = 10
variable y: number = BIGGEST
variable z: any = 0
setup
  STEP
phase play
  turn 0
    0 takes an action
  end game
action grow
  ACTION
scoring
  score = SCORE
""".replace("BIGGEST", BIGGEST)
SQUARINGS = "repeat 14 times\n    set x = x * x"


def rulebook(tmp_path, step="set z = 0", score="0", action=SQUARINGS):
    path = tmp_path / "growth.rules"
    path.write_text(GAME.replace("STEP", step).replace("SCORE", score).replace("ACTION", action),
                    encoding="utf-8")
    return path


# (the setup's statement, the formula the error points at)
PAST = [
    ("set z = y + 1", "y + 1"),
    ("set z = 0 - y - 1", "0 - y - 1"),
    ("set z = y * 10", "y * 10"),
    ("set z = sum(v for v in [y, 1])", "sum("),
    ("add 1 to y", "add 1 to y"),
    ("repeat 200 times\n    add y to y", "add y to y"),
    ("repeat 5 times\n    set w = w * w", "w * w"),
    ("set z = size(1 to y * y)", "y * y"),
    ("set z = count(v in [1, 2] where v * y * y > 0)", "v * y * y"),
]


@pytest.mark.parametrize("step, at", PAST, ids=[p[0].splitlines()[-1] for p in PAST])
def test_a_number_past_30_digits_is_rule_limit_at_its_formula(tmp_path, step, at):
    path = rulebook(tmp_path, step)
    with pytest.raises(RuleError) as info:
        load_rulebook(str(path)).new_game(players=2, seed=1)
    err = info.value
    assert err.code == "rule/limit", err
    assert "more than the 30 a number may have" in err.message and "smaller(" in err.hint
    line = step.splitlines()[-1].strip()
    assert (err.span.line, err.span.column) == place(path.read_text(), line, at)


WITHIN = [
    ("set z = y", "z", int(BIGGEST)),
    ("set z = y * 1 - 0", "z", int(BIGGEST)),
    ("set z = 0 - y", "z", -int(BIGGEST)),
    ("set z = y // 3 + y % 7", "z", int(BIGGEST) // 3 + int(BIGGEST) % 7),
    ("set z = sum(v for v in [y, 0 - y, 5])", "z", 5),
    ("add 0 - y to y", "y", 0),
    ("add 1 - y to y", "y", 1),
]


@pytest.mark.parametrize("step, name, value", WITHIN, ids=[w[0] for w in WITHIN])
def test_numbers_of_30_digits_are_numbers_like_any(tmp_path, step, name, value):
    game = load_rulebook(str(rulebook(tmp_path, step)))
    state = game.new_game(players=2, seed=1)
    assert state.vars[game.program(2).lay.variables[name].base] == value


def test_a_repeated_squaring_stops_at_once(tmp_path):
    """The squarings of an action: refused at the fifth (10^32), in well under
    a second, the state as it was before the action."""
    game = load_rulebook(str(rulebook(tmp_path)))
    state = game.new_game(players=2, seed=1)
    before = json.dumps(game.state_to_json(state), sort_keys=True)
    start = time.process_time()
    with pytest.raises(RuleError) as info:
        game.apply(state, game.legal_actions(state, 0)[0])
    assert time.process_time() - start < 5        # (a guard, not a timing: Python's own took 20 s)
    assert info.value.code == "rule/limit" and "33 digits" in info.value.message
    assert json.dumps(game.state_to_json(state), sort_keys=True) == before


def test_the_score_is_bounded_where_it_is_made(tmp_path):
    path = rulebook(tmp_path, score="y * (p - players[0]) + y * 2")
    game = load_rulebook(str(path))
    state = game.new_game(players=2, seed=1)
    with pytest.raises(RuleError) as info:
        game.scores(state)
    assert info.value.code == "rule/limit"
    assert (info.value.span.line, info.value.span.column) == place(path.read_text(), "score =",
                                                                  "y * 2")


# -- the commands -------------------------------------------------------------------------

def run(capsys, *argv):
    code = cli.main([str(a) for a in argv])
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err and "error[internal]" not in out + err
    return code, out + err


def test_validate_play_finds_the_squaring_of_the_setup(tmp_path, capsys):
    path = rulebook(tmp_path, SQUARINGS.replace("x", "w"), score="w", action="set z = 0")
    code, out = run(capsys, "validate", path, "--play", "2")
    assert code == 1 and "error[rule/limit]" in out and f"{path}:9:13" in out


def test_simulate_ends_with_the_coded_error(tmp_path, capsys):
    path = rulebook(tmp_path, score="x")
    code, out = run(capsys, "simulate", path, "--games", "4", "--players", "2", "--workers", "1")
    assert code != 0 and "error[rule/limit]" in out and "OverflowError" not in out


def test_simulate_reports_scores_of_30_digits(tmp_path, capsys):
    path = rulebook(tmp_path, score="y - (p - players[0])", action="set z = 0")
    report = tmp_path / "report.json"
    code, out = run(capsys, "simulate", path, "--games", "3", "--players", "2", "--workers", "1",
                    "--json", report)
    assert code == 0
    scores = json.loads(report.read_text())
    assert BIGGEST[:6] in json.dumps(scores)


def test_statistics_of_the_largest_scores_are_finite():
    counts = stats.Counter({MAX_NUMBER - 1: 3, -(MAX_NUMBER - 1): 2, 0: 1})
    summary = stats.describe_counts(counts)
    assert all(abs(v) < 1e31 for k, v in summary.items() if isinstance(v, float))
    assert stats.paired_test([MAX_NUMBER - 1, 0], [-(MAX_NUMBER - 1), 5])["n"] == 2
    # neighbours of 30 digits keep a bin each
    assert stats.histogram_of(stats.Counter({MAX_NUMBER - 1: 2, MAX_NUMBER - 2: 1}))["counts"] \
        == [1, 2]


def test_the_table_saves_the_game_when_the_rules_stop(tmp_path):
    """An AI's move that makes too large a number: the coded error, and the
    game so far is saved and loads back."""
    game = load_rulebook(str(rulebook(tmp_path, "set y = 0")))
    out = io.StringIO()
    console = Console(file=out, width=400, color_system=None, force_terminal=False)
    lines = iter(["", "", "", "quit"])
    repl = Repl(game, players=2, seed=1, ai={0: "random"}, console=console,
                input_fn=lambda prompt: next(lines), save_dir=str(tmp_path),
                rulebook=str(tmp_path / "growth.rules"))
    repl.run()
    text = out.getvalue()
    assert "error[rule/limit]" in text and "error[internal]" not in text
    saved = next(tmp_path.glob("*.save.json"))
    assert read_save(game, str(saved))[0][-1].vars == game.new_game(players=2, seed=1).vars
    assert "the game so far is saved" in text


def test_sums_of_sizes_and_constants_need_no_check_in_the_generated_code(tmp_path):
    """A size, a constant or a table column of numbers has a bound the
    compiler knows: a sum or product of such cannot reach the limit, and is
    written without the comparison."""
    game = load_rulebook(str(rulebook(tmp_path, "set z = size(players) * 2 + 1 - count(q in players)",
                                      score="y + 1", action="set z = 0")))
    text = game.program(2).python.text()
    assert text.count(str(MAX_NUMBER)) == 2          # y + 1 alone: its two ends
    state = game.new_game(players=2, seed=1)
    assert state.vars[game.program(2).lay.variables["z"].base] == 3


_NEAR_THE_BOUND = """
game "Near the bound"
players 2
variable x: number = 0
setup
  set x = 100000000000000 * 100000000000000 * 99
phase play
  turn 0
    current takes an action
action done
  end game
scoring
  score = x
"""


def test_a_save_holds_every_number_a_game_may_make(tmp_path):
    """A game holding a number of 30 digits saves and loads back: the save's
    bound is the formulas' own."""
    from interpreter.language.limits import MAX_NUMBER
    from interpreter.runtime import saved
    assert saved.BIG == MAX_NUMBER
    path = tmp_path / "near.rules"
    path.write_text(_NEAR_THE_BOUND, encoding="utf-8")
    game = load_rulebook(str(path))
    state = game.new_game(players=2, seed=0)
    data = json.loads(json.dumps(game.state_to_json(state)))
    assert game.state_from_json(data) == state
    over = json.loads(json.dumps(data).replace(str(99 * 10 ** 28), str(MAX_NUMBER)))
    assert over != data
    with pytest.raises(Exception) as err:
        game.state_from_json(over)
    assert getattr(err.value, "code", "").startswith("save/")

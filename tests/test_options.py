"""Option values are read by the option's kind (game/options.py): a whole
number of at most 30 digits, yes/no, a word, a string, none, one of the
values listed, K pieces by name. A value comes as text (the command line,
the adapters' `name=value,…`, a save) or as the Python value itself
(`load_rulebook(…, options=…)`); anything else is `option/invalid` naming
the option, its kind and what was given, before the rulebook is compiled
with it, never `error[internal]` or a rule error blamed on the rulebook.

The tables below are (option, given, the value it gives or REFUSED)."""

from __future__ import annotations

import json
import math

import pytest

from interpreter import load_rulebook
from interpreter.adapters import rules as adapters
from interpreter.errors import OptionError
from interpreter.game.engine import Game
from interpreter.game.options import checked_options, option_text
from interpreter.terminal import cli

KINDS = """\
game "Kinds"
players 2

component card
  | name | value |
  | A    | 1     |
  | B    | 2     |
  | C    | 3     |

option n = 3
option flag = no
option mode = fast
option motto = "plain"
option nothing = none
option seats = 1 one of [1, 2]
option stones = 15 one of 10 to 20
option speed = slow one of [slow, quick]
option mixed = none one of [none, 1, quick]
option chosen: 2 of card = [A, C]
zone box: card, public
variable total: number = 0

setup
  move all card to box
  set total = n + stones + (1 if flag else 0)

phase play
  end game

scoring
  score = total
"""

REFUSED = object()
NINES = "9" * 30

TEXT = [            # what `--option NAME=TEXT` gives
    ("n", "3", 3), ("n", "-1", -1), ("n", "007", 7), ("n", "-0", 0), ("n", NINES, int(NINES)),
    ("n", "-" + NINES, -int(NINES)), ("n", NINES + "9", REFUSED), ("n", "NaN", REFUSED),
    ("n", "nan", REFUSED), ("n", "Infinity", REFUSED), ("n", "-Infinity", REFUSED),
    ("n", "1e308", REFUSED), ("n", "1.5", REFUSED), ("n", "3.0", REFUSED), ("n", "+3", REFUSED),
    ("n", "1_000", REFUSED), ("n", "\u0663", REFUSED), ("n", " 3", REFUSED), ("n", "0x10", REFUSED),
    ("n", '{"a":1}', REFUSED), ("n", "null", REFUSED), ("n", "none", REFUSED),
    ("n", "yes", REFUSED), ("n", "", REFUSED), ("n", "3\x1b[31m", REFUSED),
    ("n", "9" * 5000, REFUSED),
    ("flag", "yes", True), ("flag", "no", False), ("flag", "true", True), ("flag", "FALSE", False),
    ("flag", "Yes", True), ("flag", "1", REFUSED), ("flag", "0", REFUSED), ("flag", "on", REFUSED),
    ("flag", '{"x":1}', REFUSED), ("flag", "null", REFUSED), ("flag", "none", REFUSED),
    ("flag", "", REFUSED),
    ("mode", "slow", "slow"), ("mode", "seat_1", "seat_1"), ("mode", "_x", "_x"),
    ("mode", "a" * 100, "a" * 100), ("mode", "a" * 101, REFUSED), ("mode", "3x", REFUSED),
    ("mode", "seat-1", REFUSED), ("mode", "a b", REFUSED), ("mode", "\u00e9t\u00e9", REFUSED),
    ("mode", "x\x1b]52;c;aGk=\x07", REFUSED), ("mode", "", REFUSED), ("mode", '"x"', REFUSED),
    ("motto", "hello world", "hello world"), ("motto", "3", "3"), ("motto", "x" * 1000, "x" * 1000),
    ("motto", "x" * 1001, REFUSED), ("motto", 'a"b', REFUSED), ("motto", "a\nb", REFUSED),
    ("nothing", "none", None), ("nothing", "None", None), ("nothing", "null", REFUSED),
    ("nothing", "0", REFUSED), ("nothing", "", REFUSED),
    ("seats", "1", 1), ("seats", "2", 2), ("seats", "3", REFUSED), ("seats", "x", REFUSED),
    ("seats", "yes", REFUSED), ("seats", "1.0", REFUSED),
    ("stones", "10", 10), ("stones", "20", 20), ("stones", "21", REFUSED), ("stones", "9", REFUSED),
    ("speed", "quick", "quick"), ("speed", "fast", REFUSED), ("speed", "Quick", REFUSED),
    ("mixed", "none", None), ("mixed", "1", 1), ("mixed", "quick", "quick"),
    ("mixed", "2", REFUSED), ("mixed", "slow", REFUSED), ("mixed", "yes", REFUSED),
    ("chosen", "A,B", ["A", "B"]), ("chosen", "[B, C]", ["B", "C"]), ("chosen", " A , C ", ["A", "C"]),
    ("chosen", "A", REFUSED), ("chosen", "A,A", REFUSED), ("chosen", "A,Z", REFUSED),
    ("chosen", "a,b", REFUSED), ("chosen", "A,B,C", REFUSED), ("chosen", "", REFUSED),
]

PYTHON = [          # what `load_rulebook(…, options={NAME: VALUE})` gives
    ("n", 3, 3), ("n", -5, -5), ("n", 10 ** 30 - 1, 10 ** 30 - 1), ("n", 10 ** 30, REFUSED),
    ("n", -(10 ** 30), REFUSED), ("n", 10 ** 5000, REFUSED), ("n", True, REFUSED),
    ("n", False, REFUSED), ("n", 1.5, REFUSED), ("n", 3.0, REFUSED), ("n", math.nan, REFUSED),
    ("n", math.inf, REFUSED), ("n", 1e308, REFUSED), ("n", None, REFUSED), ("n", {"a": 1}, REFUSED),
    ("n", [3], REFUSED), ("n", "3", 3),
    ("flag", True, True), ("flag", False, False), ("flag", 1, REFUSED), ("flag", 0, REFUSED),
    ("flag", None, REFUSED), ("flag", {"x": 1}, REFUSED), ("flag", "yes", True),
    ("mode", "slow", "slow"), ("mode", 3, REFUSED), ("mode", None, REFUSED), ("mode", True, REFUSED),
    ("mode", ["slow"], REFUSED),
    ("motto", "", ""), ("motto", 1, REFUSED), ("motto", None, REFUSED), ("motto", {"a": 1}, REFUSED),
    ("nothing", None, None), ("nothing", 0, REFUSED), ("nothing", False, REFUSED),
    ("seats", 2, 2), ("seats", True, REFUSED), ("seats", 2.0, REFUSED),
    ("mixed", None, None), ("mixed", 1, 1), ("mixed", True, REFUSED), ("mixed", "quick", "quick"),
    ("chosen", ["A", "B"], ["A", "B"]), ("chosen", ("A", "B"), ["A", "B"]),
    ("chosen", ["A", 1], REFUSED), ("chosen", 5, REFUSED), ("chosen", None, REFUSED),
    ("chosen", {"A": 1}, REFUSED), ("chosen", ["A", "A"], REFUSED), ("chosen", [], REFUSED),
]

KIND_WORDS = {"n": "a whole number", "flag": "yes or no", "mode": "a word", "motto": "a string",
              "nothing": "none", "seats": "one of 1, 2", "stones": "one of 10 to 20",
              "speed": "one of slow, quick", "mixed": "one of none, 1, quick",
              "chosen": "card"}


@pytest.fixture(scope="module")
def kinds(tmp_path_factory):
    path = tmp_path_factory.mktemp("options") / "kinds.rules"
    path.write_text(KINDS, encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def ir(kinds):
    return load_rulebook(str(kinds)).ir


def refusal(ir, name, value) -> OptionError:
    with pytest.raises(OptionError) as err:
        checked_options(ir, {name: value})
    return err.value


def row_id(value) -> str:
    if value is REFUSED:
        return "refused"
    return "huge" if type(value) is int and abs(value) > 10 ** 40 else repr(value)[:24]


@pytest.mark.parametrize("name, given, expected", TEXT + PYTHON, ids=row_id)
def test_a_value_is_read_by_its_option_kind(ir, name, given, expected):
    if expected is REFUSED:
        err = refusal(ir, name, given)
        assert err.code == "option/invalid"
        assert f"option '{name}'" in err.message and KIND_WORDS[name] in err.message + err.hint
        assert (err.message + (err.hint or "")).isprintable()     # the given text escaped
        assert len(err.message) < 300
        return
    value = checked_options(ir, {name: given})[name]
    assert value == expected and type(value) is type(expected)
    assert checked_options(ir, {name: option_text(value)})[name] == value   # the text reads back


def test_every_default_reads_back_from_its_text(ir):
    defaults = checked_options(ir, {})
    assert checked_options(ir, {k: option_text(v) for k, v in defaults.items()}) == defaults


def test_the_message_names_the_option_its_kind_and_the_value_with_a_hint(ir):
    err = refusal(ir, "n", "NaN")
    assert err.message == "option 'n' is a whole number, not 'NaN'"
    assert "30 digits" in err.hint and "--option n=3" in err.hint
    err = refusal(ir, "n", 1.5)
    assert err.message == "option 'n' is a whole number, not 1.5"
    assert refusal(ir, "n", {"a": [[]]}).message == "option 'n' is a whole number, not a table"
    assert "over 30 digits" in refusal(ir, "n", 10 ** 5000).message
    assert refusal(ir, "flag", None).message == "option 'flag' is yes or no, not None"
    assert "--option flag=yes" in refusal(ir, "flag", "on").hint
    err = refusal(ir, "stones", "21")
    assert err.message == "option 'stones' is one of 10 to 20, not '21'"
    assert "--option stones=15" in err.hint
    assert refusal(ir, "mode", "x\x1b]52;c;aGk=\x07").message.endswith("not 'x\\x1b]52;c;aGk=\\x07'")
    assert refusal(ir, "chosen", "A,Z").hint.startswith("cards: A, B, C")
    err = refusal(ir, "nosuch", 1)
    assert err.message == "unknown option 'nosuch'" and err.hint.startswith("options: n, flag")
    assert refusal(ir, "mod", "x").hint == "did you mean 'mode'?"
    assert "\\x1b" in refusal(ir, "x\x1b[2J", 1).message


def test_options_that_are_no_table_are_refused(ir):
    for given in ([("n", 3)], "n=3", 3):
        with pytest.raises(OptionError) as err:
            Game(ir, given)
        assert err.value.code == "option/invalid"


# -- the command line -------------------------------------------------------------------

def run(capsys, *argv):
    code = cli.main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


ISSUE = ["n=NaN", "n=Infinity", "n=1e308", "n=1.5", 'n={"a":1}', "n=null", 'flag={"x":1}',
         "flag=null", "seats=True", "chosen=A"]


@pytest.mark.parametrize("option", ISSUE)
def test_validate_play_and_simulate_refuse_a_value_of_another_kind(capsys, kinds, option):
    name = option.split("=")[0]
    code, out, err = run(capsys, "validate", kinds, "--option", option)
    assert code == 1 and "error[option/invalid]" in out and f"option '{name}'" in out
    assert "internal" not in out + err and "rule/" not in out
    for argv in (["play", kinds, "--players", "2", "--seed", "1"],
                 ["simulate", kinds, "--games", "1", "--quiet"]):
        code, out, err = run(capsys, *argv, "--option", option)
        assert code == 2 and err.startswith("error[option/invalid]") and f"option '{name}'" in err
        assert "internal" not in err and out == ""


def test_the_command_line_reads_each_kind(capsys, kinds, tmp_path):
    report = tmp_path / "report.json"
    code, _, err = run(capsys, "simulate", kinds, "--games", "2", "--quiet", "--json", report,
                       "--option", "n=-4", "--option", "flag=yes", "--option", "mode=slow",
                       "--option", "motto=a b", "--option", "stones=20", "--option", "chosen=B,C",
                       "--option", "mixed=1")
    assert code == 0, err
    options = json.loads(report.read_text())["options"]
    assert options == {"n": -4, "flag": True, "mode": "slow", "motto": "a b", "nothing": None,
                       "seats": 1, "stones": 20, "speed": "slow", "mixed": 1,
                       "chosen": ["B", "C"]}


def test_the_replay_command_of_validate_writes_options_that_read_back(kinds):
    class Finding:
        players, seed = 2, 5
    command = cli.replay_command(str(kinds), Finding, {"flag": True, "nothing": None, "n": -2,
                                                       "chosen": ["A", "B"]})
    assert "--option flag=yes --option nothing=none --option n=-2 --option chosen=A,B" in command


def test_a_saved_option_of_another_kind_is_refused_on_load(capsys, kinds, tmp_path):
    """A save's options are read as the command line's are: a forged value
    is a coded save error, never a game with it (tests/test_saves_cannot_lie.py
    has the shipped games' rows)."""
    game = load_rulebook(str(kinds))
    save = {"format": "rulebook-save", "version": 1, "rulebook": "x", "game": game.name,
            "options": game.options, "players": 2, "seed": 7, "ai": {}, "history": [],
            "state": game.state_to_json(game.new_game(players=2, seed=7))}
    path = tmp_path / "kinds.save.json"
    for options, code in [({"n": "NaN"}, "save/corrupt"), ({"flag": {"x": 1}}, "save/corrupt"),
                          ({"n": 1.5}, "save/corrupt"), ({"n": True}, "save/corrupt"),
                          ({"n": "4"}, "save/mismatch"), ({"seats": 3}, "save/corrupt")]:
        path.write_text(json.dumps({**save, "options": {**game.options, **options}}))
        code_got, _, err = run(capsys, "play", kinds, "--load", path)
        assert code_got == 1 and f"error[{code}]" in err, (options, err)
    path.write_text(json.dumps(save).replace('"n": 3', '"n": NaN'))
    assert run(capsys, "play", kinds, "--load", path)[0] == 1


# -- the adapters' text of options -----------------------------------------------------

def test_the_adapters_read_options_as_the_command_line_does(kinds):
    rules = adapters.load(kinds, 2, "n=-2,flag=yes,chosen=B,C,nothing=none")
    assert rules.game.options["n"] == -2 and rules.game.options["flag"] is True
    assert rules.game.options["chosen"] == ["B", "C"]
    same = adapters.load(kinds, 2, {"n": -2, "flag": True, "chosen": ["B", "C"], "nothing": None})
    assert same.game.options == rules.game.options
    for options in ("n=NaN", "n=1.5", "flag=1", "chosen=A", {"n": math.nan}, {"n": True},
                    {"flag": None}, {"motto": {"a": 1}}, {"motto": 1.5}, {"motto": "a;b"},
                    {"mode": ["slow"]}, {"chosen": ["A", {"x": 1}]}, {3: 3}):
        with pytest.raises(OptionError) as err:
            adapters.load(kinds, 2, options)
        assert err.value.code == "option/invalid", options

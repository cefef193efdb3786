"""The Python a rulebook is compiled to (interpreter/compiler/pysource.py
and pyblocks.py) keeps rule text out of code: every identifier in it is the
compiler's own, and names and strings from the rulebook, its options and
its tables reach it only inside constants. Hostile names and strings go
through the whole pipeline here, and the game still plays by its rules. A
rule error raised in compiled code names its statement's line and column,
and a compiled loop still stops with rule/loop."""

from __future__ import annotations

import ast
import importlib.util
import re
from pathlib import Path

import pytest

from interpreter import load_rulebook
from interpreter.errors import RuleError, RuleLoop
from interpreter.terminal.cli import main
from tests import scenario

ROOT = Path(__file__).resolve().parent.parent

# strings a rulebook may hold (no double quote, no newline: the grammar's
# strings) and option values from the command line may hold (anything)
HOSTILE = ["'); __import__('os').system('echo pwned') #", "\\' + exec('1') + '",
           "ｅｘｅｃ(ｏｐｅｎ('x'))", "еval", "{k1} env['s'] s.vars[0] = 1", "\\"]
# the most hostile text an option of words may hold: no double quote, no line break
OPTION_VALUE = "'''+__import__('os').system('id')#{0}\\\x00\t'"

HOSTILE_RULES = """game "Hostile"
players 2
option motto = "plain"

component piece
  | name   | label |
  | p1     | "{0}" |
  | p2     | "{1}" |
  | p3     | "{2}" |
  | p4     | "{3}" |
  | p5     | "{4}" |
  | p6     | "{5}" |

variable __import__: number = 0
variable exec: number = 0
variable env: any
variable k1: number = 0
zone s: piece, public
zone taken of each player: piece, public

define eval(f) = f + 1
define xs(m) = count(v1 in s where v1.label != m)
define e0(env) = [k2 in env where k2.label == "{0}" or k2.label == motto]

setup
  for each m in piece
    move m to s
  set env = "{1}"

phase play
  repeat until size(s) == 0
    turn exec % 2
      exec % 2 takes an action
    add 1 to exec

action take(k2: one of s where k2.label != "{2}" or size(s) == 1)
  let f = xs(k2.label)
  let v1 = e0(s)
  move k2 to taken(me)
  add eval(f) - f to __import__
  if k2.label == "{4}"
    set k1 = size(v1) + 100
    announce "'); import os # {{k2}} took {{f}}"

scoring
  score = size(taken(p)) + (1 if motto == "plain" else 0) + (k1 if p == 0 else 0)
"""

# what generated code may name: the compiler's own locals and functions,
# and the few builtins its namespace holds
OWN_NAME = re.compile(r"^(s|env|m|f|g|p|xs|ys|n|out|k|r|key|first|frames|pc|e\d+|[fdavtrkcboxw]\d+)$")
BUILTINS = {"len", "list", "sum", "min", "max", "bool", "abs", "dict", "range", "isinstance",
            "TypeError", "KeyError", "True", "False", "None"}
ATTRIBUTES = {"vars", "zones", "round", "turn", "memo", "get", "left", "exhausted", "run",
              "quiet", "steps", "count_steps", "append", "events", "items", "frames", "pop",
              "pending", "__class__", "keys", "options", "fromkeys", "copy"}


def hostile_game(tmp_path, options=None):
    path = tmp_path / "hostile.rules"
    path.write_text(HOSTILE_RULES.format(*HOSTILE), encoding="utf-8")
    return load_rulebook(str(path), options)


def names_in(tree) -> set:
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name):
            found.add(node.id)
        elif isinstance(node, (ast.FunctionDef, ast.Lambda)):
            if isinstance(node, ast.FunctionDef):
                found.add(node.name)
            found |= {a.arg for a in node.args.args}
    return found


def without_constants(tree) -> str:
    """The code with every string constant emptied: what is left is code."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            node.value = ""
    return ast.unparse(tree)


def test_hostile_names_and_strings_reach_the_code_only_as_constants(tmp_path):
    game = hostile_game(tmp_path, {"motto": OPTION_VALUE})
    module = game.program(2).python
    assert module.chunks
    strings = set()
    for chunk in module.chunks:
        tree = ast.parse(chunk)
        for node in ast.walk(tree):
            assert not isinstance(node, (ast.Import, ast.ImportFrom, ast.Global, ast.Nonlocal,
                                         ast.ClassDef, ast.Lambda)), ast.dump(node)
            if isinstance(node, ast.Attribute):
                assert node.attr in ATTRIBUTES, node.attr
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                strings.add(node.value)
        for name in names_in(tree):
            assert OWN_NAME.match(name) or name in BUILTINS, name
        code = without_constants(ast.parse(chunk))
        for word in ("__import__", "exec", "eval", "os", "system", "pwned", "ｅｘｅｃ", "еval",
                     "motto", "label", "piece", "taken"):
            assert word not in code, (word, code)
    # the strings written in code are the hostile ones the formulas compare
    # with and the local names the statements keep, each written by repr
    assert HOSTILE[0] in strings and HOSTILE[2] in strings and HOSTILE[4] in strings
    assert {"f", "v1", "k2", "me"} <= strings
    assert OPTION_VALUE not in "".join(module.chunks)       # an option's value is a constant
    # the namespace the code runs in offers no way out
    assert set(module.namespace["__builtins__"]) <= BUILTINS


def test_the_hostile_game_plays_by_its_rules(tmp_path):
    for options, bonus in (({}, 1), ({"motto": OPTION_VALUE}, 0)):
        game = hostile_game(tmp_path, options)
        state = scenario.play(game, game.new_game(players=2, seed=3), scenario.first_choice)
        # the first option each time: P0 takes p1, P1 p2, P0 p4, P1 p5 (k1
        # becomes 100: no piece left in s bears the first string or the
        # motto), P0 p6, and P1 p3, which may be taken only when it is last
        lay = game.program(2).lay
        base = lay.zones["taken"].base
        taken = [[lay.display[c] for c in state.zones[base + p]] for p in (0, 1)]
        assert taken == [["p1", "p4", "p6"], ["p2", "p5", "p3"]]
        assert game.outcome(state).scores == (3 + bonus + 100, 3 + bonus)
        assert state.vars[game.program(2).lay.variables["__import__"].base] == 6


def test_show_python_prints_the_generated_code(tmp_path, capsys):
    path = tmp_path / "hostile.rules"
    path.write_text(HOSTILE_RULES.format(*HOSTILE), encoding="utf-8")
    assert main(["show", str(path), "--python"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("# Hostile, 2 players")
    assert "def r" in out and "def d" in out and "def a" in out
    assert "# define xs, line 22" in out and "# count(…) at line 22, column 16" in out
    assert main(["show", str(ROOT / "rulebooks" / "kalah.rules"), "--python", "--players", "2"]) == 0
    ast.parse(capsys.readouterr().out)          # the whole listing is Python


LOOPS = """game "Loops"
players 2
variable total: number = 0
variable zero: number = 0
phase play
  turn 0
    0 takes an action
scoring
  score = total
action go
{body}"""


def loop_game(tmp_path, body):
    path = tmp_path / "loops.rules"
    path.write_text(LOOPS.format(body=body), encoding="utf-8")
    return load_rulebook(str(path))


def play_to_error(game):
    state = game.new_game(players=2, seed=1)
    return game.apply(state, game.legal_actions(state, 0)[0])


@pytest.mark.parametrize("body, line, column", [
    ("  add 1 to total\n  set total = total // zero\n", 12, 3),
    ("  add 1 to total\n  if total > 0\n    let x = 3\n    add x // zero to total\n", 14, 5),
    ("  for each q in players\n    repeat 2 times\n      add 1 // zero to total\n", 13, 7),
])
def test_a_rule_error_in_compiled_statements_names_its_line_and_column(tmp_path, body, line,
                                                                         column):
    game = loop_game(tmp_path, body)
    assert game.program(2).machine.lines          # the action's body is compiled
    state = game.new_game(players=2, seed=1)
    with pytest.raises(RuleError) as info:
        game.apply(state, game.legal_actions(state, 0)[0])
    assert (info.value.span.line, info.value.span.column) == (line, column)
    assert "division by zero" in info.value.message
    assert game.outcome(state) is None         # the state before the move is as it was


@pytest.mark.parametrize("body", [
    "  repeat 1000000000 times\n    add 1 to total\n",
    "  repeat until total < 0\n    add 1 to total\n",
    "  repeat 100000 times\n    for each q in players\n      add 1 to total\n",
])
def test_a_compiled_loop_stops_with_rule_loop(tmp_path, body):
    # how soon: tools/hostile_limits.py measures these loops (tests/hostile/play/)
    game = loop_game(tmp_path, body)
    with pytest.raises(RuleLoop) as info:
        play_to_error(game)
    assert info.value.code == "rule/loop" and info.value.span.line >= 11


_spec = importlib.util.spec_from_file_location("golden_tool", ROOT / "tools" / "golden.py")
golden = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(golden)


"""Coverage tells the rules an option switches off from those that never ran.

A statement under an `if` whose condition the options in force make a
constant (`if extra`, `if not extra`, `if mode == fast`, through a define
too), an action offered only from such a branch or barred by a `requires`
the options make false, and that action's body, are "off by option NAME";
a branch a `by players` value decides, or one that merely never happened,
is not. Worked out from the IR (`options_off.switched_off`), shown by
`simulate --coverage` in text and JSON.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from interpreter import load_rulebook
from interpreter.simulation.options_off import switched_off
from interpreter.simulation.simulate import coverage
from interpreter.terminal import cli

SWITCHES = """\
game "Switches"
players 2 to 3
option extra = no
option strict = yes
option mode = slow one of [slow, fast]
by players
  | players | 2  | 3 |
  | wide    | no | yes |
variable points of each player: number = 0
define extra_on = extra
define quick = mode == fast
phase play
  for each p in players
    turn p
      if extra
        p takes an action from bonus
      else
        p takes an action from plain
  if not extra
    add 1 to points(0)
  if mode == fast
    add 2 to points(0)
  if extra_on
    add 3 to points(0)
  if quick
    add 4 to points(0)
  if wide
    add 5 to points(0)
  if extra and wide
    add 6 to points(0)
  if extra and strict
    add 7 to points(0)
  if strict and points(0) > 99
    add 8 to points(0)
  end game
action plain
  add 1 to points(me)
action bonus
  add 2 to points(me)
  add 1 to points(me)
action sneaky
  requires extra
  add 9 to points(me)
scoring
  score = points(p)
"""


def line_of(text: str, fragment: str, nth: int = 1) -> int:
    lines = [i for i, line in enumerate(text.splitlines(), 1) if fragment in line]
    return lines[nth - 1]


def column_of(text: str, line: int) -> int:
    source = text.splitlines()[line - 1]
    return len(source) - len(source.lstrip()) + 1


def at(fragment: str, nth: int = 1) -> tuple:
    line = line_of(SWITCHES, fragment, nth)
    return line, column_of(SWITCHES, line)


@pytest.fixture()
def switches(tmp_path) -> str:
    path = tmp_path / "switches.rules"
    path.write_text(SWITCHES, encoding="utf-8")
    return str(path)


def test_what_the_default_options_switch_off(switches):
    off = switched_off(load_rulebook(switches), 2)
    assert off == {
        at("p takes an action from bonus"): ("extra",),
        at("add 2 to points(0)"): ("mode",),
        at("add 3 to points(0)"): ("extra",),          # through the define extra_on
        at("add 4 to points(0)"): ("mode",),           # through the define quick
        at("add 7 to points(0)"): ("extra",),          # strict is yes: extra decides
        ("action", "bonus"): ("extra",),               # offered only where extra is on
        at("add 2 to points(me)"): ("extra",),         # and its body
        at("add 1 to points(me)", 2): ("extra",),
        ("action", "sneaky"): ("extra",),              # barred by `requires extra`
        at("requires extra"): ("extra",),
        at("add 9 to points(me)"): ("extra",),
    }


def test_other_options_switch_off_the_other_branches(switches):
    game = load_rulebook(switches, options={"extra": True, "mode": "fast", "strict": False})
    off = switched_off(game, 2)
    assert off == {
        at("p takes an action from plain"): ("extra",),
        ("action", "plain"): ("extra",),
        at("add 1 to points(me)"): ("extra",),
        at("add 1 to points(0)"): ("extra",),          # if not extra
        at("add 7 to points(0)"): ("strict",),         # extra is yes now: strict decides
        at("add 8 to points(0)"): ("strict",),         # `strict and …` with strict no
    }


def test_a_branch_a_table_decides_is_not_off_by_option(switches):
    game = load_rulebook(switches, options={"extra": True})
    for players in (2, 3):
        off = switched_off(game, players)
        assert at("add 5 to points(0)") not in off       # if wide: a by-players value
        assert at("add 6 to points(0)") not in off       # extra and wide: wide decides
    # with extra no, `extra and wide` is false whatever wide is: extra's doing
    assert switched_off(load_rulebook(switches), 3)[at("add 6 to points(0)")] == ("extra",)


def test_two_options_that_switch_a_branch_off_together_are_both_named(tmp_path):
    path = tmp_path / "both.rules"
    path.write_text(SWITCHES.replace("option strict = yes", "option strict = no"),
                    encoding="utf-8")
    off = switched_off(load_rulebook(str(path)), 2)
    # `extra and strict`, both no: neither alone keeps it off, so both are named
    assert off[at("add 7 to points(0)")] == ("extra", "strict")


def test_coverage_puts_them_apart_from_the_rules_that_never_ran(switches):
    game = load_rulebook(switches)
    game.measure_coverage()
    state = game.new_game(players=2, seed=1)
    while game.outcome(state) is None:
        player = game.to_move(state)[0]
        state = game.apply(state, game.legal_actions(state, player)[0])
    counts = {(r["kind"], r["context"], r["line"], r["column"]): r["count"]
              for r in game.coverage()}
    report = coverage(game, counts, 2)
    off = {(r["line"], r["column"]) if r["kind"] != "action" else r["context"]: r["options"]
           for r in report["off_by_option"]}
    assert off[at("add 2 to points(0)")] == ["mode"]
    assert off["action bonus"] == ["extra"]
    never = {(r["line"], r["column"]) for r in report["never_fired"]}
    assert at("add 5 to points(0)") in never           # a table's doing: never fired
    assert at("add 8 to points(0)") in never           # could run, did not
    assert not never & set(off)
    assert report["fired"] == report["total"] - len(report["never_fired"]) - len(off)


def test_simulate_prints_and_writes_them(switches, tmp_path, capsys):
    out_file = tmp_path / "report.json"
    assert cli.main(["simulate", switches, "--games", "3", "--coverage", "--quiet",
                     "--workers", "1", "--json", str(out_file)]) == 0
    text = capsys.readouterr().out
    report = json.loads(out_file.read_text())["coverage"]
    name = Path(switches).name
    line, column = at("add 2 to points(0)")
    assert f"{name}:{line}:{column}: add in phase play (off by option mode)" in text
    assert "off by option: 11 of" in text
    line, column = at("add 8 to points(0)")
    assert f"{name}:{line}:{column}: add in phase play  | add 8 to points(0)" in text
    assert len(report["off_by_option"]) == 11
    assert {"options", "file", "line", "column", "kind", "context", "source"} <= \
        set(report["off_by_option"][0])


def test_hanamikoji_names_its_switched_off_rules():
    game = load_rulebook("hanamikoji")
    text = Path(game.path).read_text(encoding="utf-8")

    def where(fragment):
        line = line_of(text, fragment)
        return line, column_of(text, line)
    assert switched_off(game, 2) == {
        where("set start_player = players[0]"): ("first_player",),
        where("reveal trade_off(p)"): ("reveal_trade_off_at_round_end",)}
    turned = load_rulebook("hanamikoji", options={"first_player": "P0",
                                                  "reveal_trade_off_at_round_end": True})
    assert switched_off(turned, 2) == {where("set start_player = random(players)"):
                                       ("first_player",)}

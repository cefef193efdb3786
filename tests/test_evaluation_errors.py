"""Every formula the engine works out outside a statement fails as a coded
rule error with its place in the rulebook: the defines a view evaluates (a
zone's `by` groups, a grid's shading), and the starting values of variables.
A sampled state keeps the events its viewer was told."""

from __future__ import annotations

import random

import pytest

from interpreter import load_rulebook
from interpreter.errors import RuleError
from interpreter.runtime.information import sample_state

RULES = """game "Views"
players 2
component card
  | name | value | copies |
  | c    | 1     | 3      |
zone deck: card, public, by group_of
grid board: 2 by 2, shade by height
variable zero: number = {zero}
define group_of(x) = x.value // zero
define height(c) = {height}
setup
  for each x in card
    move x to deck
phase play
  turn 0
    0 takes an action
action go
  announce "P0 goes"
  announce "a word for P1" to 1
scoring
  score = 0
"""


def game(tmp_path, zero="1", height="x_of(c)"):
    path = tmp_path / "views.rules"
    path.write_text(RULES.format(zero=zero, height=height), encoding="utf-8")
    return load_rulebook(str(path))


def test_a_view_of_sound_defines_shows_them(tmp_path):
    g = game(tmp_path)
    view = g.view(g.new_game(players=2, seed=1), 0)
    deck = next(z for z in view["zones"] if z["name"] == "deck")
    assert deck["groups"] == [[1, ["c", "c", "c"]]]


@pytest.mark.parametrize("zero, height, line", [
    ("0", "x_of(c)", 9),                     # a `by` group divides by zero
    ("1", "first([c in board where no]) + 1", 10),   # a shading adds to none
])
def test_a_define_a_view_reads_fails_as_a_rule_error_at_the_define(tmp_path, zero, height, line):
    g = game(tmp_path, zero, height)
    state = g.new_game(players=2, seed=1)
    with pytest.raises(RuleError) as info:
        g.view(state, 0)
    assert info.value.code == "rule/runtime"
    assert (info.value.span.line, info.value.span.column) == (line, 8)


def test_a_starting_value_that_fails_names_its_formula(tmp_path):
    g = game(tmp_path, zero="1 // 0")
    with pytest.raises(RuleError) as info:
        g.new_game(players=2, seed=1)
    assert info.value.code == "rule/runtime"
    assert (info.value.span.line, info.value.span.column) == (8, 25)


def test_a_sampled_state_keeps_the_events_its_viewer_was_told(tmp_path):
    g = game(tmp_path)
    state = g.new_game(players=2, seed=1)
    state = g.apply(state, g.legal_actions(state, 0)[0])
    told = {0: ["P0 goes"], 1: ["P0 goes", "a word for P1"]}
    for viewer in (0, 1):
        sampled = sample_state(g, g.view(state, viewer)["info"], random.Random(1))
        assert [e["text"] for e in sampled.events if e["event"] == "announce"] == told[viewer]


SEATS = """game "Seats"
players 2
variable placer: player = {placer}
variable x: number = 0
phase play
  {statement}
  end game
action go
  add 1 to x
scoring
  score = x
"""


@pytest.mark.parametrize("placer", ["2", "none", "0 - 1"])
@pytest.mark.parametrize("statement", [
    "placer chooses n: one of [1, 2]",
    "placer takes an action",
    "turn placer\n    0 takes an action",
    "each q in [0, placer] chooses n: one of [1, 2]",
])
def test_a_decider_who_is_no_seat_is_a_rule_error_at_the_statement(tmp_path, placer, statement):
    path = tmp_path / "seats.rules"
    path.write_text(SEATS.format(placer=placer, statement=statement), encoding="utf-8")
    g = load_rulebook(str(path))
    with pytest.raises(RuleError) as info:
        g.new_game(players=2, seed=1)
    assert info.value.code == "rule/runtime" and info.value.span.line == 6
    assert "not a player of this game (P0 to P1)" in info.value.message


def test_python_errors_of_formulas_are_told_in_the_rulebooks_words(tmp_path):
    g = game(tmp_path, height="first([c in board where no]) + 1")
    with pytest.raises(RuleError) as info:
        g.view(g.new_game(players=2, seed=1), 0)
    assert "'+' of none and a number" in info.value.message


MIXED = """game "Mixed"
players 2
component pit
  | name | store | after |
  | a    | no    | b     |
  | b    | yes   | 99    |
zone row: pit, public
variable x: any
setup
  for each h in pit
    move h to row
phase play
  turn 0
    0 takes an action
action go
  set x = [h in row where h.after.store]
  end game
scoring
  score = 0
"""


def test_an_attribute_of_an_attribute_that_is_no_piece_fails_when_read_not_at_load(tmp_path):
    # found by tools/fuzz.py: a column of pieces and a number crashed the compiler
    path = tmp_path / "mixed.rules"
    path.write_text(MIXED, encoding="utf-8")
    g = load_rulebook(str(path))
    state = g.new_game(players=2, seed=1)
    with pytest.raises(RuleError) as info:
        g.apply(state, g.legal_actions(state, 0)[0])
    assert info.value.code == "rule/runtime" and info.value.span.line == 16

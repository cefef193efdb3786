"""Each condition of an action's `where`s is tested at the first parameter
that knows what it reads (compiler/filters.py): the same options in the same
order, without pairing values a condition already refuses."""

from __future__ import annotations

import random

from interpreter import load_rulebook
from interpreter.compiler.filters import conjuncts, hoisted

RULES = '''
game "Filters"
players 2

variable target: number = 7
variable rolls of each player: number = 0

phase play
  repeat 6 times
    turn players[0]
      set target = random(2 to 12)
      players[0] may take an action

action pick(x: one of 1 to 9,
            y: one of 1 to 9 where x + 1 < target and y != x and x + y == target and y > 2)
  add 1 to rolls(me)

scoring
  score = rolls(p)
'''

SPLIT = RULES.replace(
    "x: one of 1 to 9,\n            y: one of 1 to 9 where x + 1 < target and y != x and "
    "x + y == target and y > 2",
    "x: one of 1 to 9 where x + 1 < target,\n"
    "            y: one of 1 to 9 where y != x and x + y == target and y > 2")


def _game(tmp_path, text, name):
    path = tmp_path / f"{name}.rules"
    path.write_text(text, encoding="utf-8")
    return load_rulebook(str(path))


def _texts(params):
    out = []
    for p in params:
        where = p["choice"].get("where")
        out.append(None if where is None else len(conjuncts(where)))
    return out


def test_a_condition_of_the_first_parameter_alone_moves_to_it(tmp_path):
    game = _game(tmp_path, RULES, "natural")
    params = game.ir["actions"][0]["params"]
    moved = hoisted(params)
    # x + 1 < target reads x alone: x's; the others read y as well: y's
    assert _texts(moved) == [1, 3]
    assert _texts(params) == [None, 4], "the IR given is left alone"


def test_the_options_are_those_of_the_filter_split_by_hand(tmp_path):
    natural, split = _game(tmp_path, RULES, "natural"), _game(tmp_path, SPLIT, "split")
    for seed in range(20):
        a, b = natural.new_game(2, seed), split.new_game(2, seed)
        rng = random.Random(seed)
        while natural.outcome(a) is None:
            la, lb = natural.legal_actions(a, 0), split.legal_actions(b, 0)
            assert [str(x) for x in la] == [str(x) for x in lb]
            k = rng.randrange(len(la))
            a, b = natural.apply(a, la[k]), split.apply(b, lb[k])
        assert natural.outcome(a).scores == split.outcome(b).scores


def test_a_condition_that_draws_stays_where_it_is_written():
    draw = {"node": "compare", "op": "<", "at": [1, 1],
            "left": {"node": "call", "fn": "random", "ref": "builtin", "at": [1, 1],
                     "args": [{"node": "number", "value": 3, "at": [1, 1]}]},
            "right": {"node": "number", "value": 2, "at": [1, 1]}}
    params = [{"name": "x", "choice": {"node": "choose_one", "where": None}},
              {"name": "y", "choice": {"node": "choose_one", "where": draw}}]
    assert hoisted(params) is params


def test_a_parameter_that_carries_no_where_passes_the_condition_on():
    reads_x = {"node": "name", "name": "x", "ref": "local", "at": [1, 1]}
    params = [{"name": "x", "choice": {"node": "choose_many", "where": None}},
              {"name": "z", "choice": {"node": "choose_one", "where": None}},
              {"name": "y", "choice": {"node": "choose_one",
                                       "where": {"node": "and", "at": [1, 1], "left": reads_x,
                                                 "right": reads_x}}}]
    moved = hoisted(params)
    assert moved[0] is params[0]
    assert moved[1]["choice"]["where"]["node"] == "and"     # both conjuncts, at z
    assert moved[2]["choice"]["where"] is None

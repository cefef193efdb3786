"""Formula work is bounded: an aggregate charges the step's budget for
every element it visits (weighted by the formula it evaluates per element),
so nested aggregates over large collections stop with rule/loop at their
statement within about a second, and a constant worked out at load stops
at its define. A define chain whose written-out size or depth is past the
limits is refused at load. The count restarts at every step, so a game
whose steps each do a lot of work still plays to its end."""

from __future__ import annotations

import random

import pytest

from interpreter import load_rulebook
from interpreter.errors import RuleLoop, RulebookErrors
from interpreter.language import flow
from interpreter.runtime.budget import MAX_WORK
from tests import scenario

HEADER = """game "Work"
players 2
grid board: 40 by 25
variable total: number = 0
"""
PLAY = """phase play
  repeat 3 times
    turn 0
      0 takes an action
"""
SCORING = """scoring
  score = total
"""
EXPLODING = ("count(a in board where count(b in board where count(c in board where "
             "x_of(c) == x_of(a) + x_of(b)) > 0) > 0)")


def load(tmp_path, text):
    path = tmp_path / "work.rules"
    path.write_text(text, encoding="utf-8")
    return load_rulebook(str(path))


def play(game):
    return game.outcome(scenario.play(game, game.new_game(players=2, seed=1), scenario.first_choice))


def test_nested_aggregates_stop_with_rule_loop_at_their_statement(tmp_path):
    game = load(tmp_path, HEADER + PLAY + "action go\n  set total = " + EXPLODING + "\n" + SCORING)
    with pytest.raises(RuleLoop) as info:       # how soon: tools/hostile_limits.py
        play(game)
    assert info.value.code == "rule/loop" and info.value.span.line == 10


def test_a_constant_that_explodes_is_refused_at_load_at_its_define(tmp_path):
    text = HEADER + "define many = " + EXPLODING + "\n" + PLAY + "action go\n  set total = many\n" + SCORING
    with pytest.raises(RulebookErrors) as info:
        load(tmp_path, text)
    error = info.value.errors[0]
    assert error.code == "rule/loop" and (error.span.line, error.span.column) == (5, 8)


def test_each_step_has_its_own_budget(tmp_path):
    # 480 inner counts of 1,000 cells, 6 units each: about 60% of the budget
    # in each of three steps, never more than one step's worth
    heavy = "count(a in board where y_of(a) < 12 and count(b in board where x_of(a) == x_of(b)) > 0)"
    outcome = play(load(tmp_path, HEADER + PLAY + f"action go\n  add {heavy} to total\n" + SCORING))
    assert outcome.scores == (1440, 1440)


def chain(n, fan):
    lines = ["define d0(x) = x + 1"] + [
        f"define d{i}(x) = " + " + ".join([f"d{i - 1}(x)"] * fan) for i in range(1, n + 1)]
    return HEADER + "\n".join(lines) + "\n" + PLAY + f"action go\n  set total = d{n}(total)\n" + SCORING


def test_a_define_that_doubles_is_refused_where_it_passes_the_size_limit(tmp_path):
    with pytest.raises(RulebookErrors) as info:
        load(tmp_path, chain(40, 2))
    assert [e.code for e in info.value.errors] == ["rulebook/too-large"]
    assert "'d14'" in info.value.errors[0].message      # 2^17 - 5 nodes: the first past 100,000
    play(load(tmp_path, chain(12, 2)))


def test_a_chain_of_defines_too_deep_is_refused_once(tmp_path):
    with pytest.raises(RulebookErrors) as info:
        load(tmp_path, chain(1000, 1))
    assert [e.code for e in info.value.errors] == ["rulebook/too-deep"]
    assert str(flow.MAX_DEFINE_DEPTH) in info.value.errors[0].message
    assert play(load(tmp_path, chain(100, 1))).scores == (3, 3)


def test_define_costs_are_measured_without_recursion():
    bodies = {f"d{i}": {"node": "call", "ref": "define", "fn": f"d{i - 1}", "args": []}
              for i in range(1, 5000)}
    bodies["d0"] = {"node": "number", "value": 1}
    assert flow.define_costs(bodies)["d4999"] == (5000, 5000)


@pytest.mark.parametrize("name", ["hanamikoji", "festival-of-lights", "lanterns", "samurai",
                                  "paris", "othello", "kalah", "hearts", "kuhn-poker",
                                  "dots-and-boxes"])
def test_the_budget_is_far_above_what_a_shipped_game_needs(name):
    game = load_rulebook(name)
    n = game.max_players
    budget = game.program(n).budget
    state, peak, rng = game.new_game(players=n, seed=3), 0, random.Random(3)
    while game.outcome(state) is None:
        player = game.to_move(state)[0]
        actions = game.legal_actions(state, player)
        game.view(state, player)
        peak = max(peak, MAX_WORK - budget.left)
        state = game.apply(state, actions[rng.randrange(len(actions))])
        peak = max(peak, MAX_WORK - budget.left)
    assert peak < MAX_WORK // 50

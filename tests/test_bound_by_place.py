"""A listed option carries the value it stands for, and taking it binds that
value by its place in the offer (docs/architecture.md §3): the value must be
the one binding by content gives — the first element of the choice's source
with the option's key (`ChoiceSpec.value`) — for every kind of decision the
shipped games have: one parameter, independent parameters, parameters that
read earlier ones, `chooses` and `each … chooses`, over alike pieces too."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from interpreter import load_rulebook
from interpreter.runtime.decisions import Choose, EachChooses, Product, TakeAction

ROOT = Path(__file__).resolve().parent.parent / "rulebooks"
GAMES = [("hanamikoji", 2), ("lanterns", 4), ("hearts", 4), ("samurai", 3), ("paris", 2),
         ("yacht", 2), ("festival-of-lights", 4)]


def _checked(game, s, player) -> int:
    """How many listed values were compared with binding by content."""
    m = game.program(s.n).machine
    f = s.frames[-1]
    stmt = m.blocks[f[0]].stmts[f[1]]
    offer = game.legal_actions(s, player)
    done = 0
    for part in offer.parts:
        if type(part) is Product and part.values is not None:
            if type(stmt) is not TakeAction:
                continue
            a = stmt.actions_by_name[part.name]
            for i in range(len(part)):
                action = part.at(i)
                env = a.bind(s, player, f[2], action.args)
                if len(a.params) == 1:
                    assert part.values[i] == env[a.params[0].name], (part.name, action)
                else:
                    for spec, found, k in zip(a.params, part.values, part.places(i)):
                        if found is not None:
                            assert found[k] == env[spec.name], (part.name, action)
                done += 1
        elif type(part) is list and type(stmt) in (Choose, EachChooses):
            env = dict(f[2])
            if type(stmt) is EachChooses:
                env[stmt.player_var] = player
            for action, value in part:
                if value is not None:
                    assert value == stmt.spec.value(s, env, action.args[0]), action
                    done += 1
    return done


@pytest.mark.parametrize("name, n", GAMES, ids=[g for g, _ in GAMES])
def test_a_listed_value_is_what_binding_by_content_gives(name, n):
    game = load_rulebook(ROOT / f"{name}.rules")
    rng = random.Random(5)
    s = game.new_game(n, seed=5)
    checked = steps = 0
    while not s.over and steps < 120:
        p = game.to_move(s)[0]
        checked += _checked(game, s, p)
        actions = game.legal_actions(s, p)
        s = game.apply(s, actions[rng.randrange(len(actions))])
        steps += 1
    assert checked > 0

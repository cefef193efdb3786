"""The generated listing of a 'takes an action' (compiler/pyoptions.py)
lists what listing action by action (`ActionDef.options`) lists, for every
shape of parameters: none, one, independent ones (a product of their keys),
ones that read earlier ones (a loop per parameter), a requirement read
before any option or after all of them, several pieces at once, a use
limit. Every option of every decision is taken both ways, so what each
binds is checked too."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from interpreter import load_rulebook
from interpreter.runtime.decisions import TakeAction

LISTINGS = Path(__file__).parent / "engine" / "listings.rules"


def _unlisted(game, players):
    for x in game.program(players).machine.stmts:
        if type(x) is TakeAction:
            x.lister = None
    return game


def _texts(game, state, player):
    return [str(a) for a in game.legal_actions(state, player)]


@pytest.mark.parametrize("seed", range(6))
def test_every_shape_lists_and_binds_as_the_actions_do(seed):
    game, other = load_rulebook(LISTINGS), _unlisted(load_rulebook(LISTINGS), 2)
    assert all(x.lister is not None for x in game.program(2).machine.stmts
               if type(x) is TakeAction)
    rng = random.Random(seed)
    a, b = game.new_game(2, seed=seed), other.new_game(2, seed=seed)
    names = set()
    while game.outcome(a) is None:
        player = a.pending[0]
        listed = game.legal_actions(a, player)
        assert [str(x) for x in listed] == _texts(other, b, player)
        names.update(x.name for x in listed)
        for i in range(len(listed)):     # every option binds what the actions bind
            assert game.apply(a, listed[i]).to_data() == \
                other.apply(b, other.legal_actions(b, player)[i]).to_data()
        i = rng.randrange(len(listed))
        a, b = game.apply(a, listed[i]), other.apply(b, other.legal_actions(b, player)[i])
    assert other.outcome(b) == game.outcome(a)
    assert names == {"rest", "wait", "pair", "climb", "sum_to", "after", "draw_from", "give",
                     "swap"}


def test_an_action_nested_deeper_than_python_takes_is_listed_action_by_action(tmp_path):
    """Python refuses more than 20 nested blocks: a decision whose action
    reads 24 parameters one after the other keeps the action-by-action
    listing, and plays the same."""
    count = 24
    params = ", ".join(f"a{i}: one of [{'yes' if i == 0 else f'not a{i - 1}'}]"
                       for i in range(count))
    path = tmp_path / "deep.rules"
    path.write_text(f"""game "Deep"
players 2

variable total: number = 0

phase play
  repeat until total >= 2
    turn 0
      0 takes an action

action chain({params})
  add 1 to total

scoring
  score = total
""", encoding="utf-8")
    game = load_rulebook(str(path))
    state = game.new_game(2, seed=0)
    stmt = next(x for x in game.program(2).machine.stmts if type(x) is TakeAction)
    assert stmt.lister is None
    (only,) = game.legal_actions(state, 0)
    assert only.args == tuple(i % 2 == 0 for i in range(count))
    after = game.apply(state, only)
    assert game.outcome(game.apply(after, game.legal_actions(after, 0)[0])) is not None

"""Moves as integers: `apply_move(state, player, i)` takes the option at place
`i` of `legal_actions(state, player)` by its place, `advance_move` does so in
place; both give what `apply` of that action gives, and refuse any other
move with a coded error, the state untouched."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from interpreter import load_rulebook
from interpreter.errors import GameOver, IllegalAction, NotYourTurn

RULEBOOKS = Path(__file__).resolve().parent.parent / "rulebooks"

GAMES = [("hearts", 4), ("festival-of-lights", 3), ("lanterns", 2), ("dots-and-boxes", 2),
         ("samurai", 3), ("yacht", 2), ("kuhn-poker", 2)]


def _json(game, state) -> str:
    return json.dumps(game.state_to_json(state), sort_keys=True)


@pytest.mark.parametrize("name, n", GAMES)
def test_a_move_is_the_place_of_its_action(name, n):
    """Game by game, every player to move (simultaneous picks included):
    the move's successor is the action's, and in place it is too."""
    game = load_rulebook(RULEBOOKS / f"{name}.rules")
    rng = random.Random(7)
    state = game.new_game(players=n, seed=3)
    steps = 0
    while game.outcome(state) is None and steps < 60:
        player = state.pending[rng.randrange(len(state.pending))]
        legal = game.legal_actions(state, player)
        i = rng.randrange(len(legal))
        before = _json(game, state)
        by_move = game.apply_move(state, player, i)
        by_action = game.apply(state, legal[i])
        assert _json(game, state) == before          # the input stays as it was
        assert _json(game, by_move) == _json(game, by_action)
        assert by_move.events == by_action.events
        scratch = state.copy()
        game.advance_move(scratch, player, i)
        assert _json(game, scratch) == _json(game, by_move)
        state = by_move
        steps += 1


@pytest.mark.parametrize("move", [-1, 10_000, True, 1.0, "0", None])
def test_a_move_out_of_range_or_not_an_int_is_refused_and_changes_nothing(move):
    game = load_rulebook(RULEBOOKS / "hearts.rules")
    state = game.new_game(players=4, seed=1)
    player = state.pending[0]
    before = _json(game, state)
    for call in (game.apply_move, game.advance_move):
        with pytest.raises(IllegalAction) as err:
            call(state, player, move)
        assert err.value.code == "action/illegal"
        assert "legal actions" in err.value.hint
        assert _json(game, state) == before


def test_a_move_of_a_player_not_to_move_or_after_the_end_is_refused():
    game = load_rulebook(RULEBOOKS / "kuhn-poker.rules")
    state = game.new_game(players=2, seed=0)
    other = 1 - state.pending[0]
    with pytest.raises(NotYourTurn) as err:
        game.apply_move(state, other, 0)
    assert err.value.code == "action/not-your-turn"
    while game.outcome(state) is None:
        state = game.apply_move(state, state.pending[0], 0)
    with pytest.raises(GameOver):
        game.apply_move(state, 0, 0)
    with pytest.raises(GameOver):
        game.advance_move(state, 0, 0)

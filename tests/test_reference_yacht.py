"""tools/reference/yacht.py against rulebooks/yacht.rules: seeded random
games replayed in the reference agree at every decision (who decides, the
texts of the options) and on the final scores.

The rulebook rolls its dice with `random(1 to 6)`, one draw a die, from the
engine's generator. The reference is dealt the first roll from the
rulebook's first state, and rolls on with a `roll` function that runs the
engine's own generator on from its value in that state: the same draws, in
the same order, give the same faces.
"""

from __future__ import annotations

import random

import pytest

from interpreter import load_rulebook
from interpreter.runtime.state import State as EngineState
from tests.references import reference, replay
from tests.scenario import value_of

SEEDS = range(16)
DICE = ("d1", "d2", "d3", "d4", "d5")


@pytest.fixture(scope="module")
def game():
    return load_rulebook("yacht")


@pytest.fixture(scope="module")
def ref():
    return reference("yacht")


class EngineDice:
    """Rolls dice as the rulebook's `random(1 to 6)` does, from the engine
    generator's value."""

    def __init__(self, value: int):
        self.rng = value

    def roll(self, k: int) -> list:
        return [1 + EngineState.randbelow(self, 6) for _ in range(k)]


def faces(game, state) -> list:
    return [value_of(game, state, "face", d) for d in DICE]


def deal(game, state, ref):
    return ref.State(EngineDice(state.rng).roll, faces(game, state))


def test_first_state_is_copied(game, ref):
    state = game.new_game(players=2, seed=5)
    mirror = deal(game, state, ref)
    assert list(mirror.dice) == faces(game, state) == sorted(faces(game, state))
    assert ref.current_player(mirror) == 0 and mirror.rolls == 1


def test_the_engine_dice_roll_what_the_rulebook_rolls(game, ref):
    """P0's first re-roll of all five dice, mirrored: the same five faces."""
    state = game.new_game(players=2, seed=3)
    dice = EngineDice(state.rng)
    row = "".join(str(f) for f in faces(game, state))
    after = game.apply(state, game.parse_action(state, 0, f"reroll {row}"))
    assert faces(game, after) == sorted(dice.roll(5))


def test_reference_plays_the_rulebook(game, ref):
    decisions = [replay(game, ref, 2, seed, deal) for seed in SEEDS]
    # 24 turns of one to three decisions each
    assert all(24 <= d <= 72 for d in decisions)
    assert len(set(decisions)) > 1


def test_reference_alone_fills_every_box_once(ref):
    for seed in range(40):
        state = ref.new_game(2, seed)
        rng = random.Random(seed)
        turns = 0
        while not ref.is_over(state):
            moves = ref.legal_moves(state)
            assert len({ref.move_text(state, m) for m in moves}) == len(moves)
            move = moves[rng.randrange(len(moves))]
            turns += move < 0
            ref.apply(state, move)
        assert turns == 2 * ref.ROUNDS and state.open == [[], []]
        assert all(0 <= total <= 12 * 50 for total in ref.scores(state))


def test_the_reference_deals_by_its_seed(ref):
    def game_of(seed):
        state, rng, texts = ref.new_game(2, seed), random.Random(0), []
        while not ref.is_over(state):
            move = ref.legal_moves(state)[0 if rng.random() < 0.5 else -1]
            texts.append(ref.move_text(state, move))
            ref.apply(state, move)
        return texts, ref.scores(state)

    assert game_of(7) == game_of(7)
    assert game_of(7) != game_of(8)

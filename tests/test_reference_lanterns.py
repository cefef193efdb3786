"""tools/reference/lanterns.py against rulebooks/lanterns.rules: seeded random
games with 2, 3 and 4 players replayed in the reference agree at every
decision (who decides, the texts of the options) and on the final scores.

All chance is at setup (the start player, the shuffled tiles), so the
reference is dealt the rulebook's first state: its start player and its
tiles in play, in the order they were dealt and are drawn.
"""

from __future__ import annotations

import random

import pytest

from interpreter import load_rulebook
from tests.references import reference, replay
from tests.scenario import names, set_var, var

SEEDS = range(8)


@pytest.fixture(scope="module")
def game():
    return load_rulebook("lanterns")


@pytest.fixture(scope="module")
def ref():
    return reference("lanterns")


def deal(game, state, ref):
    n = state.players
    start = var(game, state, "start")
    order = [(start + i) % n for i in range(n)]
    # the tiles in play before the deal, top first: each hand in turn order, then the draw stack
    top_first = [t for p in order for t in names(game, state, f"tiles({p})")]
    top_first += names(game, state, "tile_stack")[::-1]
    mirror = ref.State(n, start, [int(t) for t in reversed(top_first)])
    mirror.favour_supply = var(game, state, "favour_supply")
    return mirror


class Arranged:
    """The rulebook, its first state changed by `change` (a new state)."""

    def __init__(self, game, change):
        self.game, self.change = game, change

    def new_game(self, players, seed):
        return self.change(self.game.new_game(players=players, seed=seed))

    def __getattr__(self, name):
        return getattr(self.game, name)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_first_state_is_copied(game, ref, players):
    state = game.new_game(players=players, seed=11)
    mirror = deal(game, state, ref)
    for p in range(players):
        assert sorted(map(str, mirror.hands[p])) == sorted(names(game, state, f"tiles({p})"))
        assert [c for k, c in enumerate(ref.COLOURS) for _ in range(mirror.cards[p][k])] \
            == sorted(names(game, state, f"cards({p})"), key=ref.COLOURS.index)
    assert list(map(str, mirror.tile_stack)) == names(game, state, "tile_stack")


@pytest.mark.parametrize("players", [2, 3, 4])
def test_reference_plays_the_rulebook(game, ref, players):
    for seed in SEEDS:
        replay(game, ref, players, seed, deal)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_reference_places_every_tile(ref, players):
    for seed in range(10):
        state = ref.new_game(players, seed)
        rng = random.Random(seed)
        while not ref.is_over(state):
            moves = ref.legal_moves(state)
            assert len({ref.move_text(state, m) for m in moves}) == len(moves)
            ref.apply(state, moves[rng.randrange(len(moves))])
        assert len(state.lake) == 1 + ref.TILES_USED[players]
        assert not state.tile_stack and not any(state.hands)


def test_reference_pays_what_is_left_of_the_favour(game, ref):
    # with a single favour token in the supply, a placement due 2 pays 1
    short = Arranged(game, lambda state: set_var(game, state, "favour_supply", 1))
    for seed in SEEDS:
        replay(short, ref, 4, seed, deal)

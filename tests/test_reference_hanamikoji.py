"""tools/reference/hanamikoji.py against rulebooks/hanamikoji.rules: seeded
random games replayed in the reference agree at every decision (who decides,
the texts of the options) and on the final scores.

Every round reshuffles all 21 cards. The first round's deal is copied from
the rulebook's first state; the later shuffles are mirrored by handing the
reference a shuffler that runs the engine's own generator on from its value
in that first state, over the cards in the order the rulebook collects them.
"""

from __future__ import annotations

import random

import pytest

from interpreter import load_rulebook
from interpreter.runtime.state import State as EngineState
from tests.references import reference, replay
from tests.scenario import names, var

SEEDS = range(24)
DECISIONS_A_ROUND = 12


@pytest.fixture(scope="module")
def game():
    return load_rulebook("hanamikoji")


@pytest.fixture(scope="module")
def ref():
    return reference("hanamikoji")


class EngineShuffle:
    """Shuffles as the engine's `shuffle` does, from its generator's value."""

    def __init__(self, value: int):
        self.rng = value

    def shuffle(self, items: list) -> None:
        EngineState.shuffle(self, items)


def deal(game, state, ref):
    cards = {name: g for g, name in enumerate(ref.NAMES)}
    start = var(game, state, "start_player")
    hands = [names(game, state, f"hand({p})") for p in (0, 1)]
    drawn = hands[start].pop()          # the start player's first draw is on top
    # the deck before the deal, top first: the removed card, hand 0, hand 1, the draw, the rest
    top_first = (names(game, state, "removed") + hands[0] + hands[1] + [drawn]
                 + names(game, state, "deck")[::-1])
    mirror = ref.State(start, EngineShuffle(state.rng))
    mirror.begin_round([cards[c] for c in reversed(top_first)])
    return mirror


def test_first_state_is_copied(game, ref):
    state = game.new_game(players=2, seed=5)
    mirror = deal(game, state, ref)
    for p in (0, 1):
        assert [ref.NAMES[c] for c in mirror.hands[p]] == sorted(names(game, state, f"hand({p})"))
    assert [ref.NAMES[c] for c in mirror.deck] == names(game, state, "deck")


def test_reference_plays_the_rulebook(game, ref):
    decisions = [replay(game, ref, 2, seed, deal) for seed in SEEDS]
    # 8 turns and 4 answers a round: the later rounds' shuffles were mirrored too
    assert max(decisions) > DECISIONS_A_ROUND
    assert all(d % DECISIONS_A_ROUND == 0 for d in decisions)


def test_reference_ends_with_a_winner(ref):
    for seed in range(40):
        state = ref.new_game(2, seed)
        rng = random.Random(seed)
        while not ref.is_over(state):
            moves = ref.legal_moves(state)
            assert len({ref.move_text(state, m) for m in moves}) == len(moves)
            ref.apply(state, moves[rng.randrange(len(moves))])
        assert any(c >= ref.CHARM_TO_WIN for c in ref.scores(state)) or any(
            state.favour.count(p) >= ref.GEISHA_TO_WIN for p in (0, 1))

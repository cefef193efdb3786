"""AI players: legal choices, blind to hidden information, within budget.

The blindness test is the issue's proof that no player peeks: in random
Hanamikoji states the cards the deciding player cannot see are shuffled
among the places hidden from them (`scenario.permute_hidden`), and every
kind of player, seeded alike, must choose the same action in both states. A
deliberately cheating player shows that the test would catch a peek.
"""

from __future__ import annotations

import random
import time
from pathlib import Path

import pytest

from interpreter import load_rulebook
from interpreter.errors import CommandError
from interpreter.ai.players import KINDS, make_player
from tests.scenario import permute_hidden

ROOT = Path(__file__).resolve().parent.parent
ITERATIONS = 25  # enough to make the search depend on its samples, and quick


@pytest.fixture(scope="module")
def hanamikoji():
    return load_rulebook("hanamikoji")


@pytest.fixture(scope="module")
def counter():
    return load_rulebook(str(ROOT / "tests" / "engine" / "counter.rules"))


def random_states(game, players: int, count: int, seed: int) -> list:
    """`count` states of random games, each at a random decision."""
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        state = game.new_game(players=players, seed=rng.randrange(10**6))
        stop = rng.randrange(30)
        while not state.over and state.decisions < stop:
            player = game.to_move(state)[0]
            state = game.apply(state, rng.choice(game.legal_actions(state, player)))
        if not state.over:
            out.append(state)
    return out


def decide(game, state, player_of, seed: int = 7):
    me = game.to_move(state)[0]
    bot = player_of(state, seed)
    return bot.act(game, game.view(state, me), game.legal_actions(state, me))


def honest(kind: str, **options):
    return lambda state, seed: make_player(kind, seed=seed, iterations=ITERATIONS, **options)


# every kind, and the search players' options that change how they search
SETTINGS = [(kind, {}) for kind in KINDS] + [("ismcts", {"groups": True}),
                                             ("ismcts", {"exploration": 2.0})]
SETTING_IDS = [k + "".join(f"-{o}={v}" for o, v in opts.items()) for k, opts in SETTINGS]


class Cheater:
    """Looks at every hidden card of the real state: what the test must catch."""

    uses_view = True

    def __init__(self, state, seed):
        self.state = state

    def act(self, game, view, actions):
        peek = sum(k * c for z in self.state.zones for k, c in enumerate(z))
        return actions[peek % len(actions)]


@pytest.mark.parametrize("kind, options", SETTINGS, ids=SETTING_IDS)
def test_every_kind_returns_a_legal_action(hanamikoji, counter, kind, options):
    for game, players in ((hanamikoji, 2), (counter, 2), (counter, 3)):
        for state in random_states(game, players, 3, seed=players):
            me = game.to_move(state)[0]
            legal = game.legal_actions(state, me)
            action = decide(game, state, honest(kind, **options))
            assert action in legal
            game.apply(state, action)


@pytest.mark.parametrize("kind, options", SETTINGS, ids=SETTING_IDS)
def test_no_player_reads_what_it_cannot_see(hanamikoji, kind, options):
    rng = random.Random(5)
    states = random_states(hanamikoji, 2, 8, seed=11)
    changed = 0
    for state in states:
        me = hanamikoji.to_move(state)[0]
        other = permute_hidden(hanamikoji, state, me, rng)
        changed += other.zones != state.zones
        assert hanamikoji.view(other, me) == hanamikoji.view(state, me)
        player = honest(kind, **options)
        assert decide(hanamikoji, other, player) == decide(hanamikoji, state, player)
    assert changed >= len(states) - 1, "the permutation must actually move hidden cards"


def test_the_blindness_test_catches_a_player_that_peeks(hanamikoji):
    rng = random.Random(5)
    differ = 0
    for state in random_states(hanamikoji, 2, 8, seed=11):
        me = hanamikoji.to_move(state)[0]
        other = permute_hidden(hanamikoji, state, me, rng)
        differ += decide(hanamikoji, other, Cheater) != decide(hanamikoji, state, Cheater)
    assert differ > 0


def test_ismcts_runs_exactly_its_iterations(hanamikoji):
    state = random_states(hanamikoji, 2, 1, seed=3)[0]
    me = hanamikoji.to_move(state)[0]
    while len(hanamikoji.legal_actions(state, me)) < 2:  # one choice needs no search
        state = random_states(hanamikoji, 2, 1, seed=state.decisions + 4)[0]
        me = hanamikoji.to_move(state)[0]
    for kind in ("ismcts", "mcts"):
        bot = make_player(kind, seed=1, iterations=17)
        bot.act(hanamikoji, hanamikoji.view(state, me), hanamikoji.legal_actions(state, me))
        assert bot.iterations_done == 17


def test_ismcts_stops_at_its_time_budget(hanamikoji):
    state = hanamikoji.new_game(players=2, seed=1)
    me = hanamikoji.to_move(state)[0]
    bot = make_player("ismcts", seed=1, iterations=10**9, seconds=0.2)
    start = time.perf_counter()
    bot.act(hanamikoji, hanamikoji.view(state, me), hanamikoji.legal_actions(state, me))
    assert 0 < bot.iterations_done < 10**9      # the budget, not the iterations, stopped it
    assert time.perf_counter() - start >= 0.2   # and not before it was spent


def test_players_of_the_same_seed_choose_alike(hanamikoji):
    for state in random_states(hanamikoji, 2, 3, seed=9):
        for kind in KINDS:
            assert decide(hanamikoji, state, honest(kind), seed=4) == \
                decide(hanamikoji, state, honest(kind), seed=4)


def test_an_unknown_kind_is_a_coded_error():
    with pytest.raises(CommandError) as caught:
        make_player("genius")
    assert caught.value.code == "command/unknown-ai"

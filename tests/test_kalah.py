"""Known facts of Kalah (rulebooks/kalah.rules).

The rules: each player has six pits of 4 seeds and an empty store; P0
moves first. A move empties one of one's non-empty pits and sows its seeds
one by one counter-clockwise, into one's own store but never the
opponent's. A last seed in one's own store gives one another move. A last
seed in an empty pit of one's own side, with seeds in the pit across,
goes to one's store with those seeds. When all six pits of either side are
empty after a move, each player puts the seeds of their side in their
store and the game ends. The score is the seeds in one's store; the most
wins, equal shares.

The board is named as the rulebook names it, counter-clockwise: P0's pits
a1 … a6 and a_store, P1's pits b1 … b6 and b_store; b6 is across from a1.
An arranged position keeps the start's flow, so P0 is to move in it.
"""

from __future__ import annotations

import functools
import random
from pathlib import Path

import pytest

from interpreter import load_rulebook
from tests.references import reference, replay
from tests.scenario import do, set_value, texts_of, value_of

ROOT = Path(__file__).resolve().parent.parent
RULES = ROOT / "rulebooks" / "kalah.rules"
ORDER = [f"a{k}" for k in range(1, 7)] + ["a_store"] + [f"b{k}" for k in range(1, 7)] + ["b_store"]


@functools.lru_cache(maxsize=None)
def rules():
    return load_rulebook(RULES)


@pytest.fixture(scope="module")
def game():
    return rules()


def seeds(g, s) -> dict:
    return {name: value_of(g, s, "seeds", name) for name in ORDER}


def arranged(g, counts: dict) -> object:
    """The start with the given pits and stores set, every other hollow empty."""
    s = g.new_game(players=2, seed=0)
    return set_value(g, s, "seeds", {name: counts.get(name, 0) for name in ORDER})


def changes(g, before, after) -> dict:
    """The hollows whose seeds changed, with their new counts."""
    a, b = seeds(g, before), seeds(g, after)
    return {name: b[name] for name in ORDER if a[name] != b[name]}


# == the start ===================================================================================

def test_each_pit_starts_with_four_seeds_the_stores_empty_and_p0_moves(game):
    s = game.new_game(players=2, seed=0)
    assert seeds(game, s) == {name: 0 if name.endswith("store") else 4 for name in ORDER}
    assert list(game.to_move(s)) == [0]
    assert texts_of(game, s) == [f"sow a{k}" for k in range(1, 7)]


def test_only_ones_own_non_empty_pits_may_be_sown(game):
    s = arranged(game, {"a2": 3, "a5": 1, "b1": 4})
    assert texts_of(game, s) == ["sow a2", "sow a5"]


# == sowing ======================================================================================

def test_seeds_are_sown_one_by_one_into_the_following_pits(game):
    s = game.new_game(players=2, seed=0)
    after = do(game, s, "sow a1")
    assert changes(game, s, after) == {"a1": 0, "a2": 5, "a3": 5, "a4": 5, "a5": 5}
    assert list(game.to_move(after)) == [1]


def test_sowing_goes_into_ones_own_store_and_on_to_the_opponents_pits(game):
    s = game.new_game(players=2, seed=0)
    after = do(game, s, "sow a6")
    assert changes(game, s, after) == {"a6": 0, "a_store": 1, "b1": 5, "b2": 5, "b3": 5}


def test_sowing_skips_the_opponents_store(game):
    """Ten seeds from a6: a_store, b1 … b6, then a1, a2, a3 — b_store gets none."""
    s = arranged(game, {"a6": 10, "a3": 1})
    after = do(game, s, "sow a6")
    assert changes(game, s, after) == {"a6": 0, "a_store": 1, "b1": 1, "b2": 1, "b3": 1,
                                       "b4": 1, "b5": 1, "b6": 1, "a1": 1, "a2": 1, "a3": 2}


def test_sowing_by_p1_skips_p0s_store(game):
    """Ten seeds from b6: b_store, a1 … a6, then b1, b2, b3 — a_store gets none."""
    s = do(game, arranged(game, {"a1": 1, "a6": 2, "b6": 10, "b3": 1}), "sow a1")
    assert list(game.to_move(s)) == [1]
    after = do(game, s, "sow b6")
    assert changes(game, s, after) == {"b6": 0, "b_store": 1, "a1": 1, "a2": 2, "a3": 1,
                                       "a4": 1, "a5": 1, "a6": 3, "b1": 1, "b2": 1, "b3": 2}


# == another move ================================================================================

def test_a_last_seed_in_ones_own_store_gives_another_move(game):
    s = do(game, game.new_game(players=2, seed=0), "sow a3")     # a4, a5, a6, a_store
    assert seeds(game, s)["a_store"] == 1
    assert list(game.to_move(s)) == [0]
    s = do(game, s, "sow a1")                                    # ends in a5: the turn passes
    assert list(game.to_move(s)) == [1]


def test_a_last_seed_in_the_opponents_pit_gives_no_other_move(game):
    s = do(game, game.new_game(players=2, seed=0), "sow a6")
    assert list(game.to_move(s)) == [1]


# == captures ====================================================================================

def test_a_last_seed_in_an_empty_own_pit_captures_the_pit_across(game):
    """Two seeds from a1: a2, then a3, which was empty; b4 across holds 5."""
    s = arranged(game, {"a1": 2, "a6": 1, "b4": 5, "b1": 1})
    after = do(game, s, "sow a1")
    assert changes(game, s, after) == {"a1": 0, "a2": 1, "a_store": 6, "b4": 0}
    assert list(game.to_move(after)) == [1]


def test_no_capture_when_the_pit_across_is_empty(game):
    s = arranged(game, {"a1": 2, "a6": 1, "b1": 1})
    after = do(game, s, "sow a1")
    assert changes(game, s, after) == {"a1": 0, "a2": 1, "a3": 1}


def test_no_capture_in_an_empty_pit_of_the_opponents_side(game):
    """The last seed ends in the empty b1; a6 across holds seeds, nothing is taken."""
    s = arranged(game, {"a5": 3, "a6": 2, "b3": 1})
    after = do(game, s, "sow a5")
    assert changes(game, s, after) == {"a5": 0, "a6": 3, "a_store": 1, "b1": 1}


def test_no_capture_in_a_pit_that_already_held_seeds(game):
    s = arranged(game, {"a1": 2, "a3": 1, "b4": 5, "b1": 1})
    after = do(game, s, "sow a1")
    assert changes(game, s, after) == {"a1": 0, "a2": 1, "a3": 2}


# == the end =====================================================================================

def test_when_ones_own_side_is_empty_the_seeds_left_go_to_their_owners_store(game):
    s = arranged(game, {"a6": 1, "a_store": 20, "b2": 3, "b5": 4, "b_store": 20})
    after = do(game, s, "sow a6")
    out = game.outcome(after)
    assert out is not None and list(game.to_move(after)) == []
    assert seeds(game, after)["a_store"] == 21 and seeds(game, after)["b_store"] == 27
    assert all(seeds(game, after)[name] == 0 for name in ORDER if not name.endswith("store"))
    assert list(out.scores) == [21, 27] and list(out.winners) == [1]


def test_the_game_ends_when_the_opponents_side_is_emptied_by_a_capture(game):
    """P0 captures b4, P1's last seeds: P0's other seeds go to P0's store."""
    s = arranged(game, {"a1": 2, "a5": 3, "b4": 5, "a_store": 10, "b_store": 28})
    after = do(game, s, "sow a1")
    assert game.outcome(after) is not None
    assert list(game.outcome(after).scores) == [10 + 6 + 3 + 1, 28]


def test_the_most_seeds_wins_and_equal_seeds_share_the_win(game):
    s = arranged(game, {"a6": 1, "a_store": 23, "b1": 4, "b_store": 20})
    out = game.outcome(do(game, s, "sow a6"))
    assert list(out.scores) == [24, 24] and sorted(out.winners) == [0, 1]


# == random games ================================================================================

def test_random_games_keep_all_48_seeds_and_end_with_them_in_the_stores(game):
    for seed in range(10):
        rng = random.Random(seed)
        s = game.new_game(players=2, seed=seed)
        while game.outcome(s) is None:
            assert sum(seeds(game, s).values()) == 48
            s = game.apply(s, rng.choice(game.legal_actions(s, game.to_move(s)[0])))
        assert sum(game.outcome(s).scores) == 48


# == the hand-written reference ==================================================================

def test_the_reference_plays_the_same_games():
    """20 seeded random games of the rulebook, mirrored move by move in
    tools/reference/kalah.py."""
    ref = reference("kalah")
    for seed in range(20):
        replay(rules(), ref, 2, seed, lambda g, s, r: r.new_game(2, seed))

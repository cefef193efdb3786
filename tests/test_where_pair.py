"""The two rulebooks of `tools/bench.py --where` are one game.

tools/bench_rules/where-natural.rules filters its move with one `where` over
both parameters, where-split.rules splits that filter by hand; the benchmark
compares their listing times, so both must offer exactly the same legal
actions. Seeded random games are played on both side by side (the same seed
rolls the same dice, the same text is picked on each), and at every decision
the legal actions' texts are the same, as is the outcome.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from interpreter import load_rulebook

RULES = Path(__file__).resolve().parent.parent / "tools" / "bench_rules"
SEEDS = range(30)


@pytest.fixture(scope="module")
def games():
    return [load_rulebook(str(RULES / f"where-{name}.rules")) for name in ("natural", "split")]


def texts(game, state) -> list:
    return sorted(str(a) for a in game.legal_actions(state, game.to_move(state)[0]))


@pytest.mark.parametrize("seed", SEEDS)
def test_same_legal_actions(games, seed):
    natural, split = games
    rng = random.Random(seed)
    a, b = natural.new_game(players=2, seed=seed), split.new_game(players=2, seed=seed)
    decisions = 0
    while natural.outcome(a) is None:
        assert split.outcome(b) is None
        offered = texts(natural, a)
        assert offered and offered == texts(split, b)
        pick = offered[rng.randrange(len(offered))]
        player = natural.to_move(a)[0]
        a = natural.apply(a, natural.parse_action(a, player, pick))
        b = split.apply(b, split.parse_action(b, player, pick))
        decisions += 1
    assert natural.outcome(a).scores == split.outcome(b).scores
    assert decisions >= 3          # at most 6 steps a move: the winner moves twice at least


def test_only_the_split_one_filters_x_alone():
    natural = (RULES / "where-natural.rules").read_text()
    split = (RULES / "where-split.rules").read_text()
    assert "x: one of 2 to 12,\n" in natural
    assert "x: one of 2 to 12 where" in split

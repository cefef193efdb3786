"""What the benchmarks of tools/bench.py share: fresh seeds for every side of
every block, CPU timing, random playouts through the documented API, and the
geometric mean.

Every side of every block plays seeds nobody played before in the process
(seed 0 is the warm-up's), so no cache keyed by a deal or a position can
carry one side's work over to another, and a run is still deterministic.
"""

from __future__ import annotations

import math
import random
import time

WARM_UP_SEEDS = range(1)      # compiling and caches are not playouts


def fresh_seeds(block: int, side: int, sides: int, games: int) -> range:
    """The seeds of one side's block: distinct for every (block, side)."""
    start = len(WARM_UP_SEEDS) + (block * sides + side) * games
    return range(start, start + games)


def engine_playouts(game, players: int, seeds: range) -> int:
    """Random games through the API; the player decisions they took."""
    decisions = 0
    for seed in seeds:
        rng = random.Random(seed)
        state = game.new_game(players=players, seed=seed)
        while game.outcome(state) is None:
            actions = game.legal_actions(state, game.to_move(state)[0])
            state = game.apply(state, actions[rng.randrange(len(actions))])
            decisions += 1
    return decisions


def timed(run, *args) -> tuple[float, object]:
    """The CPU seconds of `run(*args)` in this process, and what it returned."""
    start = time.process_time()
    result = run(*args)
    return time.process_time() - start, result


def geometric_mean(values) -> float:
    values = list(values)
    return math.exp(sum(math.log(v) for v in values) / len(values))


def verdict(met: bool) -> str:
    return "met" if met else "NOT met"

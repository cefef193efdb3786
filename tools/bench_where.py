"""What a `where` over two parameters costs (`python tools/bench.py --where`).

tools/bench_rules/where-natural.rules writes a dice game's move as a rulebook
naturally would, one `where` after the last parameter over both:
`advance(x: one of 2 to 12, y: one of 0 to 12 where <x's test> and <y's tests>)`;
where-split.rules is the same game with the filter split by hand, each
parameter filtered by what it alone decides (x by the dice, y by x and the
marker), so its y is tried only for the x that pass. Both offer the same
legal actions (tests/test_where_pair.py). Random games are played on each in
alternating blocks, every side of every block on fresh seeds, and only the
listing is timed: `game.legal_actions` of the player to move and its length,
which works out every option. Printed: the listing's CPU time a decision of
each, and natural's over split's, against the target.
"""

from __future__ import annotations

import random
import time
from pathlib import Path

from interpreter import load_rulebook
from tools.bench_blocks import WARM_UP_SEEDS, fresh_seeds, verdict

RULES = Path(__file__).resolve().parent / "bench_rules"
RATIO_WHERE = 1.5             # the figure to reach: natural's listing within 1.5x of split's
PLAYERS = 2


def listing_seconds(game, seeds: range) -> tuple[float, int]:
    """Random games; the CPU seconds spent listing legal actions, and the decisions."""
    clock = time.process_time
    spent, decisions = 0.0, 0
    for seed in seeds:
        rng = random.Random(seed)
        state = game.new_game(players=PLAYERS, seed=seed)
        while game.outcome(state) is None:
            start = clock()
            actions = game.legal_actions(state, game.to_move(state)[0])
            n = len(actions)
            spent += clock() - start
            state = game.apply(state, actions[rng.randrange(n)])
            decisions += 1
    return spent, decisions


def natural_against_split(games: int, blocks: int) -> int:
    """The two listings' times a decision and their ratio; 1 when the target is not met."""
    print(f"listing the legal actions, {blocks} alternating blocks of {games} random games a side, "
          f"fresh seeds for every side and block (CPU time of one process)")
    sides = {name: load_rulebook(str(RULES / f"where-{name}.rules")) for name in ("natural", "split")}
    for game in sides.values():
        listing_seconds(game, WARM_UP_SEEDS)
    spent, decisions = dict.fromkeys(sides, 0.0), dict.fromkeys(sides, 0)
    for block in range(blocks):
        for side, (name, game) in enumerate(sides.items()):
            seconds, made = listing_seconds(game, fresh_seeds(block, side, len(sides), games))
            spent[name] += seconds
            decisions[name] += made
    per = {name: spent[name] / decisions[name] for name in sides}
    for name in sides:
        print(f"  {name:<8} {per[name] * 1e6:9.1f} µs a decision ({decisions[name]} decisions)")
    ratio = per["natural"] / per["split"]
    print(f"  natural / split: {ratio:.2f}x")
    print(f"  target natural within {RATIO_WHERE}x of split: {verdict(ratio <= RATIO_WHERE)}")
    return 0 if ratio <= RATIO_WHERE else 1

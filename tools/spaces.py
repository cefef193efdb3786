"""The fixed action spaces and observation lengths of the shipped rulebooks.

Usage:
  python tools/spaces.py [RULEBOOK ...]            the table of docs/api.md, as Markdown
  python tools/spaces.py --decisions [RULEBOOK ...]  and each decision's ids
  python tools/spaces.py --seen GAMES [RULEBOOK ...]  and how many distinct actions,
                                                      and ids, GAMES random games take

For each rulebook in rulebooks/ and each player count it supports: the size
of `game.action_space(players)` (the ids every action that can ever be legal
has), the radius of an open grid's cells where it has one, and the length of
`game.observation(state, player)`. With `--seen`, seeded random games are
played and the distinct texts of the actions offered are counted, beside the
ids they use: what a wrapper collecting action texts as they appear would see.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from interpreter import load_rulebook  # noqa: E402

SHIPPED = ["hanamikoji", "lanterns", "festival-of-lights", "samurai", "paris", "hearts", "kalah",
           "kuhn-poker", "othello"]


def seen(game, players: int, games: int) -> tuple:
    """(distinct action texts offered, distinct ids) over seeded random games."""
    space = game.action_space(players)
    texts, ids = set(), set()
    for seed in range(games):
        rng = random.Random(seed)
        s = game.new_game(players, seed)
        while game.outcome(s) is None:
            for p in game.to_move(s):
                for a in game.legal_actions(s, p):
                    texts.add(str(a))
                    ids.add(space.id_of(a))
            actions = game.legal_actions(s, game.to_move(s)[0])
            s = game.apply(s, actions[rng.randrange(len(actions))])
    return len(texts), len(ids)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("rulebooks", nargs="*", default=SHIPPED)
    parser.add_argument("--decisions", action="store_true", help="list each decision's ids")
    parser.add_argument("--seen", type=int, metavar="GAMES", default=0,
                        help="count the actions random games offer")
    args = parser.parse_args(argv)
    head = "| rulebook | players | action ids | open-grid radius | observation length |"
    rule = "|---|---|---|---|---|"
    if args.seen:
        head += f" actions offered in {args.seen} games | their ids |"
        rule += "---|---|"
    print(head)
    print(rule)
    details = []
    for name in args.rulebooks:
        game = load_rulebook(name)
        for n in range(game.min_players, game.max_players + 1):
            started = time.perf_counter()
            space = game.action_space(n)
            built = time.perf_counter() - started
            radius = "—" if space.radius is None else str(space.radius)
            row = (f"| {name} | {n} | {space.size:,} | {radius} | "
                   f"{game.observation_spec(n).size:,} |")
            if args.seen:
                texts, ids = seen(game, n, args.seen)
                row += f" {texts:,} | {ids:,} |"
            print(row)
            if args.decisions:
                blocks = ", ".join(f"{b} {size:,}" for b, _, size in space.blocks)
                details.append(f"- {name}, {n} players ({built * 1000:.0f} ms): {blocks}")
    if details:
        print()
        print("\n".join(details))
    return 0


if __name__ == "__main__":
    sys.exit(main())

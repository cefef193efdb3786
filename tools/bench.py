"""How fast random playouts run: games/s and decisions/s for one rulebook.

Usage: python tools/bench.py [RULEBOOK] [--players N] [--games N] [--seed S]

It drives the engine only through its public API (load_rulebook and the
games of interpreter.simulation.simulate, in this one process), so it measures what
every tool sees.
The project's targets: 400 random games/s of Hanamikoji (2 players), 500
of Festival of Lights (4 players), 100 of Lanterns (4 players) and 50 of
Samurai with the beginner setup (rulebooks/variants/samurai-beginner-setup.rules,
4 players) and 50 of Paris (2 players); the verdict is printed for a target's
rulebook at its player count (the default --players).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from interpreter import load_rulebook  # noqa: E402
from interpreter.simulation.simulate import Plan, simulate  # noqa: E402

# rulebook stem -> random games/s on one core, at the player count of TARGET_PLAYERS
TARGET_GAMES_PER_SECOND = {"hanamikoji": 400, "festival-of-lights": 500, "lanterns": 100,
                           "samurai-beginner-setup": 50, "paris": 50}
TARGET_PLAYERS = {"hanamikoji": 2, "festival-of-lights": 4, "lanterns": 4,
                  "samurai-beginner-setup": 4, "paris": 2}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("rulebook", nargs="?", default="hanamikoji")
    parser.add_argument("--players", type=int, default=None,
                        help="default: the target's player count, else 2")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    stem = Path(args.rulebook).stem
    if args.players is None:
        args.players = TARGET_PLAYERS.get(stem, 2)

    game = load_rulebook(args.rulebook)
    plan = Plan(players=args.players, seats=("random",) * args.players, seed=args.seed)
    # One untimed game first: lazy set-up (compiling, caches) is not playout speed.
    simulate(game, plan, 1)
    report = simulate(game, plan, args.games)
    timing = report["timing"]
    print(f"{game.name}, {args.players} players, {report['games']} random games "
          f"in {timing['seconds']:.2f} s ({report['capped']} cut off)")
    print(f"  {timing['games_per_second']:8.1f} games/s")
    print(f"  {timing['decisions_per_second']:8.0f} decisions/s "
          f"({report['decisions']['mean']:.1f} decisions and {report['rounds']['mean']:.2f} "
          f"rounds a game)")
    target = TARGET_GAMES_PER_SECOND.get(stem)
    if target and args.players == TARGET_PLAYERS[stem]:
        verdict = "met" if timing["games_per_second"] >= target else "NOT met"
        print(f"  target {target} games/s: {verdict}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""How fast random playouts run: games/s and decisions/s for one rulebook,
or every benchmark game against its hand-written reference, four games
against OpenSpiel's C++ ones, and a two-parameter `where` against it split.

Usage: python tools/bench.py [RULEBOOK] [--players N] [--games N] [--seed S]
       python tools/bench.py --reference [GAME ...] [--games N] [--blocks K]
       python tools/bench.py --openspiel [--games N] [--blocks K]
       python tools/bench.py --where [--games N] [--blocks K]

It drives the engine only through its public API (load_rulebook and the
games of interpreter.simulation.simulate, in this one process), so it measures what
every tool sees.
The project's targets: 400 random games/s of Hanamikoji (2 players), 500
of Festival of Lights (4 players), 100 of Lanterns (4 players) and 50 of
Samurai with the beginner setup (rulebooks/variants/samurai-beginner-setup.rules,
4 players) and 50 of Paris (2 players); the verdict is printed for a target's
rulebook at its player count (the default --players).

With --reference, each benchmark game (BENCHMARK) is played at random both
through the documented API and by its plain-Python version in
tools/reference/ (see its README), in alternating blocks in this one
process, and the engine's games/s, the reference's, their ratio and the
geometric mean of the ratios are printed. Both sides do the same thing: list
the legal moves of the player to move, pick one uniformly at random, apply
it, until the end. A third column plays random games through the search
players' fast path (`Game.playout`: one copy of the state, changed in place).
Every side of every block plays seeds no other side or block played
(tools/bench_blocks.py), so no cache keyed by a deal or a position carries
work over. A game without its rulebook or reference is listed as such and
fails the targets: each game at 0.4x its reference, a geometric mean of
0.7x, Hanamikoji at 1.0x and the fast path's geometric mean at 1.0x.

With --openspiel (needs the extra: pip install -e '.[openspiel]'; without
it, a message and exit status 2), Othello, Kuhn poker, Kalah and Hearts are
played against pyspiel's othello, kuhn_poker, mancala and hearts the same
way; the target is a geometric mean of 0.3x. tools/bench_openspiel.py says
where the rules differ.

With --where, the listing of legal actions of tools/bench_rules/where-natural.rules
(one `where` over two parameters) is timed against where-split.rules (the
same filter split by hand); the target is natural within 1.5x of split
(tools/bench_where.py).

Times are the process's CPU time, so a busy machine slows both sides alike.
The exit status is 1 when a target printed is not met.
"""

from __future__ import annotations

import argparse
import importlib.util
import random
import sys
from functools import partial
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from interpreter import load_rulebook  # noqa: E402
from interpreter.simulation.simulate import Plan, simulate  # noqa: E402
from tools.bench_blocks import (WARM_UP_SEEDS, engine_playouts, fresh_seeds,  # noqa: E402
                                geometric_mean, timed, verdict)
from tools.bench_openspiel import against_openspiel  # noqa: E402
from tools.bench_where import natural_against_split  # noqa: E402

# rulebook stem -> random games/s on one core, at the player count of TARGET_PLAYERS
TARGET_GAMES_PER_SECOND = {"hanamikoji": 400, "festival-of-lights": 500, "lanterns": 100,
                           "samurai-beginner-setup": 50, "paris": 50}
TARGET_PLAYERS = {"hanamikoji": 2, "festival-of-lights": 4, "lanterns": 4,
                  "samurai-beginner-setup": 4, "paris": 2}

# the games timed against a hand-written reference: rulebook -> players
BENCHMARK = {"hanamikoji": 2, "lanterns": 4, "othello": 2, "kalah": 2, "hearts": 4,
             "kuhn-poker": 2, "yacht": 2, "dots-and-boxes": 2}
REFERENCES = Path(__file__).resolve().parent / "reference"
# the figures to reach: each ratio, their geometric mean, Hanamikoji's, and
# the geometric mean of the search players' fast path (Game.playout)
RATIO_EACH, RATIO_MEAN, RATIO_HANAMIKOJI, RATIO_SEARCH = 0.4, 0.7, 1.0, 1.0


def fast_playouts(game, players: int, seeds: range) -> None:
    """Random games through the search players' fast path."""
    for seed in seeds:
        game.playout(game.new_game(players=players, seed=seed), random.Random(seed))


def reference_playouts(ref, players: int, seeds: range) -> None:
    for seed in seeds:
        rng = random.Random(seed)
        state = ref.new_game(players, seed)
        while not ref.is_over(state):
            moves = ref.legal_moves(state)
            ref.apply(state, moves[rng.randrange(len(moves))])


def load_reference(stem: str):
    path = REFERENCES / (stem.replace("-", "_") + ".py")
    if not path.exists():
        return None
    spec = importlib.util.spec_from_file_location(f"reference_{path.stem}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def against_references(stems: list, games: int, blocks: int) -> int:
    """The table of engine and reference speeds; 1 when a figure is not met."""
    print(f"random playouts, {blocks} alternating blocks of {games} games a side, "
          f"fresh seeds for every side and block (CPU time of one process)")
    print(f"{'game':<14} {'players':>7} {'engine g/s':>11} {'reference g/s':>14} {'ratio':>7} "
          f"{'fast path g/s':>14} {'ratio':>7}")
    ratios, fast_ratios, short = {}, {}, []
    for stem in stems:
        players = BENCHMARK[stem]
        path = ROOT / "rulebooks" / f"{stem}.rules"
        ref = load_reference(stem)
        if not path.exists() or ref is None:
            print(f"{stem:<14} {players:>7}   (no {'rulebook' if not path.exists() else 'reference'})")
            short.append(stem)
            continue
        game = load_rulebook(str(path))
        sides = (partial(engine_playouts, game), partial(reference_playouts, ref),
                 partial(fast_playouts, game))
        for run in sides:
            run(players, WARM_UP_SEEDS)
        seconds = [0.0] * len(sides)
        for block in range(blocks):
            for side, run in enumerate(sides):
                seconds[side] += timed(run, players, fresh_seeds(block, side, len(sides), games))[0]
        engine, reference, fast = seconds
        played = games * blocks
        ratios[stem], fast_ratios[stem] = reference / engine, reference / fast
        print(f"{stem:<14} {players:>7} {played / engine:>11.1f} {played / reference:>14.1f} "
              f"{ratios[stem]:>7.3f} {played / fast:>14.1f} {fast_ratios[stem]:>7.3f}")
    if not ratios:
        return 1
    mean, fast_mean = geometric_mean(ratios.values()), geometric_mean(fast_ratios.values())
    print(f"{'geometric mean of the ratios':<49} {mean:>7.3f} {'':>14} {fast_mean:>7.3f}")
    low = [s for s, r in ratios.items() if r < RATIO_EACH]
    verdicts = [
        (f"each game at >= {RATIO_EACH}x its reference", not low and not short),
        (f"geometric mean >= {RATIO_MEAN}x", mean >= RATIO_MEAN and not short),
        (f"hanamikoji >= {RATIO_HANAMIKOJI}x", ratios.get("hanamikoji", 0) >= RATIO_HANAMIKOJI),
        (f"search fast path, geometric mean >= {RATIO_SEARCH}x",
         fast_mean >= RATIO_SEARCH and not short),
    ]
    for what, met in verdicts:
        print(f"  target {what}: {verdict(met)}")
    return 0 if all(met for _, met in verdicts) else 1


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=" ".join(__doc__.split("\n\n")[0].split()))
    parser.add_argument("rulebook", nargs="*",
                        help="one rulebook (default hanamikoji); with --reference, benchmark "
                             "games (default: all)")
    parser.add_argument("--players", type=int, default=None,
                        help="default: the target's player count, else 2")
    parser.add_argument("--games", type=int, default=None,
                        help="games to play (default 200); with --reference, --openspiel or "
                             "--where, a block's a side (default 20)")
    parser.add_argument("--seed", type=int, default=0)
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--reference", action="store_true",
                      help="time the benchmark games against their hand-written references")
    mode.add_argument("--openspiel", action="store_true",
                      help="time four games against OpenSpiel's C++ ones (needs the openspiel extra)")
    mode.add_argument("--where", action="store_true",
                      help="time the listing of a where over two parameters against it split by hand")
    parser.add_argument("--blocks", type=int, default=5,
                        help="with --reference, --openspiel or --where: alternating blocks "
                             "(default 5)")
    args = parser.parse_args(argv)
    if (args.openspiel or args.where) and args.rulebook:
        parser.error("--openspiel and --where take no rulebook")
    if args.openspiel:
        return against_openspiel(args.games or 20, args.blocks)
    if args.where:
        return natural_against_split(args.games or 20, args.blocks)
    if args.reference:
        stems = [Path(r).stem for r in args.rulebook] or list(BENCHMARK)
        unknown = [s for s in stems if s not in BENCHMARK]
        if unknown:
            parser.error(f"not a benchmark game: {', '.join(unknown)} "
                         f"(benchmark games: {', '.join(BENCHMARK)})")
        return against_references(stems, args.games or 20, args.blocks)
    if len(args.rulebook) > 1:
        parser.error("one rulebook at a time (or --reference)")
    args.rulebook = args.rulebook[0] if args.rulebook else "hanamikoji"
    args.games = args.games or 200
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

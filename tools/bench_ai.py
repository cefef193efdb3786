"""The AI and simulation figures of issue 3, printed (not timed tests).

Usage: python tools/bench_ai.py [RULEBOOK] [--games N] [--iterations N]
       [--workers N] [--throughput-games N] [--seed S] [--only NAME …]

- ismcts (N iterations per move) against random, then against greedy: the
  win rate of ismcts over `--games` games, half with ismcts in each seat on
  the same deals (seeds), with a 95% Wilson interval. Targets: 90% and 60%.
- simulate throughput of random games with 2 workers against 1 (the same
  code path as `rulebook simulate --workers N`). Target: 1.8x.
- ISMCTS iterations per second on one core, from the states of random games.

It plays through interpreter.simulation.parallel like `rulebook simulate`, so the
figures are those of the command. Other programs running on the machine
lower the speed figures; the load average is printed with them.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from interpreter import load_rulebook  # noqa: E402
from interpreter.simulation import parallel, stats  # noqa: E402
from interpreter.ai.players import make_player  # noqa: E402
from interpreter.simulation.simulate import Plan  # noqa: E402

TARGETS = {"random": 0.90, "greedy": 0.60}
TARGET_SPEEDUP = 1.8
FIGURES = ("random", "greedy", "throughput", "iterations")


def load() -> str:
    try:
        return "load average %.2f %.2f %.2f" % os.getloadavg()
    except OSError:
        return "load average unknown"


def match(game, source, opponent: str, args) -> float:
    """ismcts against `opponent`: each deal played twice, once per seating."""
    half = max(1, args.games // 2)
    shares = []
    start = time.perf_counter()
    for seat in (0, 1):
        seats = [opponent, opponent]
        seats[seat] = "ismcts"
        plan = Plan(players=2, seats=tuple(seats), seed=args.seed, iterations=args.iterations)
        batch = parallel.run([source], plan, half, loaded=[game], workers=args.workers,
                             keep_records=True)
        ended = [r for r in batch.records[0] if r.winners is not None]
        seat_shares = [r.win_share(seat) for r in ended]
        print(f"  ismcts as P{seat}: {stats.mean(seat_shares):.1%} of {len(ended)} games",
              flush=True)
        shares += seat_shares
    rate = stats.mean(shares)
    low, high = stats.wilson(sum(shares), len(shares))
    target = TARGETS[opponent]
    print(f"ismcts ({args.iterations} iterations/move) vs {opponent}: {rate:.1%} "
          f"(95% interval {low:.1%}-{high:.1%}) over {len(shares)} games in "
          f"{time.perf_counter() - start:.0f} s; target {target:.0%}: "
          f"{'met' if rate >= target else 'NOT met'}", flush=True)
    return rate


def throughput(game, source, args, repeats: int = 5) -> float:
    """Random games per second with 1 and 2 workers, the best of `repeats`
    runs each (other programs on the machine only ever slow a run down),
    and the CPU time a game costs in each, which the machine's load does not
    change: equal costs mean the pool adds no work."""
    plan = Plan(players=2, seats=("random", "random"), seed=args.seed)
    parallel.run([source], plan, 20, loaded=[game], workers=1)  # warm caches
    best = {1: 0.0, 2: 0.0}
    cpu = {1: [], 2: []}
    for _ in range(repeats):
        for workers in (1, 2):
            start, before = time.perf_counter(), os.times()
            parallel.run([source], plan, args.throughput_games, loaded=[game], workers=workers)
            seconds, after = time.perf_counter() - start, os.times()
            used = (after.user + after.system + after.children_user + after.children_system
                    - before.user - before.system - before.children_user - before.children_system)
            best[workers] = max(best[workers], args.throughput_games / seconds)
            cpu[workers].append(1000 * used / args.throughput_games)
    for workers in (1, 2):
        print(f"  {workers} worker{'s' if workers > 1 else ''}: {best[workers]:.0f} games/s "
              f"(best of {repeats} runs of {args.throughput_games} random games, pool start "
              f"included); {min(cpu[workers]):.2f} ms of CPU a game", flush=True)
    ratio = best[2] / best[1]
    ceiling = machine_speedup()
    print(f"simulate throughput, 2 workers vs 1: {ratio:.2f}x on {os.cpu_count()} cores "
          f"({load()}); target {TARGET_SPEEDUP}x: "
          f"{'met' if ratio >= TARGET_SPEEDUP else 'NOT met'}", flush=True)
    print(f"  the machine itself, right now: two processes of pure arithmetic do "
          f"{ceiling:.2f}x the work of one", flush=True)
    return ratio


def _spin(seconds: float) -> int:
    end = time.perf_counter() + seconds
    count = 0
    while time.perf_counter() < end:
        count += 1
    return count


def machine_speedup(seconds: float = 1.0) -> float:
    """How much more pure-Python work two processes do than one in the same
    time: 2.0 on two idle cores, less when other programs share them."""
    with ProcessPoolExecutor(max_workers=2) as pool:
        one = pool.submit(_spin, seconds).result()
        two = sum(f.result() for f in [pool.submit(_spin, seconds) for _ in range(2)])
    return two / one


def iterations_per_second(game, args, moves: int = 30) -> float:
    rng = random.Random(args.seed)
    bot = make_player("ismcts", seed=args.seed, iterations=args.iterations)
    seconds = 0.0
    done = 0
    while done < moves:
        state = game.new_game(players=2, seed=rng.randrange(10**6))
        while not state.over:
            me = game.to_move(state)[0]
            actions = game.legal_actions(state, me)
            if len(actions) > 1 and done < moves:
                before = bot.iterations_done
                start = time.perf_counter()
                bot.act(game, game.view(state, me), actions)
                seconds += time.perf_counter() - start
                done += bot.iterations_done > before
            state = game.apply(state, rng.choice(actions))
    rate = bot.iterations_done / seconds
    print(f"ISMCTS on {game.name}: {rate:.0f} iterations/s on one core "
          f"({bot.iterations_done} iterations over {moves} moves; {load()})", flush=True)
    return rate


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("rulebook", nargs="?", default="hanamikoji")
    parser.add_argument("--games", type=int, default=200, help="games per match-up")
    parser.add_argument("--iterations", type=int, default=200, help="ISMCTS iterations/move")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--throughput-games", type=int, default=3000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--only", nargs="+", choices=FIGURES, default=list(FIGURES))
    args = parser.parse_args(argv)

    game = load_rulebook(args.rulebook)
    source = parallel.Source.of(game, args.rulebook)
    print(f"{game.name}: {args.games} games per match-up, {args.workers} workers, "
          f"seed {args.seed}", flush=True)
    for figure in args.only:
        if figure in TARGETS:
            match(game, source, figure, args)
        elif figure == "throughput":
            throughput(game, source, args)
        else:
            iterations_per_second(game, args)
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Simulation on Ray against the local backend, in games per second (printed,
not a test).

Usage: python tools/bench_ray.py [RULEBOOK] [--games N] [--repeats N] [--seed S]

Needs Ray (`pip install -e '.[ray]'`). Two sets of figures, random games:

- the command: `rulebook simulate RULEBOOK --games N` run as a fresh process
  with the local backend on 1 and 2 processes and with `--backend ray` on 1
  and 2 workers; each figure is the one the command prints, whose clock
  starts before the pool or the Ray of the run does (the Ray is started,
  and shut down, by the command itself);
- on a running Ray, as on a cluster that is up: `parallel.run` with Ray
  started once beforehand (`ray.init(num_cpus=2)`), the workers (actors)
  started by each run; the local backend on 2 processes beside it. Games
  per second in all, and from the first chunk back to the end (the workers
  up). The best of `--repeats` runs each, since other programs on the
  machine only ever slow a run down.

Every run plays the same games; the reports agree but for `timing`, which
the script checks as well. The load average is printed with the figures.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from interpreter import load_rulebook  # noqa: E402
from interpreter.simulation import parallel  # noqa: E402
from interpreter.simulation.simulate import Plan  # noqa: E402

# (label, the command's backend options)
COMMANDS = [
    ("local, 1 process", ["--workers", "1"]),
    ("local, 2 processes", ["--workers", "2"]),
    ("Ray, 1 worker", ["--backend", "ray", "--workers", "1"]),
    ("Ray, 2 workers", ["--backend", "ray", "--workers", "2"]),
]


def load() -> str:
    try:
        return "load average %.2f %.2f %.2f" % os.getloadavg()
    except OSError:
        return "load average unknown"


def command(args, options: list) -> dict:
    """The JSON report of one `rulebook simulate` run in a fresh process."""
    done = subprocess.run([sys.executable, "-m", "interpreter", "simulate", args.rulebook,
                           "--games", str(args.games), "--seed", str(args.seed), "--quiet",
                           "--json", "-", *options],
                          capture_output=True, text=True, cwd=ROOT, check=True)
    return json.loads(done.stdout)


def without_timing(report: dict) -> dict:
    return {k: v for k, v in report.items() if k != "timing"}


def the_command(args) -> None:
    print(f"`rulebook simulate {args.rulebook} --games {args.games}`, as the command prints "
          f"it (pool or Ray start included):", flush=True)
    reports = {}
    for label, options in COMMANDS:
        report = reports[label] = command(args, options)
        timing = report["timing"]
        print(f"  {label:<20} {timing['games_per_second']:7.0f} games/s "
              f"({timing['seconds']:.2f} s)", flush=True)
    first = without_timing(reports[COMMANDS[0][0]])
    assert all(without_timing(r) == first for r in reports.values()), "reports differ"
    ratio = (reports["Ray, 2 workers"]["timing"]["games_per_second"]
             / reports["Ray, 1 worker"]["timing"]["games_per_second"])
    print(f"  Ray, 2 workers vs 1: {ratio:.2f}x; every report the same but its timing "
          f"({load()})", flush=True)


def timed_run(source, game, plan, games: int, backend: str, workers: int) -> tuple:
    """(games per second in all, games per second once the first chunk is
    back, i.e. with the workers up) of one `parallel.run`."""
    marks = []
    start = time.perf_counter()

    def progress(done: int, _total: int) -> None:
        if done and not marks:
            marks.append((time.perf_counter(), done))

    parallel.run([source], plan, games, loaded=[game], workers=workers, backend=backend,
                 progress=progress)
    end = time.perf_counter()
    (first, done), = marks
    return games / (end - start), (games - done) / (end - first)


def on_a_running_ray(args) -> None:
    import ray
    game = load_rulebook(args.rulebook)
    source = parallel.Source.of(game, args.rulebook)
    players = game.min_players
    plan = Plan(players=players, seats=("random",) * players, seed=args.seed)
    start = time.perf_counter()
    ray.init(address="local", num_cpus=2, include_dashboard=False, log_to_driver=False,
             logging_level=logging.ERROR)
    print(f"on a running Ray (started once, in {time.perf_counter() - start:.1f} s), "
          f"best of {args.repeats} runs of {args.games} games; in all (the workers started "
          f"by each run), and once the first chunk is back:", flush=True)
    runs = [("local, 2 processes", "local", 2), ("Ray, 1 worker", "ray", 1),
            ("Ray, 2 workers", "ray", 2)]
    best = {label: (0.0, 0.0) for label, _, _ in runs}
    try:
        for _ in range(args.repeats):
            for label, backend, workers in runs:
                got = timed_run(source, game, plan, args.games, backend, workers)
                best[label] = tuple(map(max, best[label], got))
    finally:
        ray.shutdown()
    for label, _, _ in runs:
        print(f"  {label:<20} {best[label][0]:7.0f} games/s in all, "
              f"{best[label][1]:7.0f} with the workers up", flush=True)
    one, two, pool = best["Ray, 1 worker"], best["Ray, 2 workers"], best["local, 2 processes"]
    print(f"  Ray, 2 workers vs 1: {two[0] / one[0]:.2f}x in all, {two[1] / one[1]:.2f}x with "
          f"the workers up; against local, 2 processes: {two[0] / pool[0]:.2f}x, "
          f"{two[1] / pool[1]:.2f}x ({load()})", flush=True)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("rulebook", nargs="?", default="hanamikoji")
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    try:
        import ray  # noqa: F401
    except ImportError:
        print("needs Ray: pip install -e '.[ray]'", file=sys.stderr)
        return 1
    print(f"{args.rulebook}: {args.games} random games, seed {args.seed}, "
          f"{os.cpu_count()} cores ({load()})", flush=True)
    the_command(args)
    on_a_running_ray(args)
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Peak memory of `rulebook simulate` as the number of games grows.

Usage: python tools/bench_memory.py [RULEBOOK] [--players N] [--workers N] [--games N ...]

Each run is a fresh process of `rulebook simulate … --json -` (the report
goes nowhere); its peak resident memory, and its largest worker's, are read
with `resource` when it ends. The figure to reach: the peak at 10,000 games
no larger than at 1,000 (a few MB of noise aside), since a run keeps the
counts of scores and lengths, not the records of its games.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SLACK_MB = 4          # what the allocator and caches move between two runs

CHILD = r"""
import contextlib, io, json, resource, sys
sys.path.insert(0, sys.argv[1])
from interpreter.terminal.cli import main
with contextlib.redirect_stdout(io.StringIO()):
    main(sys.argv[2:])
print(json.dumps([resource.getrusage(resource.RUSAGE_SELF).ru_maxrss,
                  resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss]))
"""


def peak(rulebook: str, players: int, workers: int, games: int) -> tuple:
    argv = ["simulate", rulebook, "--players", str(players), "--games", str(games),
            "--workers", str(workers), "--json", "-"]
    out = subprocess.run([sys.executable, "-c", CHILD, str(ROOT), *argv],
                         capture_output=True, text=True, check=True)
    main_kb, worker_kb = json.loads(out.stdout.strip().splitlines()[-1])
    return main_kb / 1024, worker_kb / 1024


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("rulebook", nargs="?", default="hanamikoji")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--games", type=int, nargs="+", default=[1000, 10000])
    args = parser.parse_args(argv)
    print(f"rulebook simulate {args.rulebook}, {args.players} players, {args.workers} workers")
    peaks = []
    for games in args.games:
        main_mb, worker_mb = peak(args.rulebook, args.players, args.workers, games)
        peaks.append(main_mb)
        print(f"  {games:>9,} games: peak {main_mb:6.1f} MB (largest worker {worker_mb:.1f} MB)",
              flush=True)
    grew = peaks[-1] - peaks[0]
    ok = grew <= SLACK_MB
    print(f"  grew {grew:+.1f} MB from {args.games[0]:,} to {args.games[-1]:,} games; "
          f"target: no growth (within {SLACK_MB} MB): {'met' if ok else 'NOT met'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())

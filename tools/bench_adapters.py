"""The figures of the research adapters, printed (not timed tests).

Usage: python tools/bench_adapters.py [--rulebook NAME] [--players N]
       [--iterations N] [--only pettingzoo|cfr …]

- PettingZoo: `pettingzoo.test.performance_benchmark` on the rulebook's
  environment (Hanamikoji by default): the turns (agent steps, a random
  legal action each) and cycles per second over its five seconds, read from
  what it prints.
- CFR: OpenSpiel's Python `CFRSolver` on the rulebook Kuhn poker through
  the adapter (`returns=score`, zero-sum), N iterations (default 1,000):
  the time, the exploitability of the average policy and the first
  player's game value (pyspiel's own `kuhn_poker`: -1/18), and the same
  solver on pyspiel's C++ `kuhn_poker` for comparison.

Needs `pip install pettingzoo==1.27.* open_spiel==2.0.2 gymnasium numpy`.
Other programs running on the machine lower the speed figures; the load
average is printed with them.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import re
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

FIGURES = ("pettingzoo", "cfr")


def load() -> str:
    try:
        return "load average %.2f %.2f %.2f" % os.getloadavg()
    except OSError:
        return "load average unknown"


def pettingzoo_figures(args) -> None:
    from pettingzoo.test import performance_benchmark

    from interpreter.adapters import pettingzoo

    env = pettingzoo.env(args.rulebook, players=args.players)
    env.reset(seed=0)
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        performance_benchmark(env)
    text = printed.getvalue()
    turns = re.search(r"([\d.]+) turns per second", text)
    cycles = re.search(r"([\d.]+) cycles per second", text)
    print(f"PettingZoo performance_benchmark, {args.rulebook} "
          f"({env.unwrapped.rules.players} players, {load()}):")
    print(f"  {float(turns.group(1)):,.0f} turns/s, {float(cycles.group(1)):,.0f} cycles/s")


def cfr_figures(args) -> None:
    import pyspiel
    from open_spiel.python.algorithms import cfr, expected_game_score, exploitability

    from interpreter.adapters import openspiel

    game = openspiel.load_game("kuhn-poker", returns="score", utility="zero_sum",
                               min_utility=-2.0, max_utility=2.0)
    for label, g in (("the rulebook through the adapter", game),
                     ("pyspiel's C++ kuhn_poker", pyspiel.load_game("kuhn_poker"))):
        start = time.perf_counter()
        solver = cfr.CFRSolver(g)
        for _ in range(args.iterations):
            solver.evaluate_and_update_policy()
        took = time.perf_counter() - start
        average = solver.average_policy()
        gap = exploitability.exploitability(g, average)
        value = expected_game_score.policy_value(g.new_initial_state(), [average] * 2)[0]
        print(f"CFR, {args.iterations:,} iterations, {label} ({load()}):")
        print(f"  {took:.1f} s, exploitability {gap:.5f}, first player's value {value:.5f} "
              f"(-1/18 = {-1 / 18:.5f})")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rulebook", default="hanamikoji")
    parser.add_argument("--players", type=int, default=None)
    parser.add_argument("--iterations", type=int, default=1000)
    parser.add_argument("--only", nargs="+", choices=FIGURES, default=FIGURES)
    args = parser.parse_args(argv)
    if "pettingzoo" in args.only:
        pettingzoo_figures(args)
    if "cfr" in args.only:
        cfr_figures(args)
    return 0


if __name__ == "__main__":
    sys.exit(main())

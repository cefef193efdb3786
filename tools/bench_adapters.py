"""The figures of the research adapters, printed (not timed tests).

Usage: python tools/bench_adapters.py [--rulebook NAME] [--players N]
       [--iterations N] [--steps N] [--only pettingzoo|cfr|alphabeta|deepcfr|ppo …]

- PettingZoo: `pettingzoo.test.performance_benchmark` on the rulebook's
  environment (Hanamikoji by default): the turns (agent steps, a random
  legal action each) and cycles per second over its five seconds, read from
  what it prints.
- CFR: OpenSpiel's Python `CFRSolver` on the rulebook Kuhn poker through
  the adapter (`returns=score`, zero-sum), N iterations (default 1,000):
  the time, the exploitability of the average policy and the first
  player's game value (pyspiel's own `kuhn_poker`: -1/18), and the same
  solver on pyspiel's C++ `kuhn_poker` for comparison.

- Alpha-beta: OpenSpiel's `alpha_beta_search` solving tic-tac-toe, the
  rulebook tests/adapters/games/tic-tac-toe.rules beside pyspiel's C++
  `tic_tac_toe`: the value (a draw, 0) and the time.
- Deep CFR: OpenSpiel's PyTorch `DeepCFRSolver` on the rulebook Kuhn poker
  with the perfect-recall information-state tensor, beside pyspiel's
  `kuhn_poker`, 20 iterations of 40 traversals: the time and the
  exploitability of its policy (a uniform policy's: 0.458).
- MaskablePPO: sb3-contrib's `MaskablePPO` trained N steps (default
  20,000) as P0 of the tic-tac-toe rulebook against random through
  `interpreter.adapters.gymnasium`: the training time, the environment's
  steps per second, and the win, draw and loss rates over 1,000 seeded
  games against random before (a random P0) and after.

Needs `pip install -e '.[pettingzoo,openspiel,rl]'`.
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

FIGURES = ("pettingzoo", "cfr", "alphabeta", "deepcfr", "ppo")
TIC_TAC_TOE = Path(__file__).resolve().parent.parent / "tests" / "adapters" / "games" / \
    "tic-tac-toe.rules"


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


def alphabeta_figures(args) -> None:
    import pyspiel
    from open_spiel.python.algorithms import minimax

    from interpreter.adapters import openspiel

    for label, game in (("the rulebook through the adapter", openspiel.load_game(TIC_TAC_TOE)),
                        ("pyspiel's C++ tic_tac_toe", pyspiel.load_game("tic_tac_toe"))):
        start = time.perf_counter()
        value, _ = minimax.alpha_beta_search(game)
        print(f"alpha_beta_search, tic-tac-toe, {label} ({load()}):")
        print(f"  value {value:+.0f} in {time.perf_counter() - start:.2f} s")


def deepcfr_figures(args) -> None:
    import pyspiel
    import torch
    from open_spiel.python import policy
    from open_spiel.python.algorithms import exploitability
    from open_spiel.python.pytorch import deep_cfr

    from interpreter.adapters import openspiel

    torch.set_num_threads(1)
    ours = openspiel.load_game("kuhn-poker", returns="score", utility="zero_sum",
                               min_utility=-2.0, max_utility=2.0,
                               information_state_tensor="recall", max_game_length=8)
    for label, game in (("the rulebook, perfect-recall tensor", ours),
                        ("pyspiel's C++ kuhn_poker", pyspiel.load_game("kuhn_poker"))):
        torch.manual_seed(0)
        start = time.perf_counter()
        solver = deep_cfr.DeepCFRSolver(game, policy_network_layers=(32, 32),
                                        advantage_network_layers=(16, 16), num_iterations=20,
                                        num_traversals=40, learning_rate=1e-3,
                                        batch_size_advantage=None, batch_size_strategy=None,
                                        memory_capacity=int(1e6), seed=0)
        solver.solve()
        took = time.perf_counter() - start
        learned = policy.tabular_policy_from_callable(game, solver.action_probabilities)
        uniform = exploitability.exploitability(game, policy.UniformRandomPolicy(game))
        print(f"Deep CFR, 20 iterations x 40 traversals, {label} ({load()}):")
        try:
            gap = f"{exploitability.exploitability(game, learned):.3f}"
        except pyspiel.SpielError:
            # the solver's networks can give NaN probabilities (seen on pyspiel's own game)
            gap = "not a number (the policy's probabilities are NaN)"
        print(f"  {took:.1f} s, exploitability {gap} (uniform {uniform:.3f})")


def ppo_figures(args) -> None:
    import numpy as np
    import torch
    from sb3_contrib import MaskablePPO

    from interpreter.adapters import gymnasium as single

    torch.set_num_threads(1)
    torch.manual_seed(0)

    def rates(pick, games=1000):
        env = single.env(TIC_TAC_TOE)
        won = drawn = 0
        for g in range(games):
            observation, _ = env.reset(seed=10_000 + g)
            while True:
                observation, reward, done, cut, _ = env.step(pick(observation, env.action_masks()))
                if done or cut:
                    break
            won += reward > 0
            drawn += reward == 0
        return won / games, drawn / games, 1 - (won + drawn) / games

    rng = np.random.default_rng(0)
    before = rates(lambda o, mask: int(rng.choice(np.flatnonzero(mask))))
    env = single.env(TIC_TAC_TOE)
    model = MaskablePPO("MlpPolicy", env, seed=0, n_steps=512, batch_size=64, verbose=0)
    start = time.perf_counter()
    model.learn(args.steps)
    took = time.perf_counter() - start
    after = rates(lambda o, mask: int(model.predict(o, action_masks=mask, deterministic=True)[0]))
    print(f"MaskablePPO, {args.steps:,} steps as P0 of tic-tac-toe against random ({load()}):")
    print(f"  trained in {took:.1f} s ({args.steps / took:,.0f} steps/s, learning included)")
    for label, (won, drawn, lost) in (("a random P0", before), ("the trained P0", after)):
        print(f"  {label}: wins {won:.1%}, draws {drawn:.1%}, losses {lost:.1%} "
              f"over 1,000 games against random")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rulebook", default="hanamikoji")
    parser.add_argument("--players", type=int, default=None)
    parser.add_argument("--iterations", type=int, default=1000)
    parser.add_argument("--steps", type=int, default=20_000, help="MaskablePPO's training steps")
    parser.add_argument("--only", nargs="+", choices=FIGURES, default=FIGURES)
    args = parser.parse_args(argv)
    if "pettingzoo" in args.only:
        pettingzoo_figures(args)
    if "cfr" in args.only:
        cfr_figures(args)
    if "alphabeta" in args.only:
        alphabeta_figures(args)
    if "deepcfr" in args.only:
        deepcfr_figures(args)
    if "ppo" in args.only:
        ppo_figures(args)
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Greedy against random on the shipped games, on the score alone and on the
rulebook's estimate, printed (not a timed test).

Usage: python tools/bench_greedy.py [GAME …] [--games N] [--seed S]

For every game (default: every rulebook in rulebooks/), greedy takes each
seat in turn against random players, `--games` games per seat on the same
deals (seeds) for both greedy players: "score" is greedy judging a move by
the score the end-of-game scoring gives one step ahead (what greedy did
before `estimate = …`), "estimate" is greedy on `game.estimate` (the same
where a rulebook declares no estimate). Printed: greedy's win share (1/k for
a win shared by k) with a 95% Wilson interval, beside the even share 1/N.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from interpreter import load_rulebook  # noqa: E402
from interpreter.ai.players import make_player  # noqa: E402
from interpreter.simulation import stats  # noqa: E402
from interpreter.simulation.simulate import Plan  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent


def share(game, players: int, estimate: bool, games: int, seed: int) -> list:
    """Greedy's win share in every game, greedy in each seat in turn."""
    shares = []
    for seat in range(players):
        plan = Plan(players=players, seats=tuple("greedy" if s == seat else "random"
                                                 for s in range(players)), seed=seed)
        for i in range(games):
            bots = [make_player("greedy", seed=plan.ai_seed(i, s), estimate=estimate)
                    if s == seat else make_player("random", seed=plan.ai_seed(i, s))
                    for s in range(players)]
            state = game.new_game(players=players, seed=plan.game_seed(i))
            while state.decisions < plan.max_decisions and game.to_move(state):
                me = game.to_move(state)[0]
                bot = bots[me]
                view = game.view(state, me) if bot.uses_view else None
                state = game.apply(state, bot.act(game, view, game.legal_actions(state, me)))
            out = game.outcome(state)
            shares.append(0.0 if out is None or seat not in out.winners
                          else 1.0 / len(out.winners))
    return shares


def shown(shares: list) -> str:
    wins = sum(shares)
    low, high = stats.wilson(wins, len(shares))
    return f"{wins / len(shares):6.1%} [{low:5.1%}, {high:5.1%}]"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games_to_play", nargs="*", metavar="GAME")
    parser.add_argument("--games", type=int, default=20, help="games per greedy seat")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    names = args.games_to_play or sorted(p.stem for p in (ROOT / "rulebooks").glob("*.rules"))
    print(f"greedy's win share against random, {args.games} games per seat "
          f"(95% Wilson intervals)")
    print(f"{'game':<20} {'players':>7} {'even':>6}  {'score alone':<24} {'estimate':<24}")
    for name in names:
        game = load_rulebook(name)
        players = game.min_players
        plain = share(game, players, False, args.games, args.seed)
        wise = (share(game, players, True, args.games, args.seed)
                if game.has_estimate else plain)
        mark = "" if game.has_estimate else "  (no estimate: the same)"
        print(f"{name:<20} {players:>7} {1 / players:6.1%}  {shown(plain):<24} "
              f"{shown(wise):<24}{mark}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

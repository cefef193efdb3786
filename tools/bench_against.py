"""This tree's speed against another commit's, measured in one run.

Usage: python tools/bench_against.py [REV] [--games N] [--blocks K] [--only NAME ...]

REV (default HEAD~1) is unpacked into a temporary folder with `git archive`.
Every figure is then measured on both trees in alternating blocks, each
block in a fresh process of its tree, and the ratio printed: random games/s
of each shipped game through the documented API (load_rulebook, new_game,
legal_actions, apply, outcome), and ISMCTS iterations/s on Hanamikoji. Times
are CPU seconds inside the measuring process, after one warm-up game, so
process start and loading are left out and a busy machine slows both trees
alike. The figures to reach: each shipped game at 4x and ISMCTS at 4x
(against 10094b8, the tree before the decisions were compiled). A game the
other tree does not ship is left out of the table, with a line that says so.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# name -> (rulebook, players)
SHIPPED = {"hanamikoji": ("hanamikoji", 2), "festival-of-lights": ("festival-of-lights", 4),
           "lanterns": ("lanterns", 4), "samurai": ("samurai", 4), "paris": ("paris", 2),
           "othello": ("othello", 2), "kalah": ("kalah", 2), "hearts": ("hearts", 4),
           "kuhn-poker": ("kuhn-poker", 2), "yacht": ("yacht", 2),
           "dots-and-boxes": ("dots-and-boxes", 2)}
TARGET_GAMES, TARGET_ISMCTS = 4.0, 4.0

# Run in the tree under test, with only the API every commit has.
WORKER = r"""
import json, random, sys, time
# the tree given, not an installed one: an editable install's finder comes first
sys.meta_path = [f for f in sys.meta_path
                 if "__editable__" not in (getattr(f, "__module__", "") + type(f).__module__)]
sys.path.insert(0, sys.argv[1])
import interpreter
assert interpreter.__file__.startswith(sys.argv[1]), interpreter.__file__
from interpreter import load_rulebook
kind, rulebook, players, first, count = sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5]), int(sys.argv[6])
game = load_rulebook(rulebook)

def playout(seed):
    rng = random.Random(seed)
    state = game.new_game(players=players, seed=seed)
    while game.outcome(state) is None:
        actions = game.legal_actions(state, game.to_move(state)[0])
        state = game.apply(state, actions[rng.randrange(len(actions))])

if kind == "games":
    playout(10**6)
    start = time.process_time()
    for seed in range(first, first + count):
        playout(seed)
    print(json.dumps({"seconds": time.process_time() - start, "done": count}))
else:
    try:
        from interpreter.ai.players import make_player
    except ImportError:
        from interpreter.players import make_player
    bot = make_player("ismcts", seed=first, iterations=200)
    rng = random.Random(first)
    seconds, moves = 0.0, 0
    while moves < count:
        state = game.new_game(players=players, seed=rng.randrange(10**6))
        while game.outcome(state) is None:
            me = game.to_move(state)[0]
            actions = game.legal_actions(state, me)
            if len(actions) > 1 and moves < count:
                before = bot.iterations_done
                start = time.process_time()
                bot.act(game, game.view(state, me), actions)
                seconds += time.process_time() - start
                moves += bot.iterations_done > before
            state = game.apply(state, actions[rng.randrange(len(actions))])
    print(json.dumps({"seconds": seconds, "done": bot.iterations_done}))
"""


def measure(tree: Path, kind: str, rulebook: str, players: int, first: int, count: int) -> tuple:
    out = subprocess.run([sys.executable, "-c", WORKER, str(tree), kind, rulebook, str(players),
                          str(first), str(count)], capture_output=True, text=True, check=False)
    if out.returncode:
        raise SystemExit(f"{tree}: {kind} of {rulebook} failed:\n{out.stderr.strip()[-2000:]}")
    result = json.loads(out.stdout.strip().splitlines()[-1])
    return result["seconds"], result["done"]


def unpack(rev: str, into: Path) -> str:
    """The commit `rev` unpacked into `into`; its short name."""
    name = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", rev],
                          capture_output=True, text=True, check=True).stdout.strip()
    archive = into / "tree.tar"
    subprocess.run(["git", "-C", str(ROOT), "archive", "--format=tar", "-o", str(archive), rev],
                   check=True)
    with tarfile.open(archive) as tar:
        # a commit of this repository; the "data" filter where Python has it
        extra = {"filter": "data"} if hasattr(tarfile, "data_filter") else {}
        tar.extractall(into / "tree", **extra)
    return name


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("rev", nargs="?", default="HEAD~1")
    parser.add_argument("--games", type=int, default=100, help="random games a block (default 100)")
    parser.add_argument("--moves", type=int, default=10, help="ISMCTS moves a block (default 10)")
    parser.add_argument("--blocks", type=int, default=3)
    parser.add_argument("--only", nargs="+", choices=list(SHIPPED) + ["ismcts"])
    args = parser.parse_args(argv)
    figures = args.only or list(SHIPPED) + ["ismcts"]
    ok = True
    with tempfile.TemporaryDirectory() as tmp:
        name = unpack(args.rev, Path(tmp))
        other = Path(tmp) / "tree"
        print(f"this tree against {name}: {args.blocks} alternating blocks, CPU time")
        print(f"{'figure':<22} {'this tree':>12} {name:>12} {'ratio':>7}  target")
        for figure in figures:
            kind = "ismcts" if figure == "ismcts" else "games"
            rulebook, players = SHIPPED.get(figure, ("hanamikoji", 2))
            if not (other / "rulebooks" / f"{rulebook}.rules").exists():
                print(f"{figure:<22} (not in {name})")
                continue
            count = args.moves if kind == "ismcts" else args.games
            rates = {}
            for tree in (ROOT, other):
                rates[tree] = [0.0, 0]
            for block in range(args.blocks):
                for tree in ((ROOT, other) if block % 2 == 0 else (other, ROOT)):
                    seconds, done = measure(tree, kind, rulebook, players, block * count, count)
                    rates[tree][0] += seconds
                    rates[tree][1] += done
            mine, theirs = (rates[t][1] / rates[t][0] for t in (ROOT, other))
            target = TARGET_ISMCTS if kind == "ismcts" else TARGET_GAMES
            ratio = mine / theirs
            ok &= ratio >= target
            unit = "it/s" if kind == "ismcts" else "g/s"
            label = f"{figure} ({players}p)" if kind == "games" else "ismcts on hanamikoji"
            print(f"{label:<22} {mine:>8.1f} {unit:<3} {theirs:>8.1f} {unit:<3} {ratio:>6.2f}x  "
                  f"{target:.0f}x {'met' if ratio >= target else 'NOT met'}", flush=True)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())

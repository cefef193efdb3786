"""The core runs without the extras, and never loads them when they are there.

tests/test_layering.py reads the imports; this test runs the core instead,
in a fresh interpreter where the extras may well be installed: importing
`interpreter`, playing a game through the API and the core commands
(`validate`, `simulate` on one process and on two, `compare`, `rules`,
`show`) must leave no extra (Ray, PettingZoo, OpenSpiel, Gymnasium, NumPy, …)
in `sys.modules`.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.test_layering import EXTRAS

ROOT = Path(__file__).resolve().parent.parent

CORE_RUN = """
import contextlib, io, sys
import interpreter
from interpreter import load_rulebook
from interpreter.terminal import cli

game = load_rulebook("hanamikoji")
state = game.new_game(players=2, seed=1)
while game.outcome(state) is None:
    player = game.to_move(state)[0]
    state = game.apply(state, game.legal_actions(state, player)[0])
commands = [
    ["validate", "hanamikoji", "--play", "2"],
    ["simulate", "hanamikoji", "--games", "4", "--workers", "1", "--coverage", "--quiet"],
    ["simulate", "kalah", "--games", "4", "--workers", "2", "--quiet"],
    ["compare", "hanamikoji", "hanamikoji", "--games", "4", "--workers", "1", "--quiet"],
    ["rules", "kuhn-poker"],
    ["show", "hanamikoji", "--ir"],
]
with contextlib.redirect_stdout(io.StringIO()):
    codes = [cli.main(argv) for argv in commands]
print(codes)
print(" ".join(sorted({name.split(".")[0] for name in sys.modules})))
"""


def test_the_core_loads_none_of_the_extras():
    done = subprocess.run([sys.executable, "-c", CORE_RUN], capture_output=True, text=True,
                          cwd=ROOT, timeout=120)
    assert done.returncode == 0, done.stderr
    codes, loaded = done.stdout.splitlines()
    assert codes == "[0, 0, 0, 0, 0, 0]", done.stderr
    assert not set(loaded.split()) & EXTRAS, "the core loaded an extra"

"""The hand-written references of tools/reference/ checked against their
rulebooks: the same decisions at every step and the same scores.

A reference is a plain module with no import of the project (see
tools/reference/README.md). `replay` plays a rulebook's seeded random game
through the API and mirrors every action in the reference, which a game's
test has dealt the same cards (`deal`), so the two must agree throughout.
"""

from __future__ import annotations

import importlib.util
import random
from pathlib import Path
from typing import Callable

REFERENCES = Path(__file__).resolve().parent.parent / "tools" / "reference"


def reference(name: str):
    """The module tools/reference/NAME.py, loaded by its path."""
    spec = importlib.util.spec_from_file_location(f"reference_{name}", REFERENCES / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def replay(game, ref, players: int, seed: int, deal: Callable) -> int:
    """Play game `seed` of `game` at random and mirror it in `ref`, whose
    starting state `deal(game, state, ref)` makes from the rulebook's first
    state. Asserts that at every decision the same player decides between
    the same texts, and that the scores agree at the end; returns the number
    of decisions."""
    state = game.new_game(players=players, seed=seed)
    mirror = deal(game, state, ref)
    rng = random.Random(seed)
    decisions = 0
    while game.outcome(state) is None:
        player = game.to_move(state)[0]
        actions = game.legal_actions(state, player)
        assert ref.current_player(mirror) == player, f"decision {decisions}: who decides"
        moves = {ref.move_text(mirror, m): m for m in ref.legal_moves(mirror)}
        texts = [str(a) for a in actions]
        assert set(moves) == set(texts), (
            f"decision {decisions} of seed {seed}: only the rulebook offers "
            f"{sorted(set(texts) - set(moves))[:5]}, only the reference "
            f"{sorted(set(moves) - set(texts))[:5]}")
        assert not ref.is_over(mirror)
        action = actions[rng.randrange(len(actions))]
        ref.apply(mirror, moves[str(action)])
        state = game.apply(state, action)
        decisions += 1
    assert ref.is_over(mirror), "the rulebook's game ended, the reference's did not"
    assert list(ref.scores(mirror)) == list(game.outcome(state).scores)
    return decisions

"""What the primitives of the language's second round do when a game runs:
each has a rulebook of its own under tests/language/ (checked there as data:
it loads, and starts for every player count); here its games are played and
what the primitive computed is checked against plain Python."""

from __future__ import annotations

import itertools
import random
from pathlib import Path

import pytest

from interpreter.errors import RuleLoop
from interpreter.game.engine import Game
from interpreter.language.loader import compile_ir

from tests.scenario import names

LANGUAGE = Path(__file__).resolve().parent / "language"


def load(name: str) -> Game:
    path = LANGUAGE / name
    return Game(compile_ir(path.read_text(encoding="utf-8"), path.name, path.parent))


def played(game: Game, players: int, seed: int):
    """A random game to its end: every state, the last one over."""
    rng, state = random.Random(seed), game.new_game(players, seed=seed)
    states = [state]
    while game.outcome(state) is None:
        (player,) = game.to_move(state)[:1]
        state = game.apply(state, rng.choice(list(game.legal_actions(state, player))))
        states.append(state)
    return states


# -- combinations(xs, k) and slices xs[A to B] --------------------------------------

def _values(game, state, ref) -> list:
    return [int(n[1:]) for n in names(game, state, ref)]


@pytest.mark.parametrize("seed", range(6))
def test_combinations_and_slices_score_as_python_counts_them(seed):
    game = load("valid-combinations-and-slices.rules")
    end = played(game, 2, seed)[-1]
    for p in range(2):
        hand, line = _values(game, end, f"hand({p})"), _values(game, end, f"line({p})")
        runs = sum(1 for t in itertools.combinations(hand, 3)
                   if max(t) - min(t) == 2 and len(set(t)) == 3)
        best_three = sum(sorted(hand, reverse=True)[0:3])
        assert game.scores(end)[p] == best_three + runs + sum(line[0:2])


def test_combinations_past_the_budget_stop_with_rule_loop():
    text = ('game "X"\nplayers 2\nphase play\n  end game\nscoring\n'
            '  score = size(combinations(1 to 60, 30))\n')
    game = Game(compile_ir(text, "many.rules", LANGUAGE))
    state = game.new_game(2, seed=0)
    with pytest.raises(RuleLoop):
        game.scores(state)

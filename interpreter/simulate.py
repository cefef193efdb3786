"""Random playouts of a game, many at a time, for balance figures and speed.

Every seat picks uniformly among its legal actions with one
`random.Random(seed)` that is apart from the games' own seeds, so the figures
are reproducible and the players' dice never disturb the game's dice. Game
`i` is dealt with seed `seed + i`. It uses only the public engine API
(docs/api.md) and draws nothing: the caller passes a `progress` callback.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field
from typing import Callable, Optional

from .errors import RuleStuck

Progress = Callable[[int, int], None]


@dataclass
class SimulationResult:
    """The figures of a batch of random games.

    `wins[p]` counts seat p's wins, a win shared by k players counting 1/k
    each. Means are over the games that ended; games cut off by the decision
    cap count only in `capped`.
    """

    players: int
    games: int
    wins: list = field(default_factory=list)
    completed: int = 0
    capped: int = 0
    mean_decisions: float = 0.0
    mean_rounds: float = 0.0
    seconds: float = 0.0
    total_decisions: int = 0

    @property
    def win_rates(self) -> list:
        return [w / self.completed if self.completed else 0.0 for w in self.wins]

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds if self.seconds > 0 else float("inf")

    @property
    def decisions_per_second(self) -> float:
        return self.total_decisions / self.seconds if self.seconds > 0 else float("inf")

    def to_json(self) -> dict:
        return {"players": self.players, "games": self.games,
                "completed": self.completed, "capped": self.capped,
                "wins": self.wins, "win_rates": self.win_rates,
                "mean_decisions": self.mean_decisions,
                "mean_rounds": self.mean_rounds,
                "seconds": self.seconds,
                "games_per_second": self.games_per_second,
                "decisions_per_second": self.decisions_per_second}


def random_playout(game, state, rng: random.Random, max_decisions: int):
    """Plays random moves from `state` to the end or the cap; the final state."""
    while state.decisions < max_decisions:
        deciders = game.to_move(state)
        if not deciders:
            return state
        actions = game.legal_actions(state, deciders[0])
        if not actions:
            raise RuleStuck(f"P{deciders[0]} must decide but has no legal action")
        # A direct choice, not players.RandomPlayer: a random seat needs no
        # view, and building one per decision would dominate the playout.
        state = game.apply(state, rng.choice(actions))
    return state


def simulate(game, players: int, games: int, seed: int,
             max_decisions: int = 10000,
             progress: Optional[Progress] = None) -> SimulationResult:
    """Plays `games` random games of `players` players; see the module doc."""
    rng = random.Random(seed)
    result = SimulationResult(players=players, games=games, wins=[0.0] * players)
    decisions = rounds = 0
    start = time.perf_counter()
    for i in range(games):
        state = random_playout(game, game.new_game(players=players, seed=seed + i),
                               rng, max_decisions)
        result.total_decisions += state.decisions
        outcome = game.outcome(state)
        if outcome is None:
            result.capped += 1
        else:
            result.completed += 1
            decisions += state.decisions
            rounds += state.round
            winners = list(outcome.winners)
            for p in winners:
                result.wins[p] += 1 / len(winners)
        if progress is not None:
            progress(i + 1, games)
    result.seconds = time.perf_counter() - start
    if result.completed:
        result.mean_decisions = decisions / result.completed
        result.mean_rounds = rounds / result.completed
    return result

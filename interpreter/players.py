"""AI players that never peek: they decide from the player's view only.

Every player has one method, ``act(game, view, actions) -> Action``: the
view is ``game.view(state, me)`` and ``actions`` are the player's legal
actions (which that player sees anyway). Search players rebuild full states
from the view's information state with `information.sample_state`
(determinization), so they work for any rulebook and cannot depend on
hidden cards: permuting what the player cannot see changes nothing they
compute.

Kinds: ``random``; ``greedy`` (one-step look-ahead on the rulebook's own
score); ``mcts`` (UCT with random playouts, for perfect information);
``ismcts`` (single-observer information-set MCTS with a fresh
determinization per iteration). Budgets are iterations per move and,
optionally, seconds per move.
"""

from __future__ import annotations

import math
import random
import time

from .errors import CommandError
from .information import sample_state

KINDS = ("random", "greedy", "mcts", "ismcts")


class RandomPlayer:
    kind = "random"
    # A simulation need not build a view for a player that never reads it.
    uses_view = False

    def __init__(self, seed: int = 0):
        self.rng = random.Random(seed)

    def act(self, game, view, actions):
        return actions[self.rng.randrange(len(actions))]


def _reward(game, state, player) -> float:
    """1 shared among the winners; 0 for the others."""
    out = game.outcome(state)
    if out is None or player not in out.winners:
        return 0.0
    return 1.0 / len(out.winners)


def _margin(game, state, player) -> float:
    scores = game.scores(state)
    others = [v for p, v in enumerate(scores) if p != player]
    return scores[player] - (max(others) if others else 0)


class GreedyPlayer:
    """Picks the action whose immediate result best improves its score
    margin (its score minus the best other score), averaged over a few
    determinizations; a win counts above any margin. Ties are broken at random."""

    kind = "greedy"
    uses_view = True

    def __init__(self, seed: int = 0, samples: int = 4):
        self.rng = random.Random(seed)
        self.samples = samples

    def act(self, game, view, actions):
        if len(actions) == 1:
            return actions[0]
        me = view["viewer"]
        totals = [0.0] * len(actions)
        for _ in range(self.samples):
            state = sample_state(game, view["info"], self.rng)
            for i, a in enumerate(actions):
                after = game.apply(state, a)
                value = _margin(game, after, me)
                if game.outcome(after) is not None:
                    value += 1000.0 * (_reward(game, after, me) - 0.5)
                totals[i] += value
        best = max(totals)
        choices = [a for a, t in zip(actions, totals) if t == best]
        return choices[self.rng.randrange(len(choices))]


class _Node:
    __slots__ = ("player", "children", "visits", "value", "avail")

    def __init__(self, player):
        self.player = player       # who acted to reach this node
        self.children: dict = {}
        self.visits = 0
        self.value = 0.0
        self.avail = 0


class ISMCTSPlayer:
    """Single-observer ISMCTS (Cowling, Powley & Whitehouse 2012): each
    iteration samples a state consistent with the view, walks the tree over
    the actions legal in that sample (UCB1 with availability counts), expands
    one node, plays randomly to the end and backs up each player's reward."""

    kind = "ismcts"
    uses_view = True

    def __init__(self, seed: int = 0, iterations: int = 200, seconds: float | None = None,
                 exploration: float = 0.7, max_playout: int = 2000):
        self.rng = random.Random(seed)
        self.iterations = iterations
        self.seconds = seconds
        self.c = exploration
        self.max_playout = max_playout
        self.iterations_done = 0

    def _sample(self, game, view):
        return sample_state(game, view["info"], self.rng)

    def act(self, game, view, actions):
        if len(actions) == 1:
            return actions[0]
        me = view["viewer"]
        root = _Node(None)
        deadline = time.perf_counter() + self.seconds if self.seconds else None
        rng = self.rng
        done = 0
        while done < self.iterations and (deadline is None or time.perf_counter() < deadline):
            done += 1
            state = self._sample(game, view)
            node = root
            path = [root]
            # selection and expansion
            while not state.over:
                mover = state.pending[0]
                legal = game.legal_actions(state, mover)
                for a in legal:
                    child = node.children.get(a)
                    if child is not None:
                        child.avail += 1
                untried = [a for a in legal if a not in node.children]
                if untried:
                    a = untried[rng.randrange(len(untried))]
                    child = node.children[a] = _Node(mover)
                    child.avail = 1
                    state = game.apply(state, a)
                    path.append(child)
                    break
                best, best_a = -1.0, None
                for a in legal:
                    ch = node.children[a]
                    ucb = ch.value / ch.visits + self.c * math.sqrt(math.log(ch.avail) / ch.visits)
                    if ucb > best:
                        best, best_a = ucb, a
                node = node.children[best_a]
                state = game.apply(state, best_a)
                path.append(node)
            # random playout
            steps = 0
            while not state.over and steps < self.max_playout:
                mover = state.pending[0]
                legal = game.legal_actions(state, mover)
                state = game.apply(state, legal[rng.randrange(len(legal))])
                steps += 1
            rewards = {}
            for n in path[1:]:
                p = n.player
                if p not in rewards:
                    rewards[p] = _reward(game, state, p) if state.over else 0.0
                n.visits += 1
                n.value += rewards[p]
        self.iterations_done += done
        legal = set(actions)
        scored = [(ch.visits, a) for a, ch in root.children.items() if a in legal]
        if not scored:
            return actions[rng.randrange(len(actions))]
        top = max(v for v, _ in scored)
        best = [a for v, a in scored if v == top]
        return best[rng.randrange(len(best))]


class MCTSPlayer(ISMCTSPlayer):
    """UCT for perfect-information games. With nothing hidden, the sampled
    state is the real one (apart from future chance), so this is plain MCTS;
    on a hidden-information game it behaves as ISMCTS."""

    kind = "mcts"


def make_player(kind: str, seed: int = 0, **options):
    """A player by kind name; `options` e.g. iterations=, seconds=."""
    if kind == "random":
        return RandomPlayer(seed)
    if kind == "greedy":
        return GreedyPlayer(seed, **{k: v for k, v in options.items() if k == "samples"})
    if kind in ("mcts", "ismcts"):
        cls = MCTSPlayer if kind == "mcts" else ISMCTSPlayer
        return cls(seed, **{k: v for k, v in options.items() if k in ("iterations", "seconds")})
    raise CommandError(f"unknown AI kind '{kind}'", hint="choose one of " + ", ".join(KINDS),
                       code="command/unknown-ai")

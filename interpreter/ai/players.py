"""AI players that never peek: they decide from the player's view only.

Every player has one method, ``act(game, view, actions) -> Action``: the
view is ``game.view(state, me)`` and ``actions`` are the player's legal
actions (which that player sees anyway). Search players rebuild full states
from the view's information state with `information.sample_state`
(determinization), so they work for any rulebook and cannot depend on
hidden cards: permuting what the player cannot see changes nothing they
compute.

Kinds: ``random``; ``greedy`` (one-step look-ahead on the rulebook's
``estimate = …`` where it declares one, else on the score the end-of-game
scoring would give if the game ended there; in the score's direction:
higher, or lower for 'lowest score wins');
``mcts`` (UCT with random playouts, for perfect information);
``ismcts`` (single-observer information-set MCTS with a fresh
determinization per iteration). Budgets are iterations per move and,
optionally, seconds per move. A player that reads no view (``uses_view`` is
false) may be given ``None`` for it, which saves a simulation the cost of
building views nobody reads.
"""

from __future__ import annotations

import math
import random
import time

from ..errors import CommandError
from ..runtime.information import sample_state

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


def _rewards(game, state) -> list:
    """Every player's `_reward`, from one outcome; all 0 for a game cut off."""
    out = game.outcome(state)
    rewards = [0.0] * state.players
    if out is not None:
        for p in out.winners:
            rewards[p] = 1.0 / len(out.winners)
    return rewards


def _margin(game, state, player, estimate: bool = True) -> float:
    """How far the player's standing is ahead of the best other one, in the
    rulebook's direction (under 'lowest score wins' being below is ahead).
    The standing is `game.estimate`: the rulebook's `estimate = …` before
    the end where it declares one, else the score the end-of-game scoring
    gives if the game ended now; with `estimate` false, always the latter."""
    sign = -1 if game.lowest_wins else 1
    scores = [sign * v for v in (game.estimate(state) if estimate else game.scores(state))]
    others = [v for p, v in enumerate(scores) if p != player]
    return scores[player] - (max(others) if others else 0)


class GreedyPlayer:
    """Picks the action whose immediate result best improves its margin
    (its estimate minus the best other estimate, turned round where the
    lowest score wins: see `_margin`), averaged over a few determinizations
    of its view; a win counts above any margin. Ties are broken at random.
    A rulebook whose score counts only what the end settles (a penalty for
    every building still in reserve) reads as a loss at every step that
    pays later: its designer's `estimate` says what such a step is worth."""

    kind = "greedy"
    uses_view = True

    def __init__(self, seed: int = 0, samples: int = 4, estimate: bool = True):
        self.rng = random.Random(seed)
        self.samples = samples
        self.estimate = estimate      # false: the end-of-game score even where an estimate is declared

    def act(self, game, view, actions):
        if len(actions) == 1:
            return actions[0]
        me = view["viewer"]
        totals = [0.0] * len(actions)
        for _ in range(self.samples):
            state = sample_state(game, view["info"], self.rng)
            for i, a in enumerate(actions):
                after = game.apply(state, a)
                value = _margin(game, after, me, self.estimate)
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
    one node, plays randomly to the end and backs up each player's reward.

    With `groups` every decision is taken in two steps, first the action's
    name, then its arguments ("move groups", Childs, Brodeur & Kocsis 2008):
    a rulebook action with many argument choices (four cards out of seven)
    would otherwise spread a small budget one playout per choice."""

    kind = "ismcts"
    uses_view = True

    def __init__(self, seed: int = 0, iterations: int = 200, seconds: float | None = None,
                 exploration: float = 0.7, groups: bool = False, max_playout: int = 2000):
        self.rng = random.Random(seed)
        self.iterations = iterations
        self.seconds = seconds
        self.c = exploration
        self.groups = groups
        self.max_playout = max_playout
        self.iterations_done = 0

    def _sample(self, game, view):
        return sample_state(game, view["info"], self.rng)

    def _pick(self, node, keys, mover):
        """The child to follow among `keys` (those available now): a random
        untried one, expanded, or else the best by UCB1; (the key's place
        in `keys`, child, new)."""
        children = node.children
        untried = []
        available = []
        # One look-up per key: hashing actions is most of the tree's cost.
        for i, k in enumerate(keys):
            child = children.get(k)
            if child is None:
                untried.append(i)
            else:
                child.avail += 1
                available.append((i, child))
        if untried:
            i = untried[self.rng.randrange(len(untried))]
            child = children[keys[i]] = _Node(mover)
            child.avail = 1
            return i, child, True
        c = self.c
        best, best_i, best_child = -1.0, None, None
        for i, ch in available:
            ucb = ch.value / ch.visits + c * math.sqrt(math.log(ch.avail) / ch.visits)
            if ucb > best:
                best, best_i, best_child = ucb, i, ch
        return best_i, best_child, False

    def act(self, game, view, actions):
        if len(actions) == 1:
            return actions[0]
        root = _Node(None)
        deadline = time.perf_counter() + self.seconds if self.seconds else None
        rng = self.rng
        done = 0
        while done < self.iterations and (deadline is None or time.perf_counter() < deadline):
            done += 1
            state = self._sample(game, view)
            node = root
            path = []
            # selection and expansion
            while not state.over:
                mover = state.pending[0]
                legal = game.legal_actions(state, mover)
                new = False
                places = None
                if self.groups:
                    names = _names(legal)
                    i, node, new = self._pick(node, names, mover)
                    path.append(node)
                    places = [k for k, a in enumerate(legal) if a.name == names[i]]
                    legal = [legal[k] for k in places]
                i, node, new_action = self._pick(node, legal, mover)
                path.append(node)
                # the sampled state is this iteration's own: the move taken in place
                game.advance_move(state, mover, i if places is None else places[i])
                if new or new_action:
                    break
            # random playout, inside the engine
            state = game.playout(state, rng, self.max_playout)
            rewards = _rewards(game, state)
            for n in path:
                n.visits += 1
                n.value += rewards[n.player]
        self.iterations_done += done
        return self._choose(root, actions)

    def _choose(self, root, actions):
        """The most visited legal action (through the most visited group).
        With a small budget and many actions, visit counts tie often: the
        better mean reward breaks the tie, and only then chance."""
        node = root
        if self.groups:
            names = set(_names(actions))
            name = self._best([(k, ch) for k, ch in root.children.items() if k in names])
            if name is None:
                return actions[self.rng.randrange(len(actions))]
            node = root.children[name]
            actions = [a for a in actions if a.name == name]
        legal = set(actions)
        action = self._best([(a, ch) for a, ch in node.children.items() if a in legal])
        return actions[self.rng.randrange(len(actions))] if action is None else action

    def _best(self, children):
        if not children:
            return None
        key = {k: (ch.visits, ch.value / ch.visits) for k, ch in children}
        top = max(key.values())
        best = [k for k, _ in children if key[k] == top]
        return best[self.rng.randrange(len(best))]


def _names(actions) -> list:
    """The action names among `actions`, in order of first appearance."""
    return list(dict.fromkeys(a.name for a in actions))


class MCTSPlayer(ISMCTSPlayer):
    """UCT for perfect-information games. With nothing hidden, the sampled
    state is the real one (apart from future chance), so this is plain MCTS;
    on a hidden-information game it behaves as ISMCTS."""

    kind = "mcts"


# The kinds that take a budget of search iterations per move (`mcts:500`).
SEARCHING = ("mcts", "ismcts")


def player_spec(text: str) -> tuple:
    """(kind, options) of a player written `KIND` or `KIND:ITERATIONS`
    (`mcts:200`: 200 search iterations per move), the one place this syntax
    is read; an unknown kind is `command/unknown-ai`, a budget that is no
    whole number of at least 1, or one given to a kind that does not search,
    `command/ai-budget`."""
    kind, colon, budget = text.strip().partition(":")
    if kind not in KINDS:
        raise CommandError(f"unknown AI kind '{kind}'", hint="choose one of " + ", ".join(KINDS)
                           + "; a search budget is written mcts:200",
                           code="command/unknown-ai")
    if not colon:
        return kind, {}
    if kind not in SEARCHING:
        raise CommandError(f"'{text}': {kind} takes no budget",
                           hint="only " + " and ".join(SEARCHING) + " search: mcts:200",
                           code="command/ai-budget")
    if not budget.isdigit() or int(budget) < 1:
        raise CommandError(f"'{text}': the budget is search iterations per move, a whole "
                           f"number of at least 1", hint=f"e.g. {kind}:200",
                           code="command/ai-budget")
    return kind, {"iterations": int(budget)}


def make_player(kind: str, seed: int = 0, **options):
    """A player by kind name, or `KIND:ITERATIONS` (read by `player_spec`,
    which refuses an unknown kind; the budget written there goes before
    `options`); `options` e.g. iterations=, seconds=."""
    kind, budget = player_spec(kind)
    options = {**options, **budget}
    if kind == "random":
        return RandomPlayer(seed)
    if kind == "greedy":
        return GreedyPlayer(seed, **{k: v for k, v in options.items()
                                     if k in ("samples", "estimate")})
    cls = MCTSPlayer if kind == "mcts" else ISMCTSPlayer        # the SEARCHING kinds
    return cls(seed, **{k: v for k, v in options.items()
                        if k in ("iterations", "seconds", "exploration", "groups")})

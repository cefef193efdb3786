"""Any rulebook as a single-agent Gymnasium environment: one seat against
fixed opponents.

`env(rulebook, players=2, seat=0, opponents="random")` is a
`gymnasium.Env` in which the agent plays `seat` and the other seats are
played by opponents: an AI kind of the interpreter (`"random"`,
`"greedy"`, `"mcts"`, `"ismcts"`, with a budget as `"mcts:200"`), a
player object with the AI players' `act(game, view, actions)`, or a
callable `policy(observation, action_mask) -> action id`, which reads what
the agent would read of its own seat (a trained policy, for self-play).
One opponent plays every other seat, or a list gives one per other seat in
seat order. `seat="random"` draws the agent's seat at every reset.

The observation is the seat's observation vector (a `Box`), the action
space `Discrete(size)` of the rulebook's fixed action ids, and
`action_masks()` (what sb3-contrib's MaskablePPO asks for; also
`info["action_mask"]`) says which are legal. The opponents move between
the agent's moves, within `step`; at a simultaneous step the agent
chooses when it is among those the engine waits for, and the others'
picks stay hidden from it. The reward comes at the end, the seat's share
of the outcome as in the PettingZoo environment (`rewards="outcome"`:
+1 for a victory, -1 for a defeat, 0 for a draw; `"win_share"`;
`"score"`); an illegal action ends the episode with `illegal_reward`; a
game still going after `max_decisions` decisions is truncated.
`reset(seed=S)` deals the same game and seeds the interpreter's own
opponents alike, so an episode is determined by the seed and the agent's
actions.

Gymnasium and NumPy are imported when the class is first needed.
"""

from __future__ import annotations

import random
from functools import lru_cache

from ..ai.players import make_player
from ..errors import OptionError
from .rules import RENDER_MODES, REWARDS, load

ID = "rulebook/Rulebook-v0"
# a game that ends before the agent's seat ever moves is dealt again, at
# most this many times
REDEALS = 100


def env(rulebook, players: int | None = None, seat=0, opponents="random", options=None,
        rewards: str = "outcome", max_decisions: int = 10_000, render_mode: str | None = None,
        illegal_reward: float = -1.0):
    """The single-agent environment of a rulebook (see the module)."""
    return _environment_class()(rulebook, players=players, seat=seat, opponents=opponents,
                                options=options, rewards=rewards, max_decisions=max_decisions,
                                render_mode=render_mode, illegal_reward=illegal_reward)


def register() -> str:
    """Registers the environment with Gymnasium (once), as `rulebook/Rulebook-v0`:
    `gymnasium.make("rulebook/Rulebook-v0", rulebook=NAME_OR_PATH)`."""
    import gymnasium

    if ID not in gymnasium.registry:
        gymnasium.register(ID, entry_point=f"{__name__}:env")
    return ID


def __getattr__(name: str):
    if name == "RulebookEnv":
        return _environment_class()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def opponent_of(spec, seed: int):
    """An opponent as `Opponent` from what `env` takes for one: a kind's
    name (with `:ITERATIONS`), a player object or a policy."""
    if isinstance(spec, str):
        # `KIND` or `KIND:ITERATIONS`, read as the command line reads them
        return _Player(make_player(spec, seed=seed))
    if hasattr(spec, "act"):
        return _Player(spec)
    if callable(spec):
        return _Policy(spec)
    raise OptionError(f"an opponent is an AI kind's name, a player with act(game, view, "
                      f"actions) or a policy(observation, mask), not {type(spec).__name__}")


class _Player:
    """An AI player of the interpreter, deciding from its view."""

    def __init__(self, player):
        self.player = player

    def move(self, rules, state, seat):
        game = rules.game
        actions = game.legal_actions(state, seat)
        view = game.view(state, seat) if getattr(self.player, "uses_view", True) else None
        return self.player.act(game, view, actions)


class _Policy:
    """A policy over observation vectors and masks: what the agent reads."""

    def __init__(self, policy):
        self.policy = policy

    def move(self, rules, state, seat):
        import numpy as np

        observation = np.asarray(rules.game.observation(state, seat), dtype=np.float32)
        mask = np.frombuffer(rules.space.mask(state, seat), dtype=np.int8).astype(bool)
        action = int(self.policy(observation, mask))
        if not 0 <= action < rules.actions or not mask[action]:
            raise OptionError(f"the opponent's policy chose action {action}, which is not "
                              f"legal for P{seat}")
        return rules.action(seat, action, state)


@lru_cache(maxsize=None)
def _environment_class():
    import gymnasium
    import numpy as np
    from gymnasium import spaces

    class RulebookEnv(gymnasium.Env):
        """A rulebook as a single-agent Gymnasium environment (see the module)."""

        metadata = {"render_modes": RENDER_MODES}

        def __init__(self, rulebook, players: int | None = None, seat=0, opponents="random",
                     options=None, rewards: str = "outcome", max_decisions: int = 10_000,
                     render_mode: str | None = None, illegal_reward: float = -1.0):
            if render_mode is not None and render_mode not in self.metadata["render_modes"]:
                raise ValueError(f"render_mode is one of {self.metadata['render_modes']}, "
                                 f"not {render_mode!r}")
            if rewards not in REWARDS:
                raise ValueError(f"rewards is one of {REWARDS}, not {rewards!r}")
            self.rules = load(rulebook, players, options)
            self.game = self.rules.game
            n = self.rules.players
            if seat != "random" and (type(seat) is not int or not 0 <= seat < n):
                raise ValueError(f"seat is a seat number from 0 to {n - 1} or 'random', "
                                 f"not {seat!r}")
            specs = list(opponents) if isinstance(opponents, (list, tuple)) else None
            if specs is not None and len(specs) != n - 1:
                raise ValueError(f"{len(specs)} opponents for the {n - 1} other seats")
            for k, spec in enumerate(specs or [opponents]):
                opponent_of(spec, k)            # refused now, not at the first reset
            self.seat_spec = seat
            self.opponent_specs = specs or [opponents] * (n - 1)
            self.reward_kind = rewards
            self.max_decisions = max_decisions
            self.render_mode = render_mode
            self.illegal_reward = float(illegal_reward)
            width = len(self.rules.observation_names)
            self.observation_space = spaces.Box(low=-np.inf, high=np.inf, shape=(width,),
                                                dtype=np.float32)
            self.action_space = spaces.Discrete(self.rules.actions)
            self._seeds = random.Random()
            self.state = None
            self.seat = 0 if seat == "random" else seat
            self.opponents = {}

        # -- the episode ------------------------------------------------------
        def reset(self, *, seed=None, options=None):
            super().reset(seed=seed)
            if seed is not None:
                self._seeds.seed(seed)
            for _ in range(REDEALS):
                self._deal()
                self._opponents_move()
                if not self.state.over:
                    return self._observation(), self._info()
            raise OptionError(f"{self.game.name} ended {REDEALS} times before "
                              f"P{self.seat} had a move")

        def _deal(self):
            n = self.rules.players
            if self.seat_spec == "random":
                self.seat = self._seeds.randrange(n)
            others = [p for p in range(n) if p != self.seat]
            self.opponents = {p: opponent_of(spec, self._seeds.getrandbits(32))
                              for p, spec in zip(others, self.opponent_specs)}
            self.state = self.rules.new_game(self._seeds.getrandbits(63))

        def _opponents_move(self):
            """The opponents play until the agent's seat is to move or the game ends."""
            game = self.game
            while not self.state.over and self.state.decisions < self.max_decisions:
                movers = game.to_move(self.state)
                if self.seat in movers:
                    return
                mover = movers[0]
                chosen = self.opponents[mover].move(self.rules, self.state, mover)
                self.state = game.apply(self.state, chosen)

        def step(self, action):
            if self.state is None:
                raise RuntimeError("reset() the environment before step()")
            if self.state.over or self._cut():
                raise RuntimeError("the episode is over: reset() the environment")
            action = int(action)
            if not 0 <= action < self.rules.actions or not self.action_masks()[action]:
                return (self._observation(), self.illegal_reward, True, False,
                        {"illegal": action, "action_mask": self.action_masks()})
            chosen = self.rules.action(self.seat, action, self.state)
            self.state = self.game.apply(self.state, chosen)
            self._opponents_move()
            outcome = self.game.outcome(self.state)
            info = self._info()
            if outcome is not None:
                paid = self.rules.rewards(outcome, self.reward_kind)
                info["outcome"] = outcome.to_json()
                return self._observation(), float(paid[self.seat]), True, False, info
            return self._observation(), 0.0, False, self._cut(), info

        def _cut(self) -> bool:
            return self.state.decisions >= self.max_decisions

        # -- what the agent reads -------------------------------------------------
        def action_masks(self):
            """True per legal action id of the agent's seat (none once the game is over)."""
            if self.state is None or self.state.over:
                return np.zeros(self.rules.actions, dtype=bool)
            return np.frombuffer(self.rules.space.mask(self.state, self.seat),
                                 dtype=np.int8).astype(bool)

        def _observation(self):
            return np.asarray(self.game.observation(self.state, self.seat), dtype=np.float32)

        def _info(self) -> dict:
            return {"seat": self.seat, "action_mask": self.action_masks()}

        def render(self):
            return self.rules.table_text(self.state, self.seat, self.render_mode)

    return RulebookEnv

"""Any rulebook as a PettingZoo environment, AEC or parallel.

`env(rulebook, players=2)` is the AEC environment wrapped as PettingZoo's
own classic games are (an illegal action ends the game, -1 to whoever
took it; actions out of range and calls out of order are refused);
`raw_env` is the class itself. Agents are `player_0` … `player_{N-1}`,
seat by seat. The action space is `Discrete(size)` of the rulebook's fixed
action ids. An observation is, with `observation="dict"` (the default),
`{"observation": the engine's observation vector of that seat (float32),
"action_mask": 1 per legal action id (int8)}`; with `observation="box"`
it is the vector alone, a `Box`, and the mask is `infos[agent]
["action_mask"]` (PettingZoo's other place for it), the form SuperSuit's
wrappers take.

One agent acts at a time: the first seat the engine waits for. At a
simultaneous step (several players to move) the seats answer in seat
order, and each sees only its own view, in which the others' picks stay
hidden until all have chosen. `parallel_env` is the same game as a
PettingZoo ParallelEnv: at every step each agent the engine waits for
acts, all of them at once at a simultaneous step, and the others' actions
are ignored (their masks are all 0). Chance is the engine's own, seeded
by `reset(seed=…)`: the same seed deals the same game. Rewards come once,
at the end: the winners share +1 and the others -1 (see
`rules.outcome_rewards`), with `rewards="win_share"` the victory shared
by the winners (adding up to 1), or with `rewards="score"` each player's
score (turned round under `lowest score wins`). A game still going after
`max_decisions` decisions is truncated with no reward. `render()` is the
table as the agent to move sees it (`render_mode="ansi"` returns the
text, `"human"` prints it).

PettingZoo, Gymnasium and NumPy are imported when a class is first
needed, so the package runs without them.
"""

from __future__ import annotations

import random
from functools import lru_cache

from .rules import RENDER_MODES, REWARDS, load

OBSERVATIONS = ("dict", "box")


def env(rulebook, players: int | None = None, render_mode: str | None = None, options=None,
        rewards: str = "outcome", max_decisions: int = 10_000, observation: str = "dict"):
    """The environment of a rulebook, wrapped as PettingZoo's classic games are."""
    from pettingzoo.utils import wrappers

    wrapped = _environment_class()(rulebook, players=players, render_mode=render_mode,
                                   options=options, rewards=rewards, max_decisions=max_decisions,
                                   observation=observation)
    wrapped = wrappers.TerminateIllegalWrapper(wrapped, illegal_reward=-1)
    wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
    return wrappers.OrderEnforcingWrapper(wrapped)


def parallel_env(rulebook, players: int | None = None, render_mode: str | None = None,
                 options=None, rewards: str = "outcome", max_decisions: int = 10_000,
                 observation: str = "dict", illegal_reward: float = -1.0):
    """The rulebook as a PettingZoo ParallelEnv (see the module): an illegal
    action ends the game, `illegal_reward` to whoever took it and 0 to the
    others, as `env`'s wrapper does."""
    return _parallel_class()(rulebook, players=players, render_mode=render_mode,
                             options=options, rewards=rewards, max_decisions=max_decisions,
                             observation=observation, illegal_reward=illegal_reward)


def __getattr__(name: str):
    # the classes derive from PettingZoo's, so they are made on first use
    if name == "raw_env":
        return _environment_class()
    if name == "raw_parallel_env":
        return _parallel_class()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def agent_name(seat: int) -> str:
    return f"player_{seat}"


class _Seats:
    """What both environments share: the rules of one rulebook and player
    count, the agents, the spaces, what each agent observes and the rewards
    an end pays. `state` is the game now; None before the first reset."""

    def __init__(self, rulebook, players, render_mode, options, rewards, max_decisions,
                 observation):
        import numpy as np
        from gymnasium import spaces

        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ValueError(f"render_mode is one of {RENDER_MODES}, not {render_mode!r}")
        if rewards not in REWARDS:
            raise ValueError(f"rewards is one of {REWARDS}, not {rewards!r}")
        if observation not in OBSERVATIONS:
            raise ValueError(f"observation is one of {OBSERVATIONS}, not {observation!r}")
        self.rules = load(rulebook, players, options)
        self.game = self.rules.game
        self.render_mode = render_mode
        self.reward_kind = rewards
        self.boxed = observation == "box"
        self.max_decisions = max_decisions
        n = self.rules.players
        self.agents = [agent_name(p) for p in range(n)]
        self.seats = {a: p for p, a in enumerate(self.agents)}
        size = self.rules.actions
        width = len(self.rules.observation_names)
        # the entries are counts, one-hots and the rulebook's numbers,
        # which no declaration bounds
        vector = spaces.Box(low=-np.inf, high=np.inf, shape=(width,), dtype=np.float32)
        mask = spaces.Box(low=0, high=1, shape=(size,), dtype=np.int8)
        self.observation_spaces = {
            a: vector if self.boxed else spaces.Dict({"observation": vector, "action_mask": mask})
            for a in self.agents}
        self.action_spaces = {a: spaces.Discrete(size) for a in self.agents}
        self._seeds = random.Random()
        self.state = None
        self._none = np.zeros(size, np.int8)

    def new_game(self, seed):
        if seed is not None:
            self._seeds.seed(seed)
        self.state = self.rules.new_game(self._seeds.getrandbits(63))
        return self.state

    def to_move(self) -> list:
        return [agent_name(p) for p in self.game.to_move(self.state)]

    def no_mask(self):
        return self._none.copy()

    def mask(self, agent, movers):
        """The agent's mask: all 0 unless it is among `movers` (the agents
        whose actions the environment takes next)."""
        import numpy as np

        if agent not in movers:
            return self.no_mask()
        return np.frombuffer(self.rules.space.mask(self.state, self.seats[agent]),
                             dtype=np.int8).copy()

    def observe(self, agent, movers):
        import numpy as np

        vector = np.asarray(self.game.observation(self.state, self.seats[agent]),
                            dtype=np.float32)
        if self.boxed:
            return vector
        return {"observation": vector, "action_mask": self.mask(agent, movers)}

    def paid(self, outcome) -> list:
        return self.rules.rewards(outcome, self.reward_kind)


class _OnSeats:
    """What both environment classes read of their `_Seats`: PettingZoo's
    attributes, the spaces and the state; `_seated` sets them up."""

    def _seated(self, table: _Seats) -> None:
        self.table = table
        self.rules, self.game = table.rules, table.game
        self.render_mode = table.render_mode
        self.metadata = {**self.metadata, "name": _slug(self.game.name) + "_v0"}
        self.possible_agents = table.agents[:]
        self.seats = table.seats
        self.observation_spaces = table.observation_spaces
        self.action_spaces = table.action_spaces

    @property
    def game_state(self):
        return self.table.state

    @game_state.setter
    def game_state(self, state):
        self.table.state = state

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    def close(self):
        pass


@lru_cache(maxsize=None)
def _environment_class():
    from pettingzoo import AECEnv

    class RulebookEnv(_OnSeats, AECEnv):
        """A rulebook as a PettingZoo AEC environment (see the module)."""

        metadata = {"render_modes": RENDER_MODES, "name": "rulebook_v0",
                    "is_parallelizable": False}

        def __init__(self, rulebook, players: int | None = None,
                     render_mode: str | None = None, options=None,
                     rewards: str = "outcome", max_decisions: int = 10_000,
                     observation: str = "dict"):
            super().__init__()
            self._seated(_Seats(rulebook, players, render_mode, options, rewards,
                                max_decisions, observation))
            self.reward_kind = rewards
            self.max_decisions = max_decisions

        def reset(self, seed=None, options=None):
            # `options` of a reset are PettingZoo's; the rulebook's are given
            # to the constructor, since they change the rules
            self.table.new_game(seed)
            self.agents = self.possible_agents[:]
            self.rewards = dict.fromkeys(self.agents, 0.0)
            self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
            self.terminations = dict.fromkeys(self.agents, False)
            self.truncations = dict.fromkeys(self.agents, False)
            self.agent_selection = self.table.to_move()[0]
            self.infos = self._infos()

        def _infos(self) -> dict:
            # in the box form the mask travels in the infos, the mover's own
            if not self.table.boxed:
                return {a: {} for a in self.agents}
            return {a: {"action_mask": self.table.mask(a, [self.agent_selection])}
                    for a in self.agents}

        def action_mask(self, agent):
            """1 per legal action id of the agent (all 0 unless it is to move)."""
            return self.table.mask(agent, [self.agent_selection])

        def observe(self, agent):
            # the mask is all 0 but for the agent to move
            return self.table.observe(agent, [self.agent_selection])

        def step(self, action):
            agent = self.agent_selection
            if self.terminations[agent] or self.truncations[agent]:
                self._was_dead_step(action)
                return
            seat = self.seats[agent]
            chosen = self.rules.action(seat, action, self.game_state)
            self.game_state = self.game.apply(self.game_state, chosen)
            self._cumulative_rewards[agent] = 0.0
            self._clear_rewards()
            outcome = self.game.outcome(self.game_state)
            if outcome is not None:
                paid = self.table.paid(outcome)
                for a in self.agents:
                    self.rewards[a] = paid[self.seats[a]]
                    self.terminations[a] = True
                self.agent_selection = self.agents[0]
                self.infos = {a: {"outcome": outcome.to_json()} for a in self.agents}
                if self.table.boxed:
                    for a in self.agents:
                        self.infos[a]["action_mask"] = self.table.no_mask()
            else:
                if self.game_state.decisions >= self.max_decisions:
                    self.truncations = dict.fromkeys(self.agents, True)
                    self.agent_selection = self.agents[0]
                else:
                    self.agent_selection = self.table.to_move()[0]
                self.infos = self._infos()
            self._accumulate_rewards()

        def render(self):
            return self.rules.table_text(self.game_state, self.seats[self.agent_selection],
                                         self.render_mode)

    return RulebookEnv


@lru_cache(maxsize=None)
def _parallel_class():
    from pettingzoo import ParallelEnv

    class RulebookParallelEnv(_OnSeats, ParallelEnv):
        """A rulebook as a PettingZoo ParallelEnv (see the module)."""

        metadata = {"render_modes": RENDER_MODES, "name": "rulebook_v0"}

        def __init__(self, rulebook, players: int | None = None,
                     render_mode: str | None = None, options=None,
                     rewards: str = "outcome", max_decisions: int = 10_000,
                     observation: str = "dict", illegal_reward: float = -1.0):
            self._seated(_Seats(rulebook, players, render_mode, options, rewards,
                                max_decisions, observation))
            self.illegal_reward = illegal_reward
            self.agents = []

        def movers(self) -> list:
            """The agents whose actions the next step takes: all the engine waits for."""
            return [] if self.game_state.over else self.table.to_move()

        def action_mask(self, agent):
            return self.table.mask(agent, self.movers())

        def _seen(self, extra=None) -> tuple:
            movers = self.movers()
            observations = {a: self.table.observe(a, movers) for a in self.agents}
            infos = {a: dict(extra or {}) for a in self.agents}
            if self.table.boxed:
                for a in self.agents:
                    infos[a]["action_mask"] = self.table.mask(a, movers)
            return observations, infos

        def reset(self, seed=None, options=None):
            self.table.new_game(seed)
            self.agents = self.possible_agents[:]
            return self._seen()

        def step(self, actions):
            table = self.table
            movers = self.movers()
            missing = [a for a in movers if a not in actions]
            if missing:
                raise ValueError(f"no action for {', '.join(missing)}, whom the game waits for")
            rewards = dict.fromkeys(self.agents, 0.0)
            ended = truncated = False
            extra = {}
            for agent in movers:
                seat = self.seats[agent]
                action = int(actions[agent])
                if not 0 <= action < self.rules.actions or not table.mask(agent, [agent])[action]:
                    rewards[agent] = float(self.illegal_reward)
                    ended, extra = True, {"illegal": agent}
                    break
                chosen = self.rules.action(seat, action, table.state)
                table.state = self.game.apply(table.state, chosen)
            outcome = None if ended else self.game.outcome(table.state)
            if outcome is not None:
                paid = table.paid(outcome)
                rewards = {a: paid[self.seats[a]] for a in self.agents}
                ended, extra = True, {"outcome": outcome.to_json()}
            elif not ended and table.state.decisions >= table.max_decisions:
                truncated = True
            terminations = dict.fromkeys(self.agents, ended)
            truncations = dict.fromkeys(self.agents, truncated)
            if ended or truncated:
                observations = {a: table.observe(a, []) for a in self.agents}
                infos = {a: dict(extra) for a in self.agents}
                if table.boxed:
                    for a in self.agents:
                        infos[a]["action_mask"] = table.no_mask()
                self.agents = []
            else:
                observations, infos = self._seen()
            return observations, rewards, terminations, truncations, infos

        def render(self):
            movers = self.movers() or self.possible_agents
            return self.rules.table_text(self.game_state, self.seats[movers[0]],
                                         self.render_mode)

    return RulebookParallelEnv


def _slug(title: str) -> str:
    return "".join(c if c.isalnum() else "_" for c in title.lower()).strip("_") or "rulebook"

"""Any rulebook as a PettingZoo AEC environment.

`env(rulebook, players=2)` is the environment wrapped as PettingZoo's own
classic games are (an illegal action ends the game, -1 to whoever took
it; actions out of range and calls out of order are refused); `raw_env`
is the class itself. Agents are `player_0` … `player_{N-1}`, seat by seat.
Each observation is `{"observation": the engine's observation vector of
that seat (float32), "action_mask": 1 per legal action id (int8)}`; the
action space is `Discrete(size)` of the rulebook's fixed action ids.

One agent acts at a time: the first seat the engine waits for. At a
simultaneous step (several players to move) the seats answer in seat
order, and each sees only its own view, in which the others' picks stay
hidden until all have chosen. Chance is the engine's own, seeded by
`reset(seed=…)`: the same seed deals the same game. Rewards come once, at
the end: the winners share +1 and the others -1 (see `rules.outcome_rewards`),
or with `rewards="score"` each player's score (turned round under `lowest
score wins`). A game still going after `max_decisions` decisions is
truncated with no reward. `render()` is the table as the agent to move
sees it (`render_mode="ansi"` returns the text, `"human"` prints it).

PettingZoo, Gymnasium and NumPy are imported when the class is first
needed, so the package runs without them.
"""

from __future__ import annotations

import random
from functools import lru_cache

from .rules import load

REWARDS = ("outcome", "score")


def env(rulebook, players: int | None = None, render_mode: str | None = None, options=None,
        rewards: str = "outcome", max_decisions: int = 10_000):
    """The environment of a rulebook, wrapped as PettingZoo's classic games are."""
    from pettingzoo.utils import wrappers

    wrapped = _environment_class()(rulebook, players=players, render_mode=render_mode,
                                   options=options, rewards=rewards, max_decisions=max_decisions)
    wrapped = wrappers.TerminateIllegalWrapper(wrapped, illegal_reward=-1)
    wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
    return wrappers.OrderEnforcingWrapper(wrapped)


def __getattr__(name: str):
    # the class derives from PettingZoo's, so it is made on first use
    if name == "raw_env":
        return _environment_class()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def agent_name(seat: int) -> str:
    return f"player_{seat}"


@lru_cache(maxsize=None)
def _environment_class():
    import numpy as np
    from gymnasium import logger, spaces
    from pettingzoo import AECEnv

    class RulebookEnv(AECEnv):
        """A rulebook as a PettingZoo AEC environment (see the module)."""

        metadata = {"render_modes": ["ansi", "human"], "name": "rulebook_v0",
                    "is_parallelizable": False}

        def __init__(self, rulebook, players: int | None = None,
                     render_mode: str | None = None, options=None,
                     rewards: str = "outcome", max_decisions: int = 10_000):
            super().__init__()
            if render_mode is not None and render_mode not in self.metadata["render_modes"]:
                raise ValueError(f"render_mode is one of {self.metadata['render_modes']}, "
                                 f"not {render_mode!r}")
            if rewards not in REWARDS:
                raise ValueError(f"rewards is one of {REWARDS}, not {rewards!r}")
            self.rules = load(rulebook, players, options)
            self.game = self.rules.game
            self.render_mode = render_mode
            self.reward_kind = rewards
            self.max_decisions = max_decisions
            self.metadata = {**self.metadata, "name": _slug(self.game.name) + "_v0"}
            n = self.rules.players
            self.possible_agents = [agent_name(p) for p in range(n)]
            self.seats = {a: p for p, a in enumerate(self.possible_agents)}
            size = self.rules.actions
            width = len(self.rules.observation_names)
            # the entries are counts, one-hots and the rulebook's numbers,
            # which no declaration bounds
            self.observation_spaces = {
                a: spaces.Dict({
                    "observation": spaces.Box(low=-np.inf, high=np.inf, shape=(width,),
                                              dtype=np.float32),
                    "action_mask": spaces.Box(low=0, high=1, shape=(size,), dtype=np.int8),
                }) for a in self.possible_agents}
            self.action_spaces = {a: spaces.Discrete(size) for a in self.possible_agents}
            self._seeds = random.Random()
            self.game_state = None

        def observation_space(self, agent):
            return self.observation_spaces[agent]

        def action_space(self, agent):
            return self.action_spaces[agent]

        def reset(self, seed=None, options=None):
            # `options` of a reset are PettingZoo's; the rulebook's are given
            # to the constructor, since they change the rules
            if seed is not None:
                self._seeds.seed(seed)
            self.game_state = self.rules.new_game(self._seeds.getrandbits(63))
            self.agents = self.possible_agents[:]
            self.rewards = dict.fromkeys(self.agents, 0.0)
            self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
            self.terminations = dict.fromkeys(self.agents, False)
            self.truncations = dict.fromkeys(self.agents, False)
            self.infos = {a: {} for a in self.agents}
            self.agent_selection = agent_name(self.game.to_move(self.game_state)[0])

        def observe(self, agent):
            seat = self.seats[agent]
            state = self.game_state
            # the mask is all 0 but for the agent to move
            return {"observation": np.asarray(self.game.observation(state, seat), dtype=np.float32),
                    "action_mask": np.frombuffer(self.rules.space.mask(state, seat),
                                                 dtype=np.int8).copy()}

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
                paid = (self.rules.score_rewards(outcome) if self.reward_kind == "score"
                        else self.rules.outcome_rewards(outcome))
                for a in self.agents:
                    self.rewards[a] = paid[self.seats[a]]
                    self.terminations[a] = True
                    self.infos[a] = {"outcome": outcome.to_json()}
                self.agent_selection = self.agents[0]
            else:
                if self.game_state.decisions >= self.max_decisions:
                    self.truncations = dict.fromkeys(self.agents, True)
                    self.agent_selection = self.agents[0]
                else:
                    self.agent_selection = agent_name(self.game.to_move(self.game_state)[0])
            self._accumulate_rewards()

        def render(self):
            if self.render_mode is None:
                logger.warn("render() was called without a render_mode "
                            "(give render_mode='ansi' or 'human')")
                return None
            from ..terminal.render import TableView, render_to_text

            seat = self.seats[self.agent_selection]
            view = self.game.view(self.game_state, seat)
            text = render_to_text(TableView(view, view.get("actions", ())))
            if self.render_mode == "human":
                print(text, end="")
                return None
            return text

        def close(self):
            pass

    return RulebookEnv


def _slug(title: str) -> str:
    return "".join(c if c.isalnum() else "_" for c in title.lower()).strip("_") or "rulebook"

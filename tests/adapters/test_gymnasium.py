"""The single-agent Gymnasium environment: one seat against fixed opponents.

Gymnasium's own `check_env` passes on it; a seed decides the episode; the
opponents are the interpreter's AI kinds, player objects or policies over
what the agent reads; the mask is the seat's legal actions; the reward is
the seat's share of the outcome; and a real learner, sb3-contrib's
MaskablePPO, trained a few thousand steps on tic-tac-toe against random,
beats random by far.
"""

from __future__ import annotations

import warnings
from pathlib import Path

import pytest

gymnasium = pytest.importorskip("gymnasium")
np = pytest.importorskip("numpy")

from gymnasium.utils.env_checker import check_env  # noqa: E402

from interpreter.adapters import gymnasium as single  # noqa: E402
from interpreter.ai.players import RandomPlayer  # noqa: E402
from interpreter.errors import RulebookError  # noqa: E402

GAMES = Path(__file__).resolve().parent / "games"
TIC_TAC_TOE = str(GAMES / "tic-tac-toe.rules")


@pytest.fixture(autouse=True)
def _quiet():
    # check_env warns that an unbounded Box is unbounded
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        yield


def _first(observation, mask):
    return int(np.flatnonzero(mask)[0])


def _episode(env, seed, pick=_first):
    """(the rewards, the actions, the last info) of one episode, each action
    `pick(observation, mask)`."""
    observation, info = env.reset(seed=seed)
    assert env.observation_space.contains(observation)
    actions, rewards = [], []
    while True:
        mask = env.action_masks()
        assert np.array_equal(mask, info["action_mask"])
        action = pick(observation, mask)
        actions.append(action)
        observation, reward, terminated, truncated, info = env.step(action)
        rewards.append(reward)
        if terminated or truncated:
            return rewards, actions, info


@pytest.mark.parametrize("name,players", [("kuhn-poker", 2), ("hanamikoji", 2), ("hearts", 4),
                                          ("festival-of-lights", 3), (TIC_TAC_TOE, 2)])
def test_gymnasium_check_env(name, players):
    check_env(single.env(name, players=players, seat=players - 1), skip_render_check=True)


def test_a_seed_decides_the_episode_opponents_included():
    def play(seed):
        env = single.env("hanamikoji", opponents="greedy")
        return _episode(env, seed)[:2], env.game.state_to_json(env.state)["state"]
    assert play(4) == play(4)
    assert play(4) != play(5)


def test_the_mask_is_the_seat_legal_actions_and_the_reward_its_share_of_the_outcome():
    env = single.env("kuhn-poker", seat=1)
    for seed in range(20):
        env.reset(seed=seed)
        legal = env.game.legal_actions(env.state, 1)
        assert env.action_masks().sum() == len(legal)
        rewards, _, info = _episode(env, seed)
        winners = info["outcome"]["winners"]
        assert rewards[-1] == (1.0 if winners == [1] else -1.0)
        assert all(r == 0 for r in rewards[:-1])


def test_opponents_of_every_form_play_the_other_seats():
    chosen = []

    def first_legal(observation, mask):
        chosen.append(observation.shape)
        return int(np.flatnonzero(mask)[0])

    env = single.env("hearts", players=4, seat=2,
                     opponents=["mcts:5", RandomPlayer(3), first_legal])
    _episode(env, 0)
    assert chosen and chosen[0] == env.observation_space.shape
    assert [type(o.player).__name__ if hasattr(o, "player") else "policy"
            for _, o in sorted(env.opponents.items())] == ["MCTSPlayer", "RandomPlayer", "policy"]
    assert env.opponents[0].player.iterations == 5


@pytest.mark.parametrize("opponents,code", [
    ("perfect", "command/unknown-ai"), ("random:5", "command/ai-budget"),
    ("mcts:x", "command/ai-budget"), (3, "option/invalid")])
def test_a_bad_opponent_is_refused_at_once(opponents, code):
    with pytest.raises(RulebookError) as caught:
        single.env("kuhn-poker", opponents=opponents)
    assert caught.value.code == code


def test_a_list_of_opponents_is_one_per_other_seat():
    with pytest.raises(ValueError, match="2 opponents for the 3 other seats"):
        single.env("hearts", players=4, opponents=["random", "greedy"])


def test_a_random_seat_is_drawn_at_every_reset():
    env = single.env("kuhn-poker", seat="random")
    seats = set()
    for seed in range(12):
        env.reset(seed=seed)
        seats.add(env.seat)
        assert env.action_masks().any()
    assert seats == {0, 1}


def test_an_illegal_action_ends_the_episode_with_the_penalty():
    env = single.env("kuhn-poker")
    env.reset(seed=0)
    before = env.state
    illegal = int(np.flatnonzero(~env.action_masks())[0])
    _, reward, terminated, truncated, info = env.step(illegal)
    assert (reward, terminated, truncated, info["illegal"]) == (-1.0, True, False, illegal)
    assert env.state is before


def test_a_long_game_is_truncated():
    env = single.env("kalah", max_decisions=6)
    rewards, actions, _ = _episode(env, 0)
    assert all(r == 0 for r in rewards) and env.state.decisions >= 6 and not env.state.over


def test_registered_with_gymnasium():
    made = gymnasium.make(single.register(), rulebook="kuhn-poker", seat=1)
    observation, _ = made.reset(seed=0)
    assert made.observation_space.contains(observation)
    assert made.unwrapped.action_masks().any()


def test_maskable_ppo_learns_to_beat_random():
    """sb3-contrib's MaskablePPO, 6,000 steps as P0 of tic-tac-toe against
    random, then 200 seeded games: it wins far more often than a random P0
    does against the same opponent (about 57%)."""
    sb3 = pytest.importorskip("sb3_contrib")
    torch = pytest.importorskip("torch")
    torch.manual_seed(0)
    torch.set_num_threads(1)
    model = sb3.MaskablePPO("MlpPolicy", single.env(TIC_TAC_TOE), seed=0, n_steps=512,
                            batch_size=64, verbose=0)
    model.learn(6000)
    rng = np.random.default_rng(0)

    def wins(pick):
        env = single.env(TIC_TAC_TOE)
        return sum(_episode(env, 1000 + g, pick)[0][-1] > 0 for g in range(200)) / 200

    trained = wins(lambda observation, mask: int(
        model.predict(observation, action_masks=mask, deterministic=True)[0]))
    baseline = wins(lambda observation, mask: int(rng.choice(np.flatnonzero(mask))))
    assert trained > baseline + 0.15, (trained, baseline)

"""The PettingZoo environment of every shipped rulebook and player count.

PettingZoo's own checks run on each: `api_test` (the AEC contract: agents,
spaces, observations within their spaces, rewards accumulated, agents
removed once done) and `seed_test` (two environments reset with one seed
play the same game). Then what is ours: an observation is the seat's
view, so at a simultaneous step a pick changes nothing the next seat
observes or sees rendered; the rewards are the outcome's; an illegal
action ends the game with -1 for whoever took it; a long game is truncated.
"""

from __future__ import annotations

import warnings
from pathlib import Path

import pytest

pytest.importorskip("pettingzoo")
pytest.importorskip("gymnasium")
np = pytest.importorskip("numpy")

from pettingzoo.test import api_test, seed_test  # noqa: E402

from interpreter import load_rulebook  # noqa: E402
from interpreter.adapters import pettingzoo as zoo  # noqa: E402
from interpreter.adapters.rules import outcome_rewards  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
RULEBOOKS = sorted(p.stem for p in (ROOT / "rulebooks").glob("*.rules"))


def _counts():
    for name in RULEBOOKS:
        game = load_rulebook(name)
        for n in range(game.min_players, game.max_players + 1):
            yield pytest.param(name, n, id=f"{name}-{n}p")


GAMES = list(_counts())
CYCLES = 1000      # of every agent: more than any whole game (api_test plays one game)


@pytest.fixture(autouse=True)
def _quiet():
    # api_test warns that a dict observation is not an array, as it does
    # for PettingZoo's own classic games outside its list of their names
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        yield


@pytest.mark.parametrize("name,players", GAMES)
def test_api(name, players):
    api_test(zoo.env(name, players=players), num_cycles=CYCLES)


@pytest.mark.parametrize("name,players", GAMES)
def test_seed(name, players):
    seed_test(lambda: zoo.env(name, players=players), num_cycles=CYCLES)


def test_the_raw_class_and_its_spaces():
    env = zoo.raw_env("kuhn-poker")
    env.reset(seed=3)
    assert isinstance(env, zoo.raw_env)
    assert env.possible_agents == ["player_0", "player_1"]
    space = env.observation_space("player_0")
    assert space["action_mask"].dtype == np.int8
    assert env.action_space("player_1").n == env.rules.actions
    observation = env.observe(env.agent_selection)
    assert space.contains(observation)
    assert observation["action_mask"].sum() == len(
        env.game.legal_actions(env.game_state, env.seats[env.agent_selection]))


def test_a_seed_deals_the_same_game_and_a_reset_goes_on_from_it():
    a, b = zoo.raw_env("hanamikoji"), zoo.raw_env("hanamikoji")
    a.reset(seed=11)
    b.reset(seed=11)
    assert a.game_state == b.game_state
    a.reset()
    b.reset()
    assert a.game_state == b.game_state
    deals = set()
    for seed in range(6):
        a.reset(seed=seed)
        deals.add(str(a.game.state_to_json(a.game_state)["state"]["zones"]))
    assert len(deals) > 1


def _play(env, pick=lambda mask: int(np.flatnonzero(mask)[0])):
    for agent in env.agent_iter():
        observation, reward, done, cut, info = env.last()
        env.step(None if done or cut else pick(observation["action_mask"]))
    return env


def test_the_rewards_at_the_end_are_the_outcome():
    env = zoo.raw_env("kuhn-poker")
    env.reset(seed=5)
    paid = {a: 0.0 for a in env.possible_agents}
    outcome = None
    for agent in env.agent_iter():
        observation, reward, done, cut, info = env.last()
        paid[agent] += reward
        if done:
            outcome = info["outcome"]
        env.step(None if done or cut else int(np.flatnonzero(observation["action_mask"])[-1]))
    assert outcome is not None
    winners = outcome["winners"]
    assert [paid[a] for a in env.possible_agents] == [1.0 if p in winners else -1.0 for p in (0, 1)]


def test_score_rewards_are_the_scores():
    env = zoo.raw_env("kuhn-poker", rewards="score")
    env.reset(seed=5)
    total = {a: 0.0 for a in env.possible_agents}
    for agent in env.agent_iter():
        observation, reward, done, cut, info = env.last()
        total[agent] += reward
        if done:
            assert reward == info["outcome"]["scores"][env.seats[agent]]
        env.step(None if done or cut else int(np.flatnonzero(observation["action_mask"])[0]))
    assert sum(total.values()) == 0


@pytest.mark.parametrize("winners,draw,expected", [
    ((0,), False, [1.0, -1.0]),
    ((0, 1), True, [0.0, 0.0]),
    ((), True, [0.0, 0.0]),
])
def test_outcome_rewards_of_two(winners, draw, expected):
    class Outcome:
        pass
    o = Outcome()
    o.winners, o.draw = winners, draw
    assert outcome_rewards(o, 2) == expected


def test_outcome_rewards_of_four_are_zero_sum():
    class Outcome:
        draw = False
    o = Outcome()
    o.winners = (1,)
    assert outcome_rewards(o, 4) == [-1 / 3, 1.0, -1 / 3, -1 / 3]
    o.winners = (0, 2)
    assert outcome_rewards(o, 4) == [0.5, -0.5, 0.5, -0.5]
    o.winners = (0, 1, 2, 3)     # a winners rule naming every player
    assert outcome_rewards(o, 4) == [1.0] * 4


@pytest.mark.parametrize("name,players", [("hearts", 4), ("festival-of-lights", 3)])
def test_a_simultaneous_pick_is_hidden_from_the_next_seat(name, players):
    """At a step where several players choose at once, the seats answer in
    seat order; what the next seat observes, and the table rendered for it,
    is the same whichever card the first picked."""
    env = zoo.raw_env(name, players=players, render_mode="ansi")
    env.reset(seed=2)
    game = env.game
    while len(game.to_move(env.game_state)) < 2:
        env.step(int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[0]))
    first, second = game.to_move(env.game_state)[:2]
    assert env.agent_selection == zoo.agent_name(first)
    legal = np.flatnonzero(env.observe(env.agent_selection)["action_mask"])
    assert len(legal) > 1
    seen = []
    before = env.game_state
    for action in legal[:3]:
        env.game_state = before
        env.agent_selection = zoo.agent_name(first)
        env.step(int(action))
        assert env.agent_selection == zoo.agent_name(second)
        seen.append((env.observe(env.agent_selection)["observation"].tolist(), env.render()))
    assert all(s == seen[0] for s in seen)


def test_render_is_the_table_of_the_agent_to_move():
    env = zoo.raw_env("kuhn-poker", render_mode="ansi")
    env.reset(seed=1)
    seat = env.seats[env.agent_selection]
    text = env.render()
    assert f"view of P{seat}" in text
    view = env.game.view(env.game_state, seat)
    other = next(z for z in view["zones"] if z["name"] == "hand" and z["owner"] != seat)
    assert other["cards"] is None
    assert env.render() == text


def test_an_illegal_action_ends_the_game_with_minus_one():
    env = zoo.env("kuhn-poker")
    env.reset(seed=0)
    agent = env.agent_selection
    mask = env.observe(agent)["action_mask"]
    env.step(int(np.flatnonzero(mask == 0)[0]))
    assert all(env.terminations.values())
    assert env._cumulative_rewards[agent] == -1


def test_a_long_game_is_truncated():
    env = zoo.raw_env("kalah", max_decisions=4)
    env.reset(seed=0)
    steps = 0
    for agent in env.agent_iter():
        observation, reward, done, cut, info = env.last()
        if done or cut:
            assert cut and not done and reward == 0
            env.step(None)
            continue
        steps += 1
        env.step(int(np.flatnonzero(observation["action_mask"])[0]))
    assert steps == 4 and not env.agents


def test_options_and_player_counts_are_the_rulebook_own():
    env = zoo.raw_env("lanterns", players=3, options="facing_first=yes")
    assert env.game.options["facing_first"] is True
    assert len(env.possible_agents) == 3
    with pytest.raises(ValueError):
        zoo.raw_env("kalah", players=3)

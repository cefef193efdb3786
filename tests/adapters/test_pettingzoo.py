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
    ((0, 1), False, [0.0, 0.0]),      # a winners rule naming both: a tie
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
    o.winners = (0, 1, 2, 3)     # a winners rule naming every player: nobody beaten
    assert outcome_rewards(o, 4) == [0.0] * 4


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


# -- the box form, the parallel environment, SuperSuit -------------------------

ROCK_PAPER_SCISSORS = str(Path(__file__).resolve().parent / "games" / "rock-paper-scissors.rules")
BOXED = [("hanamikoji", 2), ("festival-of-lights", 3), ("kuhn-poker", 2), ("hearts", 4)]


@pytest.mark.parametrize("name,players", BOXED)
def test_the_box_form_passes_the_api_and_seed_tests(name, players):
    api_test(zoo.env(name, players=players, observation="box"), num_cycles=CYCLES)
    seed_test(lambda: zoo.env(name, players=players, observation="box"), num_cycles=CYCLES)


def test_the_box_form_observes_the_vector_and_keeps_the_mask_in_the_infos():
    boxed, plain = zoo.raw_env("hanamikoji", observation="box"), zoo.raw_env("hanamikoji")
    boxed.reset(seed=3)
    plain.reset(seed=3)
    for _ in range(6):
        agent = plain.agent_selection
        assert boxed.agent_selection == agent
        both = plain.observe(agent)
        assert boxed.observation_space(agent).contains(boxed.observe(agent))
        assert np.array_equal(boxed.observe(agent), both["observation"])
        assert np.array_equal(boxed.infos[agent]["action_mask"], both["action_mask"])
        assert np.array_equal(boxed.action_mask(agent), both["action_mask"])
        other = next(a for a in boxed.agents if a != agent)
        assert not boxed.infos[other]["action_mask"].any()
        action = int(np.flatnonzero(both["action_mask"])[-1])
        boxed.step(action)
        plain.step(action)


def test_an_illegal_action_in_the_box_form_ends_the_game_with_minus_one():
    env = zoo.env("kuhn-poker", observation="box")
    env.reset(seed=0)
    agent = env.agent_selection
    env.last()
    env.step(int(np.flatnonzero(env.infos[agent]["action_mask"] == 0)[0]))
    assert all(env.terminations.values())
    assert env._cumulative_rewards[agent] == -1


@pytest.mark.parametrize("name,players,observation", [
    (ROCK_PAPER_SCISSORS, 2, "dict"), ("festival-of-lights", 3, "dict"),
    ("kuhn-poker", 2, "box"), ("hanamikoji", 2, "dict")])
def test_the_parallel_env_passes_the_parallel_api_and_seed_tests(name, players, observation):
    from pettingzoo.test import parallel_api_test, parallel_seed_test

    parallel_api_test(zoo.parallel_env(name, players=players, observation=observation),
                      num_cycles=CYCLES)
    parallel_seed_test(lambda: zoo.parallel_env(name, players=players, observation=observation))


def _parallel_game(env, seed, pick=lambda mask: int(np.flatnonzero(mask)[0])):
    """The steps of one parallel game: (the agents who had a legal action, rewards)."""
    observations, infos = env.reset(seed=seed)
    steps = []
    while env.agents:
        masks = {a: observations[a]["action_mask"] for a in env.agents}
        movers = [a for a in env.agents if masks[a].any()]
        assert movers == env.movers()
        actions = {a: pick(masks[a]) if masks[a].any() else 0 for a in env.agents}
        observations, rewards, terms, truncs, infos = env.step(actions)
        steps.append((movers, rewards))
    return steps, infos


def test_a_simultaneous_step_is_one_parallel_step():
    """Rock, paper, scissors: both throw at every step, three steps in all;
    Festival of Lights: every player picks a card at once."""
    steps, infos = _parallel_game(zoo.parallel_env(ROCK_PAPER_SCISSORS), 0)
    assert [movers for movers, _ in steps] == [["player_0", "player_1"]] * 3
    winners = infos["player_0"]["outcome"]["winners"]
    assert sum(steps[-1][1].values()) == 0 and (steps[-1][1]["player_0"] > 0) == (winners == [0])
    env = zoo.parallel_env("festival-of-lights", players=3)
    env.reset(seed=1)
    while len(env.movers()) < 3:
        env.step({a: int(np.flatnonzero(env.action_mask(a))[0]) if env.action_mask(a).any() else 0
                  for a in env.agents})
    before = env.game_state.decisions
    env.step({a: int(np.flatnonzero(env.action_mask(a))[0]) for a in env.agents})
    assert env.game_state.decisions == before + 3


def test_in_a_parallel_step_the_actions_of_those_not_to_move_are_ignored():
    """Kuhn poker is played one seat at a time: whatever the other seat
    sends, the game is the same."""
    def play(filler):
        env = zoo.parallel_env("kuhn-poker")
        observations, _ = env.reset(seed=4)
        while env.agents:
            actions = {}
            for a in env.agents:
                mask = observations[a]["action_mask"]
                actions[a] = int(np.flatnonzero(mask)[-1]) if mask.any() else filler
            observations, *_ = env.step(actions)
        return env.game.state_to_json(env.game_state)["state"]
    assert play(0) == play(1)


def test_an_illegal_action_in_a_parallel_step_ends_the_game():
    env = zoo.parallel_env(ROCK_PAPER_SCISSORS, illegal_reward=-2)
    env.reset(seed=0)
    legal = int(np.flatnonzero(env.action_mask("player_0"))[0])
    illegal = env.rules.actions           # every sign is legal: an id past them all
    _, rewards, terms, _, infos = env.step({"player_0": legal, "player_1": illegal})
    assert rewards == {"player_0": 0.0, "player_1": -2.0}
    assert all(terms.values()) and infos["player_1"]["illegal"] == "player_1"
    assert env.agents == []
    with pytest.raises(ValueError, match="no action for player_1"):
        env.reset(seed=0)
        env.step({"player_0": legal})


def test_supersuit_wraps_the_box_form_and_makes_a_vector_env():
    ss = pytest.importorskip("supersuit")
    stacked = ss.frame_stack_v1(zoo.env("kuhn-poker", observation="box"), 3)
    api_test(stacked, num_cycles=CYCLES)
    assert stacked.observation_space("player_0").shape == (3 * len(
        zoo.raw_env("kuhn-poker").rules.observation_names),)
    vec = ss.pettingzoo_env_to_vec_env_v1(zoo.parallel_env(ROCK_PAPER_SCISSORS, observation="box"))
    vec = ss.concat_vec_envs_v1(vec, 2, num_cpus=0, base_class="gymnasium")
    observations, infos = vec.reset(seed=0)
    assert observations.shape == (4, vec.observation_space.shape[0])     # 2 games x 2 seats
    ended = 0
    for _ in range(9):          # three throws a game: every game ends, and starts again
        actions = np.array([int(np.flatnonzero(i["action_mask"])[0]) for i in infos])
        observations, rewards, terminations, truncations, infos = vec.step(actions)
        ended += int(terminations.sum())
        assert rewards.sum() == 0
    assert ended == 12

"""The OpenSpiel game of every shipped rulebook and player count.

OpenSpiel's own checks run on each: `pyspiel.random_sim_test` (legal
actions sorted and only the mover's, masks, unique action strings, clones
equal, observations and information states of every player at every step,
returns within bounds and adding up as the utility type says, the game's
length within its maximum) and the checks of open_spiel's
`games_sim_test.sim_game`, copied below: the game and its type pickled,
states serialized and pickled at every power of two moves, clones played
on alike, no legal action at the end. Then two real clients: CFR solves
the rulebook Kuhn poker (exploitability under 0.01 after 1,000 iterations,
the first player's value -1/18 as pyspiel's own `kuhn_poker`), and the
ISMCTS bot plays whole games with the engine's determinization as its
resampler.
"""

from __future__ import annotations

import pickle
import random
from pathlib import Path

import pytest

pyspiel = pytest.importorskip("pyspiel")
np = pytest.importorskip("numpy")

from interpreter import RulebookError, load_rulebook  # noqa: E402
from interpreter.adapters import openspiel  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
RULEBOOKS = sorted(p.stem for p in (ROOT / "rulebooks").glob("*.rules"))
# random games per player count: fewer of the long ones
SIMS = {"lanterns": 1, "samurai": 1, "paris": 1, "othello": 1}


def _counts():
    for name in RULEBOOKS:
        game = load_rulebook(name)
        for n in range(game.min_players, game.max_players + 1):
            yield pytest.param(name, n, id=f"{name}-{n}p")


GAMES = list(_counts())


@pytest.fixture(scope="module", autouse=True)
def _registered():
    openspiel.register()


@pytest.mark.parametrize("name,players", GAMES)
def test_random_sim_test(name, players):
    game = openspiel.load_game(name, players=players)
    pyspiel.random_sim_test(game, num_sims=SIMS.get(name, 3), serialize=False, verbose=False)


@pytest.mark.parametrize("name,players", GAMES)
def test_games_sim_test_checks(name, players):
    game = pyspiel.load_game(f"python_rulebook(rulebook={name},players={players})")
    _sim_game(game, np.random.RandomState(players))


def _sim_game(game, rng):
    """open_spiel/python/tests/games_sim_test.py, `sim_game`, for one game
    (its unittest assertions as plain ones)."""
    assert game.min_utility() < game.max_utility()
    assert str(pickle.loads(pickle.dumps(game))) == str(game)
    assert pickle.loads(pickle.dumps(game.get_type())) == game.get_type()
    state = game.new_initial_state()
    total, next_check = 0, 1
    while not state.is_terminal() and total <= 1000:
        total += 1
        if total >= next_check:
            text = pyspiel.serialize_game_and_state(game, state)
            new_game, new_state = pyspiel.deserialize_game_and_state(text)
            assert str(new_game) == str(game) and str(new_state) == str(state)
            assert str(pickle.loads(pickle.dumps(state))) == str(state)
            next_check *= 2
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes())
            state.apply_action(rng.choice(actions, p=probs))
        else:
            action = rng.choice(state.legal_actions(state.current_player()))
            clone = state.clone()
            assert str(clone) == str(state) and clone.history() == state.history()
            state.apply_action(action)
            clone.apply_action(action)
            assert str(clone) == str(state) and clone.history() == state.history()
    assert total > 0
    if state.is_terminal():
        assert state.legal_actions() == []
        for p in range(game.num_players()):
            assert state.legal_actions(p) == []
        returns = state.returns()
        for p in range(game.num_players()):
            assert state.player_return(p) == returns[p]
            assert game.min_utility() <= returns[p] <= game.max_utility()


def test_the_game_type_follows_the_rulebook():
    kind = pyspiel.GameType
    poker = openspiel.load_game("kuhn-poker")
    assert poker.get_type().information == kind.Information.IMPERFECT_INFORMATION
    assert poker.get_type().chance_mode == kind.ChanceMode.EXPLICIT_STOCHASTIC
    assert poker.get_type().utility == kind.Utility.ZERO_SUM
    assert poker.get_type().dynamics == kind.Dynamics.SEQUENTIAL
    board = openspiel.load_game("kalah")
    assert board.get_type().information == kind.Information.PERFECT_INFORMATION
    assert board.get_type().chance_mode == kind.ChanceMode.DETERMINISTIC
    assert board.max_chance_outcomes() == 0


def test_options_travel_in_the_game_string():
    game = openspiel.load_game("hanamikoji", options="first_player=P0")
    assert game.rules.game.options["first_player"] == "P0"
    again = pyspiel.load_game(str(game))
    assert again.rules is game.rules


def test_unknown_parameters_and_missing_rulebooks_are_refused():
    with pytest.raises(pyspiel.SpielError, match="Unknown parameter 'colour'"):
        pyspiel.load_game("python_rulebook(rulebook=kalah,colour=red)")
    for text, code in [("python_rulebook", "option/invalid"),
                       ("python_rulebook(rulebook=kalah,players=3)", "option/invalid"),
                       ("python_rulebook(rulebook=kalah,returns=chips)", "option/invalid"),
                       ("python_rulebook(rulebook=no-such-game)", "rulebook/file")]:
        with pytest.raises(RulebookError) as caught:
            pyspiel.load_game(text)
        codes = [e.code for e in getattr(caught.value, "errors", [caught.value])]
        assert code in codes


def test_a_simultaneous_step_is_asked_seat_by_seat_and_stays_hidden():
    game = openspiel.load_game("festival-of-lights", players=3)
    state = game.new_initial_state()
    rng = random.Random(0)
    while True:
        if state.is_chance_node():
            state.apply_action(state.chance_outcomes()[0][0])
            continue
        m = state.moment
        if len(m.rules.game.to_move(m.state)) > 1:
            break
        state.apply_action(rng.choice(state.legal_actions()))
    first = state.current_player()
    seen = set()
    for action in state.legal_actions()[:3]:
        child = state.child(action)
        assert child.current_player() != first
        nxt = child.current_player()
        seen.add((child.information_state_string(nxt), child.observation_string(nxt),
                  tuple(child.information_state_tensor(nxt))))
    assert len(seen) == 1


# -- CFR on the rulebook Kuhn poker ------------------------------------------

def test_cfr_solves_the_rulebook_kuhn_poker():
    """1,000 iterations of CFR: exploitability under 0.01, the first
    player's value -1/18; and the very numbers CFR reaches on pyspiel's own
    `kuhn_poker`, as the two games' trees are the same."""
    from open_spiel.python.algorithms import cfr, exploitability, expected_game_score

    def solved(game):
        solver = cfr.CFRSolver(game)
        for _ in range(1000):
            solver.evaluate_and_update_policy()
        average = solver.average_policy()
        return (exploitability.exploitability(game, average),
                expected_game_score.policy_value(game.new_initial_state(), [average] * 2)[0])

    gap, value = solved(openspiel.load_game("kuhn-poker", returns="score", utility="zero_sum",
                                            min_utility=-2.0, max_utility=2.0))
    assert gap < 0.01
    assert value == pytest.approx(-1 / 18, abs=0.005)
    assert (gap, value) == pytest.approx(solved(pyspiel.load_game("kuhn_poker")), abs=1e-9)


# -- ISMCTS -------------------------------------------------------------------

def _bot(game, seed, simulations):
    from open_spiel.python.algorithms import ismcts, mcts

    evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(seed))
    if game.get_type().information == pyspiel.GameType.Information.PERFECT_INFORMATION:
        # ISMCTSBot asserts imperfect information: a board game gets MCTS
        return mcts.MCTSBot(game, 2.0, simulations, evaluator,
                            random_state=np.random.RandomState(seed))
    bot = ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=simulations,
                           random_state=np.random.RandomState(seed))
    bot.set_resampler(openspiel.resampler(seed))
    return bot


# a long game plays once, with a small budget; each seat has its own bot
SEARCHED = {"lanterns": (1, 3), "samurai": (1, 2), "paris": (1, 3), "othello": (1, 3)}
SEATS = {"samurai": 2}      # else the most players the rulebook allows


@pytest.mark.parametrize("name", RULEBOOKS)
def test_search_bots_play_whole_games(name):
    game = openspiel.load_game(name, players=SEATS.get(name, load_rulebook(name).max_players))
    games, simulations = SEARCHED.get(name, (2, 8))
    rng = np.random.RandomState(1)
    for seed in range(games):
        bots = [_bot(game, seed * 10 + p, simulations) for p in range(game.num_players())]
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                actions, probs = zip(*state.chance_outcomes())
                state.apply_action(rng.choice(actions, p=probs))
            else:
                state.apply_action(bots[state.current_player()].step(state))
        assert len(state.returns()) == game.num_players()


@pytest.mark.parametrize("name,players", [("hanamikoji", 2), ("festival-of-lights", 4),
                                          ("hearts", 4), ("kuhn-poker", 2)])
def test_a_resampled_state_is_one_the_player_cannot_tell_apart(name, players):
    """As ISMCTS asserts: the player to move and their information state
    are the same in a resampled state; the hidden cards differ."""
    game = openspiel.load_game(name, players=players)
    resample = openspiel.resampler(3)
    rng = random.Random(3)
    differed = False
    for _ in range(3):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.choice(state.chance_outcomes())[0])
                continue
            player = state.current_player()
            other = resample(state, player)
            assert other.current_player() == player
            assert (other.information_state_string(player)
                    == state.information_state_string(player))
            assert other.information_state_tensor(player) == state.information_state_tensor(player)
            assert other.legal_actions() == state.legal_actions()
            differed |= str(other) != str(state)
            state.apply_action(rng.choice(state.legal_actions()))
    assert differed


# -- utilities: zero-sum, constant-sum, centred scores -------------------------

TIC_TAC_TOE = str(Path(__file__).resolve().parent / "games" / "tic-tac-toe.rules")


def _ends(game, games=30, seed=0):
    """The returns at the end of random games."""
    rng = random.Random(seed)
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.choice(state.chance_outcomes())[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
        yield state.returns()


@pytest.mark.parametrize("name,players", [(TIC_TAC_TOE, 2), ("hanamikoji", 2), ("hearts", 4),
                                          ("festival-of-lights", 3)])
def test_win_lose_draw_is_zero_sum_with_or_without_a_winners_rule(name, players):
    """Tic-tac-toe and Hanamikoji name their winners with a `winners` rule;
    a victory of all would be a tie, so the outcome is zero-sum still."""
    game = openspiel.load_game(name, players=players)
    assert game.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM
    for returns in _ends(game, games=10 if players > 2 else 30):
        assert abs(sum(returns)) < 1e-9
        if players == 2:
            assert sorted(returns) in ([-1.0, 1.0], [0.0, 0.0])


@pytest.mark.parametrize("name,players", [("hanamikoji", 2), ("hearts", 4)])
def test_win_shares_are_constant_sum(name, players):
    game = openspiel.load_game(name, players=players, returns="win_share")
    assert game.get_type().utility == pyspiel.GameType.Utility.CONSTANT_SUM
    assert game.utility_sum() == 1.0
    for returns in _ends(game, games=5):
        assert abs(sum(returns) - 1.0) < 1e-9 and all(0 <= r <= 1 for r in returns)
    pyspiel.random_sim_test(game, num_sims=2, serialize=False, verbose=False)


def test_zero_sum_scores_are_the_scores_less_their_mean():
    """`returns=score, utility=zero_sum` is accepted on any rulebook: the
    returns are the scores' differences, and scores that add up to zero
    (Kuhn poker's chips) are paid as they are."""
    game = openspiel.load_game(TIC_TAC_TOE, returns="score", utility="zero_sum")
    for returns in _ends(game):
        assert sorted(returns) in ([-0.5, 0.5], [0.0, 0.0])
    poker = openspiel.load_game("kuhn-poker", returns="score", utility="zero_sum")
    state = poker.new_initial_state()
    for action in (0, 0, 0, 0):           # the deck dealt; both check
        state.apply_action(action)
    assert state.is_terminal()
    outcome = poker.rules.game.outcome(state.moment.state)
    assert state.returns() == [float(s) for s in outcome.scores]


def test_alpha_beta_solves_tic_tac_toe_as_a_draw():
    minimax = pytest.importorskip("open_spiel.python.algorithms.minimax")
    game = openspiel.load_game(TIC_TAC_TOE)
    kind = pyspiel.GameType
    assert game.get_type().information == kind.Information.PERFECT_INFORMATION
    assert game.get_type().chance_mode == kind.ChanceMode.DETERMINISTIC
    value, _ = minimax.alpha_beta_search(game)
    assert value == 0.0
    # from a corner opening answered on an edge, the first player wins
    state = game.new_initial_state()
    for cell in ("place (0,0)", "place (1,0)"):
        state.apply_action(next(a for a in state.legal_actions()
                                if state.action_to_string(a) == cell))
    assert minimax.alpha_beta_search(game, state=state)[0] == 1.0


# -- the perfect-recall information-state tensor ------------------------------

def _histories(game, state=None, depth=4):
    """Every state of a game down to `depth` moves, depth first."""
    state = state or game.new_initial_state()
    yield state
    if state.is_terminal() or depth == 0:
        return
    moves = ([a for a, _ in state.chance_outcomes()] if state.is_chance_node()
             else state.legal_actions())
    for action in moves:
        yield from _histories(game, state.child(action), depth - 1)


def test_the_recall_tensor_tells_apart_every_information_state():
    """In tic-tac-toe the present board leaves out the order of the marks;
    with `information_state_tensor=recall` two states have the same tensor
    for a player exactly when they have the same information state string
    (the moves in order), and its rows are the player's observation after
    each move so far."""
    present = openspiel.load_game(TIC_TAC_TOE)
    recall = openspiel.load_game(TIC_TAC_TOE, information_state_tensor="recall",
                                 max_game_length=9)
    width = present.observation_tensor_size()
    assert recall.information_state_tensor_shape() == [10, width]
    assert present.information_state_tensor_shape() == [width]
    for game, injective in ((recall, True), (present, False)):
        for player in (0, 1):
            tensors = {}
            clash = False
            for state in _histories(game):
                text = state.information_state_string(player)
                key = tuple(state.information_state_tensor(player))
                clash |= tensors.setdefault(key, text) != text
            assert clash is not injective


def test_the_recall_tensor_rows_are_the_observations_so_far():
    game = openspiel.load_game("kuhn-poker", information_state_tensor="recall",
                               max_game_length=8)
    width = game.observation_tensor_size()
    state = game.new_initial_state()
    rows = [state.observation_tensor(0)]
    for action in (0, 1, 0, 1):             # the deck dealt; P0 checks, P1 bets
        state.apply_action(action)
        rows.append(state.observation_tensor(0))
    tensor = np.asarray(state.information_state_tensor(0)).reshape(9, width)
    assert np.array_equal(tensor[:len(rows)], np.asarray(rows))
    assert not tensor[len(rows):].any()


def test_the_recall_tensor_survives_serializing_pickling_and_resampling():
    game = openspiel.load_game("hanamikoji", information_state_tensor="recall",
                               max_game_length=120)
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)
    state = game.new_initial_state()
    rng = random.Random(1)
    for _ in range(30):
        if state.is_chance_node():
            state.apply_action(rng.choice(state.chance_outcomes())[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    player = state.current_player()
    tensor = state.information_state_tensor(player)
    assert pickle.loads(pickle.dumps(state)).information_state_tensor(player) == tensor
    assert game.deserialize_state(state.serialize()).information_state_tensor(player) == tensor
    assert openspiel.resampler(2)(state, player).information_state_tensor(player) == tensor


def test_a_recall_tensor_too_large_is_refused():
    with pytest.raises(RulebookError, match="max_game_length"):
        openspiel.load_game("samurai", information_state_tensor="recall")
    with pytest.raises(RulebookError, match="present, recall"):
        openspiel.load_game("kalah", information_state_tensor="past")


def test_deep_cfr_learns_on_the_recall_tensor():
    """OpenSpiel's PyTorch Deep CFR, which reads information states as
    tensors, learns on the rulebook Kuhn poker: after 3 iterations its
    policy is less exploitable than playing at random (0.458)."""
    torch = pytest.importorskip("torch")
    pytest.importorskip("tree")
    deep_cfr = pytest.importorskip("open_spiel.python.pytorch.deep_cfr")
    from open_spiel.python import policy
    from open_spiel.python.algorithms import exploitability

    torch.manual_seed(0)
    torch.set_num_threads(1)
    game = openspiel.load_game("kuhn-poker", returns="score", utility="zero_sum",
                               min_utility=-2.0, max_utility=2.0,
                               information_state_tensor="recall", max_game_length=8)
    solver = deep_cfr.DeepCFRSolver(game, policy_network_layers=(16,),
                                    advantage_network_layers=(16,), num_iterations=3,
                                    num_traversals=16, learning_rate=1e-3,
                                    batch_size_advantage=None, batch_size_strategy=None,
                                    memory_capacity=int(1e6), seed=0)
    solver.solve()
    learned = policy.tabular_policy_from_callable(game, solver.action_probabilities)
    uniform = exploitability.exploitability(game, policy.UniformRandomPolicy(game))
    assert exploitability.exploitability(game, learned) < uniform - 0.05

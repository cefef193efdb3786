"""Chance nodes: a game started with `new_game(…, chance=True)` stops before
every draw of the rules, and `chance_outcomes` gives what can come next with
its exact probability (docs/api.md, "Chance nodes").

Kuhn poker's deal is two chance steps (3 cards, then 2); its whole tree of
chance outcomes and actions gives the known game value −1/18 under a Nash
equilibrium, and the expected payoff of a plain strategy agrees with seeded
games in normal mode. Hanamikoji plays to its end in chance mode, identical
cards merged into one outcome; every chance-mode state saves and loads, its
views tell nothing of a step under way. A game without `chance` is the game it always was.
"""

from __future__ import annotations

import json
import random
from fractions import Fraction
from pathlib import Path

import pytest

from interpreter import CHANCE, ChanceOutcome, load_rulebook
from interpreter.errors import (GameOver, IllegalAction, NotYourTurn, SaveError, UnknownAction)
from interpreter.runtime.information import sample_state

ROOT = Path(__file__).resolve().parent.parent

# a rulebook of its own: a shuffle with alike cards, draws inside a loop, two
# draws in one statement, a draw of one value, a loop that ends by chance, a
# shuffle of one card
STEPS = """\
game "Chance Steps"
players 2

component token
  | name | copies |
  | A    | 2      |
  | B    | 1      |

zone bag: token, hidden, ordered
zone out: token, public, ordered

variable total: number = 0
variable tries: number = 0
variable lucky: player = none

setup
  move all token to bag
  shuffle bag
  for each p in players
    let x = random([1, 1, 2])
    add x to total
  set total = total + random([10, 20]) + random([100])
  repeat until random([yes, no])
    add 1 to tries
  set lucky = random(players)
  deal 1 from bag to out
  shuffle out

phase play
  turn players[0]
    players[0] takes an action from stop

action stop
  end game

scoring
  score = total
"""


@pytest.fixture(scope="module")
def kuhn():
    return load_rulebook("kuhn-poker")


@pytest.fixture(scope="module")
def hanamikoji():
    return load_rulebook("hanamikoji")


@pytest.fixture(scope="module")
def steps(tmp_path_factory):
    path = tmp_path_factory.mktemp("chance") / "steps.rules"
    path.write_text(STEPS, encoding="utf-8")
    return load_rulebook(str(path))


def texts(game, state):
    return [(str(o), p) for o, p in game.chance_outcomes(state, exact=True)]


def taking(game, state, *wanted):
    """The state after the chance outcomes of the given texts, in turn."""
    for text in wanted:
        state = game.apply(state, game.parse_chance(state, text))
    return state


def round_trip(game, state):
    data = json.loads(json.dumps(game.state_to_json(state)))
    back = game.state_from_json(data)
    assert back == state
    assert game.to_move(back) == game.to_move(state)
    assert texts(game, back) == texts(game, state)
    return back


def play_by_chance(game, state, rng, check=None, limit=5000):
    """A game played to its end: chance outcomes drawn by their
    probabilities, players' actions uniformly; `check(state)` at each state."""
    for _ in range(limit):
        if check is not None:
            check(state)
        if game.outcome(state) is not None:
            return state
        if game.is_chance(state):
            outcomes = game.chance_outcomes(state)
            state = game.apply(state, rng.choices([o for o, _ in outcomes],
                                                  [p for _, p in outcomes])[0])
        else:
            player = game.to_move(state)[0]
            actions = game.legal_actions(state, player)
            state = game.apply(state, actions[rng.randrange(len(actions))])
    raise AssertionError("the game did not end")


# -- Kuhn poker -----------------------------------------------------------------

def own_card(game, state, player) -> str:
    zone = next(z for z in game.view(state, player)["zones"]
                if z["name"] == "hand" and z["owner"] == player)
    return zone["cards"][0]


def test_kuhn_deal_is_three_outcomes_then_two_then_the_players(kuhn):
    s = kuhn.new_game(players=2, seed=0, chance=True)
    assert kuhn.is_chance(s) and kuhn.to_move(s) == (CHANCE,) and CHANCE == -1
    assert texts(kuhn, s) == [("deck J", Fraction(1, 3)), ("deck Q", Fraction(1, 3)),
                              ("deck K", Fraction(1, 3))]
    assert [p for _, p in kuhn.chance_outcomes(s)] == [1 / 3] * 3      # floats by default
    assert kuhn.legal_actions(s, 0) == [] and kuhn.legal_actions(s, CHANCE) == []
    s = taking(kuhn, s, "deck K")
    assert texts(kuhn, s) == [("deck J", Fraction(1, 2)), ("deck Q", Fraction(1, 2))]
    s = taking(kuhn, s, "deck J")
    assert not kuhn.is_chance(s) and kuhn.to_move(s) == (0,)
    assert kuhn.chance_outcomes(s) == []
    # dealt as the deck's top cards are dealt: the first to P0, the next to P1
    assert own_card(kuhn, s, 0) == "K" and own_card(kuhn, s, 1) == "J"


# Kuhn poker's Nash equilibria for the first player, with alpha = 0, and the
# second player's (docs/games/kuhn-poker.md): the game's value is -1/18 for P0
THIRD = Fraction(1, 3)
NASH = {
    (0, "J", ()): {"check": 1}, (0, "J", ("check", "bet")): {"fold": 1},
    (0, "Q", ()): {"check": 1}, (0, "Q", ("check", "bet")): {"call": THIRD, "fold": 1 - THIRD},
    (0, "K", ()): {"check": 1}, (0, "K", ("check", "bet")): {"call": 1},
    (1, "J", ("check",)): {"bet": THIRD, "check": 1 - THIRD}, (1, "J", ("bet",)): {"fold": 1},
    (1, "Q", ("check",)): {"check": 1}, (1, "Q", ("bet",)): {"call": THIRD, "fold": 1 - THIRD},
    (1, "K", ("check",)): {"bet": 1}, (1, "K", ("bet",)): {"call": 1},
}


def plain(player, card, history):
    """Bet or call with the king, check or call with the queen, check or
    fold with the jack."""
    return {"K": {"bet": 1, "call": 1}, "Q": {"check": 1, "call": 1},
            "J": {"check": 1, "fold": 1}}[card]


def expectation(game, state, strategy, history=(), reach=Fraction(1)):
    """(P0's expected payoff, the probability of the terminals reached)
    over the whole tree below `state`, chance outcomes included."""
    out = game.outcome(state)
    if out is not None:
        return reach * out.scores[0], reach
    value = total = Fraction(0)
    if game.is_chance(state):
        branches = [(game.apply(state, o), history, p)
                    for o, p in game.chance_outcomes(state, exact=True)]
    else:
        player = game.to_move(state)[0]
        mixed = strategy(player, own_card(game, state, player), history)
        branches = [(game.apply(state, a), history + (a.name,), Fraction(mixed[a.name]))
                    for a in game.legal_actions(state, player) if mixed.get(a.name)]
    for after, seen, p in branches:
        v, t = expectation(game, after, strategy, seen, reach * p)
        value, total = value + v, total + t
    return value, total


def test_kuhn_tree_gives_the_game_value_under_a_nash_equilibrium(kuhn):
    value, reached = expectation(kuhn, kuhn.new_game(players=2, seed=3, chance=True),
                                 lambda p, card, h: NASH[(p, card, h)])
    assert reached == 1
    assert value == Fraction(-1, 18)


def test_kuhn_tree_agrees_with_seeded_games_in_normal_mode(kuhn):
    exact, reached = expectation(kuhn, kuhn.new_game(players=2, chance=True), plain)
    assert reached == 1
    games, won = 3000, 0
    for seed in range(games):
        s = kuhn.new_game(players=2, seed=seed)
        history: tuple = ()
        while kuhn.outcome(s) is None:
            player = kuhn.to_move(s)[0]
            mixed = plain(player, own_card(kuhn, s, player), history)
            action = next(a for a in kuhn.legal_actions(s, player) if mixed.get(a.name))
            history += (action.name,)
            s = kuhn.apply(s, action)
        won += kuhn.outcome(s).scores[0]
    assert abs(won / games - float(exact)) < 0.1        # about 3 standard errors


# -- Hanamikoji: a whole game, identical cards merged -------------------------------

def test_hanamikoji_plays_to_its_end_by_chance(hanamikoji):
    s = hanamikoji.new_game(players=2, seed=11, chance=True)
    assert texts(hanamikoji, s) == [("random P0", Fraction(1, 2)), ("random P1", Fraction(1, 2))]
    s = taking(hanamikoji, s, "random P1")
    # the shuffle's first card: 21 item cards, one outcome per geisha, as
    # likely as she has cards
    assert texts(hanamikoji, s) == [(f"deck G{k}", Fraction(n, 21))
                                    for k, n in enumerate([2, 2, 2, 3, 3, 4, 5], 1)]
    seen = {"nodes": 0}

    def check(state):
        if hanamikoji.is_chance(state):
            seen["nodes"] += 1
            outcomes = hanamikoji.chance_outcomes(state, exact=True)
            assert sum(p for _, p in outcomes) == 1
            assert len({str(o) for o, _ in outcomes}) == len(outcomes) > 1
            assert all(hanamikoji.legal_actions(state, p) == [] for p in (0, 1))
        round_trip(hanamikoji, state)

    end = play_by_chance(hanamikoji, s, random.Random(4), check)
    assert hanamikoji.outcome(end).winners
    assert seen["nodes"] >= 1 + 18       # the start player, then 18 cards or more placed a round


def test_a_chance_mode_game_is_a_game_of_the_rules(hanamikoji):
    """Its states are those of a game played in normal mode on the same cards:
    the deal arranged by chance plays on under the same rules."""
    s = hanamikoji.new_game(players=2, seed=2, chance=True)
    while hanamikoji.is_chance(s):
        s = hanamikoji.apply(s, hanamikoji.chance_outcomes(s)[-1][0])
    view = hanamikoji.view(s, 0)
    hand = next(z for z in view["zones"] if z["name"] == "hand" and z["owner"] == 0)
    # the top cards are the last outcomes listed while any were left: G7s first
    assert hand["cards"].count("G7") == 4
    assert view["pending"]["kind"] == "action" and view["to_move"] == [1]


# -- the machine's steps: draws in loops, in one statement, merged, at once --------

def test_draws_are_steps_of_their_values_merged(steps):
    s = steps.new_game(players=2, seed=5, chance=True)
    assert texts(steps, s) == [("bag A", Fraction(2, 3)), ("bag B", Fraction(1, 3))]
    s = taking(steps, s, "bag A")
    assert texts(steps, s) == [("bag A", Fraction(1, 2)), ("bag B", Fraction(1, 2))]
    s = taking(steps, s, "bag B")           # the last A goes at once
    # a draw inside a 'for each': one step per pass, equal values merged
    assert texts(steps, s) == [("random 1", Fraction(2, 3)), ("random 2", Fraction(1, 3))]
    s = taking(steps, s, "random 2", "random 1")
    # two draws in one statement: a step each (random([100]) is none)
    assert texts(steps, s) == [("random 10", Fraction(1, 2)), ("random 20", Fraction(1, 2))]
    s = taking(steps, s, "random 20")
    for _ in range(3):                      # 'repeat until' draws where its block ends
        assert texts(steps, s) == [("random yes", Fraction(1, 2)), ("random no", Fraction(1, 2))]
        s = taking(steps, s, "random no")
    s = taking(steps, s, "random yes", "random P1")
    assert steps.to_move(s) == (0,)         # a shuffle of one card is no step
    view = steps.view(s, None)
    assert view["variables"] == {"total": 2 + 1 + 20 + 100, "tries": 3, "lucky": "P1"}
    out = next(z for z in view["zones"] if z["name"] == "out")
    assert out["cards"] == ["A"]            # placed first: the top, dealt first


# -- the API around it -------------------------------------------------------------

def test_without_chance_nothing_changes(hanamikoji):
    for seed in range(3):
        plain_game = hanamikoji.new_game(players=2, seed=seed)
        assert plain_game == hanamikoji.new_game(players=2, seed=seed, chance=False)
        assert "chance" not in plain_game.to_data() and plain_game.chance is None
        assert not hanamikoji.is_chance(plain_game)
        assert hanamikoji.chance_outcomes(plain_game) == []


def test_outcome_texts_round_trip_and_wrong_ones_are_refused(kuhn):
    s = kuhn.new_game(players=2, seed=1, chance=True)
    for o, _ in kuhn.chance_outcomes(s):
        assert kuhn.parse_chance(s, f"  {str(o).upper()} ") == o
        assert isinstance(o, ChanceOutcome) and o.player == CHANCE and hash(o) == hash(
            ChanceOutcome(o.where, o.value))
    assert kuhn.parse_chance(s, "2") == ChanceOutcome("deck", "Q")
    for bad in ["deck A", "4", "0", "x" * 10_000, None]:
        with pytest.raises(UnknownAction):
            kuhn.parse_chance(s, bad)
    with pytest.raises(IllegalAction):
        kuhn.apply(s, ChanceOutcome("deck", "A"))
    with pytest.raises(NotYourTurn):
        kuhn.apply(s, kuhn.legal_actions(taking(kuhn, s, "deck J", "deck Q"), 0)[0])
    dealt = taking(kuhn, s, "deck J", "deck Q")
    with pytest.raises(NotYourTurn):
        kuhn.apply(dealt, ChanceOutcome("deck", "K"))
    with pytest.raises(NotYourTurn):
        kuhn.parse_chance(dealt, "deck K")
    assert kuhn.chance_outcomes(s) == kuhn.chance_outcomes(kuhn.new_game(2, seed=1, chance=True))


def test_advance_playout_and_log_take_chance_outcomes(kuhn):
    s = kuhn.new_game(players=2, seed=1, chance=True)
    scratch = s.copy()
    kuhn.advance(scratch, ChanceOutcome("deck", "Q"))
    assert scratch == kuhn.apply(s, ChanceOutcome("deck", "Q"))
    # a playout draws chance's outcomes with its own generator too
    ends = {kuhn.playout(s, random.Random(k)).to_data()["zones"][1][0] for k in range(30)}
    assert len(ends) == 3
    assert kuhn.playout(s, random.Random(7)) == kuhn.playout(s, random.Random(7))
    states, actions = [s], [ChanceOutcome("deck", "K"), ChanceOutcome("deck", "J")]
    for a in actions:
        states.append(kuhn.apply(states[-1], a))
    actions.append(kuhn.legal_actions(states[-1], 0)[0])
    states.append(kuhn.apply(states[-1], actions[-1]))
    assert kuhn.log(states, actions, 0) == ["deck ?", "deck ?", "check"]
    with pytest.raises(GameOver):
        end = kuhn.playout(s, random.Random(1))
        kuhn.apply(end, ChanceOutcome("deck", "K"))


def test_a_step_under_way_is_nobodys_to_see(hanamikoji):
    start = taking(hanamikoji, hanamikoji.new_game(players=2, seed=3, chance=True), "random P0")
    under_way = taking(hanamikoji, start, "deck G7", "deck G1", "deck G7")
    for viewer in (None, 0, 1):
        seen, before = hanamikoji.view(under_way, viewer), hanamikoji.view(start, viewer)
        assert seen == before
        assert seen["pending"] == {"players": [CHANCE], "kind": "chance", "label": "chance"}
        assert "G7 G1" not in json.dumps(seen)
        assert hanamikoji.observation(under_way, viewer) == hanamikoji.observation(start, viewer)
    # a sample of what a player knows waits for the same step, from its start
    sample = sample_state(hanamikoji, hanamikoji.view(under_way, 0)["info"], random.Random(1))
    assert hanamikoji.is_chance(sample)
    assert texts(hanamikoji, sample) == texts(hanamikoji, start)


# -- saves ---------------------------------------------------------------------------

def test_chance_mode_states_save_and_load(kuhn, steps):
    s = kuhn.new_game(players=2, seed=1, chance=True)
    for state in [s, taking(kuhn, s, "deck Q"), taking(kuhn, s, "deck Q", "deck K")]:
        back = round_trip(kuhn, state)
        assert back.to_data().get("chance") == state.to_data()["chance"]
    mid = taking(kuhn, s, "deck Q")
    assert kuhn.state_to_json(mid)["state"]["chance"] == {"draws": [[1]]}
    # a loaded chance node plays on as the one saved
    back = kuhn.state_from_json(kuhn.state_to_json(mid))
    assert taking(kuhn, back, "deck K") == taking(kuhn, mid, "deck K")
    t = steps.new_game(players=2, seed=1, chance=True)
    t = taking(steps, t, "bag B", "random 2")
    assert steps.state_to_json(t)["state"]["chance"] == {"draws": []}
    round_trip(steps, taking(steps, t, "random 1", "random 10", "random no"))


@pytest.mark.parametrize("change, field", [
    (lambda d: d.update(chance={"draws": [[7]]}), "state.chance.draws[0]"),
    (lambda d: d.update(chance={"draws": [[1, 1]]}), "state.chance"),
    (lambda d: d.update(chance={"draws": [[0, 1, 2]]}), "state.chance"),
    (lambda d: d.update(chance={"draws": [4]}), "state.chance"),
    (lambda d: d.update(chance={"draws": [], "next": 1}), "state.chance"),
    (lambda d: d.update(chance=[]), "state.chance"),
    (lambda d: d.pop("chance"), "state.pending"),
])
def test_a_damaged_chance_step_is_refused(kuhn, change, field):
    mid = taking(kuhn, kuhn.new_game(players=2, seed=1, chance=True), "deck Q")
    data = json.loads(json.dumps(kuhn.state_to_json(mid)))
    change(data["state"])
    with pytest.raises(SaveError) as info:
        kuhn.state_from_json(data)
    assert info.value.code == "save/corrupt" and field in info.value.message


def test_chance_waits_only_where_the_rules_draw(kuhn):
    dealt = taking(kuhn, kuhn.new_game(players=2, seed=1, chance=True), "deck Q", "deck K")
    data = json.loads(json.dumps(kuhn.state_to_json(dealt)))
    data["state"]["pending"] = [CHANCE]
    with pytest.raises(SaveError, match="state.chance"):
        kuhn.state_from_json(data)
    data["state"]["pending"] = [0]
    data["state"]["chance"] = {"draws": [[0]]}
    with pytest.raises(SaveError, match="state.chance.draws"):
        kuhn.state_from_json(data)

"""Known facts of Kuhn poker (rulebooks/kuhn-poker.rules), two players.

Every deal of the three cards (J < Q < K, one to each player, one unseen) is
arranged with `tests.scenario.arrange` and every betting sequence is played
on it by its actions' text, so each payoff below is checked on all six deals.
P0 acts first.
"""

from __future__ import annotations

import itertools
import random

import pytest

from interpreter import load_rulebook
from tests.references import reference, replay
from tests.scenario import arrange, check_consistent, do, names, texts_of, var

RANK = {"J": 1, "Q": 2, "K": 3}
DEALS = list(itertools.permutations("JQK"))          # P0's card, P1's card, the unseen card
# sequence -> (who folds or None, the stake each side loses: ante plus any bet called)
SEQUENCES = {
    ("check", "check"): (None, 1),
    ("check", "bet", "fold"): (0, 1),
    ("check", "bet", "call"): (None, 2),
    ("bet", "fold"): (1, 1),
    ("bet", "call"): (None, 2),
}


@pytest.fixture(scope="module")
def game():
    return load_rulebook("kuhn-poker")


def dealt(g, cards, seed=0):
    """A new game with P0, P1 and the deck holding `cards`."""
    s = g.new_game(players=2, seed=seed)
    s = arrange(g, s, {"hand(0)": [cards[0]], "hand(1)": [cards[1]], "deck": [cards[2]]})
    check_consistent(g, s)
    return s


def expected(cards, sequence):
    folder, stake = SEQUENCES[sequence]
    if folder is not None:
        winner = 1 - folder
    else:
        winner = 0 if RANK[cards[0]] > RANK[cards[1]] else 1
    return tuple(stake if p == winner else -stake for p in (0, 1))


def test_each_player_antes_one_chip_and_gets_one_card(game):
    """Setup: one card each, the third unseen in the deck; a chip each in the pot."""
    for seed in range(6):
        s = game.new_game(players=2, seed=seed)
        cards = names(game, s, "hand(0)") + names(game, s, "hand(1)") + names(game, s, "deck")
        assert sorted(cards) == ["J", "K", "Q"]
        assert var(game, s, "pot") == 2
        assert [var(game, s, "chips", p) for p in (0, 1)] == [-1, -1]
    assert len({tuple(names(game, game.new_game(players=2, seed=k), "hand(0)"))
                for k in range(20)}) == 3, "every card can be dealt to P0"


@pytest.mark.parametrize("sequence", list(SEQUENCES), ids=" ".join)
def test_every_betting_sequence_is_offered_in_turn_and_pays_as_the_rules_say(game, sequence):
    """Who acts and what they may do at each step, and the net chips at the
    end, on each of the six deals."""
    for cards in DEALS:
        s = dealt(game, cards)
        history = ()
        for move in sequence:
            bet_into = history[-1:] == ("bet",)
            assert game.to_move(s) == ((0 if len(history) != 1 else 1),)
            assert texts_of(game, s) == (["fold", "call"] if bet_into else ["check", "bet"])
            s = do(game, s, move)
            history += (move,)
        out = game.outcome(s)
        assert out is not None, f"{sequence} ends the hand"
        assert out.scores == expected(cards, sequence), (cards, sequence)
        assert sum(out.scores) == 0


def test_a_fold_gives_the_pot_to_the_other_player_whatever_the_cards(game):
    """Folding a king to a jack still loses: the folder's ante (and nothing more)."""
    s = do(game, dealt(game, ("J", "K", "Q")), "bet", "fold")
    assert game.outcome(s).scores == (1, -1) and game.outcome(s).winners == (0,)
    s = do(game, dealt(game, ("K", "J", "Q")), "check", "bet", "fold")
    assert game.outcome(s).scores == (-1, 1) and game.outcome(s).winners == (1,)


def test_at_the_showdown_the_higher_card_takes_the_pot(game):
    """The unseen card plays no part: Q beats J with K unseen, K beats Q with J unseen."""
    s = do(game, dealt(game, ("Q", "J", "K")), "check", "check")
    assert game.outcome(s).scores == (1, -1)
    s = do(game, dealt(game, ("Q", "K", "J")), "bet", "call")
    assert game.outcome(s).scores == (-2, 2)
    assert var(game, s, "pot") == 0


def test_the_higher_score_wins(game):
    for cards, sequence in itertools.product(DEALS, SEQUENCES):
        s = do(game, dealt(game, cards), *sequence)
        out = game.outcome(s)
        assert out.winners == (max((0, 1), key=lambda p: out.scores[p]),)
        assert out.ranking == tuple(sorted((0, 1), key=lambda p: -out.scores[p]))


def other_card_shown(g, s, viewer) -> bool:
    """Whether the viewer's view shows the other player's card or the unseen one."""
    for z in g.view(s, viewer)["zones"]:
        if z["name"] == "deck" or z["owner"] == 1 - viewer:
            if z["cards"] is not None or z.get("revealed"):
                return True
    return False


def test_a_player_never_sees_the_other_card_while_betting(game):
    """At every decision of every sequence, neither view shows the other's card
    or the unseen one; each shows its own."""
    for cards, sequence in itertools.product(DEALS, SEQUENCES):
        s = dealt(game, cards)
        for move in sequence:
            for viewer in (0, 1):
                assert not other_card_shown(game, s, viewer)
                own = next(z for z in game.view(s, viewer)["zones"] if z["owner"] == viewer)
                assert own["cards"] == [cards[viewer]]
            assert not game.view(s, None)["events"]
            s = do(game, s, move)


def test_after_a_fold_no_card_is_shown(game):
    for cards in DEALS:
        for sequence, told in ((("bet", "fold"), "P1 folds: P0 takes the pot of 3 chips"),
                               (("check", "bet", "fold"), "P0 folds: P1 takes the pot of 3 chips")):
            s = do(game, dealt(game, cards), *sequence)
            assert not other_card_shown(game, s, 0) and not other_card_shown(game, s, 1)
            assert game.view(s, None)["events"] == [{"event": "announce", "text": told}]


def test_at_the_showdown_both_cards_are_turned_over_but_not_the_unseen_one(game):
    s = do(game, dealt(game, ("K", "J", "Q")), "check", "bet", "call")
    events = game.view(s, None)["events"]
    shown = {e["zone"]: e["cards"] for e in events if e["event"] == "reveal"}
    assert shown == {"hand(P0)": ["K"], "hand(P1)": ["J"]}
    assert [e for e in events if e["event"] != "reveal"] == [
        {"event": "announce", "text": "Showdown, K beats J: P0 takes the pot of 4 chips"}]
    deck = next(z for z in game.view(s, 0)["zones"] if z["name"] == "deck")
    assert deck["cards"] is None and not deck.get("revealed")


def test_random_playouts_end_with_chips_that_balance(game):
    """Random games take two or three decisions and nobody wins or loses more than two."""
    for seed in range(30):
        s = game.new_game(players=2, seed=seed)
        rng = random.Random(seed)
        decisions = 0
        while game.outcome(s) is None:
            s = game.apply(s, rng.choice(game.legal_actions(s, game.to_move(s)[0])))
            decisions += 1
        assert decisions in (2, 3)
        scores = game.outcome(s).scores
        assert sum(scores) == 0 and sorted(scores) in ([-1, 1], [-2, 2])


def deal(g, s, ref):
    """The reference dealt the cards the rulebook dealt."""
    return ref.State([RANK[names(g, s, f"hand({p})")[0]] for p in (0, 1)])


def test_the_reference_plays_the_same_games():
    """tools/reference/kuhn_poker.py offers the same options at every decision
    and scores the same, over 40 seeded random games."""
    g, ref = load_rulebook("kuhn-poker"), reference("kuhn_poker")
    assert ref.PLAYERS == (2,)
    assert sum(replay(g, ref, 2, seed, deal) for seed in range(40)) >= 80

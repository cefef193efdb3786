"""Known facts of Hearts (rulebooks/hearts.rules), one hand for four players.

Facts about the deal and the pass are read from fresh games; facts about one
trick are played from states arranged with `tests.scenario`: seeded random
play up to a trick's lead, then the hands, the tricks already taken and the
broken-hearts flag set as the fact needs. Seats are counted from the
leader, whoever that is in the arranged game: `seat(g, s, k)` is k seats to the
leader's left. Cards are named as the rulebook names them: C2 is the two of
clubs, SQ the queen of spades, H10 the ten of hearts.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from interpreter import load_rulebook
from tests.references import reference, replay
from tests.scenario import (arrange, check_consistent, do, names, play, random_policy, set_var,
                            size, texts_of, var)

SUITS = "CDSH"
RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
DECK = [s + r for s in SUITS for r in RANKS]
HEARTS = [c for c in DECK if c.startswith("H")]
HANDS = [f"hand({p})" for p in range(4)]


@pytest.fixture(scope="module")
def game():
    return load_rulebook("hearts")


# -- reading and arranging a state ----------------------------------------------------

def hand(g, s, p) -> set:
    return set(names(g, s, f"hand({p})"))


def seat(g, s, k) -> int:
    """The player k seats to the left of the trick's leader."""
    return (var(g, s, "leader") + k) % 4


def after_passing(g, seed=0):
    """The first lead of a seeded game whose players passed their first options."""
    s = g.new_game(players=4, seed=seed)
    while s.round == 0:
        s = g.apply(s, g.legal_actions(s, g.to_move(s)[0])[0])
    return s


def leading(g, s) -> bool:
    return s.round >= 1 and all(size(g, s, f"played({p})") == 0 for p in range(4))


def at_lead(g, trick, seed=0):
    """A seeded random game at the lead of trick `trick` (1 … 13)."""
    s = play(g, g.new_game(players=4, seed=seed), random_policy(seed),
             until=lambda st: st.round == trick and leading(g, st))
    assert s.round == trick and leading(g, s)
    return s


def deal_trick(g, s, hands, taken=None, broken=False):
    """`s` with the hands of the leader and the seats to their left (`hands`,
    the leader's first), the taken piles of `taken` ({offset: cards}), every
    other card in the leader's taken pile, and the broken-hearts flag."""
    taken = dict(taken or {})
    spec = {f"hand({seat(g, s, k)})": list(cards) for k, cards in enumerate(hands)}
    used = Counter(c for cards in hands for c in cards) + Counter(c for cards in taken.values()
                                                                  for c in cards)
    assert all(n == 1 for n in used.values()), "a card is dealt twice"
    taken.setdefault(0, [])
    taken[0] = list(taken[0]) + [c for c in DECK if c not in used]
    spec.update({f"taken({seat(g, s, k)})": list(taken.get(k, [])) for k in range(4)})
    spec.update({f"played({p})": [] for p in range(4)})
    s = arrange(g, s, spec)
    check_consistent(g, s)
    return set_var(g, s, "hearts_broken", broken)


def plays(g, s) -> set:
    return {t.removeprefix("play ") for t in texts_of(g, s)}


# -- the deal ----------------------------------------------------------------------------

def test_the_whole_deck_is_dealt_thirteen_to_each(game):
    """52 distinct cards, 13 in each hand, none left in the deck."""
    s = game.new_game(players=4, seed=0)
    dealt = [names(game, s, z) for z in HANDS]
    assert [len(h) for h in dealt] == [13] * 4
    assert sorted(c for h in dealt for c in h) == sorted(DECK)
    assert size(game, s, "deck") == 0
    assert len({tuple(sorted(names(game, game.new_game(players=4, seed=k), "hand(0)")))
                for k in range(5)}) == 5, "seeds deal different hands"


def test_hands_are_hidden_from_the_others(game):
    """A player's view shows their own hand and only the size of the others'."""
    s = game.new_game(players=4, seed=1)
    for viewer in range(4):
        for z in game.view(s, viewer)["zones"]:
            if z["name"] == "hand":
                assert z["count"] == 13
                assert (z["cards"] is not None) == (z["owner"] == viewer)


# -- the pass ----------------------------------------------------------------------------

def test_everybody_passes_three_cards_at_once(game):
    """Passing is one simultaneous choice: all four are to move, each offered
    every three cards of their own hand (13 choose 3 = 286)."""
    s = game.new_game(players=4, seed=2)
    assert game.to_move(s) == (0, 1, 2, 3)
    for p in range(4):
        options = texts_of(game, s, p)
        assert len(options) == 286 == len(set(options))
        for text in options:
            name, *cards = text.split()
            assert name == "pass_left" and len(cards) == 3 and set(cards) <= hand(game, s, p)


def test_passing_moves_exactly_three_cards_to_the_left(game):
    """Each hand loses the three cards it passed and gains the three passed
    by the player on its right; nothing else changes."""
    s = game.new_game(players=4, seed=3)
    before = [hand(game, s, p) for p in range(4)]
    rng = random.Random(3)
    passed = {}
    while s.round == 0:
        p = game.to_move(s)[0]
        action = rng.choice(game.legal_actions(s, p))
        passed[p] = set(str(action).split()[1:])
        s = game.apply(s, action)
    for p in range(4):
        right = (p - 1) % 4
        assert hand(game, s, p) == (before[p] - passed[p]) | passed[right]
        assert len(hand(game, s, p)) == 13


def test_passed_cards_are_unseen_and_unusable_until_all_have_passed(game):
    """A pick shows to the others as 'pass_left ?'; it changes nothing they see,
    and the next player still chooses from their own hand only."""
    s = game.new_game(players=4, seed=4)
    views = {p: game.view(s, p) for p in (1, 2, 3)}
    options = texts_of(game, s, 1)
    pick = game.legal_actions(s, 0)[5]
    assert [pick.text_for(v) for v in (0, 1, 2, 3)] == [str(pick)] + ["pass_left ?"] * 3
    s = game.apply(s, pick)
    assert game.to_move(s) == (1, 2, 3)
    for p in (1, 2, 3):
        now = game.view(s, p)
        assert now["zones"] == views[p]["zones"]
        assert now["info"]["zones"] == views[p]["info"]["zones"]
    assert texts_of(game, s, 1) == options
    assert not set(str(pick).split()[1:]) & hand(game, s, 1)


# -- the tricks --------------------------------------------------------------------------

def test_the_two_of_clubs_leads_the_first_trick(game):
    """Whoever holds the two of clubs after the pass leads it, and may lead nothing else."""
    for seed in range(4):
        s = after_passing(game, seed)
        holder = next(p for p in range(4) if "C2" in hand(game, s, p))
        assert game.to_move(s) == (holder,)
        assert texts_of(game, s) == ["play C2"]


def test_the_two_of_clubs_leads_even_when_it_was_passed(game):
    """The leader is the holder after the pass: C2 passed by P0 makes P1 lead."""
    s = game.new_game(players=4, seed=5)
    holder = next(p for p in range(4) if "C2" in hand(game, s, p))
    others = sorted(hand(game, s, holder) - {"C2"}, key=DECK.index)
    s = do(game, s, *(f"pass_left C2 {others[0]} {others[1]}" if p == holder else
                      texts_of(game, s, p)[0] for p in range(4)))
    assert game.to_move(s) == ((holder + 1) % 4,)
    assert texts_of(game, s) == ["play C2"]


def test_players_must_follow_the_led_suit_if_able(game):
    """After a club lead, a player with clubs may play only clubs."""
    s = deal_trick(game, at_lead(game, 2), [["C5", "D2"], ["C9", "CK", "H2", "SA"],
                                            ["D4", "S3"], ["H7", "C3"]])
    s = do(game, s, "play C5")
    assert plays(game, s) == {"C9", "CK"}
    s = do(game, s, "play CK")
    assert plays(game, s) == {"D4", "S3"}, "without the suit, any card may be played"


def test_a_player_void_in_the_led_suit_may_discard_a_heart_before_hearts_are_broken(game):
    """Hearts may not be *led* unbroken; following with one when void is allowed."""
    s = deal_trick(game, at_lead(game, 2), [["D5", "S2"], ["H2", "HQ", "S4"],
                                            ["D9", "H3"], ["DK", "H4"]])
    s = do(game, s, "play D5")
    assert plays(game, s) == {"H2", "HQ", "S4"}


def test_a_heart_may_not_be_led_before_hearts_are_broken(game):
    """With hearts unbroken, the leader's hearts are not offered."""
    s = deal_trick(game, at_lead(game, 3), [["H2", "HK", "S3", "D4"], ["C5"], ["C6"], ["C7"]])
    assert plays(game, s) == {"S3", "D4"}


def test_a_leader_holding_only_hearts_may_lead_one(game):
    """The exception: a leader with nothing but hearts leads a heart, unbroken or not."""
    s = deal_trick(game, at_lead(game, 3), [["H2", "H9", "HK"], ["C5"], ["C6"], ["C7"]])
    assert plays(game, s) == {"H2", "H9", "HK"}


def test_a_heart_may_be_led_once_hearts_are_broken(game):
    s = deal_trick(game, at_lead(game, 3), [["H2", "HK", "S3"], ["C5"], ["C6"], ["C7"]],
                   broken=True)
    assert plays(game, s) == {"H2", "HK", "S3"}


def test_hearts_are_broken_by_a_heart_played_in_an_earlier_trick(game):
    """A heart discarded in this trick lets the next trick be led with a heart;
    the queen of spades does not break hearts."""
    s = deal_trick(game, at_lead(game, 2), [["CA", "H5", "D2"], ["C3", "D3", "D4"],
                                            ["SQ", "S5", "D5"], ["C4", "D6", "D7"]])
    s = do(game, s, "play CA", "play C3", "play SQ", "play C4")
    assert var(game, s, "hearts_broken") is False
    assert game.to_move(s) == (seat(game, s, 0),) and plays(game, s) == {"D2"}
    s = deal_trick(game, at_lead(game, 2), [["CA", "H5", "D2"], ["C3", "D3", "D4"],
                                            ["SQ", "S5", "D5"], ["H7", "D6", "D7"]])
    s = do(game, s, "play CA", "play C3", "play SQ", "play H7")
    assert var(game, s, "hearts_broken") is True
    assert game.to_move(s) == (seat(game, s, 0),) and plays(game, s) == {"H5", "D2"}


def test_the_highest_card_of_the_led_suit_wins_and_its_winner_leads_next(game):
    """A higher card of another suit does not win; the winner takes the four
    cards and leads the next trick."""
    s = deal_trick(game, at_lead(game, 2), [["D5", "C2"], ["DK", "C3"], ["SA", "C4"],
                                            ["D9", "C6"]])
    leader = seat(game, s, 0)
    winner = (leader + 1) % 4
    taken_before = size(game, s, f"taken({winner})")
    s = do(game, s, "play D5", "play DK", "play SA", "play D9")
    assert var(game, s, "leader") == winner
    assert game.to_move(s) == (winner,)
    assert size(game, s, f"taken({winner})") == taken_before + 4
    assert {"D5", "DK", "SA", "D9"} <= set(names(game, s, f"taken({winner})"))


# -- the count ---------------------------------------------------------------------------

def last_trick(g, cards, taken):
    """Plays the last trick of an arranged hand: `cards` are the last cards of
    the leader and the seats to their left, `taken` ({offset: cards}) the
    tricks they took before. The outcome, and the players by offset."""
    s = deal_trick(g, at_lead(g, 13), [[c] for c in cards], taken=taken, broken=True)
    order = [seat(g, s, k) for k in range(4)]
    s = do(g, s, *(f"play {c}" for c in cards))
    out = g.outcome(s)
    assert out is not None
    return out, order


def by_offset(out, order):
    return [out.scores[p] for p in order]


def test_a_heart_is_one_point_and_the_queen_of_spades_thirteen(game):
    """Points: 1 per heart taken, 13 for the queen of spades, the other cards
    nothing; the last trick's heart goes to its winner (C4, the highest club)."""
    out, order = last_trick(game, ["C2", "C3", "C4", "H2"],
                            {1: ["SQ", "H3", "H4"], 2: HEARTS[3:8], 3: HEARTS[8:]})
    assert by_offset(out, order) == [0, 13 + 2, 5 + 1, 5]


def test_shooting_the_moon_scores_zero_and_twenty_six_to_each_other(game):
    """One player took every heart and the queen of spades: 0 for them, 26 for each other."""
    out, order = last_trick(game, ["CA", "C3", "C4", "H2"], {0: ["SQ"] + HEARTS[1:]})
    assert by_offset(out, order) == [0, 26, 26, 26]
    assert out.winners == (order[0],)


def test_all_the_hearts_without_the_queen_of_spades_is_no_moon(game):
    """Thirteen hearts without the queen count 13 points like any others."""
    out, order = last_trick(game, ["CA", "C3", "C4", "H2"], {0: HEARTS[1:], 2: ["SQ"]})
    assert by_offset(out, order) == [13, 0, 13, 0]


def test_fewest_points_win(game):
    """The lowest score wins outright, and the ranking goes from the fewest
    points up ('lowest score wins')."""
    out, order = last_trick(game, ["C9", "C3", "C4", "C5"],
                            {0: HEARTS[:3], 1: ["SQ"] + HEARTS[3:8], 2: HEARTS[8:12],
                             3: HEARTS[12:]})
    assert by_offset(out, order) == [3, 18, 4, 1]
    assert out.winners == (order[3],)
    assert out.ranking == (order[3], order[0], order[2], order[1])
    assert out.lowest_wins and out.decided_by == "score"


def test_equal_lowest_share_the_win(game):
    """Two players on the same lowest score both win."""
    out, order = last_trick(game, ["C9", "C3", "C4", "C5"], {1: ["SQ"], 2: HEARTS})
    assert by_offset(out, order) == [0, 13, 13, 0]
    assert out.winners == tuple(sorted((order[0], order[3])))


# -- whole games -------------------------------------------------------------------------

def test_random_playouts_play_thirteen_tricks_and_count_26_points(game):
    """Random hands: 4 passes and 52 plays; every card ends in a taken pile
    (the tricks' four cards each), and the scores add up to 26, or 78 after a moon."""
    for seed in range(6):
        s = game.new_game(players=4, seed=seed)
        rng = random.Random(seed)
        decisions = 0
        while game.outcome(s) is None:
            s = game.apply(s, rng.choice(game.legal_actions(s, game.to_move(s)[0])))
            decisions += 1
        assert decisions == 56 and s.round == 13
        taken = [names(game, s, f"taken({p})") for p in range(4)]
        assert sorted(c for t in taken for c in t) == sorted(DECK)
        assert all(len(t) % 4 == 0 for t in taken)
        assert sum(game.outcome(s).scores) in (26, 78)


def deal(g, s, ref):
    """The reference dealt the hands the rulebook dealt."""
    return ref.State([[ref.NAMES.index(c) for c in names(g, s, z)] for z in HANDS])


def test_the_reference_plays_the_same_games():
    """tools/reference/hearts.py offers the same options at every decision and
    scores the same, over 20 seeded random games."""
    g, ref = load_rulebook("hearts"), reference("hearts")
    assert ref.PLAYERS == (4,) and ref.NAMES == tuple(DECK)
    assert sum(replay(g, ref, 4, seed, deal) for seed in range(20)) == 20 * 56

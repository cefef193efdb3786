"""Known facts of Festival of Lights, by rule ID of its specification.

Every rule ID of the spec (FL-S1…S4, FL-P1…P10, FL-E1…E6, FL-D1…D12) and
every worked example (FL-X1…X4) has at least one test naming it, and every
variant file in rulebooks/variants/ has a test that shows its effect.

Facts that hold at every step (tricks, hands, visibility, card counts) are
checked over recorded random playouts. Facts about one moment are played
from an arranged deal: `deal` gives the players the opening hands that let
a table of picks (one row per trick, one card per player) be played although
the hands pass left after every trick, then the test plays the rows and
answers the decisions the example describes.

Seats: the spec's P1 … PN are P0 … P(N-1) (FL-S1); in FL-X3, A B C are P0 P1 P2.
"""

from __future__ import annotations

import functools
import random
import re
import sys
from collections import Counter
from pathlib import Path

import pytest

from interpreter import load_rulebook
from tests.scenario import (arrange, check_consistent, do, names, permute_hidden,
                            texts_of, values_in)
from tests.spec_ids import spec, unnamed_rule_ids

ROOT = Path(__file__).resolve().parent.parent
VARIANTS = ROOT / "rulebooks" / "variants"
COLOURS = ("red", "green", "yellow", "blue", "purple", "pink")
SPECIALS = ("plug", "broken_bulb", "bubble_bulb", "character")
IN_THE_BOX = {"plug": 8, "broken_bulb": 5, "bubble_bulb": 6, "character": 6}   # FL §1
DEFAULTS = {"characters_distinct": False, "special_drops_out": False,
            "plug_before_drops": False, "broken_bulb_next_trick_only": False,
            "character_on_existing_pile": False, "bubble_assignment": "simultaneous",
            "bubble_scores_as_bulb": False, "full_set_all_six": False}
# variant file -> the switch it turns (FL-D2 … FL-D10)
VARIANT_FILES = {
    "characters-distinct": ("characters_distinct", True),
    "special-drops-out": ("special_drops_out", True),
    "plug-before-drops": ("plug_before_drops", True),
    "broken-bulb-next-trick": ("broken_bulb_next_trick_only", True),
    "character-on-existing-pile": ("character_on_existing_pile", True),
    "sequential-bubbles": ("bubble_assignment", "sequential"),
    "bubble-scores-as-bulb": ("bubble_scores_as_bulb", True),
    "full-set-all-six": ("full_set_all_six", True),
}


@functools.lru_cache(maxsize=None)
def rules(variant: str | None = None):
    """The base rulebook, or the variant file festival-of-lights-VARIANT.rules."""
    if variant is None:
        return load_rulebook("festival-of-lights")
    return load_rulebook(str(VARIANTS / f"festival-of-lights-{variant}.rules"))


@pytest.fixture(scope="module")
def game():
    return rules()


# -- reading a state -----------------------------------------------------------------

def cards(g, s, ref) -> Counter:
    return Counter(names(g, s, ref))


def everywhere(g, s) -> Counter:
    """How many cards of each kind are in any zone."""
    lay = g.program(s.n).lay
    return Counter(lay.display[c] for zone in s.zones for c in zone
                   if lay.type_of[c] == "light")


def piles(g, s, p) -> Counter:
    """Where the characters and bubble bulbs of p's table lie."""
    return Counter((card, pile) for card, pile in values_in(g, s, f"table({p})", "pile")
                   if card in ("character", "bubble_bulb"))


def deciding(g, s) -> set:
    """The names of the decisions open now."""
    return {a.name for p in g.to_move(s) for a in g.legal_actions(s, p)}


def answer(g, s, name, value, player=None):
    """Apply the decision `name` with the plain value `value` (yes/no) by the
    player to move (or `player`)."""
    player = g.to_move(s)[0] if player is None else player
    found = [a for a in g.legal_actions(s, player) if a.name == name and a.args == (value,)]
    assert len(found) == 1, texts_of(g, s, player)
    return g.apply(s, found[0])


# -- an arranged deal --------------------------------------------------------------------

def opening_hands(n, picks):
    """The hands to deal so that `picks` (a row per trick, a card per player)
    can be played: hands pass left after every trick (FL-P8), so the card P
    plays in trick t (from 0) comes from the opening hand of seat (P - t) mod n."""
    hands = [[] for _ in range(n)]
    for t, row in enumerate(picks):
        assert len(row) == n
        for p, card in enumerate(row):
            hands[(p - t) % n].append(card)
    return hands


def deal(g, n, picks, centre=("green", "purple", "pink"), patterns=None, seed=0):
    """A new game whose hands let `picks` be played, the centre holding
    `centre`, nothing removed in FL-S3, and (optionally) the pattern cards."""
    s = g.new_game(players=n, seed=seed)
    hands = opening_hands(n, picks)
    used = Counter(c for h in hands for c in h) + Counter(centre)
    spare = Counter({c: 7 for c in COLOURS}) - used
    for h in hands:                 # fill every hand to 9 with bulbs left over
        while len(h) < 9:
            colour = max(COLOURS, key=lambda c: spare[c])
            assert spare[colour] > 0, "not enough bulbs for this deal"
            spare[colour] -= 1
            h.append(colour)
    spec = {f"hand({p})": hands[p] for p in range(n)}
    spec.update({"centre": list(centre), "out_of_game": []})
    for p, pattern in enumerate(patterns or ()):
        spec[f"pattern_card({p})"] = [pattern]
    s = arrange(g, s, spec, keep=["box"], rest="deck")
    check_consistent(g, s)
    return s


def trick(g, s, *cards_):
    """Every player picks, in seat order (the picks are simultaneous)."""
    assert deciding(g, s) == {"pick"} and len(g.to_move(s)) == s.n == len(cards_)
    return do(g, s, *(f"pick {c}" for c in cards_))


def tricks(g, s, rows):
    for row in rows:
        s = trick(g, s, *row)
    return s


def quiet(n, count):
    """Rows in which every card drops (pairs of one colour): tables do not change."""
    pairs = ("yellow", "purple", "pink", "blue", "yellow", "purple", "pink", "blue")
    if n == 3:
        return [(c, c, c) for c in ("yellow", "yellow", "purple", "purple", "pink", "pink")][:count]
    return [(pairs[t], pairs[t], pairs[t + 1], pairs[t + 1]) for t in range(count)]


# -- recorded playouts ----------------------------------------------------------------

class Playout:
    def __init__(self, g, n, seed):
        self.g, self.n = g, n
        self.states = [g.new_game(players=n, seed=seed)]
        self.actions = []
        rng = random.Random(seed * 31 + n)
        while g.outcome(self.states[-1]) is None:
            s = self.states[-1]
            a = rng.choice(g.legal_actions(s, g.to_move(s)[0]))
            self.actions.append(a)
            self.states.append(g.apply(s, a))
            assert len(self.actions) < 500

    def steps(self):
        return zip(self.states, self.actions, self.states[1:])


@pytest.fixture(scope="module")
def playouts(game):
    return [Playout(game, n, seed) for n in (3, 4) for seed in range(6)]


# == FL §1 and setup =====================================================================

@pytest.mark.parametrize("n,specials,shuffled,left", [(3, 4, 58, 31), (4, 5, 62, 26)])
def test_FL_S2_components_by_player_count(game, n, specials, shuffled, left):
    """FL §1, FL-S2: 42 coloured bulbs (7 a colour) and N + 1 of each special are
    shuffled (58 / 62 cards); the rest of the box stays in the box; 9 cards each."""
    s = game.new_game(players=n, seed=3)
    in_play = everywhere(game, s) - cards(game, s, "box")
    assert in_play == Counter({**{c: 7 for c in COLOURS}, **{k: specials for k in SPECIALS}})
    assert sum(in_play.values()) == shuffled
    assert cards(game, s, "box") == Counter({k: IN_THE_BOX[k] - specials for k in SPECIALS
                                             if IN_THE_BOX[k] > specials})
    for p in range(n):
        assert len(names(game, s, f"hand({p})")) == 9
    rest = sum(len(names(game, s, z)) for z in ("deck", "centre", "out_of_game"))
    assert rest == left == shuffled - 9 * n


def test_FL_S2_the_deal_is_shuffled(game):
    """FL-S2: different seeds deal different hands."""
    hands = {tuple(names(game, game.new_game(players=4, seed=k), "hand(0)")) for k in range(6)}
    assert len(hands) > 1


def test_FL_S3_centre_gets_three_coloured_bulbs_specials_turned_up_leave(game):
    """FL-S3: cards are turned up until the centre holds 3 coloured bulbs; the
    specials turned up on the way are removed face up; the rest stays set aside."""
    removed_some = False
    for seed in range(40):
        for n in (3, 4):
            s = game.new_game(players=n, seed=seed)
            centre, out = cards(game, s, "centre"), cards(game, s, "out_of_game")
            assert sum(centre.values()) == 3 and set(centre) <= set(COLOURS)
            assert set(out) <= set(SPECIALS)
            removed_some |= bool(out)
            view = game.view(s, None)
            zone = next(z for z in view["zones"] if z["name"] == "out_of_game")
            assert zone["visibility"] == "public"
            assert sorted(zone["cards"]) == sorted(out.elements())
    assert removed_some


def test_FL_S4_one_pattern_card_each_face_up_rest_unused(game):
    """FL-S4: every player gets 1 pattern card face up; the other 18 - N stay
    face down and unused."""
    for n in (3, 4):
        s = game.new_game(players=n, seed=5)
        view = game.view(s, None)
        mine = [z for z in view["zones"] if z["name"] == "pattern_card"]
        assert [len(z["cards"]) for z in mine] == [1] * n
        rest = next(z for z in view["zones"] if z["name"] == "pattern_deck")
        assert rest["count"] == 18 - n and rest["cards"] is None


def test_FL_D12_pattern_cards_three_missing_each_colour(game):
    """FL-D12: 18 pattern cards, each showing all colours but one, 3 for each missing colour."""
    s = game.new_game(players=3, seed=0)
    lay = game.program(3).lay
    patterns = [c for c in range(lay.ncomponents) if lay.type_of[c] == "pattern"]
    missing = Counter(lay.display[lay.static["missing"][c]] for c in patterns)
    assert missing == Counter({c: 3 for c in COLOURS})
    assert Counter(lay.display[c] for c in patterns) == Counter({f"not_{c}": 3 for c in COLOURS})
    assert len(names(game, s, "pattern_deck")) == 15


def test_FL_S1_seats_are_the_player_numbers(playouts):
    """FL-S1: seats P1 … PN clockwise are P0 … P(N-1): the hands pass from each
    seat to the next (FL-P8), and every player decides in every trick."""
    for po in playouts:
        g = po.g
        for s, a, nxt in po.steps():
            if s.decisions and deciding(g, s) == {"pick"} and len(g.to_move(s)) == po.n:
                assert g.to_move(s) == tuple(range(po.n))


# == FL §3: play ========================================================================

def decision_pattern(po):
    """The decisions of a playout, one letter each: p pick, b broken bulb,
    c character, t plug (take or pass), e bubble bulbs; tricks separated by '|'."""
    letters = {"pick": "p", "use_broken_bulb": "b", "character_on": "c",
               "take_from_centre": "t", "pass": "t", "bubble_piles": "e"}
    out, last = [], 0
    for s, a, _ in po.steps():
        if a.name == "pick" and s.round != last:
            out.append("|")
            last = s.round
        out.append(letters[a.name])
    return "".join(out)


def test_FL_P1_eight_tricks_decisions_in_order(playouts):
    """FL-P1: 8 tricks; in each, the picks of every player, then the broken
    bulbs, then the characters, then the plugs; the bubble bulbs at the end."""
    for po in playouts:
        pattern = decision_pattern(po)
        n = po.n
        trick_ = rf"\|p{{{n}}}b*c*t*"
        assert re.fullmatch(rf"({trick_}){{8}}e*", pattern), pattern
        assert po.states[-1].round == 8


def test_FL_P2_picks_are_simultaneous_and_hidden(game):
    """FL-P2: every player picks at once; until all have picked nobody sees the
    others' card, then all are revealed together."""
    s = game.new_game(players=4, seed=2)
    assert game.to_move(s) == (0, 1, 2, 3)
    before = {v: game.view(s, v) for v in (1, 2, 3, None)}
    first = game.legal_actions(s, 0)[0]
    s1 = game.apply(s, first)
    assert game.to_move(s1) == (1, 2, 3)
    assert first.text_for(1) == "pick ?" and first.text_for(None) == "pick ?"
    for v in (1, 2, 3, None):
        after = game.view(s1, v)
        assert after["zones"] == before[v]["zones"]
    for p in (1, 2, 3):
        s1 = game.apply(s1, game.legal_actions(s1, p)[0])
    shown = [card for p in range(4) for z in ("revealed", "table", "under_pattern")
             for card in names(game, s1, f"{z}({p})")] + names(game, s1, "centre")
    assert len(shown) == 3 + 4          # the centre's 3 bulbs and the 4 picks, face up


def test_FL_P2_a_pick_cannot_be_changed(game):
    """FL-P2: a player who has picked cannot pick again; the state is unchanged."""
    from interpreter.errors import NotYourTurn
    s = game.new_game(players=3, seed=4)
    a, b = game.legal_actions(s, 1)[:2]
    s1 = game.apply(s, a)
    with pytest.raises(NotYourTurn):
        game.apply(s1, b)


def test_FL_P3_unique_cards_to_tables_matched_cards_drop(game):
    """FL-P3, FL-P5, FL-P6: a kind nobody else revealed is unique and goes to its
    owner's pile; every card of a shared kind drops to the centre."""
    s = deal(game, 4, [("red", "red", "blue", "green")])
    s = trick(game, s, "red", "red", "blue", "green")
    assert cards(game, s, "centre") == Counter(["green", "purple", "pink", "red", "red"])
    assert names(game, s, "table(0)") == names(game, s, "table(1)") == []
    assert names(game, s, "table(2)") == ["blue"] and names(game, s, "table(3)") == ["green"]


def test_FL_P4_broken_bulb_from_an_earlier_trick_protects(game):
    """FL-P4: a drop whose owner has an unused broken bulb from an earlier trick
    may be saved; the broken bulb leaves the game; the other cards of the kind
    stay drops. Two broken bulbs played together both drop: nobody holds one yet."""
    s = deal(game, 3, [("broken_bulb", "broken_bulb", "blue"), ("broken_bulb", "red", "red"),
                       ("red", "red", "green")])
    s = trick(game, s, "broken_bulb", "broken_bulb", "blue")     # both drop: no decision
    assert deciding(game, s) == {"pick"}
    assert cards(game, s, "centre")["broken_bulb"] == 2
    s = trick(game, s, "broken_bulb", "red", "red")             # the reds' owners have none
    assert deciding(game, s) == {"pick"}
    assert names(game, s, "table(0)") == ["broken_bulb"]
    s = trick(game, s, "red", "red", "green")
    assert game.to_move(s) == (0,) and deciding(game, s) == {"use_broken_bulb"}
    used = answer(game, s, "use_broken_bulb", True)
    assert cards(game, used, "table(0)") == Counter(["red"])
    assert cards(game, used, "out_of_game") == Counter(["broken_bulb"])
    assert cards(game, used, "centre")["red"] == 3              # P1's red and trick 2's
    kept = answer(game, s, "use_broken_bulb", False)
    assert cards(game, kept, "table(0)") == Counter(["broken_bulb"])
    assert cards(game, kept, "centre")["red"] == 4


def test_FL_P4_several_players_decide_at_once(game):
    """FL-P4: the players who may use a broken bulb decide simultaneously and
    hidden; both may save their card."""
    s = deal(game, 3, [("broken_bulb", "red", "blue"), ("green", "broken_bulb", "blue"),
                       ("red", "red", "yellow")])
    s = tricks(game, s, [("broken_bulb", "red", "blue"), ("green", "broken_bulb", "blue")])
    s = trick(game, s, "red", "red", "yellow")
    assert game.to_move(s) == (0, 1)
    first = next(a for a in game.legal_actions(s, 0) if a.args == (True,))
    assert first.text_for(1) == "use_broken_bulb ?"
    s = game.apply(s, first)
    assert game.to_move(s) == (1,)
    s = answer(game, s, "use_broken_bulb", True)
    assert cards(game, s, "table(0)")["red"] == 1 and cards(game, s, "table(1)")["red"] == 2
    assert cards(game, s, "out_of_game") == Counter({"broken_bulb": 2})


def test_FL_P6_where_unique_cards_go(game):
    """FL-P6: a bulb onto its pile, a broken bulb onto the table unused, a bubble
    bulb under the pattern card, a character onto any of the 6 piles (empty or
    not), a plug onto the table."""
    s = deal(game, 4, [("red", "broken_bulb", "bubble_bulb", "character")])
    s = trick(game, s, "red", "broken_bulb", "bubble_bulb", "character")
    assert game.to_move(s) == (3,)
    assert sorted(texts_of(game, s)) == sorted(f"character_on {c}" for c in COLOURS)
    s = do(game, s, "character_on yellow")
    assert names(game, s, "table(0)") == ["red"]
    assert names(game, s, "table(1)") == ["broken_bulb"]
    assert names(game, s, "table(2)") == []
    assert names(game, s, "under_pattern(2)") == ["bubble_bulb"]
    assert values_in(game, s, "table(3)", "pile") == [("character", "yellow")]


def test_FL_P7_plug_takes_a_bulb_or_bubble_from_the_centre_or_passes(game):
    """FL-P7, FL-D3 (default): a unique plug may take one coloured or bubble bulb
    from the centre; dropped plugs, characters and broken bulbs lie in the
    centre but cannot be taken; taken or not, the plug stays on the table."""
    s = deal(game, 3, [("plug", "plug", "bubble_bulb"), ("character", "character", "broken_bulb"),
                       ("broken_bulb", "broken_bulb", "plug")])
    s = tricks(game, s, [("plug", "plug", "bubble_bulb"),
                         ("character", "character", "broken_bulb")])
    assert cards(game, s, "centre") == Counter(["green", "purple", "pink", "plug", "plug",
                                                "character", "character"])
    s = trick(game, s, "broken_bulb", "broken_bulb", "plug")
    assert game.to_move(s) == (2,)
    assert sorted(texts_of(game, s)) == sorted(
        ["pass", "take_from_centre green", "take_from_centre purple", "take_from_centre pink"])
    passed = do(game, s, "pass")
    assert cards(game, passed, "table(2)") == Counter(["broken_bulb", "plug"])
    took = do(game, s, "take_from_centre purple")
    assert cards(game, took, "table(2)") == Counter(["broken_bulb", "plug", "purple"])
    assert "purple" not in cards(game, took, "centre")


def test_FL_P7_plug_takes_a_bubble_bulb_under_the_pattern(game):
    """FL-P7: a bubble bulb taken by a plug goes under the pattern card (FL-X2)."""
    s, _ = example_x2(game)
    assert names(game, s, "under_pattern(0)") == ["bubble_bulb"]


def test_FL_P7_S1_several_plugs_resolve_in_seat_order(game):
    """FL-P7, FL-S1: plugs saved by broken bulbs resolve one after another in seat
    order from P1 (P0 here): the first takes the only red."""
    s = deal(game, 3, [("broken_bulb", "blue", "green"), ("blue", "green", "broken_bulb"),
                       ("plug", "red", "plug")], centre=("red", "yellow", "yellow"))
    s = tricks(game, s, [("broken_bulb", "blue", "green"), ("blue", "green", "broken_bulb"),
                         ("plug", "red", "plug")])
    assert game.to_move(s) == (0, 2)
    s = answer(game, s, "use_broken_bulb", True, player=0)
    s = answer(game, s, "use_broken_bulb", True, player=2)
    assert game.to_move(s) == (0,)
    assert "take_from_centre red" in texts_of(game, s)
    s = do(game, s, "take_from_centre red")
    assert game.to_move(s) == (2,)
    assert sorted(texts_of(game, s)) == ["pass", "take_from_centre yellow"]


def test_FL_P8_hands_pass_left_after_tricks_one_to_seven(playouts):
    """FL-P8: after tricks 1-7 every remaining hand goes to the next seat, all at once."""
    for po in playouts:
        g, n = po.g, po.n
        starts = [s for s in po.states if deciding(g, s) == {"pick"} and len(g.to_move(s)) == n]
        for before, after in zip(starts, starts[1:]):
            for p in range(n):
                held = cards(g, after, f"hand({(p + 1) % n})")
                gone = cards(g, before, f"hand({p})") - held
                assert sum(gone.values()) == 1
                assert len(names(g, after, f"hand({p})")) == 9 - before.round


def test_FL_P9_last_card_discarded_face_down(playouts):
    """FL-P9: after trick 8 each player's last card is discarded face down."""
    for po in playouts:
        g, end = po.g, po.states[-1]
        for p in range(po.n):
            assert names(g, end, f"hand({p})") == []
        assert len(names(g, end, "discarded")) == po.n
        for viewer in list(range(po.n)) + [None]:
            zone = next(z for z in g.view(end, viewer)["zones"] if z["name"] == "discarded")
            assert zone["cards"] is None and zone["count"] == po.n


def test_FL_P10_who_sees_what(playouts):
    """FL-P10: a hand only by its holder; the deck, the unused pattern cards and
    the discarded cards by nobody; tables, bubble bulbs, pattern cards, the
    centre and the cards out of the game by everybody. Views do not change
    when the cards a viewer cannot see are shuffled."""
    public = {"box", "revealed", "table", "under_pattern", "centre", "out_of_game", "pattern_card"}
    hidden = {"deck", "discarded", "pattern_deck"}
    rng = random.Random(0)
    for po in playouts[:4]:
        g = po.g
        for s in po.states[::7]:
            for viewer in list(range(po.n)) + [None]:
                view = g.view(s, viewer)
                for z in view["zones"]:
                    if z["name"] in public:
                        assert z["cards"] is not None
                    elif z["name"] in hidden:
                        assert z["cards"] is None
                    else:
                        assert z["name"] == "hand"
                        assert (z["cards"] is not None) == (z["owner"] == viewer)
                assert g.view(permute_hidden(g, s, viewer, rng), viewer) == view


# == FL §4: end and scoring ===============================================================

def test_FL_E1_bubble_bulbs_assigned_simultaneously_and_hidden(playouts):
    """FL-E1, FL-D8 (default): every player with bubble bulbs names a pile for
    each, all at once; the choices stay hidden until all are made."""
    several = False
    for po in playouts:
        g = po.g
        for s, a, nxt in po.steps():
            if a.name != "bubble_piles":
                continue
            holders = tuple(p for p in range(po.n) if names(g, s, f"under_pattern({p})"))
            if len(g.to_move(s)) == len(holders):       # the first of the simultaneous choices
                assert g.to_move(s) == holders
                several |= len(holders) > 1
            assert len(a.args[0]) == len(names(g, s, f"under_pattern({a.player})"))
            assert all(a.text_for(v) == "bubble_piles ?" for v in range(po.n) if v != a.player)
        end = po.states[-1]
        for p in range(po.n):
            assert names(g, end, f"under_pattern({p})") == []
    assert several


def test_FL_E3_counts_before_the_check_tie_removes_both(game):
    """FL-E3, FL-D7: A and B each have 1 red bulb and a character on red (3 each):
    both tie for highest, so both piles go; the checks use the counts from
    before any pile is removed (else B's pile would stay)."""
    rows = [("character", "red", "blue"), ("red", "character", "green")] + quiet(3, 6)
    s = deal(game, 3, rows, centre=("green", "green", "blue"))
    s = trick(game, s, *rows[0])
    s = do(game, s, "character_on red")
    s = trick(game, s, *rows[1])
    s = do(game, s, "character_on red")
    end = tricks(game, s, rows[2:])
    out = game.outcome(end)
    assert names(game, end, "table(0)") == names(game, end, "table(1)") == []
    assert cards(game, end, "out_of_game") == Counter({"character": 2, "red": 2})
    assert cards(game, end, "table(2)") == Counter({"green": 3, "blue": 2})     # FL-E4
    assert out.scores == (0, 0, 5) and out.winners == (2,)


# == worked examples =======================================================================

def example_x1(g, use=True):
    """FL-X1 in trick 2 (P2's broken bulb is placed in trick 1). Returns the
    state before the broken-bulb decision and the one after the plug."""
    rows = [("purple", "broken_bulb", "yellow", "blue"), ("red", "red", "plug", "blue")]
    s = deal(g, 4, rows, centre=("green", "yellow", "pink"))
    s = trick(g, s, *rows[0])
    assert cards(g, s, "centre") == Counter(["green", "yellow", "pink"])
    s = trick(g, s, *rows[1])
    before = s
    assert g.to_move(s) == (1,)
    s = answer(g, s, "use_broken_bulb", use)
    assert g.to_move(s) == (2,)
    return before, s


def test_FL_X1_broken_bulb_and_plug(game):
    """FL-X1: reds drop; P2 (P1 here) uses the broken bulb, the red goes to
    their red pile; P1's red to the centre, P4's blue to P4's pile; P3 takes
    the centre red. Centre after: green, yellow, pink."""
    _, s = example_x1(game)
    assert cards(game, s, "centre")["red"] == 1
    s = do(game, s, "take_from_centre red")
    assert cards(game, s, "centre") == Counter(["green", "yellow", "pink"])
    assert cards(game, s, "table(1)") == Counter(["red"])
    assert cards(game, s, "out_of_game") == Counter(["broken_bulb"])
    assert cards(game, s, "table(0)") == Counter(["purple"])          # trick 1's card only
    assert cards(game, s, "table(2)") == Counter(["yellow", "plug", "red"])
    assert cards(game, s, "table(3)") == Counter(["blue", "blue"])
    assert deciding(game, s) == {"pick"}                               # on to trick 3


def test_FL_X1_without_the_broken_bulb(game):
    """FL-X1: had P2 not used it: centre red 2, P3 takes 1, centre red 1."""
    _, s = example_x1(game, use=False)
    assert cards(game, s, "centre")["red"] == 2
    s = do(game, s, "take_from_centre red")
    assert cards(game, s, "centre") == Counter(["green", "yellow", "pink", "red"])
    assert cards(game, s, "table(1)") == Counter(["broken_bulb"])


def example_x2(g):
    """FL-X2 in tricks 4 and 5 (tricks 1-3: every card unique). Returns the
    state after trick 5's plug and the centre before trick 4."""
    rows = [("red", "yellow", "blue"), ("yellow", "blue", "red"), ("blue", "red", "yellow"),
            ("bubble_bulb", "bubble_bulb", "character"), ("plug", "green", "green")]
    s = deal(g, 3, rows)
    s = tricks(g, s, rows[:3])
    centre = cards(g, s, "centre")
    s = trick(g, s, *rows[3])
    assert cards(g, s, "centre") - centre == Counter({"bubble_bulb": 2})
    assert g.to_move(s) == (2,)
    s = do(g, s, "character_on purple")
    assert ("character", "purple") in values_in(g, s, "table(2)", "pile")
    s = trick(g, s, *rows[4])
    assert g.to_move(s) == (0,)
    assert "take_from_centre bubble_bulb" in texts_of(g, s)
    s = do(g, s, "take_from_centre bubble_bulb")
    return s, centre


def test_FL_X2_duplicate_specials(game):
    """FL-X2: both bubble bulbs drop; P3 puts the character on purple; both
    greens drop; P1 takes a bubble bulb; centre gained bubble 1, green 2."""
    s, centre = example_x2(game)
    assert cards(game, s, "centre") - centre == Counter({"bubble_bulb": 1, "green": 2})
    assert "plug" in names(game, s, "table(0)")
    assert names(game, s, "under_pattern(0)") == ["bubble_bulb"]


X3_PICKS = [("red", "red", "green"), ("blue", "blue", "green"), ("red", "yellow", "blue"),
            ("character", "red", "yellow"), ("green", "red", "purple"), ("blue", "red", "pink"),
            ("bubble_bulb", "purple", "pink"), ("plug", "broken_bulb", "character")]


def example_x3(g):
    """FL-X3 played from the deal to the bubble-bulb decision (FL-E1)."""
    s = deal(g, 3, X3_PICKS, centre=("green", "purple", "pink"),
             patterns=("not_pink", "not_red", "not_red"))
    for t, row in enumerate(X3_PICKS):
        s = trick(g, s, *row)
        if t == 3:
            s = do(g, s, "character_on red")            # A
        if t == 7:
            s = do(g, s, "character_on pink")           # C
            s = do(g, s, "take_from_centre blue")       # A's plug
    return s


def test_FL_X3_tables_after_trick_eight(game):
    """FL-X3: the tables and the centre after trick 8 are those of the example."""
    s = example_x3(game)
    assert cards(game, s, "table(0)") == Counter({"red": 1, "character": 1, "green": 1, "blue": 2,
                                                  "plug": 1})
    assert piles(game, s, 0) == Counter({("character", "red"): 1})
    assert names(game, s, "under_pattern(0)") == ["bubble_bulb"]
    assert cards(game, s, "table(1)") == Counter({"red": 3, "yellow": 1, "purple": 1,
                                                  "broken_bulb": 1})
    assert cards(game, s, "table(2)") == Counter({"green": 2, "yellow": 1, "blue": 1, "purple": 1,
                                                  "pink": 2, "character": 1})
    assert piles(game, s, 2) == Counter({("character", "pink"): 1})
    assert cards(game, s, "centre") == Counter({"red": 2, "green": 1, "blue": 1, "purple": 1,
                                                "pink": 1})
    assert sum(len(names(game, s, z)) for z in ("table(0)", "table(1)", "table(2)",
                                                "under_pattern(0)", "centre")) == 27
    assert game.to_move(s) == (0,) and deciding(game, s) == {"bubble_piles"}


def test_FL_X3_E1_to_E5_scores(game):
    """FL-X3, FL-E1 … FL-E5, FL-D7: A puts the bubble on yellow; A's red pile is
    removed (3 vs 3); B takes 2 reds, C 1 green, A 1 blue, C 1 pink; purple tie
    stays. Scores A 10 (6 cards), B 11 (8), C 18 (10): C wins."""
    end = do(game, example_x3(game), "bubble_piles yellow")
    out = game.outcome(end)
    assert out.scores == (10, 11, 18) and out.winners == (2,)
    assert cards(game, end, "table(0)") == Counter({"green": 1, "blue": 3, "bubble_bulb": 1,
                                                    "plug": 1})
    assert piles(game, end, 0) == Counter({("bubble_bulb", "yellow"): 1})
    assert cards(game, end, "table(1)") == Counter({"red": 5, "yellow": 1, "purple": 1,
                                                    "broken_bulb": 1})
    assert cards(game, end, "table(2)") == Counter({"green": 3, "yellow": 1, "blue": 1,
                                                    "purple": 1, "pink": 3, "character": 1})
    assert cards(game, end, "centre") == Counter({"purple": 1})
    assert cards(game, end, "out_of_game") == Counter({"red": 1, "character": 1})
    assert [len(names(game, end, f"table({p})")) for p in range(3)] == [6, 8, 10]


def test_FL_X3_bubble_on_red_keeps_the_character(game):
    """FL-X3: had A put the bubble bulb on red: 4 > 3, kept, A takes both centre
    reds: A 15, B 9, C 18."""
    end = do(game, example_x3(game), "bubble_piles red")
    out = game.outcome(end)
    assert out.scores == (15, 9, 18) and out.winners == (2,)
    assert cards(game, end, "table(0)")["red"] == 3
    assert len(names(game, end, "table(0)")) == 10


def test_FL_X3_D10_full_set_all_six(game):
    """FL-X3 with FL-D10's variant file: C has no red, so no +5: C 13, still wins."""
    g = rules("full-set-all-six")
    out = g.outcome(do(g, example_x3(g), "bubble_piles yellow"))
    assert out.scores == (10, 11, 13) and out.winners == (2,)


def test_FL_X3_D9_bubble_scores_as_bulb(game):
    """FL-X3 with FL-D9's variant file: A's bubble bulb scores 1: A 9."""
    g = rules("bubble-scores-as-bulb")
    out = g.outcome(do(g, example_x3(g), "bubble_piles yellow"))
    assert out.scores == (9, 11, 18) and out.winners == (2,)


def test_FL_D9_default_bubble_bulb_is_a_special_card(game):
    """FL-D9 (default), FL-E5: a bubble bulb scores 2 like every special card."""
    out = game.outcome(do(game, example_x3(game), "bubble_piles yellow"))
    assert out.scores[0] == 10


def x4_end(g, p0_table):
    """FL-X4: P1 (P0 here) and P2 (P1) both score 14; P2 has 8 table cards.
    Played from trick 8 with every card of the last trick unique."""
    first, last = ("red", "yellow", "green"), ("blue", "pink", "red")
    s = deal(g, 3, [first] + quiet(3, 6) + [last], centre=("green", "green", "green"))
    s = tricks(g, s, [first] + quiet(3, 6))          # tricks 2-7 drop every card
    assert s.round == 8                               # at the picks of trick 8
    s = arrange(g, s, {"table(0)": p0_table,
                       "table(1)": ["yellow", "yellow", "purple", "broken_bulb", "broken_bulb",
                                    "broken_bulb", "plug"],
                       "table(2)": [], "centre": []},
                keep=["box", "hand(0)", "hand(1)", "hand(2)"], rest="out_of_game")
    return trick(g, s, *last)


def test_FL_X4_tie_break_fewest_table_cards(game):
    """FL-X4, FL-E6, FL-D11: 14 each; P1 has 9 table cards, P2 8: P2 wins."""
    end = x4_end(game, ["red", "red", "green", "green", "blue", "plug", "plug", "plug"])
    out = game.outcome(end)
    assert out.scores[:2] == (14, 14)
    assert [len(names(game, end, f"table({p})")) for p in (0, 1)] == [9, 8]
    assert out.winners == (1,) and out.ranking[:2] == (1, 0)


def test_FL_X4_same_cards_shared_victory(game):
    """FL-X4, FL-E6: 14 and 8 table cards each: both win."""
    end = x4_end(game, ["red", "green", "blue", "plug", "plug", "plug", "broken_bulb"])
    out = game.outcome(end)
    assert out.scores[:2] == (14, 14)
    assert [len(names(game, end, f"table({p})")) for p in (0, 1)] == [8, 8]
    assert out.winners == (0, 1)


# == FL §5: decisions and their variant files =================================================

def test_FL_D1_one_hand_of_eight_tricks_then_the_end(playouts):
    """FL-D1: the game is one hand of 8 tricks; the end runs once; the set-aside
    deck is never used."""
    for po in playouts:
        g = po.g
        deck = names(g, po.states[0], "deck")
        assert all(names(g, s, "deck") == deck for s in po.states)
        assert max(s.round for s in po.states) == 8
        assert sum(1 for a in po.actions if a.name == "pick") == 8 * po.n


def test_FL_D2_kinds_characters_match_bubbles_never_match_bulbs(game):
    """FL-D2: two characters match each other; a bubble bulb does not match a
    coloured bulb."""
    s = deal(game, 3, [("character", "character", "bubble_bulb"), ("bubble_bulb", "red", "red")])
    s = trick(game, s, "character", "character", "bubble_bulb")
    assert cards(game, s, "centre")["character"] == 2
    assert names(game, s, "under_pattern(2)") == ["bubble_bulb"]
    s = trick(game, s, "bubble_bulb", "red", "red")
    assert names(game, s, "under_pattern(0)") == ["bubble_bulb"]


def test_FL_D2_variant_characters_distinct(game):
    """FL-D2 variant file: two characters never match; both owners choose a pile, at once."""
    g = rules("characters-distinct")
    s = deal(g, 3, [("character", "character", "red")])
    s = trick(g, s, "character", "character", "red")
    assert g.to_move(s) == (0, 1) and deciding(g, s) == {"character_on"}
    s = do(g, s, "character_on blue", "character_on red")
    assert piles(g, s, 0) == Counter({("character", "blue"): 1})
    assert piles(g, s, 1) == Counter({("character", "red"): 1})
    assert "character" not in cards(g, s, "centre")


def special_drops(g):
    s = deal(g, 3, [("plug", "plug", "red"), ("character", "character", "red"),
                    ("broken_bulb", "broken_bulb", "red"), ("bubble_bulb", "bubble_bulb", "red")])
    return tricks(g, s, [("plug", "plug", "red"), ("character", "character", "red"),
                         ("broken_bulb", "broken_bulb", "red"),
                         ("bubble_bulb", "bubble_bulb", "red")])


def test_FL_D3_dropped_specials_go_to_the_centre(game):
    """FL-D3 (default), FL-P5: dropped plugs and characters lie in the centre, inert."""
    s = special_drops(game)
    assert cards(game, s, "centre") - Counter(["green", "purple", "pink"]) == \
        Counter({k: 2 for k in SPECIALS})
    assert names(game, s, "out_of_game") == []


def test_FL_D3_variant_special_drops_out(game):
    """FL-D3 variant file: dropped plugs and characters leave the game; dropped
    broken and bubble bulbs still go to the centre."""
    g = rules("special-drops-out")
    s = special_drops(g)
    assert cards(g, s, "out_of_game") == Counter({"plug": 2, "character": 2})
    assert cards(g, s, "centre") - Counter(["green", "purple", "pink"]) == \
        Counter({"broken_bulb": 2, "bubble_bulb": 2})


def test_FL_D4_plug_takes_this_tricks_drops(game):
    """FL-D4 (default): the plug resolves after this trick's drops (FL-X1's red)."""
    _, s = example_x1(game)
    assert "take_from_centre red" in texts_of(game, s)


def test_FL_D4_variant_plug_before_drops(game):
    """FL-D4 variant file: this trick's drops are not yet in the centre for the plug."""
    g = rules("plug-before-drops")
    _, s = example_x1(g, use=False)
    assert sorted(texts_of(g, s)) == ["pass", "take_from_centre green", "take_from_centre pink",
                                      "take_from_centre yellow"]
    s = do(g, s, "take_from_centre green")
    assert cards(g, s, "centre") == Counter({"red": 2, "yellow": 1, "pink": 1})


def broken_bulb_later(g):
    """A broken bulb placed in trick 1; P0's card drops in trick 2 and in trick 3."""
    rows = [("broken_bulb", "red", "blue"), ("yellow", "yellow", "blue"),
            ("green", "green", "blue")]
    s = deal(g, 3, rows)
    s = trick(g, s, *rows[0])
    s = trick(g, s, *rows[1])
    trick2 = s
    s = answer(g, s, "use_broken_bulb", False)
    return trick2, trick(g, s, *rows[2])


def test_FL_D5_broken_bulb_protects_in_any_later_trick(game):
    """FL-D5 (default): the broken bulb of trick 1 may still be used in trick 3."""
    trick2, trick3 = broken_bulb_later(game)
    assert deciding(game, trick2) == deciding(game, trick3) == {"use_broken_bulb"}


def test_FL_D5_variant_next_trick_only(game):
    """FL-D5 variant file: only in the trick after it was placed."""
    g = rules("broken-bulb-next-trick")
    trick2, trick3 = broken_bulb_later(g)
    assert deciding(g, trick2) == {"use_broken_bulb"}
    assert deciding(g, trick3) == {"pick"}
    assert names(g, trick3, "table(0)") == ["broken_bulb"]       # unused, it still scores


def character_second(g):
    s = deal(g, 3, [("red", "blue", "green"), ("character", "yellow", "pink")])
    s = trick(g, s, "red", "blue", "green")
    return trick(g, s, "character", "yellow", "pink")


def test_FL_D6_character_on_any_pile(game):
    """FL-D6 (default): a character may go on any of the 6 colours, empty or not."""
    s = character_second(game)
    assert sorted(texts_of(game, s)) == sorted(f"character_on {c}" for c in COLOURS)


def test_FL_D6_variant_character_on_existing_pile(game):
    """FL-D6 variant file: a pile that holds a card, if the player has one; any
    pile for a player whose table has no pile."""
    g = rules("character-on-existing-pile")
    s = character_second(g)
    assert texts_of(g, s) == ["character_on red"]
    s = deal(g, 3, [("character", "yellow", "pink")])
    s = trick(g, s, "character", "yellow", "pink")
    assert sorted(texts_of(g, s)) == sorted(f"character_on {c}" for c in COLOURS)


def test_FL_E2_D7_character_counts_two_scores_two_once(game):
    """FL-E2, FL-D7: a character counts 2 in its colour (check, collection, presence)
    and scores 2 points once: C's character makes pink 4 and scores 2 (FL-X3)."""
    end = do(game, example_x3(game), "bubble_piles yellow")
    assert cards(game, end, "table(2)")["pink"] == 3                # took the centre pink
    assert game.outcome(end).scores[2] == 9 + 2 + 2 + 5


def two_bubble_holders(g):
    rows = [("bubble_bulb", "red", "blue"), ("red", "bubble_bulb", "green")] + quiet(3, 6)
    s = deal(g, 3, rows, centre=("green", "green", "blue"))
    return tricks(g, s, rows)


def test_FL_D8_bubbles_default_simultaneous(game):
    """FL-D8 (default), FL-E1: both holders choose at once."""
    s = two_bubble_holders(game)
    assert game.to_move(s) == (0, 1) and deciding(game, s) == {"bubble_piles"}
    s = do(game, s, "bubble_piles red", "bubble_piles green")
    assert piles(game, s, 0) == Counter({("bubble_bulb", "red"): 1})
    assert piles(game, s, 1) == Counter({("bubble_bulb", "green"): 1})


def test_FL_D8_variant_sequential_bubbles(game):
    """FL-D8 variant file: the holders choose one after another, in seat order, in the open."""
    g = rules("sequential-bubbles")
    s = two_bubble_holders(g)
    assert g.to_move(s) == (0,)
    first = next(a for a in g.legal_actions(s, 0) if str(a) == "bubble_piles red")
    assert first.text_for(1) == "bubble_piles red"
    s = g.apply(s, first)
    assert g.to_move(s) == (1,)
    assert piles(g, s, 0) == Counter({("bubble_bulb", "red"): 1})


def test_FL_D10_default_pattern_colours(game):
    """FL-D10 (default), FL-E5: +5 when every colour of one's pattern card is
    present: C (pattern without red, no red) gets it in FL-X3."""
    end = do(game, example_x3(game), "bubble_piles yellow")
    assert game.outcome(end).scores[2] == 18


def test_FL_D11_tie_break_counts_table_cards_not_the_pattern(game):
    """FL-D11: the tie-break counts table cards (bulbs and specials), not the
    pattern card and not the hands (empty at the end)."""
    end = x4_end(game, ["red", "red", "green", "green", "blue", "plug", "plug", "plug"])
    assert names(game, end, "pattern_card(0)") and names(game, end, "hand(0)") == []
    assert game.outcome(end).winners == (1,)


def test_FL_E4_centre_collection_tie_nobody(game):
    """FL-E4: the single leader of a colour takes its centre bulbs; on a tie
    they stay; other centre cards stay and never score (FL-X3's purple)."""
    end = do(game, example_x3(game), "bubble_piles yellow")
    assert cards(game, end, "centre") == Counter({"purple": 1})


def test_FL_E5_scoring_parts(game):
    """FL-E5: 1 a bulb, 2 a special card, +2 for 3 colours, +5 for the pattern
    (B in FL-X3: 7 + 2 + 2 = 11, pattern without red misses green, blue, pink)."""
    end = do(game, example_x3(game), "bubble_piles yellow")
    assert game.outcome(end).scores[1] == 7 + 2 + 2


# == variant files =============================================================================

@pytest.mark.parametrize("name", sorted(VARIANT_FILES))
def test_variant_file_turns_exactly_its_switch(name):
    """Each variant file is the base with one switch of FL §5 turned."""
    option, value = VARIANT_FILES[name]
    g = rules(name)
    assert g.options == {**DEFAULTS, option: value}
    assert g.name.startswith("Festival of Lights (") and (g.min_players, g.max_players) == (3, 4)


def test_every_variant_file_is_listed():
    shipped = {p.name[len("festival-of-lights-"):-len(".rules")]
               for p in VARIANTS.glob("festival-of-lights-*.rules")}
    assert shipped == set(VARIANT_FILES)


def test_every_switch_is_an_option(game):
    """FL-D2 … FL-D10: every decision with a variant is an option of the base."""
    assert game.options == DEFAULTS
    g = load_rulebook("festival-of-lights", options={"bubble_assignment": "sequential"})
    assert g.options["bubble_assignment"] == "sequential"


# == whole games ===========================================================================

def test_cards_are_conserved_and_counts_hold(playouts):
    """Every card is in exactly one zone all game; each colour has 7 cards;
    the tables hold at most 8 picks plus what plugs and the centre gave."""
    for po in playouts:
        g = po.g
        for s in po.states:
            check_consistent(g, s)
            total = everywhere(g, s)
            assert all(total[c] == 7 for c in COLOURS)
            assert all(total[k] == IN_THE_BOX[k] for k in SPECIALS)


def test_scores_are_the_sum_of_their_parts(playouts):
    """FL-E5 recomputed in Python from the end state of every playout."""
    for po in playouts:
        g, end = po.g, po.states[-1]
        for p in range(po.n):
            table = values_in(g, end, f"table({p})", "pile")
            count = Counter()
            for card, pile in table:
                if card in COLOURS:
                    count[card] += 1
                elif pile is not None:
                    count[pile] += 2 if card == "character" else 1
            present = {c for c in COLOURS if count[c] >= 1}
            pattern = names(g, end, f"pattern_card({p})")[0]
            need = set(COLOURS) - {pattern[len("not_"):]}
            score = sum(1 if card in COLOURS else 2 for card, _ in table) + \
                (2 if len(present) >= 3 else 0) + (5 if need <= present else 0)
            assert g.outcome(end).scores[p] == score, (p, table, pattern)


# == the spec and this file ===================================================================

def test_every_rule_id_of_the_spec_is_named_by_a_test():
    """Promise 8: every rule ID and worked example of the spec is named by a
    test of this file (its name, a parameter id or its docstring)."""
    assert unnamed_rule_ids(spec("festival-of-lights"), "FL", sys.modules[__name__]) == []

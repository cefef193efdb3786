"""Known facts of Hanamikoji, by rule ID of its specification.

Every rule ID of the spec (HK-S1…S7, HK-P1…P9, HK-E1…E6, HK-D1…D5) and every
worked example (HK-X1…X4) has at least one test naming it. Facts that hold at
every step (turn order, draws, card counts, visibility) are checked over
recorded random playouts; facts about one moment are checked on states
arranged with `tests.scenario`: play seeded moves to the moment, set the
cards and markers the example describes, take the last decision and compare
markers, charm, geisha counts and winners with the spec's numbers.

Seats: with ``first_player: P0`` player A of the examples is P0.
"""

from __future__ import annotations

import itertools
import random
import sys
from collections import Counter

import pytest

from interpreter import load_rulebook
from interpreter.errors import ActionError, OptionError, SaveError
from tests.scenario import (arrange, check_consistent, counts_by, do, names, permute_hidden,
                            play, prefer, random_policy, set_value, size, texts_of, value_of,
                            var, zone_index)
from tests.spec_ids import spec, unnamed_rule_ids

GEISHA = ("G1", "G2", "G3", "G4", "G5", "G6", "G7")
CHARM = dict(zip(GEISHA, (2, 2, 2, 3, 3, 4, 5)))
CARDS_USED = {"secret": 1, "trade_off": 2, "gift": 3, "competition": 4}
ZONES = ("deck", "removed", "hand(0)", "hand(1)", "secret(0)", "secret(1)",
         "trade_off(0)", "trade_off(1)", "offered", "side(0)", "side(1)")
HIDDEN_FROM_OTHERS = ("hand", "secret", "trade_off")
SEEDS = range(8)


@pytest.fixture(scope="module")
def game():
    return load_rulebook("hanamikoji", options={"first_player": "P0"})


@pytest.fixture(scope="module")
def random_start():
    return load_rulebook("hanamikoji")


# -- reading a state -----------------------------------------------------------------

def decider(g, s):
    return g.to_move(s)[0]


def kind(g, s):
    """'action' at a turn's action, 'take' at the opponent's decision, None at the end."""
    if g.outcome(s) is not None:
        return None
    choices = {a.name for a in g.legal_actions(s, decider(g, s))}
    return "action" if choices <= set(CARDS_USED) else "/".join(sorted(choices))


def used(g, s) -> dict:
    """The actions each player has used this round (face-down markers), as the
    public view shows them."""
    shown = g.view(s, None)["used"]
    return {p: {a for a, k in shown[f"P{p}"].items() if k} for p in (0, 1)}


def sides(g, s):
    return tuple(counts_by(g, s, f"side({p})", "geisha", GEISHA) for p in (0, 1))


def markers(g, s):
    return tuple(value_of(g, s, "favour", x) for x in GEISHA)


def charm(marks, p):
    return sum(CHARM[x] for x, m in zip(GEISHA, marks) if m == p)


def geisha_count(marks, p):
    return sum(1 for m in marks if m == p)


def sizes(g, s):
    return {z: size(g, s, z) for z in ZONES}


def zone_view(view, name, owner=None):
    return next(z for z in view["zones"] if z["name"] == name and z["owner"] == owner)


def as_marks(text):
    """'A B - …' → marker values; A is P0, B is P1, '-' neutral."""
    return tuple({"A": 0, "B": 1, "-": None}[c] for c in text.split())


def cards_of(counts):
    return [x for x, k in zip(GEISHA, counts) for _ in range(k)]


# -- arranging a round end -------------------------------------------------------------

def before_last_action(g, s, seed=0, last="trade_off"):
    """Play on (seeded) to the round's 8th action, where the player to move has
    only `last` left: every other action of the round has been taken."""
    order = [a for a in CARDS_USED if a != last] + [last]

    def there(st):
        u = used(g, st)
        return kind(g, st) == "action" and len(u[0]) + len(u[1]) == 7

    s = play(g, s, prefer(order, seed), until=there)
    assert g.outcome(s) is None and {a.name for a in g.legal_actions(s, decider(g, s))} == {last}
    return s


def arrange_round_end(g, s, final_a, final_b, marks=None, secrets=(None, None)):
    """At the last action (a trade_off), put the cards so that after the
    secrets are revealed (HK-E1) side(0) and side(1) hold `final_a`/`final_b`
    (7 counts for G1…G7, secret card included; `secrets` names it, else the
    first card); optionally set the markers."""
    last = decider(g, s)
    first = 1 - last
    pool = Counter({x: CHARM[x] for x in GEISHA})
    spec = {}
    for p, counts in ((0, final_a), (1, final_b)):
        cards = cards_of(counts)
        assert len(cards) == 8, "each side holds 8 cards at the end of a round (HK-P8)"
        pool -= Counter(cards)
        secret = secrets[p] or cards[0]
        cards.remove(secret)
        spec[f"secret({p})"] = [secret]
        spec[f"side({p})"] = cards
    rest = sorted(pool.elements())
    assert len(rest) == 5
    spec.update({f"trade_off({first})": rest[:2], f"hand({last})": rest[2:4],
                 "removed": rest[4:], "deck": [], f"hand({first})": [],
                 f"trade_off({last})": [], "offered": []})
    s = arrange(g, s, spec)
    check_consistent(g, s)
    if marks is not None:
        s = set_value(g, s, "favour", dict(zip(GEISHA, marks)))
    return s


def score_round(g, s):
    """Take the last action (the only legal one): the round is scored."""
    actions = g.legal_actions(s, decider(g, s))
    assert len(actions) == 1
    return g.apply(s, actions[0])


# -- recorded playouts ------------------------------------------------------------------

class Playout:
    def __init__(self, g, seed):
        self.g = g
        self.states = [g.new_game(players=2, seed=seed)]
        self.actions = []
        policy = random_policy(1000 + seed)
        while g.outcome(self.states[-1]) is None:
            s = self.states[-1]
            a = policy(g, s, g.legal_actions(s, decider(g, s)))
            self.actions.append(a)
            self.states.append(g.apply(s, a))
            assert len(self.actions) < 2000

    def steps(self):
        return zip(self.states, self.actions, self.states[1:])

    def rounds(self):
        """Per round: the list of (state, action) at the turns' actions."""
        out: dict = {}
        for s, a, _ in self.steps():
            if kind(self.g, s) == "action":
                out.setdefault(s.round, []).append((s, a))
        return [out[r] for r in sorted(out)]


@pytest.fixture(scope="module")
def playouts(game, random_start):
    return [Playout(g, seed) for g in (game, random_start) for seed in SEEDS]


# == 1-2. Setup ==========================================================================

def test_HK_S1_geisha_in_a_row_all_markers_neutral(game):
    """HK-S1: 7 geisha with charm 2 2 2 3 3 4 5 (21), every victory marker neutral."""
    s = game.new_game(players=2, seed=0)
    assert markers(game, s) == (None,) * 7
    for viewer in (0, 1, None):
        rows = game.view(s, viewer)["components"]["geisha"]
        assert [(r["name"], r["charm"], r["favour"]) for r in rows] == \
            [(x, CHARM[x], None) for x in GEISHA]
    assert sum(CHARM.values()) == 21


def test_HK_S1_item_cards_per_geisha_equal_charm(game):
    """HK-S1 / §1: 21 item cards, as many per geisha as her charm."""
    s = game.new_game(players=2, seed=0)
    everything = Counter(x for z in ZONES for x in names(game, s, z))
    assert everything == Counter({x: CHARM[x] for x in GEISHA})


def test_HK_S2_each_player_has_four_unused_action_markers(game):
    """HK-S2: each player starts with the 4 actions, none used."""
    s = game.new_game(players=2, seed=0)
    assert used(game, s) == {0: set(), 1: set()}
    assert {a.name for a in game.legal_actions(s, 0)} == set(CARDS_USED)
    s = game.apply(s, next(a for a in game.legal_actions(s, 0) if a.name == "secret"))
    assert {a.name for a in game.legal_actions(s, 1)} == set(CARDS_USED)


def test_HK_S3_first_start_player_is_random(random_start):
    """HK-S3: the start player of round 1 is chosen at random: both seats start
    in about half of the games."""
    starts = Counter(decider(random_start, random_start.new_game(players=2, seed=k))
                     for k in range(200))
    assert set(starts) == {0, 1}
    assert 60 <= starts[0] <= 140, starts


def test_HK_S3_start_player_variable_is_the_first_to_move(random_start):
    """HK-S3: the recorded start player takes the first turn."""
    for k in range(20):
        s = random_start.new_game(players=2, seed=k)
        assert var(random_start, s, "start_player") == decider(random_start, s)


def test_HK_S4_one_card_removed_face_down(game):
    """HK-S4: one card is removed at random; it is not used and nobody sees it."""
    removed = Counter()
    for k in range(60):
        s = game.new_game(players=2, seed=k)
        assert size(game, s, "removed") == 1
        removed[names(game, s, "removed")[0]] += 1
        for viewer in (0, 1, None):
            zone = zone_view(game.view(s, viewer), "removed")
            assert zone["count"] == 1 and zone["cards"] is None and "revealed" not in zone
    assert len(removed) >= 5, removed   # random: many different cards are removed


def test_HK_S4_removed_card_stays_out_all_round(playouts):
    """HK-S4: the removed card is not used this round: it never moves until
    the next deal."""
    for po in playouts:
        for s, _, nxt in po.steps():
            if nxt.round == s.round:
                z = zone_index(po.g, s, "removed")
                assert nxt.zones[z] == s.zones[z]


def test_HK_S5_six_cards_dealt_to_each_hand(game, random_start):
    """HK-S5: 6 cards to each hand; the start player has drawn a 7th (HK-P2)."""
    for g in (game, random_start):
        for k in range(10):
            s = g.new_game(players=2, seed=k)
            p = decider(g, s)
            assert size(g, s, f"hand({p})") == 7
            assert size(g, s, f"hand({1 - p})") == 6


def test_HK_S6_eight_cards_form_the_draw_pile(game):
    """HK-S6: the other 8 cards form the draw pile (7 after the first draw);
    nothing is on the table yet."""
    s = game.new_game(players=2, seed=3)
    assert sizes(game, s) == {"deck": 7, "removed": 1, "hand(0)": 7, "hand(1)": 6,
                              "secret(0)": 0, "secret(1)": 0, "trade_off(0)": 0,
                              "trade_off(1)": 0, "offered": 0, "side(0)": 0, "side(1)": 0}


def test_HK_S7_all_action_markers_face_up_every_round(playouts):
    """HK-S7: at the first action of every round no action has been used."""
    for po in playouts:
        for turns in po.rounds():
            s, _ = turns[0]
            assert used(po.g, s) == {0: set(), 1: set()}
            assert {a.name for a in po.g.legal_actions(s, decider(po.g, s))} == set(CARDS_USED)


# == 3. Play ==============================================================================

def test_HK_P1_turns_alternate_four_each(playouts):
    """HK-P1: A, B, A, B … from the round's start player, 4 turns each, 8 per
    round; a new turn begins at each action."""
    for po in playouts:
        for turns in po.rounds():
            assert len(turns) == 8
            start = decider(po.g, turns[0][0])
            assert var(po.g, turns[0][0], "start_player") == start
            assert [decider(po.g, s) for s, _ in turns] == [start, 1 - start] * 4
            numbers = [s.turn for s, _ in turns]
            assert numbers == list(range(numbers[0], numbers[0] + 8))


def test_HK_P2_draw_is_mandatory_and_from_the_top(playouts):
    """HK-P2 (a): each turn begins with the draw of the top card of the pile:
    at the t-th action of a round the pile holds 8 − t cards, and the next
    player's hand gains exactly the card on top of the pile."""
    for po in playouts:
        for turns in po.rounds():
            for t, (s, _) in enumerate(turns, start=1):
                assert size(po.g, s, "deck") == 8 - t
        at_action = [s for s in po.states if kind(po.g, s) == "action"]
        for s, nxt in zip(at_action, at_action[1:]):
            if nxt.round != s.round:
                continue
            q = 1 - decider(po.g, s)
            assert decider(po.g, nxt) == q
            top = names(po.g, s, "deck")[-1]
            assert Counter(names(po.g, nxt, f"hand({q})")) == \
                Counter(names(po.g, s, f"hand({q})") + [top])


def test_HK_P2_each_action_once_per_round_no_pass(playouts):
    """HK-P2 (b): every unused action can be taken and no used one; no pass;
    each player takes each of the 4 actions exactly once per round."""
    for po in playouts:
        for turns in po.rounds():
            taken = {0: [], 1: []}
            for s, a in turns:
                p = decider(po.g, s)
                legal = po.g.legal_actions(s, p)
                assert "pass" not in {x.name for x in legal}
                assert {x.name for x in legal} == set(CARDS_USED) - set(taken[p])
                assert used(po.g, s)[p] == set(taken[p])
                taken[p].append(a.name)
            assert sorted(taken[0]) == sorted(taken[1]) == sorted(CARDS_USED)


def test_HK_P2_passing_is_refused(game):
    """HK-P2: 'pass' is not an action; an unknown one raises action/unknown."""
    s = game.new_game(players=2, seed=0)
    with pytest.raises(ActionError) as err:
        game.parse_action(s, 0, "pass")
    assert err.value.code == "action/unknown"


def test_HK_P3_secret_moves_one_card_face_down(game):
    """HK-P3: one card from hand to the player's secret zone; nothing else moves."""
    s = arrange(game, game.new_game(players=2, seed=0),
                {"hand(0)": ["G1", "G1", "G3", "G4", "G6", "G7", "G7"]})
    before = sizes(game, s)
    s2 = do(game, s, "secret G4")
    assert Counter(names(game, s2, "hand(0)")) == Counter(["G1", "G1", "G3", "G6", "G7", "G7"])
    assert names(game, s2, "secret(0)") == ["G4"]
    after = sizes(game, s2)
    assert after["side(0)"] == after["side(1)"] == after["offered"] == 0
    assert after["deck"] == before["deck"] - 1 and after["hand(1)"] == 7  # B's draw
    assert used(game, s2)[0] == {"secret"}


def test_HK_P4_trade_off_moves_two_cards_face_down(game):
    """HK-P4: two cards from hand to the player's trade-off zone."""
    s = arrange(game, game.new_game(players=2, seed=0),
                {"hand(0)": ["G1", "G1", "G3", "G4", "G6", "G7", "G7"]})
    s2 = do(game, s, "trade_off G1 G7")
    assert Counter(names(game, s2, "hand(0)")) == Counter(["G1", "G3", "G4", "G6", "G7"])
    assert sorted(names(game, s2, "trade_off(0)")) == ["G1", "G7"]
    assert sides(game, s2) == ((0,) * 7, (0,) * 7)


def test_HK_P4_trade_off_cards_are_not_counted(playouts):
    """HK-P4: at the end of the game the trade-off cards are still apart: 2
    each, not on any side."""
    for po in playouts:
        end = po.states[-1]
        assert size(po.g, end, "trade_off(0)") == size(po.g, end, "trade_off(1)") == 2
        assert size(po.g, end, "side(0)") == size(po.g, end, "side(1)") == 8


def test_HK_P5_gift_opponent_takes_one(game):
    """HK-P5: three cards face up; the opponent takes one for their side, the
    other two go to the active player's side."""
    s = arrange(game, game.new_game(players=2, seed=0),
                {"hand(0)": ["G1", "G2", "G3", "G4", "G5", "G6", "G7"]})
    s = do(game, s, "gift G2 G5 G6")
    assert sorted(names(game, s, "offered")) == ["G2", "G5", "G6"]
    assert game.to_move(s) == (1,)
    assert sorted(texts_of(game, s)) == ["take G2", "take G5", "take G6"]
    s = do(game, s, "take G5")
    assert sides(game, s) == ((0, 1, 0, 0, 0, 1, 0), (0, 0, 0, 0, 1, 0, 0))
    assert size(game, s, "offered") == 0
    assert Counter(names(game, s, "hand(0)")) == Counter(["G1", "G3", "G4", "G7"])


def test_HK_P6_competition_opponent_takes_a_group(game):
    """HK-P6: four cards in two groups of two; the opponent takes one group,
    the other goes to the active player's side, each card to its geisha."""
    s = arrange(game, game.new_game(players=2, seed=0),
                {"hand(0)": ["G1", "G2", "G3", "G4", "G5", "G6", "G7"]})
    s = do(game, s, "competition G1 G7 | G3 G4")
    assert sorted(names(game, s, "offered")) == ["G1", "G3", "G4", "G7"]
    assert game.to_move(s) == (1,)
    assert sorted(texts_of(game, s)) == ["take G1 G7", "take G3 G4"]
    s = do(game, s, "take G1 G7")
    assert sides(game, s) == ((0, 0, 1, 1, 0, 0, 0), (1, 0, 0, 0, 0, 0, 1))
    assert size(game, s, "offered") == 0
    assert Counter(names(game, s, "hand(0)")) == Counter(["G2", "G5", "G6"])


def test_HK_P6_split_chosen_by_the_active_player(game):
    """HK-P6: the same four cards split differently give different offers."""
    s = arrange(game, game.new_game(players=2, seed=0),
                {"hand(0)": ["G1", "G2", "G3", "G4", "G5", "G6", "G7"]})
    splits = [t for t in texts_of(game, s) if t.startswith("competition") and
              sorted(t.replace("|", "").split()[1:]) == ["G1", "G3", "G4", "G7"]]
    assert len(splits) == 3


def test_HK_P7_opponent_decides_inside_the_active_turn(game):
    """HK-P7: the opponent decides during the active player's turn (same turn,
    the active player still active, no draw yet); then the turn ends and the
    opponent's turn begins with its draw."""
    s = arrange(game, game.new_game(players=2, seed=0),
                {"hand(0)": ["G1", "G2", "G3", "G4", "G5", "G6", "G7"]})
    offer = do(game, s, "gift G1 G2 G3")
    assert game.to_move(offer) == (1,)
    assert offer.turn == s.turn
    view = game.view(offer, 1)
    assert view["active"] == 0 and view["to_move"] == [1]
    assert size(game, offer, "hand(1)") == 6 and size(game, offer, "deck") == 7
    after = do(game, offer, "take G1")
    assert game.to_move(after) == (1,) and kind(game, after) == "action"
    assert after.turn == s.turn + 1
    assert size(game, after, "hand(1)") == 7 and size(game, after, "deck") == 6


def test_HK_P7_decision_on_the_last_turn_ends_the_round(game):
    """HK-P7: a gift as the 8th action: the opponent decides, then the round ends."""
    s = before_last_action(game, game.new_game(players=2, seed=4), seed=4, last="gift")
    assert decider(game, s) == 1
    offer = game.apply(s, game.legal_actions(s, 1)[0])
    assert game.to_move(offer) == (0,) and kind(game, offer) == "take" and offer.round == 1
    after = game.apply(offer, game.legal_actions(offer, 0)[0])
    assert after.round == 2 or game.outcome(after) is not None


def test_HK_P8_card_counts_at_every_step(playouts):
    """HK-P8: before the k-th action of a player the hand holds 6 + k − (cards
    used) cards, enough for every unused action; the 4th action uses the last
    cards; the 21 cards are always all there."""
    for po in playouts:
        for s, _, _ in po.steps():
            all_cards = Counter(x for z in ZONES for x in names(po.g, s, z))
            assert all_cards == Counter({x: CHARM[x] for x in GEISHA})
            if kind(po.g, s) != "action":
                continue
            p = decider(po.g, s)
            done = used(po.g, s)[p]
            k = len(done) + 1
            hand = size(po.g, s, f"hand({p})")
            assert hand == 6 + k - sum(CARDS_USED[a] for a in done)
            for a in set(CARDS_USED) - done:
                assert hand >= CARDS_USED[a]
            if k == 4:
                (last,) = set(CARDS_USED) - done
                assert hand == CARDS_USED[last]


def test_HK_P8_round_end_counts(playouts):
    """HK-P8: at the end of the (last) round: hands and pile empty, 8 cards
    on each side, 2 under each trade-off, 1 removed: 8 + 8 + 2 + 2 + 1 = 21."""
    for po in playouts:
        assert sizes(po.g, po.states[-1]) == {
            "deck": 0, "removed": 1, "hand(0)": 0, "hand(1)": 0, "secret(0)": 0,
            "secret(1)": 0, "trade_off(0)": 2, "trade_off(1)": 2, "offered": 0,
            "side(0)": 8, "side(1)": 8}


def test_HK_P9_views_hide_the_other_players_cards(playouts):
    """HK-P9: a player's view lists their own hand, secret and trade-off, only
    the sizes of the other player's, and never the pile or the removed card;
    offered cards and sides are public; a spectator sees only public zones."""
    for po in playouts:
        for s in po.states:
            for viewer in (0, 1, None):
                view = po.g.view(s, viewer)
                for zone in view["zones"]:
                    ref = zone["name"] if zone["owner"] is None else \
                        f"{zone['name']}({zone['owner']})"
                    assert zone["count"] == size(po.g, s, ref)
                    if zone["name"] in ("deck", "removed") or (
                            zone["name"] in HIDDEN_FROM_OTHERS and zone["owner"] != viewer):
                        assert zone["cards"] is None and "revealed" not in zone, (viewer, ref)
                    else:
                        assert sorted(zone["cards"]) == sorted(names(po.g, s, ref))


def test_HK_P9_view_is_blind_to_the_other_players_cards(playouts):
    """HK-P9: shuffling the cards a player may not see (the other hand, secret
    and trade-off, the pile, the removed card) changes nothing in their view."""
    rng = random.Random(0)
    changed = 0
    for po in playouts[:4]:
        for s in po.states:
            for viewer in (0, 1, None):
                other = permute_hidden(po.g, s, viewer, rng)
                check_consistent(po.g, other)
                changed += other != s
                assert po.g.view(other, viewer) == po.g.view(s, viewer)
    assert changed > 100


def test_HK_P9_private_actions_print_hidden_to_others(game):
    """HK-P9: secret and trade-off actions show their cards only to their
    player; gift and competition offers are public."""
    s = game.new_game(players=2, seed=0)
    for a in game.legal_actions(s, 0):
        if a.name in ("secret", "trade_off"):
            assert a.text_for(1) == a.text_for(None) == f"{a.name} ?"
            assert a.text_for(0) == str(a)
        else:
            assert a.text_for(1) == a.text_for(None) == str(a)


def test_HK_P9_offer_is_public(game):
    """HK-P9: offered gift cards are seen by everybody, and only the decider
    is shown the choices."""
    s = arrange(game, game.new_game(players=2, seed=0),
                {"hand(0)": ["G1", "G2", "G3", "G4", "G5", "G6", "G7"]})
    s = do(game, s, "gift G2 G5 G6")
    for viewer in (0, 1, None):
        view = game.view(s, viewer)
        assert sorted(zone_view(view, "offered")["cards"]) == ["G2", "G5", "G6"]
        assert ("actions" in view) == (viewer == 1)


# == 4. End of round and victory ==========================================================

def test_HK_E1_secret_card_is_revealed_and_counted(game):
    """HK-E1: after the 8th turn each secret card goes to its owner's side and
    counts: every geisha is tied before the secrets, A's secret G7 and B's
    secret G6 break two ties."""
    s = before_last_action(game, game.new_game(players=2, seed=1), seed=1)
    s = arrange_round_end(game, s, (1, 1, 1, 1, 1, 1, 2), (1, 1, 1, 1, 1, 2, 1),
                          secrets=("G7", "G6"))
    assert sides(game, s) == ((1,) * 7, (1,) * 7)
    end = score_round(game, s)
    assert markers(game, end) == as_marks("- - - - - B A")
    assert end.round == 2 and game.outcome(end) is None


def test_HK_E1_secrets_on_sides_at_game_end(playouts):
    """HK-E1: when the game ends, the secret zones are empty and the sides hold
    8 cards each (6 or 7 placed by gift/competition plus the secret)."""
    for po in playouts:
        end = po.states[-1]
        assert size(po.g, end, "secret(0)") == size(po.g, end, "secret(1)") == 0


def test_HK_E2_strict_majority_moves_ties_keep(game):
    """HK-E2: strictly more cards move the marker (from neutral or from the
    other side); equal counts, 0–0 included, leave it where it was."""
    s = before_last_action(game, game.new_game(players=2, seed=2), seed=2)
    before = as_marks("B A - B A - B")
    a = (0, 1, 1, 2, 0, 1, 3)
    b = (0, 1, 1, 1, 3, 2, 0)
    # G1 0–0 stays B; G2 1–1 stays A; G3 1–1 stays neutral; G4 2–1 → A (was B);
    # G5 0–3 → B (was A); G6 1–2 → B (was neutral); G7 3–0 → A (was B).
    end = score_round(game, arrange_round_end(game, s, a, b, before))
    assert markers(game, end) == as_marks("B A - A B B A")


def test_HK_E3_old_markers_count(game):
    """HK-E3: markers won in earlier rounds count: with every geisha tied this
    round, B's old markers on G5 G6 G7 (charm 12) win."""
    s = before_last_action(game, game.new_game(players=2, seed=3), seed=3)
    tied = (1, 1, 1, 1, 1, 2, 1)
    end = score_round(game, arrange_round_end(game, s, tied, tied, as_marks("A A - - B B B")))
    assert markers(game, end) == as_marks("A A - - B B B")
    assert game.outcome(end).winners == (1,)
    assert game.outcome(end).scores == (4, 12)


def test_HK_E4_charm_win(game):
    """HK-E4: 11 or more charm wins, here with 3 geisha (G5 G6 G7 = 12)."""
    s = before_last_action(game, game.new_game(players=2, seed=4), seed=4)
    end = score_round(game, arrange_round_end(game, s, (0, 0, 0, 1, 2, 2, 3),
                                              (1, 1, 1, 1, 1, 1, 2)))
    marks = markers(game, end)
    assert marks == as_marks("B B B - A A A")
    assert (geisha_count(marks, 0), charm(marks, 0)) == (3, 12)
    assert (geisha_count(marks, 1), charm(marks, 1)) == (3, 6)
    out = game.outcome(end)
    assert out.winners == (0,) and out.scores == (12, 6)


@pytest.mark.parametrize("marks,winners", [
    ("A - - - - A A", (0,)),    # 11 charm with 3 geisha: the threshold itself wins
    ("A - - A - - A", None),    # 10 charm, 3 geisha: nobody
    ("- B - - B B B", (1,)),    # 4 geisha (and 14 charm)
    ("B B B - - - -", None),    # 3 geisha, 6 charm: nobody
    ("B B B B - - -", (1,)),    # 4 geisha with 9 charm
])
def test_HK_E4_thresholds(game, marks, winners):
    """HK-E4: charm ≥ 11 or geisha ≥ 4 wins, one less does not (every geisha
    tied this round, so the markers are as given)."""
    s = before_last_action(game, game.new_game(players=2, seed=14), seed=14)
    tied = (1, 1, 1, 1, 1, 2, 1)
    end = score_round(game, arrange_round_end(game, s, tied, tied, as_marks(marks)))
    out = game.outcome(end)
    assert (out.winners if out else None) == winners
    assert end.round == (1 if winners else 2)


def test_HK_E4_charm_beats_geisha(game):
    """HK-E4: one player has 11+ charm, the other 4 geisha: the charm wins."""
    s = before_last_action(game, game.new_game(players=2, seed=4), seed=4)
    end = score_round(game, arrange_round_end(game, s, (0, 0, 0, 1, 2, 2, 3),
                                              (1, 1, 1, 2, 1, 1, 1)))
    marks = markers(game, end)
    assert marks == as_marks("B B B B A A A")
    assert (geisha_count(marks, 1), charm(marks, 1)) == (4, 9)
    assert game.outcome(end).winners == (0,)
    assert game.outcome(end).scores == (12, 9)


def test_HK_E4_geisha_win(game):
    """HK-E4: without 11 charm anywhere, 4 or more geisha win."""
    s = before_last_action(game, game.new_game(players=2, seed=5), seed=5)
    end = score_round(game, arrange_round_end(game, s, (2, 2, 2, 2, 0, 0, 0),
                                              (0, 0, 0, 1, 3, 4, 0)))
    marks = markers(game, end)
    assert marks == as_marks("A A A A B B -")
    assert (geisha_count(marks, 0), charm(marks, 0)) == (4, 9)
    assert (geisha_count(marks, 1), charm(marks, 1)) == (2, 7)
    out = game.outcome(end)
    assert out.winners == (0,) and out.scores == (9, 7)


def test_HK_E4_game_ends_at_once(game):
    """HK-E4: a win ends the game at the round's end: no new round, nobody to
    move, no legal action, further actions refused with action/game-over."""
    s = before_last_action(game, game.new_game(players=2, seed=6), seed=6)
    tied = (1, 1, 1, 1, 1, 2, 1)
    end = score_round(game, arrange_round_end(game, s, tied, tied, as_marks("- - - - A A A")))
    assert game.outcome(end).winners == (0,)
    assert end.round == 1 and game.to_move(end) == ()
    assert game.legal_actions(end, 0) == game.legal_actions(end, 1) == []
    with pytest.raises(ActionError) as err:
        game.apply(end, game.legal_actions(s, decider(game, s))[0])
    assert err.value.code == "action/game-over"


def test_HK_E4_victory_checked_only_at_round_end(game):
    """HK-E4: markers that already give A 12 charm mid-round do not end the
    game; the check runs after the 8th turn."""
    s = set_value(game, game.new_game(players=2, seed=7), "favour",
                  dict(zip(GEISHA, as_marks("- - - - A A A"))))
    policy = prefer(["secret", "gift", "competition", "trade_off"], seed=7)
    while len(used(game, s)[0]) + len(used(game, s)[1]) < 7 or kind(game, s) != "action":
        assert game.outcome(s) is None and s.round == 1
        s = game.apply(s, policy(game, s, game.legal_actions(s, decider(game, s))))
    tied = (1, 1, 1, 1, 1, 2, 1)
    end = score_round(game, arrange_round_end(game, s, tied, tied))
    assert game.outcome(end).winners == (0,)


def test_HK_E5_next_round_start_player_and_fresh_deal(playouts):
    """HK-E5: the player who took the 2nd turn starts the next round; all 21
    cards are collected and dealt again (S4…S7)."""
    for po in playouts:
        rounds = po.rounds()
        for before, after in zip(rounds, rounds[1:]):
            second = decider(po.g, before[1][0])
            s = after[0][0]
            assert decider(po.g, s) == second
            assert sizes(po.g, s) == {
                "deck": 7, "removed": 1, f"hand({second})": 7, f"hand({1 - second})": 6,
                "secret(0)": 0, "secret(1)": 0, "trade_off(0)": 0, "trade_off(1)": 0,
                "offered": 0, "side(0)": 0, "side(1)": 0}


def test_HK_E5_markers_stay_between_rounds(game):
    """HK-E5: markers won in a round stay into the next one."""
    s = before_last_action(game, game.new_game(players=2, seed=8), seed=8)
    a = (1, 1, 1, 1, 1, 1, 2)
    b = (1, 1, 1, 1, 1, 2, 1)
    end = score_round(game, arrange_round_end(game, s, a, b, as_marks("- - - - - - B")))
    assert end.round == 2 and game.outcome(end) is None
    expect = as_marks("- - - - - B A")
    assert markers(game, end) == expect
    s = before_last_action(game, end, seed=8)
    assert s.round == 2 and markers(game, s) == expect


def test_HK_E5_new_deal_each_round(playouts):
    """HK-E5: the cards are shuffled again: round 2's deal differs from round 1's."""
    differ = 0
    for po in playouts:
        rounds = po.rounds()
        if len(rounds) > 1:
            r1, r2 = rounds[0][0][0], rounds[1][0][0]
            differ += any(sorted(names(po.g, r1, z)) != sorted(names(po.g, r2, z))
                          for z in ("hand(0)", "hand(1)", "deck"))
    assert differ >= 3


def test_HK_E6_exactly_one_winner(playouts):
    """HK-E6: no shared victory and no draw: every game has one winner, who
    meets HK-E4, and the score is the charm."""
    for po in playouts:
        end = po.states[-1]
        out = po.g.outcome(end)
        marks = markers(po.g, end)
        assert len(out.winners) == 1
        w = out.winners[0]
        assert charm(marks, w) >= 11 or geisha_count(marks, w) >= 4
        assert out.scores == (charm(marks, 0), charm(marks, 1))


def test_HK_E6_no_round_limit(game):
    """HK-E6 / HK-D5: with every geisha tied every round, the game goes on:
    30 rounds and no end."""
    s = game.new_game(players=2, seed=9)
    tied = (1, 1, 1, 1, 1, 2, 1)
    for r in range(1, 31):
        s = before_last_action(game, s, seed=r)
        assert s.round == r
        s = score_round(game, arrange_round_end(game, s, tied, tied))
        assert game.outcome(s) is None and markers(game, s) == (None,) * 7
    assert s.round == 31


# == 5. Decisions ==========================================================================

def test_HK_D1_P0_always_starts(game):
    """HK-D1: the variant first_player: P0 makes P0 start round 1."""
    assert game.options["first_player"] == "P0"
    for k in range(30):
        s = game.new_game(players=2, seed=k)
        assert decider(game, s) == 0 and var(game, s, "start_player") == 0


def test_HK_D1_random_is_the_default_and_other_values_refused():
    """HK-D1: random is the default; an unknown value raises option/invalid."""
    assert load_rulebook("hanamikoji").options["first_player"] == "random"
    with pytest.raises(OptionError) as err:
        load_rulebook("hanamikoji", options={"first_player": "youngest"})
    assert err.value.code == "option/invalid"


def test_HK_D1_a_save_belongs_to_its_variant(game, random_start):
    """HK-D1: a game saved under first_player: P0 does not load into the
    default variant (save/mismatch), and loads back into its own."""
    data = game.state_to_json(game.new_game(players=2, seed=0))
    with pytest.raises(SaveError) as err:
        random_start.state_from_json(data)
    assert err.value.code == "save/mismatch"
    assert game.state_from_json(data) == game.new_game(players=2, seed=0)


def test_HK_D2_no_winner_means_another_round(game):
    """HK-D2: another round is played exactly when nobody wins at a round end."""
    s = before_last_action(game, game.new_game(players=2, seed=10), seed=10)
    end = score_round(game, arrange_round_end(game, s, (1, 1, 1, 1, 1, 2, 1),
                                              (1, 1, 1, 1, 1, 2, 1), as_marks("A A A - - - B")))
    assert game.outcome(end) is None and end.round == 2      # A 3 geisha 6 charm, B 5


def test_HK_D2_simultaneous_conditions_settled_by_charm(game):
    """HK-D2: 11 charm against 4 geisha in the same round: the charm wins."""
    s = before_last_action(game, game.new_game(players=2, seed=11), seed=11)
    tied = (1, 1, 1, 1, 1, 2, 1)
    end = score_round(game, arrange_round_end(game, s, tied, tied, as_marks("B B B B A A A")))
    assert game.outcome(end).winners == (0,)


def test_HK_D3_trade_off_and_removed_never_revealed(playouts):
    """HK-D3 (default): at the game's end the other player's trade-off cards
    and the removed card are still hidden from everybody."""
    for po in playouts:
        end = po.states[-1]
        for viewer in (0, 1, None):
            view = po.g.view(end, viewer)
            zone = zone_view(view, "removed")
            assert zone["cards"] is None and "revealed" not in zone
            for p in (0, 1):
                if p != viewer:
                    t = zone_view(view, "trade_off", p)
                    assert t["cards"] is None and "revealed" not in t


@pytest.mark.parametrize("value", ["yes", True])
def test_HK_D3_variant_reveals_trade_off_at_round_end(value):
    """HK-D3 variant reveal_trade_off_at_round_end: both trade-off piles are
    public after the round (seen at the end of the game); the removed card
    stays hidden."""
    g = load_rulebook("hanamikoji", options={"first_player": "P0",
                                             "reveal_trade_off_at_round_end": value})
    s = before_last_action(g, g.new_game(players=2, seed=12), seed=12)
    tied = (1, 1, 1, 1, 1, 2, 1)
    end = score_round(g, arrange_round_end(g, s, tied, tied, as_marks("A A A A - - -")))
    assert g.outcome(end) is not None
    for viewer in (0, 1, None):
        view = g.view(end, viewer)
        for p in (0, 1):
            t = zone_view(view, "trade_off", p)
            shown = t["cards"] if t["cards"] is not None else t["revealed"]
            assert sorted(shown) == sorted(names(g, end, f"trade_off({p})"))
        assert zone_view(view, "removed")["cards"] is None
        assert "revealed" not in zone_view(view, "removed")


def test_HK_D3_variant_reveal_is_seen_in_a_round_that_does_not_end_the_game():
    """HK-D3 variant: when nobody wins, the next round collects the cards at
    once; every player still sees both trade-off piles in the transition's
    public events (and the REPL prints them)."""
    g = load_rulebook("hanamikoji", options={"first_player": "P0",
                                             "reveal_trade_off_at_round_end": "yes"})
    s = before_last_action(g, g.new_game(players=2, seed=12), seed=12)
    tied = (1, 1, 1, 1, 1, 2, 1)
    arranged = arrange_round_end(g, s, tied, tied, as_marks("- - - - - - -"))
    traded = {p: sorted(names(g, arranged, f"trade_off({p})")) for p in (0, 1)}
    after = score_round(g, arranged)
    assert g.outcome(after) is None and after.round == 2
    for viewer in (0, 1, None):
        events = g.view(after, viewer)["events"]
        shown = {e["zone"]: e["cards"] for e in events if e["event"] == "reveal"}
        assert set(shown) == {"secret(P0)", "secret(P1)", "trade_off(P0)", "trade_off(P1)"}
        for p in (0, 1):     # the last action may still be the trade-off itself
            assert len(shown[f"trade_off(P{p})"]) == 2
            assert not traded[p] or shown[f"trade_off(P{p})"] == traded[p]
    default = load_rulebook("hanamikoji", options={"first_player": "P0"})
    s = before_last_action(default, default.new_game(players=2, seed=12), seed=12)
    after = score_round(default, arrange_round_end(default, s, tied, tied,
                                                   as_marks("- - - - - - -")))
    ties = [f"G{i}: P0 {n} – {n} P1, a tie: she stays neutral"
            for i, n in zip(range(1, 8), tied)]
    assert default.view(after, 0)["events"] == [
        {"event": "reveal", "zone": "secret(P0)", "cards": ["G1"],
         "text": "revealed in secret(P0): G1"},
        {"event": "reveal", "zone": "secret(P1)", "cards": ["G1"],
         "text": "revealed in secret(P1): G1"},
        *({"event": "announce", "text": text} for text in ties),
        {"event": "announce", "text": "After round 1: P0 0 geisha, 0 charm; P1 0 geisha, 0 charm"},
        {"event": "announce", "text": "Nobody has 11 charm or 4 geisha: round 2, P1 starts"}]


def _perft(hand):
    """The legal first actions by brute force: every subset of hand positions,
    told apart by content (HK-D4); competition groups are unordered."""
    out = {"secret": {(c,) for c in hand}}
    for name, k in (("trade_off", 2), ("gift", 3)):
        out[name] = {tuple(sorted(c)) for c in itertools.combinations(hand, k)}
    comp = set()
    for a, b, c, d in itertools.combinations(hand, 4):
        for x, y in (((a, b), (c, d)), ((a, c), (b, d)), ((a, d), (b, c))):
            comp.add(tuple(sorted((tuple(sorted(x)), tuple(sorted(y))))))
    out["competition"] = comp
    return {k: len(v) for k, v in out.items()}


PERFT = [
    # hand (7 cards after the draw)            secret trade gift competition total
    (["G1", "G2", "G3", "G4", "G5", "G6", "G7"], 7, 21, 35, 105, 168),
    (["G1", "G1", "G3", "G4", "G6", "G7", "G7"], 5, 12, 18, 41, 76),
    (["G7", "G7", "G7", "G7", "G7", "G6", "G6"], 2, 3, 3, 4, 12),
    (["G4", "G4", "G4", "G6", "G6", "G6", "G6"], 2, 3, 4, 5, 14),
]


@pytest.mark.parametrize("hand,secret,trade,gift,comp,total", PERFT)
def test_HK_D4_perft_first_action_counts(game, hand, secret, trade, gift, comp, total):
    """HK-D4: exact legal-action counts for known hands, choices by content."""
    assert _perft(hand) == {"secret": secret, "trade_off": trade, "gift": gift,
                            "competition": comp}
    s = arrange(game, game.new_game(players=2, seed=0), {"hand(0)": hand})
    acts = game.legal_actions(s, 0)
    got = Counter(a.name for a in acts)
    assert got == {"secret": secret, "trade_off": trade, "gift": gift, "competition": comp}
    assert len(acts) == total == len({str(a) for a in acts}) == len(set(acts))


def test_HK_D4_perft_matches_brute_force_in_playouts(playouts):
    """HK-D4: at every action of the recorded playouts the legal actions are
    exactly the content-distinct choices of the unused actions."""
    for po in playouts:
        for s, _, _ in po.steps():
            if kind(po.g, s) != "action":
                continue
            p = decider(po.g, s)
            expect = {k: v for k, v in _perft(names(po.g, s, f"hand({p})")).items()
                      if k not in used(po.g, s)[p]}
            assert Counter(a.name for a in po.g.legal_actions(s, p)) == expect


@pytest.mark.parametrize("offer,choices", [
    ("gift G6 G7 G7", ["take G6", "take G7"]),
    ("gift G7 G7 G7", ["take G7"]),
    ("competition G1 G2 | G1 G2", ["take G1 G2"]),
    ("competition G7 G7 | G7 G7", ["take G7 G7"]),
    ("competition G2 G2 | G5 G7", ["take G2 G2", "take G5 G7"]),
])
def test_HK_D4_opponent_choices_by_content(game, offer, choices):
    """HK-D4: two offered cards of the same geisha are one choice; a split into
    equal groups leaves a single choice."""
    hand = {"gift G6 G7 G7": ["G1", "G2", "G3", "G4", "G6", "G7", "G7"],
            "gift G7 G7 G7": ["G1", "G2", "G3", "G4", "G7", "G7", "G7"],
            "competition G1 G2 | G1 G2": ["G1", "G1", "G2", "G2", "G5", "G6", "G7"],
            "competition G7 G7 | G7 G7": ["G1", "G2", "G3", "G7", "G7", "G7", "G7"],
            "competition G2 G2 | G5 G7": ["G1", "G2", "G2", "G4", "G5", "G6", "G7"]}[offer]
    s = arrange(game, game.new_game(players=2, seed=0), {"hand(0)": hand})
    s = do(game, s, offer)
    assert sorted(texts_of(game, s, 1)) == choices


def test_HK_D5_no_round_cap_in_random_play(playouts):
    """HK-D5: the rules have no round limit; games last as long as needed
    (some random games take more than one round)."""
    assert max(po.states[-1].round for po in playouts) >= 2


# == 6. Worked examples ======================================================================

def test_HK_X1_gift_and_competition(game):
    """HK-X1: A's gift G6 G7 G7, B takes a G7; later B's competition
    {G2 G2} {G5 G7}, A takes {G5 G7}."""
    s = arrange(game, game.new_game(players=2, seed=0),
                {"hand(0)": ["G1", "G1", "G3", "G4", "G6", "G7", "G7"]})
    s = do(game, s, "gift G6 G7 G7")
    assert sorted(texts_of(game, s, 1)) == ["take G6", "take G7"]
    s = do(game, s, "take G7")
    side_a, side_b = sides(game, s)
    assert side_b == (0, 0, 0, 0, 0, 0, 1)
    assert side_a == (0, 0, 0, 0, 0, 1, 1)
    assert Counter(names(game, s, "hand(0)")) == Counter(["G1", "G1", "G3", "G4"])
    assert used(game, s)[0] == {"gift"}
    assert game.to_move(s) == (1,) and size(game, s, "hand(1)") == 7
    s = arrange(game, s, {"hand(1)": ["G2", "G2", "G5", "G7", "G4", "G5", "G6"]},
                keep=["hand(0)", "side(0)", "side(1)"])
    s = do(game, s, "competition G2 G2 | G5 G7")
    assert game.to_move(s) == (0,)
    assert sorted(texts_of(game, s, 0)) == ["take G2 G2", "take G5 G7"]
    s = do(game, s, "take G5 G7")
    side_a2, side_b2 = sides(game, s)
    assert [x - y for x, y in zip(side_a2, side_a)] == [0, 0, 0, 0, 1, 0, 1]
    assert [x - y for x, y in zip(side_b2, side_b)] == [0, 2, 0, 0, 0, 0, 0]
    assert used(game, s)[1] == {"competition"}


def _x2(game, seed=0):
    """HK-X2 played out: round 1 from P0, its last action arranged."""
    s = before_last_action(game, game.new_game(players=2, seed=seed), seed=seed)
    assert decider(game, s) == 1          # B took the 2nd (and the 8th) turn
    s = arrange_round_end(game, s, (1, 1, 0, 2, 1, 2, 1), (1, 0, 2, 1, 2, 1, 1))
    assert markers(game, s) == (None,) * 7
    return score_round(game, s)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_HK_X2_round_one_no_winner(game, seed):
    """HK-X2: markers G1 -, G2 A, G3 B, G4 A, G5 B, G6 A, G7 -; A 3 geisha 9
    charm, B 2 geisha 5 charm; no winner; round 2 starts with B."""
    end = _x2(game, seed)
    marks = markers(game, end)
    assert marks == as_marks("- A B A B A -")
    assert (geisha_count(marks, 0), charm(marks, 0)) == (3, 9)
    assert (geisha_count(marks, 1), charm(marks, 1)) == (2, 5)
    assert game.outcome(end) is None and end.round == 2
    assert decider(game, end) == 1 and var(game, end, "start_player") == 1
    assert size(game, end, "hand(1)") == 7 and size(game, end, "hand(0)") == 6
    assert used(game, end) == {0: set(), 1: set()}


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_HK_X3_round_two_charm_beats_geisha(game, seed):
    """HK-X3: after HK-X2, round 2: A holds G1–G4 (4 geisha, 9 charm), B holds
    G5 G6 G7 (3 geisha, 12 charm): B wins."""
    s = before_last_action(game, _x2(game, seed), seed=seed)
    assert s.round == 2 and decider(game, s) == 0      # B started, A takes the 8th turn
    assert markers(game, s) == as_marks("- A B A B A -")
    end = score_round(game, arrange_round_end(game, s, (2, 1, 2, 1, 0, 1, 1),
                                              (0, 1, 0, 1, 2, 2, 2)))
    marks = markers(game, end)
    assert marks == as_marks("A A A A B B B")
    assert (geisha_count(marks, 0), charm(marks, 0)) == (4, 9)
    assert (geisha_count(marks, 1), charm(marks, 1)) == (3, 12)
    out = game.outcome(end)
    assert out.winners == (1,) and out.scores == (9, 12) and out.ranking == (1, 0)


def test_HK_X4_tie_keeps_old_marker(game):
    """HK-X4: G1 A, G5 B, G7 B before; A ends with G1 G3 G5 G6 (4 geisha, 11
    charm), B with G2 G4 G7 (charm 10): A wins."""
    s = before_last_action(game, game.new_game(players=2, seed=13), seed=13)
    s = arrange_round_end(game, s, (1, 0, 2, 1, 2, 1, 1), (1, 2, 0, 2, 1, 0, 2),
                          as_marks("A - - - B - B"))
    end = score_round(game, s)
    marks = markers(game, end)
    assert marks == as_marks("A B A B A A B")
    assert (geisha_count(marks, 0), charm(marks, 0)) == (4, 11)
    assert (geisha_count(marks, 1), charm(marks, 1)) == (3, 10)
    out = game.outcome(end)
    assert out.winners == (0,) and out.scores == (11, 10)


# == the spec and this file ===================================================================

def test_every_rule_id_of_the_spec_is_named_by_a_test():
    """Promise 8: every rule ID and worked example of the spec is named by a
    test of this file (its name, a parameter id or its docstring)."""
    assert unnamed_rule_ids(spec("hanamikoji"), "HK", sys.modules[__name__]) == []

"""Zones of two indices (docs/language.md §4.6): `zone expedition of each
player and colour` is one zone per player and colour, read
`expedition(p, k)` wherever a zone is read — moved and dealt to, shuffled,
revealed, chosen from, counted and scored — seen by its player alone when
`owner`, saved, sampled and shown. The game is tests/engine/expeditions.rules;
the mistakes of the declaration and of its calls are in
tests/language/zone-two-indices-*.rules, those the compiler finds here."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from interpreter import load_rulebook
from interpreter.errors import RulebookErrors, SaveError
from interpreter.runtime.information import sample_state
from interpreter.terminal.render import TableView, render_to_text
from tests.scenario import check_consistent, permute_hidden

ROOT = Path(__file__).resolve().parent.parent
RULES = ROOT / "tests" / "engine" / "expeditions.rules"
COLOURS = ("red", "blue", "yellow")


@pytest.fixture(scope="module")
def game():
    return load_rulebook(str(RULES))


def places(game, state) -> dict:
    """Each zone's name as players read it -> the names of its pieces."""
    lay = game.program(state.n).lay
    return {lay.place_name(i): [lay.display[c] for c in state.zones[i]]
            for i in range(len(lay.zone_list))}


def play(game, state, text):
    return game.apply(state, game.parse_action(state, game.to_move(state)[0], text))


def random_game(game, players, seed):
    state, rng = game.new_game(players=players, seed=seed), random.Random(seed)
    while game.outcome(state) is None:
        state = game.apply(state, rng.choice(list(game.legal_actions(state, game.to_move(state)[0]))))
    return state


def suit(name: str) -> str:
    return {"R": "red", "B": "blue", "Y": "yellow"}[name[0]]


# -- the layout and the rules -------------------------------------------------------------

def test_one_zone_per_player_and_colour_the_players_first(game):
    lay = game.program(3).lay
    names = [lay.place_name(i) for i, (slot, _) in enumerate(lay.zone_list)
             if slot.name == "expedition"]
    assert names == [f"expedition(P{p}, {k})" for p in range(3) for k in COLOURS]
    assert [slot.owner(k) for slot, k in lay.zone_list if slot.name == "expedition"] == \
        [p for p in range(3) for _ in COLOURS]


def test_the_setup_deals_shuffles_and_reveals_into_one_of_them(game):
    for seed in range(4):
        state = game.new_game(players=3, seed=seed)
        where = places(game, state)
        lay = game.program(3).lay
        for p in range(3):
            started = [(k, where[f"expedition(P{p}, {k})"]) for k in COLOURS
                       if where[f"expedition(P{p}, {k})"]]
            assert len(started) == 1 and len(started[0][1]) == 1
            colour, (card,) = started[0]
            assert suit(card) == colour and state.revealed[lay.display.index(card)]
            assert len(where[f"hand(P{p})"]) == 3


def test_a_card_is_moved_to_the_expedition_of_its_colour_and_dealt_for(game):
    state = game.new_game(players=2, seed=0)
    assert places(game, state)["expedition(P0, blue)"] == ["B3"]
    # B1 is lower than the B3 on top of P0's blue expedition: not offered
    assert [str(a) for a in game.legal_actions(state, 0)] == \
        ["play B5", "play Y5", "drop B5", "drop Y5", "drop B1", "retreat blue"]
    state = play(game, state, "play B5")
    where = places(game, state)
    assert where["expedition(P0, blue)"] == ["B3", "B5"]          # ordered: the top last
    assert len(where["hand(P0)"]) == 3 and len(where["deck"]) == 6


def test_a_choice_is_made_from_one_of_them(game):
    state = game.new_game(players=2, seed=0)
    for text in ("play B5", "drop B4", "retreat blue"):
        state = play(game, state, text)
    assert game.view(state, 0)["pending"]["label"] == "choose back"
    assert sorted(str(a) for a in game.legal_actions(state, 0)) == ["back B3", "back B5"]
    state = play(game, state, "back B3")
    where = places(game, state)
    assert where["expedition(P0, blue)"] == ["B5"] and "B3" in where["hand(P0)"]


@pytest.mark.parametrize("players, seed", [(2, 1), (2, 5), (3, 2)])
def test_the_score_sums_over_them(game, players, seed):
    state = random_game(game, players, seed)
    where = places(game, state)
    values = {f"{k[0].upper()}{v}": v for k in COLOURS for v in range(1, 6)}
    want, begun = [], []
    for p in range(players):
        piles = [where[f"expedition(P{p}, {k})"] for k in COLOURS]
        want.append(sum(sum(values[c] for c in pile) - 3 for pile in piles if pile))
        begun.append(sum(1 for pile in piles if pile))
    outcome = game.outcome(state)
    assert list(outcome.scores) == want
    assert [part["expeditions"] for part in outcome.parts] == begun


# -- hidden information, saves ------------------------------------------------------------

@pytest.mark.parametrize("players, seed", [(2, 0), (2, 1), (2, 2), (3, 0), (3, 1)])
def test_views_are_blind_to_what_their_viewer_may_not_see(game, players, seed):
    """At every step: the cards hidden from a viewer (the others' expeditions
    among them) shuffled among the zones hidden from that viewer leave the
    view unchanged; a save loads back equal."""
    state, rng = game.new_game(players=players, seed=seed), random.Random(seed)
    while True:
        check_consistent(game, state)
        assert game.state_from_json(json.loads(json.dumps(game.state_to_json(state)))) == state
        for viewer in [*range(players), None]:
            other = permute_hidden(game, state, viewer, rng)
            check_consistent(game, other)
            assert game.view(other, viewer) == game.view(state, viewer)
        if game.outcome(state) is not None:
            return
        state = game.apply(state, rng.choice(list(game.legal_actions(state, game.to_move(state)[0]))))


def test_the_owner_sees_their_own_the_others_see_how_many(game):
    state = play(game, game.new_game(players=2, seed=0), "play B5")
    for viewer in (0, 1, None):
        entries = [z for z in game.view(state, viewer)["zones"] if z["name"] == "expedition"]
        assert [z["keys"] for z in entries] == [[f"P{p}", k] for p in (0, 1) for k in COLOURS]
        assert [(z["owner"], z["of"]) for z in entries] == [(p, k) for p in (0, 1) for k in COLOURS]
        for z in entries:
            assert z["visibility"] == "owner"
            if z["owner"] == viewer:
                assert z["cards"] is not None and len(z["cards"]) == z["count"]
            elif z.get("revealed"):
                # the pieces turned face up, then a null for each the viewer may not see
                shown = z["revealed"]
                assert z["cards"] == shown + [None] * (z["count"] - len(shown))
            else:
                assert z["cards"] is None
        blue = entries[1]
        assert blue["count"] == 2
        assert blue["cards"] == (["B3", "B5"] if viewer == 0 else ["B3", None])
        if viewer != 0:
            assert blue["revealed"] == ["B3"]          # turned face up by the setup
    # the other zones of the view are as they were: no keys
    assert all("keys" not in z for z in game.view(state, 0)["zones"] if z["name"] != "expedition")


def test_the_information_state_hides_the_others_and_samples_agree(game):
    state = play(game, game.new_game(players=2, seed=0), "play B5")
    lay = game.program(2).lay
    info = game.view(state, 1)["info"]
    for i, (slot, k) in enumerate(lay.zone_list):
        if slot.name == "expedition":
            assert isinstance(info["zones"][i], list) == (slot.owner(k) == 1)
    for seed in range(5):
        sample = sample_state(game, info, random.Random(seed))
        assert [len(z) for z in sample.zones] == [len(z) for z in state.zones]
        for i, (slot, k) in enumerate(lay.zone_list):
            if slot.owner(k) == 1 or slot.visibility == "public":
                assert sample.zones[i] == state.zones[i]
        assert game.view(sample, 1)["info"] == info


def test_a_save_round_trips_and_a_wrong_piece_is_named_by_its_zone(game):
    state = play(game, game.new_game(players=2, seed=0), "play B5")
    data = json.loads(json.dumps(game.state_to_json(state)))
    assert game.state_from_json(data) == state
    lay = game.program(2).lay
    yellow = next(i for i in range(len(lay.zone_list)) if lay.place_name(i) == "expedition(P1, yellow)")
    data["state"]["zones"][yellow].append(lay.instances["red"])     # a colour, not a card
    with pytest.raises(SaveError, match=r"zone expedition\(P1, yellow\)\) holds a component "
                                        r"that is not a card"):
        game.state_from_json(data)


# -- what the compiler refuses ------------------------------------------------------------

MISTAKES = RULES.read_text(encoding="utf-8").replace(
    "  move c to expedition(me, c.suit)\n",
    "  move c to expedition(c.suit, me)\n  move c to hand(c)\n")


def test_each_argument_is_of_its_index_kind_in_the_declared_order(tmp_path):
    path = tmp_path / "mistakes.rules"
    path.write_text(MISTAKES, encoding="utf-8")
    with pytest.raises(RulebookErrors) as info:
        load_rulebook(str(path))
    line = MISTAKES.splitlines().index("  move c to expedition(c.suit, me)") + 1
    got = sorted((e.code, e.span.line, e.span.column) for e in info.value.errors)
    assert got == [("rulebook/type", line, 24), ("rulebook/type", line, 32),
                   ("rulebook/type", line + 1, 18)]
    hints = {e.span.column: e.hint for e in info.value.errors}
    assert hints[24] == "write expedition(p, colour): one per player and colour, in that order"
    assert hints[18] == "write hand(p)"


# -- the screen -----------------------------------------------------------------------------

def test_the_compact_screen_shows_a_row_of_each_players_expeditions(game):
    state = game.new_game(players=2, seed=0)
    for text in ("play B5", "drop B4"):
        state = play(game, state, text)
    view = game.view(state, 0)
    screen = render_to_text(TableView(view, [str(a) for a in game.legal_actions(state, 0)]), 120)
    rows = [line.rstrip() for line in screen.splitlines()]
    # P1's red card was turned face up by the setup: everybody reads it
    assert "expedition  P0: blue: B3 B5 · P1: red: R3" in rows
    assert "discard     red: empty · blue: B4 · yellow: empty" in rows     # one index, as before


def test_the_compact_row_leaves_out_empty_expeditions_and_says_whose_is_empty():
    zones = [{"name": "expedition", "owner": p, "of": k, "keys": [f"P{p}", k],
              "count": len(cards), "cards": cards if p == 0 else None}
             for p, piles in ((0, {"red": ["3", "5"], "blue": []}), (1, {"red": [], "blue": []}),
                              (2, {"red": [], "blue": ["x", "y"]}))
             for k, cards in piles.items()]
    view = {"game": "Expeditions", "players": 3, "viewer": 0, "round": 1, "turn": 1,
            "active": 0, "zones": zones}
    rows = [line.rstrip() for line in render_to_text(TableView(view), 120).splitlines()]
    assert "expedition  P0: red: 3 5 · P1: empty · P2: blue: 2 cards" in rows
    full = render_to_text(TableView(view, compact=False), 120)
    assert "expedition(P2, blue)" in full

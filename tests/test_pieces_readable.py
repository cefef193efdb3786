"""Pieces readable wherever players see them: what a type `shows` comes with
its pieces in every zone the viewer may look into (a view's `attributes`,
the screen's row of cards), its table is one command away, a define shown
is worked out only for the pieces the viewer sees; per-piece variables are
in the views; a zone's revealed pieces are in its `cards`."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from interpreter import load_rulebook
from interpreter.game.engine import Game
from interpreter.language.loader import compile_ir
from interpreter.terminal.render import TableView, render_to_text

from tests.scenario import typed

ROOT = Path(__file__).resolve().parent.parent
MARKET = ROOT / "tests" / "games" / "market.rules"

HIDDEN = """
game "Hands"
players 2

component card
  | name | cost |
  | c1   | 1    |
  | c2   | 2    |
  | c3   | 3    |
  | c4   | 4    |
  shows cost, held

# a define that reads where a piece lies: worked out only for pieces seen
define held(c) = contains(hand(1), c)

zone deck: card, hidden
zone hand of each player: card, owner
variable heat of each card: number = 0

setup
  move all card to deck
  deal 2 from deck to hand(1)
  deal 1 from deck to hand(0)
  reveal first(hand(1)) to 0

phase play
  turn players[0]
    players[0] takes an action

action warm(c: one of hand(me))
  add 3 to heat(c)

scoring
  score = 0
"""


@pytest.fixture(scope="module")
def market():
    return load_rulebook(str(MARKET))


@pytest.fixture(scope="module")
def hands():
    return Game(compile_ir(HIDDEN, "hands.rules", Path(".")))


def _zone(view, name, owner=None):
    return next(z for z in view["zones"] if z["name"] == name and z.get("owner") == owner)


def test_a_public_zone_lists_what_each_piece_shows_in_the_order_of_its_cards(market):
    state = market.new_game(players=2, seed=4)
    for viewer in (0, 1, None):
        zone = _zone(market.view(state, viewer), "market")
        assert len(zone["attributes"]) == len(zone["cards"]) == 4
        for name, shown in zip(zone["cards"], zone["attributes"]):
            row = next(r for r in market.view(state, None)["components"]["card"]
                       if r["name"] == name)
            assert list(shown) == ["cost", "pay", "colour", "points"]       # as written
            assert shown == {k: row[k] for k in shown}


def test_an_owner_only_zone_shows_its_pieces_to_its_owner_and_only_the_shown_to_others(hands):
    state = hands.new_game(players=2, seed=1)
    own, other = _zone(hands.view(state, 1), "hand", 1), _zone(hands.view(state, 0), "hand", 1)
    assert [a["cost"] for a in own["attributes"]] == [int(c[1]) for c in own["cards"]]
    # P0 was shown one of P1's two cards: it is in `cards`, the other is null
    (shown,) = other["revealed"]
    assert other["cards"] == [shown, None]
    assert other["attributes"] == [{"cost": int(shown[1]), "held": True}, None]
    assert _zone(hands.view(state, None), "hand", 1)["cards"] is None
    assert "attributes" not in _zone(hands.view(state, None), "hand", 1)


def test_a_define_shown_is_worked_out_only_for_the_pieces_the_viewer_sees(hands):
    """`held` says whether a piece lies in P1's hand: in the table of every
    card, a viewer learns it only of the pieces it sees."""
    state = hands.new_game(players=2, seed=1)
    where = {name: z for z in hands.view(state, 1)["zones"] for name in z["cards"] or ()}
    for viewer in (0, 1, None):
        rows = {r["name"]: r for r in hands.view(state, viewer)["components"]["card"]}
        seen = {c for z in hands.view(state, viewer)["zones"] for c in z["cards"] or () if c}
        for name, row in rows.items():
            assert row["cost"] == int(name[1])                   # the printed card: for all
            if name in seen:
                assert row["held"] == (where.get(name, {}).get("owner") == 1)
            else:
                assert row["held"] is None
    # P0 sees its own card and the one shown; not the deck's, nor P1's other card
    assert sum(r["held"] is None for r in hands.view(state, 0)["components"]["card"]) == 2


def test_a_variable_of_each_piece_is_in_every_view_and_told_when_it_moves(hands):
    before = hands.new_game(players=2, seed=1)
    action = hands.legal_actions(before, 0)[0]
    after = hands.apply(before, action)
    card = str(action).split()[1]
    for viewer in (0, 1, None):
        rows = {r["name"]: r for r in hands.view(after, viewer)["components"]["card"]}
        assert rows[card]["heat"] == 3 and sum(r["heat"] for r in rows.values()) == 3
    assert f"card: {card} heat 0 → 3" in hands.changes(before, after, 1)


def _drawn(screen: str, card: str, lines: list) -> bool:
    """Whether the screen draws `card` with `lines` under its name, in its column."""
    rows = screen.splitlines()
    for i, row in enumerate(rows):
        for m in re.finditer(rf"(?<!\S){re.escape(card)}(?!\S)", row):
            under = rows[i + 1:i + 1 + len(lines)]
            if len(under) == len(lines) and all(u[m.start():].startswith(want)
                                                 for u, want in zip(under, lines)):
                return True
    return False


@pytest.mark.parametrize("players", [2, 3])
def test_every_attribute_a_purchase_depends_on_is_on_the_screen(market, players):
    """Gem Market played from the screen alone: at every decision, each card
    on offer is drawn with its cost, the gem it is paid in, its colour and
    points; the nobles waiting with what they want; everyone's coins."""
    rng = random.Random(players)
    for seed in range(3):
        state = market.new_game(players=players, seed=seed)
        while not state.over:
            (player,) = market.to_move(state)
            view = market.view(state, player)
            actions = [str(a) for a in market.legal_actions(state, player)]
            screen = render_to_text(TableView(view, actions), 120)
            assert len(screen.splitlines()) <= 45
            rows = {r["name"]: r for r in view["components"]["card"]}
            for card in _zone(view, "market")["cards"]:
                r = rows[card]
                assert _drawn(screen, card, [f"cost {r['cost']}", f"pay {r['pay']}",
                                             f"colour {r['colour']}", f"points {r['points']}"])
            nobles = {r["name"]: r for r in view["components"]["noble"]}
            for noble in _zone(view, "waiting")["cards"]:
                assert _drawn(screen, noble, [f"wants {nobles[noble]['wants']}",
                                              f"wants_many {nobles[noble]['wants_many']}"])
            for gem in ("ruby", "jade", "onyx"):
                assert f"coins({gem})" in screen
            state = market.apply(state, rng.choice(market.legal_actions(state, player)))


def test_show_names_a_type_or_one_piece_and_its_table_is_on_request(market):
    out = typed(market, ["show card", "show R4", "quit", "no"], seed=2)
    assert "On request: show card · show noble" in out
    # the type's table, then the piece's row alone (a name in any case)
    _, whole, one = re.split(r"\ncard\s*\nname\s+cost\s+pay\s+colour\s+points", out)
    assert all(re.search(rf"\b{c}\s+\d\s+\w+\s+\w+\s+\d", whole) for c in ("r1", "j3", "o5"))
    assert re.search(r"r4\s+5\s+onyx\s+ruby\s+2", one) and "r1" not in one

"""Known facts of Paris: City of Light, by rule ID of its specification.

Every rule ID of the spec (PA-G1…G6, PA-S1…S5, PA-P1…P6, PA-C1…C12,
PA-E1…E6, PA-D1…D14) and every worked example (PA-X1…X3) has at least one
test naming it (a test below scans the spec to keep it so), and every
variant file in rulebooks/variants/ has a test that shows its effect.

The spec's board B is laid by play: before each turn of phase 1 the tile
the example wants is put in the hand of the player to move, and the turn
is the action `lay_tile`. Phase 2 of an example is played the same way,
by the actions' text, after the example's buildings are put in the
reserves. The scores of the examples are the engine's own (`game.scores`);
their parts are the rulebook's defines, evaluated on the same state.

Seats: blue is P0, orange P1 (PA-S3); blue starts phase 1 (PA-S5).
"""

from __future__ import annotations

import functools
import random
import re
import sys
from pathlib import Path

import pytest

from interpreter.stdlib import grid, shapes
from interpreter import load_rulebook
from interpreter.errors import ActionError
from tests.spec_ids import shipped_variants, spec, unnamed_rule_ids
from tests.scenario import (check_consistent, do, move, names, permute_hidden, put, texts_of,
                            var, zone_index)

ROOT = Path(__file__).resolve().parent.parent
VARIANTS = ROOT / "rulebooks" / "variants"
SPEC = spec("paris")
RULES = ROOT / "rulebooks" / "paris.rules"

# PA-X: board B, slots row by row (all tiles at r = 0), and the cells it makes
LAYOUT = "B3 O1 B8 O4 / O7 B6 O2 B1 / B4 O8 B7 O3 / O5 B2 O6 B5"
CELLS = ["bLbobbLo", "bomobobm", "LobLmoob", "omobobmb",
         "LbooLboL", "omobbmob", "momboLmb", "boboboob"]
LIGHTS = [(1, 0), (6, 0), (0, 2), (3, 2), (0, 4), (4, 4), (7, 4), (5, 6)]
LETTER = {"blue": "b", "orange": "o", "mixed": "m", "streetlight": "L"}

FIRST_GAME = ["LEVITATION", "METROPOLITAIN", "JARDIN_DES_PLANTES", "SACRE_COEUR",
              "BOUQUINISTES_SUR_LA_SEINE", "LAMPADAIRE", "LE_PENSEUR", "FONTAINE_DES_MERS"]
X1_CARDS = ["LEVITATION", "FONTAINE_DES_MERS", "SACRE_COEUR", "JARDIN_DES_PLANTES",
            "BOUQUINISTES_SUR_LA_SEINE", "LAMPADAIRE", "LE_PENSEUR", "LA_GRANDE_LUMIERE"]
X2_CARDS = ["LEVITATION", "FONTAINE_DES_MERS", "SACRE_COEUR", "LE_PEINTRE", "LE_PENSEUR",
            "MOULIN_ROUGE", "JARDIN_DES_PLANTES", "LAMPADAIRE"]
WITH_CHARTIER = ["CHARTIER", "METROPOLITAIN", "LEVITATION", "JARDIN_DES_PLANTES", "SACRE_COEUR",
                 "BOUQUINISTES_SUR_LA_SEINE", "LAMPADAIRE", "LE_PEINTRE"]

DEFAULTS = {"start_seat": 0, "seat_0_colour": "blue", "allow_mirror": False,
            "no_tile_rotation": False, "hand_size": 1, "voluntary_pass": False,
            "chimney_caps_taking": False, "fountain_cells": 2, "large_light": "SUBSTITUTE_PLUS2",
            "levitation_no_permissions": False, "chartier_free_convert": False,
            "penseur_lights_not_free": False, "unplaced_penalty": 3,
            "postcards": FIRST_GAME}
# variant file -> what it changes (PA-D2 … PA-D13, PA-S1)
VARIANT_FILES = {
    "allow-mirror": {"allow_mirror": True},
    "hand-size-2": {"hand_size": 2},
    "voluntary-pass": {"voluntary_pass": True},
    "no-tile-rotation": {"no_tile_rotation": True},
    "chimney-caps-taking": {"chimney_caps_taking": True},
    "fountain-one-cell": {"fountain_cells": 1},
    "large-light-plus1": {"large_light": "PLUS1"},
    "large-light-square3": {"large_light": "SQUARE3"},
    "levitation-no-permissions": {"levitation_no_permissions": True},
    "chartier-free-convert": {"chartier_free_convert": True},
    "penseur-lights-not-free": {"penseur_lights_not_free": True},
    "all-postcards-b": {"postcards": ["LE_PEINTRE", "CHARTIER", "MOULIN_ROUGE",
                                      "LA_GRANDE_LUMIERE", "LEVITATION", "METROPOLITAIN",
                                      "BOUQUINISTES_SUR_LA_SEINE", "LE_PENSEUR"]},
}


@functools.lru_cache(maxsize=None)
def rules(name: str | None = None, cards: tuple | None = None):
    path = RULES if name is None else VARIANTS / f"paris-{name}.rules"
    return load_rulebook(path, options={"postcards": list(cards)} if cards else None)


@pytest.fixture(scope="module")
def game():
    return rules()


# == helpers =====================================================================================

def c(x, y) -> int:
    return grid.cell(x, y)


def lay(g):
    return g.program(2).lay


def cell_var(g, s, name, x, y):
    """The value of a variable of each cell of the city."""
    slot, city = lay(g).variables[name], lay(g).grids["city"]
    return s.vars[slot.base + city.position(c(x, y))]


def shown(g, value) -> str | None:
    """A value as the REPL names it: a component by its display name."""
    if value is None:
        return None
    if isinstance(value, int) and not isinstance(value, bool):
        return lay(g).display[value]
    return value


def ground_rows(g, s) -> list:
    return ["".join(LETTER[cell_var(g, s, "ground", x, y)] for x in range(8)) for y in range(8)]


def part(g, s, define: str, *args):
    """The value of a define of the rulebook on a state (a part of the score)."""
    return g.program(2).formulas.define_callable(define)(s, *args)


def tile_of(g, player: int, number: str) -> int:
    """The component id of a player's tile (B3 is blue's T3, O3 orange's)."""
    L = lay(g)
    return next(k for k in range(L.ncomponents) if L.type_of[k] == "tile"
                and L.static["owner"][k] == player and L.display[k] == f"T{number}")


def lay_tiles(g, s, layout=LAYOUT, turns=0):
    """Play phase 1 tile by tile as the layout says (PA-P1 (a)): each player
    lays their own tiles in the order the layout lists them."""
    slots = [t for row in layout.split("/") for t in row.split()]
    todo = {0: [], 1: []}
    for k, t in enumerate(slots):
        todo[0 if t[0] == "B" else 1].append((k, t[1:]))
    while todo[0] or todo[1]:
        p = g.to_move(s)[0]
        k, number = todo[p].pop(0)
        s = with_hand_tile(g, s, p, number)
        s = do(g, s, f"lay_tile T{number}, ({2 * (k % 4)},{2 * (k // 4)}), {turns}")
    return s


def with_hand_tile(g, s, p, number):
    """A copy in which the player's hand holds their tile `number` (swapped with the pile)."""
    cid = tile_of(g, p, number)
    s = s.copy()
    hand, pile = zone_index(g, s, f"hand({p})"), zone_index(g, s, f"pile({p})")
    if cid not in s.zones[hand]:
        put(s, s.zones[hand][0], pile)
        put(s, cid, hand)
    return s


@functools.lru_cache(maxsize=None)
def board_b(cards: tuple = tuple(FIRST_GAME)):
    """Phase 2 on board B, nothing built, the pool full: blue to move."""
    g = rules(None, cards)
    return g, lay_tiles(g, g.new_game(2, seed=1))


def example_x1(cards=tuple(X1_CARDS), large_light=False):
    """PA-X1 played: the buildings, the fountain and the eight tokens."""
    g, s = board_b(cards)
    s = move(g, s, ["SMALL_L", "CORNER", "LINE", "BIG_T"], "pool", "reserve(0)")
    s = move(g, s, ["SMALL_T", "SQUARE", "CROSS"], "pool", "reserve(1)")
    s = do(g, s, "build SMALL_L, 1, (3,4)", "build SMALL_T, 0, (2,3)",
           "build CORNER, 2, (2,6)", "build SQUARE, 0, (0,5)",
           "build LINE, 1, (7,1)", "use_postcard SACRE_COEUR",
           "use_postcard FONTAINE_DES_MERS", "put_fountain 0, (5,3)")
    return g, s


def finish_x1(g, s, large_light=False):
    """The rest of PA-X1's tokens: every effect declined (PA-P3 (b)), or La
    Grande Lumière on (7,4) (PA-X3 (c))."""
    s = do(g, s, "use_postcard JARDIN_DES_PLANTES", "pass", "use_postcard LEVITATION", "pass",
           "use_postcard BOUQUINISTES_SUR_LA_SEINE", "pass", "use_postcard LAMPADAIRE", "pass",
           "use_postcard LE_PENSEUR", "pass", "use_postcard LA_GRANDE_LUMIERE")
    return do(g, s, "put_large_light (7,4)" if large_light else "pass")


def token_holders(g, s) -> dict:
    L = lay(g)
    slots = L.has["token"]
    return {L.display[k]: s.vars[slots[k]] for k in range(L.ncomponents)
            if L.type_of[k] == "postcard" and s.vars[slots[k]] is not None}


def covered(g, s, piece: str) -> list:
    """The cells a piece covers, by (x, y)."""
    return sorted((x, y) for x in range(8) for y in range(8)
                  if shown(g, cell_var(g, s, "cover", x, y)) == piece)


def actions_named(g, s, name, player=None) -> list:
    return [t for t in texts_of(g, s, player) if t.split(" ")[0] == name]


def refused(g, s, text) -> ActionError:
    with pytest.raises(ActionError) as info:
        g.parse_action(s, g.to_move(s)[0], text)
    return info.value


# == geometry and phase 1 ========================================================================

def test_PA_G1_G2_P1_X1_board_b_is_laid_by_play():
    """PA-G1, PA-G2, PA-P1 (a), PA-D1: laying board B's tiles at r = 0 gives
    the spec's cells, x left to right and y top to bottom."""
    g, s = board_b()
    assert ground_rows(g, s) == CELLS


def test_PA_G5_the_printed_lights_of_board_b():
    """PA-G5: the lights of board B are its printed streetlight cells."""
    g, s = board_b()
    assert sorted((grid.x_of(k), grid.y_of(k)) for k in part(g, s, "lights")) == sorted(LIGHTS)


def test_PA_G2_a_quarter_turn_clockwise(game):
    """PA-G2: r = 1 maps [[TL, TR], [BL, BR]] to [[BL, TL], [BR, TR]]: B3
    ([[own, streetlight], [own, opponent]]) turned once in slot (0,0)."""
    s = with_hand_tile(game, game.new_game(2, seed=3), 0, "3")
    s = do(game, s, "lay_tile T3, (0,0), 1")
    got = [[cell_var(game, s, "ground", x, y) for x in (0, 1)] for y in (0, 1)]
    assert got == [["blue", "blue"], ["orange", "streetlight"]]


def test_PA_G2_orange_tiles_are_the_colour_swap(game):
    """PA-G2, PA-D1: orange's O3 has the layout of B3 with the colours swapped."""
    s = with_hand_tile(game, game.new_game(2, seed=3), 0, "1")
    s = do(game, s, "lay_tile T1, (6,6), 0")
    s = with_hand_tile(game, s, 1, "3")
    s = do(game, s, "lay_tile T3, (0,0), 0")
    got = [[cell_var(game, s, "ground", x, y) for x in (0, 1)] for y in (0, 1)]
    assert got == [["orange", "streetlight"], ["orange", "blue"]]


def test_PA_P1_the_first_turn(game):
    """PA-P1: lay the hand tile in any of 16 slots at any of 4 turns, or take
    one of the 12 pool buildings; no pass while a tile is in hand."""
    s = game.new_game(2, seed=5)
    assert game.to_move(s) == (0,)
    assert len(actions_named(game, s, "lay_tile")) == 16 * 4
    assert len(actions_named(game, s, "take_building")) == 12
    assert actions_named(game, s, "pass_turn") == []


def test_PA_P1_b_taking_a_building_into_the_open_reserve(game):
    s = do(game, game.new_game(2, seed=5), "take_building SMILE")
    assert names(game, s, "reserve(0)") == ["SMILE"] and "SMILE" not in names(game, s, "pool")
    view = game.view(s, 1)
    reserve = next(z for z in view["zones"] if z["name"] == "reserve" and z["owner"] == 0)
    assert reserve["cards"] == ["SMILE"]                     # PA-P6: open to both players


def test_PA_P2_P1_c_orange_done_first_starts_phase_2(game):
    """PA-P2: phase 1 ends with the 16th tile, and whoever placed all 8 tiles
    first starts phase 2; PA-P1 (c): a player without tiles may pass."""
    s = do(game, game.new_game(2, seed=7), "take_building LINE")      # blue falls behind
    slots = [t for row in LAYOUT.split("/") for t in row.split()]
    todo = {0: [(k, t[1:]) for k, t in enumerate(slots) if t[0] == "B"],
            1: [(k, t[1:]) for k, t in enumerate(slots) if t[0] == "O"]}
    passed = False
    while todo[0] or todo[1]:
        p = game.to_move(s)[0]
        if not todo[p]:
            assert actions_named(game, s, "pass_turn") == ["pass_turn"]
            s, passed = do(game, s, "pass_turn"), True
            continue
        assert actions_named(game, s, "pass_turn") == []
        k, number = todo[p].pop(0)
        s = do(game, with_hand_tile(game, s, p, number), f"lay_tile T{number}, ({2 * (k % 4)},{2 * (k // 4)}), 0")
    assert not passed                  # orange finished with the 16th tile's turn before blue's
    assert var(game, s, "first_done") == 1
    assert game.to_move(s) == (1,) and ground_rows(game, s) == CELLS


def test_PA_P2_phase_1_ends_at_once_with_the_16th_tile():
    g, s = board_b()
    assert var(g, s, "first_done") == 0 and g.to_move(s) == (0,)
    assert {t.split(" ")[0] for t in texts_of(g, s)} <= {"build", "use_postcard"}


def test_PA_D3_variant_no_tile_rotation():
    """PA-D3: by default tiles turn; with the variant only rotation 0 is offered."""
    g = rules("no-tile-rotation")
    assert {t.rsplit(", ", 1)[1] for t in actions_named(g, g.new_game(2, seed=1), "lay_tile")} == {"0"}


def test_PA_D4_variant_two_tiles_in_hand():
    """PA-D4 (Kosmos): the hand holds 2 tiles; one is laid, the next drawn."""
    g = rules("hand-size-2")
    s = g.new_game(2, seed=1)
    assert [len(names(g, s, f"hand({p})")) for p in (0, 1)] == [2, 2]
    assert len(actions_named(g, s, "lay_tile")) == 2 * 16 * 4
    s = g.apply(s, g.legal_actions(s, 0)[0])
    assert len(names(g, s, "hand(0)")) == 2 and len(names(g, s, "pile(0)")) == 5


def test_PA_S1_S2_S3_S4_setup(game):
    """PA-S1: the 8 cards in play with their pieces, the rest out of the game;
    PA-S2: the 12 buildings in the pool; PA-S3: 7 chimneys and 4 tokens each;
    PA-S4: each player draws one tile from their shuffled pile."""
    s = game.new_game(2, seed=11)
    assert names(game, s, "in_play") == FIRST_GAME
    assert len(names(game, s, "out_of_game")) == 4
    assert sorted(names(game, s, "on_cards")) == ["annex", "fountain", "garden", "statue", "streetlight"]
    assert len(names(game, s, "pool")) == 12
    for p in (0, 1):
        assert var(game, s, "chimneys", p) == 7 and var(game, s, "tokens", p) == 4
        assert len(names(game, s, f"hand({p})")) == 1 and len(names(game, s, f"pile({p})")) == 7
    piles = {tuple(names(game, game.new_game(2, seed=k), "pile(0)")) for k in range(6)}
    assert len(piles) > 1                                         # shuffled


def test_PA_S3_seat_colours_are_config():
    g = load_rulebook(RULES, options={"seat_0_colour": "orange"})
    s = do(g, with_hand_tile(g, g.new_game(2, seed=1), 0, "8"), "lay_tile T8, (0,0), 0")
    assert cell_var(g, s, "ground", 0, 0) == "orange" and cell_var(g, s, "ground", 1, 1) == "blue"


def test_PA_S5_start_seat():
    g = load_rulebook(RULES, options={"start_seat": 1})
    assert g.to_move(g.new_game(2, seed=1)) == (1,)


# == phase 2: building ===========================================================================

def test_PA_X3_d_perft_placement_counts():
    """PA-X3 (d), PA-P4, PA-G3: on the empty board B, counting distinct cell
    sets, LINE has 8 legal placements for blue and 13 for orange; SQUARE 0
    for blue and 2 for orange, at (0,5) and (1,5)."""
    g, s = board_b()
    blue = move(g, s, ["LINE", "SQUARE"], "pool", "reserve(0)")
    builds = actions_named(g, blue, "build")
    assert sum("LINE" in t for t in builds) == 8 and sum("SQUARE" in t for t in builds) == 0
    orange = do(g, move(g, s, ["LINE", "SQUARE"], "pool", "reserve(1)"), "use_postcard SACRE_COEUR")
    builds = actions_named(g, orange, "build")
    assert sum("LINE" in t for t in builds) == 13
    assert [t for t in builds if "SQUARE" in t] == ["build SQUARE, 0, (0,5)", "build SQUARE, 0, (1,5)"]


def test_PA_G3_placements_cover_the_spec_cells():
    """PA-G3: SMALL_L r1 @(3,4), CORNER r2 @(2,6), LINE r1 @(7,1) of PA-X1."""
    g, s = example_x1()
    assert covered(g, s, "SMALL_L") == sorted([(5, 4), (3, 5), (4, 5), (5, 5)])
    assert covered(g, s, "CORNER") == sorted([(2, 6), (3, 6), (2, 7)])
    assert covered(g, s, "LINE") == [(7, 1), (7, 2), (7, 3)]
    assert covered(g, s, "SMALL_T") == sorted([(2, 3), (2, 4), (3, 4), (2, 5)])
    assert covered(g, s, "fountain") == [(5, 3), (6, 3)]
    assert var(g, s, "chimneys", 0) == 4 and var(g, s, "chimneys", 1) == 5   # PA-P3 (a)


def test_PA_P4_the_refusal_names_the_first_offending_cell_and_the_rule():
    """PA-P4, PA-X3 (a): blue SQUARE @(4,0) would cover (5,1), an orange cell."""
    g, s = board_b()
    s = move(g, s, ["SQUARE"], "pool", "reserve(0)")
    err = refused(g, s, "build SQUARE, 0, (4,0)")
    assert err.code == "action/illegal" and "(5,1)" in str(err)
    assert "PA-P4" in (g.source_of(err.span) or "")
    assert refused(g, s, "build SQUARE, 0, (9,9)").code == "action/illegal"
    assert refused(g, s, "build SQUARE, 0, (1,5)").code == "action/illegal"   # blue cells only


def footprint(g, text: str) -> list:
    """The cells a 'build PIECE, R, (X,Y)' action covers."""
    name, r, at = text.split(" ", 1)[1].split(", ")
    x, y = map(int, at.strip("()").split(","))
    cells = lay(g).static["cells"][piece(g, name)]
    return [(grid.x_of(k), grid.y_of(k)) for k in shapes.footprint(cells, int(r), c(x, y))]


def test_PA_P4_G4_only_free_cells_of_ones_colour_or_mixed():
    """PA-P4, PA-G4: every offered building covers free cells of the builder's
    colour or mixed, never a piece or a printed light."""
    g, s = board_b(tuple(X1_CARDS))
    s = move(g, s, ["SMALL_L"], "pool", "reserve(0)")
    s = move(g, s, ["LINE", "CORNER", "ZIGZAG"], "pool", "reserve(1)")
    s = do(g, s, "use_postcard FONTAINE_DES_MERS", "put_fountain 1, (1,3)")   # on (1,3) m, (1,4) b
    builds = actions_named(g, s, "build")
    assert builds
    for t in builds:
        for x, y in footprint(g, t):
            assert cell_var(g, s, "cover", x, y) is None
            assert cell_var(g, s, "ground", x, y) in ("orange", "mixed"), (t, x, y)


def test_PA_X1_E1_to_E5_final_scoring():
    """PA-X1: lit 11 / 8 (PA-E1), groups 7 / 8 (PA-E2), blue's BIG_T costs 3
    and orange's CROSS nothing after Sacré Coeur (PA-E3, PA-C5), the fountain
    touches SMALL_L and LINE (PA-C11, PA-E5), Levitation's stamp (PA-E4):
    blue 23, orange 16, and the game is over (PA-P5)."""
    g, s = example_x1()
    s = finish_x1(g, s)
    assert [part(g, s, "lit_score", p) for p in (0, 1)] == [11, 8]
    assert [part(g, s, "largest_group", p) for p in (0, 1)] == [7, 8]
    assert [part(g, s, "penalty", p) for p in (0, 1)] == [3, 0]
    assert [part(g, s, "fountain_score", p) for p in (0, 1)] == [6, 0]
    assert [part(g, s, "stamps", p) for p in (0, 1)] == [2, 0]
    assert token_holders(g, s)["LEVITATION"] == 0 and token_holders(g, s)["SACRE_COEUR"] == 1
    assert g.scores(s) == (23, 16)
    out = g.outcome(s)
    assert out is not None and out.winners == (0,)


def test_PA_E6_X1_tie_break_counts():
    """PA-E6, PA-X1: free cells of one's own colour: blue 15, orange 17."""
    g, s = example_x1()
    s = finish_x1(g, s)
    assert [part(g, s, "free_own", p) for p in (0, 1)] == [15, 17]


def test_PA_E6_D14_a_full_tie_is_shared():
    """PA-E6, PA-D14: equal scores and equal free own cells: both win."""
    g, s = board_b()
    for card in ("LEVITATION", "METROPOLITAIN", "JARDIN_DES_PLANTES", "LAMPADAIRE",
                 "SACRE_COEUR", "LE_PENSEUR", "BOUQUINISTES_SUR_LA_SEINE", "FONTAINE_DES_MERS"):
        s = do(g, s, f"use_postcard {card}")
        if "pass" in texts_of(g, s):
            s = do(g, s, "pass")
    out = g.outcome(s)
    assert out is not None and out.scores == (2, 2) and out.winners == (0, 1)


def test_PA_E2_a_lone_building_is_a_group_and_none_scores_0():
    g, s = board_b()
    assert [part(g, s, "largest_group", p) for p in (0, 1)] == [0, 0]
    s = do(g, move(g, s, ["LINE"], "pool", "reserve(0)"), "build LINE, 1, (7,1)")
    assert part(g, s, "largest_group", 0) == 3


def test_PA_X2_C2_C9_C10_pawns_and_statue():
    """PA-X2: the dancer's area is 10 cells (PA-C9, PA-G6); the painter's 6
    cells are lit by (7,4) and (5,6) (PA-C2); the statue on (4,0) facing S
    scores 6 (PA-C10): blue 33, orange 26."""
    g, s = board_b(tuple(X2_CARDS))
    s = move(g, s, ["SMALL_L", "CORNER", "LINE", "BIG_T"], "pool", "reserve(0)")
    s = move(g, s, ["SMALL_T", "SQUARE", "CROSS"], "pool", "reserve(1)")
    s = do(g, s, "build SMALL_L, 1, (3,4)", "build SMALL_T, 0, (2,3)",
           "build CORNER, 2, (2,6)", "build SQUARE, 0, (0,5)",
           "build LINE, 1, (7,1)", "use_postcard SACRE_COEUR",
           "use_postcard FONTAINE_DES_MERS", "put_fountain 0, (5,3)",
           "use_postcard MOULIN_ROUGE", "put_dancer (6,7)",
           "use_postcard LE_PEINTRE", "put_painter (7,6)",
           "use_postcard JARDIN_DES_PLANTES", "pass",
           "use_postcard LE_PENSEUR", "put_statue (4,0), south",
           "use_postcard LAMPADAIRE", "pass",
           "use_postcard LEVITATION", "pass")
    out = g.outcome(s)
    assert out is not None
    dancer = part(g, s, "area", piece(g, "dancer"))
    assert sorted((grid.x_of(k), grid.y_of(k)) for k in dancer) == sorted(
        [(6, 7), (5, 7), (4, 7), (3, 7), (4, 6), (7, 7), (6, 6), (6, 5), (6, 4), (7, 5)])
    painter = part(g, s, "area", piece(g, "painter"))
    assert sorted((grid.x_of(k), grid.y_of(k)) for k in painter) == sorted(
        [(7, 6), (7, 5), (7, 7), (6, 6), (6, 5), (6, 4)])
    assert [part(g, s, "dancer_score", p) for p in (0, 1)] == [0, 10]
    assert [part(g, s, "painter_score", p) for p in (0, 1)] == [4, 0]
    assert [part(g, s, "statue_score", p) for p in (0, 1)] == [6, 0]
    assert out.scores == (33, 26)


def piece(g, kind: str) -> int:
    L = lay(g)
    return next(k for k in range(L.ncomponents) if L.type_of[k] == "piece" and L.display[k] == kind)


def test_PA_X3_c_C12_the_large_streetlight():
    """PA-X3 (c), PA-C12, PA-D8: on (7,4) it lights (6,4) (7,3) (7,5), (5,4)
    and (7,6), not (7,2) behind LINE; SMALL_L is lit 3 times: blue 27."""
    g, s = example_x1()
    s = finish_x1(g, s, large_light=True)
    lit = part(g, s, "lit_by", c(7, 4))
    assert sorted((grid.x_of(k), grid.y_of(k)) for k in lit) == sorted(
        [(6, 4), (7, 3), (7, 5), (5, 4), (7, 6)])
    assert part(g, s, "lights_on", part(g, s, "building_cells", piece(g, "SMALL_L"))) == 3
    assert part(g, s, "lights_on", part(g, s, "building_cells", piece(g, "LINE"))) == 1
    assert g.scores(s)[0] == 27
    assert len(part(g, s, "lights")) == len(LIGHTS)           # still one light


@pytest.mark.parametrize("variant,lit", [
    ("large-light-plus1", [(6, 4), (7, 3), (7, 5)]),
    ("large-light-square3", [(6, 3), (6, 4), (6, 5), (7, 3), (7, 5)]),
])
def test_PA_D8_variant_patterns(variant, lit):
    g = rules(variant)
    s = g.new_game(2, seed=1)
    s = lay_tiles(g, s)
    k = c(7, 4)
    slot, city = lay(g).variables["cover"], lay(g).grids["city"]
    s = s.copy()
    s.vars[slot.base + city.position(k)] = piece(g, "large_streetlight")
    got = part(g, s, "lit_by", k)
    assert sorted((grid.x_of(x), grid.y_of(x)) for x in got if 0 <= grid.x_of(x) < 8
                  and 0 <= grid.y_of(x) < 8) == sorted(lit)


def test_PA_X3_a_C6_D12_chartier():
    """PA-X3 (a), PA-C6, PA-D12: with Chartier blue's SQUARE @(4,0) is legal:
    the mixed piece turns (5,1) mixed, the square covers it, and the
    permission is spent."""
    g, s = board_b(tuple(WITH_CHARTIER))
    s = move(g, s, ["SQUARE", "LINE"], "pool", "reserve(0)")
    assert "build SQUARE, 0, (4,0)" not in texts_of(g, s)
    s = do(g, s, "use_postcard CHARTIER", "use_postcard SACRE_COEUR")
    assert var(g, s, "chartier", 0) is True
    assert "build SQUARE, 0, (4,0)" in texts_of(g, s)
    s = do(g, s, "build SQUARE, 0, (4,0)")
    assert cell_var(g, s, "ground", 5, 1) == "mixed"
    assert covered(g, s, "SQUARE") == [(4, 0), (4, 1), (5, 0), (5, 1)]
    assert var(g, s, "chartier", 0) is False and "mixed_space" in names(g, s, "placed(0)")


def test_PA_C6_one_opponent_cell_only():
    """PA-C6: with Chartier a placement may cover one opponent cell, no more,
    and still no printed light."""
    g, s = board_b(tuple(WITH_CHARTIER))
    s = move(g, s, ["SMILE"], "pool", "reserve(0)")
    s = do(g, s, "use_postcard CHARTIER", "use_postcard SACRE_COEUR")
    grounds = [[cell_var(g, s, "ground", x, y) for x, y in footprint(g, t)]
               for t in actions_named(g, s, "build")]
    assert grounds and max(k.count("orange") for k in grounds) == 1
    assert all("streetlight" not in k for k in grounds)


def test_PA_X3_b_C3_metropolitain():
    """PA-X3 (b), PA-C3: LINE r0 @(2,2) covers the light (3,2): illegal, then
    legal with Metropolitain, whose card stays face up until then; after it
    (3,2) is no light, the card is flipped, and the opponent never uses it."""
    g, s = board_b()
    s = move(g, s, ["LINE"], "pool", "reserve(0)")
    assert "build LINE, 0, (2,2)" not in texts_of(g, s)
    s = do(g, s, "use_postcard METROPOLITAIN")
    assert token_holders(g, s)["METROPOLITAIN"] == 0
    assert "use_postcard METROPOLITAIN" not in texts_of(g, s)      # orange never
    s = do(g, s, "use_postcard SACRE_COEUR")
    metro = lay(g).instances["METROPOLITAIN"]
    face_down = lay(g).has["face_down"][metro]
    assert s.vars[face_down] is False
    s = do(g, s, "build LINE, 0, (2,2)")
    assert c(3, 2) not in part(g, s, "lights") and len(part(g, s, "lights")) == 7
    assert s.vars[face_down] is True and var(g, s, "metro", 0) is False


def test_PA_D12_variant_chartier_converts_freely():
    """PA-D12: by default the converted cell must be covered by the placement
    (only placements over one opponent cell are offered); in the variant
    the mixed piece goes first on any free opponent cell, then a building is
    placed, covering it or not."""
    g = rules("chartier-free-convert", tuple(WITH_CHARTIER))
    s = lay_tiles(g, g.new_game(2, seed=1))
    s = move(g, s, ["SQUARE", "LINE"], "pool", "reserve(0)")
    s = do(g, s, "use_postcard CHARTIER", "use_postcard SACRE_COEUR")
    assert "build SQUARE, 0, (4,0)" not in texts_of(g, s)       # no converting inside a build
    assert "convert_cell (0,3)" in texts_of(g, s)                 # far from anything blue builds
    s = do(g, s, "convert_cell (0,3)")
    assert cell_var(g, s, "ground", 0, 3) == "mixed" and var(g, s, "chartier", 0) is False
    assert {t.split(" ")[0] for t in texts_of(g, s)} == {"build"}
    s = do(g, s, "build LINE, 1, (7,1)")
    assert cell_var(g, s, "cover", 0, 3) is None and g.to_move(s) == (1,)


def test_PA_C3_E4_an_unused_metropolitain_still_stamps():
    g, s = board_b()
    s = do(g, s, "use_postcard METROPOLITAIN")
    assert part(g, s, "stamps", 0) == 2


def test_PA_C1_D11_levitation():
    """PA-C1: a reserve building back to the pool for another, placed at once
    with a chimney; only exchanges that can be placed are offered (PA-D11)."""
    g, s = board_b()
    s = move(g, s, ["BIG_L"], "pool", "reserve(0)")
    s = do(g, s, "use_postcard LEVITATION")
    offered = actions_named(g, s, "levitate")
    assert "levitate BIG_L, LINE" in offered and "levitate BIG_L, SQUARE" not in offered
    assert "pass" in texts_of(g, s)
    s = do(g, s, "levitate BIG_L, LINE")
    assert {t.split(" ")[0] for t in texts_of(g, s)} == {"build"}
    assert all(t.startswith("build LINE,") for t in texts_of(g, s))
    s = do(g, s, "build LINE, 1, (7,1)")
    assert names(g, s, "built(0)") == ["LINE"] and "BIG_L" in names(g, s, "pool")
    assert var(g, s, "chimneys", 0) == 6 and g.to_move(s) == (1,)


def test_PA_D11_variant_levitation_without_permissions():
    g = rules("levitation-no-permissions")
    s = lay_tiles(g, g.new_game(2, seed=1))
    s = move(g, s, ["SMILE"], "pool", "reserve(0)")
    s = do(g, s, "use_postcard METROPOLITAIN", "use_postcard SACRE_COEUR", "use_postcard LEVITATION")
    base_g, base_s = board_b()
    base_s = move(base_g, base_s, ["SMILE"], "pool", "reserve(0)")
    base_s = do(base_g, base_s, "use_postcard METROPOLITAIN", "use_postcard SACRE_COEUR",
                "use_postcard LEVITATION")
    assert set(actions_named(g, s, "levitate")) <= set(actions_named(base_g, base_s, "levitate"))


def test_PA_C4_the_garden_is_a_building():
    """PA-C4: the garden is placed at once, with a chimney, on own or mixed
    cells, and counts in groups and light like a building of size 2."""
    g, s = board_b()
    s = do(g, s, "use_postcard JARDIN_DES_PLANTES", "plant_garden")
    builds = texts_of(g, s)
    assert builds and all(t.startswith("build garden,") for t in builds)
    s = do(g, s, "build garden, 0, (4,5)")
    assert names(g, s, "built(0)") == ["garden"] and var(g, s, "chimneys", 0) == 6
    assert covered(g, s, "garden") == [(4, 5), (5, 5)]
    # lit by (4,4) and (5,6): 2 cells x 2 lights
    assert part(g, s, "largest_group", 0) == 2 and part(g, s, "lit_score", 0) == 2 * 2


def test_PA_C5_sacre_coeur_waives_the_penalty():
    g, s = board_b()
    s = move(g, s, ["BIG_T"], "pool", "reserve(1)")
    assert part(g, s, "penalty", 1) == 3
    s = do(g, s, "use_postcard LAMPADAIRE", "pass", "use_postcard SACRE_COEUR")
    assert part(g, s, "penalty", 1) == 0


def test_PA_C7_the_annex_joins_a_building():
    """PA-C7: the annex on an own cell next to one's building makes it one
    bigger, for light and groups."""
    g, s = board_b()
    s = do(g, move(g, s, ["LINE"], "pool", "reserve(0)"), "build LINE, 1, (7,1)",
           "use_postcard SACRE_COEUR")
    s = do(g, s, "use_postcard BOUQUINISTES_SUR_LA_SEINE")
    offers = actions_named(g, s, "put_annex")
    assert "put_annex (6,2), LINE" not in offers            # (6,2) is orange
    assert offers == ["put_annex (6,1), LINE"]
    s = do(g, s, "put_annex (6,1), LINE")
    assert covered(g, s, "LINE") == [(6, 1), (7, 1), (7, 2), (7, 3)]
    assert part(g, s, "largest_group", 0) == 4 and part(g, s, "lit_score", 0) == 4 * 2


def test_PA_C8_lampadaire_lights_both_players():
    """PA-C8: orange's extra streetlight on an orange cell lights blue's CORNER too."""
    g, s = example_x1()
    s = do(g, s, "use_postcard LAMPADAIRE")
    assert "put_lamp (2,7)" not in texts_of(g, s)          # a blue cell
    before = [part(g, s, "lit_score", p) for p in (0, 1)]
    s = do(g, s, "put_lamp (3,7)")                         # next to CORNER's (3,6) and (2,7)
    assert c(3, 7) in part(g, s, "lights") and "streetlight" in names(g, s, "placed(1)")
    assert [part(g, s, "lit_score", p) for p in (0, 1)] == [before[0] + 3, before[1]]


def test_PA_C10_D13_a_blocked_front_scores_nothing():
    g, s = board_b(tuple(X2_CARDS))
    s = do(g, s, "use_postcard LE_PENSEUR", "put_statue (4,0), north")   # the front is off the board
    assert part(g, s, "statue_score", 0) == 0


def test_PA_D13_variant_lights_not_free():
    """PA-D13: by default an uncovered printed light counts as free for the
    statue's front and diagonals (never for the +2); in the variant it does
    not. Blue's statue on (0,1) facing south has the light (0,2) in front."""
    g, s = board_b()
    s = do(g, s, "use_postcard LE_PENSEUR", "put_statue (0,1), south")
    assert part(g, s, "statue_score", 0) == 2 + 1 + 1       # (0,0); diagonals (1,0) L, (1,2)
    g_var = rules("penseur-lights-not-free")
    sv = lay_tiles(g_var, g_var.new_game(2, seed=1))
    sv = do(g_var, sv, "use_postcard LE_PENSEUR", "put_statue (0,1), south")
    assert part(g_var, sv, "statue_score", 0) == 0


def test_PA_C11_D7_the_fountain():
    """PA-C11, PA-D7: 2 cells by default, 1 in the variant; +3 per own building next to it."""
    g, s = board_b()
    s = do(g, s, "use_postcard FONTAINE_DES_MERS")
    assert all(t.startswith("put_fountain ") for t in texts_of(g, s) if t != "pass")
    s = do(g, s, "put_fountain 0, (5,3)")
    assert covered(g, s, "fountain") == [(5, 3), (6, 3)]
    g1 = rules("fountain-one-cell")
    s1 = lay_tiles(g1, g1.new_game(2, seed=1))
    s1 = do(g1, s1, "use_postcard FONTAINE_DES_MERS", "put_fountain 0, (5,3)")
    assert covered(g1, s1, "fountain") == [(5, 3)]


def test_PA_P3_P5_D5_passing():
    """PA-P3 (c), PA-D5: in phase 2 a player passes only when unable to act
    (a turn without a legal action is skipped); with the variant a pass is
    offered at any time."""
    g, s = board_b()
    assert "pass" not in texts_of(g, s)
    gv = rules("voluntary-pass")
    sv = lay_tiles(gv, gv.new_game(2, seed=1))
    assert "pass" in texts_of(gv, sv)


def test_PA_P5_the_game_ends_when_nobody_can_act():
    g, s = example_x1()
    s = finish_x1(g, s)
    assert g.outcome(s) is not None
    assert names(g, s, "reserve(0)") == ["BIG_T"]       # it fits nowhere on blue's cells


def test_PA_D6_chimneys():
    """PA-D6: building needs a chimney; taking is unlimited unless the variant caps it."""
    g, s = board_b()
    s = move(g, s, ["LINE"], "pool", "reserve(0)")
    s = s.copy()
    s.vars[lay(g).variables["chimneys"].base] = 0
    assert actions_named(g, s, "build") == []
    gc = rules("chimney-caps-taking")
    sc = gc.new_game(2, seed=1)
    for b in ["LINE", "CORNER", "SQUARE", "SMALL_L", "SMALL_T", "ZIGZAG", "BIG_T"]:
        sc = move(gc, sc, [b], "pool", "reserve(0)")
    assert actions_named(gc, sc, "take_building") == []
    assert len(actions_named(g, g.new_game(2, seed=1), "take_building")) == 12


def test_PA_D2_variant_allow_mirror():
    """PA-D2: mirror images add orientations to the chiral buildings only."""
    gm = rules("allow-mirror")
    g, s = board_b()
    sm = lay_tiles(gm, gm.new_game(2, seed=1))
    for name, extra in (("SMALL_L", True), ("SQUARE", False), ("CROSS", False), ("BIG_L", True)):
        a = move(g, s, [name], "pool", "reserve(0)")
        b = move(gm, sm, [name], "pool", "reserve(0)")
        plain, mirrored = actions_named(g, a, "build"), actions_named(gm, b, "build")
        assert set(plain) <= set(mirrored)
        assert (len(mirrored) > len(plain)) == extra or not plain


def test_PA_D9_D10_stamps_and_the_first_game_set(game):
    """PA-D9: stamps 2 for Levitation, Metropolitain, Chartier, 0 otherwise;
    PA-D10: the first-game set is the default of option postcards."""
    assert game.options["postcards"] == FIRST_GAME
    L = lay(game)
    stamps = {L.display[k]: L.static["stamp"][k] for k in range(L.ncomponents)
              if L.type_of[k] == "postcard"}
    assert {k for k, v in stamps.items() if v} == {"LEVITATION", "METROPOLITAIN", "CHARTIER"}
    assert set(stamps.values()) == {0, 2}


def test_PA_D1_D2_data_is_read_from_the_shared_file(game):
    """PA-D1, PA-D2: 8 tiles a player and 12 buildings + 9 special pieces from paris.yaml."""
    L = lay(game)
    assert L.types["tile"][1] == 16 and L.types["piece"][1] == 21 and L.types["postcard"][1] == 12


# == information, invariants, determinism ========================================================

class Playout:
    def __init__(self, g, seed):
        self.g = g
        rng = random.Random(seed)
        s = g.new_game(2, seed=seed)
        self.states, self.actions = [s], []
        while g.outcome(s) is None:
            p = g.to_move(s)[0]
            a = rng.choice(list(g.legal_actions(s, p)))
            s = g.apply(s, a)
            self.states.append(s)
            self.actions.append(a)


@pytest.fixture(scope="module")
def playouts(game):
    return [Playout(game, seed) for seed in range(3)]


def test_playouts_end_and_keep_the_pieces(playouts):
    """PA-P5, §1: every game ends; every piece is in one zone; a building's
    cells are all covered by it; chimneys + placed buildings (garden too) = 7."""
    for po in playouts:
        g = po.g
        assert g.outcome(po.states[-1]) is not None
        for s in po.states[::5] + [po.states[-1]]:
            check_consistent(g, s)
            for p in (0, 1):
                built = names(g, s, f"built({p})")
                assert var(g, s, "chimneys", p) + len(built) == 7
                used = sum(1 for v in token_holders(g, s).values() if v == p)
                assert var(g, s, "tokens", p) + used == 4


def test_PA_P6_who_sees_what(playouts):
    """PA-P6: the hand tile only by its owner; pile order by nobody, pile
    sizes by everybody; everything else open. Views do not change when what
    a viewer cannot see is shuffled."""
    rng = random.Random(0)
    for po in playouts:
        g = po.g
        for s in po.states[:20:3]:
            for viewer in (0, 1, None):
                view = g.view(s, viewer)
                for z in view["zones"]:
                    if z["name"] == "pile":
                        assert z["cards"] is None and z["count"] == len(names(g, s, f"pile({z['owner']})"))
                    elif z["name"] == "hand":
                        assert (z["cards"] is not None) == (z["owner"] == viewer)
                    else:
                        assert z["cards"] is not None, z["name"]
                assert g.view(permute_hidden(g, s, viewer, rng), viewer) == view


def test_a_game_is_determined_by_its_seed_and_actions(game):
    a, b = Playout(game, 9), Playout(game, 9)
    assert [str(x) for x in a.actions] == [str(x) for x in b.actions]
    assert game.state_to_json(a.states[-1]) == game.state_to_json(b.states[-1])


# == the spec and this file ======================================================================

@pytest.mark.parametrize("name", sorted(VARIANT_FILES))
def test_variant_file_turns_exactly_its_switch(name):
    """Each variant file is the base with one decision of §6 turned (PA-D2 … PA-D13, PA-S1)."""
    g = rules(name)
    assert g.options == {**DEFAULTS, **VARIANT_FILES[name]}
    assert g.name.startswith("Paris: City of Light (") and (g.min_players, g.max_players) == (2, 2)


def test_every_variant_file_is_listed():
    assert shipped_variants(VARIANTS, "paris") == set(VARIANT_FILES)


def test_a_variant_card_set_plays(game):
    """PA-S1: another eight cards (all four left out of the first-game set) play to the end."""
    g = rules("all-postcards-b")
    po = Playout(g, 4)
    assert g.outcome(po.states[-1]) is not None
    assert sorted(names(g, po.states[0], "in_play")) == sorted(VARIANT_FILES["all-postcards-b"]["postcards"])


def test_every_rule_id_of_the_spec_is_named_by_a_test():
    """Every rule ID and worked example of the spec is named by a test of
    this file (its name, a parameter id or its docstring)."""
    assert unnamed_rule_ids(SPEC, "PA", sys.modules[__name__]) == []


def test_the_spec_board_b_is_this_file_s(game):
    """The board B of this file is the spec's (§7)."""
    if not SPEC.exists():
        pytest.skip(f"spec not found at {SPEC}")
    text = SPEC.read_text(encoding="utf-8")
    assert LAYOUT in text
    rows = dict(re.findall(r"y(\d) ([bmoL]{8})", text))
    assert [rows[str(y)] for y in range(8)] == CELLS

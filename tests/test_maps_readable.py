"""Maps that read as boards: `label by` shows a value with each piece where
it lies (a view's `label_by`, each entry's `label`), a compact hex map keeps
each hex's name beside what lies on it where the screen is wide enough,
owners read by a seat mark as well as by colour, and the labels are listed
under the map. Samurai labels each settlement with the players' influence
on it, Lanterns each tile with a platform — both checked here against plain
Python over seeded games."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from interpreter import load_rulebook
from interpreter.game.engine import Game
from interpreter.language.loader import compile_ir
from interpreter.terminal.render import render_to_text
from interpreter.terminal.render_boards import HexView, GridView

ROOT = Path(__file__).resolve().parent.parent
LABELS = ROOT / "tests" / "language" / "valid-label-by.rules"
WIDTH = 120


def zone(view: dict, name: str) -> dict:
    return next(z for z in view["zones"] if z["name"] == name)


def played(game, players: int, seed: int, steps: int):
    """The states of a seeded random game, every `steps` decisions and at its end."""
    rng = random.Random(seed)
    state = game.new_game(players=players, seed=seed)
    for step in range(10_000):
        if step % steps == 0 or game.outcome(state) is not None:
            yield state
        if game.outcome(state) is not None:
            return
        state = game.apply(state, rng.choice(list(game.legal_actions(state, game.to_move(state)[0]))))


# -- the view ------------------------------------------------------------------------

def test_a_label_is_in_the_view_where_its_value_is_not_none():
    game = load_rulebook(str(LABELS))
    state = game.new_game(players=2, seed=1)
    for text in ("put ka, 21", "put ma, 21"):
        action = next(a for a in game.legal_actions(state, game.to_move(state)[0]) if str(a) == text)
        state = game.apply(state, action)
    view = game.view(state, 0)
    hexes = {h["piece"]: h for h in zone(view, "map")["hexes"]}
    assert zone(view, "map")["label_by"] == "crowd"
    assert hexes["21"]["label"] == 2 and "label" not in hexes["20"]     # a town; land: none
    assert all("label_by" not in z for z in view["zones"] if z["name"] not in ("map", "yard"))


def test_a_label_leaves_the_fingerprint_as_it_was():
    text = LABELS.read_text(encoding="utf-8")
    without = text.replace(", label by crowd", "").replace(", label by weight", "")
    assert Game(compile_ir(without, "l.rules", LABELS.parent)).fingerprint == \
        load_rulebook(str(LABELS)).fingerprint


# -- the shipped labels, against plain Python ----------------------------------------

def leaders_at(view: dict, settlement: dict, players: int) -> list:
    """SM-P8, SM-P9 by hand: for each caste of the settlement's markers, in
    the order the map draws them (by name), the one player with the most
    influence of that caste around it — each tile adds its value to each
    caste it bears — or None where two or more tie for the most."""
    castes = sorted({m for hold in settlement["holds"] if hold["zone"] == "board_marker"
                     for m in hold["pieces"]})
    out = []
    for caste in castes:
        influence = [0] * players
        for h in zone(view, "map")["hexes"]:
            if not _touch(settlement, h):
                continue
            for hold in h["holds"]:
                if hold["zone"] == "board_tile" and hold["pieces"]:
                    tile = SAMURAI_TILES[hold["pieces"][0]]
                    if caste in tile["castes"]:
                        influence[hold["owners"][0]] += tile["influence"]
        most = max(influence)
        out.append(f"P{influence.index(most)}" if influence.count(most) == 1 else None)
    return out


def _touch(a: dict, b: dict) -> bool:
    """Odd-q neighbours: odd columns half a hex lower."""
    dx, dy = b["x"] - a["x"], b["y"] - a["y"]
    if dx == 0:
        return abs(dy) == 1
    if abs(dx) != 1:
        return False
    return dy in ((0, 1) if a["x"] % 2 else (-1, 0))


SAMURAI_TILES: dict = {}


@pytest.mark.parametrize("players,seed", [(2, 4), (4, 1)])     # seeds whose games have ties
def test_samurai_labels_each_settlement_with_the_leader_of_each_caste_SM_P8_SM_P9(players, seed):
    samurai = load_rulebook("samurai")
    tiles = next(c for c in samurai.ir["components"] if c["name"] == "tile")["rows"]
    SAMURAI_TILES.update({row["cells"]["id"]["value"]: {
        "castes": [c["value"] for c in row["cells"]["castes"]["items"]],
        "influence": (row["cells"].get("influence") or {}).get("value") or 0} for row in tiles})
    labelled = ties = 0
    for state in played(samurai, players, seed=seed, steps=5):
        view = samurai.view(state, 0)
        assert zone(view, "map")["label_by"] == "leaders"
        for h in zone(view, "map")["hexes"]:
            want = leaders_at(view, h, players)
            if any(want):
                assert h.get("label") == want, h["piece"]
                labelled += 1
                ties += None in want
            else:
                assert "label" not in h, h["piece"]
    assert labelled > 10 and ties                        # (a tie shows as none)


def test_lanterns_marks_each_tile_with_a_platform():
    lanterns = load_rulebook("lanterns")
    seen = 0
    for state in played(lanterns, 2, seed=3, steps=6):
        view = lanterns.view(state, 0)
        platform = {r["name"]: r["platform"] for r in view["components"]["lake_tile"]}
        for cell in zone(view, "lake")["grid"]:
            assert cell.get("label") == ("P" if platform[cell["piece"]] else None)
            seen += platform[cell["piece"]]
    assert seen


# -- the compact hex map --------------------------------------------------------------

def row_of(text: str, y: int) -> str:
    """Row y of a drawn map (the line after the columns' numbers that starts with y)."""
    return next(line for line in text.splitlines()[1:] if line.split()[:1] == [str(y)])


def a_map(columns: int) -> list:
    """A row of hexes 100 … on land: each odd one holds a tile of P0 or P1,
    every sixth from 100 on is a settlement with markers and a label."""
    cells = []
    for x in range(columns):
        holds = []
        if x % 2:
            holds = [{"zone": "tile", "count": 1, "pieces": [f"ship{x % 3}b"], "owners": [x % 4 // 2]}]
        entry = {"piece": str(100 + x), "x": x, "y": 0, "shade": "land", "holds": holds}
        if x % 6 == 0:
            entry["holds"] = [{"zone": "marker", "count": 2, "pieces": ["rice", "castle"]}]
            entry["label"] = [x, 1]
        cells.append(entry)
    return cells


def test_a_compact_hex_reads_its_name_then_its_pieces_with_their_owners_seats():
    text = render_to_text(HexView(a_map(6), compact=True, label_by="influence"), WIDTH)
    row = row_of(text, 0)
    assert "l 100 RC" in row and "l 101 S1b⁰" in row and "l 103 S0b¹" in row and "l 105 S2b⁰" in row
    assert "seats: ⁰ P0 · ¹ P1" in text
    assert "influence: 100: 0 1" in text                  # the labels under the map
    assert "'board'" not in text                          # nothing left out


def test_a_narrower_screen_keeps_the_labelled_hexes_names_then_only_the_pieces():
    cells = a_map(15)
    widths = {}
    for width in (120, 100, 85):
        text = render_to_text(HexView(cells, compact=True, label_by="influence"), width)
        widths[width] = text
        assert all(len(line) <= width for line in text.splitlines()) and "\n\n" not in text
    wide, labelled, bare = (row_of(widths[w], 0) for w in (120, 100, 85))
    assert "101 S1b⁰" in wide and "106 RC" in wide
    assert "106 RC" in labelled and "101" not in labelled and "S1b⁰" in labelled
    assert "106" not in bare and "RC" in bare and "S1b⁰" in bare
    # names hidden: where the labelled hexes are, and what 'board' shows
    assert "106 (6,0): 6 1" in widths[85] and "'board': names under pieces" in widths[85]


def test_labels_past_two_lines_are_left_to_board():
    cells = [{"piece": str(100 + x), "x": x, "y": 0, "holds": [], "label": [x, x, x, x]}
             for x in range(40)]
    text = render_to_text(HexView(cells, compact=True, label_by="influence"), 80)
    assert "influence:" not in text and "'board': influence" in text
    full = render_to_text(HexView(cells, label_by="influence"), 80)
    assert "101: 1 1 1 1" not in full and "110: 10 10 10 10" in full   # on its hex, else in the key
    assert "influence: after the pieces on a hex" in full


def test_the_full_map_draws_a_label_on_its_hex_where_it_fits():
    cells = [{"piece": "Edo", "x": 0, "y": 0, "shade": "town", "label": [8, 0],
              "holds": [{"zone": "marker", "count": 3, "pieces": ["buddha", "castle", "rice"]}]}]
    lines = render_to_text(HexView(cells, label_by="influence"), WIDTH).splitlines()
    assert any("BCR 8 0" in line for line in lines)
    assert lines[-1] == "influence: after the pieces on a hex"             # what the numbers are


def test_a_square_grid_writes_its_labels_after_the_sides_and_says_what_they_are():
    cells = [{"cell": "(0,0)", "x": 0, "y": 0, "piece": "35", "sides": ["red", "blue", "red", "blue"],
              "label": "P"},
             {"cell": "(1,0)", "x": 1, "y": 0, "piece": "4", "sides": ["red", "red", "red", "red"]}]
    for compact in (True, False):
        lines = render_to_text(GridView(cells, compact=compact, label_by="platform_sign"),
                               WIDTH).splitlines()
        assert lines[-1] == f"after the {'sides' if compact else 'name'}, platform_sign: P"
        assert any("35 P" in line or "35 rbrb P" in line for line in lines)


def test_a_grid_with_many_labels_names_them_without_listing_them():
    cells = [{"cell": f"({x},0)", "x": x, "y": 0, "piece": str(x), "label": 100 + x} for x in range(30)]
    lines = render_to_text(GridView(cells, compact=True, label_by="height"), 80).splitlines()
    assert lines[-1] == "after the name, height"


def test_a_label_of_lists_reads_each_list_apart():
    cells = [{"piece": "9", "x": 0, "y": 0, "holds": [], "label": [[2, 0], [1, 3]]}]
    assert "9: 2 0 / 1 3" in render_to_text(HexView(cells, compact=True, label_by="votes"), WIDTH)

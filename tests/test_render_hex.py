"""Zones laid out as hex maps (`hexes at X, Y, shade by NAME`): the view's
`hexes` data — positions, shades, what lies on each hex as far as the viewer
may see — and the drawing of the map with the hexes a legal action names
marked, in full (two lines a hex) and compact (a line a row, the whole map
in 120 columns), each with its key. The game is tests/engine/hexes.rules:
seven hexes, a stone zone and a hidden coin zone on each hex; the compact map
is also tried on the largest shipped map, Samurai's, through whole games.
"""

from __future__ import annotations

import io
import json
import random
import re
from pathlib import Path

import pytest
from rich.console import Console

from interpreter import load_rulebook
from interpreter.terminal.render import TableView, render_to_text
from interpreter.terminal.render_boards import HexView

RULES = Path(__file__).parent / "engine" / "hexes.rules"
WIDTH = 120


@pytest.fixture(scope="module")
def game():
    return load_rulebook(str(RULES))


def hexes(view):
    return next(z for z in view["zones"] if z["name"] == "map")["hexes"]


def put(game, state, stone, hex_name):
    player = game.to_move(state)[0]
    action = next(a for a in game.legal_actions(state, player) if str(a) == f"put {stone}, {hex_name}")
    return game.apply(state, action)


@pytest.fixture(scope="module")
def played(game):
    """P0 puts ka on 10, P1 puts ma on 13: P0 to move."""
    state = game.new_game(players=2, seed=1)
    return put(game, put(game, state, "ka", "10"), "ma", "13")


def test_each_hex_has_its_position_and_shade(game, played):
    entries = hexes(game.view(played, 0))
    assert [(e["piece"], e["x"], e["y"]) for e in entries] == [
        ("10", 0, 0), ("11", 1, 0), ("12", 2, 0), ("13", 0, 1), ("14", 1, 1), ("15", 2, 1), ("16", 1, 2)]
    assert {e["piece"]: e["shade"] for e in entries} == {
        "10": "green", "11": "blue", "12": "green", "13": "green", "14": "town", "15": "green",
        "16": "blue"}
    json.dumps(entries)   # plain JSON


def test_holds_lists_the_zones_of_each_hex_with_owners(game, played):
    at = {e["piece"]: e for e in hexes(game.view(played, 1))}
    assert at["10"]["holds"][0] == {"zone": "on", "count": 1, "pieces": ["ka"], "owners": [0]}
    assert at["13"]["holds"][0] == {"zone": "on", "count": 1, "pieces": ["ma"], "owners": [1]}
    assert at["12"]["holds"][0] == {"zone": "on", "count": 0, "pieces": []}
    assert all(e["holds"][1]["zone"] == "cache" for e in at.values())


def test_a_hidden_zone_on_a_hex_shows_only_its_size(game, played):
    for viewer in (0, 1, None):
        view = game.view(played, viewer)
        caches = {e["piece"]: e["holds"][1] for e in hexes(view)}
        assert caches["14"] == {"zone": "cache", "count": 1, "pieces": None}
        assert all(c["pieces"] is None for c in caches.values())
        assert '"1"' not in json.dumps(hexes(view))   # the coin's face is nowhere


def test_zones_without_hexes_have_no_hexes_key(game, played):
    view = game.view(played, 0)
    assert [z["name"] for z in view["zones"] if "hexes" in z] == ["map"]


def test_the_map_is_drawn_with_pieces_and_legal_marks(game, played):
    view = game.view(played, 0)
    actions = [str(a) for a in game.legal_actions(played, 0)]
    out = render_to_text(TableView(view, actions, compact=False), WIDTH)
    drawing = out[out.index("map ·"):out.index("Used:")]
    lines = drawing.splitlines()
    assert "ka" in drawing and "ma" in drawing
    legal = {a.rsplit(", ", 1)[1] for a in actions}
    assert legal == {"12", "14", "15"}
    assert all(f"*{name}" in drawing for name in legal)
    assert not any(f"*{name}" in drawing for name in ("10", "11", "13", "16"))
    assert "(1)" in drawing                       # the hidden coin, counted
    # odd columns half a hex lower: 11 (x 1) is one line below 10 and 12 (x 0, 2)
    row = {name: i for i, line in enumerate(lines) for name in re.findall(r"\b1\d\b", line)}
    assert row["11"] == row["10"] + 1 == row["12"] + 1 and row["13"] == row["10"] + 2
    # coordinates along the edges: the columns on top, the rows on the left
    assert lines[1].split() == ["0", "1", "2"]
    assert lines[2].lstrip().startswith("0 /") and any(line.lstrip().startswith("1 /") for line in lines)
    # the hexes and their stones leave the zone table
    assert not re.search(r"^(map|on|cache)\b", out[:out.index("map ·")], re.M)
    assert all(len(line) <= WIDTH for line in out.splitlines())


def test_pieces_are_drawn_on_their_owners_colour():
    cells = [{"piece": "A", "x": 0, "y": 0, "shade": "sea",
              "holds": [{"zone": "on", "count": 2, "pieces": ["p", "q"], "owners": [0, 1]}]}]
    console = Console(record=True, width=60, file=io.StringIO(), color_system="truecolor",
                      force_terminal=True, legacy_windows=False)
    console.print(HexView(cells))
    styled = console.export_text(styles=True, clear=False)
    marks = dict((text, codes) for codes, text in re.findall(r"\x1b\[([\d;]+)m([^\x1b]+)", styled))
    assert marks["P⁰"].endswith(";41") and marks["Q¹"].endswith(";44")   # red, then blue, as initials


def test_a_wide_map_is_drawn_in_bands():
    cells = [{"piece": f"h{x}", "x": x, "y": 0, "holds": []} for x in range(30)]
    text = render_to_text(HexView(cells), 80)
    assert all(len(line) <= 80 for line in text.splitlines())
    headers = [line for line in text.splitlines() if line.split()[:2] in (["0", "1"], ["15", "16"])]
    assert len(headers) == 2
    assert all(re.search(rf"\bh{x}\b", text) for x in range(30))


def test_the_map_has_a_key_for_its_letters_and_colours():
    cells = [{"piece": "A", "x": 0, "y": 0, "shade": "sea",
              "holds": [{"zone": "on", "count": 2, "pieces": ["pawn", "queen"], "owners": [0, 1]}]},
             {"piece": "B", "x": 1, "y": 0, "shade": "land", "holds": []},
             {"piece": "C", "x": 2, "y": 0, "shade": "sand", "holds": []}]
    lines = render_to_text(HexView(cells), 80).splitlines()
    assert "shades: la land · sa sand · se sea" in lines
    assert "pieces: P pawn · Q queen" in lines and "seats: ⁰ P0 · ¹ P1" in lines
    plain = [{"piece": "A", "x": 0, "y": 0, "shade": "x", "holds": []}]
    assert not any(line.startswith(("shades:", "pieces:", "seats:"))   # nothing to spell out
                   for line in render_to_text(HexView(plain), 80).splitlines())


# -- the compact map: one line per row, the whole map in 120 columns -----------------

def test_the_compact_map_is_a_line_per_row_with_names_pieces_and_shades(game, played):
    view = game.view(played, 0)
    legal = {str(a).rsplit(", ", 1)[1] for a in game.legal_actions(played, 0)}
    text = render_to_text(HexView(hexes(view), legal, compact=True), WIDTH)
    assert [line.rstrip() for line in text.splitlines()] == [
        "     0        1      2",
        "0 g 10 ka⁰ b 11     g*12",      # a shade's letter, the hex's name, its stone and owner
        "1 g 13 ma¹ t*14 (1) g*15",      # 14 (a hidden coin on it) is legal: '*' before its name
        "2          b 16",
        "odd columns sit half a hex lower: hex (x,y) touches rows y, y+1 of columns x±1 if x is "
        "odd, rows y-1, y if x is even",
        "shades: b blue · g green · t town   seats: ⁰ P0 · ¹ P1"]


def test_the_full_map_is_drawn_as_before(game, played):
    view = game.view(played, 0)
    legal = {str(a).rsplit(", ", 1)[1] for a in game.legal_actions(played, 0)}
    text = render_to_text(HexView(hexes(view), legal), WIDTH)
    assert [line.rstrip() for line in text.splitlines()] == [
        "    0   1   2",
        "0 /10 \\   /*12\\",
        "  \\ka⁰/11 \\ g /",
        "1 /13 \\ b /*15\\",
        "  \\ma¹/*14\\ g /",
        "2     \\(1)/",
        "      /16 \\",
        "      \\ b /",
        "shades: b blue · g green · t town",
        "seats: ⁰ P0 · ¹ P1"]


def snapshots(game, players: int, seed: int, every: int):
    """(view of the player to move, the legal actions' texts) every `every`
    steps of a seeded random game, and at its end."""
    rng = random.Random(seed)
    state = game.new_game(players=players, seed=seed)
    for step in range(10_000):
        to_move = game.to_move(state)
        player = to_move[0] if to_move else 0
        actions = list(game.legal_actions(state, player)) if to_move else []
        if step % every == 0 or not actions:
            yield game.view(state, player), [str(a) for a in actions]
        if not actions:
            return
        state = game.apply(state, rng.choice(actions))


def key_entries(lines: list, title: str) -> dict:
    """The entries of a key's section ('pieces …: B buddha · C castle' → {'B': 'buddha', …})."""
    line = next(line for line in lines if line.startswith(title) or f"   {title}" in line)
    section = line[line.index(title):].split(":", 1)[1].split("   ")[0]
    return dict(entry.split(" ", 1) for entry in section.strip().split(" · "))


COMPACT_LINES = 29    # the largest shipped map, with its key: 30 with the title over it


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_shipped_map_fits_120_columns_whole_at_every_point(players):
    samurai = load_rulebook("samurai")
    for view, actions in snapshots(samurai, players, seed=players, every=40):
        cells = hexes(view)
        names = {h["piece"] for h in cells}
        legal = {arg for t in actions for arg in t.partition(" ")[2].split(", ")} & names
        lines = render_to_text(HexView(cells, legal, compact=True), WIDTH).splitlines()
        xs, ys = sorted({h["x"] for h in cells}), sorted({h["y"] for h in cells})
        assert all(len(line) <= WIDTH for line in lines)
        assert len(lines) <= COMPACT_LINES and "" not in lines           # one block, no bands
        assert lines[0].split() == [str(x) for x in range(xs[0], xs[-1] + 1)]
        rows = lines[1:1 + ys[-1] - ys[0] + 1]
        assert [int(line.split()[0]) for line in rows] == list(range(ys[0], ys[-1] + 1))
        row = {int(line.split()[0]): line for line in rows}
        # each legal hex by the name to type, and no other hex marked
        assert sum(line.count("*") for line in rows) == len(legal)
        assert all(f"*{h['piece']}" in row[h["y"]] for h in cells
                   if h["piece"] in legal and h["piece"].isdigit())
        assert "odd columns sit half a hex lower" in lines[1 + len(rows)]
        assert "shades: b blue · g green · y yellow" in "\n".join(lines)
        tiles = [(h, p) for h in cells if h["piece"] not in legal
                 for hold in h["holds"] if hold["zone"] == "board_tile" for p in hold["pieces"]]
        if tiles:    # a tile as the letter of its word, then the rest of its name
            letters = {word: letter for letter, word in key_entries(lines, "pieces").items()}
            for h, piece in tiles:
                word = re.match(r"[a-z_]*[a-z]", piece).group()
                assert letters[word] + piece[len(word):] in row[h["y"]]
            assert "seats: " in "\n".join(lines)


def test_long_names_are_shortened_and_spelled_out_in_the_key():
    cells = [{"piece": name, "x": x, "y": 0, "shade": "land", "holds": []}
             for x, name in enumerate(["Harbourtown", "Hillside", *map(str, range(10, 20))])]
    lines = render_to_text(HexView(cells, {"Hillside", "11"}, compact=True), 66).splitlines()
    assert len(lines[1]) <= 66 and lines[1].startswith("0 l Harb l*Hill l 10 l*11 l 12")
    assert lines[-1].endswith("names: Harb Harbourtown · Hill Hillside")
    wide = render_to_text(HexView(cells, compact=True), WIDTH).splitlines()    # room enough
    assert "l Harbourtown l Hillside" in wide[1] and not any("names:" in line for line in wide)


def test_long_piece_names_go_by_a_letter_of_their_word_and_the_key_says_which():
    holds = [("wagon2", 0), ("wall1b", 1), ("wagon3", 2), ("tower", None)]
    cells = [{"piece": str(10 + x), "x": x, "y": 0, "shade": "field",
              "holds": [{"zone": "on", "count": 1, "pieces": [piece], "owners": [owner]}]}
             for x, (piece, owner) in enumerate(holds)]
    lines = render_to_text(HexView(cells, compact=True), WIDTH).splitlines()
    assert lines[1].rstrip() == "0 f 10 W2⁰ f 11 A1b¹ f 12 W3² f 13 T"   # wall: its next letter, A
    assert "pieces (W2 is wagon2): A wall · T tower · W wagon" in lines[3]


def test_a_compact_map_too_wide_for_the_screen_keeps_a_line_per_row_in_bands():
    cells = [{"piece": f"h{x}", "x": x, "y": x % 2, "holds": []} for x in range(40)]
    lines = render_to_text(HexView(cells, compact=True), 80).splitlines()
    bands = lines.count("") + 1
    assert all(len(line) <= 80 for line in lines) and bands > 1
    assert [line.split()[0] for line in lines if line[:2] in ("0 ", "1 ")] == ["0", "1"] * bands
    assert all(re.search(rf"\bh{x}\b", "\n".join(lines)) for x in range(40))


def test_no_seat_wears_the_colour_of_a_shade_on_the_map():
    """Pieces of P0 … P3 on land, sea and town shaded green, blue and yellow:
    the seats take colours that none of the shades has (an issue report: one
    player's tiles were the land's green)."""
    cells = [{"piece": str(x), "x": x, "y": 0, "shade": shade,
              "holds": [{"zone": "on", "count": 1, "pieces": [f"p{x}"], "owners": [x]}]}
             for x, shade in enumerate(["green", "blue", "yellow", "green"])]
    for compact in (False, True):
        console = Console(record=True, width=80, file=io.StringIO(), color_system="256",
                          force_terminal=True, legacy_windows=False)
        console.print(HexView(cells, compact=compact))
        styled = console.export_text(styles=True, clear=False)
        marks = dict((text, codes) for codes, text in re.findall(r"\x1b\[([\d;]+)m([^\x1b]+)",
                                                                 styled))
        grounds = {"42", "44", "43"}
        pieces = [marks[f"p{x}" + "⁰¹²³"[x]] for x in range(4)]   # each with its seat's mark
        backgrounds = [codes.split(";", 2)[-1] if "48;5" in codes else codes.rsplit(";", 1)[-1]
                       for codes in pieces]
        assert not grounds & set(backgrounds) and len(set(backgrounds)) == 4
        assert marks["p0⁰"].endswith(";41")               # P0 keeps its red

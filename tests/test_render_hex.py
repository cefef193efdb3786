"""Zones laid out as hex maps (`hexes at X, Y, shade by NAME`): the view's
`hexes` data — positions, shades, what lies on each hex as far as the viewer
may see — and the drawing of the map with the hexes a legal action names
marked. The game is tests/engine/hexes.rules: seven hexes, a stone zone and a
hidden coin zone on each hex.
"""

from __future__ import annotations

import io
import json
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
    out = render_to_text(TableView(view, actions), WIDTH)
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
    assert marks["P"].endswith(";41") and marks["Q"].endswith(";44")   # red, then blue, as initials


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
    assert "pieces: P pawn · Q queen" in lines and "seats: P0 · P1" in lines
    plain = [{"piece": "A", "x": 0, "y": 0, "shade": "x", "holds": []}]
    assert not any(line.startswith(("shades:", "pieces:", "seats:"))   # nothing to spell out
                   for line in render_to_text(HexView(plain), 80).splitlines())

"""Zones laid out on a square grid (`grid by CELL, sides by SIDE`): the
view's `grid` data, what hidden zones leave out, the drawing of the lake —
in full, three lines a row, and compact, a line a row that fits 120 columns
through whole games — with its key, and the placements chosen step by step.

The Lanterns tests ask the engine for the tiles in hand instead of
hard-coding a deal, so a change of shuffle does not break them.
"""

from __future__ import annotations

import io
import json
import random
import re

import pytest
from rich.console import Console

from interpreter import load_rulebook
from interpreter.stdlib.grid import turned
from interpreter.presentation.options import parameters
from interpreter.terminal.render import TableView, component_tables, legal_cells, render_to_text
from interpreter.terminal.render_boards import GridView

WIDTH = 120
SEED = 3


@pytest.fixture(scope="module")
def lanterns():
    return load_rulebook("lanterns")


def placement(game, state, cell, turns):
    """The first legal placement of any tile at `cell` with `turns`."""
    player = game.to_move(state)[0]
    for action in game.legal_actions(state, player):
        if str(action).endswith(f", {cell}, {turns}"):
            return action
    raise AssertionError(f"no placement at {cell} turned {turns}")


def skip_to_placement(game, state):
    """Pass the optional steps (exchange, dedicate) until a tile is placed."""
    while not any(a.name == "place" for a in game.legal_actions(state, game.to_move(state)[0])):
        player = game.to_move(state)[0]
        state = game.apply(state, next(a for a in game.legal_actions(state, player)
                                       if a.name == "pass"))
    return state


def lake_after(game, moves):
    """A 2-player game after placing at each (cell, turns) of `moves`:
    (state, {cell: (tile name, turns)})."""
    state = game.new_game(players=2, seed=SEED)
    placed = {"(0,0)": ("1", 0)}
    for cell, turns in moves:
        state = skip_to_placement(game, state)
        action = placement(game, state, cell, turns)
        placed[cell] = (str(action).split(" ")[1].rstrip(","), turns)
        state = game.apply(state, action)
    return skip_to_placement(game, state), placed


def zone(view, name):
    return next(z for z in view["zones"] if z["name"] == name)


MOVES = [("(1,0)", 1), ("(0,1)", 2), ("(1,1)", 3)]


def test_the_view_lists_each_placed_tile_with_its_turned_sides(lanterns):
    state, placed = lake_after(lanterns, MOVES)
    view = lanterns.view(state, 0)
    grid = zone(view, "lake")["grid"]
    sides_cw = {row["name"]: row["sides_cw"] for row in view["components"]["lake_tile"]}
    assert [e["cell"] for e in grid] == ["(0,1)", "(1,1)", "(0,0)", "(1,0)"]   # north row first
    for entry in grid:
        name, turns = placed[entry["cell"]]
        assert entry["piece"] == name
        assert (entry["x"], entry["y"]) == tuple(int(v) for v in entry["cell"][1:-1].split(","))
        assert entry["sides"] == turned(sides_cw[name], turns)
    json.dumps(view)   # plain JSON


def test_a_turn_shifts_the_sides_clockwise(lanterns):
    state, placed = lake_after(lanterns, [("(1,0)", 1)])
    entry = next(e for e in zone(lanterns.view(state, 1), "lake")["grid"] if e["cell"] == "(1,0)")
    sides_cw = {row["name"]: row["sides_cw"]
                for row in lanterns.view(state, 1)["components"]["lake_tile"]}[entry["piece"]]
    north, east, south, west = sides_cw
    assert entry["sides"] == [west, north, east, south]


def test_zones_without_a_grid_have_no_grid_key(lanterns):
    view = lanterns.view(lanterns.new_game(players=2, seed=SEED), 0)
    assert [z["name"] for z in view["zones"] if "grid" in z] == ["lake"]


HIDDEN = """\
game "Grid secrets"
players 2

component tile
  | id | sides                |
  | 1  | [red, red, red, red] |
  | 2  | [red, blue, red, red] |
  | 3  | [blue, blue, red, red] |
  has spot: cell = none
define side(t, d) = t.sides[d]

zone bag: tile, hidden, grid by spot, sides by side
zone mine of each player: tile, owner, grid by spot
zone board: tile, public, grid by spot, sides by side

setup
  for each t in tile
    set t.spot = cell(t.id, 0)
  move [t in tile where t.id == 1] to bag
  move [t in tile where t.id == 2] to mine(0)
  move [t in tile where t.id == 3] to board

phase play
  for each p in players
    turn p
      p takes an action

action wait

scoring
  score = 0
"""


def test_hidden_zones_give_no_grid(tmp_path):
    path = tmp_path / "secrets.rules"
    path.write_text(HIDDEN, encoding="utf-8")
    game = load_rulebook(path)
    state = game.new_game(players=2, seed=1)
    for viewer, mine in ((0, [{"cell": "(2,0)", "x": 2, "y": 0, "piece": "2"}]), (1, None), (None, None)):
        view = game.view(state, viewer)
        assert "grid" not in zone(view, "bag")
        owned = next(z for z in view["zones"] if z["name"] == "mine" and z["owner"] == 0)
        assert owned.get("grid") == mine
        assert zone(view, "board")["grid"] == [
            {"cell": "(3,0)", "x": 3, "y": 0, "piece": "3", "sides": ["blue", "blue", "red", "red"]}]
        shown = json.dumps(view["zones"])
        assert '"1"' not in shown and "(1,0)" not in shown   # the bag's tile is nowhere


def recorded(renderable, width=WIDTH, **colour) -> Console:
    """A recording console that has printed `renderable` (to nowhere)."""
    options = {"color_system": None, "force_terminal": False, **colour}
    console = Console(record=True, width=width, file=io.StringIO(), legacy_windows=False,
                      **options)
    console.print(renderable)
    return console


def test_the_screen_draws_the_lake_and_marks_the_legal_cells(lanterns):
    state, placed = lake_after(lanterns, MOVES)
    player = lanterns.to_move(state)[0]
    actions = [str(a) for a in lanterns.legal_actions(state, player)]
    out = recorded(TableView(lanterns.view(state, player), actions, compact=False)).export_text()
    drawing = out[out.index("lake ·"):out.index("Used:")]
    rows = drawing.splitlines()
    for cell, (name, _) in placed.items():
        assert re.search(rf"\b{name}\b", drawing), f"tile {name} at {cell} is not drawn"
    cells = legal_cells(actions)
    assert cells and all(f"· ({x},{y})" in drawing for x, y in cells)
    assert not any(f"· {cell}" in drawing for cell in placed)   # taken cells are not offered
    # north at the top: rows labelled y, from the largest down (after the x header)
    y_rows = [int(m.group(1)) for line in rows[2:] for m in [re.match(r"^\s*(-?\d+) ", line)] if m]
    assert y_rows == sorted(y_rows, reverse=True) and 1 in y_rows and 0 in y_rows
    assert all(len(line) <= WIDTH for line in out.splitlines())


def test_sides_show_their_first_letters_around_the_name(lanterns):
    state, placed = lake_after(lanterns, [])
    text = render_to_text(GridView(zone(lanterns.view(state, 0), "lake")["grid"]), 60)
    # the start tile: red north, white east, black south, blue west
    north, middle, south, key = [line for line in text.splitlines()[1:] if line.strip()]
    assert north.strip() == "red" and south.strip() == "bla"
    assert middle.split()[1:] == ["blu", "1", "whi"]
    assert key == "sides: bla black · blu blue · whi white"     # the key to the marks


def test_colour_names_are_drawn_in_their_colour():
    console = recorded(GridView([{"cell": "(0,0)", "x": 0, "y": 0, "piece": "A",
                                  "sides": ["red", "blue", "koi", "black"]}]),
                       60, color_system="truecolor", force_terminal=True)
    styled = console.export_text(styles=True, clear=False)
    marks = dict((text, codes) for codes, text in re.findall(r"\x1b\[([\d;]+)m([^\x1b]+)", styled))
    assert marks["red"].endswith(";41") and marks["blu"].endswith(";44")   # as backgrounds
    assert marks["bla"] == "1;97;40"                 # light letters on black
    assert marks["koi"] == "1" and marks[" A "] == "1"   # not a colour: letters only


def test_a_wide_lake_is_drawn_in_bands():
    cells = [{"cell": f"({x},0)", "x": x, "y": 0, "piece": str(x)} for x in range(20)]
    text = render_to_text(GridView(cells), 80)
    headers = [line for line in text.splitlines() if line.split() and line.split()[0] == "0"
               and len(line.split()) > 3]
    assert len(headers) >= 2 and all(len(line) <= 80 for line in text.splitlines())
    assert all(re.search(rf"\b{x}\b", text) for x in range(20))


def test_placements_are_chosen_step_by_step(lanterns):
    """Dozens of placements: the screen names the action and what its
    parameters may be, for a choice one step at a time, not a numbered list."""
    state = lanterns.new_game(players=2, seed=SEED)
    player = lanterns.to_move(state)[0]
    actions = [str(a) for a in lanterns.legal_actions(state, player)]
    out = render_to_text(TableView(lanterns.view(state, player), actions,
                                   parameters(lanterns.ir)), WIDTH)
    assert f"Legal actions ({len(actions)}), step by step: place … — choose a tile" in out
    assert not re.search(r"^ +1\. place", out, re.M)       # no numbered list of placements
    assert len(out.splitlines()) <= 40


def test_a_public_score_is_in_every_view_and_a_plain_one_in_none():
    """`score = …, public` (Lanterns' honour lies face up) shows every
    player's score in every view; without it no view holds a score."""
    lanterns = load_rulebook("lanterns")
    s = lanterns.new_game(3, 2)
    for viewer in (0, 1, None):
        assert lanterns.view(s, viewer)["player_variables"]["score"] == {"P0": 0, "P1": 0, "P2": 0}
    hanamikoji = load_rulebook("hanamikoji")
    h = hanamikoji.new_game(2, 2)
    assert "score" not in hanamikoji.view(h, 0)["player_variables"]


def test_pieces_on_a_grid_get_no_component_table():
    lanterns = load_rulebook("lanterns")
    s = lanterns.new_game(2, 1)
    tables = component_tables(lanterns.view(s, 0))
    assert all(t.title != "lake_tile" for t in tables)


# -- the compact lake: one line per row -------------------------------------------------

def test_the_compact_lake_gives_each_tile_its_name_and_sides_in_one_line(lanterns):
    state, _ = lake_after(lanterns, [])
    player = lanterns.to_move(state)[0]
    legal = legal_cells([str(a) for a in lanterns.legal_actions(state, player)])
    text = render_to_text(GridView(zone(lanterns.view(state, player), "lake")["grid"], legal,
                                   compact=True), WIDTH)
    # the start tile: red north, white east, black south, blue west
    assert [line.rstrip() for line in text.splitlines()] == [
        "      -1       0        1",
        " 1          · (0,1)",
        " 0 · (-1,0)  1 rwbl  · (1,0)",
        "-1          · (0,-1)",
        "sides, N E S W after the name: b black · l blue · r red · w white"]


def playout_lakes(game, players: int, seed: int, every: int):
    """(the lake's grid, the legal cells) every `every` steps of a seeded
    random game, and at its end."""
    rng = random.Random(seed)
    state = game.new_game(players=players, seed=seed)
    for step in range(10_000):
        to_move = game.to_move(state)
        player = to_move[0] if to_move else 0
        actions = list(game.legal_actions(state, player)) if to_move else []
        if step % every == 0 or not actions:
            yield zone(game.view(state, player), "lake")["grid"], \
                legal_cells([str(a) for a in actions])
        if not actions:
            return
        state = game.apply(state, rng.choice(actions))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_compact_lake_fits_120_columns_whole_through_a_game(lanterns, players):
    for grid, legal in playout_lakes(lanterns, players, seed=players, every=8):
        lines = render_to_text(GridView(grid, legal, compact=True), WIDTH).splitlines()
        spots = {(c["x"], c["y"]) for c in grid} | legal
        ys = sorted({y for _, y in spots}, reverse=True)
        assert all(len(line) <= WIDTH for line in lines) and "" not in lines    # no bands
        rows = lines[1:1 + ys[0] - ys[-1] + 1]                   # north first, one line each
        assert [int(line.split()[0]) for line in rows] == list(range(ys[0], ys[-1] - 1, -1))
        labelled = any(c.get("label") for c in grid)
        assert len(lines) == len(rows) + 2 + labelled   # the header, the sides' key, the labels'
        if labelled:                                    # what the P after a tile's sides is
            assert lines[-1] == "after the sides, labels: P"    # (named by the view's label_by)
        key = lines[-1 - labelled]
        letters = dict(entry.split(" ")[::-1] for entry in key.split(": ", 1)[1].split(" · "))
        row = {int(line.split()[0]): line for line in rows}
        for c in grid:
            label = " P" if c.get("label") else ""
            assert f"{c['piece']} {''.join(letters[v] for v in c['sides'])}{label}" in row[c["y"]]
        assert all(f"· ({x},{y})" in row[y] for x, y in legal - {(c["x"], c["y"]) for c in grid})


def test_a_compact_lake_too_wide_shortens_its_legal_cells_not_its_rows():
    cells = [{"cell": "(0,0)", "x": 0, "y": 0, "piece": "1", "sides": ["red", "white", "black", "blue"]}]
    legal = {(x, y) for x in range(-6, 7, 3) for y in (-1, 1)}
    wide, narrow = (render_to_text(GridView(cells, legal, compact=True), w).splitlines()
                    for w in (WIDTH, 50))
    assert wide[1].split()[1:] == ["·", "(-6,1)", "·", "(-3,1)", "·", "(0,1)", "·", "(3,1)", "·",
                                   "(6,1)"]
    assert narrow[1].split() == ["1", "·", "·", "·", "·", "·"] and narrow[2].split() == ["0", "1", "rwbl"]
    assert all(len(line) <= 50 for line in narrow) and "" not in narrow   # still one band


def test_compact_sides_are_drawn_in_their_colour():
    console = recorded(GridView([{"cell": "(0,0)", "x": 0, "y": 0, "piece": "A",
                                  "sides": ["red", "blue", "koi", "black"]}], compact=True),
                       60, color_system="truecolor", force_terminal=True)
    styled = console.export_text(styles=True, clear=False)
    marks = dict((text, codes) for codes, text in re.findall(r"\x1b\[([\d;]+)m([^\x1b]+)", styled))
    assert console.export_text().splitlines()[1].split() == ["0", "A", "rlkb"]
    assert marks["r"].endswith(";41") and marks["l"].endswith(";44") and marks["b"] == "1;97;40"
    assert marks["k"] == "1"                            # not a colour: a bold letter

"""Declared grids (`grid NAME: W by H, shade by …, mark by …`): the view's
`grids` entry — each cell's shade and mark as text and its variables —
and the board the REPL draws: row 0 at the top, column and row numbers on
the edges, marks in their cells, `·` on the cells a legal action names,
tints on a colour console and none on a plain one, a key to the letters and
the seats; compact, a board shown once where shade and mark are one, and
shorter marks rather than bands. Also the check that
`shade by` / `mark by` name a variable of each cell or a define of one cell.
"""

from __future__ import annotations

import io
import json
import random
import re

import pytest
from rich.console import Console

from interpreter import load_rulebook
from interpreter.errors import RulebookErrors
from interpreter.terminal.render import TableView, legal_cells
from interpreter.terminal.render_boards import SHADES, BoardView, _tints

WIDTH = 80

CITY = """\
game "Board test"
players 2

component building
  | name  | size |
  | LINE  | 1    |
  | house | 2    |
  | tower | 3    |

grid city: 5 by 4, shade by ground, mark by label
variable ground of each city: symbol = none
variable cover of each city: building = none
variable owner of each city: player = none
variable points: number = 0
define label(c) = cover(c)

setup
  set ground(cell(0, 0)) = "blue"
  set ground(cell(1, 0)) = "orange"
  set ground(cell(4, 3)) = "forest"
  set cover(cell(1, 0)) = LINE
  set cover(cell(3, 2)) = house

phase play
  for each p in players
    turn p
      p takes an action

action build(at: one of [c in city where cover(c) == none and x_of(c) == 2])
  set cover(at) = tower
  set owner(at) = me

scoring
  score = 0
"""


def load(tmp_path, text, name="board.rules"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return load_rulebook(path)


@pytest.fixture
def city(tmp_path):
    return load(tmp_path, CITY)


def board(view, name="city"):
    return next(g for g in view["grids"] if g["name"] == name)


def test_the_view_lists_each_cell_with_its_shade_mark_and_variables(city):
    state = city.new_game(players=2, seed=1)
    for viewer in (0, 1, None):      # variables are public: every view holds the same board
        view = city.view(state, viewer)
        assert board(view) == {
            "name": "city", "width": 5, "height": 4, "shade_by": "ground", "mark_by": "label",
            "cells": {
                "(0,0)": {"shade": "blue", "variables": {"ground": "blue"}},
                "(1,0)": {"shade": "orange", "mark": "LINE",
                          "variables": {"ground": "orange", "cover": "LINE"}},
                "(3,2)": {"mark": "house", "variables": {"cover": "house"}},
                "(4,3)": {"shade": "forest", "variables": {"ground": "forest"}},
            }}
        # row 0 first, west to east: a fixed order, plain JSON
        assert list(board(view)["cells"]) == ["(0,0)", "(1,0)", "(3,2)", "(4,3)"]
        json.dumps(view)
        # the per-cell variables are in the board, not in the variables table
        assert view["variables"] == {"points": 0}


def test_a_move_shows_in_its_cell_and_a_player_keeps_its_seat(city):
    state = city.new_game(players=2, seed=1)
    state = city.apply(state, city.parse_action(state, 0, "build (2,1)"))
    cell = board(city.view(state, 1))["cells"]["(2,1)"]
    assert cell == {"mark": "tower", "variables": {"cover": "tower", "owner": "P0"}}


def test_a_player_mark_carries_its_seat(tmp_path):
    game = load(tmp_path, CITY.replace("mark by label", "mark by builder").replace(
        "define label(c) = cover(c)", "define builder(c) = owner(c)"))
    state = game.new_game(players=2, seed=1)
    state = game.apply(state, game.parse_action(state, 0, "build (2,3)"))
    assert board(game.view(state, 0))["cells"]["(2,3)"] == {
        "mark": "P0", "mark_seat": 0, "variables": {"cover": "tower", "owner": "P0"}}


def test_a_rulebook_without_grids_has_an_empty_list():
    game = load_rulebook("hanamikoji")
    assert game.view(game.new_game(2, 1), 0)["grids"] == []


def recorded(renderable, width=WIDTH, **colour) -> Console:
    """A recording console that has printed `renderable` (to nowhere)."""
    options = {"color_system": None, "force_terminal": False, **colour}
    console = Console(record=True, width=width, file=io.StringIO(), legacy_windows=False,
                      **options)
    console.print(renderable)
    return console


def drawing_of(city, state, player):
    actions = [str(a) for a in city.legal_actions(state, player)]
    out = recorded(TableView(city.view(state, player), actions, compact=False)).export_text()
    return out, out[out.index("city ·"):out.index("Used:")].splitlines(), actions


def columns_of(header: str) -> dict:
    """x → the text column where the header writes x."""
    return {int(m.group()): m.start() for m in re.finditer(r"\d+", header)}


def column_at(header: str, position: int) -> int:
    """The x whose header number is nearest to a text column."""
    at = columns_of(header)
    return min(at, key=lambda x: abs(at[x] - position))


def test_the_board_is_drawn_row_0_first_with_numbers_marks_and_legal_cells(city):
    state = city.new_game(players=2, seed=1)
    out, lines, actions = drawing_of(city, state, 0)
    title, header, *rows = lines
    assert "5 by 4" in title and "row 0 at the top" in title
    assert header.split() == ["0", "1", "2", "3", "4"]
    assert [row.split()[0] for row in rows[:4]] == ["0", "1", "2", "3"]    # y grows down
    # every mark in its cell: LINE at (1,0), house (shortened) at (3,2)
    assert "LINE" in rows[0] and column_at(header, rows[0].index("LINE")) == 1
    assert "hous" in rows[2] and column_at(header, rows[2].index("hous")) == 3
    assert not any("LINE" in row or "hous" in row for i, row in enumerate(rows[:4]) if i not in (0, 2))
    # the shades' first letters: b at (0,0), o at (1,0), f at (4,3)
    assert column_at(header, rows[0].index("b")) == 0 and column_at(header, rows[0].index("o")) == 1
    assert column_at(header, rows[3].index("f")) == 4
    # the legal cells (2,0) … (2,3): one `·` in each row, in column 2
    assert legal_cells(actions) == {(2, y) for y in range(4)}
    for row in rows[:4]:
        assert row.count("·") == 1 and column_at(header, row.index("·")) == 2
    # the key spells out what the letters stand for
    assert "shade by ground: b blue · f forest · o orange" in out
    assert "mark by label: hous house" in out
    assert all(len(line) <= WIDTH for line in out.splitlines())


def test_a_taken_cell_loses_its_legal_mark(city):
    state = city.new_game(players=2, seed=1)
    state = city.apply(state, city.parse_action(state, 0, "build (2,1)"))
    _, lines, _ = drawing_of(city, state, 1)
    header, rows = lines[1], lines[2:6]
    assert "·" not in rows[1] and column_at(header, rows[1].index("towe")) == 2
    assert all(row.count("·") == 1 for i, row in enumerate(rows) if i != 1)


def test_an_8_by_8_board_fits_80_columns():
    cells = {f"({x},{y})": {"shade": ("forest", "water", "road")[(x + y) % 3],
                            "mark": f"building_{x}"} for x in range(8) for y in range(8)}
    grid = {"name": "city", "width": 8, "height": 8, "shade_by": "ground", "mark_by": "label",
            "cells": cells}
    text = recorded(BoardView(grid, {(x, 0) for x in range(8)})).export_text()
    lines = text.splitlines()
    assert all(len(line) <= 80 for line in lines)
    assert lines[0].split() == [str(x) for x in range(8)]          # one band
    assert [line.split()[0] for line in lines[1:9]] == [str(y) for y in range(8)]
    # marks alike at the start keep their ends: one text per mark
    assert lines[1].split()[:3] == ["0", "f·bu…0", "w·bu…1"]
    assert lines[2].split()[:3] == ["1", "w", "bu…0"]
    assert lines[9] == "shade by ground: f forest · r road · w water"
    assert "bu…7 building_7" in text and "bu…0 building_0" in text     # broken between entries


def styles(console) -> dict:
    """text → the ANSI codes it was printed with."""
    styled = console.export_text(styles=True, clear=False)
    return dict((text, codes) for codes, text in re.findall(r"\x1b\[([\d;]+)m([^\x1b]+)", styled))


def test_shades_tint_the_cells_and_a_player_mark_takes_its_seat_colour():
    grid = {"name": "g", "width": 3, "height": 1, "shade_by": "ground", "mark_by": "who",
            "cells": {"(0,0)": {"shade": "blue", "mark": "P1", "mark_seat": 1},
                      "(1,0)": {"shade": "P0", "shade_seat": 0},
                      "(2,0)": {"shade": "swamp", "mark": "LINE"}}}
    codes = styles(recorded(BoardView(grid), color_system="truecolor", force_terminal=True))
    assert codes[" b"].endswith(";44")                  # blue, as the background
    assert codes["P1"] == "1;97;42"                     # seat P1: not blue (a ground here), 2
    assert codes[" P"].endswith(";41")                  # a player's shade: its seat colour
    swamp = next(code for text, code in codes.items() if text.startswith(" s"))
    assert ";48;" in swamp                              # another word: a tint of its own
    assert codes["LINE"].startswith("1") and ";48;" in codes["LINE"]   # bold on that tint


def test_a_plain_console_gets_no_colour():
    grid = {"name": "g", "width": 2, "height": 1, "shade_by": "ground", "mark_by": None,
            "cells": {"(0,0)": {"shade": "blue"}, "(1,0)": {"shade": "swamp"}}}
    for options in ({"color_system": None}, {"color_system": "truecolor", "force_terminal": True,
                                             "no_color": True}):    # NO_COLOR in the environment
        screen = io.StringIO()
        Console(file=screen, width=WIDTH, legacy_windows=False, **options).print(BoardView(grid))
        assert "b" in screen.getvalue() and "swamp" in screen.getvalue()
        assert not re.search(r"\x1b\[[\d;]*(3\d|4\d|9\d|10\d)[;m]", screen.getvalue())


def test_a_word_keeps_its_tint_and_words_of_one_board_differ():
    alone = _tints(["swamp"])
    together = _tints(["swamp", "field", "hill", "sand"])   # each starts at a place of its own
    assert together["swamp"] == alone["swamp"]          # no clash here: the same tint
    assert len(set(together.values())) == 4
    many = _tints(f"land{k}" for k in range(len(SHADES)))
    assert len(set(many.values())) == len(SHADES)


def test_a_wide_board_is_drawn_in_bands():
    grid = {"name": "g", "width": 30, "height": 2, "shade_by": None, "mark_by": "m",
            "cells": {f"({x},1)": {"mark": f"m{x}"} for x in range(30)}}
    lines = recorded(BoardView(grid)).export_text().splitlines()
    assert all(len(line) <= WIDTH for line in lines)
    headers = [line for line in lines if line.split() and line.split()[0] in ("0", "12", "15", "10")
               and len(line.split()) > 3]
    assert len(headers) >= 2
    assert all(re.search(rf"\bm{x}\b", "\n".join(lines)) for x in range(30))


@pytest.mark.parametrize("display, column", [
    ("shade by groud", 29),                   # a typo
    ("mark by points", 28),                   # a variable, but not one of each cell
    ("mark by owner_of", 28),                 # a variable of each cell of another grid
    ("shade by pair", 29),                    # a define of two parameters
    ("shade by ground, mark by city", 45),    # the grid itself
])
def test_a_display_that_is_no_cell_value_is_refused_where_it_is_written(tmp_path, display, column):
    text = CITY.replace("shade by ground, mark by label", display).replace(
        "define label(c) = cover(c)",
        "define label(c) = cover(c)\ngrid yard: 2 by 2\n"
        "variable owner_of of each yard: player = none\ndefine pair(a, b) = a == b")
    with pytest.raises(RulebookErrors) as caught:
        load(tmp_path, text)
    assert [(e.code, e.span.line, e.span.column) for e in caught.value.errors] == [
        ("rulebook/unknown-name", 10, column)]


# -- compact boards: as drawn above where that fits, narrower where it does not --------

def test_a_compact_board_whose_shade_is_its_mark_shows_it_once_and_keys_the_seats():
    othello = load_rulebook("othello")
    state = othello.new_game(players=2, seed=1)
    player = othello.to_move(state)[0]
    legal = legal_cells([str(a) for a in othello.legal_actions(state, player)])
    compact = recorded(BoardView(board(othello.view(state, player), "board"), legal,
                                 compact=True), 120).export_text().splitlines()
    assert [line.rstrip() for line in compact[3:7]] == [
        "2                 ·",
        "3            ·     P1   P0",
        "4                  P0   P1  ·",
        "5                      ·"]
    assert compact[-1] == "seats: P0 · P1" and len(compact) == 1 + 8 + 1
    full = recorded(BoardView(board(othello.view(state, player), "board"), legal),
                    120).export_text().splitlines()
    assert "P1 P1" in full[4] and full[-1] == "seats: P0 · P1"      # in full: shade, then mark


def test_the_compact_city_fits_120_columns_through_a_game():
    paris = load_rulebook("paris")
    rng = random.Random(2)
    state = paris.new_game(players=2, seed=2)
    while True:
        to_move = paris.to_move(state)
        actions = list(paris.legal_actions(state, to_move[0])) if to_move else []
        city = board(paris.view(state, to_move[0] if to_move else 0))
        legal = legal_cells([str(a) for a in actions])
        lines = recorded(BoardView(city, legal, compact=True), 120).export_text().splitlines()
        assert all(len(line) <= 120 for line in lines)
        assert lines[0].split() == [str(x) for x in range(8)] and "" not in lines   # one block
        assert [line.split()[0] for line in lines[1:9]] == [str(y) for y in range(8)]
        key = lines[9:]
        assert bool(key) == bool(city["cells"])         # letters on the board: a key to them
        assert all(line.startswith(("shade by tint:", "mark by cover:", "  ")) for line in key)
        # fitting whole, it is the board drawn in full
        assert lines == recorded(BoardView(city, legal), 120).export_text().splitlines()
        if not actions:
            break
        state = paris.apply(state, rng.choice(actions))


def test_a_compact_board_shortens_its_marks_rather_than_draw_in_bands():
    words = ["river", "road", "rock", "field", "forest", "farm", "hill", "house"]
    grid = {"name": "g", "width": 16, "height": 2, "shade_by": "ground", "mark_by": "cover",
            "cells": {f"({x},1)": {"mark": words[x % 8], "shade": "sand"} for x in range(16)}}
    compact = recorded(BoardView(grid, {(3, 0)}, compact=True), 120).export_text().splitlines()
    assert len(compact) == 1 + 2 + 2 and all(len(line) <= 120 for line in compact)
    assert compact[2].split()[:5] == ["1", "s", "riv", "s", "roa"]
    assert compact[4] == ("mark by cover: far farm · fie field · for forest · hil hill · "
                          "hou house · riv river · roa road · roc rock")
    full = recorded(BoardView(grid), 120).export_text().splitlines()
    assert full.count("") == 1 and "rive" in full[2]                    # in full: two bands
    alike = {"name": "g", "width": 16, "height": 1, "shade_by": "ground", "mark_by": "m",
             "cells": {f"({x},0)": {"mark": f"building_{x}", "shade": "sand"} for x in range(16)}}
    lines = recorded(BoardView(alike, compact=True), 120).export_text().splitlines()
    assert "" in lines and "b…_0" in lines[1]    # three letters would not tell them apart

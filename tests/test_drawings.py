"""`drawn as …`: how a component's pieces are drawn (docs/language.md §4.5).

A drawing is display only: it is checked like any declaration (an unknown
look or attribute, a value of the wrong kind, a define with the wrong
parameters: each a coded error at its place, with a hint), carried into the
IR, put in the view only for zones whose cards the viewer may see (docs/api.md
`drawings`), and drawn by `render_pieces.piece_drawings` in plain text with
colour on top. The shipped rulebooks that declare drawings are drawn too.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from interpreter import Game, load_rulebook
from interpreter.errors import RulebookErrors
from interpreter.language.loader import compile_ir
from interpreter.terminal.render import render_to_text
from interpreter.terminal.render_pieces import piece_drawings

HEAD = """\
game "Drawn"
players 2
"""

TAIL = """\
zone hand of each player: tile, owner
zone pile: tile, hidden
zone table: tile, public
setup
  move [t in tile where t.{key} == "A" or t.{key} == "B"] to table
  move [t in tile where t.{key} == "C"] to hand(0)
  move [t in tile where t.{key} == "D"] to pile
phase play
  players[0] takes an action
action wait
scoring
  score = 0
"""

TILES = """\
component tile
  | name | sides                      | cells                    | look                 | colour | north |
  | A    | [red, blue, red, green]    | [[0, 0], [1, 0], [2, 0]] | [[red, blue]]        | red    | red   |
  | B    | [green, green, blue, blue] | [[0, 0], [0, 1], [1, 1]] | [[blue], [red]]      | blue   | blue  |
  | C    | [white, red, blue, green]  | [[0, 0]]                 | [[white, white]]     | white  | white |
  | D    | [black, red, blue, green]  | [[0, 0]]                 | [[black]]            | black  | black |
  has turns: number = 0
"""


SET_TILES = TILES.replace("component tile", "component tile of each player").replace("| name ", "| id   ")


def load(text: str) -> Game:
    text = text.replace("{key}", "id" if "| id " in text else "name")
    return Game(compile_ir(text, "t.rules", Path(".")))


def game_drawn(line: str, extra: str = "") -> Game:
    return load(HEAD + TILES + "  " + line + "\n" + extra + TAIL)


def errors(text: str) -> list:
    with pytest.raises(RulebookErrors) as info:
        load(text)
    return info.value.errors


def zone(view: dict, name: str, owner=None) -> dict:
    return next(z for z in view["zones"] if z["name"] == name and z["owner"] == owner)


# -- the IR ------------------------------------------------------------------------

def test_the_drawing_is_in_the_ir_of_its_component():
    g = game_drawn("drawn as edges sides, shade by colour")
    tile = next(c for c in g.ir["components"] if c["name"] == "tile")
    drawn = tile["drawn"]
    assert (drawn["node"], drawn["look"], drawn["names"], drawn["shade"]) == \
        ("drawn", "edges", ["sides"], "colour")
    assert drawn["look_at"][:2] == [10, 12] and drawn["shade_at"][:2] == [10, 34]


def test_a_component_without_a_drawing_has_none_in_the_ir():
    g = load(HEAD + TILES + TAIL)
    assert "drawn" not in next(c for c in g.ir["components"] if c["name"] == "tile")


@pytest.mark.parametrize("line", [
    "drawn as edges sides",
    "drawn as edges north, colour, north, colour",
    "drawn as edges turned_side",
    "drawn as shape cells",
    "drawn as rows look",
    "drawn as name, shade by colour",
    "drawn as shape cells, shade by hue",
])
def test_every_look_loads(line):
    extra = "define turned_side(t, d) = turned(t.sides, t.turns)[d]\ndefine hue(t) = t.colour\n"
    game_drawn(line, extra)


# -- mistakes: a coded error at its place, with a hint --------------------------------

MISTAKES = [
    # (the drawn line, extra declarations, code, line, column of the first error, a word of the hint)
    ("drawn as outline sides", "", "rulebook/unknown-name", 10, 12, "edges"),
    ("drawn as edgs sides", "", "rulebook/unknown-name", 10, 12, "edges"),
    ("drawn as shape cels", "", "rulebook/unknown-name", 10, 18, "cells"),
    ("drawn as name, shade by colur", "", "rulebook/unknown-name", 10, 27, "colour"),
    ("drawn as edges sides, colour", "", "rulebook/arity", 10, 3, "four"),
    ("drawn as name colour", "", "rulebook/arity", 10, 3, "nothing"),
    ("drawn as shape cells, look", "", "rulebook/arity", 10, 3, "cells"),
    ("drawn as edges cells", "", "rulebook/type", 5, 41, "sides"),     # A's cells: three values
    ("drawn as shape sides", "", "rulebook/type", 5, 12, "cells"),
    ("drawn as rows colour", "", "rulebook/type", 5, 91, "rows"),
    ("drawn as name, shade by sides", "", "rulebook/type", 5, 12, "shade"),
    ("drawn as edges north, east, north, north", "", "rulebook/unknown-name", 10, 25, "attribute"),
    ("drawn as edges north, look, north, north", "", "rulebook/type", 5, 68, "side"),
    ("drawn as shape turns", "", "rulebook/type", 10, 18, "column"),
    ("drawn as shape two", "define two(a, b) = a\n", "rulebook/arity", 10, 18, "define"),
    ("drawn as edges three", "define three(a, b, c) = a\n", "rulebook/arity", 10, 18, "t, d"),
]


@pytest.mark.parametrize("line, extra, code, at_line, at_column, hint", MISTAKES,
                         ids=[m[0] for m in MISTAKES])
def test_a_mistake_is_a_coded_error_at_its_place(line, extra, code, at_line, at_column, hint):
    found = errors(HEAD + TILES + "  " + line + "\n" + extra + TAIL)
    assert {e.code for e in found} == {code}
    first = min(found, key=lambda e: (e.span.line, e.span.column))
    assert (first.span.line, first.span.column) == (at_line, at_column), first
    assert hint in (first.hint or ""), first


def test_every_bad_row_is_reported():
    found = errors(HEAD + TILES + "  drawn as shape sides\n" + TAIL)
    assert [(e.code, e.span.line) for e in found] == [("rulebook/type", n) for n in (5, 6, 7, 8)]


def test_a_component_is_drawn_once():
    found = errors(HEAD + TILES + "  drawn as shape cells\n  drawn as name\n" + TAIL)
    assert [(e.code, e.span.line, e.span.column) for e in found] == [("rulebook/invalid", 11, 3)]


def test_a_set_of_each_player_may_be_shaded_by_its_owner_but_not_shaped_by_it():
    load(HEAD + SET_TILES + "  drawn as shape cells, shade by owner\n" + TAIL)
    found = errors(HEAD + SET_TILES + "  drawn as shape owner\n" + TAIL)
    assert [(e.code, e.span.line) for e in found] == [("rulebook/type", 10)]


def test_a_wrong_value_in_a_data_file_is_refused_in_the_data_file(tmp_path):
    (tmp_path / "tiles.yaml").write_text(
        "- {name: A, sides: [red, blue, red, green]}\n"
        "- {name: B, sides: [red, blue]}\n", encoding="utf-8")
    text = HEAD + 'component tile from "tiles.yaml"\n  drawn as edges sides\n' + \
        "phase play\n  players[0] takes an action\naction wait\nscoring\n  score = 0\n"
    with pytest.raises(RulebookErrors) as info:
        Game(compile_ir(text, str(tmp_path / "t.rules"), tmp_path))
    found = info.value.errors
    assert [(e.code, Path(e.span.file).name, e.span.line) for e in found] == \
        [("data/invalid", "tiles.yaml", 2)]


# -- the view: drawings only where the cards are seen -------------------------------------

def test_drawings_follow_the_cards_and_only_where_they_are_seen():
    g = game_drawn("drawn as edges sides")
    s = g.new_game(players=2, seed=1)
    mine, theirs, spectator = g.view(s, 0), g.view(s, 1), g.view(s, None)
    assert zone(mine, "table")["drawings"] == [
        {"piece": "A", "edges": ["red", "blue", "red", "green"]},
        {"piece": "B", "edges": ["green", "green", "blue", "blue"]}]
    assert zone(mine, "hand", 0)["drawings"] == [
        {"piece": "C", "edges": ["white", "red", "blue", "green"]}]
    for view in (theirs, spectator):
        assert "drawings" not in zone(view, "hand", 0)
        assert zone(view, "table")["drawings"] == zone(mine, "table")["drawings"]
    for view in (mine, theirs, spectator):
        assert "drawings" not in zone(view, "pile")
        assert "black" not in repr({k: v for k, v in view.items() if k != "components"})


def test_each_look_gives_its_data():
    extra = "define turned_side(t, d) = turned(t.sides, t.turns)[d]\n"
    s_of = {}
    for line in ("drawn as edges turned_side", "drawn as edges north, colour, north, colour",
                 "drawn as shape cells, shade by colour", "drawn as rows look",
                 "drawn as name, shade by colour"):
        g = game_drawn(line, extra)
        s = g.new_game(players=2, seed=1)
        s_of[line] = zone(g.view(s, 0), "table")["drawings"][0]
    assert s_of["drawn as edges turned_side"] == {"piece": "A", "edges": ["red", "blue", "red", "green"]}
    assert s_of["drawn as edges north, colour, north, colour"]["edges"] == ["red"] * 4
    assert s_of["drawn as shape cells, shade by colour"] == \
        {"piece": "A", "shape": [[0, 0], [1, 0], [2, 0]], "shade": "red"}
    assert s_of["drawn as rows look"] == {"piece": "A", "rows": [["red", "blue"]]}
    assert s_of["drawn as name, shade by colour"] == {"piece": "A", "shade": "red"}


def test_a_value_the_look_cannot_draw_is_left_out():
    g = game_drawn("drawn as edges few", "define few(t) = [t.colour, t.colour]\n")
    s = g.new_game(players=2, seed=1)
    assert zone(g.view(s, 0), "table")["drawings"] == [{"piece": "A"}, {"piece": "B"}]
    assert piece_drawings(g.view(s, 0), zone(g.view(s, 0), "table")) is None


def test_a_player_shade_gives_its_seat():
    g = load(HEAD + SET_TILES + "  drawn as name, shade by owner\n" + TAIL)
    s = g.new_game(players=2, seed=1)
    drawings = zone(g.view(s, 0), "table")["drawings"]
    assert {(d["piece"], d["shade"], d["shade_seat"]) for d in drawings} == \
        {("A", "P0", 0), ("A", "P1", 1), ("B", "P0", 0), ("B", "P1", 1)}


# -- drawn in plain text -----------------------------------------------------------------

def drawn(zone_entry: dict, view=None, width: int = 120) -> str:
    view = view if view is not None else {"zones": [zone_entry]}
    return render_to_text(piece_drawings(view, zone_entry), width=width)


def pieces(*drawings) -> dict:
    return {"name": "z", "cards": [d["piece"] for d in drawings], "drawings": list(drawings)}


def test_a_tile_is_a_box_with_its_edges_around_its_name():
    z = pieces({"piece": "21", "edges": ["red", "white", "black", "blue"]},
               {"piece": "7", "edges": ["green", "green", "orange", "red"]})
    assert drawn(z) == (
        "┌──────────┐  ┌──────────┐\n"
        "│   red    │  │   gre    │\n"
        "│blu 21 whi│  │red 7  gre│\n"
        "│   bla    │  │   ora    │\n"
        "└──────────┘  └──────────┘\n")


def test_a_polyomino_is_a_grid_of_blocks_with_its_name_under_it():
    z = pieces({"piece": "CORNER", "shape": [[1, 0], [0, 1], [1, 1]]},
               {"piece": "L", "shape": [[0, 0], [0, 1], [0, 2], [1, 2]]})
    assert drawn(z) == (
        "        ██\n"
        "   ██   ██\n"
        " ████   ████\n"
        "CORNER   L\n")


def test_a_tall_shape_is_drawn_in_half_blocks_within_five_lines():
    z = pieces({"piece": "I6", "shape": [[0, y] for y in range(6)]},
               {"piece": "I5", "shape": [[0, y] for y in range(5)]})
    assert drawn(z) == (
        "██  ██\n"
        "██  ██\n"
        "██  ▀▀\n"
        "I6  I5\n")


def test_rows_of_cells_are_their_first_letters_with_the_name_under_them():
    z = pieces({"piece": "T1", "rows": [["blue", "streetlight"], ["mixed", "orange"]]})
    assert drawn(z) == (
        " b  s\n"
        " m  o\n"
        "  T1\n")


def test_a_card_is_its_name_and_equal_cards_are_drawn_once():
    z = pieces({"piece": "red", "shade": "red"}, {"piece": "red", "shade": "red"},
               {"piece": "blue", "shade": "blue"})
    assert drawn(z) == "red ×2  blue\n"


def test_drawings_wrap_to_the_width():
    z = pieces(*({"piece": f"S{k}", "shape": [[0, 0], [1, 0]]} for k in range(5)))
    assert drawn(z, width=20) == (
        "████  ████  ████\n"
        " S0    S1    S2\n"
        "\n"
        "████  ████\n"
        " S3    S4\n")


def test_colour_is_laid_on_top_of_the_text():
    from rich.console import Console
    z = pieces({"piece": "21", "edges": ["red", "white", "black", "blue"]})
    console = Console(width=40, color_system="truecolor", force_terminal=True, record=True)
    console.print(piece_drawings({"zones": [z]}, z))
    styled = console.export_text(styles=True, clear=False)
    assert "\x1b[" in styled and "│   red    │" in console.export_text()


def test_nothing_is_drawn_without_drawings_or_where_the_cards_are_not_seen():
    assert piece_drawings({"zones": []}, {"name": "z", "cards": ["a"]}) is None
    assert piece_drawings({"zones": []}, {"name": "z", "cards": [], "drawings": []}) is None
    hidden = {"name": "z", "cards": None, "count": 2,
              "drawings": [{"piece": "a", "shape": [[0, 0]]}]}
    assert piece_drawings({"zones": [hidden]}, hidden) is None


# -- the shipped rulebooks ----------------------------------------------------------------

def test_lanterns_tiles_in_hand_are_drawn_with_their_edges():
    g = load_rulebook("lanterns")
    s = g.new_game(players=2, seed=3)
    view = g.view(s, 0)
    text = drawn(zone(view, "tiles", 0), view)
    assert text.splitlines()[2] == "│blu 3  gre│  │ora 15 bla│  │red 25 blu│"    # 3, 15, 25
    assert "drawings" not in zone(g.view(s, 1), "tiles", 0)
    assert drawn(zone(view, "cards", 0), view) == "red\n"


def test_paris_buildings_and_the_tile_in_hand_are_drawn():
    g = load_rulebook("paris")
    s = g.new_game(players=2, seed=3)
    view = g.view(s, 0)
    pool = drawn(zone(view, "pool"), view)
    assert "BIG_L" in pool and "██████" in pool
    assert drawn(zone(view, "hand", 0), view) == " b  s\n o  b\n  T6\n"
    assert "drawings" not in zone(g.view(s, 1), "hand", 0)
    assert "drawings" not in zone(view, "pile", 0)


def test_a_paris_tile_laid_is_drawn_turned_in_its_owners_colours():
    g = load_rulebook("paris")
    s = g.new_game(players=2, seed=3)
    mover = g.to_move(s)[0]
    action = next(a for a in g.legal_actions(s, mover) if str(a).startswith("lay_tile")
                  and str(a).endswith(", 1"))
    s = g.apply(s, action)
    laid = zone(g.view(s, None), "laid")["drawings"]
    assert laid == [{"piece": "T6", "rows": [["orange", "blue"], ["blue", "streetlight"]]}]


def test_a_number_among_the_rows_is_shown_as_it_is_not_coloured():
    """A row mixing a colour and numbers: the colour is laid on, the numbers
    are printed whole and plain (no tint that reads as another colour)."""
    from rich.console import Console
    z = pieces({"piece": "R1", "rows": [["red", "3"], ["12", "blue"]]})
    assert drawn(z) == " re  3\n 12  bl\n   R1\n"
    console = Console(width=40, color_system="truecolor", force_terminal=True, record=True)
    console.print(piece_drawings({"zones": [z]}, z))
    styled = console.export_text(styles=True, clear=False)
    assert "\x1b[1m 3" in styled and "\x1b[1m 12 " in styled      # bold, on no colour
    assert "41m re " in styled                                     # on red

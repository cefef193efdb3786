"""Bounded grids and shapes (docs/language.md §7.12): `grid NAME: W by H`,
variables of each cell, the shape builtins (`orientations` … `rotated`),
`shape ATTR` in a component, a whole placement game with its perft-like
counts, the refusal that names the first cell a placement may not cover,
the define-call memo while legal actions are listed, and a `requires` that
reads no parameter checked before any option is worked out.

Every rulebook here is a few inline lines; cells are written ``(x, y)``
pairs in the tables and compared as pairs.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from interpreter.stdlib import grid, shapes
from interpreter import load_rulebook
from interpreter.game.engine import Game
from interpreter.errors import ActionError, RuleError, RulebookErrors
from interpreter.language.loader import compile_ir
from tests.scenario import names, place

HEAD = 'game "Grids"\nplayers 2\n'
END = "phase play\n  end game\nscoring\n  score = 0\n"


def source(decls: str, setup: str = "") -> str:
    """A rulebook of `decls`, a setup of `setup` lines, and nothing to play."""
    return HEAD + decls + ("setup\n" + setup if setup else "") + END


def errors(text: str, folder: Path = Path(".")) -> list:
    with pytest.raises(RulebookErrors) as info:
        compile_ir(text, "t.rules", folder)
    return [(e.code, e.span.file, e.span.line, e.span.column) for e in info.value.errors]


def run(text: str, folder: Path = Path(".")):
    game = Game(compile_ir(text, "t.rules", folder))
    return game, game.new_game(2, seed=1)


def probe(formula: str, decls: str = "", setup: str = "") -> str:
    """A rulebook whose setup ends by setting `result` to `formula`, a define."""
    return source(decls + "variable result: any = none\n" + f"define probe = {formula}\n",
                  setup + "  set result = probe\n")


def evaluate(formula: str, decls: str = "", setup: str = ""):
    """The value of `formula` as a define, set into a variable by the setup."""
    game, state = run(probe(formula, decls, setup))
    return state.vars[game.program(2).lay.variables["result"].base]


def xy(cells) -> list:
    return [(grid.x_of(c), grid.y_of(c)) for c in cells]


def cells(pairs) -> list:
    return [grid.cell(x, y) for x, y in pairs]


def written(pairs) -> str:
    """A list of cells as a rulebook writes it."""
    return "[" + ", ".join(f"cell({x}, {y})" for x, y in pairs) + "]"


# -- grid NAME: W by H -----------------------------------------------------------------

BOARD = "grid board: 4 by 3\nvariable ground of each board: number = 0\n"


def test_a_grid_reads_as_its_cells_by_x_then_y():
    assert xy(evaluate("board", BOARD)) == [(x, y) for x in range(4) for y in range(3)]
    assert evaluate("size(board)", BOARD) == 12
    assert evaluate("contains(board, cell(3, 2))", BOARD) is True
    assert evaluate("contains(board, cell(3, 3))", BOARD) is False


def test_a_variable_of_each_cell_is_read_and_written_per_cell():
    got = evaluate("each(ground(c) for c in board)", BOARD,
                   "  set ground(cell(1, 2)) = 7\n  add 2 to ground(cell(1, 2))\n"
                   "  set ground(cell(3, 0)) = 1\n")
    want = [0] * 12
    want[1 * 3 + 2], want[3 * 3 + 0] = 9, 1
    assert got == want


@pytest.mark.parametrize("statement, shown", [
    ("set ground(cell(4, 0)) = 1", "(4,0)"),               # write east of the edge
    ("add 1 to ground(cell(-1, 2))", "(-1,2)"),
    ("set result = ground(cell(0, 3))", "(0,3)"),          # read north of the edge
    ("set result = [c in board where ground(cell(x_of(c), 5)) == 0]", "(0,5)"),
])
def test_a_cell_off_the_grid_is_a_runtime_error_naming_cell_and_grid(statement, shown):
    text = source(BOARD + "variable result: any = none\n", f"  {statement}\n")
    with pytest.raises(RuleError) as info:
        run(text)
    err = info.value
    assert err.code == "rule/runtime"
    # at the read or the write of the cell, with a hint to guard it
    assert (err.span.line, err.span.column) == place(text, statement, "ground(")
    assert shown in err.message and "'board'" in err.message
    assert "contains(board, c)" in err.hint


CARD = "component card\n  | value |\n  | 1     |\n"


@pytest.mark.parametrize("decls, code, line_part, tokens", [
    (BOARD + CARD + "zone stack of each board: card, public\n",
     "rulebook/invalid", "zone stack", ["board"]),
    ("grid board: 0 by 3\n", "rulebook/invalid", "grid board", ["0"]),
    ("grid board: 300 by 3\n", "rulebook/invalid", "grid board", ["300"]),
    ("grid board: 4 by 3, shade by colour\n", "rulebook/unknown-name", "shade by", ["colour"]),
    # a variable of each player or of another grid, a define of two cells: not of one cell
    (BOARD + "variable tint of each player: any = none\ngrid other: 2 by 2\n"
     "variable cover of each other: any = none\n"
     "grid main: 2 by 2, shade by tint, mark by cover\n",
     "rulebook/unknown-name", "grid main", ["tint", "cover"]),
    (BOARD + "define cover(a, b) = 0\ngrid main: 2 by 2, shade by ground, mark by cover\n",
     "rulebook/unknown-name", "grid main", ["ground", "cover"]),       # ground: of each board
])
def test_a_grid_declaration_is_refused_where_it_is_wrong(decls, code, line_part, tokens):
    text = source(decls)
    assert errors(text) == [(code, "t.rules", *place(text, line_part, t)) for t in tokens]


def test_both_display_names_are_refused_and_good_ones_are_not():
    text = source("grid main: 2 by 2, shade by tint, mark by cover\n")
    assert errors(text) == [("rulebook/unknown-name", "t.rules", *place(text, "grid", "tint")),
                            ("rulebook/unknown-name", "t.rules", *place(text, "grid", "cover"))]
    compile_ir(source("grid main: 2 by 2, shade by tint, mark by cover\n"
                      "variable cover of each main: any = none\ndefine tint(c) = x_of(c)\n"),
               "t.rules", Path("."))
    compile_ir(source("grid main: 256 by 1\n"), "t.rules", Path("."))


def test_a_height_out_of_range_is_refused_at_the_height():
    text = source("grid board: 3 by 300\n")
    assert errors(text) == [("rulebook/invalid", "t.rules", *place(text, "grid", "300"))]


# -- the shape builtins, pure ---------------------------------------------------------

I3 = [[0, 0], [1, 0], [2, 0]]
O4 = [[0, 0], [1, 0], [0, 1], [1, 1]]
L4 = [[0, 0], [0, 1], [0, 2], [1, 2]]
T4 = [[0, 0], [1, 0], [2, 0], [1, 1]]
S4 = [[1, 0], [2, 0], [0, 1], [1, 1]]
X5 = [[1, 0], [0, 1], [1, 1], [2, 1], [1, 2]]
SPEC_L = [[0, 0], [1, 0], [1, 1], [1, 2]]          # the spec-like L of §7.12


@pytest.mark.parametrize("shape, turns, with_mirror", [
    (I3, 2, 2), (O4, 1, 1), (L4, 4, 8), (T4, 4, 4), (S4, 2, 4), (X5, 1, 1), (SPEC_L, 4, 8),
    ([[0, 0]], 1, 1), ([[5, 7], [6, 7]], 2, 2),
], ids=["I3", "O4", "L4", "T4", "S4", "X5", "spec-L", "monomino", "domino-offset"])
def test_orientations_count_distinct_images(shape, turns, with_mirror):
    assert shapes.orientations(shape) == list(range(turns))
    assert shapes.orientations(shape, True) == list(range(with_mirror))
    assert shapes.orientations(cells(shape)) == list(range(turns))     # cells, not pairs


@pytest.mark.parametrize("shape, r, anchor, covered", [
    (SPEC_L, 0, (0, 0), [(0, 0), (1, 0), (1, 1), (1, 2)]),
    (SPEC_L, 1, (3, 4), [(5, 4), (5, 5), (4, 5), (3, 5)]),          # in the shape's order
    (SPEC_L, 2, (0, 0), [(1, 2), (0, 2), (0, 1), (0, 0)]),
    (SPEC_L, 3, (0, 0), [(0, 1), (0, 0), (1, 0), (2, 0)]),
    (SPEC_L, 4, (0, 0), [(1, 0), (0, 0), (0, 1), (0, 2)]),          # the first mirror image
    (I3, 1, (2, 2), [(2, 2), (2, 3), (2, 4)]),
    ([[5, 7], [6, 7]], 0, (1, 1), [(1, 1), (2, 1)]),                # shifted to (0,0) first
    (O4, 0, (-2, 3), [(-2, 3), (-1, 3), (-2, 4), (-1, 4)]),
])
def test_footprint_covers_the_image_at_the_anchor(shape, r, anchor, covered):
    assert xy(shapes.footprint(shape, r, grid.cell(*anchor))) == covered


ALLOWED = [(0, 0), (1, 0), (2, 0), (0, 1), (1, 1)]         # a row of 3 and two under it


@pytest.mark.parametrize("shape, r, found", [
    (I3, 0, [(0, 0)]),
    (I3, 1, []),
    ([[0, 0], [1, 0]], 0, [(0, 0), (0, 1), (1, 0)]),            # by x, then y
    ([[0, 0], [1, 0]], 1, [(0, 0), (1, 0)]),
    (O4, 0, [(0, 0)]),
    (T4, 0, [(0, 0)]),
    (T4, 2, []),
    (S4, 0, [(0, 0)]),                                          # the anchor (0,0) is not covered
    (S4, 1, []),
    ([[1, 1], [2, 1], [1, 2]], 0, [(0, 0), (1, 0)]),            # shifted to (0,0) first
])
def test_anchors_are_every_placement_inside_the_cells(shape, r, found):
    assert xy(shapes.anchors(shape, r, cells(ALLOWED))) == found
    for a in shapes.anchors(shape, r, cells(ALLOWED)):
        assert set(xy(shapes.footprint(shape, r, a))) <= set(ALLOWED)


Z_HOLE = [(0, 0), (1, 0), (1, 1), (2, 1)]          # the mirror image of S4, and nothing else


@pytest.mark.parametrize("shape, allowed, mirror, expected", [
    (I3, ALLOWED, False, True),
    (O4, ALLOWED, False, True),
    (T4, ALLOWED, False, True),
    (X5, ALLOWED, False, False),
    ([[0, 0], [1, 0], [2, 0], [3, 0]], ALLOWED, False, False),
    (I3, [(0, 0), (0, 1), (0, 2)], False, True),                 # standing up
    (S4, Z_HOLE, False, False),
    (S4, Z_HOLE, True, True),
    ([[0, 0]], [], False, False),
])
def test_fits_in_some_orientation(shape, allowed, mirror, expected):
    assert shapes.fits(shape, cells(allowed), mirror) is expected


@pytest.mark.parametrize("given, groups", [
    ([(3, 3), (2, 1), (0, 0), (2, 0), (0, 1)], [[(0, 0), (0, 1)], [(2, 0), (2, 1)], [(3, 3)]]),
    ([(0, 0), (1, 1)], [[(0, 0)], [(1, 1)]]),                       # a corner is no edge
    ([(1, 0), (0, 0), (2, 0), (2, 1), (2, 2)], [[(0, 0), (1, 0), (2, 0), (2, 1), (2, 2)]]),
    ([(-1, 0), (0, 0)], [[(-1, 0), (0, 0)]]),
    ([], []),
])
def test_connected_groups_in_the_order_of_their_first_cells(given, groups):
    assert [xy(g) for g in shapes.connected(cells(given))] == groups


@pytest.mark.parametrize("start, within, reached", [
    ((0, 0), [(0, 1), (0, 2), (1, 2), (3, 3)], [(0, 0), (0, 1), (0, 2), (1, 2)]),
    ((3, 3), [(0, 1), (0, 2), (1, 2)], [(3, 3)]),
    ((0, 0), [(1, 1), (2, 2)], [(0, 0)]),                          # no step across a corner
    ((1, 2), [(0, 1), (0, 2), (1, 2)], [(0, 1), (0, 2), (1, 2)]),
])
def test_flood_is_bounded_by_the_cells(start, within, reached):
    assert xy(shapes.flood(grid.cell(*start), cells(within))) == reached


@pytest.mark.parametrize("a, b, expected", [
    ([(0, 0)], [(1, 0)], True),
    ([(0, 0)], [(1, 1)], False),
    ([(0, 0), (5, 5)], [(5, 4)], True),
    ([(0, 0)], [], False),
])
def test_shares_edge(a, b, expected):
    assert shapes.touching(cells(a), cells(b)) is expected
    assert shapes.touching(cells(b), cells(a)) is expected


SQUARE = [["a", "b"], ["c", "d"]]
WIDE = [[1, 2, 3], [4, 5, 6]]


@pytest.mark.parametrize("rows, r, expected", [
    (SQUARE, 0, SQUARE),
    (SQUARE, 1, [["c", "a"], ["d", "b"]]),
    (SQUARE, 2, [["d", "c"], ["b", "a"]]),
    (SQUARE, 3, [["b", "d"], ["a", "c"]]),
    (SQUARE, 4, SQUARE),
    (WIDE, 0, WIDE),
    (WIDE, 1, [[4, 1], [5, 2], [6, 3]]),
    (WIDE, 2, [[6, 5, 4], [3, 2, 1]]),
    (WIDE, 3, [[3, 6], [2, 5], [1, 4]]),
    (WIDE, 4, WIDE),
    (WIDE, -1, [[3, 6], [2, 5], [1, 4]]),
])
def test_rotated_turns_rows_clockwise(rows, r, expected):
    assert shapes.rotated(rows, r) == expected


@pytest.mark.parametrize("call", [
    lambda: shapes.orientations([[0, 0], [1]]),                     # a non-pair
    lambda: shapes.orientations([[0, 0], [1, 0, 0]]),
    lambda: shapes.orientations([[0, 0], ["x", 0]]),
    lambda: shapes.orientations([]),
    lambda: shapes.footprint(I3, 2, grid.cell(0, 0)),               # I3 has 0 and 1
    lambda: shapes.footprint(I3, -1, grid.cell(0, 0)),
    lambda: shapes.anchors(O4, 1, []),
    lambda: shapes.footprint(I3, True, grid.cell(0, 0)),
    lambda: shapes.rotated([[1, 2], [3]], 1),                       # ragged rows
    lambda: shapes.rotated(SQUARE, "1"),
], ids=["short-pair", "long-pair", "word", "empty", "r-too-big", "r-negative", "r-of-square",
        "r-yes", "ragged", "r-word"])
def test_bad_inputs_are_rule_errors(call):
    with pytest.raises(RuleError) as info:
        call()
    assert info.value.code == "rule/runtime"


# -- the same builtins through a rulebook ------------------------------------------------

@pytest.mark.parametrize("formula, expected", [
    ("orientations([[0, 0], [0, 1], [0, 2], [1, 2]])", [0, 1, 2, 3]),
    ("orientations([[0, 0], [0, 1], [0, 2], [1, 2]], yes)", list(range(8))),
    ("size(orientations([cell(0, 0), cell(1, 0), cell(1, 1), cell(2, 1)], yes))", 4),
    ("footprint([[0, 0], [1, 0], [1, 1], [1, 2]], 1, cell(3, 4))", cells([(5, 4), (5, 5), (4, 5), (3, 5)])),
    ("anchors([[0, 0], [1, 0]], 0, " + written(ALLOWED) + ")", cells([(0, 0), (0, 1), (1, 0)])),
    ("fits([[0, 0], [1, 0], [2, 0]], [c in board where y_of(c) == 1])", True),
    ("fits([[0, 0], [1, 0], [2, 0], [3, 0], [4, 0]], board)", False),
    ("each(size(g) for g in connected([c in board where x_of(c) != 1]))", [3, 6]),
    ("flood(cell(0, 0), [c in board where x_of(c) == 0 or y_of(c) == 2])", None),
    ("shares_edge([cell(0, 0)], [cell(0, 1)])", True),
    ("rotated([[1, 2, 3], [4, 5, 6]], 1)", [[4, 1], [5, 2], [6, 3]]),
    ("first(footprint(ELL.cells, 1, cell(0, 0))) == cell(1, 0)", True),
], ids=lambda v: v if isinstance(v, str) else None)
def test_the_builtins_through_a_rulebook(formula, expected):
    piece = "component piece\n  | name | cells |\n  | ELL | [[0, 0], [0, 1], [1, 1]] |\n  shape cells\n"
    got = evaluate(formula, BOARD + piece)
    if expected is None:        # the left column, then the top row
        expected = cells([(0, 0), (0, 1), (0, 2), (1, 2), (2, 2), (3, 2)])
    assert got == expected


@pytest.mark.parametrize("formula", [
    "footprint([[0, 0], [1]], 0, cell(0, 0))",
    "orientations([[0, 0], [1, 0, 0]])",
    "footprint([[0, 0], [1, 0], [2, 0]], 2, cell(0, 0))",
    "anchors([[0, 0]], 0 - 1, board)",
    "rotated([[1, 2], [3]], 1)",
])
def test_bad_builtin_inputs_in_a_rulebook_are_runtime_errors_at_the_statement(formula):
    with pytest.raises(RuleError) as info:
        evaluate(formula, BOARD)
    assert info.value.code == "rule/runtime"
    assert info.value.span.line == place(probe(formula, BOARD), "set result", "set")[0]


# -- a whole placement game -------------------------------------------------------------

TWO_PIECES = """\
game "Two pieces"
players 2

component piece
  | name | cells                    |
  | bar  | [[0, 0], [1, 0], [2, 0]] |
  | ell  | [[0, 0], [0, 1], [1, 1]] |
  shape cells

grid table: 4 by 3, mark by cover
variable cover of each table: any = none
zone pool: piece, public
zone built: piece, public

define free = [c in table where cover(c) == none]

setup
  move all piece to pool

phase play
  turn 0
    0 takes an action
  turn 1
    1 takes an action

action build(b: one of pool, r: one of orientations(b.cells), at: one of anchors(b.cells, r, free))
  for each c in footprint(b.cells, r, at)
    set cover(c) = b
  move b to built

scoring
  score = count(c in table where cover(c) != none)
"""
# The same rules without a define: nothing to remember while the options are listed.
INLINE = TWO_PIECES.replace("anchors(b.cells, r, free)",
                            "anchors(b.cells, r, [c in table where cover(c) == none])")
# A define of the earlier parameters: remembered by its arguments.
BY_ARGUMENTS = TWO_PIECES.replace(
    "anchors(b.cells, r, free)", "spots(b, r)").replace(
    "define free =", "define spots(b, r) = anchors(b.cells, r, free)\ndefine free =")


@pytest.fixture(scope="module")
def two_pieces(tmp_path_factory):
    folder = tmp_path_factory.mktemp("grids")
    games = {}
    for name, text in (("memo", TWO_PIECES), ("inline", INLINE), ("args", BY_ARGUMENTS)):
        (folder / f"{name}.rules").write_text(text, encoding="utf-8")
        games[name] = load_rulebook(folder / f"{name}.rules")
    return games


def covered(game, state) -> dict:
    lay = game.program(state.n).lay
    slot, table = lay.variables["cover"].base, lay.grids["table"]
    return {(grid.x_of(c), grid.y_of(c)): lay.display[state.vars[slot + k]]
            for k, c in enumerate(table.cells) if state.vars[slot + k] is not None}


def texts(game, state, player):
    return [str(a) for a in game.legal_actions(state, player)]


def test_perft_counts_and_one_placement(two_pieces):
    """34 = bar 2×3 + 4×1 across, ell 4 turns × 3×2; after the bar along the
    bottom row the ell fits 3 × 4 ways in rows 1–2 and once by (3,0)."""
    game = two_pieces["memo"]
    state = game.new_game(2, seed=1)
    assert len(game.legal_actions(state, 0)) == 34
    after = game.apply(state, game.parse_action(state, 0, "build bar, 0, (0,0)"))
    assert covered(game, after) == {(0, 0): "bar", (1, 0): "bar", (2, 0): "bar"}
    assert names(game, after, "pool") == ["ell"] and names(game, after, "built") == ["bar"]
    options = texts(game, after, 1)
    assert len(options) == 13
    assert [t for t in options if "(2,0)" in t] == ["build ell, 3, (2,0)"]
    end = game.apply(after, game.parse_action(after, 1, "build ell, 3, (2,0)"))
    assert covered(game, end) == {(0, 0): "bar", (1, 0): "bar", (2, 0): "bar",
                                  (2, 1): "ell", (3, 1): "ell", (3, 0): "ell"}
    assert game.outcome(end).scores == (6, 6)


@pytest.mark.parametrize("moves, player, typed, first_outside", [
    ([], 0, "build bar, 0, (2,0)", "(4,0)"),                 # (2,0), (3,0) lie on the table
    ([], 0, "build bar, 1, ( 3 , 1 )", "(3,3)"),
    (["build bar, 0, (0,0)"], 1, "build ell, 1, (2,0)", "(2,0)"),     # (3,0) is free
    (["build bar, 0, (0,0)"], 1, "build ell, 0, (-1,1)", "(-1,1)"),
])
def test_an_illegal_anchor_names_the_first_cell_it_may_not_cover(two_pieces, moves, player, typed,
                                                                first_outside):
    game = two_pieces["memo"]
    state = game.new_game(2, seed=1)
    for move in moves:
        state = game.apply(state, game.parse_action(state, game.to_move(state)[0], move))
    before = game.state_to_json(state)
    with pytest.raises(ActionError) as info:
        game.parse_action(state, player, typed)
    err = info.value
    assert err.code == "action/illegal" and "'at'" in err.message
    assert f"it would cover {first_outside}," in err.message
    assert (err.span.line, err.span.column) == place(TWO_PIECES, "action build", "one of anchors")
    assert game.state_to_json(state) == before


def test_a_define_call_is_remembered_only_while_options_are_listed(two_pieces):
    """The remembered `free` (and `spots(b, r)`, by its arguments) give the
    options the inline formula gives, in every state reached, and the memo
    is off again once they are listed or an action is applied."""
    games = [two_pieces[k] for k in ("memo", "args", "inline")]
    states = [g.new_game(2, seed=1) for g in games]
    for move in ("build ell, 2, (1,1)", "build bar, 1, (3,0)"):
        player = games[0].to_move(states[0])[0]
        listed = [texts(g, s, player) for g, s in zip(games, states)]
        assert listed[0] == listed[1] == listed[2]
        assert all(s.memo is None for s in states)
        nexts = [g.apply(s, g.parse_action(s, player, move)) for g, s in zip(games, states)]
        assert all(s.memo is None for s in states + nexts)
        states = nexts
    assert games[0].outcome(states[0]).scores == (6, 6)


# -- a requires that reads no parameter ----------------------------------------------------

GATE = """\
game "Gate"
players 2

grid board: 2 by 2
variable ground of each board: any = none
variable tokens of each player: number = 0

phase play
  turn 0
    0 takes an action from build, earn
  turn 1
    1 takes an action from build, earn

action build{params}
  requires tokens(me) >= 1                   # RULE-GATE
  set ground(at) = 1

action earn
  add 1 to tokens(1)

scoring
  score = tokens(p)
"""
# every parameter list reads a cell off the board if its options are worked out
OFF_BOARD = "[c in board where ground(cell(5, 5)) == none]"


@pytest.mark.parametrize("params", [
    f"(at: one of {OFF_BOARD})",
    f"(at: one of {OFF_BOARD}, turns: one of [0, 1])",                       # a product
    f"(at: one of {OFF_BOARD}, turns: one of [t in [0, 1] where t != x_of(at)])",   # dependent
    f"(turns: one of [0, 1], at: one of {OFF_BOARD})",
], ids=["one", "product", "dependent", "second"])
def test_a_requirement_that_reads_no_parameter_is_checked_first(tmp_path, params):
    path = tmp_path / "gate.rules"
    text = GATE.format(params=params)
    path.write_text(text, encoding="utf-8")
    game = load_rulebook(path)
    state = game.new_game(2, seed=1)
    assert texts(game, state, 0) == ["earn"]       # build: nothing listed, nothing evaluated
    assert state.memo is None
    for typed in ("build (0,0)", "build (0,0), 1", "build 7, (9,9)"):
        with pytest.raises(ActionError) as info:
            game.parse_action(state, 0, typed)
        assert info.value.code == "action/illegal"
        assert "the requirement does not hold" in info.value.message
        assert info.value.span.line == place(text, "# RULE-GATE", "requires")[0]
    # once it holds, the options are worked out, and the board's edge is reached
    after = game.apply(state, game.parse_action(state, 0, "earn"))
    with pytest.raises(RuleError) as info:
        game.legal_actions(after, 1)
    assert info.value.code == "rule/runtime" and "(5,5)" in info.value.message
    assert after.memo is None


# -- shape ATTR ----------------------------------------------------------------------------

BAD_SHAPES = [
    ("gap", "[[0, 0], [2, 0]]"),                  # two parts
    ("twice", "[[0, 0], [1, 0], [0, 0]]"),        # a repeated cell
    ("short", "[[0, 0], [1]]"),                   # a non-pair
    ("flat", "[0, 1]"),                           # not a list of cells
]


def test_a_shape_is_refused_at_its_table_cell():
    rows = "".join(f"  | {n} | {c} |\n" for n, c in [("fine", "[[0, 0], [0, 1]]")] + BAD_SHAPES)
    text = source("component piece\n  | name | cells |\n" + rows + "  shape cells\n")
    assert errors(text) == [("rulebook/invalid", "t.rules", *place(text, f"| {n} |", c))
                            for n, c in BAD_SHAPES]


def test_a_shape_is_refused_at_its_data_file_cell(tmp_path):
    data = "".join(f"- {{name: {n}, cells: {c}}}\n" for n, c in [("fine", "[[0, 0], [0, 1]]")] + BAD_SHAPES)
    (tmp_path / "pieces.yaml").write_text(data, encoding="utf-8")
    text = source('component piece from "pieces.yaml"\n  shape cells\n')
    assert errors(text, tmp_path) == [("data/invalid", "pieces.yaml", *place(data, f"name: {n},", c))
                                      for n, c in BAD_SHAPES]


def test_a_shape_of_no_column_is_an_unknown_name():
    text = source("component piece\n  | name | cells |\n  | a | [[0, 0]] |\n  shape cels\n")
    assert errors(text) == [("rulebook/unknown-name", "t.rules", *place(text, "shape", "cels"))]


@pytest.mark.parametrize("line", ["define bad = ground(3)\n", "define bad = ground(players[0])\n"])
def test_a_number_is_not_a_cell_of_a_grid_variable(line):
    """Reading a per-cell variable with a number is a type error when the rulebook is loaded."""
    with pytest.raises(RulebookErrors) as info:
        run(source(BOARD + line))
    assert [e.code for e in info.value.errors] == ["rulebook/type"]


def test_writing_a_grid_variable_with_a_number_is_a_type_error():
    with pytest.raises(RulebookErrors) as info:
        run(source(BOARD, "  set ground(3) = 1\n"))
    assert [e.code for e in info.value.errors] == ["rulebook/type"]


def test_none_is_not_a_cell_and_says_so():
    with pytest.raises(RuleError) as info:
        evaluate("ground(first([c in board where ground(c) == 5]))", BOARD)
    assert "none is not a cell of grid 'board'" in str(info.value)


@pytest.mark.parametrize("formula", ["orientations([[0, 0], [1, 0]], 5)",
                                     "fits([[0, 0]], board, 2)"])
def test_mirroring_is_yes_or_no(formula):
    with pytest.raises(RuleError) as info:
        evaluate(formula, BOARD)
    assert info.value.code == "rule/runtime" and "yes or no" in str(info.value)



def _outcome(run):
    try:
        return run()
    except Exception as e:          # noqa: BLE001 - the kind of refusal is what is compared
        return type(e)


@pytest.mark.parametrize("x, y", [(0, 0), (3, -2), (-32767, 32767), (32768, 0), (0, -32768),
                                  (True, 1), (1, None), (None, 1), ("a", 2), (2, [1])])
def test_cell_written_out_agrees_with_the_builtin(x, y):
    """The generated code works out `cell` as arithmetic on whole numbers
    within the plane and hands anything else to the builtin: the same cell,
    or the same refusal; `x_of` and `y_of` of the cell give x and y back."""
    from interpreter.compiler.pysource import Module, PyFormulas
    py = object.__new__(PyFormulas)         # (only what `_cell` reads)
    py.mod, py._temps = Module(), {}
    text = py._cell([repr(x), repr(y)]).src
    written = _outcome(lambda: eval(text, py.mod.namespace))   # noqa: S307 - the generator's own text
    assert written == _outcome(lambda: grid.cell(x, y))
    if type(written) is int:
        assert (written // grid.BASE - grid.OFFSET, written % grid.BASE - grid.OFFSET) == (x, y)

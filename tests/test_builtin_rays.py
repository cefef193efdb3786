"""`ray(c, dx, dy, C)` (docs/language.md §7.9): the cells after `c` in steps
of (dx, dy), nearest first, for as long as each is one of `C`.

A tiny rulebook of its own: a 5 by 5 court with stones, where a rook-like
runner slides along open lines; formulas are probed through its setup.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from interpreter.errors import RuleError
from interpreter.game.engine import Game
from interpreter.language.loader import compile_ir
from interpreter.stdlib import grid

COURT = """game "Court"
players 2
grid court: 5 by 5
variable stone of each court: bool = no
variable runner: cell = none
variable result: any = none
define open = [c in court where not stone(c)]
component heading
  | dx | dy |
  | 1  | 0  |
  | -1 | 0  |
  | 0  | 1  |
  | 0  | -1 |
define reach(c) = [t in court where any(h in heading where contains(ray(c, h.dx, h.dy, open), t))]
define probe = {formula}
setup
  set stone(cell(3, 2)) = yes
  set stone(cell(2, 4)) = yes
  set runner = cell(2, 2)
  set result = probe
phase play
  repeat 2 times
    turn 0
      0 takes an action
action slide(to: one of reach(runner))
  set runner = to
scoring
  score = 0
"""


def start(formula: str = "none"):
    game = Game(compile_ir(COURT.format(formula=formula), "court.rules", Path(".")))
    return game, game.new_game(2, seed=1)


def evaluate(formula: str):
    game, state = start(formula)
    return state.vars[game.program(2).lay.variables["result"].base]


def xy(cells) -> list:
    return [(grid.x_of(c), grid.y_of(c)) for c in cells]


def test_a_ray_walks_nearest_first_and_stops_at_the_edge_of_the_cells():
    assert xy(evaluate("ray(cell(0, 0), 1, 0, court)")) == [(1, 0), (2, 0), (3, 0), (4, 0)]
    assert xy(evaluate("ray(cell(4, 1), -1, 0, court)")) == [(3, 1), (2, 1), (1, 1), (0, 1)]


def test_a_ray_stops_before_the_first_cell_not_given():
    assert xy(evaluate("ray(cell(0, 2), 1, 0, open)")) == [(1, 2), (2, 2)]      # a stone on (3,2)


def test_a_ray_is_empty_when_the_next_cell_is_not_given():
    assert evaluate("ray(cell(2, 2), 1, 0, open)") == []
    assert evaluate("ray(cell(2, 2), 0, 1, [cell(2, 4)])") == []                   # (2,3) not given


def test_a_ray_walks_diagonals_and_longer_steps():
    assert xy(evaluate("ray(cell(0, 0), 1, 1, court)")) == [(1, 1), (2, 2), (3, 3), (4, 4)]
    assert xy(evaluate("ray(cell(4, 0), -1, 1, court)")) == [(3, 1), (2, 2), (1, 3), (0, 4)]
    assert xy(evaluate("ray(cell(0, 0), 2, 1, court)")) == [(2, 1), (4, 2)]


def test_a_ray_never_holds_its_start_and_may_leave_a_grid_of_no_bounds():
    assert xy(evaluate("ray(cell(0, 0), 1, 0, [cell(0, 0), cell(1, 0), cell(-1, 0)])")) == [(1, 0)]
    assert xy(evaluate("ray(cell(0, 0), -1, 0, [cell(-1, 0), cell(-2, 0)])")) == [(-1, 0), (-2, 0)]


def test_a_rays_cells_are_the_options_of_a_slide():
    """The runner on (2,2) reaches along its row and column up to the stones
    on (3,2) and (2,4), never onto them."""
    game, state = start()
    options = sorted(str(a) for a in game.legal_actions(state, 0))
    assert options == sorted(["slide (1,2)", "slide (0,2)", "slide (2,3)",
                              "slide (2,1)", "slide (2,0)"])
    state = game.apply(state, next(a for a in game.legal_actions(state, 0) if str(a) == "slide (2,0)"))
    assert sorted(str(a) for a in game.legal_actions(state, 0)) == sorted(
        ["slide (0,0)", "slide (1,0)", "slide (3,0)", "slide (4,0)", "slide (2,1)", "slide (2,2)",
         "slide (2,3)"])


@pytest.mark.parametrize("formula", ["ray(cell(0, 0), 0, 0, court)", "ray(cell(0, 0), yes, 0, court)"])
def test_a_ray_without_a_step_of_whole_numbers_is_a_runtime_error(formula):
    with pytest.raises(RuleError) as err:
        start(formula)
    assert err.value.code == "rule/runtime"


def _walked(c, dx, dy, cells):
    """The ray as the language defines it, step by step on (x, y)."""
    x, y, out = grid.x_of(c), grid.y_of(c), []
    while True:
        x, y = x + dx, y + dy
        if abs(x) > grid.LIMIT or abs(y) > grid.LIMIT or grid.cell(x, y) not in cells:
            return out
        out.append(grid.cell(x, y))


def test_the_ray_is_the_walk_step_by_step_up_to_the_edge_of_the_plane():
    from hypothesis import given, strategies as st
    edge = st.sampled_from([-grid.LIMIT, -grid.LIMIT + 1, -1, 0, 1, grid.LIMIT - 1, grid.LIMIT])

    @given(edge, edge, st.integers(-2, 2), st.integers(-2, 2), st.booleans())
    def check(x, y, dx, dy, as_set):
        if dx == 0 and dy == 0:
            return
        # every number near the start, whether a cell of the plane or not
        near = {grid.cell(x, y) + k * grid.BASE + j for k in range(-6, 7) for j in range(-6, 7)}
        cells = near if as_set else sorted(near)
        assert grid.ray(grid.cell(x, y), dx, dy, cells) == _walked(grid.cell(x, y), dx, dy, near)
    check()


# The generated code writes `neighbours` out as four sums: through a
# rulebook, they are the builtin's four cells, in its order.
def test_neighbours_through_the_generated_code_are_the_builtins():
    assert evaluate("neighbours(cell(2, 3))") == grid.neighbours(grid.cell(2, 3))
    assert evaluate("neighbours(cell(0 - 4, 0))") == grid.neighbours(grid.cell(-4, 0))
    assert xy(evaluate("neighbours(runner)")) == [(2, 3), (3, 2), (2, 1), (1, 2)]

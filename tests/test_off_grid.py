"""A read or a `set` of a grid's variable at a cell off the grid is a rule
error at that read — in a define, at the define's line, not at the
statement that called it — with a hint to guard it with `contains`."""

from __future__ import annotations

import pytest

from interpreter import load_rulebook
from interpreter.errors import RuleError

GAME = """\
game "Edge"
players 2
grid board: 3 by 3
variable cover of each board: number = 0
variable total: number = 0
define east_of(c) = cover(cell(x_of(c) + 1, y_of(c)))
setup
  set cover(cell(2, 2)) = 1
  set total = east_of(cell(2, 0))
phase play
  end game
scoring
  score = total
"""


def game_with(tmp_path, text=GAME):
    path = tmp_path / "edge.rules"
    path.write_text(text, encoding="utf-8")
    return load_rulebook(str(path))


def test_a_read_off_the_grid_in_a_define_points_at_the_read(tmp_path):
    game = game_with(tmp_path)
    with pytest.raises(RuleError) as err:
        game.new_game(players=2, seed=1)
    e = err.value
    assert e.code == "rule/runtime" and "(3,0) is not a cell of grid 'board'" in e.message
    assert (e.span.line, e.span.column) == (6, 21)          # cover(…) in the define
    assert "contains(board, c)" in e.hint


def test_a_set_off_the_grid_points_at_its_target(tmp_path):
    game = game_with(tmp_path, GAME.replace("set cover(cell(2, 2)) = 1", "set cover(cell(3, 2)) = 1"))
    with pytest.raises(RuleError) as err:
        game.new_game(players=2, seed=1)
    assert (err.value.span.line, err.value.span.column) == (8, 7)
    assert "contains(board, c)" in err.value.hint


def test_a_guarded_read_stays_on_the_grid(tmp_path):
    guarded = GAME.replace("define east_of(c) = cover(cell(x_of(c) + 1, y_of(c)))",
                           "define east_of(c) = cover(cell(x_of(c) + 1, y_of(c))) if contains(board, "
                           "cell(x_of(c) + 1, y_of(c))) else 0")
    game = game_with(tmp_path, guarded)
    state = game.new_game(players=2, seed=1)
    assert game.outcome(state).scores == (0, 0)


LOOP = """\
game "Edge"
players 2
grid board: 3 by 3
variable cover of each board: number = 0
variable total: number = 0
setup
  set cover(cell(1, 1)) = 1
  set total = count(c in {cells} where cover(c) == 1)
phase play
  end game
scoring
  score = total
"""


def test_a_loop_over_a_fixed_list_reads_each_slot_as_its_element_would(tmp_path):
    """A loop over a list fixed at load has the slots it reads worked out
    once (compiler/pysource.py, `_looked_up`): the same count. A list with
    a cell off the grid keeps its reads, and the read of that cell is the
    error, at the read."""
    on = game_with(tmp_path, LOOP.format(cells="[cell(0, 0), cell(1, 1), cell(2, 1)]"))
    state = on.new_game(players=2, seed=1)
    assert on.scores(state) == (1, 1)
    assert "with what the loop reads" in on.program(2).python.text()
    off = game_with(tmp_path, LOOP.format(cells="[cell(1, 1), cell(5, 1)]"))
    with pytest.raises(RuleError) as err:
        off.new_game(players=2, seed=1)
    assert "(5,1) is not a cell of grid 'board'" in err.value.message
    assert (err.value.span.line, err.value.span.column) == (8, 57)     # cover(c)

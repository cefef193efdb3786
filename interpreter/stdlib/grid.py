"""Cells of square grids: a small value type and its arithmetic.

A cell (x, y) is one integer, so it hashes, compares and saves (JSON) like
a number, and a state stays plain data; its text is ``(x,y)``, which the
REPL prints and reads back. Directions are numbers, clockwise from the top:
0 north (y + 1), 1 east (x + 1), 2 south (y - 1), 3 west (x - 1). A grid is
unbounded within ±32767 on each axis; a rulebook bounds it with formulas
(`x_of`, `y_of`) where the board has an edge.
"""

from __future__ import annotations

import re

from ..errors import RuleError

OFFSET = 1 << 15
BASE = 1 << 16
LIMIT = OFFSET - 1
STEPS = (1, BASE, -1, -BASE)          # north, east, south, west
DIRECTIONS = len(STEPS)
_TEXT = re.compile(r"^\(\s*(-?\d+)\s*,\s*(-?\d+)\s*\)$")


def cell(x: int, y: int) -> int:
    if not (isinstance(x, int) and isinstance(y, int)) or isinstance(x, bool) or isinstance(y, bool):
        raise RuleError(f"cell({x!r}, {y!r}): a cell's coordinates are whole numbers",
                        code="rule/runtime")
    if abs(x) > LIMIT or abs(y) > LIMIT:
        raise RuleError(f"cell({x}, {y}) is off the grid (coordinates within ±{LIMIT})",
                        code="rule/runtime")
    return (x + OFFSET) * BASE + (y + OFFSET)


def x_of(c: int) -> int:
    return c // BASE - OFFSET


def y_of(c: int) -> int:
    return c % BASE - OFFSET


def text(c) -> str:
    if c is None:
        return "none"
    return f"({x_of(c)},{y_of(c)})"


def parse(s: str):
    """The cell a text such as ``(1,-2)`` names, or None."""
    m = _TEXT.match(s.strip())
    if not m:
        return None
    x, y = int(m.group(1)), int(m.group(2))
    if abs(x) > LIMIT or abs(y) > LIMIT:
        return None
    return cell(x, y)


def _direction(d) -> int:
    if isinstance(d, bool) or not isinstance(d, int):
        raise RuleError(f"{d!r} is no direction: directions are 0 (north) to 3 (west)",
                        code="rule/runtime")
    return d % DIRECTIONS


def neighbour(c: int, d: int) -> int:
    n = c + STEPS[_direction(d)]
    if abs(x_of(n)) > LIMIT or abs(y_of(n)) > LIMIT:
        raise RuleError(f"the neighbour of {text(c)} is off the grid", code="rule/runtime")
    return n


def neighbours(c: int) -> list:
    return [c + step for step in STEPS]


def next_to(cells) -> list:
    """The cells that share an edge with one of `cells` and are not among
    them, in a fixed order (by x, then y)."""
    taken = set(cells)
    out = {c + step for c in taken for step in STEPS}
    return sorted(out - taken)


def ray(c: int, dx: int, dy: int, cells) -> list:
    """The cells after `c` in steps of (dx, dy), nearest first, for as long
    as each is one of `cells`: the walk stops before the first cell that is
    not (or at the edge of the ±32767 plane)."""
    if dx.__class__ is not int or dy.__class__ is not int:     # (a bool is no step)
        raise RuleError(f"ray(…, {dx!r}, {dy!r}, …): a step is whole numbers",
                        code="rule/runtime")
    if dx == 0 and dy == 0:
        raise RuleError("ray(…, 0, 0, …) does not move: give a step", code="rule/runtime")
    step = dx * BASE + dy          # one step (dx, dy) of a cell's number, inside the plane
    n = c + step
    if n not in cells:             # most walks stop at once
        return []
    # a number off the plane may name another cell: the walk stops at the edge
    x, y = c // BASE - OFFSET, c % BASE - OFFSET
    allowed = cells if isinstance(cells, (set, frozenset)) else set(cells)
    out = []
    while True:
        x += dx
        y += dy
        if x > LIMIT or x < -LIMIT or y > LIMIT or y < -LIMIT or n not in allowed:
            return out
        out.append(n)
        n += step


def turned(values, r: int) -> list:
    """A list of per-side values turned r quarter turns clockwise: side d
    then shows what side d - r showed."""
    values = list(values)
    k = len(values)
    if not k:
        return values
    r = r % k
    return values[-r:] + values[:-r] if r else values


class Bounded:
    """A declared grid `NAME: W by H`: the cells (0,0) … (W-1,H-1), listed
    by x, then y, and the position of each in that list (where a variable
    'of each NAME' keeps that cell's value). A grid `of each player` is one
    such list for every player: a cell is a coordinate, the same on each
    player's grid, and the player says whose value a variable reads."""

    __slots__ = ("name", "width", "height", "per_player", "cells", "positions")

    def __init__(self, name: str, width: int, height: int, per_player: bool = False):
        self.name, self.width, self.height = name, width, height
        self.per_player = per_player
        self.cells = [cell(x, y) for x in range(width) for y in range(height)]
        # cell -> its position; a cell off the grid is a rule error (`Positions`)
        self.positions = Positions(self)

    def position(self, c) -> int:
        return self.positions[c]

    def positions_at(self, span) -> "Positions":
        """The positions for one read or `set` of the rulebook, at `span`: a
        cell off the grid is a rule error there (in a define, at the define's
        read, not at the statement that called it), with a hint to guard it."""
        return Positions(self, span)


class Positions(dict):
    """cell -> position in a grid's list; looking up a cell off the grid
    raises the rule error that says so (a plain dict lookup otherwise)."""

    __slots__ = ("grid", "span")

    def __init__(self, grid: "Bounded", span=None):
        super().__init__((c, k) for k, c in enumerate(grid.cells))
        self.grid, self.span = grid, span

    def __missing__(self, c):
        g = self.grid
        shown = text(c) if c is None or (isinstance(c, int) and not isinstance(c, bool)) else repr(c)
        named = f"{g.name}(p)" if g.per_player else g.name
        raise RuleError(f"{shown} is not a cell of grid '{g.name}' ({g.width} by {g.height}: "
                        f"(0,0) to ({g.width - 1},{g.height - 1}))", self.span,
                        hint=f"guard the read where a cell may be off the grid: "
                             f"if contains({named}, c) …, or [c in CELLS where contains({named}, c)]",
                        code="rule/runtime")


__all__ = ["Bounded", "cell", "x_of", "y_of", "text", "parse", "neighbour", "neighbours", "next_to",
           "ray", "turned", "DIRECTIONS"]

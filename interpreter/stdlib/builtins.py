"""The standard library of formula builtins, in one table.

The checker reads this table for names and arities, the compiler for the
implementations, so the two cannot drift. Every builtin is general (counting,
ordering, majorities, player arithmetic); none knows a game. Aggregates —
``count(x in C where …)``, ``sum(e for x in C where …)`` and friends — are in
`AGGREGATES`; plain functions in `FUNCTIONS`.

A function receives ``(ctx, *args)``: ``ctx`` is the running `Machine`'s
evaluation context, which gives access to the player count and the random
generator of the state for the few builtins that need them.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from typing import Callable

from . import grid, shapes
from ..errors import RuleError
from .types import ANY, BOOL, CELL, NUMBER, PLAYER, elem, list_of


@dataclass(frozen=True)
class Builtin:
    name: str
    min_args: int
    max_args: int
    doc: str
    impl: Callable
    returns: object = NUMBER  # the result's kind, or a function of the arguments' kinds
    random: bool = False      # draws from the state's generator: statements only
    # (value, *args) -> why `value` is not among the results, as text, or None:
    # a refused choice `one of B(…)` names the reason (interpreter/runtime/explain.py)
    why: Callable | None = None
    # (the arguments' kinds) -> the implementation for them, where a builtin
    # needs to know (random: the kind names the outcomes of a chance node)
    typed: Callable | None = None
    # the argument the builtin only looks values up in, if one: generated code
    # may hand it a set of the same values (compiler/pysource.py, `members`)
    members: int | None = None
    # tells its argument's elements apart by their values (a set): elements
    # that are lists cannot be, and the checker refuses them
    by_value: bool = False
    # charges what it builds to the step's budget of formula work: the
    # implementation receives the budget (runtime/budget.py), not a context
    charged: bool = False
    # the type of each argument (None: any): the checker refuses an argument
    # of another kind (a word for a number, a number for a list) at it
    takes: tuple = ()

    def result_type(self, arg_types: list) -> str:
        return self.returns(arg_types) if callable(self.returns) else self.returns


def _element_of_first(types):
    return elem(types[0])


def _same_as_first(types):
    return types[0]


def _opponent(ctx, p):
    if ctx.n != 2:
        raise RuleError(f"opponent() needs exactly 2 players, this game has {ctx.n}",
                        code="rule/runtime")
    return 1 - p


def _next_player(ctx, p, k=1):
    return (p + k) % ctx.n


def _previous_player(ctx, p, k=1):
    return (p - k) % ctx.n


def _turn_order(ctx, start):
    n = ctx.n
    return [(start + i) % n for i in range(n)]


def _random(ctx, coll, kind=ANY):
    coll = list(coll)
    if not coll:
        raise RuleError("random() of an empty collection", code="rule/runtime")
    chance = ctx.chance
    if chance is not None:       # a game whose draws are chance nodes (runtime/chance.py)
        return coll[chance.draw(coll, kind)]
    return coll[ctx.randbelow(len(coll))]


_RANDOM_OF: dict = {}


def _random_of(kinds):
    """`random` of a collection of the given kind: the same draw, whose
    outcomes a chance node names as values of their kind (`P1`, `G7`)."""
    kind = elem(kinds[0]) if kinds else ANY
    impl = _RANDOM_OF.get(kind)
    if impl is None:
        def impl(ctx, coll):
            return _random(ctx, coll, kind)
        _RANDOM_OF[kind] = impl
    return impl


def _size(ctx, coll):
    return len(coll)


def _contains(ctx, coll, x):
    return x in coll


def _abs(ctx, x):
    return abs(x)


def _min2(ctx, *xs):
    return min(xs)


def _max2(ctx, *xs):
    return max(xs)


def _first(ctx, coll):
    return coll[0] if coll else None


def _last(ctx, coll):
    return coll[-1] if coll else None


def _is_empty(ctx, coll):
    return not coll


def _reverse(ctx, coll):
    return list(coll)[::-1]


def _distinct(ctx, coll):
    seen, out = set(), []
    for x in coll:
        if x not in seen:
            seen.add(x)
            out.append(x)
    return out


def _multiplicities(ctx, coll):
    counts: dict = {}
    for x in coll:
        counts[x] = counts.get(x, 0) + 1
    return sorted(counts.values(), reverse=True)


def _combinations(budget, coll, k):
    """Every way to pick k of the elements, each a list in the collection's
    order, the ways in that order too; charged before anything is built."""
    coll = list(coll)
    if type(k) is not int or k < 0:
        raise RuleError(f"combinations() of {k!r}: the number to pick must be a whole "
                        f"number from 0", code="rule/runtime")
    ways = math.comb(len(coll), k) if k <= len(coll) else 0
    budget.left -= ways * (k + 1) + 1
    if budget.left < 0:
        budget.exhausted()
    return [list(c) for c in itertools.combinations(coll, k)]


def _without_context(fn):
    """A builtin made of a plain function that needs no evaluation context
    (kept as `plain`, for a compiler to call without one)."""
    def impl(ctx, *args):
        return fn(*args)
    impl.plain = fn
    return impl


FUNCTIONS: dict[str, Builtin] = {b.name: b for b in [
    Builtin("opponent", 1, 1, "the other player of a 2-player game", _opponent, PLAYER),
    Builtin("next_player", 1, 2, "the player k seats to the left (default 1)", _next_player,
            PLAYER),
    Builtin("previous_player", 1, 2, "the player k seats to the right (default 1)",
            _previous_player, PLAYER),
    Builtin("turn_order", 1, 1, "all players in seat order, starting with the given one",
            _turn_order, list_of(PLAYER)),
    Builtin("random", 1, 1, "a uniformly random element (uses the state's generator)",
            _random, _element_of_first, random=True, typed=_random_of),
    Builtin("size", 1, 1, "the number of elements of a collection or zone", _size),
    Builtin("contains", 2, 2, "whether a collection holds a value", _contains, BOOL),
    Builtin("abs", 1, 1, "absolute value", _abs),
    Builtin("smaller", 2, 9, "the smallest of the arguments", _min2),
    Builtin("larger", 2, 9, "the largest of the arguments", _max2),
    Builtin("first", 1, 1, "the first element, or none", _first, _element_of_first),
    Builtin("last", 1, 1, "the last element (the top of an ordered zone), or none", _last,
            _element_of_first),
    Builtin("is_empty", 1, 1, "whether a collection is empty", _is_empty, BOOL),
    Builtin("distinct", 1, 1, "the elements without repeats, in order", _distinct,
            _same_as_first, by_value=True),
    Builtin("combinations", 2, 2, "every way to pick k of the elements, each a list in the "
            "elements' order: combinations([a, b, c], 2) is [[a, b], [a, c], [b, c]]",
            _combinations, lambda types: list_of(types[0]) if types else ANY, charged=True,
            takes=(list_of(ANY), NUMBER)),
    Builtin("reverse", 1, 1, "the elements in the opposite order", _reverse, _same_as_first),
    Builtin("multiplicities", 1, 1, "how many elements are equal to each other, largest "
            "first: [a, b, a, a] gives [3, 1]", _multiplicities, list_of(NUMBER),
            by_value=True),
    # square grids (interpreter/stdlib/grid.py): directions 0 north, 1 east, 2 south, 3 west
    Builtin("cell", 2, 2, "the cell at (x, y) of a square grid", _without_context(grid.cell),
            CELL),
    Builtin("x_of", 1, 1, "a cell's x (column, growing to the east)", _without_context(grid.x_of)),
    Builtin("y_of", 1, 1, "a cell's y (row, growing to the north)", _without_context(grid.y_of)),
    Builtin("neighbour", 2, 2, "the cell next to a cell in direction d (0 N, 1 E, 2 S, 3 W)",
            _without_context(grid.neighbour), CELL),
    Builtin("neighbours", 1, 1, "the four cells next to a cell: north, east, south, west",
            _without_context(grid.neighbours), list_of(CELL)),
    Builtin("next_to", 1, 1, "the cells sharing an edge with one of the given cells, "
            "not among them (ordered by x, then y)", _without_context(grid.next_to),
            list_of(CELL)),
    Builtin("ray", 4, 4, "the cells after a cell in steps of (dx, dy), nearest first, for as "
            "long as each is one of the given cells", _without_context(grid.ray), list_of(CELL),
            members=3),
    Builtin("turned", 2, 2, "a list of per-side values turned r quarter turns clockwise: "
            "side d shows what side d - r showed", _without_context(grid.turned), _same_as_first),
    # shapes (interpreter/stdlib/shapes.py): polyominoes, groups and areas on square grids
    Builtin("orientations", 1, 2, "the orientations of a shape: 0 … n-1, its distinct quarter "
            "turns clockwise, then (mirror yes) its distinct mirror images",
            _without_context(shapes.orientations), list_of(NUMBER)),
    Builtin("footprint", 3, 3, "the cells a shape covers in orientation r at an anchor cell",
            _without_context(shapes.footprint), list_of(CELL)),
    Builtin("anchors", 3, 3, "the anchors where a shape in orientation r covers only the given "
            "cells (ordered by x, then y)", _without_context(shapes.anchors), list_of(CELL),
            why=shapes.why_not_anchor),
    Builtin("fits", 2, 3, "whether a shape fits inside the given cells in some orientation "
            "(mirror images too when the third argument is yes)", _without_context(shapes.fits),
            BOOL),
    Builtin("connected", 1, 1, "the groups of the given cells that are connected by shared "
            "edges, each a list of cells", _without_context(shapes.connected),
            list_of(list_of(CELL))),
    Builtin("flood", 2, 2, "a cell and every cell reachable from it by steps across shared "
            "edges through the given cells", _without_context(shapes.flood), list_of(CELL)),
    Builtin("shares_edge", 2, 2, "whether a cell of the first list shares an edge with a cell of "
            "the second", _without_context(shapes.touching), BOOL),
    Builtin("rotated", 2, 2, "a rectangle of values, as rows, turned r quarter turns "
            "clockwise: [[a, b], [c, d]] turned 1 is [[c, a], [d, b]]",
            _without_context(shapes.rotated), _same_as_first),
]}


# Aggregates: (name) -> (needs `by`, doc). The compiler implements them; they
# all iterate `VAR in SOURCE`, keep elements where WHERE holds, and then:
AGGREGATES: dict[str, str] = {
    "count": "the number of elements kept",
    "sum": "the sum of VALUE over the elements kept (VALUE defaults to the element)",
    "min": "the smallest VALUE, or none if nothing is kept",
    "max": "the largest VALUE, or none if nothing is kept",
    "any": "whether some element is kept",
    "all": "whether every element passes WHERE",
    "filter": "the elements kept, as a list ([x in C where …] is the same)",
    "each": "VALUE for every element kept, as a list",
    "majority": "the single element with the strictly highest BY value, or none on a tie",
    "minority": "the single element with the strictly lowest BY value, or none on a tie",
    "best": "all elements sharing the highest BY value, as a list",
    "worst": "all elements sharing the lowest BY value, as a list",
    "sorted": "the elements kept, ordered by BY value, lowest first (ties keep their order)",
    "unmatched": "the elements whose BY value no other kept element shares, as a list",
    "matched": "the elements whose BY value some other kept element shares, as a list",
}

# Names every rulebook can read.
CONSTANTS = {
    "players": "all players, in seat order",
    "player_count": "the number of players",
    "round": "the number of rounds begun (`new round`)",
    "turn": "the number of turns begun (`turn P`)",
    "current": "the active player of the turn being played, or none",
}

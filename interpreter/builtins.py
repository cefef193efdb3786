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

from dataclasses import dataclass
from typing import Callable

from .errors import RuleError


@dataclass(frozen=True)
class Builtin:
    name: str
    min_args: int
    max_args: int
    doc: str
    impl: Callable
    random: bool = False      # draws from the state's generator: statements only


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


def _random(ctx, coll):
    coll = list(coll)
    if not coll:
        raise RuleError("random() of an empty collection", code="rule/runtime")
    return coll[ctx.randbelow(len(coll))]


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


FUNCTIONS: dict[str, Builtin] = {b.name: b for b in [
    Builtin("opponent", 1, 1, "the other player of a 2-player game", _opponent),
    Builtin("next_player", 1, 2, "the player k seats to the left (default 1)", _next_player),
    Builtin("previous_player", 1, 2, "the player k seats to the right (default 1)",
            _previous_player),
    Builtin("turn_order", 1, 1, "all players in seat order, starting with the given one",
            _turn_order),
    Builtin("random", 1, 1, "a uniformly random element (uses the state's generator)",
            _random, random=True),
    Builtin("size", 1, 1, "the number of elements of a collection or zone", _size),
    Builtin("contains", 2, 2, "whether a collection holds a value", _contains),
    Builtin("abs", 1, 1, "absolute value", _abs),
    Builtin("smaller", 2, 9, "the smallest of the arguments", _min2),
    Builtin("larger", 2, 9, "the largest of the arguments", _max2),
    Builtin("first", 1, 1, "the first element, or none", _first),
    Builtin("last", 1, 1, "the last element (the top of an ordered zone), or none", _last),
    Builtin("is_empty", 1, 1, "whether a collection is empty", _is_empty),
    Builtin("distinct", 1, 1, "the elements without repeats, in order", _distinct),
    Builtin("reverse", 1, 1, "the elements in the opposite order", _reverse),
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

"""The numbers of a range `A to B`, as the generated code lists them.

A range is a list of whole numbers, A, A + 1, … up to B, both included;
empty when B is less than A. The Python of `pysource` calls a function
made here once per range of the rulebook (`numbers_of`). The list is built only
after its length is known to be within MAX_RANGE and has been charged to
the step's budget of formula work (runtime/budget.py), one unit a number:
a range of a billion numbers stops at once with a coded error at the
range, instead of filling the memory.
"""

from __future__ import annotations

from ..errors import RuleError, span_at
from .limits import MAX_RANGE, count


def length(low: int, high: int) -> int:
    """How many numbers `low to high` holds."""
    return max(0, high - low + 1)


def too_long(n: int) -> str:
    """The message of a range past MAX_RANGE, at load and while a game runs."""
    return f"a range of {n:,} numbers: at most {count(MAX_RANGE)}"


TOO_LONG_HINT = ("a range is a list the rules look at; for a count, compute it "
                 "(B - A + 1), or narrow the range")


def numbers_of(e: dict, file: str, budget):
    """``(low, high) -> [low, …, high]`` for the range node `e`; a wrong end
    is `rule/runtime` at that end, a range past the limit at the range."""
    low_at, high_at, at = e["low"]["at"], e["high"]["at"], e["at"]

    def numbers(low, high):
        _whole(low, high, "number of a range", file, low_at, high_at,
               "a range is written between whole numbers: 1 to size(hand(me))")
        n = high - low + 1
        if n <= 0:
            return []
        if n > MAX_RANGE:
            raise RuleError(too_long(n), span_at(file, at), hint=TOO_LONG_HINT)
        budget.left -= n
        if budget.left < 0:
            budget.exhausted()
        return list(range(low, high + 1))
    return numbers


def slice_of(e: dict, file: str):
    """``(xs, low, high) -> xs[low to high]`` for the slice node `e`: the
    elements at places low … high (from 0, both included) that the list
    has, so ``xs[0 to m - 1]`` is at most the first m; empty when high is
    less than low. A place that is no whole number is `rule/runtime` at it."""
    low_at, high_at, at = e["low"]["at"], e["high"]["at"], e["at"]

    def part(xs, low, high):
        _whole(low, high, "place of a slice", file, low_at, high_at,
               "a slice is written between places, from 0: xs[0 to 2]")
        if not isinstance(xs, list):
            raise RuleError(f"a slice takes part of a list, but this is {_kind(xs)}",
                            span_at(file, at), hint="slice a list: hand(me)[0 to 2]")
        if high < low or high < 0:
            return []
        return xs[max(low, 0):high + 1]
    return part


def _whole(low, high, what: str, file: str, low_at, high_at, hint: str) -> None:
    """Both ends of a range or a slice are whole numbers, or `rule/runtime`
    at the first that is not."""
    if type(low) is int and type(high) is int:
        return
    for value, at, which in ((low, low_at, "first"), (high, high_at, "last")):
        if type(value) is not int:
            raise RuleError(f"the {which} {what} is {_kind(value)}", span_at(file, at), hint=hint)


def _kind(value) -> str:
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "yes/no"
    if isinstance(value, str):
        return f"the word '{value}'"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, int):
        return "a number"
    return "not a whole number"

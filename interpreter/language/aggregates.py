"""What the aggregates give: the type of each one's result, and the
functions that finish the aggregates of (BY value, element) pairs
(``majority``, ``best``, ``sorted``, ``matched`` and the others), which the
generated loops call (compiler/pysource.py).
"""

from __future__ import annotations

from ..stdlib.types import BOOL, NUMBER, list_of


def _extreme(pick, single):
    """(BY value, element) pairs -> the element(s) of the highest (max) or
    lowest (min) value, none-valued pairs left out; `single`: the one such
    element, or none on a tie."""
    def of_pairs(pairs):
        pairs = [kx for kx in pairs if kx[0] is not None]
        if not pairs:
            return None if single else []
        top = pick(k for k, _ in pairs)
        winners = [x for k, x in pairs if k == top]
        if single:
            return winners[0] if len(winners) == 1 else None
        return winners
    return of_pairs


def _sorted_pairs(pairs):
    """The elements by BY value, lowest first, none last, ties in order."""
    order = sorted(range(len(pairs)), key=lambda i: (pairs[i][0] is None, pairs[i][0], i))
    return [pairs[i][1] for i in order]


def _matching(want_shared):
    """The elements whose BY value another element shares (or none does)."""
    def of_pairs(pairs):
        pairs = [kx for kx in pairs if kx[0] is not None]
        counts: dict = {}
        for k, _ in pairs:
            counts[k] = counts.get(k, 0) + 1
        return [x for k, x in pairs if (counts[k] > 1) == want_shared]
    return of_pairs


# the aggregates of (BY value, element) pairs: name -> pairs -> result
PAIRED = {"majority": _extreme(max, True), "minority": _extreme(min, True),
          "best": _extreme(max, False), "worst": _extreme(min, False),
          "sorted": _sorted_pairs, "matched": _matching(True), "unmatched": _matching(False)}


def _paired_type(single: bool):
    return lambda item_t, value_t: item_t if single else list_of(item_t)


# aggregate -> (the type of its elements, the type of its values) -> its result's type
AGGREGATE_TYPES = {
    "count": lambda item_t, value_t: NUMBER, "sum": lambda item_t, value_t: NUMBER,
    "min": lambda item_t, value_t: value_t, "max": lambda item_t, value_t: value_t,
    "any": lambda item_t, value_t: BOOL, "all": lambda item_t, value_t: BOOL,
    "filter": lambda item_t, value_t: list_of(item_t),
    "each": lambda item_t, value_t: list_of(value_t),
    **{fn: _paired_type(fn in ("majority", "minority")) for fn in PAIRED},
}

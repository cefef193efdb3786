"""The closures that run aggregates: count, sum, min, max, any, all, filter,
each, majority, minority, best, worst, sorted, matched and unmatched.

`_AGGREGATE_MAKERS` has one maker per aggregate: given the closures of the
source, WHERE, VALUE and BY, it returns the aggregate's closure and its
static type. A WHERE, VALUE or BY that is a static table of the element
comes as a `_Column` (`_of_element`), and the loop reads the table without
binding the element; `_values` has one loop per shape, since it runs for
every list a formula builds.
"""

from __future__ import annotations

from .compiled import _NO_VALUE, Compiled
from ..stdlib.types import BOOL, NUMBER, list_of


class _Column:
    """An aggregate's WHERE, VALUE or BY that is a static table of the
    element (c.kind == some_kind): the loop reads the table, no local names."""

    __slots__ = ("fn", "column")

    def __init__(self, fn, column):
        self.fn, self.column = fn, column


def _of_element(c: Compiled, var: str, pieces: bool):
    """The closure, or a `_Column` when `c` is column[var] (and no entry
    fails) and the elements are sure to be pieces (`pieces`: the table is
    then read without looking them up first)."""
    if pieces and c.lookup is not None and c.lookup[1].local == var \
            and not any(v is _NO_VALUE for v in c.lookup[0]):
        return _Column(c.fn, c.lookup[0])
    return c.fn


def _split(f):
    """(closure, table or None) of a WHERE/VALUE/BY."""
    if type(f) is _Column:
        return f.fn, f.column
    return f, None


def _agg_count(sf, var, wf, vf, bf, item_t, value_t):
    if wf is None:
        return (lambda s, env: len(sf(s, env))), NUMBER
    wf, wt = _split(wf)
    if wt is not None:
        return (lambda s, env: len([x for x in sf(s, env) if wt[x]])), NUMBER

    def count(s, env):
        inner = dict(env)
        k = 0
        for x in sf(s, env):
            inner[var] = x
            if wf(s, inner):
                k += 1
        return k
    return count, NUMBER


def _values(sf, var, wf, vf, paired=False):
    """The kept elements' values (the elements themselves without VALUE);
    `paired` gives (value, element) pairs. One loop per shape: this runs for
    every list a formula builds."""
    wf, wt = _split(wf)
    vf, vt = _split(vf)
    if wt is not None and vf is None and not paired:
        return lambda s, env: [x for x in sf(s, env) if wt[x]]
    if wt is not None and vt is not None and not paired:
        return lambda s, env: [vt[x] for x in sf(s, env) if wt[x]]
    if wf is None and vt is not None:
        if paired:
            return lambda s, env: [(vt[x], x) for x in sf(s, env)]
        return lambda s, env: [vt[x] for x in sf(s, env)]
    if wt is None and wf is not None and vt is not None and not paired:
        def kept_values(s, env):
            inner = dict(env)
            out = []
            for x in sf(s, env):
                inner[var] = x
                if wf(s, inner):
                    out.append(vt[x])
            return out
        return kept_values
    if paired:
        def pairs(s, env):
            inner = dict(env)
            out = []
            for x in sf(s, env):
                inner[var] = x
                if wf is not None and not wf(s, inner):
                    continue
                out.append((vf(s, inner) if vf is not None else x, x))
            return out
        return pairs
    if wf is None:
        if vf is None:
            return lambda s, env: list(sf(s, env))

        def mapped(s, env):
            inner = dict(env)
            out = []
            for x in sf(s, env):
                inner[var] = x
                out.append(vf(s, inner))
            return out
        return mapped
    if vf is None:
        def kept(s, env):
            inner = dict(env)
            out = []
            for x in sf(s, env):
                inner[var] = x
                if wf(s, inner):
                    out.append(x)
            return out
        return kept

    def values(s, env):
        inner = dict(env)
        out = []
        for x in sf(s, env):
            inner[var] = x
            if wf(s, inner):
                out.append(vf(s, inner))
        return out
    return values


def _agg_sum(sf, var, wf, vf, bf, item_t, value_t):
    values = _values(sf, var, wf, vf)
    return (lambda s, env: sum(values(s, env))), NUMBER


def _agg_min(sf, var, wf, vf, bf, item_t, value_t):
    values = _values(sf, var, wf, vf)
    return (lambda s, env: min(values(s, env), default=None)), value_t


def _agg_max(sf, var, wf, vf, bf, item_t, value_t):
    values = _values(sf, var, wf, vf)
    return (lambda s, env: max(values(s, env), default=None)), value_t


def _agg_any(sf, var, wf, vf, bf, item_t, value_t):
    wf, wt = _split(wf)
    if wt is not None:
        def any_table(s, env):
            for x in sf(s, env):
                if wt[x]:
                    return True
            return False
        return any_table, BOOL

    def any_(s, env):
        inner = dict(env)
        for x in sf(s, env):
            inner[var] = x
            if wf is None or wf(s, inner):
                return True
        return False
    return any_, BOOL


def _agg_all(sf, var, wf, vf, bf, item_t, value_t):
    wf, wt = _split(wf)
    if wf is None:              # a condition an option switched on
        def all_kept(s, env):
            for _ in sf(s, env):
                pass
            return True
        return all_kept, BOOL
    if wt is not None:
        def all_table(s, env):
            for x in sf(s, env):
                if not wt[x]:
                    return False
            return True
        return all_table, BOOL

    def all_(s, env):
        inner = dict(env)
        for x in sf(s, env):
            inner[var] = x
            if not wf(s, inner):
                return False
        return True
    return all_, BOOL


def _agg_filter(sf, var, wf, vf, bf, item_t, value_t):
    return _values(sf, var, wf, None), list_of(item_t)


def _agg_each(sf, var, wf, vf, bf, item_t, value_t):
    return _values(sf, var, wf, vf), list_of(value_t)


def _scored(sf, var, wf, bf):
    return _values(sf, var, wf, bf, paired=True)


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


def _agg_paired(fn):
    of_pairs = PAIRED[fn]
    single = fn in ("majority", "minority")

    def make(sf, var, wf, vf, bf, item_t, value_t):
        scored = _scored(sf, var, wf, bf)
        return (lambda s, env: of_pairs(scored(s, env))), (
            item_t if single else list_of(item_t))
    return make


_AGGREGATE_MAKERS = {
    "count": _agg_count, "sum": _agg_sum, "min": _agg_min, "max": _agg_max,
    "any": _agg_any, "all": _agg_all, "filter": _agg_filter, "each": _agg_each,
    **{fn: _agg_paired(fn) for fn in PAIRED},
}

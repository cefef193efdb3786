"""Enumerate the options of a choice, told apart by content.

A choice picks one element, a sub-multiset of N elements, K unordered
groups of M elements, or M alike elements of each of K different kinds
from a collection. Identical components (same class) are one option:
choosing one of two alike cards is one choice, and two groups with the
same cards are one split. An option's key is its hashable content (what an
`Action` carries and prints); the value it stands for is the concrete ids
bound when the option is applied — the first matching ids in the
collection's order, so the result is deterministic. The options of a choice
of several elements follow from the hand's distinct keys and how many of
each it holds (its shape): the patterns of a shape are worked out once, and
an option's keys made when it is read (`Keyed`).
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Sequence

from ..language.layout import Layout
from ..stdlib.types import elem, is_comp


def key_function(type_: str, lay: Layout):
    """content key of one value of the given type"""
    ckey = lay.ckey
    if is_comp(type_):
        first, count = lay.types.get(type_[len("comp:"):], (0, 0))
        if type_ != "comp:" and all(ckey[c] == c for c in range(first, first + count)):
            return same         # no two pieces of the type alike: each is its own key
        def comp_key(v):
            return ckey[v] if v is not None else None
        comp_key.table = ckey      # a list of components keys with one C-level map
        return comp_key
    inner = elem(type_)
    if type_.startswith("list:"):
        k = key_function(inner, lay)
        return lambda v: tuple(sorted((k(x) for x in v), key=_order))
    return same


def same(v):
    """The key of a value that is its own key (a number, a word, a cell)."""
    return v


def _order(k):
    # keys of one choice share a type; tuples and ints sort among themselves
    return (0, k) if isinstance(k, int) else (1, str(k))


def one_keys(values: list, key) -> list:
    """The distinct keys of the elements, first occurrence first."""
    return list(dict.fromkeys(_keys(key, values)))


def _keys(key, values):
    """The key of each element, in order: the values themselves where they
    are their own keys."""
    return values if key is same else map(fast_key(key, values), values)


def fast_key(key, values):
    """`key`, or for component keys of a list without none its table's
    item getter (the same keys, without a Python call per element)."""
    table = getattr(key, "table", None)
    if table is not None and type(values) is list and None not in values:
        return table.__getitem__
    return key


def many_keys(values: list, key, count: int, memo: dict | None = None) -> Sequence:
    """Key tuples of each distinct sub-multiset of `count` elements. When
    the keys are all different these are the plain combinations of the
    sorted keys, in the same order (itertools, without the patterns);
    otherwise each is made from its pattern when read (`Keyed`)."""
    if not 0 <= count <= len(values):
        return []
    keys, counts = _shape(values, key, memo)
    if len(keys) == len(values):
        return list(itertools.combinations(keys, count))
    return Keyed(tuple(keys), _multisets(counts, count), False, (counts, count))


def groups_keys(values: list, key, ngroups: int, size: int, memo: dict | None = None) -> Sequence:
    """Tuples of group key tuples for each distinct way to pick `ngroups`
    unordered groups of `size` elements, each made when read (`Keyed`)."""
    if ngroups < 0 or size < 0 or ngroups * size > len(values):
        return []
    keys, counts = _shape(values, key, memo)
    return Keyed(tuple(keys), _partitions(counts, ngroups, size), True, (counts, ngroups, size))


class Keyed(Sequence):
    """The options of a choice of several elements, as the patterns of
    indices that a hand's shape allows (cached by shape) and the hand's
    distinct keys: an option's key tuple is made only when it is read, so a
    random player who looks at one of a hundred splits makes one. Reads
    like the list of those key tuples (and equals it). Read whole (a
    search player's tree looks at every option), it is made once for the
    hand's keys and shape, and kept (`_every`): the same hands come up again
    and again in a search."""

    __slots__ = ("keys", "patterns", "nested", "shape")

    def __init__(self, keys: tuple, patterns: tuple, nested: bool, shape: tuple):
        self.keys, self.patterns, self.nested, self.shape = keys, patterns, nested, shape

    def __len__(self) -> int:
        return len(self.patterns)

    def __getitem__(self, i):
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(len(self.patterns)))]
        keys = self.keys
        if self.nested:
            return tuple([tuple([keys[j] for j in group]) for group in self.patterns[i]])
        return tuple([keys[j] for j in self.patterns[i]])

    def __iter__(self):
        return iter(_every(self.keys, self.shape, self.nested))

    def __eq__(self, other) -> bool:
        if isinstance(other, (Keyed, list, tuple)):
            return list(self) == list(other)
        return NotImplemented

    __hash__ = None

    def __repr__(self) -> str:
        return repr(list(self))


def kinds_keys(values: list, key, kinds: int, size: int, memo: dict | None = None) -> list:
    """Key tuples of each way to take `size` alike elements of each of
    `kinds` different keys (four of a kind, three pairs, seven different)."""
    if kinds < 0 or size < 1:
        return []
    keys, counts = _shape(values, key, memo)
    return list(_kinds_keys(tuple(keys), counts, kinds, size))


@functools.lru_cache(maxsize=65536)
def _kinds_keys(keys: tuple, counts: tuple, kinds: int, size: int) -> tuple:
    enough = [i for i, c in enumerate(counts) if c >= size]
    return tuple(tuple(keys[i] for i in combo for _ in range(size))
                 for combo in itertools.combinations(enough, kinds))


@functools.lru_cache(maxsize=16384)
def _every(keys: tuple, shape: tuple, nested: bool) -> tuple:
    """Every option of a `Keyed`, by its hand's keys and shape."""
    patterns = _partitions(*shape) if nested else _multisets(*shape)
    if nested:
        return tuple([tuple([tuple([keys[j] for j in group]) for group in pattern])
                      for pattern in patterns])
    return tuple([tuple([keys[j] for j in pattern]) for pattern in patterns])


def pick_one(values: list, key, k):
    """The first element with key k."""
    if key is same:
        try:
            return values[values.index(k)]
        except ValueError:
            raise KeyError(k) from None
    for v, kv in zip(values, map(fast_key(key, values), values)):
        if kv == k:
            return v
    raise KeyError(k)


def pick_many(values: list, key, ks) -> list:
    """Elements for a key tuple: the first unused element for each key."""
    left = list(values)
    out = []
    for k in ks:
        for i, v in enumerate(left):
            if key(v) == k:
                out.append(left.pop(i))
                break
        else:
            raise KeyError(k)
    return out


def pick_groups(values: list, key, groups) -> list:
    left = list(values)
    out = []
    for ks in groups:
        picked = pick_many(left, key, ks)
        for v in picked:
            left.remove(v)
        out.append(picked)
    return out


def _shape(values, key, memo: dict | None = None):
    """The distinct keys of `values` in order, and how many elements have
    each. With `memo` (the state's while its options are listed: nothing
    changes then), a collection read again for another choice (a hand
    offered as one card, two, or two pairs) is counted once; the memo keeps
    the collection, so no other can take its id while it lasts."""
    if memo is not None:
        found = memo.get(("shape", id(values), key))
        if found is not None and found[0] is values:
            return found[1]
        shape = _count(values, key)
        memo[("shape", id(values), key)] = (values, shape)
        return shape
    return _count(values, key)


def _count(values, key):
    counts: dict = {}
    for k in _keys(key, values):
        counts[k] = counts.get(k, 0) + 1
    # keys of one choice share a type; whole numbers (pieces' keys) sort as they are
    keys = sorted(counts) if counts and type(next(iter(counts))) is int else \
        sorted(counts, key=_order)
    return keys, tuple(map(counts.__getitem__, keys))


# Patterns depend only on how many copies of each distinct element there are,
# so they are computed once per shape and reused: choices are on the hot path.

@functools.lru_cache(maxsize=65536)
def _multisets(counts: tuple, k: int) -> tuple:
    """Sorted index tuples of every sub-multiset of size k."""
    out = []
    picked: list = []
    suffix = [0] * (len(counts) + 1)
    for i in range(len(counts) - 1, -1, -1):
        suffix[i] = suffix[i + 1] + counts[i]

    def rec(i, left):
        if left == 0:
            out.append(tuple(picked))
            return
        if i == len(counts) or suffix[i] < left:
            return
        for take in range(min(counts[i], left), -1, -1):
            picked.extend([i] * take)
            rec(i + 1, left - take)
            if take:
                del picked[-take:]
    rec(0, k)
    return tuple(out)


@functools.lru_cache(maxsize=65536)
def _partitions(counts: tuple, ngroups: int, size: int) -> tuple:
    """Canonical (sorted) tuples of ngroups sorted index groups of `size`."""
    seen = set()
    out = []
    for pool in _multisets(counts, ngroups * size):
        for split in _splits(pool, ngroups, size):
            canon = tuple(sorted(split))
            if canon not in seen:
                seen.add(canon)
                out.append(canon)
    return tuple(out)


def _splits(pool: tuple, ngroups: int, size: int):
    """Unordered partitions of a sorted multiset of indices into groups."""
    if ngroups == 0:
        if not pool:
            yield []
        return
    first, rest = pool[0], pool[1:]
    rest_counts: dict = {}
    for i in rest:
        rest_counts[i] = rest_counts.get(i, 0) + 1
    distinct = sorted(rest_counts)
    for others in _multisets(tuple(rest_counts[i] for i in distinct), size - 1):
        chosen = [distinct[j] for j in others]
        group = tuple(sorted([first] + chosen))
        remaining = list(rest)
        for i in chosen:
            remaining.remove(i)
        for tail in _splits(tuple(remaining), ngroups - 1, size):
            yield [group] + tail



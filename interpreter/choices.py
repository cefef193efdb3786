"""Enumerate the options of a choice, told apart by content.

A choice picks one element, a sub-multiset of N elements, or K unordered
groups of M elements from a collection. Identical components (same class)
are one option: choosing "a G7" from a hand with two G7s is one choice, and
two groups with the same cards are one split. Each option is returned as
``(key, value)``: the key is the hashable content (what an `Action` carries
and prints), the value the concrete ids bound when the option is applied —
the first matching ids in the collection's order, so the result is
deterministic.
"""

from __future__ import annotations

from .layout import Layout, elem, is_comp


def key_function(type_: str, lay: Layout):
    """content key of one value of the given type"""
    ckey = lay.ckey
    if is_comp(type_):
        return lambda v: ckey[v] if v is not None else None
    inner = elem(type_)
    if type_.startswith("list:"):
        k = key_function(inner, lay)
        return lambda v: tuple(sorted((k(x) for x in v), key=_order))
    return lambda v: v


def _order(k):
    # keys of one choice share a type; tuples and ints sort among themselves
    return (0, k) if isinstance(k, int) else (1, str(k))


def group_by_key(values: list, key) -> dict:
    groups: dict = {}
    for v in values:
        groups.setdefault(key(v), []).append(v)
    return groups


def one_of(values: list, key) -> list:
    """[(key, value)] for each distinct element, first occurrence first."""
    seen = {}
    for v in values:
        k = key(v)
        if k not in seen:
            seen[k] = v
    return list(seen.items())


def many_of(values: list, key, count: int) -> list:
    """[(key tuple, [values])] for each distinct sub-multiset of `count` elements."""
    groups = group_by_key(values, key)
    keys = sorted(groups, key=_order)
    avail = [len(groups[k]) for k in keys]
    out = []
    picked: list = []

    def rec(i, left):
        if left == 0:
            chosen = tuple(picked)
            bound = []
            counts: dict = {}
            for k in chosen:
                j = counts.get(k, 0)
                bound.append(groups[k][j])
                counts[k] = j + 1
            out.append((chosen, bound))
            return
        if i == len(keys):
            return
        rest = sum(avail[i:])
        if rest < left:
            return
        for take in range(min(avail[i], left), -1, -1):
            picked.extend([keys[i]] * take)
            rec(i + 1, left - take)
            if take:
                del picked[-take:]

    if 0 <= count <= len(values):
        rec(0, count)
    return out


def groups_of(values: list, key, ngroups: int, size: int) -> list:
    """[(tuple of group key tuples, [[values], …])] for each distinct way to
    pick ngroups unordered groups of `size` elements."""
    out = []
    seen = set()
    for pool_key, pool in many_of(values, key, ngroups * size):
        for split in _splits(list(pool_key), ngroups, size):
            canon = tuple(sorted(split))
            if canon in seen:
                continue
            seen.add(canon)
            out.append((canon, _bind_groups(canon, pool, key)))
    return out


def _splits(pool: list, ngroups: int, size: int):
    """Unordered partitions of a sorted multiset of keys into groups."""
    if ngroups == 0:
        if not pool:
            yield []
        return
    first, rest = pool[0], pool[1:]
    for _, others in many_of(rest, lambda k: k, size - 1):
        group = tuple(sorted([first] + others, key=_order))
        remaining = list(rest)
        for k in others:
            remaining.remove(k)
        for tail in _splits(remaining, ngroups - 1, size):
            yield [group] + tail


def _bind_groups(canon, pool: list, key) -> list:
    left = list(pool)
    bound = []
    for group in canon:
        g = []
        for k in group:
            for i, v in enumerate(left):
                if key(v) == k:
                    g.append(left.pop(i))
                    break
        bound.append(g)
    return bound

"""Shapes on square grids: polyominoes, their orientations and placements,
connected groups and flood fill. Pure functions of cells (interpreter/stdlib/grid.py).

A **shape** is a list of cells, or of ``[x, y]`` pairs as a data file
writes them (the cells a piece covers in its base orientation, y as the
data's rows). Orientation ``r`` of a shape applies ``(x, y) -> (-y, x)``
``r`` times and shifts the result so that its smallest x and smallest y are
0: a quarter turn clockwise when rows grow downwards, as a printed board is
read. Only distinct images are orientations: a bar has 2, a square 1, so
``r`` counts quarter turns for as long as the images differ. With mirroring
the images of ``(x, y) -> (-x, y)`` follow, turned the same way, where they
differ from every earlier one. A placement at anchor ``a`` adds ``a`` to
every cell of the image, in the shape's own order.

Everything here is bounded by the sizes of its arguments, never by the
state: a legal placement is found with set lookups, without a game state
per candidate.
"""

from __future__ import annotations

import functools

from . import grid
from ..errors import RuleError

_BASE = grid.BASE


def _pairs(shape) -> tuple:
    """The shape as a tuple of (x, y) pairs."""
    out = []
    for c in shape:
        if isinstance(c, int) and not isinstance(c, bool):
            out.append((grid.x_of(c), grid.y_of(c)))
        elif isinstance(c, (list, tuple)) and len(c) == 2 and all(
                isinstance(v, int) and not isinstance(v, bool) for v in c):
            out.append((c[0], c[1]))
        else:
            raise RuleError(f"{c!r} is not a cell of a shape: write a cell or an [x, y] pair",
                            code="rule/runtime")
    if not out:
        raise RuleError("a shape needs at least one cell", code="rule/runtime")
    return tuple(out)


def _normal(pairs) -> tuple:
    mx = min(x for x, _ in pairs)
    my = min(y for _, y in pairs)
    return tuple((x - mx, y - my) for x, y in pairs)


def _images(pairs: tuple) -> tuple:
    """Every distinct image: the rotations first, then the mirrored ones.
    Each image is a tuple of cell offsets (ints to add to an anchor), in the
    shape's order; `rotations` says how many of them are rotations."""
    seen, images = set(), []
    rotations = 0
    for mirrored in (False, True):
        ps = tuple((-x, y) for x, y in pairs) if mirrored else pairs
        for _ in range(4):
            norm = _normal(ps)
            key = frozenset(norm)
            if key not in seen:
                seen.add(key)
                images.append(tuple(x * _BASE + y for x, y in norm))
                rotations += not mirrored
            ps = tuple((-y, x) for x, y in ps)
    return tuple(images), rotations


def _shape_images(shape):
    if type(shape) is not tuple:        # a static attribute is a tuple already
        shape = tuple(tuple(c) if isinstance(c, list) else c for c in shape)
    return _images_of(shape)


@functools.lru_cache(maxsize=4096)
def _images_of(shape: tuple) -> tuple:
    return _images(_pairs(shape))


def orientations(shape, mirror=False) -> list:
    """The orientation numbers of a shape: 0 … n-1 for its distinct
    rotations, then its distinct mirror images when `mirror` is yes."""
    if not isinstance(mirror, bool):
        raise RuleError(f"orientations(…, {mirror!r}): mirroring is yes or no", code="rule/runtime")
    images, rotations = _shape_images(shape)
    return list(range(len(images) if mirror else rotations))


def _image(shape, r):
    images, _ = _shape_images(shape)
    if isinstance(r, bool) or not isinstance(r, int) or not 0 <= r < len(images):
        raise RuleError(f"{r!r} is not an orientation of this shape (it has {len(images)}, "
                        f"0 to {len(images) - 1}, mirror images included)", code="rule/runtime")
    return images[r]


def footprint(shape, r, anchor) -> list:
    """The cells the shape covers in orientation r at `anchor`, in the
    shape's own order."""
    return [anchor + off for off in _image(shape, r)]


def anchors(shape, r, cells) -> list:
    """The anchors at which the shape in orientation r covers only cells of
    `cells`, ordered by x, then y."""
    image = _image(shape, r)
    allowed = cells if isinstance(cells, (set, frozenset)) else set(cells)
    first = image[0]
    out = []
    for c in allowed:
        base = c - first
        for off in image:
            if base + off not in allowed:
                break
        else:
            out.append(base)
    out.sort()
    return out


def first_outside(shape, r, anchor, cells):
    """The first cell (in the shape's order) of the placement that is not
    among `cells`, or None: why an anchor is not among `anchors`."""
    allowed = set(cells)
    for c in footprint(shape, r, anchor):
        if c not in allowed:
            return c
    return None


def why_not_anchor(anchor, shape, r, cells):
    """Why `anchor` is not among `anchors(shape, r, cells)`, as text, or None."""
    outside = first_outside(shape, r, anchor, cells)
    if outside is None:
        return None
    return f"it would cover {grid.text(outside)}, which is not among the cells allowed"


def fits(shape, cells, mirror=False) -> bool:
    """Whether the shape fits inside `cells` in some orientation."""
    if not isinstance(mirror, bool):
        raise RuleError(f"fits(…, {mirror!r}): mirroring is yes or no", code="rule/runtime")
    allowed = set(cells)
    return any(anchors(shape, r, allowed) for r in orientations(shape, mirror))


def connected(cells) -> list:
    """The groups of `cells` that are connected by shared edges, each
    ordered by x, then y; the groups in the order of their first cells."""
    left = set(cells)
    groups = []
    for start in sorted(left):
        if start not in left:
            continue
        left.discard(start)
        group, todo = [start], [start]
        while todo:
            c = todo.pop()
            for step in grid.STEPS:
                n = c + step
                if n in left:
                    left.discard(n)
                    group.append(n)
                    todo.append(n)
        group.sort()
        groups.append(group)
    return groups


def flood(start, cells) -> list:
    """`start` and every cell reachable from it by steps across shared edges
    through cells of `cells` (ordered by x, then y)."""
    allowed = set(cells)
    seen = {start}
    todo = [start]
    while todo:
        c = todo.pop()
        for step in grid.STEPS:
            n = c + step
            if n in allowed and n not in seen:
                seen.add(n)
                todo.append(n)
    return sorted(seen)


def touching(a, b) -> bool:
    """Whether a cell of `a` shares an edge with a cell of `b`."""
    other = set(b)
    return any(c + step in other for c in a for step in grid.STEPS)


def rotated(rows, r) -> list:
    """A rectangle of values given as rows (top row first) turned r quarter
    turns clockwise: [[a, b], [c, d]] turned once is [[c, a], [d, b]]."""
    if isinstance(r, bool) or not isinstance(r, int):
        raise RuleError(f"rotated(…, {r!r}): the turns are a whole number", code="rule/runtime")
    out = [list(row) for row in rows]
    if any(len(row) != len(out[0]) for row in out):
        raise RuleError("rotated() needs rows of one length", code="rule/runtime")
    for _ in range(r % 4):
        out = [[out[len(out) - 1 - j][i] for j in range(len(out))] for i in range(len(out[0]))] \
            if out else out
    return out


__all__ = ["orientations", "footprint", "anchors", "first_outside", "why_not_anchor", "fits",
           "connected", "flood",
           "touching", "rotated"]

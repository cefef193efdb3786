"""What the last move changed on a viewer's table, to highlight it.

Worked out from two views of the same viewer alone (before and after the
move), so it marks nothing the viewer could not see change: the pieces that
came into each zone instance (by name, where the viewer sees the zone's
pieces), the cells of a square-grid zone or of a declared grid whose piece,
sides, shade or mark changed, and the hexes whose pieces changed. The marks
are `(section key, token)` pairs: a zone instance's text (`hand(P0)`) or a
board's section key (`board.Section.key`) and a piece's name, a cell's text
or a hex's piece. This module knows no game.
"""

from __future__ import annotations

from collections import Counter
from typing import Optional

from .board import board_key, grid_key, zone_key


# a zone laid on a board: its view entry's list, the place each entry is at, its section's kind
BOARDS = (("grid", "cell", "cells"), ("hexes", "piece", "hexes"))


def changed(before: Optional[dict], after: dict) -> set:
    """The (section key, token) pairs the move from view `before` to view
    `after` changed; nothing when there is no `before`."""
    if before is None:
        return set()
    marks: set = set()
    old = {zone_key(z): z for z in before.get("zones") or ()}
    for zone in after.get("zones") or ():
        key = zone_key(zone)
        was = old.get(key)
        if was is None:
            continue
        laid = next(((listed, by, kind) for listed, by, kind in BOARDS
                     if zone.get(listed) is not None), None)
        if laid is not None:     # a zone on a board: the places whose entry changed
            listed, by, kind = laid
            then = {e[by]: e for e in was.get(listed) or ()}
            marks.update((board_key(kind, zone), e[by]) for e in zone[listed]
                         if then.get(e[by]) != e)
            continue
        if zone.get("cards") is None or was.get("cards") is None:
            continue
        came = Counter(c for c in zone["cards"] if c is not None) - \
            Counter(c for c in was["cards"] if c is not None)
        marks.update((key, piece) for piece in came)
    grids = {grid_key(b): b for b in before.get("grids") or ()}
    for board in after.get("grids") or ():
        key = grid_key(board)
        then = (grids.get(key) or {}).get("cells") or {}
        now = board.get("cells") or {}
        marks.update((key, cell) for cell in set(then) | set(now) if then.get(cell) != now.get(cell))
    return marks

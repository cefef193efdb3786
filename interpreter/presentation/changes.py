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

from .board import grid_key, zone_key


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
        if zone.get("grid") is not None:
            then = {c["cell"]: c for c in was.get("grid") or ()}
            for c in zone["grid"]:
                if then.get(c["cell"]) != c:
                    marks.add((f"cells:{key}", c["cell"]))
            continue
        if zone.get("hexes") is not None:
            then = {h["piece"]: h for h in was.get("hexes") or ()}
            for h in zone["hexes"]:
                if then.get(h["piece"]) != h:
                    marks.add((f"hexes:{key}", h["piece"]))
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

"""Which zones of a view a board draws and which are listed beside it.

A zone is *on a board* when its pieces lie on cells (`grid by`), on a hex
map (`hexes at`, with the zones of each hex's piece), or in the rulebook's
`layout`; a declared grid (`grid NAME: W by H`) is a board of its own.
Everything else is listed by zone name, each owner's (or each `of` value's)
instance after the other. `sections` gives the order a table draws them
in: the layout, the boards, then the zones, the viewer's own last.
This module knows no game.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional

from ..printable import printable
from .words import value_text


def on_maps(view: dict) -> tuple:
    """(the zones drawn on a hex map or whose pieces show on one, the piece
    types laid out on a map): the zone and component tables leave them out."""
    zones, kinds = set(), set()
    for zone in view.get("zones") or ():
        if zone.get("hexes") is not None:
            zones.add(zone.get("name"))
            kinds.add(zone.get("holds"))
            zones.update(hold["zone"] for h in zone["hexes"] for hold in h.get("holds") or ())
    return zones, kinds


def drawn_on_boards(view: dict) -> set:
    """The zones whose contents a board shows: on a grid, as a hex map or on one."""
    return on_maps(view)[0] | {z.get("name") for z in view.get("zones") or ()
                               if z.get("grid") is not None}


def laid_out(view: dict) -> tuple:
    """(the zones, the pieces) the rulebook's `layout` places."""
    cells = [c for row in view.get("layout") or () for c in row if c]
    return ({c["zone"] for c in cells if "zone" in c}, {c["piece"] for c in cells if "piece" in c})


def whose(zone: dict) -> str:
    """What tells a zone instance from the others of its name: `P0`, its
    piece `K`, both indices `P0, K`; nothing for a zone of one instance."""
    if zone.get("keys"):
        return ", ".join(value_text(k) for k in zone["keys"])
    if zone.get("owner") is not None:
        return f"P{zone['owner']}"
    if zone.get("of") is not None:
        return value_text(zone["of"])
    return ""


def zone_key(zone: dict) -> str:
    """A zone instance's text: `NAME`, `NAME(P0)`, `NAME(K)`, `NAME(P0, K)`."""
    name, instance = str(zone.get("name", "")), whose(zone)
    return f"{name}({instance})" if instance else name


def board_key(kind: str, zone: dict) -> str:
    """The section key of a zone laid on a board, `kind` its section's
    kind: `cells:NAME(P0)` for a zone on cells, `hexes:NAME` for a hex map."""
    return f"{kind}:{zone_key(zone)}"


def grid_key(board: dict) -> str:
    """A declared grid's section key: `grid:NAME`, `grid:NAME:P` for a
    player's grid."""
    player = board.get("player")
    return f"grid:{board.get('name')}" + (f":{player}" if player is not None else "")


@dataclass(frozen=True)
class Section:
    """One part of a table: `kind` is `layout`, `grid` (a declared grid),
    `cells` (a zone on a square grid), `hexes` (a zone as a hex map) or
    `zones` (the instances of one zone name, listed); `title` as printed
    (`printable`), `owner` the seat of a player's grid or of the viewer's
    own zones."""

    kind: str
    title: str
    zones: tuple = ()            # the zone entries of the view it draws
    grid: Optional[dict] = None  # the declared grid's entry
    owner: Optional[int] = None
    key: str = field(default="")  # a stable identifier of the section

    def to_json(self) -> dict:
        return {"kind": self.kind, "title": self.title, "owner": self.owner, "key": self.key}


def sections(view: dict) -> list:
    """The sections of the viewer's table in the order it draws them: the
    layout, the declared grids, the zones on cells and on hex maps, then
    the other zones by name (the viewer's own zone names last, as the
    pieces nearest the player)."""
    out = []
    laid, _ = laid_out(view)
    if view.get("layout"):
        out.append(Section("layout", "table", tuple(z for z in view.get("zones") or ()
                                                   if z.get("name") in laid), key="layout"))
    for board in view.get("grids") or ():
        player = board.get("player")
        title = printable(str(board.get("name", "")), lines=False)
        key = grid_key(board)
        out.append(Section("grid", title + (f" of P{player}" if player is not None else ""),
                           grid=board, owner=player, key=key))
    boarded = drawn_on_boards(view)
    for zone in view.get("zones") or ():
        if zone.get("grid") is not None:
            out.append(Section("cells", printable(zone_key(zone), lines=False), (zone,),
                               owner=zone.get("owner"), key=board_key("cells", zone)))
        elif zone.get("hexes") is not None:
            out.append(Section("hexes", printable(zone_key(zone), lines=False), (zone,),
                               key=board_key("hexes", zone)))
    named: dict = {}
    for zone in view.get("zones") or ():
        name = zone.get("name")
        if name in boarded or name in laid:
            continue
        named.setdefault(name, []).append(zone)
    viewer = view.get("viewer")
    own = [n for n, zs in named.items()
           if viewer is not None and any(z.get("owner") == viewer for z in zs)]
    for name in [n for n in named if n not in own] + own:
        out.append(Section("zones", printable(str(name), lines=False), tuple(named[name]),
                           owner=viewer if name in own else None, key=f"zones:{name}"))
    return out

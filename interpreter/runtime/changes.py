"""What a move changed, as one viewer can see it.

A rulebook announces the why ("P0 wins the trick"); the what — the
cards a player gained, a value that moved, a score that jumped — follows
from the table itself. `changes` compares two views of one viewer, before a
move and after it, and says in words what differs: the pieces gained and
lost in each zone the viewer may look into (and only how many in one it may
not), every variable and per-player value that moved, the scores where they
are public. It reads views only, so it can say nothing the viewer could not
see at the table: what a hidden zone holds never appears, only its size.
"""

from __future__ import annotations

from collections import Counter

from .views import natural, plain_text


def changes(before: dict, after: dict) -> list:
    """The changes between two views of one viewer (`Game.view`), as lines
    of text: zones first, in the order the view lists them, then the
    game's values, then the players'."""
    return _zones(before, after) + _boards(before, after) + _pieces(before, after) \
        + _values(before.get("variables") or {}, after.get("variables") or {}) \
        + _player_values(before.get("player_variables") or {},
                         after.get("player_variables") or {})


def _zone_key(z: dict) -> tuple:
    return z["name"], z.get("owner"), z.get("of"), tuple(z.get("keys") or ())


def _zone_name(z: dict) -> str:
    keys = list(z.get("keys") or ())
    if not keys:
        keys = [f"P{z['owner']}"] if z.get("owner") is not None else \
            [z["of"]] if z.get("of") is not None else []
    return f"{z['name']}({', '.join(keys)})" if keys else z["name"]


def _zones(before: dict, after: dict) -> list:
    """A line per zone that changed; the zones of one name `of each` piece
    (a supply of each colour) share one line, named once."""
    old = {_zone_key(z): z for z in before.get("zones") or ()}
    lines: dict = {}
    for z in after.get("zones") or ():
        was = old.get(_zone_key(z))
        if was is None:
            continue
        line = _zone_change(was, z)
        if line:
            shared = z.get("of") is not None and z.get("owner") is None and not z.get("keys")
            lines.setdefault(z["name"] if shared else _zone_name(z), []).append(line)
    return [f"{name}: {' '.join(parts)}" for name, parts in lines.items()]


def _boards(before: dict, after: dict) -> list:
    """A line per grid whose cells changed: each cell's values, before and
    after (a placed disc, three flipped ones), the cells in reading order."""
    old = {(g["name"], g.get("player")): g for g in before.get("grids") or ()}
    out = []
    for g in after.get("grids") or ():
        was = old.get((g["name"], g.get("player")))
        if was is None:
            continue
        cells, before_cells = g.get("cells") or {}, was.get("cells") or {}
        moved = []
        for at in sorted(set(cells) | set(before_cells), key=_reading):
            a = (before_cells.get(at) or {}).get("variables") or {}
            b = (cells.get(at) or {}).get("variables") or {}
            if a != b:
                values = sorted(set(a) | set(b))
                shown = " ".join(plain_text(b.get(k)) if len(values) == 1 else f"{k}={plain_text(b.get(k))}"
                                 for k in values)
                moved.append(f"{at} {shown}")
        if moved:
            name = g["name"] if g.get("player") is None else f"{g['name']}(P{g['player']})"
            out.append(f"{name}: " + ", ".join(moved))
    return out


def _pieces(before: dict, after: dict) -> list:
    """A line per component type whose pieces' values changed (what a piece
    `has`): each piece with its values before and after."""
    out = []
    for kind, rows in (after.get("components") or {}).items():
        old = {r.get("name"): r for r in (before.get("components") or {}).get(kind) or ()}
        moved = []
        for row in rows:
            was = old.get(row.get("name"))
            if was is None:
                continue
            for key, v in row.items():
                if key != "name" and was.get(key) != v:
                    moved.append(f"{row.get('name')} {key} {plain_text(was.get(key))} → {plain_text(v)}")
        if moved:
            out.append(f"{kind}: " + ", ".join(moved))
    return out


def _reading(at: str) -> tuple:
    """A cell's text '(x,y)' in reading order: row by row, west to east."""
    x, _, y = at.strip("()").partition(",")
    try:
        return int(y), int(x)
    except ValueError:
        return 0, 0


def _zone_change(was: dict, now: dict) -> str:
    seen_before, seen_now = _seen(was), _seen(now)
    if seen_before is not None and seen_now is not None:
        gained, lost = seen_now - seen_before, seen_before - seen_now
        parts = [f"+{_many(card, k)}" for card, k in sorted(gained.items(), key=_natural)] + \
                [f"−{_many(card, k)}" for card, k in sorted(lost.items(), key=_natural)]
        return " ".join(parts)
    parts = []
    if was.get("count") != now.get("count"):
        parts.append(f"{was.get('count')} → {now.get('count')} pieces")
    shown = _known(now) - _known(was)
    if shown:
        parts.append("shown " + " ".join(_many(card, k) for card, k in
                                         sorted(shown.items(), key=_natural)))
    return " ".join(parts)


def _seen(zone: dict):
    """The pieces of a zone the viewer sees, as a multiset; None when the
    viewer sees only how many, or only some (those it was shown: the others
    are null in `cards`)."""
    cards = zone.get("cards")
    return Counter(cards) if cards is not None and None not in cards else None


def _known(zone: dict) -> Counter:
    """The pieces of a zone the viewer knows, all or those it was shown."""
    return Counter(c for c in zone.get("cards") or () if c is not None)


def _many(card: str, k: int) -> str:
    return card if k == 1 else f"{card} ×{k}"


def _natural(item) -> tuple:
    """Names with numbers in their natural order: n5 before n39."""
    return natural(item[0])


def _values(before: dict, after: dict) -> list:
    return [f"{name}: {plain_text(before.get(name))} → {plain_text(v)}"
            for name, v in after.items() if name in before and before[name] != v]


def _player_values(before: dict, after: dict) -> list:
    out = []
    for name, values in after.items():
        was = before.get(name)
        if not isinstance(values, dict) or not isinstance(was, dict):
            continue
        moved = [f"{who} {plain_text(was.get(who))} → {plain_text(v)}"
                 for who, v in values.items() if who in was and was[who] != v]
        if moved:
            out.append(f"{name}: " + ", ".join(moved))
    return out


__all__ = ["changes"]

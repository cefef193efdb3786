"""What one player may see: the only door from a state to a player.

A view is JSON-compatible data built from the state and the rulebook's
visibility declarations: public zones show their cards, an owner-only zone
shows its cards to its owner and its size to everybody else, a hidden zone
shows only its size (and any card the rules revealed). Flow locals, the
random generator and other players' legal actions never appear, so a view
holds nothing the player could not see at the table. ``player=None`` is a
spectator: public information only. Variables are public, so every view
holds each declared grid with the values of its cells. What the screen
draws from a zone — its groups, its grid or hex map, its pieces' drawings
(`drawn as …`) — comes only with the cards the viewer sees.
"""

from __future__ import annotations

import functools
import re

from ..errors import FORMULA_ERRORS, RuleError, as_rule_error
from ..stdlib import grid
from .chance import CHANCE
from .information import information_state, told_events
from ..stdlib.types import CELL, PLAYER, is_comp


_DIGITS = re.compile(r"(\d+)")


def natural(text) -> tuple:
    """A name's place in the order players read: its numbers as numbers,
    so that n5 comes before n39 and n62 (and G2 before G10)."""
    return _natural(str(text))


@functools.lru_cache(maxsize=8192)
def _natural(text: str) -> tuple:
    # (a game has a few hundred names, each sorted in every view)
    return tuple((0, int(part), "") if part.isdigit() else (1, 0, part)
                 for part in _DIGITS.split(text) if part)


def show_value(value, type_: str, lay) -> object:
    """A variable's value as text the way a player reads it."""
    if value is None:
        return None
    if type_ == PLAYER and isinstance(value, int):
        return f"P{value}"
    if is_comp(type_) and isinstance(value, int):
        return lay.display[value]
    if type_ == CELL and isinstance(value, int):
        return grid.text(value)
    if isinstance(value, list):
        inner = type_[5:] if type_.startswith("list:") else "any"
        return [show_value(v, inner, lay) for v in value]
    return value


def _groups(prog, s, by, contents) -> list:
    """[[value, [cards]]] of a zone shown grouped by an attribute or by a
    define of one card, in the order the values first appear."""
    lay = prog.lay
    value_of, kind = _attribute_of(prog, s, by)
    groups: dict = {}
    for c in contents:
        groups.setdefault(value_of(c), []).append(lay.display[c])
    return [[show_value(v, kind, lay), sorted(cards, key=natural)] for v, cards in groups.items()]


def shown_define(prog, name):
    """(read(state, *args), type) of a define a display evaluates (a zone's
    `by` groups, a grid's shading, a hex map's sides): a failure is a rule
    error at the define, as a failure of the rules is at their statement."""
    body = prog.exprs.define(name)
    at = prog.exprs.defines[name]["name_at"]
    fn = prog.formulas.define_callable(name)

    def read(s, *args):
        try:
            return fn(s, *args)
        except (RuleError,) + FORMULA_ERRORS as e:
            raise as_rule_error(e, prog.machine.span(at), f"'{name}' failed while the table was shown",
                                "a define a display reads must work for every piece or cell "
                                "it is shown for") from None
    return read, body.type


def _attribute_of(prog, s, name):
    """(value_of(piece), kind) for an attribute or a define of one piece:
    an attribute (a table column, a `has` value) before a define of the
    same name, as the checks resolve it (checks_declarations)."""
    lay = prog.lay
    has, static = lay.has.get(name), lay.static.get(name)
    if name in prog.exprs.defines:
        read, kind = shown_define(prog, name)
        if has is None and static is None:
            return (lambda c: read(s, c)), kind
        # a piece of a type with the attribute reads it; any other, the define
        owners = {comp["name"] for comp in prog.exprs.ir["components"]
                  if name in comp.get("columns", ()) or any(h["name"] == name for h in comp["has"])}
        attribute, shown = _attribute_only(lay, s, has, static, name)
        return (lambda c: attribute(c) if lay.type_of[c] in owners else read(s, c)), shown
    return _attribute_only(lay, s, has, static, name)


def _attribute_only(lay, s, has, static, name):
    kind = lay.has_type.get(name) if has is not None else lay.static_type.get(name, "any")

    def value_of(c):
        if has is not None and has[c] >= 0:
            return s.vars[has[c]]
        return static[c] if static is not None else None
    return value_of, kind


def _grid(prog, s, decl, contents) -> list:
    """The pieces of a zone declared `grid by CELL[, sides by SIDE][, label
    by LABEL]` that lie on a cell: [{cell, x, y, piece, sides?, label?}],
    north row first, west to east."""
    lay = prog.lay
    cell_of, _ = _attribute_of(prog, s, decl["grid"])
    label_of = _labeller(prog, s, decl)
    side_of = _sides_of(prog, s, decl["sides"]) if decl.get("sides") is not None else None
    out = []
    for c in contents:
        at = cell_of(c)
        if not isinstance(at, int) or isinstance(at, bool):
            continue
        entry = {"cell": grid.text(at), "x": grid.x_of(at), "y": grid.y_of(at),
                 "piece": lay.display[c]}
        if side_of is not None:
            entry["sides"] = [value if isinstance(value, str) else plain_text(value)
                              for value in side_of(c)]
        label_of(c, entry)
        out.append(entry)
    out.sort(key=lambda e: (-e["y"], e["x"]))
    return out


def _sides_of(prog, s, name):
    """sides(piece): what a piece shows towards each direction, by the
    define of a `sides by`, as a player reads it."""
    read, kind = shown_define(prog, name)
    return lambda c: [show_value(read(s, c, d), kind, prog.lay) for d in range(grid.DIRECTIONS)]


def _hexes(prog, s, decl, contents, viewer) -> list:
    """The pieces of a zone declared `hexes at X, Y[, shade by NAME]`:
    [{piece, x, y, shade?, owner?, holds}], top row first, west to east. A
    piece's `holds` lists its zones `of each` its type, each as much as the
    viewer may see: the pieces (and their owners), or only how many."""
    lay = prog.lay
    x_of, _ = _attribute_of(prog, s, decl["hex_x"])
    y_of, _ = _attribute_of(prog, s, decl["hex_y"])
    shade_of = _attribute_of(prog, s, decl["shade"]) if decl.get("shade") else None
    owner_of = _owner_of(prog, s)
    label_of = _labeller(prog, s, decl)
    slots: dict = {}
    out = []
    for c in contents:
        x, y = x_of(c), y_of(c)
        if not (_whole(x) and _whole(y)):
            continue
        entry = {"piece": lay.display[c], "x": x, "y": y}
        if shade_of is not None:
            value_of, kind = shade_of
            shade = show_value(value_of(c), kind, lay)
            if shade is not None:
                entry["shade"] = shade if isinstance(shade, str) else plain_text(shade)
        if owner_of(c) is not None:
            entry["owner"] = owner_of(c)
        entry["holds"] = _holds(prog, s, c, viewer, owner_of, slots)
        label_of(c, entry)
        out.append(entry)
    out.sort(key=lambda e: (e["y"], e["x"]))
    return out


def _labeller(prog, s, decl):
    """label(piece, entry): adds a zone's `label by` value of the piece to its
    entry as `label`, as a player reads it (a name, a seat as P0, a list),
    where the zone has a label and the value is neither none nor empty."""
    if decl.get("label") is None:
        return lambda c, entry: None
    value_of, kind = _attribute_of(prog, s, decl["label"])
    lay = prog.lay

    def label(c, entry):
        value = show_value(value_of(c), kind, lay)
        if value is not None and value != []:
            entry["label"] = value
    return label


def _whole(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _owner_of(prog, s):
    """owner(piece): the seat in its `owner` attribute (a table column or a
    `has` value), or None."""
    lay = prog.lay
    has, static = lay.has.get("owner"), lay.static.get("owner")

    def owner(c):
        value = s.vars[has[c]] if has is not None and has[c] >= 0 else \
            static[c] if static is not None else None
        return value if _whole(value) else None
    return owner


def _holds(prog, s, c, viewer, owner_of, slots) -> list:
    """What lies in each zone `of each` the piece's type at piece c; `slots`,
    those zones by type, filled as types come."""
    lay = prog.lay
    kind = lay.type_of[c]
    k = c - lay.types[kind][0]
    if kind not in slots:
        slots[kind] = [slot for slot in lay.zones.values()
                       if slot.index == kind and slot.index2 is None]
    out = []
    for slot in slots[kind]:
        inside = s.zones[slot.base + k]
        # an `of each TYPE` zone has no owner: public, or hidden (or owner-only: seen by nobody)
        entry = {"zone": slot.name, "count": len(inside)}
        if slot.visibility == "public":
            shown = inside if slot.ordered else sorted(inside, key=lambda p: natural(lay.display[p]))
            entry["pieces"] = [lay.display[p] for p in shown]
            owners = [owner_of(p) for p in shown]
            if any(o is not None for o in owners):
                entry["owners"] = owners
        else:
            entry["pieces"] = None
            revealed = sorted((lay.display[p] for p in inside if s.sees(p, viewer)), key=natural)
            if revealed:
                entry["revealed"] = revealed
        out.append(entry)
    return out


def _boards(game, prog, s) -> list:
    """Each declared grid `NAME: W by H` with what its cells show: the text of
    its `shade by` and `mark by` values and the values of its variables `of
    each NAME`, row 0 first, west to east. A cell with nothing to show is left
    out; `shade_seat` / `mark_seat` give the seat of a value that is a player.
    A grid of each player is one board per player, in seat order, each with
    its `player`."""
    lay = prog.lay
    out = []
    for g in game.ir.get("grids", ()):
        bounded = lay.grids[g["name"]]
        if not bounded.per_player:
            out.append(_board(prog, s, g, bounded, None))
            continue
        for p in range(lay.n):
            out.append(_board(prog, s, g, bounded, p))
    return out


def _board(prog, s, g, bounded, player) -> dict:
    """One board of `_boards`: the grid's, or one player's grid of each player."""
    lay = prog.lay
    variables = [(v, v.base if player is None else v.base + player * v.inner)
                 for v in lay.variables.values() if _of_grid(v, bounded)]
    shown = {key: _cell_value_of(prog, s, g[key], bounded, player) for key in ("shade", "mark")
             if g[key] is not None}
    cells = {}
    for y in range(bounded.height):
        for x in range(bounded.width):
            c = grid.cell(x, y)
            entry = {}
            for key, (value_of, kind) in shown.items():
                value = value_of(c)
                if value is None:
                    continue
                text = show_value(value, kind, lay)
                entry[key] = text if isinstance(text, str) else plain_text(text)
                if kind == PLAYER and _whole(value):
                    entry[f"{key}_seat"] = value
            k = bounded.position(c)
            values = {v.name: show_value(s.vars[base + k], v.type, lay) for v, base in variables
                      if s.vars[base + k] is not None}
            if values:
                entry["variables"] = values
            if entry:
                cells[grid.text(c)] = entry
    board = {"name": g["name"], "width": bounded.width, "height": bounded.height,
             "shade_by": g["shade"], "mark_by": g["mark"], "cells": cells}
    if player is not None:
        board["player"] = player
    return board


def _of_grid(v, bounded) -> bool:
    """Whether variable slot `v` is one per cell of the grid (per player and
    cell, for a grid of each player)."""
    if bounded.per_player:
        return v.index == "player" and v.index2 == bounded.name
    return v.index == bounded.name


def _cell_value_of(prog, s, name, bounded, player=None):
    """(value_of(cell), kind) for a variable of each cell of the grid or a
    define of one cell; for one player's grid of each player, the player's
    values of a variable of each cell, or a define of (player, cell)."""
    var = prog.lay.variables.get(name)
    if var is not None and _of_grid(var, bounded):
        base = var.base if player is None else var.base + player * var.inner
        return (lambda c: s.vars[base + bounded.position(c)]), var.type
    read, kind = shown_define(prog, name)
    if player is not None:
        return (lambda c: read(s, player, c)), kind
    return (lambda c: read(s, c)), kind


def plain_text(value) -> str:
    """A value as display text, whatever its kind: none, yes/no, a list's
    items one after the other (a drawing's side, a change told)."""
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list):
        return " ".join(plain_text(v) for v in value)
    return str(value)


def _drawer(prog, s, decl):
    """drawing(piece) for a type declared `drawn as LOOK …[, shade by NAME]`
    (docs/language.md §4.5): {piece, edges | shape | rows, shade?, shade_seat?}.
    A value that is not what its look needs is left out, and the piece is
    drawn as its name."""
    lay = prog.lay
    look, names = decl["look"], decl["names"]
    parts = []          # (key, value(piece))
    if look == "edges" and len(names) == 1 and len(prog.exprs.defines.get(names[0], {}).get(
            "params") or ()) == 2:
        read, kind = shown_define(prog, names[0])
        parts.append(("edges", lambda c: _sides(
            [show_value(read(s, c, d), kind, lay) for d in range(grid.DIRECTIONS)])))
    elif look == "edges" and len(names) == grid.DIRECTIONS:
        readers = [_attribute_of(prog, s, n) for n in names]
        parts.append(("edges", lambda c: _sides(
            [show_value(value_of(c), kind, lay) for value_of, kind in readers])))
    elif names:
        value_of, kind = _attribute_of(prog, s, names[0])
        check = {"edges": _sides, "shape": _pairs, "rows": _rows}[look]
        parts.append((look, lambda c: check(show_value(value_of(c), kind, lay))))
    shade = _attribute_of(prog, s, decl["shade"]) if decl.get("shade") else None

    def drawing(c) -> dict:
        entry = {"piece": lay.display[c]}
        for key, value in parts:
            shown = value(c)
            if shown is not None:
                entry[key] = shown
        if shade is not None:
            value_of, kind = shade
            raw = value_of(c)
            text = show_value(raw, kind, lay)
            if text is not None:
                entry["shade"] = text if isinstance(text, str) else plain_text(text)
                if kind == PLAYER and _whole(raw):
                    entry["shade_seat"] = raw
        return entry
    return drawing


def _text(value) -> str:
    return value if isinstance(value, str) else plain_text(value)


def _sides(value):
    """Four sides as text, north first, or None."""
    if not isinstance(value, list) or len(value) != grid.DIRECTIONS:
        return None
    return [_text(v) for v in value]


def _pairs(value):
    """[[x, y], …] of whole numbers, or None."""
    if not isinstance(value, list) or not value or not all(
            isinstance(p, list) and len(p) == 2 and all(_whole(v) for v in p) for p in value):
        return None
    return [list(p) for p in value]


def _rows(value):
    """Rows of values as text, top row first, or None."""
    if not isinstance(value, list) or not value or not all(
            isinstance(r, list) and r for r in value):
        return None
    return [[_text(v) for v in row] for row in value]


def _shower(prog, s, comp):
    """shown(piece) for a type declared `shows NAME, …`: {name: value} in
    the order written, each value as players read it."""
    lay = prog.lay
    readers = [(name, name in prog.exprs.defines and name not in lay.has
                and name not in lay.static, *_attribute_of(prog, s, name))
               for name in comp["shows"]["names"]]

    def shown(c, seen=True) -> dict:
        """A define may read the state: of a piece the viewer does not see
        (a card in a hidden deck) it is not worked out, and shows none."""
        return {name: show_value(value_of(c), kind, lay) if seen or not worked_out else None
                for name, worked_out, value_of, kind in readers}
    return shown


def _zone_view(prog, s, slot, k, viewer, grid_decl=None, hex_decl=None, drawer=None,
               shower=None, seen=None) -> dict:
    """A zone as the viewer sees it (docs/api.md, "views"); the pieces the
    viewer sees in it are added to `seen`."""
    lay = prog.lay
    contents = s.zones[slot.base + k]
    # the zone's player and piece: of its one index, or the first of each
    # kind among its two ('of each player and TYPE': P0 and one of TYPE)
    owner = entity = None
    pairs = list(zip((slot.index, slot.index2), slot.keys(k)))
    for index, j in pairs:
        if index == "player" and owner is None:
            owner = j
        elif index not in (None, "player") and entity is None:
            entity = lay.key_text(index, j)
    visible = (slot.visibility == "public"
               or (slot.visibility == "owner" and viewer is not None and viewer == owner))
    # an ordered zone bottom to top; another sorted, so its order tells nothing
    order = contents if slot.ordered or len(contents) < 2 else \
        sorted(contents, key=lambda c: natural(lay.display[c]))
    shown = [lay.display[c] for c in order]
    entry = {"name": slot.name, "owner": owner, "of": entity, "holds": slot.of,
             "visibility": slot.visibility,
             "count": len(contents), "cards": shown if visible else None}
    if slot.index2 is not None:
        entry["keys"] = [lay.key_text(index, j) for index, j in pairs]
    if visible and slot.by is not None:
        entry["groups"] = _groups(prog, s, slot.by, contents)
    if visible and grid_decl is not None:
        entry["grid"] = _grid(prog, s, grid_decl, contents)
    if visible and hex_decl is not None:
        entry["hexes"] = _hexes(prog, s, hex_decl, contents, viewer)
    label_by = (grid_decl or hex_decl or {}).get("label")
    if visible and label_by is not None:
        entry["label_by"] = label_by
    if visible and drawer is not None:
        # one drawing per card, in the order of `cards`
        entry["drawings"] = [drawer(c) for c in order]
    if not visible:
        # the pieces the viewer was shown: in `cards`, the others null after them
        revealed = sorted((c for c in contents if s.sees(c, viewer)),
                          key=lambda c: natural(lay.display[c]))
        if revealed:
            entry["revealed"] = [lay.display[c] for c in revealed]
            entry["cards"] = entry["revealed"] + [None] * (len(contents) - len(revealed))
            order = revealed
        else:
            order = []
    if seen is not None:
        seen.update(order)
    if shower is not None and order:
        # what players read on each piece, in the order of `cards`
        entry["attributes"] = [shower(c) for c in order] + \
            [None] * (len(contents) - len(order))
    return entry


def _components(game, prog, s, kept, showers, seen) -> dict:
    """The table of each component type whose pieces players read on their
    own: a type that `has` values, `shows` attributes or has variables `of
    each` of it. A row a piece: its name, what it shows (else every column
    of its table), its `has` values and its variables, bookkeeping left out."""
    lay = prog.lay
    per_piece: dict = {}
    for v in lay.variables.values():
        if v.index in lay.types and v.index2 is None and v.name not in kept:
            per_piece.setdefault(v.index, []).append(v)
    components = {}
    for comp in game.ir["components"]:
        kind = comp["name"]
        if not (comp["has"] or kind in showers or kind in per_piece):
            continue
        first, count = lay.types[kind]
        columns = [] if kind in showers else \
            [c for c in comp["columns"] + (["owner"] if comp.get("per_player") else [])
             if c not in ("copies", "name")]
        rows = []
        for cid in range(first, first + count):
            row = {"name": lay.display[cid]}
            if kind in showers:
                row.update(showers[kind](cid, cid in seen))
            for col in columns:
                row[col] = show_value(lay.static[col][cid], lay.static_type.get(col, "any"), lay)
            for h in comp["has"]:
                if not h.get("bookkeeping"):      # (the rules' own: on no screen)
                    row[h["name"]] = show_value(s.vars[lay.has[h["name"]][cid]],
                                                lay.has_type[h["name"]], lay)
            for v in per_piece.get(kind, ()):
                row[v.name] = show_value(s.vars[v.base + cid - first], v.type, lay)
            rows.append(row)
        components[kind] = rows
    return components


def _layout(game, prog, s, showers, seen) -> list:
    """The rulebook's `layout`, a row of cells a line: {zone}, {text},
    {piece, shows} — what a piece shows (`shows`), as for the pieces the
    viewer sees (a define of one it does not see is none) — or None."""
    lay = prog.lay
    ids: dict = {}
    for c in range(len(lay.display) - 1, -1, -1):
        ids[lay.display[c]] = c
    rows = []
    for row in game.ir["layout"]:
        out = []
        for cell in row:
            if cell is not None and "piece" in cell and cell["piece"] in ids:
                c = ids[cell["piece"]]
                shower = showers.get(lay.type_of[c])
                cell = {"piece": cell["piece"],
                        "shows": shower(c, c in seen) if shower is not None else {}}
            out.append(cell)
        rows.append(out)
    return rows


def view(game, s, viewer) -> dict:
    prog = game.program(s.n)
    lay = prog.lay
    grids = {z["name"]: z for z in game.ir["zones"] if z.get("grid")}
    hexes = {z["name"]: z for z in game.ir["zones"] if z.get("hex_x")}
    drawers = {c["name"]: _drawer(prog, s, c["drawn"]) for c in game.ir["components"]
               if c.get("drawn")}
    showers = {c["name"]: _shower(prog, s, c) for c in game.ir["components"] if c.get("shows")}
    seen = {c for c in range(len(s.loc)) if s.loc[c] < 0}      # (in the box: out of every zone)
    zones = [_zone_view(prog, s, slot, k, viewer, grids.get(slot.name), hexes.get(slot.name),
                        drawers.get(slot.of), showers.get(slot.of), seen)
             for slot, k in lay.zone_list]
    variables, per_player = {}, {}
    kept = {v["name"] for v in game.ir["variables"] if v.get("bookkeeping")}
    for v in lay.variables.values():
        if v.name in kept:          # the rules' own bookkeeping: no player's screen shows it
            continue
        if v.index is None:
            variables[v.name] = show_value(s.vars[v.base], v.type, lay)
        elif v.index == "player" and v.index2 is None:
            per_player[v.name] = {f"P{p}": show_value(s.vars[v.base + p], v.type, lay)
                                  for p in range(s.n)}
        elif "player" in (v.index, v.index2) and v.index2 is not None \
                and v.index2 not in lay.grids:      # (one per player and cell: in `grids`)
            # one per player and KEY: a column per key, 'progress(c2)', by player
            seat_first = v.index == "player"
            other = v.index2 if seat_first else v.index
            for j in range(lay.index_count(other)):
                slots = {p: v.base + (p * v.inner + j if seat_first else j * v.inner + p)
                         for p in range(s.n)}
                per_player[f"{v.name}({lay.key_text(other, j)})"] = {
                    f"P{p}": show_value(s.vars[i], v.type, lay) for p, i in slots.items()}
    if game.ir["scoring"].get("public"):
        # the rulebook says the scores are open information (honour on the table)
        per_player["score"] = dict(zip((f"P{p}" for p in range(s.n)), game.scores(s)))
    components = _components(game, prog, s, kept, showers, seen)
    used = {}
    for p in range(s.n):
        used[f"P{p}"] = {name: s.vars[base + p] for name, (base, times, scope) in lay.limits.items()
                         if s.vars[base + p]}
    current = s.vars[lay.slot_current]
    pending = None
    if not s.over and s.pending == (CHANCE,):     # what chance will give is nobody's to see
        pending = {"players": [CHANCE], "kind": "chance", "label": "chance"}
    elif not s.over and s.pending:
        stmt, _ = prog.machine.current_choice(s)
        kind = "action" if hasattr(stmt, "actions") else "choice"
        label = "take an action" if kind == "action" else f"choose {stmt.spec.asked}"
        pending = {"players": list(s.pending), "kind": kind, "label": label}
    out = {
        "game": game.name,
        "players": s.n,
        "viewer": viewer,
        "round": s.round,
        "turn": s.turn,
        "counters": list(game.counters),
        "called": {c: game.ir.get("called", {}).get(c, c) for c in game.counters},
        "active": current,
        "to_move": list(game.to_move(s)),
        "over": s.over,
        "pending": pending,
        "zones": zones,
        "variables": variables,
        "player_variables": per_player,
        "components": components,
        "grids": _boards(game, prog, s),
        "used": used,
        "outcome": None,
        "events": told_events(s, viewer),
    }
    if game.ir.get("layout"):
        out["layout"] = _layout(game, prog, s, showers, seen)
    if viewer is not None and viewer in game.to_move(s):
        out["actions"] = [str(a) for a in game.legal_actions(s, viewer)]
    out["info"] = information_state(game, s, viewer)
    if s.over:
        out["outcome"] = game.outcome(s).to_json()
    return out

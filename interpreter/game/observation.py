"""Observations: a player's information state as a fixed-length list of numbers.

A learning program wants the same numbers in the same places at every step.
`Observer` lays them out once per player count (`names`, one per entry) and
fills them from the viewer's information state (runtime/information.py),
never from the state itself, so a vector holds nothing a view would not:
the hidden cards are only sizes (and those the rules revealed), and
permuting them changes nothing. Seats are absolute (P0 is entry 0 of every
one-hot of players) and the viewer is marked by its own one-hot, so one
network can play every seat.

The entries, in order: the flow (`over`, `viewer=Pk`, `to_move=Pk` and
`to_move=chance`, `current=Pk` / `current=none`, `round`, `turn`, and a
one-hot of the decision pending, `pending:LABEL@LINE`, with `pending:chance`);
then each zone instance (`size:ZONE` and the number of the pieces the
viewer knows there by class, `ZONE[CLASS]` — in a zone of each piece of a
type, a board's space, by the values of their columns, `ZONE.ATTR=VALUE`,
where that takes fewer entries — and for an ordered zone the class of its
top piece, `ZONE:top[CLASS]`, where the viewer sees it); then
each variable instance, each `has` value of each piece (`ATTR(PIECE#ID)`) and
each action's uses (`used:ACTION(Pk)`): a number as itself, yes/no as 1/0,
a player, a piece or a word as a one-hot (`NAME=P1`, `NAME=CLASS`,
`NAME=WORD`), a cell as `NAME.x`, `NAME.y`, a list of pieces as counts by
class; each with `NAME:none`, 1 where the value is none.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..runtime.chance import CHANCE
from ..runtime.decisions import Choose, EachChooses, TakeAction
from ..runtime.information import information_state
from ..stdlib import grid
from ..stdlib.types import BOOL, CELL, NUMBER, PLAYER, SYMBOL, elem, is_comp
from .spaces import rulebook_words


@dataclass(frozen=True)
class ObservationSpec:
    """The layout of `game.observation`: one name per entry."""

    names: tuple

    @property
    def size(self) -> int:
        return len(self.names)

    def __len__(self) -> int:
        return len(self.names)

    def index(self, name: str) -> int:
        return self.names.index(name)


class Observer:
    """The observation layout of one rulebook at one player count."""

    def __init__(self, game, n: int):
        self.game, self.n = game, n
        prog = self.prog = game.program(n)
        self.lay = lay = prog.lay
        self.names: list = []
        self.class_names = _class_names(lay)
        self.words = rulebook_words(game.ir, lay)
        self._flow()
        self._zones()
        self._variables()
        self.spec = ObservationSpec(tuple(self.names))

    def _add(self, name: str) -> int:
        self.names.append(name)
        return len(self.names) - 1

    def _add_all(self, names) -> int:
        """Adds the entries; the first one's position."""
        first = len(self.names)
        self.names.extend(names)
        return first

    # -- the layout -------------------------------------------------------------
    def _flow(self) -> None:
        n = self.n
        self.at_over = self._add("over")
        self.at_viewer = self._add_all(f"viewer=P{p}" for p in range(n))
        self.at_to_move = self._add_all(f"to_move=P{p}" for p in range(n))
        self.at_chance = self._add("to_move=chance")
        self.at_current = self._add_all(f"current=P{p}" for p in range(n))
        self._add("current=none")
        self.at_round = self._add("round")
        self.at_turn = self._add("turn")
        self.at_pending: dict = {}           # statement id -> entry
        seen: dict = {}
        for stmt in self.prog.machine.stmts:
            if isinstance(stmt, (TakeAction, Choose, EachChooses)):
                what = ("take an action" if isinstance(stmt, TakeAction)
                        else f"choose {stmt.spec.name}")
                name = f"pending:{what}@L{stmt.at[0]}"
                seen[name] = seen.get(name, 0) + 1
                if seen[name] > 1:
                    name += f":{stmt.at[1]}"
                self.at_pending[stmt.sid] = self._add(name)
        self.at_pending_chance = self._add("pending:chance")

    def _zones(self) -> None:
        lay = self.lay
        self.zone_entries = []     # per instance: (size entry, first class entry, top entry or -1)
        type_classes: dict = {}
        for t, (first, count) in lay.types.items():
            classes = sorted({lay.ckey[c] for c in range(first, first + count)})
            type_classes[t] = classes
        position = [0] * lay.ncomponents
        for t, (first, count) in lay.types.items():
            where = {k: i for i, k in enumerate(type_classes[t])}
            for c in range(first, first + count):
                position[c] = where[lay.ckey[c]]
        self.position = position    # cid -> position of its class among its type's classes
        self.type_classes = type_classes
        self.by_attribute: dict = {}   # zone instance -> cid -> [(entry, amount)]
        plans: dict = {}
        for i, (slot, k) in enumerate(lay.zone_list):
            place = _place(lay, i)
            classes = type_classes.get(slot.of, [])
            size = self._add(f"size:{place}")
            first = len(self.names)
            plan = None
            if slot.index not in (None, "player") and slot.index not in lay.grids:
                # a zone of each piece (a board's spaces) holds a few pieces: by
                # their attributes where that takes fewer entries than their classes
                if slot.of not in plans:
                    plans[slot.of] = _attribute_plan(lay, slot.of, self.class_names)
                plan = plans[slot.of]
                if len(plan[0]) >= len(classes):
                    plan = None
            if plan is not None:
                for label in plan[0]:
                    self._add(f"{place}.{label}")
                self.by_attribute[i] = plan[1]
            else:
                for c in classes:
                    self._add(f"{place}[{self.class_names[c]}]")
            top = -1
            if slot.ordered and slot.visibility != "hidden":
                top = len(self.names)
                for c in classes:
                    self._add(f"{place}:top[{self.class_names[c]}]")
            self.zone_entries.append((size, first, top))

    def _variables(self) -> None:
        lay = self.lay
        self.slots = []     # (slot, first entry, entries but none's, encoder, none's entry?)
        self._where: dict = {}      # type -> cid -> position of its class
        for v in lay.variables.values():
            for k in range(v.count):
                if v.index2 is not None:
                    a, b = v.keys(k)
                    name = f"{v.name}({lay.key_text(v.index, a)}, {lay.key_text(v.index2, b)})"
                else:
                    name = _instance(lay, v.name, v.index, k)
                self._slot(v.base + k, name, v.type)
        for attr, column in lay.has.items():
            t = lay.has_type[attr]
            for cid, slot in enumerate(column):
                if slot >= 0:
                    self._slot(slot, f"{attr}({lay.display[cid]}#{cid})", t)
        for action, (base, times, scope) in lay.limits.items():
            for p in range(self.n):
                self._slot(base + p, f"used:{action}(P{p})", NUMBER, none=False)

    def _slot(self, slot: int, name: str, t: str, none: bool = True) -> None:
        first = len(self.names)
        if t in (NUMBER, BOOL):
            self._add(name)
            encode = _number
        elif t == PLAYER:
            for p in range(self.n):
                self._add(f"{name}=P{p}")
            encode = _one_hot({p: p for p in range(self.n)})
        elif is_comp(t):
            self._add_all(f"{name}={self.class_names[c]}" for c in self._classes(t))
            encode = _one_hot(self._positions(t))
        elif t == CELL:
            self._add(f"{name}.x")
            self._add(f"{name}.y")
            encode = _cell
        elif t == SYMBOL:
            for w in self.words:
                self._add(f"{name}={w}")
            self._add(f"{name}=other")
            encode = _word({w: i for i, w in enumerate(self.words)}, len(self.words))
        elif t.startswith("list:") and is_comp(elem(t)):
            self._add_all(f"{name}[{self.class_names[c]}]" for c in self._classes(elem(t)))
            encode = _counts(self._positions(elem(t)))
        else:
            self._add(f"{name}:size" if t.startswith("list:") else name)
            encode = _plain
        width = len(self.names) - first
        if none:
            self._add(f"{name}:none")
        self.slots.append((slot, first, width, encode, none))

    def _classes(self, t: str) -> list:
        """The classes of a component type `comp:T` (of every type for `comp:`)."""
        name = t[5:]
        if name:
            return self.type_classes.get(name, [])
        return sorted(set(self.lay.ckey))

    def _positions(self, t: str) -> dict:
        """cid -> the position of its class among those of `comp:T`."""
        found = self._where.get(t)
        if found is None:
            where = {c: i for i, c in enumerate(self._classes(t))}
            ckey = self.lay.ckey
            found = self._where[t] = {cid: where[ckey[cid]] for cid in range(len(ckey))
                                      if ckey[cid] in where}
        return found

    # -- one vector ---------------------------------------------------------------
    def observe(self, state, viewer) -> list:
        return self.encode(information_state(self.game, state, viewer), viewer)

    def encode(self, info: dict, viewer) -> list:
        """The vector of an information state (`information_state(…)`)."""
        out = [0] * len(self.names)
        n = self.n
        out[self.at_over] = int(bool(info["over"]))
        if viewer is not None and 0 <= viewer < n:
            out[self.at_viewer + viewer] = 1
        pending = info["pending"]
        chance = not info["over"] and list(pending) == [CHANCE]
        if not info["over"]:
            for p in pending:
                if 0 <= p < n:
                    out[self.at_to_move + p] = 1
            out[self.at_chance] = int(chance)
        values = info["vars"]
        current = values[self.lay.slot_current]
        out[self.at_current + (current if type(current) is int and 0 <= current < n else n)] = 1
        out[self.at_round] = info["round"]
        out[self.at_turn] = info["turn"]
        if chance:
            out[self.at_pending_chance] = 1
        elif not info["over"] and info["frames"]:
            block, step = info["frames"][-1][0], info["frames"][-1][1]
            stmts = self.prog.machine.blocks[block].stmts
            if 0 <= step < len(stmts):
                at = self.at_pending.get(stmts[step].sid)
                if at is not None:
                    out[at] = 1
        position, by_attribute = self.position, self.by_attribute
        for i, (entry, (size, first, top)) in enumerate(zip(info["zones"], self.zone_entries)):
            if type(entry) is list:
                out[size] = len(entry)
                known = entry
                if top >= 0 and entry:
                    out[top + position[entry[-1]]] = 1
            else:
                out[size] = entry["count"]
                known = entry["known"]
            plan = by_attribute.get(i)
            if plan is None:
                for c in known:
                    out[first + position[c]] += 1
            else:
                for c in known:
                    for at, amount in plan[c]:
                        out[first + at] += amount
        for slot, first, width, encode, none in self.slots:
            v = values[slot]
            if v is None:
                if none:
                    out[first + width] = 1
            else:
                encode(out, first, v)
        return out


def _number(out, at, v) -> None:
    if type(v) in (int, float, bool):
        out[at] = int(v) if type(v) is bool else v


def _plain(out, at, v) -> None:
    if type(v) in (int, float, bool):
        out[at] = int(v) if type(v) is bool else v
    elif isinstance(v, (list, tuple)):
        out[at] = len(v)


def _cell(out, at, v) -> None:
    if type(v) is int:
        out[at] = grid.x_of(v)
        out[at + 1] = grid.y_of(v)


def _one_hot(where: dict):
    def encode(out, at, v):
        i = where.get(v) if type(v) is int else None
        if i is not None:
            out[at + i] = 1
    return encode


def _counts(where: dict):
    def encode(out, at, v):
        if isinstance(v, list):
            for c in v:
                i = where.get(c) if type(c) is int else None
                if i is not None:
                    out[at + i] += 1
    return encode


def _word(where: dict, other: int):
    def encode(out, at, v):
        out[at + where.get(v, other) if isinstance(v, str) else at + other] = 1
    return encode


def _attribute_plan(lay, type_name: str, class_names: list) -> tuple:
    """(labels, cid -> [(entry, amount)]): the pieces of a type counted by
    the values of their table's columns — a number or yes/no summed, a
    player, a piece or a word counted by value; lists and cells left out."""
    first, count = lay.types[type_name]
    cids = range(first, first + count)
    labels: list = []
    plan: dict = {c: [] for c in cids}
    for attr in sorted(lay.static):
        column, t = lay.static[attr], lay.static_type.get(attr)
        values = [column[c] for c in cids]
        if all(v is None for v in values):
            continue
        if t in (NUMBER, BOOL):
            at = len(labels)
            labels.append(attr)
            for c in cids:
                if type(column[c]) in (int, float, bool):
                    plan[c].append((at, int(column[c]) if type(column[c]) is bool else column[c]))
            continue
        if t == PLAYER:
            shown = {p: f"P{p}" for p in values if type(p) is int}
        elif is_comp(t):
            shown = {v: class_names[lay.ckey[v]] for v in values if type(v) is int}
        elif t == SYMBOL:
            shown = {v: v for v in values if isinstance(v, str)}
        else:
            continue
        where = {}
        for v in sorted(shown, key=lambda v: (shown[v], v)):
            where[v] = len(labels)
            labels.append(f"{attr}={shown[v]}")
        for c in cids:
            if column[c] in where:
                plan[c].append((where[column[c]], 1))
    return labels, [plan.get(c, ()) for c in range(lay.ncomponents)]


def _class_names(lay) -> list:
    """A name for every class of pieces: its text, told apart where two
    classes print alike (a set of each player: `/P1`; else `#class`)."""
    shown = lay.class_display
    first_cid: dict = {}
    for cid, k in enumerate(lay.ckey):
        first_cid.setdefault(k, cid)
    count: dict = {}
    for k, text in enumerate(shown):
        key = (lay.type_of[first_cid[k]], text)
        count[key] = count.get(key, 0) + 1
    owners = lay.static.get("owner")
    out = []
    for k, text in enumerate(shown):
        if count[(lay.type_of[first_cid[k]], text)] > 1:
            owner = owners[first_cid[k]] if owners is not None else None
            text = f"{text}/P{owner}" if type(owner) is int else f"{text}#{k}"
        out.append(text)
    return out


def _place(lay, i: int) -> str:
    slot, k = lay.zone_list[i]
    if slot.index is not None and slot.index in lay.grids:
        return f"{slot.name}({grid.text(lay.grids[slot.index].cells[k])})"
    return lay.place_name(i)


def _instance(lay, name: str, index, k: int) -> str:
    if index is None:
        return name
    if index == "player":
        return f"{name}(P{k})"
    if index in lay.grids:
        return f"{name}{grid.text(lay.grids[index].cells[k])}"
    return f"{name}({lay.key_text(index, k)})"

"""Where everything lives for one player count: component ids, zone and
variable slots, and the fixed facts of each component.

The IR says what exists; the layout numbers it for a game of N players, so
the compiled program reads a zone as ``state.zones[i]`` and a per-player
variable as ``state.vars[base + p]``. Components are numbered in the order
the rulebook lists them; identical components (same type and attributes)
share a *class*, the unit by which choices are told apart. A component set
`of each player` is numbered once per player of this game, and its `owner`
is an attribute like the others: two players' equal pieces are different
classes, one player's are one.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..errors import RuleError
from ..stdlib.grid import Bounded
from ..stdlib.types import ANY, BOOL, CELL, NONE, NUMBER, PLAYER, SYMBOL, comp_type, list_of


OWNER = "owner"    # the static attribute of a component set 'of each player'
_UNKNOWN_LIST = "list:none"     # while columns are typed: a list with no item of a known kind


@dataclass
class ZoneSlot:
    name: str
    base: int
    count: int
    index: str | None       # None, "player" or a component type
    of: str
    visibility: str
    ordered: bool
    by: str | None = None      # shown grouped by this attribute
    # 'of each A and B': the second index, and how many B there are. The
    # zone of (a, b) is instance a * inner + b, so one player's zones (or one
    # piece's) lie together, in the order of B
    index2: str | None = None
    inner: int = 1

    def keys(self, k: int) -> tuple:
        """The positions of instance k along the zone's indices: (a,) or (a, b)."""
        return divmod(k, self.inner) if self.index2 is not None else (k,)

    def owner(self, k: int):
        """The player whose zone instance k is, for a zone of each player
        (its first index), else None."""
        return self.keys(k)[0] if self.index == "player" else None


@dataclass
class VarSlot:
    name: str
    base: int
    count: int
    index: str | None
    type: str
    # 'of each A and B': as a zone's (ZoneSlot), the instance of (a, b) is a * inner + b
    index2: str | None = None
    inner: int = 1

    def keys(self, k: int) -> tuple:
        """The positions of instance k along the variable's indices: (a,) or (a, b)."""
        return divmod(k, self.inner) if self.index2 is not None else (k,)


@dataclass
class Layout:
    n: int
    types: dict = field(default_factory=dict)        # type -> (first cid, count)
    type_of: list = field(default_factory=list)      # cid -> type
    # cid -> what its back shows face down: the type, and for a set 'of each
    # player' the owner too (everybody sees whose piece it is)
    back: list = field(default_factory=list)
    display: list = field(default_factory=list)      # cid -> text
    ckey: list = field(default_factory=list)         # cid -> class id
    class_display: list = field(default_factory=list)
    static: dict = field(default_factory=dict)       # attr -> list over cids
    static_type: dict = field(default_factory=dict)  # attr -> type
    instances: dict = field(default_factory=dict)    # instance name -> cid
    has: dict = field(default_factory=dict)          # attr -> list over cids of slot or -1
    has_type: dict = field(default_factory=dict)
    zones: dict = field(default_factory=dict)        # name -> ZoneSlot
    zone_list: list = field(default_factory=list)    # instance index -> (ZoneSlot, k)
    variables: dict = field(default_factory=dict)    # name -> VarSlot
    grids: dict = field(default_factory=dict)        # name -> grid.Bounded
    nvars: int = 0
    slot_current: int = 0
    limits: dict = field(default_factory=dict)       # action -> (base, times, scope)
    tables: dict = field(default_factory=dict)       # the `Slots` made so far, by what they index

    @property
    def ncomponents(self) -> int:
        return len(self.type_of)

    def new_slot(self, count=1) -> int:
        base = self.nvars
        self.nvars += count
        return base

    def index_count(self, index: str | None) -> int:
        if index is None:
            return 1
        if index == "player":
            return self.n
        if index in self.grids:
            return len(self.grids[index].cells)
        return self.types[index][1]

    def positions(self, index: str) -> "Slots":
        """The table of an index `of each player` or `of each TYPE`: each of
        its values -> its position, 0 to count - 1 (a seat is its own, a
        piece its place among its type's). A declaration's instance x lies
        at its base + position(x). One table an index, shared by every
        declaration of each of it."""
        found = self.tables.get(index)
        if found is None:
            if index == "player":
                items = {p: p for p in range(self.n)}
            else:
                first, count = self.types[index]
                items = {first + k: k for k in range(count)}
            found = self.tables[index] = Slots(items, self, index=index)
        return found

    def attribute_slots(self, attr: str) -> "Slots":
        """A `has` attribute's table: each piece whose type has it -> its slot."""
        key = ("has", attr)
        found = self.tables.get(key)
        if found is None:
            found = self.tables[key] = Slots(
                {c: slot for c, slot in enumerate(self.has[attr]) if slot >= 0}, self, attr=attr)
        return found

    @property
    def pieces(self) -> "Slots":
        """Each piece -> itself: what a read of a table column by piece (a
        list) looks its index up in first, unless it is sure to be a piece."""
        found = self.tables.get(None)
        if found is None:
            found = self.tables[None] = Slots({c: c for c in range(self.ncomponents)}, self)
        return found

    def key_text(self, index: str, j: int) -> str:
        """The j-th value of an index as players read it: `P1`, or a piece's name."""
        if index == "player":
            return f"P{j}"
        return self.display[self.types[index][0] + j]

    def place_name(self, i: int) -> str:
        """Where a piece lies, as players read it: a zone instance's name,
        `NAME(P1)` for one of a zone of each player, `NAME(KEY)` for one of
        a zone of each piece, `NAME(P1, KEY)` for one of a zone of two
        indices, and "the box" for no zone (-1)."""
        if i < 0:
            return "the box"
        slot, k = self.zone_list[i]
        if slot.index2 is not None:
            keys = zip((slot.index, slot.index2), slot.keys(k))
            return f"{slot.name}({', '.join(self.key_text(index, j) for index, j in keys)})"
        if slot.count == 1:
            return slot.name
        if slot.index == "player":
            return f"{slot.name}(P{k})"
        return f"{slot.name}({self.display[self.types[slot.index][0] + k]})"


class Slots(dict):
    """value -> position or slot: the seats of the game or the pieces of a
    type (`index`), the pieces whose type has an attribute (`attr`), or
    every piece; a plain dict lookup where the value is one of its keys.
    Any other value raises the rule error that says why it was refused (the
    statement or formula being run gives it its span). Numbers are keys as
    they are: a negative one never counts from the end, as a list's index
    would."""

    __slots__ = ("lay", "index", "attr")

    def __init__(self, items: dict, lay: Layout, index: str | None = None,
                 attr: str | None = None):
        super().__init__(items)
        self.lay, self.index, self.attr = lay, index, attr

    def __missing__(self, value):
        message, hint = self._refusal(value)
        raise RuleError(message, hint=hint, code="rule/runtime")

    def _refusal(self, value) -> tuple:
        lay, index, attr = self.lay, self.index, self.attr
        piece = type(value) is int and 0 <= value < lay.ncomponents
        if index == "player":
            shown = f"P{value}" if type(value) is int and value >= 0 else _shown(value)
            return (f"{shown} is not a player of this game (P0 to P{lay.n - 1})",
                    "a player is a seat from 0 to player_count - 1: guard the index "
                    "(if p < player_count …), or compute it with players[…], next_player(…) "
                    "or opponent(…)")
        if index is not None:
            shown = lay.display[value] if piece else _shown(value)
            what = f"a {lay.type_of[value]}" if piece else "no piece"
            return (f"{shown} is {what}, not a {index}",
                    f"a zone or variable 'of each {index}' is read with a {index}: guard the "
                    f"index where it may be another value (if contains({index}, x) …)")
        if not piece:
            named = f"attribute '{attr}'" if attr is not None else "attributes"
            return (f"{_shown(value)} is no piece, so it has no {named}",
                    "a define's parameter or a value of kind any may hold anything: call the "
                    "define with a piece, or declare the value's kind")
        having = sorted({lay.type_of[c] for c in self}) or ["piece"]
        which = f"only a {' or a '.join(having)}"
        guard = f"(if contains({having[0]}, c) …)"
        fixed = lay.static.get(attr)
        if fixed is not None and fixed[value] is not None:
            return (f"{lay.display[value]}'s '{attr}' is fixed by the table of "
                    f"{lay.type_of[value]} and cannot change",
                    f"{which} keeps '{attr}' in the game: set it of those {guard}")
        return (f"{lay.display[value]} is a {lay.type_of[value]}, which has no attribute "
                f"'{attr}'", f"{which} has '{attr}': read or set it of those {guard}")


def _shown(value) -> str:
    """A value in a refusal's message, in the rulebook's words."""
    if value is None:
        return "none"
    if value is True or value is False:
        return "yes" if value else "no"
    if type(value) is int:
        return str(value)
    if isinstance(value, list):
        return "a list"
    return repr(value)


def build_layout(ir: dict, n: int) -> Layout:
    """Number every component, zone and variable of the IR for n players."""
    lay = Layout(n)
    classes: dict = {}
    raw_rows = []
    for comp in ir["components"]:
        first = len(lay.type_of)
        # a set 'of each player' is the table once per player, player by player
        owners = range(n) if comp.get("per_player") else (None,)
        for owner in owners:
            for row in comp["rows"]:
                cells = row["cells"]
                copies = cells["copies"]["value"] if "copies" in cells else 1
                attrs = {k: c for k, c in cells.items() if k != "copies"}
                if owner is not None:
                    attrs[OWNER] = {"node": PLAYER, "value": owner}
                for _ in range(copies):
                    cid = len(lay.type_of)
                    lay.type_of.append(comp["name"])
                    lay.back.append(comp["name"] if owner is None else f"{comp['name']}/P{owner}")
                    raw_rows.append(attrs)
                    if "name" in attrs and attrs["name"]["node"] == "symbol":
                        lay.instances.setdefault(attrs["name"]["value"], cid)
        lay.types[comp["name"]] = (first, len(lay.type_of) - first)
    # static attributes, with references resolved to component ids. Every
    # column of every type has one, a type without pieces too, so that a
    # formula may read it (and reads nothing); one list per column, made once
    ncomp = len(lay.type_of)
    for comp in ir["components"]:
        for attr in list(comp.get("columns", ())) + ([OWNER] if comp.get("per_player") else []):
            if attr != "copies" and attr not in lay.static:
                lay.static[attr] = [None] * ncomp
    static, static_type = lay.static, lay.static_type
    for cid, attrs in enumerate(raw_rows):
        for attr, cell in attrs.items():
            column = static.get(attr)
            if column is None:
                column = static[attr] = [None] * ncomp
            column[cid] = _cell_value(cell, lay)
    # the copies of a row share its cells: their types, class and text are
    # worked out once, so the work grows with the rows, not with the copies
    shared: dict = {}      # id of a row's cells -> (class id, display)
    for cid, attrs in enumerate(raw_rows):
        known = shared.get(id(attrs))
        if known is None:
            for attr, cell in attrs.items():
                static_type[attr] = _join(static_type.get(attr), _cell_type(cell, lay))
            key = (lay.type_of[cid],) + tuple(sorted((a, _freeze(static[a][cid])) for a in attrs))
            if key not in classes:
                classes[key] = len(classes)
                lay.class_display.append(None)
            known = shared[id(attrs)] = (classes[key], _display(cid, attrs, lay))
        text = known[1] if known[1] is not None else f"{lay.type_of[cid]}#{cid}"
        lay.ckey.append(known[0])
        lay.display.append(text)
        lay.class_display[known[0]] = text
    for attr, t in static_type.items():
        if t == _UNKNOWN_LIST:
            static_type[attr] = list_of(ANY)
    # per-component mutable values ('has')
    for comp in ir["components"]:
        first, count = lay.types[comp["name"]]
        for h in comp["has"]:
            column = lay.has.setdefault(h["name"], [-1] * ncomp)
            base = lay.new_slot(count)
            for k in range(count):
                column[first + k] = base + k
            lay.has_type[h["name"]] = _declared_type(h["type"], ir)
    for g in ir.get("grids", ()):
        lay.grids[g["name"]] = Bounded(g["name"], g["width"], g["height"], g.get("index") == "player")
    for z in ir["zones"]:
        inner = lay.index_count(z.get("index2"))
        count = lay.index_count(z["index"]) * inner
        slot = ZoneSlot(z["name"], len(lay.zone_list), count, z["index"], z["of"],
                        z["visibility"], z["ordered"], z.get("by"), z.get("index2"), inner)
        lay.zones[z["name"]] = slot
        for k in range(count):
            lay.zone_list.append((slot, k))
    for v in ir["variables"]:
        inner = lay.index_count(v.get("index2"))
        count = lay.index_count(v["index"]) * inner
        lay.variables[v["name"]] = VarSlot(v["name"], lay.new_slot(count), count, v["index"],
                                           _declared_type(v["type"], ir), v.get("index2"), inner)
    lay.slot_current = lay.new_slot()
    for a in ir["actions"]:
        for opt in a["options"]:
            if opt["node"] in ("once_per", "times_per"):
                lay.limits[a["name"]] = (lay.new_slot(n), opt["times"], opt["scope"])
    return lay


def declared_type(name: str) -> str:
    """The kind a declaration's TYPE names: a plain kind, or a component type's pieces."""
    if name in (NUMBER, BOOL, SYMBOL, PLAYER, ANY, CELL):
        return name
    return comp_type(name)


def _declared_type(name: str, ir: dict) -> str:
    return declared_type(name)


def _cell_value(cell, lay):
    kind = cell["node"]
    if kind == "component":
        return lay.instances[cell["value"]]
    if kind == "link":          # `links … by …`: the piece's position in its type
        return lay.types[cell["type"]][0] + cell["index"]
    if kind == "list":
        return [_cell_value(c, lay) for c in cell["items"]]
    if kind == "none":
        return None
    return cell["value"]


def _cell_type(cell, lay):
    kind = cell["node"]
    if kind == "component":
        return comp_type(lay.type_of[lay.instances[cell["value"]]])
    if kind == "link":
        return comp_type(cell["type"])
    if kind == "list":
        # one kind for all items (list:comp:colour, list:symbol, …); none, or
        # an empty list, says nothing about the kind
        items = {_cell_type(c, lay) for c in cell["items"]} - {NONE}
        if not items:
            return _UNKNOWN_LIST
        return list_of(items.pop() if len(items) == 1 else ANY)
    return {"number": NUMBER, "symbol": SYMBOL, "string": SYMBOL, "bool": BOOL,
            "none": NONE, PLAYER: PLAYER}.get(kind, ANY)


def _join(old: str | None, new: str) -> str:
    """The type of a column that holds values of types old and new. A list of
    nothing known (empty, or only none) gives way to any other list, and a
    '-' cell (none) to any other kind: a column of colours with a '-' is
    still a column of colours."""
    if old in (None, new, NONE):
        return new
    if new == NONE:
        return old
    if old == _UNKNOWN_LIST and new.startswith("list:"):
        return new
    if new == _UNKNOWN_LIST and old.startswith("list:"):
        return old
    return ANY


def _freeze(v):
    return tuple(_freeze(x) for x in v) if isinstance(v, list) else v


def _display(cid, attrs, lay) -> str | None:
    """A piece's text from its attributes; None when it has none to show
    (then it is TYPE#ID, its own number)."""
    for key in ("name", "id"):
        if key in attrs and attrs[key]["node"] != "none":
            return _show(lay.static[key][cid], attrs[key], lay)
    for key, cell in attrs.items():
        if cell["node"] != PLAYER:      # a set's owner: two players' pieces print alike
            return _show(lay.static[key][cid], cell, lay)
    return None


def _show(value, cell, lay) -> str:
    if cell["node"] == "component":
        return str(cell["value"])    # an instance's name is its display
    if cell["node"] == "link":
        return str(cell["value"])    # as written in the list: the linked piece's key
    if cell["node"] == "list":
        return "[" + ", ".join(_show(v, c, lay) for v, c in zip(value, cell["items"])) + "]"
    return str(value)

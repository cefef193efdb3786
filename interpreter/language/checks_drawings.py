"""Static checks of how pieces are drawn: a component's `drawn as …` line,
and what players read on its pieces, its `shows` line.

`drawn as edges SIDES`, `drawn as shape CELLS`, `drawn as rows ROWS` and
`drawn as name`, each with an optional `, shade by NAME`, say only how the
screen shows a piece (docs/language.md §4.5); the rules never read them. The
check makes sure that every name is an attribute of the type (a table
column, a `has` value, `owner`) or a define of the piece, that a table
column holds values of the kind the look needs, and leaves the line in the
component's IR as `drawn`, which views read (runtime/views.py). `shows
cost, points` names the attributes (or defines of one piece) listed beside
the pieces wherever players see them; it is left in the IR as `shows`.

`DrawingChecks` is a base of `checks.Checker`, like `DeclarationChecks`.
"""

from __future__ import annotations

from .checks_declarations import cell_pairs
from ..errors import (DataFileError, InvalidDeclaration, UnknownName, WrongArity, WrongType,
                      did_you_mean)

# look -> the numbers of names it takes, what they are (for a hint)
LOOKS = {
    "edges": ((1, 4), "a list of its four sides, north first (or a define of the piece and a "
                      "direction), or four names, one a side: 'drawn as edges sides' or "
                      "'drawn as edges north, east, south, west'"),
    "shape": ((1,), "the list of its [x, y] cells: 'drawn as shape cells'"),
    "rows": ((1,), "a list of rows of values, top row first: 'drawn as rows cells'"),
    "name": ((0,), "nothing more: 'drawn as name, shade by colour'"),
}
SIDES = 4
PLAIN = ("number", "symbol", "string", "bool", "none", "component", "link")


def _four_sides(cell) -> str | None:
    """Why a table cell is not four sides, north first, or None."""
    if cell["node"] == "none":
        return None
    if cell["node"] != "list" or len(cell["items"]) != SIDES:
        return "is not a list of four sides (north, east, south, west)"
    if any(item["node"] not in PLAIN for item in cell["items"]):
        return "has a side that is a list, not one value"
    return None


def _one_value(cell) -> str | None:
    if cell["node"] not in PLAIN:
        return "is a list, not one value"
    return None


def _cells(cell) -> str | None:
    """Why a table cell is not a list of distinct [x, y] pairs, or None."""
    if cell["node"] == "none":
        return None
    pairs = cell_pairs(cell)
    return pairs if isinstance(pairs, str) else None


def _rows(cell) -> str | None:
    """Why a table cell is not rows of plain values, all of one length, or None."""
    if cell["node"] == "none":
        return None
    rows = cell.get("items") if cell["node"] == "list" else None
    if not rows or any(r["node"] != "list" or not r["items"] for r in rows):
        return "is not a list of rows, each a list of values"
    if len({len(r["items"]) for r in rows}) != 1:
        return "has rows of different lengths"
    if any(item["node"] not in PLAIN for r in rows for item in r["items"]):
        return "has a value that is a list"
    return None


# what each name of a look must give: (role in messages, the check of a table cell)
_ROLES = {"edges": ("the four sides", _four_sides), "side": ("one side", _one_value),
          "shape": ("the cells", _cells), "rows": ("the rows", _rows),
          "shade": ("the shade", _one_value)}
LISTS = {"edges", "shape", "rows"}     # roles whose value is a list: no 'has' holds one


class DrawingChecks:
    """The check of `drawn as …`, for `checks.Checker`: it reports through
    its `error`, reads `_define_params` and `attributes_known`."""

    def _check_drawn(self, comp):
        decls = comp.pop("drawn", [])
        if not decls:
            return
        for extra in decls[1:]:
            self.error(InvalidDeclaration, f"component '{comp['name']}' is drawn twice",
                       extra["at"], hint=f"it is drawn at line {decls[0]['at'][0]} already; "
                                         "a piece has one look: keep one 'drawn' line")
        d = decls[0]
        comp["drawn"] = d
        look = d["look"]
        if look not in LOOKS:
            self.error(UnknownName, f"a piece cannot be drawn as '{look}'", d["look_at"],
                       hint=did_you_mean(look, LOOKS) or "draw it as edges, shape, rows or name")
            return
        counts, what = LOOKS[look]
        names = d["names"]
        if len(names) not in counts:
            self.error(WrongArity, f"'drawn as {look}' names {_names(len(names))}", d["at"],
                       hint=f"'drawn as {look}' takes {what}")
        elif look == "edges" and len(names) == SIDES:
            for name, at in zip(names, d["names_at"]):
                self._check_drawn_name(comp, "side", name, at)
        elif names:
            self._check_drawn_name(comp, look, names[0], d["names_at"][0],
                                   params=(1, 2) if look == "edges" else (1,))
        if d["shade"] is not None:
            self._check_drawn_name(comp, "shade", d["shade"], d["shade_at"])

    def _check_drawn_name(self, comp, role, name, at, params=(1,)):
        """NAME of a look: a define of the piece (first, as views read it), a
        `has` value or a table column, holding what the role needs."""
        of = comp["name"]
        what, problem_of = _ROLES[role]
        has = {h["name"]: h["type"] for h in comp["has"]}
        columns = [c for c in comp.get("columns", []) if c != "copies"]
        if name in self._define_params:
            k = self._define_params[name]
            if k not in params:
                needs = "one (the piece)" if params == (1,) else \
                    "one (the piece) or two (the piece, a direction 0-3)"
                self.error(WrongArity, f"define '{name}' takes {_parameters(k)}; drawing "
                                       f"{what} needs {needs}", at,
                           hint=f"write 'define {name}(t) = …', giving {what} of piece t"
                           + (", or 'define {name}(t, d) = …', what t shows towards d"
                              if len(params) > 1 else ""))
        elif name in has:
            if role in LISTS and has[name] != "any":
                self.error(WrongType, f"'{name}' of a {of} is a {has[name]}, not {what}", at,
                           hint=f"name a table column or a define that gives {what}")
        elif name == "owner" and comp["per_player"]:
            if role in LISTS:
                self.error(WrongType, f"'owner' of a {of} is a player, not {what}", at,
                           hint=f"name a table column or a define that gives {what}")
        elif name in columns:
            for row in comp.get("rows", []):
                cell = row["cells"].get(name)
                problem = problem_of(cell) if cell is not None else None
                if problem:
                    self._row_error(row, WrongType, DataFileError,
                                    f"'{name}' of this {of} {problem}", cell["at"],
                                    hint=f"the drawing reads {what} from '{name}'")
        elif self.attributes_known:
            known = set(columns) | set(has) | ({"owner"} if comp["per_player"] else set())
            self.error(UnknownName, f"a {of} has no attribute '{name}' to draw {what} from", at,
                       hint=did_you_mean(name, known | self._one_card_defines)
                       or f"name an attribute of a {of}, or a define of one piece")


    def _check_shows(self, comp):
        """`shows NAME, …`: each an attribute of the type or a define of one
        piece, named once, on one line."""
        decls = comp.pop("shows", [])
        if not decls:
            return
        for extra in decls[1:]:
            self.error(InvalidDeclaration, f"component '{comp['name']}' says what it shows twice",
                       extra["at"], hint=f"it shows {', '.join(decls[0]['names'])} at line "
                                         f"{decls[0]['at'][0]}: name every attribute on one "
                                         "'shows' line")
        d = decls[0]
        of = comp["name"]
        known = set(c for c in comp.get("columns", []) if c != "copies") \
            | {h["name"] for h in comp["has"]} | ({"owner"} if comp["per_player"] else set())
        seen = set()
        for name, at in zip(d["names"], d["names_at"]):
            if name in seen:
                self.error(InvalidDeclaration, f"'{name}' is shown twice", at,
                           hint="name each attribute once")
            seen.add(name)
            if name == "name":
                self.error(InvalidDeclaration, f"a {of} shows its name already", at,
                           hint="name only the attributes read beside it")
            elif name in known:
                continue
            elif name in self._define_params:
                if self._define_params[name] != 1:
                    self.error(WrongArity, f"define '{name}' takes "
                                           f"{_parameters(self._define_params[name])}; "
                                           "what a piece shows is worked out from the piece alone",
                               at, hint=f"write 'define {name}(t) = …', what piece t shows")
            elif self.attributes_known:
                self.error(UnknownName, f"a {of} has no attribute '{name}' to show", at,
                           hint=did_you_mean(name, known | self._one_card_defines)
                           or f"name an attribute of a {of}, or a define of one piece")
        comp["shows"] = {"names": d["names"], "at": d["at"]}


def _names(k: int) -> str:
    return "no name" if k == 0 else "1 name" if k == 1 else f"{k} names"


def _parameters(k: int) -> str:
    return "1 parameter" if k == 1 else f"{k} parameters"

"""Which player counts a rulebook is checked for, and what compiling one builds.

A rulebook is compiled once per player count (compiler/), and the programs
of two counts differ only where the count enters: the `by players` values,
the seats, and what grows with the players (the sets `of each player`,
what is declared `of each player`, the limits of actions per player).
`checked` is the counts that `rulebook validate` compiles: both ends of
each run of counts whose `by players` values read alike. Every kind of
value a table gives is then compiled, with the fewest seats it is played
with (where a seat past the players goes wrong) and the most (where what
grows with the players is largest), so that `players 1 to 100` without a
table compiles twice, not a hundred times.

`Work` is what compiling one count builds, read from the IR before
anything is built, in entries: each piece once, once per attribute name of
the component tables (every type's columns and `has` values: a column is
a list over all the pieces) and once per attribute read in the formulas
(`c.value`: one may become a table over all the pieces), each value a state
keeps, and `NODE_WORK` per node of the formulas and statements. The checks
refuse a rulebook whose checked counts together make more than
`limits.MAX_COMPILED` (`too_much`), so that validating any rulebook the
limits accept takes about a second at most (tools/hostile_limits.py
measures it); the `Game` keeps its compiled programs within the same bound.
"""

from __future__ import annotations

from ..errors import LimitExceeded, span_at
from .limits import MAX_COMPILED, count

NODE_WORK = 20         # a formula or statement node costs about 20 entries to compile


def checked(ir: dict) -> list[int]:
    """The player counts `validate` compiles, smallest first: the first and
    the last count of each run of counts with the same `by players` values."""
    low, high = ir["players"]["min"], ir["players"]["max"]
    keep = {low, high}
    before = _column(ir, low)
    for n in range(low + 1, high + 1):
        column = _column(ir, n)
        if column != before:
            keep.update((n - 1, n))
        before = column
    return sorted(keep)


def _column(ir: dict, n: int) -> tuple:
    """The `by players` values of count n, without their places."""
    return tuple(_value(row["values"].get(str(n))) for row in ir["table"].values())


def _value(cell):
    if cell is None:
        return None
    if cell["node"] == "list":
        return ("list", tuple(_value(item) for item in cell["items"]))
    return (cell["node"], cell.get("value"))


class Work:
    """What compiling the IR builds for a player count, declaration by declaration."""

    def __init__(self, ir: dict):
        self.ir = ir
        names = set()
        for comp in ir["components"]:
            names.update(c for c in comp.get("columns", ()) if c != "copies")
            names.update(h["name"] for h in comp["has"])
            if comp.get("per_player"):
                names.add("owner")
        self.attributes = len(names)
        self.nodes, self.reads = _formulas(ir)
        self._rows = {comp["name"]: sum(max(_copies(row), 0) for row in comp["rows"])
                      for comp in ir["components"]}
        self._grids = {g["name"]: g["width"] * g["height"] for g in ir.get("grids", ())}

    def pieces(self, comp: dict, n: int) -> int:
        return self._rows[comp["name"]] * (n if comp.get("per_player") else 1)

    def _times(self, index, n: int) -> int:
        """How many values a declaration `of each INDEX` keeps."""
        if index is None:
            return 1
        if index == "player":
            return n
        if index in self._grids:
            return self._grids[index]
        comp = next((c for c in self.ir["components"] if c["name"] == index), None)
        return self.pieces(comp, n) if comp is not None else 1

    def parts(self, n: int) -> list[tuple[str, list | None, int]]:
        """[(what, its place in the IR, entries)] for count n."""
        ir, per_piece = self.ir, 1 + self.attributes + self.reads
        found = [(f"component '{c['name']}'", c["name_at"],
                  self.pieces(c, n) * (per_piece + len(c["has"]))) for c in ir["components"]]
        found += [(f"zone '{z['name']}'", z["name_at"],
                   self._times(z.get("index"), n) * self._times(z.get("index2"), n))
                  for z in ir["zones"]]
        found += [(f"variable '{v['name']}'", v["name_at"],
                   self._times(v.get("index"), n) * self._times(v.get("index2"), n))
                  for v in ir["variables"]]
        found += [(f"action '{a['name']}'", a["name_at"], n) for a in ir["actions"]
                  if any(o["node"] in ("once_per", "times_per") for o in a["options"])]
        found.append(("the formulas and statements", None, NODE_WORK * self.nodes))
        return found

    def of(self, n: int) -> int:
        """The entries compiling count n builds."""
        return sum(entries for _, _, entries in self.parts(n))


def too_much(ir: dict) -> LimitExceeded | None:
    """The error of a rulebook whose checked player counts together build
    more than MAX_COMPILED entries: at the `players` line when several
    counts are compiled, else at the declaration that builds the most."""
    work, counts = Work(ir), checked(ir)
    total = sum(work.of(n) for n in counts)
    if total <= MAX_COMPILED:
        return None
    share: dict = {}
    for n in counts:
        for what, at, entries in work.parts(n):
            share[what] = (at, share.get(what, (None, 0))[1] + entries)
    what, (at, most) = max(share.items(), key=lambda item: item[1][1])
    if len(counts) > 1 or at is None:
        at = ir["players"]["at"]
    message = (f"compiled for {_counts(counts)}, the rulebook builds {total:,} entries: at most "
               f"{count(MAX_COMPILED)} ({most:,} of them for {what})")
    if len(counts) > 1:
        hint = ("validate compiles the first and the last of each run of player counts whose "
                "'by players' values are alike: give fewer player counts, values that change "
                "less often, or fewer pieces and values of each player")
    else:
        hint = ("a piece takes an entry for every attribute name and every attribute read "
                "in the formulas: fewer copies, columns or reads")
    return LimitExceeded(message, span_at(ir["file"], at), hint)


def _counts(counts: list) -> str:
    """'2 players', 'player counts 1 and 100', 'player counts 1, 2, 3, …, 100 (100 of them)'."""
    if len(counts) == 1:
        return f"{counts[0]} player{'s' if counts[0] != 1 else ''}"
    if len(counts) <= 6:
        return f"player counts {', '.join(map(str, counts[:-1]))} and {counts[-1]}"
    return f"player counts {', '.join(map(str, counts[:3]))}, …, {counts[-1]} ({len(counts)} of them)"


def _copies(row: dict) -> int:
    cell = row["cells"].get("copies")
    return cell["value"] if cell and cell["node"] == "number" else 1


def _formulas(ir: dict) -> tuple[int, int]:
    """(nodes, attribute reads) of the formulas and statements: every IR
    node but the component tables' rows and the `by players` cells."""
    roots = [ir[k] for k in ("options", "zones", "variables", "defines", "setup", "phases",
                             "actions", "scoring")]
    roots += [{k: v for k, v in comp.items() if k != "rows"} for comp in ir["components"]]
    nodes = reads = 0
    stack = [r for r in roots if r is not None]
    while stack:                # by hand: the IR nests as deep as the rulebook
        item = stack.pop()
        if isinstance(item, dict):
            if "node" in item:
                nodes += 1
                reads += item["node"] == "attribute"
            stack.extend(v for v in item.values() if isinstance(v, (dict, list)))
        else:
            stack.extend(v for v in item if isinstance(v, (dict, list)))
    return nodes, reads

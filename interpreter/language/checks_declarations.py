"""Static checks of the declarations: options (with their picks of named
pieces), component types (tables and data files, sets of each player,
shapes, links), `by players` tables, zones (and how they are drawn: on a
grid, as hexes), grids and variables.

`DeclarationChecks` is a base of `checks.Checker`. Each declaration's check
declares its name, reports what is wrong with it, and fills in the
checker's tables of what exists (components, instances, attributes, zones,
grids, variables, the table's rows), which the checks of formulas and
statements then read.
"""

from __future__ import annotations

from . import data as datafiles, files
from .cells import CellError, computed
from .tables import EACH, TableRows
from .limits import (MAX_DATA_BYTES, MAX_GRID_CELLS, MAX_LIST_ITEMS, MAX_PIECES, MAX_STATE_VALUES,
                     count)
from ..stdlib import grid, shapes
from ..errors import (DataFileError, DuplicateName, InvalidDeclaration, LimitExceeded,
                      PlayerCountNotCovered, RulebookError, RulebookErrors, UnknownName, WrongArity, WrongType,
                      did_you_mean)

ZONE_FLAGS = {"public", "owner", "hidden", "ordered"}
GRID_LIMIT = 256        # cells each way of a declared grid
VALUE_TYPES = {"number", "bool", "player", "symbol", "cell", "any"}   # 'any' is not checked
RESERVED_COLUMNS = {"copies"}
OWNER = "owner"        # the built-in attribute of a component set 'of each player'


def _parameters(k: int) -> str:
    return "1 parameter" if k == 1 else f"{k} parameters"


def cell_pairs(cell):
    """The distinct (x, y) pairs of a non-empty list cell of [x, y] pairs,
    or why it is not one (a str)."""
    if cell["node"] != "list" or not cell["items"]:
        return "is not a list of [x, y] cells"
    pairs = []
    for item in cell["items"]:
        parts = item.get("items") if item["node"] == "list" else None
        if not parts or len(parts) != 2 or any(p["node"] != "number" for p in parts):
            return "has a cell that is not an [x, y] pair of whole numbers"
        pairs.append((parts[0]["value"], parts[1]["value"]))
    if len(set(pairs)) != len(pairs):
        return "lists a cell twice"
    return pairs


def _shape_problem(cell) -> str | None:
    """Why a table or data cell is not a polyomino's list of [x, y] pairs, or None."""
    pairs = cell_pairs(cell)
    if isinstance(pairs, str):
        return pairs
    if any(abs(v) > grid.LIMIT for pair in pairs for v in pair):
        return f"has a cell off the grid (coordinates within ±{grid.LIMIT})"
    cells = {grid.cell(x, y) for x, y in pairs}
    if len(shapes.connected(cells)) != 1:
        return f"is not one connected shape: {len(shapes.connected(cells))} parts"
    return None


class DeclarationChecks(TableRows):
    """The checks of declarations, for `checks.Checker`: they report through
    its `error`, `declare`, `add_symbol` and `span`, read what it gathered
    first (`base_dir`, `player_counts`, the defines' arities), and fill in
    its tables. The rows a component table generates (`each` cells, name
    patterns) are made first, by `tables.TableRows`."""

    def _declare_option(self, opt):
        self.declare(opt["name"], "option", opt["name_at"])
        default = opt["default"]
        if opt.get("pick"):
            return          # checked once the components are known: _check_pick
        if default["node"] == "symbol":
            self.add_symbol(default["value"], default["at"])
        if opt["choices"] is not None:
            values = []
            for c in opt["choices"]:
                if c["node"] == "too_many":
                    self.error(LimitExceeded, f"an option of {c['count']:,} values: at most "
                               f"{MAX_LIST_ITEMS:,}", c["at"],
                               hint="a choice among that many is a number to check in the rules")
                    continue
                if c["node"] == "negate" and c["operand"]["node"] == "number":
                    c["node"], c["value"] = "number", -c.pop("operand")["value"]
                if c["node"] == "name":
                    c["node"] = "symbol"
                    c["value"] = c.pop("name")
                if c["node"] not in ("symbol", "number", "bool", "string", "none"):
                    self.error(WrongType, "option choices must be plain values", c["at"])
                    continue
                values.append(c.get("value"))
                if c["node"] == "symbol":
                    self.add_symbol(c["value"], c["at"])
            if default.get("value") not in values and \
                    not any(c["node"] == "too_many" for c in opt["choices"]):
                self.error(InvalidDeclaration,
                           f"default '{default.get('value')}' of option '{opt['name']}' is not one of its choices",
                           default["at"])

    def _check_pick(self, opt):
        """`option NAME: K of TYPE = [A, B, …]`: K distinct named pieces of TYPE."""
        pick, items = opt["pick"], opt["default"]["items"]
        of = pick["of"]
        if not self.attributes_known:   # a data file failed: its pieces are not known
            return
        if of not in self.components:
            self.error(UnknownName, f"unknown component type '{of}'", pick["at"],
                       hint=did_you_mean(of, self.components))
            return
        names = [inst for inst, t in self.instances.items() if t == of]
        seen = set()
        for item in items:
            value = item["value"]
            if self.instances.get(value) != of:
                self.error(UnknownName, f"'{value}' is not a {of}", item["at"],
                           hint=did_you_mean(value, names) or f"{of}s: {', '.join(names)}")
            elif value in seen:
                self.error(InvalidDeclaration, f"'{value}' is chosen twice", item["at"],
                           hint=f"option '{opt['name']}' chooses {pick['count']} different {of}s")
            seen.add(value)
        if len(items) != pick["count"]:
            self.error(InvalidDeclaration, f"option '{opt['name']}' chooses {pick['count']} "
                                           f"{of}s, not {len(items)}", opt["default"]["at"])

    def _declare_component(self, comp):
        name = comp["name"]
        of_each, of_each_at = comp.pop("of_each", None), comp.pop("of_each_at", None)
        if not self.declare(name, "component_type", comp["name_at"]):
            return
        if of_each is not None and of_each != "player":
            self.error(InvalidDeclaration, f"a component set is one per player, not per '{of_each}'",
                       of_each_at, hint=f"write 'component {name} of each player'")
        rows = comp.pop("rows")
        column_at = {}      # a table's column -> where its header cell is
        if comp["source"] is not None:
            src = comp["source"]
            if rows:
                self.error(InvalidDeclaration,
                           f"component '{name}' is read from '{src['file']}': a table here would be ignored",
                           rows[0]["at"], hint="keep every row in the data file")
            paths = [src.get("path")] + src.get("more_paths", [])
            spans = [src.get("path_at")] + src.get("more_paths_at", [])
            try:
                header, body = [], []
                found = files.locate(src["file"], self.base_dir, self.readable, MAX_DATA_BYTES,
                                     "data file")
                for path, path_at in zip(paths, spans):
                    if path_at is not None:
                        src["path_at"] = path_at   # where a missing key is reported
                    columns, records = datafiles.load_component_rows(
                        found, self.data_file(src["file"]), path, src.get("columns"))
                    header += [col for col in columns if col not in header]
                    body += records
                if spans[0] is not None:
                    src["path_at"] = spans[0]
                seen_names: dict = {}
                for col in src.get("columns") or ():
                    if col["name"] in seen_names:
                        self.error(DuplicateName, f"two keys are read as '{col['name']}'", col["at"],
                                   hint=f"'{seen_names[col['name']]}' is already read as "
                                        f"'{col['name']}'; rename one with 'as'")
                    seen_names.setdefault(col["name"], col["key"])
                    if col["name"] not in header:
                        self.error(UnknownName, f"no record of '{src['file']}' has the key "
                                                f"'{col['key']}'", col["at"],
                                   hint="'with' names keys of the records read")
                for row in body:        # the IR names it as written: where the rules lie is no rule
                    row["file"] = src["file"]
                    for col in header:  # records of several keys: a missing attribute is none
                        row["cells"].setdefault(col, {"node": "none", "at": row["at"]})
            except RulebookErrors as e:
                # two components read from one file: its problems are reported once
                # (looked up in a set: a broken file may have thousands)
                seen = {(old.code, old.span, old.message) for old in self.errors}
                for err in e.errors:
                    if (err.code, err.span, err.message) not in seen:
                        seen.add((err.code, err.span, err.message))
                        self.errors.append(err)
                header, body = [], []
                self.attributes_known = False
            except RulebookError as e:
                if e.span is None:      # a missing key is at 'at' or 'with', an unreadable file at 'from'
                    e.span = self.span(getattr(e, "at", None) or (
                        src["path_at"] if isinstance(e, UnknownName) else src["at"]))
                self.errors.append(e)
                header, body = [], []
                self.attributes_known = False
            comp["columns"], comp["rows"] = header, body
        else:
            if not rows:
                comp["columns"], comp["rows"] = [], []
            else:
                head = rows[0]
                columns = []
                for cell in head["cells"]:
                    if cell["node"] != "symbol":
                        self.error(InvalidDeclaration, "the first row of a component table names its columns",
                                   cell["at"], hint="for example: | name | value |")
                        columns.append("?")
                    else:
                        columns.append(cell["value"])
                        column_at.setdefault(cell["value"], cell["at"])
                comp["columns"] = columns
                comp["rows"] = []
                for row in rows[1:]:
                    if len(row["cells"]) != len(columns):
                        self.error(InvalidDeclaration,
                                   f"this row has {len(row['cells'])} cells, the header has {len(columns)}",
                                   row["at"])
                        continue
                    comp["rows"].append({"at": row["at"], "cells": dict(zip(columns, row["cells"]))})
                comp["rows"] = self._generated_rows(comp["rows"], columns)
        self._computed_columns(comp, column_at)
        for col in comp["columns"]:
            if col not in RESERVED_COLUMNS:
                self.attributes.add(col)
        for h in comp["has"]:
            self.attributes.add(h["name"])
            self.has_attributes.add(h["name"])
            self._check_type(h["type"], h["type_at"])
        if comp["per_player"]:
            self._check_per_player_set(comp, column_at)
        self.components[name] = comp
        if "name" in comp["columns"]:
            repeated = set()    # a name pattern that spells one name twice: said once
            for row in comp["rows"]:
                cell = row["cells"]["name"]
                inst = cell.get("value")
                if cell["node"] == "none":
                    continue        # a piece without a name of its own
                if cell["node"] != "symbol":
                    self.error(WrongType, "a component's name must be a plain name", cell["at"],
                               file=self.data_file(row.get("file")),
                               hint="or none (null, '-') for a piece without a name")
                elif inst in self.instances or inst in self.globals:
                    first = self.declared_at.get(inst)
                    if first == cell["at"]:         # the same name pattern, another row
                        if tuple(first) not in repeated:
                            repeated.add(tuple(first))
                            self.error(DuplicateName, f"the name pattern spells '{inst}' for "
                                                      f"more than one row", cell["at"],
                                       hint="name every column with 'each' in the pattern: "
                                            "\"{colour}{value}\"")
                        continue
                    self.error(DuplicateName, f"'{inst}' is already defined", cell["at"],
                               file=self.data_file(row.get("file")),
                               hint=f"it was first defined at line {first[0]}" if first else None)
                else:
                    self.instances[inst] = name
                    self.globals.setdefault(inst, "component")
                    if "file" not in row:
                        self.declared_at[inst] = cell["at"]

    def _check_per_player_set(self, comp, column_at):
        """`component T of each player`: every piece exists once per player
        and has the built-in attribute `owner`, so the set may declare no
        `owner` of its own, and no piece of it may have a name (a name is
        one piece, the set has one per player)."""
        name = comp["name"]
        self.attributes.add(OWNER)
        for col, what in ((OWNER, "has the attribute 'owner' already"),
                          ("name", "cannot have a 'name' column")):
            if col not in comp["columns"]:
                continue
            # a record without the key reads it as none (at the record): not there
            row = next((r for r in comp["rows"] if r["cells"].get(col, {}).get("node", "none")
                        != "none"), None)
            if col in column_at or row is None:
                at, file = column_at.get(col, comp["name_at"]), None
            else:
                at, file = row["cells"][col]["at"], self.data_file(row.get("file"))
            cls = DuplicateName if col == OWNER else InvalidDeclaration
            hint = ("every piece of a set 'of each player' has its player as 'owner'"
                    if col == OWNER else
                    "a name denotes one piece, and each player has one: drop the name "
                    "column, or declare the named pieces as a type of their own")
            self.error(cls, f"component '{name}' of each player {what}", at, hint=hint, file=file)
        for h in comp["has"]:
            if h["name"] == OWNER:
                self.error(DuplicateName, f"component '{name}' of each player has the attribute "
                           "'owner' already", h["at"],
                           hint="every piece of a set 'of each player' has its player as 'owner'")

    def _check_shapes(self, comp):
        """`shape ATTR`: each piece's ATTR is a polyomino, a list of distinct
        [x, y] pairs joined by shared edges; a piece whose shape is not is
        refused at its value (in the data file when it comes from one)."""
        for d in comp.pop("shapes", []):
            if d["attr"] not in comp.get("columns", []):
                if self.attributes_known:
                    self.error(UnknownName, f"component '{comp['name']}' has no column '{d['attr']}' "
                                            f"to read shapes from", d["attr_at"],
                               hint=did_you_mean(d["attr"], comp.get("columns", []))
                               or "name the column that lists each piece's [x, y] cells")
                continue
            for row in comp.get("rows", []):
                cell = row["cells"].get(d["attr"])
                if cell is None:
                    continue
                problem = _shape_problem(cell)
                if problem:
                    self.error(InvalidDeclaration if "file" not in row else DataFileError,
                               f"'{d['attr']}' {problem}", cell["at"], file=self.data_file(row.get("file")),
                               hint="a shape lists its cells as [x, y] pairs, each sharing an edge "
                                    "with another")

    def _resolve_links(self, comp):
        """`links ATTR by COLUMN[, both ways]`: each value in the list ATTR is
        the COLUMN of a piece of the same type, and becomes a reference to
        that piece (a ``link`` cell: the piece's position in its type)."""
        decls = comp.pop("links", [])
        if decls:
            comp["links"] = [{"node": "links", "at": d["at"], "attr": d["attr"], "by": d["by"],
                              "both_ways": d["both_ways"]} for d in decls]
        rows = comp.get("rows", [])
        columns = [c for c in comp.get("columns", []) if c not in RESERVED_COLUMNS]
        for d in decls:
            problem = False
            for key in ("attr", "by"):
                if d[key] not in columns and self.attributes_known:
                    what = "list of links" if key == "attr" else "column to link by"
                    has = any(h["name"] == d[key] for h in comp["has"])
                    self.error(UnknownName, f"a {comp['name']} has no table column '{d[key]}' "
                               f"for its {what}", d[key + "_at"],
                               hint=("a 'has' value changes during play and cannot hold links; "
                                     if has else "") + (did_you_mean(d[key], columns)
                                                         or f"columns: {', '.join(columns) or 'none'}"))
                    problem = True
            if problem or not self.attributes_known:
                continue
            bad = next((r for r in rows if r["cells"][d["attr"]]["node"] not in ("list", "none")), None)
            if bad is not None:
                cell = bad["cells"][d["attr"]]
                where = f"{self.data_file(bad['file'])}:{cell['at'][0]}" if "file" in bad \
                    else f"line {cell['at'][0]}"
                self.error(WrongType, f"'{d['attr']}' of a {comp['name']} is not a list ({where})",
                           d["attr_at"], hint=f"links are listed: {d['attr']}: [a, b, …]")
                continue
            self._link_rows(comp, rows, d)

    def _link_rows(self, comp, rows, d):
        """Replace the values of one link list by references, and with `both
        ways` check that every link is listed from both of its ends."""
        attr, by, name = d["attr"], d["by"], comp["name"]
        target, several, position = {}, {}, 0      # key -> (position, row); key -> copies
        for row in rows:
            key = _link_key(row["cells"][by])
            copies = row["cells"].get("copies", {}).get("value", 1)
            copies = copies if isinstance(copies, int) and copies >= 0 else 1
            if key in target:
                self._row_error(row, DuplicateName, DataFileError,
                                f"two {name}s have {by} '{_shown(row['cells'][by])}'",
                                row["cells"][by]["at"],
                                hint=f"'links {attr} by {by}' needs a different {by} for each {name}")
            elif key is not None and copies != 1:
                several[key] = copies
            elif key is not None:
                target[key] = (position, row)
            position += copies
        for row in rows:
            for item in row["cells"][attr].get("items", []):
                key = _link_key(item)
                if key in target:
                    item.update(node="link", type=name, index=target[key][0])
                    continue
                shown = _shown(item)
                words = [k[1] for k in target if k[0] == "word"]
                close = did_you_mean(shown, words) if key and key[0] == "word" else None
                self._row_error(row, UnknownName, DataFileError,
                                f"'{shown}' in '{attr}' names no {name}: no {name} has {by} {shown}"
                                if key not in several else
                                f"'{shown}' in '{attr}' names {several[key]} {name}s (copies)",
                                item["at"], hint=close or f"'links {attr} by {by}': each value is "
                                                          f"the {by} of exactly one {name}")
        if d["both_ways"]:
            self._check_both_ways(comp, rows, d, {p: r for p, r in target.values()})

    def _check_both_ways(self, comp, rows, d, at_position):
        attr, by, name = d["attr"], d["by"], comp["name"]
        listed = {p: {i["index"] for i in r["cells"][attr].get("items", []) if i["node"] == "link"}
                  for p, r in at_position.items()}
        targets = {id(r) for r in at_position.values()}
        for row in rows:        # a piece no link can name lists none back
            links = [i for i in row["cells"][attr].get("items", []) if i["node"] == "link"]
            if links and id(row) not in targets:
                self._row_error(row, InvalidDeclaration, DataFileError,
                                f"this {name} lists links in '{attr}' but has no {by} of its own "
                                f"to be listed back", row["cells"][by]["at"],
                                hint=f"'links {attr} by {by}, both ways': give it a {by} no other "
                                     f"{name} has, and copies 1")
        for position, row in sorted(at_position.items()):
            for item in row["cells"][attr].get("items", []):
                if item["node"] != "link" or position in listed[item["index"]]:
                    continue
                other = at_position[item["index"]]
                here, there = _shown(row["cells"][by]), _shown(other["cells"][by])
                self._row_error(other, InvalidDeclaration, DataFileError,
                                f"{name} {here} lists {there} in '{attr}', but {name} {there} "
                                f"does not list {here}", other["cells"][attr]["at"],
                                hint=f"'links {attr} by {by}, both ways': add {here} to the "
                                     f"'{attr}' of {name} {there}")

    def _row_error(self, row, in_table, in_file, message, at, hint=None):
        """An error about a component row: in the rulebook for a table row, in
        its data file (data/invalid) for a record."""
        if "file" in row:
            self.error(in_file, message, at, hint=hint, file=self.data_file(row["file"]))
        else:
            self.error(in_table, message, at, hint=hint)

    def _resolve_component_cells(self, comp):
        """Words in tables and data records (and in their lists) that name a
        component instance become references to it."""
        for row in comp.get("rows", []):
            for col, cell in row["cells"].items():
                if col == "copies":
                    if cell["node"] != "number" or cell["value"] < 0:
                        self.error(WrongType, "'copies' must be a whole number", cell["at"],
                                   file=self.data_file(row.get("file")))
                elif col != "name":
                    self._resolve_word(cell)

    def _resolve_word(self, cell):
        """A word that names a component instance refers to it (in lists too,
        nested ones included)."""
        if cell["node"] == "list":
            for item in cell["items"]:
                self._resolve_word(item)
        elif cell["node"] == "symbol" and cell["value"] in self.instances:
            cell["node"] = "component"
        elif cell["node"] == "symbol":
            self.symbols.add(cell["value"])

    def _count_pieces(self):
        """Every piece of every type, a set of each player once per player of
        the largest game: at most MAX_PIECES, refused at the `copies` that
        asks for too many or at the type that passes the limit, before
        anything is numbered (the layout makes a slot of every piece)."""
        seats = max(self.player_counts, default=1)
        total = 0
        for comp in self.components.values():
            each = seats if comp["per_player"] else 1
            for row in comp.get("rows", []):
                cell = row["cells"].get("copies")
                copies = cell["value"] if cell and cell["node"] == "number" else 1
                if copies > MAX_PIECES:
                    self.error(LimitExceeded, f"{copies:,} copies: at most {count(MAX_PIECES)} pieces "
                                              f"in all", cell["at"], file=self.data_file(row.get("file")),
                               hint=f"a rulebook has at most {count(MAX_PIECES)} pieces")
                    return
                total += max(copies, 0) * each
            if total > MAX_PIECES:
                sets = f", {seats} sets of each player" if comp["per_player"] else ""
                self.error(LimitExceeded, f"with component '{comp['name']}'{sets}, the rulebook has "
                                          f"{total:,} pieces: at most {count(MAX_PIECES)}",
                           comp["name_at"], hint=f"a rulebook has at most {count(MAX_PIECES)} pieces")
                return

    def _pieces_of(self, comp) -> int:
        """The pieces of one component type in the largest game."""
        each = max(self.player_counts, default=1) if comp["per_player"] else 1
        total = 0
        for row in comp.get("rows", []):
            cell = row["cells"].get("copies")
            total += max(cell["value"] if cell and cell["node"] == "number" else 1, 0)
        return total * each

    def _count_state(self):
        """The values a state keeps — a variable, zone or `has` value for
        each player, piece or cell it is declared of — in the largest game:
        at most MAX_STATE_VALUES, refused at the declaration that passes the
        limit, before the layout allocates them."""
        seats = max(self.player_counts, default=1)

        def times(index) -> int:
            if index is None:
                return 1
            if index == "player":
                return seats
            if index in self.grids:
                g = self.grids[index]
                return g["width"] * g["height"]
            comp = self.components.get(index)
            return self._pieces_of(comp) if comp is not None else 1
        total = 0
        declared = [(comp["name"], len(comp["has"]) * self._pieces_of(comp), comp["name_at"])
                    for comp in self.components.values() if comp.get("has")]
        declared += [(z["name"], times(z.get("index")) * times(z.get("index2")), z["name_at"])
                     for z in self.zones.values()]
        declared += [(v["name"], times(v.get("index")) * times(v.get("index2")), v["name_at"])
                     for v in self.variables.values()]
        for name, values, at in declared:
            total += values
            if total > MAX_STATE_VALUES:
                self.error(LimitExceeded, f"with '{name}' a game's state keeps {total:,} values: "
                                          f"at most {count(MAX_STATE_VALUES)}", at,
                           hint="a variable or zone 'of each' piece or cell keeps one value per "
                                "piece or cell: declare fewer, or of fewer things")
                return

    def _check_type(self, type_name, at):
        if type_name not in VALUE_TYPES and type_name not in self.components:
            self.error(UnknownName, f"unknown type '{type_name}'", at,
                       hint=did_you_mean(type_name, VALUE_TYPES | set(self.components))
                       or "types: number, bool, player, symbol, any, or a component type")

    def _declare_table(self, tbl):
        rows = tbl["rows"]
        head = rows[0]["cells"]
        if head[0].get("value") != "players":
            self.error(InvalidDeclaration, "a 'by players' table starts with a '| players | … |' row",
                       rows[0]["at"])
            return
        counts = []
        for cell in head[1:]:
            if cell["node"] != "number":
                self.error(WrongType, "player counts must be numbers", cell["at"])
            else:
                counts.append(cell["value"])
        missing = [n for n in self.player_counts if n not in counts]
        if missing:
            self.error(PlayerCountNotCovered,
                       f"this table has no column for {' or '.join(map(str, missing))} players",
                       rows[0]["at"], hint=f"the game is for {self.player_counts[0]} to {self.player_counts[-1]} players")
        for row in rows[1:]:
            cells = row["cells"]
            label = cells[0]
            if label["node"] != "symbol":
                self.error(InvalidDeclaration, "each table row starts with the name it defines", label["at"])
                continue
            if len(cells) != len(head):
                self.error(InvalidDeclaration,
                           f"row '{label['value']}' has {_values(len(cells) - 1)} for "
                           f"{len(head) - 1} player counts",
                           row["at"])
                continue
            each = next((c for c in cells if c["node"] == EACH), None)
            if each is not None:
                self.error(InvalidDeclaration, "'each' makes rows of a component table; a cell of "
                                               "a 'by players' table is one value", each["at"],
                           hint="write the value for this player count; a list is written [a, b]")
                continue
            if self.declare(label["value"], "table", label["at"]):
                values = {}
                for n, cell in zip(counts, cells[1:]):
                    if cell["node"] == "symbol":
                        self.add_symbol(cell["value"], cell["at"])
                    values[str(n)] = cell
                self.table[label["value"]] = {"at": label["at"], "values": values}

    def _computed_columns(self, comp, column_at: dict) -> None:
        """Each `NAME = FORMULA` under a component table: a column whose cell
        in each row is the formula worked out from that row (language/cells.py).
        A formula that fails is reported once, at its part, with the row."""
        for part in comp.pop("computed", ()):
            name = part["name"]
            if name in comp["columns"] or name in RESERVED_COLUMNS:
                self.error(DuplicateName, f"'{name}' is already a column of {comp['name']}",
                           part["name_at"], hint="a computed column has a name of its own")
                continue
            at = part["formula"]["at"]
            values = self._computed_cells(part, comp["rows"])
            for row, value in zip(comp["rows"], values or [None] * len(comp["rows"])):
                # (a formula reported: the column is there, without values)
                row["cells"][name] = datafiles.cell_of(value, at)
            comp["columns"].append(name)
            column_at.setdefault(name, part["name_at"])

    def _computed_cells(self, part, rows: list):
        """The value of a computed column's formula in each row, or None
        after reporting the first row it cannot be worked out for."""
        values = []
        for row in rows:
            try:
                value = computed(part["formula"], row["cells"])
            except CellError as err:
                self.error(err.cls, f"{err.message} (computing '{part['name']}' of "
                                    f"{_row_label(row)})", err.at, hint=err.hint)
                return None
            if isinstance(value, list):
                self.error(WrongType, f"'{part['name']}' of {_row_label(row)} is a list: a "
                                      f"computed cell is a number, a word, yes/no or none",
                           part["formula"]["at"])
                return None
            values.append(value)
        return values

    def _declare_zone(self, zone):
        if not self.declare(zone["name"], "zone", zone["name_at"]):
            return
        if zone["of"] not in self.components:
            self.error(UnknownName, f"unknown component type '{zone['of']}'", zone["of_at"],
                       hint=did_you_mean(zone["of"], self.components))
        self._check_index(zone)
        if zone.get("index2") is not None:
            self._check_index(zone, "index2")
        for flag, at in zip(zone["flags"], zone["flags_at"]):
            if flag not in ZONE_FLAGS:
                self.error(UnknownName, f"unknown zone property '{flag}'", at,
                           hint=did_you_mean(flag, ZONE_FLAGS) or "use public, owner, hidden, ordered")
        vis = [(f, at) for f, at in zip(zone["flags"], zone["flags_at"])
               if f in ("public", "owner", "hidden")]
        if len(vis) > 1:
            self.error(InvalidDeclaration,
                       f"zone '{zone['name']}' has more than one visibility: "
                       + ", ".join(f"'{f}'" for f, _ in vis), vis[1][1],
                       hint="a zone is public, owner or hidden")
        owner_at = next((at for f, at in vis if f == "owner"), None)
        index_known = zone["index"] in (None, "player") or zone["index"] in self.components
        if owner_at and zone["index"] != "player" and index_known:
            # the owner of a zone of two indices is its first, as it is read: z(p, …)
            second = zone.get("index2")
            each = f"player and {zone['index'] if second == 'player' else second}" if second \
                else "player"
            self.error(InvalidDeclaration, f"zone '{zone['name']}' has no owner to see it", owner_at,
                       hint=f"the owner is the first index: write 'zone {zone['name']} of each "
                            f"{each}: …'" if second == "player" else
                       f"write 'zone {zone['name']} of each {each}: …' or make it public or hidden")
        if zone["by"] is not None and zone["of"] in self.components:
            comp = self.components[zone["of"]]
            known = {c for c in comp.get("columns", []) if c != "copies"} | \
                {h["name"] for h in comp["has"]} | ({OWNER} if comp["per_player"] else set())
            if zone["by"] not in known and zone["by"] not in self._one_card_defines:
                self.error(UnknownName, f"a {zone['of']} has no attribute '{zone['by']}' to group by",
                           zone["by_at"], hint=did_you_mean(zone["by"], known) or
                           "name an attribute, or a define of one card")
        if zone.get("grid") is not None and zone["of"] in self.components:
            self._check_zone_grid(zone, self.components[zone["of"]])
        if zone.get("hex_x") is not None and zone["of"] in self.components:
            self._check_zone_hexes(zone, self.components[zone["of"]])
        if zone.get("label") is not None and zone["of"] in self.components:
            self._check_piece_value(zone, self.components[zone["of"]], "label", "'label by'",
                                    "label")
        vis = [f for f, _ in vis]
        zone["visibility"] = vis[0] if vis else "public"
        zone["ordered"] = "ordered" in zone["flags"]
        self.zones[zone["name"]] = zone

    def _check_zone_grid(self, zone, comp):
        """`grid by NAME, sides by NAME`: only how the zone is drawn. The cell
        is a `has` attribute of type cell or a define of one piece; the sides
        a define of a piece and a direction."""
        name, at, of = zone["grid"], zone["grid_at"], zone["of"]
        has = {h["name"]: h["type"] for h in comp["has"]}
        columns = {c for c in comp.get("columns", []) if c not in RESERVED_COLUMNS}
        if name in has:
            if has[name] not in ("cell", "any"):
                self.error(WrongType, f"'{name}' of a {of} is a {has[name]}, not a cell", at,
                           hint=f"declare it 'has {name}: cell', or name a define that gives a cell")
        elif name in columns:
            self.error(WrongType, f"'{name}' is a table column of {of}; a table holds no cells", at,
                       hint="a piece's cell is a 'has NAME: cell' attribute or a define")
        elif name in self._define_params:
            if self._define_params[name] != 1:
                self.error(WrongArity, f"define '{name}' takes {_parameters(self._define_params[name])}; "
                           f"'grid by' needs one (the piece)", at,
                           hint=f"write 'define {name}(t) = …', the cell where t lies")
        elif self.attributes_known:
            known = columns | set(has) | self._one_card_defines
            self.error(UnknownName, f"a {of} has no attribute '{name}' to lie on a grid by", at,
                       hint=did_you_mean(name, known) or
                       "name a 'has NAME: cell' attribute, or a define of one piece")
        sides, at = zone["sides"], zone["sides_at"]
        if sides is None:
            return
        if sides not in self._define_params:
            self.error(UnknownName, f"unknown define '{sides}' for the sides of a {of}", at,
                       hint=did_you_mean(sides, self._define_params) or
                       "name a define of a piece and a direction, 'define side(t, d) = …'")
        elif self._define_params[sides] != 2:
            self.error(WrongArity, f"define '{sides}' takes {_parameters(self._define_params[sides])}; "
                       f"'sides by' needs two (the piece, a direction 0-3)", at,
                       hint=f"write 'define {sides}(t, d) = …', what t shows towards direction d")

    def _check_zone_hexes(self, zone, comp):
        """`hexes at X, Y[, shade by NAME]`: only how the zone is drawn. Each
        name is an attribute of the zone's pieces or a define of one piece;
        the column and row are whole numbers."""
        for key, role in (("hex_x", "column"), ("hex_y", "row"), ("shade", "shade")):
            if zone[key] is not None:
                self._check_piece_value(zone, comp, key, "'shade by'" if key == "shade"
                                        else "'hexes at'", role, number=key != "shade")

    def _check_piece_value(self, zone, comp, key, what, role, number=False):
        """zone[key] names what a drawing reads of each piece: an attribute of
        the zone's pieces (a `has` number where `number`) or a define of one
        piece."""
        of = zone["of"]
        has = {h["name"]: h["type"] for h in comp["has"]}
        columns = {c for c in comp.get("columns", []) if c not in RESERVED_COLUMNS}
        name, at = zone[key], zone[key + "_at"]
        if name in has:
            if number and has[name] not in ("number", "any"):
                self.error(WrongType, f"'{name}' of a {of} is a {has[name]}, not a number", at,
                           hint=f"a hex's {role} is a whole number")
        elif name in columns:
            return
        elif name in self._define_params:
            if self._define_params[name] != 1:
                self.error(WrongArity, f"define '{name}' takes {_parameters(self._define_params[name])}; "
                           f"{what} needs one (the piece)", at,
                           hint=f"write 'define {name}(h) = …', the {role} of h")
        elif self.attributes_known:
            known = columns | set(has) | self._one_card_defines
            purpose = "to label it by" if key == "label" else f"for its {role} on a hex map"
            self.error(UnknownName, f"a {of} has no attribute '{name}' {purpose}", at,
                       hint=did_you_mean(name, known) or "name an attribute, or a define of one piece")

    def _declare_grid(self, g):
        """`grid NAME [of each player]: W by H`: a bounded square grid, its
        cells a list; of each player, one such grid per player."""
        if not self.declare(g["name"], "grid", g["name_at"]):
            return
        if g.get("index") not in (None, "player"):
            self.error(InvalidDeclaration, f"a grid is one for the game or one per player, "
                                           f"not one per {g['index']}", g["index_at"],
                       hint=f"write 'grid {g['name']} of each player: {g['width']} by {g['height']}'")
            g["index"] = "player"       # (checked on as one per player)
        fits = True
        for side, at in ((g["width"], g["size_at"]), (g["height"], g["height_at"])):
            if not 1 <= side <= GRID_LIMIT:
                self.error(InvalidDeclaration, f"a grid is 1 to {GRID_LIMIT} cells each way, not {side}",
                           at, hint="write 'grid NAME: WIDTH by HEIGHT', e.g. 8 by 8")
                fits = False
        if fits:
            cells = self._grid_cells(g) + sum(
                self._grid_cells(d) for d in self.grids.values()
                if 1 <= d["width"] <= GRID_LIMIT and 1 <= d["height"] <= GRID_LIMIT)
            if cells > MAX_GRID_CELLS:
                self.error(LimitExceeded, f"with grid '{g['name']}' the rulebook's grids have {cells:,} "
                                          f"cells: at most {count(MAX_GRID_CELLS)}",
                           g["size_at"][:2] + g["height_at"][2:],
                           hint=f"the grids of a rulebook have at most {count(MAX_GRID_CELLS)} cells "
                                f"together")
        self.grids[g["name"]] = g

    def _grid_cells(self, g) -> int:
        """The cells of a declared grid in the largest game: W × H, once per
        player for a grid of each player."""
        each = max(self.player_counts, default=1) if g.get("index") == "player" else 1
        return g["width"] * g["height"] * each

    def per_player_grid(self, name) -> bool:
        """Whether `name` is a grid of each player (`grid NAME of each player: …`)."""
        return self.grids.get(name, {}).get("index") == "player"

    def _check_grid_display(self, g):
        """`shade by` / `mark by` name a variable of each cell or a define of
        one cell (of a player and a cell, for a grid of each player)."""
        per_player = g.get("index") == "player"
        for key in ("shade", "mark"):
            name = g[key]
            if name is None:
                continue
            var = self.variables.get(name)
            if var is not None and indices_of(var) == (["player", g["name"]] if per_player
                                                        else [g["name"]]):
                continue
            if self._define_params.get(name) == (2 if per_player else 1):
                continue
            define = "define of a player and a cell" if per_player else "define of one cell"
            self.error(UnknownName, f"'{key} by {name}': no variable of each {g['name']} "
                                    f"and no {define} is called '{name}'", g[f"{key}_at"],
                       hint=f"write 'variable {name} of each {g['name']}: …' or "
                            f"'define {name}({'p, c' if per_player else 'c'}) = …'")

    def _check_index(self, decl, key="index"):
        idx = decl[key]
        if idx is not None and idx in self.grids:
            if decl["node"] == "zone":
                self.error(InvalidDeclaration, f"a zone is not one per cell of grid '{idx}'",
                           decl.get(key + "_at") or decl["at"],
                           hint=f"keep what lies on a cell in a variable: "
                                f"'variable … of each {idx}: any = none'")
            return
        if idx is not None and idx != "player" and idx not in self.components:
            each = idx if key == "index" else f"{decl['index']} and {idx}"
            self.error(UnknownName, f"unknown index '{idx}' in 'of each {each}'",
                       decl.get(key + "_at") or decl["at"],
                       hint=did_you_mean(idx, {"player"} | set(self.components))
                       or "write 'of each player', 'of each' a component type or a grid")

    def _declare_variable(self, var):
        if not self.declare(var["name"], "variable", var["name_at"]):
            return
        self._check_type(var["type"], var["type_at"])
        self._check_index(var)
        if var.get("index2") is None and self.per_player_grid(var["index"]) \
                and not var.get("permission"):
            # 'of each kingdom', a grid of each player: one per player and
            # cell, as 'of each player and kingdom' (read v(p, c))
            var.update(index="player", index2=var["index"], index2_at=var["index_at"])
        elif var.get("index2") is not None:
            self._check_index(var, "index2")
            for key in ("index", "index2"):
                if var[key] in self.grids and not (key == "index2" and var["index"] == "player"
                                                   and self.per_player_grid(var[key])):
                    per = self.per_player_grid(var[key])
                    self.error(InvalidDeclaration, f"a variable of two indices is not one per cell "
                                                   f"of grid '{var[key]}'", var[key + "_at"],
                               hint=f"write 'of each {var[key]}': one per player and cell" if per
                               else "index it by players and component types, or keep one "
                                    f"variable 'of each {var[key]}' of a list, or declare "
                                    f"'grid {var[key]} of each player'")
        if var.get("permission") and var["index"] not in (None, "player"):
            self.error(InvalidDeclaration, f"a permission is one per player or one for the game, "
                                           f"not one per {var['index']}", var["index_at"],
                       hint=f"write 'permission {var['name']} of each player'")
        self.variables[var["name"]] = var


def indices_of(decl: dict) -> list:
    """What a zone or variable is one per, in the order its calls name them."""
    return [i for i in (decl.get("index"), decl.get("index2")) if i is not None]


def _row_label(row: dict) -> str:
    """A row as an error names it: its piece's name, else the line it is on."""
    cell = row["cells"].get("name")
    if cell is not None and cell["node"] == "symbol":
        return f"'{cell['value']}'"
    return f"the row at line {row['at'][0]}"


def _link_key(cell):
    """What a link value is matched by: a number, or a word however written."""
    if cell.get("node") == "number":
        return ("number", cell["value"])
    if cell.get("node") in ("symbol", "string", "component"):
        return ("word", cell["value"])
    return None


def _shown(cell) -> str:
    return str(cell.get("value")) if cell.get("node") != "none" else "none"


def _values(k: int) -> str:
    return "1 value" if k == 1 else f"{k} values"

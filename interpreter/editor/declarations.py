"""The declarations of a rulebook, for the index: options, components (their
tables or data files, attributes and pieces), zones, grids, variables,
defines, `by players` rows, phases and actions.

`Declarations` is the base of `index`'s builder, as the checks'
declaration part is the base of the checker: it records each declaration
with its place and the line that declares it (`Decl`), and the places and
bindings every part of the builder records through (`use`, `declare`,
`bind`). A variant is merged with its base first, as the checks merge it,
and when the merge fails the base's declarations are read all the same; a
data file is read as the checks read it, once while it is unchanged.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Optional

from ..errors import RulebookError
from ..language import data as datafiles, files, variants
from ..language.checks_declarations import VALUE_TYPES
from ..language.limits import MAX_DATA_BYTES, MAX_RULEBOOK_BYTES
from ..language.syntax import parse
from .model import END, MANY, ONE, Binding, Component, Decl, Index, Place, Source, Use

_DATA_ROWS: dict = {}     # (file, mtime, size, key path, columns) -> (columns, rows)


def _data_rows(found: Path, key_path, columns) -> tuple:
    """A data file's (columns, rows) as the checks read them, once while it is unchanged."""
    st = found.stat()
    key = (str(found), st.st_mtime_ns, st.st_size, json.dumps(key_path), json.dumps(columns))
    if key not in _DATA_ROWS:
        if len(_DATA_ROWS) > 32:
            _DATA_ROWS.clear()
        _DATA_ROWS[key] = datafiles.load_component_rows(found, str(found), key_path, columns)
    return _DATA_ROWS[key]


def _code(line: str) -> str:
    """A line without its comment and the spaces around it."""
    quoted = False
    for i, ch in enumerate(line):
        if ch == '"':
            quoted = not quoted
        elif ch == "#" and not quoted:
            return line[:i].strip()
    return line.strip()


def cell_text(cell: dict) -> str:
    """A table or data cell as a rulebook writes it."""
    kind = cell.get("node")
    if kind == "number":
        return str(cell["value"])
    if kind == "bool":
        return "yes" if cell["value"] else "no"
    if kind == "string":
        return f'"{cell["value"]}"'
    if kind == "none":
        return "-"
    if kind == "list":
        return "[" + ", ".join(cell_text(c) for c in cell["items"]) + "]"
    if kind == "each":
        if "items" in cell:
            return "each [" + ", ".join(cell_text(c) for c in cell["items"]) + "]"
        return f"each {cell['low']} to {cell['high']}"
    return str(cell.get("value", cell.get("name", "?")))


class Declarations:
    """The declarations' part of the builder of an Index, and the recording
    every part shares."""

    def __init__(self, index: Index, parsed: Source):
        self.ix = index
        self.path = index.path
        self.texts = {index.path: parsed}     # file -> Source, for the declaring lines
        self.folder = Path(index.path).parent
        self.rows: dict = {}            # component type -> its rows' cells
        self.define_bodies: dict = {}
        self.define_types: dict = {}

    # -- places and lines ------------------------------------------------------
    def place(self, at, length: Optional[int] = None) -> Place:
        file = at[4] if len(at) > 4 else self.path
        if length is not None:
            return Place(file, at[0], at[1], at[0], at[1] + length)
        return Place(file, at[0], at[1], at[2] or at[0], at[3] or at[1] + 1)

    def mine(self, at) -> bool:
        return bool(at) and len(at) == 4 and at[0] > 0

    def lines(self, place: Place, last: Optional[int] = None, most: int = 6) -> str:
        source = self.texts.get(place.file)
        if source is None:
            return ""
        end = min(last or place.end_line, place.line + most - 1)
        return "\n".join(filter(None, (_code(source.line(n)) for n in range(place.line, end + 1))))

    def find(self, name: str, line: int, column: int, file: Optional[str] = None) -> Place:
        """The place of `name` written first at or after (line, column)."""
        source = self.texts.get(file or self.path)
        pattern = re.compile(r"(?<![A-Za-z0-9_])" + re.escape(name) + r"(?![A-Za-z0-9_])")
        for n in range(line, min(line + 20, len(source.lines) + 1) if source else line):
            start = column - 1 if n == line else 0
            m = pattern.search(source.line(n), start)
            if m:
                return Place(file or self.path, n, m.start() + 1, n, m.end() + 1)
        return Place(file or self.path, line, column, line, column + len(name))

    def extent(self, block) -> tuple:
        """(last line, indentation, last line of its own) of a block: its
        lines, then the blank and comment lines after it and any line
        indented at least as deep (a line the parser was spared)."""
        source = self.texts[self.path]
        indent = block["stmts"][0]["at"][1] if block.get("stmts") else 1
        last = block["at"][2] or block["at"][0]
        n = last
        while n < len(source.lines):
            text = source.line(n + 1)
            code = text.strip()
            if code and not code.startswith("#") and len(text) - len(text.lstrip()) + 1 < indent:
                break
            n += 1
        return n, indent, last

    # -- recording ---------------------------------------------------------------
    def use(self, at, name: str, target=None, builtin=None) -> None:
        """A name written at `at` (in the document), meaning `target` or a builtin."""
        place = self.place(at, len(name))
        if place.file == self.path and (target is not None or builtin is not None):
            self.ix.uses.append(Use(place, name, target, builtin))

    def record(self, decl: Decl, target: Optional[Decl] = None) -> Decl:
        """The declaring name itself, as a name written (in the document)."""
        if decl.place.file == self.path:
            self.ix.uses.append(Use(decl.place, decl.name, target or decl))
        return target or decl

    def declare(self, table: dict, decl: Decl) -> Decl:
        """Record a declaration (the first of a name wins, as in the checks)."""
        return self.record(decl, table.setdefault(decl.name, decl))

    def bind(self, decl: Decl, start, end=None, block=None) -> Decl:
        """Record a local name, written from `start` to `end`, or to the end
        of `block` (with the lines below it as deep)."""
        if block is not None:
            last, indent, stated = self.extent(block)
            self.ix.bindings.append(Binding(decl, start, (last, END), indent, stated))
        else:
            self.ix.bindings.append(Binding(decl, start, end))
        return self.record(decl)

    def with_base(self, ast: dict) -> dict:
        """A variant merged with its base as the checks merge it; when the
        merge fails, the base's declarations and then the variant's."""
        header = variants.variant_header(ast)
        if header is None:
            return ast
        try:
            return variants.resolve(ast, Path(self.path), self.path, self.parse_base)
        except RulebookError:
            pass
        try:
            base_path = files.locate(header["base"], self.folder, files.roots(self.folder),
                                     MAX_RULEBOOK_BYTES, "base rulebook")
            base, shown = self.parse_base(base_path)
        except RulebookError:
            return ast
        for item in base["items"]:
            if item["node"] == "component" and item.get("source"):
                full = (base_path.parent / item["source"]["file"]).resolve()
                item["source"] = dict(item["source"],
                                      file=os.path.relpath(full, self.folder.resolve()))
        variants.tag_file(base, shown)
        own = [i for i in ast["items"] if i["node"] != "variant"]
        return dict(ast, items=[i for i in base["items"] if i["node"] != "variant"] + own)

    def parse_base(self, path: Path):
        text = files.read_text(path, str(path), MAX_RULEBOOK_BYTES, "base rulebook")
        self.texts[str(path)] = Source(text)
        return parse(text, str(path)), str(path)

    # -- declarations ------------------------------------------------------------
    def declare_option(self, o) -> None:
        place = self.place(o["name_at"])
        default = o["default"]
        if o.get("pick"):
            detail = f"{o['pick']['count']} of {o['pick']['of']}: " + ", ".join(
                i["value"] for i in default["items"])
        else:
            detail = f"default: {cell_text(default)}"
            if o["choices"] is not None:
                detail += "; one of: " + ", ".join(cell_text(c) for c in o["choices"])
        decl = self.declare(self.ix.names, Decl(o["name"], "option", place, self.lines(place),
                                                detail))
        if not o.get("pick"):
            for value in [default] + list(o["choices"] or []):
                if value["node"] in ("symbol", "name"):
                    word = value.get("value") or value.get("name")
                    self.declare(self.ix.values, Decl(
                        word, "value", self.place(value["at"]), decl.summary,
                        f"a value of option {o['name']}"))

    def declare_component(self, c) -> None:
        place = self.place(c["name_at"])
        name = c["name"]
        decl = Decl(name, "component", place, self.lines(place, place.line), "",
                    (MANY, name))
        comp = Component(decl, {})
        self.ix.components.setdefault(name, comp)
        self.declare(self.ix.names, decl)
        if c.get("source"):
            columns, rows = self.data(c["source"])
        else:
            columns, rows = self.table(c, decl)
        for col, col_place in columns:
            if col != "copies" and col not in comp.columns:
                header = self.lines(col_place, col_place.line) if col_place.file in self.texts \
                    else ""
                comp.columns[col] = Decl(col, "column", col_place, header or f"{name}.{col}",
                                         f"a column of {name}", of=name)
                self.record(comp.columns[col])
        for h in c["has"]:
            at = self.find(h["name"], h["at"][0], h["at"][1] + 3, self.place(h["at"]).file)
            kind = (ONE, h["type"]) if h["type"] not in VALUE_TYPES else None
            comp.columns[h["name"]] = self.record(Decl(
                h["name"], "column", at, self.lines(at, at.line),
                f"a value of each {name}, set by the rules", kind, name))
        if c.get("per_player"):
            comp.columns.setdefault("owner", Decl("owner", "column", place, decl.summary,
                                                  f"the player whose {name} it is", of=name))
        self.rows.setdefault(name, [(row.get("file", place.file), row["cells"]) for row in rows])
        pieces = 0
        for row in rows:
            copies = row["cells"].get("copies", {})
            pieces += copies.get("value", 1) if copies.get("node") == "number" else 1
            cell = row["cells"].get("name")
            if cell and cell["node"] == "symbol":
                where = Place(row.get("file", place.file), *cell["at"][:2], cell["at"][2] or
                              cell["at"][0], cell["at"][3] or cell["at"][1] + len(cell["value"]))
                facts = ", ".join(f"{k} {cell_text(v)}" for k, v in row["cells"].items()
                                  if k != "name")
                summary = self.lines(where, where.line) if where.file == place.file else ""
                self.declare(self.ix.names, Decl(cell["value"], "piece", where,
                                                 summary or f"{name} {cell['value']}",
                                                 f"a {name}" + (f": {facts}" if facts else ""),
                                                 (ONE, name), name))
        comp.pieces = pieces
        source = c.get("source")
        decl.detail = "\n".join(filter(None, [
            f"read from \"{source['file']}\"" if source else "",
            "attributes: " + ", ".join(comp.columns) if comp.columns else "",
            f"{pieces} piece{'s' if pieces != 1 else ''}" + (" of each player"
                                                            if c.get("per_player") else "")]))

    def table(self, c, decl) -> tuple:
        """A component table's (columns with their places, rows as the checks hold them)."""
        rows = c["rows"]
        if not rows:
            return [], []
        head = rows[0]["cells"]
        columns = [(cell.get("value", "?"), self.place(cell["at"])) for cell in head]
        names = [n for n, _ in columns]
        body = [{"at": r["at"], "cells": dict(zip(names, r["cells"]))}
                for r in rows[1:] if len(r["cells"]) == len(names)]
        return columns, body

    def data(self, src) -> tuple:
        """A data file's columns (each at its first value) and rows, as the checks read them."""
        try:
            found = files.locate(src["file"], self.folder, files.roots(self.folder),
                                 MAX_DATA_BYTES, "data file")
        except RulebookError:
            return [], []
        columns: list = []
        rows: list = []
        for key_path in [src.get("path")] + list(src.get("more_paths", [])):
            try:
                header, records = _data_rows(found, key_path, src.get("columns"))
            except (RulebookError, OSError):
                continue
            for record in records:
                record = dict(record, file=str(found))
                rows.append(record)
                for col in header:
                    if col not in [n for n, _ in columns] and col in record["cells"]:
                        at = record["cells"][col]["at"]
                        columns.append((col, Place(str(found), at[0], at[1], at[2] or at[0],
                                                   at[3] or at[1] + 1)))
        return columns, rows

    def type_columns(self) -> None:
        """A column whose words all name pieces of one type holds those
        pieces (a list of them: several); a `has` of a type that is not
        a component holds none."""
        pieces = {n: d.of for n, d in self.ix.names.items() if d.kind == "piece"}
        for comp in self.ix.components.values():
            for file, cells in self.rows.get(comp.decl.name, []):
                self.words(comp.decl.name, file, cells, pieces)
            for name, decl in comp.columns.items():
                if decl.type is not None:
                    if decl.type[1] not in self.ix.components:
                        decl.type = None
                    continue
                kinds = _column_kinds([c for _, c in self.rows.get(comp.decl.name, [])], name,
                                      pieces)
                if len(kinds) == 1:
                    decl.type = kinds.pop()

    def words(self, comp: str, file: str, cells: dict, pieces: dict) -> None:
        """The words of a component's cells that name no piece: values."""
        for col, cell in cells.items():
            if col == "name":
                continue
            for word in cell["items"] if cell["node"] == "list" else [cell]:
                if word["node"] == "symbol" and word["value"] not in pieces:
                    at = word["at"]
                    place = Place(file, at[0], at[1], at[2] or at[0], at[3] or at[1] + 1)
                    self.declare(self.ix.values, Decl(word["value"], "value", place,
                                                      f"{comp}.{col} = {word['value']}",
                                                      f"a word in column {col} of {comp}"))

    def declare_zone(self, z) -> None:
        place = self.place(z["name_at"])
        index = [i for i in (z.get("index"), z.get("index2")) if i]
        self.declare(self.ix.names, Decl(
            z["name"], "zone", place, self.lines(place, place.line),
            f"a zone of {z['of']}" + (f", one of each {' and '.join(index)}" if index else ""),
            (MANY, z["of"])))

    def declare_grid(self, g) -> None:
        place = self.place(g["name_at"])
        self.declare(self.ix.names, Decl(g["name"], "grid", place, self.lines(place, place.line),
                                         f"a grid of {g['width']} × {g['height']} cells"
                                         + (", one of each player" if g.get("index") else "")))

    def declare_variable(self, v) -> None:
        place = self.place(v["name_at"])
        kind = "permission" if v.get("permission") else "variable"
        typed = (ONE, v["type"]) if v["type"] not in VALUE_TYPES else None
        detail = (f"a permission, one of each {v['index']}" if v.get("permission") and v["index"]
                  else "a permission" if v.get("permission")
                  else f"a {v['type']}" + (f", one of each {v['index']}" if v["index"] else "")
                  + (f" and {v['index2']}" if v.get("index2") else ""))
        self.declare(self.ix.names, Decl(v["name"], kind, place, self.lines(place, place.line),
                                         detail, typed))

    def declare_define(self, d) -> None:
        place = self.place(d["name_at"])
        summary = self.lines(Place(place.file, d["at"][0], 1, d["at"][2], 1))
        params = d["params"]
        self.define_bodies.setdefault(d["name"], d["body"])
        self.declare(self.ix.names, Decl(
            d["name"], "define", place, summary,
            f"parameters: {', '.join(params)}" if params else "no parameters"))

    def declare_table(self, t) -> None:
        rows = t["rows"]
        head = rows[0]["cells"] if rows else []
        counts = [cell_text(c) for c in head[1:]]
        for row in rows[1:]:
            label = row["cells"][0]
            if label["node"] != "symbol":
                continue
            place = self.place(label["at"])
            values = ", ".join(f"{n} players: {cell_text(c)}"
                               for n, c in zip(counts, row["cells"][1:]))
            self.declare(self.ix.names, Decl(label["value"], "table", place,
                                             self.lines(place, place.line),
                                             f"by players: {values}"))

    def declare_phase(self, ph) -> None:
        place = self.place(ph["name_at"])
        self.declare(self.ix.phases, Decl(ph["name"], "phase", place, self.lines(place, place.line),
                                          "a phase"))

    def declare_action(self, a) -> None:
        place = self.place(a["name_at"])
        body = a.get("body")
        summary = self.lines(place, body["at"][0] - 1 if body else a["at"][2])
        detail = ("parameters: " + ", ".join(p["name"] for p in a["params"])
                  if a["params"] else "no parameters")
        self.declare(self.ix.actions, Decl(a["name"], "action", place, summary, detail))


def _column_kinds(rows: list, column: str, pieces: dict) -> set:
    """The kinds of value a column's cells hold: pieces of which types."""
    kinds = set()
    for cells in rows:
        cell = cells.get(column)
        if cell is None:
            continue
        many = cell["node"] == "list"
        for word in cell["items"] if many else [cell]:
            if word["node"] == "symbol" and word["value"] in pieces:
                kinds.add((MANY if many else ONE, pieces[word["value"]]))
            elif word["node"] != "none":
                return set()
    return kinds

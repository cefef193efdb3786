"""Static checks: walk the AST, collect every problem, and build the IR.

The checker resolves every name (annotating the node with what it refers to:
``"ref": "zone"``, ``"local"``, …), checks arities, attributes, player-count
tables, option values, action limits and phase reachability, and collects
*all* problems before reporting. When there are none, the annotated tree is
the IR: plain JSON-compatible data with spans, validated next against
``schemas/rulebook.schema.json`` and then compiled.
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path
from typing import Iterable

from . import data as datafiles
from . import flow, grid, shapes
from .builtins import AGGREGATES, CONSTANTS, FUNCTIONS
from .errors import (span_at, DataFileError, DuplicateName, InvalidDeclaration,
                     PlayerCountNotCovered, RecursiveDefinition, RulebookError, RulebookErrors, Span,
                     UnknownName, UnreachablePhase, WrongArity, WrongType,
                     did_you_mean)

IR_FORMAT = "rulebook-ir/1"
PASS = "pass"          # the action 'may take an action' adds (decisions.PASS)
ZONE_FLAGS = {"public", "owner", "hidden", "ordered"}
GRID_LIMIT = 256        # cells each way of a declared grid
VALUE_TYPES = {"number", "bool", "player", "symbol", "cell", "any"}   # 'any' is not checked
LIMIT_SCOPES = {"turn", "round", "game"}
RESERVED_COLUMNS = {"copies"}
OWNER = "owner"        # the built-in attribute of a component set 'of each player'


def _parameters(k: int) -> str:
    return "1 parameter" if k == 1 else f"{k} parameters"


def _shape_problem(cell) -> str | None:
    """Why a table or data cell is not a polyomino's list of [x, y] pairs, or None."""
    if cell["node"] != "list" or not cell["items"]:
        return "is not a list of cells"
    pairs = []
    for item in cell["items"]:
        parts = item.get("items") if item["node"] == "list" else None
        if not parts or len(parts) != 2 or any(p["node"] != "number" for p in parts):
            return "has a cell that is not an [x, y] pair of whole numbers"
        pairs.append((parts[0]["value"], parts[1]["value"]))
    if len(set(pairs)) != len(pairs):
        return "lists a cell twice"
    cells = {grid.cell(x, y) for x, y in pairs}
    if len(shapes.connected(cells)) != 1:
        return f"is not one connected shape: {len(shapes.connected(cells))} parts"
    return None


class Checker:
    def __init__(self, filename: str, base_dir: Path):
        self.file = filename
        self.base_dir = base_dir
        self.errors: list[RulebookError] = []
        self.globals: dict[str, str] = {}      # name -> kind
        self.declared_at: dict[str, list] = {}  # name -> where it was declared
        self.zones: dict[str, dict] = {}
        self.grids: dict[str, dict] = {}
        self.granted: set = set()      # permissions some step grants, and spends
        self.spent: set = set()
        self.variables: dict[str, dict] = {}
        self.defines: dict[str, dict] = {}
        self.components: dict[str, dict] = {}   # type -> component decl (IR)
        self.instances: dict[str, str] = {}     # instance name -> type
        self.attributes: set[str] = set()
        self.has_attributes: set[str] = set()
        self.attributes_known = True   # false when a data file could not be read
        # Where formulas are read without changing the state (a define, the
        # scoring, a 'requires', a choice): no drawing from the generator there.
        self.pure: str | None = None
        self.actions: dict[str, dict] = {}
        self.phases: dict[str, dict] = {}
        self.symbols: set[str] = set()
        self.symbol_at: dict[str, list] = {}   # option and table values: where first written
        self.table: dict[str, dict] = {}

    # -- reporting -----------------------------------------------------------
    def span(self, at, file=None) -> Span:
        file = file or self.file
        return span_at(file, at) if at and at[0] else Span(file, 1, 1)

    def data_file(self, written: str | None) -> str | None:
        """A data file named as the rulebook is named (both relative to the
        same folder), so that file:line:column leads to it."""
        return os.path.join(os.path.dirname(self.file), written) if written else None

    def error(self, cls, message, at, hint=None, file=None):
        """Record a problem; ``file`` names a data file when it is not the rulebook."""
        self.errors.append(cls(message, self.span(at, file), hint))

    def declare(self, name, kind, at):
        if name in CONSTANTS or name in FUNCTIONS or name in AGGREGATES:
            what = "a built-in name" if name in CONSTANTS else "a built-in function"
            self.error(DuplicateName, f"'{name}' is {what}", at,
                       hint="choose another name")
            return False
        if name in self.globals:
            first = self.declared_at.get(name)
            self.error(DuplicateName, f"'{name}' is already defined", at,
                       hint=(f"it was first defined at line {first[0]}; " if first else "")
                       + "every component, zone, variable, option, define and table row "
                         "needs its own name")
            return False
        self.globals[name] = kind
        self.declared_at[name] = at
        return True

    def add_symbol(self, value, at):
        self.symbols.add(value)
        self.symbol_at.setdefault(value, at)

    def _check_symbol_clashes(self):
        """A word used as a value must not also name a declared thing: in a
        formula the name would win, silently."""
        for value, at in self.symbol_at.items():
            kind = self.globals.get(value)
            if kind is not None and kind != "component":
                self.error(DuplicateName,
                           f"'{value}' is written as a value here but also names a {kind.replace('_', ' ')}",
                           at, hint=f"in formulas '{value}' would mean the {kind.replace('_', ' ')}: rename one")

    # -- entry point ---------------------------------------------------------
    def check(self, ast: dict) -> dict:
        items = ast["items"]
        by_kind: dict[str, list] = {}
        for item in items:
            by_kind.setdefault(item["node"], []).append(item)

        game = self._single(by_kind, "game", "a 'game \"Title\"' line", ast)
        players = self._single(by_kind, "players", "a 'players N' or 'players N to M' line", ast)
        lo, hi = (players["min"], players["max"]) if players else (1, 1)
        if players and (lo < 1 or hi < lo):
            self.error(InvalidDeclaration, f"player range {lo} to {hi} is empty", players["at"])
        self.player_counts = list(range(lo, hi + 1))

        self._define_params = {d["name"]: len(d["params"] or ()) for d in by_kind.get("define", [])}
        self._one_card_defines = {n for n, k in self._define_params.items() if k == 1}
        for opt in by_kind.get("option", []):
            self._declare_option(opt)
        for comp in by_kind.get("component", []):
            self._declare_component(comp)
        for comp in self.components.values():
            self._resolve_links(comp)
        for comp in self.components.values():
            self._check_shapes(comp)
        for opt in by_kind.get("option", []):
            if opt.get("pick"):
                self._check_pick(opt)
        for comp in self.components.values():
            self._resolve_component_cells(comp)
        for tbl in by_kind.get("table", []):
            self._declare_table(tbl)
        for g in by_kind.get("grid", []):
            self._declare_grid(g)
        for zone in by_kind.get("zone", []):
            self._declare_zone(zone)
        for var in by_kind.get("variable", []):
            self._declare_variable(var)
        for d in by_kind.get("define", []):
            if self.declare(d["name"], "define", d["name_at"]):
                self.defines[d["name"]] = d
        self._check_symbol_clashes()
        # actions and phases have names of their own: they never appear in formulas
        for kind, table in (("action", self.actions), ("phase", self.phases)):
            for decl in by_kind.get(kind, []):
                if kind == "action" and decl["name"] == PASS:
                    self.error(DuplicateName, f"'{PASS}' is the action a player takes to pass",
                               decl["name_at"], hint="'P may take an action' offers it; name this one "
                                                     "differently, for example 'pass_turn'")
                elif decl["name"] in table:
                    self.error(DuplicateName, f"{kind} '{decl['name']}' is already defined",
                               decl["name_at"],
                               hint=f"it was first defined at line {table[decl['name']]['at'][0]}")
                else:
                    table[decl["name"]] = decl

        # bodies, now that every global name is known
        for comp in self.components.values():
            for h in comp["has"]:
                if h["default"] is not None:
                    self.expr(h["default"], set())
        for var in self.variables.values():
            if var["default"] is not None:
                self.expr(var["default"], set())
        for d in self.defines.values():
            with self.reading("a define"):
                self.expr(d["body"], set(d["params"] or ()))
        self._check_define_cycles()
        for g in self.grids.values():
            self._check_grid_display(g)
        setups = by_kind.get("setup", [])
        if len(setups) > 1:
            self.error(DuplicateName, "more than one 'setup' section", setups[1]["at"],
                       hint=f"the first is at line {setups[0]['at'][0]}; write all of the setup in it")
        for s in setups:
            self.block(s["body"], set(), context="setup")
        for ph in self.phases.values():
            self.block(ph["body"], set(), context="phase")
        for a in self.actions.values():
            self._check_action(a)
        if not self.phases:
            self.error(InvalidDeclaration, "the rulebook has no phase", ast["at"],
                       hint="write at least one 'phase NAME' with the steps of play")
        self._check_reachability(by_kind.get("phase", []), setups[0]["body"] if setups else None)
        self._check_permissions_used()
        with self.reading("the scoring"):
            scoring = self._check_scoring(by_kind.get("scoring", []), ast)

        if self.errors:
            raise RulebookErrors(self.errors)
        return {
            "format": IR_FORMAT,
            "file": self.file,
            "game": {"title": game["title"], "at": game["at"]},
            "players": {"min": lo, "max": hi, "at": players["at"]},
            "options": by_kind.get("option", []),
            "components": list(self.components.values()),
            "table": self.table,
            "grids": list(self.grids.values()),
            "zones": list(self.zones.values()),
            "variables": list(self.variables.values()),
            "defines": list(self.defines.values()),
            "setup": setups[0]["body"] if setups else None,
            "phases": by_kind.get("phase", []),
            "actions": by_kind.get("action", []),
            "scoring": scoring,
        }

    def _single(self, by_kind, kind, what, ast):
        found = by_kind.get(kind, [])
        if not found:
            self.error(InvalidDeclaration, f"the rulebook has no '{kind}' line", ast["at"][:2] + [0, 0]
                       if ast["at"][0] else [1, 1, 1, 2], hint=f"add {what}")
            return None
        for extra in found[1:]:
            self.error(DuplicateName, f"more than one '{kind}' line", extra["at"],
                       hint=f"the first is at line {found[0]['at'][0]}")
        return found[0]

    # -- declarations --------------------------------------------------------
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
            if default.get("value") not in values:
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
                for path, path_at in zip(paths, spans):
                    if path_at is not None:
                        src["path_at"] = path_at   # where a missing key is reported
                    columns, records = datafiles.load_component_rows(
                        self.base_dir / src["file"], self.data_file(src["file"]), path,
                        src.get("columns"))
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
                self.errors.extend(err for err in e.errors if not any(
                    (err.code, err.span, err.message) == (old.code, old.span, old.message)
                    for old in self.errors))
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
            if self.declare(label["value"], "table", label["at"]):
                values = {}
                for n, cell in zip(counts, cells[1:]):
                    if cell["node"] == "symbol":
                        self.add_symbol(cell["value"], cell["at"])
                    values[str(n)] = cell
                self.table[label["value"]] = {"at": label["at"], "values": values}

    def _declare_zone(self, zone):
        if not self.declare(zone["name"], "zone", zone["name_at"]):
            return
        if zone["of"] not in self.components:
            self.error(UnknownName, f"unknown component type '{zone['of']}'", zone["of_at"],
                       hint=did_you_mean(zone["of"], self.components))
        self._check_index(zone)
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
            self.error(InvalidDeclaration, f"zone '{zone['name']}' has no owner to see it", owner_at,
                       hint=f"write 'zone {zone['name']} of each player: …' or make it public or hidden")
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
        of = zone["of"]
        has = {h["name"]: h["type"] for h in comp["has"]}
        columns = {c for c in comp.get("columns", []) if c not in RESERVED_COLUMNS}
        for key, role in (("hex_x", "column"), ("hex_y", "row"), ("shade", "shade")):
            name, at = zone[key], zone[key + "_at"]
            if name is None:
                continue
            what = "'shade by'" if key == "shade" else "'hexes at'"
            if name in has:
                if key != "shade" and has[name] not in ("number", "any"):
                    self.error(WrongType, f"'{name}' of a {of} is a {has[name]}, not a number", at,
                               hint=f"a hex's {role} is a whole number")
            elif name in columns:
                continue
            elif name in self._define_params:
                if self._define_params[name] != 1:
                    self.error(WrongArity, f"define '{name}' takes {_parameters(self._define_params[name])}; "
                               f"{what} needs one (the piece)", at,
                               hint=f"write 'define {name}(h) = …', the {role} of h")
            elif self.attributes_known:
                known = columns | set(has) | self._one_card_defines
                self.error(UnknownName, f"a {of} has no attribute '{name}' for its {role} on a hex map", at,
                           hint=did_you_mean(name, known) or "name an attribute, or a define of one piece")

    def _declare_grid(self, g):
        """`grid NAME: W by H`: a bounded square grid, its cells a list."""
        if not self.declare(g["name"], "grid", g["name_at"]):
            return
        for side, at in ((g["width"], g["size_at"]), (g["height"], g["height_at"])):
            if not 1 <= side <= GRID_LIMIT:
                self.error(InvalidDeclaration, f"a grid is 1 to {GRID_LIMIT} cells each way, not {side}",
                           at, hint="write 'grid NAME: WIDTH by HEIGHT', e.g. 8 by 8")
        self.grids[g["name"]] = g

    def _check_grid_display(self, g):
        """`shade by` / `mark by` name a variable of each cell or a define of one cell."""
        for key in ("shade", "mark"):
            name = g[key]
            if name is None:
                continue
            var = self.variables.get(name)
            if var is not None and var["index"] == g["name"]:
                continue
            if self._define_params.get(name) == 1:
                continue
            self.error(UnknownName, f"'{key} by {name}': no variable of each {g['name']} "
                                    f"and no define of one cell is called '{name}'", g[f"{key}_at"],
                       hint=f"write 'variable {name} of each {g['name']}: …' or "
                            f"'define {name}(c) = …'")

    def _check_index(self, decl):
        idx = decl["index"]
        if idx is not None and idx in self.grids:
            if decl["node"] == "zone":
                self.error(InvalidDeclaration, f"a zone is not one per cell of grid '{idx}'",
                           decl.get("index_at") or decl["at"],
                           hint=f"keep what lies on a cell in a variable: "
                                f"'variable … of each {idx}: any = none'")
            return
        if idx is not None and idx != "player" and idx not in self.components:
            self.error(UnknownName, f"unknown index '{idx}' in 'of each {idx}'",
                       decl.get("index_at") or decl["at"],
                       hint=did_you_mean(idx, {"player"} | set(self.components))
                       or "write 'of each player', 'of each' a component type or a grid")

    def _declare_variable(self, var):
        if not self.declare(var["name"], "variable", var["name_at"]):
            return
        self._check_type(var["type"], var["type_at"])
        self._check_index(var)
        if var.get("permission") and var["index"] not in (None, "player"):
            self.error(InvalidDeclaration, f"a permission is one per player or one for the game, "
                                           f"not one per {var['index']}", var["index_at"],
                       hint=f"write 'permission {var['name']} of each player'")
        self.variables[var["name"]] = var

    # -- actions, phases, scoring --------------------------------------------
    def _check_action(self, a):
        scope = {"me"}
        for p in a["params"]:
            self.choice(p["choice"], scope, p["name"])
            scope = scope | {p["name"]}
        seen_limit = False
        for opt in a["options"]:
            if opt["node"] in ("once_per", "times_per"):
                if seen_limit:
                    self.error(InvalidDeclaration, "an action has at most one limit", opt["at"])
                seen_limit = True
                if opt["times"] < 1:
                    self.error(InvalidDeclaration, f"action '{a['name']}' is allowed {opt['times']} times: never",
                               opt["at"], hint="a limit is 'once per …' or 'N times per …' with N at least 1")
                if opt["scope"] not in LIMIT_SCOPES:
                    self.error(UnknownName, f"unknown limit scope '{opt['scope']}'", opt["scope_at"],
                               hint=did_you_mean(opt["scope"], LIMIT_SCOPES) or "use turn, round or game")
        if a["body"] is not None:
            self.block(a["body"], scope, context="action")

    def _check_define_cycles(self):
        """A define may use other defines, but never (through others) itself."""
        uses = {name: {n["name"] if n["node"] == "name" else n["fn"]
                       for n in walk(d["body"])
                       if n["node"] in ("name", "call") and n.get("ref") == "define"}
                for name, d in self.defines.items()}
        for path in flow.define_cycles(uses):
            self.error(RecursiveDefinition,
                       f"'{path[0]}' is defined in terms of itself ({' -> '.join(path)})",
                       self.defines[path[0]]["name_at"],
                       hint="a define is a formula, not a loop: use an aggregate such as "
                            "sum(…) or count(…) instead")

    def _check_reachability(self, phases, setup):
        for i in flow.unreachable_phases(phases, setup):
            ph = phases[i]
            before = ("the setup always jumps elsewhere" if i == 0
                      else f"phase '{phases[i - 1]['name']}' before it never ends normally")
            self.error(UnreachablePhase, f"phase '{ph['name']}' can never be reached", ph["name_at"],
                       hint=f"nothing goes to it, and {before}")

    @contextlib.contextmanager
    def reading(self, where: str):
        outer, self.pure = self.pure, self.pure or where
        try:
            yield
        finally:
            self.pure = outer

    def _check_scoring(self, scorings, ast):
        if len(scorings) > 1:
            self.error(DuplicateName, "more than one 'scoring' section", scorings[1]["at"],
                       hint=f"the first is at line {scorings[0]['at'][0]}")
        out = {"score": None, "tie_break": [], "winners": None, "public": False}
        if not scorings:
            self.error(InvalidDeclaration, "the rulebook has no 'scoring' section", ast["at"],
                       hint="add 'scoring' with at least 'score = …'")
            return out
        for part in scorings[0]["parts"]:
            kind = part["node"]
            if kind == "score":
                self.expr(part["expr"], {"p"})
                out["score"] = part["expr"]
                if part.get("flag") is not None:
                    if part["flag"] == "public":
                        out["public"] = True
                    else:
                        self.error(InvalidDeclaration, f"unknown score flag '{part['flag']}'",
                                   part["flag_at"], hint=did_you_mean(part["flag"], ["public"])
                                   or "write 'score = …, public' to show the scores to everybody")
            elif kind == "tie_break":
                for key in part["keys"]:
                    self.expr(key["expr"], {"p"})
                    out["tie_break"].append(key)
            else:
                self.expr(part["expr"], set())
                out["winners"] = part["expr"]
        if out["score"] is None:
            self.error(InvalidDeclaration, "the scoring section has no 'score = …' line", scorings[0]["at"])
        return out

    # -- statements ----------------------------------------------------------
    def block(self, block, scope: set, context: str, top: bool = True):
        """Check a block's statements. ``top`` is false for nested blocks
        (the body of an 'if', a loop, a turn), where 'requires' is never allowed."""
        outer = set(scope)
        scope = set(scope)
        for i, stmt in enumerate(block["stmts"]):
            kind = stmt["node"]
            method = getattr(self, "stmt_" + kind)
            if kind in ("let", "choose", "each_chooses") and \
                    (stmt.get("name") or stmt.get("var")) in outer:
                # a nested block works on a copy of the names around it: a
                # 'let' there would be lost at the block's end
                name = stmt.get("name") or stmt.get("var")
                self.error(DuplicateName, f"'{name}' is already a name of the enclosing steps",
                           stmt["at"], hint="choose another name; to count across steps "
                                            "use a variable with 'set' or 'add'")
            if kind == "requires" and (context != "action" or i != 0 or not top):
                self.error(InvalidDeclaration, "'requires' is allowed only as the first line of an action",
                           stmt["at"], hint="move the condition to the action's first line")
            added = method(stmt, scope, context)
            if added:
                scope.add(added)

    def stmt_move(self, s, scope, ctx):
        self.expr(s["what"], scope)
        self.zone_target(s["to"], scope)

    def stmt_deal(self, s, scope, ctx):
        self.expr(s["count"], scope)
        self.zone_target(s["source"], scope)
        self.zone_target(s["to"], scope)

    def stmt_shuffle(self, s, scope, ctx):
        self.zone_target(s["zone"], scope)

    def stmt_reveal(self, s, scope, ctx):
        self.expr(s["what"], scope)

    def stmt_set(self, s, scope, ctx):
        self.assign_target(s["target"], scope)
        self.expr(s["value"], scope)

    def stmt_add(self, s, scope, ctx):
        self.assign_target(s["target"], scope)
        self.expr(s["value"], scope)

    def stmt_let(self, s, scope, ctx):
        self.expr(s["value"], scope)
        return s["name"]

    def stmt_if(self, s, scope, ctx):
        self.expr(s["cond"], scope)
        self.block(s["then"], scope, ctx, top=False)
        if s["otherwise"] is not None:
            self.block(s["otherwise"], scope, ctx, top=False)

    def stmt_for_each(self, s, scope, ctx):
        self.expr(s["source"], scope)
        self.block(s["body"], scope | {s["var"]}, ctx, top=False)

    def stmt_repeat_times(self, s, scope, ctx):
        self.expr(s["count"], scope)
        self.block(s["body"], scope, ctx, top=False)

    def stmt_repeat_until(self, s, scope, ctx):
        self.expr(s["cond"], scope)
        self.block(s["body"], scope, ctx, top=False)

    def stmt_turn(self, s, scope, ctx):
        self.expr(s["player"], scope)
        self.block(s["body"], scope, ctx, top=False)

    def stmt_take_action(self, s, scope, ctx):
        self.expr(s["player"], scope)
        for name, at in zip(s["among"] or [], s["among_at"]):
            if name not in self.actions:
                self.error(UnknownName, f"unknown action '{name}'", at,
                           hint=did_you_mean(name, self.actions))
        if s["among"] is None and not self.actions:
            self.error(InvalidDeclaration, "no action is declared", s["at"])
        if s["optional"] and s["if_able"]:
            self.error(InvalidDeclaration, "'may take an action' is always able: it offers 'pass'",
                       s["at"], hint="write 'takes an action if able' to skip when nothing is "
                                     "legal, or 'may take an action' to let the player pass")

    def stmt_choose(self, s, scope, ctx):
        self.expr(s["player"], scope)
        self.choice(s["choice"], scope, s["var"])
        return s["var"]

    def stmt_each_chooses(self, s, scope, ctx):
        self.expr(s["players"], scope)
        self.choice(s["choice"], scope | {s["player_var"]}, s["var"])
        return s["var"]

    def stmt_rotate(self, s, scope, ctx):
        self.expr(s["by"], scope)
        zone = self.zones.get(s["zone"])
        if zone is None:
            self.error(UnknownName, f"unknown zone '{s['zone']}'", s["zone_at"],
                       hint=did_you_mean(s["zone"], self.zones))
        elif zone["index"] != "player":
            self.error(WrongType, f"'rotate' passes a zone of each player; '{s['zone']}' is not one",
                       s["zone_at"])

    def stmt_grant(self, s, scope, ctx):
        self._permission_step(s, scope, "to")

    def stmt_spend(self, s, scope, ctx):
        self._permission_step(s, scope, "of")

    def _permission_step(self, s, scope, word):
        """`grant NAME [to P]` / `spend NAME [of P]`: NAME is a permission,
        with a player exactly when it is one per player."""
        name, verb = s["name"], s["node"]
        var = self.variables.get(name)
        if var is None or not var.get("permission"):
            known = [n for n, v in self.variables.items() if v.get("permission")]
            self.error(UnknownName, f"'{name}' is not a permission", s["name_at"],
                       hint=did_you_mean(name, known) or "declare it: 'permission NAME of each player'")
            return
        (self.granted if verb == "grant" else self.spent).add(name)
        if s["player"] is not None:
            self.expr(s["player"], scope)
        if (s["player"] is None) != (var["index"] is None):
            self.error(WrongArity, f"permission '{name}' is " + (
                f"one per {var['index']}: write '{verb} {name} {word} …'" if var["index"]
                else f"one for the game: write just '{verb} {name}'"), s["at"])

    def _check_permissions_used(self):
        """A permission is granted by one step and spent by another."""
        for name, var in self.variables.items():
            if not var.get("permission"):
                continue
            for done, what in ((self.granted, "granted"), (self.spent, "spent")):
                if name not in done:
                    self.error(InvalidDeclaration, f"permission '{name}' is never {what}",
                               var["name_at"],
                               hint=f"'grant {name} …' gives it and 'spend {name} …' uses it up; "
                                    "a yes/no that is only set is a variable")

    def stmt_requires(self, s, scope, ctx):
        with self.reading("a 'requires' condition"):
            self.expr(s["cond"], scope)

    def stmt_new_round(self, s, scope, ctx):
        pass

    def stmt_end_game(self, s, scope, ctx):
        pass

    def stmt_go_to(self, s, scope, ctx):
        if ctx == "action":
            self.error(InvalidDeclaration, "'go to' is not allowed inside an action", s["at"])
        if s["phase"] not in self.phases:
            self.error(UnknownName, f"unknown phase '{s['phase']}'", s["phase_at"],
                       hint=did_you_mean(s["phase"], self.phases))

    def choice(self, c, scope, var):
        with self.reading("a choice"):
            self._choice(c, scope, var)

    def _choice(self, c, scope, var):
        kind = c["node"]
        self.expr(c["source"], scope)
        if kind == "choose_one" and c["where"] is not None:
            self.expr(c["where"], scope | {var})
        elif kind == "choose_many":
            self.expr(c["count"], scope)
        elif kind == "choose_groups":
            self.expr(c["groups"], scope)
            self.expr(c["size"], scope)
        elif kind == "choose_kinds":
            self.expr(c["kinds"], scope)
            self.expr(c["size"], scope)

    def zone_target(self, e, scope):
        self.expr(e, scope)
        if e["node"] in ("name", "call") and e.get("ref") == "zone":
            return
        if e["node"] in ("name", "call") and e.get("ref") is None:
            return  # already reported as unknown
        self.error(WrongType, "expected a zone here", e["at"],
                   hint="a zone is written 'deck' or 'hand(p)'")

    def assign_target(self, e, scope):
        self.expr(e, scope)
        if e["node"] == "attribute":
            if e["attr"] in self.attributes and e["attr"] not in self.has_attributes:
                self.error(WrongType, f"'{e['attr']}' is fixed by its component table and cannot change",
                           e["attr_at"], hint=f"declare it with 'has {e['attr']}: TYPE' to let the rules set it")
            return
        if e["node"] in ("name", "call") and e.get("ref") in ("variable", None):
            name = e.get("name") or e.get("fn")
            if self.variables.get(name, {}).get("permission"):
                self.error(WrongType, f"'{name}' is a permission: 'grant' gives it, 'spend' uses it",
                           e["at"], hint=f"write 'grant {name} …' or 'spend {name} …'")
            return
        self.error(WrongType, "only a variable or a component's 'has' value can be set", e["at"])

    # -- expressions ---------------------------------------------------------
    def expr(self, e, scope: set):
        getattr(self, "expr_" + e["node"])(e, scope)

    def expr_number(self, e, scope):
        pass

    expr_string = expr_bool = expr_none = expr_symbol = expr_component = expr_number

    def expr_list(self, e, scope):
        for x in e["items"]:
            self.expr(x, scope)

    def expr_name(self, e, scope):
        n = e["name"]
        if n in scope:
            e["ref"] = "local"
        elif n in CONSTANTS:
            e["ref"] = "constant"
        elif n in self.globals:
            kind = self.globals[n]
            e["ref"] = kind
            if kind == "zone" and self.zones.get(n, {}).get("index"):
                self.error(WrongArity, f"zone '{n}' is one per {self.zones[n]['index']}", e["at"],
                           hint=f"write {n}(…) to say whose")
            elif kind == "variable" and self.variables.get(n, {}).get("index"):
                self.error(WrongArity, f"variable '{n}' is one per {self.variables[n]['index']}", e["at"],
                           hint=f"write {n}(…) to say whose")
            elif kind == "define" and self.defines[n]["params"]:
                params = self.defines[n]["params"]
                self.error(WrongArity, f"'{n}' takes {_arguments(len(params))}, got none", e["at"],
                           hint=f"write {n}({', '.join(params)})")
        elif n in self.symbols:
            e["node"] = "symbol"
            e["value"] = e.pop("name")
        elif self.attributes_known:     # (a data file that failed may have held the word)
            known = set(scope) | set(self.globals) | set(CONSTANTS) | self.symbols
            self.error(UnknownName, f"unknown name '{n}'", e["at"], hint=did_you_mean(n, known))

    def expr_call(self, e, scope):
        fn, args = e["fn"], e["args"]
        for a in args:
            self.expr(a, scope)
        kind = self.globals.get(fn)
        if kind in ("zone", "variable"):
            decl = (self.zones if kind == "zone" else self.variables)[fn]
            e["ref"] = kind
            want = 1 if decl["index"] else 0
            if len(args) != want:
                self.error(WrongArity, f"{kind} '{fn}' takes {_arguments(want)}, got {len(args)}",
                           e["at"], hint=f"'{fn}' is one per {decl['index']}: write {fn}(…)" if want
                           else f"write just '{fn}'")
        elif kind == "define":
            e["ref"] = "define"
            want = len(self.defines[fn]["params"] or ())
            if len(args) != want:
                self.error(WrongArity, f"'{fn}' takes {_arguments(want)}, got {len(args)}", e["at"],
                           hint=f"define {fn}({', '.join(self.defines[fn]['params'] or ())})")
        elif fn in FUNCTIONS:
            e["ref"] = "builtin"
            b = FUNCTIONS[fn]
            if b.random and self.pure:
                self.error(InvalidDeclaration,
                           f"'{fn}' draws from the game's random generator, which {self.pure} cannot do",
                           e["fn_at"], hint=f"draw in a statement: let x = {fn}(…), then use x")
            if not b.min_args <= len(args) <= b.max_args:
                want = (_arguments(b.min_args) if b.min_args == b.max_args
                        else f"{b.min_args} to {b.max_args} arguments")
                self.error(WrongArity, f"'{fn}' takes {want}, got {len(args)}", e["at"], hint=b.doc)
        elif fn in AGGREGATES:
            self.error(WrongArity, f"'{fn}' is written {fn}(x in COLLECTION where …)", e["at"],
                       hint=AGGREGATES[fn])
        elif kind is not None:
            self.error(WrongType, f"'{fn}' is a {kind.replace('_', ' ')}, not a function", e["fn_at"],
                       hint=f"write just '{fn}'")
        else:
            known = set(FUNCTIONS) | {n for n, k in self.globals.items() if k in ("zone", "variable", "define")}
            self.error(UnknownName, f"unknown function '{fn}'", e["fn_at"], hint=did_you_mean(fn, known))

    def expr_aggregate(self, e, scope):
        fn = e["fn"]
        if fn not in AGGREGATES:
            self.error(UnknownName, f"unknown aggregate '{fn}'", e["fn_at"],
                       hint=did_you_mean(fn, AGGREGATES))
        self.expr(e["source"], scope)
        inner = scope | {e["var"]}
        for key in ("where", "value", "by"):
            if e[key] is not None:
                self.expr(e[key], inner)
        needs_by = fn in ("majority", "minority", "best", "worst", "sorted", "unmatched",
                          "matched")
        if needs_by and e["by"] is None:
            self.error(WrongArity, f"'{fn}' needs 'by': {fn}(x in C by VALUE)", e["at"])
        if not needs_by and e["by"] is not None:
            self.error(WrongArity, f"'{fn}' takes no 'by'", e["by"]["at"])
        if fn == "all" and e["where"] is None:
            self.error(WrongArity, "'all' needs 'where': all(x in C where CONDITION)", e["at"])

    def expr_conditional(self, e, scope):
        for key in ("then", "cond", "otherwise"):
            self.expr(e[key], scope)

    def expr_attribute(self, e, scope):
        self.expr(e["target"], scope)
        if e["attr"] not in self.attributes and self.attributes_known:
            self.error(UnknownName, f"no component has an attribute '{e['attr']}'", e["attr_at"],
                       hint=did_you_mean(e["attr"], self.attributes))

    def expr_index(self, e, scope):
        self.expr(e["target"], scope)
        self.expr(e["index"], scope)

    def _expr_pair(self, e, scope):
        self.expr(e["left"], scope)
        self.expr(e["right"], scope)

    expr_otherwise = expr_or = expr_and = expr_compare = expr_arith = _expr_pair

    def expr_not(self, e, scope):
        self.expr(e["operand"], scope)

    expr_negate = expr_not


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


def _arguments(k: int) -> str:
    return "1 argument" if k == 1 else f"{k} arguments"


def check(ast: dict, filename: str, base_dir: Path) -> dict:
    """AST → IR, or RulebookErrors with every problem found."""
    return Checker(filename, base_dir).check(ast)


def walk(node) -> Iterable[dict]:
    """Every node below (and including) a node."""
    if isinstance(node, dict):
        if "node" in node:
            yield node
        for v in node.values():
            yield from walk(v)
    elif isinstance(node, list):
        for v in node:
            yield from walk(v)

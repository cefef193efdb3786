"""Static checks: walk the AST, collect every problem, and build the IR.

The checker resolves every name (annotating the node with what it refers to:
``"ref": "zone"``, ``"local"``, …), checks arities, attributes, player-count
tables, option values, action limits and phase reachability, and collects
*all* problems before reporting. When there are none, the annotated tree is
the IR: plain JSON-compatible data with spans, validated next against
``schemas/rulebook.schema.json`` and then compiled. The checks of the
declarations are in `checks_declarations`; here are the walk itself, the
checks of actions, phases, scoring, statements and formulas.
"""

from __future__ import annotations

import contextlib
import os
import re
from pathlib import Path
from typing import Iterable

from . import files, flow, player_counts
from ..stdlib.builtins import AGGREGATES, CONSTANTS, FUNCTIONS

# an aggregate called on numbers one by one: the builtin that means that
_PAIRWISE = {"max": "larger", "min": "smaller"}
from .checks_declarations import DeclarationChecks, indices_of
from .checks_drawings import DrawingChecks
from ..errors import (span_at, DuplicateName, FileNotReadable, FormulaTooLarge,
                      InvalidDeclaration, LimitExceeded, NestingTooDeep, RecursiveDefinition,
                      RulebookError, RulebookErrors, Span, UnknownName, UnreachablePhase,
                      WrongArity, WrongType, did_you_mean)
from .limits import MAX_PLAYERS, MAX_RULEBOOK_BYTES, MAX_TITLE

IR_FORMAT = "rulebook-ir/1"
PASS = "pass"          # the action 'may take an action' adds (decisions.PASS)
LIMIT_SCOPES = {"turn", "round", "game"}
# the lines a scoring section holds once
_SINGLE_SCORING_LINES = ("score", "winners", "score_order", "estimate")


MAX_COUNTER_WORD = 24     # letters of a counter's own word ('round is called "trick"')


class Checker(DeclarationChecks, DrawingChecks):
    def __init__(self, filename: str, base_dir: Path, readable: tuple | None = None):
        self.file = filename
        self.base_dir = base_dir
        # where its data files may lie
        self.readable = readable if readable is not None else files.roots(base_dir)
        self.errors: list[RulebookError] = []
        self._reported: set = set()        # (code, span, message) of each error recorded
        # names a declaration could not take (a builtin's): their uses are
        # not reported again as unknown, the declaration's error says it all
        self.refused: set = set()
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
        self.procedures: dict[str, dict] = {}
        # procedure (None: elsewhere) -> [(procedure it does, span)]: no circle
        self.does: dict = {}
        self._procedure = None
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
        """Record a problem; ``file`` names a data file when it is not the rulebook.
        The same problem at the same place is recorded once (the rows one
        table row generates share its cells' places)."""
        error = cls(message, self.span(at, file), hint)
        key = (error.code, error.span, message)
        if key not in self._reported:
            self._reported.add(key)
            self.errors.append(error)

    def declare(self, name, kind, at):
        if name in CONSTANTS or name in FUNCTIONS or name in AGGREGATES:
            what = "a built-in name" if name in CONSTANTS else "a built-in function"
            self.error(DuplicateName, f"'{name}' is {what}", at,
                       hint="choose another name")
            self.refused.add(name)
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
        self._check_player_rules(self._single(by_kind, "player_rules", None, ast))
        called = self._check_called(by_kind.get("called", []))
        lo, hi = (players["min"], players["max"]) if players else (1, 1)
        self.player_counts = []
        if players and max(lo, hi) > MAX_PLAYERS:
            # refused before any list of player counts is made
            self.error(LimitExceeded, f"a game for {max(lo, hi):,} players: at most {MAX_PLAYERS}",
                       players["max_at"] if lo <= MAX_PLAYERS else players["min_at"],
                       hint=f"players N to M with M at most {MAX_PLAYERS}")
        elif players and (lo < 1 or hi < lo):
            self.error(InvalidDeclaration, f"player range {lo} to {hi} is empty", players["at"])
        else:
            self.player_counts = list(range(lo, hi + 1))
        if game and len(game["title"]) > MAX_TITLE:
            self.error(LimitExceeded, f"a title of {len(game['title']):,} characters: at most "
                                      f"{MAX_TITLE}", game["title_at"],
                       hint="the title names the game in menus, reports and saves: shorten it")

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
            self._check_drawn(comp)
            self._check_shows(comp)
        for opt in by_kind.get("option", []):
            if opt.get("pick"):
                self._check_pick(opt)
        for comp in self.components.values():
            self._resolve_component_cells(comp)
        self._count_pieces()
        for tbl in by_kind.get("table", []):
            self._declare_table(tbl)
        for g in by_kind.get("grid", []):
            self._declare_grid(g)
        for zone in by_kind.get("zone", []):
            self._declare_zone(zone)
        for var in by_kind.get("variable", []):
            self._declare_variable(var)
        self._count_state()
        for d in by_kind.get("define", []):
            if self.declare(d["name"], "define", d["name_at"]):
                self.defines[d["name"]] = d
        self._check_symbol_clashes()
        # actions and phases have names of their own: they never appear in formulas
        for kind, table in (("action", self.actions), ("phase", self.phases),
                            ("procedure", self.procedures)):
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
        # a starting value is worked out before the game's generator is
        # dealt from: it may not draw (the setup can)
        for comp in self.components.values():
            for h in comp["has"]:
                if h["default"] is not None:
                    with self.reading("a starting value"):
                        self.expr(h["default"], set())
        for var in self.variables.values():
            if var["default"] is not None:
                with self.reading("a starting value"):
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
        for proc in self.procedures.values():
            self._check_procedure(proc)
        self._check_procedure_circles()
        if not self.phases:
            self.error(InvalidDeclaration, "the rulebook has no phase", ast["at"],
                       hint="write at least one 'phase NAME' with the steps of play")
        self._check_reachability(by_kind.get("phase", []), setups[0]["body"] if setups else None)
        self._check_permissions_used()
        with self.reading("the scoring"):
            scoring = self._check_scoring(by_kind.get("scoring", []), ast)

        layout = self._check_layout(by_kind.get("layout", []))
        if self.errors:
            raise RulebookErrors(self.errors)
        ir = {
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
        if self.procedures:     # (only where written: the IR of every other rulebook stays)
            ir["procedures"] = list(self.procedures.values())
        if called:
            ir["called"] = called
        if layout:
            ir["layout"] = layout
        # what the compiler builds for the player counts validate compiles,
        # worked out from the whole IR before any of it is built
        too_much = player_counts.too_much(ir)
        if too_much is not None:
            raise RulebookErrors([too_much])
        return ir

    def _check_player_rules(self, item) -> None:
        """`rules for players "FILE"` (if written) names a readable file where
        a rulebook may read (its folder, its library, the shipped one)."""
        if item is None:
            return
        try:
            files.locate(item["file"], self.base_dir, self.readable, MAX_RULEBOOK_BYTES,
                         "player rules")
        except files.FileMissing:
            self.error(FileNotReadable, f"the player rules '{files.brief(item['file'])}' "
                                        f"do not exist", item["file_at"],
                       hint="the path is relative to the rulebook's folder: a Markdown "
                            "file, such as \"my-game.md\"")
        except RulebookError as e:
            self.error(type(e), e.message, item["file_at"], e.hint)

    def _check_layout(self, items) -> list:
        """`layout` and its rows: each cell a zone's name, a piece's name, a
        "text" or `-`; each zone and piece placed once. The IR's rows hold
        {zone}, {piece}, {text} or null."""
        for extra in items[1:]:
            self.error(DuplicateName, "more than one 'layout'", extra["at"],
                       hint=f"the first is at line {items[0]['at'][0]}: one layout places "
                            "everything")
        if not items:
            return []
        rows, placed = [], {}
        for row in items[0]["rows"]:
            out = []
            for cell in row["cells"]:
                node = cell["node"]
                if node == "none":
                    out.append(None)
                    continue
                if node == "string":
                    out.append({"text": cell["value"]})
                    continue
                name = cell.get("value") if node == "symbol" else None
                if name in self.zones:
                    entry = {"zone": name}
                elif name in self.instances:
                    entry = {"piece": name}
                elif name is not None:
                    if self.attributes_known:
                        self.error(UnknownName, f"the layout places '{name}', which is no zone "
                                                f"or piece", cell["at"],
                                   hint=did_you_mean(name, set(self.zones) | set(self.instances))
                                   or "name a zone or a piece, write \"text\" or '-' for nothing")
                    out.append(None)
                    continue
                else:
                    self.error(WrongType, "a layout's cell is a zone, a piece, a \"text\" or '-'",
                               cell["at"], hint="a number or a list is not placed: write it in "
                                                "quotes to show it as text")
                    out.append(None)
                    continue
                if name in placed:
                    self.error(DuplicateName, f"'{name}' is placed twice", cell["at"],
                               hint=f"it is placed at line {placed[name][0]} already")
                placed.setdefault(name, cell["at"])
                out.append(entry)
            rows.append(out)
        return rows

    def _check_called(self, items) -> dict:
        """`round is called "trick"`: the game's word for a counter, once a
        counter, a few plain words (the screen's header prints it)."""
        called: dict = {}
        for item in items:
            counter, word = item["counter"], item["word"]
            if counter in called:
                self.error(DuplicateName, f"'{counter}' is called twice", item["at"],
                           hint=f"it is called \"{called[counter]}\" already: keep one line")
            elif not word.strip() or len(word) > MAX_COUNTER_WORD or any(
                    not (ch.isalnum() or ch in " -'") for ch in word):
                self.error(InvalidDeclaration, f"a {counter} cannot be called \"{word}\"",
                           item["word_at"],
                           hint=f"a word or two, at most {MAX_COUNTER_WORD} letters: "
                                f"{counter} is called \"trick\"")
            else:
                called[counter] = word
        return called

    def _single(self, by_kind, kind, what, ast):
        """The one line of a kind; `what` says how to write it where it must
        be there (None: it may be left out)."""
        found = by_kind.get(kind, [])
        if not found and what is None:
            return None
        if not found:
            self.error(InvalidDeclaration, f"the rulebook has no '{kind}' line", ast["at"][:2] + [0, 0]
                       if ast["at"][0] else [1, 1, 1, 2], hint=f"add {what}")
            return None
        for extra in found[1:]:
            written = "rules for players" if kind == "player_rules" else kind
            self.error(DuplicateName, f"more than one '{written}' line", extra["at"],
                       hint=f"the first is at line {found[0]['at'][0]}")
        return found[0]

    # -- actions, phases, scoring --------------------------------------------
    def _check_action(self, a):
        scope = {"me"}
        for p in a["params"]:
            self.choice(p["choice"], scope, p["name"])
            self._check_label(p, p["name"], f"{p['name']}: … as \"cards to give\"")
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

    def _check_procedure(self, proc):
        """A procedure's parameters: names of their own, each of a kind; its
        steps read them and nothing else local."""
        names = set()
        for p in proc["params"]:
            self._check_type(p["type"], p["type_at"])
            if p["name"] in names:
                self.error(DuplicateName, f"procedure '{proc['name']}' has two parameters "
                                          f"called '{p['name']}'", p["name_at"])
            names.add(p["name"])
        self._procedure = proc["name"]
        self.does.setdefault(proc["name"], [])
        try:
            self.block(proc["body"], names, context="procedure")
        finally:
            self._procedure = None

    def _check_procedure_circles(self):
        """A procedure never does itself, through others or directly: its
        steps would never end."""
        uses = {name: {callee for callee, _ in self.does.get(name, ())}
                for name in self.procedures}
        for path in flow.define_cycles(uses):
            at = next(at for callee, at in self.does[path[0]] if callee == path[1])
            self.error(RecursiveDefinition, f"procedure '{path[0]}' does itself "
                                            f"({' -> '.join(path)})", at,
                       hint="a procedure's steps end; to repeat them, put the 'do' in a "
                            "'repeat' or 'for each'")

    def _check_define_cycles(self):
        """A define may use other defines, but never (through others) itself."""
        uses = {name: {n["name"] if n["node"] == "name" else n["fn"]
                       for n in walk(d["body"])
                       if n["node"] in ("name", "call") and n.get("ref") == "define"}
                for name, d in self.defines.items()}
        cycles = flow.define_cycles(uses)
        for path in cycles:
            self.error(RecursiveDefinition,
                       f"'{path[0]}' is defined in terms of itself ({' -> '.join(path)})",
                       self.defines[path[0]]["name_at"],
                       hint="a define is a formula, not a loop: use an aggregate such as "
                            "sum(…) or count(…) instead")
        if not cycles:
            self._check_define_costs(uses)

    def _check_define_costs(self, uses: dict):
        """Through the defines it uses, a define nests at most MAX_DEFINE_DEPTH
        deep and evaluates at most MAX_FORMULA_SIZE formula nodes."""
        bodies = {name: d["body"] for name, d in self.defines.items()}
        costs = flow.define_costs(bodies)
        deep = {n for n, (depth, _) in costs.items() if depth > flow.MAX_DEFINE_DEPTH}
        large = {n for n, (_, size) in costs.items() if size > flow.MAX_FORMULA_SIZE} - deep
        for name, (depth, size) in costs.items():
            # only where the limit is first passed, not at every define above it
            callees = uses[name]
            if name in deep and callees & deep or name in large and callees & (deep | large):
                continue
            at = self.defines[name]["name_at"]
            if name in deep:
                self.error(NestingTooDeep,
                           f"'{name}' nests {depth} levels deep through the defines it uses; "
                           f"at most {flow.MAX_DEFINE_DEPTH}", at,
                           hint="a long chain of defines, each using the next: shorten it, or "
                                "work a part out once with 'let'")
            elif name in large:
                self.error(FormulaTooLarge,
                           f"'{name}' evaluates {size:,} formula nodes with the defines it uses "
                           f"written out; at most {flow.MAX_FORMULA_SIZE:,}", at,
                           hint="a define that uses another two or more times doubles at every "
                                "step of the chain: use each one once, or work it out with 'let'")

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
        # (`lowest_wins` is written only where it holds: the IR, and so the
        # fingerprint saves carry, of every other rulebook stays as it was)
        out = {"score": None, "parts": [], "tie_break": [], "winners": None, "public": False}
        if not scorings:
            self.error(InvalidDeclaration, "the rulebook has no 'scoring' section", ast["at"],
                       hint="add 'scoring' with at least 'score = …'")
            return out
        first = {}          # a line of which the section holds one: its first place
        for part in scorings[0]["parts"]:
            kind = part["node"]
            if kind in _SINGLE_SCORING_LINES:
                if kind in first:
                    self._second_scoring_line(part, first[kind])
                    continue
                first[kind] = part
            if kind == "score_order":
                if part["lowest"]:
                    out["lowest_wins"] = True
                else:
                    out.pop("lowest_wins", None)
            elif kind == "score":
                self.expr(part["expr"], {"p"})
                out["score"] = part["expr"]
                if part.get("flag") is not None:
                    if part["flag"] == "public":
                        out["public"] = True
                    else:
                        self.error(InvalidDeclaration, f"unknown score flag '{part['flag']}'",
                                   part["flag_at"], hint=did_you_mean(part["flag"], ["public"])
                                   or "write 'score = …, public' to show the scores to everybody")
            elif kind == "part":
                self.expr(part["expr"], {"p"})
                if any(q["label"] == part["label"] for q in out["parts"]):
                    self.error(DuplicateName, f"two parts of the score are named "
                               f"'{part['label']}'", part["label_at"])
                out["parts"].append(part)
            elif kind == "estimate":
                # (written only where declared, as `lowest_wins` is)
                self.expr(part["expr"], {"p"})
                out["estimate"] = part["expr"]
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

    def _second_scoring_line(self, part, earlier):
        line = earlier["at"][0]
        if part["node"] == "score_order":
            self.error(DuplicateName, f"which score wins is said twice: '{_which_wins(part)}'",
                       part["at"], hint=f"line {line} already says '{_which_wins(earlier)}'; "
                       f"keep one")
        else:
            self.error(DuplicateName, f"a second '{part['node']} = …' line in the scoring section",
                       part["at"], hint=f"the first is at line {line}; keep one")

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
        if s.get("count") is None:
            self.expr(s["what"], scope)
        else:
            self.expr(s["count"], scope)
            self._pieces_of_zone(s["what"], scope)
        self.zone_target(s["to"], scope)

    def _pieces_of_zone(self, e, scope):
        """What 'move N of …' takes from: a zone, or the pieces of a zone that
        pass a 'where' ('c in ZONE where …'), whose top is known."""
        if e["node"] == "aggregate" and e["fn"] == "filter":
            self.zone_target(e["source"], scope)
            self.expr(e["where"], scope | {e["var"]})
            return
        self.expr(e, scope)
        if e["node"] in ("name", "call") and e.get("ref") in ("zone", None):
            return self.zone_target(e, scope) if e.get("ref") == "zone" else None
        self.error(WrongType, "'move N of' takes from the top of a zone", e["at"],
                   hint="write a zone, 'move 2 of deck to …', or its pieces that pass a test, "
                        "'move 2 of c in deck where … to …'; to move the first N of a list, "
                        "move a slice of it: 'move xs[0 to 1] to …'")

    def stmt_deal(self, s, scope, ctx):
        self.expr(s["count"], scope)
        self.zone_target(s["source"], scope)
        self.zone_target(s["to"], scope)

    def stmt_shuffle(self, s, scope, ctx):
        self.zone_target(s["zone"], scope)

    def stmt_reveal(self, s, scope, ctx):
        self.expr(s["what"], scope)
        if s["to"] is not None:
            self.expr(s["to"], scope)

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
        with self.reading("the formula of who decides"):   # worked out again for a save
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
        with self.reading("the formula of who decides"):
            self.expr(s["player"], scope)
        self.choice(s["choice"], scope, s["var"])
        self._check_label(s, s["var"], f"chooses {s['var']} as \"a card to keep\"")
        return s["var"]

    def stmt_each_chooses(self, s, scope, ctx):
        with self.reading("the formula of who decides"):
            self.expr(s["players"], scope)
        self.choice(s["choice"], scope | {s["player_var"]}, s["var"])
        self._check_label(s, s["var"], f"chooses {s['var']} as \"a card to keep\"")
        return s["var"]

    def _check_label(self, s, name, example):
        """`chooses NAME as "LABEL"` or a parameter's `NAME: CHOICE as
        "LABEL"`: the words a player is asked with; there must be some.
        Braces would read as the values of `announce`, which a label does
        not fill in."""
        if "label" not in s:
            return
        label = s["label"]
        if not label.strip():
            self.error(InvalidDeclaration, f"the label of '{name}' is empty", s["label_at"],
                       hint=f"say what is chosen, '{example}', or leave the label out")
        elif "{" in label or "}" in label:
            self.error(InvalidDeclaration, f"the label of '{name}' has braces: a label is "
                                           f"shown as written", s["label_at"],
                       hint="a label names what is chosen in plain words; only 'announce' "
                            "fills in {values}")

    def stmt_rotate(self, s, scope, ctx):
        self.expr(s["by"], scope)
        zone = self.zones.get(s["zone"])
        if zone is None:
            self.error(UnknownName, f"unknown zone '{s['zone']}'", s["zone_at"],
                       hint=did_you_mean(s["zone"], self.zones))
        elif zone["index"] != "player" or zone.get("index2") is not None:
            self.error(WrongType, f"'rotate' passes a zone of each player; '{s['zone']}' is not one",
                       s["zone_at"], hint=f"'{s['zone']}' is one per {_per(zone)}; 'rotate' passes "
                                          f"zones of one index, of each player"
                       if zone.get("index2") else None)

    def stmt_announce(self, s, scope, ctx):
        """`announce "TEXT" [to P]`: each {name} of TEXT is a value, checked
        like a name in a formula, at its own column; {{ and }} are braces."""
        line, column = s["text_at"][0], s["text_at"][1] + 1    # past the opening quote
        parts, text, i = [], s["text"], 0
        literal = []
        while i < len(text):
            pair = text[i:i + 2]
            if pair in ("{{", "}}"):
                literal.append(pair[0])
                i += 2
                continue
            if text[i] == "{":
                end = text.find("}", i)
                name = text[i + 1:end] if end > 0 else ""
                if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", name):
                    self.error(InvalidDeclaration, "a placeholder of 'announce' is one name in "
                               "braces: {name}", [line, column + i, line, column + i + 1],
                               hint="work the value out first with 'let NAME = …'; write {{ for a "
                                    "brace")
                    return
                if literal:
                    parts.append({"text": "".join(literal)})
                    literal = []
                node = {"node": "name", "name": name,
                        "at": [line, column + i + 1, line, column + end]}
                self.expr(node, scope)
                parts.append(node)
                i = end + 1
                continue
            if text[i] == "}":
                self.error(InvalidDeclaration, "a '}' of 'announce' closes no placeholder",
                           [line, column + i, line, column + i + 1], hint="write }} for a brace")
                return
            literal.append(text[i])
            i += 1
        if literal:
            parts.append({"text": "".join(literal)})
        s["parts"] = parts
        if s["to"] is not None:
            self.expr(s["to"], scope)

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

    def stmt_do(self, s, scope, ctx):
        for a in s["args"]:
            self.expr(a, scope)
        proc = self.procedures.get(s["name"])
        if proc is None:
            self.error(UnknownName, f"unknown procedure '{s['name']}'", s["name_at"],
                       hint=did_you_mean(s["name"], self.procedures)
                       or "declare it: 'procedure NAME(PARAM: TYPE, …)' and its steps, indented")
            return
        want = proc["params"]
        if len(s["args"]) != len(want):
            self.error(WrongArity, f"procedure '{s['name']}' takes {_arguments(len(want))}, "
                                   f"got {len(s['args'])}", s["at"],
                       hint=f"write do {s['name']}({', '.join(p['name'] for p in want)})"
                       if want else f"write do {s['name']}")
        self.does.setdefault(self._procedure, []).append((s["name"], s["name_at"]))

    def stmt_go_to(self, s, scope, ctx):
        if ctx == "action":
            self.error(InvalidDeclaration, "'go to' is not allowed inside an action", s["at"])
        elif ctx == "procedure":
            self.error(InvalidDeclaration, "'go to' is not allowed inside a procedure", s["at"],
                       hint="a procedure's steps end where it was done: go to the phase "
                            "from the steps after the 'do'")
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
                zone = self.zones[n]
                self.error(WrongArity, f"zone '{n}' is one per {_per(zone)}", e["at"],
                           hint=f"write {n}({', '.join('…' for _ in indices_of(zone))}) to say whose")
            elif kind == "variable" and self.variables.get(n, {}).get("index"):
                var = self.variables[n]
                self.error(WrongArity, f"variable '{n}' is one per {_per(var)}", e["at"],
                           hint=f"write {n}({', '.join('…' for _ in indices_of(var))}) to say whose")
            elif kind == "grid" and self.per_player_grid(n):
                self.error(WrongArity, f"grid '{n}' is one per player", e["at"],
                           hint=f"write {n}(p) to say whose: {n}(me), {n}(current)")
            elif kind == "define" and self.defines[n]["params"]:
                params = self.defines[n]["params"]
                self.error(WrongArity, f"'{n}' takes {_arguments(len(params))}, got none", e["at"],
                           hint=f"write {n}({', '.join(params)})")
        elif n in self.symbols:
            e["node"] = "symbol"
            e["value"] = e.pop("name")
        elif self.attributes_known and n not in self.refused:
            # (a data file that failed may have held the word)
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
            want = len(indices_of(decl))
            if len(args) != want:
                per = " and ".join(f"cell of {i}" if i in self.grids else i for i in indices_of(decl))
                self.error(WrongArity, f"{kind} '{fn}' takes {_arguments(want)}, got {len(args)}",
                           e["at"], hint=f"'{fn}' is one per {per}: write "
                                         f"{fn}({', '.join('…' for _ in indices_of(decl))})" if want
                           else f"write just '{fn}'")
        elif kind == "grid" and self.per_player_grid(fn):
            e["ref"] = "grid"           # a grid of each player: kingdom(p), the cells of p's
            if len(args) != 1:
                self.error(WrongArity, f"grid '{fn}' takes 1 argument, got {len(args)}", e["at"],
                           hint=f"'{fn}' is one per player: write {fn}(p)")
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
            pairwise = _PAIRWISE.get(fn) if len(args) >= 2 else None
            self.error(WrongArity, f"'{fn}' is written {fn}(x in COLLECTION where …)", e["at"],
                       hint=f"of the numbers given, write {pairwise}({', '.join('…' for _ in args)})"
                       f"; {fn}(…) is {AGGREGATES[fn]}" if pairwise else AGGREGATES[fn])
        elif kind is not None:
            self.error(WrongType, f"'{fn}' is a {kind.replace('_', ' ')}, not a function", e["fn_at"],
                       hint=f"write just '{fn}'")
        else:
            known = set(FUNCTIONS) | {n for n, k in self.globals.items() if k in ("zone", "variable", "define")}
            self.error(UnknownName, f"unknown function '{fn}'", e["fn_at"],
                       hint=_OTHER_LANGUAGES.get(fn) or did_you_mean(fn, known))

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

    def expr_range(self, e, scope):
        self.expr(e["low"], scope)
        self.expr(e["high"], scope)

    def expr_attribute(self, e, scope):
        self.expr(e["target"], scope)
        if e["attr"] not in self.attributes and self.attributes_known:
            self.error(UnknownName, f"no component has an attribute '{e['attr']}'", e["attr_at"],
                       hint=did_you_mean(e["attr"], self.attributes))

    def expr_index(self, e, scope):
        self.expr(e["target"], scope)
        self.expr(e["index"], scope)

    def expr_slice(self, e, scope):
        self.expr(e["target"], scope)
        self.expr(e["low"], scope)
        self.expr(e["high"], scope)

    def _expr_pair(self, e, scope):
        self.expr(e["left"], scope)
        self.expr(e["right"], scope)

    expr_otherwise = expr_or = expr_and = expr_compare = expr_arith = _expr_pair

    def expr_not(self, e, scope):
        self.expr(e["operand"], scope)

    expr_negate = expr_not


def _which_wins(part: dict) -> str:
    return ("lowest" if part["lowest"] else "highest") + " score wins"


def _per(decl: dict) -> str:
    """'player', 'player and colour': what the declaration is one per."""
    return " and ".join(indices_of(decl))


# functions other languages have, and how a rulebook writes them instead
_OTHER_LANGUAGES = {
    "range": "the numbers from A to B are written 'A to B': one of 1 to 6, "
             "for each x in 0 to size(row) - 1",
    "len": "write size(C)",
}


def _arguments(k: int) -> str:
    return "1 argument" if k == 1 else f"{k} arguments"


def check(ast: dict, filename: str, base_dir: Path, readable: tuple | None = None) -> dict:
    """AST → IR, or RulebookErrors with every problem found; its data files
    are read from the folders `readable` (default: `files.roots(base_dir)`)."""
    return Checker(filename, base_dir, readable).check(ast)


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

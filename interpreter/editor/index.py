"""Where each name of a rulebook is declared and what it means: the index an
editor's questions are answered from.

`build` parses a rulebook's text into an `Index` (`model`): every
declaration with its place and the line that declares it
(`declarations`: components with their columns and pieces, read from
data files too, a variant's base merged in), and every name the text
writes, resolved with the scopes the checker uses — a `let` to the end of
its block, an action's parameters in the action, a loop's name in its
loop, `p` in the scoring — with the kind of pieces a formula's value is,
where that can be told, for the attributes after `x.`. A text that does
not parse is indexed with its broken lines stood in for (a plain step, or
nothing), so that the names stay while a line is being typed; `refresh`
keeps the last index when even that fails. `answers` answers hover,
definition and completion from an index; nothing here knows the Language
Server Protocol's library.
"""

from __future__ import annotations

import re
from typing import Optional

from ..errors import RulebookError, SyntaxErrorInRulebook
from ..language.syntax import GRAMMAR_DIR, parse
from ..stdlib.builtins import CONSTANTS, FUNCTIONS
from .declarations import Declarations
from .model import END, MANY, ONE, Binding, Decl, Index, Source

REPAIRS = 8           # broken lines stood in for before a text is given up on


def keywords() -> list:
    """The words of the grammar (grammar/rulebook.lark), sorted."""
    grammar = (GRAMMAR_DIR / "rulebook.lark").read_text(encoding="utf-8")
    return sorted(set(re.findall(r'"([a-z_]+)"', grammar)) | {"may"})   # TAKE_VERB "may take"


# -- building an index ---------------------------------------------------------

def refresh(previous: Optional[Index], text: str, path: str) -> Index:
    """The index of `text`, or when it cannot be read even with its broken
    lines stood in for, the last one (marked not fresh)."""
    try:
        index = build(text, path)
    except Exception:  # noqa: BLE001 - an index is a help to the editor, never its failure
        index = None
    if index is not None and (index.fresh or index.names or previous is None):
        return index            # (a repair that left nothing declared is no better)
    if previous is not None:
        previous.fresh = False
        return previous
    return Index(path, Source(text), fresh=False)


def build(text: str, path: str) -> Optional[Index]:
    """The index of a rulebook's text, `path` the file it is (or will be)
    saved as; None when not even a repaired text parses."""
    parsed = _forgiving_parse(text, path)
    if parsed is None:
        return None
    ast, repaired, fresh = parsed
    index = Index(path, Source(text), fresh=fresh)
    _Builder(index, Source(repaired)).run(ast)
    return index


def _forgiving_parse(text: str, path: str):
    """(AST, the text parsed, whether unchanged): a line the parser refuses
    is stood in for by a plain step of its indentation (so that its block
    stays whole), then by nothing."""
    lines = text.split("\n")
    tried: dict = {}
    for attempt in range(REPAIRS + 1):
        candidate = "\n".join(lines)
        try:
            return parse(candidate, path), candidate, attempt == 0
        except SyntaxErrorInRulebook as e:
            if e.span is None or attempt == REPAIRS:
                return None
            n = _culprit(lines, min(max(e.span.line, 1), len(lines)) - 1)
            step = tried.get(n, 0)
            tried[n] = step + 1
            indent = len(lines[n]) - len(lines[n].lstrip())
            if step == 0 and indent:
                lines[n] = lines[n][:indent] + "end game"
            elif step <= 1:
                lines[n] = ""
            else:
                return None
        except RulebookError:
            return None
    return None


def _culprit(lines: list, n: int) -> int:
    """The line to stand in for when the parser stops at line `n`: the line
    that opened a bracket still open there, else `n` (or the last line
    with something on it before it)."""
    depth, opened = 0, None
    for i, line in enumerate(lines[:n]):
        before = depth
        quoted = False
        for ch in line:
            if ch == '"':
                quoted = not quoted
            elif quoted:
                continue
            elif ch == "#":
                break
            elif ch in "([":
                depth += 1
            elif ch in ")]":
                depth = max(depth - 1, 0)
        if before == 0 and depth > 0:
            opened = i
    if depth > 0 and opened is not None:
        return opened
    while n > 0 and not lines[n].strip():
        n -= 1
    return n


class _Builder(Declarations):
    """Fills an Index from an AST: the declarations first (the names every
    body can read), then the bodies with their scopes."""

    # -- the run -----------------------------------------------------------------
    def run(self, ast: dict) -> None:
        items = self.with_base(ast)["items"]
        for item in items:
            getattr(self, "declare_" + item["node"], lambda _: None)(item)
        self.type_columns()
        for item in items:
            if self.mine(item["at"]) or item["node"] == "scoring":
                getattr(self, "body_" + item["node"], lambda _: None)(item)
        seen: set = set()
        self.ix.uses = [u for u in sorted(self.ix.uses, key=lambda u: u.place)
                        if not (u.place in seen or seen.add(u.place))]

    # -- bodies ------------------------------------------------------------------
    def name(self, at, name: str, scope: dict) -> None:
        """A name written in a formula."""
        decl = scope.get(name)
        if decl is None and name in CONSTANTS:
            self.use(at, name, builtin="constant")
            return
        decl = decl or self.ix.names.get(name) or self.ix.values.get(name)
        self.use(at, name, decl)

    def body_option(self, o) -> None:
        pick = o.get("pick")
        if pick:
            self.use(pick["at"], pick["of"], self.ix.names.get(pick["of"]))
            for item in o["default"]["items"]:
                self.use(item["at"], item["value"], self.ix.names.get(item["value"]))

    def body_component(self, c) -> None:
        for h in c["has"]:
            self.use(h["type_at"], h["type"], self.ix.names.get(h["type"]))
            if h["default"] is not None:
                self.expr(h["default"], {})
        for row in c["rows"][1:]:
            for cell in row["cells"]:
                for word in cell.get("items") or [cell]:
                    if word["node"] == "symbol":
                        target = self.ix.names.get(word["value"])
                        if target is None or target.kind != "piece":
                            target = self.ix.values.get(word["value"])
                        self.use(word["at"], word["value"], target)

    def body_zone(self, z) -> None:
        self.use(z["of_at"], z["of"], self.ix.names.get(z["of"]))
        for key in ("index", "index2"):
            if z.get(key) and z.get(key + "_at"):
                self.use(z[key + "_at"], z[key], self.ix.names.get(z[key]))
        attrs = self.ix.attributes(z["of"])
        for key in ("by", "grid", "sides", "hex_x", "hex_y", "shade"):
            if z.get(key) and z.get(key + "_at"):
                self.use(z[key + "_at"], z[key], attrs.get(z[key]) or self.ix.names.get(z[key]))

    def body_grid(self, g) -> None:
        for key in ("shade", "mark"):
            if g.get(key):
                self.use(g[key + "_at"], g[key], self.ix.names.get(g[key]))

    def body_variable(self, v) -> None:
        self.use(v["type_at"], v["type"], self.ix.names.get(v["type"]))
        for key in ("index", "index2"):
            if v.get(key) and v.get(key + "_at"):
                self.use(v[key + "_at"], v[key], self.ix.names.get(v[key]))
        if v["default"] is not None:
            self.expr(v["default"], {})

    def body_define(self, d) -> None:
        name_at = d["name_at"]
        scope: dict = {}
        line, column = name_at[0], name_at[3]
        header = self.lines(self.place(name_at), name_at[0]).split("=")[0].strip()
        for p in d["params"] or ():
            place = self.find(p, line, column)
            line, column = place.line, place.end_column
            decl = Decl(p, "parameter", place, header, f"a parameter of define {d['name']}")
            scope[p] = self.bind(decl, (d["at"][0], 1), (d["at"][2], d["at"][3]))
        self.expr(d["body"], scope)

    def body_setup(self, s) -> None:
        self.block(s["body"], {})

    def body_phase(self, ph) -> None:
        self.block(ph["body"], {})

    def body_action(self, a) -> None:
        body = a.get("body")
        last, indent, stated = self.extent(body) if body else (a["at"][2], 0, a["at"][2])
        header = self.place(a["name_at"])
        me = Decl("me", "local", header, self.lines(header, header.line),
                  f"the player who takes action {a['name']}")
        self.ix.bindings.append(Binding(me, (a["at"][0], 1), (last, END), indent, stated))
        scope = {"me": me}
        for p in a["params"]:
            place = self.place(p["at"], len(p["name"]))
            decl = Decl(p["name"], "parameter", place, self.lines(place, place.line),
                        f"a parameter of action {a['name']}", self.chosen(p["choice"], scope))
            self.choice(p["choice"], scope, decl)
            self.ix.bindings.append(Binding(decl, (p["at"][2], p["at"][3]), (last, END),
                                            indent, stated))
            self.record(decl)
            scope = dict(scope, **{p["name"]: decl})
        if body is not None:
            self.block(body, scope)

    def body_scoring(self, s) -> None:
        mine = [part for part in s["parts"] if self.mine(part["at"])]
        if not mine:
            return
        header = s["at"] if self.mine(s["at"]) else mine[0]["at"]
        p = Decl("p", "local", self.place(header, len("scoring")), "scoring",
                 "the player being scored")
        self.ix.bindings.append(Binding(p, (mine[0]["at"][0], 1), (mine[-1]["at"][2], END)))
        for part in mine:
            scope = {} if part["node"] == "winners" else {"p": p}
            if part.get("expr") is not None:
                self.expr(part["expr"], scope)
            for key in part.get("keys", []):
                self.expr(key["expr"], scope)

    # -- statements ----------------------------------------------------------------
    def block(self, block, scope: dict) -> None:
        """A block's statements; a name a statement binds is in scope after it."""
        scope = dict(scope)
        for stmt in block["stmts"]:
            added = getattr(self, "stmt_" + stmt["node"], self.stmt_parts)(stmt, scope, block)
            if added is not None:
                scope[added.name] = added

    def stmt_parts(self, s, scope: dict, block) -> None:
        """A statement with nothing of its own to name: its formulas and blocks."""
        for value in s.values():
            if isinstance(value, dict) and value.get("node") == "block":
                self.block(value, scope)
            elif isinstance(value, dict) and "node" in value:
                self.expr(value, scope)

    def stmt_let(self, s, scope: dict, block) -> Decl:
        at = s["at"]
        self.expr(s["value"], scope)
        place = self.find(s["name"], at[0], at[1] + len("let"))
        decl = Decl(s["name"], "local", place, self.lines(place, at[2]),
                    "a name of these steps", self.type(s["value"], scope))
        return self.bind(decl, (place.line, place.end_column), block=block)

    def stmt_for_each(self, s, scope: dict, block) -> None:
        self.expr(s["source"], scope)
        place = self.place(s["var_at"])
        decl = Decl(s["var"], "local", place, self.lines(place, place.line),
                    "the name of each in turn", element(self.type(s["source"], scope)))
        self.bind(decl, (place.line, place.end_column), block=s["body"])
        self.block(s["body"], dict(scope, **{s["var"]: decl}))

    def stmt_choose(self, s, scope: dict, block) -> Decl:
        self.expr(s["player"], scope)
        return self._chosen(s, scope, block)

    def stmt_each_chooses(self, s, scope: dict, block) -> Decl:
        self.expr(s["players"], scope)
        at = s["at"]
        place = self.place(s["player_var_at"])
        who = Decl(s["player_var"], "local", place, self.lines(place, place.line),
                   "each player who chooses")
        self.bind(who, (place.line, place.end_column), (at[2], at[3]))
        return self._chosen(s, dict(scope, **{s["player_var"]: who}), block)

    def _chosen(self, s, scope: dict, block) -> Decl:
        """The name a `chooses` binds, to the end of its block."""
        place = self.place(s["var_at"])
        decl = Decl(s["var"], "local", place, self.lines(place, place.line),
                    "what was chosen", self.chosen(s["choice"], scope))
        self.choice(s["choice"], scope, decl)
        return self.bind(decl, (s["at"][2], s["at"][3]), block=block)

    def stmt_take_action(self, s, scope: dict, block) -> None:
        self.expr(s["player"], scope)
        for name, name_at in zip(s["among"] or [], s["among_at"]):
            self.use(name_at, name, self.ix.actions.get(name))

    def stmt_go_to(self, s, scope: dict, block) -> None:
        self.use(s["phase_at"], s["phase"], self.ix.phases.get(s["phase"]))

    def stmt_rotate(self, s, scope: dict, block) -> None:
        self.use(s["zone_at"], s["zone"], self.ix.names.get(s["zone"]))
        self.expr(s["by"], scope)

    def stmt_grant(self, s, scope: dict, block) -> None:
        self.use(s["name_at"], s["name"], self.ix.names.get(s["name"]))
        if s["player"] is not None:
            self.expr(s["player"], scope)

    stmt_spend = stmt_grant

    def stmt_announce(self, s, scope: dict, block) -> None:
        """Each {name} of an announce string, at its own columns (as the checks read them)."""
        line, column = s["text_at"][0], s["text_at"][1] + 1
        text = s["text"].replace("{{", "\0\0").replace("}}", "\0\0")
        for m in re.finditer(r"\{([A-Za-z_][A-Za-z0-9_]*)\}", text):
            self.name([line, column + m.start(1), line, column + m.end(1)], m.group(1), scope)
        if s["to"] is not None:
            self.expr(s["to"], scope)

    def choice(self, c, scope: dict, var: Decl) -> None:
        """A choice's formulas; `one of … where` reads the option as `var`
        (the parameter or the name chosen), one element of the source."""
        self.expr(c["source"], scope)
        for key in ("count", "groups", "size", "kinds"):
            if c.get(key) is not None:
                self.expr(c[key], scope)
        if c.get("where") is not None:
            option = Decl(var.name, var.kind, var.place, var.summary, var.detail,
                          element(self.type(c["source"], scope)))
            self.expr(c["where"], dict(scope, **{var.name: option}))

    def chosen(self, c, scope: dict) -> Optional[tuple]:
        source = self.type(c["source"], scope)
        return element(source) if c["node"] == "choose_one" else source

    # -- formulas ------------------------------------------------------------------
    def expr(self, e, scope: dict) -> None:
        getattr(self, "expr_" + e.get("node", ""), self.expr_parts)(e, scope)

    def expr_parts(self, e, scope: dict) -> None:
        """A formula with no name of its own: the formulas inside it."""
        for value in e.values():
            for v in value if isinstance(value, list) else [value]:
                if isinstance(v, dict) and "node" in v:
                    self.expr(v, scope)

    def expr_name(self, e, scope: dict) -> None:
        self.name(e["at"], e["name"], scope)

    def expr_symbol(self, e, scope: dict) -> None:
        self.name(e["at"], e["value"], scope)

    def expr_call(self, e, scope: dict) -> None:
        fn = e["fn"]
        target = self.ix.names.get(fn)
        if target is not None and target.kind in ("zone", "variable", "permission", "define"):
            self.use(e["fn_at"], fn, target)
        else:
            self.use(e["fn_at"], fn, builtin="function" if fn in FUNCTIONS else None)
        for a in e["args"]:
            self.expr(a, scope)

    def expr_attribute(self, e, scope: dict) -> None:
        self.expr(e["target"], scope)
        of = self.type(e["target"], scope)
        attrs = self.ix.attributes(of[1] if of and of[0] == ONE else None)
        self.use(e["attr_at"], e["attr"], attrs.get(e["attr"]))

    def expr_aggregate(self, e, scope: dict) -> None:
        """`fn(x in C …)`, `fn(VALUE for x in C …)` or `[x in C where …]`: x
        is bound in its parts after the source."""
        at, fn = e["at"], e["fn"]
        bracket = self.texts[self.path].line(at[0])[at[1] - 1:at[1]] == "["
        if not bracket:
            self.use(e["fn_at"], fn, builtin="aggregate")
        self.expr(e["source"], scope)
        if e.get("value") is not None:      # the element is named after the value
            end = e["value"]["at"]
            place = self.find(e["var"], end[2], end[3])
        else:
            start = at if bracket else e["fn_at"]
            place = self.find(e["var"], start[0], start[1] + (0 if bracket else len(fn)))
        decl = Decl(e["var"], "local", place, self.lines(place, place.line),
                    f"each element in {fn}(…)", element(self.type(e["source"], scope)))
        self.bind(decl, (at[0], at[1]), (at[2], at[3]))
        inner = dict(scope, **{e["var"]: decl})
        for key in ("value", "where", "by"):
            if e.get(key) is not None:
                self.expr(e[key], inner)

    # -- kinds of values -----------------------------------------------------------
    def type(self, e, scope: dict, depth: int = 0) -> Optional[tuple]:
        """(ONE | MANY, component type) of a formula's value, when it is pieces."""
        if e is None or depth > 30:
            return None
        typer = getattr(self, "type_" + e.get("node", ""), None)
        return typer(e, scope, depth + 1) if typer else None

    def type_name(self, e, scope: dict, depth: int) -> Optional[tuple]:
        name = e.get("name") or e.get("value")
        return self._type_of(scope.get(name) or self.ix.names.get(name), depth)

    type_symbol = type_name

    def type_call(self, e, scope: dict, depth: int) -> Optional[tuple]:
        if e["fn"] in _ELEMENT_OF and e["args"]:
            return element(self.type(e["args"][0], scope, depth))
        if e["fn"] in _SAME_AS and e["args"]:
            return self.type(e["args"][0], scope, depth)
        return self._type_of(self.ix.names.get(e["fn"]), depth)

    def _type_of(self, decl: Optional[Decl], depth: int) -> Optional[tuple]:
        if decl is None:
            return None
        if decl.kind == "define":
            return self.define_type(decl.name, depth)
        return decl.type

    def type_aggregate(self, e, scope: dict, depth: int) -> Optional[tuple]:
        source = self.type(e["source"], scope, depth)
        if e["fn"] in _ONE_OF:
            return element(source)
        return (MANY, source[1]) if source and e["fn"] in _SOME_OF else None

    def type_attribute(self, e, scope: dict, depth: int) -> Optional[tuple]:
        of = self.type(e["target"], scope, depth)
        decl = self.ix.attributes(of[1]).get(e["attr"]) if of else None
        return decl.type if decl else None

    def type_index(self, e, scope: dict, depth: int) -> Optional[tuple]:
        return element(self.type(e["target"], scope, depth))

    def type_otherwise(self, e, scope: dict, depth: int) -> Optional[tuple]:
        return self.type(e["left"], scope, depth) or self.type(e["right"], scope, depth)

    def type_conditional(self, e, scope: dict, depth: int) -> Optional[tuple]:
        return self.type(e["then"], scope, depth) or self.type(e["otherwise"], scope, depth)

    def type_list(self, e, scope: dict, depth: int) -> Optional[tuple]:
        first = self.type(e["items"][0], scope, depth) if e["items"] else None
        return (MANY, first[1]) if first and first[0] == ONE else None

    def define_type(self, name: str, depth: int) -> Optional[tuple]:
        if name not in self.define_types:
            self.define_types[name] = None        # a define that uses itself: not known
            body = self.define_bodies.get(name)
            self.define_types[name] = self.type(body, {}, depth) if body else None
        return self.define_types[name]


# builtins and aggregates whose value is pieces of the type of their collection
_ELEMENT_OF = {"first", "last", "random"}
_SAME_AS = {"reverse", "distinct"}
_ONE_OF = {"majority", "minority"}
_SOME_OF = {"filter", "sorted", "best", "worst", "unmatched", "matched"}


def element(kind: Optional[tuple]) -> Optional[tuple]:
    """One piece of the type of `kind`."""
    return (ONE, kind[1]) if kind else None

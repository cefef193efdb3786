"""Compile IR expressions to Python closures ``f(state, env) -> value``.

Compilation happens once per player count when a game is created; the
closures read state slots directly, so a formula costs a few function calls
at run time. Each compiled expression also carries a static type (see
`layout`), used to tell identical components apart in choices and to print
values. Dispatch is one method per IR node kind.

Runtime values: numbers, booleans, symbols (str), players (int), components
(int ids), ``None`` and lists. Lists handed out by zones are live: statements
that change zones copy them first.
"""

from __future__ import annotations

from .builtins import FUNCTIONS
from .errors import RuleError, WrongType, span_at
from .layout import (ANY, BOOL, CELL, NONE, NUMBER, PLAYER, SYMBOL, Layout,
                     comp_type, elem, is_comp, list_of)


_NO_VALUE = object()      # in a composed attribute table: the first attribute is no component


class Compiled:
    """A compiled expression: the closure, its type, and its source span."""

    __slots__ = ("fn", "type", "at", "const", "lookup", "local", "strict_bool")

    def __init__(self, fn, type_, at, const=None, lookup=None, local=None, strict_bool=False):
        self.fn, self.type, self.at = fn, type_, at
        # (value,) when the value is known while compiling (options, tables,
        # literals): 'and', 'or', 'not' and 'if … else' fold on it, so a
        # variant switch costs nothing at run time
        self.const = const
        # (column, base, attr) when the value is column[base's value], a
        # component attribute that never changes: c.kind.is_colour reads one
        # table (attr: the attribute named when an entry fails, see _NO_VALUE)
        self.lookup = lookup
        self.local = local        # the name, when this is a local name
        self.strict_bool = strict_bool    # the value is always True or False


def _table_read(column: list, base: Compiled, attr: str):
    """The closure reading column[base's value], where column is a static
    table indexed by component id (entries _NO_VALUE fail as x.a.b would)."""
    bf, n = base.fn, base.local
    if any(v is _NO_VALUE for v in column):
        def failed(x):
            raise TypeError(f"'{attr}' of {x!r}: its attribute is no component")
        if n is not None:
            def read_local(s, env):
                v = column[env[n]]
                return failed(env[n]) if v is _NO_VALUE else v
            return read_local

        def read(s, env):
            x = bf(s, env)
            v = column[x]
            return failed(x) if v is _NO_VALUE else v
        return read
    if n is not None:
        return lambda s, env: column[env[n]]
    return lambda s, env: column[bf(s, env)]


_BRANCH = object()     # in a merged conditional's table: evaluate the branch


def _merged_conditional(cond: Compiled, then: Compiled, other: Compiled, t, at):
    """`A if C else B` where C is a static table of a local name x and A or
    B is a constant or a static table of x too: one table says, per
    component, the value or that the other branch must be evaluated."""
    if cond.lookup is None or cond.lookup[1].local is None:
        return None
    column, base, attr = cond.lookup
    n = base.local

    def part(c):
        if c.const is not None:
            return [c.const[0]] * len(column)
        if c.lookup is not None and c.lookup[1].local == n and len(c.lookup[0]) == len(column) \
                and not any(v is _NO_VALUE for v in c.lookup[0]):
            return c.lookup[0]
        return None
    yes, no = part(then), part(other)
    if yes is None and no is None:
        return None
    table = [_NO_VALUE if c is _NO_VALUE else
             (yes[i] if yes is not None else _BRANCH) if c else
             (no[i] if no is not None else _BRANCH)
             for i, c in enumerate(column)]
    if yes is not None and no is not None:
        return Compiled(_table_read(table, base, attr), t, at, lookup=(table, base, attr))
    branch = (other if yes is not None else then).fn
    failing = _table_read(table, base, attr)

    def read(s, env):
        v = table[env[n]]
        if v is _BRANCH:
            return branch(s, env)
        return failing(s, env) if v is _NO_VALUE else v
    return Compiled(read, t, at)


def _mapped(column: list, f) -> list:
    """f of every entry of a static table, keeping the entries that fail."""
    return [_NO_VALUE if v is _NO_VALUE else f(v) for v in column]


class ExprCompiler:
    def __init__(self, ir: dict, lay: Layout, options: dict, table: dict):
        self.ir = ir
        self.lay = lay
        self.options = options
        self.option_picks = {o["name"]: o["pick"]["of"] for o in ir["options"] if o.get("pick")}
        self.table = table        # name -> value for this player count
        self.players = list(range(lay.n))
        self.defines = {d["name"]: d for d in ir["defines"]}
        self.compiled_defines: dict = {}
        self.define_types: dict = {}
        self.errors: list = []      # type errors found while compiling, reported together
        self._inline_cache: dict = {}   # (define, renames) -> its body compiled in place
        self._costly_defines: dict = {}

    # -- static type checks -----------------------------------------------------
    def type_error(self, message, e, hint=None):
        self.errors.append(WrongType(message, span_at(self.ir["file"], e["at"]), hint))

    def condition(self, e, scope) -> Compiled:
        """A formula used as yes/no. Anything else is a mistake: a component
        or a player is a number at run time, and the first one would read as no."""
        c = self.compile(e, scope)
        fam = family(c.type)
        if fam not in (None, "bool"):
            self.type_error(f"a condition must be yes or no, but this is {describe(c.type)}", e,
                            hint="compare it: x != none, size(c) > 0, contains(c, x)")
        return c

    def _columns(self, kind) -> set:
        for comp in self.ir["components"]:
            if comp["name"] == kind:
                return {c for c in comp["columns"] if c != "copies"} | {h["name"] for h in comp["has"]}
        return set()

    def compile(self, e: dict, scope: dict) -> Compiled:
        """scope: local name -> type."""
        return getattr(self, "e_" + e["node"])(e, scope)

    # -- literals ------------------------------------------------------------
    def _const(self, value, type_, at):
        return Compiled(lambda s, env: value, type_, at, (value,))

    def e_number(self, e, scope):
        return self._const(e["value"], NUMBER, e["at"])

    def e_string(self, e, scope):
        return self._const(e["value"], SYMBOL, e["at"])

    def e_symbol(self, e, scope):
        return self._const(e["value"], SYMBOL, e["at"])

    def e_bool(self, e, scope):
        return self._const(e["value"], BOOL, e["at"])

    def e_none(self, e, scope):
        return self._const(None, NONE, e["at"])

    def e_component(self, e, scope):
        cid = self.lay.instances[e["value"]]
        return self._const(cid, comp_type(self.lay.type_of[cid]), e["at"])

    def e_list(self, e, scope):
        items = [self.compile(x, scope) for x in e["items"]]
        fns = [c.fn for c in items]
        t = items[0].type if items else ANY
        return Compiled(lambda s, env: [f(s, env) for f in fns], list_of(t), e["at"])

    # -- names ---------------------------------------------------------------
    def e_name(self, e, scope):
        n, ref, lay = e["name"], e["ref"], self.lay
        if ref == "local":
            return Compiled(lambda s, env: env[n], scope.get(n, ANY), e["at"], local=n)
        if ref == "constant":
            if n == "players":
                players = self.players
                return Compiled(lambda s, env: players, list_of(PLAYER), e["at"])
            if n == "player_count":
                return self._const(lay.n, NUMBER, e["at"])
            if n == "round":
                return Compiled(lambda s, env: s.round, NUMBER, e["at"])
            if n == "turn":
                return Compiled(lambda s, env: s.turn, NUMBER, e["at"])
            slot = lay.slot_current
            return Compiled(lambda s, env: s.vars[slot], PLAYER, e["at"])
        if ref == "option":
            value = self.options[n]
            pick = self.option_picks.get(n)
            if pick is not None:        # K named pieces of a type: their components
                cids = [lay.instances[v] for v in value]
                return Compiled(lambda s, env: cids, list_of(comp_type(pick)), e["at"])
            return self._const(value, _type_of_value(value), e["at"])
        if ref == "table":
            value = self.table[n]
            return self._const(value, _type_of_value(value), e["at"])
        if ref == "define":
            body = self.define(n)
            if body.const is not None:
                return self._const(body.const[0], body.type, e["at"])
            f = body.fn
            if self._costly(n):
                return Compiled(memoized(n, lambda s, env: f(s, {}), ()), body.type, e["at"])
            return Compiled(lambda s, env: f(s, {}), body.type, e["at"])
        if ref == "component_type":
            first, count = lay.types[n]
            cids = list(range(first, first + count))
            return Compiled(lambda s, env: cids, list_of(comp_type(n)), e["at"])
        if ref == "component":
            return self.e_component({"value": n, "at": e["at"]}, scope)
        if ref == "zone":
            idx = lay.zones[n].base
            return Compiled(lambda s, env: s.zones[idx], list_of(comp_type(lay.zones[n].of)), e["at"])
        if ref == "variable":
            v = lay.variables[n]
            slot = v.base
            return Compiled(lambda s, env: s.vars[slot], v.type, e["at"])
        if ref == "grid":
            cells = lay.grids[n].cells
            return Compiled(lambda s, env: cells, list_of(CELL), e["at"])
        raise AssertionError(f"unresolved name {n} ({ref})")

    def define(self, name) -> Compiled:
        if name in self.compiled_defines:
            return self.compiled_defines[name]
        d = self.defines[name]
        if name in self.define_types:   # a define that uses itself
            raise RuleError(f"'{name}' is defined in terms of itself", code="rulebook/recursion")
        self.define_types[name] = ANY
        params = d["params"] or []
        c = self.compile(d["body"], {p: ANY for p in params})
        if not params and c.const is None and _has_aggregate(d["body"]) and self._reads_no_state(d["body"]):
            # a formula of fixed things only (a grid's cells, component types,
            # options): worked out once here, not at every use
            try:
                value = c.fn(None, {})
            except Exception:      # noqa: BLE001 - it fails when used, with its line
                value = _UNSET
            if value is not _UNSET:
                frozen = value
                c = Compiled(lambda s, env: frozen, c.type, c.at, (frozen,))
        self.compiled_defines[name] = c
        return c

    def _reads_no_state(self, node) -> bool:
        """Whether a formula reads nothing that changes during a game: no zone,
        variable, `has` attribute, round, turn or current player, no random
        draw, and only defines that read no state either."""
        if isinstance(node, list):
            return all(self._reads_no_state(x) for x in node)
        if not isinstance(node, dict):
            return True
        kind, ref = node.get("node"), node.get("ref")
        if ref in ("zone", "variable"):
            return False
        if ref == "constant" and node.get("name") in ("round", "turn", "current"):
            return False
        if kind == "attribute" and node.get("attr") in self.lay.has:
            return False
        if kind == "call" and ref == "builtin" and node.get("fn") == "random":
            return False
        if ref == "define":
            name = node.get("name") if kind == "name" else node.get("fn")
            if self.defines[name]["params"] or not self._reads_no_state(self.defines[name]["body"]):
                return False
        return all(self._reads_no_state(v) for k, v in node.items() if k != "at")

    def _costly(self, name) -> bool:
        """Whether a define's body loops over a collection (an aggregate), so
        that its calls are worth remembering while legal actions are listed."""
        costly = self._costly_defines.get(name)
        if costly is None:
            costly = self._costly_defines[name] = _has_aggregate(self.defines[name]["body"])
        return costly

    def _inlined(self, name, renames: dict):
        """The body of define `name` compiled in place, for a call whose
        arguments are all local names: each parameter reads its argument's
        name (`renames`) in the caller's locals, so the call builds no dict
        of its own. None when a name the body binds (an aggregate's
        element) is a parameter or an argument: renaming would capture it.
        The define itself is compiled first (`define`), so its type errors
        are reported once, there."""
        d = self.defines[name]
        if len(renames) != len(d["params"]) or \
                _binders(d["body"]) & (set(renames) | set(renames.values())):
            return None
        cache = self._inline_cache
        key = (name, tuple(sorted(renames.items())))
        if key not in cache:
            errors = len(self.errors)
            cache[key] = self.compile(_renamed(d["body"], renames),
                                      {n: ANY for n in renames.values()})
            del self.errors[errors:]
        return cache[key]

    def e_call(self, e, scope):
        fn, ref, lay = e["fn"], e["ref"], self.lay
        args = [self.compile(a, scope) for a in e["args"]]
        afns = [a.fn for a in args]
        if ref == "zone":
            z = lay.zones[fn]
            base, index = z.base, z.index
            a0 = afns[0]
            t = list_of(comp_type(z.of))
            if index == "player":
                n0 = args[0].local
                if n0 is not None:           # the common zone(p): one call less
                    return Compiled(lambda s, env: s.zones[base + env[n0]], t, e["at"])
                return Compiled(lambda s, env: s.zones[base + a0(s, env)], t, e["at"])
            first = lay.types[index][0]
            return Compiled(lambda s, env: s.zones[base + a0(s, env) - first], t, e["at"])
        if ref == "variable" and lay.variables[fn].index in lay.grids:
            v = lay.variables[fn]
            if args[0].type not in (CELL, ANY):
                self.type_error(f"'{fn}' is one per cell of grid '{v.index}'; "
                                f"{describe(args[0].type)} is not a cell", e,
                                hint="write a cell: cell(x, y), or a cell of the grid")
            base, a0, positions = v.base, afns[0], lay.grids[v.index].positions
            n0 = args[0].local
            if n0 is not None:               # the common V(c) of an element
                return Compiled(lambda s, env: s.vars[base + positions[env[n0]]], v.type, e["at"])
            return Compiled(lambda s, env: s.vars[base + positions[a0(s, env)]], v.type, e["at"])
        if ref == "variable":
            v = lay.variables[fn]
            base, a0 = v.base, afns[0]
            offset = 0 if v.index == "player" else lay.types[v.index][0]
            n0 = args[0].local
            if n0 is not None and offset == 0:
                return Compiled(lambda s, env: s.vars[base + env[n0]], v.type, e["at"])
            return Compiled(lambda s, env: s.vars[base + a0(s, env) - offset], v.type, e["at"])
        if ref == "define":
            body = self.define(fn)
            if body.const is not None:       # e.g. a rule switched off by an option
                return self._const(body.const[0], body.type, e["at"])
            params = self.defines[fn]["params"]
            bfn = body.fn
            if len(params) == 1:
                p0, a0 = params[0], afns[0]
                if body.lookup is not None and body.lookup[1].local == p0:
                    # the body is a static table of its parameter: read it here
                    column, _, attr = body.lookup
                    return Compiled(_table_read(column, args[0], attr), body.type, e["at"],
                                    lookup=(column, args[0], attr),
                                    strict_bool=body.strict_bool)
                n0 = args[0].local
                costly = self._costly(fn)
                if n0 is not None:
                    inlined = self._inlined(fn, {p0: n0})
                    if inlined is not None:
                        if costly and inlined.const is None:
                            return Compiled(memoized(fn, inlined.fn, (a0,)), body.type, e["at"],
                                            strict_bool=inlined.strict_bool)
                        return Compiled(inlined.fn, body.type, e["at"], inlined.const,
                                        inlined.lookup, inlined.local, inlined.strict_bool)
                    call = lambda s, env: bfn(s, {p0: env[n0]})          # noqa: E731
                else:
                    call = lambda s, env: bfn(s, {p0: a0(s, env)})       # noqa: E731
                if costly:
                    call = memoized(fn, call, (a0,))
                return Compiled(call, body.type, e["at"], strict_bool=body.strict_bool)
            costly = self._costly(fn)
            if params and all(a.local is not None for a in args):
                inlined = self._inlined(fn, {p: a.local for p, a in zip(params, args)})
                if inlined is not None:
                    if costly and inlined.const is None:
                        return Compiled(memoized(fn, inlined.fn, tuple(afns)), body.type, e["at"],
                                        strict_bool=inlined.strict_bool)
                    return Compiled(inlined.fn, body.type, e["at"], inlined.const,
                                    inlined.lookup, inlined.local, inlined.strict_bool)
            call = lambda s, env: bfn(s, dict(zip(params, [a(s, env) for a in afns])))   # noqa: E731
            if costly:
                call = memoized(fn, call, tuple(afns))
            return Compiled(call, body.type, e["at"])
        impl = FUNCTIONS[fn].impl
        t = FUNCTIONS[fn].result_type([a.type for a in args])
        if fn == "contains" and len(args) == 2:
            a, b = family(elem(args[0].type)), family(args[1].type)
            if a and b and a != b and not {a, b} <= {"player", "number"}:
                self.type_error(f"contains() looks for {describe(args[1].type)} in a list of "
                                f"{plural(elem(args[0].type))}", e)
        if len(afns) == 1:
            a0, n0 = afns[0], args[0].local
            if n0 is not None:
                return Compiled(lambda s, env: impl(s, env[n0]), t, e["at"])
            return Compiled(lambda s, env: impl(s, a0(s, env)), t, e["at"])
        return Compiled(lambda s, env: impl(s, *[a(s, env) for a in afns]), t, e["at"])

    # -- attributes and indexing ----------------------------------------------
    def e_attribute(self, e, scope):
        target = self.compile(e["target"], scope)
        tf, attr, lay = target.fn, e["attr"], self.lay
        if target.type in (PLAYER, NUMBER, BOOL, SYMBOL, NONE) or target.type.startswith("list:"):
            what = "a list" if target.type.startswith("list:") else f"a {target.type}"
            self.errors.append(WrongType(
                f"'.{attr}' reads a component's attribute, but this is {what}",
                span_at(self.ir["file"], e["at"]),
                hint="attributes belong to components: c.value, c.owner"))
        elif is_comp(target.type) and target.type != comp_type(None):
            kind = target.type[5:]
            first, count = lay.types[kind]
            has_it = any(lay.static.get(attr, [None] * lay.ncomponents)[c] is not None
                         or lay.has.get(attr, [-1] * lay.ncomponents)[c] >= 0
                         for c in range(first, first + count))
            if count and not has_it and attr not in self._columns(kind):
                self.errors.append(WrongType(
                    f"a {kind} has no attribute '{attr}'", span_at(self.ir["file"], e["at"]),
                    hint=f"{kind} has: {', '.join(sorted(self._columns(kind))) or 'no attributes'}"))
        static = lay.static.get(attr)
        has = lay.has.get(attr)
        if has is None:
            t = lay.static_type.get(attr, ANY)
            if target.lookup is not None:
                return self._composed(target, static, attr, t, e["at"])
            if target.local is not None:
                n = target.local                       # the common c.attr: one call less
                return Compiled(lambda s, env: static[env[n]], t, e["at"],
                                lookup=(static, target, attr))
            return Compiled(lambda s, env: static[tf(s, env)], t, e["at"],
                            lookup=(static, target, attr))
        t = lay.has_type.get(attr, ANY)
        if static is None:
            return Compiled(lambda s, env: s.vars[has[tf(s, env)]], t, e["at"])

        def either(s, env):
            cid = tf(s, env)
            slot = has[cid]
            return s.vars[slot] if slot >= 0 else static[cid]
        return Compiled(either, ANY, e["at"])

    def _composed(self, target: Compiled, outer: list, attr: str, t, at) -> Compiled:
        """x.a.b where both attributes never change: one table, b of a of x.
        A component whose a is not a component fails as x.a.b would."""
        inner, base, _ = target.lookup
        column = [outer[v] if isinstance(v, int) and not isinstance(v, bool) else _NO_VALUE
                  for v in inner]
        return Compiled(_table_read(column, base, attr), t, at, lookup=(column, base, attr))

    def e_index(self, e, scope):
        target = self.compile(e["target"], scope)
        index = self.compile(e["index"], scope)
        tf, xf = target.fn, index.fn
        nt, nx = target.local, index.local
        if nt is not None and nx is not None:
            return Compiled(lambda s, env: env[nt][env[nx]], elem(target.type), e["at"])
        if nx is not None:
            return Compiled(lambda s, env: tf(s, env)[env[nx]], elem(target.type), e["at"])
        return Compiled(lambda s, env: tf(s, env)[xf(s, env)], elem(target.type), e["at"])

    # -- operators -------------------------------------------------------------
    def e_otherwise(self, e, scope):
        left, right = self.compile(e["left"], scope), self.compile(e["right"], scope)
        lf, rf = left.fn, right.fn

        def otherwise(s, env):
            v = lf(s, env)
            return rf(s, env) if v is None or (isinstance(v, list) and not v) else v
        return Compiled(otherwise, left.type if left.type != NONE else right.type, e["at"])

    def e_conditional(self, e, scope):
        then = self.compile(e["then"], scope)
        cond = self.condition(e["cond"], scope)
        other = self.compile(e["otherwise"], scope)
        t = then.type if then.type == other.type or other.type == NONE else (
            other.type if then.type == NONE else ANY)
        if cond.const is not None:
            chosen = then if cond.const[0] else other
            return Compiled(chosen.fn, t, e["at"], chosen.const, chosen.lookup, chosen.local,
                            chosen.strict_bool)
        if cond.lookup is not None and then.const is not None and other.const is not None:
            # a static condition choosing between constants: one table
            column, base, attr = cond.lookup
            a, b = then.const[0], other.const[0]
            table = _mapped(column, lambda x: a if x else b)
            return Compiled(_table_read(table, base, attr), t, e["at"],
                            lookup=(table, base, attr))
        merged = _merged_conditional(cond, then, other, t, e["at"])
        if merged is not None:
            return merged
        tf, of, cf = then.fn, other.fn, cond.fn
        return Compiled(lambda s, env: tf(s, env) if cf(s, env) else of(s, env), t, e["at"])

    def _logic(self, e, scope, is_and: bool):
        left, right = self.condition(e["left"], scope), self.condition(e["right"], scope)
        for known, other in ((left, right), (right, left)):
            if known.const is not None:
                if bool(known.const[0]) != is_and:     # False and …, True or …
                    return self._const(not is_and, BOOL, e["at"])
                if other.strict_bool and other.const is None:
                    return Compiled(other.fn, BOOL, e["at"], None, other.lookup, None, True)
                of = other.fn
                return Compiled(lambda s, env: bool(of(s, env)), BOOL, e["at"],
                                None if other.const is None else (bool(other.const[0]),),
                                strict_bool=True)
        lf, rf = left.fn, right.fn
        # yes/no even when a side is none (an unset yes/no variable)
        if is_and:
            if left.strict_bool and right.strict_bool:
                return Compiled(lambda s, env: lf(s, env) and rf(s, env), BOOL, e["at"],
                                strict_bool=True)
            return Compiled(lambda s, env: bool(lf(s, env) and rf(s, env)), BOOL, e["at"],
                            strict_bool=True)
        if left.strict_bool and right.strict_bool:
            return Compiled(lambda s, env: lf(s, env) or rf(s, env), BOOL, e["at"],
                            strict_bool=True)
        return Compiled(lambda s, env: bool(lf(s, env) or rf(s, env)), BOOL, e["at"],
                        strict_bool=True)

    def e_or(self, e, scope):
        return self._logic(e, scope, False)

    def e_and(self, e, scope):
        return self._logic(e, scope, True)

    def e_not(self, e, scope):
        operand = self.condition(e["operand"], scope)
        if operand.const is not None:
            return self._const(not operand.const[0], BOOL, e["at"])
        if operand.lookup is not None:
            column, base, attr = operand.lookup
            table = _mapped(column, lambda x: not x)
            return Compiled(_table_read(table, base, attr), BOOL, e["at"],
                            lookup=(table, base, attr), strict_bool=True)
        f = operand.fn
        return Compiled(lambda s, env: not f(s, env), BOOL, e["at"], strict_bool=True)

    def e_negate(self, e, scope):
        f = self.compile(e["operand"], scope).fn
        return Compiled(lambda s, env: -f(s, env), NUMBER, e["at"])

    def e_compare(self, e, scope):
        left, right = self.compile(e["left"], scope), self.compile(e["right"], scope)
        lf, rf, op = left.fn, right.fn, e["op"]
        a, b = family(left.type), family(right.type)
        if a and b and a != b and not {a, b} <= {"player", "number"}:
            self.type_error(f"compares {describe(left.type)} with {describe(right.type)}", e,
                            hint="both sides of a comparison must be of one kind")
        elif op not in ("==", "!=") and (a in ("component", "list", "bool") or
                                         b in ("component", "list", "bool")):
            self.type_error(f"'{op}' orders numbers, not {describe(left.type if a != 'number' else right.type)}", e)
        if left.const is not None and right.const is not None:
            try:
                return self._const(_COMPARE[op](left.const[0], right.const[0]), BOOL, e["at"])
            except TypeError:
                pass           # reported when it runs, with the statement's span
        at = e["at"]
        if right.const is not None and op in ("==", "!="):
            v = right.const[0]        # the common x == constant: one call less
            if left.lookup is not None:
                # a static attribute against a constant: one table of yes/no
                column, base, attr = left.lookup
                table = _mapped(column, (lambda x: x == v) if op == "==" else (lambda x: x != v))
                return Compiled(_table_read(table, base, attr), BOOL, at,
                                lookup=(table, base, attr), strict_bool=True)
            n = left.local
            if op == "==":
                if n is not None:
                    return Compiled(lambda s, env: env[n] == v, BOOL, at, strict_bool=True)
                return Compiled(lambda s, env: lf(s, env) == v, BOOL, at, strict_bool=True)
            if n is not None:
                return Compiled(lambda s, env: env[n] != v, BOOL, at, strict_bool=True)
            return Compiled(lambda s, env: lf(s, env) != v, BOOL, at, strict_bool=True)
        if op == "==":
            if right.local is not None:
                rn = right.local
                return Compiled(lambda s, env: lf(s, env) == env[rn], BOOL, at, strict_bool=True)
            return Compiled(lambda s, env: lf(s, env) == rf(s, env), BOOL, at, strict_bool=True)
        if op == "!=":
            if right.local is not None:
                rn = right.local
                return Compiled(lambda s, env: lf(s, env) != env[rn], BOOL, at, strict_bool=True)
            return Compiled(lambda s, env: lf(s, env) != rf(s, env), BOOL, at, strict_bool=True)
        if op == "<":
            return Compiled(lambda s, env: lf(s, env) < rf(s, env), BOOL, at, strict_bool=True)
        if op == "<=":
            return Compiled(lambda s, env: lf(s, env) <= rf(s, env), BOOL, at, strict_bool=True)
        if op == ">":
            return Compiled(lambda s, env: lf(s, env) > rf(s, env), BOOL, at, strict_bool=True)
        return Compiled(lambda s, env: lf(s, env) >= rf(s, env), BOOL, at, strict_bool=True)

    def e_arith(self, e, scope):
        left, right = self.compile(e["left"], scope), self.compile(e["right"], scope)
        lf, rf, op = left.fn, right.fn, e["op"]
        for side in (left, right):
            if family(side.type) in ("component", "list", "bool", "symbol"):
                self.type_error(f"'{op}' works on numbers, not on {describe(side.type)}", e)
                break
        if op == "+":
            return Compiled(lambda s, env: lf(s, env) + rf(s, env), NUMBER, e["at"])
        if op == "-":
            return Compiled(lambda s, env: lf(s, env) - rf(s, env), NUMBER, e["at"])
        if op == "*":
            return Compiled(lambda s, env: lf(s, env) * rf(s, env), NUMBER, e["at"])
        if op == "//":
            return Compiled(lambda s, env: _floordiv(lf(s, env), rf(s, env)), NUMBER, e["at"])
        return Compiled(lambda s, env: _mod(lf(s, env), rf(s, env)), NUMBER, e["at"])

    # -- aggregates ------------------------------------------------------------
    def e_aggregate(self, e, scope):
        fn, var = e["fn"], e["var"]
        source = self.compile(e["source"], scope)
        inner = dict(scope)
        inner[var] = elem(source.type)
        sf = source.fn
        where = e["where"]
        # 'all' reads WHERE as what every element must pass, not as a filter
        picked = self._selection(where, var, source, inner) if fn != "all" else None
        if picked is not None:          # x.attr == v [and …]: select by the column first
            sf, where = picked
        where = self.condition(where, inner) if where is not None else None
        if where is not None and where.const is not None and where.const[0]:
            where = None            # a condition an option switched on keeps every element
        wf = _of_element(where, var) if where is not None else None
        value = self.compile(e["value"], inner) if e["value"] is not None else None
        vf = _of_element(value, var) if value else None
        bf = _of_element(self.compile(e["by"], inner), var) if e["by"] is not None else None
        item_t = elem(source.type)
        maker = _AGGREGATE_MAKERS[fn]
        run, t = maker(sf, var, wf, vf, bf, item_t, value.type if value else item_t)
        return Compiled(run, t, e["at"])


    def _selection(self, where, var, source: Compiled, scope):
        """(source, rest of WHERE) when WHERE starts with tests that need no
        scope per element — `var.ATTR == V` (V not reading var nor drawing:
        worked out once, the attribute's column read) and `[not]
        is_empty(ZONE(var))` for a zone of each element (the zone list read)
        — so the elements are picked by a plain loop first."""
        item = elem(source.type)
        if where is None or not is_comp(item) or item == comp_type(None):
            return None
        tests = _conjuncts(where)
        sf, used = source.fn, 0
        for test in tests:
            narrowed = self._narrowed(test, var, item, sf, scope)
            if narrowed is None:
                break
            sf, used = narrowed, used + 1
        if not used:
            return None
        return sf, _conjunction(tests[used:])

    def _narrowed(self, test, var, item, src, scope):
        """`src` filtered by one test of the element, or None."""
        lay = self.lay
        first, count = lay.types[item[5:]]
        negate = test["node"] == "not"
        inner = test["operand"] if negate else test
        if inner["node"] == "call" and inner.get("fn") == "is_empty" and len(inner["args"]) == 1:
            z = inner["args"][0]
            if not (z["node"] == "call" and z.get("ref") == "zone" and len(z["args"]) == 1
                    and _is_local(z["args"][0], var)):
                return None
            slot = lay.zones[z["fn"]]
            if slot.index != item[5:]:
                return None
            self.compile(test, scope)             # the usual checks
            base = slot.base - first
            if negate:
                return lambda s, env: [x for x in src(s, env) if s.zones[base + x]]
            return lambda s, env: [x for x in src(s, env) if not s.zones[base + x]]
        if test["node"] != "compare" or test["op"] != "==":
            return None
        left, right = test["left"], test["right"]
        if not (left["node"] == "attribute" and _is_local(left["target"], var)):
            return None
        if var in names_read(right) or draws(right):
            return None
        attr = left["attr"]
        static, has = lay.static.get(attr), lay.has.get(attr)
        self.compile(test, scope)             # the usual kind checks of the comparison
        vf = self.compile(right, scope).fn
        if has is not None and all(has[c] >= 0 for c in range(first, first + count)):
            def select(s, env):
                v = vf(s, env)
                vars_ = s.vars
                return [x for x in src(s, env) if vars_[has[x]] == v]
            return select
        if has is None and static is not None:
            def select_static(s, env):
                v = vf(s, env)
                return [x for x in src(s, env) if static[x] == v]
            return select_static
        return None


def memoized(name: str, fn, argfns: tuple):
    """A define call that, while the state's `memo` is on (legal actions are
    being listed, so the state cannot change), remembers its value by
    define and arguments: a parameter's options evaluated once for each
    earlier choice (a piece, then a turn) then work out a board-wide formula
    once. Arguments that cannot be keys (lists) are not remembered."""
    if not argfns:
        key0 = (name,)

        def call0(s, env):
            memo = s.memo
            if memo is None:
                return fn(s, env)
            found = memo.get(key0, _UNSET)
            if found is _UNSET:
                found = memo[key0] = fn(s, env)
            return found
        return call0

    def call(s, env):
        memo = s.memo
        if memo is None:
            return fn(s, env)
        key = (name,) + tuple(a(s, env) for a in argfns)
        try:
            found = memo.get(key, _UNSET)
        except TypeError:           # a list argument
            return fn(s, env)
        if found is _UNSET:
            found = memo[key] = fn(s, env)
        return found
    return call


_UNSET = object()


def _has_aggregate(node) -> bool:
    if isinstance(node, dict):
        return node.get("node") == "aggregate" or any(_has_aggregate(v) for v in node.values())
    if isinstance(node, list):
        return any(_has_aggregate(v) for v in node)
    return False


def _is_local(node, var) -> bool:
    return node["node"] == "name" and node["name"] == var and node.get("ref") == "local"


def _conjuncts(node) -> list:
    """The tests of `a and b and c`, in order."""
    if node["node"] == "and":
        return _conjuncts(node["left"]) + _conjuncts(node["right"])
    return [node]


def _conjunction(tests: list):
    """The `and` of tests (None for none), as the parser nests it."""
    if not tests:
        return None
    out = tests[0]
    for t in tests[1:]:
        out = {"node": "and", "left": out, "right": t, "at": out["at"]}
    return out


def names_read(node, local_only: bool = False) -> set:
    """The names an IR subtree reads (only the local ones if asked)."""
    if isinstance(node, dict):
        found = set()
        if node.get("node") == "name" and (not local_only or node.get("ref") == "local"):
            found.add(node["name"])
        for v in node.values():
            if isinstance(v, (dict, list)):
                found |= names_read(v, local_only)
        return found
    if isinstance(node, list):
        return set().union(*(names_read(v, local_only) for v in node)) if node else set()
    return set()


def draws(node) -> bool:
    """Whether an IR subtree calls a builtin that draws from the generator
    (defines cannot: the checks keep them pure)."""
    if isinstance(node, dict):
        if node.get("node") == "call" and node.get("fn") in FUNCTIONS \
                and FUNCTIONS[node["fn"]].random:
            return True
        return any(draws(v) for v in node.values() if isinstance(v, (dict, list)))
    if isinstance(node, list):
        return any(draws(v) for v in node)
    return False


class _Column:
    """An aggregate's WHERE, VALUE or BY that is a static table of the
    element (c.kind == some_kind): the loop reads the table, no local names."""

    __slots__ = ("fn", "column")

    def __init__(self, fn, column):
        self.fn, self.column = fn, column


def _of_element(c: Compiled, var: str):
    """The closure, or a `_Column` when `c` is column[var] (and no entry fails)."""
    if c.lookup is not None and c.lookup[1].local == var \
            and not any(v is _NO_VALUE for v in c.lookup[0]):
        return _Column(c.fn, c.lookup[0])
    return c.fn


def _split(f):
    """(closure, table or None) of a WHERE/VALUE/BY."""
    if type(f) is _Column:
        return f.fn, f.column
    return f, None


def _binders(node) -> set:
    """The names an IR subtree binds (aggregates' elements)."""
    out = set()
    if isinstance(node, dict):
        if node.get("node") == "aggregate":
            out.add(node["var"])
        for v in node.values():
            if isinstance(v, (dict, list)):
                out |= _binders(v)
    elif isinstance(node, list):
        for v in node:
            out |= _binders(v)
    return out


def _renamed(node, renames: dict):
    """A copy of an IR subtree whose local names are renamed."""
    if isinstance(node, dict):
        if node.get("node") == "name" and node.get("ref") == "local" and node["name"] in renames:
            return {**node, "name": renames[node["name"]]}
        return {k: _renamed(v, renames) if isinstance(v, (dict, list)) else v
                for k, v in node.items()}
    if isinstance(node, list):
        return [_renamed(v, renames) for v in node]
    return node


def _agg_count(sf, var, wf, vf, bf, item_t, value_t):
    if wf is None:
        return (lambda s, env: len(sf(s, env))), NUMBER
    wf, wt = _split(wf)
    if wt is not None:
        return (lambda s, env: len([x for x in sf(s, env) if wt[x]])), NUMBER

    def count(s, env):
        inner = dict(env)
        k = 0
        for x in sf(s, env):
            inner[var] = x
            if wf(s, inner):
                k += 1
        return k
    return count, NUMBER


def _values(sf, var, wf, vf, paired=False):
    """The kept elements' values (the elements themselves without VALUE);
    `paired` gives (value, element) pairs. One loop per shape: this runs for
    every list a formula builds."""
    wf, wt = _split(wf)
    vf, vt = _split(vf)
    if wt is not None and vf is None and not paired:
        return lambda s, env: [x for x in sf(s, env) if wt[x]]
    if wt is not None and vt is not None and not paired:
        return lambda s, env: [vt[x] for x in sf(s, env) if wt[x]]
    if wf is None and vt is not None:
        if paired:
            return lambda s, env: [(vt[x], x) for x in sf(s, env)]
        return lambda s, env: [vt[x] for x in sf(s, env)]
    if wt is None and wf is not None and vt is not None and not paired:
        def kept_values(s, env):
            inner = dict(env)
            out = []
            for x in sf(s, env):
                inner[var] = x
                if wf(s, inner):
                    out.append(vt[x])
            return out
        return kept_values
    if paired:
        def pairs(s, env):
            inner = dict(env)
            out = []
            for x in sf(s, env):
                inner[var] = x
                if wf is not None and not wf(s, inner):
                    continue
                out.append((vf(s, inner) if vf is not None else x, x))
            return out
        return pairs
    if wf is None:
        if vf is None:
            return lambda s, env: list(sf(s, env))

        def mapped(s, env):
            inner = dict(env)
            out = []
            for x in sf(s, env):
                inner[var] = x
                out.append(vf(s, inner))
            return out
        return mapped
    if vf is None:
        def kept(s, env):
            inner = dict(env)
            out = []
            for x in sf(s, env):
                inner[var] = x
                if wf(s, inner):
                    out.append(x)
            return out
        return kept

    def values(s, env):
        inner = dict(env)
        out = []
        for x in sf(s, env):
            inner[var] = x
            if wf(s, inner):
                out.append(vf(s, inner))
        return out
    return values


def _agg_sum(sf, var, wf, vf, bf, item_t, value_t):
    values = _values(sf, var, wf, vf)
    return (lambda s, env: sum(values(s, env))), NUMBER


def _agg_min(sf, var, wf, vf, bf, item_t, value_t):
    values = _values(sf, var, wf, vf)
    return (lambda s, env: min(values(s, env), default=None)), value_t


def _agg_max(sf, var, wf, vf, bf, item_t, value_t):
    values = _values(sf, var, wf, vf)
    return (lambda s, env: max(values(s, env), default=None)), value_t


def _agg_any(sf, var, wf, vf, bf, item_t, value_t):
    wf, wt = _split(wf)
    if wt is not None:
        def any_table(s, env):
            for x in sf(s, env):
                if wt[x]:
                    return True
            return False
        return any_table, BOOL

    def any_(s, env):
        inner = dict(env)
        for x in sf(s, env):
            inner[var] = x
            if wf is None or wf(s, inner):
                return True
        return False
    return any_, BOOL


def _agg_all(sf, var, wf, vf, bf, item_t, value_t):
    wf, wt = _split(wf)
    if wf is None:              # a condition an option switched on
        def all_kept(s, env):
            for _ in sf(s, env):
                pass
            return True
        return all_kept, BOOL
    if wt is not None:
        def all_table(s, env):
            for x in sf(s, env):
                if not wt[x]:
                    return False
            return True
        return all_table, BOOL

    def all_(s, env):
        inner = dict(env)
        for x in sf(s, env):
            inner[var] = x
            if not wf(s, inner):
                return False
        return True
    return all_, BOOL


def _agg_filter(sf, var, wf, vf, bf, item_t, value_t):
    return _values(sf, var, wf, None), list_of(item_t)


def _agg_each(sf, var, wf, vf, bf, item_t, value_t):
    return _values(sf, var, wf, vf), list_of(value_t)


def _scored(sf, var, wf, bf):
    return _values(sf, var, wf, bf, paired=True)


def _agg_extreme(pick, single):
    def make(sf, var, wf, vf, bf, item_t, value_t):
        scored = _scored(sf, var, wf, bf)

        def run(s, env):
            pairs = [kx for kx in scored(s, env) if kx[0] is not None]
            if not pairs:
                return None if single else []
            top = pick(k for k, _ in pairs)
            winners = [x for k, x in pairs if k == top]
            if single:
                return winners[0] if len(winners) == 1 else None
            return winners
        return run, (item_t if single else list_of(item_t))
    return make


def _agg_sorted(sf, var, wf, vf, bf, item_t, value_t):
    scored = _scored(sf, var, wf, bf)

    def run(s, env):
        pairs = scored(s, env)
        order = sorted(range(len(pairs)), key=lambda i: (pairs[i][0] is None, pairs[i][0], i))
        return [pairs[i][1] for i in order]
    return run, list_of(item_t)


def _agg_matching(want_shared):
    def make(sf, var, wf, vf, bf, item_t, value_t):
        scored = _scored(sf, var, wf, bf)

        def run(s, env):
            pairs = [kx for kx in scored(s, env) if kx[0] is not None]
            counts: dict = {}
            for k, _ in pairs:
                counts[k] = counts.get(k, 0) + 1
            return [x for k, x in pairs if (counts[k] > 1) == want_shared]
        return run, list_of(item_t)
    return make


_AGGREGATE_MAKERS = {
    "unmatched": _agg_matching(False), "matched": _agg_matching(True),
    "sorted": _agg_sorted,
    "count": _agg_count, "sum": _agg_sum, "min": _agg_min, "max": _agg_max,
    "any": _agg_any, "all": _agg_all, "filter": _agg_filter, "each": _agg_each,
    "majority": _agg_extreme(max, True), "minority": _agg_extreme(min, True),
    "best": _agg_extreme(max, False), "worst": _agg_extreme(min, False),
}


_COMPARE = {"==": lambda a, b: a == b, "!=": lambda a, b: a != b, "<": lambda a, b: a < b,
            "<=": lambda a, b: a <= b, ">": lambda a, b: a > b, ">=": lambda a, b: a >= b}


def family(t: str):
    """The kind of a static type, or None when unknown."""
    if t.startswith("comp:"):
        return "component"
    if t.startswith("list:"):
        return "list"
    if t in (NUMBER, PLAYER, SYMBOL, BOOL, CELL):
        return t
    return None


# a kind in words: (one, several)
_WORDS = {"number": ("a number", "numbers"), "player": ("a player", "players"),
          "symbol": ("a word", "words"), "bool": ("yes/no", "yes/no values"),
          "cell": ("a cell", "cells")}


def _words(t: str) -> tuple:
    if t.startswith("comp:"):
        detail = f" ({t[5:]})" if t[5:] else ""
        return f"a component{detail}", f"components{detail}"
    if t.startswith("list:"):
        return "a list", "lists"
    return _WORDS.get(t, ("a value", "values"))


def describe(t: str) -> str:
    return _words(t)[0]


def plural(t: str) -> str:
    return _words(t)[1]


def _floordiv(a, b):
    if b == 0:
        raise RuleError("division by zero", code="rule/runtime")
    return a // b


def _mod(a, b):
    if b == 0:
        raise RuleError("division by zero", code="rule/runtime")
    return a % b


def _type_of_value(v) -> str:
    if isinstance(v, bool):
        return BOOL
    if isinstance(v, int):
        return NUMBER
    if isinstance(v, str):
        return SYMBOL
    if v is None:
        return NONE
    if isinstance(v, list):
        kinds = {_type_of_value(x) for x in v}
        return list_of(kinds.pop()) if len(kinds) == 1 else list_of(ANY)
    return ANY


__all__ = ["ExprCompiler", "Compiled", "is_comp"]

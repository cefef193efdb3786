"""Check and type IR expressions, once per player count.

Every formula gets a static type (see `layout`), used to refuse what cannot
work (rulebook/type, with its span, every error collected), to tell
identical components apart in choices and to print values; and what is
known of it while compiling: its value where options, tables, literals and
defines of fixed things fix it (a define of fixed things is worked out by
its generated code: `evaluate`), the static table it reads, whether it is a
local name. Dispatch is one method per IR node kind. What a checked formula
is, with its static tables, is in `compiled`; what the checker knows beyond
one node in `optimise`; the types of the aggregates' results in
`aggregates`. `pysource` writes the code that runs.

Runtime values: numbers, booleans, symbols (str), players (int), components
(int ids), ``None`` and lists. Lists handed out by zones are live: statements
that change zones copy them first.
"""

from __future__ import annotations

from types import SimpleNamespace

from . import ranges
from .aggregates import AGGREGATE_TYPES
from ..stdlib.builtins import FUNCTIONS
from .compiled import Compiled, _mapped, _merged_conditional
from ..errors import LimitExceeded, RuleError, RuleLimit, RuleLoop, WrongType, span_at
from . import flow
from .limits import MAX_DIGITS, MAX_NUMBER, MAX_RANGE
from .layout import Layout
from ..stdlib.types import (ANY, BOOL, CELL, NONE, NUMBER, PLAYER, SYMBOL, comp_type, elem, is_comp,
                            list_of)
from .optimise import _UNSET, Shortcuts, _has_aggregate


class FormulaChecker(Shortcuts):
    def __init__(self, ir: dict, lay: Layout, options: dict, table: dict):
        self.ir = ir
        self.lay = lay
        self.options = options
        self.option_picks = {o["name"]: o["pick"]["of"] for o in ir["options"] if o.get("pick")}
        self.table = table        # name -> value for this player count
        self.players = list(range(lay.n))     # the game's players (what `players` reads)
        self.defines = {d["name"]: d for d in ir["defines"]}
        self.compiled_defines: dict = {}
        self.define_types: dict = {}
        self.errors: list = []      # type errors found while compiling, reported together
        # formula -> its value, for a formula that reads nothing of the state:
        # run as its generated code (PyFormulas.evaluate); None: not worked out
        self.evaluate = None
        # id of a call of a builtin whose implementation depends on its
        # arguments' kinds (`Builtin.typed`) -> (the call, that implementation)
        self.typed_calls: dict = {}
        self._inline_cache: dict = {}   # (define, renames) -> its body compiled in place
        self._call_checks: dict = {}    # (define, its arguments' kinds) -> what they break
        self._alone: dict = {}          # define -> the errors of its body with no kinds
        self._costly_defines: dict = {}
        # define -> (depth, nodes) written out: what an aggregate charges an element
        self.define_costs = flow.define_costs({d["name"]: d["body"] for d in ir["defines"]})

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
        return Compiled(None, type_, at, (value,))

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
        t = items[0].type if items else ANY
        return Compiled(None, list_of(t), e["at"])

    def e_range(self, e, scope):
        """`A to B`: a list of numbers (see `ranges`); fixed ends make it a
        constant, worked out here, so a range past the limit is reported
        when the rulebook loads."""
        ends = self._whole_ends(e, scope, "number of a range", ("number", "player"),
                                "a range is written between numbers: 1 to size(hand(me)), "
                                "0 to c.value")
        t = list_of(NUMBER)
        low, high = (c.const for c in ends)
        if low is not None and high is not None and type(low[0]) is int \
                and type(high[0]) is int:
            n = ranges.length(low[0], high[0])
            if n > MAX_RANGE:
                self.errors.append(LimitExceeded(ranges.too_long(n),
                                                 span_at(self.ir["file"], e["at"]),
                                                 ranges.TOO_LONG_HINT))
            else:
                return self._const(list(range(low[0], high[0] + 1)), t, e["at"])
        return Compiled(None, t, e["at"])

    def _whole_ends(self, e, scope, what: str, kinds: tuple, hint: str) -> list:
        """The two ends `low` and `high` of a range or a slice, compiled; an
        end of another kind than `kinds` is rulebook/type at it."""
        ends = []
        for which, node in (("first", e["low"]), ("last", e["high"])):
            end = self.compile(node, scope)
            if end.type == NONE or family(end.type) not in (None, *kinds):
                self.type_error(f"the {which} {what} must be a whole number, but this is "
                                f"{'none' if end.type == NONE else describe(end.type)}",
                                node, hint=hint)
            ends.append(end)
        return ends

    # -- names ---------------------------------------------------------------
    def e_name(self, e, scope):
        n, ref, lay = e["name"], e["ref"], self.lay
        if ref == "local":
            return Compiled(None, scope.get(n, ANY), e["at"], local=n)
        if ref == "constant":
            if n == "players":
                return Compiled(None, list_of(PLAYER), e["at"], items=PLAYER)
            if n == "player_count":
                return self._const(lay.n, NUMBER, e["at"])
            if n in ("round", "turn"):
                return Compiled(None, NUMBER, e["at"])
            return Compiled(None, PLAYER, e["at"])
        if ref == "option":
            value = self.options[n]
            pick = self.option_picks.get(n)
            if pick is not None:        # K named pieces of a type: their components
                return Compiled(None, list_of(comp_type(pick)), e["at"])
            return self._const(value, _type_of_value(value), e["at"])
        if ref == "table":
            value = self.table[n]
            return self._const(value, _type_of_value(value), e["at"])
        if ref == "define":
            body = self.define(n)
            if body.const is not None:
                return self._const(body.const[0], body.type, e["at"])
            return Compiled(None, body.type, e["at"])
        if ref == "component_type":
            return Compiled(None, list_of(comp_type(n)), e["at"], items=n)
        if ref == "component":
            return self.e_component({"value": n, "at": e["at"]}, scope)
        if ref == "zone":          # (it holds pieces of its type only: move_components)
            z = lay.zones[n]
            return Compiled(None, list_of(comp_type(z.of)), e["at"], items=z.of)
        if ref == "variable":
            return Compiled(None, lay.variables[n].type, e["at"])
        if ref == "grid":
            return Compiled(None, list_of(CELL), e["at"])
        raise AssertionError(f"unresolved name {n} ({ref})")

    def check_index(self, arg: Compiled, e, n: int, z) -> None:
        """The n-th argument of a call of a zone or variable `of each` is a
        player (or a number) for an index 'player', else a piece of the
        index's component type."""
        index2 = getattr(z, "index2", None)
        index = (z.index, index2)[n]
        fam = family(arg.type)
        if index == "player":
            wrong = fam not in (None, "player", "number")
            if not wrong:
                self.seat_constant(arg, e["args"][n], f"the index of '{z.name}'")
        elif index in self.lay.grids:       # (of each player and cell of a grid of each player)
            wrong = arg.type not in (CELL, ANY)
        else:
            wrong = fam is not None and arg.type not in (comp_type(index), comp_type(None))
        if wrong:
            indices = [i for i in (z.index, index2) if i is not None]
            per = " and ".join(f"cell of {i}" if i in self.lay.grids else i for i in indices)
            shape = ", ".join("p" if i == "player" else "c" if i in self.lay.grids else i
                              for i in indices)
            what = f"a cell of {index}" if index in self.lay.grids else f"a {index}"
            self.type_error(f"'{z.name}' is one per {per}; {describe(arg.type)} is not "
                            f"{what}", e["args"][n],
                            hint=f"write {z.name}({shape})"
                                 + (f": one per {per}, in that order" if len(indices) > 1 else ""))

    def seat_constant(self, c: Compiled, e, what: str) -> None:
        """A number written where a player is meant is a seat: one that no
        player count of the rulebook has is refused here, at the number."""
        if c.const is None:
            return
        values = c.const[0] if isinstance(c.const[0], list) else [c.const[0]]
        most = self.ir["players"]["max"]
        for k in values:
            if type(k) is int and not 0 <= k < most:
                self.type_error(f"{what} is a player, and {k} is no seat of this game: its "
                                f"seats are 0 to {most - 1}", e,
                                hint="write a seat, or work one out: next_player(p, k), "
                                     "players[k], random(players)")
                return

    def check_cell(self, arg: Compiled, fn: str, grid_name: str, e) -> None:
        """A variable of each cell of a grid is read or written with a cell."""
        if arg.type not in (CELL, ANY):
            self.type_error(f"'{fn}' is one per cell of grid '{grid_name}'; "
                            f"{describe(arg.type)} is not a cell", e,
                            hint="write a cell: cell(x, y), or a cell of the grid")

    def define(self, name) -> Compiled:
        if name in self.compiled_defines:
            return self.compiled_defines[name]
        d = self.defines[name]
        if name in self.define_types:   # a define that uses itself
            raise RuleError(f"'{name}' is defined in terms of itself", code="rulebook/recursion")
        self.define_types[name] = ANY
        params = d["params"] or []
        errors = len(self.errors)
        c = self.compile(d["body"], {p: ANY for p in params})
        self._alone[name] = {(str(x.span), x.message) for x in self.errors[errors:]}
        if not params and c.const is None and _has_aggregate(d["body"]) and self._reads_no_state(d["body"]) \
                and self.evaluate is not None:
            # a formula of fixed things only (a grid's cells, component types,
            # options): worked out once here, by its generated code, not at every use
            # (which finds the define checked: its calls read it as it is)
            self.compiled_defines[name] = c
            try:
                value = self.evaluate(d["body"])
            except RuleLoop as loop:    # it would loop at every use: say so at load
                loop.span = span_at(self.ir["file"], d["name_at"])
                self.errors.append(loop)
                value = _UNSET
            except Exception:      # noqa: BLE001 - it fails when used, with its line
                value = _UNSET
            if value is not _UNSET:
                c = Compiled(None, c.type, c.at, (value,))
        self.compiled_defines[name] = c
        return c

    def e_call(self, e, scope):
        fn, ref, lay = e["fn"], e["ref"], self.lay
        args = [self.compile(a, scope) for a in e["args"]]
        if ref == "zone":
            z = lay.zones[fn]
            for n, arg in enumerate(args):
                self.check_index(arg, e, n, z)
            return Compiled(None, list_of(comp_type(z.of)), e["at"], items=z.of)
        if ref == "grid":       # a grid of each player: grid(p), the cells of p's grid
            self.check_index(args[0], e, 0, SimpleNamespace(name=fn, index="player", index2=None))
            return Compiled(None, list_of(CELL), e["at"])
        if ref == "variable" and lay.variables[fn].index in lay.grids:
            v = lay.variables[fn]
            self.check_cell(args[0], fn, v.index, e)
            return Compiled(None, v.type, e["at"])
        if ref == "variable":
            v = lay.variables[fn]
            for n, arg in enumerate(args):
                self.check_index(arg, e, n, v)
            return Compiled(None, v.type, e["at"])
        if ref == "define":
            body = self.define(fn)
            params = self.defines[fn]["params"]
            self.check_call(fn, params, args, e)
            if body.const is not None:       # e.g. a rule switched off by an option
                return self._const(body.const[0], body.type, e["at"])
            if len(params) == 1 and body.lookup is not None and body.lookup[1].local == params[0]:
                # the body is a static table of its parameter: a table of the argument
                column, _, attr = body.lookup
                return Compiled(None, body.type, e["at"], lookup=(column, args[0], attr),
                                strict_bool=body.strict_bool)
            if params and all(a.local is not None for a in args):
                inlined = self._inlined(fn, {p: a.local for p, a in zip(params, args)})
                if inlined is not None:
                    return Compiled(None, body.type, e["at"], inlined.const, inlined.lookup,
                                    inlined.local, inlined.strict_bool)
            return Compiled(None, body.type, e["at"], strict_bool=body.strict_bool)
        if FUNCTIONS[fn].typed is not None:       # (pysource calls the implementation it picks)
            self.typed_calls[id(e)] = (e, FUNCTIONS[fn].typed([a.type for a in args]))
        t = FUNCTIONS[fn].result_type([a.type for a in args])
        for n, (arg, want) in enumerate(zip(args, FUNCTIONS[fn].takes)):
            got = "none" if arg.type == NONE else family(arg.type)
            if want is not None and got is not None and got != family(want):
                self.type_error(f"{fn}() takes {describe(want)} as its {_ORDINAL[n]} argument, "
                                f"but this is {'none' if got == 'none' else describe(arg.type)}",
                                e["args"][n], hint=f"{fn}: {FUNCTIONS[fn].doc}")
        if FUNCTIONS[fn].by_value and args and elem(args[0].type).startswith("list:"):
            self.type_error(f"{fn}() tells its elements apart by their values, and these "
                            "elements are lists, which it cannot", e,
                            hint="make each element one value (a number, a word, a piece), "
                                 "or count the lists another way")
        if fn == "contains" and len(args) == 2:
            a, b = family(elem(args[0].type)), family(args[1].type)
            if a and b and a != b and not {a, b} <= {"player", "number"}:
                self.type_error(f"contains() looks for {describe(args[1].type)} in a list of "
                                f"{plural(elem(args[0].type))}", e)
        return Compiled(None, t, e["at"])

    def check_call(self, name: str, params: list, args: list, e) -> None:
        """A define's parameters have no kind, but a call's arguments may: its
        body is checked again with them (once for each set of kinds), and what
        that finds and the body alone does not — the attribute of a player,
        a piece of another type as an index — is rulebook/type at the call."""
        kinds = tuple(a.type for a in args)
        if not params or all(family(k) is None for k in kinds):
            return
        key = (name, kinds)
        found = self._call_checks.get(key)
        if found is None:
            self._call_checks[key] = ()         # (defines do not call themselves)
            found = self._call_checks[key] = self._errors_with(name, dict(zip(params, kinds)))
        shown = ", ".join(describe(k) for k in kinds)
        for message, hint in found:
            self.errors.append(WrongType(f"{name}({shown}): {message}",
                                         span_at(self.ir["file"], e["at"]), hint))

    def _errors_with(self, name: str, scope: dict) -> tuple:
        """The type errors of define `name`'s body compiled with its
        parameters of the kinds `scope` gives that it has not with none."""
        body, typed = self.defines[name]["body"], dict(self.typed_calls)
        alone = self._alone.get(name, set())
        errors = len(self.errors)
        self.compile(body, scope)
        found = tuple((x.message, x.hint) for x in self.errors[errors:]
                      if isinstance(x, WrongType) and (str(x.span), x.message) not in alone)
        del self.errors[errors:]
        self.typed_calls = typed             # (the body's own compile chose the builtins)
        return found

    # -- attributes and indexing ----------------------------------------------
    def e_attribute(self, e, scope):
        target = self.compile(e["target"], scope)
        attr, lay = e["attr"], self.lay
        self.check_attribute(target, attr, e)
        static = lay.static.get(attr)
        if attr not in lay.has:
            t = lay.static_type.get(attr, ANY)
            if target.lookup is not None:
                return self._composed(target, static, attr, t, e["at"])
            return Compiled(None, t, e["at"], lookup=(static, target, attr))
        if static is None:
            return Compiled(None, lay.has_type.get(attr, ANY), e["at"])
        return Compiled(None, ANY, e["at"])      # kept in the state by some, fixed for others

    def check_attribute(self, target: Compiled, attr: str, e) -> None:
        """An attribute is read (or set) of a component, and of one whose
        type has it, where the compiler knows the type: rulebook/type."""
        lay = self.lay
        if target.type in (PLAYER, NUMBER, BOOL, SYMBOL, NONE) or target.type.startswith("list:"):
            what = "a list" if target.type.startswith("list:") else f"a {target.type}"
            self.errors.append(WrongType(
                f"'.{attr}' reads a component's attribute, but this is {what}",
                span_at(self.ir["file"], e["at"]),
                hint="attributes belong to components: c.value, c.owner"))
        elif is_comp(target.type) and target.type != comp_type(None):
            kind = target.type[5:]
            first, count = lay.types[kind]
            column, slots = lay.static.get(attr), lay.has.get(attr)
            has_it = any((column is not None and column[c] is not None)
                         or (slots is not None and slots[c] >= 0)
                         for c in range(first, first + count))
            if count and not has_it and attr not in self._columns(kind):
                self.errors.append(WrongType(
                    f"a {kind} has no attribute '{attr}'", span_at(self.ir["file"], e["at"]),
                    hint=f"{kind} has: {', '.join(sorted(self._columns(kind))) or 'no attributes'}"))

    def check_settable(self, target: Compiled, attr: str, e) -> None:
        """`set`/`add` of an attribute: where the compiler knows the piece's
        type, that type keeps the attribute in the state (`has`)."""
        lay = self.lay
        self.check_attribute(target, attr, e)
        if not is_comp(target.type) or target.type == comp_type(None):
            return
        kind = target.type[5:]
        first, count = lay.types[kind]
        has = lay.has.get(attr)
        if not count or (has is not None and has[first] >= 0):
            return
        declared = {h["name"] for comp in self.ir["components"] if comp["name"] == kind
                    for h in comp["has"]}
        if attr in self._columns(kind) and attr not in declared:
            self.errors.append(WrongType(
                f"'{attr}' of a {kind} is fixed by its component table and cannot change",
                span_at(self.ir["file"], e["at"]),
                hint=f"declare it in {kind} with 'has {attr}: TYPE' to let the rules set it"))

    def e_index(self, e, scope):
        target = self.compile(e["target"], scope)
        self.compile(e["index"], scope)
        return Compiled(None, elem(target.type), e["at"])

    def e_slice(self, e, scope):
        """`xs[A to B]`: part of a list, of the list's type."""
        target = self.compile(e["target"], scope)
        if target.type == NONE or family(target.type) not in (None, "list"):
            self.type_error(f"a slice takes part of a list, but this is "
                            f"{'none' if target.type == NONE else describe(target.type)}",
                            e["target"], hint="slice a list: hand(me)[0 to 2]")
        self._whole_ends(e, scope, "place of a slice", ("number",),
                         "places are numbers from 0: xs[0 to size(xs) - 2]")
        return Compiled(None, target.type if family(target.type) == "list" else ANY, e["at"])

    # -- operators -------------------------------------------------------------
    def e_otherwise(self, e, scope):
        left, right = self.compile(e["left"], scope), self.compile(e["right"], scope)
        return Compiled(None, left.type if left.type != NONE else right.type, e["at"])

    def e_conditional(self, e, scope):
        then = self.compile(e["then"], scope)
        cond = self.condition(e["cond"], scope)
        other = self.compile(e["otherwise"], scope)
        t = then.type if then.type == other.type or other.type == NONE else (
            other.type if then.type == NONE else ANY)
        if cond.const is not None:
            chosen = then if cond.const[0] else other
            return Compiled(None, t, e["at"], chosen.const, chosen.lookup, chosen.local,
                            chosen.strict_bool)
        if cond.lookup is not None and then.const is not None and other.const is not None:
            # a static condition choosing between constants: one table
            column, base, attr = cond.lookup
            a, b = then.const[0], other.const[0]
            return Compiled(None, t, e["at"], lookup=(_mapped(column, lambda x: a if x else b),
                                                      base, attr))
        merged = _merged_conditional(cond, then, other, t, e["at"])
        return merged if merged is not None else Compiled(None, t, e["at"])

    def _logic(self, e, scope, is_and: bool):
        left, right = self.condition(e["left"], scope), self.condition(e["right"], scope)
        for known, other in ((left, right), (right, left)):
            if known.const is not None:
                if bool(known.const[0]) != is_and:     # False and …, True or …
                    return self._const(not is_and, BOOL, e["at"])
                if other.strict_bool and other.const is None:
                    return Compiled(None, BOOL, e["at"], None, other.lookup, None, True)
                return Compiled(None, BOOL, e["at"],
                                None if other.const is None else (bool(other.const[0]),),
                                strict_bool=True)
        # yes/no even when a side is none (an unset yes/no variable)
        return Compiled(None, BOOL, e["at"], strict_bool=True)

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
            return Compiled(None, BOOL, e["at"], lookup=(_mapped(column, lambda x: not x), base, attr),
                            strict_bool=True)
        return Compiled(None, BOOL, e["at"], strict_bool=True)

    def e_negate(self, e, scope):
        operand = self.compile(e["operand"], scope)
        if family(operand.type) not in (None, NUMBER):
            # a component or a player is a number at run time: its negation
            # would order by the engine's own numbering
            self.type_error(f"'-' negates a number, not {describe(operand.type)}", e,
                            hint="a player is a seat: negate a number of theirs, e.g. -coins(p)"
                            if operand.type == PLAYER else
                            "negate a number about it, e.g. -c.value")
        return Compiled(None, NUMBER, e["at"])

    def e_compare(self, e, scope):
        left, right = self.compile(e["left"], scope), self.compile(e["right"], scope)
        op = e["op"]
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
        if right.const is not None and op in ("==", "!=") and left.lookup is not None:
            # a static attribute against a constant: one table of yes/no
            v = right.const[0]
            column, base, attr = left.lookup
            table = _mapped(column, (lambda x: x == v) if op == "==" else (lambda x: x != v))
            return Compiled(None, BOOL, e["at"], lookup=(table, base, attr), strict_bool=True)
        return Compiled(None, BOOL, e["at"], strict_bool=True)

    def e_arith(self, e, scope):
        left, right = self.compile(e["left"], scope), self.compile(e["right"], scope)
        # one player less another is how many seats lie between them: a number
        distance = e["op"] == "-" and {family(left.type), family(right.type)} <= {"player", None}
        for side, node in ((left, e["left"]), (right, e["right"])):
            if side.type == ANY and node["node"] == "attribute":
                self._odd_cell(node["attr"], e, f"'{e['op']}'")
        for side in (left, right):
            if family(side.type) in ("component", "list", "bool", "symbol") or (
                    family(side.type) == "player" and not distance):
                self.type_error(f"'{e['op']}' works on numbers, not on {describe(side.type)}", e,
                                hint=_ARITH_HINTS.get(family(side.type)))
                break
        return Compiled(None, NUMBER, e["at"])

    def _odd_cell(self, attr: str, e, how: str) -> None:
        """A table column of numbers with a cell of another kind, which a
        formula works out as a number: the mistake is in the cell, so it is
        reported there (once), naming the formula's line."""
        for comp in self.ir["components"]:
            cells = [row["cells"][attr] for row in comp.get("rows", ())
                     if attr in row["cells"] and "file" not in row]
            kinds = {c["node"] for c in cells} - {"none"}
            if "number" not in kinds or kinds == {"number"}:
                continue
            odd = next(c for c in cells if c["node"] not in ("number", "none"))
            what = {"bool": "yes/no", "list": "a list"}.get(
                odd["node"], f"the word '{odd.get('value')}'")
            self.type_error(f"the column '{attr}' of {comp['name']} holds numbers and, here, "
                            f"{what}, which line {e['at'][0]} works out as a number ({how})",
                            odd, hint="write a number in this cell, or '-' for none")
            return

    def _check_aggregated(self, fn: str, t: str, e) -> None:
        """sum() adds numbers; max() and min() pick among things with an
        order: numbers, players (by seat), words, yes/no (yes above no) — not
        pieces, lists or cells."""
        if fn == "sum" and t == ANY and e["node"] == "attribute":
            self._odd_cell(e["attr"], e, "sum()")
        elif fn == "sum" and family(t) not in (None, "number"):
            self.type_error(f"sum() adds numbers, not {plural(t)}", e,
                            hint=_ARITH_HINTS.get(family(t)))
        elif fn in ("max", "min"):
            self._check_ordered(t, e, f"{fn}()")

    def _check_ordered(self, t: str, e, what: str) -> None:
        if family(t) in ("component", "list", "cell"):
            self.type_error(f"{what} needs an order, and {plural(t)} have none", e,
                            hint="order by a number they have: max(c.value for c in …), "
                                 "sorted(c in … by c.value)")

    # -- aggregates ------------------------------------------------------------
    def e_aggregate(self, e, scope):
        fn, var = e["fn"], e["var"]
        source = self.compile(e["source"], scope)
        inner = dict(scope)
        inner[var] = elem(source.type)
        if e["where"] is not None:
            self.condition(e["where"], inner)
        value = self.compile(e["value"], inner) if e["value"] is not None else None
        by = self.compile(e["by"], inner) if e["by"] is not None else None
        item_t = elem(source.type)
        self._check_aggregated(fn, value.type if value else item_t,
                               e["value"] if value else e["source"])
        if by is not None and fn in ("sorted", "best", "worst", "majority", "minority"):
            self._check_ordered(by.type, e["by"], f"'{fn}' … by")
        t = AGGREGATE_TYPES[fn](item_t, value.type if value else item_t)
        return Compiled(None, t, e["at"], items=source.items if fn == "filter" and value is None
                        else None)


_ARITH_HINTS = {
    "player": "a player is a seat, not a number: the seat k after p is next_player(p, k), "
              "and p - q how many seats lie from q to p; compare players with == and !=",
    "component": "add what a piece has: c.value",
    "bool": "count the yes: count(x in … where …)"}

_COMPARE = {"==": lambda a, b: a == b, "!=": lambda a, b: a != b, "<": lambda a, b: a < b,
            "<=": lambda a, b: a <= b, ">": lambda a, b: a > b, ">=": lambda a, b: a >= b}


_ORDINAL = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth")


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


def too_large(span):
    """The function that refuses a number a formula at `span` made: one
    past the bound, MAX_NUMBER (rule/limit there)."""
    def refuse(v):
        bits = v.bit_length() if type(v) is int else 0
        digits = len(str(abs(v))) if bits < 4000 else int(bits * 0.30103) + 1
        raise RuleLimit(f"a number of {digits:,} digits, more than the {MAX_DIGITS} a number "
                        f"may have", span,
                        hint=f"numbers stay below 10^{MAX_DIGITS} either way: cap a value where "
                             f"it grows, e.g. smaller(x * x, 1000000), or count in larger units")
    return refuse


def bounded_by(refuse):
    """value -> value, refusing one past the bound with `refuse`."""
    low, high = -MAX_NUMBER, MAX_NUMBER
    return lambda v: v if low < v < high else refuse(v)


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


__all__ = ["FormulaChecker", "is_comp"]

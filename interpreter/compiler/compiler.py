"""Compile the IR, for one player count and one set of options, into a
`Program`: the layout, the machine's blocks, the actions and the scoring.

This runs once per player count (cached by `Game`), so nothing here is on
the hot path; the generated code it has written is.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..runtime import decisions as dc
from ..runtime import statements as st
from ..errors import FORMULA_ERRORS, RuleError, RulebookErrors, as_rule_error, span_at
from ..stdlib import grid
from ..stdlib.builtins import FUNCTIONS
from ..runtime.choices import key_function
from ..language.compiled import Compiled
from ..language.formulas import FormulaChecker, bounded_by, describe, family, too_large
from ..language.layout import Layout, build_layout, declared_type
from ..runtime.views import show_value
from ..stdlib.types import ANY, BOOL, CELL, NONE, NUMBER, PLAYER, SYMBOL, elem, is_comp, list_of
from .filters import hoisted
from ..language.optimise import draws, names_read
from .pyblocks import RunCompiler
from .pyflow import FlowCompiler
from .pyoptions import OptionsCompiler
from .pysource import Module, PyFormulas


@dataclass
class Program:
    n: int
    lay: Layout
    machine: st.Machine
    actions: dict
    score: Compiled
    tie_break: list            # [(sign, Compiled)]
    winners: Compiled | None
    defaults: list             # [(slot, fn)] evaluated at new_game
    exprs: FormulaChecker
    parts: list                # [(label, Compiled)]: the named parts of the score
    steps: list                # the tie-break steps' names, in order
    python: Module | None = None   # the generated Python the program runs
    formulas: PyFormulas | None = None  # what writes it, for a formula compiled later
    lowest_wins: bool = False      # 'lowest score wins': lower scores rank first
    estimate: Compiled | None = None   # 'estimate = …': a player's standing before the end

    @property
    def budget(self):
        """The formulas' work in the current step (runtime/budget.py); the
        Game restarts it at each step of its API."""
        return self.formulas.work


def _source_words(key: dict) -> str:
    """A tie-break step without a label: 'most …' or 'fewest …' and its place."""
    return f"{key['node']} (tie-break at line {key['at'][0]})"


def _clash(want: str, given: str) -> bool:
    """Whether a value of kind `given` can never be one of kind `want` (a
    slot's, a parameter's): both known, and other than players and numbers."""
    a, b = family(want), family(given)
    return bool(a and b and a != b and not {a, b} <= {"player", "number"})


def teller(type_: str, lay: Layout):
    """value -> its text as an announcement says it: a player as P0, a
    component by its name, a cell as (x,y), yes/no, none, the items of a
    list one after the other."""
    def text(value) -> str:
        if value is None:
            return "none"
        if value is True or value is False:
            return "yes" if value else "no"
        if isinstance(value, list):
            return " ".join(text(v) for v in value)
        return str(value)

    def told(value) -> str:
        return text(show_value(value, type_, lay))
    if not any(word in type_ for word in (PLAYER, "comp:", CELL)):
        return text                 # shown as it is
    if type_ == PLAYER:
        return lambda v: f"P{v}" if isinstance(v, int) else told(v)
    if is_comp(type_):
        display = lay.display
        return lambda v: display[v] if isinstance(v, int) else told(v)
    if type_ == CELL:
        cell_text = grid.text
        return lambda v: cell_text(v) if v.__class__ is int else told(v)
    return told


def _told(fn, type_: str, lay: Layout):
    """(state, env) -> the text of a formula's value in an announcement."""
    tell = teller(type_, lay)
    return lambda s, env: tell(fn(s, env))


def table_values(ir: dict, n: int) -> dict:
    return {name: _literal(row["values"][str(n)]) for name, row in ir["table"].items()}


def _literal(cell):
    if cell["node"] == "list":
        return [_literal(x) for x in cell["items"]]
    return None if cell["node"] == "none" else cell.get("value")


class Compiler:
    def __init__(self, ir: dict, n: int, options: dict):
        self.ir = ir
        self.n = n
        self.lay = build_layout(ir, n)
        self.ex = FormulaChecker(ir, self.lay, options, table_values(ir, n))
        self.py = PyFormulas(self.ex)
        self.ir_of: dict = {}           # sid -> the statement's IR
        self.sure_of: dict = {}         # sid -> the locals sure where it stands (PyFormulas.env_sure)
        self.action_sure: dict = {}     # action -> the same for its body
        self.items_of: dict = {}        # ChoiceSpec -> what its value is sure to be (Compiled.items)
        self.m = st.Machine(self.lay, ir["file"])
        self.actions: dict[str, dc.ActionDef] = {}
        self.action_scopes: dict[str, dict] = {}    # action -> its parameters' types
        self.picks: set = set()         # the names 'each … chooses' binds (what `reveal` may name)
        self.procedures = {p["name"]: p for p in ir.get("procedures", ())}
        self.procedure_blocks: dict = {}    # procedure -> its block's id, once compiled
        self.context = ""
        self.resets = {"turn": [], "round": [], "game": []}
        for name, (base, times, scope) in self.lay.limits.items():
            self.resets[scope].append((base, n))

    def expr(self, e, scope) -> Compiled:
        """A formula checked and typed by the expression checker, run as the
        Python `pysource` writes for it."""
        return self._generated(self.ex.compile(e, scope), e)

    def condition(self, e, scope) -> Compiled:
        """A formula used as yes/no (see FormulaChecker.condition)."""
        return self._generated(self.ex.condition(e, scope), e)

    def _generated(self, c: Compiled, e) -> Compiled:
        fn = self.py.function(e)
        return Compiled(fn, c.type, c.at, c.const, None, c.local, c.strict_bool,
                        self.py.items.get(id(e), c.items))

    def fn(self, e, scope):
        return self.expr(e, scope).fn

    def program(self) -> Program:
        ir, lay = self.ir, self.lay
        for a in ir["actions"]:
            self._declare_action(a)
        for a in ir["actions"]:
            self._compile_action_body(a)
        for ph in ir["phases"]:      # named first: the setup may 'go to' a phase
            self.m.phase_names.append(ph["name"])
            self.m.phase_blocks.append(None)
        if ir["setup"] is not None:
            self.context = "setup"
            self.m.setup_block = self.block(ir["setup"], {}, st.end_setup).id
        for i, ph in enumerate(ir["phases"]):
            self.context = f"phase {ph['name']}"
            self.m.phase_blocks[i] = self.block(ph["body"], {}, st.end_phase).id
        for name in self.procedures:     # every procedure is compiled, done or not
            self.procedure_block(name)
        for d in ir["defines"]:      # every define is checked, used or not
            self.context = f"define {d['name']}"
            self.ex.define(d["name"])
        scoring = ir["scoring"]
        self.py.env_sure = {"p": PLAYER}        # a score is worked out for each seat
        score = self.expr(scoring["score"], {"p": PLAYER})
        tie = [(1 if k["node"] == "most" else -1, self.expr(k["expr"], {"p": PLAYER}))
               for k in scoring["tie_break"]]
        parts = [(q["label"], self.expr(q["expr"], {"p": PLAYER}))
                 for q in scoring.get("parts", [])]
        estimate = None
        if scoring.get("estimate") is not None:
            estimate = self.expr(scoring["estimate"], {"p": PLAYER})
            if family(estimate.type) not in (None, "number"):
                self.ex.type_error(f"'estimate = …' is a number, like the score, not "
                                   f"{describe(estimate.type)}", scoring["estimate"],
                                   hint="estimate = the points the player can expect at the end")
        self.py.env_sure = {}
        steps = [k.get("label") or _source_words(k) for k in scoring["tie_break"]]
        winners = self.expr(scoring["winners"], {}) if scoring["winners"] else None
        defaults = []
        for comp in ir["components"]:
            for h in comp["has"]:
                column = lay.has[h["name"]]
                first, count = lay.types[comp["name"]]
                value = self.default(h["default"], lay.has_type[h["name"]])
                for k in range(count):
                    defaults.append((column[first + k], value))
        for v in ir["variables"]:
            slot = lay.variables[v["name"]]
            value = self.default(v["default"], slot.type)
            for k in range(slot.count):
                defaults.append((slot.base + k, value))
        RunCompiler(self.m, self.py, self.ir_of, self.sure_of).compile_all()
        self.m.prepare()            # (which 'if' and 'for each' run their blocks at once)
        FlowCompiler(self.m, self.py.mod).compile_all()
        OptionsCompiler(self.m, self.py.mod).compile_all()
        return Program(self.n, lay, self.m, self.actions, score, tie, winners, defaults, self.ex,
                       parts, steps, self.py.mod, self.py, scoring.get("lowest_wins", False),
                       estimate)

    def default(self, e, kind: str):
        """The function of a variable's or attribute's starting value (None
        for none), worked out when a game starts: a failure, or a value not
        of the slot's `kind`, is a rule error at the formula, which no
        statement runs. (A player that is no seat is refused where it is
        used: the turn or the decision it names.)"""
        if e is None:
            return None
        c = self.expr(e, {})
        check = self.check(kind, c.type) if kind != PLAYER else None
        fn, span = c.fn, self.m.span(e["at"])

        def value(s, env):
            try:
                return fn(s, env) if check is None else check(fn(s, env))
            except (RuleError,) + FORMULA_ERRORS as error:
                raise as_rule_error(error, span, "a starting value failed") from None
        return value

    # -- actions ---------------------------------------------------------------
    def _declare_action(self, a):
        scope = {"me": PLAYER}
        self.py.env_sure = {"me": PLAYER}       # the player who takes it: a seat
        params = []
        # each condition of a `where` tested as soon as what it reads is chosen
        params_ir = hoisted(a["params"])
        for p in params_ir:
            spec = self.choice(p["name"], p["choice"], scope)
            params.append(spec)
            scope[p["name"]] = spec.value_type
            self._binds(p["name"], self.items_of[spec])
        private = any(o["node"] == "private" for o in a["options"])
        limit = None
        if a["name"] in self.lay.limits:
            base, times, _ = self.lay.limits[a["name"]]
            limit = (base, times)
        requires = None
        body = a["body"]["stmts"] if a["body"] else []
        if body and body[0]["node"] == "requires":
            requires = self.condition(body[0]["cond"], scope).fn
        shows = [p.show_value for p in params]
        name = a["name"]

        def show(action_name, args, shows=shows):
            if not args:
                return action_name
            return action_name + " " + ", ".join(f(k) for f, k in zip(shows, args))
        # parameters whose options do not depend on each other: listed as a product
        names = [p["name"] for p in a["params"]]
        # a `requires` that reads no parameter is checked before any option is listed
        first = requires is not None and not names_read(body[0]["cond"], local_only=True) & set(names)
        independent = (requires is None or first) and not any(
            names_read(p["choice"], local_only=True) & set(names[:i])
            for i, p in enumerate(params_ir))
        self.actions[name] = dc.ActionDef(name, params, requires, None, limit, private, show,
                                          independent, a["at"],
                                          body[0]["at"] if requires is not None else None,
                                          requires_first=first)
        self.action_scopes[name] = scope
        self.action_sure[name], self.py.env_sure = self.py.env_sure, {}

    def _compile_action_body(self, a):
        self.context = f"action {a['name']}"
        act = self.actions[a["name"]]
        scope = self.action_scopes[a["name"]]
        body = a["body"] or {"stmts": [], "at": a["at"]}
        self.py.env_sure = self.action_sure[a["name"]]
        act.body = self.block(body, scope, st.end_pop).id
        self.py.env_sure = {}

    def choice(self, name, c, scope) -> dc.ChoiceSpec:
        source = self.expr(c["source"], scope)
        item = elem(source.type)
        key = key_function(item, self.lay)
        kind = {"choose_one": "one", "choose_many": "many", "choose_groups": "groups",
                "choose_kinds": "kinds"}[c["node"]]
        where = count = groups = size = None
        if kind == "one":
            value_type = item
            if c["where"] is not None:
                outer = dict(self.py.env_sure)
                self._binds(name, source.items)
                where = self.condition(c["where"], {**scope, name: item}).fn
                self.py.env_sure = outer
        elif kind == "many":
            value_type = list_of(item)
            count = self.fn(c["count"], scope)
        elif kind == "kinds":
            value_type = list_of(item)
            groups = self.number(c["kinds"], scope, "how many kinds")
            size = self.number(c["size"], scope, "how many of each kind")
        else:
            value_type = list_of(list_of(item))
            groups = self.fn(c["groups"], scope)
            size = self.fn(c["size"], scope)
        show = dc.printer(value_type, self.lay)
        optional = c.get("optional", False)
        spec = (dc.OptionalSpec if optional else dc.ChoiceSpec)(
            name, kind, source.fn, where, count, groups, size, key,
            dc.optional_printer(name, show) if optional else show, value_type, c["at"])
        self.items_of[spec] = source.items if kind == "one" else None
        spec.why = self._why_not(c["source"], scope)
        if kind == "one" and c["where"] is not None:
            spec.kept = self.py.kept_options(c["source"], c["where"], name, key)
        return spec

    def _why_not(self, source, scope):
        """For `one of B(…)` where builtin B can say why a value is not among
        its results (`Builtin.why`; `anchors`: the first cell outside the
        allowed ones): that reason, for a refusal to name (explain.py)."""
        if source["node"] != "call" or source.get("ref") != "builtin":
            return None
        why = FUNCTIONS[source["fn"]].why
        if why is None:
            return None
        args = [self.fn(a, scope) for a in source["args"]]
        return lambda s, env, value: why(value, *[a(s, env) for a in args])

    # -- statements ------------------------------------------------------------
    def block(self, b, scope, end) -> st.Block:
        block = self.m.new_block(end)
        scope = dict(scope)
        outer = dict(self.py.env_sure)      # a block's bindings end with it
        for s in b["stmts"]:
            block.stmts.append(self.stmt(s, scope))
        block.scope = scope
        self.py.env_sure = outer
        return block

    def _binds(self, name: str, items) -> None:
        """A statement binds local `name`: to an item of a list whose items
        are sure to be seats or pieces of a type (`items`), or to anything."""
        if items is not None:
            self.py.env_sure[name] = items
        else:
            self.py.env_sure.pop(name, None)

    def stmt(self, s, scope):
        sure = dict(self.py.env_sure)       # where the statement stands
        compiled = getattr(self, "s_" + s["node"])(s, scope)
        self.sure_of[len(self.m.stmts)] = sure
        compiled.chance = s["node"] == "shuffle" or draws(s)
        compiled.sid = len(self.m.stmts)
        self.ir_of[compiled.sid] = s
        self.m.stmts.append(compiled)
        self.m.described.append((s["node"], s["at"], self.context))
        return compiled

    def indexed(self, decl, e, scope):
        """The slot of the variable or zone `decl` that the call or name `e`
        names: an index 'of each player/TYPE' is checked to be of its kind
        here, and to be one of its values when the game runs (its table,
        `Layout.positions`); a cell, to lie on its grid. One of two indices
        ('of each A and B') lies at a * inner + b."""
        index, base = decl.index, decl.base
        if index is None:
            return lambda s, env: base
        if decl.index2 is not None:
            args = [self.expr(a, scope) for a in e["args"]]
            for n, arg in enumerate(args):
                self.ex.check_index(arg, e, n, decl)
            first, a0 = self.lay.positions(index), args[0].fn
            second = self.lay.grids[decl.index2].positions_at(span_at(self.ir["file"], e["at"])) \
                if decl.index2 in self.lay.grids else self.lay.positions(decl.index2)
            inner, a1 = decl.inner, args[1].fn
            return lambda s, env: base + first[a0(s, env)] * inner + second[a1(s, env)]
        compiled = self.expr(e["args"][0], scope)
        arg = compiled.fn
        if index in self.lay.grids:
            self.ex.check_cell(compiled, e["fn"], index, e)
            positions = self.lay.grids[index].positions_at(span_at(self.ir["file"], e["at"]))
            return lambda s, env: base + positions[arg(s, env)]
        self.ex.check_index(compiled, e, 0, decl)
        positions = self.lay.positions(index)
        return lambda s, env: base + positions[arg(s, env)]

    def zone_index(self, e, scope):
        """The zone that the name or call `e` names, as ``f(state, env) -> i``
        (``state.zones[i]``), as `indexed` finds a slot."""
        return self.indexed(self.lay.zones[e["name"] if e["node"] == "name" else e["fn"]], e, scope)

    def s_move(self, s, scope):
        if s.get("count") is not None:      # 'move N of …': a deal from those pieces
            return st.Deal(s["at"], self.number(s["count"], scope, "how many to move"),
                           self.fn(s["what"], scope), self.zone_index(s["to"], scope))
        return st.Move(s["at"], self.fn(s["what"], scope), self.zone_index(s["to"], scope))

    def s_deal(self, s, scope):
        zone = self.zone_index(s["source"], scope)
        return st.Deal(s["at"], self.number(s["count"], scope, "how many to deal"),
                       lambda state, env: state.zones[zone(state, env)],
                       self.zone_index(s["to"], scope))

    def s_shuffle(self, s, scope):
        return st.Shuffle(s["at"], self.zone_index(s["zone"], scope))

    def s_reveal(self, s, scope):
        what = self.expr(s["what"], scope)
        to = self.players(s["to"], scope, "who is shown") if s["to"] is not None else None
        name = s["what"].get("name") if s["what"].get("node") == "name" else None
        if name in self.picks and what.type.startswith("list:"):
            kind = elem(what.type)
            return st.RevealPicks(s["at"], name, teller(kind, self.lay), is_comp(kind), to)
        if not (is_comp(what.type) or is_comp(elem(what.type)) or what.type in (ANY, list_of(ANY))):
            self.ex.type_error(f"reveal shows pieces, a zone or the picks of an 'each … chooses'; "
                               f"this is {what.type}", s["what"],
                               "name the pieces or the zone, or the choice's name after the "
                               "'each … chooses' that made it")
        return st.Reveal(s["at"], what.fn, to)

    def slot(self, target, scope):
        lay = self.lay
        if target["node"] == "attribute":
            obj = self.expr(target["target"], scope)
            self.ex.check_settable(obj, target["attr"], target)
            slots, of = lay.attribute_slots(target["attr"]), obj.fn
            return lambda s, env: slots[of(s, env)]
        v = lay.variables[target["name"] if target["node"] == "name" else target["fn"]]
        return self.indexed(v, target, scope)

    def target_type(self, target, scope) -> str:
        lay = self.lay
        if target["node"] == "attribute":
            return lay.has_type.get(target["attr"], ANY)
        v = lay.variables.get(target["name"] if target["node"] == "name" else target["fn"])
        return v.type if v else ANY

    def s_set(self, s, scope):
        value = self.expr(s["value"], scope)
        want = self.target_type(s["target"], scope)
        if _clash(want, value.type):
            self.ex.type_error(f"sets {describe(want)} to {describe(value.type)}", s)
        elif want == PLAYER:
            self.ex.seat_constant(value, s["value"], "what it sets")
        return st.SetSlot(s["at"], self.slot(s["target"], scope), value.fn, False,
                          check=self.check(want, value.type))

    def check(self, want: str, given: str):
        """What a `set` of a slot of kind `want` checks its value with, given
        a value of static type `given` (statements.kind_check): a player is
        a seat, a piece one of its type (a list of pieces says only its
        first item's type), a number, yes/no or word one of that kind, where
        `given` does not say so already; None for nothing to check."""
        if given == NONE or (want in (NUMBER, BOOL, SYMBOL) and given == want):
            return None
        return st.kind_check(want, self.lay)

    def s_grant(self, s, scope):
        return self._permission(s, scope, st.Permission.GRANT)

    def s_spend(self, s, scope):
        return self._permission(s, scope, st.Permission.SPEND)

    def _permission(self, s, scope, grant: bool):
        v = self.lay.variables[s["name"]]
        if s["player"] is None:
            base = v.base
            return st.Permission(s["at"], s["name"], lambda state, env: base, None, grant)
        player = self.player(s["player"], scope, "whose permission")
        base, seats = v.base, self.lay.positions("player")     # a seat, else a rule error
        return st.Permission(s["at"], s["name"],
                             lambda state, env: base + seats[player(state, env)], player, grant)

    def s_add(self, s, scope):
        value = self.expr(s["value"], scope)
        for t in (value.type, self.target_type(s["target"], scope)):
            if family(t) not in (None, "number"):
                self.ex.type_error(f"'add' adds numbers, not {describe(t)}", s)
                break
        # the sum past the bound is rule/limit at the statement
        refuse = too_large(span_at(self.ir["file"], s["at"]))
        return st.SetSlot(s["at"], self.slot(s["target"], scope), value.fn, True,
                          check=bounded_by(refuse))

    def number(self, e, scope, what):
        c = self.expr(e, scope)
        if family(c.type) not in (None, "number"):
            self.ex.type_error(f"{what} is a number, not {describe(c.type)}", e)
        return c.fn

    def player(self, e, scope, what):
        c = self.expr(e, scope)
        if family(c.type) not in (None, "player", "number"):
            self.ex.type_error(f"{what} is a player, not {describe(c.type)}", e)
        else:
            self.ex.seat_constant(c, e, what)
        return c.fn

    def players(self, e, scope, what):
        """A formula of a player or of a list of players (`reveal … to`)."""
        c = self.expr(e, scope)
        kind = elem(c.type) if c.type.startswith("list:") else c.type
        if family(kind) not in (None, "player", "number"):
            self.ex.type_error(f"{what} is a player or a list of players, not {describe(c.type)}",
                               e, "name a player ('to me'), or a list of players ('to [p, q]', "
                                  "'to players')")
        else:
            self.ex.seat_constant(c, e, what)
        return c.fn

    def procedure_block(self, name: str) -> int:
        """The block of a procedure's steps, compiled once for every 'do' of
        it: its locals are its parameters, of their declared kinds (the
        checks refuse a procedure that does itself)."""
        found = self.procedure_blocks.get(name)
        if found is None:
            proc = self.procedures[name]
            context, sure = self.context, self.py.env_sure
            self.context, self.py.env_sure = f"procedure {name}", {}
            scope = {p["name"]: self.param_type(p) for p in proc["params"]}
            found = self.procedure_blocks[name] = self.block(proc["body"], scope, st.end_pop).id
            self.context, self.py.env_sure = context, sure
        return found

    def param_type(self, p) -> str:
        kind = declared_type(p["type"])
        return list_of(kind) if p.get("list") else kind

    def s_do(self, s, scope):
        proc = self.procedures[s["name"]]
        checks = []
        args = []
        for p, e in zip(proc["params"], s["args"]):
            want = self.param_type(p)
            c = self.expr(e, scope)
            if _clash(want, c.type):
                self.ex.type_error(f"'{p['name']}' of procedure '{proc['name']}' is "
                                   f"{describe(want)}, not {describe(c.type)}", e)
            args.append(c.fn)
            checks.append(self.check(want, c.type) if not want.startswith("list:") else None)
        return st.Do(s["at"], self.procedure_block(s["name"]),
                     tuple(p["name"] for p in proc["params"]), tuple(args), tuple(checks))

    def s_let(self, s, scope):
        value = self.expr(s["value"], scope)
        scope[s["name"]] = value.type
        self._binds(s["name"], None)
        return st.Let(s["at"], s["name"], value.fn)

    def s_if(self, s, scope):
        then = self.block(s["then"], scope, st.end_pop).id
        other = self.block(s["otherwise"], scope, st.end_pop).id if s["otherwise"] else None
        return st.If(s["at"], self.condition(s["cond"], scope).fn, then, other)

    def s_for_each(self, s, scope):
        source = self.expr(s["source"], scope)
        outer = dict(self.py.env_sure)
        self._binds(s["var"], source.items)
        body = self.block(s["body"], {**scope, s["var"]: elem(source.type)}, st.end_for_each).id
        self.py.env_sure = outer
        return st.ForEach(s["at"], s["var"], source.fn, body)

    def s_repeat_times(self, s, scope):
        body = self.block(s["body"], scope, st.end_repeat_times).id
        return st.RepeatTimes(s["at"], self.number(s["count"], scope, "how often to repeat"), body)

    def s_repeat_until(self, s, scope):
        cond = self.condition(s["cond"], scope).fn
        body = self.block(s["body"], scope, st.make_end_repeat_until(cond)).id
        return st.RepeatUntil(s["at"], cond, body)

    def s_turn(self, s, scope):
        body = self.block(s["body"], scope, st.end_turn).id
        return st.Turn(s["at"], self.player(s["player"], scope, "whose turn it is"), body,
                       self.resets["turn"])

    def s_take_action(self, s, scope):
        names = s["among"] or [a["name"] for a in self.ir["actions"]]
        return dc.TakeAction(s["at"], self.player(s["player"], scope, "who takes an action"),
                             [self.actions[n] for n in names], s["optional"], s["if_able"])

    def s_choose(self, s, scope):
        spec = self.choice(s["var"], s["choice"], scope)
        spec.label = s.get("label")
        scope[s["var"]] = spec.value_type
        self._binds(s["var"], self.items_of[spec])
        return dc.Choose(s["at"], self.player(s["player"], scope, "who chooses"), spec)

    def s_each_chooses(self, s, scope):
        chooser = self.expr(s["players"], scope)
        players = chooser.fn
        outer = dict(self.py.env_sure)
        self._binds(s["player_var"], chooser.items)
        spec = self.choice(s["var"], s["choice"], {**scope, s["player_var"]: PLAYER})
        self.py.env_sure = outer
        spec.label = s.get("label")
        scope[s["var"]] = list_of(spec.value_type)
        self._binds(s["var"], None)
        self.picks.add(s["var"])
        return dc.EachChooses(s["at"], s["player_var"], players, spec)

    def s_announce(self, s, scope):
        pieces, tellers = [], []
        for part in s["parts"]:
            if "node" not in part:
                pieces.append(part["text"])
                tellers.append(None)
                continue
            c = self.expr(part, scope)
            tellers.append(teller(c.type, self.lay))
            pieces.append(_told(c.fn, c.type, self.lay))
        to = self.player(s["to"], scope, "who is told") if s["to"] is not None else None
        return st.Announce(s["at"], pieces, to, tellers)

    def s_rotate(self, s, scope):
        return st.Rotate(s["at"], self.lay.zones[s["zone"]].base,
                         self.number(s["by"], scope, "how many seats to rotate"))

    def s_requires(self, s, scope):
        return st.Requires(s["at"])

    def s_new_round(self, s, scope):
        return st.NewRound(s["at"], self.resets["round"])

    def s_end_game(self, s, scope):
        return st.EndGame(s["at"])

    def s_go_to(self, s, scope):
        return st.GoTo(s["at"], self.m.phase_names.index(s["phase"]))


def compile_program(ir: dict, n: int, options: dict) -> Program:
    """The program of one player count: its formulas, runs of statements,
    blocks and option listers run as generated Python."""
    compiler = Compiler(ir, n, options)
    program = compiler.program()
    if compiler.ex.errors:
        unique = {(str(e.span), e.message): e for e in compiler.ex.errors}
        raise RulebookErrors(list(unique.values()))
    return program


__all__ = ["compile_program", "Program", "ANY"]

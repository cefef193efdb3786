"""Compile runs of statements that never stop for a decision to Python.

The machine (`runtime.statements`) steps through a block one statement
object at a time, so that a game can stop at any decision and resume from
its frames. Between two decisions most statements cannot stop: setting and
adding, `let`, moving and dealing, announcing, and the `if`, `for each` and
`repeat` whose blocks hold only such statements. This module writes each
maximal run of them in a block as one Python function ``rN(m, s, f)``; the
machine calls it where the run starts and goes on after its end
(`Block.fast`). The frames at every decision are those the statements
would leave one by one, so saves, replays and views do not change.

The generated text follows `pysource`'s rules (identifiers the compiler's
own, rule values by `repr` or the constants table). A rule error raised in
it is reported at its statement's line: each chunk of code is compiled
under a file name of its own, and `Machine.lines` maps its lines back to
the statements that wrote them (`Machine._failure` reads the traceback).
Loops count their passes as the machine counts statements, so a run that
loops for ever stops with ``rule/loop`` as before.
"""

from __future__ import annotations

import itertools

from ..errors import span_at
from ..runtime import statements as st
from ..language.limits import MAX_NUMBER
from .pysource import _REFUSED, PyFormulas, _TooDeep, _literal


# the statements a run may hold whatever their blocks (they hold none)
_PLAIN = st._PLAIN
# the statements that run themselves in a run (through the frame's locals)
_DELEGATED = (st.Shuffle, st.Reveal, st.NewRound, st.Rotate, st.Permission)


class RunCompiler:
    """Finds the runs of a compiled machine's blocks and writes them."""

    def __init__(self, machine: st.Machine, py: PyFormulas, ir_of: dict, sure_of: dict):
        self.m = machine
        self.py = py
        self.mod = py.mod
        self.lay = machine.lay
        self.ir_of = ir_of            # sid -> the statement's IR
        self.sure_of = sure_of        # sid -> the locals sure where it stands (PyFormulas.env_sure)
        self._chunks = itertools.count(1)
        self._runnable: dict = {}

    # -- which statements -----------------------------------------------------
    def runnable(self, x) -> bool:
        """Whether a statement never suspends, pushes a frame it leaves
        behind, jumps or ends the game, nor holds one that does."""
        found = self._runnable.get(x.sid)
        if found is None:
            self._runnable[x.sid] = False           # (blocks do not nest into themselves)
            found = self._runnable[x.sid] = self._check(x)
        return found

    def _check(self, x) -> bool:
        if x.sid not in self.ir_of:
            return False
        if isinstance(x, _PLAIN):
            return True
        if isinstance(x, st.If):
            return self.block_runnable(x.then) and (
                x.otherwise is None or self.block_runnable(x.otherwise))
        if isinstance(x, (st.ForEach, st.RepeatTimes, st.RepeatUntil)):
            return self.block_runnable(x.body)
        return False

    def block_runnable(self, bid: int) -> bool:
        return all(self.runnable(x) for x in self.m.blocks[bid].stmts)

    # -- the runs ---------------------------------------------------------------
    def compile_all(self) -> None:
        inside = self._inside_runs()
        for block in self.m.blocks:
            block.fast = [None] * len(block.stmts)
            if block.id in inside:      # a run that holds it writes it out
                continue
            i, stmts = 0, block.stmts
            while i < len(stmts):
                j = i
                # a statement that draws begins a run of its own: a new game
                # starts there, after the opening every game shares
                while j < len(stmts) and self.runnable(stmts[j]) and not (j > i and stmts[j].chance):
                    j += 1
                if j > i and self._worth(stmts[i:j]):
                    fn = self._run_function(stmts[i:j])
                    if fn is not None:
                        block.fast[i] = (fn, j, j - i)
                i = max(j, i + 1)

    def _inside_runs(self) -> set:
        """The blocks of statements that a run holds."""
        out: set = set()

        def children(x):
            if isinstance(x, st.If):
                return [x.then] + ([x.otherwise] if x.otherwise is not None else [])
            if isinstance(x, (st.ForEach, st.RepeatTimes, st.RepeatUntil)):
                return [x.body]
            return []

        def cover(bid):
            if bid not in out:
                out.add(bid)
                for y in self.m.blocks[bid].stmts:
                    for b in children(y):
                        cover(b)
        for x in self.m.stmts:
            if self.runnable(x):
                for b in children(x):
                    cover(b)
        return out

    @staticmethod
    def _worth(stmts) -> bool:
        """A run of one statement that runs itself gains nothing."""
        return len(stmts) > 1 or not isinstance(stmts[0], (st.Requires, *_DELEGATED))

    def _run_function(self, stmts):
        name = self.mod.fresh("r")
        self.lines, self.sids = [f"def {name}(m, s, f):", "    e0 = f[2]"], [None, None]
        self._envs = itertools.count(1)
        filename = f"<rulebook statements {next(self._chunks)}>"
        try:
            for x in stmts:
                self.stmt(x, "e0", "f", 1)
        except (_TooDeep,) + _REFUSED:      # (writing it may nest too deep, too)
            return None             # the machine steps through them one by one
        if not self.mod.added(self.lines, filename,
                              f"statements at lines {stmts[0].at[0]}-{stmts[-1].at[0]}"):
            return None
        self.m.lines[filename] = self.sids
        return self.mod.namespace[name]

    def emit(self, depth: int, text: str, sid) -> None:
        self.lines.append("    " * depth + text)
        self.sids.append(sid)

    def expr(self, e, env: str) -> str:
        return self.py.code(e, {}, env).src

    # -- statements ---------------------------------------------------------------
    def stmt(self, x, env: str, frame, depth: int) -> None:
        """Writes statement `x`, reading the locals dict `env`; `frame`: the
        name of a frame whose locals are `env`, or None."""
        s = self.ir_of[x.sid]
        kind = s["node"]
        sid = x.sid
        self.py.env_sure = self.sure_of[sid]
        if isinstance(x, st.Requires):
            return
        if kind in ("set", "add"):
            self.set_slot(s, x, env, depth)
        elif kind == "let":
            self.emit(depth, f"{env}[{s['name']!r}] = {self.copied(s['value'], env, depth, sid)}",
                      sid)
        elif isinstance(x, st.Announce):
            self.announce(s, x, env, depth)
        elif isinstance(x, st.Move):
            self.move(s, env, depth, sid)
        elif isinstance(x, st.Deal):
            self.deal(s, env, depth, sid)
        elif isinstance(x, _DELEGATED):
            self.emit(depth, f"{self.mod.constant(x)}.run(m, s, {frame or f'(0, 0, {env})'})", sid)
        elif isinstance(x, st.If):
            self.if_(s, x, env, depth)
        elif isinstance(x, st.ForEach):
            self.for_each(s, x, env, depth)
        elif isinstance(x, st.RepeatTimes):
            self.repeat_times(s, x, env, depth)
        elif isinstance(x, st.RepeatUntil):
            self.repeat_until(s, x, env, depth)
        else:                   # pragma: no cover - runnable() lets no other through
            raise AssertionError(kind)

    def copied(self, e, env, depth, sid, code=None) -> str:
        """A value to keep in a slot or a local: a list is copied (zones
        hand out theirs live), as SetSlot and Let do."""
        code = code or self.py.code(e, {}, env)
        if code.strict or code.bound is not None or code.sure is not None or code.plain or (
                code.const is not None and not isinstance(code.const[0], list)):
            return code.src         # yes/no, a number, a seat or a piece: never a list
        t = self.mod.fresh("t")
        self.emit(depth, f"{t} = {code.src}", sid)
        return f"list({t}) if isinstance({t}, list) else {t}"

    def announce(self, s, x, env, depth) -> None:
        """The event of an announcement, its text made where it is said."""
        pieces = []
        for part, tell in zip(s["parts"], x.tellers):
            if tell is None:
                pieces.append(repr(part["text"]))
            else:
                pieces.append(f"{self.mod.constant(tell)}({self.expr(part, env)})")
        text = " + ".join(pieces) or "''"
        to = f", 'to': {self.expr(s['to'], env)}" if s["to"] is not None else ""
        self.emit(depth, "if not m.quiet:", x.sid)
        self.emit(depth + 1, f"s.events.append({{'event': 'announce', 'text': {text}{to}}})",
                  x.sid)

    def zone(self, e, env) -> str:
        """The Python expression of the index in s.zones of the zone `e` names."""
        z = self.lay.zones[e["name"] if e["node"] == "name" else e["fn"]]
        if z.index is None:
            return str(z.base)
        return self.py.index(z, [self.py.code(a, {}, env) for a in e["args"]])

    def move(self, s, env, depth, sid) -> None:
        """'move WHAT to ZONE', as `Move.run` does it: WHAT, then the zone."""
        t = self.mod.fresh("t")
        self.emit(depth, f"{t} = {self.expr(s['what'], env)}", sid)
        self.emit(depth, f"{self.mod.constant(st.move_value)}(m, s, {t}, "
                         f"{self.zone(s['to'], env)})", sid)

    def deal(self, s, env, depth, sid) -> None:
        """'deal K from ZONE to ZONE' and 'move K of …', as `Deal.run` does
        them (`statements.top`)."""
        k, take = self.mod.fresh("t"), self.mod.fresh("t")
        self.emit(depth, f"{k} = {self.expr(s['count'], env)}", sid)
        source = f"s.zones[{self.zone(s['source'], env)}]" if s["node"] == "deal" \
            else self.expr(s["what"], env)
        self.emit(depth, f"{take} = {self.mod.constant(st.top)}({source}, {k})", sid)
        self.emit(depth, f"{self.mod.constant(st.move_components)}(m, s, {take}, "
                         f"{self.zone(s['to'], env)})", sid)

    def set_slot(self, s, x, env, depth) -> None:
        sid = x.sid
        if s["node"] == "add":              # the sum, refused past the bound (x.check)
            t, i = self.mod.fresh("t"), self.mod.fresh("t")
            self.emit(depth, f"{t} = {self.expr(s['value'], env)}", sid)
            self.emit(depth, f"{i} = {self.slot(s['target'], env)}", sid)
            self.emit(depth, f"{t} = s.vars[{i}] + {t}", sid)
            self.emit(depth, f"if not {_literal(-MAX_NUMBER)} < {t} < {_literal(MAX_NUMBER)}:", sid)
            self.emit(depth + 1, f"{self.mod.constant(x.check)}({t})", sid)
            self.emit(depth, f"s.vars[{i}] = {t}", sid)
            return
        code = self.py.code(s["value"], {}, env)
        value = self.copied(s["value"], env, depth, sid, code)      # (Python works it out first)
        check = x.check                         # a value of the slot's kind (a seat, a piece …)
        if check is not None and code.sure is not None and code.sure == self.kind(s["target"]):
            check = None                        # a piece sure to be of the slot's type
        if check is not None:
            value = f"{self.mod.constant(check)}({value})"
        self.emit(depth, f"s.vars[{self.slot(s['target'], env)}] = {value}", sid)

    def kind(self, target):
        """The component type whose pieces a `set` target holds, or None."""
        lay = self.lay
        if target["node"] == "attribute":
            kind = lay.has_type.get(target["attr"], "")
        else:
            kind = lay.variables[target["name"] if target["node"] == "name" else target["fn"]].type
        return kind[5:] if kind.startswith("comp:") else None

    def slot(self, target, env) -> str:
        """The Python expression of a `set`/`add` target's slot in s.vars."""
        lay = self.lay
        if target["node"] == "attribute":
            piece = self.py.code(target["target"], {}, env)
            has, kind = lay.has[target["attr"]], piece.sure
            if kind is not None and kind != "player" and lay.types[kind][1] \
                    and has[lay.types[kind][0]] >= 0:          # a piece sure to have it
                return f"{self.mod.constant(has)}[{piece.src}]"
            return f"{self.py.table(lay.attribute_slots(target['attr']))}[{piece.src}]"
        name = target["name"] if target["node"] == "name" else target["fn"]
        v = lay.variables[name]
        if v.index is None:
            return str(v.base)
        args = [self.py.code(a, {}, env) for a in target["args"]]
        if v.index in lay.grids:
            positions = lay.grids[v.index].positions_at(span_at(self.m.file, target["at"]))
            return f"{v.base} + {self.mod.constant(positions)}[{args[0].src}]"
        return self.py.index(v, args, target)

    def block(self, bid: int, env: str, depth: int, sid) -> None:
        """The statements of a nested block, on a copy of the locals (as the
        machine gives each block its own) when the block binds any."""
        stmts = self.m.blocks[bid].stmts
        if not stmts or all(isinstance(x, st.Requires) for x in stmts):
            self.emit(depth, "pass", sid)
            return
        inner = env
        if _binds(self.ir_of, stmts):
            inner = f"e{next(self._envs)}"
            self.emit(depth, f"{inner} = dict({env})", sid)
        for x in stmts:
            self.stmt(x, inner, None, depth)

    def _inner(self, bid: int, env: str) -> str:
        """The locals a loop's block runs on: a copy when it binds names."""
        return f"e{next(self._envs)}" if _binds(self.ir_of, self.m.blocks[bid].stmts) else env

    def if_(self, s, x, env, depth) -> None:
        self.emit(depth, f"if {self.expr(s['cond'], env)}:", x.sid)
        self.block(x.then, env, depth + 1, x.sid)
        if x.otherwise is not None:
            self.emit(depth, "else:", x.sid)
            self.block(x.otherwise, env, depth + 1, x.sid)

    def _count(self, depth, amount: str, body: int, sid) -> None:
        """Passes count towards the machine's limit, as its steps do."""
        stmts = self.m.blocks[body].stmts or [self.m.stmts[sid]]
        self.emit(depth, f"m.steps += {amount}", sid)
        self.emit(depth, f"if m.steps > {st.MAX_STEPS}:", sid)
        self.emit(depth + 1, f"m.count_steps(0, {self.mod.constant(stmts)})", sid)

    def for_each(self, s, x, env, depth) -> None:
        sid = x.sid
        items, item, inner = self.mod.fresh("t"), self.mod.fresh("t"), f"e{next(self._envs)}"
        body = self.m.blocks[x.body].stmts
        self.emit(depth, f"{items} = list({self.expr(s['source'], env)})", sid)
        self.emit(depth, f"if {items}:", sid)
        self.emit(depth + 1, f"{inner} = dict({env})", sid)
        self.emit(depth + 1, f"for {item} in {items}:", sid)
        self.emit(depth + 2, f"{inner}[{s['var']!r}] = {item}", sid)
        for y in body:
            self.stmt(y, inner, None, depth + 2)
        self._count(depth + 1, f"len({items}) * {len(body) + 1}", x.body, sid)

    def repeat_times(self, s, x, env, depth) -> None:
        sid = x.sid
        k, inner = self.mod.fresh("t"), self._inner(x.body, env)
        body = self.m.blocks[x.body].stmts
        self.emit(depth, f"{k} = {self.expr(s['count'], env)}", sid)
        self.emit(depth, f"if {k} > 0:", sid)
        if inner != env:
            self.emit(depth + 1, f"{inner} = dict({env})", sid)
        self.emit(depth + 1, f"for {self.mod.fresh('t')} in range({k}):", sid)
        for y in body:
            self.stmt(y, inner, None, depth + 2)
        self._count(depth + 2, str(len(body) + 1), x.body, sid)

    def repeat_until(self, s, x, env, depth) -> None:
        sid = x.sid
        inner = self._inner(x.body, env)
        body = self.m.blocks[x.body].stmts
        if inner != env:
            self.emit(depth, f"{inner} = dict({env})", sid)
        self.emit(depth, f"while not {self.expr(s['cond'], inner)}:", sid)
        for y in body:
            self.stmt(y, inner, None, depth + 1)
        self._count(depth + 1, str(len(body) + 1), x.body, sid)


def _binds(ir_of: dict, stmts) -> bool:
    """Whether statements bind local names (`let`) in their own block."""
    return any(ir_of[x.sid]["node"] == "let" for x in stmts)

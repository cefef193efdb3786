"""Compile the checked IR's formulas to Python source, run as Python.

This module writes each formula as the Python a programmer would write for
it, and has Python compile it once per player count: the only code a
formula runs as. A top-level formula becomes ``def fN(s, env): return …``,
a define with parameters a function ``dN(s, v1, v2)`` that its callers call
with positional arguments, an aggregate a small function with a plain loop
whose element is a Python local. `FormulaChecker` checks every formula and gives its type first (see
`Compiler.expr`).

What keeps rule text out of the code (the project's promise 2):

- every identifier in the generated source is the compiler's own: ``s``,
  ``env``, ``xs``, ``n``, ``out``, ``first``, ``k``, ``m``, ``r``, ``key``
  and names made of one letter and a counter (``f12`` formula, ``d3``
  define, ``a7`` aggregate, ``c4`` a choice's options, ``v5`` element or
  parameter, ``t2`` temporary, ``k9`` constant; ``rN`` and ``eN`` in
  `pyblocks`; ``bN``, ``frames``, ``pc``, ``g`` and ``p`` in `pyflow`; ``oN``, ``xN``,
  ``wN``, ``eN`` and ``ys`` in `pyoptions`);
- a value that came from the rulebook enters only as `repr` of an int, a
  bool, None or a str (`_literal`), or as a name ``kN`` of the constants
  table, bound in the namespace the code runs in (`Module.constant`);
- nothing is spliced into the code as text: a rulebook's local name is
  read as ``env['name']`` with the key written by `repr`, or as a ``vN``
  local the generator chose.

What keeps every read and write in its slot, and every number within the
limit (language/limits.py MAX_NUMBER), at the least cost:

- an index of a zone or variable `of each player/TYPE`, or a piece whose
  attribute is read, goes through one of the layout's `Slots`, which refuse
  any other value, unless the compiler knows it to be a seat or a piece of
  the type (`Code.sure`: an element of the game's players, of a zone or of
  a component type, a value of a variable of a component type); such are
  read as plain arithmetic or list indices;
- a sum, a difference or a product is compared with the limit inline,
  unless the sizes of both sides are known to be small (`Code.bound`: a
  constant, a size, a table column of numbers).

A formula Python refuses (nested too deep for its parser, which a long run
of '+', '-' and '*' is not: it is one folded tuple) is rulebook/too-deep at
load, at the formula. Runtime errors surface as before: the statement that
evaluates the formula reports its rulebook line and column
(`Machine._failure`). Where a formula's value is known while compiling (an
option, a table, a constant define) it is folded, so a variant's switch
costs nothing when the game runs.
"""

from __future__ import annotations

import contextlib
import functools
import itertools
import re

from ..errors import NestingTooDeep, RuleError, span_at
from ..language.layout import Slots
from ..language import ranges
from ..language import flow
from ..language.limits import MAX_NUMBER, MAX_RANGE
from ..runtime.budget import Budget
from ..runtime.choices import same
from ..stdlib import grid
from ..stdlib.builtins import FUNCTIONS
from ..language.aggregates import PAIRED as _PAIRED
from ..language.compiled import _NO_VALUE
from ..language.formulas import _COMPARE, _floordiv, _mod, too_large
from ..language.optimise import _UNSET, draws, reads_no_state


class Code:
    """Generated Python for one formula node: the expression's text, its
    value when known while compiling, whether it is always True/False; and
    "player" or a component type where the value is sure to be a seat or a
    piece of that type, or none (`sure`: a list indexed by none fails, it
    never reads another entry), or is a list whose items all are (`items`:
    the game's players, a zone, a component type); and for a number, a bound
    its size is sure to stay within (`bound`: a constant, a size, a table
    column of numbers), so that a sum or a product of such needs no check
    against the limit of numbers."""

    __slots__ = ("src", "const", "strict", "items", "sure", "bound", "plain")

    def __init__(self, src: str, const=None, strict=False, items=None, sure=None, bound=None,
                 plain=False):
        self.src, self.const, self.strict, self.items = src, const, strict, items
        self.sure, self.bound = sure, bound
        # a read of a slot whose kind is no list (a number, a word, yes/no, a
        # seat, a piece): what every `set` stores there is checked to be so
        self.plain = plain


class Module:
    """The generated module of one program: its text, its constants table
    and the namespace its functions run in."""

    def __init__(self, filename: str = "<rulebook>"):
        self.filename = filename
        self.namespace: dict = {"__builtins__": _BUILTINS}
        self.chunks: list[str] = []
        self._ids = itertools.count(1)
        self._by_identity: dict = {}
        self._by_value: dict = {}
        self.notes: list[str] = []     # per chunk: where in the rulebook it comes from
        self.described: dict = {}      # constant name -> what it is, in words

    def fresh(self, letter: str) -> str:
        return f"{letter}{next(self._ids)}"

    def constant(self, value, described: str | None = None) -> str:
        """The name ``kN`` bound to `value` in the namespace: one per object,
        and one per list of plain values (they are never changed)."""
        found = self._by_identity.get(id(value))
        if found is not None and self.namespace[found] is value:
            return found
        plain = type(value) is list and all(
            x is None or type(x) in (int, str, bool) for x in value)
        if plain:
            found = self._by_value.get(tuple((type(x), x) for x in value))
            if found is not None:
                return found
        name = self.fresh("k")
        self.namespace[name] = value
        self._by_identity[id(value)] = name
        if plain:
            self._by_value[tuple((type(x), x) for x in value)] = name
        if described is not None:
            self.described[name] = described
        return name

    def add(self, source: str, filename: str | None = None, note: str = ""):
        """Compiles one chunk (a function or several) into the namespace."""
        code = _compiled(source, filename or self.filename)
        exec(code, self.namespace)          # noqa: S102 - the compiler's own code, see above
        self.chunks.append(source)
        self.notes.append(note)

    def added(self, lines: list, filename: str | None = None, note: str = "") -> bool:
        """`add` of the lines of a chunk; False where Python refuses to
        compile it (nested too deep for its parser or its stack)."""
        try:
            self.add("\n".join(lines) + "\n", filename, note)
        except _REFUSED:
            return False
        return True

    def text(self) -> str:
        """The generated module as a reader sees it: the constants, then each
        chunk under a comment saying what in the rulebook it was written for."""
        constants = [f"# {name} = {self.described.get(name) or _describe(value)}"
                     for name, value in self.namespace.items() if name.startswith("k")]
        chunks = [(f"# {note}\n" if note else "") + chunk
                  for note, chunk in zip(self.notes, self.chunks)]
        return "\n".join(["# constants", *constants, "", *chunks])


# what Python raises compiling code nested too deep for it
_REFUSED = (SyntaxError, RecursionError, MemoryError, ValueError)

# the builtins generated code may use, and nothing else
_BUILTINS = {"len": len, "list": list, "sum": sum, "min": min, "max": max, "bool": bool,
             "abs": abs, "dict": dict, "range": range, "isinstance": isinstance,
             "TypeError": TypeError, "KeyError": KeyError}


@functools.lru_cache(maxsize=4096)
def _compiled(source: str, filename: str):
    """Python's code object of a chunk. The same chunk is written for each
    player count of a rulebook, and again each time it is loaded or checked
    (an editor checks at every edit): Python compiles it once. A code
    object never changes; each namespace runs it into functions of its own."""
    return compile(source, filename, "exec")


def _describe(value) -> str:
    if isinstance(value, list) and value and all(hasattr(x, "sid") for x in value):
        return f"the statements at lines {value[0].at[0]}-{value[-1].at[0]}"
    if hasattr(value, "sid") and hasattr(value, "at"):
        return f"the {type(value).__name__} statement at line {value.at[0]}"
    text = repr(value)
    if callable(value):
        text = getattr(value, "__qualname__", type(value).__name__)
    elif type(value).__repr__ is object.__repr__:
        text = type(value).__name__
    return text if len(text) <= 100 else text[:97] + "..."


def _literal(value):
    """The source text of a value written as itself, or None."""
    if value is None or isinstance(value, bool):
        return repr(value)
    if isinstance(value, int):
        return repr(value) if value >= 0 else f"({value!r})"
    if isinstance(value, str):
        return repr(value)
    return None


class PyFormulas:
    """Writes the formulas of one program as Python (see the module text).

    It reads the facts the formula checker found (`ex`: layout, options,
    table values, defines and the fixed ones worked out). `work` is the
    budget its code charges (runtime/budget.py): the program's, which the
    Game restarts at each step of its API."""

    def __init__(self, ex, module: Module | None = None):
        self.ex = ex
        self.work = Budget()
        self.lay = ex.lay
        self.n = ex.lay.n
        self.mod = module or Module()
        # (define, how sure each argument is) -> its function's name, and its
        # result's (sure, items): see Code. A define has a function for each
        # way its calls' arguments are sure, so its body reads those as they are
        self.define_names: dict = {}
        self.define_kinds: dict = {}
        self.items: dict = {}               # id of a top-level formula -> its Code's items
        self._bounds: dict = {}             # attribute -> its column's bound (column_bound)
        self._temps: dict = {}              # an inlined builtin's call -> its temporaries
        # (node, locals, how sure each is, env or not) -> its function's name, the kind of its items
        self._aggregates: dict = {}
        self._pure: dict = {}
        # the Python locals sure to hold a seat ("player") or a piece of a
        # type (its name): an aggregate's element over such a list. Their
        # slots are read without the tables that refuse other values
        self.sure: dict = {}
        # the same for the statement's locals (`env`) where the formula being
        # written stands: an action's `me`, a parameter chosen from such a
        # list, a `for each` element; the program compiler keeps it
        self.env_sure: dict = {}
        self.budget = self.mod.constant(self.work, "the budget of formula work (runtime/budget.py)")
        # while a function of formulas is written (`_worked_once`): the text of
        # each call it makes -> the local that keeps its value, and the
        # locals its own loop binds; None elsewhere (a run of statements,
        # where the state changes from one statement to the next)
        self._once: dict | None = None
        self._loop_vars: tuple = ()
        self._in_loop = False
        self._wrapped: set = set()          # the texts `shared` has written
        self._unset = self.mod.constant(_UNSET, "not worked out yet")
        ex.evaluate = self.evaluate

    def evaluate(self, e: dict):
        """The value of a formula that reads nothing of the state (a define
        of fixed things, worked out once at load), run as its generated
        code. It fails as it would when used."""
        fn = self.function(e)
        if fn is _refused:
            raise _TooDeep()
        self.work.reset()
        return fn(_NO_STATE, {})

    # -- entry points ----------------------------------------------------------
    def function(self, e: dict):
        """The function ``(state, env) -> value`` of a top-level formula. A
        formula Python cannot take (nested too deep for its parser) is
        refused, rulebook/too-deep at the formula, among the program's
        errors (`FormulaChecker.errors`)."""
        try:
            with self._worked_once() as once:
                code = self.code(e, {}, "env")
            self.items[id(e)] = code.items
            if code.const is not None:
                value = code.const[0]
                return lambda s, env: value
            name = self.mod.fresh("f")
            self._add(self._finished(once, [f"def {name}(s, env):", f"    return {code.src}"]),
                      _where("formula", e))
            return self.mod.namespace[name]
        except _TooDeep:
            return self._too_deep("this formula", e["at"])

    def checked(self, e: dict, scope: dict):
        """The function ``(state, env) -> value`` of a formula compiled on its
        own, after the rulebook loaded (a test of the action spaces): checked
        and typed, its errors among `ex.errors`; None where it is refused."""
        self.ex.compile(e, scope)
        fn = self.function(e)
        return None if fn is _refused else fn

    def define_callable(self, name: str):
        """``(state, *args) -> value`` of define `name`, as a display reads
        it (runtime/views.py): its function, or its value where it is fixed."""
        body = self.ex.define(name)
        if body.const is not None:
            value = body.const[0]
            return lambda s, *args: value
        try:
            return self.mod.namespace[self.define_function(name)]
        except _TooDeep:
            return self._too_deep(f"define '{name}'", self.ex.defines[name]["name_at"])

    def _too_deep(self, what: str, at) -> object:
        """rulebook/too-deep at `at`, among the program's errors, for code
        Python refused; the stand-in function that is never run."""
        self.ex.errors.append(NestingTooDeep(
            f"{what} nests too deep for Python to run it", span_at(self.ex.ir["file"], at),
            hint="name a part with 'define', or split a long formula into steps with 'let'"))
        return _refused

    def kept_options(self, source: dict, where: dict, name: str, key):
        """``(state, env) -> [(key, value)]`` of a choice 'one of SOURCE
        where WHERE' binding `name`: the first value of each key, those
        WHERE keeps (ChoiceSpec.pairs), in one loop; None where Python
        cannot take the code. For values that are their own keys, the
        function lists the values alone (and says so: `own_keys`)."""
        try:
            fname, var, k = self.mod.fresh("c"), self.mod.fresh("v"), self.mod.fresh("t")
            listed = self.code(source, {}, "env")
            src = listed.src
            if listed.items is not None:
                self.sure[var] = listed.items
            with self._worked_once(var) as once, self._looping():
                test = self.code(where, {name: var}, "env").src
            table = getattr(key, "table", None)      # a component's key: one table
            if key is same:                  # a value that is its own key
                values, fixed = f"dict.fromkeys({src})", None
                if listed.const is not None and isinstance(listed.const[0], list):
                    try:            # a list fixed at load: its distinct values, once
                        values = fixed = self.mod.constant(list(dict.fromkeys(listed.const[0])))
                    except TypeError:
                        pass
                body = [f"    for {var} in {values}:", f"        if {test}:",
                        f"            out.append({var})"]
                if fixed is not None:
                    body = self._looked_up(body, var, fixed)
                self._add(self._finished(once, [f"def {fname}(s, env):", "    out = []", *body,
                                                "    return out"]), _where("the options", where))
                listed = self.mod.namespace[fname]
                listed.own_keys = True      # the values alone: each is its own key
                return listed
            keyed = f"{self.mod.constant(table)}[{var}]" if table is not None else \
                f"{self.mod.constant(key)}({var})"
            if table is not None:            # (none, which has no key, is no option)
                keyed = f"({keyed} if {var} is not None else None)"
            self._add(self._finished(once, [f"def {fname}(s, env):",
                                            "    first = {}",
                                            f"    for {var} in {src}:",
                                            f"        {k} = {keyed}",
                                            f"        if {k} not in first:",
                                            f"            first[{k}] = {var}",
                                            "    out = []",
                                            f"    for {k}, {var} in first.items():",
                                            f"        if {test}:",
                                            f"            out.append(({k}, {var}))",
                                            "    return out"]), _where("the options", where))
            return self.mod.namespace[fname]
        except _TooDeep:
            return None

    @contextlib.contextmanager
    def _worked_once(self, *loop_vars):
        """While the formulas of one generated function are written: a call
        made more than once in it with the same arguments (a define, a
        builtin, an aggregate), and a call inside its loop that reads
        nothing the loop binds, is worked out once, when first needed, and
        kept in a local of the function (`shared`). The formulas are pure,
        so the value is the same; an error is raised where it was."""
        saved = self._once, self._loop_vars, self._in_loop
        self._once, self._loop_vars, self._in_loop = {}, loop_vars, False
        try:
            yield self._once
        finally:
            self._once, self._loop_vars, self._in_loop = saved

    def _finished(self, once: dict, lines: list) -> list:
        """The lines of a function whose calls `once` keeps: the locals that
        keep them set first, and a call made once outside a loop written
        as it is (keeping it would gain nothing)."""
        kept = []
        text = lines[1:]
        for src, (t, uses, looped) in reversed(list(once.items())):
            if uses > 1 or looped:
                kept.append(t)
                continue
            wrapped = _wrapper(t, src, self._unset)
            text = [line.replace(wrapped, src) for line in text]
        return [lines[0], *[f"    {t} = {self._unset}" for t in reversed(kept)], *text]

    def shared(self, code: Code, e: dict) -> Code:
        """`code`, a call of `e`, through the local that keeps its value in
        the function being written (see `_worked_once`), where it may be."""
        once = self._once
        if once is None or code.const is not None or draws(e):
            return code
        src = code.src
        if src in self._wrapped or (self._loop_vars and _reads_local(src, self._loop_vars)):
            return code             # (kept already: an inlined define of one call)
        found = once.get(src)
        if found is None:
            found = once[src] = [self.mod.fresh("u"), 0, False]
        found[1] += 1
        found[2] = found[2] or self._in_loop
        wrapped = _wrapper(found[0], src, self._unset)
        self._wrapped.add(wrapped)
        return Code(wrapped, None, code.strict, code.items, code.sure, code.bound)

    def members(self, code: Code, e: dict) -> Code:
        """The argument a builtin only looks values up in (`Builtin.members`:
        the cells a `ray` may walk), as a set where it is worth one: a list
        fixed at load, or one that a loop reads again and again without its
        own values (kept in a local, see `shared`). The builtin looks up
        only values of its own making, so the set answers as the list would."""
        if code.const is not None and isinstance(code.const[0], list):
            try:
                return Code(self.mod.constant(frozenset(code.const[0])))
            except TypeError:
                return code
        if self._once is None or not self._in_loop or draws(e):
            return code
        return self.shared(Code(f"{self.mod.constant(_members)}(s, {code.src})"), e)

    @contextlib.contextmanager
    def _looping(self):
        """While the formulas inside a generated function's loop are written."""
        saved, self._in_loop = self._in_loop, True
        try:
            yield
        finally:
            self._in_loop = saved

    def _add(self, lines: list, note: str = "") -> None:
        if not self.mod.added(lines, note=note):
            raise _TooDeep()

    def const(self, value) -> Code:
        text = _literal(value)
        return Code(text if text is not None else self.mod.constant(value), (value,),
                    isinstance(value, bool), bound=abs(value) if type(value) is int else None)

    # -- nodes -------------------------------------------------------------------
    def code(self, e: dict, ctx: dict, env) -> Code:
        """ctx: rulebook local name -> the Python local holding it; `env`:
        the Python local holding the statement's locals (a dict), or None in
        a define's body, which reads only its parameters."""
        return getattr(self, "x_" + e["node"])(e, ctx, env)

    def x_number(self, e, ctx, env):
        return self.const(e["value"])

    x_string = x_symbol = x_bool = x_number

    def x_none(self, e, ctx, env):
        return self.const(None)

    def x_component(self, e, ctx, env):
        return self.const(self.lay.instances[e["value"]])

    def x_list(self, e, ctx, env):
        codes = [self.code(x, ctx, env) for x in e["items"]]
        if codes and all(c.const is not None and (c.const[0] is None or type(c.const[0]) in
                                                  (int, str, bool)) for c in codes):
            return self.const([c.const[0] for c in codes])   # (as a range of fixed ends)
        return Code("[" + ", ".join(c.src for c in codes) + "]")

    def x_range(self, e, ctx, env):
        """`A to B`: the function of `ranges`;
        a constant where both ends are (the checker refused one too long)."""
        low, high = self.code(e["low"], ctx, env), self.code(e["high"], ctx, env)
        if low.const is not None and high.const is not None and type(low.const[0]) is int \
                and type(high.const[0]) is int \
                and ranges.length(low.const[0], high.const[0]) <= MAX_RANGE:
            return self.const(list(range(low.const[0], high.const[0] + 1)))
        numbers = self.mod.constant(ranges.numbers_of(e, self.ex.ir["file"], self.work),
                                    f"the numbers of the range at line {e['at'][0]}")
        return Code(f"{numbers}({low.src}, {high.src})")

    def local(self, name, ctx, env) -> str:
        if name in ctx:
            return ctx[name]
        if not env:         # a define's body reads only its parameters
            raise AssertionError(f"local {name} out of reach")
        return f"{env}[{name!r}]"

    def x_name(self, e, ctx, env):
        n, ref, lay, ex = e["name"], e["ref"], self.lay, self.ex
        if ref == "local":
            src = self.local(n, ctx, env)
            return Code(src, sure=self.sure.get(src) if n in ctx else self.env_sure.get(n))
        if ref == "constant":
            if n == "players":
                return Code(self.mod.constant(ex.players), items="player")
            if n == "player_count":
                return self.const(lay.n)
            if n in ("round", "turn"):
                return Code(f"s.{'round' if n == 'round' else 'turn'}")
            return Code(f"s.vars[{lay.slot_current}]")
        if ref == "option":
            value = ex.options[n]
            pick = ex.option_picks.get(n)
            if pick is not None:
                return Code(self.mod.constant([lay.instances[v] for v in value]))
            return self.const(value)
        if ref == "table":
            return self.const(ex.table[n])
        if ref == "define":
            return self.shared(self.define_call(n, [], ctx, env), e)
        if ref == "component_type":
            first, count = lay.types[n]
            return Code(self.mod.constant(list(range(first, first + count))), items=n)
        if ref == "component":
            return self.const(lay.instances[n])
        if ref == "zone":         # (it holds pieces of its type only: move_components)
            return Code(f"s.zones[{lay.zones[n].base}]", items=lay.zones[n].of)
        if ref == "variable":       # (a set stores a value of its kind: kind_check)
            v = lay.variables[n]
            return Code(f"s.vars[{v.base}]", sure=_piece_kind(lay, v.type),
                        plain=_holds_no_list(v.type))
        if ref == "grid":
            return Code(self.mod.constant(lay.grids[n].cells))
        raise AssertionError(f"unresolved name {n} ({ref})")

    # -- defines -------------------------------------------------------------------
    def define_call(self, name, args: list, ctx, env) -> Code:
        body = self.ex.define(name)       # checked and typed, constant when it is one
        if body.const is not None:
            return self.const(body.const[0])
        params = self.ex.defines[name]["params"] or []
        argcodes = [self.code(a, ctx, env) for a in args]
        if len(params) == 1 and body.lookup is not None and body.lookup[1].local == params[0] \
                and not any(v is _NO_VALUE for v in body.lookup[0]):
            # the body is a static table of its parameter: read the table
            column, arg = self.mod.constant(body.lookup[0]), argcodes[0]
            held = _piece_kind(self.lay, body.type)
            if arg.sure is not None and arg.sure != "player":
                return Code(f"{column}[{arg.src}]", sure=held)
            return Code(f"{column}[{self.table(self.lay.pieces)}[{arg.src}]]", sure=held)
        d = self.ex.defines[name]
        if not self.ex._costly(name) and _size(d["body"]) <= MAX_INLINED \
                and all(_SIMPLE.match(a.src) for a in argcodes):
            # a small define of plain arguments: its body written in place,
            # each parameter read as its argument, as sure as it is
            kept = {a.src: self.sure.get(a.src) for a in argcodes if a.sure is not None}
            self.sure.update({a.src: a.sure for a in argcodes if a.sure is not None})
            try:
                return self.code(d["body"], dict(zip(params, (a.src for a in argcodes))), env)
            finally:
                for src, was in kept.items():
                    if was is None:
                        del self.sure[src]
                    else:
                        self.sure[src] = was
        key = (name, tuple(a.sure for a in argcodes))
        fname = self.define_function(*key)
        sure, items = self.define_kinds.get(key, (None, None))
        return Code(f"{fname}(s{''.join(', ' + a.src for a in argcodes)})", sure=sure, items=items)

    def define_function(self, name, sure: tuple = ()) -> str:
        """The function of define `name` for arguments as sure as `sure`."""
        key = (name, sure)
        found = self.define_names.get(key)
        if found is not None:
            return found
        d = self.ex.defines[name]
        fname = self.define_names[key] = self.mod.fresh("d")
        params = [self.mod.fresh("v") for _ in d["params"] or []]
        for v, kind in zip(params, sure):
            if kind is not None:
                self.sure[v] = kind
        ctx = dict(zip(d["params"] or [], params))
        try:
            with self._worked_once() as once:
                body = self.code(d["body"], ctx, None)
        except _TooDeep:
            del self.define_names[key]
            raise
        self.define_kinds[key] = (body.sure, body.items)
        args = "".join(", " + p for p in params)
        head = f"def {fname}(s{args}):"
        note = f"define {name}, line {d['name_at'][0]}"
        if params and self.pure(name):
            # it reads only its parameters: remembered for the whole game
            # (for at most MAX_REMEMBERED arguments)
            inner, cache = self.mod.fresh("d"), self.mod.constant(
                {}, f"the values define {name} has given")
            key = params[0] if len(params) == 1 else "(" + ", ".join(params) + ")"
            self._add(self._finished(once, [f"def {inner}(s{args}):", f"    return {body.src}"]) +
                      [head,
                       "    try:",
                       f"        return {cache}[{key}]",
                       "    except KeyError:",
                       f"        r = {inner}(s{args})",
                       f"        if len({cache}) < {MAX_REMEMBERED}:",
                       f"            {cache}[{key}] = r",
                       "        return r",
                       "    except TypeError:          # a list argument",
                       f"        return {inner}(s{args})"], note)
            return fname
        if not self.ex._costly(name):
            self._add(self._finished(once, [head, f"    return {body.src}"]), note)
            return fname
        # a define that loops is remembered while options are listed (the
        # state holds still then): see optimise.memoized
        inner = self.mod.fresh("d")
        key = "(" + ", ".join([repr(-next(self.mod._ids)), *params]) + ",)"
        unset = self.mod.constant(_UNSET, "not remembered yet")
        self._add(self._finished(once, [f"def {inner}(s{args}):", f"    return {body.src}"]) +
                  [head,
                   "    m = s.memo",
                   "    if m is None:",
                   f"        return {inner}(s{args})",
                   f"    key = {key}",
                   "    try:",
                   f"        r = m.get(key, {unset})",
                   "    except TypeError:",
                   f"        return {inner}(s{args})",
                   f"    if r is {unset}:",
                   f"        r = m[key] = {inner}(s{args})",
                   "    return r"], note)
        return fname

    def pure(self, name) -> bool:
        """Whether a define reads nothing that changes during a game: no
        zone, variable, `has` attribute, round, turn or current player, no
        draw, and only defines that are pure too."""
        found = self._pure.get(name)
        if found is None:
            self._pure[name] = False
            found = self._pure[name] = reads_no_state(self.ex.defines[name]["body"], self.lay,
                                                      self.pure)
        return found

    def x_call(self, e, ctx, env):
        fn, ref, lay = e["fn"], e["ref"], self.lay
        if ref == "define":
            return self.shared(self.define_call(fn, e["args"], ctx, env), e)
        args = [self.code(a, ctx, env) for a in e["args"]]
        if ref == "zone":
            z = lay.zones[fn]
            return Code(f"s.zones[{self.index(z, args)}]", items=z.of)
        if ref == "variable":
            v = lay.variables[fn]
            if v.index in lay.grids:
                positions = self.mod.constant(lay.grids[v.index].positions_at(
                    span_at(self.ex.ir["file"], e["at"])))
                return Code(f"s.vars[{_plus(v.base, f'{positions}[{args[0].src}]')}]",
                            sure=_piece_kind(lay, v.type), plain=_holds_no_list(v.type))
            return Code(f"s.vars[{self.index(v, args, e)}]", sure=_piece_kind(lay, v.type),
                        plain=_holds_no_list(v.type))
        if ref == "grid":       # a grid of each player: its player is checked, its cells are fixed
            cells = self.mod.constant(lay.grids[fn].cells)
            if args[0].sure == "player":
                return Code(cells)
            return Code(f"({self.table(lay.positions('player'))}[{args[0].src}], {cells})[1]")
        srcs = [a.src for a in args]
        pure = not draws(e)
        if fn == "size" and len(srcs) == 1:
            return Code(f"len({srcs[0]})", bound=_LENGTH)
        if fn == "is_empty" and len(srcs) == 1:
            return Code(f"(not {srcs[0]})", strict=True)
        if fn == "contains" and len(srcs) == 2 and pure:
            return Code(f"({srcs[1]} in {srcs[0]})", strict=True)
        if fn == "opponent" and len(srcs) == 1 and self.n == 2:
            return Code(f"(1 - {srcs[0]})")
        if fn in ("first", "last") and len(srcs) == 1:
            t = self.mod.fresh("t")
            return Code(f"({t}[{0 if fn == 'first' else -1}] if ({t} := {srcs[0]}) else None)",
                        sure=args[0].items)
        if fn in ("x_of", "y_of") and len(srcs) == 1:     # a cell's coordinates, as grid.py
            op = "//" if fn == "x_of" else "%"
            return Code(f"(({srcs[0]}) {op} {grid.BASE} - {grid.OFFSET})")
        if fn == "cell" and len(srcs) == 2:
            if all(a.const is not None and type(a.const[0]) is int for a in args):
                try:            # a cell of fixed coordinates: a number known now
                    at = grid.cell(args[0].const[0], args[1].const[0])
                    return Code(_literal(at), (at,))
                except RuleError:
                    pass        # (refused where it is worked out, as written)
            return self.shared(self._cell(srcs), e)
        if fn == "abs" and len(srcs) == 1:
            return Code(f"abs({srcs[0]})", bound=args[0].bound)
        if fn == "neighbours" and len(srcs) == 1:
            (c,) = self._temporaries("neighbours", srcs, 1)
            return self.shared(Code("[" + ", ".join(
                f"({c} := {srcs[0]}) + {step}" if k == 0 else f"{c} + {step}"
                for k, step in enumerate(grid.STEPS)) + "]"), e)
        looked_up = FUNCTIONS[fn].members
        if looked_up is not None and looked_up < len(srcs) and pure:
            srcs[looked_up] = self.members(args[looked_up], e["args"][looked_up]).src
        impl = FUNCTIONS[fn].impl
        if FUNCTIONS[fn].typed is not None:        # as the checker picked it
            known = self.ex.typed_calls.get(id(e))
            impl = known[1] if known is not None else FUNCTIONS[fn].typed([])
        if FUNCTIONS[fn].charged:                  # it charges the budget for what it builds
            return self.shared(Code(f"{self.mod.constant(impl)}({self.budget}"
                                    f"{''.join(', ' + a for a in srcs)})"), e)
        plain = getattr(impl, "plain", None)       # a builtin that needs no context
        if plain is not None:
            return self.shared(Code(f"{self.mod.constant(plain)}({', '.join(srcs)})"), e)
        return self.shared(Code(f"{self.mod.constant(impl)}(s{''.join(', ' + a for a in srcs)})"), e)

    def _cell(self, srcs: list) -> Code:
        """`cell(x, y)` as arithmetic where x and y are whole numbers on the
        plane; anything else goes to the builtin, which says what is wrong."""
        x, y = self._temporaries("cell", srcs, 2)
        whole, limit = self.mod.constant(int), grid.LIMIT
        return Code(f"((({x} + {grid.OFFSET}) * {grid.BASE} + {y} + {grid.OFFSET}) "
                    f"if (({x} := {srcs[0]}), ({y} := {srcs[1]})) and {x}.__class__ is {whole} "
                    f"and {y}.__class__ is {whole} and -{limit} <= {x} <= {limit} "
                    f"and -{limit} <= {y} <= {limit} "
                    f"else {self.mod.constant(grid.cell)}({x}, {y}))")

    def _temporaries(self, fn: str, srcs: list, count: int) -> tuple:
        """The locals an inlined builtin's call keeps its arguments in: the
        same call, the same names."""
        names = self._temps.get((fn, *srcs))
        if names is None:
            names = self._temps[(fn, *srcs)] = tuple(self.mod.fresh("t") for _ in range(count))
        return names

    def index(self, decl, args: list, node=None) -> str:
        """The slot of a zone's or variable's instance `of each player/TYPE`
        (and TYPE2) that `args` name: base + the position of each argument
        among its index's values, through the index's table, which refuses
        any other value (`Layout.positions`), or as plain arithmetic where
        the argument is sure to be one of them. A second index that is a
        grid of each player is a cell, looked up among the grid's cells (a
        cell off the grid is refused at `node`, the read or the `set`)."""
        lay = self.lay
        indices = [decl.index, getattr(decl, "index2", None)][:len(args)]
        first = [0 if i == "player" or i in lay.grids else lay.types[i][0] for i in indices]
        sure = [a.sure == index for a, index in zip(args, indices)]
        if len(args) == 1 and sure[0]:
            return _plus(decl.base - first[0], args[0].src)
        at = [_plus(-k, a.src) if ok else f"{self._positions(index, node)}[{a.src}]"
              for a, index, k, ok in zip(args, indices, first, sure)]
        if len(args) == 1:
            return _plus(decl.base, at[0])
        return _plus(decl.base, f"({at[0]}) * {decl.inner} + {at[1]}")

    # -- attributes and indexing ---------------------------------------------------
    def x_attribute(self, e, ctx, env):
        code = self.code(e["target"], ctx, env)
        target, lay, attr = code.src, self.lay, e["attr"]
        kind, held = code.sure, _piece_kind(lay, lay.has_type.get(attr, ""))
        if kind is not None and kind != "player":
            # a piece sure to be of type `kind`: the layout's plain columns
            has, (first, count) = lay.has.get(attr), lay.types[kind]
            if count and has is not None and has[first] >= 0:
                return Code(f"s.vars[{self.mod.constant(has)}[{target}]]", sure=held,
                            plain=_holds_no_list(lay.has_type.get(attr, "")))
            if count and attr in lay.static:
                return Code(f"{self.mod.constant(lay.static[attr])}[{target}]",
                            sure=_piece_kind(lay, lay.static_type.get(attr, "")),
                            bound=self.column_bound(attr))
        if attr not in lay.has:
            column = self.mod.constant(lay.static[attr])
            return Code(f"{column}[{self.table(lay.pieces)}[{target}]]",
                        sure=_piece_kind(lay, lay.static_type.get(attr, "")),
                        bound=self.column_bound(attr))
        if attr not in lay.static:
            return Code(f"s.vars[{self.table(lay.attribute_slots(attr))}[{target}]]", sure=held,
                        plain=_holds_no_list(lay.has_type.get(attr, "")))
        return Code(f"{self.mod.constant(_either)}(s, {self.table(lay.pieces)}, "
                    f"{self.mod.constant(lay.has[attr])}, {self.mod.constant(lay.static[attr])}, "
                    f"{target})")

    def column_bound(self, attr: str):
        """The largest size of a table column of whole numbers (none apart),
        or None for a column of something else."""
        if attr not in self._bounds:
            values = [v for v in self.lay.static[attr] if v is not None]
            self._bounds[attr] = max(map(abs, values), default=0) \
                if all(type(v) is int for v in values) else None
        return self._bounds[attr]

    def _positions(self, index: str, node) -> str:
        """The constant's name of the table of an index's values: a grid's
        cells (refusing a cell off it at `node`), or the layout's `Slots`."""
        if index in self.lay.grids:
            return self.mod.constant(self.lay.grids[index].positions_at(
                span_at(self.ex.ir["file"], node["at"])))
        return self.table(self.lay.positions(index))

    def table(self, slots) -> str:
        """The constant's name of one of the layout's `Slots`."""
        what = (f"the positions of the values of an index 'of each {slots.index}'"
                if slots.index is not None else
                f"the slots of attribute '{slots.attr}' by piece" if slots.attr is not None
                else "every piece, by itself")
        return self.mod.constant(slots, what)

    def x_index(self, e, ctx, env):
        target = self.code(e["target"], ctx, env).src
        return Code(f"{target}[{self.code(e['index'], ctx, env).src}]")

    def x_slice(self, e, ctx, env):
        """`xs[A to B]`: the function of `ranges` for this slice."""
        target, low, high = (self.code(e[k], ctx, env) for k in ("target", "low", "high"))
        part = self.mod.constant(ranges.slice_of(e, self.ex.ir["file"]),
                                 f"the slice at line {e['at'][0]}")
        return Code(f"{part}({target.src}, {low.src}, {high.src})", items=target.items)

    # -- operators -------------------------------------------------------------------
    def x_otherwise(self, e, ctx, env):
        left, right = self.code(e["left"], ctx, env), self.code(e["right"], ctx, env)
        t = self.mod.fresh("t")
        return _either_of(f"({t} if ({t} := {left.src}) is not None and {t} != [] else "
                          f"{right.src})", left, right)

    def x_conditional(self, e, ctx, env):
        cond = self.code(e["cond"], ctx, env)
        if cond.const is not None:
            return self.code(e["then"] if cond.const[0] else e["otherwise"], ctx, env)
        then, other = self.code(e["then"], ctx, env), self.code(e["otherwise"], ctx, env)
        code = _either_of(f"({then.src} if {cond.src} else {other.src})", then, other)
        code.strict = then.strict and other.strict
        return code

    def _logic(self, e, ctx, env, is_and: bool):
        left, right = self.code(e["left"], ctx, env), self.code(e["right"], ctx, env)
        for known, other in ((left, right), (right, left)):
            if known.const is not None:
                if bool(known.const[0]) != is_and:       # False and …, True or …
                    return self.const(not is_and)
                if other.const is not None:
                    return self.const(bool(other.const[0]))
                return other if other.strict else Code(f"bool({other.src})", strict=True)
        op = "and" if is_and else "or"
        text = f"{left.src} {op} {right.src}"
        if left.strict and right.strict:
            return Code(f"({text})", strict=True)
        return Code(f"bool({text})", strict=True)

    def x_or(self, e, ctx, env):
        return self._logic(e, ctx, env, False)

    def x_and(self, e, ctx, env):
        return self._logic(e, ctx, env, True)

    def x_not(self, e, ctx, env):
        operand = self.code(e["operand"], ctx, env)
        if operand.const is not None:
            return self.const(not operand.const[0])
        return Code(f"(not {operand.src})", strict=True)

    def x_negate(self, e, ctx, env):
        operand = self.code(e["operand"], ctx, env)
        return Code(f"(-{operand.src})", bound=operand.bound)

    def x_compare(self, e, ctx, env):
        left, right = self.code(e["left"], ctx, env), self.code(e["right"], ctx, env)
        op = e["op"]
        if left.const is not None and right.const is not None:
            try:
                return self.const(_COMPARE[op](left.const[0], right.const[0]))
            except TypeError:
                pass
        return Code(f"({left.src} {op} {right.src})", strict=True)

    def x_arith(self, e, ctx, env):
        op = e["op"]
        if op in _CHAINED:
            chain = _chain_of(e)
            if len(chain) >= LONG_CHAIN:
                return self._long_chain(chain, ctx, env)
        left, right = self.code(e["left"], ctx, env), self.code(e["right"], ctx, env)
        a, b = left.bound, right.bound
        if op in ("+", "-", "*"):
            bound = None if a is None or b is None else a * b if op == "*" else a + b
            if bound is not None and bound < MAX_NUMBER:      # it cannot pass the limit
                return Code(f"({left.src} {op} {right.src})", bound=bound)
            # past the limit, rule/limit at this formula: one comparison inline
            t = self.mod.fresh("t")
            return Code(f"({t} if {_literal(-MAX_NUMBER)} < ({t} := {left.src} {op} {right.src}) "
                        f"< {_literal(MAX_NUMBER)} else {self.refusal(e)}({t}))")
        # a quotient is no larger than what is divided, a remainder than the divisor
        bound = a if op == "//" else b
        if right.const is not None and type(right.const[0]) is int and right.const[0] != 0:
            return Code(f"({left.src} {op} {right.src})", bound=bound)     # never by zero
        helper = self.mod.constant(_floordiv if op == "//" else _mod)
        return Code(f"{helper}({left.src}, {right.src})", bound=bound)

    def _long_chain(self, chain: list, ctx, env) -> Code:
        """A long run of '+', '-' and '*' (`a + b - c + …`, each node the left
        operand of the next): its operands as one tuple, folded left to right
        by a helper that checks each partial result against the limit as the
        nested form does, with the refusal of that node. Written nested, each
        step would open two more parentheses, past what Python's parser takes."""
        first = chain[0]["left"]
        terms = [self.code(first, ctx, env).src] + [self.code(x["right"], ctx, env).src
                                                      for x in chain]
        helper = self.mod.constant(
            _folding(tuple(x["op"] for x in chain), tuple(self._refuse(x) for x in chain)),
            f"the sum at line {chain[-1]['at'][0]}, column {chain[-1]['at'][1]}, folded")
        return Code(f"{helper}(({', '.join(terms)},))")

    def refusal(self, e) -> str:
        """The constant's name of the function that refuses a number the
        formula `e` made past the bound (formulas.too_large)."""
        return self.mod.constant(self._refuse(e),
                                 f"the bound of numbers at line {e['at'][0]}, column {e['at'][1]}")

    def _refuse(self, e):
        """The function that refuses a number past the bound at formula `e`."""
        return too_large(span_at(self.ex.ir["file"], e["at"]))

    # -- aggregates ---------------------------------------------------------------------
    def x_aggregate(self, e, ctx, env):
        """A function of its own, called with the locals in reach: its source
        is charged to the budget (runtime/budget.py), then a plain loop. A
        filter of a list of sure items is such a list too."""
        fn = e["fn"]
        passed = list(ctx.values())
        args = ", ".join(["s", *([env] if env else []), *passed])
        sure = tuple(self.sure.get(v) for v in passed)
        key = (id(e), tuple(ctx), sure, env is not None)
        found = self._aggregates.get(key)
        if found is None:
            found = self._aggregates[key] = self._aggregate(e, list(ctx), sure, env is not None)
        name, items = found
        return self.shared(Code(f"{name}({args})", strict=fn in ("any", "all"),
                                items=items if fn == "filter" and e["value"] is None else None,
                                bound=_LENGTH if fn == "count" else None), e)

    def _aggregate(self, e, names: list, sure: tuple, has_env: bool) -> tuple:
        """The function of an aggregate, given the locals in reach as
        parameters of its own (an inlined define's may be expressions), each
        as sure as the argument passed for it (`sure`); and the kind of its
        source's items where they are sure."""
        fn, mod = e["fn"], self.mod
        name = mod.fresh("a")
        env = "env" if has_env else None
        ctx = {n: mod.fresh("v") for n in names}
        for v, kind in zip(ctx.values(), sure):
            if kind is not None:
                self.sure[v] = kind
        params = ["s", *(["env"] if has_env else []), *ctx.values()]
        inner = dict(ctx)
        var = inner[e["var"]] = mod.fresh("v")
        with self._worked_once(var) as once:
            code = self.code(e["source"], ctx, env)
            source = code.src
            if code.items is not None:
                self.sure[var] = code.items
            with self._looping():
                where = self.code(e["where"], inner, env) if e["where"] is not None else None
                if where is not None and where.const is not None and where.const[0]:
                    where = None    # a condition an option switched on keeps every element
                value = self.code(e["value"], inner, env).src if e["value"] is not None else None
                by = self.code(e["by"], inner, env).src if e["by"] is not None else None
        weight = 1 + sum(flow.expanded_size(e[k], self.ex.define_costs)
                         for k in ("where", "value", "by") if e[k] is not None)
        lines = [f"def {name}({', '.join(params)}):",
                 f"    xs = {source}",
                 "    try:",
                 "        n = len(xs)",
                 "    except TypeError:",
                 "        xs = list(xs)",
                 "        n = len(xs)",
                 f"    {self.budget}.left -= n * {weight}",
                 f"    if {self.budget}.left < 0:",
                 f"        {self.budget}.exhausted()"]
        loop = ["    " + line for line in self._loop(fn, var, where, value, by,
                                                     self.refusal(e) if fn == "sum" else None)]
        if code.const is not None and isinstance(code.const[0], list):
            loop = self._looked_up(loop, var, "xs", source)
        self._add(self._finished(once, lines + loop), _where(f"{fn}(…)", e))
        return name, code.items

    def _looked_up(self, lines: list, var: str, listed: str, constant: str | None = None) -> list:
        """A loop over a list fixed at load (`constant`, the name of the
        list `listed` holds), whose body reads tables of the layout by its
        element (`kN[var]`: the slot of a piece's attribute, of a cell's
        variable, a column of a table): each such read is worked out for
        every element once, at load, and the loop walks the element with
        what it reads. Where a read fails for some element (one the table
        refuses) the loop is left as it is: the refusal is the table's, when
        the element is read."""
        items = self.mod.namespace.get(constant or listed)
        if not isinstance(items, list):
            return lines
        head = f"for {var} in {listed}:"
        body = "\n".join(lines)
        tables = list(dict.fromkeys(re.findall(rf"\b(k\d+)\[{var}\]", body)))
        kept, columns = [], []
        for name in tables:
            table = self.mod.namespace.get(name)
            if not isinstance(table, (Slots, grid.Positions, list)):
                continue            # (a define's remembered values change as it runs)
            try:
                columns.append([table[x] for x in items])
            except (KeyError, IndexError, TypeError, RuleError):
                continue
            kept.append(name)
        if not kept or not any(line.strip() == head for line in lines):
            return lines
        temps = [self.mod.fresh("t") for _ in kept]
        rows = self.mod.constant([(x, *row) for x, *row in zip(items, *columns)],
                                 f"the elements of {constant or listed} with what the loop reads")
        out = []
        for line in lines:
            if line.strip() == head:
                line = line.replace(head, f"for {var}, {', '.join(temps)} in {rows}:")
            for name, temp in zip(kept, temps):
                line = re.sub(rf"\b{name}\[{var}\]", temp, line)
            out.append(line)
        return out

    def _loop(self, fn, var, where, value, by, refusal=None) -> list:
        """The body of an aggregate's function; a sum is refused past the
        bound by the function `refusal` names."""
        w = where.src if where is not None else None
        if fn == "count":
            if w is None:
                return ["return n"]
            return ["k = 0", f"for {var} in xs:", f"    if {w}:", "        k += 1", "return k"]
        if fn == "any":
            if w is None:
                return ["return n > 0"]
            return [f"for {var} in xs:", f"    if {w}:", "        return True", "return False"]
        if fn == "all":
            if w is None:
                return ["return True"]
            return [f"for {var} in xs:", f"    if not {w}:", "        return False",
                    "return True"]
        if fn in ("sum", "min", "max", "filter", "each"):
            item = value if fn != "filter" and value is not None else var
            if w is None and item == var:
                lines = ["out = list(xs)"]
            elif w is None:
                lines = ["out = []", f"for {var} in xs:", f"    out.append({item})"]
            else:
                lines = ["out = []", f"for {var} in xs:", f"    if {w}:",
                         f"        out.append({item})"]
            if fn == "sum":
                return lines + ["r = sum(out)",
                                f"if {_literal(-MAX_NUMBER)} < r < {_literal(MAX_NUMBER)}:",
                                "    return r", f"return {refusal}(r)"]
            last = {"min": "min(out, default=None)", "max": "max(out, default=None)"}.get(fn, "out")
            return lines + [f"return {last}"]
        # the aggregates of (BY value, element) pairs
        pair = f"({by if by is not None else var}, {var})"
        lines = ["out = []", f"for {var} in xs:"]
        if w is not None:
            lines += [f"    if {w}:", f"        out.append({pair})"]
        else:
            lines += [f"    out.append({pair})"]
        return lines + [f"return {self.mod.constant(_PAIRED[fn])}(out)"]


MAX_REMEMBERED = 10_000       # the arguments a pure define remembers its values for
_LENGTH = 1 << 63             # no list is longer (a length is a C size): the bound of a size
MAX_INLINED = 16              # the formula nodes of a define written in place of its calls
# an argument read as it is wherever the parameter is: a local, a literal,
# a statement's local, a slot of the state
_SIMPLE = re.compile(r"^([a-z]\d*|\d+|\(-\d+\)|True|False|None|'[a-zA-Z_0-9]*'|"
                     r"env\d*\['[a-zA-Z_0-9]+'\]|e\d+\['[a-zA-Z_0-9]+'\]|s\.vars\[\d+\])$")


def _members(s, values):
    """A collection as a set for membership tests, or as it is where its
    values cannot be in one. While options are listed (the state holds
    still: `s.memo`), the set of one list is made once; the memo keeps the
    list, so its id names no other while the set is kept."""
    memo = s.memo
    if memo is not None:
        found = memo.get((_MEMBERS, id(values)))
        if found is not None and found[0] is values:
            return found[1]
    try:
        out = frozenset(values)
    except TypeError:
        out = values
    if memo is not None:
        memo[(_MEMBERS, id(values))] = (values, out)
    return out


_MEMBERS = object()     # the memo's key of `_members` sets (no define's key is one)


def _wrapper(t: str, src: str, unset: str) -> str:
    """The text that reads the local `t` keeping the value of `src`, and
    works it out the first time (see PyFormulas.shared)."""
    return f"({t} if {t} is not {unset} else ({t} := {src}))"


def _reads_local(src: str, names: tuple) -> bool:
    """Whether generated text reads one of the Python locals `names`."""
    return any(re.search(rf"\b{name}\b", src) for name in names)


def _size(node) -> int:
    """The formula nodes of an IR subtree."""
    if isinstance(node, dict):
        return ("node" in node) + sum(_size(v) for v in node.values() if isinstance(v, (dict, list)))
    if isinstance(node, list):
        return sum(_size(v) for v in node)
    return 0


# a run of at least this many '+', '-' and '*' is written as one folded tuple
LONG_CHAIN = 16
_CHAINED = ("+", "-", "*")


def _chain_of(e: dict) -> list:
    """The nodes of the run of '+', '-' and '*' that ends at `e`, innermost
    first: each one is the left operand of the next."""
    chain = []
    while e["node"] == "arith" and e["op"] in _CHAINED:
        chain.append(e)
        e = e["left"]
    chain.reverse()
    return chain


def _folding(ops: tuple, refusals: tuple):
    """values -> the operands folded left to right by `ops`, each partial
    result within the limit of numbers, else refused by its node's refusal."""
    steps = tuple(zip(ops, refusals))

    def folded(values):
        v = values[0]
        for (op, refuse), x in zip(steps, values[1:]):
            v = v + x if op == "+" else v - x if op == "-" else v * x
            if not -MAX_NUMBER < v < MAX_NUMBER:
                refuse(v)
        return v
    return folded


class _TooDeep(Exception):
    """Python refused the generated code (nested too deep for it)."""


class _Stateless:
    """What a formula that reads nothing of the state is run with at load:
    a state holding still (nothing remembered), with nothing else to read."""
    __slots__ = ()
    memo = None


_NO_STATE = _Stateless()


def _refused(s, env):
    """What a refused formula runs: nothing, since its program has errors."""
    raise AssertionError("a refused formula never runs")


def _either_of(src: str, a: Code, b: Code) -> Code:
    """The Code of a value that is one of a's or b's: as sure, and as
    bounded, as both are (none, always sure, takes the other's)."""
    def sure(x):
        return "none" if x.const == (None,) else x.sure
    kinds = {sure(a), sure(b)} - {"none"}
    bound = None if a.bound is None or b.bound is None else max(a.bound, b.bound)
    return Code(src, sure=kinds.pop() if len(kinds) == 1 else None,
                items=a.items if a.items == b.items else None, bound=bound)


def _holds_no_list(kind: str) -> bool:
    """Whether a slot of static type `kind` is sure to hold no list: a
    number, a word, yes/no, a seat or a piece (statements.kind_check)."""
    return kind in ("number", "symbol", "bool", "player") or (kind.startswith("comp:") and kind != "comp:")


def _piece_kind(lay, kind: str):
    """The component type a slot or a table column of static type `kind`
    holds pieces of (or none), else None. A column of pieces is made of
    references to them; a variable or `has` value of a component type
    holds only its pieces, which every `set` and starting value checks
    (statements.kind_check) and a save's loading too."""
    if kind.startswith("comp:") and kind[5:] in lay.types:
        return kind[5:]
    return None


def _where(what: str, e: dict) -> str:
    return f"{what} at line {e['at'][0]}, column {e['at'][1]}"


def _plus(offset: int, src: str) -> str:
    if offset == 0:
        return src
    return f"{offset} + {src}" if offset > 0 else f"{src} - {-offset}"


def _either(s, pieces, has, static, cid):
    """An attribute some components keep in the state and others have fixed;
    a value that is no piece is refused (`Layout.pieces`)."""
    slot = has[pieces[cid]]
    return s.vars[slot] if slot >= 0 else static[cid]


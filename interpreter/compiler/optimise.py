"""Shortcuts the expression compiler takes where it knows, while compiling,
more than one node says, so that a formula costs less at run time.

`Shortcuts`, a base of `ExprCompiler`, holds those that need the compiler:
whether a define reads nothing that changes (it is then worked out once, at
load) or loops over a collection (its calls are then remembered while legal
actions are listed); a define's body compiled in place of a call whose
arguments are local names; an attribute of an attribute that never changes
read as one table; an aggregate's elements picked first by the tests that
need no local names (an attribute's column, an empty zone). Below it:
`memoized`, which remembers a define's calls, and the queries of IR subtrees
the shortcuts rest on, two of which the program compiler uses too
(`names_read`, `draws`).
"""

from __future__ import annotations

from ..stdlib.builtins import FUNCTIONS
from .compiled import _NO_VALUE, Compiled, _table_read
from ..stdlib.types import ANY, comp_type, elem, is_comp


class Shortcuts:
    """The shortcuts of `ExprCompiler` that need its state: `lay`, `defines`,
    `errors`, `compile` and the caches `_inline_cache` and `_costly_defines`."""

    def _reads_no_state(self, node) -> bool:
        """Whether a formula reads nothing that changes during a game (see
        `reads_no_state`), calling only defines without parameters that
        read no state either."""
        def define_ok(name):
            d = self.defines[name]
            return not d["params"] and self._reads_no_state(d["body"])
        return reads_no_state(node, self.lay, define_ok)

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

    def _composed(self, target: Compiled, outer: list, attr: str, t, at) -> Compiled:
        """x.a.b where both attributes never change: one table, b of a of x.
        A component whose a is not a component fails as x.a.b would."""
        inner, base, _ = target.lookup
        column = [outer[v] if type(v) is int and 0 <= v < len(outer) else _NO_VALUE
                  for v in inner]
        return Compiled(_table_read(column, base, attr, self.lay.pieces), t, at,
                        lookup=(column, base, attr))

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
            narrowed = self._narrowed(test, var, item, sf, scope, source.items)
            if narrowed is None:
                break
            sf, used = narrowed, used + 1
        if not used:
            return None
        return sf, _conjunction(tests[used:])

    def _narrowed(self, test, var, item, src, scope, items):
        """`src` filtered by one test of the element, or None. `items`: the
        kind the elements are sure to be of (`Compiled.items`), if any; else
        the tables that refuse another value are read."""
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
            if items != slot.index:        # an element of another type is refused
                base, at = slot.base, lay.positions(slot.index)
                if negate:
                    return lambda s, env: [x for x in src(s, env) if s.zones[base + at[x]]]
                return lambda s, env: [x for x in src(s, env) if not s.zones[base + at[x]]]
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
            if items != item[5:]:                 # an element of another type is refused
                has = lay.attribute_slots(attr)

            def select(s, env):
                v = vf(s, env)
                vars_ = s.vars
                return [x for x in src(s, env) if vars_[has[x]] == v]
            return select
        if has is None and static is not None:
            if items is None or items == "player":     # a value that is no piece is refused
                pieces = lay.pieces

                def select_checked(s, env):
                    v = vf(s, env)
                    return [x for x in src(s, env) if static[pieces[x]] == v]
                return select_checked

            def select_static(s, env):
                v = vf(s, env)
                return [x for x in src(s, env) if static[x] == v]
            return select_static
        return None


def reads_no_state(node, lay, define_ok) -> bool:
    """Whether an IR subtree reads nothing that changes during a game: no
    zone, variable, `has` attribute, round, turn or current player, no
    random draw, and only defines for which `define_ok(name)` holds."""
    if isinstance(node, list):
        return all(reads_no_state(x, lay, define_ok) for x in node)
    if not isinstance(node, dict):
        return True
    kind, ref = node.get("node"), node.get("ref")
    if ref in ("zone", "variable"):
        return False
    if ref == "constant" and node.get("name") in ("round", "turn", "current"):
        return False
    if kind == "attribute" and node.get("attr") in lay.has:
        return False
    if kind == "call" and ref == "builtin" and FUNCTIONS[node["fn"]].random:
        return False
    if ref == "define" and not define_ok(node["name"] if kind == "name" else node["fn"]):
        return False
    return all(reads_no_state(v, lay, define_ok) for k, v in node.items() if k != "at")


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

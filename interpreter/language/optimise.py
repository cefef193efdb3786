"""What the expression checker knows, while compiling, beyond what one node
says, so that the generated code costs less at run time.

`Shortcuts`, a base of `FormulaChecker`, holds those that need the compiler:
whether a define reads nothing that changes (it is then worked out once, at
load) or loops over a collection (its calls are then remembered while legal
actions are listed); a define's body compiled in place of a call whose
arguments are local names; an attribute of an attribute that never changes
read as one table. Below it: the queries of IR subtrees the shortcuts rest
on, which the program compiler and the generated code's writer use too
(`names_read`, `draws`, `reads_no_state`).
"""

from __future__ import annotations

from ..stdlib.builtins import FUNCTIONS
from .compiled import _NO_VALUE, Compiled
from ..stdlib.types import ANY


class Shortcuts:
    """The shortcuts of `FormulaChecker` that need its state: `lay`, `defines`,
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
        return Compiled(None, t, at, lookup=(column, base, attr))


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


_UNSET = object()       # a value not worked out (yet)


def _has_aggregate(node) -> bool:
    if isinstance(node, dict):
        return node.get("node") == "aggregate" or any(_has_aggregate(v) for v in node.values())
    if isinstance(node, list):
        return any(_has_aggregate(v) for v in node)
    return False


def _conjuncts(node) -> list:
    """The tests of `a and b and c`, in order."""
    if node["node"] == "and":
        return _conjuncts(node["left"]) + _conjuncts(node["right"])
    return [node]


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

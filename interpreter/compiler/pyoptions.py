"""Compile the listing of each 'takes an action' to one Python function.

A player's options at a 'takes an action' are, action by action, the keys
of its parameters (decisions.py: `ActionDef.options`, `Offer`). Listing
them through those objects costs several calls for each action before any
option is found. This module writes, for each such statement, a function
``oN(s, env, p)`` that lists them as those calls do, in the same order and
with the same values: the use limit of each action is read from its slot,
an action of one parameter takes the keys its choice lists, with the
values they stand for where it lists them (`ChoiceSpec.listed`: a compiled
`where`'s loop, a 'one of' source's first element of each key), an action
of independent parameters the product of their keys, and one whose
parameters read earlier ones a loop per parameter, each read with the
values chosen before it (`ActionDef._prefixes`, `_last_free`). The
statement calls it when the engine asks for the options
(`TakeAction.options`).

The text follows `pysource`'s rules: its identifiers are the compiler's
own and everything from the rulebook is a constant of the module.
"""

from __future__ import annotations

from ..runtime import decisions as dc
from .pysource import Module


class OptionsCompiler:
    """Writes the option lister of every 'takes an action' of a machine."""

    def __init__(self, machine, mod: Module):
        self.m = machine
        self.mod = mod

    def compile_all(self) -> None:
        for x in self.m.stmts:
            if type(x) is dc.TakeAction:
                x.lister = self._function(x)

    def _function(self, x: dc.TakeAction):
        k = self.mod.constant
        name = self.mod.fresh("o")
        lines = [f"def {name}(s, env, p):", "    out = []", "    n = 0"]
        for a in x.actions:
            depth = 1
            if a.limit is not None:
                base, times = a.limit
                lines.append(f"    if s.vars[{base} + p] < {times}:")
                depth = 2
            pad = "    " * depth
            requires = a.requires
            if requires is not None and (a.requires_first or not a.params):
                lines.append(f"{pad}if {k(requires)}(s, env):")     # (read before any option)
                requires = None
                depth += 1
                pad = "    " * depth
            if requires is None and len(a.params) == 1:
                self._one(lines, pad, a, a.params[0])
            elif not a.params:
                lines.append(f"{pad}out.append([({k(dc.Action)}(p, {a.name!r}, (), {a.private!r}, "
                             f"{k(a.show)}), env)])")
                lines.append(f"{pad}n += 1")
            elif requires is None and a.independent:
                self._product(lines, pad, a)
            else:
                self._nested(lines, depth, a, requires)
        if x.optional:
            lines.append(f"    out.append([({k(dc.Action)}(p, {dc.PASS!r}, ()), {dc.PASS!r})])")
            lines.append("    n += 1")
        lines.append(f"    return {k(dc.offer_of)}(out, n)")
        if not self.mod.added(lines, note=f"the options at line {x.at[0]}"):
            return None             # (listed through the actions themselves)
        return self.mod.namespace[name]

    def _one(self, lines: list, pad: str, a, spec) -> None:
        """One parameter: a product of its keys, with the values they stand
        for (bound when taken) where its listing finds them."""
        k = self.mod.constant
        lines.append(f"{pad}xs, r = {k(spec.listed)}(s, env)")
        lines.append(f"{pad}if xs:")
        lines.append(f"{pad}    out.append({k(dc.product_of)}(p, {a.name!r}, xs, "
                     f"{a.private!r}, {k(a.show)}, r))")
        lines.append(f"{pad}    n += len(xs)")

    def _product(self, lines: list, pad: str, a) -> None:
        """Parameters none of which reads another: the product of their keys,
        none listed once one has no option (`ActionDef.options`)."""
        k = self.mod.constant
        count = len(a.params)
        for i, spec in enumerate(a.params):
            lines.append(f"{pad}x{i}, w{i} = {k(spec.listed)}(s, env)")
            lines.append(f"{pad}if x{i}:")
            pad += "    "
        keys = ", ".join(f"x{i}" for i in range(count))
        values = ", ".join(f"w{i}" for i in range(count))
        lines.append(f"{pad}out.append({k(dc.Product)}(p, {a.name!r}, [{keys}], {a.private!r}, "
                     f"{k(a.show)}, [{values}]))")
        lines.append(f"{pad}n += " + " * ".join(f"len(x{i})" for i in range(count)))

    def _nested(self, lines: list, depth: int, a, requires) -> None:
        """Parameters that read earlier ones: a loop per parameter over its
        keys and values, each read with the values chosen before it (in
        ``eI``, the locals with those values), as `ActionDef._prefixes`
        walks them. With no `requires` the last parameter is a product of
        its keys, with the values chosen before (`ActionDef._last_free`);
        with one, every choice it allows is an option bound to its locals."""
        k = self.mod.constant
        params = a.params
        loops = params if requires is not None else params[:-1]
        pad = "    " * depth
        if requires is not None:
            lines.append(f"{pad}ys = []")
        env = "env"
        for i, spec in enumerate(loops):
            lines.append(f"{pad}for x{i}, w{i} in {k(spec.pairs)}(s, {env}):")
            pad += "    "
            lines.append(f"{pad}e{i} = {env}.copy()")
            lines.append(f"{pad}e{i}[{spec.name!r}] = w{i}")
            env = f"e{i}"
        if requires is not None:
            keys = "".join(f"x{i}, " for i in range(len(loops)))
            lines.append(f"{pad}if {k(requires)}(s, {env}):")
            lines.append(f"{pad}    ys.append(({k(dc.Action)}(p, {a.name!r}, ({keys}), "
                         f"{a.private!r}, {k(a.show)}), {env}))")
            pad = "    " * depth
            lines.append(f"{pad}if ys:")
            lines.append(f"{pad}    out.append(ys)")
            lines.append(f"{pad}    n += len(ys)")
            return
        last = len(loops)
        keys = "".join(f"[x{i}], " for i in range(last))
        values = "".join(f"[w{i}], " for i in range(last))
        lines.append(f"{pad}xs, r = {k(params[-1].listed)}(s, {env})")
        lines.append(f"{pad}if xs:")
        lines.append(f"{pad}    out.append({k(dc.Product)}(p, {a.name!r}, [{keys}xs], {a.private!r}, "
                     f"{k(a.show)}, [{values}r]))")
        lines.append(f"{pad}    n += len(xs)")

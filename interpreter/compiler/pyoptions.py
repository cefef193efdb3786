"""Compile the listing of each 'takes an action' to one Python function.

A player's options at a 'takes an action' are, action by action, the keys
of its parameters (decisions.py: `ActionDef.options`, `Offer`). Listing
them through those objects costs several calls for each action before any
option is found. This module writes, for each such statement, a function
``oN(s, env, p)`` that lists them as those calls do, in the same order and
with the same values: the use limit of each action is read from its slot,
an action of one parameter takes the keys its choice lists, with the
values they stand for where it lists them (`ChoiceSpec.listed`: a compiled
`where`'s loop, a 'one of' source's first element of each key), and every
other action lists itself through `ActionDef.options`. The statement calls
it when the engine asks for the options (`TakeAction.options`).

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
            spec = a.params[0] if a.single else None
            if spec is None:            # listed by the action itself
                lines.append(f"{pad}xs = {k(a)}.options(s, p, env)")
                lines.append(f"{pad}if xs:")
                lines.append(f"{pad}    n += {k(dc.added)}(out, xs)")
                continue
            # one parameter: a product of its keys, with the values they
            # stand for (bound when taken) where its listing finds them
            lines.append(f"{pad}xs, r = {k(spec.listed)}(s, env)")
            lines.append(f"{pad}if xs:")
            lines.append(f"{pad}    out.append({k(dc.product_of)}(p, {a.name!r}, xs, "
                         f"{a.private!r}, {k(a.show)}, r))")
            lines.append(f"{pad}    n += len(xs)")
        if x.optional:
            lines.append(f"    out.append([({k(dc.Action)}(p, {dc.PASS!r}, ()), {dc.PASS!r})])")
            lines.append("    n += 1")
        lines.append(f"    return {k(dc.offer_of)}(out, n)")
        if not self.mod.added(lines, note=f"the options at line {x.at[0]}"):
            return None             # (listed through the actions themselves)
        return self.mod.namespace[name]

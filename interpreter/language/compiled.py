"""A checked formula, and the static tables it may stand for.

`Compiled` is what the formula checker (`formulas`) makes of a formula: its static
type and source span, and what is known of it while compiling — its value
when that is fixed, the static table by component id it reads (a component
attribute that never changes), its local name when it is one — and, once
`pysource` has written it, its function ``f(state, env) -> value``. A
formula of a static table is a table again: `_mapped` maps one, and
`_merged_conditional` turns `A if C else B` into one when C is a table and
A and B constants or tables of the same local name. An entry `_NO_VALUE`
fails when read, as the formula would; the generated code reads a table
through the layout's `pieces`, so that a value that is no piece is
refused, never read from the end of the list.
"""

from __future__ import annotations


_NO_VALUE = object()      # in a composed attribute table: the first attribute is no component


class Compiled:
    """A checked formula: its function (once generated), its type, its span."""

    __slots__ = ("fn", "type", "at", "const", "lookup", "local", "strict_bool", "items")

    def __init__(self, fn, type_, at, const=None, lookup=None, local=None, strict_bool=False,
                 items=None):
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
        # a list whose items are sure to be seats ("player") or pieces of one
        # type (its name): the game's players, a zone, a component type
        self.items = items


def _merged_conditional(cond: Compiled, then: Compiled, other: Compiled, t, at):
    """`A if C else B` where C is a static table of a local name x and A and
    B are constants or static tables of x too: one table of x."""
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
    if yes is None or no is None:
        return None
    table = [_NO_VALUE if c is _NO_VALUE else yes[i] if c else no[i]
             for i, c in enumerate(column)]
    return Compiled(None, t, at, lookup=(table, base, attr))


def _mapped(column: list, f) -> list:
    """f of every entry of a static table, keeping the entries that fail."""
    return [_NO_VALUE if v is _NO_VALUE else f(v) for v in column]

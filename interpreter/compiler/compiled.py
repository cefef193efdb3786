"""A compiled expression, and the static tables it may stand for.

`Compiled` is what the expression compiler makes of a formula: the closure
``f(state, env) -> value``, its static type and source span, and what is
known of it while compiling — its value when that is fixed, the static table
by component id it reads (a component attribute that never changes), its
local name when it is one. A formula of a static table is a table again:
`_table_read` makes the closure that reads one, `_mapped` maps one, and
`_merged_conditional` turns `A if C else B` into one when C is a table and A
or B a constant or a table of the same local name. An entry `_NO_VALUE`
fails when read, as the formula would. A table is a list by piece: its
closures look the value up in the layout's `pieces` first, so that a value
that is no piece is refused, never read from the end of the list.
"""

from __future__ import annotations


_NO_VALUE = object()      # in a composed attribute table: the first attribute is no component


class Compiled:
    """A compiled expression: the closure, its type, and its source span."""

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


def _table_read(column: list, base: Compiled, attr: str, pieces):
    """The closure reading column[base's value], where column is a static
    table indexed by component id (entries _NO_VALUE fail as x.a.b would),
    and the value is looked up in `pieces` first (`Layout.pieces`)."""
    bf, n = base.fn, base.local
    if any(v is _NO_VALUE for v in column):
        def failed(x):
            raise TypeError(f"'{attr}' of {x!r}: its attribute is no component")
        if n is not None:
            def read_local(s, env):
                v = column[pieces[env[n]]]
                return failed(env[n]) if v is _NO_VALUE else v
            return read_local

        def read(s, env):
            x = bf(s, env)
            v = column[pieces[x]]
            return failed(x) if v is _NO_VALUE else v
        return read
    if n is not None:
        return lambda s, env: column[pieces[env[n]]]
    return lambda s, env: column[pieces[bf(s, env)]]


_BRANCH = object()     # in a merged conditional's table: evaluate the branch


def _merged_conditional(cond: Compiled, then: Compiled, other: Compiled, t, at, pieces):
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
        return Compiled(_table_read(table, base, attr, pieces), t, at, lookup=(table, base, attr))
    branch = (other if yes is not None else then).fn
    failing = _table_read(table, base, attr, pieces)

    def read(s, env):
        v = table[pieces[env[n]]]
        if v is _BRANCH:
            return branch(s, env)
        return failing(s, env) if v is _NO_VALUE else v
    return Compiled(read, t, at)


def _mapped(column: list, f) -> list:
    """f of every entry of a static table, keeping the entries that fail."""
    return [_NO_VALUE if v is _NO_VALUE else f(v) for v in column]

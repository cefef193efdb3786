"""The work formulas may do for one step of the game, counted so that no
rulebook can make the engine run for ever.

Statements are counted by the machine (`statements.MAX_STEPS`). Formulas
are counted here: every aggregate charges, before it loops, one unit a
formula node it evaluates for each element (its WHERE, VALUE and BY with the
defines they call written out), so nested aggregates over large collections
run out as surely as a long loop. Formulas without an aggregate cost at most
their size, which the checks bound when the rulebook loads
(`language.flow.MAX_FORMULA_SIZE`). The count starts again at every step of the API (a
new game, listing a player's options, applying an action, scoring, a view)
and before each value the compiler works out at load; past `MAX_WORK` the
step stops with ``rule/loop``. The limit is a count, never a time, so every
machine stops at the same point and games stay reproducible.
"""

from __future__ import annotations

from ..errors import RuleLoop

MAX_WORK = 5_000_000           # well under a second of formula work (0.2-0.4 s measured)


class Budget:
    """What is left of MAX_WORK in the current step."""

    __slots__ = ("left",)

    def __init__(self):
        self.left = MAX_WORK

    def reset(self) -> None:
        self.left = MAX_WORK

    def exhausted(self):
        """Raised by a formula that has just spent more than is left."""
        self.left = 0
        raise RuleLoop(f"more than {MAX_WORK:,} units of formula work in one step: "
                       f"the rules loop or explode",
                       hint="an aggregate over a very large collection, or aggregates "
                            "nested too deep; count less, or keep a running total")

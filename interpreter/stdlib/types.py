"""The names of the value types that the checker's builtin table, the
compiler and the runtime share.

A type is a short string: ``number``, ``bool``, ``symbol``, ``player``,
``none``, ``any``, ``cell``, ``comp:T`` for a component of type T (``comp:``
for any component) and ``list:T`` for a list of T. The compiler uses them for
dedup keys and printing; the builtin signatures in `builtins` are written
with them.
"""

from __future__ import annotations


# Types the compiler tracks for values (used for dedup keys and printing).
NUMBER, BOOL, SYMBOL, PLAYER, NONE, ANY = "number", "bool", "symbol", "player", "none", "any"
CELL = "cell"      # a square of a grid: see interpreter/stdlib/grid.py


def comp_type(name: str | None) -> str:
    return f"comp:{name}" if name else "comp:"


def list_of(t: str) -> str:
    return "list:" + t


def elem(t: str) -> str:
    return t[5:] if t.startswith("list:") else ANY


def is_comp(t: str) -> bool:
    return t.startswith("comp:")

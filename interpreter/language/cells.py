"""Columns that a component table computes from its other columns.

A printed rulebook says "a card is worth 5 bullheads if its value is a
multiple of 11, else 1" rather than listing a number per card. Under a
component table, `NAME = FORMULA` adds the column NAME, its cell in each row
the formula worked out from that row's cells: `bullheads = 5 if value % 11
== 0 else 1`. A name in the formula is a column of the row (one computed
above included) or, as in a table's cells, a word; the formula has numbers,
words, yes/no and none, `+ - * // %`, comparisons, `and`, `or`, `not` and `A
if C else B`, nothing that changes in a game. Each row's cell is worked out
here, at load, and from then on the column is a column like any other.
"""

from __future__ import annotations

from ..errors import WrongType, did_you_mean
from .limits import MAX_NUMBER

_KNOWN = "a computed column is made of numbers, words, yes/no, the row's columns, " \
         "+ - * // %, comparisons, and, or, not and 'A if C else B'"


class CellError(Exception):
    """Why a computed cell could not be worked out, at a part of its formula."""

    def __init__(self, cls, message: str, at, hint: str | None = None):
        super().__init__(message)
        self.cls, self.message, self.at, self.hint = cls, message, at, hint


def computed(e: dict, cells: dict):
    """The value of formula `e` for one row, `cells` its cells by column."""
    node = e["node"]
    if node in ("number", "bool"):
        return e["value"]
    if node in ("string", "symbol"):
        return e["value"]
    if node == "none":
        return None
    if node == "name":
        n = e["name"]
        if n in cells:
            return _cell_value(cells[n])
        return n                            # a word, as a cell's NAME is
    if node == "conditional":
        return computed(e["then"] if _yes_no(e["cond"], cells) else e["otherwise"], cells)
    if node == "and":
        return _yes_no(e["left"], cells) and _yes_no(e["right"], cells)
    if node == "or":
        return _yes_no(e["left"], cells) or _yes_no(e["right"], cells)
    if node == "not":
        return not _yes_no(e["operand"], cells)
    if node == "negate":
        return _checked(-_number(e["operand"], cells), e)
    if node == "compare":
        return _compare(e, cells)
    if node == "arith":
        a, b = _number(e["left"], cells), _number(e["right"], cells)
        op = e["op"]
        if op in ("//", "%") and b == 0:
            raise CellError(WrongType, f"'{op}' by 0 in this row", e["right"]["at"],
                            hint="guard it: 'A // B if B != 0 else 0'")
        value = a + b if op == "+" else a - b if op == "-" else a * b if op == "*" \
            else a // b if op == "//" else a % b
        return _checked(value, e)
    raise CellError(WrongType, "a computed column cannot read this: it is worked out once, "
                               "from its row", e["at"], hint=_KNOWN)


def _cell_value(cell: dict):
    node = cell["node"]
    if node == "none":
        return None
    if node == "list":
        return [_cell_value(x) for x in cell["items"]]
    return cell.get("value")


def _number(e: dict, cells: dict) -> int:
    v = computed(e, cells)
    if isinstance(v, int) and not isinstance(v, bool):
        return v
    raise CellError(WrongType, f"{_what(e, v, cells)} is not a number", e["at"],
                    hint=_column_hint(e, cells))


def _yes_no(e: dict, cells: dict) -> bool:
    v = computed(e, cells)
    if isinstance(v, bool):
        return v
    raise CellError(WrongType, f"{_what(e, v, cells)} is not yes/no", e["at"],
                    hint=_column_hint(e, cells) or "compare it: 'value == 5', 'kind != plain'")


def _compare(e: dict, cells: dict) -> bool:
    op = e["op"]
    if op in ("==", "!="):
        a, b = computed(e["left"], cells), computed(e["right"], cells)
        return (a == b and type(a) is type(b)) == (op == "==")
    a, b = _number(e["left"], cells), _number(e["right"], cells)
    return a < b if op == "<" else a <= b if op == "<=" else a > b if op == ">" else a >= b


def _checked(value: int, e: dict) -> int:
    if not -MAX_NUMBER < value < MAX_NUMBER:
        raise CellError(WrongType, "this number is too large for a table's cell", e["at"])
    return value


def _what(e: dict, v, cells: dict) -> str:
    if e["node"] == "name" and e["name"] not in cells:
        return f"'{e['name']}', a word (no column of this table is called so),"
    if v is None:
        return "none"
    if isinstance(v, bool):
        return "yes/no"
    if isinstance(v, list):
        return "a list"
    return f"'{v}'" if isinstance(v, str) else str(v)


def _column_hint(e: dict, cells: dict) -> str | None:
    if e["node"] == "name" and e["name"] not in cells:
        return did_you_mean(e["name"], [c for c in cells if c != "name"]) or \
            "columns: " + ", ".join(c for c in cells if c != "name")
    return None


__all__ = ["CellError", "computed"]

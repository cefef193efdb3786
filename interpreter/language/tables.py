"""Rows of a component table that the table itself generates.

A printed rulebook says "every colour with every value from 2 to 10, one
card each" rather than listing 45 cards. A table row says it the same way
with `each` cells: `| each [a, b] | each 2 to 10 | 1 |` stands for one
row per combination of its `each` cells' values (their product, the first
column's values outermost), its other cells the same in every one. A
`name` cell written as a string with `{COLUMN}` in it is a pattern that
each row fills in with its own cells, `"{colour}{value}"` naming the pieces
`a2` … `b10`. The rows are made here, before any other check of the
component reads them, so everything after sees plain rows; how many a
rulebook's tables make in all is bounded (MAX_TABLE_ROWS) and counted
before any is built.
"""

from __future__ import annotations

import copy
import itertools
import math
import re

from ..errors import (DuplicateName, InvalidDeclaration, LimitExceeded, UnknownName, WrongType,
                      did_you_mean)
from .limits import MAX_NAME, MAX_TABLE_ROWS, count

EACH = "each"
_PLACEHOLDER = re.compile(r"\{([^{}]*)\}")
_PLAIN_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def values(cell: dict) -> int:
    """How many values an `each` cell stands for."""
    if "items" in cell:
        return len(cell["items"])
    return max(0, cell["high"] - cell["low"] + 1)


def _values(cell: dict) -> list:
    """The cells an `each` cell stands for: its list's items, or a number
    cell for each number of its range (at the whole `each` cell)."""
    if "items" in cell:
        return cell["items"]
    return [{"node": "number", "value": v, "at": cell["at"]}
            for v in range(cell["low"], cell["high"] + 1)]


class TableRows:
    """The generation of rows, for `checks.Checker`: it reports through its
    `error` and counts the rows of all tables in `table_rows`."""

    table_rows = 0

    def _generated_rows(self, rows: list, columns: list) -> list:
        """The rows of a component table (``{"at", "cells"}``) with each
        row of `each` cells replaced by the rows it stands for, and every
        name pattern filled in."""
        out = []
        for row in rows:
            each = [col for col, cell in row["cells"].items() if cell["node"] == EACH]
            made = math.prod(values(row["cells"][col]) for col in each)    # before any is made
            if self.table_rows + made > MAX_TABLE_ROWS:
                before = "" if not self.table_rows else \
                    f" and {self.table_rows:,} before it: {self.table_rows + made:,}"
                self.error(LimitExceeded, f"this row makes {_many(row, each)} rows{before}; the "
                                          f"component tables have at most "
                                          f"{count(MAX_TABLE_ROWS)}", row["at"],
                           hint="a table lists what is in the box; keep bulky data in "
                                "a data file ('component NAME from \"FILE.yaml\"')")
                return out
            self.table_rows += made
            if not each:
                out.append(row)
            else:
                # the rows share their plain cells (later checks change only the
                # items of lists, into links: each row has its own lists)
                for combination in itertools.product(*(_values(row["cells"][c]) for c in each)):
                    cells = dict(row["cells"])
                    cells.update(zip(each, combination))
                    out.append({"at": row["at"], "cells": {
                        col: copy.deepcopy(cell) if cell["node"] == "list" else cell
                        for col, cell in cells.items()}})
            self._fill_names(out[len(out) - made:] if each else out[-1:], columns)
        return out

    def _fill_names(self, rows: list, columns: list) -> None:
        """A `name` cell "…{COLUMN}…" becomes the name its row's cells
        spell; a pattern that cannot spell a plain name is reported once,
        at the pattern, and leaves those pieces without a name."""
        if not rows or "name" not in rows[0]["cells"]:
            return
        pattern = rows[0]["cells"]["name"]
        if pattern["node"] == "symbol" and len(rows) > 1 and \
                all(row["cells"]["name"] is pattern for row in rows):
            self.error(DuplicateName, f"'{pattern['value']}' names each of the {len(rows):,} "
                                      f"rows this row makes", pattern["at"],
                       hint=f"a name is one piece: spell one for each row with a pattern, "
                            f"\"{pattern['value']}{{COLUMN}}\", or leave the name out (-)")
            self._unnamed(rows[1:])
            return
        if pattern["node"] != "string" or "{" not in pattern["value"]:
            return
        text, at = pattern["value"], pattern["at"]
        wanted = _PLACEHOLDER.findall(text)
        problem = next((w for w in wanted if w not in columns or w == "name"), None)
        if problem is not None or "{" in _PLACEHOLDER.sub("", text) or "}" in _PLACEHOLDER.sub("", text):
            if problem is None:
                self.error(InvalidDeclaration, f"the name pattern \"{text}\" has a brace that "
                                               f"opens or closes no {{COLUMN}}", at,
                           hint="a name pattern is letters, digits, '_' and {COLUMN}: \"{colour}{value}\"")
            else:
                self.error(UnknownName, f"the name pattern \"{text}\" reads '{problem}', which is "
                                        f"not a column of this table", at,
                           hint=did_you_mean(problem, [c for c in columns if c != "name"])
                           or f"columns: {', '.join(c for c in columns if c != 'name')}")
            self._unnamed(rows)
            return
        for row in rows:
            spelt = []
            for piece in _PLACEHOLDER.split(text)[1::2]:
                cell = row["cells"][piece]
                if cell["node"] not in ("number", "symbol", "string"):
                    what = "a list" if cell["node"] == "list" else \
                        "none" if cell["node"] == "none" else "yes/no"
                    self.error(WrongType, f"the name pattern \"{text}\" reads '{piece}', which is "
                                          f"{what} in a row it makes", at,
                               hint="a name is spelt from numbers and words")
                    self._unnamed(rows)
                    return
                spelt.append(str(cell["value"]))
            parts = _PLACEHOLDER.split(text)
            parts[1::2] = spelt
            name = "".join(parts)
            if not _PLAIN_NAME.fullmatch(name) or len(name) > MAX_NAME:
                self.error(WrongType, f"the name pattern \"{text}\" spells '{name}', which is not "
                                      f"a plain name", at,
                           hint="a name is letters, digits and '_', and starts with a letter or "
                                "'_': put a word first, \"card{value}\"")
                self._unnamed(rows)
                return
            row["cells"]["name"] = {"node": "symbol", "value": name, "at": at}

    @staticmethod
    def _unnamed(rows: list) -> None:
        for row in rows:
            row["cells"]["name"] = {"node": "none", "at": row["cells"]["name"]["at"]}


def _many(row: dict, each: list) -> str:
    """How many rows a row of `each` cells makes, as 5 × 9 = 45."""
    sizes = [values(row["cells"][c]) for c in each]
    total = math.prod(sizes)
    product = " × ".join(f"{n:,}" for n in sizes)
    return f"{product} = {total:,}" if len(sizes) > 1 else f"{total:,}"

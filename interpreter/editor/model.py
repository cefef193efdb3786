"""What the index of a rulebook holds, and places as the language and the
Language Server Protocol count them.

A `Place` is a span of a file as the language's errors give it: 1-based
line and column of characters, end exclusive. `Source` is a file's text
by lines; it converts a place to the protocol's position (0-based line,
column in UTF-16 code units, or in the encoding a client agreed on) and
back. An `Index` (made by `index.build`) holds every declaration
(`Decl`: its kind, place, the line that declares it, the kind of pieces
its value is), the components' attributes, every name the text writes
(`Use`) with what it means, and the local names with where they can be
written (`Binding`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Optional

UTF16, UTF8, UTF32 = "utf-16", "utf-8", "utf-32"
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
# kinds of values whose attributes can be told: ("one", TYPE) a piece, ("many", TYPE) pieces
ONE, MANY = "one", "many"
END = 10 ** 6         # a column past the end of any line


class Source:
    """A file's text by lines, and the conversion of its places."""

    def __init__(self, text: str):
        self.text = text
        self.lines = text.split("\n")

    def line(self, number: int) -> str:
        """Line `number` (1-based) without its line end; "" past the end."""
        return self.lines[number - 1].rstrip("\r") if 1 <= number <= len(self.lines) else ""

    def to_lsp(self, line: int, column: int, encoding: str = UTF16) -> tuple[int, int]:
        """A 1-based (line, column of characters) as the protocol's 0-based
        (line, character in code units of `encoding`)."""
        if line < 1:
            return 0, 0
        text = self.line(line)
        chars = max(column - 1, 0)
        return line - 1, units(text[:chars], encoding) + max(0, chars - len(text))

    def from_lsp(self, line: int, character: int, encoding: str = UTF16) -> tuple[int, int]:
        """The protocol's (line, character) as the language's 1-based place."""
        text, count, i = self.line(line + 1), 0, 0
        while i < len(text) and count < character:
            count += units(text[i], encoding)
            i += 1
        return line + 1, i + 1 + max(0, character - count)

    def word_at(self, line: int, column: int) -> Optional[tuple[str, int]]:
        """The name under (or just before) a place, and the column it starts at."""
        text = self.line(line)
        for m in _NAME.finditer(text):
            if m.start() + 1 <= column <= m.end() + 1:
                return m.group(), m.start() + 1
        return None


def units(text: str, encoding: str = UTF16) -> int:
    """How many code units `text` is in `encoding`."""
    if encoding == UTF8:
        return len(text.encode("utf-8", "surrogatepass"))
    if encoding == UTF32:
        return len(text)
    return len(text) + sum(1 for ch in text if ord(ch) > 0xFFFF)


@dataclass(frozen=True, order=True)
class Place:
    """A span of a file: 1-based line and column, end exclusive (as `errors.Span`)."""

    file: str
    line: int
    column: int
    end_line: int
    end_column: int

    def holds(self, line: int, column: int) -> bool:
        """Whether a cursor at (line, column) is on it (just after it counts)."""
        return (self.line, self.column) <= (line, column) <= (self.end_line, self.end_column)


# -- what the index holds ------------------------------------------------------

@dataclass
class Decl:
    """A declared name: what it is, where, and the words that declare it."""

    name: str
    kind: str           # component, piece, zone, grid, variable, permission, define, option,
    #                     table, value, column, action, phase, local, parameter
    place: Place
    summary: str        # the declaring line(s), as written
    detail: str = ""    # further facts: columns, default and choices, parameters
    type: Optional[tuple] = None     # (ONE | MANY, component type) of its value, when known
    of: Optional[str] = None         # a column's or a piece's component type


@dataclass
class Component:
    decl: Decl
    columns: dict       # attribute -> its Decl (table columns, data keys, has, owner)
    pieces: int = 0


@dataclass(frozen=True)
class Use:
    """A name the text writes, and what it means: a declaration or a builtin."""

    place: Place
    name: str
    target: Optional[Decl] = None
    builtin: Optional[str] = None      # function, aggregate, constant


@dataclass(frozen=True)
class Binding:
    """A local name and where it can be written: from its place to the end
    of its block (lines below that block's end count only when indented at
    least as deep as the block)."""

    decl: Decl
    start: tuple
    end: tuple
    indent: int = 0     # 0: no indentation rule
    stated_end: int = 0


@dataclass
class Index:
    path: str
    source: Source
    names: dict = field(default_factory=dict)       # the shared name space
    actions: dict = field(default_factory=dict)
    phases: dict = field(default_factory=dict)
    values: dict = field(default_factory=dict)      # words written as values (options, tables)
    components: dict = field(default_factory=dict)  # type -> Component
    uses: list = field(default_factory=list)
    bindings: list = field(default_factory=list)
    fresh: bool = True      # built from this very text, with no line stood in for

    def attributes(self, of: Optional[str] = None) -> dict:
        """attribute -> Decl: of one component type, or of every type."""
        if of is not None and of in self.components:
            return dict(self.components[of].columns)
        found: dict = {}
        for comp in self.components.values():
            for name, decl in comp.columns.items():
                found.setdefault(name, decl)
        return found

    def use_at(self, line: int, column: int) -> Optional[Use]:
        """The innermost name written at a place of the document."""
        best = None
        for use in self.uses:
            if use.place.holds(line, column):
                if best is None or use.place >= best.place:
                    best = use
        return best

    def visible(self, line: int, column: int, indent: Optional[int] = None) -> dict:
        """The local names that can be written at a place: name -> Decl. A
        place below a block's end counts when `indent` (its line's
        indentation, 1-based) is at least the block's."""
        found: dict = {}
        for b in self.bindings:
            if not b.start <= (line, column) <= b.end:
                continue
            if b.indent and line > b.stated_end and (indent or 1) < b.indent:
                continue
            found[b.decl.name] = b.decl
        return found

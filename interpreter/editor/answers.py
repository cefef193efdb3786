"""An editor's questions about a place of a rulebook, answered from its index.

`hover` says what the name under the cursor is: a builtin's one-line doc
(from `stdlib/builtins.py`), or the line that declares the name with what
it holds (a component's attributes, an option's default and choices, a
define's or an action's parameters). `definition` is where the name is
declared — in the rulebook, in a variant's base or in a data file (a piece
named in a record). `completions` lists what may be written at the cursor:
a piece's attributes after `x.` (those of its type when the type is
known), the phases after `go to`, the actions after `takes an action
from`, a name in an announce string's `{…}`, and elsewhere the local names
in scope, the declared names, the builtins and the keywords.

The index may be of an earlier text (one that parsed); the current text
is given too, and a name the index does not place where the cursor is, or
no longer finds there, is looked up by the word under the cursor.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from typing import Optional

from ..stdlib.builtins import AGGREGATES, CONSTANTS, FUNCTIONS
from .index import keywords
from .model import ONE, Decl, Index, Place, Source, Use

_WORD_BEFORE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*$")
_AFTER_DOT = re.compile(r"([A-Za-z_][A-Za-z0-9_]*)\s*\.\s*([A-Za-z_][A-Za-z0-9_]*)?$")
_GO_TO = re.compile(r"\bgo\s+to\s+[A-Za-z0-9_]*$")
_ACTIONS = re.compile(r"\b(takes|take)\s+an\s+action\b.*\bfrom\b[\sA-Za-z0-9_,]*$")
_PLACEHOLDER = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)?$")
# aggregates written with a value before 'for': sum(VALUE for x in C where …)
_VALUED = {"sum", "min", "max", "each"}
_NEEDS_BY = {"majority", "minority", "best", "worst", "sorted", "unmatched", "matched"}


@dataclass(frozen=True)
class Completion:
    label: str
    kind: str           # a Decl's kind, or function, aggregate, constant, keyword
    detail: str = ""
    documentation: str = ""
    rank: int = 0       # lower first: local names, declared names, builtins, keywords


# -- what is at the cursor -------------------------------------------------------

def target(index: Index, source: Source, line: int, column: int) -> Optional[Use]:
    """The name at (line, column) of the current text, with what it means."""
    use = index.use_at(line, column)
    if use is not None and source.line(line)[use.place.column - 1:use.place.end_column - 1] \
            == use.name and use.place.line == line:
        return use
    word = source.word_at(line, column)
    if word is None:
        return None
    name, start = word
    decl, builtin = _lookup(index, source, name, line, start)
    if decl is None and builtin is None:
        return None
    return Use(Place(index.path, line, start, line, start + len(name)), name, decl, builtin)


def _lookup(index: Index, source: Source, name: str, line: int, column: int):
    """(Decl, builtin kind) of a name by its word alone, in its line's context."""
    before = source.line(line)[:column - 1]
    if _GO_TO.search(before + name):
        return index.phases.get(name), None
    if _ACTIONS.search(before + name) or re.match(r"\s*action\s+$", before):
        return index.actions.get(name), None
    if re.match(r"\s*phase\s+$", before):
        return index.phases.get(name), None
    text = source.line(line)
    local = index.visible(line, column, _indent(text)).get(name)
    if local is not None:
        return local, None
    if before.rstrip().endswith("."):
        return index.attributes().get(name), None
    decl = index.names.get(name) or index.values.get(name)
    if decl is not None:
        return decl, None
    for table, kind in ((CONSTANTS, "constant"), (FUNCTIONS, "function"),
                        (AGGREGATES, "aggregate")):
        if name in table:
            return None, kind
    return index.phases.get(name) or index.actions.get(name), None


def _indent(text: str) -> int:
    return len(text) - len(text.lstrip()) + 1


# -- hover -----------------------------------------------------------------------

def hover(index: Index, source: Source, line: int, column: int) -> Optional[tuple[str, Place]]:
    """(Markdown, the place of the name) for the name at the cursor, or None."""
    use = target(index, source, line, column)
    if use is None:
        return None
    text = builtin_doc(use.name, use.builtin) if use.builtin else describe(use.target, index)
    return (text, use.place) if text else None


def builtin_doc(name: str, kind: str) -> str:
    if kind == "constant":
        return f"**constant** `{name}` — {CONSTANTS[name]}"
    if kind == "aggregate":
        form = (f"{name}(VALUE for x in C where …)" if name in _VALUED else
                f"{name}(x in C by VALUE)" if name in _NEEDS_BY else f"{name}(x in C where …)")
        return f"**aggregate** `{form}` — {AGGREGATES[name]}"
    b = FUNCTIONS.get(name)
    if b is None:
        return ""
    arity = (f"{b.min_args} argument{'s' if b.min_args != 1 else ''}" if b.min_args == b.max_args
             else f"{b.min_args} to {b.max_args} arguments")
    return f"**builtin function** `{name}(…)`, {arity} — {b.doc}"


def describe(decl: Optional[Decl], index: Index) -> str:
    """A declaration as hover shows it: its kind and facts, and the line that declares it."""
    if decl is None:
        return ""
    head = f"**{decl.kind}** `{decl.name}`"
    facts = decl.detail.split("\n") if decl.detail else []
    if facts:
        head += " — " + facts[0]
    parts = [head]
    if decl.summary:
        parts.append(f"```rulebook\n{decl.summary}\n```")
    parts.extend(facts[1:])
    if decl.type and decl.kind not in ("component", "zone", "piece"):
        one, of = decl.type
        parts.append(f"holds {'a' if one == ONE else 'pieces of'} {of}")
    if decl.place.file != index.path and decl.place.line:
        parts.append(f"declared in {_shown(decl.place.file, index.path)}:{decl.place.line}")
    return "\n\n".join(parts)


def _shown(file: str, relative_to: str) -> str:
    try:
        return os.path.relpath(file, os.path.dirname(relative_to))
    except ValueError:          # another drive
        return file


# -- definition ------------------------------------------------------------------

def definition(index: Index, source: Source, line: int, column: int) -> Optional[Place]:
    """Where the name at the cursor is declared; None for a builtin or an unknown name."""
    use = target(index, source, line, column)
    if use is None or use.target is None or not use.target.place.line:
        return None
    return use.target.place


# -- completion ------------------------------------------------------------------

def completions(index: Index, source: Source, line: int, column: int) -> list[Completion]:
    """What may be written at the cursor, starting with the word being typed."""
    text = source.line(line)
    before = text[:column - 1]
    code, quoted = _code_before(before)
    if code is None:                  # in a comment
        return []
    if quoted is not None:            # in a string: only an announce's {placeholder}
        m = _PLACEHOLDER.search(quoted)
        if not m:
            return []
        return _names(index, line, column, _indent(text), m.group(1) or "", values_only=True)
    m = _AFTER_DOT.search(code)
    if m:
        return _attributes(index, line, column, _indent(text), m.group(1), m.group(2) or "")
    word = _WORD_BEFORE.search(code)
    prefix = word.group() if word else ""
    if _GO_TO.search(code):
        return _from(index.phases, prefix)
    if _ACTIONS.search(code):
        return _from(index.actions, prefix)
    if re.match(r"\s*(action|phase|define|zone|variable|component|option|grid|permission)"
                r"\s+[A-Za-z0-9_]*$", code):
        return []                     # a new name is being declared
    return _names(index, line, column, _indent(text), prefix)


def _code_before(before: str):
    """(the text before the cursor, the part inside an open string or None);
    (None, None) in a comment."""
    quoted = False
    start = 0
    for i, ch in enumerate(before):
        if ch == '"':
            quoted = not quoted
            start = i + 1
        elif ch == "#" and not quoted:
            return None, None
    return before, (before[start:] if quoted else None)


def _matches(name: str, prefix: str) -> bool:
    return name.lower().startswith(prefix.lower())


def _item(decl: Decl, rank: int) -> Completion:
    first = decl.detail.split("\n")[0] if decl.detail else ""
    return Completion(decl.name, decl.kind, f"{decl.kind} — {first}" if first else decl.kind,
                      decl.summary, rank)


def _from(table: dict, prefix: str) -> list[Completion]:
    return [_item(d, 1) for name, d in sorted(table.items()) if _matches(name, prefix)]


def _names(index: Index, line: int, column: int, indent: int, prefix: str,
           values_only: bool = False) -> list[Completion]:
    found: dict = {}
    for name, decl in index.visible(line, column, indent).items():
        found.setdefault(name, _item(decl, 0))
    for name, decl in sorted(index.names.items()):
        if not values_only or decl.kind not in ("component",):
            found.setdefault(name, _item(decl, 1))
    for name in sorted(CONSTANTS):
        found.setdefault(name, Completion(name, "constant", "constant", CONSTANTS[name], 2))
    if not values_only:
        for name, decl in sorted(index.values.items()):
            found.setdefault(name, _item(decl, 2))
        for name in sorted(FUNCTIONS):
            found.setdefault(name, Completion(name, "function", "builtin function",
                                              FUNCTIONS[name].doc, 2))
        for name in sorted(AGGREGATES):
            found.setdefault(name, Completion(name, "aggregate", "aggregate",
                                              AGGREGATES[name], 2))
        for word in keywords():
            found.setdefault(word, Completion(word, "keyword", "keyword", "", 3))
    return [c for name, c in found.items() if _matches(name, prefix)]


def _attributes(index: Index, line: int, column: int, indent: int, owner: str,
                prefix: str) -> list[Completion]:
    """The attributes after `owner.`: of its component type when it is one piece of a known type."""
    decl = index.visible(line, column, indent).get(owner) or index.names.get(owner)
    of = decl.type[1] if decl is not None and decl.type and decl.type[0] == ONE else None
    attrs = index.attributes(of)
    return [Completion(name, "column", f"{d.of}.{name}" if d.of else "attribute",
                       d.detail, 0 if of else 1)
            for name, d in sorted(attrs.items()) if _matches(name, prefix)]

"""The rules for players of a game, shown by `rulebook rules GAME` and by
`rules` at the table: a Markdown file that goes with the rulebook.

A rulebook's player rules are the file its `rules for players "FILE"` line
names, else `NAME.md` beside `NAME.rules`; a variant without either has its
base's (followed as the loader follows `variant of`). The shipped games
keep theirs the same way, beside their rulebooks. Every file is found as
the loader finds a rulebook's files (`files.locate`: in the rulebook's
folder, its library or the shipped one, a regular file of a rulebook's
size) and read within that size, so that no line of a rulebook can make
this open a file from elsewhere, a FIFO or a device; what is shown is made
`printable`.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Optional

from ..errors import CommandError, RulebookError, RulebookErrors
from ..language import files
from ..language.limits import MAX_RULEBOOK_BYTES
from ..language.loader import find_rulebook
from ..language.variants import MAX_DEPTH
from ..printable import printable

_BASE = re.compile(r'^\s*variant\s+of\s+"([^"\n]+)"', re.M)
_RULES = re.compile(r'^\s*rules\s+for\s+players\s+"([^"\n]+)"', re.M)


def rules_file(target: str, library: Optional[str] = None) -> Optional[Path]:
    """The players' rules of a game name or rulebook path, or None."""
    try:
        return _rules_of(find_rulebook(target), library)
    except RulebookErrors:
        return None


def _rules_of(path: Path, library: Optional[str]) -> Optional[Path]:
    """The rules of the rulebook at `path`: its line's file, else the .md
    beside it, else (a variant) its base's; None where there are none."""
    for _ in range(MAX_DEPTH):
        allowed = files.roots(path.parent, library)
        try:
            text = files.read_text(path, str(path), MAX_RULEBOOK_BYTES, "rulebook")
        except (RulebookError, OSError, ValueError):
            text = None
        if text is None:
            return None
        written = _RULES.search(text)
        if written:
            return _found(written.group(1), path.parent, allowed, "player rules")
        beside = _found(path.with_suffix(".md").name, path.parent, allowed, "player rules")
        base = _BASE.search(text)
        if beside is not None or base is None:
            return beside
        path = _found(base.group(1), path.parent, allowed, "base rulebook")
        if path is None:
            return None
    return None


def _found(written: str, folder, allowed, what: str) -> Optional[Path]:
    """The file `written` names, as the loader finds it, or None where it
    is not to be read."""
    try:
        return files.locate(written, folder, allowed, MAX_RULEBOOK_BYTES, what)
    except (RulebookError, OSError, ValueError):
        return None


def rules_text(target: str, library: Optional[str] = None) -> str:
    try:
        path = find_rulebook(target)
    except RulebookErrors as e:
        raise CommandError(f"no rules for players of '{target}': {e.errors[0].message}",
                           hint=e.errors[0].hint) from None
    doc = _rules_of(path, library)
    if doc is None:
        raise CommandError(f"no rules for players of '{target}'",
                           hint="write them in Markdown beside the rulebook, as NAME.md for "
                                "NAME.rules, or name the file with a 'rules for players \"FILE\"' "
                                "line")
    return printable(files.read_text(doc, str(doc), MAX_RULEBOOK_BYTES, "player rules"))

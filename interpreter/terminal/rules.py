"""The rules for players of a game: `docs/games/NAME.md`, found from a game's
name or its rulebook file (a variant file reads its base game's), shown by
`rulebook rules GAME` and by `rules` at the table. Only the project's own
documents are printed (a variant file is read for the name of its base,
never shown), and those `printable`."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Optional

from ..errors import CommandError, RulebookError
from ..language import files
from ..language.limits import MAX_RULEBOOK_BYTES
from ..printable import printable

GAMES_DOCS = Path(__file__).resolve().parents[2] / "docs" / "games"
_BASE = re.compile(r'^\s*variant\s+of\s+"([^"\n]+)"', re.M)


def rules_file(target: str) -> Optional[Path]:
    """The players' rules of a game name or rulebook path, or None. A
    variant's base is found as the loader finds it (`files.locate`: in the
    variant's folder or the library, a regular file of a rulebook's size),
    and read within that size, so that a variant line cannot make this
    open a file from elsewhere, a FIFO or a device."""
    path = Path(target)
    seen = set()
    while True:
        doc = GAMES_DOCS / f"{path.stem}.md"
        if doc.is_file():
            return doc
        # a variant file: its base's rules
        try:
            text = files.read_text(path, str(path), MAX_RULEBOOK_BYTES, "rulebook")
        except (RulebookError, OSError, ValueError):
            return None
        found = _BASE.search(text)
        if found is None or path in seen:
            return None
        seen.add(path)
        try:
            path = files.locate(found.group(1), path.parent, files.roots(path.parent),
                                MAX_RULEBOOK_BYTES, "base rulebook")
        except (RulebookError, OSError, ValueError):
            return None


def rules_text(target: str) -> str:
    doc = rules_file(target)
    if doc is None:
        known = ", ".join(sorted(p.stem for p in GAMES_DOCS.glob("*.md")))
        raise CommandError(f"no rules for players of '{target}'",
                           hint=f"rules are written for: {known}" if known else None)
    return printable(doc.read_text(encoding="utf-8"))

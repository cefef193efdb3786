"""The rules for players of a game: `docs/games/NAME.md`, found from a game's
name or its rulebook file (a variant file reads its base game's), shown by
`rulebook rules GAME` and by `rules` at the table. Only the project's own
documents are printed (a variant file is read for the name of its base,
never shown), and those `printable`."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Optional

from ..errors import CommandError
from ..printable import printable

GAMES_DOCS = Path(__file__).resolve().parents[2] / "docs" / "games"
_BASE = re.compile(r'^\s*variant\s+of\s+"([^"\n]+)"', re.M)


def rules_file(target: str) -> Optional[Path]:
    """The players' rules of a game name or rulebook path, or None."""
    path = Path(target)
    seen = set()
    while True:
        doc = GAMES_DOCS / f"{path.stem}.md"
        if doc.is_file():
            return doc
        # a variant file: its base's rules
        try:
            text = path.read_text(encoding="utf-8") if path.is_file() else ""
        except (OSError, UnicodeDecodeError, ValueError):
            return None
        found = _BASE.search(text)
        if found is None or path in seen:
            return None
        seen.add(path)
        path = path.parent / found.group(1)


def rules_text(target: str) -> str:
    doc = rules_file(target)
    if doc is None:
        known = ", ".join(sorted(p.stem for p in GAMES_DOCS.glob("*.md")))
        raise CommandError(f"no rules for players of '{target}'",
                           hint=f"rules are written for: {known}" if known else None)
    return printable(doc.read_text(encoding="utf-8"))

"""Text fit for a terminal. Everything that came from a rulebook, a data
file, a save or typed input passes through `printable` before it is
printed, so that nothing in it can move the cursor, clear the screen,
write the clipboard (OSC 52), recolour what follows or reorder it (the
bidirectional overrides): every control character is written as its
escape, `\\x1b` for ESC. This module imports nothing of the package, so
that the errors' own rendering can use it too."""

from __future__ import annotations


def printable(text: str, lines: bool = True) -> str:
    """`text` with every character that is not printable escaped as Python
    writes it (`\\x1b`, `\\u202e`); the line break is kept when `lines`."""
    if text.isprintable():
        return text
    if lines:
        return "\n".join(_escaped(line) for line in text.split("\n"))
    return _escaped(text)


def _escaped(line: str) -> str:
    return "".join(ch if ch.isprintable() else ascii(ch)[1:-1] for ch in line)

"""Text fit for a terminal. Everything that came from a rulebook, a data
file, a save or typed input passes through `printable` before it is
printed, so that nothing in it can move the cursor, clear the screen,
write the clipboard (OSC 52), recolour what follows or reorder it (the
bidirectional overrides): every control character is written as its
escape, `\\x1b` for ESC. This module imports nothing of the package, so
that the errors' own rendering can use it too.

What is escaped is what `str.isprintable` refuses: the C0 controls (ESC,
BEL, the carriage return, the tab), DEL and the C1 controls (CSI `\\x9b`,
OSC `\\x9d`, NEL `\\x85`), the format characters (the bidirectional
overrides, zero-width spaces), the line and paragraph separators, other
spaces than the plain one, surrogates, private and unassigned code points.
What it lets through — letters, digits, marks, punctuation, symbols and
the space — is nothing a terminal acts on. Rich markup (`[bold]`) is not
a control character: the screen is drawn from `rich.text.Text` objects,
which never read markup, and prose is printed with markup off.
"""

from __future__ import annotations

import json


def printable(text: str, lines: bool = True) -> str:
    """`text` with every character that is not printable escaped as Python
    writes it (`\\x1b`, `\\u202e`); the line break is kept when `lines`."""
    if text.isprintable():
        return text
    if lines:
        return "\n".join(_escaped(line) for line in text.split("\n"))
    return _escaped(text)


def printable_data(value):
    """A copy of JSON-like data (a view, an outcome) with every string in
    it, keys too, `printable` on one line: a name or a value is one line on
    screen, its line breaks shown as `\\n`."""
    if isinstance(value, str):
        return printable(value, lines=False)
    if isinstance(value, dict):
        return {printable_data(k): printable_data(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [printable_data(v) for v in value] if isinstance(value, list) \
            else tuple(printable_data(v) for v in value)
    return value


def printable_json(text: str) -> str:
    """JSON text fit for a terminal that is still the same JSON: what is not
    printable (json.dumps leaves DEL, the C1 controls and the format
    characters as they are) written as JSON's `\\u` escape."""
    if text.isprintable():
        return text
    return "".join(ch if ch.isprintable() or ch == "\n" else json.dumps(ch)[1:-1]
                   for ch in text)


def _escaped(line: str) -> str:
    return "".join(ch if ch.isprintable() else ascii(ch)[1:-1] for ch in line)

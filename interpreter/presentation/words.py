"""How one value of a view reads on a table: a number or a name as it is,
yes/no, a list's items one after the other, none as a dash. The terminal
and the browser share it, so a value reads the same in a table, a zone's
row, beside a drawn piece and on either screen."""

from __future__ import annotations

from typing import Any

DASH = "—"


def value_text(value: Any) -> str:
    """One cell's text; lists are space-separated, null is a dash."""
    if value is None:
        return DASH
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, (list, tuple)):
        return " ".join(value_text(v) for v in value) if value else DASH
    if isinstance(value, dict):
        return ", ".join(f"{k}={value_text(v)}" for k, v in value.items()) or DASH
    return str(value)


__all__ = ["DASH", "value_text"]

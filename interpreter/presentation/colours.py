"""Colours as a screen shows them, for any drawing: the colour a shade word
names (one of `colours.json`'s ordinary colour names, also with `dark_` or
`light_` before it), a tint for a shade that names none, and each seat's
colour, P0 first in the order the terminal's standard colours go. Colours
are CSS hex strings. This module knows no game.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Iterable, Optional

# colour words a rulebook may shade by, as a browser draws them (a table of
# ordinary colour names and their values, kept as data beside this module)
WORDS = json.loads((Path(__file__).with_name("colours.json")).read_text(encoding="utf-8"))
SEATS = ("#c62828", "#1565c0", "#2e7d32", "#c9a400", "#8e24aa", "#00838f",
         "#ef6c00", "#ad1457", "#5e35b1", "#558b2f")
# tints for shades that are not colour words, handed out in the order they come
TINTS = ("#b0a48a", "#7fb3b5", "#c8c07a", "#9a8cc0", "#8fbf8f", "#c49ab5",
         "#86a6cf", "#d6b38c", "#d99aa5", "#7fa2a8", "#b5aa70", "#c2a3a0")


def word_colour(word) -> Optional[str]:
    """The colour a word names: a colour word, also with `dark_` or
    `light_` before it; None for anything else."""
    if not isinstance(word, str):
        return None
    w = word.lower()
    for prefix, mix in (("dark_", "#000000"), ("light_", "#ffffff")):
        if w.startswith(prefix) and w[len(prefix):] in WORDS:
            return _mixed(WORDS[w[len(prefix):]], mix)
    return WORDS.get(w)


def _mixed(a: str, b: str, share: float = 0.35) -> str:
    pa = [int(a[i:i + 2], 16) for i in (1, 3, 5)]
    pb = [int(b[i:i + 2], 16) for i in (1, 3, 5)]
    return "#" + "".join(f"{round(x + (y - x) * share):02x}" for x, y in zip(pa, pb))


def seat_colour(seat) -> Optional[str]:
    """Seat `seat`'s colour (P0 the first of SEATS); None for no seat."""
    if not isinstance(seat, int) or isinstance(seat, bool):
        return None
    return SEATS[seat % len(SEATS)]


def light(colour: str) -> bool:
    """Whether `colour` is light enough for dark letters on it."""
    r, g, b = (int(colour[i:i + 2], 16) for i in (1, 3, 5))
    return 0.299 * r + 0.587 * g + 0.114 * b > 140


def ink(colour: str) -> str:
    """Letters that read on `colour`: dark on a light colour, else light."""
    return "#1b1b1b" if light(colour) else "#ffffff"


class Shades:
    """The colour of each shade value of a drawing: its colour word's, else
    a tint handed out in the order the values first come, so the same
    value always has the same tint in one drawing."""

    def __init__(self, values: Iterable = ()):
        self._tints: dict = {}
        for v in values:
            self.of(v)

    def of(self, value) -> Optional[str]:
        if value is None:
            return None
        named = word_colour(value)
        if named is not None:
            return named
        key = str(value)
        if key not in self._tints:
            self._tints[key] = TINTS[len(self._tints) % len(TINTS)]
        return self._tints[key]

"""Pieces drawn as they look: the pieces of a zone whose component declares
a drawing (`drawn as …`, docs/language.md §4.5), drawn from the `drawings`
of the view's zone (docs/api.md), side by side.

Every drawing reads in plain text — a tile as a small box with its edges'
first letters around its name, a polyomino as a grid of `█`, rows of cells
as their first letters, a card as its name — and colour is laid on top as
rich styles: a value that names a colour is drawn in it, a seat in its
seat's colour, other words in a tint of their own. What players read on a
piece (its type `shows …`) comes under its look, a line an attribute
('cost 3'), so a market reads as a row of cards. Equal pieces next to each
other are drawn once, `×N` after the name. This module knows no game. Its
texts come `printable`: `render` escapes the view before it draws.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Optional, Sequence

from rich.color import Color
from rich.console import Console, ConsoleOptions, RenderableType, RenderResult
from rich.measure import Measurement
from rich.style import Style
from rich.text import Text

from ..presentation.options import turnable_drawing, turned_drawing
from ..presentation.words import value_text
from .render_boards import _colour_word, _mark_width, _on, _tints, seat_colour

MAX_LINES = 5          # a drawing is at most this many lines tall
GAP = "  "             # between two drawings side by side
BLOCK, UPPER, LOWER = "█", "▀", "▄"
MAX_SHAPE = 8          # rows or columns of a shape drawn (half-blocks fit 8 rows in 4 lines)
MAX_ROWS = MAX_LINES - 1     # rows of cells drawn, a line left for the name
BOX = "┌─┐│└┘"


def piece_drawings(view: dict, zone: dict) -> Optional[RenderableType]:
    """The cards of `zone` (an entry of `view["zones"]` whose cards the viewer
    may see) drawn as they look, side by side, at most 5 lines tall; None when
    none of them declares a drawing."""
    cards, drawings, shows = zone.get("cards"), zone.get("drawings"), zone.get("attributes")
    if not cards or None in cards:
        return None
    if drawings and not any(key in d for d in drawings for key in ("edges", "shape", "rows", "shade")):
        drawings = None           # drawn as their names: as the zone's row lists them
    if not drawings and not shows:
        return None
    drawings = [dict(d) for d in drawings] if drawings else [{"piece": c} for c in cards]
    for d, shown in zip(drawings, shows or ()):
        if shown:
            d["shows"] = shown    # what players read on it, under its look
    looks = _Looks.of(view)
    runs: list = []
    for d in drawings:
        if runs and runs[-1][0] == d:
            runs[-1][1] += 1
        else:
            runs.append([d, 1])
    return PieceDrawings([looks.draw(d, k) for d, k in runs])


def turned_edges(view: dict, piece: str, turns: int) -> Optional[list]:
    """The sides (north, east, south, west) of the piece named `piece`, as
    the viewer sees it drawn, turned `turns` quarter turns clockwise the
    way the rules' `turned` turns a list of sides; None when the viewer
    sees no such drawing."""
    found = turnable_drawing(view, piece)
    if found is None or found.get("edges") is None:
        return None
    return turned_drawing(found, turns)["edges"]


def turned_drawings(view: dict, piece: str, turns: Sequence[str]) -> Optional[RenderableType]:
    """The piece named `piece` drawn as it lies after each of `turns` (a
    piece drawn as edges turned so many quarter turns, one drawn as a shape
    in that orientation: `presentation.options.turned_drawing`, as the
    browser's table previews it), side by side, each with its number under
    it; None when the viewer sees no such drawing of it."""
    found = turnable_drawing(view, piece)
    if found is None:
        return None
    looks = _Looks.of(view)
    pictures = []
    for k in turns:
        drawing = turned_drawing(found, int(k))
        if drawing is None:
            continue
        lines = looks.draw(drawing, 1)
        width = lines[0].cell_len
        pictures.append(lines + [_padded(Text(str(k).center(width), style="bold"), width)])
    return PieceDrawings(pictures)


@dataclass
class PieceDrawings:
    """Drawings (each a list of lines of one width) laid side by side,
    aligned at the bottom, in bands as wide as the screen."""

    pictures: Sequence[list]

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        """As narrow as the widest drawing, as wide as all of them in a band."""
        widths = [p[0].cell_len for p in self.pictures] or [0]
        return Measurement(max(widths), sum(widths) + len(GAP) * (len(widths) - 1))

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        width = options.max_width
        band: list = []
        used = 0
        for picture in self.pictures:
            w = picture[0].cell_len
            if band and used + len(GAP) + w > width:
                yield from _band(band)
                yield Text("")
                band, used = [], 0
            used += (len(GAP) if band else 0) + w
            band.append(picture)
        if band:
            yield from _band(band)


def _band(pictures: list):
    """One band's lines, the drawings aligned at the bottom: their names,
    under a shape or its cells, on one line."""
    height = max(len(p) for p in pictures)
    for i in range(height):
        line = Text(no_wrap=True, overflow="crop")
        for k, picture in enumerate(pictures):
            if k:
                line.append(GAP)
            above = height - len(picture)
            line.append_text(picture[i - above] if i >= above else
                             Text(" " * picture[0].cell_len))
        line.rstrip()
        yield line


def _number(value) -> bool:
    """Whether a drawn value is a number (as text): shown, never coloured."""
    text = str(value)
    return text.lstrip("-").isdigit()


class _Looks:
    """How the drawings of one view are coloured and lettered: one mark
    width for all their sides and cells, one tint for each word that names
    no colour, one width for all tiles, so that a piece looks the same in
    every zone."""

    def __init__(self, marks: int, tints: dict, names: int):
        self.marks, self.tints, self.names = marks, tints, names

    @classmethod
    def of(cls, view: dict) -> "_Looks":
        values, words, names = set(), set(), 1
        for zone in view.get("zones") or ():
            for d in zone.get("drawings") or ():
                if "edges" in d:
                    names = max(names, len(d["piece"]))
                values.update(d.get("edges") or ())
                values.update(v for row in d.get("rows") or () for v in row)
                if d.get("shade") is not None and "shade_seat" not in d:
                    words.add(d["shade"])
        words |= values
        # a number is shown whole: the marks are at least as wide as the longest
        marks = max([_mark_width(values) if values else 1]
                    + [len(str(v)) for v in values if _number(v)])
        return cls(marks,
                   _tints(w for w in words if _colour_word(w) is None and not _number(w)), names)

    def colour(self, value: str) -> Color:
        return _colour_word(value) or Color.parse(self.tints.get(value, "grey50"))

    def on(self, value: str) -> Style:
        """A side or cell showing `value`: on its colour, in letters that read on
        it; a number is no colour, and is shown as it is."""
        if _number(value):
            return Style(bold=True)
        return _on(self.colour(value), bold=True)

    def shade(self, d: dict) -> Optional[Color]:
        if "shade_seat" in d:
            return seat_colour(d["shade_seat"])
        return self.colour(d["shade"]) if d.get("shade") is not None else None

    def mark(self, value: str) -> str:
        return value[:self.marks].ljust(self.marks)

    def draw(self, d: dict, copies: int) -> list:
        """One drawing's lines, each a Text of the drawing's width."""
        name = d["piece"] + (f" ×{copies}" if copies > 1 else "")
        for key, draw in _DRAW:
            if key in d:
                lines = draw(self, d, name)
                break
        else:
            lines = [self._name(d, name)]
        lines = lines[:MAX_LINES] + [Text(f"{key} {value_text(v)}")
                                     for key, v in (d.get("shows") or {}).items()]
        width = max(t.cell_len for t in lines)
        return [_padded(t, width) for t in lines]

    def name_style(self, d: dict) -> Style:
        """A piece's name: on its shade, when it has one."""
        shade = self.shade(d)
        return _on(shade, bold=True) if shade is not None else Style(bold=True)

    def _name(self, d: dict, name: str) -> Text:
        return Text(name, style=self.name_style(d))

    def edges(self, d: dict, name: str) -> list:
        """A box, its north and south marks on its top and bottom lines, west
        and east beside the name."""
        north, east, south, west = ((self.mark(v), self.on(v)) for v in d["edges"])
        inner = 2 * self.marks + 2 + max(len(name), self.names)
        top, bottom = BOX[0] + BOX[1] * inner + BOX[2], BOX[4] + BOX[1] * inner + BOX[5]

        def centred(mark: tuple) -> Text:
            pad = (inner - self.marks) // 2
            return Text.assemble(BOX[3], " " * pad, mark, " " * (inner - pad - self.marks), BOX[3])
        middle = Text.assemble(BOX[3], west, (name.center(inner - 2 * self.marks),
                                              self.name_style(d)), east, BOX[3])
        return [Text(top, style="dim"), centred(north), middle, centred(south),
                Text(bottom, style="dim")]

    def shape(self, d: dict, name: str) -> list:
        """The cells as a grid of blocks, two characters a cell; a shape of
        more than 4 rows in half-blocks, two rows a line. The name under it."""
        cells = {(x, y) for x, y in d["shape"]}
        x0, y0 = min(x for x, _ in cells), min(y for _, y in cells)
        cells = {(x - x0, y - y0) for x, y in cells}
        cols = min(max(x for x, _ in cells) + 1, MAX_SHAPE)
        rows = min(max(y for _, y in cells) + 1, MAX_SHAPE)
        shade = self.shade(d)
        style = Style(color=shade) if shade is not None else Style()
        lines = []
        if rows <= MAX_ROWS:
            for y in range(rows):
                lines.append("".join(BLOCK * 2 if (x, y) in cells else "  " for x in range(cols)))
        else:
            for y in range(0, rows, 2):
                lines.append("".join(_half((x, y) in cells, (x, y + 1) in cells) * 2
                                     for x in range(cols)))
        width = max(2 * cols, len(name))
        return [Text(line.center(width), style=style) for line in lines] + \
            [Text(name.center(width), style="bold")]

    def rows(self, d: dict, name: str) -> list:
        """Each row a line of cells, each cell its first letters on its colour;
        the name under them."""
        rows = d["rows"][:MAX_ROWS]
        cols = max(len(r) for r in rows)
        width = max(cols * (self.marks + 2), len(name))
        pad = (width - cols * (self.marks + 2)) // 2
        lines = []
        for row in rows:
            line = Text(" " * pad)
            for v in row:
                line.append(f" {self.mark(v)} ", style=self.on(v))
            lines.append(line)
        return lines + [Text(name.center(width), style="bold")]


def _half(top: bool, bottom: bool) -> str:
    return BLOCK if top and bottom else UPPER if top else LOWER if bottom else " "


def _padded(text: Text, width: int) -> Text:
    text = text.copy()
    text.no_wrap, text.overflow = True, "crop"
    if text.cell_len < width:
        text.append(" " * (width - text.cell_len))
    return text


_DRAW: list[tuple[str, Callable]] = [("edges", _Looks.edges), ("shape", _Looks.shape),
                                     ("rows", _Looks.rows)]

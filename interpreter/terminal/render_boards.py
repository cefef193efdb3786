"""Draws the boards of a view, using rich: a zone laid out on a square grid
(`GridView`), a zone laid out as a hex map (`HexView`) and a declared grid
(`BoardView`), with the colours they share — colour words that rich does
not know by that name, a seat's colour, tints for shades that name no
colour, dark or light letters on a background.

Each drawing renders itself from its part of a view dict (docs/api.md) and
the legal actions' cells or names; `render` decides which to draw and
titles them. This module knows no game.
"""

from __future__ import annotations

import math
import re
import zlib
from dataclasses import dataclass, field
from typing import Iterable, Optional, Sequence

from rich.color import Color, ColorParseError
from rich.console import Console, ConsoleOptions, RenderResult
from rich.style import Style
from rich.text import Text


# -- square grids ------------------------------------------------------------------
CELL_TEXT = re.compile(r"\((-?\d+),\s*(-?\d+)\)")
MARK_WIDTH = 3        # a side's mark: at most this many first letters
DARK = Color.from_rgb(0, 0, 0)


# colour words of board games that rich does not know by that name
COLOUR_WORDS = {"grey": "grey50", "gray": "grey50", "brown": "orange4", "silver": "grey70",
                "navy": "navy_blue", "teal": "light_sea_green", "olive": "wheat4"}


def _colour(name: str) -> Optional[Color]:
    name = COLOUR_WORDS.get(name.lower(), name)
    for candidate in (name, f"{name}1"):    # rich names some colours only with a shade: 'pink1'
        try:
            return Color.parse(candidate.lower())
        except ColorParseError:
            continue
    return None


def _colour_word(value: str) -> Optional[Color]:
    """The colour a word names ('navy', 'dark_red'), or None: numbers and
    other text name none."""
    return _colour(value) if value.replace("_", "").isalpha() else None


def _mark_style(value: str) -> Style:
    """A colour name rich knows is drawn in that colour (as the background,
    with dark or light letters, so a dark colour shows on a dark terminal too)."""
    colour = _colour_word(value)
    if colour is None:
        return Style(bold=True)
    return _on(colour, bold=True)


def _mark_width(values: Iterable[str]) -> int:
    """The fewest first letters (up to MARK_WIDTH) that tell the values apart."""
    values = set(values)
    for k in range(1, MARK_WIDTH):
        if len({v[:k] for v in values}) == len(values):
            return k
    return MARK_WIDTH


@dataclass
class GridView:
    """A zone laid out on a square grid (a view zone's `grid`): rows from
    north (top) to south, each cell 3 lines high with its piece's name in the
    middle and what each side shows as a mark on that side; the empty cells
    that a legal action names are shown as `· (x,y)`. Wider than the screen,
    it is drawn in bands of columns, one under the other."""

    cells: Sequence[dict]
    legal: set = field(default_factory=set)

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        pieces = {(c["x"], c["y"]): c for c in self.cells}
        free = sorted(self.legal - set(pieces))
        spots = list(pieces) + free
        if not spots:
            yield Text("empty")
            return
        sides = {v for c in self.cells for v in c.get("sides") or ()}
        self.mark = _mark_width(sides) if sides else 0
        name_w = max([len(c["piece"]) for c in self.cells] or [1])
        self.width = max([2 * self.mark + 2 + name_w, *(len(f"· ({x},{y})") for x, y in free)])
        xs = range(min(x for x, _ in spots), max(x for x, _ in spots) + 1)
        ys = range(max(y for _, y in spots), min(y for _, y in spots) - 1, -1)
        self.gutter = max(len(str(y)) for y in ys) + 1
        fits = max(1, (options.max_width - self.gutter) // (self.width + 1))
        xs = list(xs)
        per_band = math.ceil(len(xs) / math.ceil(len(xs) / fits))   # bands of even width
        for start in range(0, len(xs), per_band):
            if start:
                yield Text("")
            yield from self._band(xs[start:start + per_band], ys, pieces, set(free))

    def _band(self, xs, ys, pieces, free):
        head = Text(" " * self.gutter, no_wrap=True, overflow="crop", style="dim")
        for x in xs:
            head.append(" " + str(x).center(self.width))
        yield head
        for y in ys:
            lines = [Text(" " * self.gutter, no_wrap=True, overflow="crop") for _ in range(3)]
            lines[1] = Text(no_wrap=True, overflow="crop")
            lines[1].append(str(y).rjust(self.gutter - 1) + " ", style="dim")
            for x in xs:
                for line, part in zip(lines, self._cell(pieces.get((x, y)), (x, y) in free, x, y)):
                    line.append(" ")
                    line.append_text(part)
            yield from lines

    def _side(self, value: str) -> tuple:
        return value[:self.mark].ljust(self.mark), _mark_style(value)

    def _cell(self, piece, is_free, x, y) -> list:
        w = self.width
        if piece is None:
            middle = f"· ({x},{y})".center(w) if is_free else " " * w
            return [Text(" " * w), Text(middle, style="dim"), Text(" " * w)]
        name = piece["piece"]
        sides = piece.get("sides")
        if not sides:
            return [Text(" " * w), Text(name.center(w), style="bold"), Text(" " * w)]
        north, east, south, west = (self._side(v) for v in sides)
        pad = (w - self.mark) // 2

        def centred(mark: tuple) -> Text:
            return Text.assemble(" " * pad, mark, " " * (w - pad - self.mark))
        middle = Text.assemble(west, (name.center(w - 2 * self.mark), "bold"), east)
        return [centred(north), middle, centred(south)]


# -- hex maps ----------------------------------------------------------------------
SEAT_COLOURS = (1, 4, 2, 3, 5, 6)   # the terminal's standard colours, seat P0 first
# tints for shades that are not colour words, in the order they are handed out
SHADES = ("grey35", "dark_cyan", "dark_khaki", "medium_purple4", "dark_sea_green4", "plum4",
          "steel_blue", "tan", "light_pink4", "cadet_blue", "wheat4", "rosy_brown")
HEX_WIDTH = (3, 8)    # the fewest and the most characters inside a hex
ELLIPSIS = "…"


def seat_style(owner) -> Style:
    """A seat's pieces on its colour — standard colours 1, 4, 2, 3, … for P0,
    P1, P2, P3, … — as the background, so a piece stays readable on a hex
    of its colour."""
    if not isinstance(owner, int) or isinstance(owner, bool):
        return Style(bold=True)
    return _on(seat_colour(owner), bold=True)


def seat_colour(seat: int) -> Color:
    return Color.parse(f"color({SEAT_COLOURS[seat % len(SEAT_COLOURS)]})")


def _on(colour: Color, bold: bool = False) -> Style:
    """`colour` as a background, with dark or light letters as fits it."""
    r, g, b = colour.get_truecolor()
    light = 0.299 * r + 0.587 * g + 0.114 * b > 110
    return Style(bgcolor=colour, color=DARK if light else "bright_white", bold=bold)


def _fit(text: Text, width: int) -> Text:
    """The text in `width` cells: a single word keeps its end ('samur…2a'),
    several words are cut ('ka mb…')."""
    if text.cell_len <= width:
        return text
    plain = text.plain
    if " " not in plain and width >= 5:
        return text[:width - 3] + Text(ELLIPSIS) + text[len(plain) - 2:]
    return text[:width - 1] + Text(ELLIPSIS)


@dataclass
class HexView:
    """A zone laid out as a hex map (a view zone's `hexes`): flat-topped hexes
    in columns, odd columns half a hex lower (odd-q), each hex two lines
    between shared `/` and `\\` edges — its name, then what lies on it (pieces
    in their owner's colour; a zone that ever holds several pieces on one hex
    as initials, 'BRC'; a hidden one as its count, '(2)'), on its shade. A hex
    that a legal action names is marked `*`. Wider than the screen, it is
    drawn in bands of columns."""

    hexes: Sequence[dict]
    legal: set = field(default_factory=set)

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        if not self.hexes:
            yield Text("empty")
            return
        self.at = {(h["x"], h["y"]): h for h in self.hexes}
        initials = {hold["zone"] for h in self.hexes for hold in h.get("holds") or ()
                    if len(hold.get("pieces") or ()) > 1}
        self.contents = {spot: self._contents(h, initials) for spot, h in self.at.items()}
        shades = sorted({h["shade"] for h in self.hexes if h.get("shade") is not None})
        self.palette = {v: SHADES[i % len(SHADES)] for i, v in enumerate(shades)}
        self.initial = _mark_width(shades) if shades else 0
        needed = max(max(len(self._name(h)) for h in self.hexes),
                     max(t.cell_len for t in self.contents.values()))
        self.width = min(max(needed, HEX_WIDTH[0]), HEX_WIDTH[1])
        xs = list(range(min(x for x, _ in self.at), max(x for x, _ in self.at) + 1))
        self.gutter = max(len(str(y)) for _, y in self.at) + 1
        fits = max(1, (options.max_width - self.gutter - 1) // (self.width + 1))
        per_band = math.ceil(len(xs) / math.ceil(len(xs) / fits))   # bands of even width
        for start in range(0, len(xs), per_band):
            if start:
                yield Text("")
            yield from self._band(xs[start:start + per_band])
        yield from self._key(shades, initials, options.max_width)

    def _key(self, shades: list, initials: set, width: int):
        """What the map's letters and colours stand for: the shades an empty
        hex shows by their first letters, the pieces drawn as initials, and
        the seats' colours of the pieces on the map."""
        if any(len(s) > self.initial for s in shades):
            yield from _wrapped("shades:", [Text.assemble((s[:self.initial], self._style(
                {"shade": s})), " " + s) for s in shades], width)
        letters: dict = {}
        owners = set()
        for h in self.hexes:
            for hold in h.get("holds") or ():
                pieces = hold.get("pieces") or ()
                owners.update(o for o in hold.get("owners") or () if o is not None)
                if hold["zone"] in initials:
                    for piece in pieces:
                        letters.setdefault(piece[:1].upper(), set()).add(piece)
        if letters:
            yield from _wrapped("pieces:", [Text(f"{k} {' or '.join(sorted(v))}")
                                            for k, v in sorted(letters.items())], width)
        if owners:
            yield from _wrapped("seats:", [Text(f"P{o}", style=seat_style(o))
                                           for o in sorted(owners)], width)

    def _name(self, h: dict) -> str:
        return ("*" if h["piece"] in self.legal else "") + h["piece"]

    def _contents(self, h: dict, initials: set) -> Text:
        out = Text()
        for hold in h.get("holds") or ():
            pieces = hold.get("pieces")
            if pieces is None:
                part = Text(f"({hold['count']})") if hold.get("count") else Text()
            else:
                owners = hold.get("owners") or [None] * len(pieces)
                sep = "" if hold["zone"] in initials else " "
                part = Text(sep).join(
                    Text(p[:1].upper() if not sep else p, style=seat_style(o))
                    for p, o in zip(pieces, owners))
            if part.plain:
                out += Text(" ") + part if out.plain else part
        return out

    def _style(self, h: dict) -> Style:
        shade = h.get("shade")
        if shade is None:
            return Style()
        return _on(_colour_word(shade) or Color.parse(self.palette[shade]))

    def _inner(self, h: dict, part: int) -> Text:
        w = self.width
        if part == 0:
            text = Text(self._name(h), style="bold")
        else:
            text = self.contents[(h["x"], h["y"])]
            if not text.plain and h.get("shade") is not None:
                text = Text(h["shade"][:self.initial], style="dim")    # an empty hex says what it is
        text = _fit(text.copy(), w)
        left = (w - text.cell_len) // 2
        cell = Text(" " * left, style=self._style(h))    # the shade under the pieces' colours
        cell.append_text(text)
        cell.append(" " * (w - left - text.cell_len))
        return cell

    def _hex_on(self, x: int, line: int):
        """(hex or None, part) on a text line of column x: part 0 its name, 1 its contents."""
        row, part = divmod(line - x % 2, 2)
        if 0 <= row < len(self.ys):
            return self.at.get((x, self.ys[row])), part
        return None, part

    def _band(self, xs):
        rows = [y for x, y in self.at if x in xs]
        self.ys = list(range(min(rows), max(rows) + 1))    # the rows this band holds
        head = Text(" " * self.gutter, no_wrap=True, overflow="crop", style="dim")
        for x in xs:
            head.append(" " + str(x).center(self.width))
        yield head
        for line in range(2 * len(self.ys) + 1):
            row, odd = divmod(line, 2)
            label = str(self.ys[row]) if not odd and row < len(self.ys) else ""
            out = Text(no_wrap=True, overflow="crop")
            out.append(label.rjust(self.gutter - 1) + " ", style="dim")
            before = None
            for x in xs:
                h, part = self._hex_on(x, line)
                edge = "/" if part == 0 else "\\"
                out.append(edge if h is not None or before is not None else " ", style="dim")
                out.append_text(self._inner(h, part) if h is not None else Text(" " * self.width))
                before = h
            if before is not None:
                out.append("\\" if self._hex_on(xs[-1], line)[1] == 0 else "/", style="dim")
            if out.plain[self.gutter:].strip():
                yield out


# -- declared grids -----------------------------------------------------------------
MARK_CHARS = 4        # a board cell shows its mark in at most this many characters
LEGAL_MARK = "·"


def _shortened(marks: set, width: int) -> dict:
    """mark → its text in `width` characters: its first letters where they
    tell it apart, else its start, `…` and as much of its end as it takes
    ('bu…1', 'bu…2' for 'building_1', 'building_2')."""
    out = {m: m for m in marks if len(m) <= width}
    left = sorted(m for m in marks if len(m) > width)
    for tail in range(width - 1):
        short = {m: m[:width - tail - 1] + ELLIPSIS + m[len(m) - tail:] if tail else m[:width]
                 for m in left}
        taken = list(out.values()) + list(short.values())
        out.update({m: s for m, s in short.items() if taken.count(s) == 1})
        left = [m for m in left if m not in out]
    out.update({m: m[:width] for m in left})    # alike to the end: the first letters
    return out


def _tints(words: Iterable[str]) -> dict:
    """A tint from SHADES for each shade word that names no colour: a word
    gets the same tint on every screen (where it starts in SHADES follows
    from its letters), and two words of one board get different tints while
    SHADES has enough."""
    out, taken = {}, set()
    for word in sorted(set(words)):
        start = zlib.crc32(word.encode("utf-8")) % len(SHADES)
        free = [k for k in range(start, start + len(SHADES)) if k % len(SHADES) not in taken]
        k = (free[0] if free else start) % len(SHADES)
        taken.add(k)
        out[word] = SHADES[k]
    return out


@dataclass
class BoardView:
    """A declared grid (an entry of a view's `grids`) drawn as its W×H
    board, row 0 at the top and x growing to the right, as a printed board
    is read — so direction 0 (y + 1) points down the screen. A cell is one
    line: the first letters of its shade, `·` where a legal action names
    the cell, then its mark in at most MARK_CHARS characters (a player's
    in its seat colour), all on a background tinted by the shade (a colour
    word in its colour, a player in its seat's, another word in a tint of
    its own). A key under the board spells out the shades and the
    shortened marks. Wider than the screen, it is drawn in bands of
    columns."""

    board: dict
    legal: set = field(default_factory=set)

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        width, height = self.board["width"], self.board["height"]
        self.at = {}
        for spot, entry in (self.board.get("cells") or {}).items():
            m = CELL_TEXT.fullmatch(spot)
            if m:
                self.at[(int(m.group(1)), int(m.group(2)))] = entry
        entries = list(self.at.values())
        self.tints = _tints(e["shade"] for e in entries
                            if "shade" in e and "shade_seat" not in e
                            and _colour_word(e["shade"]) is None)
        self.shades = {e["shade"]: self._shade_style(e) for e in entries if "shade" in e}
        marks = {e["mark"] for e in entries if "mark" in e}
        self.code = _mark_width(self.shades) if self.shades else 0
        self.mark = min(MARK_CHARS, max(len(m) for m in marks)) if marks else 0
        self.short = _shortened(marks, self.mark)
        self.inner = self.code + 1 + self.mark
        # a space each side: cells touch, so a run of one shade reads as one region
        self.width = max(self.inner + 2, len(str(width - 1)) + 1)
        self.gutter = len(str(height - 1)) + 1
        xs = list(range(width))
        fits = max(1, (options.max_width - self.gutter) // self.width)
        per_band = math.ceil(width / math.ceil(width / fits))   # bands of even width
        for start in range(0, width, per_band):
            if start:
                yield Text("")
            yield from self._band(xs[start:start + per_band], height)
        yield from self._key(marks, options.max_width)

    def _shade_style(self, entry: dict) -> Style:
        if "shade_seat" in entry:
            return _on(seat_colour(entry["shade_seat"]))
        return _on(_colour_word(entry["shade"]) or Color.parse(self.tints[entry["shade"]]))

    def _band(self, xs, height):
        head = Text(" " * self.gutter, no_wrap=True, overflow="crop", style="dim")
        for x in xs:
            head.append(str(x).center(self.width))
        yield head
        for y in range(height):
            line = Text(no_wrap=True, overflow="crop")
            line.append(str(y).rjust(self.gutter - 1) + " ", style="dim")
            for x in xs:
                line.append_text(self._cell(x, y))
            yield line

    def _cell(self, x: int, y: int) -> Text:
        entry = self.at.get((x, y), {})
        shade = entry.get("shade")
        cell = Text(style=self.shades[shade] if shade is not None else "")
        left = (self.width - self.inner + 1) // 2
        cell.append(" " * left + (shade or "")[:self.code].ljust(self.code))
        cell.append(LEGAL_MARK if (x, y) in self.legal else " ", style="bold")
        mark = entry.get("mark")
        if mark is not None:
            style = seat_style(entry["mark_seat"]) if "mark_seat" in entry else _mark_style(mark)
            cell.append(self.short[mark], style=style)
        cell.append(" " * (self.width - cell.cell_len))
        return cell

    def _key(self, marks: set, width: int):
        """What the cells' letters stand for, where they are not the whole
        value: 'shade by ground: f forest · s sand', wrapped between entries."""
        shades = sorted(self.shades)
        if any(len(s) > self.code for s in shades):
            yield from _wrapped(f"shade by {self.board.get('shade_by')}:",
                                [Text.assemble((s[:self.code], self.shades[s]), " " + s)
                                 for s in shades], width)
        shortened = sorted(m for m in marks if len(m) > self.mark)
        if shortened:
            yield from _wrapped(f"mark by {self.board.get('mark_by')}:",
                                [Text(f"{self.short[m]} {m}") for m in shortened], width)


def _wrapped(title: str, entries: list, width: int):
    """Lines of `title` and the entries, ` · ` between them, broken between
    entries only (a letter and its word stay together)."""
    line = Text(title, style="dim")
    for i, entry in enumerate(entries):
        sep = Text(" · " if i else " ", style="dim")
        if i and line.cell_len + sep.cell_len + entry.cell_len > width:
            yield line
            line = Text("  ")
            sep = Text()
        line.append_text(sep)
        line.append_text(entry)
    yield line

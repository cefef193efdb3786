"""Draws the boards of a view, using rich: a zone laid out on a square grid
(`GridView`), a zone laid out as a hex map (`HexView`) and a declared grid
(`BoardView`), with the colours they share — colour words that rich does
not know by that name, the seats' colours (kept apart from the shades on
the board, so a piece never wears the colour of its ground), tints for
shades that name no colour, dark or light letters on a background.

Each drawing renders itself from its part of a view dict (docs/api.md) and
the legal actions' cells or names, in full or, with `compact=True`, in one
text line per board row, narrow enough to fit a 120-column screen whole;
either way with a key under it to its letters, shades, marks and seats.
`render` decides which to draw and titles them, from a view it made
`printable` first (so a name's escapes are counted in its cell's width).
This module knows no game.
"""

from __future__ import annotations

import math
import re
import string
import zlib
from dataclasses import dataclass, field
from typing import Iterable, Optional, Sequence

from rich.color import Color, ColorParseError
from rich.console import Console, ConsoleOptions, RenderResult
from rich.style import Style
from rich.text import Text

from ..runtime.views import natural
from ..presentation.words import value_text


# -- colours, letters and lines that the boards share ---------------------------------
CELL_TEXT = re.compile(r"\((-?\d+),\s*(-?\d+)\)")
MARK_WIDTH = 3        # a side's mark: at most this many first letters
DARK = Color.from_rgb(0, 0, 0)
ELLIPSIS = "…"
LEGAL_MARK = "·"


# colour words of board games that rich does not know by that name
COLOUR_WORDS = {"grey": "grey50", "gray": "grey50", "brown": "orange4", "silver": "grey70",
                "navy": "navy_blue", "teal": "light_sea_green", "olive": "wheat4"}
SEAT_COLOURS = (1, 4, 2, 3, 5, 6)   # the terminal's standard colours, seat P0 first
# for the seats, after those: where shades of the board take some of them
MORE_SEAT_COLOURS = ("dark_orange", "deep_pink3", "dark_violet", "chartreuse3", "grey70", "orange4")
NEAR = 80             # two colours closer than this (RGB distance) pass for one on a screen
# tints for shades that are not colour words, in the order they are handed out
SHADES = ("grey35", "dark_cyan", "dark_khaki", "medium_purple4", "dark_sea_green4", "plum4",
          "steel_blue", "tan", "light_pink4", "cadet_blue", "wheat4", "rosy_brown")


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


def _on(colour: Color, bold: bool = False) -> Style:
    """`colour` as a background, with dark or light letters as fits it."""
    r, g, b = colour.get_truecolor()
    light = 0.299 * r + 0.587 * g + 0.114 * b > 110
    return Style(bgcolor=colour, color=DARK if light else "bright_white", bold=bold)


def _mark_style(value: str) -> Style:
    """A colour name rich knows is drawn in that colour (as the background,
    with dark or light letters, so a dark colour shows on a dark terminal too)."""
    colour = _colour_word(value)
    if colour is None:
        return Style(bold=True)
    return _on(colour, bold=True)


def seat_colours(grounds: Iterable[Color] = ()) -> tuple:
    """The seats' colours, P0 first: standard colours 1, 4, 2, 3, 5, 6 and
    then MORE_SEAT_COLOURS, less any near a ground colour of the board (a
    shade), so that a seat's pieces never wear the colour they lie on."""
    near = [c.get_truecolor() for c in grounds]
    candidates = [Color.parse(f"color({n})") for n in SEAT_COLOURS] + \
        [Color.parse(name) for name in MORE_SEAT_COLOURS]
    apart = [c for c in candidates if all(math.dist(c.get_truecolor(), g) >= NEAR for g in near)]
    return tuple(apart or candidates)


DEFAULT_SEATS = seat_colours()


def seat_colour(seat: int, colours: Sequence[Color] = ()) -> Color:
    """Seat `seat`'s colour among `colours` (from `seat_colours`), or among
    the standard ones: P0 colour 1, P1 colour 4, …"""
    colours = colours or DEFAULT_SEATS
    return colours[seat % len(colours)]


def seat_style(owner, colours: Sequence[Color] = ()) -> Style:
    """A seat's pieces on its colour (see `seat_colour`) as the background,
    so a piece stays readable on a hex of any shade; a piece of no seat in
    bold letters."""
    if not isinstance(owner, int) or isinstance(owner, bool):
        return Style(bold=True)
    return _on(seat_colour(owner, colours), bold=True)


SEAT_MARKS = str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹")


def seat_mark(owner) -> str:
    """A seat as a raised number after its piece ('R3¹' is P1's R3), so the
    owner reads without colour too; nothing for a piece of no seat."""
    if not isinstance(owner, int) or isinstance(owner, bool):
        return ""
    return str(owner).translate(SEAT_MARKS)


def owned(piece: str, owner, colours: Sequence[Color] = ()) -> Text:
    """A piece's text in its owner's colour, with the owner's seat mark."""
    return Text(piece + seat_mark(owner), style=seat_style(owner, colours))


def _mark_width(values: Iterable[str]) -> int:
    """The fewest first letters (up to MARK_WIDTH) that tell the values apart."""
    values = set(values)
    for k in range(1, MARK_WIDTH):
        if len({v[:k] for v in values}) == len(values):
            return k
    return MARK_WIDTH


def _letters(values: Iterable[str], first: Iterable[str] = ()) -> dict:
    """value → a letter of its own, for a key: its first letter, else its
    next letter that no value took before, else any free letter; the values
    of `first` choose before the others, each group in alphabetical order.
    Past 26 values, a value keeps its first two characters."""
    first = sorted(set(first))
    out: dict = {}
    for value in first + sorted(set(values) - set(first)):
        own = [c for c in value.lower() if c.isalnum()]
        free = [c for c in own + list(string.ascii_lowercase) if c not in out.values()]
        out[value] = free[0] if free else value[:2].lower()
    return out


WORD = re.compile(r"(.*?[^\W\d_])_?(\d.*)?")


def _word(name: str) -> tuple:
    """(the word a piece's name starts with, the rest): ('pawn', '2b') for
    'pawn2b' and 'pawn_2b', ('big_top', '') for 'big_top'; (None, name) for
    a name without letters."""
    m = WORD.fullmatch(name)
    return (m.group(1), m.group(2) or "") if m else (None, name)


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


def _fit(text: Text, width: int) -> Text:
    """The text in `width` cells: a single word keeps its end ('samur…2a'),
    several words are cut ('ka mb…')."""
    if text.cell_len <= width:
        return text
    plain = text.plain
    if " " not in plain and width >= 5:
        return text[:width - 3] + Text(ELLIPSIS) + text[len(plain) - 2:]
    return text[:width - 1] + Text(ELLIPSIS)


def _name_and_label(entry: dict) -> str:
    """A piece's name on a square grid's cell, with its label after it."""
    label = _label(entry)
    return f"{entry['piece']} {label}" if label else entry["piece"]


def _label(entry: dict) -> str:
    """The text of a piece's `label by` value where it lies, or '': a list's
    items one after the other, a list of lists' lists apart ('2 0 / 1 3')."""
    label = entry.get("label")
    if label is None:
        return ""
    if isinstance(label, list) and any(isinstance(v, list) for v in label):
        return " / ".join(value_text(v) for v in label)
    return value_text(label)


def _centred(text: Text, width: int) -> Text:
    left = (width - text.cell_len) // 2
    return Text.assemble(" " * left, text, " " * (width - left - text.cell_len))


def _wrapped(title: str, entries: list, width: int):
    """Lines of `title` and the entries, ` · ` between them, broken between
    entries only (a letter and its word stay together)."""
    line = Text()
    line.append(title, style="dim")    # the title only: an entry keeps its own colours
    for i, entry in enumerate(entries):
        sep = Text(" · " if i else " ", style="dim")
        if i and line.cell_len + sep.cell_len + entry.cell_len > width:
            yield line
            line = Text("  ")
            sep = Text()
        line.append_text(sep)
        line.append_text(entry)
    yield line


def _packed(sections: Iterable[list], width: int):
    """The lines of a key's sections (each a list of lines), short sections
    side by side on one line where they fit: a compact board's key takes
    few lines."""
    line: Optional[Text] = None
    for lines in filter(None, sections):
        if line is not None and len(lines) == 1 and line.cell_len + 3 + lines[0].cell_len <= width:
            line = Text.assemble(line, "   ", lines[0])
            continue
        if line is not None:
            yield line
        yield from lines[:-1]
        line = lines[-1]
    if line is not None:
        yield line


def _bands(xs: list, widths: dict, room: int) -> list:
    """The columns xs in bands, each as many columns (of `widths`, a space
    between) as `room` holds, at least one."""
    bands: list = [[]]
    used = 0
    for x in xs:
        if bands[-1] and used + 1 + widths[x] > room:
            bands.append([])
        used = widths[x] if not bands[-1] else used + 1 + widths[x]
        bands[-1].append(x)
    return bands


def _rows(xs: list, widths: dict, ys: Iterable[int], cell, gutter: int):
    """A compact board's lines: the columns' numbers, then one line per row
    y — its number, then each column's `cell(x, y, width)` (blank where it
    gives None), a space between columns."""
    head = Text(" " * gutter, no_wrap=True, overflow="crop", style="dim")
    head.append(" ".join(str(x).center(widths[x]) for x in xs))
    yield head
    for y in ys:
        line = Text(no_wrap=True, overflow="crop")
        line.append(str(y).rjust(gutter - 1) + " ", style="dim")
        for i, x in enumerate(xs):
            if i:
                line.append(" ")
            line.append_text(cell(x, y, widths[x]) or Text(" " * widths[x]))
        yield line


# -- square grids ------------------------------------------------------------------
# a free cell that a legal action names, from the fullest form to the shortest
LEGAL_CELL = (LEGAL_MARK + " ({x},{y})", "({x},{y})", LEGAL_MARK)


@dataclass
class GridView:
    """A zone laid out on a square grid (a view zone's `grid`): rows from
    north (top) to south, each cell 3 lines high with its piece's name in the
    middle and what each side shows as a mark on that side; the empty cells
    that a legal action names are shown as `· (x,y)`. Wider than the screen,
    it is drawn in bands of columns, one under the other. A key under it
    spells out the sides' marks.

    With `compact`, a row is one line and a piece its name, then a letter
    for each side in N E S W order ('12 rgbw', each in its colour where the
    side names one); each column as wide as what it holds, a legal cell
    reads `· (x,y)` — or `(x,y)`, or `·`, where the screen is too narrow for
    that. The key says which letter is which side and their order."""

    cells: Sequence[dict]
    legal: set = field(default_factory=set)
    compact: bool = False
    label_by: str = "labels"    # the name of what the pieces' labels are, for the key

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        pieces = {(c["x"], c["y"]): c for c in self.cells}
        free = sorted(self.legal - set(pieces))
        spots = list(pieces) + free
        if not spots:
            yield Text("empty")
            return
        sides = {v for c in self.cells for v in c.get("sides") or ()}
        xs = list(range(min(x for x, _ in spots), max(x for x, _ in spots) + 1))
        ys = range(max(y for _, y in spots), min(y for _, y in spots) - 1, -1)
        self.gutter = max(len(str(y)) for y in ys) + 1
        if self.compact:
            yield from self._compact(pieces, set(free), sides, xs, ys, options.max_width)
            return
        self.mark = _mark_width(sides) if sides else 0
        name_w = max([len(_name_and_label(c)) for c in self.cells] or [1])
        self.width = max([2 * self.mark + 2 + name_w, *(len(f"· ({x},{y})") for x, y in free)])
        fits = max(1, (options.max_width - self.gutter) // (self.width + 1))
        per_band = math.ceil(len(xs) / math.ceil(len(xs) / fits))   # bands of even width
        for start in range(0, len(xs), per_band):
            if start:
                yield Text("")
            yield from self._band(xs[start:start + per_band], ys, pieces, set(free))
        marked = sorted(v for v in sides if len(v) > self.mark)
        if marked:
            yield from _wrapped("sides:", [Text.assemble(
                (v[:self.mark], _mark_style(v)), " " + v) for v in marked], options.max_width)
        yield from self._label_key(options.max_width)

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
        name = _name_and_label(piece)
        sides = piece.get("sides")
        if not sides:
            return [Text(" " * w), Text(name.center(w), style="bold"), Text(" " * w)]
        north, east, south, west = (self._side(v) for v in sides)
        pad = (w - self.mark) // 2

        def centred(mark: tuple) -> Text:
            return Text.assemble(" " * pad, mark, " " * (w - pad - self.mark))
        middle = Text.assemble(west, (name.center(w - 2 * self.mark), "bold"), east)
        return [centred(north), middle, centred(south)]

    def _compact(self, pieces: dict, free: set, sides: set, xs: list, ys, width: int):
        self.letters = _letters(sides)
        self.name_w = max([len(c["piece"]) for c in self.cells] or [0])
        self.label_w = max([len(_label(c)) for c in self.cells] or [0])
        piece_w = self.name_w + (1 + 4 if sides else 0) + \
            (1 + self.label_w if self.label_w else 0)     # a space, then N E S W, the label
        for self.form in LEGAL_CELL:
            widths = {x: max([len(str(x))] + [piece_w for px, _ in pieces if px == x]
                             + [len(self._legal(fx, y)) for fx, y in free if fx == x])
                      for x in xs}
            if self.gutter + sum(widths.values()) + len(xs) - 1 <= width:
                break
        for i, band in enumerate(_bands(xs, widths, width - self.gutter)):
            if i:
                yield Text("")
            yield from _rows(band, widths, ys, lambda x, y, w: self._short(
                pieces.get((x, y)), (x, y) in free, x, y, w), self.gutter)
        if sides:
            yield from _wrapped("sides, N E S W after the name:", [Text.assemble(
                (self.letters[v], _mark_style(v)), " " + v) for v in sorted(sides)], width)
        yield from self._label_key(width)

    def _label_key(self, width: int):
        """What the labels after the pieces are, 'after the sides,
        platform_sign: P' — the values only where they fit on the line."""
        labels = sorted({_label(c) for c in self.cells} - {""}, key=natural)
        if not labels:
            return
        after = "sides" if self.compact and any(c.get("sides") for c in self.cells) else "name"
        key = f"after the {after}, {self.label_by}"
        values = f"{key}: " + " · ".join(labels)
        yield Text(values if len(values) <= width else key, style="dim")

    def _legal(self, x: int, y: int) -> str:
        return self.form.format(x=x, y=y)

    def _short(self, piece, is_free: bool, x: int, y: int, width: int) -> Optional[Text]:
        """A cell of the compact grid: '12 rgbw', or the legal mark."""
        if piece is None:
            return Text(self._legal(x, y).center(width), style="dim") if is_free else None
        text = Text(piece["piece"].rjust(self.name_w), style="bold")
        if piece.get("sides"):
            text.append(" ")
            for value in piece["sides"]:
                text.append(self.letters[value], style=_mark_style(value))
        if self.label_w:
            text.append(" " + _label(piece).ljust(self.label_w), style="italic")
        return _centred(text, width)


# -- hex maps ----------------------------------------------------------------------
HEX_WIDTH = (3, 8)    # the fewest and the most characters inside a hex
# which compact hexes show their name beside what lies on them
BESIDE_ALL, BESIDE_LABELLED, BESIDE_NONE = "all", "labelled", "none"
LABEL_LINES = 2       # the most lines a compact map's key gives its labels
SHORT_HEX = 3         # a compact hex holds at least this many characters after its shade


@dataclass
class HexView:
    """A zone laid out as a hex map (a view zone's `hexes`): flat-topped hexes
    in columns, odd columns half a hex lower (odd-q), each hex two lines
    between shared `/` and `\\` edges — its name, then what lies on it (pieces
    in their owner's colour, each with its seat as a raised number, 'ka⁰'; a
    zone that ever holds several pieces on one hex as initials, 'BRC'; a
    hidden one as its count, '(2)') and its label where it fits, on its shade.
    A hex that a legal action names is marked `*`. Wider than the screen, it
    is drawn in bands of columns. A key under it spells out the shades, the
    initials, the seats and the labels not drawn on their hexes.

    With `compact`, a row of hexes is one line, every column on it (the key
    says that odd columns sit half a hex lower), and a hex is its shade's
    first letter(s), its name (`*NAME` where a legal action names it, in the
    colour of the owner of what lies on it), then what lies on it — pieces
    by name where every name is short (SHORT_HEX), else each as a letter for
    the word its name starts with and the rest of its name ('pawn2b' →
    'P2b'), each with its seat's mark. Where the screen is too narrow for
    that, only the labelled hexes keep their names beside their pieces, and
    then a hex shows what lies on it alone (its name where nothing does or a
    legal action names it; at the narrowest the pieces take the shade's
    place). A column is as wide as what it holds; names too long for the
    screen are shortened, and the key spells out the letters, the shortened
    names, the labels (LABEL_LINES lines at most) and what `board` shows
    that the map leaves out."""

    hexes: Sequence[dict]
    legal: set = field(default_factory=set)
    compact: bool = False
    label_by: str = "labels"    # the name of what the hexes' labels are, for the key

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        if not self.hexes:
            yield Text("empty")
            return
        self.at = {(h["x"], h["y"]): h for h in self.hexes}
        initials = {hold["zone"] for h in self.hexes for hold in h.get("holds") or ()
                    if len(hold.get("pieces") or ()) > 1}
        shades = sorted({h["shade"] for h in self.hexes if h.get("shade") is not None})
        self.palette = {v: SHADES[i % len(SHADES)] for i, v in enumerate(shades)}
        self.seats = seat_colours(self._ground(s) for s in shades)
        self.initial = _mark_width(shades) if shades else 0
        if self.compact:
            yield from self._compact(shades, initials, options.max_width)
            return
        self.pieces = {spot: self._contents(h, initials) for spot, h in self.at.items()}
        self.contents = {spot: self._with_label(h) for spot, h in self.at.items()}
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
        for lines in (self._shade_key(shades, options.max_width),
                      self._initials_key(initials, options.max_width),
                      self._seat_key(options.max_width),
                      self._label_key(options.max_width)):
            yield from lines

    def _shade_key(self, shades: list, width: int) -> list:
        """The shades that an empty hex shows by their first letters."""
        if not any(len(s) > self.initial for s in shades):
            return []
        return list(_wrapped("shades:", [Text.assemble((s[:self.initial], self._style(
            {"shade": s})), " " + s) for s in shades], width))

    def _initials_key(self, initials: set, width: int) -> list:
        """The pieces drawn as initials."""
        letters: dict = {}
        for h in self.hexes:
            for hold in h.get("holds") or ():
                if hold["zone"] in initials:
                    for piece in hold.get("pieces") or ():
                        letters.setdefault(piece[:1].upper(), set()).add(piece)
        if not letters:
            return []
        return list(_wrapped("pieces:", [Text(f"{k} {' or '.join(sorted(v))}")
                                         for k, v in sorted(letters.items())], width))

    def _seat_key(self, width: int) -> list:
        """The seats' colours of the pieces on the map."""
        owners = {o for h in self.hexes for hold in h.get("holds") or ()
                  for o in hold.get("owners") or () if o is not None}
        if not owners:
            return []
        return list(_wrapped("seats:", [Text.assemble(seat_mark(o), " ", (f"P{o}", seat_style(
            o, self.seats))) for o in sorted(owners)], width))

    def _label_key(self, width: int) -> list:
        """The labels not drawn on their hexes, 'leaders: Harbour: P1 — · 90:
        P0', with the hex's place where the compact map hides its name under
        its pieces ('63 (16,-8): P0'); first, where some are drawn on their
        hexes, where they are."""
        on_hexes = {(h["x"], h["y"]) for h in self.hexes if self._label_on_hex(h)}
        entries = [Text("after the pieces on a hex", style="dim")] if on_hexes else []
        entries += [Text.assemble((h["piece"], "dim"), "" if not self.compact or self._named(h)
                                  else f" ({h['x']},{h['y']})", ": ", (_label(h), "italic"))
                    for h in self.hexes if _label(h) and (h["x"], h["y"]) not in on_hexes]
        if not entries:
            return []
        return list(_wrapped(f"{self.label_by}:", entries, width))

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
                    owned(p[:1].upper() if not sep else p, o, self.seats)
                    for p, o in zip(pieces, owners))
            if part.plain:
                out += Text(" ") + part if out.plain else part
        return out

    def _label_on_hex(self, h: dict) -> bool:
        """Whether a hex's label is drawn on it: on the full map, where it
        fits after its pieces (else the key lists it)."""
        label = _label(h)
        return not self.compact and bool(label) and \
            self.pieces[(h["x"], h["y"])].cell_len + 1 + len(label) <= HEX_WIDTH[1]

    def _with_label(self, h: dict) -> Text:
        """What a full map's hex holds: its pieces, then its label where it fits."""
        pieces = self.pieces[(h["x"], h["y"])]
        if not self._label_on_hex(h):
            return pieces
        label = Text(_label(h), style="italic")
        return Text.assemble(pieces, " ", label) if pieces.plain else label

    def _ground(self, shade: str) -> Color:
        return _colour_word(shade) or Color.parse(self.palette[shade])

    def _style(self, h: dict) -> Style:
        shade = h.get("shade")
        if shade is None:
            return Style()
        return _on(self._ground(shade))

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

    # -- the compact map: one line per row
    def _compact(self, shades: list, initials: set, width: int):
        held = [(hold["zone"] in initials, p) for h in self.hexes for hold in h.get("holds") or ()
                for p in hold.get("pieces") or ()]
        # names short enough are shown whole; else every piece by letters
        self.whole = all(len(p) <= SHORT_HEX for several, p in held if not several)
        words = {p: _word(p)[0] for several, p in held if several or not self.whole}
        words = {p: w for p, w in words.items() if w is not None}
        self.letters = _letters(set(words.values()), first={
            words[p] for several, p in held if several and p in words})
        self.contents = {spot: self._letters_on(h, initials) for spot, h in self.at.items()}
        names = {h["piece"] for h in self.hexes}
        columns: dict = {}
        for h in self.hexes:
            columns.setdefault(h["x"], []).append(h)
        xs = list(range(min(columns), max(columns) + 1))
        gutter = max(len(str(y)) for _, y in self.at) + 1
        longest = max(SHORT_HEX, *map(len, names))
        # Each hex's name beside what lies on it where the screen is wide
        # enough, or at least each labelled hex's — a space after the shade
        # where there is room; else what lies on it alone, its name where
        # nothing does, its names shortened as far as they still tell apart.
        forms = [(beside, spaced, longest) for beside in (BESIDE_ALL, BESIDE_LABELLED)
                 for spaced in (True, False)]
        forms += [(BESIDE_NONE, spaced, cap) for spaced in (True, False)
                  for cap in range(longest, SHORT_HEX - 1, -1)]
        for self.beside, self.spaced, cap in forms:
            self.short = _shortened(names, cap)
            widths = {x: max([len(str(x)), self.initial + SHORT_HEX] +
                             [self._needs(h) for h in columns.get(x, ())]) for x in xs}
            if gutter + sum(widths.values()) + len(xs) - 1 <= width:
                break
        for i, band in enumerate(_bands(xs, widths, width - gutter)):
            if i:
                yield Text("")
            rows = [y for x, y in self.at if x in band] or [y for _, y in self.at]
            yield from _rows(band, widths, range(min(rows), max(rows) + 1), self._short_hex, gutter)
        under = any(not self._named(h) for h in self.hexes)
        yield from _packed([[Text("odd columns sit half a hex lower: hex (x,y) touches rows "
                                  "y, y+1 of columns x±1 if x is odd, rows y-1, y if x is even",
                                  style="dim")],
                            self._letters_key(words, width), self._shade_key(shades, width),
                            self._names_key(width), self._seat_key(width),
                            *self._on_request(under, width)], width)

    def _on_request(self, under: bool, width: int) -> list:
        """The key's last sections: the labels, and what `board` shows that
        the compact map leaves out — the names under the pieces, labels
        past LABEL_LINES lines."""
        labels = self._label_key(width)
        asked = ["names under pieces"] if under else []
        if len(labels) > LABEL_LINES:
            asked.append(self.label_by)
            labels = []
        note = [Text("'board': " + " · ".join(asked), style="dim")] if asked else []
        return [note, labels]    # (the short note first: it fits beside the seats)

    def _short_piece(self, piece: str, initial: bool) -> str:
        word, rest = _word(piece)
        if word is None or (self.whole and not initial):
            return piece
        return self.letters[word].upper() + ("" if initial else rest)

    def _letters_on(self, h: dict, initials: set) -> Text:
        """What lies on a hex in a few letters, each piece with its owner's
        seat mark: 'P2b¹', 'BRC', '(2)' for a hidden zone."""
        parts = []
        for hold in h.get("holds") or ():
            pieces = hold.get("pieces")
            if pieces is None and hold.get("count"):
                parts.append(Text(f"({hold['count']})"))
            elif pieces:
                owners = hold.get("owners") or [None] * len(pieces)
                sep = "" if hold["zone"] in initials else " "
                parts.append(Text(sep).join(owned(self._short_piece(p, not sep), o, self.seats)
                                            for p, o in zip(pieces, owners)))
        return Text(" ").join(parts)

    def _body(self, h: dict) -> Text:
        """A compact hex after its shade: its name, `*` first where a legal
        action names it, then what lies on it — or, not `beside`, what lies
        on it alone where something does and no legal action names it."""
        on = self.contents[(h["x"], h["y"])]
        name = self.short[h["piece"]]
        legal = h["piece"] in self.legal
        if legal:    # the name to type, in the colour of what lies there
            owner = next((o for hold in h.get("holds") or () for o in hold.get("owners") or ()
                          if o is not None), None)
            head = Text("*" + name, style=seat_style(owner, self.seats))
        else:
            head = Text(name, style="dim")
        if not on.plain:
            return head
        if self._beside(h):
            return Text.assemble(head, " ", on)
        return head if legal else on

    def _beside(self, h: dict) -> bool:
        """Whether a hex's name is written beside what lies on it."""
        return self.beside == BESIDE_ALL or (self.beside == BESIDE_LABELLED and bool(_label(h)))

    def _needs(self, h: dict) -> int:
        """The width a compact hex takes: its shade's letters and its body —
        spaced, with room for a '*' on every hex, so a space after the
        shade; at the narrowest, pieces may take the shade's place."""
        body = self._body(h).cell_len
        if not self.spaced and self.beside == BESIDE_NONE and not self._named(h):
            return body
        return self.initial + body + (self.spaced and h["piece"] not in self.legal)

    def _named(self, h: dict) -> bool:
        """Whether a hex's name is on the compact map: where nothing lies on
        it, where a legal action names it, or beside its pieces."""
        return not self.contents[(h["x"], h["y"])].plain or h["piece"] in self.legal or \
            self._beside(h)

    def _short_hex(self, x: int, y: int, width: int) -> Optional[Text]:
        h = self.at.get((x, y))
        if h is None:
            return None
        body = self._body(h)
        cell = Text(style=self._style(h))
        if body.cell_len > width - self.initial:    # pieces in the shade's place: on its colour
            body = _fit(body, width)
            cell.append(" " * (width - body.cell_len))
            cell.append_text(body)
            return cell
        cell.append((h.get("shade") or "")[:self.initial].ljust(self.initial), style="dim")
        pad = " " * (width - self.initial - body.cell_len)
        if self.beside != BESIDE_NONE:    # names and pieces start where the column does
            if self.spaced and h["piece"] not in self.legal and pad:
                body, pad = Text(" ") + body, pad[1:]
            cell.append_text(body)
            cell.append(pad)
        else:              # a name alone: as numbers are, to the right
            cell.append(pad)
            cell.append_text(body)
        return cell

    def _letters_key(self, words: dict, width: int) -> list:
        """The letters that stand for the words of the pieces' names, with
        one of the map's pieces as an example."""
        entries = [Text(f"{self.letters[w].upper()} {w}") for w in
                   sorted(set(words.values()), key=lambda w: self.letters[w])
                   if w.upper() != self.letters[w].upper()]
        if not entries:
            return []
        longer = sorted(p for p in words if _word(p)[1])
        example = f" ({self._short_piece(longer[0], False)} is {longer[0]})" if longer else ""
        return list(_wrapped(f"pieces{example}:", entries, width))

    def _names_key(self, width: int) -> list:
        """The hexes' names that the compact map shortens."""
        short = sorted((s, n) for n, s in self.short.items() if s != n)
        if not short:
            return []
        return list(_wrapped("names:", [Text(f"{s} {n}") for s, n in short], width))


# -- declared grids -----------------------------------------------------------------
MARK_CHARS = 4        # a board cell shows its mark in at most this many characters
MARK_FEWEST = 3       # and, compact, in no fewer where it is longer: 'm…9' still tells apart


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
    its own). A key under the board spells out the shades, the shortened
    marks and the seats. Wider than the screen, it is drawn in bands of
    columns.

    With `compact`, a board whose shade is its mark (both by one value)
    shows it once, as the mark; and rather than draw in bands, it shortens
    the marks, down to MARK_FEWEST characters, where that makes it fit the
    screen and still tells them apart."""

    board: dict
    legal: set = field(default_factory=set)
    compact: bool = False

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        width, height = self.board["width"], self.board["height"]
        self.at = {}
        for spot, entry in (self.board.get("cells") or {}).items():
            m = CELL_TEXT.fullmatch(spot)
            if m:
                self.at[(int(m.group(1)), int(m.group(2)))] = entry
        entries = list(self.at.values())
        grounds = {e["shade"] for e in entries if "shade" in e and "shade_seat" not in e}
        self.tints = _tints(s for s in grounds if _colour_word(s) is None)
        self.seats = seat_colours(_colour_word(s) or Color.parse(self.tints[s]) for s in grounds)
        self.shades = {e["shade"]: self._shade_style(e) for e in entries if "shade" in e}
        marks = {e["mark"] for e in entries if "mark" in e}
        self.code = _mark_width(self.shades) if self.shades else 0
        if self.compact and self._shade_is_mark(entries):
            self.code = 0
        longest = min(MARK_CHARS, max(len(m) for m in marks)) if marks else 0
        self.gutter = len(str(height - 1)) + 1
        fewest = min(longest, MARK_FEWEST) if self.compact else longest
        for self.mark in range(longest, fewest - 1, -1):    # compact: shorter marks, not bands
            self._measure(marks, width)
            apart = self.mark == longest or len(set(self.short.values())) == len(marks)
            if apart and self.gutter + self.width * width <= options.max_width:
                break
        else:
            self.mark = longest
            self._measure(marks, width)
        xs = list(range(width))
        fits = max(1, (options.max_width - self.gutter) // self.width)
        per_band = math.ceil(width / math.ceil(width / fits))   # bands of even width
        for start in range(0, width, per_band):
            if start:
                yield Text("")
            yield from self._band(xs[start:start + per_band], height)
        yield from self._key(marks, options.max_width)

    def _measure(self, marks: set, columns: int) -> None:
        self.short = _shortened(marks, self.mark)
        self.inner = self.code + 1 + self.mark
        # a space each side: cells touch, so a run of one shade reads as one region
        self.width = max(self.inner + 2, len(str(columns - 1)) + 1)

    def _shade_is_mark(self, entries: list) -> bool:
        return self.board.get("shade_by") == self.board.get("mark_by") and \
            all(e.get("shade") == e.get("mark") for e in entries)

    def _shade_style(self, entry: dict) -> Style:
        if "shade_seat" in entry:
            return _on(seat_colour(entry["shade_seat"], self.seats))
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
            style = seat_style(entry["mark_seat"], self.seats) if "mark_seat" in entry \
                else _mark_style(mark)
            cell.append(self.short[mark], style=style)
        cell.append(" " * (self.width - cell.cell_len))
        return cell

    def _key(self, marks: set, width: int):
        """What the cells' letters and colours stand for, where they are not
        the whole value: 'shade by ground: f forest · s sand', wrapped
        between entries; then the seats' colours."""
        shades = sorted(self.shades)
        if self.code and any(len(s) > self.code for s in shades):
            yield from _wrapped(f"shade by {self.board.get('shade_by')}:",
                                [Text.assemble((s[:self.code], self.shades[s]), " " + s)
                                 for s in shades], width)
        shortened = sorted(m for m in marks if len(m) > self.mark)
        if shortened:
            yield from _wrapped(f"mark by {self.board.get('mark_by')}:",
                                [Text(f"{self.short[m]} {m}") for m in shortened], width)
        seats = sorted({e[k] for e in self.at.values() for k in ("mark_seat", "shade_seat")
                        if k in e})
        if seats:
            yield from _wrapped("seats:", [Text(f"P{s}", style=seat_style(s, self.seats))
                                           for s in seats], width)

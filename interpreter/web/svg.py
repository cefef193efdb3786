"""A viewer's table drawn as SVG, one picture per section of the table
(`presentation.board.sections`): the rulebook's layout, each declared grid,
each zone whose pieces lie on cells, each hex map, then the zones listed by
name.

A piece is a rounded card with its name on it (filled with its shade, its
border in its seat's colour, what players read on it under the name), or as
it is drawn (`drawn as`): a square of four triangles for its edges, its
cells for a shape, small squares for rows. A piece the viewer may not see is
a hatched back with nothing of it written on it. A declared grid is a board
of squares coloured by their shade with their mark on them (a seat's as a
disc in its colour); a zone on cells is its pieces at their cells, north at
the top, with an empty cell where a legal action may put something; a hex
map is flat-topped hexes in columns, odd columns half a hex lower, as the
terminal lays them out.

Every piece, cell and hex a player may point at is a group carrying its
token (`data-token`): the browser script finds them by it (the page's DOM
contract, see `draw_table`). Everything from the view is escaped and every
character that is not printable written as its escape (`printable`), so a
name can neither close a tag nor break the XML. No script, no link, no
event handler is ever written. This module knows no game.

May import: presentation, printable, stdlib.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from html import escape
from typing import Optional, Sequence

from ..presentation import board as boards
from ..presentation.colours import Shades, ink, seat_colour, word_colour
from ..presentation.options import CELL as CELL_TEXT, legal_cells, legal_names
from ..presentation.words import value_text
from ..printable import printable

SVG_NS = "http://www.w3.org/2000/svg"
FONT = "font-family:sans-serif"
PER_ROW = 12                # pieces of a zone in a row before it wraps
GAP = 6                     # between pieces
PAD = 6                     # around a section's drawing
CARD_W, CARD_H, CARD_WIDEST = 56, 40, 140
LINE = 11                   # a line of small text under a card's name
TILE = 48                   # a piece drawn as edges
CELL = 52                   # a cell of a zone on cells
SQUARE = 40                 # a cell of a declared grid (smaller for wide grids)
HEX = 24                    # a hex's radius
SHAPE_CELL, ROW_CELL = 10, 15
EMPTY_FILL, CARD_FILL, LINE_COLOUR = "#f4f1ea", "#fbfaf6", "#6b6b6b"
DIM = "#8a8a8a"
CHANGED = "#ff6d00"
BACK = "#3f51b5"


# -- text ----------------------------------------------------------------------
def _text(value) -> str:
    """A value of the view as text to put in the SVG: printable, escaped."""
    return escape(printable(value_text(value), lines=False), quote=True)


def _attr(value) -> str:
    """An attribute's value, quoted: the value itself (a token must come back
    as the name it is), escaped, but for what XML cannot hold (the control
    characters, written as their escape) and the line breaks and tabs
    (written as character references, so that parsing keeps them)."""
    text = "".join(ch if _xml_char(ch) else ascii(ch)[1:-1]
                   for ch in value_text(value))
    text = escape(text, quote=True)
    return '"' + text.replace("\t", "&#9;").replace("\n", "&#10;").replace("\r", "&#13;") + '"'


def _xml_char(ch: str) -> bool:
    """Whether XML 1.0 holds the character (a tab or line break too)."""
    c = ord(ch)
    return c in (9, 10, 13) or 0x20 <= c <= 0xD7FF or 0xE000 <= c <= 0xFFFD or c >= 0x10000


def _width_of(text: str, size: float) -> float:
    """About how wide `text` is at font size `size` (capitals and digits
    wider than small letters), bold or not."""
    return sum(0.72 if ch.isupper() or ch.isdigit() or ch in "_—" else 0.58 for ch in text) * size


def _label(x: float, y: float, text: str, size: float = 11, fill: str = "#1b1b1b",
           weight: str = "normal", anchor: str = "middle") -> str:
    return (f'<text x="{_n(x)}" y="{_n(y)}" font-size="{_n(size)}" fill="{fill}" '
            f'font-weight="{weight}" text-anchor="{anchor}" dominant-baseline="central" '
            f'style="{FONT}">{_text(text)}</text>')


def _fitted(text: str, width: float, size: float = 11, least: float = 7) -> tuple:
    """(text, font size) that fits `width`: a smaller font, then cut with '…'."""
    while size > least and _width_of(text, size) > width:
        size -= 0.5
    if _width_of(text, size) > width:
        keep = max(1, int(width / (size * 0.72)) - 1)
        text = text[:keep] + "…"
    return text, size


def _n(v: float) -> str:
    """A coordinate, short."""
    r = round(v, 1)
    return str(int(r)) if r == int(r) else str(r)


def _title(*parts) -> str:
    return f"<title>{_text(' · '.join(str(p) for p in parts if p not in (None, '')))}</title>"


def _words(values: dict) -> list:
    """`name value` for each of a piece's values."""
    return [f"{k} {value_text(v)}" for k, v in (values or {}).items()]


# -- shapes --------------------------------------------------------------------
def _rect(x, y, w, h, fill, stroke=LINE_COLOUR, width=1.0, rx=0, extra="") -> str:
    return (f'<rect x="{_n(x)}" y="{_n(y)}" width="{_n(w)}" height="{_n(h)}" rx="{_n(rx)}" '
            f'fill="{fill}" stroke="{stroke}" stroke-width="{_n(width)}"{extra}/>')


def _polygon(points, fill, stroke=LINE_COLOUR, width=1.0, extra="") -> str:
    text = " ".join(f"{_n(x)},{_n(y)}" for x, y in points)
    return f'<polygon points="{text}" fill="{fill}" stroke="{stroke}" stroke-width="{_n(width)}"{extra}/>'


def _circle(x, y, r, fill, stroke=LINE_COLOUR, width=1.0) -> str:
    return (f'<circle cx="{_n(x)}" cy="{_n(y)}" r="{_n(r)}" fill="{fill}" stroke="{stroke}" '
            f'stroke-width="{_n(width)}"/>')


def _outline(w, h, rx=4) -> str:
    """The highlight of something the last move changed."""
    return _rect(-2, -2, w + 4, h + 4, "none", CHANGED, 4, rx + 2, ' class="highlight"')


def _badge(x, y, text, fill="#263238") -> str:
    """A small rounded label (a count, a label) centred at (x, y)."""
    text = value_text(text)
    w = max(14, _width_of(text, 9) + 6)
    return _rect(x - w / 2, y - 7, w, 14, fill, "#ffffff", 1, 7) + _label(x, y, text, 9, ink(fill), "bold")


def _group(classes: str, body: str, x: float = 0, y: float = 0, data: Sequence = ()) -> str:
    """`<g>` of `classes` at (x, y), `data` its (name, value) attributes."""
    attrs = "".join(f" data-{k}={_attr(v)}" for k, v in data)
    at = f' transform="translate({_n(x)},{_n(y)})"' if x or y else ""
    return f'<g class="{classes}"{attrs}{at}>{body}</g>'


def _svg(kind: str, width: float, height: float, body: str, defs: str = "") -> str:
    w, h = math.ceil(width + 2 * PAD), math.ceil(height + 2 * PAD)
    return (f'<svg xmlns="{SVG_NS}" viewBox="0 0 {w} {h}" width="{w}" height="{h}" '
            f'class="section {kind}">{defs}<g transform="translate({PAD},{PAD})">{body}</g></svg>')


HATCH_ID = "piece-back-hatch"
HATCH = (f'<defs><pattern id="{HATCH_ID}" width="6" height="6" patternUnits="userSpaceOnUse" '
         f'patternTransform="rotate(45)"><rect width="6" height="6" fill="{BACK}"/>'
         f'<line x1="0" y1="0" x2="0" y2="6" stroke="#9fa8da" stroke-width="2"/></pattern></defs>')


# -- colours -------------------------------------------------------------------
def _fill_of(shade, seat, shades: Shades) -> Optional[str]:
    """The colour of a shade value: a seat's colour, a colour word's, a tint."""
    if seat is not None:
        return seat_colour(seat)
    return shades.of(shade)


def _side_colour(value, shades: Shades) -> str:
    return shades.of(value) or EMPTY_FILL


# -- a piece's look ------------------------------------------------------------
def _name_size(name: str) -> tuple:
    """A card's width for its name, and the name as it fits."""
    w = min(CARD_WIDEST, max(CARD_W, _width_of(name, 11) + 10))
    return w, _fitted(name, w - 6)


def _edges_look(name: str, edges: Sequence, label, shades: Shades, size: float = TILE) -> tuple:
    """A square of four triangles, one per side (north, east, south, west),
    the name in a disc in the middle; (body, width, height)."""
    s, c = size, size / 2
    corners = [(0, 0), (s, 0), (s, s), (0, s)]
    body = ""
    for i, side in enumerate(list(edges)[:4]):
        a, b = corners[i], corners[(i + 1) % 4]
        body += _polygon([a, b, (c, c)], _side_colour(side, shades), "#555555", 0.8)
    body += _rect(0, 0, s, s, "none", "#333333", 1.2, 2)
    text, fs = _fitted(name, s * 0.5, 11)
    body += _circle(c, c, s * 0.24, "#ffffff", "#333333", 0.8) + _label(c, c, text, fs, weight="bold")
    if label is not None:
        body += _badge(s - 9, 8, label, "#5d4037")
    return body, s, s


def _shape_look(name: str, shape: Sequence, fill: str) -> tuple:
    """A polyomino's cells as small squares, its name under them."""
    cells = [tuple(c) for c in shape if isinstance(c, (list, tuple)) and len(c) == 2]
    xs = [c[0] for c in cells] or [0]
    ys = [c[1] for c in cells] or [0]
    cols, rows = max(xs) - min(xs) + 1, max(ys) - min(ys) + 1
    w = max(CARD_W, cols * SHAPE_CELL + 8, _width_of(name, 9) + 6)
    left = (w - cols * SHAPE_CELL) / 2
    body = _rect(0, 0, w, rows * SHAPE_CELL + 22, CARD_FILL, "#9e9e9e", 1, 4)
    for x, y in cells:
        body += _rect(left + (x - min(xs)) * SHAPE_CELL, 4 + (y - min(ys)) * SHAPE_CELL,
                      SHAPE_CELL, SHAPE_CELL, fill, "#37474f", 0.8)
    text, fs = _fitted(name, w - 4, 9)
    body += _label(w / 2, rows * SHAPE_CELL + 14, text, fs)
    return body, w, rows * SHAPE_CELL + 22


def _rows_look(name: str, rows: Sequence, shades: Shades) -> tuple:
    """Rows of values as small coloured squares (each value's first letters
    on it), the name under them."""
    rows = [list(r) if isinstance(r, (list, tuple)) else [r] for r in rows]
    cols = max((len(r) for r in rows), default=1)
    w = max(CARD_W, cols * ROW_CELL + 8)
    left = (w - cols * ROW_CELL) / 2
    height = len(rows) * ROW_CELL + 22
    body = _rect(0, 0, w, height, CARD_FILL, "#9e9e9e", 1, 4)
    for j, row in enumerate(rows):
        for i, value in enumerate(row):
            fill = _side_colour(value, shades)
            x, y = left + i * ROW_CELL, 4 + j * ROW_CELL
            body += _rect(x, y, ROW_CELL, ROW_CELL, fill, "#37474f", 0.8)
            if word_colour(value) is None and value is not None:
                body += _label(x + ROW_CELL / 2, y + ROW_CELL / 2, str(value)[:1], 8, ink(fill))
    text, fs = _fitted(name, w - 4, 9)
    body += _label(w / 2, height - 8, text, fs)
    return body, w, height


def _card_look(name: str, fill: Optional[str], border: Optional[str], lines: Sequence) -> tuple:
    """A rounded card: its name, what players read on it under it."""
    w, (text, fs) = _name_size(name)
    lines = list(lines)[:3]
    h = CARD_H + LINE * max(0, len(lines) - 1)
    fill = fill or CARD_FILL
    body = _rect(0, 0, w, h, fill, border or "#616161", 3 if border else 1, 5)
    top = h / 2 - LINE * len(lines) / 2 if lines else h / 2
    body += _label(w / 2, top, text, fs, ink(fill), "bold")
    for i, line in enumerate(lines):
        small, size = _fitted(line, w - 6, 9, 6)
        body += _label(w / 2, top + LINE * (i + 1), small, size, ink(fill))
    return body, w, h


def _look(drawing: dict, lines: Sequence = (), shades: Optional[Shades] = None) -> tuple:
    """A visible piece drawn as its drawing says: (body, width, height)."""
    shades = shades or Shades()
    name = value_text(drawing.get("piece"))
    fill = shades.of(drawing.get("shade")) if drawing.get("shade_seat") is None else None
    border = seat_colour(drawing.get("shade_seat"))
    if drawing.get("edges") is not None:
        return _edges_look(name, drawing["edges"], drawing.get("label"), shades)
    if drawing.get("shape") is not None:
        return _shape_look(name, drawing["shape"], fill or border or "#8d6e63")
    if drawing.get("rows") is not None:
        return _rows_look(name, drawing["rows"], shades)
    return _card_look(name, fill, border or (word_colour(name) if fill is None else None), lines)


def _back_look(count: int) -> tuple:
    """A card's back, hatched; how many there are on it when more than one."""
    body = _rect(0, 0, CARD_W, CARD_H, f"url(#{HATCH_ID})", "#1a237e", 1.5, 5)
    if count > 1:
        body += _badge(CARD_W / 2, CARD_H / 2, f"×{count}", "#ffffff")
    return body, CARD_W, CARD_H


def draw_piece(drawing: dict, size: int = 48) -> str:
    """One piece's drawing (a view's `drawings` entry: edges, shape, rows or
    shade) alone as an `<svg>` `size` pixels tall, for a preview of how it
    will lie."""
    body, w, h = _look(drawing)
    scale = size / (h + 4)
    width = math.ceil((w + 4) * scale)
    return (f'<svg xmlns="{SVG_NS}" viewBox="-2 -2 {_n(w + 4)} {_n(h + 4)}" width="{width}" '
            f'height="{size}" class="piece-drawing">{body}</svg>')


# -- pieces in zones -----------------------------------------------------------
def _components(view: dict) -> dict:
    """Each piece's row of the components' tables, by name (the first row of a name)."""
    rows: dict = {}
    for table in (view.get("components") or {}).values():
        for row in table or ():
            rows.setdefault(str(row.get("name")), row)
    return rows


def _description(name: str, shown, row: Optional[dict]) -> list:
    """What a piece's title says: its name, what it shows, its table's values."""
    parts = [name] + _words(shown or {})
    for k, v in (row or {}).items():
        if k != "name" and v is not None and (not shown or k not in shown):
            parts.append(f"{k} {value_text(v)}")
    return parts


def _zone_items(zone: dict) -> list:
    """The zone's pieces as (name or None for one not seen, drawing, shown,
    how many in a row), equal pieces next to each other as one."""
    cards = zone.get("cards")
    if cards is None:
        return [(None, None, None, zone.get("count") or 0)] if zone.get("count") else []
    drawings = zone.get("drawings") or []
    shown = zone.get("attributes") or []
    items: list = []
    seen = iter(drawings)
    for i, card in enumerate(cards):
        drawing = next(seen, None) if card is not None else None
        if card is not None and (drawing is None or drawing.get("piece") != card):
            drawing = {"piece": card}
        item = [card, drawing, shown[i] if i < len(shown) else None, 1]
        if items and items[-1][:3] == item[:3]:
            items[-1][3] += 1
        else:
            items.append(item)
    return [tuple(i) for i in items]


def _piece_group(key: str, item: tuple, changed: set, shades: Shades, rows: dict) -> tuple:
    """One piece (or a run of equal ones) of zone `key`: (group, w, h) at the origin."""
    name, drawing, shown, count = item
    if name is None:
        body, w, h = _back_look(count)
        return _group("piece back", body), w, h
    body, w, h = _look(drawing, _words(shown), shades)
    name = value_text(name)
    title = _title(*_description(name, shown, rows.get(name)), f"×{count}" if count > 1 else "")
    marked = (key, name) in changed
    if marked:
        body += _outline(w, h)
    if count > 1:
        body += _badge(w - 4, h - 4, f"×{count}")
    data = (("token", name), ("zone", key)) + ((("count", count),) if count > 1 else ())
    return _group("piece changed" if marked else "piece", title + body, data=data), w, h


def _flow(parts: Sequence, width_limit: float = 0, per_row: int = PER_ROW) -> tuple:
    """(group, w, h) parts laid side by side, wrapped after `per_row`: (body, w, h)."""
    body, x, y, line, widest = "", 0.0, 0.0, 0.0, 0.0
    for i, (part, w, h) in enumerate(parts):
        if i and (i % per_row == 0 or (width_limit and x + w > width_limit)):
            x, y, line = 0.0, y + line + GAP, 0.0
        body += f'<g transform="translate({_n(x)},{_n(y)})">{part}</g>'
        x += w + GAP
        widest, line = max(widest, x - GAP), max(line, h)
    return body, widest, y + line


def _zone_pieces(zone: dict, changed: set, shades: Shades, rows: dict) -> tuple:
    """A zone instance's pieces in rows: (body, w, h); 'empty' for none."""
    items = _zone_items(zone)
    if not items:
        return _label(0, 10, "empty", 10, DIM, anchor="start"), 40, 20
    key = boards.zone_key(zone)
    return _flow([_piece_group(key, item, changed, shades, rows) for item in items])


def _stacked(parts: Sequence) -> tuple:
    """(body, w, h) parts one under the other."""
    body, y, widest = "", 0.0, 0.0
    for part, w, h in parts:
        body += f'<g transform="translate(0,{_n(y)})">{part}</g>'
        y += h + GAP
        widest = max(widest, w)
    return body, widest, max(0.0, y - GAP)


def _zone_list(view: dict, zones: Sequence, changed: set, shades: Shades) -> tuple:
    """The instances of one zone name, each on its own line after what tells it apart."""
    rows = _components(view)
    labels = [boards.whose(z) for z in zones]
    gutter = max((_width_of(t, 11) for t in labels), default=0)
    gutter = gutter + 10 if gutter else 0
    lines = []
    for zone, label in zip(zones, labels):
        body, w, h = _zone_pieces(zone, changed, shades, rows)
        colour = seat_colour(zone.get("owner")) or "#1b1b1b"
        head = _label(0, min(h, CARD_H) / 2, label, 11, colour, "bold", "start") if label else ""
        lines.append((head + f'<g transform="translate({_n(gutter)},0)">{body}</g>', gutter + w, h))
    return _stacked(lines)


# -- a zone on cells -----------------------------------------------------------
def _laid_piece(entry: dict, shades: Shades, label_by: Optional[str]) -> tuple:
    """The piece lying on a cell: (body, title parts)."""
    name = value_text(entry.get("piece"))
    label = entry.get("label")
    parts = [entry.get("cell"), name]
    if entry.get("sides") is not None:
        body = _edges_look(name, entry["sides"], label, shades, CELL)[0]
        parts.append("sides " + value_text(list(entry["sides"])))
    else:
        body = _rect(0, 0, CELL, CELL, CARD_FILL, "#333333", 1.2, 2)
        text, fs = _fitted(name, CELL - 6, 11)
        body += _label(CELL / 2, CELL / 2, text, fs, weight="bold")
        if label is not None:
            body += _badge(CELL - 9, 8, label, "#5d4037")
    if label is not None:
        parts.append(f"{label_by or 'label'} {value_text(label)}")
    return body, parts


def _cells_zone(zone: dict, key: str, changed: set, aims: Aims, shades: Shades) -> tuple:
    """A zone on a square grid (its section's key `key`): each piece at its
    cell, north at the top, and an empty cell at each cell a legal action
    names that nothing lies on."""
    where = boards.zone_key(zone)
    pieces = {(e["x"], e["y"]): e for e in zone.get("grid") or ()}
    free = {(x, y): f"({x},{y})" for x, y in aims.cells if (x, y) not in pieces}
    spots = list(pieces) + list(free)
    if not spots:
        return _label(0, 10, "empty", 10, DIM, anchor="start"), 40, 20
    left, top = min(x for x, _ in spots), max(y for _, y in spots)
    step = CELL + 2
    body = ""
    last = sorted(pieces.items(), key=lambda p: ((key, p[1].get("cell")) in changed, p[0]))
    for (x, y), entry in last:    # the changed last, their outlines on top
        cell = entry.get("cell") or f"({x},{y})"
        inner, parts = _laid_piece(entry, shades, zone.get("label_by"))
        marked = (key, cell) in changed
        inner = _title(*parts) + inner + (_outline(CELL, CELL, 2) if marked else "")
        body += _group("cell changed" if marked else "cell", inner, (x - left) * step,
                       (top - y) * step, (("token", cell), ("piece", entry.get("piece")),
                                          ("zone", where)))
    for (x, y), cell in sorted(free.items()):
        inner = _title(cell, "free") + _rect(2, 2, CELL - 4, CELL - 4, "#e3f2fd", "#1e88e5", 1.5, 4,
                                             ' stroke-dasharray="4 3"')
        inner += _label(CELL / 2, CELL / 2, cell, 9, "#1565c0")
        body += _group("cell target", inner, (x - left) * step, (top - y) * step, (("token", cell),))
    width = (max(x for x, _ in spots) - left + 1) * step - 2
    height = (top - min(y for _, y in spots) + 1) * step - 2
    return body, width, height


# -- a declared grid -----------------------------------------------------------
def _mark(mark, seat, size: float, ground: str) -> str:
    """A cell's mark: a seat's or a colour word's as a disc, else its text."""
    colour = seat_colour(seat) if seat is not None else word_colour(mark)
    c = size / 2
    if colour is not None:
        return _circle(c, c, size * 0.36, colour, "#212121", 1.2)
    text, fs = _fitted(value_text(mark), size - 4, min(16, size * 0.45), 7)
    return _label(c, c, text, fs, ink(ground), "bold")


def _grid_cell(board: dict, spot: tuple, entry: dict, size: float, shades: Shades,
               marked: bool, target: bool) -> str:
    """One square of a declared grid, as a group with its token."""
    own = board.get("shade_by") is not None and board.get("shade_by") == board.get("mark_by")
    ground = EMPTY_FILL if own else (_fill_of(entry.get("shade"), entry.get("shade_seat"), shades)
                                     or EMPTY_FILL)
    text = f"({spot[0]},{spot[1]})"
    parts = [text] + [f"{k} {value_text(entry[k])}" for k in ("shade", "mark") if k in entry]
    parts += _words(entry.get("variables"))
    inner = _title(*dict.fromkeys(parts)) + _rect(0, 0, size, size, ground, "#9e9e9e", 0.8)
    if entry.get("mark") is not None:
        inner += _mark(entry["mark"], entry.get("mark_seat"), size, ground)
    if target:
        inner += _circle(size / 2, size / 2, 4, "#1e88e5", "#ffffff", 1)
    if marked:
        inner += _outline(size, size, 0)
    classes = "cell" + (" target" if target else "") + (" changed" if marked else "")
    return _group(classes, inner, spot[0] * size, spot[1] * size, (("token", text),))


def _grid(board: dict, key: str, changed: set, aims: Aims, shades: Shades) -> tuple:
    """A declared grid: its W×H squares, row 0 at the top, x to the east."""
    width, height = int(board.get("width") or 0), int(board.get("height") or 0)
    size = SQUARE if max(width, height) <= 10 else max(20, SQUARE * 10 // max(width, height))
    cells = {}
    for text, entry in (board.get("cells") or {}).items():
        m = CELL_TEXT.fullmatch(str(text))
        if m:
            cells[(int(m.group(1)), int(m.group(2)))] = entry
    spots = sorted(((x, y) for y in range(height) for x in range(width)),
                   key=lambda s: ((key, f"({s[0]},{s[1]})") in changed, s[1], s[0]))
    body = "".join(_grid_cell(board, (x, y), cells.get((x, y)) or {}, size, shades,
                              (key, f"({x},{y})") in changed, (x, y) in aims.cells)
                   for x, y in spots)    # the changed last, their outlines on top
    return body, width * size, height * size


# -- a hex map -----------------------------------------------------------------
def _hex_centre(x: int, y: int, left: int, top: int) -> tuple:
    """Where a hex's centre lies: flat-topped hexes in columns, odd columns
    half a hex lower (as the terminal's map lays them out)."""
    col, row = x - left, y - top
    return HEX + col * HEX * 1.5, HEX * math.sqrt(3) * (row + 0.5 + 0.5 * (x % 2))


def _hex_points(cx: float, cy: float) -> list:
    return [(cx + HEX * math.cos(math.pi / 3 * i), cy + HEX * math.sin(math.pi / 3 * i))
            for i in range(6)]


def _hex_pieces(h: dict) -> list:
    """What lies on a hex: (text, seat or None, hidden) each."""
    out = []
    for hold in h.get("holds") or ():
        pieces = hold.get("pieces")
        if pieces is None:
            if hold.get("count"):
                out.append((f"{hold['count']}", None, True))
            continue
        owners = hold.get("owners") or []
        for i, piece in enumerate(pieces):
            out.append((value_text(piece), owners[i] if i < len(owners) else None, False))
    return out


def _hex_badges(cx: float, cy: float, pieces: list) -> str:
    """The pieces on a hex as small badges in their owners' colours."""
    body = ""
    shown = pieces[:4]
    for i, (text, seat, hidden) in enumerate(shown):
        fill = "#616161" if hidden else (seat_colour(seat) or "#fafafa")
        bx = cx + (i - (len(shown) - 1) / 2) * 11
        body += _circle(bx, cy + 6, 6, fill, "#212121", 0.8)
        body += _label(bx, cy + 6, text[:1].upper(), 7, ink(fill), "bold")
    if len(pieces) > len(shown):
        body += _label(cx + 18, cy + 6, f"+{len(pieces) - len(shown)}", 7)
    return body


def _hex(h: dict, key: str, zone: str, at: tuple, changed: set, shades: Shades, label_by,
         aims: set) -> str:
    """One hex of the map of section `key` and zone instance `zone` (its
    text) as a group with its token: its shade, name, label and pieces."""
    cx, cy = at
    name = value_text(h.get("piece"))
    ground = shades.of(h.get("shade")) or EMPTY_FILL
    pieces = _hex_pieces(h)
    parts = [name, h.get("shade"), f"({h.get('x')},{h.get('y')})"]
    if h.get("label") is not None:
        parts.append(f"{label_by or 'label'} {value_text(h['label'])}")
    parts += [("hidden ×" if hidden else "") + text + (f" of P{seat}" if seat is not None else "")
              for text, seat, hidden in pieces]
    marked = (key, name) in changed
    owner = seat_colour(h.get("owner"))
    inner = _title(*parts) + _polygon(_hex_points(cx, cy), ground, owner or "#ffffff",
                                      2.5 if owner else 1)
    text, fs = _fitted(name, HEX * 1.5, 8, 6)
    inner += _label(cx, cy - HEX * 0.5, text, fs, ink(ground))
    if h.get("label") is not None:
        small, size = _fitted(value_text(h["label"]), HEX * 1.6, 8, 6)
        inner += _label(cx, cy - HEX * 0.08, small, size, ink(ground), "bold")
    inner += _hex_badges(cx, cy, pieces)
    if name in aims:
        inner += _polygon(_hex_points(cx, cy), "none", "#1e88e5", 2, ' stroke-dasharray="3 2"')
    if marked:
        inner += _polygon(_hex_points(cx, cy), "none", CHANGED, 4, ' class="highlight"')
    classes = "hex" + (" target" if name in aims else "") + (" changed" if marked else "")
    return _group(classes, inner, data=(("token", name), ("zone", zone)))


def _hex_map(zone: dict, key: str, changed: set, aims: Aims, shades: Shades) -> tuple:
    hexes = [h for h in zone.get("hexes") or () if isinstance(h.get("x"), int) and isinstance(h.get("y"), int)]
    if not hexes:
        return _label(0, 10, "empty", 10, DIM, anchor="start"), 40, 20
    where = boards.zone_key(zone)
    left, top = min(h["x"] for h in hexes), min(h["y"] for h in hexes)
    body, right, bottom = "", 0.0, 0.0
    for h in sorted(hexes, key=lambda h: (key, h.get("piece")) in changed):
        at = _hex_centre(h["x"], h["y"], left, top)
        body += _hex(h, key, where, at, changed, shades, zone.get("label_by"), aims.names)
        right, bottom = max(right, at[0] + HEX), max(bottom, at[1] + HEX * math.sqrt(3) / 2)
    top_edge = min(_hex_centre(h["x"], h["y"], left, top)[1] for h in hexes) - HEX * math.sqrt(3) / 2
    body = f'<g transform="translate(0,{_n(-top_edge)})">{body}</g>'
    return body, right, bottom - top_edge


# -- the layout ----------------------------------------------------------------
def _laid_out_piece(cell: dict, aims: set) -> tuple:
    """A layout's piece, what it shows under its name (one value large)."""
    name = value_text(cell.get("piece"))
    shows = cell.get("shows") or {}
    w = max(CARD_W + 8, _width_of(name, 11) + 12)
    h = CARD_H + 16
    body = _rect(0, 0, w, h, CARD_FILL, "#5d4037", 1.5, 12)
    body += _label(w / 2, 11, _fitted(name, w - 6)[0], 10, DIM)
    if len(shows) == 1:
        body += _label(w / 2, h / 2 + 7, value_text(next(iter(shows.values()))), 20, weight="bold")
    else:
        for i, line in enumerate(_words(shows)[:3]):
            body += _label(w / 2, 25 + i * LINE, _fitted(line, w - 6, 9)[0], 9)
    if name in aims:
        body += _rect(2, 2, w - 4, h - 4, "none", "#1e88e5", 2, 10, ' stroke-dasharray="4 3"')
    return _group("piece target" if name in aims else "piece", _title(name, *_words(shows)) + body,
                  data=(("token", name),)), w, h


def _laid_out_zone(view: dict, cell: dict, changed: set, shades: Shades) -> tuple:
    zones = [z for z in view.get("zones") or () if z.get("name") == cell.get("zone")]
    body, w, h = _zone_list(view, zones, changed, shades)
    head = _label(0, 7, cell.get("zone"), 10, DIM, "bold", "start")
    return head + f'<g transform="translate(0,16)">{body}</g>', max(w, 40), h + 16


def _laid_cell(view: dict, cell, changed: set, shades: Shades, aims: set) -> tuple:
    """One cell of the rulebook's layout: (body, w, h)."""
    if not cell:
        return "", 0, 0
    if "text" in cell:
        return _label(0, 10, cell["text"], 12, "#37474f", "bold", "start"), \
            _width_of(value_text(cell["text"]), 12), 20
    if "piece" in cell:
        return _laid_out_piece(cell, aims)
    return _laid_out_zone(view, cell, changed, shades)


def _layout(view: dict, changed: set, aims: Aims, shades: Shades) -> tuple:
    """The rulebook's layout: its rows of cells, each column as wide as its widest."""
    rows = [list(r or ()) for r in view.get("layout") or ()]
    drawn = [[_laid_cell(view, c, changed, shades, aims.names) for c in row] for row in rows]
    cols = max((len(r) for r in drawn), default=0)
    widths = [max((r[i][1] for r in drawn if i < len(r)), default=0) for i in range(cols)]
    body, y = "", 0.0
    for row in drawn:
        x, height = 0.0, max((h for _, _, h in row), default=0)
        for i, (part, w, h) in enumerate(row):
            if part:
                body += f'<g transform="translate({_n(x + (widths[i] - w) / 2)},{_n(y + (height - h) / 2)})">{part}</g>'
            x += widths[i] + (GAP * 2 if widths[i] else 0)
        y += height + GAP * 2
    return body, sum(widths) + GAP * 2 * max(0, sum(1 for w in widths if w) - 1), max(0.0, y - GAP * 2)


# -- the table -----------------------------------------------------------------
@dataclass(frozen=True)
class Aims:
    """What the legal actions name, to mark: cells (x, y), and arguments
    by their text (a hex, a laid-out piece)."""

    cells: frozenset
    names: frozenset

    @classmethod
    def of(cls, actions: Sequence[str]) -> "Aims":
        return cls(frozenset(legal_cells(actions)), frozenset(legal_names(actions)))


def _section_drawing(view: dict, section, changed: set, aims: Aims, shades: Shades) -> tuple:
    if section.kind == "layout":
        return _layout(view, changed, aims, shades)
    if section.kind == "grid":
        return _grid(section.grid, section.key, changed, aims, shades)
    if section.kind == "cells":
        return _cells_zone(section.zones[0], section.key, changed, aims, shades)
    if section.kind == "hexes":
        return _hex_map(section.zones[0], section.key, changed, aims, shades)
    return _zone_list(view, section.zones, changed, shades)


def draw_table(view: dict, *, changed: set = frozenset(),
               actions: Optional[Sequence[str]] = None) -> list:
    """The viewer's table, a section each (`presentation.board.sections`):
    `{"key", "kind", "title", "owner", "svg"}`. In the SVG every piece the
    viewer sees is `<g class="piece" data-token=NAME data-zone=ZONE>`, every
    piece it does not see `<g class="piece back">` with nothing of it; every
    cell of a declared grid and every occupied or target cell of a zone on
    cells `<g class="cell" data-token="(x,y)">` (with `data-piece` where a
    piece lies on it, and `data-zone` its zone); every hex `<g class="hex"
    data-token=PIECE data-zone=ZONE>`. What
    `changed` names (`presentation.changes.changed`) has the class `changed`
    and a thick outline. What the legal actions name — `actions`, by
    default the view's own (`view["actions"]`; () marks nothing, as a
    replay does) — is marked as a target, and a zone on cells draws an
    empty cell at each cell they name."""
    shades = Shades()
    aims = Aims.of(view.get("actions") or () if actions is None else actions)
    out = []
    for section in boards.sections(view):
        body, w, h = _section_drawing(view, section, set(changed), aims, shades)
        defs = HATCH if "piece back" in body else ""
        out.append({**section.to_json(), "svg": _svg(section.kind, w, h, body, defs)})
    return out

"""Draws what a player may see at the table, using rich.

The input is a view dict (docs/api.md) — never a State — so nothing hidden
from the viewer can reach the screen: a zone whose `cards` is null shows only
its size. `TableView` and `OutcomeView` render themselves, and
`render_to_text` turns any renderable into plain text at a fixed width, which
is how the REPL tests compare screens. The table is compact by default, made
to fit a screen (BUDGET lines at 120 columns with every shipped game): a row
per zone name, the boards a line per row, and only as many drawings and
component tables as there is room for, the rest named as on request — and in
full with `compact=False`; `zone_details`, `own_zones` and `boards` draw the
details the REPL shows on request. A long list of legal actions is offered
to be chosen step by step (`choosing`). The boards — zones on a grid or a hex
map, declared grids — are drawn by `render_boards`, the pieces as they look
by `render_pieces`; here each gets its title. This module knows no game:
every label comes from the view's own names.

Every text of a view (a rulebook's names, labels and strings, a data
file's values) is drawn `printable`: `TableView`, `OutcomeView` and the
details on request escape the view they are given (`printable_view`)
before anything is laid out, so a control character in a name is drawn
as its escape, in the room its escape takes; and the screen is made of
`Text` objects, which never read rich markup, so a `[bold]` in a name
prints as it is. `guarded` makes a console escape whatever else reaches
it, for the REPL and the command line to print through.
"""

from __future__ import annotations

import io
from dataclasses import dataclass, field
from typing import Any, Iterable, Optional, Sequence

from rich import box
from rich.columns import Columns
from rich.segment import Segment
from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderHook, RenderResult
from rich.measure import Measurement
from rich.table import Table
from rich.text import Text

from ..presentation.board import drawn_on_boards, laid_out, on_maps
from ..presentation.options import legal_cells, legal_names
from ..printable import printable, printable_data
from .choosing import PARAMETERS, Choice, split_action, step_by_step
from .render_boards import LEGAL_MARK, BoardView, GridView, HexView
from .render_pieces import piece_drawings
from ..presentation.words import DASH, value_text


class _Printable(dict):
    """A view whose every text is printable already."""


def printable_view(view: dict) -> dict:
    """The view with every text in it `printable`, names and keys too (see
    the module's docstring); a view so made comes back as it is."""
    return view if isinstance(view, _Printable) else _Printable(printable_data(view))


def printable_texts(texts: Iterable[str]) -> list:
    """Texts from the game (the legal actions', names) fit to draw."""
    return [printable(str(t), lines=False) for t in texts]


def player_label(player) -> str:
    """`P0`, `P1`, … for seat numbers; other values (already labels) as they are."""
    if player is None:
        return DASH
    if isinstance(player, bool):
        return str(player)
    if isinstance(player, int):
        return f"P{player}"
    return str(player)


def counted(cards: Sequence[str]) -> str:
    """Cards with repeats counted: 'A ×3 B C ×2' (order kept)."""
    runs: list = []
    for card in cards:
        if runs and runs[-1][0] == card:
            runs[-1][1] += 1
        else:
            runs.append([card, 1])
    return " ".join(f"{c} ×{k}" if k > 1 else str(c) for c, k in runs)


def zone_contents(zone: dict) -> str:
    """A zone's cards, or only how many there are when the viewer may not look;
    grouped ('x: A B ×2 · y: C') when the zone says so."""
    cards = zone.get("cards")
    if cards is None:
        count = zone.get("count", 0)
        return f"{count} card" if count == 1 else f"{count} cards"
    if not cards:
        return "empty"
    if None in cards:
        return _partly_shown(cards)
    groups = zone.get("groups")
    if groups:
        return " · ".join(f"{value_text(v)}: {counted(c)}" for v, c in groups)
    return counted([value_text(c) for c in cards])


def _partly_shown(cards: Sequence) -> str:
    """A hidden zone's cards when some were shown to the viewer: 'A B and 3 hidden'."""
    hidden = sum(1 for c in cards if c is None)
    shown = counted([value_text(c) for c in cards if c is not None])
    return f"{shown} and {hidden} hidden"


def _table(title: str, columns: Iterable[str]) -> Table:
    # Plain box characters and no colour keep the text form stable for tests;
    # the title and the headers are Text, never read as markup.
    table = Table(title=Text(printable(str(title), lines=False), style="table.title"),
                  title_justify="left", box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False)
    for name in columns:
        table.add_column(Text(printable(str(name), lines=False)), overflow="fold")
    return table


def _row(values: Iterable[str]) -> list:
    # Text objects, not strings: card names such as "[x]" must never be read
    # as rich markup.
    return [Text(v) for v in values]


def header(view: dict, compact: bool = False) -> Text:
    """The game, round, turn (in the game's words: 'trick 4'), who is
    active, whose view; compact, with who
    is to decide on the same line (the active player only when not one of them)."""
    pending = pending_text(view) if compact else None
    deciders = _deciders(view) if pending is not None else []
    # the counters the rules use (all of them for a view that does not say)
    used, called = view.get("counters", ("round", "turn")), view.get("called") or {}
    parts = [str(view.get("game", ""))] + [f"{called.get(c, c)} {view.get(c, DASH)}"
                                           for c in ("round", "turn") if c in used]
    if "turn" in used and view.get("active") not in deciders:
        parts.append(f"active {player_label(view.get('active'))}")
    viewer = view.get("viewer")
    parts.append("spectator view" if viewer is None else f"view of {player_label(viewer)}")
    if pending is not None:
        parts.append(pending.plain)
    return Text(" · ".join(parts), style="bold")


def zones_table(view: dict, keep=None, title: str = "Zones") -> Optional[Table]:
    """A row per zone: its name, owner and contents. Only the zones `keep`
    accepts when it is given; else all but those drawn on a hex map."""
    drawn, _ = on_maps(view)
    if keep is None:
        keep = lambda zone: zone.get("name") not in drawn     # noqa: E731 - on the map instead
    zones = [z for z in view.get("zones") or () if keep(z)]
    if not zones:
        return None
    table = _table(title, ("zone", "owner", "cards"))
    for zone in zones:
        table.add_row(*_row((_zone_title(zone),
                             player_label(zone.get("owner")),
                             zone_contents(zone))))
    return table


def component_tables(view: dict) -> list:
    """[(component type, its table)] for the types of named pieces that
    are not drawn on a board."""
    tables = []
    # pieces laid on a grid show there, with what changes about them
    on_grid = {z.get("holds") for z in view.get("zones") or () if z.get("grid") is not None}
    on_grid |= on_maps(view)[1]
    for kind, rows in (view.get("components") or {}).items():
        if kind in on_grid:
            continue
        names = [row.get("name") for row in rows]
        if not rows or len(set(names)) < len(names):
            # only named pieces get a table of their own;
            # identical cards show in their zones
            continue
        tables.append((kind, component_table(view, kind)))
    return tables


def only_shown(view: dict, kind: str) -> bool:
    """Whether the table of a component type holds only what its pieces
    show (`shows`) wherever they are listed: no value of its own."""
    rows = (view.get("components") or {}).get(kind) or []
    shown = {key for zone in view.get("zones") or () if zone.get("holds") == kind
             for a in zone.get("attributes") or () if a for key in a}
    return bool(shown) and all(set(row) <= shown | {"name"} for row in rows)


def component_table(view: dict, kind: str, piece=None) -> Table:
    """The table of one component type: a row per component (only those
    named `piece`, when given), a column per attribute."""
    view, kind = printable_view(view), printable(str(kind), lines=False)
    rows = (view.get("components") or {}).get(kind) or []
    if piece is not None:
        rows = [row for row in rows if row.get("name") == piece]
    columns = list(dict.fromkeys(key for row in rows for key in row))
    table = _table(kind, columns)
    for row in rows:
        table.add_row(*_row(value_text(row.get(c)) for c in columns))
    return table


def _pairs_table(title: str, mapping: dict) -> Optional[Table]:
    if not mapping:
        return None
    table = _table(title, ("variable", "value"))
    for name, value in mapping.items():
        table.add_row(*_row((str(name), value_text(value))))
    return table


def variables_table(view: dict) -> Optional[Table]:
    return _pairs_table("Variables", view.get("variables") or {})


def player_variables_table(view: dict) -> Optional[Table]:
    """Per-player variables, one row per player; the view may key them either
    by player or by variable, so both nestings are accepted."""
    data = view.get("player_variables") or {}
    if not data or not all(isinstance(v, dict) for v in data.values()):
        return _pairs_table("Player variables", data)
    columns = list(dict.fromkeys(k for v in data.values() for k in v))
    table = _table("Player variables", ["", *columns])
    for key, values in data.items():
        table.add_row(*_row([str(key), *(value_text(values.get(c)) for c in columns)]))
    return table


# -- the compact screen ---------------------------------------------------------------
def _is_empty(zone: dict) -> bool:
    cards = zone.get("cards")
    return not zone.get("count") if cards is None else not cards


def _same(value, cards: Sequence) -> bool:
    """Whether every card is named as `value` (a pile of one colour, say)."""
    return bool(cards) and all(value_text(c) == value_text(value) for c in cards)


def compact_contents(zone: dict) -> str:
    """A zone's contents in few words: a group or a zone `of` a value
    whose cards are all named so shows only its cards ('A ×2', not
    'A: A ×2'), groups apart with ' / '."""
    cards = zone.get("cards")
    if _is_empty(zone):
        return "empty"
    if cards is None or None in cards:
        return zone_contents(zone)
    groups = zone.get("groups")
    if groups:
        if all(_same(v, c) for v, c in groups):
            return counted([value_text(c) for _, cs in groups for c in cs])
        return " / ".join(counted(c) if _same(v, c) else f"{value_text(v)}: {counted(c)}"
                          for v, c in groups)
    return counted([value_text(c) for c in cards])


@dataclass
class Parts:
    """Parts of a row joined by ' · ', a line broken only between two parts
    (`P0: A B · P1: C` never leaves `B` alone on the next line); a part
    wider than a whole line follows on the line it starts and wraps."""

    parts: Sequence[str]
    separator: str = " · "

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        whole = len(self.separator.join(self.parts))
        return Measurement(min(whole, max((len(p) for p in self.parts), default=0)), whole)

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        width, line = options.max_width, ""
        for part in self.parts:
            more = f"{line}{self.separator}{part}" if line else part
            if line and len(more) > width and len(part) <= width:
                yield Text(line)
                more = part
            line = more
        if line:
            yield Text(line)


def _whose(zone: dict) -> str:
    """Which of the zones of one name this is: its owner, its `of` value, or both."""
    parts = [player_label(zone["owner"])] if zone.get("owner") is not None else []
    if zone.get("of") is not None:
        parts.append(value_text(zone["of"]))
    return " ".join(parts)


def _paired_parts(zones: Sequence[dict]) -> list:
    """The zones of one name of two indices, by their first key, the empty
    ones left out: ['P0: A: 3 5 / B: 7', 'P1: A: 2 cards', 'P2: empty']."""
    by_first: dict = {}
    for zone in zones:
        first, second = (value_text(k) for k in zone["keys"][:2])
        inner = by_first.setdefault(first, [])
        if not _is_empty(zone):
            inner.append(f"{second}: {compact_contents(zone)}")
    return [f"{first}: {' / '.join(inner) if inner else 'empty'}"
            for first, inner in by_first.items()]


def compact_zones(view: dict, drawings: Sequence = ()) -> tuple:
    """(a grid of one row per zone name, each owner's (or each `of`
    value's) contents on it — 'P0: A B · P1: 3 cards' — with the drawings
    (of `zone_drawings`) under its row; the line naming the zones with
    nothing in them). Either may be None."""
    skip = drawn_on_boards(view) | laid_out(view)[0]
    named: dict = {}
    for zone in view.get("zones") or ():
        if zone.get("name") not in skip:
            named.setdefault(str(zone.get("name", "")), []).append(zone)
    grid = Table.grid(padding=(0, 2))
    grid.add_column(no_wrap=True, style="bold")
    grid.add_column()
    empty = []
    for name, zones in named.items():
        if all(_is_empty(z) for z in zones):
            empty.append(name)
            continue
        parts = []
        if all(zone.get("keys") for zone in zones):
            parts = _paired_parts(zones)
            zones = []
        for zone in zones:
            whose, text = _whose(zone), compact_contents(zone)
            if zone.get("owner") is None and _same(zone.get("of"), zone.get("cards") or ()):
                whose = ""
            parts.append(f"{whose}: {text}" if whose else text)
        grid.add_row(Text(name), Parts(parts))
        for key, whose, drawing in drawings:
            if key == name:
                grid.add_row(Text(f"  {whose}" if whose else "", style="dim"), drawing)
    return (grid if grid.row_count else None,
            Text("Empty: " + " · ".join(empty), style="dim") if empty else None)


def _laid_cell(view: dict, cell, legal: set) -> RenderableType:
    """One cell of the layout: a zone with each owner's contents (its
    pieces drawn, when they are), a piece with what it shows (and '*'
    when a legal action names it), a text."""
    if cell is None:
        return Text("")
    if "text" in cell:
        return Text(cell["text"], style="dim")
    if "piece" in cell:
        shows = cell.get("shows") or {}
        lines = [Text(cell["piece"] + (" *" if cell["piece"] in legal else ""), style="bold")]
        if len(shows) == 1:
            lines.append(Text(value_text(next(iter(shows.values())))))
        else:
            lines += [Text(f"{k} {value_text(v)}") for k, v in shows.items()]
        return Group(*lines)
    zones = [z for z in view.get("zones") or () if z.get("name") == cell["zone"]]
    parts: list = [Text(cell["zone"], style="bold")]
    for zone in zones:
        whose = _whose(zone) if len(zones) > 1 else ""
        drawing = piece_drawings(view, zone)
        if drawing is not None:
            parts += [Text(whose, style="dim")] if whose else []
            parts.append(drawing)
        else:
            text = compact_contents(zone)
            parts.append(Text(f"{whose}: {text}" if whose else text))
    return Group(*parts)


def layout_table(view: dict, actions: Sequence[str] = ()) -> Optional[Table]:
    """The rulebook's `layout` (docs/language.md §4.15): its rows of zones,
    pieces and texts as a grid of cells, or None without one; a piece a
    legal action names is marked '*'."""
    rows = view.get("layout")
    if not rows:
        return None
    table = Table(box=box.SQUARE, show_header=False, show_lines=True, pad_edge=True,
                  padding=(0, 1))
    for _ in range(max(len(r) for r in rows)):
        table.add_column()
    legal = legal_names(actions)
    for row in rows:
        table.add_row(*(_laid_cell(view, c, legal) for c in row))
    if any(c and c.get("piece") in legal for row in rows for c in row):
        table.caption, table.caption_justify = "'*': a legal action names it", "left"
    return table


def zone_drawings(view: dict) -> list:
    """[(zone name, whose, drawing)] of the zones the viewer sees whose
    pieces are drawn (`drawn as`) or show what players read on them
    (`shows`), the viewer's own first, then the table's, but for those a board shows and
    pieces drawn only as their names in others' zones; `whose`
    tells apart the drawings of one name ('P1', a piece's name), '' for a
    zone drawn alone of its name."""
    viewer, boarded = view.get("viewer"), drawn_on_boards(view) | laid_out(view)[0]
    zones = [z for z in view.get("zones") or () if z.get("cards") and None not in z["cards"]
             and z.get("name") not in boarded]
    # a piece drawn as its name in its colour (and nothing it shows) only in
    # the viewer's own zones: elsewhere the zone's row names it already
    zones = [z for z in zones if z.get("owner") == viewer and viewer is not None
             or z.get("attributes") or any(key in d for d in z.get("drawings") or ()
                                           for key in ("edges", "shape", "rows"))]
    # the viewer's own, the table's (a market: no owner), then the others'
    drawn = [(z, piece_drawings(view, z)) for z in sorted(
        zones, key=lambda z: 0 if viewer is not None and z.get("owner") == viewer
        else 1 if z.get("owner") is None else 2)]
    drawn = [(z, d) for z, d in drawn if d is not None]
    names: dict = {}
    for zone, _ in drawn:
        names[zone.get("name")] = names.get(zone.get("name"), 0) + 1
    return [(str(z.get("name", "")), _whose(z) if names[z.get("name")] > 1 else "", d)
            for z, d in drawn]


def compact_variables(view: dict) -> Optional[Text]:
    """The variables on a line or two: 'a=1 · b=no'."""
    variables = view.get("variables") or {}
    if not variables:
        return None
    return Text(" · ".join(f"{k}={value_text(v)}" for k, v in variables.items()))


def compact_player_variables(view: dict) -> Optional[Table]:
    """The per-player variables as a small table without a title, turned
    so that it takes the fewer lines (players down or variables down)."""
    data = view.get("player_variables") or {}
    if not data:
        return None
    if not all(isinstance(v, dict) for v in data.values()):
        return compact_variables({"variables": data})
    rows = list(data)
    columns = list(dict.fromkeys(k for v in data.values() for k in v))
    cell = lambda r, c: data[r].get(c)       # noqa: E731 - read through, either way round
    if len(rows) > len(columns):
        rows, columns, cell = columns, rows, (lambda r, c: data[c].get(r))   # noqa: E731
    table = Table(box=None, pad_edge=False, padding=(0, 2, 0, 0), show_edge=False)
    for name in ["", *columns]:
        table.add_column(Text(str(name)), overflow="fold")
    for r in rows:
        table.add_row(*_row([str(r), *(value_text(cell(r, c)) for c in columns)]))
    return table


def used_text(view: dict, compact: bool = False) -> Optional[Text]:
    """What each player used of the actions with a limit; compact, only the
    players who used some."""
    used = view.get("used") or {}
    parts = []
    for player, actions in used.items():
        names = [name if count in (1, True) else f"{name}×{count}"
                 for name, count in (actions or {}).items() if count]
        if names or not compact:
            parts.append(f"{player}: {', '.join(names) if names else 'none'}")
    return Text("Used: " + "; ".join(parts)) if parts else None


def _deciders(view: dict) -> list:
    pending = view.get("pending") or {}
    # docs/api.md names one "player"; simultaneous decisions list "players".
    return list(pending.get("players", [pending.get("player")]))


def pending_text(view: dict) -> Optional[Text]:
    pending = view.get("pending")
    if not pending:
        return None
    deciders = _deciders(view)
    who = ", ".join(player_label(p) for p in deciders) if deciders else DASH
    label = pending.get("label") or pending.get("kind") or "decide"
    return Text(f"{who} to decide: {label}", style="bold")


_split = split_action


def _distinct(values: Iterable[str]) -> list:
    return list(dict.fromkeys(values))


def action_forms(forms: dict, actions: Sequence[str]) -> Optional[Text]:
    """'type: put TILE, AT, TURNS — e.g. put 6, (-1,0), 0' for the
    actions on offer with parameters."""
    shown = []
    for name in _distinct(_split(t)[0] for t in actions):
        params = forms.get(name)
        if params and len(params) > 1:
            example = next(t for t in actions if _split(t)[0] == name)
            shown.append(f"{name} {PARAMETERS.join(p.name.upper() for p in params)}, e.g. {example}")
    if not shown:
        return None
    cells = " (a cell as (x,y))" if legal_cells(actions) else ""
    return Text("Type " + "; ".join(shown) + cells + ", or a number.")


IN_LINES = 6          # more legal actions than this are listed in columns


def actions_list(actions: Sequence[str], forms: Optional[dict] = None,
                 stepwise: bool = False) -> RenderableType:
    """The legal actions numbered, in columns when they are many; or, too
    many for a screen, to be chosen `stepwise` (`Choice`), the screen naming
    each action and what its parameters may be."""
    if stepwise:
        return Choice.start(actions, forms)
    number = len(str(len(actions)))
    hint = action_forms(forms or {}, actions)
    items = [Text(f"  {i:>{number}}. {text}") for i, text in enumerate(actions, 1)]
    head = [Text("Legal actions:"), *(t for t in (hint,) if t is not None)]
    if len(items) > IN_LINES:
        # Many choices: in columns, read top to bottom, so they fit a screen.
        return Group(*head, Columns(items, column_first=True, padding=(0, 2)))
    return Group(*head, *items)


# -- boards: which to draw, titled (render_boards draws them) ----------------------
def _zone_title(zone: dict) -> str:
    """A zone's name as the boards' titles print it: `NAME(KEY)` for a zone
    of each KEY, `NAME(KEY, KEY)` for a zone of two indices."""
    name = str(zone.get("name", ""))
    if zone.get("keys"):
        name = f"{name}({', '.join(value_text(k) for k in zone['keys'])})"
    elif zone.get("of") is not None:
        name = f"{name}({value_text(zone['of'])})"
    return name


def _names_that(marked: Optional[tuple], what: str) -> str:
    """What a board's marks stand for: the cells or hexes the legal actions
    name, or (`marked`) those a step of a choice offers."""
    return f"a legal action names that {what}" if marked is None else f"this step offers that {what}"


def grid_sections(view: dict, actions: Sequence[str], compact: bool = False,
                  only: Optional[set] = None, marked: Optional[tuple] = None) -> list:
    """A titled GridView for each zone of the view that lies on a grid
    (of the zones named in `only`, when it is given); with `marked`,
    (cells, names) to mark instead of the legal actions' cells, only when
    it holds a cell."""
    legal = legal_cells(actions) if marked is None else set(marked[0])
    out = []
    for zone in view.get("zones") or []:
        if zone.get("grid") is None or only is not None and zone.get("name") not in only:
            continue
        if marked is not None and not legal:
            continue
        name = _zone_title(zone)
        if zone.get("owner") is not None and not zone.get("keys"):
            name = f"{name} of {player_label(zone['owner'])}"
        note = " · north at the top" + (f" · '· (x,y)': {_names_that(marked, 'cell')}"
                                         if legal else "")
        out.append(Group(Text(name, style="bold") + Text(note, style="dim"),
                         GridView(zone["grid"], legal, compact=compact,
                                  label_by=zone.get("label_by") or "labels")))
    return out


def hex_sections(view: dict, actions: Sequence[str], compact: bool = False,
                 only: Optional[set] = None, marked: Optional[tuple] = None) -> list:
    """A titled HexView for each zone of the view laid out as hexes (with
    `marked`, only those with a hex of its names, marked)."""
    legal = legal_names(actions) if marked is None else set(marked[1])
    out = []
    for zone in view.get("zones") or []:
        if zone.get("hexes") is None or only is not None and zone.get("name") not in only:
            continue
        name = _zone_title(zone)
        hexes = legal & {h["piece"] for h in zone["hexes"]}
        if marked is not None and not hexes:
            continue
        # (a compact map says in its key how its rows are laid out)
        note = ("" if compact else " · odd columns half a hex lower") + \
            (f" · '*': {_names_that(marked, 'hex')}" if hexes else "")
        out.append(Group(Text(name, style="bold") + Text(note, style="dim"),
                         HexView(zone["hexes"], hexes, compact=compact,
                                 label_by=zone.get("label_by") or "labels")))
    return out


def board_sections(view: dict, actions: Sequence[str], compact: bool = False,
                   only: Optional[set] = None, marked: Optional[tuple] = None) -> list:
    """A titled BoardView for each declared grid of the view (with
    `marked`, only those with a cell of its cells, marked)."""
    legal = legal_cells(actions) if marked is None else set(marked[0])
    out = []
    for board in view.get("grids") or ():
        if only is not None and board.get("name") not in only:
            continue
        cells = {(x, y) for x, y in legal
                 if 0 <= x < board["width"] and 0 <= y < board["height"]}
        if "player" in board and len(view.get("to_move") or ()) == 1 \
                and board["player"] not in view["to_move"]:
            cells = set()      # a grid of each player: the cells on the mover's own board
        if marked is not None and not cells:
            continue
        note = f" · {board['width']} by {board['height']} · row 0 at the top" + \
            (f" · '{LEGAL_MARK}': {_names_that(marked, 'cell')}" if cells else "")
        title = str(board["name"])
        if "player" in board:          # one board of a grid of each player
            title = f"{title} of {player_label(board['player'])}"
        out.append(Group(Text(title, style="bold") + Text(note, style="dim"),
                         BoardView(board, cells, compact=compact)))
    return out


def boards(view: dict, actions: Sequence[str], compact: bool = False,
           only: Optional[set] = None, marked: Optional[tuple] = None) -> list:
    """Every board of the view, titled (those named in `only`, when it is
    given): declared grids, zones on a grid, hex maps; with `marked`,
    (cells, names) to mark instead of what the legal actions name, only
    the boards that hold one of them."""
    view, actions = printable_view(view), printable_texts(actions)
    only = None if only is None else set(printable_texts(only))
    return [*board_sections(view, actions, compact, only, marked),
            *grid_sections(view, actions, compact, only, marked),
            *hex_sections(view, actions, compact, only, marked)]


# -- details on request ------------------------------------------------------------
def detail_names(view: dict) -> dict:
    """What may be shown on its own, by its name in lower case: each zone
    name, each type of component and each declared grid → (what, its name),
    as they are drawn (`printable`)."""
    view = printable_view(view)
    out: dict = {}
    for zone in view.get("zones") or ():
        out.setdefault(str(zone.get("name", "")).lower(), ("zone", zone.get("name")))
    for kind, rows in (view.get("components") or {}).items():
        if rows:
            out.setdefault(str(kind).lower(), ("components", kind))
    for board in view.get("grids") or ():
        out.setdefault(str(board.get("name", "")).lower(), ("grid", board.get("name")))
    return out


def piece_names(view: dict) -> dict:
    """Each named piece of a component table, by its name in lower case →
    (its type, its name): what `show NAME` shows of one piece."""
    view = printable_view(view)
    out: dict = {}
    for kind, rows in (view.get("components") or {}).items():
        for row in rows:
            out.setdefault(str(row.get("name", "")).lower(), (kind, row.get("name")))
    return out


def zone_details(view: dict, name, actions: Sequence[str] = ()) -> list:
    """Everything about the zones called `name`: a row for each owner (or
    `of` value) with all its cards, its pieces drawn, and the
    board it is laid out on, in full."""
    view, name = printable_view(view), printable(str(name), lines=False)
    actions = printable_texts(actions)
    zones = [z for z in view.get("zones") or () if z.get("name") == name]
    listed = [z for z in zones if z.get("grid") is None and z.get("hexes") is None]
    parts: list = []
    table = zones_table(view, keep=lambda z: any(z is y for y in listed), title=str(name))
    if table is not None:
        parts.append(table)
    parts += [Group(Text(f"{title} {whose}".strip(), style="bold"), drawing)
              for title, whose, drawing in zone_drawings(view) if title == str(name)]
    return parts + boards(view, actions, only={name})


def own_zones(view: dict) -> list:
    """The viewer's own zones in full, each with its pieces drawn."""
    view = printable_view(view)
    viewer = view.get("viewer")
    table = zones_table(view, keep=lambda z: viewer is not None and z.get("owner") == viewer,
                        title=f"Zones of {player_label(viewer)}")
    if table is None:
        return []
    own = [z for z in view.get("zones") or ()
           if z.get("owner") == viewer and z.get("cards") and None not in z["cards"]]
    drawn = [(str(z.get("name", "")), piece_drawings(view, z)) for z in own]
    return [table, *(Group(Text(title, style="bold"), drawing) for title, drawing in drawn
                     if drawing is not None)]


BUDGET = 40           # lines the compact screen keeps within, what is on request left out


@dataclass
class TableView:
    """Everything on the table for one viewer, plus the legal actions.

    Compact (the default), it aims at BUDGET lines: one row per zone name
    with each owner's contents, the empty zones on one line, the variables
    side by side, the boards one line per row; the pieces drawn (the viewer's own first)
    and the tables of named components come on screen where the budget
    allows, and the others are named as on request. Not compact, it shows
    every zone, table and board in full."""

    view: dict
    actions: Sequence[str] = field(default_factory=tuple)
    forms: dict = field(default_factory=dict)   # action name -> its parameters (choosing.Parameter)
    compact: bool = True
    budget: int = BUDGET
    # whether the actions are to be chosen step by step: None lets the
    # screen decide (too many, or too tall for the budget), and once drawn
    # it says what the screen showed
    stepwise: Optional[bool] = None

    def __post_init__(self):
        self.view = printable_view(self.view)
        self.actions = printable_texts(self.actions)

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        if not self.compact:
            yield Group(*self.detailed(options.max_width))
            return

        def lines(parts: list) -> list:
            return console.render_lines(Group(*parts), options, pad=False)

        top = [header(self.view, compact=True)]
        # The boards and the actions come out the same whatever else is on
        # screen: drawn once, and counted once against the budget.
        tail, later = self.settled_tail(lines, len(lines([*top, *self.middle((), (), [])])),
                                        options.max_width)
        drawings, tables = zone_drawings(self.view), component_tables(self.view)
        # a table that only says what the pieces show where they lie: on request
        pieces = laid_out(self.view)[1]
        repeats = [f"show {kind}" for kind, _ in tables if only_shown(self.view, kind)
                   or all(row.get("name") in pieces
                          for row in (self.view.get("components") or {}).get(kind) or ())]
        tables = [(kind, t) for kind, t in tables if f"show {kind}" not in repeats]

        def middle(chosen: list) -> list:
            shown = [t for t in tables if t in chosen]
            return self.middle([d for d in drawings if d in chosen], shown,
                               [f"show {kind}" for kind, t in tables if (kind, t) not in shown]
                               + repeats + later)

        def fits(chosen: list) -> bool:
            return len(lines([*top, *middle(chosen)])) + len(tail) <= self.budget

        chosen = [*drawings, *tables]
        if chosen and not fits(chosen):
            # What fits, in order: the pieces drawn (the viewer's own first), then the tables.
            chosen = []
            for extra in (*drawings, *tables):
                if fits([*chosen, extra]):
                    chosen.append(extra)
        yield from top
        yield from middle(chosen)
        for line in tail:
            yield from line
            yield Segment.line()

    def settled_tail(self, lines, above: int, width: int) -> tuple:
        """(the lines under the tables, what is left out of them to be
        asked for): the actions chosen step by step when there are too many
        for the screen or when that makes a screen too tall fit, and at the
        end a board too tall for the screen left out, the outcome first."""
        decide = self.stepwise is None
        if decide:
            self.stepwise = bool(self.actions) and step_by_step(self.actions, width)
        tail = lines(self.tail())
        if decide and self.actions and not self.stepwise and above + len(tail) > self.budget:
            self.stepwise = True
            steps = lines(self.tail())
            if len(steps) < len(tail):
                tail = steps
            else:
                self.stepwise = False
        if self.view.get("outcome") and boards(self.view, ()) and \
                above + len(tail) > self.budget:
            return lines(self.tail(with_boards=False)), ["board"]
        return tail, []

    def middle(self, drawings: Sequence, tables: Sequence, hidden: Sequence[str]) -> list:
        """The zones, the variables and the component tables on the compact
        screen, with these drawings and tables, and how to see what is
        `hidden` (the commands that show it)."""
        view = self.view
        parts: list = [t for t in (layout_table(view, self.actions),) if t is not None]
        zones, empty = compact_zones(view, drawings)
        if zones is not None:
            parts.append(zones)
        # side by side where they fit: the empty zones' line, tables, variables
        small = [t for t in (empty, *(table for _, table in tables),
                             compact_player_variables(view), compact_variables(view))
                 if t is not None]
        if small:
            parts.append(Columns(small, padding=(0, 4)))
        if hidden:
            parts.append(Text("On request: " + " · ".join(hidden), style="dim"))
        return parts

    def tail(self, with_boards: bool = True) -> list:
        """The compact screen under the tables: boards, actions, outcome."""
        view = self.view
        actions = self.actions or view.get("actions") or ()
        parts = boards(view, actions, compact=True) if with_boards else []
        parts += [t for t in (used_text(view, compact=True),) if t is not None]
        if self.actions:
            parts.append(actions_list(self.actions, self.forms, self.stepwise))
        if view.get("outcome"):
            parts.append(OutcomeView.of(view["outcome"]))
        return parts

    def detailed(self, width: int) -> list:
        """Every zone, component table and board in full."""
        if self.stepwise is None:
            self.stepwise = bool(self.actions) and step_by_step(self.actions, width)
        tables = [t for t in (zones_table(self.view), *(t for _, t in component_tables(self.view)),
                              variables_table(self.view),
                              player_variables_table(self.view)) if t is not None]
        parts: list = [header(self.view)]
        parts += [t for t in (layout_table(self.view, self.actions),) if t is not None]
        if tables:
            # Side by side where the width allows: a whole table on one screen.
            parts.append(Columns(tables, padding=(0, 4)))
        actions = self.actions or self.view.get("actions") or ()
        parts += boards(self.view, actions)
        parts += [t for t in (used_text(self.view), pending_text(self.view)) if t is not None]
        if self.actions:
            parts.append(actions_list(self.actions, self.forms, self.stepwise))
        if self.view.get("outcome"):
            parts.append(OutcomeView.of(self.view["outcome"]))
        return parts


def _by_player(value) -> list:
    """(label, value) pairs from a per-player dict or list."""
    if isinstance(value, dict):
        return [(player_label(k), v) for k, v in value.items()]
    if isinstance(value, (list, tuple)):
        return [(player_label(i), v) for i, v in enumerate(value)]
    return []


@dataclass
class OutcomeView:
    """The end of a game: scores, ranking and winners, and when the rulebook
    names them, each player's parts of the score and tie-break values in a
    table, with what decided."""

    scores: Any
    winners: Sequence
    ranking: Sequence = ()
    parts: Sequence = ()
    tie_breaks: Sequence = ()
    steps: Sequence = ()
    decided_by: Optional[str] = None
    lowest_wins: bool = False
    draw: bool = False

    @classmethod
    def of(cls, outcome) -> "OutcomeView":
        """From the engine's Outcome or the `outcome` of a view."""
        def get(key):
            # the labels of the parts and the tie-breaks, fit to draw
            return printable_data(outcome.get(key) if isinstance(outcome, dict)
                                  else getattr(outcome, key, None))

        return cls(get("scores"), list(get("winners") or ()), list(get("ranking") or ()),
                   list(get("parts") or ()), list(get("tie_breaks") or ()),
                   list(get("steps") or ()), get("decided_by"), bool(get("lowest_wins")),
                   bool(get("draw")))

    def breakdown(self) -> Optional[Table]:
        """Players down, score, parts and tie-break steps across."""
        labels = list(self.parts[0]) if self.parts and self.parts[0] else []
        if not labels and not self.steps:
            return None
        table = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False)
        for header in ["player", "score", *labels, *self.steps]:
            table.add_column(Text(printable(str(header), lines=False)),
                             justify="left" if header == "player" else "right")
        scores = dict(_by_player(self.scores))
        for p in self.ranking if self.ranking else range(len(self.parts)):
            who = player_label(p)
            row = [who + (" *" if p in self.winners else ""), value_text(scores.get(who))]
            row += [value_text(self.parts[p].get(label)) for label in labels] if self.parts else []
            row += [value_text(v) for v in (self.tie_breaks[p] if self.tie_breaks else ())]
            table.add_row(*_row(row))
        return table

    def decided(self) -> Optional[str]:
        if self.decided_by in (None, "score"):
            lowest = " (lowest wins)" if self.lowest_wins else ""
            return f"Decided by the score{lowest}." if self.decided_by else None
        if self.decided_by == "winners":
            return "Decided by the rulebook's rule for the winners."
        if self.decided_by == "tie":
            return ("A draw: nothing told the players apart." if self.draw
                    else "Nothing told the players apart.")
        return f"The scores were level; decided by: {self.decided_by}."

    def __rich__(self) -> RenderableType:
        lines = [Text("Game over.", style="bold")]
        table = self.breakdown()
        if table is not None:
            lines.append(table)
        scores = _by_player(self.scores)
        if scores:
            lines.append(Text("Scores: " + ", ".join(
                f"{who} {value_text(v)}" for who, v in scores)))
        if self.ranking:
            lines.append(Text("Ranking: " + " ".join(
                value_text([player_label(p) for p in r]) if isinstance(r, (list, tuple))
                else player_label(r) for r in self.ranking)))
        names = [player_label(p) for p in self.winners]
        if len(names) == 1:
            lines.append(Text(f"Winner: {names[0]}", style="bold"))
        elif names:
            lines.append(Text(f"Winners (shared): {', '.join(names)}", style="bold"))
        else:
            lines.append(Text("No winner: a draw.", style="bold"))
        if self.decided() is not None:
            lines.append(Text(self.decided()))
        return Group(*lines)


def render_to_text(renderable: RenderableType, width: int = 100) -> str:
    """The renderable as plain text at a fixed width (no colour, no markup),
    fit for a terminal (`guarded`)."""
    buffer = io.StringIO()
    console = guarded(Console(file=buffer, width=width, color_system=None,
                              force_terminal=False, legacy_windows=False,
                              highlight=False, emoji=False))
    console.print(renderable)
    return buffer.getvalue()


class _Escaping(RenderHook):
    def process_renderables(self, renderables: list) -> list:
        return [_Escaped(r) for r in renderables]


@dataclass
class _Escaped:
    """A renderable drawn with the control characters of its text escaped."""

    renderable: RenderableType

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        for segment in console.render(self.renderable, options):
            if segment.control is None and not segment.text.isprintable():
                segment = Segment(printable(segment.text), segment.style)
            yield segment


def guarded(console: Console) -> Console:
    """`console`, made to print every control character in the text it is
    given as its escape, whoever gave it: behind the views, escaped before
    they are laid out, the guard of whatever else reaches a screen. (Its
    escapes come after the layout, so they widen their line.) Rich's own
    codes for colours and the cursor are not text and stay as they are."""
    console.push_render_hook(_Escaping())
    return console

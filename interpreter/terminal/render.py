"""Draws what a player may see at the table, using rich.

The input is a view dict (docs/api.md) — never a State — so nothing hidden
from the viewer can reach the screen: a zone whose `cards` is null shows only
its size. `TableView` and `OutcomeView` render themselves (`__rich__`), and
`render_to_text` turns any renderable into plain text at a fixed width, which
is how the REPL tests compare screens. The boards — zones on a grid or a hex
map, declared grids — are drawn by `render_boards`; here each gets its title.
This module knows no game: every label comes from the view's own names.
"""

from __future__ import annotations

import io
import math
from dataclasses import dataclass, field
from typing import Any, Iterable, Optional, Sequence

from rich import box
from rich.columns import Columns
from rich.console import Console, Group, RenderableType
from rich.table import Table
from rich.text import Text

from .render_boards import CELL_TEXT, LEGAL_MARK, BoardView, GridView, HexView

DASH = "—"


def player_label(player) -> str:
    """`P0`, `P1`, … for seat numbers; other values (already labels) as they are."""
    if player is None:
        return DASH
    if isinstance(player, bool):
        return str(player)
    if isinstance(player, int):
        return f"P{player}"
    return str(player)


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
    groups = zone.get("groups")
    if groups:
        return " · ".join(f"{value_text(v)}: {counted(c)}" for v, c in groups)
    return counted([value_text(c) for c in cards])


def _table(title: str, columns: Iterable[str]) -> Table:
    # Plain box characters and no colour keep the text form stable for tests.
    table = Table(title=title, title_justify="left", box=box.SIMPLE_HEAD,
                  show_edge=False, pad_edge=False)
    for name in columns:
        table.add_column(name, overflow="fold")
    return table


def _row(values: Iterable[str]) -> list:
    # Text objects, not strings: card names such as "[x]" must never be read
    # as rich markup.
    return [Text(v) for v in values]


def header(view: dict) -> Text:
    parts = [str(view.get("game", "")),
             f"round {view.get('round', DASH)}",
             f"turn {view.get('turn', DASH)}",
             f"active {player_label(view.get('active'))}"]
    viewer = view.get("viewer")
    parts.append("spectator view" if viewer is None else f"view of {player_label(viewer)}")
    return Text(" · ".join(parts), style="bold")


def zones_table(view: dict) -> Optional[Table]:
    zones = view.get("zones") or []
    if not zones:
        return None
    table = _table("Zones", ("zone", "owner", "cards"))
    drawn, _ = on_maps(view)
    for zone in zones:
        if zone.get("name") in drawn:
            continue    # drawn on a hex map instead
        name = str(zone.get("name", ""))
        if zone.get("of") is not None:
            name = f"{name}({value_text(zone['of'])})"
        table.add_row(*_row((name,
                             player_label(zone.get("owner")),
                             zone_contents(zone))))
    return table


def component_tables(view: dict) -> list:
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
        columns = list(dict.fromkeys(key for row in rows for key in row))
        table = _table(kind, columns)
        for row in rows:
            table.add_row(*_row(value_text(row.get(c)) for c in columns))
        tables.append(table)
    return tables


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


def used_text(view: dict) -> Optional[Text]:
    used = view.get("used") or {}
    if not used:
        return None
    parts = []
    for player, actions in used.items():
        names = [name if count in (1, True) else f"{name}×{count}"
                 for name, count in (actions or {}).items() if count]
        parts.append(f"{player}: {', '.join(names) if names else 'none'}")
    return Text("Used: " + "; ".join(parts))


def pending_text(view: dict) -> Optional[Text]:
    pending = view.get("pending")
    if not pending:
        return None
    # docs/api.md names one "player"; simultaneous decisions list "players".
    deciders = pending.get("players", [pending.get("player")])
    who = ", ".join(player_label(p) for p in deciders) if deciders else DASH
    label = pending.get("label") or pending.get("kind") or "decide"
    return Text(f"{who} to decide: {label}", style="bold")


LONG_LIST = 12
COMPACT = 40          # more legal actions than this are listed in groups
PARAMETERS = ", "     # what separates an action's parameters in its text


def _split(text: str) -> tuple:
    """An action's text as (name, arguments): 'place 6, (1,0), 2' →
    ('place', ('6', '(1,0)', '2')). A cell's own comma has no space after it."""
    name, _, rest = text.partition(" ")
    return name, tuple(rest.split(PARAMETERS)) if rest else ()


def _distinct(values: Iterable[str]) -> list:
    return list(dict.fromkeys(values))


def _choices(values: Sequence[str]) -> str:
    sep = " · " if any(" " in v for v in values) else " "
    return "{" + sep.join(values) + "}" if len(values) > 1 else values[0]


def _grouped(numbered: list, depth: int) -> list:
    """[(first number, last number, text)] for actions that share their name
    and their first `depth` arguments and whose other arguments combine
    freely (every value of each with every value of the others)."""
    out, run = [], []

    def flush():
        if not run:
            return
        args = [a for _, (_, a) in run]
        name, fixed = run[0][1][0], args[0][:depth]
        rest = [_distinct(a[i] for a in args) for i in range(depth, len(args[0]))]
        product = math.prod(len(v) for v in rest)
        if product == len(set(args)) or len(rest) <= 1:
            text = name + (" " if fixed or rest else "") + PARAMETERS.join(
                [*fixed, *(_choices(v) for v in rest)])
            out.append((run[0][0], run[-1][0], text))
        else:
            out.extend(_grouped(list(run), depth + 1))
        run.clear()

    for number, (name, args) in numbered:
        key = (name, len(args), args[:depth])
        if run and (run[-1][1][0], len(run[-1][1][1]), run[-1][1][1][:depth]) != key:
            flush()
        run.append((number, (name, args)))
    flush()
    return out


def compact_actions(actions: Sequence[str]) -> list:
    """[(first, last, text)]: runs of legal actions that differ only in their
    later arguments, e.g. (1, 48, 'place {6 17 29}, {(-1,0) (0,-1) (0,1) (1,0)}, {0 1 2 3}')
    — the tiles, the cells, then the turns, when each goes with each; else one
    line per tile (per first argument, and so on). The numbers of a run count
    through the product in that order."""
    numbered = [(i, _split(t)) for i, t in enumerate(actions, 1)]
    return _grouped(numbered, 0)


def action_forms(forms: dict, actions: Sequence[str]) -> Optional[Text]:
    """'type: place TILE, AT, TURNS — e.g. place 6, (-1,0), 0' for the
    actions on offer with parameters."""
    shown = []
    for name in _distinct(_split(t)[0] for t in actions):
        params = forms.get(name)
        if params and len(params) > 1:
            example = next(t for t in actions if _split(t)[0] == name)
            shown.append(f"{name} {PARAMETERS.join(p.upper() for p in params)}, e.g. {example}")
    if not shown:
        return None
    cells = " (a cell as (x,y))" if legal_cells(actions) else ""
    return Text("Type " + "; ".join(shown) + cells + ", or a number.")


def actions_list(actions: Sequence[str], forms: Optional[dict] = None) -> Group:
    width = len(str(len(actions)))
    hint = action_forms(forms or {}, actions)
    if len(actions) > COMPACT:
        groups = compact_actions(actions)
        if len(groups) * 3 <= len(actions):
            # Hundreds of placements: one line per run, {…} the values to pick from.
            table = Table(box=None, show_header=False, pad_edge=False, padding=(0, 1))
            table.add_column(justify="right", no_wrap=True)
            table.add_column(overflow="fold")
            for first, last, text in groups:
                table.add_row(Text(f"{first}" if first == last else f"{first}–{last}"), Text(text))
            title = Text(f"Legal actions ({len(actions)}), grouped: pick one value in each {{…}}")
            return Group(title, *(t for t in (hint,) if t is not None), table)
    items = [Text(f"  {i:>{width}}. {text}") for i, text in enumerate(actions, 1)]
    head = [Text("Legal actions:"), *(t for t in (hint,) if t is not None)]
    if len(items) > LONG_LIST:
        # Many choices: in columns, read top to bottom, so they fit a screen.
        return Group(*head, Columns(items, column_first=True, padding=(0, 2)))
    return Group(*head, *items)


# -- boards: which to draw, titled (render_boards draws them) ----------------------
def legal_cells(actions: Sequence[str]) -> set:
    """The cells (x, y) named by the legal actions: where something may go."""
    return {(int(m.group(1)), int(m.group(2))) for t in actions for m in CELL_TEXT.finditer(t)}


def _zone_title(zone: dict) -> str:
    """A zone's name as the boards' titles print it: `NAME(KEY)` for a zone of each KEY."""
    name = str(zone.get("name", ""))
    if zone.get("of") is not None:
        name = f"{name}({value_text(zone['of'])})"
    return name


def grid_sections(view: dict, actions: Sequence[str]) -> list:
    """A titled GridView for each zone of the view that lies on a grid."""
    legal = legal_cells(actions)
    out = []
    for zone in view.get("zones") or []:
        if zone.get("grid") is None:
            continue
        name = _zone_title(zone)
        if zone.get("owner") is not None:
            name = f"{name} of {player_label(zone['owner'])}"
        note = " · north at the top" + (" · '· (x,y)': a legal action names that cell" if legal else "")
        out.append(Group(Text(name, style="bold") + Text(note, style="dim"),
                         GridView(zone["grid"], legal)))
    return out


def legal_names(actions: Sequence[str]) -> set:
    """Every argument of the legal actions, as text: a hex so named is one a
    legal action names."""
    return {arg for t in actions for arg in _split(t)[1]}


def hex_sections(view: dict, actions: Sequence[str]) -> list:
    """A titled HexView for each zone of the view laid out as hexes."""
    legal = legal_names(actions)
    out = []
    for zone in view.get("zones") or []:
        if zone.get("hexes") is None:
            continue
        name = _zone_title(zone)
        marked = legal & {h["piece"] for h in zone["hexes"]}
        note = " · odd columns half a hex lower" + \
            (" · '*': a legal action names that hex" if marked else "")
        out.append(Group(Text(name, style="bold") + Text(note, style="dim"),
                         HexView(zone["hexes"], marked)))
    return out


def board_sections(view: dict, actions: Sequence[str]) -> list:
    """A titled BoardView for each declared grid of the view."""
    legal = legal_cells(actions)
    out = []
    for board in view.get("grids") or ():
        marked = {(x, y) for x, y in legal
                  if 0 <= x < board["width"] and 0 <= y < board["height"]}
        note = f" · {board['width']} by {board['height']} · row 0 at the top" + \
            (f" · '{LEGAL_MARK}': a legal action names that cell" if marked else "")
        out.append(Group(Text(str(board["name"]), style="bold") + Text(note, style="dim"),
                         BoardView(board, marked)))
    return out


def on_maps(view: dict) -> tuple:
    """(the zones drawn on a hex map or whose pieces show on one, the piece
    types laid out on a map): the zone and component tables leave them out."""
    zones, kinds = set(), set()
    for zone in view.get("zones") or ():
        if zone.get("hexes") is not None:
            zones.add(zone.get("name"))
            kinds.add(zone.get("holds"))
            zones.update(hold["zone"] for h in zone["hexes"] for hold in h.get("holds") or ())
    return zones, kinds


@dataclass
class TableView:
    """Everything on the table for one viewer, plus the numbered legal actions."""

    view: dict
    actions: Sequence[str] = field(default_factory=tuple)
    forms: dict = field(default_factory=dict)   # action name -> its parameters' names

    def __rich__(self) -> RenderableType:
        tables = [t for t in (zones_table(self.view), *component_tables(self.view),
                              variables_table(self.view),
                              player_variables_table(self.view)) if t is not None]
        parts: list = [header(self.view)]
        if tables:
            # Side by side where the width allows: a whole table on one screen.
            parts.append(Columns(tables, padding=(0, 4)))
        actions = self.actions or self.view.get("actions") or ()
        parts += board_sections(self.view, actions)
        parts += grid_sections(self.view, actions)
        parts += hex_sections(self.view, actions)
        parts += [t for t in (used_text(self.view), pending_text(self.view)) if t is not None]
        if self.actions:
            parts.append(actions_list(self.actions, self.forms))
        if self.view.get("outcome"):
            parts.append(OutcomeView.of(self.view["outcome"]))
        return Group(*parts)


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

    @classmethod
    def of(cls, outcome) -> "OutcomeView":
        """From the engine's Outcome or the `outcome` of a view."""
        get = outcome.get if isinstance(outcome, dict) else \
            (lambda key: getattr(outcome, key, None))
        return cls(get("scores"), list(get("winners") or ()), list(get("ranking") or ()),
                   list(get("parts") or ()), list(get("tie_breaks") or ()),
                   list(get("steps") or ()), get("decided_by"))

    def breakdown(self) -> Optional[Table]:
        """Players down, score, parts and tie-break steps across."""
        labels = list(self.parts[0]) if self.parts and self.parts[0] else []
        if not labels and not self.steps:
            return None
        table = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False)
        for header in ["player", "score", *labels, *self.steps]:
            table.add_column(header, justify="left" if header == "player" else "right")
        scores = dict(_by_player(self.scores))
        for p in self.ranking if self.ranking else range(len(self.parts)):
            who = player_label(p)
            row = [who + (" *" if p in self.winners else ""), value_text(scores.get(who))]
            row += [value_text(self.parts[p].get(label)) for label in labels] if self.parts else []
            row += [value_text(v) for v in (self.tie_breaks[p] if self.tie_breaks else ())]
            table.add_row(*row)
        return table

    def decided(self) -> Optional[str]:
        if self.decided_by in (None, "score"):
            return "Decided by the score." if self.decided_by else None
        if self.decided_by == "winners":
            return "Decided by the rulebook's rule for the winners."
        if self.decided_by == "tie":
            return "Nothing told the players apart."
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
            lines.append(Text("No winner.", style="bold"))
        if self.decided() is not None:
            lines.append(Text(self.decided()))
        return Group(*lines)


def render_to_text(renderable: RenderableType, width: int = 100) -> str:
    """The renderable as plain text at a fixed width (no colour, no markup)."""
    buffer = io.StringIO()
    console = Console(file=buffer, width=width, color_system=None,
                      force_terminal=False, legacy_windows=False,
                      highlight=False, emoji=False)
    console.print(renderable)
    return buffer.getvalue()

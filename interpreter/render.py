"""Draws what a player may see at the table, using rich.

The input is a view dict (docs/api.md) — never a State — so nothing hidden
from the viewer can reach the screen: a zone whose `cards` is null shows only
its size. `TableView` and `OutcomeView` render themselves (`__rich__`), and
`render_to_text` turns any renderable into plain text at a fixed width, which
is how the REPL tests compare screens. This module knows no game: every label
comes from the view's own names.
"""

from __future__ import annotations

import io
from dataclasses import dataclass, field
from typing import Any, Iterable, Optional, Sequence

from rich import box
from rich.columns import Columns
from rich.console import Console, Group, RenderableType
from rich.table import Table
from rich.text import Text

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
    for zone in zones:
        name = str(zone.get("name", ""))
        if zone.get("of") is not None:
            name = f"{name}({value_text(zone['of'])})"
        table.add_row(*_row((name,
                             player_label(zone.get("owner")),
                             zone_contents(zone))))
    return table


def component_tables(view: dict) -> list:
    tables = []
    for kind, rows in (view.get("components") or {}).items():
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


def actions_list(actions: Sequence[str]) -> Group:
    width = len(str(len(actions)))
    items = [Text(f"  {i:>{width}}. {text}") for i, text in enumerate(actions, 1)]
    if len(items) > LONG_LIST:
        # Many choices: in columns, read top to bottom, so they fit a screen.
        return Group(Text("Legal actions:"), Columns(items, column_first=True, padding=(0, 2)))
    return Group(Text("Legal actions:"), *items)


@dataclass
class TableView:
    """Everything on the table for one viewer, plus the numbered legal actions."""

    view: dict
    actions: Sequence[str] = field(default_factory=tuple)

    def __rich__(self) -> RenderableType:
        tables = [t for t in (zones_table(self.view), *component_tables(self.view),
                              variables_table(self.view),
                              player_variables_table(self.view)) if t is not None]
        parts: list = [header(self.view)]
        if tables:
            # Side by side where the width allows: a whole table on one screen.
            parts.append(Columns(tables, padding=(0, 4)))
        parts += [t for t in (used_text(self.view), pending_text(self.view)) if t is not None]
        if self.actions:
            parts.append(actions_list(self.actions))
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
    """The end of a game: scores, ranking and winners."""

    scores: Any
    winners: Sequence
    ranking: Sequence = ()

    @classmethod
    def of(cls, outcome) -> "OutcomeView":
        """From the engine's Outcome or the `outcome` of a view."""
        get = outcome.get if isinstance(outcome, dict) else \
            (lambda key: getattr(outcome, key, None))
        return cls(get("scores"), list(get("winners") or ()), list(get("ranking") or ()))

    def __rich__(self) -> RenderableType:
        lines = [Text("Game over.", style="bold")]
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
        return Group(*lines)


def render_to_text(renderable: RenderableType, width: int = 100) -> str:
    """The renderable as plain text at a fixed width (no colour, no markup)."""
    buffer = io.StringIO()
    console = Console(file=buffer, width=width, color_system=None,
                      force_terminal=False, legacy_windows=False,
                      highlight=False, emoji=False)
    console.print(renderable)
    return buffer.getvalue()

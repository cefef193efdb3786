"""What a step of a choice draws above its options, from the viewer's view.

A step that asks for a cell or a hex (`Choice.values` are cells, or names
of hexes on a map) redraws the boards those lie on, compact, with only the
values the step offers marked: the candidates still possible after the
picks so far, read from the remaining legal actions' texts as the table's
marks are, so a step shows nothing the legal actions do not. A step that
asks for the turns of a piece shows the piece as it will lie for each value:
its values are whole numbers and the action has already chosen a cell and
a piece drawn as edges where the viewer sees it (`drawn as edges`, in the
view's `drawings`), turned as the rules' `turned` turns a list of sides, or
a piece drawn as a shape (`drawn as shape`), in each orientation as the
rules' `footprint` lays it (`render_pieces.turned_drawings`, from the
presentation model's `turned_drawing`, which the browser's previews draw
too). Anything else draws nothing. This module knows no game.
"""

from __future__ import annotations

from typing import Optional

from rich.console import Group, RenderableType
from rich.text import Text

from ..presentation.options import turnable_drawing
from ..printable import printable
from .choosing import CELL, INTEGER, Choice
from .render import boards, printable_view
from .render_pieces import turned_drawings


def step_drawings(view: dict, choice: Choice) -> list:
    """The drawings over `choice`'s next step: the boards with its cells or
    hexes marked, or the piece it turns as it will lie; [] for another step."""
    values = [printable(v, lines=False) for v in choice.values()]
    if not values:
        return []
    view = printable_view(view)
    cells = {(int(m.group(1)), int(m.group(2)))
             for m in (CELL.fullmatch(v) for v in values) if m is not None}
    drawn = boards(view, (), compact=True, marked=(cells, set(values)))
    if drawn:
        return drawn
    preview = turns_preview(view, choice, values)
    return [preview] if preview is not None else []


def turned_piece(view: dict, choice: Choice) -> Optional[str]:
    """The piece `choice`'s next step turns: the step offers whole numbers,
    and the values chosen so far hold a piece the viewer sees drawn as a
    shape (its orientation), or a cell and a piece drawn as edges (its
    quarter turns; docs/language.md §1.3); None for any other step."""
    values = choice.values()
    chosen = [printable(v, lines=False) for v in choice.chosen()]
    if not values or not all(INTEGER.fullmatch(v) for v in values):
        return None
    at_cell = any(CELL.fullmatch(v) for v in chosen)
    seen = printable_view(view)
    for v in chosen:
        drawing = turnable_drawing(seen, v)
        if drawing is not None and (at_cell or drawing.get("shape") is not None):
            return v
    return None


def turns_preview(view: dict, choice: Choice, values: list) -> Optional[RenderableType]:
    """The piece the step turns, drawn for each value, titled."""
    piece = turned_piece(view, choice)
    if piece is None:
        return None
    drawing = turned_drawings(view, piece, values)
    if drawing is None:
        return None
    title = Text(f"{piece} as it will lie, by {choice.parameter()}", style="bold")
    return Group(title + Text(" · north at the top", style="dim"), drawing)

"""Pieces drawn as they look: the pieces of a zone whose component declares
a drawing, drawn from the view's data (docs/language.md).

(Filled in by the `drawn as` work; until then no component is drawn.)
"""

from __future__ import annotations

from typing import Optional

from rich.console import RenderableType


def piece_drawings(view: dict, zone: dict) -> Optional[RenderableType]:
    """The cards of `zone` (an entry of `view["zones"]` whose cards the viewer
    may see) drawn as they look, side by side, at most 5 lines tall; None when
    none of them declares a drawing."""
    return None

"""`load_rulebook`: a rulebook file or a game's name to a ready `Game`.

The whole pipeline in one call: `loader.load_ir` reads, parses, checks and
validates the file; the `Game` then compiles the IR for every player count it
supports, so a rulebook that fails to compile is refused here, with its
errors pointed at a variant file's changes when it is one.
"""

from __future__ import annotations

from .engine import Game
from ..errors import RulebookErrors
from ..language.loader import blame_variant, load_ir


def load_rulebook(name_or_path, options: dict | None = None) -> Game:
    """Load, check and prepare a rulebook; raises RulebookErrors."""
    ir, path = load_ir(str(name_or_path))
    game = Game(ir, options, str(path))
    try:
        game.compile_all()
    except RulebookErrors as e:
        blame_variant(e.errors, path, ir["file"])
        raise
    return game

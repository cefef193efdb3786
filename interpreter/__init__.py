"""rulebook: a rules-as-data board-game interpreter.

`load_rulebook(path_or_name)` turns a rulebook file into a `Game`; the Game
runs any rulebook as a state machine (see docs/api.md).
"""

from .game.engine import Game, Outcome
from .errors import RulebookError, RulebookErrors
from .game.load import load_rulebook
from .runtime.state import State
from .runtime.decisions import Action
from .runtime.chance import CHANCE, ChanceOutcome

__all__ = ["load_rulebook", "Game", "State", "Action", "ChanceOutcome", "CHANCE", "Outcome",
           "RulebookError", "RulebookErrors"]
__version__ = "0.1.0"

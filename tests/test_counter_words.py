"""A game's own words for its counters (`round is called "trick"`) in the
view and the header; what only the screen reads — those words, what a
component `shows` — leaves a save's fingerprint as it was."""

from __future__ import annotations

from pathlib import Path

from interpreter import load_rulebook
from interpreter.game.engine import Game
from interpreter.language.loader import compile_ir
from interpreter.terminal.render import header

ROOT = Path(__file__).resolve().parent.parent


def test_the_header_counts_tricks_in_a_game_of_tricks():
    game = load_rulebook(str(ROOT / "rulebooks" / "hearts.rules"))
    view = game.view(game.new_game(players=4, seed=1), 0)
    assert view["called"] == {"round": "trick", "turn": "turn"}
    assert header(view).plain.startswith(f"Hearts · trick {view['round']} · turn {view['turn']}")
    plain = load_rulebook(str(ROOT / "rulebooks" / "kalah.rules"))
    assert plain.view(plain.new_game(players=2, seed=1), 0)["called"] == {"turn": "turn"}


def test_screen_words_leave_the_fingerprint_as_it_was():
    text = (ROOT / "tests" / "games" / "market.rules").read_text(encoding="utf-8")
    base = Game(compile_ir(text, "m.rules", ROOT / "tests" / "games"))
    plainer = text.replace("  shows cost, pay, colour, points\n", "").replace(
        'players 2 to 3\n', 'players 2 to 3\nround is called "deal"\n')
    other = Game(compile_ir(plainer, "m.rules", ROOT / "tests" / "games"))
    assert "called" in other.ir and not other.ir["components"][1].get("shows")
    assert other.fingerprint == base.fingerprint
    # a rule that changes play changes it
    costlier = Game(compile_ir(text.replace("| r1   | ruby   | jade | 2 ", "| r1   | ruby   | jade | 3 "),
                               "m.rules", ROOT / "tests" / "games"))
    assert costlier.fingerprint != base.fingerprint

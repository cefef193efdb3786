"""A screen's header shows the counters the rules use, and no other: a game
without rounds has no 'round 0', one without turns no 'turn' and no
'active —' (Game.counters, the view's `counters`)."""

from __future__ import annotations

from pathlib import Path

import pytest

from interpreter import load_rulebook
from interpreter.terminal.render import header

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("name, used", [
    ("othello", ("turn",)),             # turns, never 'new round'
    ("festival-of-lights", ("round",)),   # tricks as rounds, no 'turn'
    ("hanamikoji", ("round", "turn")),
])
def test_the_header_names_the_counters_the_rules_use(name, used):
    game = load_rulebook(str(ROOT / "rulebooks" / f"{name}.rules"))
    assert game.counters == used
    view = game.view(game.new_game(game.min_players, seed=1), 0)
    assert view["counters"] == list(used)
    text = header(view).plain
    # (in the game's own words: Festival of Lights counts tricks)
    rounds, turns = (f"{view['called'].get(c, c)} " for c in ("round", "turn"))
    assert (rounds in text) == ("round" in used) and (turns in text) == ("turn" in used)
    assert "active" not in text or "turn" in used


def test_a_view_that_does_not_say_shows_both():
    text = header({"game": "X", "round": 2, "turn": 5, "active": 1, "viewer": 0}).plain
    assert "round 2" in text and "turn 5" in text and "active P1" in text

"""Every key a view carries is documented in docs/api.md ("Every key of a
view"): views of every shipped rulebook and test game, at each player
count, for every viewer, along a random game."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from interpreter import load_rulebook

ROOT = Path(__file__).resolve().parent.parent
GAMES = sorted((ROOT / "rulebooks").glob("*.rules")) + sorted((ROOT / "tests" / "games").glob("*.rules"))


def documented() -> tuple:
    """(the view's keys, a zone's keys, every key named in the section)."""
    text = (ROOT / "docs" / "api.md").read_text(encoding="utf-8")
    section = text[text.index("### Every key of a view"):]
    section = section[:section.index("\n## ")] if "\n## " in section else section
    top, zone = section.split("A zone's entry:")
    rows = lambda part: {k for line in part.splitlines() if line.startswith("| `")    # noqa: E731
                         for k in re.findall(r"`([a-z_]+)`", line.split("|")[1])}
    return rows(top), rows(zone), set(re.findall(r"`([a-z_]+)`", section))


def carried(path) -> dict:
    game = load_rulebook(str(path))
    keys: dict = {"top": set(), "zone": set(), "inner": set()}
    for n in range(game.min_players, game.max_players + 1):
        state, rng = game.new_game(players=n, seed=1), random.Random(n)
        for step in range(80):
            for viewer in [*range(n), None]:
                view = game.view(state, viewer)
                keys["top"] |= set(view)
                for z in view["zones"]:
                    keys["zone"] |= set(z)
                    for entry in [*(z.get("hexes") or ()), *(z.get("grid") or ()),
                                  *(z.get("drawings") or ())]:
                        keys["inner"] |= set(entry)
                        for held in entry.get("holds") or ():
                            keys["inner"] |= set(held)
                for board in view["grids"]:
                    keys["inner"] |= set(board)
                    for cell in board["cells"].values():
                        keys["inner"] |= set(cell)
            if state.over:
                break
            player = game.to_move(state)[0]
            state = game.apply(state, rng.choice(game.legal_actions(state, player)))
    return keys


@pytest.mark.parametrize("path", GAMES, ids=lambda p: p.stem)
def test_every_key_of_a_view_is_documented(path):
    top, zone, named = documented()
    keys = carried(path)
    assert keys["top"] <= top, keys["top"] - top
    assert keys["zone"] <= zone, keys["zone"] - zone
    assert keys["inner"] <= named, keys["inner"] - named

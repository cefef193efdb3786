"""A rulebook's `layout`: Kalah's pits in two rows with a store at each end,
each with its seeds, the pits a legal move names marked; zones placed side
by side leave the rows under them; the layout leaves a save's fingerprint
as it was."""

from __future__ import annotations

import random
import re
from pathlib import Path

from interpreter import load_rulebook
from interpreter.game.engine import Game
from interpreter.language.loader import compile_ir
from interpreter.terminal.render import TableView, render_to_text

ROOT = Path(__file__).resolve().parent.parent


def _screen(game, state):
    (player,) = game.to_move(state)
    return render_to_text(TableView(game.view(state, player),
                                    [str(a) for a in game.legal_actions(state, player)]), 120)


def test_kalah_is_drawn_as_its_board_with_the_seeds_of_every_pit():
    game = load_rulebook(str(ROOT / "rulebooks" / "kalah.rules"))
    state, rng = game.new_game(players=2, seed=5), random.Random(5)
    for _ in range(12):
        if state.over:
            break
        screen = _screen(game, state)
        rows = screen.splitlines()
        pits = {r["name"]: r["seeds"] for r in game.view(state, None)["components"]["pit"]}
        # each pit's name, its seeds on the line under it, in the same column
        for name, seeds in pits.items():
            (i, line), = [(i, line) for i, line in enumerate(rows) if re.search(rf"│ {name}\b", line)]
            col = line.index(f"│ {name}") + 2
            assert rows[i + 1][col:].split("│")[0].strip() == str(seeds)
        # P1's pits across the top, right to left; P0's along the bottom
        top = next(line for line in rows if "b6" in line)
        bottom = next(line for line in rows if "a1" in line)
        assert top.index("b6") < top.index("b1") and bottom.index("a1") < bottom.index("a6")
        assert top.index("b6") == bottom.index("a1")
        (player,) = game.to_move(state)
        legal = {str(a).split()[1] for a in game.legal_actions(state, player)}
        assert {m for m in re.findall(r"│ (\w+) \*", screen)} == legal
        assert "pit  " not in screen and "show pit" in screen        # the table, on request
        state = game.apply(state, rng.choice(game.legal_actions(state, player)))


def test_zones_placed_side_by_side_leave_the_rows_under_them():
    game = load_rulebook(str(ROOT / "tests" / "games" / "market.rules"))
    screen = _screen(game, game.new_game(players=2, seed=1))
    first = next(line for line in screen.splitlines() if "market" in line)
    assert "waiting" in first and first.index("market") < first.index("waiting")
    assert not any(line.startswith(("market ", "waiting ")) for line in screen.splitlines())


def test_the_layout_leaves_the_fingerprint_as_it_was():
    text = (ROOT / "rulebooks" / "kalah.rules").read_text(encoding="utf-8")
    start = text.index("layout\n")
    without = text[:start] + text[text.index("variable mover"):]
    assert Game(compile_ir(without, "k.rules", ROOT / "rulebooks")).fingerprint == \
        load_rulebook(str(ROOT / "rulebooks" / "kalah.rules")).fingerprint

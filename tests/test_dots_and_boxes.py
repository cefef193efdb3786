"""Known facts of Dots and Boxes (rulebooks/dots-and-boxes.rules).

The rules: 6 x 6 dots, 25 boxes, 60 lines; P0 draws first. The player to
move draws one line not yet drawn; a line that completes a box (one, or
the two beside it at once) gives that player the box and another line to
draw, else the other player draws next. The game ends when every line is
drawn; the score is the boxes one completed, and the most boxes wins.

Spots are named as the rulebook names them, on a paper of 11 x 11 spots:
a dot where x and y are both even, a box where both are odd, a line on
every other spot. The box (1,1) has the sides (1,0), (2,1), (1,2), (0,1).
An arranged position keeps the start's flow, so P0 is to move in it.
"""

from __future__ import annotations

import functools
import random
from pathlib import Path

import pytest

from interpreter import load_rulebook
from interpreter.stdlib import grid
from tests.scenario import do, texts_of

ROOT = Path(__file__).resolve().parent.parent
RULES = ROOT / "rulebooks" / "dots-and-boxes.rules"
SPOTS = [(x, y) for x in range(11) for y in range(11)]
LINES = [(x, y) for x, y in SPOTS if (x + y) % 2 == 1]
BOXES = [(x, y) for x, y in SPOTS if x % 2 == 1 and y % 2 == 1]


@functools.lru_cache(maxsize=None)
def rules():
    return load_rulebook(RULES)


@pytest.fixture(scope="module")
def game():
    return rules()


# == helpers =====================================================================================

def _slot(g, name: str, x: int, y: int) -> int:
    lay = g.program(2).lay
    return lay.variables[name].base + lay.grids["paper"].position(grid.cell(x, y))


def drawn(g, s) -> set:
    return {spot for spot in LINES if s.vars[_slot(g, "drawn", *spot)]}


def owners(g, s) -> dict:
    """The completed boxes and who completed each."""
    out = {spot: s.vars[_slot(g, "owner", *spot)] for spot in BOXES}
    return {spot: p for spot, p in out.items() if p is not None}


def arranged(g, lines, boxes: dict) -> object:
    """The start with the given lines drawn and boxes owned; P0 to move."""
    s = g.new_game(players=2, seed=0).copy()
    for spot in lines:
        s.vars[_slot(g, "drawn", *spot)] = True
    for spot, p in boxes.items():
        s.vars[_slot(g, "owner", *spot)] = p
    return s


def draw(x: int, y: int) -> str:
    return f"draw ({x},{y})"


def announced(s) -> list:
    return [e["text"] for e in s.events if e.get("event") == "announce"]


def mover(g, s) -> int:
    return list(g.to_move(s))[0]


# == the start ===================================================================================

def test_no_line_is_drawn_at_the_start_and_p0_may_draw_any_of_the_60(game):
    s = game.new_game(players=2, seed=0)
    assert drawn(game, s) == set() and owners(game, s) == {}
    assert mover(game, s) == 0
    texts = texts_of(game, s)
    assert len(texts) == 60 and set(texts) == {draw(*spot) for spot in LINES}
    assert game.outcome(s) is None and list(game.scores(s)) == [0, 0]


def test_a_line_drawn_is_offered_no_more(game):
    s = do(game, game.new_game(players=2, seed=0), draw(1, 0), draw(10, 3))
    assert drawn(game, s) == {(1, 0), (10, 3)}
    assert len(texts_of(game, s)) == 58
    assert draw(1, 0) not in texts_of(game, s) and draw(10, 3) not in texts_of(game, s)


# == another line ================================================================================

def test_a_line_that_completes_no_box_passes_the_turn(game):
    s = game.new_game(players=2, seed=0)
    s = do(game, s, draw(1, 0))
    assert mover(game, s) == 1
    s = do(game, s, draw(0, 1))
    assert mover(game, s) == 0 and owners(game, s) == {}


def test_completing_a_box_scores_it_and_gives_another_line(game):
    """The worked example of docs/games/dots-and-boxes.md: P0 draws (1,0),
    P1 (0,1), P0 (2,1); P1 draws the fourth side (1,2), claims the box (1,1)
    and draws again; a line that completes nothing then passes the turn."""
    s = do(game, game.new_game(players=2, seed=0), draw(1, 0), draw(0, 1), draw(2, 1))
    assert mover(game, s) == 1
    s = do(game, s, draw(1, 2))
    assert owners(game, s) == {(1, 1): 1}
    assert list(game.scores(s)) == [0, 1]
    assert mover(game, s) == 1
    assert announced(s) == ["P1 completes the box (1,1)"]
    s = do(game, s, draw(5, 0))
    assert mover(game, s) == 0 and list(game.scores(s)) == [0, 1]


def test_one_line_can_complete_two_boxes_and_gives_one_more_line(game):
    """(2,1) is the right side of (1,1) and the left side of (3,1), each of
    which has its three other sides drawn."""
    s = arranged(game, [(1, 0), (0, 1), (1, 2), (3, 0), (4, 1), (3, 2)], {})
    assert mover(game, s) == 0
    s = do(game, s, draw(2, 1))
    assert owners(game, s) == {(1, 1): 0, (3, 1): 0}
    assert list(game.scores(s)) == [2, 0]
    assert sorted(announced(s)) == ["P0 completes the box (1,1)", "P0 completes the box (3,1)"]
    assert mover(game, s) == 0
    s = do(game, s, draw(9, 10))
    assert mover(game, s) == 1


def test_a_line_along_the_edge_borders_one_box(game):
    """(0,1) is the left side of (1,1), on the edge of the paper."""
    s = arranged(game, [(1, 0), (2, 1), (1, 2)], {})
    s = do(game, s, draw(0, 1))
    assert owners(game, s) == {(1, 1): 0}
    assert mover(game, s) == 0


def test_a_box_with_three_sides_is_not_complete(game):
    s = arranged(game, [(1, 0), (2, 1)], {})
    s = do(game, s, draw(0, 1))
    assert owners(game, s) == {} and mover(game, s) == 1


def test_boxes_completed_one_after_another_keep_the_same_player_drawing(game):
    """A chain along the top row: each box has its sides drawn but the one
    it shares with the next; closing them from the left takes them all."""
    sides = [(x, y) for x in (1, 3, 5) for y in (0, 2)] + [(0, 1)]
    s = arranged(game, sides, {})
    s = do(game, s, draw(2, 1))               # completes (1,1) only: (3,1) still lacks (4,1)
    assert owners(game, s) == {(1, 1): 0} and mover(game, s) == 0
    s = do(game, s, draw(4, 1))               # completes (3,1)
    assert owners(game, s) == {(1, 1): 0, (3, 1): 0} and mover(game, s) == 0
    s = do(game, s, draw(6, 1))               # completes (5,1)
    assert list(game.scores(s)) == [3, 0] and mover(game, s) == 0


# == the end =====================================================================================

def test_the_game_ends_when_every_line_is_drawn_and_the_most_boxes_wins(game):
    """Every line but (9,10), the bottom of (9,9); P0 and P1 have 12 boxes
    each. P0 draws the last line, completes (9,9) and wins 13 to 12."""
    others = [b for b in BOXES if b != (9, 9)]
    s = arranged(game, [spot for spot in LINES if spot != (9, 10)],
                 {b: k % 2 for k, b in enumerate(others)})
    assert texts_of(game, s) == [draw(9, 10)]
    after = do(game, s, draw(9, 10))
    out = game.outcome(after)
    assert out is not None and list(game.to_move(after)) == []
    assert list(out.scores) == [13, 12] and list(out.winners) == [0]
    assert announced(after)[-1] == "P0 wins: P0 13 boxes, P1 12"


def test_the_player_with_more_boxes_wins_whoever_draws_last(game):
    """P1 holds 20 boxes; P0 takes the last two with one line and still loses."""
    last = [(9, 7), (9, 9)]
    others = [b for b in BOXES if b not in last]
    s = arranged(game, [spot for spot in LINES if spot != (9, 8)],
                 {b: 1 if k < 20 else 0 for k, b in enumerate(others)})
    out = game.outcome(do(game, s, draw(9, 8)))
    assert list(out.scores) == [5, 20] and list(out.winners) == [1]


# == random games ================================================================================

def test_random_games_draw_all_60_lines_and_share_the_25_boxes(game):
    for seed in range(8):
        rng = random.Random(seed)
        s = game.new_game(players=2, seed=seed)
        decisions = 0
        while game.outcome(s) is None:
            assert len(texts_of(game, s)) == 60 - decisions
            s = game.apply(s, rng.choice(game.legal_actions(s, mover(game, s))))
            decisions += 1
        out = game.outcome(s)
        assert decisions == 60 and drawn(game, s) == set(LINES)
        assert sum(out.scores) == 25 and len(owners(game, s)) == 25
        assert list(out.winners) == [max((0, 1), key=lambda p: out.scores[p])]


# == the paper on the screen =====================================================================

def test_the_paper_shows_the_dots_the_lines_drawn_and_the_boxes_owners(game):
    s = do(game, game.new_game(players=2, seed=0), draw(1, 0), draw(0, 1), draw(2, 1), draw(1, 2))
    cells = game.view(s, 0)["grids"][0]["cells"]
    assert {spot for spot, c in cells.items() if c.get("mark") == "•"} == \
        {f"({x},{y})" for x, y in SPOTS if x % 2 == 0 and y % 2 == 0}
    assert cells["(1,0)"]["mark"] == "─" and cells["(1,2)"]["mark"] == "─"
    assert cells["(0,1)"]["mark"] == "│" and cells["(2,1)"]["mark"] == "│"
    assert "mark" not in cells["(3,0)"]                      # a line still to draw
    assert cells["(1,1)"].get("shade_seat") == 1 and "shade" not in cells["(3,1)"]

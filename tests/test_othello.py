"""Known facts of Othello (rulebooks/othello.rules).

The rules: an 8 x 8 board, four discs in the centre ((3,3) and (4,4)
white, (3,4) and (4,3) black), black (P0) first. A disc goes on an empty
cell that encloses, in one of the eight directions, an unbroken line of
the opponent's discs ending in one's own; every such line in every
direction is turned over. A player who cannot place must pass, and only
then; the game ends when neither can place. A player's score is their
discs; the most discs wins, equal discs share the win.

Positions are drawn as the REPL draws the board: row y = 0 first, x from
left to right; ``B`` is a black disc (P0), ``W`` a white one (P1). An
arranged position keeps the start's flow, so black is to move in it.
"""

from __future__ import annotations

import functools
import random
from pathlib import Path

import pytest

from interpreter import load_rulebook
from interpreter.stdlib import grid
from tests.references import reference, replay
from tests.scenario import do, texts_of

ROOT = Path(__file__).resolve().parent.parent
RULES = ROOT / "rulebooks" / "othello.rules"
DIRECTIONS = {"north": (0, 1), "north_east": (1, 1), "east": (1, 0), "south_east": (1, -1),
              "south": (0, -1), "south_west": (-1, -1), "west": (-1, 0), "north_west": (-1, 1)}
PERFT = {1: 4, 2: 12, 3: 56, 4: 244, 5: 1396, 6: 8200, 7: 55092}
DISC = {".": None, "B": 0, "W": 1}


@functools.lru_cache(maxsize=None)
def rules():
    return load_rulebook(RULES)


@pytest.fixture(scope="module")
def game():
    return rules()


# == helpers =====================================================================================

def _slot(g, x, y) -> int:
    lay = g.program(2).lay
    return lay.variables["disc"].base + lay.grids["board"].position(grid.cell(x, y))


def picture(g, s) -> list:
    """The board as rows of B, W and ., row 0 first."""
    shown = {None: ".", 0: "B", 1: "W"}
    return ["".join(shown[s.vars[_slot(g, x, y)]] for x in range(8)) for y in range(8)]


def arranged(g, rows) -> object:
    """The start state with the board replaced by `rows` (row 0 first); black to move."""
    s = g.new_game(players=2, seed=0).copy()
    for y, row in enumerate(rows):
        for x, ch in enumerate(row):
            s.vars[_slot(g, x, y)] = DISC[ch]
    return s


def empty_board() -> list:
    return [["."] * 8 for _ in range(8)]


def rows_of(board) -> list:
    return ["".join(row) for row in board]


def perft(g, s, depth: int) -> int:
    """Leaf positions `depth` decisions on; the last ply is counted, not played."""
    actions = g.legal_actions(s, g.to_move(s)[0])
    if depth == 1:
        return len(actions)
    return sum(perft(g, g.apply(s, a), depth - 1) for a in actions)


# == the start ===================================================================================

def test_the_start_has_four_discs_in_the_centre_and_black_moves_first(game):
    s = game.new_game(players=2, seed=0)
    board = picture(game, s)
    assert board[3][3] == "W" and board[4][4] == "W"
    assert board[4][3] == "B" and board[3][4] == "B"      # (3,4) and (4,3): rows are y
    assert sum(row.count(".") for row in board) == 60
    assert list(game.to_move(s)) == [0]
    assert sorted(texts_of(game, s)) == ["place (2,3)", "place (3,2)", "place (4,5)", "place (5,4)"]


@pytest.mark.parametrize("depth", [1, 2, 3, 4, 5])
def test_perft_from_the_start(game, depth):
    assert perft(game, game.new_game(players=2, seed=0), depth) == PERFT[depth]


@pytest.mark.soak
@pytest.mark.parametrize("depth", [6, 7])
def test_perft_from_the_start_deep(game, depth):
    assert perft(game, game.new_game(players=2, seed=0), depth) == PERFT[depth]


# == placing and turning over ====================================================================

@pytest.mark.parametrize("name", list(DIRECTIONS))
def test_a_line_of_opponent_discs_ending_in_ones_own_is_turned_over(game, name):
    """Two white discs from (3,3) towards the direction, then black: placing on
    (3,3) turns exactly those two, whatever the direction."""
    dx, dy = DIRECTIONS[name]
    board = empty_board()
    for k in (1, 2):
        board[3 + k * dy][3 + k * dx] = "W"
    board[3 + 3 * dy][3 + 3 * dx] = "B"
    s = arranged(game, rows_of(board))
    assert texts_of(game, s) == ["place (3,3)"]
    after = do(game, s, "place (3,3)")
    for k in (0, 1, 2, 3):
        assert picture(game, after)[3 + k * dy][3 + k * dx] == "B"
    assert sum(row.count("B") for row in picture(game, after)) == 4
    assert sum(row.count("W") for row in picture(game, after)) == 0


def test_every_enclosed_line_in_every_direction_is_turned_over_at_once(game):
    """A white disc next to (3,3) in each of the eight directions, a black one
    behind each: one placement turns all eight."""
    board = empty_board()
    for dx, dy in DIRECTIONS.values():
        board[3 + dy][3 + dx] = "W"
        board[3 + 2 * dy][3 + 2 * dx] = "B"
    after = do(game, arranged(game, rows_of(board)), "place (3,3)")
    assert sum(row.count("W") for row in picture(game, after)) == 0
    assert sum(row.count("B") for row in picture(game, after)) == 17


def test_no_disc_is_turned_across_a_gap(game):
    """W . B east of (3,3) encloses nothing: (3,3) is no move, and where another
    line makes it one, the gapped line stays white."""
    board = empty_board()
    board[3][4], board[3][6] = "W", "B"
    board[0][7], board[1][6] = "B", "W"                  # elsewhere, a move: (5,2)
    assert texts_of(game, arranged(game, rows_of(board))) == ["place (5,2)"]
    board[4][3], board[5][3] = "W", "B"                  # a real line to the north
    after = do(game, arranged(game, rows_of(board)), "place (3,3)")
    assert picture(game, after)[4][3] == "B"
    assert picture(game, after)[3][4] == "W"


def test_a_line_that_runs_to_the_edge_or_ends_in_an_empty_cell_is_not_turned(game):
    board = empty_board()
    board[0][1:8] = list("WWWWWWW")                      # to the edge, no black behind
    board[2][1], board[2][2] = "W", "W"                  # then an empty cell
    board[5][5], board[6][6] = "W", "B"                  # the one move of the position
    s = arranged(game, rows_of(board))
    assert texts_of(game, s) == ["place (4,4)"]


def test_a_disc_goes_only_on_an_empty_cell(game):
    """(3,3) holds a black disc with W B east of it: it is never offered."""
    board = empty_board()
    board[3][3], board[3][4], board[3][5] = "B", "W", "B"
    board[0][0], board[1][1] = "B", "W"                  # the one move: (2,2)
    assert texts_of(game, arranged(game, rows_of(board))) == ["place (2,2)"]


def test_the_turn_passes_to_the_opponent_after_a_placement(game):
    s = do(game, game.new_game(players=2, seed=0), "place (2,3)")
    assert list(game.to_move(s)) == [1]
    assert sorted(texts_of(game, s)) == ["place (2,2)", "place (2,4)", "place (4,2)"]


# == passing and the end =========================================================================

PASS_POSITION = ["..B.....",
                 ".W......",
                 "........",
                 ".W......",
                 "........",
                 "........",
                 "........",
                 "........"]


def test_a_player_who_cannot_place_must_pass_and_only_then(game):
    """After black's (0,2) white has a disc but no move: pass is white's only
    action; black then moves again. Pass is never offered beside a move."""
    s = arranged(game, PASS_POSITION)
    assert texts_of(game, s) == ["place (0,2)"]
    s = do(game, s, "place (0,2)")
    assert list(game.to_move(s)) == [1]
    assert texts_of(game, s) == ["pass_turn"]
    s = do(game, s, "pass_turn")
    assert list(game.to_move(s)) == [0]
    assert "pass_turn" not in texts_of(game, s)
    assert "pass_turn" not in texts_of(game, game.new_game(players=2, seed=0))


def test_the_game_ends_when_neither_player_can_place_though_cells_are_empty(game):
    """Black turns white's last disc: nobody can place, 61 cells stay empty."""
    board = empty_board()
    board[0][0], board[0][1] = "B", "W"
    s = do(game, arranged(game, rows_of(board)), "place (2,0)")
    out = game.outcome(s)
    assert out is not None and list(game.to_move(s)) == []
    assert list(out.scores) == [3, 0] and list(out.winners) == [0]


def full_but_one(black: int) -> list:
    """A board full but for (0,0), where black's disc turns exactly (1,0):
    `black` black discs before the move, the others white."""
    board = empty_board()
    board[0][1], board[0][2], board[1][0], board[1][1] = "W", "B", "B", "B"
    rest = [(x, y) for y in range(8) for x in range(8) if board[y][x] == "." and (x, y) != (0, 0)]
    for k, (x, y) in enumerate(rest):
        board[y][x] = "B" if k < black - 3 else "W"
    return rows_of(board)


def test_the_game_ends_when_the_board_is_full(game):
    s = do(game, arranged(game, full_but_one(40)), "place (0,0)")
    assert all("." not in row for row in picture(game, s))
    out = game.outcome(s)
    assert out is not None and list(game.to_move(s)) == []
    assert list(out.scores) == [42, 22] and list(out.winners) == [0]


def test_the_most_discs_wins_and_equal_discs_share_the_win(game):
    s = do(game, arranged(game, full_but_one(22)), "place (0,0)")
    assert list(game.outcome(s).scores) == [24, 40] and list(game.outcome(s).winners) == [1]
    s = do(game, arranged(game, full_but_one(30)), "place (0,0)")
    out = game.outcome(s)
    assert list(out.scores) == [32, 32] and sorted(out.winners) == [0, 1]


# == random games ================================================================================

def test_random_games_end_with_the_discs_as_scores(game):
    for seed in range(4):
        rng = random.Random(seed)
        s = game.new_game(players=2, seed=seed)
        while game.outcome(s) is None:
            s = game.apply(s, rng.choice(game.legal_actions(s, game.to_move(s)[0])))
        board = picture(game, s)
        out = game.outcome(s)
        assert list(out.scores) == [sum(r.count("B") for r in board), sum(r.count("W") for r in board)]
        assert s.decisions >= 60 - sum(r.count(".") for r in board)


# == the hand-written reference ==================================================================

def test_the_reference_plays_the_same_games():
    """20 seeded random games of the rulebook, mirrored move by move in
    tools/reference/othello.py (seeds 2, 3, 4, 8, 15 and 18 have passes)."""
    ref = reference("othello")
    for seed in range(20):
        replay(rules(), ref, 2, seed, lambda g, s, r: r.new_game(2, seed))


def test_the_reference_perft_to_depth_7():
    ref = reference("othello")
    assert [ref.perft(ref.new_game(2, 0), d) for d in range(1, 8)] == \
        [PERFT[d] for d in range(1, 8)]

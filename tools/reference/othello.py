"""Othello by hand: an 8 x 8 list of discs, black (0) to move first.

The same decisions as rulebooks/othello.rules: the player to move places a
disc on a cell that encloses at least one line of the opponent's discs
(cells listed by x, then y), or, when they cannot and the opponent can,
passes; when neither can, the game is over. Scores are the discs of each
colour.
"""

from __future__ import annotations

PLAYERS = (2,)
SIZE = 8
EMPTY = -1
DIRECTIONS = ((0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1))
PASS = "pass"


class State:
    __slots__ = ("board", "mover", "over")

    def __init__(self):
        self.board = [EMPTY] * (SIZE * SIZE)   # index x * SIZE + y
        self.mover = 0
        self.over = False


def new_game(players: int, seed: int) -> State:
    if players not in PLAYERS:
        raise ValueError("Othello is for 2 players")
    state = State()
    for x, y, p in ((3, 3, 1), (4, 4, 1), (3, 4, 0), (4, 3, 0)):
        state.board[x * SIZE + y] = p
    return state


def _flips(board, x, y, p) -> list:
    """The opponent's discs a disc of p on the empty cell (x, y) turns over."""
    other = 1 - p
    out = []
    for dx, dy in DIRECTIONS:
        line = []
        i, j = x + dx, y + dy
        while 0 <= i < SIZE and 0 <= j < SIZE and board[i * SIZE + j] == other:
            line.append(i * SIZE + j)
            i, j = i + dx, j + dy
        if line and 0 <= i < SIZE and 0 <= j < SIZE and board[i * SIZE + j] == p:
            out.extend(line)
    return out


def _encloses(board, x, y, p) -> bool:
    other = 1 - p
    for dx, dy in DIRECTIONS:
        i, j = x + dx, y + dy
        seen = False
        while 0 <= i < SIZE and 0 <= j < SIZE and board[i * SIZE + j] == other:
            i, j = i + dx, j + dy
            seen = True
        if seen and 0 <= i < SIZE and 0 <= j < SIZE and board[i * SIZE + j] == p:
            return True
    return False


def _places(board, p) -> list:
    return [(x, y) for x in range(SIZE) for y in range(SIZE)
            if board[x * SIZE + y] == EMPTY and _encloses(board, x, y, p)]


def _can_place(board, p) -> bool:
    return any(board[x * SIZE + y] == EMPTY and _encloses(board, x, y, p)
               for x in range(SIZE) for y in range(SIZE))


def current_player(state) -> int:
    return state.mover


def legal_moves(state) -> list:
    if state.over:
        return []
    return _places(state.board, state.mover) or [PASS]


def apply(state, move) -> None:
    board, p = state.board, state.mover
    if move != PASS:
        x, y = move
        for k in _flips(board, x, y, p):
            board[k] = p
        board[x * SIZE + y] = p
    state.mover = 1 - p
    if not _can_place(board, state.mover) and not _can_place(board, p):
        state.over = True


def is_over(state) -> bool:
    return state.over


def scores(state) -> list:
    return [state.board.count(0), state.board.count(1)]


def move_text(state, move) -> str:
    return "pass_turn" if move == PASS else f"place ({move[0]},{move[1]})"


def perft(state, depth: int) -> int:
    """The number of positions `depth` decisions on (a finished game counts once)."""
    if depth == 0 or state.over:
        return 1
    moves = legal_moves(state)
    if depth == 1:
        return len(moves)
    total = 0
    for move in moves:
        child = State()
        child.board, child.mover, child.over = state.board[:], state.mover, state.over
        apply(child, move)
        total += perft(child, depth - 1)
    return total

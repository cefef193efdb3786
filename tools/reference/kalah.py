"""Kalah by hand: fourteen counts of seeds, P0 to move first.

The board is one list in sowing order (counter-clockwise): P0's pits a1 … a6
(0 … 5), P0's store (6), P1's pits b1 … b6 (7 … 12), P1's store (13); the
pit across from pit i is 12 - i. The same decisions as rulebooks/kalah.rules:
the player to move empties one of their non-empty pits (a1 … a6 or b1 …
b6, in that order) and sows; a last seed in their own store gives them
the next move.
"""

from __future__ import annotations

PLAYERS = (2,)
SEEDS_PER_PIT = 4
NAMES = [f"a{k}" for k in range(1, 7)] + ["a_store"] + [f"b{k}" for k in range(1, 7)] + ["b_store"]
STORE = (6, 13)


class State:
    __slots__ = ("board", "mover", "over")

    def __init__(self):
        self.board = [SEEDS_PER_PIT] * 6 + [0] + [SEEDS_PER_PIT] * 6 + [0]
        self.mover = 0
        self.over = False


def new_game(players: int, seed: int) -> State:
    if players not in PLAYERS:
        raise ValueError("Kalah is for 2 players")
    return State()


def current_player(state) -> int:
    return state.mover


def legal_moves(state) -> list:
    if state.over:
        return []
    first = 7 * state.mover
    return [i for i in range(first, first + 6) if state.board[i] > 0]


def apply(state, move) -> None:
    board, p = state.board, state.mover
    own, skip = STORE[p], STORE[1 - p]
    seeds, board[move] = board[move], 0
    i = move
    while seeds:
        i = (i + 1) % 14
        if i == skip:
            continue
        board[i] += 1
        seeds -= 1
    if i != own and 7 * p <= i < 7 * p + 6 and board[i] == 1 and board[12 - i] > 0:
        board[own] += board[12 - i] + 1
        board[i] = board[12 - i] = 0
    if not any(board[0:6]) or not any(board[7:13]):
        for side in (0, 1):
            first = 7 * side
            board[STORE[side]] += sum(board[first:first + 6])
            board[first:first + 6] = [0] * 6
        state.over = True
    elif i != own:
        state.mover = 1 - p


def is_over(state) -> bool:
    return state.over


def scores(state) -> list:
    return [state.board[6], state.board[13]]


def move_text(state, move) -> str:
    return f"sow {NAMES[move]}"

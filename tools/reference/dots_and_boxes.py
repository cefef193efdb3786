"""Dots and Boxes by hand: 60 lines around 25 boxes, P0 to draw first.

Spots are named as rulebooks/dots-and-boxes.rules names them, on a paper of
11 x 11 spots: a dot where x and y are both even, a box where both are odd,
a line on every other spot. A spot (x, y) is the number 11 * x + y. The same
decisions as the rulebook: the player to move draws one of the lines not yet
drawn; a line that completes a box (one, or the two beside it) gives that
player the box and the next move as well, else the other player moves. The
game is over when every line is drawn; the scores are the boxes of each.
"""

from __future__ import annotations

PLAYERS = (2,)
SIZE = 11
LINES = tuple(SIZE * x + y for x in range(SIZE) for y in range(SIZE) if (x + y) % 2 == 1)
TEXT = {spot: f"draw ({spot // SIZE},{spot % SIZE})" for spot in LINES}


def _beside(spot: int) -> tuple:
    """The boxes a line borders: the spots next to it with both coordinates odd."""
    x, y = divmod(spot, SIZE)
    return tuple(SIZE * i + j for i, j in ((x, y + 1), (x + 1, y), (x, y - 1), (x - 1, y))
                 if 0 <= i < SIZE and 0 <= j < SIZE and i % 2 == 1 and j % 2 == 1)


BESIDE = {spot: _beside(spot) for spot in LINES}


class State:
    __slots__ = ("undrawn", "place", "sides", "boxes", "mover")

    def __init__(self):
        self.undrawn = list(LINES)                           # the lines still to draw
        self.place = {spot: i for i, spot in enumerate(LINES)}   # where each is in undrawn
        self.sides = [0] * (SIZE * SIZE)                     # each box's sides drawn
        self.boxes = [0, 0]                                  # boxes completed by each player
        self.mover = 0


def new_game(players: int, seed: int) -> State:
    if players not in PLAYERS:
        raise ValueError("Dots and Boxes is for 2 players")
    return State()


def current_player(state) -> int:
    return state.mover


def legal_moves(state) -> list:
    return state.undrawn[:]


def apply(state, move) -> None:
    undrawn, place = state.undrawn, state.place
    i, last = place.pop(move), undrawn.pop()     # the last line takes the drawn one's place
    if last != move:
        undrawn[i] = last
        place[last] = i
    sides, completed = state.sides, 0
    for box in BESIDE[move]:
        sides[box] += 1
        if sides[box] == 4:
            completed += 1
    if completed:
        state.boxes[state.mover] += completed
    else:
        state.mover = 1 - state.mover


def is_over(state) -> bool:
    return not state.undrawn


def scores(state) -> list:
    return list(state.boxes)


def move_text(state, move) -> str:
    return TEXT[move]

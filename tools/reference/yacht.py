"""Yacht for two players in plain Python: the rules of rulebooks/yacht.rules,
as the benchmark's hand-written reference (contract in README.md beside this
file).

The dice are a sorted tuple of five faces. A move is a number: a re-roll is
the number the rulebook's text names, the faces of the dice to roll again,
lowest first (225: a 2, a 2 and the 5); scoring box k (1 ones … 6 sixes,
7 full house, 8 four of a kind, 9 little straight, 10 big straight,
11 choice, 12 yacht) is -k. What the dice score and which re-rolls they
allow depend on the 252 sorted rolls alone, so both are worked out once per
roll and kept.

The dice are rolled by `State.roll(k)`, which returns k faces: by default
`random.Random(seed)`'s, and any other function of that shape in its place
(the tests hand in the engine's own draws), at no cost to the default.
"""

from __future__ import annotations

import random
from functools import lru_cache

PLAYERS = (2,)
ROUNDS = 12
ROLLS_PER_TURN = 3
FACES = (1, 2, 3, 4, 5, 6)
BOXES = ("ones", "twos", "threes", "fours", "fives", "sixes", "full_house", "four_of_a_kind",
         "little_straight", "big_straight", "choice", "yacht")
SCORE_MOVES = tuple(-k for k in range(1, len(BOXES) + 1))
SCORE_TEXT = {-k: f"score {name}" for k, name in enumerate(BOXES, 1)}


@lru_cache(maxsize=None)
def rerolls(dice: tuple) -> dict:
    """The re-rolls of sorted dice, in the rulebook's order: the number each
    names -> the dice it keeps. Way 1 … 31 picks die i (0 = the lowest) when
    its bit 4 - i is set; equal faces make equal numbers, kept once."""
    found: dict = {}
    for way in range(1, 32):
        named, kept = 0, []
        for i, face in enumerate(dice):
            if way >> (4 - i) & 1:
                named = named * 10 + face
            else:
                kept.append(face)
        found.setdefault(named, tuple(kept))
    return found


@lru_cache(maxsize=None)
def points(dice: tuple) -> tuple:
    """What sorted dice score in each box, ones first; 0 where they do not
    fit. Five of a kind is no full house but counts four dice as four of a kind."""
    counts = [dice.count(face) for face in range(7)]
    alike = sorted((c for c in counts if c), reverse=True)
    total = sum(dice)
    four = next((face for face in FACES if counts[face] >= 4), 0)
    straight = alike == [1, 1, 1, 1, 1]
    return tuple(face * counts[face] for face in FACES) + (
        total if alike == [3, 2] else 0,
        4 * four,
        30 if straight and not counts[6] else 0,
        30 if straight and not counts[1] else 0,
        total,
        50 if alike == [5] else 0,
    )


class State:
    """One game, changed in place. `roll(k)` gives k faces; `dice`, when
    given, is the first roll instead of five faces from `roll`."""

    __slots__ = ("roll", "dice", "rolls", "player", "round", "open", "totals", "over")

    def __init__(self, roll, dice=None):
        self.roll = roll
        self.dice = tuple(sorted(roll(5) if dice is None else dice))
        self.rolls = 1                  # rolls made in this turn
        self.player = 0
        self.round = 1
        self.open = [list(SCORE_MOVES), list(SCORE_MOVES)]     # each player's empty boxes
        self.totals = [0, 0]
        self.over = False


def new_game(players: int, seed: int) -> State:
    if players not in PLAYERS:
        raise ValueError("Yacht is for 2 players")
    choices = random.Random(seed).choices
    return State(lambda k: choices(FACES, k=k))


def current_player(state) -> int:
    return state.player


def legal_moves(state) -> list:
    if state.over:
        return []
    if state.rolls < ROLLS_PER_TURN:
        return [*rerolls(state.dice), *state.open[state.player]]
    return state.open[state.player][:]


def apply(state, move) -> None:
    if move > 0:
        kept = rerolls(state.dice)[move]
        state.dice = tuple(sorted((*kept, *state.roll(5 - len(kept)))))
        state.rolls += 1
        return
    p = state.player
    state.open[p].remove(move)
    state.totals[p] += points(state.dice)[-1 - move]
    if p == 1:
        if state.round == ROUNDS:
            state.over = True
            return
        state.round += 1
    state.player = 1 - p
    state.dice = tuple(sorted(state.roll(5)))
    state.rolls = 1


def is_over(state) -> bool:
    return state.over


def scores(state) -> list:
    return list(state.totals)


def move_text(state, move) -> str:
    return f"reroll {move}" if move > 0 else SCORE_TEXT[move]

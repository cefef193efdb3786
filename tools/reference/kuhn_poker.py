"""Kuhn poker for two players as plain Python (rulebooks/kuhn-poker.rules).

Cards are their ranks, 1 (jack) to 3 (king); a move is the action's word.
"""

from __future__ import annotations

import random

PLAYERS = (2,)

ANTE = 1
BET = 1
NAMES = {1: "J", 2: "Q", 3: "K"}


class State:
    def __init__(self, cards):
        self.cards = list(cards)          # the rank each seat holds
        self.history = []                 # the moves so far
        self.chips = [-ANTE, -ANTE]       # won, less put in
        self.pot = 2 * ANTE
        self.over = False


def new_game(players: int, seed: int) -> State:
    deck = [1, 2, 3]
    random.Random(seed).shuffle(deck)
    return State(deck[:players])


def current_player(state: State) -> int:
    return 1 if len(state.history) == 1 else 0


def legal_moves(state: State) -> list:
    if state.history and state.history[-1] == "bet":
        return ["fold", "call"]
    return ["check", "bet"]


def apply(state: State, move) -> None:
    player = current_player(state)
    state.history.append(move)
    if move in ("bet", "call"):
        state.chips[player] -= BET
        state.pot += BET
    if move == "fold":
        winner = 1 - player
    elif move == "call" or state.history == ["check", "check"]:
        winner = 0 if state.cards[0] > state.cards[1] else 1
    else:
        return
    state.chips[winner] += state.pot
    state.pot = 0
    state.over = True


def is_over(state: State) -> bool:
    return state.over


def scores(state: State) -> list:
    return list(state.chips)


def move_text(state: State, move) -> str:
    return move

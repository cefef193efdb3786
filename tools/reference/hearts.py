"""Hearts, one hand for four players, as plain Python (rulebooks/hearts.rules).

A card is a number 0 … 51 in the rulebook's table order: clubs, diamonds,
spades, hearts, each from the two to the ace, so `card // 13` is its suit and
`card % 13` its rank from the two up. The pass is the rulebook's simultaneous
choice, asked of the players still to choose lowest seat first, as the
engine's `to_move` lists them; the cards change hands once all have chosen.
"""

from __future__ import annotations

import itertools
import random

PLAYERS = (4,)

HAND_SIZE = 13
PASSED = 3
CLUBS, DIAMONDS, SPADES, HEARTS = range(4)
TWO_OF_CLUBS = 0
QUEEN_OF_SPADES = SPADES * 13 + 10
ALL_POINTS = 26
NAMES = tuple(s + r for s in "CDSH"
              for r in ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"))


class State:
    def __init__(self, hands):
        self.hands = [set(h) for h in hands]     # what each seat holds
        self.passes = [None] * 4                  # the cards each seat passes, once chosen
        self.passing = True
        self.leader = None
        self.to_play = None                       # the seat to play next in a trick
        self.trick = []                           # (seat, card), the lead first
        self.hearts_broken = False
        self.points = [0, 0, 0, 0]                # points in the tricks each seat took
        self.tricks_done = 0


def new_game(players: int, seed: int) -> State:
    deck = list(range(52))
    random.Random(seed).shuffle(deck)
    return State([deck[HAND_SIZE * p:HAND_SIZE * (p + 1)] for p in range(players)])


def current_player(state: State) -> int:
    if state.passing:
        return state.passes.index(None)
    return state.to_play


def legal_moves(state: State) -> list:
    hand = state.hands[current_player(state)]
    if state.passing:
        return list(itertools.combinations(sorted(hand), PASSED))
    if state.trick:
        led = state.trick[0][1] // 13
        follow = [c for c in hand if c // 13 == led]
        return follow or list(hand)
    if state.tricks_done == 0:
        return [TWO_OF_CLUBS]
    if state.hearts_broken:
        return list(hand)
    return [c for c in hand if c // 13 != HEARTS] or list(hand)


def apply(state: State, move) -> None:
    player = current_player(state)
    if state.passing:
        state.passes[player] = move
        if None not in state.passes:
            for p, cards in enumerate(state.passes):
                state.hands[p].difference_update(cards)
            for p, cards in enumerate(state.passes):
                state.hands[(p + 1) % 4].update(cards)
            state.passing = False
            state.leader = next(p for p in range(4) if TWO_OF_CLUBS in state.hands[p])
            state.to_play = state.leader
        return
    state.hands[player].remove(move)
    state.trick.append((player, move))
    if len(state.trick) < 4:
        state.to_play = (player + 1) % 4
        return
    led = state.trick[0][1] // 13
    winner, best = state.trick[0]
    points = 0
    for seat, card in state.trick:
        if card // 13 == led and card > best:
            winner, best = seat, card
        if card // 13 == HEARTS:
            points += 1
            state.hearts_broken = True
        elif card == QUEEN_OF_SPADES:
            points += 13
    state.points[winner] += points
    state.trick = []
    state.tricks_done += 1
    state.leader = state.to_play = winner


def is_over(state: State) -> bool:
    return state.tricks_done == HAND_SIZE


def scores(state: State) -> list:
    if ALL_POINTS in state.points:
        return [0 if p == ALL_POINTS else ALL_POINTS for p in state.points]
    return list(state.points)


def move_text(state: State, move) -> str:
    if state.passing:
        return "pass_left " + " ".join(NAMES[c] for c in move)
    return "play " + NAMES[move]

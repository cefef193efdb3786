"""Hanamikoji for two players in plain Python: the rules of
rulebooks/hanamikoji.rules with its default options, as the benchmark's
hand-written reference (contract in README.md beside this file).

A card is its geisha's number 0..6 (G1..G7). A move is a tuple:
``("secret", (g,))``, ``("trade_off", (g, g))``, ``("gift", (g, g, g))``,
``("competition", ((g, g), (g, g)))`` and the opponent's answer
``("take", cards)``, cards being one card of a gift or one pair of a
competition.
"""

from __future__ import annotations

import random
from itertools import combinations

PLAYERS = (2,)

CHARM = (2, 2, 2, 3, 3, 4, 5)
NAMES = ("G1", "G2", "G3", "G4", "G5", "G6", "G7")
# every item card, as the rulebook collects them before each shuffle
ALL_CARDS = tuple(g for g in range(7) for _ in range(CHARM[g]))
HAND_SIZE = 6
TURNS_EACH = 4
CHARM_TO_WIN = 11
GEISHA_TO_WIN = 4


class State:
    """One game, changed in place. `rng` is anything with a `shuffle(list)`;
    each round shuffles all 21 cards with it."""

    __slots__ = ("rng", "start", "deck", "hands", "sides", "secret", "used", "favour",
                 "turn", "offer", "over")

    def __init__(self, start: int, rng):
        self.rng = rng
        self.start = start          # the start player of the round
        self.deck: list = []        # top last
        self.hands = [[], []]       # sorted lists of cards
        self.sides = [[0] * 7, [0] * 7]
        self.secret = [None, None]
        self.used = [set(), set()]
        self.favour = [None] * 7    # which player's side each geisha's marker is on
        self.turn = 0               # turns played this round, 0..8
        self.offer = None           # (giver, options, offered cards) while the opponent chooses
        self.over = False

    def begin_round(self, deck=None) -> None:
        """Deals a round from `deck` (bottom first), by default all cards shuffled."""
        if deck is None:
            deck = list(ALL_CARDS)
            self.rng.shuffle(deck)
        self.deck = deck
        deck.pop()                  # the removed card: out of the round, unseen
        for p in (0, 1):
            self.hands[p] = sorted(deck.pop() for _ in range(HAND_SIZE))
        self.sides = [[0] * 7, [0] * 7]
        self.secret = [None, None]
        self.used = [set(), set()]
        self.turn = 0
        self.offer = None
        self._draw()

    def _draw(self) -> None:
        hand = self.hands[self.active()]
        hand.append(self.deck.pop())
        hand.sort()

    def active(self) -> int:
        return self.start ^ (self.turn & 1)

    def end_turn(self) -> None:
        self.turn += 1
        if self.turn < 2 * TURNS_EACH:
            self._draw()
        else:
            self.score_round()

    def score_round(self) -> None:
        for p in (0, 1):
            self.sides[p][self.secret[p]] += 1
        a, b = self.sides
        for g in range(7):
            if a[g] > b[g]:
                self.favour[g] = 0
            elif b[g] > a[g]:
                self.favour[g] = 1
        for p in (0, 1):
            if charm(self, p) >= CHARM_TO_WIN or self.favour.count(p) >= GEISHA_TO_WIN:
                self.over = True
                return
        # the second player of this round starts the next
        self.start ^= 1
        self.begin_round()


def charm(state: State, p: int) -> int:
    return sum(CHARM[g] for g in range(7) if state.favour[g] == p)


def new_game(players: int, seed: int) -> State:
    if players != 2:
        raise ValueError("Hanamikoji is for 2 players")
    rng = random.Random(seed)
    state = State(rng.randrange(2), rng)
    state.begin_round()
    return state


def current_player(state: State) -> int:
    if state.offer is not None:
        return 1 - state.offer[0]
    return state.active()


def _distinct(hand: list, k: int) -> list:
    # the hand is sorted, so equal cards give equal tuples
    return list(dict.fromkeys(combinations(hand, k)))


def legal_moves(state: State) -> list:
    if state.offer is not None:
        return [("take", c) for c in state.offer[1]]
    p = state.active()
    hand, used = state.hands[p], state.used[p]
    moves = []
    if "secret" not in used:
        moves += [("secret", c) for c in _distinct(hand, 1)]
    if "trade_off" not in used and len(hand) >= 2:
        moves += [("trade_off", c) for c in _distinct(hand, 2)]
    if "gift" not in used and len(hand) >= 3:
        moves += [("gift", c) for c in _distinct(hand, 3)]
    if "competition" not in used and len(hand) >= 4:
        splits = {}
        for a, b, c, d in _distinct(hand, 4):
            for pairs in (((a, b), (c, d)), ((a, c), (b, d)), ((a, d), (b, c))):
                splits[tuple(sorted(pairs))] = None
        moves += [("competition", s) for s in splits]
    return moves


def apply(state: State, move) -> None:
    kind, cards = move
    if kind == "take":
        giver, _, offered = state.offer
        taker = 1 - giver
        for c in cards:
            state.sides[taker][c] += 1
        rest = list(offered)
        for c in cards:
            rest.remove(c)
        for c in rest:
            state.sides[giver][c] += 1
        state.offer = None
        state.end_turn()
        return
    p = state.active()
    hand = state.hands[p]
    state.used[p].add(kind)
    if kind == "competition":
        flat = cards[0] + cards[1]
        for c in flat:
            hand.remove(c)
        # two equal pairs are one option for the opponent
        state.offer = (p, list(dict.fromkeys(cards)), flat)
        return
    for c in cards:
        hand.remove(c)
    if kind == "secret":
        state.secret[p] = cards[0]
    elif kind == "gift":
        state.offer = (p, [(c,) for c in dict.fromkeys(cards)], cards)
        return
    state.end_turn()


def is_over(state: State) -> bool:
    return state.over


def scores(state: State) -> list:
    return [charm(state, 0), charm(state, 1)]


def move_text(state: State, move) -> str:
    kind, cards = move
    if kind == "competition":
        return "competition " + " | ".join(" ".join(NAMES[c] for c in pair) for pair in cards)
    return kind + " " + " ".join(NAMES[c] for c in cards)

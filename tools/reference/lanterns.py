"""Lanterns: The Harvest Festival for 2 to 4 players in plain Python: the
rules of rulebooks/lanterns.rules with rulebooks/lanterns.yaml and the
default options, as the benchmark's hand-written reference (contract in
README.md beside this file).

A colour is its index in the data file's colour list, a cell one integer
(see `cell`), a tile its id. The moves of each kind of decision:
``("exchange", give, take)``, ``("dedicate", kind, colours)``,
``("discards", colours)``, ``("place", tile, cell, turns)`` and ``PASS``.
"""

from __future__ import annotations

import random
from itertools import combinations
from pathlib import Path

import yaml

PLAYERS = (2, 3, 4)

_DATA = yaml.safe_load((Path(__file__).resolve().parent.parent.parent
                        / "rulebooks" / "lanterns.yaml").read_text())
COLOURS = tuple(_DATA["colours"])
_INDEX = {name: k for k, name in enumerate(COLOURS)}
START_TILE = _DATA["start_tile"]["id"]
START_SIDES = tuple(_INDEX[c] for c in _DATA["start_tile"]["sides_cw"])
SIDES = {t["id"]: tuple(_INDEX[c] for c in t["sides_cw"]) for t in _DATA["lake_tiles"]}
PLATFORM = {t["id"]: t["platform"] for t in _DATA["lake_tiles"]}
PLATFORM[START_TILE] = _DATA["start_tile"]["platform"]
TILE_IDS = tuple(t["id"] for t in _DATA["lake_tiles"])
# dedication kinds: (name, colours, cards of each colour, token values bottom to top, dots)
DEDICATIONS = tuple((name, d["set"]["distinct_colours"], d["set"]["cards_per_colour"],
                     [(t["value"], t["dots"]) for t in reversed(d["tokens"])])
                    for name, d in _DATA["dedications"].items())
GREY_VALUE = _DATA["generic_tokens"]["value"]
FAVOUR_TOKENS = _DATA["favour_tokens"]
PER_COLOUR = {n: row["lantern_cards_per_colour"] for n, row in _DATA["by_players"].items()}
TILES_USED = {n: row["lake_tiles_used"] for n, row in _DATA["by_players"].items()}
HAND_TILES = 3
HAND_LIMIT = 12
EXCHANGE_COST = 2
# the rulebook's choices for the seats and for the tokens kept by player count
MAX_DOTS = {2: 0, 3: 3, 4: 4}
SEATS = {2: (0, 2), 3: (0, 1, 2), 4: (0, 1, 2, 3)}    # the direction each seat faces

# a cell packs (x, y); a step in direction 0 north (y + 1), 1 east, 2 south, 3 west
_BASE, _OFFSET = 256, 128
STEPS = (1, _BASE, -1, -_BASE)
PASS = ("pass",)
EXCHANGE, DEDICATE, DISCARDS, PLACE = range(4)
_END_TURN = 4


def cell(x: int, y: int) -> int:
    return (x + _OFFSET) * _BASE + y + _OFFSET


def cell_text(c: int) -> str:
    return f"({c // _BASE - _OFFSET},{c % _BASE - _OFFSET})"


class State:
    """One game, changed in place, from the start player and the tiles in
    play (bottom first) to the first decision."""

    def __init__(self, players: int, start: int, tiles: list):
        n = self.n = players
        self.start = start
        self.order = [(start + i) % n for i in range(n)]
        self.facing = [SEATS[n][(p - start) % n] for p in range(n)]
        self.supply = [PER_COLOUR[n]] * len(COLOURS)
        self.cards = [[0] * len(COLOURS) for _ in range(n)]
        self.favour = [0] * n
        self.favour_supply = FAVOUR_TOKENS
        self.grey = [0] * n
        self.won = [0] * n
        self.stacks = [[v for v, dots in tokens if dots <= MAX_DOTS[n]]
                       for _, _, _, tokens in DEDICATIONS]
        self.tile_stack = tiles                       # top last
        self.hands = [[] for _ in range(n)]
        origin = cell(0, 0)
        # cell -> (the colours it shows north, east, south and west, platform)
        self.lake = {origin: (START_SIDES, PLATFORM[START_TILE])}
        self.open = {origin + step for step in STEPS}
        self.final = False                            # the last turns, without a placement
        self.over = False
        self.k = 0                                    # the turn's player is order[k]
        self.step = EXCHANGE                          # the step of the turn to come next
        for p in self.order:
            for _ in range(HAND_TILES):
                self.hands[p].append(tiles.pop())
            self._give(p, START_SIDES[self.facing[p]])
        self._advance()

    def _give(self, p: int, colour: int) -> None:
        # a card due from an empty supply stack is not received
        if self.supply[colour]:
            self.supply[colour] -= 1
            self.cards[p][colour] += 1

    def can_dedicate(self, p: int) -> bool:
        cards = self.cards[p]
        return any(sum(1 for x in cards if x >= each) >= kinds
                   for _, kinds, each, _ in DEDICATIONS)

    def _advance(self) -> None:
        """Goes on to the next decision: the steps of a turn that do not apply
        are skipped, and the turn after the last step begins."""
        while True:
            p = self.order[self.k]
            step = self.step
            if step == EXCHANGE:
                if self.favour[p] >= EXCHANGE_COST:
                    return
                self.step = DEDICATE
            elif step == DEDICATE:
                if self.can_dedicate(p):
                    return
                self.step = _END_TURN if self.final else DISCARDS
            elif step == DISCARDS:
                if sum(self.cards[p]) > HAND_LIMIT:
                    return
                self.step = PLACE
            elif step == PLACE:
                return
            else:
                self.k += 1
                self.step = EXCHANGE
                if self.k == self.n:
                    self.k = 0
                    if self.final:
                        self.over = True
                        return
                    # the play goes round by round until every hand is empty
                    if not any(self.hands):
                        self.final = True


def new_game(players: int, seed: int) -> State:
    rng = random.Random(seed)
    tiles = list(TILE_IDS)
    rng.shuffle(tiles)
    del tiles[TILES_USED[players]:]                  # the top ones are left out, unseen
    return State(players, rng.randrange(players), tiles)


def current_player(state: State) -> int:
    return state.order[state.k]


def _multisets(counts: list, k: int, first: int = 0):
    """Every distinct choice of k cards from counts per colour, colours in order."""
    if k == 0:
        yield ()
        return
    for c in range(first, len(counts)):
        if counts[c]:
            counts[c] -= 1
            for rest in _multisets(counts, k - 1, c):
                yield (c,) + rest
            counts[c] += 1


def legal_moves(state: State) -> list:
    p = state.order[state.k]
    step = state.step
    cards = state.cards[p]
    if step == PLACE:
        return [("place", t, c, r) for t in state.hands[p] for c in state.open for r in range(4)]
    if step == EXCHANGE:
        supply = state.supply
        moves = [("exchange", give, take) for give in range(len(COLOURS)) if cards[give]
                 for take in range(len(COLOURS)) if take != give and supply[take]]
        moves.append(PASS)
        return moves
    if step == DEDICATE:
        moves = []
        for kind, (_, kinds, each, _) in enumerate(DEDICATIONS):
            eligible = [c for c in range(len(COLOURS)) if cards[c] >= each]
            moves += [("dedicate", kind, paid) for paid in combinations(eligible, kinds)]
        moves.append(PASS)
        return moves
    return [("discards", d) for d in _multisets(cards, sum(cards) - HAND_LIMIT)]


def apply(state: State, move) -> None:
    p = state.order[state.k]
    cards, supply = state.cards[p], state.supply
    kind = move[0]
    if kind == "place":
        _place(state, p, move[1], move[2], move[3])
        state.step = _END_TURN
    elif kind == "exchange":
        state.favour[p] -= EXCHANGE_COST
        state.favour_supply += EXCHANGE_COST
        cards[move[1]] -= 1
        supply[move[1]] += 1
        state._give(p, move[2])
        state.step = DEDICATE
    elif kind == "dedicate":
        _, kinds, each, _ = DEDICATIONS[move[1]]
        for c in move[2]:
            cards[c] -= each
            supply[c] += each
        stack = state.stacks[move[1]]
        if stack:
            state.won[p] += stack.pop()
        else:
            state.grey[p] += 1
        state.step = _END_TURN if state.final else DISCARDS
    elif kind == "discards":
        for c in move[1]:
            cards[c] -= 1
            supply[c] += 1
        state.step = PLACE
    else:       # a pass
        state.step += 1
        if state.step == DISCARDS and state.final:
            state.step = _END_TURN
    state._advance()


def _place(state: State, p: int, tile: int, at: int, turns: int) -> None:
    state.hands[p].remove(tile)
    sides = SIDES[tile]
    show = tuple(sides[(d - turns) % 4] for d in range(4))
    platform = PLATFORM[tile]
    lake = state.lake
    lake[at] = (show, platform)
    state.open.discard(at)
    bonus = []
    due = 0
    for d in range(4):
        there = lake.get(at + STEPS[d])
        if there is None:
            state.open.add(at + STEPS[d])
        elif there[0][(d + 2) % 4] == show[d]:
            bonus.append(show[d])
            due += there[1]
    for colour in bonus:
        state._give(p, colour)
    if bonus:
        # favour only with a match; what is left when the supply is short
        got = min(due + platform, state.favour_supply)
        state.favour[p] += got
        state.favour_supply -= got
    n = state.n
    for i in range(n):
        q = (p + i) % n
        state._give(q, show[state.facing[q]])
    hand = state.hands[p]
    while len(hand) < HAND_TILES and state.tile_stack:
        hand.append(state.tile_stack.pop())


def is_over(state: State) -> bool:
    return state.over


def scores(state: State) -> list:
    return [state.won[p] + GREY_VALUE * state.grey[p] for p in range(state.n)]


def move_text(state: State, move) -> str:
    kind = move[0]
    if kind == "place":
        return f"place {move[1]}, {cell_text(move[2])}, {move[3]}"
    if kind == "exchange":
        return f"exchange {COLOURS[move[1]]}, {COLOURS[move[2]]}"
    if kind == "dedicate":
        name, _, each, _ = DEDICATIONS[move[1]]
        return f"dedicate {name}, " + " ".join(COLOURS[c] for c in move[2] for _ in range(each))
    if kind == "discards":
        return "discards " + " ".join(COLOURS[c] for c in move[1])
    return "pass"

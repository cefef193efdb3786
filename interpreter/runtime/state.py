"""The game state: everything that changes during a game, and nothing else.

Zones (lists of component ids, the top of an ordered zone last), where each
component is, the variable slots (game, per-player and per-component values,
action-use counters, the round/turn counters), which cards are revealed and
to whom (per component a set of seats, as bits: `everyone` is all of them), the
flow position (a stack of frames: block, step, local names, loop data), the
random generator's state and the players who must decide now (and, in a
game whose draws are chance nodes, the chance outcomes decided for the
statement under way: runtime/chance.py). The engine
object holds none of this, so copies, undo, saves and replays agree by
construction. A state is plain data: it saves to JSON and loads back equal
(`saved.state_from_data` is the way back, every field checked).
"""

from __future__ import annotations

import json


_MASK = (1 << 64) - 1


def splitmix64(x: int) -> tuple[int, int]:
    """One step of SplitMix64: (next state, 64-bit output). Portable and fast
    enough in pure Python; its whole state is one integer kept in the game state."""
    x = (x + 0x9E3779B97F4A7C15) & _MASK
    z = x
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return x, z ^ (z >> 31)


class State:
    """One moment of one game. Treat as immutable: the engine copies before it
    changes anything (`Game.apply` never touches its input)."""

    __slots__ = ("n", "zones", "loc", "vars", "revealed", "frames", "rng",
                 "decisions", "pending", "over", "round", "turn", "events", "cache", "shared", "lent",
                 "memo", "chance", "ended")

    def __init__(self, n, zones, loc, vars_, revealed, frames, rng, decisions=0,
                 pending=(), over=False, round_=0, turn=0, events=None, chance=None):
        self.n = n
        self.zones = zones
        self.loc = loc
        self.vars = vars_
        self.revealed = revealed
        self.frames = frames
        self.rng = rng
        self.decisions = decisions
        self.pending = pending
        self.over = over
        self.round = round_   # rounds begun ('new round')
        self.turn = turn      # turns begun ('turn P')
        # public events of the last transition (cards revealed on the way),
        # so a player sees what was shown even if the rules moved on at once
        self.events = events if events is not None else []
        self.cache = None     # legal-action bindings, a finished game's outcome; derived, never saved
        # while legal actions are listed (the state cannot change): the values
        # of define calls, by define and arguments (see optimise.memoized)
        self.memo = None
        # the board (zones, loc, revealed) is shared with another state (a
        # successor, or the state this one succeeds) until changed
        self.shared = False
        # once changed (`own_board`), the zones of the state it came from: a
        # zone whose list is still that state's is copied before it changes
        # (`zone_to_change`); None when every zone is this state's
        self.lent = None
        # None: the rules draw from `rng`; a `chance.Chance`: every draw is a
        # chance node (`Game.new_game(chance=True)`)
        self.chance = chance
        # the place (line, column) of the `end game` that ended the game,
        # None while it goes on or when its flow ran out; for reports of
        # how games end (it changes nothing the rules see, and is not saved)
        self.ended = None

    # -- the generator -------------------------------------------------------
    def randbelow(self, k: int) -> int:
        """A uniform integer in [0, k) from the state's own generator."""
        self.rng, out = splitmix64(self.rng)
        return (out * k) >> 64

    def shuffle(self, items: list) -> None:
        """Fisher-Yates with `randbelow` (SplitMix64 written out in the loop:
        the same draws, without a call per card)."""
        x = self.rng
        for i in range(len(items) - 1, 0, -1):
            x = (x + 0x9E3779B97F4A7C15) & _MASK
            z = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
            j = ((z ^ (z >> 31)) * (i + 1)) >> 64
            items[i], items[j] = items[j], items[i]
        self.rng = x

    # -- who sees a revealed piece --------------------------------------------
    @property
    def everyone(self) -> int:
        """The seats of this game as bits: a piece revealed to everyone."""
        return (1 << self.n) - 1

    def sees(self, c: int, viewer) -> bool:
        """Whether `viewer` (a seat, or None: a spectator, who sees what every
        player sees) was shown piece c where it lies (`reveal`, `reveal … to`)."""
        shown = self.revealed[c]
        if viewer is None:
            return shown == self.everyone
        return (shown >> viewer) & 1 == 1

    # -- copying -------------------------------------------------------------
    def copy(self, events: bool = True) -> "State":
        """An independent copy; without `events` the copy starts with none
        (what `Game.apply` wants: events belong to one transition)."""
        s = self._next()
        s.own_board(every_zone=True)
        if events and self.events:
            s.events = [dict(e) for e in self.events]
        return s

    def successor(self) -> "State":
        """The copy `Game.apply` changes: it starts with no events and shares
        the board (zones, component places, revealed cards) with this state
        until a statement changes the board (`own_board`), and each zone
        until a statement changes that zone (`zone_to_change`); many
        decisions move no card, most move a card or two. Everything else is
        copied. This state then shares its board too: changed in place
        (`Game.advance`), it copies before it changes, as the successor does."""
        self.shared = True
        return self._next()

    def _next(self) -> "State":
        """A state with this one's values, sharing its board, with no events."""
        s = _new_state(State)
        s.n = self.n
        s.zones, s.loc, s.revealed, s.shared = self.zones, self.loc, self.revealed, True
        s.lent = None
        s.vars = self.vars[:]
        s.frames = [[f[0], f[1], f[2].copy(), f[3]] for f in self.frames]
        s.rng = self.rng
        s.decisions = self.decisions
        s.pending = self.pending
        s.over = self.over
        s.round = self.round
        s.turn = self.turn
        s.events = []
        s.cache = None
        s.memo = None
        c = self.chance
        s.chance = None if c is None else c.copy()
        s.ended = self.ended
        return s

    def own_board(self, every_zone: bool = False) -> None:
        """Gives a state whose board is shared (`successor`) a board of its
        own, before a change: the places of the components and the revealed
        cards, and the list of zones, whose zones stay the other state's
        until one changes (`zone_to_change`); with `every_zone`, each zone
        too (a statement that moves whole zones about)."""
        if every_zone:
            self.zones = list(map(list.copy, self.zones))
            self.lent = None
        elif self.shared:
            self.lent = self.zones
            self.zones = self.zones[:]
        if self.shared:
            self.loc = self.loc[:]
            self.revealed = self.revealed[:]
            self.shared = False

    def zone_to_change(self, i: int) -> list:
        """Zone `i` as this state's own list, before a statement changes it
        (after `own_board`)."""
        z = self.zones[i]
        lent = self.lent
        if lent is not None and z is lent[i]:
            z = self.zones[i] = z[:]
        return z

    # -- counters the API exposes --------------------------------------------
    @property
    def players(self) -> int:
        return self.n

    # -- plain data ----------------------------------------------------------
    def to_data(self) -> dict:
        data = {
            "players": self.n,
            "zones": [list(z) for z in self.zones],
            "loc": list(self.loc),
            "vars": [_plain(v) for v in self.vars],
            "revealed": [revealed_data(r, self.n) for r in self.revealed],
            "frames": [[f[0], f[1], {k: _plain(v) for k, v in f[2].items()}, _plain(f[3])]
                       for f in self.frames],
            "rng": str(self.rng),
            "decisions": self.decisions,
            "pending": list(self.pending),
            "over": self.over,
            "round": self.round,
            "turn": self.turn,
            "events": [dict(e) for e in self.events],
        }
        if self.chance is not None:         # (a game in chance mode only)
            data["chance"] = self.chance.to_data()
        return data

    def __eq__(self, other) -> bool:
        if not isinstance(other, State):
            return NotImplemented
        return _canonical(self.to_data()) == _canonical(other.to_data())

    def __hash__(self):
        return hash(_canonical(self.to_data()))

    def __repr__(self) -> str:
        return f"<State players={self.n} decisions={self.decisions} pending={self.pending} over={self.over}>"


_new_state = object.__new__


def _plain(v):
    if isinstance(v, tuple):
        return [_plain(x) for x in v]
    if isinstance(v, list):
        return [_plain(x) for x in v]
    return v


def _canonical(data) -> str:
    return json.dumps(data, sort_keys=True, separators=(",", ":"))


def revealed_data(shown: int, n: int):
    """A piece's seats that see it, as a save holds them: yes (everyone), no
    (nobody), or the list of seats it was shown to."""
    if shown == 0:
        return False
    if shown == (1 << n) - 1:
        return True
    return [p for p in range(n) if (shown >> p) & 1]

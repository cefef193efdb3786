"""Chance nodes: the draws of a game in chance mode, decided one outcome at a time.

A game started with ``new_game(…, chance=True)`` never draws from its
generator. Where the rules would — a `shuffle`, a ``random(…)`` — the machine
stops before the statement at a *chance node*: the state's pending player is
`CHANCE`, and `node` lists what can come next, each `ChanceOutcome` with how
many of the equally likely draws give it. A shuffle is decided card by card
as the cards would be dealt, the top first: each step picks the next card
among those not placed yet, and cards that nothing in the state tells apart
(the same content, both revealed or both not, the same values of their own
variables) are one outcome with their summed probability. The zone takes its
new order once every position is decided; cards left that are all alike go
at once, so a shuffle of three cards is two chance steps. A ``random(C)`` is
one step over the values of C, equal values merged.

The outcomes decided so far for the statement under way are kept in the
state (`Chance.draws`), so a state at a chance node saves and loads like any
other. The machine runs the statement again from its start with every
outcome decided, each draw taking the next one (`Chance.at`), until the
statement needs one more (`ChanceNeeded`) or completes, which clears them.
Nothing a statement changes comes before its draws, so running it again is
safe; for the same reason the machine steps one statement at a time through
the compiled runs that draw (`Machine.run_chance`).
"""

from __future__ import annotations

from ..stdlib import grid
from ..stdlib.types import CELL, PLAYER, elem, is_comp

CHANCE = -1       # the player id of chance: `to_move` is (CHANCE,) at a chance node


class ChanceNeeded(Exception):
    """A draw of a game in chance mode that no outcome has decided yet. `at`
    is which draw of the statement it is; for a shuffle, `values` are the
    zone's cards, `placed` those decided (top first) and `zone` the zone;
    for a ``random(…)``, `values` the collection and `kind` its elements'."""

    def __init__(self, at: int, values: list, kind=None, zone=None, placed=()):
        super().__init__("a chance step is needed")
        self.at, self.values, self.kind, self.zone, self.placed = at, values, kind, zone, placed


class Chance:
    """The chance steps of one game in chance mode, kept in its state.

    `draws`: the outcomes decided for the statement under way, in the order
    its draws take them — an index into the collection of a ``random(…)``,
    the cards placed so far (top first) of a shuffle; `at` is the next draw
    to take while the statement runs; `node` is the chance node where the
    machine stopped (derived from the rest, never saved)."""

    __slots__ = ("draws", "at", "node")

    def __init__(self, draws: list | None = None):
        self.draws = draws if draws is not None else []
        self.at = 0
        self.node = None

    def copy(self) -> "Chance":
        c = Chance([list(d) if type(d) is list else d for d in self.draws])
        c.node = self.node
        return c

    def to_data(self) -> dict:
        return {"draws": [list(d) if type(d) is list else d for d in self.draws]}

    def draw(self, values: list, kind) -> int:
        """The index in `values` (not empty) that a ``random(…)`` gives."""
        i = self.at
        self.at = i + 1
        if i < len(self.draws):
            k = self.draws[i]
            if type(k) is int and 0 <= k < len(values):
                return k
            raise ValueError(f"chance outcome {i + 1} of this step is not one of "
                             f"{len(values)} values")
        raise ChanceNeeded(i, values, kind)

    def order(self, cards: list, zone: int) -> list:
        """The new order (bottom first) of a shuffled zone holding `cards`,
        once every position has been decided."""
        i = self.at
        self.at = i + 1
        placed = self.draws[i] if i < len(self.draws) else []
        if type(placed) is not list:
            raise ValueError(f"chance outcome {i + 1} of this step is not an order of cards")
        if len(placed) >= len(cards):
            if sorted(placed) != sorted(cards):
                raise ValueError(f"chance outcome {i + 1} of this step is not an order "
                                 f"of the zone's cards")
            return placed[::-1]
        raise ChanceNeeded(i, cards, None, zone, placed)


class ChanceOutcome:
    """What chance gives at a chance node: `where` it happens — the shuffled
    zone as players read it (``deck``, ``hand(P1)``) or ``random`` — and
    `value`, the text of the card that comes next from the top, or of the
    value drawn. A small hashable value like `Action`; ``str()`` is its text,
    ``deck K`` or ``random P1``, which `Game.parse_chance` reads back."""

    __slots__ = ("where", "value")
    player = CHANCE
    name = "chance"
    args = ()

    def __init__(self, where: str, value: str):
        self.where, self.value = where, value

    def __str__(self) -> str:
        return f"{self.where} {self.value}"

    def text_for(self, viewer) -> str:
        """Nobody is told a chance outcome as such: what it gave shows in the
        state, as the zones' and variables' visibility allows."""
        return f"{self.where} ?"

    def __repr__(self) -> str:
        return f"ChanceOutcome({str(self)!r})"

    def __eq__(self, other) -> bool:
        return (type(other) is ChanceOutcome and self.where == other.where
                and self.value == other.value)

    def __hash__(self) -> int:
        return hash((CHANCE, self.where, self.value))


def node(lay, s, need: ChanceNeeded) -> tuple:
    """The chance node of a draw: ``(outcome, count, total, effect)`` for each
    outcome, `count` of the `total` equally likely draws giving it, and
    `effect` what `decide` records when it is taken."""
    groups: dict = {}       # key -> [what to record, count, text]
    if need.zone is None:
        kind, values = need.kind, need.values
        where, total = "random", len(values)
        for k, v in enumerate(values):
            key = value_key(v, kind, lay, s)
            group = groups.get(key)
            if group is None:
                groups[key] = [k, 1, value_text(v, kind, lay)]
            else:
                group[1] += 1
    else:
        placed = need.placed
        rest = set(need.values)
        if len(set(placed)) != len(placed) or not rest.issuperset(placed):
            raise ValueError("the cards placed by a shuffle's chance outcomes are not "
                             "different cards of its zone")
        rest.difference_update(placed)
        where, total = lay.place_name(need.zone), len(rest)
        for c in sorted(rest):
            key = card_key(c, lay, s)
            group = groups.get(key)
            if group is None:
                groups[key] = [[c], 1, lay.display[c]]
            else:
                group[1] += 1
                if len(groups) == 1:        # (cards all alike go at once)
                    group[0].append(c)
        if len(groups) > 1:
            for group in groups.values():
                del group[0][1:]
    out, texts = [], set()
    for pick, count, text in groups.values():
        shown, k = text, 1
        while shown in texts:            # alike to read, yet told apart by the state
            k += 1
            shown = f"{text}#{k}"
        texts.add(shown)
        out.append((ChanceOutcome(where, shown), count, total, (need.at, pick)))
    return tuple(out)


def decide(chance: Chance, effect) -> None:
    """Records a chance outcome (its `effect` in a `node`) as decided."""
    i, v = effect
    draws = chance.draws
    if type(v) is list:
        if i < len(draws):
            draws[i] = draws[i] + v
        else:
            draws.append(list(v))
    else:
        draws.append(v)
    chance.node = None


def card_key(c: int, lay, s) -> tuple:
    """What tells a card apart in the state, but for its identity: its
    content, whether it is revealed, the values of its own variables."""
    own = tuple(_frozen(s.vars[column[c]]) for column in lay.has.values() if column[c] >= 0)
    return (lay.ckey[c], s.revealed[c]) + own


def value_key(v, kind: str, lay, s):
    if is_comp(kind) and type(v) is int and 0 <= v < lay.ncomponents:
        return ("card",) + card_key(v, lay, s)
    if isinstance(v, list):
        return ("list",) + tuple(value_key(x, elem(kind), lay, s) for x in v)
    return (type(v).__name__, v)


def value_text(v, kind: str, lay) -> str:
    if v is None:
        return "none"
    if v is True or v is False:
        return "yes" if v else "no"
    if is_comp(kind) and type(v) is int and 0 <= v < lay.ncomponents:
        return lay.display[v]
    if kind == PLAYER and type(v) is int:
        return f"P{v}"
    if kind == CELL and type(v) is int:
        return grid.text(v)
    if isinstance(v, list):
        sep = " | " if elem(kind).startswith("list:") else " "
        return sep.join(value_text(x, elem(kind), lay) for x in v)
    return str(v)


def _frozen(v):
    return tuple(_frozen(x) for x in v) if isinstance(v, list) else v

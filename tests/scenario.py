"""Arrange game states for known-fact tests: play to a chosen point, then set
the cards, markers and variables a worked example describes.

Everything here is generic: zones, components, attributes and variables are
named as the rulebook names them, never by what they mean in one game. A
zone is written the way the REPL prints it: ``"deck"``, ``"hand(0)"`` (a
per-player zone), ``"pile(G1)"`` (a zone per component). Cards are named by
their display text (``"G7"``); identical cards are interchangeable, so a
helper picks any card of that name. Every helper returns a new state and
leaves its input alone; the arranged state keeps each component in exactly
one zone (or none), with ``loc`` in agreement, so the engine can run on.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from typing import Callable, Iterable, Optional

from interpreter import Game, State

_ZONE_REF = re.compile(r"^\s*(\w+)\s*(?:\(\s*(\w+)\s*\))?\s*$")

Policy = Callable[[Game, State, list], object]


# -- naming ----------------------------------------------------------------------

_loaded: dict = {}


def loaded(rulebook) -> Game:
    """The game of a rulebook (a path or a shipped name), loaded once for
    every test module that asks: a test module imported under two names
    (as itself, and as tests.NAME by another) still shares it, so the suite
    does not compile each rulebook twice while it collects its tests."""
    key = str(rulebook)
    if key not in _loaded:
        from interpreter import load_rulebook
        _loaded[key] = load_rulebook(key)
    return _loaded[key]


def zone_index(game: Game, state: State, ref) -> int:
    """The index in ``state.zones`` of a zone written ``"name"``, ``"name(k)"``
    (k a player number or a component's display name) or ``(name, k)``."""
    lay = game.program(state.n).lay
    if isinstance(ref, tuple):
        name, key = ref
    else:
        m = _ZONE_REF.match(ref)
        if not m:
            raise ValueError(f"not a zone reference: {ref!r}")
        name, key = m.group(1), m.group(2)
    if name not in lay.zones:
        raise ValueError(f"no zone '{name}'; zones: {', '.join(lay.zones)}")
    slot = lay.zones[name]
    if slot.index is None:
        if key is not None:
            raise ValueError(f"zone '{name}' is not indexed")
        return slot.base
    if key is None:
        raise ValueError(f"zone '{name}' needs an index: {name}(…)")
    if slot.index == "player":
        k = int(key)
    else:
        first, count = lay.types[slot.index]
        names = [lay.display[c] for c in range(first, first + count)]
        k = names.index(str(key))
    if not 0 <= k < slot.count:
        raise ValueError(f"zone '{name}' has no index {key}")
    return slot.base + k


def zone_ref(game: Game, state: State, index: int) -> str:
    """The text reference of zone number `index` (inverse of `zone_index`)."""
    lay = game.program(state.n).lay
    slot, k = lay.zone_list[index]
    if slot.index is None:
        return slot.name
    if slot.index == "player":
        return f"{slot.name}({k})"
    return f"{slot.name}({lay.display[lay.types[slot.index][0] + k]})"


def names(game: Game, state: State, ref) -> list:
    """The display names of the cards in a zone, bottom first."""
    lay = game.program(state.n).lay
    return [lay.display[c] for c in state.zones[zone_index(game, state, ref)]]


def size(game: Game, state: State, ref) -> int:
    return len(state.zones[zone_index(game, state, ref)])


def instance(game: Game, state: State, name: str) -> int:
    """The component id of a named component (a row with a `name` column)."""
    return game.program(state.n).lay.instances[name]


def counts_by(game: Game, state: State, ref, attr: str, order: Iterable[str]) -> tuple:
    """How many cards of the zone have each value of a static attribute, in the
    given order of values (values written by display name): for example the
    cards beside each geisha, ``counts_by(g, s, "side(0)", "geisha", G)``."""
    lay = game.program(state.n).lay
    column = lay.static[attr]
    got = Counter(_show(lay, column[c]) for c in state.zones[zone_index(game, state, ref)])
    return tuple(got[str(v)] for v in order)


def _show(lay, value) -> str:
    # a static attribute that refers to a component holds its id
    return lay.display[value] if isinstance(value, int) and not isinstance(value, bool) \
        and 0 <= value < lay.ncomponents else str(value)


def value_of(game: Game, state: State, attr: str, name: str):
    """The current value of a component's mutable attribute (`has`)."""
    lay = game.program(state.n).lay
    return state.vars[lay.has[attr][lay.instances[name]]]


def values_in(game: Game, state: State, ref, attr: str) -> list:
    """``(card, value)`` for every card of a zone, bottom first: the current value
    of a mutable attribute (`has`) of cards that need not have names (a value
    that is a component shows as its display name, none as None)."""
    lay = game.program(state.n).lay
    slots, is_component = lay.has[attr], lay.has_type[attr].startswith("comp:")
    out = []
    for c in state.zones[zone_index(game, state, ref)]:
        v = state.vars[slots[c]] if slots[c] >= 0 else None
        out.append((lay.display[c], lay.display[v] if is_component and v is not None else v))
    return out


def var(game: Game, state: State, name: str, index: Optional[int] = None):
    """A game variable (or one player's entry of a per-player variable)."""
    slot = game.program(state.n).lay.variables[name]
    return state.vars[slot.base + (index or 0)]


# -- changing a state -------------------------------------------------------------

def set_value(game: Game, state: State, attr: str, values: dict) -> State:
    """A copy with a component attribute set: ``{component name: value}``."""
    lay = game.program(state.n).lay
    s = state.copy()
    for name, value in values.items():
        s.vars[lay.has[attr][lay.instances[name]]] = value
    return s


def set_var(game: Game, state: State, name: str, value, index: Optional[int] = None) -> State:
    slot = game.program(state.n).lay.variables[name]
    s = state.copy()
    s.vars[slot.base + (index or 0)] = value
    return s


def move(game: Game, state: State, cards: Iterable[str], src, dst) -> State:
    """A copy with the named cards moved from zone `src` to the top of `dst`."""
    lay = game.program(state.n).lay
    s = state.copy()
    a, b = zone_index(game, s, src), zone_index(game, s, dst)
    for name in cards:
        cid = next((c for c in s.zones[a] if lay.display[c] == name), None)
        if cid is None:
            raise ValueError(f"no {name} in {src}: {names(game, s, src)}")
        put(s, cid, b)
    return s


def arrange(game: Game, state: State, spec: dict, keep: Iterable = (), rest=None) -> State:
    """A copy in which every zone of `spec` holds exactly the named cards (in
    the given order, bottom first).

    A missing card is taken from a zone that is neither in `keep` nor already
    arranged, and a card the zone no longer needs goes back where that card
    came from (a swap), so the other zones keep their sizes. When a zone
    shrinks, its spare cards go to `rest`, or by default to the next zone of
    `spec` still to arrange (a spec that names every zone thus needs no
    `rest`). Raises ValueError when the wanted cards cannot be found.
    """
    lay = game.program(state.n).lay
    s = state.copy()
    locked = {zone_index(game, s, z) for z in keep}
    todo = [zone_index(game, s, ref) for ref in spec]
    if len(set(todo)) != len(todo) or locked & set(todo):
        raise ValueError("a zone is arranged twice, or both arranged and kept")
    for k, (ref, wanted) in enumerate(spec.items()):
        z = todo[k]
        spare = list(s.zones[z])
        chosen: list = [None] * len(wanted)
        for i, name in enumerate(wanted):
            cid = next((c for c in spare if lay.display[c] == name), None)
            if cid is not None:
                spare.remove(cid)
                chosen[i] = cid
        for i, name in enumerate(wanted):
            if chosen[i] is not None:
                continue
            cid = _donor(lay, s, name, locked | {z})
            if cid is None:
                raise ValueError(f"no spare {name} for {ref} outside {_refs(game, s, locked)}")
            came_from = s.loc[cid]
            put(s, cid, z)
            if spare:
                put(s, spare.pop(0), came_from)
            chosen[i] = cid
        if spare:
            later = todo[k + 1:]
            r = zone_index(game, s, rest) if rest is not None else (later[0] if later else None)
            if r is None or r in locked or r == z:
                raise ValueError(f"{ref} shrinks and its spare cards have nowhere to go (rest=…)")
            for cid in spare:
                put(s, cid, r)
        s.zones[z] = chosen
        locked.add(z)
    return s


def _donor(lay, s, name, locked):
    for z, zone in enumerate(s.zones):
        if z in locked:
            continue
        for c in zone:
            if lay.display[c] == name:
                return c
    return None


def _refs(game, s, zones):
    return "{" + ", ".join(sorted(zone_ref(game, s, z) for z in zones)) + "}"


def put(s: State, cid: int, dest: int) -> None:
    """Moves component `cid` of `s` to the top of zone `dest`, in place (the
    state's cached options are dropped)."""
    where = s.loc[cid]
    if where >= 0:
        s.zones[where].remove(cid)
    s.zones[dest].append(cid)
    s.loc[cid] = dest
    s.revealed[cid] = False
    s.cache = None


def hidden_from(game: Game, state: State, viewer: Optional[int]) -> list:
    """The zones whose cards `viewer` may not see (None: a spectator): hidden
    zones, and zones of another owner that only their owner sees."""
    lay = game.program(state.n).lay
    out = []
    for z, (slot, k) in enumerate(lay.zone_list):
        if slot.visibility == "hidden":
            out.append(z)
        elif slot.visibility == "owner" and (slot.owner(k) is None or slot.owner(k) != viewer):
            out.append(z)
    return out


def permute_hidden(game: Game, state: State, viewer: Optional[int], rng: random.Random) -> State:
    """A copy in which the cards `viewer` cannot see are shuffled among the
    zones hidden from them (each zone keeps its size; cards the rules revealed
    stay put; components of different backs — types, and owners of a set of
    each player — never mix). Whatever the viewer
    is shown must be the same for both states."""
    lay = game.program(state.n).lay
    s = state.copy()
    places: dict = {}
    for z in hidden_from(game, s, viewer):
        for i, c in enumerate(s.zones[z]):
            if not s.revealed[c]:
                places.setdefault(lay.back[c], []).append((z, i, c))
    for spots in places.values():
        cids = [c for _, _, c in spots]
        rng.shuffle(cids)
        for (z, i, _), c in zip(spots, cids):
            s.zones[z][i] = c
            s.loc[c] = z
    return s


def check_consistent(game: Game, state: State) -> None:
    """Every component is in at most one zone and ``loc`` says which."""
    lay = game.program(state.n).lay
    seen = [-1] * lay.ncomponents
    for z, zone in enumerate(state.zones):
        for c in zone:
            assert seen[c] == -1, f"{lay.display[c]} (#{c}) is in two zones"
            seen[c] = z
    assert seen == list(state.loc), "loc disagrees with the zones"


# -- playing ----------------------------------------------------------------------

def first_choice(game: Game, state: State, actions) -> object:
    """A policy: the first legal action, always."""
    return actions[0]


def random_policy(seed: int) -> Policy:
    rng = random.Random(seed)
    return lambda game, state, actions: rng.choice(actions)


def prefer(order: Iterable[str], seed: int = 0) -> Policy:
    """Take the first action name of `order` that is legal (random arguments);
    choices and actions not named are made at random."""
    order = list(order)
    rng = random.Random(seed)

    def policy(game, state, actions):
        for name in order:
            some = [a for a in actions if a.name == name]
            if some:
                return rng.choice(some)
        return rng.choice(actions)

    return policy


def play(game: Game, state: State, policy: Policy,
         until: Callable[[State], bool] = lambda s: False, max_decisions: int = 10_000) -> State:
    """Apply the policy's actions until `until(state)` holds or the game ends."""
    s = state
    for _ in range(max_decisions):
        if until(s) or game.outcome(s) is not None:
            return s
        actions = game.legal_actions(s, game.to_move(s)[0])
        s = game.apply(s, policy(game, s, actions))
    raise AssertionError(f"no stop after {max_decisions} decisions")


def do(game: Game, state: State, *texts: str) -> State:
    """Apply actions by their text, each by the player to move. The text is
    matched by content: the order of ``|``-separated groups and of the cards
    in a group does not matter (``competition G5 G7 | G2 G2``)."""
    s = state
    for text in texts:
        player = game.to_move(s)[0]
        wanted = _content(text)
        found = [a for a in game.legal_actions(s, player) if _content(str(a)) == wanted]
        if len(found) != 1:
            raise ValueError(f"{len(found)} legal actions of P{player} match {text!r}; "
                             f"legal: {texts_of(game, s, player)}")
        s = game.apply(s, found[0])
    return s


def _content(text: str):
    name, _, rest = text.strip().partition(" ")
    groups = sorted(tuple(sorted(g.split())) for g in rest.split("|")) if rest.strip() else []
    return name.lower(), tuple(groups)


def texts_of(game: Game, state: State, player: Optional[int] = None) -> list:
    """The legal actions as text, of `player` or of the first player to move."""
    if player is None:
        player = game.to_move(state)[0]
    return [str(a) for a in game.legal_actions(state, player)]


def place(text: str, line_part: str, token: str) -> tuple[int, int]:
    """(line, column) of `token` on the one line that contains `line_part`."""
    found = [(n, line) for n, line in enumerate(text.splitlines(), 1) if line_part in line]
    assert len(found) == 1, line_part
    n, line = found[0]
    return n, line.index(token) + 1


def typed(game: Game, lines: Iterable[str], seed: int = 1, ai: Optional[dict] = None,
          players: int = 2) -> str:
    """What the REPL prints when `lines` are typed, one at each prompt, P1
    an AI unless told otherwise, 120 columns wide; it stops where the lines
    end."""
    import io
    from rich.console import Console
    from interpreter.terminal.repl import Repl
    out = io.StringIO()
    feed = iter(lines)
    repl = Repl(game, players=players, seed=seed, ai={1: "random"} if ai is None else ai,
                console=Console(file=out, width=120, color_system=None),
                input_fn=lambda prompt: next(feed))
    try:
        repl.run()
    except StopIteration:
        pass
    return out.getvalue()

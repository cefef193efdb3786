"""Information states: what a player knows, and full states sampled from it.

An AI player may read only its view. For search it also needs whole states
that agree with what it knows (determinization), so every view carries an
``info`` part: the state with everything the player cannot see taken out —
hidden zones reduced to their sizes (plus cards the rules revealed to the
player or to all), the
hidden cards pooled as one sorted list of ids (their multiset is public: it
is everything not in sight), the random generator dropped, and flow locals
that point at hidden cards masked. `sample_state` deals the pooled cards
back into the hidden zones at random (within each component type, and each
owner's set of a type `of each player`: the backs show them) and gives
the state a fresh generator, so future chance is unknown too. In a game
whose draws are chance nodes, the outcomes decided for the step under way
are left out as well: a sample of a chance node waits for chance from the
step's start.

Because the pool is sorted, permuting the hidden cards of a state leaves the
information state, and so every sample drawn from it, unchanged: a player
that decides from the view cannot depend on what it may not see.
"""

from __future__ import annotations

import random

from .chance import CHANCE, Chance
from .decisions import PICKS
from ..stdlib.types import elem, is_comp
from .state import State


def visible_zone(slot, k, viewer) -> bool:
    if slot.visibility == "public":
        return True
    return slot.visibility == "owner" and viewer is not None and slot.owner(k) == viewer


INTERNAL = ("pieces",)     # parts of an event for the engine alone: a reveal's piece ids


def told_events(s: State, viewer) -> list:
    """The events of the last transition that `viewer` was told, as a view
    shows them (without the parts for the engine alone)."""
    return [{k: v for k, v in e.items() if k not in INTERNAL}
            for e in s.events if e.get("to", viewer) == viewer]


def information_state(game, s: State, viewer) -> dict:
    prog = game.program(s.n)
    lay = prog.lay
    zones = []
    pool = []
    for i, (slot, k) in enumerate(lay.zone_list):
        contents = s.zones[i]
        if visible_zone(slot, k, viewer):
            zones.append(list(contents))
        else:
            known, types = [], {}
            for c in contents:
                if s.sees(c, viewer):
                    known.append(c)
                else:
                    types[lay.back[c]] = types.get(lay.back[c], 0) + 1
                    pool.append(c)
            zones.append({"count": len(contents), "known": known, "types": types})
    hidden = set(pool)
    blocks = prog.machine.blocks
    frames = [[f[0], f[1], _mask_env(f[2], blocks[f[0]].scope, hidden, viewer),
               _mask_loop(f[3], blocks[f[0]].scope, hidden)] for f in s.frames]
    return {
        "players": s.n,
        "zones": zones,
        "pool": sorted(pool),
        "vars": list(s.vars),
        # of the pieces revealed, what the viewer knows: which it was shown, and
        # which everybody was (not who else was shown which: that may be secret)
        "revealed": _known_reveals(s, viewer),
        "frames": frames,
        "decisions": s.decisions,
        "pending": list(s.pending),
        "over": s.over,
        "round": s.round,
        "turn": s.turn,
        # the events of the last transition that the viewer was told
        "events": told_events(s, viewer),
    }


def _known_reveals(s: State, viewer) -> list:
    everyone = s.everyone
    mine = 0 if viewer is None else 1 << viewer
    out = []
    for c, shown in enumerate(s.revealed):
        if shown:
            known = everyone if shown == everyone else shown & mine
            if known:
                out.append([c, known])
    return out


def _mask_env(env: dict, scope: dict, hidden: set, viewer) -> dict:
    out = {}
    for name, value in env.items():
        if name == PICKS:
            # the other players' picks of a simultaneous step are unknown: a
            # sample lets them choose again
            out[name] = {p: (v if viewer is not None and p == str(viewer) else None)
                         for p, v in value.items()}
            continue
        t = scope.get(name, "any")
        out[name] = _mask_typed(value, t, hidden)
    return out


def _mask_typed(value, t, hidden):
    if is_comp(t):
        return None if value in hidden else value
    if t.startswith("list:") and isinstance(value, list):
        return [_mask_typed(v, elem(t), hidden) for v in value]
    return value


def _mask_loop(loop, scope: dict, hidden: set):
    # the items of a 'for each' over components may include hidden ones
    if isinstance(loop, list) and len(loop) == 3 and isinstance(loop[1], list):
        var, items, i = loop
        return [var, _mask_typed(items, "list:" + scope.get(var, "any"), hidden), i]
    return loop


def sample_state(game, info: dict, rng: random.Random) -> State:
    """A full state consistent with an information state."""
    n = info["players"]
    lay = game.program(n).lay
    by_type: dict = {}
    for c in info["pool"]:
        by_type.setdefault(lay.back[c], []).append(c)
    for cards in by_type.values():
        rng.shuffle(cards)
    zones = []
    for i, entry in enumerate(info["zones"]):
        if isinstance(entry, list):
            zones.append(list(entry))
            continue
        slot, _ = lay.zone_list[i]
        cards = list(entry["known"])
        for type_, count in sorted(entry["types"].items()):
            source = by_type[type_]
            for _ in range(count):
                cards.append(source.pop())
        if slot.ordered:
            rng.shuffle(cards)
        zones.append(cards)
    loc = [-1] * lay.ncomponents
    for i, z in enumerate(zones):
        for c in z:
            loc[c] = i
    revealed = [0] * lay.ncomponents
    for c, shown in info["revealed"]:
        revealed[c] = shown
    frames = [[f[0], f[1], dict(f[2]), f[3]] for f in info["frames"]]
    pending = tuple(info["pending"])
    # at a chance node the sample waits for chance too, nothing of it decided
    # yet: what the outcomes taken so far gave is nobody's to know
    chance = Chance() if pending == (CHANCE,) else None
    return State(n, zones, loc, list(info["vars"]), revealed, frames, rng.getrandbits(64),
                 info["decisions"], pending, info["over"], info["round"],
                 info["turn"], [dict(e) for e in info.get("events", ())], chance)

"""A log with hindsight: a hidden action shown in full once it is revealed.

A `private` action, or a pick of an `each … chooses` before everybody has
chosen, shows to the other players as `NAME ?`. The table learns more later:
a secret card is turned over when the round is scored, the picks
of a trick are turned over together. From then on a player who saw that
knows what the hidden action was, and the log may say it. Only then: the
text of an action is shown to a viewer

- when a `reveal` the viewer was told showed every piece the action's
  arguments stand for, with no other piece, while each still lay where the
  action left it, alone there but for the others it named — a card turned
  over in a secret zone of its own, even if
  the rules gather it at once; not a card dropped face down on a pile of
  others that is turned over later, nor one shuffled back into the deck and
  dealt again, for then nobody can tell which card was the action's; or
- when it is a pick and a `reveal NAME` of its choice told everybody the
  picks (an event naming the players whose picks it shows), before that
  player's next pick of the same choice.

Only the rules' reveals count, never a piece merely seen later: between two
decisions the rules may move, shuffle and deal, so where a piece is at the
next decision does not say where it came from. A reveal's event keeps the
ids of the pieces it shows for this, for the engine alone (views leave them
out). Everything here reads the states of the game as it was played, so the
log of a loaded game reads the same.
"""

from __future__ import annotations

from typing import Callable, Sequence


def _told(event: dict, viewer) -> bool:
    return event.get("to", viewer) == viewer


def _pieces_revealed(states: Sequence, i: int, pieces: Sequence[int], viewer) -> bool:
    """Whether the reveals of one transition that the viewer was told showed
    every piece action i named, with no other piece, while each still lay
    where the action left it (see the module)."""
    named = set(pieces)
    left = {c: states[i + 1].loc[c] for c in named}
    places = set(left.values())
    for j in range(i + 1, len(states)):
        if j > i + 1:
            before = states[j - 1]
            if any(before.loc[c] != left[c] for c in named):
                return False        # moved on unseen: nobody can tell it apart any more
            if -1 in places or any(not named.issuperset(before.zones[z]) for z in places):
                return False        # lying among other pieces: which one was it?
        revealed: set = set()
        for e in states[j].events:
            shows = e.get("pieces", ()) if e.get("event") == "reveal" and _told(e, viewer) else ()
            if named.intersection(shows):
                if not named.issuperset(shows):
                    return False    # turned over among others: which was it?
                revealed.update(shows)
        if revealed == named:
            return True
        if revealed:
            return False
    return False


def _picks_revealed(states: Sequence, actions: Sequence, i: int, viewer) -> bool:
    """Whether a `reveal` of the choice told everybody action i's pick before
    the same player picked in that choice again."""
    a = actions[i]
    for j in range(i + 1, len(states)):
        for e in states[j].events:
            if e.get("event") == "reveal" and e.get("choice") == a.name and \
                    a.player in e.get("players", ()) and _told(e, viewer):
                return True
        if j < len(actions) and actions[j].player == a.player and actions[j].name == a.name:
            return False
    return False


def history_texts(states: Sequence, actions: Sequence, viewer,
                  named: Callable[[int], list]) -> list:
    """Each action's text as `viewer` may read it now: hidden (`NAME ?`)
    unless its player is the viewer or it has since been revealed to the
    viewer. `states[k + 1]` is the state after `actions[k]`; `named(k)` the
    pieces action k's arguments stand for (none for values)."""
    out = []
    for i, a in enumerate(actions):
        hidden = a.text_for(viewer)
        if hidden == str(a):
            out.append(hidden)
            continue
        pieces = named(i)
        shown = (bool(pieces) and _pieces_revealed(states, i, pieces, viewer)) \
            or _picks_revealed(states, actions, i, viewer)
        out.append(str(a) if shown else hidden)
    return out

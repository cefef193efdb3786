"""A tiny two-player hidden-hand game that follows docs/api.md to the letter.

It lets the REPL, CLI and simulation tests run without the real engine and
keeps them honest about the contract: they may use only what the API
promises. Rules of the toy: 10 cards (A1..A3, B1..B3, C1..C4), 4 dealt to each
player's hidden `hand`, 2 left in a hidden `pile`. On a turn the active player
either plays a card face up (`play X`), hides one (`hide X`, once per round,
its card shown only to its owner) or offers two (`offer X Y`), in which case
the opponent decides which one they take (`taken X`). When both hands are
empty, each player scores the digits of their cards; the highest score wins
and a tie is a shared win.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field, replace
from typing import NamedTuple, Optional

from interpreter.errors import (GameOver, IllegalAction, NotYourTurn,
                                OptionError, SaveError, SaveMismatch,
                                UnknownAction, did_you_mean)

CARDS = ("A1", "A2", "A3", "B1", "B2", "B3", "C1", "C2", "C3", "C4")
HAND_SIZE = 4


@dataclass(frozen=True)
class Action:
    player: int
    name: str
    args: tuple = ()

    def __str__(self) -> str:
        return " ".join((self.name, *self.args))

    def text_for(self, viewer) -> str:
        if self.name == "hide" and viewer != self.player:
            return "hide ?"
        return str(self)


class Outcome(NamedTuple):
    scores: dict
    ranking: list
    winners: list


@dataclass(frozen=True)
class State:
    players: int
    hands: tuple
    tables: tuple
    secrets: tuple
    pile: tuple
    active: int
    round: int = 1
    turn: int = 1
    decisions: int = 0
    pending: Optional[tuple] = None  # (offerer, offered cards)
    used: tuple = field(default=((), ()))


def _score(cards) -> int:
    return sum(int(c[1]) for c in cards)


def _next(state: State, player: int) -> int:
    # A player whose hand is empty is skipped.
    return 1 - player if state.hands[1 - player] else player


class FakeGame:
    name = "Toy"
    min_players = 2
    max_players = 2

    def __init__(self, options=None):
        self.options = {"first_player": "random", **(options or {})}
        if self.options["first_player"] not in ("random", "P0"):
            raise OptionError(f"option 'first_player' cannot be "
                              f"'{self.options['first_player']}'")
        self.ir = {"game": self.name, "players": [2, 2],
                   "options": dict(self.options), "cards": list(CARDS)}

    # -- flow -----------------------------------------------------------------
    def new_game(self, players=2, seed=0) -> State:
        if players != 2:
            raise OptionError(f"Toy is for 2 players, not {players}")
        rng = random.Random(seed)
        deck = list(CARDS)
        rng.shuffle(deck)
        first = 0 if self.options["first_player"] == "P0" else rng.randrange(2)
        return State(players=2,
                     hands=(tuple(sorted(deck[:4])), tuple(sorted(deck[4:8]))),
                     tables=((), ()), secrets=((), ()), pile=tuple(deck[8:]),
                     active=first)

    def to_move(self, state: State) -> tuple:
        if self.outcome(state) is not None:
            return ()
        if state.pending is not None:
            return (1 - state.pending[0],)
        return (state.active,)

    def legal_actions(self, state: State, player: int) -> list:
        if player not in self.to_move(state):
            return []
        if state.pending is not None:
            return [Action(player, "taken", (c,)) for c in state.pending[1]]
        hand = state.hands[player]
        actions = [Action(player, "play", (c,)) for c in hand]
        if "hide" not in state.used[player]:
            actions += [Action(player, "hide", (c,)) for c in hand]
        actions += [Action(player, "offer", (a, b))
                    for i, a in enumerate(hand) for b in hand[i + 1:]]
        return actions

    def apply(self, state: State, action: Action) -> State:
        if self.outcome(state) is not None:
            raise GameOver("the game is over")
        if action.player not in self.to_move(state):
            raise NotYourTurn(f"it is not P{action.player}'s turn")
        if action not in self.legal_actions(state, action.player):
            raise IllegalAction(f"'{action}' is not legal now")
        p, hands = action.player, list(state.hands)
        tables, secrets = list(state.tables), list(state.secrets)
        s = replace(state, decisions=state.decisions + 1)
        if action.name == "taken":
            offerer, offered = state.pending
            tables[p] = tables[p] + action.args
            tables[offerer] = tables[offerer] + tuple(c for c in offered if c not in action.args)
            return replace(s, tables=tuple(tables), pending=None,
                           active=_next(s, offerer), turn=s.turn + 1)
        hands[p] = tuple(c for c in hands[p] if c not in action.args)
        s = replace(s, hands=tuple(hands))
        if action.name == "offer":
            return replace(s, pending=(p, action.args))
        if action.name == "hide":
            secrets[p] = secrets[p] + action.args
            used = list(s.used)
            used[p] = used[p] + ("hide",)
            s = replace(s, secrets=tuple(secrets), used=tuple(used))
        else:
            tables[p] = tables[p] + action.args
            s = replace(s, tables=tuple(tables))
        return replace(s, active=_next(s, p), turn=s.turn + 1)

    def outcome(self, state: State):
        if any(state.hands) or state.pending is not None:
            return None
        scores = {p: _score(state.tables[p] + state.secrets[p]) for p in range(2)}
        best = max(scores.values())
        ranking = sorted(scores, key=lambda p: -scores[p])
        return Outcome(scores, ranking, [p for p in range(2) if scores[p] == best])

    def parse_action(self, state: State, player: int, text: str) -> Action:
        legal = self.legal_actions(state, player)
        wanted = " ".join(text.split()).lower()
        if wanted.isdigit():
            k = int(wanted)
            if 1 <= k <= len(legal):
                return legal[k - 1]
            raise UnknownAction(f"there is no action number {k}",
                                hint=f"choose 1 to {len(legal)}")
        for action in legal:
            if str(action).lower() == wanted:
                return action
        raise UnknownAction(f"'{text}' is not a legal action",
                            hint=did_you_mean(wanted, [str(a) for a in legal]))

    # -- what a player sees ---------------------------------------------------
    def view(self, state: State, player) -> dict:
        def zone(name, owner, cards, visible):
            return {"name": name, "owner": owner,
                    "visibility": "owner" if name != "table" else "all",
                    "count": len(cards), "cards": list(cards) if visible else None}
        zones = [zone("pile", None, state.pile, False)]
        for p in range(2):
            zones.append(zone("hand", p, state.hands[p], p == player))
            zones.append(zone("table", p, state.tables[p], True))
            zones.append(zone("secret", p, state.secrets[p], p == player))
        to_move = list(self.to_move(state))
        pending = None
        if to_move:
            label = ("take one offered card" if state.pending else "take an action")
            pending = {"player": to_move[0],
                       "kind": "choice" if state.pending else "action",
                       "label": label}
        out = self.outcome(state)
        return {
            "game": self.name, "players": 2, "viewer": player,
            "round": state.round, "turn": state.turn, "active": state.active,
            "to_move": to_move, "over": out is not None, "pending": pending,
            "zones": zones,
            "variables": {"offered": list(state.pending[1]) if state.pending else []},
            "player_variables": {},
            "components": {"card": [{"name": c, "value": int(c[1])} for c in CARDS]},
            "used": {f"P{p}": {u: 1 for u in state.used[p]} for p in range(2)},
            "outcome": None if out is None else {
                "scores": {f"P{p}": s for p, s in out.scores.items()},
                "winners": [f"P{p}" for p in out.winners]},
        }

    # -- saves ------------------------------------------------------------------
    def state_to_json(self, state: State) -> dict:
        return {"game": self.name, "players": state.players,
                "hands": [list(h) for h in state.hands],
                "tables": [list(t) for t in state.tables],
                "secrets": [list(s) for s in state.secrets],
                "pile": list(state.pile), "active": state.active,
                "round": state.round, "turn": state.turn,
                "decisions": state.decisions,
                "pending": None if state.pending is None else
                [state.pending[0], list(state.pending[1])],
                "used": [list(u) for u in state.used]}

    def state_from_json(self, data) -> State:
        if not isinstance(data, dict):
            raise SaveError("a saved state must be a JSON object")
        if data.get("game") != self.name:
            raise SaveMismatch(f"this save is of '{data.get('game')}', not '{self.name}'")
        try:
            pending = data["pending"]
            return State(
                players=data["players"],
                hands=tuple(tuple(h) for h in data["hands"]),
                tables=tuple(tuple(t) for t in data["tables"]),
                secrets=tuple(tuple(s) for s in data["secrets"]),
                pile=tuple(data["pile"]), active=data["active"],
                round=data["round"], turn=data["turn"],
                decisions=data["decisions"],
                pending=None if pending is None else (pending[0], tuple(pending[1])),
                used=tuple(tuple(u) for u in data["used"]))
        except (KeyError, TypeError, IndexError) as exc:
            raise SaveError(f"the saved state is incomplete: {exc}") from None


def load_fake(target="toy", options=None) -> FakeGame:
    """Stands in for `load_rulebook`."""
    return FakeGame(options)

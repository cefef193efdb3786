"""The game at a table in the browser, on the server: who sits where, the
moves, undo by agreement, and what each seat is sent.

A `Table` holds one game: its states and actions from the deal, a secret
token per seat and one for spectators, the AI seats (which play on the
server, each deciding from its own view), the undo asked for and who agreed,
and the file the game is saved to after every move (the terminal's save
format, `presentation.savefile`, so a game begun in the browser can be
resumed at the terminal and back). Nothing here knows of sockets: the
server asks `seat_of(token)` who a browser is, `act` / `undo` / `agree` on
its behalf, and `message_for(seat)` for what that seat may be shown — its
view drawn (`svg`), its options to point at, its log with hindsight, the
outcome — built from that seat's view alone, so nothing reaches a browser
that its seat could not see at the table. This module knows no game.
"""

from __future__ import annotations

import copy
import hmac
import json
import os
import secrets
import threading
from dataclasses import dataclass, field, replace
from typing import Optional

from ..ai.players import make_player
from ..errors import CommandError, RulebookError
from ..errors import render as render_error
from ..presentation import changes, options
from ..presentation.savefile import save_data, write_save
from ..presentation.words import value_text
from ..runtime.changes import changes as changed_lines
from ..runtime.saved import shown
from . import svg

TOKEN_BYTES = 24          # a seat's secret: 192 random bits
VIEWS_KEPT = 4            # views kept per seat, for the messages that follow


class Refused(Exception):
    """A request of a browser that the table refuses: a move that is not
    legal, a seat that may not act, an undo nobody asked for. `code` is a
    stable error code, `text` the explanation as the REPL gives it."""

    def __init__(self, text: str, code: str):
        super().__init__(text)
        self.code, self.text = code, text


@dataclass
class Undo:
    """An undo one seat asked for: back to before its last move, once every
    other human seat agreed."""

    by: int
    to: int                          # how many actions are kept
    agreed: set = field(default_factory=set)


class Table:
    """One game at the table (see the module's docstring)."""

    def __init__(self, game, *, rulebook: str, players: int, seed: int, ai: Optional[dict] = None,
                 save_path: Optional[str] = None, rules: str = "", tokens: Optional[dict] = None,
                 states: Optional[list] = None, actions: Optional[list] = None):
        self.game, self.rulebook, self.players, self.seed = game, rulebook, players, seed
        self.ai = dict(ai or {})
        self.bots = {seat: make_player(kind, seed=seed + seat) for seat, kind in self.ai.items()}
        self.states = states or [game.new_game(players=players, seed=seed)]
        self.actions = actions or []
        self.save_path, self.rules = save_path, rules
        self.forms = options.parameters(game.ir)
        self.choices = options.choice_parameters(game.ir)
        self.tokens = tokens or {**{str(p): secrets.token_urlsafe(TOKEN_BYTES)
                                    for p in range(players)},
                                 "spectator": secrets.token_urlsafe(TOKEN_BYTES)}
        self.undo_asked: Optional[Undo] = None
        self.trouble: Optional[str] = None     # the rules failing on an AI seat's move, told to all
        self.version = 0                       # how often the table changed: a message's age
        self._tokens_saved = False             # the links' file written beside the save
        self._views: dict = {}                 # (seat, k) -> (state, view): the latest few
        self._changes: dict = {}               # (seat, k) -> (state after, what move k changed)
        self.lock = threading.RLock()

    # -- who is who ---------------------------------------------------------------
    @property
    def state(self):
        return self.states[-1]

    @property
    def humans(self) -> list:
        return [p for p in range(self.players) if p not in self.ai]

    def seat_of(self, token) -> tuple:
        """(True, the seat a token is the secret of; None for the spectators'
        token), or (False, None) for a token of nobody. Every token is
        compared, each in constant time, so the time taken says nothing of
        which one came close."""
        if type(token) is not str:
            return False, None
        found, seat = False, None
        given = token.encode("utf-8", "replace")
        for key, secret in self.tokens.items():
            if hmac.compare_digest(given, secret.encode("ascii")):
                found, seat = True, (None if key == "spectator" else int(key))
        return found, seat

    def links(self, base: str) -> list:
        """(who, link) for each human seat and the spectators: the page with
        the seat's token after '#', which a browser never sends to a server.
        An AI seat has no link: nobody sits there."""
        out = [(f"P{p}", f"{base}/#{self.tokens[str(p)]}") for p in self.humans]
        return out + [("spectators", f"{base}/#{self.tokens['spectator']}")]

    # -- moves ---------------------------------------------------------------------
    def act(self, seat: Optional[int], text) -> None:
        """The move typed or pointed at by `seat`, applied and the game
        saved; Refused, with the REPL's explanation, for a move that cannot
        be taken (the game unchanged). The AI seats move after it
        (`play_ai`), once the table has been told of it."""
        if seat is None:
            raise Refused(code="action/not-your-turn", text="a spectator watches: it takes no action")
        if seat in self.ai:
            raise Refused(code="action/not-your-turn", text=f"P{seat} is played by the computer")
        if type(text) is not str:
            raise Refused(code="action/unknown", text="a move is the text of a legal action")
        with self.lock:
            try:
                action = self.game.parse_action(self.state, seat, text)
                after = self.game.apply(self.state, action)
            except RulebookError as err:        # a move refused, or the rules failing on it
                raise Refused(code=err.code, text=self.explained(err)) from None
            self._advance(action, after)
            self.save()

    def explained(self, err: RulebookError) -> str:
        """The error as the REPL explains it (the rule's line, a caret, the
        hint), its file named as the rulebook is, not by the server's path."""
        if err.span is not None:
            err = copy.copy(err)
            err.span = replace(err.span, file=os.path.basename(err.span.file))
        return render_error(err, self.game.source_of(err.span) if err.span else None)

    def _advance(self, action, after) -> None:
        self.states.append(after)
        self.actions.append(action)
        self.undo_asked = None
        self.version += 1

    def ai_to_move(self) -> Optional[int]:
        """The AI seat to move now, or None (a human's turn, or the end)."""
        with self.lock:
            if self.trouble is not None or self.game.outcome(self.state) is not None:
                return None
            return next((p for p in self.game.to_move(self.state) if p in self.bots), None)

    def play_ai_move(self) -> bool:
        """One move of the AI seat to move, saved; False when no AI seat is
        to move. The rules failing on it (rule/loop, rule/runtime) stop the
        AI seats: the table is told why (`trouble`), and keeps its game."""
        with self.lock:
            player = self.ai_to_move()
            if player is None:
                return False
            try:
                action = self.bots[player].act(self.game, self.game.view(self.state, player),
                                               self.game.legal_actions(self.state, player))
                self._advance(action, self.game.apply(self.state, action))
            except RulebookError as err:
                self.trouble = f"P{player}'s move failed: " + self.explained(err)
                self.version += 1
                return False
            self.save()
            return True

    def play_ai(self, limit: int = 100000) -> None:
        """The AI seats' moves, for as long as only AI seats are to move."""
        for _ in range(limit):
            if not self.play_ai_move():
                return

    # -- undo by agreement -------------------------------------------------------------
    def undo(self, seat: Optional[int]) -> None:
        """`seat` asks to take back its last move (and every move after it):
        done at once when no other human sits at the table, else once every
        other human seat agrees (`agree`)."""
        if seat is None:
            raise Refused(code="undo/not-a-seat", text="a spectator cannot undo")
        with self.lock:
            if self.game.outcome(self.state) is not None:
                raise Refused(code="undo/game-over", text="the game is over: it is replayed, "
                                                         "not taken back")
            last = max((k for k, a in enumerate(self.actions) if a.player == seat), default=None)
            if last is None:
                raise Refused(code="undo/nothing", text=f"P{seat} has made no move to take back")
            self.undo_asked = Undo(seat, last)
            self.version += 1
            self._undo_if_agreed()

    def agree(self, seat: Optional[int], yes) -> None:
        """`seat` agrees to (yes) or refuses (no) the undo asked for."""
        if seat is None or type(yes) is not bool:
            raise Refused(code="undo/not-a-seat", text="only a seat answers an undo, with yes or no")
        with self.lock:
            if self.undo_asked is None:
                raise Refused(code="undo/nothing", text="nobody asked to undo")
            self.version += 1
            if not yes:
                self.undo_asked = None
                return
            self.undo_asked.agreed.add(seat)
            self._undo_if_agreed()

    def _undo_if_agreed(self) -> None:
        asked = self.undo_asked
        if asked is None or not set(self.humans) - {asked.by} <= asked.agreed:
            return
        del self.states[asked.to + 1:]
        del self.actions[asked.to:]
        self.undo_asked = None
        self.trouble = None
        self.version += 1
        self.save()

    # -- saving --------------------------------------------------------------------
    def save(self) -> None:
        """The game to its save file (if it has one), and, the first time,
        the seats' tokens beside it, readable by the owner alone, so links
        stay good when the server restarts with --load (they never change)."""
        if self.save_path is None:
            return
        write_save(self.save_path, save_data(self.game, self.rulebook, self.players, self.seed,
                                             self.ai, self.actions, self.state))
        if not self._tokens_saved:
            write_tokens(tokens_path(self.save_path), self.tokens)
            self._tokens_saved = True

    # -- what a seat is shown --------------------------------------------------------
    def _view(self, seat: Optional[int], k: int) -> dict:
        """`seat`'s view of the state after k moves, kept for the next
        message (which reads it as the view before its move) while that
        state stands (an undo replaces it)."""
        state = self.states[k]
        kept = self._views.get((seat, k))
        if kept is None or kept[0] is not state:
            kept = self._views[(seat, k)] = (state, self.game.view(state, seat))
            while len(self._views) > VIEWS_KEPT * (self.players + 1):
                self._views.pop(next(iter(self._views)))
        return kept[1]

    def _log(self, seat: Optional[int], k: int) -> list:
        """The log of the first k moves as `seat` may read it now, with
        hindsight (`Game.log`), each move followed by what it changed as the
        seat saw it then: that part never changes once told, so each move's
        is worked out once per seat, not again at every message."""
        states = self.states
        texts = self.game.log(states[:k + 1], self.actions[:k], seat)
        out = []
        for i, text in enumerate(texts):
            kept = self._changes.get((seat, i))
            if kept is None or kept[0] is not states[i + 1]:
                before, after = self._view(seat, i), self._view(seat, i + 1)
                kept = self._changes[(seat, i)] = (states[i + 1], changed_lines(before, after))
            out.append(_told(text, kept[1]))
        return out

    def message_for(self, seat: Optional[int], step: Optional[int] = None) -> dict:
        """What `seat` (None: a spectator) is shown of the game now, or at
        `step` (a replay of a finished game): built from that seat's views
        and its log with hindsight alone."""
        with self.lock:      # one thread at a time runs the engine
            return self._message_for(seat, step)

    def _message_for(self, seat: Optional[int], step: Optional[int]) -> dict:
        states, actions, asked = self.states, self.actions, self.undo_asked
        game = self.game
        final = game.outcome(states[-1])
        over = final is not None
        k = len(actions) if step is None or not over else max(0, min(int(step), len(actions)))
        state = states[k]
        view = self._view(seat, k)
        before = self._view(seat, k - 1) if k > 0 else None
        texts = [str(a) for a in game.legal_actions(state, seat)] \
            if seat is not None and k == len(actions) and seat in game.to_move(state) else []
        pieces = options.previews(view, texts)
        log = self._log(seat, k)
        return {
            "type": "table",
            "version": self.version,
            "seat": seat,
            "game": view.get("game"),
            "players": view.get("players"),
            "step": k, "steps": len(actions),
            "header": _header(view),
            "to_move": list(game.to_move(state)),
            "pending": view.get("pending"),
            "sections": svg.draw_table(view, changed=changes.changed(before, view),
                                       actions=texts),
            "options": options.pointing(texts, self.forms,
                                        (view.get("pending") or {}).get("label", ""),
                                        self.choices),
            "previews": _previews(pieces),
            "log": [{"player": a.player, "text": line} for a, line in zip(actions[:k], log)],
            "events": [e.get("text", "") for e in view.get("events") or ()],
            "components": view.get("components") or {},
            "over": over,
            "outcome": final.to_json() if over else None,
            "undo": None if asked is None else {"by": asked.by, "agreed": sorted(asked.agreed),
                                                "waiting": sorted(set(self.humans) - {asked.by}
                                                                  - asked.agreed)},
            "trouble": self.trouble,
        }


def _told(text: str, lines: list) -> str:
    """A log entry as `Game.log(changes=True)` writes it: the action, then
    what it changed."""
    return f"{text} — {' · '.join(lines)}" if lines else text


def _previews(pieces: dict) -> dict:
    """Each piece that a legal action turns, drawn as it will lie for each
    of its turns: {piece: {turns: svg}}, drawn once however many actions
    turn it so (`options.previews`)."""
    out: dict = {}
    for found in pieces.values():
        turned = out.setdefault(found["piece"], {})
        if str(found["turns"]) not in turned:
            turned[str(found["turns"])] = svg.draw_piece(found["drawing"])
    return out


def _header(view: dict) -> dict:
    """The counters the rules use (by the game's words for them) and the
    values of the game and of each player, as players read them."""
    called = view.get("called") or {}
    counters = {called.get(c, c): view.get(c) for c in view.get("counters") or ()}
    return {"counters": counters,
            "variables": {k: value_text(v) for k, v in (view.get("variables") or {}).items()},
            "player_variables": {k: {p: value_text(v) for p, v in vs.items()}
                                 for k, vs in (view.get("player_variables") or {}).items()}}


# -- the tokens kept beside a save -------------------------------------------------
def tokens_path(save_path: str) -> str:
    return save_path + ".seats"


def write_tokens(path: str, tokens: dict) -> None:
    """The seats' secrets, in a file only its owner may read (never through
    a link planted in its place)."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | getattr(os, "O_NOFOLLOW", 0),
                     0o600)
        os.fchmod(fd, 0o600)            # a file there before may have let others read it
        with os.fdopen(fd, "w", encoding="utf-8") as file:
            json.dump(tokens, file)
    except OSError as exc:
        raise CommandError(f"cannot write the seats' links to '{shown(path, 200)}': "
                           f"{exc.strerror or exc}", code="serve/io") from None


def read_tokens(path: str, players: int) -> Optional[dict]:
    """The seats' secrets kept beside a save, or None when there are none
    fit for `players` seats (new ones are dealt then)."""
    try:
        with open(path, encoding="utf-8") as file:
            data = json.loads(file.read(1 << 16))
    except (OSError, ValueError):
        return None
    keys = {str(p) for p in range(players)} | {"spectator"}
    if type(data) is not dict or set(data) != keys or not all(
            type(v) is str and 16 <= len(v) <= 200 and v.isascii() and v.isprintable()
            for v in data.values()):
        return None
    return data


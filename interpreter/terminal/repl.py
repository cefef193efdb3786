"""The interactive table: a thin shell over the engine for `rulebook play`.

It shows the deciding player what that player may see (`game.view`), lists
the legal actions by number, and reads a number, an action's text or a
command (`undo`, `log`, `save FILE`, `load FILE`, `help`, `quit`). The game
itself stays in the engine: the REPL only keeps the list of states and
actions so far, which gives undo, the log and saves for free.

Hot-seat play: when the device passes from one human to another the screen
and the terminal's scrollback are cleared and the next player must press
Enter before their private view is shown, so one player's hidden cards are
never on screen while another is to move.

No input loses a game: `quit`, Ctrl-C and the end of input (Ctrl-D) offer to
save first (Enter saves to a file named after the game and seed), and save
there when nobody can answer; an internal error saves before it is
reported. At the end the table offers the log, a save, a new game or quit. Seats given to an AI play at once. Input and output are injected (an
input function and a rich Console) so tests can drive whole sessions.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Callable, Optional

from rich.console import Console
from rich.markdown import Markdown

from ..errors import ActionError, CommandError, RulebookError, SaveError, SaveMismatch
from ..errors import render as render_error
from ..ai.players import KINDS as AI_KINDS
from ..ai.players import make_player
from .render import TableView, action_forms, player_label
from .rules import rules_text

SAVE_FORMAT = "rulebook-save"
SAVE_VERSION = 1

HELP = """\
Type the number of a legal action, or its text as listed after the number.
Parameters go with ', ' between them, a cell as (x,y): 'NAME A, (1,0), 2'.
A long list comes grouped: '{a b}' is a or b. 'NAME {A B}, {(0,1) (1,0)}'
lists NAME A, (0,1) … NAME B, (1,0), numbered in that order.
Commands (a leading ':' is allowed, e.g. ':undo', and wins over an action of the same name):
  undo        take back everything since your previous decision (AI moves included)
  log         the actions so far, as you may see them
  save FILE   write the game to FILE (JSON)
  load FILE   continue a game saved with 'save' (or start with: rulebook play --load FILE)
  rules       the rules of the game, for players
  help        this text
  quit        leave the game (offers to save it first)"""

END_HELP = """The game is over. Commands:
  log         the actions of the game
  save FILE   write the game to FILE (JSON)
  new         a new game with the same players and the next seed
  quit        leave"""

# what erases a terminal's scrollback (the visible screen is rich's clear)
CLEAR_SCROLLBACK = "\x1b[3J"


class Quit(Exception):
    """Ends the session (the `quit` command, or end of input)."""


class Repl:
    """One game at the table; `run()` plays it to the end or until `quit`."""

    def __init__(self, game, *, players: int, seed: int, rulebook: Optional[str] = None,
                 ai: Optional[dict] = None, console: Optional[Console] = None,
                 input_fn: Callable[[str], str] = input, ai_seed: Optional[int] = None,
                 save_dir: Optional[str] = None):
        self.game = game
        self.save_dir = Path(save_dir) if save_dir is not None else Path(".")
        self.saved = 0                      # actions when the game was last saved or loaded
        self.save_path: Optional[str] = None    # where `quit` saves unless told otherwise
        self.rulebook = rulebook or game.name
        self.players = players
        self.seed = seed
        self.ai_seed = seed if ai_seed is None else ai_seed
        self.seat_ai(ai or {})
        self.console = console or Console()
        self.input_fn = input_fn
        self.states = [game.new_game(players=players, seed=seed)]
        self.actions: list = []
        self.shown_to: Optional[int] = None  # whose private view is on screen
        self.stale = True                    # the screen no longer shows the state
        # each action's parameters by name, to show how an action is typed
        self.forms = {a["name"]: [p["name"] for p in a.get("params") or ()]
                      for a in game.ir["actions"]}
        self.commands = {"undo": self.undo, "log": self.log, "save": self.save,
                         "load": self.load, "help": self.help, "rules": self.rules,
                         "quit": self.quit, "exit": self.quit}

    # -- the loop -------------------------------------------------------------
    def seat_ai(self, ai: dict) -> None:
        """AI players by seat; each has its own dice, so seating one never
        changes the deal."""
        self.ai = dict(ai)
        self.bots = {seat: make_player(kind, seed=self.ai_seed + seat)
                     for seat, kind in self.ai.items()}

    @property
    def state(self):
        return self.states[-1]

    @property
    def humans(self) -> list:
        return [p for p in range(self.players) if p not in self.ai]

    def run(self) -> int:
        self.say(f"{self.game.name}: {self.players} players, seed {self.seed}. "
                 f"Type 'help' for commands.")
        try:
            while True:
                if self.game.outcome(self.state) is not None:
                    self.show_end()
                    self.after_the_end()
                    continue
                player = self.decider(self.state)
                if player in self.ai:
                    self.ai_move(player)
                    continue
                self.hand_over(player)
                if self.stale:
                    self.show(player)
                self.handle(self.read(f"{player_label(player)}> "), player)
        except Quit:
            return 0
        except Exception:
            self.rescue()
            raise

    def after_the_end(self) -> None:
        """The game is over: log, save, a new game (returns) or quit."""
        self.say("Type 'log', 'save FILE', 'new' or 'quit'.")
        commands = {name: self.commands[name] for name in ("log", "save", "quit", "exit")}
        commands["help"] = lambda _: self.say(END_HELP)
        while True:
            word, _, rest = self.read("game over> ").strip().partition(" ")
            word = word.lower().lstrip(":")
            if word == "new":
                self.new_game(self.seed + 1)
                return
            command = commands.get(word)
            try:
                if command is None:
                    raise CommandError(f"'{word}' is not a command after the end",
                                       hint="log, save FILE, new or quit")
                command(rest.strip())
            except (CommandError, SaveError) as err:
                self.error(err)

    def new_game(self, seed: int) -> None:
        self.seed = seed
        self.states = [self.game.new_game(players=self.players, seed=seed)]
        self.actions = []
        self.saved = 0
        self.save_path = None
        self.shown_to = None
        self.stale = True
        self.say(f"{self.game.name}: a new game, seed {seed}.")

    def decider(self, state) -> int:
        # Simultaneous deciders are asked one after the other.
        return self.game.to_move(state)[0]

    def read(self, prompt: str) -> str:
        try:
            return self.input_fn(prompt)
        except EOFError:
            self.say("")
            self.leave("End of input")
        except KeyboardInterrupt:
            self.say("")
            self.leave("Interrupted")

    # -- never losing a game ----------------------------------------------------
    def unsaved(self) -> bool:
        return len(self.actions) != self.saved

    def default_save_path(self) -> str:
        """A file named after the game and the seed, in the save folder, that
        holds no other game (this one's earlier save is reused)."""
        if self.save_path is None:
            stem = f"{Path(self.rulebook).stem}-{self.seed}"
            path, k = self.save_dir / f"{stem}.save.json", 1
            while path.exists():
                k += 1
                path = self.save_dir / f"{stem}-{k}.save.json"
            self.save_path = str(path)
        return self.save_path

    def leave(self, why: str) -> None:
        """Ends the session; a game with moves not yet saved is saved first,
        where the player says (Enter: the default file; 'no': not at all)
        or, when nobody can answer, in the default file."""
        if not self.unsaved():
            raise Quit
        default = self.default_save_path()
        self.say(f"{why}. Save the game before leaving? Enter saves to {default}; "
                 f"or type a file name, or 'no'.")
        try:
            answer = self.input_fn("save to> ").strip()
        except (EOFError, KeyboardInterrupt):
            self.say("")
            answer = ""
        if answer.lower() in ("no", "n"):
            raise Quit
        try:
            self.save(answer or default)
        except SaveError as err:
            self.error(err)
            if not answer:
                raise Quit from None
            self.save(default)
        self.say(f"Resume with: rulebook play --load {self.save_path}")
        raise Quit

    def rescue(self) -> None:
        """After an internal error: the game so far goes to the default file."""
        try:
            self.save(self.default_save_path())
            self.say(f"An internal error stopped the game; it is saved: "
                     f"rulebook play --load {self.save_path}")
        except Exception:  # noqa: BLE001 - the error being reported matters more
            pass

    def handle(self, line: str, player: int) -> None:
        """One line of input: a command, or an action for `player`."""
        line = line.strip()
        if not line:
            return
        word, _, rest = line.partition(" ")
        command = self.commands.get(word.lower().lstrip(":"))
        try:
            if command is not None:
                command(rest.strip())
            else:
                self.play(self.game.parse_action(self.state, player, line))
        except (ActionError, CommandError, SaveError) as err:
            self.error(err)

    def play(self, action) -> None:
        self.states.append(self.game.apply(self.state, action))
        self.actions.append(action)
        self.stale = True
        # what the rules showed or told on the way (cards may be gone from
        # the table by the next decision); what is told to one player alone
        # waits for that player's screen in hot-seat play
        viewer = self.humans[0] if len(self.humans) == 1 else None
        for event in self.state.events:
            if event.get("to", viewer) == viewer:
                self.say(event["text"])

    def ai_move(self, player: int) -> None:
        # The AI decides from its own view only, like a human at the table.
        action = self.bots[player].act(self.game, self.game.view(self.state, player),
                                       self.game.legal_actions(self.state, player))
        viewer = self.humans[0] if len(self.humans) == 1 else None
        self.say(f"{player_label(player)} (AI) plays: {action.text_for(viewer)}")
        self.play(action)

    # -- what is on screen ----------------------------------------------------
    def hand_over(self, player: int) -> None:
        """Hides the screen and waits for `player` when the device changes hands."""
        if self.shown_to == player:
            return
        if len(self.humans) > 1:
            self.console.clear()
            if self.console.is_terminal:
                self.console.file.write(CLEAR_SCROLLBACK)
            self.say(f"Pass the device to {player_label(player)}, press Enter")
            if self.read("").strip().lower().lstrip(":") in ("quit", "exit"):
                self.leave("Leaving")
        self.shown_to = player
        self.stale = True

    def show(self, player: int) -> None:
        actions = self.game.legal_actions(self.state, player)
        view = self.game.view(self.state, player)
        if len(self.humans) > 1:
            for event in view["events"]:
                if "to" in event:           # told to this player alone
                    self.say(event["text"])
        last = self.last_moves(player)
        if last:
            self.say("Last moves: " + " · ".join(last))
        self.console.print(TableView(view, [str(a) for a in actions], self.forms))
        self.stale = False

    def last_moves(self, viewer: int) -> list:
        """Every other player's latest action, as `viewer` may see it, in
        seat order: what happened since the viewer last decided stays on
        screen, however long the table above it."""
        latest: dict = {}
        for action in self.actions:
            if action.player != viewer:
                latest[action.player] = action
        return [f"{player_label(p)}: {latest[p].text_for(viewer)}" for p in sorted(latest)]

    def show_end(self) -> None:
        # The view at the end carries the outcome (scores, ranking, winners).
        viewer = self.humans[0] if len(self.humans) == 1 else None
        self.console.print(TableView(self.game.view(self.state, viewer)))

    def say(self, text: str) -> None:
        # markup off: card names and codes such as "error[action/unknown]"
        # must print as they are.
        self.console.print(text, markup=False, highlight=False)

    def error(self, err: RulebookError) -> None:
        # an action refused by a rule shows that rule's line of the rulebook
        self.say(render_error(err, self.game.source_of(err.span)))

    # -- commands -------------------------------------------------------------
    def help(self, _arg: str) -> None:
        self.say(HELP)
        player = self.shown_to
        if player is not None and player in self.game.to_move(self.state):
            forms = action_forms(self.forms, [str(a) for a in self.game.legal_actions(self.state, player)])
            if forms is not None:
                self.say(forms.plain)

    def quit(self, _arg: str) -> None:
        self.leave("Leaving")

    def rules(self, _arg: str) -> None:
        """The rules for players (docs/games/); the game's view comes back after."""
        self.console.print(Markdown(rules_text(self.rulebook)))
        self.stale = True

    def undo(self, _arg: str) -> None:
        """Back to the latest earlier state where a human decided."""
        for k in range(len(self.states) - 2, -1, -1):
            deciders = self.game.to_move(self.states[k])
            if deciders and deciders[0] not in self.ai:
                del self.states[k + 1:]
                del self.actions[k:]
                self.stale = True
                self.say(f"Undone: back to {player_label(deciders[0])}'s decision.")
                return
        raise CommandError("nothing to undo")

    def log(self, _arg: str) -> None:
        # Shown as the player at the device may see it: hidden moves stay hidden.
        viewer = self.shown_to
        if not self.actions:
            self.say("No actions yet.")
            return
        width = len(str(len(self.actions)))
        for i, action in enumerate(self.actions, 1):
            self.say(f"{i:>{width}}. {player_label(action.player)}: {action.text_for(viewer)}")

    def save(self, path: str) -> None:
        if not path:
            raise CommandError("save needs a file name", hint="save FILE")
        data = {"format": SAVE_FORMAT, "version": SAVE_VERSION,
                "rulebook": self.rulebook, "game": self.game.name,
                "options": self.game.options, "players": self.players,
                "seed": self.seed, "ai": {str(p): a for p, a in self.ai.items()},
                "history": [{"player": a.player, "action": str(a)} for a in self.actions],
                "state": self.game.state_to_json(self.state)}
        try:
            with open(path, "w", encoding="utf-8") as file:
                json.dump(data, file, indent=2)
        except (OSError, ValueError) as exc:      # ValueError: a NUL in the name
            reason = getattr(exc, "strerror", None) or str(exc)
            raise SaveError(f"cannot write '{path}': {reason}", code="save/io") from None
        self.saved = len(self.actions)
        self.save_path = path
        self.say(f"Saved to {path}.")

    def load(self, path: str) -> None:
        if not path:
            raise CommandError("load needs a file name", hint="load FILE")
        states, actions, data = read_save(self.game, path)
        self.players, self.seed = data["players"], data["seed"]
        self.seat_ai({int(p): a for p, a in data.get("ai", {}).items()})
        self.states, self.actions = states, actions
        self.saved = len(actions)
        self.save_path = path
        self.stale = True
        self.say(f"Loaded {path}: {len(actions)} actions so far.")


def _normal(value):
    # Compare options as JSON sees them (tuples and lists alike).
    return json.loads(json.dumps(value, sort_keys=True))


def save_header(path: str) -> dict:
    """What a save says it holds — its rulebook, options, players and seed —
    read before its game is loaded (the whole save is checked by `read_save`)."""
    data = _read_json(path)
    header = {k: data.get(k) for k in ("rulebook", "options", "players", "seed")}
    if not (isinstance(header["rulebook"], str) and isinstance(header["options"], dict)
            and isinstance(header["players"], int) and isinstance(header["seed"], int)):
        raise SaveError(f"'{path}' does not say which game it holds")
    return header


def _read_json(path: str) -> dict:
    try:
        with open(path, encoding="utf-8") as file:
            text = file.read()
    except UnicodeDecodeError as exc:
        raise SaveError(f"'{path}' is not a save file: {exc}") from None
    except (OSError, ValueError) as exc:        # ValueError: a NUL in the name
        reason = getattr(exc, "strerror", None) or str(exc)
        raise SaveError(f"cannot read '{path}': {reason}", code="save/io") from None
    try:
        data = json.loads(text)
    except (json.JSONDecodeError, RecursionError) as exc:
        raise SaveError(f"'{path}' is not a save file: {type(exc).__name__}") from None
    if not isinstance(data, dict) or data.get("format") != SAVE_FORMAT:
        raise SaveError(f"'{path}' is not a save file")
    if data.get("version") != SAVE_VERSION:
        raise SaveError(f"'{path}' is a version {data.get('version')} save; "
                        f"this program reads version {SAVE_VERSION}")
    return data


def read_save(game, path: str):
    """A save file checked against `game`: (states, actions, data).

    The history is replayed from the deal and must arrive at the saved state,
    which catches a save edited by hand or made by another engine version.
    """
    data = _read_json(path)
    if data.get("game") != game.name:
        raise SaveMismatch(f"'{path}' is a save of '{data.get('game')}', not of '{game.name}'")
    if _normal(data.get("options")) != _normal(game.options):
        raise SaveMismatch(f"'{path}' was played with options {data.get('options')}, "
                           f"this game has {game.options}",
                           hint="start the game with the same --option values")
    players, seed, history = data.get("players"), data.get("seed"), data.get("history")
    ai = data.get("ai", {})
    if not (isinstance(players, int) and isinstance(seed, int) and isinstance(history, list)
            and isinstance(ai, dict) and all(a in AI_KINDS and p.isdigit()
                                             for p, a in ai.items())):
        raise SaveError(f"'{path}' lacks its players, seed, AI seats or history")
    saved = game.state_from_json(data.get("state"))
    try:
        states = [game.new_game(players=players, seed=seed)]
        actions = []
        for step in history:
            action = game.parse_action(states[-1], step["player"], step["action"])
            states.append(game.apply(states[-1], action))
            actions.append(action)
    except (RulebookError, KeyError, TypeError) as exc:
        raise SaveError(f"the history in '{path}' does not replay: {exc}") from None
    if states[-1] != saved:
        raise SaveError(f"the history in '{path}' does not lead to its saved state")
    return states, actions, data

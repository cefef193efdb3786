"""The interactive table: a thin shell over the engine for `rulebook play`.

It shows the deciding player what that player may see (`game.view`) on one
compact screen — every other player's last action, the table, the legal
actions — and reads a number, an action's text or a command (`undo`, `log`,
`save FILE`, `load FILE`, `board`, `hand`, `show NAME`, `table`, `rules`,
`help`, `quit`). The details the compact screen leaves out come on
request (`board`, `hand`, `show NAME`, `table full`) without redrawing the
table, and the player rules (`rules`) a screenful at a time.
A list of legal actions too long for the screen is chosen step by step
(`choosing`): the action's name, then each parameter's value (a set's
pieces one at a time, in any order), each from a short list on screen,
until one action is left, which is shown to be confirmed (Enter or `yes`
plays it, `back` goes back a step); a whole action typed is played at
once. A step that asks for a cell or a hex redraws its board with only
the values it offers marked, and one that turns a piece shows the piece
as it will lie (`render_steps`). The game
itself stays in the engine: the REPL only keeps the list of states and
actions so far, which gives undo, the log and saves for free.

Hot-seat play: when the device passes from one human to another the screen
and the terminal's scrollback are cleared and the next player must press
Enter before their private view is shown, so one player's hidden cards are
never on screen while another is to move. `undo` takes back only the asking
player's own moves (with the AI moves after them); the player who has just
moved may still type it at the hand-over prompt.

No input loses a game: `quit`, Ctrl-C and the end of input (Ctrl-D) offer to
save first (Enter saves to a file named after the game and seed), and save
there when nobody can answer; `new` asks the same before it replaces a
finished game, and `load` keeps the game it replaces in its file first. An
answer that names no file (a shell command typed there) is refused and
asked again (`savefile.file_name`). No input crashes the table either: a
refused line gets its error code, and an unexpected error saves the game,
is reported, and the session goes on. At the end the table offers the log, a save, a new
game or quit. Seats given to an AI play at once. Input and output are
injected (an input function and a rich Console) so tests can drive whole
sessions.

A save is the game's seed and its history, replayed from the deal when it
is loaded (`savefile`).
"""

from __future__ import annotations

import shlex
from pathlib import Path
from typing import Callable, Optional

from rich.columns import Columns
from rich.console import Console, Group
from rich.text import Text
from rich.markdown import Markdown
from rich.segment import SegmentLines

from ..errors import ActionError, CommandError, RulebookError, SaveError, UnknownAction
from ..errors import did_you_mean
from ..errors import render as render_error
from ..runtime.saved import shown
from ..printable import printable
from ..ai.players import make_player
from ..game.options import changed_options, option_text
from ..presentation.options import parameters
from ..presentation.savefile import SEEDS, file_name, read_save, same_file, save_data, write_save
from .choosing import Choice
from .render import (BUDGET, TableView, action_forms, boards, component_table, detail_names,
                     guarded, own_zones, piece_names, player_label, zone_details)
from .render_steps import step_drawings
from ..presentation.rules import rules_text

SCREEN = 45                     # lines of the terminal a screen is made for
LOG_ROWS = 36                   # rows of the log a screen shows, in columns
MAX_FAILURES = 3                # unexpected errors in a row, with no input between, end a session
ASKS = 3                        # answers naming no file at `save to>` before the default is taken
MORE = "-- more (Enter: next page, q: stop) -- "

HELP = """\
Type the number of a legal action, or its text as listed after the number.
Parameters go with ', ' between them, a cell as (x,y): 'NAME A, (1,0), 2'.
A list too long for the screen is chosen step by step: type an action's name
(or its number, or the start of its text) and the screen lists what the next
parameter may be, numbered; type a number or a value, again, until one action
is left, which is shown: Enter or 'yes' plays it. A set of cards is chosen a
card at a time, in any order; a cell or a hex with its board redrawn, the
candidates marked; the turns of a tile with the tile drawn as it will lie. 'back' goes back a step, an empty line leaves the
choice. A whole action typed at once is played at once.
Commands (a leading ':' is allowed, e.g. ':undo', and wins over an action of the same name):
  board       every board in full
  hand        your own zones in full, with your pieces drawn
  show NAME   one zone (each player's), one table of components, one piece or one board
  table       the table again (after board, hand, show or help); 'table full': every detail
  undo        take back your last move, with the AI moves made after it (in hot-seat
              play, only while no other player has moved since)
  log         the actions so far, as you may see them (a hidden one in full once it
              is revealed to you); the latest that fit the screen, 'log all' for all,
              'log full' each with what it changed
  save FILE   write the game to FILE (JSON; a name with spaces in quotes: 'my game.json')
  load FILE   continue a game saved with 'save' (or start with: rulebook play --load FILE)
  rules       the rules of the game, for players, a screenful at a time
              (Enter: the next one; q: stop)
  help        this text
  quit        leave the game (offers to save it first)"""

END_HELP = """The game is over. Commands:
  log         the actions of the game ('log all': every one; 'log full': with what each changed)
  board       every board in full; show NAME: one zone, table or board; table: the end again
  save FILE   write the game to FILE (JSON; a name with spaces in quotes: 'my game.json')
  new         a new game with the same players and the next seed (asks to save this one)
  quit        leave"""

# what erases a terminal's scrollback (the visible screen is rich's clear)
CLEAR_SCROLLBACK = "\x1b[3J"


class Quit(Exception):
    """Ends the session (the `quit` command, or end of input)."""


def quoted(path: str) -> str:
    """A file's path as it is typed in a shell, fit for the terminal."""
    return printable(shlex.quote(path))


class Repl:
    """One game at the table; `run()` plays it to the end or until `quit`."""

    def __init__(self, game, *, players: int, seed: int, rulebook: Optional[str] = None,
                 ai: Optional[dict] = None, console: Optional[Console] = None,
                 input_fn: Callable[[str], str] = input, ai_seed: Optional[int] = None,
                 save_dir: Optional[str] = None, library: Optional[str] = None):
        self.game = game
        self.library = library       # --library: where the rulebook's player rules may lie
        self.save_dir = Path(save_dir) if save_dir is not None else Path(".")
        # the actions when the game was last saved or loaded (not their number:
        # an undo and another move make as many)
        self.saved: tuple = ()
        self.save_path: Optional[str] = None    # where `quit` saves unless told otherwise
        self.rulebook = rulebook or game.name
        self.players = players
        self.seed = seed
        self.ai_seed = seed if ai_seed is None else ai_seed
        self.seat_ai(ai or {})
        # everything printed is drawn printable (the views and messages are
        # escaped before they are laid out; the console escapes the rest)
        self.console = guarded(console or Console())
        self.input_fn = input_fn
        self.states = [game.new_game(players=players, seed=seed)]
        self.actions: list = []
        self.shown_to: Optional[int] = None  # whose private view is on screen
        self.stale = True                    # the screen no longer shows the state
        self.failures = 0                    # unexpected errors since input was last read
        # each action's parameters, to show how an action is typed and ask for each
        self.forms = parameters(game.ir)
        self.moves: Optional[tuple] = None     # (player, texts, changes): an AI's moves not yet printed
        self.choice: Optional[Choice] = None   # a long list being chosen step by step
        self.stepwise = False                  # whether the screen offers the list so
        self.commands = {"undo": self.undo, "log": self.log, "save": self.save,
                         "load": self.load, "help": self.help, "rules": self.rules,
                         "board": self.board, "hand": self.hand, "show": self.show_detail,
                         "table": self.table, "quit": self.quit, "exit": self.quit}

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
        """Plays until `quit` or the end of input: 0, or 1 when an unexpected
        error kept coming back (the game is saved, and the file named)."""
        changed = changed_options(self.game.ir, self.game.options)
        played_with = "" if not changed else " Options: " + ", ".join(
            f"{name}={option_text(v)}" for name, v in changed.items()) + "."
        self.say(f"{self.game.name}: {self.players} players, seed {self.seed}.{played_with} "
                 f"Type 'help' for commands.")
        while True:
            try:
                try:
                    self.turn()
                except KeyboardInterrupt:   # outside a prompt, e.g. while an AI thinks
                    self.say("")
                    self.leave("Interrupted")
            except Quit:
                return 0
            except KeyboardInterrupt:       # again, while leaving: keep the game and go
                self.rescue(None)
                return 130
            except Exception as exc:  # noqa: BLE001 - no error may end a game unsaved
                self.rescue(exc)
                self.failures += 1
                if self.failures >= MAX_FAILURES:
                    self.say("The same trouble keeps coming back, so the session ends here.")
                    return 1

    def turn(self) -> None:
        """One round of the loop: the end, an AI's move, or a human's line."""
        if self.game.outcome(self.state) is not None:
            self.show_end()
            self.after_the_end()
            return
        player = self.decider(self.state)
        if player in self.ai:
            self.ai_move(player)
            return
        if not self.hand_over(player):
            return
        if self.stale:
            self.show(player)
        chosen = f" {self.choice.prompt_text()}" if self.choice is not None else ""
        self.handle(self.read(f"{player_label(player)}{chosen}> "), player)

    def after_the_end(self) -> None:
        """The game is over: log, save, a new game (returns) or quit."""
        self.say("Type 'log', 'save FILE', 'new' or 'quit'.")
        commands = {name: self.commands[name]
                    for name in ("log", "save", "board", "hand", "show", "table", "quit", "exit")}
        commands["help"] = lambda _: self.say(END_HELP)
        while True:
            word, _, rest = self.read("game over> ").strip().partition(" ")
            word = word.lower().lstrip(":")
            if word == "new":
                if self.attempt(self.keep_asking):
                    self.new_game(self.seed + 1)
                    return
                continue
            command = commands.get(word)
            if command is None:
                self.error(CommandError(f"'{shown(word)}' is not a command after the end",
                                        hint="log, save FILE, board, show NAME, new or quit"))
                continue
            self.attempt(command, rest.strip())

    def new_game(self, seed: int) -> None:
        if not SEEDS[0] <= seed < SEEDS[1]:      # past the last seed: round to the first
            seed = SEEDS[0]
        self.seed = seed
        self.states = [self.game.new_game(players=self.players, seed=seed)]
        self.actions = []
        self.saved = ()
        self.save_path = None
        self.shown_to = None
        self.stale = True
        self.say(f"{self.game.name}: a new game, seed {seed}.")

    def decider(self, state) -> int:
        # Simultaneous deciders are asked one after the other.
        return self.game.to_move(state)[0]

    def read(self, prompt: str) -> str:
        self.flush_moves()
        try:
            line = self.input_fn(printable(prompt, lines=False))   # it may quote an action
        except EOFError:
            self.say("")
            self.leave("End of input")
        except KeyboardInterrupt:
            self.say("")
            self.leave("Interrupted")
        self.failures = 0
        return line if isinstance(line, str) else ""

    # -- never losing a game ----------------------------------------------------
    def unsaved(self) -> bool:
        return tuple(self.actions) != self.saved

    def default_save_path(self) -> str:
        """A file named after the game and the seed, in the save folder, that
        holds no other game (this one's earlier save is reused)."""
        if self.save_path is None:
            # (a file name stays within the 255 characters file systems allow)
            stem = f"{Path(self.rulebook).stem[:120]}-{self.seed}"
            path, k = self.save_dir / f"{stem}.save.json", 1
            while path.exists():
                k += 1
                path = self.save_dir / f"{stem}-{k}.save.json"
            self.save_path = str(path)
        return self.save_path

    def leave(self, why: str) -> None:
        """Ends the session; a game with moves not yet saved is saved first,
        where the player says (`ask_where`) or, when that file cannot be
        written, in the default file."""
        if not self.unsaved():
            raise Quit
        default = self.default_save_path()
        self.say(f"{why}. Save the game before leaving? Enter saves to {default}; "
                 f"or type a file name, or 'no'.")
        path = self.ask_where(default)
        if path is None:
            raise Quit
        try:
            self.write(path)
        except SaveError as err:
            self.error(err)
            if path == default:
                raise Quit from None
            try:
                self.write(default)
            except SaveError as again:
                self.error(again)
                raise Quit from None
        self.say(f"Resume with: rulebook play --load {quoted(self.save_path)}")
        raise Quit

    def ask_where(self, default: str) -> Optional[str]:
        """The file to save to, asked at `save to>`: `default` on Enter,
        None on 'no', else the file the answer names (`file_name`). An
        answer that names no file is refused and asked again; after ASKS of
        them, and when nobody can answer (the end of input, Ctrl-C), the
        default."""
        for _ in range(ASKS):
            try:
                answer = self.input_fn("save to> ").strip()
            except (EOFError, KeyboardInterrupt):
                self.say("")
                return default
            if answer.strip("'\"").lower() in ("no", "n"):
                return None
            if not answer:
                return default
            try:
                return file_name(answer)
            except CommandError as err:
                self.error(err)
        self.say(f"No file name after {ASKS} answers: the game goes to {default}.")
        return default

    def keep(self, why: str, instead_of: Optional[str] = None) -> None:
        """Before `why` replaces the game: moves not yet saved go to its file
        (another one if that is `instead_of`, the file about to be loaded).
        A SaveError when that fails: the game stays."""
        if not self.unsaved():
            return
        if self.save_path is not None and instead_of is not None and same_file(
                self.save_path, instead_of):
            self.save_path = None
        try:
            self.write(self.default_save_path())
        except SaveError as err:
            raise SaveError(f"{err.message}; the game is not replaced by {why}", code=err.code,
                            hint="save it elsewhere first: save FILE") from None
        self.say(f"The game so far is kept: rulebook play --load {quoted(self.save_path)}")

    def keep_asking(self) -> None:
        """Before a new game replaces the finished one: moves not yet saved
        go where the player says (`ask_where`), or nowhere on 'no'. A
        SaveError when that fails: the game stays."""
        if not self.unsaved():
            return
        default = self.default_save_path()
        self.say(f"Save this game before a new one? Enter saves to {default}; "
                 f"or type a file name, or 'no'.")
        path = self.ask_where(default)
        if path is None:
            return
        try:
            self.write(path)
        except SaveError as err:
            raise SaveError(f"{err.message}; the game is not replaced by a new game",
                            code=err.code, hint="save it elsewhere first: save FILE") from None

    def rescue(self, error: Optional[BaseException]) -> None:
        """After an unexpected error: the game so far goes to its file, which
        the report names; a rule error of the rulebook keeps its code."""
        try:
            self.write(self.default_save_path())
            kept = f"the game so far is saved: rulebook play --load {quoted(self.save_path)}"
        except Exception:  # noqa: BLE001 - the error being reported matters more
            kept = "the game could not be saved"
        if isinstance(error, RulebookError):
            self.error(error)
            self.say(f"The rules cannot go on from here; {kept}.")
        elif error is not None:
            self.say(f"error[internal]: {type(error).__name__}: {shown(str(error), 200)}; "
                     f"{kept}.")

    def attempt(self, command, *args) -> bool:
        """Runs a command or a move: whether it went through. A refusal is
        shown with its code; an unexpected error saves the game and is
        reported, and the session goes on."""
        try:
            command(*args)
            return True
        except Quit:
            raise
        except RulebookError as err:
            self.error(err)
        except Exception as exc:  # noqa: BLE001 - no input may crash the table
            self.rescue(exc)
        return False

    def handle(self, line: str, player: int) -> None:
        """One line of input: a command, a step of a choice, or an action for `player`."""
        line = line.strip()
        word, _, rest = line.partition(" ")
        word = word.lower().lstrip(":")
        if self.choice is not None and self.choice.done is not None and word in ("", "yes", "y"):
            self.attempt(self.play_chosen, self.choice.done, player)
            return
        if self.choice is not None and (not line or word == "back"):
            self.step_back(to_start=not line)
            return
        if not line:
            return
        command = self.commands.get(word)
        if command is not None:
            self.attempt(command, rest.strip())
        else:
            self.attempt(self.act, line, player)

    def act(self, line: str, player: int) -> None:
        """Plays the action `line` names; in a long list, `line` may be a
        step of the choice (`choosing`), which is then shown, or the last."""
        if self.choice is None and not self.stepwise:
            self.play(self.game.parse_action(self.state, player, line))
            return
        choice = self.choice or Choice.start(
            [str(a) for a in self.game.legal_actions(self.state, player)], self.forms)
        if choice.done is not None and choice.previous is not None:
            choice = choice.previous        # not confirmed: read as a step after the one before
        narrowed = choice.narrow(line)
        if narrowed is None:
            # not a step: the whole action, spelled another way the engine reads
            self.play(self.parse_instead(choice, line, player))
        elif narrowed.done is not None and narrowed.typed:
            self.play_chosen(narrowed.done, player)
        else:
            self.choice = narrowed          # a step, or the action chosen, to be confirmed
            self.show_step(narrowed)

    def show_step(self, choice: Choice) -> None:
        """A step of a choice under what it draws (`render_steps`): the
        boards with its cells or hexes marked, or the piece it turns as it
        will lie; those are left out when the two would not fit a screen."""
        view, _ = self.seen()
        drawn = step_drawings(view, choice)
        screen = Group(*drawn, choice)
        if drawn and len(self.console.render_lines(screen, pad=False)) > SCREEN - 1:
            screen = Group(Text("Too tall to draw with this step: 'board' shows the boards.",
                                style="dim"), choice)
        self.console.print(screen)

    def play_chosen(self, text: str, player: int) -> None:
        """Plays the action a choice came to, and says so."""
        action = self.game.parse_action(self.state, player, text)
        self.choice = None
        self.say(f"{player_label(player)} plays: {action}")
        self.play(action)

    def parse_instead(self, choice: Choice, line: str, player: int):
        """The action `line` names when it is no step of `choice`: typed whole,
        or ending the part chosen so far. A refusal the engine explains by a
        rule is shown so; else the choice's own, with its options."""
        if not choice.depth:
            return self.game.parse_action(self.state, player, line)
        try:
            return self.game.parse_action(self.state, player, line)
        except ActionError:
            pass
        try:
            return self.game.parse_action(self.state, player, choice.joined(line))
        except UnknownAction:
            raise choice.refusal(line) from None

    def step_back(self, to_start: bool) -> None:
        """`back`: the step before (the whole list before the first); an empty
        line: the whole list."""
        previous = None if to_start else self.choice.previous
        if previous is not None and previous.previous is not None:
            self.choice = previous
            self.show_step(previous)
            return
        root = self.choice
        while root.previous is not None:
            root = root.previous
        self.choice = None
        self.say(f"Back to all {len(root.left)} legal actions.")
        self.console.print(root)

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
        # what changed on the table, as this screen may show it (a spectator's
        # view where the device goes round: what everybody sees); after an
        # AI's move, with its line of moves
        try:
            changed = self.game.changes(self.states[-2], self.state, viewer)
        except Exception:   # noqa: BLE001 - a view that fails is reported by the screen that follows
            changed = []
        told = self.told(changed)
        if self.moves is not None:
            self.moves[2].extend(told)
        else:
            for line in told:
                self.say(line)

    def told(self, changed: list) -> list:
        """The lines of `Game.changes` as the screen prints them under a
        move: 'hand(P0) −G3', side by side and wrapped."""
        return self.wrapped([line.replace(": ", " ", 1) for line in changed])

    def wrapped(self, parts: list) -> list:
        """Parts joined by ' · ' into lines of the screen's width, each
        indented under the move it follows; a part is never cut."""
        width = max(20, self.console.width - 1)
        lines, line = [], ""
        pieces = []
        for part in parts:          # a part longer than a line: at its commas
            if len(part) + 2 <= width or ", " not in part:
                pieces.append(part)
                continue
            chunk = ""
            for item in part.split(", "):
                if chunk and len(chunk) + len(item) + 4 > width:
                    pieces.append(chunk + ",")
                    chunk = item
                else:
                    chunk = f"{chunk}, {item}" if chunk else item
            pieces.append(chunk)
        for part in pieces:
            more = f"{line} · {part}" if line else f"  {part}"
            if line and len(more) > width:
                lines.append(line)
                more = f"  {part}"
            line = more
        return lines + ([line] if line else [])

    def ai_move(self, player: int) -> None:
        # The AI decides from its own view only, like a human at the table.
        action = self.bots[player].act(self.game, self.game.view(self.state, player),
                                       self.game.legal_actions(self.state, player))
        viewer = self.humans[0] if len(self.humans) == 1 else None
        self.narrate(player, action.text_for(viewer))
        self.play(action)

    def narrate(self, player: int, text: str) -> None:
        """An AI's move, printed with the moves it makes next in a row, on
        one line: a turn of many steps reads as one turn."""
        if self.moves is not None and self.moves[0] == player:
            self.moves[1].append(text)
        else:
            self.flush_moves()
            self.moves = (player, [text], [])

    def flush_moves(self) -> None:
        if self.moves is not None:
            player, texts, told = self.moves
            self.moves = None
            self.say(f"{player_label(player)} (AI) plays: " + " · ".join(texts))
            for line in told:
                self.say(line)

    # -- what is on screen ----------------------------------------------------
    def hand_over(self, player: int) -> bool:
        """Hides the screen and waits for `player` when the device changes
        hands: whether it did. The player who just moved, still at the
        device, may type `undo` there instead (False: the move is taken back,
        and the next decision is that player's again)."""
        if self.shown_to == player:
            return True
        if len(self.humans) > 1:
            self.console.clear()
            if self.console.is_terminal:
                self.console.file.write(CLEAR_SCROLLBACK)
            last = self.shown_to
            if last is not None and any(a.player == last for a in self.actions):
                self.say(f"{player_label(last)}: 'undo' takes back your move.")
            while True:
                self.say(f"Pass the device to {player_label(player)}, press Enter")
                answer = self.read("").strip().lower().lstrip(":")
                if answer in ("quit", "exit"):
                    self.leave("Leaving")
                if answer != "undo" or last is None:
                    break
                if self.attempt(self.undo, ""):
                    return False
        self.shown_to = player
        self.stale = True
        return True

    def show(self, player: int) -> None:
        actions = self.game.legal_actions(self.state, player)
        view = self.game.view(self.state, player)
        if len(self.humans) > 1:
            for event in view["events"]:
                if "to" in event:           # told to this player alone
                    self.say(event["text"])
        self.flush_moves()
        last = self.last_moves(player)
        above = 0
        if last:
            text = printable("Last moves: " + "; ".join(last))
            above = -(-len(text) // max(1, self.console.width))
            self.say(text)
        # the last moves, the table and the prompt make one screen
        table = TableView(view, [str(a) for a in actions], self.forms,
                          budget=min(BUDGET, SCREEN - 1 - above))
        self.console.print(table)
        self.stale = False
        self.choice = None
        self.stepwise = table.stepwise

    def last_moves(self, viewer: int) -> list:
        """What every other player did since the viewer last decided (or, if
        nothing, their latest action), as the viewer may read it now, in seat
        order: it stays on screen, right above the table, however long the
        story printed before it."""
        if not self.actions:
            return []
        texts = self.game.log(self.states, self.actions, viewer)
        start = max((k + 1 for k, a in enumerate(self.actions) if a.player == viewer), default=0)
        since: dict = {}        # player -> what they did since the viewer decided
        latest: dict = {}       # player -> their latest action
        for k, action in enumerate(self.actions):
            if action.player != viewer:
                latest[action.player] = texts[k]
                if k >= start:
                    since.setdefault(action.player, []).append(texts[k])
        return [f"{player_label(p)}: {' · '.join(since.get(p) or [latest[p]])}"
                for p in sorted(latest)]

    def show_end(self) -> None:
        # The view at the end carries the outcome (scores, ranking, winners).
        viewer = self.humans[0] if len(self.humans) == 1 else None
        self.flush_moves()
        self.console.print(TableView(self.game.view(self.state, viewer)))

    def say(self, text: str) -> None:
        self.flush_moves()
        # a Text: card names and codes such as "error[action/unknown]" print
        # as they are, never read as markup or emoji codes
        self.console.print(Text(printable(text)))

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
        """The rules for players (terminal/rules.py), a screenful at a time;
        the game's view comes back after."""
        self.stale = True
        self.page(Markdown(rules_text(self.rulebook, self.library)))

    def page(self, renderable) -> None:
        """`renderable`, a screenful (the console's height less the prompt's
        line) at a time: Enter shows the next one; anything else typed, the
        end of input or Ctrl-C stops, and the game goes on."""
        lines = self.console.render_lines(renderable, pad=False)
        size = max(5, self.console.height - 1)
        for start in range(0, len(lines), size):
            if start:
                try:
                    if self.input_fn(MORE).strip():
                        return
                except (EOFError, KeyboardInterrupt):
                    self.say("")
                    return
            self.console.print(SegmentLines(lines[start:start + size], new_lines=True), end="")

    # -- details on request: printed under the table, which stays as it was -----
    def seen(self) -> tuple:
        """(the view of the player at the device, the legal actions' texts
        when that player is to move): what the details are drawn from."""
        over = self.game.outcome(self.state) is not None
        viewer = (self.humans[0] if len(self.humans) == 1 else None) if over else self.shown_to
        view = self.game.view(self.state, viewer)
        to_move = viewer is not None and not over and viewer in self.game.to_move(self.state)
        actions = [str(a) for a in self.game.legal_actions(self.state, viewer)] if to_move else []
        return view, actions

    def board(self, _arg: str) -> None:
        view, actions = self.seen()
        drawn = boards(view, actions)
        if not drawn:
            raise CommandError("this game has no board",
                               hint="'hand', 'show NAME' or 'table full' show the rest")
        self.console.print(Group(*drawn))

    def hand(self, _arg: str) -> None:
        view, _ = self.seen()
        parts = own_zones(view)
        if not parts:
            who = "a spectator" if view.get("viewer") is None else player_label(view["viewer"])
            raise CommandError(f"{who} has no zones of their own",
                               hint="'show NAME' shows any zone")
        self.console.print(Group(*parts))

    def show_detail(self, arg: str) -> None:
        """`show NAME`: one zone with each owner's, one table of components,
        one piece's row of it or one board, in full."""
        view, actions = self.seen()
        names = detail_names(view)
        if not arg:
            raise CommandError("show needs the name of a zone, a table or a board",
                               hint="show NAME, one of: " + ", ".join(sorted(names)))
        found = names.get(arg.lower())
        piece = piece_names(view).get(arg.lower()) if found is None else None
        if found is None and piece is None:
            raise CommandError(f"there is no zone, piece, table or board '{shown(arg)}'",
                               code="command/unknown-name",
                               hint=did_you_mean(arg.lower(), names)
                               or "one of: " + ", ".join(sorted(names)))
        if piece is not None:
            self.console.print(component_table(view, *piece))
            return
        what, name = found
        if what == "components":
            self.console.print(component_table(view, name))
        elif what == "grid":
            self.console.print(Group(*boards(view, actions, only={name})))
        else:
            self.console.print(Group(*zone_details(view, name, actions)))

    def table(self, arg: str) -> None:
        """The table again (the next prompt redraws it); `table full`: every
        zone, table and board in full."""
        if arg.lower() not in ("", "full"):
            raise CommandError(f"'table {shown(arg)}' is not a command",
                               hint="'table' or 'table full'")
        if self.game.outcome(self.state) is not None:
            view, _ = self.seen()
            self.console.print(TableView(view, compact=not arg))
        elif arg:
            view, actions = self.seen()
            self.console.print(TableView(view, actions, self.forms, compact=False,
                                         stepwise=self.stepwise))
        else:
            self.stale = True

    def undo(self, _arg: str) -> None:
        """Takes back the asking player's last move with the AI moves made
        after it. Refused when another human has moved since: in hot-seat
        play each takes back only their own moves."""
        asker = self.shown_to if self.shown_to is not None else self.decider(self.state)
        start = max((k for k, a in enumerate(self.actions) if a.player == asker), default=None)
        humans = [a.player for a in self.actions[start or 0:]
                  if a.player != asker and a.player not in self.ai]
        if humans:
            movers = list(dict.fromkeys(reversed(humans)))      # the latest first
            who = " and ".join(player_label(p) for p in reversed(movers))
            raise CommandError(
                f"{who} {'has' if len(movers) == 1 else 'have'} moved since; only "
                f"{player_label(movers[0])} can take that back",
                code="command/not-your-move",
                hint="a move is taken back by its player: 'undo' at their prompt, or "
                     "before they pass the device on")
        if start is None:
            raise CommandError("nothing to undo",
                               hint=f"{player_label(asker)} has made no move yet")
        texts = self.game.log(self.states, self.actions, asker)[start:]
        others: dict = {}           # an AI's moves after the asker's, by player
        for action, text in zip(self.actions[start + 1:], texts[1:]):
            others.setdefault(action.player, []).append(text)
        also = "; ".join(f"{player_label(p)}'s move{'s' if len(t) > 1 else ''}: {' · '.join(t)}"
                         for p, t in others.items())
        del self.states[start + 1:]
        del self.actions[start:]
        self.stale = True
        self.say(f"{player_label(asker)} takes back: {texts[0]}"
                 + (f" (and {also})" if also else ""))

    def log(self, arg: str) -> None:
        """The actions so far as the player at the device may read them now
        (a hidden move in full once the table revealed it: `Game.log`), in
        columns, read down; the latest that fit a screen, or all of them
        with 'log all'."""
        viewer, how = self.shown_to, arg.strip().lower()
        if how not in ("", "all", "full"):
            raise CommandError(f"'log {shown(arg, 40)}' is not a log command",
                               code="command/usage", hint="log, log all, or log full")
        if not self.actions:
            self.say("No actions yet.")
            return
        if how == "full":
            self.full_log(viewer)
            return
        texts = self.game.log(self.states, self.actions, viewer)
        width = len(str(len(texts)))
        items = [printable(f"{i:>{width}}. {player_label(a.player)}: {text}", lines=False)
                 for i, (a, text) in enumerate(zip(self.actions, texts), 1)]
        if arg.strip().lower() != "all":
            columns = max(1, self.console.width // (max(map(len, items)) + 2))
            fit = columns * LOG_ROWS
            if len(items) > fit:
                self.say(f"The last {fit} of {len(items)} actions ('log all' for every one):")
                items = items[-fit:]
        self.flush_moves()
        self.console.print(Columns([Text(i) for i in items], column_first=True,
                                   padding=(0, 2)))

    def full_log(self, viewer) -> None:
        """`log full`: every action on a line of its own, with what it
        changed as the viewer saw it (`Game.log` with its changes)."""
        texts = self.game.log(self.states, self.actions, viewer)
        width = len(str(len(texts)))
        self.flush_moves()
        for k, (a, text) in enumerate(zip(self.actions, texts)):
            self.console.print(Text(printable(f"{k + 1:>{width}}. {player_label(a.player)}: {text}",
                                              lines=False)))
            for line in self.told(self.game.changes(self.states[k], self.states[k + 1], viewer)):
                self.console.print(Text(printable(line, lines=False)))

    def save(self, arg: str) -> None:
        """`save FILE`: the game to the file FILE names (`file_name`)."""
        if not arg:
            raise CommandError("save needs a file name", hint="save FILE")
        self.write(file_name(arg))

    def write(self, path: str) -> None:
        """Writes the game to `path`: the seed and the history that replays
        it, and the state it reached (see the module's docstring)."""
        write_save(path, save_data(self.game, self.rulebook, self.players, self.seed, self.ai,
                                   self.actions, self.state))
        self.saved = tuple(self.actions)
        self.save_path = path
        self.say(f"Saved to {path}.")

    def load(self, path: str) -> None:
        """Replaces the game with the one saved in `path`, once that save is
        read and replayed; the game it replaces is kept in its file first."""
        if not path:
            raise CommandError("load needs a file name", hint="load FILE")
        path = file_name(path)
        states, actions, data = read_save(self.game, path)
        self.keep(f"'{shown(path, 200)}'", instead_of=path)
        self.restore(path, states, actions, data)

    def restore(self, path: str, states: list, actions: list, data: dict) -> None:
        """Takes up a game `read_save` read from `path`."""
        self.players, self.seed = data["players"], data["seed"]
        self.seat_ai(data["ai"])
        self.states, self.actions = states, actions
        self.saved = tuple(actions)
        self.save_path = path
        self.shown_to = None
        self.stale = True
        self.say(f"Loaded {path}: {len(actions)} actions so far.")

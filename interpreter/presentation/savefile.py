"""Save files of the games at a table (the terminal's and the browser's
alike): what is in one, writing one, and reading one back.

A save is the game's seed and its history (each action's player and text,
in order), replayed from the deal when it is loaded, plus the state it
reached, which the replay must arrive at: an edited save loads as the game
its history plays, or is refused with save/corrupt naming the step that
cannot be played (never its values, which may be hidden cards). Only a
regular file of bounded size is read; its AI seats and seed are held to the
rules of the command line (`ai_seat`, `ai_problem`, `SEEDS`). The rulebook a
save names is opened on its word only from the shipped library
(`saved_rulebook`); any other is the user's to give on the command line.
"""

from __future__ import annotations

import json
import os
import shlex
import stat
from typing import Optional

from ..ai.players import KINDS as AI_KINDS
from ..errors import CommandError, RulebookError, SaveError, SaveMismatch
from ..game.load import library_rulebook
from ..game.options import option_text
from ..runtime.saved import shown

SAVE_FORMAT = "rulebook-save"
SAVE_VERSION = 1
SAVE_KEYS = {"format", "version", "rulebook", "game", "options", "players", "seed", "ai",
             "history", "state"}
MAX_SAVE_BYTES = 64 << 20       # far above any game's save; a device or a huge file is no save
MAX_NAME = 1000                 # characters in a rulebook's name or path in a save
SEEDS = (-(1 << 63), 1 << 64)   # the seeds a game is dealt from (taken mod 2^64)


def player_label(player) -> str:
    """`P0`, `P1`, … for a seat."""
    return f"P{player}" if type(player) is int else str(player)


def save_data(game, rulebook: str, players: int, seed: int, ai: dict, actions, state) -> dict:
    """A save of a game: the seed and the history that replays it (each
    action's player and text), and the state it reached."""
    return {"format": SAVE_FORMAT, "version": SAVE_VERSION,
            "rulebook": rulebook, "game": game.name,
            "options": game.options, "players": players,
            "seed": seed, "ai": {str(p): a for p, a in ai.items()},
            "history": [{"player": a.player, "action": str(a)} for a in actions],
            "state": game.state_to_json(state)}


def write_save(path: str, data: dict) -> None:
    """Writes a save (`save_data`) to `path`: the text made before any file
    is opened, written whole beside it and then put in its place, never to
    a device or a pipe; save/io when it cannot be."""
    text = json.dumps(data, indent=2)
    try:
        # a device or a pipe keeps nothing (and a pipe would wait for a reader)
        if os.path.exists(path) and not os.path.isfile(path):
            raise OSError("it is not a file")
        # written beside it, then put in its place at once: a save cut short
        # (the machine stopped mid-write) leaves the one before it whole
        partial = f"{path}.partial"
        with open(partial, "w", encoding="utf-8") as file:
            file.write(text)
        os.replace(partial, path)
    except (OSError, ValueError) as exc:      # ValueError: a NUL in the name
        reason = getattr(exc, "strerror", None) or str(exc)
        raise SaveError(f"cannot write '{shown(path, 200)}': {reason}",
                        code="save/io") from None


def ai_seat(text) -> Optional[int]:
    """The seat an AI is given as on the command line (`--ai 1=random`,
    `--ai P1=random`) or in a save: its number, or None for anything else."""
    if type(text) is not str:
        return None
    digits = text[1:] if text[:1] in ("p", "P") else text
    if not (0 < len(digits) <= 6 and digits.isascii() and digits.isdigit()):
        return None
    return int(digits)


def ai_problem(seat: Optional[int], kind, players: int) -> Optional[str]:
    """What is wrong with an AI seat for a game of `players`, or None; the
    command line and saves are held to the same rule."""
    if seat is None:
        return "is not a seat (use 1 or P1)"
    if seat >= players:
        return f"names {player_label(seat)}, but there are only {players} players " \
               f"(P0..P{players - 1})"
    if type(kind) is not str or kind not in AI_KINDS:
        return f"is given an unknown AI '{shown(kind)}' (known: {', '.join(AI_KINDS)})"
    return None


def file_name(text: str) -> str:
    """The file a name typed at the table names (`save FILE`, `load FILE`,
    the `save to>` question), or CommandError command/not-a-file-name for
    text that names no file: one word, not starting with '-' as an option
    does, or any text between quotes ('my game.json'); never a control
    character, never a folder. A shell command typed there by mistake
    (`rulebook play GAME --ai 1=random`) is so refused, not written."""
    name = text.strip()
    quoted = len(name) >= 2 and name[0] == name[-1] and name[0] in "'\""
    if quoted:
        name = name[1:-1]
    words = name.split()
    example = "a name such as game.json; a name with spaces goes in quotes: 'my game.json'"
    if not name:
        why, hint = "it is empty", example
    elif not name.isprintable():
        why, hint = "it has a control character", example
    elif not quoted and len(words) > 1:
        option = next((w for w in words if w.startswith("-")), None)
        why = (f"it looks like a command ('{shown(option, 40)}')" if option else
               f"it is {len(words)} words")
        hint = example
    elif not quoted and name.startswith("-"):
        why, hint = "it starts with '-', as an option does", f"a file of that name: ./{name}"
    elif name.endswith(("/", os.sep)) or os.path.isdir(name):
        why, hint = "it is a folder", f"a file in it: {os.path.join(name, 'game.json')}"
    else:
        return name
    raise CommandError(f"'{shown(text, 200)}' is not a file name: {why}",
                       code="command/not-a-file-name", hint=hint)


def _normal(value):
    # Compare options as JSON sees them (tuples and lists alike).
    return json.loads(json.dumps(value, sort_keys=True))


def same_file(a: str, b: str) -> bool:
    try:
        return os.path.samefile(a, b)
    except (OSError, ValueError):       # one is missing (or no file name at all)
        return False


def save_header(path: str) -> dict:
    """What a save says it holds — its rulebook, options, players and seed —
    read before its game is loaded (the whole save is checked by `read_save`)."""
    data = _read_json(path)
    header = {k: data.get(k) for k in ("rulebook", "options", "players", "seed")}
    name = header["rulebook"]
    if not (type(name) is str and 0 < len(name) <= MAX_NAME and name.isprintable()
            and _options_ok(header["options"]) and type(header["players"]) is int
            and 0 < header["players"] <= 1000 and _seed_ok(header["seed"])):
        raise SaveError(f"'{shown(path, 200)}' does not say which game it holds",
                        hint="a save names its rulebook, options, players and seed")
    return header


def saved_rulebook(header: dict, path: str) -> str:
    """The file of the rulebook a save names (`save_header`), found only as
    a name or a path into the library (`load.library_rulebook`): a save is
    anybody's file, and the rulebook it names is opened, so a name that leads
    elsewhere (any file on the machine, a folder, a device, a link out of the
    library) is refused with save/rulebook before anything is opened."""
    try:
        return str(library_rulebook(header["rulebook"]))
    except RulebookError as err:
        raise SaveError(
            f"'{shown(path, 200)}' names the rulebook '{shown(header['rulebook'], 200)}', and a "
            f"save opens one only from the library: {shown(err.message, 300)}",
            code="save/rulebook",
            hint=f"give the rulebook's path on the command line: rulebook play FILE --load "
                 f"{shlex.quote(shown(path, 200))}") from None


def _seed_ok(seed) -> bool:
    return type(seed) is int and SEEDS[0] <= seed < SEEDS[1]


def _options_ok(options) -> bool:
    """Options as a save holds them: names with a yes/no, a number, a word,
    none, or a list of words."""
    def plain(v):
        return v is None or type(v) in (bool, str) or type(v) is int and abs(v) < SEEDS[1]
    return type(options) is dict and all(
        type(k) is str and (plain(v) or type(v) is list and all(plain(x) for x in v))
        for k, v in options.items())


def _refuse_constant(name: str):
    raise ValueError(f"{name} is not a JSON number")


def _read_json(path: str) -> dict:
    """The JSON object in a save file. Only a regular file of at most
    MAX_SAVE_BYTES is read (a device, a pipe or a folder is refused at
    once); text that is not JSON, nested too deep or with numbers too long
    is save/corrupt, a file that cannot be read save/io."""
    def cannot_read(exc):
        reason = getattr(exc, "strerror", None) or str(exc)
        return SaveError(f"cannot read '{shown(path, 200)}': {reason}", code="save/io")
    try:
        # non-blocking: opening a pipe must not wait for a writer
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except (OSError, ValueError) as exc:        # ValueError: a NUL in the name
        raise cannot_read(exc) from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise SaveError(f"cannot read '{shown(path, 200)}': it is not a file",
                            code="save/io")
        if info.st_size > MAX_SAVE_BYTES:
            raise SaveError(f"'{shown(path, 200)}' is not a save file: it is "
                            f"{info.st_size:,} bytes long")
        with os.fdopen(fd, "rb", closefd=False) as file:
            raw = file.read(MAX_SAVE_BYTES + 1)
    except OSError as exc:
        raise cannot_read(exc) from None
    finally:
        os.close(fd)
    if len(raw) > MAX_SAVE_BYTES:
        raise SaveError(f"'{shown(path, 200)}' is not a save file: it is too long")
    try:
        data = json.loads(raw.decode("utf-8"), parse_constant=_refuse_constant)
    except (UnicodeDecodeError, ValueError, RecursionError) as exc:
        # ValueError: not JSON, or a number of thousands of digits
        raise SaveError(f"'{shown(path, 200)}' is not a save file: "
                        f"{type(exc).__name__}") from None
    if not isinstance(data, dict) or data.get("format") != SAVE_FORMAT:
        raise SaveError(f"'{shown(path, 200)}' is not a save file")
    if data.get("version") != SAVE_VERSION:
        raise SaveError(f"'{shown(path, 200)}' is a version {shown(data.get('version'))} save; "
                        f"this program reads version {SAVE_VERSION}")
    return data


def read_save(game, path: str):
    """A save file checked against `game`: (states, actions, data), where
    data["ai"] is {seat: kind}.

    Every part is checked: the header (its AI seats as `--ai` is), the saved
    state (`game.state_from_json`), and the history, replayed from the deal,
    which must arrive at that state. A step that cannot be played is refused
    with save/corrupt naming the step; no message shows a hidden card.
    """
    data = _read_json(path)
    where = f"'{shown(path, 200)}'"
    for key in data:
        if key not in SAVE_KEYS:
            raise SaveError(f"{where} has '{shown(key)}', which is no part of a save")
    if data.get("game") != game.name:
        raise SaveMismatch(f"{where} is a save of '{shown(data.get('game'))}', "
                           f"not of '{game.name}'")
    if not _options_ok(data.get("options")) or _normal(data["options"]) != _normal(game.options):
        these = ", ".join(f"{k}={option_text(v)}" for k, v in game.options.items())
        raise SaveMismatch(f"{where} was played with other options than this game's "
                           f"({shown(these, 300)})",
                           hint="start the game with the same --option values")
    players, seed, history = (data.get(k) for k in ("players", "seed", "history"))
    ai = data.get("ai", {})             # (early saves of games without AI seats had none)
    if type(players) is not int or not game.min_players <= players <= game.max_players:
        raise SaveError(f"{where} is not for {game.min_players} to {game.max_players} players")
    if not _seed_ok(seed):
        raise SaveError(f"{where} has no seed from {SEEDS[0]} to {SEEDS[1] - 1}")
    if type(ai) is not dict:
        raise SaveError(f"{where} does not say which seats an AI plays")
    seats = {}
    for text, kind in ai.items():
        seat = ai_seat(text)
        problem = ai_problem(seat, kind, players)
        if problem is not None:
            raise SaveError(f"{where}: the AI seat '{shown(text)}' {problem}")
        seats[seat] = kind
    if type(history) is not list:
        raise SaveError(f"{where} has no history of the game")
    try:
        saved = game.state_from_json(data.get("state"))
    except SaveMismatch:
        raise
    except SaveError as err:
        raise SaveError(f"{where} holds a state that no game can reach: {err.message}") from None
    name = data.get("rulebook")
    if not (type(name) is str and 0 < len(name) <= MAX_NAME and name.isprintable()):
        raise SaveError(f"{where} does not name its rulebook")
    states = [game.new_game(players=players, seed=seed)]
    actions = []
    for k, step in enumerate(history, 1):
        action, after = _replayed(game, states[-1], step, f"{where}: step {k} of its history")
        states.append(after)
        actions.append(action)
    if states[-1] != saved:
        raise SaveError(f"the history in {where} does not lead to its saved state")
    return states, actions, {**data, "ai": seats}


def _replayed(game, state, step, where: str) -> tuple:
    """The action a step of a save's history names, legal where it stands,
    and the state it leads to."""
    if type(step) is not dict or set(step) != {"player", "action"} \
            or type(step["player"]) is not int or type(step["action"]) is not str:
        raise SaveError(f"{where} is not a player and an action's text")
    player, text = step["player"], step["action"]
    # the text may name a hidden card: the message names the action only
    named = shown(text.split()[0] if text.split() else "", 30)
    if player not in game.to_move(state):
        raise SaveError(f"{where} (P{shown(player)}: {named}) is not that "
                        f"player's to take: the game is over or waits for another")
    try:
        action = game.parse_action(state, player, text)
        return action, game.apply(state, action)
    except RulebookError as err:
        raise SaveError(f"{where} ({player_label(player)}: {named}) cannot be played "
                        f"there ({err.code})") from None

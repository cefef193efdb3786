"""Golden screens: a scripted game of every shipped rulebook at the table,
as the player at the keyboard sees it at 120 columns.

Usage:
  python tools/screens.py [RULEBOOK ...]           record (every game, at every player count, by default)
  python tools/screens.py --check [RULEBOOK ...]   compare, and show the first screen that differs
  python tools/screens.py --tallest [RULEBOOK ...] the tallest screen of each game, in lines

For each rulebook in rulebooks/ and tests/games/ (the games made for the
screen's tests), at each of its player counts, the REPL plays a whole game: seat 0 is a player who types, at every decision, the text of a
legal action drawn from a seeded generator; the other seats are random AI
players. At the end the player asks for the log and quits. What the REPL
prints, prompts and typed lines included, is the transcript, kept in
tests/screens/NAME-Np.txt (N players), so a change to what the table shows reads as a diff
(the way rich tests its own output). tests/test_screens.py replays every
transcript, and holds every screen — from the other players' last moves (or
the table's header) to the prompt, what stays on the terminal while the
player decides — to its 45 lines.
"""

from __future__ import annotations

import argparse
import difflib
import io
import random
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from rich.console import Console  # noqa: E402

from interpreter import load_rulebook  # noqa: E402
from interpreter.terminal.repl import Repl  # noqa: E402

SCREENS = ROOT / "tests" / "screens"
WIDTH, HEIGHT = 120, 45
SEED = 1
PROMPT = "P0> "


def rulebooks() -> list:
    """The shipped rulebooks, then the games made for the screen's tests."""
    return sorted((ROOT / "rulebooks").glob("*.rules")) + sorted((ROOT / "tests" / "games").glob("*.rules"))


def tables(load=load_rulebook) -> list:
    """(rulebook, player count) of every recorded game: each rulebook at each
    of its player counts (`load` gives a rulebook's game: the tests pass one
    that keeps the games they have loaded)."""
    out = []
    for path in rulebooks():
        game = load(str(path))
        out += [(path, n) for n in range(game.min_players, game.max_players + 1)]
    return out


def screen_file(path: Path, players: int) -> Path:
    return SCREENS / f"{path.stem}-{players}p.txt"


class Player:
    """The player at the keyboard: a legal action's text at each decision;
    the log, then quit, at the end; every other question answered as Enter
    would (a hand-over) or 'no' (leaving without a save)."""

    def __init__(self, seed: int):
        self.rng = random.Random(seed)
        self.repl = None
        self.out = io.StringIO()
        self.ended = 0

    def __call__(self, prompt: str) -> str:
        repl = self.repl
        if prompt == PROMPT:
            actions = repl.game.legal_actions(repl.state, 0)
            line = str(self.rng.choice(list(actions)))
        elif prompt.startswith("game over"):
            self.ended += 1
            line = "log" if self.ended == 1 else "quit"
        elif prompt.startswith("save to"):
            line = "no"
        else:
            line = ""
        self.out.write(f"{prompt}{line}\n")
        return line


def transcript(path: Path, players: int) -> str:
    """The scripted game of one rulebook at `players` players, as printed."""
    game = load_rulebook(str(path))
    player = Player(SEED)
    console = Console(file=player.out, width=WIDTH, height=HEIGHT, color_system=None,
                      force_terminal=False, legacy_windows=False)
    with tempfile.TemporaryDirectory() as saves:     # an internal error's save goes there
        repl = Repl(game, players=players, seed=SEED, rulebook=path.stem, console=console,
                    input_fn=player, ai={p: "random" for p in range(1, players)},
                    save_dir=saves)
        player.repl = repl
        repl.run()
        return player.out.getvalue().replace(saves, "SAVES")


def screens(text: str) -> list:
    """The transcript cut at each prompt: each screen ends with its prompt's line."""
    out, lines = [], []
    for line in text.splitlines():
        lines.append(line)
        if line.startswith(PROMPT) or line.startswith("game over> "):
            out.append(lines)
            lines = []
    if lines:
        out.append(lines)
    return out


def on_screen(lines: list) -> list:
    """What stays on the terminal at the prompt: from the other players'
    last moves, or else the table's header, down to the prompt. (The story
    printed before it, moves and announcements, may scroll up.)"""
    for k, line in enumerate(lines):
        if line.startswith("Last moves: "):
            return lines[k:]
    for k, line in enumerate(lines):
        if " · view of P" in line or " · spectator view" in line:
            return lines[k:]
    return lines


def tallest(text: str) -> tuple:
    """(lines, number) of the tallest screen, numbered from 1."""
    return max((len(on_screen(s)), k) for k, s in enumerate(screens(text), 1))


def first_difference(want: str, got: str):
    """None, or a unified diff of the first screen that differs."""
    if want == got:
        return None
    a, b = screens(want), screens(got)
    for k, (x, y) in enumerate(zip(a, b), 1):
        if x != y:
            return "\n".join(difflib.unified_diff(x, y, f"screen {k} recorded", f"screen {k} now",
                                                  lineterm=""))
    return f"the recorded game has {len(a)} screens, now {len(b)}"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("rulebooks", nargs="*", help="names (e.g. hanamikoji); all by default")
    what = parser.add_mutually_exclusive_group()
    what.add_argument("--check", action="store_true", help="compare with the recorded screens")
    what.add_argument("--tallest", action="store_true", help="the tallest screen of each game")
    args = parser.parse_args(argv)
    games = [(p, n) for p, n in tables() if not args.rulebooks or p.stem in args.rulebooks]
    failed = 0
    for path, players in games:
        text = transcript(path, players)
        name = f"{path.stem} at {players} players"
        if args.tallest:
            lines, k = tallest(text)
            print(f"{name}: {len(screens(text))} screens, the tallest {lines} lines (screen {k})")
        elif args.check:
            target = screen_file(path, players)
            diff = first_difference(target.read_text(encoding="utf-8"), text) \
                if target.exists() else f"no {target.relative_to(ROOT)}"
            print(f"{name}: {'same screens' if diff is None else 'differs'}")
            if diff is not None:
                print(diff)
                failed += 1
        else:
            SCREENS.mkdir(parents=True, exist_ok=True)
            screen_file(path, players).write_text(text, encoding="utf-8")
            print(f"{name}: {len(screens(text))} screens recorded")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

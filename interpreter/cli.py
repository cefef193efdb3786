"""The `rulebook` command: validate, play, simulate and show rulebooks.

Each subcommand is a small function over the public engine API. Every
failure a user can cause ends in a message with its stable code and an exit
status, never a traceback: 1 for an invalid rulebook or a failed run, 2 for a
bad command line (usage, --ai/--option syntax, an unknown game or option).
`--debug` lets the traceback of an unexpected error through.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
from typing import Optional

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from . import errors
from .errors import CommandError, FileNotReadable, OptionError, RulebookError, RulebookErrors
from .render import player_label
from .players import KINDS as AI_KINDS
from .repl import Repl
from .simulate import simulate

USAGE_EXIT = 2
# Codes that mean "the command line named something that is not there".
USAGE_CODES = {"command/usage", "rulebook/file", "option/invalid"}


class ArgumentParser(argparse.ArgumentParser):
    """argparse that raises instead of exiting, so main() reports the code."""

    def error(self, message):
        raise CommandError(message, hint=f"see '{self.prog} --help'")


def load_game(target: str, options: Optional[dict] = None):
    """The Game for a rulebook file or a bare name from rulebooks/."""
    looks_like_path = os.sep in target or "/" in target or target.endswith(".rules")
    if looks_like_path and not os.path.isfile(target):
        raise FileNotReadable(f"cannot read '{target}': no such file",
                              hint="give a path to a .rules file or a name from rulebooks/")
    # Imported here so that the command line works (and reports) even when
    # the engine cannot be imported.
    from . import load_rulebook
    return load_rulebook(target, options=options or None)


def error_list(err: RulebookError) -> list:
    return list(err.errors) if isinstance(err, RulebookErrors) else [err]


class SourceCache:
    """Source text of the files errors point into, read once each."""

    def __init__(self, fallback: dict):
        self.fallback = fallback
        self.texts: dict = {}

    def get(self, err: RulebookError) -> Optional[str]:
        if err.span is None:
            return None
        name = err.span.file
        if name not in self.texts:
            self.texts[name] = None
            for candidate in (name, self.fallback.get(os.path.basename(name))):
                if candidate and os.path.isfile(candidate):
                    try:
                        with open(candidate, encoding="utf-8") as file:
                            self.texts[name] = file.read()
                        break
                    except (OSError, UnicodeDecodeError):
                        continue
        return self.texts[name]


def print_errors(err: RulebookError, target: str, stream) -> int:
    """Every error inside `err`, rendered with its source line; how many."""
    found = error_list(err)
    sources = SourceCache({os.path.basename(target): target})
    for e in found:
        print(errors.render(e, sources.get(e)), file=stream)
    return len(found)


# -- argument syntax --------------------------------------------------------------

def parse_assignment(text: str) -> tuple:
    name, eq, value = text.partition("=")
    if not eq or not name.strip() or not value.strip():
        raise argparse.ArgumentTypeError(f"'{text}' is not NAME=VALUE")
    return name.strip(), value.strip()


def option_arg(text: str) -> tuple:
    """`--option NAME=VALUE`; the value is read as JSON (true, 3, "x") or else
    taken as a plain word (seat_1)."""
    name, value = parse_assignment(text)
    try:
        return name, json.loads(value)
    except json.JSONDecodeError:
        return name, value


def ai_arg(text: str) -> tuple:
    """`--ai SEAT=POLICY` with SEAT as `1` or `P1`."""
    seat, policy = parse_assignment(text)
    digits = seat[1:] if seat[:1] in "pP" else seat
    if not digits.isdigit():
        raise argparse.ArgumentTypeError(f"'{seat}' is not a seat (use 1 or P1)")
    if policy not in AI_KINDS:
        raise argparse.ArgumentTypeError(
            f"unknown AI '{policy}' (known: {', '.join(AI_KINDS)})")
    return int(digits), policy


def options_of(args) -> dict:
    return dict(args.option or [])


def player_count(game, args) -> int:
    return game.min_players if args.players is None else args.players


# -- subcommands ---------------------------------------------------------------

def cmd_validate(args) -> int:
    invalid = total_errors = 0
    for target in args.files:
        try:
            load_game(target)
        except RulebookError as err:
            invalid += 1
            count = print_errors(err, target, sys.stdout)
            total_errors += count
            print(f"{target}: {count} error{'s' if count != 1 else ''}")
        except Exception as exc:  # noqa: BLE001 - one broken file must not hide the rest
            if args.debug:
                raise
            invalid += 1
            total_errors += 1
            print(f"{target}: error[internal]: {type(exc).__name__}: {exc}")
        else:
            print(f"{target}: ok")
    valid = len(args.files) - invalid
    print(f"{len(args.files)} file{'s' if len(args.files) != 1 else ''} checked: "
          f"{valid} valid, {invalid} invalid ({total_errors} error"
          f"{'s' if total_errors != 1 else ''})")
    return 0 if invalid == 0 else 1


def cmd_play(args) -> int:
    game = load_game(args.game, options_of(args))
    players = player_count(game, args)
    ai = dict(args.ai or [])
    for seat in ai:
        if seat >= players:
            raise CommandError(f"--ai names {player_label(seat)}, but there are "
                               f"only {players} players (P0..P{players - 1})")
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(10**6)
    repl = Repl(game, players=players, seed=seed, rulebook=args.game, ai=ai,
                console=Console(), input_fn=terminal_input())
    return repl.run()


def terminal_input():
    """prompt_toolkit's line editor on a real terminal, plain input() elsewhere."""
    if sys.stdin.isatty() and sys.stdout.isatty():
        try:
            from prompt_toolkit import PromptSession
        except ImportError:
            return input
        return PromptSession().prompt
    return input


def cmd_simulate(args) -> int:
    game = load_game(args.game, options_of(args))
    players = player_count(game, args)
    if args.games < 1:
        raise CommandError("--games must be at least 1")
    show_bar = sys.stderr.isatty() and not args.quiet and not args.json
    with Progress(TextColumn("simulating"), BarColumn(), MofNCompleteColumn(),
                  TimeRemainingColumn(), console=Console(stderr=True),
                  disable=not show_bar, transient=True) as bar:
        task = bar.add_task("games", total=args.games)
        result = simulate(game, players, args.games, args.seed,
                          max_decisions=args.max_decisions,
                          progress=lambda done, _total: bar.update(task, completed=done))
    if args.json:
        print(json.dumps({"game": game.name, "seed": args.seed,
                          "max_decisions": args.max_decisions, **result.to_json()},
                         indent=2))
        return 0
    console = Console()
    console.print(f"{game.name}: {result.games} random games, {players} players, "
                  f"seed {args.seed}", markup=False, highlight=False)
    seats = Table("seat", "wins", "win rate", title_justify="left")
    for p, (wins, rate) in enumerate(zip(result.wins, result.win_rates)):
        seats.add_row(player_label(p), f"{wins:g}", f"{rate:.1%}")
    console.print(seats)
    figures = Table("figure", "value", title_justify="left")
    figures.add_row("games finished", str(result.completed))
    figures.add_row(f"games cut off at {args.max_decisions} decisions", str(result.capped))
    figures.add_row("mean decisions per game", f"{result.mean_decisions:.1f}")
    figures.add_row("mean rounds per game", f"{result.mean_rounds:.2f}")
    figures.add_row("games per second", f"{result.games_per_second:.1f}")
    figures.add_row("decisions per second", f"{result.decisions_per_second:.0f}")
    console.print(figures)
    return 0


def cmd_show(args) -> int:
    game = load_game(args.file, options_of(args))
    if args.ir:
        print(json.dumps(game.ir, indent=2, ensure_ascii=False))
        return 0
    print(f"{game.name}: {game.min_players}-{game.max_players} players")
    for name, value in game.options.items():
        print(f"  option {name} = {json.dumps(value)}")
    return 0


# -- the parser ----------------------------------------------------------------

def build_parser() -> ArgumentParser:
    parser = ArgumentParser(prog="rulebook", description="Rules-as-data board games.")
    parser.add_argument("--debug", action="store_true",
                        help="show the traceback of an unexpected error")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)

    validate = sub.add_parser("validate", help="check rulebooks and list every error")
    validate.add_argument("files", nargs="+", metavar="FILE")
    validate.set_defaults(run=cmd_validate)

    def game_options(p, target="game", metavar="GAME|FILE"):
        p.add_argument(target, metavar=metavar)
        p.add_argument("--option", action="append", type=option_arg, metavar="NAME=VALUE",
                       help="set a rulebook option (repeatable)")

    play = sub.add_parser("play", help="play at the terminal (hot-seat and AI seats)")
    game_options(play)
    play.add_argument("--players", type=int, help="default: the fewest the game allows")
    play.add_argument("--seed", type=int, help="default: a random seed, printed")
    play.add_argument("--ai", action="append", type=ai_arg, metavar="SEAT=KIND",
                      help=f"let the computer play a seat: {', '.join(AI_KINDS)} (repeatable)")
    play.set_defaults(run=cmd_play)

    sim = sub.add_parser("simulate", help="random games: win rates, lengths, speed")
    game_options(sim)
    sim.add_argument("--games", type=int, default=100)
    sim.add_argument("--players", type=int, help="default: the fewest the game allows")
    sim.add_argument("--seed", type=int, default=0, help="game i is dealt with seed+i")
    sim.add_argument("--max-decisions", type=int, default=10000,
                     help="cut a game off after this many decisions")
    sim.add_argument("--json", action="store_true", help="print the figures as JSON")
    sim.add_argument("--quiet", action="store_true", help="no progress bar")
    sim.set_defaults(run=cmd_simulate)

    show = sub.add_parser("show", help="print a rulebook's compiled form")
    game_options(show, "file", "FILE")
    show.add_argument("--ir", action="store_true", help="the IR as JSON")
    show.set_defaults(run=cmd_show)
    return parser


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except CommandError as err:
        print(str(err), file=sys.stderr)
        return USAGE_EXIT
    except SystemExit as done:  # --help
        return done.code if isinstance(done.code, int) else 0
    try:
        return args.run(args)
    except RulebookError as err:
        target = getattr(args, "game", None) or getattr(args, "file", None) or ""
        print_errors(err, target, sys.stderr)
        codes = {e.code for e in error_list(err)}
        return USAGE_EXIT if codes <= USAGE_CODES or isinstance(err, OptionError) else 1
    except KeyboardInterrupt:
        return 130
    except Exception as exc:  # noqa: BLE001 - a bug must still not end in a traceback
        if args.debug:
            raise
        print(f"error[internal]: {type(exc).__name__}: {exc} "
              f"(run 'rulebook --debug ...' for the traceback)", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())

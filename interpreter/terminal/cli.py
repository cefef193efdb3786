"""The `rulebook` command: validate, play, simulate, analyse, compare, rank AI
players (tournament) and show rulebooks.

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
import shlex
import sys
from dataclasses import replace
from typing import Optional

from rich.console import Console
from rich.progress import (BarColumn, MofNCompleteColumn, Progress, TextColumn,
                           TimeElapsedColumn, TimeRemainingColumn)

from .. import errors
from ..errors import (CommandError, FileNotReadable, OptionError, RulebookError,
                      RulebookErrors, SaveError, WorkerFailed)
from ..printable import printable, printable_json
from .render import guarded, player_label
from ..runtime.saved import shown
from ..game.options import option_text
from ..ai.players import KINDS as AI_KINDS
from .repl import Repl
from ..presentation.savefile import SEEDS, ai_problem, ai_seat, read_save, save_header, saved_rulebook
from ..presentation.rules import rules_text
from ..simulation.parallel import BACKENDS, Source
from ..simulation.parallel import run as run_games
from .reports import print_comparison, print_coverage, print_simulation, say, side_lines
from .analysis_text import print_analysis
from .tournament_report import print_tournament
from ..simulation import tournament
from ..simulation import playcheck, report_html
from ..simulation.records import record_lines
from ..simulation.simulate import Plan, Timer
from ..simulation.analysis import metrics as analysis_metrics
from ..simulation.simulate import coverage as simulation_coverage

USAGE_EXIT = 2
# Codes that mean "the command line named something that is not there".
USAGE_CODES = {"command/usage", "rulebook/file", "option/invalid", "command/unknown-ai",
               "command/ai-budget", "command/tournament-entrants"}


class ArgumentParser(argparse.ArgumentParser):
    """argparse that raises instead of exiting, so main() reports the code."""

    def error(self, message):
        raise CommandError(message, hint=f"see '{self.prog} --help'")


def load_game(target: str, options: Optional[dict] = None, library: Optional[str] = None):
    """The Game for a rulebook file or a bare name from rulebooks/; `library`
    is the folder named with --library (default: the nearest folder above
    the file with a rulebooks.toml)."""
    looks_like_path = os.sep in target or "/" in target or target.endswith(".rules")
    if looks_like_path and not os.path.isfile(target):
        raise FileNotReadable(f"cannot read '{target}': no such file",
                              hint="give a path to a .rules file or a name from rulebooks/")
    # Imported here so that the command line works (and reports) even when
    # the engine cannot be imported.
    from ..game.load import load_rulebook
    return load_rulebook(target, options=options or None, library=library)


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


def echo(text: str, stream=None) -> None:
    """A line of the command's own output, fit for a terminal: it may quote
    a file's name, a rulebook's title, an exception's words. Flushed at
    once, so a program reading the command's output (serve's links) has it
    while the command goes on."""
    print(printable(text), file=stream or sys.stdout, flush=True)


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
    """`--option NAME=VALUE`: the value stays text, which the game reads by
    the option's kind (game/options.py: a number, yes/no, a word, …)."""
    return parse_assignment(text)


def folder_arg(text: str) -> str:
    """`--library FOLDER`: a folder that exists."""
    if not os.path.isdir(text):
        raise argparse.ArgumentTypeError(f"'{shown(text)}' is not a folder (name the folder "
                                         f"that holds the rulebooks of the library)")
    return text


def ai_arg(text: str) -> tuple:
    """`--ai SEAT=POLICY` with SEAT as `1` or `P1`."""
    seat, policy = parse_assignment(text)
    number = ai_seat(seat)
    if number is None:
        raise argparse.ArgumentTypeError(f"'{seat}' is not a seat (use 1 or P1)")
    if policy not in AI_KINDS:
        raise argparse.ArgumentTypeError(
            f"unknown AI '{policy}' (known: {', '.join(AI_KINDS)})")
    return number, policy


def options_of(args) -> dict:
    return dict(args.option or [])


def player_count(game, args) -> int:
    return game.min_players if args.players is None else args.players


# -- subcommands ---------------------------------------------------------------

def cmd_validate(args) -> int:
    check_play_arguments(args)
    invalid = total_errors = 0
    for target in args.files:
        count = validate_file(target, args)
        invalid += count > 0
        total_errors += count
    valid = len(args.files) - invalid
    print(f"{len(args.files)} file{'s' if len(args.files) != 1 else ''} checked: "
          f"{valid} valid, {invalid} invalid ({total_errors} error"
          f"{'s' if total_errors != 1 else ''})")
    return 0 if invalid == 0 else 1


def validate_file(target: str, args) -> int:
    """`validate` of one file: its static checks and, with --play, its random
    games; everything found is printed. The number of errors."""
    options = options_of(args)
    try:
        game = load_game(target, options, args.library)
        game.compile_all()          # each player count validate checks, not only the smallest
        report = None if args.play is None else playcheck.check(
            game, args.play, args.seed or 0, args.max_decisions or playcheck.MAX_DECISIONS)
    except RulebookError as err:
        count = print_errors(err, target, sys.stdout)
        echo(f"{target}: {plural(count, 'error')}")
        return count
    except Exception as exc:  # noqa: BLE001 - one broken file must not hide the rest
        if args.debug:
            raise
        echo(f"{target}: error[internal]: {type(exc).__name__}: {exc}")
        return 1
    if report is None:
        echo(f"{target}: ok")
        return 0
    sources = SourceCache({os.path.basename(target): target})
    for finding in report.findings:
        error = finding.reported()
        print(errors.render(error, sources.get(error)))
        games = plural(report.played, 'random game')
        if not finding.games:           # of all the games together (rule/never-legal)
            echo(f"     = legal in none of {games}" + (
                "" if finding.players is None else
                f"; the last refusal is in: {replay_command(target, finding, options)}"))
            continue
        echo(f"     = found in {finding.games} of {games}; "
             f"replay it: {replay_command(target, finding, options)}")
    played = plural(report.played, "random game") + (
        f", {report.skipped} skipped after an endless one" if report.skipped else "")
    count = len(report.findings)
    echo(f"{target}: " + (f"{plural(count, 'error')} ({played})" if count
                          else f"ok ({played} played to the end)"))
    return count


def plural(count: int, word: str) -> str:
    return f"{count} {word}{'s' if count != 1 else ''}"


def replay_command(target: str, finding, options: dict) -> str:
    """The `rulebook play` command that plays a found game again, move for
    move: every seat the random AI, seeded as the play check seeds it."""
    words = ["rulebook", "play", target, "--players", str(finding.players),
             "--seed", str(finding.seed)]
    for seat in range(finding.players):
        words += ["--ai", f"{seat}=random"]
    for name, value in options.items():
        words += ["--option", f"{name}={option_text(value)}"]
    return " ".join(shlex.quote(w) for w in words)


def check_play_arguments(args) -> None:
    for flag, value in (("--play", args.play), ("--max-decisions", args.max_decisions)):
        if value is not None and value < 1:
            raise CommandError(f"{flag} must be at least 1, not {value}")
    if args.play is None:
        for flag, value in (("--seed", args.seed), ("--max-decisions", args.max_decisions)):
            if value is not None:
                raise CommandError(f"{flag} is for --play",
                                   hint="rulebook validate FILE… --play N")
    elif args.seed is not None and not SEEDS[0] <= args.seed <= SEEDS[1] - args.play:
        raise CommandError(f"--seed must be from {SEEDS[0]} to {SEEDS[1] - args.play}")


def play_games(text: str) -> int:
    """The N of `--play N`; a file name after a bare --play is told apart."""
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"takes a number of games, not '{shown(text, 80)}': put --play after the files "
            f"(rulebook validate FILE… --play), or give the number (--play 20)") from None


def cmd_play(args) -> int:
    if args.load is not None:
        return resume(args)
    if args.game is None:
        raise CommandError("play needs a game, or --load FILE to resume a saved one",
                           hint="rulebook play GAME --players N, or rulebook play --load SAVE")
    game, players, ai, seed = new_game_of(args)
    repl = Repl(game, players=players, seed=seed, rulebook=args.game, ai=ai, library=args.library,
                console=Console(), input_fn=terminal_input())
    return repl.run()


def new_game_of(args) -> tuple:
    """(game, players, AI seats, seed) of a new game, as `play` and `serve`
    are asked for one: every argument checked first."""
    game = load_game(args.game, options_of(args), args.library)
    players = player_count(game, args)
    check_player_count(game, players)
    ai = dict(args.ai or [])
    for seat, kind in ai.items():
        problem = ai_problem(seat, kind, players)
        if problem is not None:
            raise CommandError(f"--ai {problem}")
    if args.seed is not None and not SEEDS[0] <= args.seed < SEEDS[1]:
        raise CommandError(f"--seed must be from {SEEDS[0]} to {SEEDS[1] - 1}")
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(10**6)
    return game, players, ai, seed


def saved_game_of(args) -> tuple:
    """(the rulebook's name, game, states, actions, the save's data) of the
    game saved in `--load`, with its rulebook, options, players, seed and AI
    seats, as `play` and `serve` resume one."""
    for flag, given in (("--players", args.players), ("--seed", args.seed), ("--ai", args.ai)):
        if given is not None:
            raise CommandError(f"{flag} is taken from the save with --load")
    header = save_header(args.load)
    # the rulebook the user names is theirs to trust; the save's only from the library
    target = args.game or header["rulebook"]
    try:
        game = load_game(args.game or saved_rulebook(header, args.load),
                         options_of(args) or header["options"], args.library)
    except OptionError as err:
        if options_of(args):
            raise
        raise SaveError(f"the options in '{shown(args.load, 200)}' do not fit {shown(target)}: "
                        f"{err.message}",
                        hint=err.hint) from None
    states, actions, data = read_save(game, args.load)
    return target, game, states, actions, data


def resume(args) -> int:
    """`rulebook play [GAME] --load FILE`: the saved game, from where it was,
    with its rulebook, options, players, seed and AI seats."""
    target, game, states, actions, data = saved_game_of(args)
    repl = Repl(game, players=data["players"], seed=data["seed"], rulebook=target,
                library=args.library,
                console=Console(), input_fn=terminal_input())
    repl.restore(args.load, states, actions, data)
    return repl.run()


def terminal_input():
    """prompt_toolkit's line editor on a real terminal, plain input() elsewhere.
    Bytes that are not UTF-8 are read as U+FFFD, which no action or command
    is, and refused as any other unknown text."""
    if hasattr(sys.stdin, "reconfigure"):
        sys.stdin.reconfigure(errors="replace")
    if sys.stdin.isatty() and sys.stdout.isatty():
        try:
            from prompt_toolkit import PromptSession
        except ImportError:
            return input
        return PromptSession().prompt
    return input


# -- simulate and compare -----------------------------------------------------------

def simulation_plan(game, args) -> Plan:
    """The plan of `simulate`/`compare` from the command line, every number
    checked: a bad one is a usage error, not a traceback later."""
    for flag, value in (("--games", args.games), ("--max-decisions", args.max_decisions),
                        ("--iterations", args.iterations), ("--workers", args.workers)):
        if value is not None and value < 1:
            raise CommandError(f"{flag} must be at least 1, not {value}")
    if args.address is not None and args.backend != "ray":
        raise CommandError("--address is for --backend ray")
    players = player_count(game, args)
    check_player_count(game, players)
    seats = ["random"] * players
    for seat, kind in args.ai or []:
        if seat >= players:
            raise CommandError(f"--ai names {player_label(seat)}, but there are "
                               f"only {players} players (P0..P{players - 1})")
        seats[seat] = kind
    return Plan(players=players, seats=tuple(seats), seed=args.seed,
                iterations=args.iterations, max_decisions=args.max_decisions,
                log_actions=args.records is not None)


def check_player_count(game, players: int) -> None:
    if not game.min_players <= players <= game.max_players:
        raise OptionError(f"{game.name} is for {game.min_players} to {game.max_players} "
                          f"players, not {players}")


def output_targets(args) -> None:
    """Checks now, not after the run, that the files of --json, --records and
    --report can be written, that no two of them are one file, and that
    --report has matplotlib to draw with."""
    given = [(flag, path) for flag, path in (("--json", args.json), ("--records", args.records),
                                             ("--report", args.report)) if path is not None]
    seen: dict = {}
    for flag, path in given:
        if path == "-":
            if flag != "--json":
                example = "report.html" if flag == "--report" else "games.jsonl"
                raise CommandError(f"{flag} writes a file, not standard output: "
                                   f"{flag} {example}")
            continue
        folder = os.path.dirname(os.path.abspath(path))
        if not os.path.isdir(folder):
            raise CommandError(f"cannot write '{path}': no folder '{folder}'")
        if os.path.isdir(path):
            raise CommandError(f"cannot write '{path}': it is a folder")
        same = seen.get(os.path.abspath(path))
        if same is not None:
            raise CommandError(f"{same} and {flag} both name '{path}': each needs a file "
                               f"of its own")
        seen[os.path.abspath(path)] = flag
    if args.report is not None:
        if not args.report.lower().endswith((".html", ".htm")):
            raise CommandError(f"--report writes an HTML page: '{args.report}' does not end "
                               f"in .html (--report {os.path.splitext(args.report)[0]}.html)")
        report_html.require()


def write_text(path: str, flag: str, chunks) -> None:
    """Writes the text pieces to the file, as a one-line error if it cannot."""
    try:
        with open(path, "w", encoding="utf-8") as file:
            for chunk in chunks:
                file.write(chunk)
    except OSError as err:
        raise CommandError(f"cannot write {flag} '{path}': {err.strerror}") from None


def write_json(args, data: dict) -> None:
    text = json.dumps(data, indent=2)
    if args.json == "-":
        print(text)
        return
    write_text(args.json, "--json", [text + "\n"])


def write_records(args, batch, plan: Plan, sources: list) -> None:
    """--records: one JSON line per game, in game order (see simulation.records)."""
    if args.records is not None:
        write_text(args.records, "--records",
                   (line + "\n" for line in record_lines(batch.records, plan, sources)))


def progress_bar(label: str, total: int, quiet: bool) -> tuple:
    """(a progress bar of `total` games on stderr, hidden when stderr is no
    terminal or with --quiet; the `progress(done, total)` that moves it). The
    bar starts at the first progress report; stop it when the games end."""
    bar = Progress(TextColumn(label), BarColumn(), MofNCompleteColumn(),
                   TimeElapsedColumn(), TimeRemainingColumn(), console=Console(stderr=True),
                   disable=not sys.stderr.isatty() or quiet, transient=True)
    task = bar.add_task("games", total=total)

    def progress(done: int, _total: int) -> None:
        if not bar.live.is_started:
            bar.start()
        bar.update(task, completed=done)
    return bar, progress


def play_batch(args, sources: list, games: list, plan: Plan):
    """Runs the games with a progress bar on stderr (when it is a terminal).
    The bar starts at the first progress report, once the worker processes
    exist, so that they are not forked while its thread runs."""
    if args.backend == "ray":
        workers = args.workers           # None: one per CPU of the cluster, not of this machine
    else:
        workers = min(args.workers or os.cpu_count() or 1, args.games)
    bar, progress = progress_bar("simulating", args.games * len(sources), args.quiet)
    try:
        return run_games(sources, plan, args.games, loaded=games, workers=workers,
                         backend=args.backend, address=args.address, coverage=args.coverage,
                         progress=progress, keep_records=args.records is not None)
    except WorkerFailed as err:          # on Ray too
        return err.partial               # reported as a run cut short, then the error
    finally:
        bar.stop()


def report_of(batch, which: int, plan: Plan, games: int, timer: Timer, game) -> dict:
    # in a comparison both rulebooks' histograms share their edges
    along = batch.tallies[1 - which] if len(batch.tallies) == 2 else None
    report = batch.tallies[which].report(plan, games, along, game)
    report["lowest_wins"] = game.lowest_wins
    report["interrupted"] = batch.interrupted
    report["timing"] = timer.timing(report["played"], report["total_decisions"],
                                    batch.workers, batch.backend)
    if batch.backend == "ray" or batch.workers > 1:
        report["timing"]["replayed_chunks"] = batch.replayed
    return report


def command_line(args) -> str:
    """The command as it was given, quoted for a shell, for a report to say
    how it was made (and how to make it again)."""
    return "rulebook " + shlex.join(getattr(args, "argv", None) or [])


def titled(target: str, game, options: dict) -> str:
    shown = ", ".join(f"{k}={json.dumps(game.options[k])}" for k in options)   # as read
    return f"{game.name} ({target}{'; ' + shown if shown else ''})"


def cmd_simulate(args) -> int:
    options = options_of(args)
    game = load_game(args.game, options, args.library)
    plan = simulation_plan(game, args)
    batch, report = played_report(args, game, options, plan)

    def show(console, title: str) -> None:
        print_simulation(report, console, title)
        if args.coverage:
            print_coverage(report["coverage"], console)
    return put_out(args, game, options, batch, plan, report, report_html.simulation_page, show)


def played_report(args, game, options: dict, plan: Plan) -> tuple:
    """(the batch, its report) of one rulebook's games, as simulate and
    analyse play them: the command, the options and the fingerprint with the
    figures, and the coverage where asked."""
    output_targets(args)
    timer = Timer()
    batch = play_batch(args, [Source.of(game, args.game, options)], [game], plan)
    report = {"game": game.name, "rulebook": args.game, "options": game.options,
              "command": command_line(args), "fingerprint": game.fingerprint,
              **report_of(batch, 0, plan, args.games, timer, game)}
    if args.coverage:
        report["coverage"] = simulation_coverage(game, batch.coverage[0], plan.players)
    return batch, report


def put_out(args, game, options: dict, batch, plan: Plan, report: dict, page, show) -> int:
    """What simulate and analyse do with one rulebook's report: --json,
    --records and --report (`page(report, title)`) written, the report shown
    at the terminal (`show(console, title)`) unless the JSON goes to stdout;
    then a worker's failure raised, or the exit code (130 when cut short)."""
    title = titled(args.game, game, options)
    if args.json:
        write_json(args, report)
    write_records(args, batch, plan, [(args.game, game.options)])
    if args.report:
        write_text(args.report, "--report", [page(report, title)])
    if args.json != "-":
        show(guarded(Console()), title)
    return finished(batch)


def finished(batch) -> int:
    """A worker's failure raised once the outputs are written, else the exit
    code: 130 when the run was cut short, 0."""
    if batch.failure is not None:
        raise batch.failure
    return 130 if batch.interrupted else 0


def cmd_analyse(args) -> int:
    """`rulebook analyse`: simulate's games watched decision by decision,
    and the game's metrics (simulation.analysis; docs/results.md)."""
    options = options_of(args)
    game = load_game(args.game, options, args.library)
    plan = replace(simulation_plan(game, args), measure=True)
    args.coverage = True                 # rules never used is one of the metrics
    batch, report = played_report(args, game, options, plan)
    report["metrics"] = analysis_metrics(report)
    return put_out(args, game, options, batch, plan, report, report_html.analysis_page,
                   lambda console, title: print_analysis(report, console, title))


def cmd_compare(args) -> int:
    options = options_of(args)
    variant_options = {**options, **dict(args.variant_option or [])}
    base = load_game(args.base, options, args.library)
    variant = load_game(args.variant, variant_options, args.library)
    plan = simulation_plan(base, args)
    check_player_count(variant, plan.players)
    output_targets(args)
    timer = Timer()
    sources = [Source.of(base, args.base, options),
               Source.of(variant, args.variant, variant_options)]
    batch = play_batch(args, sources, [base, variant], plan)
    reports = [report_of(batch, k, plan, args.games, timer, g)
               for k, g in enumerate((base, variant))]
    comparison = batch.pairing.report(plan)
    comparison["lowest_wins"] = {"base": base.lowest_wins, "variant": variant.lowest_wins}
    comparison["interrupted"] = batch.interrupted
    titles = [titled(args.base, base, options), titled(args.variant, variant, variant_options)]
    result = {"command": command_line(args),
              "base": {"game": base.name, "rulebook": args.base, "options": base.options,
                       "fingerprint": base.fingerprint, **reports[0]},
              "variant": {"game": variant.name, "rulebook": args.variant,
                          "options": variant.options, "fingerprint": variant.fingerprint,
                          **reports[1]},
              "comparison": comparison}
    if args.coverage:
        for key, game, k in (("base", base, 0), ("variant", variant, 1)):
            result[key]["coverage"] = simulation_coverage(game, batch.coverage[k], plan.players)
    if args.json:
        write_json(args, result)
    write_records(args, batch, plan, [(args.base, base.options), (args.variant, variant.options)])
    if args.report:
        write_text(args.report, "--report", [report_html.comparison_page(result, *titles)])
    if args.json != "-":
        console = guarded(Console())
        if base.fingerprint == variant.fingerprint:
            say(console, "note: the base and the variant have the same rules and options")
        print_comparison(comparison, console, *titles)
        for key in ("base", "variant"):
            for line in side_lines(key, result[key]):
                say(console, line)
        if args.coverage:
            for key, title in zip(("base", "variant"), titles):
                say(console, f"{key}: {title}")
                print_coverage(result[key]["coverage"], console)
    return finished(batch)


def cmd_tournament(args) -> int:
    """Every pair of the --ai entrants on both seatings, then the Elo table."""
    entrants = tournament.entrants_of(args.ai)
    for flag, value in (("--games", args.games), ("--max-decisions", args.max_decisions),
                        ("--workers", args.workers)):
        if value is not None and value < 1:
            raise CommandError(f"{flag} must be at least 1, not {value}")
    options = options_of(args)
    game = load_game(args.game, options, args.library)
    players = player_count(game, args)
    check_player_count(game, players)
    output_targets(args)
    pairs = len(entrants) * (len(entrants) - 1) // 2
    bar, progress = progress_bar("playing", args.games * pairs, args.quiet)
    try:
        played = tournament.play(game, Source.of(game, args.game, options), entrants, players,
                                 args.games, seed=args.seed, max_decisions=args.max_decisions,
                                 workers=args.workers or 1, progress=progress)
    finally:
        bar.stop()
    report = {"game": game.name, "rulebook": args.game, "options": game.options,
              **tournament.report(entrants, played, players, args.games, args.seed)}
    if args.json:
        write_json(args, report)
    if args.json != "-":
        print_tournament(report, guarded(Console()), titled(args.game, game, options))
    return 0


def cmd_show(args) -> int:
    game = load_game(args.file, options_of(args), args.library)
    if args.ir:
        print(printable_json(json.dumps(game.ir, indent=2, ensure_ascii=False)))
        return 0
    if args.python:
        players = player_count(game, args)
        check_player_count(game, players)
        echo(f"# {game.name}, {players} players: the Python its formulas, flow and option "
             f"listings are compiled to")
        echo(game.program(players).python.text())
        return 0
    echo(f"{game.name}: {game.min_players}-{game.max_players} players")
    for name, value in game.options.items():
        echo(f"  option {name} = {json.dumps(value)}")
    return 0


def cmd_rules(args) -> int:
    from rich.markdown import Markdown
    guarded(Console()).print(Markdown(rules_text(args.game, args.library)))
    return 0


def cmd_serve(args) -> int:
    """`rulebook serve GAME`: the game at a table in the browser, a link per
    seat (needs rulebook[web]); resumed from its save with --load."""
    try:
        from ..web.server import listening, serve
        from ..web.table import Table, read_tokens, tokens_path
    except ImportError as exc:
        raise CommandError(f"serve needs the browser table's packages ({exc.name} is missing)",
                           code="serve/web-missing",
                           hint="pip install 'rulebook[web]'") from None
    if args.load is not None:
        target, game, states, actions, data = saved_game_of(args)
        players, seed, ai, save = data["players"], data["seed"], data["ai"], args.save or args.load
        tokens = read_tokens(tokens_path(args.load), players)
    else:
        if args.game is None:
            raise CommandError("serve needs a game, or --load FILE to resume a saved one",
                               hint="rulebook serve GAME --players N")
        target = args.game
        game, players, ai, seed = new_game_of(args)
        states = actions = tokens = None
        save = args.save or f"{os.path.splitext(os.path.basename(target))[0]}-table.json"
        if args.save is None and os.path.exists(save):
            raise CommandError(f"'{shown(save, 200)}' holds a game already: serve would write "
                               f"over it", code="serve/exists",
                               hint=f"resume it: rulebook serve --load {shlex.quote(save)}; or "
                                    f"start another: rulebook serve {shlex.quote(target)} "
                                    f"--save FILE")
    if not 0 <= args.port < 65536:
        raise CommandError(f"--port must be from 0 to 65535, not {args.port}")
    try:
        rules = rules_text(target, args.library)
    except (CommandError, RulebookError):
        rules = ""
    table = Table(game, rulebook=target, players=players, seed=seed, ai=ai, save_path=save,
                  rules=rules, tokens=tokens, states=states, actions=actions)
    try:
        sock = listening(args.host, args.port)
    except OSError as exc:
        raise CommandError(f"cannot listen on {shown(args.host, 100)}:{args.port}: "
                           f"{exc.strerror or exc}", code="serve/listen",
                           hint="choose another --port, or --port 0 for any free one") from None
    echo(f"{game.name}, {players} players, seed {seed}.")
    serve(table, sock, announce=echo)
    return 0


def cmd_lsp(args) -> int:
    # imported here: the server needs pygls, an optional extra (lsp/pygls-missing without it)
    from ..editor.server import serve
    return serve()


# -- the parser ----------------------------------------------------------------

# `analyse` plays this many games when --games names no number
ANALYSE_GAMES = 200


def build_parser() -> ArgumentParser:
    parser = ArgumentParser(prog="rulebook", description="Rules-as-data board games.")
    parser.add_argument("--debug", action="store_true",
                        help="show the traceback of an unexpected error")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)

    def library_option(p):
        p.add_argument("--library", metavar="FOLDER", type=folder_arg,
                       help="the folder of the library the rulebook belongs to, where a "
                            "variant's base and data files may lie too (default: the nearest "
                            "folder above the file that holds a rulebooks.toml)")

    validate = sub.add_parser("validate", help="check rulebooks and list every error")
    validate.add_argument("files", nargs="+", metavar="FILE")
    validate.add_argument("--option", action="append", type=option_arg, metavar="NAME=VALUE",
                          help="check with a rulebook option set (repeatable)")
    validate.add_argument("--play", nargs="?", const=playcheck.GAMES, type=play_games,
                          metavar="N",
                          help=f"then play N random games per player count (default "
                               f"{playcheck.GAMES}) and list the rule errors they run into")
    validate.add_argument("--seed", type=int, metavar="S",
                          help="with --play: game i is dealt with seed S+i (default 0)")
    validate.add_argument("--max-decisions", type=int, metavar="N",
                          help=f"with --play: a game still going after N decisions is "
                               f"rule/endless (default {playcheck.MAX_DECISIONS:,})")
    library_option(validate)
    validate.set_defaults(run=cmd_validate)

    def game_options(p, target="game", metavar="GAME|FILE"):
        p.add_argument(target, metavar=metavar)
        library_option(p)
        p.add_argument("--option", action="append", type=option_arg, metavar="NAME=VALUE",
                       help="set a rulebook option (repeatable)")

    play = sub.add_parser("play", help="play at the terminal (hot-seat and AI seats)")
    play.add_argument("game", metavar="GAME|FILE", nargs="?",
                      help="the game (with --load: default, the save's)")
    play.add_argument("--option", action="append", type=option_arg, metavar="NAME=VALUE",
                      help="set a rulebook option (repeatable)")
    play.add_argument("--load", metavar="SAVE", help="resume a game saved with 'save'")
    play.add_argument("--players", type=int, help="default: the fewest the game allows")
    play.add_argument("--seed", type=int, help="default: a random seed, printed")
    play.add_argument("--ai", action="append", type=ai_arg, metavar="SEAT=KIND",
                      help=f"let the computer play a seat: {', '.join(AI_KINDS)} (repeatable)")
    library_option(play)
    play.set_defaults(run=cmd_play)

    def simulation_options(p, games=100):
        p.add_argument("--players", type=int, metavar="N",
                       help="default: the fewest the game allows")
        p.add_argument("--games", type=int, default=games, metavar="N",
                       help=f"games to play (default {games})")
        p.add_argument("--seed", type=int, default=0, metavar="S",
                       help="game i is dealt with seed S+i; its AIs are seeded from (S, i, seat)")
        p.add_argument("--ai", action="append", type=ai_arg, metavar="SEAT=KIND",
                       help=f"the player of a seat: {', '.join(AI_KINDS)} (default random; "
                            "repeatable)")
        p.add_argument("--iterations", type=int, metavar="N",
                       help="search iterations per move of mcts/ismcts (default 200)")
        p.add_argument("--workers", type=int, metavar="N",
                       help="processes to play on (default: all cores; on Ray, all "
                            "the cluster's CPUs, and at most that many)")
        p.add_argument("--backend", choices=BACKENDS, default="local",
                       help="local processes, or a Ray cluster (needs rulebook[ray])")
        p.add_argument("--address", metavar="ADDR",
                       help="the Ray cluster's address (default: start a local Ray)")
        p.add_argument("--max-decisions", type=int, default=10000, metavar="N",
                       help="cut a game off after this many decisions")
        p.add_argument("--coverage", action="store_true",
                       help="list the statements and actions that never fired, and apart "
                            "those the options in force switch off")
        p.add_argument("--json", metavar="FILE", help="write the report as JSON ('-': stdout)")
        p.add_argument("--records", metavar="FILE",
                       help="write one JSON line per game (seed, seats, scores, winners, "
                            "length, the actions taken), in game order")
        p.add_argument("--report", metavar="FILE.html",
                       help="draw the report's charts in one HTML page (needs rulebook[plot])")
        p.add_argument("--quiet", action="store_true", help="no progress bar")

    sim = sub.add_parser("simulate", help="many games: win rates, scores, lengths, actions")
    game_options(sim)
    simulation_options(sim)
    sim.set_defaults(run=cmd_simulate)

    ana = sub.add_parser("analyse", help="a game's metrics: duration, branching, decisiveness, "
                                         "lead changes, drawishness, balance, ends, rules "
                                         "never used")
    game_options(ana)
    simulation_options(ana, ANALYSE_GAMES)
    ana.set_defaults(run=cmd_analyse)

    cmp = sub.add_parser("compare", help="the same games on two rulebooks, with significance")
    cmp.add_argument("base", metavar="BASE")
    cmp.add_argument("variant", metavar="VARIANT")
    cmp.add_argument("--option", action="append", type=option_arg, metavar="NAME=VALUE",
                     help="set an option of both rulebooks (repeatable)")
    cmp.add_argument("--variant-option", action="append", type=option_arg, metavar="NAME=VALUE",
                     help="set an option of the variant only (repeatable)")
    simulation_options(cmp)
    library_option(cmp)
    cmp.set_defaults(run=cmd_compare)

    cup = sub.add_parser("tournament", help="AI players against each other: an Elo table")
    game_options(cup)
    cup.add_argument("--ai", required=True, metavar="KIND,KIND,…",
                     help=f"the entrants, at least two: {', '.join(AI_KINDS)}, a search "
                          f"budget as mcts:200 (the first entrant is Elo 0)")
    cup.add_argument("--games", type=int, default=100, metavar="N",
                     help="games per pair of entrants, half from each seating (default 100)")
    cup.add_argument("--players", type=int, metavar="N",
                     help="default: the fewest the game allows; the two entrants of a pair "
                          "alternate round the table")
    cup.add_argument("--seed", type=int, default=0, metavar="S",
                     help="deal i of every pair is dealt with seed S+i")
    cup.add_argument("--workers", type=int, metavar="N",
                     help="processes to play on (default 1)")
    cup.add_argument("--max-decisions", type=int, default=10000, metavar="N",
                     help="cut a game off after this many decisions (it counts as a draw)")
    cup.add_argument("--json", metavar="FILE", help="write the report as JSON ('-': stdout)")
    cup.add_argument("--quiet", action="store_true", help="no progress bar")
    cup.set_defaults(run=cmd_tournament, records=None, report=None)

    rules = sub.add_parser("rules", help="the rules of a game, written for players")
    rules.add_argument("game", metavar="GAME|FILE")
    library_option(rules)
    rules.set_defaults(run=cmd_rules)

    show = sub.add_parser("show", help="print a rulebook's compiled form")
    game_options(show, "file", "FILE")
    show.add_argument("--ir", action="store_true", help="the IR as JSON")
    show.add_argument("--python", action="store_true",
                      help="the Python the rulebook is compiled to (with --players)")
    show.add_argument("--players", type=int, help="with --python; default: the fewest allowed")
    show.set_defaults(run=cmd_show)

    web = sub.add_parser("serve", help="play in the browser: a link per seat, each on its own "
                                       "screen (needs rulebook[web])")
    web.add_argument("game", metavar="GAME|FILE", nargs="?",
                     help="the game (with --load: default, the save's)")
    web.add_argument("--option", action="append", type=option_arg, metavar="NAME=VALUE",
                     help="set a rulebook option (repeatable)")
    web.add_argument("--players", type=int, help="default: the fewest the game allows")
    web.add_argument("--seed", type=int, help="default: a random seed, printed")
    web.add_argument("--ai", action="append", type=ai_arg, metavar="SEAT=KIND",
                     help=f"let the computer play a seat: {', '.join(AI_KINDS)} (repeatable)")
    web.add_argument("--host", default="127.0.0.1",
                     help="the address to listen on (default 127.0.0.1: this machine only)")
    web.add_argument("--port", type=int, default=8000, help="default 8000; 0: any free port")
    web.add_argument("--save", metavar="FILE",
                     help="the file the game is saved to after every move (default: "
                          "GAME-table.json here)")
    web.add_argument("--load", metavar="SAVE", help="resume a game saved by serve or play")
    library_option(web)
    web.set_defaults(run=cmd_serve)

    lsp = sub.add_parser("lsp", help="a language server for editors, over stdin and stdout "
                                     "(needs rulebook[lsp])")
    lsp.set_defaults(run=cmd_lsp)
    return parser


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except CommandError as err:
        echo(str(err), sys.stderr)
        return USAGE_EXIT
    except SystemExit as done:  # --help
        return done.code if isinstance(done.code, int) else 0
    args.argv = argv
    try:
        return args.run(args)
    except RulebookError as err:
        target = (getattr(args, "game", None) or getattr(args, "file", None)
                  or getattr(args, "base", None) or "")
        print_errors(err, target, sys.stderr)
        codes = {e.code for e in error_list(err)}
        return USAGE_EXIT if codes <= USAGE_CODES or isinstance(err, OptionError) else 1
    except KeyboardInterrupt:
        return 130
    except Exception as exc:  # noqa: BLE001 - a bug must still not end in a traceback
        if args.debug:
            raise
        echo(f"error[internal]: {type(exc).__name__}: {exc} "
             f"(run 'rulebook --debug ...' for the traceback)", sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())

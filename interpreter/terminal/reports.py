"""Simulation and comparison reports drawn for a reader at the terminal.

The reports themselves are plain JSON built by `interpreter.simulation.simulate`; this
module only lays them out with rich (tables, a one-line histogram per seat)
and writes the sentences a designer reads ("P1 wins 54.1% ± 1.2 vs 50.3% ±
1.2: significant (p = 0.003)"). Nothing here computes a figure. What a
report quotes of a rulebook (its title, an action's name, a source line of
the coverage) is printed `printable`, as `Text`, never read as markup.
"""

from __future__ import annotations

from typing import Optional

from rich.console import Console
from rich.table import Table
from rich.text import Text

from ..printable import printable
from .render import player_label
from ..simulation.simulate import ALPHA, decided_text

BARS = "▁▂▃▄▅▆▇█"


def sparkline(histogram: dict) -> str:
    """One character per bin, its height by count; an empty bin is a blank."""
    counts = histogram["counts"]
    top = max(counts, default=0)
    if top == 0:
        return ""
    return "".join(" " if c == 0 else BARS[min(len(BARS) - 1, (c * len(BARS) - 1) // top)]
                   for c in counts)


def number(x) -> str:
    """A figure with as many decimals as it needs (at most two)."""
    return f"{x:.0f}" if float(x).is_integer() else f"{x:.2f}".rstrip("0")


def p_cell(p: float) -> str:
    return "< 0.001" if p < 0.001 else f"{p:.3f}"


def p_value(p: float) -> str:
    return "p " + (p_cell(p) if p < 0.001 else "= " + p_cell(p))


def say(console: Console, text: str) -> None:
    """A line of prose: no markup, no colouring, wrapped by the terminal."""
    console.print(Text(printable(text)), soft_wrap=True)


def seeds_text(seed: int, games: int) -> str:
    """The seeds a run's games were dealt with: two runs whose seeds overlap
    played the same games there, and are not two samples."""
    return f"games dealt with seed {seed}" if games == 1 else \
        f"games dealt with seeds {seed}–{seed + games - 1}"


def seats_line(plan: dict) -> str:
    budget = f" ({plan['iterations']} iterations/move)" if plan.get("iterations") else ""
    return ", ".join(f"{player_label(s)} {kind}" + (budget if kind in ("mcts", "ismcts") else "")
                     for s, kind in enumerate(plan["seats"]))


def print_heading(report: dict, console: Console, title: str) -> None:
    """The lines that open a report of games: what was played, by whom, on
    which rules, and whether the run was cut short."""
    plan = report["plan"]
    say(console, f"{title}: {report['games']} games, {plan['players']} players, "
                  f"seed {plan['seed']} ({seeds_text(plan['seed'], report['games'])})")
    say(console, f"seats: {seats_line(plan)}")
    if report.get("fingerprint"):
        say(console, f"rules fingerprint {report['fingerprint']}")
    if report.get("interrupted"):
        say(console, f"interrupted: the figures of the {report['played']} games finished")


def print_simulation(report: dict, console: Console, title: str) -> None:
    plan = report["plan"]
    print_heading(report, console, title)
    wins = Table("seat", "AI", "wins", "win rate", "95% interval", title_justify="left")
    scores = Table("seat", "score mean", "sd", "min", "p25", "median", "p75", "max",
                   "distribution", title_justify="left",
                   title="scores: the lowest score wins" if report.get("lowest_wins") else None)
    for row in report["seats"]:
        low, high = row["ci95"]
        wins.add_row(player_label(row["seat"]), row["ai"], number(row["wins"]),
                     f"{row['win_rate']:.1%}", f"{low:.1%}–{high:.1%}")
        d = row["score"]
        q = d["quantiles"]
        scores.add_row(player_label(row["seat"]), f"{d['mean']:.2f}", f"{d['sd']:.2f}",
                       number(d["min"]), number(q["p25"]), number(q["p50"]), number(q["p75"]),
                       number(d["max"]), sparkline(d["histogram"]))
    console.print(wins)
    if "draws" in report:
        say(console, draws_line(report["draws"], report["completed"], plan["players"]))
    if "first_mover" in report:
        say(console, first_mover_line(report["first_mover"]))
    if "seat_p0" in report:
        say(console, seat_p0_line(report["seat_p0"]))
    console.print(scores)

    length = Table("game length", "mean", "sd", "min", "median", "max", title_justify="left")
    for key, label in (("decisions", "decisions"), ("rounds", "rounds")):
        d = report[key]
        length.add_row(label, f"{d['mean']:.2f}", f"{d['sd']:.2f}", number(d["min"]),
                       number(d["quantiles"]["p50"]), number(d["max"]))
    console.print(length)

    if report.get("margin", {}).get("n"):
        say(console, margin_line(report["margin"], report.get("lowest_wins", False)))
    if report.get("endings"):
        for line in ending_lines(report["endings"]):
            say(console, line)

    by_seat = report.get("actions_by_seat", [])
    shown_seats = by_seat if 1 < len(by_seat) <= MAX_SEAT_COLUMNS else []
    actions = Table("action", "times taken", "share of decisions",
                    *(f"{player_label(s['seat'])} share" for s in shown_seats),
                    title_justify="left")
    for name, row in report["actions"].items():
        actions.add_row(Text(printable(name, lines=False)), str(row["count"]),
                        f"{row['share']:.1%}",
                        *(f"{s['actions'].get(name, {'share': 0.0})['share']:.1%}"
                          for s in shown_seats))
    console.print(actions)
    phases = report.get("actions_by_phase", [])
    if len(phases) > 1:
        for row in phases:
            say(console, phase_line(row))

    timing = report.get("timing", {})
    workers = timing.get("workers", 1)
    on_ray = " on Ray" if timing.get("backend") == "ray" else ""
    say(console, f"{report['completed']} games finished, {report['capped']} cut off at "
                  f"{plan['max_decisions']} decisions")
    say(console, f"{timing.get('seconds', 0):.2f} s with {workers} worker"
                  f"{'s' if workers != 1 else ''}{on_ray}: "
                  f"{timing.get('games_per_second', 0):.1f} games per second, "
                  f"{timing.get('decisions_per_second', 0):.0f} decisions per second")


# an action's share per seat is a column of its own up to this many seats
MAX_SEAT_COLUMNS = 4
# a phase's line names its most taken actions, this many
PHASE_ACTIONS = 4


def margin_line(margin: dict, lowest_wins: bool = False) -> str:
    """The score margin (the winner's score over the runner-up's) in a line."""
    q = margin["quantiles"]
    way = ", the lowest score winning" if lowest_wins else ""
    return (f"score margin (winner − runner-up{way}): mean {margin['mean']:.2f}, median "
            f"{number(q['p50'])}, from {number(margin['min'])} to {number(margin['max'])}  "
            f"{sparkline(margin['histogram'])}")


def ending_lines(endings: dict) -> list:
    """How the games ended: each end's share, what decided, the games cut off."""
    n = endings["completed"]
    lines = []
    for end in endings["ends"]:
        where = end.get("text") or (f"end game (line {end['line']})" if end["line"]
                                    else "the last phase ended")
        lines.append(f"ended by {where}: {end['games']} of {n} games ({end['share']:.1%})")
    if endings["decided_by"]:
        lines.append("decided by " + ", ".join(
            f"{printable(decided_text(d['by']), lines=False)} in {d['share']:.1%}"
            for d in endings["decided_by"]))
    if endings["capped"]:
        lines.append(f"cut off at the decision cap, not ended: {endings['capped']} games")
    return lines


def side_lines(which: str, report: dict) -> list:
    """A comparison's lines of one rulebook's own figures (`which`: base or
    variant): its fingerprint, its score margin and how its games ended."""
    lines = [f"{which}: rules fingerprint {report['fingerprint']}"] \
        if report.get("fingerprint") else []
    if report.get("margin", {}).get("n"):
        lines.append(f"{which}: " + margin_line(report["margin"], report.get("lowest_wins",
                                                                             False)))
    lines += [f"{which}: {line}" for line in ending_lines(report.get("endings") or
                                                          {"completed": 0, "ends": [],
                                                           "decided_by": [], "capped": 0})]
    return lines


def phase_line(row: dict) -> str:
    """A phase's decisions and its most taken actions' shares of them."""
    top = list(row["actions"].items())[:PHASE_ACTIONS]
    more = len(row["actions"]) - len(top)
    named = ", ".join(f"{printable(name, lines=False)} {a['share']:.1%}" for name, a in top)
    return (f"phase {printable(row['phase'], lines=False)}: {row['decisions']} decisions: "
            f"{named}" + (f", and {more} more" if more else ""))


def draws_line(draws: dict, games: int, players: int) -> str:
    """How many of the finished games were draws, and how the win rates
    above counted them."""
    if not draws["count"]:
        return f"draws: none of {games} games"
    low, high = draws["ci95"]
    kinds = []
    if draws["level"]:
        kinds.append(f"{draws['level']} with every player level (a victory shared by all: "
                     f"1/{players} of a win to each seat above)")
    if draws["no_winner"]:
        kinds.append(f"{draws['no_winner']} won by nobody")
    return (f"draws: {draws['count']} of {games} games ({draws['rate']:.1%}, "
            f"95% interval {low:.1%}–{high:.1%}): " + "; ".join(kinds))


def _against_even(test: dict) -> str:
    low, high = test["ci95"]
    return (f"wins {test['win_rate']:.1%} of {test['n']} games (95% interval "
            f"{low:.1%}–{high:.1%}) against "
            f"an even {test['expected']:.1%} ({100 * test['difference']:+.1f} points): "
            f"{verdict(test['p'], ALPHA)}")


def first_mover_line(first: dict, where: str = "") -> str:
    """The win rate of the player who moved first (whichever seat), against
    an even share, and whether it differs; with the seats that moved first."""
    if not first["n"]:
        return f"first mover's advantage{where}: no game finished"
    seats = ", ".join(f"P{seat} in {games}" for seat, games in
                      enumerate(first.get("moved_first", [])) if games)
    return (f"first mover's advantage{where}: the player who moved first"
            f"{' (' + seats + ')' if seats else ''} " + _against_even(first))


def seat_p0_line(p0: dict, where: str = "") -> str:
    """Seat P0's win rate against an even share, whoever moved first."""
    if not p0["n"]:
        return f"seat P0{where}: no game finished"
    return f"seat P0{where}: seat P0 " + _against_even(p0)


def print_coverage(coverage: dict, console: Console) -> None:
    """The statements and actions that never fired, then those that the
    options in force switch off, each with its place and source line; or a
    line saying everything that can run fired."""
    never, off, total = coverage["never_fired"], coverage.get("off_by_option", []), \
        coverage["total"]
    if not never:
        say(console, f"coverage: all {total} statements and actions fired" if not off else
                     f"coverage: all {total - len(off)} statements and actions that the "
                     f"options leave on fired")
    else:
        say(console, f"coverage: {len(never)} of {total} statements and actions never fired:")
        for row in never:
            say(console, _coverage_row(row))
    if off:
        say(console, f"off by option: {len(off)} of {total} statements and actions cannot run "
                     f"with the options in force:")
        for row in off:
            say(console, _coverage_row(row))


def _coverage_row(row: dict) -> str:
    text = f"  {row['file']}:{row['line']}:{row['column']}: {row['kind']} in {row['context']}"
    if row.get("options"):
        names = row["options"]
        text += f" (off by option{'s' if len(names) > 1 else ''} {', '.join(names)})"
    if row.get("source"):
        text += f"  | {row['source']}"
    return text


def verdict(p: float, alpha: float) -> str:
    """'significant (p = …)' or 'not significant (p = …)'."""
    return f"{'significant' if p < alpha else 'not significant'} ({p_value(p)})"


def win_sentence(row: dict, alpha: float) -> str:
    test = row["win_rate"]
    b, v = row["base"], row["variant"]
    return (f"{player_label(row['seat'])} ({row['ai']}) wins "
            f"{v['win_rate']:.1%} ± {100 * v['half_width']:.1f} with the variant vs "
            f"{b['win_rate']:.1%} ± {100 * b['half_width']:.1f} with the base "
            f"({100 * test['difference']:+.1f} points ± {100 * test['half_width']:.1f}): "
            f"{verdict(test['p'], alpha)}")


def score_sentence(row: dict, alpha: float, lowest_wins: Optional[dict] = None) -> str:
    test = row["score"]
    return (f"{player_label(row['seat'])} scores {row['variant']['score']:.2f} vs "
            f"{row['base']['score']:.2f} on average ({test['difference']:+.2f} ± "
            f"{test['half_width']:.2f}{_direction(lowest_wins)}): {verdict(test['p'], alpha)}")


def _direction(lowest_wins: Optional[dict]) -> str:
    """Which way a better score goes, where it is not the usual way up."""
    base, variant = (lowest_wins or {}).get("base"), (lowest_wins or {}).get("variant")
    if base == variant:
        return "; lowest wins" if base else ""
    return "; lowest wins with the variant" if variant else "; lowest wins with the base"


def draws_sentence(draws: dict, alpha: float) -> str:
    test = draws["difference"]
    b, v = draws["base"], draws["variant"]
    return (f"draws: {v['rate']:.1%} ± {100 * v['half_width']:.1f} with the variant vs "
            f"{b['rate']:.1%} ± {100 * b['half_width']:.1f} with the base "
            f"({100 * test['difference']:+.1f} points ± {100 * test['half_width']:.1f}): "
            f"{verdict(test['p'], alpha)}")


def length_sentence(measure: str, length: dict, alpha: float) -> str:
    test, b, v = length["difference"], length["base"], length["variant"]
    return (f"game length: {v['mean']:.2f} ± {v['half_width']:.2f} {measure} per game with "
            f"the variant vs {b['mean']:.2f} ± {b['half_width']:.2f} with the base "
            f"({test['difference']:+.2f} ± {test['half_width']:.2f}): {verdict(test['p'], alpha)}")


def print_comparison(comparison: dict, console: Console, base: str, variant: str) -> None:
    say(console, f"base: {base}\nvariant: {variant}")
    if comparison.get("interrupted"):
        say(console, "interrupted: the figures of the games finished on both")
    wins = Table("seat", "AI", "base win rate", "variant win rate", "difference", "p",
                 title_justify="left")
    scores = Table("seat", "base mean score", "variant mean score", "difference", "p",
                   title_justify="left")
    for row in comparison["seats"]:
        w, s = row["win_rate"], row["score"]
        seat = player_label(row["seat"])
        wins.add_row(seat, row["ai"], f"{row['base']['win_rate']:.1%}",
                     f"{row['variant']['win_rate']:.1%}",
                     f"{100 * w['difference']:+.1f} points", p_cell(w["p"]))
        scores.add_row(seat, f"{row['base']['score']:.2f}", f"{row['variant']['score']:.2f}",
                       f"{s['difference']:+.2f}", p_cell(s["p"]))
    console.print(wins)
    console.print(scores)
    lengths = comparison.get("length", {})
    if lengths:
        table = Table("game length", "base mean", "variant mean", "difference", "p",
                      title_justify="left")
        for measure, d in lengths.items():
            table.add_row(measure, f"{d['base']['mean']:.2f}", f"{d['variant']['mean']:.2f}",
                          f"{d['difference']['difference']:+.2f}", p_cell(d["difference"]["p"]))
        console.print(table)
    alpha = comparison["alpha"]
    for row in comparison["seats"]:
        say(console, win_sentence(row, alpha))
        say(console, score_sentence(row, alpha, comparison.get("lowest_wins")))
    if "draws" in comparison:
        say(console, draws_sentence(comparison["draws"], alpha))
    for measure, d in lengths.items():
        say(console, length_sentence(measure, d, alpha))
    for which, first in comparison.get("first_mover", {}).items():
        say(console, first_mover_line(first, f" with the {which}"))
    for which, p0 in comparison.get("seat_p0", {}).items():
        say(console, seat_p0_line(p0, f" with the {which}"))
    say(console, f"{comparison['pairs']} games finished on both rulebooks with the same seeds "
                  f"and AI seats; test: {comparison['test']}; ± is a 95% interval; "
                  f"significant means p < {comparison['alpha']}.")

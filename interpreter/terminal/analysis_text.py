"""`rulebook analyse` at the terminal: a game's metrics, one line each.

The metrics are worked out by `interpreter.simulation.analysis.metrics`
from the report; this module only writes them as sentences a designer
reads, each metric under the name docs/results.md defines it by
("decisiveness: 0.43 …"). Nothing here computes a figure.
"""

from __future__ import annotations

from rich.console import Console

from .render import player_label
from .reports import (ending_lines, first_mover_line, number, print_coverage, print_heading,
                      say, seat_p0_line)


def print_analysis(report: dict, console: Console, title: str) -> None:
    m = report["metrics"]
    print_heading(report, console, title)
    for line in metric_lines(m, report):
        say(console, line)
    if report.get("coverage"):
        say(console, "rules never used:")
        print_coverage(report["coverage"], console)
    say(console, "each metric is defined, with its formula, in docs/results.md "
                  "(\"rulebook analyse\")")


def metric_lines(m: dict, report: dict) -> list:
    """One line per metric (more for the ends and the balance)."""
    d, r = m["duration"]["decisions"], m["duration"]["rounds"]
    rounds = (f"{r['mean']:.1f} rounds (from {number(r['min'])} to {number(r['max'])})"
              if r["max"] else "no round counted (the rulebook has no 'new round')")
    lines = [f"duration: {d['mean']:.1f} decisions a game (sd {d['sd']:.1f}, median "
             f"{number(d['median'])}, from {number(d['min'])} to {number(d['max'])}); "
             + rounds]
    b = m["branching"]
    phases = "; ".join(f"{p['phase']} {p['mean']:.1f} (max {number(p['max'])})"
                       for p in b["by_phase"])
    lines.append(f"branching factor: {b['mean']:.1f} legal actions a decision on average "
                 f"(median {number(b['median'])}, max {number(b['max'])})"
                 + (f"; by phase: {phases}" if len(b["by_phase"]) > 1 else ""))
    dec = m["decisiveness"]
    if dec["n"]:
        lines.append(f"decisiveness: {dec['mean']:.2f} on average over {dec['n']} games won "
                     f"by one player (median {dec['quantiles']['p50']:.2f}): the winner "
                     f"led alone for good over the last {dec['mean']:.0%} of the decisions; "
                     f"{dec['led_throughout']} led from the first decision to the end")
    else:
        lines.append("decisiveness: no game was won by one player")
    lc = m["lead_changes"]
    if lc["n"]:
        lines.append(f"lead changes: {lc['mean']:.2f} a game on average (median "
                     f"{number(lc['quantiles']['p50'])}, max {number(lc['max'])}); "
                     f"{lc['games_with_a_change']} of {lc['n']} games had at least one")
    dr = m["drawishness"]
    low, high = dr["ci95"]
    lines.append(f"drawishness: {dr['rate']:.1%} of {dr['games']} games were draws (95% "
                 f"interval {low:.1%}–{high:.1%}); {dr['unfinished']} cut off unfinished; "
                 f"draws and cut-offs together {dr['draw_or_unfinished']:.1%} of the games "
                 f"played")
    bal = m["balance"]
    seats = ", ".join(f"{player_label(s['seat'])} {s['win_rate']:.1%} ({s['ci95'][0]:.1%}–"
                      f"{s['ci95'][1]:.1%})" for s in bal["seats"])
    lines.append(f"balance by seat: {seats}; the largest gap from an even "
                 f"{bal['even']:.1%} is {100 * bal['largest_gap']:.1f} points")
    lines.append(first_mover_line(bal["first_mover"]))
    lines.append(seat_p0_line(bal["seat_p0"]))
    lines += [f"how games end: {line}" for line in ending_lines(m["endings"])]
    return lines


__all__ = ["metric_lines", "print_analysis"]

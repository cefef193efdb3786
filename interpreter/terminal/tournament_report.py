"""A tournament's report drawn at the terminal: the Elo table and the matrix
of pairwise scores. The figures are `simulation.tournament.report`'s; this
module only lays them out. Entrants' names are the command line's own
(`mcts:200`), printed as text, never read as markup."""

from __future__ import annotations

from rich.console import Console
from rich.table import Column, Table
from rich.text import Text

from .reports import say


def _elo(x: float) -> str:
    return f"{x:+.0f}" if round(x) != 0 else "0"


def _share(x) -> str:
    return "–" if x is None else f"{x:.1%}"


def print_tournament(report: dict, console: Console, title: str) -> None:
    pairs = len(report["pairs"])
    say(console, f"{title}: {len(report['entrants'])} entrants, {report['players']} players, "
                 f"{report['games_per_pair']} games per pair ({pairs} "
                 f"{'pair' if pairs == 1 else 'pairs'}, each deal played from both sides), "
                 f"seed {report['seed']}")
    width = max(len(e) for e in report["entrants"])
    table = Table(Column("entrant", no_wrap=True, min_width=width), "Elo", Column("95% interval", no_wrap=True), "games",
                  "wins", "draws", "losses", "score", title_justify="left")
    for row in report["ratings"]:          # best first
        low, high = row["interval"]
        table.add_row(Text(row["entrant"]), _elo(row["elo"]),
                      f"{_elo(low)}…{_elo(high)}", str(row["games"]), str(row["wins"]),
                      str(row["draws"]), str(row["losses"]), _share(row["score"]))
    console.print(table)
    draws = report["prior_draws"]
    say(console, f"Elo anchored at {report['anchor']} = 0; intervals: ±1.96 standard errors "
                 f"of the fit; each pair counts {draws:g} drawn "
                 f"{'game' if draws == 1 else 'games'} more. A difference of 191 is a 75% "
                 f"expected score.")
    order = [row["entrant"] for row in report["ratings"]]
    matrix = Table("score of ↓ against →", title_justify="left")
    for e in order:
        matrix.add_column(Text(e))
    for e in order:
        matrix.add_row(Text(e), *["" if e == f else _share(report["matrix"][e].get(f))
                                  for f in order])
    console.print(matrix)
    unfinished = sum(p["unfinished"] for p in report["pairs"])
    if unfinished:
        say(console, f"{unfinished} games were cut off at the decision cap and count as draws")

"""A game's measurements, in the manner of Ludii's metrics (`rulebook analyse`).

`rulebook analyse` plays games as `simulate` does (`simulate.play_game`,
the same seeds and workers) with the plan's `measure` on: then every
decision is watched by a `Watch`, which counts the legal actions of the
player to move (the branching factor, by phase) and, after the decision,
who leads on the rulebook's score. A game's watch sends back a few numbers
(`Watch.result`): the branching counts, the number of lead changes and the
game's decisiveness, which `simulate.Tally` adds up like its other counts,
in any order and on any worker. `metrics` puts the report's figures
together under the names and formulas of docs/results.md ("rulebook
analyse"): duration, branching factor, decisiveness, lead changes,
drawishness, balance by seat and by first mover, how games end, rules
never used. The functions on a game's sequence of leaders
(`sole_leader`, `lead_changes`, `decisiveness`) are plain, so that each
metric is tested on hand-made traces with known answers.
"""

from __future__ import annotations

from collections import Counter
from typing import Optional, Sequence

from . import stats


def sole_leader(scores: Sequence, lowest_wins: bool = False) -> Optional[int]:
    """The one player whose score is best (the highest, or the lowest where
    the lowest wins), or None when two or more share the best score."""
    if not scores:
        return None
    best = min(scores) if lowest_wins else max(scores)
    at = [p for p, s in enumerate(scores) if s == best]
    return at[0] if len(at) == 1 else None


def lead_changes(leaders: Sequence) -> int:
    """How often the sole leader changed over a game: the decisions after
    which a player leads alone and the last player who led alone before
    was another. A tie for the lead is no change (nor is leading again
    after one)."""
    changes, last = 0, None
    for leader in leaders:
        if leader is None:
            continue
        if last is not None and leader != last:
            changes += 1
        last = leader
    return changes


def decisiveness(leaders: Sequence, winner: int) -> float:
    """The share of a game's decisions after which its winner leads alone
    for good: with D decisions and L_k the sole leader after decision k,
    t the first k with L_j = winner for every j from k to D, it is
    (D - t + 1) / D; 1 for a winner who leads from the first decision to
    the end, 0 for one who is not alone in the lead after the last (won by
    a tie-break or by the rulebook's own winners rule), and 0 for a game
    of no decision."""
    d = len(leaders)
    t = d + 1
    for k in range(d, 0, -1):
        if leaders[k - 1] != winner:
            break
        t = k
    return (d - t + 1) / d if d else 0.0


class Watch:
    """What one game's decisions show (see the module doc): the number of
    legal actions at each decision, by phase, and the sole leader after
    each decision."""

    def __init__(self, lowest_wins: bool = False):
        self.lowest_wins = lowest_wins
        self.branching: Counter = Counter()       # (phase, legal actions) -> decisions
        self.leaders: list = []

    def decision(self, phase: str, legal: int) -> None:
        self.branching[(phase, legal)] += 1

    def after(self, scores: Sequence) -> None:
        self.leaders.append(sole_leader(scores, self.lowest_wins))

    def result(self, winners: Optional[tuple]) -> dict:
        """The game's measures: its branching counts, its lead changes and,
        for a game won by one player, its decisiveness (else None)."""
        sole = winners[0] if winners and len(winners) == 1 else None
        return {"branching": dict(self.branching), "lead_changes": lead_changes(self.leaders),
                "decisiveness": None if sole is None else decisiveness(self.leaders, sole)}


class Measures:
    """The measures of many games, added up in any order (a `Tally` holds
    one): branching counts by phase, lead changes per game (of the games
    that ended) and decisiveness per game won by one player."""

    def __init__(self):
        self.branching: Counter = Counter()
        self.lead_changes: Counter = Counter()
        self.decisiveness: Counter = Counter()

    def add(self, measured: dict, ended: bool) -> None:
        self.branching.update(measured["branching"])
        if ended:
            self.lead_changes[measured["lead_changes"]] += 1
            if measured["decisiveness"] is not None:
                self.decisiveness[measured["decisiveness"]] += 1

    def report(self, phases: list) -> dict:
        """Branching factor overall and by phase (in the order `phases`),
        lead changes and decisiveness, each summarised."""
        overall: Counter = Counter()
        by_phase: dict = {}
        for (phase, k), n in self.branching.items():
            overall[k] += n
            by_phase.setdefault(phase, Counter())[k] += n
        order = [p for p in phases if p in by_phase] + sorted(set(by_phase) - set(phases))
        return {"branching": {**_summary(overall),
                              "by_phase": [{"phase": p, **_summary(by_phase[p])}
                                           for p in order]},
                "lead_changes": {**stats.describe_counts(self.lead_changes),
                                 "games_with_a_change": sum(
                                     n for k, n in self.lead_changes.items() if k)},
                "decisiveness": {**stats.describe_counts(self.decisiveness),
                                 "histogram": tenths(self.decisiveness),
                                 "led_throughout": self.decisiveness.get(1.0, 0)}}


def tenths(counts: Counter) -> dict:
    """Counts of shares (0 to 1) in ten bins of a tenth each, [0, 0.1), …,
    [0.9, 1] (1 in the last): the same bins for every game, so that two
    games' decisiveness can be read side by side."""
    out = [0] * 10
    for x, k in counts.items():
        out[min(int(x * 10), 9)] += k
    return {"edges": [k / 10 for k in range(11)], "counts": out}


def _summary(counts: Counter) -> dict:
    d = stats.describe_counts(counts)
    return {"decisions": d["n"], "mean": d["mean"], "max": d["max"], "min": d["min"],
            "median": d["quantiles"]["p50"], "histogram": d["histogram"]}


def metrics(report: dict) -> dict:
    """The named metrics of an `analyse` report (docs/results.md gives each
    its formula): duration, branching, decisiveness, lead changes,
    drawishness, balance, endings, never used (with coverage)."""
    analysis = report["analysis"]
    players = report["plan"]["players"]
    n, played = report["completed"], report["played"]
    draws = report["draws"]
    seats = [{"seat": s["seat"], "ai": s["ai"], "win_rate": s["win_rate"], "ci95": s["ci95"]}
             for s in report["seats"]]
    out = {
        "duration": {key: _short(report[key]) for key in ("decisions", "rounds")},
        "branching": analysis["branching"],
        "decisiveness": analysis["decisiveness"],
        "lead_changes": analysis["lead_changes"],
        "drawishness": {"draws": draws["count"], "games": n, "rate": draws["rate"],
                        "ci95": draws["ci95"], "unfinished": report["capped"],
                        "draw_or_unfinished": (draws["count"] + report["capped"]) / played
                        if played else 0.0},
        "balance": {"seats": seats, "even": 1 / players,
                    "largest_gap": max((abs(s["win_rate"] - 1 / players) for s in seats),
                                       default=0.0),
                    "first_mover": report["first_mover"], "seat_p0": report["seat_p0"]},
        "endings": report["endings"],
    }
    coverage = report.get("coverage")
    if coverage is not None:
        out["never_used"] = {"rules": coverage["total"], "fired": coverage["fired"],
                             "never_fired": coverage["never_fired"],
                             "off_by_option": coverage["off_by_option"]}
    return out


def _short(d: dict) -> dict:
    return {"mean": d["mean"], "sd": d["sd"], "min": d["min"], "median": d["quantiles"]["p50"],
            "max": d["max"], "histogram": d["histogram"]}


__all__ = ["Measures", "Watch", "decisiveness", "lead_changes", "metrics", "sole_leader"]

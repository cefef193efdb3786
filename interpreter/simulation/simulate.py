"""Balance simulation: many games with chosen players, reproducible to the bit.

A `Plan` says who sits where (an AI kind per seat), the root seed and the
budgets. Game `i` is dealt with seed ``seed + i`` and the AI of seat `s` in
it draws from a generator seeded by ``(seed, i, s)``, so every game can be
played alone, in any order, on any worker, and come out the same. A game's
`GameRecord` (winners, scores, length, actions taken by name, and the text
of every action when the plan asks for the log) is all that travels back
from a worker. A `Tally` takes the records as they come, in any
order, and keeps only counts, with exact sums, so the report depends neither
on how many workers played nor on how many games (for memory); a `Pairing`
pairs two such runs game by game. Everything here goes through the public
engine API (docs/api.md) and draws nothing; `interpreter.simulation.parallel`
spreads the games over processes or a Ray cluster.
"""

from __future__ import annotations

import hashlib
import os
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Callable, Optional

from . import stats
from .options_off import switched_off
from ..errors import RuleStuck
from ..ai.players import make_player

Progress = Callable[[int, int], None]
# A difference is called significant below this p-value.
ALPHA = 0.05
# The measures of a game's length that `compare` tests (GameRecord fields).
LENGTHS = ("decisions", "rounds")


@dataclass(frozen=True)
class Plan:
    """What to play: `seats` is the AI kind of every seat (``random``,
    ``greedy``, ``mcts``, ``ismcts``); `iterations` the search budget per
    move (None: each player's default); `log_actions`: keep every game's
    actions as text in its record (for `--records`; it changes no figure of
    the report, so it is not part of the plan's JSON)."""

    players: int
    seats: tuple
    seed: int = 0
    iterations: Optional[int] = None
    max_decisions: int = 10_000
    log_actions: bool = False

    def game_seed(self, index: int) -> int:
        return self.seed + index

    def ai_seed(self, index: int, seat: int) -> int:
        digest = hashlib.blake2b(f"{self.seed}/{index}/{seat}".encode(), digest_size=8).digest()
        return int.from_bytes(digest, "big")

    def to_json(self) -> dict:
        return {"players": self.players, "seats": list(self.seats), "seed": self.seed,
                "iterations": self.iterations, "max_decisions": self.max_decisions}


@dataclass(frozen=True)
class GameRecord:
    """One finished (or cut-off) game. `winners` is None when the game was
    cut off at the decision cap; `scores` are the rulebook's scores at the
    last state; `actions` counts the decisions taken by action name; `draw`
    says the outcome was a draw (every player level, or no winner); `log`
    is ((seat, action text), …) in the order taken when the plan logs
    actions, else None; `first` is the seat that took the game's first
    decision (the first mover: not P0 where the start player is drawn),
    None when the game ended before any decision."""

    index: int
    winners: Optional[tuple]
    scores: tuple
    decisions: int
    rounds: int
    actions: dict = field(default_factory=dict)
    draw: bool = False
    log: Optional[tuple] = None
    first: Optional[int] = None

    def win_share(self, seat: int) -> float:
        """1 for a sole win, 1/k for a win shared by k players, else 0."""
        if not self.winners or seat not in self.winners:
            return 0.0
        return 1.0 / len(self.winners)


def play_game(game, plan: Plan, index: int) -> GameRecord:
    """Plays game `index` of the plan to the end or the decision cap."""
    budget = {} if plan.iterations is None else {"iterations": plan.iterations}
    bots = [make_player(kind, seed=plan.ai_seed(index, seat), **budget)
            for seat, kind in enumerate(plan.seats)]
    state = game.new_game(players=plan.players, seed=plan.game_seed(index))
    taken: dict = {}
    first = None
    log = [] if plan.log_actions else None
    while state.decisions < plan.max_decisions:
        deciders = game.to_move(state)
        if not deciders:
            break
        player = deciders[0]
        actions = game.legal_actions(state, player)
        if not actions:
            raise RuleStuck(f"P{player} must decide but has no legal action")
        bot = bots[player]
        view = game.view(state, player) if bot.uses_view else None
        action = bot.act(game, view, actions)
        taken[action.name] = taken.get(action.name, 0) + 1
        if first is None:
            first = player
        if log is not None:
            log.append((player, str(action)))
        state = game.apply(state, action)
    log = None if log is None else tuple(log)
    outcome = game.outcome(state)
    if outcome is None:
        return GameRecord(index, None, tuple(game.scores(state)), state.decisions,
                          state.round, taken, log=log, first=first)
    return GameRecord(index, tuple(outcome.winners), tuple(outcome.scores),
                      state.decisions, state.round, taken, outcome.draw, log, first)


# -- reports ------------------------------------------------------------------------

class Tally:
    """A batch's report, built one game record at a time in any order: it
    keeps the counts of each score, length and win share, not the records,
    so its memory does not grow with the number of games."""

    def __init__(self, players: int):
        self.played = 0
        self.completed = 0
        self.draws = Counter()            # "level" / "no_winner" -> games
        self.shares = [Counter() for _ in range(players)]      # seat -> {1/k or 0: games}
        self.scores = [Counter() for _ in range(players)]
        self.decisions = Counter()        # of the games that ended
        self.rounds = Counter()
        self.taken: dict = {}             # action name -> times, over every game
        self.total_decisions = 0
        self.first_mover = Counter()      # the first mover's win share -> games
        self.moved_first = Counter()      # seat -> games it moved first in

    def add(self, r: GameRecord) -> None:
        self.played += 1
        self.total_decisions += r.decisions
        for name, count in r.actions.items():
            self.taken[name] = self.taken.get(name, 0) + count
        if r.winners is None:
            return
        self.completed += 1
        if r.draw:
            self.draws["level" if r.winners else "no_winner"] += 1
        for seat, (shares, scores) in enumerate(zip(self.shares, self.scores)):
            shares[r.win_share(seat)] += 1
            scores[r.scores[seat]] += 1
        self.decisions[r.decisions] += 1
        self.rounds[r.rounds] += 1
        if r.first is not None:
            self.first_mover[r.win_share(r.first)] += 1
            self.moved_first[r.first] += 1

    def report(self, plan: Plan, planned: int, along: Optional["Tally"] = None) -> dict:
        """The JSON report (see the module doc). Win rates, scores and
        lengths are over the games that ended; games cut off at the decision
        cap count only in `capped` (and in the action counts). A win shared
        by k players counts 1/k for each, so a draw of every player level
        counts 1/N for each seat; `draws` counts the draws apart, those of
        every player level (`level`) and those that nobody won (`no_winner`);
        `first_mover` tests the win rate of the player who took the game's
        first decision against an even 1/N (over the games that ended with
        a decision taken; `moved_first` counts those games per seat), and
        `seat_p0` the same of seat P0, whoever moved first. With `along`
        (the other rulebook's tally, in `compare`) every histogram's edges
        cover both tallies' values, so the two are drawn on the same bins."""
        n = self.completed
        def span(counts: Callable[["Tally"], Counter]):
            return list(counts(along)) if along is not None else ()
        seats = []
        for seat in range(plan.players):
            wins = stats.exact_sum(self.shares[seat])
            low, high = stats.wilson(wins, n)
            seats.append({"seat": seat, "ai": plan.seats[seat], "wins": wins,
                          "win_rate": wins / n if n else 0.0, "ci95": [low, high],
                          "score": stats.describe_counts(
                              self.scores[seat], span(lambda t: t.scores[seat]))})
        decisions = self.total_decisions
        actions = {name: {"count": count, "share": count / decisions if decisions else 0.0}
                   for name, count in sorted(self.taken.items(), key=lambda kv: (-kv[1], kv[0]))}
        draws = self.draws["level"] + self.draws["no_winner"]
        return {"plan": plan.to_json(), "games": planned, "played": self.played,
                "completed": n, "capped": self.played - n,
                "seats": seats,
                "draws": {"count": draws, "rate": draws / n if n else 0.0,
                          "ci95": list(stats.wilson(draws, n)),
                          "level": self.draws["level"], "no_winner": self.draws["no_winner"]},
                "first_mover": first_mover(self.first_mover, self.moved_first,
                                           plan.players),
                "seat_p0": seat_p0(self.shares[0], plan.players),
                "decisions": stats.describe_counts(self.decisions,
                                                   span(lambda t: t.decisions)),
                "rounds": stats.describe_counts(self.rounds, span(lambda t: t.rounds)),
                "actions": actions,
                "total_decisions": decisions}


def rate_against_even(shares: Counter, players: int) -> dict:
    """A win rate (from the counts of win shares) against an even share
    1/N, with its interval and test."""
    test = stats.rate_test(stats.exact_sum(shares), sum(shares.values()), 1 / players)
    return {"win_rate": test.pop("rate"), **test}


def first_mover(shares: Counter, moved_first: Counter, players: int) -> dict:
    """The first mover's advantage: the win rate of the player who took each
    game's first decision, whichever seat that was, against 1/N; and how
    many games each seat moved first in."""
    return {**rate_against_even(shares, players),
            "moved_first": [moved_first[seat] for seat in range(players)]}


def seat_p0(shares: Counter, players: int) -> dict:
    """Seat P0's win rate against 1/N, whoever moved first."""
    return {"seat": 0, **rate_against_even(shares, players)}


def summarize(records, plan: Plan, planned: int) -> dict:
    """The report of a batch of records (see `Tally.report`)."""
    tally = Tally(plan.players)
    for r in records:
        tally.add(r)
    return tally.report(plan, planned)


class Pairing:
    """A comparison of two runs of the same games, built as their records
    arrive: a game's two records are paired when both are in, and only the
    counts of their differences are kept."""

    def __init__(self, players: int):
        self.waiting: list = [{}, {}]     # run -> {game index: record} not yet paired
        self.pairs = 0
        keys = ("win_base", "win_variant", "score_base", "score_variant", "win", "score")
        self.counts = [{k: Counter() for k in keys} for _ in range(players)]
        # "base"/"variant" -> the first mover's win share -> games; seat -> games
        self.first = {k: Counter() for k in ("base", "variant")}
        self.moved_first = {k: Counter() for k in ("base", "variant")}
        self.draws = {k: Counter() for k in ("base", "variant", "difference")}   # 0/1 a game
        # "decisions"/"rounds" -> {"base", "variant", "difference": Counter of per-game values}
        self.length = {measure: {k: Counter() for k in ("base", "variant", "difference")}
                       for measure in LENGTHS}

    def add(self, which: int, r: GameRecord) -> None:
        other = self.waiting[1 - which].pop(r.index, None)
        if other is None:
            self.waiting[which][r.index] = r
            return
        b, v = (r, other) if which == 0 else (other, r)
        if b.winners is None or v.winners is None:
            return
        self.pairs += 1
        self.draws["base"][int(b.draw)] += 1
        self.draws["variant"][int(v.draw)] += 1
        self.draws["difference"][int(v.draw) - int(b.draw)] += 1
        for which, r in (("base", b), ("variant", v)):
            if r.first is not None:
                self.first[which][r.win_share(r.first)] += 1
                self.moved_first[which][r.first] += 1
        for measure, c in self.length.items():
            lb, lv = getattr(b, measure), getattr(v, measure)
            c["base"][lb] += 1
            c["variant"][lv] += 1
            c["difference"][lv - lb] += 1
        for seat, c in enumerate(self.counts):
            wb, wv = b.win_share(seat), v.win_share(seat)
            sb, sv = b.scores[seat], v.scores[seat]
            c["win_base"][wb] += 1
            c["win_variant"][wv] += 1
            c["score_base"][sb] += 1
            c["score_variant"][sv] += 1
            c["win"][wv - wb] += 1
            c["score"][sv - sb] += 1

    def report(self, plan: Plan) -> dict:
        """Per seat, the win-share and score differences (variant - base) over
        the games both runs finished, by the paired test of `stats.paired_test_of`;
        the same of the draws (a game is a draw or not) and of the game's
        length in decisions and in rounds (`length`); and on each rulebook
        the first mover's advantage over those games (`first_mover`) and
        seat P0's (`seat_p0`), as `Tally.report` has them."""
        seats = []
        for seat in range(plan.players):
            c = self.counts[seat]
            seats.append({"seat": seat, "ai": plan.seats[seat],
                          "base": {"win_rate": stats.mean_of(c["win_base"]),
                                   "half_width": stats.half_width_of(c["win_base"]),
                                   "score": stats.mean_of(c["score_base"])},
                          "variant": {"win_rate": stats.mean_of(c["win_variant"]),
                                      "half_width": stats.half_width_of(c["win_variant"]),
                                      "score": stats.mean_of(c["score_variant"])},
                          "win_rate": stats.paired_test_of(c["win"]),
                          "score": stats.paired_test_of(c["score"])})
        draws = {which: {"count": self.draws[which][1],
                         "rate": stats.mean_of(self.draws[which]),
                         "half_width": stats.half_width_of(self.draws[which])}
                 for which in ("base", "variant")}
        draws["difference"] = stats.paired_test_of(self.draws["difference"])
        length = {}
        for measure, c in self.length.items():
            length[measure] = {which: {"mean": stats.mean_of(c[which]),
                                       "half_width": stats.half_width_of(c[which])}
                               for which in ("base", "variant")}
            length[measure]["difference"] = stats.paired_test_of(c["difference"])
        first = {which: first_mover(self.first[which], self.moved_first[which], plan.players)
                 for which in ("base", "variant")}
        p0 = {which: seat_p0(self.counts[0]["win_" + which], plan.players)
              for which in ("base", "variant")}
        return {"test": "paired z-test on per-game differences (same seeds and AI seats)",
                "alpha": ALPHA, "pairs": self.pairs, "seats": seats, "draws": draws,
                "length": length, "first_mover": first, "seat_p0": p0}


def compare(base: list, variant: list, plan: Plan) -> dict:
    """The comparison of two lists of records (see `Pairing.report`)."""
    pairing = Pairing(plan.players)
    for r in base:
        pairing.add(0, r)
    for r in variant:
        pairing.add(1, r)
    return pairing.report(plan)


class Timer:
    """Wall-clock seconds of a run, for the report's `timing` part (the only
    part of a report that differs between two runs of the same plan)."""

    def __init__(self):
        self.start = time.perf_counter()

    def timing(self, games: int, decisions: int, workers: int, backend: str) -> dict:
        seconds = time.perf_counter() - self.start
        return {"seconds": seconds, "workers": workers, "backend": backend,
                "games_per_second": games / seconds if seconds > 0 else 0.0,
                "decisions_per_second": decisions / seconds if seconds > 0 else 0.0}


def simulate(game, plan: Plan, games: int, progress: Optional[Progress] = None) -> dict:
    """Plays `games` games of the plan in this process; the report (with
    timing). `interpreter.simulation.parallel.run` does the same over many workers."""
    timer = Timer()
    tally = Tally(plan.players)
    for i in range(games):
        tally.add(play_game(game, plan, i))
        if progress is not None:
            progress(i + 1, games)
    report = tally.report(plan, games)
    report["lowest_wins"] = game.lowest_wins
    report["timing"] = timer.timing(tally.played, report["total_decisions"], 1, "local")
    return report


def coverage(game, counts: dict, players: int) -> dict:
    """Rule coverage merged over every worker: how many statements and
    actions the rulebook has, those that never fired and those that the
    options in force switch off for `players` players (`options_off`), each
    with its file, line, column, kind, context and source line, and for
    those off the options that switch them off. `counts` maps (kind,
    context, line, column) to how often it fired."""
    path = game.path or game.name
    try:
        with open(path, encoding="utf-8") as file:
            lines = file.read().splitlines()
    except (OSError, UnicodeDecodeError):
        lines = []
    shown = os.path.relpath(path) if os.path.isabs(path) and \
        not os.path.relpath(path).startswith("..") else path
    switched = switched_off(game, players)
    rows = game.coverage()
    never, off = [], []
    for r in rows:
        if counts.get((r["kind"], r["context"], r["line"], r["column"]), 0):
            continue
        source = lines[r["line"] - 1].strip() if 0 < r["line"] <= len(lines) else ""
        row = {"file": shown, "line": r["line"], "column": r["column"],
               "kind": r["kind"], "context": r["context"], "source": source}
        key = ("action", r["context"].split(" ", 1)[1]) if r["kind"] == "action" \
            else (r["line"], r["column"])
        if key in switched:
            off.append({**row, "options": list(switched[key])})
        else:
            never.append(row)
    return {"total": len(rows), "fired": len(rows) - len(never) - len(off),
            "never_fired": never, "off_by_option": off}

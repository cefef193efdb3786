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

import bisect
import hashlib
import os
import time
from collections import Counter
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Callable, Optional

from . import stats
from .analysis import Measures, Watch
from .end_conditions import end_text
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
    the report, so it is not part of the plan's JSON); `measure`: watch
    every decision (`analysis.Watch`: the branching factor, who leads),
    as `rulebook analyse` does (its JSON says `"measure": true`)."""

    players: int
    seats: tuple
    seed: int = 0
    iterations: Optional[int] = None
    max_decisions: int = 10_000
    log_actions: bool = False
    measure: bool = False

    def game_seed(self, index: int) -> int:
        return self.seed + index

    def ai_seed(self, index: int, seat: int) -> int:
        digest = hashlib.blake2b(f"{self.seed}/{index}/{seat}".encode(), digest_size=8).digest()
        return int.from_bytes(digest, "big")

    def to_json(self) -> dict:
        out = {"players": self.players, "seats": list(self.seats), "seed": self.seed,
               "iterations": self.iterations, "max_decisions": self.max_decisions}
        if self.measure:
            out["measure"] = True
        return out


@dataclass(frozen=True)
class GameRecord:
    """One finished (or cut-off) game. `winners` is None when the game was
    cut off at the decision cap; `scores` are the rulebook's scores at the
    last state; `actions` counts the decisions taken by action name; `draw`
    says the outcome was a draw (every player level, or no winner); `log`
    is ((seat, action text), …) in the order taken when the plan logs
    actions, else None; `first` is the seat that took the game's first
    decision (the first mover: not P0 where the start player is drawn),
    None when the game ended before any decision. `by_seat` and
    `by_phase` count the decisions by (seat, action name) and by (phase,
    action name), the phase the setup's or a phase's name; `margin` is
    the final ranking's first score minus its second (`score_margin`), None
    for one player or a game cut off; `ended` is where the `end game` that
    ended it stands, (line, column), None when the flow ran out (or the
    game was cut off); `decided_by` what told the winners apart
    (`Outcome.decided_by`: "score", a tie-break step, "winners", "tie");
    `measured` what the plan's `measure` watched (`analysis.Watch.result`),
    else None."""

    index: int
    winners: Optional[tuple]
    scores: tuple
    decisions: int
    rounds: int
    actions: dict = field(default_factory=dict)
    draw: bool = False
    log: Optional[tuple] = None
    first: Optional[int] = None
    by_seat: dict = field(default_factory=dict)
    by_phase: dict = field(default_factory=dict)
    margin: Optional[float] = None
    ended: Optional[tuple] = None
    decided_by: Optional[str] = None
    measured: Optional[dict] = None

    def win_share(self, seat: int) -> float:
        """1 for a sole win, 1/k for a win shared by k players, else 0."""
        if not self.winners or seat not in self.winners:
            return 0.0
        return 1.0 / len(self.winners)


def phase_mark(state):
    """Where a state stands among the phases, as its bottom frame's loop
    data has it: the setup's mark or the phase's number (docs/api.md,
    "Saves"); None outside any frame. `phase_name` names it."""
    return state.frames[0][3] if state.frames else None


def phase_name(game, mark) -> str:
    """The name of the phase of a `phase_mark` ("setup" in the setup)."""
    if mark is None:
        return ""
    return mark if isinstance(mark, str) else game.ir["phases"][mark]["name"]


def score_margin(outcome) -> Optional[float]:
    """The score of the first player of the final ranking minus the
    second's, turned round where the lowest score wins: how far the winner
    finished ahead of the runner-up (0 for a tie on the score; below 0
    where the rulebook's own `winners` rule or a tie-break put the lower
    score first). None with one player."""
    if len(outcome.ranking) < 2:
        return None
    first, second = (outcome.scores[p] for p in outcome.ranking[:2])
    return second - first if outcome.lowest_wins else first - second


def play_game(game, plan: Plan, index: int) -> GameRecord:
    """Plays game `index` of the plan to the end or the decision cap."""
    budget = {} if plan.iterations is None else {"iterations": plan.iterations}
    bots = [make_player(kind, seed=plan.ai_seed(index, seat), **budget)
            for seat, kind in enumerate(plan.seats)]
    state = game.new_game(players=plan.players, seed=plan.game_seed(index))
    counts: dict = {}       # (seat, phase mark, action name) -> times
    first = None
    log = [] if plan.log_actions else None
    watch = Watch(game.lowest_wins) if plan.measure else None
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
        # one count a decision; the counts by action, seat and phase are
        # folded from it once the game is over (`_fold`)
        mark = phase_mark(state)
        key = (player, mark, action.name)
        counts[key] = counts.get(key, 0) + 1
        if first is None:
            first = player
        if log is not None:
            log.append((player, str(action)))
        state = game.apply(state, action)
        if watch is not None:
            watch.decision(phase_name(game, mark), len(actions))
            watch.after(game.scores(state))
    log = None if log is None else tuple(log)
    taken, by_seat, by_phase = _fold(game, counts)
    outcome = game.outcome(state)
    if outcome is None:
        return GameRecord(index, None, tuple(game.scores(state)), state.decisions,
                          state.round, taken, log=log, first=first, by_seat=by_seat,
                          by_phase=by_phase,
                          measured=None if watch is None else watch.result(None))
    return GameRecord(index, tuple(outcome.winners), tuple(outcome.scores),
                      state.decisions, state.round, taken, outcome.draw, log, first,
                      by_seat, by_phase, score_margin(outcome), state.ended,
                      outcome.decided_by,
                      None if watch is None else watch.result(tuple(outcome.winners)))


def _fold(game, counts: dict) -> tuple:
    """A game's decisions by action name, by (seat, action name) and by
    (phase, action name), from its counts by (seat, phase mark, action
    name)."""
    taken: dict = {}
    by_seat: dict = {}
    by_phase: dict = {}
    names: dict = {}
    for (seat, mark, name), k in counts.items():
        taken[name] = taken.get(name, 0) + k
        key = (seat, name)
        by_seat[key] = by_seat.get(key, 0) + k
        if mark not in names:
            names[mark] = phase_name(game, mark)
        key = (names[mark], name)
        by_phase[key] = by_phase.get(key, 0) + k
    return taken, by_seat, by_phase


# -- reports ------------------------------------------------------------------------

class Tally:
    """A batch's report, built one game record at a time in any order: it
    keeps the counts of each score, length and win share, not the records,
    so its memory does not grow with the number of games. Given the number
    of games planned, it also keeps, for each of up to `CHECKPOINTS` runs
    of consecutive games, the sums of their win shares, exact (fractions),
    from which the win rates as games accumulate are worked out in game
    order whatever order the records came in."""

    def __init__(self, players: int, games: Optional[int] = None):
        self.players = players
        self.played = 0
        self.completed = 0
        self.draws = Counter()            # "level" / "no_winner" -> games
        self.shares = [Counter() for _ in range(players)]      # seat -> {1/k or 0: games}
        self.scores = [Counter() for _ in range(players)]
        self.decisions = Counter()        # of the games that ended
        self.rounds = Counter()
        self.taken: dict = {}             # action name -> times, over every game
        self.by_seat = Counter()          # (seat, action name) -> times
        self.by_phase = Counter()         # (phase, action name) -> times
        self.total_decisions = 0
        self.movers = Movers()            # seat P0's and the first mover's wins
        self.margins = Counter()          # score margin -> games that ended
        self.ended = Counter()            # (line, column) of the end game, or None -> games
        self.decided = Counter()          # Outcome.decided_by -> games
        self.checkpoints = checkpoints(games) if games else []
        # per run of games ending at a checkpoint: [played, completed, the
        # seats' win-share sums, the first mover's sum, games with a first mover]
        self.runs = [[0, 0, [Fraction(0)] * players, Fraction(0), 0] for _ in self.checkpoints]
        self.measures = Measures()        # of games whose plan measured them
        self.measured = 0

    def add(self, r: GameRecord) -> None:
        self.played += 1
        self.total_decisions += r.decisions
        for name, count in r.actions.items():
            self.taken[name] = self.taken.get(name, 0) + count
        self.by_seat.update(r.by_seat)
        self.by_phase.update(r.by_phase)
        if r.measured is not None:
            self.measured += 1
            self.measures.add(r.measured, r.winners is not None)
        run = self.runs[bisect.bisect_right(self.checkpoints, r.index)] \
            if self.checkpoints and r.index < self.checkpoints[-1] else None
        if run is not None:
            run[0] += 1
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
        self.movers.add(r)
        if r.margin is not None:
            self.margins[r.margin] += 1
        self.ended[r.ended] += 1
        self.decided[r.decided_by] += 1
        if run is not None:
            run[1] += 1
            for seat in range(self.players):
                if r.winners and seat in r.winners:
                    run[2][seat] += Fraction(1, len(r.winners))
            if r.first is not None:
                run[4] += 1
                if r.winners and r.first in r.winners:
                    run[3] += Fraction(1, len(r.winners))

    def report(self, plan: Plan, planned: int, along: Optional["Tally"] = None,
               game=None) -> dict:
        """The JSON report (see the module doc). Win rates, scores and
        lengths are over the games that ended; games cut off at the decision
        cap count only in `capped` (and in the action counts). A win shared
        by k players counts 1/k for each, so a draw of every player level
        counts 1/N for each seat; `draws` counts the draws apart, those of
        every player level (`level`) and those that nobody won (`no_winner`);
        `first_mover` tests the win rate of the player who took the game's
        first decision against an even 1/N (over the games that somebody
        won with a decision taken; `moved_first` counts those games per
        seat), and `seat_p0` the same of seat P0, whoever moved first (over
        the games somebody won: in a draw that nobody won every seat gets
        0, so counting it would put every seat below 1/N and the test would
        call an even game unfair). With `along`
        (the other rulebook's tally, in `compare`) every histogram's edges
        cover both tallies' values, so the two are drawn on the same bins.
        `game` (the rulebook played) names the phases in the rulebook's
        order and the ends by their source (`endings`)."""
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
        actions = shares_of(self.taken)
        order = list(actions)
        draws = self.draws["level"] + self.draws["no_winner"]
        out = {"plan": plan.to_json(), "games": planned, "played": self.played,
               "completed": n, "capped": self.played - n,
               "seats": seats,
               "draws": {"count": draws, "rate": draws / n if n else 0.0,
                         "ci95": list(stats.wilson(draws, n)),
                         "level": self.draws["level"], "no_winner": self.draws["no_winner"]},
               **self.movers.report(plan.players),
               "decisions": stats.describe_counts(self.decisions,
                                                  span(lambda t: t.decisions)),
               "rounds": stats.describe_counts(self.rounds, span(lambda t: t.rounds)),
               "margin": stats.describe_counts(self.margins, span(lambda t: t.margins)),
               "endings": self.endings(game),
               "actions": actions,
               "actions_by_seat": [
                   {"seat": seat, **split(self.by_seat, seat, order)}
                   for seat in range(plan.players)],
               "actions_by_phase": [
                   {"phase": phase, **split(self.by_phase, phase, order)}
                   for phase in phases_in_order({p for p, _ in self.by_phase}, game)],
               "convergence": self.convergence(),
               "total_decisions": decisions}
        if plan.measure:
            out["analysis"] = self.measures.report(
                phases_in_order({p for p, _ in self.measures.branching}, game))
        return out

    def endings(self, game=None) -> dict:
        """How the games that ended ended: by which `end game` (its line,
        column and, with the game, its source and the conditions above it),
        or by the flow running out after the last phase; what told the
        winners apart; and the games cut off at the decision cap apart."""
        n = self.completed
        ends = []
        for at, games in sorted(self.ended.items(),
                                key=lambda kv: (-kv[1], kv[0] is None, kv[0] or (0, 0))):
            row = {"end": "end game" if at else "last phase over",
                   "line": at[0] if at else None, "column": at[1] if at else None,
                   "games": games, "share": games / n if n else 0.0}
            if game is not None:
                row["text"] = end_text(game, self.players, at)
            ends.append(row)
        decided = [{"by": by, "games": games, "share": games / n if n else 0.0}
                   for by, games in sorted(self.decided.items(),
                                           key=lambda kv: (-kv[1], str(kv[0])))]
        return {"completed": n, "capped": self.played - n, "ends": ends,
                "decided_by": decided}

    def convergence(self) -> dict:
        """The win rates (and 95% intervals) of every seat and of the first
        mover over the first k games, at each checkpoint k up to the last
        one every game before which has come in (all of them, unless the
        run was cut short)."""
        points = {"games": [], "completed": [],
                  "seats": [{"seat": s, "win_rate": [], "ci95": []} for s in range(self.players)],
                  "first_mover": {"n": [], "win_rate": [], "ci95": []}}
        played, completed = 0, 0
        wins = [Fraction(0)] * self.players
        first, movers = Fraction(0), 0
        for stop, run in zip(self.checkpoints, self.runs):
            played += run[0]
            if played < stop:           # a game before it is missing: stop here
                break
            completed += run[1]
            wins = [w + x for w, x in zip(wins, run[2])]
            first += run[3]
            movers += run[4]
            points["games"].append(stop)
            points["completed"].append(completed)
            for seat, row in enumerate(points["seats"]):
                row["win_rate"].append(float(wins[seat] / completed) if completed else 0.0)
                row["ci95"].append(list(stats.wilson(float(wins[seat]), completed)))
            fm = points["first_mover"]
            fm["n"].append(movers)
            fm["win_rate"].append(float(first / movers) if movers else 0.0)
            fm["ci95"].append(list(stats.wilson(float(first), movers)))
        return points


# The win rates as games accumulate are kept at this many points at most.
CHECKPOINTS = 50


def checkpoints(games: int) -> list:
    """The game counts at which the running win rates are given: every
    game for at most CHECKPOINTS games, else CHECKPOINTS evenly spread
    counts (rounded up), the last one every game."""
    return sorted({-(-games * k // CHECKPOINTS) for k in range(1, CHECKPOINTS + 1)})


def decided_text(by: Optional[str]) -> str:
    """What `Outcome.decided_by` says, in words: the score, a tie-break step
    by its name, the rulebook's winners rule, or nothing (a tie)."""
    words = {"score": "the score", "winners": "the rulebook's winners rule",
             "tie": "nothing (a tie)", None: "nothing"}
    return words.get(by) or f"the tie-break '{by}'"


def shares_of(counts: dict) -> dict:
    """{name: {count, share}} of a count per action name, most taken first."""
    total = sum(counts.values())
    return {name: {"count": count, "share": count / total if total else 0.0}
            for name, count in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))}


def split(counts: Counter, who, order: list) -> dict:
    """The decisions of one seat or phase (`who`, the first part of each
    key of `counts`), and each action's count and share of them, in the
    order `order` (the actions' overall order)."""
    mine = {name: k for (w, name), k in counts.items() if w == who}
    total = sum(mine.values())
    return {"decisions": total,
            "actions": {name: {"count": mine[name], "share": mine[name] / total}
                        for name in order if mine.get(name)}}


def phases_in_order(names: set, game=None) -> list:
    """The phases of `names` in the rulebook's order (the setup first), or
    by name without the game."""
    if game is None:
        return sorted(names)
    known = ["setup"] + [p["name"] for p in game.ir["phases"]]
    return [p for p in known if p in names] + sorted(names - set(known))


def rate_against_even(shares: Counter, players: int) -> dict:
    """A win rate (from the counts of win shares) against an even share
    1/N, with its interval and test."""
    test = stats.rate_test(stats.exact_sum(shares), sum(shares.values()), 1 / players)
    return {"win_rate": test.pop("rate"), **test}


class Movers:
    """Seat P0's and the first mover's win shares, counted over the games
    somebody won (a game the seats' shares add up to 1: in a draw that
    nobody won every seat gets 0, and counting it would put an even game
    below 1/N), for `Tally` and for each side of `Pairing` alike."""

    def __init__(self):
        self.p0 = Counter()               # P0's win share -> games
        self.first = Counter()            # the first mover's win share -> games
        self.moved_first = Counter()      # seat -> games it moved first in

    def add(self, r: GameRecord) -> None:
        if not r.winners:
            return
        self.p0[r.win_share(0)] += 1
        if r.first is not None:
            self.first[r.win_share(r.first)] += 1
            self.moved_first[r.first] += 1

    def report(self, players: int) -> dict:
        """`first_mover`: the win rate of the player who took each game's
        first decision, whichever seat that was, against 1/N, and how many
        games each seat moved first in; `seat_p0`: seat P0's win rate
        against 1/N, whoever moved first."""
        return {"first_mover": {**rate_against_even(self.first, players),
                                "moved_first": [self.moved_first[seat]
                                                for seat in range(players)]},
                "seat_p0": {"seat": 0, **rate_against_even(self.p0, players)}}


def summarize(records, plan: Plan, planned: int) -> dict:
    """The report of a batch of records (see `Tally.report`)."""
    tally = Tally(plan.players, planned)
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
        self.movers = {k: Movers() for k in ("base", "variant")}   # as a Tally has them
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
        self.movers["base"].add(b)
        self.movers["variant"].add(v)
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
        movers = {which: m.report(plan.players) for which, m in self.movers.items()}
        first = {which: m["first_mover"] for which, m in movers.items()}
        p0 = {which: m["seat_p0"] for which, m in movers.items()}
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
    tally = Tally(plan.players, games)
    for i in range(games):
        tally.add(play_game(game, plan, i))
        if progress is not None:
            progress(i + 1, games)
    report = tally.report(plan, games, game=game)
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

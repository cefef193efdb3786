"""A round-robin tournament of AI players, and their Elo ratings.

Every pair of entrants (`random`, `greedy`, `mcts:200`, …: an AI kind and
its search budget, `ai.players.player_spec`) plays `games` games. A pair
plays on two seating arrangements, the seats alternating between its two
entrants, A,B,A,B,… and B,A,B,A,… (with two players: both orders); game
`i` of a pair is deal `i // 2` (seed ``seed + i // 2``) on arrangement
`i % 2`, so each deal is played once from each side, and the same deals are
used by every pair. A game scores 1 for A when A's seats win, 0 when B's
do, and shares in between: A's score is the win share of A's seats (a win
shared by k players is 1/k each), and a game with no winner (a `winners`
rule naming nobody, or a game cut off at the decision cap) is 0.5 each, a
draw. With more than two players, the two entrants' copies play side by
side, each copy for itself.

The ratings are the Bradley–Terry (Elo) maximum-likelihood fit of every
pair's total score, on the Elo scale (a difference D gives the stronger an
expected score of 1 / (1 + 10^(-D/400)): 75% is 191 points), anchored at
the first entrant = 0. A pair that one side swept would push the fit to
infinity: each pair counts `prior` drawn games more (one by default), as
BayesElo does. The 95% intervals are the rating ± 1.96 standard errors of
the fit, from the curvature of its likelihood (prior draws included, so a
sweep has a finite, wide interval), relative to the anchor. They take the
games as independent, which a deal played from both seatings is not
quite; a percentile bootstrap over the deals would respect that, but gives
an interval of zero width on a sweep, the case a small tournament meets
most. Nothing here draws at random: the same games give the
same table.

The games are played by `simulation.parallel.run`, as `simulate`'s are.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from itertools import combinations
from typing import Callable, Optional

from ..ai.players import player_spec
from ..errors import CommandError
from .parallel import Source, run
from .simulate import Plan
from .stats import Z95

ELO = 400 / math.log(10)          # Elo points per unit of log-odds
PRIOR_DRAWS = 1.0


def entrants_of(text: str) -> list:
    """The entrants of `--ai random,greedy,mcts:200`, each checked
    (`player_spec`): at least two, none twice."""
    names = [t.strip() for t in text.split(",")]
    if any(not n for n in names):
        raise CommandError(f"--ai '{text}' has an empty entrant",
                           hint="separate the entrants by single commas: random,greedy,mcts:200",
                           code="command/tournament-entrants")
    for n in names:
        player_spec(n)
    if len(names) < 2:
        raise CommandError(f"a tournament needs at least two entrants, not '{text}'",
                           hint="e.g. --ai random,greedy,mcts:200",
                           code="command/tournament-entrants")
    twice = sorted({n for n in names if names.count(n) > 1})
    if twice:
        raise CommandError(f"--ai names {', '.join(twice)} twice",
                           hint="each entrant once: its copies on several seats are made "
                                "for every game", code="command/tournament-entrants")
    return names


def arrangements(a: str, b: str, players: int) -> list:
    """The two seatings of a pair: A,B,A,… and B,A,B,…"""
    return [tuple(a if s % 2 == r else b for s in range(players)) for r in (0, 1)]


def score_of(record, seats: tuple, a: str) -> float:
    """A's score in one game: the win share of A's seats; 0.5 with no winner."""
    if not record.winners:
        return 0.5
    return sum(record.win_share(s) for s, who in enumerate(seats) if who == a)


@dataclass
class Pair:
    """The games of two entrants: `deals` is, per deal, (A's total score,
    games) over the deal's one or two games."""

    a: str
    b: str
    deals: list
    wins: int = 0        # games A scored more than half of
    draws: int = 0
    losses: int = 0
    unfinished: int = 0  # cut off at the decision cap (counted as draws)

    @property
    def games(self) -> int:
        return sum(n for _, n in self.deals)

    @property
    def score(self) -> float:
        return sum(s for s, _ in self.deals)


def play(game, source: Source, entrants: list, players: int, games: int, seed: int = 0,
         max_decisions: int = 10_000, workers: int = 1,
         progress: Optional[Callable[[int, int], None]] = None) -> list:
    """Every pair's `Pair`, in the order of `combinations(entrants, 2)`."""
    pairs = list(combinations(entrants, 2))
    total = games * len(pairs)
    done = 0
    out = []
    for a, b in pairs:
        deals: dict = {}
        pair = Pair(a, b, [])
        for r, seats in enumerate(arrangements(a, b, players)):
            count = (games - r + 1) // 2          # the deals of arrangement r
            if count == 0:
                continue
            plan = Plan(players=players, seats=seats, seed=seed, max_decisions=max_decisions)

            def step(finished: int, _total: int, base=done) -> None:
                if progress is not None:
                    progress(base + finished, total)

            batch = run([source], plan, count, loaded=[game], workers=min(workers, count),
                        progress=step, keep_records=True)
            if batch.interrupted:
                raise KeyboardInterrupt
            for record in batch.records[0]:
                s = score_of(record, seats, a)
                total_s, n = deals.get(record.index, (0.0, 0))
                deals[record.index] = (total_s + s, n + 1)
                pair.wins += s > 0.5
                pair.draws += s == 0.5
                pair.losses += s < 0.5
                pair.unfinished += record.winners is None
            done += count
        pair.deals = [deals[k] for k in sorted(deals)]
        out.append(pair)
    return out


# -- the Elo fit ------------------------------------------------------------------------

def fit(entrants: list, results: list, prior: float = PRIOR_DRAWS) -> list:
    """The Elo ratings (first entrant 0) that make the pairs' total scores
    most likely. `results` are (a, b, A's score, games); each pair counts
    `prior` drawn games more."""
    return fit_with_errors(entrants, results, prior)[0]


def fit_with_errors(entrants: list, results: list, prior: float = PRIOR_DRAWS) -> tuple:
    """(ratings, standard errors), both in Elo points, the first entrant 0
    with no error: Newton's method on the log-likelihood, which is concave
    (a few steps from all zeros), and the errors from its curvature at the
    maximum (the inverse of the information matrix, the anchor left out)."""
    k = len(entrants)
    at = {e: i for i, e in enumerate(entrants)}
    pairs = [(at[a], at[b], s + prior / 2, n + prior) for a, b, s, n in results if n + prior > 0]
    r = [0.0] * k                      # log-odds units
    hess = None
    for _ in range(100):
        grad, hess = _slope(pairs, r)
        # the first entrant stays at 0: solve for the others
        step = _solve([row[1:] for row in hess[1:]], grad[1:])
        if step is None:
            break
        for i, d in enumerate(step, start=1):
            r[i] += d
        if max((abs(d) for d in step), default=0) < 1e-10:
            break
    _, hess = _slope(pairs, r)
    reduced = [row[1:] for row in hess[1:]]
    errors = [0.0]
    for i in range(k - 1):
        column = _solve(reduced, [1.0 if j == i else 0.0 for j in range(k - 1)])
        errors.append(math.inf if column is None else math.sqrt(max(column[i], 0.0)) * ELO)
    return [x * ELO for x in r], errors


def _slope(pairs: list, r: list) -> tuple:
    """The log-likelihood's gradient and its information matrix (the
    negative Hessian) at ratings `r`, in log-odds units."""
    k = len(r)
    grad = [0.0] * k
    info = [[0.0] * k for _ in range(k)]
    for i, j, s, n in pairs:
        p = 1 / (1 + math.exp(r[j] - r[i]))
        g = s - n * p
        grad[i] += g
        grad[j] -= g
        w = n * p * (1 - p)
        info[i][i] += w
        info[j][j] += w
        info[i][j] -= w
        info[j][i] -= w
    return grad, info


def _solve(a: list, b: list) -> Optional[list]:
    """x with a·x = b (Gaussian elimination with pivoting); None if singular."""
    n = len(b)
    m = [row[:] + [v] for row, v in zip(a, b)]
    for c in range(n):
        pivot = max(range(c, n), key=lambda i: abs(m[i][c]))
        if abs(m[pivot][c]) < 1e-12:
            return None
        m[c], m[pivot] = m[pivot], m[c]
        for i in range(c + 1, n):
            f = m[i][c] / m[c][c]
            for j in range(c, n + 1):
                m[i][j] -= f * m[c][j]
    x = [0.0] * n
    for i in range(n - 1, -1, -1):
        x[i] = (m[i][n] - sum(m[i][j] * x[j] for j in range(i + 1, n))) / m[i][i]
    return x


def expected(difference: float) -> float:
    """The expected score of a player `difference` Elo points above another."""
    return 1 / (1 + 10 ** (-difference / 400))


def report(entrants: list, pairs: list, players: int, games: int, seed: int,
           prior: float = PRIOR_DRAWS) -> dict:
    """The tournament as plain JSON: the ratings with their standard errors
    and 95% intervals (± Z95 errors), every entrant's games, wins, draws
    and losses, and the score matrix (the row entrant's score share against
    the column entrant)."""
    results = [(p.a, p.b, p.score, p.games) for p in pairs]
    ratings, errors = fit_with_errors(entrants, results, prior)
    bounds = [(x - Z95 * e, x + Z95 * e) for x, e in zip(ratings, errors)]
    rows = []
    for i, e in enumerate(entrants):
        w = d = lo = n = 0
        score = 0.0
        for p in pairs:
            if p.a == e:
                w, d, lo, n, score = w + p.wins, d + p.draws, lo + p.losses, n + p.games, \
                    score + p.score
            elif p.b == e:
                w, d, lo, n, score = w + p.losses, d + p.draws, lo + p.wins, n + p.games, \
                    score + p.games - p.score
        rows.append({"entrant": e, "elo": ratings[i], "error": errors[i],
                     "interval": list(bounds[i]),
                     "games": n, "wins": w, "draws": d, "losses": lo,
                     "score": score / n if n else None})
    order = sorted(range(len(entrants)), key=lambda i: (-ratings[i], i))
    matrix = {e: {} for e in entrants}
    for p in pairs:
        share = p.score / p.games if p.games else None
        matrix[p.a][p.b] = share
        matrix[p.b][p.a] = None if share is None else 1 - share
    return {"entrants": list(entrants), "players": players, "games_per_pair": games,
            "seed": seed, "anchor": entrants[0], "prior_draws": prior,
            "ratings": [rows[i] for i in order], "matrix": matrix,
            "pairs": [{"a": p.a, "b": p.b, "games": p.games, "score": p.score,
                       "wins": p.wins, "draws": p.draws, "losses": p.losses,
                       "unfinished": p.unfinished} for p in pairs]}

"""The statistics of balance reports, in plain Python (no numpy or scipy).

Summaries of numbers (mean, standard deviation, quantiles, a small
histogram), the 95% Wilson interval of a win rate, the score test of a
win rate against an even share (the first player's advantage), and the
paired z-test `rulebook compare` uses. Numbers are summarised from their counts (a
`Counter` of values), so a report needs memory for the distinct values, not
for every game, and its sums are exact (rounded once, as `math.fsum` does):
the same games give the same report to the last bit, in any order and
however many workers played them.
"""

from __future__ import annotations

import math
from collections import Counter
from fractions import Fraction

Z95 = 1.959963984540054  # the standard normal quantile of 0.975


def exact_sum(counts: Counter) -> float:
    """The sum of every value times its count, rounded once (as math.fsum
    rounds the sum of the values listed)."""
    return float(sum((Fraction(x) * k for x, k in counts.items()), Fraction(0)))


def mean_of(counts: Counter) -> float:
    n = sum(counts.values())
    return exact_sum(counts) / n if n else 0.0


def sd_of(counts: Counter) -> float:
    """The sample standard deviation (n - 1); 0 for fewer than two values."""
    n = sum(counts.values())
    if n < 2:
        return 0.0
    m = mean_of(counts)
    return math.sqrt(exact_sum(_squares(counts, m)) / (n - 1))


def _squares(counts: Counter, m: float) -> Counter:
    out: Counter = Counter()
    for x, k in counts.items():
        out[(x - m) ** 2] += k
    return out


def mean(xs) -> float:
    return mean_of(Counter(xs))


def sd(xs) -> float:
    return sd_of(Counter(xs))


def quantile(sorted_xs, q: float) -> float:
    """The q-quantile of sorted values, by linear interpolation (numpy's default)."""
    if not sorted_xs:
        return 0.0
    pos = q * (len(sorted_xs) - 1)
    lo = math.floor(pos)
    hi = min(lo + 1, len(sorted_xs) - 1)
    return sorted_xs[lo] + (sorted_xs[hi] - sorted_xs[lo]) * (pos - lo)


class _Sorted:
    """The values of a Counter as the sorted list they stand for, by index."""

    def __init__(self, counts: Counter):
        self.values = sorted(counts)
        self.ends = []
        total = 0
        for v in self.values:
            total += counts[v]
            self.ends.append(total)
        self.n = total

    def __len__(self) -> int:
        return self.n

    def __getitem__(self, i: int):
        lo, hi = 0, len(self.ends) - 1
        while lo < hi:                  # the first value whose run ends past i
            mid = (lo + hi) // 2
            if self.ends[mid] > i:
                hi = mid
            else:
                lo = mid + 1
        return self.values[lo]


# Integer values get one bin a number up to this many numbers, else bins of a
# whole-number width (1, 2, 5, 10, 20, 50, …) few enough to stay under it.
MAX_INTEGER_BINS = 40


def _integer_width(lo: int, hi: int) -> tuple:
    """The first number and the width of the integer bins from lo to hi:
    width 1 for at most MAX_INTEGER_BINS numbers, else the smallest of 2,
    5, 10, 20, 50, … whose bins, starting at a multiple of it, are few
    enough."""
    width, step = 1, 0
    while True:
        first = lo - lo % width
        if (hi - first) // width + 1 <= MAX_INTEGER_BINS:
            return first, width
        step += 1
        width = (1, 2, 5)[step % 3] * 10 ** (step // 3)


def histogram_of(counts: Counter, bins: int = 10, span=()) -> dict:
    """Counts in bins from min to max: ``{"edges": [...], "counts": [...]}``.
    When every value is a whole number each bin holds whole numbers only,
    edges half-way between them: one number a bin when they span at most
    MAX_INTEGER_BINS numbers, else a whole-number width (2, 5, 10, …);
    other values get `bins` equal bins. `span` are more values the edges
    must cover (another distribution's, so that two histograms drawn
    together share their edges); they are not counted."""
    counts = Counter({x: k for x, k in counts.items() if k})
    values = list(counts) + [x for x in span if x not in counts]
    if not values:
        return {"edges": [], "counts": []}
    lo, hi = min(values), max(values)
    if all(float(x).is_integer() for x in values):
        # counted from the first number exactly: as floats, neighbours of
        # 30 digits would be one number
        lo, hi = int(lo), int(hi)
        first, width = _integer_width(lo, hi)
        out = [0] * ((hi - first) // width + 1)
        for x, k in counts.items():
            out[(int(x) - first) // width] += k
        return {"edges": [first - 0.5 + k * width for k in range(len(out) + 1)],
                "counts": out}
    if hi == lo:
        lo, hi, bins = lo - 0.5, hi + 0.5, 1
    width = (hi - lo) / bins
    out = [0] * bins
    for x, k in counts.items():
        out[min(int((x - lo) / width), bins - 1)] += k
    return {"edges": [lo + k * width for k in range(bins + 1)], "counts": out}


def histogram(xs, bins: int = 10) -> dict:
    return histogram_of(Counter(xs), bins)


def describe_counts(counts: Counter, span=()) -> dict:
    """mean, sd, min, max, the quartiles and the 10th/90th percentiles, and a
    histogram of numbers given by their counts (whose edges also cover the
    values `span`, see `histogram_of`)."""
    counts = Counter({x: k for x, k in counts.items() if k})
    s = _Sorted(counts)
    return {"n": s.n, "mean": mean_of(counts), "sd": sd_of(counts),
            "min": s.values[0] if s.n else 0, "max": s.values[-1] if s.n else 0,
            "quantiles": {name: quantile(s, q) for name, q in
                          (("p10", 0.1), ("p25", 0.25), ("p50", 0.5), ("p75", 0.75),
                           ("p90", 0.9))},
            "histogram": histogram_of(counts, span=span)}


def describe(xs) -> dict:
    """`describe_counts` of a list of numbers."""
    return describe_counts(Counter(xs))


def wilson(successes: float, n: int, z: float = Z95) -> tuple:
    """The Wilson score interval of a proportion: sound for small n and for
    rates near 0 or 1, where the normal interval claims certainty it lacks.
    `successes` may be fractional (shared wins)."""
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


def rate_test(successes: float, n: int, expected: float, z: float = Z95) -> dict:
    """The score test of a rate against `expected` (a seat's even share 1/N):
    z = (rate - expected) / sqrt(expected (1 - expected) / n). It is the test
    the Wilson interval inverts, so p < 0.05 exactly when `expected` lies
    outside the 95% interval. With shared wins (a fraction each) the spread
    is smaller than the test assumes, so it is cautious. An expected rate
    of 0 or 1 (one player) has no spread: p is 1 when the rate is the
    expected one, else 0. No game tells nothing: p = 1."""
    if n == 0:
        return {"n": 0, "rate": 0.0, "ci95": [0.0, 1.0], "expected": expected,
                "difference": 0.0, "z": 0.0, "p": 1.0}
    rate = successes / n
    low, high = wilson(successes, n, z)
    out = {"n": n, "rate": rate, "ci95": [low, high], "expected": expected,
           "difference": rate - expected}
    spread = math.sqrt(expected * (1 - expected) / n)
    if spread == 0.0:
        same = rate == expected
        return {**out, "z": 0.0 if same else math.copysign(math.inf, rate - expected),
                "p": 1.0 if same else 0.0}
    score = (rate - expected) / spread
    return {**out, "z": score, "p": two_sided_p(score)}


def half_width(xs) -> float:
    """The half-width of the normal 95% interval of the mean of `xs`."""
    return half_width_of(Counter(xs))


def half_width_of(counts: Counter) -> float:
    n = sum(counts.values())
    return Z95 * sd_of(counts) / math.sqrt(n) if n else 0.0


def two_sided_p(z: float) -> float:
    return math.erfc(abs(z) / math.sqrt(2))


def paired_test(base, variant) -> dict:
    """Paired z-test of mean(variant - base) = 0 over the same games: see
    `paired_test_of`, here from the two lists of per-game values."""
    return paired_test_of(Counter(v - b for b, v in zip(base, variant)))


def paired_test_of(differences: Counter) -> dict:
    """Paired z-test of mean(variant - base) = 0 over the same games, from
    the counts of the per-game differences.

    Each game was played twice, with the same seed and AI seats, once per
    rulebook, so the per-game difference removes the luck of the deal that
    both share. For win shares (0, 1/k, 1) this is the large-sample form of
    McNemar's test. With every difference equal the spread is 0: no
    difference gives p = 1, a constant non-zero one p = 0.
    """
    n = sum(differences.values())
    diff = mean_of(differences)
    spread = sd_of(differences)
    if n == 0:
        return {"n": 0, "difference": 0.0, "half_width": 0.0, "z": 0.0, "p": 1.0}
    if spread == 0.0:
        return {"n": n, "difference": diff, "half_width": 0.0,
                "z": 0.0 if diff == 0 else math.copysign(math.inf, diff),
                "p": 1.0 if diff == 0 else 0.0}
    z = diff / (spread / math.sqrt(n))
    return {"n": n, "difference": diff, "half_width": Z95 * spread / math.sqrt(n),
            "z": z, "p": two_sided_p(z)}

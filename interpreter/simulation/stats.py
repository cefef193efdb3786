"""The statistics of balance reports, in plain Python (no numpy or scipy).

Summaries of a list of numbers (mean, standard deviation, quantiles, a small
histogram), the 95% Wilson interval of a win rate, and the paired z-test
`rulebook compare` uses. Every function is deterministic and reads its input
in the order given, so a report built from the same games in the same order
is the same to the last bit, however many workers played them.
"""

from __future__ import annotations

import math

Z95 = 1.959963984540054  # the standard normal quantile of 0.975


def mean(xs) -> float:
    return math.fsum(xs) / len(xs) if xs else 0.0


def sd(xs) -> float:
    """The sample standard deviation (n - 1); 0 for fewer than two values."""
    if len(xs) < 2:
        return 0.0
    m = mean(xs)
    return math.sqrt(math.fsum((x - m) ** 2 for x in xs) / (len(xs) - 1))


def quantile(sorted_xs, q: float) -> float:
    """The q-quantile of sorted values, by linear interpolation (numpy's default)."""
    if not sorted_xs:
        return 0.0
    pos = q * (len(sorted_xs) - 1)
    lo = math.floor(pos)
    hi = min(lo + 1, len(sorted_xs) - 1)
    return sorted_xs[lo] + (sorted_xs[hi] - sorted_xs[lo]) * (pos - lo)


def histogram(xs, bins: int = 10) -> dict:
    """Counts in equal bins from min to max: ``{"edges": [...], "counts": [...]}``.
    Integer values that span at most `bins` numbers get one bin each."""
    if not xs:
        return {"edges": [], "counts": []}
    lo, hi = min(xs), max(xs)
    if all(float(x).is_integer() for x in xs) and hi - lo < bins:
        lo, hi, bins = lo - 0.5, hi + 0.5, int(hi - lo) + 1
    elif hi == lo:
        lo, hi, bins = lo - 0.5, hi + 0.5, 1
    width = (hi - lo) / bins
    counts = [0] * bins
    for x in xs:
        counts[min(int((x - lo) / width), bins - 1)] += 1
    return {"edges": [lo + k * width for k in range(bins + 1)], "counts": counts}


def describe(xs) -> dict:
    """mean, sd, min, max, the quartiles and the 10th/90th percentiles, and a
    histogram of a list of numbers."""
    s = sorted(xs)
    return {"n": len(s), "mean": mean(s), "sd": sd(s),
            "min": s[0] if s else 0, "max": s[-1] if s else 0,
            "quantiles": {name: quantile(s, q) for name, q in
                          (("p10", 0.1), ("p25", 0.25), ("p50", 0.5), ("p75", 0.75),
                           ("p90", 0.9))},
            "histogram": histogram(s)}


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


def half_width(xs) -> float:
    """The half-width of the normal 95% interval of the mean of `xs`."""
    return Z95 * sd(xs) / math.sqrt(len(xs)) if xs else 0.0


def two_sided_p(z: float) -> float:
    return math.erfc(abs(z) / math.sqrt(2))


def paired_test(base, variant) -> dict:
    """Paired z-test of mean(variant - base) = 0 over the same games.

    Each game was played twice, with the same seed and AI seats, once per
    rulebook, so the per-game difference removes the luck of the deal that
    both share. For win shares (0, 1/k, 1) this is the large-sample form of
    McNemar's test. With every difference equal the spread is 0: no
    difference gives p = 1, a constant non-zero one p = 0.
    """
    d = [v - b for b, v in zip(base, variant)]
    n = len(d)
    diff = mean(d)
    spread = sd(d)
    if n == 0:
        return {"n": 0, "difference": 0.0, "half_width": 0.0, "z": 0.0, "p": 1.0}
    if spread == 0.0:
        return {"n": n, "difference": diff, "half_width": 0.0,
                "z": 0.0 if diff == 0 else math.copysign(math.inf, diff),
                "p": 1.0 if diff == 0 else 0.0}
    z = diff / (spread / math.sqrt(n))
    return {"n": n, "difference": diff, "half_width": Z95 * spread / math.sqrt(n),
            "z": z, "p": two_sided_p(z)}

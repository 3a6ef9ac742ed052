"""The statistics of the report: Wilson intervals, the score test against a fair share,
the same for shared wins (per-game variance: the design effect), differences of
proportions (Newcombe's hybrid score interval, the pooled z-test) and of means (Welch's
normal approximation), value histograms, and the distributions behind them (normal,
chi-square, Student's t).

Standard library only. Every interval is a 95 % interval unless ``z`` says otherwise.
References: E. B. Wilson (1927); R. G. Newcombe, "Two-sided confidence intervals for the
single proportion" and "Interval estimation for the difference between independent
proportions", Statistics in Medicine 17 (1998), whose worked examples the tests check.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

Z95 = 1.959963984540054  # the 97.5 % point of the standard normal distribution


def two_sided_p(z: float) -> float:
    """The two-sided p-value of a standard normal statistic ``z``."""
    return math.erfc(abs(z) / math.sqrt(2.0))


def wilson(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson's score interval for a proportion of ``successes`` in ``n`` trials
    (``successes`` may be fractional: shared wins count as a share)."""
    if n <= 0:
        return (0.0, 1.0)
    p = successes / n
    z2 = z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


def design_effect(total: float, squares: float, n: int) -> float:
    """How much the per-game outcomes vary against a yes-or-no outcome of the same mean:
    the variance of the per-game values (each in [0, 1], e.g. a seat's share of a win, a
    shared win counting ``1/k``), ``squares`` being their sum of squares, divided by
    ``p (1 - p)``. 1 when every value is 0 or 1; below 1 with shared wins (300 games all
    shared by two seats vary not at all: 0); 1 as well when ``p`` is 0 or 1."""
    if n <= 0:
        return 1.0
    p = total / n
    if p <= 0 or p >= 1:
        return 1.0
    variance = max(0.0, squares / n - p * p)
    return variance / (p * (1 - p))


def share_interval(total: float, squares: float, n: int,
                   z: float = Z95) -> tuple[float, float]:
    """The interval of a mean of per-game values in [0, 1] (a win rate with shared wins
    counted as shares): Wilson's interval at the effective number of games ``n / deff``
    (:func:`design_effect`, Korn and Graubard's approach for proportions from data that
    are not yes-or-no trials). With only 0s and 1s it is Wilson's interval; with values
    that never vary it is the single point."""
    if n <= 0:
        return (0.0, 1.0)
    deff = design_effect(total, squares, n)
    p = total / n
    if deff <= 0:
        return (p, p)
    n_eff = n / deff
    z2 = z * z
    centre = (p + z2 / (2 * n_eff)) / (1 + z2 / n_eff)
    half = z * math.sqrt(p * (1 - p) / n_eff + z2 / (4 * n_eff * n_eff)) / (1 + z2 / n_eff)
    return (max(0.0, centre - half), min(1.0, centre + half))


def share_test(total: float, squares: float, n: int, p0: float) -> tuple[float, float]:
    """The score test of a mean of per-game values in [0, 1] against ``p0``, its variance
    scaled by the :func:`design_effect`: ``(z, two-sided p)``. With only 0s and 1s it is
    :func:`score_test`."""
    if n <= 0 or not 0 < p0 < 1:
        return (0.0, 1.0)
    deff = design_effect(total, squares, n)
    diff = total / n - p0
    if deff <= 0:
        if abs(diff) < 1e-12:
            return (0.0, 1.0)
        return (math.copysign(math.inf, diff), 0.0)
    z = diff / math.sqrt(p0 * (1 - p0) * deff / n)
    return (z, two_sided_p(z))


def score_test(successes: float, n: int, p0: float) -> tuple[float, float]:
    """The score test of a proportion against ``p0``: ``(z, two-sided p)``. It rejects at
    5 % exactly when ``p0`` lies outside the Wilson interval."""
    if n <= 0 or not 0 < p0 < 1:
        return (0.0, 1.0)
    z = (successes / n - p0) / math.sqrt(p0 * (1 - p0) / n)
    return (z, two_sided_p(z))


def chi_square_sf(x: float, df: int) -> float:
    """P(X >= x) for a chi-square variable with ``df`` degrees of freedom (the regularised
    upper incomplete gamma function Q(df/2, x/2): a series below a + 1, a continued
    fraction above, as in Numerical Recipes)."""
    if x <= 0:
        return 1.0
    a, y = df / 2.0, x / 2.0
    log_front = a * math.log(y) - y - math.lgamma(a)
    if y < a + 1:
        term = total = 1.0 / a
        k = a
        for _ in range(10_000):
            k += 1
            term *= y / k
            total += term
            if abs(term) < abs(total) * 1e-15:
                break
        return max(0.0, 1.0 - total * math.exp(log_front))
    tiny = 1e-300
    b = y + 1 - a
    c = 1 / tiny
    d = 1 / b
    h = d
    for i in range(1, 10_000):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1 / d
        step = d * c
        h *= step
        if abs(step - 1) < 1e-15:
            break
    return min(1.0, math.exp(log_front) * h)


def incomplete_beta(a: float, b: float, x: float) -> float:
    """The regularised incomplete beta function I_x(a, b) (Lentz's continued fraction,
    as in Numerical Recipes' ``betai``)."""
    if x <= 0:
        return 0.0
    if x >= 1:
        return 1.0
    front = math.exp(math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b)
                     + a * math.log(x) + b * math.log1p(-x))
    if x > (a + 1) / (a + b + 2):
        return 1.0 - incomplete_beta(b, a, 1.0 - x)
    tiny = 1e-300
    c, d = 1.0, 1.0 - (a + b) * x / (a + 1)
    d = 1 / (tiny if abs(d) < tiny else d)
    h = d
    for m in range(1, 10_000):
        for num in (m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)),
                    -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1))):
            d = 1 + num * d
            d = 1 / (tiny if abs(d) < tiny else d)
            c = 1 + num / c
            c = tiny if abs(c) < tiny else c
            h *= d * c
        if abs(d * c - 1) < 1e-15:
            break
    return front * h / a


def t_two_sided_p(t: float, df: float) -> float:
    """The two-sided p-value of Student's t statistic with ``df`` degrees of freedom."""
    if math.isinf(t):
        return 0.0
    if df <= 0:
        return 1.0
    return incomplete_beta(df / 2, 0.5, df / (df + t * t))


def t_quantile(q: float, df: float) -> float:
    """The ``q`` quantile (0.5 < q < 1) of Student's t distribution (bisection)."""
    low, high = 0.0, 1.0
    while t_two_sided_p(high, df) > 2 * (1 - q):
        high *= 2
    for _ in range(200):
        mid = (low + high) / 2
        if t_two_sided_p(mid, df) > 2 * (1 - q):
            low = mid
        else:
            high = mid
    return (low + high) / 2


def normal_quantile(q: float) -> float:
    """The ``q`` quantile (0 < q < 1) of the standard normal distribution (bisection on
    ``erfc``, to 1e-12)."""
    if q == 0.5:
        return 0.0
    if q < 0.5:
        return -normal_quantile(1 - q)
    low, high = 0.0, 40.0
    for _ in range(200):
        mid = (low + high) / 2
        if 0.5 * math.erfc(mid / math.sqrt(2.0)) > 1 - q:
            low = mid
        else:
            high = mid
    return (low + high) / 2


def seats_test(wins: list[float], games: int) -> tuple[float, int, float]:
    """Pearson's chi-square test that every seat wins equally often: ``(statistic,
    degrees of freedom, p)``; draws are left out."""
    decided = sum(wins)
    if decided <= 0 or len(wins) < 2:
        return (0.0, max(0, len(wins) - 1), 1.0)
    expected = decided / len(wins)
    stat = sum((w - expected) ** 2 / expected for w in wins)
    df = len(wins) - 1
    return (stat, df, chi_square_sf(stat, df))


def seats_test_shares(wins: list[float], deffs: list[float]) -> tuple[float, int, float]:
    """:func:`seats_test` with the Rao-Scott first-order correction for shared wins: the
    chi-square statistic divided by the mean design effect of the seats (shared wins vary
    less than yes-or-no outcomes, so the plain statistic overstates the evidence when they
    are many). ``(statistic, degrees of freedom, p)``."""
    stat, df, _ = seats_test(wins, 0)
    mean_deff = sum(deffs) / len(deffs) if deffs else 1.0
    if stat <= 0 or df < 1:
        return (stat, df, 1.0)
    if mean_deff <= 0:
        return (math.inf, df, 0.0)
    stat /= mean_deff
    return (stat, df, chi_square_sf(stat, df))


@dataclass(frozen=True)
class Difference:
    """A difference B - A with its interval and test."""

    a: float
    b: float
    diff: float
    low: float
    high: float
    z: float
    p: float

    @property
    def significant(self) -> bool:
        return self.p < 0.05

    def to_json(self, digits: int = 6) -> dict[str, object]:
        return {"a": round(self.a, digits), "b": round(self.b, digits),
                "diff": round(self.diff, digits),
                "ci": [round(self.low, digits), round(self.high, digits)],
                "z": round(self.z, 4), "p": round(self.p, 6),
                "significant": self.significant}


def two_proportions(x1: float, n1: int, x2: float, n2: int, z: float = Z95) -> Difference:
    """The difference ``x2/n2 - x1/n1``: Newcombe's hybrid score interval (his method 10)
    and the pooled two-proportion z-test."""
    p1 = x1 / n1 if n1 else 0.0
    p2 = x2 / n2 if n2 else 0.0
    l1, u1 = wilson(x1, n1, z)
    l2, u2 = wilson(x2, n2, z)
    d = p2 - p1
    low = d - math.sqrt((p2 - l2) ** 2 + (u1 - p1) ** 2)
    high = d + math.sqrt((u2 - p2) ** 2 + (p1 - l1) ** 2)
    pooled = (x1 + x2) / (n1 + n2) if n1 + n2 else 0.0
    se = math.sqrt(pooled * (1 - pooled) * (1 / n1 + 1 / n2)) if n1 and n2 else 0.0
    stat = d / se if se > 0 else 0.0
    return Difference(p1, p2, d, low, high, stat, two_sided_p(stat) if se > 0 else 1.0)


def two_means(m1: float, v1: float, n1: int, m2: float, v2: float, n2: int,
              z: float = Z95) -> Difference:
    """The difference ``m2 - m1`` of two means (sample variances ``v1``, ``v2``): Welch's
    standard error with the normal approximation (the runs compared have hundreds of
    games or more)."""
    se = math.sqrt((v1 / n1 if n1 else 0.0) + (v2 / n2 if n2 else 0.0))
    d = m2 - m1
    if se == 0:
        return Difference(m1, m2, d, d, d, 0.0, 1.0 if d == 0 else 0.0)
    stat = d / se
    return Difference(m1, m2, d, d - z * se, d + z * se, stat, two_sided_p(stat))


@dataclass(frozen=True)
class Spread:
    """A distribution of whole numbers kept as a histogram (value -> count)."""

    counts: Mapping[int, int]

    @classmethod
    def of(cls, values: Iterable[int]) -> Spread:
        return cls(Counter(values))

    @property
    def n(self) -> int:
        return sum(self.counts.values())

    @property
    def mean(self) -> float:
        n = self.n
        return sum(v * c for v, c in self.counts.items()) / n if n else 0.0

    @property
    def variance(self) -> float:
        """The sample variance (n - 1 in the denominator)."""
        n = self.n
        if n < 2:
            return 0.0
        mean = self.mean
        return sum(c * (v - mean) ** 2 for v, c in self.counts.items()) / (n - 1)

    @property
    def sd(self) -> float:
        return math.sqrt(self.variance)

    def quantile(self, q: float) -> int:
        """The smallest value with at least ``q`` of the values at or below it."""
        n = self.n
        if not n:
            return 0
        need = q * n
        seen = 0
        for value in sorted(self.counts):
            seen += self.counts[value]
            if seen >= need:
                return value
        return max(self.counts)

    def to_json(self, digits: int = 4) -> dict[str, object]:
        if not self.n:
            return {"n": 0}
        return {
            "n": self.n, "mean": round(self.mean, digits), "sd": round(self.sd, digits),
            "min": min(self.counts), "p5": self.quantile(0.05),
            "p25": self.quantile(0.25), "median": self.quantile(0.5),
            "p75": self.quantile(0.75), "p95": self.quantile(0.95),
            "max": max(self.counts),
            "histogram": {str(v): self.counts[v] for v in sorted(self.counts)},
        }

"""Paired comparisons: A and B played on the same seeds, so game *i* of A and game *i* of
B share their deal, and the question is what changed game by game.

* :func:`paired_difference` - the mean of the per-game differences B - A with Student's t
  interval and test (a change that moves most games a little is seen even when the
  games vary a lot among themselves);
* :func:`mcnemar` - the exact McNemar test for a yes-or-no outcome of each game (did this
  seat win?): only the games whose outcome changed count;
* :class:`Pairs` - the running sums a comparison keeps per measure (whole numbers and
  exact fractions, so the result does not depend on the order the games come in).

Standard library only. With ``--seed-b`` (independent seeds) the same sums give the
difference of two independent means: then each "pair" is two unrelated games, and the
variance of a difference is the sum of the two variances, which the per-pair variance
estimates as well.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction

from sim.stats import Difference, t_quantile, t_two_sided_p


def paired_difference(n: int, total: float, squares: float, mean_a: float,
                      mean_b: float, z: float | None = None) -> Difference:
    """The mean per-game difference B - A of ``n`` pairs whose differences sum to
    ``total`` with sum of squares ``squares``: Student's t interval (95 %, or ``z`` standard
    errors when given) and two-sided test of a mean difference of 0. ``mean_a`` and
    ``mean_b`` are only carried along for the report."""
    if n <= 0:
        return Difference(mean_a, mean_b, 0.0, 0.0, 0.0, 0.0, 1.0)
    mean = total / n
    if n < 2:
        return Difference(mean_a, mean_b, mean, -math.inf, math.inf, 0.0, 1.0)
    variance = max(0.0, (squares - n * mean * mean) / (n - 1))
    se = math.sqrt(variance / n)
    if se == 0:
        # every pair differs by the same amount: no doubt about the mean difference
        if mean == 0:
            return Difference(mean_a, mean_b, 0.0, 0.0, 0.0, 0.0, 1.0)
        return Difference(mean_a, mean_b, mean, mean, mean, math.copysign(math.inf, mean), 0.0)
    stat = mean / se
    k = z if z is not None else t_quantile(0.975, n - 1)
    return Difference(mean_a, mean_b, mean, mean - k * se, mean + k * se, stat,
                      t_two_sided_p(stat, n - 1))


def binomial_tail(k: int, n: int) -> float:
    """P(X <= k) for X binomial with ``n`` trials of probability 1/2 (exact)."""
    if k < 0:
        return 0.0
    if k >= n:
        return 1.0
    return float(Fraction(sum(math.comb(n, i) for i in range(k + 1)), 2 ** n))


def mcnemar(only_a: int, only_b: int) -> float:
    """The exact two-sided McNemar test: of the games in which a yes-or-no outcome changed,
    ``only_a`` had it in A only and ``only_b`` in B only; the p-value of "no change"
    (under it each changed game goes either way with probability 1/2)."""
    n = only_a + only_b
    if n == 0:
        return 1.0
    return min(1.0, 2 * binomial_tail(min(only_a, only_b), n))


@dataclass
class Pairs:
    """The running sums of one measure over paired games: of A, of B, of the differences
    and of their squares; and how many pairs moved up, down or not at all."""

    n: int = 0
    sum_a: Fraction = field(default_factory=Fraction)
    sum_b: Fraction = field(default_factory=Fraction)
    sum_d: Fraction = field(default_factory=Fraction)
    sum_d2: Fraction = field(default_factory=Fraction)
    up: int = 0
    down: int = 0

    def add(self, a: Fraction | int, b: Fraction | int) -> None:
        a, b = Fraction(a), Fraction(b)
        d = b - a
        self.n += 1
        self.sum_a += a
        self.sum_b += b
        self.sum_d += d
        self.sum_d2 += d * d
        if d > 0:
            self.up += 1
        elif d < 0:
            self.down += 1

    @property
    def same(self) -> int:
        return self.n - self.up - self.down

    def difference(self) -> Difference:
        n = self.n
        return paired_difference(n, float(self.sum_d), float(self.sum_d2),
                                 float(self.sum_a / n) if n else 0.0,
                                 float(self.sum_b / n) if n else 0.0)

    @property
    def variance(self) -> float:
        """The sample variance of the per-pair differences."""
        n = self.n
        if n < 2:
            return 0.0
        mean = self.sum_d / n
        return float((self.sum_d2 - n * mean * mean) / (n - 1))

"""The sequential probability ratio test of ``pnp sim compare --sprt``: play A and B in
pairs (the same seeds) and stop as soon as the evidence decides.

The measure is the per-pair difference B - A of one number of a game (a seat's share of
the win, the first seat's lead over a fair share, the length, a score component). H0 says
its mean is 0, H1 that it is ``effect`` away from 0 (either way: the test is two-sided,
two one-sided tests at ``alpha / 2`` each, Sobel and Wald 1949). After every pair the
log-likelihood ratio of each one-sided test is worked out under the normal approximation
fishtest uses for its generalised SPRT (the variance estimated from the pairs so far):

    LLR(mu1) = n * mu1 * (2 * mean - mu1) / (2 * variance)

and compared with Wald's bounds ``log(beta / (1 - alpha'))`` and ``log((1 - beta) /
alpha')``: above the upper bound of either side, H1 is accepted (a change of at least
about ``effect``, in the direction of that side); below the lower bound of both, H0 (no
change that large). Between them, play on.

:func:`fixed_games` is the number of pairs a fixed-size test of the same alpha, beta and
effect needs (``((z_{1-alpha/2} + z_{1-beta}) * sd / effect)^2``), which the report shows
beside the number the SPRT took. Standard library only.
"""

from __future__ import annotations

import math
from fractions import Fraction

from sim.paired import Pairs
from sim.stats import normal_quantile

MIN_PAIRS = 10  # no decision before this many pairs (the variance must be estimated)
H0, H1, GOING = "H0", "H1", "continue"


def bounds(alpha: float, beta: float) -> tuple[float, float]:
    """Wald's bounds on the log-likelihood ratio: ``(log(beta / (1 - alpha)),
    log((1 - beta) / alpha))``; (-2.944, 2.944) for alpha = beta = 0.05."""
    return (math.log(beta / (1 - alpha)), math.log((1 - beta) / alpha))


def llr(n: int, mean: float, variance: float, mu1: float) -> float:
    """The log-likelihood ratio of mean ``mu1`` against mean 0 for ``n`` values of this
    mean and variance (normal approximation)."""
    if n <= 0:
        return 0.0
    if variance <= 0:
        # no spread at all: the data sit exactly on one mean
        if mean == 0:
            return -math.inf
        return math.inf if abs(mean - mu1) < abs(mean) else -math.inf
    return n * mu1 * (2 * mean - mu1) / (2 * variance)


def fixed_games(alpha: float, beta: float, effect: float, sd: float) -> int:
    """Pairs a fixed-size two-sided test at ``alpha`` needs to find a mean difference of
    ``effect`` with power ``1 - beta`` when the differences have standard deviation
    ``sd``."""
    if sd <= 0:
        return MIN_PAIRS
    z = normal_quantile(1 - alpha / 2) + normal_quantile(1 - beta)
    return max(MIN_PAIRS, math.ceil((z * sd / effect) ** 2))


class Sprt:
    """A two-sided SPRT on a stream of paired differences (see the module docstring)."""

    def __init__(self, alpha: float, beta: float, effect: float) -> None:
        if not (0 < alpha < 1 and 0 < beta < 1 and alpha + beta < 1):
            raise ValueError(f"alpha {alpha} and beta {beta} must lie between 0 and 1 "
                             f"and add up to less than 1")
        if effect <= 0:
            raise ValueError(f"the effect size must be above 0, not {effect}")
        self.alpha, self.beta, self.effect = alpha, beta, effect
        self.pairs = Pairs()

    @property
    def bounds(self) -> tuple[float, float]:
        return bounds(self.alpha / 2, self.beta)

    def add(self, a: Fraction | int, b: Fraction | int) -> None:
        """One pair: the measure in A's game and in B's."""
        self.pairs.add(a, b)

    @property
    def llrs(self) -> tuple[float, float]:
        """The log-likelihood ratios of B - A = +effect and of B - A = -effect."""
        p = self.pairs
        mean = float(p.sum_d / p.n) if p.n else 0.0
        variance = p.variance
        return (llr(p.n, mean, variance, self.effect), llr(p.n, mean, variance, -self.effect))

    @property
    def state(self) -> str:
        """:data:`H1` (a change), :data:`H0` (none as large as the effect) or
        :data:`GOING`."""
        if self.pairs.n < MIN_PAIRS:
            return GOING
        low, high = self.bounds
        up, down = self.llrs
        if up >= high or down >= high:
            return H1
        if up <= low and down <= low:
            return H0
        return GOING

    @property
    def direction(self) -> int:
        """+1 when B is above A, -1 below, 0 while H1 is not accepted."""
        if self.state != H1:
            return 0
        up, down = self.llrs
        return 1 if up >= down else -1

    def fixed_games(self) -> int:
        """The pairs a fixed-size test of the same error rates would need, with the spread
        of the differences seen so far."""
        return fixed_games(self.alpha, self.beta, self.effect, math.sqrt(self.pairs.variance))

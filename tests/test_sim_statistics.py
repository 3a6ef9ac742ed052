"""The statistics behind ``pnp sim compare``, ``--sprt`` and ``ladder``, checked against values
worked out by hand (the working is in each test's comments)."""

from __future__ import annotations

import math
import random
from fractions import Fraction

import pytest

from sim.multiple import adjust, benjamini_hochberg, holm
from sim.paired import Pairs, binomial_tail, mcnemar, paired_difference
from sim.rating import bradley_terry, expected
from sim.sprt import H0, H1, MIN_PAIRS, Sprt, bounds, fixed_games, llr
from sim.stats import (
    design_effect,
    normal_quantile,
    seats_test,
    seats_test_shares,
    share_interval,
    share_test,
    t_quantile,
    t_two_sided_p,
    wilson,
)

# --- shared wins: per-game variance ---------------------------------------------------------


def test_300_shared_wins_have_no_spread():
    # 300 games, each shared by the two seats: every game gives the first seat exactly 1/2,
    # so the win rate is 1/2 with no uncertainty at all (the Wilson interval of 150 wins
    # in 300 trials says [44.4, 55.6] %)
    assert design_effect(150, 300 * 0.25, 300) == 0
    assert share_interval(150, 75, 300) == (0.5, 0.5)
    low, high = wilson(150, 300)
    assert (round(100 * low, 1), round(100 * high, 1)) == (44.4, 55.6)
    assert share_test(150, 75, 300, 0.5) == (0.0, 1.0)


def test_share_interval_is_wilson_at_the_effective_number_of_games():
    # shares 1, 1/2, 1/2, 0: mean 1/2, mean square (1 + 1/4 + 1/4) / 4 = 3/8, so the
    # per-game variance is 3/8 - 1/4 = 1/8 against 1/4 for yes-or-no games: design effect
    # 1/2, and 4 games count as 8
    assert design_effect(2, 1.5, 4) == 0.5
    assert share_interval(2, 1.5, 4) == pytest.approx(wilson(4, 8), abs=1e-15)
    # only 0s and 1s: Wilson's interval itself, and the plain score test
    assert share_interval(40, 40, 80) == pytest.approx(wilson(40, 80), abs=1e-15)
    z, p = share_test(60, 60, 100, 0.5)
    assert z == pytest.approx(2.0)  # (0.6 - 0.5) / sqrt(0.25 / 100)
    assert p == pytest.approx(0.0455002638963584)


def test_rao_scott_divides_the_chi_square_by_the_mean_design_effect():
    stat, df, p = seats_test([120, 80, 100, 100], 400)
    assert stat == pytest.approx(8.0)  # (400 + 400 + 0 + 0) / 100
    scaled, df2, p2 = seats_test_shares([120, 80, 100, 100], [0.5, 0.5, 0.5, 0.5])
    assert (scaled, df2) == (pytest.approx(16.0), df)
    # the chi-square tail with 3 degrees of freedom: erfc(sqrt(x/2)) + sqrt(2x/pi) e^(-x/2)
    assert p2 == pytest.approx(math.erfc(math.sqrt(8)) + math.sqrt(32 / math.pi) * math.exp(-8))
    assert p == pytest.approx(math.erfc(2) + math.sqrt(16 / math.pi) * math.exp(-4))


def test_student_t_against_closed_forms():
    # df = 1 is the Cauchy distribution: P(|T| > 1) = 1 - 2 atan(1) / pi = 1/2
    assert t_two_sided_p(1.0, 1) == pytest.approx(0.5, abs=1e-12)
    # df = 2: P(|T| > t) = 1 - t / sqrt(2 + t^2); t = 2 gives 1 - 2 / sqrt(6)
    assert t_two_sided_p(2.0, 2) == pytest.approx(1 - 2 / math.sqrt(6), abs=1e-12)
    assert t_quantile(0.975, 2) == pytest.approx(4.302652729911275, abs=1e-9)
    assert normal_quantile(0.975) == pytest.approx(1.959963984540054, abs=1e-9)


# --- paired differences and McNemar ---------------------------------------------------------


def test_paired_difference_of_five_pairs():
    # differences 1, 2, 3, 4, 5: mean 3, sd sqrt(2.5), standard error sqrt(0.5), t = 3 /
    # sqrt(0.5) = 4.2426 with 4 degrees of freedom; t_{0.975, 4} = 2.776445
    d = paired_difference(5, 15, 55, 0.0, 3.0)
    assert d.diff == 3
    assert d.z == pytest.approx(3 / math.sqrt(0.5))
    assert (d.low, d.high) == (pytest.approx(3 - 2.7764451051977987 * math.sqrt(0.5)),
                               pytest.approx(3 + 2.7764451051977987 * math.sqrt(0.5)))
    assert 0.0132 < d.p < 0.0133
    assert d.significant


def test_pairs_that_all_move_by_one_are_certain():
    pairs = Pairs()
    for a in range(20):
        pairs.add(a, a - 1)
    d = pairs.difference()
    assert (d.diff, d.low, d.high, d.p) == (-1, -1, -1, 0.0)
    assert (pairs.up, pairs.down, pairs.same) == (0, 20, 0)
    same = Pairs()
    for a in range(20):
        same.add(a, a)
    assert same.difference().p == 1.0 and not same.difference().significant


def test_mcnemar_exact():
    # 12 games changed, 10 one way and 2 the other: P(X <= 2) for X ~ Bin(12, 1/2) is
    # (1 + 12 + 66) / 4096, doubled
    assert binomial_tail(2, 12) == 79 / 4096
    assert mcnemar(10, 2) == 2 * 79 / 4096
    assert mcnemar(2, 10) == mcnemar(10, 2)
    assert mcnemar(0, 0) == 1.0
    assert mcnemar(3, 3) == 1.0


# --- multiple comparisons -------------------------------------------------------------------


def test_holm_and_benjamini_hochberg_by_hand():
    p = [0.01, 0.04, 0.03, 0.005]
    # Holm: sorted 0.005, 0.01, 0.03, 0.04 times 4, 3, 2, 1 = 0.02, 0.03, 0.06, 0.04,
    # then made non-decreasing: 0.02, 0.03, 0.06, 0.06
    assert holm(p) == pytest.approx([0.03, 0.06, 0.06, 0.02])
    # BH: times 4/1, 4/2, 4/3, 4/4 = 0.02, 0.02, 0.04, 0.04, non-increasing from the top
    assert benjamini_hochberg(p) == pytest.approx([0.02, 0.04, 0.04, 0.02])
    assert adjust(p, "none") == p
    with pytest.raises(ValueError, match="unknown correction 'bonferroni'"):
        adjust(p, "bonferroni")


# --- the sequential test --------------------------------------------------------------------


def test_sprt_bounds_are_walds():
    # fishtest's (-2.94, 2.94) for alpha = beta = 0.05
    low, high = bounds(0.05, 0.05)
    assert (round(low, 4), round(high, 4)) == (-2.9444, 2.9444)
    assert bounds(0.025, 0.1) == (pytest.approx(math.log(0.1 / 0.975)),
                                  pytest.approx(math.log(0.9 / 0.025)))


def test_llr_by_hand():
    # 100 pairs of mean 0.5 and variance 4, H1 mean 1: 100 * 1 * (1 - 1) / 8 = 0;
    # mean 1: 100 * 1 * 1 / 8 = 12.5; mean 0: -100 / 8
    assert llr(100, 0.5, 4.0, 1.0) == 0
    assert llr(100, 1.0, 4.0, 1.0) == 12.5
    assert llr(100, 0.0, 4.0, 1.0) == -12.5
    assert llr(100, 0.0, 4.0, -1.0) == -12.5


def test_sprt_decides_and_says_which_way():
    # differences of exactly +1 with spread: the variance 1 and the mean about 1 make the
    # LLR of +1 grow by about 1/2 per pair, past log(0.95 / 0.025) = 3.64 in about 8 pairs,
    # but no decision is taken before MIN_PAIRS
    s = Sprt(0.05, 0.05, 1.0)
    rng = random.Random(3)
    while s.state not in (H0, H1):
        s.add(0, 1 + rng.choice((-1, 1)))
    assert s.state == H1 and s.direction == 1 and s.pairs.n >= MIN_PAIRS
    same = Sprt(0.05, 0.05, 1.0)
    for _ in range(MIN_PAIRS - 1):
        same.add(3, 3)
    assert same.state == "continue"
    same.add(3, 3)
    assert same.state == H0  # identical games: no change, as soon as it may decide


def test_fixed_size_games_by_hand():
    # two-sided alpha 0.05 and beta 0.1: (1.959964 + 1.281552)^2 = 10.5074; sd 3 and
    # effect 1: 94.57 pairs, so 95
    assert fixed_games(0.05, 0.1, 1.0, 3.0) == 95
    with pytest.raises(ValueError, match="effect size must be above 0"):
        Sprt(0.05, 0.05, 0)
    with pytest.raises(ValueError, match="add up to less than 1"):
        Sprt(0.6, 0.5, 1)


def test_sprt_false_alarms_stay_below_alpha():
    # 400 tests of no change at all (differences of mean 0, sd 2, effect 0.5): at most
    # about alpha of them may accept H1 (Wald's bound: alpha / (1 - beta) at most)
    rng = random.Random(11)
    alarms = 0
    for _ in range(400):
        s = Sprt(0.05, 0.05, 0.5)
        while s.state not in (H0, H1) and s.pairs.n < 5000:
            s.add(Fraction(0), Fraction(round(rng.gauss(0, 2) * 100), 100))
        alarms += s.state == H1
    assert alarms <= 0.05 * 400 * 1.6


# --- ratings --------------------------------------------------------------------------------


def test_elo_of_75_wins_in_100():
    # strengths 3 : 1, so 400 log10(3) = 190.85 Elo; the Fisher information of the log
    # strength is 100 * 0.75 * 0.25 = 18.75, its standard error 1 / sqrt(18.75) = 0.23094,
    # times 400 / ln 10 = 40.118 Elo
    r = bradley_terry(["B", "A"], [[0, 25], [75, 0]]).by_name()
    assert r["B"].elo == 0 and r["B"].se == 0
    assert r["A"].elo == pytest.approx(400 * math.log10(3), abs=1e-9)
    assert r["A"].se == pytest.approx(400 / math.log(10) / math.sqrt(18.75), abs=1e-9)
    assert r["A"].low == pytest.approx(r["A"].elo - 1.959963984540054 * r["A"].se)
    assert (r["A"].games, r["A"].score) == (100, 75)


def test_elo_from_a_table_whose_fit_is_exact():
    # strengths 4 : 2 : 1 predict A-B 2/3, B-C 2/3, A-C 4/5; a table with exactly those
    # shares (30 games A-B, 30 B-C, 50 A-C) is fitted exactly: A 400 log10(4) = 240.82,
    # B 400 log10(2) = 120.41 above C
    wins = [[0, 10, 10], [20, 0, 10], [40, 20, 0]]  # rows C, B, A
    r = bradley_terry(["C", "B", "A"], wins).by_name()
    assert r["B"].elo == pytest.approx(400 * math.log10(2), abs=1e-7)
    assert r["A"].elo == pytest.approx(400 * math.log10(4), abs=1e-7)
    assert expected(r["A"].elo, r["C"].elo) == pytest.approx(0.8)


def test_a_clean_sweep_gets_a_stated_prior():
    result = bradley_terry(["random", "greedy"], [[0, 0], [10, 0]])
    assert result.prior
    greedy = result.by_name()["greedy"]
    # one virtual draw: 10.5 to 0.5, so 400 log10(21)
    assert greedy.elo == pytest.approx(400 * math.log10(21), abs=1e-7)
    assert greedy.score == 10
    with pytest.raises(ValueError, match="x played no games linking them to a"):
        bradley_terry(["a", "b", "x"], [[0, 3, 0], [2, 0, 0], [0, 0, 0]])

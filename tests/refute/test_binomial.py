"""The certified Clopper-Pearson bounds (``reference.binomial``) against an exact oracle: binomial tails summed in exact
rationals. Every certified lower bound must be proven (its exact tail is at most the level, so it is no larger than
Clopper and Pearson's bound) and tight (the exact tail a relative 2^-30 above it exceeds the level, so Clopper and
Pearson's bound is within 2^-30 of it); the upper bound likewise, through the failures. Beyond the oracle's reach,
the enclosure of the tail brackets SciPy's value and is narrow."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.stats import binom

from ldpspec.reference import binomial
from tests.support import examples


def exact_tail(n: int, k: int, p: Fraction) -> Fraction:
    """``P[Bin(n, p) >= k]``, exactly."""
    return sum((math.comb(n, j) * p ** j * (1 - p) ** (n - j) for j in range(k, n + 1)), start=Fraction(0))


LEVELS = [Fraction(1, 2), Fraction(1, 20), Fraction(1, 200), Fraction(1, 10 ** 6), Fraction(1, 10 ** 12)]


@pytest.mark.parametrize("n", [1, 2, 7, 30, 60])
@pytest.mark.parametrize("level", LEVELS)
def test_the_lower_bound_is_proven_and_tight_against_exact_tails(n, level):
    for k in sorted({0, 1, 2, n // 3, n // 2, n - 1, n} & set(range(n + 1))):
        bound = binomial.lower_bound(k, n, level)
        if k == 0:
            assert bound == 0
            continue
        assert exact_tail(n, k, bound) <= level, (n, k, level)  # proven: no larger than Clopper-Pearson's
        above = bound * (1 + Fraction(1, 2 ** 30))  # tight: Clopper-Pearson's bound is below this
        assert above >= 1 or exact_tail(n, k, above) > level, (n, k, level, float(bound))


@pytest.mark.parametrize("n", [1, 5, 40])
@pytest.mark.parametrize("level", LEVELS[1:4])
def test_the_upper_bound_is_the_lower_bound_of_the_failures(n, level):
    for k in range(n + 1):
        bound = binomial.upper_bound(k, n, level)
        if k == n:
            assert bound == 1
            continue
        below = sum((math.comb(n, j) * bound ** j * (1 - bound) ** (n - j) for j in range(k + 1)), start=Fraction(0))
        assert below <= level  # P[Bin(n, U) <= k] <= level: no smaller than Clopper-Pearson's upper bound
        assert bound == 1 - binomial.lower_bound(n - k, n, level)


@settings(max_examples=examples(60))
@given(n=st.integers(1, 80), data=st.data(), level=st.sampled_from(LEVELS))
def test_the_tail_enclosure_holds_the_exact_tail(n, data, level):
    k = data.draw(st.integers(0, n))
    p = data.draw(st.fractions(0, 1, max_denominator=10 ** 6))
    low, high = binomial.tail_enclosure(n, k, p)
    exact = exact_tail(n, k, p)
    assert low <= exact <= high


@pytest.mark.parametrize("n, k", [(10 ** 6, 1), (10 ** 6, 1234), (10 ** 6, 333_333), (10 ** 8, 50_000_000),
                                  (10 ** 8, 97), (10 ** 9, 999_000_000)])
def test_large_samples_are_enclosed_narrowly_around_scipys_tail(n, k):
    """Beyond the exact oracle: the enclosure brackets SciPy's tail (a double, good to about 1e-12 relative here)
    and is narrower than 1e-9 of it; the certified bound is within 2^-30 of SciPy's inverse."""
    level = Fraction(1, 10 ** 4)
    bound = binomial.lower_bound(k, n, level)
    low, high = binomial.tail_enclosure(n, k, bound)
    reference = float(binom.sf(k - 1, n, float(bound)))
    assert float(low) * (1 - 1e-9) <= reference <= float(high) * (1 + 1e-9)
    assert float(high) - float(low) <= 1e-9 * float(high)
    assert float(high) <= float(level)
    from scipy.special import betaincinv
    assert abs(float(bound) / betaincinv(k, n - k + 1, float(level)) - 1) <= 2 ** -30


@pytest.mark.parametrize("m", [1, 2, 1999, 2000, 2001, 5000, 10 ** 7])
def test_log_factorials_are_enclosed(m):
    interval = binomial._log_factorial(m)
    assert float(interval.a) <= math.lgamma(m + 1) * (1 + 1e-15) + 1e-12
    assert float(interval.b) >= math.lgamma(m + 1) * (1 - 1e-15) - 1e-12
    assert float(interval.b - interval.a) <= 1e-30 * max(1.0, math.lgamma(m + 1))
    if m <= 6000:  # both ways of enclosing it agree with the exact integer
        exact = binomial._IV.log(binomial._IV.mpf(math.factorial(m)))
        assert interval.a <= exact.b and exact.a <= interval.b


@pytest.mark.parametrize("k, n, level", [(-1, 5, Fraction(1, 10)), (6, 5, Fraction(1, 10)), (1, 0, Fraction(1, 10)),
                                         (1, 5, Fraction(0)), (1, 5, Fraction(3, 4))])
def test_counts_and_levels_out_of_range_are_refused(k, n, level):
    with pytest.raises(ValueError, match="count|level"):
        binomial.lower_bound(k, n, level)


def test_a_candidate_the_proof_rejects_moves_down_until_proven(monkeypatch):
    """An untrusted candidate above the exact bound (SciPy's inverse off by 1%) is never returned: the proof fails
    and the candidate moves down until it holds."""
    monkeypatch.setattr(binomial, "betaincinv", lambda a, b, y: 1.01 * float(__import__("scipy").special.betaincinv(
        a, b, y)))
    binomial.lower_bound.cache_clear()
    try:
        for n, k in [(30, 10), (60, 1)]:
            bound = binomial.lower_bound(k, n, Fraction(1, 100))
            assert exact_tail(n, k, bound) <= Fraction(1, 100)
            assert bound > 0
    finally:
        binomial.lower_bound.cache_clear()

"""The outputs test's accepted counts against exact binomial tails summed in Fractions: SciPy's quantile only
proposes the boundary, the certified tail decides, and a proposal that is off (too high, too low, not a number) still
ends at the exact boundary by bisection."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest

from ldpspec.reference.porting import outputs
from ldpspec.reference.porting.outputs import accepted_counts


def exact_lower_tails(n: int, p: Fraction) -> list[Fraction]:
    """``P[Bin(n, p) <= k]`` for ``k = 0 .. n``, exactly."""
    terms = [math.comb(n, k) * p ** k * (1 - p) ** (n - k) for k in range(n + 1)]
    tails, total = [], Fraction(0)
    for term in terms:
        total += term
        tails.append(total)
    return tails


def exact_accepted(n: int, p: Fraction, level: Fraction) -> tuple[int, int]:
    """``lo``: the counts ``k`` with ``P[X <= k] <= level`` are the rejected low ones; ``hi`` likewise above."""
    low_tails = exact_lower_tails(n, p)
    high_tails = exact_lower_tails(n, 1 - p)  # P[X >= n - j] = P[failures <= j]
    return sum(1 for tail in low_tails if tail <= level), n - sum(1 for tail in high_tails if tail <= level)


CASES = [(40, Fraction(1, 3), Fraction(1, 1000)), (200, Fraction(1, 50), Fraction(1, 10**6)),
         (120, Fraction(9, 10), Fraction(1, 10**4)), (60, Fraction(1, 2), Fraction(1, 10**9))]


@pytest.mark.parametrize("n, p, level", CASES)
@pytest.mark.parametrize("proposal", ["scipy", "too high", "too low", "nan"])
def test_the_accepted_counts_are_the_exact_ones_whatever_scipy_proposes(monkeypatch, n, p, level, proposal):
    if proposal != "scipy":
        wrong = {"too high": lambda q, size, prob: size, "too low": lambda q, size, prob: 0,
                 "nan": lambda q, size, prob: math.nan}[proposal]
        monkeypatch.setattr(outputs.binom, "ppf", wrong)
        accepted_counts.cache_clear()
    try:
        assert accepted_counts(n, p, p, level) == exact_accepted(n, p, level)
    finally:
        accepted_counts.cache_clear()

"""Clopper-Pearson bounds on a binomial proportion, certified: no float tail approximation decides anything.

A count ``k`` of ``n`` independent trials, each a success with an unknown probability ``p``, bounds ``p`` from both
sides. Clopper and Pearson's one-sided bounds at level ``a`` are

* the lower bound ``L``: the ``p`` at which ``P[Bin(n, p) >= k] = a`` (0 when ``k = 0``);
* the upper bound ``U``: the ``p`` at which ``P[Bin(n, p) <= k] = a`` (1 when ``k = n``), which is ``1 - L`` of the
  count of failures ``n - k``.

``P[L <= p] >= 1 - a`` whatever ``p`` is, and likewise for ``U``. Any number below ``L`` is also a valid lower bound
(a lower bound with a smaller value holds more often), so this module returns a rational ``L'`` that is proven to
satisfy ``P[Bin(n, L') >= k] <= a``: since the tail grows with ``p``, ``L' <= L``. ``L'`` starts from a double
computed by SciPy's inverse incomplete beta function (an untrusted candidate) moved down by a relative ``2^-40``; the
proof is an upper bound on the binomial tail at ``L'``:

* the tail is ``t_k S`` with ``t_j = C(n, j) p^j (1 - p)^(n - j)`` and ``S = sum_{j >= k} t_j / t_k``;
* ``S`` is summed in integers scaled by ``2^96``, each term from the last by the exact ratio
  ``t_{j+1} / t_j = (n - j) p / ((j + 1)(1 - p))`` and rounded up; once the ratio ``r`` falls below 1 it only
  decreases, so everything after a term ``u`` sums to at most ``u r / (1 - r)``, added rounded up when it is below
  ``2^-40`` of the sum so far;
* ``ln t_k`` is enclosed in mpmath's interval arithmetic (outward rounding, 160 bits), with ``ln m!`` from the exact
  integer ``m!`` for ``m <= 2000`` and beyond by Stirling's series for ``ln Gamma(x)``, ``x = m + 1``, to the term in
  ``x^-5``: for real ``x > 0`` its remainder has the sign of the first term left out, ``-1 / (1680 x^7)``, and is
  smaller in magnitude (NIST Digital Library of Mathematical Functions, 5.11(ii)), an error below ``10^-26`` here.

When the proof fails for a candidate (the double was off), the candidate moves down by ``2^-30``, ``2^-20``, ...
until it holds; ``0`` always holds. ``tail_enclosure`` also gives a lower bound of the tail (the terms rounded down,
no remainder), with which the tests show that the certified bound is within a relative ``2^-30`` of the exact one.

Cost: about ``6 sqrt(n p (1 - p))`` integer steps per proof at the levels used here (a few milliseconds at
``n = 10^6``, a few dozen at ``10^8``); bounds are cached.
"""

from __future__ import annotations

import math
from fractions import Fraction
from functools import lru_cache

from mpmath.ctx_iv import MPIntervalContext
from mpmath.libmp import to_rational
from scipy.special import betaincinv

_IV = MPIntervalContext()
_IV.prec = 160

SCALE_BITS = 96
"""The integers that sum the tail's terms are scaled by ``2^SCALE_BITS``."""
REMAINDER_BITS = 40
"""The sum stops when what is left of it is proven below ``2^-REMAINDER_BITS`` of the sum so far."""
EXACT_FACTORIALS = 2000
"""``ln m!`` is enclosed from the exact integer ``m!`` up to this ``m``, by Robbins' bounds beyond."""
MOVES = (2.0 ** -40, 2.0 ** -30, 2.0 ** -20, 2.0 ** -12, 2.0 ** -6, 0.25, 0.5)
"""The relative moves down of the double candidate tried in turn until the proof holds."""


def _interval(value: Fraction):
    return _IV.mpf(value.numerator) / _IV.mpf(value.denominator)


def _log_factorial(m: int):
    """An interval enclosing ``ln m! = ln Gamma(m + 1)``."""
    if m <= EXACT_FACTORIALS:
        return _IV.log(_IV.mpf(math.factorial(m)))
    x = _IV.mpf(m + 1)
    series = 1 / (12 * x) - 1 / (360 * x ** 3) + 1 / (1260 * x ** 5)
    remainder = _IV.mpf([(-1 / (1680 * x ** 7)).a, 0])  # the first term left out, B_8 / (8 * 7 x^7), bounds it
    return (x - _IV.mpf(1) / 2) * _IV.log(x) - x + _IV.log(2 * _IV.pi) / 2 + series + remainder


def _log_term(n: int, k: int, p: Fraction):
    """An interval enclosing ``ln t_k = ln C(n, k) + k ln p + (n - k) ln(1 - p)``, for ``0 < p < 1``."""
    log_p, log_q = _IV.log(_interval(p)), _IV.log(_interval(1 - p))
    return _log_factorial(n) - _log_factorial(k) - _log_factorial(n - k) + k * log_p + (n - k) * log_q


def _ratio_sums(n: int, k: int, p: Fraction) -> tuple[Fraction, Fraction]:
    """``(lower, upper)`` bounds of ``S = sum_{j=k}^{n} t_j / t_k`` for ``0 < p < 1``."""
    one = 1 << SCALE_BITS
    up, down, total_up, total_down = one, one, one, one
    odds_top, odds_bottom = p.numerator, p.denominator - p.numerator  # p / (1 - p)
    for j in range(k, n):
        top, bottom = (n - j) * odds_top, (j + 1) * odds_bottom  # t_{j+1} / t_j
        if top < bottom:  # the ratio is below 1 and falls from here: the rest is at most up * r / (1 - r)
            rest = -(-up * top // (bottom - top))
            if rest << REMAINDER_BITS <= total_up:
                return Fraction(total_down, one), Fraction(total_up + rest, one)
        up = -(-up * top // bottom)
        down = down * top // bottom
        total_up += up
        total_down += down
    return Fraction(total_down, one), Fraction(total_up, one)


def _rational(raw: tuple) -> Fraction:
    return Fraction(*to_rational(raw))


def tail_enclosure(n: int, k: int, p: Fraction) -> tuple[Fraction, Fraction]:
    """``(lower, upper)``, rationals enclosing ``P[Bin(n, p) >= k]`` for a rational ``p`` of ``[0, 1]``."""
    if k <= 0 or (p == 1 and k <= n):
        return Fraction(1), Fraction(1)
    if k > n or p == 0:
        return Fraction(0), Fraction(0)
    lower, upper = _ratio_sums(n, k, p)
    term = _IV.exp(_log_term(n, k, p))
    low, high = term * _interval(lower), term * _interval(upper)
    return _rational(low._mpi_[0]), min(_rational(high._mpi_[1]), Fraction(1))


def _at_most(n: int, k: int, p: Fraction, level: Fraction) -> bool:
    """Whether ``P[Bin(n, p) >= k] <= level`` is proven."""
    return tail_enclosure(n, k, p)[1] <= level


@lru_cache(maxsize=1 << 16)
def lower_bound(k: int, n: int, level: Fraction) -> Fraction:
    """A rational ``L'`` no larger than Clopper and Pearson's lower bound on ``p`` at ``level`` from ``k`` successes
    in ``n`` trials, proven: ``P[Bin(n, L') >= k] <= level``; 0 for ``k = 0``."""
    _check(k, n, level)
    if k == 0:
        return Fraction(0)
    candidate = float(betaincinv(k, n - k + 1, float(level)))  # untrusted: the proof below decides
    if not math.isfinite(candidate) or candidate <= 0:
        return Fraction(0)
    for move in MOVES:
        bound = Fraction(min(candidate, 1.0) * (1 - move))
        if _at_most(n, k, bound, level):
            return bound
    return Fraction(0)


def upper_bound(k: int, n: int, level: Fraction) -> Fraction:
    """A rational ``U'`` no smaller than Clopper and Pearson's upper bound on ``p`` at ``level`` from ``k`` successes
    in ``n`` trials, proven: ``P[Bin(n, U') <= k] <= level``; 1 for ``k = n``. It is ``1 - lower_bound`` of the
    ``n - k`` failures."""
    _check(k, n, level)
    return 1 - lower_bound(n - k, n, level)


def _check(k: int, n: int, level: Fraction) -> None:
    if not (isinstance(k, int) and isinstance(n, int) and 0 <= k <= n and n >= 1):
        raise ValueError(f"a count must be an integer of [0, n] with n >= 1; got k = {k}, n = {n}")
    if not 0 < level <= Fraction(1, 2):  # below 1/2 the tail starts past the mode: the sum ends in a few sigma
        raise ValueError(f"a level must be in (0, 1/2]; got {level}")

"""Exact numbers for the kernel: one mpmath context, exact conversions, and the tie rule.

Precision policy (documented on the site, page "Precision"):

* Every probability and budget in the kernel is an ``mpf`` of a private mpmath
  context working at ``WORKING_DIGITS`` significant decimal digits. The context
  is private so that a caller changing ``mpmath.mp.dps`` cannot change a verdict.
* Inputs are converted exactly from their decimal text: ``"0.1"`` and the float
  ``0.1`` both mean one tenth (a float is read as the shortest decimal that
  prints as it). A number is never taken from float64 arithmetic.
* Privacy conditions are compared as log-ratios, ``ln P(y|x) - ln P(y|x')``
  against a budget. Two log-ratios closer than ``RESOLUTION`` (1e-36) are equal:
  a ratio equal to ``e^eps`` satisfies ``eps``, a ratio larger by a relative
  1e-30 does not. The resolution sits far above the rounding error of the
  working precision (about 1e-59) and of channel files written with at least
  40 significant digits (about 1e-40), and far below any difference a
  mechanism's parameters produce.
* Comparing logs instead of ``e^eps`` means large budgets never overflow.
"""

from __future__ import annotations

import math
from decimal import Decimal, InvalidOperation
from fractions import Fraction
from numbers import Rational

from mpmath.ctx_mp import MPContext

from ldpspec.spec.errors import InvalidParameter

WORKING_DIGITS = 60
"""Significant decimal digits of every kernel computation."""

ctx = MPContext()
ctx.dps = WORKING_DIGITS

mpf = ctx.mpf
ZERO = mpf(0)
ONE = mpf(1)
INF = ctx.inf

RESOLUTION = mpf("1e-36")
"""Log-ratios (and row sums) closer than this are treated as equal."""

WRITTEN_DIGITS = 50
"""Significant digits used when the kernel writes a number as a decimal string."""


def exact(value, name: str, *, allow_infinite: bool = False):
    """Convert ``value`` to a kernel number exactly, or raise naming ``name``.

    Accepts int, decimal strings (``"0.25"``, ``"1e-3"``, ``"inf"`` only when
    ``allow_infinite``), fraction strings (``"1/3"``), ``Fraction``, ``Decimal``, float (read as its shortest
    decimal) and mpmath numbers of any context. Rejects bool, NaN and, unless
    allowed, infinities.
    """
    if isinstance(value, bool) or value is None:
        raise InvalidParameter(f"{name} must be a real number, got {value!r}")
    try:
        if isinstance(value, int):
            number = mpf(value)
        elif isinstance(value, float):
            if math.isnan(value):
                raise InvalidParameter(f"{name} must be a real number, got NaN")
            number = INF if math.isinf(value) and value > 0 else (
                -INF if math.isinf(value) else mpf(repr(value)))
        elif isinstance(value, Rational):
            number = mpf(value.numerator) / value.denominator
        elif isinstance(value, Decimal):
            if value.is_nan():
                raise InvalidParameter(f"{name} must be a real number, got NaN")
            if value.is_infinite():
                number = INF if value > 0 else -INF
            else:
                number = mpf(str(value))
        elif isinstance(value, str):
            text = value.strip()
            if "/" in text:  # an exact fraction "a/b"
                try:
                    return exact(Fraction(text), name, allow_infinite=allow_infinite)
                except (ValueError, ZeroDivisionError):
                    raise InvalidParameter(
                        f"{name} must be a decimal number or a fraction a/b, got {value!r}") from None
            try:
                parsed = Decimal(text)
            except InvalidOperation:
                raise InvalidParameter(
                    f"{name} must be a decimal number or a fraction a/b, got {value!r}") from None
            return exact(parsed, name, allow_infinite=allow_infinite)
        elif hasattr(value, "_mpf_"):  # an mpf of any mpmath context
            number = mpf(value)
            if ctx.isnan(number):
                raise InvalidParameter(f"{name} must be a real number, got NaN")
        else:
            raise InvalidParameter(
                f"{name} must be a real number, got {type(value).__name__} {value!r}")
    except (TypeError, ValueError) as error:
        if isinstance(error, InvalidParameter):
            raise
        raise InvalidParameter(f"{name} must be a real number, got {value!r}") from None
    if ctx.isinf(number) and not allow_infinite:
        raise InvalidParameter(f"{name} must be finite, got {value!r}")
    return number


def budget(value, name: str = "epsilon"):
    """A privacy budget: a finite real number >= 0 (Cao et al. allow 0)."""
    number = exact(value, name)
    if number < 0:
        raise InvalidParameter(f"{name} must be a finite real number >= 0, got {value!r}")
    return number


def probability(value, name: str):
    """A probability: a real number in [0, 1] (up to ``RESOLUTION`` above 1)."""
    number = exact(value, name)
    if number < 0 or number > 1 + RESOLUTION:
        raise InvalidParameter(f"{name} must be a probability in [0, 1], got {value!r}")
    return number


def log_ratio(numerator, denominator):
    """``ln(numerator / denominator)`` for ``numerator > 0``; ``+inf`` when the denominator is 0."""
    if denominator == 0:
        return INF
    return ctx.log(numerator) - ctx.log(denominator)


def holds_within_resolution(margin) -> bool:
    """The tie rule: a margin of ``bound - log_ratio`` counts as satisfied down to ``-RESOLUTION``."""
    return margin >= -RESOLUTION


def to_decimal_string(value, digits: int = WRITTEN_DIGITS) -> str:
    """A kernel number as a decimal string with ``digits`` significant digits, or ``"inf"``/``"-inf"``."""
    if ctx.isinf(value):
        return "inf" if value > 0 else "-inf"
    if value == 0:
        return "0"
    return ctx.nstr(value, digits, strip_zeros=False)


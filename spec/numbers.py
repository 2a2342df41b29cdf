"""Numbers in the kernel: exact values, budgets, and their approximations for display.

Precision policy (documented on the site, page "Precision"):

* Every probability is an ``Exact`` number (``spec.exact``): a rational, or a fraction of sums of ``c e^q`` with
  rational ``c`` and ``q``. Inputs are read exactly from their text: ``"0.1"`` and the float ``0.1`` both mean one
  tenth (a float is read as the shortest decimal that prints as it), ``"1/3"`` is a third, and
  ``"exp(1)/(exp(1)+2)"`` is GRR's ``p`` at ``eps = 1`` over three items, exactly. A number is never taken from
  float64 arithmetic.
* Every budget and log-ratio is a ``Nats``: a rational number of nats, or the log of an exact number
  (``"log(3)"``). The condition ``ln P[y|x] - ln P[y|x'] <= eps`` is decided as ``P[y|x] <= e^eps P[y|x']``
  between exact numbers: ties exactly, everything else by interval arithmetic with the precision raised until it is
  decided (``spec.exact``). No tolerance decides anything.
* Margins and log-ratios are *shown* as decimals with ``DISPLAY_DIGITS`` significant digits; they are
  approximations of the exact values the verdict was decided on.
* Large budgets never overflow: ``e^eps`` is held exactly and evaluated in interval arithmetic, whose exponents are
  unbounded integers.
"""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction
from numbers import Integral

from mpmath.ctx_mp import MPContext

from ldpspec.spec.errors import InvalidParameter
from ldpspec.spec.exact import APPROXIMATION_DIGITS, MAX_POWER, MAX_POWER_BITS, Exact, Undecided, cut_text
from ldpspec.spec.labels import value_text
from ldpspec.spec.nats import Nats
from ldpspec.spec.parse import parse_number

DISPLAY_DIGITS = 50
"""Significant digits used when the kernel shows an approximation as a decimal string."""

MAX_SHOWN_BINARY_EXPONENT = 3_000_000
"""A number shown beyond ``2^±3,000,000`` (about ``10^±900,000``) is shown as ``exp(x)`` (``x`` its natural log to
``DISPLAY_DIGITS`` digits), which ``spec.parse`` reads: its decimal exponent would be a line of digits, and slow to
compute."""

ctx = MPContext()
ctx.dps = APPROXIMATION_DIGITS
"""A private mpmath context for approximations shown to users (never for decisions)."""

__all__ = ["DISPLAY_DIGITS", "Exact", "Nats", "Undecided", "budget", "ctx", "exact_number", "integer", "probability",
           "to_decimal_string"]


def exact_number(value, name: str) -> Exact:
    """``value`` as an exact number, or ``InvalidParameter`` naming ``name``.

    Accepts int, Fraction, Decimal, text (decimals, fractions ``"a/b"``, expressions with ``exp()``), float (its
    shortest decimal), NumPy scalars, mpmath numbers (exact binary rationals) and ``Exact``. Rejects bool, None,
    NaN and infinities.
    """
    return Exact.of(value, name)


def integer(value, name: str, minimum: int | None = None, maximum: int | None = None) -> int:
    """``value`` as an ``int`` when it is an integer (a Python or NumPy integer, not a bool) in
    ``[minimum, maximum]`` (either end ``None``: open), else ``InvalidParameter`` naming ``name`` and the range.

    Every integer argument of the project is checked here, or by ``ldpspec.reference.validation``, which builds on
    it."""
    if (isinstance(value, bool) or not isinstance(value, Integral) or (minimum is not None and value < minimum)
            or (maximum is not None and value > maximum)):
        raise InvalidParameter(f"{name} must be {integer_range(minimum, maximum)}, got {value_text(value)}")
    return int(value)


def integer_range(minimum: int | None, maximum: int | None) -> str:
    """``"an integer >= 1"``, ``"an integer in [2, 10,000,000]"``: the integers from ``minimum`` to ``maximum``."""
    if minimum is None and maximum is None:
        return "an integer"
    if maximum is None:
        return f"an integer >= {minimum:,}"
    if minimum is None:
        return f"an integer <= {maximum:,}"
    return f"an integer in [{minimum:,}, {maximum:,}]"


def budget(value, name: str = "epsilon") -> Nats:
    """A privacy budget: a finite number of nats ``>= 0``.

    Accepts what ``exact`` accepts when it is rational, text ``"log(x)"`` for the log of an exact ``x >= 1`` (also
    ``"p*log(x)"`` and ``"log(x)/r"`` with whole ``p``, ``r``, as ``Nats.text`` writes budgets), and ``Nats``.
    """
    if isinstance(value, Nats):
        nats = value
    elif isinstance(value, str) and "log" in value:  # "log(3)", or as Nats.text writes it: "2*log(3)", "log(3)/2"
        nats = parse_number(value, name, Exact, log=Nats.log)
        if not isinstance(nats, Nats):
            raise InvalidParameter(f"{name} must be a budget: a number >= 0 or log(x) for x >= 1, got "
                                   f"{value_text(value)}")
    else:
        number = exact_number(value, name)
        rational = number.as_rational()
        if rational is None:
            raise InvalidParameter(f"{name} must be a rational number of nats or log(x), got {number.text()}; "
                                   f"write an irrational budget as log(x), for example log(3)")
        nats = Nats.rational(rational)
    if nats.is_infinite:
        raise InvalidParameter(f"{name} must be finite, got {value_text(value)}")
    if nats.base is not None and nats.as_rational() is None and (
            max(abs(nats.power), nats.root) > MAX_POWER or abs(nats.power) * nats.base.bits() > MAX_POWER_BITS):
        raise InvalidParameter(
            f"{name}: a budget written p*log(x)/r takes whole numbers p and r of at most {MAX_POWER:,}, with x^p of "
            f"at most {MAX_POWER_BITS:,} bits (budgets are compared and added exactly through x^p and x^r); got "
            f"{cut_text(nats.text())}; write it with a smaller p or r, or as a decimal")
    if nats.sign() < 0:
        raise InvalidParameter(f"{name} must be a finite real number >= 0, got {value_text(value)}")
    if nats is value or nats.as_rational() is not None:  # a Nats given stays the object it is
        return nats
    return nats.named(name)


def probability(value, name: str) -> Exact:
    """A probability: an exact number in [0, 1]."""
    number = exact_number(value, name)
    if number.sign() < 0 or (1 - number).sign() < 0:
        raise InvalidParameter(f"{name} must be a probability in [0, 1], got {value_text(number)}")
    return number


def to_decimal_string(value, digits: int = DISPLAY_DIGITS) -> str:
    """A number as a decimal string of ``digits`` significant digits (an approximation, for display), or ``"inf"``.

    Takes ``Exact``, ``Nats`` (in nats), rationals and mpmath numbers. A number beyond about ``10^±900,000`` is shown
    as ``exp(x)`` (``MAX_SHOWN_BINARY_EXPONENT``).
    """
    if isinstance(value, Nats):
        if value.is_infinite:
            return "inf"
        if value.sign() == 0:
            return "0"
        rational = value.as_rational()
        value = ctx.mpf(rational.numerator) / rational.denominator if rational is not None else value.approximation()
    elif isinstance(value, Exact):
        rational = value.as_rational()
        if rational is not None and rational == 0:
            return "0"
        value = ctx.mpf(rational.numerator) / rational.denominator if rational is not None else value.approximation()
    elif isinstance(value, (Fraction, int)) and not isinstance(value, bool):
        value = ctx.mpf(Fraction(value).numerator) / Fraction(value).denominator
    elif isinstance(value, Decimal):
        value = ctx.mpf(str(value))
    value = ctx.mpf(value)
    if ctx.isinf(value):
        return "inf" if value > 0 else "-inf"
    if value == 0:
        return "0"
    if abs(ctx.mag(value)) > MAX_SHOWN_BINARY_EXPONENT:  # e^(-1e1999): its decimal exponent alone has 2000 digits
        return ("-" if value < 0 else "") + f"exp({ctx.nstr(ctx.log(abs(value)), digits, strip_zeros=False)})"
    return ctx.nstr(value, digits, strip_zeros=False)


"""Numbers read from arguments and shown to users (``spec.numbers``) at their edges: every type ``to_decimal_string``
takes, at the digits asked for, with the infinities and the numbers too large to write as decimals; probabilities on
and just past ``[0, 1]``; integer ranges as their docstring writes them; and the budgets refused, each refusal naming
the parameter. Expected decimals are computed here by ``decimal`` or by mpmath directly, not through the kernel."""

from __future__ import annotations

import math
from decimal import Context, Decimal
from fractions import Fraction

import mpmath
import pytest

from ldpspec.spec.errors import InvalidParameter
from ldpspec.spec.exact import MAX_POWER, MAX_POWER_BITS, Exact
from ldpspec.spec.nats import Nats
from ldpspec.spec.numbers import MAX_SHOWN_BINARY_EXPONENT, budget, integer, integer_range, probability
from ldpspec.spec.numbers import to_decimal_string as shown


def decimal_digits(value: Decimal, digits: int) -> str:
    """``value`` rounded to ``digits`` significant digits by the decimal module, written without an exponent."""
    return format(Context(prec=digits).plus(value), "f")


def test_each_type_is_shown_to_the_digits_asked_for_with_its_trailing_zeros():
    """``Nats``, ``Exact``, Fractions, ints, Decimals and floats, each at a number of digits other than the default,
    zeros kept: the same digits as the decimal module's correctly rounded value."""
    assert shown(Nats.rational(Fraction(1, 4)), 5) == "0.25000"
    assert shown(Nats.log(3), 20) == decimal_digits(Decimal(3).ln(Context(prec=40)), 20)
    assert shown(Exact.rational(Fraction(1, 3)), 10) == "0.3333333333"
    assert shown(Exact.exp(1), 12) == decimal_digits(Decimal(1).exp(Context(prec=40)), 12)
    assert shown(Fraction(1, 3)) == "0." + "3" * 50  # 50 digits: read exactly, not through a float
    assert shown(Fraction(-1, 8), 6) == "-0.125000"
    assert shown(7, 6) == "7.00000" and shown(1, 3) == "1.00"
    assert shown(Decimal("0.1"), 30) == "0." + "1" + "0" * 29  # the decimal 0.1, not the double nearest it
    assert shown(0.5, 4) == "0.5000"


def test_zero_and_the_infinities_are_words():
    """Zero is ``0`` (an exact zero, a zero budget, a zero double); +-infinity (a budget, an mpmath infinity) is
    ``inf`` or ``-inf``."""
    assert shown(Exact.rational(0)) == shown(Nats.rational(0)) == shown(0.0) == shown(Fraction(0)) == "0"
    assert shown(Nats.infinity()) == "inf" and shown(Nats(Exact.rational(0))) == "-inf"
    assert shown(mpmath.inf) == "inf" and shown(-mpmath.inf) == "-inf"


def test_numbers_beyond_the_shown_exponent_are_written_as_exp_of_their_log():
    """Beyond ``2^3,000,000`` (``MAX_SHOWN_BINARY_EXPONENT``) in size, either way, a number is ``exp(x)``, ``x`` its
    natural log to the digits asked for, with its sign in front; ``e^(2,000,000)``, below the limit, is a decimal."""
    assert shown(Exact.exp(10**7), 5) == "exp(" + mpmath.nstr(mpmath.mpf(10**7), 5, strip_zeros=False) + ")"
    assert shown(Exact.exp(-(10**7)), 5) == "exp(" + mpmath.nstr(mpmath.mpf(-(10**7)), 5, strip_zeros=False) + ")"
    assert shown(-Exact.exp(10**7), 8) == "-exp(" + mpmath.nstr(mpmath.mpf(10**7), 8, strip_zeros=False) + ")"
    assert shown(Exact.exp(2_000_000), 5) == mpmath.nstr(mpmath.exp(2_000_000), 5, strip_zeros=False)


def test_probabilities_are_the_numbers_from_0_to_1_inclusive():
    """0, 1/2 and 1 are probabilities; 10^-60 below 0 or above 1, or 3/2, is refused, naming the parameter and the
    number it got."""
    tiny = Fraction(1, 10**60)
    for value in (0, Fraction(1, 2), 1, "1", tiny):
        assert probability(value, "p") == Exact.of(value)
    for value in (-tiny, 1 + tiny, Fraction(3, 2)):
        with pytest.raises(InvalidParameter, match=r"^p must be a probability in \[0, 1\], got "):
            probability(value, "p")
    with pytest.raises(InvalidParameter, match=r"^p must be a probability in \[0, 1\], got -0\.5$"):
        probability("-0.5", "p")
    with pytest.raises(InvalidParameter, match=r"^q must be a decimal number"):
        probability("junk", "q")


def test_integer_ranges_are_written_as_the_docstring_shows():
    """``integer_range`` writes the four kinds of range, with thousands separators."""
    assert integer_range(None, None) == "an integer"
    assert integer_range(1, None) == "an integer >= 1"
    assert integer_range(None, 5) == "an integer <= 5"
    assert integer_range(2, 10_000_000) == "an integer in [2, 10,000,000]"


def test_integers_above_the_maximum_are_refused():
    """``integer`` accepts the ends of its range and refuses one past the maximum, naming the parameter and the
    range."""
    assert integer(10, "n", 1, 10) == 10 and integer(1, "n", 1, 10) == 1 and integer(-(10**9), "n", None, 10)
    with pytest.raises(InvalidParameter, match=r"^n must be an integer in \[1, 10\], got 11$"):
        integer(11, "n", 1, 10)
    with pytest.raises(InvalidParameter, match=r"^n must be an integer <= 10, got 11$"):
        integer(11, "n", None, 10)


def test_refused_budgets_name_the_parameter_epsilon_by_default():
    """A negative budget, an irrational number, an infinite budget and malformed text are refused, the message naming
    the parameter (``epsilon`` unless told) and what it got."""
    with pytest.raises(InvalidParameter, match=r"^epsilon must be a finite real number >= 0, got -1$"):
        budget(-1)
    with pytest.raises(InvalidParameter, match=r"^delta must be a finite real number >= 0, got \"log\(1/2\)\"$"):
        budget("log(1/2)", "delta")
    with pytest.raises(
        InvalidParameter, match=r"^delta must be a rational number of nats or log\(x\), got exp\(0\.5\)"
    ):
        budget("exp(1/2)", "delta")
    with pytest.raises(InvalidParameter, match=r"^delta must be finite, got inf$"):
        budget(Nats.infinity(), "delta")
    with pytest.raises(InvalidParameter, match=r"^delta must be a decimal number"):
        budget("log(x)", "delta")


def test_budgets_written_with_logs_are_limited_in_their_power_root_and_bits():
    """``p*log(x)/r`` takes ``p`` and ``r`` up to ``MAX_POWER`` inclusive and ``p`` times the bits of ``x`` up to
    ``MAX_POWER_BITS`` inclusive; one more is refused with a message naming the parameter. A large rational budget
    is not limited."""
    assert budget(f"{MAX_POWER}*log(3)").power == MAX_POWER
    assert budget(f"log(3)/{MAX_POWER}").root == MAX_POWER
    for text in (f"{MAX_POWER + 1}*log(3)", f"log(3)/{MAX_POWER + 1}"):
        with pytest.raises(InvalidParameter, match=r"^eps: a budget written p\*log\(x\)/r takes whole numbers"):
            budget(text, "eps")
    power = 400
    base = 2 ** (MAX_POWER_BITS // power - 2) + 1  # bits: its own, plus one for its single term
    assert power * Exact.of(base).bits() == MAX_POWER_BITS
    assert budget(f"{power}*log({base})").power == power
    with pytest.raises(InvalidParameter, match="at most 1,000,000 bits"):
        budget(f"{power}*log({2 * base})")
    assert budget(10**7) == 10**7 and budget(Fraction(10**9, 7)) == Fraction(10**9, 7)


def test_a_budget_given_as_nats_is_that_object_and_one_read_from_text_is_named():
    """A ``Nats`` given is returned as it is; ``log(x)/r`` read from text carries the parameter's name into the
    message of a later refusal (``e^budget`` not exact)."""
    given = Nats.log(3) / 2
    assert budget(given) is given and budget(Nats.log(3)) == Nats.log(3)
    with pytest.raises(InvalidParameter, match=r"^--eps: e\^\(log\(3\)/2\)"):
        budget("log(3)/2", "--eps").exponential()


def test_the_shown_exponent_limit_is_inclusive():
    """A number of binary magnitude exactly ``MAX_SHOWN_BINARY_EXPONENT`` (``e^2079441.3``: ``2079441.3 / ln 2`` is
    between 2,999,999 and 3,000,000) is still a decimal; ``e^2079441.8`` is past it and written ``exp(...)``."""
    limit = MAX_SHOWN_BINARY_EXPONENT
    assert limit - 1 < 2079441.3 / math.log(2) < limit < 2079441.8 / math.log(2)
    inside = shown(Exact.exp(Fraction(20794413, 10)), 5)
    assert "exp" not in inside and inside.endswith("e+903089")  # 2079441.3 / ln 10 = 903089.88...
    assert shown(Exact.exp(Fraction(20794418, 10)), 5).startswith("exp(2.0794e+6")


def test_one_is_shown_as_one():
    """An exact 1 (and the integer 1) is ``1.00`` at three digits, not zero."""
    assert shown(Exact.rational(1), 3) == shown(1, 3) == "1.00"
    assert shown(Exact.rational(-1), 3) == "-1.00"

"""Budgets and log-ratios (``spec.nats``) at their edges: the infinities, quantities that are not rational numbers of
nats (``log(x)/r``), their text, sign and approximation, arithmetic with other types, and the integer roots that keep
``log(x)/r`` exact when ``x`` is a perfect ``r``-th power. Each expected value is computed here independently (by
Fractions, math.log, or a loop over candidate roots)."""

from __future__ import annotations

import math
from fractions import Fraction

import mpmath
import pytest

from ldpspec.spec.errors import InvalidParameter
from ldpspec.spec.exact import Exact
from ldpspec.spec.nats import Nats, _integer_root

MINUS_INFINITY = Nats(Exact.rational(0))  # the log of a probability 0
LOG3 = Nats.log(3)


def test_integer_roots_are_exactly_the_perfect_powers():
    """``_integer_root(v, k)`` is the ``r >= 0`` with ``r^k = v``, ``None`` when there is none (also for ``v < 0``):
    checked for every ``v < 3000`` and ``k`` from 2 to 6 against a search over every candidate ``r``."""
    for k in range(2, 7):
        powers = {r**k: r for r in range(0, 60)}
        for value in range(-3, 3000):
            assert _integer_root(value, k) == powers.get(value), (value, k)


@pytest.mark.parametrize("k", [2, 3, 5, 7])
def test_perfect_powers_of_60_bit_roots_have_their_root(k):
    """A perfect power of a 60-bit root has its root and one off it has none; so ``log(r^2)/2`` is ``log(r)``, whose
    exponential is ``r``. (Mutation testing found it: a first guess from a float's root, below the root, stopped
    Newton's iteration at once, and ``log(1279462714919786186800295875628984100)/2`` had no exponential.)"""
    root = 1131133376273455290
    assert _integer_root(root**k, k) == root
    assert _integer_root(root**k + 1, k) is None and _integer_root(root**k - 1, k) is None
    assert (Nats.log(root**2) / 2).exponential() == root


@pytest.mark.parametrize("k", [2, 3, 5, 7])
def test_perfect_powers_of_1110_bit_roots_have_their_root(k):
    """A perfect power of ``3^700`` has its root, one off it none."""
    root = 3**700
    assert _integer_root(root**k, k) == root
    assert _integer_root(root**k + 1, k) is None and _integer_root(root**k - 1, k) is None


def test_perfect_powers_reached_by_newtons_iteration_have_their_root():
    """Where the first guess is above the root, Newton's integer iteration walks down to it: ``(2^600 - 12345)^k``
    (first guess ``2^600``), ``(2^20 + 1)^8`` (a float's root), and a square of exactly 1000 bits whose root's float
    approximation is below the root (so the first guess must be the power of two above it)."""
    for k in (2, 3, 5, 7):
        root = 2**600 - 12345
        assert _integer_root(root**k, k) == root
        assert _integer_root(root**k + 1, k) is None and _integer_root(root**k - 1, k) is None
    assert _integer_root((2**20 + 1) ** 8, 8) == 2**20 + 1
    root = int(
        "3081391092438168142404399646563884183260279211778409469967335954023750372040013824020073583472612534273677"
        "323724478062976029059498308876384790704865283"
    )
    assert (root**2).bit_length() == 1000 and math.isqrt(root**2) == root
    assert int(round((root**2) ** 0.5)) < root - 1  # the float root is below: this case needs the other first guess
    assert _integer_root(root**2, 2) == root


def test_perfect_powers_whose_first_guess_is_above_the_root_have_their_root():
    """Where the first guess starts at or above the root (roots just above a power of two, beyond 1000 bits), a
    perfect power has its root and one off it has none."""
    for k in (2, 3, 5, 7):
        root = 2**400 + 1
        value = root**k
        assert value.bit_length() >= 800
        assert _integer_root(value, k) == root
        assert _integer_root(value + 1, k) is None and _integer_root(value - 1, k) is None


def test_a_perfect_power_under_a_root_is_held_as_its_root():
    """``log(8)/3`` is ``log(2)`` exactly: it has the same text and the exponential 2 (a perfect cube's root)."""
    third = Nats.log(8) / 3
    assert third.text() == "log(2)"
    assert third.exponential() == 2
    assert (Nats.log(Fraction(4, 9)) / 2).exponential() == Fraction(2, 3)


def test_named_keeps_the_quantity_and_gives_its_name_to_messages():
    """``named`` returns the same quantity (power and root too) under a name, which a refusal then names; a
    multiple of a named quantity keeps the name."""
    quantity = LOG3 * Fraction(2, 3)
    named = quantity.named("--epsilon")
    assert named.text() == quantity.text() == "2*log(3)/3" and named == quantity
    with pytest.raises(InvalidParameter, match=r"^--epsilon: e\^\(2\*log\(3\)/3\) = 3\^\(2/3\)"):
        named.exponential()
    with pytest.raises(InvalidParameter, match=r"^--epsilon: "):
        (LOG3.named("--epsilon") * Fraction(1, 2)).exponential()


def test_an_irrational_exponential_is_refused_with_what_would_make_it_exact():
    """``e^(log(x)/r)`` with ``x`` not a perfect ``r``-th power is refused, suggesting a perfect square for ``r = 2``
    and a perfect ``r``-th power otherwise; an unnamed quantity's message starts with the formula."""
    with pytest.raises(InvalidParameter, match=r"^e\^\(log\(3\)/2\) = 3\^\(1/2\) is not an exact number") as square:
        (LOG3 / 2).exponential()
    assert str(square.value).endswith("give the budget as a rational number, or as log(x) with x a perfect square")
    with pytest.raises(InvalidParameter, match=r"with x a perfect 3-th power$"):
        (LOG3 / 3).exponential()


def test_the_exponential_of_a_multiple_of_a_log_is_the_power():
    """``e^(2 log 3) = 9`` and ``e^(-log 3) = 1/3``; the exponential of +infinity is refused."""
    assert (LOG3 * 2).exponential() == 9
    assert (-LOG3).exponential() == Fraction(1, 3)
    with pytest.raises(InvalidParameter, match=r"^e\^inf is not a number$"):
        Nats.infinity().exponential()


def test_log_takes_positive_numbers_only_and_names_the_parameter():
    """``Nats.log(x)`` refuses ``x <= 0`` and text that is not a number, naming the parameter (``value`` unless
    named) and the number it got."""
    with pytest.raises(InvalidParameter, match=r"^value: log\(\) takes a positive number, got 0$"):
        Nats.log(0)
    with pytest.raises(InvalidParameter, match=r"^ratio: log\(\) takes a positive number, got -1/3$"):
        Nats.log(Fraction(-1, 3), "ratio")
    with pytest.raises(InvalidParameter, match=r"^ratio must be a decimal number"):
        Nats.log("junk", "ratio")


def test_minus_infinity_is_below_every_finite_quantity_and_equal_to_itself():
    """The log of a probability 0 is -infinity: below any finite quantity, equal to itself, below +infinity."""
    assert MINUS_INFINITY < Nats.rational(-(10**6))
    assert MINUS_INFINITY < -LOG3
    assert Nats.rational(1) > MINUS_INFINITY
    assert LOG3 / 2 > MINUS_INFINITY
    assert MINUS_INFINITY == Nats(Exact.rational(0))
    assert MINUS_INFINITY < Nats.infinity()
    assert Nats.infinity() == Nats.infinity() and Nats.infinity() > LOG3


@pytest.mark.parametrize("base", [Fraction(3), Fraction(3, 2), Fraction(1, 3), Fraction(2, 3)])
def test_multiples_of_one_log_are_ordered_by_their_factors_and_the_sign_of_the_log(base):
    """``a ln(b)`` against ``c ln(b)``: ordered as ``a`` against ``c`` when ``b > 1``, reversed when ``b < 1``."""
    log = Nats.log(base)
    half, third = log / 2, log / 3
    expected = 1 if base > 1 else -1
    assert half.compare(third) == expected and third.compare(half) == -expected
    assert half.compare(log * Fraction(1, 2)) == 0


def test_logs_of_bases_with_one_numerator_are_told_apart():
    """``ln(3/2)/2`` is above ``ln(3/5)/2`` (bases sharing a numerator are not the same base)."""
    assert Nats.log(Fraction(3, 2)) / 2 > Nats.log(Fraction(3, 5)) / 2
    assert Nats.log(Fraction(3, 5)) / 2 < Nats.log(Fraction(3, 2)) / 2


def test_a_log_under_a_root_is_compared_by_its_value():
    """``ln(3)/2 = 0.549...`` lies between 1/2 and 3/5, and ``ln(3)/3 = 0.366...`` between 1/3 and 2/5."""
    assert math.log(3) / 2 > 0.5 and math.log(3) / 3 < 0.4
    assert Fraction(1, 2) < LOG3 / 2 < Fraction(3, 5)
    assert Fraction(1, 3) < LOG3 / 3 < Fraction(2, 5)


def test_equality_with_an_unrelated_type_is_false_and_arithmetic_defers_to_it():
    """``==`` with something that is not a number is False, not an error; ``+``, ``-`` and ``*`` with it return
    NotImplemented, so the other operand's reflected method answers."""

    class Other:
        def __radd__(self, left):
            return "radd"

        def __rsub__(self, left):
            return "rsub"

    assert (Nats.rational(1) == "text") is False and Nats.rational(1) != "text"
    assert Nats.rational(1) + Other() == "radd" and LOG3 + Other() == "radd"
    assert Nats.rational(1) - Other() == "rsub"
    with pytest.raises(TypeError, match="cannot compare a quantity in nats with str"):
        Nats.rational(1).compare("text")


def test_a_budget_that_is_a_rational_number_hashes_as_that_number():
    """A rational number of nats hashes as its Fraction (so budgets are dictionary keys); ``log(3)`` is refused."""
    assert hash(Nats.rational(Fraction(1, 2))) == hash(Fraction(1, 2))
    assert {Nats.rational(2): "two"}[Nats.rational(Fraction(4, 2))] == "two"
    with pytest.raises(TypeError, match="^a budget that is not a rational number of nats is not hashable$"):
        hash(LOG3)


def test_sums_and_differences_with_infinity():
    """Anything plus +infinity is +infinity (either side); subtracting +infinity and negating an infinity are
    refused."""
    assert (Nats.infinity() + 1).is_infinite and (1 + Nats.infinity()).is_infinite
    assert (LOG3 + Nats.infinity()).is_infinite
    with pytest.raises(ValueError, match="^cannot subtract an infinite quantity$"):
        Nats.rational(1) - Nats.infinity()
    with pytest.raises(ValueError, match="^cannot negate an infinite quantity$"):
        -Nats.infinity()
    with pytest.raises(ValueError, match="^cannot negate an infinite quantity$"):
        _ = -MINUS_INFINITY


def test_a_number_minus_a_quantity_is_exact():
    """``2 - 1/2 = 3/2``; ``2 - ln 3`` plus ``ln 3`` is exactly 2; ``-(ln(3)/2)`` is ``-log(3)/2``."""
    assert 2 - Nats.rational(Fraction(1, 2)) == Fraction(3, 2)
    difference = 2 - LOG3
    assert difference.as_rational() is None and difference + LOG3 == 2
    assert (-(LOG3 / 2)).text() == "-log(3)/2"
    assert -Nats.rational(Fraction(1, 2)) == Fraction(-1, 2)


def test_multiples_of_infinity_and_of_zero():
    """+infinity times a positive number is +infinity; times 0 or a negative number it is refused; a quantity times
    0 is 0; a rational number of nats times 2 is twice it."""
    assert (Nats.infinity() * Fraction(1, 2)).is_infinite and (Nats.infinity() * 1).is_infinite
    for factor in (0, -1):
        with pytest.raises(ValueError, match="^infinity times a number that is not positive$"):
            Nats.infinity() * factor
    assert LOG3 * 0 == 0 and (LOG3 * 0).as_rational() == 0
    assert Nats.rational(3) * 2 == 6
    with pytest.raises(TypeError):
        Nats.rational(1) / 0


def test_the_sign_is_an_integer_from_the_value():
    """``sign()`` is the int -1, 0 or 1: of +-infinity, of rationals (also 0 and 1/2), and of ``log(x)`` with ``x``
    above or below 1 and a positive or negative factor."""
    cases = [
        (Nats.infinity(), 1),
        (MINUS_INFINITY, -1),
        (Nats.rational(0), 0),
        (Nats.rational(Fraction(1, 2)), 1),
        (Nats.rational(Fraction(-1, 2)), -1),
        (LOG3 / 2, 1),
        (Nats.log(Fraction(1, 3)) / 2, -1),
        (-(LOG3 / 2), -1),
        (-(Nats.log(Fraction(1, 3)) / 2), 1),
    ]
    for quantity, sign in cases:
        assert type(quantity.sign()) is int and quantity.sign() == sign, quantity


def test_approximations_are_the_values_in_nats():
    """``approximation()`` against mpmath at 60 digits: infinities, a rational, ``(2/3) ln 3``, ``-ln(3)/2``, the log
    of ``10^-500`` (far below the float range) and of ``1 + 10^-60`` (its digits kept, not lost to cancellation)."""
    mpmath.mp.dps = 70
    try:
        assert Nats.infinity().approximation() == mpmath.inf
        assert MINUS_INFINITY.approximation() == -mpmath.inf
        cases = [
            (Nats.rational(Fraction(1, 3)), mpmath.mpf(1) / 3),
            (LOG3 * Fraction(2, 3), 2 * mpmath.log(3) / 3),
            (-(LOG3 / 2), -mpmath.log(3) / 2),
            (Nats.log(Fraction(1, 10**500)) / 3, -500 * mpmath.log(10) / 3),
            (Nats.log(1 + Fraction(1, 10**60)) / 2, mpmath.log1p(mpmath.mpf(10) ** -60) / 2),
        ]
        for quantity, expected in cases:
            assert abs(quantity.approximation() / expected - 1) < mpmath.mpf(10) ** -50, quantity
    finally:
        mpmath.mp.dps = 15


def test_text_writes_each_form_as_the_budget_parser_reads_it():
    """``text()``: ``inf``, ``-inf``, a rational as a decimal or fraction, ``log(x)``, ``-log(x)``, ``p*log(x)``,
    ``log(x)/r``; each finite one reads back (``spec.numbers.budget``, for the ones >= 0) as the same quantity."""
    from ldpspec.spec.numbers import budget

    assert Nats.infinity().text() == "inf" and MINUS_INFINITY.text() == "-inf"
    cases = [
        (Nats.rational(Fraction(1, 4)), "0.25"),
        (LOG3, "log(3)"),
        (-LOG3, "-log(3)"),
        (LOG3 * 2, "2*log(3)"),
        (LOG3 * -2, "-2*log(3)"),
        (LOG3 / 2, "log(3)/2"),
        (LOG3 * Fraction(-2, 3), "-2*log(3)/3"),
    ]
    for quantity, text in cases:
        assert quantity.text() == text and str(quantity) == text and repr(quantity) == f"Nats({text!r})"
        if quantity.sign() >= 0:
            assert budget(text) == quantity


def test_a_quantity_built_from_e_to_the_q_is_the_rational_q_times_its_factor():
    """``Nats(e^q, p, r)`` is the rational ``q p / r`` nats: ``Nats(e, 2, 3) = 2/3``."""
    quantity = Nats(Exact.exp(1), 2, 3)
    assert quantity.as_rational() == Fraction(2, 3) and quantity == Fraction(2, 3)
    assert Nats(Exact.exp(Fraction(3, 2)), -4, 9).as_rational() == Fraction(-2, 3)


def test_a_refused_exponential_writes_a_base_of_400_bits_or_more_as_x():
    """The refusal of ``e^(log(b)/2)`` writes ``b`` out below 400 bits (``Exact.bits``) and as ``x`` from 400."""
    for base, bits in ((2**397 + 1, 399), (2**398 + 1, 400), (2**500 + 1, 502)):
        assert Exact.of(base).bits() == bits
        with pytest.raises(InvalidParameter) as refusal:
            (Nats.log(base) / 2).exponential()
        written = f" = {str(base)[:38]}" if bits < 400 else " = x^(1/2) is not an exact number"
        assert written in str(refusal.value), (bits, str(refusal.value))


def test_sums_of_logs_under_different_roots_are_exact():
    """``ln(3)/2 + ln(3)/3 = (5/6) ln 3``, ``ln(3)/2 + 1`` and ``ln(3)/2 + ln(2)/3 = ln(3^3 2^2)/6``, against
    math.log."""
    assert abs(float(LOG3 / 2 + LOG3 / 3) - 5 * math.log(3) / 6) < 1e-12
    assert abs(float(LOG3 / 3 + LOG3 / 2) - 5 * math.log(3) / 6) < 1e-12
    shifted = LOG3 / 2 + 1  # the log of 3 e^2, under the root 2: an irrational base
    assert abs(float(shifted) - (math.log(3) / 2 + 1)) < 1e-12 and shifted - 1 == LOG3 / 2
    mixed = LOG3 / 2 + Nats.log(2) / 3
    assert abs(float(mixed) - (math.log(3) / 2 + math.log(2) / 3)) < 1e-12
    assert mixed == Nats.log(108) / 6


def test_a_number_minus_something_else_is_refused_by_python():
    """``object() - quantity``: ``__rsub__`` returns NotImplemented, so Python's own TypeError names the operands."""
    with pytest.raises(TypeError, match=r"^unsupported operand type\(s\) for -: 'object' and 'Nats'$"):
        object() - Nats.rational(1)


def test_large_multiples_of_logs_are_compared_without_raising_the_bases_to_their_powers():
    """``20000 ln 3`` equals itself (two separate bases of value 3) and is below ``20001 ln 3``, and ``30000 ln 2``
    is below ``20000 ln 3``: decided without computing ``3^20000`` (past the limit of an exact power, which the exact
    fallback would need)."""
    assert Nats.log(3) * 20000 == Nats.log(Fraction(3)) * 20000
    assert Nats.log(3) * 20000 < Nats.log(3) * 20001
    assert 30000 * math.log(2) < 20000 * math.log(3)
    assert Nats.log(2) * 30000 < Nats.log(3) * 20000

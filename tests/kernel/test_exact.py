"""Exact numbers (``spec.exact``): arithmetic against Fractions, identities of ``e^q`` decided exactly, comparisons
against an independent high-precision evaluation, text that reads back, and the precision cap."""

from __future__ import annotations

from fractions import Fraction

import mpmath
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ldpspec import spec
from ldpspec.spec import exact as exact_module
from ldpspec.spec.exact import Exact, Undecided
from ldpspec.spec.nats import Nats
from tests.support import examples

fractions = st.fractions(min_value=-20, max_value=20, max_denominator=50)
exponents = st.integers(-12, 12).map(lambda k: Fraction(k, 4))


@st.composite
def exact_numbers(draw, depth: int = 2):
    """Random expressions of rationals and ``e^q`` with ``+ - * /``, and the same expression evaluated by mpmath at
    200 digits (independently of the kernel)."""
    if depth == 0 or draw(st.booleans()):
        if draw(st.booleans()):
            value = draw(fractions)
            with mpmath.workdps(200):
                return Exact.rational(value), mpmath.mpf(value.numerator) / value.denominator
        q = draw(exponents)
        with mpmath.workdps(200):
            return Exact.exp(q), mpmath.exp(mpmath.mpf(q.numerator) / q.denominator)
    (a, a_value), (b, b_value) = draw(exact_numbers(depth - 1)), draw(exact_numbers(depth - 1))
    operator = draw(st.sampled_from("+-*/"))
    with mpmath.workdps(200):
        if operator == "/" and not b:
            operator = "*"
        if operator == "+":
            return a + b, a_value + b_value
        if operator == "-":
            return a - b, a_value - b_value
        if operator == "*":
            return a * b, a_value * b_value
        return a / b, a_value / b_value


@settings(max_examples=examples(300))
@given(fractions, fractions)
def test_rational_arithmetic_is_fraction_arithmetic(a, b):
    x, y = Exact.rational(a), Exact.rational(b)
    assert (x + y).as_rational() == a + b and (x - y).as_rational() == a - b and (x * y).as_rational() == a * b
    if b:
        assert (x / y).as_rational() == a / b
    assert x.compare(y) == (a > b) - (a < b) and (x == y) == (a == b)


@settings(max_examples=examples(200), deadline=None)
@given(exact_numbers(), exact_numbers(), exact_numbers())
def test_field_identities_hold_exactly(first, second, third):
    x, y, z = first[0], second[0], third[0]
    assert (x + y) - y == x
    assert x * (y + z) == x * y + x * z
    if y:
        assert (x * y) / y == x and (x / y) * y == x
    assert x - x == 0 and not (x - x)


@settings(max_examples=examples(300), deadline=None)
@given(exact_numbers(), exact_numbers())
def test_comparisons_agree_with_an_independent_evaluation(first, second):
    (x, x_value), (y, y_value) = first, second
    with mpmath.workdps(200):
        difference = x_value - y_value
        scale = max(abs(x_value), abs(y_value), 1)
    if abs(difference) > scale * mpmath.mpf("1e-150"):
        assert x.compare(y) == (1 if difference > 0 else -1)
        assert x != y
    else:  # equal at 200 digits: the kernel must find them equal exactly (expressions of e^q with q in 1/4 Z)
        assert x == y and x.compare(y) == 0


@settings(max_examples=examples(200), deadline=None)
@given(exact_numbers())
def test_text_reads_back_to_the_same_number(number):
    x = number[0]
    assert Exact.of(x.text()) == x
    assert Exact.of(x.text()).text() == x.text()  # the form is canonical
    low, high = x.bounds()  # rigorous, and about 77 digits tight
    with mpmath.workdps(200):
        value, slack = number[1], abs(number[1]) * mpmath.mpf("1e-190") + mpmath.mpf("1e-190")  # mpmath's rounding
        low, high = mpmath.mpf(low.numerator) / low.denominator, mpmath.mpf(high.numerator) / high.denominator
        assert low - slack <= value <= high + slack
        assert high - low <= (abs(value) + 1) * mpmath.mpf("1e-70")


def test_identities_of_e():
    e = Exact.exp(1)
    assert e * e == Exact.exp(2) and Exact.exp("1/2") ** 2 == e
    assert (e * e - 1) / (e - 1) == e + 1 and ((e * e - 1) / (e - 1)).text() == "exp(1) + 1"
    assert e != Fraction(27182818284590452353602874713527, 10**31)  # transcendental: never a rational
    assert e.compare(Fraction(27182818284590452353602874713527, 10**31)) == -1  # e = 2.71828...7135266...
    assert e.compare(Fraction(27182818284590452353602874713526, 10**31)) == 1
    p = e / (e + 2)
    assert p + 2 / (e + 2) == 1 and (p + 2 / (e + 2)).as_rational() == 1


def test_sums_over_powers_of_a_few_factors_keep_a_small_common_denominator():
    """Moments of an estimator sum many fractions over powers of (e + 1) and (e - 1). A denominator that is a
    multiple of the other is a common denominator; multiplying every denominator instead gives the sum of these 30
    a denominator of 91 terms. (The least common denominator, (e+1)^4 (e-1)^2, has 7.)"""
    e = Exact.exp(1)
    total = sum((1 / ((e + 1) ** (k % 5) * (e - 1) ** (k % 3)) for k in range(30)), Exact.rational(0))
    assert len(total.den) <= 9
    # k mod 15 fixes (k mod 5, k mod 3): each of the 15 pairs appears twice
    assert total == 2 * sum(1 / (e + 1) ** k for k in range(5)) * sum(1 / (e - 1) ** j for j in range(3))
    assert abs(float(total) - 2 * sum(3.718281828459045 ** -k for k in range(5))
               * sum(1.718281828459045 ** -j for j in range(3))) < 1e-12


def test_large_exponents_do_not_overflow():
    huge = Exact.exp(10**19)
    assert huge > 10**100 and 1 / huge > 0 and (huge / (huge + 1)) < 1
    assert spec.ldp(spec.Channel([0, 1], [0, 1], [[huge / (1 + huge), 1 / (1 + huge)],
                                                  [1 / (1 + huge), huge / (1 + huge)]]), 10**19).margin == 0


def test_nats_are_exact():
    assert Nats.log(4) == 2 * Nats.log(2) and Nats.log(2) + Nats.log(3) == Nats.log(6)
    assert Nats.log(9) / 2 == Nats.log(3) and (Nats.log(9) / 2).text() == "log(3)"
    assert Nats.rational(1) == Nats.log(Exact.exp(1)) and Nats.rational(1) > Nats.log("2.718281828459045")
    assert Nats.log(3) < Nats.rational("1.0986122886681098") and Nats.log(3) > Nats.rational("1.0986122886681096")
    assert (Nats.log(2) / 2 + Nats.log(8) / 2) == Nats.log(4)  # avg of ln 2 and ln 8
    assert Nats.infinity() > Nats.rational(10**100) and Nats(Exact.rational(0)) < Nats.rational(-(10**100))


def test_a_comparison_closer_than_the_precision_cap_is_undecided(monkeypatch):
    monkeypatch.setattr(exact_module, "MAX_BITS", 512)
    with mpmath.workdps(400):
        near_e = Fraction(mpmath.nstr(mpmath.e, 300, strip_zeros=False))  # within 1e-299 of e
    with pytest.raises(Undecided, match="512 bits"):
        Exact.exp(1).compare(near_e)
    ratio = Exact.rational(near_e)
    keep, flip = ratio / (1 + ratio), 1 / (1 + ratio)
    channel = spec.Channel([0, 1], [0, 1], [[keep, flip], [flip, keep]])
    verdict = spec.ldp(channel, 1)
    assert verdict.holds is None and "undecided at this precision" in verdict.undecided
    with pytest.raises(Undecided):
        bool(verdict)
    assert verdict.to_json()["holds"] is None


def test_a_denominator_that_nearly_cancels_is_enclosed_tightly():
    """A fuzzed channel file once divided by e - 2.71828... (300 digits): at the first precision the denominator's
    interval contained 0 and the division raised inside mpmath (exit 3). The enclosure now raises its precision
    until numerator and denominator are each known to 2^-200 of their size."""
    with mpmath.workdps(400):
        near_e = Fraction(mpmath.nstr(mpmath.e, 300, strip_zeros=False))  # within 1e-299 of e
    gap = Exact.exp(1) - near_e
    inverse = 1 / gap
    assert abs(inverse) > 10**290
    low, high = inverse.bounds()
    assert low <= high and (high - low) < min(abs(low), abs(high)) / 2**200
    assert (inverse * gap).approximation() == 1 and float(gap * 10**300) == float(gap.approximation() * 10**300)


def test_a_logarithm_near_zero_keeps_its_digits():
    """A margin of e^-200 nats (a ratio of 1 + e^-200) is shown to 60 digits, not as the rounding error of ln."""
    tiny = Nats(1 + Exact.exp(-200)).approximation()
    assert mpmath.almosteq(tiny, mpmath.log1p(mpmath.exp(mpmath.mpf(-200))), rel_eps=mpmath.mpf(10) ** -55)
    assert mpmath.almosteq(Nats(Exact.exp(10**300)).approximation(), mpmath.mpf(10) ** 300, rel_eps=1e-15)


def test_the_default_cap_decides_a_difference_of_1e_minus_15000():
    with mpmath.workdps(15100):
        mantissa, exponent = (+mpmath.e).man_exp  # e rounded to about 50,000 bits: within 1e-15000 of e
    near_e = Fraction(mantissa, 2 ** -exponent)
    with mpmath.workdps(16000):
        below = mpmath.mpf(mantissa) * mpmath.mpf(2) ** exponent < mpmath.e
    assert Exact.exp(1).compare(near_e) == (1 if below else -1)


@pytest.mark.parametrize("text, message", [
    ("nan", "NaN"), ("inf", "finite"), ("1e999999", "decimal exponent within"), ("1" * 3000, "at most 2000"),
    ("exp(x)", "unknown function"), ("exp(exp(1))", "rational"), ("1/0", "division by zero"), ("1 +", "expected a"),
    ("log(2)", "unknown function 'log'"),
])
def test_text_that_is_not_a_number_is_refused_by_name(text, message):
    with pytest.raises(spec.InvalidParameter, match=message):
        Exact.of(text, "entry")


@pytest.mark.parametrize("value, expected", [
    (0.1, Fraction(1, 10)), ("0.1", Fraction(1, 10)), (Fraction(1, 3), Fraction(1, 3)), ("1/3", Fraction(1, 3)),
    (mpmath.mpf(0.5), Fraction(1, 2)), (10**30, Fraction(10**30)),
])
def test_inputs_are_read_exactly(value, expected):
    assert Exact.of(value).as_rational() == expected


def test_numpy_scalars_are_numbers():
    np = pytest.importorskip("numpy")
    assert Exact.of(np.float64(0.25)).as_rational() == Fraction(1, 4)
    assert Exact.of(np.int64(3)).as_rational() == 3
    assert spec.ldp(spec.Channel([0, 1], [0], [[np.float64(1)], [1]]), np.float64(0.5)).holds


def test_a_comparison_with_zero_is_decided_by_the_sign_alone(monkeypatch):
    """exp(-1e1999) is positive by its form; building its enclosure would take tens of seconds (a channel file may
    hold such a breakpoint), so a comparison with zero must not ask for one."""
    tiny = Exact.of("exp(-1e1999)")
    negative = -tiny

    def no_enclosure(self):
        raise AssertionError("a comparison with zero built an enclosure")

    monkeypatch.setattr(Exact, "enclosure", no_enclosure)
    assert tiny.compare(0) == 1 and negative.compare(0) == -1
    assert Exact.rational(0).compare(tiny) == -1 and Exact.rational(0) < tiny and negative < 0


@pytest.mark.parametrize("text", ["log(3)", "2*log(2)", "log(3)/2", "2*log(3)/3", "-log(3)", "log(exp(1) + 1)"])
def test_every_text_of_a_quantity_in_nats_reads_back(text):
    """``Nats.text`` writes a multiple of a logarithm as ``p*log(x)/r``; budgets written so (a channel file's privacy
    section, say) read back to the same quantity."""
    from ldpspec.spec.parse import parse_number

    nats = parse_number(text, "number", Exact, log=Nats.log)
    assert parse_number(nats.text(), "number", Exact, log=Nats.log) == nats


@pytest.mark.parametrize("text", ["log(3)*2", "1.5*log(2)", "log(3)/0", "2*log(3)+1", "0*log(2)", "log(3"])
def test_other_forms_with_a_logarithm_are_refused(text):
    from ldpspec.spec.parse import parse_number

    with pytest.raises(spec.InvalidParameter):
        parse_number(text, "number", Exact, log=Nats.log)

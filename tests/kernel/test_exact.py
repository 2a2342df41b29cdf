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
    ("log(2)", 'unknown function "log"'),
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


def test_mpmath_numbers_are_read_exactly_zero_included():
    """An mpmath number is the binary fraction it holds: 0, 1, ``5 * 2^10``, ``3 * 2^-60`` and the double nearest
    -0.1, each against the Fraction of its mantissa and exponent; infinities and NaN are refused."""
    assert Exact.of(mpmath.mpf(0)) == 0 and Exact.of(mpmath.mpf(1)) == 1
    assert Exact.of(mpmath.mpf(5) * 2**10) == 5120
    assert Exact.of(mpmath.mpf(3) / 2**60) == Fraction(3, 2**60)
    assert Exact.of(-mpmath.mpf("0.1")) == -Fraction(0.1)
    for value in (mpmath.inf, -mpmath.inf, mpmath.nan):
        with pytest.raises(spec.InvalidParameter, match="^x must be a finite real number"):
            Exact.of(value, "x")


def test_bounds_enclose_the_value_and_are_the_value_when_it_is_rational():
    """``bounds()``: rationals around ``e`` within ``2^-200`` of it relatively (mpmath at 300 bits checks them);
    a rational number's bounds are itself."""
    low, high = Exact.exp(1).bounds()
    with mpmath.workprec(300):
        e = mpmath.e
        assert mpmath.mpf(low.numerator) / low.denominator <= e <= mpmath.mpf(high.numerator) / high.denominator
    assert 0 < high - low < Fraction(3, 2**200)
    assert Exact.rational(Fraction(1, 3)).bounds() == (Fraction(1, 3), Fraction(1, 3))


def test_ordering_by_le_is_the_exact_comparison():
    """``<=`` holds for a smaller or equal number and fails for a larger one (also for budgets)."""
    assert Exact.of(1) <= 1 and Exact.exp(1) <= Exact.exp(1) and Exact.of(2) <= Exact.exp(1)
    assert not (Exact.of(3) <= Exact.exp(1)) and not (Exact.exp(1) <= Fraction(27, 10))
    assert Nats.rational(1) <= Nats.log(3) and not (Nats.log(3) <= Nats.rational(1))


def test_coprime_builds_the_fraction_and_shares_equal_coefficients():
    """``Exact.coprime(a, b)`` is ``a / b`` (0, a whole number, a fraction); with a ``shared`` dictionary, equal
    numerators (and denominators) are one polynomial object."""
    assert Exact.coprime(0, 1) == 0 and Exact.coprime(5, 1) == 5 and Exact.coprime(3, 4) == Fraction(3, 4)
    assert Exact.coprime(1, 2) == Fraction(1, 2) and Exact.coprime(-7, 2) == Fraction(-7, 2)
    assert Exact.coprime(5, 1).as_rational() == 5 and Exact.coprime(3, 4).text() == "0.75"
    shared: dict = {}
    a, b, c = Exact.coprime(3, 4, shared), Exact.coprime(3, 5, shared), Exact.coprime(7, 4, shared)
    assert (a, b, c) == (Fraction(3, 4), Fraction(3, 5), Fraction(7, 4))
    assert a.num is b.num and a.den is c.den
    assert Exact.coprime(0, 1, shared) == 0 and Exact.coprime(5, 1, shared) == 5


def test_float_is_the_nearest_double_and_infinite_beyond_them():
    """``float()``: correctly rounded even ``2^-250`` past the midpoint between two doubles, and +-inf for
    rationals beyond the doubles."""
    assert float(Exact.rational(1 + Fraction(1, 2**53) + Fraction(1, 2**250))) == 1 + 2**-52
    assert float(Exact.rational(1 + Fraction(1, 2**53) - Fraction(1, 2**250))) == 1.0
    assert float(Exact.rational(10**400)) == float("inf") and float(Exact.rational(-(10**400))) == float("-inf")


def test_absolute_value_hash_and_subtraction_from_other_types():
    """``abs`` of a negative number is its negation, of a positive one itself; a rational hashes as its Fraction, an
    irrational number is not hashable; ``object() - x`` is Python's TypeError naming the operands."""
    assert abs(Exact.rational(Fraction(-1, 2))) == Fraction(1, 2) and abs(Exact.rational(Fraction(1, 2))) == Fraction(
        1, 2
    )
    assert abs(1 - Exact.exp(1)) == Exact.exp(1) - 1
    assert hash(Exact.rational(Fraction(1, 2))) == hash(Fraction(1, 2))
    with pytest.raises(TypeError, match="^an exact number that is not rational is not hashable$"):
        hash(Exact.exp(1))
    with pytest.raises(TypeError, match=r"^unsupported operand type\(s\) for -: 'object' and 'Exact'$"):
        object() - Exact.of(1)


def test_long_texts_are_cut_and_counts_are_written_for_messages():
    """``cut_text``: whole up to 80 characters, else its first 60 and last 10 characters and its length;
    ``count_text``: thousands separators below ``10^30``, a power of two (exactly, or "more than") from there."""
    text = "".join(str(i % 10) for i in range(81))
    assert exact_module.cut_text(text[:80]) == text[:80]
    assert exact_module.cut_text(text) == f"{text[:60]}...{text[-10:]} (81 characters)"
    assert exact_module.cut_text("x" * 12345).endswith("...xxxxxxxxxx (12,345 characters)")
    assert exact_module.count_text(10**30 - 1) == ",".join(["999"] * 10)
    assert exact_module.count_text(10**30) == "more than 2^99"  # 2^99 < 10^30 < 2^100
    assert exact_module.count_text(2**100) == "2^100" and exact_module.count_text(2**100 + 1) == "more than 2^100"
    assert exact_module.count_text(2**10_000_000) == "2^10,000,000"


def test_text_of_multiples_of_powers_of_e():
    """``e``, ``-e``, ``2e``, ``-2e`` and sums and differences as ``text()`` writes them (and reads them back)."""
    cases = [
        (Exact.exp(1), "exp(1)"),
        (-Exact.exp(1), "-exp(1)"),
        (2 * Exact.exp(1), "2*exp(1)"),
        (-2 * Exact.exp(1), "-2*exp(1)"),
        (Exact.exp(1) + 1, "exp(1) + 1"),
        (1 - Exact.exp(1), "-exp(1) + 1"),
        (Exact.exp(1) - 1, "exp(1) - 1"),
        (Exact.exp(2) - 2 * Exact.exp(1) + 1, "exp(2) - 2*exp(1) + 1"),
    ]
    for number, text in cases:
        assert number.text() == text and Exact.of(text) == number


def test_powers_are_refused_past_their_limits_with_the_limit_named():
    """``x ** p``: ``p`` up to ``MAX_POWER`` and ``p`` times ``x.bits()`` up to ``MAX_POWER_BITS``, both inclusive;
    past either, the refusal names which limit and by how much. A negative power is the reciprocal; a power that is
    not an int (a float, a bool) is Python's TypeError."""
    from ldpspec.spec.exact import MAX_POWER, MAX_POWER_BITS

    assert Exact.rational(2) ** -3 == Fraction(1, 8) and Exact.exp(1) ** -2 == Exact.exp(-2)
    assert (Exact.exp(Fraction(1, MAX_POWER)) ** MAX_POWER) == Exact.exp(1)
    with pytest.raises(spec.InvalidParameter, match=r"^an exact power too large to compute: exponent 10,001, more than "
                       r"the limit of 10,000 \(spec\.exact\.MAX_POWER\)\. Budgets written p\*log\(x\)/r are compared"):
        Exact.of(3) ** (MAX_POWER + 1)
    base = Exact.of(2**2498 + 1)  # 2499 bits, and one for its single term
    assert base.bits() * 400 == MAX_POWER_BITS
    assert base**400 == (2**2498 + 1) ** 400
    with pytest.raises(spec.InvalidParameter, match=r"^an exact power too large to compute: about 1,002,500 bits, more "
                       r"than the limit of 1,000,000 \(spec\.exact\.MAX_POWER_BITS\)\. Budgets written .* or as "
                       r"decimals$"):
        base**401
    with pytest.raises(spec.InvalidParameter, match=r"^an exact power too large to compute: about 2,020,000 bits"):
        Exact.of(2**200) ** MAX_POWER  # at the exponent's limit, over the bits' limit: the bits are named
    with pytest.raises(spec.InvalidParameter) as refusal:
        Exact.of(3) ** (MAX_POWER + 1)
    assert str(refusal.value).endswith(
        ". Budgets written p*log(x)/r are compared and added through x^p and x^r (budgets with different r through "
        "the least common multiple of the r): write them with smaller whole numbers p and r, and few different r, or "
        "as decimals"
    )
    for exponent in (0.5, True):
        with pytest.raises(TypeError, match=r"^unsupported operand type\(s\) for \*\* or pow\(\): 'Exact' and "):
            Exact.of(2) ** exponent
    with pytest.raises(TypeError, match=r"^unsupported operand type\(s\) for /: 'object' and 'Exact'$"):
        object() / Exact.of(2)


def test_fractions_of_sums_are_written_with_the_parentheses_they_need():
    """A numerator or denominator of several terms is parenthesized, a single term or a whole number is not."""
    e = Exact.exp(1)
    assert (e / (e + 1)).text() == "exp(1)/(exp(1) + 1)"
    assert (1 / (2 * e + 1)).text() == "1/(2*exp(1) + 1)"
    assert ((e + 1) / (2 * e)).text() == "(1 + exp(-1))/2"
    for number in (e / (e + 1), 1 / (2 * e + 1), (e + 1) / (2 * e)):
        assert Exact.of(number.text()) == number


def test_whole_numbers_of_thousands_of_digits_are_written_out():
    """``10^5000 + 12345`` (16,610 bits, past the 4300 digits Python writes at once) is written digit for digit."""
    assert Exact.rational(10**5000 + 12345).text() == "1" + "0" * 4995 + "12345"
    assert Exact.rational(Fraction(1, 3 * 10**5000 + 1)).text() == "1/3" + "0" * 4999 + "1"

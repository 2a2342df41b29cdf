"""Numbers and budgets read from text by the general parser (``spec.parse``) at their edges: the budget forms
``[-][p*]log(x)[/r]`` with their whole numbers, the messages that say what is wrong (naming the parameter), the
deepest nesting allowed and one level more, and the size of a decimal on both sides of its limit. Expected values
are written from the grammar in ``parse_number``'s docstring and computed with Fractions and math.log."""

from __future__ import annotations

import json
import math
import re
from fractions import Fraction

import pytest

from ldpspec.spec.errors import InvalidParameter
from ldpspec.spec.exact import Exact
from ldpspec.spec.nats import Nats
from ldpspec.spec.parse import MAX_DECIMAL_EXPONENT, MAX_NESTING, MAX_TEXT, parse_number

PREFIX = r"^gamma must be a decimal number, a fraction a/b or an expression of them with exp\(\); "


def read(text: str):
    return parse_number(text, "gamma", Exact, log=Nats.log)


def test_a_budget_is_the_log_times_its_sign_and_power_over_its_root():
    """``[-][p*]log(x)[/r]`` is ``(+-p / r) ln x``: ``log(3)/2`` lies between 1/2 and 3/5 (ln 3 = 1.0986...),
    ``-2*log(3)`` is minus twice ``log(3)``, and ``1*`` and ``/1`` change nothing."""
    assert 0.5 < math.log(3) / 2 < 0.6
    assert Fraction(1, 2) < read("log(3)/2") < Fraction(3, 5)
    assert read("-2*log(3)") == -(Nats.log(3) * 2) and read("-2*log(3)").sign() == -1
    assert read("3*log(2)/2").text() == "3*log(2)/2"
    assert read("1*log(3)") == read("log(3)/1") == read("log(3)") == Nats.log(3)


def test_the_whole_numbers_of_a_budget_are_at_least_1():
    """``p`` and ``r`` are whole numbers >= 1: 0 is refused with the form a budget is written in."""
    for text in ("0*log(3)", "log(3)/0"):
        with pytest.raises(
            InvalidParameter,
            match=PREFIX + r"a budget in nats is written \[-\]\[p\*\]log\(x\)\[/r\] "
            r"with whole numbers p, r >= 1 in ",
        ):
            read(text)


def test_text_with_log_in_another_form_is_refused_with_the_form_and_what_is_wrong():
    """A budget not of the form, a missing parenthesis, text after the end, and ``log()`` of 0 are refused, each
    message naming the parameter and saying what is wrong."""
    with pytest.raises(InvalidParameter, match=PREFIX + r"a budget in nats is written \[-\]\[p\*\]log\(x\)\[/r\] in "):
        read("2*3*log(3)")
    with pytest.raises(InvalidParameter, match=PREFIX + r'expected "\(" in "log 3"$'):
        read("log 3")
    with pytest.raises(InvalidParameter, match=PREFIX + r'unexpected "x" in "log\(3\)x"$'):
        read("log(3)x")
    with pytest.raises(InvalidParameter, match=r"^gamma: log\(\) takes a positive number, got 0$"):
        read("log(0)")


def test_division_by_zero_is_refused_by_name():
    """``1/(1-1)`` is refused as a division by zero."""
    with pytest.raises(InvalidParameter, match=PREFIX + r'division by zero in "1/\(1-1\)"$'):
        parse_number("1/(1-1)", "gamma", Exact)


def test_nesting_is_allowed_to_its_limit_and_refused_one_level_past_it():
    """Each parenthesis, ``exp(`` and sign is a level, and so is the number inside: ``MAX_NESTING - 1``
    parentheses around a number are read (also twice in a row: the depth goes back down), one more is refused."""
    deepest = "(" * (MAX_NESTING - 1) + "2" + ")" * (MAX_NESTING - 1)
    assert parse_number(deepest, "gamma", Exact) == 2
    assert parse_number(f"{deepest}+{deepest}", "gamma", Exact) == 4
    assert parse_number("-" * (MAX_NESTING - 1) + "2", "gamma", Exact) == 2 * (-1) ** (MAX_NESTING - 1)
    for text in ("(" * MAX_NESTING + "2" + ")" * MAX_NESTING, "-" * MAX_NESTING + "2"):
        with pytest.raises(InvalidParameter, match=PREFIX + rf"nested more than {MAX_NESTING} deep \(parentheses, "):
            parse_number(text, "gamma", Exact)


def test_a_decimal_is_read_up_to_its_size_limits():
    """A decimal's exponent (of its leading digit) may reach ``MAX_DECIMAL_EXPONENT`` either way and no further;
    it may have ``MAX_TEXT`` digits, as many as a text has characters. Texts the general parser reads (inside
    an expression, or too long for the short forms)."""
    # 12e(-M+1) = 1.2e(-M+2): its digits (2) plus exponent (-M+1) are -M+3, inside the limit
    assert parse_number(f"(12e{-MAX_DECIMAL_EXPONENT + 1})", "gamma", Exact) == Fraction(
        12, 10 ** (MAX_DECIMAL_EXPONENT - 1)
    )
    assert parse_number(f"(1e{MAX_DECIMAL_EXPONENT - 1})", "gamma", Exact) == 10 ** (MAX_DECIMAL_EXPONENT - 1)
    with pytest.raises(InvalidParameter, match=rf"^gamma must have at most {MAX_TEXT} digits and a decimal exponent"):
        parse_number(f"(1e{MAX_DECIMAL_EXPONENT})", "gamma", Exact)
    digits = "1" * MAX_TEXT  # as many digits as a text may have characters
    assert parse_number(digits, "gamma", Exact) == int(digits)


def test_not_a_number_and_the_infinities_are_refused_in_every_spelling():
    """NaN (any case, either sign) is refused as not a real number, and ``inf``/``infinity`` (any case, either sign,
    surrounded by spaces) as not finite; text that is not a string is refused with its type."""
    for text in ("nan", "+nan", "-NaN", "+NAN"):
        with pytest.raises(InvalidParameter, match=r"^gamma must be a real number, got NaN$"):
            parse_number(text, "gamma", Exact)
    for text in ("inf", "-inf", "+Infinity", "  -infinity "):
        with pytest.raises(InvalidParameter, match=r"^gamma must be finite, got " + re.escape(json.dumps(text)) + "$"):
            parse_number(text, "gamma", Exact)
    with pytest.raises(InvalidParameter, match=r"^gamma must be a number written as text, got int$"):
        parse_number(3, "gamma", Exact)


def test_trailing_spaces_are_allowed_and_anything_else_unreadable_is_shown_where_it_starts():
    """Spaces after an expression are ignored; a character no token starts with is refused, the message quoting the
    text and the 10 characters from where reading stopped."""
    assert parse_number("(1)+2   ", "gamma", Exact) == 3
    with pytest.raises(InvalidParameter, match=PREFIX + r'cannot read "1\+2 @abcdefghijklm" at " @abcdefgh"$'):
        parse_number("1+2 @abcdefghijklm", "gamma", Exact)


def test_nesting_is_counted_afresh_after_each_factor():
    """After a factor the depth is back where it was: ``1+`` followed by one level too many is still refused."""
    with pytest.raises(InvalidParameter, match=rf"nested more than {MAX_NESTING} deep"):
        parse_number("1+" + "(" * MAX_NESTING + "2" + ")" * MAX_NESTING, "gamma", Exact)


def test_exp_takes_a_rational_number_up_to_10_to_the_2000():
    """``exp(q)``: ``q`` must be rational, and at most ``10^MAX_DECIMAL_EXPONENT`` in size (inclusive); ten times more
    is refused; a text that ends where a number is expected, or has a symbol there, says so."""
    with pytest.raises(InvalidParameter, match=PREFIX + r'exp\(\) takes a rational number in "exp\(exp\(1\)\)"$'):
        parse_number("exp(exp(1))", "gamma", Exact)
    assert parse_number("exp(1e1999*10)", "gamma", Exact) == Exact.exp(10**MAX_DECIMAL_EXPONENT)
    with pytest.raises(InvalidParameter, match=PREFIX + r"exp\(\) of a number this large in "):
        parse_number("exp(1e1999*100)", "gamma", Exact)
    with pytest.raises(InvalidParameter, match=PREFIX + r'expected a number in "1\+"$'):
        parse_number("1+", "gamma", Exact)
    with pytest.raises(InvalidParameter, match=PREFIX + r'unexpected "\)" in "1\+\)"$'):
        parse_number("1+)", "gamma", Exact)

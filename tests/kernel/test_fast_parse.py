"""The fast path of the number reader (``spec.parse.simple_rational``, and the channel's ``_simple_entry`` built on
it) reads every short decimal and fraction as the general parser does, and leaves every other text to the general
parser, whose refusals and messages stay as they were.

The oracle is the general parser itself, reached with the fast path switched off."""

from __future__ import annotations

import re
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ldpspec.spec import channel as channel_module
from ldpspec.spec import parse as parse_module
from ldpspec.spec.channel import Channel, _simple_entry
from ldpspec.spec.errors import InvalidChannel, InvalidParameter
from ldpspec.spec.exact import Exact

TRICKY = ["0", "0.0", "00", "007", "0.125", "007.50", "1.", ".5", "+.5", "-.5", "-0", "+0", "-0.0", "1e-5", "1E-5",
          "1e+5", "1.e5", ".5e1", "5e0", "0e9", "1e999", "1e-999", "12345678901234567890.123456789e-30", "3/17",
          "-3/17", "+3/17", "0/7", "6/4", "007/014", "1/1", "10/10", "1000000007/1000000009", "2/1",
          # texts the fast path leaves to the general parser
          " 0.5", "0.5 ", "\t1/2\n", "1 /2", "3/0", "0/0", "1.5/2", "1/2/3", "1/-2", "-1/-2", "1e1000", "1e-1000",
          "1e5000", "١", "²", "0x10", "1_000", "", " ", "+", "-", ".", "e5", "1e", "1e+", "nan", "inf", "-inf",
          "Infinity", "1/2e3", "2e3/4", "(1/2)", "exp(0)", "1.2.3", "--1", "+-1", "0.1" * 20,
          "1" * 41, "0." + "0" * 38 + "1", "1/" + "3" * 45]


def general(text: str):
    """What the general parser makes of ``text``: its value, or the message it refuses it with."""
    original = parse_module.simple_rational
    parse_module.simple_rational = lambda text: None
    try:
        return ("value", parse_module.parse_number(text, "n", Exact))
    except InvalidParameter as error:
        return ("refused", str(error))
    finally:
        parse_module.simple_rational = original


def fast(text: str):
    try:
        return ("value", parse_module.parse_number(text, "n", Exact))
    except InvalidParameter as error:
        return ("refused", str(error))


@pytest.mark.parametrize("text", TRICKY)
def test_the_fast_path_reads_as_the_general_parser(text):
    simple = parse_module.simple_rational(text)
    expected = general(text)
    if simple is not None:
        assert expected == ("value", Exact.rational(simple))
    assert fast(text) == expected


def test_the_fast_path_takes_the_common_forms():
    assert parse_module.simple_rational("0.125") == Fraction(1, 8)
    assert parse_module.simple_rational("3/17") == Fraction(3, 17)
    assert parse_module.simple_rational("1e-5") == Fraction(1, 10 ** 5)
    assert parse_module.simple_rational("-007.50") == Fraction(-15, 2)
    for text in (" 0.5", "3/0", "1.5/2", "1e1000", "١", "0x10"):
        assert parse_module.simple_rational(text) is None


digits = st.text("0123456789", min_size=1, max_size=12)


@st.composite
def short_numbers(draw):
    sign = draw(st.sampled_from(["", "+", "-"]))
    if draw(st.booleans()):
        return f"{sign}{draw(digits)}/{draw(digits)}"
    whole = draw(st.one_of(st.just(""), digits))
    point = draw(st.sampled_from(["", ".", "." + draw(digits)]))
    if not whole and len(point) < 2:
        point = "." + draw(digits)
    exponent = draw(st.sampled_from(["", f"e{draw(st.integers(-1200, 1200))}",
                                     f"E+{draw(st.integers(0, 999))}"]))
    space = draw(st.sampled_from(["", "", " "]))
    return f"{space}{sign}{whole}{point}{exponent}"


@settings(max_examples=500)
@given(short_numbers())
def test_random_short_numbers_read_alike(text):
    assert fast(text) == general(text)


@settings(max_examples=300)
@given(short_numbers())
def test_a_channel_entry_reads_alike(text):
    """``_simple_entry`` gives the general reader's value for an entry in [0, 1], and ``None`` (the general reader
    then reads or refuses it) for anything else."""
    entry = _simple_entry(text, True, {})
    kind, value = general(text)
    if entry is not None:
        assert kind == "value" and entry == value and 0 <= value.as_rational() <= 1
        assert entry.as_rational() == value.as_rational()
        assert entry.text() == value.text()
    elif kind == "value" and 0 <= value.as_rational() <= 1:  # left to the general reader: a form it alone takes
        assert (text != text.strip() or len(text) > parse_module.SIMPLE_LENGTH
                or re.search(r"[eE][+-]?[0-9]{4}", text))


@pytest.mark.parametrize("row", [["-1/2", "3/2"], ["1/2", "x"], ["3/0", "1"], ["1.5", "-0.5"], ["2/2", "0/3"]])
def test_channel_refusals_are_unchanged(row):
    """A refused entry is refused by the general reader with its message; an accepted one has the same value."""
    try:
        fast_channel = ("value", Channel(["a"], ["u", "v"], [row]).row("a"))
    except InvalidChannel as error:
        fast_channel = ("refused", str(error))
    original = parse_module.simple_rational
    saved = channel_module._simple_entry
    channel_module._simple_entry = lambda text, bounded, shared: None
    parse_module.simple_rational = lambda text: None
    try:
        try:
            slow_channel = ("value", Channel(["a"], ["u", "v"], [row]).row("a"))
        except InvalidChannel as error:
            slow_channel = ("refused", str(error))
    finally:
        channel_module._simple_entry = saved
        parse_module.simple_rational = original
    assert fast_channel == slow_channel

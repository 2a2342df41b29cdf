"""The porting kit's random stream (``reference/stream.py``) at its edges: past the second block, ``Stream.bits``,
the draws with ``p = 0`` and ``p = 1`` that read nothing, the digits of ``p = 1``, the cache of binary expansions
keyed by type as well as value (a float means its shortest decimal), and the length of a refusal. Expected bits are
computed here with hashlib and Fractions, independently of the module."""

from __future__ import annotations

import hashlib
from fractions import Fraction

import pytest

from ldpspec.reference import stream as stream_module
from ldpspec.reference.stream import BinaryExpansion, Stream, bernoulli, expansion, seed_bytes
from ldpspec.spec.errors import InvalidParameter


class NoBits:
    """A bit source that must not be read."""

    def bit(self) -> int:
        raise AssertionError("a draw that reads nothing read a bit")


def blocks(seed: bytes, count: int) -> bytes:
    return b"".join(hashlib.sha256(seed + i.to_bytes(8, "big")).digest() for i in range(count))


def as_bits(data: bytes) -> list[int]:
    return [(byte >> (7 - j)) & 1 for byte in data for j in range(8)]


def test_the_stream_goes_on_past_the_second_block():
    """Blocks 0, 1, 2 and 3 of ``SHA-256(seed || i)``, read bit by bit and through ``Stream.bits`` (most significant
    first), are the blocks computed here."""
    seed = b"\x01\x02"
    expected = as_bits(blocks(seed, 4))
    stream = Stream(seed)
    assert [stream.bit() for _ in range(len(expected))] == expected
    stream = Stream(seed)
    assert [stream.bits(13) for _ in range(3)] == [
        int("".join(map(str, expected[13 * j : 13 * j + 13])), 2) for j in range(3)
    ]
    assert stream.bits(1024 - 39) == int("".join(map(str, expected[39:1024])), 2) and stream.bits_read == 1024


def test_certain_draws_read_nothing():
    """``bernoulli`` with ``p = 0`` is False and with ``p = 1`` True, without reading a bit (also as text and
    Fractions); ``p = 1`` is a probability."""
    for zero in (0, "0", Fraction(0)):
        assert bernoulli(NoBits(), zero) is False
    for one in (1, "1", Fraction(1), "2/2"):
        assert bernoulli(NoBits(), one) is True
    assert Stream(b"").bernoulli(1) is True


def test_the_digits_of_one_are_all_ones():
    """``p = 1`` is ``0.111...`` in binary: every digit 1."""
    assert BinaryExpansion(1).text(20) == "1" * 20 and BinaryExpansion(1).digit(7) == 1


def test_an_expansion_is_computed_once_per_value_and_type():
    """``expansion`` returns one cached object for one value, and keys the cache by type: the float 0.1 (one tenth,
    its shortest decimal) and the Fraction equal to the double 0.1 (in Python, ``Fraction(0.1) == 0.1``) are
    different probabilities with different digits."""
    assert expansion(Fraction(1, 3)) is expansion(Fraction(1, 3))
    double = Fraction(0.1)
    assert double == 0.1 and double != Fraction(1, 10)
    tenth = "".join(str(int(Fraction(1, 10) * 2**i) % 2) for i in range(1, 81))
    exact_double = "".join(str(int(double * 2**i) % 2) for i in range(1, 81))
    assert tenth != exact_double
    for first in (double, 0.1):  # whichever is cached first
        stream_module._EXPANSIONS.clear()
        expansion(first).text(80)
        assert expansion(0.1).text(80) == tenth and expansion(double).text(80) == exact_double


def test_a_refused_seed_is_quoted_in_a_message_of_at_most_200_characters():
    """The refusal of a seed quotes its start, the whole message at most 200 characters (a seed can be
    megabytes)."""
    with pytest.raises(InvalidParameter) as refusal:
        seed_bytes("zz" * 500)
    message = str(refusal.value)
    assert len(message) <= 200 and message.startswith("seed must be bytes or an even number of hexadecimal digits")
    assert ', got "zzzz' in message and message.endswith("zz...")

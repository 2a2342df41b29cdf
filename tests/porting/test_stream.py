"""The porting kit's random stream and its draws: exact probabilities by enumeration over bit patterns, the byte
layout pinned by SHA-256 known answers, and bad input refused by name."""

from __future__ import annotations

import hashlib
import itertools
from fractions import Fraction

import mpmath
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ldpspec.reference.stream import BinaryExpansion, Stream, below, bernoulli, bits, seed_bytes
from ldpspec.spec.errors import InvalidParameter
from ldpspec.spec.exact import Exact


class Exhausted(Exception):
    pass


class Bits:
    """A bit source that gives a chosen pattern, then raises ``Exhausted``."""

    def __init__(self, pattern):
        self.pattern, self.read = list(pattern), 0

    def bit(self) -> int:
        if self.read == len(self.pattern):
            raise Exhausted
        self.read += 1
        return self.pattern[self.read - 1]


def decided_probability(draw, depth: int) -> dict:
    """``{outcome: probability}`` over every bit pattern of ``depth`` bits, of the draws decided within them, and the
    probability left undecided (``None``): each pattern has probability ``2^-depth``."""
    result: dict = {}
    for pattern in itertools.product((0, 1), repeat=depth):
        try:
            outcome = draw(Bits(pattern))
        except Exhausted:
            outcome = None
        result[outcome] = result.get(outcome, 0) + Fraction(1, 2 ** depth)
    return result


@pytest.mark.parametrize("p", ["0", "1", "1/2", "1/3", "3/4", "0.1", "exp(1)/(exp(1)+1)", "1/(exp(3)+2)",
                               "1/(exp(1000)+1)"])
def test_bernoulli_is_true_with_probability_exactly_p(p):
    """Within the first 12 bits the draw is decided true with probability floor(2^12 p) / 2^12, and undecided with
    probability at most 2^-12: the probability of true is p exactly in the limit (for p = 0, 1 nothing is read)."""
    depth = 12
    exact = Exact.of(p)
    outcomes = decided_probability(lambda source: bernoulli(source, p), depth)
    floor = 2 ** depth if exact == 1 else int(BinaryExpansion(exact).text(depth), 2)  # floor(2^depth p)
    assert outcomes.get(True, 0) == Fraction(floor, 2 ** depth)
    assert outcomes.get(None, 0) <= Fraction(1, 2 ** depth)
    if exact in (Exact.of(0), Exact.of(1)):
        assert None not in outcomes


def test_bernoulli_reads_two_bits_on_average():
    """The draw stops at the first bit that differs from p's digit, after i bits with probability 2^-i: within 14 bits
    the mean is sum_{i <= 14} i 2^-i = 2 - 16 / 2^14, and the rest (2^-14) reads more."""
    depth = 14
    outcomes = decided_probability(lambda source: (bernoulli(source, "1/3"), source.read)[1], depth)
    mean = sum(reads * probability for reads, probability in outcomes.items() if reads is not None)
    assert mean == 2 - Fraction(depth + 2, 2 ** depth) and outcomes[None] == Fraction(1, 2 ** depth)


@pytest.mark.parametrize("n", [1, 2, 3, 5, 6, 7, 8, 9, 100, 1000])
def test_below_gives_each_value_one_pattern_per_round(n):
    """One round reads k = bitlength(n - 1) bits; every value of 0 .. n-1 has exactly one pattern, the rest start a new
    round: each value has probability exactly 1/n."""
    k = (n - 1).bit_length()
    seen = []
    for pattern in itertools.product((0, 1), repeat=k):
        try:
            seen.append(below(Bits(pattern), n))
        except Exhausted:
            pass
    assert sorted(seen) == list(range(n))
    assert below(Bits([]), 1) == 0  # n = 1 reads nothing


def test_bits_are_read_most_significant_first():
    assert bits(Bits([1, 0, 1, 1]), 4) == 0b1011
    assert bits(Bits([]), 0) == 0


def test_the_stream_is_sha256_of_the_seed_and_a_big_endian_counter():
    stream = Stream("")
    # SHA-256 of eight zero bytes, a published value; then the block with the counter 1.
    first = bytes.fromhex("af5570f5a1810b7af78caf4bc70a660f0df51e42baf91d4de5b2328de0e83dfc")
    read = bytes(bits(stream, 8) for _ in range(32))
    assert read == first
    second = bytes(bits(stream, 8) for _ in range(32))
    assert second == hashlib.sha256(bytes(7) + b"\x01").digest()
    assert stream.bits_read == 512
    assert Stream("00ff").seed == b"\x00\xff" and Stream(b"ab").seed == b"ab"


@settings(max_examples=50, deadline=None)
@given(st.binary(max_size=8), st.integers(2, 50))
def test_the_stream_draws_are_reproducible_from_the_seed(seed, n):
    first, second = Stream(seed), Stream(seed.hex())
    assert [first.below(n) for _ in range(20)] == [second.below(n) for _ in range(20)]
    assert [first.bernoulli("1/3") for _ in range(20)] == [second.bernoulli(Fraction(1, 3)) for _ in range(20)]
    assert first.bits_read == second.bits_read


@pytest.mark.parametrize("p", ["exp(1)/(exp(1)+1)", "1/(exp(2)+9)", "exp(1000)/(exp(1000)+1)", "1/(exp(3)+2)"])
def test_binary_digits_are_exact_far_past_an_enclosures_precision(p):
    """400 digits against mpmath at 3000 bits (an independent computation): digits past a few hundred need the exact
    comparison, not an enclosure of 2^i p."""
    with mpmath.workprec(3000):
        expected = _digits_by_mpmath(p, 400)
    assert BinaryExpansion(Exact.of(p)).text(400) == expected


def _digits_by_mpmath(p: str, count: int) -> str:
    value = {"exp(1)/(exp(1)+1)": mpmath.e / (mpmath.e + 1), "1/(exp(2)+9)": 1 / (mpmath.exp(2) + 9),
             "exp(1000)/(exp(1000)+1)": mpmath.exp(1000) / (mpmath.exp(1000) + 1),
             "1/(exp(3)+2)": 1 / (mpmath.exp(3) + 2)}[p]
    return "".join(str(int(mpmath.floor(value * mpmath.mpf(2) ** i)) % 2) for i in range(1, count + 1))


def test_binary_digits_of_exact_probabilities():
    assert BinaryExpansion(Exact.of("1/3")).text(8) == "01010101"
    assert BinaryExpansion(Exact.of("0.75")).text(4) == "1100"
    # e/(e+1) = 0.7310585786...: 0.10111011...
    assert BinaryExpansion(Exact.of("exp(1)/(exp(1)+1)")).text(8) == "10111011"
    # 1/(e^1000 + 1) < 2^-1442: its first 1442 digits are 0
    assert BinaryExpansion(Exact.of("1/(exp(1000)+1)")).text(1442) == "0" * 1442


@pytest.mark.parametrize("call, message", [
    (lambda: bernoulli(Bits([0]), "3/2"), r"p must be a probability in \[0, 1\], got 1.5"),
    (lambda: bernoulli(Bits([0]), -1), r"p must be a probability in \[0, 1\]"),
    (lambda: bernoulli(Bits([0]), "nan"), "p must be"),
    (lambda: below(Bits([0]), 0), "n \\(the number of choices\\) must be an integer >= 1"),
    (lambda: below(Bits([0]), 2.0), "n \\(the number of choices\\) must be an integer >= 1"),
    (lambda: bits(Bits([0]), -1), "k \\(a number of bits\\) must be an integer >= 0"),
    (lambda: seed_bytes("xyz"), "seed must be bytes or an even number of hexadecimal digits"),
    (lambda: Stream(12), "seed must be bytes"),
])
def test_bad_input_is_refused_by_name(call, message):
    with pytest.raises(InvalidParameter, match=message):
        call()

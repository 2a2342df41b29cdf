"""The porting kit's random stream: random bits that any language can reproduce from its standard library, and the
exact draws made from them.

**The stream.** A seed is a byte string (written in hexadecimal in the vectors). Block ``i`` (``i = 0, 1, 2, ...``)
is ``SHA-256(seed || i)``, with ``i`` as 8 bytes, big-endian; the stream is the blocks' bytes in order, each byte read
from its most significant bit. Nothing else: no state but the seed and the position.

**The draws.** Every random choice a mechanism makes is one of these, read from the stream in the order the
mechanism's procedure states:

* ``bits(k)``: the next ``k`` bits as an unsigned integer, the first bit the most significant;
* ``below(n)``: a uniform integer of ``0 .. n-1`` without modulo bias. With ``k`` the bit length of ``n - 1``, draw
  ``bits(k)`` until the value is below ``n`` (``n = 1`` draws nothing and gives 0). Each of the ``n`` values has one
  ``k``-bit pattern, so each is drawn with probability exactly ``1/n``;
* ``bernoulli(p)``: true with probability exactly ``p``, for an exact ``p`` of ``[0, 1]``. The stream's bits are the
  binary digits of a uniform ``U = 0.b1 b2 b3 ...``, compared one at a time with ``p = 0.d1 d2 d3 ...``: at the
  first ``i`` with ``b_i != d_i`` the draw is ``b_i < d_i`` (that is, ``U < p``). ``p = 0`` and ``p = 1`` draw
  nothing. Two bits are read on average. A port without exact arithmetic may take ``p``'s digits from the vectors,
  which give the first 256: a draw reads past them with probability ``2^-256``.

``bernoulli`` and ``below`` read bits through ``bit()`` only, so the tests drive them with chosen bit patterns and
prove the probabilities exactly by enumeration.
"""

from __future__ import annotations

import hashlib

from ldpspec.spec import Exact, InvalidParameter, integer, value_text

BLOCK_BYTES = 32
"""The bytes of one SHA-256 block."""

VECTOR_DIGITS = 256
"""The binary digits of each probability given in the vectors."""


def seed_bytes(seed) -> bytes:
    """A seed as bytes: bytes as given, or text in hexadecimal (an even number of digits)."""
    if isinstance(seed, (bytes, bytearray)):
        return bytes(seed)
    if isinstance(seed, str):
        try:
            return bytes.fromhex(seed)
        except ValueError:
            pass
    raise InvalidParameter(f"seed must be bytes or an even number of hexadecimal digits, got {value_text(seed)}"[:200])


class Stream:
    """The bits of ``SHA-256(seed || i)`` for ``i = 0, 1, 2, ...``, most significant bit first."""

    def __init__(self, seed):
        self.seed = seed_bytes(seed)
        self.counter = 0  # the next block to hash
        self.block = b""
        self.position = 0  # bits read from ``block``
        self.bits_read = 0

    def block_bytes(self, index: int) -> bytes:
        return hashlib.sha256(self.seed + index.to_bytes(8, "big")).digest()

    def bit(self) -> int:
        if self.position == 8 * len(self.block):
            self.block, self.position = self.block_bytes(self.counter), 0
            self.counter += 1
        byte = self.block[self.position // 8]
        bit = (byte >> (7 - self.position % 8)) & 1
        self.position += 1
        self.bits_read += 1
        return bit

    def bits(self, k: int) -> int:
        return bits(self, k)

    def below(self, n: int) -> int:
        return below(self, n)

    def bernoulli(self, p) -> bool:
        return bernoulli(self, p)


def bits(source, k: int) -> int:
    """The next ``k`` bits of ``source`` (anything with ``bit()``) as an unsigned integer, first bit most
    significant."""
    integer(k, "k (a number of bits)", 0)
    value = 0
    for _ in range(k):
        value = 2 * value + source.bit()
    return value


def below(source, n: int) -> int:
    """A uniform integer of ``0 .. n-1``: ``bits(k)`` with ``k`` the bit length of ``n - 1``, redrawn while
    ``>= n``."""
    integer(n, "n (the number of choices)", 1)
    k = (n - 1).bit_length()
    while True:
        value = bits(source, k)
        if value < n:
            return value


class BinaryExpansion:
    """The binary digits ``d1 d2 ...`` of an exact ``p`` of ``[0, 1]``, computed as they are needed:
    ``d_i = floor(2^i p) mod 2``, decided exactly (``spec.exact``). ``certain`` is ``False`` for ``p = 0``, ``True``
    for ``p = 1`` (a draw that reads nothing) and ``None`` otherwise."""

    def __init__(self, p):
        self.p = probability(p)
        self.rational = self.p.as_rational()
        self.certain = False if self.p == 0 else True if self.p == 1 else None
        self.digits: list[int] = []

    def digit(self, i: int) -> int:
        """``d_i``, ``i >= 1`` (for ``p = 1``, ``0.111...``: every digit 1)."""
        if self.certain is True:
            return 1
        while len(self.digits) < i:
            self.digits.append(self._next_digit(len(self.digits) + 1))
        return self.digits[i - 1]

    def _next_digit(self, i: int) -> int:
        """``d_i`` from the digits before it: with ``F = floor(2^(i-1) p)`` (read off those digits),
        ``2^i p - 2F`` lies in ``[0, 2)`` and ``d_i`` says whether it is at least 1, an exact comparison at any
        depth (an enclosure of ``2^i p`` alone would lose the low digits once ``i`` passes its precision)."""
        twice = 2 * int("0" + "".join(map(str, self.digits)), 2)
        if self.rational is not None:
            return int(self.rational * 2 ** i - twice >= 1)
        return int((self.p * Exact.of(2 ** i) - Exact.of(twice)).compare(1) >= 0)

    def text(self, count: int) -> str:
        """The first ``count`` digits as a string of 0s and 1s."""
        return "".join(str(self.digit(i)) for i in range(1, count + 1))


_EXPANSIONS: dict = {}


def expansion(p) -> BinaryExpansion:
    """The binary expansion of ``p``, validated once and cached by its exact form, so that repeated draws with one
    probability compute each digit once."""
    key = (p.num, p.den) if isinstance(p, Exact) else (type(p).__name__, p)
    try:
        return _EXPANSIONS[key]
    except (KeyError, TypeError):  # TypeError: an unhashable value, validated below
        pass
    result = BinaryExpansion(p)
    try:
        if len(_EXPANSIONS) > 4096:
            _EXPANSIONS.clear()
        _EXPANSIONS[key] = result
    except TypeError:
        pass
    return result


def probability(p, name: str = "p") -> Exact:
    """``p`` as an exact number of ``[0, 1]``, or ``InvalidParameter`` naming it."""
    value = Exact.of(p, name)
    if value < 0 or value > 1:
        raise InvalidParameter(f"{name} must be a probability in [0, 1], got {value.text()}")
    return value


def bernoulli(source, p) -> bool:
    """True with probability exactly ``p``: the first stream bit that differs from ``p``'s binary digit decides
    (``U < p``); ``p = 0`` and ``p = 1`` read nothing."""
    digits = expansion(p)
    if digits.certain is not None:
        return digits.certain
    i = 1
    while True:
        b, d = source.bit(), digits.digit(i)
        if b != d:
            return b < d
        i += 1

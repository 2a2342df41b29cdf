"""Sampling machinery shared by the NumPy twins: exact Bernoulli bits, bit vectors packed eight to a byte, and
reported items packed to the bits they need (``PackedItems``).

Every bit is drawn **exactly** Bernoulli(``p``) for the double ``p`` nearest the mechanism's exact probability: a
uniform random number ``U = 0.U1 U2 ...`` is compared with the binary expansion of ``p`` from its first digit, and the
first digit where they differ decides. There is no rounding of ``p`` to a grid. Two forms:

* ``ExactBernoulli``: one random byte per bit, compared with ``p``'s first byte (ties, one time in 256, draw
  further bytes); for a few bits per user (GRR's and RR's keep-or-replace coin);
* ``PackedBernoulli``: bit vectors drawn directly in packed form, 64 bits per machine word compared digit by digit
  (bit-sliced), so that the unpacked bits never exist (unary encodings).

Bit-vector reports are packed eight to a byte (``numpy.packbits``, most significant bit first): ``n`` users over
``d`` bits take ``n * ceil(d / 8)`` bytes. Work is done in chunks, so the memory in use stays at the size of the
output.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

import numpy as np

from ldpspec.spec.errors import InvalidParameter

CHUNK_BITS = 1 << 20
"""Bits generated per chunk: bounds the working memory to a few megabytes."""


# --- exact Bernoulli bits -------------------------------------------------------------------------

def _expansion(p: float) -> np.ndarray:
    """The bytes of the binary expansion of ``p`` in [0, 1): ``p = sum_j bytes[j] 256^-(j+1)`` (exactly)."""
    return np.packbits(binary_digits(p)) if p else np.zeros(1, dtype=np.uint8)


class ExactBernoulli:
    """Draws bits with ``P[1] = probabilities[k]`` exactly, for the doubles given.

    ``probabilities`` is one probability per kind of bit (for example one per
    column); ``draw(kinds, rng)`` returns a boolean array with ``kinds``' shape.
    """

    def __init__(self, probabilities: Sequence[float]):
        values = np.asarray(probabilities, dtype=float)
        if values.ndim != 1 or np.any(~np.isfinite(values)) or np.any(values < 0) or np.any(values > 1):
            raise InvalidParameter("bit probabilities must be numbers in [0, 1]")
        self.always = values >= 1.0
        expansions = [_expansion(0.0 if v >= 1 else float(v)) for v in values]
        width = max(len(e) for e in expansions)
        self.digits = np.zeros((len(values), width + 1), dtype=np.uint8)  # a final 0 digit ends every expansion
        for k, e in enumerate(expansions):
            self.digits[k, : len(e)] = e
        self.length = np.array([len(e) for e in expansions])

    def draw(self, kinds: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        """One bit per entry of ``kinds`` (an integer array of probability indices)."""
        kinds = np.asarray(kinds)
        first = self.digits[kinds, 0]
        uniform = _random_bytes(rng, kinds.size).reshape(kinds.shape)
        bits = uniform < first
        tied = np.flatnonzero(uniform == first)
        self._resolve_ties(bits.reshape(-1), tied, kinds.reshape(-1)[tied], rng)
        return bits | self.always[kinds]

    def draw_columns(self, rows: int, rng: np.random.Generator) -> np.ndarray:
        """A ``rows x K`` array whose column ``k`` has probability ``probabilities[k]``."""
        columns = len(self.length)
        uniform = _random_bytes(rng, rows * columns).reshape(rows, columns)
        first = self.digits[:, 0]
        bits = uniform < first
        tied = np.flatnonzero(uniform == first)
        self._resolve_ties(bits.reshape(-1), tied, tied % columns, rng)
        return bits | self.always

    def _resolve_ties(self, flat_bits, tied, tied_kinds, rng) -> None:
        """Where ``U`` equals ``p`` so far, compare the next bytes (one time in 256 per step)."""
        position = 1
        while tied.size:
            still = position < self.length[tied_kinds]  # past p's last digit, U >= p: the bit stays 0
            tied, tied_kinds = tied[still], tied_kinds[still]
            digit = self.digits[tied_kinds, position]
            uniform = _random_bytes(rng, tied.size)
            flat_bits[tied[uniform < digit]] = True
            equal = uniform == digit
            tied, tied_kinds = tied[equal], tied_kinds[equal]
            position += 1


# --- exact Bernoulli bits drawn packed, 64 at a time -----------------------------------------------------------

PLANES = 8
"""The digits every word of a packed draw goes through: a lane is still tied after them with probability 1/256, and
only the words holding such a lane go on (``PackedBernoulli``)."""

WORDS_PER_CHUNK = 1 << 15
"""Words of 64 bits processed together by a packed draw (256 KiB per array, which stays in the cache)."""


def binary_digits(p: float) -> np.ndarray:
    """The binary expansion of a double ``p`` in [0, 1) as 0s and 1s, ``p = sum_j digits[j] 2^-(j+1)`` exactly (at
    most 1074 digits)."""
    fraction = Fraction(p)
    length = fraction.denominator.bit_length() - 1  # the denominator is a power of two
    numerator = fraction.numerator
    return np.array([(numerator >> (length - 1 - j)) & 1 for j in range(length)], dtype=np.uint8)


class PackedBernoulli:
    """Rows of bits in which column ``k`` is 1 with probability exactly ``probabilities[k]`` (a double), drawn
    directly in packed form (``numpy.packbits``' layout: ``ceil(K / 8)`` bytes a row, the first column in the most
    significant bit of the first byte), so that the unpacked bits never exist.

    **Bit-sliced comparison.** A bit is ``[U < p]`` for a uniform ``U``, decided at the first binary digit where
    ``U`` and ``p`` differ, to 1 if ``p``'s digit there is 1. At each digit, ``U``'s digit differs from ``p``'s with
    probability 1/2, independently of everything before, so a lane (one bit of the output) needs only a fair coin
    per digit: "differs here". A machine word holds 64 lanes. Digit ``j`` takes one random word ``R`` per word of
    output and the word ``D_j`` of the lanes' ``j``-th digits; with ``u`` the lanes still undecided, the lanes
    ``t = u & R`` are decided now, to ``D_j`` (``ones |= t & D_j``), and ``u ^= t``. A lane still tied past the last
    digit of its ``p`` has ``U >= p``: it is 0. Every word goes through the first ``PLANES`` digits; after them a
    lane is undecided with probability ``2^-PLANES``, and only the words holding such a lane go on, a digit at a
    time, until none is left. Nothing is rounded: each bit is 1 with probability exactly ``p``
    (``tests/twin/test_packed_bernoulli.py`` enumerates every random prefix).

    The randomness is one 64-bit word per digit per word of output (``PLANES`` bits per released bit, and a little
    more for the ties), where one lane alone would need two on average; what the slicing saves is work: 64 lanes go
    through each NumPy operation, and a digit that is the same for every lane costs one operation less.
    """

    def __init__(self, probabilities: Sequence[float]):
        values = np.asarray(probabilities, dtype=float)
        if values.ndim != 1 or not len(values) or np.any(~np.isfinite(values)) or np.any(values < 0) or \
                np.any(values > 1):
            raise InvalidParameter("bit probabilities must be numbers in [0, 1], at least one")
        self.columns = len(values)
        self.row_bytes = (self.columns + 7) // 8
        self.words = (self.columns + 63) // 64
        distinct, self.kinds = np.unique(values, return_inverse=True)  # levels share their expansion
        expansions = [binary_digits(v) if v < 1 else np.zeros(0, dtype=np.uint8) for v in distinct]
        self.digits = np.zeros((len(distinct), max(map(len, expansions)) + 1), dtype=np.uint8)
        for kind, expansion in enumerate(expansions):
            self.digits[kind, :len(expansion)] = expansion
        self.active = (values > 0) & (values < 1)  # p = 0, p = 1 and the padding lanes are decided from the start
        self.lengths = np.array([len(e) for e in expansions])[self.kinds]  # each column's number of digits
        self.always = self._mask(values >= 1)
        self.start = self._mask(self.active)
        self._digits: dict[int, tuple] = {}

    def _mask(self, lanes: np.ndarray) -> np.ndarray:
        """One boolean per column as ``words`` 64-bit words in the packed layout (padding lanes 0)."""
        padded = np.zeros(64 * self.words, dtype=bool)
        padded[:self.columns] = lanes
        return np.packbits(padded).view(np.uint64)

    def digit(self, j: int) -> tuple:
        """Digit ``j`` (from 0) of every lane: ``(D_j, alive_j)``, ``D_j`` the words of the digits or ``"ones"`` or
        ``"zeros"`` when every active lane has the same digit, ``alive_j`` the words of the lanes whose ``p`` has
        digits after it (``None`` when every active lane has)."""
        if j not in self._digits:
            ones = self.digits[self.kinds, j] == 1 if j < self.digits.shape[1] else np.zeros(self.columns, bool)
            uniform = "ones" if ones[self.active].all() else "zeros" if not ones[self.active].any() else None
            ending = np.any(self.active & (self.lengths <= j + 1))
            self._digits[j] = (uniform or self._mask(ones), self._mask(self.lengths > j + 1) if ending else None)
        return self._digits[j]

    def draw(self, rows: int, rng: np.random.Generator) -> np.ndarray:
        """A ``rows x ceil(K / 8)`` array of packed rows."""
        packed = np.empty((rows, self.row_bytes), dtype=np.uint8)
        rows_per_chunk = max(1, WORDS_PER_CHUNK // self.words)
        for start in range(0, rows, rows_per_chunk):
            count = min(rows, start + rows_per_chunk) - start
            words = self.draw_words(count, rng.bit_generator.random_raw)
            packed[start:start + count] = words.view(np.uint8).reshape(count, 8 * self.words)[:, :self.row_bytes]
        return packed

    def draw_words(self, rows: int, random) -> np.ndarray:
        """``rows x words`` 64-bit words; ``random(k)`` gives ``k`` random 64-bit words."""
        ones, undecided = compare_planes(self, rows, lambda: random(rows * self.words).reshape(rows, self.words))
        tied = np.flatnonzero(undecided)
        if tied.size:
            continue_ties(self, ones.reshape(-1), tied, undecided.reshape(-1)[tied], PLANES, random)
        return ones


def compare_planes(sampler: PackedBernoulli, rows: int, plane) -> tuple[np.ndarray, np.ndarray]:
    """The first ``PLANES`` digits for ``rows x words`` words: ``(ones, undecided)``. ``plane()`` gives each digit's
    random words, a ``rows x words`` array of "differs here" bits."""
    shape = (rows, sampler.words)
    ones = np.broadcast_to(sampler.always, shape).copy()
    undecided = np.broadcast_to(sampler.start, shape).copy()
    scratch = np.empty(shape, dtype=np.uint64)
    for j in range(PLANES):
        digits, alive = sampler.digit(j)
        decided = np.bitwise_and(plane(), undecided)
        if isinstance(digits, str):
            if digits == "ones":
                np.bitwise_or(ones, decided, out=ones)
        else:
            np.bitwise_and(decided, digits, out=scratch)
            np.bitwise_or(ones, scratch, out=ones)
        np.bitwise_xor(undecided, decided, out=undecided)
        if alive is not None:
            np.bitwise_and(undecided, alive, out=undecided)  # past p's last digit a tie is U >= p: 0
    return ones, undecided


def continue_ties(sampler: PackedBernoulli, flat_ones: np.ndarray, tied: np.ndarray, lanes: np.ndarray, position: int,
                  random) -> None:
    """Goes on from digit ``position`` for the words ``tied`` (indices into the flat ``rows x words`` output) whose
    lanes ``lanes`` are still undecided, one digit at a time, until no lane is left; ``random(k)`` gives ``k`` random
    64-bit words. Only these words draw: about ``64 * 2^-PLANES`` of them per word of output in all."""
    while tied.size:
        digits, alive = sampler.digit(position)
        within = tied % sampler.words  # each word's place in its row
        decided = random(len(tied)) & lanes
        if isinstance(digits, str):
            if digits == "ones":
                flat_ones[tied] |= decided
        else:
            flat_ones[tied] |= decided & digits[within]
        lanes = lanes ^ decided
        if alive is not None:
            lanes &= alive[within]
        tied, lanes = tied[lanes != 0], lanes[lanes != 0]
        position += 1


def _random_bytes(rng: np.random.Generator, count: int) -> np.ndarray:
    words = rng.bit_generator.random_raw((count + 7) // 8)
    return words.view(np.uint8)[:count]


# --- items packed to the bits they need -------------------------------------------------------------------------------

ITEMS_PER_CHUNK = 1 << 12
"""Items packed or unpacked together (a multiple of 8, so that every chunk starts on a byte): the temporaries stay
at a few hundred kilobytes, below the packed reports of a million users."""


def item_bits(d: int) -> int:
    """The bits one item of ``0 .. d-1`` needs: ``ceil(log2 d)``, at least 1."""
    return max(1, (d - 1).bit_length())


class PackedItems:
    """``count`` unsigned integers of ``bits`` bits each, packed one after another, the most significant bit first
    (``numpy.packbits``' order): a million GRR reports over 1000 items take 1.25 MB, not the 2 MB of 16-bit integers.

    ``np.asarray(packed)`` unpacks them all (so any code that takes an array takes these); ``chunks()`` unpacks them a
    chunk at a time, which is how the twins count them."""

    def __init__(self, data: np.ndarray, bits: int, count: int):
        self.data, self.bits, self.count = data, bits, count
        self.dtype = np.min_scalar_type((1 << bits) - 1)  # the type the items unpack to

    @classmethod
    def empty(cls, count: int, bits: int) -> PackedItems:
        return cls(np.zeros((count * bits + 7) // 8, dtype=np.uint8), bits, count)

    def put(self, start: int, values: np.ndarray) -> None:
        """Writes ``values`` from item ``start`` on; ``start`` is a multiple of 8 (each write starts on a byte)."""
        if start % 8:
            raise ValueError(f"packed items are written from a multiple of 8, got {start}")
        wide = values.astype(">u4").view(np.uint8).reshape(-1, 4)  # big-endian: the most significant byte first
        bits = np.unpackbits(wide, axis=1)[:, 32 - self.bits:]  # each item's low `bits` bits, in order
        packed = np.packbits(bits.reshape(-1))
        offset = start * self.bits // 8
        self.data[offset:offset + len(packed)] = packed

    def chunk(self, start: int, stop: int) -> np.ndarray:
        """Items ``start .. stop-1`` unpacked; ``start`` is a multiple of 8."""
        if start % 8:
            raise ValueError(f"packed items are read from a multiple of 8, got {start}")
        offset, length = start * self.bits // 8, (stop - start) * self.bits
        bits = np.unpackbits(self.data[offset:offset + (length + 7) // 8], count=length).reshape(-1, self.bits)
        wide = np.zeros((len(bits), 32), dtype=np.uint8)
        wide[:, 32 - self.bits:] = bits
        return np.packbits(wide, axis=1).view(">u4").reshape(-1).astype(self.dtype)

    def chunks(self, size: int = ITEMS_PER_CHUNK):
        for start in range(0, self.count, size):
            yield self.chunk(start, min(self.count, start + size))

    def __len__(self) -> int:
        return self.count

    def __array__(self, dtype=None, copy=None):
        if copy is False:
            raise ValueError("packed items are unpacked into a new array: a copy cannot be avoided")
        values = np.concatenate(list(self.chunks())) if self.count else np.zeros(0, dtype=self.dtype)
        return values if dtype is None else values.astype(dtype)

    @property
    def nbytes(self) -> int:
        return self.data.nbytes


def item_reports(count: int, d: int) -> np.ndarray | PackedItems:
    """Room for ``count`` reports of one item of ``0 .. d-1`` each: packed to ``ceil(log2 d)`` bits when that is fewer
    than the smallest integer type holds (10 bits for ``d = 1000``, not 16), else an array of that type."""
    bits, dtype = item_bits(d), np.min_scalar_type(d - 1)
    return PackedItems.empty(count, bits) if bits < 8 * dtype.itemsize else np.empty(count, dtype=dtype)


def put_items(reports: np.ndarray | PackedItems, start: int, values: np.ndarray) -> None:
    """Writes ``values`` into ``reports`` (from ``item_reports``) from report ``start`` on (a multiple of 8)."""
    if isinstance(reports, PackedItems):
        reports.put(start, values)
    else:
        reports[start:start + len(values)] = values


def count_items(reports, d: int) -> np.ndarray:
    """How many reports name each item of ``0 .. d-1``; packed reports are read a chunk at a time."""
    from ldpspec.reference.validation import item_array  # the validation module builds on this one

    counts = np.zeros(d, dtype=np.int64)
    for chunk in reports.chunks() if isinstance(reports, PackedItems) else [reports]:
        counts += np.bincount(item_array(chunk, d, "reports"), minlength=d)
    return counts


def packed_bit_counts(packed: np.ndarray, bits: int) -> np.ndarray:
    """``C_k``: the number of packed reports (rows) with bit ``k`` set."""
    counts = np.zeros(bits, dtype=np.int64)
    rows_per_chunk = max(1, CHUNK_BITS // max(bits, 1))
    for start in range(0, len(packed), rows_per_chunk):
        counts += np.unpackbits(packed[start:start + rows_per_chunk], axis=1, count=bits).sum(axis=0, dtype=np.int64)
    return counts


def unpacked_rows(packed: np.ndarray, bits: int) -> list[tuple]:
    """Packed reports as tuples of ``bits`` 0s and 1s (the output labels of a bit-vector channel)."""
    return [tuple(int(v) for v in row) for row in np.unpackbits(np.asarray(packed, dtype=np.uint8), axis=1, count=bits)]


# --- categorical draws ------------------------------------------------------------------------------

class AliasTable:
    """Draws indices ``0 .. k-1`` with the given probabilities (doubles) by Walker's alias method (Vose's
    construction): one uniform column and one uniform number per draw, whatever ``k``.

    Column ``j`` keeps ``j`` with probability ``keep[j]`` and gives ``alias[j]`` otherwise; the table is built so
    that ``(keep[j] + sum_{i: alias[i] = j} (1 - keep[i])) / k`` is ``probabilities[j]`` up to rounding
    (``implied()`` computes it, and a test compares).
    """

    def __init__(self, probabilities: Sequence[float]):
        weights = np.asarray(probabilities, dtype=float)
        if weights.ndim != 1 or not len(weights) or np.any(~np.isfinite(weights)) or np.any(weights < 0) or \
                weights.sum() <= 0:
            raise InvalidParameter("category probabilities must be finite numbers >= 0 with a positive sum")
        k = len(weights)
        scaled = weights / weights.sum() * k
        self.keep, self.alias = np.ones(k), np.arange(k)
        small = [j for j in range(k) if scaled[j] < 1]
        large = [j for j in range(k) if scaled[j] >= 1]
        while small and large:
            j, big = small.pop(), large[-1]
            self.keep[j], self.alias[j] = scaled[j], big
            scaled[big] -= 1 - scaled[j]
            if scaled[big] < 1:
                small.append(large.pop())
        # what is left is 1 up to rounding: those columns keep their own index

    def implied(self) -> np.ndarray:
        """The probability of each index that the table draws (for tests)."""
        k = len(self.keep)
        result = self.keep.copy()
        np.add.at(result, self.alias, 1 - self.keep)
        return result / k

    def draw(self, size: int, rng: np.random.Generator) -> np.ndarray:
        columns = rng.integers(0, len(self.keep), size)
        return np.where(rng.random(size) < self.keep[columns], columns, self.alias[columns])

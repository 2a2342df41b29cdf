"""Sampling machinery shared by the NumPy twins: exact Bernoulli bits, and bit vectors packed eight to a byte.

Every bit is drawn **exactly** Bernoulli(``p``) for the double ``p`` nearest the
mechanism's exact probability: a uniform random number ``U = 0.U1 U2 ...`` is
drawn one random byte at a time and compared with the binary expansion of
``p``; the first byte decides unless it equals ``p``'s first byte (one time in
256), and only those ties draw further bytes. There is no rounding of ``p`` to
a grid.

Bit-vector reports are packed eight to a byte (``numpy.packbits``, most significant bit first): ``n`` users over
``d`` bits take ``n * ceil(d / 8)`` bytes. Work is done in chunks of ``CHUNK_BITS`` bits, so the memory in use stays
at the size of the output.
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
    fraction, digits = Fraction(p), []
    while fraction:
        fraction *= 256
        digit = int(fraction)
        digits.append(digit)
        fraction -= digit
    return np.array(digits or [0], dtype=np.uint8)


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


def _random_bytes(rng: np.random.Generator, count: int) -> np.ndarray:
    words = rng.bit_generator.random_raw((count + 7) // 8)
    return words.view(np.uint8)[:count]


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

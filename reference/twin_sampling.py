"""Sampling machinery shared by the NumPy twins: exact Bernoulli bits, bit vectors packed eight to a byte, and
reported items packed to the bits they need (``PackedItems``).

Every bit is drawn **exactly** Bernoulli(``p``) for the double ``p`` nearest the mechanism's exact probability: a
uniform random number ``U = 0.U1 U2 ...`` is compared with the binary expansion of ``p`` from its first digit, and the
first digit where they differ decides. There is no rounding of ``p`` to a grid. Two forms:

* ``ExactBernoulli``: one uniform integer of 63 bits per bit, compared with ``p``'s first 63 digits (ties, one time
  in 2^63, draw another integer for the next 63); for a few bits per user (GRR's and RR's keep-or-replace coin);
* ``PackedBernoulli``: bit vectors drawn directly in packed form, 64 bits per machine word compared digit by digit
  (bit-sliced), so that the unpacked bits never exist (unary encodings); compiled by Numba where it is installed
  (``reference.twin_compiled``), with the same bits.

Bit-vector reports are packed eight to a byte (``numpy.packbits``, most significant bit first): ``n`` users over
``d`` bits take ``n * ceil(d / 8)`` bytes. Work is done in chunks, so the memory in use stays at the size of the
output.
"""

from __future__ import annotations

import functools
import math
import os
import sys
import warnings
from collections.abc import Callable, Sequence
from fractions import Fraction

import numpy as np

from ldpspec.spec import InvalidParameter

CHUNK_BITS = 1 << 20
"""Bits generated per chunk: bounds the working memory to a few megabytes."""


# --- exact Bernoulli bits -------------------------------------------------------------------------

BLOCK = 63
"""Binary digits of ``p`` that ``ExactBernoulli`` compares at a time, with one uniform integer of ``[0, 2^BLOCK)``."""


def expansion_blocks(p: float) -> list[int]:
    """The binary expansion of ``p`` in [0, 1) in blocks of ``BLOCK`` digits: ``p = sum_k blocks[k] 2^(-BLOCK (k+1))``
    exactly (no block for ``p = 0``; at most 18 for a double)."""
    fraction = Fraction(p)
    length = fraction.denominator.bit_length() - 1  # the denominator is a power of two: p has `length` digits
    count = -(-length // BLOCK)
    scaled = fraction.numerator << (count * BLOCK - length)
    return [(scaled >> (BLOCK * (count - 1 - k))) & ((1 << BLOCK) - 1) for k in range(count)]


class ExactBernoulli:
    """Draws bits with ``P[1] = probabilities[k]`` exactly, for the doubles given.

    ``probabilities`` is one probability per kind of bit (for example one per column); ``draw(kinds, rng)`` returns
    a boolean array with ``kinds``' shape. A bit is ``[U < p]`` for a uniform ``U``, compared ``BLOCK`` binary
    digits at a time: a uniform integer ``V`` of ``[0, 2^63)`` (``rng.integers``) against the first block ``B`` of
    ``p``'s expansion (``expansion_blocks``) gives 1 if ``V < B``, 0 if ``V > B``, and only if ``V = B``
    (probability ``2^-63``) goes on to the next block with a new integer; past ``p``'s last block a tie is ``U >= p``,
    0. So ``P[1] = sum_k 2^(-63 k) B_k 2^-63 = p``.
    """

    def __init__(self, probabilities: Sequence[float]):
        values = np.asarray(probabilities, dtype=float)
        if values.ndim != 1 or np.any(~np.isfinite(values)) or np.any(values < 0) or np.any(values > 1):
            raise InvalidParameter("bit probabilities must be numbers in [0, 1]")
        self.always = values >= 1.0
        expansions = [expansion_blocks(0.0 if v >= 1 else float(v)) for v in values]
        width = max(len(e) for e in expansions) + 1  # a final 0 block ends every expansion
        self.blocks = np.zeros((len(values), width), dtype=np.int64)
        for k, blocks in enumerate(expansions):
            self.blocks[k, :len(blocks)] = blocks
        self.length = np.array([len(e) for e in expansions])

    def draw(self, kinds: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        """One bit per entry of ``kinds`` (an integer array of probability indices)."""
        kinds = np.asarray(kinds)
        first = self.blocks[:, 0][kinds]
        uniform = rng.integers(0, 1 << BLOCK, size=kinds.shape)
        bits = uniform < first
        tied = np.flatnonzero(uniform == first)
        if tied.size:
            self._resolve_ties(bits.reshape(-1), tied, kinds.reshape(-1)[tied], rng)
        return bits | self.always[kinds]

    def draw_columns(self, rows: int, rng: np.random.Generator) -> np.ndarray:
        """A ``rows x K`` array whose column ``k`` has probability ``probabilities[k]``."""
        columns = len(self.length)
        uniform = rng.integers(0, 1 << BLOCK, size=(rows, columns))
        first = self.blocks[:, 0]
        bits = uniform < first
        tied = np.flatnonzero(uniform == first)
        if tied.size:
            self._resolve_ties(bits.reshape(-1), tied, tied % columns, rng)
        return bits | self.always

    def _resolve_ties(self, flat_bits, tied, tied_kinds, rng) -> None:
        """Where ``U`` equals ``p`` so far, compare the next blocks, a new integer each."""
        position = 1
        while tied.size:
            still = position < self.length[tied_kinds]  # past p's last block, U >= p: the bit stays 0
            tied, tied_kinds = tied[still], tied_kinds[still]
            block = self.blocks[tied_kinds, position]
            uniform = rng.integers(0, 1 << BLOCK, size=tied.size)
            flat_bits[tied[uniform < block]] = True
            equal = uniform == block
            tied, tied_kinds = tied[equal], tied_kinds[equal]
            position += 1


# --- exact Bernoulli bits drawn packed, 64 at a time -----------------------------------------------------------

PLANES = 8
"""The digits every word of a packed draw goes through: a lane is still tied after them with probability 1/256, and
only the words holding such a lane go on (``PackedBernoulli``)."""

WORDS_PER_CHUNK = 1 << 15
"""Words of 64 bits processed together by a packed draw (256 KiB per array, which stays in the cache)."""

COMPILED_WORDS = 1 << 23
"""The words of output (2^29 bits) from which a packed draw loads the compiled path when Numba is installed and the
path is not loaded yet: loading it (Numba's import and the compiled code from Numba's cache) takes about half a
second, which a smaller draw would not win back. Once it is loaded (``prepare_compiled``, or a draw this large), every
packed draw takes it. Both paths give the same bits."""


def random_words(rng: np.random.Generator) -> Callable[[int], np.ndarray]:
    """``k -> k`` random 64-bit words of ``rng``: ``rng.integers(0, 2**64, k, dtype=np.uint64)``, which is its bit
    generator's ``next_uint64``, 64 random bits, whatever the bit generator (``bit_generator.random_raw`` gives 32
    random bits and 32 zeros per word for MT19937)."""
    return lambda count: rng.integers(0, 1 << 64, count, dtype=np.uint64)


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
    significant bit of the first byte, the rows one after another), so that the unpacked bits never exist.

    **Bit-sliced comparison.** A bit is ``[U < p]`` for a uniform ``U``, decided at the first binary digit where
    ``U`` and ``p`` differ, to 1 if ``p``'s digit there is 1. At each digit, ``U``'s digit differs from ``p``'s with
    probability 1/2, independently of everything before, so a lane (one bit of the output) needs only a fair coin
    per digit: "differs here". A machine word holds 64 lanes: the words of output are the packed rows' bytes, eight
    at a time, read as the machine's 64-bit words (a word may hold the end of one row and the start of the next; the
    lanes repeat every ``period_rows`` rows, ``words`` words). Digit ``j`` takes one random word ``R`` per word of
    output and the word ``D_j`` of the lanes' ``j``-th digits; with ``u`` the lanes still undecided, the lanes
    ``t = u & R`` are decided now, to ``D_j`` (``ones |= t & D_j``), and ``u ^= t``. A lane still tied past the last
    digit of its ``p`` has ``U >= p``: it is 0. Every word goes through the first ``planes`` digits (``PLANES``, or
    fewer when no ``p`` has more digits: ``p = 1/4`` needs two, and then no lane is left); after them a lane is
    undecided with probability ``2^-PLANES``, and only the words holding such a lane go on, a digit at a time, until
    none is left. Nothing is rounded: each bit is 1 with probability exactly ``p``
    (``tests/twin/test_packed_bernoulli.py`` enumerates every random prefix).

    The randomness is one 64-bit word per digit per word of output (``planes`` bits per released bit, and a little
    more for the ties), where one lane alone would need two on average; what the slicing saves is work: 64 lanes go
    through each operation, and a digit that is the same for every lane costs one operation less.

    **The order of the random words**, which the compiled path follows word for word: chunks of about
    ``WORDS_PER_CHUNK`` words of output (whole periods), and in each, digit 0's words for every word of output in
    order, then digit 1's, up to digit ``planes - 1``; then, digit after digit, one word for each word of output
    still holding a tied lane, in order. The words are ``random_words(rng)``. The last word of the output may run
    past its last row (by at most seven bytes, which are not returned): its lanes there are drawn like the others.

    **Two paths, the same bits.** ``draw`` takes the compiled path (``reference.twin_compiled``, Numba) when Numba
    is installed and loaded (see ``COMPILED_WORDS``), else the NumPy path (``draw_words``); both draw the same words
    in the same order and return the same rows.
    """

    def __init__(self, probabilities: Sequence[float]):
        values = np.asarray(probabilities, dtype=float)
        if values.ndim != 1 or not len(values) or np.any(~np.isfinite(values)) or np.any(values < 0) or \
                np.any(values > 1):
            raise InvalidParameter("bit probabilities must be numbers in [0, 1], at least one")
        self.columns = len(values)
        self.row_bytes = (self.columns + 7) // 8
        self.period_rows = 8 // math.gcd(self.row_bytes, 8)  # rows after which the lanes' places repeat
        self.words = self.period_rows * self.row_bytes // 8  # the words of a period
        distinct, kinds = np.unique(values, return_inverse=True)  # levels share their expansion
        expansions = [binary_digits(v) if v < 1 else np.zeros(0, dtype=np.uint8) for v in distinct]
        self.digits = np.zeros((len(distinct), max(map(len, expansions)) + 1), dtype=np.uint8)
        for kind, expansion in enumerate(expansions):
            self.digits[kind, :len(expansion)] = expansion
        self.kind_lengths = np.array([len(e) for e in expansions], dtype=np.int64)  # each kind's number of digits
        column = lane_columns(self.columns, self.words)  # each lane's column, -1 past a row's last column
        real = column >= 0
        self.kinds = np.where(real, kinds[column], 0)  # each lane's kind
        lane_values = np.where(real, values[column], 0.0)
        self.active = (lane_values > 0) & (lane_values < 1)  # p = 0, p = 1 and the lanes past a row: decided at once
        self.lengths = np.where(self.active, self.kind_lengths[self.kinds], 0)  # each lane's number of digits
        self.always = self._mask(lane_values >= 1)
        self.start = self._mask(self.active)
        longest = int(self.lengths.max())  # past it every lane is decided: so many planes at most, and no ties
        self.planes = min(PLANES, longest)
        self._digits: dict[int, tuple] = {}
        self._tables: tuple | None = None

    @staticmethod
    def _mask(lanes: np.ndarray) -> np.ndarray:
        """One boolean per lane (``64 * words``, lane ``64 w + b`` is bit ``b`` of word ``w``) as 64-bit words."""
        return np.packbits(lanes.reshape(-1, 64), axis=1, bitorder="little").view("<u8").reshape(-1).astype(np.uint64)

    def digit(self, j: int) -> tuple:
        """Digit ``j`` (from 0) of every lane: ``(D_j, alive_j)``, ``D_j`` the words of the digits or ``"ones"`` or
        ``"zeros"`` when every active lane has the same digit, ``alive_j`` the words of the lanes whose ``p`` has
        digits after it (``None`` when every active lane has)."""
        if j not in self._digits:
            ones = self.active & (self.digits[self.kinds, j] == 1) if j < self.digits.shape[1] else \
                np.zeros(len(self.active), bool)
            uniform = "ones" if ones[self.active].all() else "zeros" if not ones[self.active].any() else None
            ending = np.any(self.active & (self.lengths <= j + 1))
            self._digits[j] = (uniform or self._mask(ones), self._mask(self.lengths > j + 1) if ending else None)
        return self._digits[j]

    def draw(self, rows: int, rng: np.random.Generator, compiled: bool | None = None) -> np.ndarray:
        """A ``rows x ceil(K / 8)`` array of packed rows. ``compiled``: the compiled path (``True``), the NumPy path
        (``False``), or the compiled path when Numba is installed and loaded or the draw is large (``None``); the
        rows are the same."""
        words = self._output(rows)
        self._fill(words, rng, None, _take_compiled(len(words)) if compiled is None else compiled)
        return self._rows(words, rows)

    def draw_tape(self, rows: int, tape: np.ndarray, compiled: bool) -> tuple[np.ndarray, int]:
        """``draw`` with the random words read from ``tape`` (64-bit words, in order) instead of a generator: the
        rows and the number of words read. For the tests, which choose the words; ``IndexError`` if it runs out."""
        words = self._output(rows)
        read = self._fill(words, None, np.ascontiguousarray(tape, dtype=np.uint64), compiled)
        return self._rows(words, rows), read

    def _output(self, rows: int) -> np.ndarray:
        """The words of output of ``rows`` rows: their bytes, rounded up to whole words."""
        return np.empty(-(-rows * self.row_bytes // 8), dtype=np.uint64)

    def _rows(self, words: np.ndarray, rows: int) -> np.ndarray:
        return words.view(np.uint8)[:rows * self.row_bytes].reshape(rows, self.row_bytes)

    def chunk_words(self) -> int:
        """The words of output of a chunk: whole periods, about ``WORDS_PER_CHUNK``."""
        return max(1, WORDS_PER_CHUNK // self.words) * self.words

    def _fill(self, words: np.ndarray, rng: np.random.Generator | None, tape: np.ndarray | None,
              compiled: bool) -> int:
        """Fills the words of output from ``rng`` or from ``tape``; returns the number of words the tape gave (0
        with a generator)."""
        if compiled:
            kernel = compiled_path()
            if kernel is None:
                raise RuntimeError("the compiled path of a packed draw needs Numba, which does not load here")
            return kernel.draw_packed(words, rng, tape, self.planes, self.tables(), self.chunk_words())
        random, cursor = (random_words(rng), None) if tape is None else _reading(tape)
        for start in range(0, len(words), self.chunk_words()):
            count = min(len(words), start + self.chunk_words()) - start
            words[start:start + count] = self.draw_words(count, random)
        return 0 if cursor is None else cursor[0]

    def tables(self) -> tuple:
        """What the compiled path reads: ``(always, start, digits, alive, lane_kinds, kind_digits, kind_lengths)``.
        ``digits[j]`` and ``alive[j]`` are ``digit(j)`` written out as words (``"ones"``, ``"zeros"`` and ``None``
        too) for ``j`` below ``max(PLANES, min(expansion, 64))``; beyond, the compiled path reads each lane's digit
        from ``kind_digits[lane_kinds[lane]]`` (``kind_digits``: each kind's expansion, ``kind_lengths`` its
        length)."""
        if self._tables is None:
            lengths = self.lengths[self.active]
            table_rows = max(PLANES, min(int(lengths.max()) if lengths.size else 0, 64))
            every = np.full(self.words, np.uint64(0xFFFFFFFFFFFFFFFF))
            nothing = np.zeros(self.words, dtype=np.uint64)
            digits, alive = [], []
            for j in range(table_rows):
                d, a = self.digit(j)
                digits.append(d if not isinstance(d, str) else every if d == "ones" else nothing)
                alive.append(every if a is None else a)
            self._tables = (self.always, self.start, np.array(digits), np.array(alive), self.kinds.astype(np.int64),
                            self.digits, self.kind_lengths)
        return self._tables

    def draw_words(self, count: int, random) -> np.ndarray:
        """``count`` words of output, from the start of a period; ``random(k)`` gives ``k`` random 64-bit words."""
        ones, undecided = compare_planes(self, count, lambda: random(count))
        tied = np.flatnonzero(undecided)
        if tied.size:
            continue_ties(self, ones, tied, undecided[tied], self.planes, random)
        return ones


def compare_planes(sampler: PackedBernoulli, count: int, plane) -> tuple[np.ndarray, np.ndarray]:
    """The first ``sampler.planes`` digits for ``count`` words of output from the start of a period: ``(ones,
    undecided)``. ``plane()`` gives each digit's random words, ``count`` words of "differs here" bits."""
    periods = -(-count // sampler.words)
    shape = (periods, sampler.words)  # whole periods, so that each lane's words apply by broadcasting
    ones, undecided = np.empty(shape, dtype=np.uint64), np.empty(shape, dtype=np.uint64)
    ones[:], undecided[:] = sampler.always, sampler.start
    flat_ones, flat_undecided = ones.reshape(-1), undecided.reshape(-1)
    flat_ones[count:], flat_undecided[count:] = 0, 0  # past the last word: nothing is drawn
    whole = count == periods * sampler.words
    differs = None if whole else np.zeros(periods * sampler.words, dtype=np.uint64)  # a last period cut short
    decided, scratch = np.empty(shape, dtype=np.uint64), np.empty(shape, dtype=np.uint64)
    for j in range(sampler.planes):
        digits, alive = sampler.digit(j)
        if whole:
            np.bitwise_and(plane().reshape(shape), undecided, out=decided)
        else:
            differs[:count] = plane()
            np.bitwise_and(differs.reshape(shape), undecided, out=decided)
        if isinstance(digits, str):
            if digits == "ones":
                np.bitwise_or(ones, decided, out=ones)
        else:
            np.bitwise_and(decided, digits, out=scratch)
            np.bitwise_or(ones, scratch, out=ones)
        np.bitwise_xor(undecided, decided, out=undecided)
        if alive is not None:
            np.bitwise_and(undecided, alive, out=undecided)  # past p's last digit a tie is U >= p: 0
    return flat_ones[:count], flat_undecided[:count]


def continue_ties(sampler: PackedBernoulli, flat_ones: np.ndarray, tied: np.ndarray, lanes: np.ndarray, position: int,
                  random) -> None:
    """Goes on from digit ``position`` for the words ``tied`` (indices into the words of output, from the start of a
    period) whose lanes ``lanes`` are still undecided, one digit at a time, until no lane is left; ``random(k)`` gives
    ``k`` random 64-bit words. Only these words draw: about ``64 * 2^-PLANES`` of them per word of output in all."""
    while tied.size:
        digits, alive = sampler.digit(position)
        within = tied % sampler.words  # each word's place in its period
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


def lane_columns(columns: int, words: int) -> np.ndarray:
    """The column of each lane of a period of ``words`` words of packed rows of ``columns`` bits (lane ``64 w + b``
    is bit ``b`` of word ``w``, read as the machine's words), or -1 for the bits after a row's last column."""
    row_bytes = (columns + 7) // 8
    lane = np.arange(64 * words)
    byte_in_word = (lane % 64) // 8
    if sys.byteorder == "big":
        byte_in_word = 7 - byte_in_word
    byte = 8 * (lane // 64) + byte_in_word  # the byte of the period
    column = 8 * (byte % row_bytes) + 7 - lane % 8  # packbits: a byte's first column is its most significant bit
    return np.where(column < columns, column, -1)


def _reading(tape: np.ndarray) -> tuple[Callable[[int], np.ndarray], list]:
    """``random(k)`` reading ``tape`` in order, and ``[the number of words read]``."""
    cursor = [0]

    def random(count: int) -> np.ndarray:
        if cursor[0] + count > len(tape):
            raise IndexError("the tape of random words ran out")
        cursor[0] += count
        return tape[cursor[0] - count:cursor[0]].copy()

    return random, cursor


def _compiled_off() -> bool:
    return os.environ.get("LDPSPEC_COMPILED", "1") == "0"


def _take_compiled(words: int) -> bool:
    """Whether a packed draw of ``words`` words of output takes the compiled path: when it is loaded, or when the draw
    is large enough to load it (``COMPILED_WORDS``) and it loads; never when ``LDPSPEC_COMPILED=0``."""
    if _compiled_off():
        return False
    if compiled_path.cache_info().currsize or words >= COMPILED_WORDS:  # loaded (or tried) already, or worth loading
        return compiled_path() is not None
    return False


def prepare_compiled() -> bool:
    """Loads the compiled path of packed draws now (Numba's import, and the compiled code: from Numba's cache, or
    compiled the first time on a machine), so that every packed draw after it takes that path, and a timed draw does
    not include the loading. ``False`` where it is off (``LDPSPEC_COMPILED=0``) or does not load."""
    return not _compiled_off() and compiled_path() is not None


@functools.cache
def compiled_path():
    """The compiled path of ``PackedBernoulli`` (the module ``reference.twin_compiled``), loaded and run once on a
    tiny draw; ``None`` when Numba does not import, or with a warning when its code does not compile here (then the
    NumPy path draws, with the same bits)."""
    try:
        from ldpspec.reference import twin_compiled  # Numba is optional: imported on first use
    except ImportError:
        return None
    if twin_compiled.PLANES != PLANES:
        raise ImportError(f"twin_compiled.PLANES is {twin_compiled.PLANES}, twin_sampling.PLANES {PLANES}: make them "
                          "equal")
    try:
        sampler = PackedBernoulli([0.5] * 64)
        twin_compiled.draw_packed(np.empty(1, dtype=np.uint64), None, np.zeros(1, dtype=np.uint64), sampler.planes,
                                  sampler.tables(), 1)
    except Exception as error:  # noqa: BLE001 - Numba's errors of typing and compiling have no common base here
        warnings.warn(f"the compiled path of packed draws does not compile here ({type(error).__name__}: {error}); "
                      "the NumPy path draws instead, with the same bits", RuntimeWarning, stacklevel=2)
        return None
    return twin_compiled


# --- items packed to the bits they need -------------------------------------------------------------------------------

ITEMS_PER_CHUNK = 1 << 12
"""Items packed or unpacked together (a multiple of 8, so that every chunk starts on a byte): the temporaries stay
at a few hundred kilobytes, below the packed reports of a million users."""


PUT_ITEMS = 2048
"""Items packed together by ``PackedItems.put`` (a multiple of 8): its temporaries stay under 100 KB (32 KB for items
of 9 to 16 bits)."""


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
        low_bytes = (self.bits + 7) // 8
        for first in range(0, len(values), PUT_ITEMS):  # some tens of kilobytes of temporaries at a time
            wide = values[first:first + PUT_ITEMS].astype("<u4")  # little-endian: the least significant byte first
            low_first = np.unpackbits(wide.view(np.uint8).reshape(-1, 4)[:, :low_bytes], axis=1, bitorder="little")
            packed = np.packbits(low_first[:, self.bits - 1::-1])  # each item's low `bits` bits, highest first
            offset = (start + first) * self.bits // 8
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

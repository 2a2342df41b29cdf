"""The compiled path of ``PackedBernoulli`` (``reference.twin_sampling``): the same draw, compiled by Numba.

Numba is optional (the ``bench`` extra installs it; nothing else needs it). ``twin_sampling.compiled_path()`` imports
this module when a large packed draw or ``prepare_compiled`` asks for it, and only if Numba imports; without it the
NumPy path draws.
The two paths are one algorithm, written twice: they take the same 64-bit words in the same order (the order
``PackedBernoulli`` documents) and return the same rows (``tests/twin/test_packed_bernoulli.py`` compares them on
chosen words and on real generators). The compiled path saves the NumPy path's temporaries: each word of output goes
through its digits in registers and is written in place.

**The words.** ``random_words(rng)`` of the NumPy path is the bit generator's ``next_uint64``; here it is called
directly, or, for NumPy's default bit generator ``PCG64``, computed here: PCG64 is a 128-bit linear congruential
generator, ``s <- M s + c (mod 2^128)``, each word ``rotr64(hi(s) xor lo(s), hi(s) >> 58)`` of the state after the
step (O'Neill's XSL-RR, NumPy's ``pcg64_next64``). Eight states eight steps apart leap together by ``M^8`` and
``c (M^7 + ... + M + 1)``, which gives the same words in the same order, eight at a time; the generator's state is
read before the draw and written back after it, under the bit generator's lock. The tests compare these words with
NumPy's own (and the state after them).
"""

from __future__ import annotations

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.cpython.unsafe.numbers import trailing_zeros
from numba.extending import intrinsic
from numba.np.random.generator_core import next_uint64

PLANES = 8
"""``twin_sampling.PLANES``, written here so that the compiled loop knows it (Numba keeps a module's numbers as
constants of the code it caches); ``twin_sampling.compiled_path`` refuses a mismatch. This module imports nothing of
the project: the NumPy path loads it, never the other way."""

TAPE, GENERATOR, INLINE_PCG64 = 0, 1, 2
"""Where the words come from: a tape of given words, the bit generator's ``next_uint64``, or PCG64 computed here."""

_MULTIPLIER = 0x2360ED051FC65DA44385DF649FCCF645  # PCG64's multiplier (PCG_DEFAULT_MULTIPLIER_128)
_M_HI, _M_LO = np.uint64(_MULTIPLIER >> 64), np.uint64(_MULTIPLIER & (2 ** 64 - 1))
_M8 = pow(_MULTIPLIER, 8, 2 ** 128)
_M8_HI, _M8_LO = np.uint64(_M8 >> 64), np.uint64(_M8 & (2 ** 64 - 1))
_ONE = np.uint64(1)
_DUMMY = np.random.default_rng(0)  # the generator argument when the words come from elsewhere (never drawn from)


@intrinsic
def _multiply_add(typingctx, a_hi, a_lo, m_hi, m_lo, c_hi, c_lo):
    """``a * m + c (mod 2^128)`` of 128-bit numbers given as (high, low) 64-bit halves, as a (high, low) tuple."""
    signature = types.UniTuple(types.uint64, 2)(*([types.uint64] * 6))

    def codegen(context, builder, sig, args):
        wide = ir.IntType(128)

        def join(high, low):
            return builder.or_(builder.shl(builder.zext(high, wide), ir.Constant(wide, 64)), builder.zext(low, wide))

        result = builder.add(builder.mul(join(args[0], args[1]), join(args[2], args[3])), join(args[4], args[5]))
        narrow = ir.IntType(64)
        high = builder.trunc(builder.lshr(result, ir.Constant(wide, 64)), narrow)
        return context.make_tuple(builder, sig.return_type, (high, builder.trunc(result, narrow)))

    return signature, codegen


@njit(cache=True)
def _xsl_rr(high, low):
    """PCG64's output of a state: ``rotr64(high xor low, high >> 58)``."""
    x = high ^ low
    rotation = high >> np.uint64(58)
    return (x >> rotation) | (x << ((np.uint64(64) - rotation) & np.uint64(63)))


@njit(cache=True)
def _step(high, low, c_hi, c_lo):
    """One step of PCG64's state."""
    return _multiply_add(high, low, _M_HI, _M_LO, c_hi, c_lo)


@njit(cache=True)
def _leap(high, low, c8_hi, c8_lo):
    """Eight steps of PCG64's state at once: ``s <- M^8 s + c8``."""
    return _multiply_add(high, low, _M8_HI, _M8_LO, c8_hi, c8_lo)


@njit(cache=True)
def _pcg64(state, into) -> None:
    """Fills ``into`` with PCG64's next words from ``state`` (``[state high, state low, increment high, increment
    low]``), which it advances: eight states eight steps apart, each leaping eight steps at a time."""
    count = into.shape[0]
    s_hi, s_lo, c_hi, c_lo = state[0], state[1], state[2], state[3]
    k = 0
    if count >= 16:
        c8_hi, c8_lo = c_hi, c_lo  # c (M^7 + ... + M + 1), by Horner
        for _ in range(7):
            c8_hi, c8_lo = _step(c8_hi, c8_lo, c_hi, c_lo)
        h0, l0 = _step(s_hi, s_lo, c_hi, c_lo)  # the states 1 to 8 steps on
        h1, l1 = _step(h0, l0, c_hi, c_lo)
        h2, l2 = _step(h1, l1, c_hi, c_lo)
        h3, l3 = _step(h2, l2, c_hi, c_lo)
        h4, l4 = _step(h3, l3, c_hi, c_lo)
        h5, l5 = _step(h4, l4, c_hi, c_lo)
        h6, l6 = _step(h5, l5, c_hi, c_lo)
        h7, l7 = _step(h6, l6, c_hi, c_lo)
        while k + 8 <= count:
            into[k] = _xsl_rr(h0, l0)
            into[k + 1] = _xsl_rr(h1, l1)
            into[k + 2] = _xsl_rr(h2, l2)
            into[k + 3] = _xsl_rr(h3, l3)
            into[k + 4] = _xsl_rr(h4, l4)
            into[k + 5] = _xsl_rr(h5, l5)
            into[k + 6] = _xsl_rr(h6, l6)
            into[k + 7] = _xsl_rr(h7, l7)
            s_hi, s_lo = h7, l7
            h0, l0 = _leap(h0, l0, c8_hi, c8_lo)
            h1, l1 = _leap(h1, l1, c8_hi, c8_lo)
            h2, l2 = _leap(h2, l2, c8_hi, c8_lo)
            h3, l3 = _leap(h3, l3, c8_hi, c8_lo)
            h4, l4 = _leap(h4, l4, c8_hi, c8_lo)
            h5, l5 = _leap(h5, l5, c8_hi, c8_lo)
            h6, l6 = _leap(h6, l6, c8_hi, c8_lo)
            h7, l7 = _leap(h7, l7, c8_hi, c8_lo)
            k += 8
    while k < count:
        s_hi, s_lo = _step(s_hi, s_lo, c_hi, c_lo)
        into[k] = _xsl_rr(s_hi, s_lo)
        k += 1
    state[0], state[1] = s_hi, s_lo


@njit(cache=True)
def _words(source, rng, tape, state, cursor, into) -> None:
    """Fills ``into`` with the next random words of ``source``; ``cursor[0]`` counts the words read from a tape."""
    if source == TAPE:
        first = cursor[0]
        if first + into.shape[0] > tape.shape[0]:
            raise IndexError("the tape of random words ran out")
        into[:] = tape[first:first + into.shape[0]]
        cursor[0] = first + into.shape[0]
    elif source == INLINE_PCG64:
        _pcg64(state, into)
    else:
        bitgen = rng.bit_generator
        for i in range(into.shape[0]):
            into[i] = next_uint64(bitgen)


@njit(cache=True)
def _late_digits(decided, undecided, w, position, lane_kinds, kind_digits, kind_lengths):
    """``(decided & D, undecided & alive)`` at a digit past the tables, lane by lane from each lane's kind."""
    ones, alive = np.uint64(0), np.uint64(0)
    lanes = decided | undecided
    while lanes != 0:
        lane = np.int64(trailing_zeros(lanes))
        bit = _ONE << np.uint64(lane)
        lanes ^= bit
        kind = lane_kinds[w * 64 + lane]
        if position < kind_lengths[kind] and kind_digits[kind, position]:
            ones |= bit
        if kind_lengths[kind] > position + 1:
            alive |= bit
    return decided & ones, undecided & alive


@njit(cache=True, inline="always")
def _planes(planes, differs, count, always, start, digits, alive, out, lanes) -> None:
    """Each word of a chunk through its first ``planes`` digits in registers, written in place; its lanes still
    undecided into ``lanes``."""
    words = always.shape[0]
    w = 0  # the word's place in its period (a chunk starts a period)
    for i in range(count):
        decided_ones, undecided = always[w], start[w]
        for j in range(planes):
            decided = differs[j * count + i] & undecided
            decided_ones |= decided & digits[j, w]
            undecided = (undecided ^ decided) & alive[j, w]
        out[i], lanes[i] = decided_ones, undecided
        w = 0 if w == words - 1 else w + 1


@njit(cache=True)
def _draw(source, rng, tape, state, cursor, planes, always, start, digits, alive, lane_kinds, kind_digits,
          kind_lengths, chunk_words, out) -> None:
    """Fills the words of output ``out`` chunk by chunk, as ``PackedBernoulli.draw_words`` does: ``planes`` digits
    for every word (the words of digit 0 for the whole chunk first), then the tied words, one word each per digit
    until none is left. The lanes' words (``always``, ``start``, ``digits``, ``alive``) are a period's."""
    total = out.shape[0]
    words = always.shape[0]
    table_rows = digits.shape[0]
    differs = np.empty(PLANES * chunk_words, dtype=np.uint64)
    tied = np.empty(chunk_words, dtype=np.int64)  # the words with a lane still undecided, in order
    lanes = np.empty(chunk_words, dtype=np.uint64)  # and those lanes
    for first in range(0, total, chunk_words):
        count = min(total, first + chunk_words) - first
        for j in range(planes):
            _words(source, rng, tape, state, cursor, differs[j * count:(j + 1) * count])
        if planes == PLANES:  # the same loop, unrolled where the number of digits is known when compiling
            _planes(PLANES, differs, count, always, start, digits, alive, out[first:first + count], lanes)
        else:
            _planes(planes, differs, count, always, start, digits, alive, out[first:first + count], lanes)
        found = 0
        for i in range(count):  # the tied words, in order (without a branch: a loop apart is faster)
            undecided = lanes[i]
            tied[found], lanes[found] = i, undecided
            found += undecided != 0
        position = planes
        while found:  # the tied words, one random word each per digit
            _words(source, rng, tape, state, cursor, differs[:found])
            kept = 0
            for k in range(found):
                i, undecided = tied[k], lanes[k]
                w = i % words
                decided = differs[k] & undecided
                undecided ^= decided
                if position < table_rows:
                    out[first + i] |= decided & digits[position, w]
                    undecided &= alive[position, w]
                else:
                    decided, undecided = _late_digits(decided, undecided, w, position, lane_kinds, kind_digits,
                                                      kind_lengths)
                    out[first + i] |= decided
                tied[kept], lanes[kept] = i, undecided
                kept += undecided != 0
            found = kept
            position += 1


def draw_packed(out: np.ndarray, rng: np.random.Generator | None, tape: np.ndarray | None, planes: int,
                tables: tuple, chunk_words: int) -> int:
    """Fills the words of output ``out`` (64-bit words) of the sampler whose ``planes`` and ``tables()`` are given,
    chunks of ``chunk_words`` words, the random words from ``rng`` or from ``tape``; returns the number of words read
    from the tape (0 with a generator)."""
    cursor = np.zeros(1, dtype=np.int64)
    arguments = (cursor, planes, *tables, chunk_words, out)
    if tape is not None:
        _draw(TAPE, _DUMMY, tape, np.zeros(4, dtype=np.uint64), *arguments)
        return int(cursor[0])
    bit_generator = rng.bit_generator
    with bit_generator.lock:
        if type(bit_generator) is np.random.PCG64:
            whole = bit_generator.state
            pcg = whole["state"]
            state = np.array([pcg["state"] >> 64, pcg["state"] & (2 ** 64 - 1), pcg["inc"] >> 64,
                              pcg["inc"] & (2 ** 64 - 1)], dtype=np.uint64)
            _draw(INLINE_PCG64, _DUMMY, np.zeros(0, dtype=np.uint64), state, *arguments)
            pcg["state"] = (int(state[0]) << 64) | int(state[1])
            bit_generator.state = whole
        else:
            _draw(GENERATOR, rng, np.zeros(0, dtype=np.uint64), np.zeros(4, dtype=np.uint64), *arguments)
    return 0


def pcg64_words(rng: np.random.Generator, count: int) -> np.ndarray:
    """``count`` words of a PCG64 generator computed here (and its state advanced): for the tests, which compare them
    with ``rng.integers(0, 2**64, count, dtype=np.uint64)`` of a copy."""
    words = np.empty(count, dtype=np.uint64)
    whole = rng.bit_generator.state
    pcg = whole["state"]
    state = np.array([pcg["state"] >> 64, pcg["state"] & (2 ** 64 - 1), pcg["inc"] >> 64, pcg["inc"] & (2 ** 64 - 1)],
                     dtype=np.uint64)
    _pcg64(state, words)
    pcg["state"] = (int(state[0]) << 64) | int(state[1])
    rng.bit_generator.state = whole
    return words

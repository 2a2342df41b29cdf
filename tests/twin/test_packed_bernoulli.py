"""The packed bit-sliced sampler (``reference.twin_sampling.PackedBernoulli``) is exact: enumerating every pattern of
its random bits, each lane is 1 with exactly the probability of the first digits of its ``p``, and what is left
undecided is exactly the mass of the one pattern that ties; the tied lanes continue with the same rule one at a
time, and land in the right place of the packed layout.

Its two paths, NumPy and compiled (``reference.twin_compiled``, where Numba is installed), are one algorithm: the
enumerations run through both on the same words (a tape), every word the NumPy path draws is replayed to the
compiled path, and on real generators of every kind both give the same rows and leave the generator in the same
state."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from ldpspec.reference import twin_sampling as sampling
from ldpspec.reference.twin_sampling import (
    PLANES,
    PackedBernoulli,
    binary_digits,
    compare_planes,
    continue_ties,
    random_words,
)
from ldpspec.spec.errors import InvalidParameter

ALL = np.uint64(2 ** 64 - 1)
PATHS = [False, pytest.param(True, id="compiled", marks=pytest.mark.skipif(
    sampling.compiled_path() is None, reason="the compiled path needs Numba"))]
"""Both paths of a packed draw: NumPy, and compiled where Numba imports."""
needs_numba = pytest.mark.skipif(sampling.compiled_path() is None, reason="the compiled path needs Numba")

PROBABILITIES = [
    0.0, 1.0, 0.5, 0.75, 0.25 + 2 ** -7, 2 ** -8, 2 ** -9 + 2 ** -12,  # expansions ending before, at, after 8 digits
    1 / (1 + np.e), 0.3, 1 / 3, 1e-300, 5e-324, 1 - 2 ** -53, np.e / (np.e + 2),
    1e-5, 3e-20,  # expansions of 69 and 117 digits, with 1s past the 64th
]


COLUMNS = 123
"""The columns of the samplers of the enumerations: rows of 16 bytes (a period of two words), five bits past the last
column."""


def SAMPLER(p: float) -> PackedBernoulli:  # noqa: N802 - a constant's shape, built for each p
    """Three columns of ``p``, then 120 of 0.3 (54 digits) beside them, in rows of two words."""
    sampler = PackedBernoulli([p] * 3 + [0.3] * (COLUMNS - 3))
    assert sampler.words == 2 and sampler.period_rows == 1
    return sampler


def first_digits_mass(p: float, digits: int, offset: int = 0) -> Fraction:
    """The probability that ``U < p`` is decided within digits ``offset + 1 .. offset + digits`` given a tie on the
    first ``offset``: the sum over those digits ``j`` that are 1 of ``2^-(j - offset)``."""
    expansion = binary_digits(p) if p < 1 else None
    if expansion is None:
        return Fraction(1)
    return sum((Fraction(1, 2 ** (j - offset + 1)) for j in range(offset, min(offset + digits, len(expansion)))
                if expansion[j]), Fraction(0))


def test_binary_digits_are_the_exact_expansion():
    for p in PROBABILITIES:
        if p < 1:
            digits = binary_digits(p)
            assert sum(Fraction(int(d), 2 ** (j + 1)) for j, d in enumerate(digits)) == Fraction(p)
            assert len(digits) == 0 or digits[-1] == 1


@pytest.mark.parametrize("p", PROBABILITIES)
def test_every_pattern_of_the_planes_decides_exactly_the_mass_of_the_first_digits(p):
    sampler = SAMPLER(p)
    planes = PLANES
    patterns = 2 ** planes
    row = iter(range(planes))

    def plane():  # row r's lanes all draw the bits of r: "differs" at digit j when bit j of r is 1
        j = next(row)
        bits = (np.arange(patterns) >> j) & 1
        return np.repeat(np.where(bits == 1, ALL, np.uint64(0)), sampler.words)  # a row is a period of two words

    ones, undecided = compare_planes(sampler, patterns * sampler.words, plane)
    bits = np.unpackbits(ones.view(np.uint8).reshape(patterns, -1), axis=1)
    tied = np.unpackbits(undecided.view(np.uint8).reshape(patterns, -1), axis=1)
    assert not tied[:, COLUMNS:].any() and not bits[:, COLUMNS:].any()  # the lanes past a row's last column stay 0
    for column in range(3):
        assert Fraction(int(bits[:, column].sum()), patterns) == first_digits_mass(p, planes)
        expansion_left = 0 < p < 1 and len(binary_digits(p)) > planes
        assert int(tied[:, column].sum()) == (1 if expansion_left else 0)  # only the all-ties pattern, mass 2^-planes
        if expansion_left:
            assert tied[0, column] == 1


@pytest.mark.parametrize("p, position", [(p, position) for p in PROBABILITIES for position in (0, 3, PLANES)
                                         if 0 < p < 1 and position < len(binary_digits(p))])  # a tie can remain
def test_every_pattern_of_a_tied_word_decides_exactly_the_mass_of_the_next_digits(p, position):
    """Words whose lanes are tied on ``position`` digits go on alone: with row ``r``'s lanes drawing the bits of
    ``r`` from then on, each column decides to 1 on exactly the mass of ``p``'s next ``depth`` digits."""
    sampler = SAMPLER(p)
    depth, words = 10, sampler.words
    rows = 2 ** depth
    step = iter(range(10 ** 6))

    def random(count):  # at step t the words left are those of the rows with no "differs" among bits 0 .. t-1
        t = next(step)
        pending = [r for r in range(rows) if r % 2 ** t == 0] if t < depth else [0]
        if position + t >= len(binary_digits(p)):  # past p's last digit every tie is 0: no word goes on
            pending = []
        assert count == len(pending) or (count <= 1 and t >= depth)
        return np.array([((r >> t) & 1) if t < depth else 1 for r in pending], dtype=np.uint64)[:count] * \
            np.uint64(2 ** 64 - 1)

    flat = np.zeros(rows * words, dtype=np.uint64)
    only_p = np.packbits(np.arange(64 * words) < 3).view(np.uint64)[0]  # the three lanes of p in word 0, tied
    continue_ties(sampler, flat, np.arange(rows) * words, np.full(rows, only_p), position, random)
    bits = np.unpackbits(flat.view(np.uint8).reshape(rows, -1), axis=1)
    assert not bits[:, 3:].any()
    for column in range(3):  # row 0 ties on all `depth` digits (mass 2^-depth) and is left out
        assert Fraction(int(bits[1:, column].sum()), rows) == first_digits_mass(p, depth, position)


class Constant:
    """A generator whose words are all zeros for the first ``zeros`` calls, then all ones; it keeps every word it
    gave (``given``), for the compiled path to read the same words."""

    def __init__(self, zeros: int):
        self.calls, self.zeros, self.given = 0, zeros, []

    def integers(self, low, high, size, dtype):
        assert (low, high, dtype) == (0, 2 ** 64, np.uint64)
        self.calls += 1
        self.given.append(np.full(size, 0 if self.calls <= self.zeros else ALL, dtype=np.uint64))
        return self.given[-1]


@pytest.mark.parametrize("zeros", [0, 3, PLANES, PLANES + 5, 64, 66, 67, 70, 100, 1100])
def test_every_lane_lands_in_its_place_of_the_packed_layout(zeros):
    """No "differs" for ``zeros`` digits, then at once: every lane is its p's digit ``zeros + 1``, whether decided
    in the planes or one at a time after them (past 64 digits the compiled path reads each lane's digit apart; past
    1074 every expansion has ended). The compiled path, given the same words, gives the same rows and reads them
    all."""
    rng = np.random.default_rng(5)
    probabilities = rng.choice(PROBABILITIES, size=131)
    sampler = PackedBernoulli(probabilities)
    expected = []
    for p in probabilities:
        digits = binary_digits(p) if p < 1 else None
        expected.append(1 if digits is None else int(digits[zeros]) if zeros < len(digits) else 0)
    generator = Constant(zeros)
    packed = sampler.draw(3, generator, compiled=False)
    assert packed.shape == (3, 17) and packed.flags.c_contiguous
    assert (packed == np.packbits(np.array(expected, dtype=np.uint8))).all()
    if sampling.compiled_path() is not None:
        tape = np.concatenate(generator.given)
        words = -(-3 * 17 // 8)  # 51 bytes: 7 words, the last one running 5 bytes past the rows
        assert len(tape) > words * PLANES if zeros >= PLANES else len(tape) == words * PLANES  # ties, or none
        replayed, read = sampler.draw_tape(3, tape, compiled=True)
        assert read == len(tape) and (replayed == packed).all()


def planes_tape(rows: int, words: int) -> list:
    """The planes' words of one chunk in which row ``r``'s lanes all differ at digit ``j`` when bit ``j`` of ``r`` is
    1 (digit after digit, each for every word of output in order)."""
    return [ALL if (r >> j) & 1 else np.uint64(0) for j in range(PLANES) for r in range(rows) for _ in range(words)]


@pytest.mark.parametrize("compiled", PATHS)
@pytest.mark.parametrize("p", PROBABILITIES)
def test_every_pattern_of_the_planes_through_a_whole_draw(p, compiled):
    """Every pattern of the planes' words, through ``draw`` (either path): the row whose lanes first differ at digit
    ``j`` has every lane at its ``p``'s digit ``j``, so over the patterns each column is 1 exactly the mass of its
    first ``PLANES`` digits; the one row that differs nowhere goes on, and its ties (here decided at once, at digit
    ``PLANES``) read exactly one more word per word still tied."""
    sampler = SAMPLER(p)
    rows = 2 ** PLANES
    tape = planes_tape(rows, sampler.words)
    tied_words = 2  # row 0 has a lane of 0.3 (54 digits) in each of its two words
    packed, read = sampler.draw_tape(rows, np.array(tape + [ALL] * 64, dtype=np.uint64), compiled)
    assert read == len(tape) + tied_words
    bits = np.unpackbits(packed, axis=1)[:, :COLUMNS]
    for r in range(1, rows):
        first = (r & -r).bit_length() - 1  # the digit where row r first differs
        for column, q in ((0, p), (3, 0.3)):
            digits = binary_digits(q) if q < 1 else None
            assert bits[r, column] == (1 if digits is None else int(digits[first]) if first < len(digits) else 0)
    for column in range(3):  # rows 1 .. 255: every pattern but the tie, whose mass is 2^-PLANES
        assert Fraction(int(bits[1:, column].sum()), rows) == first_digits_mass(p, PLANES) - Fraction(p == 1, rows)
    digits = binary_digits(p) if p < 1 else None
    assert bits[0, 0] == (1 if digits is None else int(digits[PLANES]) if PLANES < len(digits) else 0)


@pytest.mark.parametrize("compiled", PATHS)
@pytest.mark.parametrize("p", [p for p in PROBABILITIES if 0 < p < 1 and len(binary_digits(p)) > PLANES + 10])
def test_every_pattern_of_the_ties_through_a_whole_draw(p, compiled):
    """Every pattern of ``depth`` digits after the planes, through ``draw`` (either path): every row ties on the
    planes; at each digit after them, the words still tied (those of the rows that have not differed yet, in order)
    read one word each, and row ``r`` differs at digit ``PLANES + t`` when bit ``t`` of ``r`` is 1. Each column is 1
    on exactly the mass of ``p``'s ``depth`` digits after the planes, and every word of the tape is read."""
    sampler = SAMPLER(p)  # 0.3 and these p have more than PLANES + 10 digits
    depth, words = 10, sampler.words
    rows = 2 ** depth
    tape = [np.uint64(0)] * (PLANES * rows * words)
    for t in range(depth):
        tape += [ALL if (r >> t) & 1 else np.uint64(0) for r in range(0, rows, 2 ** t) for _ in range(words)]
    tape += [ALL] * words  # row 0, tied on every digit, is decided at digit PLANES + depth
    packed, read = sampler.draw_tape(rows, np.array(tape, dtype=np.uint64), compiled)
    assert read == len(tape)
    bits = np.unpackbits(packed, axis=1)[:, :COLUMNS]
    for column in range(3):
        assert Fraction(int(bits[1:, column].sum()), rows) == first_digits_mass(p, depth, PLANES)
        assert bits[0, column] == binary_digits(p)[PLANES + depth]


@pytest.mark.parametrize("compiled", PATHS)
def test_short_expansions_take_fewer_planes_and_never_tie(compiled):
    """When no ``p`` has more than two digits (1/4, 3/4, 1/2, 0, 1), two planes decide every lane: every pattern of
    their words gives each lane its ``p``'s digit where it first differs (0 where it differs nowhere: ``U >= p``),
    each column is 1 on exactly ``p`` of the patterns, and no other word is read."""
    probabilities = [0.25, 0.75, 0.5, 0.0, 1.0] * 25 + [0.25, 0.75, 0.5]  # 128 columns: rows of two words
    sampler = PackedBernoulli(probabilities)
    assert sampler.planes == 2 and sampler.words == 2
    rows = 2 ** 2
    tape = [ALL if (r >> j) & 1 else np.uint64(0) for j in range(2) for r in range(rows) for _ in range(2)]
    packed, read = sampler.draw_tape(rows, np.array(tape, dtype=np.uint64), compiled)
    assert read == len(tape)
    bits = np.unpackbits(packed, axis=1)
    for column, p in enumerate(probabilities):
        digits = binary_digits(p) if p < 1 else None
        for r in range(rows):
            first = (r & -r).bit_length() - 1 if r else None
            expected = 1 if digits is None else 0 if first is None or first >= len(digits) else int(digits[first])
            assert bits[r, column] == expected
        assert Fraction(int(bits[:, column].sum()), rows) == Fraction(p)
    certain = PackedBernoulli([0.0, 1.0] * 6)  # nothing random: no plane, no word read
    packed, read = certain.draw_tape(3, np.zeros(0, dtype=np.uint64), compiled)
    assert certain.planes == 0 and read == 0 and (packed == np.packbits([0, 1] * 6)).all()


def words_of(rng: np.random.Generator, count: int) -> np.ndarray:
    return rng.integers(0, 2 ** 64, count, dtype=np.uint64)


@needs_numba
@pytest.mark.parametrize("seed", range(6))
def test_both_paths_read_the_same_words_and_give_the_same_rows(seed):
    """Random probabilities (many with long ties: random words with runs of zeros, which tie every lane for a
    while), rows across chunks: the words the NumPy path draws, replayed to the compiled path, give the same rows,
    and it reads them all."""
    rng = np.random.default_rng(seed)
    columns = int(rng.integers(1, 300))
    sampler = PackedBernoulli(rng.choice(PROBABILITIES + list(rng.random(4)), size=columns))
    rows = int(sampler.chunk_words() * 8 // sampler.row_bytes * 1.5) + int(rng.integers(0, 50))  # chunks and a half

    class Recorder:
        given = []

        def integers(self, low, high, size, dtype):
            words = words_of(rng, size)
            words[rng.random(size) < 0.3] = 0  # a third of the words differ nowhere
            self.given.append(words)
            return words

    recorder = Recorder()
    packed = sampler.draw(rows, recorder, compiled=False)
    tape = np.concatenate(recorder.given)
    replayed, read = sampler.draw_tape(rows, tape, compiled=True)
    assert read == len(tape) and (replayed == packed).all()
    with pytest.raises(IndexError, match="ran out"):
        sampler.draw_tape(rows, tape[:-1], compiled=True)


@needs_numba
@pytest.mark.parametrize("bit_generator", [np.random.PCG64, np.random.PCG64DXSM, np.random.MT19937,
                                           np.random.SFC64, np.random.Philox])
def test_both_paths_give_the_same_rows_from_a_generator(bit_generator):
    """On every kind of bit generator (PCG64's words computed by the compiled path itself, the others' read from
    the generator), both paths give the same rows and leave the generator in the same state; the automatic choice
    gives them too."""
    sampler = PackedBernoulli(np.random.default_rng(1).choice(PROBABILITIES, size=203))
    rows = sampler.chunk_words() * 8 // sampler.row_bytes * 2 + 7  # three chunks, the last one short
    draws, states = [], []
    for compiled in (False, True, None):
        rng = np.random.Generator(bit_generator(17))
        draws.append(sampler.draw(rows, rng, compiled=compiled))
        states.append(str(rng.bit_generator.state))
        states[-1] += str(words_of(rng, 3))
    assert (draws[0] == draws[1]).all() and (draws[0] == draws[2]).all()
    assert states[0] == states[1] == states[2]


@needs_numba
@pytest.mark.parametrize("count", [0, 1, 7, 15, 16, 17, 100, 4099])
def test_the_compiled_pcg64_gives_numpys_words(count):
    """PCG64's words as the compiled path computes them (eight states leaping together, then one at a time) are
    NumPy's, and the generator's state after them is NumPy's."""
    from ldpspec.reference import twin_compiled

    ours, theirs = np.random.default_rng(2 ** 70 + count), np.random.default_rng(2 ** 70 + count)
    words_of(ours, 5), words_of(theirs, 5)
    assert (twin_compiled.pcg64_words(ours, count) == words_of(theirs, count)).all()
    assert ours.bit_generator.state == theirs.bit_generator.state


def test_random_words_have_64_random_bits_for_every_bit_generator():
    """``random_words`` are the bit generator's 64-bit words: for MT19937 ``random_raw`` gives 32 bits and 32 zeros
    per word, which would tie every lane of the upper half of a word at every digit (its bits never 1)."""
    for bit_generator in (np.random.PCG64, np.random.MT19937, np.random.SFC64, np.random.Philox):
        words = random_words(np.random.Generator(bit_generator(3)))(4096)
        high = np.unpackbits((words >> np.uint64(32)).astype(np.uint32).view(np.uint8))
        assert abs(high.mean() - 0.5) < 0.01, bit_generator  # 131,072 bits: 0.01 is 7 standard deviations


def test_the_compiled_path_is_taken_when_loaded_or_large(monkeypatch):
    """The automatic choice: the compiled path once it is loaded, or for a draw of ``COMPILED_WORDS`` words; never
    when ``LDPSPEC_COMPILED=0``."""
    monkeypatch.setenv("LDPSPEC_COMPILED", "0")
    assert not sampling._take_compiled(sampling.COMPILED_WORDS) and not sampling.prepare_compiled()
    monkeypatch.delenv("LDPSPEC_COMPILED")
    loads = sampling.compiled_path() is not None
    assert sampling._take_compiled(sampling.COMPILED_WORDS) == loads == sampling.prepare_compiled()
    assert sampling._take_compiled(1) == loads  # loaded (or tried): every draw takes it


def test_the_packed_draw_matches_each_columns_probability():
    probabilities = [0.0, 1.0, 0.5, 1 / (1 + np.e), 1e-3, 0.999]
    draws = PackedBernoulli(probabilities * 11).draw(200_000, np.random.default_rng(3))
    frequencies = np.unpackbits(draws, axis=1, count=66).mean(axis=0).reshape(11, 6)
    sd = np.sqrt(np.array(probabilities) * (1 - np.array(probabilities)) / 200_000)
    assert np.all(np.abs(frequencies - probabilities) <= 5 * sd + 1e-12)


@pytest.mark.parametrize("bad", [[], [0.5, 1.5], [-0.1], [float("nan")]])
def test_bad_probabilities_are_refused(bad):
    with pytest.raises(InvalidParameter, match="probabilities"):
        sampling.PackedBernoulli(bad)


@needs_numba
def test_a_compiled_path_that_does_not_compile_leaves_the_numpy_path(monkeypatch):
    """If Numba imports but the compiled code fails here, a warning says so and the NumPy path draws."""
    from ldpspec.reference import twin_compiled

    def broken(*arguments):
        raise TypeError("no typing for this")

    monkeypatch.setattr(twin_compiled, "draw_packed", broken)
    sampling.compiled_path.cache_clear()
    try:
        with pytest.warns(RuntimeWarning, match="does not compile here"):
            assert sampling.compiled_path() is None
        assert not sampling.prepare_compiled() and not sampling._take_compiled(sampling.COMPILED_WORDS)
        assert PackedBernoulli([0.3]).draw(5, np.random.default_rng(1)).shape == (5, 1)
    finally:
        monkeypatch.undo()
        sampling.compiled_path.cache_clear()
    assert sampling.compiled_path() is twin_compiled

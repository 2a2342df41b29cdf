"""The packed bit-sliced sampler (``reference.twin_sampling.PackedBernoulli``) is exact: enumerating every pattern of
its random bits, each lane is 1 with exactly the probability of the first digits of its ``p``, and what is left
undecided is exactly the mass of the one pattern that ties; the tied lanes continue with the same rule one at a
time, and land in the right place of the packed layout."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from ldpspec.reference import twin_sampling as sampling
from ldpspec.reference.twin_sampling import PLANES, PackedBernoulli, binary_digits, compare_planes, continue_ties
from ldpspec.spec.errors import InvalidParameter

PROBABILITIES = [
    0.0, 1.0, 0.5, 0.75, 0.25 + 2 ** -7, 2 ** -8, 2 ** -9 + 2 ** -12,  # expansions ending before, at, after 8 digits
    1 / (1 + np.e), 0.3, 1 / 3, 1e-300, 5e-324, 1 - 2 ** -53, np.e / (np.e + 2),
]


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
    sampler = PackedBernoulli([p] * 3 + [0.3] * 70)  # two words, a padded tail, another probability beside it
    planes = PLANES
    patterns = 2 ** planes
    row = iter(range(planes))

    def plane():  # row r's lanes all draw the bits of r: "differs" at digit j when bit j of r is 1
        j = next(row)
        bits = (np.arange(patterns) >> j) & 1
        return np.where(bits[:, None] == 1, np.uint64(2 ** 64 - 1), np.uint64(0)) * np.ones((1, sampler.words),
                                                                                             dtype=np.uint64)

    ones, undecided = compare_planes(sampler, patterns, plane)
    bits = np.unpackbits(ones.view(np.uint8).reshape(patterns, -1), axis=1)[:, :73]
    tied = np.unpackbits(undecided.view(np.uint8).reshape(patterns, -1), axis=1)
    assert not tied[:, 73:].any() and not bits[:, 73:].any()  # padding lanes stay 0
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
    sampler = PackedBernoulli([p] * 3 + [0.3] * 70)
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
    """A generator whose raw words are all zeros for the first ``zeros`` calls, then all ones."""

    def __init__(self, zeros: int):
        self.calls, self.zeros = 0, zeros
        self.bit_generator = self

    def random_raw(self, size):
        self.calls += 1
        return np.full(size, 0 if self.calls <= self.zeros else 2 ** 64 - 1, dtype=np.uint64)


@pytest.mark.parametrize("zeros", [0, 3, PLANES])
def test_every_lane_lands_in_its_place_of_the_packed_layout(zeros):
    """No "differs" for ``zeros`` digits, then at once: every lane is its p's digit ``zeros + 1``, whether decided
    in the planes or one at a time after them."""
    rng = np.random.default_rng(5)
    probabilities = rng.choice(PROBABILITIES, size=131)
    sampler = PackedBernoulli(probabilities)
    expected = []
    for p in probabilities:
        digits = binary_digits(p) if p < 1 else None
        expected.append(1 if digits is None else int(digits[zeros]) if zeros < len(digits) else 0)
    packed = sampler.draw(3, Constant(zeros))
    assert packed.shape == (3, 17)
    assert (packed == np.packbits(np.array(expected, dtype=np.uint8))).all()


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

"""The sampling machinery of the twins: exact Bernoulli bits and packed reports."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from ldpspec.reference import twin_sampling as sampling
from ldpspec.reference.twin_sampling import AliasTable
from ldpspec.spec.errors import InvalidParameter

BLOCKED = [0.0, 0.5, 69 / 256 + 2 ** -20, 1 / 3, 1e-5, 3e-20, 1e-300, 5e-324, 1 - 2 ** -53]
"""Probabilities whose expansions take 0, 1, 2 and up to 18 blocks of 63 digits."""


@pytest.mark.parametrize("p", BLOCKED)
def test_the_blocks_are_the_exact_expansion(p):
    """``p = sum_k B_k 2^(-63 (k+1))`` exactly, each block of 63 digits: so a bit that takes 1 on ``V_k < B_k`` after
    ties on the blocks before (each ``V_k`` uniform on ``[0, 2^63)``) is 1 with probability exactly ``p``."""
    blocks = sampling.expansion_blocks(p)
    assert all(0 <= block < 2 ** 63 for block in blocks) and (not blocks or blocks[-1] > 0 or p == 0)
    assert sum(Fraction(block, 2 ** (63 * (k + 1))) for k, block in enumerate(blocks)) == Fraction(p)
    assert len(blocks) == -(-len(sampling.binary_digits(p)) // 63)
    assert sum(Fraction(block, 2 ** 63) * Fraction(1, 2 ** (63 * k)) for k, block in enumerate(blocks)) == \
        Fraction(p)


class Script:
    """A generator whose integers of ``[0, 2^63)`` are given in advance, in order."""

    def __init__(self, values):
        self.values, self.read = list(values), 0

    def integers(self, low, high, size):
        assert (low, high) == (0, 2 ** 63)
        count = int(np.prod(size))
        taken, self.values = self.values[:count], self.values[count:]
        assert len(taken) == count, "the script ran out"
        self.read += count
        return np.array(taken, dtype=np.int64).reshape(size)


@pytest.mark.parametrize("p", [p for p in BLOCKED if 0 < p < 1])
def test_exact_bernoulli_decides_block_by_block(p):
    """Against ``p``'s blocks ``B_0, B_1, ...``: an integer below the block gives 1, above it 0, equal to it goes on
    with the next integer and block; equal on every block gives 0 and reads no further."""
    blocks = sampling.expansion_blocks(p)
    coin = sampling.ExactBernoulli([p])
    for tie in range(len(blocks)):  # ties on the first `tie` blocks, then decided at block `tie`
        below, above = blocks[tie] - 1, blocks[tie] + 1
        for value, bit in ((below, True), (above, False)):
            if 0 <= value < 2 ** 63:
                script = Script(blocks[:tie] + [value])
                assert coin.draw_columns(1, script)[0, 0] == bit and not script.values
    script = Script(blocks)
    assert not coin.draw_columns(1, script)[0, 0] and not script.values  # U = p on every digit: U >= p


def test_exact_bernoulli_resolves_the_ties_of_each_kind():
    """Several kinds at once, ties among them resolved each against its own blocks, in order."""
    probabilities = [1e-5, 3e-20, 0.0, 1.0]
    coin = sampling.ExactBernoulli(probabilities)
    first = [sampling.expansion_blocks(p)[0] if 0 < p < 1 else 0 for p in probabilities]
    second = [sampling.expansion_blocks(p)[1] for p in probabilities[:2]]
    kinds = np.array([0, 1, 0, 1, 2, 3])
    script = Script([first[0], first[1], first[0] + 1, first[1] - 1, 5, 5,  # kinds 0 and 1 tie on their first block
                     second[0] - 1, second[1]])  # then kind 0 is below its second block, kind 1 ties through its last
    assert coin.draw(kinds, script).tolist() == [True, False, False, True, False, True]
    assert not script.values


def test_exact_bernoulli_draws_the_double_exactly():
    p = 69 / 256 + 2 ** -20
    draws = sampling.ExactBernoulli([p, 0.0, 1.0]).draw_columns(2_000_000, np.random.default_rng(9))
    ones = draws[:, 0].sum()
    assert abs(ones - 2_000_000 * p) < 6 * (2_000_000 * p * (1 - p)) ** 0.5
    assert not draws[:, 1].any() and draws[:, 2].all()


def test_packed_rows_count_and_unpack():
    rng = np.random.default_rng(1)
    bits = rng.integers(0, 2, (100, 11)).astype(np.uint8)
    packed = np.packbits(bits, axis=1)
    assert sampling.packed_bit_counts(packed, 11).tolist() == bits.sum(axis=0).tolist()
    assert sampling.unpacked_rows(packed, 11) == [tuple(row) for row in bits.tolist()]


@pytest.mark.parametrize("k", [1, 2, 3, 7, 50, 1000])
def test_the_alias_table_draws_the_given_probabilities(k):
    """The table's implied probabilities are the given ones up to rounding, and its draws fit them."""
    rng = np.random.default_rng(k)
    probabilities = rng.dirichlet(np.full(k, 0.3))
    probabilities[0] = 0.0 if k > 1 else probabilities[0]  # an impossible category is never drawn
    probabilities /= probabilities.sum()
    table = AliasTable(probabilities)
    assert np.abs(table.implied() - probabilities).max() < 1e-15
    draws = table.draw(200_000, rng)
    if k > 1:
        assert not np.any(draws == 0)
    if k <= 50:
        observed = np.bincount(draws, minlength=k)
        expected = probabilities * len(draws)
        seen = expected > 0
        chi2 = (((observed - expected) ** 2)[seen] / expected[seen]).sum()
        assert chi2 < seen.sum() + 6 * np.sqrt(2 * seen.sum())  # far beyond the 1e-6 tail of chi-square


@pytest.mark.parametrize("bad", [[], [0.0, 0.0], [0.5, -0.1], [float("nan"), 1.0]])
def test_the_alias_table_refuses_what_is_not_a_distribution(bad):
    with pytest.raises(InvalidParameter, match="category probabilities"):
        AliasTable(bad)


@pytest.mark.parametrize("bits", [1, 2, 7, 9, 10, 15, 17, 24])
def test_packed_items_read_back_what_was_put(bits):
    """Items of ``bits`` bits packed one after another read back exactly, in chunks and whole, across byte and chunk
    boundaries (a count that is not a multiple of 8 or of the chunk)."""
    values = np.random.default_rng(bits).integers(0, 2 ** bits, 3 * sampling.ITEMS_PER_CHUNK + 5).astype(np.uint32)
    packed = sampling.PackedItems.empty(len(values), bits)
    for start in range(0, len(values), sampling.ITEMS_PER_CHUNK):
        packed.put(start, values[start:start + sampling.ITEMS_PER_CHUNK])
    assert packed.nbytes == (len(values) * bits + 7) // 8
    assert (np.asarray(packed) == values).all() and np.asarray(packed).dtype == packed.dtype
    assert (np.concatenate(list(packed.chunks(sampling.ITEMS_PER_CHUNK))) == values).all()
    assert (packed.chunk(8, 24) == values[8:24]).all()


def test_grr_reports_are_packed_to_the_bits_an_item_needs():
    from ldpspec.reference.shared.grr import Grr

    twin = Grr(1, 1000).twin
    items = np.random.default_rng(0).integers(0, 1000, 20_001)
    reports = twin.reports(items, np.random.default_rng(1))
    assert isinstance(reports, sampling.PackedItems) and reports.bits == 10
    assert reports.nbytes == (20_001 * 10 + 7) // 8
    assert (twin.counts(reports) == np.bincount(np.asarray(reports), minlength=1000)).all()
    assert not isinstance(Grr(1, 256).twin.reports(items % 256, np.random.default_rng(1)), sampling.PackedItems)

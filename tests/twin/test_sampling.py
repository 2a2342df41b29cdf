"""The sampling machinery of the twins: exact Bernoulli bits and packed reports."""

from __future__ import annotations

import numpy as np
import pytest

from ldpspec.reference import twin_sampling as sampling
from ldpspec.reference.twin_sampling import AliasTable
from ldpspec.spec.errors import InvalidParameter


def test_exact_bernoulli_draws_the_double_exactly():
    # 69/256 + 2^-20 has a three-byte expansion: the first byte ties one time in 256.
    p = 69 / 256 + 2 ** -20
    assert sampling._expansion(p).tolist() == [69, 0, 16]
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

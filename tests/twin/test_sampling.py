"""The sampling machinery of the twins: exact Bernoulli bits and packed reports."""

from __future__ import annotations

import numpy as np

from ldpspec.reference import sampling


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

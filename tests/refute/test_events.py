"""The fast paths of reading releases, each against the plain path it stands in for: integer labels counted by
``bincount`` and one by one; bit vectors packed as one array and row by row; bit counts from byte histograms and the
numbers of ones from ``bitwise_count`` against unpacked bits; a twin's items as an array and as its channel's
labels. Each event's count against a count written out from its definition."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from ldpspec.reference.refute.events import (
    Bit,
    BitBatch,
    Intervals,
    Kind,
    Labels,
    NumberBatch,
    Ones,
    ReleaseError,
    TwoBits,
)
from ldpspec.reference.refute.implementations import Registered, Shard


@pytest.mark.parametrize("values", [[0, 3, 3, 7, 0, 0], [5], [-2, 4, -2], list(range(300))])
def test_integer_labels_are_counted_alike_as_an_array_and_one_by_one(values):
    kind = Kind("labels")
    for dtype in (np.int64, np.int16, np.uint8 if min(values) >= 0 and max(values) < 256 else np.int64):
        fast = kind.batch(np.array(values, dtype=dtype), "x")
        assert fast.counts == Counter(values) == kind.batch(list(values), "x").counts
        assert fast.n == len(values)
        assert all(type(label) is int for label in fast.counts)


def test_declared_outputs_are_enforced_on_both_paths():
    kind = Kind("labels", outputs=frozenset({0, 1}))
    for releases in (np.array([0, 1, 2]), [0, 1, 2]):
        with pytest.raises(ReleaseError, match="released 2, which is not one of the declared outputs"):
            kind.batch(releases, "x")


@pytest.mark.parametrize("d", [1, 7, 8, 13, 64])
def test_bit_vectors_are_packed_alike_whole_and_row_by_row(d):
    rng = np.random.default_rng(d)
    bits = rng.integers(0, 2, (50, d))
    kind = Kind("bits", d=d)
    rows = np.packbits(np.array([kind._row(row) for row in bits.tolist()], dtype=np.uint8), axis=1)
    for releases in (bits, bits.astype(bool), bits.astype(float), bits.tolist(), [tuple(row) for row in bits]):
        assert np.array_equal(kind.batch(releases, "x").packed, rows)


@pytest.mark.parametrize("d", [1, 9, 100])
def test_bit_counts_and_ones_against_unpacked_bits(d):
    rng = np.random.default_rng(d)
    bits = (rng.random((300, d)) < 0.3).astype(np.uint8)
    batch = BitBatch(np.packbits(bits, axis=1), d)
    assert batch.bit_counts().tolist() == bits.sum(axis=0).tolist()
    assert batch.ones().tolist() == bits.sum(axis=1).tolist()
    j, k = 0, d - 1
    assert Bit(j, 1).count(batch) == int(bits[:, j].sum())
    assert Bit(k, 0).count(batch) == int((bits[:, k] == 0).sum())
    if d > 1:
        assert TwoBits(j, k, (1, 0)).count(batch) == int(((bits[:, j] == 1) & (bits[:, k] == 0)).sum())
    assert Ones(frozenset({0, 2})).count(batch) == int(np.isin(bits.sum(axis=1), [0, 2]).sum())


def test_labels_and_intervals_count_what_they_say():
    batch = Kind("labels").batch([(0, ()), (1, (2,)), (0, ()), (0, (1,))], "x")
    assert Labels(frozenset({(0, ())})).count(batch) == 2
    assert Labels(frozenset({0})).count(batch, part=lambda y: y[0]) == 3
    numbers = NumberBatch(np.array([-1.0, 0.0, 0.5, 1.0, 2.0]))
    assert Intervals(((-1.0, 0.5), (1.0, np.inf))).count(numbers) == 4  # [lo, hi): 0.5 is out, 1.0 is in


@pytest.mark.parametrize("name, options", [("grr", {"epsilon": "1", "d": "5"}), ("hr", {"epsilon": "1", "d": "6"}),
                                           ("iprr", {"budgets": "[0.5, 1, null]"})])
def test_a_twins_items_as_an_array_are_its_channels_labels(name, options):
    fast, labels = Registered(name, options), Registered(name, options, labels=True)
    assert fast.form() == "items" and labels.form() == "labels"
    shard = Shard(1, 0, 0, 2000)
    x = fast.channel().inputs[1]
    drawn = fast.draw(x, shard, 3)
    assert drawn.tolist() == list(labels.draw(x, shard, 3))
    assert Kind("labels").batch(drawn, x).counts == Counter(labels.draw(x, shard, 3))

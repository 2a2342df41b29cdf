"""The pieces of the IPLDP preprint's experiments (Figs. 2-4) that can fail: data, privacy levels, sample counts,
the closed-form MLE, and a tiny run."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from ldpspec.reference.ipldp2023.iprr import IPRR
from ldpspec.reference.shared.grr import Grr
from ldpspec.reference.shared.urr import URR
from ldpspec.spec.errors import InvalidParameter
from ldpspec.verify.ipldp2023 import experiments as ex


def test_the_worked_example_of_the_privacy_levels():
    # D = {A..F} with counts 6..1, eps in [0.1, 0.3], LC = 3, NR = 0.5: D_N = {A, B, C}; D, E, F get 0.3, 0.2, 0.1
    budgets = ex.assign_budgets([6, 5, 4, 3, 2, 1], "0.1", "0.3", 3, "0.5")
    assert budgets == [None, None, None, Fraction(3, 10), Fraction(1, 5), Fraction(1, 10)]
    # the order follows the counts, not the item labels
    assert ex.assign_budgets([1, 6, 2, 5, 3, 4], "0.1", "0.3", 3, "0.5") == [
        Fraction(1, 10), None, Fraction(1, 5), None, Fraction(3, 10), None]


def test_the_levels_of_table_2():
    counts = ex.zipf_counts()
    budgets = ex.budgets_of(ex.SETTINGS[3], "0.5", counts)
    assert budgets[:10] == [None] * 10  # the ten most frequent items (the data are sorted by rank)
    assert [str(b) for b in budgets[10:]] == ["10", "10", "10", "67/10", "67/10", "17/5", "17/5", "17/5", "1/10",
                                              "1/10"]
    assert [budgets.count(b) for b in (10, Fraction(67, 10), Fraction(17, 5), Fraction(1, 10))] == [3, 2, 3, 2]
    assert ex.budgets_of(ex.SETTINGS[5], "0").count(None) == 0
    assert ex.budgets_of(ex.SETTINGS[4], "0.8").count(None) == 16
    with pytest.raises(InvalidParameter, match="below LC"):
        ex.budgets_of(ex.SETTINGS[4], "0.9")


def test_the_zipf_data_set_has_table_1s_sizes():
    counts = ex.zipf_counts()
    assert len(counts) == 20 and sum(counts) == 100_000 and min(counts) > 0
    assert counts[0] > counts[1] > counts[2] > counts[-1]  # Zipf: the first ranks are the largest
    assert counts[0] / sum(counts) == pytest.approx(1 / sum(k ** -2 for k in range(1, 21)), abs=0.01)


def test_sample_counts():
    assert [ex.sample_count(sr, sample_count="domain") for sr in ex.SETTINGS[1].sample_ratios] == [4, 8, 12, 16, 20]
    assert [ex.sample_count(sr, sample_count="users") for sr in ("0.1", "1")] == [10_000, 100_000]
    assert ex.SETTINGS[4].xs == ("0", "0.1", "0.2", "0.3", "0.4", "0.5", "0.6", "0.7", "0.8")
    assert ex.SETTINGS[5].xs == ("0.1", "0.2", "0.3", "0.4", "0.5", "0.6", "0.7", "0.8", "0.9", "1")


def test_the_unbiased_estimate_is_the_twins():
    budgets = ex.budgets_of(ex.SETTINGS[1], "0.5")
    counts = np.array(ex.zipf_counts())
    for name, build in (("IPRR", IPRR), ("KRR", Grr.from_budgets), ("URR", URR.from_budgets)):
        twin, structure = ex.build(name, budgets)
        reported = twin.simulate_counts(counts, np.random.default_rng(1))
        n = int(counts.sum())
        assert np.allclose(ex.unbiased(twin, structure, reported, n), build(budgets).twin.estimate(reported, n) / n)


def test_a_tiny_run_has_every_mechanism_and_loss():
    data = ex.run(5, "domain", 3)
    assert [point.n for point in data.points] == [2, 4, 6, 8, 10, 12, 14, 16, 18, 20]
    point = data.points[0]
    for name in ("IPRR", "IDUE-opt0", "IDUE-opt1", "IDUE-opt2"):
        assert np.all(np.isfinite(point.losses[(name, "NS", "MSE")]))
    assert np.all(np.isnan(point.losses[("IDUE-opt0", "MLE", "RE")]))  # IDUE's MLE is not run
    mean, se = data.mean_se(0, "IPRR", "NS", "MSE", "counts-over-n")
    assert mean == pytest.approx(2 * data.mean_se(0, "IPRR", "NS", "MSE", "frequencies")[0])

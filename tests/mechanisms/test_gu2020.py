"""Gu et al.'s mechanisms' particulars, beyond what every registered mechanism is tested for (``test_registered``)."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from ldpspec import spec
from ldpspec.reference.gu2020.idue import solve_levels
from ldpspec.reference.gu2020.idue_ps import idue_ps, oue_ps, rappor_ps, solved_idue_ps
from ldpspec.reference.gu2020.levels import PrivacyLevels
from ldpspec.reference.shared.unary import oue, sue
from ldpspec.verify.common import channel_row, exact_moments

SET_LEVELS = PrivacyLevels.from_sizes([1, 2], [1, 2])
SET_SOLUTION = solve_levels(SET_LEVELS, "opt1")


def test_idue_ps_moments_include_the_bias_of_large_sets():
    mechanism = idue_ps(SET_LEVELS, SET_SOLUTION.a, SET_SOLUTION.b, 2)
    sets = [(0, 1, 2), (1,)]  # the first user has more items than the padding length 2
    means, variances = mechanism.estimate_moments(sets)
    rows = [channel_row(mechanism.channel(), s) for s in sets]
    for i, bit in enumerate(mechanism.encoding.bits[: mechanism.m]):
        mean, var = exact_moments(rows, lambda ys, i=i, bit=bit:
                                  2 * (sum(y[i] for y in ys) - 2 * bit.q) / (bit.p - bit.q))
        assert mean == means[i] and var == variances[i]
    assert means[0] == Fraction(2, 3)  # item 0 is held once but sampled with probability 1/3: 2/3


def test_baseline_set_mechanisms_use_their_parameters():
    for mechanism, bits in ((oue_ps(1, 3, 2), oue(1, 5).bits), (rappor_ps(1, 3, 2), sue(1, 5).bits)):
        assert mechanism.encoding.bits == bits


@pytest.mark.parametrize("self_pairs", ["all", "multi-item"])
@pytest.mark.parametrize("dummy_level", [0, 1])
def test_solved_idue_ps_is_minid_ldp_with_the_set_budgets(self_pairs, dummy_level):
    # HIV-like: a level of one item. With self_pairs="multi-item" the dummies joining it add the constraint s = t,
    # which the solver must then impose for Theorem 4's premise (17).
    mechanism = solved_idue_ps(levels=((1, 1), (2, 2)), self_pairs=self_pairs, padding=2, dummy_level=dummy_level)
    guarantee = mechanism.guarantee()
    assert spec.min_id_ldp(mechanism.channel(), guarantee.parameters["budgets"]).holds


def test_the_twin_simulates_item_sets_given_as_a_mapping():
    mechanism = oue_ps(1, 3, 2)
    counts = mechanism.twin.simulate_counts({(0, 2): 500, (1,): 300, (): 200}, np.random.default_rng(5))
    assert counts.shape == (5,) and len(mechanism.twin.estimate(counts, 1000)) == 3


@pytest.mark.parametrize("call, message", [
    (lambda: idue_ps(SET_LEVELS, SET_SOLUTION.a, SET_SOLUTION.b, 2, release="some"), "release must be one of"),
    (lambda: idue_ps(SET_LEVELS, SET_SOLUTION.a, SET_SOLUTION.b, 2, dummy_level=5),
     "dummy_level must be an integer in \\[0, 1\\]"),
    (lambda: oue_ps(1, 3, 2).twin.simulate_counts({(0,): -2}, np.random.default_rng()), "non-negative integer"),
    (lambda: oue_ps(1, 0, 2), r"m \(the number of items\) must be an integer in \[1, 10,000,000\]"),
])
def test_bad_mechanism_input(call, message):
    with pytest.raises(spec.SpecError, match=message):
        call()

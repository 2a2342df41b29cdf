"""Gu et al.'s builders (``verify/gu2020``): what they build under each reading, and what they refuse."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

pytest.importorskip("scipy", reason="the IDUE solver (reference/gu2020) needs NumPy and SciPy")

from ldpspec.reference.gu2020.levels import PrivacyLevels, level_pairs  # noqa: E402
from ldpspec.verify.claims import load_claims  # noqa: E402
from ldpspec.verify.gu2020 import builders, real_data  # noqa: E402
from ldpspec.verify.gu2020.experiments import (  # noqa: E402
    assign_budgets,
    exact_share_levels,
    fig3,
    solve_convex,
    solve_opt0,
)


@pytest.fixture(scope="module", autouse=True)
def claims():
    return load_claims()


def test_the_pairs_are_level_pairs_under_each_reading():
    levels = PrivacyLevels.from_sizes([1, 2], [1, 3])
    for value in ("all", "multi-item"):
        assert builders.constrained_pairs(levels, self_pairs=value) == level_pairs(levels, self_pairs=value)
    assert (0, 0) not in builders.constrained_pairs(levels, self_pairs="multi-item")


def test_a_solution_is_shared_by_the_readings_only_when_they_constrain_the_same_pairs():
    several = PrivacyLevels.from_sizes([1, 2], [2, 3])
    assert solve_opt0(several, box="authors", self_pairs="multi-item") is solve_opt0(several, box="authors",
                                                                                    self_pairs="all")
    assert solve_convex(several, "opt1", self_pairs="multi-item") is solve_convex(several, "opt1", self_pairs="all")
    single = PrivacyLevels.from_sizes([1, 2], [1, 3])
    assert solve_opt0(single, box="authors", self_pairs="multi-item") is not solve_opt0(single, box="authors",
                                                                                       self_pairs="all")


def test_the_budget_assignment_is_the_readings():
    first = assign_budgets(100, (1.0, 1.2, 2.0), (0.05, 0.05, 0.9), 1.0, np.random.default_rng(1),
                           budget_assignment="exact-shares")
    second = exact_share_levels(100, (1.0, 1.2, 2.0), (0.05, 0.05, 0.9), 1.0, np.random.default_rng(1))
    assert first[0] == second[0] and (first[1] == second[1]).all()
    drawn, _ = assign_budgets(100, (1.0, 1.2, 2.0), (0.05, 0.05, 0.9), 1.0, np.random.default_rng(1),
                              budget_assignment="random-draw")
    assert sum(drawn.sizes) == 100


def test_fig3_reuses_the_run_of_self_pairs_all_when_no_level_holds_a_single_item():
    options = dict(n=2000, runs=2, epsilons=(1.0,), box="authors", budget_assignment="exact-shares")
    every = fig3("power-law", self_pairs="all", **options)
    assert every.single_item_levels == 0
    assert fig3("power-law", self_pairs="multi-item", **options) is every


def test_the_recorded_points_serve_multi_item_only_when_every_level_holds_two_items():
    sizes = real_data.level_sizes(real_data.clothing_sets().m, budget_assignment="exact-shares")
    assert real_data.opt0_parameters(1.0, sizes, box="authors", self_pairs="multi-item") == \
        real_data.opt0_parameters(1.0, sizes, box="authors", self_pairs="all")
    with pytest.raises(ValueError, match="level of one item"):
        real_data.opt0_parameters(1.0, (1, 824, 14822), box="authors", self_pairs="multi-item")


def test_idue_ps_on_the_real_data_refuses_dummies_that_add_a_constraint():
    assert len(real_data.ps_real_bits(1.0, (5, 5, 90), 2, dummy_budget="any", release="real",
                                      self_pairs="multi-item")) == 100
    with pytest.raises(ValueError, match="other level pairs"):
        real_data.ps_real_bits(1.0, (1, 5, 90), 2, dummy_budget="min", release="all", self_pairs="multi-item")


def test_the_comparisons_of_the_loose_words():
    assert builders.less_than(1, 1, less="no-more-than") and not builders.less_than(1, 1, less="strict")
    assert builders.small_portion_of(Fraction(1, 7), small_portion="minority")
    assert not builders.small_portion_of(Fraction(1, 7), small_portion="negligible")
    assert builders.almost_same_as(1.03, almost_same="5%") and not builders.almost_same_as(1.03, almost_same="1%")
    assert builders.large_shares([0.4, 0.5, 0.7, 0.9], large_share="70%") == [0.7, 0.9]
    assert builders.special_case_holds(False, True, special_case="contained")
    assert not builders.special_case_holds(False, True, special_case="equal")
    assert builders.counts_as_closed_form(True, closed_form="simple-formula") is None
    assert builders.near_optimal_limit(near_optimal="within-10%") == Fraction(11, 10)
    assert builders.top_k_of({10: 0.1, 20: 0.2}, top_k="20") == 0.2
    assert builders.toy_flips(toy_layout="hiv-flips-less") == ("0.33", "0.41")
    assert builders.opt0_region(Fraction(3, 4), Fraction(1, 4), box="authors") == [True] * 4
    assert not all(builders.opt0_region(Fraction(2, 5), Fraction(1, 4), box="authors"))
    assert all(builders.opt0_region(Fraction(2, 5), Fraction(1, 4), box="none"))

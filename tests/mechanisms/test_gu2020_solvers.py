"""The IDUE solvers: verified solutions, the models' structures, and the order of their objectives."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ldpspec import spec
from ldpspec.reference.gu2020.levels import PrivacyLevels, verify_idue, worst_case_mse
from ldpspec.reference.gu2020.solvers import DEFAULT_BOX, solve
from ldpspec.reference.shared.unary import oue, sue
from tests.support import examples

level_configurations = st.lists(st.tuples(st.integers(1, 40), st.integers(1, 30)), min_size=1, max_size=4,
                                unique_by=lambda level: level[0]).filter(
    lambda levels: sum(size for _, size in levels) >= 2).map(
    lambda levels: PrivacyLevels.from_sizes([Fraction(eps, 10) for eps, _ in levels],
                                            [size for _, size in levels]))


@settings(max_examples=examples(25), deadline=None)
@given(level_configurations, st.sampled_from(["min", "avg"]))
def test_every_model_returns_kernel_verified_parameters_in_its_structure(levels, notion):
    solutions = {model: solve(levels, model, notion) for model in ("opt0", "opt1", "opt2")}
    for solution in solutions.values():
        assert solution.verified and solution.margin >= 0
        assert verify_idue(levels, solution.a, solution.b, notion).holds  # independently re-checked
        assert all(b < a for a, b in zip(solution.a, solution.b))
    assert all(a + b == 1 for a, b in zip(solutions["opt1"].a, solutions["opt1"].b))  # exactly: RAPPOR's structure
    assert all(a == 0.5 for a in solutions["opt2"].a)
    (a_low, a_high), (b_low, b_high) = DEFAULT_BOX
    assert all(a_low - 1e-9 <= a <= a_high and b_low <= b <= b_high + 1e-9
               for a, b in zip(solutions["opt0"].a, solutions["opt0"].b))
    # opt1 and opt2 search subsets of opt0's feasible set, and opt0 starts from their solutions.
    best = solutions["opt0"].worst_case_mse
    assert best <= solutions["opt1"].worst_case_mse + 1e-9 and best <= solutions["opt2"].worst_case_mse + 1e-9


@settings(max_examples=examples(15), deadline=None)
@given(level_configurations)
def test_opt0_is_no_worse_than_rappor_and_oue_at_the_smallest_budget(levels):
    smallest = min(levels.budgets)
    opt0 = solve(levels, "opt0").worst_case_mse
    for baseline in (oue(smallest, 2), sue(smallest, 2)):
        bits = baseline.bits[0]
        value = float(worst_case_mse(levels.sizes, [bits.p] * levels.count, [bits.q] * levels.count))
        # The solver keeps every constraint SAFETY = 1e-9 nats strict; at eps = 0.1 that costs about 2e-8 of the
        # objective relative to the exact baseline, which sits on the constraints.
        assert opt0 <= value * (1 + 1e-6)


def test_the_toy_example_of_table_ii():
    levels = PrivacyLevels.from_sizes(["log(4)", "log(6)"], [1, 4])
    solution = solve(levels, "opt0")
    assert [round(float(1 - a), 2) for a in solution.a] == [0.41, 0.33]
    assert [round(float(b), 2) for b in solution.b] == [0.33, 0.28]


def test_dropping_the_self_pair_of_single_item_levels_can_only_help():
    levels = PrivacyLevels.from_sizes([1, 3], [1, 5])
    strict = solve(levels, "opt0").worst_case_mse
    literal = solve(levels, "opt0", self_pairs="multi-item")
    assert literal.verified and literal.worst_case_mse <= strict + 1e-9


def test_without_the_box_opt0_can_only_improve():
    levels = PrivacyLevels.from_sizes([1, 2], [2, 8])
    assert solve(levels, "opt0", box=None).worst_case_mse <= solve(levels, "opt0").worst_case_mse + 1e-9


@pytest.mark.parametrize("call, message", [
    (lambda: solve(PrivacyLevels.from_sizes([1], [3]), "opt3"), "model must be one of"),
    (lambda: solve(PrivacyLevels.from_sizes([0, 1], [1, 2]), "opt0"), "must be > 0 for IDUE"),
    (lambda: solve(PrivacyLevels.from_sizes([1, 2], [1, 2]), "opt0", "max"), 'notion \\(--notion\\) must be "min"'),
    (lambda: PrivacyLevels.from_sizes([1, 1], [1, 2]), "must be distinct"),
    (lambda: PrivacyLevels.from_sizes([1, 2], [1, 0]), r"sizes\[1\] .* must be an integer >= 1"),
    (lambda: PrivacyLevels.from_item_budgets([1]), "for 2 to 1,000,000 items, got 1"),
    (lambda: PrivacyLevels.from_item_budgets([1, -1]), r"budgets\[1\] must be a finite real number >= 0"),
    (lambda: solve(PrivacyLevels.from_sizes([1, 2], [1, 2]), "opt0", self_pairs="some"), "self_pairs must be"),
    (lambda: solve(PrivacyLevels.from_sizes(["1e-9", 1], [1, 2]), "opt0"),
     r"budgets in \[0.000001, 300\].*got 0.000000001"),
    (lambda: solve(PrivacyLevels.from_sizes([800, 801], [1, 2]), "opt1"),
     r"budgets in \[0.000001, 300\].*got 800, 801"),
    (lambda: PrivacyLevels.from_sizes(list(range(1, 18)), [1] * 17), "at most 16 privacy levels"),
    (lambda: PrivacyLevels.from_item_budgets(list(range(1, 101))), "at most 16 privacy levels"),
    (lambda: PrivacyLevels.from_sizes([1, 2], [1, 10**12]), "2 to 1,000,000 items in all"),
])
def test_bad_solver_input(call, message):
    with pytest.raises(spec.SpecError, match=message):
        call()


@pytest.mark.parametrize("budgets", [["1e-6", "2e-6"], [50, 60], [299, 300], ["1e-6", 300]])
@pytest.mark.parametrize("model", ["opt0", "opt1", "opt2"])
def test_the_solvers_cover_their_whole_range_of_budgets(budgets, model):
    """At a large budget a_t is within 10^-100 of 1: the parameters are exact decimals that keep 1 - a_t, and the
    kernel verifies them as written."""
    levels = PrivacyLevels.from_sizes(budgets, [1, 3])
    solution = solve(levels, model)
    assert solution.verified and solution.margin >= 0
    assert verify_idue(levels, [a.text() for a in solution.a], [b.text() for b in solution.b]).holds
    assert all(0 < b < a < 1 for a, b in zip(solution.a, solution.b))

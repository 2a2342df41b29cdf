"""Hao et al. 2023's mechanisms: graded Laplace, LHP and HierA's collector (PLC, the readings of step 5).

LHP's channel against its three steps written out independently; the merge plans against the printed step 5 for
k = 5, mu = 2; HierA's plain and NumPy collectors against the exact distribution of the estimate; and errors.
"""

from __future__ import annotations

import random
from collections import Counter
from fractions import Fraction

import numpy as np
import pytest
import z3

from ldpspec import spec
from ldpspec.reference.hiera2023.graded_laplace import GradedLaplace
from ldpspec.reference.hiera2023.hiera import HierA, merge_plan, plc_keep_probability
from ldpspec.reference.hiera2023.levels import PAPER_BOUNDARIES, Levels
from ldpspec.reference.hiera2023.lhp import LHP, lhp_probability
from ldpspec.reference.hiera2023.sgd import PrivateLinearRegression, mse
from ldpspec.spec.nats import Nats
from tests.support.fit import assert_fits

TWO_LEVELS = (["-1", "0", "1"], ["log(3)", "log(2)"])  # e^eps = 3, 2: p = 3/4, 2/3


@pytest.mark.parametrize("level_budget", ["perturbed", "true"])
def test_lhp_channel_is_its_three_steps(level_budget):
    """GRR over the levels at the true level's budget, discretisation, then keep/flip with p of the perturbed (or
    true) level: every entry, in fractions."""
    lhp = LHP(*TWO_LEVELS, grid=["-1", "-1/2", "0", "1/2", "1"], level_budget=level_budget)
    E = {1: Fraction(3), 2: Fraction(2)}
    channel = lhp.channel()
    for x, row in zip(channel.inputs, channel.rows):
        v = Fraction(x)
        t = 1 if v < 0 else 2
        for (reported, sign), probability in zip(channel.outputs, row):
            level = E[t] / (E[t] + 1) if reported == t else 1 / (E[t] + 1)  # GRR over k = 2 levels
            p = E[reported if level_budget == "perturbed" else t] / (E[reported if level_budget == "perturbed"
                                                                      else t] + 1)
            plus = (1 + v) / 2 * p + (1 - v) / 2 * (1 - p)
            assert probability == level * (plus if sign == 1 else 1 - plus)


@pytest.mark.parametrize("level_budget", ["perturbed", "true"])
def test_lhp_is_ldp_at_twice_the_largest_budget_and_no_better_than_graded(level_budget):
    """The declared guarantee holds on the paper's levels; the level and the value compose, so the worst loss exceeds
    the largest budget (graded LDP with r = max fails, as the audit records)."""
    budgets = [5, 4, 3, 2, 1]
    lhp = LHP(PAPER_BOUNDARIES, budgets, level_budget=level_budget)
    channel = lhp.channel()
    assert spec.ldp(channel, 10).holds
    assert spec.ldp_epsilon(channel) > Nats.rational(5)
    assert not spec.graded_ldp(channel, PAPER_BOUNDARIES, budgets, "max").holds


@pytest.mark.parametrize("level_budget", ["perturbed", "true"])
def test_lhp_family_is_lhp_at_every_number_and_budget(level_budget):
    """On each level's interval every probability is affine in v, for every budgets: z3 proves LHP's probability equals
    the interpolation of the family's end rows (the limit at the open end included), so the kernel's verdict on the
    family covers every number of [-1, 1]."""
    boundaries = [Fraction(-1), Fraction(-1, 3), Fraction(1, 2), Fraction(1)]
    E = z3.Reals("E1 E2 E3")
    v = z3.Real("v")
    for level in (1, 2, 3):
        low, high = boundaries[level - 1], boundaries[level]
        ends = z3.RealVal(str(low)), z3.RealVal(str(high))
        t = (v - ends[0]) / (ends[1] - ends[0])
        for reported in (1, 2, 3):
            for sign in (-1, 1):
                at_v, at_low, at_high = (lhp_probability(E, level, x, reported, sign, level_budget)
                                         for x in (v, *ends))
                solver = z3.Solver()
                solver.add(*(e > 1 for e in E), v >= ends[0], v <= ends[1])
                solver.add(at_v != at_low * (1 - t) + at_high * t)
                assert solver.check() == z3.unsat
    lhp = LHP([str(b) for b in boundaries], ["log(3)", "log(2)", "1"], grid=["-1", "-0.5", "0", "1/2", "0.9", "1"],
              level_budget=level_budget)
    family, channel = lhp.family(), lhp.channel()
    for x, row in zip(channel.inputs, channel.rows):
        assert family.row(x) == tuple(row)
    assert [s.text() for s in family.segments] == ["[-1, -1/3)", "[-1/3, 0.5)", "[0.5, 1]"]


def test_graded_laplace_within_and_across_levels():
    mechanism = GradedLaplace(["-1", "0", "1"], [2, 1], grid=["-1", "-1/2", "0", "1"])
    losses = spec.pairwise_loss(mechanism.channel())
    assert losses[("-1", "-0.5")][0] == Nats.rational(Fraction(1, 2))  # eps |x - x'| / 2 in level 1 (eps = 2)
    assert losses[("0", "1")][0] == Nats.rational(Fraction(1, 2))  # level 2 (eps = 1)
    assert losses[("0", "-1")][0].is_infinite  # levels of different budgets: unbounded in the tail


def test_the_merge_plans_follow_the_printed_step_5():
    """k = 5, mu = 2: conversions V_h,h+1; level 5 meets i + mu - 1 > k and gets mu - k + i = 2 copies (A), one more
    (B), only those copies (C, the first branch alone); D merges the blocks {1, 2}, {3, 4}, {5} at their tops."""
    arriving = {1: (), 2: ((1, 1),), 3: ((2, 1),), 4: ((3, 1),), 5: ((4, 1),)}
    assert merge_plan(5, 2, "A") == tuple(((i, 2 if i == 5 else 1), *arriving[i]) for i in range(1, 6))
    assert merge_plan(5, 2, "B") == tuple(((i, 3 if i == 5 else 1), *arriving[i]) for i in range(1, 6))
    assert merge_plan(5, 2, "C") == (*(((i, 1), *arriving[i]) for i in range(1, 5)), ((5, 2),))
    assert merge_plan(5, 2, "D") == ((), ((2, 1), (1, 1)), (), ((4, 1), (3, 1)), ((5, 1),))
    assert all(plan == tuple(((i, 1),) for i in range(1, 6)) for plan in
               (merge_plan(5, 1, c) for c in "ABC"))  # mu = 1 converts nothing


def test_plc_keeps_p_j_overall():
    for p_i, p_j in ((Fraction(3, 4), Fraction(2, 3)), (Fraction(9, 10), Fraction(3, 5)), (Fraction(2, 3),) * 2):
        q = plc_keep_probability(p_i, p_j)
        assert 0 <= q <= 1 and p_i * q + (1 - p_i) * (1 - q) == p_j


@pytest.mark.parametrize("compensation", ["A", "B", "C", "D"])
def test_hiera_plain_collector_follows_the_exact_distribution(compensation):
    """Two users, two levels, mu = 2: the plain reference's m* (LHP's releases, then PLC's draws) against the exact
    distribution over every release and every conversion outcome."""
    lhp = LHP(*TWO_LEVELS, grid=["-1", "-1/2", "0", "1/2", "1"])
    hiera = HierA(lhp, 2, compensation, "all", clip=True)
    users = ["-1/2", "1"]
    expected = Counter()
    for value, probability in hiera.exact_distribution(users):
        expected[value.as_rational()] += probability.as_rational()
    assert sum(expected.values()) == 1
    rng = random.Random(21)
    observed = Counter()
    for _ in range(6000):
        counts = lhp.counts([lhp.perturb(v, rng) for v in users])
        observed[hiera.estimate(counts, len(users), rng).as_rational()] += 1
    assert_fits(observed, expected)


@pytest.mark.parametrize("clip", [True, False])
def test_hiera_twin_collector_follows_the_exact_distribution(clip):
    lhp = LHP(*TWO_LEVELS, grid=["-1", "-1/2", "0", "1/2", "1"])
    hiera = HierA(lhp, 2, "A", "all", clip=clip)
    users = ["-1/2", "1"]
    expected = Counter()
    for value, probability in hiera.exact_distribution(users):
        expected[value.as_rational()] += probability.as_rational()
    support = sorted(expected)
    rng = np.random.default_rng(22)
    observed = Counter()
    # 6000 populations of the two users, estimated in one call (independent rows), and 500 one at a time
    codes = lhp.twin.reports(np.tile([-0.5, 1.0], 6000), rng).astype(np.int64).reshape(6000, 2)
    counts = np.stack([np.bincount(row, minlength=2 * lhp.k) for row in codes])
    values = list(hiera.twin.estimate_many(counts, 2, rng))
    values += [hiera.twin.estimate(lhp.twin.counts(lhp.twin.reports([-0.5, 1.0], rng)), 2, rng) for _ in range(500)]
    for value in values:
        nearest = min(support, key=lambda s: abs(float(s) - value))
        assert abs(float(nearest) - value) < 1e-9
        observed[nearest] += 1
    assert_fits(observed, expected)


def test_hiera_exact_moments_match_the_registered_estimator_at_mu_1():
    """At mu = 1 nothing is converted and every reading of step 5 is the same merge: HierA unclipped is LHP's
    registered estimator, whose exact moments are closed forms."""
    lhp = LHP(*TWO_LEVELS, grid=["-1", "-1/2", "0", "1/2", "1"])
    users = ["-1", "1/2", "0"]
    means, variances = lhp.estimate_moments(users)
    for compensation in "ABCD":
        for size in ("all", "n"):
            assert HierA(lhp, 1, compensation, size, clip=False).exact_moments(users) == (means[0], variances[0])


@pytest.mark.parametrize("build, message", [
    (lambda: Levels(["-1", "1", "0"], [1, 1]), "strictly increasing numbers from -1 to 1"),
    (lambda: Levels(["0", "1"], [1]), "from -1 to 1"),
    (lambda: Levels(["-1", "0", "1"], [1]), "one budget per interval: 2 intervals, 1 budgets"),
    (lambda: Levels(["-1", "0", "1"], [1, 0]), r"budgets\[1\] \(the budget of level 2\) must be > 0"),
    (lambda: Levels(["-1", "0", "1"], "1"), "budgets must be a list"),
    (lambda: LHP(*TWO_LEVELS, level_budget="reported"), "level_budget must be one of perturbed, true"),
    (lambda: LHP(*TWO_LEVELS).perturb("1.5", random.Random(0)), r"v must be a number in \[-1, 1\]"),
    (lambda: LHP(*TWO_LEVELS).counts([(3, 1)]), r"a release must be a pair \(level in 1 .. 2"),
    (lambda: LHP(*TWO_LEVELS).estimate([1, 2, 3], 4), "counts must be the 4 counts"),
    (lambda: GradedLaplace(["-1", "0", "1"], ["log(3)", "1"]), r"budgets\[0\] must be a rational number of nats"),
    (lambda: HierA(LHP(*TWO_LEVELS), 3), r"mu \(the number of data reuses\) must be an integer in \[1, 2\]"),
    (lambda: HierA(LHP(*TWO_LEVELS), 2, "E"), "compensation must be one of A, B, C, D"),
    (lambda: HierA(LHP(*TWO_LEVELS), 2, "A", "users"), "size must be one of all, n"),
    (lambda: HierA(LHP(*TWO_LEVELS), 2, "A", "all", clip="yes"), "clip must be True or False"),
    (lambda: HierA(LHP(["-1", "0", "1"], [1, 2]), 2), "PLC converts only towards smaller budgets"),
    (lambda: HierA("lhp"), "lhp must be an LHP mechanism"),
    (lambda: HierA(LHP(*TWO_LEVELS), 2).exact_distribution(["0.25"]), "not in the LHP mechanism's grid"),
    (lambda: HierA(LHP(*TWO_LEVELS), 2).twin.estimate([1, 2, 3], 4, np.random.default_rng(0)),
     "counts must be rows of the 4 counts"),
    (lambda: HierA(LHP(*TWO_LEVELS), 2).twin.estimate([1, -2, 3, 4], 4, np.random.default_rng(0)),
     "non-negative integers"),
    (lambda: HierA(LHP(*TWO_LEVELS), 2).twin.estimate([1.5, 2, 3, 4], 4, np.random.default_rng(0)),
     "non-negative integers"),
    (lambda: HierA(LHP(*TWO_LEVELS), 2).twin.estimate_many([[1, 2, 3, 4]], 0, np.random.default_rng(0)),
     r"n \(the number of users\) must be an integer >= 1"),
])
def test_bad_input_is_refused_by_name(build, message):
    with pytest.raises(spec.SpecError, match=message):
        build()


def test_large_budgets_do_not_overflow():
    lhp = LHP(PAPER_BOUNDARIES, [5000, 4000, 3000, 2000, 1000])
    values = np.linspace(-1, 1, 201)
    rng = np.random.default_rng(23)
    counts = lhp.twin.counts(lhp.twin.reports(values, rng))
    estimate = lhp.twin.estimate(counts, len(values))
    assert np.isfinite(estimate).all() and abs(estimate[0] - values.mean()) < 0.5
    assert np.isfinite(HierA(lhp, 2).twin.estimate(counts, len(values), rng))
    assert lhp.perturb("0.3", random.Random(1))[0] == 4  # the level is kept: its other levels have e^-1000
    assert spec.ldp(lhp.channel(), 10000).holds  # the exact channel still builds and decides at these budgets


def _regression(n: int, d: int, seed: int):
    rng = np.random.default_rng(seed)
    X = rng.uniform(-1, 1, (n, d))
    beta = np.array([0.1, 0.3, -0.2, 0.15, 0.05][:d + 1])
    y = np.clip(np.hstack([np.ones((n, 1)), X]) @ beta + rng.normal(0, 0.05, n), -1, 1)
    return X, y, beta


@pytest.mark.parametrize("component_budget", ["full", "split"])
def test_sgd_asks_every_user_once_and_accounts_for_every_release(component_budget):
    """Disjoint groups: every user in exactly one iteration; each of its d + 1 releases at its attribute's level
    budget (intercept: y's), or that budget over d + 1 when split."""
    X, y, _ = _regression(1000, 2, 31)
    model = PrivateLinearRegression(["-1", "0", "1"], [2, 1], "hiera", component_budget=component_budget,
                                    group_size=10)
    fit = model.fit(X, y, np.random.default_rng(32))
    assert sorted(Counter(fit.iteration).values()) == [10] * 100
    attributes = np.hstack([y[:, None], X])
    expected = np.where(attributes < 0, 2.0, 1.0) / (3 if component_budget == "split" else 1)
    assert np.array_equal(fit.budgets, expected)


def test_sgd_fits_a_stack_of_runs_independently_with_the_same_groups():
    X, y, beta = _regression(4000, 2, 35)
    model = PrivateLinearRegression(["-1", "0", "1"], [40, 30], "hiera", group_size=100, size="n", clip=False)
    fit = model.fit(np.stack([X, X, -X]), np.stack([y, y, y]), np.random.default_rng(36))
    assert fit.beta.shape == (3, 3) and fit.budgets.shape == (3, 4000, 3) and fit.iteration.shape == (4000,)
    assert not np.array_equal(fit.beta[0], fit.beta[1])  # the same data, independent releases
    assert np.abs(fit.beta[0] - beta).max() < 0.1 and np.abs(fit.beta[2] - beta * [1, -1, -1]).max() < 0.1
    assert np.array_equal(fit.budgets[0], fit.budgets[1]) and not np.array_equal(fit.budgets[0], fit.budgets[2])


def test_sgd_with_a_large_budget_finds_the_model():
    X, y, beta = _regression(40000, 2, 33)
    for oracle in ("hiera", "graded-laplace", "harmony", "pm"):
        model = PrivateLinearRegression(["-1", "0", "1"], [40, 30], oracle, group_size=200)
        fit = model.fit(X, y, np.random.default_rng(34))
        assert np.abs(fit.beta - beta).max() < 0.05, oracle
        assert mse(fit.beta, X, y) < 0.01


@pytest.mark.parametrize("build, message", [
    (lambda: PrivateLinearRegression(*TWO_LEVELS, "laplace"), "oracle must be one of hiera, graded-laplace"),
    (lambda: PrivateLinearRegression(*TWO_LEVELS, group_size=0), "group_size must be an integer >= 1"),
    (lambda: PrivateLinearRegression(["-1", "1"], [1]), r"mu \(the number of data reuses\) must be an integer in"),
    (lambda: PrivateLinearRegression(*TWO_LEVELS, component_level="gradient"), "component_level must be one of"),
    (lambda: PrivateLinearRegression(*TWO_LEVELS, regularisation=-1.0), "regularisation must be a finite number"),
    (lambda: PrivateLinearRegression(*TWO_LEVELS).fit([[2.0]], [0.0], np.random.default_rng(0)),
     r"all in \[-1, 1\]"),
    (lambda: PrivateLinearRegression(*TWO_LEVELS).fit([[[0.0]]], [0.0], np.random.default_rng(0)),
     r"or stacks of them"),
    (lambda: PrivateLinearRegression(*TWO_LEVELS, compensation="E"), "compensation must be one of"),
    (lambda: PrivateLinearRegression(*TWO_LEVELS, size="users"), "size must be one of"),
    (lambda: PrivateLinearRegression(*TWO_LEVELS, clip="yes"), "clip must be True or False"),
])
def test_sgd_refuses_bad_input_by_name(build, message):
    with pytest.raises(spec.SpecError, match=message):
        build()

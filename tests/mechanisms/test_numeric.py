"""Harmony, PM and the Laplace mechanism for numbers of [-1, 1]: their constants and moments exactly, their samplers
against the exact distribution function at fine resolution, large budgets, and errors.

The registry's tests (``test_registered.py``) tie each to its exact channel on a grid; these go further where a grid's
few cells are coarse: a Kolmogorov-Smirnov test against the continuous distribution itself.
"""

from __future__ import annotations

import random
from fractions import Fraction

import numpy as np
import pytest
import z3
from scipy.stats import kstest, laplace

from ldpspec import spec
from ldpspec.reference.shared.harmony import Harmony, harmony_probability
from ldpspec.reference.shared.laplace import Laplace
from ldpspec.reference.shared.pm import PiecewiseMechanism, pm_centre, pm_constants
from ldpspec.spec.exact import Exact
from ldpspec.spec.nats import Nats
from ldpspec.spec.numbers import budget
from tests.support.fit import ALPHA

BUDGETS = ["1/2", "1", "3", "log(4)"]


@pytest.mark.parametrize("eps", BUDGETS)
def test_pm_masses_ratio_and_moments_are_exact(eps):
    """Centre mass s/(s+1), tails 1/(s+1); the ratio of any two densities at most e^eps, attained between v = -1 and
    v = 1; E[v*|v] = v and Var[v*|v] = v^2/(s-1) + (s+3)/(3(s-1)^2), from the densities by exact integration."""
    mechanism = PiecewiseMechanism(eps, [-1, "-1/3", 0, "1/2", 1])
    s = mechanism.s
    C, pr = pm_constants(s)
    assert pr * (C - 1) + pr * (C + 1) / s ** 2 == 1
    channel = mechanism.channel()
    assert spec.ldp_epsilon(channel) == budget(eps)
    for x in channel.inputs:
        density = channel.density(x, None)
        assert density.mass == 1
        mean, variance = mechanism.release_moments(x)
        assert density.moment(1) == mean
        assert density.moment(2) - mean * mean == variance


@pytest.mark.parametrize("eps", ["1/2", "1", "3"])
def test_laplace_is_eps_ldp_and_its_moments_are_exact(eps):
    mechanism = Laplace(eps, [-1, "-1/2", 0, "1/2", 1])
    channel = mechanism.channel()
    assert spec.ldp_epsilon(channel) == Nats.rational(budget(eps).as_rational())
    for x in channel.inputs:
        density = channel.density(x, None)
        assert density.moment(1) == mechanism.release_moments(x)[0]
        assert density.moment(2) - density.moment(1) ** 2 == mechanism.release_moments(x)[1]


@pytest.mark.parametrize("eps", BUDGETS)
def test_harmony_is_eps_ldp_between_the_ends(eps):
    mechanism = Harmony(eps, [-1, "-0.2", "0.7", 1])
    losses = spec.pairwise_loss(mechanism.channel())
    assert max(loss for loss, _ in losses.values()) == budget(eps)
    assert losses[("-1", "1")][0] == budget(eps)
    mean, variance = mechanism.estimate_moments(["-0.2"])
    assert mean == [Exact.rational(-1) / 5] and variance == [mechanism.scale ** 2 - Exact.rational(1) / 25]


def proven(*premises_and_claim) -> bool:
    """Whether z3 proves the last formula from the others, for every value of their variables."""
    *premises, claim = premises_and_claim
    solver = z3.Solver()
    solver.add(*premises, z3.Not(claim))
    return solver.check() == z3.unsat


def test_harmony_family_is_harmony_at_every_number_and_budget():
    """The probabilities are affine in v for every E > 1: the family that interpolates the rows at -1 and 1 is
    Harmony on all of [-1, 1], so the kernel's verdict on the family covers every number."""
    E, v = z3.Reals("E v")
    for sign in (-1, 1):
        ends = [harmony_probability(E, z3.RealVal(end), sign) for end in (-1, 1)]
        t = (v + 1) / 2
        assert proven(E > 1, v >= -1, v <= 1, harmony_probability(E, v, sign) == ends[0] * (1 - t) + ends[1] * t)
    family = Harmony("log(3)").family()
    for x in ("-1", "-1/3", "0.7", "1"):
        assert family.row(x) == tuple(Harmony("log(3)", [x]).channel().rows[0])
    assert spec.ldp(family, "log(3)").holds
    assert not spec.ldp(family, Nats.log(3) - Nats.rational(Fraction(1, 1000))).holds


def test_pm_is_eps_ldp_at_every_number_and_budget():
    """Every density of PM is pr or pr/s^2 at every point of [-C, C], so any two inputs' ratio is at most s^2 = e^eps:
    z3 proves it for every s > 1, every v, v' in [-1, 1] and every y in [-C, C] (the grid check above finds it
    attained)."""
    s, v, v2, y = z3.Reals("s v v2 y")
    C, pr = pm_constants(s)

    def density(x):
        low, high = pm_centre(s, x)
        return z3.If(z3.And(y >= low, y < high), pr, pr / s ** 2)

    assert proven(s > 1, v >= -1, v <= 1, v2 >= -1, v2 <= 1, y >= -C, y <= C, density(v) <= s * s * density(v2))


def test_laplace_is_eps_ldp_at_every_number_and_budget():
    """Laplace with scale 2/eps on [-1, 1]: ln f(y|v) / f(y|v') = eps (|y - v'| - |y - v|) / 2, and z3 proves
    |y - v'| - |y - v| <= |v - v'| <= 2 for every y and v, v' in [-1, 1] (the triangle inequality), so the loss is at
    most eps for every budget; the grid check above finds it attained."""
    v, v2, y = z3.Reals("v v2 y")
    gap = z3.If(y >= v2, y - v2, v2 - y) - z3.If(y >= v, y - v, v - y)
    assert proven(v >= -1, v <= 1, v2 >= -1, v2 <= 1, gap <= z3.If(v >= v2, v - v2, v2 - v))
    assert proven(v >= -1, v <= 1, v2 >= -1, v2 <= 1, gap <= 2)


def pm_cdf(mechanism: PiecewiseMechanism, v: float):
    """The distribution function of PM's release for input ``v``, in floats, from Wang et al.'s three pieces."""
    s = float(mechanism.s)
    C, pr = (float(c) for c in pm_constants(mechanism.s))
    low = (C + 1) * v / 2 - (C - 1) / 2
    high = low + C - 1
    tail = pr / s ** 2

    def cdf(y):
        y = np.clip(y, -C, C)
        below = tail * (np.minimum(y, low) + C)
        centre = pr * np.clip(y - low, 0, high - low)
        above = tail * np.clip(y - high, 0, None)
        return below + centre + above

    return cdf


@pytest.mark.parametrize("v", [-1.0, -0.3, 0.0, 0.8, 1.0])
def test_pm_samplers_follow_the_continuous_distribution(v):
    mechanism = PiecewiseMechanism("1.5")
    rng = random.Random(11)
    plain = [mechanism.perturb(v, rng) for _ in range(20000)]
    twin = mechanism.twin.reports(np.full(20000, v), np.random.default_rng(12))
    cdf = pm_cdf(mechanism, v)
    assert kstest(plain, cdf).pvalue > ALPHA
    assert kstest(twin, cdf).pvalue > ALPHA


@pytest.mark.parametrize("v", [-1.0, 0.25, 1.0])
def test_laplace_samplers_follow_the_continuous_distribution(v):
    mechanism = Laplace("0.5")
    rng = random.Random(13)
    plain = [mechanism.perturb(v, rng) for _ in range(20000)]
    twin = mechanism.twin.reports(np.full(20000, v), np.random.default_rng(14))
    assert kstest(plain, laplace(loc=v, scale=4).cdf).pvalue > ALPHA
    assert kstest(twin, laplace(loc=v, scale=4).cdf).pvalue > ALPHA


def test_large_budgets_do_not_overflow():
    values = np.linspace(-1, 1, 101)
    rng = np.random.default_rng(15)
    for eps in ("1000", "100000"):
        harmony, pm, lap = Harmony(eps), PiecewiseMechanism(eps), Laplace(eps)
        assert float(harmony.scale) == pytest.approx(1.0)
        for mechanism in (harmony, pm, lap):
            reports = mechanism.twin.reports(values, rng)
            assert np.isfinite(reports).all()
            estimate = mechanism.twin.estimate(mechanism.twin.counts(reports), len(values))
            assert np.isfinite(estimate).all()
        # PM at a huge budget releases (nearly) the input itself: C -> 1, the centre is {v}
        assert np.allclose(pm.twin.reports(values, rng), values, atol=1e-6)
        assert pm.perturb("0.5", random.Random(1)) == pytest.approx(0.5, abs=1e-6)


@pytest.mark.parametrize("build, message", [
    (lambda: Harmony(0), "epsilon must be > 0 for Harmony"),
    (lambda: PiecewiseMechanism("0"), "epsilon must be > 0 for PM"),
    (lambda: Laplace(0), "epsilon must be > 0 for the Laplace mechanism"),
    (lambda: Laplace("log(3)"), "epsilon must be a rational number of nats for the Laplace mechanism"),
    (lambda: PiecewiseMechanism("log(3)"), r"epsilon: e\^\(log\(3\)/2\)"),
    (lambda: Harmony(-1), "epsilon must be a finite real number >= 0"),
    (lambda: Harmony(1, [0, "1.5"]), r"grid\[1\] must be a number in \[-1, 1\], got 1.5"),
    (lambda: PiecewiseMechanism(1, [0, "0.0"]), "grid must not repeat a number"),
    (lambda: PiecewiseMechanism(1, []), "grid must hold at least one number"),
    (lambda: Laplace(1, "0.5"), "grid must be a list of numbers"),
    (lambda: Laplace(1, ["exp(-1)"]), "grid must hold rational numbers"),
    (lambda: Harmony(1).perturb(2, random.Random(0)), r"v must be a number in \[-1, 1\], got 2"),
    (lambda: Harmony(1).perturb(True, random.Random(0)), "v must be a number"),
    (lambda: PiecewiseMechanism(1).twin.reports([0.5, 1.5], np.random.default_rng(0)), r"numbers in \[-1, 1\]"),
    (lambda: Laplace(1).twin.reports([0.5, float("nan")], np.random.default_rng(0)), r"numbers in \[-1, 1\]"),
    (lambda: Laplace(1).twin.reports(["a"], np.random.default_rng(0)), "not a number"),
    (lambda: Laplace(1).estimate([1.0, 2.0], 3), r"counts must be \[sum of the releases\]"),
    (lambda: Harmony(1).estimate([1, 2], 0), "n \\(the number of users\\) must be an integer >= 1"),
    (lambda: Harmony(1).twin.simulate_counts([1, 2], np.random.default_rng(0)), "one per grid value"),
])
def test_bad_input_is_refused_by_name(build, message):
    with pytest.raises(spec.SpecError, match=message):
        build()

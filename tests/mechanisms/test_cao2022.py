"""Cao et al.'s mechanisms under every reading of their release (``test_registered`` covers the defaults only)."""

from __future__ import annotations

import itertools
import random
from collections import Counter

import numpy as np
import pytest

from ldpspec import spec
from ldpspec.reference.cao2022.sets import SET_BLOCK, population_arrays, set_array, uniform_sets, user_set
from ldpspec.reference.cao2022.sugrr import SuGRR, SuGRRSample
from ldpspec.reference.cao2022.surap import SuRAP, SuRAPSample
from ldpspec.reference.cao2022.wheel import SuWheel, Wheel
from ldpspec.spec.exact import Exact
from ldpspec.verify.common import channel_row, count_distribution, count_moments
from tests.support.fit import SAMPLES, assert_fits, labelled

READINGS = [("multiset", "absent"), ("multiset", "empty"), ("set", "absent"), ("set", "empty")]


def mechanisms():
    for y0, empty in READINGS:
        yield f"sugrr-{y0}-{empty}", SuGRR("log(4)", 4, [0, 1], 2, y0, empty)
    for empty in ("absent", "empty"):
        yield f"sugrr-sample-{empty}", SuGRRSample("log(3)", 4, [0, 1], 2, empty)
    for y0 in ("vector", "sensitive-bits"):
        yield f"surap-{y0}", SuRAP("log(16)", 4, [0, 1], 2, y0)
        yield f"surap-sample-{y0}", SuRAPSample("log(4)", 4, [0, 2], 2, y0)
    # arcs of length p = 1/(3 + 2e) ~ 0.12: items 0 and 1 overlap, item 2 wraps around 1
    yield "suwheel-overlapping", SuWheel(1, 4, [0, 3], 2, ["0", "1/10", "9/10", "1/2"])
    yield "wheel-overlapping", Wheel(1, 4, 2, ["0", "1/10", "9/10", "1/2"])


MECHANISMS = dict(mechanisms())
POPULATION = [(0, 1), (0, 2), (2, 3)]


@pytest.mark.parametrize("name", sorted(MECHANISMS))
def test_samplers_fit_the_channel_under_every_reading(name):
    mechanism = MECHANISMS[name]
    channel = mechanism.channel()
    rng, generator = random.Random(5), np.random.default_rng(5)
    for s in channel.inputs:
        row = channel_row(channel, s)
        assert sum(row.values(), Exact.rational(0)) == 1
        assert_fits(labelled(mechanism, channel, [mechanism.perturb(s, rng) for _ in range(SAMPLES // 3)]), row)
        reports = mechanism.twin.reports([s] * (SAMPLES // 3), generator)
        assert_fits(labelled(mechanism, channel, mechanism.twin.outputs(reports)), row)


@pytest.mark.parametrize("name", sorted(MECHANISMS))
def test_counts_simulation_and_moments_under_every_reading(name):
    mechanism = MECHANISMS[name]
    channel = mechanism.channel()
    rows = [channel_row(channel, s) for s in POPULATION]
    reports = mechanism.twin.reports(POPULATION * 20, np.random.default_rng(6))
    assert list(mechanism.twin.counts(reports)) == mechanism.counts(mechanism.twin.outputs(reports))
    expected = count_distribution(rows, lambda y: mechanism.counts([y]))
    rng = np.random.default_rng(7)
    population = Counter(POPULATION)
    observed = Counter(tuple(mechanism.twin.simulate_counts(population, rng).tolist()) for _ in range(SAMPLES // 3))
    assert_fits(observed, expected)
    means, variances = count_moments(rows, lambda y: mechanism.counts([y]),
                                     lambda counts: mechanism.estimate(counts, 3))
    stated_means, stated_variances = mechanism.estimate_moments(POPULATION)
    assert means == list(stated_means) and variances == list(stated_variances)


def test_the_set_reading_biases_sugrr_and_the_multiset_reading_does_not():
    """Eq. (14) counts occurrences: unbiased when repeats are kept, biased when they merge (a claim of the audit)."""
    true_counts = [2, 1, 2, 1]  # of POPULATION
    for y0, unbiased in (("multiset", True), ("set", False)):
        means, _ = SuGRR("log(4)", 4, [0, 1], 2, y0).estimate_moments(POPULATION)
        assert (means == [Exact.rational(c) for c in true_counts]) is unbiased


@pytest.mark.parametrize("d, m", [(5, 2), (4, 3)])  # by rejection, and by permutation when m > d / 2
def test_the_uniform_sets_are_uniform(d, m):
    sets = uniform_sets(SAMPLES, d, m, np.random.default_rng(8))
    observed = Counter(tuple(sorted(row)) for row in sets.tolist())
    every = list(itertools.combinations(range(d), m))
    assert_fits(observed, {s: Exact.rational(1) / len(every) for s in every})


@pytest.mark.parametrize("build, message", [
    (lambda: SuGRR(1, 4, [0], 5), r"m \(the number of items of every set\) must be at most d = 4, got 5"),
    (lambda: SuGRR(1, 4, [0], 0), r"m \(the number of items of every set\) must be an integer in \[1, "),
    (lambda: SuGRR(1, 4, [4], 2), r"sensitive .* must hold items of 0 \.\. 3; entry 0 is 4"),
    (lambda: SuGRR(1, 4, [], 2), "must hold at least one item"),
    (lambda: SuGRR(1, 4, [0], 2, y0="bag"), "y0 must be one of multiset, set"),
    (lambda: SuGRR(1, 4, [0], 2).perturb((0,), random.Random()), "must hold exactly m = 2 items"),
    (lambda: SuGRR(1, 4, [0], 2).perturb((0, 0), random.Random()), "must not repeat"),
    (lambda: SuGRRSample(-1, 4, [0], 2), "epsilon must be a finite real number >= 0"),
    (lambda: SuGRR(1, 4, [0], 2).twin.reports(np.array([[0, 0]]), np.random.default_rng()), "m distinct items"),
])
def test_bad_input_is_refused(build, message):
    with pytest.raises(spec.SpecError, match=message):
        build()


def test_suwheel_holds_only_under_the_marginal_reading():
    """Revealing the non-sensitive items whose arc misses y0 rules sets out: on the whole release some (y0, R) has
    probability 0 under one set and not under another."""
    mechanism = SuWheel(1, 4, [0, 1], 2)
    channel, parameters = mechanism.channel(), mechanism.guarantee().parameters
    assert spec.suldp_marginal(channel, **parameters).holds
    verdict = spec.suldp_joint(channel, **parameters)
    assert not verdict and verdict.witness.log_ratio.is_infinite


def test_the_wheel_parameters_are_the_printed_ones():
    """p = 1/(2m - 1 + m e^eps), Omega = m p e^eps + 1 - m p, P_true = p e^eps / Omega, r = 1 - e^eps p / Omega, and
    their closed forms (algebra on those definitions): Omega = (2m e^eps + m - 1)/(2m - 1 + m e^eps),
    P_true = e^eps/(2m e^eps + m - 1)."""
    for m in (1, 2, 5):
        mechanism = SuWheel("0.7", 6, [0], m)
        E = Exact.exp("0.7")
        assert mechanism.p == 1 / (2 * m - 1 + m * E)
        assert mechanism.omega == (2 * m * E + m - 1) / (2 * m - 1 + m * E)
        assert mechanism.p_true == E / (2 * m * E + m - 1) and mechanism.r == 1 - E * mechanism.p / mechanism.omega


@pytest.mark.parametrize("build, message", [
    (lambda: SuWheel(1, 4, [0], 2, ["0", "1/4"]), r"hash_values must give one point of \[0, 1\) per item \(4\)"),
    (lambda: SuWheel(1, 4, [0], 2, ["0", "1/4", "1/2", "1"]), r"hash_values\[3\] must be in \[0, 1\), got 1"),
    (lambda: Wheel(1, 4, 2, "0123"), "must be a list of labels"),
])
def test_bad_wheel_input_is_refused(build, message):
    with pytest.raises(spec.SpecError, match=message):
        build()


def test_population_arrays_read_as_the_one_at_a_time_checks_do():
    """The whole-array reading of a population gives the sets (sorted) and counts the per-set checks give, and
    refuses what they refuse, with their message."""
    rng = np.random.default_rng(11)
    population = {tuple(int(x) for x in row): int(rng.integers(0, 5)) for row in uniform_sets(300, 20, 3, rng)}
    sets, counts = population_arrays(population, 20, 3)
    assert [tuple(row) for row in sets.tolist()] == [user_set(s, 20, 3) for s in population]
    assert counts.tolist() == list(population.values())
    for bad, message in [({(0, True, 2): 1}, "integers"), ({(0, 1, 1): 1}, "repeat"), ({(0, 1, 25): 1}, r"\[0, 19\]"),
                         ({(0, 1, 2): -1}, "non-negative"), ({(0, 1, 2): 1.5}, "non-negative")]:
        with pytest.raises(spec.InvalidParameter, match=message):
            population_arrays(bad, 20, 3)


def test_set_array_refuses_a_repeat_in_a_later_block():
    """The distinct-items check runs block by block: a repeat far past the first block is still refused."""
    rows = uniform_sets(SET_BLOCK, 50, 4, np.random.default_rng(12))
    rows[-1] = [3, 7, 3, 9]
    with pytest.raises(spec.InvalidParameter, match="distinct"):
        set_array(rows, 50, 4)

"""Cao et al.'s mechanisms under every reading of their release (``test_registered`` covers the defaults only)."""

from __future__ import annotations

import random
from collections import Counter

import numpy as np
import pytest

from ldpspec import spec
from ldpspec.reference.cao2022.sugrr import SuGRR, SuGRRSample, uniform_sets
from ldpspec.reference.cao2022.surap import SuRAP, SuRAPSample
from ldpspec.spec.exact import Exact
from ldpspec.verify.common import channel_row, exact_moments
from tests.support.fit import SAMPLES, assert_fits, exact_count_distribution

READINGS = [("multiset", "absent"), ("multiset", "empty"), ("set", "absent"), ("set", "empty")]


def mechanisms():
    for y0, empty in READINGS:
        yield f"sugrr-{y0}-{empty}", SuGRR("log(4)", 4, [0, 1], 2, y0, empty)
    for empty in ("absent", "empty"):
        yield f"sugrr-sample-{empty}", SuGRRSample("log(3)", 4, [0, 1], 2, empty)
    for y0 in ("vector", "sensitive-bits"):
        yield f"surap-{y0}", SuRAP("log(16)", 4, [0, 1], 2, y0)
        yield f"surap-sample-{y0}", SuRAPSample("log(4)", 4, [0, 2], 2, y0)


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
        assert_fits(Counter(mechanism.perturb(s, rng) for _ in range(SAMPLES // 3)), row)
        assert_fits(Counter(mechanism.twin.outputs(mechanism.twin.reports([s] * (SAMPLES // 3), generator))), row)


@pytest.mark.parametrize("name", sorted(MECHANISMS))
def test_counts_simulation_and_moments_under_every_reading(name):
    mechanism = MECHANISMS[name]
    channel = mechanism.channel()
    rows = [channel_row(channel, s) for s in POPULATION]
    reports = mechanism.twin.reports(POPULATION * 20, np.random.default_rng(6))
    assert list(mechanism.twin.counts(reports)) == mechanism.counts(mechanism.twin.outputs(reports))
    expected = exact_count_distribution(rows, lambda y: mechanism.counts([y]))
    rng = np.random.default_rng(7)
    population = Counter(POPULATION)
    observed = Counter(tuple(mechanism.twin.simulate_counts(population, rng).tolist()) for _ in range(SAMPLES // 3))
    assert_fits(observed, expected)
    means, variances = exact_moments(rows, lambda outputs: mechanism.estimate(mechanism.counts(outputs), 3))
    stated_means, stated_variances = mechanism.estimate_moments(POPULATION)
    assert means == list(stated_means) and variances == list(stated_variances)


def test_the_set_reading_biases_sugrr_and_the_multiset_reading_does_not():
    """Eq. (14) counts occurrences: unbiased when repeats are kept, biased when they merge (a claim of the audit)."""
    true_counts = [2, 1, 2, 1]  # of POPULATION
    for y0, unbiased in (("multiset", True), ("set", False)):
        means, _ = SuGRR("log(4)", 4, [0, 1], 2, y0).estimate_moments(POPULATION)
        assert (means == [Exact.rational(c) for c in true_counts]) is unbiased


def test_the_uniform_sets_are_uniform():
    sets = uniform_sets(SAMPLES, 5, 2, np.random.default_rng(8))
    observed = Counter(tuple(sorted(row)) for row in sets.tolist())
    assert_fits(observed, {s: Exact.rational(1) / 10 for s in [(a, b) for a in range(5) for b in range(a + 1, 5)]})


@pytest.mark.parametrize("build, message", [
    (lambda: SuGRR(1, 4, [0], 5), r"m \(the number of items of every set\) must be at most d = 4, got 5"),
    (lambda: SuGRR(1, 4, [0], 0), r"m \(the number of items of every set\) must be an integer in \[1, "),
    (lambda: SuGRR(1, 4, [4], 2), r"every item of sensitive .* must be an integer in \[0, 3\]"),
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

"""Every registered mechanism, built from its example parameters, has all its parts and they agree.

These tests read the registry, so a mechanism is covered as soon as it is registered, and a test fails when it lacks
a part: an exact channel, a claimed notion that holds on it, a plain reference whose sampler fits the channel, a twin
whose reports fit it, counts that agree, an aggregate simulation exact in distribution, an estimator whose exact
moments are the stated ones, a docs page, claims that exist, a benchmark workload.
"""

from __future__ import annotations

import inspect
import random
from collections import Counter

import numpy as np
import pytest
from scipy.stats import ks_2samp

import tests.support
from ldpspec.reference import plain_draws as draws
from ldpspec.reference.channelfile import has_densities
from ldpspec.reference.mechanism import (
    ContinuousReleases,
    DirectEncoding,
    Guarantee,
    IntervalFamily,
    SolvedParameters,
    Twin,
    interface_gaps,
)
from ldpspec.reference.registry import MECHANISMS, NOTIONS, PAPERS
from ldpspec.reference.shared.estimators import MeanOfReleases
from ldpspec.reference.stream import Stream
from ldpspec.spec.continuous import Density
from ldpspec.spec.errors import InvalidParameter
from ldpspec.spec.exact import Exact
from ldpspec.spec.loss import ldp_epsilon
from ldpspec.verify.claims import load_claims
from ldpspec.verify.common import channel_row, count_distribution, count_moments
from tests.support import DOCS
from tests.support.fit import ALPHA, SAMPLES, assert_fits, labelled

NAMES = sorted(MECHANISMS)


def example(name: str):
    return MECHANISMS[name].from_options(MECHANISMS[name].example())


EXAMPLES = {name: example(name) for name in NAMES}
CAPABILITIES = (DirectEncoding, IntervalFamily, SolvedParameters)


def inputs_of(name: str) -> list:
    return list(EXAMPLES[name].channel().inputs)


def sums(name: str) -> bool:
    """Whether the server sums numerical releases (``statistic = "sum"``) rather than counting outputs."""
    return MECHANISMS[name].statistic == "sum"


def population(name: str) -> list:
    """Three users with different inputs where there are that many, the first input repeated otherwise."""
    inputs = inputs_of(name)
    return [inputs[0], inputs[-1], inputs[len(inputs) // 2]]


@pytest.mark.parametrize("name", NAMES)
def test_the_declaration_is_complete(name):
    declaration = MECHANISMS[name]
    assert declaration.home == "shared" or declaration.home in PAPERS
    module = inspect.getmodule(declaration.build)
    assert module.__name__.startswith(f"ldpspec.reference.{declaration.home}."), "a mechanism lives in its home folder"
    assert declaration.notion is None or declaration.notion in NOTIONS
    assert declaration.example(), "an example gives a small channel"
    page = DOCS / declaration.docs
    assert page.is_file(), f"docs page {declaration.docs} is missing"
    assert f"`{name}`" in page.read_text(encoding="utf-8"), f"{declaration.docs} must name the mechanism `{name}`"
    claims = load_claims()
    assert all(claim_id in claims for claim_id in declaration.claims), "its claims must be registered in the audit"
    for parameter in declaration.parameters:
        assert parameter.help and (parameter.kind != "choice" or parameter.choices)
    signature = inspect.signature(declaration.build)
    assert {p.keyword for p in declaration.parameters} <= set(signature.parameters), "build takes every parameter"


CHOICES = [(name, parameter) for name in NAMES for parameter in MECHANISMS[name].parameters
           if parameter.kind == "choice"]


@pytest.mark.parametrize(("name", "parameter"), CHOICES, ids=[f"{n}-{p.name}" for n, p in CHOICES])
@pytest.mark.parametrize("wrong", [[], {}, None, 1, "no-such-choice"], ids=repr)
def test_a_choice_given_a_wrong_value_through_the_api_is_refused_by_name(name, parameter, wrong):
    """The Python API takes a choice as the string itself; anything else (an unhashable list included) is refused
    with the parameter's name and the choices, never a TypeError from a dictionary lookup."""
    declaration = MECHANISMS[name]
    keywords = {p.keyword: p.parse(text) for p in declaration.parameters
                if (text := declaration.example().get(p.name, p.default)) is not None}
    keywords[parameter.keyword] = wrong
    if wrong is None and not parameter.required:
        return  # None is how the API says "the default"
    with pytest.raises(InvalidParameter, match=f"{parameter.keyword}|{parameter.name}"):
        declaration.build(**keywords)


@pytest.mark.parametrize("name", NAMES)
def test_the_mechanism_has_every_part_it_declares(name):
    """The plain reference has the interface of a plain reference and of every capability its declaration names, and
    none it does not declare; its twin has the twin's interface; its workload makes the benchmark's users."""
    declaration, mechanism = MECHANISMS[name], EXAMPLES[name]
    for interface in declaration.interfaces():
        assert not interface_gaps(mechanism, interface), (interface.__name__, interface_gaps(mechanism, interface))
    undeclared = [interface.__name__ for interface in CAPABILITIES
                  if interface not in declaration.interfaces() and not interface_gaps(mechanism, interface)]
    assert not undeclared, f"{name} has capabilities its declaration does not name: {undeclared}"
    assert not interface_gaps(mechanism.twin, Twin), interface_gaps(mechanism.twin, Twin)
    assert (declaration.statistic == "sum") == isinstance(mechanism, MeanOfReleases)
    if declaration.direct_encoding:
        assert declaration.inputs == declaration.reports == "item", "a direct encoding reports one item for one"
    assert (declaration.inputs == "number") == (declaration.benchmark.group == "numbers")
    continuous = mechanism.channel().has_densities
    assert not continuous or not interface_gaps(mechanism, ContinuousReleases), "a point must be labelled by its cell"
    workload, inputs = declaration.benchmark.workload(50, 8, np.random.default_rng(0))
    assert len(inputs) == 50 and len(workload.twin.reports(inputs, np.random.default_rng(1))) == 50


@pytest.mark.parametrize("name", NAMES)
def test_the_claimed_notion_holds_on_the_exact_channel(name):
    mechanism = EXAMPLES[name]
    guarantee = mechanism.guarantee()
    assert isinstance(guarantee, Guarantee) and guarantee.notion == MECHANISMS[name].notion
    if guarantee.notion is None:  # no finite budget: the kernel must find an unbounded loss
        assert ldp_epsilon(mechanism.channel()).is_infinite
        return
    verdict = NOTIONS[guarantee.notion].check(mechanism.channel(), dict(guarantee.parameters))
    assert verdict.holds, verdict.to_json()


FAMILIES = [name for name in NAMES if MECHANISMS[name].interval_family]


@pytest.mark.parametrize("name", FAMILIES)
def test_the_claimed_notion_holds_on_every_number_of_the_interval(name):
    """A mechanism with a ``family()`` (its channel for every number, affine on segments) is the same channel on the
    grid, and its guarantee holds over the whole interval, as the verdict says."""
    mechanism = EXAMPLES[name]
    family, channel = mechanism.family(), mechanism.channel()
    for x, row in zip(channel.inputs, channel.rows):
        assert family.row(x) == tuple(row), x
    guarantee = mechanism.guarantee()
    verdict = NOTIONS[guarantee.notion].check(family, dict(guarantee.parameters))
    assert verdict.holds, verdict.to_json()
    assert verdict.parameters["inputs"].startswith("every number of")


@pytest.mark.parametrize("name", NAMES)
def test_the_reference_sampler_fits_the_channel(name):
    mechanism, rng = EXAMPLES[name], random.Random(1)
    channel = mechanism.channel()
    for x in inputs_of(name):
        releases = [mechanism.perturb(x, rng) for _ in range(SAMPLES)]
        assert_fits(labelled(mechanism, channel, releases), channel_row(channel, x))


CONTINUOUS = [name for name in NAMES if has_densities(EXAMPLES[name].channel())]


@pytest.mark.parametrize("name", [name for name in NAMES if name not in CONTINUOUS])
def test_the_reference_sampler_fits_the_channel_drawing_from_the_porting_stream(name):
    """The same ``perturb`` with the language-neutral stream: exact coins and uniform choices, reproducible from the
    seed."""
    mechanism = EXAMPLES[name]
    channel = mechanism.channel()
    for x in inputs_of(name):
        stream = Stream(f"{name} {x}".encode())
        releases = [mechanism.perturb(x, stream) for _ in range(SAMPLES)]
        assert_fits(labelled(mechanism, channel, releases), channel_row(channel, x))
        again = Stream(f"{name} {x}".encode())
        assert [mechanism.perturb(x, again) for _ in range(50)] == releases[:50]


@pytest.mark.parametrize("name", CONTINUOUS)
def test_a_continuous_release_from_the_porting_stream_is_drawn_from_the_channels_own_density(name):
    """Over the stream a continuous release is ``draws.from_density`` of the exact density the channel gives the
    input (all its components together: Wheel's ``y0`` whatever it reveals), release for release, and falls in an
    output of the channel. ``from_density`` itself is proven exact, cell by cell, in ``tests/porting/test_draws.py``;
    at about 50 ms a release, that proof stands in for a goodness-of-fit test here."""
    mechanism = EXAMPLES[name]
    channel = mechanism.channel()
    for x in inputs_of(name):
        density = Density.sum([channel.density(x, label) for label in channel.components[x]])
        stream, again = Stream(f"{name} {x}".encode()), Stream(f"{name} {x}".encode())
        releases = [mechanism.perturb(x, stream) for _ in range(4)]
        points = [release[0] if isinstance(release, tuple) else release for release in releases]
        assert points == [draws.from_density(again, density) for _ in range(4)]
        assert stream.bits_read == again.bits_read
        labelled(mechanism, channel, releases)  # each falls in an output of the channel (else InvalidChannel)


@pytest.mark.parametrize("name", CONTINUOUS)
def test_continuous_releases_from_the_porting_stream_fit_the_channel(name):
    """The goodness-of-fit test of the discrete mechanisms, on 1000 stream releases per input: in the deep profile
    only, at about 50 ms a release (the default run has the exact proof and the density check above)."""
    if not tests.support.DEEP:
        pytest.skip("the deep profile (pytest --deep): 1000 exactly drawn releases per input take about a minute")
    mechanism = EXAMPLES[name]
    channel = mechanism.channel()
    for x in inputs_of(name):
        stream = Stream(f"fit {name} {x}".encode())
        releases = [mechanism.perturb(x, stream) for _ in range(1000)]
        assert_fits(labelled(mechanism, channel, releases), channel_row(channel, x))


@pytest.mark.parametrize("name", NAMES)
def test_the_twin_reports_fit_the_channel(name):
    mechanism, rng = EXAMPLES[name], np.random.default_rng(2)
    channel = mechanism.channel()
    for x in inputs_of(name):
        reports = mechanism.twin.reports([x] * SAMPLES, rng)
        assert_fits(labelled(mechanism, channel, mechanism.twin.outputs(reports)), channel_row(channel, x))


@pytest.mark.parametrize("name", NAMES)
def test_twin_and_reference_count_the_same_reports(name):
    mechanism = EXAMPLES[name]
    reports = mechanism.twin.reports(population(name) * 50, np.random.default_rng(3))
    twin, reference = list(mechanism.twin.counts(reports)), mechanism.counts(mechanism.twin.outputs(reports))
    if sums(name):  # float sums: NumPy's pairwise summation against the correctly rounded one
        assert np.allclose(twin, reference, rtol=1e-12, atol=1e-12)
    else:
        assert twin == reference


@pytest.mark.parametrize("name", [name for name in NAMES if sums(name)])
def test_the_simulated_sum_has_the_distribution_of_the_reports_sum(name):
    """A sum of releases has no finite distribution to enumerate: the simulated sums against the sums of the twin's
    reports (which fit the exact channel) by a two-sample Kolmogorov-Smirnov test, both with fixed seeds."""
    mechanism, users = EXAMPLES[name], population(name)
    by_input = Counter(users)
    true_counts = [by_input.get(x, 0) for x in inputs_of(name)]
    rng = np.random.default_rng(4)
    simulated = [mechanism.twin.simulate_counts(true_counts, rng)[0] for _ in range(SAMPLES // 3)]
    drawn = [mechanism.twin.counts(mechanism.twin.reports(users, rng))[0] for _ in range(SAMPLES // 3)]
    assert ks_2samp(simulated, drawn).pvalue > ALPHA


@pytest.mark.parametrize("name", [name for name in NAMES if not sums(name)])
def test_the_simulated_counts_are_exact_in_distribution(name):
    mechanism, users = EXAMPLES[name], population(name)
    channel = mechanism.channel()
    expected = count_distribution([channel_row(channel, x) for x in users], lambda y: mechanism.counts([y]))
    by_input = Counter(users)
    true_counts = by_input if isinstance(users[0], tuple) else [by_input.get(x, 0) for x in inputs_of(name)]
    rng = np.random.default_rng(4)
    observed = Counter(tuple(mechanism.twin.simulate_counts(true_counts, rng).tolist()) for _ in range(SAMPLES))
    assert_fits(observed, expected)


@pytest.mark.parametrize("name", NAMES)
def test_the_estimator_has_the_stated_exact_moments(name):
    mechanism, users = EXAMPLES[name], population(name)
    channel = mechanism.channel()
    if sums(name):  # the mean of independent releases: moments of each user's density, integrated exactly
        first = [sum((part.moment(1) for part in channel.components[x].values()), Exact.rational(0)) for x in users]
        second = [sum((part.moment(2) for part in channel.components[x].values()), Exact.rational(0)) for x in users]
        n = len(users)
        means = [sum(first, Exact.rational(0)) / n]
        variances = [sum((m2 - m1 * m1 for m1, m2 in zip(first, second)), Exact.rational(0)) / (n * n)]
        stated_means, stated_variances = mechanism.estimate_moments(users)
        assert list(stated_means) == means and list(stated_variances) == variances
        return
    # The estimate reads the counts only, and the counts of several releases are the sum of each one's counts (checked
    # here on releases of the twin), so the joint outcomes are enumerated as sums of count vectors (count_moments).
    releases = mechanism.twin.outputs(mechanism.twin.reports(users * 5, np.random.default_rng(8)))
    each = [mechanism.counts([y]) for y in releases]
    assert list(mechanism.counts(releases)) == [sum(column) for column in zip(*each)]
    means, variances = count_moments([channel_row(channel, x) for x in users], lambda y: mechanism.counts([y]),
                                     lambda counts: mechanism.estimate(counts, len(users)))
    stated_means, stated_variances = mechanism.estimate_moments(users)
    assert len(means) == len(stated_means)
    for computed, stated in zip(means + variances, list(stated_means) + list(stated_variances)):
        assert computed == stated  # exact numbers: the closed forms agree with the enumeration, not nearly


@pytest.mark.parametrize("name", NAMES)
def test_twin_and_reference_estimate_alike(name):
    mechanism = EXAMPLES[name]
    counts = mechanism.counts(mechanism.twin.outputs(mechanism.twin.reports(population(name) * 40,
                                                                             np.random.default_rng(5))))
    exact = [float(value) for value in mechanism.estimate(counts, 120)]
    assert np.allclose(mechanism.twin.estimate(np.array(counts), 120), exact, rtol=1e-12, atol=1e-9)

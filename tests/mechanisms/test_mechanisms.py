"""The mechanisms of Gu et al.: samplers against exact channels, twin against reference, moments against enumeration.

Goodness-of-fit tests use fixed seeds and a significance level of 1e-6, so
they are deterministic and fail only for a real mismatch.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter

import numpy as np
import pytest
from scipy.stats import chisquare

from ldpspec import spec
from ldpspec.reference import sampling as twin
from ldpspec.reference.shared.grr import grr_channel, grr_estimate, grr_perturb, grr_variance
from ldpspec.reference.gu2020.idue import PrivacyLevels, idue
from ldpspec.reference.gu2020.idue_ps import idue_ps, oue_ps, rappor_ps
from ldpspec.reference.gu2020.solvers import solve
from ldpspec.reference.shared.ps import padding_and_sampling, ps_distribution
from ldpspec.reference.shared.rr import rr_channel, rr_estimate, rr_perturb
from ldpspec.reference.shared.unary import oue, sue, unary_encoding
from ldpspec.spec.numbers import ctx
from ldpspec.verify.common import channel_row, exact_moments

ALPHA = 1e-6
SAMPLES = 30000


def assert_fits(observed: Counter, expected: dict):
    """Pearson chi-square of observed outcomes against exact probabilities; impossible outcomes must not occur."""
    impossible = [y for y in observed if expected.get(y, 0) == 0]
    assert not impossible, f"outcomes with probability 0 were drawn: {impossible[:3]}"
    outcomes = [y for y, p in expected.items() if p > 0]
    f_obs = np.array([observed.get(y, 0) for y in outcomes], dtype=float)
    f_exp = np.array([float(expected[y]) for y in outcomes]) * f_obs.sum()
    assert chisquare(f_obs, f_exp).pvalue > ALPHA


def unpack(packed: np.ndarray, bits: int) -> list[tuple]:
    return [tuple(int(v) for v in row) for row in np.unpackbits(packed, axis=1, count=bits)]


THREE_LEVELS = PrivacyLevels.from_sizes([ctx.log(2), 1, 2], [1, 1, 1])
IDUE_SOLUTION = solve(THREE_LEVELS, "opt0")
IDUE = idue(THREE_LEVELS, IDUE_SOLUTION.a, IDUE_SOLUTION.b)
SET_LEVELS = PrivacyLevels.from_sizes([1, 2], [1, 2])
SET_SOLUTION = solve(SET_LEVELS, "opt1")
IDUE_PS = {release: idue_ps(SET_LEVELS, SET_SOLUTION.a, SET_SOLUTION.b, padding=2, release=release)
           for release in ("all", "real")}


# --- reference samplers against the exact channel ---------------------------------------------------

def test_rr_sampler_matches_its_channel():
    rng, channel = random.Random(1), rr_channel("0.8")
    for bit in (0, 1):
        assert_fits(Counter(rr_perturb(bit, "0.8", rng) for _ in range(SAMPLES)), channel_row(channel, bit))


def test_grr_sampler_matches_its_channel():
    rng, channel = random.Random(2), grr_channel(1, 4)
    for item in range(4):
        assert_fits(Counter(grr_perturb(item, 1, 4, rng) for _ in range(SAMPLES)), channel_row(channel, item))


@pytest.mark.parametrize("encoding", [sue(1, 3), oue(1, 3), IDUE], ids=["sue", "oue", "idue"])
def test_unary_sampler_matches_its_channel(encoding):
    rng, channel = random.Random(3), encoding.channel()
    for item in range(encoding.d):
        assert_fits(Counter(encoding.perturb(item, rng) for _ in range(SAMPLES)), channel_row(channel, item))


def test_padding_and_sampling_matches_its_distribution():
    rng = random.Random(4)
    for items, padding in [((), 2), ((1,), 3), ((0, 2), 2), ((0, 1, 3), 2)]:
        observed = Counter(padding_and_sampling(items, padding, 4, rng) for _ in range(SAMPLES))
        assert_fits(observed, ps_distribution(items, padding, 4))


@pytest.mark.parametrize("release", ["all", "real"])
def test_idue_ps_sampler_matches_its_channel(release):
    rng, mechanism = random.Random(5), IDUE_PS[release]
    channel = mechanism.channel()
    for items in [(), (0,), (1, 2), (0, 1, 2)]:
        assert_fits(Counter(mechanism.perturb(items, rng) for _ in range(SAMPLES)), channel_row(channel, items))


# --- the twin against the exact channel ---------------------------------------------------------------

def test_twin_grr_reports_match_the_channel():
    rng, channel = np.random.default_rng(6), grr_channel(1, 4)
    for item in range(4):
        reports = twin.grr_reports(np.full(SAMPLES, item), 1, 4, rng)
        assert_fits(Counter(reports.tolist()), channel_row(channel, item))


@pytest.mark.parametrize("encoding", [sue(1, 3), oue(1, 3), IDUE], ids=["sue", "oue", "idue"])
def test_twin_unary_reports_match_the_channel(encoding):
    rng, channel = np.random.default_rng(7), encoding.channel()
    for item in range(encoding.d):
        packed = twin.unary_reports(np.full(SAMPLES, item), encoding, rng)
        assert packed.shape == (SAMPLES, 1) and packed.dtype == np.uint8  # 8 bits to a byte
        assert_fits(Counter(unpack(packed, encoding.d)), channel_row(channel, item))


@pytest.mark.parametrize("release", ["all", "real"])
def test_twin_idue_ps_reports_match_the_channel(release):
    rng, mechanism = np.random.default_rng(8), IDUE_PS[release]
    channel = mechanism.channel()
    for items in [(), (2,), (0, 1), (0, 1, 2)]:
        packed = twin.idue_ps_reports([items] * SAMPLES, mechanism, rng)
        assert_fits(Counter(unpack(packed, mechanism.released_bits)), channel_row(channel, items))


def test_exact_bernoulli_draws_the_double_exactly():
    # 69/256 + 2^-20 has a three-byte expansion: the first byte ties one time in 256.
    p = 69 / 256 + 2 ** -20
    assert twin._expansion(p).tolist() == [69, 0, 16]
    draws = twin.ExactBernoulli([p, 0.0, 1.0]).draw_columns(2_000_000, np.random.default_rng(9))
    ones = draws[:, 0].sum()
    assert abs(ones - 2_000_000 * p) < 6 * (2_000_000 * p * (1 - p)) ** 0.5
    assert not draws[:, 1].any() and draws[:, 2].all()


# --- aggregate simulation: exact in distribution (tiny populations, enumerated) ----------------------

def exact_count_distribution(rows: list[dict], count) -> dict:
    """Distribution of the count vector of independent users whose outputs follow ``rows``."""
    distribution = {(): 1}
    for row in rows:
        updated = Counter()
        for partial, p in distribution.items():
            for y, q in row.items():
                if q > 0:
                    key = tuple(a + b for a, b in itertools.zip_longest(partial, count(y), fillvalue=0))
                    updated[key] += p * q
        distribution = dict(updated)
    return distribution


def test_grr_simulated_counts_are_exact_in_distribution():
    channel, items = grr_channel(1, 3), [0, 0, 2]
    expected = exact_count_distribution([channel_row(channel, x) for x in items],
                                        lambda y: tuple(int(y == k) for k in range(3)))
    rng = np.random.default_rng(10)
    observed = Counter(tuple(twin.grr_simulate_counts([2, 0, 1], 1, 3, rng).tolist()) for _ in range(SAMPLES))
    assert_fits(observed, expected)


def test_unary_simulated_counts_are_exact_in_distribution():
    channel, items = IDUE.channel(), [0, 1, 1, 2]
    expected = exact_count_distribution([channel_row(channel, x) for x in items], lambda y: y)
    rng = np.random.default_rng(11)
    observed = Counter(tuple(twin.unary_simulate_counts([1, 2, 1], IDUE, rng).tolist()) for _ in range(SAMPLES))
    assert_fits(observed, expected)


@pytest.mark.parametrize("release", ["all", "real"])
def test_idue_ps_simulated_counts_are_exact_in_distribution(release):
    mechanism = IDUE_PS[release]
    channel = mechanism.channel()
    sets = {(0,): 1, (0, 1, 2): 1, (): 1}
    expected = exact_count_distribution([channel_row(channel, s) for s in sets], lambda y: y)
    rng = np.random.default_rng(12)
    observed = Counter(tuple(twin.idue_ps_simulate_counts(sets, mechanism, rng).tolist()) for _ in range(SAMPLES))
    assert_fits(observed, expected)


# --- estimators and variances against exhaustive enumeration -----------------------------------------

def test_grr_estimator_is_unbiased_with_the_stated_variance():
    d, items = 3, [0, 0, 1]
    channel = grr_channel(1, d)
    variance, _ = grr_variance([2, 1, 0], 1, d)
    p, q = channel.probability(0, 0), channel.probability(0, 1)
    for i in range(d):
        mean, var = exact_moments([channel_row(channel, x) for x in items],
                                  lambda ys: (sum(y == i for y in ys) - 3 * q) / (p - q))
        assert abs(mean - [2, 1, 0][i]) < 1e-40 and abs(var - variance[i]) < 1e-40


@pytest.mark.parametrize("encoding", [unary_encoding("0.7", "0.2", 2), IDUE], ids=["ue", "idue"])
def test_unary_estimator_is_unbiased_with_the_variance_of_eq8(encoding):
    items = [0, 1, 1] if encoding.d == 2 else [0, 2, 2]
    true = [items.count(i) for i in range(encoding.d)]
    variance, total = encoding.variance(true)
    rows = [channel_row(encoding.channel(), x) for x in items]
    for i, bit in enumerate(encoding.bits):
        mean, var = exact_moments(rows, lambda ys: (sum(y[i] for y in ys) - len(items) * bit.q) / (bit.p - bit.q))
        assert abs(mean - true[i]) < 1e-40 and abs(var - variance[i]) < 1e-40
    assert abs(total - sum(variance)) < 1e-40


def test_idue_ps_moments_include_the_bias_of_large_sets():
    mechanism = IDUE_PS["all"]
    sets = [(0, 1, 2), (1,)]  # the first user has more items than the padding length 2
    means, variances = mechanism.estimate_moments(sets)
    rows = [channel_row(mechanism.channel(), s) for s in sets]
    for i, bit in enumerate(mechanism.encoding.bits[: mechanism.m]):
        mean, var = exact_moments(rows, lambda ys: 2 * (sum(y[i] for y in ys) - 2 * bit.q) / (bit.p - bit.q))
        assert abs(mean - means[i]) < 1e-40 and abs(var - variances[i]) < 1e-40
    assert abs(means[0] - ctx.mpf(2) / 3) < 1e-40  # item 0 is held once but sampled with probability 1/3: 2/3


# --- twin and reference agree ---------------------------------------------------------------------------

def test_twin_and_reference_estimates_agree_on_the_same_counts():
    counts = [5, 9, 2, 7]
    assert np.allclose(twin.grr_estimate(counts, 23, 1, 4), grr_estimate(counts, 23, 1, 4), rtol=0, atol=1e-9)
    encoding = oue(1, 4)
    assert np.allclose(twin.unary_estimate(counts, 23, encoding), encoding.estimate(counts, 23), rtol=0, atol=1e-9)
    mechanism = oue_ps(1, 3, 2)
    assert np.allclose(twin.idue_ps_estimate(counts, 23, mechanism), mechanism.estimate(counts, 23), rtol=0, atol=1e-9)


def test_rr_estimate_inverts_the_expectation():
    p = float(ctx.exp(1) / (1 + ctx.exp(1)))
    reports = [1] * 700 + [0] * 300
    assert abs(rr_estimate(reports, 1) - (0.7 - (1 - p)) / (2 * p - 1)) < 1e-12


def test_baseline_set_mechanisms_use_their_parameters():
    for mechanism, bits in ((oue_ps(1, 3, 2), oue(1, 5).bits), (rappor_ps(1, 3, 2), sue(1, 5).bits)):
        assert mechanism.encoding.bits == bits


def test_large_budgets_in_the_twin():
    rng = np.random.default_rng(13)
    assert (twin.grr_reports(np.arange(5), 1000, 5, rng) == np.arange(5)).all()
    packed = twin.unary_reports(np.arange(4), sue(1000, 4), rng)
    assert (np.unpackbits(packed, axis=1, count=4) == np.eye(4, dtype=np.uint8)).all()


@pytest.mark.parametrize("call, message", [
    (lambda: padding_and_sampling((0, 0), 2, 3, random.Random()), "must not repeat"),
    (lambda: padding_and_sampling((5,), 2, 3, random.Random()), r"integers in \[0, 2\]"),
    (lambda: padding_and_sampling((0,), 0, 3, random.Random()), "padding_length must be an integer >= 1"),
    (lambda: idue_ps(SET_LEVELS, SET_SOLUTION.a, SET_SOLUTION.b, 2, release="some"), "release must be one of"),
    (lambda: idue_ps(SET_LEVELS, SET_SOLUTION.a, SET_SOLUTION.b, 2, dummy_level=5), "dummy_level must be a level index"),
    (lambda: grr_perturb(4, 1, 4, random.Random()), r"item must be an integer in \[0, 3\]"),
    (lambda: oue(1, 3).perturb(-1, random.Random()), r"item must be an integer in \[0, 2\]"),
    (lambda: twin.grr_reports(np.array([0, 7]), 1, 4, np.random.default_rng()), r"values in \[0, 3\]"),
    (lambda: twin.unary_simulate_counts([1, -1, 0], oue(1, 3), np.random.default_rng()), "non-negative integers"),
    (lambda: twin.idue_ps_simulate_counts({(0,): -2}, IDUE_PS["all"], np.random.default_rng()), "non-negative integer"),
    (lambda: unary_encoding("0.5", "0.5", 2).estimate([1, 1], 2), "p != q"),
    (lambda: rr_perturb(2, 1, random.Random()), "bit must be 0 or 1"),
    (lambda: rr_estimate([1, 0], 0), "epsilon must be > 0"),
])
def test_bad_mechanism_input(call, message):
    with pytest.raises(spec.SpecError, match=message):
        call()


def test_binary_rr_is_grr_on_two_items():
    for rr_row, grr_row in zip(rr_channel("0.7").rows, grr_channel("0.7", 2).rows):
        assert all(abs(a - b) < spec.RESOLUTION for a, b in zip(rr_row, grr_row))

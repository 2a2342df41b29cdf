"""The shared mechanisms' particulars, beyond what every registered mechanism is tested for (``test_registered``)."""

from __future__ import annotations

import random
from collections import Counter

import numpy as np
import pytest

from ldpspec import spec
from ldpspec.reference import channelfile
from ldpspec.reference.shared.grr import Grr
from ldpspec.reference.shared.olh import LocalHashing
from ldpspec.reference.shared.ps import padding_and_sampling, padding_and_sampling_many, ps_distribution
from ldpspec.reference.shared.rr import RandomizedResponse
from ldpspec.reference.shared.unary import oue, sue, ue
from ldpspec.reference.shared.urr import URR
from ldpspec.spec.exact import Exact
from ldpspec.spec.nats import Nats
from ldpspec.verify.common import channel_row, count_moments
from tests.support import EXAMPLES
from tests.support.fit import SAMPLES, assert_fits


def test_padding_and_sampling_matches_its_distribution():
    rng = random.Random(4)
    for items, padding in [((), 2), ((1,), 3), ((0, 2), 2), ((0, 1, 3), 2)]:
        observed = Counter(padding_and_sampling(items, padding, 4, rng) for _ in range(SAMPLES))
        assert_fits(observed, ps_distribution(items, padding, 4))


def test_padding_and_sampling_for_many_users_matches_its_distribution():
    rng = np.random.default_rng(4)
    for items, padding in [((), 2), ((1,), 3), ((0, 2), 2), ((0, 1, 3), 2)]:
        observed = Counter(padding_and_sampling_many([items] * SAMPLES, padding, 4, rng).tolist())
        assert_fits(observed, ps_distribution(items, padding, 4))


def test_the_rr_estimate_is_the_printed_formula():
    mechanism = RandomizedResponse(1)
    p = Exact.exp(1) / (1 + Exact.exp(1))
    estimate = mechanism.estimate([300, 700], 1000)[0]
    assert estimate == (Exact.of("0.7") - (1 - p)) / (2 * p - 1)


def test_binary_rr_is_grr_on_two_items():
    for rr_row, grr_row in zip(RandomizedResponse("0.7").channel().rows, Grr("0.7", 2).channel().rows):
        assert rr_row == grr_row


def test_ue_claims_the_budget_of_its_probabilities():
    assert ue("0.75", "0.25", 3).guarantee().parameters["epsilon"] == Nats.log(9)
    assert ue("0.25", "0.75", 3).guarantee().parameters["epsilon"] == Nats.log(9)  # p < q: the other way
    assert ue("1", "0.25", 3).guarantee().parameters == {}  # no finite budget


def test_large_budgets_in_the_twin():
    rng = np.random.default_rng(13)
    assert (Grr(1000, 5).twin.reports(np.arange(5), rng) == np.arange(5)).all()
    packed = sue(1000, 4).twin.reports(np.arange(4), rng)
    assert (np.unpackbits(packed, axis=1, count=4) == np.eye(4, dtype=np.uint8)).all()


def test_compact_reports():
    rng = np.random.default_rng(6)
    assert Grr(1, 200).twin.reports(np.zeros(10, dtype=int), rng).dtype == np.uint8
    assert Grr(1, 300).twin.reports(np.zeros(10, dtype=int), rng).dtype == np.uint16
    packed = oue(1, 17).twin.reports(np.zeros(10, dtype=int), rng)
    assert packed.shape == (10, 3) and packed.dtype == np.uint8  # 17 bits in 3 bytes


@pytest.mark.parametrize("call, message", [
    (lambda: padding_and_sampling((0, 0), 2, 3, random.Random()), "must not repeat"),
    (lambda: padding_and_sampling((5,), 2, 3, random.Random()), r"integers in \[0, 2\]"),
    (lambda: padding_and_sampling((0,), 0, 3, random.Random()),
     r"padding \(the padding length l\) must be an integer in \[1, 10,000,000\]"),
    (lambda: Grr(1, 4).perturb(4, random.Random()), r"item must be an integer in \[0, 3\]"),
    (lambda: oue(1, 3).perturb(-1, random.Random()), r"item must be an integer in \[0, 2\]"),
    (lambda: Grr(1, 4).twin.reports(np.array([0, 7]), np.random.default_rng()), r"values in \[0, 3\]"),
    (lambda: oue(1, 3).twin.simulate_counts([1, -1, 0], np.random.default_rng()), "non-negative integers"),
    (lambda: ue("0.5", "0.5", 2).estimate([1, 1], 2), "p != q"),
    (lambda: RandomizedResponse(1).perturb(2, random.Random()), r"bit must be an integer in \[0, 1\]"),
    (lambda: RandomizedResponse(0).estimate([1, 1], 2), "epsilon must be > 0"),
    (lambda: Grr(1, 1), r"d \(domain size\) must be an integer in \[2, 10,000,000\], got 1"),
    (lambda: oue(1, 2.5), r"d \(domain size\) must be an integer in \[2, 10,000,000\]"),
    (lambda: Grr(-1, 3), "epsilon must be a finite real number >= 0"),
    (lambda: URR(1, 3, []), r"sensitive \(the sensitive items X_sen\) must hold at least one item of 0 .. 2"),
    (lambda: URR(1, 3, [0, 3]), r"sensitive \(the sensitive items X_sen\) must hold items of 0 \.\. 2; entry 1 is 3"),
    (lambda: URR(1, 3, [1, 1]), "must not repeat an item"),
    (lambda: URR(1, 3, "01"), "must be a list of labels"),
])
def test_bad_mechanism_input(call, message):
    with pytest.raises(spec.SpecError, match=message):
        call()


def test_urr_is_the_hand_written_example_of_the_docs():
    """``docs/examples/urr.json`` was written by hand from Murakami and Kawamoto's table: c1 = 3/4, c2 = 1/4,
    c3 = 1/2 at eps = ln 3 with two sensitive items of three."""
    written = channelfile.read_channel_file(EXAMPLES / "urr.json").channel
    built = URR("log(3)", 3, [0, 1]).channel()
    assert built.rows == written.rows
    assert URR("log(3)", 3, [0, 1]).guarantee().parameters["epsilon"] == spec.Nats.log(3)


def test_urr_with_every_item_sensitive_is_grr():
    for eps, d in [("0.5", 2), ("log(5)", 4)]:
        assert URR(eps, d, range(d)).channel().rows == Grr(eps, d).channel().rows


@pytest.mark.parametrize(("epsilon", "d"), [("0", 2), ("0.5", 3), ("log(7)", 10), ("40", 5)])
def test_grr_is_keep_or_uniform_over_all_items_exactly(epsilon, d):
    """The O(d) simulation's decomposition: keep with p - q, else uniform over all d items, gives p and q."""
    mechanism = Grr(epsilon, d)
    keep = mechanism.p - mechanism.q
    assert keep + (1 - keep) / d == mechanism.p and (1 - keep) / d == mechanism.q


@pytest.mark.parametrize(("epsilon", "d", "sensitive"),
                         [("0.5", 3, [0]), ("log(7)", 6, [1, 2, 4]), ("2", 4, [0, 1, 2, 3])])
def test_urr_is_keep_or_uniform_over_the_sensitive_items_exactly(epsilon, d, sensitive):
    """The O(d) simulation's decomposition: keep with c1 - c2 (sensitive) or c3, else uniform over the k sensitive
    items, gives uRR's matrix."""
    mechanism = URR(epsilon, d, sensitive)
    k = len(sensitive)
    for x in range(d):
        keep = mechanism.c1 - mechanism.c2 if x in sensitive else mechanism.c3
        for y in range(d):
            drawn = keep * (x == y) + ((1 - keep) / k if y in sensitive else 0)
            assert mechanism.channel().probability(x, y) == drawn


def test_exact_moments_are_enumerated_over_count_vectors_for_hundreds_of_outputs():
    """OLH over 10 items with g = 7 has 343 outputs, so the joint outputs of three users number 343^3 = 4 * 10^7;
    grouped by what they add to the counts (``count_moments``), they take seconds, and the enumerated moments equal
    the closed form exactly. The guide's size budget for the registry's moment test rests on this."""
    mechanism = LocalHashing(1, 10, 7)
    channel = mechanism.channel()
    assert len(channel.outputs) == 343
    users = [0, 9, 4]
    means, variances = count_moments([channel_row(channel, x) for x in users], lambda y: mechanism.counts([y]),
                                     lambda counts: mechanism.estimate(counts, len(users)))
    stated_means, stated_variances = mechanism.estimate_moments(users)
    assert means == list(stated_means) and variances == list(stated_variances)

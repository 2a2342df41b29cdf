"""Sets of any size (Cao et al. Sec. 3.3): the normalisation, its bad input, and what the exact channel shows for
every inner mechanism and both readings of the fake items. The registry tests cover the example's parts."""

from __future__ import annotations

import random
from collections import Counter
from math import comb

import numpy as np
import pytest

from ldpspec import spec
from ldpspec.reference.cao2022.padding import INNER, Padded
from ldpspec.spec.errors import InvalidParameter
from ldpspec.spec.exact import Exact
from ldpspec.spec.numbers import budget


@pytest.mark.parametrize("items", [(0,), (1, 2), (0, 1, 3), (0, 1, 2, 3, 4)])
def test_the_normalised_sets_are_uniform_over_paddings_or_samples(items):
    padded = Padded("sugrr-sample", 1, 6, [0], 3, 5)
    distribution = padded.normalised(items)
    assert sum(distribution.values(), Exact.rational(0)) == 1
    for t in distribution:
        assert len(t) == 3 and len(set(t)) == 3
        real = [x for x in t if x < 6]
        assert set(real) <= set(items) and all(x in padded.fake_items for x in t if x >= 6)
    if len(items) < 3:
        assert all(set(items) <= set(t) for t in distribution)
        assert len(distribution) == comb(3, 3 - len(items))
    elif len(items) > 3:
        assert len(distribution) == comb(len(items), 3) and all(max(t) < 6 for t in distribution)
    assert len(set(distribution.values())) == 1  # every outcome equally likely


def test_the_plain_and_twin_normalisations_draw_the_exact_distribution():
    padded = Padded("sugrr-sample", 1, 6, [0], 3, 5)
    for items in [(4,), (1, 5), (0, 2, 3, 5)]:
        expected = {t: float(p) for t, p in padded.normalised(items).items()}
        rng = random.Random(7)
        plain = Counter(padded.normalise(items, rng) for _ in range(6000))
        twin = Counter(tuple(sorted(row.tolist())) for row in
                       padded.twin.normalise([items] * 6000, np.random.default_rng(8)))
        for observed in (plain, twin):
            assert set(observed) <= set(expected)
            for t, p in expected.items():  # 6000 draws: a 5-sigma band around each probability
                assert abs(observed[t] / 6000 - p) < 5 * (p * (1 - p) / 6000) ** 0.5 + 1e-9


@pytest.mark.parametrize("call, message", [
    (lambda: Padded("sugrr", 1, 4, [0], 2).perturb((), random.Random(0)), "at least one item"),
    (lambda: Padded("sugrr", 1, 4, [0], 2).perturb((0, 7), random.Random(0)), r"integers in \[0, 3\]"),
    (lambda: Padded("sugrr", 1, 4, [0], 2, 5), r"max_set_size .* in \[1, 4\]"),
    (lambda: Padded("grr", 1, 4, [0], 2), "inner must be one of"),
    (lambda: Padded("sugrr", 1, 4, [0], 2, dummies="fake"), "dummies must be one of"),
    (lambda: Padded("sugrr", 1, 4, [0], 5), "at most d = 4"),
])
def test_bad_input_is_refused(call, message):
    with pytest.raises(InvalidParameter, match=message):
        call()


@pytest.mark.parametrize("bad, message", [
    (5, "must be a list of items"), ("ab", "must be a list of items"), ((), "at least one item"),
    ((0, 0), "distinct|repeat"), ((0, "a"), "integers"), ((0, True), "integers"), ((0, 1.5), "integers"),
])
def test_the_twin_refuses_what_the_reference_refuses(bad, message):
    """Groups of sets are read as arrays for speed; a set that does not read as plain integers is checked alone, so a
    boolean or a string is refused with its message, as the plain reference refuses it."""
    padded = Padded("sugrr", 1, 4, [0], 2)
    with pytest.raises(InvalidParameter, match=message):
        padded.twin.reports([(1,), bad], np.random.default_rng(0))
    with pytest.raises(InvalidParameter, match=message):
        padded.twin.simulate_counts({(1,): 3, bad: 2}, np.random.default_rng(0))


def _verdict(inner: str, dummies: str):
    padded = Padded(inner, 1, 3, [0], 2, 3, dummies)
    guarantee = padded.guarantee()
    return spec.NOTIONS[guarantee.notion].check(padded.channel(), dict(guarantee.parameters))


@pytest.mark.parametrize("inner", sorted(INNER))
def test_non_sensitive_fake_items_are_revealed_and_break_condition_10(inner):
    """A release that reveals a fake item names an item no input set holds: the set was short."""
    verdict = _verdict(inner, "non-sensitive")
    assert not verdict.holds
    assert verdict.witness.condition == "invertible output" and "not non-sensitive items" in verdict.witness.detail


@pytest.mark.parametrize("inner", ["sugrr", "sugrr-sample", "surap-sample", "suwheel"])
def test_sensitive_fake_items_keep_the_mechanisms_notion(inner):
    assert _verdict(inner, "sensitive").holds


def test_surap_after_padding_and_sampling_fails_on_the_whole_release():
    """A set of three items keeps two of them: it reveals each of its non-sensitive items less often than a set of
    two that pads, so the same release is three times likelier from the short set (ln 3 > eps = 1)."""
    verdict = _verdict("surap", "sensitive")
    assert not verdict.holds and verdict.witness.condition == "ratio"
    assert {len(s) for s in verdict.witness.inputs} == {2, 3}
    assert verdict.witness.log_ratio == budget("log(3)")  # exactly


@pytest.mark.parametrize("users", [1, 60], ids=["one draw per user", "one multinomial per set"])
def test_the_simulation_normalises_every_user_uniformly(users, monkeypatch):
    """Both ways the aggregate simulation normalises a population (per user when a set has fewer users than ways
    to normalise it, one multinomial otherwise) keep every user and spread them uniformly over the ways."""
    padded = Padded("sugrr-sample", 1, 4, [0], 2, 4)
    population = {(3,): users, (0, 1, 2): users}
    seen = []
    monkeypatch.setattr(type(padded.inner.twin), "simulate_counts",
                        lambda self, normalised, rng: seen.append(dict(normalised)) or np.zeros(6, dtype=np.int64))
    rng = np.random.default_rng(13)
    for _ in range(3000):
        padded.twin.simulate_counts(population, rng)
    for items in population:
        ways = padded.normalised(items)
        for t in ways:
            counts = np.array([normalised.get(t, 0) for normalised in seen])
            p = 1 / len(ways)
            assert abs(counts.mean() - users * p) < 5 * (users * p * (1 - p) / len(seen)) ** 0.5
        assert all(sum(normalised.get(t, 0) for t in ways) == users for normalised in seen)

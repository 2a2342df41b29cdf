"""The IPLDP preprint's builders: the IPLDP predicate under each reading of ``budget_owner``, the count laws under
each reading of ``population``, and the scan that keeps the kernel's IPLDP predicate inside its builder."""

from __future__ import annotations

from fractions import Fraction

import pytest

from ldpspec.spec import Channel, Exact
from ldpspec.verify.claims import load_claims
from ldpspec.verify.ipldp2023 import builders, losses
from ldpspec.verify.ipldp2023.readings import BUDGET_OWNER


@pytest.fixture(scope="module", autouse=True)
def claims():
    return load_claims()


def _relaxed() -> tuple[Channel, dict]:
    """Two items with budgets 0.1 and 5: output 0's column has ratio exactly e^0.1, output 1's about e^0.62."""
    b = Exact.rational(Fraction(9, 10))
    a = b * Exact.exp(Fraction(-1, 10))
    return Channel((0, 1), (0, 1), [[a, 1 - a], [b, 1 - b]]), {0: Fraction(1, 10), 1: 5}


def test_the_ipldp_predicate_follows_the_budget_owner():
    channel, budgets = _relaxed()
    assert builders.ipldp_holds(channel, budgets, budget_owner="output")
    assert not builders.ipldp_holds(channel, budgets, budget_owner="input")  # input 0 is 0.62 from input 1
    relaxed = {0: Fraction(7, 10), 1: 5}
    assert builders.ipldp_holds(channel, relaxed, budget_owner="input")


def test_condition_2_holds_under_both_readings():
    leak = Channel((0, 1), (0, 1), [[Fraction(1, 2), Fraction(1, 2)], [Fraction(1, 2), Fraction(1, 2)]])
    for owner in BUDGET_OWNER.values:
        assert not builders.ipldp_holds(leak, {0: 1}, budget_owner=owner)  # item 1 non-sensitive, reached from 0
        assert builders.ipldp_holds(leak, {0: 1, 1: 1}, budget_owner=owner)


def test_tightest_budgets_are_met_under_their_reading():
    third = Fraction(1, 3)
    channel = Channel((0, 1, 2), (0, 1, 2), [[Fraction(1, 2), Fraction(1, 4), Fraction(1, 4)], [third] * 3,
                                             [Fraction(1, 6), Fraction(1, 6), Fraction(2, 3)]])
    for owner in BUDGET_OWNER.values:
        tightest = builders.tightest_budgets(channel, budget_owner=owner)
        assert builders.ipldp_holds(channel, tightest, budget_owner=owner)
        smaller = {x: eps - Fraction(1, 100) for x, eps in tightest.items()}
        assert not builders.ipldp_holds(channel, smaller, budget_owner=owner)


def test_the_two_populations_give_the_same_mean_and_different_variances():
    rows = [[Fraction(3, 4), Fraction(1, 4)], [Fraction(1, 4), Fraction(3, 4)]]
    p, n = [Fraction(1, 2), Fraction(1, 2)], 2
    mean = {pop: losses.expectation(rows, p, n, lambda c: Exact.rational(c[0]), population=pop)
            for pop in ("iid", "fixed")}
    square = {pop: losses.expectation(rows, p, n, lambda c: Exact.rational(c[0] * c[0]), population=pop)
              for pop in ("iid", "fixed")}
    assert mean["iid"] == mean["fixed"] == 1
    # Var: iid Bin(2, 1/2) = 1/2; fixed Bin(1, 3/4) + Bin(1, 1/4) = 3/16 + 3/16
    assert square["iid"] - 1 == Fraction(1, 2) and square["fixed"] - 1 == Fraction(3, 8)
    assert losses.expectation(rows, [Fraction(1, 3), Fraction(2, 3)], 2, lambda c: 0, population="fixed") is None

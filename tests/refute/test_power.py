"""The power a refutation states (``answer.detectable_excess``): the table of the page "Refuting an implementation's
privacy from samples" is what the code computes, and a loss at the stated excess is caught in at least 90% of
simulated runs (two binomial counts, their certified bounds, the comparison with the budget)."""

from __future__ import annotations

import math
import re
from fractions import Fraction

import numpy as np
import pytest

from ldpspec.reference import binomial
from ldpspec.reference.refute.answer import POWER, detectable_excess
from tests.support import DOCS

ALPHA, PAIRS = 0.01, 6
LEVEL = ALPHA / (2 * PAIRS)
SIZES = (10 ** 4, 10 ** 5, 10 ** 6)


def page_table() -> list:
    """The rows of the power table: ``(budget, P[E|x'], [excess or None per n])``."""
    text = (DOCS / "refute.md").read_text(encoding="utf-8")
    rows = re.findall(r"^\| (\d+) \| ([0-9.]+) \| ([0-9.]+|none) \| ([0-9.]+|none) \| ([0-9.]+|none) \|$", text,
                      re.MULTILINE)
    return [(float(b), float(q), [None if v == "none" else float(v) for v in values]) for b, q, *values in rows]


def test_the_page_table_is_what_the_code_states():
    rows = page_table()
    assert len(rows) == 7
    for budget, q, shown in rows:
        for n, value in zip(SIZES, shown):
            excess, _ = detectable_excess(q, budget, n, n, LEVEL)
            assert value == (None if excess is None else round(excess, 3)), (budget, q, n)


@pytest.mark.parametrize("budget, q, n", [(1.0, 0.1, 10 ** 4), (1.0, 0.01, 10 ** 5), (4.0, 0.001, 10 ** 4),
                                          (1.0, 0.2, 10 ** 5)])
def test_a_loss_at_the_stated_excess_is_caught_at_least_as_often_as_stated(budget, q, n):
    """Counts drawn from ``Bin(n, P[E|x])`` and ``Bin(n, q)`` with ``P[E|x] = q e^(b + excess)``; the certified
    bound exceeds the budget in at least 90% of 400 runs (with slack for 400 runs: 0.9 - 3 standard deviations)."""
    excess, needed = detectable_excess(q, budget, n, n, LEVEL)
    assert excess is not None
    p = q * math.exp(budget + excess)
    assert abs(p - needed) <= 1e-9 * needed
    rng = np.random.default_rng(7)
    level = Fraction(LEVEL)
    caught = 0
    runs = 400
    for k1, k2 in zip(rng.binomial(n, p, runs), rng.binomial(n, q, runs)):
        lower, upper = binomial.lower_bound(int(k1), n, level), binomial.upper_bound(int(k2), n, level)
        caught += lower > 0 and math.log(lower / upper) > budget
    assert caught / runs >= POWER - 3 * math.sqrt(POWER * (1 - POWER) / runs), caught


def test_no_power_is_stated_where_no_frequency_would_do():
    assert detectable_excess(0.5, 1.0, 10 ** 6, 10 ** 6, LEVEL) == (None, None)
    excess, needed = detectable_excess(0.0, 1.0, 10 ** 4, 10 ** 4, LEVEL)
    assert math.isinf(excess) and 0 < needed < 0.01

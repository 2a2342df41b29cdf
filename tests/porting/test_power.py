"""The power the conformance page states is measured: its table of catch rates is what the simulation
(``tests/porting/power_table.py``) computes, seeded, so the page cannot drift from the checker; and a sampler off by
the full stated deviation is caught as often as the stated power says (the runs are consistent with it)."""

from __future__ import annotations

from pathlib import Path

import pytest
from scipy.stats import binom

from ldpspec.reference.porting.conform import POWER
from tests.porting import power_table

PAGE = Path(__file__).resolve().parents[2] / "docs" / "porting" / "conform.md"


@pytest.fixture(scope="module")
def measured() -> dict:
    grr, item, oue = power_table.grr_rates(), power_table.item_rates(), power_table.bit_rates()
    return {"grr": grr, "item": item, "oue": oue, "table": power_table.table(grr, item, oue)}


def test_the_page_holds_the_measured_table(measured):
    assert measured["table"] in PAGE.read_text(encoding="utf-8"), measured["table"]


def test_the_stated_deviation_is_caught_with_the_stated_power_and_the_exact_sampler_is_not(measured):
    for key, runs in (("grr", power_table.GRR["runs"]), ("item", power_table.ITEM["runs"]),
                      ("oue", power_table.OUE["runs"])):
        _, caught = measured[key]
        assert power_table.FRACTIONS[0] == 0 and power_table.FRACTIONS[-1] == 1
        assert caught[0] == 0, key  # alpha = 1e-6: no exact sample set fails in these runs
        # The outputs test's stated deviation is tight (its power there is 0.99, not more), so about one set in a
        # hundred escapes: the runs must be consistent with a power of at least 0.99, a one-sided binomial test at
        # level 1e-3 (at most 8 escapes of 200, 21 of 1000).
        assert binom.sf(runs - caught[-1] - 1, runs, 1 - POWER) >= 1e-3, key
        assert caught == sorted(caught), key  # a larger deviation is caught at least as often, in these runs

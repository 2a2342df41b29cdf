"""The builders of Cao et al.'s choices (verify/cao2022/builders.py and the modules that hold the others): each
builds what its choice shapes from the running reading, and the MSE models refuse the readings they do not model."""

from __future__ import annotations

import pytest

from ldpspec.verify.cao2022 import builders, orders, suwheel
from ldpspec.verify.cao2022.communication import wheel_cells
from ldpspec.verify.cao2022.experiments import catalog_sensitive, mse
from ldpspec.verify.cao2022.readings import CONDITION_11, HASH, SUGRR_Y0
from ldpspec.verify.claims import CHOICES, complete_reading, load_claims, reading_context


@pytest.fixture(scope="module", autouse=True)
def claims():
    return load_claims()


def _reading(**values):
    return complete_reading("cao2022", values)


def test_every_choice_of_the_paper_has_a_builder():
    from ldpspec.verify.claims import BUILDERS
    built = {choice.name for builder in BUILDERS for choice in builder.choices
             if CHOICES["cao2022"].get(choice.name) is choice}
    assert built == set(CHOICES["cao2022"])


@pytest.mark.parametrize("value", SUGRR_Y0.values)
def test_the_sugrr_builder_builds_the_reading_s_release_and_records_it(value):
    with reading_context("cao2022", _reading(sugrr_y0=value)) as record:
        mechanism = builders.sugrr("1", 3, range(2), 2)
    assert mechanism.y0 == value and {"sugrr_y0", "empty"} <= record.consulted


def test_a_builder_refuses_a_value_the_claim_does_not_declare():
    with reading_context("cao2022", _reading()), pytest.raises(ValueError, match="neither varies nor fixes"):
        builders.sugrr("1", 3, range(2), 2, sugrr_y0="set")


def test_the_suldp_predicate_follows_condition_11():
    """suGRR with y0 a multiset, on y0 alone, fails (the number of sensitive outputs tells sets apart); on the
    whole release it holds (cao2022.theorem1)."""
    channel = builders.release_channel(builders.sugrr("1", 3, range(2), 2, sugrr_y0="multiset", empty="absent"))
    verdicts = {}
    for value in CONDITION_11.values:
        with reading_context("cao2022", _reading(condition_11=value)) as record:
            verdicts[value] = bool(builders.suldp(channel, range(2), "1"))
        assert "condition_11" in record.consulted
    assert verdicts == {"marginal": False, "joint-unrevealed": True, "joint": True}


@pytest.mark.parametrize("value", HASH.values)
def test_the_suwheel_release_has_one_channel_per_fixed_hash_or_one_mixture(value):
    with reading_context("cao2022", _reading(hash=value)):
        releases = builders.suwheel_releases((2, 1, 1, "1"))
    assert len(releases) == (4 if value == "fixed" else 1)


def test_the_mse_models_refuse_the_biased_readings():
    with reading_context("cao2022", _reading(hash_values="fixed")), pytest.raises(ValueError, match="biased"):
        suwheel.unbiased_variance((4, 2, 1, "1"))
    with reading_context("cao2022", _reading(sugrr_y0="set")), pytest.raises(ValueError, match="biased"):
        orders.item_variance("suGRR", "1", 4, 1, 2)


def test_the_other_builders_read_their_choices():
    with reading_context("cao2022", _reading()) as record:
        wheel_cells(8, 2, 1.0)
        mse("suRAP", "1", 10, 4, 2, 2, 1)
        catalog_sensitive("Movie")
        builders.eps_budgets()
    assert {"y0_precision", "mse_scale", "adult_genres", "eps_range"} <= record.consulted

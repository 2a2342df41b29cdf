"""The builders of Hao et al. 2023's choices read the running reading, record it, and build under it."""

from __future__ import annotations

import pytest

from ldpspec.verify.claims import reading_context
from ldpspec.verify.hiera2023 import experiments as ex
from ldpspec.verify.hiera2023.builders import collector, graded_privacy, lhp, merge, release_spread
from ldpspec.verify.hiera2023.readings import CHOICES

FIXED = {choice.name: choice.fixed for choice in CHOICES}
TWO_LEVELS = (("-1", "0", "1"), ("log(3)", "log(2)"))


def test_lhp_and_the_collector_are_built_under_the_running_reading():
    reading = FIXED | {"level_budget": "true", "compensation": "D", "size": "n", "clipping": "none"}
    with reading_context("hiera2023", reading) as record:
        mechanism = lhp(*TWO_LEVELS)
        hiera = collector(mechanism, 2)
    assert mechanism.level_budget == "true"
    assert (hiera.compensation, hiera.size, hiera.clip) == ("D", "n", False)
    assert record.consulted == {"level_budget", "compensation", "size", "clipping"}
    with reading_context("hiera2023", FIXED):
        assert lhp(*TWO_LEVELS) is not mechanism and lhp(*TWO_LEVELS) is lhp(*TWO_LEVELS)  # one object per reading
        assert not ex.unbiased_unclipped(collector(lhp(*TWO_LEVELS), 2))  # clipped as printed
    assert ex.unbiased_unclipped(collector(lhp(*TWO_LEVELS, level_budget="perturbed"), 2, compensation="D",
                                           size="n", clipping="none"))


def test_a_check_may_not_fix_a_choice_it_neither_varies_nor_fixes():
    with reading_context("hiera2023", FIXED), pytest.raises(ValueError, match="neither varies nor fixes"):
        merge(5, 2, compensation="D")
    with reading_context("hiera2023", FIXED, {"compensation"}):
        assert merge(5, 2, compensation="D") == ((), ((2, 1), (1, 1)), (), ((4, 1), (3, 1)), ((5, 1),))


def test_the_pair_function_and_the_variance_meaning_are_the_readings():
    from ldpspec.reference.hiera2023.graded_laplace import GradedLaplace

    channel = GradedLaplace(["-1", "0", "1"], [1, 1]).channel()  # one budget everywhere: 1-LDP whatever r
    for r in ("max", "min", "avg"):
        with reading_context("hiera2023", FIXED | {"pair_function": r}) as record:
            assert graded_privacy(channel, ["-1", "0", "1"], [1, 1]).holds
        assert record.consulted == {"pair_function"}
    with reading_context("hiera2023", FIXED | {"variance_meaning": "conditional"}):
        assert release_spread(4, 1) == 3
    with reading_context("hiera2023", FIXED | {"variance_meaning": "second-moment"}):
        assert release_spread(4, 1) == 4


def test_the_us_age_stand_in_is_the_reading_data():
    with reading_context("hiera2023", FIXED | {"data": "census-2010"}) as record:
        counts = ex.us_age()
    assert record.consulted == {"data"} and counts.sum() == ex.CENSUS_USERS
    assert ex.data_set("age-like").sum() == ex.USERS and ex.data_set("uniform").sum() == ex.USERS

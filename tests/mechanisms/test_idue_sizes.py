"""IDUE over a million items (issue 35, item 12): answers sized for a person, and refusals decided by the sizes.

``ldpspec idue solve --levels '[["1.0", 1000000]]'`` took 52 s and printed 96 MB, one entry per item; ``ldpspec
channel idue-ps --levels '[[1, 1000000]]' --padding 2`` solved and verified IDUE over every item for 12 s before
refusing a channel of 2^1,000,000 item sets. No test here measures time: each asserts the output's shape, or that
the solver never runs before a refusal.
"""

from __future__ import annotations

import json

import pytest

pytest.importorskip("scipy", reason="the IDUE solver (reference/gu2020) needs NumPy and SciPy")

from ldpspec.reference.gu2020 import idue_ps as idue_ps_module  # noqa: E402
from ldpspec.reference.gu2020.idue import solve_levels  # noqa: E402
from ldpspec.reference.gu2020.idue_ps import idue_ps, solved_idue_ps  # noqa: E402
from ldpspec.reference.gu2020.levels import PrivacyLevels, levels_of  # noqa: E402
from ldpspec.reference.gu2020.solvers import LISTED_ITEMS  # noqa: E402
from ldpspec.spec import InvalidParameter, SpecError  # noqa: E402
from tests.fuzz.contract import run  # noqa: E402


def test_a_solution_of_many_items_is_printed_per_level():
    levels = PrivacyLevels.from_sizes(["1.0", 2], [LISTED_ITEMS, 1])  # one more item than the default lists
    solution = solve_levels(levels)
    summary = solution.to_json()
    assert "items" not in summary
    assert summary["items_listed"].startswith(f"no: {LISTED_ITEMS + 1:,} items, more than {LISTED_ITEMS:,}")
    assert "--list-items" in summary["items_listed"]
    assert [(level["items"], level["a"], level["b"]) for level in summary["levels"]] == [
        (size, a.text(), b.text()) for size, a, b in zip(levels.sizes, solution.a, solution.b)]
    listed = solution.to_json(items=True)["items"]  # on request, every item, each its level's parameters
    assert len(listed) == LISTED_ITEMS + 1
    assert listed == [{"a": a.text(), "b": b.text()} for a, b in solution.item_parameters()]


def test_a_solution_of_few_items_lists_them_as_before():
    levels = PrivacyLevels.from_sizes([1, 2], [3, 2])
    summary = solve_levels(levels).to_json()
    assert len(summary["items"]) == 5 and "items_listed" not in summary
    assert "items" not in solve_levels(levels).to_json(items=False)


def test_idue_solve_over_many_items_prints_its_levels():
    status, out, err = run(["idue", "solve", "--levels", '[["1.0", 100000]]', "--model", "opt2"])
    assert status == 0, err
    result = json.loads(out)
    assert len(out) < 2000 and "items" not in result and result["verified"] is True
    assert result["levels"][0]["items"] == 100_000


def _never(*arguments, **keywords):
    raise AssertionError("the solver ran")


def test_the_channel_of_a_million_item_sets_is_refused_before_solving(monkeypatch):
    monkeypatch.setattr(idue_ps_module, "level_parameters", _never)
    mechanism = solved_idue_ps(levels=[[1, 1_000_000]], padding=2)
    with pytest.raises(SpecError, match=r"2\^1,000,000 item sets .* more than the limit of 1,000,000"):
        mechanism.channel()
    status, out, err = run(["channel", "idue-ps", "--levels", "[[1, 1000000]]", "--padding", "2"])
    assert status == 2 and out == "" and "2^1,000,000 item sets" in err and "--max-entries" in err


@pytest.mark.parametrize("options, message", [
    ({"model": "opt9"}, "model must be one of"),
    ({"box": "round"}, "box must be one of"),
    ({"r": "max"}, r"notion \(--notion\) must be"),
    ({"self_pairs": "some"}, "self_pairs must be one of"),
    ({"levels": [[0, 2], [1, 1]]}, "must be > 0 for IDUE"),
    ({"levels": [[400, 2]]}, "the IDUE solvers take budgets in"),
    ({"dummy_level": 5}, "dummy_level must be"),
    ({"solution": {"a": ["0.6"], "b": ["0.4"]}}, "one a and one b per item"),
])
def test_bad_arguments_are_refused_when_it_is_built(monkeypatch, options, message):
    """Solving waits for the parameters to be needed; checking the arguments does not."""
    monkeypatch.setattr(idue_ps_module, "level_parameters", _never)
    arguments = {"levels": [[1, 2], [2, 1]], "padding": 2, **options}
    with pytest.raises(InvalidParameter, match=message):
        solved_idue_ps(**arguments)


@pytest.mark.parametrize("release", ["all", "real"])
def test_the_solved_mechanism_is_idue_ps_with_the_solver_s_parameters(release):
    levels = [[1, 2], [2, 1]]
    mechanism = solved_idue_ps(levels=levels, padding=2, release=release, self_pairs="multi-item")
    privacy_levels = levels_of(None, levels)
    extended = PrivacyLevels(privacy_levels.budgets, (4, 1), privacy_levels.item_levels + (0, 0))
    solution = solve_levels(privacy_levels, self_pairs="multi-item", extended=extended)
    eager = idue_ps(privacy_levels, solution.a, solution.b, 2, release=release)
    assert mechanism.released_bits == eager.released_bits == (5 if release == "all" else 3)
    assert mechanism.channel().explicit().rows == eager.channel().explicit().rows
    assert mechanism.metadata == {"a": [v.text() for v in solution.a], "b": [v.text() for v in solution.b]}
    recorded = solved_idue_ps(levels=levels, padding=2, release=release, solution=mechanism.solution())
    assert recorded.channel().explicit().rows == eager.channel().explicit().rows

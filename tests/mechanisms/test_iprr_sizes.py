"""IPRR over many distinct budgets (issue 35, item 10): refused from the budgets alone, before any exact number, and
otherwise written over one denominator everywhere a sum of its numbers is taken.

``ldpspec channel iprr`` with 16 budgets ``1.00 .. 1.15`` took 36 s before refusing the exact text of its numbers;
with 20 it ran past 100 s, and ``--classes`` over 1,000 budgets past 130 s. No test here measures time: each asserts
what is refused and that the expensive work is never started, or the shape that keeps the work small.
"""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

from ldpspec import spec
from ldpspec.reference.ipldp2023 import iprr
from ldpspec.reference.ipldp2023.iprr import IPRR, MAX_EXPONENTS, exponent_count, one_denominator
from ldpspec.spec import ColumnClasses, InvalidParameter
from tests.fuzz.contract import run

GRID = [f"1.{k:02d}" for k in range(20)]  # budgets of the report: 1.00, 1.01, ... on a grid of 0.01


def _exponentials(budgets) -> list:
    return [spec.budget(b).exponential() for b in budgets]


def _never(*arguments, **keywords):
    raise AssertionError("an exact probability of IPRR was computed")


@pytest.fixture
def no_exact_arithmetic(monkeypatch):
    """Every path to IPRR's exact probabilities raises: a refusal must come before them."""
    for name in ("iprr_probabilities", "iprr_terms", "one_denominator", "shared_sum"):
        monkeypatch.setattr(iprr, name, _never)


@pytest.mark.parametrize("count", [16, 20, 1000])
def test_many_distinct_budgets_are_refused_before_any_exact_number(no_exact_arithmetic, count):
    budgets = GRID[:count] if count <= 20 else [f"1.{k:03d}" for k in range(count)]
    with pytest.raises(InvalidParameter) as refused:
        IPRR(budgets)
    message = str(refused.value)
    assert message.startswith("budgets: ")
    assert f"over these {count:,} distinct budgets" in message
    assert f"more than {MAX_EXPONENTS} such sums" in message and "iprr.MAX_EXPONENTS" in message
    assert "Give fewer distinct budgets" in message and "coarse grid" in message


@pytest.mark.parametrize("argv", [
    ["channel", "iprr", "--budgets", json.dumps(GRID)],
    ["channel", "iprr", "--budgets", json.dumps([f"1.{k:03d}" for k in range(1000)]), "--classes",
     "--max-entries", "10"],
])
def test_the_command_line_refuses_them_with_exit_2(no_exact_arithmetic, argv):
    status, out, err = run(argv)
    assert status == 2 and out == ""
    assert "more than 128 such sums" in err and "reference.ipldp2023.iprr.MAX_EXPONENTS" in err


def test_items_of_one_budget_share_its_terms():
    """The count is over the distinct budgets: 10^4 items in three levels are three factors."""
    budgets = ["0.5"] * 5000 + ["1"] * 3000 + ["2", None] * 1000
    assert exponent_count(IPRR(budgets).E, MAX_EXPONENTS) == 8  # the sums of subsets of {0.5, 1, 2}


@pytest.mark.parametrize("budgets, sums", [
    (["1", "2", "3"], 7),                                  # 0 .. 6
    (["0.5", "1", "1.5", "2"], 11),                        # 0 .. 5 in halves
    (["1", "1.5", "2.25", "3.125"], 16),                   # every subset its own sum
    (["log(2)", "log(3)"], 1),                             # rational e^eps: no exponent but 0
    (["log(exp(1)+2)", "1"], 3),                           # E = e + 2: exponents 0 and 1, twice
])
def test_the_count_is_the_sums_of_subsets_of_the_exponents(budgets, sums):
    assert exponent_count(_exponentials(budgets), 10_000) == sums


def test_the_count_stops_past_its_limit():
    """It stops at the first budget that takes it past the limit: at most twice the limit, whatever the budgets."""
    assert 50 < exponent_count(_exponentials(GRID), 50) <= 100
    assert exponent_count(_exponentials([f"1.{k:03d}" for k in range(1000)]), MAX_EXPONENTS) <= 2 * MAX_EXPONENTS


@pytest.mark.parametrize("budgets", [["0.11", "0.23", "0.37", "0.41"], ["1", "2", "3", "5", None],
                                     ["0.5", "log(3)", "1.25"]])
def test_the_count_bounds_the_terms_of_the_numbers(budgets):
    """Every numerator and denominator of the channel's entries has at most as many terms as the count."""
    mechanism = IPRR(budgets)
    count = exponent_count(mechanism.E, 10_000)
    for p in {id(p): p for row in mechanism.channel().rows for p in row}.values():
        assert len(p.num) <= count and len(p.den) <= count


def test_a_budget_set_at_the_limit_is_built():
    """Seven budgets whose subsets all have their own sums: 128 exponents, the limit, so the channel is built (and
    the channel file's writer refuses its long numbers by their text, as before)."""
    budgets = ["1", "1.5", "2.25", "3.125", "4.0625", "5.03125", "6.015625"]
    mechanism = IPRR(budgets)
    assert exponent_count(mechanism.E, MAX_EXPONENTS) == MAX_EXPONENTS
    assert mechanism.channel().probability(0, 0) == mechanism.q[0]
    assert exponent_count(mechanism.E + _exponentials(["7.0078125"]), MAX_EXPONENTS) > MAX_EXPONENTS


@pytest.mark.parametrize("budgets", [["0.11", "0.23", "0.37", "0.41", "0.53", "0.67", "0.71"],
                                     ["0.5", 1, None, "log(3)"], [None, None, None], ["2", "2", None]])
def test_the_column_structure_is_over_one_denominator(budgets):
    """``structure()`` (what ``--classes`` writes and the estimators read) has Definition 5's values over the one
    denominator of ``one_denominator``: its base values are ``S r_y`` and its extra ``S``, exactly; a class of
    ``--classes`` then sums numerators. Written ``S * r_y``, each had its own denominator ``(E_y - 1) M``, and
    seven budgets took minutes to check that the rows sum to 1."""
    mechanism = IPRR(budgets)
    structure = mechanism.structure()
    assert structure.base == [mechanism.S * r for r in mechanism.r]
    assert structure.extra == [mechanism.S] * mechanism.d
    shapes = {tuple(q for q, _ in p.den) for p in [*structure.base, *structure.extra] if p}
    assert len(shapes) == 1  # one denominator, up to a constant factor
    q, qbar, qtilde = one_denominator(mechanism.E)
    assert [p for p in structure.base if p] == [b for b in qbar if b is not None]


def test_classes_check_each_class_once(monkeypatch):
    """``ColumnClasses.from_columns`` reads each class's values as probabilities once (each check of a long exact
    number is interval arithmetic), not once to group the items and again to build the channel."""
    from ldpspec.spec import structured

    mechanism = IPRR(["0.11", "0.23", "0.37", None])
    structure = mechanism.structure()
    checked = []
    real = structured._probability
    monkeypatch.setattr(structured, "_probability", lambda value, name: checked.append(name) or real(value, name))
    classes = ColumnClasses.from_columns(structure.base, structure.extra)
    assert len(checked) == 2 * len(classes.base) == 2 * 4  # three budgets and the non-sensitive item


def test_classes_of_seven_budgets_are_written_or_refused_by_their_text():
    """``--classes`` over seven distinct budgets: its numbers are summed over one denominator; the file is refused
    only for the text of its numbers, as the matrix is."""
    budgets = json.dumps(["0.11", "0.23", "0.37", "0.41", "0.53", "0.67", "0.71"])
    status, out, err = run(["channel", "iprr", "--budgets", budgets, "--classes"])
    assert status == 2 and "whose exact text takes" in err and "more than the 2,000" in err
    status, out, err = run(["channel", "iprr", "--budgets", json.dumps(["0.5", "1", "2", None]), "--classes"])
    assert status == 0, err
    assert json.loads(out)["structure"] == "column-classes"


def test_the_estimators_agree_with_definition_5():
    """The empirical estimate through the column structure is the inverse of Definition 5's matrix, exactly."""
    from ldpspec.reference.shared.direct import empirical

    mechanism = IPRR(["0.5", 1, None, "log(3)"])
    counts = [7, 3, 5, 1]
    assert empirical(mechanism.structure(), counts) == empirical(mechanism.channel().rows, counts)
    assert sum(empirical(mechanism.structure(), counts), spec.ZERO) == Fraction(1)

"""Channels whose inputs come in classes (``spec.ClassedUnary``, ``spec.ColumnClasses``) against the explicit
computation: every pair's loss and witness output, and every pairwise notion's verdict (the kernel judging one pair
per pair of classes, refined by budget) equal to the verdict over every pair, on every small structure drawn; and a
deployment-sized IDUE judged whole."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ldpspec import spec
from ldpspec.spec.errors import InvalidChannel
from tests.support import examples

GRID = 8  # probabilities k / 8, 0 and 1 included


def grid_pair(k: int) -> tuple:
    return Fraction(GRID - k, GRID), Fraction(k, GRID)


classed_unary = st.integers(1, 3).flatmap(lambda classes: st.tuples(
    st.lists(st.integers(0, GRID), min_size=classes, max_size=classes),  # hot P[1] per class
    st.lists(st.integers(0, GRID), min_size=classes, max_size=classes),  # cold P[1] per class
    st.lists(st.integers(0, classes - 1), min_size=2, max_size=5)))  # each item's class


def unary_pair(case) -> tuple[spec.ClassedUnary, spec.IndependentBits]:
    hot, cold, items = case
    classed = spec.ClassedUnary([grid_pair(k) for k in hot], [grid_pair(k) for k in cold], items)
    explicit = spec.IndependentBits(range(len(items)), {
        x: [grid_pair(hot[c]) if k == x else grid_pair(cold[c]) for k, c in enumerate(items)]
        for x in range(len(items))})
    return classed, explicit


budget_choices = st.lists(st.sampled_from(["0", "1/2", "1", "2", "log(3)"]), min_size=5, max_size=5)


@settings(max_examples=examples(300), deadline=None)
@given(classed_unary)
def test_classed_unary_losses_equal_the_product_over_every_bit(case):
    classed, explicit = unary_pair(case)
    assert classed.explicit().rows == explicit.explicit().rows
    for x, x2 in itertools.permutations(classed.inputs, 2):
        assert classed.pair_loss(x, x2) == explicit.pair_loss(x, x2)  # the loss and the output attaining it


@settings(max_examples=examples(300), deadline=None)
@given(classed_unary, budget_choices)
def test_pairwise_notions_judged_by_class_equal_every_pair(case, choices):
    classed, explicit = unary_pair(case)
    d = len(classed.inputs)
    by_class = {x: choices[classed.item_classes[x]] for x in range(d)}  # constant on classes
    per_item = {x: choices[x] for x in range(d)}  # refining the classes
    for budgets in (by_class, per_item):
        for r in ("min", "avg", "max"):
            assert spec.id_ldp(classed, budgets, r).to_json() == _without_entries(spec.id_ldp(explicit, budgets, r))
    for epsilon in ("0", "1", "log(3)"):
        assert spec.ldp(classed, epsilon).to_json() == spec.ldp(explicit, epsilon).to_json()
    assert spec.ldp_epsilon(classed) == spec.ldp_epsilon(explicit)


column_classes = st.integers(1, 3).flatmap(lambda classes: st.tuples(
    st.lists(st.integers(0, 4), min_size=classes, max_size=classes),  # base numerators per class
    st.lists(st.integers(0, classes - 1), min_size=2, max_size=5),
    st.booleans()))  # no information: extra = 0, every row the same


def column_pair(case):
    """A column-structured channel and its explicit matrix, with the rows summing to 1: ``base`` scaled to leave
    room, ``extra = 1 - sum base`` for every class present (0 when the case asks for rows that tell nothing)."""
    bases, items, uninformative = case
    total = sum(bases[c] for c in items)
    uninformative = uninformative and total > 0 and max(bases) <= total
    scale = Fraction(1, total) if uninformative else Fraction(1, 2 * max(total, *bases, 1))
    base = [Fraction(b) * scale for b in bases]
    extra = [1 - total * scale] * len(bases)
    classed = spec.ColumnClasses(base, extra, items)
    explicit = spec.Channel(range(len(items)), range(len(items)), [
        [base[items[y]] + (extra[items[y]] if x == y else 0) for y in range(len(items))] for x in range(len(items))])
    return classed, explicit


def _without_entries(verdict) -> dict:
    """A verdict's JSON without its witness's two channel entries, which only a matrix's witness carries."""
    data = verdict.to_json()
    if data["witness"] is not None:
        data["witness"].pop("probabilities", None)
        data["witness"].get("exact", {}).pop("probabilities", None)
    return data


@settings(max_examples=examples(300), deadline=None)
@given(column_classes, budget_choices)
def test_column_classes_equal_the_explicit_matrix(case, choices):
    classed, explicit = column_pair(case)
    assert classed.explicit().rows == explicit.rows
    for x, x2 in itertools.permutations(classed.inputs, 2):
        assert classed.pair_loss(x, x2) == spec.pair_loss(explicit, x, x2)
    budgets = {x: choices[x] for x in classed.inputs}
    for r in ("min", "avg"):
        assert spec.id_ldp(classed, budgets, r).to_json() == _without_entries(spec.id_ldp(explicit, budgets, r))
    # LDP of an explicit matrix is judged output by output (its witness is a column's extremes): the same verdict
    for epsilon in ("0", "1"):
        by_class, by_output = spec.ldp(classed, epsilon), spec.ldp(explicit, epsilon)
        assert (by_class.holds, by_class.margin) == (by_output.holds, by_output.margin)
        assert by_class.witness.log_ratio == by_output.witness.log_ratio
    assert spec.ldp_epsilon(classed) == spec.ldp_epsilon(explicit)


def test_judged_pairs_take_one_pair_per_pair_of_classes_refined_by_label():
    channel = spec.ClassedUnary([grid_pair(4)] * 2, [grid_pair(1)] * 2, [0, 1, 0, 0, 1])
    assert channel.judged_pairs() == [(0, 1), (0, 2), (1, 0), (1, 4)]
    labels = {0: "a", 1: "a", 2: "b", 3: "a", 4: "a"}  # item 2 of class 0 stands alone
    assert channel.judged_pairs(labels) == [(0, 1), (0, 2), (0, 3), (1, 0), (1, 2), (1, 4), (2, 0), (2, 1)]


@pytest.mark.parametrize("build, message", [
    (lambda: spec.ClassedUnary([("1/2", "1/2")], [("1/2", "1/2")], [0]), "at least 2 items"),
    (lambda: spec.ClassedUnary([("1/2", "1/2")], [("1/2", "1/2")], [0, 1]), "class of item 1"),
    (lambda: spec.ClassedUnary([("1/2", "1/3")], [("1/2", "1/2")], [0, 0]), "must be 1"),
    (lambda: spec.ColumnClasses(["1/4"], ["1/4"], [0, 0]), "sum to 1"),
    (lambda: spec.ColumnClasses(["1/4"], ["1/2"], [0, True]), "class of item 1"),
])
def test_bad_structures_are_refused_by_name(build, message):
    with pytest.raises(InvalidChannel, match=message):
        build()


def test_idue_over_100000_items_is_judged_whole():
    """MinID-LDP of IDUE with 10^5 items in three levels, all of it (the verdict's witness is a pair of items and the
    whole vector of bits), and the same verdict as on two items per level."""
    pytest.importorskip("scipy", reason="the IDUE solver (reference/gu2020) needs NumPy and SciPy")
    from ldpspec.reference.gu2020.idue import solve_levels
    from ldpspec.reference.gu2020.levels import PrivacyLevels, idue, verify_idue

    small = PrivacyLevels.from_sizes([1, "1.2", 2], [2, 2, 2])
    solution = solve_levels(small)
    large = PrivacyLevels.from_sizes([1, "1.2", 2], [5_000, 5_000, 90_000])
    verdict = verify_idue(large, solution.a, solution.b)  # per-pair work (10^10 pairs) would be refused by max_work
    assert verdict.holds and verdict.margin == verify_idue(small, solution.a, solution.b).margin
    assert len(verdict.witness.output) == 100_000
    tight = [a * 1.0001 for a in solution.a]  # a little more likely to keep the true bit: over the budget
    assert not verify_idue(large, tight, solution.b).holds
    assert len(idue(large, solution.a, solution.b).channel().input_classes()) == 3

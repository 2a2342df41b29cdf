"""Affine families: a channel for every number of an interval, decided on its corner channel.

The segment-end lemma is proven here once, by z3, for every non-negative end value; the corner channel is then
checked against dense grids of the interval (its loss is never exceeded, and is approached at open ends).
"""

from __future__ import annotations

from fractions import Fraction

import pytest
import z3
from hypothesis import given, settings
from hypothesis import strategies as st

from ldpspec.spec.channel import Channel
from ldpspec.spec.errors import InvalidChannel, InvalidParameter
from ldpspec.spec.exact import Exact
from ldpspec.spec.families import AffineFamily
from ldpspec.spec.loss import ldp_epsilon
from ldpspec.spec.nats import Nats
from ldpspec.spec.notions import graded_ldp, ldp


def test_the_segment_end_lemma_holds_for_every_end_value_and_point():
    """For affine f, g >= 0 on [0, 1] (after rescaling each segment), f(t) / g(s) <= max over the corners: with
    F = max(f(0), f(1)) and G = min(g(0), g(1)), f(t) G <= F g(s) (when G = 0 a corner ratio is already infinite)."""
    f0, f1, g0, g1, t, s = z3.Reals("f0 f1 g0 g1 t s")
    f = f0 * (1 - t) + f1 * t
    g = g0 * (1 - s) + g1 * s
    F = z3.If(f0 >= f1, f0, f1)
    G = z3.If(g0 <= g1, g0, g1)
    solver = z3.Solver()
    solver.add(f0 >= 0, f1 >= 0, g0 >= 0, g1 >= 0, t >= 0, t <= 1, s >= 0, s <= 1)
    solver.add(z3.Not(f * G <= F * g))
    assert solver.check() == z3.unsat


def test_the_corner_of_the_lemma_is_reached():
    """The bound is tight: at t, s at the corners, f(t) G = F g(s) for the maximising corners."""
    family = AffineFamily(("a", "b"), [(0, 1, True, True, ("1/4", "3/4"), ("3/4", "1/4"))])
    verdict = ldp(family, 10)
    assert set(verdict.witness.inputs) == {"0", "1"}
    assert verdict.witness.log_ratio == Nats.log(3)


def rows(draw, outputs: int) -> tuple:
    weights = [draw(st.integers(1, 20)) for _ in range(outputs)]
    total = sum(weights)
    return tuple(Fraction(w, total) for w in weights)


@st.composite
def families(draw):
    """Families on [0, 1] with 1-3 segments, each shared end owned by one side; probabilities >= 1/41."""
    outputs = draw(st.integers(2, 3))
    cuts = sorted(set(draw(st.lists(st.sampled_from([Fraction(1, 4), Fraction(1, 2), Fraction(3, 4)]),
                                    max_size=2))))
    ends = [Fraction(0)] + cuts + [Fraction(1)]
    owners = [draw(st.booleans()) for _ in cuts]  # True: the shared end belongs to the segment on its left
    segments = []
    for i, (low, high) in enumerate(zip(ends, ends[1:])):
        low_closed = i == 0 or not owners[i - 1]
        high_closed = i == len(ends) - 2 or owners[i]
        segments.append((low, high, low_closed, high_closed, rows(draw, outputs), rows(draw, outputs)))
    return AffineFamily(tuple(range(outputs)), segments)


def grid_channel(family: AffineFamily, points) -> Channel:
    points = sorted(set(points))
    return Channel([str(x) for x in points], family.outputs, [family.row(x) for x in points])


def near_corners(family: AffineFamily, delta: Fraction) -> list:
    """Every end a segment contains, and a point at ``delta`` inside every end it does not."""
    points = []
    for segment in family.segments:
        low, high = segment.low.as_rational(), segment.high.as_rational()
        points.append(low if segment.low_closed else low + delta)
        points.append(high if segment.high_closed else high - delta)
    return points


@settings(max_examples=60, deadline=None)
@given(families(), st.lists(st.fractions(0, 1), max_size=6))
def test_no_pair_of_numbers_loses_more_than_the_corner_channel(family, points):
    corner_loss = ldp_epsilon(family.corners()[0])
    grid = grid_channel(family, points + near_corners(family, Fraction(1, 1000)))
    assert ldp_epsilon(grid) <= corner_loss


@settings(max_examples=40, deadline=None)
@given(families())
def test_points_close_to_the_corners_approach_the_corner_loss(family):
    """Every probability is at least 1/41 and every segment at least 1/4 long, so ln P moves by at most
    (1 / (1/4)) / (1/41) = 164 per unit of x: at delta = 2^-40 a pair's loss is within 2 * 164 * 2^-40 of its corner
    value, and the attained corners give it exactly."""
    corner_loss = ldp_epsilon(family.corners()[0])
    delta = Fraction(1, 2 ** 40)
    grid_loss = ldp_epsilon(grid_channel(family, near_corners(family, delta)))
    assert grid_loss <= corner_loss
    assert float(corner_loss) - float(grid_loss) <= 2 * 164 * float(delta) + 1e-12
    if all(s.low_closed and s.high_closed for s in family.segments):
        assert grid_loss == corner_loss


def test_a_single_point_segment_gives_one_corner():
    family = AffineFamily(("a", "b"), [(0, "1/2", True, False, ("1/2", "1/2"), ("1/3", "2/3")),
                                       ("1/2", "1/2", True, True, ("1/4", "3/4"), ("1/4", "3/4")),
                                       ("1/2", 1, False, True, ("1/3", "2/3"), ("1/2", "1/2"))])
    corners, owner = family.corners()
    assert corners.inputs == ("0", "x -> 0.5 from below", "0.5", "x -> 0.5 from above", "1")
    assert owner["0.5"] == 1
    assert family.row("1/2") == (Exact.of("1/4"), Exact.of("3/4"))
    assert family.row("1/4") == (Exact.of("5/12"), Exact.of("7/12"))


def test_graded_ldp_on_a_family_uses_each_segments_level_and_says_it_covers_the_interval():
    # Level 0 = [0, 1/2), level 1 = [1/2, 1]; the limit at 1/2 from below has level 0's budget.
    family = AffineFamily(("a", "b"), [(0, "1/2", True, False, ("1/2", "1/2"), ("1/5", "4/5")),
                                       ("1/2", 1, True, True, ("1/2", "1/2"), ("1/2", "1/2"))])
    verdict = graded_ldp(family, [0, "1/2", 1], ["log(4)", "log(4)"], "min")
    assert verdict.holds and verdict.witness.log_ratio == Nats.log(Fraction(5, 2))
    assert verdict.parameters["inputs"].startswith("every number of [0, 1]")
    tight = graded_ldp(family, [0, "1/2", 1], ["log(2)", "log(4)"], "min")
    assert not tight.holds
    assert "x -> 0.5 from below" in tight.witness.inputs  # the supremum is approached, not attained
    # On a grid without points near 1/2 the same budgets hold: only the family sees the leak.
    grid = grid_channel(family, [Fraction(0), Fraction(1, 4), Fraction(1, 2), Fraction(1)])
    assert graded_ldp(grid, [0, "1/2", 1], ["log(2)", "log(4)"], "min").holds


@pytest.mark.parametrize("segments, message", [
    ([], "at least one segment"),
    ([(0, 1, True, True, ("1/2", "1/4"), ("1/2", "1/2"))], "sum to 1"),
    ([(0, 1, True, True, ("3/2", "-1/2"), ("1/2", "1/2"))], "outside [0, 1]"),
    ([(0, 1, True, True, ("1/2", "1/2"))], "must be (low, high"),
    ([(1, 0, True, True, ("1/2", "1/2"), ("1/2", "1/2"))], "is empty"),
    ([(0, 0, True, False, ("1/2", "1/2"), ("1/2", "1/2"))], "is empty"),
    ([(0, "1/2", True, True, ("1/2", "1/2"), ("1/2", "1/2")), ("1/2", 1, True, True, ("1/2", "1/2"), ("1/2", "1/2"))],
     "exactly one of them contains"),
    ([(0, "1/2", True, False, ("1/2", "1/2"), ("1/2", "1/2")), ("3/4", 1, True, True, ("1/2", "1/2"), ("1/2", "1/2"))],
     "must meet"),
    ([(0, 1, True, True, ("1/2",), ("1/2", "1/2"))], "for each of the 2 outputs"),
    (None, "segments must be a list"),
    ([{"low": 0}], "must be (low, high"),
])
def test_malformed_families_are_refused_by_name(segments, message):
    with pytest.raises(InvalidChannel, match=message.replace("(", r"\(").replace("[", r"\[")):
        AffineFamily(("a", "b"), segments)


def test_graded_ldp_refuses_a_family_that_crosses_a_boundary_or_another_interval():
    family = AffineFamily(("a", "b"), [(0, 1, True, True, ("1/2", "1/2"), ("1/4", "3/4"))])
    with pytest.raises(InvalidParameter, match="within one interval"):
        graded_ldp(family, [0, "1/2", 1], [1, 2], "max")
    with pytest.raises(InvalidParameter, match="must run from"):
        graded_ldp(family, [-1, 1], [1], "max")
    with pytest.raises(InvalidParameter, match="x must be in"):
        family.row(2)

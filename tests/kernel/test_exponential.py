"""Densities with exponential pieces (``spec.continuous``): exact masses and moments, the supremum of the ratio over
each cell, infinite tails, the refused explicit view, channel files of kind "exponential", and errors."""

from __future__ import annotations

import json
import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ldpspec import spec
from ldpspec.reference.channelfile import channel_file_text, parse_channel_file
from ldpspec.spec.continuous import NEGATIVE_INFINITY, POSITIVE_INFINITY, Density, PiecewiseChannel
from ldpspec.spec.exact import Exact
from ldpspec.spec.loss import pairwise_loss
from ldpspec.spec.nats import Nats
from tests.support import examples


def laplace(x, eps) -> Density:
    """The density of ``x + Lap(2/eps)``: ``(eps/4) e^{-eps |y - x| / 2}``, one exponential piece on each side."""
    x, eps = Fraction(x), Fraction(eps)
    rate = eps / 2
    return Density(["-inf", x, "inf"], [eps / 4 * Exact.exp(-rate * x), eps / 4 * Exact.exp(rate * x)],
                   rates=[rate, -rate])


def laplace_channel(points, eps) -> PiecewiseChannel:
    """Inputs labelled by their text (a label is a string or a number, not a fraction)."""
    return PiecewiseChannel(points, {x: {None: laplace(Fraction(x), eps)} for x in points})


def density_values(density: Density, points: np.ndarray) -> np.ndarray:
    """The density at ``points`` read from its pieces in floats, independently of the cells."""
    values = np.zeros_like(points)
    for low, high, c, rate in density.pieces():
        inside = (float(low) <= points) & (points < float(high))
        values[inside] = float(c) * np.exp(float(rate) * points[inside])
    return values


@pytest.mark.parametrize("eps", ["1/2", "1", "3"])
def test_laplace_masses_and_moments_are_exact(eps):
    """Mass 1, mean x, second moment x^2 + 2 (2/eps)^2: Lap(b) has variance 2 b^2 (exactly, by parts)."""
    for x in (Fraction(-1), Fraction(0), Fraction(3, 5)):
        density = laplace(x, Fraction(eps))
        assert density.mass == 1
        assert density.moment(1) == x
        assert density.moment(2) == x * x + 8 / Fraction(eps) ** 2


def test_moments_of_a_mixed_density_agree_with_quadrature():
    """A constant piece beside two exponential ones: the exact moments against numerical integration (a sanity
    check of the formula, not the decision)."""
    from scipy.integrate import quad

    density = Density(["-inf", -1, 1, 2, "inf"], ["1/5", "1/7", "1/3", 5], rates=[2, 0, "-1/2", -3])
    for power in (0, 1, 2):
        numeric = sum(quad(lambda y, c=float(c), r=float(r), m=power: y ** m * c * math.exp(r * y), float(low),
                           float(high))[0] for low, high, c, r in density.pieces())
        assert float(density.moment(power)) == pytest.approx(numeric, rel=1e-10)


@pytest.mark.parametrize("eps", ["1/2", "1", "2"])
def test_laplace_pair_losses_are_eps_times_half_the_distance(eps):
    """``sup_y ln f(y|x)/f(y|x')`` = eps |x - x'| / 2, attained beyond both inputs: the cell named is a tail cell
    or the cell between them."""
    channel = laplace_channel(["-1", "-1/3", "1/2", "1"], Fraction(eps))
    for (x, other), (loss, output) in pairwise_loss(channel).items():
        assert loss == Nats.rational(Fraction(eps) * abs(Fraction(x) - Fraction(other)) / 2)
        assert output is not None
    assert spec.ldp(channel, eps).holds
    assert not spec.ldp(channel, Fraction(eps) * Fraction(99, 100)).holds


def test_laplace_of_different_budgets_leaks_without_bound_in_the_tail():
    """Inputs with different scales: the ratio grows without bound as y goes to the side where the wider density
    decays slower; the witness is the infinite cell."""
    channel = PiecewiseChannel([-1, 0, 1], {-1: {None: laplace(-1, 1)}, 0: {None: laplace(0, 2)},
                                            1: {None: laplace(1, 2)}})
    losses = pairwise_loss(channel)
    loss, output = losses[(-1, 1)]
    assert loss.is_infinite and output == "(-inf, -1)"
    # the other way round is bounded: 2 e^{3y/2 - 1/2} on [-1, 1) grows to 2e at y = 1, then falls
    assert losses[(1, -1)] == (Nats(2 * Exact.exp(1)), "[0, 1)")
    assert not spec.graded_ldp(channel, [-1, 0, 1], [1, 2], "max").holds


@st.composite
def exponential_rows(draw):
    """Two or three inputs, each a density of exponential pieces on [0, 1) over a few rational breakpoints, with
    small rational rates, scaled to mass exactly 1."""
    rows = []
    for _ in range(draw(st.integers(2, 3))):
        inner = sorted(set(draw(st.lists(st.integers(1, 7), max_size=2))))
        breakpoints = [Fraction(0), *(Fraction(k, 8) for k in inner), Fraction(1)]
        pieces = len(breakpoints) - 1
        weights = draw(st.lists(st.integers(0, 3), min_size=pieces, max_size=pieces))
        if not any(weights):
            weights[0] = 1
        rates = draw(st.lists(st.sampled_from([Fraction(r, 2) for r in range(-4, 5)]), min_size=pieces,
                              max_size=pieces))
        unscaled = Density(breakpoints, weights, rates=rates)
        rows.append((breakpoints, [w / unscaled.mass for w in weights], rates))
    return rows


@settings(max_examples=examples(40), deadline=None)
@given(exponential_rows(), st.integers(1, 7))
def test_the_supremum_does_not_depend_on_refining_the_cells(rows, cut):
    """Splitting one input's piece at an extra breakpoint (the same density) changes no loss and no verdict."""
    channel = PiecewiseChannel(range(len(rows)), {x: {"y": Density(b, v, rates=r)} for x, (b, v, r) in
                                                  enumerate(rows)})
    b, v, r = rows[0]
    extra = Fraction(cut, 8) + Fraction(1, 16)
    k = max(i for i, low in enumerate(b[:-1]) if low < extra)
    refined = Density([*b[:k + 1], extra, *b[k + 1:]], [*v[:k + 1], v[k], *v[k + 1:]], rates=[*r[:k + 1], r[k],
                                                                                            *r[k + 1:]])
    assert refined.mass == 1
    other = PiecewiseChannel(range(len(rows)), {x: {"y": refined if x == 0 else Density(bb, vv, rates=rr)}
                                                for x, (bb, vv, rr) in enumerate(rows)})
    assert [loss for loss, _ in pairwise_loss(channel).values()] == [loss for loss, _ in
                                                                   pairwise_loss(other).values()]


@settings(max_examples=examples(40), deadline=None)
@given(exponential_rows())
def test_the_supremum_is_approached_by_points_of_the_cells(rows):
    """The exact loss is an upper bound of the float ratio at points inside the cells, and points near the cells'
    ends come within 1e-6 of it (a dense float check of the end-point argument; the decision stays exact)."""
    channel = PiecewiseChannel(range(len(rows)), {x: {"y": Density(b, v, rates=r)} for x, (b, v, r) in
                                                  enumerate(rows)})
    points = np.concatenate([np.arange(1, 4000) / 4000, [k / 8 + s for k in range(9) for s in (-1e-9, 1e-9)]])
    points = points[(points > 0) & (points < 1)]
    for (x, other), (loss, _) in pairwise_loss(channel).items():
        f, g = density_values(channel.density(x, "y"), points), density_values(channel.density(other, "y"), points)
        positive = f > 0
        with np.errstate(divide="ignore"):
            worst = np.max(f[positive] / g[positive])
        if loss.is_infinite:
            assert worst == math.inf
            continue
        bound = math.exp(float(loss))
        assert bound * (1 - 1e-6) <= worst <= bound * (1 + 1e-9)


@settings(max_examples=examples(30), deadline=None)
@given(exponential_rows())
def test_constant_pieces_give_the_explicit_channels_losses(rows):
    """With every rate 0, the supremum over cells is the loss of the explicit channel of cells' masses."""
    constant = [(b, [w / Density(b, v).mass for w in v]) for b, v, _ in rows]
    channel = PiecewiseChannel(range(len(rows)), {x: {"y": Density(b, v)} for x, (b, v) in enumerate(constant)})
    explicit = channel.explicit()
    for x in channel.inputs:
        for other in channel.inputs:
            if x != other:
                assert channel.supremum_pair_loss(x, other)[0] == spec.pair_loss(explicit, x, other)[0]


def test_the_explicit_view_is_refused_and_the_cells_masses_are_a_coarsening():
    channel = laplace_channel([-1, 0, 1], 1)
    with pytest.raises(spec.InvalidChannel, match="exponential pieces.*pairwise losses"):
        channel.explicit()
    with pytest.raises(spec.InvalidChannel, match="exponential pieces"):
        spec.uldp(channel, [-1], ["[-1, 0)"], 1)
    masses = channel.cell_masses()
    assert masses.outputs == ("(-inf, -1)", "[-1, 0)", "[0, 1)", "[1, inf)")
    assert all(sum(row, Exact.rational(0)) == 1 for row in masses.rows)
    # the coarsening can understate the loss: between budgets 1 and 2 the tail's ratio is unbounded, its mass ratio
    # is finite
    mixed = PiecewiseChannel([-1, 1], {-1: {None: laplace(-1, 1)}, 1: {None: laplace(1, 2)}})
    assert spec.ldp_epsilon(mixed).is_infinite and not spec.ldp_epsilon(mixed.cell_masses()).is_infinite
    assert channel.output_at(None, -7.5) == "(-inf, -1)" and channel.output_at(None, "1/2") == "[0, 1)"


@pytest.mark.parametrize("build, message", [
    (lambda: Density(["-inf", 0], [1], rates=[-1]), r"\(-inf, 0\) must have a rate > 0"),
    (lambda: Density([0, "inf"], [1], rates=[0]), r"\[0, inf\) must have a rate < 0"),
    (lambda: Density([0, "inf", 1], [1, 1], rates=[-1, -1]), "may only be the first or last"),
    (lambda: Density([0, 1], [1], rates=["exp(1)"]), "rate must be a rational number"),
    (lambda: Density([0, "exp(1)"], [1], rates=[1]), "rate other than 0 needs rational ends"),
    (lambda: Density([0, 1, 2], [1, 1], rates=[1]), "one rate per value"),
    (lambda: Density.sum([Density([0, 1], [1], rates=[1]), Density([0, 1], [1], rates=[2])]), "different rates"),
    (lambda: Density([0, 1], [1]).moment(3), "power must be 0, 1 or 2"),
])
def test_malformed_exponential_densities_are_refused(build, message):
    with pytest.raises(spec.SpecError, match=message):
        build()


def test_infinite_breakpoints_compare_and_print():
    assert laplace(0, 1).breakpoints[0] is NEGATIVE_INFINITY and laplace(0, 1).breakpoints[-1] is POSITIVE_INFINITY
    assert repr(laplace(0, 2)) == "Density([-inf, 0): 0.5 e^(1 y), [0, inf): 0.5 e^(-1 y))"


def test_a_laplace_channel_file_round_trips_with_the_same_losses():
    channel = laplace_channel([-1, 0, 1], Fraction(1, 2))
    text = channel_file_text(channel, privacy={"epsilon": "1/2"})
    document = json.loads(text)
    assert document["densities"][1] == {"input": 0, "label": None, "kind": "exponential",
                                        "breakpoints": ["-inf", "0", "inf"], "values": ["0.125", "0.125"],
                                        "rates": ["0.25", "-0.25"]}
    stored = parse_channel_file(text)
    assert pairwise_loss(stored.channel) == pairwise_loss(channel)
    assert channel_file_text(stored.channel, privacy={"epsilon": "1/2"}) == text


def _laplace_document():
    return json.loads(channel_file_text(laplace_channel([-1, 1], 1)))


def _with(path, value):
    document = _laplace_document()
    target = document
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    return document


@pytest.mark.parametrize("document, message", [
    (_with(("densities", 0, "breakpoints"), ["-inf", "inf", "1"]), r'breakpoints\[1\] is "inf": only'),
    (_with(("densities", 0, "breakpoints"), ["-1", "-1/2", "inf"]), "rate < 0|rate > 0|total mass"),
    (_with(("densities", 0, "rates"), ["-1/2", "-1/2"]), r"\(-inf, -1\) must have a rate > 0"),
    (_with(("densities", 0, "rates"), ["exp(1)", "-1/2"]), r"rate must be a rational"),
    (_with(("densities", 0, "rates"), ["1/2"]), "n rates"),
    (_with(("densities", 0, "kind"), "constant"), "unknown \\['rates'\\]"),
])
def test_malformed_exponential_files_are_refused(document, message):
    with pytest.raises(spec.SpecError, match=message):
        parse_channel_file(json.dumps(document))

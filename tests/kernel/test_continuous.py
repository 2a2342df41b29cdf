"""Channels with piecewise-constant densities (``spec.continuous``): cells against a pointwise reading of the
densities, mixtures, notions on continuous outputs, and errors."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ldpspec import spec
from ldpspec.spec.continuous import Density, PiecewiseChannel
from ldpspec.spec.exact import Exact
from ldpspec.spec.nats import Nats
from ldpspec.spec.numbers import exact_number
from tests.support import brute, examples


def density_at(breakpoints, values, y: Fraction) -> Fraction:
    """The density at the point ``y``, read from its definition by a linear scan (independent of the cells)."""
    for low, high, value in zip(breakpoints, breakpoints[1:], values):
        if low <= y < high:
            return value
    return Fraction(0)


@st.composite
def piecewise_rows(draw):
    """Two to three inputs, each with a density on [0, 1) over a few rational breakpoints (mass exactly 1)."""
    rows = []
    for _ in range(draw(st.integers(2, 3))):
        inner = sorted(set(draw(st.lists(st.integers(1, 11), max_size=3))))
        breakpoints = [Fraction(0), *(Fraction(k, 12) for k in inner), Fraction(1)]
        weights = draw(st.lists(st.integers(0, 4), min_size=len(breakpoints) - 1, max_size=len(breakpoints) - 1))
        if not any(weights):
            weights[0] = 1
        total = sum(w * (high - low) for w, low, high in zip(weights, breakpoints, breakpoints[1:]))
        rows.append((breakpoints, [Fraction(w) / total for w in weights]))
    return rows


@settings(max_examples=examples(60), deadline=None)
@given(piecewise_rows())
def test_the_cells_give_the_pointwise_worst_ratio(rows):
    """LDP of the cells' channel agrees with the definition read pointwise on the densities, at every 1/24 grid
    midpoint (every cell of these densities contains one)."""
    channel = PiecewiseChannel(range(len(rows)), {x: {"y": Density(*row)} for x, row in enumerate(rows)})
    points = [Fraction(2 * k + 1, 48) for k in range(24)]
    densities = {x: {y: density_at(*row, y) for y in points} for x, row in enumerate(rows)}
    for eps in (Fraction(0), Fraction(1, 2), Fraction(1), Fraction(3)):
        expected = brute.ldp(range(len(rows)), points, densities, eps)
        assert bool(spec.ldp(channel, eps)) == expected
        assert bool(spec.ldp(channel.explicit(), eps)) == expected


def test_a_known_pair_of_densities():
    uniform = Density.uniform(0, 1)
    tilted = Density([0, "1/2", 1], ["3/2", "1/2"])
    channel = PiecewiseChannel(["a", "b"], {"a": {None: uniform}, "b": {None: tilted}})
    assert channel.explicit().outputs == ("[0, 0.5)", "[0.5, 1)")
    assert spec.ldp_epsilon(channel) == Nats.log(2)  # 1 / (1/2) on [1/2, 1)
    verdict = spec.ldp(channel, "log(2)")
    assert verdict.holds and verdict.margin == 0 and verdict.witness.output == "[0.5, 1)"
    assert not spec.ldp(channel, "0.69")


def test_a_density_zero_where_another_is_not_is_an_infinite_ratio():
    channel = PiecewiseChannel([0, 1], {0: {None: Density.uniform(0, 1)}, 1: {None: Density.uniform(0, "1/2")}})
    assert spec.ldp_epsilon(channel).is_infinite


def test_atoms_beside_densities_and_exact_breakpoints():
    """A Wheel-like arc [0, p) with p = 1/(1 + e), density e/Omega on it and 1/Omega elsewhere, against an input that
    reveals itself (an atom) half of the time."""
    e = Exact.exp(1)
    p = 1 / (1 + e)
    omega = e * p + 1 - p
    channel = PiecewiseChannel(["s", "t"], {
        "s": {"y": Density([0, p, 1], [e / omega, 1 / omega])},
        "t": {"y": Density.uniform(0, 1, "1/2"), "revealed": "1/2"}})
    assert channel.explicit().outputs == (("y", f"[0, {p.text()})"), ("y", f"[{p.text()}, 1)"), "revealed")
    loss, output = spec.pair_loss(channel, "s", "t")
    assert loss == Nats.log(2 * e / omega) and output == ("y", f"[0, {p.text()})")
    assert spec.pair_loss(channel, "t", "s")[0].is_infinite  # "revealed" comes from t only


def test_mixtures_released_and_not():
    """Two mirrored densities chosen by a fair coin: averaged (the coin kept secret) the output is uniform, so the
    mixture is 0-LDP; with the coin released, each coin's channel keeps its ratio of 3."""
    left, right = Density([0, "1/2", 1], ["3/2", "1/2"]), Density([0, "1/2", 1], ["1/2", "3/2"])
    heads = PiecewiseChannel([0, 1], {0: {None: left}, 1: {None: right}})
    tails = PiecewiseChannel([0, 1], {0: {None: right}, 1: {None: left}})
    hidden = PiecewiseChannel.mixture([("heads", "1/2", heads), ("tails", "1/2", tails)], released=False)
    shown = PiecewiseChannel.mixture([("heads", "1/2", heads), ("tails", "1/2", tails)], released=True)
    assert spec.ldp_epsilon(hidden) == 0
    assert spec.ldp_epsilon(shown) == Nats.log(3)
    assert len(shown.explicit().outputs) == 4 and shown.explicit().outputs[0] == (("heads", None), "[0, 0.5)")


def test_set_valued_notions_read_a_continuous_protected_part():
    """SULDP with the protected part a point: outputs (cell, revealed items) through ``output_label``."""
    sensitive, inside = Density([0, "1/2", 1], ["3/2", "1/2"]), Density([0, "1/2", 1], ["1/2", "1/2"])
    channel = PiecewiseChannel(
        [("a",), ("u",)],
        {("a",): {(): sensitive}, ("u",): {(): inside, ("u",): Fraction(1, 2)}},
        output_label=lambda revealed, cell: (cell, revealed) if cell else (None, revealed))
    outputs = channel.explicit().outputs
    assert outputs == (("[0, 0.5)", ()), ("[0.5, 1)", ()), (None, ("u",)))
    protected = ["[0, 0.5)", "[0.5, 1)"]
    # marginal of y0: 3/2 against 1/2 on [0, 1/2): ln 3; the joint reading compares the same columns here
    assert spec.suldp_marginal(channel, ["a"], ["u"], protected, "log(3)").holds
    assert not spec.suldp_marginal(channel, ["a"], ["u"], protected, "1")
    assert spec.suldp_joint(channel, ["a"], ["u"], protected, "log(3)").holds


@pytest.mark.parametrize("build, message", [
    (lambda: Density([0, 1], ["1/2", "1/2"]), "needs n \\+ 1 >= 2 breakpoints and n values"),
    (lambda: Density([0, "1/2", "1/2"], [1, 1]), "must increase strictly; got 0.5 then 0.5"),
    (lambda: Density([0, 1], ["-1"]), "values must be >= 0, got -1"),
    (lambda: PiecewiseChannel([0], {0: {None: Density([0, 1], ["0.9995"])}}), "total mass exactly 1, got 0.9995"),
    (lambda: PiecewiseChannel([0, 1], {0: {"y": Density.uniform(0, 1)}, 1: {"y": 1}}), "an atom for every input"),
    (lambda: PiecewiseChannel([0, 1], {0: {"y": 1}}), "components of every input"),
    (lambda: PiecewiseChannel.mixture([("h", "1/3", PiecewiseChannel([0], {0: {"y": 1}}))], released=True),
     "sum to exactly 1"),
])
def test_malformed_piecewise_channels_are_refused(build, message):
    with pytest.raises(spec.SpecError, match=message):
        build()


def test_a_preprocessed_channel_mixes_the_rows_it_is_fed():
    """P'(y|s) = sum_t Pre(t|s) P(y|t): on every cell of the original channel, the preprocessed density is the
    mixture of the densities of the inputs the preprocessing feeds (atoms likewise)."""
    low, high = Density([0, "1/4", 1], ["2", "2/3"]), Density([0, "3/4", 1], ["2/3", "2"])
    channel = PiecewiseChannel(["t1", "t2", "t3"], {"t1": {"r": low, "atom": "0"}, "t2": {"r": high, "atom": "0"},
                                                    "t3": {"r": Density.uniform(0, 1, "1/2"), "atom": "1/2"}})
    pre = spec.Channel(["s1", "s2"], ["t1", "t2", "t3"], [["1/3", "2/3", "0"], ["0", "1/2", "1/2"]])
    mixed = channel.preprocessed(pre)
    cells = [(exact_number(a, "low"), exact_number(b, "high")) for a, b in zip([0, "1/4", "3/4"], ["1/4", "3/4", 1])]
    for s, weights in zip(pre.inputs, pre.rows):
        expected = [sum((w * v for w, t in zip(weights, pre.outputs)
                         for v in [channel.density(t, "r").on_cells([cell])[0]]), Exact.rational(0)) for cell in cells]
        assert mixed.density(s, "r").on_cells(cells) == expected
        assert mixed.components[s].get("atom", 0) == sum((w * channel.components[t]["atom"]
                                                          for w, t in zip(weights, pre.outputs)), Exact.rational(0))

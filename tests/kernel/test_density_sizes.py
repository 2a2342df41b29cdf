"""Densities of many pieces (issue 35, item 10): a format-2 file whose input ``b`` is a constant density in N pieces
beside a Laplace-shaped input ``a`` took 2.7 s at N = 2,000, 21 s at 20,000 and over 130 s at 200,000 to check.

The work per cell was interval arithmetic in three places: the sign of every cell's mass and of one minus it, read
into the cells' channel; one exact comparison per cell in ``supremum_pair_loss``; and sums that copied a growing
partial sum. No test here measures time: each checks that the fast path gives the scan's answer, exactly and with
the same witness, and counts the exact operations that used to grow with N.
"""

from __future__ import annotations

import json
import random
from fractions import Fraction

import pytest

from ldpspec import spec
from ldpspec.spec import continuous, exact
from ldpspec.spec.channel import Channel, _dominant_sign
from ldpspec.spec.continuous import (
    Density,
    Infinity,
    PiecewiseChannel,
    _exponential_mass,
    cell_text,
    compare_points,
    exponential_at,
    piece_moment,
    sorted_unique,
)
from ldpspec.spec.errors import InvalidChannel
from ldpspec.spec.exact import ZERO, Exact
from ldpspec.spec.nats import Nats
from ldpspec.spec.rows import exact_sum


def density_channel(n: int) -> PiecewiseChannel:
    """The reported file's channel: ``a`` Laplace-shaped (``e^{-|y|} / 2``), ``b`` uniform on ``[-1, 1)`` in ``n``
    pieces, each value and rate one object, as the file's reader gives them (it reads each text once)."""
    half, zero = Exact.of("1/2"), Fraction(0)
    a = Density(["-inf", 0, "inf"], [half, half], rates=[1, -1])
    b = Density([Fraction(-1) + Fraction(2 * i, n) for i in range(n + 1)], [half] * n, rates=[zero] * n)
    return PiecewiseChannel(["a", "b"], {"a": {None: a}, "b": {None: b}})


def density_file(n: int) -> str:
    """The reported file itself (format 2), with the channel of ``density_channel``."""
    points = [str(Fraction(-1) + Fraction(2 * i, n)) for i in range(n + 1)]
    return json.dumps({
        "format": "ldpspec-channel/2", "inputs": ["a", "b"], "cell_outputs": "label-cell",
        "densities": [
            {"input": "a", "label": None, "kind": "exponential", "breakpoints": ["-inf", "0", "inf"],
             "values": ["1/2", "1/2"], "rates": ["1", "-1"]},
            {"input": "b", "label": None, "kind": "constant", "breakpoints": points, "values": ["1/2"] * n}],
        "privacy": {"epsilon": "1"}})


def scan(channel: PiecewiseChannel, x, other) -> tuple:
    """``supremum_pair_loss`` as it was written before, one exact comparison per cell: the reference the grouped
    computation must agree with, loss and output."""
    best, best_output, best_approached = None, None, False
    for label, kind in channel.kinds.items():
        part, other_part = channel.components[x].get(label), channel.components[other].get(label)
        if kind == "atom":
            candidates = [(ZERO if part is None else part, ZERO if other_part is None else other_part, 0,
                           None, channel.output_label(label, None))]
        else:
            cells = channel.cells(label)
            empty = [(ZERO, Fraction(0))] * len(cells)
            terms = part.terms_on_cells(cells) if part is not None else empty
            other_terms = other_part.terms_on_cells(cells) if other_part is not None else empty
            candidates = [(c, c2, rate - rate2, cell, channel.output_label(label, cell_text(*cell)))
                          for (c, rate), (c2, rate2), cell in zip(terms, other_terms, cells)]
        for c, c2, growth, cell, output in candidates:
            if not c:
                continue
            if not c2:
                return Nats.infinity(), output
            ratio = c / c2
            if growth:
                end = cell[1] if growth > 0 else cell[0]
                if isinstance(end, Infinity):
                    return Nats.infinity(), output
                ratio = ratio * exponential_at(growth, end)
            order = 1 if best is None else ratio.compare(best)
            if order > 0 or order == 0 and best_approached and not growth:
                best, best_output, best_approached = ratio, output, bool(growth)
    if best is None:
        return Nats.rational(0), None
    return Nats(best), best_output


def random_density(rng: random.Random, values: list, tails: bool) -> Density:
    """A density of a few pieces on a coarse grid, constant or exponential, its values from ``values`` (shared
    objects, so that many cells have the same coefficients); not normalised (the channel scales it)."""
    points = sorted(rng.sample(range(-6, 7), rng.randint(2, 6)))
    breakpoints: list = [Fraction(p, 2) for p in points]
    rates = [rng.choice([0, 0, 1, -1, Fraction(1, 2)]) for _ in range(len(points) - 1)]
    if tails and rng.random() < 0.5:
        breakpoints, rates = ["-inf", *breakpoints], [1, *rates]
    if tails and rng.random() < 0.5:
        breakpoints, rates = [*breakpoints, "inf"], [*rates, -1]
    chosen = [rng.choice(values) for _ in rates]
    return Density(breakpoints, chosen, rates=rates)


def random_channel(rng: random.Random) -> PiecewiseChannel:
    values = [Exact.of("1/4"), Exact.of("1/4"), Exact.of("1/2"), Exact.of("1/8"), ZERO, Exact.of("exp(1)/8")]
    components = {}
    for x in ("a", "b", "c"):
        density = random_density(rng, values, tails=rng.random() < 0.3)
        mass = density.mass
        atom = rng.choice([Fraction(0), Fraction(1, 4), Fraction(1, 2)])
        scaled = density.scaled((1 - atom) / mass) if mass else None
        if scaled is None:
            components[x] = {"none": 1}
        else:
            components[x] = {"none": atom, None: scaled} if atom else {None: scaled}
    return PiecewiseChannel(["a", "b", "c"], components)


@pytest.mark.parametrize("seed", range(60))
def test_the_grouped_supremum_is_the_scan_over_every_cell(seed):
    """Loss and output, for every ordered pair: equal and shared coefficients, constant and exponential pieces, ties
    between attained and approached suprema, atoms, tails, zero pieces."""
    channel = random_channel(random.Random(seed))
    for x in channel.inputs:
        for other in channel.inputs:
            expected = scan(channel, x, other)
            assert channel.supremum_pair_loss(x, other) == expected


def test_ties_keep_the_first_attained_supremum():
    """Two groups of cells reach ratio 2, one only approaching it (a growing exponential ratio at its end), the other
    attaining it on a constant piece after it: the attained one is named, as the scan names it."""
    half = Exact.of("1/2")
    log2 = Fraction(1)  # e^{1 * (y - 1)} at y = 1 is 1: the ratio of the growing piece tends to 2 at its end
    a = Density([0, 1, 2, 3], [half * 2 * Exact.exp(-log2), half, half], rates=[1, 0, 0])
    b = Density([0, 1, 2, 3], [half, half, half / 2], rates=[0, 0, 0])
    channel = PiecewiseChannel(["a", "b"], {"a": {None: a.scaled(1 / a.mass)}, "b": {None: b.scaled(1 / b.mass)}})
    assert channel.supremum_pair_loss("a", "b") == scan(channel, "a", "b")
    assert channel.supremum_pair_loss("b", "a") == scan(channel, "b", "a")


def test_exact_comparisons_do_not_grow_with_the_pieces(monkeypatch):
    """The check of the reported file compares a few exact numbers, whatever N: one per group of cells."""
    counts = {}
    real = Exact.compare

    def counted(self, other):
        counts["compare"] = counts.get("compare", 0) + 1
        return real(self, other)

    monkeypatch.setattr(Exact, "compare", counted)
    made = []
    for n in (10, 1000):
        counts.clear()
        channel = density_channel(n)
        counts.clear()
        verdict = spec.ldp(channel, 1)
        assert not verdict.holds and verdict.witness.output == "(-inf, -1)"  # a's tail, where b is 0
        assert channel.supremum_pair_loss("b", "a") == scan(channel, "b", "a")
        counts.clear()
        channel.supremum_pair_loss("b", "a")
        made.append(counts.get("compare", 0))
    assert made[0] == made[1] <= 2


def test_the_cells_channel_needs_no_interval_arithmetic(monkeypatch):
    """Every cell's mass of the reported file, ``(e^{-l} - e^{-h}) / 2`` or a rational, is read into the cells'
    channel with its sign decided by its form (``_dominant_sign``), and its bound by 1 by its row's sum."""
    channel = density_channel(200)

    def refused(*arguments):
        raise AssertionError("interval arithmetic")

    monkeypatch.setattr(exact, "_interval", refused)
    cells = channel.cell_masses()
    assert len(cells.outputs) == 202 and sum(cells.row("a"), ZERO) == 1


def test_each_input_s_cells_are_found_once(monkeypatch):
    """The coefficient of each input on each cell is found once, for the cells' channel and every pair."""
    channel = density_channel(100)
    calls = []
    real = Density.pieces
    monkeypatch.setattr(Density, "pieces", lambda self: calls.append(self) or real(self))
    channel.cell_masses()
    for x in channel.inputs:
        for other in channel.inputs:
            channel.supremum_pair_loss(x, other)
    assert len(calls) == 2  # a and b, once each


@pytest.mark.parametrize("c, rate, low, high", [
    ("1/2", 1, -3, "-1/3"), ("1/2", -1, 0, 2), ("3", "1/3", "1/7", 5), ("2/7", "-5/2", -2, "1/2"), ("1/6", 2, 1, 2),
])
def test_an_exponential_cell_mass_is_piece_moment_s_number(c, rate, low, high):
    """The mass written in its exact form at once is ``piece_moment``'s number, in the same form (same text)."""
    c, rate, low, high = (Fraction(v) for v in (c, rate, low, high))
    by_arithmetic = piece_moment(Exact.rational(c), rate, Exact.rational(low), Exact.rational(high), 0)
    at_once = _exponential_mass(c / rate, rate * low, rate * high)
    assert at_once == by_arithmetic and (at_once.num, at_once.den) == (by_arithmetic.num, by_arithmetic.den)
    antiderivative = c * (Exact.exp(rate * high) - Exact.exp(rate * low)) / Exact.rational(rate)
    assert at_once == antiderivative


def test_a_density_of_many_exponential_pieces_sums_its_mass_once(monkeypatch):
    """The mass of 1,000 exponential pieces of different coefficients: the sum of their masses was 1,000 exact
    additions, each copying a partial sum of up to 2,000 terms (quadratic); now one sum of their terms."""
    pieces = 1000
    breakpoints = list(range(pieces + 1))
    values = [Exact.rational(Fraction(k + 1, 10 ** 6)) for k in range(pieces)]
    density = Density(breakpoints, values, rates=[-1] * pieces)
    copied = []  # the terms of both operands of every exact addition: what the additions copy
    real = Exact.__add__

    def add(self, other):
        copied.append(len(self.num) + len(getattr(other, "num", ())))
        return real(self, other)

    monkeypatch.setattr(Exact, "__add__", add)
    monkeypatch.setattr(Exact, "__radd__", add)
    mass = density.mass
    assert sum(copied) < 10 * pieces  # a few terms per piece; a partial sum copied each time is 10^6
    monkeypatch.undo()
    expected = sum((piece_moment(v, Fraction(-1), Exact.rational(k), Exact.rational(k + 1), 0)
                    for k, v in enumerate(values)), ZERO)
    assert mass == expected and density.mass is mass  # and computed once


@pytest.mark.parametrize("seed", range(20))
def test_exact_sum_is_the_sum(seed):
    rng = random.Random(seed)
    pool = [Exact.of(text) for text in ("1/3", "exp(1)/2", "(exp(2) - exp(1))/4", "1/(exp(1) + 1)",
                                        "exp(-1/2)/(exp(1) + 1)", "0", "2/(exp(1) + 1)")]
    values = [rng.choice(pool) for _ in range(rng.randint(0, 12))]
    assert exact_sum(values) == sum(values, ZERO)


@pytest.mark.parametrize("seed", range(20))
def test_sorted_unique_is_the_sort_and_keeps_the_first_of_equal_points(seed):
    rng = random.Random(seed)
    pool = ["-inf", "inf", "0", "1/2", "0.5", "-3", "exp(1)", "1 + exp(1) - exp(1)", "exp(1)/2", "2/3"]
    points = [continuous.point(rng.choice(pool), "p") for _ in range(rng.randint(1, 15))]
    result = sorted_unique(points)
    assert all(compare_points(a, b) < 0 for a, b in zip(result, result[1:]))
    for point in points:  # every point is there, as the first given of those equal to it
        first = next(p for p in points if compare_points(p, point) == 0)
        assert any(r is first for r in result)


def test_check_outputs_refuses_what_the_cells_channel_refuses():
    """An atom named as a cell: refused by ``check_outputs`` without a mass, with the cells' channel's message."""
    components = {"a": {"[0, 1)": "1/2", None: Density([0, 1], ["1/2"])},
                  "b": {"[0, 1)": "1/2", None: Density([0, 1], ["1/2"])}}
    channel = PiecewiseChannel(["a", "b"], components)
    with pytest.raises(InvalidChannel) as by_cells:
        channel.cell_masses()
    with pytest.raises(InvalidChannel) as by_labels:
        channel.check_outputs()
    assert str(by_labels.value) == str(by_cells.value) and "appears twice" in str(by_labels.value)
    density_channel(10).check_outputs()  # distinct: nothing to say


@pytest.mark.parametrize("text", ["exp(-1) - exp(-2)", "1 - exp(-1) + exp(-3)", "exp(2) - 3*exp(1)", "-exp(1) + 2",
                                  "(exp(1) - 1)/(exp(2) - exp(1) - 1)", "1/2", "0", "-exp(1/3)"])
def test_the_dominant_term_decides_a_sign_only_when_it_is_right(text):
    number = Exact.of(text)
    for poly in (number.num, number.den):
        sign = _dominant_sign(poly)
        if sign is not None:
            assert sign == Exact(poly).sign()


def test_an_entry_above_1_is_named_before_its_row():
    """The bound ``p <= 1`` of an entry that is not rational is left to its row's sum; a row that does not sum to 1
    still names its entry above 1 first, as when every bound was checked on reading."""
    with pytest.raises(InvalidChannel, match=r"must be a probability in \[0, 1\], got exp\(1\)/2"):
        Channel(["x", "y"], ["u", "v"], [["1/2", "1/2"], ["exp(1)/2", "0"]])
    with pytest.raises(InvalidChannel, match="must sum to exactly 1"):
        Channel(["x"], ["u", "v"], [["exp(-1)", "exp(-1)"]])
    accepted = Channel(["x"], ["u", "v"], [["exp(-1)", "1 - exp(-1)"]])
    assert accepted.probability("x", "u") == Exact.exp(-1)


def test_the_reported_file_decides_as_before():
    """N = 2,000, read from the file: the verdict, its witness and the pair losses are the scan's."""
    pytest.importorskip("numpy", reason="channel files are read by reference/channelfile.py, which needs NumPy")
    from ldpspec.reference.channelfile import parse_channel_file

    channel = parse_channel_file(density_file(2000)).channel
    verdict = spec.ldp(channel, 1)
    assert not verdict.holds and verdict.witness.output == "(-inf, -1)"
    loss, output = channel.supremum_pair_loss("b", "a")
    assert (loss, output) == scan(channel, "b", "a") and loss == Nats.rational(1)

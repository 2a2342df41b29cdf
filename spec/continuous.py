"""Channels with continuous outputs: densities made of exponential pieces between exact breakpoints, beside discrete
outputs.

A mechanism such as Wheel or PM releases a point drawn from a density that is constant on finitely many intervals;
the Laplace mechanism releases one whose density is ``c e^{rate y}`` on each side of the input. Such a channel is a
``PiecewiseChannel``: for every input, a set of **components**, each keyed by a discrete label and either

* an **atom**: the label alone is the output, with a probability (a mass), or
* a ``Density``: the output is the label together with a point of the real line, with a sub-density that is
  ``value[i] e^{rate[i] y}`` on ``[breakpoint[i], breakpoint[i+1])`` and zero outside (rates 0 by default: constant
  pieces). The ends may be ``-inf`` and ``+inf`` where the density is integrable.

For one label, the union of the breakpoints of every input's density cuts the line into **cells**; on a cell every
input's density is a single term ``c e^{rate y}``.

**Why the cells decide privacy exactly.** A ratio condition on densities, ``f(y|x) <= e^eps f(y|x')``, is a condition
for almost every point ``y`` (a density is defined up to sets of length zero), so the loss of a pair of inputs is the
essential supremum of ``ln f(y|x)/f(y|x')``. On a cell the ratio ``(c/c') e^{(rate - rate') y}`` is continuous and
monotone, so its supremum over the cell is its limit at one end, computed exactly (``supremum_pair_loss``), and is
infinite when that end is infinite. When every piece is constant the ratio is constant on a cell: a cell of length
``L`` has masses ``f L`` and ``f' L``, and ``f L <= e^eps f' L`` exactly when ``f <= e^eps f'``, so the discrete channel
whose outputs are the cells and whose probabilities are the cells' masses (``explicit()``) satisfies every ratio
condition, with the same worst ratio, exactly when the continuous channel does, and every notion of the kernel
applies to it unchanged. With exponential pieces that equivalence fails (a cell's mass ratio lies strictly between
the ratio's values at its ends), so ``explicit()`` is refused and only the notions judged by pairwise losses apply.
A cell with zero mass under an input is a region where that input's density is zero: an infinite ratio.

**Mixtures.** ``PiecewiseChannel.mixture`` combines channels (one per value of a public random choice, such as the
user's hash function) with exact weights: released (the choice is part of the output, so outputs are paired with
its label) or not released (the densities are added, on the union of their breakpoints).
"""

from __future__ import annotations

import bisect
import math
from collections.abc import Callable, Iterator, Mapping, Sequence
from fractions import Fraction
from functools import cmp_to_key

from ldpspec.spec.channel import Channel, check_entries
from ldpspec.spec.errors import InvalidChannel, InvalidParameter
from ldpspec.spec.exact import ONE, ZERO, Exact
from ldpspec.spec.labels import entry_name, label_list, normalize_label, unique_labels, value_text
from ldpspec.spec.nats import Nats
from ldpspec.spec.numbers import exact_number
from ldpspec.spec.protocol import checked_channel
from ldpspec.spec.rows import exact_sum
from ldpspec.spec.structured import StructuredChannel, number_key


class Infinity:
    """``-inf`` or ``+inf``, allowed as the first or last breakpoint of a density that is integrable there (the tail of
    a Laplace density). It compares with exact numbers through ``compare_points``."""

    __slots__ = ("sign",)

    def __init__(self, sign: int):
        self.sign = sign

    def text(self) -> str:
        return "inf" if self.sign > 0 else "-inf"

    def __float__(self) -> float:
        return float(self.sign) * float("inf")

    def __eq__(self, other) -> bool:
        return isinstance(other, Infinity) and other.sign == self.sign

    def __hash__(self) -> int:
        return hash(("infinity", self.sign))

    def __repr__(self) -> str:
        return self.text()


NEGATIVE_INFINITY, POSITIVE_INFINITY = Infinity(-1), Infinity(1)


def compare_points(a, b) -> int:
    """-1, 0 or 1 as ``a <, =, > b``, for exact numbers and the two infinities."""
    if isinstance(a, Infinity):
        return 0 if a == b else a.sign
    if isinstance(b, Infinity):
        return -b.sign
    left, right = a.as_rational(), b.as_rational()
    if left is not None and right is not None:  # most breakpoints: in integers (a Fraction compares in Python)
        first, second = left.numerator * right.denominator, right.numerator * left.denominator
        return (first > second) - (first < second)
    return a.compare(b)


def point(value, name: str):
    """A breakpoint: an exact number, or ``"-inf"``/``"inf"`` (also the floats and the ``Infinity`` constants)."""
    if isinstance(value, Infinity):
        return value
    if isinstance(value, float) and math.isinf(value) or isinstance(value, str) and value.strip() in ("inf", "-inf",
                                                                                                      "+inf"):
        negative = value < 0 if isinstance(value, float) else value.strip() == "-inf"
        return NEGATIVE_INFINITY if negative else POSITIVE_INFINITY
    return exact_number(value, name)


def sorted_unique(points: list) -> list:
    """Breakpoints sorted, equal ones once (the first given of equal ones). Equal rationals and infinities are merged
    by a key first (``_point_key``, hashed in C), so that 10^5 breakpoints shared by two densities are sorted once."""
    first = {}
    for point_ in points:
        first.setdefault(_point_key(point_), point_)
    ordered = sorted(first.values(), key=cmp_to_key(compare_points))
    unique = []
    for point_ in ordered:
        if not unique or compare_points(point_, unique[-1]) != 0:  # equal points that are not rational
            unique.append(point_)
    return unique


def exponential_at(rate: Fraction, at) -> Exact:
    """``e^{rate * at}`` exactly, for a rational ``rate`` and a rational ``at`` (0 at the infinite end where the
    exponent tends to minus infinity; the caller has checked that it does)."""
    if isinstance(at, Infinity):
        return ZERO
    return Exact.exp(rate * at.as_rational())


def piece_moment(coefficient: Exact, rate: Fraction, low, high, power: int) -> Exact:
    """``int_low^high y^power c e^{rate y} dy`` exactly, for ``power`` in 0, 1, 2.

    A constant piece (``rate = 0``, finite ends) gives ``c (high^{m+1} - low^{m+1}) / (m + 1)``. Otherwise integration
    by parts gives the antiderivative ``F(y) = e^{rate y} sum_{j=0}^{m} (-1)^j m!/(m-j)! y^{m-j} / rate^{j+1}``, which
    tends to 0 at an infinite end where the piece is integrable."""
    if not coefficient:
        return ZERO
    if rate == 0:
        c, a, b = (value.as_rational() if isinstance(value, Exact) else None for value in (coefficient, low, high))
        if c is not None and a is not None and b is not None:  # most pieces: in rationals, one Exact at the end
            if power == 0:
                return Exact.rational(c * (b - a))
            return Exact.rational(c * (b ** (power + 1) - a ** (power + 1)) / (power + 1))
        return coefficient * (high ** (power + 1) - low ** (power + 1)) / (power + 1)

    if power == 0:  # a mass: c (e^{rate high} - e^{rate low}) / rate, four exact operations (a density file has 10^5)
        return coefficient * (exponential_at(rate, high) - exponential_at(rate, low)) / Exact.rational(rate)

    def antiderivative(y) -> Exact:
        if isinstance(y, Infinity):
            return ZERO
        total = ZERO
        for j in range(power + 1):
            total = total + (-1) ** j * math.perm(power, j) * y ** (power - j) / Exact.rational(rate ** (j + 1))
        return exponential_at(rate, y) * total

    return coefficient * (antiderivative(high) - antiderivative(low))


class Density:
    """A sub-density made of exponential pieces: ``values[i] * e^{rates[i] * y}`` on ``[breakpoints[i],
    breakpoints[i+1])``, zero outside ``[breakpoints[0], breakpoints[-1])``. Its mass (integral) is at most 1.

    Without ``rates`` (or with every rate 0) the density is constant on each piece, as Wheel's and PM's are. A rate
    must be rational, and the finite ends of a piece with a rate other than 0 rational, so that ``e^{rate * y}`` at
    the ends is an exact number. The first breakpoint may be ``-inf`` where its piece has a rate > 0 (or is zero),
    the last ``+inf`` where its piece has a rate < 0 (or is zero): the tails of a Laplace density."""

    __slots__ = ("breakpoints", "values", "rates", "_mass")

    def __init__(self, breakpoints: Sequence, values: Sequence, name: str = "density", rates: Sequence | None = None):
        self._mass = None
        self.breakpoints = tuple(point(b, f"{name} breakpoint") for b in breakpoints)
        self.values = tuple(exact_number(v, f"{name} value") for v in values)
        if len(self.breakpoints) < 2 or len(self.values) != len(self.breakpoints) - 1:
            raise InvalidChannel(f"{name} needs n + 1 >= 2 breakpoints and n values, got {len(self.breakpoints)} "
                                 f"breakpoints and {len(self.values)} values")
        self.rates = (Fraction(0),) * len(self.values) if rates is None else tuple(
            _rational_rate(r, f"{name} rate") for r in rates)
        if len(self.rates) != len(self.values):
            raise InvalidChannel(f"{name} needs one rate per value, got {len(self.rates)} rates and "
                                 f"{len(self.values)} values")
        for i, infinite in enumerate(self.breakpoints):
            if isinstance(infinite, Infinity) and i not in (0, len(self.breakpoints) - 1):
                raise InvalidChannel(f"{name}: {infinite.text()} may only be the first or last breakpoint")
        for low, high in zip(self.breakpoints, self.breakpoints[1:]):
            if not compare_points(low, high) < 0:
                raise InvalidChannel(f"{name} breakpoints must increase strictly; got {low.text()} then {high.text()}")
        for value in self.values:
            rational = value.as_rational()
            if rational.numerator < 0 if rational is not None else value.sign() < 0:
                raise InvalidChannel(f"{name} values must be >= 0, got {value.text()}")
        for i, (value, rate) in enumerate(zip(self.values, self.rates)):
            low, high = self.breakpoints[i], self.breakpoints[i + 1]
            if value and isinstance(low, Infinity) and not rate > 0:  # only the first breakpoint may be -inf
                raise InvalidChannel(f"{name}: the piece on (-inf, {high.text()}) must have a rate > 0 to be "
                                     f"integrable, got {rate}")
            if value and isinstance(high, Infinity) and not rate < 0:  # only the last may be +inf
                raise InvalidChannel(f"{name}: the piece on [{low.text()}, inf) must have a rate < 0 to be "
                                     f"integrable, got {rate}")
            if rate and any(not isinstance(end, Infinity) and end.as_rational() is None for end in (low, high)):
                raise InvalidChannel(f"{name}: a piece with a rate other than 0 needs rational ends, got "
                                     f"[{low.text()}, {high.text()})")

    @classmethod
    def uniform(cls, low, high, mass=1) -> Density:
        """Mass ``mass`` spread uniformly over ``[low, high)``."""
        low, high = exact_number(low, "low"), exact_number(high, "high")
        return cls((low, high), (exact_number(mass, "mass") / (high - low),))

    @property
    def is_constant(self) -> bool:
        """Whether every piece is constant (every rate is 0)."""
        return not any(self.rates)

    def pieces(self) -> Iterator[tuple]:
        """``(low, high, coefficient, rate)`` of every piece, in increasing order."""
        return zip(self.breakpoints, self.breakpoints[1:], self.values, self.rates)

    @property
    def mass(self) -> Exact:
        """The integral of the density, exactly (computed once: a density does not change)."""
        if self._mass is None:
            self._mass = self.moment(0)
        return self._mass

    def moment(self, power: int) -> Exact:
        """``int y^power f(y) dy`` exactly, for ``power`` in 0, 1, 2 (mass, first and second raw moment)."""
        if power not in (0, 1, 2):
            raise InvalidParameter(f"power must be 0, 1 or 2, got {value_text(power)}")
        rational, others = Fraction(0), []
        for low, high, c, rate in self.pieces():
            moment = piece_moment(c, rate, low, high, power)
            value = moment.as_rational()
            if value is not None:
                rational += value
            else:
                others.append(moment)
        return exact_sum([Exact.rational(rational), *others])  # 10^5 exponential pieces: one sum, not 10^5

    def mass_between(self, low, high) -> Exact:
        """The integral of the density over ``[low, high)`` (ends exact numbers or infinities), exactly. A piece
        with a rate needs the ends that cut it to be rational."""
        low, high = point(low, "low"), point(high, "high")
        total = ZERO
        for a, b, c, rate in self.pieces():
            a = a if compare_points(a, low) >= 0 else low
            b = b if compare_points(b, high) <= 0 else high
            if compare_points(a, b) < 0:
                total = total + piece_moment(c, rate, a, b, 0)
        return total

    def terms_on_cells(self, cells: Sequence[tuple]) -> list[tuple]:
        """``(coefficient, rate)`` of the density on each of ``cells`` (consecutive ``(low, high)`` of a refinement
        of its breakpoints, in increasing order), ``(0, 0)`` outside its pieces: one pass over both."""
        result, piece = [], 0
        for low, _ in cells:
            while piece < len(self.values) and compare_points(self.breakpoints[piece + 1], low) <= 0:
                piece += 1
            inside = piece < len(self.values) and compare_points(self.breakpoints[piece], low) <= 0
            result.append((self.values[piece], self.rates[piece]) if inside else (ZERO, Fraction(0)))
        return result

    def on_cells(self, cells: Sequence[tuple]) -> list:
        """The density's value on each of ``cells``; for constant densities (a coefficient otherwise)."""
        return [value for value, _ in self.terms_on_cells(cells)]

    def scaled(self, factor) -> Density:
        return Density(self.breakpoints, [v * factor for v in self.values], rates=self.rates)

    @staticmethod
    def sum(densities: Sequence[Density]) -> Density:
        """The pointwise sum, on the union of the breakpoints. Two pieces with different rates on one cell would
        make a density of two terms there, which the kernel does not represent: refused."""
        points = sorted_unique([b for density in densities for b in density.breakpoints])
        cells = list(zip(points, points[1:]))
        totals, rates = [ZERO] * len(cells), [None] * len(cells)
        for density in densities:
            for i, (value, rate) in enumerate(density.terms_on_cells(cells)):
                if not value:
                    continue
                if rates[i] is not None and rates[i] != rate:
                    raise InvalidChannel("cannot add exponential pieces of different rates on one cell "
                                         f"[{cells[i][0].text()}, {cells[i][1].text()})")
                totals[i], rates[i] = totals[i] + value, rate
        return Density(points, totals, rates=[r or Fraction(0) for r in rates])

    def __repr__(self) -> str:
        def piece_text(low, high, c, rate):
            shape = c.text() if not rate else f"{c.text()} e^({rate} y)"
            return f"[{low.text()}, {high.text()}): {shape}"
        return f"Density({', '.join(piece_text(*piece) for piece in self.pieces())})"


def _exponential_mass(factor: Fraction, low: Fraction, high: Fraction) -> Exact:
    """``factor (e^high - e^low)``, the mass ``(c / rate) (e^{rate b} - e^{rate a})`` of a piece over a cell, built
    in the exact numbers' own form: the two terms sorted by exponent, over the denominator of ``factor`` (already
    without a common factor with its numerator). The same number, in the same form, as ``piece_moment``'s arithmetic
    (a test checks the two)."""
    a, b = factor.numerator, factor.denominator
    terms = ((low, -a), (high, a)) if low < high else ((high, a), (low, -a))
    return Exact(tuple((q.numerator if q.denominator == 1 else q, c) for q, c in terms), ((0, b),), reduced=True)


def _point_key(value):
    """A hashable key of a breakpoint, equal for equal rationals: ``(numerator, denominator)`` (a tuple hashes in C,
    a Fraction in Python), the infinity itself, or the object of a breakpoint that is not rational."""
    if isinstance(value, Infinity):
        return value
    rational = value.as_rational()
    return (rational.numerator, rational.denominator) if rational is not None else ("object", id(value))


def _rational_rate(value, name: str) -> Fraction:
    rate = exact_number(value, name).as_rational()
    if rate is None:
        raise InvalidChannel(f"{name} must be a rational number, got {exact_number(value, name).text()}")
    return rate


def cell_text(low, high) -> str:
    """The label of the cell ``[low, high)`` in an explicit channel: ``"[1/4, 1/2)"``, ``"(-inf, 0)"``."""
    return f"{'(' if isinstance(low, Infinity) else '['}{low.text()}, {high.text()})"


def default_output_label(label, cell: str | None):
    """An atom's output is its label; a density's output is ``(label, cell)``, or the cell alone for label None."""
    if cell is None:
        return label
    return cell if label is None else (label, cell)


def cell_first_output_label(label, cell: str | None):
    """An atom's output is its label; a density's output is ``(cell, label)``, or the cell alone for label None: the
    shape of a SULDP output ``(y0, R)`` whose protected part ``y0`` is the point."""
    if cell is None:
        return label
    return cell if label is None else (cell, label)


def _add_weighted(target: dict, parts: Mapping, weight, choice) -> None:
    """Add ``weight`` times each component of ``parts`` into ``target`` (keyed ``(choice, label)`` when a choice is
    given, ``label`` otherwise): atoms add, densities add pointwise."""
    for label, part in parts.items():
        part = part.scaled(weight) if isinstance(part, Density) else part * weight
        key = label if choice is None else (choice, label)
        if key in target:
            previous = target[key]
            part = Density.sum([previous, part]) if isinstance(part, Density) else previous + part
        target[key] = part


class PiecewiseChannel(StructuredChannel):
    """A channel whose outputs are atoms and points drawn from piecewise-constant densities.

    Args:
        inputs: the input labels.
        components: for every input, ``{label: mass}`` for an atom or ``{label: Density}`` for a continuous
            component; a label an input lacks has mass (or density) zero for it. A label is an atom for every input
            or a density for every input. Each input's masses and densities' masses sum to exactly 1.
        output_label: ``output_label(label, cell)`` names the outputs of the explicit channel (``cell`` is the
            cell's text, or None for an atom); by default ``default_output_label``.
        order: every component label once, in the order the explicit channel lists their outputs; by default the
            order in which the labels first appear (inputs in order, each input's components in order).
    """

    def __init__(self, inputs, components: Mapping, output_label: Callable = default_output_label, *,
                 order: Sequence | None = None):
        self.inputs = unique_labels(inputs, "input")
        if set(components) != set(self.inputs):
            raise InvalidChannel("components must give the components of every input, and only of the inputs")
        self.components = {}
        self.kinds = {}  # label -> "atom" | "density", in first-seen order
        for x in self.inputs:
            parts = {}
            total = ZERO
            for label, part in components[x].items():
                label = normalize_label(label, "component label")
                kind = "density" if isinstance(part, Density) else "atom"
                if self.kinds.setdefault(label, kind) != kind:
                    raise InvalidChannel(f"component {value_text(label)} must be an atom for every input or a "
                                         f"density for "
                                         f"every input; input {value_text(x)} disagrees")
                if kind == "atom":
                    part = exact_number(part, entry_name(x, label))
                    if part < 0:
                        raise InvalidChannel(f"P[{value_text(label)}|{value_text(x)}] must be >= 0, got {part.text()}")
                total = total + (part.mass if kind == "density" else part)
                parts[label] = part
            if total != ONE:
                raise InvalidChannel(f"the components of input {value_text(x)} must have total mass exactly 1, got "
                                     f"{total.text()}")
            self.components[x] = parts
        if order is not None:
            order = [normalize_label(label, "component label") for label in order]
            if len(set(order)) != len(order) or set(order) != set(self.kinds):
                raise InvalidChannel(f"order must name every component label once: the labels are "
                                     f"{value_text(list(self.kinds))}, the order gives {value_text(order)}"[:500])
            self.kinds = {label: self.kinds[label] for label in order}
        self.output_label = output_label
        self._cells, self._positions = {}, {}
        for label, kind in self.kinds.items():
            if kind == "density":
                points = sorted_unique([b for x in self.inputs if label in self.components[x]
                                         for b in self.components[x][label].breakpoints])
                self._cells[label] = list(zip(points, points[1:]))
                self._positions[label] = {_point_key(point_): k for k, point_ in enumerate(points)}
        self._terms = {}  # (input, label) -> its (coefficient, rate) on each cell, computed once
        self._cell_channel = None
        self._float_ends = {}

    @classmethod
    def mixture(cls, weighted: Sequence[tuple], released: bool,
                output_label: Callable = default_output_label) -> PiecewiseChannel:
        """``sum_h w_h P_h``: the channels ``P_h`` (same inputs) chosen with exact weights ``w_h`` summing to 1.

        ``weighted`` is ``[(choice label, weight, channel), ...]``. When ``released``, the choice is part of the
        output: component ``label`` of channel ``h`` becomes ``(h, label)``. Otherwise components of the same label
        are added (densities pointwise).
        """
        if not weighted:
            raise InvalidChannel("a mixture needs at least one channel")
        inputs = weighted[0][2].inputs
        weights = [exact_number(w, f"weight of {value_text(h)}") for h, w, _ in weighted]
        if any(w < 0 for w in weights) or sum(weights, ZERO) != ONE:
            raise InvalidChannel("the weights of a mixture must be >= 0 and sum to exactly 1")
        components = {x: {} for x in inputs}
        for (h, _, channel), w in zip(weighted, weights):
            if channel.inputs != inputs:
                raise InvalidChannel("the channels of a mixture must have the same inputs")
            for x in inputs:
                _add_weighted(components[x], channel.components[x], w, h if released else None)
        return cls(inputs, components, output_label)

    def preprocessed(self, pre) -> PiecewiseChannel:
        """``pre`` (a discrete ``Channel`` whose outputs are this channel's inputs) followed by this channel:
        ``P[y|s] = sum_t Pre[t|s] P[y|t]``, densities added pointwise (a randomised preprocessing of the input,
        such as padding a set)."""
        missing = [t for t in pre.outputs if t not in self.components]
        if missing:
            raise InvalidChannel(f"the preprocessing's outputs must be this channel's inputs; "
                                 f"{value_text(missing[:3])} are not")
        components = {s: {} for s in pre.inputs}
        for s, row in zip(pre.inputs, pre.rows):
            for t, w in zip(pre.outputs, row):
                if w:
                    _add_weighted(components[s], self.components[t], w, None)
        present = {label for parts in components.values() for label in parts}
        return PiecewiseChannel(pre.inputs, components, self.output_label,
                                order=[label for label in self.kinds if label in present])

    # --- the channel protocol ---

    def pair_steps(self) -> tuple[int, str]:
        return self.output_count, "output"  # a pair's loss takes one pass over the outputs of the explicit channel

    @property
    def has_densities(self) -> bool:
        return "density" in self.kinds.values()

    @property
    def file_structures(self) -> tuple[str, ...]:
        return ("densities",) if self.has_densities else ("matrix",)

    def discrete_outcomes(self, max_entries: int | None = None) -> Channel:
        return self.cell_masses(max_entries)

    def matrix(self, max_entries: int | None = None) -> Channel | None:
        """With constant densities, the channel of atoms and cells (``explicit()``), which has the same ratios; with
        exponential pieces none."""
        return None if self.has_rates else self.explicit(max_entries)

    @property
    def output_count(self) -> int:
        return sum(1 if kind == "atom" else len(self._cells[label]) for label, kind in self.kinds.items())

    def iter_outputs(self) -> Iterator:
        for label, kind in self.kinds.items():
            if kind == "atom":
                yield self.output_label(label, None)
            else:
                cells = self._cells[label]
                points = [low for low, _ in cells] + [cells[-1][1]]
                texts = [point_.text() for point_ in points]  # each breakpoint written once, not once per cell
                for k, low in enumerate(points[:-1]):
                    opening = "(" if isinstance(low, Infinity) else "["
                    yield self.output_label(label, f"{opening}{texts[k]}, {texts[k + 1]})")

    def check_outputs(self) -> None:
        """Refuse, as ``cell_masses()`` would, a channel two of whose outputs have one label (an atom named as a cell:
        ``"[0, 1)"`` beside a density of label ``None``), without computing a mass: a reader of a file of 10^5
        exponential pieces needs only this of the cells' channel."""
        unique_labels(label_list(tuple(self.iter_outputs()), "outputs"), "output")

    @property
    def has_rates(self) -> bool:
        """Whether some density has a piece with a rate other than 0 (its ratio varies inside a cell)."""
        return any(isinstance(part, Density) and not part.is_constant
                   for parts in self.components.values() for part in parts.values())

    def _row(self, x) -> list:
        """Input ``x``'s probabilities of the explicit outputs: atoms' masses and cells' masses."""
        row = []
        for label, kind in self.kinds.items():
            part = self.components[x].get(label)
            if kind == "atom":
                row.append(ZERO if part is None else part)
            elif part is None:
                row.extend([ZERO] * len(self._cells[label]))
            else:
                row.extend(self._masses(x, label))
        return row

    def _masses(self, x, label) -> list:
        """Input ``x``'s masses of the cells of density component ``label``, ``piece_moment``'s numbers: a Laplace
        density over 10^5 cells has 10^5 of them, so a rational coefficient's exponential piece is written at once
        in its exact form (``_exponential_mass``) rather than by five exact operations."""
        masses, last = [], None  # last: (c, rate, c / rate, the cell's high end, rate times it) of the cell before
        for (c, rate), (low, high) in zip(self._cell_terms(x, label), self._cells[label]):
            rational = c.as_rational() if rate else None
            if rational and not isinstance(low, Infinity) and not isinstance(high, Infinity):
                if last is not None and last[0] is c and last[1] == rate and last[3] is low:  # the same piece
                    factor, at_low = last[2], last[4]
                else:
                    factor, at_low = rational / rate, rate * low.as_rational()
                at_high = rate * high.as_rational()
                masses.append(_exponential_mass(factor, at_low, at_high))
                last = (c, rate, factor, high, at_high)
            else:
                masses.append(piece_moment(c, rate, low, high, 0))
        return masses

    def _cell_terms(self, x, label) -> list:
        """``(coefficient, rate)`` of input ``x``'s density of component ``label`` on each of its cells (``(0, 0)``
        where it has none), computed once per input: each piece fills the cells between the positions of its ends
        among the cells' breakpoints. A breakpoint that is not rational, and not the object the cells hold, is
        found by ``Density.terms_on_cells``' pass over the cells instead."""
        if (x, label) not in self._terms:
            cells, part = self._cells[label], self.components[x].get(label)
            terms = [(ZERO, Fraction(0))] * len(cells)
            positions = self._positions[label]
            for low, high, c, rate in (part.pieces() if part is not None else ()):
                start, stop = positions.get(_point_key(low)), positions.get(_point_key(high))
                if start is None or stop is None:
                    terms = part.terms_on_cells(cells)
                    break
                terms[start:stop] = [(c, rate)] * (stop - start)
            self._terms[x, label] = terms
        return self._terms[x, label]

    def cell_masses(self, max_entries: int | None = None) -> Channel:
        """The discrete channel of atoms and cells' masses. For constant densities it is ``explicit()``; with
        exponential pieces it is only a coarsening of the release (what a goodness-of-fit test of a sampler
        counts), never a privacy view: its ratios can understate the densities' ratios."""
        check_entries(len(self.inputs) * self.output_count,
                      f"the cells of this channel ({len(self.inputs):,} inputs x {self.output_count:,} outputs)",
                      max_entries)
        if self._cell_channel is None:  # computed once: the channel does not change
            self._cell_channel = Channel(self.inputs, tuple(self.iter_outputs()), [self._row(x) for x in self.inputs])
        return self._cell_channel

    def explicit(self, max_entries: int | None = None) -> Channel:
        """The channel of atoms and cells (see the module's docstring): ratio conditions hold on it exactly when they
        hold on the densities almost everywhere. Refused when a density has exponential pieces: their ratio varies
        inside a cell, so only the notions judged by pairwise losses (which take the supremum over each cell)
        apply."""
        if self.has_rates:
            raise InvalidChannel("this channel has densities with exponential pieces, whose ratio varies inside a "
                                 "cell, so it has no explicit channel of cells; the notions judged by pairwise losses "
                                 "(ldp, graded-ldp, id-ldp, min-id-ldp, avg-id-ldp) apply to it, and cell_masses() "
                                 "gives the cells' masses for a goodness-of-fit test")
        return self.cell_masses(max_entries)

    def probability(self, x, y):
        channel = self.explicit()
        return channel.row(x)[channel.outputs.index(y)]

    def pair_loss(self, x, other) -> tuple:
        if not self.has_rates:
            return self.explicit().pair_loss(x, other)
        return self.supremum_pair_loss(x, other)

    def supremum_pair_loss(self, x, other) -> tuple:
        """``(sup ln f(y|x)/f(y|other), output)`` over atoms and the points of every cell, from the pieces.

        On a cell each input's density is one term ``c e^{rate y}``, so the ratio ``(c/c') e^{(rate - rate') y}`` is
        monotone in ``y`` and its supremum over the cell is its limit at one end: the upper end when the ratio
        grows, the lower one when it falls, anywhere when it is constant; ``+inf`` when that end is infinite, or
        where ``f(y|x) > 0 = f(y|other)``. The output named is the cell; of cells with the same supremum, one where
        it is attained (a constant ratio) rather than only approached, else the first. For constant densities this
        is the explicit channel's loss (a test checks the two).

        The cells of one component whose two coefficients are the same objects (or equal rationals) and whose ratio
        has the same growth form a group: its suprema ``(c/c') e^{growth * end}`` are ordered as the cells, which come
        in increasing order, so the group's best is its last cell when the ratio grows, its first when it falls or is
        constant (attained, and first of equal ones). Only the groups' suprema are compared exactly: a density of 10^5
        pieces of one value beside a Laplace density makes two groups, not 10^5 exact comparisons. Across groups the
        scan's rule picks the largest supremum, the first attained one of equal suprema, else the first, as the scan
        over every cell does."""
        groups = {}  # (label, keys of c and c', growth) -> (position, c, c', growth, label, cell) of the group's best
        position = 0
        for label, kind in self.kinds.items():
            part, other_part = self.components[x].get(label), self.components[other].get(label)
            if kind == "atom":
                c, c2 = ZERO if part is None else part, ZERO if other_part is None else other_part
                candidates = [(c, Fraction(0), c2, Fraction(0), None)]
            else:
                candidates = zip(self._cell_terms(x, label), self._cell_terms(other, label), self._cells[label])
                candidates = ((c, rate, c2, rate2, cell) for (c, rate), (c2, rate2), cell in candidates)
            last = None  # (c, rate, c', rate') of the cell before, with its growth and key: a piece covers many cells
            for c, rate, c2, rate2, cell in candidates:
                position += 1
                if not c:
                    continue  # x never produces these outputs: no constraint
                if not c2:
                    return Nats.infinity(), self._output(label, cell)
                if last is None or last[0] is not c or last[1] is not rate or last[2] is not c2 or last[3] is not rate2:
                    growth = rate - rate2
                    last = (c, rate, c2, rate2, growth, (label, number_key(c), number_key(c2), growth))
                growth, key = last[4], last[5]
                if growth:
                    end = cell[1] if growth > 0 else cell[0]
                    if isinstance(end, Infinity):
                        return Nats.infinity(), self._output(label, cell)
                    if end.as_rational() is None:
                        raise InvalidChannel(f"the cell {cell_text(*cell)} of component {value_text(label)} ends at an "
                                             "irrational breakpoint where the ratio of two exponential pieces varies")
                if growth > 0 or key not in groups:
                    groups[key] = (position, c, c2, growth, label, cell)
        best = None
        for _, c, c2, growth, label, cell in sorted(groups.values(), key=lambda group: group[0]):
            ratio = c / c2
            if growth:
                ratio = ratio * exponential_at(growth, cell[1] if growth > 0 else cell[0])
            order = 1 if best is None else ratio.compare(best[0])
            if order > 0 or order == 0 and not best[1] and not growth:
                best = (ratio, not growth, label, cell)
        if best is None:
            return Nats.rational(0), None
        return Nats(best[0]), self._output(best[2], best[3])

    def _output(self, label, cell):
        """The output of an atom (``cell`` None) or of the cell ``(low, high)`` of density component ``label``."""
        return self.output_label(label, None if cell is None else cell_text(*cell))

    def output_at(self, label, point):
        """The explicit channel's output holding the point ``point`` (an exact number or a float) of component
        ``label``: how a sampled release is matched to the exact channel. An atom's output is its label."""
        label = normalize_label(label, "component label")
        if self.kinds.get(label) == "atom":
            return self.output_label(label, None)
        cells = self._cells.get(label, ())
        if isinstance(point, float):  # a sample: the cells' ends as floats, found by bisection
            if label not in self._float_ends:
                self._float_ends[label] = [float(low) for low, _ in cells] + ([float(cells[-1][1])] if cells else [])
            ends = self._float_ends[label]
            k = bisect.bisect_right(ends, point) - 1
            if 0 <= k < len(cells):
                return self.output_label(label, cell_text(*cells[k]))
        else:
            point = exact_number(point, "point")
            for low, high in cells:
                if compare_points(low, point) <= 0 < compare_points(high, point):
                    return self.output_label(label, cell_text(low, high))
        raise InvalidChannel(f"no output of component {value_text(label)} holds the point {value_text(point)}")

    def cells(self, label) -> list[tuple]:
        """The cells ``(low, high)`` of density component ``label``, in increasing order (empty for an atom)."""
        return list(self._cells.get(normalize_label(label, "component label"), ()))

    def density(self, x, label) -> Density | None:
        """Input ``x``'s density of component ``label`` (None when it has none)."""
        part = self.components[x].get(normalize_label(label))
        return part if isinstance(part, Density) else None


def output_distribution(channel, x) -> dict:
    """``{y: P[y|x]}`` over the channel's discrete outcomes (``discrete_outcomes()``): for a channel with densities,
    the masses of its atoms and cells (for exponential pieces a coarsening of the release: for goodness of fit, not
    for privacy)."""
    outcomes = checked_channel(channel).discrete_outcomes()
    return dict(zip(outcomes.outputs, outcomes.row(x)))

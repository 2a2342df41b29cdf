"""Channels with continuous outputs: densities constant between exact breakpoints, beside discrete outputs.

A mechanism such as Wheel releases a point of ``[0, 1)`` drawn from a density that is constant on finitely many
intervals, possibly together with discrete parts (the items it reveals). Such a channel is a ``PiecewiseChannel``:
for every input, a set of **components**, each keyed by a discrete label and either

* an **atom**: the label alone is the output, with a probability (a mass), or
* a ``Density``: the output is the label together with a point of the real line, with a sub-density that is
  constant between exact breakpoints (``value[i]`` on ``[breakpoint[i], breakpoint[i+1])``, zero outside).

**Why the cells decide privacy exactly.** A ratio condition on densities, ``f(y|x) <= e^eps f(y|x')``, is a condition
for almost every point ``y`` (a density is defined up to sets of length zero). Take, for one label, the union of the
breakpoints of every input's density: between two consecutive ones (a *cell*) every input's density is constant. On
a cell of length ``L`` with densities ``f`` and ``f'``, the masses are ``f L`` and ``f' L``, and ``f L <= e^eps f' L``
exactly when ``f <= e^eps f'``. So the discrete channel whose outputs are the cells and whose probabilities are the
cells' masses (``explicit()``) satisfies every ratio condition, with the same worst ratio, exactly when the continuous
channel does, and every notion and loss computation of the kernel applies to it unchanged. A cell with zero mass
under an input is a region where that input's density is zero: the same infinite ratio in both views.

**Mixtures.** ``PiecewiseChannel.mixture`` combines channels (one per value of a public random choice, such as the
user's hash function) with exact weights: released (the choice is part of the output, so outputs are paired with
its label) or not released (the densities are added, on the union of their breakpoints).
"""

from __future__ import annotations

import bisect
from collections.abc import Callable, Iterator, Mapping, Sequence
from functools import cmp_to_key

from ldpspec.spec.channel import Channel, _unique_labels, check_entries, normalize_label
from ldpspec.spec.errors import InvalidChannel
from ldpspec.spec.exact import ONE, ZERO, Exact
from ldpspec.spec.numbers import exact
from ldpspec.spec.structured import StructuredChannel


def sorted_unique(points: list) -> list:
    """Exact numbers sorted, equal ones once."""
    ordered = sorted(points, key=cmp_to_key(lambda a, b: a.compare(b)))
    unique = []
    for point in ordered:
        if not unique or point != unique[-1]:
            unique.append(point)
    return unique


class Density:
    """A sub-density constant between exact breakpoints: ``values[i]`` on ``[breakpoints[i], breakpoints[i+1])``,
    zero outside ``[breakpoints[0], breakpoints[-1])``. Its mass (integral) is at most 1."""

    __slots__ = ("breakpoints", "values")

    def __init__(self, breakpoints: Sequence, values: Sequence, name: str = "density"):
        self.breakpoints = tuple(exact(b, f"{name} breakpoint") for b in breakpoints)
        self.values = tuple(exact(v, f"{name} value") for v in values)
        if len(self.breakpoints) < 2 or len(self.values) != len(self.breakpoints) - 1:
            raise InvalidChannel(f"{name} needs n + 1 >= 2 breakpoints and n values, got {len(self.breakpoints)} "
                                 f"breakpoints and {len(self.values)} values")
        for low, high in zip(self.breakpoints, self.breakpoints[1:]):
            if not low < high:
                raise InvalidChannel(f"{name} breakpoints must increase strictly; got {low.text()} then {high.text()}")
        for value in self.values:
            if value < 0:
                raise InvalidChannel(f"{name} values must be >= 0, got {value.text()}")

    @classmethod
    def uniform(cls, low, high, mass=1) -> Density:
        """Mass ``mass`` spread uniformly over ``[low, high)``."""
        low, high = exact(low, "low"), exact(high, "high")
        return cls((low, high), (exact(mass, "mass") / (high - low),))

    @property
    def mass(self) -> Exact:
        """The integral of the density, exactly."""
        return sum((v * (high - low) for v, low, high in zip(self.values, self.breakpoints, self.breakpoints[1:])),
                   ZERO)

    def on_cells(self, cells: Sequence[tuple]) -> list:
        """The density's value on each of ``cells`` (consecutive ``(low, high)`` of a refinement of its breakpoints,
        in increasing order): one pass over both."""
        result, piece = [], 0
        for low, _ in cells:
            while piece < len(self.values) and self.breakpoints[piece + 1] <= low:
                piece += 1
            inside = piece < len(self.values) and self.breakpoints[piece] <= low
            result.append(self.values[piece] if inside else ZERO)
        return result

    def scaled(self, factor) -> Density:
        return Density(self.breakpoints, [v * factor for v in self.values])

    @staticmethod
    def sum(densities: Sequence[Density]) -> Density:
        """The pointwise sum, on the union of the breakpoints."""
        points = sorted_unique([b for density in densities for b in density.breakpoints])
        cells = list(zip(points, points[1:]))
        totals = [ZERO] * len(cells)
        for density in densities:
            totals = [t + v for t, v in zip(totals, density.on_cells(cells))]
        return Density(points, totals)

    def __repr__(self) -> str:
        pieces = ", ".join(f"[{low.text()}, {high.text()}): {v.text()}"
                           for v, low, high in zip(self.values, self.breakpoints, self.breakpoints[1:]))
        return f"Density({pieces})"


def cell_text(low: Exact, high: Exact) -> str:
    """The label of the cell ``[low, high)`` in an explicit channel: ``"[1/4, 1/2)"``."""
    return f"[{low.text()}, {high.text()})"


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
        self.inputs = _unique_labels(inputs, "input")
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
                    raise InvalidChannel(f"component {label!r} must be an atom for every input or a density for "
                                         f"every input; input {x!r} disagrees")
                if kind == "atom":
                    part = exact(part, f"P[{label!r}|{x!r}]")
                    if part < 0:
                        raise InvalidChannel(f"P[{label!r}|{x!r}] must be >= 0, got {part.text()}")
                total = total + (part.mass if kind == "density" else part)
                parts[label] = part
            if total != ONE:
                raise InvalidChannel(f"the components of input {x!r} must have total mass exactly 1, got "
                                     f"{total.text()}")
            self.components[x] = parts
        if order is not None:
            order = [normalize_label(label, "component label") for label in order]
            if len(set(order)) != len(order) or set(order) != set(self.kinds):
                raise InvalidChannel(f"order must name every component label once: the labels are "
                                     f"{list(self.kinds)!r}, the order gives {order!r}"[:500])
            self.kinds = {label: self.kinds[label] for label in order}
        self.output_label = output_label
        self._cells = {}
        for label, kind in self.kinds.items():
            if kind == "density":
                points = sorted_unique([b for x in self.inputs if label in self.components[x]
                                         for b in self.components[x][label].breakpoints])
                self._cells[label] = list(zip(points, points[1:]))
        self._explicit = None
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
        weights = [exact(w, f"weight of {h!r}") for h, w, _ in weighted]
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
            raise InvalidChannel(f"the preprocessing's outputs must be this channel's inputs; {missing[:3]!r} are not")
        components = {s: {} for s in pre.inputs}
        for s, row in zip(pre.inputs, pre.rows):
            for t, w in zip(pre.outputs, row):
                if w:
                    _add_weighted(components[s], self.components[t], w, None)
        present = {label for parts in components.values() for label in parts}
        return PiecewiseChannel(pre.inputs, components, self.output_label,
                                order=[label for label in self.kinds if label in present])

    # --- the structured-channel interface ---

    @property
    def bit_count(self) -> int:  # a pair's loss takes one pass over the outputs of the explicit channel
        return self.output_count

    @property
    def output_count(self) -> int:
        return sum(1 if kind == "atom" else len(self._cells[label]) for label, kind in self.kinds.items())

    def iter_outputs(self) -> Iterator:
        for label, kind in self.kinds.items():
            if kind == "atom":
                yield self.output_label(label, None)
            else:
                for low, high in self._cells[label]:
                    yield self.output_label(label, cell_text(low, high))

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
                cells = self._cells[label]
                row.extend(v * (high - low) for v, (low, high) in zip(part.on_cells(cells), cells))
        return row

    def explicit(self, max_entries: int | None = None) -> Channel:
        """The channel of atoms and cells (see the module's docstring): ratio conditions hold on it exactly when they
        hold on the densities almost everywhere."""
        if self._explicit is None:
            check_entries(len(self.inputs) * self.output_count,
                          f"the cells of this channel ({len(self.inputs):,} inputs x {self.output_count:,} outputs)",
                          max_entries)
            self._explicit = Channel(self.inputs, tuple(self.iter_outputs()), [self._row(x) for x in self.inputs])
        return self._explicit

    def probability(self, x, y):
        channel = self.explicit()
        return channel.row(x)[channel.outputs.index(y)]

    def pair_loss(self, x, other) -> tuple:
        from ldpspec.spec.loss import pair_loss

        return pair_loss(self.explicit(), x, other)

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
            for low, high in cells:
                if low <= point < high:
                    return self.output_label(label, cell_text(low, high))
        raise InvalidChannel(f"no output of component {label!r} holds the point {point!r}")

    def cells(self, label) -> list[tuple]:
        """The cells ``(low, high)`` of density component ``label``, in increasing order (empty for an atom)."""
        return list(self._cells.get(normalize_label(label, "component label"), ()))

    def density(self, x, label) -> Density | None:
        """Input ``x``'s density of component ``label`` (None when it has none)."""
        part = self.components[x].get(normalize_label(label))
        return part if isinstance(part, Density) else None

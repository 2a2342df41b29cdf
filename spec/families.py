"""Channels for every number of an interval, when each output's probability is affine in the input on segments.

A mechanism for numbers (Harmony, LHP) is a channel with uncountably many inputs. A finite grid of them can be
checked exactly, but a verdict that holds on a grid says nothing of the numbers between its points. For the
mechanisms whose release takes finitely many values and whose probabilities are affine in the input ``x`` on each of
finitely many segments, the whole interval reduces to a finite channel, exactly:

**The segment-end lemma.** Let ``f`` and ``g`` be affine and non-negative on segments ``S`` and ``S'`` with closures
``[a, b]`` and ``[a', b']``. Then for ``x`` in ``S`` and ``x'`` in ``S'``, ``f(x) <= max(f(a), f(b))`` and
``g(x') >= min(g(a'), g(b'))`` (an affine function on a segment lies between its end values), so

    sup f(x) / g(x') = max over the four corners c in {a, b}, c' in {a', b'} of f(c) / g(c'),

with ``f(c)`` and ``g(c')`` the limits of the affine pieces at an end the segment does not contain (the ratio is
continuous where ``g > 0``, so the supremum over the open segment equals the one over its closure, and where a
corner has ``g(c') = 0 < f(c)`` the ratio is unbounded near it). ``tests/kernel/test_families.py`` proves the
inequality with z3 for every non-negative end value and every point of the segments.

So the loss of every pair of inputs of the interval, under a budget that is constant on each pair of segments (one
budget per level, as in graded LDP), is decided by the **corner channel**: one row per end of each segment, at the
end's limit from inside the segment. A family answers the channel protocol (``spec.protocol``) through its corner
channel: its judged inputs are the corners, and its verdicts cover every number of the interval and say so
(``scope()``, the verdict's ``parameters["inputs"]``). It has no explicit matrix (it has a row for every number), so
the notions that read one entry by entry do not take it. A corner the segment does not contain is labelled
``"x -> b from below"`` (or ``above``): the ratio there is approached, not attained, and a violation found there holds
for inputs close enough to ``b``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ldpspec.spec.channel import Channel
from ldpspec.spec.errors import InvalidChannel, InvalidParameter
from ldpspec.spec.exact import ONE, ZERO, Exact
from ldpspec.spec.labels import label_list, unique_labels, value_text
from ldpspec.spec.numbers import exact_number
from ldpspec.spec.protocol import ChannelProtocol, level_of


@dataclass(frozen=True)
class Segment:
    """A piece ``low .. high`` of the interval, with the probabilities of every output at its two ends (limits from
    inside where the end is open); between them each probability is the linear interpolation."""

    low: Exact
    high: Exact
    low_closed: bool
    high_closed: bool
    low_row: tuple
    high_row: tuple

    def text(self) -> str:
        return (f"{'[' if self.low_closed else '('}{self.low.text()}, {self.high.text()}"
                f"{']' if self.high_closed else ')'}")

    def contains(self, x: Exact) -> bool:
        if x < self.low or x > self.high:
            return False
        return (x != self.low or self.low_closed) and (x != self.high or self.high_closed)


def corner_label(point: Exact, closed: bool, side: str) -> str:
    """The label of a corner row: the number's text, or ``"x -> b from below"`` for a limit."""
    return point.text() if closed else f"x -> {point.text()} from {side}"


class AffineFamily(ChannelProtocol):
    """A channel for every number of an interval: on each segment, each output's probability is affine in the input.

    ``segments`` is a sequence of ``(low, high, low_closed, high_closed, low_row, high_row)`` in increasing order,
    covering the interval without gaps or overlaps (each shared end belongs to exactly one of its two segments); a
    row gives the probability of every output of ``outputs`` at that end, as the limit from inside the segment where
    the end is open. Rows are validated as probability vectors, so every interpolated row is one too.
    """

    def __init__(self, outputs, segments: Sequence):
        self.outputs = unique_labels(label_list(outputs, "outputs"), "output")
        if isinstance(segments, (str, bytes)) or not isinstance(segments, Sequence):
            raise InvalidChannel(f"segments must be a list of (low, high, low_closed, high_closed, low_row, high_row), "
                                 f"got {value_text(segments)}"[:300])
        parts = []
        for i, segment in enumerate(segments):
            if not isinstance(segment, (tuple, list)) or len(segment) != 6:
                raise InvalidChannel(f"segments[{i}] must be (low, high, low_closed, high_closed, low_row, high_row)")
            low, high, low_closed, high_closed, low_row, high_row = segment
            low, high = exact_number(low, f"segments[{i}] low"), exact_number(high, f"segments[{i}] high")
            rows = tuple(self._row(row, f"segments[{i}] {end} row") for row, end in ((low_row, "low"),
                                                                                         (high_row, "high")))
            part = Segment(low, high, bool(low_closed), bool(high_closed), *rows)
            if low > high or (low == high and not (part.low_closed and part.high_closed and rows[0] == rows[1])):
                raise InvalidChannel(f"segments[{i}] {part.text()} is empty; a single point needs both ends closed "
                                     "and one row")
            parts.append(part)
        if not parts:
            raise InvalidChannel("an affine family needs at least one segment")
        for i, (left, right) in enumerate(zip(parts, parts[1:])):
            if left.high != right.low or left.high_closed == right.low_closed:
                raise InvalidChannel(
                    f"segments[{i}] {left.text()} and segments[{i + 1}] {right.text()} must meet at one end that "
                    "exactly one of them contains")
        self.segments = tuple(parts)
        self._corners, self._owner = self._corner_channel()
        self.inputs = self._corners.inputs  # the corners, which stand for every number of the interval

    def _row(self, row, name: str) -> tuple:
        if isinstance(row, (str, bytes)) or len(row) != len(self.outputs):
            raise InvalidChannel(f"{name} must give a probability for each of the {len(self.outputs)} outputs")
        values = tuple(exact_number(p, f"{name}[{k}]") for k, p in enumerate(row))
        if any(p < 0 or p > 1 for p in values):
            raise InvalidChannel(f"{name} has a probability outside [0, 1]")
        total = sum(values, start=ZERO)
        if total != ONE:
            raise InvalidChannel(f"{name} must sum to 1, got {total.text()}")
        return values

    @property
    def low(self) -> Exact:
        return self.segments[0].low

    @property
    def high(self) -> Exact:
        return self.segments[-1].high

    def domain_text(self) -> str:
        first, last = self.segments[0], self.segments[-1]
        return (f"{'[' if first.low_closed else '('}{self.low.text()}, {self.high.text()}"
                f"{']' if last.high_closed else ')'}")

    def segment_of(self, x) -> Segment:
        x = exact_number(x, "x")
        for segment in self.segments:
            if segment.contains(x):
                return segment
        raise InvalidParameter(f"x must be in {self.domain_text()}, got {x.text()}")

    def row(self, x) -> tuple:
        """The probabilities of the outputs at the number ``x``: the interpolation of its segment's end rows."""
        x = exact_number(x, "x")
        segment = self.segment_of(x)
        if segment.low == segment.high:
            return segment.low_row
        t = (x - segment.low) / (segment.high - segment.low)
        return tuple(a * (ONE - t) + b * t for a, b in zip(segment.low_row, segment.high_row))

    def _corner_channel(self) -> tuple[Channel, dict]:
        labels, rows, owner = [], [], {}
        for i, segment in enumerate(self.segments):
            ends = ((segment.low, segment.low_closed, "above", segment.low_row),
                    (segment.high, segment.high_closed, "below", segment.high_row))
            for point, closed, side, row in ends[:1] if segment.low == segment.high else ends:
                label = corner_label(point, closed, side)
                labels.append(label)
                rows.append(row)
                owner[label] = i
        return Channel(labels, self.outputs, rows), owner

    def corners(self) -> tuple[Channel, dict]:
        """The corner channel and, for each of its input labels, the segment (its index) the corner belongs to."""
        return self._corners, dict(self._owner)

    def scope(self) -> str:
        """What a verdict on the corner channel covers, for its ``parameters["inputs"]``."""
        return (f"every number of {self.domain_text()}: the probabilities are affine on the segments "
                f"{', '.join(s.text() for s in self.segments)}, so by the segment-end lemma the worst pair sits at "
                "segment ends (limits where a segment is open)")

    # --- the channel protocol, through the corner channel ---

    @property
    def output_count(self) -> int:
        return len(self.outputs)

    def explicit(self, max_entries: int | None = None) -> Channel:
        raise InvalidChannel(f"an AffineFamily has a row for every number of {self.domain_text()}, so it has no "
                             "explicit matrix; the notions judged by pairwise losses (ldp, graded-ldp, id-ldp, "
                             "minid-ldp, avgid-ldp) take it, and a Channel over a grid of its numbers (row()) serves "
                             "the others")

    def pair_loss(self, x, other) -> tuple:
        return self._corners.pair_loss(x, other)

    def worst_ratios(self, max_work: int | None = None):
        return self._corners.worst_ratios(max_work)

    def output_losses(self) -> dict:
        return self._corners.output_losses()

    def ratio_probabilities(self, x, other, y) -> tuple:
        return self._corners.ratio_probabilities(x, other, y)

    def input_levels(self, bounds) -> dict:
        """Each corner's interval: every segment must lie within one interval of ``bounds``, so that one budget
        covers it, and the family must run from ``bounds[0]`` to ``bounds[-1]``."""
        if self.low != bounds[0] or self.high != bounds[-1]:
            raise InvalidParameter(f"the family's interval {self.domain_text()} must run from boundaries[0] = "
                                   f"{bounds[0].text()} to boundaries[-1] = {bounds[-1].text()}")
        levels = []
        for segment in self.segments:
            level = level_of(segment.low if segment.low_closed else (segment.low + segment.high) / 2, bounds)
            closed = [end for end, is_closed in ((segment.low, segment.low_closed),
                                                 (segment.high, segment.high_closed)) if is_closed]
            if (segment.low < bounds[level] or segment.high > bounds[level + 1]
                    or any(level_of(end, bounds) != level for end in closed)):
                raise InvalidParameter(f"the family's segment {segment.text()} must lie within one interval of the "
                                       "boundaries, so that one budget covers it")
            levels.append(level)
        return {label: levels[segment] for label, segment in self._owner.items()}

    def __repr__(self) -> str:
        return f"AffineFamily({self.domain_text()}, {len(self.segments)} segments, {len(self.outputs)} outputs)"

"""Releases, read in batches, and the events whose frequencies bound a pair's privacy loss.

**Kinds of release.** How an implementation's releases are read (``Kind``): ``labels`` (any JSON value; a finite list
of allowed outputs may be declared), ``bits`` (a vector of ``d`` bits), ``sets`` (a set of items of ``0 .. d-1``, read
as its indicator bits) and ``numbers`` (a real number, in a declared interval). One shard's releases of one input are
read into a **batch**: a count of each label, a packed array of bits (one row of ``ceil(d/8)`` bytes per release, the
twin's format), or an array of doubles.

**Events.** An event is a set of releases, written so that a batch counts it without listing its members:

* ``Labels``: the release (or the part of it the notion bounds: SULDP's ``y0``) is one of the listed labels;
* ``Bit``, ``TwoBits``: one bit, or two, of a bit vector (an item, or two, in a set) have the given values;
* ``Ones``: the number of ones (the size of the set) is one of the listed numbers;
* ``Intervals``: a number lies in one of the listed half-open intervals ``[lo, hi)``.

Any event is a set of releases, so for a notion that gives a pair of inputs one budget for every output (LDP, ID-LDP,
graded LDP) every event bounds the pair's loss; for the others only ``Labels`` of constrained releases do
(``guarantee.Declared``).

**Models** predict an event's probability under each input, for choosing events before the certifying samples are
seen: the exact channel declared as reference (``ExactLabels``, ``ExactBits``), or the frequencies of a separate
selection share of the samples (``Empirical``). ``candidates`` lists the events worth trying for a pair; the run keeps
the one whose predicted certified bound is largest (``choose``).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np
from scipy.special import betaincinv

from ldpspec.spec import InvalidChannel, InvalidParameter, label_text, label_to_json, normalize_label, value_text

# --- the kinds of release ------------------------------------------------------------------------------------------


class ReleaseError(InvalidParameter):
    """A release the declared kind does not allow (``Kind.batch``): the run stops with exit 2, naming it."""


def plain(value, depth: int = 0):
    """A release as plain Python: NumPy scalars and arrays as numbers and lists, lists as tuples."""
    if depth > 50:
        raise ReleaseError("a release nested more than 50 lists deep")
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, np.ndarray):
        return plain(value.tolist(), depth + 1)
    if isinstance(value, (list, tuple)):
        return tuple(plain(part, depth + 1) for part in value)
    return value


def _shown(release) -> str:
    try:
        return value_text(plain(release), 80)
    except ReleaseError:
        return "a release nested too deep"


@dataclass(frozen=True)
class Kind:
    """How releases are read.

    Attributes:
        name: ``labels``, ``bits``, ``sets`` or ``numbers``.
        outputs: for ``labels``, the allowed releases (``None``: any label).
        d: for ``bits`` and ``sets``, the number of bits (items ``0 .. d-1``).
        low, high: for ``numbers``, the interval a release must lie in (``None``: unbounded on that side).
    """

    name: str
    outputs: frozenset | None = None
    d: int | None = None
    low: float | None = None
    high: float | None = None

    def __post_init__(self):
        if self.name not in ("labels", "bits", "sets", "numbers"):
            raise InvalidParameter(f"--releases must be labels, bits, sets or numbers; got {value_text(self.name)}")
        if self.name in ("bits", "sets") and not (isinstance(self.d, int) and self.d >= 1):
            raise InvalidParameter(f"--releases {self.name} needs the number of bits or items d >= 1")

    @property
    def bitwise(self) -> bool:
        return self.name in ("bits", "sets")

    def describe(self) -> str:
        if self.name == "labels":
            return "labels" if self.outputs is None else f"labels, one of {len(self.outputs):,} declared outputs"
        if self.name == "bits":
            return f"vectors of {self.d:,} bits"
        if self.name == "sets":
            return f"sets of items of 0 .. {self.d - 1:,}"
        low = "-inf" if self.low is None else repr(self.low)
        high = "inf" if self.high is None else repr(self.high)
        return f"numbers of [{low}, {high}]"

    def to_json(self) -> dict:
        data = {"kind": self.name}
        if self.outputs is not None:
            data["outputs"] = len(self.outputs)
        if self.d is not None:
            data["d"] = self.d
        if self.name == "numbers":
            data["interval"] = [self.low, self.high]
        return data

    def batch(self, releases: Sequence, x) -> Batch:
        """The releases of input ``x`` read into a batch; ``ReleaseError`` names the first one not allowed."""
        if self.name == "labels":
            return self._labels(releases, x)
        if self.name == "numbers":
            return self._numbers(releases, x)
        return self._bits(releases, x)

    def _labels(self, releases, x) -> LabelBatch:
        if isinstance(releases, np.ndarray) and releases.ndim == 1 and releases.dtype.kind in "iu" and len(releases):
            if releases.min() < 0:  # a negative integer label: counted one by one below
                releases = releases.tolist()
            else:  # items: one count per value
                found = np.bincount(releases)
                releases = Counter({int(y): int(c) for y, c in enumerate(found) if c})
                return self._checked(releases, x, sum(releases.values()))
        try:
            raw = Counter(releases)
        except TypeError:  # lists or arrays: made hashable one by one
            raw = Counter(plain(release) for release in releases)
        return self._checked(raw, x, len(releases))

    def _checked(self, raw: Counter, x, n: int) -> LabelBatch:
        counts = Counter()
        for release, count in raw.items():
            try:
                label = normalize_label(plain(release), "release")
            except InvalidChannel as error:
                raise ReleaseError(f"input {value_text(x, 60)} released {_shown(release)}: {error}") from None
            if self.outputs is not None and label not in self.outputs:
                raise ReleaseError(f"input {value_text(x, 60)} released {_shown(release)}, which is not one of the "
                                   f"declared outputs ({len(self.outputs):,} of them)")
            counts[label] += count
        return LabelBatch(counts, n)

    def _numbers(self, releases, x) -> NumberBatch:
        try:
            values = np.asarray(releases, dtype=np.float64).reshape(-1)
        except (TypeError, ValueError):
            values = None
        if values is None or len(values) != len(releases):
            bad = next((r for r in releases if not _is_number(r)), releases[0] if len(releases) else None)
            raise ReleaseError(f"input {value_text(x, 60)} released {_shown(bad)}, which is not a number")
        wrong = ~np.isfinite(values)
        if self.low is not None:
            wrong |= values < self.low
        if self.high is not None:
            wrong |= values > self.high
        if wrong.any():
            raise ReleaseError(f"input {value_text(x, 60)} released {value_text(values[np.argmax(wrong)])}, outside "
                               f"the declared {self.describe()}")
        return NumberBatch(values)

    def _bits(self, releases, x) -> BitBatch:
        d = self.d
        if isinstance(releases, np.ndarray) and releases.dtype == np.uint8 and releases.ndim == 2 \
                and releases.shape[1] == (d + 7) // 8:  # packed already (the twin's reports)
            return BitBatch(releases, d)
        if self.name == "bits":  # all at once when they form one array of 0s and 1s (else one by one, to name one)
            try:
                whole = np.asarray(releases)
            except (TypeError, ValueError):
                whole = None
            if whole is not None and whole.shape == (len(releases), d) and whole.dtype.kind in "biuf" \
                    and np.all((whole == 0) | (whole == 1)):
                return BitBatch(np.packbits(whole.astype(np.uint8), axis=1), d)
        rows = np.zeros((len(releases), d), dtype=np.uint8)
        for i, release in enumerate(releases):
            try:
                row = self._row(release)
            except (TypeError, ValueError):
                row = None
            if row is None:
                allowed = (f"a list of {d:,} bits (0 or 1)" if self.name == "bits"
                           else f"a set of distinct items of 0 .. {d - 1:,}")
                raise ReleaseError(f"input {value_text(x, 60)} released {_shown(release)}; a release here is "
                                   f"{allowed}")
            rows[i] = row
        return BitBatch(np.packbits(rows, axis=1), d)

    def _row(self, release):
        if isinstance(release, (set, frozenset)):  # a set from Python: its items in any order
            release = list(release)
        values = np.asarray(release)
        if values.ndim != 1:
            return None
        if self.name == "bits":
            if len(values) != self.d or not np.all((values == 0) | (values == 1)):
                return None
            return values
        if len(values) and (values.dtype.kind not in "iu" or values.min() < 0 or values.max() >= self.d
                            or len(np.unique(values)) != len(values)):
            return None
        row = np.zeros(self.d, dtype=np.uint8)
        row[values.astype(np.int64)] = 1
        return row


def _is_number(value) -> bool:
    return isinstance(value, (int, float, np.integer, np.floating)) and not isinstance(value, bool)


# --- batches -------------------------------------------------------------------------------------------------------

@dataclass
class LabelBatch:
    counts: Counter
    n: int

    def merge(self, other: LabelBatch) -> LabelBatch:
        return LabelBatch(self.counts + other.counts, self.n + other.n)


@dataclass
class NumberBatch:
    values: np.ndarray

    @property
    def n(self) -> int:
        return len(self.values)

    def merge(self, other: NumberBatch) -> NumberBatch:
        return NumberBatch(np.concatenate([self.values, other.values]))


@dataclass
class BitBatch:
    packed: np.ndarray
    d: int

    @property
    def n(self) -> int:
        return len(self.packed)

    def bit(self, j: int) -> np.ndarray:
        """Bit ``j`` of every release, as booleans (``np.packbits`` order: bit 0 is the high bit of byte 0)."""
        return (self.packed[:, j >> 3] & (0x80 >> (j & 7))) != 0

    def ones(self) -> np.ndarray:
        """The number of ones of every release."""
        if not hasattr(self, "_ones"):
            self._ones = np.bitwise_count(self.packed).sum(axis=1, dtype=np.int64)
        return self._ones

    def bit_counts(self) -> np.ndarray:
        """How many releases have each bit set: a histogram of each byte column, read through a table of the bits
        of every byte value."""
        table = np.unpackbits(np.arange(256, dtype=np.uint8)[:, None], axis=1).astype(np.int64)  # 256 x 8
        columns = self.packed.shape[1]
        counts = np.zeros(columns * 8, dtype=np.int64)
        for c in range(columns):
            counts[8 * c: 8 * c + 8] = np.bincount(self.packed[:, c], minlength=256) @ table
        return counts[: self.d]

    def merge(self, other: BitBatch) -> BitBatch:
        return BitBatch(np.concatenate([self.packed, other.packed]), self.d)


Batch = LabelBatch | NumberBatch | BitBatch


# --- events --------------------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Labels:
    """The release, or the part the notion bounds, is one of ``labels``."""

    labels: frozenset

    def count(self, batch: LabelBatch, part=None) -> int:
        counts = batch.counts
        if part is None:
            if len(self.labels) < len(counts):
                return sum(counts.get(label, 0) for label in self.labels)
            return sum(c for label, c in counts.items() if label in self.labels)
        return sum(c for label, c in counts.items() if part(label) in self.labels)

    def to_json(self, full: bool = True) -> dict:
        labels = sorted((label_to_json(y) for y in self.labels), key=repr)
        if full or len(labels) <= 5:
            return {"event": "release in", "labels": labels}
        return {"event": "release in", "labels": labels[:5], "count": len(labels)}

    def text(self) -> str:
        shown = sorted(self.labels, key=repr)
        words = ", ".join(label_text(y, 30) for y in shown[:3]) + (f", ... ({len(shown)} in all)"
                                                                   if len(shown) > 3 else "")
        return f"release in {{{words}}}"


@dataclass(frozen=True)
class Bit:
    """Bit ``position`` of the release is ``value`` (for a set: item ``position`` is in it, or not)."""

    position: int
    value: int

    def count(self, batch: BitBatch, part=None) -> int:
        ones = int(np.count_nonzero(batch.bit(self.position)))
        return ones if self.value else batch.n - ones

    def to_json(self, full: bool = True) -> dict:
        return {"event": "bits", "bits": {str(self.position): self.value}}

    def text(self) -> str:
        return f"bit {self.position} = {self.value}"


@dataclass(frozen=True)
class TwoBits:
    """Bits ``first`` and ``second`` of the release are ``values``."""

    first: int
    second: int
    values: tuple

    def count(self, batch: BitBatch, part=None) -> int:
        a = batch.bit(self.first) if self.values[0] else ~batch.bit(self.first)
        b = batch.bit(self.second) if self.values[1] else ~batch.bit(self.second)
        return int(np.count_nonzero(a & b))

    def to_json(self, full: bool = True) -> dict:
        return {"event": "bits", "bits": {str(self.first): self.values[0], str(self.second): self.values[1]}}

    def text(self) -> str:
        return f"bit {self.first} = {self.values[0]} and bit {self.second} = {self.values[1]}"


@dataclass(frozen=True)
class Ones:
    """The number of ones of the release (the size of a set) is one of ``counts``."""

    counts: frozenset

    def count(self, batch: BitBatch, part=None) -> int:
        return int(np.count_nonzero(np.isin(batch.ones(), np.fromiter(self.counts, dtype=np.int64))))

    def to_json(self, full: bool = True) -> dict:
        return {"event": "number of ones in", "counts": sorted(self.counts)}

    def text(self) -> str:
        return f"number of ones in {_ranges(sorted(self.counts))}"


@dataclass(frozen=True)
class Intervals:
    """The number released lies in one of ``intervals``, each ``(lo, hi)`` for ``[lo, hi)``."""

    intervals: tuple

    def count(self, batch: NumberBatch, part=None) -> int:
        inside = np.zeros(batch.n, dtype=bool)
        for lo, hi in self.intervals:
            inside |= (batch.values >= lo) & (batch.values < hi)
        return int(np.count_nonzero(inside))

    def to_json(self, full: bool = True) -> dict:
        return {"event": "number in", "intervals": [[_number(lo), _number(hi)] for lo, hi in self.intervals]}

    def text(self) -> str:
        return "number in " + " or ".join(f"[{lo:.6g}, {hi:.6g})" for lo, hi in self.intervals[:3]) + (
            f" or ... ({len(self.intervals)} intervals)" if len(self.intervals) > 3 else "")


Event = Labels | Bit | TwoBits | Ones | Intervals


def _number(value: float):
    return value if math.isfinite(value) else ("inf" if value > 0 else "-inf")


def _ranges(values: list) -> str:
    parts, start = [], None
    for k, v in enumerate(values):
        if start is None:
            start = v
        if k + 1 == len(values) or values[k + 1] != v + 1:
            parts.append(str(start) if start == v else f"{start}..{v}")
            start = None
    return "{" + ", ".join(parts) + "}"


# --- predicted bounds ----------------------------------------------------------------------------------------------

def predicted_bound(p1, p2, n1: int, n2: int, level: float):
    """The certified bound ``ln(L / U)`` an event of probabilities ``p1`` under ``x`` and ``p2`` under ``x'`` would
    get from ``n1`` and ``n2`` releases at its expected counts (Clopper-Pearson at ``level`` on each side), in
    doubles: a guide for choosing events, never a verdict. Vectorised over ``p1`` and ``p2``."""
    p1, p2 = np.asarray(p1, dtype=float), np.asarray(p2, dtype=float)
    k1, k2 = np.clip(p1 * n1, 0, n1), np.clip(p2 * n2, 0, n2)
    with np.errstate(divide="ignore", invalid="ignore"):
        lower = np.where(k1 > 0, betaincinv(np.maximum(k1, 1e-300), n1 - k1 + 1, level), 0.0)
        upper = np.where(k2 < n2, 1 - betaincinv(np.maximum(n2 - k2, 1e-300), k2 + 1, level), 1.0)
        return np.where(lower > 0, np.log(lower) - np.log(upper), -np.inf)


def best_prefix(order: Sequence, p1: np.ndarray, p2: np.ndarray, n1: int, n2: int, level: float,
                longest: int = 64) -> tuple[int, float]:
    """``(length, predicted bound)`` of the best prefix of ``order`` (indices into ``p1``, ``p2``) as one event: the
    outputs sorted by their ratio, so that each prefix is the likeliest event of its size to separate the pair.
    Outputs of equal ratio go in together (an exact channel has few distinct ratios, each shared by many outputs:
    OLH's thousands of pairs ``(h, h(x))``); the first ``longest`` cuts between ratios are tried."""
    order = np.asarray(order, dtype=np.int64)
    if not len(order):
        return 0, -math.inf
    a, b = p1[order], p2[order]
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = np.where(b > 0, a / b, np.inf)
    ends = np.flatnonzero(np.append(ratio[1:] != ratio[:-1], True))[:longest]  # the last index of each tie
    bounds = predicted_bound(np.cumsum(a)[ends], np.cumsum(b)[ends], n1, n2, level)
    best = int(np.argmax(bounds))
    return int(ends[best]) + 1, float(bounds[best])


def ratio_order(p1: np.ndarray, p2: np.ndarray, allowed: np.ndarray, floor: float = 0.0) -> np.ndarray:
    """The indices of the allowed outputs with ``p1 > floor``, by decreasing ``p1 / p2`` (``p2 = 0`` first)."""
    keep = np.flatnonzero(allowed & (p1 > floor))
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = np.where(p2[keep] > 0, p1[keep] / p2[keep], np.inf)
    return keep[np.lexsort((-p1[keep], -ratio))]


# --- models: predicted probabilities of events ---------------------------------------------------------------------

class LabelModel:
    """Predicted probabilities of labels under each input: ``rows[x]`` over ``labels`` (doubles)."""

    def __init__(self, labels: Sequence, rows: dict, floor: float = 0.0, source: str = ""):
        self.labels = list(labels)
        self.rows = rows
        self.floor = floor
        self.source = source

    def candidates(self, x, x2, declared, n1: int, n2: int, level: float) -> list:
        """The best prefix, by ratio, of the labels the notion bounds for the pair: ``[(event, predicted bound,
        predicted P[E|x'])]``."""
        labels = self.labels
        allowed = np.array([declared.pairwise or declared.release_budget(x, x2, y) is not None for y in labels],
                           dtype=bool)
        p1, p2 = self.rows[x], self.rows[x2]
        order = ratio_order(p1, p2, allowed, self.floor)
        length, bound = best_prefix(order, p1, p2, n1, n2, level)
        if length == 0:
            return []
        chosen = order[:length]
        return [(Labels(frozenset(labels[i] for i in chosen)), bound, float(p2[chosen].sum()))]


class BitModel:
    """Predicted probabilities of bit events under each input: ``ones[x][j] = P[bit j = 1]``, ``ones_count[x][s] =
    P[s ones]``, and ``joint(x, j, k) = P[bit j = bit k = 1]``."""

    def __init__(self, ones: dict, ones_count: dict, joint, source: str = "", top: int = 4, floor: float = 0.0):
        self.ones, self.ones_count, self.joint = ones, ones_count, joint
        self.source, self.floor = source, floor
        self.top = top

    def _two_bits(self, x, j: int, a: int, k: int, b: int) -> float:
        both = self.joint(x, j, k)
        fj, fk = self.ones[x][j], self.ones[x][k]
        return (both if a and b else fj - both if a else fk - both if b else 1 - fj - fk + both)

    def candidates(self, x, x2, declared, n1: int, n2: int, level: float) -> list:
        if not declared.pairwise:
            return []
        found = []
        f1, f2 = self.ones[x], self.ones[x2]
        singles = []
        for value in (1, 0):
            p1, p2 = (f1, f2) if value else (1 - f1, 1 - f2)
            bounds = predicted_bound(p1, p2, n1, n2, level)
            for j in np.argsort(-bounds, kind="stable")[: self.top]:
                singles.append((int(j), value, float(bounds[j])))
                found.append((Bit(int(j), value), float(bounds[j]), float(p2[j])))
        for a, (j, u, _) in enumerate(singles):
            for k, v, _ in singles[a + 1:]:
                if j == k:
                    continue
                (j1, a1), (j2, a2) = sorted([(j, u), (k, v)])
                p1, p2 = self._two_bits(x, j1, a1, j2, a2), self._two_bits(x2, j1, a1, j2, a2)
                bound = float(predicted_bound(p1, p2, n1, n2, level))
                found.append((TwoBits(j1, j2, (a1, a2)), bound, p2))
        c1, c2 = self.ones_count[x], self.ones_count[x2]
        order = ratio_order(c1, c2, np.ones(len(c1), dtype=bool), self.floor)
        length, bound = best_prefix(order, c1, c2, n1, n2, level)
        if length:
            found.append((Ones(frozenset(int(s) for s in order[:length])), bound, float(c2[order[:length]].sum())))
        return found


class IntervalModel:
    """Predicted probabilities of the cells of a grid of numbers under each input (``cells[x]``)."""

    def __init__(self, edges: np.ndarray, cells: dict, floor: float = 0.0, source: str = ""):
        self.edges, self.cells, self.floor, self.source = edges, cells, floor, source

    def candidates(self, x, x2, declared, n1: int, n2: int, level: float) -> list:
        if not declared.pairwise:
            return []
        p1, p2 = self.cells[x], self.cells[x2]
        order = ratio_order(p1, p2, np.ones(len(p1), dtype=bool), self.floor)
        length, bound = best_prefix(order, p1, p2, n1, n2, level)
        if length == 0:
            return []
        chosen = sorted(int(i) for i in order[:length])
        return [(Intervals(_merged([(self.edges[i], self.edges[i + 1]) for i in chosen])), bound,
                 float(p2[chosen].sum()))]


def _merged(intervals: list) -> tuple:
    merged = []
    for lo, hi in intervals:
        if merged and merged[-1][1] == lo:
            merged[-1] = (merged[-1][0], hi)
        else:
            merged.append((lo, hi))
    return tuple((float(lo), float(hi)) for lo, hi in merged)


def empirical_model(batches: dict, kind: Kind, declared, floor: int = 5, cells: int = 16):
    """A model from the selection share: ``batches[x]`` the batch of input ``x``'s selection releases. Labels seen
    fewer than ``floor`` times under ``x`` are not put first in an event (their ratio is noise)."""
    inputs = list(batches)
    if kind.name == "labels":
        seen = sorted({declared.label_of(y) for b in batches.values() for y in b.counts}, key=repr)
        index = {y: i for i, y in enumerate(seen)}
        rows = {}
        for x, batch in batches.items():
            row = np.zeros(len(seen))
            for y, c in batch.counts.items():
                row[index[declared.label_of(y)]] += c
            rows[x] = row / max(batch.n, 1)
        n_min = min(b.n for b in batches.values())
        return LabelModel(seen, rows, floor=(floor - 0.5) / max(n_min, 1), source="the selection share")
    if kind.name == "numbers":
        pooled = np.concatenate([batches[x].values for x in inputs])
        inner = np.unique(np.quantile(pooled, np.linspace(0, 1, cells + 1)[1:-1])) if len(pooled) else np.array([])
        edges = np.concatenate([[-np.inf], inner, [np.inf]])
        rows = {x: np.histogram(batches[x].values, bins=edges)[0] / max(batches[x].n, 1) for x in inputs}
        n_min = min(b.n for b in batches.values())
        return IntervalModel(edges, rows, floor=(floor - 0.5) / max(n_min, 1), source="the selection share")
    ones = {x: batches[x].bit_counts() / max(batches[x].n, 1) for x in inputs}
    counts = {x: np.bincount(batches[x].ones(), minlength=kind.d + 1)[: kind.d + 1] / max(batches[x].n, 1)
              for x in inputs}

    def joint(x, j, k):
        batch = batches[x]
        return float(np.count_nonzero(batch.bit(j) & batch.bit(k))) / max(batch.n, 1)
    n_min = min(b.n for b in batches.values())
    return BitModel(ones, counts, joint, source="the selection share", floor=(floor - 0.5) / max(n_min, 1))


def choose(model, declared, pairs: Iterable, n1: int, n2: int, level: float) -> dict:
    """``{pair: (event, predicted bound, predicted P[E|x'])}``: for each ordered pair the candidate event with the
    largest predicted certified bound (pairs without a candidate are left out)."""
    chosen = {}
    for x, x2 in pairs:
        options = model.candidates(x, x2, declared, n1, n2, level)
        if options:
            chosen[(x, x2)] = max(options, key=lambda option: option[1])
    return chosen

"""Exact channels: a finite input set, a finite output set, and ``P[y|x]`` for every pair.

A channel is the object every privacy notion is judged on. It holds the
probabilities as exact numbers (``spec.exact``), rows indexed by inputs and
columns by outputs, and it is immutable. It answers the channel protocol
(``spec.protocol``) from its rows and columns.

Labels name inputs and outputs. A label is a string, an integer, a finite
float or Decimal (a number read from a channel file keeps its exact value),
``None``, or a tuple of labels (an item set, a bit vector, a pair of
components). Lists are accepted and stored as tuples. Labels of one side must
be unique.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from decimal import Decimal
from functools import reduce

from ldpspec.spec import progress
from ldpspec.spec.errors import InvalidChannel, InvalidParameter, TooLarge
from ldpspec.spec.exact import ZERO, Exact, Undecided, count_text
from ldpspec.spec.numbers import integer
from ldpspec.spec.protocol import ChannelProtocol, column_loss, row_pair_loss
from ldpspec.spec.rows import RowReading, RowsRead, read_rows

MAX_ENTRIES = 1_000_000
"""The most probabilities a mechanism builds a channel with, unless told otherwise (``max_entries=``, or
``--max-entries`` on the command line): a channel is checked entry by entry, so its size bounds the time and memory of
every check."""


def check_entries(count: int, what: str, max_entries: int | None = None) -> None:
    """Refuse to build ``what`` with ``count`` probabilities when that is more than ``max_entries``
    (``MAX_ENTRIES`` by default), before any of the work is done."""
    limit = MAX_ENTRIES if max_entries is None else integer(max_entries, "max_entries", 1)
    if count > limit:
        raise TooLarge(f"{what} has {count_text(count)} probabilities, more than the limit of {limit:,}; use "
                               "a smaller domain, or raise the limit (max_entries=..., or --max-entries on the "
                               "command line)")


def output_to_json(y):
    """An output for a report: as ``label_to_json``, but a bit vector of more than 64 bits as its length and the
    positions of its rarer value (a deployment's witness has 10^5 bits, nearly all alike)."""
    if isinstance(y, tuple) and len(y) > 64 and all(type(bit) is int and bit in (0, 1) for bit in y):
        ones = [k for k, bit in enumerate(y) if bit]
        if 2 * len(ones) <= len(y):
            return {"bits": len(y), "ones": ones}
        return {"bits": len(y), "zeros": [k for k, bit in enumerate(y) if not bit]}
    return label_to_json(y)


def label_text(label, limit: int = 80) -> str:
    """A label for a sentence: its ``repr``, or for a bit vector of more than 64 bits its length and the positions of
    its rarer value (``output_to_json``), cut to about ``limit`` characters: a witness's output may have 10^7 bits."""
    shown = output_to_json(label)
    if isinstance(shown, dict):
        rarer = "ones" if "ones" in shown else "zeros"
        positions = ", ".join(map(str, shown[rarer][:8])) + (", ..." if len(shown[rarer]) > 8 else "")
        return f"<{shown['bits']:,} bits, {rarer} at [{positions}]>"
    text = repr(label)
    return text if len(text) <= limit else text[:limit - 3] + "..."


def once_per_object(function):
    """``function`` computed once per distinct object it is first given (later arguments ride along): a channel of
    10^5 items in 3 levels shares 3 budget objects, so reading or writing its budgets takes 3 computations."""
    done: dict = {}

    def call(value, *arguments):
        if id(value) not in done:
            done[id(value)] = (value, function(value, *arguments))  # holding the value keeps its id from reuse
        return done[id(value)][1]
    return call


MAX_LABEL_DEPTH = 50
"""The deepest nesting of lists a label may have (a set of pairs is 3 deep): reading a label is a call per level."""


def normalize_label(label, name: str = "label", _depth: int = 0):
    """Return ``label`` in canonical form (lists become tuples), or raise InvalidChannel."""
    if _depth > MAX_LABEL_DEPTH:
        raise InvalidChannel(f"{name} must be nested at most {MAX_LABEL_DEPTH} lists deep")
    if label is None or isinstance(label, str):
        return label
    if isinstance(label, bool):
        raise InvalidChannel(f"{name} must be a string, an integer, a number, null or a list of those; got a boolean")
    if isinstance(label, int):
        return label
    if isinstance(label, float):
        if not math.isfinite(label):
            raise InvalidChannel(f"{name} must be finite, got {label!r}")
        return label
    if isinstance(label, Decimal):
        if not label.is_finite():
            raise InvalidChannel(f"{name} must be finite, got {label}")
        return label
    if isinstance(label, (list, tuple)):
        return tuple(normalize_label(part, name, _depth + 1) for part in label)
    raise InvalidChannel(
        f"{name} must be a string, integer, float, null or a list of those; got {type(label).__name__} {label!r}")


def _unique_labels(labels: Iterable, side: str) -> tuple:
    normalized = tuple(normalize_label(label, f"{side} label") for label in labels)
    if not normalized:
        raise InvalidChannel(f"a channel needs at least one {side}; got none")
    seen = {}
    for label in normalized:
        if label in seen:
            raise InvalidChannel(f"{side} labels must be unique; {label!r} appears twice"
                                 + ("" if seen[label] == label else f" (as {seen[label]!r} and {label!r})"))
        seen[label] = label
    return normalized


def _probability_entry(value, x, y, reading: RowReading) -> Exact:
    """The entry ``P[y|x]`` read exactly under ``reading``, or ``InvalidChannel`` naming it: a probability in
    [0, 1], or under a reading that makes rows sum to 1 (``spec.rows``) a number >= 0."""
    try:
        p = reading.number(value, f"P[{y!r}|{x!r}]")
        inside = p.sign() >= 0 and (reading.rows != "exact" or (1 - p).sign() >= 0)
    except InvalidParameter as error:
        raise InvalidChannel(str(error)) from None
    except Undecided:
        inside = False
    if not inside:
        allowed = "a probability in [0, 1]" if reading.rows == "exact" else "a number >= 0"
        raise InvalidChannel(f"P[{y!r}|{x!r}] must be {allowed}, got {p.text()}")
    return p


class Channel(ChannelProtocol):
    """An exact channel ``P[y|x]`` (rows are inputs, columns are outputs).

    Args:
        inputs: the input labels, unique.
        outputs: the output labels, unique.
        probabilities: one row (a list, tuple or NumPy array) per input, one entry per output; each entry is
            anything ``spec.numbers.exact`` reads (decimal or fraction text, an expression with ``exp()``, int,
            Fraction, Decimal, float read as its shortest decimal, ``Exact``).
        reading: how numbers and rows that do not sum to exactly 1 are read (``spec.rows.RowReading``, or a mapping
            ``{"rows": ..., "numbers": ..., "remainder_to": ...}``); by default decimals as written and rows that sum
            to exactly 1. Every verdict on the channel names a reading other than the default
            (``parameters["reading"]``).

    Raises:
        InvalidChannel: labels not unique, shape mismatch, an entry outside [0, 1] (below 0 under a reading that
            makes rows sum to 1), or a row not summing to exactly 1 under ``rows = "exact"``.
    """

    __slots__ = ("inputs", "outputs", "_rows", "_input_index", "_output_index", "_rows_read")

    def __init__(self, inputs: Iterable, outputs: Iterable, probabilities: Sequence[Sequence], *,
                 reading: RowReading | Mapping | None = None):
        reading = RowReading.of(reading)
        self.inputs = _unique_labels(label_list(inputs, "inputs"), "input")
        self.outputs = _unique_labels(label_list(outputs, "outputs"), "output")
        if reading.remainder_to is not None:
            reading = RowReading(reading.rows, reading.numbers, normalize_label(reading.remainder_to, "remainder_to"))
        rows_given = sequence(probabilities, "probabilities", InvalidChannel)
        if len(rows_given) != len(self.inputs):
            raise InvalidChannel(
                f"probabilities must have one row per input: {len(self.inputs)} inputs, {len(rows_given)} rows")
        rows = []
        # Each distinct value given is read once: a mechanism repeats a few objects over a whole matrix, and a file
        # a few texts (keyed by the text itself, and by the object otherwise; ``rows_given`` holds the objects).
        read = {}
        for x, row in progress.steps(zip(self.inputs, rows_given), "reading the rows", len(self.inputs),
                                     len(self.outputs)):
            row = sequence(row, f"the row of input {x!r}", InvalidChannel)
            if len(row) != len(self.outputs):
                raise InvalidChannel(f"row of input {x!r} must have one entry per output: {len(self.outputs)} "
                                     f"outputs, {len(row)} entries")
            entries = []
            for y, value in zip(self.outputs, row):
                key = value if type(value) is str else id(value)
                p = read.get(key)
                if p is None:
                    p = read[key] = _probability_entry(value, x, y, reading)
                entries.append(p)
            rows.append(entries)
        rows, self._rows_read = read_rows(self.inputs, self.outputs, rows, reading)
        self._rows = tuple(rows)
        self._input_index = {x: i for i, x in enumerate(self.inputs)}
        self._output_index = {y: j for j, y in enumerate(self.outputs)}

    @classmethod
    def from_array(cls, probabilities, inputs: Iterable | None = None, outputs: Iterable | None = None, *,
                   reading: RowReading | Mapping | None = None) -> Channel:
        """A channel from a two-dimensional array (a NumPy array, or a list of rows): rows are inputs, columns
        outputs, labelled ``0, 1, ...`` unless ``inputs`` and ``outputs`` are given. A matrix computed in floating
        point rarely has rows that sum to exactly 1: give it a ``reading`` (``{"rows": "renormalise"}``,
        ``{"rows": "remainder"}``, and ``{"numbers": "binary"}`` for each float's exact binary value;
        ``spec.rows``)."""
        shape = getattr(probabilities, "shape", None)
        if shape is not None and len(shape) != 2:
            raise InvalidChannel(f"probabilities must be a two-dimensional array (inputs x outputs), got shape "
                                 f"{tuple(shape)}")
        rows = sequence(probabilities, "probabilities", InvalidChannel)
        width = len(sequence(rows[0], "the first row", InvalidChannel)) if rows else 0
        return cls(range(len(rows)) if inputs is None else inputs, range(width) if outputs is None else outputs,
                   rows, reading=reading)

    def reading(self) -> RowsRead | None:
        return self._rows_read

    def input_position(self, x) -> int:
        try:
            return self._input_index[normalize_label(x)]
        except (KeyError, InvalidChannel):
            raise InvalidChannel(f"unknown input label {x!r}; the inputs are {list(self.inputs)!r}") from None

    def output_position(self, y) -> int:
        try:
            return self._output_index[normalize_label(y)]
        except (KeyError, InvalidChannel):
            raise InvalidChannel(f"unknown output label {y!r}; the outputs are {list(self.outputs)!r}") from None

    def probability(self, x, y):
        """``P[y|x]``."""
        return self._rows[self.input_position(x)][self.output_position(y)]

    def row(self, x) -> tuple:
        """The output distribution of input ``x``, in the order of ``outputs``."""
        return self._rows[self.input_position(x)]

    @property
    def rows(self) -> tuple:
        """All rows, in the order of ``inputs``."""
        return self._rows

    def column(self, y) -> tuple:
        """``P[y|x]`` for every input ``x``, in the order of ``inputs``."""
        j = self.output_position(y)
        return tuple(row[j] for row in self._rows)

    # --- the channel protocol, from the rows and columns ---

    @property
    def output_count(self) -> int:
        return len(self.outputs)

    def explicit(self, max_entries: int | None = None) -> Channel:
        return self

    def matrix(self, max_entries: int | None = None) -> Channel:
        return self

    def pair_loss(self, x, other) -> tuple:
        return row_pair_loss(self.row(x), self.row(other), self.outputs)

    def output_losses(self) -> dict:
        columns = progress.steps(zip(self.outputs, zip(*self._rows)), "scanning the columns", len(self.outputs),
                                 len(self.inputs))
        return {y: column_loss(self.inputs, column) for y, column in columns}

    def worst_ratios(self, max_work: int | None = None) -> Iterator[tuple]:
        """One triple per output that two inputs produce, from its column: ``inputs x outputs`` steps, where the
        pairs would take ``inputs^2 x outputs`` (``max_work`` plays no part)."""
        for y, (loss, pair) in self.output_losses().items():
            if pair is not None:
                yield pair, y, loss

    def ratio_probabilities(self, x, other, y) -> tuple:
        return self.probability(x, y), self.probability(other, y)

    def preprocessed(self, pre: Channel) -> Channel:
        return postprocess(pre, self)

    def __repr__(self) -> str:
        return f"Channel({len(self.inputs)} inputs, {len(self.outputs)} outputs)"


def compose(*channels: Channel) -> Channel:
    """Sequential composition: run every channel on the same input with independent coins.

    The output is the tuple of the component outputs, and
    ``P[(y1, ..., yK) | x] = P1[y1|x] * ... * PK[yK|x]``. All channels must
    have the same input set.
    """
    if not channels:
        raise InvalidChannel("compose needs at least one channel")
    first = channels[0]
    for k, other in enumerate(channels[1:], start=2):
        if set(other.inputs) != set(first.inputs):
            raise InvalidChannel(
                f"composed channels must share their inputs; channel 1 has {list(first.inputs)!r}, "
                f"channel {k} has {list(other.inputs)!r}")
    outputs = tuple(itertools.product(*(channel.outputs for channel in channels)))
    rows = []
    for x in first.inputs:
        component_rows = [channel.row(x) for channel in channels]
        rows.append([reduce(Exact.__mul__, entries) for entries in itertools.product(*component_rows)])
    return Channel(first.inputs, outputs, rows)


def postprocess(channel: Channel, post: Channel) -> Channel:
    """Post-processing: ``channel`` followed by ``post`` on its outputs.

    ``post`` must accept every output of ``channel`` as an input.
    ``P[z|x] = sum_y P[y|x] * Post[z|y]``.
    """
    missing = [y for y in channel.outputs if y not in post._input_index]
    if missing:
        raise InvalidChannel(
            f"post-processing channel must accept every output of the channel; missing inputs {missing!r}")
    post_rows = [post.row(y) for y in channel.outputs]
    rows = []
    for row in channel.rows:
        rows.append([sum((p * post_row[k] for p, post_row in zip(row, post_rows) if p), start=ZERO)
                     for k in range(len(post.outputs))])
    return Channel(channel.inputs, post.outputs, rows)


def map_outputs(channel: Channel, function: Callable) -> Channel:
    """Deterministic post-processing: release ``function(y)`` instead of ``y``.

    Outputs that map to the same value are merged (their probabilities add), so
    this is how a marginal of one component of the output is taken.
    """
    images = [normalize_label(function(y), "mapped output") for y in channel.outputs]
    new_outputs = tuple(dict.fromkeys(images))
    position = {z: k for k, z in enumerate(new_outputs)}
    rows = []
    done: dict = {}  # the sum of each distinct tuple of entry objects, computed once (a row repeats a few values)
    for row in channel.rows:
        sums = [[] for _ in new_outputs]
        for p, z in zip(row, images):
            sums[position[z]].append(p)
        entries = []
        for parts in sums:
            key = tuple(map(id, parts))
            if key not in done:
                done[key] = (parts, sum(parts, start=ZERO))  # holding the parts keeps their ids from reuse
            entries.append(done[key][1])
        rows.append(entries)
    return Channel(channel.inputs, new_outputs, rows)


def label_map(labels: Iterable, values: Mapping, name: str, *, complete: bool = True) -> dict:
    """Attach ``values[label]`` to labels, with clear errors for unknown or missing labels.

    Used by every predicate that takes a per-label parameter (budgets, sets of labels).
    """
    labels = tuple(labels)
    known = set(labels)
    if not isinstance(values, Mapping):
        raise InvalidParameter(f"{name} must be a mapping from labels to values, got {type(values).__name__}")
    normalized = {}
    for key, value in values.items():
        label = normalize_label(key, f"{name} label")
        if label not in known:
            raise InvalidParameter(f"{name} names unknown label {key!r}; the labels are {list(labels)!r}")
        normalized[label] = value
    if complete:
        missing = [label for label in labels if label not in normalized]
        if missing:
            raise InvalidParameter(f"{name} must give a value for every label; missing {missing!r}")
    return normalized


def label_subset(labels: Iterable, subset: Iterable, name: str) -> frozenset:
    """``subset`` as a set of known labels, with a clear error for unknown ones."""
    labels = tuple(labels)
    known = set(labels)
    result = set()
    for key in label_list(subset, name, InvalidParameter):
        label = normalize_label(key, f"{name} label")
        if label not in known:
            raise InvalidParameter(f"{name} names unknown label {key!r}; the labels are {list(labels)!r}")
        result.add(label)
    return frozenset(result)


def label_to_json(label):
    """A label as JSON: tuples become lists; a Decimal (a number read from a file) becomes the float that prints as
    it when there is one, else its text."""
    if isinstance(label, tuple):
        return [label_to_json(part) for part in label]
    if isinstance(label, Decimal):
        as_float = float(label)
        return as_float if Decimal(repr(as_float)) == label else str(label)
    return label


def json_ready(value):
    """``value`` (dicts, lists and tuples of labels, strings and numbers) as JSON data: every label as
    ``label_to_json`` writes it (a number read from a file is a Decimal, which ``json`` cannot write)."""
    if isinstance(value, dict):
        return {key: json_ready(part) for key, part in value.items()}
    if isinstance(value, (list, tuple)):
        return [json_ready(part) for part in value]
    if isinstance(value, Decimal):
        return label_to_json(value)
    return value


def sequence(value, name: str, error=InvalidParameter) -> tuple:
    """``value`` as a tuple when it is a list or tuple (not text, a mapping or a set), else ``error`` naming ``name``.

    The front door of every container argument: ``"10"`` is not the row ``[1, 0]``, and a set has no order.
    """
    if isinstance(value, (list, tuple)):
        return tuple(value)
    if hasattr(value, "tolist") and getattr(value, "ndim", 0) >= 1:  # a NumPy array
        return tuple(value.tolist())
    raise error(f"{name} must be a list, got {type(value).__name__} {_short(value)}")


def label_list(value, name: str, error=InvalidChannel) -> tuple:
    """Labels given as an iterable (list, tuple, range, set, generator); text is not a list of labels, nor a number."""
    if isinstance(value, (str, bytes, Mapping)) or not isinstance(value, Iterable):
        raise error(f"{name} must be a list of labels, got {type(value).__name__} {_short(value)}")
    return tuple(value)


def _short(value) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."

"""Exact channels: a finite input set, a finite output set, and ``P[y|x]`` for every pair.

A channel is the object every privacy notion is judged on. It holds the
probabilities as exact numbers (``spec.exact``), rows indexed by inputs and
columns by outputs, and it is immutable. It answers the channel protocol
(``spec.protocol``) from its rows and columns.

Labels name inputs and outputs (``spec.labels``).
"""

from __future__ import annotations

import gc
import itertools
import math
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from functools import reduce

from ldpspec.spec import progress
from ldpspec.spec.errors import InvalidChannel, InvalidParameter, TooLarge
from ldpspec.spec.exact import ZERO, Exact, Undecided, count_text
from ldpspec.spec.labels import entry_name, label_list, normalize_label, sequence, unique_labels, value_text
from ldpspec.spec.numbers import integer
from ldpspec.spec.parse import SIMPLE_LENGTH, simple_rational
from ldpspec.spec.protocol import ChannelProtocol, column_candidates, column_loss, matrix_doubles, row_pair_loss
from ldpspec.spec.rows import RowReading, RowsRead, read_rows

MAX_ENTRIES = 1_000_000
"""The most probabilities a mechanism builds a channel with, unless told otherwise (``max_entries=``, or
``--max-entries`` on the command line): a channel is checked entry by entry, so its size bounds the time and memory of
every check."""


READ_ONCE = 1 << 16
"""The most distinct values a channel remembers having read (each is then read once, and held once): a mechanism's
matrix repeats a few values, which it finds at once; a file of millions of distinct fractions would only fill the
memory with them (a gigabyte at 25 million), so past this many the memory starts afresh with the rows that follow. A
value read again is the same exact number."""


def check_entries(count: int, what: str, max_entries: int | None = None) -> None:
    """Refuse to build ``what`` with ``count`` probabilities when that is more than ``max_entries``
    (``MAX_ENTRIES`` by default), before any of the work is done."""
    limit = MAX_ENTRIES if max_entries is None else integer(max_entries, "max_entries", 1)
    if count > limit:
        raise TooLarge(f"{what} has {count_text(count)} probabilities, more than the limit of {limit:,}; use "
                               "a smaller domain, or raise the limit (max_entries=..., or --max-entries on the "
                               "command line)")


def once_per_object(function):
    """``function`` computed once per distinct object it is first given (later arguments ride along): a channel of
    10^5 items in 3 levels shares 3 budget objects, so reading or writing its budgets takes 3 computations."""
    done: dict = {}

    def call(value, *arguments):
        if id(value) not in done:
            done[id(value)] = (value, function(value, *arguments))  # holding the value keeps its id from reuse
        return done[id(value)][1]
    return call


@contextmanager
def _collection_paused():
    """Python's cycle collector paused while a matrix's entries are read: reading 4 million entries allocates
    millions of objects, none in a cycle, and each allocation count past the collector's threshold would scan them
    all again (a third of the reading's time). It is restored as it was, whatever happens."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def _simple_entry(text: str, bounded: bool, shared: dict) -> Exact | None:
    """The entry written ``text`` when it is a short decimal or fraction (``spec.parse.simple_rational``) that is a
    number >= 0 (and at most 1 when ``bounded``), read from its digits: the common case of a large channel file,
    whose millions of entries the general reader would read in minutes. ``None`` for any other text, which
    ``_probability_entry`` reads, or refuses with its message. Decimals are read as written (``numbers =
    "decimal"``); ``shared`` is ``Exact.coprime``'s."""
    top, slash, bottom = text.partition("/")
    if slash:  # "3/17": two whole numbers in ASCII digits ("²".isdigit() holds, and int() refuses it)
        if not (top.isdigit() and bottom.isdigit() and text.isascii() and len(text) <= SIMPLE_LENGTH):
            return _simple_entry_general(text, bounded)
        numerator, denominator = int(top), int(bottom)
        if not denominator:
            return None
    else:
        whole, point, places = text.partition(".")
        if not (whole.isdigit() and (places.isdigit() or not places) and text.isascii()
                and len(text) <= SIMPLE_LENGTH):
            return _simple_entry_general(text, bounded)
        numerator, denominator = int(whole + places), 10 ** len(places)
    if bounded and numerator > denominator:
        return None
    common = math.gcd(numerator, denominator)
    return Exact.coprime(numerator // common, denominator // common, shared)


def _simple_entry_general(text: str, bounded: bool) -> Exact | None:
    """``_simple_entry`` for the short forms with a sign or an exponent (``spec.parse.simple_rational``)."""
    rational = simple_rational(text)
    if rational is None or rational.numerator < 0 or (bounded and rational.numerator > rational.denominator):
        return None
    return Exact.rational(rational)


def _dominant_sign(poly: tuple) -> int | None:
    """The sign of ``sum_i c_i e^{q_i}`` (an exact number's numerator or denominator: terms sorted by exponent) when
    the term of the largest exponent outweighs the others in coefficients, ``|c_top| >= sum |c_i|``: then
    ``|c_top| e^{q_top} > sum |c_i| e^{q_i}``, every ``e^{q_i}`` being below ``e^{q_top}``. ``None`` otherwise. The
    mass of a cell of a Laplace density, ``(e^{-a} - e^{-b}) / 2``, and one minus it are decided so, without the
    interval arithmetic ``Exact.sign`` needs (a density file of 10^5 cells spent most of its reading there)."""
    if not poly:
        return 0
    *rest, (_, top) = poly
    if abs(top) >= sum(abs(c) for _, c in rest):
        return 1 if top > 0 else -1
    return None


def _at_least_zero(number: Exact) -> bool:
    """Whether ``number >= 0``, exactly (``_dominant_sign`` where it decides, else ``Exact.sign``)."""
    top, bottom = _dominant_sign(number.num), _dominant_sign(number.den)
    if top is not None and bottom is not None:
        return top * bottom >= 0
    return number.sign() >= 0


def _probability_entry(value, x, y, reading: RowReading, deferred: list | None = None) -> Exact:
    """The entry ``P[y|x]`` read exactly under ``reading``, or ``InvalidChannel`` naming it: a probability in
    [0, 1], or under a reading that makes rows sum to 1 (``spec.rows``) a number >= 0.

    ``deferred``: where to put ``(x, y, p)`` instead of checking ``p <= 1`` now when ``p`` is not rational (``1 - p``
    is an exact subtraction, and its sign may need interval arithmetic). The caller checks them only if a row does
    not sum to exactly 1 (``_check_deferred``): entries >= 0 in a row that sums to 1 are each at most 1."""
    try:
        p = reading.number(value, entry_name(x, y))
        rational = p.as_rational()  # a rational's bounds are integer comparisons; 1 - p costs an exact subtraction
        if rational is not None:
            inside = rational.numerator >= 0 and (reading.rows != "exact" or rational.numerator <= rational.denominator)
        else:
            inside = _at_least_zero(p)
            if inside and reading.rows == "exact":
                if deferred is None:
                    inside = _at_least_zero(1 - p)
                else:
                    deferred.append((x, y, p))
    except InvalidParameter as error:
        raise InvalidChannel(str(error)) from None
    except Undecided:
        inside = False
    if not inside:
        allowed = "a probability in [0, 1]" if reading.rows == "exact" else "a number >= 0"
        raise InvalidChannel(f"P[{value_text(y)}|{value_text(x)}] must be {allowed}, got {p.text()}")
    return p


def _check_deferred(deferred: list) -> None:
    """``p <= 1`` for the entries ``_probability_entry`` deferred, in the order they were read: the message names
    the first entry above 1 (or whose bound is undecided), as if it had been checked when read."""
    for x, y, p in deferred:
        try:
            inside = _at_least_zero(1 - p)
        except Undecided:
            inside = False
        if not inside:
            raise InvalidChannel(f"P[{value_text(y)}|{value_text(x)}] must be a probability in [0, 1], got {p.text()}")


class Channel(ChannelProtocol):
    """An exact channel ``P[y|x]`` (rows are inputs, columns are outputs).

    Args:
        inputs: the input labels, unique.
        outputs: the output labels, unique.
        probabilities: one row (a list, tuple or NumPy array) per input, one entry per output; each entry is
            anything ``spec.numbers.exact_number`` reads (decimal or fraction text, an expression with ``exp()``, int,
            Fraction, Decimal, float read as its shortest decimal, ``Exact``).
        reading: how numbers and rows that do not sum to exactly 1 are read (``spec.rows.RowReading``, or a mapping
            ``{"rows": ..., "numbers": ..., "remainder_to": ...}``); by default decimals as written and rows that sum
            to exactly 1. Every verdict on the channel names a reading other than the default
            (``parameters["reading"]``).

    Raises:
        InvalidChannel: labels not unique, shape mismatch, an entry outside [0, 1] (below 0 under a reading that
            makes rows sum to 1), or a row not summing to exactly 1 under ``rows = "exact"``.
    """

    __slots__ = ("inputs", "outputs", "_rows", "_input_index", "_output_index", "_rows_read", "_doubles")

    def __init__(self, inputs: Iterable, outputs: Iterable, probabilities: Sequence[Sequence], *,
                 reading: RowReading | Mapping | None = None):
        reading = RowReading.of(reading)
        self.inputs = unique_labels(label_list(inputs, "inputs"), "input")
        self.outputs = unique_labels(label_list(outputs, "outputs"), "output")
        if reading.remainder_to is not None:
            reading = RowReading(reading.rows, reading.numbers, normalize_label(reading.remainder_to, "remainder_to"))
        rows_given = sequence(probabilities, "probabilities", InvalidChannel)
        if len(rows_given) != len(self.inputs):
            raise InvalidChannel(
                f"probabilities must have one row per input: {len(self.inputs)} inputs, {len(rows_given)} rows")
        # Each distinct value given is read once: a mechanism repeats a few objects over a whole matrix, and a file
        # a few texts (keyed by the text itself, and by the object otherwise; ``rows_given`` holds the objects).
        deferred = []  # entries whose bound p <= 1 follows once their rows sum to 1 (``_probability_entry``)
        with _collection_paused():
            rows = self._read_rows(rows_given, reading, {}, deferred)
        try:
            rows, self._rows_read = read_rows(self.inputs, self.outputs, rows, reading)
        except InvalidChannel:
            _check_deferred(deferred)  # an entry above 1 is named before the row it makes sum to more than 1
            raise
        self._rows = tuple(rows)
        self._input_index = {x: i for i, x in enumerate(self.inputs)}
        self._output_index = {y: j for j, y in enumerate(self.outputs)}
        self._doubles = False  # not computed yet (``doubles``)

    def doubles(self):
        """The matrix as a NumPy array of correctly rounded doubles (``spec.protocol.matrix_doubles``), computed once
        (the channel does not change), or ``None`` when an entry has none: what the float filters of the column scan
        and of the pairwise notions skip work by."""
        if self._doubles is False:
            self._doubles = matrix_doubles(self._rows)
        return self._doubles

    def _read_rows(self, rows_given: Sequence, reading: RowReading, read: dict, deferred: list) -> list:
        """The rows given, each entry read exactly (``_simple_entry`` for short decimals and fractions, else
        ``_probability_entry``, which puts in ``deferred`` the entries whose bound by 1 the rows' sums imply), each
        distinct text or object once (``read``, up to ``READ_ONCE`` of them)."""
        rows = []
        simple, bounded, shared = reading.numbers == "decimal", reading.rows == "exact", {}  # see _simple_entry
        for x, row in progress.steps(zip(self.inputs, rows_given), "reading the rows", len(self.inputs),
                                     len(self.outputs)):
            row = sequence(row, f"the row of input {value_text(x)}", InvalidChannel)
            if len(row) != len(self.outputs):
                raise InvalidChannel(f"row of input {value_text(x)} must have one entry per output: "
                                     f"{len(self.outputs)} "
                                     f"outputs, {len(row)} entries")
            entries = []
            for y, value in zip(self.outputs, row):
                key = value if type(value) is str else id(value)
                p = read.get(key)
                if p is None:
                    p = _simple_entry(value, bounded, shared) if simple and type(value) is str else None
                    p = p if p is not None else _probability_entry(value, x, y, reading, deferred)
                    if len(read) >= READ_ONCE:
                        read.clear()  # the values of the rows just read are the ones that repeat, if any do
                        shared.clear()
                    read[key] = p
                entries.append(p)
            rows.append(entries)
        return rows

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
            raise InvalidChannel(f"unknown input label {value_text(x)}; the inputs are "
                                 f"{value_text(list(self.inputs))}") from None

    def output_position(self, y) -> int:
        try:
            return self._output_index[normalize_label(y)]
        except (KeyError, InvalidChannel):
            raise InvalidChannel(f"unknown output label {value_text(y)}; the outputs are "
                                 f"{value_text(list(self.outputs))}") from None

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
        i, j = self.input_position(x), self.input_position(other)
        doubles = self._doubles  # when computed already (a pairwise notion, a profile): not for one pair
        pair = None if doubles is None or doubles is False else (doubles[i], doubles[j])
        return row_pair_loss(self._rows[i], self._rows[j], self.outputs, pair)

    def output_losses(self) -> dict:
        columns = progress.steps(zip(self.outputs, zip(*self._rows), column_candidates(self.doubles())),
                                 "scanning the columns", len(self.outputs), len(self.inputs))
        return {y: column_loss(self.inputs, column, candidates) for y, column, candidates in columns}

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
                f"composed channels must share their inputs; channel 1 has {value_text(list(first.inputs))}, "
                f"channel {k} has {value_text(list(other.inputs))}")
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
            f"post-processing channel must accept every output of the channel; missing inputs {value_text(missing)}")
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

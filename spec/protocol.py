"""The channel protocol: the questions every kind of channel answers, so that each notion is written once.

The kernel holds channels of several kinds: an explicit matrix (``spec.channel.Channel``); channels given by their
structure (``spec.structured``: independent bits, unary and direct encodings whose items come in classes, a sampled
one-hot vector); channels with densities (``spec.continuous.PiecewiseChannel``); and a channel for every number of an
interval (``spec.families.AffineFamily``). The notions and the losses ask all of them the same questions, declared
here, and never which kind a channel is:

* ``inputs``: the inputs the kernel judges. A family of every number of an interval is judged on the ends of its
  segments, which stand for every number (``scope()`` says so in the verdict);
* ``pair_loss(x, x2)``: ``(max_y ln P[y|x] / P[y|x2], an output attaining it)``;
* ``judged_pairs(labels)``: the ordered pairs of distinct inputs whose losses decide a pairwise notion: every pair,
  or one pair per ordered pair of classes when the loss of a pair depends only on its inputs' classes
  (``input_classes()``);
* ``worst_ratios(max_work)``: ``(pair, output, loss)`` triples whose largest loss is the tightest LDP budget, and
  whose worst names the LDP witness: one per output for a matrix (a scan of its columns), one per judged pair
  otherwise;
* ``output_losses()``: for each output, the largest log-ratio within its column;
* ``explicit(max_entries)``: the explicit matrix, for the notions that read it entry by entry (ULDP, SULDP, IPLDP);
  refused beyond ``max_entries`` probabilities, or when the channel has none (exponential densities, a family);
* ``matrix()``: the explicit matrix when the channel is one (a ``Channel``, or densities constant on cells, whose
  matrix of atoms and cells has the same ratios), else ``None``: a structure's matrix may have astronomically many
  outputs, and is built on request only (``explicit()``);
* ``ratio_probabilities(x, x2, y)``: the two entries a ratio witness is made of, when the channel holds them;
* ``input_levels(bounds)``: the interval of each judged input, for graded LDP;
* ``check_pair_work(max_work)``: refuses a pairwise computation of more than ``max_work`` steps before it starts;
* ``discrete_outcomes()``: the discrete channel a sampled release is counted on (goodness of fit, never privacy);
* ``preprocessed(pre)``: a randomised preprocessing of the input followed by this channel;
* ``file_structures``: how a channel file can hold it (``reference.channelfile``);
* ``reading()``: how a matrix whose rows did not sum to exactly 1 was made exact (``spec.rows``), which every
  verdict on it names (``parameters["reading"]``); ``None`` when nothing was read but exact rows.

A new kind of channel is added by subclassing ``ChannelProtocol`` and answering these questions; no notion changes.
The losses of rows and columns, to which every kind reduces, are computed here once (``row_pair_loss``,
``column_loss``), with the float filters that skip, by proven bounds on doubles, the work that cannot change an exact
answer: within a row or a column, and over the pairs of inputs of a matrix (the accelerator, ``ldpspec.accelerator``,
when NumPy is importable).
"""

from __future__ import annotations

import os
from abc import ABC, abstractmethod
from collections.abc import Iterator, Sequence

from ldpspec.spec import progress
from ldpspec.spec.errors import InvalidParameter, TooLarge
from ldpspec.spec.exact import ONE_POLY, Exact
from ldpspec.spec.labels import LazyText, value_text
from ldpspec.spec.nats import Nats
from ldpspec.spec.numbers import exact_number, integer

MAX_PAIR_WORK = 4_000_000
"""Default largest ``pairs^2 x steps per pair`` of a pairwise computation (``inputs^2 x outputs`` on a matrix)."""


def check_pair_work(pairs: int, per_pair: int, max_work: int | None, what: str = "pair of inputs",
                    unit: str = "output") -> None:
    """Refuse ``pairs^2 x per_pair`` steps when that is more than ``max_work`` (``MAX_PAIR_WORK`` by default),
    naming the limit and how to raise it: before the work starts, and for a channel file before its numbers are
    read (``reference.channelfile``)."""
    limit = MAX_PAIR_WORK if max_work is None else integer(max_work, "max_work", 1)
    work = pairs ** 2 * per_pair
    if work > limit:
        raise TooLarge(
            f"this check compares every ordered {what} over every {unit}: {pairs:,}^2 x {per_pair:,} = "
            f"{work:,} steps, more than the limit of {limit:,}; raise the limit (max_work=..., or --max-work on "
            "the command line) to run it anyway")


class ChannelProtocol(ABC):
    """A channel the kernel can judge: what every kind of channel answers (see the module's docstring)."""

    inputs: tuple

    # --- what it is ---------------------------------------------------------------------------------------------

    @property
    @abstractmethod
    def output_count(self) -> int:
        """The number of outputs (may be astronomically large)."""

    @property
    def has_densities(self) -> bool:
        """Whether some release is a point drawn from a density (a channel file of format 2 holds it)."""
        return False

    file_structures: tuple[str, ...] = ("matrix",)
    """How a channel file can hold the channel, preferred first: ``"matrix"`` (format 1, its explicit matrix),
    ``"densities"`` (format 2), ``"unary-classes"`` or ``"column-classes"`` (format 3)."""

    def input_classes(self) -> tuple[tuple, ...] | None:
        """Classes of inputs such that the loss of two distinct inputs depends only on their classes, each a tuple of
        inputs in the order of ``inputs``; ``None`` when the channel declares none (every pair is judged)."""
        return None

    def scope(self) -> str | None:
        """What a verdict on the judged inputs covers, when it covers more than them (``parameters["inputs"]`` of
        the verdict); ``None`` for the inputs themselves."""
        return None

    def reading(self):
        """How the channel's numbers and rows were read (``spec.rows.RowsRead``), when a declared reading made its
        rows exact; ``None`` when it was given exact rows."""
        return None

    def matrix(self, max_entries: int | None = None):
        """The explicit ``Channel`` when the channel is one in all but its form, else ``None`` (see the module's
        docstring); refused beyond ``max_entries`` probabilities."""
        return None

    def doubles(self):
        """The channel's rows as a NumPy array of correctly rounded doubles when it holds them as an explicit matrix of
        rationals (``matrix_doubles``): what the float filters skip work by. ``None`` otherwise: every pair is then
        decided exactly."""
        return None

    @abstractmethod
    def explicit(self, max_entries: int | None = None):
        """The explicit ``Channel`` (refused beyond ``max_entries`` probabilities, ``MAX_ENTRIES`` by default)."""

    def discrete_outcomes(self, max_entries: int | None = None):
        """The discrete channel whose outputs a sampled release is counted as: the explicit channel, or for
        densities with exponential pieces the masses of atoms and cells (a coarsening: for goodness of fit, never
        for privacy)."""
        return self.explicit(max_entries)

    def preprocessed(self, pre):
        """``pre`` (a ``Channel`` whose outputs are this channel's inputs) followed by this channel:
        ``P[y|s] = sum_t Pre[t|s] P[y|t]``."""
        return self.explicit().preprocessed(pre)

    # --- losses -------------------------------------------------------------------------------------------------

    @abstractmethod
    def pair_loss(self, x, other) -> tuple:
        """``(loss, y)``: the largest ``ln P[y|x] / P[y|other]`` over the outputs ``x`` can produce (``+inf`` when
        ``other`` cannot produce one of them; 0 with ``None`` when ``x`` produces nothing), and an output
        attaining it."""

    def pair_steps(self) -> tuple[int, str]:
        """``(steps, unit)``: the work of one ``pair_loss``, for ``check_pair_work``."""
        return self.output_count, "output"

    def judged_pairs(self, labels=None) -> list[tuple]:
        """The ordered pairs of distinct inputs whose losses decide a pairwise notion, in the order the explicit scan
        meets them (``inputs`` by ``inputs``). With ``input_classes()``: one pair per ordered pair of classes,
        where the classes are refined by ``labels`` (``{input: label}``, for example each input's budget: inputs
        of one class with different labels go to different classes); each pair is the first of its pair of classes,
        so that a verdict built from them names the same witness as one built from every pair."""
        classes = self.input_classes()
        if classes is None:
            return [(x, x2) for x in self.inputs for x2 in self.inputs if x != x2]
        parts_of_classes = []
        for members in classes:
            parts: dict = {}
            for x in members:
                parts.setdefault(None if labels is None else labels[x], []).append(x)
            parts_of_classes.extend(parts.values())
        position = {x: i for i, x in enumerate(self.inputs)}
        pairs = []
        for first in parts_of_classes:
            for second in parts_of_classes:
                if first is second:
                    if len(first) >= 2:
                        pairs.append((first[0], first[1]))
                else:
                    pairs.append((first[0], second[0]))
        return sorted(pairs, key=lambda pair: (position[pair[0]], position[pair[1]]))

    def check_pair_work(self, max_work: int | None, *, every_pair: bool = False) -> None:
        """Refuse a pairwise computation of more than ``max_work`` steps (``MAX_PAIR_WORK`` by default), naming the
        limit and how to raise it: one pair per ordered pair of ``input_classes()`` unless ``every_pair``."""
        classes = None if every_pair else self.input_classes()
        if classes is None:
            pairs, what = len(self.inputs), "pair of inputs"
        else:
            pairs, what = len(classes), "pair of input classes"
        per_pair, unit = self.pair_steps()
        check_pair_work(pairs, per_pair, max_work, what, unit)

    def pair_losses(self, max_work: int | None = None, labels=None, *, every_pair: bool = False) -> dict:
        """``{(x, x2): (loss, y)}`` over ``judged_pairs(labels)``, or over every ordered pair of distinct inputs
        with ``every_pair``; refused first beyond ``max_work`` steps."""
        self.check_pair_work(max_work, every_pair=every_pair)
        if every_pair:
            pairs = [(x, x2) for x in self.inputs for x2 in self.inputs if x != x2]
        else:
            pairs = self.judged_pairs(labels)
        steps, _ = self.pair_steps()
        return {pair: self.pair_loss(*pair) for pair in progress.steps(pairs, "comparing pairs of inputs", len(pairs),
                                                                        steps)}

    def worst_ratios(self, max_work: int | None = None) -> Iterator[tuple]:
        """``(pair, y, loss)`` triples over which the tightest LDP budget is the largest loss; by default one per
        judged pair."""
        for pair, (loss, y) in self.pair_losses(max_work).items():
            yield pair, y, loss

    def output_losses(self) -> dict:
        """``{y: (loss, (x_high, x_low))}``: for each output, the largest log-ratio within its column, and a pair
        attaining it (``None`` for an output no input produces, or a single input)."""
        return self.explicit().output_losses()

    def ratio_probabilities(self, x, other, y) -> tuple | None:
        """``(P[y|x], P[y|other])``, the two entries a ratio witness is made of, when the channel holds them as
        entries; ``None`` when its probabilities come from a structure (a product of 10^5 exact factors, a
        density's piece)."""
        return None

    def input_levels(self, bounds: Sequence[Exact]) -> dict:
        """``{input: j}``: the interval ``[b_j, b_{j+1})`` (the last one closed) of every judged input, for graded
        LDP. By default the inputs are numbers (their labels, read exactly), and must include every end point of
        the intervals: the verdict covers that grid only."""
        values = {}
        for x in self.inputs:
            if isinstance(x, (tuple, type(None))):
                raise InvalidParameter(f"graded LDP needs numerical inputs, got input label {value_text(x)}")
            values[x] = exact_number(x, LazyText(lambda x=x: f"input {value_text(x)}"))
        levels = {x: level_of(v, bounds) for x, v in values.items()}
        present = set(values.values())
        missing = [b for b in bounds if b not in present]
        if missing:
            raise InvalidParameter("the inputs must include every interval end point; missing "
                                   + ", ".join(b.text() for b in missing))
        return levels


def checked_channel(channel, name: str = "channel") -> ChannelProtocol:
    """``channel`` when it is a channel the kernel can judge (it answers the ``ChannelProtocol``), else
    ``InvalidParameter`` naming what was given."""
    if isinstance(channel, ChannelProtocol):
        return channel
    raise InvalidParameter(f"{name} must be a spec.Channel or another kind of channel of the kernel (a structured "
                           f"channel, a PiecewiseChannel, an AffineFamily), got {type(channel).__name__}")


# --- the losses of rows and columns ---------------------------------------------------------------------------------

def ratio(numerator: Exact, denominator: Exact) -> Nats:
    """``ln numerator / denominator``; ``+inf`` when the denominator is 0."""
    return Nats.infinity() if not denominator else Nats(numerator / denominator)


# --- the float filter -------------------------------------------------------------------------------------------
# A scan for the largest entry of a column, or the largest ratio of two rows, compares exact numbers (about 12 us a
# comparison). Rational entries are first read as doubles (``numerator / denominator``, correctly rounded: relative
# error at most UNIT = 2^-53 for a normal double, and monotone); an entry that the doubles prove cannot be the
# extreme is skipped (a quotient of two doubles is rounded twice more and not monotone: its slack is 8 UNIT),
# and the extreme is found by exact comparisons among the others, in the same order, so that the result (the first of
# equal entries) is the exact scan's. An entry that is not rational, or whose double is below NORMAL (subnormal,
# where the relative error is larger, or 0), is always compared exactly.

UNIT = 2.0 ** -53
NORMAL = 2.0 ** -1000


def _double(value: Exact) -> float | None:
    """``value`` as a correctly rounded double when it is rational and its double is normal (or it is 0), else
    ``None``."""
    if value.den is ONE_POLY or (len(value.den) == 1 and value.den[0][0] == 0):
        if not value.num:
            return 0.0
        if len(value.num) == 1 and value.num[0][0] == 0:
            try:
                double = value.num[0][1] / value.den[0][1]  # int / int: correctly rounded
            except OverflowError:
                return None
            return double if double >= NORMAL else None
    return None


def _candidates_high(doubles: list) -> range | list:
    """Positions that may hold the largest value: every position unless each double is known; then those whose
    double is the largest. Correct rounding is monotone (``x <= y`` gives ``fl(x) <= fl(y)``), so the largest exact
    value has the largest double, and so has every value equal to it."""
    if None in doubles:
        return range(len(doubles))
    top = max(doubles)
    return [i for i, f in enumerate(doubles) if f == top]


def _candidates_low(doubles: list) -> range | list:
    """Positions that may hold the smallest value (zeros included), as ``_candidates_high``."""
    if None in doubles:
        return range(len(doubles))
    bottom = min(doubles)
    return [i for i, f in enumerate(doubles) if f == bottom]


def row_pair_loss(row: Sequence, other_row: Sequence, outputs: Sequence, doubles: tuple | None = None) -> tuple:
    """``(loss, y)`` of two rows: the largest ``ln row[y] / other_row[y]`` over the outputs ``row`` produces, and the
    first output attaining it (the float filter above skips the outputs whose ratio the doubles prove smaller).
    ``doubles``: the two rows' doubles as NumPy arrays, when a matrix has them (``matrix_doubles``): the same
    candidates are then found by NumPy (a double is 0 exactly when its entry is)."""
    if doubles is not None:
        return _row_pair_loss_by_doubles(row, other_row, outputs, *doubles)
    produced = []
    for j, (p, p2) in enumerate(zip(row, other_row)):
        if not p:
            continue  # x never produces y: no constraint
        if not p2:
            return Nats.infinity(), outputs[j]
        produced.append(j)
    if not produced:
        return Nats.rational(0), None
    doubles = []
    for j in produced:
        f, f2 = _double(row[j]), _double(other_row[j])
        doubles.append(None if f is None or f2 is None else f / f2)  # relative error at most 3u
    if None in doubles:
        candidates = produced
    else:
        top = max(doubles)
        candidates = [j for j, f in zip(produced, doubles) if f >= top * (1 - 8 * UNIT)]
    best = candidates[0]
    for j in candidates[1:]:
        if (row[j] * other_row[best]).compare(row[best] * other_row[j]) > 0:
            best = j
    return Nats(row[best] / other_row[best]), outputs[best]


def column_candidates(doubles) -> Iterator:
    """For each column of a matrix of doubles (``matrix_doubles``; ``None`` when it has none), ``(highs, lows)``:
    the positions whose double is the column's largest and smallest, in order, as ``_candidates_high`` and
    ``_candidates_low`` find them one column at a time (``accelerator.column_extremes``); ``None`` for every column
    when there are no doubles."""
    if doubles is None:
        while True:
            yield None
    yield from ACCELERATOR.column_extremes(doubles)


def _row_pair_loss_by_doubles(row: Sequence, other_row: Sequence, outputs: Sequence, mine, theirs) -> tuple:
    """``row_pair_loss`` with the rows' doubles given: the same candidates (``accelerator.row_pair_candidates``),
    decided exactly."""
    cannot, candidates = ACCELERATOR.row_pair_candidates(mine, theirs)
    if cannot is not None:
        return Nats.infinity(), outputs[cannot]
    if not candidates:
        return Nats.rational(0), None
    best = candidates[0]
    for j in candidates[1:]:
        if (row[j] * other_row[best]).compare(row[best] * other_row[j]) > 0:
            best = j
    return Nats(row[best] / other_row[best]), outputs[best]


def extremes(column: Sequence, candidates: tuple | None = None) -> tuple[int, int]:
    """Positions of a largest and a smallest entry (the first of equal ones); two positions when the column is
    constant, so that a witness names two inputs, as the scan over pairs of inputs does. The float filter above
    leaves out the positions the doubles prove not extreme; ``candidates``, when given, are the positions it keeps
    (``column_candidates``, for a whole matrix at once)."""
    if candidates is None:
        doubles = [_double(p) for p in column]
        highs, lows = _candidates_high(doubles), _candidates_low(doubles)
    else:
        highs, lows = candidates
    high, low = highs[0], lows[0]
    for i in highs[1:]:
        if column[i].compare(column[high]) > 0:
            high = i
    for i in lows[1:]:
        if column[i].compare(column[low]) < 0:
            low = i
    if high == low and len(column) > 1:  # every entry equal: both are the first position
        low = 1
    return high, low


def column_loss(inputs: Sequence, column: Sequence, candidates: tuple | None = None) -> tuple:
    """``(loss, (x_high, x_low))``: the largest ``ln P[y|x] / P[y|x']`` within one output column.

    ``column`` holds ``P[y|x]`` for each of ``inputs``. The pair is ``None`` (and the loss 0) when no input produces
    the output or there is one input. ``candidates``: as ``extremes`` takes them.
    """
    if len(column) < 2 or not any(column):
        return Nats.rational(0), None
    high, low = extremes(column, candidates)
    return ratio(column[high], column[low]), (inputs[high], inputs[low])


def level_of(value: Exact, boundaries: Sequence[Exact]) -> int:
    """The 0-based index of the interval containing ``value``.

    Intervals are ``[b_0, b_1), [b_1, b_2), ..., [b_{k-1}, b_k]`` (half-open, the last closed), as in Hao et al.
    Sec. 6.
    """
    if value < boundaries[0] or value > boundaries[-1]:
        raise InvalidParameter(f"input value {value.text()} is outside the intervals "
                               f"[{boundaries[0].text()}, {boundaries[-1].text()}]")
    for j in range(len(boundaries) - 1):
        if value < boundaries[j + 1]:
            return j
    return len(boundaries) - 2



# --- the accelerator ---------------------------------------------------------------------------------------------
# A pairwise notion on a d x d matrix compares every ordered pair of inputs over every output: d^3 exact comparisons
# (8 * 10^9 at d = 2000). Where NumPy is importable, the accelerator (``ldpspec.accelerator``) computes the pairs'
# worst ratios in doubles, which bound each pair's margin (budget minus loss) within a proven slack; only the pairs
# whose margin may be the smallest are decided exactly, by the same exact ``pair_loss`` as the scan over every pair,
# in the scan's order. The verdict keeps the pair of smallest margin (the first of equal ones), and fails exactly when
# that margin is negative, so the pairs left out, each proven to have a larger margin than some pair that is kept,
# change neither the verdict, nor its margin, nor its witness. Without NumPy (or with ``LDPSPEC_ACCELERATOR=0``) a
# matrix has no doubles, and every pair is decided exactly.


def _accelerator():
    if os.environ.get("LDPSPEC_ACCELERATOR") == "0":
        return None
    try:
        from ldpspec import accelerator
    except ImportError:  # no NumPy: the kernel decides everything on the exact path
        return None
    return accelerator


ACCELERATOR = _accelerator()
"""The accelerator module, or ``None`` (the exact path alone). Read at every use, so that a test can set it."""


def matrix_doubles(rows: Sequence[Sequence[Exact]]):
    """The matrix as the accelerator's array of correctly rounded doubles (``_double``), or ``None`` when some entry
    has none (not rational, or subnormal) or there is no accelerator: the float filters then do not apply.
    ``_double`` written out for a whole row: a matrix of 4 million entries is read in a second or two."""
    if ACCELERATOR is None:
        return None
    doubles = []
    for row in rows:
        line = []
        for p in row:
            num, den = p.num, p.den
            if len(den) != 1 or den[0][0] != 0:
                return None
            if not num:
                line.append(0.0)
                continue
            if len(num) != 1 or num[0][0] != 0:
                return None
            try:
                double = num[0][1] / den[0][1]  # int / int: correctly rounded
            except OverflowError:
                return None
            if double < NORMAL:  # not 0, and subnormal or 0 as a double (or negative): its rounding is not relative
                return None
            line.append(double)
        doubles.append(line)
    return ACCELERATOR.as_array(doubles)

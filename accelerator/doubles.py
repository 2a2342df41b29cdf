"""Bounds in doubles over a whole matrix: the candidates of a column's extremes, of a pair's worst output, of the
pairs that may set a pairwise verdict, and of the pairs a loss profile's summary shows.

Every function takes the matrix's doubles (``as_array`` of the kernel's correctly rounded doubles, one row per input)
and returns positions; the kernel decides exactly among them.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

import numpy as np

UNIT = 2.0 ** -53
"""The unit roundoff of a double: a correctly rounded quotient is within a relative ``UNIT`` of the exact one."""

PAIR_SLACK = 2.0 ** -40
"""The relative slack of a pair's margin computed in doubles: ``|m - m_float| <= PAIR_SLACK (1 + |b| + |l|)`` for
the budget ``b`` and the loss ``l``. Each entry is a correctly rounded double (relative error ``2^-53``); a ratio is
``p * (1 / p')``, three more roundings, so the largest ratio of a pair is within ``5 * 2^-53`` of its exact value,
relatively, and its logarithm within about that absolutely; NumPy's logarithm adds a few units of the result's last
place, and a budget's double one more. ``2^-40`` is 8,192 times ``2^-53``: a bound with room to spare."""
PAIR_BLOCK = 8
"""Rows of the matrix compared at once with ``OUTPUT_BLOCK`` other rows, over every output: one buffer of
``PAIR_BLOCK x OUTPUT_BLOCK x outputs`` doubles (8 MB at 2,000 outputs), where every row against every row at once
would take ``PAIR_BLOCK x d x outputs`` (256 MB at d = 2,000)."""
OUTPUT_BLOCK = 64
"""The other rows compared at once (see ``PAIR_BLOCK``)."""
LARGEST_BUDGET = 2.0 ** 1000
"""The largest budget (in magnitude) the pairs' filter takes: below it the average of two budgets, a margin and its
slack are finite doubles (the largest double is about ``2^1024``); beyond it the filter declines and every pair is
decided exactly. A budget of ``1e308`` made the average overflow to infinity and a margin NaN, so that the filter
kept the diagonal and the verdict named an input paired with itself."""


def as_array(rows: Sequence[Sequence[float]]) -> np.ndarray:
    """The kernel's doubles of a matrix (one list per row) as a two-dimensional array."""
    return np.array(rows, dtype=np.float64).reshape(len(rows), len(rows[0]) if rows else 0)


# --- one column, one pair of rows ------------------------------------------------------------------------------

def column_extremes(doubles: np.ndarray) -> Iterator[tuple[list, list]]:
    """For each column, ``(highs, lows)``: the positions whose double is the column's largest and smallest, in
    order. Correct rounding is monotone, so a largest exact entry has the largest double, and so has every entry
    equal to it: the exact extremes are among these positions."""
    columns = doubles.T
    sides = []
    for extreme in (columns.max(axis=1), columns.min(axis=1)):
        where, positions = np.nonzero(columns == extreme[:, None])  # by column, then position: in order
        sides.append(np.split(positions, np.cumsum(np.bincount(where, minlength=len(extreme)))[:-1]))
    for highs, lows in zip(*sides):
        yield highs.tolist(), lows.tolist()


def row_pair_candidates(mine: np.ndarray, theirs: np.ndarray) -> tuple[int | None, list]:
    """``(cannot, candidates)`` for two rows' doubles: ``cannot`` is the first output the first row produces and the
    other does not (an infinite loss; a double is 0 exactly when its entry is), else ``None``; ``candidates`` are the
    outputs the first row produces whose ratio may be the largest (empty when it produces none). Each quotient is
    within ``3 UNIT`` of its exact ratio, relatively, so every output whose quotient is below ``(1 - 8 UNIT)`` times
    the largest has a smaller exact ratio than the output of the largest quotient."""
    produced = np.flatnonzero(mine > 0)
    if not len(produced):
        return None, []
    cannot = produced[theirs[produced] == 0]
    if len(cannot):
        return int(cannot[0]), []
    quotients = mine[produced] / theirs[produced]
    top = float(quotients.max())
    return None, produced[quotients >= top * (1 - 8 * UNIT)].tolist()


# --- every pair of rows --------------------------------------------------------------------------------------

def largest_ratios(doubles: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(ratios, infinite)``: for every ordered pair of rows ``(i, j)`` the largest ``p_i / p_j`` over the outputs
    both produce, in doubles (``p_i * (1 / p_j)``; 0 when there is none), and whether ``i`` produces an output that
    ``j`` does not (an infinite loss, decided exactly: a double is 0 exactly when the entry is)."""
    count, width = doubles.shape
    produced = doubles > 0
    inverse = np.zeros_like(doubles)
    np.divide(1.0, doubles, out=inverse, where=produced)
    ratios = np.empty((count, count))
    buffer = np.empty((PAIR_BLOCK, OUTPUT_BLOCK, width))  # one buffer: a new one each time costs its pages
    for start in range(0, count, PAIR_BLOCK):
        block = doubles[start:start + PAIR_BLOCK, None, :]
        for other in range(0, count, OUTPUT_BLOCK):
            others = inverse[None, other:other + OUTPUT_BLOCK, :]
            products = buffer[:block.shape[0], :others.shape[1]]
            np.multiply(block, others, out=products)
            products.max(axis=2, out=ratios[start:start + PAIR_BLOCK, other:other + OUTPUT_BLOCK])
    if produced.all():
        infinite = np.zeros((count, count), dtype=bool)
    else:  # the outputs i produces and j does not, counted exactly (whole numbers below 2^24 in float32)
        infinite = produced.astype(np.float32) @ (~produced).astype(np.float32).T > 0.5
    return ratios, infinite


def _gap(value: float) -> float:
    """Beyond the slack and any rounding of a loss's or margin's 60-digit decimal (``PAIR_SLACK``, relative)."""
    return PAIR_SLACK * (1 + abs(value))


def _in_order(mask: np.ndarray) -> list[tuple[int, int]]:
    """The pairs ``(i, j)`` where ``mask`` holds, in the kernel's scan order: by input, then by the other input."""
    return [(int(i), int(j)) for i, j in zip(*np.nonzero(mask))]


def filtered_pairs(doubles: np.ndarray, budgets: Sequence[float], combine: str) -> list[tuple[int, int]] | None:
    """The ordered pairs of rows ``(i, j)``, ``i != j``, in the scan's order (``i`` then ``j``), whose exact decision
    may set a pairwise verdict: the pairs whose margin ``r(b_i, b_j) - loss(i, j)`` may be the smallest, by the
    doubles of the entries and of the budgets (``budgets``, one per row). ``combine`` is the pair function:
    ``"min"``, ``"avg"`` or ``"max"``. ``None`` when the filter does not apply (a budget beyond ``LARGEST_BUDGET``,
    or another pair function).

    The pairs kept: those whose margin's lower bound is at most the smallest upper bound of a margin, with a gap
    (``PAIR_SLACK``, relative) that keeps apart margins that the verdict's 60-digit approximations could make equal;
    every pair left out therefore has a margin larger than a pair kept, by more than a rounding of the verdict.
    When some pair's loss is infinite, the first such pair alone (an infinite margin below every finite one, and the
    first of equal ones).
    """
    budgets = np.asarray(budgets, dtype=np.float64)
    if combine not in ("min", "avg", "max") or not (np.abs(budgets) <= LARGEST_BUDGET).all():
        return None  # another pair function, or budgets whose bounds could overflow (a NaN or inf margin)
    count = len(budgets)
    if count < 2:
        return []
    ratios, infinite = largest_ratios(doubles)
    if infinite.any():
        first = int(np.flatnonzero(infinite.ravel())[0])  # row-major: the scan's order (never the diagonal)
        return [divmod(first, count)]
    column, row = budgets[None, :], budgets[:, None]
    bound = np.minimum(row, column) if combine == "min" else np.maximum(row, column) if combine == "max" else \
        (row + column) / 2
    losses = np.log(np.where(ratios > 0, ratios, 1.0))  # no output produced: a loss of 0
    margins = bound - losses
    slack = PAIR_SLACK * (1 + np.abs(bound) + np.abs(losses))
    np.fill_diagonal(margins, np.inf)
    np.fill_diagonal(slack, 0.0)
    smallest = float((margins + slack).min())
    kept = margins - slack <= smallest + _gap(smallest)
    np.fill_diagonal(kept, False)  # a pair of an input with itself is never judged
    return _in_order(kept)


class PairLossBounds:
    """Every ordered pair's loss (its largest ratio's logarithm) bounded in doubles: ``low <= loss <= high`` within
    ``PAIR_SLACK``, and which pairs are infinite (exactly). A loss profile's summary asks it which pairs may be among
    the largest, an input's worst partner, or in a bin of the histogram; the kernel computes those pairs exactly.
    Pairs are ``(i, j)`` of row positions, listed in the scan's order."""

    def __init__(self, doubles: np.ndarray):
        ratios, self.infinite = largest_ratios(doubles)
        losses = np.log(np.where(ratios > 0, ratios, 1.0))  # no output produced: a loss of 0
        slack = PAIR_SLACK * (1 + np.abs(losses))
        self.low, self.high = losses - slack, losses + slack
        self.finite = ~self.infinite
        np.fill_diagonal(self.finite, False)

    def infinite_pairs(self) -> list[tuple[int, int]]:
        return _in_order(self.infinite)

    def finite_count(self) -> int:
        return int(self.finite.sum())

    def largest(self, wanted: int) -> list[tuple[int, int]]:
        """The finite pairs that may be among the ``wanted`` largest finite losses (``wanted >= 1``)."""
        if not self.finite.any():
            return []
        lows = self.low[self.finite]
        threshold = float(np.partition(lows, len(lows) - wanted)[len(lows) - wanted]) if wanted < len(lows) else \
            float(lows.min())
        return _in_order(self.finite & (self.high >= threshold - _gap(threshold)))

    def first_infinite_partner(self, i: int) -> int | None:
        """The first ``j`` whose pair with ``i`` is infinite, or ``None``."""
        partners = np.flatnonzero(self.infinite[i])
        return int(partners[0]) if len(partners) else None

    def worst_partners(self, i: int) -> list[int]:
        """The ``j`` whose finite loss with ``i`` may be the largest of row ``i`` (empty when row ``i`` has no
        finite pair)."""
        if not self.finite[i].any():
            return []
        best = float(np.where(self.finite[i], self.low[i], -np.inf).max())
        return np.flatnonzero(self.finite[i] & (self.high[i] >= best - _gap(best))).tolist()

    def histogram(self, top: float, bins: int) -> tuple[list[int], list[tuple[int, int]]]:
        """``(counts, open_pairs)`` for the histogram of the finite losses in ``bins`` equal bins from 0 to ``top``
        (``> 0``; bin ``min(bins - 1, int(bins * loss / top))``, a monotone function of the loss): the count of
        each bin over the pairs whose bounds fall in one bin, and the pairs whose bounds straddle two, which the
        kernel places by their exact loss."""
        def bin_of(values):
            return np.minimum(bins - 1, np.trunc(bins * values / top)).astype(np.int64)
        low_bins, high_bins = bin_of(self.low), bin_of(self.high)
        settled = self.finite & (low_bins == high_bins)
        counts = np.bincount(low_bins[settled], minlength=bins)
        return [int(c) for c in counts], _in_order(self.finite & ~settled)

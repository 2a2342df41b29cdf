"""Estimators of the item distribution for any direct encoding: the empirical estimator, Norm-Sub, and the MLE.

A direct encoding reports one item for one item: ``Q(y|x)`` over the items ``0 .. d-1`` (rows: inputs). From ``n``
reports with ``n_y`` naming item ``y`` (``m_hat_y = n_y / n``), three estimates of the distribution ``p``:

* **empirical** (IPLDP preprint eq. (12); Kairouz, Bonawitz, Ramage 2016): ``p_hat = m_hat Q^{-1}``, unbiased, its
  entries sum to 1 and may be negative;
* **Norm-Sub** (Wang, Lopuhaa-Zwakenberg, Li, Skoric, Li, NDSS 2020): set the negative entries to 0, subtract the
  same amount from every positive entry so that they sum to 1, and repeat until no entry is negative;
* **MLE** (maximum likelihood over the simplex, which the preprint uses beside Norm-Sub) by EM, the iterative
  Bayesian update ``p_x <- p_x sum_y (n_y / n) Q(y|x) / (pQ)_y`` from the uniform vector, until the l1 change of an
  iteration is at most ``tolerance`` or ``max_iterations`` are done; the result says which. When the empirical
  estimate lies in the simplex it is the MLE itself (``m_hat`` maximises the likelihood over every output law, and
  the empirical estimate attains it).

GRR, uRR, KRR, URR and IPRR share a *column structure*: ``Q(y|x) = base_y + extra_y [y = x]`` (a report of ``y``
comes from anyone with ``base_y`` and from a holder of ``y`` with ``extra_y`` more). Then ``m_y = base_y + extra_y
p_y`` on the simplex, so

* the empirical estimate is ``(m_hat_y - base_y) / extra_y``;
* the log-likelihood ``sum_y n_y ln(base_y + extra_y p_y)`` is separable, and its maximiser over the simplex has a
  closed form (``mle``) when every ``extra_y > 0`` (each item reported more often by its holders than by anyone
  else, as by every registered mechanism): by the KKT conditions, ``p_y = max(t n_y - base_y / extra_y, 0)`` for the
  one ``t > 0`` that makes the entries sum to 1 (water-filling, exact). A channel written by hand may have
  ``extra_y < 0`` (its rows sum to 1, so every ``extra_y`` is the same ``1 - sum_y base_y``: a diagonal below the
  column's other entries); ``maximum_likelihood`` then answers with the empirical estimate when it lies in the
  simplex (it is the MLE), else with EM, and names which;
* an EM iteration (``em_np``) costs O(d) instead of O(d^2).

A channel, as these estimators see it, is a ``DirectChannel``, of one of two kinds that answer the same questions
(its size, rows, floats twin, reachable outputs, why it is not invertible, the work of an exact inverse, the
empirical estimate, the MLE, EM): a ``ColumnStructure`` (the O(d) forms above; the MLE in closed form) or a
``DirectMatrix``, any square matrix given by its rows (``Q^{-1}`` by exact elimination; the MLE by EM). The
functions of this module take a ``DirectChannel`` or the rows of a matrix, and ask the channel; none asks its kind.
``column_structure`` finds the structure of a matrix that has it.

The functions without ``_np`` are the plain reference (standard library and the kernel's exact numbers; EM in
floats); those with ``_np`` are their NumPy twins. ``DirectEncoding`` is the server side every registered direct
encoding shares (``Mechanism.direct_encoding``): counts of the reported items and the count estimator.
"""

from __future__ import annotations

import math
from abc import ABC, abstractmethod
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from functools import cached_property
from typing import ClassVar

import numpy as np

from ldpspec.reference.shared.estimators import CountEstimator, CountEstimatorTwin, item_counts
from ldpspec.reference.twin_sampling import count_items
from ldpspec.reference.validation import number_of_users, positive_integer, user_count
from ldpspec.spec import ZERO, Exact, InvalidParameter, to_decimal_string, value_text

NOT_INVERTIBLE = "the channel is not invertible: the empirical estimator needs an invertible direct encoding"


class NotInvertible(InvalidParameter):
    """The empirical estimator met a channel that is not invertible (``DirectChannel.singularity`` says why)."""


@dataclass(frozen=True)
class Singularity:
    """Why a direct encoding is not invertible: the column of item ``output`` is constant (``value`` for every
    input), or the two ``inputs`` have the same row (no count tells them apart); with neither, the rows are linearly
    dependent in another way."""

    output: int | None = None
    value: object = None
    inputs: tuple[int, int] | None = None


@dataclass(frozen=True)
class EMResult:
    """The MLE found by EM, and how the iteration ended (it never stops silently)."""

    estimate: Sequence
    iterations: int
    converged: bool  # the last iteration changed the estimate by at most the tolerance (l1)
    change: float  # the l1 change of the last iteration
    log_likelihood: float  # sum_y n_y ln (pQ)_y at the estimate
    why: str = ""  # why a channel with the column structure was not answered in closed form (empty for a matrix)
    method: ClassVar[str] = "EM"

    def to_json(self) -> dict:
        result = {"estimate": [float(v) for v in self.estimate], "iterations": self.iterations,
                  "converged": self.converged, "change": self.change, "log_likelihood": self.log_likelihood,
                  "method": self.method}
        return {**result, "closed_form": self.why} if self.why else result


@dataclass(frozen=True)
class EmpiricalMLE:
    """The empirical estimate when it lies in the simplex: then it is the MLE, exactly (``m_hat`` maximises the
    multinomial likelihood over every output law, and ``p_hat Q = m_hat``; ``Q`` is invertible, so no other ``p``
    attains it). ``ColumnStructure.maximum_likelihood`` answers with it where the closed form does not apply; ``why``
    says why not."""

    estimate: Sequence
    exact: bool = False  # exact numbers (written as decimal strings), else floats
    why: str = ""
    method: ClassVar[str] = "empirical estimate (it lies in the simplex, so it is the MLE)"
    converged: ClassVar[bool] = True

    def to_json(self) -> dict:
        numbers = [to_decimal_string(v) if self.exact else float(v) + 0.0 for v in self.estimate]  # + 0.0: no -0.0
        return {"estimate": numbers, "method": self.method, "closed_form": self.why}


@dataclass(frozen=True)
class ClosedFormMLE:
    """The MLE of a column-structured channel in closed form (``mle``, exact; ``mle_np``, floats). Nothing iterates:
    it has converged."""

    estimate: Sequence
    exact: bool = False  # exact numbers (written as decimal strings), else floats
    method: ClassVar[str] = "closed form (column structure)"
    converged: ClassVar[bool] = True

    def to_json(self) -> dict:
        numbers = [to_decimal_string(v) if self.exact else float(v) for v in self.estimate]
        return {"estimate": numbers, "method": self.method}


class DirectChannel(ABC):
    """A direct encoding's channel ``Q(y|x)`` over the items ``0 .. d-1`` (rows: inputs) as its estimators see it:
    the questions the estimate path asks, which each kind (``ColumnStructure``, ``DirectMatrix``) answers for
    itself. The ``_np`` answers are computed on the floats twin (``floats()``), the others exactly."""

    @property
    @abstractmethod
    def d(self) -> int:
        """The number of items."""

    @abstractmethod
    def rows(self) -> list[list]:
        """The matrix ``Q(y|x)``, one row per input."""

    def floats(self) -> DirectChannel:
        """The same channel, of the same kind, in float64 (NumPy arrays), made once: what the ``_np`` answers use."""
        return self._floats

    @cached_property
    def _floats(self) -> DirectChannel:
        twin = self._to_floats()
        twin.__dict__["_floats"] = twin  # a floats twin is its own
        return twin

    @abstractmethod
    def _to_floats(self) -> DirectChannel:
        """A new channel of the same kind in float64."""

    @abstractmethod
    def reachable(self) -> list[bool]:
        """For each output, whether some input reports it (in floats)."""

    @abstractmethod
    def evident_singularity(self) -> Singularity | None:
        """Why the channel is not invertible, when its form shows it before any inverse is tried (a column made
        constant by ``extra_y = 0``); ``None`` otherwise."""

    @abstractmethod
    def singularity(self) -> Singularity:
        """Why the channel is not invertible, once an inverse has failed."""

    @abstractmethod
    def inverse_work(self) -> int:
        """The steps of the exact empirical estimate, as a limit on work counts them (0 when it needs no inverse)."""

    @abstractmethod
    def empirical(self, counts: Sequence[int]) -> list:
        """Eq. (12) exactly (``NotInvertible`` if ``Q`` is singular)."""

    @abstractmethod
    def empirical_np(self, counts) -> np.ndarray:
        """Eq. (12) in floats."""

    @abstractmethod
    def maximum_likelihood(self, counts, tolerance: float = 1e-10, max_iterations: int = 100_000,
                           exact: bool = False) -> ClosedFormMLE | EMResult:
        """The MLE, by the channel's best method; the result names it (``method``) and says whether it converged.
        ``exact`` asks for exact numbers where the method has them."""

    @abstractmethod
    def _output_law(self, p: np.ndarray) -> np.ndarray:
        """``pQ`` (on the floats twin)."""

    @abstractmethod
    def _expected(self, w: np.ndarray) -> np.ndarray:
        """``Q w``: for each input, ``sum_y Q(y|x) w_y`` (on the floats twin)."""

    def em_np(self, counts, tolerance: float = 1e-10, max_iterations: int = 100_000) -> EMResult:
        """``em`` in NumPy, from the uniform vector: each iteration asks ``pQ`` and ``Q w`` of the floats twin."""
        tolerance, max_iterations = _em_limits(tolerance, max_iterations)
        q = self.floats()
        d = q.d
        counts = np.asarray(_counts(counts, d), dtype=float)
        w = counts / counts.sum()
        seen = counts > 0
        p = np.full(d, 1 / d)
        change, iterations = math.inf, 0
        while iterations < max_iterations and change > tolerance:
            ratio = np.divide(w, q._output_law(p), out=np.zeros(d), where=seen)
            new = p * q._expected(ratio)
            change = float(np.abs(new - p).sum())
            p, iterations = new, iterations + 1
        log_likelihood = float(counts[seen] @ np.log(q._output_law(p)[seen]))
        return EMResult(p, iterations, change <= tolerance, change, log_likelihood)


@dataclass(frozen=True)
class ColumnStructure(DirectChannel):
    """A direct encoding with ``Q(y|x) = base[y] + extra[y] * [y == x]``: O(d) answers, the MLE in closed form."""

    base: Sequence
    extra: Sequence

    def __post_init__(self):
        if len(self.base) != len(self.extra) or len(self.base) < 1:
            raise InvalidParameter(f"a column structure needs one base and one extra per item, got {len(self.base)} "
                                   f"bases and {len(self.extra)} extras")

    @property
    def d(self) -> int:
        return len(self.base)

    def rows(self) -> list:
        d = len(self.base)
        return [[self.base[y] + self.extra[y] if y == x else self.base[y] for y in range(d)] for x in range(d)]

    def _to_floats(self) -> ColumnStructure:
        done = {}  # one conversion per distinct object: a mechanism's items of one budget share theirs

        def floats(values):
            if isinstance(values, np.ndarray):
                return values.astype(float)
            result = []
            for v in values:
                if id(v) not in done:
                    done[id(v)] = (v, float(v))  # holding v keeps its id from being reused by another object
                result.append(done[id(v)][1])
            return np.array(result)

        return ColumnStructure(floats(self.base), floats(self.extra))

    def reachable(self) -> list[bool]:
        """``base_y + extra_y > 0`` (the holders of ``y`` report it) or ``base_y > 0`` (the others do: with ``extra_y
        < 0`` they may be the only ones)."""
        q = self.floats()
        return ((q.base + q.extra > 0) | ((q.base > 0) & (q.d > 1))).tolist()

    def evident_singularity(self) -> Singularity | None:
        """An item with ``extra_y = 0``: its column is ``base_y`` for every input (the only way a column structure
        whose rows sum to 1 is singular)."""
        y = next((y for y, e in enumerate(self.extra) if Exact.of(e).sign() == 0), None)
        return None if y is None else Singularity(output=y, value=Exact.of(self.base[y]))

    def singularity(self) -> Singularity:
        return self.evident_singularity() or Singularity()

    def inverse_work(self) -> int:
        """0: ``(m_hat_y - base_y) / extra_y`` inverts nothing."""
        return 0

    def empirical(self, counts: Sequence[int]) -> list:
        """``(m_hat_y - base_y) / extra_y`` (exact)."""
        if any(Exact.of(e).sign() == 0 for e in self.extra):
            raise NotInvertible(NOT_INVERTIBLE)
        counts = _counts(counts, self.d)
        n = sum(counts)
        return [(Exact.rational(c) / n - b) / e for c, b, e in zip(counts, self.base, self.extra)]

    def empirical_np(self, counts) -> np.ndarray:
        """``(m_hat - base) / extra`` in floats; ``counts`` may be a matrix with one row of counts per repetition."""
        q = self.floats()
        if np.ndim(counts) == 2:  # one row of counts per repetition
            counts = np.asarray(counts, dtype=float)
            return (counts / counts.sum(axis=1, keepdims=True) - q.base) / q.extra
        counts = np.asarray(_counts(counts, self.d), dtype=float)
        return (counts / counts.sum() - q.base) / q.extra

    def maximum_likelihood(self, counts, tolerance: float = 1e-10, max_iterations: int = 100_000,
                           exact: bool = False) -> ClosedFormMLE | EmpiricalMLE | EMResult:
        """The closed form, ``mle`` (exact) or ``mle_np`` (floats), with no iteration and so no tolerance, when every
        ``extra_y > 0``. Otherwise (a diagonal below its column's other entries) the documented fallbacks, which
        name themselves: the empirical estimate when it lies in the simplex (it is the MLE; exact with ``exact``),
        else EM (``em_np``, floats) from the uniform vector, whose result says why (``closed_form``)."""
        why = self.closed_form_refusal(exact)
        if why is None:
            return ClosedFormMLE(_mle(self, counts), exact=True) if exact else ClosedFormMLE(mle_np(self, counts))
        values = self.empirical(counts) if exact else self.empirical_np(counts)
        if all((v.sign() if exact else v) >= 0 for v in values):
            return EmpiricalMLE(values, exact, why)
        return replace(self.em_np(counts, tolerance, max_iterations), why=why)

    def closed_form_refusal(self, exact: bool = True) -> str | None:
        """Why the closed-form MLE does not apply, or ``None`` when it does: every ``extra_y > 0`` and ``base_y >=
        0``, decided exactly, or on the floats that ``mle_np`` computes with (``exact=False``: an exact sign is kept
        by the rounding, but a positive extra below the doubles' range is 0 there)."""
        if exact:
            ok = [Exact.of(e).sign() > 0 and Exact.of(b).sign() >= 0 for e, b in zip(self.extra, self.base)]
        else:
            q = self.floats()
            ok = ((q.extra > 0) & (q.base >= 0)).tolist()
        y = next((y for y, fine in enumerate(ok) if not fine), None)
        if y is None:
            return None
        return (f"not applicable: it needs each item's diagonal entry above the other entries of its column "
                f"(extra_y > 0 and base_y >= 0); item {y} has extra_y = {value_text(Exact.of(self.extra[y]))}")

    def _output_law(self, p):
        return self.base * p.sum() + self.extra * p

    def _expected(self, w):
        return self.base @ w + self.extra * w


@dataclass(frozen=True)
class DirectMatrix(DirectChannel):
    """Any direct encoding, given by the rows of its square matrix (nested sequences, or a 2-D array):
    ``Q^{-1}`` by exact elimination, the MLE by EM (O(d^2) an iteration)."""

    matrix: Sequence

    def __post_init__(self):
        try:
            d = len(self.matrix)
            square = d >= 2 and all(len(row) == d for row in self.matrix)
        except TypeError:  # a vector, or a number
            square = False
        if not square:
            raise InvalidParameter("a direct encoding is a square matrix Q(y|x) over d >= 2 items (rows: inputs)")

    @property
    def d(self) -> int:
        return len(self.matrix)

    def rows(self) -> list[list]:
        return [list(row) for row in self.matrix]

    def _to_floats(self) -> DirectMatrix:
        q = np.asarray(self.matrix, dtype=float)
        if q.ndim != 2:
            raise InvalidParameter("a direct encoding is a square matrix Q(y|x) over d >= 2 items (rows: inputs)")
        return DirectMatrix(q)

    def reachable(self) -> list[bool]:
        """A positive entry in the column."""
        return (self.floats().matrix > 0).any(axis=0).tolist()

    def evident_singularity(self) -> None:
        """``None``: an exact inverse, or a linear solve in floats, decides (``singularity`` then says why)."""
        return None

    def singularity(self) -> Singularity:
        """A constant column, else two equal rows (compared by their exact text, for entries of fewer than 1000
        bits), else linear dependence of another kind."""
        rows = [[Exact.of(v) for v in row] for row in self.matrix]
        for y, column in enumerate(zip(*rows)):
            if all(value == column[0] for value in column):
                return Singularity(output=y, value=column[0])
        seen = {}
        for x, row in enumerate(rows):
            key = tuple(value.text() for value in row) if all(value.bits() < 1000 for value in row) else None
            if key is not None and key in seen:
                return Singularity(inputs=(seen[key], x))
            seen.setdefault(key, x)
        return Singularity()

    def inverse_work(self) -> int:
        """d^3 for rational entries; 10^d for entries with exponentials, whose expressions grow with every
        elimination step."""
        d = self.d
        rational = all(Exact.of(value).as_rational() is not None for row in self.matrix for value in row)
        return d ** 3 if rational else 10 ** min(d, 100)

    def empirical(self, counts: Sequence[int]) -> list:
        """``m_hat Q^{-1}`` (exact); a matrix with the column structure is estimated in its O(d) form (exact
        elimination over many distinct exponentials is slow)."""
        structure = column_structure(self)
        if structure is not None:
            return structure.empirical(counts)
        inv = inverse(self)
        counts = _counts(counts, len(inv))
        n = sum(counts)
        return [sum((Exact.rational(counts[y]) / n * inv[y][x] for y in range(len(inv))), ZERO)
                for x in range(len(inv))]

    def empirical_np(self, counts) -> np.ndarray:
        """A linear solve of ``m_hat = p_hat Q`` (``NotInvertible`` if it finds ``Q`` singular)."""
        q = self.floats().matrix
        counts = np.asarray(_counts(counts, self.d), dtype=float)
        try:
            return np.linalg.solve(q.T, counts / counts.sum())
        except np.linalg.LinAlgError:
            raise NotInvertible(NOT_INVERTIBLE) from None

    def maximum_likelihood(self, counts, tolerance: float = 1e-10, max_iterations: int = 100_000,
                           exact: bool = False) -> EMResult:
        """EM (``em_np``), in floats whatever ``exact`` asks."""
        return self.em_np(counts, tolerance, max_iterations)

    def _output_law(self, p):
        return p @ self.matrix

    def _expected(self, w):
        return self.matrix @ w


class DirectEncoding(CountEstimator):
    """The server side of a direct encoding over the items ``0 .. d-1`` (``Mechanism.direct_encoding``): a report
    names one item, so the server counts the reports of each item, ``C_y``, and estimates the true counts with the
    count estimator (``CountEstimator``), where ``p_x`` is the probability that a holder of ``x`` reports ``x`` and
    ``q_x`` that anyone else does: ``base_x + extra_x`` and ``base_x`` of the column structure.

    A mechanism gives ``d``, ``structure()`` and ``report_probabilities()`` (``p`` and ``q`` as it computes them,
    one entry per item).
    """

    @abstractmethod
    def structure(self) -> ColumnStructure:
        """``Q(y|x) = base_y + extra_y [y = x]``: the form the estimators of this module use."""

    def counts(self, reports: Iterable[int]) -> list[int]:
        """``C_y``: how many reports name item ``y``."""
        return item_counts(reports, self.d, "a report")


class DirectEncodingTwin(CountEstimatorTwin):
    """The NumPy twin's side of ``DirectEncoding``: a report is one item, packed to the bits an item needs
    (``reference.twin_sampling.item_reports``); the counts of the reported items, and the count estimator in floats
    (``CountEstimatorTwin``). A mechanism's twin adds how its reports are drawn (``reports``, ``simulate_counts``)."""

    def __init__(self, mechanism: DirectEncoding):
        self.mechanism = mechanism
        self.d = mechanism.d
        self.dtype = np.min_scalar_type(self.d - 1)

    def outputs(self, reports) -> list[int]:
        return np.asarray(reports).tolist()

    def counts(self, reports) -> np.ndarray:
        """``C_y``: the number of reports naming item ``y``."""
        return count_items(reports, self.d)


def column_structure(rows) -> ColumnStructure | None:
    """The column structure of a square matrix given by its rows, when it has one: every column ``y`` constant off
    the diagonal (``base_y``), with ``extra_y = Q(y|y) - base_y``; ``None`` otherwise. Exact comparisons."""
    rows = _channel(rows).rows()
    d = len(rows)
    base, extra = [], []
    for y in range(d):
        off = [rows[x][y] for x in range(d) if x != y]
        if any(v != off[0] for v in off[1:]):
            return None
        base.append(off[0])
        extra.append(rows[y][y] - off[0])
    return ColumnStructure(base=base, extra=extra)


# --- checks shared by both kinds ------------------------------------------------------------------

def _channel(channel) -> DirectChannel:
    """What the functions below take: a ``DirectChannel`` as it is, or the rows of a square matrix (nested
    sequences, or a 2-D array) as their ``DirectMatrix``."""
    return channel if isinstance(channel, DirectChannel) else DirectMatrix(channel)


def _counts(counts, d: int) -> list[int]:
    if len(counts) != d:
        raise InvalidParameter(f"counts must have one entry per item ({d}), got {len(counts)}")
    values = [user_count(c, f"counts[{y}]") for y, c in enumerate(counts)]
    positive_integer(sum(values), "the total of the counts (the number of users n)")
    return values


def _em_limits(tolerance, max_iterations) -> tuple[float, int]:
    if isinstance(tolerance, bool) or not isinstance(tolerance, (int, float)) or not 0 < tolerance < math.inf:
        raise InvalidParameter(f"tolerance must be a finite number > 0, got {value_text(tolerance)}")
    return float(tolerance), positive_integer(max_iterations, "max_iterations")


# --- the plain reference --------------------------------------------------------------------------

def inverse(channel) -> list[list]:
    """``Q^{-1}`` by Gauss-Jordan elimination in exact arithmetic (``NotInvertible`` if ``Q`` is singular)."""
    rows = _channel(channel).rows()
    d = len(rows)
    a = [[Exact.of(v) for v in row] + [Exact.rational(int(i == j)) for j in range(d)] for i, row in enumerate(rows)]
    for col in range(d):
        pivot = next((i for i in range(col, d) if a[i][col].sign() != 0), None)
        if pivot is None:
            raise NotInvertible(NOT_INVERTIBLE)
        a[col], a[pivot] = a[pivot], a[col]
        lead = a[col][col]
        a[col] = [v / lead for v in a[col]]
        for i in range(d):
            if i != col and a[i][col].sign() != 0:
                factor = a[i][col]
                a[i] = [v - factor * w for v, w in zip(a[i], a[col])]
    return [row[d:] for row in a]


def empirical(channel, counts: Sequence[int]) -> list:
    """Eq. (12): ``p_hat = m_hat Q^{-1}`` with ``m_hat_y = n_y / n`` (exact), as the channel computes it
    (``DirectChannel.empirical``: O(d) for a column structure, found in a matrix that has one)."""
    return _channel(channel).empirical(counts)


def empirical_moments(channel, p: Sequence, n: int) -> tuple[list, object]:
    """The exact variance of every entry of (12), and the expected squared l2 loss, when ``n`` users' items are
    drawn i.i.d. from ``p`` (the preprint's Sec. 3.1): the counts are multinomial with ``m = pQ``, so
    ``Cov(p_hat) = Q^{-T} (diag(m) - m m^T) Q^{-1} / n`` and ``E l2 = (sum_y m_y |row y of Q^{-1}|^2 - |p|^2) / n``.
    (The estimate is unbiased: its mean is ``p``.)"""
    rows = _channel(channel).rows()
    inv = inverse(rows)
    n = number_of_users(n)
    d = len(rows)
    p = [Exact.of(v, f"p[{x}]") for x, v in enumerate(p)]
    m = [sum((p[x] * Exact.of(rows[x][y]) for x in range(d)), ZERO) for y in range(d)]
    variances = [(sum((m[y] * inv[y][x] * inv[y][x] for y in range(d)), ZERO) - p[x] * p[x]) / n for x in range(d)]
    return variances, sum(variances, ZERO)


def norm_sub(values: Sequence, total=1) -> list:
    """Norm-Sub of an estimate whose entries should sum to ``total``, by the cited procedure (exact)."""
    v = [Exact.of(value, f"values[{k}]") for k, value in enumerate(values)]
    while True:
        v = [x if x.sign() > 0 else ZERO for x in v]
        positive = [k for k, x in enumerate(v) if x.sign() > 0]
        if not positive:
            raise InvalidParameter("Norm-Sub needs an estimate with a positive entry")
        delta = (sum((v[k] for k in positive), ZERO) - total) / len(positive)
        for k in positive:
            v[k] = v[k] - delta
        if all(x.sign() >= 0 for x in v):
            return v


def em(channel, counts: Sequence[int], tolerance: float = 1e-10, max_iterations: int = 100_000) -> EMResult:
    """The MLE of ``p`` by EM (floats), from the uniform vector, on the channel's matrix (its ``rows()``)."""
    tolerance, max_iterations = _em_limits(tolerance, max_iterations)
    q = [[float(v) for v in row] for row in _channel(channel).rows()]
    d = len(q)
    counts = _counts(counts, d)
    n = sum(counts)
    p = [1 / d] * d
    change, iterations = math.inf, 0
    while iterations < max_iterations and change > tolerance:
        m = [sum(p[x] * q[x][y] for x in range(d)) for y in range(d)]
        ratio = [counts[y] / n / m[y] if counts[y] else 0.0 for y in range(d)]
        new = [p[x] * sum(q[x][y] * ratio[y] for y in range(d)) for x in range(d)]
        change = sum(abs(a - b) for a, b in zip(new, p))
        p, iterations = new, iterations + 1
    m = [sum(p[x] * q[x][y] for x in range(d)) for y in range(d)]
    log_likelihood = sum(c * math.log(m[y]) for y, c in enumerate(counts) if c)
    return EMResult(p, iterations, change <= tolerance, change, log_likelihood)


def _water_level(counts, offsets):
    """``[max(t n_y - c_y, 0)]`` summing to 1: the positive entries are the items with the smallest ``c_y / n_y``
    (``n_y > 0``), and ``t = (1 + sum_P c_y) / sum_P n_y`` over them."""
    order = sorted((y for y, n in enumerate(counts) if n > 0), key=lambda y: offsets[y] / counts[y])
    chosen, level = [], None
    for k, y in enumerate(order):
        chosen.append(y)
        level = (1 + sum(offsets[z] for z in chosen)) / sum(counts[z] for z in chosen)
        following = order[k + 1] if k + 1 < len(order) else None
        if following is None or level * counts[following] <= offsets[following]:
            break
    return [level * counts[y] - offsets[y] if y in set(chosen) else 0 * level for y in range(len(counts))]


def mle(structure: ColumnStructure, counts: Sequence[int]) -> list:
    """The MLE of ``p`` over the simplex for a column-structured channel, in closed form (exact)."""
    refusal = structure.closed_form_refusal()
    if refusal is not None:
        raise InvalidParameter(f"mle: the closed form is {refusal}; ColumnStructure.maximum_likelihood answers such "
                               "a channel")
    return _mle(structure, counts)


def _mle(structure: ColumnStructure, counts: Sequence[int]) -> list:
    """``mle`` once its condition is known to hold (each extra's sign is decided once: with exponentials that is
    most of the work)."""
    counts = _counts(counts, len(structure.base))
    offsets = [Exact.of(b) / Exact.of(e) for b, e in zip(structure.base, structure.extra)]
    return [Exact.of(v) for v in _water_level([Exact.rational(c) for c in counts], offsets)]


# --- the NumPy twins ------------------------------------------------------------------------------

def empirical_np(channel, counts) -> np.ndarray:
    """Eq. (12) in floats, as the channel computes it (``DirectChannel.empirical_np``): ``(m_hat - base) / extra``
    for a ``ColumnStructure`` (also for a matrix of counts, one row per repetition), a linear solve for a matrix."""
    return _channel(channel).empirical_np(counts)


def norm_sub_np(values, total: float = 1.0) -> np.ndarray:
    """Norm-Sub in floats, in closed form: the procedure ends at ``max(v - delta, 0)`` for the ``delta >= 0`` that
    makes the sum ``total`` when the positive entries sum to more than ``total``; otherwise at the positive entries
    each raised by the same amount (a test ties this to the step-by-step procedure)."""
    v = np.asarray(values, dtype=float)
    positive = np.maximum(v, 0.0)
    if not np.any(positive > 0):
        raise InvalidParameter("Norm-Sub needs an estimate with a positive entry")
    if positive.sum() <= total:
        return np.where(positive > 0, positive + (total - positive.sum()) / np.count_nonzero(positive), 0.0)
    ordered = np.sort(positive)[::-1]
    level = (np.cumsum(ordered) - total) / np.arange(1, len(ordered) + 1)
    kept = np.count_nonzero(ordered > level)  # the survivors are the largest entries
    return np.maximum(positive - level[kept - 1], 0.0)


def mle_np(structure: ColumnStructure, counts) -> np.ndarray:
    """``mle`` in floats, in O(d log d); ``counts`` may be a matrix with one row of counts per repetition (the result
    has its shape). Water-filling: the items enter the support in decreasing order of ``n_y extra_y / base_y``."""
    twin = structure.floats()
    base, extra = twin.base, twin.extra
    counts = np.asarray(counts, dtype=float)
    rows = np.atleast_2d(counts)
    if rows.ndim != 2 or rows.shape[1] != len(base):
        raise InvalidParameter(f"counts must have one entry per item ({len(base)}), or be one such row per repetition")
    if np.any(rows < 0) or np.any(rows != np.floor(rows)) or np.any(rows.sum(axis=1) <= 0):
        raise InvalidParameter("counts must be non-negative integers with a positive total in every row")
    if np.any(extra <= 0) or np.any(base < 0):
        raise InvalidParameter(f"mle_np: the closed form is {structure.closed_form_refusal(exact=False)}; "
                               "ColumnStructure.maximum_likelihood answers such a channel")
    offset = np.broadcast_to(base / extra, rows.shape)
    with np.errstate(divide="ignore"):
        threshold = np.where(rows > 0, np.where(offset > 0, rows / np.where(offset > 0, offset, 1), np.inf), 0.0)
    order = np.argsort(-threshold, axis=1, kind="stable")
    level = (np.cumsum(np.take_along_axis(rows, order, 1), axis=1)
             / (1 + np.cumsum(np.take_along_axis(offset, order, 1), axis=1)))  # 1 / t for the first k items
    inside = np.take_along_axis(threshold, order, 1) > level
    active = rows.shape[1] - np.argmax(inside[:, ::-1], axis=1)  # the last item inside, plus one
    chosen = level[np.arange(len(rows)), active - 1][:, None]
    rank = np.argsort(order, axis=1)
    p = np.where(rank < active[:, None], np.maximum(rows / chosen - offset, 0.0), 0.0)
    p /= p.sum(axis=1, keepdims=True)  # the entries sum to 1 up to rounding
    return p.reshape(counts.shape)


def em_np(channel, counts, tolerance: float = 1e-10, max_iterations: int = 100_000) -> EMResult:
    """``em`` in NumPy (``DirectChannel.em_np``): O(d) per iteration for a ``ColumnStructure``, O(d^2) for a
    matrix."""
    return _channel(channel).em_np(counts, tolerance, max_iterations)

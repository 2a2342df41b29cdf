"""The count estimator shared by the direct encodings (GRR, uRR, IPRR), unary encoding, IDUE and IDUE-PS, and its
variance; and the mean of numerical releases (Laplace, PM).

A mechanism reports item ``i`` (GRR) or sets bit ``i`` (unary encoding) with
probability ``p_i`` when ``i`` is the user's item and ``q_i`` otherwise. With
``C_i`` the number of such reports among ``n`` users (Wang et al. 2017, cited by
Gu et al. in Sec. III-C; Gu et al. eq. (7) for per-bit parameters):

    c_hat_i = (C_i - n q_i) / (p_i - q_i)

In the fixed-population model ``C_i`` is a sum of ``c_i`` Bernoulli(``p_i``)
and ``n - c_i`` Bernoulli(``q_i``) variables, so (Gu et al. eq. (8); the
derivation is on the documentation's page "Unary encoding")

    Var[c_hat_i] = n q_i (1 - q_i) / (p_i - q_i)^2 + c_i (1 - p_i - q_i) / (p_i - q_i).

The functions are plain arithmetic: they take floats, Fractions or kernel
numbers alike, so the audit can evaluate them exactly. Each takes what it needs
as arguments (the counts, ``n``, each item's ``p`` and ``q``, the true counts),
so a mechanism says explicitly what its counts are and what its users hold.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable, Sequence

from ldpspec.reference.validation import item_index, number_of_users
from ldpspec.spec import Exact, InvalidParameter, value_text


def _any_equal(p, q) -> bool:
    equal = p == q
    return bool(equal.any()) if hasattr(equal, "any") else bool(equal)  # arrays from the NumPy twin, or numbers


def count_estimate(support_count, n, p, q):
    """``(C - n q) / (p - q)``: the unbiased estimate of a true count (needs ``p != q``)."""
    if _any_equal(p, q):
        raise InvalidParameter("the estimator needs p != q: a mechanism with p = q reveals nothing about the count")
    return (support_count - n * q) / (p - q)


def count_variance(n, true_count, p, q):
    """``Var[c_hat] = n q (1 - q) / (p - q)^2 + c (1 - p - q) / (p - q)`` for a true count ``c`` of ``n`` users."""
    per_user, per_holder = variance_terms(p, q)
    return n * per_user + true_count * per_holder


def variance_terms(p, q) -> tuple:
    """The two coefficients of the variance: ``(q (1 - q) / (p - q)^2, (1 - p - q) / (p - q))``.

    ``Var[c_hat] = n * first + c * second``: only the second term depends on the true count.
    """
    if _any_equal(p, q):
        raise InvalidParameter("the variance needs p != q")
    return q * (1 - q) / (p - q) ** 2, (1 - p - q) / (p - q)


def count_estimates(counts: Sequence, n, p: Sequence, q: Sequence) -> list:
    """``c_hat_i = (C_i - n q_i) / (p_i - q_i)`` for every item ``i`` (exact for exact inputs), from ``C_i``, the
    reports that count for item ``i``."""
    if len(counts) != len(p):
        raise InvalidParameter(f"counts must have one entry per item ({len(p)}), got {len(counts)}")
    number_of_users(n)
    return [count_estimate(c, n, p_i, q_i) for c, p_i, q_i in zip(counts, p, q)]


def count_variances(true_counts: Sequence[int], p: Sequence, q: Sequence) -> list:
    """``Var[c_hat_i]`` for every item, for users whose true counts are ``true_counts`` (``n`` is their sum). The
    coefficients of each distinct ``(p_i, q_i)`` (the same objects: a level's items share theirs) are computed once,
    so 10^5 items in 3 levels take 3 divisions."""
    if len(true_counts) != len(p):
        raise InvalidParameter(f"true_counts must have one entry per item ({len(p)}), got {len(true_counts)}")
    n = sum(true_counts)
    terms = {}
    variances = []
    for c, p_i, q_i in zip(true_counts, p, q):
        key = (id(p_i), id(q_i))
        if key not in terms:
            terms[key] = (p_i, q_i, variance_terms(p_i, q_i))  # holding p_i and q_i keeps their ids from reuse
        per_user, per_holder = terms[key][2]
        variances.append(n * per_user + c * per_holder)
    return variances


def bit_counts(reports: Iterable, bits: int) -> list[int]:
    """``C_k``: how many of ``reports`` (each a vector of ``bits`` bits, checked) have bit ``k`` set."""
    counts = [0] * bits
    for report in reports:
        if len(report) != bits or any(bit not in (0, 1) for bit in report):
            raise InvalidParameter(f"a report must be {bits} bits (0 or 1), got {value_text(report)}"[:300])
        counts = [c + bit for c, bit in zip(counts, report)]
    return counts


def item_counts(items: Iterable[int], d: int, name: str) -> list[int]:
    """How many of ``items`` name each item of ``0 .. d-1`` (``name`` says what they are: reports, or users'
    items), each checked."""
    counts = [0] * d
    for item in items:
        counts[item_index(item, d, name)] += 1
    return counts


class CountEstimator(ABC):
    """The server side of a mechanism whose users hold one item each of ``0 .. d-1`` and whose counts ``C_x``, one
    per item, are estimated with the count estimator: a user's report counts for ``x`` with probability ``p_x`` when
    the user holds ``x`` and ``q_x`` otherwise (``report_probabilities``). The estimate, its exact variance and its
    exact moments follow from ``(p, q)`` and the users' items, which it counts as inputs (never through ``counts``,
    which counts reports). A mechanism gives ``d``, ``report_probabilities()`` and its own ``counts``; the registry's
    tests enumerate the moments from the exact channel, so a mechanism these do not fit fails there."""

    d: int

    @abstractmethod
    def report_probabilities(self) -> tuple[Sequence, Sequence]:
        """``(p, q)``, one entry per item: the probabilities that a report counts for ``x`` from a holder of ``x``
        and from anyone else."""

    def estimate(self, counts: Sequence[int], n: int) -> list:
        """``c_hat_x = (C_x - n q_x) / (p_x - q_x)`` for every item (exact)."""
        return count_estimates(counts, n, *self.report_probabilities())

    def variance(self, true_counts: Sequence[int]) -> tuple[list, object]:
        """Per-item variances of the estimates and their total, exactly, for the given true counts."""
        per_item = count_variances(true_counts, *self.report_probabilities())
        return per_item, sum(per_item)

    def estimate_moments(self, items: Sequence[int]) -> tuple[list, list]:
        """Exact mean (the true counts: the estimator is unbiased) and variance of every estimate, for users holding
        ``items``."""
        true_counts = item_counts(items, self.d, "a user's item")
        return [Exact.rational(c) for c in true_counts], self.variance(true_counts)[0]


class CountEstimatorTwin:
    """The NumPy twin's side of ``CountEstimator``: the plain reference's estimates from the same counts, in floats.
    A twin holds its plain reference as ``mechanism``."""

    mechanism: CountEstimator

    def estimate(self, counts, n: int):
        """``c_hat_x = (C_x - n q_x) / (p_x - q_x)`` for every item, in floats."""
        import numpy as np

        number_of_users(n)
        p, q = (doubles(values) for values in self.mechanism.report_probabilities())
        return count_estimate(np.asarray(counts, dtype=float), n, p, q)


def doubles(values: Sequence):
    """Exact numbers as a float64 array, each distinct object converted once (a mechanism's items share a few
    values)."""
    import numpy as np

    converted: dict = {}
    return np.array([converted.setdefault(id(value), float(value)) for value in values])


def mean_moments(moments: Sequence[tuple]) -> tuple[list, list]:
    """``([E m*], [Var m*])`` of ``m* = (1/n) sum_u T_u`` for independent terms with ``(E T_u, Var T_u) =
    moments[u]``: ``(1/n) sum E T_u`` and ``(1/n^2) sum Var T_u``, exactly."""
    n = number_of_users(len(moments), "the number of users")
    return ([sum((mean for mean, _ in moments), Exact.rational(0)) / n],
            [sum((variance for _, variance in moments), Exact.rational(0)) / (n * n)])


class MeanOfReleases(ABC):
    """The server side of a mechanism whose release ``y`` is a number with ``E[y | v] = v`` (Laplace, PM): the mean
    of the releases estimates the mean of the inputs (``Mechanism.statistic = "sum"``).

    A mechanism provides ``grid`` (the numbers its exact channel is computed on), ``density(v)``: the exact density
    of the release for the input ``v`` (``spec.continuous.Density``), and ``release_moments(v)``: the exact
    ``(E[y | v], Var[y | v])`` of one release, in closed form (the tests tie them to the densities).
    """

    grid: tuple

    @abstractmethod
    def density(self, v):
        """The density of the release for the input ``v``."""

    @abstractmethod
    def release_moments(self, v) -> tuple:
        """The exact mean and variance of one release for the input ``v``."""

    def channel(self, max_entries: int | None = None):
        """The exact channel: inputs the grid's numbers (labelled by their text), one density each."""
        from ldpspec.spec import PiecewiseChannel

        return PiecewiseChannel(tuple(v.text() for v in self.grid),
                                {v.text(): {None: self.density(v)} for v in self.grid})

    def label(self, release: float, channel) -> object:
        """The output (cell) of the exact channel that holds the release ``y``."""
        return channel.output_at(None, float(release))

    def counts(self, releases: Iterable[float]) -> list[float]:
        """``[sum of the releases]`` (correctly rounded: ``math.fsum``)."""
        import math

        return [math.fsum(float(y) for y in releases)]

    def estimate(self, counts: Sequence[float], n: int) -> list:
        """``[m*] = [sum / n]``, exactly for the given sum."""
        from ldpspec.spec import exact_number

        n = number_of_users(n)
        if len(counts) != 1:
            raise InvalidParameter(f"counts must be [sum of the releases], got {value_text(list(counts))}")
        return [exact_number(counts[0], "the sum of the releases") / n]

    def estimate_moments(self, inputs: Sequence) -> tuple[list, list]:
        """Exact mean and variance of ``m*``: ``(1/n) sum E[y | v]`` and ``(1/n^2) sum Var[y | v]`` (independent
        users)."""
        return mean_moments([self.release_moments(v) for v in inputs])


class MeanOfReleasesTwin:
    """The twin's side of ``MeanOfReleases``: reports are the releases (float64)."""

    def outputs(self, reports) -> list[float]:
        import numpy as np

        return np.asarray(reports, dtype=np.float64).tolist()

    def counts(self, reports):
        import numpy as np

        return np.array([float(np.sum(reports, dtype=np.float64))])

    def estimate(self, counts, n: int):
        import numpy as np

        n = number_of_users(n)
        return np.array([counts[0] / n])

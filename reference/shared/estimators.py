"""The count estimator shared by GRR, unary encoding, IDUE and IDUE-PS, and its variance; and the mean of numerical
releases (Laplace, PM).

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
numbers alike, so the audit can evaluate them exactly.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from ldpspec.reference.validation import item_index, positive_integer
from ldpspec.spec.errors import InvalidParameter
from ldpspec.spec.exact import Exact


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


class ItemCountEstimator:
    """The server side of a mechanism that reports one item (GRR, uRR, IPRR): the count of each reported item, and
    the count estimator above with each item's own ``(p, q)``.

    A subclass has ``d`` and ``report_probabilities()``: the lists ``p`` and ``q``, one entry per item, where ``p_x``
    is the probability that a holder of ``x`` reports ``x`` and ``q_x`` that anyone else does.
    """

    d: int

    def report_probabilities(self) -> tuple[Sequence, Sequence]:
        raise NotImplementedError

    def counts(self, reports: Iterable[int]) -> list[int]:
        """``C_y``: how many reports name item ``y``."""
        counts = [0] * self.d
        for report in reports:
            counts[item_index(report, self.d, "a report")] += 1
        return counts

    def estimate(self, counts: Sequence[int], n: int) -> list:
        """``c_hat_x = (C_x - n q_x) / (p_x - q_x)`` for every item (exact)."""
        if len(counts) != self.d:
            raise InvalidParameter(f"counts must have one entry per item ({self.d}), got {len(counts)}")
        positive_integer(n, "n (the number of users)")
        p, q = self.report_probabilities()
        return [count_estimate(c, n, pc, qc) for c, pc, qc in zip(counts, p, q)]

    def variance(self, true_counts: Sequence[int]) -> tuple[list, object]:
        """Per-item variances of the estimates and their total, for the given true counts (exact)."""
        if len(true_counts) != self.d:
            raise InvalidParameter(f"true_counts must have one entry per item ({self.d}), got {len(true_counts)}")
        n = sum(true_counts)
        p, q = self.report_probabilities()
        per_item = [count_variance(n, c, pc, qc) for c, pc, qc in zip(true_counts, p, q)]
        return per_item, sum(per_item)

    def estimate_moments(self, items: Sequence[int]) -> tuple[list, list]:
        """Exact mean (the true counts: the estimator is unbiased) and variance of every estimate."""
        true_counts = self.counts(items)
        return [Exact.rational(c) for c in true_counts], self.variance(true_counts)[0]


def mean_moments(moments: Sequence[tuple]) -> tuple[list, list]:
    """``([E m*], [Var m*])`` of ``m* = (1/n) sum_u T_u`` for independent terms with ``(E T_u, Var T_u) =
    moments[u]``: ``(1/n) sum E T_u`` and ``(1/n^2) sum Var T_u``, exactly."""
    n = positive_integer(len(moments), "the number of users")
    return ([sum((mean for mean, _ in moments), Exact.rational(0)) / n],
            [sum((variance for _, variance in moments), Exact.rational(0)) / (n * n)])


class MeanOfReleases:
    """The server side of a mechanism whose release ``y`` is a number with ``E[y | v] = v`` (Laplace, PM): the mean
    of the releases estimates the mean of the inputs (``Mechanism.statistic = "sum"``).

    A mechanism provides ``release_moments(v)``: the exact ``(E[y | v], Var[y | v])`` of one release, in closed form
    (the tests tie them to the exact channel's densities), and ``channel()`` on a grid of inputs.
    """

    def release_moments(self, v) -> tuple:
        raise NotImplementedError

    def label(self, release: float, channel) -> object:
        """The output (cell) of the exact channel that holds the release ``y``."""
        return channel.output_at(None, float(release))

    def counts(self, releases: Iterable[float]) -> list[float]:
        """``[sum of the releases]`` (correctly rounded: ``math.fsum``)."""
        import math

        return [math.fsum(float(y) for y in releases)]

    def estimate(self, counts: Sequence[float], n: int) -> list:
        """``[m*] = [sum / n]``, exactly for the given sum."""
        from ldpspec.spec.numbers import exact

        n = positive_integer(n, "n (the number of users)")
        if len(counts) != 1:
            raise InvalidParameter(f"counts must be [sum of the releases], got {list(counts)!r}")
        return [exact(counts[0], "the sum of the releases") / n]

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

        n = positive_integer(n, "n (the number of users)")
        return np.array([counts[0] / n])

"""The count estimator shared by GRR, unary encoding, IDUE and IDUE-PS, and its variance.

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

from ldpspec.spec.errors import InvalidParameter


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

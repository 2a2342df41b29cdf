"""Generalised randomised response (GRR, k-RR, direct encoding); formula sheet common §6.

With ``d`` items and ``E = e^eps``, the user reports the true item with
probability ``p = E / (E + d - 1)`` and each other item with ``q = 1 / (E + d - 1)``,
so that ``p + (d - 1) q = 1`` and ``p / q = E``. The server counts the reports
of each item and estimates with ``ldpspec.reference.shared.estimators``.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence

from ldpspec.reference.validation import domain_size, item_index
from ldpspec.reference.shared.estimators import count_estimate, count_variance
from ldpspec.spec.channel import Channel
from ldpspec.spec.errors import InvalidParameter
from ldpspec.spec.numbers import budget, ctx


def grr_probabilities(E, d: int) -> tuple:
    """``(p, q)`` of GRR over ``d`` items at ``E = e^eps`` (common §6)."""
    return E / (E + d - 1), 1 / (E + d - 1)


def grr_rows(E, d: int) -> list:
    """The GRR matrix over items ``0 .. d-1``: ``P[y|x] = p`` if ``y = x``, else ``q``."""
    p, q = grr_probabilities(E, d)
    return [[p if x == y else q for y in range(d)] for x in range(d)]


def grr_exact_probabilities(epsilon, d: int) -> tuple:
    """``(p, q)`` as kernel numbers, for any budget (no overflow)."""
    return grr_probabilities(ctx.exp(budget(epsilon, "epsilon")), domain_size(d))


def grr_channel(epsilon, d: int) -> Channel:
    """The exact GRR channel on items ``0 .. d-1``."""
    eps = budget(epsilon, "epsilon")
    return Channel(range(domain_size(d)), range(d), grr_rows(ctx.exp(eps), d))


def grr_perturb(item: int, epsilon, d: int, rng: random.Random) -> int:
    """One user's report: the true item with probability ``p``, else one of the other ``d - 1`` uniformly."""
    p, _ = (float(v) for v in grr_exact_probabilities(epsilon, d))
    item_index(item, d)
    if rng.random() < p:
        return item
    other = rng.randrange(d - 1)
    return other + (other >= item)  # skip the true item


def grr_counts(reports: Iterable[int], d: int) -> list[int]:
    """``C_i``: how many reports name item ``i``."""
    counts = [0] * domain_size(d)
    for report in reports:
        counts[item_index(report, d, "report")] += 1
    return counts


def grr_estimate(counts: Sequence[int], n: int, epsilon, d: int) -> list[float]:
    """``c_hat_i = (C_i - n q) / (p - q)`` for every item, from the report counts ``C``."""
    p, q = (float(v) for v in grr_exact_probabilities(epsilon, d))
    if len(counts) != d:
        raise InvalidParameter(f"counts must have one entry per item ({d}), got {len(counts)}")
    return [count_estimate(c, n, p, q) for c in counts]


def grr_variance(true_counts: Sequence[int], epsilon, d: int) -> tuple[list, object]:
    """Per-item variances of the estimates and their total, for the given true counts (exact numbers)."""
    p, q = grr_exact_probabilities(epsilon, d)
    if len(true_counts) != d:
        raise InvalidParameter(f"true_counts must have one entry per item ({d}), got {len(true_counts)}")
    n = sum(true_counts)
    per_item = [count_variance(n, c, p, q) for c in true_counts]
    return per_item, sum(per_item)

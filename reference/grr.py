"""Generalised randomised response (GRR, k-RR, direct encoding); formula sheet common §6.

With ``d`` items and ``E = e^eps``, the user reports the true item with
probability ``p = E / (E + d - 1)`` and each other item with ``q = 1 / (E + d - 1)``,
so that ``p + (d - 1) q = 1`` and ``p / q = E``.
"""

from __future__ import annotations

from spec.channel import Channel
from spec.errors import InvalidParameter
from spec.numbers import budget, ctx


def grr_probabilities(E, d: int) -> tuple:
    """``(p, q)`` of GRR over ``d`` items at ``E = e^eps`` (common §6)."""
    return E / (E + d - 1), 1 / (E + d - 1)


def grr_rows(E, d: int) -> list:
    """The GRR matrix over items ``0 .. d-1``: ``P[y|x] = p`` if ``y = x``, else ``q``."""
    p, q = grr_probabilities(E, d)
    return [[p if x == y else q for y in range(d)] for x in range(d)]


def grr_channel(epsilon, d: int) -> Channel:
    """The exact GRR channel on items ``0 .. d-1``."""
    eps = budget(epsilon, "epsilon")
    if not isinstance(d, int) or isinstance(d, bool) or d < 2:
        raise InvalidParameter(f"d (domain size) must be an integer >= 2, got {d!r}")
    return Channel(range(d), range(d), grr_rows(ctx.exp(eps), d))

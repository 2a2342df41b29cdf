"""Unary encoding (UE): basic RAPPOR / SUE and OUE; formula sheet common §7.

Item ``i`` of ``d`` becomes the one-hot vector ``e_i``; every bit is then
flipped independently: a 1-bit stays 1 with probability ``p``, a 0-bit becomes
1 with probability ``q``. The user releases the whole vector, so the channel is
a product of independent bits (``spec.structured.IndependentBits``).

Parameters are given as ``UnaryBits(p, q, not_p, not_q)`` with ``not_p = 1 - p``
and ``not_q = 1 - q`` written without a subtraction where the mechanism allows
it, so that large budgets keep every digit (``1 - p`` rounds to 0 once ``p`` is
within the working precision of 1).
"""

from __future__ import annotations

from fractions import Fraction
from typing import NamedTuple

from spec.errors import InvalidParameter
from spec.numbers import budget, ctx, probability
from spec.structured import IndependentBits


class UnaryBits(NamedTuple):
    """The flip probabilities of unary encoding."""

    p: object      # P[1 | true bit 1]
    q: object      # P[1 | true bit 0]
    not_p: object  # 1 - p
    not_q: object  # 1 - q


def sue_probabilities(s) -> UnaryBits:
    """Basic RAPPOR / SUE at ``s = e^{eps/2}``: ``p = s / (s + 1)``, ``q = 1 / (s + 1)`` (so ``1 - p = q``)."""
    p, q = s / (s + 1), 1 / (s + 1)
    return UnaryBits(p, q, q, p)


def oue_probabilities(E) -> UnaryBits:
    """OUE at ``E = e^eps``: ``p = 1/2``, ``q = 1 / (E + 1)`` (so ``1 - q = E / (E + 1)``)."""
    half = Fraction(1, 2)
    return UnaryBits(half, 1 / (E + 1), half, E / (E + 1))


def general_unary_probabilities(p, q) -> UnaryBits:
    """Any ``(p, q)``; the complements are computed as ``1 - p`` and ``1 - q``."""
    return UnaryBits(p, q, 1 - p, 1 - q)


def unary_bit_distributions(bits: UnaryBits, d: int) -> dict:
    """``(P[bit k = 0 | i], P[bit k = 1 | i])``: ``(1 - p, p)`` on the item's own bit, ``(1 - q, q)`` elsewhere."""
    own, other = (bits.not_p, bits.p), (bits.not_q, bits.q)
    return {i: tuple(own if k == i else other for k in range(d)) for i in range(d)}


def _domain_size(d) -> int:
    if not isinstance(d, int) or isinstance(d, bool) or d < 2:
        raise InvalidParameter(f"d (domain size) must be an integer >= 2, got {d!r}")
    return d


def unary_channel(bits: UnaryBits, d: int) -> IndependentBits:
    """The exact UE channel over ``d`` items."""
    d = _domain_size(d)
    checked = UnaryBits(*(probability(value, name) for value, name in zip(bits, UnaryBits._fields)))
    return IndependentBits(range(d), unary_bit_distributions(checked, d))


def sue_channel(epsilon, d: int) -> IndependentBits:
    """Basic RAPPOR / SUE over ``d`` items."""
    eps = budget(epsilon, "epsilon")
    return unary_channel(sue_probabilities(ctx.exp(eps / 2)), d)


def oue_channel(epsilon, d: int) -> IndependentBits:
    """OUE over ``d`` items."""
    eps = budget(epsilon, "epsilon")
    return unary_channel(oue_probabilities(ctx.exp(eps)), d)

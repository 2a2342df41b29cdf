"""Unary encoding (UE): basic RAPPOR / SUE and OUE; formula sheet common §7.

Item ``i`` of ``d`` becomes the one-hot vector ``e_i``; every bit is then
flipped independently: a 1-bit stays 1 with probability ``p``, a 0-bit becomes
1 with probability ``q``. The user releases the whole vector, so the channel is
a product of independent bits (``spec.structured.IndependentBits``).
"""

from __future__ import annotations

from fractions import Fraction

from spec.errors import InvalidParameter
from spec.numbers import budget, ctx, probability
from spec.structured import IndependentBits


def sue_probabilities(s) -> tuple:
    """Basic RAPPOR / SUE at ``s = e^{eps/2}``: ``p = s / (s + 1)``, ``q = 1 / (s + 1)``."""
    return s / (s + 1), 1 / (s + 1)


def oue_probabilities(E) -> tuple:
    """OUE at ``E = e^eps``: ``p = 1/2``, ``q = 1 / (E + 1)``."""
    return Fraction(1, 2), 1 / (E + 1)


def unary_one_probabilities(p, q, d: int) -> dict:
    """``P[bit k = 1 | item i]``: ``p`` on the item's own bit, ``q`` elsewhere."""
    return {i: tuple(p if k == i else q for k in range(d)) for i in range(d)}


def _domain_size(d) -> int:
    if not isinstance(d, int) or isinstance(d, bool) or d < 2:
        raise InvalidParameter(f"d (domain size) must be an integer >= 2, got {d!r}")
    return d


def unary_channel(p, q, d: int) -> IndependentBits:
    """The exact UE channel with keep probability ``p`` and flip-on probability ``q``."""
    d = _domain_size(d)
    p, q = probability(p, "p"), probability(q, "q")
    return IndependentBits(range(d), unary_one_probabilities(p, q, d))


def sue_channel(epsilon, d: int) -> IndependentBits:
    """Basic RAPPOR / SUE over ``d`` items."""
    eps = budget(epsilon, "epsilon")
    return unary_channel(*sue_probabilities(ctx.exp(eps / 2)), d)


def oue_channel(epsilon, d: int) -> IndependentBits:
    """OUE over ``d`` items."""
    eps = budget(epsilon, "epsilon")
    return unary_channel(*oue_probabilities(ctx.exp(eps)), d)

"""Unary encoding with per-bit probabilities: UE, basic RAPPOR (SUE), OUE, and IDUE.

Item ``i`` of ``d`` becomes the one-hot vector ``e_i`` (Gu et al. eq. (5));
every bit ``k`` is then perturbed independently (Gu et al. Sec. V-B):

    P[y_k = 1] = a_k   if k = i (the user's own bit),
    P[y_k = 1] = b_k   otherwise.

The user releases the whole vector ``y``. Unary encoding (common §7) is the case
``a_k = p``, ``b_k = q`` for every bit; IDUE gives the items of one privacy
level the same ``(a, b)``. The server counts the 1s of each bit and estimates
with Gu et al. eq. (7), ``c_hat_i = (C_i - n b_i) / (a_i - b_i)``; the variance
is eq. (8) (``ldpspec.reference.shared.estimators``).

Probabilities are kept as exact kernel numbers with their complements
``1 - a_k``, ``1 - b_k`` written without a subtraction where the mechanism
allows it: ``1 - p`` rounds to 0 once ``p`` is within the working precision of 1.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from fractions import Fraction
from typing import NamedTuple

from ldpspec.reference.validation import domain_size, item_index
from ldpspec.reference.shared.estimators import count_estimate, count_variance
from ldpspec.spec.errors import InvalidParameter
from ldpspec.spec.numbers import budget, ctx, probability
from ldpspec.spec.structured import IndependentBits


class UnaryBits(NamedTuple):
    """The flip probabilities of one bit: ``p`` for a true 1, ``q`` for a true 0, and their complements."""

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


def one_hot_bit_distributions(bits: Sequence[UnaryBits], item) -> tuple:
    """``(P[y_k = 0], P[y_k = 1])`` for every bit ``k``: ``(1 - a_k, a_k)`` on the item's own bit, ``(1 - b_k, b_k)``
    elsewhere. Plain arithmetic, so it also builds symbolic z3 channels."""
    return tuple((bit.not_p, bit.p) if k == item else (bit.not_q, bit.q) for k, bit in enumerate(bits))


class UnaryEncoding:
    """Unary encoding over ``d`` items with per-bit parameters ``bits[k] = (a_k, b_k, 1 - a_k, 1 - b_k)``.

    Args:
        bits: one ``UnaryBits`` per item (``p`` is ``a_k``, ``q`` is ``b_k``).

    The estimator needs ``a_k != b_k`` for every bit (Gu et al. Theorem 3);
    the paper assumes ``a_k > b_k``.
    """

    def __init__(self, bits: Sequence[UnaryBits]):
        self.d = domain_size(len(bits), "the number of bits")
        self.bits = tuple(UnaryBits(*(probability(value, f"{name} of bit {k}") for value, name in zip(bit, UnaryBits._fields)))
                          for k, bit in enumerate(bits))
        for k, bit in enumerate(self.bits):
            for value, complement, name in ((bit.p, bit.not_p, "p"), (bit.q, bit.not_q, "q")):
                if abs(value + complement - 1) > ctx.mpf("1e-30"):
                    raise InvalidParameter(f"bit {k}: {name} and 1 - {name} must sum to 1")

    @classmethod
    def uniform(cls, bits: UnaryBits, d: int) -> "UnaryEncoding":
        """The same ``(p, q)`` on every bit: plain unary encoding."""
        return cls([bits] * domain_size(d))

    @property
    def a(self) -> tuple:
        """``a_k = P[y_k = 1 | k is the user's item]``."""
        return tuple(bit.p for bit in self.bits)

    @property
    def b(self) -> tuple:
        """``b_k = P[y_k = 1 | k is not the user's item]``."""
        return tuple(bit.q for bit in self.bits)

    def bit_distributions(self, item: int) -> tuple:
        """``(P[y_k = 0], P[y_k = 1])`` for every bit, given the user's item."""
        return one_hot_bit_distributions(self.bits, item)

    def channel(self) -> IndependentBits:
        """The exact channel: a product of independent bits, the whole vector released."""
        return IndependentBits(range(self.d), {i: self.bit_distributions(i) for i in range(self.d)})

    def perturb(self, item: int, rng: random.Random) -> tuple[int, ...]:
        """One user's report: bit ``k`` is 1 with probability ``a_k`` if ``k == item``, else ``b_k``."""
        item_index(item, self.d)
        return tuple(int(rng.random() < float(one)) for _, one in self.bit_distributions(item))

    def estimate(self, bit_counts: Sequence[int], n: int) -> list[float]:
        """``c_hat_i = (C_i - n b_i) / (a_i - b_i)`` (Gu et al. eq. (7)), from ``C_i``, the reports with bit ``i`` set."""
        if len(bit_counts) != self.d:
            raise InvalidParameter(f"bit_counts must have one entry per item ({self.d}), got {len(bit_counts)}")
        return [count_estimate(c, n, float(bit.p), float(bit.q)) for c, bit in zip(bit_counts, self.bits)]

    def variance(self, true_counts: Sequence[int]) -> tuple[list, object]:
        """Per-item variances (Gu et al. eq. (8)) and their total, exactly, for the given true counts."""
        if len(true_counts) != self.d:
            raise InvalidParameter(f"true_counts must have one entry per item ({self.d}), got {len(true_counts)}")
        n = sum(true_counts)
        per_item = [count_variance(n, c, bit.p, bit.q) for c, bit in zip(true_counts, self.bits)]
        return per_item, sum(per_item)


def unary_encoding(p, q, d: int) -> UnaryEncoding:
    """Plain unary encoding with any keep probability ``p`` and flip-on probability ``q``."""
    return UnaryEncoding.uniform(general_unary_probabilities(probability(p, "p"), probability(q, "q")), d)


def sue(epsilon, d: int) -> UnaryEncoding:
    """Basic RAPPOR / SUE over ``d`` items: eps-LDP."""
    return UnaryEncoding.uniform(sue_probabilities(ctx.exp(budget(epsilon, "epsilon") / 2)), d)


def oue(epsilon, d: int) -> UnaryEncoding:
    """OUE over ``d`` items: eps-LDP."""
    return UnaryEncoding.uniform(oue_probabilities(ctx.exp(budget(epsilon, "epsilon"))), d)


def sue_channel(epsilon, d: int) -> IndependentBits:
    """The exact channel of basic RAPPOR / SUE."""
    return sue(epsilon, d).channel()


def oue_channel(epsilon, d: int) -> IndependentBits:
    """The exact channel of OUE."""
    return oue(epsilon, d).channel()

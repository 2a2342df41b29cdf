"""Utility-optimised RAPPOR (uRAP; Murakami and Kawamoto, USENIX Security 2019), the unary-encoding mechanism of
ULDP that Cao et al. (Sec. 2.2) extend to sets (suRAP).

Item ``x`` of ``0 .. d-1`` becomes the one-hot vector ``e_x``; every bit ``j`` is perturbed independently, with
``s = e^{eps/2}``:

    j in X_sen:  P[y_j = 1 | own bit] = s / (s + 1),      P[y_j = 1 | other bit] = 1 / (s + 1)   (basic RAPPOR);
    j in X_non:  P[y_j = 1 | own bit] = (s - 1) / s,      P[y_j = 1 | other bit] = 0.

A non-sensitive bit is never set by anyone but its holder, so a vector with a non-sensitive 1 names its input: it is
invertible. The protected outputs ``Y_pro`` are the vectors whose non-sensitive bits are all 0; any two inputs
produce one with a ratio of at most ``e^eps`` (at most ``s`` from each of the two inputs' own bits, a non-sensitive
bit contributing ``1 / s`` against 1). The user releases the whole vector. The server's estimate of a true count is
the unary-encoding estimator ``(C_j - n b_j) / (a_j - b_j)`` (``reference.shared.unary``): ``C_j / a_j`` for a
non-sensitive bit.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable

import numpy as np

from ldpspec.reference.mechanism import DOMAIN_SIZE, EPSILON, Benchmark, Guarantee, Mechanism
from ldpspec.reference.shared.unary import UnaryBits, UnaryEncoding, sue_probabilities
from ldpspec.reference.shared.urr import SENSITIVE, sensitive_items
from ldpspec.reference.validation import domain_size
from ldpspec.spec import budget, check_entries


def urap_non_sensitive_probabilities(s) -> UnaryBits:
    """A non-sensitive bit at ``s = e^{eps/2}``: ``a = (s - 1)/s`` for its holder, ``b = 0`` for anyone else
    (so ``1 - a = 1/s``, ``1 - b = 1``). Plain arithmetic: exact numbers, floats or z3 terms."""
    return UnaryBits((s - 1) / s, 0, 1 / s, 1)


def urap_bits(s, d: int, sensitive: Iterable[int]) -> list[UnaryBits]:
    """The bits of uRAP over ``d`` items: basic RAPPOR on the sensitive ones, the non-sensitive bits above."""
    sensitive = set(sensitive)
    rappor, non_sensitive = sue_probabilities(s), urap_non_sensitive_probabilities(s)
    return [rappor if j in sensitive else non_sensitive for j in range(d)]


def protected_vectors(d: int, sensitive: Iterable[int]):
    """``Y_pro``: every vector of ``d`` bits that is 0 on each non-sensitive bit (``2^k`` of them), lazily."""
    sensitive = sorted(sensitive)
    for ones in itertools.product((0, 1), repeat=len(sensitive)):
        vector = [0] * d
        for j, bit in zip(sensitive, ones):
            vector[j] = bit
        yield tuple(vector)


def urap(epsilon, d: int, sensitive: Iterable[int]) -> UnaryEncoding:
    """uRAP over the items ``0 .. d-1`` with sensitive items ``sensitive`` and budget ``epsilon``: a unary encoding
    that claims ``(X_sen, Y_pro, eps)``-ULDP."""
    eps = budget(epsilon, "epsilon")
    d = domain_size(d)
    sensitive = sensitive_items(sensitive, d)

    def guarantee() -> Guarantee:  # Y_pro has 2^k vectors: listed only when asked for, and only when few
        check_entries(2 ** len(sensitive) * d, f"uRAP's protected outputs (2^{len(sensitive)} vectors of {d} bits)")
        return Guarantee("uldp", {"sensitive_inputs": list(sensitive),
                                  "protected_outputs": list(protected_vectors(d, sensitive)), "epsilon": eps})

    return UnaryEncoding(urap_bits((eps / 2).exponential(), d, sensitive), guarantee)


def _workload(n: int, d: int, rng: np.random.Generator):
    return urap(1, d, range(max(d // 4, 1))), rng.integers(0, d, n)


MECHANISMS = (
    Mechanism(
        name="urap", title="Utility-optimised RAPPOR (uRAP)", home="shared",
        source="Murakami and Kawamoto 2019; Cao et al. Sec. 2.2", notion="uldp",
        parameters=(EPSILON, DOMAIN_SIZE, SENSITIVE), build=urap, claims=(),
        docs="mechanisms/urap.md", inputs="item", reports="bit-vector",
        benchmark=Benchmark(workload=_workload, group="items")),
)

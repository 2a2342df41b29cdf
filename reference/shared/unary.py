"""Unary encoding with per-bit probabilities: UE, basic RAPPOR (SUE), OUE, and the base of IDUE.

Item ``i`` of ``d`` becomes the one-hot vector ``e_i`` (Gu et al. eq. (5));
every bit ``k`` is then perturbed independently (Gu et al. Sec. V-B):

    P[y_k = 1] = a_k   if k = i (the user's own bit),
    P[y_k = 1] = b_k   otherwise.

The user releases the whole vector ``y``. Unary encoding (Wang et al. 2017, Gu et al. Sec. III-C) is the case
``a_k = p``, ``b_k = q`` for every bit; IDUE (``reference.gu2020.idue``) gives the items of one privacy level the
same ``(a, b)``. The server counts the 1s of each bit and estimates with Gu et al. eq. (7),
``c_hat_i = (C_i - n b_i) / (a_i - b_i)``; the variance is eq. (8) (``reference.shared.estimators``).

Probabilities are kept as exact kernel numbers with their complements
``1 - a_k``, ``1 - b_k`` written without a subtraction where the mechanism
allows it: ``1 - p`` rounds to 0 once ``p`` is within the working precision of 1.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from fractions import Fraction
from functools import cached_property
from typing import NamedTuple

import numpy as np

from ldpspec.reference import plain_draws as draws
from ldpspec.reference.mechanism import DOMAIN_SIZE, EPSILON, Benchmark, Guarantee, Mechanism
from ldpspec.reference.shared.estimators import (
    CountEstimator,
    CountEstimatorTwin,
    bit_counts,
)
from ldpspec.reference.twin_sampling import ExactBernoulli, PackedBernoulli, packed_bit_counts, unpacked_rows
from ldpspec.reference.validation import (
    count_array,
    domain_size,
    item_array,
    item_index,
)
from ldpspec.spec import ClassedUnary, InvalidParameter, Nats, Parameter, budget, group_equal, probability, sequence


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


def _checked_bit(bit, k: int) -> UnaryBits:
    """``bit`` as ``UnaryBits`` of exact probabilities, each with its complement; ``InvalidParameter`` otherwise."""
    values = sequence(bit, f"bit {k}")
    if len(values) != 4:
        raise InvalidParameter(f"bit {k} must be (p, q, 1 - p, 1 - q), got {len(values)} values")
    names = ("p", "q", "1 - p", "1 - q")
    p, q, not_p, not_q = (probability(value, f"{name} of bit {k}") for value, name in zip(values, names))
    for value, complement, name in ((p, not_p, "p"), (q, not_q, "q")):
        if value + complement != 1:
            raise InvalidParameter(f"bit {k}: {name} and 1 - {name} must sum to 1")
    return UnaryBits(p, q, not_p, not_q)


class UnaryEncoding(CountEstimator):
    """Unary encoding over ``d`` items with per-bit parameters ``bits[k] = (a_k, b_k, 1 - a_k, 1 - b_k)``.

    Args:
        bits: one ``UnaryBits`` per item (``p`` is ``a_k``, ``q`` is ``b_k``).
        guarantee: the notion it claims, with its parameters (``ue``, ``sue``, ``oue`` and IDUE set it), or a
            function that returns it when asked (uRAP, whose protected outputs are many).

    The estimator needs ``a_k != b_k`` for every bit (Gu et al. Theorem 3);
    the paper assumes ``a_k > b_k``.
    """

    # --- the plain reference ---

    def __init__(self, bits: Sequence[UnaryBits], guarantee: Guarantee | Callable[[], Guarantee] | None = None):
        bits = sequence(bits, "bits")
        self.d = domain_size(len(bits), "the number of bits")
        checked = {}  # id -> the checked bit: levels (and plain unary encoding) share one bit object
        for k, bit in enumerate(bits):
            if id(bit) not in checked:
                checked[id(bit)] = _checked_bit(bit, k)
        self.bits = tuple(checked[id(bit)] for bit in bits)
        self._guarantee = guarantee

    @cached_property
    def twin(self) -> UnaryEncodingTwin:
        return UnaryEncodingTwin(self)

    @classmethod
    def uniform(cls, bits: UnaryBits, d: int, guarantee: Guarantee | None = None) -> UnaryEncoding:
        """The same ``(p, q)`` on every bit: plain unary encoding."""
        return cls([bits] * domain_size(d), guarantee)

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

    def channel(self, max_entries: int | None = None) -> ClassedUnary:
        """The exact channel: a product of independent bits, the whole vector released, with the items in classes
        of equal ``(a, b)`` (IDUE's levels; one class for plain unary encoding), so that the kernel judges it one
        pair of classes at a time. It holds one pair of distributions per class and one class per item, whatever
        ``d``; ``max_entries`` bounds its explicit matrix, when one is asked for (``explicit``)."""
        classes, item_classes = group_equal(self.bits)
        return ClassedUnary([(bit.not_p, bit.p) for bit in classes], [(bit.not_q, bit.q) for bit in classes],
                            item_classes)

    def guarantee(self) -> Guarantee:
        if self._guarantee is None:
            raise InvalidParameter("this unary encoding was built from bare bit parameters and claims no notion; "
                                   "build it with ue, sue, oue or idue")
        return self._guarantee() if callable(self._guarantee) else self._guarantee

    def perturb(self, item: int, rng: random.Random) -> tuple[int, ...]:
        """One user's report: bit ``k`` is 1 with probability ``a_k`` if ``k == item``, else ``b_k``."""
        item_index(item, self.d)
        return tuple(int(draws.coin(rng, one)) for _, one in self.bit_distributions(item))

    def counts(self, reports: Sequence[Sequence[int]]) -> list[int]:
        """``C_i``: the number of reports with bit ``i`` set."""
        return bit_counts(reports, self.d)

    def report_probabilities(self) -> tuple[tuple, tuple]:
        """``(a, b)``: bit ``k`` is set with probability ``a_k`` by a holder of item ``k`` and ``b_k`` by anyone
        else, so the estimate is ``c_hat_k = (C_k - n b_k) / (a_k - b_k)`` (Gu et al. eq. (7)) with the variance of
        eq. (8)."""
        return self.a, self.b


HOT_ROWS = 1 << 16
"""Reports whose hot bits are drawn together (``UnaryEncodingTwin.packed``): the temporaries stay under a megabyte."""


class UnaryEncodingTwin(CountEstimatorTwin):
    """Unary encoding for many users at once. Reports are bit vectors packed eight to a byte
    (``n x ceil(d / 8)`` bytes, ``reference.twin_sampling``); the estimate is ``CountEstimatorTwin``'s."""

    def __init__(self, encoding: UnaryEncoding):
        self.mechanism = encoding
        self.d = encoding.d
        self.a = np.array([float(bit.p) for bit in encoding.bits])
        self.b = np.array([float(bit.q) for bit in encoding.bits])
        self._hot = ExactBernoulli(self.a)
        self._baselines = {}  # released bits -> the packed sampler of their b

    def packed(self, hot: np.ndarray, released: int, rng: np.random.Generator) -> np.ndarray:
        """Packed reports of the first ``released`` bits: row ``r`` has bit ``hot[r]`` drawn with ``a``, every
        other bit with ``b``. ``hot[r] >= released`` means no released bit is hot (IDUE-PS: a dummy not released).
        A two-dimensional ``hot`` gives each row several hot bits, distinct within the row (an m-hot set encoding).
        """
        hot = np.asarray(hot)
        columns = hot.reshape(len(hot), -1)
        packed = self._baseline(released).draw(len(hot), rng)  # every bit with b, drawn packed
        flat, row_bytes = packed.reshape(-1), packed.shape[1]
        for start in range(0, len(hot), HOT_ROWS):  # then each hot bit drawn again with a: the bits are independent
            for column in columns[start:start + HOT_ROWS].T:  # (a block of rows at a time, one hot bit of each)
                rows = np.flatnonzero(column < released)
                column = column[rows]
                bits = self._hot.draw(column, rng)
                place = (rows + start) * row_bytes + (column >> 3)  # the byte of each hot bit, and its bit
                mask = np.uint8(0x80) >> (column & 7).astype(np.uint8)
                flat[place] = np.where(bits, flat[place] | mask, flat[place] & ~mask)
        return packed

    def _baseline(self, released: int) -> PackedBernoulli:
        if released not in self._baselines:
            self._baselines[released] = PackedBernoulli(self.b[:released])
        return self._baselines[released]

    def reports(self, items, rng: np.random.Generator) -> np.ndarray:
        """Packed reports, one row of ``ceil(d / 8)`` bytes per user."""
        return self.packed(item_array(items, self.d), self.d, rng)

    def outputs(self, reports: np.ndarray) -> list[tuple]:
        return unpacked_rows(reports, self.d)

    def counts(self, reports: np.ndarray) -> np.ndarray:
        """``C_i``: the number of reports with bit ``i`` set."""
        return packed_bit_counts(reports, self.d)

    def simulate_counts(self, true_counts, rng: np.random.Generator) -> np.ndarray:
        """``C_i ~ Bin(c_i, a_i) + Bin(n - c_i, b_i)``, independently for every item (the bits of different items
        are independent)."""
        counts = count_array(true_counts, self.d)
        n = counts.sum()
        return rng.binomial(counts, self.a) + rng.binomial(n - counts, self.b)



def ue(p, q, d: int) -> UnaryEncoding:
    """Plain unary encoding with any keep probability ``p`` and flip-on probability ``q``.

    It is eps-LDP with ``eps = |ln(p (1 - q) / ((1 - p) q))|`` (Wang et al. 2017), attained at ``y_i = 1, y_j = 0``
    (or the reverse when ``p < q``); with ``p`` or ``q`` equal to 0 or 1 no finite budget holds and it claims none.
    """
    p, q = probability(p, "p"), probability(q, "q")
    bits = general_unary_probabilities(p, q)
    parameters = {}
    if 0 < p < 1 and 0 < q < 1:
        ratio = (p * bits.not_q) / (q * bits.not_p)
        parameters["epsilon"] = Nats.log(ratio if ratio >= 1 else 1 / ratio)
    return UnaryEncoding.uniform(bits, d, Guarantee("ldp", parameters))


def sue(epsilon, d: int) -> UnaryEncoding:
    """Basic RAPPOR / SUE over ``d`` items: eps-LDP."""
    eps = budget(epsilon, "epsilon")
    return UnaryEncoding.uniform(sue_probabilities((eps / 2).exponential()), d, Guarantee("ldp", {"epsilon": eps}))


def oue(epsilon, d: int) -> UnaryEncoding:
    """OUE over ``d`` items: eps-LDP."""
    eps = budget(epsilon, "epsilon")
    return UnaryEncoding.uniform(oue_probabilities(eps.exponential()), d, Guarantee("ldp", {"epsilon": eps}))


def _ue_workload(n: int, d: int, rng: np.random.Generator):
    return ue("0.75", "0.25", d), rng.integers(0, d, n)


def _workload(build):
    return lambda n, d, rng: (build(1, d), rng.integers(0, d, n))


def _peers(optimal: bool) -> dict:
    """The peers' clients of OUE (``optimal``) or SUE, called once per user."""
    def multi_freq_ldpy(d: int, epsilon: float):
        from multi_freq_ldpy.pure_frequency_oracles.UE import UE_Client

        UE_Client(0, d, epsilon, optimal)  # compiled by numba before it is timed
        return lambda values: [UE_Client(x, d, epsilon, optimal) for x in values]

    def pure_ldp(d: int, epsilon: float):
        from pure_ldp.frequency_oracles.unary_encoding import UEClient

        client = UEClient(epsilon, d, use_oue=optimal)
        return lambda values: [client.privatise(x + 1) for x in values]  # pure-ldp numbers the items from 1

    return {"multi-freq-ldpy": multi_freq_ldpy, "pure-ldp": pure_ldp}


_SOURCE = "Wang, Blocki, Li, Jha, USENIX Security 2017; Gu et al. Sec. III-C"
MECHANISMS = (
    Mechanism(
        name="ue", title="Unary encoding with any p and q", home="shared", source=_SOURCE, notion="ldp",
        parameters=(Parameter("p", "number", "P[a bit is 1 | it is the user's item], in [0, 1]", example="3/4"),
                    Parameter("q", "number", "P[a bit is 1 | it is not the user's item], in [0, 1]", example="1/4"),
                    DOMAIN_SIZE),
        build=ue, claims=("gu2020.sec3c-baselines.ue-ldp", "gu2020.sec3c-baselines.estimator"),
        docs="mechanisms/unary.md", inputs="item", reports="bit-vector",
        benchmark=Benchmark(workload=_ue_workload, group="items")),
    Mechanism(
        name="sue", title="Basic RAPPOR (symmetric unary encoding)", home="shared",
        source="Erlingsson, Pihur, Korolova, CCS 2014; " + _SOURCE, notion="ldp", parameters=(EPSILON, DOMAIN_SIZE),
        build=sue, claims=("gu2020.sec3c-baselines.sue-ldp", "gu2020.sec3c-baselines.estimator",
                           "gu2020.sec3c-baselines.oue-beats-rappor"),
        docs="mechanisms/unary.md", inputs="item", reports="bit-vector",
        benchmark=Benchmark(workload=_workload(sue), group="items", peers=_peers(optimal=False))),
    Mechanism(
        name="oue", title="Optimised unary encoding", home="shared", source=_SOURCE, notion="ldp",
        parameters=(EPSILON, DOMAIN_SIZE), build=oue,
        claims=("gu2020.sec3c-baselines.oue-ldp", "gu2020.sec3c-baselines.estimator",
                "gu2020.sec3c-baselines.oue-optimal", "gu2020.sec3c-baselines.oue-beats-rappor"),
        docs="mechanisms/unary.md", inputs="item", reports="bit-vector",
        benchmark=Benchmark(workload=_workload(oue), group="items", peers=_peers(optimal=True))),
)

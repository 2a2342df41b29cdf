"""Hadamard Response (HR) in the high-privacy regime: Acharya, Sun, Zhang, "Hadamard Response: Estimating
Distributions Privately, Efficiently, and with Little Communication", AISTATS 2019.

With ``d`` items, ``K`` is the smallest power of 2 greater than ``d`` and ``H_K`` the Sylvester Hadamard matrix,
``H_K[i][j] = (-1)^popcount(i & j)`` (``hadamard_entry``). Item ``x`` takes row ``x + 1`` (row 0 is all ones) and its
set ``C_x = {y : H_K[x + 1][y] = +1}`` of ``K / 2`` outputs. With ``E = e^eps``, a user holding ``x`` releases one
index ``y`` of ``0 .. K-1``:

    P[y | x] = 2 E / (K (E + 1))   if y in C_x,
    P[y | x] = 2 / (K (E + 1))     otherwise,

that is, ``y`` falls in ``C_x`` with binary randomised response's ``p = E / (E + 1)`` and is uniform on the side it
falls on; every probability is one of the two values, so the channel is eps-LDP with ratio ``E`` exactly. The
paper's general HR, for larger budgets, splits the outputs into blocks; this module is the basic scheme (the
documentation's page "Hadamard Response" says what the general one changes).

The server counts ``S_x``, the reports in ``C_x``. A holder of ``x`` lands there with probability ``p``; a holder of
any other item with probability exactly ``1/2``, since two distinct rows of ``H_K`` other than row 0 agree on ``+1``
in ``K / 4`` places. So ``S_x`` is ``c_x`` Bernoulli(``p``) and ``n - c_x`` Bernoulli(``1/2``) variables, and the
count estimator of ``reference.shared.estimators`` with ``q = 1/2`` is unbiased:

    c_hat_x = (S_x - n/2) / (p - 1/2) = 2 (E + 1) / (E - 1) (S_x - n/2),
    Var[c_hat_x] = n (E + 1)^2 / (E - 1)^2 - c_x,

``n`` times the paper's estimate of the frequency ``p(x)`` from the frequency of ``C_x``. The derivations are on the
page "Hadamard Response".
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from fractions import Fraction
from functools import cached_property

import numpy as np

from ldpspec.reference import plain_draws as draws
from ldpspec.reference.mechanism import DOMAIN_SIZE, EPSILON, Benchmark, Guarantee, Mechanism
from ldpspec.reference.shared.estimators import CountEstimator, CountEstimatorTwin, item_counts
from ldpspec.reference.shared.rr import rr_keep_probability
from ldpspec.reference.twin_sampling import (
    ITEMS_PER_CHUNK,
    ExactBernoulli,
    PackedItems,
    count_items,
    item_reports,
    put_items,
)
from ldpspec.reference.validation import count_array, domain_size, item_array, item_index
from ldpspec.spec import Channel, budget, check_entries


def output_size(d: int) -> int:
    """``K``: the smallest power of 2 greater than ``d``, so that ``H_K`` has the rows ``1 .. d`` beside row 0."""
    return 1 << d.bit_length()


def hadamard_entry(row: int, column: int) -> int:
    """``H_K[row][column] = (-1)^popcount(row & column)``: Sylvester's ``H_{2m} = [[H_m, H_m], [H_m, -H_m]]`` from
    ``H_1 = [1]``, entry by entry (bit ``b`` of the row and of the column chooses the block at each doubling)."""
    return -1 if (row & column).bit_count() % 2 else 1


def in_support(item: int, y: int) -> bool:
    """Whether the output ``y`` is in ``C_item = {y : H_K[item + 1][y] = +1}``."""
    return hadamard_entry(item + 1, y) == 1


def hr_probabilities(E, K: int) -> tuple:
    """``(P[y|x] for y in C_x, P[y|x] for y outside C_x) = (2E / (K (E + 1)), 2 / (K (E + 1)))`` at ``E = e^eps``
    over ``K`` outputs. Plain arithmetic: exact numbers, floats or z3 terms."""
    return 2 * E / (K * (E + 1)), 2 / (K * (E + 1))


class HadamardResponse(CountEstimator):
    """Hadamard Response over the items ``0 .. d-1`` with budget ``epsilon``: one index of ``0 .. K-1`` per user."""

    # --- the plain reference ---

    def __init__(self, epsilon, d: int):
        self.epsilon = budget(epsilon, "epsilon")
        self.d = domain_size(d)
        self.K = output_size(self.d)
        E = self.epsilon.exponential()
        self.p = rr_keep_probability(E)  # P[y in C_x | the user holds x]
        self.q = Fraction(1, 2)  # P[y in C_x | the user holds another item]
        self.inside, self.outside = hr_probabilities(E, self.K)

    @cached_property
    def twin(self) -> HadamardResponseTwin:
        return HadamardResponseTwin(self)

    def channel(self, max_entries: int | None = None) -> Channel:
        """The exact channel: ``d`` inputs, ``K`` outputs (refused beyond ``max_entries`` probabilities)."""
        check_entries(self.d * self.K, f"HR's channel on {self.d:,} items and {self.K:,} outputs", max_entries)
        rows = [[self.inside if in_support(x, y) else self.outside for y in range(self.K)] for x in range(self.d)]
        return Channel(range(self.d), range(self.K), rows)

    def guarantee(self) -> Guarantee:
        return Guarantee("ldp", {"epsilon": self.epsilon})

    def perturb(self, item: int, rng: random.Random) -> int:
        """One user's report: a coin with probability ``p`` says whether it falls in ``C_x``; then a uniform index
        of ``0 .. K-1``, moved to the chosen side when it is on the other one by flipping the lowest set bit of
        ``x + 1``. Flipping a bit that row ``x + 1`` has changes the parity of ``popcount((x + 1) & y)``, so it maps
        each side onto the other one to one, and the index is uniform on the chosen side."""
        item = item_index(item, self.d)
        inside = draws.coin(rng, self.p)
        y = draws.below(rng, self.K)
        if in_support(item, y) != inside:
            row = item + 1
            y ^= row & -row
        return y

    def counts(self, outputs: Sequence[int]) -> list[int]:
        """``S_x``: how many reports fall in ``C_x``, for every item ``x``."""
        histogram = item_counts(outputs, self.K, "a report")
        return [sum(count for y, count in enumerate(histogram) if in_support(x, y)) for x in range(self.d)]

    def report_probabilities(self) -> tuple[list, list]:
        """For every item ``x``: ``p``, the probability that a report falls in ``C_x`` when its user holds ``x``,
        and ``q = 1/2``, when its user holds another item. The count estimator is then ``c_hat_x = (S_x - n/2) /
        (p - 1/2)``, with the variance ``n (E + 1)^2 / (E - 1)^2 - c_x``."""
        return [self.p] * self.d, [self.q] * self.d


# --- the NumPy twin --------------------------------------------------------------------------------------------------

def walsh_hadamard(values) -> np.ndarray:
    """``H_K v`` for an integer vector ``v`` of length ``K = 2^k``, in ``O(K log K)`` (the fast Walsh-Hadamard
    transform): Sylvester's doubling applied to one bit of the index at a time, each step ``(a, b) -> (a + b, a - b)``
    on the pairs of entries that differ in that bit. Exact in 64-bit integers while ``sum |v|`` fits."""
    transform = np.array(values, dtype=np.int64)
    width = 1
    while width < len(transform):
        pairs = transform.reshape(-1, 2, width)  # a view: the steps work in place
        first = pairs[:, 0].copy()
        pairs[:, 0] += pairs[:, 1]
        pairs[:, 1] = first - pairs[:, 1]
        width *= 2
    return transform


def support_counts(histogram, d: int) -> np.ndarray:
    """``S_x`` for the items ``0 .. d-1`` from the histogram ``h`` of the ``K`` indices: entry ``x + 1`` of
    ``W = H_K h`` is (reports in ``C_x``) minus (reports outside it), and entry 0 is ``n``, so
    ``S_x = (W[0] + W[x + 1]) / 2``."""
    transform = walsh_hadamard(histogram)
    return (transform[0] + transform[1:d + 1]) // 2


def moved_to_side(rows: np.ndarray, uniform: np.ndarray, outside) -> np.ndarray:
    """Uniform indices moved to ``C_x`` of each row ``x + 1`` (``outside`` false) or to its complement (true), as
    ``HadamardResponse.perturb`` does: the lowest set bit of the row flipped where an index is on the other side."""
    wrong_side = (np.bitwise_count(rows & uniform) & 1).astype(bool) != outside
    return uniform ^ np.where(wrong_side, rows & -rows, 0)


class HadamardResponseTwin(CountEstimatorTwin):
    """Hadamard Response for many users at once. Reports are one index of ``0 .. K-1`` per user, packed to
    ``log2 K`` bits where that saves memory (``reference.twin_sampling.item_reports``)."""

    def __init__(self, mechanism: HadamardResponse):
        self.mechanism = mechanism
        self.d, self.K = mechanism.d, mechanism.K
        self._inside = ExactBernoulli([float(mechanism.p)])
        self._concentrated = float(2 * mechanism.p - 1)  # (E - 1) / (E + 1), exact before it is rounded

    def reports(self, items, rng: np.random.Generator) -> np.ndarray | PackedItems:
        """One index per user: in ``C_x`` with probability ``p``, uniform on its side."""
        items = item_array(items, self.d)
        reports = item_reports(len(items), self.K)
        for start in range(0, len(items), ITEMS_PER_CHUNK):  # the temporaries stay well below the reports
            rows = items[start:start + ITEMS_PER_CHUNK] + 1
            outside = ~self._inside.draw_columns(len(rows), rng)[:, 0]
            put_items(reports, start, moved_to_side(rows, rng.integers(0, self.K, size=len(rows)), outside))
        return reports

    def outputs(self, reports: np.ndarray | PackedItems) -> list[int]:
        return np.asarray(reports).tolist()

    def counts(self, reports: np.ndarray | PackedItems) -> np.ndarray:
        """``S_x``: the reports in ``C_x``, from the histogram of the indices by the fast Walsh-Hadamard transform,
        in ``O(n + K log K)``."""
        return support_counts(count_items(reports, self.K), self.d)

    def simulate_counts(self, true_counts, rng: np.random.Generator) -> np.ndarray:
        """The support counts of ``sum(true_counts)`` users, drawn directly, exactly in distribution.

        A report of a holder of ``x`` is uniform on ``C_x`` with probability ``delta = 2p - 1 = (E - 1) / (E + 1)``
        and uniform on all ``K`` indices otherwise (then it is in ``C_x`` with probability ``delta + (1 - delta) / 2
        = p``, uniformly on each side). So ``m_x ~ Bin(c_x, delta)`` holders of ``x`` report from ``C_x``, the other
        reports of everyone are one multinomial over the ``K`` indices, and the counts follow from the histogram as in
        ``counts``. The cost is ``O(min(n, d K) + K log K)``: it does not grow beyond ``d K`` with the users.
        """
        counts = count_array(true_counts, self.d)
        concentrated = rng.binomial(counts, self._concentrated)
        histogram = rng.multinomial(int(counts.sum() - concentrated.sum()), np.full(self.K, 1 / self.K))
        return support_counts(histogram + self._concentrated_histogram(concentrated, rng), self.d)

    def _concentrated_histogram(self, concentrated: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        """The histogram of ``m_x`` indices uniform on ``C_x`` for every item ``x``: a multinomial over ``C_x`` for an
        item with more than ``K / 2`` of them (``O(K)``), one index each for the others (``O(m_x)``), drawn in
        batches of at least ``K`` indices so that adding each batch to the histogram costs ``O(1)`` an index."""
        K, half = self.K, self.K // 2
        histogram = np.zeros(K, dtype=np.int64)
        for item in np.flatnonzero(concentrated > half):
            members = np.flatnonzero(np.bitwise_count((item + 1) & np.arange(K)) % 2 == 0)
            histogram[members] += rng.multinomial(concentrated[item], np.full(half, 1 / half))
        few = np.flatnonzero((concentrated > 0) & (concentrated <= half))
        ends = np.cumsum(concentrated[few])  # the indices drawn once items few[0 .. k] are done
        batch, start = max(K, ITEMS_PER_CHUNK), 0
        while start < len(few):
            stop = max(start + 1, int(np.searchsorted(ends, ends[start] - concentrated[few[start]] + batch, "right")))
            rows = np.repeat(few[start:stop] + 1, concentrated[few[start:stop]])
            histogram += np.bincount(moved_to_side(rows, rng.integers(0, K, size=len(rows)), False), minlength=K)
            start = stop
        return histogram



def _workload(n: int, d: int, rng: np.random.Generator):
    return HadamardResponse(1, d), rng.integers(0, d, n)


def _pure_ldp(d: int, epsilon: float):
    """pure-ldp's Hadamard response client, called once per user (it numbers the items from 1). At eps <= 1 it runs
    the authors' basic HR (``Hadamard_Rand_high_priv``: the same K, item x on row x + 1); above 1 their general HR
    with blocks, which permutes the items with the permutation its server draws (``get_hash_funcs``)."""
    from pure_ldp.frequency_oracles.hadamard_response import HadamardResponseClient, HadamardResponseServer

    client = HadamardResponseClient(epsilon, d, HadamardResponseServer(epsilon, d).get_hash_funcs())
    return lambda values: [client.privatise(x + 1) for x in values]


MECHANISMS = (
    Mechanism(
        name="hr", title="Hadamard Response (high-privacy regime)", home="shared",
        source="Acharya, Sun, Zhang, AISTATS 2019", notion="ldp", parameters=(EPSILON, DOMAIN_SIZE),
        build=HadamardResponse, claims=(), docs="mechanisms/hadamard.md", inputs="item", reports="index",
        benchmark=Benchmark(workload=_workload, group="items", peers={"pure-ldp": _pure_ldp},
                            report_bits=lambda mechanism: math.log2(mechanism.K))),
)

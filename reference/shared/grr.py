"""Generalised randomised response (GRR, k-RR, direct encoding), as Gu et al. use it in Sec. III-C.

With ``d`` items and ``E = e^eps``, the user reports the true item with probability ``p = E / (E + d - 1)`` and each
other item with ``q = 1 / (E + d - 1)``, so that ``p + (d - 1) q = 1`` and ``p / q = E``. The user releases the one
item. The server counts the reports ``C_i`` of each item and estimates the true counts with
``reference.shared.estimators``: ``c_hat_i = (C_i - n q) / (p - q)``.
"""

from __future__ import annotations

import random
from functools import cached_property

import numpy as np

from ldpspec.reference import plain_draws as draws
from ldpspec.reference.mechanism import DOMAIN_SIZE, EPSILON, ITEM_BUDGETS, Benchmark, Guarantee, Mechanism
from ldpspec.reference.shared.direct import ColumnStructure, DirectEncoding, DirectEncodingTwin
from ldpspec.reference.twin_sampling import (
    ITEMS_PER_CHUNK,
    ExactBernoulli,
    PackedItems,
    item_reports,
    put_items,
)
from ldpspec.reference.validation import (
    count_array,
    domain_size,
    item_array,
    item_budgets,
    item_index,
    smallest_budget,
)
from ldpspec.spec import Channel, budget, check_entries


def grr_probabilities(E, d: int) -> tuple:
    """``(p, q)`` of GRR over ``d`` items at ``E = e^eps``. Plain arithmetic: exact numbers, floats or z3 terms."""
    return E / (E + d - 1), 1 / (E + d - 1)


def grr_rows(E, d: int) -> list:
    """The GRR matrix over items ``0 .. d-1``: ``P[y|x] = p`` if ``y = x``, else ``q``."""
    p, q = grr_probabilities(E, d)
    return [[p if x == y else q for y in range(d)] for x in range(d)]


class Grr(DirectEncoding):
    """GRR over the items ``0 .. d-1`` with budget ``epsilon``."""

    # --- the plain reference ---

    def __init__(self, epsilon, d: int):
        self.epsilon = budget(epsilon, "epsilon")
        self.d = domain_size(d)
        self.p, self.q = grr_probabilities(self.epsilon.exponential(), self.d)

    @cached_property
    def twin(self) -> GrrTwin:
        return GrrTwin(self)

    @classmethod
    def from_budgets(cls, budgets) -> Grr:
        """KRR, the IPLDP preprint's baseline: GRR over all ``d`` items at the smallest budget of the sensitive
        items (``budgets``: one per item, ``None`` for a non-sensitive item)."""
        budgets = item_budgets(budgets)
        return cls(smallest_budget(budgets), len(budgets))

    def structure(self) -> ColumnStructure:
        """``Q(y|x) = q + (p - q) [y = x]``: the form the estimators of ``reference.shared.direct`` use."""
        return ColumnStructure(base=[self.q] * self.d, extra=[self.p - self.q] * self.d)

    def channel(self, max_entries: int | None = None) -> Channel:
        """The exact channel: ``d`` inputs, ``d`` outputs (refused beyond ``max_entries`` probabilities)."""
        check_entries(self.d * self.d, f"GRR's channel on {self.d:,} items", max_entries)
        return Channel(range(self.d), range(self.d), grr_rows(self.epsilon.exponential(), self.d))

    def guarantee(self) -> Guarantee:
        return Guarantee("ldp", {"epsilon": self.epsilon})

    def perturb(self, item: int, rng: random.Random) -> int:
        """One user's report: the true item with probability ``p``, else one of the other ``d - 1`` uniformly."""
        item_index(item, self.d)
        if draws.coin(rng, self.p):
            return item
        other = draws.below(rng, self.d - 1)
        return other + (other >= item)  # skip the true item

    def report_probabilities(self) -> tuple[list, list]:
        """``p`` and ``q`` for every item: the estimate is ``c_hat_i = (C_i - n q) / (p - q)``."""
        return [self.p] * self.d, [self.q] * self.d


class GrrTwin(DirectEncodingTwin):
    """GRR for many users at once. Reports are one unsigned integer per user, of the smallest type that holds
    ``d - 1``."""

    def __init__(self, mechanism: Grr):
        super().__init__(mechanism)
        self._keep = ExactBernoulli([float(mechanism.p)])

    def reports(self, items, rng: np.random.Generator) -> np.ndarray | PackedItems:
        """One report per user: the true item with probability ``p``, else one of the other items uniformly; packed
        to ``ceil(log2 d)`` bits each where that saves memory (``reference.twin_sampling.item_reports``)."""
        items = item_array(items, self.d)
        reports = item_reports(len(items), self.d)
        for start in range(0, len(items), ITEMS_PER_CHUNK):  # the temporaries stay well below the reports
            chunk = items[start:start + ITEMS_PER_CHUNK]
            other = rng.integers(1, self.d, size=len(chunk))  # the true item moved on by 1 .. d-1, cyclically:
            other += chunk  # each other item equally likely
            np.remainder(other, self.d, out=other)
            keep = self._keep.draw_columns(len(chunk), rng)[:, 0]
            put_items(reports, start, np.where(keep, chunk, other))
        return reports

    def simulate_counts(self, true_counts, rng: np.random.Generator) -> np.ndarray:
        """The report counts of ``sum(true_counts)`` users, drawn directly in O(d).

        A GRR report is the true item with probability ``p - q`` and uniform over all ``d`` items otherwise (then
        the true item has ``p - q + (1 - p + q) / d = p``, since ``1 - p = (d - 1) q``, and every other item ``q``).
        So holders of ``x`` keep it ``Bin(c_x, p - q)`` times, and all the others together are one multinomial.
        """
        counts = count_array(true_counts, self.d)
        kept = rng.binomial(counts, float(self.mechanism.p - self.mechanism.q))
        return kept + rng.multinomial(int(counts.sum() - kept.sum()), np.full(self.d, 1 / self.d))


def _workload(n: int, d: int, rng: np.random.Generator):
    return Grr(1, d), rng.integers(0, d, n)


def _krr_workload(n: int, d: int, rng: np.random.Generator):
    return Grr.from_budgets(["0.1"] * d), rng.integers(0, d, n)


def _multi_freq_ldpy(d: int, epsilon: float):
    """multi-freq-ldpy's GRR client, called once per user (compiled by numba before it is timed)."""
    from multi_freq_ldpy.pure_frequency_oracles.GRR import GRR_Client

    GRR_Client(0, d, epsilon)
    return lambda values: [GRR_Client(x, d, epsilon) for x in values]


def _pure_ldp(d: int, epsilon: float):
    """pure-ldp's direct-encoding client, called once per user (it numbers the items from 1)."""
    from pure_ldp.frequency_oracles.direct_encoding import DEClient

    client = DEClient(epsilon, d)
    return lambda values: [client.privatise(x + 1) for x in values]


MECHANISMS = (
    Mechanism(
        name="grr", title="Generalised randomised response (k-RR, direct encoding)", home="shared",
        source="Kairouz, Oh, Viswanath 2014; Wang et al. 2017; Gu et al. Sec. III-C", notion="ldp",
        parameters=(EPSILON, DOMAIN_SIZE), build=Grr,
        claims=("gu2020.sec3c-baselines.grr-ldp", "gu2020.sec3c-baselines.estimator",
                "gu2020.sec3c-baselines.grr-large-domain", "gu2020.sec5a-naive.grr-explicit-inverse"),
        docs="mechanisms/grr.md", inputs="item", reports="item", direct_encoding=True,
        benchmark=Benchmark(workload=_workload, group="items",
                            peers={"multi-freq-ldpy": _multi_freq_ldpy, "pure-ldp": _pure_ldp})),
    Mechanism(
        name="krr", title="KRR: GRR at the smallest of per-item budgets (the IPLDP preprint's baseline)",
        home="shared", source="IPLDP preprint 2023, Sec. 5.1 and Sec. 7", notion="ldp", parameters=(ITEM_BUDGETS,),
        build=Grr.from_budgets, claims=("ipldp2023.def4-krr",), docs="mechanisms/grr.md", inputs="item",
        reports="item", direct_encoding=True,
        benchmark=Benchmark(workload=_krr_workload, group="per-item-budgets")),
)

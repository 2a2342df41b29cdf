"""Utility-optimised randomised response (uRR; Murakami and Kawamoto, USENIX Security 2019), the single-item
mechanism of ULDP that Cao et al. (Sec. 2.2) extend to sets and the IPLDP preprint uses as a baseline.

The items ``0 .. d-1`` are split into the sensitive items ``X_sen`` (``k`` of them) and the others ``X_non``. With
``E = e^eps`` and ``D = E + k - 1``:

    x in X_sen:  y = x with c1 = E / D,  each other y in X_sen with c2 = 1 / D,  never a y in X_non;
    x in X_non:  y = x with c3 = (E - 1) / D,  each y in X_sen with c2 = 1 / D,  never another y in X_non.

So ``c1 + (k - 1) c2 = 1`` and ``c3 + k c2 = 1``. The protected outputs are ``Y_pro = X_sen``; an output in ``X_non``
is invertible (it names its input). The user releases the one item. With ``C_y`` the number of reports of ``y``
among ``n`` users, the server estimates the true count of ``x`` by

    x in X_sen:  (C_x - n c2) / (c1 - c2),        x in X_non:  C_x / c3,

which is the count estimator ``(C - n q) / (p - q)`` with ``(p, q) = (c1, c2)`` for a sensitive item and
``(c3, 0)`` for a non-sensitive one (only its holders report it), so its variance is the same formula
(``reference.shared.estimators``).
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterable
from dataclasses import replace
from functools import cached_property

import numpy as np

from ldpspec.reference import plain_draws as draws
from ldpspec.reference.mechanism import DOMAIN_SIZE, EPSILON, ITEM_BUDGETS, Benchmark, Guarantee, Mechanism
from ldpspec.reference.shared.direct import ColumnStructure, DirectEncoding, DirectEncodingTwin
from ldpspec.reference.twin_sampling import ITEMS_PER_CHUNK, ExactBernoulli, item_reports, put_items
from ldpspec.reference.validation import (
    count_array,
    domain_size,
    item_array,
    item_budgets,
    item_index,
    smallest_budget,
)
from ldpspec.spec import ZERO, Channel, InvalidParameter, Parameter, budget, check_entries, label_list, value_text


def urr_probabilities(E, k: int) -> tuple:
    """``(c1, c2, c3)`` of uRR with ``k`` sensitive items at ``E = e^eps``. Plain arithmetic: exact numbers, floats
    or z3 terms."""
    D = E + k - 1
    return E / D, 1 / D, (E - 1) / D


def urr_rows(E, d: int, sensitive: Iterable[int]) -> list:
    """The uRR matrix over the items ``0 .. d-1`` (rows: inputs, columns: outputs)."""
    sensitive = set(sensitive)
    c1, c2, c3 = urr_probabilities(E, len(sensitive))
    rows = []
    for x in range(d):
        row = []
        for y in range(d):
            if y in sensitive:
                row.append(c1 if y == x else c2)
            else:
                row.append(c3 if y == x else 0)
        rows.append(row)
    return rows


def sensitive_items(items, d: int, name: str = "sensitive (the sensitive items X_sen)") -> tuple[int, ...]:
    """At least one distinct item of ``0 .. d-1``, sorted: the sensitive items of a utility-optimised mechanism."""
    if isinstance(items, range) and items.step == 1 and 0 <= items.start and items.stop <= d:
        return tuple(items)  # a range of items (every item sensitive, say): valid as a whole
    items = label_list(items, name, InvalidParameter)
    for k, item in enumerate(items):
        try:
            item_index(item, d)
        except InvalidParameter:  # said by the parameter's name first, so that the command line names its option
            raise InvalidParameter(f"{name} must hold items of 0 .. {d - 1}; entry {k} is {value_text(item)}") from None
    if len(set(items)) != len(items):
        raise InvalidParameter(f"{name} must not repeat an item, got {value_text(list(items))}")
    if not items:
        raise InvalidParameter(f"{name} must hold at least one item of 0 .. {d - 1}, got none")
    return tuple(sorted(int(item) for item in items))


class URR(DirectEncoding):
    """uRR over the items ``0 .. d-1`` with sensitive items ``sensitive`` and budget ``epsilon``."""

    # --- the plain reference ---

    def __init__(self, epsilon, d: int, sensitive: Iterable[int]):
        self.epsilon = budget(epsilon, "epsilon")
        self.d = domain_size(d)
        self.sensitive = sensitive_items(sensitive, self.d)
        sensitive = set(self.sensitive)
        self.is_sensitive = [x in sensitive for x in range(self.d)]
        self.c1, self.c2, self.c3 = urr_probabilities(self.epsilon.exponential(), len(self.sensitive))
        # Each item's count estimator (p, q): a report of x comes from a holder with p, from anyone else with q.
        self.p = [self.c1 if s else self.c3 for s in self.is_sensitive]
        self.q = [self.c2 if s else ZERO for s in self.is_sensitive]

    @cached_property
    def twin(self) -> URRTwin:
        return URRTwin(self)

    @classmethod
    def from_budgets(cls, budgets) -> URR:
        """URR, the IPLDP preprint's baseline: uRR with the items that have a budget as ``X_sen`` and the smallest
        of their budgets as ``eps`` (``budgets``: one per item, ``None`` for a non-sensitive item)."""
        budgets = item_budgets(budgets)
        return cls(smallest_budget(budgets), len(budgets), [x for x, eps in enumerate(budgets) if eps is not None])

    def structure(self) -> ColumnStructure:
        """``Q(y|x) = base_y + extra_y [y = x]`` (``c2`` and ``c1 - c2`` on a sensitive ``y``, ``0`` and ``c3``
        on another): the form the estimators of ``reference.shared.direct`` use."""
        return ColumnStructure(base=self.q, extra=[p - q for p, q in zip(self.p, self.q)])

    def channel(self, max_entries: int | None = None) -> Channel:
        """The exact channel: ``d`` inputs, ``d`` outputs (refused beyond ``max_entries`` probabilities)."""
        check_entries(self.d * self.d, f"uRR's channel on {self.d:,} items", max_entries)
        return Channel(range(self.d), range(self.d), urr_rows(self.epsilon.exponential(), self.d, self.sensitive))

    def guarantee(self) -> Guarantee:
        """``(X_sen, Y_pro, eps)``-ULDP with ``Y_pro = X_sen``."""
        return Guarantee("uldp", {"sensitive_inputs": list(self.sensitive), "protected_outputs": list(self.sensitive),
                                  "epsilon": self.epsilon})

    def perturb(self, item: int, rng: random.Random) -> int:
        """One user's report: the true item with ``c1`` (sensitive) or ``c3`` (not), else a sensitive item drawn
        uniformly from those other than the true one."""
        item_index(item, self.d)
        keep = self.c1 if self.is_sensitive[item] else self.c3
        if draws.coin(rng, keep):
            return item
        return draws.choice(rng, [y for y in self.sensitive if y != item])

    def report_probabilities(self) -> tuple[list, list]:
        """``(c1, c2)`` for a sensitive item, ``(c3, 0)`` for another: the estimate is ``(C_x - n c2) / (c1 - c2)``
        or ``C_x / c3``."""
        return self.p, self.q


class URRTwin(DirectEncodingTwin):
    """uRR for many users at once. Reports are one unsigned integer per user."""

    def __init__(self, mechanism: URR):
        super().__init__(mechanism)
        self.sensitive = np.array(mechanism.sensitive, dtype=np.int64)
        self.is_sensitive = np.array(mechanism.is_sensitive)
        # rank of each sensitive item among the sensitive items, to skip the true one when drawing another
        self.rank = np.full(self.d, -1, dtype=np.int64)
        self.rank[self.sensitive] = np.arange(len(self.sensitive))
        self._keep = ExactBernoulli([float(mechanism.c1), float(mechanism.c3)])  # kind 0: sensitive, 1: not

    def reports(self, items, rng: np.random.Generator) -> np.ndarray:
        """One report per user: the true item with ``c1`` or ``c3``, else another sensitive item uniformly."""
        items = item_array(items, self.d)
        k = len(self.sensitive)
        reports = item_reports(len(items), self.d)  # packed to ceil(log2 d) bits where that saves memory
        for start in range(0, len(items), ITEMS_PER_CHUNK):
            chunk = items[start:start + ITEMS_PER_CHUNK]
            sensitive = self.is_sensitive[chunk]
            keep = self._keep.draw(np.where(sensitive, 0, 1), rng)
            # a sensitive user draws among the k - 1 other sensitive items, anyone else among all k
            choices = np.where(sensitive, k - 1, k)
            other = rng.integers(0, np.maximum(choices, 1))  # exact uniform choices, no modulo bias
            other += sensitive & (other >= self.rank[chunk])  # skip the true item's rank
            put_items(reports, start, np.where(keep, chunk, self.sensitive[np.minimum(other, k - 1)]))
        return reports

    def simulate_counts(self, true_counts, rng: np.random.Generator) -> np.ndarray:
        """The report counts of ``sum(true_counts)`` users, drawn directly in O(d).

        A uRR report is the true item with probability ``c1 - c2`` (sensitive) or ``c3`` (not), and otherwise a
        sensitive item drawn uniformly from all ``k`` (then a sensitive true item has ``c1 - c2 + (1 - c1 + c2) / k
        = c1``, since ``1 - c1 = (k - 1) c2``, and a non-sensitive holder reaches each sensitive item with
        ``(1 - c3) / k = c2``). So holders of ``x`` keep it ``Bin(c_x, .)`` times, and all the others together are
        one multinomial over the sensitive items.
        """
        counts = count_array(true_counts, self.d)
        mechanism = self.mechanism
        keep = np.where(self.is_sensitive, float(mechanism.c1 - mechanism.c2), float(mechanism.c3))
        result = rng.binomial(counts, keep)
        k = len(self.sensitive)
        result[self.sensitive] += rng.multinomial(int(counts.sum() - result.sum()), np.full(k, 1 / k))
        return result


SENSITIVE = Parameter("sensitive", "labels", "the sensitive items X_sen, a non-empty subset of 0 .. d-1",
                      example="[0, 1]", edges=lambda example: [
                          ("[]", "no-sensitive-items"),
                          (json.dumps(list(range(int(example.get("d", 3))))), "all-sensitive")])
"""The sensitive items of a utility-optimised mechanism on single items."""


def _workload(n: int, d: int, rng: np.random.Generator):
    return URR(1, d, range(d // 4 or 1)), rng.integers(0, d, n)


def build_urr(epsilon=None, d=None, sensitive=None, budgets=None) -> URR:
    """uRR from ``epsilon``, ``d`` and ``sensitive``, or from per-item ``budgets`` (``URR.from_budgets``)."""
    given = [name for name, value in (("epsilon", epsilon), ("d", d), ("sensitive", sensitive)) if value is not None]
    if budgets is not None:
        if given:
            raise InvalidParameter(f"uRR takes either budgets or epsilon, d and sensitive; got budgets and "
                                   f"{', '.join(given)}")
        return URR.from_budgets(budgets)
    if len(given) != 3:
        missing = [name for name in ("epsilon", "d", "sensitive") if name not in given]
        raise InvalidParameter(f"uRR needs epsilon, d and sensitive (or budgets alone); {', '.join(missing)} "
                               f"missing")
    return URR(epsilon, d, sensitive)


MECHANISMS = (
    Mechanism(
        name="urr", title="Utility-optimised randomised response (uRR)", home="shared",
        source="Murakami and Kawamoto 2019; Cao et al. Sec. 2.2; IPLDP preprint (URR)", notion="uldp",
        parameters=(replace(EPSILON, required=False), replace(DOMAIN_SIZE, required=False),
                    replace(SENSITIVE, required=False), replace(ITEM_BUDGETS, example=None, required=False,
                                                                help=ITEM_BUDGETS.help + " (instead of epsilon, d "
                                                                "and sensitive: the IPLDP preprint's URR)")),
        build=build_urr, claims=("ipldp2023.def5-urr",),
        docs="mechanisms/urr.md", inputs="item", reports="item", direct_encoding=True,
        benchmark=Benchmark(workload=_workload, group="per-item-budgets")),
)

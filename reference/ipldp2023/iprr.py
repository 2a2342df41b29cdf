"""Item-oriented personalized randomised response (IPRR; IPLDP preprint 2023, Definitions 4 and 5).

The items ``0 .. d-1`` are split into the sensitive items ``D_S``, each with its own budget ``eps_x > 0``, and the
non-sensitive items ``D_N``. The user releases one item. With ``E_x = e^{eps_x}``, Definition 5 reads

    y in D_S, y = x:   q_y    = E_y qbar_y
    y in D_S, y != x:  qbar_y = 1 / ((E_y - 1) (1 + sum_{x' in D_S} 1 / (E_{x'} - 1)))
    y in D_N, y = x:   qtilde = 1 / (1 + sum_{x' in D_S} 1 / (E_{x'} - 1))
    otherwise:         0

and Definition 4 is the case ``D_N`` empty. The budget belongs to the *output*: each sensitive output's column has
ratio exactly ``q_y / qbar_y = E_y`` (Theorems 1 and 2), and a non-sensitive output names its input.

Sec. 5.3 writes the same matrix with ``r_x = 1 / (E_x - 1)`` on ``D_S`` (``r_x = 0`` on ``D_N``) and
``S = 1 / (1 + sum_x r_x)``:

    Q(y|x) = S ([y = x] + r_y),

so a user keeps the true item with probability ``S`` and otherwise reports a sensitive item ``y`` drawn with
probability ``r_y / R`` (``R = sum_x r_x``, and ``(1 - S) / R = S``). The sampler below is this two-stage draw; a test
shows that its probabilities are Definition 5's, exactly and symbolically.

The estimator (12), ``p_hat_x = m_hat_x / S - r_x``, is the count estimator ``(C_x - n q) / (p - q)`` with
``(p, q) = (q_x, qbar_x)`` (``(qtilde, 0)`` on ``D_N``), so its variance is the same formula
(``reference.shared.estimators``); the estimators for any direct encoding (the inverse of the channel, Norm-Sub,
MLE) are in ``reference.shared.direct``.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from functools import cached_property

import numpy as np

from ldpspec.reference import plain_draws as draws
from ldpspec.reference.mechanism import ITEM_BUDGETS, Benchmark, Guarantee, Mechanism
from ldpspec.reference.shared.direct import ColumnStructure, DirectEncoding, DirectEncodingTwin
from ldpspec.reference.twin_sampling import ITEMS_PER_CHUNK, AliasTable, ExactBernoulli, item_reports, put_items
from ldpspec.reference.validation import (
    count_array,
    item_array,
    item_budgets,
    item_index,
)
from ldpspec.spec import ZERO, Channel, Exact, InvalidParameter, check_entries

MAX_EXPONENTS = 128
"""The most exponents IPRR's exact probabilities may be written with (``exponent_count``). They are fractions over the
common denominator ``prod_e (E_e - 1)`` of the distinct budgets (``one_denominator``), a sum of terms ``c e^s`` with an
exponent ``s`` for each sum of a subset of the budgets, so the budgets alone decide it, and more are refused before
any number is computed: 16 budgets ``1.00, 1.01, ..., 1.15`` have 697 such sums, and their channel took 36 s to build
only for its numbers (19,000 characters) to be refused by the channel file's writer; 20 or 1,000 budgets ran for
minutes. At 128 the channel is built in about a second, and its numbers are already longer than a channel file holds
(the budgets ``1, 1.5, 2.25, ..., 6.015625``, whose 128 subsets have distinct sums: 3,073 characters)."""


def shared(values: Sequence, function) -> list:
    """``function(v)`` for every entry, computed once per distinct object (``None`` stays ``None``): items of one
    budget share one object, so exact work is done per budget, not per item."""
    done = {}
    for v in values:
        if v is not None and id(v) not in done:
            done[id(v)] = function(v)
    return [None if v is None else done[id(v)] for v in values]


def shared_sum(values: Sequence):
    """The sum of the entries that are not ``None``, one term (count times value) per distinct object."""
    counts, objects = {}, {}
    for v in values:
        if v is not None:
            counts[id(v)] = counts.get(id(v), 0) + 1
            objects[id(v)] = v
    return sum((counts[key] * v for key, v in objects.items()), 0)


def iprr_probabilities(E: Sequence) -> tuple[list, list, object]:
    """Definition 5's ``(q, qbar, qtilde)`` from ``E = [e^{eps_x} for sensitive x, None for non-sensitive x]``.

    ``q[x]`` and ``qbar[x]`` are ``None`` for a non-sensitive ``x``. Plain arithmetic: exact numbers, floats or z3
    terms. Items given the same object ``e`` share their ``q`` and ``qbar`` objects, so that exact sums over many
    items of a few budgets are sums over the budgets (a channel's row sums, checked exactly, stay fast).
    """
    total = 1 + shared_sum(shared(E, lambda e: 1 / (e - 1)))
    qbar_of = {id(e): b for e, b in zip(E, shared(E, lambda e: 1 / ((e - 1) * total))) if e is not None}
    q_of = {key: e * qbar_of[key] for key, e in {id(e): e for e in E if e is not None}.items()}
    return ([None if e is None else q_of[id(e)] for e in E], [None if e is None else qbar_of[id(e)] for e in E],
            1 / total)


def iprr_rows(E: Sequence) -> list:
    """Definition 5's matrix over the items ``0 .. d-1`` (rows: inputs, columns: outputs)."""
    return _rows(E, *iprr_probabilities(E))


def _rows(E: Sequence, q: list, qbar: list, qtilde) -> list:
    d = len(E)
    return [[(q[y] if y == x else qbar[y]) if E[y] is not None else (qtilde if y == x else 0) for y in range(d)]
            for x in range(d)]


def one_denominator(E: Sequence) -> tuple[list, list, object]:
    """Definition 5's ``(q, qbar, qtilde)`` as ``iprr_probabilities`` gives them, written over one denominator.

    With ``N`` the product of ``E_e - 1`` over the distinct budgets ``e`` (objects) and ``N_y = N / (E_y - 1)``,
    ``1 + sum_x 1 / (E_x - 1) = M / N`` with ``M = N + sum_e c_e N_e`` (``c_e`` items of budget ``e``), so
    ``qbar_y = N_y / M``, ``q_y = E_y N_y / M`` and ``qtilde = N / M``. Exact numbers do not cancel a common factor
    they are not told of: Definition 5 as written gives ``qbar_y = N / ((E_y - 1) M)``, a denominator for each
    budget, and a row's exact sum then multiplies them all (six budgets with different denominators took 26 s,
    seven 129 s). Over one denominator the sums of a row are sums of numerators."""
    distinct, counts = {}, {}
    for e in E:
        if e is not None:
            distinct[id(e)] = e
            counts[id(e)] = counts.get(id(e), 0) + 1
    factors = {key: e - 1 for key, e in distinct.items()}
    others = {key: _product(factor for other, factor in factors.items() if other != key) for key in factors}
    everything = _product(factors.values())
    M = everything + sum((counts[key] * others[key] for key in factors), ZERO)
    qbar = {key: others[key] / M for key in factors}
    q = {key: (distinct[key] * others[key]) / M for key in factors}
    return ([None if e is None else q[id(e)] for e in E], [None if e is None else qbar[id(e)] for e in E],
            everything / M)


def exponent_count(E: Sequence, limit: int) -> int:
    """How many exponents ``s`` the terms ``c e^s`` of ``prod_e (E_e - 1)`` over the distinct objects ``E_e`` of ``E``
    can have, counted up to just past ``limit``: every sum of one exponent of each factor (for ``e^eps - 1``: ``0`` or
    ``eps``, so the sums of the subsets of the budgets). Read from the exponents alone, before any product: terms
    that cancel are counted too, so this bounds the size of the exact numbers from above."""
    sums = {0}
    for e in {id(e): e for e in E if e is not None}.values():
        exponents = {q for q, _ in e.num} | {q for q, _ in e.den}  # E - 1 = (num - den) / den
        sums = {s + q for s in sums for q in exponents}
        if len(sums) > limit:
            break
    return len(sums)


def check_exponents(E: Sequence, name: str = "budgets") -> None:
    """Refuse budgets whose exact probabilities would have more than ``MAX_EXPONENTS`` exponents
    (``exponent_count``), naming ``name`` and what to change."""
    count = exponent_count(E, MAX_EXPONENTS)
    if count > MAX_EXPONENTS:
        distinct = len({id(e) for e in E if e is not None})
        raise InvalidParameter(
            f"{name}: IPRR's exact probabilities over these {distinct:,} distinct budgets are fractions over the "
            f"product of e^eps - 1 over them, a sum of terms e^s with an exponent s for each sum of a subset of the "
            f"budgets: they have more than {MAX_EXPONENTS} such sums here (the limit, "
            "reference.ipldp2023.iprr.MAX_EXPONENTS), too many to compute with exactly or to write in a channel "
            "file. Give fewer distinct budgets (items of one budget share it: a few levels, as the preprint's "
            "experiments use), or budgets on a coarse grid (multiples of 0.5 or 1 have few distinct sums)")


def _product(values) -> Exact:
    result = Exact.rational(1)
    for value in values:
        result = result * value
    return result


def iprr_terms(E: Sequence) -> tuple[list, object]:
    """Sec. 5.3's ``r`` (``1 / (E_x - 1)`` on ``D_S``, ``0`` on ``D_N``) and ``S = 1 / (1 + sum r)``."""
    r = shared(E, lambda e: 1 / (e - 1))
    return [0 if v is None else v for v in r], 1 / (1 + shared_sum(r))


class IPRR(DirectEncoding):
    """IPRR over the items ``0 .. d-1``: ``budgets[x]`` is ``eps_x > 0`` for a sensitive item, ``None`` otherwise."""

    # --- the plain reference ---

    def __init__(self, budgets: Iterable):
        self.budgets = item_budgets(budgets, positive=True)
        self.d = len(self.budgets)
        self.sensitive = tuple(x for x, eps in enumerate(self.budgets) if eps is not None)
        exponentials = {}  # one object per budget (a log budget is keyed by its text: it is not hashable)
        for eps in self.budgets:
            if eps is not None and (eps.as_rational() or eps.text()) not in exponentials:
                exponentials[eps.as_rational() or eps.text()] = eps.exponential()
        self.E = [None if eps is None else exponentials[eps.as_rational() or eps.text()] for eps in self.budgets]
        check_exponents(self.E)  # before any exact arithmetic: the budgets alone decide the size of the numbers
        self.q, self.qbar, qtilde = iprr_probabilities(self.E)
        r, S = iprr_terms(self.E)
        # exact numbers throughout (with no sensitive item the sums are plain integers, and 1 / 1 a float)
        self.qtilde, self.S = Exact.of(qtilde), Exact.of(S)
        self.r = shared(r, Exact.of)
        self.R = Exact.of(shared_sum(self.r))
        # Each item's count estimator (p, q): a report of x comes from a holder with p, from anyone else with q.
        self.p_report = [self.qtilde if e is None else q for e, q in zip(self.E, self.q)]
        self.q_report = [ZERO if e is None else b for e, b in zip(self.E, self.qbar)]
        self._weights = shared(self.r, float)

    @cached_property
    def twin(self) -> IPRRTwin:
        return IPRRTwin(self)

    def channel(self, max_entries: int | None = None) -> Channel:
        """The exact channel of Definition 5: ``d`` inputs, ``d`` outputs (over one denominator,
        ``one_denominator``)."""
        check_entries(self.d * self.d, f"IPRR's channel on {self.d:,} items", max_entries)
        return Channel(range(self.d), range(self.d), _rows(self.E, *self._one_denominator))

    @cached_property
    def _one_denominator(self) -> tuple[list, list, Exact]:
        """Definition 5's ``(q, qbar, qtilde)`` over one denominator (``one_denominator``)."""
        return one_denominator(self.E)

    def guarantee(self) -> Guarantee:
        """``(D_S, E)``-IPLDP (Theorems 1 and 2)."""
        return Guarantee("ipldp", {"budgets": {x: self.budgets[x] for x in self.sensitive}})

    def structure(self) -> ColumnStructure:
        """``Q(y|x) = S r_y + S [y = x]``: the form the estimators of ``reference.shared.direct`` use, over one
        denominator (``one_denominator``: ``S r_y`` is ``qbar_y``, ``S`` is ``qtilde``), so that the sums of its values
        (a row of ``ldpspec channel iprr --classes``, an estimate) add numerators; written ``S * r_y``, each had its
        own denominator ``(E_y - 1) M``, and seven distinct budgets took minutes."""
        q, qbar, qtilde = self._one_denominator
        return ColumnStructure(base=[ZERO if b is None else b for b in qbar], extra=[qtilde] * self.d)

    def perturb(self, item: int, rng: random.Random) -> int:
        """One user's report (Sec. 5.3's two stages): the true item with probability ``S``, else a sensitive item
        ``y`` with probability ``r_y / R``."""
        item_index(item, self.d)
        if draws.coin(rng, self.S):
            return item
        return self._spread.draw(rng)

    @cached_property
    def _spread(self) -> draws.Weighted:
        """The second stage: a sensitive item ``y`` with probability ``r_y / R``."""
        return draws.Weighted(self.sensitive, [self.r[y] for y in self.sensitive])

    def report_probabilities(self) -> tuple[list, list]:
        """``(q_x, qbar_x)`` for a sensitive item, ``(qtilde, 0)`` for another: the count estimate ``(C_x - n qbar_x)
        / (q_x - qbar_x)`` is estimator (12) in counts, ``n p_hat_x = C_x / S - n r_x``."""
        return self.p_report, self.q_report


class IPRRTwin(DirectEncodingTwin):
    """IPRR for many users at once. Reports are one unsigned integer per user."""

    def __init__(self, mechanism: IPRR):
        super().__init__(mechanism)
        self.sensitive = np.array(mechanism.sensitive, dtype=np.int64)
        self.keep = float(mechanism.S)
        self._keep = ExactBernoulli([self.keep])
        weights = np.array([mechanism._weights[y] for y in mechanism.sensitive])
        if len(weights) and weights.sum() == 0:  # every r_y below the smallest double (budgets of ~745 and more)
            weights = np.array([float(mechanism.r[y] / mechanism.R) for y in mechanism.sensitive])
        self.spread = weights / weights.sum() if len(weights) else weights  # r_y / R over D_S
        self._other = AliasTable(self.spread) if len(weights) else None

    def reports(self, items, rng: np.random.Generator) -> np.ndarray:
        """One report per user: the true item with probability ``S``, else a sensitive item with ``r_y / R``."""
        items = item_array(items, self.d)
        reports = item_reports(len(items), self.d)  # packed to ceil(log2 d) bits where that saves memory
        for start in range(0, len(items), ITEMS_PER_CHUNK):
            out = items[start:start + ITEMS_PER_CHUNK].astype(self.dtype)
            keep = self._keep.draw_columns(len(out), rng)[:, 0]
            moved = np.flatnonzero(~keep)  # only the users who do not keep their item draw another (S = 1: none)
            if len(moved):
                out[moved] = self.sensitive[self._other.draw(len(moved), rng)]
            put_items(reports, start, out)
        return reports

    def simulate_counts(self, true_counts, rng: np.random.Generator) -> np.ndarray:
        """The report counts of ``sum(true_counts)`` users, drawn directly in O(d).

        Holders of ``x`` keep it ``Bin(c_x, S)`` times; every other user draws from the same distribution
        ``r_y / R`` whatever their item, so all of them together are one multinomial.
        """
        counts = count_array(true_counts, self.d)
        result = rng.binomial(counts, self.keep)
        moved = int(counts.sum() - result.sum())
        if moved:
            result[self.sensitive] += rng.multinomial(moved, self.spread)
        return result


def _workload(n: int, d: int, rng: np.random.Generator):
    """Four levels of budgets on [0.1, 10] over the rarer half of the items, the other half non-sensitive (the
    preprint's experiments #1-#4 use four levels)."""
    levels = np.linspace(10, 0.1, 4)
    budgets = [None] * (d // 2) + [str(round(levels[k * 4 // (d - d // 2)], 3)) for k in range(d - d // 2)]
    return IPRR(budgets), rng.integers(0, d, n)


MECHANISMS = (
    Mechanism(
        name="iprr", title="Item-oriented personalized randomised response (IPRR)", home="ipldp2023",
        source="IPLDP preprint 2023, Definitions 4 and 5", notion="ipldp", parameters=(ITEM_BUDGETS,), build=IPRR,
        claims=("ipldp2023.theorem1", "ipldp2023.theorem2", "ipldp2023.def4-krr", "ipldp2023.def5-urr",
                "ipldp2023.sec5.1-design.restriction", "ipldp2023.sec5.1-design.column-bound",
                "ipldp2023.sec5.3-estimator", "ipldp2023.theorem3",
                "ipldp2023.theorem4"),
        docs="mechanisms/iprr.md", inputs="item", reports="item", direct_encoding=True,
        benchmark=Benchmark(workload=_workload, group="per-item-budgets")),
)

"""suGRR and suGRR-Sample (Cao et al. Sec. 4.1): uRR applied to the items of a set.

Every user holds a set ``s`` of ``m`` items of ``0 .. d-1``; ``k`` of the items are sensitive. uRR
(``reference.shared.urr``) with ``E = e^{eps'}`` and ``D = E + k - 1`` reports

    x in X_sen:  x with p = E / D,  each other sensitive item with q = 1 / D;
    x in X_non:  x with r = (E - 1) / D,  each sensitive item with q.

* **suGRR** perturbs each of the ``m`` items independently with ``eps' = eps / m`` (eq. (13)). The sensitive outputs
  form the protected part ``y0``; the non-sensitive outputs are revealed items. With ``F_x`` the number of
  occurrences of ``x`` among all users' outputs, the estimate of the true count of ``x`` (eq. (14), ``n`` times the
  paper's frequency) is ``(F_x - n m q) / (p - q)`` for a sensitive item and ``F_x / r`` for another.
* **suGRR-Sample** samples one item of ``s`` uniformly and perturbs it with ``eps' = eps``; the estimate (eq. (15))
  is ``m (F_x - n q) / (p - q)`` for a sensitive item and ``m F_x / r`` for another.

The release is ``(y0, R)`` (``reference.cao2022.sets``), with the paper's open points as the parameters ``y0``
(multiset or set) and ``empty`` (no protected part, or an empty one). Both claim SULDP (Theorem 1).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from functools import cached_property
from math import comb

import numpy as np

from ldpspec.reference import plain_draws as draws
from ldpspec.reference.cao2022.sets import (
    EMPTY,
    EMPTY_READINGS,
    SET_SIZE,
    Y0,
    Y0_READINGS,
    EverySensitive,
    all_sets,
    holder_counts,
    population_arrays,
    release,
    sample_one,
    sampled_counts,
    set_array,
    set_size,
    set_workload,
    user_set,
)
from ldpspec.reference.mechanism import DOMAIN_SIZE, EPSILON, Benchmark, Guarantee, Mechanism
from ldpspec.reference.shared.estimators import count_estimate
from ldpspec.reference.shared.urr import SENSITIVE, URR
from ldpspec.reference.validation import choice, domain_size, number_of_users
from ldpspec.spec import ONE, ZERO, Channel, InvalidParameter, budget, check_entries, count_text, value_text

NOTION = "suldp-joint"
"""The notion the mechanisms claim with their parameters: SULDP on the whole release (reading B of (11), page
"SULDP"). Theorem 1 is checked under every reading in the audit."""


def _release_order(label) -> tuple:
    y0, revealed = label
    return (y0 is not None, y0 or (), revealed)


def sugrr_distribution(items: Sequence[int], item_distribution: Callable, is_sensitive: Sequence[bool], y0: str,
                       empty: str) -> dict:
    """suGRR's release distribution for the set ``items``: each item's output drawn from ``item_distribution(x)``
    (``{z: P[z|x]}``, uRR's row at ``eps / m``), independently, the outputs combined into ``(y0, R)``. Plain
    arithmetic on the probabilities: exact numbers, or z3 terms of the budget for the audit's proofs."""
    partial = {((), ()): 1}  # (sensitive outputs with repeats, revealed items) -> probability
    for x in items:
        combined = {}
        for (sensitive, revealed), probability in partial.items():
            for z, pz in item_distribution(x).items():
                key = (tuple(sorted((*sensitive, z))), revealed) if is_sensitive[z] else (sensitive, (*revealed, z))
                combined[key] = combined[key] + probability * pz if key in combined else probability * pz
        partial = combined
    result = {}
    for (sensitive, revealed), probability in partial.items():
        label = release(sensitive, revealed, y0, empty)
        result[label] = result[label] + probability if label in result else probability
    return result


def sugrr_sample_distribution(items: Sequence[int], item_distribution: Callable, is_sensitive: Sequence[bool],
                              empty: str) -> dict:
    """suGRR-Sample's release distribution: ``P[z | s] = (1/m) sum_{i in s} P[z | i]`` (uRR's rows at ``eps``), as
    releases ``((z,), ())`` or ``(no y0, (z,))``. Plain arithmetic, as ``sugrr_distribution``."""
    result = {}
    for i in items:
        for z, pz in item_distribution(i).items():
            label = release([z], [], "multiset", empty) if is_sensitive[z] else release([], [z], "multiset", empty)
            share = pz / len(items)
            result[label] = result[label] + share if label in result else share
    return result


class _SetMechanism:
    """What suGRR and suGRR-Sample share: the parameters, the item mechanism (uRR), the release, the counts."""

    def __init__(self, epsilon, d: int, sensitive: Iterable[int], m: int, item_budget_divisor: int, y0: str,
                 empty: str):
        self.epsilon = budget(epsilon, "epsilon")
        self.d = domain_size(d)
        self.m = set_size(m, self.d)
        self.y0 = choice(y0, Y0_READINGS, "y0")
        self.empty = choice(empty, EMPTY_READINGS, "empty")
        # uRR on one item, at eps / m (suGRR) or eps (Sample)
        self.item = URR(self.epsilon / item_budget_divisor, self.d, sensitive)
        self.sensitive = self.item.sensitive
        self.p, self.q, self.r = self.item.c1, self.item.c2, self.item.c3

    def item_distribution(self, x: int) -> dict:
        """uRR's output distribution for the item ``x``: ``{z: P[z|x]}`` over the outputs it can produce."""
        return self._item_distributions[x]

    @cached_property
    def _item_distributions(self) -> list[dict]:
        channel = self.item.channel()
        return [{z: probability for z, probability in enumerate(channel.row(x)) if probability}
                for x in range(self.d)]

    def _channel(self, distribution, max_entries: int | None) -> Channel:
        sets = list(all_sets(self.d, self.m))
        rows = {s: distribution(s) for s in sets}
        outputs = sorted({label for row in rows.values() for label in row}, key=_release_order)
        check_entries(len(sets) * len(outputs), f"the channel on {count_text(len(sets))} sets of {self.m} items",
                      max_entries)
        return Channel(sets, outputs, [[rows[s].get(y, ZERO) for y in outputs] for s in sets])

    def guarantee(self) -> Guarantee:
        """SULDP on the whole release with ``Y_pro`` the protected parts the mechanism can release."""
        protected = sorted({y0 for y0, _ in self.channel().outputs if y0 is not None})
        return Guarantee(NOTION, {"sensitive_items": list(self.sensitive), "non_sensitive_items": None,
                                  "protected_outputs": protected, "epsilon": self.epsilon})

    def counts(self, outputs: Iterable[tuple]) -> list[int]:
        """``F_x``: the occurrences of ``x`` in the users' protected parts (sensitive ``x``) or revealed items."""
        counts = [0] * self.d
        for output in outputs:
            if not (isinstance(output, tuple) and len(output) == 2):
                raise InvalidParameter(f"a release must be a pair (y0, revealed items), got {value_text(output)}")
            y0, revealed = output
            for x in (*(y0 or ()), *revealed):
                counts[x] += 1
        return counts

    def _estimate(self, counts: Sequence[int], n: int, trials: int, scale: int) -> list:
        if len(counts) != self.d:
            raise InvalidParameter(f"counts must have one entry per item ({self.d}), got {len(counts)}")
        number_of_users(n)
        return [scale * (count_estimate(c, trials * n, self.p, self.q) if self.item.is_sensitive[x]
                         else count_estimate(c, n, self.r, 0)) for x, c in enumerate(counts)]

    def _moments(self, indicators: list[list], n: int, trials: int, scale: int) -> tuple[list, list]:
        """Mean and variance of every estimate when ``F_x`` is a sum of independent Bernoulli variables with the
        probabilities ``indicators[x]``."""
        means, variances = [], []
        for x, probabilities in enumerate(indicators):
            mean = sum(probabilities, ZERO)
            variance = sum((b * (1 - b) for b in probabilities), ZERO)
            p, q = (self.p, self.q) if self.item.is_sensitive[x] else (self.r, ZERO)
            offset = trials * n * q
            means.append(scale * (mean - offset) / (p - q))
            variances.append(scale * scale * variance / (p - q) ** 2)
        return means, variances


class SuGRR(_SetMechanism):
    """suGRR: uRR at ``eps / m`` on every item of the user's set (Cao et al. Sec. 4.1.1)."""

    def __init__(self, epsilon, d: int, sensitive: Iterable[int], m: int, y0: str = "multiset",
                 empty: str = "absent"):
        super().__init__(epsilon, d, sensitive, m, m, y0, empty)

    @cached_property
    def twin(self) -> SuGRRTwin:
        return SuGRRTwin(self)

    def distribution(self, items: Iterable[int]) -> dict:
        """The exact distribution of the release for the set ``items``: the ``m`` items' outputs, combined."""
        return sugrr_distribution(user_set(items, self.d, self.m), self.item_distribution, self.item.is_sensitive,
                                  self.y0, self.empty)

    def channel(self, max_entries: int | None = None) -> Channel:
        """The exact channel over every set of ``m`` items; the output is the whole release ``(y0, R)``."""
        check_entries(comb(self.d, self.m) * (len(self.sensitive) + 1) ** self.m,
                      f"suGRR's channel on {count_text(comb(self.d, self.m))} sets of {self.m} items", max_entries)
        return self._channel(self.distribution, max_entries)

    def perturb(self, items: Iterable[int], rng: random.Random) -> tuple:
        """One user's release: every item through uRR at ``eps / m``."""
        outputs = [self.item.perturb(x, rng) for x in user_set(items, self.d, self.m)]
        sensitive = [z for z in outputs if self.item.is_sensitive[z]]
        return release(sensitive, [z for z in outputs if not self.item.is_sensitive[z]], self.y0, self.empty)

    def estimate(self, counts: Sequence[int], n: int) -> list:
        """Eq. (14): ``(F_x - n m q) / (p - q)`` (sensitive), ``F_x / r`` (non-sensitive), exactly."""
        return self._estimate(counts, n, self.m, 1)

    def estimate_moments(self, item_sets: Sequence[Iterable[int]]) -> tuple[list, list]:
        """Exact mean and variance of every estimate, given every user's set.

        A user's outputs are independent across its items. Under ``y0 = "multiset"``, ``F_x`` sums one Bernoulli
        variable per item of every user (``P[z = x | i]``); under ``"set"`` a sensitive ``x`` counts a user once, with
        probability ``1 - prod_i (1 - P[z = x | i])``, so the estimator (14) is no longer unbiased.
        """
        sets = [user_set(s, self.d, self.m) for s in item_sets]
        distributions = {x: self.item_distribution(x) for x in range(self.d)}
        indicators = []
        for x in range(self.d):
            if self.y0 == "set" and self.item.is_sensitive[x]:
                probabilities = []
                for s in sets:
                    absent = ONE
                    for i in s:
                        absent = absent * (1 - distributions[i].get(x, ZERO))
                    probabilities.append(1 - absent)
            else:
                probabilities = [distributions[i].get(x, ZERO) for s in sets for i in s]
            indicators.append(probabilities)
        return self._moments(indicators, len(sets), self.m, 1)


class SuGRRSample(_SetMechanism):
    """suGRR-Sample: one item of the set, sampled uniformly, through uRR at ``eps`` (Cao et al. Sec. 4.1.1)."""

    def __init__(self, epsilon, d: int, sensitive: Iterable[int], m: int, empty: str = "absent"):
        super().__init__(epsilon, d, sensitive, m, 1, "multiset", empty)

    @cached_property
    def twin(self) -> SuGRRSampleTwin:
        return SuGRRSampleTwin(self)

    def distribution(self, items: Iterable[int]) -> dict:
        """``P[z | s] = (1/m) sum_{i in s} P_uRR[z | i]``, as releases ``((z,), ())`` or ``(no y0, (z,))``."""
        return sugrr_sample_distribution(user_set(items, self.d, self.m), self.item_distribution,
                                         self.item.is_sensitive, self.empty)

    def channel(self, max_entries: int | None = None) -> Channel:
        """The exact channel over every set of ``m`` items; the output is the one released item."""
        check_entries(comb(self.d, self.m) * self.d,
                      f"suGRR-Sample's channel on {count_text(comb(self.d, self.m))} sets of {self.m} items",
                      max_entries)
        return self._channel(self.distribution, max_entries)

    def perturb(self, items: Iterable[int], rng: random.Random) -> tuple:
        """One user's release: a uniformly sampled item of the set through uRR at ``eps``."""
        items = user_set(items, self.d, self.m)
        z = self.item.perturb(items[draws.below(rng, self.m)], rng)
        if self.item.is_sensitive[z]:
            return release([z], [], "multiset", self.empty)
        return release([], [z], "multiset", self.empty)

    def estimate(self, counts: Sequence[int], n: int) -> list:
        """Eq. (15): ``m (F_x - n q) / (p - q)`` (sensitive), ``m F_x / r`` (non-sensitive), exactly."""
        return self._estimate(counts, n, 1, self.m)

    def estimate_moments(self, item_sets: Sequence[Iterable[int]]) -> tuple[list, list]:
        """Exact mean and variance of every estimate: ``F_x`` sums one Bernoulli variable per user, with
        probability ``(1/m) sum_{i in s} P[z = x | i]`` (the per-user model)."""
        sets = [user_set(s, self.d, self.m) for s in item_sets]
        distributions = {x: self.item_distribution(x) for x in range(self.d)}
        indicators = [[sum((distributions[i].get(x, ZERO) for i in s), ZERO) / self.m for s in sets]
                      for x in range(self.d)]
        return self._moments(indicators, len(sets), 1, self.m)


class _SetTwin:
    """What the twins of suGRR and suGRR-Sample share: the mechanism, which items are sensitive, and the users' sets
    as an ``(n, m)`` array."""

    def __init__(self, mechanism: _SetMechanism):
        self.mechanism = mechanism
        self.is_sensitive = np.array(mechanism.item.is_sensitive)

    def sets(self, item_sets) -> np.ndarray:
        return set_array(item_sets, self.mechanism.d, self.mechanism.m)


class SuGRRTwin(_SetTwin):
    """suGRR for many users at once. A report is the ``m`` outputs of a user, sorted (the release is unordered)."""

    def reports(self, item_sets, rng: np.random.Generator) -> np.ndarray:
        """An ``(n, m)`` array: every item through uRR at ``eps / m``, each row sorted."""
        items = self.sets(item_sets)
        outputs = np.asarray(self.mechanism.item.twin.reports(items.ravel(), rng)).reshape(items.shape)
        return np.sort(outputs, axis=1)

    def outputs(self, reports: np.ndarray) -> list[tuple]:
        mechanism = self.mechanism
        result = []
        for row in np.asarray(reports).tolist():
            sensitive = [z for z in row if self.is_sensitive[z]]
            result.append(release(sensitive, [z for z in row if not self.is_sensitive[z]], mechanism.y0,
                                  mechanism.empty))
        return result

    def counts(self, reports: np.ndarray) -> np.ndarray:
        """``F_x``: occurrences in the rows; under ``y0 = "set"`` a repeated sensitive output counts once."""
        reports = np.asarray(reports)
        keep = np.ones(reports.shape, dtype=bool)
        if self.mechanism.y0 == "set":  # rows are sorted: a repeat sits right after its first occurrence
            keep[:, 1:] = reports[:, 1:] != reports[:, :-1]
        return np.bincount(reports[keep].ravel(), minlength=self.mechanism.d)

    def simulate_counts(self, population: Mapping, rng: np.random.Generator) -> np.ndarray:
        """The counts of the users of ``population = {set: number of users}``, drawn directly.

        Under ``y0 = "multiset"`` the counts are those of uRR at ``eps / m`` over every item of every user (each
        item is perturbed independently), drawn by uRR's aggregate simulation: the cost does not grow with ``n``.
        Under ``"set"`` a user's repeated outputs merge, which ties its items together: the counts are drawn from
        one report per user.
        """
        mechanism = self.mechanism
        if mechanism.y0 == "multiset":
            return mechanism.item.twin.simulate_counts(holder_counts(population, mechanism.d, mechanism.m), rng)
        sets, users = population_arrays(population, mechanism.d, mechanism.m)
        if not users.sum():
            return np.zeros(mechanism.d, dtype=np.int64)
        return self.counts(self.reports(np.repeat(sets, users, axis=0), rng))

    def estimate(self, counts, n: int) -> np.ndarray:
        """Eq. (14) in floats."""
        return _float_estimate(self.mechanism, counts, n, self.mechanism.m, 1)


class SuGRRSampleTwin(_SetTwin):
    """suGRR-Sample for many users at once. A report is the one released item of a user."""

    def reports(self, item_sets, rng: np.random.Generator) -> np.ndarray:
        """One item per user: a uniform item of its set, through uRR at ``eps``."""
        return self.mechanism.item.twin.reports(sample_one(self.sets(item_sets), rng), rng)

    def outputs(self, reports: np.ndarray) -> list[tuple]:
        empty = self.mechanism.empty
        return [release([z], [], "multiset", empty) if self.is_sensitive[z] else release([], [z], "multiset", empty)
                for z in np.asarray(reports).tolist()]

    def counts(self, reports: np.ndarray) -> np.ndarray:
        return self.mechanism.item.twin.counts(reports)

    def simulate_counts(self, population: Mapping, rng: np.random.Generator) -> np.ndarray:
        """The counts drawn directly: the sampled items are one multinomial per distinct set, then uRR's aggregate
        simulation on them."""
        mechanism = self.mechanism
        sampled = sampled_counts(population, mechanism.d, mechanism.m, rng)
        return mechanism.item.twin.simulate_counts(sampled, rng)

    def estimate(self, counts, n: int) -> np.ndarray:
        """Eq. (15) in floats."""
        return _float_estimate(self.mechanism, counts, n, 1, self.mechanism.m)


def _float_estimate(mechanism: _SetMechanism, counts, n: int, trials: int, scale: int) -> np.ndarray:
    number_of_users(n)
    counts = np.asarray(counts, dtype=float)
    sensitive = np.array(mechanism.item.is_sensitive)
    p = np.where(sensitive, float(mechanism.p), float(mechanism.r))
    q = np.where(sensitive, float(mechanism.q), 0.0)
    users = np.where(sensitive, trials * n, n)
    return scale * (counts - users * q) / (p - q)


_SOURCE = "Cao, Zhu, He, Zhang 2022, Sec. 4.1"
MECHANISMS = (
    Mechanism(
        name="sugrr", title="suGRR: uRR at eps/m on every item of a set", home="cao2022", source=_SOURCE,
        notion=NOTION, parameters=(EPSILON, DOMAIN_SIZE, SENSITIVE, SET_SIZE, Y0, EMPTY), build=SuGRR, claims=(),
        docs="mechanisms/sugrr.md", inputs="item-set", reports="items",
        benchmark=Benchmark(workload=set_workload(SuGRR, sensitive=True), group="sets")),
    Mechanism(
        name="sugrr-sample", title="suGRR-Sample: uRR at eps on one sampled item of a set", home="cao2022",
        source=_SOURCE, notion=NOTION, parameters=(EPSILON, DOMAIN_SIZE, SENSITIVE, SET_SIZE, EMPTY),
        build=SuGRRSample, claims=(), docs="mechanisms/sugrr.md", inputs="item-set", reports="item",
        benchmark=Benchmark(workload=set_workload(SuGRRSample, sensitive=True), group="sets")),
)


# --- the baselines of Sec. 2.3: every item sensitive ------------------------------------------------------------

class SetGRR(EverySensitive, SuGRR):
    """GRR for sets (Cao et al. Sec. 2.3): each of the ``m`` items through GRR at ``eps / m``, the ``m`` outputs
    released. It is suGRR with every item sensitive (uRR is then GRR), and claims eps-LDP (composition)."""


class SetGRRSample(EverySensitive, SuGRRSample):
    """GRR-Sample (Cao et al. Sec. 2.3): one sampled item of the set through GRR at ``eps``; suGRR-Sample with
    every item sensitive. Claims eps-LDP."""


MECHANISMS += (
    Mechanism(
        name="grr-set", title="GRR for sets: GRR at eps/m on every item (baseline)", home="cao2022",
        source="Cao et al. Sec. 2.3", notion="ldp", parameters=(EPSILON, DOMAIN_SIZE, SET_SIZE), build=SetGRR,
        claims=(), docs="mechanisms/sugrr.md",
        inputs="item-set", reports="items",
        benchmark=Benchmark(workload=set_workload(SetGRR, sensitive=False), group="sets")),
    Mechanism(
        name="grr-sample", title="GRR-Sample: GRR at eps on one sampled item of a set (baseline)", home="cao2022",
        source="Cao et al. Sec. 2.3", notion="ldp", parameters=(EPSILON, DOMAIN_SIZE, SET_SIZE), build=SetGRRSample,
        claims=(), docs="mechanisms/sugrr.md",
        inputs="item-set", reports="item",
        benchmark=Benchmark(workload=set_workload(SetGRRSample, sensitive=False), group="sets")),
)

"""suRAP and suRAP-Sample (Cao et al. Sec. 4.2): uRAP's bits for the items of a set.

A set ``s`` of ``m`` items of ``0 .. d-1`` becomes the m-hot vector ``a`` (a 1 at every item of ``s``); every bit is
perturbed independently with uRAP's probabilities (``reference.shared.urap``) at ``E = e^{eps'/2}``:

    j in X_sen:  P[b_j = 1 | a_j = 1] = p = E / (E + 1),    P[b_j = 1 | a_j = 0] = q = 1 / (E + 1);
    j in X_non:  P[b_j = 1 | a_j = 1] = r = (E - 1) / E,    P[b_j = 1 | a_j = 0] = 0            (eq. (18)).

* **suRAP** encodes the whole set with ``eps' = eps / m``; with ``F_x`` the number of reports with bit ``x`` set,
  the estimate of the number of users holding ``x`` (eq. (19)) is ``(F_x - n q) / (p - q)`` for a sensitive item
  and ``F_x / r`` for another.
* **suRAP-Sample** one-hot encodes one item of ``s``, sampled uniformly, with ``eps' = eps``; the estimate
  (eq. (20)) is ``m (F_x - n q) / (p - q)``, or ``m F_x / r``.

A non-sensitive 1 is set only by a holder of that item: it reveals the item. The paper says "``y0`` equals the vector
``b``" and also that the non-sensitive 1-bits are the invertible outputs (the audit's reading ``surap_y0``); the
parameter ``y0`` says which: ``"vector"`` (the whole ``b`` is the protected part) or ``"sensitive-bits"`` (the protected
part is ``b`` on the sensitive items, the revealed items are the others). The release is ``(y0, R)`` with ``R`` the
revealed items, and either way it carries the whole vector.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from functools import cached_property
from math import comb

import numpy as np

from ldpspec.reference import plain_draws as draws
from ldpspec.reference.cao2022.sets import (
    SET_SIZE,
    EverySensitive,
    all_sets,
    item_totals,
    population_arrays,
    sample_one,
    sampled_counts,
    set_array,
    set_size,
    set_workload,
    user_set,
)
from ldpspec.reference.cao2022.sugrr import NOTION
from ldpspec.reference.mechanism import DOMAIN_SIZE, EPSILON, Benchmark, Guarantee, Mechanism
from ldpspec.reference.shared.unary import UnaryEncoding
from ldpspec.reference.shared.urap import urap_bits
from ldpspec.reference.shared.urr import SENSITIVE, sensitive_items
from ldpspec.reference.twin_sampling import packed_bit_counts, unpacked_rows
from ldpspec.reference.validation import choice, domain_size, number_of_users
from ldpspec.spec import (
    ZERO,
    Channel,
    IndependentBits,
    InvalidParameter,
    Parameter,
    budget,
    check_entries,
    count_text,
    map_outputs,
    value_text,
)

Y0_READINGS = ("vector", "sensitive-bits")
"""What suRAP's protected part is (the audit's reading ``surap_y0``)."""


class _SuRAPBase:
    """What suRAP and suRAP-Sample share: the parameters, uRAP's bits at ``eps'``, the release and the counts."""

    def __init__(self, epsilon, d: int, sensitive: Iterable[int], m: int, divisor: int, y0: str):
        self.epsilon = budget(epsilon, "epsilon")
        self.d = domain_size(d)
        self.m = set_size(m, self.d)
        self.sensitive = sensitive_items(sensitive, self.d)
        self.y0 = choice(y0, Y0_READINGS, "y0")
        sensitive = set(self.sensitive)
        self.is_sensitive = [x in sensitive for x in range(self.d)]
        # uRAP's bits at eps' = eps / divisor, as a unary encoding over the d items
        self.encoding = UnaryEncoding(urap_bits((self.epsilon / (2 * divisor)).exponential(), self.d, self.sensitive))
        sensitive_bit, non_sensitive_bit = (self.encoding.bits[self.sensitive[0]],
                                            next((b for b, s in zip(self.encoding.bits, self.is_sensitive) if not s),
                                                 None))
        self.p, self.q = sensitive_bit.p, sensitive_bit.q
        self.r = non_sensitive_bit.p if non_sensitive_bit is not None else None

    def release(self, vector: Sequence[int]) -> tuple:
        """The release ``(y0, R)`` of the perturbed vector ``b``."""
        revealed = tuple(j for j, bit in enumerate(vector) if bit and not self.is_sensitive[j])
        if self.y0 == "vector":
            return tuple(vector), revealed
        return tuple(vector[j] for j in self.sensitive), revealed

    def vector(self, output: tuple) -> list[int]:
        """The perturbed vector ``b`` a release carries."""
        if not (isinstance(output, tuple) and len(output) == 2):
            raise InvalidParameter(f"a release must be a pair (y0, revealed items), got {value_text(output)}")
        y0, revealed = output
        if self.y0 == "vector":
            return list(y0)
        vector = [0] * self.d
        for j, bit in zip(self.sensitive, y0):
            vector[j] = bit
        for j in revealed:
            vector[j] = 1
        return vector

    def _relabelled(self, vectors: Channel, max_entries: int | None) -> Channel:
        check_entries(len(vectors.inputs) * len(vectors.outputs), "the channel", max_entries)
        return map_outputs(vectors, self.release)

    def guarantee(self) -> Guarantee:
        """SULDP on the whole release, ``Y_pro`` every protected part the mechanism can release."""
        protected = sorted({y0 for y0, _ in self.channel().outputs})
        return Guarantee(NOTION, {"sensitive_items": list(self.sensitive), "non_sensitive_items": None,
                                  "protected_outputs": protected, "epsilon": self.epsilon})

    def counts(self, outputs: Iterable[tuple]) -> list[int]:
        """``F_x``: the number of releases with bit ``x`` set."""
        counts = [0] * self.d
        for output in outputs:
            counts = [c + bit for c, bit in zip(counts, self.vector(output))]
        return counts

    def _scaled_estimate(self, counts: Sequence[int], n: int, scale: int) -> list:
        return [scale * estimate for estimate in self.encoding.estimate(counts, n)]

    def _moments(self, one_probabilities: list[list], scale: int) -> tuple[list, list]:
        """Mean and variance of every estimate when ``F_x`` sums independent Bernoulli variables with the
        probabilities ``one_probabilities[x]`` (one per user)."""
        means, variances = [], []
        for x, probabilities in enumerate(one_probabilities):
            a, b = self.encoding.bits[x].p, self.encoding.bits[x].q
            n = len(probabilities)
            means.append(scale * (sum(probabilities, ZERO) - n * b) / (a - b))
            variances.append(scale * scale * sum((s * (1 - s) for s in probabilities), ZERO) / (a - b) ** 2)
        return means, variances


class SuRAP(_SuRAPBase):
    """suRAP: the m-hot vector of the set, every bit perturbed at ``eps / m`` (Cao et al. Sec. 4.2.1)."""

    def __init__(self, epsilon, d: int, sensitive: Iterable[int], m: int, y0: str = "vector"):
        super().__init__(epsilon, d, sensitive, m, m, y0)

    @cached_property
    def twin(self) -> SuRAPTwin:
        return SuRAPTwin(self)

    def bit_distributions(self, items: Iterable[int]) -> tuple:
        """``(P[b_j = 0], P[b_j = 1])`` for every bit, given the set."""
        items = set(user_set(items, self.d, self.m))
        return tuple((bit.not_p, bit.p) if j in items else (bit.not_q, bit.q)
                     for j, bit in enumerate(self.encoding.bits))

    def channel(self, max_entries: int | None = None) -> Channel:
        """The exact channel over every set of ``m`` items, the whole vector released (as ``(y0, R)``)."""
        sets = comb(self.d, self.m)
        check_entries(sets * 2 ** self.d, f"suRAP's channel on {count_text(sets)} sets and "
                      f"{count_text(2 ** self.d)} vectors", max_entries)
        vectors = IndependentBits(list(all_sets(self.d, self.m)),
                                  {s: self.bit_distributions(s) for s in all_sets(self.d, self.m)})
        return self._relabelled(vectors.explicit(max_entries), max_entries)

    def perturb(self, items: Iterable[int], rng: random.Random) -> tuple:
        """One user's release: every bit of the m-hot vector perturbed independently."""
        return self.release([int(draws.coin(rng, one)) for _, one in self.bit_distributions(items)])

    def estimate(self, counts: Sequence[int], n: int) -> list:
        """Eq. (19): ``(F_x - n q) / (p - q)`` (sensitive), ``F_x / r`` (non-sensitive), exactly."""
        return self._scaled_estimate(counts, n, 1)

    def estimate_moments(self, item_sets: Sequence[Iterable[int]]) -> tuple[list, list]:
        """Exact mean and variance of every estimate: bit ``x`` of a user is 1 with ``a_x`` if it holds ``x``,
        else ``b_x``, independently across users."""
        sets = [set(user_set(s, self.d, self.m)) for s in item_sets]
        bits = self.encoding.bits
        return self._moments([[bits[x].p if x in s else bits[x].q for s in sets] for x in range(self.d)], 1)


class SuRAPSample(_SuRAPBase):
    """suRAP-Sample: one item of the set, sampled uniformly, one-hot encoded at ``eps`` (Cao et al. Sec. 4.2.1)."""

    def __init__(self, epsilon, d: int, sensitive: Iterable[int], m: int, y0: str = "vector"):
        super().__init__(epsilon, d, sensitive, m, 1, y0)

    @cached_property
    def twin(self) -> SuRAPSampleTwin:
        return SuRAPSampleTwin(self)

    def channel(self, max_entries: int | None = None) -> Channel:
        """``P[b | s] = (1/m) sum_{i in s} P_uRAP[b | i]`` over every set of ``m`` items (as ``(y0, R)``)."""
        sets = comb(self.d, self.m)
        check_entries(sets * 2 ** self.d, f"suRAP-Sample's channel on {count_text(sets)} sets and "
                      f"{count_text(2 ** self.d)} vectors", max_entries)
        sets = list(all_sets(self.d, self.m))
        one_item = self.encoding.channel().explicit(max_entries)
        done = {}  # each distinct tuple of summands once: the rows of one item repeat a few values
        rows = []
        for s in sets:
            row = []
            for k in range(len(one_item.outputs)):
                parts = tuple(one_item.row(i)[k] for i in s)
                key = tuple(map(id, parts))
                if key not in done:
                    done[key] = (parts, sum(parts, ZERO) / self.m)
                row.append(done[key][1])
            rows.append(row)
        return self._relabelled(Channel(sets, one_item.outputs, rows), max_entries)

    def perturb(self, items: Iterable[int], rng: random.Random) -> tuple:
        """One user's release: a uniform item of the set through uRAP at ``eps``."""
        items = user_set(items, self.d, self.m)
        return self.release(self.encoding.perturb(items[draws.below(rng, self.m)], rng))

    def estimate(self, counts: Sequence[int], n: int) -> list:
        """Eq. (20): ``m (F_x - n q) / (p - q)`` (sensitive), ``m F_x / r`` (non-sensitive), exactly."""
        return self._scaled_estimate(counts, n, self.m)

    def estimate_moments(self, item_sets: Sequence[Iterable[int]]) -> tuple[list, list]:
        """Exact mean and variance of every estimate: bit ``x`` of a user is 1 with probability
        ``b_x + (a_x - b_x) [x in s] / m`` (the per-user model)."""
        sets = [set(user_set(s, self.d, self.m)) for s in item_sets]
        bits = self.encoding.bits
        return self._moments([[bits[x].q + (bits[x].p - bits[x].q) * (1 if x in s else 0) / self.m for s in sets]
                              for x in range(self.d)], self.m)


class _SuRAPTwinBase:
    """Packed vectors (``n x ceil(d / 8)`` bytes), as for every unary encoding."""

    def __init__(self, mechanism: _SuRAPBase):
        self.mechanism = mechanism
        self.encoding_twin = mechanism.encoding.twin

    def outputs(self, reports: np.ndarray) -> list[tuple]:
        return [self.mechanism.release(row) for row in unpacked_rows(reports, self.mechanism.d)]

    def counts(self, reports: np.ndarray) -> np.ndarray:
        return packed_bit_counts(reports, self.mechanism.d)


class SuRAPTwin(_SuRAPTwinBase):
    def reports(self, item_sets, rng: np.random.Generator) -> np.ndarray:
        """The m-hot vectors perturbed bit by bit, packed."""
        mechanism = self.mechanism
        return self.encoding_twin.packed(set_array(item_sets, mechanism.d, mechanism.m), mechanism.d, rng)

    def simulate_counts(self, population: Mapping, rng: np.random.Generator) -> np.ndarray:
        """``F_x ~ Bin(c_x, a_x) + Bin(n - c_x, b_x)``: the bits are independent across items and users, so only the
        number ``c_x`` of holders of each item matters."""
        mechanism = self.mechanism
        sets, users = population_arrays(population, mechanism.d, mechanism.m)
        holders, n = item_totals(sets, users, mechanism.d), users.sum()
        return rng.binomial(holders, self.encoding_twin.a) + rng.binomial(n - holders, self.encoding_twin.b)

    def estimate(self, counts, n: int) -> np.ndarray:
        """Eq. (19) in floats."""
        return self.encoding_twin.estimate(counts, n)


class SuRAPSampleTwin(_SuRAPTwinBase):
    def reports(self, item_sets, rng: np.random.Generator) -> np.ndarray:
        """One uniform item of each set, one-hot encoded and perturbed, packed."""
        mechanism = self.mechanism
        items = set_array(item_sets, mechanism.d, mechanism.m)
        sampled = sample_one(items, rng)
        return self.encoding_twin.packed(sampled, mechanism.d, rng)

    def simulate_counts(self, population: Mapping, rng: np.random.Generator) -> np.ndarray:
        """The sampled items (one multinomial per distinct set), then the unary encoding's binomials."""
        mechanism = self.mechanism
        sampled = sampled_counts(population, mechanism.d, mechanism.m, rng)
        return self.encoding_twin.simulate_counts(sampled, rng)

    def estimate(self, counts, n: int) -> np.ndarray:
        """Eq. (20) in floats."""
        number_of_users(n)
        return self.mechanism.m * self.encoding_twin.estimate(counts, n)


Y0 = Parameter("y0", "choice", "suRAP's protected part: the whole vector, or its sensitive bits (the audit's "
               "reading surap_y0)",
               required=False, default="vector", choices=Y0_READINGS)


_SOURCE = "Cao, Zhu, He, Zhang 2022, Sec. 4.2"
MECHANISMS = (
    Mechanism(
        name="surap", title="suRAP: uRAP's bits at eps/m on the m-hot vector of a set", home="cao2022",
        source=_SOURCE, notion=NOTION, parameters=(EPSILON, DOMAIN_SIZE, SENSITIVE, SET_SIZE, Y0), build=SuRAP,
        claims=(), docs="mechanisms/surap.md", inputs="item-set", reports="bit-vector",
        benchmark=Benchmark(workload=set_workload(SuRAP, sensitive=True), group="sets")),
    Mechanism(
        name="surap-sample", title="suRAP-Sample: uRAP at eps on one sampled item of a set", home="cao2022",
        source=_SOURCE, notion=NOTION, parameters=(EPSILON, DOMAIN_SIZE, SENSITIVE, SET_SIZE, Y0),
        build=SuRAPSample, claims=(), docs="mechanisms/surap.md", inputs="item-set", reports="bit-vector",
        benchmark=Benchmark(workload=set_workload(SuRAPSample, sensitive=True), group="sets")),
)


# --- the baselines of Sec. 2.3: every item sensitive ------------------------------------------------------------

class SetRAPPOR(EverySensitive, SuRAP):
    """RAPPOR for sets (Qin et al., CCS 2016; Cao et al. eqs. (6)-(7)): the m-hot vector with every bit kept with
    ``e^{eps/(2m)} / (e^{eps/(2m)} + 1)``; suRAP with every item sensitive. Claims eps-LDP."""


class SetRAPPORSample(EverySensitive, SuRAPSample):
    """RAPPOR-Sample (Cao et al. Sec. 2.3): basic RAPPOR at ``eps`` on one sampled item of the set; suRAP-Sample with
    every item sensitive. Claims eps-LDP."""


MECHANISMS += (
    Mechanism(
        name="rappor-set", title="RAPPOR for sets: the m-hot vector at eps/(2m) per bit (baseline)", home="cao2022",
        source="Qin et al. CCS 2016; Cao et al. Sec. 2.3", notion="ldp", parameters=(EPSILON, DOMAIN_SIZE, SET_SIZE),
        build=SetRAPPOR, claims=(), docs="mechanisms/surap.md",
        inputs="item-set", reports="bit-vector",
        benchmark=Benchmark(workload=set_workload(SetRAPPOR, sensitive=False), group="sets")),
    Mechanism(
        name="rappor-sample", title="RAPPOR-Sample: basic RAPPOR on one sampled item of a set (baseline)",
        home="cao2022", source="Cao et al. Sec. 2.3", notion="ldp", parameters=(EPSILON, DOMAIN_SIZE, SET_SIZE),
        build=SetRAPPORSample, claims=(), docs="mechanisms/surap.md",
        inputs="item-set", reports="bit-vector",
        benchmark=Benchmark(workload=set_workload(SetRAPPORSample, sensitive=False), group="sets")),
)

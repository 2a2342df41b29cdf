"""Optimized local hashing (OLH; Wang, Blocki, Li, Jha, USENIX Security 2017, Sec. 4.4), over a finite hash family.

A user with item ``x`` of ``0 .. d-1`` draws a hash function ``h`` uniformly from a finite family ``H`` of functions
from the items to ``0 .. g-1``, hashes ``v = h(x)``, perturbs ``v`` with GRR over the ``g`` hash values (``p = E /
(E + g - 1)``, ``q' = 1 / (E + g - 1)``, ``E = e^eps``) and releases the pair ``(h, y)``: both together are the
release, so

    P[(h, y) | x] = (1 / |H|) p    if y = h(x),
                    (1 / |H|) q'   otherwise.

**The family** (the paper assumes a universal family and leaves it open; this is the project's choice, see the page
"Optimized local hashing"): ``g`` is prime, ``k`` is the smallest integer ``>= 1`` with ``g^k >= d``, and the hash
function ``h_j`` of index ``j`` of ``0 .. g^k - 1`` is the inner product of base-``g`` digits

    h_j(x) = (j_0 x_0 + j_1 x_1 + ... + j_(k-1) x_(k-1)) mod g,

with ``j_i`` and ``x_i`` the digits of ``j`` and ``x``. For items ``x != x'`` a digit ``x_i - x'_i`` is non-zero,
hence invertible mod the prime ``g``, so ``h_j(x) - h_j(x')`` is uniform on ``0 .. g-1`` when ``j`` is: two items
collide with probability exactly ``1 / g``. A report therefore supports the item ``x`` (``y = h(x)``) with
probability ``p`` when ``x`` is the user's item and

    q = p (1/g) + q' (1 - 1/g) = 1/g

otherwise, exactly, and the support count ``C_x`` gives the count estimator of a pure protocol (Wang et al. Sec. 3)
``c_hat_x = (C_x - n/g) / (p - 1/g)``, exactly unbiased, with the variance of ``reference.shared.estimators`` at
``q = 1/g``: ``n (E - 1 + g)^2 / ((E - 1)^2 (g - 1))`` plus ``c_x (1 - p - 1/g) / (p - 1/g)``.

**g** defaults to the prime of ``2 .. MAX_HASH_RANGE`` that minimises that first term (Wang et al. take the real
``g = E + 1``, its minimum); any prime of that range may be given (``g = 2`` is binary local hashing).
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Sequence
from fractions import Fraction
from functools import cached_property

import numpy as np

from ldpspec.reference import plain_draws as draws
from ldpspec.reference.mechanism import DOMAIN_SIZE, EPSILON, Benchmark, Guarantee, Mechanism
from ldpspec.reference.shared.estimators import CountEstimator, CountEstimatorTwin
from ldpspec.reference.shared.grr import Grr
from ldpspec.reference.twin_sampling import ITEMS_PER_CHUNK
from ldpspec.reference.validation import count_array, domain_size, item_array, item_index
from ldpspec.spec import Channel, InvalidParameter, Parameter, budget, check_entries, integer, value_text

MAX_HASH_RANGE = 65521
"""The largest ``g``: the largest prime below ``2^16``. A hash value then fits 16 bits, and a report's pair ``(j, y)``
read as the one integer ``j g + y < g^(k+1) < d g^2`` fits 63 bits for every domain up to
``validation.MAX_DOMAIN``."""

SUPPORT_ENTRIES = 1 << 20
"""The most entries the twin works on together: hash values ``h_j(x)`` when it counts supports, users' pairs when
it tallies them (8 MiB of int64)."""


def is_prime(n: int) -> bool:
    """Whether the integer ``n`` is prime, by trial division (``n`` is at most ``MAX_HASH_RANGE``)."""
    return n >= 2 and all(n % divisor for divisor in range(2, math.isqrt(n) + 1))


def hash_value(j, x, g: int, k: int):
    """``h_j(x) = (sum_i j_i x_i) mod g`` over the ``k`` base-``g`` digits ``j_i`` of ``j`` and ``x_i`` of ``x``.

    Plain arithmetic: integers in the plain reference, NumPy integer arrays (broadcast against each other) in the
    twin."""
    total = 0
    for _ in range(k):
        total = total + (j % g) * (x % g)
        j, x = j // g, x // g
    return total % g


def optimal_hash_range(epsilon) -> int:
    """The default ``g`` at the budget ``epsilon`` (``Nats``): the prime ``g`` of ``2 .. MAX_HASH_RANGE`` that
    minimises the variance term ``(E - 1 + g)^2 / (g - 1)`` of Wang et al. (Sec. 4.4) at ``E = e^eps``, ties to the
    smaller.

    With ``t = g - 1`` the term is ``E^2 / t + t + 2E``, convex in ``t`` with its minimum at ``g = E + 1``. So the
    best prime is the largest prime ``a <= E + 1`` or the smallest prime ``b > E + 1``, and ``a`` is at least as good
    exactly when ``E^2 <= (a - 1)(b - 1)`` (subtract the two terms and divide by ``b - a > 0``). Beyond
    ``MAX_HASH_RANGE`` (``E + 1 >= 65521``, ``eps >= ln 65520 = 11.0901...``) the term decreases up to the cap,
    which is prime: it is ``g``. Every comparison is exact."""
    E = epsilon.exponential()
    # eps >= 12 is decided on the budget itself: an enclosure of e^eps takes seconds for eps near 10^1999
    if epsilon >= 12 or E + 1 >= MAX_HASH_RANGE:
        return MAX_HASH_RANGE
    near = int(float(E)) + 1  # floor(E + 1) or next to it: the exact comparisons below decide
    below = next(c for c in range(near + 1, 1, -1) if is_prime(c) and E + 1 >= c)
    above = next(c for c in itertools.count(max(2, near - 1)) if is_prime(c) and E + 1 < c)
    return below if E * E <= (below - 1) * (above - 1) else above


def hash_range(g, epsilon) -> int:
    """``g`` as given (a prime of ``2 .. MAX_HASH_RANGE``), or ``optimal_hash_range(epsilon)`` for ``None``."""
    if g is None:
        return optimal_hash_range(epsilon)
    g = integer(g, "g (the hash range)", 2, MAX_HASH_RANGE)
    if not is_prime(g):
        raise InvalidParameter(f"g (the hash range) must be a prime in [2, {MAX_HASH_RANGE:,}] (the hash family needs "
                               f"a prime), got {g}")
    return g


class LocalHashing(CountEstimator):
    """Local hashing over the items ``0 .. d-1`` with budget ``epsilon`` and ``g`` hash values (a prime; by default
    the prime that minimises the variance: OLH). The server side is the count estimator (``CountEstimator``) on the
    support counts, with ``(p, 1/g)`` for every item (``report_probabilities``)."""

    # --- the plain reference ---

    def __init__(self, epsilon, d: int, g: int | None = None):
        self.epsilon = budget(epsilon, "epsilon")
        self.d = domain_size(d)
        self.g = hash_range(g, self.epsilon)
        self.k = next(k for k in itertools.count(1) if self.g ** k >= self.d)
        self.hashes = self.g ** self.k
        """``|H|``: the hash functions ``h_j``, ``j = 0 .. g^k - 1``."""
        self.perturbation = Grr(self.epsilon, self.g)
        """GRR over the hash values: ``p = E / (E + g - 1)``, ``q' = 1 / (E + g - 1)``."""
        self.p = self.perturbation.p
        self.q = Fraction(1, self.g)
        """``P[a report supports x | the user's item is not x]``: ``1/g`` (``q*`` of Wang et al., Sec. 4.4)."""

    @cached_property
    def twin(self) -> LocalHashingTwin:
        return LocalHashingTwin(self)

    def hash(self, j: int, x: int) -> int:
        """``h_j(x)``."""
        return hash_value(j, x, self.g, self.k)

    def channel(self, max_entries: int | None = None) -> Channel:
        """The exact channel: ``d`` inputs, the ``g^(k+1)`` pairs ``(j, y)`` as outputs, ``P[(j, y) | x] = p / g^k``
        if ``y = h_j(x)``, else ``q' / g^k`` (refused beyond ``max_entries`` probabilities)."""
        outputs = self.hashes * self.g
        check_entries(self.d * outputs, f"OLH's channel on {self.d:,} items with g = {self.g:,} ({outputs:,} outputs)",
                      max_entries)
        hit, miss = self.perturbation.p / self.hashes, self.perturbation.q / self.hashes
        pairs = [(j, y) for j in range(self.hashes) for y in range(self.g)]
        rows = [[hit if y == self.hash(j, x) else miss for j, y in pairs] for x in range(self.d)]
        return Channel(range(self.d), pairs, rows)

    def guarantee(self) -> Guarantee:
        return Guarantee("ldp", {"epsilon": self.epsilon})

    def perturb(self, item: int, rng: random.Random) -> tuple[int, int]:
        """One user's release ``(j, y)``: the hash index ``j`` uniform on ``0 .. g^k - 1``, then ``y``, GRR over the
        ``g`` hash values applied to ``h_j(item)`` (``Grr.perturb``: a coin with ``p``, else one of the other values
        uniformly)."""
        item_index(item, self.d)
        j = draws.below(rng, self.hashes)
        return j, self.perturbation.perturb(self.hash(j, item), rng)

    def counts(self, outputs: Sequence) -> list[int]:
        """``C_x``: the number of releases ``(j, y)`` that support ``x``, that is ``h_j(x) = y`` (``Support`` of
        Wang et al., Sec. 4.4)."""
        counts = [0] * self.d
        for output in outputs:
            j, y = self._pair(output)
            counts = [c + (self.hash(j, x) == y) for x, c in enumerate(counts)]
        return counts

    def _pair(self, output) -> tuple[int, int]:
        """A release ``(j, y)``, checked."""
        if not isinstance(output, (tuple, list)) or len(output) != 2:
            raise InvalidParameter(f"a release must be a pair (j, y), got {value_text(output)}"[:300])
        return (integer(output[0], "a release's hash index j", 0, self.hashes - 1),
                integer(output[1], "a release's hash value y", 0, self.g - 1))

    def report_probabilities(self) -> tuple[list, list]:
        """``(p, 1/g)`` for every item: a release supports ``x`` with ``p`` from a holder of ``x`` and with exactly
        ``1/g`` from anyone else (the collision probability of the family). So the estimate is
        ``c_hat_x = (C_x - n/g) / (p - 1/g)``, the estimator of a pure protocol (Wang et al., Sec. 3 and 4.4), and its
        variance ``n q (1 - q) / (p - q)^2 + c_x (1 - p - q) / (p - q)`` at ``q = 1/g``: ``C_x`` is a sum of ``c_x``
        Bernoulli(``p``) and ``n - c_x`` Bernoulli(``1/g``) variables, independent across users."""
        return [self.p] * self.d, [self.q] * self.d


def uniform_tally(count: int, cells: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """``count`` draws, uniform on ``0 .. cells-1``, as ``(cells, how often each)``: a multinomial over every cell
    when there are at least as many draws as cells, else the draws themselves, once each (``merged_tally`` adds up
    repeats). The work is at most ``min(count, cells)``, and the distribution is the same."""
    if count >= cells:
        tally = rng.multinomial(count, np.full(cells, 1 / cells))
        drawn = np.flatnonzero(tally)
        return drawn, tally[drawn]
    return rng.integers(0, cells, count), np.ones(count, dtype=np.int64)


def merged_tally(cells: list[np.ndarray], weights: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """Tallies of the same cells added together: ``(distinct cells, total weight of each)``."""
    distinct, position = np.unique(np.concatenate(cells), return_inverse=True)
    totals = np.zeros(len(distinct), dtype=np.int64)
    np.add.at(totals, position, np.concatenate(weights))
    return distinct, totals


class LocalHashingTwin(CountEstimatorTwin):
    """Local hashing for many users at once. A report is a row ``(j, y)`` of two unsigned integers, of the smallest
    type that holds ``g^k - 1``: the hash index and the perturbed hash value."""

    def __init__(self, mechanism: LocalHashing):
        self.mechanism = mechanism
        self.d, self.g, self.k, self.hashes = mechanism.d, mechanism.g, mechanism.k, mechanism.hashes
        self.dtype = np.min_scalar_type(self.hashes - 1)
        perturbation = mechanism.perturbation
        self._kept = float(perturbation.p - perturbation.q)  # (E - 1) / (E + g - 1): no overflow at eps = 1000

    def reports(self, items, rng: np.random.Generator) -> np.ndarray:
        """One row ``(j, y)`` per user: ``j`` uniform, ``y`` GRR over the hash values applied to ``h_j(x)`` (the
        twin of ``Grr``), drawn a chunk of users at a time."""
        items = item_array(items, self.d)
        reports = np.empty((len(items), 2), dtype=self.dtype)
        for start in range(0, len(items), ITEMS_PER_CHUNK):
            chunk = items[start:start + ITEMS_PER_CHUNK]
            hashes = rng.integers(0, self.hashes, len(chunk), dtype=np.int64)
            values = self.mechanism.perturbation.twin.reports(hash_value(hashes, chunk, self.g, self.k), rng)
            reports[start:start + len(chunk), 0] = hashes
            reports[start:start + len(chunk), 1] = np.asarray(values)
        return reports

    def _checked(self, reports) -> np.ndarray:
        """The reports as int64 rows ``(j, y)``, or ``InvalidParameter``."""
        reports = np.asarray(reports)
        rows = reports.ndim == 2 and reports.shape[1] == 2 and (
            reports.size == 0 or np.issubdtype(reports.dtype, np.integer))
        if not rows or (reports.size and (reports.min() < 0 or reports[:, 0].max() >= self.hashes
                                          or reports[:, 1].max() >= self.g)):
            raise InvalidParameter(f"reports must be rows (j, y) of integers, j in [0, {self.hashes - 1}] and y in "
                                   f"[0, {self.g - 1}]")
        return reports.astype(np.int64, copy=False)

    def outputs(self, reports) -> list[tuple[int, int]]:
        return [(j, y) for j, y in self._checked(reports).tolist()]

    def counts(self, reports) -> np.ndarray:
        """``C_x``: the reports with ``h_j(x) = y``. The pairs are tallied first (a chunk of users at a time), so the
        supports are computed once per distinct pair: ``min(n, g^(k+1)) x d`` hash values."""
        reports = self._checked(reports)
        cells, weights = [], []
        for start in range(0, len(reports), SUPPORT_ENTRIES):
            chunk = reports[start:start + SUPPORT_ENTRIES]
            distinct, multiplicity = np.unique(chunk[:, 0] * self.g + chunk[:, 1], return_counts=True)
            cells.append(distinct)
            weights.append(multiplicity)
        if not cells:
            return np.zeros(self.d, dtype=np.int64)
        return self.support_counts(*merged_tally(cells, weights))

    def support_counts(self, pairs: np.ndarray, weights: np.ndarray) -> np.ndarray:
        """``C_x = sum_r weights[r] [h_j(x) = y]`` over distinct pairs ``pairs[r] = j g + y``, computed
        ``SUPPORT_ENTRIES`` hash values at a time."""
        counts = np.zeros(self.d, dtype=np.int64)
        block = min(self.d, SUPPORT_ENTRIES)
        rows = max(1, SUPPORT_ENTRIES // block)
        for first_item in range(0, self.d, block):
            items = np.arange(first_item, min(self.d, first_item + block), dtype=np.int64)
            for start in range(0, len(pairs), rows):
                hashes, values = np.divmod(pairs[start:start + rows, None], self.g)
                supported = hash_value(hashes, items[None, :], self.g, self.k) == values
                counts[items] += weights[start:start + rows] @ supported
        return counts

    def simulate_counts(self, true_counts, rng: np.random.Generator) -> np.ndarray:
        """The support counts of ``sum(true_counts)`` users, drawn directly: exact in distribution, at a cost that
        does not grow with the number of users.

        GRR's decomposition (``GrrTwin.simulate_counts``): ``y`` is ``h_j(x)`` with probability ``p - q'`` and
        uniform on the ``g`` values otherwise. So ``Bin(c_x, p - q')`` holders of ``x`` report ``(j, h_j(x))`` with
        ``j`` uniform (a multinomial over the ``g^k`` hash functions), and every other user reports a pair uniform
        on all ``g^(k+1)`` pairs, whatever their item (one multinomial). The support counts are then computed from
        the tally of pairs (``support_counts``). The work is ``O(d g^k)`` for the draws and ``O(g^(k+1) d k)`` for
        the supports, at most, whatever ``n``."""
        counts = count_array(true_counts, self.d)
        kept = rng.binomial(counts, self._kept)
        cells, weights = [], []
        for item in np.flatnonzero(kept):
            hashes, multiplicity = uniform_tally(int(kept[item]), self.hashes, rng)
            cells.append(hashes * self.g + hash_value(hashes, int(item), self.g, self.k))
            weights.append(multiplicity)
        pairs, multiplicity = uniform_tally(int(counts.sum() - kept.sum()), self.hashes * self.g, rng)
        cells.append(pairs)
        weights.append(multiplicity)
        return self.support_counts(*merged_tally(cells, weights))



def _workload(n: int, d: int, rng: np.random.Generator):
    return LocalHashing(1, d), rng.integers(0, d, n)


def _multi_freq_ldpy(d: int, epsilon: float):
    """multi-freq-ldpy's OLH client (``LH_Client`` with ``optimal=True``: ``g = round(e^eps) + 1``, an xxhash of
    the item with a random seed, then its GRR client), called once per user; it numbers the items from 0. Called
    once before it is timed, so that numba compiles its GRR client."""
    from multi_freq_ldpy.pure_frequency_oracles.LH import LH_Client

    LH_Client(0, d, epsilon, True)
    return lambda values: [LH_Client(x, d, epsilon, True) for x in values]


def _pure_ldp(d: int, epsilon: float):
    """pure-ldp's local-hashing client with ``use_olh=True`` (``g = round(e^eps) + 1``, an xxhash of the item with a
    random seed), called once per user; it numbers the items from 1."""
    from pure_ldp.frequency_oracles.local_hashing import LHClient

    client = LHClient(epsilon, d, use_olh=True)
    return lambda values: [client.privatise(x + 1) for x in values]


MECHANISMS = (
    Mechanism(
        name="olh", title="Optimized local hashing (local hashing over a finite hash family)", home="shared",
        source="Wang, Blocki, Li, Jha, USENIX Security 2017, Sec. 4.4", notion="ldp",
        parameters=(EPSILON, DOMAIN_SIZE,
                    Parameter("g", "integer", f"the number of hash values g, a prime in [2, {MAX_HASH_RANGE:,}] "
                              "(default: the prime that minimises the variance, next to e^eps + 1)", required=False,
                              minimum=2, maximum=MAX_HASH_RANGE)),
        build=LocalHashing, claims=(), docs="mechanisms/olh.md", inputs="item", reports="parts",
        benchmark=Benchmark(workload=_workload, group="items",
                            peers={"multi-freq-ldpy": _multi_freq_ldpy, "pure-ldp": _pure_ldp},
                            report_bits=lambda mechanism: (mechanism.k + 1) * math.log2(mechanism.g))),
)

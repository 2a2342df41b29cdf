"""The collector's side of HierA (Hao et al. Algorithms 4 and 5): PLC level conversion, merging, and the mean.

The users run LHP (``reference.hiera2023.lhp``) and release pairs ``(t*, v*)``. The collector:

2. groups the values by reported level: ``V_i`` holds the ``v*`` of the users with ``t* = i``;
3. **converts** (PLC, Algorithm 4): each datum of ``V_i`` is re-randomised towards level ``j > i``, kept with
   probability ``q = (p_i + p_j - 1) / (2 p_i - 1)`` and flipped otherwise (``plc_keep_probability``), so that overall
   it was kept with ``p_i q + (1 - p_i)(1 - q) = p_j``; ``V_ij`` is an independent conversion of ``V_i`` for each
   ``j = i+1 .. min(k, i + mu - 1)``. This needs ``p_i >= p_j``;
4. and 5. **merges** the data arriving at each level into ``V_i*`` (``merge_plan``; the printed step 5 has four
   readings, below);
6. estimates per level: with ``n_1``, ``n_2`` the numbers of ``+1`` and ``-1`` in ``V_i*`` and ``N_i = n_1 + n_2``,
   ``n_1* = (p_i N_i - n_2) / (2 p_i - 1)``, ``n_2* = (p_i N_i - n_1) / (2 p_i - 1)``, each clipped to ``[0, N_i]`` as
   printed (``clip``), and ``S(V_i*) = n_1* - n_2*``;
7. ``m* = (1 / |V*|) sum_i S(V_i*)``, where ``|V*|`` is the number of data in all the ``V_i*`` with their copies
   (``size="all"``) or the number of users (``size="n"``).

**Readings of step 5** (``compensation``), with ``C_i`` the converted data arriving at level ``i`` (``V_hi`` for
``h = max(1, i - mu + 1) .. i - 1``):

* ``"A"`` (replace): ``V_i* = m_i V_i + C_i`` with ``m_i = max(1, mu - k + i)`` copies of ``V_i``; the compensation line
  gives the total number of copies;
* ``"B"`` (add): the ``mu - k + i`` compensation copies come on top of the merge's own ``V_i``: ``1 + mu - k + i``
  copies for ``i > k - mu + 1``;
* ``"C"`` (literal): the three branches as written, each assignment replacing the previous one; a level that meets only
  the first branch gets ``(mu - k + i) V_i`` without ``C_i``;
* ``"D"`` (blocks): the levels in consecutive blocks of ``mu``; every datum is converted to the top level of its block
  and used once; no compensation.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Sequence
from functools import cached_property

import numpy as np

from ldpspec.reference import plain_draws as draws
from ldpspec.reference.hiera2023.lhp import LHP
from ldpspec.reference.validation import choice, flag, number_of_users, positive_integer
from ldpspec.spec import Exact, InvalidParameter

COMPENSATIONS = ("A", "B", "C", "D")
"""The readings of step 5: replace, add, the literal control flow, blocks."""

SIZES = ("all", "n")
"""The readings of ``|V*|`` in step 7: every datum with its copies, or the number of users."""


def plc_keep_probability(p_from, p_to):
    """PLC's keep probability ``q = (p_i + p_j - 1) / (2 p_i - 1)`` from level ``i`` to level ``j`` (``p_i >= p_j``).
    Plain arithmetic: exact numbers, floats or z3 terms."""
    return (p_from + p_to - 1) / (2 * p_from - 1)


def merge_plan(k: int, mu: int, compensation: str) -> tuple:
    """For every level ``i = 1..k``, what ``V_i*`` is made of: ``((source h, copies), ...)``, where ``h = i`` means
    ``V_i`` itself and ``h < i`` the conversion ``V_hi`` (step 5 under the reading ``compensation``)."""
    plan = []
    for i in range(1, k + 1):
        arriving = tuple((h, 1) for h in range(max(1, i - mu + 1), i))
        if compensation == "A":
            plan.append(((i, max(1, mu - k + i)), *arriving))
        elif compensation == "B":
            plan.append(((i, 1 + (mu - k + i if i + mu - 1 > k else 0)), *arriving))
        elif compensation == "C":
            merged = None
            if i + mu - 1 > k:
                merged = ((i, mu - k + i),)
            if i < mu:
                merged = ((i, 1), *arriving)
            elif mu <= i < k - mu + 2:
                merged = ((i, 1), *arriving)
            plan.append(merged)
        else:  # "D": blocks of mu levels; the top of a block gathers the block
            start = (i - 1) // mu * mu + 1
            plan.append(((i, 1), *((h, 1) for h in range(start, i))) if i == min(k, start + mu - 1) else ())
    return tuple(plan)


class HierA:
    """HierA's collector over the releases of ``lhp`` with ``mu`` data reuses, under the readings ``compensation``
    (step 5) and ``size`` (step 7), clipping as printed when ``clip``."""

    def __init__(self, lhp: LHP, mu: int = 2, compensation: str = "A", size: str = "all", clip: bool = True):
        if not isinstance(lhp, LHP):
            raise InvalidParameter(f"lhp must be an LHP mechanism, got {type(lhp).__name__}")
        self.lhp = lhp
        self.k = lhp.k
        self.mu = positive_integer(mu, "mu (the number of data reuses)", maximum=self.k)
        self.compensation = choice(compensation, COMPENSATIONS, "compensation")
        self.size = choice(size, SIZES, "size")
        self.clip = flag(clip, "clip")
        self.plan = merge_plan(self.k, self.mu, self.compensation)
        E = lhp.levels.exponentials
        self.keep = tuple(e / (e + 1) for e in E)  # p_i
        self.conversions = tuple(sorted({(h, i) for i, parts in enumerate(self.plan, 1) for h, _ in parts if h != i}))
        for h, i in self.conversions:
            if self.keep[h - 1] < self.keep[i - 1]:
                raise InvalidParameter(f"PLC converts only towards smaller budgets, but level {h} (budget "
                                       f"{lhp.levels.budgets[h - 1].text()}) would be converted to level {i} (budget "
                                       f"{lhp.levels.budgets[i - 1].text()}); order the budgets decreasingly")
        self.conversion_keep = {(h, i): plc_keep_probability(self.keep[h - 1], self.keep[i - 1])
                                for h, i in self.conversions}

    # --- the plain reference: one datum at a time ---

    @cached_property
    def twin(self) -> HierATwin:
        return HierATwin(self)

    def convert(self, signs: Sequence[int], h: int, i: int, rng: random.Random) -> list[int]:
        """PLC (Algorithm 4) of the data ``signs`` of level ``h`` to level ``i``: each kept with ``q``, else
        flipped."""
        q = self.conversion_keep[(h, i)]
        approximation = float(q)
        return [v if draws.coin(rng, q, approximation) else -v for v in signs]

    def estimate(self, counts: Sequence[int], n: int, rng: random.Random) -> Exact:
        """``m*`` from LHP's ``2k`` counts ``[n_1-, n_1+, ...]`` of ``n`` users; PLC's conversions drawn with
        ``rng``."""
        n = number_of_users(n)
        data = {h: [-1] * counts[2 * h - 2] + [1] * counts[2 * h - 1] for h in range(1, self.k + 1)}
        converted = {(h, i): sum(1 for v in self.convert(data[h], h, i, rng) if v == 1) for h, i in self.conversions}
        return self.combine(counts, converted, n)

    def combine(self, counts: Sequence[int], converted: dict, n: int) -> Exact:
        """Steps 5 to 7 from LHP's counts and the number of ``+1`` in each conversion ``V_hi``, exactly."""
        if len(counts) != 2 * self.k:
            raise InvalidParameter(f"counts must be LHP's {2 * self.k} counts [n_1-, n_1+, ..., n_k+], got "
                                   f"{len(counts)} numbers")
        total, size = Exact.rational(0), 0
        for i, parts in enumerate(self.plan, 1):
            plus = minus = 0
            for h, copies in parts:
                size_h = counts[2 * h - 2] + counts[2 * h - 1]
                plus_h = counts[2 * h - 1] if h == i else converted[(h, i)]
                plus, minus = plus + copies * plus_h, minus + copies * (size_h - plus_h)
            total = total + self.level_sum(i, plus, minus)
            size += plus + minus
        denominator = size if self.size == "all" else n
        return total / denominator if denominator else Exact.rational(0)

    def level_sum(self, i: int, n1: int, n2: int) -> Exact:
        """``S(V_i*) = n_1* - n_2*`` (step 6), clipped when ``clip``."""
        p = self.keep[i - 1]
        N = n1 + n2
        first, second = (p * N - n2) / (2 * p - 1), (p * N - n1) / (2 * p - 1)
        if self.clip:
            first, second = (min(max(x, Exact.rational(0)), Exact.rational(N)) for x in (first, second))
        return first - second

    # --- exact distribution on tiny populations (the audit's unbiasedness checks) ---

    def exact_distribution(self, inputs: Sequence) -> list[tuple]:
        """``[(m*, probability), ...]`` over every joint LHP release of users holding ``inputs`` and every outcome of
        the conversions, exactly (keep ``len(inputs)`` and ``k`` tiny; equal values may appear more than once)."""
        channel = self.lhp.channel()
        rows = []
        for v in inputs:
            row = channel.row(_grid_label(self.lhp, v))
            rows.append([(j, p) for j, p in enumerate(row) if p])
        count_distribution = Counter()
        for outputs in itertools.product(*rows):
            counts = [0] * (2 * self.k)
            probability = Exact.rational(1)
            for j, p in outputs:
                counts[j] += 1
                probability = probability * p
            count_distribution[tuple(counts)] += probability
        return [(self.combine(counts, converted, len(inputs)), probability * weight)
                for counts, probability in count_distribution.items()
                for converted, weight in self._conversion_outcomes(counts)]

    def exact_moments(self, inputs: Sequence) -> tuple:
        """The exact mean and variance of ``m*`` for users holding ``inputs`` (from ``exact_distribution``)."""
        distribution = self.exact_distribution(inputs)
        mean = sum((value * p for value, p in distribution), Exact.rational(0))
        return mean, sum((value * value * p for value, p in distribution), Exact.rational(0)) - mean * mean

    def _conversion_outcomes(self, counts: tuple):
        """Every outcome ``{(h, i): number of +1}`` of the conversions with its probability: ``Bin(n_h+, q) +
        Bin(n_h-, 1 - q)`` per conversion, independently."""
        per_conversion = []
        for h, i in self.conversions:
            q = self.conversion_keep[(h, i)]
            plus, minus = counts[2 * h - 1], counts[2 * h - 2]
            outcomes = Counter()
            for a in range(plus + 1):
                for b in range(minus + 1):
                    outcomes[a + b] += (_binomial(plus, a, q) * _binomial(minus, b, 1 - q))
            per_conversion.append(list(outcomes.items()))
        for combination in itertools.product(*per_conversion):
            weight = Exact.rational(1)
            for _, w in combination:
                weight = weight * w
            yield {conversion: value for conversion, (value, _) in zip(self.conversions, combination)}, weight


def _binomial(n: int, j: int, p) -> Exact:
    from math import comb

    return comb(n, j) * p ** j * (1 - p) ** (n - j) if n else Exact.rational(1)


def _grid_label(lhp: LHP, v) -> str:
    from ldpspec.reference.validation import value

    number = value(v, "an input")
    for x in lhp.grid:
        if x == number:
            return x.text()
    raise InvalidParameter(f"input {number.text()} is not in the LHP mechanism's grid")


class HierATwin:
    """HierA's collector in floats: PLC's conversions as binomial draws on the counts."""

    def __init__(self, hiera: HierA):
        self.hiera = hiera
        self._keep = np.array([float(p) for p in hiera.keep])
        self._conversion_keep = {pair: float(q) for pair, q in hiera.conversion_keep.items()}

    def estimate(self, counts, n: int, rng: np.random.Generator) -> float:
        """``m*`` from LHP's counts: ``V_hi`` has ``Bin(n_h+, q) + Bin(n_h-, 1 - q)`` data ``+1``."""
        return float(self.estimate_many(np.asarray(counts)[None, :], n, rng)[0])

    def estimate_many(self, counts, n: int, rng: np.random.Generator) -> np.ndarray:
        """``m*`` for each row of ``counts`` (``m x 2k``, one population of ``n`` users per row), independently: the
        estimates of many populations in one pass (the gradient components of Sec. 5)."""
        hiera = self.hiera
        n = number_of_users(n)
        counts = np.asarray(counts)
        if (counts.ndim != 2 or counts.shape[1] != 2 * hiera.lhp.k or not np.issubdtype(counts.dtype, np.integer)
                or np.any(counts < 0)):
            raise InvalidParameter(f"counts must be rows of the {2 * hiera.lhp.k} counts of LHP's outputs, "
                                   "non-negative integers")
        counts = counts.astype(np.int64, copy=False)
        total = np.zeros(len(counts))
        size = np.zeros(len(counts), dtype=np.int64)
        for i, parts in enumerate(hiera.plan, 1):
            plus = minus = np.zeros(len(counts), dtype=np.int64)
            for h, copies in parts:
                plus_h, minus_h = counts[:, 2 * h - 1], counts[:, 2 * h - 2]
                if h != i:
                    q = self._conversion_keep[(h, i)]
                    kept, flipped = rng.binomial(plus_h, q), rng.binomial(minus_h, 1 - q)
                    plus_h, minus_h = kept + flipped, plus_h + minus_h - kept - flipped
                plus, minus = plus + copies * plus_h, minus + copies * minus_h
            p, N = self._keep[i - 1], plus + minus
            first, second = (p * N - minus) / (2 * p - 1), (p * N - plus) / (2 * p - 1)
            if hiera.clip:
                first, second = np.clip(first, 0.0, N), np.clip(second, 0.0, N)
            total += first - second
            size += N
        denominator = size if hiera.size == "all" else np.full(len(counts), n)
        return np.divide(total, denominator, out=np.zeros(len(counts)), where=denominator > 0)

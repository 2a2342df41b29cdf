"""Harmony (Nguyên et al. 2016), the one-dimensional mechanism of Duchi et al., as Hao et al. print it (Algorithm 1).

A user holds a number ``v`` of ``[-1, 1]`` and, with ``E = e^eps``:

1. discretises it: ``v_bar = +1`` with probability ``(1 + v) / 2``, ``-1`` otherwise (so ``E[v_bar] = v``);
2. keeps ``v_bar`` with probability ``p = E / (E + 1)`` (binary randomised response), flips it otherwise;
3. calibrates: ``v* = v_bar' * C`` with ``C = (E + 1) / (E - 1)``.

So ``P[v* = +C | v] = 1/2 + v (2p - 1) / 2 = 1/2 + v (E - 1) / (2 (E + 1))`` (written once, ``harmony_probability``),
``E[v* | v] = v`` and ``Var[v* | v] = C^2 - v^2``. The server averages the ``v*``: ``m* = C (n_+ - n_-) / n``.

The release is one of two numbers ``-C`` and ``+C``; since ``C`` is public, this module names them by their sign:
the outputs of the channel are ``-1`` and ``1`` (a report ``s`` stands for the release ``s * C``), which is the same
channel. The exact channel is computed on a finite grid of inputs (``grid``); the probabilities are affine in ``v``,
so ``family()`` gives the channel for every number of ``[-1, 1]``, which the kernel decides at the ends ``-1`` and
``1`` (``spec.families``).
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from functools import cached_property

import numpy as np

from ldpspec.reference import plain_draws as draws
from ldpspec.reference.mechanism import EPSILON, NUMERIC_GRID, Benchmark, Guarantee, Mechanism
from ldpspec.reference.shared.rr import rr_keep_probability
from ldpspec.reference.validation import (
    count_array,
    number_of_users,
    positive_budget,
    positive_integer,
    unit_sign,
    value,
    value_array,
    value_grid,
)
from ldpspec.spec import AffineFamily, Channel, Exact, InvalidParameter, check_entries, value_text


def harmony_scale(E):
    """``C = (E + 1) / (E - 1)``, the calibrated magnitude of a release."""
    return (E + 1) / (E - 1)


def harmony_probability(E, v, sign: int):
    """``P[v_bar' = sign | v]`` after discretising ``v`` and keeping the sign with ``p = E / (E + 1)``:
    ``1/2 + sign * v * (2p - 1) / 2``. Plain arithmetic: exact numbers, floats or z3 terms."""
    p = rr_keep_probability(E)
    return (1 + sign * v * (2 * p - 1)) / 2


class Harmony:
    """Harmony with budget ``epsilon > 0``; the exact channel on the inputs ``grid`` (numbers of ``[-1, 1]``)."""

    # --- the plain reference ---

    def __init__(self, epsilon, grid: Sequence = (-1, 0, 1)):
        self.epsilon = positive_budget(epsilon, "epsilon", "for Harmony: its scale C = (e^eps + 1)/(e^eps - 1) is "
                                       "infinite at 0")
        self.grid = value_grid(grid)
        E = self.epsilon.exponential()
        self.keep = rr_keep_probability(E)
        self.scale = harmony_scale(E)
        self._E = E

    @cached_property
    def twin(self) -> HarmonyTwin:
        return HarmonyTwin(self)

    def channel(self, max_entries: int | None = None) -> Channel:
        """The exact channel: inputs the grid's numbers (labelled by their text), outputs the signs -1 and 1."""
        check_entries(2 * len(self.grid), "Harmony's channel", max_entries)
        return Channel(tuple(v.text() for v in self.grid), (-1, 1),
                       [[harmony_probability(self._E, v, -1), harmony_probability(self._E, v, 1)] for v in self.grid])

    def family(self) -> AffineFamily:
        """The channel for every number of ``[-1, 1]``: the probabilities are affine in ``v``, so the rows at ``-1``
        and ``1`` define it."""
        rows = [[harmony_probability(self._E, v, sign) for sign in (-1, 1)] for v in (Exact.of(-1), Exact.of(1))]
        return AffineFamily((-1, 1), [(-1, 1, True, True, *rows)])

    def guarantee(self) -> Guarantee:
        return Guarantee("ldp", {"epsilon": self.epsilon})

    def perturb(self, v, rng: random.Random) -> int:
        """One user's report (the sign of the release ``+-C``): discretise, then keep with ``p``, else flip."""
        v = value(v, "v")
        discretised = 1 if draws.coin(rng, (1 + v) / 2, (1 + float(v)) / 2) else -1
        return discretised if draws.coin(rng, self.keep, self._keep_float) else -discretised

    @cached_property
    def _keep_float(self) -> float:
        return 1 / (1 + math.exp(-float(self.epsilon)))  # e^eps / (e^eps + 1), without overflow

    def counts(self, outputs: Sequence[int]) -> list[int]:
        """``[n_-, n_+]``: the numbers of releases ``-C`` and ``+C``."""
        counts = [0, 0]
        for report in outputs:
            counts[(unit_sign(report, "a report") + 1) // 2] += 1
        return counts

    def estimate(self, counts: Sequence[int], n: int) -> list:
        """``[m*]``, the mean of the releases: ``C (n_+ - n_-) / n`` (exact)."""
        n = number_of_users(n)
        if len(counts) != 2:
            raise InvalidParameter(f"counts must be [n_-, n_+], got {value_text(list(counts))}")
        return [self.scale * (counts[1] - counts[0]) / n]

    def estimate_moments(self, inputs: Sequence) -> tuple[list, list]:
        """Exact mean and variance of ``m*``: ``(1/n) sum v`` and ``(1/n^2) sum (C^2 - v^2)``."""
        n = positive_integer(len(inputs), "the number of users")
        values = [value(v, "an input") for v in inputs]
        mean = sum(values, Exact.rational(0)) / n
        variance = sum((self.scale ** 2 - v * v for v in values), Exact.rational(0)) / (n * n)
        return [mean], [variance]


class HarmonyTwin:
    """Harmony for many users at once."""

    def __init__(self, mechanism: Harmony):
        self.mechanism = mechanism
        self._tilt = math.tanh(float(mechanism.epsilon) / 2)  # (E - 1)/(E + 1) = 2p - 1, without overflow
        self._scale = 1 / self._tilt

    def reports(self, values, rng: np.random.Generator) -> np.ndarray:
        """One sign per user (``int8``): ``+1`` with probability ``(1 + v (2p - 1)) / 2``, one uniform per user (the
        two steps composed: discretise, then keep or flip)."""
        values = value_array(values)
        plus = rng.random(len(values)) < (1 + values * self._tilt) / 2
        return plus.view(np.int8) * np.int8(2) - np.int8(1)  # +1 or -1, without an intermediate int64 array

    def outputs(self, reports: np.ndarray) -> list[int]:
        return np.asarray(reports).tolist()

    def counts(self, reports: np.ndarray) -> np.ndarray:
        plus = int(np.count_nonzero(np.asarray(reports) == 1))
        return np.array([len(reports) - plus, plus], dtype=np.int64)

    def simulate_counts(self, true_counts, rng: np.random.Generator) -> np.ndarray:
        """``[n_-, n_+]`` of ``true_counts[i]`` users holding ``grid[i]``: ``Bin(n_i, (1 + v_i (2p - 1)) / 2)`` plus
        signs per grid value, exact in distribution and ``O(len(grid))``."""
        grid = self.mechanism.grid
        counts = count_array(true_counts, len(grid), "true_counts (one per grid value)")
        plus = int(sum(rng.binomial(c, (1 + float(v) * self._tilt) / 2) for c, v in zip(counts, grid)))
        return np.array([int(counts.sum()) - plus, plus], dtype=np.int64)

    def estimate(self, counts, n: int) -> np.ndarray:
        """``[m*]`` in floats."""
        n = number_of_users(n)
        return np.array([self._scale * (counts[1] - counts[0]) / n])


def _workload(n: int, d: int, rng: np.random.Generator):
    return Harmony(1), rng.uniform(-1, 1, n)


MECHANISMS = (
    Mechanism(
        name="harmony", title="Harmony (Duchi et al.'s one-dimensional mechanism)", home="shared",
        source="Nguyên et al. 2016; Hao et al. Algorithm 1", notion="ldp", parameters=(EPSILON, NUMERIC_GRID),
        build=Harmony, claims=(), docs="mechanisms/harmony.md", inputs="number", reports="sign", interval_family=True,
        benchmark=Benchmark(workload=_workload, group="numbers")),
)

"""Graded Laplace (Hao et al. Sec. 3.1): the Laplace mechanism with the budget of the input's own level.

A user holding ``v`` of level ``t(v)`` releases ``y = v + Lap(2 / eps_{t(v)})``, and the collector averages the
releases. The density is the Laplace mechanism's (``reference.shared.laplace``) at the level's budget.

No finite budget bounds it when two levels have different budgets: for inputs ``v`` (budget ``eps_a``) and ``v'``
(budget ``eps_b > eps_a``), ``f(y|v) / f(y|v') = (eps_a / eps_b) e^{(eps_b |y - v'| - eps_a |y - v|) / 2}`` grows
without bound as ``|y|`` grows: the wider density's tail decays slower, so a large release reveals the level. The
mechanism therefore claims no notion (``Guarantee(None)``), and the registry's tests check that the kernel finds the
unbounded loss.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from fractions import Fraction
from functools import cached_property

import numpy as np

from ldpspec.reference import plain_draws as draws
from ldpspec.reference.hiera2023.levels import BOUNDARIES, LEVEL_BUDGETS, LEVEL_GRID, Levels
from ldpspec.reference.hiera2023.lhp import explicit_levels
from ldpspec.reference.mechanism import Benchmark, Guarantee, Mechanism
from ldpspec.reference.shared.estimators import MeanOfReleases, MeanOfReleasesTwin
from ldpspec.reference.shared.laplace import laplace_density, rational_budget, rational_grid
from ldpspec.reference.validation import count_array, value, value_array
from ldpspec.spec import Density, Exact


class GradedLaplace(MeanOfReleases):
    """Graded Laplace over ``levels`` (boundaries and budgets; rational budgets); the exact channel on ``grid``."""

    # --- the plain reference ---

    def __init__(self, boundaries: Sequence, budgets: Sequence, grid: Sequence | None = None):
        self.levels = Levels(boundaries, budgets)
        self.eps = tuple(rational_budget(e, f"budgets[{j}]") for j, e in enumerate(budgets))
        self.grid = rational_grid(self.levels.boundaries if grid is None else grid)

    @cached_property
    def twin(self) -> GradedLaplaceTwin:
        return GradedLaplaceTwin(self)

    def level_budget(self, v) -> Fraction:
        """``eps_{t(v)}``."""
        return self.eps[self.levels.level(v) - 1]

    def density(self, v) -> Density:
        """The Laplace density at the budget of ``v``'s level."""
        return laplace_density(self.level_budget(v), v)

    def guarantee(self) -> Guarantee:
        return Guarantee(None)

    def perturb(self, v, rng: random.Random) -> float:
        """One user's release ``v + Lap(2 / eps_{t(v)})`` (a difference of two exponentials). Over the porting
        kit's stream, drawn from its exact density to ``draws.RELEASE_BITS`` binary digits."""
        v = value(v, "v")
        if draws.is_stream(rng):
            return draws.from_density(rng, laplace_density(self.level_budget(v), v))
        scale = 2 / float(self.level_budget(v))
        return float(v) + scale * (draws.exponential(rng) - draws.exponential(rng))

    def release_moments(self, v) -> tuple:
        """``(v, 8 / eps_{t(v)}^2)``."""
        v = value(v, "an input")
        return v, Exact.rational(8 / self.level_budget(v) ** 2)


class GradedLaplaceTwin(MeanOfReleasesTwin):
    """Graded Laplace for many users at once."""

    def __init__(self, mechanism: GradedLaplace):
        self.mechanism = mechanism
        self._scales = np.array([2 / float(e) for e in mechanism.eps])

    def reports(self, values, rng: np.random.Generator, levels=None) -> np.ndarray:
        """One release per user (float64). ``levels`` (0-based, one per user) gives each user's privacy level when it
        is not the level of the value itself (as for LHP's twin)."""
        values = value_array(values)
        if levels is None:
            level = self.mechanism.levels.indices(values)
        else:
            level = explicit_levels(levels, len(values), len(self._scales))
        return values + rng.laplace(0.0, 1.0, len(values)) * self._scales[level]

    def simulate_counts(self, true_counts, rng: np.random.Generator) -> np.ndarray:
        """``[sum of the releases]``, exact in distribution and ``O(len(grid))``: the users of a level share a scale
        ``b``, and ``N`` of them add ``b (G - G')`` with ``G, G' ~ Gamma(N, 1)``."""
        grid = self.mechanism.grid
        counts = count_array(true_counts, len(grid), "true_counts (one per grid value)")
        per_level = np.bincount(self.mechanism.levels.indices([float(v) for v in grid]), weights=counts,
                                minlength=len(self._scales)).astype(np.int64)
        total = float(sum(int(c) * float(v) for c, v in zip(counts, grid)))
        for users, scale in zip(per_level, self._scales):
            if users:
                total += scale * (rng.gamma(users) - rng.gamma(users))
        return np.array([total])


def _workload(n: int, d: int, rng: np.random.Generator):
    return GradedLaplace(*_paper_levels()), rng.uniform(-1, 1, n)


def _paper_levels() -> tuple:
    from ldpspec.reference.hiera2023.levels import PAPER_BOUNDARIES, PAPER_MULTIPLIERS

    return PAPER_BOUNDARIES, [m for m in PAPER_MULTIPLIERS]  # eps_0 = 1


MECHANISMS = (
    Mechanism(
        name="graded-laplace", title="Graded Laplace (the budget of the input's level)", home="hiera2023",
        source="Hao et al. 2023, Sec. 3.1", notion=None, parameters=(BOUNDARIES, LEVEL_BUDGETS, LEVEL_GRID),
        build=GradedLaplace, claims=(), docs="mechanisms/graded-laplace.md", inputs="number", reports="number",
        statistic="sum",
        benchmark=Benchmark(workload=_workload, group="numbers")),
)

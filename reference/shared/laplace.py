"""The Laplace mechanism for a number of ``[-1, 1]``, as Hao et al. use it (Sec. 3.1).

A user holding ``v`` releases ``y = v + Lap(b)`` with ``b = 2 / eps`` (the inputs span 2). ``Lap(b)`` has the density
``e^{-|z| / b} / (2b)``, mean 0 and variance ``2 b^2``, so the release's density is

    f(y | v) = (eps / 4) e^{-eps |y - v| / 2} = (eps/4) e^{-eps v/2} e^{(eps/2) y} on (-inf, v),
                                                 (eps/4) e^{eps v/2} e^{-(eps/2) y} on [v, inf),

two exponential pieces (``spec.Density`` with rates ``eps/2`` and ``-eps/2``). For two inputs the ratio is at most
``e^{eps |v - v'| / 2} <= e^eps``, attained beyond both. ``E[y | v] = v`` and ``Var[y | v] = 8 / eps^2``; the server
averages the releases.

The budget must be a rational number of nats (the exact channel evaluates ``e^{eps y / 2}`` at rational points):
``log(x)`` budgets are refused by name.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from fractions import Fraction
from functools import cached_property

import numpy as np

from ldpspec.reference import plain_draws as draws
from ldpspec.reference.mechanism import EPSILON, NUMERIC_GRID, Benchmark, Guarantee, Mechanism
from ldpspec.reference.shared.estimators import MeanOfReleases, MeanOfReleasesTwin
from ldpspec.reference.validation import count_array, value, value_array, value_grid
from ldpspec.spec import Density, Exact, InvalidParameter, budget


def rational_budget(epsilon, name: str = "epsilon") -> Fraction:
    """A budget ``> 0`` that is a rational number of nats (the Laplace densities' rates are ``eps / 2``)."""
    nats = budget(epsilon, name)
    rational = nats.as_rational()
    if rational is None:
        raise InvalidParameter(f"{name} must be a rational number of nats for the Laplace mechanism (its density "
                               f"e^(-eps |y - v| / 2) is exact at rational points only), got {nats.text()}")
    if rational <= 0:
        raise InvalidParameter(f"{name} must be > 0 for the Laplace mechanism (its scale 2/eps), got {nats.text()}")
    return rational


def laplace_density(eps: Fraction, v) -> Density:
    """The density of ``v + Lap(2 / eps)`` for a rational input ``v``: ``(eps/4) e^{-eps |y - v| / 2}``."""
    v = v.as_rational() if isinstance(v, Exact) else v
    if v is None:
        raise InvalidParameter("v must be a rational number for the exact Laplace density (its exponents are rational "
                               "only at rational points)")
    v = Fraction(v)
    rate = eps / 2
    return Density(["-inf", v, "inf"], [eps / 4 * Exact.exp(-rate * v), eps / 4 * Exact.exp(rate * v)],
                   rates=[rate, -rate])


def rational_grid(grid, name: str = "grid") -> tuple:
    """A grid of rational inputs (the Laplace densities break at each input)."""
    values = value_grid(grid, name)
    for v in values:
        if v.as_rational() is None:
            raise InvalidParameter(f"{name} must hold rational numbers for the Laplace mechanism, got {v.text()}")
    return values


class Laplace(MeanOfReleases):
    """The Laplace mechanism with budget ``epsilon > 0`` (rational) for numbers of ``[-1, 1]``; the exact channel on
    the inputs ``grid``."""

    # --- the plain reference ---

    def __init__(self, epsilon, grid: Sequence = (-1, 0, 1)):
        self.eps = rational_budget(epsilon)
        self.epsilon = budget(epsilon, "epsilon")
        self.scale = 2 / self.eps  # b
        self.grid = rational_grid(grid)

    @cached_property
    def twin(self) -> LaplaceTwin:
        return LaplaceTwin(self)

    def density(self, v) -> Density:
        return laplace_density(self.eps, v)

    def guarantee(self) -> Guarantee:
        return Guarantee("ldp", {"epsilon": self.epsilon})

    def perturb(self, v, rng: random.Random) -> float:
        """One user's release ``v + Lap(b)``: ``Lap(b)`` is the difference of two exponentials of mean ``b``. Over the
        porting kit's stream, drawn from its exact density to ``draws.RELEASE_BITS`` binary digits."""
        v = value(v, "v")
        if draws.is_stream(rng):
            return draws.from_density(rng, laplace_density(self.eps, v))
        return float(v) + float(self.scale) * (draws.exponential(rng) - draws.exponential(rng))

    def release_moments(self, v) -> tuple:
        v = value(v, "an input")
        return v, Exact.rational(2 * self.scale ** 2)


class LaplaceTwin(MeanOfReleasesTwin):
    """The Laplace mechanism for many users at once."""

    def __init__(self, mechanism: Laplace):
        self.mechanism = mechanism
        self._scale = float(mechanism.scale)

    def reports(self, values, rng: np.random.Generator) -> np.ndarray:
        """One release per user (float64)."""
        values = value_array(values)
        return values + rng.laplace(0.0, self._scale, len(values))

    def simulate_counts(self, true_counts, rng: np.random.Generator) -> np.ndarray:
        """``[sum of the releases]`` of ``true_counts[i]`` users holding ``grid[i]``, exact in distribution and
        ``O(len(grid))``: a sum of ``N`` independent ``Lap(b)`` is ``b (G - G')`` with ``G, G'`` independent
        ``Gamma(N, 1)`` (each ``Lap(b)`` is ``b`` times a difference of two ``Exp(1)``)."""
        grid = self.mechanism.grid
        counts = count_array(true_counts, len(grid), "true_counts (one per grid value)")
        users = int(counts.sum())
        noise = self._scale * (rng.gamma(users) - rng.gamma(users)) if users else 0.0
        return np.array([float(sum(int(c) * float(v) for c, v in zip(counts, grid))) + noise])


def _workload(n: int, d: int, rng: np.random.Generator):
    return Laplace(1), rng.uniform(-1, 1, n)


MECHANISMS = (
    Mechanism(
        name="laplace", title="Laplace mechanism for a number of [-1, 1]", home="shared",
        source="Hao et al. Sec. 3.1", notion="ldp", parameters=(EPSILON, NUMERIC_GRID), build=Laplace, claims=(),
        docs="mechanisms/laplace.md", inputs="number", reports="number", statistic="sum",
        benchmark=Benchmark(workload=_workload, group="numbers")),
)

"""The Piecewise Mechanism (PM; Wang et al. 2019), as Hao et al. print it (Algorithm 2).

A user holds a number ``v`` of ``[-1, 1]``. With ``s = e^{eps/2}``:

    C = (s + 1) / (s - 1),   l(v) = (C + 1) v / 2 - (C - 1) / 2,   r(v) = l(v) + C - 1,

and the release ``v*`` of ``[-C, C]`` has the density (Wang et al.)

    f(v* | v) = pr        on [l(v), r(v)]   (width C - 1),
                pr / s^2  on [-C, l(v)) and (r(v), C]   (total width C + 1),   pr = s (s - 1) / (2 (s + 1)),

so the centre holds mass ``pr (C - 1) = s / (s + 1)``, the tails ``1 / (s + 1)``, and the ratio of any two inputs'
densities is at most ``s^2 = e^eps``. The algorithm draws ``x ~ U[0, 1]``; if ``x < s / (s + 1)`` it draws ``v*``
uniformly from the centre, otherwise uniformly from the tails. ``E[v* | v] = v`` and
``Var[v* | v] = v^2 / (s - 1) + (s + 3) / (3 (s - 1)^2)``; the server averages the releases.

The exact channel is a ``spec.PiecewiseChannel`` of constant densities on a grid of inputs (its breakpoints are exact
numbers built from ``e^{eps/2}``).
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from functools import cached_property

import numpy as np

from ldpspec.reference import plain_draws as draws
from ldpspec.reference.mechanism import EPSILON, NUMERIC_GRID, Benchmark, Guarantee, Mechanism
from ldpspec.reference.shared.estimators import MeanOfReleases, MeanOfReleasesTwin
from ldpspec.reference.validation import count_array, positive_budget, value, value_array, value_grid
from ldpspec.spec import Density, InvalidParameter


def pm_constants(s) -> tuple:
    """``(C, pr)`` at ``s = e^{eps/2}``. Plain arithmetic: exact numbers, floats or z3 terms."""
    return (s + 1) / (s - 1), s * (s - 1) / (2 * (s + 1))


def pm_centre(s, v) -> tuple:
    """``(l(v), r(v))``, the centre interval of input ``v``."""
    C, _ = pm_constants(s)
    low = (C + 1) * v / 2 - (C - 1) / 2
    return low, low + C - 1


def pm_variance(s, v):
    """``Var[v* | v] = v^2 / (s - 1) + (s + 3) / (3 (s - 1)^2)`` (Wang et al.)."""
    return v * v / (s - 1) + (s + 3) / (3 * (s - 1) ** 2)


def pm_density(s, v) -> Density:
    """Input ``v``'s density: ``pr / s^2``, ``pr``, ``pr / s^2`` on ``[-C, l), [l, r), [r, C)``; a tail of width 0
    (at ``v = -1`` or ``1``) is left out."""
    C, pr = pm_constants(s)
    low, high = pm_centre(s, v)
    pieces = [(-C, low, pr / s ** 2), (low, high, pr), (high, C, pr / s ** 2)]
    pieces = [piece for piece in pieces if piece[0] != piece[1]]
    return Density([pieces[0][0], *(end for _, end, _ in pieces)], [value for *_, value in pieces])


class PiecewiseMechanism(MeanOfReleases):
    """PM with budget ``epsilon > 0``; the exact channel on the inputs ``grid`` (numbers of ``[-1, 1]``)."""

    # --- the plain reference ---

    def __init__(self, epsilon, grid: Sequence = (-1, 0, 1)):
        self.epsilon = positive_budget(epsilon, "epsilon", "for PM: its output range [-C, C] with "
                                       "C = (e^(eps/2) + 1)/(e^(eps/2) - 1) is unbounded at 0")
        self.grid = value_grid(grid)
        try:
            self.s = (self.epsilon / 2).exponential()
        except InvalidParameter as error:  # log(x) with x not a perfect square: e^{eps/2} is not an exact number
            raise InvalidParameter(f"epsilon: {error}") from None
        self.C, self.pr = pm_constants(self.s)
        self.centre_probability = self.s / (self.s + 1)

    @cached_property
    def twin(self) -> PiecewiseMechanismTwin:
        return PiecewiseMechanismTwin(self)

    def density(self, v) -> Density:
        return pm_density(self.s, v)

    def guarantee(self) -> Guarantee:
        return Guarantee("ldp", {"epsilon": self.epsilon})

    def perturb(self, v, rng: random.Random) -> float:
        """One user's release: uniform on the centre with probability ``s / (s + 1)``, else uniform on the tails.
        Over the porting kit's stream, drawn from its exact density to ``draws.RELEASE_BITS`` binary digits."""
        if draws.is_stream(rng):
            return draws.from_density(rng, pm_density(self.s, value(v, "v")))
        v = float(value(v, "v"))
        C, centre_probability = self._floats
        low = (C + 1) * v / 2 - (C - 1) / 2
        high = low + C - 1
        if draws.unit(rng) < centre_probability:
            return low + (high - low) * draws.unit(rng)
        w = (C + 1) * draws.unit(rng)  # a point of the tails laid end to end: [-C, l) then (r, C]
        return -C + w if w < low + C else high + (w - (low + C))

    @cached_property
    def _floats(self) -> tuple:
        """``C`` and ``s / (s + 1)`` as floats (for sampling), without overflow at a large budget."""
        eps = float(self.epsilon)
        return 1 / math.tanh(eps / 4), 1 / (1 + math.exp(-eps / 2))

    def release_moments(self, v) -> tuple:
        v = value(v, "an input")
        return v, pm_variance(self.s, v)


class PiecewiseMechanismTwin(MeanOfReleasesTwin):
    """PM for many users at once."""

    def __init__(self, mechanism: PiecewiseMechanism):
        self.mechanism = mechanism
        self._C, self._centre = mechanism._floats

    def reports(self, values, rng: np.random.Generator) -> np.ndarray:
        """One release per user (float64), two uniforms each, as the reference draws them."""
        values = value_array(values)
        C = self._C
        low = (C + 1) * values / 2 - (C - 1) / 2
        high = low + C - 1
        centre = rng.random(len(values)) < self._centre
        u = rng.random(len(values))
        w = (C + 1) * u
        tails = np.where(w < low + C, -C + w, high + (w - (low + C)))
        return np.where(centre, low + (C - 1) * u, tails)

    def simulate_counts(self, true_counts, rng: np.random.Generator) -> np.ndarray:
        """``[sum of the releases]`` of ``true_counts[i]`` users holding ``grid[i]``, exact in distribution: the
        releases are drawn (``O(n)``; a sum of uniforms has no cheaper exact draw)."""
        grid = self.mechanism.grid
        counts = count_array(true_counts, len(grid), "true_counts (one per grid value)")
        values = np.repeat([float(v) for v in grid], counts)
        return self.counts(self.reports(values, rng))


def _workload(n: int, d: int, rng: np.random.Generator):
    return PiecewiseMechanism(1), rng.uniform(-1, 1, n)


MECHANISMS = (
    Mechanism(
        name="pm", title="Piecewise Mechanism", home="shared", source="Wang et al. 2019; Hao et al. Algorithm 2",
        notion="ldp", parameters=(EPSILON, NUMERIC_GRID), build=PiecewiseMechanism, claims=(),
        docs="mechanisms/pm.md", inputs="number", reports="number", statistic="sum",
        benchmark=Benchmark(workload=_workload, group="numbers")),
)

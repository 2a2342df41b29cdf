"""Mini-batch SGD for linear regression with privatised gradients (Hao et al. Sec. 5), in NumPy.

Each user holds ``(x, y)`` with ``x`` in ``[-1, 1]^d`` and ``y`` in ``[-1, 1]``; the model is ``f(x) = beta . (1, x)``
with ``beta = (b, alpha_1..alpha_d)``, fitted to ``min (1/n) sum (beta . x~ - y)^2 + (lambda / 2) |beta|^2``. The users
are split into disjoint groups of ``G``; in iteration ``t`` the collector sends ``beta_t`` to the ``t``-th group, each
of its users computes ``grad = 2 (beta . x~ - y) x~ + lambda beta``, clips each component to ``[-1, 1]`` and releases
every component privatised, and the collector updates ``beta_{t+1} = beta_t - gamma_t * (the estimated mean
gradient)`` with ``gamma_t = 1 / t``. Every user takes part in one iteration only.

What the paper leaves open is a parameter:

* ``oracle``: the mean estimator of each component: ``"hiera"`` (LHP and HierA with ``mu`` and HierA's readings
  ``compensation``, ``size`` and ``clip``, by default reading A of step 5, ``|V*|`` all its data, clipped as
  printed), ``"graded-laplace"``, or the single-grade ``"harmony"`` and ``"pm"`` at the smallest budget (the paper
  runs them at the highest privacy level);
* ``component_level``: a component's privacy level is that of an attribute (``"attribute"``: ``x_j`` for component
  ``j``, ``y`` for the intercept; the paper: "the privacy classification of certain attribute data corresponding to
  the component"), or that of the component's own value (``"value"``);
* ``component_budget``: every component at its level's budget (``"full"``, so a user's release composes to
  ``d + 1`` times it, Theorem 1) or the budget split over the ``d + 1`` components (``"split"``);
* ``group_size``: by default ``ceil(d ln d / eps_0^2)`` as printed (at least 1), with ``eps_0`` the smallest budget.

``fit`` returns the model and the accounting: for every user, the iteration it took part in and the budgets of its
``d + 1`` releases.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from ldpspec.reference.hiera2023.graded_laplace import GradedLaplace
from ldpspec.reference.hiera2023.hiera import COMPENSATIONS, SIZES, HierA
from ldpspec.reference.hiera2023.levels import Levels
from ldpspec.reference.hiera2023.lhp import LEVEL_BUDGET_SOURCES, LHP
from ldpspec.reference.shared.harmony import Harmony
from ldpspec.reference.shared.pm import PiecewiseMechanism
from ldpspec.reference.validation import choice, flag, positive_integer
from ldpspec.spec import InvalidParameter, value_text

ORACLES = ("hiera", "graded-laplace", "harmony", "pm")
COMPONENT_LEVELS = ("attribute", "value")
COMPONENT_BUDGETS = ("full", "split")
REGULARISATION = 1e-4
"""The paper's lambda (Sec. 6.3)."""


@dataclass
class Fit:
    """A fitted model and what each user released: ``iteration[u]`` (1-based; 0 for a user never asked) and the
    budgets (nats, floats) of each component it released, ``budgets[u]``."""

    beta: np.ndarray
    iteration: np.ndarray
    budgets: np.ndarray


def _mean_oracle(oracle: str, levels: Levels, scale: Fraction, mu: int, hiera_reading: tuple,
                 level_budget: str) -> Callable:
    """``estimate(values, component_levels, rng)``: for each column of ``values`` (a group's users x independent
    releases, numbers of ``[-1, 1]``), the oracle's estimate of its mean, released at the level budgets times
    ``scale``. Every column's reports are drawn in one call, then counted and estimated column by column."""
    # exact shares: 0.75 * (1/5) in doubles is 0.15000000000000002, and five of them would spend more than 0.75
    budgets = [(e * scale).text() for e in levels.budgets]
    boundaries = [b.text() for b in levels.boundaries]
    if oracle == "hiera":
        lhp = LHP(boundaries, budgets, level_budget=level_budget)
        hiera = HierA(lhp, mu, *hiera_reading)
        outputs = 2 * lhp.k

        def hiera_means(values, component_levels, rng):
            users, columns = values.shape
            codes = lhp.twin.reports(values.T.ravel(), rng, component_levels.T.ravel()).astype(np.int64)
            codes += np.repeat(np.arange(columns) * outputs, users)  # column j's codes in block j of the counts
            counts = np.bincount(codes, minlength=columns * outputs).reshape(columns, outputs)
            return hiera.twin.estimate_many(counts, users, rng)
        return hiera_means
    if oracle == "graded-laplace":
        twin = GradedLaplace(boundaries, budgets).twin

        def draw(values, component_levels, rng):
            return twin.reports(values.ravel(), rng, component_levels.ravel())
    else:
        smallest = min(levels.budgets) * scale
        twin = (Harmony(smallest) if oracle == "harmony" else PiecewiseMechanism(smallest)).twin

        def draw(values, component_levels, rng):
            return twin.reports(values.ravel(), rng)

    def means(values, component_levels, rng):
        reports = draw(values, component_levels, rng).reshape(values.shape)
        return np.array([twin.estimate(twin.counts(reports[:, j]), len(values))[0] for j in range(values.shape[1])])
    return means


class PrivateLinearRegression:
    """Mini-batch SGD for linear regression over ``levels`` (boundaries and level budgets), privatising each gradient
    component with ``oracle``."""

    def __init__(self, boundaries: Sequence, budgets: Sequence, oracle: str = "hiera", *, mu: int = 2,
                 component_level: str = "attribute", component_budget: str = "full", group_size: int | None = None,
                 regularisation: float = REGULARISATION, compensation: str = "A", size: str = "all",
                 clip: bool = True, level_budget: str = "perturbed"):
        self.levels = Levels(boundaries, budgets)
        # LHP's step 4 (Algorithm 3): the value's budget is the reported level's, as printed, or the true level's
        self.level_budget = choice(level_budget, LEVEL_BUDGET_SOURCES, "level_budget")
        self.hiera_reading = (choice(compensation, COMPENSATIONS, "compensation"), choice(size, SIZES, "size"),
                              flag(clip, "clip"))
        self.oracle = choice(oracle, ORACLES, "oracle")
        self.component_level = choice(component_level, COMPONENT_LEVELS, "component_level")
        self.component_budget = choice(component_budget, COMPONENT_BUDGETS, "component_budget")
        self.mu = positive_integer(mu, "mu (the number of data reuses)", maximum=self.levels.k)
        self.group_size = None if group_size is None else positive_integer(group_size, "group_size")
        if not (isinstance(regularisation, (int, float)) and math.isfinite(regularisation) and regularisation >= 0):
            raise InvalidParameter(f"regularisation must be a finite number >= 0, got {value_text(regularisation)}")
        self.regularisation = float(regularisation)

    def default_group_size(self, d: int) -> int:
        """``ceil(d ln d / eps_0^2)`` (Sec. 6.3), ``eps_0`` the smallest level budget; at least 1."""
        eps0 = min(float(e) for e in self.levels.budgets)
        return max(1, math.ceil(d * math.log(d) / eps0 ** 2)) if d > 1 else max(1, math.ceil(1 / eps0 ** 2))

    def fit(self, X, y, rng: np.random.Generator) -> Fit:
        """Run one pass over the users in the order given (each user in one group) and return the model.

        ``X`` (``n x d``) and ``y`` (``n``) are one data set; a stack of them (``runs x n x d`` and ``runs x n``)
        fits every run at once, independently, with the same groups (the model and the budgets then have a leading
        ``runs`` axis): the collector's work is vectorised over runs, which the audit's repeated experiments use."""
        X, y = np.asarray(X, dtype=np.float64), np.asarray(y, dtype=np.float64)
        stacked = X.ndim == 3
        X, y = (X, y) if stacked else (X[None], y[None])
        if X.ndim != 3 or y.shape != X.shape[:2] or not (np.isfinite(X).all() and np.isfinite(y).all()) or (
                X.size and (np.abs(X).max() > 1 or np.abs(y).max() > 1)):
            raise InvalidParameter("X must be an n x d array and y n numbers (or stacks of them, runs x n x d and "
                                   "runs x n), all in [-1, 1]")
        runs, n, d = X.shape
        components = d + 1
        scale = Fraction(1, components) if self.component_budget == "split" else Fraction(1)
        estimate = _mean_oracle(self.oracle, self.levels, scale, self.mu, self.hiera_reading, self.level_budget)
        group = self.group_size or self.default_group_size(d)
        augmented = np.concatenate([np.ones((runs, n, 1)), X], axis=2)
        attribute_levels = self.levels.indices(np.concatenate([y[..., None], X], axis=2))
        level_budgets = np.array([float(e * scale) for e in self.levels.budgets])
        beta = np.zeros((runs, components))
        iteration = np.zeros(n, dtype=np.int64)
        budgets = np.zeros((runs, n, components))

        def columns(array):  # runs x group x components -> group x (runs * components): independent releases
            return array.transpose(1, 0, 2).reshape(array.shape[1], -1)

        for t, start in enumerate(range(0, n - group + 1, group), 1):
            users = slice(start, start + group)
            residual = np.einsum("rgc,rc->rg", augmented[:, users], beta) - y[:, users]
            gradient = np.clip(2 * residual[..., None] * augmented[:, users] + self.regularisation * beta[:, None],
                               -1, 1)
            levels = attribute_levels[:, users] if self.component_level == "attribute" else self.levels.indices(
                gradient)
            mean = estimate(columns(gradient), columns(levels), rng).reshape(runs, components)
            budgets[:, users] = (level_budgets[levels] if self.oracle in ("hiera", "graded-laplace")
                                 else level_budgets.min())
            iteration[users] = t
            beta = beta - mean / t
        return Fit(beta if stacked else beta[0], iteration, budgets if stacked else budgets[0])


def mse(beta: np.ndarray, X, y) -> float:
    """The model's mean squared error on ``(X, y)``."""
    X, y = np.asarray(X, dtype=np.float64), np.asarray(y, dtype=np.float64)
    return float(np.mean((np.hstack([np.ones((len(X), 1)), X]) @ beta - y) ** 2))

"""Gu et al. Sec. VII on synthetic data the project generates itself: data, budgets, and the Fig. 3 comparison.

Settings follow the paper, and the authors' public code where the paper's values are lost in the extracted text
(the page of Gu et al., "Experiments"):

* **Power-law** (``generate_powlaw.m``): ``alpha = 2``, ``Z = (1 - U)^{-1/(alpha+1)} - 1``,
  item ``floor(Z (m - 1) / max(Z))`` (0-based), ``m = 100``, ``n = 100,000``.
* **Uniform**: each user's item uniform over ``m = 1000`` items, ``n = 100,000``.
* **Budgets** (``PG1.m``): three levels ``{eps, 1.2 eps, 2 eps}`` holding exactly
  5%, 5% and 90% of the items, assigned by a random permutation; or, as the prose
  says, each item's budget drawn at random with those shares (the choice
  ``budget_assignment``: ``exact_share_levels`` and ``random_budget_shares``).
* **Curves**: RAPPOR and OUE at ``eps = min E``; IDUE solved by opt0, opt1, opt2.
  The *plotted* theoretical value of a mechanism is what the authors' code plots:
  the totals of Sec. III-C for RAPPOR and OUE, the optimal objective of each model for
  IDUE (its worst case over the data). The *expected* value is the exact expected
  MSE of eq. (8) for the data at hand. The *empirical* value is
  ``sum_i (c_hat_i - c_i)^2 / n`` averaged over runs; the server counts are drawn
  with the twin's aggregate simulation, which is exact in distribution.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

import numpy as np

from ldpspec.reference.gu2020.idue import solve_levels
from ldpspec.reference.gu2020.levels import PrivacyLevels, idue
from ldpspec.reference.shared.estimators import count_variance
from ldpspec.reference.shared.unary import UnaryEncoding, oue, sue
from ldpspec.verify.claims import reading_value
from ldpspec.verify.gu2020.readings import BOX, BUDGET_ASSIGNMENT, SELF_PAIRS

MECHANISMS = ("RAPPOR", "OUE", "IDUE-opt0", "IDUE-opt1", "IDUE-opt2")
EPSILON_GRID = (0.5, 1.0, 1.5, 2.0, 2.5, 3.0, 3.5, 4.0)
LEVEL_FACTORS = (1.0, 1.2, 2.0)
LEVEL_SHARES = (0.05, 0.05, 0.90)


def power_law_items(n: int, m: int, rng: np.random.Generator, alpha: float = 2.0) -> np.ndarray:
    """The authors' power-law generator (``generate_powlaw.m``), 0-based items."""
    z = (1 - rng.random(n)) ** (-1 / (alpha + 1)) - 1
    return np.floor(z * (m - 1) / z.max()).astype(np.int64)


def uniform_items(n: int, m: int, rng: np.random.Generator) -> np.ndarray:
    return rng.integers(0, m, n)


def exact_share_levels(m: int, factors, shares, eps: float,
                       rng: np.random.Generator) -> tuple[PrivacyLevels, np.ndarray]:
    """Exactly ``m * share`` items per level (the authors' code), placed by a random permutation.

    Returns the levels and ``item_level[i]``, the level of item ``i``.
    """
    sizes = [int(round(m * share)) for share in shares]
    sizes[-1] = m - sum(sizes[:-1])
    order = rng.permutation(m)
    item_level = np.empty(m, dtype=np.int64)
    start = 0
    for t, size in enumerate(sizes):
        item_level[order[start:start + size]] = t
        start += size
    return PrivacyLevels.from_sizes([factor * eps for factor in factors], sizes), item_level


def random_budget_shares(m: int, factors, shares, eps: float,
                         rng: np.random.Generator) -> tuple[PrivacyLevels, np.ndarray]:
    """Each item's budget drawn at random with the level distribution (the paper's prose)."""
    item_level = rng.choice(len(factors), size=m, p=shares)
    present = sorted(set(item_level.tolist()))
    renumber = {t: k for k, t in enumerate(present)}
    sizes = [int((item_level == t).sum()) for t in present]
    return (PrivacyLevels.from_sizes([factors[t] * eps for t in present], sizes),
            np.array([renumber[t] for t in item_level.tolist()]))


ASSIGNMENTS = {"exact-shares": exact_share_levels, "random-draw": random_budget_shares}
"""How the items get their budgets, by the values of the choice ``budget_assignment``."""


def level_encoding(levels: PrivacyLevels, item_level: np.ndarray, a, b) -> UnaryEncoding:
    """IDUE over the items in their own order (``item_level[i]`` is item ``i``'s level)."""
    ordered = idue(levels, a, b).bits
    first_of_level = {t: levels.item_levels.index(t) for t in range(levels.count)}
    return UnaryEncoding([ordered[first_of_level[int(t)]] for t in item_level])


def expected_total_mse(encoding: UnaryEncoding, true_counts) -> float:
    """The expected squared error summed over the items, eq. (8), in double precision.

    The figures plot it over a thousand items and many budgets, where the exact sum (``UnaryEncoding.variance``) is
    slow and its digits are not needed; the same formula (``count_variance``) on the twin's floats.
    """
    counts = np.asarray(true_counts, dtype=float)
    return float(np.sum(count_variance(counts.sum(), counts, encoding.twin.a, encoding.twin.b)))


@dataclass
class Fig3Point:
    """One mechanism at one budget: plotted theory, exact expectation for the data, and the empirical mean."""

    mechanism: str
    epsilon: float
    plotted: float
    expected: float
    empirical: float
    empirical_sd: float
    runs: int


@dataclass
class Fig3Data:
    dataset: str
    n: int
    m: int
    points: list[Fig3Point] = field(default_factory=list)

    def series(self, mechanism: str, value: str) -> list[float]:
        return [getattr(point, value) for point in self.points if point.mechanism == mechanism]


def solve_read(levels: PrivacyLevels, model: str = "opt0", r: str = "min", **options):
    """``solve_levels``, with the choices ``self_pairs`` and (opt0) ``box`` those of the running check's reading
    (``reading_value``) unless given."""
    if "self_pairs" not in options:
        options["self_pairs"] = reading_value(SELF_PAIRS)
    if model == "opt0" and "box" not in options:
        options["box"] = reading_value(BOX)
    return solve_levels(levels, model, r, **options)


def solved(levels: PrivacyLevels, model: str, box: str | None = None, self_pairs: str | None = None):
    """``solve_levels(levels, model, box=box, self_pairs=self_pairs)``, once per audit for each model, budgets, sizes
    and reading: a solution depends on nothing else (opt1 and opt2 not even on the box), and several readings and
    claims ask for the same. A choice not given is the running check's (``reading_value``)."""
    box = (reading_value(BOX) if box is None else box) if model == "opt0" else None
    self_pairs = reading_value(SELF_PAIRS) if self_pairs is None else self_pairs
    return _solved(levels.budgets, levels.sizes, model, box, self_pairs)


@lru_cache(maxsize=512)
def _solved(budgets: tuple, sizes: tuple, model: str, box: str | None, self_pairs: str):
    return solve_levels(PrivacyLevels.from_sizes(list(budgets), list(sizes)), model, self_pairs=self_pairs,
                        **({"box": box} if box is not None else {}))


def _encodings(levels: PrivacyLevels, item_level: np.ndarray, box: str, self_pairs: str) -> dict:
    """``{mechanism: (encoding, plotted value)}``: the value the authors' code plots as the theoretical curve.

    RAPPOR and OUE: the totals of single-item data (Sec. III-C). IDUE: the optimal value of each model, which is its
    worst-case MSE (for opt1 the count term is 0, for opt2 it is 1).
    """
    smallest = min(float(b) for b in levels.budgets)
    m = len(item_level)
    encodings = {}
    for name, baseline in (("RAPPOR", sue(smallest, m)), ("OUE", oue(smallest, m))):
        bit = baseline.bits[0]
        first = float(bit.q * (1 - bit.q) / (bit.p - bit.q) ** 2)
        second = float((1 - bit.p - bit.q) / (bit.p - bit.q))
        encodings[name] = (baseline, m * first + second)
    for model in ("opt0", "opt1", "opt2"):
        solution = solved(levels, model, box, self_pairs)
        encoding = level_encoding(levels, item_level, solution.a, solution.b)
        encodings[f"IDUE-{model}"] = (encoding, solution.worst_case_mse)
    return encodings


def fig3(dataset: str, *, n: int = 100_000, runs: int = 10, epsilons=EPSILON_GRID, seed: int = 2020,
         box: str | None = None, assignment: str | None = None) -> Fig3Data:
    """The Fig. 3 comparison on ``dataset`` ("power-law", m = 100, or "uniform", m = 1000).

    ``box`` is opt0's feasible box and ``assignment`` how the items get their budgets (``ASSIGNMENTS``); these and
    ``self_pairs``, when not given, are the running check's (``reading_value``).
    """
    box = reading_value(BOX) if box is None else box
    assignment = reading_value(BUDGET_ASSIGNMENT) if assignment is None else assignment
    return _fig3_cached(dataset, n, runs, tuple(epsilons), seed, box, assignment, reading_value(SELF_PAIRS))


@lru_cache(maxsize=32)
def _fig3_cached(dataset: str, n: int, runs: int, epsilons: tuple, seed: int, box: str, assignment: str,
                 self_pairs: str) -> Fig3Data:
    m = {"power-law": 100, "uniform": 1000}[dataset]
    rng = np.random.default_rng(seed)
    items = (power_law_items if dataset == "power-law" else uniform_items)(n, m, rng)
    true_counts = np.bincount(items, minlength=m)
    data = Fig3Data(dataset, n, m)
    for eps in epsilons:
        levels, item_level = ASSIGNMENTS[assignment](m, LEVEL_FACTORS, LEVEL_SHARES, eps, rng)
        for mechanism, (encoding, plotted) in _encodings(levels, item_level, box, self_pairs).items():
            expected_total = expected_total_mse(encoding, true_counts)
            errors = []
            for _ in range(runs):
                counts = encoding.twin.simulate_counts(true_counts, rng)
                estimate = encoding.twin.estimate(counts, n)
                errors.append(float(((estimate - true_counts) ** 2).sum()) / n)
            data.points.append(Fig3Point(mechanism, eps, plotted, expected_total / n, float(np.mean(errors)),
                                         float(np.std(errors, ddof=1)), runs))
    return data


# --- Fig. 6: two levels, the share of items with the smaller budget ---------------------------------------

SHARE_GRID = (0.05, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95)


def share_sweep(dataset: str, eps: float = 1.0, factor: float = 2.0, shares=SHARE_GRID, *, n: int = 100_000,
                seed: int = 6, box: str | None = None, assignment: str | None = None) -> list[tuple]:
    """``(share, OUE's expected MSE / n, IDUE-opt0's expected MSE / n)`` for budgets ``{eps, factor * eps}``.

    Exact expected MSE (eq. (8)) of the generated data; the share is that of the items with the smaller budget.
    ``box``, ``assignment`` and ``self_pairs``, when not given, are the running check's (``reading_value``).
    """
    box = reading_value(BOX) if box is None else box
    assignment = reading_value(BUDGET_ASSIGNMENT) if assignment is None else assignment
    return _share_sweep(dataset, eps, factor, tuple(shares), n, seed, box, assignment, reading_value(SELF_PAIRS))


@lru_cache(maxsize=32)
def _share_sweep(dataset: str, eps: float, factor: float, shares: tuple, n: int, seed: int, box: str, assignment: str,
                 self_pairs: str) -> list[tuple]:
    m = {"power-law": 100, "uniform": 1000}[dataset]
    rng = np.random.default_rng(seed)
    items = (power_law_items if dataset == "power-law" else uniform_items)(n, m, rng)
    true_counts = np.bincount(items, minlength=m).tolist()
    rows = []
    for share in shares:
        levels, item_level = ASSIGNMENTS[assignment](m, (1.0, factor), (share, 1 - share), eps, rng)
        solution = solved(levels, "opt0", box, self_pairs)
        idue_total = expected_total_mse(level_encoding(levels, item_level, solution.a, solution.b), true_counts)
        oue_total = expected_total_mse(oue(eps, m), true_counts)
        rows.append((share, oue_total / n, idue_total / n))
    return rows

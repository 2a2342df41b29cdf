"""Gu et al. Sec. VII on synthetic data the project generates itself: data, budgets, and the Fig. 3 comparison.

Settings follow the paper, and the authors' public code where the paper's values are lost in the extracted text
(the page of Gu et al., "Experiments"):

* **Power-law** (``generate_powlaw.m``): ``alpha = 2``, ``Z = (1 - U)^{-1/(alpha+1)} - 1``,
  item ``floor(Z (m - 1) / max(Z))`` (0-based), ``m = 100``, ``n = 100,000``.
* **Uniform**: each user's item uniform over ``m = 1000`` items, ``n = 100,000``.
* **Budgets** (``PG1.m``): three levels ``{eps, 1.2 eps, 2 eps}`` holding exactly
  5%, 5% and 90% of the items, assigned by a random permutation; or, as the prose
  says, each item's budget drawn at random with those shares (the choice
  ``budget_assignment``, built by ``assign_budgets``: ``exact_share_levels`` or ``random_budget_shares``).
* **Solutions**: ``solve_opt0`` and ``solve_convex``, the builders of what the choices ``box`` and ``self_pairs``
  shape; ``fig3`` and ``share_sweep`` build their runs under the running check's reading of these choices.
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
from ldpspec.verify.claims import builds
from ldpspec.verify.gu2020.builders import readings_agree
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


@builds(BUDGET_ASSIGNMENT, constructs=("exact_share_levels", "random_budget_shares"))
def assign_budgets(m: int, factors, shares, eps: float, rng: np.random.Generator, *,
                   budget_assignment: str) -> tuple[PrivacyLevels, np.ndarray]:
    """The items' budgets (Sec. VII-A, "randomly selected from the three values with a certain budget distribution"):
    the levels and ``item_level[i]``, under the choice ``budget_assignment``: exactly each level's share of the items
    (``exact_share_levels``, the authors' ``PG1.m``) or each item's budget drawn with the shares as probabilities
    (``random_budget_shares``, the prose)."""
    if budget_assignment == "exact-shares":
        return exact_share_levels(m, factors, shares, eps, rng)
    return random_budget_shares(m, factors, shares, eps, rng)


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
    single_item_levels: int = 0
    """How many of the levels drawn (over the budgets) hold a single item."""

    def series(self, mechanism: str, value: str) -> list[float]:
        return [getattr(point, value) for point in self.points if point.mechanism == mechanism]


def built(builder, *args, **values):
    """``builder``'s function called with the values of its choices given explicitly, past its guard: for a cached
    computation that a builder runs with the values it has read (they are the computation's arguments, hence part of
    its cache key) and passes on to the builders of its parts. A check never calls it: a check leaves the values to
    its reading, or passes those its claim varies or fixes to the builder itself."""
    return builder.__wrapped__(*args, **values)


_SOLUTIONS: dict = {}
"""The solvers' solutions, once per audit for each model, notion, levels, constrained domain, box and ``self_pairs``:
a solution depends on nothing else (the solver is seeded), and several readings and claims ask for the same."""


def _levels_key(levels: PrivacyLevels) -> tuple:
    return tuple(budget.text() for budget in levels.budgets), levels.sizes, levels.item_levels


def _solution(levels: PrivacyLevels, model: str, r: str, box: str | None, self_pairs: str,
              extended: PrivacyLevels | None, solve):
    constrained = extended if extended is not None else levels
    # the pairs of (6) are the same under both readings when every level of the constrained domain holds two or more
    # items (``level_pairs``): the problem, hence the seeded solver's solution, is then the same
    same_problem = "all" if readings_agree(constrained.sizes) else self_pairs
    key = (_levels_key(levels), model, r, box, same_problem, None if extended is None else _levels_key(extended))
    if key not in _SOLUTIONS:
        _SOLUTIONS[key] = solve()
    return _SOLUTIONS[key]


@builds(BOX, SELF_PAIRS, constructs=("solve_levels",))
def solve_opt0(levels: PrivacyLevels, r: str = "min", *, box: str, self_pairs: str,
               extended: PrivacyLevels | None = None):
    """opt0's kernel-verified solution (Sec. V-D, problem (9)) on ``levels``: the feasible region is the choice
    ``box`` (the authors' box, or only ``0 < b_t < a_t < 1``), the level pairs it constrains the choice
    ``self_pairs`` (eq. (6) over ``i != j``, or every level with itself as the authors' code);
    ``extended``: IDUE-PS's domain with the dummies (Sec. VI-B, (17)), whose pairs are constrained."""
    return _solution(levels, "opt0", r, box, self_pairs, extended,
                     lambda: solve_levels(levels, "opt0", r, self_pairs=self_pairs, box=box, extended=extended))


@builds(SELF_PAIRS, constructs=("solve_levels",))
def solve_convex(levels: PrivacyLevels, model: str, r: str = "min", *, self_pairs: str,
                 extended: PrivacyLevels | None = None):
    """opt1's or opt2's kernel-verified solution (Sec. V-D, problems (11) and (12)); their regions have no box, the
    level pairs they constrain are the choice ``self_pairs``."""
    if model not in ("opt1", "opt2"):
        raise ValueError(f"solve_convex solves opt1 or opt2, not {model!r}")
    return _solution(levels, model, r, None, self_pairs, extended,
                     lambda: solve_levels(levels, model, r, self_pairs=self_pairs, extended=extended))


def solve_read(levels: PrivacyLevels, model: str = "opt0", r: str = "min", **options):
    """The solution of ``model`` on ``levels``: ``solve_opt0`` or ``solve_convex``, which read the choices ``box``
    (opt0) and ``self_pairs`` from the running check's reading unless its claim varies or fixes them and passes
    them."""
    if model == "opt0":
        return solve_opt0(levels, r, **options)
    return solve_convex(levels, model, r, **options)


def solved(levels: PrivacyLevels, model: str, **options):
    """``solve_read(levels, model)``: the name other papers' checks use."""
    return solve_read(levels, model, **options)


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
        solution = (built(solve_opt0, levels, box=box, self_pairs=self_pairs) if model == "opt0"
                    else built(solve_convex, levels, model, self_pairs=self_pairs))
        encoding = level_encoding(levels, item_level, solution.a, solution.b)
        encodings[f"IDUE-{model}"] = (encoding, solution.worst_case_mse)
    return encodings


@builds(BOX, BUDGET_ASSIGNMENT, SELF_PAIRS, constructs=("_fig3_cached",))
def fig3(dataset: str, *, n: int = 100_000, runs: int = 10, epsilons=EPSILON_GRID, seed: int = 2020,
         box: str, budget_assignment: str, self_pairs: str) -> Fig3Data:
    """The Fig. 3 comparison (Sec. VII-A) on ``dataset`` ("power-law", m = 100, or "uniform", m = 1000).

    Built under the choices ``box`` (opt0's region), ``budget_assignment`` (how the items get their budgets) and
    ``self_pairs`` (the pairs the solvers constrain). When every level the run draws holds two or more items, the run
    under ``self_pairs=all`` is the run under ``multi-item`` too (the same problems, solutions and draws): that is
    checked on the run itself, and the other reading is run only when some level holds a single item.
    """
    if self_pairs != "all":
        first = _fig3_cached(dataset, n, runs, tuple(epsilons), seed, box, budget_assignment, "all")
        if first.single_item_levels == 0:
            return first
    return _fig3_cached(dataset, n, runs, tuple(epsilons), seed, box, budget_assignment, self_pairs)


@lru_cache(maxsize=32)
def _fig3_cached(dataset: str, n: int, runs: int, epsilons: tuple, seed: int, box: str, assignment: str,
                 self_pairs: str) -> Fig3Data:
    m = {"power-law": 100, "uniform": 1000}[dataset]
    rng = np.random.default_rng(seed)
    items = (power_law_items if dataset == "power-law" else uniform_items)(n, m, rng)
    true_counts = np.bincount(items, minlength=m)
    data = Fig3Data(dataset, n, m)
    for eps in epsilons:
        levels, item_level = built(assign_budgets, m, LEVEL_FACTORS, LEVEL_SHARES, eps, rng,
                                   budget_assignment=assignment)
        data.single_item_levels += sum(size == 1 for size in levels.sizes)
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


@builds(BOX, BUDGET_ASSIGNMENT, SELF_PAIRS, constructs=("_share_sweep",))
def share_sweep(dataset: str, eps: float = 1.0, factor: float = 2.0, shares=SHARE_GRID, *, n: int = 100_000,
                seed: int = 6, box: str, budget_assignment: str, self_pairs: str) -> list[tuple]:
    """``(share, OUE's expected MSE / n, IDUE-opt0's expected MSE / n)`` for budgets ``{eps, factor * eps}`` (Fig. 6,
    Sec. VII-A), built under ``box``, ``budget_assignment`` and ``self_pairs`` as ``fig3``.

    Exact expected MSE (eq. (8)) of the generated data; the share is that of the items with the smaller budget.
    """
    if self_pairs != "all":
        rows, singles = _share_sweep(dataset, eps, factor, tuple(shares), n, seed, box, budget_assignment, "all")
        if singles == 0:
            return rows
    return _share_sweep(dataset, eps, factor, tuple(shares), n, seed, box, budget_assignment, self_pairs)[0]


@lru_cache(maxsize=32)
def _share_sweep(dataset: str, eps: float, factor: float, shares: tuple, n: int, seed: int, box: str, assignment: str,
                 self_pairs: str) -> tuple[list[tuple], int]:
    """The rows of ``share_sweep``, and how many of the levels drawn hold a single item."""
    m = {"power-law": 100, "uniform": 1000}[dataset]
    rng = np.random.default_rng(seed)
    items = (power_law_items if dataset == "power-law" else uniform_items)(n, m, rng)
    true_counts = np.bincount(items, minlength=m).tolist()
    rows, singles = [], 0
    for share in shares:
        levels, item_level = built(assign_budgets, m, (1.0, factor), (share, 1 - share), eps, rng,
                                   budget_assignment=assignment)
        singles += sum(size == 1 for size in levels.sizes)
        solution = built(solve_opt0, levels, box=box, self_pairs=self_pairs)
        idue_total = expected_total_mse(level_encoding(levels, item_level, solution.a, solution.b), true_counts)
        oue_total = expected_total_mse(oue(eps, m), true_counts)
        rows.append((share, oue_total / n, idue_total / n))
    return rows, singles

"""Gu et al. Sec. VII on the real data sets: Retail (Figs. 4-5) and Clothing (Figs. 7-9).

**Data** (``ldpspec.verify.data``; each folder's ``SOURCE.md`` says where the original comes from):

* **Retail** (FIMI; Table III: 908,576 records, 88,162 users, 16,470 items): for Figs. 4-5 "only the first item of
  each user is considered", so the summary holds how many users list each item first; ``n = 88,162``, ``m = 16,470``
  (the whole domain: an item nobody lists first still has its estimate, and its error counts in the MSE).
* **Clothing** (Rent the Runway; Table III: 192,544 records, 5,850 items, 105,508 users): every user's item set. The
  file holds 105,571 distinct users (where the printed 105,508 comes from is not known; SOURCE.md); a user who
  rented an item twice holds it once, so ``n = 105,571`` sets of 1.82 items on average.
* **Kosarak** is not held (its summary could not be built): every part about it stays open.

**Settings** (the paper, and the authors' code where the paper's values are lost; the page of Gu et al.):
``eps`` from 0.5 to 4 in steps of 0.5; three levels ``{eps, 1.2 eps, 2 eps}`` holding 5%, 5% and 90% of the items
(the default distribution; ``budget_assignment`` says how the items get them); RAPPOR and OUE (RAPPOR-PS, OUE-PS) at
``eps = min E``; IDUE (IDUE-PS) solved by opt0 in the box of the choice ``box`` (``opt0_parameters``, which reads
``box`` and ``self_pairs``). The builders read the other choices these experiments are built under and check in code
that they change nothing here: ``opt0_parameters`` serves the points recorded under ``self_pairs=all`` for
``multi-item`` only when every level holds two or more items (the same constraints); ``ps_real_bits`` checks that the
dummies add no constraint in any level ``dummy_budget`` lets them join, and that the estimates read real bits, which
every reading of ``release`` sends. The ``k`` of the top-``k`` items is lost: every ``k`` of ``K_GRID`` is computed
(the authors' code evaluates the top 100); the padding lengths of Figs. 8-9 are ``PADDING_GRID``.

**The budgets' arrangement.** The experiment gives the items their budgets at random (the authors' code draws the
arrangement once and keeps it for every ``eps``). The audit averages over that draw: given the level sizes
(``round(m * share)`` for ``exact-shares``; one seeded draw for ``random-draw``), every arrangement is equally
likely, so an item holds level ``t`` with probability ``m_t / m``. Exact expectations take that average in closed
form; the simulations draw a fresh arrangement in every run.

**The solver.** opt0 is not convex and the solver is local and untrusted (from seed 0 it stays at OUE's point at
``eps = 0.5`` with Retail's levels, where other seeds find points whose worst-case MSE is two thirds of OUE's). The
experiments' opt0 points are therefore searched once, from eight seeds, and recorded (``real_solutions``, written by
``record_solutions``); the audit verifies each with the kernel when it reads it (MinID-LDP between every pair of
levels; for the authors' box, inside it up to ``BOX_TOLERANCE``), and ``--deep`` runs the solver again to check that
it finds no better point.

**Exact expected losses.** For one item, a user's bit is an independent Bernoulli: a holder of the item whose set
has ``s`` items samples it with probability ``q_s = 1/max(s, l)`` (single items: ``q = 1``, ``l = 1``) and reports
1 with probability ``b + (a - b) q_s``; everyone else reports 1 with probability ``b``. So the item's bit count ``C``
is a sum of binomials, one per set size, and the estimate is ``c_hat = l (C - n b)/(a - b)``. ``exact_errors`` gives
``E|c_hat - c|`` (by the exact distribution of ``C``: its generating function evaluated at the roots of unity of a
window of 20 standard deviations and 200 more, inverted by FFT, in double precision) and ``E(c_hat - c)^2`` (closed
form). RE over the top ``k`` is ``(1/k) sum_i E|c_hat_i - c_i| / c_i`` over the true top ``k`` (ties broken by the
item's index, as the authors' sort does); the total MSE is ``(1/n) sum_i E(c_hat_i - c_i)^2``.

**Precision** of top-``k`` identification, ``|Top_k(c_hat) cap Top_k(c)| / k``, depends on the joint law of the
estimates, so it is simulated, exactly in distribution: each user's Padding-and-Sampling draw from its own set (all
users at once), then ``C_i ~ Bin(H_i, a_i) + Bin(n - H_i, b_i)`` for the ``H_i`` users that sampled item ``i``. The
three mechanisms see the same sampled items in a run (paired comparisons).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

import numpy as np
import scipy.fft

from ldpspec.reference.gu2020.idue import solve_levels
from ldpspec.reference.gu2020.levels import PrivacyLevels, level_pairs, verify_idue, with_dummies, worst_case_mse
from ldpspec.spec import exact_number
from ldpspec.verify.claims import builds
from ldpspec.verify.data import summary
from ldpspec.verify.gu2020.builders import dummy_levels_under, readings_agree
from ldpspec.verify.gu2020.experiments import EPSILON_GRID, LEVEL_FACTORS, LEVEL_SHARES
from ldpspec.verify.gu2020.readings import BOX, BUDGET_ASSIGNMENT, DUMMY_BUDGET, PADDING, RELEASE, SELF_PAIRS

K_GRID = tuple(range(10, 101, 10))
"""The ``k`` of the top-``k`` items (lost in the text; the authors' code evaluates the top 100)."""
PADDING_GRID = tuple(range(1, 9))
"""Figs. 8-9's padding lengths on Clothing (lost in the text; Clothing's users hold 1.82 items on average)."""
SOLVER_SEEDS = tuple(range(8))
BOX_TOLERANCE = Fraction(1, 10 ** 8)
"""How far outside the authors' box (``1/2 <= a <= 1``, ``0 <= b <= 1/2``) a recorded opt0 point may lie: the solver
meets its constraints to its own tolerance (the points found lie at most 10^-9 outside)."""
ARRANGEMENT_SEED = 2020
PRECISION_SEED = 7


# --- data ------------------------------------------------------------------------------------------------------

@lru_cache(maxsize=1)
def retail_first_items() -> np.ndarray:
    """How many Retail users list each item first (``m = 16,470`` entries)."""
    return np.array(summary("retail")["first_item_counts"], dtype=np.int64)


@dataclass(frozen=True)
class ItemSets:
    """Every user's set, flat: user ``u`` holds ``items[start[u] : start[u] + size[u]]``."""

    m: int
    size: np.ndarray
    start: np.ndarray
    items: np.ndarray

    @property
    def n(self) -> int:
        return len(self.size)

    @property
    def average(self) -> float:
        return float(self.size.mean())

    def counts(self) -> np.ndarray:
        """``c_i``: the users holding item ``i``."""
        return np.bincount(self.items, minlength=self.m)

    def counts_by_size(self, items: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """``(sizes, counts)``: the distinct set sizes, and ``counts[j, g]`` the holders of ``items[j]`` whose set has
        ``sizes[g]`` items."""
        holder_size = np.repeat(self.size, self.size)
        sizes, group = np.unique(holder_size, return_inverse=True)
        row = np.full(self.m, -1)
        row[items] = np.arange(len(items))
        chosen = row[self.items] >= 0
        counts = np.zeros((len(items), len(sizes)), dtype=np.int64)
        np.add.at(counts, (row[self.items][chosen], group[chosen]), 1)
        return sizes, counts


@lru_cache(maxsize=1)
def clothing_sets() -> ItemSets:
    """Clothing's 105,571 item sets (the users with one item first, then the others), items ``0 .. 5849``."""
    document = summary("clothing")
    m = document["items"]
    sets = [[i] for i, users in enumerate(document["single"]) for _ in range(users)]
    sets += [items for users, items in document["sets"] for _ in range(users)]
    size = np.array([len(s) for s in sets], dtype=np.int64)
    start = np.concatenate([[0], np.cumsum(size)[:-1]])
    return ItemSets(m, size, start, np.array([i for s in sets for i in s], dtype=np.int64))


def top_items(counts: np.ndarray, k: int) -> np.ndarray:
    """The true top ``k`` items, by count, ties by the smaller index (a stable sort, as the authors' code)."""
    return np.argsort(-np.asarray(counts), kind="stable")[:k]


def padding_lengths(sets: ItemSets) -> dict[str, int]:
    """The padding lengths of the choice ``padding``: the users' mean set size, rounded, and its 90th percentile."""
    return {"mean": int(round(sets.average)), "percentile-90": int(np.percentile(sets.size, 90))}


@builds(PADDING, constructs=("padding_lengths",))
def clothing_padding(*, padding: str) -> int:
    """The padding length \\(l\\) of Fig. 7's runs on Clothing (Sec. VII-B; not given): the users' mean number of
    items rounded (``mean``, 2) or its 90th percentile (``percentile-90``, 3)."""
    return padding_lengths(clothing_sets())[padding]


# --- budgets and the mechanisms' parameters ---------------------------------------------------------------------

def _exact_share_sizes(m: int) -> tuple[int, ...]:
    sizes = [int(round(m * share)) for share in LEVEL_SHARES]
    sizes[-1] = m - sum(sizes[:-1])
    return tuple(sizes)


def _drawn_share_sizes(m: int) -> tuple[int, ...]:
    drawn = np.random.default_rng([ARRANGEMENT_SEED, m]).choice(len(LEVEL_SHARES), size=m, p=LEVEL_SHARES)
    return tuple(int(v) for v in np.bincount(drawn, minlength=len(LEVEL_SHARES)))


@builds(BUDGET_ASSIGNMENT, constructs=("_exact_share_sizes", "_drawn_share_sizes"))
def level_sizes(m: int, *, budget_assignment: str) -> tuple[int, ...]:
    """The real-data experiments' level sizes (Sec. VII, 5%, 5%, 90% of the items): ``round(m * share)`` (the last
    level takes the rest) under ``budget_assignment=exact-shares``, or one seeded draw of every item's level under
    ``random-draw``."""
    return _exact_share_sizes(m) if budget_assignment == "exact-shares" else _drawn_share_sizes(m)


def _budgets(eps: float) -> list:
    return [factor * eps for factor in LEVEL_FACTORS]


def solution_key(eps: float, sizes: tuple, box: str) -> str:
    return f"{box} {','.join(map(str, sizes))} {eps}"


def data_level_sizes() -> list[tuple]:
    """Every level sizes the real-data experiments use (Retail's and Clothing's, under both assignments)."""
    return [level_sizes(m, budget_assignment=assignment) for m in (len(retail_first_items()), clothing_sets().m)
            for assignment in BUDGET_ASSIGNMENT.values]


@builds(BOX, SELF_PAIRS, constructs=("solve_levels",))
def search_opt0(eps: float, sizes: tuple, *, box: str, self_pairs: str, seeds=SOLVER_SEEDS):
    """opt0's best kernel-verified point (Sec. V-D, (9), in the region of ``box``, constraining the level pairs of
    ``self_pairs``) over the solver's runs from ``seeds`` (the solver is local)."""
    levels = PrivacyLevels.from_sizes(_budgets(eps), list(sizes))
    found = [solve_levels(levels, "opt0", self_pairs=self_pairs, box=box, seed=seed) for seed in seeds]
    return min((solution for solution in found if solution.verified), key=lambda solution: solution.worst_case_mse)


def record_solutions(path=None) -> str:
    """Search every opt0 point the experiments use (``SOLVER_SEEDS``) and write them as ``real_solutions.py``."""
    found = {}
    for sizes in data_level_sizes():
        for box in BOX.values:
            for eps in EPSILON_GRID:
                best = search_opt0(eps, sizes, box=box, self_pairs="all")
                found[solution_key(eps, sizes, box)] = tuple(value.text() for value in (*best.a, *best.b))
    text = solutions_module(found)
    if path is not None:
        with open(path, "w", encoding="utf-8") as file:
            file.write(text)
    return text


def solutions_module(solutions: dict) -> str:
    """The text of ``real_solutions.py`` holding ``solutions``."""
    entries = "".join(f'    "{key}": (\n' + "".join(f'        "{value}",\n' for value in values) + "    ),\n"
                      for key, values in solutions.items())
    return ('"""opt0\'s points for the real-data experiments of Gu et al. (``real_data``).\n\n'
            'Key: ``"box sizes eps"``; value: ``(a_0, a_1, a_2, b_0, b_1, b_2)`` per level, exact decimals, the best '
            "kernel-verified\npoint of the solver's runs from seeds "
            f"{SOLVER_SEEDS[0]}-{SOLVER_SEEDS[-1]}. Written by ``real_data.record_solutions()``; the audit\n"
            'verifies each with the kernel before it uses it, and ``--deep`` runs the solver again to compare.\n"""\n\n'
            "SOLUTIONS = {\n" + entries + "}\n")


RECORDED_SELF_PAIRS = "all"
"""The reading of ``self_pairs`` the recorded points were solved under (``record_solutions``)."""


@builds(BOX, SELF_PAIRS, constructs=("_recorded_opt0",))
def opt0_parameters(eps: float, sizes: tuple, *, box: str, self_pairs: str) -> tuple[tuple, tuple, float]:
    """``(a, b, worst-case MSE / n)`` per level of opt0's point (Sec. V-D, (9)) for levels ``{eps, 1.2 eps, 2 eps}``
    with ``sizes`` items, in the region of ``box`` and constraining the level pairs of ``self_pairs``: the recorded
    point (``real_solutions``, solved under ``self_pairs=all``). It serves the reading ``multi-item`` only when the
    two readings constrain the same pairs, every level holding two or more items; otherwise it refuses (record the
    points of that problem first)."""
    if self_pairs != RECORDED_SELF_PAIRS and not readings_agree(sizes):
        raise ValueError(f"the recorded opt0 points were solved under self_pairs={RECORDED_SELF_PAIRS}; the levels "
                         f"{sizes} hold a level of one item, whose constraint with itself the reading "
                         f"self_pairs={self_pairs} drops: record the points of that problem")
    return _recorded_opt0(eps, tuple(sizes), box)


@lru_cache(maxsize=256)
def _recorded_opt0(eps: float, sizes: tuple, box: str) -> tuple[tuple, tuple, float]:
    """The recorded opt0 point, verified by the kernel (MinID-LDP between every pair of levels, each level with
    itself)."""
    from ldpspec.verify.gu2020.real_solutions import SOLUTIONS

    texts = SOLUTIONS[solution_key(eps, sizes, box)]
    count = len(sizes)
    a, b = [exact_number(v, "a") for v in texts[:count]], [exact_number(v, "b") for v in texts[count:]]
    # the constraints are the same for every level size of two or more items: check them on two items per level
    if not verify_idue(PrivacyLevels.from_sizes(_budgets(eps), [2] * count), a, b).holds:
        raise AssertionError(f"the recorded opt0 point {solution_key(eps, sizes, box)} is not MinID-LDP")
    outside = max([Fraction(1, 2) - v for v in a] + [v - 1 for v in a] + [-v for v in b] + [v - Fraction(1, 2)
                                                                                         for v in b])
    if box == "authors" and outside > BOX_TOLERANCE:  # the solver meets the box to its own tolerance
        raise AssertionError(f"the recorded opt0 point {solution_key(eps, sizes, box)} is outside the authors' box")
    return (tuple(float(v) for v in a), tuple(float(v) for v in b),
            float(worst_case_mse(list(sizes), [float(v) for v in a], [float(v) for v in b])))


def baseline_parameters(name: str, eps: float) -> tuple[float, float]:
    """``(a, b)`` of RAPPOR (SUE at ``eps``) and OUE."""
    if name == "RAPPOR":
        a = 1 / (1 + math.exp(-eps / 2))
        return a, 1 - a
    return 0.5, 1 / (math.exp(eps) + 1)


MECHANISMS = ("RAPPOR", "OUE", "IDUE")


def mechanism_levels(name: str, eps: float, sizes: tuple | None = None,
                     box: str | None = None) -> tuple[tuple[float, float, float], ...]:
    """``((weight, a, b), ...)``: the parameters of a mechanism, each with the probability that an item has them (one
    entry for RAPPOR and OUE; one per level, weighted ``m_t / m``, for IDUE: ``opt0_parameters``, in the region of
    ``box``, ``None`` for the running check's reading)."""
    if name != "IDUE":
        return ((1.0, *baseline_parameters(name, eps)),)
    a, b, _ = opt0_parameters(eps, sizes) if box is None else opt0_parameters(eps, sizes, box=box)
    m = sum(sizes)
    return tuple((size / m, a_t, b_t) for size, a_t, b_t in zip(sizes, a, b))


@builds(DUMMY_BUDGET, RELEASE, SELF_PAIRS, constructs=("with_dummies", "level_pairs"))
def ps_real_bits(eps: float, sizes: tuple, padding: int, *, dummy_budget: str, release: str,
                 self_pairs: str) -> range:
    """IDUE-PS on a real data set (Sec. VI, Sec. VII-B): the bits its estimates read, once it is checked that the
    items' recorded opt0 point (``opt0_parameters``) is IDUE-PS's under this reading.

    The dummies join the smallest budget's level (``dummy_budget=min``) or any level (``any``); (17) constrains the
    level pairs (``self_pairs``) of that extended domain, which must be the items' own pairs for every level the
    dummies may join (true when each level already holds two or more items; refused otherwise). The user releases
    the ``m + l`` bits (``release=all``) or the ``m`` real ones (``real``); the estimate of item ``i`` reads bit ``i``,
    released under both, and the bits are perturbed independently, so the real bits' counts have the same joint law
    under both readings: the simulations draw those only."""
    levels = PrivacyLevels.from_sizes(_budgets(eps), list(sizes))
    own = level_pairs(levels, self_pairs=self_pairs)
    for level in dummy_levels_under(levels, dummy_budget):
        if level_pairs(with_dummies(levels, padding, level), self_pairs=self_pairs) != own:
            raise ValueError(f"with the dummies in level {level}, (17) constrains other level pairs than the items' "
                             f"(levels of sizes {sizes}, self_pairs={self_pairs}): the recorded opt0 point is not "
                             "IDUE-PS's")
    m = sum(sizes)
    released_bits = m + padding if release == "all" else m
    if released_bits < m:
        raise ValueError("the estimates read the m real bits, which every reading of release sends")
    return range(m)


# --- exact expected errors -------------------------------------------------------------------------------------

def exact_errors(counts: np.ndarray, sample: np.ndarray, n: int, a: float, b: float,
                 padding: int = 1) -> tuple[np.ndarray, np.ndarray]:
    """``(E|c_hat_i - c_i|, E(c_hat_i - c_i)^2)`` for each row ``i`` of ``counts``.

    ``counts[i, g]`` holders of item ``i`` sample it with probability ``sample[g]``; the other ``n - c_i`` users do not
    hold it. ``c_hat_i = padding (C_i - n b) / (a - b)`` with ``C_i`` the item's bit count.
    """
    counts = np.atleast_2d(np.asarray(counts, dtype=np.int64))
    held = counts.sum(axis=1)
    if np.any(held > n):
        raise ValueError("an item has more holders than there are users")
    hot = b + (a - b) * np.asarray(sample, dtype=float)
    mean = counts @ hot + (n - held) * b
    variance = counts @ (hot * (1 - hot)) + (n - held) * b * (1 - b)
    target = n * b + held * (a - b) / padding
    scale = padding / (a - b)
    square = scale ** 2 * (variance + (mean - target) ** 2)
    # the window: 20 standard deviations and 200 more; Bernstein's inequality puts the mass outside below 1e-21
    size = scipy.fft.next_fast_len(2 * math.ceil(10 * math.sqrt(float(variance.max())) + 100), real=True)
    # |pgf(e^{-i w})| <= exp(-Var (1 - cos w)) <= exp(-2 Var w^2 / pi^2): the frequencies past `cut` are below 1e-20
    cut = min(size // 2, math.ceil(size * math.sqrt(46 / (8 * float(variance.min()))))) + 1
    j = np.arange(cut)
    z = np.exp(-2j * np.pi * j / size)
    start = np.rint(mean).astype(np.int64) - size // 2
    log_group = np.log(1 - hot[:, None] + hot[:, None] * z[None, :])
    weights = counts.astype(float)
    log_pgf = (weights @ log_group.real + 1j * (weights @ log_group.imag)
               + (n - held)[:, None] * np.log(1 - b + b * z)[None, :]
               + 2j * np.pi * ((start[:, None] * j[None, :]) % size) / size)
    pmf = scipy.fft.irfft(np.exp(log_pgf), n=size, axis=1)  # the pmf of C on start .. start + size - 1
    offset = target - start  # |k - offset| = (k - offset) + 2 (offset - k)^+
    below = np.maximum(offset[:, None] - np.arange(size)[None, :], 0.0)
    absolute = scale * (pmf @ np.arange(size) - offset * pmf.sum(axis=1) + 2 * np.einsum("ij,ij->i", pmf, below))
    return absolute, square


def mixed_errors(parameters: tuple, counts, sample, n: int, padding: int = 1) -> tuple[np.ndarray, np.ndarray]:
    """``exact_errors`` averaged over the level an item holds (``parameters``: ``mechanism_levels``)."""
    absolute, square = 0.0, 0.0
    for weight, a, b in parameters:
        first, second = exact_errors(counts, sample, n, a, b, padding)
        absolute, square = absolute + weight * first, square + weight * second
    return absolute, square


def relative_errors(absolute: np.ndarray, true_counts: np.ndarray, ks=K_GRID) -> dict[int, float]:
    """``{k: RE over the top k}`` from the expected absolute errors of the top items (in order)."""
    relative = absolute / true_counts
    return {k: float(relative[:k].mean()) for k in ks}


# --- Retail, single items (Figs. 4-5) ----------------------------------------------------------------------------

@dataclass
class SingleItemPoint:
    """One mechanism at one budget: exact expected total MSE over ``n``, and ``{k: RE over the top k}``."""

    mechanism: str
    epsilon: float
    mse: float
    re: dict


@lru_cache(maxsize=64)
def _retail_point(name: str, eps: float, parameters: tuple) -> SingleItemPoint:
    counts = retail_first_items()
    n = int(counts.sum())
    top = top_items(counts, max(K_GRID))
    mse = 0.0
    for weight, a, b in parameters:
        per_item = (counts * a * (1 - a) + (n - counts) * b * (1 - b)) / (a - b) ** 2
        mse += weight * float(per_item.sum()) / n
    absolute, _ = mixed_errors(parameters, counts[top][:, None], np.ones(1), n)
    return SingleItemPoint(name, eps, mse, relative_errors(absolute, counts[top]))


def retail_losses(box: str, budget_assignment: str) -> list[SingleItemPoint]:
    """Exact expected total MSE and RE of each mechanism on Retail's first items, at every budget of the grid."""
    sizes = level_sizes(len(retail_first_items()), budget_assignment=budget_assignment)
    return [_retail_point(name, eps, mechanism_levels(name, eps, sizes, box))
            for eps in EPSILON_GRID for name in MECHANISMS]


# --- Clothing, item sets (Figs. 7-9) -----------------------------------------------------------------------------

@lru_cache(maxsize=1)
def _clothing_top() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """``(top items, their counts, set sizes, counts by set size)`` of the top ``max(K_GRID)`` items of Clothing."""
    sets = clothing_sets()
    counts = sets.counts()
    top = top_items(counts, max(K_GRID))
    set_sizes, by_size = sets.counts_by_size(top)
    return top, counts[top], set_sizes, by_size


@lru_cache(maxsize=1024)
def _clothing_re(name: str, eps: float, padding: int, parameters: tuple) -> dict:
    _, counts, set_sizes, by_size = _clothing_top()
    absolute, _ = mixed_errors(parameters, by_size, 1 / np.maximum(set_sizes, padding), clothing_sets().n, padding)
    return relative_errors(absolute, counts)


def clothing_relative_errors(padding: int, box: str, budget_assignment: str, mechanisms=MECHANISMS) -> dict:
    """``{(mechanism, eps): {k: exact expected RE over the top k}}`` on Clothing with padding length ``padding``
    (IDUE-PS's parameters checked for the reading by ``ps_real_bits``)."""
    sizes = level_sizes(clothing_sets().m, budget_assignment=budget_assignment)
    if "IDUE" in mechanisms:
        for eps in EPSILON_GRID:
            ps_real_bits(eps, sizes, padding)
    return {(name, eps): _clothing_re(name, eps, padding, mechanism_levels(name, eps, sizes, box))
            for eps in EPSILON_GRID for name in mechanisms}


def sampled_items(sets: ItemSets, padding: int, rng: np.random.Generator) -> np.ndarray:
    """``H_i``: how many users' Padding-and-Sampling draw is item ``i`` (all users at once, exactly in distribution:
    each real item of a set is drawn with probability ``1/max(|x|, l)``, a dummy otherwise)."""
    j = rng.integers(0, np.maximum(sets.size, padding))
    real = j < sets.size
    return np.bincount(sets.items[sets.start[real] + j[real]], minlength=sets.m)


def top_estimates(estimate: np.ndarray, k: int) -> np.ndarray:
    """The ``k`` items with the largest estimates, ties by the smaller index: a stable sort's first ``k``."""
    threshold = np.partition(estimate, len(estimate) - k)[len(estimate) - k]
    candidates = np.flatnonzero(estimate >= threshold)
    return candidates[np.argsort(-estimate[candidates], kind="stable")[:k]]


@dataclass
class PrecisionRuns:
    """``values[(mechanism, eps)]``: an array ``runs x len(K_GRID)`` of top-``k`` precisions."""

    padding: int
    runs: int
    values: dict

    def mean_se(self, mechanism: str, eps: float) -> tuple[np.ndarray, np.ndarray]:
        data = self.values[(mechanism, eps)]
        return data.mean(axis=0), data.std(axis=0, ddof=1) / math.sqrt(self.runs)

    def difference(self, first: str, second: str, eps: float) -> tuple[np.ndarray, np.ndarray]:
        """Mean and standard error of ``precision(first) - precision(second)`` per ``k`` (paired runs)."""
        data = self.values[(first, eps)] - self.values[(second, eps)]
        return data.mean(axis=0), data.std(axis=0, ddof=1) / math.sqrt(self.runs)


@lru_cache(maxsize=4)
def _sampled(padding: int, runs: int) -> tuple[np.ndarray, ...]:
    """Every run's ``H`` (the users that sampled each item), shared by all mechanisms and readings (paired)."""
    sets = clothing_sets()
    rng = np.random.default_rng([PRECISION_SEED, padding, runs])
    return tuple(sampled_items(sets, padding, rng) for _ in range(runs))


def _precisions(hot: np.ndarray, a, b, padding: int, truth: np.ndarray, rng: np.random.Generator) -> list[float]:
    n = clothing_sets().n
    reported = rng.binomial(hot, a) + rng.binomial(n - hot, b)
    ranks = truth[top_estimates(padding * (reported - n * b) / (a - b), max(K_GRID))]
    return [np.count_nonzero(ranks[:k] < k) / k for k in K_GRID]


@lru_cache(maxsize=1)
def _true_ranks() -> np.ndarray:
    sets = clothing_sets()
    truth = np.empty(sets.m, dtype=np.int64)
    truth[top_items(sets.counts(), sets.m)] = np.arange(sets.m)
    return truth


@lru_cache(maxsize=8)
def _baseline_precisions(name: str, padding: int, runs: int) -> dict:
    rng = np.random.default_rng([PRECISION_SEED, padding, runs, MECHANISMS.index(name)])
    return {eps: np.array([_precisions(hot, *baseline_parameters(name, eps), padding, _true_ranks(), rng)
                           for hot in _sampled(padding, runs)]) for eps in EPSILON_GRID}


@lru_cache(maxsize=16)
def _idue_precisions(padding: int, sizes: tuple, parameters: tuple, runs: int) -> dict:
    """IDUE-PS with a fresh arrangement of the budgets in every run (the same arrangement for every ``eps``);
    ``parameters``: ``(a, b)`` per level at each budget of ``EPSILON_GRID``."""
    m = clothing_sets().m
    rng = np.random.default_rng([PRECISION_SEED, padding, runs, len(MECHANISMS), *sizes])
    arrangements = [np.repeat(np.arange(len(sizes)), sizes)[rng.permutation(m)] for _ in range(runs)]
    result = {}
    for eps, (a_levels, b_levels) in zip(EPSILON_GRID, parameters):
        a_levels, b_levels = np.array(a_levels), np.array(b_levels)
        result[eps] = np.array([_precisions(hot, a_levels[level], b_levels[level], padding, _true_ranks(), rng)
                                for hot, level in zip(_sampled(padding, runs), arrangements)])
    return result


def precision_runs(padding: int, box: str, budget_assignment: str, runs: int) -> PrecisionRuns:
    """Top-``k`` precision of RAPPOR-PS, OUE-PS and IDUE-PS on Clothing, ``runs`` simulated runs per point."""
    sizes = level_sizes(clothing_sets().m, budget_assignment=budget_assignment)
    for eps in EPSILON_GRID:
        ps_real_bits(eps, sizes, padding)
    parameters = tuple(opt0_parameters(eps, sizes, box=box)[:2] for eps in EPSILON_GRID)
    values = {}
    for name in MECHANISMS:
        table = _idue_precisions(padding, sizes, parameters, runs) if name == "IDUE" else _baseline_precisions(
            name, padding, runs)
        values.update({(name, eps): table[eps] for eps in EPSILON_GRID})
    return PrecisionRuns(padding, runs, values)

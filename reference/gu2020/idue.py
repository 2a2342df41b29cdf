"""IDUE: input-discriminative unary encoding (Gu et al. Sec. V), the registered mechanism ``idue``.

IDUE is unary encoding whose items come in privacy levels, each level with its own ``(a_t, b_t)``
(``ldpspec.reference.gu2020.levels``). The mechanism ``idue`` solves one of the optimisation models opt0, opt1, opt2
(``ldpspec.reference.gu2020.solvers``) for the given levels, or takes a solver's recorded output, and builds IDUE from
the solution, which it keeps (``SolvedIdue``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

from ldpspec.reference.gu2020.levels import (
    BOXES,
    MODELS,
    NOTIONS_BY_PAIR_FUNCTION,
    SELF_PAIRS,
    PrivacyLevels,
    benchmark_levels,
    idue,
    levels_of,
)
from ldpspec.reference.gu2020.solvers import check_problem, solve
from ldpspec.reference.mechanism import Benchmark, Mechanism
from ldpspec.reference.shared.unary import UnaryEncoding
from ldpspec.reference.validation import choice
from ldpspec.spec import InvalidParameter, Parameter, exact_number, sequence

MAX_STARTS = 100
"""The most random starts of opt0 (each one is a run of the local solver)."""

ITEM_BUDGETS = Parameter("budgets", "budgets", "one budget per item; items with equal budgets form a privacy level "
                         "(give this or --levels)", required=False, example="[1, 1, 2]")
LEVELS = Parameter("levels", "levels", "the privacy levels as [budget, number of items] pairs (give this or "
                   "--budgets)", required=False)
MODEL = Parameter("model", "choice", "the optimisation model: opt0 (9), opt1 (11) or opt2 (12)", choices=MODELS,
                  required=False, default="opt0")
PAIR_FUNCTION = Parameter("notion", "choice", "the notion solved for: MinID-LDP (min) or AvgID-LDP (avg)",
                          keyword="r", choices=tuple(NOTIONS_BY_PAIR_FUNCTION), required=False, default="min")
SELF_PAIRS_OPTION = Parameter(
    "self-pairs", "choice", "constrain s = t for every level (all, as the authors' code) or only for levels with two "
    "or more items (multi-item, as eq. (6) over i != j)", choices=SELF_PAIRS, required=False, default="all")
BOX = Parameter("box", "choice", "opt0's feasible box: the authors' 1/2 <= a <= 1, 0 <= b <= 1/2, or none "
                "(only 0 < b < a < 1)", choices=tuple(BOXES), required=False, default="authors")
STARTS = Parameter("starts", "integer", "opt0: random starts besides OUE, RAPPOR, opt1 and opt2", required=False,
                   default="8", minimum=0, maximum=MAX_STARTS)
SEED = Parameter("seed", "integer", "opt0: the seed of the random starts, an integer >= 0", required=False, default="0",
                 minimum=0)
SOLVER_PARAMETERS = (ITEM_BUDGETS, LEVELS, MODEL, PAIR_FUNCTION, SELF_PAIRS_OPTION, BOX, STARTS, SEED)
"""The parameters of ``ldpspec idue solve``, and of every mechanism built from a solved IDUE."""


def solve_levels(levels: PrivacyLevels, model: str = "opt0", r: str = "min", self_pairs: str = "all",
                 box: str = "authors", starts: int = 8, seed: int = 0, extended: PrivacyLevels | None = None):
    """The kernel-verified solution of one model (``reference.gu2020.solvers``), with the options by name.

    ``extended`` (IDUE-PS) is the domain with the dummies: its pairs are constrained, (17), while the objective counts
    the original items only.
    """
    choice(box, BOXES, "box")
    options = {"self_pairs": self_pairs, "extended": extended}
    if model == "opt0":
        options.update(box=BOXES[box], random_starts=starts, seed=seed)
    return solve(levels, model, r, **options)


def check_solver_options(levels: PrivacyLevels, model: str = "opt0", r: str = "min", self_pairs: str = "all",
                         box: str = "authors", extended: PrivacyLevels | None = None) -> None:
    """Refuse what ``solve_levels`` would refuse, in its order, without solving: the box, the model, the levels'
    budgets, the notion and the self-pairs reading (work in the levels, not in their items)."""
    choice(box, BOXES, "box")
    check_problem(levels, model, r, self_pairs, extended)


def recorded_levels(levels: PrivacyLevels, solution: Mapping) -> tuple[list, list]:
    """Per-level ``(a_t, b_t)`` from a solver's output recorded per item (``{"a": [...], "b": [...]}``, exact texts,
    one per item in item order, as ``ldpspec idue solve`` prints them under ``items``)."""
    a, b = (sequence(solution.get(key), f"solution.{key}") for key in ("a", "b"))
    if len(a) != len(levels.item_levels) or len(b) != len(levels.item_levels):
        raise InvalidParameter(f"the recorded solution must give one a and one b per item ({len(levels.item_levels)}),"
                               f" got {len(a)} and {len(b)}")
    per_level = {}
    for item, level in enumerate(levels.item_levels):
        if per_level.setdefault(level, (a[item], b[item])) != (a[item], b[item]):
            raise InvalidParameter(f"the recorded solution gives item {item} other parameters than its level's")
    return ([exact_number(per_level[t][0], f"solution.a (level {t})") for t in range(levels.count)],
            [exact_number(per_level[t][1], f"solution.b (level {t})") for t in range(levels.count)])


def level_parameters(levels: PrivacyLevels, solution: Mapping | None, *solver_options,
                     extended: PrivacyLevels | None = None) -> tuple:
    """Per-level ``(a_t, b_t)``: the recorded ``solution``'s when one is given, else the solver's (``solve_levels``
    with these options)."""
    if solution is not None:
        return recorded_levels(levels, solution)
    found = solve_levels(levels, *solver_options, extended=extended)
    return found.a, found.b


def solved_idue(budgets: Sequence | None = None, levels: Sequence | None = None, model: str = "opt0", r: str = "min",
                self_pairs: str = "all", box: str = "authors", starts: int = 8, seed: int = 0,
                solution: Mapping | None = None) -> SolvedIdue:
    """IDUE with the parameters a model finds for the given levels (the mechanism ``idue``).

    ``solution``: the solver's output as recorded per item (``recorded_levels``), taken instead of solving. The
    porting vectors use it, so that their exact channels do not depend on the SciPy of the machine that regenerates
    them (two SciPy releases have put opt0's optimum a few parts in 10^8 apart)."""
    privacy_levels = levels_of(budgets, levels)
    a, b = level_parameters(privacy_levels, solution, model, r, self_pairs, box, starts, seed)
    return SolvedIdue(privacy_levels, a, b, r)


class SolvedIdue(UnaryEncoding):
    """IDUE built from the per-level ``(a_t, b_t)`` a solver found (or its recorded output): the unary encoding of
    ``idue``, with what was found, which a channel file records (``metadata``, per level) and the porting vectors
    too (``solution()``, per item)."""

    def __init__(self, levels: PrivacyLevels, a: Sequence, b: Sequence, r: str = "min"):
        encoding = idue(levels, a, b, r)
        super().__init__(encoding.bits, encoding.guarantee())
        self.metadata = {"a": [v.text() for v in a], "b": [v.text() for v in b]}

    def solution(self) -> dict:
        """The parameters per item, ``{"a": [...], "b": [...]}`` as exact texts: what ``build`` takes back as
        ``solution`` instead of solving again."""
        return {"a": [bit.p.text() for bit in self.bits], "b": [bit.q.text() for bit in self.bits]}



def _workload(n: int, d: int, rng: np.random.Generator):
    levels = benchmark_levels(d)
    solution = solve_levels(levels)
    return idue(levels, solution.a, solution.b), rng.integers(0, d, n)


MECHANISMS = (
    Mechanism(
        name="idue", title="Input-discriminative unary encoding, solved by opt0, opt1 or opt2", home="gu2020",
        source="Gu et al. Sec. V", notion="minid-ldp", parameters=SOLVER_PARAMETERS, build=solved_idue,
        claims=("gu2020.eq6", "gu2020.eq6-levels", "gu2020.theorem3", "gu2020.eq8", "gu2020.opt0-bound",
                "gu2020.opt0-vs-baselines", "gu2020.opt0-nonconvex", "gu2020.opt1-opt2-convex", "gu2020.table2-toy",
                "gu2020.sec8-avgid.applicable"),
        docs="mechanisms/idue.md", inputs="item", reports="bit-vector", solved=True,
        benchmark=Benchmark(workload=_workload, group="items")),
)

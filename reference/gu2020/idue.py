"""IDUE: input-discriminative unary encoding (Gu et al. Sec. V).

Items are grouped into privacy levels (Sec. V-D): level ``t`` has budget
``eps_t`` and ``m_t`` items, and all its items share the perturbation
probabilities ``(a_t, b_t)``. The mechanism is unary encoding with those
per-bit probabilities (``ldpspec.reference.shared.unary``): bit ``k`` is 1 with probability
``a_k`` if ``k`` is the user's item, ``b_k`` otherwise.

Privacy (eq. (6)): for items ``i != j``, the worst ratio over all outputs is
``a_i (1 - b_j) / (b_i (1 - a_j))``, so MinID-LDP holds iff

    a_s (1 - b_t) <= e^{min(eps_s, eps_t)} b_s (1 - a_t)

for every ordered pair of levels ``(s, t)`` that has a pair of distinct items
(``s = t`` only when ``m_t >= 2``; the paper leaves open whether a level of one
item is constrained with itself, see the reading "self_pairs" on the page of Gu et al.).
AvgID-LDP replaces ``min`` by the average.

The objectives of the three optimisation models are here; the solvers are in
``ldpspec.reference.gu2020.solvers``. The registered mechanism ``idue`` solves a
model for the given levels and builds IDUE from the solution.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cmp_to_key

import numpy as np

from ldpspec.reference.mechanism import Benchmark, Guarantee, Mechanism
from ldpspec.reference.shared.estimators import variance_terms
from ldpspec.reference.shared.unary import UnaryEncoding, general_unary_probabilities
from ldpspec.reference.validation import choice
from ldpspec.spec.channel import sequence
from ldpspec.spec.errors import InvalidParameter
from ldpspec.spec.notions import PAIR_FUNCTIONS, id_ldp
from ldpspec.spec.numbers import budget, ctx, exact
from ldpspec.spec.parameters import Parameter
from ldpspec.spec.verdict import Verdict

MAX_ITEMS = 1_000_000
"""The most items the privacy levels hold (each item gets its own pair of parameters)."""

MAX_LEVELS = 16
"""The most privacy levels: the solvers' problems have 2T variables and T^2 constraints (opt0 over 16 levels takes
about a minute with its default starts, over 32 levels several minutes)."""

MAX_STARTS = 100
"""The most random starts of opt0 (each one is a run of the local solver)."""

SELF_PAIRS = ("all", "multi-item")
"""Which levels eq. (6) constrains with themselves: every level (as the authors' code), or only levels with two or
more items (as (6) over pairs of distinct items says)."""

NOTIONS_BY_PAIR_FUNCTION = {"min": "minid-ldp", "avg": "avgid-ldp"}


@dataclass(frozen=True)
class PrivacyLevels:
    """Privacy levels: ``budgets[t]`` and ``sizes[t]`` (``m_t``), with each item's level.

    Build with ``from_item_budgets`` (one budget per item; equal budgets form a
    level) or ``from_sizes`` (one budget and one size per level).
    """

    budgets: tuple
    sizes: tuple
    item_levels: tuple

    @classmethod
    def from_item_budgets(cls, item_budgets: Sequence) -> PrivacyLevels:
        item_budgets = sequence(item_budgets, "budgets")
        if not 2 <= len(item_budgets) <= MAX_ITEMS:
            raise InvalidParameter(f"budgets must give one budget per item for 2 to {MAX_ITEMS:,} items, got "
                                   f"{len(item_budgets):,}")
        values = [budget(value, f"budgets[{i}]") for i, value in enumerate(item_budgets)]
        distinct = []
        for value in sorted(values, key=cmp_to_key(lambda a, b: a.compare(b))):
            if not distinct or distinct[-1] != value:
                distinct.append(value)
        _check_level_count(len(distinct))
        item_levels = tuple(_position(distinct, value) for value in values)
        sizes = tuple(item_levels.count(t) for t in range(len(distinct)))
        return cls(tuple(distinct), sizes, item_levels)

    @classmethod
    def from_sizes(cls, level_budgets: Sequence, sizes: Sequence[int]) -> PrivacyLevels:
        level_budgets, sizes = sequence(level_budgets, "level budgets"), sequence(sizes, "sizes")
        budgets = [budget(value, f"level budgets[{t}]") for t, value in enumerate(level_budgets)]
        if len(budgets) != len(sizes) or not budgets:
            raise InvalidParameter(f"give one size per level: {len(budgets)} budgets, {len(sizes)} sizes")
        _check_level_count(len(budgets))
        if any(a == b for k, a in enumerate(budgets) for b in budgets[k + 1:]):
            raise InvalidParameter("level budgets must be distinct (equal budgets form one level)")
        for t, size in enumerate(sizes):
            if not isinstance(size, int) or isinstance(size, bool) or size < 1:
                raise InvalidParameter(f"sizes[{t}] (items in level {t}) must be an integer >= 1, got {size!r}")
        if not 2 <= sum(sizes) <= MAX_ITEMS:
            raise InvalidParameter(f"the levels must hold 2 to {MAX_ITEMS:,} items in all, got {sum(sizes):,}")
        order = sorted(range(len(budgets)), key=cmp_to_key(lambda s, t: budgets[s].compare(budgets[t])))
        budgets, sizes = [budgets[t] for t in order], [sizes[t] for t in order]
        item_levels = tuple(t for t, size in enumerate(sizes) for _ in range(size))
        return cls(tuple(budgets), tuple(sizes), item_levels)

    @property
    def count(self) -> int:
        """``T``, the number of levels."""
        return len(self.budgets)

    @property
    def items(self) -> int:
        """``m``, the number of items."""
        return len(self.item_levels)

    def item_budgets(self) -> tuple:
        return tuple(self.budgets[t] for t in self.item_levels)


def _check_level_count(count: int) -> None:
    if count > MAX_LEVELS:
        raise InvalidParameter(f"at most {MAX_LEVELS} privacy levels (distinct budgets) are solved for, got {count}")


def _position(ordered: list, value) -> int:
    return next(t for t, candidate in enumerate(ordered) if candidate == value)


def level_pairs(levels: PrivacyLevels, *, self_pairs: str = "all") -> list[tuple[int, int]]:
    """The ordered level pairs ``(s, t)`` constrained by eq. (6).

    ``self_pairs="all"`` includes ``s = t`` for every level, as the authors'
    code does; ``"multi-item"`` includes ``s = t`` only for levels with at least
    two items, as eq. (6) over pairs ``i != j`` says.
    """
    choice(self_pairs, SELF_PAIRS, "self_pairs")
    return [(s, t) for s in range(levels.count) for t in range(levels.count)
            if s != t or self_pairs == "all" or levels.sizes[t] >= 2]


def pair_budget(levels: PrivacyLevels, s: int, t: int, r: str):
    """``r(eps_s, eps_t)`` for ``r`` in ``min`` (MinID-LDP) or ``avg`` (AvgID-LDP)."""
    if r not in ("min", "avg"):
        raise InvalidParameter(f"notion must be 'min' (MinID-LDP) or 'avg' (AvgID-LDP), got {r!r}")
    return PAIR_FUNCTIONS[r](levels.budgets[s], levels.budgets[t])


def idue(levels: PrivacyLevels, a: Sequence, b: Sequence, r: str = "min") -> UnaryEncoding:
    """The IDUE mechanism with per-level ``(a_t, b_t)``, as unary encoding over all items.

    It claims MinID-LDP (``r="min"``) or AvgID-LDP (``r="avg"``) with each item's level budget; whether the
    parameters achieve it is for the kernel to say (``verify_idue``).
    """
    if len(a) != levels.count or len(b) != levels.count:
        raise InvalidParameter(f"give one a and one b per level ({levels.count}), got {len(a)} and {len(b)}")
    if r not in NOTIONS_BY_PAIR_FUNCTION:
        raise InvalidParameter(f"notion must be 'min' (MinID-LDP) or 'avg' (AvgID-LDP), got {r!r}")
    bits = [general_unary_probabilities(exact(a[t], f"a[{t}]"), exact(b[t], f"b[{t}]")) for t in range(levels.count)]
    guarantee = Guarantee(NOTIONS_BY_PAIR_FUNCTION[r], {"budgets": dict(enumerate(levels.item_budgets()))})
    return UnaryEncoding([bits[t] for t in levels.item_levels], guarantee)


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


def verify_idue(levels: PrivacyLevels, a: Sequence, b: Sequence, r: str = "min") -> Verdict:
    """The kernel's verdict on IDUE with these parameters over all of its items: MinID-LDP (``r="min"``) or
    AvgID-LDP (``"avg"``). The channel's items come in classes (the levels), which the kernel judges a pair of
    classes at a time."""
    channel = idue(levels, a, b).channel()
    return id_ldp(channel, dict(zip(channel.inputs, levels.item_budgets())), r)


# --- Objectives of the optimisation models (Sec. V-D) -------------------------------------------
# Plain arithmetic: floats for the solvers, exact numbers for the audit.

def level_terms(a, b) -> tuple:
    """``(b(1-b)/(a-b)^2, (1-a-b)/(a-b))``: per item, the n-term and the count term of eq. (8)."""
    return variance_terms(a, b)


def worst_case_mse(sizes: Sequence[int], a: Sequence, b: Sequence):
    """opt0's objective (9): ``sum_t m_t b_t(1-b_t)/(a_t-b_t)^2 + max_t (1-a_t-b_t)/(a_t-b_t)``.

    Times ``n``, it bounds the total MSE of single-item data (claim gu2020.opt0-bound).
    """
    terms = [level_terms(a_t, b_t) for a_t, b_t in zip(a, b)]
    return sum(m * first for m, (first, _) in zip(sizes, terms)) + max(second for _, second in terms)


def total_mse(sizes: Sequence[int], level_counts: Sequence, n, a: Sequence, b: Sequence):
    """The exact total MSE ``sum_t MSE_t`` for single-item data, ``level_counts[t] = sum_{i in D_t} c_i``."""
    total = 0
    for m, count, a_t, b_t in zip(sizes, level_counts, a, b):
        first, second = level_terms(a_t, b_t)
        total = total + n * m * first + count * second
    return total


def opt1_probabilities(x) -> tuple:
    """opt1's parametrisation (10): ``a = e^x / (1 + e^x)``, ``b = 1 / (1 + e^x)``."""
    return ctx.exp(x) / (1 + ctx.exp(x)), 1 / (1 + ctx.exp(x))


def opt1_objective(sizes: Sequence[int], x: Sequence, exp=ctx.exp):
    """opt1's objective (11): ``sum_t m_t e^{x_t} / (e^{x_t} - 1)^2``."""
    return sum(m * exp(x_t) / (exp(x_t) - 1) ** 2 for m, x_t in zip(sizes, x))


def opt2_objective(sizes: Sequence[int], b: Sequence):
    """opt2's objective (12): ``sum_t m_t b_t (1 - b_t) / (1/2 - b_t)^2`` (``a_t = 1/2``)."""
    return sum(m * b_t * (1 - b_t) / (0.5 - b_t) ** 2 for m, b_t in zip(sizes, b))  # 0.5 is exact in every type



# --- The registered mechanism: IDUE solved by one of the models ------------------------------------------------

MODELS = ("opt0", "opt1", "opt2")
"""The optimisation models of Sec. V-D: (9), (10)-(11) and (12)."""

BOXES = {"authors": ((0.5, 1.0), (0.0, 0.5)), "none": None}
"""opt0's feasible box, by name. The prose of (9) states only ``a_t > b_t``; the authors' code (``min_opt0.m``) adds
``1/2 <= a <= 1, 0 <= b <= 1/2``. ``"none"`` keeps only ``0 < b < a < 1``."""

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


def levels_of(budgets: Sequence | None = None, levels: Sequence | None = None) -> PrivacyLevels:
    """The privacy levels from one budget per item, or from ``[budget, number of items]`` pairs (exactly one)."""
    if (budgets is None) == (levels is None):
        raise InvalidParameter("give exactly one of --budgets (one budget per item) and --levels "
                               "([[budget, number of items], ...])")
    if budgets is not None:
        return PrivacyLevels.from_item_budgets(budgets)
    pairs = [sequence(level, f"levels[{t}]") for t, level in enumerate(sequence(levels, "levels"))]
    for t, pair in enumerate(pairs):
        if len(pair) != 2:
            raise InvalidParameter(f"levels[{t}] must be a pair [budget, number of items], got {list(pair)!r}")
    return PrivacyLevels.from_sizes([pair[0] for pair in pairs], [pair[1] for pair in pairs])


def with_dummies(levels: PrivacyLevels, padding: int, dummy_level: int = 0) -> PrivacyLevels:
    """The extended domain of IDUE-PS (Sec. VI): the items, then ``padding`` dummies in level ``dummy_level``."""
    if not isinstance(dummy_level, int) or isinstance(dummy_level, bool) or not 0 <= dummy_level < levels.count:
        raise InvalidParameter(f"dummy_level must be a level index in [0, {levels.count - 1}], got {dummy_level!r}")
    if not isinstance(padding, int) or isinstance(padding, bool) or padding < 1:
        raise InvalidParameter(f"padding_length must be an integer >= 1, got {padding!r}")
    return PrivacyLevels(levels.budgets, tuple(size + (padding if t == dummy_level else 0)
                                               for t, size in enumerate(levels.sizes)),
                         levels.item_levels + (dummy_level,) * padding)


def solve_levels(levels: PrivacyLevels, model: str = "opt0", r: str = "min", self_pairs: str = "all",
                 box: str = "authors", starts: int = 8, seed: int = 0, extended: PrivacyLevels | None = None):
    """The kernel-verified solution of one model (``reference.gu2020.solvers``), with the options by name.

    ``extended`` (IDUE-PS) is the domain with the dummies: its pairs are constrained, (17), while the objective counts
    the original items only.
    """
    from ldpspec.reference.gu2020.solvers import solve  # the solvers build on this module

    choice(box, BOXES, "box")
    options = {"self_pairs": self_pairs, "extended": extended}
    if model == "opt0":
        options.update(box=BOXES[box], random_starts=starts, seed=seed)
    return solve(levels, model, r, **options)


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
    return ([exact(per_level[t][0], f"solution.a (level {t})") for t in range(levels.count)],
            [exact(per_level[t][1], f"solution.b (level {t})") for t in range(levels.count)])


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


def benchmark_levels(d: int) -> PrivacyLevels:
    """Three levels ``{1, 1.2, 2}`` holding 5%, 5% and 90% of ``d`` items (Fig. 3's levels at eps = 1)."""
    sizes = [max(1, round(0.05 * d)), max(1, round(0.05 * d))]
    return PrivacyLevels.from_sizes([1, "1.2", 2], sizes + [d - sum(sizes)])


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

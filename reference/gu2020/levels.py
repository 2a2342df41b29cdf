"""IDUE's privacy levels and the problem its solvers solve (Gu et al. Sec. V).

Items are grouped into privacy levels (Sec. V-D): level ``t`` has budget
``eps_t`` and ``m_t`` items, and all its items share the perturbation
probabilities ``(a_t, b_t)``. IDUE is unary encoding with those
per-bit probabilities (``ldpspec.reference.shared.unary``): bit ``k`` is 1 with probability
``a_k`` if ``k`` is the user's item, ``b_k`` otherwise (``idue``).

Privacy (eq. (6)): for items ``i != j``, the worst ratio over all outputs is
``a_i (1 - b_j) / (b_i (1 - a_j))``, so MinID-LDP holds iff

    a_s (1 - b_t) <= e^{min(eps_s, eps_t)} b_s (1 - a_t)

for every ordered pair of levels ``(s, t)`` that has a pair of distinct items
(``s = t`` only when ``m_t >= 2``; the paper leaves open whether a level of one
item is constrained with itself, see the reading "self_pairs" on the page of Gu et al.).
AvgID-LDP replaces ``min`` by the average.

Here are the levels, the pairs (6) constrains, the objectives of the three optimisation models and the kernel's
verdict on a solution (``verify_idue``); the solvers (``ldpspec.reference.gu2020.solvers``) build on this module, and
the registered mechanism ``idue`` (``ldpspec.reference.gu2020.idue``) on both.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cmp_to_key

from ldpspec.reference.mechanism import Guarantee
from ldpspec.reference.shared.estimators import variance_terms
from ldpspec.reference.shared.ps import padding_length
from ldpspec.reference.shared.unary import UnaryEncoding, general_unary_probabilities
from ldpspec.reference.validation import choice, positive_integer
from ldpspec.spec import (
    PAIR_FUNCTIONS,
    InvalidParameter,
    Verdict,
    budget,
    ctx,
    exact_number,
    id_ldp,
    integer,
    sequence,
    value_text,
)

MAX_ITEMS = 1_000_000
"""The most items the privacy levels hold (each item gets its own pair of parameters)."""

MAX_LEVELS = 16
"""The most privacy levels: the solvers' problems have 2T variables and T^2 constraints (opt0 over 16 levels takes
about a minute with its default starts, over 32 levels several minutes)."""

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
            positive_integer(size, f"sizes[{t}] (items in level {t})")
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
        raise InvalidParameter(f"notion (--notion) must be \"min\" (MinID-LDP) or \"avg\" (AvgID-LDP), got "
                               f"{value_text(r)}")
    return PAIR_FUNCTIONS[r](levels.budgets[s], levels.budgets[t])


def idue(levels: PrivacyLevels, a: Sequence, b: Sequence, r: str = "min") -> UnaryEncoding:
    """The IDUE mechanism with per-level ``(a_t, b_t)``, as unary encoding over all items.

    It claims MinID-LDP (``r="min"``) or AvgID-LDP (``r="avg"``) with each item's level budget; whether the
    parameters achieve it is for the kernel to say (``verify_idue``).
    """
    if len(a) != levels.count or len(b) != levels.count:
        raise InvalidParameter(f"give one a and one b per level ({levels.count}), got {len(a)} and {len(b)}")
    if r not in NOTIONS_BY_PAIR_FUNCTION:
        raise InvalidParameter(f"notion (--notion) must be \"min\" (MinID-LDP) or \"avg\" (AvgID-LDP), got "
                               f"{value_text(r)}")
    bits = [general_unary_probabilities(exact_number(a[t], f"a[{t}]"), exact_number(b[t], f"b[{t}]"))
            for t in range(levels.count)]
    guarantee = Guarantee(NOTIONS_BY_PAIR_FUNCTION[r], {"budgets": dict(enumerate(levels.item_budgets()))})
    return UnaryEncoding([bits[t] for t in levels.item_levels], guarantee)


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


def opt1_objective(sizes: Sequence[int], x: Sequence, exp=ctx.exp):
    """opt1's objective (11): ``sum_t m_t e^{x_t} / (e^{x_t} - 1)^2``."""
    return sum(m * exp(x_t) / (exp(x_t) - 1) ** 2 for m, x_t in zip(sizes, x))


def opt2_objective(sizes: Sequence[int], b: Sequence):
    """opt2's objective (12): ``sum_t m_t b_t (1 - b_t) / (1/2 - b_t)^2`` (``a_t = 1/2``)."""
    return sum(m * b_t * (1 - b_t) / (0.5 - b_t) ** 2 for m, b_t in zip(sizes, b))  # 0.5 is exact in every type


MODELS = ("opt0", "opt1", "opt2")
"""The optimisation models of Sec. V-D: (9), (10)-(11) and (12)."""

BOXES = {"authors": ((0.5, 1.0), (0.0, 0.5)), "none": None}
"""opt0's feasible box, by name. The prose of (9) states only ``a_t > b_t``; the authors' code (``min_opt0.m``) adds
``1/2 <= a <= 1, 0 <= b <= 1/2``. ``"none"`` keeps only ``0 < b < a < 1``."""


def levels_of(budgets: Sequence | None = None, levels: Sequence | None = None) -> PrivacyLevels:
    """The privacy levels from one budget per item, or from ``[budget, number of items]`` pairs (exactly one)."""
    if (budgets is None) == (levels is None):
        raise InvalidParameter("give exactly one of --budgets (one budget per item) and --levels "
                               "([[budget, number of items], ...])")
    option = "--budgets" if budgets is not None else "--levels"
    try:  # the messages of PrivacyLevels name its own arguments; the user typed the option
        if budgets is not None:
            return PrivacyLevels.from_item_budgets(budgets)
        pairs = [sequence(level, f"levels[{t}]") for t, level in enumerate(sequence(levels, "levels"))]
        if not pairs:
            raise InvalidParameter("levels must give at least one level [budget, number of items]; got []")
        for t, pair in enumerate(pairs):
            if len(pair) != 2:
                raise InvalidParameter(f"levels[{t}] must be a pair [budget, number of items], got "
                                       f"{value_text(list(pair))}")
        return PrivacyLevels.from_sizes([pair[0] for pair in pairs], [pair[1] for pair in pairs])
    except InvalidParameter as error:
        raise InvalidParameter(f"{option}: {error}") from None


def with_dummies(levels: PrivacyLevels, padding: int, dummy_level: int = 0) -> PrivacyLevels:
    """The extended domain of IDUE-PS (Sec. VI): the items, then ``padding`` dummies in level ``dummy_level``."""
    integer(dummy_level, "dummy_level", 0, levels.count - 1)  # a level index
    padding = padding_length(padding)
    return PrivacyLevels(levels.budgets, tuple(size + (padding if t == dummy_level else 0)
                                               for t, size in enumerate(levels.sizes)),
                         levels.item_levels + (dummy_level,) * padding)


def benchmark_levels(d: int) -> PrivacyLevels:
    """Three levels ``{1, 1.2, 2}`` holding 5%, 5% and 90% of ``d`` items (Fig. 3's levels at eps = 1)."""
    sizes = [max(1, round(0.05 * d)), max(1, round(0.05 * d))]
    return PrivacyLevels.from_sizes([1, "1.2", 2], sizes + [d - sum(sizes)])

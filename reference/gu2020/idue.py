"""IDUE: input-discriminative unary encoding (Gu et al. Sec. V); formula sheet ``gu2020-idldp.md`` §4-§5.

Items are grouped into privacy levels (Sec. V-D): level ``t`` has budget
``eps_t`` and ``m_t`` items, and all its items share the perturbation
probabilities ``(a_t, b_t)``. The mechanism is unary encoding with those
per-bit probabilities (``ldpspec.reference.shared.unary``): bit ``k`` is 1 with probability
``a_k`` if ``k`` is the user's item, ``b_k`` otherwise.

Privacy (eq. (6)): for items ``i != j``, the worst ratio over all outputs is
``a_i (1 - b_j) / (b_i (1 - a_j))``, so MinID-LDP holds iff

    a_s (1 - b_t) <= e^{min(eps_s, eps_t)} b_s (1 - a_t)

for every ordered pair of levels ``(s, t)`` that has a pair of distinct items
(``s = t`` only when ``m_t >= 2``). AvgID-LDP replaces ``min`` by the average.

The objectives of the three optimisation models are here; the solvers are in
``ldpspec.reference.gu2020.solvers``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ldpspec.reference.shared.estimators import variance_terms
from ldpspec.reference.shared.unary import UnaryEncoding, general_unary_probabilities
from ldpspec.spec.errors import InvalidParameter
from ldpspec.spec.notions import PAIR_FUNCTIONS, id_ldp
from ldpspec.spec.numbers import budget, ctx, exact
from ldpspec.spec.verdict import Verdict


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
    def from_item_budgets(cls, item_budgets: Sequence) -> "PrivacyLevels":
        values = [budget(value, f"budgets[{i}]") for i, value in enumerate(item_budgets)]
        if len(values) < 2:
            raise InvalidParameter(f"budgets must give one budget per item for at least 2 items, got {len(values)}")
        distinct = sorted(set(values))
        level_of = {value: t for t, value in enumerate(distinct)}
        item_levels = tuple(level_of[value] for value in values)
        sizes = tuple(item_levels.count(t) for t in range(len(distinct)))
        return cls(tuple(distinct), sizes, item_levels)

    @classmethod
    def from_sizes(cls, level_budgets: Sequence, sizes: Sequence[int]) -> "PrivacyLevels":
        budgets = [budget(value, f"level budgets[{t}]") for t, value in enumerate(level_budgets)]
        if len(budgets) != len(sizes) or not budgets:
            raise InvalidParameter(f"give one size per level: {len(budgets)} budgets, {len(sizes)} sizes")
        if len(set(budgets)) != len(budgets):
            raise InvalidParameter("level budgets must be distinct (equal budgets form one level)")
        for t, size in enumerate(sizes):
            if not isinstance(size, int) or isinstance(size, bool) or size < 1:
                raise InvalidParameter(f"sizes[{t}] (items in level {t}) must be an integer >= 1, got {size!r}")
        if sum(sizes) < 2:
            raise InvalidParameter("the levels must hold at least 2 items in all")
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


def level_pairs(levels: PrivacyLevels, *, self_pairs: str = "all") -> list[tuple[int, int]]:
    """The ordered level pairs ``(s, t)`` constrained by eq. (6).

    ``self_pairs="all"`` includes ``s = t`` for every level, as the authors'
    code does; ``"multi-item"`` includes ``s = t`` only for levels with at least
    two items, as eq. (6) over pairs ``i != j`` says (ambiguity A1).
    """
    if self_pairs not in ("all", "multi-item"):
        raise InvalidParameter(f"self_pairs must be 'all' or 'multi-item', got {self_pairs!r}")
    return [(s, t) for s in range(levels.count) for t in range(levels.count)
            if s != t or self_pairs == "all" or levels.sizes[t] >= 2]


def pair_budget(levels: PrivacyLevels, s: int, t: int, r: str):
    """``r(eps_s, eps_t)`` for ``r`` in ``min`` (MinID-LDP) or ``avg`` (AvgID-LDP)."""
    if r not in ("min", "avg"):
        raise InvalidParameter(f"notion must be 'min' (MinID-LDP) or 'avg' (AvgID-LDP), got {r!r}")
    return PAIR_FUNCTIONS[r](levels.budgets[s], levels.budgets[t])


def idue(levels: PrivacyLevels, a: Sequence, b: Sequence) -> UnaryEncoding:
    """The IDUE mechanism with per-level ``(a_t, b_t)``, as unary encoding over all items."""
    if len(a) != levels.count or len(b) != levels.count:
        raise InvalidParameter(f"give one a and one b per level ({levels.count}), got {len(a)} and {len(b)}")
    bits = [general_unary_probabilities(exact(a[t], f"a[{t}]"), exact(b[t], f"b[{t}]")) for t in range(levels.count)]
    return UnaryEncoding([bits[t] for t in levels.item_levels])


def representative_levels(levels: PrivacyLevels) -> PrivacyLevels:
    """The same levels with at most two items each.

    IDUE's loss for a pair of items depends only on their levels (every other
    bit has the same distribution under both inputs), so this small channel has
    exactly the pairwise losses of the full one.
    """
    return PrivacyLevels.from_sizes(levels.budgets, [min(size, 2) for size in levels.sizes])


def verify_idue(levels: PrivacyLevels, a: Sequence, b: Sequence, r: str = "min") -> Verdict:
    """The kernel's verdict on IDUE with these parameters: MinID-LDP (``r="min"``) or AvgID-LDP (``"avg"``)."""
    small = representative_levels(levels)
    channel = idue(small, a, b).channel()
    return id_ldp(channel, dict(zip(channel.inputs, small.item_budgets())), r)


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


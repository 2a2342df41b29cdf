"""Gu et al. (ICDE 2020): the builders of what the paper's choices (``readings``) shape, besides the solvers and the
budget assignment (``experiments``: ``solve_opt0``, ``solve_convex``, ``assign_budgets``, ``fig3``, ``share_sweep``),
the real data sets' mechanisms (``real_data``) and the comparisons of the figures (``figures``).

Each builder takes its choices' values as keyword arguments named after them; a check leaves them to its reading
(``reading_value``) unless its claim varies or fixes the choice (``verify/claims.py``, "Builders"). The comparisons a
loose word names are builders too: every check that makes the comparison calls the builder.
"""

from __future__ import annotations

from fractions import Fraction

from ldpspec.reference.gu2020.idue_ps import IduePs, idue_ps, oue_ps
from ldpspec.reference.gu2020.levels import PrivacyLevels, level_pairs, with_dummies
from ldpspec.verify.claims import builds
from ldpspec.verify.gu2020.readings import (
    ALMOST_SAME,
    BOX,
    CLOSED_FORM,
    DUMMY_BUDGET,
    LARGE_SHARE,
    LESS,
    NEAR_OPTIMAL,
    RELEASE,
    SELF_PAIRS,
    SIMILAR,
    SKEW,
    SMALL_PORTION,
    SPECIAL_CASE,
    TOP_K,
    TOY_LAYOUT,
    UTILITY,
)

# --- the level pairs (6) constrains, opt0's region -------------------------------------------------------------


@builds(SELF_PAIRS, constructs=("level_pairs",))
def constrained_pairs(levels: PrivacyLevels, *, self_pairs: str) -> list[tuple[int, int]]:
    """The ordered level pairs \\((s, t)\\) that eq. (6) (Sec. V-B, V-D) and (17) (Sec. VI-B) constrain: with
    ``self_pairs=all`` every level with itself (the authors' code), with ``multi-item`` a level with itself only when
    it holds two or more items (the printed \\(i \\ne j\\))."""
    return level_pairs(levels, self_pairs=self_pairs)


def readings_agree(sizes) -> bool:
    """Whether the two readings of ``self_pairs`` constrain the same level pairs on levels of these sizes: exactly
    when every level holds two or more items (``level_pairs``). Where they agree, a problem and its solution serve
    both readings."""
    return all(size >= 2 for size in sizes)


@builds(BOX, constructs=())
def opt0_region(a, b, *, box: str) -> list:
    """The inequalities of opt0's feasible region (Sec. V-D, problem (9)) for one level's \\((a, b)\\), as z3 terms or
    booleans of exact numbers: the authors' box \\(1/2 \\le a \\le 1\\), \\(0 \\le b \\le 1/2\\) (``min_opt0.m``), or
    the prose's \\(0 < b < a < 1\\). No lower-level constructor: the region is these inequalities, built here only (the
    solver's box is ``experiments.solve_opt0``'s)."""
    if box == "authors":
        return [2 * a >= 1, a <= 1, b >= 0, 2 * b <= 1]
    return [b > 0, b < a, a < 1]


# --- IDUE-PS: the dummies' level and the released bits (Sec. VI) ---------------------------------------------------


def dummy_levels_under(levels: PrivacyLevels, dummy_budget: str) -> list[int]:
    """The levels the dummies may join under the value ``dummy_budget`` (for the builders below, which read it): the
    smallest budget's (``min``) or each level (``any``)."""
    return [0] if dummy_budget == "min" else list(range(levels.count))


@builds(DUMMY_BUDGET, constructs=("with_dummies",))
def extended_domains(levels: PrivacyLevels, padding: int, *, dummy_budget: str) -> list[tuple[int, PrivacyLevels]]:
    """IDUE-PS's extended domains (Sec. VI-B, (17)): ``[(dummy level, the items and the dummies)]`` for every level the
    dummies may join under ``dummy_budget``: the smallest budget's (``min``, \\(\\varepsilon_d = \\min \\mathcal E\\)),
    or each level in turn (``any`` of the items' budgets)."""
    return [(level, with_dummies(levels, padding, level)) for level in dummy_levels_under(levels, dummy_budget)]


@builds(DUMMY_BUDGET, constructs=())
def dummy_level_budgets(budgets: dict, dummy_level, *, dummy_budget: str) -> dict:
    """The level budgets of an IDUE-PS instance whose dummies hold level ``dummy_level`` (Sec. VI-B, after Theorem 4):
    under ``min`` every other level is raised to at least the dummies' budget, so that \\(\\varepsilon_d = \\min
    \\mathcal E\\); under ``any`` they are left as they are. No lower-level constructor: the budgets are a mapping built
    here (the search draws the dummies' level)."""
    if dummy_budget == "min":
        return {t: max(value, budgets[dummy_level]) for t, value in budgets.items()}
    return dict(budgets)


@builds(RELEASE, constructs=("IduePs",))
def released(encoding, m: int, padding: int, *, release: str) -> IduePs:
    """IDUE-PS (Sec. VI, Algorithm 2) over ``encoding``'s \\(m + l\\) bits, releasing all of them (``release=all``) or
    the \\(m\\) real ones (``real``)."""
    return IduePs(encoding, m, padding, release)


@builds(RELEASE, constructs=("oue_ps",))
def released_oue_ps(epsilon, m: int, padding: int, *, release: str) -> IduePs:
    """OUE-PS (Sec. VI's baseline) at ``epsilon``, releasing the bits the choice ``release`` says."""
    return oue_ps(epsilon, m, padding, release)


@builds(DUMMY_BUDGET, RELEASE, constructs=("idue_ps",))
def released_idue_ps(levels: PrivacyLevels, a, b, padding: int, r: str = "min", *, dummy_budget: str,
                     release: str) -> list[tuple[int, IduePs]]:
    """IDUE-PS with per-level ``(a, b)`` (Sec. VI-B): ``[(dummy level, mechanism)]`` for every level the dummies may
    join under ``dummy_budget``, each releasing the bits ``release`` says."""
    return [(level, idue_ps(levels, a, b, padding, release=release, dummy_level=level, r=r))
            for level in dummy_levels_under(levels, dummy_budget)]


# --- the comparisons the loose words name ------------------------------------------------------------------------


@builds(LESS, constructs=())
def less_than(value, other, *, less: str) -> bool:
    """Sec. V-D after (9): "less worst-case MSE", strictly (``strict``) or no more (``no-more-than``). No lower-level
    constructor: the comparison is this one."""
    return value < other if less == "strict" else value <= other


@builds(UTILITY, constructs=())
def utility_cost(name: str, d, s, *, utility: str):
    """Sec. III-C: the cost whose smaller value is "higher utility", for RAPPOR (``SUE``), OUE or GRR at
    \\(e^{\\varepsilon} = s^2\\) over \\(d\\) items: the per-item approximate variance \\(q(1-q)/(p-q)^2\\)
    (``approximate-variance``), or the exact total MSE over \\(n\\) of single-item data (``exact-mse``), count term
    included. No lower-level constructor: the cost is this expression (z3 terms or exact numbers)."""
    E = s * s
    if utility == "approximate-variance":
        return {"OUE": 4 * E / (E - 1) ** 2, "SUE": s / (s - 1) ** 2, "GRR": (E + d - 2) / (E - 1) ** 2}[name]
    return {"OUE": d * 4 * E / (E - 1) ** 2 + 1, "SUE": d * s / (s - 1) ** 2,
            "GRR": d * (E + d - 2) / (E - 1) ** 2 + (d - 2) / (E - 1)}[name]


@builds(SKEW, constructs=())
def skew_series(*, skew: str) -> list:
    """Sec. I, contribution (4): the budget distributions from less to more skewed. ``shares``: the share of items at
    the smaller budget falling (Fig. 6's sweep, read off ``gu2020.fig6.smaller-share-more-benefit``: the list is
    empty); ``values``: the ratio \\(k\\) of two budgets \\(\\{1, k\\}\\) growing, levels of 10 and 90 items. No
    lower-level constructor: the series is this list of levels."""
    if skew == "shares":
        return []
    return [PrivacyLevels.from_sizes([1, k], [10, 90]) for k in (1.2, 1.5, 2.0, 3.0, 5.0, 10.0)]


TOY_FLIPS = {"hiv-flips-more": ("0.41", "0.33"), "hiv-flips-less": ("0.33", "0.41")}
"""IDUE's printed 1 - a_1 (HIV) and 1 - a_i (the others) under each reading of the garbled cells."""


@builds(TOY_LAYOUT, constructs=())
def toy_flips(*, toy_layout: str) -> tuple[str, str]:
    """Sec. V-E, Table II: the printed \\(1 - a_1\\) (HIV) and \\(1 - a_i\\) (the others) of IDUE, under the reading of
    the garbled cells ``toy_layout``. No lower-level constructor: the cells are these two texts."""
    return TOY_FLIPS[toy_layout]


@builds(SMALL_PORTION, constructs=())
def small_portion_of(share, *, small_portion: str):
    """Sec. V-A: whether a share of the MSE is "a small portion": below one half (``minority``) or at most 10%
    (``negligible``); a z3 term or a boolean. No lower-level constructor: the comparison is this one."""
    return 2 * share < 1 if small_portion == "minority" else 10 * share <= 1


@builds(NEAR_OPTIMAL, constructs=())
def near_optimal_limit(*, near_optimal: str) -> Fraction:
    """Sec. V-D and Sec. VII-A: the largest ratio of opt1's or opt2's worst-case MSE to opt0's that is still
    "near-optimal": 11/10 (``within-10%``) or 2 (``within-factor-2``). No lower-level constructor: the threshold is
    this number."""
    return Fraction(11, 10) if near_optimal == "within-10%" else Fraction(2)


@builds(SIMILAR, constructs=())
def similar_factor(*, similar: str) -> int:
    """Sec. VII-A, Fig. 3: "relatively similar utility" as two MSEs within a factor: 2 (``within-factor-2``) or 10
    (``same-order``). No lower-level constructor: the comparison is ``ratio <= factor``."""
    return 2 if similar == "within-factor-2" else 10


@builds(LARGE_SHARE, constructs=())
def large_shares(shares, *, large_share: str) -> list:
    """Sec. VII-A, Fig. 6: the shares of more sensitive items that count as "large": from 50% or from 70% up. No
    lower-level constructor: the selection is this one."""
    threshold = Fraction(int(large_share.rstrip("%")), 100)
    return [share for share in shares if Fraction(str(share)) >= threshold]  # the grid's shares as written


@builds(ALMOST_SAME, constructs=())
def almost_same_as(ratio: float, *, almost_same: str) -> bool:
    """Sec. VII-A, Fig. 6: "almost the same": a ratio of IDUE's value to OUE's within 1% or 5% of one. No
    lower-level constructor: the comparison is this one."""
    return abs(ratio - 1) <= int(almost_same.rstrip("%")) / 100


@builds(SPECIAL_CASE, constructs=())
def special_case_holds(uldp_holds: bool, minid_holds: bool, *, special_case: str) -> bool:
    """Sec. IV-B: whether one channel agrees with "ULDP is a special case of MinID-LDP" on a graph: ULDP implies
    MinID-LDP (``contained``), or the two coincide (``equal``). No lower-level constructor: the relation is this
    one."""
    return (not uldp_holds or minid_holds) if special_case == "contained" else uldp_holds == minid_holds


@builds(CLOSED_FORM, constructs=())
def counts_as_closed_form(finite_expression: bool, *, closed_form: str) -> bool | None:
    """Sec. V-A: whether an element given by a finite expression in the matrix's entries (Cramer's rule) counts as a
    closed form: yes under ``finite-expression``; under ``simple-formula`` nothing measures a formula's simplicity
    (``None``: undecided). No lower-level constructor: the criterion is this one."""
    return finite_expression if closed_form == "finite-expression" else None


@builds(TOP_K, constructs=())
def top_k_of(table, *, top_k: str):
    """Sec. VII, Figs. 4, 8, 9: the RE over the top \\(k\\) items, \\(k\\) the choice ``top_k``, from a table
    ``{k: value}`` over every \\(k\\) of ``real_data.K_GRID`` (which holds each value of the choice; the claims that
    compare at every \\(k\\) of the grid do not depend on it). No lower-level constructor: the tables are computed
    over the whole grid, and this selects one."""
    return table[int(top_k)]

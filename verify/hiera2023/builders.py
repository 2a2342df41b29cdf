"""The builders of what Hao et al. 2023's choices shape (``builds`` in verify/claims.py): the graded-LDP predicate
(``pair_function``), LHP (``level_budget``), HierA's collector and its merge (``compensation``, ``size``,
``clipping``), the spread the word 'variance' names (``variance_meaning``) and the SGD model (``component_budget``
with HierA's readings). The data set Fig. 1 is drawn on (``data``) is built in ``experiments``, beside the data sets.

Every check builds these objects through these functions only, so the choices it depends on are read from the
running reading (and recorded, so the audit's sweep sees them). The cached builders return the same object for the
same arguments and values, so a cached computation further down may key on the object itself; inside a cached
function a builder is never left to read the reading (a cache hit would not record the choices read): it is given
the values of the objects the function was called with.
"""

from __future__ import annotations

from functools import cache

from ldpspec.reference.hiera2023.hiera import HierA, merge_plan
from ldpspec.reference.hiera2023.lhp import LHP
from ldpspec.reference.hiera2023.sgd import PrivateLinearRegression
from ldpspec.spec import graded_ldp, id_ldp
from ldpspec.verify.claims import builds
from ldpspec.verify.hiera2023.readings import (
    CLIPPING,
    COMPENSATION,
    COMPONENT_BUDGET,
    LEVEL_BUDGET,
    PAIR_FUNCTION,
    SIZE,
    USER_LEVEL,
    VARIANCE_MEANING,
)
from ldpspec.verify.kernel_checks import input_budgets_text, kernel_check, numbers_text

# --- Definition 2: the pair function r of graded LDP ----------------------------------------------------------------


@builds(PAIR_FUNCTION, constructs=("graded_ldp",))
def graded_privacy(mechanism, boundaries, budgets, *, pair_function: str):
    r"""The kernel's verdict of graded LDP (Definition 2, Sec. 3.1) for ``mechanism`` (a channel or an affine family)
    on the intervals ``boundaries`` with the level ``budgets``: every ratio \(P[y|x] / P[y|x']\) within
    \(e^{r(\varepsilon_x, \varepsilon_{x'})}\), ``r`` the reading's pair function."""
    return graded_ldp(mechanism, boundaries, budgets, pair_function)


@builds(PAIR_FUNCTION)
def level_privacy(channel, budgets, *, pair_function: str):
    r"""Graded LDP (Definition 2, Sec. 3.1) of a channel whose inputs carry their budgets explicitly, ``budgets``
    by input: the processing of the level, or of the value given each input's perturbed level, in Theorem 2's proof
    (Sec. 4.3). The kernel's ``id_ldp`` with the reading's pair function.

    ``constructs`` is empty: ``spec.id_ldp`` is Gu et al.'s ID-LDP predicate, which the other papers' checks call
    with their own pair function; declaring it would flag them."""
    return id_ldp(channel, budgets, pair_function)


@builds(PAIR_FUNCTION)
def graded_privacy_check(channel, boundaries, budgets, subject: str, *, expected: str, pair_function: str) -> dict:
    """The kernel check (verify/kernel_checks.py) of ``graded_privacy`` under the reading's pair function:
    ``ldpspec check --notion graded-ldp`` on ``channel`` (a channel on a grid of numbers, every interval end point
    among them: a failure on the grid is a failure on the interval). ``subject`` names the channel in the check's
    sentence; ``expected`` is the verdict the refutation rests on."""
    verdict = ("is graded LDP with the pair function r = `{}` on its inputs {}" if expected == "holds" else
               "is not graded LDP with the pair function r = `{}` on its inputs {} (so not on the interval either)")
    return kernel_check(channel, "graded-ldp", {"boundaries": numbers_text(boundaries),
                                                "budgets": numbers_text(budgets), "pair-function": pair_function},
                        what=f"{subject} {verdict.format(pair_function, ', '.join(map(str, channel.inputs)))}",
                        expected=expected)


@builds(PAIR_FUNCTION)
def level_privacy_check(channel, budgets, subject: str, *, expected: str, pair_function: str) -> dict:
    """The kernel check (verify/kernel_checks.py) of ``level_privacy`` under the reading's pair function: ``ldpspec
    check --notion id-ldp`` with each input's budget (``budgets`` by input). ``subject`` names the channel in the
    check's sentence; ``expected`` is the verdict the refutation rests on."""
    verb = "meets" if expected == "holds" else "does not meet"
    return kernel_check(channel, "id-ldp", {"budgets": input_budgets_text(channel, budgets),
                                            "pair-function": pair_function},
                        what=f"{subject} {verb} graded LDP with the pair function r = `{pair_function}` (ID-LDP with "
                             "each input's budget)", expected=expected)


# --- Algorithm 3 (LHP): the budget the value is perturbed with --------------------------------------------------------


@builds(LEVEL_BUDGET, constructs=("LHP",))
@cache
def lhp(boundaries: tuple, budgets: tuple, grid: tuple | None = None, *, level_budget: str) -> LHP:
    r"""LHP (Algorithm 3, Sec. 4.1) on the intervals ``boundaries`` with the level ``budgets`` (tuples), inputs on
    ``grid``: step 4 perturbs the value with the budget of the reported level \(t^*\) (``perturbed``, as printed) or
    of the user's true level (``true``), the reading ``level_budget``. Cached: one object per set-up and reading."""
    return LHP(boundaries, budgets, grid, level_budget=level_budget)


# --- Algorithm 5 (HierA): steps 5 to 7 --------------------------------------------------------------------------------


@builds(COMPENSATION, SIZE, CLIPPING, constructs=("HierA",))
@cache
def collector(mechanism: LHP, mu: int, *, compensation: str, size: str, clipping: str) -> HierA:
    r"""HierA's collector (Algorithm 5, Sec. 4.2) over the releases of ``mechanism`` with ``mu`` data reuses: the merge
    of step 5 as the reading ``compensation`` takes it, \(|V^*|\) of step 7 as ``size`` counts it, and the
    corrections of step 6 clipped to [0, \(N_i\)] or not (``clipping``). Cached: one object per LHP, ``mu`` and
    reading."""
    return HierA(mechanism, mu, compensation, size, clipping == "printed")


@builds(COMPENSATION, constructs=("merge_plan",))
def merge(k: int, mu: int, *, compensation: str) -> tuple:
    r"""Step 5 of Algorithm 5 (Sec. 4.2) for ``k`` levels and ``mu`` reuses: for each level \(i\), the data sets its
    \(V_i^*\) merges, ``(reported level, copies)``, as the reading ``compensation`` takes the printed branches."""
    return merge_plan(k, mu, compensation)


# --- Sec. 2: what 'the variance of the perturbed data' is -------------------------------------------------------------


@builds(VARIANCE_MEANING)
def release_spread(second_moment, mean, *, variance_meaning: str):
    r"""The quantity Sec. 2 calls 'the variance of the perturbed data', of a release \(v^*\) of an input with
    \(\mathbb E[v^* | v] =\) ``mean`` and \(\mathbb E[(v^*)^2 | v] =\) ``second_moment`` (numbers, exact values or
    z3 terms): \(\operatorname{Var}[v^* | v]\) (``conditional``) or \(\mathbb E[(v^*)^2]\) (``second-moment``).

    ``constructs`` is empty: the object the choice shapes is this arithmetic itself, which has no lower-level
    constructor to scan for; the check compares what it returns with 1."""
    return second_moment if variance_meaning == "second-moment" else second_moment - mean * mean


# --- Sec. 5: mini-batch SGD -------------------------------------------------------------------------------------------


_MODELS: dict = {}
"""The SGD models built so far, one per set-up (and reading, for HierA)."""


@builds(COMPONENT_BUDGET, COMPENSATION, SIZE, CLIPPING, LEVEL_BUDGET, constructs=("PrivateLinearRegression",))
def regression_model(boundaries: tuple, budgets: tuple, method: str, *, component_budget: str, compensation: str,
                     size: str, clipping: str, level_budget: str) -> PrivateLinearRegression:
    r"""The SGD of Sec. 5 privatising each gradient component with ``method`` over the levels ``boundaries`` and
    ``budgets``: every one of the \(d + 1\) components at its level's budget, or that budget split over them
    (``component_budget``); HierA (``method`` ``hiera``) with the readings of its steps 5-7 and of LHP's step 4
    (``level_budget``). The baselines do not use HierA or LHP, so they are built with the reference's defaults (one
    object each). The same arguments and values give the same object."""
    hiera = ({"compensation": compensation, "size": size, "clip": clipping == "printed", "level_budget": level_budget}
             if method == "hiera" else {})
    key = (boundaries, budgets, method, component_budget, tuple(hiera.values()))
    if key not in _MODELS:
        _MODELS[key] = PrivateLinearRegression(boundaries, budgets, method, component_budget=component_budget, **hiera)
    return _MODELS[key]


@builds(USER_LEVEL)
def user_level_budget(component_budgets, *, user_level: str):
    r"""The budget a user of the SGD (Sec. 5) is protected at, from ``component_budgets`` (users x \(d + 1\), each
    component's level budget, exact numbers or integers over a common denominator): the largest of them or the
    smallest, the reading ``user_level``.

    ``constructs`` is empty: the object the choice shapes is this selection itself."""
    return component_budgets.max(axis=1) if user_level == "largest" else component_budgets.min(axis=1)

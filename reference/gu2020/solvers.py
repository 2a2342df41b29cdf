"""The IDUE optimisation models opt0, opt1, opt2 (Gu et al. Sec. V-D), for MinID-LDP and AvgID-LDP.

An untrusted numerical method finds the parameters; the kernel accepts them
(an untrusted solver, a trusted checker: the principles on the site's home page). Every model works in the
log-ratios of a level,

    u_t = ln(a_t / b_t),    w_t = ln((1 - b_t) / (1 - a_t)),

in which the privacy constraint (6) is linear: ``a_s (1 - b_t) <= e^{r_st} b_s (1 - a_t)``
iff ``u_s + w_t <= r_st``. For ``0 < b < a < 1`` the map is a bijection:
``b = (e^w - 1) / (e^{u+w} - 1)`` and ``a = e^u b``.

* **opt0** (9): minimise the worst-case MSE ``sum_t m_t b_t(1-b_t)/(a_t-b_t)^2 + max_t (1-a_t-b_t)/(a_t-b_t)``
  over ``(a_t, b_t)``. Non-convex: SLSQP from several starts (OUE and RAPPOR at
  ``min E``, the opt1 and opt2 solutions, and random feasible points). The feasible
  box is configurable; the default is the authors' ``1/2 <= a <= 1, 0 <= b <= 1/2``
  (the prose states only ``a > b``); ``box=None`` keeps only ``0 < b < a < 1``.
* **opt1** (10)-(11): RAPPOR structure ``a_t + b_t = 1``, i.e. ``u_t = w_t = x_t``;
  minimise ``sum_t m_t e^{x_t} / (e^{x_t} - 1)^2`` subject to ``x_s + x_t <= r_st``.
* **opt2** (12): OUE structure ``a_t = 1/2``; minimise ``sum_t m_t b_t(1-b_t)/(1/2-b_t)^2``
  subject to ``e^{r_st} b_s + b_t >= 1``.

The constraints are solved with budgets lowered by ``SAFETY`` and the solution
is then moved inside them (uniformly, preserving the model's structure), so that
floating-point rounding cannot push it past a budget. The deployable parameters are computed from the solution's
log-ratios exactly and written as decimals of ``PARAMETER_DIGITS`` significant digits (``b_t``, and ``1 - a_t`` so
that an ``a_t`` within ``10^-20`` of 1, as at a large budget, is still written as itself). They are accepted only when
the kernel verifies MinID-LDP (or AvgID-LDP) of the mechanism at the true budgets, exactly; the verified margin is
reported. The solvers work in double precision: they take budgets in ``[MIN_BUDGET, MAX_BUDGET]``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np
from scipy.optimize import minimize

from ldpspec.reference.gu2020.levels import (
    BOXES,
    MODELS,
    PrivacyLevels,
    level_pairs,
    opt1_objective,
    opt2_objective,
    pair_budget,
    verify_idue,
    worst_case_mse,
)
from ldpspec.reference.validation import choice
from ldpspec.spec import Exact, InvalidParameter, ctx, rational_text, to_decimal_string

SAFETY = 1e-9
"""Nats by which the solvers keep every privacy constraint strict."""

MIN_BUDGET, MAX_BUDGET = Fraction(1, 10**6), Fraction(300)
"""The budgets the solvers take: the log-ratios are optimised in double precision, where ``e^300`` is far from
overflow and ``10^-6`` nats is a thousand times ``SAFETY``."""

LISTED_ITEMS = 1_000
"""The most items ``IdueSolution.to_json`` lists one by one unless asked (``ldpspec idue solve --list-items``): the
items of a level share its parameters, and a listing of a million items is 96 MB that no person reads."""

PARAMETER_DIGITS = 30
"""Significant digits of the deployable ``b_t`` and ``1 - a_t``."""

DEFAULT_BOX = BOXES["authors"]
"""The authors' feasible box for opt0: ``1/2 <= a <= 1`` and ``0 <= b <= 1/2`` (their code, ``min_opt0.m``)."""


@dataclass
class IdueSolution:
    """Parameters found by a model, with the kernel's verdict on them.

    ``a`` and ``b`` are exact decimals (kernel numbers), one per level, as deployed and verified; ``log_ratios`` are
    the solver's ``(u_t, w_t)`` (floats), ``u = ln(a/b)`` and ``w = ln((1-b)/(1-a))``.
    """

    model: str
    notion: str
    levels: PrivacyLevels
    a: list
    b: list
    log_ratios: tuple
    objective: float
    worst_case_mse: float
    active_constraints: list
    verified: bool
    margin: object
    starts: int = 1
    details: dict = field(default_factory=dict)

    def item_parameters(self) -> list[tuple]:
        """``(a_i, b_i)`` for every item, in item order."""
        return [(self.a[t], self.b[t]) for t in self.levels.item_levels]

    def to_json(self, items: bool | None = None) -> dict:
        """The solution as ``ldpspec idue solve`` prints it: one entry per level (its budget, its number of items,
        ``a`` and ``b``), and under ``items`` one entry per item when ``items`` is true, or by default when there are
        at most ``LISTED_ITEMS`` (a solution gives the items of a level the level's parameters, so a million items
        of one level are one line, not 96 MB); otherwise ``items_listed`` says where each item's parameters are."""
        texts = [{"a": a.text(), "b": b.text()} for a, b in zip(self.a, self.b)]
        listed = self.levels.items <= LISTED_ITEMS if items is None else items
        return {
            "model": self.model,
            "notion": {"min": "MinID-LDP", "avg": "AvgID-LDP"}[self.notion],
            "objective": repr(self.objective),
            "worst_case_mse_per_user": repr(self.worst_case_mse),
            "levels": [{"budget": to_decimal_string(eps, 20), "items": size, **text}
                       for eps, size, text in zip(self.levels.budgets, self.levels.sizes, texts)],
            **({"items": [texts[t] for t in self.levels.item_levels]} if listed else
               {"items_listed": f"no: {self.levels.items:,} items, more than {LISTED_ITEMS:,}; each item has the a and "
                                "b of its level, the level of its budget (for --levels, items are numbered level by "
                                "level, in the order of levels); --list-items lists them"}),
            "active_constraints": [{**constraint, "slack": repr(constraint["slack"])}
                                   for constraint in self.active_constraints],
            "verified": self.verified,
            "verified_margin": to_decimal_string(self.margin, 20),
            "starts": self.starts,
        }


def _budget_matrix(levels: PrivacyLevels, r: str, self_pairs: str) -> tuple[list, np.ndarray]:
    pairs = level_pairs(levels, self_pairs=self_pairs)
    budgets = np.array([float(pair_budget(levels, s, t, r)) - SAFETY for s, t in pairs])
    return pairs, budgets


def _ab_from_uw(u: np.ndarray, w: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    b = np.expm1(w) / np.expm1(u + w)
    return np.exp(u) * b, b


def _uw_from_ab(a, b) -> tuple[np.ndarray, np.ndarray]:
    a, b = np.asarray(a, float), np.asarray(b, float)
    return np.log(a / b), np.log1p(-b) - np.log1p(-a)


def _decimal(value: Exact) -> Exact:
    """``value`` rounded to ``PARAMETER_DIGITS`` significant digits: an exact decimal."""
    return Exact.of(ctx.nstr(value.approximation(), PARAMETER_DIGITS))


def _exact_parameters(u: np.ndarray, w: np.ndarray) -> tuple[list, list]:
    """``(a_t, b_t)`` from the log-ratios, computed exactly and written as decimals:
    ``b = (e^w - 1) / (e^{u+w} - 1)`` and ``1 - a = (e^u - 1) / (e^{u+w} - 1)``."""
    a, b = [], []
    for u_t, w_t in zip(u.tolist(), w.tolist()):
        e_u, e_w = Exact.exp(Exact.of(u_t)), Exact.exp(Exact.of(w_t))
        b.append(_decimal((e_w - 1) / (e_u * e_w - 1)))
        a.append(1 - _decimal((e_u - 1) / (e_u * e_w - 1)))
    return a, b


def _bound_of_each_level(levels, pairs, budgets) -> tuple[np.ndarray, np.ndarray]:
    """Since ``u, w >= 0`` and ``u_s + w_t <= r_st``: ``u_s <= min_t r_st`` and ``w_t <= min_s r_st``.

    A level that appears in no pair (a single-item level when self-pairs are
    dropped and there is one level) is bounded by its own budget.
    """
    rows = [[budgets[k] for k, (s, _) in enumerate(pairs) if s == t] for t in range(levels.count)]
    columns = [[budgets[k] for k, (_, s) in enumerate(pairs) if s == t] for t in range(levels.count)]
    own = [float(eps) for eps in levels.budgets]
    return (np.array([min(row, default=own[t]) for t, row in enumerate(rows)]),
            np.array([min(column, default=own[t]) for t, column in enumerate(columns)]))


def _lowest(high: float) -> float:
    """The lower bound of a log-ratio: positive (a > b), and well below the largest value allowed."""
    return min(1e-6, high / 100)


def _slack(pairs, budgets, u, w) -> np.ndarray:
    """``r_st - u_s - w_t`` for every constrained pair."""
    return np.array([budgets[k] - u[s] - w[t] for k, (s, t) in enumerate(pairs)])


def _pair_constraints(pairs, budgets, count: int, width: int, second: int) -> dict:
    """The constraints ``r_st - x[s] - x[second + t] >= 0`` of every pair, as one linear constraint for SLSQP with
    its exact Jacobian (numerical derivatives of one scalar constraint per pair dominated the solvers' time)."""
    jacobian = np.zeros((len(pairs), width))
    for k, (s, t) in enumerate(pairs):
        jacobian[k, s] -= 1
        jacobian[k, second + t] -= 1
    return {"type": "ineq", "fun": lambda x: budgets + jacobian @ x, "jac": lambda x: jacobian}


def _active(pairs, slack) -> list:
    return [{"levels": [s, t], "slack": float(value)} for (s, t), value in zip(pairs, slack) if value < 1e-6]


def _check_levels(levels, extended=None) -> tuple[PrivacyLevels, PrivacyLevels]:
    """``(levels, constrained)``: the levels whose items the objective counts, and those whose pairs are constrained.

    ``extended`` (IDUE-PS) is the domain of the items and the dummies: the same levels, each holding at least as many
    members. Its pairs are the constraints (17); the objective still counts the original items only (Sec. VI-B).
    """
    if not isinstance(levels, PrivacyLevels):
        raise InvalidParameter("levels must be a PrivacyLevels (from_item_budgets or from_sizes)")
    if min(levels.budgets) <= 0:
        raise InvalidParameter("every budget (of --budgets, or each level's of --levels) must be > 0 for IDUE: at 0 "
                               "no a != b satisfies the constraints")
    outside = [eps for eps in levels.budgets if not MIN_BUDGET <= eps <= MAX_BUDGET]
    if outside:
        raise InvalidParameter(f"the IDUE solvers take budgets in [{rational_text(MIN_BUDGET)}, {MAX_BUDGET}] (they "
                               f"optimise in double precision); got {', '.join(eps.text() for eps in outside)}")
    if extended is None:
        return levels, levels
    if extended.budgets != levels.budgets or any(e < s for e, s in zip(extended.sizes, levels.sizes)):
        raise InvalidParameter("extended must have the same levels as levels, each with at least as many members")
    return levels, extended


def check_problem(levels: PrivacyLevels, model: str, r: str = "min", self_pairs: str = "all",
                  extended: PrivacyLevels | None = None) -> None:
    """Refuse what ``solve`` refuses before it runs a solver (the model, the levels, the notion, the self-pairs
    reading), without running one."""
    choice(model, SOLVERS, "model")
    _, constrained = _check_levels(levels, extended)
    _budget_matrix(constrained, r, self_pairs)


def _finish(model, levels, constrained, r, u, w, objective, pairs, budgets, starts, details,
            parameters=None) -> IdueSolution:
    """The solution at log-ratios ``(u, w)`` (inside the constraints), with its exact parameters (``parameters``
    when the model fixes them otherwise) verified by the kernel."""
    a, b = parameters or _exact_parameters(u, w)
    verdict = verify_idue(constrained, a, b, r)
    return IdueSolution(model, r, levels, a, b, (u, w), float(objective), float(worst_case_mse(levels.sizes, a, b)),
                        _active(pairs, _slack(pairs, budgets, u, w)), verdict.holds, verdict.margin, starts, details)


def solve_opt1(levels: PrivacyLevels, r: str = "min", *, self_pairs: str = "all",
               extended: PrivacyLevels | None = None) -> IdueSolution:
    """opt1 (11): RAPPOR structure, convex in ``x``."""
    levels, constrained = _check_levels(levels, extended)
    pairs, budgets = _budget_matrix(constrained, r, self_pairs)
    x, objective, message = _opt1_point(levels, pairs, budgets)
    return _finish("opt1", levels, constrained, r, x, x, objective, pairs, budgets, 1,
                   {"x": x.tolist(), "scipy": message})


def _opt1_point(levels: PrivacyLevels, pairs, budgets) -> tuple:
    """opt1's optimum ``x`` (``u = w = x``) inside every constraint, its objective and SLSQP's message."""
    sizes = np.array(levels.sizes, float)
    start = np.full(levels.count, float(min(levels.budgets)) / 2 - SAFETY)
    constraints = [_pair_constraints(pairs, budgets, levels.count, levels.count, 0)]
    highest = np.minimum(*_bound_of_each_level(levels, pairs, budgets))
    result = minimize(lambda x: opt1_objective(sizes, x, exp=np.exp), start, method="SLSQP",
                      bounds=[(_lowest(high), high) for high in highest], constraints=constraints,
                      options={"ftol": 1e-14, "maxiter": 1000})
    x = result.x
    excess = max(0.0, -_slack(pairs, budgets, x, x).min())
    x = x - excess / 2  # back inside every constraint; u = w keeps a + b = 1
    return x, opt1_objective(sizes, x, exp=np.exp), result.message


def solve_opt2(levels: PrivacyLevels, r: str = "min", *, self_pairs: str = "all",
               extended: PrivacyLevels | None = None) -> IdueSolution:
    """opt2 (12): OUE structure ``a = 1/2``, convex in ``b``."""
    levels, constrained = _check_levels(levels, extended)
    pairs, budgets = _budget_matrix(constrained, r, self_pairs)
    b, objective, message = _opt2_point(levels, pairs, budgets)
    u, w = _uw_from_ab(np.full(levels.count, 0.5), b)
    parameters = ([Exact.rational(Fraction(1, 2))] * levels.count, [Exact.of(float(v)) for v in b])
    return _finish("opt2", levels, constrained, r, u, w, objective, pairs, budgets, 1, {"scipy": message},
                   parameters)


def _opt2_point(levels: PrivacyLevels, pairs, budgets) -> tuple:
    """opt2's optimum ``b`` (``a = 1/2``) inside every constraint, its objective and SLSQP's message."""
    sizes = np.array(levels.sizes, float)
    multiplier = np.exp(budgets)
    start = np.full(levels.count, 1 / (math.exp(float(min(levels.budgets)) - SAFETY) + 1))
    jacobian = np.zeros((len(pairs), levels.count))
    for k, (s, t) in enumerate(pairs):
        jacobian[k, s] += multiplier[k]
        jacobian[k, t] += 1
    constraints = [{"type": "ineq", "fun": lambda b: jacobian @ b - 1, "jac": lambda b: jacobian}]
    lowest = min(1e-12, 0.25 / (math.exp(float(max(levels.budgets))) + 1))  # below 1/(e^r + 1), the least b allowed
    result = minimize(lambda b: opt2_objective(sizes, b), start, method="SLSQP",
                      bounds=[(lowest, 0.5 - 1e-9)] * levels.count, constraints=constraints,
                      options={"ftol": 1e-14, "maxiter": 1000})
    b = result.x
    shortfall = max(0.0, max(1 - multiplier[k] * b[s] - b[t] for k, (s, t) in enumerate(pairs)))
    b = b + max(shortfall / (1 + multiplier.min()), 0.0)  # back inside every constraint, keeping a = 1/2
    return b, opt2_objective(sizes, b), result.message


def solve_opt0(levels: PrivacyLevels, r: str = "min", *, self_pairs: str = "all", box=DEFAULT_BOX,
               random_starts: int = 8, seed: int = 0, extended: PrivacyLevels | None = None) -> IdueSolution:
    """opt0 (9): the worst-case MSE over ``(a_t, b_t)``, from several starts; the best verified solution wins."""
    levels, constrained = _check_levels(levels, extended)
    pairs, budgets = _budget_matrix(constrained, r, self_pairs)
    T, sizes = levels.count, np.array(levels.sizes, float)

    def objective(z):  # z = (u, w, m) with m >= the max term of (9)
        a, b = _ab_from_uw(z[:T], z[T:2 * T])
        return float(np.sum(sizes * b * (1 - b) / np.maximum(a - b, 1e-300) ** 2) + z[2 * T])

    constraints = [_pair_constraints(pairs, budgets, T, 2 * T + 1, T)]

    def above_count_terms(z):  # m >= (1 - a_t - b_t) / (a_t - b_t) for every level
        a, b = _ab_from_uw(z[:T], z[T:2 * T])
        return z[2 * T] - (1 - a - b) / np.maximum(a - b, 1e-300)

    constraints.append({"type": "ineq", "fun": above_count_terms})
    if box is not None:
        (a_low, a_high), (b_low, b_high) = box

        def inside_box(z):  # a_low <= a_t <= a_high and b_low <= b_t <= b_high, as one vector constraint
            a, b = _ab_from_uw(z[:T], z[T:2 * T])
            return np.concatenate([a - a_low, a_high - a, b - b_low, b_high - b])

        constraints.append({"type": "ineq", "fun": inside_box})
    row_min, col_min = _bound_of_each_level(levels, pairs, budgets)
    bounds = [(_lowest(high), high) for high in row_min] + [(_lowest(high), high) for high in col_min] + [(None, None)]

    rng = np.random.default_rng(seed)
    smallest = float(min(levels.budgets)) - SAFETY
    starts = [_uw_from_ab(np.full(T, 0.5), np.full(T, 1 / (math.exp(smallest) + 1))),            # OUE at min E
              (np.full(T, smallest / 2), np.full(T, smallest / 2))]                                  # RAPPOR at min E
    x = _opt1_point(levels, pairs, budgets)[0]  # the structured optima start the search (no kernel check needed:
    starts.append((x, x))                           # only the best point is deployed, and it is verified)
    starts.append(_uw_from_ab(np.full(T, 0.5), _opt2_point(levels, pairs, budgets)[0]))
    for _ in range(random_starts):  # u_s + w_t <= (row_min_s + col_min_t) / 2 <= r_st
        starts.append((rng.uniform(0.05, 1, T) * row_min / 2, rng.uniform(0.05, 1, T) * col_min / 2))

    def candidate(u, w):  # moved back inside the constraints; None if outside the box
        excess = max(0.0, -_slack(pairs, budgets, u, w).min())
        u, w = np.maximum(u - excess / 2, 1e-12), np.maximum(w - excess / 2, 1e-12)
        a, b = _ab_from_uw(u, w)
        if box is not None and not (np.all(a >= box[0][0] - 1e-9) and np.all(a <= box[0][1] + 1e-9)
                                    and np.all(b >= box[1][0] - 1e-9) and np.all(b <= box[1][1] + 1e-9)):
            return None
        return worst_case_mse(levels.sizes, a, b), u, w

    best = None
    for u0, w0 in starts:
        a0, b0 = _ab_from_uw(u0, w0)
        z0 = np.concatenate([u0, w0, [np.max((1 - a0 - b0) / (a0 - b0))]])
        result = minimize(objective, z0, method="SLSQP", bounds=bounds, constraints=constraints,
                          options={"ftol": 1e-14, "maxiter": 500})
        # SLSQP can stop worse than it started, so the start competes too.
        for found in (candidate(u0, w0), candidate(result.x[:T], result.x[T:2 * T])):
            if found is not None and (best is None or found[0] < best[0]):
                best = found
    if best is None:
        raise InvalidParameter("opt0 found no feasible point inside the box; try box=None")
    value, u, w = best
    return _finish("opt0", levels, constrained, r, u, w, value, pairs, budgets, len(starts), {})


SOLVERS = dict(zip(MODELS, (solve_opt0, solve_opt1, solve_opt2)))


def solve(levels: PrivacyLevels, model: str = "opt0", r: str = "min", **options) -> IdueSolution:
    """Solve one model and return the verified solution; raise if the kernel rejects it."""
    choice(model, SOLVERS, "model")
    solution = SOLVERS[model](levels, r, **options)
    if not solution.verified:
        raise InvalidParameter(f"{model}: the kernel rejected the solver's parameters (margin "
                               f"{to_decimal_string(solution.margin, 10)}); this is a solver failure, please report it")
    return solution

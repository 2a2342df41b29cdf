"""Gu et al. (ICDE 2020): the certificates on the solvers' optima, which the claims of Sec. V-D (``idue``) and of
Fig. 3 (``figures``) share: on Fig. 3's levels opt2 does no better than OUE at large budgets (z3), opt2's and opt1's
optima lie more than 10% (opt2) or twice (opt1, box ``none``) above a kernel-verified opt0 point, and the verdict on
"opt1 and opt2 are near-optimal" under each reading of ``near_optimal``."""

from __future__ import annotations

from fractions import Fraction

import mpmath
import z3

from ldpspec.reference.gu2020.levels import PrivacyLevels, worst_case_mse
from ldpspec.verify.claims import Evidence, Outcome, Step, decide
from ldpspec.verify.gu2020.builders import near_optimal_limit
from ldpspec.verify.gu2020.experiments import LEVEL_SHARES, solve_read
from ldpspec.verify.symbolic import Condition, proof_step, prove


def opt2_equals_oue_certificate() -> list:
    """z3: on Fig. 3's levels (5%, 5%, 90% of the items) with e^eps >= 20, no opt2 point beats OUE.

    Two lemmas. (1) opt2's per-item objective h(b) = b(1-b)/(1/2-b)^2 is increasing on (0, 1/2). (2) With only the
    constraints that involve the smallest level (a relaxation, sound for a lower bound), 5 h(b_0) + 95 h(y) >= 100 h(q),
    q = 1/(e^eps + 1), for every feasible b_0 and every y that the other levels may take. By (1),
    5 h(b_1) + 90 h(b_2) >= 95 h(min(b_1, b_2)), and min(b_1, b_2) satisfies the same constraints, so (2) applies.
    """
    half = z3.RealVal(1) / 2
    h = lambda b: b * (1 - b) / (half - b) ** 2  # noqa: E731  opt2's per-item objective
    u, v, b0, y, E = z3.Reals("u v b0 y E")
    smallest = int(round(100 * LEVEL_SHARES[0]))  # 5 of every 100 items (the same ratio for m = 1000)
    monotone = prove([Condition((), None, h(u) <= h(v))], assumptions=[u > 0, u <= v, v < half],
                     description=r"\(h\) increasing")
    bound = prove([Condition((), None, smallest * h(b0) + (100 - smallest) * h(y) >= 100 * h(1 / (E + 1)))],
                  assumptions=[E >= 20, b0 > 0, b0 < half, y > 0, y < half, E * b0 + b0 >= 1, E * b0 + y >= 1,
                               E * y + b0 >= 1],
                  description="opt2 against OUE")
    return [proof_step("(1) opt2's per-item objective is increasing on (0, 1/2)", monotone),
            proof_step(r"(2) levels with 5% / 95% of the items, every \(\varepsilon\) with \(e^{\varepsilon} \ge 20\): "
                       r"objective \(\ge\) OUE's", bound)]


def opt2_gap_certificate(box: str, limit: Fraction = Fraction(11, 10)) -> list:
    """Steps showing opt2's optimum more than 10% above opt0's at eps = 3 on Fig. 3's levels (5, 5, 90 items): opt2's
    optimum is at least OUE's (z3, ``opt2_equals_oue_certificate``), and opt0 has a kernel-verified point whose exact
    worst-case MSE is below OUE's by more than that; the last step carries the counterexample."""
    steps = opt2_equals_oue_certificate()
    levels = PrivacyLevels.from_sizes([3.0, 3.6, 6.0], [5, 5, 90])
    point = solve_read(levels, "opt0", box=box)
    opt0 = Fraction(str(worst_case_mse(levels.sizes, point.a, point.b)))
    # OUE's worst-case MSE / n, 100 * 4E/(E-1)^2 + 1, decreases in E = e^3 < 20.0856
    upper_e = Fraction(200856, 10000)
    oue_low = 100 * 4 * upper_e / (upper_e - 1) ** 2 + 1
    certified = point.verified and all(not step.inconclusive and step.counterexample is None for step in steps)
    gap = oue_low / opt0
    steps.append(Step(Evidence("exact kernel", r"\(\varepsilon = 3\), levels \(\{3, 3.6, 6\}\) with 5, 5, 90 items, "
                                               f"opt0 (box `{box}`)",
                               f"opt0's kernel-verified point: worst-case MSE / n {float(opt0):.6f}; OUE's at least "
                               f"{float(oue_low):.6f}; opt2's optimum / opt0's optimum at least {float(gap):.4f}"),
                      counterexample={"levels": r"\(\varepsilon = 3\): budgets {3, 3.6, 6} with 5, 5, 90 items "
                                                "(Fig. 3, exact shares; a possible draw when the budgets are drawn)",
                                      "opt0 worst-case MSE / n (verified point)": f"{float(opt0):.6f}",
                                      "opt2 worst-case MSE / n (at least, OUE's)": f"{float(oue_low):.6f}",
                                      "opt2 / opt0 at least": f"{float(gap):.4f}",
                                      "why": r"z3 proves no opt2 point beats OUE when \(e^{\varepsilon} \ge 20\); "
                                             "opt0's point is verified MinID-LDP by the kernel and its worst-case MSE "
                                             "is computed exactly"}
                      if certified and gap > limit else None,
                      inconclusive=not certified))
    return steps


def near_optimal_verdict(shown: Step, near_optimal: str, box: str, where: str) -> Outcome:
    """The verdict on "opt1 and opt2 are near-optimal" under the reading ``near_optimal``, from the solvers' gaps
    ``shown`` (evidence only) and the certificates: opt2's optimum more than 10% above a kernel-verified opt0 point at
    eps = 3 (``opt2_gap_certificate``), and with opt0's box ``none`` opt1's more than twice opt0's at eps = 4
    (``opt1_gap_certificate``). A factor of 2 with the authors' box stays open: showing a gap small enough needs a
    lower bound on opt0's optimum, which is not convex. ``where``: the levels the 10% refutation is stated on."""
    limit = near_optimal_limit(near_optimal=near_optimal)
    if near_optimal == "within-10%":
        return decide([shown] + opt2_gap_certificate(box, limit), "",
                      rf"opt2's optimum is more than 10% above opt0's at \(\varepsilon = 3\){where}.")
    if box == "none":
        return decide([shown, opt1_gap_certificate(limit)], "",
                      r"With opt0's box `none`, opt1's optimum is more than twice opt0's on Fig. 3's uniform data set "
                      r"at \(\varepsilon = 4\).")
    return decide([shown, Step(Evidence("none", "a lower bound on opt0's optimum",
                                        "none: opt0 is not convex and its solver's optimum is not certified"),
                               inconclusive=True)], "", "",
                  "No reading of the evidence decides a factor of 2 with the authors' box: the solvers' gaps (all "
                  "below 2) are evidence only, and verifying them needs a lower bound on opt0's optimum, which is "
                  "not convex.")


def opt1_gap_certificate(limit: Fraction = Fraction(2)) -> Step:
    """opt1's optimum more than twice opt0's on Fig. 3's uniform data set (1000 items: 50, 50, 900 at eps, 1.2 eps,
    2 eps) at eps = 4, box ``none``.

    opt1 minimises ``sum_t m_t f(x_t)``, ``f(x) = e^x / (e^x - 1)^2`` (its worst-case MSE / n: a + b = 1 leaves no
    count term), subject to ``x_s + x_t <= min(eps_s, eps_t)`` for every pair of levels, a level with itself
    included (each holds two or more items). It is convex, so any multipliers ``lam >= 0`` give the lower bound
    ``sum_t min_x [m_t f(x) + Lam_t x] - sum_c lam_c b_c``; each one-dimensional minimum is bracketed at 50 digits
    (for a convex function with ``phi'(u) <= 0 <= phi'(v)`` the minimum is at least ``min(phi(v), phi(u) + phi'(u)
    (v - u))``). opt0's point is the solver's, verified MinID-LDP by the kernel, its worst-case MSE exact."""
    budgets, sizes = [Fraction(4), Fraction(24, 5), Fraction(8)], [50, 50, 900]
    constraints = [((s, t), min(budgets[s], budgets[t])) for s in range(3) for t in range(s, 3)]
    multipliers = {(0, 2): Fraction(5787, 100), (1, 2): Fraction(1194, 100)}  # near the dual optimum (numerical)
    with mpmath.workdps(50):
        def mp(value: Fraction):
            return mpmath.mpf(value.numerator) / value.denominator

        load = [mpmath.mpf(0)] * 3
        for (s, t), _ in constraints:
            load[s] += mp(multipliers.get((s, t), Fraction(0)))
            load[t] += mp(multipliers.get((s, t), Fraction(0)))

        def phi(t, x):
            return sizes[t] * mpmath.exp(x) / mpmath.expm1(x) ** 2 + load[t] * x

        def slope(t, x):
            e = mpmath.exp(x)
            return -sizes[t] * e * (e + 1) / (e - 1) ** 3 + load[t]

        bound = mpmath.mpf(0)
        for t in range(3):
            if load[t] == 0:
                continue  # inf over x > 0 of m_t f(x) is 0
            u, v = mpmath.mpf("0.01"), mpmath.mpf(40)
            for _ in range(160):  # bisection: slope(u) <= 0 <= slope(v) throughout
                middle = (u + v) / 2
                u, v = (middle, v) if slope(t, middle) <= 0 else (u, middle)
            if not (slope(t, u) <= 0 <= slope(t, v)):
                return Step(Evidence("exact", "opt1's dual bound", "the bracket failed"), inconclusive=True)
            bound += min(phi(t, v), phi(t, u) + slope(t, u) * (v - u))
        bound -= sum(mp(multipliers.get(pair, Fraction(0)) * limit) for pair, limit in constraints)
        bound -= mpmath.mpf(10) ** -20  # the rounding of 50-digit arithmetic, with room to spare
        levels = PrivacyLevels.from_sizes([4.0, 4.8, 8.0], sizes)
        point = solve_read(levels, "opt0", box="none")
        opt0 = Fraction(str(worst_case_mse(levels.sizes, point.a, point.b)))
        ratio = bound / mp(opt0)
        found = point.verified and ratio > mp(limit)
        return Step(Evidence("exact", r"Fig. 3's uniform data set at \(\varepsilon = 4\) (levels \(\{4, 4.8, 8\}\) "
                                      "with 50, 50, 900 items), opt0 with box `none`",
                             f"opt1's optimum at least {mpmath.nstr(bound, 8)} (dual bound); opt0's kernel-verified "
                             f"point {float(opt0):.4f}; ratio at least {mpmath.nstr(ratio, 5)}"),
                    counterexample={"levels": r"\(\varepsilon = 4\): budgets {4, 4.8, 8} with 50, 50, 900 items "
                                              "(Fig. 3, uniform, exact shares; a possible draw when the budgets are "
                                              "drawn)",
                                    "opt1 worst-case MSE / n at least": mpmath.nstr(bound, 8),
                                    "opt0 worst-case MSE / n (verified point, box none)": f"{float(opt0):.6f}",
                                    "opt1 / opt0 at least": mpmath.nstr(ratio, 5),
                                    "why": "a Lagrangian dual bound of the convex opt1 at 50 digits; opt0's point is "
                                           "verified MinID-LDP by the kernel and its worst-case MSE is exact"}
                    if found else None, inconclusive=not found)

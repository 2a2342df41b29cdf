"""Claims of the IPLDP preprint about its mechanisms (Secs. 5.1, 5.2), and the pieces its other claims share
(random budget lists, IPRR's exact channel and its z3 terms); the claims about its notion are in ``notion``.

IPRR's probabilities are written once (``reference.ipldp2023.iprr.iprr_rows``) over the exponentiated budgets, so the
same code gives exact channels for the kernel and z3 terms for proofs over every budget.
"""

from __future__ import annotations

import functools
import itertools
from fractions import Fraction

import numpy as np
import z3
from hypothesis import strategies as st
from scipy.optimize import minimize

from ldpspec.reference.ipldp2023.iprr import IPRR, iprr_rows
from ldpspec.reference.shared.direct import empirical_moments
from ldpspec.reference.shared.grr import Grr, grr_rows
from ldpspec.reference.shared.urr import URR, urr_rows
from ldpspec.spec import (
    Channel,
    ColumnClasses,
    InvalidParameter,
    avg_id_ldp,
    budget,
    id_ldp,
    ldp,
    ldp_epsilon,
    min_id_ldp,
    to_decimal_string,
)
from ldpspec.verify.claims import AuditSettings, Evidence, Fixed, Outcome, Step, builds, claim, decide
from ldpspec.verify.common import z3_reals
from ldpspec.verify.ipldp2023.builders import (
    asserted_clauses,
    honesty_comparisons,
    ipldp_check,
    ipldp_conditions,
    ipldp_float,
    ipldp_holds,
    mangat_example,
)
from ldpspec.verify.ipldp2023.readings import (
    BUDGET_OWNER,
    DESIGN_HARDNESS,
    DESIGN_RESTRICTION,
    HONEST_GROUP,
    HONESTY,
)
from ldpspec.verify.kernel_checks import KERNEL_CHECKS
from ldpspec.verify.search import budget_values, find_counterexample, search_step
from ldpspec.verify.symbolic import Condition, proof_step, prove

SYMBOLIC_SIZES = range(2, 5)
"""Domain sizes of the z3 proofs over every budget: every split of the domain into D_S and D_N."""


# --- shared pieces ---------------------------------------------------------------------------------

def item_budget_lists(settings: AuditSettings, *, non_sensitive: bool = True):
    """Random budget lists over 2 .. max_inputs items: a positive exact budget per sensitive item, ``None`` for a
    non-sensitive one (``non_sensitive=False``: every item sensitive)."""
    positive = budget_values.filter(lambda b: b > 0)
    entry = st.one_of(st.none(), positive) if non_sensitive else positive
    # three items by default: every z3 proof beside these searches already covers up to four, for every budget
    return st.lists(entry, min_size=2, max_size=settings.max_inputs if settings.deep else 3).filter(
        lambda b: any(v is not None for v in b))


EXPONENTIALS = (Fraction(9, 8), Fraction(5, 4), Fraction(3, 2), Fraction(2), Fraction(3), Fraction(5), Fraction(11),
                Fraction(101))
"""``e^eps`` of the budgets the loss searches draw (eps = ln(9/8) ~ 0.12 up to ln 101 ~ 4.6). These statements hold
or fail for every r_x = 1/(e^eps - 1) > 0, and with a rational e^eps every probability, estimate and loss is a
rational number, so the exact searches run on fractions."""


def log_budget_lists(settings: AuditSettings, *, non_sensitive: bool = True):
    """Budget lists as ``log(q)`` text with ``q`` in ``EXPONENTIALS`` (``None`` for a non-sensitive item), with at
    least one sensitive item."""
    logs = st.sampled_from(EXPONENTIALS).map(lambda q: f"log({q})")
    entry = st.one_of(st.none(), logs) if non_sensitive else logs
    size = settings.max_inputs if settings.deep else 3
    return st.lists(entry, min_size=2, max_size=size).filter(lambda b: any(v is not None for v in b))


@functools.lru_cache(maxsize=512)
def iprr_channel(budgets: tuple) -> Channel:
    """IPRR's exact channel, once per budget list (the searches revisit lists while shrinking, and a channel over
    several distinct budgets takes a second to build: its row sums are checked exactly)."""
    return IPRR(budgets).channel()


def shown(budgets) -> list:
    return [None if b is None else b.text() if hasattr(b, "text") else str(b) for b in budgets]


def sensitive_budgets(budgets) -> dict:
    return {x: b for x, b in enumerate(budgets) if b is not None}


def symbolic_iprr(d: int, sensitive: tuple) -> tuple[list, list, list]:
    """IPRR's rows over z3 budgets ``E_x > 1`` for the sensitive items; returns ``(rows, E, assumptions)``."""
    E = [z3.Real(f"E_{x}") if x in sensitive else None for x in range(d)]
    return iprr_rows(E), E, [e > 1 for e in E if e is not None]


def splits(d: int, *, non_sensitive: bool):
    """The sensitive sets of a domain of size ``d`` (all of them, or only ``D_S = D``)."""
    if not non_sensitive:
        return [tuple(range(d))]
    return [s for k in range(d + 1) for s in itertools.combinations(range(d), k)]


def iprr_proof_steps(*, non_sensitive: bool) -> list[Step]:
    """z3: IPRR is a channel (entries >= 0, rows sum to 1) satisfying both conditions of Definition 3, for every
    budget, every domain of ``SYMBOLIC_SIZES`` and every split into D_S and D_N."""
    conditions, assumptions, cases = [], [], 0
    for d in SYMBOLIC_SIZES:
        for sensitive in splits(d, non_sensitive=non_sensitive):
            rows, E, positive = symbolic_iprr(d, sensitive)
            assumptions += positive
            cases += 1
            conditions += ipldp_conditions(rows, E, sensitive)
            for x in range(d):
                conditions.append(Condition((x,), None, z3.Sum(*[z3.RealVal(0) + v for v in rows[x]]) == 1))
                for y in range(d):
                    conditions.append(Condition((x,), y, z3.RealVal(0) + rows[x][y] >= 0))
                    if y in sensitive:
                        continue
                    if x == y:
                        conditions.append(Condition((x,), y, z3.RealVal(0) + rows[x][y] > 0))
                    else:
                        conditions.append(Condition((x,), y, z3.RealVal(0) + rows[x][y] == 0))
    split = r"every split into \(D_S\) and \(D_N\)" if non_sensitive else r"\(D = D_S\)"
    scope = (rf"{cases} domains (\(|D| = {SYMBOLIC_SIZES.start}\) .. {SYMBOLIC_SIZES.stop - 1}, "
             rf"{split}), every budget > 0: entries \(\ge "
             r"0\), rows sum to 1, Definition 3's privacy conditions (`ipldp_conditions`), each non-sensitive "
             "output only from itself with probability > 0")
    return [proof_step(scope, prove(conditions, assumptions=assumptions, description="IPRR satisfies IPLDP"))]


def kernel_search_step(settings: AuditSettings, violates, scope: str, *, non_sensitive: bool) -> Step:
    example = find_counterexample(log_budget_lists(settings, non_sensitive=non_sensitive), violates, settings)
    return search_step(scope, example, lambda ex: {"budgets": shown(ex)}, settings)


# --- Sec. 5.1: the design problem ------------------------------------------------------------------

def design_objective(p, E, qbar):
    """Problem (9)'s objective: ``sum_x (p_x (E_x - 1) + 1) / ((E_x - 1)^2 qbar_x)``."""
    return sum((px * (e - 1) + 1) / ((e - 1) ** 2 * b) for px, e, b in zip(p, E, qbar))


def general_objective(p, q, qbar):
    """``n E l2`` of the estimator (12) on the restricted structure with free ``q_x`` and ``qbar_x``:
    ``sum_x m_x (1 - m_x) / (q_x - qbar_x)^2`` with ``m_x = p_x q_x + (1 - p_x) qbar_x`` (eq. (8)'s first form)."""
    m = [px * a + (1 - px) * b for px, a, b in zip(p, q, qbar)]
    with np.errstate(divide="ignore", invalid="ignore"):  # the optimiser may try q_x = qbar_x: an infinite loss
        return sum(mx * (1 - mx) / (a - b) ** 2 for mx, a, b in zip(m, q, qbar))


@builds(DESIGN_RESTRICTION, constructs=("design_objective", "general_objective"))
def numerical_design(p, E, rng: np.random.Generator, starts: int = 8, *, design_restriction: str):
    """An independent numerical solution of problem (9) (Sec. 5.1, restriction (6)) under the reading
    ``design_restriction``, SLSQP from random starts: the restricted unknowns ``qbar_x`` (``equality``: ``q_x =
    e^{eps_x} qbar_x``) or ``(q_x, qbar_x)`` (``at-most``: ``q_x <= e^{eps_x} qbar_x``), with the row-sum
    constraints. Returns ``(value, q, qbar, objective)``, ``objective(q, qbar)`` being the reading's objective, or
    ``None`` when no start reaches a feasible point. Every objective of the restricted design problem is built here.

    The best point found that meets every constraint (to 1e-9) counts, whatever SLSQP's exit message: with a tight
    ``ftol`` it often stops at the optimum with "positive directional derivative for linesearch". Under the at-most
    reading half the starts are feasible points (every qbar_x = c, every q_x = t c with 1 < t <= min E_x), so that
    the search does not hinge on SLSQP finding the feasible set from an infeasible start."""
    d = len(E)
    E = np.asarray(E, dtype=float)
    p = np.asarray(p, dtype=float)
    best = None
    for start in range(starts):
        if design_restriction == "equality":
            def rows_sum(v):
                return E * v + (v.sum() - v) - 1  # q_x + sum_{x' != x} qbar_x' = 1 with q_x = E_x qbar_x

            result = minimize(lambda v: design_objective(p, E, v), rng.uniform(0.01, 1 / d, d), method="SLSQP",
                              bounds=[(1e-9, 1)] * d, constraints=[{"type": "eq", "fun": rows_sum}],
                              options={"maxiter": 500, "ftol": 1e-14})
            qbar = result.x
            q = E * qbar
            violation = np.abs(rows_sum(qbar)).max()
        else:
            def rows_sum(v):
                q, b = v[:d], v[d:]
                return q + (b.sum() - b) - 1

            def ratio(v):
                q, b = v[:d], v[d:]
                return np.concatenate([E * b - q, q - b - 1e-9])  # q_x <= E_x qbar_x, and q_x > qbar_x

            if start % 2:
                t = rng.uniform(1, E.min())
                c = 1 / (t + d - 1)
                initial = np.concatenate([np.full(d, t * c), np.full(d, c)])
            else:
                initial = rng.uniform(0.01, 1 / d, 2 * d)
            result = minimize(lambda v: general_objective(p, v[:d], v[d:]), initial,
                              method="SLSQP", bounds=[(1e-9, 1)] * (2 * d),
                              constraints=[{"type": "eq", "fun": rows_sum}, {"type": "ineq", "fun": ratio}],
                              options={"maxiter": 500, "ftol": 1e-14})
            q, qbar = result.x[:d], result.x[d:]
            violation = max(np.abs(rows_sum(result.x)).max(), -ratio(result.x).min())
        if violation <= 1e-9 and np.isfinite(result.fun) and (best is None or result.fun < best[0]):
            best = (result.fun, q, qbar)
    if best is None:
        return None
    if design_restriction == "equality":
        return (*best, lambda q, qbar: design_objective(p, E, qbar))
    return (*best, lambda q, qbar: general_objective(p, q, qbar))


@claim("ipldp2023.sec5.1-design.direct-encoding", location="Sec. 5.1",
       statement=r"The only way to design \(Q\) for IPLDP is direct encoding, as in KRR.",
       methods=("definition",), recorded="verified",
       interpretation=r"Definition 3 takes the output domain equal to the input domain \(D\) (Sec. 3.1: 'the input and "
                      "output domains are equal'), and condition 2 makes each non-sensitive output name its input, so "
                      r"an IPLDP mechanism reports one item of \(D\): a direct encoding by the definition's own "
                      "setting. The kernel's predicate refuses any other output.")
def design_direct_encoding(settings: AuditSettings):
    refused = False
    try:
        ipldp_holds(Channel((0, 1), ((0, 1), (1, 0)), [[1, 0], [0, 1]]), {0: 1, 1: 1})
    except InvalidParameter:  # the kernel refuses outputs that are not items
        refused = True
    return decide([Step(Evidence("kernel", "a channel whose outputs are bit vectors",
                                 f"refused by the IPLDP predicate: {refused}"), inconclusive=not refused)],
                  "IPLDP is defined on item-to-item channels only.", "", "The kernel accepted a non-item output.")


@claim("ipldp2023.sec5.1-design.nonconvex", location="Sec. 5.1",
       statement=r"Directly computing the \(|D|^2\) probabilities that make \(Q\) invertible and satisfy IPLDP is "
                 "impossible; the objective of (5) is likely to be non-convex, with non-linear constraints.",
       methods=("exact example", "numerical optimisation"),
       recorded={"design_hardness=literal": "refuted", "design_hardness=motivation": "verified"},
       interpretation="How much of the hedged sentence is asserted is the choice `design_hardness`. Non-convexity of "
                      r"(5)'s objective (the expected \(\ell_2\) loss of (12), a function of the whole matrix "
                      r"\(Q\)): an exact pair of IPLDP channels whose midpoint has a larger loss than the average of "
                      r"the two shows it. The constraints of (5), \(\ln Q(y|x) / Q(y|x') \le \varepsilon_y\), are "
                      r"written as non-linear functions of \(Q\) but define the same set as \(Q(y|x) \le "
                      r"e^{\varepsilon_y} Q(y|x')\), linear in \(Q\). Literally, 'impossible' is refuted by any "
                      r"exact invertible IPLDP \(Q\) computed directly (the witness's); as the motivation of (6) it "
                      "is not an assertion a computation decides.",
       choices=(DESIGN_HARDNESS,))
def design_nonconvex(settings: AuditSettings, *, design_hardness: str):
    budgets = [Fraction(1, 2), 1, 2]  # D = D_S
    witness = nonconvex_witness(budgets)
    steps = []
    if witness is None:
        steps.append(Step(Evidence("numerical search", r"\(\mathcal E = \{1/2, 1, 2\}\)", "no segment found"),
                          inconclusive=True))
        return decide(steps, "", "", "No exact witness was found.")
    a, b, p, losses = witness
    shown_a = [[str(v) for v in row] for row in a.rows]
    steps.append(Step(Evidence(
        "exact example", r"\(\mathcal E = \{1/2, 1, 2\}\): two exact IPLDP channels (rational entries, checked by "
                         rf"the kernel) \(A\) = {shown_a}, \(B\) = "
                         rf"{[[str(v) for v in row] for row in b.rows]}, \(p\) = {[str(v) for v in p]}",
        r"\(n \mathbb E \ell_2\) of (12) at \(A\), \(B\) and their midpoint: "
        f"{', '.join(to_decimal_string(v, 6) for v in losses)}: the midpoint is worse than the average, so the "
        "objective of (5) is not convex (the feasible set is: the midpoint is IPLDP too)")))
    if "impossible" not in asserted_clauses(design_hardness=design_hardness):
        not_affine = Fraction(5, 2) != Fraction(2)  # ln is injective: ln 5/2 = ln 2 only if 5/2 = 2
        steps.append(Step(Evidence("exact", r"the constraint function \(\ln Q(y|x) - \ln Q(y|x')\) as (5) writes it",
                                   r"at \((1, 1)\), \((4, 1)\) and their midpoint: \(\ln 5/2 \ne (\ln 1 + \ln 4) "
                                   r"/ 2 = \ln 2\): not affine"), inconclusive=not not_affine))
        return decide(steps, r"(5) as written is not a convex program: its objective is not convex (an exact example) "
                             "and its constraints are written as non-linear functions; 'impossible' and 'likely' are "
                             "the motivation of (6), not assertions.", "")
    fractions = [[Fraction(v) for v in row] for row in shown_a]
    determinant = (fractions[0][0] * (fractions[1][1] * fractions[2][2] - fractions[1][2] * fractions[2][1])
                   - fractions[0][1] * (fractions[1][0] * fractions[2][2] - fractions[1][2] * fractions[2][0])
                   + fractions[0][2] * (fractions[1][0] * fractions[2][1] - fractions[1][1] * fractions[2][0]))
    feasible = ipldp_holds(a, dict(enumerate(budgets)))
    steps.append(Step(Evidence("exact", r"\(A\), computed directly (a seeded search over rational matrices)",
                               f"IPLDP (kernel): {feasible}; determinant {determinant}"),
                      counterexample={"channel": shown_a, "budgets": [str(e) for e in budgets],
                                      "IPLDP": "holds (kernel)", "determinant": str(determinant),
                                      "constraints of (5)": r"\(\ln Q(y|x) / Q(y|x') \le \varepsilon_y\) is "
                                                            r"\(Q(y|x) \le e^{\varepsilon_y} Q(y|x')\), linear in "
                                                            r"\(Q\)",
                                      KERNEL_CHECKS: [ipldp_check(a, dict(enumerate(budgets)),
                                                                  "The channel A computed directly, with budgets 1/2, "
                                                                  "1 and 2,", expected="holds")]}
                      if feasible and determinant != 0 else None,
                      inconclusive=not feasible or determinant == 0))
    return decide(steps, "",
                  r"Read literally, two clauses fail: an invertible IPLDP \(Q\) is computed directly (exact, "
                  r"kernel-checked), and (5)'s constraints define the same set as constraints linear in \(Q\). The "
                  "objective is indeed not convex.")


def nonconvex_witness(budgets, tries: int = 2000):
    """Two exact IPLDP channels and a distribution at which (5)'s objective is worse at the midpoint than on
    average: found by a seeded numerical search, then rounded to rationals and confirmed exactly."""
    rng = np.random.default_rng(5)
    d = len(budgets)
    E = np.exp([float(b) for b in budgets])

    def loss(q, p):
        inverse = np.linalg.inv(q)
        m = p @ q
        return float(np.trace(inverse.T @ (np.diag(m) - np.outer(m, m)) @ inverse))

    def rational_channel():
        while True:
            weights = rng.integers(1, 20, size=(d, d))
            q = weights / weights.sum(axis=1, keepdims=True)
            if ipldp_float(q, E):
                return [[Fraction(int(w), int(row.sum())) for w in row] for row in weights]

    for _ in range(tries):
        a, b = rational_channel(), rational_channel()
        weights = rng.integers(1, 10, size=d)
        p = [Fraction(int(w), int(weights.sum())) for w in weights]
        fa, fb = (loss(np.array(q, dtype=float), np.array(p, dtype=float)) for q in (a, b))
        mid = [[(u + v) / 2 for u, v in zip(ra, rb)] for ra, rb in zip(a, b)]
        if loss(np.array(mid, dtype=float), np.array(p, dtype=float)) <= (fa + fb) / 2 * 1.01:
            continue
        channels = [Channel(range(d), range(d), q) for q in (a, b, mid)]
        if not all(ipldp_holds(c, dict(enumerate(budgets))) for c in channels):
            continue
        exact = [empirical_moments(c.rows, p, 1)[1] for c in channels]
        if exact[2] > (exact[0] + exact[1]) / 2:  # confirmed exactly
            return channels[0], channels[1], p, exact
    return None


@claim("ipldp2023.sec5.1-design.restriction", location="Sec. 5.1, (6)-(9)",
       statement=r"The restriction (6) reduces the unknowns from \(|D|^2\) to \(2|D|\). In (9) the objective is a "
                 r"convex function of \(\bar q_x\) and all the constraints are linear equations; it is solved via the "
                 "Sherman-Morrison formula at the intersection point of the hyperplanes formed by the constraints.",
       methods=("z3", "numerical optimisation"),
       recorded={"design_restriction=equality": "verified", "design_restriction=at-most": "verified"},
       interpretation=r"Under (6) as written, the \(|D|\) row-sum constraints in the \(|D|\) unknowns \(\bar q_x\) "
                      r"have the matrix \(\operatorname{diag}(e^{\varepsilon_x} - 1) + \mathbf 1 \mathbf 1^T\), which "
                      r"Sherman-Morrison inverts: the feasible set is the single point \(\bar q = r S\), IPRR, "
                      r"whatever \(p\), so the objective determines nothing. Under the at-most reading the feasible "
                      "set is larger and the objective matters. Each is checked against an independent numerical "
                      r"minimisation of the problem (SLSQP, random starts) for random \(p\) and budgets.",
       choices=(DESIGN_RESTRICTION,))
def design_restriction(settings: AuditSettings, *, design_restriction: str):
    steps = []
    # z3: the intersection point of the constraint hyperplanes is IPRR's qbar, for every budget (|D| <= 4)
    conditions, assumptions = [], []
    for d in SYMBOLIC_SIZES:
        rows, E, positive = symbolic_iprr(d, tuple(range(d)))
        assumptions += positive
        qbar = [rows[(y + 1) % d][y] for y in range(d)]
        for x in range(d):
            conditions.append(Condition((x,), None, E[x] * qbar[x] + z3.Sum(*[qbar[y] for y in range(d) if y != x])
                                        == 1))
    steps.append(proof_step(rf"\(|D| = {SYMBOLIC_SIZES.start}\) .. {SYMBOLIC_SIZES.stop - 1}, every budget: IPRR's "
                            r"\(\bar q\) (Sherman-Morrison's solution) satisfies every row-sum constraint of (9) with "
                            r"\(q_x = e^{\varepsilon_x} \bar q_x\)",
                            prove(conditions, assumptions=assumptions, description="the intersection point")))
    c, u, v, t = z3.Reals("c u v t")  # each term of (9): c / qbar_x with c = (p_x (E_x - 1) + 1) / (E_x - 1)^2 > 0
    steps.append(proof_step(r"each term \(c / \bar q_x\) of (9)'s objective, \(c > 0\): convex on \(\bar q_x > 0\) "
                            r"(\(f(t u + (1 - t) v) \le t f(u) + (1 - t) f(v)\)), so the sum is convex",
                            prove([Condition((), None, c / (t * u + (1 - t) * v) <= t * c / u + (1 - t) * c / v)],
                                  assumptions=[c > 0, u > 0, v > 0, t >= 0, t <= 1],
                                  description="convex objective")))
    rng = np.random.default_rng(2023)
    worst, cases = 0.0, 4 if not settings.deep else 20
    for _ in range(cases):
        d = int(rng.integers(2, 5))
        budgets = [float(v) for v in rng.choice([0.1, 0.5, 1, 2, 5], d)]
        p = rng.dirichlet(np.ones(d))
        iprr = IPRR([Fraction(str(b)) for b in budgets])
        qbar_iprr = np.array([float(v) for v in iprr.qbar])
        E = np.exp(budgets)
        found = numerical_design(p, E, rng, design_restriction=design_restriction)
        if found is None:
            steps.append(Step(Evidence("numerical optimisation", f"budgets {budgets}", "SLSQP found no feasible point"),
                              inconclusive=True))
            continue
        _, q, qbar, objective = found
        if design_restriction == "equality":
            gap = float(np.max(np.abs(qbar - qbar_iprr) / qbar_iprr))
        else:  # compare the loss reached with IPRR's
            ours = objective(E * qbar_iprr, qbar_iprr)
            gap = float((ours - objective(q, qbar)) / ours)
        worst = max(worst, gap)
    tolerance = 1e-5
    result = (rf"largest relative difference of \(\bar q\) from IPRR's: {worst:.2e}" if design_restriction == "equality"
              else f"largest relative improvement of the numerical optimum over IPRR's loss: {worst:.2e}")
    starts = "8 random starts" if design_restriction == "equality" else "8 starts: 4 random, 4 feasible"
    steps.append(Step(Evidence(f"numerical optimisation (SLSQP, {starts})",
                               rf"{cases} random instances, \(|D| = 2\) .. 4, \(p\) from a flat Dirichlet",
                               result + f" (tolerance {tolerance:g})"), inconclusive=worst > tolerance))
    return decide(steps, r"With \(q = e^{\varepsilon} \bar q\) the feasible set is one point, IPRR (Sherman-Morrison's "
                         "solution): the objective plays no part." if design_restriction == "equality" else
                  r"With \(q \le e^{\varepsilon} \bar q\) the numerical optimum is IPRR: its maximal ratio is optimal "
                  "on the restricted structure.", "", "The numerical optimum differs from IPRR.")


COLUMN_BASES = (Fraction(0), Fraction(1, 10), Fraction(1, 3), Fraction(1, 2), Fraction(1, 5), Fraction(1, 8))
"""Each class's off-diagonal value qbar (0: an output only its own item produces, as D_N's), for the exhaustive
direct encodings; the diagonal is qbar + extra, extra = 1 - the sum of every column's qbar (0 when they sum to 1:
every ratio is 1, and the witness output is the first an input produces). The default audit takes the first four."""
COLUMN_BUDGETS = ("log(2)", "1", "21/10")


def _column_encodings(max_items: int, bases: tuple):
    """Every direct encoding over 2 .. max_items items in 1 .. 3 classes of columns (items in order, class by
    class), each class's qbar from ``bases``, whose rows can sum to 1."""
    for d in range(2, max_items + 1):
        for count in range(1, min(d, 3) + 1):
            for cuts in itertools.combinations(range(1, d), count - 1):
                sizes = [end - start for start, end in zip((0, *cuts), (*cuts, d))]
                for qbars in itertools.product(bases, repeat=count):
                    if sum(size * qbar for size, qbar in zip(sizes, qbars)) <= 1:
                        yield sizes, qbars


def _verdict_summary(verdict) -> tuple:
    """A verdict as its holds, margin and witness (pair, output and ratio): ColumnClasses names the output the scan
    over the explicit matrix meets first."""
    witness = verdict.witness
    return verdict.holds, verdict.margin, None if witness is None else (witness.inputs, witness.output,
                                                                        witness.log_ratio)


@claim("ipldp2023.sec5.1-design.column-bound", location="Sec. 5.1, before (6)",
       statement=r"The privacy budget determines the indistinguishability of each item \(y \in D\) by controlling the "
                 r"bound of \(\ln[Q(y|x)/Q(y|x')]\) for any \(x\), \(x' \in D\); with every \(\bar q_x\) identical for "
                 r"all inputs other than \(x\) (\(Q(x|x') = \bar q_x\) for \(x' \ne x\), \(Q(x|x) = q_x\)), that bound "
                 r"is the ratio of \(q_x\) and \(\bar q_x\), which (6) sets to \(e^{\varepsilon_x}\).",
       methods=("z3", "exhaustive"), recorded="verified",
       interpretation=r"A direct encoding whose column \(y\) takes \(q_y\) on its diagonal and \(\bar q_y\) off it "
                      "(IPRR, KRR, uRR). z3 proves, for every such column and every pair of inputs, that the ratio "
                      r"lies between \(\bar q_y/q_y\) and \(q_y/\bar q_y\), both attained. The check also ties the "
                      "kernel's judgement of such encodings a pair of classes at a time (spec.ColumnClasses: items "
                      r"sharing \((\bar q, q - \bar q)\) in one class, what `ldpspec channel --classes` writes and "
                      "`ldpspec check` reads at any number of items) to its judgement over every pair of items: z3 "
                      r"proves that a pair of items \(x \ne x'\) has its worst ratio \(q_x/\bar q_x\), at output "
                      r"\(x\), when every \(\bar q\) is positive; exhaustively, with zero \(\bar q\) too, LDP, MinID-, "
                      "ID- (max) and AvgID-LDP and the tightest LDP epsilon agree (verdict, margin and witness: pair, "
                      "output and ratio) between the classes and the explicit matrix.")
def design_column_bound(settings: AuditSettings):
    steps = []
    d = 3 if not settings.deep else 4
    q, qbar = z3_reals("q", d), z3_reals("qbar", d)  # one column per output y: q_y on the diagonal, qbar_y off it
    positive = [v > 0 for v in q + qbar]
    probability = lambda x, y: q[y] if x == y else qbar[y]  # noqa: E731
    conditions = []
    for y in range(d):
        # with r = q_y/qbar_y, every ratio lies in [min(r, 1/r), max(r, 1/r)]: times q_y qbar_y, the ends are
        # min and max of q_y^2 and qbar_y^2
        high = z3.If(q[y] >= qbar[y], q[y] * q[y], qbar[y] * qbar[y])
        low = z3.If(q[y] >= qbar[y], qbar[y] * qbar[y], q[y] * q[y])
        for x, x2 in itertools.product(range(d), repeat=2):
            left, right = probability(x, y) * q[y] * qbar[y], probability(x2, y)
            conditions.append(Condition((x, x2), y, z3.And(low * right <= left, left <= high * right)))
        other = (y + 1) % d
        conditions += [Condition((y, other), y, probability(y, y) * qbar[y] == q[y] * probability(other, y)),
                       Condition((other, y), y, probability(other, y) * q[y] == qbar[y] * probability(y, y))]
    steps.append(proof_step(rf"\(|D| = {d}\), every column with \(q_y\), \(\bar q_y > 0\): every ratio "
                            r"\(Q(y|x)/Q(y|x')\) lies between \(q_y/\bar q_y\) and its inverse, both attained",
                            prove(conditions, assumptions=positive, description="the column bound")))

    base = z3_reals("base", 3)  # per class: qbar; extra = q - qbar is one value, as every row sums to 1
    extra = z3.Real("extra")
    for item_classes in ((0, 0, 1), (0, 1, 2), (0, 0, 1, 2)) if settings.deep else ((0, 0, 1), (0, 1, 2)):
        rows_sum = z3.Sum(*[base[c] for c in item_classes]) + extra == 1
        assumptions = [rows_sum, extra >= 0, *[base[c] > 0 for c in set(item_classes)]]
        conditions = []
        for x, x2 in itertools.permutations(range(len(item_classes)), 2):
            c = item_classes[x]
            worst = base[c] + extra, base[c]  # q_x/qbar_x as numerator and denominator
            for y, c_y in enumerate(item_classes):
                p, p2 = base[c_y] + (extra if y == x else 0), base[c_y] + (extra if y == x2 else 0)
                conditions.append(Condition((x, x2), y, p * worst[1] <= worst[0] * p2))
                if y == x:
                    conditions.append(Condition((x, x2), y, p * worst[1] == worst[0] * p2))
        steps.append(proof_step(rf"items in classes {list(item_classes)}, every \(\bar q > 0\): a pair of items \(x "
                                r"\ne x'\) has its worst ratio \(q_x/\bar q_x\), attained at output \(x\)",
                                prove(conditions, assumptions=assumptions, description="the class pair's ratio")))

    checked, disagreements = 0, []
    eps_values = [budget(text) for text in COLUMN_BUDGETS]
    column_bases = COLUMN_BASES if settings.deep else COLUMN_BASES[:4]
    for sizes, bases in _column_encodings(4 if settings.deep else 3, column_bases):
        item_classes = [c for c, size in enumerate(sizes) for _ in range(size)]
        diagonal_extra = 1 - sum(size * b for size, b in zip(sizes, bases))
        by_class = ColumnClasses(list(bases), [diagonal_extra] * len(bases), item_classes)
        explicit = by_class.explicit()
        for eps in eps_values:
            checked += 1
            if _verdict_summary(ldp(by_class, eps)) != _verdict_summary(ldp(explicit, eps)):
                disagreements.append(("LDP", sizes, bases, [str(eps)]))
        if ldp_epsilon(by_class) != ldp_epsilon(explicit):
            disagreements.append(("tightest LDP epsilon", sizes, bases, []))
        low, high = eps_values[:2]
        if settings.deep:  # every assignment of two budgets to the items
            assignments = list(itertools.product((low, high), repeat=len(item_classes)))
        else:  # every item alike, and the two alternations
            assignments = [(low,) * len(item_classes), *[tuple((low, high)[(k + start) % 2] for k in
                                                               range(len(item_classes))) for start in (0, 1)]]
        for item_budgets in assignments:
            budgets = dict(enumerate(item_budgets))
            for name, check in (("MinID-LDP", min_id_ldp), ("AvgID-LDP", avg_id_ldp),
                                ("ID-LDP (max)", lambda channel, b: id_ldp(channel, b, "max"))):
                checked += 1
                if _verdict_summary(check(by_class, budgets)) != _verdict_summary(check(explicit, budgets)):
                    disagreements.append((name, sizes, bases, [str(v) for v in item_budgets]))
    scope = (f"{checked} verdicts: direct encodings over 2 to {4 if settings.deep else 3} items in 1 to 3 classes, "
             rf"\(\bar q\) from {[str(b) for b in column_bases]}, budgets from {list(COLUMN_BUDGETS)} (ID notions: "
             f"{'every assignment of the first two' if settings.deep else 'all alike, and the two alternations'})")
    if disagreements:
        notion, sizes, bases, budgets_shown = disagreements[0]
        steps.append(Step(Evidence("exhaustive", scope, f"{len(disagreements)} disagree; first: {notion}"),
                          counterexample={"method": "exhaustive", "notion": notion, "class_sizes": sizes,
                                          "qbar": [str(b) for b in bases], "budgets": budgets_shown}))
    else:
        steps.append(Step(Evidence("exhaustive", scope, "the kernel's verdicts by pairs of classes equal its verdicts "
                                   "on the explicit matrix over every pair (margin and witness)")))
    return decide(steps, r"Each column takes two values, so its ratios over pairs of inputs are bounded by \(q_y/\bar "
                         r"q_y\) (= \(e^{\varepsilon_y}\) under (6)), and a pair of items' worst ratio is its first "
                         "item's.", "")


# --- Definitions 4 and 5, Theorems 1 and 2 ------------------------------------------------------

@claim("ipldp2023.def4-krr", location="Sec. 5.1, after Definition 4",
       statement=r"When all elements of \(\mathcal E\) are identical, IPRR becomes KRR.",
       methods=("z3", "hypothesis"), recorded="verified")
def def4_krr(settings: AuditSettings):
    E = z3.Real("E")
    conditions = []
    for d in range(2, 7):
        ours, theirs = iprr_rows([E] * d), grr_rows(E, d)
        conditions += [Condition((x,), y, ours[x][y] == theirs[x][y]) for x in range(d) for y in range(d)]
    steps = [proof_step(r"\(|D| = 2\) .. 6, every budget > 0: every entry of IPRR equals GRR's",
                        prove(conditions, assumptions=[E > 1], description="IPRR with equal budgets is GRR"))]
    d_real = z3.Real("d")
    total = 1 + d_real / (E - 1)
    general = prove([Condition((), None, z3.And(E / ((E - 1) * total) == E / (E + d_real - 1),
                                                1 / ((E - 1) * total) == 1 / (E + d_real - 1)))],
                    assumptions=[E > 1, d_real >= 2], description=r"\(q\) and \(\bar q\) for every \(|D|\)")
    steps.append(proof_step(r"every \(|D| \ge 2\) (a real variable), every budget > 0: \(q_y = "
                            r"e^{\varepsilon}/(e^{\varepsilon} + |D| - 1)\), \(\bar q_y = 1/(e^{\varepsilon} + |D| - "
                            r"1)\)", general))

    def violates(example):
        eps, d = example
        return IPRR([eps] * d).channel().rows != Grr(eps, d).channel().rows

    example = find_counterexample(st.tuples(budget_values.filter(lambda b: b > 0), st.integers(2, 6)), violates,
                                  settings)
    steps.append(search_step(r"random budgets and \(|D| = 2\) .. 6; exact channels compared entry by entry", example,
                             lambda ex: {"epsilon": str(ex[0]), "d": ex[1]}, settings))
    return decide(steps, "With equal budgets IPRR's matrix is GRR's, entry by entry.",
                  "IPRR with equal budgets differs from KRR.")


@claim("ipldp2023.def5-urr", location="Sec. 5.2, after Definition 5",
       statement=r"When all elements of \(\mathcal E\) are identical (= \(\varepsilon\)), \((D_S, D_N, \mathcal "
                 r"E)\)-IPRR is equivalent to \((D_S, \varepsilon)\)-URR.",
       methods=("z3", "hypothesis"), recorded="verified")
def def5_urr(settings: AuditSettings):
    E = z3.Real("E")
    conditions = []
    for d in SYMBOLIC_SIZES:
        for sensitive in splits(d, non_sensitive=True):
            if not sensitive:
                continue  # URR needs a sensitive item
            ours = iprr_rows([E if x in sensitive else None for x in range(d)])
            theirs = urr_rows(E, d, sensitive)
            conditions += [Condition((x,), y, z3.RealVal(0) + ours[x][y] == theirs[x][y])
                           for x in range(d) for y in range(d)]
    steps = [proof_step(rf"\(|D| = {SYMBOLIC_SIZES.start}\) .. {SYMBOLIC_SIZES.stop - 1}, every non-empty \(D_S\), "
                        "every budget > 0: every entry of IPRR equals uRR's",
                        prove(conditions, assumptions=[E > 1], description="IPRR with equal budgets is URR"))]

    def violates(budgets):
        if all(b is None for b in budgets):
            return False
        eps = next(b for b in budgets if b is not None)
        equal = [None if b is None else eps for b in budgets]  # log(q) text: every probability is rational
        return IPRR(equal).channel().rows != URR.from_budgets(equal).channel().rows

    steps.append(kernel_search_step(settings, violates, "random splits and budgets (one budget for every sensitive "
                                    "item); exact channels compared entry by entry", non_sensitive=True))
    return decide(steps, "With equal budgets IPRR's matrix is URR's, entry by entry.",
                  "IPRR with equal budgets differs from URR.")


IPRR_IPLDP_READINGS = (
    "IPLDP is Definition 3 under each reading of `budget_owner` (whose budget bounds a pair): the z3 proof and the "
    r"kernel search use the predicate of the reading. Under `output` (Definition 3 as written) each output's column "
    r"has ratio exactly \(e^{\varepsilon_y}\); under `input` a sensitive input with a small budget is further than "
    r"\(e^{\varepsilon_x}\) from an input with a larger one, on the larger one's output.")
"""How Theorems 1 and 2 are read: the same for both."""


@claim("ipldp2023.theorem1", location="Sec. 5.1, Theorem 1; Appendix A.1",
       statement=r"\((D, \mathcal E)\)-IPRR satisfies \((D, \mathcal E)\)-IPLDP.",
       methods=("z3", "hypothesis"), recorded={"budget_owner=output": "verified", "budget_owner=input": "refuted"},
       interpretation=IPRR_IPLDP_READINGS,
       choices=(BUDGET_OWNER,))
def theorem1(settings: AuditSettings, *, budget_owner: str):
    return _iprr_is_ipldp(settings, False, r"random budgets, \(D = D_S\)",
                          r"IPRR satisfies IPLDP: each output's column has ratio exactly \(e^{\varepsilon_y}\).")


def _iprr_is_ipldp(settings: AuditSettings, non_sensitive: bool, searched: str, verified: str) -> Outcome:
    """Theorems 1 and 2: the z3 proof over all budgets and the kernel's search, both with the reading's IPLDP."""
    steps = iprr_proof_steps(non_sensitive=non_sensitive)

    def violates(budgets):
        return not ipldp_holds(iprr_channel(tuple(budgets)), sensitive_budgets(budgets))

    steps.append(kernel_search_step(settings, violates, searched + "; kernel: the IPLDP predicate (`ipldp_holds`)",
                                    non_sensitive=non_sensitive))
    return decide(steps, verified,
                  r"IPRR violates IPLDP read with the budget on the input: an input with a small budget is more than "
                  r"\(e^{\varepsilon_x}\) from an input with a larger budget, on that input's output.")


@claim("ipldp2023.theorem2", location="Sec. 5.2, Theorem 2; Appendix A.2",
       statement=r"\((D_S, D_N, \mathcal E)\)-IPRR satisfies \((D_S, \mathcal E)\)-IPLDP.",
       methods=("z3", "hypothesis"), recorded={"budget_owner=output": "verified", "budget_owner=input": "refuted"},
       interpretation=IPRR_IPLDP_READINGS,
       choices=(BUDGET_OWNER,))
def theorem2(settings: AuditSettings, *, budget_owner: str):
    return _iprr_is_ipldp(settings, True, r"random budgets and splits into \(D_S\) and \(D_N\)",
                          "IPRR satisfies IPLDP, with non-sensitive outputs that name their input.")


def _both_owners(channel, budgets) -> dict:
    """The IPLDP predicate under every value of ``budget_owner``, each given explicitly (as its ``Fixed`` declares)."""
    return {owner: ipldp_holds(channel, budgets, budget_owner=owner) for owner in BUDGET_OWNER.values}


@claim("ipldp2023.contribution2", location="Sec. 1, contribution 2; Sec. 5.1",
       statement="We propose IPRR mechanism to provide equivalent protection for inputs and outputs simultaneously "
                 "using the direct encoding method.",
       methods=("exact example", "hypothesis"), recorded="refuted",
       interpretation=r"'Equivalent protection for inputs and outputs' is read as: IPRR at \(\mathcal E\) satisfies "
                      "IPLDP both with each budget on its output (Definition 3 as written) and with each budget on "
                      r"its input (item \(x\)'s holders \(\varepsilon_x\)-indistinguishable from every other input "
                      "on every output): the two values of `budget_owner` at once. The check builds the IPLDP "
                      "predicate under both and searches IPRR over random budgets and splits.",
       fixes=(Fixed(BUDGET_OWNER, "the statement asserts the protection of inputs and of outputs at once: the check "
                                  "builds the IPLDP predicate under both values"),))
def contribution2(settings: AuditSettings):
    budgets = [Fraction(1, 10), 5]
    channel = iprr_channel(tuple(budgets))
    both = _both_owners(channel, sensitive_budgets(budgets))
    example = Step(Evidence("exact example", r"IPRR with \(\mathcal E = \{0.1, 5\}\), \(D = D_S\)",
                            "IPLDP " + ", ".join(f"`budget_owner={owner}`: {holds}" for owner, holds in both.items())),
                   counterexample={"budgets": ["0.1", "5"],
                                   "channel": [[to_decimal_string(v, 6) for v in channel.row(x)] for x in range(2)],
                                   "outputs protected (budget on the output)": str(both["output"]),
                                   "inputs protected (budget on the input)": str(both["input"]),
                                   "why": r"input 0 (budget 0.1) and input 1 differ by a factor \(e^5\) on output 1",
                                   KERNEL_CHECKS: [ipldp_check(channel, sensitive_budgets(budgets),
                                                               "IPRR with budgets 1/10 and 5",
                                                               expected="holds" if holds else "does not hold",
                                                               budget_owner=owner)
                                                   for owner, holds in both.items()]}
                   if not all(both.values()) else None)

    def violates(budgets):
        return not all(_both_owners(iprr_channel(tuple(budgets)), sensitive_budgets(budgets)).values())

    steps = [example, kernel_search_step(settings, violates, r"random budgets and splits into \(D_S\) and \(D_N\); "
                                         "the IPLDP predicate with the budget on the output and on the input",
                                         non_sensitive=True)]
    return decide(steps, "IPRR protects every sensitive item's holders and its reports alike.",
                  "IPRR protects outputs, not inputs: with unequal budgets an input with a small budget is "
                  r"distinguishable from another input by far more than \(e^{\varepsilon_x}\), on the other "
                  "input's output.")


# --- Sec. 5.2: honesty ------------------------------------------------------------------------------

@claim("ipldp2023.sec5.2-honesty.honest", location="Sec. 5.2, Fig. 1",
       statement="As the privacy budget decreases, users with sensitive items are more honest, unlike mainstream RR "
                 "mechanisms.",
       methods=("z3", "hypothesis"),
       recorded={"honesty=across-items": "verified", "honesty=one-budget": "verified",
                 "honesty=all-budgets": "refuted"},
       interpretation=r"Honesty is the probability \(q_x = Q(x|x)\) of reporting the true item. Checked under each "
                      "reading of which budgets decrease.",
       choices=(HONESTY,))
def honesty(settings: AuditSettings, *, honesty: str):
    a, b, rest = z3.Reals("r_x r_x2 R_rest")  # r = 1 / (E - 1): a smaller budget is a larger r
    if honesty == "across-items":  # q_x = (1 + r_x) S: larger for the larger r in one mechanism
        goal, premises = (1 + a) / (1 + a + b + rest) >= (1 + b) / (1 + a + b + rest), [a >= b]
        scope = (r"two sensitive items \(x\), \(x_2\) of one IPRR with \(\varepsilon_x \le \varepsilon_{x2}\) (\(r_x "
                 r"\ge r_{x2} > 0\)), any other items")
    elif honesty == "one-budget":  # q_x = (1 + r_x) / (1 + r_x + R_rest), increasing in r_x
        goal, premises = (1 + a) / (1 + a + rest) >= (1 + b) / (1 + b + rest), [a >= b]
        scope = r"one sensitive item's budget lowered (\(r_x \ge r_{x2}\)), the others fixed (\(R_{rest} \ge 0\))"
    else:
        goal, premises = None, []
        scope = ""
    steps = []
    if goal is not None:
        steps.append(proof_step(scope + ", every budget", prove([Condition((), None, goal)],
                                                                  assumptions=[a > 0, b > 0, rest >= 0] + premises,
                                                                  description="honesty")))

    def violates(example):
        budgets, factor = example
        if all(x is None for x in budgets):
            return False
        return any(IPRR(smaller).q[x] < IPRR(larger).q[y]
                   for (smaller, x), (larger, y) in honesty_comparisons(budgets, factor, honesty=honesty))

    factors = st.sampled_from([Fraction(1, 2), Fraction(1, 4), Fraction(3, 4)])
    example = find_counterexample(st.tuples(item_budget_lists(settings), factors), violates, settings)
    steps.append(search_step(rf"random IPRR budgets; reading {honesty}; exact \(q_x\) compared", example,
                             lambda ex: {"budgets": shown(ex[0]), "factor": str(ex[1])}, settings))
    return decide(steps, "A smaller budget never lowers the probability of an honest report.",
                  "Lowering every budget together lowers the probability of an honest report, as in mainstream RR "
                  "(with equal budgets IPRR is KRR).")


@claim("ipldp2023.sec5.2-honesty.mangat", location="Sec. 5.2",
       statement="Following Mangat's RR, indistinguishability can be guaranteed by a large proportion of dishonest "
                 "responses from less sensitive or non-sensitive groups, even if individuals in the sensitive group "
                 "are honest.",
       methods=("exact example",),
       recorded={"honest_group=mostly, budget_owner=output": "verified",
                 "honest_group=mostly, budget_owner=input": "open",
                 "honest_group=fully, budget_owner=output": "verified",
                 "honest_group=fully, budget_owner=input": "open"},
       interpretation="A possibility ('can be guaranteed'), checked by exact IPLDP channels (kernel) with the "
                      r"uniform \(p\); how honest the sensitive group is, is the choice `honest_group`, and 'a large "
                      "proportion' is read as most of the reports of the sensitive item. Mostly honest: IPRR on Fig. "
                      "1's setting. Fully honest: one sensitive item (the sensitive group, as in Mangat's scheme), "
                      r"budget \(0.1\), whose holders always report it, and two non-sensitive items whose holders "
                      r"report it with probability \(0.91 \ge e^{-0.1}\). (With two or more sensitive items an "
                      r"invertible IPLDP channel cannot let one group be fully honest: another sensitive output's "
                      "column must be positive everywhere.) The IPLDP predicate is read under `budget_owner` (the "
                      "sweep moved the verdict with it, so the claim varies it): with the budget on the input neither "
                      "example is IPLDP (a fully honest group's input reaches no other output, which other inputs "
                      "reach), and the check has no example for that reading: open.",
       choices=(HONEST_GROUP, BUDGET_OWNER))
def honesty_mangat(settings: AuditSettings, *, honest_group: str, budget_owner: str):
    channel, sensitive, keep, others, scope = mangat_example(honest_group=honest_group)
    share = others / (keep + others)
    private = ipldp_holds(channel, sensitive)
    holds = private and share > Fraction(1, 2) and keep > Fraction(1, 2)
    return decide([Step(Evidence("exact", scope,
                                 rf"IPLDP (`budget_owner={budget_owner}`): {private}; \(Q(x_1|x_1) = "
                                 rf"{to_decimal_string(keep, 4)}\); a report of \(x_1\) comes from another item with "
                                 f"probability {to_decimal_string(share, 4)}"), inconclusive=not holds)],
                  "An exact IPLDP channel protects the sensitive item by other groups' dishonest reports (most of its "
                  f"reports), its own holders reporting it {'always' if honest_group == 'fully' else 'mostly'}.",
                  "", "The example does not show it." if budget_owner == "output" else
                  "With the budget on the input the example is not IPLDP; the check has no example for that reading.")


@claim("ipldp2023.sec5.2-honesty.population", location="Sec. 5.2",
       statement="In practical scenarios, the sensitivity of data shows an inverse relationship with the population "
                 "size.",
       methods=("none",), recorded="open",
       interpretation="An empirical statement about the world, with no data or source in the paper.")
def honesty_population(settings: AuditSettings):
    return decide([Step(Evidence("none", "no data", "a statement about populations, outside what channels decide"),
                        inconclusive=True)], "", "",
                  "No reading decides it: an empirical statement about the world, for which the paper gives no data "
                  "or source.")

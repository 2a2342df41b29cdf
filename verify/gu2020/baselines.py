"""Gu et al. (ICDE 2020), Sec. III-C and V-A: the LDP baselines (GRR, unary encoding, SUE, OUE) and the matrix
mechanism."""

from __future__ import annotations

import itertools
from fractions import Fraction

import z3
from hypothesis import strategies as st

from ldpspec.reference.shared.grr import Grr, grr_rows
from ldpspec.reference.shared.unary import (
    general_unary_probabilities,
    one_hot_bit_distributions,
    oue,
    oue_probabilities,
    sue,
    sue_probabilities,
    ue,
)
from ldpspec.spec import Nats, bit_vector_probability, budget, ctx, ldp, ldp_epsilon, to_decimal_string
from ldpspec.verify.claims import AuditSettings, Evidence, Step, claim, decide
from ldpspec.verify.gu2020.builders import counts_as_closed_form, small_portion_of, utility_cost
from ldpspec.verify.gu2020.readings import CLOSED_FORM, SMALL_PORTION, UTILITY
from ldpspec.verify.search import find_counterexample, search_step
from ldpspec.verify.symbolic import Condition, SymbolicBudget, SymbolicChannel, ldp_conditions, proof_step, prove

# --- The LDP baselines: GRR, unary encoding, SUE, OUE -------------------------------------------

def _tightness_step(name: str, build, cases) -> Step:
    """Kernel evidence: at sample budgets and sizes the tightest LDP budget equals eps exactly."""
    differing = [(eps, d) for eps, d in cases if ldp_epsilon(build(eps, d)) != budget(eps)]
    return Step(Evidence("exact kernel",
                         rf"{name} at \((\varepsilon, d)\) = " + ", ".join(f"({e}, {d})" for e, d in cases),
                         r"the tightest LDP budget equals \(\varepsilon\) exactly" if not differing
                         else r"the tightest LDP budget differs from \(\varepsilon\) at "
                              f"{differing}"), inconclusive=bool(differing))


EPSILON_CASES = [("0.1", 2), ("1", 5), ("log(4)", 3), ("10", 4), ("1000", 3)]


@claim("gu2020.sec3c-baselines.grr-ldp", location="Sec. III-C",
       statement=r"GRR, reporting the true item with \(p = e^{\varepsilon}/(e^{\varepsilon} + d - 1)\) and each other "
                 r"item with \(q = 1/(e^{\varepsilon} + d - 1)\), satisfies \(\varepsilon\)-LDP.",
       methods=("z3", "exact kernel"), recorded="verified",
       interpretation="Part of the compound claim gu2020.sec3c-baselines: the privacy of GRR.")
def grr_ldp(settings: AuditSettings):
    steps = []
    for d in range(2, 13 if settings.deep else 9):
        budget = SymbolicBudget("eps")
        channel = SymbolicChannel.from_matrix(range(d), range(d), grr_rows(budget.variable, d))
        result = prove(ldp_conditions(channel, budget.exponentiated), [budget], description=rf"GRR, \(d = {d}\)",
                       confirm=lambda b, d=d: not ldp(Grr(b["eps"], d).channel(), b["eps"]))
        steps.append(proof_step(rf"\(d = {d}\), every \(\varepsilon > 0\), the whole output", result))
    steps.append(_tightness_step("GRR", lambda eps, d: Grr(eps, d).channel(), EPSILON_CASES))
    return decide(steps, r"GRR is \(\varepsilon\)-LDP for every \(\varepsilon > 0\), and \(\varepsilon\) is its "
                         "tightest budget.", r"GRR violates \(\varepsilon\)-LDP.")


def _symbolic_unary(bits, d: int) -> SymbolicChannel:
    return SymbolicChannel(tuple(range(d)), tuple(itertools.product((0, 1), repeat=d)),
                           lambda x, y: bit_vector_probability(one_hot_bit_distributions([bits] * d, x), y))


@claim("gu2020.sec3c-baselines.ue-ldp", location="Sec. III-C (citing Wang et al. 2017)",
       statement=r"Unary encoding with keep probability \(p\) and flip-on probability \(q\) satisfies "
                 r"\(\varepsilon\)-LDP with \(\varepsilon = \ln(p(1 - q) / ((1 - p) q))\).",
       methods=("z3", "hypothesis"), recorded="verified",
       interpretation=r"Part of gu2020.sec3c-baselines. Checked for \(0 < q \le p < 1\), where the formula is a budget "
                      r"(it is negative when \(p < q\) and infinite at \(q = 0\) or \(p = 1\)). The whole bit vector "
                      "is the output.")
def ue_ldp(settings: AuditSettings):
    steps = []
    p, q = z3.Reals("p q")
    for d in (2, 3, 4, 5) if settings.deep else (2, 3, 4):
        channel = _symbolic_unary(general_unary_probabilities(p, q), d)
        # P[y|i] <= (p(1-q) / ((1-p) q)) P[y|j], multiplied through by (1 - p) q > 0.
        conditions = [Condition((i, j), y,
                                (1 - p) * q * channel.probability(i, y) <= p * (1 - q) * channel.probability(j, y))
                      for i in range(d) for j in range(d) if i != j for y in channel.outputs]
        result = prove(conditions, assumptions=[q > 0, q <= p, p < 1], description=rf"UE, \(d = {d}\)")
        steps.append(proof_step(rf"\(d = {d}\), every \(0 < q \le p < 1\), all \(2^d\) outputs", result))

    def violates(example):
        (p_weight, q_weight), d = example
        p_value, q_value = Fraction(max(p_weight, q_weight), 64), Fraction(min(p_weight, q_weight), 64)
        channel = ue(p_value, q_value, d).channel()
        formula = Nats.log(p_value * (1 - q_value) / ((1 - p_value) * q_value))
        return ldp_epsilon(channel) != formula or ldp_epsilon(channel.explicit()) != formula

    strategy = st.tuples(st.tuples(st.integers(1, 63), st.integers(1, 63)), st.integers(2, 5))
    example = find_counterexample(strategy, violates, settings)
    steps.append(search_step(r"\(p\), \(q \in \{1/64, \dots, 63/64\}\), \(d \le 5\): the kernel's tightest budget, "
                             "from the bit structure and from the explicit matrix, equals the formula", example,
                             lambda ex: {"p": str(Fraction(max(ex[0]), 64)), "q": str(Fraction(min(ex[0]), 64)),
                                         "d": ex[1]},
                             settings))
    return decide(steps, r"UE is LDP with exactly that budget (the bound is attained at \(y_i = 1\), \(y_j = 0\)).",
                  "UE's privacy differs from the formula.")


def _unary_claim(name: str, probabilities, divisor: int, build, settings: AuditSettings):
    steps = []
    for d in (2, 3, 4, 5) if settings.deep else (2, 3, 4):
        budget = SymbolicBudget("eps", divisor=divisor)
        channel = _symbolic_unary(probabilities(budget.variable), d)
        result = prove(ldp_conditions(channel, budget.exponentiated), [budget], description=rf"{name}, \(d = {d}\)",
                       confirm=lambda b, d=d: not ldp(build(b["eps"], d), b["eps"]))
        steps.append(proof_step(rf"\(d = {d}\), every \(\varepsilon > 0\), the whole bit vector", result))
    steps.append(_tightness_step(name, build, EPSILON_CASES))
    return decide(steps, rf"{name} is \(\varepsilon\)-LDP for every \(\varepsilon > 0\), and \(\varepsilon\) is its "
                         "tightest budget.",
                  rf"{name} violates \(\varepsilon\)-LDP.")


@claim("gu2020.sec3c-baselines.sue-ldp", location="Sec. III-C",
       statement=r"Basic RAPPOR (SUE) with \(p = e^{\varepsilon/2}/(e^{\varepsilon/2} + 1)\) and \(q = "
                 r"1/(e^{\varepsilon/2} + 1)\) satisfies \(\varepsilon\)-LDP.",
       methods=("z3", "exact kernel"), recorded="verified", interpretation="Part of gu2020.sec3c-baselines.")
def sue_ldp(settings: AuditSettings):
    return _unary_claim("SUE", sue_probabilities, 2, lambda eps, d: sue(eps, d).channel(), settings)


@claim("gu2020.sec3c-baselines.oue-ldp", location="Sec. III-C; slides",
       statement=r"OUE with \(p = 1/2\) and \(q = 1/(e^{\varepsilon} + 1)\) satisfies \(\varepsilon\)-LDP.",
       methods=("z3", "exact kernel"), recorded="verified", interpretation="Part of gu2020.sec3c-baselines.")
def oue_ldp(settings: AuditSettings):
    return _unary_claim("OUE", oue_probabilities, 1, lambda eps, d: oue(eps, d).channel(), settings)


# --- Estimator, variance, and the utility comparisons of Sec. III-C --------------------------------

@claim("gu2020.sec3c-baselines.estimator", location="Sec. III-C (citing Wang et al. 2017)",
       statement=r"The estimator \(\hat c_i = (C_i - n q)/(p - q)\) of GRR, RAPPOR and OUE is unbiased and its MSE "
                 r"equals the variance \(n q(1-q)/(p-q)^2 + c_i (1-p-q)/(p-q)\), with each mechanism's coefficients "
                 "(Wang et al. 2017, Table 1).",
       methods=("z3", "exhaustive"), recorded="verified",
       interpretation=r"Part of gu2020.sec3c-baselines. \(C_i\) is a sum of \(c_i \operatorname{Bernoulli}(p)\) and "
                      r"\(n - c_i \operatorname{Bernoulli}(q)\) variables (fixed population). z3 proves the algebra "
                      r"for all \(n\), \(c\), \(p \ne q\) and the table's coefficients for all budgets; exact "
                      "enumeration of every joint output of three users checks the moments themselves.")
def estimator(settings: AuditSettings):
    from ldpspec.reference.shared.estimators import variance_terms
    from ldpspec.reference.shared.unary import oue, sue
    from ldpspec.verify.common import channel_row, count_estimator_proofs, exact_moments, prove_identity

    unbiased, variance = count_estimator_proofs()
    steps = [proof_step(r"\(\mathbb E[\hat c] = c\) when \(\mathbb E[C] = c p + (n - c) q\); all reals, \(p \ne "
                        r"q\)", unbiased),
             proof_step(r"\(\operatorname{Var}[\hat c] = \operatorname{Var}[C]/(p-q)^2\) equals eq. (8) when "
                        r"\(\operatorname{Var}[C] = c p(1-p) + (n-c) q(1-q)\)", variance)]
    E, d, s = z3.Reals("E d s")
    gp, gq = E / (E + d - 1), 1 / (E + d - 1)
    table = [("GRR", gp, gq, (E + d - 2) / (E - 1) ** 2, (d - 2) / (E - 1), [E > 1, d >= 2]),
             ("SUE", s / (s + 1), 1 / (s + 1), s / (s - 1) ** 2, z3.RealVal(0), [s > 1]),
             ("OUE", z3.RealVal(1) / 2, 1 / (E + 1), 4 * E / (E - 1) ** 2, z3.RealVal(1), [E > 1])]
    for name, mp, mq, first, second, assumptions in table:
        expected_first, expected_second = variance_terms(mp, mq)
        steps.append(proof_step(rf"{name}: \(q(1-q)/(p-q)^2\) as in the table, every budget",
                                prove_identity(name, expected_first, first, assumptions)))
        steps.append(proof_step(rf"{name}: \((1-p-q)/(p-q)\) as in the table, every budget",
                                prove_identity(name, expected_second, second, assumptions)))
    differing = []
    items = [0, 0, 1]
    for name, d_value in (("GRR", 3), ("SUE", 2), ("OUE", 2)):
        for eps in ("0.5", "log(4)"):
            if name == "GRR":
                channel = Grr(eps, d_value).channel()
                keep, other = channel.probability(0, 0), channel.probability(0, 1)
                reports = lambda ys, i: sum(y == i for y in ys)  # noqa: E731
            else:
                encoding = (sue if name == "SUE" else oue)(eps, d_value)
                channel, keep, other = encoding.channel(), encoding.bits[0].p, encoding.bits[0].q
                reports = lambda ys, i: sum(y[i] for y in ys)  # noqa: E731
            rows = [channel_row(channel, x) for x in items]
            for i in range(d_value):
                mean, var = exact_moments(rows, lambda ys, i=i, keep=keep, other=other, reports=reports:
                                          (reports(ys, i) - 3 * other) / (keep - other))
                formula = (3 * other * (1 - other) / (keep - other) ** 2
                           + items.count(i) * (1 - keep - other) / (keep - other))
                if mean != items.count(i) or var != formula:
                    differing.append((name, eps, i))
    step = Step(Evidence("exhaustive", r"GRR (\(d = 3\)), SUE and OUE (\(d = 2\)), three users, \(\varepsilon \in "
                                       r"\{0.5, \ln 4\}\): every joint output",
                         "mean = true count and variance = formula, exactly" if not differing
                         else f"the moments differ from the formula at {differing}"), inconclusive=bool(differing))
    steps.append(step)
    return decide(steps, "Unbiased, with that variance and each mechanism's coefficients.", "")


@claim("gu2020.sec3c-baselines.oue-optimal", location="Sec. III-C (citing Wang et al. 2017)",
       statement="The parameters of OUE are obtained by optimizing the approximate variance.",
       methods=("z3",), recorded="verified",
       interpretation=r"Part of gu2020.sec3c-baselines. Among all unary encodings that are \(\varepsilon\)-LDP (\(0 < "
                      r"q < p < 1\), \(p(1-q) \le e^{\varepsilon} q(1-p)\)), OUE's \(p = 1/2\), \(q = "
                      r"1/(e^{\varepsilon} + 1)\) minimise the approximate variance \(q(1-q)/(p-q)^2\) per item, for "
                      r"every \(\varepsilon > 0\).")
def oue_optimal(settings: AuditSettings):
    p, q, E = z3.Reals("p q E")
    goal = q * (1 - q) * (E - 1) ** 2 >= 4 * E * (p - q) ** 2  # q(1-q)/(p-q)^2 >= 4E/(E-1)^2 (OUE's value)
    result = prove([Condition((), None, goal)],
                   assumptions=[E > 1, q > 0, q < p, p < 1, p * (1 - q) <= E * q * (1 - p)],
                   description="OUE minimises the approximate variance")
    return decide([proof_step(r"every \(\varepsilon > 0\) and every \(\varepsilon\)-LDP \((p, q)\)", result)],
                  r"No \(\varepsilon\)-LDP unary encoding has a smaller approximate variance than OUE.", "")


@claim("gu2020.sec3c-baselines.oue-beats-rappor", location="Sec. III-C",
       statement=r"OUE can provide higher utility than RAPPOR for frequency estimation under the same \(\varepsilon\).",
       methods=("z3", "exact kernel"),
       recorded={"utility=approximate-variance": "verified", "utility=exact-mse": "refuted"},
       interpretation=r"Part of gu2020.sec3c-baselines. Checked for every \(\varepsilon > 0\) and, for the exact MSE, "
                      r"every domain size \(d \ge 2\). Under the approximate variance \(n q(1-q)/(p-q)^2\) of each "
                      r"item, \(4e^{\varepsilon}/(e^{\varepsilon} - 1)^2 < e^{\varepsilon/2}/(e^{\varepsilon/2} - "
                      r"1)^2\). The exact total MSE of single-item data adds OUE's count term \(c_i (1-p-q)/(p-q) = "
                      r"c_i\), which sums to \(n\): OUE's total is smaller iff \(d e^{\varepsilon/2} > "
                      r"(e^{\varepsilon/2} + 1)^2\).",
       choices=(UTILITY,))
def oue_beats_rappor(settings: AuditSettings, *, utility: str):
    if utility == "approximate-variance":
        s = z3.Real("s")  # e^{eps/2}; e^eps = s^2
        goal = utility_cost("OUE", 1, s, utility=utility) < utility_cost("SUE", 1, s, utility=utility)
        return decide([proof_step(r"every \(\varepsilon > 0\)", prove([Condition((), None, goal)], assumptions=[s > 1],
                                                         description="approximate variance"))],
                      r"OUE's approximate variance is smaller for every \(\varepsilon > 0\) (the difference is "
                      r"\(s(s-1)^2 > 0\)).", "")
    d, s = z3.Int("d"), z3.Real("s")
    goal = utility_cost("OUE", d, s, utility=utility) <= utility_cost("SUE", d, s, utility=utility)
    solver = z3.Solver()
    solver.add(d >= 2, s > 1, z3.Not(goal))
    solver.add(d <= 2)  # the smallest domain first: a minimal counterexample
    if solver.check() != z3.sat:
        return decide([Step(Evidence("z3", r"\(d = 2\), every \(\varepsilon > 0\)", "no counterexample found"),
                            inconclusive=True)],
                      "", "", r"z3 found no counterexample at \(d = 2\).")
    model = solver.model()
    s_value = model[s].as_fraction()
    eps = Nats.log(s_value) * 2  # eps = 2 ln s, held exactly
    d_value = model[d].as_long()
    # Kernel confirmation: exact totals of the reference mechanisms on single-item data (one user per item).
    data = [1] * d_value
    _, oue_total = oue(eps, d_value).variance(data)
    _, sue_total = sue(eps, d_value).variance(data)
    if not oue_total > sue_total:
        return decide([Step(Evidence("z3", r"\(d = 2\)", "model not confirmed by the kernel"), inconclusive=True)],
                      "", "",
                      "The kernel does not confirm z3's model.")
    counterexample = {"d": d_value, "epsilon": eps.text(), "data": "one user per item",
                      "OUE total variance": to_decimal_string(oue_total, 12),
                      "RAPPOR total variance": to_decimal_string(sue_total, 12)}
    step = Step(Evidence("z3 + exact kernel", r"\(d = 2\), \(\varepsilon > 0\)",
                         rf"OUE's total exceeds RAPPOR's at \(d = {d_value}\), \(\varepsilon = "
                         rf"{to_decimal_string(eps, 6)}\); at \(d = 2\) it does for every \(\varepsilon\), since \(2s "
                         r"< (s + 1)^2\)"), counterexample=counterexample)
    return decide([step], "", "For small domains OUE's exact total MSE exceeds RAPPOR's at every budget.")


@claim("gu2020.sec3c-baselines.grr-large-domain", location="Sec. III-C",
       statement="GRR's utility would be deteriorated much more than the other two mechanisms (RAPPOR, OUE) when the "
                 "domain size is large.",
       methods=("z3", "exact kernel"), recorded="verified",
       interpretation=r"Part of gu2020.sec3c-baselines. The measure of utility is the choice `utility` (as for "
                      r"gu2020.sec3c-baselines.oue-beats-rappor). Checked: for every \(\varepsilon > 0\), GRR's cost "
                      r"(its per-item approximate variance, or its total MSE of single-item data) exceeds both unary "
                      r"encodings' once \(d > s(s+1)^2 + 3e^{\varepsilon} + 2\) (\(s = e^{\varepsilon/2}\)), and "
                      r"its ratio to them grows without bound in \(d\) (GRR's per-item variance grows linearly in "
                      r"\(d\), the unary encodings' does not).",
       choices=(UTILITY,))
def grr_large_domain(settings: AuditSettings, *, utility: str):
    d, s = z3.Reals("d s")
    E = s * s
    threshold = s * (s + 1) ** 2 + 3 * E + 2
    steps = []
    for name in ("OUE", "SUE"):
        goal = utility_cost("GRR", d, s, utility=utility) > utility_cost(name, d, s, utility=utility)
        steps.append(proof_step(rf"GRR vs {'RAPPOR' if name == 'SUE' else name}: every \(\varepsilon > 0\), every "
                                r"\(d\) above the threshold",
                                prove([Condition((), None, goal)], assumptions=[s > 1, d > threshold],
                                      description=f"GRR vs {name}")))
    ratios = []
    for d_value in (10, 100, 1000, 10000):
        per_item_grr = (ctx.e + d_value - 2) / (ctx.e - 1) ** 2
        per_item_oue = 4 * ctx.e / (ctx.e - 1) ** 2
        ratios.append(rf"\(d = {d_value}\): {to_decimal_string(per_item_grr / per_item_oue, 4)}")
    steps.append(Step(Evidence("exact kernel", r"\(\varepsilon = 1\): GRR's per-item variance over OUE's",
                               ", ".join(ratios))))
    return decide(steps, r"GRR falls behind both unary encodings as \(d\) grows, without bound.", "")


# --- The direct matrix mechanism (Sec. V-A) ----------------------------------------------------------

def _solve_fraction(matrix, vector):
    """x with x M = v (row vector), exactly, by Gaussian elimination on M^T."""
    from fractions import Fraction

    size = len(matrix)
    a = [[Fraction(matrix[j][i]) for j in range(size)] + [Fraction(vector[i])] for i in range(size)]
    for col in range(size):
        pivot = next((r for r in range(col, size) if a[r][col] != 0), None)
        if pivot is None:
            return None
        a[col], a[pivot] = a[pivot], a[col]
        for r in range(size):
            if r != col and a[r][col] != 0:
                factor = a[r][col] / a[col][col]
                a[r] = [x - factor * y for x, y in zip(a[r], a[col])]
    return [a[i][size] / a[i][i] for i in range(size)]


@claim("gu2020.sec5a-naive.unbiased", location="Sec. V-A (citing Huang and Du 2008)",
       statement=r"For a direct perturbation matrix \(P\), \(P^{-1} \hat y\) is the unbiased estimator of the true "
                 "frequency vector.",
       methods=("hypothesis",), recorded="verified",
       interpretation="Part of gu2020.sec5a-naive. Checked exactly: for random invertible square channels and random "
                      "counts, applying the inverse to the expected output counts gives the true counts.")
def naive_unbiased(settings: AuditSettings):
    from ldpspec.verify.search import random_channels

    def violates(example):
        random_channel, counts = example
        size = len(random_channel.inputs)
        counts = counts[:size]
        expected = [sum(counts[x] * random_channel.fractions[x][y] for x in range(size)) for y in range(size)]
        solution = _solve_fraction(random_channel.fractions, expected)
        return solution is not None and solution != counts

    strategy = st.integers(2, 4).flatmap(lambda m: st.tuples(
        random_channels(inputs=tuple(range(m)), outputs=tuple(range(m))),
        st.lists(st.integers(0, 20), min_size=m, max_size=m)))
    example = find_counterexample(strategy, violates, settings)
    return decide([search_step("random invertible channels of 2 to 4 items, random counts; exact rational arithmetic",
                               example, lambda ex: {"channel": ex[0].to_json(), "counts": ex[1]}, settings)],
                  r"\(\mathbb E[\hat y] = c P\), so \(\mathbb E[\hat y P^{-1}] = c\).", "")


@claim("gu2020.sec5a-naive.no-closed-form", location="Sec. V-A",
       statement="The elements in the inversion matrix do not have closed-form expression in general.",
       methods=("z3", "none"),
       recorded={"closed_form=finite-expression": "refuted", "closed_form=simple-formula": "open"},
       interpretation="Part of gu2020.sec5a-naive. What counts as a closed form is the choice `closed_form`. As a "
                      r"finite expression in the entries, every element of \(Q^{-1}\) has one, Cramer's rule: "
                      r"\((Q^{-1})_{ij} = C_{ji} / \det Q\), the cofactor over the determinant, polynomials in the "
                      r"entries (z3 proves \(\operatorname{adj}(Q) Q = \det(Q) I\) for every \(2 \times 2\) and "
                      r"\(3 \times 3\) matrix). As a formula as simple as GRR's, nothing measures simplicity.",
       choices=(CLOSED_FORM,))
def naive_no_closed_form(settings: AuditSettings, *, closed_form: str):
    if counts_as_closed_form(True, closed_form=closed_form) is None:  # a finite expression: closed or not?
        return decide([Step(Evidence("none", "", "no measure of a formula's simplicity"), inconclusive=True)], "", "",
                      "No reading decides 'as simple as GRR's': nothing measures the simplicity of a formula.")
    steps = []
    for d in (2, 3):
        q = [[z3.Real(f"q{i}{j}") for j in range(d)] for i in range(d)]

        def minor(i, j, q=q, d=d):
            rows = [[q[r][c] for c in range(d) if c != j] for r in range(d) if r != i]
            return rows[0][0] if d == 2 else rows[0][0] * rows[1][1] - rows[0][1] * rows[1][0]

        cofactor = [[(-1) ** (i + j) * minor(i, j) for j in range(d)] for i in range(d)]
        determinant = z3.Sum(*[q[0][j] * cofactor[0][j] for j in range(d)])
        conditions = [Condition((i, k), None, z3.Sum(*[cofactor[j][i] * q[j][k] for j in range(d)])
                                == (determinant if i == k else 0))
                      for i in range(d) for k in range(d)]
        steps.append(proof_step(rf"every \({d} \times {d}\) matrix: \(\operatorname{{adj}}(Q) Q = \det(Q) I\)",
                                prove(conditions, description=rf"Cramer, \(d = {d}\)")))
    proved = all(not step.inconclusive and step.counterexample is None for step in steps)
    proved = proved and counts_as_closed_form(proved, closed_form=closed_form)
    steps.append(Step(Evidence("z3", "Cramer's rule", r"proved for \(d = 2, 3\)" if proved else "not proved"),
                      counterexample={"element": r"\((Q^{-1})_{ij} = C_{ji} / \det Q\)",
                                      "why": r"the cofactor \(C_{ji}\) and \(\det Q\) are polynomials in the "
                                             r"entries of \(Q\): a finite expression for every invertible \(Q\); "
                                             r"z3 proves \(\operatorname{adj}(Q) Q = \det(Q) I\) for \(d = 2, 3\)"}
                      if proved else None, inconclusive=not proved))
    return decide(steps, "", r"Every element of \(Q^{-1}\) has a closed form as a finite expression: the cofactor "
                             r"over the determinant (Cramer's rule).")


@claim("gu2020.sec5a-naive.mse-depends", location="Sec. V-A",
       statement="The MSE of this estimation is dependent on the unknown true frequencies, thus the objective function "
                 "of minimizing MSE cannot be directly evaluated.",
       methods=("exact example",), recorded="verified",
       interpretation="Part of gu2020.sec5a-naive. Checked: a matrix whose total MSE differs between two count "
                      "vectors with the same number of users (the covariance of multinomial counts, computed "
                      "exactly).")
def naive_mse_depends(settings: AuditSettings):
    from fractions import Fraction

    Q = [[Fraction(6, 10), Fraction(3, 10), Fraction(1, 10)], [Fraction(2, 10), Fraction(5, 10), Fraction(3, 10)],
         [Fraction(1, 10), Fraction(2, 10), Fraction(7, 10)]]
    size = 3

    def total_mse(counts):
        # Var[y_hat Q^{-1}] summed: sum_i e_i^T Q^{-T} Sigma Q^{-1} e_i with Sigma = sum_x c_x (diag(Q_x) - Q_x Q_x^T).
        inverse_columns = [_solve_fraction(Q, [int(i == j) for i in range(size)])  # rows of Q^{-1}
                           for j in range(size)]
        sigma = [[sum(counts[x] * ((Q[x][a] if a == b else 0) - Q[x][a] * Q[x][b]) for x in range(size))
                  for b in range(size)] for a in range(size)]
        inverse = [[inverse_columns[r][c] for c in range(size)] for r in range(size)]
        total = Fraction(0)
        for i in range(size):
            column = [inverse[a][i] for a in range(size)]
            total += sum(column[a] * sigma[a][b] * column[b] for a in range(size) for b in range(size))
        return total

    first, second = total_mse([30, 0, 0]), total_mse([10, 10, 10])
    step = Step(Evidence("exact example", r"a \(3 \times 3\) matrix, counts (30, 0, 0) and (10, 10, 10)",
                         f"total MSE {float(first):.4f} and {float(second):.4f}"), inconclusive=first == second)
    return decide([step], "Two populations of the same size give different MSEs.", "")


@claim("gu2020.sec5a-naive.size", location="Sec. I; Sec. V-A; slides 002",
       statement=r"The direct formulation has \(m^2\) variables (all elements of \(P\)) and \(m^3\) privacy "
                 r"constraints (for all \(x\), \(x'\) and \(y\)).",
       methods=("count",), recorded="verified",
       interpretation=r"Part of gu2020.sec5a-naive. Counted on the conditions the bridge builds: \(m^2(m - 1)\) "
                      r"conditions for ordered pairs \(x \ne x'\), plus the \(m^2\) trivial ones with \(x = x'\), "
                      r"\(m^3\) in all.")
def naive_size(settings: AuditSettings):
    results = []
    for m in (2, 3, 4, 5):
        entries = [[z3.Real(f"P{x}_{y}") for y in range(m)] for x in range(m)]
        channel = SymbolicChannel.from_matrix(range(m), range(m), entries)
        count = len(ldp_conditions(channel, z3.Real("E")))
        results.append((m, m * m, count + m * m, m ** 3))
    ok = all(conditions == cube for _, _, conditions, cube in results)
    return decide([Step(Evidence("count", r"\(m = 2..5\)",
                                 "; ".join(rf"\(m = {m}\): {v} variables, {c} constraints (\(m^3 = {cube}\))"
                                           for m, v, c, cube in results)), inconclusive=not ok)],
                  r"\(m^2\) variables and \(m^3\) constraints.", "")


@claim("gu2020.sec5a-naive.small-probabilities", location="Sec. V-A",
       statement="The domain size is usually very large in practice, then the perturbation probabilities will become "
                 r"very small because of \(\sum_y P[y, x] = 1\) for all \(x\), which means the probability of "
                 "reporting the true value is low.",
       methods=("z3", "hypothesis"), recorded="verified",
       interpretation=r"Part of gu2020.sec5a-naive. Checked: in every \(\varepsilon\)-LDP mechanism on \(m\) items, "
                      r"some item is reported truthfully with probability at most \(e^{\varepsilon}/(e^{\varepsilon} + "
                      r"m - 1)\), which tends to 0 as \(m\) grows.")
def naive_small_probabilities(settings: AuditSettings):
    from ldpspec.spec import ldp_epsilon as tightest
    from ldpspec.verify.search import random_channels

    steps = []
    for m in ((2, 3, 4) if settings.deep else (2, 3)):
        E = z3.Real("E")
        P = [[z3.Real(f"P{y}|{x}") for y in range(m)] for x in range(m)]
        assumptions = [E >= 1] + [v >= 0 for row in P for v in row] + [z3.Sum(*row) == 1 for row in P]
        assumptions += [P[x][y] <= E * P[x2][y] for x in range(m) for x2 in range(m) for y in range(m)]
        goal = z3.Or(*[P[x][x] * (E + m - 1) <= E for x in range(m)])
        steps.append(proof_step(rf"every \(\varepsilon\)-LDP channel on {m} items, every \(\varepsilon \ge 0\)",
                                prove([Condition((), None, goal)], assumptions=assumptions,
                                      description=rf"\(m = {m}\)")))

    def violates(random_channel):
        channel = random_channel.channel
        eps = tightest(channel)
        if eps.is_infinite:
            return False
        E, m = eps.exponential(), len(channel.inputs)
        return min(channel.probability(x, x) for x in channel.inputs) > E / (E + m - 1)

    strategy = st.integers(2, settings.max_inputs + 1).flatmap(
        lambda m: random_channels(inputs=tuple(range(m)), outputs=tuple(range(m))))
    steps.append(search_step(r"random square channels at their tightest \(\varepsilon\); kernel",
                             find_counterexample(strategy, violates, settings),
                             lambda ex: {"channel": ex.to_json()}, settings))
    return decide(steps, r"\(\min_x P[x|x] \le e^{\varepsilon}/(e^{\varepsilon} + m - 1)\).", "")


@claim("gu2020.sec5a-naive.grr-explicit-inverse", location="Sec. V-A",
       statement="The frequency estimator of the original GRR can be regarded as a special case of the matrix "
                 "mechanism, where the inversion matrix can be explicitly calculated because there are only two "
                 "different perturbation probabilities.",
       methods=("z3",), recorded="verified",
       interpretation=r"Part of gu2020.sec5a-naive. Checked: the GRR matrix \(Q = (p - q) I + q J\) has inverse \((I - "
                      r"q J)/(p - q)\), so \(\hat y Q^{-1} = (\hat y - n q)/(p - q)\), the GRR estimator.")
def naive_grr_inverse(settings: AuditSettings):
    steps = []
    for d in (2, 3, 4, 5):
        E = z3.Real("E")
        rows = grr_rows(E, d)
        p, q = rows[0][0], rows[0][1]
        inverse = [[((1 if i == j else 0) - q) / (p - q) for j in range(d)] for i in range(d)]
        conditions = [Condition((i, j), None,
                                z3.Sum(*[rows[i][k] * inverse[k][j] for k in range(d)]) == (1 if i == j else 0))
                      for i in range(d) for j in range(d)]
        steps.append(proof_step(rf"\(d = {d}\), every \(\varepsilon > 0\)",
                                prove(conditions, assumptions=[E > 1], description=rf"\(d = {d}\)")))
    return decide(steps, "The inverse is explicit and reproduces the GRR estimator.", "")


@claim("gu2020.sec5a-naive.grr-frequency-term", location="Sec. V-A",
       statement="For GRR, the term that is related to the true frequencies only takes a small portion of MSE, thus "
                 "the approximate MSE can be independent of the unknown true frequencies.",
       methods=("z3", "exact"),
       recorded={"small_portion=minority": "verified", "small_portion=negligible": "refuted"},
       interpretation="Part of gu2020.sec5a-naive. 'Small' is the choice `small_portion`. On single-item data GRR's "
                      r"total MSE is \(n d (e^{\varepsilon}+d-2)/(e^{\varepsilon}-1)^2 + n (d-2)/(e^{\varepsilon}-1)\),"
                      r" the second term the one that carries the true counts; its share is "
                      r"\((d-2)(e^{\varepsilon}-1) "
                      r"/ (d(e^{\varepsilon}+d-2) + (d-2)(e^{\varepsilon}-1))\), below 1/2 for every \(d\) and "
                      r"\(\varepsilon\) (proved) and approaching 1/2 as \(d\) and \(\varepsilon\) grow. The "
                      r"statement is for GRR in general: every \(d \ge 2\) and \(\varepsilon > 0\).",
       choices=(SMALL_PORTION,))
def naive_grr_frequency_term(settings: AuditSettings, *, small_portion: str):
    d, E = z3.Reals("d E")
    share = (d - 2) * (E - 1) / (d * (E + d - 2) + (d - 2) * (E - 1))
    proof = proof_step(r"every \(d \ge 2\) and \(\varepsilon > 0\): share < 1/2",
                       prove([Condition((), None, small_portion_of(share, small_portion="minority"))],
                             assumptions=[d >= 2, E > 1],
                             description="share below one half"))
    near = float((1000 - 2) * (ctx.exp(10) - 1) / (1000 * (ctx.exp(10) + 998) + 998 * (ctx.exp(10) - 1)))
    evidence = Step(Evidence("exact", r"\(d = 1000\), \(\varepsilon = 10\)", f"share {near:.3f}"))
    if small_portion == "minority":
        return decide([proof, evidence], r"The frequency term is less than half of GRR's MSE for every \(d\) and "
                                         r"\(\varepsilon\) (proved), though it approaches one half.", "")

    def exact_share(d_value: int, e_value: Fraction) -> Fraction:
        return (d_value - 2) * (e_value - 1) / (d_value * (e_value + d_value - 2) + (d_value - 2) * (e_value - 1))

    # the smallest domain and an integer e^eps, then Fig. 3's power-law domain at eps = ln 20 (about 3)
    found = [(d_value, e_value, exact_share(d_value, Fraction(e_value))) for d_value, e_value in ((3, 3), (100, 20))]
    over = [(d_value, e_value, value) for d_value, e_value, value in found
            if not small_portion_of(value, small_portion=small_portion)]
    step = Step(Evidence("exact", r"rational \(e^{\varepsilon}\): \(d = 3\), \(e^{\varepsilon} = 3\); \(d = 100\), "
                                  r"\(e^{\varepsilon} = 20\)",
                         "; ".join(rf"\(d = {d_value}\), \(e^{{\varepsilon}} = {e_value}\): share {value} "
                                   f"= {float(value):.4f}" for d_value, e_value, value in found)),
                counterexample={"d": over[0][0], r"\(e^{\varepsilon}\)": over[0][1],
                                "frequency term / total MSE": f"{over[0][2]} = {float(over[0][2]):.4f}",
                                "also": rf"\(d = {over[1][0]}\), \(e^{{\varepsilon}} = {over[1][1]}\) "
                                        rf"(\(\varepsilon \approx 3.0\)): share {float(over[1][2]):.4f}",
                                "bound of the reading": "1/10"} if over else None)
    return decide([proof, evidence, step], "",
                  r"The frequency term is more than 10% of GRR's MSE already at \(d = 3\), \(e^{\varepsilon} = 3\) "
                  r"(exactly 1/7), and near one half for large \(d\) and \(\varepsilon\): not negligible.")

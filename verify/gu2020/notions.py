"""Gu et al. (ICDE 2020): claims about the notions (composition, Lemma 1, Table I, relations to ULDP).

Each claim relating notions is a statement about every channel; its condition
for one ordered pair of inputs and one output involves only a few entries of one
column. z3 proves that per-output inequality for all non-negative entries and
all budgets, which proves the claim for channels of every size. Hypothesis then
searches random exact channels through the kernel's own predicates.
"""

from __future__ import annotations

import itertools
from fractions import Fraction

import z3
from hypothesis import strategies as st

from ldpspec.reference.gu2020.levels import PrivacyLevels, worst_case_mse
from ldpspec.reference.shared.unary import oue, sue
from ldpspec.spec import (
    Channel,
    Exact,
    Nats,
    compose,
    ldp,
    ldp_epsilon,
    min_id_ldp,
    pairwise_loss,
    posterior_leakage_range,
    to_decimal_string,
)
from ldpspec.verify.claims import AuditSettings, Evidence, Step, claim, decide
from ldpspec.verify.common import (
    ALL_ENTRIES,
    channel_with_budgets,
    describe_channel_budgets,
    pointwise,
    raised_budgets,
    two_channels_with_increments,
    z3_min,
    z3_reals,
)
from ldpspec.verify.gu2020.builders import special_case_holds
from ldpspec.verify.gu2020.experiments import solve_read
from ldpspec.verify.gu2020.readings import SPECIAL_CASE
from ldpspec.verify.kernel_checks import KERNEL_CHECKS, kernel_check, labels_text, numbers_text, pairs_text
from ldpspec.verify.search import budget_values, find_counterexample, random_channels, search_step
from ldpspec.verify.symbolic import proof_step

# --- Theorem 1: sequential composition of LDP ---------------------------------------------------

@claim("gu2020.theorem1", location="Sec. III-B, Theorem 1 (citing McSherry 2009)",
       statement=r"If \(M_k\) satisfies \(\varepsilon_k\)-LDP for \(k = 1..K\), then \(M(x) = (M_1(x), \dots, "
                 r"M_K(x))\) satisfies \((\sum_k \varepsilon_k)\)-LDP.",
       methods=("z3", "hypothesis"), recorded="verified",
       interpretation="The printed formula is lost; the statement is the project's reconstruction (page of Gu et al., "
                      "'Reconstructions'). The mechanisms use independent coins.")
def theorem1(settings: AuditSettings):
    steps = []
    for K in (2, 3, 4):
        a, b, E = z3_reals("P_k(y_k|x)_", K), z3_reals("P_k(y_k|x')_", K), z3_reals("E_k", K)
        premises = [a[k] <= E[k] * b[k] for k in range(K)]
        goal = z3.Product(*a) <= z3.Product(*E) * z3.Product(*b)
        steps.append(proof_step(rf"\(K = {K}\): one input pair and one output tuple, {ALL_ENTRIES}",
                                pointwise(f"composition of {K} LDP mechanisms", premises, goal, a + b, E)))

    def violates(pair):
        first, second = pair[0].channel, pair[1].channel
        eps = [ldp_epsilon(first), ldp_epsilon(second)]
        if any(e.is_infinite for e in eps):
            return False
        return not ldp(compose(first, second), eps[0] + eps[1])

    inputs = st.integers(1, settings.max_inputs).map(lambda n: tuple(range(n)))
    strategy = inputs.flatmap(lambda xs: st.tuples(random_channels(inputs=xs, max_outputs=3),
                                                   random_channels(inputs=xs, max_outputs=3)))
    example = find_counterexample(strategy, violates, settings)
    steps.append(search_step(r"two random exact channels on the same inputs, each at its tightest \(\varepsilon_k\); "
                             "kernel: `ldp(compose(M1, M2), eps_1 + eps_2)`", example,
                             lambda pair: {"channels": [pair[0].to_json(), pair[1].to_json()]}, settings))
    return decide(steps, "The product of per-mechanism ratio bounds bounds the joint ratio.",
                  "A composition exceeds the summed budget.")


# --- Theorem 2: sequential composition of MinID-LDP --------------------------------------------

@claim("gu2020.theorem2", location="Sec. IV-A, Theorem 2",
       statement=r"If \(M_k\) satisfies \(\mathcal E_k\)-MinID-LDP for \(k = 1..K\), with \(\mathcal E_k = "
                 r"\{\varepsilon_x^{(k)}\}\), "
                 r"then \(M(x) = (M_1(x), \dots, M_K(x))\) satisfies \(\mathcal E\)-MinID-LDP with \(\varepsilon_x = "
                 r"\sum_k \varepsilon_x^{(k)}\).",
       methods=("z3", "hypothesis"), recorded="verified",
       interpretation="The printed formula is lost; the statement is the project's reconstruction (page of Gu et al., "
                      "'Reconstructions'). Independent coins.")
def theorem2(settings: AuditSettings):
    steps = []
    for K in (2, 3):
        a, b = z3_reals("P_k(y_k|x)_", K), z3_reals("P_k(y_k|x')_", K)
        Ex, Ex2 = z3_reals("E_k_x", K), z3_reals("E_k_x'", K)
        premises = [a[k] <= z3_min(Ex[k], Ex2[k]) * b[k] for k in range(K)]
        goal = z3.Product(*a) <= z3_min(z3.Product(*Ex), z3.Product(*Ex2)) * z3.Product(*b)
        steps.append(proof_step(rf"\(K = {K}\): one input pair and one output tuple, {ALL_ENTRIES}",
                                pointwise(f"composition of {K} MinID-LDP mechanisms", premises, goal, a + b, Ex + Ex2)))

    def budgets_of(channel, increments):
        return raised_budgets(channel, increments)

    def violates(example):
        (first, inc1), (second, inc2) = example
        b1, b2 = budgets_of(first.channel, inc1), budgets_of(second.channel, inc2)
        if b1 is None or b2 is None:
            return False
        summed = {x: b1[x] + b2[x] for x in first.inputs}
        return not min_id_ldp(compose(first.channel, second.channel), summed)

    example = find_counterexample(two_channels_with_increments(settings), violates, settings)
    steps.append(search_step("two random exact channels, each with MinID budgets (symmetric losses plus random "
                             "increments); kernel: `min_id_ldp(compose(M1, M2), summed budgets)`", example,
                             lambda ex: {"mechanisms": [describe_channel_budgets(part, budgets_of) for part in ex]},
                             settings))
    return decide(steps, r"\(\sum_k \min(\varepsilon_x^{(k)}, \varepsilon_{x'}^{(k)}) \le \min(\sum_k "
                         r"\varepsilon_x^{(k)}, \sum_k \varepsilon_{x'}^{(k)})\), so the composed ratio stays within "
                         "the summed budgets.",
                  "A composition of MinID-LDP mechanisms violates MinID-LDP with the summed budgets.")


# --- MinID-LDP generalises LDP -------------------------------------------------------------------

@claim("gu2020.minid-generalises-ldp", location="Sec. IV-B; slides 002 'Relationships with LDP' item 1",
       statement=r"If \(\varepsilon_x = \varepsilon\) for all \(x \in D\), then \(\mathcal E\)-MinID-LDP "
                 r"\(\Leftrightarrow \varepsilon\)-LDP. MinID-LDP is a generalized version of LDP.",
       methods=("z3", "hypothesis"), recorded="verified")
def minid_generalises_ldp(settings: AuditSettings):
    a, b, E = z3.Reals("P(y|x) P(y|x') E")
    minid, ldp_condition = a <= z3_min(E, E) * b, a <= E * b
    steps = [
        proof_step(rf"MinID condition \(\Rightarrow\) LDP condition for one pair and one output, {ALL_ENTRIES}",
                   pointwise("MinID with equal budgets implies LDP", [minid], ldp_condition, [a, b], [E])),
        proof_step(rf"LDP condition \(\Rightarrow\) MinID condition for one pair and one output, {ALL_ENTRIES}",
                   pointwise("LDP implies MinID with equal budgets", [ldp_condition], minid, [a, b], [E])),
    ]

    def violates(example):
        random_channel, eps = example
        channel = random_channel.channel
        return bool(ldp(channel, eps)) != bool(min_id_ldp(channel, {x: eps for x in channel.inputs}))

    strategy = st.tuples(random_channels(max_inputs=settings.max_inputs, max_outputs=settings.max_inputs),
                         budget_values)
    example = find_counterexample(strategy, violates, settings)
    steps.append(search_step("random exact channels and budgets; kernel: `ldp(ch, eps)` == `min_id_ldp(ch, eps for "
                             "all)`",
                             example, lambda ex: {"channel": ex[0].to_json(), "epsilon": str(ex[1])}, settings))
    return decide(steps, "With equal budgets every MinID condition is the LDP condition.",
                  "The two notions disagree on a channel with equal budgets.")


# --- Lemma 1 and the twofold relaxation ---------------------------------------------------------

def _lemma1b_proof(conclusion_budget):
    """z3: MinID among x, x', x_min (the input with the smallest budget) gives P(y|x) <= e^eps P(y|x')."""
    p, p2, pm = z3.Reals("P(y|x) P(y|x') P(y|x_min)")
    Ex, Ex2, Em, Emax, Eps = z3.Reals("E_x E_x' E_min E_max E_eps")
    entries = {"x": (p, Ex), "x'": (p2, Ex2), "x_min": (pm, Em)}
    premises = [Em <= Ex, Em <= Ex2, Ex <= Emax, Ex2 <= Emax]
    for (pu, Eu), (pv, Ev) in itertools.permutations(entries.values(), 2):
        premises.append(pu <= z3_min(Eu, Ev) * pv)
    premises.append(Eps >= conclusion_budget(Emax, Em))
    return pointwise("MinID-LDP implies LDP", premises, p <= Eps * p2, [p, p2, pm], [Ex, Ex2, Em, Emax, Eps])


def _lemma1b_search(settings: AuditSettings, budget_of):
    def violates(example):
        random_channel, increments = example
        channel = random_channel.channel
        budgets = raised_budgets(channel, increments)
        if budgets is None:
            return False
        return not ldp(channel, budget_of(list(budgets.values())))

    example = find_counterexample(channel_with_budgets(settings), violates, settings)
    return example, lambda ex: describe_channel_budgets(ex, raised_budgets)


@claim("gu2020.lemma1", location="Sec. IV-B, Lemma 1; slides 002 items 2-3",
       statement=r"(a) If \(\min\{\mathcal E\} \ge \varepsilon\), then \(\varepsilon\)-LDP \(\Rightarrow \mathcal "
                 r"E\)-MinID-LDP. (b) If \(\varepsilon \ge \min\{\max\{\mathcal E\}, 2 \min\{\mathcal E\}\}\), then "
                 r"\(\mathcal E\)-MinID-LDP \(\Rightarrow \varepsilon\)-LDP.",
       methods=("z3", "hypothesis"), recorded="verified")
def lemma1(settings: AuditSettings):
    a, b, E, Ex, Ex2 = z3.Reals("P(y|x) P(y|x') E_eps E_x E_x'")
    steps = [proof_step(f"(a): one pair and one output, {ALL_ENTRIES}",
                        pointwise("LDP implies MinID-LDP", [a <= E * b, Ex >= E, Ex2 >= E], a <= z3_min(Ex, Ex2) * b,
                                   [a, b], [E, Ex, Ex2])),
             proof_step(f"(b): one pair, the input with the smallest budget, one output; {ALL_ENTRIES}",
                        _lemma1b_proof(lambda Emax, Em: z3_min(Emax, Em * Em)))]

    def violates_a(example):
        random_channel, increments = example
        channel = random_channel.channel
        eps = ldp_epsilon(channel)
        if eps.is_infinite:
            return False
        return not min_id_ldp(channel, {x: eps + increments[k] for k, x in enumerate(channel.inputs)})

    example = find_counterexample(channel_with_budgets(settings), violates_a, settings)
    steps.append(search_step(r"(a): random exact channels at their tightest \(\varepsilon\), budgets \(\varepsilon\) "
                             "plus random increments; kernel: `min_id_ldp`", example,
                             lambda ex: {"channel": ex[0].to_json(), "increments": [str(v) for v in ex[1]]}, settings))
    example, describe = _lemma1b_search(settings, lambda budgets: min(max(budgets), 2 * min(budgets)))
    steps.append(search_step(r"(b): random exact channels with MinID budgets; kernel: `ldp` at \(\min\{\max \mathcal "
                             r"E, 2 \min \mathcal E\}\)",
                             example, describe, settings))
    return decide(steps, "Both directions hold; (b) goes through the input with the smallest budget, as the paper's "
                         "proof.",
                  "A channel violates one direction of Lemma 1.")


def _twofold_channel() -> tuple[Channel, dict]:
    """A channel that is E-MinID-LDP for E = {1, 5, 5} and exactly 2-LDP: the factor 2 is attained.

    Column 1 is (u e^2, u e, u) for inputs (a, m, b) with u = 1 / (e (e + 1)),
    the largest u for which the second column keeps (a, m) within e^1.
    """
    e = Exact.exp(1)
    u = 1 / (e * (e + 1))
    rows = [[u * e * e, 1 - u * e * e], [u * e, 1 - u * e], [u, 1 - u]]
    return Channel(("a", "m", "b"), ("y1", "y2"), rows), {"a": 5, "m": 1, "b": 5}


@claim("gu2020.lemma1-relaxation", location="Sec. I; Sec. IV-B after Lemma 1; Sec. VII 'Applicability'; Sec. VIII",
       statement=r"MinID-LDP relaxes LDP in at most twice of the privacy budget \(\min \mathcal E\), because of the "
                 "symmetry of indistinguishability and transitivity in a fully connected policy graph. The privacy "
                 r"benefit is bounded by \(2 \min \mathcal E\) even when other privacy budgets are higher. The twofold "
                 "relaxation does not mean utility improvement is at most twice.",
       methods=("z3", "hypothesis", "exact example"), recorded="verified",
       interpretation=r"Checked: every \(\mathcal E\)-MinID-LDP channel is \((2 \min \mathcal E)\)-LDP, whatever the "
                      "other budgets. The last sentence denies a utility bound and states none, so there is nothing in "
                      "it to check on channels.")
def lemma1_relaxation(settings: AuditSettings):
    steps = [proof_step(f"one pair, the input with the smallest budget, one output; {ALL_ENTRIES}",
                        _lemma1b_proof(lambda Emax, Em: Em * Em))]
    example, describe = _lemma1b_search(settings, lambda budgets: 2 * min(budgets))
    steps.append(search_step(r"random exact channels with MinID budgets; kernel: `ldp` at \(2 \min \mathcal "
                             r"E\)", example, describe,
                             settings))
    channel, budgets = _twofold_channel()
    holds, tight = bool(min_id_ldp(channel, budgets)), ldp_epsilon(channel)
    steps.append(Step(Evidence("exact example", r"\(\mathcal E = \{1, 5, 5\}\) on three inputs, two outputs (built by "
                                                "hand)",
                               rf"\(\mathcal E\)-MinID-LDP: {holds}; tightest LDP budget "
                               rf"\({to_decimal_string(tight, 25)} = 2 \min \mathcal E\), so the bound is attained")))
    if not holds or tight != 2:
        steps[-1].inconclusive = True
    return decide(steps, r"The relaxation is at most \(2 \min \mathcal E\), and the bound is attained.",
                  r"A MinID-LDP channel needs more than \(2 \min \mathcal E\) for LDP.",
                  "The attaining example did not behave as constructed.")


# --- Table I: prior-posterior leakage bounds ----------------------------------------------------

def _leakage_proof(n: int, premise, bound, description: str):
    """z3: with a symbolic prior on n inputs, e^{-b} <= P(y|x_0) / sum_x' pi(x') P(y|x') <= e^{b} (b = bound)."""
    P, E, pi = z3_reals("P(y|x)_", n), z3_reals("E_x", n), z3_reals("pi_", n)
    premises = [premise(P, E, i, k) for i in range(n) for k in range(n) if i != k]
    premises.append(z3.Sum(*pi) == 1)
    B, extra = bound(E)
    denominator = z3.Sum(*[w * p for w, p in zip(pi, P)])
    goal = z3.And(P[0] <= B * denominator, B * P[0] >= denominator)
    return pointwise(description, premises + extra, goal, P + pi, E)


@claim("gu2020.table1", location="Sec. IV-B, Table I and eq. (4)",
       statement="For LDP, PLDP, GI/CLDP and MinID-LDP, the prior-posterior leakage (4) has lower and upper bounds "
                 "independent of the prior, which can be directly derived from definitions or Lemma 1; MinID-LDP has "
                 r"an additional bound with respect to \(\min \mathcal E\).",
       methods=("z3", "hypothesis"), recorded="verified",
       interpretation="The table's entries are lost; checked are the project's reconstructions (page of Gu et al., "
                      r"'Reconstructions'): LDP and PLDP \([e^{-\varepsilon}, e^{\varepsilon}]\) (PLDP at the user's "
                      r"budget \(\varepsilon_u\), the same algebra), GI/CLDP \([e^{-\varepsilon \max_{x'} d(x,x')}, "
                      r"e^{\varepsilon \max_{x'} d(x,x')}]\), MinID-LDP \([e^{-\min(\varepsilon_x, 2 \min \mathcal "
                      r"E)}, e^{\min(\varepsilon_x, 2 \min \mathcal E)}]\). The bounds are symmetric, so both "
                      "orientations of (4) (the printed ratio's direction is lost) give the same interval.")
def table1(settings: AuditSettings):
    sizes = (2, 3, 4) if settings.deep else (2, 3)
    steps = []
    for n in sizes:
        steps.append(proof_step(
            rf"LDP and PLDP rows: {n} inputs, every prior, entries \(\ge 0\), \(\varepsilon \ge 0\)",
            _leakage_proof(n, lambda P, E, i, k: P[i] <= E[0] * P[k], lambda E: (E[0], []), "LDP leakage")))
        steps.append(proof_step(
            rf"GI/CLDP row: {n} inputs, every prior, every metric (triangle inequality), entries \(\ge 0\)",
            _gi_proof(n)))
        steps.append(proof_step(
            rf"MinID-LDP row: {n} inputs, every prior and budget set, entries \(\ge 0\)",
            _leakage_proof(n, lambda P, E, i, k: P[i] <= z3_min(E[i], E[k]) * P[k], _minid_bound, "MinID leakage")))

    def ldp_row_violates(random_channel):
        channel = random_channel.channel
        eps = ldp_epsilon(channel)
        return not eps.is_infinite and any(low < -eps or high > eps
                                           for low, high in posterior_leakage_range(channel).values())

    def minid_row_violates(example):
        random_channel, increments = example
        channel = random_channel.channel
        budgets = raised_budgets(channel, increments)
        if budgets is None:
            return False
        smallest = min(budgets.values())
        return any(low < -min(budgets[x], 2 * smallest) or high > min(budgets[x], 2 * smallest)
                   for (x, _), (low, high) in posterior_leakage_range(channel).items() if low.base)

    def gi_row_violates(random_channel):
        channel = random_channel.channel  # inputs 0..n-1 with the metric d(x, x') = |x - x'|
        losses = pairwise_loss(channel)
        if any(loss.is_infinite for loss, _ in losses.values()):
            return False
        eps = max((loss / abs(x - x2) for (x, x2), (loss, _) in losses.items()), default=Nats.rational(0))
        reach = {x: max((abs(x - x2) for x2 in channel.inputs), default=0) for x in channel.inputs}
        return any(low < -(eps * reach[x]) or high > eps * reach[x]
                   for (x, _), (low, high) in posterior_leakage_range(channel).items())

    channels = random_channels(max_inputs=settings.max_inputs, max_outputs=settings.max_inputs)
    example = find_counterexample(channels, ldp_row_violates, settings)
    steps.append(search_step(r"LDP row: random exact channels at their tightest \(\varepsilon\); kernel: "
                             "`posterior_leakage_range`",
                             example, lambda ex: {"channel": ex.to_json()}, settings))
    example = find_counterexample(channels, gi_row_violates, settings)
    steps.append(search_step(r"GI/CLDP row: metric \(|x - x'|\) on the inputs, tightest \(\varepsilon\); kernel: "
                             "`posterior_leakage_range`", example, lambda ex: {"channel": ex.to_json()},
                             settings))
    example = find_counterexample(channel_with_budgets(settings), minid_row_violates, settings)
    steps.append(search_step("MinID-LDP row: random exact channels with MinID budgets; kernel: "
                             "`posterior_leakage_range`",
                             example, lambda ex: describe_channel_budgets(ex, raised_budgets), settings))
    return decide(steps, "Every reconstructed row bounds the leakage for every prior.",
                  "A reconstructed row of Table I does not bound the leakage.")


def _minid_bound(E):
    """``e^{min(eps_0, 2 min E)}`` with ``E_min`` pinned to the smallest exponentiated budget."""
    E_min = z3.Real("E_min")
    extra = [z3.Or(*[E_min == e for e in E])] + [E_min <= e for e in E]
    return z3_min(E[0], E_min * E_min), extra


def _gi_proof(n: int):
    """z3: P(y|x) <= e^{eps d(x,x')} P(y|x') for a metric d gives leakage within e^{+-eps max_x' d(x_0, x')}."""
    P, pi = z3_reals("P(y|x)_", n), z3_reals("pi_", n)
    D = {(i, k): z3.Real(f"exp(eps d({i},{k}))") for i in range(n) for k in range(n) if i != k}
    premises = [z3.Sum(*pi) == 1]
    premises += [D[(i, k)] == D[(k, i)] for i, k in D]
    premises += [D[(i, k)] <= D[(i, j)] * D[(j, k)] for i, k in D for j in range(n) if j not in (i, k)]
    premises += [P[i] <= D[(i, k)] * P[k] for i, k in D]
    reach = z3.Real("exp(eps max d(0, .))")
    premises += [reach >= D[(0, k)] for k in range(1, n)] + [reach >= 1]
    denominator = z3.Sum(*[w * p for w, p in zip(pi, P)])
    goal = z3.And(P[0] <= reach * denominator, reach * P[0] >= denominator)
    return pointwise("GI leakage", premises, goal, P + pi, list(D.values()))


@claim("gu2020.lemma1-relaxation.utility", location="Sec. IV-B after Lemma 1",
       statement="The twice relaxation in privacy budget does not mean utility improvement is at most twice compared "
                 "to LDP (depending on the query and data distribution).",
       methods=("solver", "exact kernel"), recorded="verified",
       interpretation=r"Checked as the possibility it states, against the LDP mechanisms the paper compares: levels "
                      r"where IDUE's worst-case MSE (9) is less than half of RAPPOR's and of OUE's at \(\varepsilon = "
                      r"\min \mathcal E\) (exact). IDUE's value is a kernel-verified opt0 point's, an upper bound on "
                      "its optimum, so the improvement is at least the ratio shown.")
def lemma1_relaxation_utility(settings: AuditSettings):
    levels = PrivacyLevels.from_sizes([1, 4], [1, 99])
    solution = solve_read(levels, "opt0")
    value = worst_case_mse(levels.sizes, solution.a, solution.b)
    baselines = {name: worst_case_mse([levels.items], [bit.p], [bit.q])
                 for name, bit in (("RAPPOR", sue(1, 2).bits[0]), ("OUE", oue(1, 2).bits[0]))}
    ratio = min(baselines.values()) / value
    found = solution.verified and ratio > 2
    step = Step(Evidence("solver + exact kernel", r"levels \(\{1, 4\}\) with 1 and 99 items; RAPPOR and OUE at "
                                                  r"\(\varepsilon = 1\)",
                         rf"IDUE's verified point: worst case \({float(value):.3f}n\); "
                         + ", ".join(rf"{name} \({to_decimal_string(v, 6)}n\)" for name, v in baselines.items())
                         + f"; improvement at least {to_decimal_string(ratio, 4)} times"),
                inconclusive=not found)
    return decide([step], r"With one item at \(\varepsilon = 1\) and 99 at 4, IDUE's worst-case MSE is less than "
                          "half of RAPPOR's and OUE's at the smaller budget: the improvement exceeds twice.", "")


# --- ULDP as a special case, and incomplete policy graphs (Sec. IV-B, Sec. VIII) ------------------

def _urr_channel() -> tuple[Channel, list, list]:
    """uRR (Murakami and Kawamoto 2019; Cao et al. Sec. 2) with X_sen = {hiv, cancer}, X_non = {flu, none},
    eps = ln 3: D = k + e^eps - 1 = 4."""
    items = ["hiv", "cancer", "flu", "none"]
    rows = [[3, 1, 0, 0], [1, 3, 0, 0], [1, 1, 2, 0], [1, 1, 0, 2]]  # quarters: c1 = 3/4, c2 = 1/4, c3 = 1/2
    return Channel(items, items, [[f"{w}/4" for w in row] for row in rows]), ["hiv", "cancer"], ["hiv", "cancer"]


@claim("gu2020.uldp-relation.not-ldp", location="Sec. IV-B; slides 002",
       statement="ULDP does not guarantee LDP: sensitive and non-sensitive inputs can be fully distinguished when "
                 "observing some outputs (invertible data).",
       methods=("exact example",), recorded="verified",
       interpretation=r"Part of gu2020.uldp-relation. Checked: a channel that is ULDP but not \(\varepsilon\)-LDP for "
                      r"any \(\varepsilon\).")
def uldp_not_ldp(settings: AuditSettings):
    from ldpspec.spec import uldp

    channel, sensitive, protected = _urr_channel()
    holds, tight = bool(uldp(channel, sensitive, protected, "log(3)")), ldp_epsilon(channel)
    step = Step(Evidence("exact example", r"uRR on {hiv, cancer | flu, none} at \(\varepsilon = \ln 3\)",
                         rf"\((X_{{sen}}, Y_{{pro}}, \ln 3)\)-ULDP: {holds}; tightest LDP budget: "
                         f"{to_decimal_string(tight, 10)}"),
                inconclusive=not holds)
    if holds and tight.is_infinite:
        return decide([step], "uRR is ULDP and is not LDP for any budget (its invertible outputs).", "")
    return decide([step], "", "", "The example did not behave as constructed.")


@claim("gu2020.uldp-relation.minid-guarantees-ldp", location="Sec. IV-B; slides 002",
       statement="MinID-LDP relaxes LDP by providing distinct bounds of privacy leakage for multiple privacy levels of "
                 "inputs and also guarantees LDP with some privacy budgets (refer to Lemma 1).",
       methods=("z3", "hypothesis"), recorded="verified",
       interpretation=r"Part of gu2020.uldp-relation: every \(\mathcal E\)-MinID-LDP channel with finite budgets is "
                      r"\(\varepsilon\)-LDP for some finite \(\varepsilon\), namely \(\varepsilon = \min\{\max "
                      r"\mathcal E, 2 \min \mathcal E\}\); the check is Lemma 1(b)'s.")
def minid_guarantees_ldp(settings: AuditSettings):
    steps = [proof_step(f"one pair, the input with the smallest budget, one output; {ALL_ENTRIES}",
                        _lemma1b_proof(lambda Emax, Em: z3_min(Emax, Em * Em)))]
    example, describe = _lemma1b_search(settings, lambda budgets: min(max(budgets), 2 * min(budgets)))
    steps.append(search_step(r"random exact channels with finite MinID budgets; kernel: `ldp` at \(\min\{\max \mathcal "
                             r"E, 2 \min \mathcal E\}\)",
                             example, describe, settings))
    return decide(steps, "Finite MinID budgets always give a finite LDP budget.", "A MinID-LDP channel is not LDP.")


def _special_case_checks(urr, closed, sensitive: list, protected: list) -> list[dict]:
    """The kernel checks (verify/kernel_checks.py) behind the separation of ULDP and MinID-LDP on uRR's domain, one
    graph of each kind: uRR is ULDP at ln 3 and is not MinID-LDP on a graph with a pair that holds a non-sensitive
    input; the second channel is not ULDP and is MinID-LDP on the graph of the sensitive pair (the other incomplete
    graph is empty, on which every channel is MinID-LDP)."""
    uldp_parameters = {"sensitive": labels_text(sensitive), "protected": labels_text(protected), "epsilon": "log(3)"}
    budgets = {"budgets": numbers_text(["log(3)", "log(3)", 5, 5])}
    levels = "budgets log(3) for hiv and cancer and 5 for flu and none"
    return [
        kernel_check(urr, "uldp", uldp_parameters, expected="holds",
                     what="uRR (hiv and cancer sensitive and protected, flu and none not) is ULDP at budget log(3)"),
        kernel_check(urr, "minid-ldp", {**budgets, "policy": pairs_text([("hiv", "flu")])}, expected="does not hold",
                     what=f"uRR is not MinID-LDP on the graph with the one pair (hiv, flu), with {levels}: the output "
                          "flu has probability 0 from hiv"),
        kernel_check(closed, "uldp", uldp_parameters, expected="does not hold",
                     what="The second channel (hiv and cancer to either of them with probability 1/2, flu and none "
                          "to themselves) is not ULDP at budget log(3)"),
        kernel_check(closed, "minid-ldp", {**budgets, "policy": pairs_text([("hiv", "cancer")])}, expected="holds",
                     what=f"The second channel is MinID-LDP on the graph of the sensitive pair (hiv, cancer), with "
                          f"{levels}"),
    ]


@claim("gu2020.uldp-relation.special-case", location="Sec. IV-B; slides 002",
       statement="ULDP can be regarded as a special case of the proposed MinID-LDP under two privacy levels of inputs "
                 "(sensitive and non-sensitive) but with incomplete privacy policy graph.",
       methods=("exact example", "exhaustive"),
       recorded={"special_case=contained": "verified", "special_case=equal": "refuted"},
       interpretation="The graph is not given; what 'special case' means is the choice `special_case`. Contained: with "
                      r"the graph that keeps the pairs of sensitive inputs and their budget \(\varepsilon\), "
                      "every ULDP channel is MinID-LDP: a protected output bounds every pair by "
                      r"\(e^{\varepsilon}\), and an unprotected output has probability 0 from every sensitive input. "
                      "Checked on uRR and on seeded random ULDP channels with the kernel. Equal: on uRR's domain "
                      "(hiv, cancer sensitive and protected; flu, none not), for every incomplete graph of the four "
                      "inputs and two levels of budgets, one of two exact channels separates the notions: uRR (ULDP) "
                      "fails MinID-LDP on a graph with a pair that holds a non-sensitive input (an unprotected output "
                      "has probability 0 from the other input), and a channel that never sends a non-sensitive input "
                      "to a protected output (not ULDP) satisfies MinID-LDP on every other graph.",
       choices=(SPECIAL_CASE,))
def uldp_special_case(settings: AuditSettings, *, special_case: str):
    import random

    from ldpspec.spec import uldp

    channel, sensitive, protected = _urr_channel()
    items = list(channel.inputs)
    if special_case == "contained":
        pairs = [("hiv", "cancer")]
        budgets = {"hiv": "log(3)", "cancer": "log(3)", "flu": 5, "none": 5}
        urr_uldp = bool(uldp(channel, sensitive, protected, "log(3)"))
        urr_holds = urr_uldp and special_case_holds(urr_uldp, bool(min_id_ldp(channel, budgets, policy=pairs)),
                                                    special_case=special_case)
        rng = random.Random(4)
        failures, tried = [], 0
        for _ in range(60):
            weights = {"hiv": [rng.randint(1, 9), rng.randint(1, 9), 0, 0],
                       "cancer": [rng.randint(1, 9), rng.randint(1, 9), 0, 0],
                       "flu": [rng.randint(1, 9), rng.randint(1, 9), rng.randint(1, 9), 0],
                       "none": [rng.randint(1, 9), rng.randint(1, 9), 0, rng.randint(1, 9)]}
            rows = [[Fraction(w, sum(weights[x])) for w in weights[x]] for x in items]
            ratio = max(rows[i][y] / rows[j][y] for y in range(2) for i in range(4) for j in range(4))
            candidate = Channel(items, items, rows)
            if not uldp(candidate, sensitive, protected, f"log({ratio})"):
                continue
            tried += 1
            level = {"hiv": f"log({ratio})", "cancer": f"log({ratio})", "flu": 50, "none": 50}
            if not special_case_holds(True, bool(min_id_ldp(candidate, level, policy=pairs)),
                                      special_case=special_case):
                failures.append({"channel": [[str(v) for v in row] for row in rows],
                                 r"\(\varepsilon\)": rf"\(\ln {ratio}\)"})
        steps = [Step(Evidence("exact example", r"uRR at \(\varepsilon = \ln 3\); graph: the pair (hiv, cancer)",
                               f"ULDP and MinID-LDP on the graph: {urr_holds}"), inconclusive=not urr_holds),
                 Step(Evidence("exhaustive", "seeded random ULDP channels on uRR's domain (protected outputs hiv, "
                                             "cancer; each unprotected output from its own non-sensitive input), "
                                             r"\(\varepsilon\) their tightest ratio; graph: the pair (hiv, cancer)",
                               f"{tried} ULDP channels, MinID-LDP on the graph fails on {len(failures)}"),
                      counterexample=failures[0] if failures else None)]
        return decide(steps, "Every ULDP channel is MinID-LDP on the graph of the sensitive pairs, with the ULDP "
                             "budget.", "A ULDP channel is not MinID-LDP on the graph of the sensitive pairs.")
    closed = Channel(items, items, [["1/2", "1/2", 0, 0], ["1/2", "1/2", 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]])
    all_pairs = list(itertools.combinations(items, 2))
    levels = [("log(3)", "log(3)"), ("log(3)", 5), (1, 100)]
    unseparated = []
    for size in range(len(all_pairs)):  # every incomplete graph
        for graph in itertools.combinations(all_pairs, size):
            for low, high in levels:
                budgets = {"hiv": low, "cancer": low, "flu": high, "none": high}
                urr_separates = not special_case_holds(True, bool(min_id_ldp(channel, budgets, policy=list(graph))),
                                                       special_case=special_case)
                closed_separates = not special_case_holds(bool(uldp(closed, sensitive, protected, low)),
                                                          bool(min_id_ldp(closed, budgets, policy=list(graph))),
                                                          special_case=special_case)
                if not (urr_separates or closed_separates):
                    unseparated.append((graph, low, high))
    steps = [Step(Evidence("exhaustive", r"uRR's domain; the 63 incomplete graphs of its 4 inputs; budgets (sensitive, "
                                         r"non-sensitive) \((\ln 3, \ln 3)\), \((\ln 3, 5)\), \((1, 100)\)",
                           f"graphs and budgets where neither channel separates MinID-LDP from ULDP: "
                           f"{len(unseparated)}"),
                  counterexample={"ULDP channel (uRR)": [["3/4", "1/4", 0, 0], ["1/4", "3/4", 0, 0],
                                                         ["1/4", "1/4", "1/2", 0], ["1/4", "1/4", 0, "1/2"]],
                                  "channel that is not ULDP": [["1/2", "1/2", 0, 0], ["1/2", "1/2", 0, 0],
                                                               [0, 0, 1, 0], [0, 0, 0, 1]],
                                  "inputs and outputs": items, "sensitive and protected": sensitive,
                                  "why": r"on a graph with a pair that holds flu or none, uRR (ULDP at \(\ln 3\)) "
                                         "is not MinID-LDP for any finite budgets; on every other incomplete graph the "
                                         "second channel is MinID-LDP but not ULDP",
                                  KERNEL_CHECKS: _special_case_checks(channel, closed, sensitive, protected)}
                  if not unseparated else None,
                  inconclusive=bool(unseparated))]
    return decide(steps, "", "No incomplete graph with two levels of budgets makes MinID-LDP coincide with ULDP on "
                             "uRR's domain.", "Some graph was not separated; see the evidence.")


@claim("gu2020.sec8-policy-graph", location="Sec. VIII 'Additional Gain from Incomplete Privacy Policy Graph'",
       statement="If some of the pairs do not need to be protected (an incomplete policy graph, as the secret policy "
                 r"of Blowfish privacy), the gain of MinID-LDP can be larger than \(2 \min \mathcal E\).",
       methods=("exact example",), recorded="verified",
       interpretation=r"Checked: a channel that is \(\mathcal E\)-MinID-LDP on an incomplete policy graph and is not "
                      r"\((2 \min \mathcal E)\)-LDP.")
def policy_graph(settings: AuditSettings):
    channel = Channel(["flu", "cold", "hiv"], ["a", "b", "z"],
                      [["99/100", "1/100", 0], ["1/100", "99/100", 0], [0, 0, 1]])
    budgets = {"flu": 5, "cold": 5, "hiv": 1}
    on_graph = min_id_ldp(channel, budgets, policy=[("flu", "cold")])
    tight = ldp_epsilon(channel)
    step = Step(Evidence("exact example", r"three inputs, \(\mathcal E = \{5, 5, 1\}\), policy graph {flu-cold}",
                         f"MinID-LDP on the graph: {on_graph.holds}; tightest LDP budget "
                         rf"{to_decimal_string(tight, 10)} \(> 2 \min \mathcal E = 2\)"),
                inconclusive=not (on_graph.holds and tight > 2))
    return decide([step], "Without the edges to the input with the smallest budget, the LDP budget is unbounded.", "")

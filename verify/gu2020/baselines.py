"""Gu et al. (ICDE 2020), Sec. III-C and V-A: the LDP baselines (GRR, unary encoding, SUE, OUE) and the matrix mechanism."""

from __future__ import annotations

import itertools
from fractions import Fraction

import z3
from hypothesis import strategies as st

from reference.grr import grr_channel, grr_rows
from reference.unary import (
    general_unary_probabilities,
    one_hot_bit_distributions,
    oue_channel,
    oue_probabilities,
    sue_channel,
    sue_probabilities,
    unary_encoding,
)
from spec.loss import ldp_epsilon
from spec.notions import ldp
from spec.numbers import RESOLUTION, ctx, mpf, to_decimal_string
from spec.structured import bit_vector_probability
from verify.ledger import AuditSettings, Evidence, Step, claim, decide
from verify.search import find_counterexample, search_step
from verify.symbolic import Condition, SymbolicBudget, SymbolicChannel, ldp_conditions, proof_step, prove

# --- The LDP baselines: GRR, unary encoding, SUE, OUE -------------------------------------------

def _tightness_step(name: str, build, cases) -> Step:
    """Kernel evidence: at sample budgets and sizes the tightest LDP budget equals eps exactly."""
    worst = max(abs(ldp_epsilon(build(eps, d)) - ctx.mpf(eps)) for eps, d in cases)
    step = Step(Evidence("exact kernel", f"{name} at (eps, d) in {cases}",
                         f"tightest LDP budget equals eps (largest difference {to_decimal_string(worst, 3)})"))
    step.inconclusive = worst > RESOLUTION
    return step


EPSILON_CASES = [("0.1", 2), ("1", 5), ("1.3862943611198906188344642429163531361510", 3), ("10", 4), ("1000", 3)]


@claim("gu2020.sec3c-baselines.grr-ldp", location="Sec. III-C; formula sheet common §6",
       statement="GRR, reporting the true item with p = e^eps/(e^eps + d - 1) and each other item with "
                 "q = 1/(e^eps + d - 1), satisfies eps-LDP.",
       methods=("z3", "exact kernel"), recorded="verified",
       reading="Part of the compound claim gu2020.sec3c-baselines: the privacy of GRR.")
def grr_ldp(settings: AuditSettings):
    steps = []
    for d in range(2, 13 if settings.deep else 9):
        budget = SymbolicBudget("eps")
        channel = SymbolicChannel.from_matrix(range(d), range(d), grr_rows(budget.variable, d))
        result = prove(ldp_conditions(channel, budget.exponentiated), [budget], description=f"GRR d={d}",
                       confirm=lambda b, d=d: not ldp(grr_channel(b["eps"], d), b["eps"]))
        steps.append(proof_step(f"d = {d}, every eps > 0, the whole output", result))
    steps.append(_tightness_step("GRR", grr_channel, EPSILON_CASES))
    return decide(steps, "GRR is eps-LDP for every eps > 0, and eps is its tightest budget.", "GRR violates eps-LDP.")


def _symbolic_unary(bits, d: int) -> SymbolicChannel:
    return SymbolicChannel(tuple(range(d)), tuple(itertools.product((0, 1), repeat=d)),
                           lambda x, y: bit_vector_probability(one_hot_bit_distributions([bits] * d, x), y))


@claim("gu2020.sec3c-baselines.ue-ldp", location="Sec. III-C (citing Wang et al. 2017); formula sheet common §7",
       statement="Unary encoding with keep probability p and flip-on probability q satisfies eps-LDP with "
                 "eps = ln(p(1 - q) / ((1 - p) q)).",
       methods=("z3", "hypothesis"), recorded="verified",
       reading="Part of gu2020.sec3c-baselines. Checked for 0 < q <= p < 1, where the formula is a budget "
               "(it is negative when p < q and infinite at q = 0 or p = 1). The whole bit vector is the output.")
def ue_ldp(settings: AuditSettings):
    steps = []
    p, q = z3.Reals("p q")
    for d in (2, 3, 4, 5) if settings.deep else (2, 3, 4):
        channel = _symbolic_unary(general_unary_probabilities(p, q), d)
        # P[y|i] <= (p(1-q) / ((1-p) q)) P[y|j], multiplied through by (1 - p) q > 0.
        conditions = [Condition((i, j), y, (1 - p) * q * channel.probability(i, y) <= p * (1 - q) * channel.probability(j, y))
                      for i in range(d) for j in range(d) if i != j for y in channel.outputs]
        result = prove(conditions, assumptions=[q > 0, q <= p, p < 1], description=f"UE d={d}")
        steps.append(proof_step(f"d = {d}, every 0 < q <= p < 1, all 2^d outputs", result))

    def violates(example):
        (p_weight, q_weight), d = example
        p_value, q_value = Fraction(max(p_weight, q_weight), 64), Fraction(min(p_weight, q_weight), 64)
        channel = unary_encoding(p_value, q_value, d).channel()
        formula = ctx.log(mpf(p_value) * (1 - mpf(q_value)) / ((1 - mpf(p_value)) * mpf(q_value)))
        return abs(ldp_epsilon(channel) - formula) > RESOLUTION or abs(ldp_epsilon(channel.explicit()) - formula) > RESOLUTION

    strategy = st.tuples(st.tuples(st.integers(1, 63), st.integers(1, 63)), st.integers(2, 5))
    example = find_counterexample(strategy, violates, settings)
    steps.append(search_step("p, q in {1/64, ..., 63/64}, d <= 5: the kernel's tightest budget, from the bit structure "
                             "and from the explicit matrix, equals the formula", example,
                             lambda ex: {"p": str(Fraction(max(ex[0]), 64)), "q": str(Fraction(min(ex[0]), 64)), "d": ex[1]},
                             settings))
    return decide(steps, "UE is LDP with exactly that budget (the bound is attained at y_i = 1, y_j = 0).",
                  "UE's privacy differs from the formula.")


def _unary_claim(name: str, probabilities, divisor: int, build, settings: AuditSettings):
    steps = []
    for d in (2, 3, 4, 5) if settings.deep else (2, 3, 4):
        budget = SymbolicBudget("eps", divisor=divisor)
        channel = _symbolic_unary(probabilities(budget.variable), d)
        result = prove(ldp_conditions(channel, budget.exponentiated), [budget], description=f"{name} d={d}",
                       confirm=lambda b, d=d: not ldp(build(b["eps"], d), b["eps"]))
        steps.append(proof_step(f"d = {d}, every eps > 0, the whole bit vector", result))
    steps.append(_tightness_step(name, build, EPSILON_CASES))
    return decide(steps, f"{name} is eps-LDP for every eps > 0, and eps is its tightest budget.",
                  f"{name} violates eps-LDP.")


@claim("gu2020.sec3c-baselines.sue-ldp", location="Sec. III-C; formula sheet common §7",
       statement="Basic RAPPOR (SUE) with p = e^{eps/2}/(e^{eps/2} + 1) and q = 1/(e^{eps/2} + 1) satisfies eps-LDP.",
       methods=("z3", "exact kernel"), recorded="verified", reading="Part of gu2020.sec3c-baselines.")
def sue_ldp(settings: AuditSettings):
    return _unary_claim("SUE", sue_probabilities, 2, sue_channel, settings)


@claim("gu2020.sec3c-baselines.oue-ldp", location="Sec. III-C; slides 002; formula sheet common §7",
       statement="OUE with p = 1/2 and q = 1/(e^eps + 1) satisfies eps-LDP.",
       methods=("z3", "exact kernel"), recorded="verified", reading="Part of gu2020.sec3c-baselines.")
def oue_ldp(settings: AuditSettings):
    return _unary_claim("OUE", oue_probabilities, 1, oue_channel, settings)

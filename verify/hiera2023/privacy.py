"""Claims of Hao et al. 2023 about privacy: composition (Theorem 1), the Laplace and graded Laplace mechanisms
(Sec. 3.1), the baselines as the paper cites them (Sec. 2), and LHP (contribution (1), Theorem 2).

Privacy is judged on the whole release: for LHP the pair ``(t*, v*)``. Harmony's and LHP's probabilities are affine
in the value on each level's interval, so the kernel decides them for every number of [-1, 1] (their ``family()``,
by the segment-end lemma of ``spec.families``); graded Laplace is decided on a grid that holds every interval end
point, where a counterexample on the grid is one on the interval.
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache

import z3

from ldpspec.reference.hiera2023.graded_laplace import GradedLaplace
from ldpspec.reference.hiera2023.levels import PAPER_BOUNDARIES, PAPER_MULTIPLIERS
from ldpspec.reference.shared.grr import grr_probabilities
from ldpspec.reference.shared.harmony import Harmony, harmony_probability, harmony_scale
from ldpspec.reference.shared.laplace import laplace_density
from ldpspec.reference.shared.pm import pm_variance
from ldpspec.spec import (
    Channel,
    Exact,
    Infinity,
    budget,
    compose,
    ldp,
    ldp_epsilon,
    pairwise_loss,
    to_decimal_string,
)
from ldpspec.verify.audit import outcome
from ldpspec.verify.claims import AuditSettings, Evidence, Outcome, Step, claim, decide
from ldpspec.verify.common import ALL_ENTRIES, pointwise, prove_identity, two_channels_with_increments, z3_max
from ldpspec.verify.hiera2023.builders import (
    graded_privacy,
    graded_privacy_check,
    level_privacy,
    level_privacy_check,
    lhp,
    release_spread,
)
from ldpspec.verify.hiera2023.readings import LEVEL_BUDGET, PAIR_FUNCTION, VARIANCE_MEANING
from ldpspec.verify.kernel_checks import KERNEL_CHECKS
from ldpspec.verify.search import find_counterexample, search_step
from ldpspec.verify.symbolic import proof_step

PAPER_EPS0 = (Fraction(1, 10), Fraction(1), Fraction(2))
"""Base budgets at which the paper's five levels (5 eps_0, ..., eps_0) are checked."""


def paper_budgets(eps0) -> tuple:
    return tuple(eps0 * m for m in PAPER_MULTIPLIERS)


def verdict_counterexample(verdict, **context) -> dict:
    """A kernel verdict's witness as a counterexample (with what was checked)."""
    return {"method": "exact", **context, "verdict": verdict.to_json()}


# --- Theorem 1: sequential composition ----------------------------------------------------------

@claim("hiera2023.theorem1", location="Sec. 3.1, Theorem 1",
       statement=r"If \(M_i\) satisfies \(\varepsilon_i\)-LDP, then \((M_1, \dots, M_k)\) satisfies \((\sum_i "
                 r"\varepsilon_i)\)-LDP.",
       methods=("z3", "hypothesis"), recorded="verified",
       interpretation="Independent coins; the composed output is the tuple of all outputs.")
def theorem1(settings: AuditSettings):
    a1, b1, a2, b2, E1, E2 = z3.Reals("P1(y1|x) P1(y1|x') P2(y2|x) P2(y2|x') E1 E2")
    steps = [proof_step(rf"two mechanisms, one input pair and one output pair; {ALL_ENTRIES}; \(k > 2\) by induction",
                        pointwise("composition", [a1 <= E1 * b1, a2 <= E2 * b2], a1 * a2 <= E1 * E2 * (b1 * b2),
                                  [a1, b1, a2, b2], [E1, E2]))]

    def violates(example):
        (first, _), (second, _) = example
        eps1, eps2 = ldp_epsilon(first.channel), ldp_epsilon(second.channel)
        if eps1.is_infinite or eps2.is_infinite:
            return False
        return not ldp(compose(first.channel, second.channel), eps1 + eps2)

    example = find_counterexample(two_channels_with_increments(settings), violates, settings)
    steps.append(search_step("two random exact channels at their tightest budgets; kernel: `ldp(compose(M1, M2), eps1 "
                             "+ eps2)`", example,
                             lambda ex: {"channels": [part[0].to_json() for part in ex]}, settings))
    return decide(steps, "The ratios multiply, so the budgets add.", "A composition needs more than the summed budget.")


# --- the Laplace mechanism and graded Laplace (Sec. 3.1) ------------------------------------------

LAPLACE_SCALES = (Fraction(1, 4), Fraction(1, 2), Fraction(1), Fraction(2), Fraction(20), Fraction(200))


@claim("hiera2023.laplace.moments", location="Sec. 3.1",
       statement=r"\(\operatorname{Lap}(\lambda)\) has expectation 0 and variance \(2 \lambda^2\).",
       methods=("exact",), recorded="verified",
       interpretation=r"\(\operatorname{Lap}(\lambda)\) has the density \(e^{-|z|/\lambda} / (2 \lambda)\). Its "
                      "moments are integrated exactly (by parts, over the two exponential pieces) at each scale "
                      r"checked; a symbolic integral over every \(\lambda\) is beyond z3, so the scales are a grid "
                      "from 1/4 to 200.")
def laplace_moments(settings: AuditSettings):
    failures = []
    for scale in LAPLACE_SCALES:
        density = laplace_density(2 / scale, 0)  # v + Lap(2 / eps) at v = 0: Lap(scale)
        if density.mass != 1 or density.moment(1) != 0 or density.moment(2) != Exact.rational(2 * scale ** 2):
            failures.append({"lambda": str(scale), "mass": density.mass.text(), "mean": density.moment(1).text(),
                             "second moment": density.moment(2).text()})
    scope = (rf"\(\operatorname{{Lap}}(\lambda)\) for \(\lambda\) in {{{', '.join(str(s) for s in LAPLACE_SCALES)}}}: "
             "mass, mean, variance exactly")
    step = Step(Evidence("exact", scope, r"mass 1, mean 0, variance \(2 \lambda^2\) at every scale" if not failures
                         else f"{len(failures)} scales differ"),
                counterexample={"method": "exact", "scope": scope, "scales": failures} if failures else None)
    return decide([step], r"Exact integration gives mean 0 and variance \(2 \lambda^2\).", "A moment differs.")


@claim("hiera2023.laplace.range", location="Sec. 3.1",
       statement="For all inputs the Laplace mechanism's output range is (-inf, +inf), and its noise has expectation 0 "
                 "at all levels.",
       methods=("exact",), recorded="verified",
       interpretation=r"Checked on graded Laplace with the paper's five levels (budgets \(5 \varepsilon_0\) .. "
                      r"\(\varepsilon_0\)) at \(\varepsilon_0 \in \{1/10, 1, 2\}\), every interval end point an input: "
                      "every input's density is positive on every cell of the whole line, and its mean is the input "
                      "exactly.")
def laplace_range(settings: AuditSettings):
    failures = []
    for eps0 in PAPER_EPS0:
        mechanism = GradedLaplace(PAPER_BOUNDARIES, paper_budgets(eps0))
        channel = mechanism.channel()
        cells = channel.cells(None)
        covers = isinstance(cells[0][0], Infinity) and isinstance(cells[-1][1], Infinity)
        for x in channel.inputs:
            density = channel.density(x, None)
            positive = all(c > 0 for c, _ in density.terms_on_cells(cells))
            if not (covers and positive and density.moment(1) == Exact.of(x)):
                failures.append({"eps0": str(eps0), "input": x})
    scope = r"graded Laplace, paper levels, \(\varepsilon_0 \in \{1/10, 1, 2\}\); inputs the six end points"
    step = Step(Evidence("exact", scope, "every density positive on (-inf, inf), mean = input" if not failures
                         else "a density vanishes somewhere or its mean differs"),
                counterexample={"method": "exact", "scope": scope, "failures": failures} if failures else None)
    return decide([step], "Every input's release ranges over the whole line, with mean the input.",
                  "An input's release misses part of the line or is biased.")


@claim("hiera2023.laplace.challenges", location="Sec. 3.1",
       statement="Therefore, the simple graded Laplace mechanism solves challenges (1) (the privacy level is itself "
                 "private and cannot be sent directly) and (2) (the output domains under different levels must be the "
                 "same) and can be used for the graded collection of numerical data.",
       methods=("exact",), recorded="refuted", choices=(PAIR_FUNCTION,),
       interpretation="Challenge (1) is read as the release meeting graded LDP (Definition 2) under the pair function "
                      r"\(r\); challenge (2) as every input reaching the same outputs. The release is \(y\) alone.")
def laplace_challenges(settings: AuditSettings, pair_function: str):
    steps = []
    for boundaries, budgets in ((("-1", "0", "1"), (2, 1)), (PAPER_BOUNDARIES, paper_budgets(Fraction(1)))):
        channel = GradedLaplace(boundaries, budgets).channel()
        verdict = graded_privacy(channel, boundaries, budgets, pair_function=pair_function)
        scope = (f"graded Laplace, boundaries {list(boundaries)}, budgets {[str(b) for b in budgets]}, inputs the end "
                 rf"points; kernel: `graded_ldp` with \(r\) = `{pair_function}`")
        steps.append(Step(Evidence("exact", scope, "holds" if verdict.holds else "does not hold: the loss between "
                                   "levels of different budgets is infinite in the tail"),
                          counterexample=None if verdict.holds else {
                              **verdict_counterexample(verdict, scope=scope),
                              KERNEL_CHECKS: [graded_privacy_check(
                                  channel, boundaries, budgets,
                                  f"Graded Laplace with boundaries {', '.join(boundaries)} and budgets "
                                  f"{', '.join(map(str, budgets))}", expected="does not hold",
                                  pair_function=pair_function)]}))
        if not verdict.holds:
            break
    return decide(steps, "Graded Laplace meets graded LDP.",
                  "Between inputs of levels with different budgets the ratio of the densities grows without bound in "
                  "the tail (the wider density decays slower), so a large release reveals the level: challenge (1) "
                  "is not solved, whatever the pair function. Challenge (2) holds (every density is positive on the "
                  "whole line).")


@claim("hiera2023.laplace.accuracy", location="Sec. 3.1",
       statement="The graded Laplace mechanism cannot solve the problem of reduced accuracy of mean estimation due to "
                 "the small amount of data within each privacy level.",
       methods=("argument",), recorded="open",
       interpretation=r"Graded Laplace averages all \(n\) releases together: no estimate is made per level, so there "
                      "is no per-level shortage to solve, and the claim names no quantity to compare. The comparisons "
                      "of accuracy the paper makes are its figures' claims.")
def laplace_accuracy(settings: AuditSettings):
    return Outcome("open", "No reading decides it: the problem it names, challenge (3), is the shortage of data in "
                           "each level once the collector partitions the releases by level; graded Laplace never "
                           "partitions (it averages all releases, whose levels the collector cannot tell apart), so "
                           "the shortage does not arise for it and 'cannot solve' has nothing to compute. The "
                           "accuracy comparisons the paper makes are hiera2023.fig3's claims.",
                   [Evidence("argument", "the estimator of graded Laplace", "the mean of all releases; no per-level "
                             "estimate exists to be short of data")])


# --- the baselines as cited (Sec. 2) -------------------------------------------------------------

@claim("hiera2023.baselines-cited.grr", location="Sec. 2",
       statement=r"GRR: the output equals the input with probability \(p = e^{\varepsilon} / (e^{\varepsilon} + k - "
                 r"1)\), and each other value with \(q = 1 / (e^{\varepsilon} + k - 1)\).",
       methods=("z3",), recorded="verified",
       interpretation=r"The printed \(p\) and \(q\) are a distribution (\(p + (k - 1) q = 1\)) with \(p / q = "
                      r"e^{\varepsilon}\), so GRR is \(\varepsilon\)-LDP; the project's GRR is written with the same "
                      r"\(p\) and \(q\).")
def baselines_grr(settings: AuditSettings):
    E, k = z3.Reals("E k")
    p, q = grr_probabilities(E, k)
    steps = [proof_step(r"\(p + (k - 1) q = 1\) for every \(e^{\varepsilon} \ge 1\), \(k \ge "
                        r"2\)", prove_identity("GRR rows", p + (k - 1) * q, 1,
                                                                                    [E >= 1, k >= 2])),
             proof_step(r"\(p = e^{\varepsilon} q\)", prove_identity("GRR ratio", p, E * q, [E >= 1, k >= 2]))]
    return decide(steps, r"The printed \(p\) and \(q\) form GRR's rows, with ratio "
                         r"\(e^{\varepsilon}\).", r"The printed \(p\) and \(q\) are wrong.")


def duchi_probability(E, v, sign: int):
    """Duchi et al.'s one-dimensional mechanism: ``P[+-C | v] = 1/2 +- v (E - 1) / (2 (E + 1))``, written from their
    paper independently of Harmony's two steps."""
    return Fraction(1, 2) + sign * v * (E - 1) / (2 * (E + 1))


@claim("hiera2023.baselines-cited.harmony", location="Sec. 2",
       statement="Harmony has the same privacy guarantees and asymptotic error bounds as Duchi et al.'s method; "
                 r"Harmony perturbs \(v\) into \(v^* \in \{-(e^{\varepsilon} + 1)/(e^{\varepsilon} - 1), "
                 r"(e^{\varepsilon} + 1)/(e^{\varepsilon} - 1)\}\).",
       methods=("z3", "exact"), recorded="verified",
       interpretation="Stronger than stated: Harmony's two steps (discretise, then randomised response) give exactly "
                      "Duchi et al.'s output distribution, for every budget and input, so privacy and error are the "
                      "same, not only asymptotically.")
def baselines_harmony(settings: AuditSettings):
    E, v = z3.Reals("E v")
    steps = [proof_step(rf"\(P[{sign:+d}C | v]\): Harmony = Duchi for every \(e^{{\varepsilon}} > 1\) and "
                        r"\(v \in [-1, 1]\)",
                        prove_identity("Harmony = Duchi", harmony_probability(E, v, sign),
                                       duchi_probability(E, v, sign), [E > 1, v >= -1, v <= 1])) for sign in (-1, 1)]
    mechanism = Harmony(1, ["-1", "0", "1"])
    scale = mechanism.scale
    E1 = budget(1).exponential()
    exact_ok = scale == harmony_scale(E1) and ldp(mechanism.family(), 1).holds
    steps.append(Step(Evidence("exact", r"\(\varepsilon = 1\): the release is \(\pm(e + 1)/(e - 1)\) and the channel "
                                        "is 1-LDP for every input of [-1, 1]", "as stated" if exact_ok else "differs"),
                      counterexample=None if exact_ok else {"method": "exact", "scale": scale.text()}))
    return decide(steps, "Harmony and Duchi et al.'s mechanism are the same channel.", "They differ.")


@claim("hiera2023.baselines-cited.variance", location="Sec. 2",
       statement="The outputs of Duchi's method and Harmony take two values with absolute value greater than 1, so the "
                 "variance of the perturbed data is always greater than 1.",
       methods=("z3", "exact"), recorded={"variance_meaning=conditional": "refuted",
                                          "variance_meaning=second-moment": "verified"},
       choices=(VARIANCE_MEANING,))
def baselines_variance(settings: AuditSettings, variance_meaning: str):
    E, v = z3.Reals("E v")
    C = harmony_scale(E)
    spread = release_spread(C * C, v, variance_meaning=variance_meaning)  # E[(v*)^2 | v] = C^2, E[v* | v] = v
    steps = [proof_step(r"the spread \(> 1\) for every \(e^{\varepsilon} > 1\) and \(v \in [-1, 1]\)",
                        pointwise("spread > 1", [E > 1, v >= -1, v <= 1], spread > 1, [], [E]))]
    mechanism = Harmony(2, ["1"])
    second, mean = mechanism.scale ** 2, Exact.rational(1)  # v = 1 at epsilon = 2
    exact = release_spread(second, mean, variance_meaning=variance_meaning)
    steps.append(Step(Evidence("exact", r"\(\varepsilon = 2\), \(v = 1\): the spread from Harmony's release "
                                        r"\(\pm C\)", f"{to_decimal_string(exact, 12)} "
                               + ("> 1" if exact > 1 else r"\(\le\) 1")),
                      counterexample=None if exact > 1 else {
                          "method": "exact", "epsilon": "2", "v": "1", "variance_meaning": variance_meaning,
                          "spread": exact.text(), "approximately": to_decimal_string(exact, 12)}))
    if variance_meaning == "conditional":  # the one-user estimator's variance agrees with C^2 - v^2
        assert mechanism.estimate_moments(["1"])[1][0] == exact
    return decide(steps[::-1], r"The spread exceeds 1 for every budget and input: \(\mathbb E[(v^*)^2] = C^2 > 1\).",
                  r"\(\operatorname{Var}[v^* | v] = C^2 - v^2\) falls below 1 at \(v = \pm 1\) once \(C^2 < 2\), "
                  r"i.e. \(\varepsilon > \ln(3 + 2 \sqrt 2) = 1.7627\): at \(\varepsilon = 2\) and \(v = 1\) it "
                  r"is \(\coth(1)^2 - 1 = 0.724\).")


@claim("hiera2023.baselines-cited.pm-accuracy", location="Sec. 2",
       statement="PM's accuracy is much higher when the privacy budget is large.",
       methods=("z3", "exact"), recorded="verified",
       interpretation="Compared with Harmony (Duchi et al.'s method, the paper's other baseline) by the worst-case "
                      r"variance of one release over \(v \in [-1, 1]\) (PM's at \(v = \pm 1\), Harmony's \(C^2\) at "
                      r"\(v = 0\)). 'Large' is read as \(\varepsilon \ge 2\) and 'much' as a ratio that tends to 0: "
                      r"the check proves PM's worst case below Harmony's for every \(\varepsilon \ge 2\) and computes "
                      "the ratio exactly at growing budgets.")
def baselines_pm_accuracy(settings: AuditSettings):
    s = z3.Real("s")  # s = e^{eps/2}; eps >= 2 gives s >= e > 27/10
    harmony_worst = ((s * s + 1) / (s * s - 1)) ** 2
    steps = [proof_step(r"PM's worst-case variance < Harmony's for every \(s = e^{\varepsilon/2} \ge 27/10\) (so every "
                        r"\(\varepsilon \ge 2\))",
                        pointwise("PM below Harmony", [s >= Fraction(27, 10)], pm_variance(s, 1) < harmony_worst,
                                  [], []))]
    ratios = []
    for eps in (2, 4, 8, 16):
        s_exact = budget(Fraction(eps, 2)).exponential()
        E = budget(eps).exponential()
        ratios.append((eps, pm_variance(s_exact, 1) / harmony_scale(E) ** 2))
    decreasing = all(a[1] > b[1] for a, b in zip(ratios, ratios[1:]))
    text = ", ".join(rf"\(\varepsilon\) {eps}: {to_decimal_string(r, 4)}" for eps, r in ratios)
    steps.append(Step(Evidence("exact", "ratio PM / Harmony of worst-case variances", text + (
        r"; decreasing, and \(\sim 1/s \to 0\)" if decreasing else "")),
        counterexample=None if decreasing else {"method": "exact", "ratios": text}))
    return decide(steps, r"For every \(\varepsilon \ge 2\) PM's worst-case variance is below Harmony's, and the ratio "
                         "tends to 0.",
                  "PM is not more accurate at large budgets.")


# --- LHP: Theorem 2 and contribution (1) -----------------------------------------------------------

SMALL_SETUPS = tuple((("-1", "0", "1"), (f"log({a})", f"log({b})")) for a in (2, 3, 4) for b in (2, 3, 4))
"""Two levels split at 0, budgets ln 2 .. ln 4 (rational e^eps), smallest first: the exhaustive family of the
privacy checks of LHP."""


def paper_lhp(eps0: Fraction) -> tuple:
    """LHP on the paper's five levels at ``eps_0`` (built by ``lhp`` under the running reading), for every number of
    [-1, 1]: its family, the family's corner channel and the largest pairwise loss over the interval."""
    return lhp_family(lhp(tuple(PAPER_BOUNDARIES), paper_budgets(eps0)))


@cache
def lhp_family(mechanism) -> tuple:
    """An LHP's family, its corner channel and its largest pairwise loss (keyed by the built object)."""
    family = mechanism.family()
    corners, _ = family.corners()
    return family, corners, max(loss for loss, _ in pairwise_loss(corners).values())


def paper_eps0(settings: AuditSettings) -> tuple:
    return PAPER_EPS0 if settings.deep else PAPER_EPS0[:2]


def _lhp_check(mechanism, boundaries, budgets, levels: str, level_budget: str, pair_function: str) -> dict:
    """The kernel check of an LHP whose whole release fails graded LDP: its channel on the interval end points."""
    return graded_privacy_check(mechanism.channel(), boundaries, budgets,
                                f"LHP's whole release (level and value) with {levels} (budgets "
                                f"{', '.join(map(str, budgets))}), the value perturbed at the budget of the "
                                f"{level_budget} level,", expected="does not hold", pair_function=pair_function)


@claim("hiera2023.theorem2", location="Sec. 4.3, Theorem 2",
       statement="Algorithm 3 (LHP) satisfies the graded local differential privacy requirement.",
       methods=("exact",), recorded="refuted", choices=(PAIR_FUNCTION, LEVEL_BUDGET),
       interpretation=r"On the whole release \((t^*, v^*)\), which the user sends together. Graded LDP (Definition 2) "
                      r"with the pair function \(r\), for every number of [-1, 1]: LHP's probabilities are affine in "
                      r"\(v\) on each level's interval, so the kernel decides on the interval end points and the "
                      "limits at the open ends (the segment-end lemma).")
def theorem2(settings: AuditSettings, pair_function: str, level_budget: str):
    steps = []
    for boundaries, budgets in SMALL_SETUPS:
        mechanism = lhp(boundaries, budgets, level_budget=level_budget)
        verdict = graded_privacy(mechanism.family(), boundaries, budgets, pair_function=pair_function)
        if not verdict.holds:
            scope = (r"LHP, two levels split at 0, budgets \(\ln 2\) .. \(\ln 4\) smallest first; kernel: `graded_ldp` "
                     rf"with \(r\) = `{pair_function}`; first failure at budgets {list(budgets)}")
            steps.append(Step(Evidence("exact", scope, "does not hold"),
                              counterexample={**verdict_counterexample(verdict, scope=scope,
                                                                       boundaries=list(boundaries),
                                                                       budgets=list(budgets)),
                                              KERNEL_CHECKS: [_lhp_check(mechanism, boundaries, budgets,
                                                                         "two levels split at 0", level_budget,
                                                                         pair_function)]}))
            break
    else:
        steps.append(Step(Evidence("exact", r"LHP, two levels split at 0, budgets \(\ln 2\) .. \(\ln "
                                            r"4\)", "holds everywhere")))
    paper, failure = [], None
    for eps0 in paper_eps0(settings):
        family, _, worst = paper_lhp(eps0)
        verdict = graded_privacy(family, PAPER_BOUNDARIES, paper_budgets(eps0), pair_function=pair_function)
        paper.append(rf"\(\varepsilon_0 = {eps0}\): worst loss {to_decimal_string(worst, 4)} against the largest "
                     f"budget {to_decimal_string(5 * eps0, 4)}, graded LDP {'holds' if verdict.holds else 'fails'}")
        if not verdict.holds and failure is None:
            failure = verdict_counterexample(verdict, scope=rf"the paper's five levels at \(\varepsilon_0 = {eps0}\)")
            if not any(step.counterexample for step in steps):  # the counterexample the ledger shows
                failure[KERNEL_CHECKS] = [_lhp_check(lhp(tuple(PAPER_BOUNDARIES), paper_budgets(eps0),
                                                         level_budget=level_budget),
                                                     PAPER_BOUNDARIES, paper_budgets(eps0), "the paper's five levels",
                                                     level_budget, pair_function)]
    steps.append(Step(Evidence("exact", "the paper's five levels, every number of [-1, 1]", "; ".join(paper)),
                      counterexample=failure))
    return decide(steps, "LHP meets graded LDP.",
                  "The level and the value each cost up to their budget, and the user releases both: the ratios "
                  r"multiply. Already with two levels of the same budget \(\varepsilon\) (so every pair function gives "
                  r"\(\varepsilon\)), \(x = -1\) and \(x' = 1\) and the output (1, -1) have the ratio \(e^{2 "
                  r"\varepsilon}\): the level \(e^{\varepsilon}\) times the value \(e^{\varepsilon}\).")


@claim("hiera2023.theorem2.level-part", location="Sec. 4.3, proof of Theorem 2",
       statement=r"\(\Pr(t^*|t_1)/\Pr(t^*|t_2) \le \Pr(t^* = t_1|t_1)/\Pr(t^* = t_1|t_2) = "
                 r"(e^{\varepsilon_{t1}}/(e^{\varepsilon_{t1}} + k - 1)) / (1/(e^{\varepsilon_{t2}} + k - 1)) \le "
                 r"e^{\max(\varepsilon_{t1}, \varepsilon_{t2})}\): the processing of the privacy level satisfies "
                 "graded LDP.",
       methods=("z3", "exact"), recorded={"pair_function=max": "verified", "pair_function=min": "refuted",
                                          "pair_function=avg": "refuted"},
       choices=(PAIR_FUNCTION,),
       interpretation=r"The released level \(t^*\) alone (its marginal), against the true levels' budgets. The printed "
                      r"inequality, with its bound \(e^{\max}\), is proved for every budget (z3); its conclusion, "
                      "'satisfies graded LDP', is Definition 2 with the pair function \\(r\\) left open there, so "
                      "the kernel decides it on the paper's levels under each reading `pair_function` (the audit "
                      r"checked it at \(r\) = max only until its builders routed the predicate through the reading). "
                      r"The proof's bound is \(r\) = max: under min or avg the level's GRR alone exceeds "
                      r"\(e^{r}\), so the step proves the conclusion only for max.")
def theorem2_level_part(settings: AuditSettings, pair_function: str):
    Ea, Eb, k = z3.Reals("E_a E_b k")
    pa, qa = grr_probabilities(Ea, k)
    pb, qb = grr_probabilities(Eb, k)
    bound = z3_max(Ea, Eb)  # the printed bound of the statement
    premises = [Ea >= 1, Eb >= 1, k >= 2]
    cases = {r"\(t^* = t_1\)": pa <= bound * qb, r"\(t^* = t_2\)": qa <= bound * pb,
             r"\(t^*\) another level": qa <= bound * qb}
    steps = [proof_step(rf"{name}: \(G_{{t1}}(t^*) \le e^{{\max}} G_{{t2}}(t^*)\), every \(E_a, E_b \ge 1\) and "
                        r"\(k \ge 2\)",
                        pointwise(name, premises, goal, [], [])) for name, goal in cases.items()]
    for eps0 in PAPER_EPS0:
        levels = tuple(range(1, 6))
        E = [budget(e).exponential() for e in paper_budgets(eps0)]
        rows = [[grr_probabilities(E[t - 1], 5)[0 if s == t else 1] for s in levels] for t in levels]
        channel = Channel(levels, levels, rows)
        budgets = {t: budget(e) for t, e in zip(levels, paper_budgets(eps0))}
        verdict = level_privacy(channel, budgets)
        scope = (rf"the paper's levels at \(\varepsilon_0 = {eps0}\): the level marginal, graded LDP (`id_ldp` on the "
                 rf"levels) with \(r\) = `{pair_function}`")
        counterexample = None if verdict.holds else verdict_counterexample(verdict, scope=scope)
        if counterexample and not any(step.counterexample for step in steps):  # the one the ledger shows
            counterexample[KERNEL_CHECKS] = [level_privacy_check(
                channel, budgets, f"The released level alone (GRR on the paper's five levels, budgets "
                                  f"{', '.join(map(str, paper_budgets(eps0)))})", expected="does not hold")]
        steps.append(Step(Evidence("exact", scope, "holds" if verdict.holds else "fails"),
                          counterexample=counterexample))
    return decide(steps, r"The level's GRR ratio is within \(e^{\max}\) in every case, and the level marginal meets "
                         r"graded LDP with this pair function.",
                  r"The printed bound \(e^{\max}\) holds, but the level marginal does not meet graded LDP with this "
                  r"pair function: \(\Pr(t^* = t_1|t_1)/\Pr(t^* = t_1|t_2) = e^{\varepsilon_{t1}} "
                  r"(e^{\varepsilon_{t2}} + k - 1)/(e^{\varepsilon_{t1}} + k - 1)\) exceeds \(e^{r}\) "
                  r"when \(r\) is below the larger budget.")


@claim("hiera2023.theorem2.value-part", location="Sec. 4.3, proof of Theorem 2",
       statement=r"For the perturbed levels \(t_1^*\), \(t_2^*\): \(\Pr(v^* = 1|v_1)/\Pr(v^* = 1|v_2) = "
                 r"((e^{\varepsilon_{t2}^*} + 1)/(e^{\varepsilon_{t1}^*} + 1)) (v_1 (e^{\varepsilon_{t1}^*} - 1) + "
                 r"e^{\varepsilon_{t1}^*} + 1)/(v_2 (e^{\varepsilon_{t2}^*} - 1) + e^{\varepsilon_{t2}^*} + 1) \le "
                 r"e^{\max(\varepsilon_{t1}^*, \varepsilon_{t2}^*)}\) (similarly for \(v^* = -1\)): the processing of "
                 "the data satisfies graded LDP.",
       methods=("z3", "exact"), recorded={"pair_function=max": "verified", "pair_function=min": "refuted",
                                          "pair_function=avg": "refuted"},
       choices=(PAIR_FUNCTION,),
       interpretation="The printed inequality: the value's probabilities given each user's own perturbed level, for "
                      r"every \(v_1\), \(v_2 \in [-1, 1]\) and budgets (z3). Its conclusion, 'satisfies graded LDP', "
                      r"is Definition 2 with the pair function \(r\) left open there: the kernel decides it on the "
                      r"channel from \((v, t^*)\) to \(v^*\), \(v \in \{-1, 1\}\) and \(t^*\) one of the paper's "
                      r"levels, each input with its perturbed level's budget, under each reading `pair_function`. The "
                      r"proof's bound is \(r\) = max. It bounds each part alone; Theorem 2 is about both released "
                      "together.")
def theorem2_value_part(settings: AuditSettings, pair_function: str):
    E1, E2, v1, v2 = z3.Reals("E_t1* E_t2* v_1 v_2")
    premises = [E1 >= 1, E2 >= 1, v1 >= -1, v1 <= 1, v2 >= -1, v2 <= 1]
    steps = []
    for sign in (1, -1):
        left, right = harmony_probability(E1, v1, sign), harmony_probability(E2, v2, sign)
        steps.append(proof_step(rf"\(v^* = {sign:+d}\): ratio \(\le e^{{\max}}\) for every budgets and \(v_1\), "
                                r"\(v_2 \in [-1, 1]\)",
                                pointwise(f"value part {sign:+d}", premises + [right > 0],
                                          left <= z3_max(E1, E2) * right, [], [])))
    for eps0 in PAPER_EPS0:
        levels = range(1, 6)
        E = [budget(e).exponential() for e in paper_budgets(eps0)]
        inputs = [f"v={v}, t*={t}" for t in levels for v in (-1, 1)]
        rows = [[harmony_probability(E[t - 1], v, sign) for sign in (-1, 1)] for t in levels for v in (-1, 1)]
        budgets = {x: budget(paper_budgets(eps0)[t - 1]) for x, t in zip(inputs, (t for t in levels for _ in "vv"))}
        channel = Channel(inputs, ("-1", "1"), rows)
        verdict = level_privacy(channel, budgets)
        scope = (rf"the paper's levels at \(\varepsilon_0 = {eps0}\): \((v, t^*) \mapsto v^*\), each input at its "
                 rf"perturbed level's budget, graded LDP (`id_ldp`) with \(r\) = `{pair_function}`")
        counterexample = None if verdict.holds else verdict_counterexample(verdict, scope=scope)
        if counterexample and not any(step.counterexample for step in steps):  # the one the ledger shows
            counterexample[KERNEL_CHECKS] = [level_privacy_check(
                channel, budgets, f"The value's processing alone (`(v, t*)` to `v*`, for `v` = -1 or 1 and `t*` one "
                                  f"of the paper's five levels, budgets {', '.join(map(str, paper_budgets(eps0)))})",
                expected="does not hold")]
        steps.append(Step(Evidence("exact", scope, "holds" if verdict.holds else "fails"),
                          counterexample=counterexample))
    return decide(steps, r"Each value's ratio is within \(e^{\max}\), as printed, and the value's processing meets "
                         "graded LDP with this pair function.",
                  r"The printed bound \(e^{\max}\) holds, but the value's processing does not meet graded LDP with "
                  r"this pair function: \(\Pr(v^* = 1 | 1, t_1^*)/\Pr(v^* = 1 | -1, t_2^*) = e^{\varepsilon_{t1}^*} "
                  r"(e^{\varepsilon_{t2}^*} + 1)/(e^{\varepsilon_{t1}^*} + 1)\) exceeds \(e^{r}\) when \(r\) is "
                  "below the larger budget.")


@claim("hiera2023.contribution-lhp.level", location="Sec. 1, contribution (1); Sec. 4.1",
       statement="LHP solves the problem that the privacy level needs to be protected.",
       methods=("exact",), recorded="refuted", choices=(PAIR_FUNCTION, LEVEL_BUDGET),
       interpretation="Protected as Definition 2 asks, on everything the user releases: the same check as Theorem 2.")
def contribution_lhp_level(settings: AuditSettings, pair_function: str, level_budget: str):
    return outcome("hiera2023.theorem2", settings, {"pair_function": pair_function, "level_budget": level_budget})


@claim("hiera2023.contribution-lhp.output-domain", location="Sec. 1, contribution (1); Sec. 4.1",
       statement="LHP ensures the requirement that the output value domain is the same when different data are "
                 "perturbed locally.",
       methods=("exact", "z3"), recorded="verified", choices=(LEVEL_BUDGET,),
       interpretation=r"Every output \((t^*, v^*)\) has positive probability for every input of [-1, 1]: z3 for every "
                      "budget and input, and the kernel on the paper's levels.")
def contribution_lhp_output_domain(settings: AuditSettings, level_budget: str):
    Et, Ej, k, v = z3.Reals("E_t E_j k v")
    premises = [Et > 1, Ej > 1, k >= 2, v >= -1, v <= 1]
    steps = []
    for sign in (-1, 1):
        for same in (True, False):
            level = grr_probabilities(Et, k)[0 if same else 1]
            relation = "=" if same else r"\ne"
            steps.append(proof_step(rf"\(P[(t^*, {sign:+d}) | v] > 0\) with \(t^* {relation} t\)",
                                    pointwise("positive", premises, level * harmony_probability(Ej, v, sign) > 0,
                                              [], [])))
    zeros = []
    for eps0 in paper_eps0(settings):
        corners = paper_lhp(eps0)[1]  # positive at a segment's ends: positive on all of it
        zeros += [(x, y) for x, row in zip(corners.inputs, corners.rows) for y, p in zip(corners.outputs, row) if not p]
    steps.append(Step(Evidence("exact", "the paper's levels, every level's end points and limits",
                               "every output positive" if not zeros else f"{len(zeros)} zero entries"),
                      counterexample={"method": "exact", "zeros": [str(z) for z in zeros[:5]]} if zeros else None))
    return decide(steps, "Every input reaches every output.", "Some input never reaches an output.")

"""Claims of Hao et al. 2023 about the collector: PLC (Sec. 4.2), the compensation of Algorithm 5, contribution (2),
and Theorem 3 (unbiasedness).

Expectations are exact: ``HierA.exact_distribution`` enumerates every joint release of a tiny population and every
outcome of the conversions. The budgets are ``ln q`` for rational ``q``, so every probability is a fraction. Each
reading of step 5 (``compensation``), of ``|V*|`` (``size``), of clipping and of the value's budget in LHP is checked.
"""

from __future__ import annotations

import copy
from fractions import Fraction
from functools import cache

import z3

from ldpspec.reference.hiera2023.hiera import plc_keep_probability
from ldpspec.reference.shared.grr import grr_probabilities
from ldpspec.spec import Exact, to_decimal_string
from ldpspec.verify.claims import AuditSettings, Evidence, Step, claim, decide
from ldpspec.verify.common import pointwise, prove_identity
from ldpspec.verify.hiera2023.builders import collector, lhp, merge
from ldpspec.verify.hiera2023.readings import CLIPPING, COMPENSATION, LEVEL_BUDGET, SIZE
from ldpspec.verify.symbolic import proof_step

SETUPS = {
    "two levels": (("-1", "0", "1"), ("log(3)", "log(2)"), ("-1", "-1/2", "0", "1/2", "1")),
    "three levels": (("-1", "-1/3", "1/3", "1"), ("log(4)", "log(3)", "log(2)"), ("-1", "-1/3", "0", "1/3", "1")),
}
"""Level set-ups of the exact checks: boundaries, budgets (e^eps = 3, 2 and 4, 3, 2: p_i = 3/4, 2/3, 4/5) and the
inputs a population may hold."""

POPULATIONS = {
    "two levels": (("-1/2", "1/2"), ("1", "1"), ("-1", "0", "1/2")),
    "three levels": (("-1", "1/3"), ("0", "1")),
}
"""Tiny populations (every user's number), over several levels."""

MUS = {"two levels": (2,), "three levels": (2, 3)}
"""The reuse counts checked with conversion (mu = 1 converts nothing)."""


def lhp_of(setup: str):
    """LHP on a set-up, built under the running reading (``level_budget``)."""
    boundaries, budgets, grid = SETUPS[setup]
    return lhp(boundaries, budgets, grid)


def moments(setup: str, mu: int, population: tuple, compensated: bool = True) -> tuple:
    """The exact ``(E[m*], E[(m* - m)^2], m)`` of HierA, built under the running reading, for ``population``
    (``m`` its true mean). Without ``compensated``, step 5 keeps one copy of each ``V_i`` (no compensation
    datasets)."""
    return hiera_moments(collector(lhp_of(setup), mu), population, compensated)


@cache
def hiera_moments(hiera, population: tuple, compensated: bool) -> tuple:
    """``moments`` of a built collector (keyed by the object, which the builders cache)."""
    if not compensated:  # the audit's counterfactual: the same merge with a single V_i everywhere
        hiera = copy.copy(hiera)
        hiera.plan = tuple(tuple((h, 1) for h, _ in parts) for parts in hiera.plan)
    true_mean = sum((Exact.of(v) for v in population), Exact.rational(0)) / len(population)
    distribution = hiera.exact_distribution(population)
    mean = sum((value * p for value, p in distribution), Exact.rational(0))
    mse = sum(((value - true_mean) ** 2 * p for value, p in distribution), Exact.rational(0))
    return mean, mse, true_mean


def _cases(settings: AuditSettings):
    """``(setup, mu, population)`` of the exact checks; three levels only with ``--deep`` (they take seconds)."""
    setups = SETUPS if settings.deep else ("two levels",)
    return [(setup, mu, population) for setup in setups for mu in MUS[setup] for population in POPULATIONS[setup]]


def _bias_counterexample(case, reading: dict, mean, true_mean) -> dict:
    setup, mu, population = case
    boundaries, budgets, _ = SETUPS[setup]
    return {"method": "exact", "boundaries": list(boundaries), "budgets": list(budgets), "mu": mu,
            "population": list(population), **reading, "expected_estimate": mean.text(),
            "true_mean": true_mean.text(), "bias": to_decimal_string(mean - true_mean, 8)}


# --- PLC (Sec. 4.2) ---------------------------------------------------------------------------------

@claim("hiera2023.plc-composition", location="Sec. 4.2",
       statement=r"Using \((p_i + p_j - 1)/(2 p_i - 1)\) as the keep probability of a second perturbation can perturb "
                 r"\(v\) into the data with privacy level \(j\): the overall keep probability is \(p_j\), and the flip "
                 r"probability \(1 - p_j\).",
       methods=("z3", "exact"), recorded={"level_budget=perturbed": "verified", "level_budget=true": "refuted"},
       choices=(LEVEL_BUDGET,),
       interpretation=r"The identities for a datum kept with \(p_i\), and, for the data PLC actually converts (the "
                      r"values LHP reported at level \(i\)), the probability that a converted datum equals the user's "
                      "discretised value, for users of every true level.")
def plc_composition(settings: AuditSettings, level_budget: str):
    pi, pj = z3.Reals("p_i p_j")
    q = plc_keep_probability(pi, pj)
    premises = [pi > Fraction(1, 2), pi <= 1]
    steps = [proof_step(r"\(p_i q + (1 - p_i)(1 - q) = p_j\) for every \(p_i \in (1/2, 1]\)",
                        prove_identity("keep", pi * q + (1 - pi) * (1 - q), pj, premises)),
             proof_step(r"\(p_i (1 - q) + (1 - p_i) q = 1 - p_j\)",
                        prove_identity("flip", pi * (1 - q) + (1 - pi) * q, 1 - pj, premises))]
    mechanism = lhp_of("two levels")
    keep = [e / (e + 1) for e in mechanism.levels.exponentials]
    q12 = plc_keep_probability(keep[0], keep[1])
    failure = None
    for true_level in (1, 2):  # users of each true level whose value LHP reported at level 1, converted to level 2
        source = keep[0] if mechanism.level_budget == "perturbed" else keep[true_level - 1]
        overall = source * q12 + (1 - source) * (1 - q12)
        if overall != keep[1] and failure is None:
            failure = {"method": "exact", "levels": r"two levels, \(e^{\varepsilon} = 3, 2\) (\(p = 3/4, "
                                                    r"2/3\))", "true level": true_level,
                       "reported level": 1, "converted to": 2, "keep probability after conversion": overall.text(),
                       "p_2": keep[1].text()}
    steps.append(Step(Evidence("exact", r"two levels (\(p = 3/4, 2/3\)): data reported at level 1 converted to level "
                                        "2, users of true level 1 and 2", r"kept with \(p_2\)" if failure is None else
                               "a user's datum is kept with another probability than "
                               r"\(p_2\)"), counterexample=failure))
    return decide(steps, r"A datum kept with \(p_i\) and converted is kept with \(p_j\).",
                  r"Under the true-level reading a datum reported at level \(i\) was kept with its true level's "
                  r"\(p_t\), not \(p_i\), so the conversion does not give \(p_j\).")


@claim("hiera2023.plc-direction", location="Sec. 4.2",
       statement=r"We can only perturb low-level data into high-level data, i.e. \(p_i\) must be greater than \(p_j\); "
                 "theoretically it is possible to convert low-level data to any high-level data, but the computational "
                 "overhead will increase as the number of conversions increases.",
       methods=("z3", "exact"), recorded="verified",
       interpretation=r"\(q\) is a probability exactly when \(p_j \le p_i\) (\(p_i, p_j \in (1/2, 1]\)); the overhead "
                      r"is the number of data PLC draws, \(\sum_i |V_i| \min(k - i, \mu - 1)\), checked nondecreasing "
                      r"in \(\mu\) for \(k \le 12\).")
def plc_direction(settings: AuditSettings):
    pi, pj = z3.Reals("p_i p_j")
    q = plc_keep_probability(pi, pj)
    premises = [pi > Fraction(1, 2), pi <= 1, pj > Fraction(1, 2), pj <= 1]
    steps = [proof_step(r"\(q \in [0, 1] \Leftrightarrow p_j \le p_i\)", pointwise("direction", premises,
                                                                  (z3.And(q >= 0, q <= 1)) == (pj <= pi), [], []))]
    bad = [(k, mu) for k in range(1, 13) for mu in range(1, k)
           if any(min(k - i, mu) < min(k - i, mu - 1) for i in range(1, k + 1))]
    steps.append(Step(Evidence("exact", r"conversions per datum of level \(i\), \(\min(k - i, \mu - 1)\), for \(k \le "
                                        r"12\)",
                               r"nondecreasing in \(\mu\)" if not bad else f"decreases at {bad[:3]}"),
                      counterexample={"method": "exact", "cases": bad[:3]} if bad else None))
    return decide(steps, r"\(q\) is a probability only towards smaller budgets, and the work grows with \(\mu\).",
                  "The direction or the overhead differ.")


# --- contribution (2) ---------------------------------------------------------------------------------

@claim("hiera2023.contribution-plc.more-data", location="Sec. 1, contribution (2); Sec. 4.2",
       statement="PLC increases the amount of available data for each privacy level (especially within the high "
                 "privacy level).",
       methods=("exact",), recorded={"compensation=A": "verified", "compensation=B": "verified",
                                     "compensation=C": "verified", "compensation=D": "refuted"},
       choices=(COMPENSATION,),
       interpretation=r"Every level's merged set \(V_i^*\) holds at least the data \(V_i\) reported at it, for every "
                      r"\(k \le 8\) and \(\mu \le k\) (from the merge of step 5).")
def contribution_more_data(settings: AuditSettings, compensation: str):
    failure = None
    for k in range(1, 9):
        for mu in range(1, k + 1):
            for i, parts in enumerate(merge(k, mu, compensation=compensation), 1):
                if not any(h == i and copies >= 1 for h, copies in parts) and failure is None:
                    failure = {"method": "exact", "k": k, "mu": mu, "level": i, "V_i*": [list(p) for p in parts]}
    step = Step(Evidence("exact", r"the merge of step 5 for \(k \le 8\), \(\mu \le "
                                  r"k\)", r"every \(V_i^*\) holds \(V_i\)" if not failure
                         else r"a level's \(V_i^*\) lacks its own data"), counterexample=failure)
    return decide([step], "Each level keeps its data and receives conversions from below.",
                  "Under the block reading the levels below a block's top keep nothing: their data move to the top.")


@claim("hiera2023.contribution-plc.accuracy", location="Sec. 1, contribution (2); Sec. 4.2",
       statement="Increasing the amount of available data per privacy level by PLC leads to a significant improvement "
                 "in the accuracy of the mean value estimation.",
       methods=("exact",), recorded="refuted", choices=(COMPENSATION, SIZE, CLIPPING),
       interpretation=r"The exact mean squared error of \(m^*\) with conversion (\(\mu \ge 2\)) against without (\(\mu "
                      r"= 1\)), on tiny populations: a population where conversion does not lower the error refutes "
                      "the claim. For the unclipped estimator there is a proof for every population: a converted "
                      r"datum's conditional mean is its source's, so PLC only adds independent noise to \(\mu = 1\)'s "
                      "estimate.")
def contribution_accuracy(settings: AuditSettings, compensation: str, size: str, clipping: str):
    for setup, mu, population in _cases(settings):
        converted = moments(setup, mu, population)
        plain = moments(setup, 1, population)
        if converted[1] >= plain[1]:
            boundaries, budgets, _ = SETUPS[setup]
            counterexample = {"method": "exact", "boundaries": list(boundaries), "budgets": list(budgets),
                              "population": list(population), f"MSE at mu = {mu}": to_decimal_string(converted[1], 8),
                              "MSE at mu = 1": to_decimal_string(plain[1], 8)}
            step = Step(Evidence("exact", rf"{setup}, population {list(population)}: exact MSE at \(\mu = {mu}\) and 1",
                                 rf"\({to_decimal_string(converted[1], 6)} \ge {to_decimal_string(plain[1], 6)}\)"),
                        counterexample=counterexample)
            return decide([step], "", r"Conversion does not lower the error: at \(\mu = 1\) the estimate is already "
                                      "unbiased (unclipped) and PLC re-randomises released data, adding variance.")
    return decide([Step(Evidence("exact", "the tiny populations", "conversion lowers the MSE on every one"))],
                  "Conversion lowers the exact MSE on every population checked.", "")


def merged_sets(k: int, mu: int) -> list:
    """The number of data sets (copies counted) each level's \\(V_i^*\\) merges, from the reading's step 5."""
    return [sum(copies for _, copies in parts) for parts in merge(k, mu)]


@claim("hiera2023.contribution-plc.high-level", location="Sec. 1, contribution (2); Sec. 4.2",
       statement="PLC increases the amount of available data for each privacy level (especially within the high "
                 "privacy level).",
       methods=("exact",), recorded={"compensation=A": "verified", "compensation=B": "verified",
                                     "compensation=C": "verified", "compensation=D": "refuted"},
       choices=(COMPENSATION,),
       interpretation=r"The 'especially within the high privacy level' of the sentence (hiera2023.contribution-plc."
                      r"more-data checks the rest): the increase a level's \(V_i^*\) receives, in data sets of one "
                      r"level's size (the merge's copies and conversions beyond the one \(V_i\)), is largest at the "
                      r"highest privacy level \(k\) (the smallest budget), for every \(k \le 8\) and \(2 \le \mu \le "
                      r"k\), from the merge of step 5 as the reading takes it. Counting in data sets is what the merge "
                      "decides for equally large levels; how many data a level reports also depends on the population.")
def contribution_high_level(settings: AuditSettings, compensation: str):
    failure, checked = None, 0
    for k in range(2, 9):
        for mu in range(2, k + 1):
            increase = [n - 1 for n in merged_sets(k, mu)]
            checked += 1
            if increase[-1] < max(increase) and failure is None:
                failure = {"method": "exact", "compensation": compensation, "k": k, "mu": mu,
                           "increase_by_level": increase, "V_i*": [list(parts) for parts in merge(k, mu)]}
    scope = r"the merge of step 5 for \(2 \le k \le 8\), \(2 \le \mu \le k\); increase of \(V_i^*\) in data sets"
    step = Step(Evidence("exact", scope, f"level k has the largest increase in all {checked} cases" if not failure
                         else rf"at \(k = {failure['k']}\), \(\mu = {failure['mu']}\) the increases by level are "
                              f"{failure['increase_by_level']}"), counterexample=failure)
    return decide([step], r"The highest privacy level \(k\) receives the largest increase in every case.",
                  r"Some level below \(k\) receives more data than the highest privacy level: under the block reading "
                  r"the top of a lower block gathers its whole block, while level \(k\)'s block may hold fewer levels.")


# --- the compensation and Theorem 3 -------------------------------------------------------------------

@claim("hiera2023.compensation", location="Sec. 4.2, after Algorithm 5",
       statement=r"When \(i + \mu - 1 > k\), the number of transformations of dataset \(V_i\) may be less than \(\mu - "
                 r"1\); to ensure that the final mean estimate is unbiased, it is necessary to add \(\mu - k + i\) "
                 r"datasets \(V_i\) as the compensation dataset in step 5.",
       methods=("exact",), recorded={**{f"compensation={c}, size={s}, clipping={k}, level_budget={b}": "refuted"
                                        for c in "ABCD" for s in ("all", "n") for k in ("printed", "none")
                                        for b in ("perturbed", "true")},
                                     "compensation=A, size=all, clipping=none, level_budget=perturbed": "verified"},
       choices=(COMPENSATION, SIZE, CLIPPING, LEVEL_BUDGET),
       interpretation="Two parts, each by exact expectation on tiny populations: with the compensation (as the reading "
                      r"merges it) the estimate is unbiased, and without it (one copy of each \(V_i\)) it is biased. "
                      "The block reading has no compensation copies, so there 'with' and 'without' are the same merge. "
                      "LHP perturbs the value with the budget of the reading `level_budget`, which moves the verdict "
                      "(as for Theorem 3).")
def compensation(settings: AuditSettings, compensation: str, size: str, clipping: str, level_budget: str):
    reading = {"compensation": compensation, "size": size, "clipping": clipping, "level_budget": level_budget}
    steps = []
    unbiased_with = True
    for case in _cases(settings):
        setup, mu, population = case
        mean, _, true_mean = moments(setup, mu, population)
        if mean != true_mean:
            steps.append(Step(Evidence("exact", rf"{setup}, \(\mu = {mu}\), population {list(population)}: with the "
                                                "compensation", "biased"),
                              counterexample=_bias_counterexample(case, reading, mean, true_mean)))
            unbiased_with = False
            break
    if unbiased_with:
        biased_without = None
        for case in _cases(settings):
            setup, mu, population = case
            mean, _, true_mean = moments(setup, mu, population, False)
            if mean != true_mean:
                biased_without = case
                break
        if biased_without is None:
            steps.append(Step(Evidence("exact", "every tiny population, without the compensation", "still unbiased: "
                                       "the compensation is not necessary"),
                              counterexample={"method": "exact", **reading, "finding": "unbiased without any "
                                              "compensation copies on every population checked"}))
        else:
            steps.append(Step(Evidence("exact", "tiny populations: with the compensation unbiased, without it biased "
                                       f"(first at {list(biased_without[2])})", "as stated")))
    return decide(steps, "With the compensation the estimate is unbiased, and without it biased.",
                  "The compensation as this reading merges it does not make the estimate unbiased, or is not needed.")


@claim("hiera2023.theorem3", location="Sec. 4.3, Theorem 3",
       statement="The mean estimate obtained by Algorithm 5 is an unbiased estimate.",
       methods=("exact", "z3"),
       recorded={**{f"compensation={c}, size={s}, clipping={k}, level_budget={b}": "refuted"
                    for c in "ABCD" for s in ("all", "n") for k in ("printed", "none") for b in ("perturbed", "true")},
                 "compensation=A, size=all, clipping=none, level_budget=perturbed": "verified",
                 "compensation=D, size=all, clipping=none, level_budget=perturbed": "verified",
                 "compensation=D, size=n, clipping=none, level_budget=perturbed": "verified"},
       choices=(COMPENSATION, SIZE, CLIPPING, LEVEL_BUDGET),
       interpretation=r"\(\mathbb E[m^*]\) equals the true mean, exactly, for every population. Checked by exact "
                      r"expectation on tiny populations (two levels, \(\mu = 2\); three levels with `--deep`); where "
                      "it holds there, the proof for every population: a converted datum keeps its source's "
                      "conditional mean (z3), every reported datum enters the merge with the same total weight, and "
                      r"\(|V^*|\) is that weight times \(n\).")
def theorem3(settings: AuditSettings, compensation: str, size: str, clipping: str, level_budget: str):
    reading = {"compensation": compensation, "size": size, "clipping": clipping, "level_budget": level_budget}
    for case in _cases(settings):
        setup, mu, population = case
        mean, _, true_mean = moments(setup, mu, population)
        if mean != true_mean:
            step = Step(Evidence("exact", rf"{setup}, \(\mu = {mu}\), population {list(population)}",
                                 rf"biased: \(\mathbb E[m^*] = {to_decimal_string(mean, 8)}\), "
                                 rf"\(m = {to_decimal_string(true_mean, 8)}\)"),
                        counterexample=_bias_counterexample(case, reading, mean, true_mean))
            return decide([step], "", r"\(\mathbb E[m^*]\) differs from the true mean.")
    steps = [Step(Evidence("exact", "every tiny population", r"\(\mathbb E[m^*] = m\) exactly"))]
    ch, ci, q = z3.Reals("c_h c_i q")
    steps.append(proof_step(r"a datum reported at level \(h\) (\(\mathbb E = v c_h\)) converted to level \(i\) (keep "
                            r"\(q = (p_h + p_i - 1)/(2 p_h - 1)\)) has \(\mathbb E = v c_h (2q - 1) = v c_i\), with "
                            r"\(c = 2p - 1\)",
                            prove_identity("conversion keeps the mean", ch * (2 * plc_keep_probability(
                                (1 + ch) / 2, (1 + ci) / 2) - 1), ci, [ch > 0, ch <= 1, ci > 0, ci <= 1])))
    unequal = []
    for k in range(1, 9):
        for mu in range(1, k + 1):
            weights = {h: 0 for h in range(1, k + 1)}
            for parts in merge(k, mu, compensation=compensation):
                for h, copies in parts:
                    weights[h] += copies
            if len(set(weights.values())) != 1:
                unequal.append((k, mu, weights))
    steps.append(Step(Evidence("exact", r"the merge's total weight of each reported level's data, \(k \le 8\), \(\mu "
                                        r"\le k\)",
                               "equal for every level" if not unequal else
                               rf"unequal at \((k, \mu) = {[(k, mu) for k, mu, _ in unequal[:3]]}\)"),
                      counterexample={"method": "exact", **reading, "unequal weights": [
                          {"k": k, "mu": mu, "weights": w} for k, mu, w in unequal[:2]]} if unequal else None))
    return decide(steps, "Unbiased: every datum's conversions keep its conditional mean, every reported level has the "
                         r"same total weight, and \(|V^*|\) is that weight times \(n\).",
                  "The merge weighs reported levels unequally, so the estimate is biased for some population.")


@claim("hiera2023.theorem3.level-counts", location="Sec. 4.3, proof of Theorem 3, step (b)",
       statement=r"\(\mathbb E(n_1' + n_2') = n_1 + n_2\): the expected number of data received at a level equals the "
                 "number of data of that level before local perturbation.",
       methods=("exact",), recorded="refuted",
       interpretation=r"\(n_1 + n_2\) counts the users of true level \(i\) and \(n_1' + n_2'\) the releases reported "
                      r"at level \(i\).")
def theorem3_level_counts(settings: AuditSettings):
    mechanism = lhp_of("two levels")
    p, _ = grr_probabilities(mechanism.levels.exponentials[0], mechanism.k)
    expected, true = 2 * p, 2  # two users of level 1 (inputs -1 and -1/2): each reported at level 1 with p
    step = Step(Evidence("exact", "two levels, both users in level 1",
                         rf"\(\mathbb E|V_1| = 2p = {expected.text()} \ne 2\)"),
                counterexample={"method": "exact", "levels": r"two levels, \(e^{\varepsilon} = 3, 2\)",
                                "population": ["-1", "-1/2"],
                                "E(n_1' + n_2')": expected.text(), "n_1 + n_2": true} if expected != true else None)
    return decide([step], "", r"The level perturbation moves data across levels: \(\mathbb E|V_i| = \sum_t n_t "
                              r"G_t(i)\), not \(n_i\).")

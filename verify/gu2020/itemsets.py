"""Gu et al. (ICDE 2020), Sec. VI: Padding-and-Sampling and IDUE-PS for item sets; and Sec. VIII's AvgID-LDP
(``gu2020.sec8-avgid.*``: the mechanisms of Secs. V-VI under AvgID-LDP, and its sequential composition).

The checks depend on three choices the paper leaves open (``readings``): which bits are released (``release``),
whether (17) includes the pairs ``i = j`` (``self_pairs``), and the dummies' budget (``dummy_budget``).
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

import z3
from hypothesis import strategies as st

from ldpspec.reference.gu2020.idue_ps import IduePs, itemset_budget
from ldpspec.reference.gu2020.levels import PrivacyLevels
from ldpspec.reference.shared.unary import UnaryBits, UnaryEncoding
from ldpspec.spec import Nats, avg_id_ldp, compose, id_ldp, pairwise_loss, to_decimal_string
from ldpspec.verify.claims import AuditSettings, Evidence, Fixed, Step, claim, decide
from ldpspec.verify.common import (
    ALL_ENTRIES,
    channel_row,
    describe_channel_budgets,
    exact_moments,
    pointwise,
    raised_budgets,
    two_channels_with_increments,
    z3_reals,
)
from ldpspec.verify.gu2020.builders import (
    constrained_pairs,
    dummy_level_budgets,
    extended_domains,
    released,
    released_idue_ps,
    released_oue_ps,
)
from ldpspec.verify.gu2020.experiments import solve_read
from ldpspec.verify.gu2020.readings import DUMMY_BUDGET, RELEASE, SELF_PAIRS
from ldpspec.verify.search import find_counterexample, search_step
from ldpspec.verify.symbolic import Condition, proof_step, prove


def _bits(parameters) -> list:
    return [UnaryBits(a, b, 1 - a, 1 - b) for a, b in parameters]


def _hundredths(pair) -> tuple:
    high, low = max(pair), min(pair)
    return Fraction(high, 100), Fraction(low, 100)


distinct_hundredths = (st.tuples(st.integers(1, 99), st.integers(1, 99))
                       .filter(lambda xy: xy[0] != xy[1]).map(_hundredths))


@claim("gu2020.ps-estimator", location="Sec. VI-B",
       statement=r"Since each item will be sampled with probability \(1/l\) from the padded set, the result of "
                 r"frequency estimation needs to be multiplied by the factor \(l\), i.e. \(\hat c_i = l (\sum_u y_u[i] "
                 r"- n b_i)/(a_i - b_i)\).",
       methods=("exhaustive", "hypothesis"), recorded="refuted",
       interpretation=r"The scaled estimator as an estimate of the true counts \(c_i^*\) of the users' sets (eq. (1)). "
                      r"It is unbiased when no set has more than \(l\) items; a set with more items is truncated, so "
                      r"each of its items is sampled with probability \(1/|x| < 1/l\). (Sec. VII-B itself speaks of "
                      r"the bias of a small \(l\).)")
def ps_estimator(settings: AuditSettings):
    mechanism = released_oue_ps(1, 2, 1)
    sets = [(0, 1)]
    means, _ = mechanism.estimate_moments(sets)
    rows = [channel_row(mechanism.channel(), s) for s in sets]
    bit = mechanism.encoding.bits[0]
    users = len(sets)
    enumerated, _ = exact_moments(rows, lambda ys: mechanism.padding * (sum(y[0] for y in ys) - users * bit.q)
                                  / (bit.p - bit.q))
    counterexample = {"mechanism": r"OUE-PS, \(\varepsilon = 1\), \(m = 2\) items, \(l = "
                                   r"1\)", "users' sets": [[0, 1]], "true count of item "
                                                                                                   "0": 1,
                      "E[c_hat_0]": to_decimal_string(enumerated, 20)}
    steps = [Step(Evidence("exhaustive", r"one user with the set {0, 1}, \(l = 1\) (every joint output enumerated)",
                           rf"\(\mathbb E[\hat c_0] = {to_decimal_string(enumerated, 6)}\) (and "
                           f"{to_decimal_string(means[0], 6)} from the closed form), not 1"),
                  counterexample=counterexample if enumerated == Fraction(1, 2) else None,
                  inconclusive=enumerated != Fraction(1, 2))]

    def violates(example):  # sets within the padding length: unbiased
        padding, sets = example
        mechanism = released_oue_ps(1, 3, padding)
        means, _ = mechanism.estimate_moments(sets)
        return any(means[i] != sum(i in s for s in sets) for i in range(3))

    strategy = st.integers(1, 3).flatmap(lambda padding: st.tuples(
        st.just(padding), st.lists(st.sets(st.integers(0, 2), max_size=padding).map(tuple), min_size=1, max_size=4)))
    steps.append(search_step(r"sets of at most \(l\) items (\(l \le 3\), up to 4 users): the estimator is unbiased",
                             find_counterexample(strategy, violates, settings),
                             lambda ex: {"padding": ex[0], "sets": [list(s) for s in ex[1]]}, settings))
    return decide(steps, "", r"The estimate of an item held in a set larger than \(l\) is biased low.")


@claim("gu2020.eq13-order", location="Sec. VI-B, (13)",
       statement=r"With \(p_k = a_k/b_k\) and \(q_k = (1-a_k)/(1-b_k)\): since \(a_k > b_k\), \(p_k \ge 1 \ge q_k\), "
                 r"with equality only when \(a_k = b_k\).",
       methods=("z3",), recorded="verified")
def eq13_order(settings: AuditSettings):
    a, b = z3.Reals("a b")
    strict = prove([Condition((), None, z3.And(a / b > 1, (1 - a) / (1 - b) < 1))], assumptions=[0 < b, b < a, a < 1])
    equal = prove([Condition((), None, z3.And(a / b == 1, (1 - a) / (1 - b) == 1))], assumptions=[0 < b, b == a, a < 1])
    return decide([proof_step(r"\(0 < b < a < 1\): \(p > 1 > "
                              r"q\)", strict), proof_step(r"\(a = b\): \(p = q = 1\)", equal)],
                  r"\(p_k > 1 > q_k\) whenever \(a_k > b_k\).", "")


def _lemma2_bound(mechanism: IduePs, first: tuple, second: tuple):
    """(14): (eta_1/|x_1| sum_{x_1} p_i + (1-eta_1)/l sum_d p_d) / (eta_2/|x_2| sum_{x_2} q_j + (1-eta_2)/l sum_d q_d).
    """
    bits = mechanism.encoding.bits
    p = [bit.p / bit.q for bit in bits]
    q = [bit.not_p / bit.not_q for bit in bits]
    dummies = range(mechanism.m, mechanism.m + mechanism.padding)

    def side(items, values):
        eta = Fraction(len(items), max(len(items), mechanism.padding))
        real = eta / len(items) * sum(values[i] for i in items) if items else 0
        return real + (1 - eta) / mechanism.padding * sum(values[d] for d in dummies)

    return side(first, p) / side(second, q)


@claim("gu2020.lemma2", location="Sec. VI-B, Lemma 2, (14)",
       statement=r"For any item-set inputs \(x_1\), \(x_2\) and any output \(y\) of IDUE-PS, \(\Pr[y|x_1]/\Pr[y|x_2]\) "
                 "is bounded by (14).",
       methods=("hypothesis", "exact kernel"), recorded="verified",
       interpretation="The printed bound is lost; (14) is the project's reconstruction (page of Gu et al., "
                      r"'Reconstructions'), with any per-bit parameters \(a_k > b_k\). Checked: the kernel's exact "
                      "worst ratio over all outputs against (14).",
       choices=(RELEASE,))
def lemma2(settings: AuditSettings, *, release: str):
    def violates(example):
        m, padding, parameters = example
        mechanism = released(UnaryEncoding(_bits(parameters[: m + padding])), m, padding, release=release)
        channel = mechanism.channel()
        for (x1, x2), (loss, _) in pairwise_loss(channel).items():
            if loss.is_infinite or loss > Nats.log(_lemma2_bound(mechanism, x1, x2)):
                return True
        return False

    strategy = st.tuples(st.integers(1, 3), st.integers(1, 3), st.lists(distinct_hundredths, min_size=6, max_size=6))
    step = search_step(r"\(m\), \(l \le 3\), random \(a_k > b_k\) per bit, every pair of sets",
                       find_counterexample(strategy, violates, settings),
                       lambda ex: {"m": ex[0], "l": ex[1],
                                   "a_b": [[str(a), str(b)] for a, b in ex[2][: ex[0] + ex[1]]]},
                       settings)
    return decide([step], "The exact worst ratio never exceeds (14).", "IDUE-PS exceeds the bound (14).")


@claim("gu2020.eq16-jensen", location="Sec. VI-B, (16)",
       statement="The combined privacy budget (16) is larger than the averaged privacy budget because the exponential "
                 "function is convex.",
       methods=("hypothesis", "exact kernel"), recorded="verified",
       interpretation=r"Averaged budget: \(\eta_x/|x| \sum_{i \in x} \varepsilon_i + (1 - \eta_x) \varepsilon_d\) (the "
                      r"exponent-free form of (16)). 'Larger' is checked as \(\ge\), with equality exactly when the "
                      "budgets involved are all equal.")
def eq16_jensen(settings: AuditSettings):
    def violates(example):
        budgets, items, padding, dummy = example
        items = tuple(sorted(set(i for i in items if i < len(budgets))))
        combined = itemset_budget(budgets, items, padding, dummy)
        eta = Fraction(len(items), max(len(items), padding)) if items else Fraction(0)
        average = (eta / len(items) * sum(budgets[i] for i in items) if items else 0) + (1 - eta) * dummy
        involved = {budgets[i] for i in items} | ({dummy} if eta < 1 else set())
        if len(involved) == 1:
            return combined != average
        return not combined > average

    strategy = st.tuples(st.lists(st.integers(0, 40).map(lambda k: Fraction(k, 8)), min_size=1, max_size=4),
                         st.lists(st.integers(0, 3), max_size=4), st.integers(1, 4),
                         st.integers(0, 40).map(lambda k: Fraction(k, 8)))
    return decide([search_step("random budgets in eighths, sets, padding lengths and dummy budgets",
                               find_counterexample(strategy, violates, settings),
                               lambda ex: {"budgets": [str(e) for e in ex[0]], "items": list(ex[1]), "l": ex[2],
                                           "eps_d": str(ex[3])}, settings)],
                  r"\(\ln\) of a weighted mean of \(e^{\varepsilon}\) is at least the weighted mean of "
                  r"\(\varepsilon\), strictly unless all are equal.", "")


# --- Theorem 4: IDUE-PS inherits MinID-LDP (and AvgID-LDP) from IDUE --------------------------------

def _pairs_of(levels_of_items: list, self_pairs: str) -> list[tuple]:
    """The pairs of levels (17) constrains on the extended domain whose items hold ``levels_of_items``
    (``constrained_pairs``, by the levels' labels)."""
    levels = sorted(set(levels_of_items))
    # placeholder budgets 1, 2, ...: the pairs depend on the levels' sizes only
    shape = PrivacyLevels.from_sizes(list(range(1, len(levels) + 1)), [levels_of_items.count(t) for t in levels])
    return [(levels[s], levels[t]) for s, t in constrained_pairs(shape, self_pairs=self_pairs)]


def _tight_budgets(levels_of_items: list, parameters: dict, r: str, self_pairs: str, increments: list) -> dict:
    """Level budgets that make (17) hold for these parameters, tight up to the increments.

    (17) for the level pairs of ``_pairs_of`` (bits i != j of levels s, t, and i = j when the reading constrains a
    level with itself): p_s / q_t <= e^{r(eps_s, eps_t)}.
    """
    levels = sorted(set(levels_of_items))
    p = {t: parameters[t][0] / parameters[t][1] for t in levels}
    q = {t: (1 - parameters[t][0]) / (1 - parameters[t][1]) for t in levels}
    needed = {(s, t): Nats.log(p[s] / q[t]) for s, t in _pairs_of(levels_of_items, self_pairs)}
    budgets = {t: Nats.rational(0) for t in levels}
    if r == "min":  # min(eps_s, eps_t) >= L_st: both at least L_st
        for (s, t), value in needed.items():
            budgets[s], budgets[t] = max(budgets[s], value), max(budgets[t], value)
        return {t: budgets[t] + increments[k % len(increments)] for k, t in enumerate(levels)}
    budgets = {t: Nats.rational(increments[k % len(increments)]) for k, t in enumerate(levels)}
    for (s, t), value in needed.items():  # avg: raise one end of each deficit until the pair is tight
        deficit = value - (budgets[s] + budgets[t]) / 2
        if deficit > 0:
            # By twice the deficit: e^{eps_s} stays an exact number (raising both ends by the deficit would take
            # square roots); budgets only grow, so a pair made tight stays satisfied.
            budgets[s] += 2 * deficit
    return budgets


def _theorem4_case(example, release: str, self_pairs: str, dummy_budget: str, r: str):
    """Build the instance; return (premise holds, conclusion verdict, description)."""
    m, padding, item_levels, parameters, dummy_level, increments = example
    item_levels = [t % len(parameters) for t in item_levels[:m]]
    dummy_level %= len(parameters)
    extended = item_levels + [dummy_level] * padding
    budgets = _tight_budgets(extended, dict(enumerate(parameters)), r, self_pairs, increments)
    # eps_d = min E: every other level at least the dummies' budget; any: as drawn
    budgets = dummy_level_budgets(budgets, dummy_level, dummy_budget=dummy_budget)
    encoding = UnaryEncoding(_bits([parameters[t] for t in extended]))
    # The premise (17), checked by the kernel on IDUE over the extended domain (pairs of distinct bits), plus each
    # level with itself that the reading constrains (for a level of two or more bits the kernel's pairs imply it).
    premise = id_ldp(encoding.channel(), {k: budgets[t] for k, t in enumerate(extended)}, r).holds
    selves = {t for s, t in _pairs_of(extended, self_pairs) if s == t}
    premise = premise and all(Nats.log(bit.p * bit.not_q / (bit.q * bit.not_p)) <= budgets[t]
                              for bit, t in zip(encoding.bits, extended) if t in selves)
    mechanism = released(encoding, m, padding, release=release)
    channel = mechanism.channel()
    item_budgets = [budgets[t] for t in item_levels]
    set_budgets = {x: itemset_budget(item_budgets, x, padding, budgets[dummy_level]) for x in channel.inputs}
    verdict = id_ldp(channel, set_budgets, r)
    description = {"m": m, "l": padding, "item_levels": item_levels, "dummy_level": dummy_level,
                   "a_b_per_level": [[str(a), str(b)] for a, b in parameters],
                   "level_budgets": {str(t): e.text() for t, e in budgets.items()},
                   "worst_pair": None if verdict.witness is None else [list(x) for x in verdict.witness.inputs],
                   "margin": to_decimal_string(verdict.margin, 10)}
    return premise, verdict, description


def _theorem4_step(settings: AuditSettings, r: str, release: str, self_pairs: str, dummy_budget: str) -> Step:
    strategy = st.tuples(st.integers(1, 4 if settings.deep else 3), st.integers(1, 4 if settings.deep else 3),
                         st.lists(st.integers(0, 2), min_size=4, max_size=4),
                         st.lists(distinct_hundredths, min_size=1, max_size=3), st.integers(0, 2),
                         st.lists(st.one_of(st.just(Fraction(0)), st.integers(0, 16).map(lambda k: Fraction(k, 8))),
                                  min_size=1, max_size=3))
    # every example builds and checks an IDUE-PS channel over all pairs of item sets: fewer of them by default
    search = replace(settings, examples_factor=settings.examples_factor / (3 if settings.deep else 6))

    def violates(example):
        premise, verdict, _ = _theorem4_case(example, release, self_pairs, dummy_budget, r)
        return premise and not verdict.holds

    example = find_counterexample(strategy, violates, search)
    return search_step(r"\(m\), \(l \le 3\), every pair of subsets of the items", example,
                       lambda ex: _theorem4_case(ex, release, self_pairs, dummy_budget, r)[2], search)


@claim("gu2020.theorem4", location="Sec. VI-B, Theorem 4, (17)-(18); Sec. VI opening",
       statement=r"If mechanism IDUE with perturbation probabilities \(\{(a_k, b_k)\}\) satisfies MinID-LDP for "
                 r"single-item input over the extended domain with budgets \(\mathcal E\) and \(\varepsilon_d\) (17), "
                 "then IDUE-PS with the same perturbation probabilities satisfies MinID-LDP for item-set input (18), "
                 r"with the item-set budget \(\varepsilon_x\) of (16).",
       methods=("hypothesis", "exact kernel"), recorded="verified",
       interpretation="The printed (16)-(18) are lost; the statement is the project's reconstruction (page of Gu et "
                      "al., 'Reconstructions'). IDUE parameters are random; the level budgets are the tightest that "
                      "make (17) hold (the premise is then confirmed by the kernel), plus random increments; the "
                      "conclusion is the kernel's exact check of MinID-LDP over every pair of item sets.",
       choices=(RELEASE, SELF_PAIRS, DUMMY_BUDGET))
def theorem4(settings: AuditSettings, *, release: str, self_pairs: str, dummy_budget: str):
    return decide([_theorem4_step(settings, "min", release, self_pairs, dummy_budget)],
                  "IDUE-PS is MinID-LDP with the budgets (16).", "IDUE-PS violates MinID-LDP although IDUE satisfies "
                                                                 "(17).")


@claim("gu2020.theorem4.avgid", location="Sec. VIII 'Other Instantiations of ID-LDP' with Sec. VI-B, Theorem 4",
       statement="The perturbation mechanisms developed in Sec. V and Sec. VI are also applicable to AvgID-LDP: if "
                 "IDUE satisfies AvgID-LDP over the extended domain, IDUE-PS with the same probabilities satisfies "
                 "AvgID-LDP for item-set input with the budgets (16).",
       methods=("hypothesis", "exact kernel"), recorded="verified",
       interpretation=r"Theorem 4 with \(r\) = average in (17) and (18), checked as gu2020.theorem4.",
       choices=(RELEASE, SELF_PAIRS, DUMMY_BUDGET))
def theorem4_avgid(settings: AuditSettings, *, release: str, self_pairs: str, dummy_budget: str):
    return decide([_theorem4_step(settings, "avg", release, self_pairs, dummy_budget)],
                  "IDUE-PS is AvgID-LDP with the budgets (16).", "IDUE-PS violates AvgID-LDP although IDUE satisfies "
                                                                 "(17).")


@claim("gu2020.sec8-avgid.applicable", location="Sec. VIII 'Other Instantiations of ID-LDP'",
       statement="The perturbation mechanisms developed in Sec. V and Sec. VI are also applicable to AvgID-LDP.",
       methods=("solver", "exact kernel"),
       recorded={"release=all, self_pairs=all": "verified", "release=all, self_pairs=multi-item": "open",
                 "release=real, self_pairs=all": "verified", "release=real, self_pairs=multi-item": "verified"},
       interpretation=r"Sec. V: opt0, opt1 and opt2 with \(r\) = average give parameters the kernel verifies as "
                      "AvgID-LDP. Sec. VI: IDUE-PS built from them is AvgID-LDP on item sets (the theorem itself is "
                      "gu2020.theorem4.avgid). The solvers constrain the level pairs of the reading `self_pairs`: "
                      "the audit's sweep found that it moves the verdict where the dummy bits are released.",
       choices=(RELEASE, SELF_PAIRS))
def avgid_applicable(settings: AuditSettings, *, release: str, self_pairs: str):
    results = []
    for budgets, sizes in (([1, 2], [1, 2]), ([0.5, 1, 3], [2, 1, 3]), ([2, 4], [3, 3])):
        levels = PrivacyLevels.from_sizes(budgets, sizes)
        for model in ("opt0", "opt1", "opt2"):
            solution = solve_read(levels, model, "avg")
            results.append(solution.verified)
    levels = PrivacyLevels.from_sizes([1, 2], [1, 2])
    solution = solve_read(levels, "opt0", "avg")
    item_budgets = levels.item_budgets()
    holds = True
    for dummies, mechanism in released_idue_ps(levels, solution.a, solution.b, 2, "avg", release=release):
        channel = mechanism.channel()
        holds = holds and id_ldp(channel, {x: itemset_budget(item_budgets, x, 2, levels.budgets[dummies])
                                           for x in channel.inputs}, "avg").holds
    steps = [Step(Evidence("solver + exact kernel", r"9 models \(\times\) levels with \(r\) = average",
                           f"verified: {sum(results)}/9"),
                  inconclusive=not all(results)),
             Step(Evidence("exact kernel", r"IDUE-PS from opt0 (avg), levels {1, 2} with 1 and 2 items, \(l = 2\)",
                           f"AvgID-LDP on every pair of item sets: {holds}"), inconclusive=not holds)]
    return decide(steps, "Both sections carry over to AvgID-LDP.", "")


@claim("gu2020.sec8-avgid.composition", location="Sec. VIII 'Other Instantiations of ID-LDP'",
       statement="The notion of AvgID-LDP satisfies sequential composition like Theorem 2.",
       methods=("z3", "hypothesis"), recorded="verified",
       interpretation=r"Like Theorem 2: if \(M_k\) is \(\mathcal E_k\)-AvgID-LDP, the composition is AvgID-LDP with "
                      r"\(\varepsilon_x = \sum_k \varepsilon_x^{(k)}\). The AvgID condition is used squared, \(P^2 \le "
                      r"e^{\varepsilon_x} e^{\varepsilon_{x'}} P'^2\), which is equivalent for \(P \ge 0\).")
def avgid_composition(settings: AuditSettings):
    steps = []
    for K in (2, 3):
        a, b = z3_reals("P_k(y_k|x)_", K), z3_reals("P_k(y_k|x')_", K)
        Ex, Ex2 = z3_reals("E_k_x", K), z3_reals("E_k_x'", K)
        premises = [a[k] * a[k] <= Ex[k] * Ex2[k] * b[k] * b[k] for k in range(K)]
        goal = z3.Product(*a) ** 2 <= z3.Product(*Ex) * z3.Product(*Ex2) * z3.Product(*b) ** 2
        steps.append(proof_step(rf"\(K = {K}\): one input pair and one output tuple, {ALL_ENTRIES}",
                                pointwise(f"composition of {K} AvgID-LDP mechanisms", premises, goal, a + b, Ex + Ex2)))

    def violates(example):
        (first, inc1), (second, inc2) = example
        b1, b2 = raised_budgets(first.channel, inc1), raised_budgets(second.channel, inc2)
        if b1 is None or b2 is None:
            return False  # symmetric MinID budgets also satisfy AvgID (min <= avg)
        return not avg_id_ldp(compose(first.channel, second.channel), {x: b1[x] + b2[x] for x in first.inputs})

    example = find_counterexample(two_channels_with_increments(settings), violates, settings)
    steps.append(search_step("two random exact channels with AvgID budgets; kernel: `avg_id_ldp(compose(M1, M2), "
                             "sums)`",
                             example, lambda ex: {"mechanisms": [describe_channel_budgets(part, raised_budgets)
                                                                 for part in ex]}, settings))
    return decide(steps, "The squared ratio bounds multiply, so budgets add.", "A composition violates AvgID-LDP.")


@claim("gu2020.dummy-budget.range", location="Sec. VI-B, after Theorem 4",
       statement=r"Theoretically, we can select \(\varepsilon_d\) to be any value from [the range is lost in the "
                 "extracted text].",
       methods=("none",), recorded="open",
       interpretation=r"The admissible range is lost in the extracted text; Theorem 4 is checked with \(\varepsilon_d "
                      r"= \min \mathcal E\) and with \(\varepsilon_d\) any of the original budgets (the choice "
                      "`dummy_budget`).")
def dummy_range(settings: AuditSettings):
    return decide([Step(Evidence("none", "", "the statement's range is lost"), inconclusive=True)], "", "",
                  "No reading decides it: the range the sentence gives is lost in the extracted text, so no statement "
                  "is left to read. Which budget the dummies take is the choice `dummy_budget`, which the claims "
                  "that depend on it (Theorem 4) vary.")


@claim("gu2020.dummy-budget.same-problem", location="Sec. VI-B, after Theorem 4",
       statement=r"The value of \(\varepsilon_d\) (selected from the original budgets) does not change the "
                 "optimization problem and the optimal solution because the objective function (only depends on "
                 "original items) and constraints (only depends on privacy levels) are the same.",
       methods=("count", "solver"), recorded={"self_pairs=all": "verified", "self_pairs=multi-item": "refuted"},
       interpretation=r"Checked on the toy example's levels (\(\ln 4\) for HIV, one item; \(\ln 6\) for four items) "
                      r"with \(l = 2\) dummies joining each level in turn: the constraints of the extended domain "
                      "against the original ones, and opt0's optimum with and without the dummies (the objective "
                      "counts the original items). When a level of one item is not constrained with itself, dummies "
                      r"joining it add the constraint \(s = t\), so the constraints depend on the level sizes, not "
                      "only on the privacy levels.",
       choices=(SELF_PAIRS,),
       fixes=(Fixed(DUMMY_BUDGET, r"the statement is about every \(\varepsilon_d\) selected from the original "
                                  "budgets: the dummies join each level in turn", "any"),))
def dummy_same_problem(settings: AuditSettings, *, self_pairs: str):
    levels = PrivacyLevels.from_sizes(["log(4)", "log(6)"], [1, 4])
    without = solve_read(levels, "opt0", self_pairs=self_pairs).worst_case_mse
    steps = []
    for dummy_level, extended in extended_domains(levels, 2):  # `dummy_budget=any`, fixed on the claim
        added = sorted(set(constrained_pairs(extended, self_pairs=self_pairs))
                       - set(constrained_pairs(levels, self_pairs=self_pairs)))
        with_them = solve_read(levels, "opt0", self_pairs=self_pairs, extended=extended).worst_case_mse
        unchanged_optimum = abs(without - with_them) <= 1e-6 * without
        counterexample = {"levels": r"toy example: \(\ln 4\) (HIV, 1 item), \(\ln 6\) (4 items)", "l": 2,
                          "dummies join": rf"level {dummy_level} (budget \(\ln {4 if dummy_level == 0 else 6}\))",
                          "constraints added by the dummies": [list(pair) for pair in added],
                          "optimal worst case without / with dummies": f"{without:.9f} / {with_them:.9f}"}
        steps.append(Step(Evidence("count + solver", f"dummies in level {dummy_level}",
                                   f"constraints added: {added or 'none'}; optimal worst case without / with the "
                                   f"dummies {without:.9f} / {with_them:.9f}"),
                          counterexample=counterexample if added or not unchanged_optimum else None))
    return decide(steps, "Whichever level the dummies join, the constraints and the optimum are unchanged.",
                  r"The dummies add the constraint \(s = t\) to a level of one item, so the problem changes.")


@claim("gu2020.dummy-budget.smaller-budget", location="Sec. VI-B, after Theorem 4",
       statement=r"We select \(\varepsilon_d\) [= \(\min \mathcal E\)] to guarantee the privacy with smaller budget in "
                 "(16).",
       methods=("hypothesis", "exact kernel"), recorded="verified",
       interpretation=r"The selection is reconstructed as \(\min \mathcal E\). Checked: \(\varepsilon_x\) of (16) is "
                      r"nondecreasing in \(\varepsilon_d\), so among the original budgets \(\min \mathcal E\) gives "
                      "every set its smallest budget.")
def dummy_smaller_budget(settings: AuditSettings):
    def violates(example):
        budgets, items, padding = example
        items = tuple(sorted(set(i for i in items if i < len(budgets))))
        smallest = itemset_budget(budgets, items, padding, min(budgets))
        return any(itemset_budget(budgets, items, padding, e) < smallest for e in budgets)

    strategy = st.tuples(st.lists(st.integers(0, 40).map(lambda k: Fraction(k, 8)), min_size=1, max_size=4),
                         st.lists(st.integers(0, 3), max_size=4), st.integers(1, 4))
    return decide([search_step("random budgets, sets and padding lengths",
                               find_counterexample(strategy, violates, settings),
                               lambda ex: {"budgets": [str(e) for e in ex[0]], "items": list(ex[1]), "l": ex[2]},
                               settings)],
                  r"\(\min \mathcal E\) minimises every \(\varepsilon_x\).", "")


@claim("gu2020.idue-ps-complexity", location="Sec. VI opening; Sec. VI-B; Sec. VII 'Applicability'",
       statement="IDUE-PS has the same computational complexity as IDUE: its probabilities are found by solving (9) "
                 r"with \(2T\) variables and \(T^2\) constraints, or (11)/(12); the complexity only depends on the "
                 "number of privacy levels (rather than the domain size of single-item or item-set).",
       methods=("count",), recorded={"self_pairs=all": "verified", "self_pairs=multi-item": "refuted"},
       interpretation="Checked on the solvers' problems: IDUE-PS is solved with IDUE's variables and the constraints "
                      "of the extended domain; the problem (variables, level pairs) for 3 levels over 5 items and over "
                      r"5000 items, with padding lengths 1 and 4, must be the same, with \(2T\) variables and \(T^2\) "
                      "constraints.",
       choices=(SELF_PAIRS,))
def idue_ps_complexity(settings: AuditSettings, *, self_pairs: str):
    problems = {}
    for name, sizes in (("5 items", [1, 1, 3]), ("5000 items", [1000, 1000, 3000])):
        levels = PrivacyLevels.from_sizes([1, 2, 3], sizes)
        for padding in (1, 4):
            for dummies, extended in extended_domains(levels, padding):  # the first level under `dummy_budget=min`
                problems[(f"{name}, l = {padding}", dummies)] = constrained_pairs(extended, self_pairs=self_pairs)
    T = 3
    sizes_seen = {name + (f", dummies in level {dummies}" if dummies else ""): len(pairs)
                  for (name, dummies), pairs in problems.items()}
    same = (all(len({tuple(pairs) for (_, d), pairs in problems.items() if d == dummies}) == 1
                for dummies in {d for _, d in problems})
            and set(sizes_seen.values()) == {T * T})
    counterexample = None if same else {"levels": "budgets {1, 2, 3}", "constraints": sizes_seen, "T^2": T * T,
                                        "why": r"a level of one item (before the dummies join) has no constraint \(s = "
                                               r"t\)"}
    return decide([Step(Evidence("count", "3 levels over 5 or 5000 items, padding 1 or 4 (dummies in the first level)",
                                 rf"constraints: {sizes_seen}; variables \(2T = {2 * T}\) in every case"),
                        counterexample=counterexample)],
                  "The problem's size depends on the levels only.",
                  r"The number of constraints depends on which levels hold a single item, not only on \(T\).")

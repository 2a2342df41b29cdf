"""Claims of the IPLDP preprint (2023, v1) about its notion (Secs. 1 and 4): how IPLDP reads (Sec. 4.1), its
relations with LDP (Sec. 4.2), and its comparison with ID-LDP and MinID-LDP (Secs. 1, 4.3).

Sec. 4.2 assumes ``D = D_S``:
every item is sensitive, so IPLDP is a bound per output column, and the
channels searched map the domain to itself.
"""

from __future__ import annotations

from fractions import Fraction

import z3
from hypothesis import strategies as st

from ldpspec.reference.ipldp2023.iprr import IPRR
from ldpspec.spec import (
    Channel,
    Exact,
    budget,
    ldp,
    ldp_epsilon,
    min_id_ldp,
    output_loss,
    pairwise_loss,
    to_decimal_string,
)
from ldpspec.verify.audit import outcome
from ldpspec.verify.claims import AuditSettings, Evidence, Step, claim, decide
from ldpspec.verify.common import ALL_ENTRIES, pointwise
from ldpspec.verify.ipldp2023.builders import (
    ipldp_check,
    ipldp_holds,
    shows_weaker,
    tightest_budgets,
    utility_cap,
)
from ldpspec.verify.ipldp2023.mechanisms import iprr_channel, log_budget_lists, sensitive_budgets, shown
from ldpspec.verify.ipldp2023.readings import BUDGET_OWNER, LIMITED, NOT_WEAKER
from ldpspec.verify.kernel_checks import KERNEL_CHECKS, input_budgets_text, kernel_check, number_text
from ldpspec.verify.search import budget_increments, find_counterexample, random_channels, search_step
from ldpspec.verify.symbolic import proof_step

# --- Sec. 4.2: IPLDP and LDP ---------------------------------------------------------------------

def _domain_channels(settings: AuditSettings):
    """Random exact channels from a domain D to itself, with random budget increments per item."""
    return st.integers(1, settings.max_inputs).flatmap(lambda n: st.tuples(
        random_channels(inputs=tuple(range(n)), outputs=tuple(range(n))),
        st.lists(budget_increments, min_size=n, max_size=n)))


def _describe(example, budgets) -> dict:
    return {"channel": example[0].to_json(),
            "budgets": {str(x): to_decimal_string(e) for x, e in budgets.items()}}


@claim("ipldp2023.sec4.2-equal-budgets", location=r"Sec. 4.2 (assuming \(D = D_S\))",
       statement=r"When all the privacy budgets are identical, i.e. \(\varepsilon_x = \varepsilon\) for all \(x \in "
                 r"D\), IPLDP becomes the general \(\varepsilon\)-LDP.",
       methods=("z3", "hypothesis"), recorded="verified")
def equal_budgets(settings: AuditSettings):
    a, b, E, Ey = z3.Reals("Q(y|x) Q(y|x') E_eps E_y")
    ipldp_condition, ldp_condition = a <= Ey * b, a <= E * b
    steps = [proof_step(r"with \(e^{\varepsilon_y} = e^{\varepsilon}\): IPLDP condition \(\Leftrightarrow\) LDP "
                        "condition, one output and "
                        f"one pair; {ALL_ENTRIES}",
                        pointwise("equal budgets", [Ey == E],
                                   z3.And(z3.Implies(ipldp_condition, ldp_condition),
                                          z3.Implies(ldp_condition, ipldp_condition)),
                                   [a, b], [E, Ey]))]

    def violates(example):
        channel, eps = example[0].channel, budget(example[1][0])
        return ipldp_holds(channel, {x: eps for x in channel.inputs}) != bool(ldp(channel, eps))

    example = find_counterexample(_domain_channels(settings), violates, settings)
    steps.append(search_step(r"random exact channels \(D \to D\), one random budget for every item; kernel: `ipldp` == "
                             "`ldp`",
                             example, lambda ex: {"channel": ex[0].to_json(), "epsilon": str(ex[1][0])}, settings))
    return decide(steps, "With equal budgets the IPLDP conditions are exactly the LDP conditions.",
                  "IPLDP with equal budgets and LDP disagree on a channel.")


@claim("ipldp2023.sec4.2-ldp-implies-ipldp", location=r"Sec. 4.2 (assuming \(D = D_S\))",
       statement=r"If a mechanism satisfies \(\varepsilon\)-LDP, it also satisfies \((D, \mathcal E)\)-IPLDP for all "
                 r"\(\mathcal E\) with \(\min\{\mathcal E\} = \varepsilon\).",
       methods=("z3", "hypothesis"), recorded="verified")
def ldp_implies_ipldp(settings: AuditSettings):
    a, b, E, Ey = z3.Reals("Q(y|x) Q(y|x') E_eps E_y")
    steps = [proof_step(rf"one output \(y\) with \(e^{{\varepsilon_y}} \ge e^{{\varepsilon}}\), one pair; "
                        f"{ALL_ENTRIES}",
                        pointwise("LDP implies IPLDP", [a <= E * b, Ey >= E], a <= Ey * b, [a, b], [E, Ey]))]

    def budgets_of(example):
        channel = example[0].channel
        eps = ldp_epsilon(channel)
        if eps.is_infinite:
            return None
        increments = example[1]
        raised = {x: eps + increments[k] for k, x in enumerate(channel.inputs)}
        raised[channel.inputs[0]] = eps  # min E = eps exactly
        return raised

    def violates(example):
        budgets = budgets_of(example)
        return budgets is not None and not ipldp_holds(example[0].channel, budgets)

    example = find_counterexample(_domain_channels(settings), violates, settings)
    steps.append(search_step(r"random exact channels \(D \to D\) at their tightest \(\varepsilon\); budgets with min "
                             r"exactly \(\varepsilon\); kernel: "
                             "`ipldp`", example, lambda ex: _describe(ex, budgets_of(ex)), settings))
    return decide(steps, "Each output's IPLDP bound is at least the LDP bound.",
                  r"An \(\varepsilon\)-LDP channel violates IPLDP with \(\min \mathcal E = \varepsilon\).")


@claim("ipldp2023.sec4.2-ipldp-implies-ldp", location=r"Sec. 4.2 (assuming \(D = D_S\))",
       statement=r"If a mechanism satisfies \((D, \mathcal E)\)-IPLDP, it also satisfies \(\max\{\mathcal E\}\)-LDP. "
                 "Therefore, IPLDP can be viewed as a relaxed version of LDP.",
       methods=("z3", "hypothesis"), recorded="verified")
def ipldp_implies_ldp(settings: AuditSettings):
    a, b, Ey, Emax = z3.Reals("Q(y|x) Q(y|x') E_y E_max")
    steps = [proof_step(rf"one output \(y\) with \(e^{{\varepsilon_y}} \le e^{{\varepsilon_{{\max}}}}\), one pair; "
                        f"{ALL_ENTRIES}",
                        pointwise("IPLDP implies LDP", [a <= Ey * b, Ey <= Emax], a <= Emax * b, [a, b], [Ey, Emax]))]

    def budgets_of(example):
        tightest = tightest_budgets(example[0].channel)
        if tightest is None:
            return None
        return {y: loss + example[1][k] for k, (y, loss) in enumerate(tightest.items())}

    def violates(example):
        budgets = budgets_of(example)
        return (budgets is not None and ipldp_holds(example[0].channel, budgets)
                and not ldp(example[0].channel, max(budgets.values())))

    example = find_counterexample(_domain_channels(settings), violates, settings)
    steps.append(search_step(r"random exact channels \(D \to D\), budgets at least each item's tightest IPLDP budget; "
                             r"kernel: `ldp` at \(\max \mathcal E\)",
                             example, lambda ex: _describe(ex, budgets_of(ex)), settings))
    return decide(steps, r"Every output's ratio is within \(e^{\max \mathcal "
                         r"E}\).", r"An IPLDP channel needs more than \(\max \mathcal E\) for LDP.")


def _strictly_relaxed_channel() -> tuple[Channel, dict]:
    """Items 0, 1 with budgets 0.1 and 5: output 0 has ratio exactly e^0.1, output 1 a ratio near e^0.62.

    Rows: x1 outputs 0 with probability 9/10, x0 with 9/10 e^-0.1. So the channel
    is (D, E)-IPLDP but not 0.1-LDP.
    """
    b = Exact.rational(Fraction(9, 10))
    a = b * Exact.exp(Fraction(-1, 10))
    return Channel((0, 1), (0, 1), [[a, 1 - a], [b, 1 - b]]), {0: Fraction(1, 10), 1: 5}


def _input_relaxed_channel() -> tuple[Channel, dict, str]:
    """Three items with budgets 0.1, 1 and 1: row 0 uniform, rows 1 and 2 within a factor 1.06 of it, so every
    input is within its own budget of every other (the budget on the input) while rows 1 and 2 differ by 53/47 >
    e^0.1 on outputs 0 and 2."""
    third, high, low = Fraction(1, 3), Fraction(53, 150), Fraction(47, 150)
    rows = [[third] * 3, [high, third, low], [low, third, high]]
    return (Channel((0, 1, 2), (0, 1, 2), rows), {0: Fraction(1, 10), 1: 1, 2: 1},
            r"row 0: \((1/3, 1/3, 1/3)\), row 1: \((53/150, 1/3, 47/150)\), row 2: \((47/150, 1/3, 53/150)\)")


def _not_weaker_checks(channel, budgets: dict, not_weaker: str) -> list[dict]:
    """The kernel checks of an example that shows IPLDP weaker (``shows_weaker``): the channel is IPLDP under the
    running reading of ``budget_owner``, and it is not (min E)-LDP (``as-requirement``), or an item's output column
    exceeds the item's own budget (``per-item``: the kernel's IPLDP, whose conditions are the column bounds, fails)."""
    subject = f"The channel with budgets {', '.join(str(e) for e in budgets.values())}"
    checks = [ipldp_check(channel, budgets, subject, expected="holds")]
    if not_weaker == "as-requirement":
        smallest = min(budgets.values())
        checks.append(kernel_check(channel, "ldp", {"epsilon": number_text(smallest)},
                                   what=f"{subject} is not {smallest}-LDP (LDP at its smallest budget)",
                                   expected="does not hold"))
    else:
        checks.append(kernel_check(channel, "ipldp", {"budgets": input_budgets_text(channel, budgets)},
                                   what=f"{subject} has an output column whose loss exceeds its item's own "
                                        "budget: it fails the column bounds of Definition 3 (the kernel's IPLDP)",
                                   expected="does not hold"))
    return checks


@claim("ipldp2023.sec4.2-not-weaker", location="Sec. 4.2",
       statement="The relaxation does not mean that IPLDP is weaker than LDP in terms of the privacy protection, but "
                 "LDP is too strong for items with different privacy needs. IPLDP has the ability to guarantee the "
                 "personalized privacy for each item.",
       methods=("exact example", "hypothesis"),
       recorded={"not_weaker=as-requirement, budget_owner=output": "refuted",
                 "not_weaker=as-requirement, budget_owner=input": "refuted",
                 "not_weaker=per-item, budget_owner=output": "verified",
                 "not_weaker=per-item, budget_owner=input": "refuted"},
       interpretation="Which protection 'not weaker' compares is the choice `not_weaker`; which budget the IPLDP "
                      "predicate puts on a pair is `budget_owner` (the sweep moved the per-item verdict with it, so "
                      r"the claim varies it). As a requirement on channels it compares \((D, \mathcal E)\)-IPLDP "
                      r"with \((\min \mathcal E)\)-LDP, the LDP it relaxes: an exact channel with \(\mathcal E = "
                      r"\{0.1, 5\}\) is IPLDP (budget on the output) and not \(0.1\)-LDP, and one with "
                      r"\(\mathcal E = \{0.1, 1, 1\}\) is IPLDP (budget on the input) and not \(0.1\)-LDP. Per "
                      r"item it asks that every IPLDP channel bound each item \(x\)'s column by "
                      r"\(e^{\varepsilon_x}\), as \(\varepsilon_x\)-LDP would: the IPLDP predicate against each "
                      "column's own loss, on the two examples and on random exact channels with budgets at least each "
                      "item's tightest IPLDP budget (searched only when no example decides). With the budget on the "
                      "output that is Definition 3 itself; with the budget on the input a column can exceed its "
                      "item's budget (the second example's column 0). That LDP is 'too strong' for such "
                      "needs is a judgement, not checked.",
       choices=(NOT_WEAKER, BUDGET_OWNER))
def not_weaker(settings: AuditSettings, *, not_weaker: str, budget_owner: str):
    steps = []
    for channel, budgets, shown_rows in (_strictly_relaxed_channel() + (
            r"row 0: \((0.9 e^{-0.1}, 1 - 0.9 e^{-0.1})\), row 1: \((0.9, 0.1)\)",), _input_relaxed_channel()):
        satisfied = ipldp_holds(channel, budgets)
        needed = ldp_epsilon(channel)
        smallest = min(budgets.values())
        shown_weaker = shows_weaker(channel, budgets, not_weaker=not_weaker)
        shown_budgets = ", ".join(str(e) for e in budgets.values())
        steps.append(Step(Evidence(
            "exact example", rf"{len(budgets)} items, \(\mathcal E = \{{{shown_budgets}\}}\)",
            rf"\((D, \mathcal E)\)-IPLDP: {satisfied}; (\(\min \mathcal E = {smallest}\))-LDP: "
            f"{bool(ldp(channel, smallest))}; tightest LDP budget {to_decimal_string(needed, 20)}; shows IPLDP weaker "
            f"under `not_weaker={not_weaker}`: {shown_weaker}"),
            counterexample={"channel": shown_rows, "budgets": {str(x): str(e) for x, e in budgets.items()},
                            "IPLDP": f"holds (`budget_owner={budget_owner}`)",
                            **({rf"\({smallest}\)-LDP": f"fails (kernel): the channel needs "
                                                        f"{to_decimal_string(needed, 6)}"}
                               if not_weaker == "as-requirement" else
                               {"column losses": {str(y): to_decimal_string(loss, 6)
                                                  for y, (loss, _) in output_loss(channel).items()}}),
                            KERNEL_CHECKS: _not_weaker_checks(channel, budgets, not_weaker)}
            if shown_weaker else None))
    refuted = (r"IPLDP admits a channel that \((\min \mathcal E)\)-LDP rules out: as a requirement it is weaker than "
               "the LDP it relaxes." if not_weaker == "as-requirement" else
               "An IPLDP channel lets an item's column exceed its own budget.")
    if any(step.counterexample for step in steps):  # an exact example decides; no search needed
        return decide(steps, "", refuted)

    def budgets_of(example):
        tightest = tightest_budgets(example[0].channel)
        if tightest is None:
            return None
        return {x: loss + example[1][k] for k, (x, loss) in enumerate(tightest.items())}

    def violates(example):
        chosen = budgets_of(example)
        return chosen is not None and shows_weaker(example[0].channel, chosen, not_weaker=not_weaker)

    found = find_counterexample(_domain_channels(settings), violates, settings)
    what = (r"IPLDP and not \((\min \mathcal E)\)-LDP" if not_weaker == "as-requirement" else
            r"IPLDP with an item's column loss above \(\varepsilon_x\)")
    steps.append(search_step(r"random exact channels \(D \to D\), budgets at least each item's "
                             f"tightest IPLDP budget; kernel: {what}", found, lambda ex: _describe(ex, budgets_of(ex)),
                             settings))
    return decide(steps, r"Every IPLDP channel bounds each item's column by its own \(e^{\varepsilon_x}\), as "
                         r"\(\varepsilon_x\)-LDP would." if not_weaker == "per-item" else
                  r"No IPLDP channel found that \((\min \mathcal E)\)-LDP rules out.", refuted)


# --- Sec. 1, Sec. 4.3: MinID-LDP ------------------------------------------------------------------

@claim("ipldp2023.sec1-idldp-limitation", location="Sec. 1; Sec. 2; Sec. 4.1",
       statement="Under ID-LDP the strength of perturbation is severely restricted by the minimum privacy budget: as "
                 "the minimum budget decreases, the perturbations of all items approach the maximum level.",
       methods=("z3", "hypothesis", "exact example"), recorded="verified",
       interpretation=r"Under \(\mathcal E\)-MinID-LDP (the instance of ID-LDP the paper names) every channel is \((2 "
                      r"\min \mathcal E)\)-LDP whatever the other budgets, so as \(\min \mathcal E \to 0\) every pair "
                      "of rows becomes indistinguishable (the maximum level of perturbation: the output independent of "
                      "the input). Checked by Gu et al.'s claim gu2020.lemma1-relaxation, whose outcome is reused, and "
                      "by IPRR beside it: with the same budgets IPRR keeps the larger budgets' outputs informative.")
def idldp_limitation(settings: AuditSettings):
    relaxation = outcome("gu2020.lemma1-relaxation", settings)
    steps = [Step(Evidence("ledger", r"gu2020.lemma1-relaxation: every \(\mathcal E\)-MinID-LDP channel is \((2 \min "
                                     r"\mathcal E)\)-LDP",
                           f"{relaxation.verdict}: {relaxation.summary}"),
                  inconclusive=relaxation.verdict != "verified")]
    rows = []
    for smallest in (Fraction(1, 10), Fraction(1, 100)):
        budgets = [smallest, 10]
        iprr_eps = ldp_epsilon(IPRR(budgets).channel())
        rows.append(rf"\(\mathcal E = \{{{smallest}, 10\}}\): MinID-LDP allows at most "
                    rf"{to_decimal_string(2 * smallest, 3)}-LDP; IPRR at \(\mathcal E\) is "
                    f"{to_decimal_string(iprr_eps, 4)}-LDP")
    steps.append(Step(Evidence("exact example", "two items", "; ".join(rows))))
    return decide(steps, r"Every \(\mathcal E\)-MinID-LDP channel is \((2 \min \mathcal E)\)-LDP, so all rows converge "
                         r"as \(\min \mathcal E \to 0\).",
                  r"A MinID-LDP channel is not \((2 \min \mathcal E)\)-LDP.")


@claim("ipldp2023.sec4.3-minid.per-output", location="Sec. 4.3",
       statement="IPLDP controls distinguishability per output, while MinID-LDP works per pair of inputs.",
       methods=("exact example",), recorded={"budget_owner=output": "verified", "budget_owner=input": "open"},
       interpretation="The two notions with the same budgets are incomparable: an exact channel satisfies one and "
                      "not the other, in both directions. The IPLDP predicate is read under `budget_owner` (the "
                      "sweep moved the verdict with it, so the claim varies it): with the budget on the output "
                      r"both examples separate the notions; with the budget on the input and \(D = D_S\) IPLDP "
                      "bounds each pair of inputs by the smaller of their budgets, as MinID-LDP does, and neither "
                      "example separates them (open: the examples decide nothing about that reading).",
       choices=(BUDGET_OWNER,))
def minid_per_output(settings: AuditSettings, *, budget_owner: str):
    budgets = [Fraction(1, 10), 5]
    iprr = IPRR(budgets).channel()
    a = (ipldp_holds(iprr, sensitive_budgets(budgets)), bool(min_id_ldp(iprr, sensitive_budgets(budgets))))
    budgets3 = [Fraction(1, 10), 5, 5]
    e = Exact.exp(Fraction(1, 10))
    u = Exact.rational(Fraction(1, 4))
    # inputs 1 and 2 reach output 0 through item 0's e^0.1 both ways: MinID allows e^0.2 between them
    channel = Channel((0, 1, 2), (0, 1), [[u * e, 1 - u * e], [u, 1 - u], [u * e * e, 1 - u * e * e]])
    b = (ipldp_holds(channel, sensitive_budgets(budgets3)), bool(min_id_ldp(channel, sensitive_budgets(budgets3))))
    steps = [Step(Evidence("exact example", r"IPRR with \(\mathcal E = \{0.1, "
                                            r"5\}\)", f"IPLDP {a[0]}, MinID-LDP {a[1]}"),
                  inconclusive=a != (True, False)),
             Step(Evidence("exact example", r"a channel over \(\mathcal E = \{0.1, 5, 5\}\) whose column 0 is "
                                            r"\((e^{0.1}, 1, e^{0.2}) / 4\)",
                           f"IPLDP {b[0]}, MinID-LDP {b[1]}"), inconclusive=b != (False, True))]
    return decide(steps, "IPLDP bounds each output's column by its own budget; MinID bounds each input pair by the "
                         "smaller budget: each admits a channel the other refuses.", "",
                  "An example did not behave as constructed." if budget_owner == "output" else
                  r"With the budget on the input the examples do not separate the notions: with \(D = D_S\) that "
                  "reading bounds each pair of inputs by the smaller of their budgets, as MinID-LDP does.")


@claim("ipldp2023.sec4.3-minid.relaxation", location="Sec. 4.3",
       statement=r"From Lemma 1 in [17], \(\mathcal E\)-MinID-LDP relaxes LDP in \(\varepsilon = 2 \min\{\mathcal "
                 r"E\}\) at most, which means that the degree of relaxation is much lower than IPLDP with the same "
                 r"\(\mathcal E\).",
       methods=("z3", "hypothesis", "exact example"),
       recorded={"budget_owner=output": "verified", "budget_owner=input": "open"},
       interpretation=r"MinID-LDP implies \((2 \min \mathcal E)\)-LDP (Gu et al.'s claim, reused); IPLDP with the same "
                      r"\(\mathcal E\) admits channels that are no better than \((\max \mathcal E)\)-LDP: IPRR with "
                      r"\(D = D_S\) is IPLDP and exactly \((\max \mathcal E)\)-LDP. 'Much lower' is read as \(2 \min "
                      r"\mathcal E < \max \mathcal E\), with the numbers of the experiments' budgets shown. The IPLDP "
                      "predicate is read under `budget_owner` (the sweep moved the verdict with it, so the claim "
                      r"varies it): with the budget on the input IPRR is not IPLDP, and with \(D = D_S\) that "
                      "reading bounds each pair of inputs by the smaller budget, as MinID-LDP does; the check has no "
                      r"IPLDP channel beyond \(2 \min \mathcal E\) for it: open.",
       choices=(BUDGET_OWNER,))
def minid_relaxation(settings: AuditSettings, *, budget_owner: str):
    relaxation = outcome("gu2020.lemma1-relaxation", settings)
    steps = [Step(Evidence("ledger", "gu2020.lemma1-relaxation", f"{relaxation.verdict}: {relaxation.summary}"),
                  inconclusive=relaxation.verdict != "verified")]
    budgets = [Fraction(1, 10), Fraction(34, 10), Fraction(67, 10), 10]  # LC = 4 levels on [0.1, 10]
    channel = IPRR(budgets).channel()
    eps = ldp_epsilon(channel)
    private = ipldp_holds(channel, dict(enumerate(budgets)))
    attained = eps == max(budgets) and private and 2 * min(budgets) < eps  # 'much lower': 2 min E < max E
    steps.append(Step(Evidence("exact", r"IPRR with \(\mathcal E = \{0.1, 3.4, 6.7, 10\}\) (experiment #5's levels, "
                                        r"\(D = D_S\))",
                               rf"IPRR is IPLDP: {private}; it is exactly {to_decimal_string(eps, 6)}-LDP = \(\max "
                               r"\mathcal E\); MinID-LDP at "
                               r"the same \(\mathcal E\) is at most "
                               f"{2 * min(budgets)}-LDP"), inconclusive=not attained))
    return decide(steps, r"MinID-LDP relaxes LDP to \(2 \min \mathcal E\) at most; IPLDP to \(\max \mathcal E\), which "
                         "IPRR attains.",
                  "", r"The IPRR example did not attain \(\max \mathcal E\)." if budget_owner == "output" else
                  r"With the budget on the input IPRR is not IPLDP: the check has no IPLDP channel beyond "
                  r"\(2 \min \mathcal E\).")


@claim("ipldp2023.sec4.3-minid.utility", location="Sec. 4.3",
       statement=r"As the minimum privacy budget of \(\mathcal E\) decreases, the utility improvement under MinID-LDP "
                 "is limited.",
       methods=("claim", "argument"),
       recorded={"limited=capped": "verified", "limited=vanishing": "open"},
       interpretation=r"What 'limited' bounds is the choice `limited`. Capped: every \(\mathcal E\)-MinID-LDP "
                      r"channel is \((2 \min \mathcal E)\)-LDP (Gu et al.'s gu2020.lemma1-relaxation, reused), so "
                      r"for any "
                      r"measure of utility no MinID mechanism does better than the best \((2 \min \mathcal E)\)-LDP "
                      r"one, whatever the other budgets, and that cap falls with \(\min \mathcal E\). Vanishing: "
                      r"the improvement over the best \((\min \mathcal E)\)-LDP mechanism must tend to nothing; the "
                      "sentence names no measure, and for the paper's losses the best LDP mechanism's loss has no "
                      "closed form to compare with.",
       choices=(LIMITED,))
def minid_utility(settings: AuditSettings, *, limited: str):
    relaxation = outcome("gu2020.lemma1-relaxation", settings)  # the MinID half of sec4.3-minid.relaxation
    premise = Step(Evidence("ledger", r"gu2020.lemma1-relaxation: every \(\mathcal E\)-MinID-LDP channel is \((2 "
                                      r"\min \mathcal E)\)-LDP",
                            f"{relaxation.verdict}: {relaxation.summary}"),
                   inconclusive=relaxation.verdict != "verified")
    cap = utility_cap(Fraction(1, 10), limited=limited)  # the LDP budget compared with, at min E = 0.1
    premise.evidence.result += (rf"; at \(\min \mathcal E = 0.1\) the mechanism compared with is the best "
                                rf"{to_decimal_string(budget(cap), 3)}-LDP one")
    if limited == "capped":
        return decide([premise], r"MinID-LDP implies \((2 \min \mathcal E)\)-LDP, so its utility is capped by the "
                                 r"best \((2 \min \mathcal E)\)-LDP mechanism's whatever the other budgets.", "")
    return decide([premise, Step(Evidence("none", r"the best \((\min \mathcal E)\)-LDP mechanism's utility",
                                          "no measure named; no closed form for the paper's losses"),
                                 inconclusive=True)], "", "",
                  "No reading decides 'vanishing': the sentence names no measure of utility, and the best "
                  r"\((\min \mathcal E)\)-LDP loss it would be compared with has no closed form.")


# --- Sec. 4.1 -------------------------------------------------------------------------------------

@claim("ipldp2023.sec4.1-interpretation", location="Sec. 4.1, after Definition 3",
       statement=r"IPLDP guarantees that the adversary's ability to distinguish whether any \(y \in D_S\) comes from "
                 r"any pair of inputs \(x\), \(x' \in D\) does not exceed the range set by \(\varepsilon_y\). That is "
                 r"to say, for \(x \in D_S\), it should satisfy \(\varepsilon_x\)-LDP. For \(x \in D_N\), it can only "
                 r"be perturbed to any \(x' \in D_S\) or itself.",
       methods=("hypothesis",),
       recorded={"budget_owner=output": "verified", "budget_owner=input": "refuted"},
       interpretation="Checked on every IPLDP channel IPRR builds (random budgets and splits, exact kernel) and on "
                      r"random exact channels that satisfy IPLDP: the sentence on \(D_N\) as written; the sentence on "
                      r"\(D_S\) under each reading of whose budget \(\varepsilon_x\) is.",
       choices=(BUDGET_OWNER,))
def interpretation(settings: AuditSettings, *, budget_owner: str):
    def violates(budgets):
        channel = iprr_channel(tuple(budgets))
        for x in range(len(budgets)):
            if budgets[x] is None and any(p and y != x and budgets[y] is None for y, p in enumerate(channel.row(x))):
                return True  # a non-sensitive input reaching another non-sensitive item
        return not ipldp_holds(channel, sensitive_budgets(budgets), budget_owner=budget_owner)

    scope = (r"IPRR with random budgets and splits into \(D_S\) and \(D_N\); kernel: \(D_N\) inputs reach only \(D_S\) "
             "or themselves, "
             + (r"each sensitive output's column within \(e^{\varepsilon_x}\)" if budget_owner == "output" else
                r"each sensitive input within \(e^{\varepsilon_x}\) of every other input on every output"))

    def describe_violation(budgets):
        losses = pairwise_loss(iprr_channel(tuple(budgets)))
        worst = [(x, pair, losses[pair]) for x, eps in enumerate(budgets) if eps is not None
                 for pair in losses if x in pair and losses[pair][0] > budget(eps)]
        found = {"budgets": shown(budgets)}
        if worst:
            x, pair, (loss, y) = worst[0]
            found.update({"input": x, "its budget": shown([budgets[x]])[0], "pair": list(pair), "output": y,
                          "log-ratio": to_decimal_string(loss, 12)})
        return found

    example = find_counterexample(log_budget_lists(settings), violates, settings)
    return decide([search_step(scope, example, describe_violation, settings)],
                  "The sentence holds on every IPLDP channel IPRR builds.",
                  "A sensitive input of an IPLDP channel is distinguishable from another input by more than its own "
                  "budget: the budget protects the output, not the input.")

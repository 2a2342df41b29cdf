"""Claims of the IPLDP preprint (2023, v1): the relations between IPLDP and LDP (Sec. 4.2).

Sec. 4.2 assumes ``D = D_S``:
every item is sensitive, so IPLDP is a bound per output column, and the
channels searched map the domain to itself.
"""

from __future__ import annotations

from fractions import Fraction

import z3
from hypothesis import strategies as st

from ldpspec.spec import Channel, Exact, budget, ipldp, ldp, ldp_epsilon, output_loss, to_decimal_string
from ldpspec.verify.claims import AuditSettings, Evidence, Step, claim, decide
from ldpspec.verify.common import ALL_ENTRIES, pointwise
from ldpspec.verify.ipldp2023.readings import NOT_WEAKER
from ldpspec.verify.search import budget_increments, find_counterexample, random_channels, search_step
from ldpspec.verify.symbolic import proof_step


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
        return bool(ipldp(channel, {x: eps for x in channel.inputs})) != bool(ldp(channel, eps))

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
        return budgets is not None and not ipldp(example[0].channel, budgets)

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
        losses = output_loss(example[0].channel)
        if any(loss.is_infinite for loss, _ in losses.values()):
            return None
        return {y: loss + example[1][k] for k, (y, (loss, _)) in enumerate(losses.items())}

    def violates(example):
        budgets = budgets_of(example)
        return budgets is not None and not ldp(example[0].channel, max(budgets.values()))

    example = find_counterexample(_domain_channels(settings), violates, settings)
    steps.append(search_step(r"random exact channels \(D \to D\), budgets at least each output's loss; kernel: `ldp` "
                             r"at \(\max \mathcal E\)",
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


@claim("ipldp2023.sec4.2-not-weaker", location="Sec. 4.2",
       statement="The relaxation does not mean that IPLDP is weaker than LDP in terms of the privacy protection, but "
                 "LDP is too strong for items with different privacy needs. IPLDP has the ability to guarantee the "
                 "personalized privacy for each item.",
       methods=("exact example", "hypothesis"),
       recorded={"not_weaker=as-requirement": "refuted", "not_weaker=per-item": "verified"},
       interpretation="Which protection 'not weaker' compares is the choice `not_weaker`. As a requirement on channels "
                      r"it compares \((D, \mathcal E)\)-IPLDP with \((\min \mathcal E)\)-LDP, the LDP it relaxes: an "
                      r"exact channel with \(\mathcal E = \{0.1, 5\}\) is IPLDP and not \(0.1\)-LDP. Per item it asks "
                      r"that every IPLDP channel bound each item \(x\)'s column by \(e^{\varepsilon_x}\), as "
                      r"\(\varepsilon_x\)-LDP would: the kernel's IPLDP predicate against each column's own loss, on "
                      "random exact channels and budgets. That LDP is 'too strong' for such needs is a judgement, "
                      "not checked.",
       choices=(NOT_WEAKER,))
def not_weaker(settings: AuditSettings, *, not_weaker: str):
    channel, budgets = _strictly_relaxed_channel()
    satisfied = bool(ipldp(channel, budgets))
    needed = ldp_epsilon(channel)
    evidence = Evidence("exact example", r"two items, \(\mathcal E = \{0.1, 5\}\)",
                        rf"\((D, \mathcal E)\)-IPLDP: {satisfied}; (\(\min \mathcal E = 0.1\))-LDP: "
                        f"{bool(ldp(channel, '0.1'))}; tightest LDP budget {to_decimal_string(needed, 20)}")
    if not_weaker == "as-requirement":
        confirmed = satisfied and not ldp(channel, "0.1") and needed > Fraction(1, 10)
        step = Step(evidence, counterexample={
            "channel": r"inputs and outputs \(\{0, 1\}\); row 0: \((0.9 e^{-0.1}, 1 - 0.9 e^{-0.1})\), row 1: "
                       r"\((0.9, 0.1)\)",
            "budgets": {str(x): str(e) for x, e in budgets.items()},
            r"\((D, \mathcal E)\)-IPLDP": "holds (kernel)",
            r"\(0.1\)-LDP": f"fails (kernel): the channel needs {to_decimal_string(needed, 6)}"} if confirmed else None,
            inconclusive=not confirmed)
        return decide([step], "",
                      r"IPLDP admits a channel that \((\min \mathcal E)\)-LDP rules out: as a requirement it is "
                      "weaker than the LDP it relaxes.",
                      "The example did not behave as constructed.")
    columns = {x: loss for x, (loss, _) in output_loss(channel).items()}
    own = all(columns[x] <= budget(e) for x, e in budgets.items())

    def budgets_of(example):
        return {x: budget(example[1][k]) for k, x in enumerate(example[0].channel.inputs)}

    def violates(example):
        chosen = budgets_of(example)
        losses = {x: loss for x, (loss, _) in output_loss(example[0].channel).items()}
        return bool(ipldp(example[0].channel, chosen)) and any(losses[x] > chosen[x] for x in chosen)

    found = find_counterexample(_domain_channels(settings), violates, settings)
    steps = [Step(Evidence("exact example", evidence.scope,
                           evidence.result + f"; each item's column within its own budget: {own}"),
                  inconclusive=not own),
             search_step(r"random exact channels \(D \to D\) and budgets; kernel: `ipldp` against each item's "
                         r"column loss \(\le \varepsilon_x\)", found, lambda ex: _describe(ex, budgets_of(ex)),
                         settings)]
    return decide(steps, r"Every IPLDP channel bounds each item's column by its own \(e^{\varepsilon_x}\), as "
                         r"\(\varepsilon_x\)-LDP would (Definition 3).",
                  "An IPLDP channel lets an item's column exceed its own budget.")

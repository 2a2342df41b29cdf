"""The z3 bridge: proofs for all budgets, confirmed counterexamples, and agreement with the kernel."""

from __future__ import annotations

from fractions import Fraction

import z3
from hypothesis import given, settings
from hypothesis import strategies as st

from ldpspec import spec
from ldpspec.reference.shared.grr import grr_rows
from ldpspec.reference.shared.unary import oue, oue_probabilities, sue, sue_probabilities
from ldpspec.spec.exact import Exact
from ldpspec.spec.nats import Nats
from ldpspec.verify.gu2020.baselines import _symbolic_unary
from ldpspec.verify.search import random_channels
from ldpspec.verify.symbolic import SymbolicBudget, SymbolicChannel, id_ldp_conditions, ldp_conditions, prove
from tests.support import examples


def test_grr_is_proved_ldp_for_every_budget():
    budget = SymbolicBudget("eps")
    channel = SymbolicChannel.from_matrix(range(4), range(4), grr_rows(budget.variable, 4))
    assert prove(ldp_conditions(channel, budget.exponentiated), [budget]).proved


def test_sue_at_half_its_budget_gets_a_counterexample_the_kernel_confirms():
    budget = SymbolicBudget("eps", divisor=2)
    channel = _symbolic_unary(sue_probabilities(budget.variable), 3)
    # Claim under test (false): SUE is (eps/2)-LDP, i.e. ratio <= s = e^{eps/2}.
    result = prove(ldp_conditions(channel, budget.variable), [budget],
                   confirm=lambda b: not spec.ldp(sue(b["eps"], 3).channel(), b["eps"] / 2))
    assert result.status == "counterexample"
    assert result.budgets["eps"] > 0
    x, x2 = result.failing.inputs
    assert x != x2


def test_a_model_the_kernel_does_not_confirm_is_not_a_counterexample():
    budget = SymbolicBudget("eps", divisor=2)
    channel = _symbolic_unary(sue_probabilities(budget.variable), 2)
    result = prove(ldp_conditions(channel, budget.variable), [budget], confirm=lambda b: False)
    assert result.status == "unconfirmed"


def test_budget_ranges_are_respected():
    budget = SymbolicBudget("eps", low=1, high=3, divisor=2)
    # OUE(eps) against (eps/2)-LDP: false for every eps > 0; the counterexample must lie in (1, 3].
    channel = _symbolic_unary(oue_probabilities(budget.exponentiated), 2)
    result = prove(ldp_conditions(channel, budget.variable), [budget],
                   confirm=lambda b: not spec.ldp(oue(b["eps"], 2).channel(), b["eps"] / 2))
    assert result.status == "counterexample"
    assert 1 <= result.budgets["eps"] <= 3
    # The rational end points enclose the range: nothing with eps < 1 - 1e-30 is admitted.
    solver = z3.Solver()
    solver.add(*budget.constraints())
    below, _ = Exact.exp(Fraction(1, 2)).bounds()
    solver.add(budget.variable < z3.RealVal(str(below * (1 - Fraction(1, 10**30)))))
    assert solver.check() == z3.unsat
    assert budget.contains(Nats.rational(2)) and budget.contains(Nats.rational(3))
    assert not budget.contains(Nats.rational(Fraction(301, 100))) and not budget.contains(Nats.log("2.71"))


def _rational_channel(rc):
    return SymbolicChannel.from_matrix(rc.inputs, rc.outputs,
                                       [[z3.RealVal(str(p)) for p in row] for row in rc.fractions])


@settings(max_examples=examples(120), deadline=None)
@given(random_channels(max_inputs=3, max_outputs=3), st.lists(st.integers(0, 12), min_size=3, max_size=3),
       st.sampled_from(["min", "max", "avg"]))
def test_id_ldp_conditions_agree_with_the_kernel(rc, steps, r):
    """z3's verdict on exact rational entries with E_x = 1 + k/4 equals the kernel's with eps_x = ln E_x."""
    E = {x: Fraction(4 + k, 4) for x, k in zip(rc.inputs, steps)}
    conditions = id_ldp_conditions(_rational_channel(rc), {x: z3.RealVal(str(e)) for x, e in E.items()}, r)
    proved = prove(conditions).proved
    budgets = {x: Nats.log(e) for x, e in E.items()}  # exactly ln E_x: ties with E_x are ties
    assert proved == spec.id_ldp(rc.channel, budgets, r).holds


@settings(max_examples=examples(120), deadline=None)
@given(random_channels(max_inputs=3, max_outputs=3), st.integers(0, 12))
def test_ldp_conditions_agree_with_the_kernel(rc, step):
    E = Fraction(4 + step, 4)
    proved = prove(ldp_conditions(_rational_channel(rc), z3.RealVal(str(E)))).proved
    assert proved == spec.ldp(rc.channel, Nats.log(E)).holds


def test_the_suwheel_density_bound_is_proved_and_the_proof_is_not_vacuous():
    """Theorem 7's marginal bound holds for every budget, m and covered lengths; the same assumptions admit a
    counterexample to a bound that is too strong (ratio 1), so they are satisfiable and the proof says something."""
    from ldpspec.verify.cao2022.privacy import suwheel_marginal_conditions
    from ldpspec.verify.symbolic import prove

    conditions, budget, assumptions = suwheel_marginal_conditions()
    assert prove(conditions, [budget], assumptions=assumptions).proved
    conditions, budget, assumptions = suwheel_marginal_conditions("1")
    assert prove(conditions, [budget], assumptions=assumptions).status == "unconfirmed"


def test_the_sugrr_proofs_read_the_mechanisms_own_distributions():
    """At a budget, the symbolic channels evaluate to the reference's exact channels (so z3 proves a property of the
    mechanism itself), and a bound that is too strong (ratio 1) has a counterexample (so the conditions bind)."""
    import z3

    from ldpspec.reference.cao2022.sugrr import SuGRR, SuGRRSample
    from ldpspec.verify.cao2022.privacy import ratio_conditions, sugrr_symbolic_channels
    from ldpspec.verify.symbolic import prove

    budget, channels = sugrr_symbolic_channels((3, 2, 1, None), "multiset", "absent")
    t = 2  # e^(eps/2) = 2: eps = 2 ln 2
    for (name, _, rows), reference in zip(channels, (SuGRR("log(4)", 3, [0], 2), SuGRRSample("log(4)", 3, [0], 2))):
        exact = reference.channel()
        for s, row in rows.items():
            for y, p in row.items():
                value = z3.simplify(z3.substitute(p, (budget.variable, z3.RealVal(t)))).as_fraction()
                assert value == exact.probability(s, y).as_rational(), (name, s, y)
    conditions = [c for _, E, rows in channels for c in ratio_conditions(rows, 1, "joint")]
    assert prove(conditions, [budget]).status == "unconfirmed"


def test_the_surap_proofs_read_the_mechanisms_channels():
    """At a budget, suRAP's and suRAP-Sample's symbolic channels are the reference's exact channels; a bound of 1
    has a counterexample."""
    import z3

    from ldpspec.reference.cao2022.surap import SuRAP, SuRAPSample
    from ldpspec.verify.cao2022.privacy import ratio_conditions, surap_symbolic_channels
    from ldpspec.verify.symbolic import prove

    channels = surap_symbolic_channels((3, 2, 2, None), "vector")
    # one bit's budget e^(eps/4) = 2 for suRAP (eps = 4 ln 2), e^(eps/2) = 2 for suRAP-Sample (eps = 2 ln 2)
    references = (SuRAP("log(16)", 3, [0, 1], 2, "vector"), SuRAPSample("log(4)", 3, [0, 1], 2, "vector"))
    for (name, budget, _, rows), reference in zip(channels, references):
        exact = reference.channel()
        for s, row in rows.items():
            assert set(row) == {y for y in exact.outputs if exact.probability(s, y)}, name
            for y, p in row.items():
                value = z3.simplify(z3.substitute(p, (budget.variable, z3.RealVal(2)))).as_fraction()
                assert value == exact.probability(s, y).as_rational(), (name, s, y)
        assert prove(ratio_conditions(rows, 1, "joint"), [budget]).status == "unconfirmed"

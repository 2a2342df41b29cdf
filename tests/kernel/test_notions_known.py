"""Predicates on hand-built channels whose answers are known in closed form."""

from __future__ import annotations

from fractions import Fraction

import mpmath
import pytest

from ldpspec import spec
from ldpspec.reference.shared.grr import Grr
from ldpspec.spec.exact import Exact
from ldpspec.spec.nats import Nats


def test_tie_at_the_budget_holds_and_a_relative_excess_of_1e30_fails():
    channel = Grr(1, 3).channel()
    tie = spec.ldp(channel, 1)
    assert tie.holds and tie.margin == 0 and tie.witness.log_ratio == tie.witness.bound  # a tie, decided exactly
    p = channel.probability(0, 0)
    p_up = p * (1 + Fraction(1, 10**30))
    q_up = (1 - p_up) / 2
    rows = [[p_up if x == y else q_up for y in range(3)] for x in range(3)]
    above = spec.ldp(spec.Channel(range(3), range(3), rows), 1)
    assert not above.holds
    assert mpmath.mpf("-1e-29") < above.margin < mpmath.mpf("-1e-31")


def test_an_excess_of_1e_minus_40_is_not_within_the_budget():
    """A tolerance of 1e-36 nats once let this channel hold: ratio e^(1 + 1e-40) against e^1."""
    ratio = Exact.exp(1 + Fraction(1, 10**40))
    rows = [[ratio / (1 + ratio), 1 / (1 + ratio)], [1 / (1 + ratio), ratio / (1 + ratio)]]
    channel = spec.Channel([0, 1], [0, 1], rows)
    assert not spec.ldp(channel, 1).holds
    assert spec.ldp(channel, 1 + Fraction(1, 10**40)).holds
    assert spec.ldp_epsilon(channel) == Nats.rational(1 + Fraction(1, 10**40))


def test_a_rational_ratio_never_ties_with_e_to_a_rational_budget():
    """ln 3 cut to 40 digits is below ln 3: the channel with ratio 3 exceeds it by about 5e-41."""
    ln3_cut = "1.098612288668109691395245236922525704647"
    channel = spec.Channel([0, 1], [0, 1], [["3/4", "1/4"], ["1/4", "3/4"]])
    assert not spec.ldp(channel, ln3_cut).holds
    assert spec.ldp(channel, "1.098612288668109691395245236922525704648").holds
    assert spec.ldp(channel, "log(3)").holds and spec.ldp(channel, "log(3)").margin == 0


def test_rows_must_sum_to_one_exactly():
    with pytest.raises(spec.InvalidChannel, match="sum"):
        spec.Channel([0, 1], [0, 1], [["0.5", "0.4995"], ["0.5", "0.5"]])
    with pytest.raises(spec.InvalidChannel, match="sum"):
        spec.Channel([0, 1], [0, 1], [["0.5", "0.5000000000000000000000000000000000000000001"], ["0.5", "0.5"]])


def test_a_caller_changing_global_mpmath_precision_does_not_change_verdicts():
    old = mpmath.mp.dps
    try:
        mpmath.mp.dps = 5
        assert spec.ldp(Grr(1, 3).channel(), 1).holds
        assert not spec.ldp(Grr(1, 3).channel(), "0.9999999999999999999999999")
    finally:
        mpmath.mp.dps = old


def test_an_output_impossible_for_one_input_gives_infinite_loss():
    channel = spec.Channel(["x", "z"], ["a", "b"], [["1", "0"], ["0.5", "0.5"]])
    assert spec.ldp_epsilon(channel).is_infinite
    verdict = spec.ldp(channel, 1000)
    assert not verdict and verdict.margin == -mpmath.inf
    assert verdict.witness.inputs == ("z", "x") and verdict.witness.output == "b"


def test_single_input_channel_is_0_ldp():
    channel = spec.Channel(["only"], ["a", "b"], [["0.3", "0.7"]])
    assert spec.ldp_epsilon(channel) == 0 and spec.ldp(channel, 0)


def test_large_budgets_do_not_overflow():
    eps = 10**6
    channel = Grr(eps, 4).channel()
    assert spec.ldp(channel, eps).holds
    assert not spec.ldp(channel, eps - 1).holds
    assert spec.ldp_epsilon(channel) == eps  # exactly: GRR's ratio is e^eps


def urr_channel(eps, sensitive, non_sensitive):
    """uRR (Murakami and Kawamoto 2019): c1 = e^eps/D, c2 = 1/D, c3 = (e^eps - 1)/D with D = k + e^eps - 1."""
    E = Exact.exp(Fraction(eps))
    k = len(sensitive)
    D = k + E - 1
    items = list(sensitive) + list(non_sensitive)
    rows = []
    for x in items:
        row = []
        for y in items:
            if x in sensitive:
                row.append(E / D if y == x else (1 / D if y in sensitive else 0))
            else:
                row.append(1 / D if y in sensitive else ((E - 1) / D if y == x else 0))
        rows.append(row)
    return spec.Channel(items, items, rows)


def test_urr_satisfies_uldp_exactly_at_its_budget_and_is_not_ldp():
    channel = urr_channel(1, ["hiv", "cancer"], ["flu", "none"])
    assert spec.uldp(channel, ["hiv", "cancer"], ["hiv", "cancer"], 1).holds
    assert not spec.uldp(channel, ["hiv", "cancer"], ["hiv", "cancer"], "0.999")
    assert spec.ldp_epsilon(channel).is_infinite
    # Declaring a non-sensitive item sensitive breaks the invertibility condition.
    broken = spec.uldp(channel, ["hiv", "cancer", "flu"], ["hiv", "cancer"], 1)
    assert not broken and broken.witness.condition == "invertible output" and broken.witness.output == "flu"


def test_identity_channel_is_uldp_with_everything_invertible():
    channel = spec.Channel(list("abc"), list("abc"), [[1, 0, 0], [0, 1, 0], [0, 0, 1]])
    assert spec.uldp(channel, [], [], 0).holds
    assert not spec.uldp(channel, ["a"], [], 0).holds  # "a" is invertible but sensitive


def iprr_channel(budgets: dict, non_sensitive: list):
    """IPRR (IPLDP preprint Def. 5) in its compact form Q(y|x) = S (1[y = x] + r_y)."""
    r = {x: 1 / (Exact.exp(Fraction(e)) - 1) for x, e in budgets.items()}
    S = 1 / (1 + sum(r.values()))
    items = list(budgets) + list(non_sensitive)
    return spec.Channel(items, items, [[S * ((1 if y == x else 0) + r.get(y, 0)) for y in items] for x in items])


def test_iprr_satisfies_ipldp_with_each_output_tight():
    budgets = {"x1": "0.1", "x2": "0.5", "x3": "1.0"}
    channel = iprr_channel(budgets, ["x4", "x5"])
    verdict = spec.ipldp(channel, budgets)
    assert verdict.holds and verdict.margin == 0
    losses = spec.output_loss(channel)
    for item, eps in budgets.items():
        assert losses[item][0] == Fraction(eps)  # each output's loss is its budget, exactly
    tighter = dict(budgets, x3="0.999")
    failing = spec.ipldp(channel, tighter)
    assert not failing and failing.witness.output == "x3"
    # Treating a sensitive item as non-sensitive breaks condition 2.
    assert spec.ipldp(channel, {"x1": "0.1", "x2": "0.5"}).witness.condition == "non-sensitive item"


def test_the_three_suldp_readings_differ():
    """m = 2, X_sen = {a, b}, X_non = {u}. The marginal of y0 is constant, the unrevealed outputs stay
    within e^1, but the output revealing u differs by a factor 4 between (a, u) and (b, u)."""
    inputs = [("a", "u"), ("b", "u"), ("a", "b")]
    outputs = [("s", ()), ("s", ("u",))]
    rows = [["0.6", "0.4"], ["0.9", "0.1"], ["1", "0"]]
    channel = spec.Channel(inputs, outputs, rows)
    arguments = (channel, ["a", "b"], ["u"], ["s"], 1)
    assert spec.suldp_marginal(*arguments).holds
    assert spec.suldp_joint_unrevealed(*arguments).holds
    joint = spec.suldp_joint(*arguments)
    assert not joint and joint.witness.output == ("s", ("u",))
    assert joint.witness.log_ratio == Nats.log(4)


def test_suldp_conditions_9_and_10():
    inputs = [("a",), ("u",)]
    outputs = [("s", ()), ("s", ("u",))]
    # (10): input ("a",) reveals u, which it does not hold.
    leaking = spec.Channel(inputs, outputs, [["0.5", "0.5"], ["0.5", "0.5"]])
    verdict = spec.suldp_marginal(leaking, ["a"], ["u"], ["s"], 5)
    assert not verdict and verdict.witness.condition == "condition (10)"
    # (9): u is revealed by one of its holders, but the other holder never reveals it.
    pairs = [("a", "u"), ("b", "u"), ("a", "b")]
    silent = spec.Channel(pairs, outputs, [["0.5", "0.5"], ["1", "0"], ["1", "0"]])
    verdict = spec.suldp_joint(silent, ["a", "b"], ["u"], ["s"], 5)
    assert not verdict and verdict.witness.condition == "condition (9)" and verdict.witness.inputs == (("b", "u"),)
    # An output that no input produces is not in the mechanism's range: it reveals nothing and constrains nothing.
    unused = spec.Channel(inputs, outputs, [["1", "0"], ["1", "0"]])
    assert spec.suldp_joint(unused, ["a"], ["u"], ["s"], 0).holds
    assert spec.uldp(spec.Channel(["a", "u"], ["s", "u", "never"], [["1", "0", "0"], ["1/2", "1/2", "0"]]),
                     ["a"], ["s"], "log(2)").holds


def test_graded_ldp_with_each_pair_function():
    """Two levels: [0, 1) with budget 1, [1, 2] with budget 3; inputs 0, 1, 2. Inputs 0 and 2 differ by
    ln-ratio 2: within max (3) and avg (2), not within min (1)."""
    E = Exact.exp(1)
    rows = [[E * E / (E * E + 1), 1 / (E * E + 1)], ["1/2", "1/2"], [1 / (E * E + 1), E * E / (E * E + 1)]]
    channel = spec.Channel([0, 1, 2], ["lo", "hi"], rows)
    assert spec.graded_ldp(channel, [0, 1, 2], [1, 3], "max").holds
    assert spec.graded_ldp(channel, [0, 1, 2], [1, 3], "avg").holds
    assert not spec.graded_ldp(channel, [0, 1, 2], [1, 3], "min").holds


def test_ldp_on_structured_and_explicit_unary_agree():
    from ldpspec.reference.shared.unary import oue, sue

    for build in (lambda e, d: sue(e, d).channel(), lambda e, d: oue(e, d).channel()):
        structured = build("1.5", 4)
        explicit = structured.explicit()
        for eps in ("1.5", "1.49"):
            assert spec.ldp(structured, eps).holds == spec.ldp(explicit, eps).holds
        assert spec.ldp_epsilon(structured) == spec.ldp_epsilon(explicit)


def test_explicit_refuses_too_many_outputs():
    from ldpspec.reference.shared.unary import oue

    with pytest.raises(spec.InvalidParameter, match="20 inputs x 1,048,576 outputs.*max-entries"):
        oue(1, 20).channel().explicit()


def test_a_policy_graph_protects_only_its_pairs():
    """Gu et al. Sec. VIII: with an incomplete policy graph the gain can exceed 2 min E."""
    channel = spec.Channel(["flu", "cold", "hiv"], ["a", "b", "z"],
                           [["0.99", "0.01", "0"], ["0.01", "0.99", "0"], ["0", "0", "1"]])
    budgets = {"flu": 5, "cold": 5, "hiv": 1}
    assert not spec.min_id_ldp(channel, budgets)                             # the complete graph protects hiv too
    assert spec.min_id_ldp(channel, budgets, policy=[("flu", "cold")]).holds  # only flu-cold is protected
    assert spec.ldp_epsilon(channel).is_infinite                            # gain beyond any 2 min E
    with pytest.raises(spec.InvalidParameter, match='unknown label "x"'):
        spec.min_id_ldp(channel, budgets, policy=[("flu", "x")])


def test_suldp_judges_sets_of_several_sizes():
    """Def. 3 takes sets of one size; after padding and sampling (Sec. 3.3) a mechanism sees several, and the
    conditions read the same. ("a",) and ("a", "u") share y0's distribution, but only the second reveals u: the
    whole release tells them apart (joint reading), y0 alone does not (marginal)."""
    inputs = [("a",), ("b",), ("a", "u")]
    outputs = [("s", ()), ("s", ("u",))]
    channel = spec.Channel(inputs, outputs, [["1", "0"], ["1", "0"], ["1/2", "1/2"]])
    assert spec.suldp_marginal(channel, ["a", "b"], ["u"], ["s"], 0).holds
    joint = spec.suldp_joint(channel, ["a", "b"], ["u"], ["s"], "log(2)")
    assert joint.holds  # (s, ()) is 1 against 1/2: ratio 2, within e^{ln 2}; (s, (u,)) is held by one set only
    assert not spec.suldp_joint(channel, ["a", "b"], ["u"], ["s"], "1/2")


def test_an_invertible_output_may_carry_more_than_the_items_it_reveals():
    """uRAP's vector with a non-sensitive 1 reveals that item and carries its sensitive bits: an invertible output,
    which (11) does not bound. An output that reveals nothing must be protected."""
    inputs = [("a",), ("u",)]
    outputs = [((0, 0), ()), ((1, 0), ()), ((0, 1), ("u",)), ((1, 1), ("u",))]
    rows = [["1/4", "3/4", "0", "0"], ["1/8", "1/8", "1/4", "1/2"]]
    channel = spec.Channel(inputs, outputs, rows)
    protected = [(0, 0), (1, 0)]
    verdict = spec.suldp_joint(channel, ["a"], ["u"], protected, "log(6)")  # (1, 0): 3/4 against 1/8
    assert verdict.holds and verdict.witness.log_ratio == Nats.log(6)
    unprotected = spec.suldp_joint(channel, ["a"], ["u"], [(0, 0)], "log(6)")
    assert not unprotected and unprotected.witness.condition == "output space"  # (1, 0) reveals nothing


def _probabilities_make_the_ratio(verdict, channel):
    """The witness's two probabilities are the channel's entries at its pair and output, and their ratio is its."""
    witness = verdict.witness
    (x, x2), y = witness.inputs, witness.output
    p, q = witness.probabilities
    assert (p, q) == (channel.probability(x, y), channel.probability(x2, y))
    assert witness.log_ratio.compare(Nats.log(Exact.of(p) / Exact.of(q))) == 0
    assert witness.to_json()["exact"]["probabilities"] == [Exact.of(p).text(), Exact.of(q).text()]


def test_a_ratio_witness_carries_the_two_probabilities_of_its_ratio():
    explicit = spec.Channel([0, 1, 2], ["a", "b"], [["3/4", "1/4"], ["1/4", "3/4"], ["1/2", "1/2"]])
    for verdict in (spec.ldp(explicit, 1), spec.min_id_ldp(explicit, {0: 1, 1: 2, 2: 2}),
                    spec.uldp(explicit, [0, 1], ["a", "b"], 1)):
        _probabilities_make_the_ratio(verdict, explicit)
    grr = Grr(1, 3).channel()
    _probabilities_make_the_ratio(spec.ipldp(grr, {0: 1, 1: 1, 2: 1}), grr)
    # given by its structure, a channel's entries are products over every item: its witness names the pair only
    classed = spec.ClassedUnary([("1/4", "3/4"), ("1/3", "2/3")], [("3/4", "1/4"), ("2/3", "1/3")], [0, 0, 0, 1, 1])
    assert spec.ldp(classed, 1).witness.probabilities is None
    _probabilities_make_the_ratio(spec.ldp(classed.explicit(), 1), classed.explicit())


def test_a_suldp_witness_carries_no_probabilities():
    """SULDP's conditions are over the protected part of an output (a marginal, or the unrevealed outputs): no two
    entries of the channel make their ratio."""
    channel = spec.Channel([("a", "u"), ("b", "u"), ("a", "b")], [("s", ()), ("s", ("u",))],
                           [["0.6", "0.4"], ["0.9", "0.1"], ["1", "0"]])
    for predicate in (spec.suldp_marginal, spec.suldp_joint_unrevealed, spec.suldp_joint):
        verdict = predicate(channel, ["a", "b"], ["u"], ["s"], 1)
        assert verdict.witness is not None and verdict.witness.probabilities is None
        assert "probabilities" not in verdict.witness.to_json()

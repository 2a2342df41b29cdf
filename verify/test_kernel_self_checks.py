"""Self-checks of the kernel that every ``pytest verify`` runs before the audit's verdicts can be trusted.

The audit judges the papers' claims with the kernel's notions (``spec/notions.py``), its exact numbers
(``spec/exact.py``, ``spec/nats.py``) and its channels (``spec/channel.py``, ``spec/rows.py``); a slip in one of them
can move no recorded verdict and still be wrong. Each check below puts a hand-built channel exactly on a condition's
boundary, where the notion holds, and a tiny exact amount past it (a relative ``10^-40``, or ``e^-100``), where it
fails; every expected verdict is reasoned here from the definition as the paper prints it, never computed by the code
under test. Budgets are ``log(a)`` where the boundary ratio is the rational ``a``, and ``eps = 1`` where it is ``e``.

* LDP (Gu et al. Def. 1), ID-LDP with ``r`` = min, avg and max (Gu et al. Def. 2-3, Sec. VIII), graded LDP (Hao et
  al. Def. 2) with a channel on which the three pair functions give three different verdicts;
* ULDP (Cao et al. Def. 2, eqs. (2)-(4)), SULDP's three readings (Cao et al. Def. 3), IPLDP (IPLDP preprint Def. 3)
  with its condition on non-sensitive items;
* exact comparisons and signs of numbers that differ by ``10^-60`` or ``e^-100`` relative, and the row-sum check on
  rows summing to ``1 +- 10^-60``;
* LHP's level budget (Hao et al. Algorithm 3, step 3: the value is kept with ``p_{t*}`` of the *perturbed* level).
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from ldpspec import spec
from ldpspec.reference.registry import MECHANISMS
from ldpspec.spec import Exact, Nats

TINY = Fraction(1, 10**40)
"""A relative excess no tolerance may absorb."""
E_TINY = Exact.exp(-100)
"""An irrational relative excess, about 3.7e-44."""


def binary(ratio) -> spec.Channel:
    """Two inputs, two outputs, each column's ratio exactly ``ratio``: ``[[R, 1], [1, R]] / (1 + R)``."""
    ratio = Fraction(ratio) if isinstance(ratio, int) else ratio
    return spec.Channel([0, 1], [0, 1], [[ratio / (1 + ratio), 1 / (1 + ratio)],
                                         [1 / (1 + ratio), ratio / (1 + ratio)]])


# --- LDP --------------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("ratio, budget", [(Fraction(2), "log(2)"), (Fraction(3), "log(3)"), (Exact.exp(1), "1"),
                                           (Exact.exp(Fraction(1, 3)), "1/3")])
def test_ldp_holds_on_its_boundary_and_fails_just_past_it(ratio, budget):
    # Gu et al. Def. 1: P[y|x] <= e^eps P[y|x']. The ratio e^eps itself is allowed; any more is not.
    assert spec.ldp(binary(ratio), budget).holds
    assert not spec.ldp(binary(ratio * (1 + TINY)), budget).holds
    assert not spec.ldp(binary(ratio * (1 + E_TINY)), budget).holds
    assert spec.ldp(binary(ratio * (1 - TINY)), budget).holds
    # 10^-100 relative: below the enclosures' first precision, so decided by the exact comparison of the two bases.
    assert not spec.ldp(binary(ratio * (1 + Fraction(1, 10**100))), budget).holds


def test_ldp_budget_just_below_the_ratio_fails():
    # ln 2 = 0.693147180559945309417232121458176568075...: the 40-digit cut is below it, so ratio 2 exceeds it.
    assert not spec.ldp(binary(2), "0.6931471805599453094172321214581765680755").holds
    assert spec.ldp(binary(2), "0.6931471805599453094172321214581765680756").holds
    assert not spec.ldp(binary(Exact.exp(1)), 1 - TINY).holds


# --- ID-LDP and graded LDP: the pair function -------------------------------------------------------------------
#
# Inputs a and b with budgets ln 2 and ln 8: r = min gives ln 2, avg (ln 2 + ln 8)/2 = ln 4, max ln 8. A channel whose
# one pair has ratio exactly 2, 4 or 8 sits on the boundary of one pair function: it holds there and for every
# larger r, and fails, a tiny amount past it, for that r and every smaller one.

PAIR_BOUNDS = {"min": Fraction(2), "avg": Fraction(4), "max": Fraction(8)}
ORDER = ("min", "avg", "max")


@pytest.mark.parametrize("on", ORDER)
def test_id_ldp_pair_functions_are_distinguished(on):
    budgets = {0: "log(2)", 1: "log(8)"}
    at, past = binary(PAIR_BOUNDS[on]), binary(PAIR_BOUNDS[on] * (1 + TINY))
    for r in ORDER:
        larger_or_equal = ORDER.index(r) >= ORDER.index(on)
        assert bool(spec.id_ldp(at, budgets, r)) is larger_or_equal, (r, "at", on)
        assert bool(spec.id_ldp(past, budgets, r)) is (ORDER.index(r) > ORDER.index(on)), (r, "past", on)
    expected_min = ORDER.index(on) == 0
    assert bool(spec.min_id_ldp(at, budgets)) is expected_min
    assert bool(spec.avg_id_ldp(at, budgets)) is (ORDER.index(on) <= 1)
    assert not spec.avg_id_ldp(binary(4 * (1 + TINY)), budgets)
    assert not spec.min_id_ldp(binary(2 * (1 + E_TINY)), budgets)


def graded(ratio) -> spec.Channel:
    """Inputs -1 (level 1, [-1, 0)) and 0, 1 (level 2, [0, 1], the last interval closed): -1 against either other
    input has ratio ``ratio``; 0 and 1 have the same row."""
    ratio = Fraction(ratio) if isinstance(ratio, int) else ratio
    low, high = [ratio / (1 + ratio), 1 / (1 + ratio)], [1 / (1 + ratio), ratio / (1 + ratio)]
    return spec.Channel([-1, 0, 1], ["a", "b"], [low, high, high])


@pytest.mark.parametrize("on", ORDER)
def test_graded_ldp_pair_functions_are_distinguished(on):
    # Hao et al. Def. 2: P[y|x] <= e^{r(eps_x, eps_x')} P[y|x'], interval budgets ln 2 on [-1, 0) and ln 8 on [0, 1].
    arguments = {"boundaries": [-1, 0, 1], "budgets": ["log(2)", "log(8)"]}
    at, past = graded(PAIR_BOUNDS[on]), graded(PAIR_BOUNDS[on] * (1 + TINY))
    for r in ORDER:
        assert bool(spec.graded_ldp(at, r=r, **arguments)) is (ORDER.index(r) >= ORDER.index(on)), (r, "at", on)
        assert bool(spec.graded_ldp(past, r=r, **arguments)) is (ORDER.index(r) > ORDER.index(on)), (r, "past", on)


def test_graded_ldp_uses_each_inputs_own_interval():
    # Hao et al. Sec. 3.1: the intervals are [b_0, b_1), ..., [b_{k-1}, b_k], so 0 belongs to [0, 1] (ln 8) and -1/2
    # to [-1, 0) (ln 2). Inputs -1, -1/2 share one row, 0 and 1 the other, ratio 4 between them: under max every
    # cross pair has ln 8 and holds; were 0 read in [-1, 0], the pair (-1/2, 0) would have ln 2 and fail. Under min
    # every cross pair has ln 2 and fails.
    low, high = ["1/5", "4/5"], ["4/5", "1/5"]
    channel = spec.Channel([-1, "-1/2", 0, 1], ["a", "b"], [low, low, high, high])
    assert spec.graded_ldp(channel, [-1, 0, 1], ["log(2)", "log(8)"], "max").holds
    assert not spec.graded_ldp(channel, [-1, 0, 1], ["log(2)", "log(8)"], "min").holds
    # With boundaries [-1, 1/2, 1], -1/2 and 0 share [-1, 1/2) (ln 2): their ratio 4 fails under every r.
    channel = spec.Channel([-1, "-1/2", 0, "1/2", 1], ["a", "b"], [low, low, high, high, high])
    for r in ORDER:
        assert not spec.graded_ldp(channel, [-1, "1/2", 1], ["log(2)", "log(8)"], r).holds
    assert spec.graded_ldp(channel, [-1, "1/2", 1], ["log(4)", "log(8)"], "min").holds


# --- ULDP and SULDP ---------------------------------------------------------------------------------------------

def urr_by_hand(delta=0) -> spec.Channel:
    """uRR at E = 2 with X_sen = {0, 1}, X_non = {2} (D = E + k - 1 = 3): rows [2/3, 1/3, 0], [1/3, 2/3, 0],
    [1/3, 1/3, 1/3]; ``delta`` moves mass of input 0 from output 0 to the invertible output 2."""
    return spec.Channel([0, 1, 2], [0, 1, 2], [[Fraction(2, 3) - delta, Fraction(1, 3), delta],
                                               [Fraction(1, 3), Fraction(2, 3), 0],
                                               [Fraction(1, 3), Fraction(1, 3), Fraction(1, 3)]])


def test_uldp_on_its_boundaries():
    # Cao et al. Def. 2: (2)-(3) an invertible output has exactly one producer, a non-sensitive one; (4) the protected
    # outputs' ratio at most e^eps. The protected columns have ratio exactly 2.
    assert spec.uldp(urr_by_hand(), [0, 1], [0, 1], "log(2)").holds
    assert not spec.uldp(urr_by_hand(), [0, 1], [0, 1], "0.6931471805599453094172321214581765680755").holds
    assert not spec.uldp(urr_by_hand(TINY), [0, 1], [0, 1], "log(2)").holds  # output 2 from the sensitive 0 too
    assert not spec.uldp(urr_by_hand(), [0, 1, 2], [0, 1], "log(2)").holds  # its producer is sensitive
    rows = [[Fraction(2, 3) * (1 + TINY), Fraction(1, 3) - Fraction(2, 3) * TINY, 0],
            [Fraction(1, 3), Fraction(2, 3), 0], [Fraction(1, 3), Fraction(1, 3), Fraction(1, 3)]]
    assert not spec.uldp(spec.Channel([0, 1, 2], [0, 1, 2], rows), [0, 1], [0, 1], "log(2)").holds


def set_channel(ratio, reveal_sensitive=False) -> spec.Channel:
    """Inputs the sets (0,) and (1,), 0 sensitive, 1 not. (0,) always releases the protected part (0,); (1,) releases
    it with 1/ratio and reveals 1 otherwise (or, with ``reveal_sensitive``, 'reveals' the sensitive 0)."""
    revealed = (0,) if reveal_sensitive else (1,)
    return spec.Channel([(0,), (1,)], [((0,), ()), (None, revealed)],
                        [[1, 0], [1 / ratio, 1 - 1 / ratio]])


@pytest.mark.parametrize("reading", sorted(spec.SULDP_READINGS))
def test_suldp_on_its_boundaries(reading):
    # Cao et al. Def. 3: (9)-(10) a revealed item is a non-sensitive item of the input; (11) the protected part's ratio
    # at most e^eps (here 1 against 1/2, under each reading: both sets hold the revealed set ()).
    check = spec.SULDP_READINGS[reading]
    assert check(set_channel(2), [0], [1], [(0,)], "log(2)").holds
    assert not check(set_channel(2 * (1 + TINY)), [0], [1], [(0,)], "log(2)").holds
    assert not check(set_channel(2), [0], [1], [(0,)], "0.6931471805599453094172321214581765680755").holds
    assert not check(set_channel(2, reveal_sensitive=True), [0], [1], [(0,)], "log(2)").holds  # reveals sensitive 0


# --- IPLDP ------------------------------------------------------------------------------------------------------
#
# IPLDP preprint Def. 3, by hand: D_S = {0, 1} with eps_0 = ln 2, eps_1 = ln 3, D_N = {2}. Def. 5 at these budgets:
# r_0 = 1/(2 - 1) = 1, r_1 = 1/(3 - 1) = 1/2, S = 1/(1 + 3/2) = 2/5, Q(y|x) = S([y = x] + r_y):
#   row 0: [4/5, 1/5, 0], row 1: [2/5, 3/5, 0], row 2: [2/5, 1/5, 2/5].
# Column 0 has ratio 2 = e^{eps_0}, column 1 ratio 3 = e^{eps_1}: both on the boundary; column 2 is produced by 2 alone.

IPLDP_BUDGETS = {0: "log(2)", 1: "log(3)"}


def ipldp_channel(rows) -> spec.Channel:
    return spec.Channel([0, 1, 2], [0, 1, 2], rows)


BY_HAND = [[Fraction(4, 5), Fraction(1, 5), 0], [Fraction(2, 5), Fraction(3, 5), 0],
           [Fraction(2, 5), Fraction(1, 5), Fraction(2, 5)]]


def test_ipldp_holds_on_its_boundary():
    assert spec.ipldp(ipldp_channel(BY_HAND), IPLDP_BUDGETS).holds


def test_ipldp_budget_belongs_to_the_output():
    # Swapped, column 1 (ratio 3) is bounded by e^{ln 2}: fails. (A budget read per input would let some pair pass.)
    assert not spec.ipldp(ipldp_channel(BY_HAND), {0: "log(3)", 1: "log(2)"}).holds


def test_ipldp_sensitive_columns_fail_just_past_the_boundary():
    rows = [[Fraction(4, 5) * (1 + TINY), Fraction(1, 5) - Fraction(4, 5) * TINY, 0]] + BY_HAND[1:]
    assert not spec.ipldp(ipldp_channel(rows), IPLDP_BUDGETS).holds
    assert not spec.ipldp(ipldp_channel(BY_HAND), {0: Fraction(693147180559945309417232121458, 10**30),
                                                   1: "log(3)"}).holds


def test_ipldp_non_sensitive_item_is_output_by_itself_only():
    # Def. 3, second condition: for x in D_N, P[x|x] > 0 and P[x|x'] = 0 for every x' != x.
    leak = [[Fraction(4, 5) - TINY, Fraction(1, 5), TINY]] + BY_HAND[1:]  # 2 output by 0 with 10^-40
    assert not spec.ipldp(ipldp_channel(leak), IPLDP_BUDGETS).holds
    leak_irrational = [[Fraction(4, 5) - E_TINY, Fraction(1, 5), E_TINY]] + BY_HAND[1:]
    assert not spec.ipldp(ipldp_channel(leak_irrational), IPLDP_BUDGETS).holds
    never = BY_HAND[:2] + [[Fraction(3, 5), Fraction(2, 5), 0]]  # columns 0, 1 still within; 2 never output
    assert not spec.ipldp(ipldp_channel(never), IPLDP_BUDGETS).holds
    # Every item sensitive but 2's budget absent: it is non-sensitive, and a channel where others output it fails.
    uniform = [[Fraction(1, 3)] * 3] * 3
    assert not spec.ipldp(ipldp_channel(uniform), {0: "log(2)", 1: "log(2)"}).holds
    assert spec.ipldp(ipldp_channel(uniform), {0: "log(2)", 1: "log(2)", 2: "log(2)"}).holds


# --- exact numbers ----------------------------------------------------------------------------------------------

def test_exact_comparison_sees_a_difference_of_1e_minus_60():
    one = Exact.of(1)
    up, down = one + Fraction(1, 10**60), one - Fraction(1, 10**60)
    assert up != one and down != one
    assert up.compare(one) == 1 and down.compare(one) == -1 and one.compare(up) == -1
    assert (up - one).sign() == 1 and (down - one).sign() == -1
    assert up > one > down


def test_exact_comparison_of_irrationals_differing_by_e_minus_100():
    e = Exact.exp(1)
    assert (e + E_TINY).compare(e) == 1 and (e - E_TINY).compare(e) == -1
    assert (e * (1 + E_TINY) - e).sign() == 1
    # e^1 - e^(1 - 10^-100) = e (1 - e^(-10^-100)), about 2.7e-100: beyond the first precision tried (256 bits).
    assert (e - Exact.exp(1 - Fraction(1, 10**100))).sign() == 1
    assert Exact.exp(1 - Fraction(1, 10**100)).compare(e) == -1


def test_exact_cancellation_is_zero_and_a_tiny_remainder_is_not():
    e = Exact.exp(1)
    zero = (e + 1) * (e + 1) - (e * e + 2 * e + 1)
    assert zero == 0 and zero.sign() == 0
    assert (zero + E_TINY).sign() == 1 and (zero - E_TINY).sign() == -1
    assert Exact.exp(Fraction(1, 3)) ** 3 == e


def test_exact_comparison_with_rationals_next_to_e():
    # e = 2.71828182845904523536028747135266249775724709369995...: the 40-digit cut is below e, one unit of its last
    # digit more is above.
    cut = Fraction("2.718281828459045235360287471352662497757")
    assert Exact.exp(1).compare(cut) == 1
    assert Exact.exp(1).compare(cut + Fraction(1, 10**39)) == -1
    assert Exact.exp(1) > cut and Exact.exp(1) < cut + Fraction(1, 10**39)


def test_budget_comparison_next_to_ln_2():
    # ln 2 = 0.693147180559945309417232121458176568...: the 30-digit cut is below, one unit more above.
    cut = Fraction(693147180559945309417232121458, 10**30)
    assert Nats.log(2).compare(Nats.rational(cut)) == 1
    assert Nats.log(2).compare(Nats.rational(cut + Fraction(1, 10**30))) == -1
    assert Nats.log(4) == Nats.log(2) * 2 and Nats.log(8) == (Nats.log(2) + Nats.log(32)) / 2


def test_budget_comparison_below_the_enclosures_precision():
    # ln is increasing: ln 2 < ln(2 + 10^-100), though they differ by 5e-101, less than an enclosure's first width;
    # and ln(e + e^-100) > 1.
    assert Nats.log(2).compare(Nats.log(2 + Fraction(1, 10**100))) == -1
    assert Nats.log(2 + Fraction(1, 10**100)).compare(Nats.log(2)) == 1
    assert Nats.log(Exact.exp(1) + E_TINY * Exact.exp(-100)).compare(Nats.rational(1)) == 1
    assert Nats.log(2) != Nats.log(2 + Fraction(1, 10**100))


# --- the row-sum check ------------------------------------------------------------------------------------------

@pytest.mark.parametrize("excess", [Fraction(1, 10**60), -Fraction(1, 10**60), E_TINY, -E_TINY])
def test_rows_off_one_by_a_tiny_amount_are_refused(excess):
    with pytest.raises(spec.InvalidChannel, match="sum"):
        spec.Channel([0, 1], [0, 1], [[Fraction(1, 2) + excess, Fraction(1, 2)], [Fraction(1, 2), Fraction(1, 2)]])


def test_rows_summing_to_exactly_one_are_kept():
    e = Exact.exp(1)
    channel = spec.Channel([0, 1], [0, 1, 2], [[Fraction(1, 3)] * 3, [e / (1 + e), 1 / (1 + e), 0]])
    assert channel.row(1) == (e / (1 + e), 1 / (1 + e), 0)
    with pytest.raises(spec.InvalidChannel):
        spec.Channel([0], [0, 1], [[1 + Fraction(1, 10**60), -Fraction(1, 10**60)]])


def test_declared_readings_fix_the_row_exactly():
    # renormalise: each entry divided by the row's sum 1 + 10^-60; remainder: the deficit added to the last entry.
    total = 1 + Fraction(1, 10**60)
    row = [Fraction(1, 2) + Fraction(1, 10**60), Fraction(1, 2)]
    renormalised = spec.Channel([0], [0, 1], [row], reading={"rows": "renormalise"})
    assert renormalised.row(0) == (row[0] / total, row[1] / total)
    remainder = spec.Channel([0], [0, 1], [row], reading={"rows": "remainder"})
    assert remainder.row(0) == (row[0], Fraction(1, 2) - Fraction(1, 10**60))


# --- LHP's level budget -----------------------------------------------------------------------------------------

def test_lhp_keeps_the_value_with_the_perturbed_levels_budget():
    # Hao et al. Algorithm 3: the level by GRR over k levels at the true level's E_t; the value kept with
    # p_j = E_j / (E_j + 1) where j is the perturbed level t* (step 3 as printed), the mechanism's default reading.
    # Levels [-1, 0) with ln 2 and [0, 1] with ln 3; input -1 (level 1): P[(t*, +1) | -1] = G_1(t*) (1 - p_{t*}).
    built = MECHANISMS["lhp"].build(boundaries=[-1, 0, 1], budgets=["log(2)", "log(3)"], grid=[-1, 0, 1])
    typed = MECHANISMS["lhp"].from_options({"boundaries": "[-1, 0, 1]", "budgets": '["log(2)", "log(3)"]',
                                            "grid": "[-1, 0, 1]"})
    for mechanism in (built, typed):  # the default reading, whether built in Python or from the command line
        _check_lhp_rows(mechanism.channel())


def _check_lhp_rows(channel) -> None:
    row = dict(zip(channel.outputs, channel.row(channel.inputs[0])))
    level_kept, level_moved = Fraction(2, 3), Fraction(1, 3)  # E_1 / (E_1 + 1), 1 / (E_1 + 1) with E_1 = 2
    p1, p2 = Fraction(2, 3), Fraction(3, 4)
    assert row[(1, 1)] == level_kept * (1 - p1) and row[(1, -1)] == level_kept * p1
    assert row[(2, 1)] == level_moved * (1 - p2) and row[(2, -1)] == level_moved * p2
    # Input 1 (level 2, E_2 = 3): reported as level 1 with 1/4, then kept with p_1 = 2/3.
    top = dict(zip(channel.outputs, channel.row(channel.inputs[-1])))
    assert top[(1, 1)] == Fraction(1, 4) * p1 and top[(2, 1)] == Fraction(3, 4) * p2

"""Refutes what leaks: clients written the way a library writes them (float coins, NumPy's generator), each with one
slip planted, are refuted black-box at alpha = 0.01 from at most 10^5 releases per input, at d = 3, 100 and 1000;
the same clients without the slip are not. Each slip is a real violation: at d = 3 the kernel decides the slipped
client's exact channel and finds the notion broken."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest

from ldpspec.reference.refute.events import Kind
from ldpspec.reference.refute.guarantee import parse_values
from ldpspec.reference.refute.implementations import PythonCallable
from ldpspec.reference.refute.run import Plan, refute
from ldpspec.spec import NOTIONS, Channel, IndependentBits
from ldpspec.spec.exact import Exact
from ldpspec.spec.numbers import budget
from tests.refute.slip_clients import SWAPS

SAMPLES = 100_000
ALPHA = Fraction(1, 100)


def run(target: str, notion: str, texts: dict, inputs: tuple, kind: Kind):
    values = parse_values(notion, texts)
    plan = Plan(PythonCallable(target), kind, notion, values, inputs, SAMPLES, SAMPLES // 5, ALPHA,
                shard_size=1 << 15)
    return refute(plan)


@pytest.mark.parametrize("d", [3, 100, pytest.param(1000, marks=pytest.mark.slow)])
@pytest.mark.parametrize("slipped", [False, True])
def test_a_biased_true_bit_in_oue(d, slipped):
    answer = run(f"tests.refute.slip_clients:oue_{d}{'_biased' if slipped else ''}", "ldp", {"epsilon": "1"},
                 (0, 1, 2), Kind("bits", d=d))
    assert answer.refuted == slipped, answer.text()
    if slipped:
        assert all(pair.violated for pair in answer.pairs)


@pytest.mark.parametrize("d, sensitive", [(3, 2), (100, 10), pytest.param(1000, 100, marks=pytest.mark.slow)])
@pytest.mark.parametrize("slipped", [False, True])
def test_a_sensitive_item_released_as_itself_under_uldp(d, sensitive, slipped):
    texts = {"epsilon": "1", "sensitive": "[0, 1]", "protected": str(list(range(sensitive)))}
    answer = run(f"tests.refute.slip_clients:urr_{d}{'_leaked' if slipped else ''}", "uldp", texts, (0, 1, d - 1),
                 Kind("labels"))
    assert answer.refuted == slipped, answer.text()
    if slipped:  # the violated pairs are those of the leaked item 0 (it never releases another sensitive item)
        assert all(0 in pair.pair for pair in answer.violations)
        assert not answer.failures


@pytest.mark.parametrize("d", [3, 100, pytest.param(1000, marks=pytest.mark.slow)])
@pytest.mark.parametrize("slipped", [False, True])
def test_two_items_budgets_swapped_under_minid_ldp(d, slipped):
    """IDUE's solver gives the items of budget 4 stronger bits than the items of budget 1; with the parameters of
    item 0 (budget 1) and of one item of budget 4 exchanged, item 0 leaks against the other items of budget 4 (their
    pair has budget min(1, 4) = 1)."""
    budgets, _, inputs = SWAPS[d]
    values = {"budgets": {x: budget(budgets[x]) for x in inputs}}
    plan = Plan(PythonCallable(f"tests.refute.slip_clients:idue_{d}{'_swapped' if slipped else ''}"),
                Kind("bits", d=d), "minid-ldp", values, inputs, SAMPLES, SAMPLES // 5, ALPHA, shard_size=1 << 15)
    answer = refute(plan)
    assert answer.refuted == slipped, answer.text()
    if slipped:  # item 0 against an item of budget 4
        assert any(0 in pair.pair and budgets[sum(pair.pair)] == 4 for pair in answer.violations)


# --- each slip is a real violation ----------------------------------------------------------------------------------

def _exact(value: float) -> Exact:
    return Exact.rational(Fraction(value))


def _bit(one: float) -> tuple:
    """A bit's law ``(P[0], P[1])`` from a double ``P[1]``, exactly."""
    return 1 - _exact(one), _exact(one)


def test_the_slips_break_their_notions_exactly_at_d_3():
    from tests.refute import clients

    q = 1 / (math.e + 1)
    biased = IndependentBits(range(3), {x: [_bit(0.6 if k == x else q) for k in range(3)] for x in range(3)})
    assert not NOTIONS["ldp"].check(biased, {"epsilon": Exact.rational(1)}).holds

    E = math.e
    D = E + 1  # uRR over 3 items, 2 sensitive: a sensitive input kept with E / D, the leaked item 0 always
    rows = [[1, 0, 0], [1 / D, E / D, 0], [1 / D, 1 / D, (E - 1) / D]]
    leaked = Channel(range(3), range(3), [[_exact(v) for v in row[:2]] + [1 - sum(_exact(v) for v in row[:2])]
                                          for row in rows])
    assert not NOTIONS["uldp"].check(leaked, {"epsilon": Exact.rational(1), "sensitive_inputs": [0, 1],
                                              "protected_outputs": [0, 1]}).holds

    budgets, swap, _ = SWAPS[3]
    a, b = clients.idue_parameters(budgets, swap)
    swapped = IndependentBits(range(3), {x: [_bit(a[k] if k == x else b[k]) for k in range(3)] for x in range(3)})
    declared = {x: budget(value) for x, value in enumerate(budgets)}
    assert not NOTIONS["minid-ldp"].check(swapped, {"budgets": declared}).holds
    a, b = clients.idue_parameters(budgets, None)
    correct = IndependentBits(range(3), {x: [_bit(a[k] if k == x else b[k]) for k in range(3)] for x in range(3)})
    assert NOTIONS["minid-ldp"].check(correct, {"budgets": declared}).holds

"""IPRR, KRR and URR from per-item budgets, and the estimators of any direct encoding (``reference.shared.direct``).

The registry-wide tests (``test_registered``) already tie each mechanism's reference, twin, simulation and estimator
to its exact channel; these tests pin what is particular: Definition 5 against the two-stage sampler, validation,
and the three estimators against exact computation.
"""

from __future__ import annotations

import itertools
import math
import random
from fractions import Fraction

import numpy as np
import pytest
import z3

from ldpspec.reference.ipldp2023.iprr import IPRR, iprr_rows, iprr_terms
from ldpspec.reference.registry import MECHANISMS
from ldpspec.reference.shared.direct import (
    ColumnStructure,
    em,
    em_np,
    empirical,
    empirical_moments,
    empirical_np,
    inverse,
    mle,
    mle_np,
    norm_sub,
    norm_sub_np,
)
from ldpspec.reference.shared.grr import Grr
from ldpspec.reference.shared.urr import URR, build_urr
from ldpspec.spec.errors import InvalidParameter
from ldpspec.spec.exact import Exact

BUDGETS = [["0.5", 1, None], [Fraction(1, 8), 2, "3/2"], [None, 3, None, "log(5)"], [1, 1]]


@pytest.mark.parametrize("budgets", BUDGETS, ids=str)
def test_definition_5_is_the_two_stage_sampler_exactly(budgets):
    """``Q(y|x) = S ([y = x] + r_y)``: keep with S, else draw y in D_S with r_y / R (and (1 - S) / R = S)."""
    mechanism = IPRR(budgets)
    for x, y in itertools.product(range(mechanism.d), repeat=2):
        two_stage = mechanism.S * (x == y) + (1 - mechanism.S) * (mechanism.r[y] / mechanism.R if mechanism.R else 0)
        assert mechanism.channel().probability(x, y) == two_stage


def test_definition_5_is_the_compact_form_for_every_budget():
    """z3: Definition 5's entries equal ``S ([y = x] + r_y)`` with symbolic budgets, every split of three items."""
    for sensitive in itertools.product([False, True], repeat=3):
        E = [z3.Real(f"E{k}") if s else None for k, s in enumerate(sensitive)]
        rows = iprr_rows(E)
        r, S = iprr_terms(E)
        solver = z3.Solver()
        solver.add(*[e > 1 for e in E if e is not None])
        solver.add(z3.Or(*[z3.RealVal(0) + rows[x][y] != S * ((1 if x == y else 0) + r[y])
                           for x in range(3) for y in range(3)]))
        assert solver.check() == z3.unsat


@pytest.mark.parametrize(("budgets", "message"), [
    ([1], r"budgets must have one entry per item, for 2 to 10,000,000 items \(the domain size d\); got 1"),
    ([1, 0], r"budgets\[1\].*> 0"),
    ([1, -1], r"budgets\[1\]"),
    ([1, float("nan")], r"budgets\[1\]"),
    ("[1, 2]", r"budgets must be a list"),
    ({0: 1, 1: 2}, r"budgets must be a list"),
    ([1, "one"], r"budgets\[1\]"),
])
def test_bad_budgets_are_refused_by_name(budgets, message):
    with pytest.raises(InvalidParameter, match=message):
        IPRR(budgets)


def test_the_baselines_take_the_smallest_budget_and_refuse_no_sensitive_item():
    assert Grr.from_budgets([None, 2, "0.5"]).epsilon == Fraction(1, 2)
    urr = URR.from_budgets([None, 2, "0.5"])
    assert (urr.epsilon, urr.sensitive, urr.d) == (Fraction(1, 2), (1, 2), 3)
    for build in (Grr.from_budgets, URR.from_budgets):
        with pytest.raises(InvalidParameter, match="at least one sensitive item"):
            build([None, None])
    with pytest.raises(InvalidParameter, match="either budgets or epsilon"):
        build_urr(epsilon=1, budgets=[1, None])
    with pytest.raises(InvalidParameter, match="sensitive missing"):
        build_urr(epsilon=1, d=3)
    assert MECHANISMS["urr"].from_options({"budgets": "[null, 2, 0.5]"}).channel().rows == urr.channel().rows


def test_a_huge_budget_does_not_overflow():
    mechanism = IPRR(["1e6", 2, None])
    assert mechanism.channel().probability(0, 0) > mechanism.channel().probability(1, 0) * Exact.exp(999_999)
    counts = mechanism.twin.simulate_counts([10, 10, 10], np.random.default_rng(0))
    assert counts.sum() == 30 and np.all(np.isfinite(mechanism.twin.estimate(counts, 30)))
    assert IPRR([800, 900]).twin.spread.sum() == pytest.approx(1)  # every r_y is below the smallest double


def test_no_sensitive_item_is_the_identity():
    mechanism = IPRR([None, None, None])
    assert mechanism.channel().rows == tuple(tuple(Exact.rational(int(x == y)) for y in range(3)) for x in range(3))
    assert mechanism.perturb(2, random.Random(0)) == 2


# --- the estimators -----------------------------------------------------------------------------------

def _mechanisms():
    return [IPRR(["0.5", 1, None]), Grr.from_budgets([1, 2, 3]), URR.from_budgets([None, 1, "log(3)"])]


@pytest.mark.parametrize("mechanism", _mechanisms(), ids=["iprr", "krr", "urr"])
def test_the_empirical_estimator_inverts_the_channel_in_every_form(mechanism):
    rows = mechanism.channel().rows
    inv = inverse(rows)
    d = len(rows)
    assert all(sum((rows[x][k] * inv[k][y] for k in range(d)), Exact.rational(0)) == (x == y)
               for x in range(d) for y in range(d))
    counts = [7, 0, 5]
    dense, structured = empirical(rows, counts), empirical(mechanism.structure(), counts)
    assert dense == structured and sum(dense, Exact.rational(0)) == 1
    counts_estimate = mechanism.estimate(counts, 12)  # estimator (12) as each mechanism writes it, in counts
    assert [c / 12 for c in counts_estimate] == dense
    floats = [float(v) for v in dense]
    assert np.allclose(empirical_np(mechanism.structure(), counts), floats)
    assert np.allclose(empirical_np(np.array([[float(v) for v in row] for row in rows]), counts), floats)


def _multinomial_moments(rows, p, n):
    """Exact mean and expected squared l2 loss of (12) over every count vector (i.i.d. users)."""
    d = len(rows)
    m = [sum((p[x] * rows[x][y] for x in range(d)), Exact.rational(0)) for y in range(d)]
    mean, loss = [Exact.rational(0)] * d, Exact.rational(0)
    for counts in itertools.product(range(n + 1), repeat=d):
        if sum(counts) != n:
            continue
        weight = Exact.rational(math.factorial(n))
        for y, c in enumerate(counts):
            weight = weight / math.factorial(c) * m[y] ** c
        estimate = empirical(rows, counts)
        mean = [a + weight * e for a, e in zip(mean, estimate)]
        loss = loss + weight * sum(((e - px) ** 2 for e, px in zip(estimate, p)), Exact.rational(0))
    return mean, loss


def test_the_exact_moments_of_the_empirical_estimator_are_the_enumerated_ones():
    rows = [[Fraction(1, 2), Fraction(1, 3), Fraction(1, 6)], [Fraction(1, 5), Fraction(3, 5), Fraction(1, 5)],
            [Fraction(1, 4), Fraction(1, 4), Fraction(1, 2)]]  # not of the column form
    p = [Fraction(1, 2), Fraction(1, 3), Fraction(1, 6)]
    for n in (1, 2, 3):
        mean, loss = _multinomial_moments(rows, p, n)
        assert mean == p
        assert empirical_moments(rows, p, n)[1] == loss


def test_norm_sub_follows_the_cited_procedure():
    assert norm_sub([Fraction(1, 2), Fraction(3, 4), Fraction(-1, 4)]) == [Fraction(3, 8), Fraction(5, 8), 0]
    # the positive entries sum to less than 1: they are raised equally, not the entries below the level
    assert norm_sub([Fraction(-1, 10), Fraction(1, 2)]) == [0, 1]
    with pytest.raises(InvalidParameter, match="positive entry"):
        norm_sub([-1, 0])


def test_norm_sub_in_closed_form_is_the_procedure():
    rng = np.random.default_rng(3)
    for _ in range(300):
        values = [Fraction(int(v), 20) for v in rng.integers(-15, 25, size=int(rng.integers(2, 7)))]
        if max(values) <= 0:
            continue
        total = Fraction(int(rng.integers(1, 4)))
        assert np.allclose(norm_sub_np([float(v) for v in values], float(total)),
                           [float(v) for v in norm_sub(values, total)], atol=1e-12)


@pytest.mark.parametrize("mechanism", _mechanisms(), ids=["iprr", "krr", "urr"])
def test_the_closed_form_mle_is_the_maximum_em_reaches(mechanism):
    structure = mechanism.structure()
    rows = [[float(v) for v in row] for row in mechanism.channel().rows]
    for counts in ([40, 35, 25], [10, 0, 3], [0, 0, 7], [100, 1, 1], [3, 3, 3]):
        exact = mle(structure, counts)
        assert sum(exact, Exact.rational(0)) == 1 and all(v.sign() >= 0 for v in exact)
        closed = mle_np(structure, counts)
        assert np.allclose(closed, [float(v) for v in exact], atol=1e-12)
        assert np.allclose(mle_np(structure, np.array([counts, counts]))[1], closed)  # one row per repetition
        result = em_np(np.array(rows), counts, 1e-13, 200_000)
        law = np.array(closed) @ np.array(rows)
        seen = np.array(counts) > 0
        assert float(np.array(counts)[seen] @ np.log(law[seen])) >= result.log_likelihood - 1e-9
        if result.converged:
            assert np.abs(closed - np.asarray(result.estimate)).max() < 1e-5
        structured = em_np(structure, counts, 1e-13, 200_000)
        assert np.allclose(structured.estimate, result.estimate, atol=1e-9)


def test_em_reports_how_it_stopped():
    rows = [[0.5, 0.25, 0.25], [0.25, 0.5, 0.25], [0.25, 0.25, 0.5]]
    stopped = em(rows, [40, 35, 25], tolerance=1e-12, max_iterations=3)
    assert (stopped.iterations, stopped.converged) == (3, False) and stopped.change > 1e-12
    done = em(rows, [50, 30, 20], tolerance=1e-12)
    assert done.converged and done.change <= 1e-12
    assert np.allclose(done.estimate, em_np(np.array(rows), [50, 30, 20], 1e-12).estimate)
    assert done.to_json()["converged"] is True


@pytest.mark.parametrize(("call", "message"), [
    (lambda: empirical(ColumnStructure([0.1, 0.1], [0.8, 0.8]), [1, 2, 3]), "one entry per item"),
    (lambda: empirical([[1, 0], [0, 1]], [1, -1]), r"counts\[1\]"),
    (lambda: empirical([[1, 0], [0, 1]], [0, 0]), "total of the counts"),
    (lambda: empirical([[Fraction(1, 2)] * 2] * 2, [1, 1]), "not invertible"),
    (lambda: em([[1, 0], [0, 1]], [1, 1], tolerance=0), "tolerance"),
    (lambda: em([[1, 0], [0, 1]], [1, 1], max_iterations=0), "max_iterations"),
    (lambda: mle_np(ColumnStructure([0.1, 0.1], [0.8, 0.8]), [0, 0]), "positive total"),
    (lambda: norm_sub_np([-1.0, -2.0]), "positive entry"),
])
def test_bad_estimator_input_is_refused_by_name(call, message):
    with pytest.raises(InvalidParameter, match=message):
        call()


def test_the_losses_of_theorem_3_match_simulation_at_large_n():
    """(13) and (14) against the mean l2 and l1 losses of (12) over simulated runs of n i.i.d. users (the twin's
    aggregate simulation, exact in distribution): within 5 standard errors of the simulated means."""
    from ldpspec.verify.ipldp2023.losses import loss_13, loss_14, r_values

    budgets, p = ["0.1", "1", None, "3"], [0.1, 0.2, 0.3, 0.4]
    mechanism, n, runs = IPRR(budgets), 20_000, 4000
    rng = np.random.default_rng(13)
    reported = np.array([mechanism.twin.simulate_counts(rng.multinomial(n, p), rng) for _ in range(runs)])
    error = empirical_np(mechanism.structure(), reported) - p  # one row of counts per run
    l2, l1 = (error * error).sum(axis=1), np.abs(error).sum(axis=1)
    exact_p = [Fraction(1, 10), Fraction(2, 10), Fraction(3, 10), Fraction(4, 10)]
    stated_l2, stated_l1 = float(loss_13(exact_p, r_values(budgets), n)), float(loss_14(exact_p, r_values(budgets), n))
    for values, stated in ((l2, stated_l2), (l1, stated_l1)):
        assert abs(values.mean() - stated) < 5 * values.std(ddof=1) / np.sqrt(runs), (values.mean(), stated)

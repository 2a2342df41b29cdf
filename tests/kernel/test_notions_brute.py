"""Every predicate against a brute-force reading of its definition, on random exact channels."""

from __future__ import annotations

import itertools
from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from ldpspec import spec
from ldpspec.verify.search import budget_values, fractions_from_weights, random_channels
from tests.support import brute, examples

PAIR_FUNCTIONS = {"min": min, "max": max, "avg": lambda a, b: (a + b) / 2}


def table(random_channel) -> dict:
    return {x: dict(zip(random_channel.outputs, row))
            for x, row in zip(random_channel.inputs, random_channel.fractions)}


def check_witness(verdict, P):
    """A holding verdict has a margin >= 0; a failing ratio verdict's witness is a real violation of its bound."""
    if verdict.holds:
        assert verdict.margin >= 0
    elif verdict.witness.log_ratio is not None:
        (x, x2), y = verdict.witness.inputs, verdict.witness.output
        bound = verdict.witness.bound.as_rational()  # the budgets drawn are rational
        assert not brute.within(P[x][y], bound, P[x2][y])


channels = random_channels(max_inputs=4, max_outputs=4)


@settings(max_examples=examples(300))
@given(channels, budget_values)
def test_ldp_matches_definition(random_channel, eps):
    P = table(random_channel)
    verdict = spec.ldp(random_channel.channel, eps)
    assert verdict.holds == brute.ldp(random_channel.inputs, random_channel.outputs, P, eps)
    check_witness(verdict, P)


@settings(max_examples=examples(300))
@given(channels, st.lists(budget_values, min_size=4, max_size=4), st.sampled_from(sorted(PAIR_FUNCTIONS)))
def test_id_ldp_matches_definition(random_channel, values, r):
    P = table(random_channel)
    budgets = dict(zip(random_channel.inputs, values))
    verdict = spec.id_ldp(random_channel.channel, budgets, r)
    assert verdict.holds == brute.id_ldp(random_channel.inputs, random_channel.outputs, P, budgets, PAIR_FUNCTIONS[r])
    check_witness(verdict, P)
    named = {"min": spec.min_id_ldp, "avg": spec.avg_id_ldp}.get(r)
    if named:
        assert named(random_channel.channel, budgets).holds == verdict.holds


@st.composite
def uldp_cases(draw):
    """Channels shaped like ULDP mechanisms (each invertible column has one non-sensitive producer),
    with random corruption, plus fully random channels."""
    inputs = tuple(range(draw(st.integers(1, 4))))
    sensitive = frozenset(draw(st.sets(st.sampled_from(inputs))))
    protected = tuple(f"p{j}" for j in range(draw(st.integers(0, 3))))
    invertible = tuple(f"i{j}" for j in range(draw(st.integers(0, 3))))
    outputs = protected + invertible
    if not outputs:
        outputs, protected = ("p0",), ("p0",)
    producer = {y: draw(st.sampled_from(inputs)) for y in invertible}
    weights = []
    for x in inputs:
        row = [draw(st.integers(0, 5)) for _ in protected]
        row += [draw(st.integers(0, 5)) if producer[y] == x or draw(st.integers(0, 9)) == 0 else 0 for y in invertible]
        if sum(row) == 0:
            row[0] = 1
        weights.append(row)
    P = fractions_from_weights(weights)
    return inputs, outputs, P, sensitive, frozenset(protected), draw(budget_values)


@settings(max_examples=examples(400))
@given(uldp_cases())
def test_uldp_matches_definition(case):
    inputs, outputs, rows, sensitive, protected, eps = case
    P = {x: dict(zip(outputs, row)) for x, row in zip(inputs, rows)}
    verdict = spec.uldp(spec.Channel(inputs, outputs, rows), sensitive, protected, eps)
    assert verdict.holds == brute.uldp(inputs, outputs, P, sensitive, protected, eps)
    check_witness(verdict, P)


@st.composite
def ipldp_cases(draw):
    """Channels D -> D, shaped like IPLDP mechanisms (non-sensitive columns on the diagonal only) with
    random corruption, and random budgets on a random sensitive subset."""
    domain = tuple(range(draw(st.integers(1, 4))))
    sensitive = [x for x in domain if draw(st.booleans())]
    weights = []
    for x in domain:
        row = []
        for y in domain:
            if y in sensitive or y == x or draw(st.integers(0, 9)) == 0:
                row.append(draw(st.integers(0, 5)))
            else:
                row.append(0)
        if sum(row) == 0:
            row[x] = 1
        weights.append(row)
    budgets = {x: draw(budget_values) for x in sensitive}
    return domain, fractions_from_weights(weights), budgets


@settings(max_examples=examples(400))
@given(ipldp_cases())
def test_ipldp_matches_definition(case):
    domain, rows, budgets = case
    P = {x: dict(zip(domain, row)) for x, row in zip(domain, rows)}
    verdict = spec.ipldp(spec.Channel(domain, domain, rows), budgets)
    assert verdict.holds == brute.ipldp(domain, domain, P, budgets)
    check_witness(verdict, P)


@st.composite
def suldp_cases(draw):
    """Set-valued channels: inputs are all m-subsets of a small domain; outputs (y0, R)."""
    sensitive = ("a", "b")[: draw(st.integers(1, 2))]
    non_sensitive = ("u", "v")[: draw(st.integers(1, 2))]
    items = sensitive + non_sensitive
    m = draw(st.integers(1, 2))
    inputs = tuple(itertools.combinations(items, m))
    protected = ("s0", "s1")
    revealed_options = [()] + [tuple(R) for k in (1, 2) for R in itertools.combinations(non_sensitive, k) if k <= m]
    outputs = tuple({(draw(st.sampled_from(protected + (None,))), draw(st.sampled_from(revealed_options)))
                     for _ in range(draw(st.integers(1, 5)))})
    weights = []
    for s in inputs:
        row = [draw(st.integers(0, 4)) if set(R) <= set(s) or draw(st.integers(0, 9)) == 0 else 0
               for (_, R) in outputs]
        if sum(row) == 0:
            row[0] = 1
        weights.append(row)
    return inputs, outputs, fractions_from_weights(weights), frozenset(sensitive), frozenset(non_sensitive), \
        frozenset(protected[: draw(st.integers(1, 2))]), draw(budget_values)


@settings(max_examples=examples(400))
@given(suldp_cases(), st.sampled_from([("marginal", spec.suldp_marginal),
                                       ("joint-unrevealed", spec.suldp_joint_unrevealed),
                                       ("joint", spec.suldp_joint)]))
def test_suldp_readings_match_definition(case, reading):
    inputs, outputs, rows, sensitive, non_sensitive, protected, eps = case
    name, predicate = reading
    P = {s: dict(zip(outputs, row)) for s, row in zip(inputs, rows)}
    verdict = predicate(spec.Channel(inputs, outputs, rows), sensitive, non_sensitive, protected, eps)
    assert verdict.holds == brute.suldp(inputs, outputs, P, sensitive, non_sensitive, protected, eps, name)


GRADED_INPUTS = (-1.0, -0.8, -0.6, -0.2, 0.0, 0.2, 0.6, 1.0)


@settings(max_examples=examples(300))
@given(random_channels(inputs=GRADED_INPUTS, max_outputs=3),
       st.lists(budget_values, min_size=3, max_size=3), st.sampled_from(sorted(PAIR_FUNCTIONS)))
def test_graded_ldp_matches_definition(random_channel, level_budgets, r):
    boundaries = (-1.0, -0.6, 0.2, 1.0)
    P = table(random_channel)
    exact_bounds = [Fraction(str(b)) for b in boundaries]
    budgets = {x: level_budgets[brute.interval_index(Fraction(str(x)), exact_bounds)] for x in GRADED_INPUTS}
    verdict = spec.graded_ldp(random_channel.channel, boundaries, level_budgets, r)
    assert verdict.holds == brute.id_ldp(GRADED_INPUTS, random_channel.outputs, P, budgets, PAIR_FUNCTIONS[r])
    check_witness(verdict, P)

"""Privacy loss, composition, post-processing and structured channels against brute force."""

from __future__ import annotations

import itertools
from fractions import Fraction

import mpmath
from hypothesis import given, settings
from hypothesis import strategies as st

from ldpspec import spec
from ldpspec.spec.numbers import ctx
from ldpspec.verify.search import random_channels
from tests.support import examples

channels = random_channels(max_inputs=4, max_outputs=4)


def brute_log_ratio(a: Fraction, b: Fraction):
    """ln(a/b) at 100 digits; inf when b = 0 < a."""
    if b == 0:
        return mpmath.inf
    with mpmath.workdps(100):
        return mpmath.log(mpmath.mpf(a.numerator) / a.denominator) - mpmath.log(mpmath.mpf(b.numerator) / b.denominator)


def close(kernel_value, brute_value) -> bool:
    if brute_value == mpmath.inf or kernel_value == ctx.inf:
        return kernel_value == ctx.inf and brute_value == mpmath.inf
    with mpmath.workdps(100):
        return abs(mpmath.mpf(spec.numbers.to_decimal_string(kernel_value, 55)) - brute_value) < mpmath.mpf("1e-45")


@settings(max_examples=examples(300))
@given(channels)
def test_pairwise_output_and_ldp_loss_match_brute_force(rc):
    rows = dict(zip(rc.inputs, rc.fractions))
    pairwise = spec.pairwise_loss(rc.channel)
    for x, x2 in itertools.permutations(rc.inputs, 2):
        expected = max(brute_log_ratio(a, b) for a, b in zip(rows[x], rows[x2]) if a > 0)
        loss, y = pairwise[(x, x2)]
        assert close(loss, expected)
        j = rc.outputs.index(y)
        assert close(loss, brute_log_ratio(rows[x][j], rows[x2][j]))  # the witness attains it
    per_output = spec.output_loss(rc.channel)
    for j, y in enumerate(rc.outputs):
        column = [row[j] for row in rc.fractions]
        expected = max((brute_log_ratio(a, b) for a in column for b in column if a > 0), default=0)
        assert close(per_output[y][0], expected)
    expected_eps = max((value[0] for value in pairwise.values()), default=ctx.mpf(0))
    assert spec.ldp_epsilon(rc.channel) == expected_eps
    invertible = spec.invertible_outputs(rc.channel)
    for j, y in enumerate(rc.outputs):
        producers = [x for x in rc.inputs if rows[x][j] > 0]
        assert (y in invertible) == (len(producers) == 1)
        if y in invertible:
            assert invertible[y] == producers[0]


def exact_mpf(value: Fraction):
    return ctx.mpf(value.numerator) / value.denominator


@settings(max_examples=examples(200))
@given(channels, st.data())
def test_posterior_leakage_range_bounds_every_prior_and_is_attained(rc, data):
    weights = data.draw(st.lists(st.integers(0, 5), min_size=len(rc.inputs), max_size=len(rc.inputs))
                        .filter(lambda w: sum(w) > 0))
    prior = [Fraction(w, sum(weights)) for w in weights]
    leakage = spec.posterior_leakage_range(rc.channel)
    for j, y in enumerate(rc.outputs):
        column = [row[j] for row in rc.fractions]
        if not any(column):
            assert all((x, y) not in leakage for x in rc.inputs)
            continue
        marginal = sum(w * p for w, p in zip(prior, column))
        for i, x in enumerate(rc.inputs):
            low, high = leakage[(x, y)]
            if column[i] == 0:
                assert low == high == -ctx.inf
                continue
            if marginal > 0:  # this prior's leakage lies in the range
                value = brute_log_ratio(column[i], marginal)
                assert low - ctx.mpf("1e-45") <= value
                assert high == ctx.inf or value <= high + ctx.mpf("1e-45")
            # The ends are attained by priors concentrated on one input.
            extremes = [brute_log_ratio(column[i], v) for v in column]
            assert close(high, max(extremes)) and close(low, min(extremes))


@settings(max_examples=examples(150))
@given(st.integers(1, 3).flatmap(lambda n: st.tuples(random_channels(inputs=tuple(range(n)), max_outputs=3),
                                                     random_channels(inputs=tuple(range(n)), max_outputs=3))))
def test_composition_is_the_independent_product(pair):
    first, second = pair
    composed = spec.compose(first.channel, second.channel)
    assert composed.outputs == tuple(itertools.product(first.outputs, second.outputs))
    for i, x in enumerate(first.inputs):
        for (j, y1), (k, y2) in itertools.product(enumerate(first.outputs), enumerate(second.outputs)):
            expected = first.fractions[i][j] * second.fractions[i][k]
            assert abs(composed.probability(x, (y1, y2)) - exact_mpf(expected)) < ctx.mpf("1e-55")


@settings(max_examples=examples(150))
@given(channels, st.data())
def test_postprocessing_is_the_matrix_product_and_never_increases_loss(rc, data):
    post = data.draw(random_channels(inputs=rc.outputs, max_outputs=3))
    result = spec.postprocess(rc.channel, post.channel)
    for i, x in enumerate(rc.inputs):
        for k, z in enumerate(post.outputs):
            expected = sum(rc.fractions[i][j] * post.fractions[j][k] for j in range(len(rc.outputs)))
            assert abs(result.probability(x, z) - exact_mpf(expected)) < ctx.mpf("1e-55")
    assert spec.ldp_epsilon(result) <= spec.ldp_epsilon(rc.channel) + spec.RESOLUTION


@settings(max_examples=examples(150))
@given(channels)
def test_map_outputs_merges_probabilities(rc):
    merged = spec.map_outputs(rc.channel, lambda y: "even" if y in ("y0", "y2") else "odd")
    for i, x in enumerate(rc.inputs):
        for image in merged.outputs:
            expected = sum((p for p, y in zip(rc.fractions[i], rc.outputs)
                            if ("even" if y in ("y0", "y2") else "odd") == image),
                           start=Fraction(0))
            assert abs(merged.probability(x, image) - exact_mpf(expected)) < ctx.mpf("1e-55")


@settings(max_examples=examples(200))
@given(st.integers(1, 4).flatmap(lambda n: st.tuples(
    st.just(n), st.integers(1, 4).flatmap(lambda bits: st.lists(
        st.lists(st.integers(0, 8), min_size=bits, max_size=bits), min_size=n, max_size=n)))))
def test_independent_bits_structured_loss_equals_explicit(case):
    n, weights = case
    distributions = {x: [(Fraction(8 - w, 8), Fraction(w, 8)) for w in row] for x, row in enumerate(weights)}
    structured = spec.IndependentBits(range(n), distributions)
    explicit = structured.explicit()
    for row in explicit.rows:
        assert abs(ctx.fsum(row) - 1) < spec.RESOLUTION
    explicit_losses = spec.pairwise_loss(explicit)
    for pair, (loss, y) in spec.pairwise_loss(structured).items():
        expected = explicit_losses[pair][0]
        assert loss == expected if expected == ctx.inf else abs(loss - expected) < spec.RESOLUTION
        x, x2 = pair
        attained = spec.numbers.log_ratio(structured.probability(x, y), structured.probability(x2, y))
        assert attained == loss if loss == ctx.inf else abs(attained - loss) < spec.RESOLUTION
    structured_eps, explicit_eps = spec.ldp_epsilon(structured), spec.ldp_epsilon(explicit)
    if explicit_eps == ctx.inf:
        assert structured_eps == explicit_eps
    else:
        assert abs(structured_eps - explicit_eps) < spec.RESOLUTION


def test_unary_encoding_at_a_large_budget_keeps_its_precision():
    """1 - p rounds to 0 at eps = 1000 for SUE; the complements are given exactly instead."""
    from ldpspec.reference.shared.unary import sue

    channel = sue(1000, 3).channel()
    assert abs(spec.ldp_epsilon(channel) - 1000) < spec.RESOLUTION
    assert spec.ldp(channel, 1000).holds and not spec.ldp(channel, 999).holds

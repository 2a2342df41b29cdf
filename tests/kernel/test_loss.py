"""Privacy loss, composition, post-processing and structured channels against brute force."""

from __future__ import annotations

import itertools
from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from ldpspec import spec
from ldpspec.verify.search import random_channels
from tests.support import examples

channels = random_channels(max_inputs=4, max_outputs=4)
INFINITE = "inf"


def brute_ratio(a: Fraction, b: Fraction):
    """The ratio a/b as a Fraction; ``INFINITE`` when b = 0 < a. A log-ratio is compared through its ratio, exactly."""
    return INFINITE if b == 0 else a / b


def ratio_of(loss: spec.Nats):
    """The exact ratio whose log the kernel's loss is (``INFINITE`` for +inf, 0 for -inf)."""
    if loss.is_infinite:
        return INFINITE
    ratio = loss.exponential().as_rational()
    assert ratio is not None, f"a loss of a rational channel is the log of a rational, got {loss.text()}"
    return ratio


def largest(ratios):
    ratios = list(ratios)
    return INFINITE if INFINITE in ratios else max(ratios)


@settings(max_examples=examples(300))
@given(channels)
def test_pairwise_output_and_ldp_loss_match_brute_force(rc):
    rows = dict(zip(rc.inputs, rc.fractions))
    pairwise = spec.pairwise_loss(rc.channel)
    for x, x2 in itertools.permutations(rc.inputs, 2):
        expected = largest(brute_ratio(a, b) for a, b in zip(rows[x], rows[x2]) if a > 0)
        loss, y = pairwise[(x, x2)]
        assert ratio_of(loss) == expected
        j = rc.outputs.index(y)
        assert brute_ratio(rows[x][j], rows[x2][j]) == expected  # the witness attains it
    per_output = spec.output_loss(rc.channel)
    for j, y in enumerate(rc.outputs):
        column = [row[j] for row in rc.fractions]
        expected = largest([brute_ratio(a, b) for a in column for b in column if a > 0] or [1])
        assert ratio_of(per_output[y][0]) == expected
    expected_eps = largest([brute_ratio(a, b) for x, x2 in itertools.permutations(rc.inputs, 2)
                            for a, b in zip(rows[x], rows[x2]) if a > 0] or [1])
    assert ratio_of(spec.ldp_epsilon(rc.channel)) == expected_eps
    invertible = spec.invertible_outputs(rc.channel)
    for j, y in enumerate(rc.outputs):
        producers = [x for x in rc.inputs if rows[x][j] > 0]
        assert (y in invertible) == (len(producers) == 1)
        if y in invertible:
            assert invertible[y] == producers[0]


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
                assert ratio_of(low) == ratio_of(high) == 0  # both ends are -inf
                continue
            if marginal > 0:  # this prior's leakage lies in the range
                value = brute_ratio(column[i], marginal)
                assert ratio_of(low) <= value
                assert ratio_of(high) == INFINITE or value <= ratio_of(high)
            # The ends are attained by priors concentrated on one input.
            finite = [brute_ratio(column[i], v) for v in column if v]
            assert ratio_of(high) == (INFINITE if 0 in column else max(finite)) and ratio_of(low) == min(finite)


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
            assert composed.probability(x, (y1, y2)) == expected


@settings(max_examples=examples(150))
@given(channels, st.data())
def test_postprocessing_is_the_matrix_product_and_never_increases_loss(rc, data):
    post = data.draw(random_channels(inputs=rc.outputs, max_outputs=3))
    result = spec.postprocess(rc.channel, post.channel)
    for i, x in enumerate(rc.inputs):
        for k, z in enumerate(post.outputs):
            expected = sum(rc.fractions[i][j] * post.fractions[j][k] for j in range(len(rc.outputs)))
            assert result.probability(x, z) == expected
    assert spec.ldp_epsilon(result) <= spec.ldp_epsilon(rc.channel)


@settings(max_examples=examples(150))
@given(channels)
def test_map_outputs_merges_probabilities(rc):
    merged = spec.map_outputs(rc.channel, lambda y: "even" if y in ("y0", "y2") else "odd")
    for i, x in enumerate(rc.inputs):
        for image in merged.outputs:
            expected = sum((p for p, y in zip(rc.fractions[i], rc.outputs)
                            if ("even" if y in ("y0", "y2") else "odd") == image),
                           start=Fraction(0))
            assert merged.probability(x, image) == expected


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
        assert sum(row) == 1
    explicit_losses = spec.pairwise_loss(explicit)
    for pair, (loss, y) in spec.pairwise_loss(structured).items():
        expected = explicit_losses[pair][0]
        assert ratio_of(loss) == ratio_of(expected)
        x, x2 = pair
        assert brute_ratio(structured.probability(x, y).as_rational(),
                           structured.probability(x2, y).as_rational()) == ratio_of(loss)  # the witness attains it
    assert ratio_of(spec.ldp_epsilon(structured)) == ratio_of(spec.ldp_epsilon(explicit))


def test_unary_encoding_at_a_large_budget_keeps_its_precision():
    """1 - p rounds to 0 at eps = 1000 for SUE; the complements are given exactly instead."""
    from ldpspec.reference.shared.unary import sue

    channel = sue(1000, 3).channel()
    assert spec.ldp_epsilon(channel) == 1000  # exactly: the ratio p(1-q)/(q(1-p)) is e^1000
    assert spec.ldp(channel, 1000).holds and not spec.ldp(channel, 999).holds


# --- the profile's summary without every exact pair loss (``spec.loss.summary_profile``) ---------------------------

SUMMARY_WEIGHTS = [Fraction(1), Fraction(2), Fraction(4), Fraction(3), Fraction(7, 2), Fraction(0)]
SUMMARY_NUDGES = [Fraction(0), Fraction(0), Fraction(1, 10 ** 20), -Fraction(1, 10 ** 20), Fraction(1, 2 ** 53)]


@st.composite
def summary_channels(draw):
    """Matrices of 5 to 8 inputs (more than ``SHOWN`` pairs once it is lowered) whose rows are the weights above,
    nudged by 1e-20 or a unit of a double, over their sum: losses that tie exactly, tie within a double's rounding, sit
    on a bin's edge (ratios 2 and 4: ln 2 is half of ln 4, on the edge of 2, 4 or 10 bins), or are infinite
    (zeros)."""
    count, width = draw(st.integers(5, 8)), draw(st.integers(2, 4))
    rows = []
    for _ in range(count):
        if rows and draw(st.integers(0, 3)) == 0:
            rows.append(list(draw(st.sampled_from(rows))))
            continue
        weights = [draw(st.sampled_from(SUMMARY_WEIGHTS)) * (1 + draw(st.sampled_from(SUMMARY_NUDGES)))
                   for _ in range(width)]
        if not any(weights):
            weights[0] = Fraction(1)
        rows.append([w / sum(weights) for w in weights])
    return rows


@settings(max_examples=examples(200))
@given(summary_channels(), st.sampled_from([2, 3, 7, 20]), st.sampled_from([10, 2, 4, 3]))
def test_the_summary_by_doubles_is_the_complete_profiles(rows, shown, bins):
    """``summary_profile`` gives the JSON of ``loss_profile_summary(loss_profile(...))`` (the summary of every exact
    pair loss): the largest losses, each input's worst partner and the histogram, with ``SHOWN`` and ``BINS`` lowered
    so that small channels exercise the choice of the largest and the bins' edges."""
    from ldpspec.spec import loss

    channel = spec.Channel(range(len(rows)), range(len(rows[0])), rows)
    assert channel.doubles() is not None
    saved = loss.SHOWN, loss.BINS
    loss.SHOWN, loss.BINS = shown, bins
    try:
        assert loss.summary_profile(channel) == loss.loss_profile_summary(loss.loss_profile(channel))
    finally:
        loss.SHOWN, loss.BINS = saved


def test_losses_on_the_edges_of_bins_are_binned_exactly():
    """Losses ``ln r`` beside ``ln r^2``: with 2 bins, ``ln r`` sits on the edge between them, and its double and the
    double of the ratio's double differ in their last units for some ``r`` (11 among these): the bin is then decided
    exactly. Deciding it by the doubles alone fails this test."""
    from ldpspec.spec import loss

    for r in (3, 5, 6, 7, 10, 11, 13, 17, 19, 23):
        total = 1 + r * r
        rows = [[Fraction(1, total), Fraction(r * r, total)], [Fraction(r, total), Fraction(total - r, total)],
                [Fraction(r * r, total), Fraction(1, total)]]
        channel = spec.Channel(range(3), range(2), rows)
        saved = loss.SHOWN, loss.BINS
        loss.SHOWN, loss.BINS = 2, 2
        try:
            assert loss.summary_profile(channel) == loss.loss_profile_summary(loss.loss_profile(channel))
        finally:
            loss.SHOWN, loss.BINS = saved

"""The float filter of the column and row scans (``spec.protocol``: ``extremes``, ``row_pair_loss``) gives exactly
the exact scan's answer, the first of equal entries included, on columns and rows built to hold ties and near-ties
closer than a double can tell apart.

The oracle is Python's Fractions: the first position of the largest and of the smallest entry, and the first output
of the largest ratio."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ldpspec.spec.exact import Exact
from ldpspec.spec.nats import Nats
from ldpspec.spec.protocol import extremes, row_pair_loss

BASE = [Fraction(1, 3), Fraction(2, 7), Fraction(1, 2), Fraction(5, 11), Fraction(0), Fraction(1, 10 ** 320)]
"""Values the entries are made from: with a nudge of 1e-30 (far inside a double's rounding), of about one rounding of
a double (``2^-53``, so that two doubles may be one unit apart in either order of the exact values), or none."""
NUDGES = [Fraction(0), Fraction(1, 10 ** 30), -Fraction(1, 10 ** 30), Fraction(1, 2 ** 53), -Fraction(1, 2 ** 53),
          Fraction(3, 2 ** 54), -Fraction(3, 2 ** 54)]


@st.composite
def entries(draw, size):
    values = []
    for _ in range(size):
        base = draw(st.sampled_from(BASE))
        value = base * (1 + draw(st.sampled_from(NUDGES)))
        values.append(value)
    return values


def first_extremes(values):
    high = values.index(max(values))
    low = values.index(min(values))
    if high == low and len(values) > 1:
        low = 1
    return high, low


@settings(max_examples=400)
@given(st.integers(2, 9).flatmap(entries))
def test_extremes_are_the_exact_scans(values):
    column = [Exact.rational(v) for v in values]
    assert extremes(column) == first_extremes(values)


@settings(max_examples=400)
@given(st.integers(1, 8).flatmap(lambda n: st.tuples(entries(n), entries(n))))
def test_a_row_pair_loss_is_the_exact_scans(rows):
    row, other = rows
    outputs = list(range(len(row)))
    loss, y = row_pair_loss([Exact.rational(v) for v in row], [Exact.rational(v) for v in other], outputs)
    produced = [j for j in outputs if row[j]]
    infinite = [j for j in produced if not other[j]]
    if not produced:
        assert (loss, y) == (Nats.rational(0), None)
    elif infinite:
        assert loss.is_infinite and y == infinite[0]
    else:
        ratios = [row[j] / other[j] for j in produced]
        best = produced[ratios.index(max(ratios))]
        assert y == best and loss == Nats(Exact.rational(max(ratios)))


def test_entries_that_are_not_rational_are_compared_exactly():
    e = Exact.of("exp(1)/(exp(1)+2)")
    column = [Exact.of("1/(exp(1)+2)"), e, e, Exact.of("1/(exp(1)+2)")]
    assert extremes(column) == (1, 0)


def test_an_exact_tie_whose_doubles_differ_keeps_the_first_output():
    """``29/500 : 47/500`` and ``841/413000 : 1363/413000`` are the same ratio; their doubles' quotients differ by
    one unit, the first smaller: a filter without slack would drop output 0 and name output 1."""
    row = [Exact.of("29/500"), Exact.of("841/413000")]
    other = [Exact.of("47/500"), Exact.of("1363/413000")]
    assert float(29 / 500) / float(47 / 500) < float(841 / 413000) / float(1363 / 413000)
    loss, y = row_pair_loss(row, other, ["first", "second"])
    assert y == "first" and loss == Nats(Exact.of("29/47"))


# --- pairwise notions on a matrix (``spec.protocol.filtered_pairs``) ---------------------------------------------
# The oracle is the exact scan over every pair: the notion with the filter switched off.

WEIGHTS = [Fraction(1), Fraction(2), Fraction(3), Fraction(7, 2), Fraction(0)]
"""Weights a row is made from before it is divided by its sum; with the nudges above (1e-30 and one or two units of
a double) two rows' ratios tie exactly or differ by less than a double tells apart."""
TIE_NUDGES = [Fraction(0), Fraction(0), Fraction(1, 10 ** 20), -Fraction(1, 10 ** 20), Fraction(1, 2 ** 53),
              -Fraction(3, 2 ** 54)]


HUGE_BUDGETS = ["1e308", "1.7976931348623157e308", "1e400"]
"""Budgets at and beyond the top of the doubles: the average of two overflows, and a margin's slack too."""


@st.composite
def near_tied_channels(draw):
    """A channel of 2 to 6 inputs over 2 to 5 outputs, rows of the weights above nudged, each row divided by its sum
    (exact rationals summing to 1), some rows repeated or scaled copies of others (exact ties of ratios); and one
    budget per input, some of them the log of a ratio of the channel (a margin of exactly 0), some nudged by 1e-20."""
    count, width = draw(st.integers(2, 6)), draw(st.integers(2, 5))
    rows = []
    for _ in range(count):
        if rows and draw(st.integers(0, 3)) == 0:
            rows.append(list(draw(st.sampled_from(rows))))  # a repeated row: every ratio 1
            continue
        weights = [draw(st.sampled_from(WEIGHTS)) * (1 + draw(st.sampled_from(TIE_NUDGES))) for _ in range(width)]
        if not any(weights):
            weights[0] = Fraction(1)
        total = sum(weights)
        rows.append([w / total for w in weights])
    ratios = sorted({a / b for row in rows for other in rows for a, b in zip(row, other) if a and b and a > b})
    budgets = []
    for _ in range(count):
        kind = draw(st.integers(0, 3))
        if kind == 0 and ratios:
            budgets.append(f"log({draw(st.sampled_from(ratios))})")
        elif kind == 1 and ratios:
            ratio = draw(st.sampled_from(ratios)) * (1 + draw(st.sampled_from(TIE_NUDGES)))
            budgets.append(f"log({ratio})" if ratio >= 1 else "0")
        else:
            budgets.append(draw(st.sampled_from(["0", "0.5", "1", "2", "30", *HUGE_BUDGETS])))
    return rows, budgets


def _verdicts(rows, budgets, notion):
    from ldpspec.spec import notions
    from ldpspec.spec.channel import Channel

    channel = Channel(range(len(rows)), range(len(rows[0])), [[Exact.rational(p) for p in row] for row in rows])
    mapping = dict(zip(channel.inputs, budgets))
    check = notions.NOTIONS[notion].predicate
    arguments = {"budgets": mapping}
    if notion == "id-ldp":
        arguments["r"] = "max"
    filtered = check(channel, **arguments)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(notions, "_filtered_pairs", lambda *arguments: None)
        scanned = check(channel, **arguments)
    return filtered, scanned


@pytest.mark.parametrize("budget", HUGE_BUDGETS)
@pytest.mark.parametrize("notion", ["minid-ldp", "avgid-ldp", "id-ldp"])
def test_budgets_at_the_top_of_the_doubles_name_the_exact_scans_witness(notion, budget):
    """A budget of 1e308 once made the filter's average overflow and its margins NaN: it kept the diagonal, and the
    verdict named an input paired with itself (loss 0) instead of the pair the scan names."""
    for rows in ([[Fraction(1, 3), Fraction(2, 3)], [Fraction(1, 2), Fraction(1, 2)]],
                 [[Fraction(1, 2), Fraction(1, 2)], [Fraction(1, 2), Fraction(1, 2)]]):
        filtered, scanned = _verdicts(rows, [budget, budget], notion)
        assert filtered.to_json() == scanned.to_json()
        assert filtered.witness.inputs[0] != filtered.witness.inputs[1]


@settings(max_examples=300)
@given(near_tied_channels(), st.sampled_from(["minid-ldp", "avgid-ldp", "id-ldp"]))
def test_a_pairwise_verdict_is_the_exact_scans(channel_and_budgets, notion):
    rows, budgets = channel_and_budgets
    filtered, scanned = _verdicts(rows, budgets, notion)
    assert filtered.to_json() == scanned.to_json()
    assert filtered.holds == scanned.holds and filtered.witness == scanned.witness


def test_a_matrix_with_an_entry_below_the_doubles_has_no_doubles():
    """An entry of 1e-400 rounds to the double 0: the filters must not take it for an exact zero."""
    from ldpspec.spec.channel import Channel
    from ldpspec.spec.protocol import matrix_doubles

    tiny = Fraction(1, 10 ** 400)
    channel = Channel([0, 1], [0, 1], [[tiny, 1 - tiny], [Fraction(1, 2), Fraction(1, 2)]])
    assert matrix_doubles(channel.rows) is None and channel.doubles() is None
    assert matrix_doubles(Channel([0, 1], [0, 1], [[0, 1], ["1/3", "2/3"]]).rows).tolist() == [[0, 1], [1 / 3, 2 / 3]]


@settings(max_examples=200)
@given(near_tied_channels())
def test_the_column_scan_by_the_matrix_doubles_is_the_exact_scans(channel_and_budgets):
    """``Channel.output_losses`` with the candidates of the whole matrix's doubles (``column_candidates``) names the
    same pairs and losses as the exact scan of each column."""
    from ldpspec.spec.channel import Channel
    from ldpspec.spec.protocol import column_loss

    rows, _ = channel_and_budgets
    channel = Channel(range(len(rows)), range(len(rows[0])), [[Exact.rational(p) for p in row] for row in rows])
    assert channel.doubles() is not None
    for y, (loss, pair) in channel.output_losses().items():
        column = [Exact.rational(row[y]) for row in rows]
        values = [row[y] for row in rows]
        if not any(values):
            assert (loss, pair) == (Nats.rational(0), None)
            continue
        high, low = first_extremes(values)
        assert pair == (high, low) and (loss, pair) == column_loss(channel.inputs, column)


@settings(max_examples=300)
@given(st.integers(1, 8).flatmap(lambda n: st.tuples(entries(n), entries(n))))
def test_a_row_pair_loss_by_the_rows_doubles_is_the_scalar_ones(rows):
    """``row_pair_loss`` given the rows' doubles (NumPy, as a matrix with doubles gives them) answers as without."""
    import numpy as np

    from ldpspec.spec.protocol import _double

    row, other = ([Exact.rational(v) for v in values] for values in rows)
    doubles = [[_double(p) for p in values] for values in (row, other)]
    if any(None in values for values in doubles):
        return  # 1e-320: no doubles, the matrix has none either
    outputs = list(range(len(row)))
    by_doubles = row_pair_loss(row, other, outputs, tuple(np.array(values) for values in doubles))
    assert by_doubles == row_pair_loss(row, other, outputs)

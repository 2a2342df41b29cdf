"""The float filter of the column and row scans (``spec.protocol``: ``extremes``, ``row_pair_loss``) gives exactly
the exact scan's answer, the first of equal entries included, on columns and rows built to hold ties and near-ties
closer than a double can tell apart.

The oracle is Python's Fractions: the first position of the largest and of the smallest entry, and the first output
of the largest ratio."""

from __future__ import annotations

from fractions import Fraction

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

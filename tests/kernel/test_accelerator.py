"""The accelerator (``ldpspec.accelerator``) answers as the exact path does (DESIGN principle 15).

Two kinds of tests:

* every notion that reaches the float filters, and every loss function, on drawn matrices, computed three ways: with
  the accelerator; without it (``ACCELERATOR = None``: the kernel's pure-Python filters); and fully exact (no
  accelerator, and ``protocol._double`` answering ``None``, which turns the pure-Python filters off too). The
  verdicts (holds, margin, witness: ``to_json()``) and losses must be identical, with no tolerance. A new ``Channel``
  is built for each path: ``Channel.doubles()`` is cached, and ``pair_loss`` reads it;
* the accelerator's functions against brute force with Fractions and mpmath on small matrices of doubles.

The draws hold what doubles get wrong: subnormal entries (1e-310, 2^-1074) and entries below the doubles (1e-400, a
double 0: the matrix has no doubles), huge ratios (1e-300 against 1), zeros (infinite losses), exact ties (equal
rows, equal columns, equal ratios in different outputs and pairs: the first of equal ones is the witness), near-ties
(one unit of a double, 1e-17 and 2^-41 relative), budgets tied or nearly tied with a loss, irrational budgets
(``log(x)``), budgets at the top of the doubles (1e308, 1.797e308, 1e400) and entries without a double
(``exp(1)/(exp(1)+2)``)."""

from __future__ import annotations

import math
import re
from contextlib import contextmanager
from fractions import Fraction

import pytest

np = pytest.importorskip("numpy")

import mpmath  # noqa: E402
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from ldpspec import accelerator  # noqa: E402
from ldpspec.spec import loss, notions, protocol  # noqa: E402
from ldpspec.spec.channel import Channel, _probability_entry, _simple_entry  # noqa: E402
from ldpspec.spec.errors import InvalidChannel  # noqa: E402
from ldpspec.spec.parse import SIMPLE_LENGTH  # noqa: E402
from ldpspec.spec.rows import RowReading  # noqa: E402
from ldpspec.spec.structured import ColumnClasses  # noqa: E402
from tests.kernel.test_fast_parse import general, short_numbers  # noqa: E402
from tests.support import examples  # noqa: E402

PATHS = ("accelerator", "python", "exact")
ACCELERATOR = protocol.ACCELERATOR if protocol.ACCELERATOR is not None else accelerator


@contextmanager
def path(name: str):
    """The kernel on one path: the accelerator, the pure-Python filters alone, or no filter at all."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(protocol, "ACCELERATOR", ACCELERATOR if name == "accelerator" else None)
        if name == "exact":
            patch.setattr(protocol, "_double", lambda value: None)
        yield


def on_every_path(compute):
    """``compute()`` (which builds its own channels) on each path, as ``{path: result}``."""
    results = {}
    for name in PATHS:
        with path(name):
            results[name] = compute()
    return results


def assert_alike(results):
    first = results["accelerator"]
    for name in PATHS[1:]:
        assert results[name] == first, name


def verdict_key(verdict):
    """Everything a verdict says, exactly: the JSON (holds, witness with its exact loss and bound) and the margin."""
    return verdict.to_json(), repr(verdict.margin), verdict.holds


def witness_key(key):
    """What a verdict decides, without what only a matrix shows (the witness's probabilities, a scope)."""
    data, margin, holds = key
    witness = data["witness"] or {}
    return holds, margin, witness.get("inputs"), witness.get("output"), witness.get("exact", {}).get("log_ratio"), \
        witness.get("exact", {}).get("bound")


def losses_key(losses):
    """``{key: (loss, y)}`` losses as their exact texts (``Nats`` equality is exact, and so is the text)."""
    return {key: (value.text(), witness) for key, (value, witness) in losses.items()}


# --- the drawn channels ---------------------------------------------------------------------------------------

WEIGHTS = [Fraction(1), Fraction(2), Fraction(3), Fraction(7, 2), Fraction(1, 3), Fraction(0), Fraction(0)]
SPECIAL = [Fraction(1, 10 ** 310), Fraction(1, 2 ** 1074), Fraction(1, 10 ** 400), Fraction(1, 10 ** 300),
           Fraction(1, 10 ** 300) * 3]
"""Entries doubles get wrong: subnormal (1e-310, 2^-1074), below the doubles (1e-400), tiny beside 1 (1e-300)."""
NUDGES = [Fraction(0), Fraction(0), Fraction(0), Fraction(1, 2 ** 52), -Fraction(1, 2 ** 53), Fraction(1, 10 ** 17),
          -Fraction(1, 10 ** 17), Fraction(1, 2 ** 41), -Fraction(1, 2 ** 41), Fraction(1, 10 ** 30)]
"""Relative nudges: none (exact ties), one unit of a double, 1e-17, 2^-41 (below the pairs' slack 2^-40), 1e-30."""
TIED_ROWS = [[Fraction(29, 500), Fraction(841, 413000), Fraction(388205, 413000)],
             [Fraction(47, 500), Fraction(1363, 413000), Fraction(372815, 413000)]]
"""Two rows whose ratios at outputs 0 and 1 are equal (29/47, and 47/29 the other way), while their doubles'
quotients differ by a unit (``test_float_filter``): a filter without slack names output 1."""
IRRATIONAL_ROW = ["exp(1)/(exp(1)+2)", "1/(exp(1)+2)", "1/(exp(1)+2)"]
PLAIN_BUDGETS = ["0", "0.5", "1", "2", "30", "log(2)", "log(3)/7", "1e308", "1.7976931348623157e308", "1e400"]


@st.composite
def matrices(draw, min_inputs=2, max_inputs=7, max_outputs=5, special=True, width=None):
    """Rows of exact entries (Fractions, or texts of expressions), each summing to 1: weights nudged, some special,
    a column copied onto another (equal ratios in two outputs), rows repeated (equal rows: ties between pairs), some
    row the irrational one."""
    count = draw(st.integers(min_inputs, max_inputs))
    width = draw(st.integers(2, max_outputs)) if width is None else width
    weights = []
    for _ in range(count):
        if weights and draw(st.integers(0, 4)) == 0:
            weights.append(list(draw(st.sampled_from(weights))))  # an equal row
            continue
        row = []
        for _ in range(width):
            if special and draw(st.integers(0, 9)) == 0:
                row.append(draw(st.sampled_from(SPECIAL)))
            else:
                row.append(draw(st.sampled_from(WEIGHTS)) * (1 + draw(st.sampled_from(NUDGES))))
        if not any(row):
            row[draw(st.integers(0, width - 1))] = Fraction(1)
        weights.append(row)
    if draw(st.booleans()):  # an equal column: equal ratios in two outputs of every pair
        source, target = draw(st.integers(0, width - 1)), draw(st.integers(0, width - 1))
        for row in weights:
            row[target] = row[source]
            if not any(row):
                row[source] = row[target] = Fraction(1)
    rows = [[w / sum(row) for w in row] for row in weights]
    if width >= 3 and draw(st.integers(0, 4)) == 0:  # an exact tie of ratios that the doubles order wrongly
        for k, tied in enumerate(TIED_ROWS[:count]):
            rows[k] = tied + [Fraction(0)] * (width - 3)
    if special and width >= 3 and draw(st.integers(0, 6)) == 0:  # a row without doubles (irrational entries)
        rows[draw(st.integers(0, count - 1))] = IRRATIONAL_ROW + ["0"] * (width - 3)
    return rows


def exact_ratios(rows):
    values = [[Fraction(p) for p in row] for row in rows if all(not isinstance(p, str) for p in row)]
    return sorted({a / b for row in values for other in values for a, b in zip(row, other) if a and b and a > b})


def budget_text(draw, ratios):
    """A budget: plain (irrational and huge ones included), the log of a ratio of the matrix (a margin of exactly 0),
    or of a ratio nudged (a near-tie)."""
    kind = draw(st.integers(0, 3))
    if kind == 0 and ratios:
        return f"log({draw(st.sampled_from(ratios))})"
    if kind == 1 and ratios:
        ratio = draw(st.sampled_from(ratios)) * (1 + draw(st.sampled_from(NUDGES)))
        return f"log({ratio})" if ratio > 1 else "0"
    return draw(st.sampled_from(PLAIN_BUDGETS))


@st.composite
def cases(draw, **options):
    rows = draw(matrices(**options))
    ratios = exact_ratios(rows)
    budgets = [budget_text(draw, ratios) for _ in rows]
    epsilon = budget_text(draw, ratios)
    return rows, budgets, epsilon


def channel_of(rows, reading=None, inputs=None, outputs=None):
    return Channel(range(len(rows)) if inputs is None else inputs,
                   range(len(rows[0])) if outputs is None else outputs, rows, reading=reading)


SETTINGS = {"deadline": None, "suppress_health_check": [HealthCheck.too_slow, HealthCheck.data_too_large]}


# --- notions and losses, three paths --------------------------------------------------------------------------

def notion_verdicts(rows, budgets, epsilon, policy, sensitive, protected_outputs):
    """Every notion that reaches a float filter on a matrix, in an order that computes the doubles part way (the
    pairwise notions with a policy then read the rows' doubles; ``pairwise_loss`` on a fresh channel does not)."""
    results = {}
    fresh = channel_of(rows)
    results["pairwise fresh"] = losses_key(loss.pairwise_loss(fresh))
    channel = channel_of(rows)
    mapping = dict(zip(channel.inputs, budgets))
    results["ldp"] = verdict_key(notions.ldp(channel, epsilon))
    results["policy"] = verdict_key(notions.min_id_ldp(channel, mapping, policy=policy))
    for r in ("min", "avg", "max"):
        results[r] = verdict_key(notions.id_ldp(channel, mapping, r))
        grid = [0, len(rows) // 2, len(rows) - 1] if len(rows) >= 3 else [0, 1]
        results["graded " + r] = verdict_key(notions.graded_ldp(channel, grid, budgets[:len(grid) - 1], r))
    results["minid"] = verdict_key(notions.min_id_ldp(channel, mapping))
    results["avgid"] = verdict_key(notions.avg_id_ldp(channel, mapping))
    results["uldp"] = verdict_key(notions.uldp(channel, sensitive, protected_outputs, epsilon))
    results["pairwise"] = losses_key(loss.pairwise_loss(channel))
    if len(rows) == len(rows[0]):  # items to items
        square = channel_of(rows)
        results["ipldp"] = verdict_key(notions.ipldp(square, {y: budgets[y] for y in protected_outputs}))
    return results


@settings(max_examples=examples(30), **SETTINGS)
@given(cases(max_inputs=6), st.data())
def test_every_notion_answers_alike_on_every_path(case, data):
    rows, budgets, epsilon = case
    count, width = len(rows), len(rows[0])
    if data.draw(st.integers(0, 3)) == 0:  # a square matrix: IPLDP's items
        rows = data.draw(matrices(min_inputs=width, max_inputs=width, width=width))
        count = len(rows)
        budgets = (budgets * count)[:count]
    pairs = [(i, j) for i in range(count) for j in range(i + 1, count)]
    policy = data.draw(st.lists(st.sampled_from(pairs), min_size=1, max_size=3, unique=True))
    sensitive = data.draw(st.lists(st.integers(0, count - 1), max_size=count, unique=True))
    protected = data.draw(st.lists(st.integers(0, width - 1), min_size=1, max_size=width, unique=True))
    assert_alike(on_every_path(lambda: notion_verdicts(rows, budgets, epsilon, policy, sensitive, protected)))


def loss_results(rows):
    results = {"ldp_epsilon": loss.ldp_epsilon(channel_of(rows)).text(),
               "pairwise_loss": losses_key(loss.pairwise_loss(channel_of(rows))),
               "output_loss": losses_key(loss.output_loss(channel_of(rows)))}
    profile = loss.loss_profile(channel_of(rows))
    results["loss_profile"] = profile
    results["summary_profile"] = loss.summary_profile(channel_of(rows))
    results["summary_of_profile"] = loss.loss_profile_summary(profile)
    return results


@settings(max_examples=examples(50), **SETTINGS)
@given(matrices(min_inputs=3, max_inputs=8))
def test_every_loss_answers_alike_on_every_path(rows):
    """``ldp_epsilon``, ``pairwise_loss``, ``output_loss``, ``loss_profile``; and ``summary_profile`` (by
    ``PairLossBounds`` from 6 inputs up, 30 pairs, more than ``SHOWN``) equal to the summary of the whole profile."""
    results = on_every_path(lambda: loss_results(rows))
    assert_alike(results)
    for name in PATHS:
        assert results[name]["summary_profile"] == results[name]["summary_of_profile"]


@st.composite
def float_matrices(draw):
    """A matrix computed in doubles (rows that rarely sum to exactly 1), with subnormal and tiny entries, ties and
    near-ties, read under a declared reading."""
    rows = draw(matrices(max_inputs=7, max_outputs=4))
    as_floats = []
    for row in rows:
        values = [float(Fraction(p)) if not isinstance(p, str) else None for p in row]
        if None in values:
            values = [0.6, 0.2, 0.2] + [0.0] * (len(row) - 3)
        if draw(st.integers(0, 5)) == 0:
            values[draw(st.integers(0, len(values) - 1))] = draw(st.sampled_from([5e-324, 1e-310, 1e-300]))
        as_floats.append(values)
    reading = {"rows": draw(st.sampled_from(["renormalise", "remainder"])),
               "numbers": draw(st.sampled_from(["decimal", "binary"]))}
    if reading["rows"] == "remainder":
        reading["remainder_to"] = max(range(len(as_floats[0])), key=lambda y: min(row[y] for row in as_floats))
    as_text = draw(st.booleans()) and reading["numbers"] == "decimal"
    return [[repr(v) for v in row] if as_text else row for row in as_floats], reading


@settings(max_examples=examples(40), **SETTINGS)
@given(float_matrices(), st.sampled_from(PLAIN_BUDGETS[:7]))
def test_float_matrices_under_each_reading_answer_alike(case, epsilon):
    """``Channel.from_array`` of doubles (or their texts: ``_simple_entry`` unbounded) under ``renormalise`` and
    ``remainder``, numbers as decimals or as binary values: verdicts and losses alike on every path."""
    rows, reading = case

    def compute():
        try:
            channel = Channel.from_array(np.array(rows) if not isinstance(rows[0][0], str) else rows,
                                         reading=reading)
        except InvalidChannel as error:  # a surplus larger than the remainder's entry: refused alike
            return str(error)
        budgets = {x: epsilon for x in channel.inputs}
        summary = loss.summary_profile(Channel.from_array(rows if isinstance(rows[0][0], str) else np.array(rows),
                                                          reading=reading))
        return (verdict_key(notions.ldp(channel, epsilon)), verdict_key(notions.avg_id_ldp(channel, budgets)),
                verdict_key(notions.id_ldp(channel, budgets, "max")), loss.loss_profile(channel), summary)
    assert_alike(on_every_path(compute))


@settings(max_examples=examples(30), **SETTINGS)
@given(st.integers(1, 3).flatmap(lambda classes: st.tuples(
    st.lists(st.sampled_from([Fraction(1, 10), Fraction(1, 7), Fraction(0), Fraction(1, 10 ** 310)]),
             min_size=classes, max_size=classes),
    st.lists(st.integers(0, classes - 1), min_size=2, max_size=6))), st.sampled_from(PLAIN_BUDGETS))
def test_inputs_in_classes_answer_alike_on_every_path_and_as_their_matrix(case, epsilon):
    """A direct encoding whose items come in classes (``ColumnClasses``: the notions judge one pair per pair of
    classes, split by budget) against its explicit matrix with the accelerator: the same verdicts and losses."""
    bases, items = case
    used = sorted(set(items))
    counts = {c: items.count(c) for c in used}
    total = sum(counts[c] * bases[c] for c in used)
    if total >= 1:
        return
    extras = [1 - total] * len(bases)
    budgets = [epsilon if c == 0 else "log(3)/7" for c in items]

    def compute(make):
        channel = make()
        mapping = dict(zip(channel.inputs, budgets))
        return (verdict_key(notions.ldp(channel, epsilon)),
                verdict_key(notions.min_id_ldp(channel, mapping)),
                verdict_key(notions.avg_id_ldp(channel, mapping)),
                verdict_key(notions.id_ldp(channel, mapping, "max")),
                loss.ldp_epsilon(channel).text(), losses_key(loss.pairwise_loss(channel)))

    classed = on_every_path(lambda: compute(lambda: ColumnClasses(bases, extras, items)))
    assert_alike(classed)
    explicit = on_every_path(lambda: compute(lambda: ColumnClasses(bases, extras, items).explicit()))
    assert_alike(explicit)
    assert [witness_key(verdict) for verdict in classed["accelerator"][:4]] == \
        [witness_key(verdict) for verdict in explicit["accelerator"][:4]]
    assert classed["accelerator"][4:] == explicit["accelerator"][4:]


# --- the fast reader, unbounded -------------------------------------------------------------------------------

@settings(max_examples=examples(300), deadline=None)
@given(short_numbers())
def test_an_unbounded_entry_reads_as_the_general_reader(text):
    """``_simple_entry(bounded=False)`` (rows read with ``renormalise`` or ``remainder``: any number >= 0) gives the
    general reader's value, or ``None`` for a text the general reader refuses, or takes in a form it alone reads."""
    entry = _simple_entry(text, False, {})
    kind, value = general(text)
    for rows in ("renormalise", "remainder"):
        try:
            read = ("value", _probability_entry(text, 0, 0, RowReading(rows)))
        except InvalidChannel as error:
            read = ("refused", str(error))
        if entry is not None:
            assert read == ("value", entry) and read[1].text() == entry.text()
    if entry is not None:
        assert kind == "value" and entry == value and value.as_rational() >= 0
        assert entry.as_rational() == value.as_rational() and entry.text() == value.text()
    elif kind == "value" and value.as_rational() >= 0:
        assert text != text.strip() or len(text) > SIMPLE_LENGTH or re.search(r"[eE][+-]?[0-9]{4}", text)


# --- the accelerator's functions against brute force -----------------------------------------------------------

NORMAL_VALUES = [Fraction(1, 3), Fraction(2, 7), Fraction(1, 2), Fraction(5, 11), Fraction(1), Fraction(1, 10 ** 300),
                 Fraction(29, 500), Fraction(47, 500), Fraction(841, 413000), Fraction(1363, 413000)]


@st.composite
def small_rows(draw, count=None, width=None, zeros=True, normalise=True):
    """Rows of exact values with normal doubles (what ``matrix_doubles`` gives the accelerator), ties and near-ties,
    zeros, each row divided by its sum; returned as Fractions (the exact values) and as the array of their doubles."""
    count = draw(st.integers(1, 5)) if count is None else count
    width = draw(st.integers(1, 5)) if width is None else width
    rows = []
    for _ in range(count):
        if rows and draw(st.integers(0, 3)) == 0:
            rows.append(list(draw(st.sampled_from(rows))))
            continue
        row = []
        for _ in range(width):
            if zeros and draw(st.integers(0, 5)) == 0:
                row.append(Fraction(0))
            else:
                row.append(draw(st.sampled_from(NORMAL_VALUES)) * (1 + draw(st.sampled_from(NUDGES))))
        rows.append(row)
    if width > 1 and draw(st.booleans()):
        source, target = draw(st.integers(0, width - 1)), draw(st.integers(0, width - 1))
        for row in rows:
            row[target] = row[source] * draw(st.sampled_from([1, 1, 2]))
    if len(rows) >= 2 and draw(st.integers(0, 3)) == 0:  # outputs of an exact tie that the doubles order wrongly
        order = draw(st.sampled_from([1, -1]))
        for k, row in enumerate(rows):
            row.extend(TIED_ROWS[(k % 2) if order == 1 else 1 - k % 2][:2])
    if normalise:
        for row in rows:
            if not any(row):
                row[0] = Fraction(1)
        rows = [[p / sum(row) for p in row] for row in rows]  # a channel's rows: every pair's loss is >= 0
    return rows, accelerator.as_array([[float(p) for p in row] for row in rows])


def pair_ratio(row, other):
    """``(infinite, ratio, first output of the largest ratio)`` of two rows, exactly; ``ratio`` None when ``row``
    produces nothing."""
    produced = [j for j, p in enumerate(row) if p]
    cannot = [j for j in produced if not other[j]]
    if cannot:
        return True, None, cannot[0]
    if not produced:
        return False, None, None
    ratios = [row[j] / other[j] for j in produced]
    top = max(ratios)
    return False, top, produced[ratios.index(top)]


@settings(max_examples=examples(300), deadline=None)
@given(st.integers(1, 6).flatmap(lambda width: small_rows(count=2, width=width, normalise=False)))
def test_row_pair_candidates_keep_every_largest_ratio(case):
    rows, doubles = case
    row, other = rows
    cannot, candidates = accelerator.row_pair_candidates(doubles[0], doubles[1])
    infinite, top, first = pair_ratio(row, other)
    if infinite:
        assert (cannot, candidates) == (first, [])
    elif top is None:
        assert (cannot, candidates) == (None, [])
    else:
        assert cannot is None and candidates == sorted(candidates)
        assert all(row[j] for j in candidates)
        assert {j for j, p in enumerate(row) if p and p / other[j] == top} <= set(candidates)


@settings(max_examples=examples(300), deadline=None)
@given(small_rows(normalise=False))
def test_column_extremes_keep_every_extreme(case):
    rows, doubles = case
    columns = list(accelerator.column_extremes(doubles))
    assert len(columns) == len(rows[0])
    for y, (highs, lows) in enumerate(columns):
        column = [row[y] for row in rows]
        assert highs == sorted(highs) and lows == sorted(lows)
        assert {i for i, p in enumerate(column) if p == max(column)} <= set(highs)
        assert {i for i, p in enumerate(column) if p == min(column)} <= set(lows)


BUDGET_DOUBLES = [0.0, 0.5, 1.0, 2.0, 30.0, math.log(2), math.log(1.5), math.log(3) / 7, 1e300, 2.0 ** 1000]
"""Budgets as the accelerator takes them (doubles); their exact values are the doubles' own. Nudged by units of a
double below."""


def exact_log(ratio: Fraction):
    return mpmath.log(mpmath.mpf(ratio.numerator)) - mpmath.log(mpmath.mpf(ratio.denominator))


def exact_margins(rows, budgets, combine):
    """``{(i, j): (budget bound, ratio)}`` for every ordered pair of distinct rows, the bound a Fraction (exact: the
    budgets are doubles, their average a rational), the ratio a Fraction, or None for an infinite loss."""
    bounds = {"min": min, "max": max, "avg": lambda a, b: (a + b) / 2}[combine]
    result = {}
    for i, row in enumerate(rows):
        for j, other in enumerate(rows):
            if i != j:
                infinite, top, _ = pair_ratio(row, other)
                result[(i, j)] = (bounds(Fraction(budgets[i]), Fraction(budgets[j])),
                                  None if infinite else (top if top is not None else Fraction(1)))
    return result


def margin_less(a, b) -> bool:
    """Whether margin ``a = bound - ln ratio`` is smaller than ``b``, exactly: equal bounds compare the ratios as
    Fractions; different rational bounds cannot make equal margins (``e^q`` is irrational for a rational
    ``q != 0``), so 400 digits tell them apart."""
    (bound, ratio), (bound2, ratio2) = a, b
    if bound == bound2:
        return ratio > ratio2
    if ratio == ratio2:
        return bound < bound2
    with mpmath.workdps(400):
        return mpmath.mpf(bound.numerator) / bound.denominator - exact_log(ratio) < \
            mpmath.mpf(bound2.numerator) / bound2.denominator - exact_log(ratio2)


@settings(max_examples=examples(150), deadline=None)
@given(st.integers(2, 5).flatmap(lambda count: st.tuples(
    small_rows(count=count), st.lists(st.tuples(st.sampled_from(BUDGET_DOUBLES), st.sampled_from([0, 0, 1, -1, 4])),
                                      min_size=count, max_size=count))), st.sampled_from(["min", "avg", "max"]))
def test_filtered_pairs_keep_the_first_pair_of_smallest_margin(case, combine):
    (rows, doubles), nudged = case
    budgets = [b + k * math.ulp(b) if b else b for b, k in nudged]
    kept = accelerator.filtered_pairs(doubles, budgets, combine)
    if max(budgets) > 2.0 ** 1000:  # beyond LARGEST_BUDGET: declined, every pair decided exactly
        assert kept is None
        return
    assert kept is not None and kept == sorted(set(kept)) and all(i != j for i, j in kept)
    margins = exact_margins(rows, budgets, combine)
    infinite = [pair for pair, (_, ratio) in margins.items() if ratio is None]
    if infinite:
        assert kept == [min(infinite)]
        return
    first = None
    for pair in sorted(margins):
        if first is None or margin_less(margins[pair], margins[first]):
            first = pair
    assert first in kept


def test_filtered_pairs_decline_budgets_beyond_the_doubles_and_other_pair_functions():
    doubles = accelerator.as_array([[0.5, 0.5], [0.25, 0.75]])
    for budget in (1e308, 1.7976931348623157e308, math.inf, 2.0 ** 1001):
        assert accelerator.filtered_pairs(doubles, [budget, 1.0], "avg") is None
    assert accelerator.filtered_pairs(doubles, [1.0, 1.0], "custom") is None
    assert accelerator.filtered_pairs(doubles[:1], [1.0], "min") == []


@settings(max_examples=examples(200), deadline=None)
@given(st.integers(2, 6).flatmap(lambda count: small_rows(count=count)), st.integers(1, 8))
def test_pair_loss_bounds_hold_the_exact_answers(case, wanted):
    rows, doubles = case
    count = len(rows)
    bounds = accelerator.PairLossBounds(doubles)
    losses = {}
    for i in range(count):
        for j in range(count):
            if i == j:
                continue
            infinite, top, _ = pair_ratio(rows[i], rows[j])
            assert bool(bounds.infinite[i, j]) == infinite
            if not infinite:
                with mpmath.workdps(60):
                    exact = exact_log(top) if top is not None else mpmath.mpf(0)
                    assert mpmath.mpf(float(bounds.low[i, j])) <= exact <= mpmath.mpf(float(bounds.high[i, j]))
                losses[(i, j)] = top if top is not None else Fraction(1)
    assert bounds.infinite_pairs() == sorted(pair for pair in
                                             ((i, j) for i in range(count) for j in range(count) if i != j)
                                             if pair not in losses)
    assert bounds.finite_count() == len(losses)
    if not losses:
        assert bounds.largest(wanted) == []
        return
    ordered = sorted(losses.values(), reverse=True)
    threshold = ordered[min(wanted, len(ordered)) - 1]
    largest = bounds.largest(wanted)
    assert largest == sorted(largest)
    assert {pair for pair, ratio in losses.items() if ratio >= threshold} <= set(largest)
    for i in range(count):
        mine = {j: ratio for (a, j), ratio in losses.items() if a == i}
        partners = bounds.worst_partners(i)
        if not mine:
            assert partners == []
        else:
            assert {j for j, ratio in mine.items() if ratio == max(mine.values())} <= set(partners)
        infinite = [j for j in range(count) if j != i and (i, j) not in losses]
        assert bounds.first_infinite_partner(i) == (infinite[0] if infinite else None)
    top = float(exact_log(max(losses.values())))
    if top > 0:
        counts, open_pairs = bounds.histogram(top, 10)
        for pair in open_pairs:
            counts[min(9, int(10 * float(exact_log(losses[pair])) / top))] += 1
        expected = [0] * 10
        for ratio in losses.values():
            expected[min(9, int(10 * float(exact_log(ratio)) / top))] += 1
        assert counts == expected

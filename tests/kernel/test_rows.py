"""Matrices computed in floating point, read under a declared reading (``spec.rows``): the reading makes the channel
exact, the kernel decides it exactly, and every verdict names the reading and the largest row deviation.

The expected values here are computed independently of the kernel, with Python's Fractions: a renormalised row is
each entry over the row's sum, a remainder row adds ``1 - sum`` to one entry, and the tightest LDP budget of a matrix
is the log of the largest ratio within a column.
"""

from __future__ import annotations

import json
import math
from fractions import Fraction

import mpmath
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ldpspec import spec
from ldpspec.reference.registry import MECHANISMS, NOTIONS
from ldpspec.spec.numbers import budget
from ldpspec.spec.rows import RowReading
from tests.fuzz.contract import run

ITEMS = ["a", "b", "c"]
# GRR at eps = 1 over three items, as the issue that asked for readings wrote it, and as NumPy computes it
ISSUE_DOUBLES = (0.5761168847658291, 0.21194155761708544)
NUMPY_DOUBLES = (math.e / (math.e + 2), 1 / (math.e + 2))
READINGS = [{"rows": "renormalise"}, {"rows": "remainder"}, {"rows": "renormalise", "numbers": "binary"},
            {"rows": "remainder", "numbers": "binary"}]


def grr_rows(p: float, q: float) -> list:
    return [[p if x == y else q for y in range(3)] for x in range(3)]


def largest_ratio(rows) -> Fraction:
    """The largest ratio within a column of exact rows (the tightest LDP budget is its log)."""
    return max(a[j] / b[j] for a in rows for b in rows for j in range(len(a)) if b[j] > 0)


def renormalised(rows) -> list:
    return [[p / sum(row) for p in row] for row in rows]


def with_remainder(rows, target: int) -> list:
    return [row[:target] + [row[target] + 1 - sum(row)] + row[target + 1:] for row in rows]


def fractions_of(rows, numbers: str) -> list:
    """Each float as the reading reads it: its shortest decimal, or its binary value."""
    return [[Fraction(repr(p)) if numbers == "decimal" else Fraction(p) for p in row] for row in rows]


# --- GRR written in doubles ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("doubles", [ISSUE_DOUBLES, NUMPY_DOUBLES])
@pytest.mark.parametrize("reading", READINGS)
def test_grr_in_doubles_gets_an_exact_verdict_that_names_its_reading(doubles, reading):
    rows = grr_rows(*doubles)
    channel = spec.Channel(ITEMS, ITEMS, rows, reading=reading)
    verdict = spec.ldp(channel, 1)
    exact_rows = fractions_of(rows, reading.get("numbers", "decimal"))
    deviations = [abs(sum(row) - 1) for row in exact_rows]
    read = (renormalised(exact_rows) if reading["rows"] == "renormalise" else with_remainder(exact_rows, 2))
    assert all(sum(row) == 1 for row in read)
    ratio = largest_ratio(read)
    with mpmath.workdps(60):  # the ratio is within about 1e-16 of e: 60 digits tell them apart
        expected_holds = mpmath.mpf(ratio.numerator) / ratio.denominator <= mpmath.e
    assert verdict.holds == expected_holds
    named = verdict.parameters["reading"]
    assert named["rows"] == reading["rows"] and named["numbers"] == reading.get("numbers", "decimal")
    worst = max(deviations)
    if worst:
        assert float(named["largest_row_deviation"]) == pytest.approx(float(worst), rel=1e-5)
        assert named["at_input"] == ITEMS[deviations.index(worst)]
    else:
        assert named["largest_row_deviation"] == "0" and named["at_input"] is None
    if reading["rows"] == "remainder":
        assert named["remainder_to"] == "c"


def test_the_tightest_budget_of_a_read_channel_is_the_log_of_its_largest_exact_ratio():
    rows = grr_rows(*NUMPY_DOUBLES)
    for reading in READINGS:
        channel = spec.Channel(ITEMS, ITEMS, rows, reading=reading)
        exact_rows = fractions_of(rows, reading.get("numbers", "decimal"))
        read = renormalised(exact_rows) if reading["rows"] == "renormalise" else with_remainder(exact_rows, 2)
        assert spec.ldp_epsilon(channel) == budget(f"log({largest_ratio(read)})")


@settings(max_examples=60, deadline=None)
@given(st.lists(st.lists(st.floats(0.01, 1.0), min_size=3, max_size=3), min_size=2, max_size=4),
       st.sampled_from(READINGS))
def test_any_positive_float_matrix_is_read_as_the_fractions_say(weights, reading):
    array = np.array(weights)
    array = array / array.sum(axis=1, keepdims=True)  # as a user's code normalises: rows near 1, rarely exactly
    inputs = list(range(len(weights)))
    exact_rows = fractions_of(array.tolist(), reading.get("numbers", "decimal"))
    if reading["rows"] == "remainder" and any(row[2] + 1 - sum(row) < 0 for row in exact_rows):
        with pytest.raises(spec.InvalidChannel, match="surplus is larger"):
            spec.Channel.from_array(array, reading=reading)
        return
    channel = spec.Channel.from_array(array, reading=reading)
    assert channel.inputs == tuple(inputs) and channel.outputs == (0, 1, 2)
    read = renormalised(exact_rows) if reading["rows"] == "renormalise" else with_remainder(exact_rows, 2)
    assert [[Fraction(p.as_rational()) for p in row] for row in channel.rows] == read
    assert spec.ldp_epsilon(channel) == budget(f"log({largest_ratio(read)})")


# --- leaks are caught under every reading -------------------------------------------------------------------------

@pytest.mark.parametrize("reading", READINGS)
def test_a_float_channel_that_leaks_more_than_its_budget_fails_under_every_reading(tmp_path, reading):
    e = math.exp(1.001)  # GRR at eps = 1.001, checked against eps = 1
    rows = grr_rows(e / (e + 2), 1 / (e + 2))
    assert not spec.ldp(spec.Channel(ITEMS, ITEMS, rows, reading=reading), 1)
    path = tmp_path / "leaky.json"
    path.write_text(json.dumps({"inputs": ITEMS, "outputs": ITEMS, "probabilities": rows}), encoding="utf-8")
    options = [f"--{key}={value}" for key, value in reading.items()]
    status, out, _ = run(["check", str(path), "--notion", "ldp", "--epsilon", "1", *options])
    assert status == 1 and json.loads(out)["parameters"]["reading"]["rows"] == reading["rows"]


def test_a_float_channel_within_its_budget_holds_under_every_reading(tmp_path):
    e = math.exp(0.999)
    rows = grr_rows(e / (e + 2), 1 / (e + 2))
    for reading in READINGS:
        assert spec.ldp(spec.Channel(ITEMS, ITEMS, rows, reading=reading), 1)


# --- the readings' rules ------------------------------------------------------------------------------------------

def test_the_default_reading_refuses_a_row_that_does_not_sum_to_one_and_says_what_to_do():
    with pytest.raises(spec.InvalidChannel, match=r'row of input "a" must sum to exactly 1.*renormalise'):
        spec.Channel(ITEMS, ITEMS, grr_rows(*NUMPY_DOUBLES))


def test_remainder_goes_to_the_named_output_and_a_surplus_it_cannot_take_is_refused():
    rows = [["0.5", "0.3", "0.1"], ["0.2", "0.2", "0.6"]]  # sums 0.9 and 1.0
    channel = spec.Channel(["a", "b"], ITEMS, rows, reading={"rows": "remainder", "remainder_to": "a"})
    assert channel.row("a") == tuple(spec.Exact.of(v) for v in ("0.6", "0.3", "0.1"))
    assert channel.row("b") == tuple(spec.Exact.of(v) for v in ("0.2", "0.2", "0.6"))
    assert channel.reading().to_json()["remainder_to"] == "a"
    surplus = [["0.5", "0.4", "0.15"], ["0.2", "0.2", "0.6"]]  # 0.05 too much, which c's 0.15 can give
    assert spec.Channel(["a", "b"], ITEMS, surplus, reading={"rows": "remainder"}).row("a")[2] == spec.Exact.of("0.1")
    too_much = [["0.6", "0.5", "0.05"], ["0.2", "0.2", "0.6"]]  # 0.15 too much, and c holds 0.05
    with pytest.raises(spec.InvalidChannel, match=r'input "a".*surplus is larger than P\["c"\|"a"\]'):
        spec.Channel(["a", "b"], ITEMS, too_much, reading={"rows": "remainder"})
    with pytest.raises(spec.InvalidChannel, match="remainder_to must be an output"):
        spec.Channel(["a", "b"], ITEMS, rows, reading={"rows": "remainder", "remainder_to": "z"})
    with pytest.raises(spec.InvalidParameter, match="under rows = 'remainder' only"):
        RowReading("renormalise", remainder_to="a")


def test_entries_below_zero_are_refused_under_every_reading_and_weights_may_exceed_one():
    for reading in [None, *READINGS]:
        with pytest.raises(spec.InvalidChannel, match=r'P\["b"\|"a"\] must be'):
            spec.Channel(["a"], ["a", "b"], [[1.0, -1e-17]], reading=reading)
    channel = spec.Channel(["a", "b"], ["a", "b"], [[3, 1], [1, 1]], reading={"rows": "renormalise"})
    assert channel.row("a") == (spec.Exact.of("3/4"), spec.Exact.of("1/4"))
    with pytest.raises(spec.InvalidChannel, match="sums to 0"):
        spec.Channel(["a"], ["a", "b"], [[0, 0]], reading={"rows": "renormalise"})


def test_binary_reads_decimals_as_doubles_and_leaves_fractions_and_expressions_exact():
    binary = RowReading(numbers="binary")
    assert binary.number(0.1, "p").as_rational() == Fraction(0.1) != Fraction(1, 10)
    assert binary.number("0.1", "p").as_rational() == Fraction(0.1)
    assert binary.number("1/3", "p").as_rational() == Fraction(1, 3)
    assert binary.number("exp(1)/(exp(1)+2)", "p") == spec.Exact.of("exp(1)/(exp(1)+2)")
    assert RowReading().number(0.1, "p").as_rational() == Fraction(1, 10)
    with pytest.raises(spec.InvalidParameter, match="finite double"):
        binary.number("1e400", "P['a'|'a']")
    # rows that sum to 1 as doubles need no row rule under the binary reading
    rows = grr_rows(*ISSUE_DOUBLES)
    assert spec.Channel(ITEMS, ITEMS, rows, reading={"numbers": "binary"}).reading().to_json()[
        "largest_row_deviation"] == "0"
    with pytest.raises(spec.InvalidChannel, match="must sum to exactly 1"):
        spec.Channel(ITEMS, ITEMS, rows)


def test_a_reading_is_refused_by_name_when_malformed():
    for bad, message in [({"rows": "round"}, "rows must be one of exact, renormalise, remainder"),
                         ({"numbers": "hex"}, "numbers must be one of decimal, binary"),
                         ({"rows": "remainder", "tolerance": 1e-9}, "unknown keys"),
                         ("renormalise", "reading must be an object")]:
        with pytest.raises(spec.InvalidParameter, match=message):
            spec.Channel(ITEMS, ITEMS, grr_rows(*NUMPY_DOUBLES), reading=bad)


def test_from_array_takes_a_two_dimensional_array_only():
    with pytest.raises(spec.InvalidChannel, match="two-dimensional"):
        spec.Channel.from_array(np.ones(3))
    channel = spec.Channel.from_array(np.array([[0.5, 0.5], [0.25, 0.75]]), ["x", "y"], ["u", "v"])
    assert channel.inputs == ("x", "y") and channel.reading() is None


# --- channel files and the command line ---------------------------------------------------------------------------

def write(tmp_path, document, name="channel.json"):
    path = tmp_path / name
    path.write_text(json.dumps(document), encoding="utf-8")
    return str(path)


def test_a_files_reading_section_applies_and_the_options_replace_it(tmp_path):
    document = {"inputs": ITEMS, "outputs": ITEMS, "probabilities": grr_rows(*NUMPY_DOUBLES),
                "reading": {"rows": "remainder", "remainder_to": "a"}, "privacy": {"epsilon": "1"}}
    path = write(tmp_path, document)
    status, out, _ = run(["check", path, "--notion", "ldp"])
    assert status in (0, 1) and json.loads(out)["parameters"]["reading"]["remainder_to"] == "a"
    status, out, _ = run(["check", path, "--notion", "ldp", "--rows", "renormalise"])
    assert json.loads(out)["parameters"]["reading"]["rows"] == "renormalise"
    status, out, _ = run(["check", path, "--notion", "ldp", "--rows", "remainder", "--remainder-to", '"b"'])
    assert json.loads(out)["parameters"]["reading"]["remainder_to"] == "b"
    status, out, _ = run(["profile", path, "--rows", "renormalise"])
    assert status == 0 and json.loads(out)["reading"]["rows"] == "renormalise"
    status, _, err = run(["check", path, "--notion", "ldp", "--rows", "exact"])
    assert status == 2 and "must sum to exactly 1" in err


def test_the_documented_example_file_is_refused_as_written_and_checked_under_each_reading():
    path = "docs/examples/grr3-doubles.json"
    status, _, err = run(["check", path, "--notion", "ldp"])
    assert status == 2 and "--rows" not in err and "renormalise" in err
    for rows in ("renormalise", "remainder"):
        status, out, _ = run(["check", path, "--notion", "ldp", "--rows", rows])
        verdict = json.loads(out)
        assert status == 0 and verdict["holds"] is True and verdict["parameters"]["reading"]["at_input"] == "a"


def test_readings_are_refused_where_they_do_not_apply(tmp_path):
    classes = {"format": "ldpspec-channel/3", "structure": "unary-classes",
               "classes": [{"hot": ["1/2", "1/2"], "cold": ["3/4", "1/4"]}], "class_sizes": [3],
               "reading": {"rows": "renormalise"}}
    status, _, err = run(["profile", write(tmp_path, classes)])
    assert status == 2 and "applies to a matrix" in err
    del classes["reading"]
    status, _, err = run(["profile", write(tmp_path, classes), "--rows", "renormalise"])
    assert status == 2 and "applies to a matrix" in err
    urr = write(tmp_path, {"inputs": ITEMS, "outputs": ITEMS, "probabilities": grr_rows(0.5, 0.25)})
    status, _, err = run(["profile", urr, "--remainder-to", "a"])
    assert status == 2 and "--rows remainder" in err


def test_estimate_names_the_reading_of_its_channel(tmp_path):
    path = write(tmp_path, {"inputs": ITEMS, "outputs": ITEMS, "probabilities": grr_rows(*NUMPY_DOUBLES)})
    status, out, _ = run(["estimate", "--channel", path, "--counts", "[10, 20, 30]", "--rows", "renormalise"])
    assert status == 0 and json.loads(out)["reading"]["rows"] == "renormalise"


# --- every notion names the reading -------------------------------------------------------------------------------

def _claimed_notion_files():
    """Each registered mechanism's exact channel file, when it is a small matrix, with the notion it claims."""
    for name, declaration in MECHANISMS.items():
        arguments = [f"--{key}={value}" for key, value in declaration.example().items()]
        status, out, _ = run(["channel", name, *arguments])
        document = json.loads(out)
        if status == 0 and document.get("format", "ldpspec-channel/1") == "ldpspec-channel/1":
            yield name, declaration.notion, document


def test_every_claimed_notion_names_the_reading_of_a_matrix_written_in_doubles(tmp_path):
    seen = set()
    for name, notion, document in _claimed_notion_files():
        rows = [[float(spec.Exact.of(p)) for p in row] for row in document["probabilities"]]
        document = {**document, "probabilities": rows, "reading": {"rows": "renormalise"}}
        status, out, err = run(["check", write(tmp_path, document, f"{name}.json"), "--notion", notion])
        assert status in (0, 1, 4), (name, err)
        assert json.loads(out)["parameters"]["reading"]["rows"] == "renormalise", name
        seen.add(notion)
    assert len(seen) >= 4 and seen <= set(NOTIONS)

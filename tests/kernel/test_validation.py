"""Bad input gets a clear error naming the parameter and what is allowed; never a NaN or a silent answer."""

from __future__ import annotations

import math

import pytest

from ldpspec import spec
from ldpspec.reference.shared.grr import Grr
from ldpspec.reference.shared.unary import oue

GRR = Grr(1, 3).channel()


@pytest.mark.parametrize("rows, message", [
    ([["0.5", "0.4"], ["0.5", "0.5"]], 'row of input "x" must sum to exactly 1, sums to 0.9'),
    ([["-0.5", "1.5"], ["0.5", "0.5"]], r'P\["a"\|"x"\] must be a probability in \[0, 1\]'),
    ([["nan", "0.5"], ["0.5", "0.5"]], "must be a real number, got NaN"),
    ([[float("nan"), 0.5], [0.5, 0.5]], "must be a real number, got NaN"),
    ([["inf", "0"], ["0.5", "0.5"]], "must be finite"),
    ([["0.5", "0.5"]], "one row per input: 2 inputs, 1 rows"),
    ([["0.5", "0.5", "0"], ["0.5", "0.5"]], 'row of input "x" must have one entry per output: 2 outputs, 3 entries'),
    ([["half", "0.5"], ["0.5", "0.5"]], "must be a decimal number"),
    ([[True, 0], [0.5, 0.5]], "must be a real number, got true"),
])
def test_malformed_matrices(rows, message):
    with pytest.raises(spec.InvalidChannel, match=message):
        spec.Channel(["x", "z"], ["a", "b"], rows)


@pytest.mark.parametrize("inputs, outputs, message", [
    (["x", "x"], ["a", "b"], 'input labels must be unique; "x" appears twice'),
    (["x", "z"], ["a", "a"], "output labels must be unique"),
    ([1, 1.0], ["a", "b"], "input labels must be unique"),
    ([], ["a", "b"], "at least one input"),
    ([True, "z"], ["a", "b"], "boolean"),
    ([{"set"}, "z"], ["a", "b"], "must be a string, integer, float, null or a list"),
    ([math.inf, "z"], ["a", "b"], "must be finite"),
])
def test_bad_labels(inputs, outputs, message):
    with pytest.raises(spec.InvalidChannel, match=message):
        spec.Channel(inputs, outputs, [["0.5", "0.5"], ["0.5", "0.5"]])


@pytest.mark.parametrize("epsilon, message", [
    (-1, "epsilon must be a finite real number >= 0"),
    (float("nan"), "epsilon must be a real number, got NaN"),
    (float("inf"), "epsilon must be finite"),
    ("1e-3x", "epsilon must be a decimal number"),
    (None, "epsilon must be a real number"),
    ([1], "epsilon must be a real number"),
])
def test_bad_budgets(epsilon, message):
    with pytest.raises(spec.InvalidParameter, match=message):
        spec.ldp(GRR, epsilon)
    with pytest.raises(spec.InvalidParameter, match=message):
        Grr(epsilon, 3).channel()


def test_unknown_and_missing_labels_in_parameters():
    with pytest.raises(spec.InvalidParameter, match="none is given for label 2$"):
        spec.min_id_ldp(GRR, {0: 1, 1: 1})
    with pytest.raises(spec.InvalidParameter, match="unknown label 7"):
        spec.min_id_ldp(GRR, {0: 1, 1: 1, 2: 1, 7: 1})
    with pytest.raises(spec.InvalidParameter, match=r"budgets\[1\] must be a finite real number >= 0"):
        spec.min_id_ldp(GRR, {0: 1, 1: -2, 2: 1})
    with pytest.raises(spec.InvalidParameter, match=r"r \(the pair function\) must be one of"):
        spec.id_ldp(GRR, {0: 1, 1: 1, 2: 1}, "median")
    with pytest.raises(spec.InvalidParameter, match='sensitive_inputs names unknown label "q"'):
        spec.uldp(GRR, ["q"], [0], 1)
    with pytest.raises(spec.InvalidParameter, match="protected_outputs names unknown label 9"):
        spec.uldp(GRR, [0], [9], 1)
    with pytest.raises(spec.InvalidParameter, match='unknown label "zz"'):
        spec.ipldp(GRR, {"zz": 1})
    with pytest.raises(spec.InvalidChannel, match="unknown input label 5"):
        GRR.probability(5, 0)


def test_a_custom_pair_function_must_return_a_budget():
    with pytest.raises(spec.InvalidParameter, match=r"r\(eps\[0\], eps\[1\]\) must be a finite real number >= 0"):
        spec.id_ldp(GRR, {0: 1, 1: 1, 2: 1}, lambda a, b: a - b - 1)


def test_ipldp_needs_outputs_in_the_domain():
    channel = spec.Channel(["a", "b"], ["a", "c"], [["1", "0"], ["0", "1"]])
    with pytest.raises(spec.InvalidParameter, match=r'outputs \["c"\] are not input items'):
        spec.ipldp(channel, {"a": 1})


@pytest.mark.parametrize("inputs, outputs, sensitive, non_sensitive, message", [
    ([("a",), ("u",), ("z",)], [("s", ())], ["a"], ["u"], r'items \["z"\] outside'),
    ([("a",), ("u",)], [("s", ())], ["a"], ["a", "u"], "must be disjoint"),
    ([("a",), ("u",)], ["s"], ["a"], ["u"], "every output must be a pair"),
    ([("a", "a"), ("u", "a")], [("s", ())], ["a"], ["u"], "a list without repeats"),
    ([("a", "u"), ("u", "a")], [("s", ())], ["a"], ["u"], "repeats another input as a set"),
    (["a", "u"], [("s", ())], ["a"], ["u"], "every input of the channel to be a set of items"),
    ([("a", "u", "v"), ("u", "v", "a")], [("s", ()), ("s", ("u", "v")), ("s", ("v", "u"))], ["a"], ["u", "v"],
     "repeats another input as a set"),
    ([("a", "u"), ("a", "v")], [("s", ("u", "v")), ("s", ("v", "u"))], ["a"], ["u", "v"], "repeats another output"),
])
def test_suldp_input_errors(inputs, outputs, sensitive, non_sensitive, message):
    channel = spec.Channel(inputs, outputs, [[1] + [0] * (len(outputs) - 1) for _ in inputs])
    with pytest.raises(spec.InvalidParameter, match=message):
        spec.suldp_marginal(channel, sensitive, non_sensitive, ["s"], 1)


@pytest.mark.parametrize("boundaries, budgets, inputs, message", [
    ([0, 0, 2], [1, 1], [0, 1, 2], "strictly increasing"),
    ([0, 2], [1, 1], [0, 1, 2], "one budget per interval of boundaries: 1 intervals, 2 budgets"),
    ([0, 1, 2], [1, 1], [0, 1, 3], "outside"),
    ([0, 1, 2], [1, 1], [0, 0.5, 2], "must include every interval end point; missing 1"),
    ([0, 1, 2], [1, 1], ["a", 1, 2], 'input "a" must be a decimal number'),
    ([0, 1, 2], [1, -1], [0, 1, 2], r"budgets\[1\] must be a finite real number >= 0"),
])
def test_graded_ldp_errors(boundaries, budgets, inputs, message):
    channel = spec.Channel(inputs, ["y"], [[1]] * len(inputs))
    with pytest.raises(spec.InvalidParameter, match=message):
        spec.graded_ldp(channel, boundaries, budgets, "max")


def test_composition_and_postprocessing_errors():
    other = spec.Channel(["p", "q", "r"], ["y"], [[1], [1], [1]])
    with pytest.raises(spec.InvalidChannel, match="must share their inputs"):
        spec.compose(GRR, other)
    with pytest.raises(spec.InvalidChannel, match=r"missing inputs \[2\]"):
        spec.postprocess(GRR, spec.Channel([0, 1], ["y"], [[1], [1]]))


def test_mechanism_parameter_errors():
    with pytest.raises(spec.InvalidParameter,
                       match=r"d \(domain size\) must be an integer in \[2, 10,000,000\], got 1"):
        Grr(1, 1).channel()
    with pytest.raises(spec.InvalidParameter, match="d \\(domain size\\) must be an integer in \\[2, 10,000,000\\]"):
        oue(1, 2.5).channel()


def test_independent_bits_errors():
    with pytest.raises(spec.InvalidChannel, match="must be 1"):
        spec.IndependentBits([0, 1], {0: [("0.5", "0.6")], 1: [("0.5", "0.5")]})
    with pytest.raises(spec.InvalidChannel, match="same, non-zero number of bits"):
        spec.IndependentBits([0, 1], {0: [("0.5", "0.5")], 1: []})
    with pytest.raises(spec.InvalidChannel, match="output must be a tuple of 1 bits"):
        spec.IndependentBits([0], {0: [("0.5", "0.5")]}).probability(0, (2,))

"""``spec.value_text``: a value for an error message as the user wrote it (JSON-like text), cut to a readable length,
never a Python repr; and the kernel's messages that show a user's value through it."""

from __future__ import annotations

import json
from decimal import Decimal
from fractions import Fraction

import pytest

from ldpspec import spec
from ldpspec.spec import label_text, value_text

REPRS = ("Decimal(", "Fraction(", "mpf(", "<object", "Exact(", "Nats(")


@pytest.mark.parametrize("value, text", [
    (Decimal("0.5"), "0.5"),
    (Decimal("0E+999999999"), "0E+999999999"),
    ((0, 0, Decimal("0E+999999999")), "[0, 0, 0E+999999999]"),
    ([Decimal("0.5"), [1, Decimal("2.5")]], "[0.5, [1, 2.5]]"),
    ({"a": Decimal("0.5")}, '{"a": 0.5}'),
    ("a", '"a"'),
    ('say "hi"', '"say \\"hi\\""'),
    ("é", '"é"'),
    (None, "null"), (True, "true"), (False, "false"),
    (7, "7"), (-0.25, "-0.25"), (float("nan"), "NaN"), (float("-inf"), "-Infinity"),
    (Fraction(1, 3), "1/3"),
    (frozenset({"b", "a"}), '["a", "b"]'),
    (("cat", ()), '["cat", []]'),
])
def test_a_value_is_written_as_the_user_wrote_it(value, text):
    assert value_text(value) == text


def test_exact_numbers_are_written_as_their_text():
    assert value_text(spec.Exact.of("1/4") - spec.Exact.of("3/4")) == "-0.5"
    assert value_text(spec.budget("log(3)")) == "log(3)"
    assert value_text(spec.ctx.mpf("0.5")) == "0.5"


def test_numpy_values_are_written_as_the_numbers_they_hold():
    np = pytest.importorskip("numpy")
    assert value_text(np.float64(0.5)) == "0.5"
    assert value_text(np.int64(3)) == "3"
    assert value_text(np.array([[1, 0], [0, 1]])) == "[[1, 0], [0, 1]]"


def test_anything_else_is_named_by_its_type():
    assert value_text(object()) == "an object"
    assert value_text(len) == "a builtin_function_or_method"


def test_a_long_value_is_cut_and_only_its_start_is_read():
    text = value_text(list(range(10 ** 6)))
    assert len(text) == 80 and text.startswith("[0, 1, 2, ") and text.endswith("...")
    assert len(value_text("x" * 10 ** 6, 40)) == 40
    assert value_text(10 ** 5000) == "an integer of about 5,000 digits"  # more digits than Python prints
    assert value_text(-(10 ** 5000)) == "a negative integer of about 5,000 digits"
    nested = []
    for _ in range(5000):  # deeper than any label; written without recursing through it
        nested = [nested]
    assert value_text(nested, 10 ** 5).endswith("[...]" + "]" * (spec.MAX_LABEL_DEPTH + 1))


def test_a_long_bit_vector_is_its_length_and_rarer_positions():
    vector = tuple(1 if k in (3, 700) else 0 for k in range(1000))
    assert value_text(vector) == "<1,000 bits, ones at [3, 700]>"


def test_a_lone_surrogate_is_escaped_so_that_a_terminal_prints_it():
    text = value_text("\ud800")
    assert text == '"\\ud800"'
    text.encode("utf-8")


@pytest.mark.parametrize("value", [Decimal("0.5"), (Decimal("1.5"), "x"), spec.Exact.of("1/3"), Fraction(2, 3),
                                   {Decimal("2.5"): [Decimal("1E+2")]}, object()])
def test_no_repr_leaks(value):
    assert not any(leak in value_text(value) for leak in REPRS)


def test_duplicate_labels_read_from_a_file_are_shown_as_written():
    """Issue 35's example: two labels equal as numbers, written apart (spec/labels.py, unique_labels)."""
    labels = json.loads('[[0, 0, 0], [0, 0, 0e999999999]]', parse_float=Decimal)
    with pytest.raises(spec.InvalidChannel) as error:
        spec.unique_labels(labels, "output")
    message = str(error.value)
    assert message == ("output labels must be unique; [0, 0, 0E+999999999] appears twice (as [0, 0, 0] and "
                       "[0, 0, 0E+999999999])")


def test_a_missing_budget_names_the_parameter_as_the_caller_names_it():
    channel = spec.Channel(["a", "b", "c"], ["y"], [[1], [1], [1]])
    with pytest.raises(spec.InvalidParameter, match=r'^privacy\.budgets must give a value for every label; none is '
                                                    r'given for label "c"$'):
        spec.min_id_ldp(channel, {"a": 1, "b": 1}, names={"budgets": "privacy.budgets"})
    with pytest.raises(spec.InvalidParameter, match=r"^budgets must give"):  # the Python keyword by default
        spec.min_id_ldp(channel, {"a": 1, "b": 1})


def test_every_predicate_names_its_parameters_as_the_caller_names_them():
    """``names`` reaches each predicate's messages (``Notion.check`` passes the option typed or the file field)."""
    sets = spec.Channel([("a",), ("u",)], [("s", ()), ("s", ("u",))], [["1", "0"], ["1/2", "1/2"]])
    cases = [
        (spec.NOTIONS["ldp"], sets, {"epsilon": "-1"}, "epsilon"),
        (spec.NOTIONS["suldp-joint"], sets, {"sensitive_items": ("a",), "non_sensitive_items": ("z",),
                                             "protected_outputs": ("s",), "epsilon": spec.budget(1)},
         "non_sensitive_items"),
        (spec.NOTIONS["uldp"], sets, {"sensitive_inputs": (("q",),), "protected_outputs": (), "epsilon": 1},
         "sensitive_inputs"),
        (spec.NOTIONS["graded-ldp"], spec.Channel([0, 1], ["y"], [[1], [1]]),
         {"boundaries": (0, 1), "budgets": (1, 2), "r": "max"}, "budgets"),
        (spec.NOTIONS["id-ldp"], spec.Channel([0, 1], ["y"], [[1], [1]]), {"budgets": {0: 1, 1: 1}, "r": "median"},
         "r"),
    ]
    for notion, channel, values, keyword in cases:
        with pytest.raises(spec.InvalidParameter) as error:
            notion.check(channel, values, names={keyword: f"--typed-{keyword}"})
        assert str(error.value).startswith(f"--typed-{keyword} "), (notion.name, str(error.value))


def test_a_verdict_names_a_decimal_label_by_its_text():
    """Witnesses and verdicts write labels as Python writes strings, integers and tuples, and a decimal as the text
    the user wrote: never ``Decimal('0.5')``."""
    assert label_text((0, 0, Decimal("0E+999999999"))) == "(0, 0, 0E+999999999)"
    assert label_text((Decimal("0.5"),)) == "(0.5,)"
    assert label_text(("a", (1, 2))) == "('a', (1, 2))"


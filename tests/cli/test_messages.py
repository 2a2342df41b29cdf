"""Issue 35's messages: each names the option as the user typed it (``--non-sensitive``) or the field of the channel
file (``privacy.budgets``), and shows the value as the user wrote it (``0E+999999999``, ``"b"``), never a Python repr.
One regression test per example the hostile-input run found."""

from __future__ import annotations

import json

import pytest

from tests.fuzz.contract import run

REPRS = ("Decimal(", "Fraction(", "mpf(", "<object", "Exact(", "Nats(")

MINID = {"inputs": ["a", "b", "c"], "outputs": ["y1", "y2"],
         "probabilities": [["0.8", "0.2"], ["0.5", "0.5"], ["0.2", "0.8"]]}
SETS = {"inputs": [["a"], ["u"]], "outputs": [["s", []], ["s", ["u"]]],
        "probabilities": [["1", "0"], ["0.5", "0.5"]]}
"""Two input sets, the item u revealed by its holder: a SULDP channel."""


def error_of(argv) -> str:
    status, out, err = run(argv)
    assert status == 2 and out == "", (status, err)
    assert err.startswith("ldpspec: error: ") and err.count("\n") == 1, err
    assert not any(leak in err for leak in REPRS), err
    return err


def _file(tmp_path, document, **privacy) -> str:
    path = tmp_path / "channel.json"
    path.write_text(json.dumps({**document, "privacy": privacy} if privacy else document), encoding="utf-8")
    return str(path)


def test_a_missing_budget_in_the_file_names_privacy_budgets(tmp_path):
    """Was: "budgets must give a value for every label; missing [2]" (neither the field nor the option)."""
    path = _file(tmp_path, MINID, budgets=["1.4", None, "1.4"])
    err = error_of(["check", path, "--notion", "minid-ldp"])
    assert 'privacy.budgets must give a value for every label; none is given for label "b"' in err


def test_a_missing_budget_on_the_command_line_names_the_option(tmp_path):
    path = _file(tmp_path, MINID, budgets=["1.4", "1", "1.4"])  # the option replaces the file's budgets
    err = error_of(["check", path, "--notion", "id-ldp", "--budgets", "[1, 1, null]", "--pair-function", "min"])
    assert '--budgets must give a value for every label; none is given for label "c"' in err


@pytest.mark.parametrize("source", ["option", "file"])
def test_an_unknown_non_sensitive_item_names_where_it_was_given(tmp_path, source):
    """Was: "non_sensitive_items names items that occur in no input set" (the predicate's keyword)."""
    common = ["--sensitive", '["a"]', "--protected", '["s"]', "--epsilon", "1"]
    if source == "option":
        path = _file(tmp_path, SETS)
        err = error_of(["check", path, "--notion", "suldp-joint", *common, "--non-sensitive", '["u", 0.50]'])
        name = "--non-sensitive"
    else:
        path = tmp_path / "channel.json"
        path.write_text(json.dumps({**SETS, "privacy": {"non_sensitive_items": ["u", "__x__"]}}).replace(
            '"__x__"', "0.50"), encoding="utf-8")
        err = error_of(["check", str(path), "--notion", "suldp-joint", *common])
        name = "privacy.non_sensitive_items"
    assert f'{name} names items that occur in no input set: [0.50]; the items are ["a", "u"]' in err


def test_a_sensitive_item_that_is_also_non_sensitive_names_both_options(tmp_path):
    path = _file(tmp_path, SETS)
    err = error_of(["check", path, "--notion", "suldp-marginal", "--sensitive", '["a", "u"]', "--non-sensitive",
                    '["u"]', "--protected", '["s"]', "--epsilon", "1"])
    assert '--sensitive and --non-sensitive must be disjoint; both contain ["u"]' in err


def test_duplicate_output_labels_are_shown_as_written(tmp_path):
    """Was: "output labels must be unique; (0, 0, Decimal('0E+999999999')) appears twice"."""
    path = tmp_path / "channel.json"
    path.write_text('{"inputs": ["x"], "outputs": [[0, 0, 0], [0, 0, 0e999999999]], "probabilities": [["1", "0"]]}',
                    encoding="utf-8")
    for argv in (["profile", str(path)], ["check", str(path), "--notion", "ldp", "--epsilon", "1"]):
        err = error_of(argv)
        assert ("output labels must be unique; [0, 0, 0E+999999999] appears twice (as [0, 0, 0] and "
                "[0, 0, 0E+999999999])") in err


def test_a_privacy_value_of_the_wrong_shape_is_shown_as_written(tmp_path):
    path = tmp_path / "channel.json"
    path.write_text(json.dumps({**MINID, "privacy": {"epsilon": ["a", "__x__"]}}).replace('"__x__"', "0.5"),
                    encoding="utf-8")
    err = error_of(["check", str(path), "--notion", "ldp"])
    assert 'privacy.epsilon must be a number (a decimal string or a JSON number); got ["a", 0.5]' in err


def test_a_missing_notion_parameter_names_its_option_and_its_field(tmp_path):
    err = error_of(["check", _file(tmp_path, MINID), "--notion", "minid-ldp"])
    assert "needs --budgets" in err and "privacy section as privacy.budgets" in err


def test_no_levels_names_the_option():
    """Now: "give one size per level: 0 budgets, 0 sizes" (neither the option nor the value typed)."""
    err = error_of(["idue", "solve", "--levels", "[]"])
    assert "--levels" in err and "[]" in err

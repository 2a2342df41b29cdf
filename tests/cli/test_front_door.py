"""The front door, case by case: each input that once crashed, hung or was misread, and what it does now.

Each test is one class of failure found by trying the command line, channel files and the Python API as a hostile
user would (exact verdicts, clear errors with exit status 2, limits instead of hangs, exit 3 and 4).
"""

from __future__ import annotations

import json
from fractions import Fraction

import numpy as np
import pytest

from ldpspec import spec
from ldpspec.reference.tools import cli
from tests.fuzz.contract import assert_contract, run

URR_ROWS = [["0.75", "0.25", "0"], ["0.25", "0.75", "0"], ["0.25", "0.25", "0.5"]]


def channel_file(tmp_path, inputs, outputs, rows, privacy=None, name="channel.json"):
    path = tmp_path / name
    document = {"inputs": inputs, "outputs": outputs, "probabilities": rows}
    if privacy:
        document["privacy"] = privacy
    path.write_text(json.dumps(document), encoding="utf-8")
    return path


def error_of(argv) -> str:
    status, out, err = run(argv)
    assert status == 2 and out == "", (status, err)
    assert err.startswith("ldpspec: error: ") and err.count("\n") == 1, err
    return err


# --- verdicts decided exactly ---------------------------------------------------------------------------------

@pytest.mark.parametrize("epsilon, status", [
    ("1.098612288668109691395245236922525704647", 1),   # ln 3 cut to 40 digits: exceeded by about 5e-41
    ("1.098612288668109691395245236922525704648", 0),   # rounded up: holds
    ("log(3)", 0),                                      # exactly ln 3: a tie
])
def test_a_budget_cut_short_is_exceeded(tmp_path, epsilon, status):
    path = channel_file(tmp_path, ["hiv", "cancer", "flu"], ["hiv", "cancer", "flu"], URR_ROWS)
    code, out, _ = run(["check", path, "--notion", "uldp", "--sensitive", '["hiv", "cancer"]',
                        "--protected", '["hiv", "cancer"]', "--epsilon", epsilon])
    assert code == status
    verdict = json.loads(out)
    assert verdict["holds"] is (status == 0)
    if epsilon == "log(3)":
        exact = verdict["witness"]["exact"]
        assert verdict["margin"] == "0" and (exact["log_ratio"], exact["bound"]) == ("log(3)", "log(3)")
        p, q = (Fraction(text) for text in exact["probabilities"])  # the two entries whose ratio it is
        assert p / q == 3


@pytest.mark.parametrize("rows", [
    [["0.5", "0.4995"], ["0.5", "0.5"]],
    [["0.5", "0.5000000000000000000000000000000000000000001"], ["0.5", "0.5"]],
    [["1/3", "0.6666666666666666666666666666666666666667"], ["0.5", "0.5"]],
])
def test_rows_must_sum_to_exactly_one(tmp_path, rows):
    path = channel_file(tmp_path, ["a", "b"], ["y", "z"], rows)
    assert "must sum to exactly 1" in error_of(["profile", path])


def test_numerical_labels_are_read_from_their_text(tmp_path):
    """The label 0.3 as a JSON number is 3/10 (in [0.3, 1]), not the double just below it (in [0, 0.3))."""
    e = "exp(1)"
    rows = [["1/4", "3/4"], [f"{e}/4", f"1 - {e}/4"], [f"1/(4*{e})", f"1 - 1/(4*{e})"]]
    text = json.dumps({"inputs": [0, "__03__", 1], "outputs": ["y0", "y1"], "probabilities": rows})
    path = tmp_path / "graded.json"
    path.write_text(text.replace('"__03__"', "0.3"), encoding="utf-8")
    status, out, err = run(["check", path, "--notion", "graded-ldp", "--boundaries", "[0, 0.3, 1]",
                            "--budgets", "[1, 5]", "--pair-function", "min"])
    assert status == 0, err or out


def test_suldp_items_must_be_items_of_the_input_sets(tmp_path):
    path = channel_file(tmp_path, [["a"], ["u"]], [["s", []], ["s", ["u"]]], [["1", "0"], ["0.5", "0.5"]])
    err = error_of(["check", path, "--notion", "suldp-joint", "--sensitive", '["a", "typo"]', "--protected", '["s"]',
                    "--epsilon", "1"])
    assert "sensitive_items names items that occur in no input set: ['typo']" in err


@pytest.mark.parametrize("value", ['"ab"', "5", "{}", "null"])
def test_a_list_parameter_given_something_else_is_refused(tmp_path, value):
    path = channel_file(tmp_path, ["hiv", "cancer", "flu"], ["hiv", "cancer", "flu"], URR_ROWS)
    err = error_of(["check", path, "--notion", "uldp", "--sensitive", value, "--protected", '["hiv"]',
                    "--epsilon", "1"])
    assert "--sensitive must be a JSON list of labels" in err


def test_a_huge_budget_against_a_transcendental_ratio_shows_its_margin(tmp_path):
    """Found by the fuzz suite: at eps = 1e300 the margin's enclosure, at the first precision, spanned 0 and its
    logarithm raised inside mpmath (exit 3). Enclosures are now tight relative to their size."""
    rows = [["(exp(1)/(exp(1) + 2)) + (1/1000)", "(1/(exp(1) + 2)) - (1/1000)", "1/(exp(1) + 2)"],
            ["1/(exp(1) + 2)", "exp(1)/(exp(1) + 2)", "1/(exp(1) + 2)"],
            ["1/(exp(1) + 2)", "1/(exp(1) + 2)", "exp(1)/(exp(1) + 2)"]]
    path = channel_file(tmp_path, [0, 1, 2], [0, 1, 2], rows, privacy={"epsilon": "1e300"})
    status, out, err = run(["check", path, "--notion", "ldp"])
    assert status == 0, err
    assert json.loads(out)["margin"].startswith("1.0000000000000000000000000000000000000000000000000e+300")


# --- clear errors instead of tracebacks -----------------------------------------------------------------------

@pytest.mark.parametrize("raw, message", [
    ('"1e999999"', "decimal exponent within"),
    ("1e999999", "decimal exponent within"),
    ("9" * 5000, "cannot be read"),
    ("[" * 3000 + "]" * 3000, "too deeply"),
])
def test_numbers_beyond_the_limits_of_the_format(tmp_path, raw, message):
    path = tmp_path / "big.json"
    path.write_text('{"inputs": [0], "outputs": [0], "probabilities": [[RAW]]}'.replace("RAW", raw), encoding="utf-8")
    assert message in error_of(["profile", path])


def test_a_file_that_is_not_utf8(tmp_path):
    path = tmp_path / "latin1.json"
    path.write_bytes('{"inputs": ["é"], "outputs": [0], "probabilities": [[1]]}'.encode("latin-1"))
    assert "is not UTF-8 text" in error_of(["profile", path])


def test_an_unwritable_output(tmp_path):
    target = tmp_path / "missing-folder" / "grr.json"
    assert "--output: cannot write" in error_of(["channel", "grr", "--epsilon", "1", "--d", "3", "--output", target])


def test_a_path_with_a_nul_byte():
    """Found by the fuzz suite: open() raises ValueError, not OSError, for a path with a NUL byte (exit 3)."""
    assert "--output: cannot write" in error_of(["channel", "rr", "--epsilon", "0", "--output", "a\x00b"])
    assert "cannot read channel file" in error_of(["profile", "a\x00b"])


@pytest.mark.parametrize("argv, message", [
    (["idue", "solve", "--budgets", "[1e-9, 2e-9]"], "budgets in [0.000001, 300]"),
    (["idue", "solve", "--budgets", "[800, 801]"], "budgets in [0.000001, 300]"),
    (["idue", "solve", "--budgets", "[1e300, 1e301]"], "got 1e300, 1e301"),
    (["idue", "solve", "--budgets", "[1, 2]", "--seed", "-1"], "--seed must be an integer >= 0"),
    (["idue", "solve", "--budgets", "[1, 2]", "--starts", "100000000"], "--starts must be an integer in [0, 100]"),
    (["channel", "oue-ps", "--epsilon", "1", "--m", "-1", "--padding", "2"], "--m must be an integer >= 1; got -1"),
    (["channel", "oue-ps", "--epsilon", "1", "--m", "0", "--padding", "2"], "--m must be an integer >= 1; got 0"),
    (["channel", "ue", "--p", "1.5", "--q", "0.25", "--d", "3"], "p must be a probability in [0, 1], got 1.5"),
    (["channel", "sue", "--epsilon", "log(3)", "--d", "3"], "3^(1/2) is not an exact number"),
])
def test_bad_parameters_get_a_message_in_the_users_terms(argv, message):
    err = error_of(argv)
    assert message in err and "not_p" not in err and "nan" not in err.lower()


def test_large_budgets_solve_and_verify():
    status, out, err = run(["idue", "solve", "--budgets", "[50, 60]"])
    assert status == 0, err
    solution = json.loads(out)
    assert solution["verified"] is True and "please report" not in err


# --- limits instead of hangs ----------------------------------------------------------------------------------

@pytest.mark.parametrize("argv, message", [
    (["channel", "grr", "--epsilon", "1", "--d", "5000"], "25,000,000 probabilities, more than the limit of 1,000,000"),
    (["channel", "oue", "--epsilon", "1", "--d", "10000000"], "more than the limit of 1,000,000"),
    (["channel", "oue", "--epsilon", "1", "--d", "20"], "20 inputs x 1,048,576 outputs"),
    (["channel", "oue-ps", "--epsilon", "1", "--m", "40", "--padding", "2"], "1,099,511,627,776 item sets"),
    (["channel", "idue-ps", "--levels", "[[1, 30], [2, 10]]", "--padding", "2"], "item sets"),
    (["channel", "suwheel", "--epsilon", "1", "--d", "5000", "--sensitive", "[0]", "--m", "3"], "sets of 3 items"),
    (["channel", "padded", "--inner", "sugrr", "--epsilon", "1", "--d", "5000", "--sensitive", "[0]", "--m", "2"],
     "the normalisation of"),
    (["idue", "solve", "--budgets", json.dumps(list(range(1, 101)))], "at most 16 privacy levels"),
    (["idue", "solve", "--levels", "[[1, 1000000000000], [2, 3]]"], "2 to 1,000,000 items in all"),
])
def test_limits_refuse_before_the_work(argv, message):
    """The message names the size of the work, which is computed before any of it is done (speed itself is the
    benchmark's business: no test here measures time)."""
    err = error_of(argv)
    assert message in err and "--max-entries" in err or "privacy levels" in err or "items in all" in err


def test_pairwise_checks_refuse_a_large_matrix_and_the_limit_can_be_raised(tmp_path):
    n = 200
    rows = [["1/200"] * n for _ in range(n)]
    path = channel_file(tmp_path, list(range(n)), list(range(n)), rows)
    budgets = json.dumps([1] * n)
    for argv in (["profile", path], ["check", path, "--notion", "minid-ldp", "--budgets", budgets]):
        err = error_of(argv)
        assert "200^2 x 200 = 8,000,000 steps, more than the limit of 4,000,000" in err and "--max-work" in err
    # the limit is a number of steps the user can raise: a 3 x 3 channel takes 3^2 x 3 = 27
    small = channel_file(tmp_path, [0, 1, 2], [0, 1, 2], [["1/3"] * 3] * 3)
    check = ["check", small, "--notion", "minid-ldp", "--budgets", "[1, 1, 1]"]
    assert "27 steps, more than the limit of 26" in error_of([*check, "--max-work", "26"])
    status, out, _ = run([*check, "--max-work", "27"])
    assert status == 0 and json.loads(out)["holds"] is True


def test_a_file_too_large_is_refused_before_its_numbers_are_read(tmp_path):
    n = 2000
    path = tmp_path / "huge.json"
    row = "[" + ", ".join(['"0.0005"'] * n) + "]"
    labels = list(range(n))
    path.write_text(f'{{"inputs": {labels}, "outputs": {labels}, "probabilities": [{", ".join([row] * n)}]}}',
                    encoding="utf-8")
    assert "4,000,000 probabilities, more than the limit of 1,000,000" in error_of(["profile", path])


# --- the tool reads its own output ----------------------------------------------------------------------------

@pytest.mark.parametrize("epsilon", ["1e19", "1e300", "0", "1e-30", "1/3", "log(4)"])
@pytest.mark.parametrize("mechanism, extra, notion", [
    ("rr", [], "ldp"), ("grr", ["--d", "3"], "ldp"), ("oue", ["--d", "3"], "ldp"), ("sue", ["--d", "3"], "ldp"),
    ("rappor-ps", ["--m", "2", "--padding", "2"], "ldp"),
])
def test_channel_then_check_round_trips(tmp_path, epsilon, mechanism, extra, notion):
    path = tmp_path / "channel.json"
    status, _, err = run(["channel", mechanism, "--epsilon", epsilon, *extra, "--output", path])
    assert status == 0, err
    status, out, err = run(["check", path, "--notion", notion])
    assert status == 0, err or out
    assert json.loads(out)["margin"] == "0" or epsilon == "0"  # each of them attains its budget: a tie


# --- exit statuses 3 and 4 ------------------------------------------------------------------------------------

def test_a_bug_exits_3_with_one_line_and_no_traceback(monkeypatch):
    def broken(arguments):
        raise KeyError("internal")

    monkeypatch.setattr(cli, "idue_solve", broken)
    status, out, err = run(["idue", "solve", "--budgets", "[1, 2]"])
    assert status == 3 and out == "" and err.count("\n") == 1
    assert "internal error (KeyError" in err and "please report it" in err and "Traceback" not in err


def test_an_undecided_comparison_exits_4(tmp_path, monkeypatch):
    from fractions import Fraction

    import mpmath

    from ldpspec.spec import exact

    monkeypatch.setattr(exact, "MAX_BITS", 512)
    with mpmath.workdps(400):
        near_e = str(Fraction(mpmath.nstr(mpmath.e, 300, strip_zeros=False)))
    keep, flip = f"({near_e})/(1 + {near_e})", f"1/(1 + {near_e})"
    path = channel_file(tmp_path, [0, 1], [0, 1], [[keep, flip], [flip, keep]])
    status, out, err = run(["check", path, "--notion", "ldp", "--epsilon", "1"])
    assert status == 4 and json.loads(out)["holds"] is None and "undecided" in json.loads(out)


# --- the Python API -------------------------------------------------------------------------------------------

def test_python_api_takes_numpy_numbers():
    channel = spec.Channel([0, 1], [0, 1], np.array([[0.75, 0.25], [0.25, 0.75]]))
    assert spec.ldp(channel, np.float64(np.log(3)) + 0.001).holds
    assert spec.ldp(channel, "log(3)").holds


@pytest.mark.parametrize("call, message", [
    (lambda: spec.Channel([0, 1], [0, 1], ["10", "01"]), "the row of input 0 must be a list, got str '10'"),
    (lambda: spec.Channel("ab", ["y"], [[1], [1]]), "inputs must be a list of labels, got str"),
    (lambda: spec.ldp(5, 1), "channel must be a spec.Channel"),
    (lambda: spec.ldp_epsilon([[1, 0], [0, 1]]), "channel must be a spec.Channel"),
    (lambda: spec.min_id_ldp(spec.Channel([0, 1], [0], [[1], [1]]), [1, 2]), "budgets must be a mapping"),
    (lambda: spec.graded_ldp(spec.Channel([0, 1], [0], [[1], [1]]), "01", [1], "max"), "boundaries must be a list"),
    (lambda: spec.uldp(spec.Channel([0, 1], [0], [[1], [1]]), 0, [0], 1), "sensitive_inputs must be a list"),
])
def test_python_api_refuses_wrong_containers_with_its_own_errors(call, message):
    with pytest.raises(spec.SpecError, match=message):
        call()


def test_every_registered_example_keeps_the_contract():
    from ldpspec.reference.registry import MECHANISMS

    for name, declaration in MECHANISMS.items():
        arguments = [f"--{key}={value}" for key, value in declaration.example().items()]
        assert assert_contract(["channel", name, *arguments]) == 0

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
    assert '--sensitive names items that occur in no input set: ["typo"]' in err  # the option as typed


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


@pytest.mark.parametrize("entry", ["(" * 400 + "1" + ")" * 400, "-" * 1000 + "1", "exp(" * 200 + "0" + ")" * 200])
def test_a_number_nested_too_deep(tmp_path, entry):
    """Each level of a number's parentheses, signs and exp( is a call of the reader: a few hundred ended in
    RecursionError (exit 3). A hundred levels are read; beyond, exit 2."""
    path = channel_file(tmp_path, [0, 1], [0, 1], [[entry, "0"], ["0", "1"]])
    assert "nested more than 100 deep" in error_of(["check", path, "--notion", "ldp", "--epsilon", "1"])
    shallow = channel_file(tmp_path, [0, 1], [0, 1], [["(" * 99 + "1" + ")" * 99, "0"], ["0", "1"]])
    status, _, err = run(["check", shallow, "--notion", "ldp", "--epsilon", "1"])
    assert status == 1, err  # read, and judged: the identity channel is not 1-LDP


@pytest.mark.parametrize("depth, refused", [(50, False), (51, True), (600, True)])
def test_a_label_nested_too_deep(tmp_path, depth, refused):
    """A label nested a few hundred lists deep (the JSON reader takes them) ended in RecursionError (exit 3)."""
    label = 1
    for _ in range(depth):
        label = [label]
    path = channel_file(tmp_path, [label, 0], [0, 1], [["1/2", "1/2"], ["1/2", "1/2"]])
    status, _, err = run(["check", path, "--notion", "ldp", "--epsilon", "1"])
    if refused:
        assert status == 2 and "nested at most 50 lists deep" in err, err
    else:
        assert status == 0, err


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
    (lambda: spec.Channel([0, 1], [0, 1], ["10", "01"]), 'the row of input 0 must be a list, got str "10"'),
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


# --- hostile inputs of issue 26: each class answered with a verdict or a clear exit 2 -------------------------

HUGE = "1e99999999999999999999"
"""A JSON number whose exponent is beyond what the decimal module reads at all (it raised InvalidOperation, exit 3)."""


def _raw_file(tmp_path, text: str, name: str = "raw.json"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize("make_argv, where", [
    (lambda p: ["profile", _raw_file(p, '{"inputs": ["a", "b"], "outputs": ["a", "b"], '
                                        f'"probabilities": [[{HUGE}, 0], [0, 1]]}}')],
     "channel file: probabilities[0][0] must have"),
    (lambda p: ["check", _raw_file(p, '{"inputs": ["a"], "outputs": ["a"], "probabilities": [["1"]], '
                                      f'"privacy": {{"epsilon": {HUGE}}}}}'), "--notion", "ldp"],
     "channel file: privacy.epsilon must have"),
    (lambda p: ["estimate", "--counts", f"[{HUGE}, 1]", "grr", "--epsilon", "1", "--d", "2"], "--counts[0] must have"),
    (lambda p: ["check", channel_file(p, ["a", "b"], ["a", "b"], [["1", "0"], ["0", "1"]]), "--notion", "minid-ldp",
                "--budgets", f"[1, {HUGE}]"], "--budgets[1] must have"),
    (lambda p: ["channel", "iprr", "--budgets", f"[1, -{HUGE}]"], "--budgets[1] must have"),
    (lambda p: ["check", channel_file(p, ["a", "b"], ["a", "b"], [["1", "0"], ["0", "1"]]), "--notion", "ldp",
                "--epsilon", "1", "--rows", "remainder", "--remainder-to", HUGE], "--remainder-to must have"),
])
def test_json_numbers_beyond_the_decimal_range_are_refused_where_they_are(tmp_path, make_argv, where):
    err = error_of(make_argv(tmp_path))
    assert where in err and "a decimal exponent within ±2,000" in err and HUGE in err


def test_a_number_of_a_billion_digits_in_an_answers_file_is_refused_before_it_is_read(tmp_path):
    """``"1e999999999"`` as a decimal string made conform build an integer of a billion digits (a hang)."""
    answer = {"mechanism": "grr", "id": "example", "result": "valid",
              "probabilities": [["1e999999999", "0.2", "0.2"], ["0.2", "0.6", "0.2"], ["0.2", "0.2", "0.6"]]}
    path = _raw_file(tmp_path, json.dumps({"format": "ldpspec-answers/2", "answers": ["parameters"],
                                           "parameters": [answer]}))
    err = error_of(["conform", path])
    assert "probabilities[0][0] must have at most 2000 digits and a decimal exponent within ±2000" in err


@pytest.mark.parametrize("mechanism", [[], {}, 3, None])
def test_a_sample_set_naming_its_mechanism_by_something_else_than_text(tmp_path, mechanism):
    """Found by a long fuzz run: a sample set whose mechanism was a list reached a lookup by hash (exit 3)."""
    sample = {"mechanism": mechanism, "options": {"epsilon": "1", "d": "3"}, "input": 0, "releases": [0, 1]}
    path = _raw_file(tmp_path, json.dumps({"format": "ldpspec-answers/2", "answers": ["samples"],
                                           "samples": [sample]}))
    assert "samples[0].mechanism must be a registered mechanism" in error_of(["conform", path])


def _format2(inputs, densities) -> dict:
    return {"format": "ldpspec-channel/2", "inputs": inputs, "densities": [
        {"input": x, "label": None, "kind": "constant", "breakpoints": points, "values": values}
        for x, (points, values) in zip(inputs, densities)]}


@pytest.mark.parametrize("value", ['"1e400"', "1e400", '"exp(1000)"'])
def test_a_density_beyond_the_doubles_is_refused_with_its_mass(tmp_path, value):
    """A density of 1e400 on [0, 1): its mass was shown through a float division (OverflowError, exit 3)."""
    path = _raw_file(tmp_path, '{"format": "ldpspec-channel/2", "inputs": ["a"], "densities": [{"input": "a", '
                               '"label": null, "kind": "constant", "breakpoints": ["0", "1"], "values": [VALUE]}]}'
                     .replace("VALUE", value))
    err = error_of(["profile", path])
    assert 'input "a" must have total mass exactly 1 (its densities), got ' in err
    assert err.rstrip().endswith("got 1e400" if "e400" in value else "got exp(1000)")


def test_losses_beyond_the_doubles_are_ordered_and_binned(tmp_path):
    """A density of exp(1e400) against ordinary ones: pair losses of about 1e400 nats, beyond a double. The profile's
    histogram binned them in floats (inf / inf is NaN: exit 3); a loss below 10^-(10^399) is shown as exp(x)."""
    big = "exp(1e400)"
    densities = [(["0", f"1/({big})", "1"], [big, "0"])]
    for k in range(1, 6):
        densities.append((["0", f"1/({big})", "1"], [f"{k}/(1+{k})", f"(1 - {k}/((1+{k})*({big})))/(1-1/({big}))"]))
    path = _raw_file(tmp_path, json.dumps(_format2(list("abcdef"), densities)))
    status, out, err = run(["profile", path])
    assert status == 0, err
    summary = json.loads(out)["pairwise_loss"]
    assert sum(bin_["pairs"] for bin_ in summary["histogram"]["bins"]) + summary["histogram"]["infinite"] == 30
    assert summary["histogram"]["bins"][-1]["to"] == "1.00000e+400"
    assert summary["largest"][5]["loss"] == "1.0000000000000000000000000000000000000000000000000e+400"
    status, out, _ = run(["profile", path, "--full"])
    losses = [entry["loss"] for entry in json.loads(out)["pairwise_loss"]]
    assert any(loss.startswith("exp(-1.0000000000") for loss in losses)  # about e^(-1e400) nats
    assert max(map(len, out.splitlines())) < 200


@pytest.mark.parametrize("notion, options", [
    ("uldp", ["--sensitive", "[1.5, 2.5]", "--protected", "[1.5, 2.5]"]),
    ("suldp-joint", ["--sensitive", "[1.5]", "--non-sensitive", "[2.5]", "--protected", "[1.5]"]),
    ("suldp-marginal", ["--sensitive", "[1.5]", "--non-sensitive", "[2.5]", "--protected", "[1.5]"]),
    ("suldp-joint-unrevealed", ["--sensitive", "[1.5]", "--non-sensitive", "[2.5]", "--protected", "[1.5]"]),
    ("id-ldp", ["--budgets", "[1, 2, 3]", "--pair-function", "min", "--policy", "[[1.5, 2.5]]"]),
])
def test_numerical_labels_are_written_back_as_json_numbers(tmp_path, notion, options):
    """Labels read from JSON numbers are Decimals; a verdict's parameters held them as they were and the printer
    stopped at the first (``Decimal is not JSON serializable``, exit 3, half a document on standard output)."""
    if notion.startswith("suldp"):
        path = channel_file(tmp_path, [[1.5], [2.5]], [[1.5, []], [1.5, [2.5]]], [["1", "0"], ["0.5", "0.5"]])
    else:
        path = channel_file(tmp_path, [1.5, 2.5, 3.5], [1.5, 2.5, 3.5], URR_ROWS)
    for full in ([], ["--full"]):
        status, out, err = run(["check", path, "--notion", notion, "--epsilon", "1", *options, *full])
        assert status in (0, 1) and err == "", err
        parameters = json.dumps(json.loads(out)["parameters"])
        assert "1.5" in parameters and '"1.5"' not in parameters  # the number, as the file wrote it


def test_a_result_that_cannot_be_written_prints_nothing(monkeypatch):
    """The output is built whole before any of it is printed: a bug exits 3 with nothing on standard output."""
    monkeypatch.setattr(cli, "idue_solve", lambda arguments: {"solution": [1, 2, object()]})
    status, out, err = run(["idue", "solve", "--budgets", "[1, 2]"])
    assert status == 3 and out == "" and "please report it" in err


def test_a_channel_too_large_is_refused_before_its_sets_are_listed(monkeypatch):
    """RAPPOR-Sample at d = 100,000 listed every set of m items (and wrote 2^100000 in full) before its size limit."""
    from ldpspec.reference.cao2022 import surap

    def listed(*arguments):
        raise AssertionError("the sets were listed before the size limit")

    monkeypatch.setattr(surap, "all_sets", listed)
    err = error_of(["channel", "rappor-sample", "--epsilon", "1", "--d", "100000", "--m", "3"])
    assert "166,661,666,700,000 sets and 2^100,000 vectors" in err and "--max-entries" in err and len(err) < 400


def test_a_budget_of_1e1999_is_decided_at_the_first_precision(tmp_path, monkeypatch):
    """e^(1e1999) was enclosed as a power of e at the precision that holds 1e1999 exactly (8192 bits; 1e600 took 6 s,
    1e1000 32 s); reduced by ln 2, it is tight at the first precision. With no precision beyond the first, the channel
    is still decided, not undecided (exit 4)."""
    from ldpspec.spec import exact

    monkeypatch.setattr(exact, "MAX_BITS", exact.START_BITS)
    path = tmp_path / "grr.json"
    assert run(["channel", "grr", "--epsilon", "1e1999", "--d", "3", "--output", path])[0] == 0
    for argv in (["check", path, "--notion", "ldp"], ["check", path, "--notion", "ldp", "--epsilon", "1e1998"],
                 ["profile", path]):
        status, out, err = run(argv)
        assert status in (0, 1) and err == "", err
        assert max(map(len, out.splitlines())) < 200  # exp(-1e1999) is shown as exp(x), not 2000 digits of exponent


@pytest.mark.parametrize("argv", [
    ["check", "GRR3", "--notion", "ldp", "--epsilon", "log(2)/12345678901234567890"],
    ["channel", "grr", "--epsilon", "log(2)/12345678901234567890", "--d", "3"],
    ["check", "GRR3", "--notion", "minid-ldp", "--budgets", '["20000*log(2)", 1, 1]'],
    ["check", "GRR3", "--notion", "ldp", "--epsilon", "10000*log(1e200)"],
])
def test_budgets_beyond_exact_powers_are_refused_naming_the_option(tmp_path, argv):
    """``log(x)/r`` is compared through ``x^r``: an r of 20 digits was an exact power refused deep inside with
    "exponent 12,345,678,901,234,567,890" and no option named."""
    path = channel_file(tmp_path, ["a", "b", "c"], ["a", "b", "c"], URR_ROWS)
    err = error_of([path if part == "GRR3" else part for part in argv])
    option = "--epsilon" if "--epsilon" in argv else "--budgets[0]"
    assert f"ldpspec: error: {option}: a budget written p*log(x)/r takes whole numbers p and r of at most 10,000" in err


def test_budgets_in_logs_are_compared_without_exact_powers_when_their_enclosures_decide(monkeypatch):
    """log(2)/9973 against log(3)/9967 and against a rational: decided by intervals (the exact powers x^r, here 2^9967
    and 3^9973, are for near-ties), and log(2)/9973 against itself by its form."""
    def refused(self, exponent):
        raise AssertionError("an exact power was taken")

    from ldpspec.spec.numbers import budget

    monkeypatch.setattr(spec.Exact, "__pow__", refused)
    a, b = budget("log(2)/9973"), budget("log(3)/9967")
    assert a.compare(b) == -1 and b.compare(a) == 1 and a.compare(budget("1/10000")) == -1
    assert a.compare(budget("2*log(2)/19946")) == 0


def test_an_exact_power_too_large_says_what_to_change():
    with pytest.raises(spec.SpecError, match=r"exponent 1,000,000, more than the limit of 10,000 "
                                             r"\(spec.exact.MAX_POWER\)\. Budgets written p\*log\(x\)/r"):
        spec.Exact.of(2) ** 1_000_000


def test_iprr_over_many_budgets_keeps_one_denominator():
    """Definition 5 as written gives each budget its own denominator (E_y - 1) M, and a row's exact sum multiplied
    them all: 6 distinct budgets took 26 s, 7 took 129 s. Written over the one denominator M, every entry of a row
    has the same denominator up to a constant factor, and its sum adds numerators."""
    from ldpspec.reference.ipldp2023.iprr import IPRR, iprr_rows

    budgets = ["0.11", "0.23", "0.37", "0.41", "0.53", "0.67", "0.71"]
    mechanism = IPRR(budgets)
    channel = mechanism.channel()
    for row in channel.rows:
        assert len({tuple(q for q, _ in p.den) for p in row if p}) == 1
    small = IPRR(budgets[:3])
    assert [list(row) for row in small.channel().rows] == iprr_rows(small.E)  # Definition 5, exactly


def test_iprr_over_six_budgets_round_trips(tmp_path):
    path = tmp_path / "iprr.json"
    assert run(["channel", "iprr", "--budgets", "[0.11, 0.23, 0.37, 0.41, 0.53, 0.67]", "--output", path])[0] == 0
    status, out, err = run(["check", path, "--notion", "ipldp"])
    assert status == 0 and json.loads(out)["holds"] is True, err


def test_a_channel_file_whose_numbers_are_too_long_to_read_back_is_not_written():
    """The writer refuses what its reader would: a number of more than spec.exact.MAX_TEXT characters."""
    err = error_of(["channel", "iprr", "--budgets", "[1, 1.5, 2.25, 3.125, 4.0625, 5.03125, 6.015625]"])
    assert "whose exact text takes 3,073 characters, more than the 2,000 a number in a channel file may have" in err
    assert "use fewer distinct budgets" in err


def test_the_cells_of_a_density_file_are_computed_once(tmp_path, monkeypatch):
    """A file of 100,000 pieces took 50 s: among the causes, the reader computed every cell's mass, and the check
    computed them again. Now once per input."""
    from ldpspec.spec.continuous import PiecewiseChannel

    calls = []
    original = PiecewiseChannel._row
    monkeypatch.setattr(PiecewiseChannel, "_row", lambda self, x: calls.append(x) or original(self, x))
    points = [f"{k}/8" for k in range(9)]
    path = _raw_file(tmp_path, json.dumps(_format2(["a", "b"], [(points, ["1"] * 8), (points, ["1"] * 8)])))
    status, _, err = run(["check", path, "--notion", "ldp", "--epsilon", "1"])
    assert status == 0, err
    assert sorted(calls) == ["a", "b"]


@pytest.mark.parametrize("mechanism, options, entries, most", [
    ("rappor-sample", ["--epsilon", "1", "--d", "8", "--m", "2"], 28 * 256, 2500),
    ("rappor-ps", ["--epsilon", "1", "--m", "2", "--padding", "8"], 4 * 1024, 2500),
    ("oue", ["--epsilon", "1", "--d", "10"], 10 * 1024, 2500),
    ("rappor-set", ["--epsilon", "1", "--d", "8", "--m", "2"], 28 * 256, 2500),
])
def test_explicit_channels_multiply_each_distinct_number_once(monkeypatch, mechanism, options, entries, most):
    """A unary encoding's entry is a product of d bit probabilities that takes few distinct values: products (and
    sums) are keyed by the factors they take, so the work grows with the distinct values, not with d 2^d. RAPPOR-Sample
    at d = 10 took 42 s, RAPPOR-PS at padding 10 37 s, OUE at d = 15 two minutes: each multiplied every entry out."""
    products = []
    original = spec.Exact.__mul__
    monkeypatch.setattr(spec.Exact, "__mul__", lambda self, other: products.append(1) or original(self, other))
    status, _, err = run(["channel", mechanism, *options])
    assert status == 0, err
    assert len(products) < most < entries


@pytest.mark.parametrize("alpha", ["1e-400", "nan", "1", "abc"])
def test_conform_options_outside_the_doubles_are_refused_by_name(tmp_path, alpha):
    path = _raw_file(tmp_path, "{}")
    err = error_of(["conform", path, "--alpha", alpha])
    assert f"--alpha must be a number in (0, 1) that a double holds (from about 5e-324); got {json.dumps(alpha)}" in err


def test_numbers_json_cannot_hold_are_written_as_strings():
    text = cli.json_text({"threshold": float("inf"), "low": float("-inf"), "none": float("nan"), "items": (1, 2)})
    assert json.loads(text) == {"threshold": "inf", "low": "-inf", "none": "nan", "items": [1, 2]}


def test_a_constant_column_is_named(tmp_path):
    assert ("its column of output 0 is constant (P[0|x] = 0.5 for every input x)"
            in error_of(["estimate", "--counts", "[1, 1]", "grr", "--epsilon", "0", "--d", "2"]))
    path = channel_file(tmp_path, [0, 1, 2], [0, 1, 2], [["1/2", "1/4", "1/4"], ["1/4", "1/2", "1/4"],
                                                            ["1/2", "1/4", "1/4"]])
    for exact in ([], ["--exact"]):
        assert ("its column of output 2 is constant: P[2|x] = 0.25 for every x"
                in error_of(["estimate", "--counts", "[1, 1, 1]", "--channel", path, *exact]))


@pytest.mark.parametrize("document, message", [
    ({"structure": "column-classes", "classes": [{"base": "1/4", "extra": "1/2"}, {"base": "1/8", "extra": "1/2"}],
      "class_sizes": [1, 3]},
     "every row must sum to 1 (sum_y base_y + extra_x = 1 for every item x): the row of item 0 (class 0, "
     "extra[0] = 0.5) sums to 1.125"),
    ({"structure": "column-classes", "classes": [{"base": "1/4", "extra": "1/2"}], "class_sizes": [1]},
     "channel file: 'class_sizes' must give at least 2 items in all (a direct encoding needs at least 2); got 1"),
    ({"structure": "unary-classes", "classes": [{"hot": ["1/2", "1/2"], "cold": ["3/4", "1/4"]}], "item_classes": [0]},
     "channel file: 'item_classes' must give at least 2 items in all (a unary encoding needs at least 2); got 1"),
])
def test_a_file_of_classes_names_the_item_and_the_key(tmp_path, document, message):
    path = _raw_file(tmp_path, json.dumps({"format": "ldpspec-channel/3", **document}))
    assert message in error_of(["profile", path])


@pytest.mark.parametrize("last, shown", [
    ("1/3 - 1e-60", "sums to 1 - 1e-60;"),
    ("1/3 + 1e-61", "sums to 1 + 1e-61;"),
    ("1/3 - 1/3000000000000000000000000000000000000000000000000000000000000001", "sums to 1 - 3.33333e-64 "
                                                                               "(approximately);"),
])
def test_a_row_off_by_a_little_shows_by_how_much(tmp_path, last, shown):
    """It was "sums to 1 (approximately)": a float cannot tell 1 - 1e-60 from 1."""
    path = channel_file(tmp_path, [0, 1], [0, 1, 2], [["1/3", "1/3", last], ["1/3", "1/3", "1/3"]])
    assert shown in error_of(["profile", path])


@pytest.mark.parametrize("argv", [
    ["channel", "rappor-sample", "--epsilon", "1", "--d", "5000", "--m", "1"],  # 2^5000 was written out
    ["channel", "sugrr", "--epsilon", "1", "--d", "5000", "--sensitive", "[0]", "--m", "600"],
    ["channel", "oue-ps", "--epsilon", "1", "--m", "5000", "--padding", "2"],
    ["check", "FILE", "--notion", "ldp", "--epsilon", "1", "--rows", "remainder", "--remainder-to", "1" * 5000],
    ["check", "FILE", "--notion", "ldp", "--epsilon", "1", "--rows", "remainder", "--remainder-to", "a" * 5000],
    ["check", "FILE", "--notion", "ldp" * 2000],
    ["check", "FILE", "--notion", "ldp", "--max-work", "x" * 5000],
])
def test_every_message_is_one_readable_line(tmp_path, argv):
    path = channel_file(tmp_path, ["a", "b"], ["a", "b"], [["1", "0"], ["0", "1"]])
    status, out, err = run([path if part == "FILE" else part for part in argv])
    assert status == 2 and out == ""
    assert all(len(line) <= 1000 for line in err.splitlines()), max(map(len, err.splitlines()))
    assert err.splitlines()[-1].startswith(("ldpspec: error: ", "ldpspec check: error: "))

"""Channel files and the ``ldpspec`` command line, on hand-written files and corrupted copies."""

from __future__ import annotations

import json
import subprocess
import sys
from fractions import Fraction

import pytest

from ldpspec import spec
from ldpspec.reference import channelfile
from ldpspec.reference.shared.grr import Grr
from ldpspec.reference.shared.unary import oue
from ldpspec.reference.tools.cli import main
from tests.support import EXAMPLES


def run(capsys, *argv):
    status = main([str(a) for a in argv])
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def test_round_trip_keeps_every_digit(tmp_path):
    channel = oue("1.25", 3).channel().explicit()
    path = tmp_path / "oue.json"
    channelfile.write_channel_file(path, channel, privacy={"epsilon": "1.25", "budgets": {0: 1, 2: "0.5"},
                                                    "sensitive_inputs": [0], "protected_outputs": [(0, 0, 0)]})
    stored = channelfile.read_channel_file(path)
    assert stored.channel.inputs == channel.inputs and stored.channel.outputs == channel.outputs
    assert stored.channel.rows == channel.rows  # every entry exactly: the file holds exp() expressions, not digits
    assert stored.privacy["epsilon"] == Fraction(5, 4)
    assert stored.privacy["budgets"] == {0: 1, 2: Fraction(1, 2)}
    assert stored.privacy["protected_outputs"] == ((0, 0, 0),)
    # The file decides the tie at its budget exactly as the channel it was written from.
    verdict = spec.ldp(stored.channel, "1.25")
    assert verdict.holds and verdict.margin == 0
    assert not spec.ldp(stored.channel, "1.2499999999999999999999999999999999999999999999999999999999999")


def test_json_numbers_are_read_exactly_from_their_text():
    text = '{"inputs": [0, 1], "outputs": ["a", "b"], "probabilities": [[0.1, 0.9], [0.3, 0.7]]}'
    channel = channelfile.parse_channel_file(text).channel
    assert channel.probability(0, "a") == Fraction(1, 10)  # not the float 0.1


def test_profile_of_hand_written_grr(capsys):
    status, out, _ = run(capsys, "profile", EXAMPLES / "grr3.json")
    profile = json.loads(out)
    assert status == 0
    assert profile["ldp_epsilon"].startswith("0.69314718055994530941723212145817656807")
    assert profile["inputs"] == 3 and len(profile["pairwise_loss"]) == 6
    assert profile["invertible_outputs"] == []


def test_profile_reports_infinite_loss_and_invertible_outputs(capsys):
    status, out, _ = run(capsys, "profile", EXAMPLES / "urr.json")
    profile = json.loads(out)
    assert status == 0 and profile["ldp_epsilon"] == "inf"
    assert profile["invertible_outputs"] == [{"output": "flu", "input": "flu"}]


@pytest.mark.parametrize("file, arguments, status", [
    ("grr3.json", ["--notion", "ldp"], 0),
    ("grr3.json", ["--notion", "ldp", "--epsilon", "0.69"], 1),
    ("urr.json", ["--notion", "uldp"], 0),
    ("urr.json", ["--notion", "uldp", "--epsilon", "1.0986"], 1),
    ("urr.json", ["--notion", "ldp"], 1),
    ("urr.json", ["--notion", "ipldp", "--budgets", '["1.1", "1.1", null]'], 0),
    ("minid3.json", ["--notion", "minid-ldp"], 0),
    ("minid3.json", ["--notion", "ldp"], 1),
    ("minid3.json", ["--notion", "avgid-ldp", "--budgets", "[1, 1, 1]"], 1),
    ("minid3.json", ["--notion", "id-ldp", "--pair-function", "max"], 0),
])
def test_check_exit_status(capsys, file, arguments, status):
    code, out, err = run(capsys, "check", EXAMPLES / file, *arguments)
    assert code == status, err
    verdict = json.loads(out)
    assert verdict["holds"] == (status == 0)
    if status == 1:
        assert verdict["witness"] is not None and verdict["margin"].startswith("-")


def test_check_suldp_and_graded_from_the_command_line(tmp_path, capsys):
    inputs = [["a", "u"], ["b", "u"], ["a", "b"]]
    outputs = [["s", []], ["s", ["u"]]]
    path = tmp_path / "sets.json"
    path.write_text(json.dumps({"inputs": inputs, "outputs": outputs,
                                "probabilities": [["0.6", "0.4"], ["0.9", "0.1"], ["1", "0"]]}))
    common = ["--sensitive", '["a", "b"]', "--protected", '["s"]', "--epsilon", "1"]
    assert run(capsys, "check", path, "--notion", "suldp-marginal", *common)[0] == 0
    assert run(capsys, "check", path, "--notion", "suldp-joint", *common)[0] == 1
    graded = tmp_path / "graded.json"
    graded.write_text(json.dumps({"inputs": [-1, 0, 1], "outputs": ["lo", "hi"],
                                  "probabilities": [["0.6", "0.4"], ["0.5", "0.5"], ["0.4", "0.6"]]}))
    assert run(capsys, "check", graded, "--notion", "graded-ldp", "--boundaries", "[-1, 0, 1]",
               "--budgets", "[0.1, 1]", "--pair-function", "max")[0] == 0
    assert run(capsys, "check", graded, "--notion", "graded-ldp", "--boundaries", "[-1, 0, 1]",
               "--budgets", "[0.1, 1]", "--pair-function", "min")[0] == 1


@pytest.mark.parametrize("corrupt, message", [
    (lambda t: t.replace('"0.25", "0.5", "0.25"', '"0.25", "0.5", "0.26"'),
     'row of input "b" must sum to exactly 1, sums to 1.01'),
    (lambda t: t.replace('"0.25", "0.5", "0.25"', '"-0.25", "1.0", "0.25"'), r"must be a probability in \[0, 1\]"),
    (lambda t: t.replace('"0.25", "0.5", "0.25"', '"0.25", "NaN", "0.25"'), "NaN"),
    (lambda t: t.replace('"0.25", "0.5", "0.25"', '"0.25", "x", "0.25"'), "must be a decimal number"),
    (lambda t: t.replace('["0.25", "0.5", "0.25"],', ''), "one row per input"),
    (lambda t: t.replace('"inputs": ["a", "b", "c"]', '"inputs": ["a", "a", "c"]'), "must be unique"),
    (lambda t: t.replace('"format"', '"fromat"'), "unknown keys"),
    (lambda t: t[:-5], "not valid JSON"),
    (lambda t: t.replace('"epsilon": "log(2)"', '"epsilon": "-0.69"'),
     "privacy.epsilon must be a finite real number >= 0"),
    (lambda t: t.replace('"epsilon": "log(2)"', '"epsilon": "log(0.5)"'), "log"),
])
def test_corrupted_files_exit_2_with_a_clear_message(tmp_path, capsys, corrupt, message):
    text = (EXAMPLES / "grr3.json").read_text()
    corrupted = corrupt(text)
    assert corrupted != text
    path = tmp_path / "corrupted.json"
    path.write_text(corrupted)
    for argv in (["profile", path], ["check", path, "--notion", "ldp", "--epsilon", "1"]):
        status, out, err = run(capsys, *argv)
        assert status == 2 and out == ""
        assert err.startswith("ldpspec: error: ")
        assert __import__("re").search(message, err), err


@pytest.mark.parametrize("arguments, message", [
    (["--notion", "minid-ldp", "--budgets", "[1, 2]"], "one budget per input"),
    (["--notion", "minid-ldp", "--budgets", "[1, 2, -3]"], "must be a finite real number >= 0"),
    (["--notion", "uldp"], "needs --sensitive"),
    (["--notion", "graded-ldp", "--boundaries", "[0, 1]", "--budgets", "[1]", "--pair-function", "max"],
     "must be a decimal number"),
    (["--notion", "ipldp", "--budgets", "[1, nope]"], "must be a JSON list"),
    (["--notion", "ldp", "--epsilon", "nan"], "NaN"),
])
def test_bad_parameters_exit_2(capsys, arguments, message):
    status, out, err = run(capsys, "check", EXAMPLES / "grr3.json", *arguments)
    assert status == 2 and message in err, err


def test_missing_file_exits_2(capsys, tmp_path):
    status, _, err = run(capsys, "profile", tmp_path / "absent.json")
    assert status == 2 and "cannot read channel file" in err


def test_the_installed_entry_point_runs(tmp_path):
    path = tmp_path / "grr.json"
    channelfile.write_channel_file(path, Grr(1, 3).channel(), privacy={"epsilon": 1})
    result = subprocess.run([sys.executable, "-m", "ldpspec.reference.tools.cli", "check", str(path),
                             "--notion", "ldp"],
                            capture_output=True, text=True)
    assert result.returncode == 0 and json.loads(result.stdout)["holds"] is True


def test_idue_solve_prints_verified_parameters(capsys):
    status, out, err = run(capsys, "idue", "solve", "--levels", '[["1.3862943611198906", 1], ["1.791759469228055", 4]]')
    assert status == 0, err
    solution = json.loads(out)
    assert solution["verified"] is True and solution["model"] == "opt0"
    assert len(solution["items"]) == 5 and len(solution["levels"]) == 2
    assert float(solution["verified_margin"]) >= 0
    # The decimal strings are deployable: the kernel accepts them as they are printed.
    from ldpspec.reference.gu2020.levels import PrivacyLevels, verify_idue
    levels = PrivacyLevels.from_sizes(["1.3862943611198906", "1.791759469228055"], [1, 4])
    assert verify_idue(levels, [lv["a"] for lv in solution["levels"]], [lv["b"] for lv in solution["levels"]]).holds


@pytest.mark.parametrize("model", ["opt0", "opt1", "opt2"])
@pytest.mark.parametrize("notion", ["min", "avg"])
def test_idue_solve_models_and_notions(capsys, model, notion):
    status, out, err = run(capsys, "idue", "solve", "--budgets", "[1, 1, 2, 2, 2, 4]", "--model", model,
                           "--notion", notion)
    assert status == 0, err
    assert json.loads(out)["notion"] == {"min": "MinID-LDP", "avg": "AvgID-LDP"}[notion]


@pytest.mark.parametrize("arguments, message", [
    (["idue", "solve"], "give exactly one of --budgets"),
    (["idue", "solve", "--budgets", "[1]"], "for 2 to 1,000,000 items, got 1"),
    (["idue", "solve", "--levels", "[[1, 0]]"], "must be an integer >= 1"),
    (["idue", "solve", "--budgets", "[0, 1]"], "must be > 0 for IDUE"),
    (["channel", "grr", "--d", "3"], "required: --epsilon"),
    (["channel", "idue-ps", "--levels", "[[1, 2]]", "--padding", "1", "--dummy-level", "3"], "--dummy-level must be"),
    (["channel", "sue", "--epsilon", "1", "--d", "20"], "20 inputs x 1,048,576 outputs"),
    (["channel", "oue-ps", "--epsilon", "1", "--m", "3"], "required: --padding"),
])
def test_solver_and_channel_errors_exit_2(capsys, arguments, message):
    status, out, err = run(capsys, *arguments)
    assert status == 2 and message in err, err


@pytest.mark.parametrize("arguments, notion, holds", [
    (["rr", "--epsilon", "0.5"], "ldp", True),
    (["grr", "--epsilon", "1", "--d", "4"], "ldp", True),
    (["sue", "--epsilon", "1", "--d", "3"], "ldp", True),
    (["oue", "--epsilon", "1", "--d", "3"], "ldp", True),
    (["ue", "--p", "0.75", "--q", "0.25", "--d", "3"], None, None),
    (["idue", "--budgets", "[1, 2, 2]"], "minid-ldp", True),
    (["idue", "--budgets", "[1, 2, 2]", "--notion", "avg"], "avgid-ldp", True),
    (["oue-ps", "--epsilon", "1", "--m", "3", "--padding", "2"], "ldp", True),
    (["rappor-ps", "--epsilon", "1", "--m", "2", "--padding", "1", "--release", "real"], "ldp", True),
    (["idue-ps", "--levels", "[[1, 1], [2, 2]]", "--padding", "2"], "minid-ldp", True),
    (["idue-ps", "--levels", "[[1, 1], [2, 2]]", "--padding", "2", "--release", "real"], "minid-ldp", True),
])
def test_channel_files_of_every_mechanism_check_out(tmp_path, capsys, arguments, notion, holds):
    path = tmp_path / "mechanism.json"
    assert run(capsys, "channel", *arguments, "--output", path)[0] == 0
    stored = channelfile.read_channel_file(path)
    assert stored.channel.inputs
    if notion is not None:
        status, out, err = run(capsys, "check", path, "--notion", notion)
        assert status == (0 if holds else 1), err
    else:  # UE with p = 3/4, q = 1/4 is ln 9-LDP, exactly
        profile = json.loads(run(capsys, "profile", path)[1])
        assert profile["ldp_epsilon"].startswith("2.1972245773362193827904904738450514092949811")

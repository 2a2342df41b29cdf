"""``ldpspec refute`` on the command line: exit statuses, the answer as JSON and as text, the guarantee taken from the
reference's claim, the checkpoint, a cluster, and one line naming what is wrong for each kind of bad input."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from ldpspec.reference.tools.cli import EXIT, main
from tests.support import ROOT

GRR = ["--callable", "tests.refute.clients:grr_3", "--inputs", "[0, 1, 2]", "--samples", "20000"]


@pytest.fixture(autouse=True)
def in_a_folder_of_its_own(tmp_path, monkeypatch):
    """Each test runs in an empty folder: a run's default checkpoint goes there."""
    monkeypatch.chdir(tmp_path)


def refute(capsys, *arguments) -> tuple[int, dict, str]:
    status = main(["refute", *arguments])
    out, err = capsys.readouterr()
    return status, (json.loads(out) if out.startswith("{") else out), err


def test_a_correct_client_is_not_refuted_and_a_leaky_one_is(capsys):
    status, answer, _ = refute(capsys, *GRR, "--notion", "ldp", "--epsilon", "1")
    assert status == EXIT["holds"] and answer["verdict"] == "not refuted"
    assert answer["pairs_examined"] == 6 and answer["samples"] == {"selection": 4000, "certification": 16000}
    assert all(pair["verdict"] == "not refuted" and "excess" in pair["power"] for pair in answer["pairs"])
    status, answer, _ = refute(capsys, *GRR, "--notion", "ldp", "--epsilon", "0.5")
    assert status == EXIT["does not hold"] and answer["verdict"] == "violated"
    assert answer["violated_pairs"] == 6
    pair = answer["pairs"][0]
    assert set(pair) == {"inputs", "why", "event", "counts", "bound", "budget", "verdict", "power"}
    assert float(pair["bound"]) > 0.5 and pair["budget"] == "0.500000"


def test_the_summary_is_sized_for_a_person_and_full_lists_every_pair(capsys, tmp_path):
    arguments = ["--callable", "tests.refute.clients:grr_3", "--notion", "id-ldp", "--pair-function", "min",
                 "--budgets", json.dumps([1] * 6), "--inputs", "[0, 1, 2, 3, 4, 5]", "--samples", "3000",
                 "--outputs", "[0, 1, 2]"]
    # inputs 3, 4, 5 are out of GRR's range: the client releases them as themselves, outside the declared outputs
    status, _, err = refute(capsys, *arguments)
    assert status == EXIT["bad input"] and "which is not one of the declared outputs" in err
    arguments = ["--twin", "grr", "--twin-options", '{"epsilon": "1", "d": "8"}', "--notion", "ldp",
                 "--samples", "3000", "--output", str(tmp_path / "all.json")]
    status, answer, _ = refute(capsys, *arguments)
    assert answer["pairs_examined"] == 56 and len(answer["pairs"]) == 20 and "--full" in answer["pairs_shown"]
    assert len(json.loads((tmp_path / "all.json").read_text())["pairs"]) == 56
    status, answer, _ = refute(capsys, *arguments, "--full")
    assert len(answer["pairs"]) == 56 and "exact" in answer["pairs"][0]


def test_text_on_a_terminal(capsys, monkeypatch):
    monkeypatch.setattr(sys.stdout, "isatty", lambda: True)
    status = main(["refute", *GRR, "--notion", "ldp", "--epsilon", "0.5"])
    out = capsys.readouterr().out
    assert status == EXIT["does not hold"]
    assert out.startswith("ldpspec refute: the Python callable tests.refute.clients:grr_3")
    assert "VIOLATED: 6 pair(s)" in out and "no proof of privacy" in out and len(out) < 3000


def test_the_guarantee_and_inputs_come_from_the_reference_when_not_given(capsys):
    status, answer, _ = refute(capsys, "--twin", "grr", "--twin-options", '{"epsilon": "2", "d": "3"}',
                               "--notion", "ldp", "--reference-mechanism", "grr", "--reference-options",
                               '{"epsilon": "1", "d": "3"}', "--samples", "20000")
    assert status == EXIT["does not hold"]
    assert answer["declared"]["parameters"] == {"epsilon": "1"} and answer["declared"]["inputs"] == [0, 1, 2]
    assert answer["events"] == "the reference channel of grr (epsilon 1, d 3)"
    assert all(pair["event"] == {"event": "release in", "labels": [pair["inputs"][0]]} for pair in answer["pairs"])


def test_a_reference_channel_file(capsys, tmp_path):
    channel = tmp_path / "grr.json"
    assert main(["channel", "grr", "--epsilon", "1", "--d", "3", "--output", str(channel)]) == 0
    status, answer, _ = refute(capsys, *GRR, "--notion", "ldp", "--reference", str(channel))
    assert status == EXIT["holds"] and answer["samples"]["selection"] == 0
    assert answer["declared"]["parameters"] == {"epsilon": "1"}  # from the file's privacy section


def test_a_releases_file(capsys, tmp_path):
    import numpy as np

    from tests.refute.clients import grr

    rng = np.random.default_rng(1)
    release = grr(3.0, 3)
    document = {"format": "ldpspec-releases/1",
                "releases": [{"input": x, "releases": [release(x, rng) for _ in range(5000)]} for x in range(3)]}
    path = tmp_path / "releases.json"
    path.write_text(json.dumps(document))
    status, answer, _ = refute(capsys, "--releases-file", str(path), "--notion", "ldp", "--epsilon", "1")
    assert status == EXIT["does not hold"] and answer["samples"] == {"selection": 1000, "certification": 4000}


def test_a_checkpoint_resumes_on_the_command_line(capsys, tmp_path):
    arguments = [*GRR, "--notion", "ldp", "--epsilon", "1", "--shard-size", "4096",
                 "--checkpoint", str(tmp_path / "run")]
    first = refute(capsys, *arguments)
    lines = (tmp_path / "run").read_text().splitlines()
    second = refute(capsys, *arguments)
    assert (tmp_path / "run").read_text().splitlines() == lines  # nothing drawn again
    assert first[1]["pairs"] == second[1]["pairs"]


def test_by_default_a_failed_run_keeps_its_shards_and_resumes(capsys, tmp_path, monkeypatch):
    monkeypatch.setenv("LDPSPEC_TEST_MARKER", str(tmp_path / "raised"))
    arguments = ["--callable", "tests.refute.clients:fails_once", "--inputs", "[0, 1, 2]", "--samples", "20000",
                 "--notion", "ldp", "--epsilon", "1", "--shard-size", "4096"]
    status, _, err = refute(capsys, *arguments)
    assert status == EXIT["bad input"] and "raised RuntimeError: interrupted" in err
    kept = list(tmp_path.glob("ldpspec-refute-*.checkpoint"))
    assert len(kept) == 1 and kept[0].name in err and "the same command resumes" in err
    finished = len(kept[0].read_text().splitlines())
    status, answer, _ = refute(capsys, *arguments)
    assert status == EXIT["holds"] and answer["verdict"] == "not refuted"
    assert not list(tmp_path.glob("ldpspec-refute-*.checkpoint"))  # removed once the run completed
    assert finished > 1
    status, _, _ = refute(capsys, *arguments[:-2], "--no-checkpoint", "--shard-size", "4096")
    assert status == EXIT["holds"] and not list(tmp_path.glob("*.checkpoint"))


def test_a_checkpoint_that_is_not_ours_is_refused(capsys, tmp_path):
    arguments = [*GRR, "--notion", "ldp", "--epsilon", "1", "--checkpoint", str(tmp_path / "run")]
    assert refute(capsys, *arguments)[0] == EXIT["holds"]
    lines = (tmp_path / "run").read_text().splitlines()
    (tmp_path / "run").write_text("\n".join([lines[0], '{"shard": [1, 0]}', *lines[1:]]) + "\n")
    status, _, err = refute(capsys, *arguments)
    assert status == EXIT["bad input"] and "line 2 of" in err and "is not a finished shard" in err


def test_a_run_that_could_see_nothing_says_so(capsys):
    """Eight releases per input, four to choose with: no output is seen the five times that put it in an event, so
    no pair is examined, the run had no power, and the answer says so."""
    status, answer, _ = refute(capsys, *GRR[:-2], "--samples", "8", "--selection-share", "0.5", "--notion", "ldp",
                               "--epsilon", "1")
    assert status == EXIT["holds"] and answer["pairs_examined"] == 0
    assert answer["power"].startswith("none: no pair of inputs had an event to certify")


def test_workers_and_a_cluster_on_the_command_line(capsys):
    distributed = pytest.importorskip("distributed")
    arguments = [*GRR, "--notion", "ldp", "--epsilon", "1", "--shard-size", "5000"]
    alone = refute(capsys, *arguments)[1]["pairs"]
    assert refute(capsys, *arguments, "--workers", "2")[1]["pairs"] == alone
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, host="127.0.0.1",
                                  dashboard_address=None) as cluster:
        assert refute(capsys, *arguments, "--cluster", cluster.scheduler_address)[1]["pairs"] == alone


@pytest.mark.parametrize("arguments, message", [
    (["--notion", "ldp", "--epsilon", "1", "--inputs", "[0, 1]"], "needs exactly one implementation"),
    ([*GRR, "--twin", "grr", "--notion", "ldp", "--epsilon", "1"], "needs exactly one implementation: --callable"),
    (["--callable", "nowhere.at.all:f", "--inputs", "[0, 1]", "--notion", "ldp", "--epsilon", "1"],
     'cannot import "nowhere.at.all"'),
    (["--callable", "tests.refute.clients:nothing", "--inputs", "[0, 1]", "--notion", "ldp", "--epsilon", "1"],
     'has no function "nothing"'),
    (["--callable", "json", "--inputs", "[0, 1]", "--notion", "ldp", "--epsilon", "1"], "MODULE:FUNCTION"),
    ([*GRR, "--notion", "ldp", "--epsilon", "1", "--alpha", "1.5"], "--alpha must be a number in (0, 1)"),
    ([*GRR, "--notion", "ldp", "--epsilon", "-1"], "--epsilon must be a finite real number >= 0"),
    ([*GRR, "--notion", "ldp"], "needs --epsilon"),
    (["--callable", "tests.refute.clients:grr_3", "--notion", "ldp", "--epsilon", "1"], "--inputs: say which"),
    (["--callable", "tests.refute.clients:grr_3", "--inputs", "[0]", "--notion", "ldp", "--epsilon", "1"],
     "needs at least 2"),
    ([*GRR, "--notion", "ldp", "--epsilon", "1", "--releases", "bits"], "--releases bits needs --length"),
    ([*GRR, "--notion", "ldp", "--epsilon", "1", "--selection-share", "0"], "--selection-share must be"),
    ([*GRR, "--notion", "ldp", "--epsilon", "1", "--workers", "2", "--cluster", "tcp://127.0.0.1:1"],
     "not both"),
    ([*GRR, "--notion", "ldp", "--epsilon", "1", "--cluster", "tcp://127.0.0.1:1"], "no Dask scheduler answers"),
    ([*GRR, "--notion", "ldp", "--epsilon", "1", "--twin-options", "{1: 2}"], "give that too"),
    (["--twin", "grr", "--twin-options", '{"epsilon": 1}', "--notion", "ldp"], "JSON object of texts"),
    (["--releases-file", "/nonexistent/file.json", "--notion", "ldp", "--epsilon", "1"], "cannot read"),
    ([*GRR, "--notion", "ldp", "--epsilon", "1", "--releases", "bits", "--length", "0"], "in [1, 10,000,000]"),
    ([*GRR, "--notion", "ldp", "--epsilon", "1", "--releases", "sets", "--length", "100000000"], "got 100000000"),
    ([*GRR, "--notion", "ldp", "--epsilon", "1", "--releases", "numbers", "--interval", '["a", 1]'], "two numbers"),
    ([*GRR, "--notion", "ldp", "--epsilon", "1", "--pairs", "[0, 1]"], "--pairs must be a JSON list of pairs"),
    ([*GRR, "--notion", "ldp", "--epsilon", "1", "--pairs", "[[0, 0]]"], "two different inputs"),
    ([*GRR, "--notion", "ldp", "--epsilon", "1", "--call-timeout", "inf"], "--call-timeout must be"),
    ([*GRR, "--notion", "ldp", "--epsilon", "1", "--call-timeout", "nan"], "--call-timeout must be"),
    ([*GRR, "--notion", "uldp", "--epsilon", "1", "--sensitive", "[5]", "--protected", "[0]"],
     "unknown label 5"),
])
def test_bad_input_is_one_line_and_exit_2(capsys, arguments, message):
    status, out, err = refute(capsys, *arguments)
    assert status == EXIT["bad input"], (out, err)
    assert message in err and err.count("\n") == 1, err


def test_a_failing_implementation_exits_2_naming_its_input(tmp_path):
    environment = {**os.environ, "PYTHONPATH": str(ROOT)}
    process = subprocess.run([sys.executable, "-m", "ldpspec.reference.tools.cli", "refute", "--callable",
                              "tests.refute.clients:raises", "--inputs", "[0, 1, 2]", "--notion", "ldp",
                              "--epsilon", "1", "--samples", "5000"], cwd=tmp_path, env=environment,
                             capture_output=True, text=True)
    assert process.returncode == EXIT["bad input"]
    assert "raised ValueError: a bug in the client on input" in process.stderr
    assert "Traceback" not in process.stderr

"""The JavaScript example port (``reference/porting/example-js``) passes ``ldpspec conform``: every vector of its
five mechanisms and the goodness-of-fit test of its own generator's samples. With each slip the vectors flag planted
in it (the environment variable ``PORT_SLIP``), the same check fails, and a failure names the slip among its flags.

Skipped where Node.js is missing, unless ``LDPSPEC_REQUIRE_NODE=1`` (CI sets it), which turns the skip into a
failure."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from ldpspec.reference.porting.conform import load_vectors

PORT = Path(__file__).resolve().parents[2] / "reference" / "porting" / "example-js"
MECHANISMS = ["grr", "idue", "iprr", "oue", "sugrr-sample"]
NODE = shutil.which("node")
CLI = [sys.executable, "-m", "ldpspec.reference.tools.cli"]

if NODE is None:
    if os.environ.get("LDPSPEC_REQUIRE_NODE") == "1":
        pytest.fail("Node.js is required (LDPSPEC_REQUIRE_NODE=1) to run the JavaScript example port, and `node` is "
                    "not on the PATH", pytrace=False)
    pytest.skip("Node.js is not installed: the JavaScript example port is not run (install node to run it)",
                allow_module_level=True)

SLIPS = {  # PORT_SLIP -> where the port goes wrong (the flag a failure must carry is the slip's name)
    "block-layout": "the stream's counter written little-endian",
    "bit-order": "bits read from the least significant bit of each byte",
    "modulo-bias": "below(n) as a wider value modulo n",
    "float-coin": "bernoulli(p) by comparing a 53-bit double with p",
    "certain-coin": "bernoulli(0) and bernoulli(1) reading a bit",
    "large-budget": "e^eps computed before dividing, and p rounded to a double before the coin",
    "p-q-swapped": "p and q swapped",
    "grr-true-item-among-others": "GRR drawing the replacement among all d items",
    "draw-order": "unary encoding's bits drawn from the last to the first",
    "estimate": "suGRR-Sample's estimator without its factor m",
    "moments": "the variance without the true count's term",
    "direct": "Norm-Sub replaced by clipping and rescaling",
    "invalid": "a negative budget accepted",
}


def conform_port(folder: Path, slip: str | None) -> tuple[int, dict]:
    """The port's answers (with ``slip`` planted) and ``ldpspec conform``'s exit status and report on them."""
    environment = {key: value for key, value in os.environ.items() if key != "PORT_SLIP"}
    if slip:
        environment["PORT_SLIP"] = slip
    run = subprocess.run([NODE, str(PORT / "run.js")], capture_output=True, text=True, timeout=300, env=environment)
    assert run.returncode == 0, run.stderr
    answers = folder / f"answers-{slip or 'correct'}.json"
    answers.write_text(run.stdout, encoding="utf-8")
    check = subprocess.run([*CLI, "conform", str(answers)], capture_output=True, text=True, timeout=300)
    assert check.returncode in (0, 1), check.stderr
    return check.returncode, json.loads(check.stdout)


def test_the_example_port_conforms(tmp_path):
    status, report = conform_port(tmp_path, None)
    assert status == 0 and report["conforms"], json.dumps(report)[:2000]
    assert report["mechanisms"] == MECHANISMS
    assert report["unanswered"] == {}
    vectors = load_vectors()
    expected = {"stream": len(vectors["stream"])} | {
        kind: sum(mechanism in MECHANISMS for mechanism, _ in vectors[kind])
        for kind in ("parameters", "estimators", "sampling")}
    assert {kind: report[kind]["answered"] for kind in expected} == expected
    assert all(report[kind]["failed"] == 0 for kind in expected)
    assert sorted(sample["mechanism"] for sample in report["samples"]) == MECHANISMS
    assert all(sample["conforms"] and sample["n"] == 3000 for sample in report["samples"])


@pytest.mark.parametrize("slip", sorted(SLIPS))
def test_each_flagged_slip_planted_in_the_port_fails_conform_with_its_flag(tmp_path, slip):
    status, report = conform_port(tmp_path, slip)
    assert status == 1 and not report["conforms"], f"{slip} ({SLIPS[slip]}) is not caught"
    flags = {flag for kind in ("stream", "parameters", "estimators", "sampling") if kind in report
             for failure in report[kind]["failures"] for flag in failure["flags"]}
    assert slip in flags, f"{slip}: the failures name only {sorted(flags)}"

"""The front door's contract, and the raw material the fuzz tests mutate.

Contract: every run of the command line ends with exit status 0 or 1 (a verdict, or the work done), 2 (a project
error: one line on standard error that names what is wrong) or 4 (undecided at the largest precision); never 3 (a bug
of ldpspec), never a traceback, never a NaN in what it prints. Every call of the Python API returns, or raises the
project's own ``SpecError``.
"""

from __future__ import annotations

import io
import json
from collections import Counter
from contextlib import redirect_stderr, redirect_stdout
from functools import cache

from ldpspec.reference.registry import MECHANISMS
from ldpspec.reference.tools.cli import EXIT, main
from tests.support import EXAMPLES

NASTY_TEXT = (
    "", " ", "-1", "0", "-0", "1", "2", "3", "0.5", "1/3", "-1/3", "1/0", "0/0", "1e19", "1e300", "1e-300", "1e2001",
    "1e999999", "-1e999999", "nan", "NaN", "inf", "-inf", "Infinity", "log(3)", "log(0)", "log(-1)", "log(0.5)",
    "log(exp(1))", "exp(1)", "exp(1)/(exp(1)+2)", "exp(1e1999)", "exp(-1e1999)", "exp(exp(1))", "2**10", "1_000",
    "0x10", "１", "é", "\x00", "abc", "[1, 2]", "[]", "[[]]", "[[1, 2]]", "[[1, 0]]", "[[1e300, 1]]",
    "[[1, 1000000000000]]", "[1, nope]", "[null]", '["a"]', '["a", "b"]', '"ab"', '{"a": 1}', "null", "true", "5",
    "[1, 2, 3]", "[0, 1, 2]", "[-1, 0, 1]", "[[0, 1]]", '[["a", "b"]]', "9" * 5000, "[" * 1500, "1" * 2500,
    "123456789012345678901234567890", "0.1", "1e-7", "10000000", "5000", "1000", "40", "-5",
    # numbers beyond the decimal module's range, and budgets at the ends of every form (issue 26)
    "1e99999999999999999999", "[1e99999999999999999999, 1]", "[1, -1e-99999999999999999999]", "1e999999999",
    "1e1999", "1e-1999", "log(2)/12345678901234567890", "12345678901234567890*log(2)", "10000*log(3)",
    "log(1e2000)", "log(1 + 1e-1999)", "1/12345678901234567890", "100000", "[1.5, 2.5]",
)
"""Values a hostile user might type for any option."""


TALLY: Counter = Counter()
"""Inputs tried, by what was run and how it ended (``("check", 1)``, ``("api", "SpecError")``); printed at the end
of a run under ``--fuzz N``, for the figures of a long run."""


def run(argv) -> tuple[int, str, str]:
    """Run the command line in this process: ``(exit status, standard output, standard error)``."""
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        status = main([str(a) for a in argv])
    return status, out.getvalue(), err.getvalue()


def _no_nan(constant: str):
    raise AssertionError(f"the output contains {constant}")


def assert_contract(argv) -> int:
    """Run ``argv`` and check the contract; return the exit status."""
    status, out, err = run(argv)
    context = f"ldpspec {' '.join(map(str, argv))[:300]}\nexit {status}\nstderr: {err[:500]}"
    TALLY[(str(argv[0]) if argv else "", status)] += 1
    assert status in (EXIT["holds"], EXIT["does not hold"], EXIT["bad input"], EXIT["undecided"]), context
    assert "Traceback" not in err, context
    if status == EXIT["bad input"]:
        assert err.strip(), context
        assert err.startswith("ldpspec: error: ") or "error:" in err, context  # argparse: usage, then the error
        assert err.count("\n") == 1 or not err.startswith("ldpspec: error: "), context  # one line
        assert all(len(line) <= 1000 for line in err.splitlines()), context  # numbers and labels cut to be read
        assert out == "", context
    if status in (EXIT["holds"], EXIT["does not hold"], EXIT["undecided"]) and out.lstrip().startswith("{"):
        json.loads(out, parse_constant=_no_nan)  # JSON without NaN or infinities
    return status


EXAMPLE_NOTIONS = {"grr3.json": "ldp", "urr.json": "uldp", "minid3.json": "minid-ldp", "grr3-doubles.json": "ldp",
                   "dense3.json": "ldp", "wheel-density.json": "ldp", "laplace-tails.json": "graded-ldp",
                   "idue-classes.json": "minid-ldp"}
"""The notion each of the documentation's example files is written for."""


@cache
def seed_files() -> dict[str, tuple[str, str]]:
    """Valid channel files to mutate, each with the notion its privacy section is for: the documentation's examples
    and every registered mechanism's example, also with its items in classes (format 3) where it has them."""
    seeds = {path.name: (path.read_text(encoding="utf-8"), EXAMPLE_NOTIONS[path.name])
             for path in sorted(EXAMPLES.glob("*.json"))}
    for name, declaration in MECHANISMS.items():
        arguments = [f"--{key}={value}" for key, value in declaration.example().items()]
        status, out, err = run(["channel", name, *arguments])
        assert status == 0, err
        seeds[f"{name}.json"] = (out, declaration.notion or "ldp")  # no notion: mutate it for ldp
        status, out, _ = run(["channel", name, *arguments, "--classes"])  # format 3, where the items have classes
        if status == 0:
            seeds[f"{name}-classes.json"] = (out, declaration.notion or "ldp")
    return seeds

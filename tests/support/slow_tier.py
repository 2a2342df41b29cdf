"""Measure the suite and write the slow tier: ``python -m tests.support.slow_tier``.

Runs the whole suite once (``pytest -n auto --durations=0``, the default run), adds up each test's setup, call and
teardown, and rewrites ``tests/slow.txt`` with every test that took more than ``--seconds`` (default 1) on this
machine, slowest first, except the fastest test of a module whose tests are all slow, so that the fast tier has
tests of every module. ``tests/conftest.py`` marks the listed tests ``slow``, so that ``pytest -m "not slow"`` is the
fast tier of the edit-test loop. Run it on a quiet machine: a busy one measures every test slower.
``--from-log FILE`` reads the durations of a run already made (its output with ``--durations=0``).
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
from collections import defaultdict

from tests.support import ROOT

SLOW_LIST = ROOT / "tests" / "slow.txt"
HEADER = """\
# The slow tier: the tests that took more than {seconds:g} s each (setup, call and teardown) in a run of the whole
# suite on a 2-core machine, but the fastest test of each module (so that the fast tier has tests of every module).
# tests/conftest.py marks them `slow`, so that `pytest -m "not slow"` (the fast tier) leaves them out; the default run
# (`pytest -n auto`) and CI run them. Measured, not chosen: `python -m tests.support.slow_tier` rewrites this file.
# Each line: a test's node id, then its seconds.
"""
_DURATION = re.compile(r"^\s*([0-9.]+)s (setup|call|teardown)\s+(\S.*)$")


def durations(output: str) -> dict[str, float]:
    """Each test's total seconds, from the ``--durations=0`` lines of pytest's output."""
    total: dict[str, float] = defaultdict(float)
    for line in output.splitlines():
        match = _DURATION.match(line)
        if match:
            total[match.group(3).strip()] += float(match.group(1))
    return dict(total)


def read_slow_list(path=SLOW_LIST) -> list[str]:
    """The node ids of ``tests/slow.txt`` (comments and blank lines left out)."""
    ids = []
    for line in path.read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            ids.append(line.rsplit(maxsplit=1)[0])
    return ids


def slow_tests(measured: dict[str, float], seconds: float) -> list[tuple[float, str]]:
    """``(seconds, test)`` of the tests slower than ``seconds``, slowest first, but the fastest test of every module
    whose tests are all that slow."""
    modules: dict[str, list[tuple[float, str]]] = defaultdict(list)
    for test, time in measured.items():
        modules[test.split("::")[0]].append((time, test))
    slow = []
    for tests in modules.values():
        over = [(time, test) for time, test in tests if time > seconds]
        if len(over) == len(tests):
            over.remove(min(over))
        slow.extend(over)
    return sorted(slow, reverse=True)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=1.0, help="the slow tier's threshold (default 1)")
    parser.add_argument("--from-log", metavar="FILE", help="the output of a run with --durations=0, instead of a run")
    arguments = parser.parse_args(argv)
    if arguments.from_log:
        with open(arguments.from_log, encoding="utf-8") as log:
            output = log.read()
    else:
        run = subprocess.run([sys.executable, "-m", "pytest", "-n", "auto", "-q", "-p", "no:cacheprovider",
                              "--durations=0", "--durations-min=0"], cwd=ROOT, capture_output=True, text=True)
        if run.returncode != 0:
            sys.stderr.write(run.stdout[-3000:] + run.stderr[-3000:])
            print("the suite did not pass: the slow tier is measured on a passing run", file=sys.stderr)
            return 1
        output = run.stdout
    slow = slow_tests(durations(output), arguments.seconds)
    lines = [f"{test}  {seconds:.1f}" for seconds, test in slow]
    SLOW_LIST.write_text(HEADER.format(seconds=arguments.seconds) + "\n".join(lines) + "\n", encoding="utf-8")
    print(f"{len(slow)} slow tests written to {SLOW_LIST.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""The slow tier's list (``tests/slow.txt``) is read as written and names only tests that exist."""

from __future__ import annotations

import subprocess
import sys

import pytest

from tests.support import ROOT
from tests.support.slow_tier import durations, read_slow_list, slow_tests


def test_durations_add_up_each_tests_setup_call_and_teardown():
    output = """
============================= slowest durations ==============================
12.50s call     tests/a.py::test_x[1-2]
0.25s setup    tests/a.py::test_x[1-2]
0.50s teardown tests/a.py::test_x[1-2]
3.00s call     tests/b.py::test_y
(3 durations < 0.005s hidden.)
"""
    assert durations(output) == {"tests/a.py::test_x[1-2]": 13.25, "tests/b.py::test_y": 3.0}


def test_the_slow_tier_keeps_the_fastest_test_of_a_module_whose_tests_are_all_slow():
    measured = {"tests/a.py::one": 5.0, "tests/a.py::two": 2.0, "tests/b.py::fast": 0.5, "tests/b.py::slow": 9.0}
    assert slow_tests(measured, 1.0) == [(9.0, "tests/b.py::slow"), (5.0, "tests/a.py::one")]


@pytest.mark.slow
def test_every_test_of_the_slow_tier_exists():
    collected = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider"],
                               cwd=ROOT, capture_output=True, text=True, check=True).stdout.splitlines()
    missing = sorted(set(read_slow_list()) - set(collected))
    assert not missing, f"tests/slow.txt names tests that are not collected: {missing[:10]}"

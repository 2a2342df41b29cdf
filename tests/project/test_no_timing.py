"""No test depends on the machine's speed: Hypothesis' deadline is off in every profile, and no test sets one."""

from __future__ import annotations

import ast
from pathlib import Path

from hypothesis import settings

ROOT = Path(__file__).resolve().parents[2]


def test_the_loaded_profile_has_no_deadline():
    assert settings().deadline is None
    for name in ("reproducible", "explore"):
        assert settings.get_profile(name).deadline is None, name


def test_no_test_sets_a_deadline():
    """A ``deadline=`` anywhere in the tests or the audit must be ``None``; and no test reads the clock to decide."""
    found = []
    for path in [*ROOT.glob("tests/**/*.py"), *ROOT.glob("verify/**/*.py")]:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.keyword) and node.arg == "deadline" and not (
                    isinstance(node.value, ast.Constant) and node.value.value is None):
                found.append(f"{path.relative_to(ROOT)}:{node.value.lineno}")
    assert not found, f"deadlines set: {found}"


def test_no_test_asserts_on_elapsed_time():
    """A test that compares a duration (time.perf_counter, time.time, time.monotonic) in an assert depends on speed."""
    clocks = {"perf_counter", "time", "monotonic", "process_time"}
    found = []
    for path in ROOT.glob("tests/**/test_*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Assert):
                calls = [n for n in ast.walk(node.test) if isinstance(n, ast.Call)
                         and isinstance(n.func, ast.Attribute) and n.func.attr in clocks
                         and isinstance(n.func.value, ast.Name) and n.func.value.id == "time"]
                if calls:
                    found.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert not found, f"asserts on the clock: {found}"

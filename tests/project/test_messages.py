"""Error messages show a user's values as the user wrote them (``spec.value_text``: ``0.5``, ``[0, 0, 0E+999999999]``,
``"a"``), never as Python reprs (``Decimal('0.5')``). This test reads the source of ``spec/`` and ``reference/`` and
fails on any project error whose message formats a value with ``!r``: raised (``raise InvalidParameter(f"...")``) or
built to be raised (``return InvalidParameter(...)``, ``self.error(...)``)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from ldpspec.reference.tools import cli  # noqa: F401 - imports every module that defines a project error
from ldpspec.spec import SpecError
from tests.support import ROOT

SOURCES = ("spec", "reference")

PROGRAMMER_ERRORS = {"ValueError", "TypeError", "AssertionError", "NotImplementedError", "RuntimeError"}
"""Raised on a malformed declaration in the project's own code (a ``Parameter`` of an unknown kind, a benchmark
group that does not exist), never on a user's input: their text is for the developer who wrote the declaration, and
the command line reports them as bugs."""

def _subclasses(cls) -> set[str]:
    return {cls.__name__}.union(*(_subclasses(sub) for sub in cls.__subclasses__()))


ERRORS = _subclasses(SpecError) | {"ArgumentTypeError", "error"}
"""The names of the errors a user reads: the project's (every subclass of ``SpecError``), argparse's (printed as a
usage error), and ``error``, the parsers' method that builds an ``InvalidParameter`` (``spec.parse``)."""


def _called_name(node: ast.AST) -> str | None:
    if isinstance(node, ast.Call):
        node = node.func
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return None


def repr_formats(source: str) -> list[int]:
    """The lines where a message of a user-facing error formats a value with ``!r``."""
    lines = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Raise) and node.exc is not None:
            message = node.exc
            if _called_name(message) in PROGRAMMER_ERRORS:
                continue
        elif isinstance(node, ast.Call) and _called_name(node) in ERRORS:
            message = node
        else:
            continue
        lines += [part.lineno for part in ast.walk(message)
                  if isinstance(part, ast.FormattedValue) and part.conversion == ord("r")]
    return sorted(set(lines))


def _files() -> list[Path]:
    return sorted(path for folder in SOURCES for path in (ROOT / folder).rglob("*.py"))


def test_no_error_message_formats_a_value_with_its_repr():
    found = {}
    for path in _files():
        name = path.relative_to(ROOT).as_posix()
        lines = repr_formats(path.read_text(encoding="utf-8"))
        if lines:
            found[name] = lines
    assert not found, ("write the value with spec.value_text (as the user wrote it), not !r: "
                       + "; ".join(f"{name} lines {lines}" for name, lines in found.items()))


@pytest.mark.parametrize("source, lines", [
    ('raise InvalidParameter(f"budgets must be numbers, got {value!r}")', [1]),
    ('raise InvalidChannel(f"channel file: {where}: got " + f"{value!r}"[:300])', [1]),
    ('raise self.error(f"unexpected {token!r}")', [1]),
    ('return InvalidParameter(f"{name}: got\\n" f"{value!r}")', [1]),
    ('raise argparse.ArgumentTypeError(f"must be an integer >= 1, got {text!r}")', [1]),
    ('raise InvalidParameter(f"budgets must be numbers, got {value_text(value)}")', []),
    ('raise ValueError(f"parameter {name}: kind must be one of {KINDS}, got {kind!r}")', []),
    ('message = f"{value!r}"', []),  # not a message of an error
])
def test_the_scan_finds_a_repr_in_a_message(source, lines):
    """The scan can fail: it finds ``!r`` in every way a message is raised, and only there."""
    assert repr_formats(source) == lines

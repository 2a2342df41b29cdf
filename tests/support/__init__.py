"""Helpers shared by the tests: the brute-force oracles (``brute``), goodness-of-fit (``fit``) and paths."""

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
"""The repository's root folder."""
DOCS = ROOT / "docs"
EXAMPLES = DOCS / "examples"

DEEP = False
"""Set by ``tests/conftest.py`` under ``pytest --deep``."""


FUZZ = None
"""Set by ``tests/conftest.py`` under ``pytest --fuzz N``."""


def examples(count: int) -> int:
    """A property test's number of examples: ``count``, or ten times as many in the deep profile."""
    return count * 10 if DEEP else count


def fuzz_examples(count: int) -> int:
    """A fuzz test's number of inputs: ``count``, ``N`` under ``--fuzz N``, or ten times ``count`` under ``--deep``."""
    return FUZZ if FUZZ else examples(count)

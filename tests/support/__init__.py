"""Helpers shared by the tests: the brute-force oracles (``brute``), goodness-of-fit (``fit``) and paths."""

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
"""The repository's root folder."""
DOCS = ROOT / "docs"
EXAMPLES = DOCS / "examples"

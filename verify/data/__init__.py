"""The papers' real data sets, as the summaries the audit needs.

Each data set lives in its own folder ``verify/data/<name>/``:

* ``summary.json.gz``: only what the audit needs (item counts, set-size histograms, value histograms), written by
  ``rebuild.py`` from the original file;
* ``rebuild.py``: the script that rebuilds the summary from the original (``python verify/data/<name>/rebuild.py
  ORIGINAL``), checking the original's SHA-256 first;
* ``SOURCE.md``: where the original comes from, its SHA-256, its licence, and what the summary keeps.

The originals are not vendored: they are large, and the audit needs only their summaries.
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import json
import sys
from collections.abc import Callable
from functools import cache
from pathlib import Path

HERE = Path(__file__).parent


def folder(name: str) -> Path:
    """The folder of data set ``name``."""
    path = HERE / name
    if not (path / "summary.json.gz").is_file():
        raise KeyError(f"no vendored data set {name!r}; the data sets are {', '.join(available())}")
    return path


def available() -> list[str]:
    """The vendored data sets' names."""
    return sorted(path.parent.name for path in HERE.glob("*/summary.json.gz"))


@cache
def summary(name: str) -> dict:
    """The summary of data set ``name`` as ``rebuild.py`` wrote it (read once per run)."""
    with gzip.open(folder(name) / "summary.json.gz", "rt", encoding="utf-8") as file:
        return json.load(file)


def sha256_of(path) -> str:
    """The SHA-256 of a file, in hexadecimal: ``rebuild.py`` checks the original against ``SOURCE.md`` with it."""
    digest = hashlib.sha256()
    with open(path, "rb") as file:
        for block in iter(lambda: file.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def write_summary(name: str, document: dict) -> Path:
    """Write ``document`` as data set ``name``'s summary, deterministically (sorted keys, no timestamp in the gzip
    header), so that rebuilding from the same original gives the same bytes."""
    path = HERE / name / "summary.json.gz"
    text = json.dumps(document, sort_keys=True, separators=(",", ":")).encode("utf-8")
    with open(path, "wb") as raw, gzip.GzipFile(filename="", mode="wb", fileobj=raw, mtime=0) as file:
        file.write(text)
    return path


def rebuild_command(name: str, sha256: str, build: Callable[[str], dict], doc: str, original: str):
    """The command line of data set ``name``'s ``rebuild.py``, as its ``main(argv=None)``: ``rebuild.py ORIGINAL
    [--unchecked]`` checks the original's SHA-256 against ``sha256`` (unless ``--unchecked``), builds the summary
    with ``build(path)`` and writes it (``write_summary``), printing its path. ``doc``: the script's docstring, whose
    first line describes the command; ``original``: the help of the argument ``ORIGINAL``."""

    def main(argv: list[str] | None = None) -> None:
        parser = argparse.ArgumentParser(description=doc.splitlines()[0])
        parser.add_argument("original", help=original)
        parser.add_argument("--unchecked", action="store_true", help="skip the SHA-256 check")
        args = parser.parse_args(argv)
        digest = sha256_of(args.original)
        if digest != sha256 and not args.unchecked:
            raise SystemExit(f"{args.original}: SHA-256 {digest}, expected {sha256} (SOURCE.md)")
        print(write_summary(name, build(args.original)), file=sys.stderr)

    return main

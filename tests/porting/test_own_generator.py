"""The page "A port with its own generator" (``docs/porting/own-generator.md``) is run as written: every
``python title="FILE"`` block is written to an empty folder, every command of a ``console`` block (a line ``$ ...``)
is run there with ``bash``, and what it prints must be the lines the page shows under it. So the page cannot rot:
its library, its adapter, the exit statuses and the report's statements are what the checker does today.

``render(page, folder)`` is the page with every command's output as it is now (how the page's outputs were written).
"""

from __future__ import annotations

import os
import re
import stat
import subprocess
import sys
from pathlib import Path

PAGE = Path(__file__).resolve().parents[2] / "docs" / "porting" / "own-generator.md"
FILE = re.compile(r'^```python title="([^"]+)"\n(.*?)^```$', re.MULTILINE | re.DOTALL)
CONSOLE = re.compile(r"^```console\n(.*?)^```$", re.MULTILINE | re.DOTALL)


def _shims(folder: Path) -> dict:
    """``python`` and ``ldpspec`` as this interpreter and its command line, first on the PATH."""
    bin_folder = folder / ".bin"
    bin_folder.mkdir()
    for name, command in (("python", f'exec "{sys.executable}" "$@"'),
                          ("ldpspec", f'exec "{sys.executable}" -m ldpspec.reference.tools.cli "$@"')):
        shim = bin_folder / name
        shim.write_text(f"#!/bin/sh\n{command}\n", encoding="utf-8")
        shim.chmod(shim.stat().st_mode | stat.S_IXUSR)
    return {**os.environ, "PATH": f"{bin_folder}{os.pathsep}{os.environ.get('PATH', '')}"}


def render(page: str, folder: Path) -> str:
    """``page`` with the output of every console command replaced by what it prints when run in ``folder``."""
    for name, code in FILE.findall(page):
        (folder / name).write_text(code, encoding="utf-8")
    environment = _shims(folder)

    def run_block(match: re.Match) -> str:
        lines = []
        for command in (line[2:] for line in match.group(1).splitlines() if line.startswith("$ ")):
            done = subprocess.run(["bash", "-c", command], cwd=folder, env=environment, capture_output=True,
                                  text=True, timeout=600)
            assert not done.stderr, f"{command}: {done.stderr}"
            lines += [f"$ {command}", *done.stdout.splitlines()]
        return "```console\n" + "\n".join(lines) + "\n```"

    return CONSOLE.sub(run_block, page)


def test_the_page_has_its_files_and_commands():
    page = PAGE.read_text(encoding="utf-8")
    assert [name for name, _ in FILE.findall(page)] == ["floatcoin.py", "answers.py", "show.py", "slips.py"]
    commands = [line for block in CONSOLE.findall(page) for line in block.splitlines() if line.startswith("$ ")]
    assert sum("ldpspec conform" in command for command in commands) == 5


def test_the_page_runs_as_written(tmp_path):
    """The outputs the page shows are what its commands print: exit 0 for the correct library, with samples only
    too, and the not-covered statement; exit 2 for a section the declaration leaves out; exit 1 for each slip."""
    page = PAGE.read_text(encoding="utf-8")
    rendered = render(page, tmp_path)
    assert rendered == page
    statuses = re.findall(r"^exit (\d)$", page, re.MULTILINE)
    assert statuses == ["0", "0", "2", "1", "1"]
    assert page.count("not covered: not checked, and a pass says nothing about them: stream (4 vectors)") == 4

"""Pages run as written: every ``python title="FILE"`` block of a page is written to an empty folder, every command
of a ``console`` block (a line ``$ ...``) is run there with ``bash``, and ``render`` gives the page with each
command's output as it is now, for a test to compare with the page (and for a person to write the page's outputs).
``python`` and ``ldpspec`` are this interpreter and its command line, first on the ``PATH``."""

from __future__ import annotations

import os
import re
import stat
import subprocess
import sys
from pathlib import Path

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

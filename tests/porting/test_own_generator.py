"""The page "A port with its own generator" (``docs/porting/own-generator.md``) is run as written: every
``python title="FILE"`` block is written to an empty folder, every command of a ``console`` block (a line ``$ ...``)
is run there with ``bash``, and what it prints must be the lines the page shows under it. So the page cannot rot:
its library, its adapter, the exit statuses and the report's statements are what the checker does today.

``render(page, folder)`` is the page with every command's output as it is now (how the page's outputs were written).
"""

from __future__ import annotations

import re
from pathlib import Path

from tests.support.pages import CONSOLE, FILE, render

PAGE = Path(__file__).resolve().parents[2] / "docs" / "porting" / "own-generator.md"


def test_the_page_has_its_files_and_commands():
    page = PAGE.read_text(encoding="utf-8")
    assert [name for name, _ in FILE.findall(page)] == ["floatcoin.py", "answers.py", "show.py", "slips.py"]
    commands = [line for block in CONSOLE.findall(page) for line in block.splitlines() if line.startswith("$ ")]
    assert sum("ldpspec conform" in command for command in commands) == 11


def test_the_page_runs_as_written(tmp_path):
    """The outputs the page shows are what its commands print: exit 0 for the correct library, with samples only
    too, and the not-covered statement; exit 2 for a section the declaration leaves out; exit 1 for each slip; then
    the section "When conform says…": exit 2 for missing options and for a number as an option, exit 1 for releases
    drawn at other options, exit 4 for a sample set too small, exit 1 for a file without a declaration and for
    estimators without a variance."""
    page = PAGE.read_text(encoding="utf-8")
    rendered = render(page, tmp_path)
    assert rendered == page
    statuses = re.findall(r"^exit (\d)$", page, re.MULTILINE)
    assert statuses == ["0", "0", "2", "1", "1", "2", "2", "1", "4", "1", "1"]
    assert page.count("not covered: not checked, and a pass says nothing about them: stream (4 vectors)") == 8
    for message in ("samples[0].options is missing", "samples[1].options.d must be a string", "hint: no release is "
                    "one of this channel's", "UNDECIDED", "hint: 8 vectors of the claimed mechanisms are unanswered",
                    'variance: not given; a port that does not compute it declares the parts it answers'):
        assert message in page, message

"""The page "Refuting an implementation's privacy from samples" (``docs/refute.md``) is run as written
(``tests.support.pages``): its client, the solver's parameters, and every ``ldpspec refute`` command print what the
page shows, so the walkthrough cannot rot: the correct client not refuted (exit 0), each of the three slips refuted
(exit 1)."""

from __future__ import annotations

import re

from tests.support import DOCS
from tests.support.pages import CONSOLE, FILE, render

PAGE = DOCS / "refute.md"


def test_the_page_has_its_files_and_commands():
    page = PAGE.read_text(encoding="utf-8")
    assert [name for name, _ in FILE.findall(page)] == ["myclient.py", "idue_client.py"]
    commands = [line for block in CONSOLE.findall(page) for line in block.splitlines() if line.startswith("$ ")]
    assert sum("ldpspec refute" in command for command in commands) == 4


def test_the_page_runs_as_written(tmp_path):
    page = PAGE.read_text(encoding="utf-8")
    assert render(page, tmp_path) == page
    assert re.findall(r"^exit (\d)$", page, re.MULTILINE) == ["0", "1", "1", "1"]

"""Every ```python block of the documentation runs, and its assertions hold."""

from __future__ import annotations

import re

import pytest

from tests.support import DOCS

BLOCK = re.compile(r"^```python\n(.*?)^```", re.MULTILINE | re.DOTALL)

EXAMPLES = [(page, index, code) for page in sorted(DOCS.rglob("*.md"))
            for index, code in enumerate(BLOCK.findall(page.read_text(encoding="utf-8")))]


def test_the_docs_have_examples():
    assert len(EXAMPLES) >= 8


@pytest.mark.parametrize("page, index, code", EXAMPLES,
                         ids=[f"{page.relative_to(DOCS)}#{index}" for page, index, _ in EXAMPLES])
def test_docs_example_runs(page, index, code):
    exec(compile(code, f"{page}#{index}", "exec"), {})

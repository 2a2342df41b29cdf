"""Every ```console example of the documentation runs and prints what the page says it prints.

A block is run line by line (``$ command``) in an empty folder that sees the repository's ``docs/``, so that files a
block writes are read by its later lines. The lines after a command are what it prints (standard output, then
standard error): JSON is compared as JSON (the page may lay it out differently), where ``...`` stands for more
entries of a list or object, or for any value (``"slack": ...``), a string ending in ``...`` for any string that
begins as it does (the leading digits of a solver's output, which vary in the last places between machines), and a
truncated document is closed; other text
line by line, where a line ``...`` stands for any lines. A command the page shows without output must succeed.

The benchmark's page shows measured figures (machine-dependent: ``tests/audit/test_experiments.py`` runs the
script), and the walkthroughs of a port with its own generator and of a refutation have their own tests
(``tests/porting/test_own_generator.py``, ``tests/refute/test_page.py``).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys

import pytest

from tests.support import DOCS

SKIPPED = {"benchmark.md", "porting/own-generator.md", "refute.md"}
BLOCK = re.compile(r"^```console\n(.*?)^```", re.MULTILINE | re.DOTALL)
ANY, MORE = "\x00any", "\x00more"


def _blocks():
    for page in sorted(DOCS.rglob("*.md")):
        name = page.relative_to(DOCS).as_posix()
        if name in SKIPPED or name.startswith("ledger/"):
            continue
        for index, block in enumerate(BLOCK.findall(page.read_text(encoding="utf-8"))):
            yield name, index, block


BLOCKS = list(_blocks())


def steps(block: str) -> list[tuple[str, list[str]]]:
    """``[(command, expected lines)]`` of a block."""
    result = []
    for line in block.splitlines():
        if line.startswith("$ "):
            result.append((line[2:], []))
        elif result:
            result[-1][1].append(line)
    return result


# --- JSON with "..." ----------------------------------------------------------------------------------------------

def json_pattern(text: str):
    """The expected JSON with its ``...`` marked: ``ANY`` for a value, ``MORE`` for further entries; brackets a
    truncated example leaves open are closed."""
    out, stack, k = [], [], 0
    while k < len(text):
        char = text[k]
        if char == '"':
            end = k + 1
            while text[end] != '"':
                end += 2 if text[end] == "\\" else 1
            out.append(text[k:end + 1])
            k = end + 1
            continue
        if text.startswith("...", k):
            before = "".join(out).rstrip()
            following = text[k + 3:].lstrip()
            after = "" if not following or following[0] in ",]}" else ","
            if before.endswith(":"):
                out.append(json.dumps(ANY))
            elif stack and stack[-1] == "{":
                out.append(("" if before.endswith(("{", ",")) else ",") + f"{json.dumps(MORE)}: 0" + after)
            else:
                out.append(("" if before.endswith(("[", ",")) else ",") + json.dumps(MORE) + after)
            k += 3
            continue
        if char in "[{":
            stack.append(char)
        elif char in "]}":
            stack.pop()
        out.append(char)
        k += 1
    text = "".join(out).rstrip().rstrip(",")
    for bracket in reversed(stack):  # a truncated example: whatever follows in each open bracket is unknown
        separator = "" if text.endswith(("[", "{")) else ","
        text += separator + (f"{json.dumps(MORE)}]" if bracket == "[" else f"{json.dumps(MORE)}: 0}}")
    return json.loads(re.sub(r",(\s*[\]}])", r"\1", text))


def matches(expected, actual) -> bool:
    if expected == ANY:
        return True
    if isinstance(expected, str) and len(expected) > 3 and expected.endswith("..."):  # leading digits shown
        return isinstance(actual, str) and actual.startswith(expected[:-3])
    if isinstance(expected, dict):
        more = MORE in expected
        keys = [key for key in expected if key != MORE]
        if not isinstance(actual, dict) or not all(key in actual for key in keys):
            return False
        if not more and set(keys) != set(actual):
            return False
        return all(matches(expected[key], actual[key]) for key in keys)
    if isinstance(expected, list):
        if not isinstance(actual, list):
            return False
        if MORE in expected:
            head = expected[:expected.index(MORE)]
            return len(actual) >= len(head) and all(matches(e, a) for e, a in zip(head, actual))
        return len(expected) == len(actual) and all(matches(e, a) for e, a in zip(expected, actual))
    return expected == actual


def lines_match(expected: list[str], actual: list[str]) -> bool:
    """Line by line, a line ``...`` standing for any number of lines."""
    if not expected:
        return not actual
    if expected[0].strip() == "...":
        return any(lines_match(expected[1:], actual[k:]) for k in range(len(actual) + 1))
    return bool(actual) and expected[0] == actual[0] and lines_match(expected[1:], actual[1:])


# --- the test -----------------------------------------------------------------------------------------------------

def test_the_docs_have_console_examples():
    assert len(BLOCKS) >= 15


@pytest.mark.parametrize("page, index, block", BLOCKS, ids=[f"{page}#{index}" for page, index, _ in BLOCKS])
def test_a_console_example_prints_what_the_page_says(page, index, block, tmp_path):
    (tmp_path / "docs").symlink_to(DOCS)
    environment = {**os.environ, "PATH": f"{os.path.dirname(sys.executable)}{os.pathsep}{os.environ['PATH']}",
                   "COLUMNS": "80"}
    status = 0
    for command, expected in steps(block):
        if command.strip() == "echo $?":  # the status of the line before (each line runs in its own shell)
            run = subprocess.CompletedProcess(command, 0, f"{status}\n", "")
        else:
            run = subprocess.run(["bash", "-c", command], cwd=tmp_path, env=environment, capture_output=True,
                                 text=True, timeout=600)
        status = run.returncode
        printed = run.stdout + run.stderr
        where = f"{page}#{index}: $ {command}"
        if not [line for line in expected if line.strip()]:
            assert run.returncode == 0 and not run.stderr.strip(), f"{where}\n{printed[:2000]}"
            continue
        text = "\n".join(expected).strip()
        document = _json_or_none(run.stdout) if text.startswith(("{", "[")) else None
        if document is not None:
            assert matches(json_pattern(text), document), f"{where}\n{run.stdout[:3000]}"
        else:
            assert lines_match(expected, printed.rstrip("\n").split("\n")), f"{where}\n{printed[:3000]}"


def _json_or_none(text: str):
    try:
        return json.loads(text)
    except json.JSONDecodeError:  # text that is not one JSON document (grep's lines of a file): compared as lines
        return None


def test_the_json_patterns_match_and_fail_as_they_should():
    assert matches(json_pattern('{"a": 1, "b": ...}'), {"a": 1, "b": [2]})
    assert not matches(json_pattern('{"a": 1}'), {"a": 1, "b": 2})
    assert matches(json_pattern('{"a": 1,\n ...\n}'), {"a": 1, "b": 2})
    assert matches(json_pattern('{"a": 1,\n ...\n "c": 3\n}'), {"a": 1, "b": 2, "c": 3})
    assert not matches(json_pattern('{"a": 1,\n ...\n "c": 3\n}'), {"a": 1, "b": 2, "c": 4})
    assert matches(json_pattern('{"a": [1, 2, ...]}'), {"a": [1, 2, 3]})
    assert not matches(json_pattern('{"a": [1, 3, ...]}'), {"a": [1, 2, 3]})
    assert matches(json_pattern('{\n "a": [\n  {"x": 1},\n  ...'), {"a": [{"x": 1}, {"x": 2}], "b": 0})
    assert not matches(json_pattern('{"a": "..."}'), {"a": "x"})  # "..." alone inside a string is text
    assert matches(json_pattern('{"a": "0.59..."}'), {"a": "0.5920"}) and not matches(json_pattern('{"a": "0.59..."}'),
                                                                                          {"a": "0.58"})
    assert lines_match(["a", "...", "d"], ["a", "b", "c", "d"]) and not lines_match(["a", "d"], ["a", "b", "d"])

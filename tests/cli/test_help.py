"""The help a newcomer reads: a version, examples that run, the docs' address, help text for every option, usage
lines that say what is required, kebab-case options."""

from __future__ import annotations

import argparse
import importlib.metadata
import re
import shlex
import shutil
from pathlib import Path

from ldpspec.reference.tools import cli
from tests.fuzz.contract import run

ROOT = Path(__file__).resolve().parents[2]


def _parsers(parser: argparse.ArgumentParser, path=("ldpspec",)):
    """Every parser of the command line with its command path."""
    yield path, parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield from _parsers(sub, (*path, name))


def test_version_is_the_installed_packages():
    status, out, _ = run(["--version"])
    assert status == 0 and out.strip() == f"ldpspec {importlib.metadata.version('ldpspec')}"


def test_the_top_level_examples_run(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    shutil.copy(ROOT / "docs" / "examples" / "grr3-doubles.json", tmp_path / "mine.json")
    for command, _ in cli._EXAMPLES:
        status, _, err = run(shlex.split(command)[1:])
        assert status == 0, (command, err)
    status, out, _ = run(["--help"])
    assert status == 0 and cli.DOCS_URL in out and all(command in out for command, _ in cli._EXAMPLES)


def test_the_docs_address_is_the_sites():
    text = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    line = next(line for line in text.splitlines() if line.startswith("site_url:"))
    assert f'"{cli.DOCS_URL}"' in line


def test_every_option_has_help_and_is_kebab_case():
    missing, snake = [], []
    for path, parser in _parsers(cli.build_parser()):
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction) or action.help == argparse.SUPPRESS:
                continue
            name = " ".join(path) + " " + "/".join(action.option_strings or [action.dest])
            if not action.help:
                missing.append(name)
            if any("_" in option for option in action.option_strings):
                snake.append(name)
    assert not missing, f"options without help: {missing}"
    assert not snake, f"options not in kebab-case: {snake}"


def test_a_mechanisms_required_parameters_are_required_in_its_usage():
    for path, parser in _parsers(cli.build_parser()):
        if len(path) != 3 or path[1] not in ("channel", "estimate"):
            continue
        declaration = cli.MECHANISMS[path[2]]
        usage = parser.format_usage()
        for parameter in declaration.parameters:
            shown = re.search(r"\[" + re.escape(parameter.option) + r"[\s\]]", usage) is None
            assert shown == parameter.required, (path, parameter.option, usage)


def test_estimates_usage_offers_the_channel_instead_of_a_mechanism():
    usage = next(parser for path, parser in _parsers(cli.build_parser()) if path == ("ldpspec", "estimate"))
    assert "(MECHANISM [parameters] | --channel CHANNEL.json)" in usage.format_usage()
    status, out, err = run(["estimate", "--counts", "[1, 2, 3]", "--channel", str(ROOT / "docs/examples/grr3.json")])
    assert status == 0, err


"""``pytest verify``: run every claim, compare with the recorded verdict, write the ledger."""

from __future__ import annotations

import pytest

from verify.audit import load_claims
from verify.ledger import AuditSettings, write_ledger

_ENTRIES = pytest.StashKey[list]()
_PATHS = pytest.StashKey[tuple]()


def pytest_addoption(parser):
    parser.addoption("--deep", action="store_true", default=False,
                     help="audit: search larger channels and more examples (slower than the CI default)")


def pytest_configure(config):
    config.stash[_ENTRIES] = []


@pytest.fixture(scope="session")
def audit_settings(pytestconfig) -> AuditSettings:
    return AuditSettings(deep=pytestconfig.getoption("--deep"))


@pytest.fixture(scope="session")
def ledger_entries(pytestconfig) -> list:
    return pytestconfig.stash[_ENTRIES]


def pytest_sessionfinish(session, exitstatus):
    entries = session.config.stash.get(_ENTRIES, [])
    if not entries:
        return
    settings = AuditSettings(deep=session.config.getoption("--deep"))
    complete = {entry.id for entry in entries} == set(load_claims())
    directory = session.config.rootpath / "build" / "ledger"
    session.config.stash[_PATHS] = write_ledger(entries, directory, complete=complete, settings=settings)


def pytest_terminal_summary(terminalreporter, config):
    paths = config.stash.get(_PATHS, None)
    if paths:
        json_path, markdown_path = paths
        terminalreporter.write_line(f"claims ledger: {markdown_path} (machine-readable: {json_path})")

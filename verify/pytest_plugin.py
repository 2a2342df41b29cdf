"""The project's pytest plugin, loaded by ``-p ldpspec.verify.pytest_plugin`` (``pyproject.toml``).

* ``--deep``: the longer audit (``pytest verify --deep``) and the deep test profile (``pytest --deep``).
* ``--no-sweep``: the audit does not rerun claims under the other values of the choices they consult
  (``verify/audit.py``); for a quick look at one claim while editing it. The audit sweeps every claim otherwise.
* ``--fuzz N``: the number of mutated inputs of each fuzz test (``tests/fuzz``), for a long run.
* After ``pytest verify``: the claims ledger, written to ``build/ledger/``.
* One name per module. The package's folders (``spec/``, ``reference/``, ``verify/``) are installed as
  ``ldpspec.spec``, ``ldpspec.reference`` and ``ldpspec.verify``. Left to itself, pytest would import a test module
  found in them (``verify/test_audit.py``) under a second, top-level name (``verify.test_audit``), and with it the
  package's ``__init__``. The two hooks below import such modules and packages by their installed names instead.
"""

from __future__ import annotations

import importlib
import os
from pathlib import Path

import pytest

_ENTRIES = pytest.StashKey[list]()
_PATHS = pytest.StashKey[tuple]()

ROOT = Path(__file__).resolve().parent.parent
PACKAGE_FOLDERS = {ROOT / "spec": "ldpspec.spec", ROOT / "reference": "ldpspec.reference",
                   ROOT / "verify": "ldpspec.verify"}


def installed_name(path: Path) -> str | None:
    """The installed module name of a file or folder in the package's folders, ``None`` for any other path."""
    path = Path(path).resolve()
    for folder, package in PACKAGE_FOLDERS.items():
        if path == folder or folder in path.parents:
            relative = path.relative_to(folder)
            parts = relative.parent.parts + ((relative.stem,) if relative.name else ())
            if parts and parts[-1] == "__init__":
                parts = parts[:-1]
            return ".".join((package, *parts))
    return None


class _InstalledModule(pytest.Module):
    def _getobj(self):
        return importlib.import_module(installed_name(self.path))


class _InstalledPackage(pytest.Package):
    def setup(self) -> None:
        importlib.import_module(installed_name(self.path))


@pytest.hookimpl(tryfirst=True)
def pytest_pycollect_makemodule(module_path, parent):
    if installed_name(module_path) is not None:
        return _InstalledModule.from_parent(parent, path=module_path)
    return None


@pytest.hookimpl(tryfirst=True)
def pytest_collect_directory(path, parent):
    if installed_name(path) is not None and (path / "__init__.py").is_file():
        return _InstalledPackage.from_parent(parent, path=path)
    return None


def pytest_addoption(parser):
    parser.addoption("--deep", action="store_true", default=False,
                     help="audit: search larger channels and more examples; tests: the deep profile (slower than CI)")
    parser.addoption("--no-sweep", action="store_true", default=False,
                     help="audit: do not rerun each claim under the other values of the choices it consults but does "
                          "not vary (a quick look while editing a claim; the audit sweeps every claim otherwise)")
    parser.addoption("--fuzz", type=int, default=None, metavar="N",
                     help="tests: N mutated inputs per fuzz test (tests/fuzz) instead of the default few hundred")


def pytest_configure(config):
    config.stash[_ENTRIES] = []
    config.addinivalue_line("markers", "slow: a test that takes more than a few seconds (skip with -m 'not slow')")


@pytest.fixture(scope="session")
def audit_settings(pytestconfig):
    from ldpspec.verify.claims import AuditSettings

    return AuditSettings(deep=pytestconfig.getoption("--deep"))


@pytest.fixture(scope="session")
def sweep_mode(pytestconfig) -> str:
    """What the audit sweeps (``verify/audit.py``, ``SWEEP_MODES``): every claim, unless ``--no-sweep``."""
    return "none" if pytestconfig.getoption("--no-sweep") else "all"


@pytest.fixture(scope="session")
def ledger_entries(pytestconfig) -> list:
    return pytestconfig.stash[_ENTRIES]


def pytest_sessionfinish(session, exitstatus):
    entries = session.config.stash.get(_ENTRIES, [])
    if not entries:
        return
    from ldpspec.verify.claims import AuditSettings, load_claims
    from ldpspec.verify.ledger import write_ledger

    settings = AuditSettings(deep=session.config.getoption("--deep"))
    complete = {entry.id for entry in entries} == set(load_claims())
    directory = session.config.rootpath / "build" / "ledger"
    session.config.stash[_PATHS] = write_ledger(entries, directory, complete=complete, settings=settings)


def pytest_terminal_summary(terminalreporter, config):
    """The ledger's tally, paper by paper, then where it is: a passing audit means that every computed verdict
    matches its record, not that every claim holds."""
    paths = config.stash.get(_PATHS, None)
    if paths:
        import json

        from ldpspec.verify.ledger import tally_lines

        json_path, markdown_path = paths
        document = json.loads(json_path.read_text(encoding="utf-8"))
        terminalreporter.section("claims ledger")
        for line in tally_lines(document):
            terminalreporter.write_line(line)
        shown = [os.path.relpath(path) for path in (markdown_path, json_path)]
        terminalreporter.write_line(f"summary: {shown[0]} (machine-readable: {shown[1]})")

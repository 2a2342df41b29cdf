"""The layering DESIGN states, read from the imports by import-linter: the contracts are in ``pyproject.toml``
(``[tool.importlinter]``). Each contract is also shown able to fail: the same graph with one import added that the
contract forbids (the circles and the arrow up a floor that the layering once had among them)."""

from __future__ import annotations

import pytest
from importlinter import cli
from importlinter.adapters.building import GraphBuilder
from importlinter.application.app_config import settings
from importlinter.configuration import configure

from tests.support import ROOT

PYPROJECT = str(ROOT / "pyproject.toml")


class _GraphWith(GraphBuilder):
    """The real import graph, with ``extra`` imports ``(importer, imported)`` added."""

    def __init__(self, extra):
        self.extra = extra

    def build(self, *arguments, **options):
        graph = super().build(*arguments, **options)
        for importer, imported in self.extra:
            graph.add_import(importer=importer, imported=imported, line_number=1, line_contents=f"import {imported}")
        return graph


def _lint(contract: str | None = None, extra=()) -> int:
    """import-linter's exit status (0 when the contracts are kept) on this repository's imports, plus ``extra``."""
    configure()
    settings.configure(GRAPH_BUILDER=_GraphWith(extra))
    try:
        return cli.lint_imports(config_filename=PYPROJECT, limit_to_contracts=(contract,) if contract else (),
                                no_cache=True, no_logo=True)
    finally:
        configure()


def test_every_import_contract_is_kept():
    assert _lint() == cli.EXIT_STATUS_SUCCESS


@pytest.mark.parametrize("contract, importer, imported", [
    ("layers", "ldpspec.spec.channel", "ldpspec.reference.mechanism"),
    ("layers", "ldpspec.reference.mechanism", "ldpspec.verify.claims"),
    ("kernel-dependencies", "ldpspec.spec.protocol", "numpy"),
    ("kernel-dependencies", "ldpspec.spec.loss", "numpy"),
    ("accelerator-dependencies", "ldpspec.accelerator.doubles", "ldpspec.spec.exact"),
    ("kernel-public-face", "ldpspec.reference.shared.grr", "ldpspec.spec.channel"),
    ("kernel-public-face", "ldpspec.verify.audit", "ldpspec.spec.exact"),
    ("reference-layers", "ldpspec.reference.plain_draws", "ldpspec.reference.porting.vectors"),
    ("reference-layers", "ldpspec.reference.shared.grr", "ldpspec.reference.registry"),
    ("no-circles", "ldpspec.spec.protocol", "ldpspec.spec.channel"),
    ("no-circles", "ldpspec.spec.rows", "ldpspec.spec.channel"),
    ("no-circles", "ldpspec.spec.parse", "ldpspec.spec.exact"),
    ("no-circles", "ldpspec.reference.twin_compiled", "ldpspec.reference.twin_sampling"),
    ("no-circles", "ldpspec.verify.gu2020.idue", "ldpspec.verify.gu2020.figures"),
])
def test_each_contract_fails_on_an_import_it_forbids(contract, importer, imported):
    assert _lint(contract, [(importer, imported)]) != cli.EXIT_STATUS_SUCCESS

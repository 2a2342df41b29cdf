"""The guide's checklist for a mechanism (page "Contributing"), checked for every registered mechanism.

The guide names the parts every registered mechanism must have, in bold, in its checklist. Each name maps here to its
check: a check of this module, or the tests of ``tests/mechanisms/test_registered.py`` that decide it for every
registered mechanism. A name the guide adds without a check here, or a check whose name left the guide, fails.
"""

from __future__ import annotations

import inspect
import re

import pytest

from ldpspec.reference.porting.vectors import VECTORS
from ldpspec.reference.registry import FOLDERS, MECHANISMS
from tests.mechanisms import test_registered
from tests.support import DOCS

GUIDE = DOCS / "contributing.md"
NAMES = sorted(MECHANISMS)


def _module(name: str) -> str:
    return inspect.getmodule(MECHANISMS[name].build).__name__


def registry_line(name: str) -> None:
    folder = next(folder for folder in FOLDERS if folder.__name__ == f"ldpspec.reference.{MECHANISMS[name].home}")
    assert _module(name).rsplit(".", 1)[-1] in folder.MODULES, f"{name}: its module is not in {folder.__name__}.MODULES"


def docs_page(name: str) -> None:
    page = DOCS / MECHANISMS[name].docs
    assert page.is_file(), f"{name}: no page {MECHANISMS[name].docs}"
    assert f"`{name}`" in page.read_text(encoding="utf-8"), f"{MECHANISMS[name].docs} must name `{name}`"
    # in the navigation: tests/project/test_layout.py::test_the_navigation_lists_every_paper_mechanism_and_notion


def api_line(name: str) -> None:
    text = (DOCS / MECHANISMS[name].docs).read_text(encoding="utf-8")
    assert f"\n::: {_module(name)}\n" in text, f"{MECHANISMS[name].docs} must show the API: '::: {_module(name)}'"


def vectors(name: str) -> None:
    for kind in ("parameters", "estimators", "sampling"):
        assert (VECTORS / kind / f"{name}.json").is_file(), (
            f"{name} has no {kind} vectors: run python -m ldpspec.reference.porting.vectors")


def benchmark(name: str) -> None:
    declared = MECHANISMS[name].benchmark
    assert callable(declared.workload) and all(callable(client) for client in declared.peers.values())
    # its workload runs: tests/mechanisms/test_registered.py::test_the_mechanism_has_every_part_it_declares


CHECKS = {
    "module": [test_registered.test_the_mechanism_has_every_part_it_declares],
    "declaration": [test_registered.test_the_declaration_is_complete],
    "registry line": [registry_line],
    "exact channel": [test_registered.test_the_claimed_notion_holds_on_the_exact_channel],
    "sampling": [test_registered.test_the_reference_sampler_fits_the_channel,
                 test_registered.test_the_reference_sampler_fits_the_channel_drawing_from_the_porting_stream,
                 test_registered.test_the_twin_reports_fit_the_channel,
                 test_registered.test_twin_and_reference_count_the_same_reports],
    "simulation": [test_registered.test_the_simulated_counts_are_exact_in_distribution,
                   test_registered.test_the_simulated_sum_has_the_distribution_of_the_reports_sum],
    "estimator": [test_registered.test_the_estimator_has_the_stated_exact_moments,
                  test_registered.test_twin_and_reference_estimate_alike],
    "docs page": [docs_page],
    "API line": [api_line],
    "vectors": [vectors],
    "benchmark": [benchmark],
}
"""Each part of the guide's checklist, with what checks it."""


def test_the_guide_names_exactly_the_parts_that_are_checked():
    checklist = GUIDE.read_text(encoding="utf-8").split("The parts every registered mechanism must have", 1)[1]
    named = re.findall(r"^- \[ \] \*\*([^*]+)\*\*", checklist, flags=re.MULTILINE)
    assert named and len(named) == len(set(named))
    assert set(named) == set(CHECKS), (f"in the guide only: {set(named) - set(CHECKS)}; "
                                       f"checked only: {set(CHECKS) - set(named)}")


def test_every_check_from_the_registered_mechanisms_tests_runs_for_every_mechanism():
    """The tests of ``test_registered`` that a part relies on are parametrized over the registered mechanisms: every
    name is in at least one of a part's tests (a mechanism summing numerical releases has its own simulation test)."""
    for part, checks in CHECKS.items():
        tests = [check for check in checks if check.__module__ != __name__]
        covered = set()
        for check in tests:
            marks = [mark for mark in getattr(check, "pytestmark", []) if mark.name == "parametrize"]
            covered |= {value for mark in marks if mark.args[0] == "name" for value in mark.args[1]}
        assert not tests or set(NAMES) <= covered, f"{part}: not checked for {sorted(set(NAMES) - covered)}"


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("part", [part for part, checks in CHECKS.items() if checks[0].__module__ == __name__])
def test_every_registered_mechanism_has_the_part(part, name):
    for check in CHECKS[part]:
        check(name)

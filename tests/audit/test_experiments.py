"""The benchmark script and the experiment module run (at tiny sizes; no timing is asserted)."""

from __future__ import annotations

import subprocess
import sys
from importlib.metadata import PackageNotFoundError, version

import numpy as np
import pytest

from ldpspec.reference.registry import MECHANISMS
from ldpspec.verify.gu2020.experiments import MECHANISMS as FIG3_CURVES
from ldpspec.verify.gu2020.experiments import exact_share_levels, fig3, power_law_items


def test_the_benchmark_script_prints_its_table():
    result = subprocess.run([sys.executable, "-m", "ldpspec.reference.tools.benchmark", "--sizes", "2000x16",
                             "--libraries", "ldpspec"],
                            capture_output=True, text=True, check=True)
    rows = [line for line in result.stdout.splitlines() if line.startswith("| ") and "ldpspec" in line]
    assert {(row.split("|")[1].strip(), row.split("|")[4].strip()) for row in rows} == {
        (mechanism, mode) for mechanism in MECHANISMS for mode in ("reports", "simulation")
        if MECHANISMS[mechanism].inputs != "number"}
    costs = {row.split("|")[1].strip(): row.split("|")[8].strip() for row in rows if "| reports |" in row}
    for name in ("oue", "idue", "idue-ps"):  # bit vectors: their cost per released bit is shown
        assert float(costs[name]) > 0
    assert float(costs["grr"]) > 0 and costs["sugrr"] == ""  # one item: log2 d bits; a set of items: no count


def _missing(libraries) -> list:
    """The peer libraries that are not installed (CI installs the verify extra only, not bench)."""
    missing = []
    for library in libraries:
        try:
            version(library)
        except PackageNotFoundError:
            missing.append(library)
    return missing


def test_the_benchmarks_peer_rows_come_from_the_declarations():
    """A peer library has a row exactly where a mechanism declares that peer (``Benchmark.peers``): in the main table
    beside the mechanism, and in the per-item-budget table as GRR's peers. Only the peers are run, at a tiny size;
    their cost per released bit follows from our mechanism's declared report."""
    declared = {(name, library) for name, declaration in MECHANISMS.items() if declaration.inputs != "number"
                for library in declaration.benchmark.peers}
    libraries = sorted({library for _, library in declared})
    missing = _missing(libraries)
    if missing:
        pytest.skip(f"peer libraries not installed: {', '.join(missing)} (pip install -e '.[bench]')")
    result = subprocess.run([sys.executable, "-m", "ldpspec.reference.tools.benchmark", "--sizes",
                             "2000x16,2000x16:ipldp", "--libraries", ",".join(libraries)],
                            capture_output=True, text=True, check=True)
    rows = [[cell.strip() for cell in line.split("|")[1:-1]] for line in result.stdout.splitlines()
            if line.startswith("| ") and "2,000" in line]
    main, per_item_budgets = [row for row in rows if len(row) == 8], [row for row in rows if len(row) == 7]
    assert {(row[0], row[4]) for row in main} == declared
    assert all(row[3] == "reports" and float(row[7]) > 0 for row in main)
    assert {(row[0], row[4]) for row in per_item_budgets} == {
        ("grr", library) for library in MECHANISMS["grr"].benchmark.peers}


def test_the_benchmark_script_prints_the_kernels_rows():
    result = subprocess.run([sys.executable, "-m", "ldpspec.reference.tools.benchmark", "--kernel", "--sizes",
                             "0x200:kernel,0x12:profile"], capture_output=True, text=True, check=True)
    rows = [[cell.strip() for cell in line.split("|")[1:-1]] for line in result.stdout.splitlines()
            if line.startswith("| ") and "time (s)" not in line]  # the data rows, not the headers
    assert [(row[0], row[1], row[2], row[3]) for row in rows[:2]] == [
        ("minid-ldp", "200", "3", "True"), ("avgid-ldp", "200", "3", "True")]
    (profile,) = rows[2:]  # the explicit 12 x 12 file: its time, memory, JSON size and the time scaled to 2000
    assert profile[0] == "12" and float(profile[1]) > 0 and float(profile[3]) >= 0
    scale = (2000 / 12) ** 3  # the time is printed to 0.005 s
    assert float(profile[4].replace(",", "")) == pytest.approx(float(profile[1]) * scale, abs=0.005 * scale + 1)


def test_the_benchmark_script_prints_its_numeric_table():
    """The mechanisms for numbers: reports, estimate and simulation each, the whole HierA pipeline, and the plain
    NumPy Harmony and PM beside them."""
    result = subprocess.run([sys.executable, "-m", "ldpspec.reference.tools.benchmark", "--numeric", "--sizes",
                             "2000x0:numeric", "--libraries", "ldpspec,numpy-plain"],
                            capture_output=True, text=True, check=True)
    rows = [[cell.strip() for cell in line.split("|")[1:-1]] for line in result.stdout.splitlines()
            if line.startswith("| ") and "2,000" in line]
    assert {(row[0], row[2], row[3]) for row in rows} == {
        *((mechanism, mode, "ldpspec") for mechanism in MECHANISMS if MECHANISMS[mechanism].inputs == "number"
          for mode in ("reports", "estimate", "simulation")),
        ("hiera", "pipeline", "ldpspec"), ("harmony", "reports", "numpy-plain"), ("pm", "reports", "numpy-plain")}


def test_fig3_at_a_tiny_size_has_every_mechanism():
    data = fig3("power-law", n=2000, runs=2, epsilons=(1.0,))
    assert [point.mechanism for point in data.points] == list(FIG3_CURVES)
    assert all(point.expected > 0 and point.empirical > 0 for point in data.points)


def test_the_generators_follow_the_authors_code():
    items = power_law_items(10_000, 100, np.random.default_rng(0))
    assert items.min() >= 0 and items.max() == 99  # the sample maximum maps to the last item
    assert np.bincount(items)[0] > np.bincount(items, minlength=100)[50]  # decreasing frequencies
    levels, item_level = exact_share_levels(100, (1.0, 1.2, 2.0), (0.05, 0.05, 0.90), 1.0, np.random.default_rng(1))
    assert levels.sizes == (5, 5, 90) and np.bincount(item_level).tolist() == [5, 5, 90]


def test_the_refute_benchmark_prints_its_tables():
    """``benchmark.refute`` at a tiny size: the comparison with LDP-Auditor's estimator on the same draws (every
    mechanism of LDP-Auditor's setting), the pairs beyond it, and the throughput rows."""
    result = subprocess.run([sys.executable, "-m", "ldpspec.reference.tools.benchmark.refute", "--quick",
                             "--samples", "3000"], capture_output=True, text=True, check=True)
    anchor = [line.split("|") for line in result.stdout.splitlines() if line.startswith("| ")
              and line.split("|")[1].strip() in ("grr", "sue", "oue", "olh") and "ldp" not in line.split("|")[2]]
    assert {row[1].strip() for row in anchor} == {"grr", "sue", "oue", "olh"}
    for row in anchor:  # the exact epsilon bounds both estimates: neither method may exceed it here
        assert float(row[4]) <= float(row[3]) and float(row[5]) <= float(row[3])
    assert "cells; strictly above in" in result.stdout
    beyond = {line.split("|")[2].strip() for line in result.stdout.splitlines() if line.startswith("| ")}
    assert {"minid-ldp", "uldp", "ipldp"} <= beyond
    assert "the tool's cost per call beyond the call itself" in result.stdout

"""The benchmark's tables: what each measures (its sizes, the mechanisms it is made for, its rows), its heading and
columns, and the summary lines printed after all the tables.

Which table a mechanism is measured in is its declaration's: the main table holds every mechanism not for numbers
(``Mechanism.inputs``), the set-valued and per-item-budget tables the mechanisms of their ``Benchmark.group``, and
a peer library's row stands exactly where the mechanism declares that peer (``Benchmark.peers``).
"""

from __future__ import annotations

import os
import platform
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import partial
from importlib.metadata import PackageNotFoundError, version
from typing import NamedTuple

from ldpspec.reference.registry import MECHANISMS
from ldpspec.reference.tools.benchmark.measure import Job, measure_apart
from ldpspec.reference.tools.benchmark.operations import (
    COUNTED_MODES,
    EM_MAX_ITERATIONS,
    EM_TOLERANCE,
    ESTIMATORS,
    EXPLICIT_CHECKS,
    EXPLICIT_FILE,
    EXPLICIT_PROFILE,
    HIERA,
    KERNEL_NOTIONS,
    NUMERIC_MODES,
)
from ldpspec.reference.tools.benchmark.peers import (
    EPSILON,
    ESTIMATOR_BASELINE,
    OURS,
    PEER_ESTIMATORS,
    PLAIN,
    PLAIN_MECHANISMS,
    peer_libraries,
)

SET_BASELINES = ("grr-sample", "rappor-sample")
"""The set-valued rows' reference points: Cao et al.'s baselines (Sec. 2.3), ours, as no peer implements these."""
IPLDP_PEER = "grr"
"""The mechanism whose declared peers are measured beside the per-item-budget mechanisms (no peer implements
those)."""
KERNEL_MECHANISM = "idue"
"""The mechanism of the kernel's rows."""
EXPLICIT = "explicit"
"""The name of the explicit profile rows (a channel file, not a registered mechanism)."""
TARGET_D = 2000
"""The d at which the explicit profile's target is stated, which its rows extrapolate to by the d^3 pairwise work."""


class Row(NamedTuple):
    """A measured row: its job (``measure.Job``) and the measurement."""

    name: str
    n: int
    d: int
    mode: str
    library: str
    result: dict


@dataclass(frozen=True, kw_only=True)
class Table:
    """One table of the benchmark.

    Attributes:
        kind: the KIND of its sizes on the command line, ``NxD:KIND`` (``""``: plain ``NxD``).
        measures: what a size of this kind measures, in a few words (for ``--help``).
        default: its pinned sizes, ``(n, d)``.
        only: the option that measures only this table and the others it names (``None``: none does).
        members: ``members(names, libraries)``: the names its rows are made for, among the chosen mechanisms and
            libraries (none: no table).
        jobs: ``jobs(n, d, members, libraries)``: its measurements at one size, in order.
        columns: the column headers.
        cells: ``cells(row)``: a row's cells.
        heading: the text before the columns (``""``: none).
        footer: the text after the rows (``""``: none).
        summary: ``summary(rows, sizes, members)``: its summary lines (``None``: none).
    """

    kind: str
    measures: str
    default: tuple
    only: str | None
    members: Callable
    jobs: Callable
    columns: tuple
    cells: Callable
    heading: str = ""
    footer: str = ""
    summary: Callable | None = None


# --- the rows ---------------------------------------------------------------------------------------------------------

def _ours(names, modes, n: int, d: int, libraries) -> list[Job]:
    """Our rows: every operation of every mechanism named, when our library is measured."""
    return [Job(name, n, d, mode, OURS) for name in names for mode in modes] if OURS in libraries else []


def _counted_jobs(n, d, members, libraries) -> list[Job]:
    """Each mechanism's reports and simulation (ours) and the reports of every peer it declares, in the order of the
    libraries."""
    jobs = []
    for name in members:
        for library in libraries:
            if library == OURS:
                jobs += [Job(name, n, d, mode, OURS) for mode in COUNTED_MODES]
            elif library in MECHANISMS[name].benchmark.peers:
                jobs.append(Job(name, n, d, "reports", library))
    return jobs


def _per_item_budget_jobs(n, d, members, libraries) -> list[Job]:
    """Each mechanism's reports and simulation, then the reports of the peers GRR declares."""
    clients = [Job(IPLDP_PEER, n, d, "reports", library) for library in libraries
               if library in MECHANISMS[IPLDP_PEER].benchmark.peers]
    return _ours(members, COUNTED_MODES, n, d, libraries) + clients


def _estimator_jobs(n, d, members, libraries) -> list[Job]:
    """Our estimators on the counts of each mechanism, then the peers' on GRR's counts."""
    peers = [Job(ESTIMATOR_BASELINE, n, d, mode, library) for library in libraries
             for mode in PEER_ESTIMATORS.get(library, ())]
    return _ours(members, ESTIMATORS, n, d, libraries) + peers


def _numeric_jobs(n, d, members, libraries) -> list[Job]:
    """The mechanisms for numbers (reports, estimate, simulation), the HierA pipeline, and the plain NumPy Harmony
    and PM; ``d`` plays no part."""
    plain = [Job(name, n, 0, "reports", PLAIN) for name in PLAIN_MECHANISMS if name in members and PLAIN in libraries]
    return _ours(members, NUMERIC_MODES, n, 0, libraries) + _ours([HIERA], ("pipeline",), n, 0, libraries) + plain


def _in_group(group: str) -> Callable:
    """The members of a table of ``Benchmark.group == group``."""
    return lambda names, libraries: [name for name in names if MECHANISMS[name].benchmark.group == group]


def _job_cells(row: Row) -> list:
    return [row.name, f"{row.n:,}", row.d, row.mode, row.library]


def _time_cells(result: dict, digits: int = 3) -> list:
    return [f"{result['seconds']:.{digits}f}", f"{result['peak_mib']:.1f}"]


def _cost_cells(row: Row) -> list:
    """A row's cells and its cost per released bit: a reports row's time over the bits all users release (by the
    mechanism's declared report; a peer's reports are the same release as ours)."""
    released = row.result.get("released_bits")
    cost = f"{1e9 * row.result['seconds'] / released:.2f}" if row.mode == "reports" and released else ""
    return [*_job_cells(row), *_time_cells(row.result), cost]


def _estimator_cells(row: Row) -> list:
    result = row.result
    converged = {True: "yes", False: "no", None: ""}[result.get("converged")]
    preparation = result.get("preparation_seconds")
    return [*_job_cells(row), *_time_cells(result, 4), result.get("iterations", ""), converged,
            "" if preparation is None else f"{preparation:.2f}"]


def _profile_cells(row: Row) -> list:
    result = row.result
    return [row.d, *_time_cells(result, 2), f"{result['json_mb']:.1f}",
            f"{result['seconds'] * (TARGET_D / row.d) ** 3:,.0f}"]


# --- the summary lines ------------------------------------------------------------------------------------------------

def _select(rows, **fields) -> list[Row]:
    return [row for row in rows if all(getattr(row, key) == value for key, value in fields.items())]


def _reports(rows, name: str, n: int, d: int, library: str) -> dict | None:
    """The measurement of ``library``'s reports of ``name`` at ``(n, d)``, if it was measured."""
    found = _select(rows, name=name, n=n, d=d, mode="reports", library=library)
    return found[0].result if found else None


def _peer_reports(rows, name: str, n: int, d: int) -> dict:
    """``{peer library: its reports of name at (n, d)}``."""
    return {row.library: row.result for row in _select(rows, name=name, n=n, d=d, mode="reports")
            if row.library != OURS}


def _beside(rows, sizes, names, references: Callable) -> Iterator[tuple]:
    """``(n, d, name, our reports, {reference: its reports})`` for every size and mechanism whose reports we measured
    and that has reference points, given by ``references(name, n, d)``."""
    for n, d in sizes:
        for name in names:
            ours, theirs = _reports(rows, name, n, d, OURS), references(name, n, d)
            if ours and theirs:
                yield n, d, name, ours, theirs


def _versus(ours: dict, theirs: dict, baseline: str) -> str:
    """Our time and peak memory as multiples of a baseline's (no ratio to a peak under 1 MiB: that is noise)."""
    duration = f"{ours['seconds'] / theirs['seconds']:.2f}x the time"
    if theirs["peak_mib"] < 1:
        return f"{duration} of {baseline} (its peak memory is under 1 MiB: no ratio)"
    return f"{duration} and {ours['peak_mib'] / theirs['peak_mib']:.2f}x the peak memory of {baseline}"


def _peer_lines(rows, sizes, members) -> Iterator[str]:
    """Our reports against the fastest declared peer's."""
    for n, d, name, ours, peers in _beside(rows, sizes, members, partial(_peer_reports, rows)):
        library, fastest = min(peers.items(), key=lambda item: item[1]["seconds"])
        memory = (f"{ours['peak_mib'] / fastest['peak_mib']:.4f} of its peak memory"
                  if fastest["peak_mib"] >= 1 else "its peak memory is under 1 MiB (no ratio)")
        yield (f"- {name} reports at n={n:,}, d={d}: {fastest['seconds'] / ours['seconds']:.1f}x faster than the "
               f"fastest peer ({library}), using {memory}")


def _set_baseline_lines(rows, sizes, members) -> Iterator[str]:
    """Our reports against our own baselines' (no peer implements these)."""
    def baselines(name, n, d):
        return {baseline: result for baseline in SET_BASELINES if (result := _reports(rows, baseline, n, d, OURS))}

    others = [name for name in members if name not in SET_BASELINES]
    for n, d, name, ours, theirs in _beside(rows, sizes, others, baselines):
        yield (f"- {name} reports at n={n:,}, d={d}, m={ours['m']}: "
               + "; ".join(_versus(ours, result, baseline) for baseline, result in theirs.items()))


def _grr_client_lines(rows, sizes, members) -> Iterator[str]:
    """Our reports against the peers' GRR clients (no peer implements per-item budgets)."""
    def clients(name, n, d):
        return _peer_reports(rows, IPLDP_PEER, n, d)

    for n, d, name, ours, theirs in _beside(rows, sizes, members, clients):
        yield f"- {name} reports at n={n:,}, d={d}: " + "; ".join(
            f"{client['seconds'] / ours['seconds']:.1f}x faster than {library}'s {IPLDP_PEER.upper()} client"
            for library, client in theirs.items())


def _plain_lines(rows, sizes, members) -> Iterator[str]:
    """Harmony's and PM's reports against the plain NumPy versions', and the HierA pipeline, at each number of
    users."""
    def plain(name, n, d):
        result = _reports(rows, name, n, d, PLAIN)
        return {PLAIN: result} if result else {}

    for n, _ in sizes:
        for _, _, name, ours, theirs in _beside(rows, [(n, 0)], PLAIN_MECHANISMS, plain):
            yield f"- {name} reports at n={n:,}: {_versus(ours, theirs[PLAIN], PLAIN)}"
        for row in _select(rows, name=HIERA, n=n)[:1]:
            yield (f"- HierA pipeline at n={n:,}: {row.result['seconds']:.2f} s and {row.result['peak_mib']:.0f} MiB "
                   "(target at n = 10,000,000: under 5 s and 1 GiB)")


def _estimator_lines(rows, sizes, members) -> Iterator[str]:
    """The MLE's times, in closed form and by EM."""
    for row in _select(rows, library=OURS):
        name, n, d, result = row.name, row.n, row.d, row.result
        if row.mode == "mle":
            yield f"- {name} MLE (closed form) at n={n:,}, d={d}: {result['seconds']:.3f} s"
        if row.mode == "em":
            yield (f"- {name} MLE by EM at n={n:,}, d={d}: {result['seconds']:.3f} s, {result['iterations']:,} "
                   f"iterations, " + ("converged" if result["converged"] else
                                      f"not converged to {EM_TOLERANCE:g} within the cap"))


# --- the tables -------------------------------------------------------------------------------------------------------

_JOB_COLUMNS = ("mechanism", "n", "d", "operation", "library", "time (s)", "peak memory (MiB)")

ITEMS = Table(
    kind="", measures="every mechanism not for numbers", only=None,
    default=((100_000, 100), (1_000_000, 100), (1_000_000, 1000)),
    members=lambda names, libraries: [name for name in names if MECHANISMS[name].inputs != "number"],
    jobs=_counted_jobs, columns=(*_JOB_COLUMNS, "ns per released bit"), cells=_cost_cells, summary=_peer_lines)
"""The main table: every mechanism not for numbers, beside the peers it declares."""

NUMBERS = Table(
    kind="numeric", measures="the mechanisms for numbers and HierA (D is ignored)", only="--numeric",
    default=((1_000_000, 0), (10_000_000, 0)),
    members=lambda names, libraries: [name for name in names if MECHANISMS[name].inputs == "number"],
    jobs=_numeric_jobs, columns=("mechanism", "n", "operation", "library", "time (s)", "peak memory (MiB)"),
    cells=lambda row: [row.name, f"{row.n:,}", row.mode, row.library, *_time_cells(row.result)],
    heading=(f"Mechanisms for a number of [-1, 1] (every user's number uniform) and the HierA pipeline, beside plain "
             f"NumPy versions of Harmony and PM ({PLAIN}) at eps = {EPSILON}:"),
    summary=_plain_lines)
"""The mechanisms for numbers (``inputs == "number"``), the HierA pipeline and the plain NumPy Harmony and PM."""

SETS = Table(
    kind="sets", measures="the set-valued mechanisms only", only="--set-valued", default=((1_000_000, 256),),
    members=_in_group("sets"), jobs=_counted_jobs, columns=(*_JOB_COLUMNS, "m", "sensitive items"),
    cells=lambda row: [*_job_cells(row), *_time_cells(row.result), row.result["m"], row.result["sensitive"]],
    heading=(f"Set-valued mechanisms (users hold sets of m items; Cao et al. 2022), beside the baselines "
             f"{', '.join(SET_BASELINES)}:"),
    summary=_set_baseline_lines)
"""The set-valued mechanisms (``group == "sets"``): their workloads give every user a uniform set of m = min(8, d)
items (m = 8 at the pinned size) with the first d // 4 items sensitive (items 0..63 at d = 256)."""

PER_ITEM_BUDGETS = Table(
    kind="ipldp", measures="the mechanisms with per-item budgets, beside the peers' GRR clients", only="--ipldp",
    default=((1_000_000, 100), (1_000_000, 10_000)), members=_in_group("per-item-budgets"),
    jobs=_per_item_budget_jobs, columns=_JOB_COLUMNS, cells=lambda row: [*_job_cells(row), *_time_cells(row.result)],
    heading=(f"Mechanisms with per-item budgets (the IPLDP preprint), beside the peers' {IPLDP_PEER.upper()} clients "
             f"at eps = {EPSILON}:"),
    summary=_grr_client_lines)
"""The mechanisms with per-item budgets (``group == "per-item-budgets"``), beside the peers GRR declares."""

ESTIMATES = Table(
    kind="estimators", measures="the estimators of a direct encoding", only="--ipldp", default=((1_000_000, 10_000),),
    members=lambda names, libraries: (_in_group("per-item-budgets")(names, libraries)
                                      + [name for name in names if name == ESTIMATOR_BASELINE]),
    jobs=_estimator_jobs,
    columns=("mechanism", "n", "d", "estimator", "library", "time (s)", "peak memory (MiB)", "EM iterations",
             "converged", "preparation (s)"),
    cells=_estimator_cells,
    heading=(f"Estimators of a direct encoding on the counts of n reports (EM to the l1 tolerance {EM_TOLERANCE:g}, "
             f"at most {EM_MAX_ITERATIONS:,} iterations), beside multi-freq-ldpy's on the counts of "
             f"{ESTIMATOR_BASELINE} at eps = {EPSILON}; preparation: the column structure, exact, then in floats "
             f"(not timed):"),
    summary=_estimator_lines)
"""The estimators of a direct encoding on the counts of the per-item-budget mechanisms and of GRR."""

KERNEL = Table(
    kind="kernel", measures="the kernel's verdicts", only="--kernel", default=((0, 100_000),),
    members=lambda names, libraries: [KERNEL_MECHANISM] if KERNEL_MECHANISM in names and OURS in libraries else [],
    jobs=lambda n, d, members, libraries: _ours(members, KERNEL_NOTIONS, 0, d, libraries),
    columns=("notion", "items", "levels", "holds", "time (s)", "peak memory (MiB)"),
    cells=lambda row: [row.mode, f"{row.d:,}", row.result["levels"], row.result["holds"], *_time_cells(row.result)],
    heading=("The kernel's verdict on IDUE over all of its items, in three levels {1, 1.2, 2} holding 5%, 5% and "
             "90% of them (solved first on two items per level):"),
    footer="(target: under 1 s each at 100,000 items)")
"""The kernel's verdicts on IDUE over D items in the workload's three levels (n plays no part)."""

PROFILE = Table(
    kind="profile", measures="ldpspec profile of an explicit D x D channel file (N is ignored)", only="--kernel",
    default=((0, 50), (0, 100)),
    members=lambda names, libraries: [EXPLICIT] if OURS in libraries else [],
    jobs=lambda n, d, members, libraries: _ours(members, (EXPLICIT_PROFILE,), 0, d, libraries),
    columns=("d", "time (s)", "peak memory (MiB)", "profile JSON (MB)", f"time at d = {TARGET_D} by d^3 (s)"),
    cells=_profile_cells,
    heading="`ldpspec profile` of an explicit d x d channel file (random rational rows), read and profiled in memory:",
    footer=f"(target: under 30 s and 2 GiB at d = {TARGET_D})")
"""``ldpspec profile`` of an explicit d x d channel file, read and profiled; the target is stated at d = 2000."""

def _explicit_jobs(n, d, members, libraries) -> list[Job]:
    """LDP, MinID-LDP and the profile's summary up to the target's d; beyond it, LDP alone (its column scan takes
    ``d^2`` steps, where the pairwise ones take ``d^3`` in doubles)."""
    modes = EXPLICIT_CHECKS if d <= TARGET_D else EXPLICIT_CHECKS[:1]
    return _ours(members, modes, 0, d, libraries)


EXPLICIT_FILES = Table(
    kind="explicit", measures="an explicit D x D channel file read and checked for LDP and MinID-LDP, and profiled "
                              "(N is ignored)", only="--kernel",
    default=((0, TARGET_D),),
    members=lambda names, libraries: [EXPLICIT_FILE] if OURS in libraries else [],
    jobs=_explicit_jobs,
    columns=("d", "operation", "holds", "time (s)", "peak memory (MiB)"),
    cells=lambda row: [f"{row.d:,}", row.mode, row.result.get("holds", ""), *_time_cells(row.result, 1)],
    heading=("An explicit d x d channel file of random rational rows (weights 1 .. 49 over their sum, as fractions), "
             "read exactly from its text and then checked for LDP, checked for MinID-LDP (budgets 4, 6, log(1000) "
             "and 9 in turn), or profiled (the summary `ldpspec profile` prints by default):"),
    footer=f"(targets at d = {TARGET_D}: LDP and MinID-LDP under 30 s and 2 GiB each, the profile under 60 s)")
"""An explicit d x d channel file read and checked (LDP, MinID-LDP) or profiled; targets stated at d = 2000."""

TABLES = (ITEMS, NUMBERS, SETS, PER_ITEM_BUDGETS, ESTIMATES, KERNEL, PROFILE, EXPLICIT_FILES)
"""Every table, in the order they are printed."""
SUMMARIES = (ITEMS, SETS, PER_ITEM_BUDGETS, NUMBERS, ESTIMATES)
"""The tables with summary lines, in the order the lines are printed (after every table)."""


def _versions() -> dict:
    found = {}
    for package in (OURS, "numpy", *peer_libraries(), "numba"):  # numba: multi-freq-ldpy compiles its clients
        try:
            found[package] = version(package)
        except PackageNotFoundError:
            found[package] = "not installed"
    return found


def _print_row(cells) -> None:
    print("| " + " | ".join(str(cell) for cell in cells) + " |", flush=True)


def _measure_table(table: Table, sizes, members, libraries) -> list[Row]:
    """Print the table's heading and columns, then measure its rows (each in a process of its own) and print each as
    it comes; return them."""
    if table.heading:
        print(table.heading + "\n")
    _print_row(table.columns)
    print("|" + "---|" * len(table.columns))
    rows = []
    for n, d in sizes:
        for job in table.jobs(n, d, members, libraries):
            result = measure_apart(job)
            if result is not None:
                rows.append(Row(*job, result))
                _print_row(table.cells(rows[-1]))
    print()
    if table.footer:
        print(table.footer + "\n")
    return rows


def print_report(sizes: dict, names: list, libraries: list) -> None:
    """Print the machine, every table that has sizes (``sizes``: ``{kind: [(n, d), ...]}``) and members among
    ``names`` and ``libraries``, then the summary lines."""
    print(f"machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}; "
          + ", ".join(f"{package} {found}" for package, found in _versions().items()))
    print(f"eps = {EPSILON}; time in seconds, peak memory in MiB\n")
    measured = {}
    for table in TABLES:
        members, table_sizes = table.members(names, libraries), sizes.get(table.kind, [])
        rows = _measure_table(table, table_sizes, members, libraries) if table_sizes and members else []
        measured[table.kind] = rows, table_sizes, members
    for table in SUMMARIES:
        for line in table.summary(*measured[table.kind]):
            print(line)

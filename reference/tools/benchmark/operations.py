"""The operations the benchmark times, one per row: each prepares its data and parameters first (not timed) and
returns what is timed.

``operation(library, name, mode, n, d)`` prepares a row's ``Operation``:

* **reports** and **simulation** of a mechanism over items or item sets, from its declared workload
  (``Benchmark.workload``); a peer library's **reports** come from the client the mechanism declares for it
  (``Benchmark.peers``);
* the **estimators** of a direct encoding on the counts of ``n`` reports (ours), and multi-freq-ldpy's on GRR's;
* **reports**, **estimate** and **simulation** of a mechanism for numbers (``inputs == "number"``), the whole HierA
  **pipeline**, and the plain NumPy Harmony and PM;
* the kernel's verdicts on IDUE over ``d`` items, ``ldpspec profile`` of an explicit ``d x d`` channel file, and an
  explicit ``d x d`` file read and checked for LDP or MinID-LDP, or profiled (its summary).
"""

from __future__ import annotations

import json
import time
from collections import Counter
from collections.abc import Callable
from fractions import Fraction
from typing import NamedTuple

import numpy as np

from ldpspec.reference.registry import MECHANISMS
from ldpspec.reference.tools.benchmark.peers import (
    EPSILON,
    OURS,
    PEER_ESTIMATORS,
    PLAIN,
    PLAIN_MECHANISMS,
    peer_estimator,
    plain_numpy,
)
from ldpspec.reference.twin_sampling import prepare_compiled

COUNTED_MODES = ("reports", "simulation")
"""The operations of a mechanism over items or item sets (ours; a peer library has reports only)."""
ESTIMATORS = ("empirical", "norm-sub", "mle", "em")
"""Our estimators of a direct encoding (``reference.shared.direct``), in floats."""
EM_TOLERANCE, EM_MAX_ITERATIONS = 1e-10, 100_000
"""EM's stopping rule in the estimator rows: the l1 change of an iteration, and the cap."""
NUMERIC_MODES = ("reports", "estimate", "simulation")
"""The operations of a mechanism for numbers."""
HIERA = "hiera"
"""The row of the whole HierA pipeline (LHP's reports, counts, PLC, the estimate)."""
KERNEL_NOTIONS = {"minid-ldp": "min", "avgid-ldp": "avg"}
"""The kernel's rows: each notion of IDUE's channel over all of its items."""
EXPLICIT_PROFILE = "profile-explicit"
"""The operation of the explicit profile rows."""
EXPLICIT_FILE = "explicit-file"
"""The name of the explicit channel file rows (a channel file, not a registered mechanism)."""
EXPLICIT_CHECKS = ("ldp", "minid-ldp", "profile")
"""The operations of the explicit channel file rows: read the file, then check LDP, check MinID-LDP, or print the
profile's summary (``ldpspec profile`` without ``--full``)."""
EXPLICIT_EPSILON = "8"
"""The LDP budget of the explicit rows (random rows with weights 1 .. 49: losses up to about ln 49^2 = 7.8)."""
EXPLICIT_BUDGETS = ("4", "6", "log(1000)", "9")
"""The MinID-LDP budgets of the explicit rows, input k taking the (k mod 4)-th."""


class Operation(NamedTuple):
    """A row's operation, its data and parameters made.

    Attributes:
        run: what is timed; ``None`` when the library has no such operation.
        shape: what the workload is beyond ``n`` and ``d``, recorded with the row (``m`` and the sensitive items of
            a set-valued mechanism, the preparation time of an estimator, the kernel's number of levels).
        describe: what to record of the operation's result (``None``: nothing).
    """

    run: Callable | None
    shape: dict
    describe: Callable | None = None


NOTHING = Operation(None, {})
"""What a library without the operation gives."""


def operation(library: str, name: str, mode: str, n: int, d: int) -> Operation:
    """Prepare the operation ``mode`` of mechanism ``name`` in ``library`` at ``n`` users and ``d`` items."""
    if name == EXPLICIT_FILE:
        return _explicit_check(mode, d)
    if mode in ESTIMATORS or mode in PEER_ESTIMATORS.get(library, ()):
        return _estimator(library, name, mode, n, d)
    if mode in KERNEL_NOTIONS:
        return _kernel(mode, d)
    if mode == EXPLICIT_PROFILE:
        return _explicit_profile(d)
    if name == HIERA or MECHANISMS[name].inputs == "number":
        return _numeric(library, name, mode, n)
    return _counted(library, name, mode, n, d)


def _counted(library: str, name: str, mode: str, n: int, d: int) -> Operation:
    """Reports or simulation of a mechanism over items or item sets, from its declared workload; a peer's reports
    from the client the mechanism declares for it."""
    declaration = MECHANISMS[name]
    client = declaration.benchmark.peers.get(library)
    if library != OURS and (mode != "reports" or client is None):
        return NOTHING
    mechanism, inputs = declaration.benchmark.workload(n, d, np.random.default_rng(1))
    shape = {"m": mechanism.m, "sensitive": _sensitive(mechanism)} if declaration.benchmark.group == "sets" else {}
    released = lambda _: released_bits(declaration, mechanism, inputs)  # recorded after the operation is timed
    if library != OURS:
        run = client(d, EPSILON)  # the client is prepared (and compiled, where the library compiles) before timing
        values = np.asarray(inputs).tolist()
        return Operation(lambda: run(values), shape, released)
    rng = np.random.default_rng(2)
    if mode == "reports" and declaration.reports == "bit-vector":
        prepare_compiled()  # where Numba is installed, our code for packed bits is loaded now, as the peers' compile
    if mode == "reports":
        return Operation(lambda: mechanism.twin.reports(inputs, rng), shape, released)
    values = inputs if isinstance(inputs, list) else inputs.tolist()
    # the users of each input: of each item, or of each set (a list, or an array row for sets of several sizes)
    population = Counter(map(tuple, values) if declaration.inputs == "item-set" else values)
    return Operation(lambda: mechanism.twin.simulate_counts(population, rng), shape)


def _sensitive(mechanism) -> str:
    """The sensitive items of a set-valued mechanism, in a few words: ``all 256``, ``64: 0..63``."""
    sensitive = tuple(mechanism.sensitive)
    if len(sensitive) == mechanism.d:
        return f"all {mechanism.d}"
    if sensitive == tuple(range(len(sensitive))):
        return f"{len(sensitive)}: 0..{len(sensitive) - 1}"
    return str(len(sensitive))


def released_bits(declaration, mechanism, inputs) -> dict:
    """``{"released_bits": ...}``: the bits all users of ``inputs`` release, for the cost per released bit of a
    reports row (ours or a peer's: the same release): those the mechanism declares (``Benchmark.report_bits``: OLH's
    hash and value, Hadamard Response's index), else by the declared report (``Mechanism.reports``). One item of
    ``d`` releases ``log2 d`` bits (RR, one of two: one bit). A bit vector releases the bits of
    one output as the channel labels it (made for the first user): ``d``, or ``m + l`` for IDUE-PS and its
    baselines, whose vectors carry the padding's dummy items (``m`` when they release only the real bits). Other
    reports (sets of items, numbers, records of parts, an inner mechanism's) have no such count, nor has a bit vector
    whose output is a record (Cao et al.'s: the vector and the revealed items)."""
    if not len(inputs):
        return {}
    if declaration.benchmark.report_bits is not None:
        per_user = float(declaration.benchmark.report_bits(mechanism))
    elif declaration.reports == "item":
        per_user = float(np.log2(mechanism.d))
    elif declaration.reports == "bit-vector":
        first = mechanism.twin.outputs(mechanism.twin.reports(inputs[:1], np.random.default_rng(0)))[0]
        if not all(type(bit) is int and bit in (0, 1) for bit in first):
            return {}
        per_user = len(first)
    else:
        return {}
    return {"released_bits": len(inputs) * per_user}


def _estimator(library: str, name: str, mode: str, n: int, d: int) -> Operation:
    """An estimator on the counts of ``n`` users' reports (made first): ours on the mechanism's column structure in
    floats (its making, exact then in floats, is recorded as the preparation), the peer's on GRR's counts."""
    from ldpspec.reference.shared.direct import em_np, empirical_np, mle_np, norm_sub_np

    mechanism, inputs = MECHANISMS[name].benchmark.workload(n, d, np.random.default_rng(1))
    counts = mechanism.twin.counts(mechanism.twin.reports(inputs, np.random.default_rng(2)))
    if library != OURS:
        prepared = peer_estimator(library, mode, mechanism, counts, n, d)
        return NOTHING if prepared is None else Operation(*prepared)
    start = time.perf_counter()
    structure = mechanism.structure().floats()
    shape = {"preparation_seconds": time.perf_counter() - start}
    if mode == "empirical":
        return Operation(lambda: empirical_np(structure, counts), shape)
    if mode == "norm-sub":
        values = empirical_np(structure, counts)
        return Operation(lambda: norm_sub_np(values), shape)
    if mode == "mle":  # the closed form of a column-structured channel
        return Operation(lambda: mle_np(structure, counts), shape)
    return Operation(lambda: em_np(structure, counts, EM_TOLERANCE, EM_MAX_ITERATIONS), shape,
                     lambda result: {"iterations": result.iterations, "converged": result.converged})


def _numeric(library: str, name: str, mode: str, n: int) -> Operation:
    """An operation of a mechanism for numbers, of HierA, or of a plain NumPy version, every user's number uniform on
    [-1, 1]: ``d`` plays no part (the workloads fix their levels or budgets)."""
    from ldpspec.reference.hiera2023.hiera import HierA

    if library == PLAIN:
        if name not in PLAIN_MECHANISMS or mode != "reports":
            return NOTHING
        return Operation(plain_numpy(name, np.random.default_rng(1).uniform(-1, 1, n)), {})
    if library != OURS:
        return NOTHING
    rng = np.random.default_rng(2)
    if name == HIERA:  # LHP's reports a million users at a time, counted, then PLC and steps 5-7
        lhp, values = MECHANISMS["lhp"].benchmark.workload(n, 0, np.random.default_rng(1))
        hiera = HierA(lhp, mu=2, compensation="A", size="all", clip=True)
        return Operation(lambda: hiera.twin.estimate(lhp.twin.counts_of(values, rng), n, rng), {})
    mechanism, values = MECHANISMS[name].benchmark.workload(n, 0, np.random.default_rng(1))
    if mode == "reports":
        return Operation(lambda: mechanism.twin.reports(values, rng), {})
    if mode == "estimate":
        reports = mechanism.twin.reports(values, rng)
        return Operation(lambda: mechanism.twin.estimate(mechanism.twin.counts(reports), n), {})
    grid = [float(v) for v in mechanism.grid]  # the population on the grid: each user's number rounded to it
    nearest = np.abs(values[:, None] - np.array(grid)[None, :]).argmin(axis=1)
    population = np.bincount(nearest, minlength=len(grid))
    return Operation(lambda: mechanism.twin.simulate_counts(population, rng), {})


def _kernel(notion: str, d: int) -> Operation:
    """The kernel's verdict on IDUE over ``d`` items in the workload's three levels (solved first, on two items per
    level: the solution does not depend on the number of items the kernel is then given)."""
    from ldpspec.reference.gu2020.idue import solve_levels
    from ldpspec.reference.gu2020.levels import PrivacyLevels, benchmark_levels, verify_idue

    levels = benchmark_levels(d)
    solution = solve_levels(PrivacyLevels.from_sizes(levels.budgets, [2] * levels.count), r=KERNEL_NOTIONS[notion])
    return Operation(lambda: verify_idue(levels, solution.a, solution.b, KERNEL_NOTIONS[notion]),
                     {"levels": levels.count}, lambda verdict: {"holds": verdict.holds})


def _explicit_profile(d: int) -> Operation:
    """``ldpspec profile`` of an explicit d x d channel file, in memory: the file is read (every entry exact) and
    profiled. Its rows are random rationals (weights 1 .. 49 over their sum), so no structure helps."""
    from ldpspec.reference.channelfile import channel_file_text, parse_channel_file
    from ldpspec.spec import Channel, loss_profile

    weights = np.random.default_rng(1).integers(1, 50, size=(d, d))
    rows = [[Fraction(int(w), int(row.sum())) for w in row] for row in weights]
    text = channel_file_text(Channel(tuple(range(d)), tuple(range(d)), rows))

    def profile():
        channel = parse_channel_file(text, max_entries=d * d).channel
        return json.dumps(loss_profile(channel, max_work=d ** 3))

    return Operation(profile, {}, lambda document: {"json_mb": len(document) / 1e6})


def explicit_file_text(d: int, seed: int = 1) -> str:
    """The text of a d x d channel file of random rational rows (weights 1 .. 49 over their sum, written as fractions
    ``w/s``) with an LDP budget and MinID-LDP budgets, written directly: building the exact channel to write it would
    take longer than the measurement."""
    weights = np.random.default_rng(seed).integers(1, 50, size=(d, d))
    totals = weights.sum(axis=1)
    rows = ",\n".join("  [" + ", ".join(f'"{w}/{total}"' for w in row.tolist()) + "]"
                       for row, total in zip(weights, totals.tolist()))
    privacy = {"epsilon": EXPLICIT_EPSILON, "budgets": [EXPLICIT_BUDGETS[k % len(EXPLICIT_BUDGETS)] for k in range(d)]}
    return (f'{{\n "format": "ldpspec-channel/1",\n "inputs": {json.dumps(list(range(d)))},\n "outputs": '
            f'{json.dumps(list(range(d)))},\n "probabilities": [\n{rows}\n ],\n "privacy": {json.dumps(privacy)}\n}}\n')


def _explicit_check(mode: str, d: int) -> Operation:
    """A d x d channel file (``explicit_file_text``, made first) read exactly and then checked for LDP or MinID-LDP,
    or profiled as ``ldpspec profile`` prints it by default (the summary): the whole command, reading included."""
    from ldpspec.reference.channelfile import parse_channel_file
    from ldpspec.spec import NOTIONS, summary_profile

    text = explicit_file_text(d)
    work = d ** 3  # the pairwise limit raised as --max-work would

    def run():
        read = parse_channel_file(text, max_entries=d * d, max_pair_work=None if mode == "ldp" else work)
        if mode == "profile":
            return json.dumps(summary_profile(read.channel, max_work=work))
        values = {"epsilon": read.privacy["epsilon"]} if mode == "ldp" else {"budgets": read.privacy["budgets"]}
        return NOTIONS[mode].check(read.channel, values, max_work=work)

    def describe(result) -> dict:
        return {"summary_kb": len(result) / 1e3} if mode == "profile" else {"holds": result.holds}

    return Operation(run, {}, describe)

"""Benchmark: time and peak memory of every registered mechanism's twin, beside multi-freq-ldpy and pure-ldp.

    pip install -e '.[bench]'
    python -m ldpspec.reference.tools.benchmark                 # every row
    python -m ldpspec.reference.tools.benchmark --set-valued    # only the set-valued rows
    python -m ldpspec.reference.tools.benchmark --ipldp         # only the per-item-budget rows and the estimators
    python -m ldpspec.reference.tools.benchmark --numeric       # only the mechanisms for numbers and HierA
    python -m ldpspec.reference.tools.benchmark --kernel        # only the kernel's verdicts on IDUE at 10^5 items

Sizes are pinned: every mechanism at (n, d) = (1e5, 100), (1e6, 100), (1e6, 1000), and the set-valued mechanisms
(users holding sets of ``m`` items, Cao et al. 2022: those that take the parameter ``m`` of
``reference.cao2022.sets``) also at (n, d, m) = (1e6, 256, 8). Each registered mechanism brings its workload
(``Mechanism.workload``): the mechanism at eps = 1 over about ``d`` items (IDUE and IDUE-PS: three levels
{1, 1.2, 2} holding 5%, 5% and 90% of the items, solved by opt0 before timing; IDUE-PS and its baselines: padding
length 4 and sets of 1 to 8 items; Cao et al.'s mechanisms: every user a uniform set of ``m = min(8, d)`` items,
the first ``d // 4`` items sensitive, so items 0..63 at d = 256, and their baselines every item; ``padded``: sets
of 1 to ``2m`` items, padded or sampled to ``m``) and ``n`` users' inputs. Two operations:

* **reports**: every user's report, kept in memory (ours: the twin's arrays, bit vectors packed eight to a byte;
  the peers: their per-user client called once per user, the reports kept in a list);
* **simulation**: the server's counts drawn directly (ours only; the peers have no such operation).

The set-valued rows are a table of their own, with ``m`` and the sensitive items. No public Python library
implements Cao et al.'s mechanisms: they are compared with our own baselines GRR-Sample and RAPPOR-Sample
(``SET_BASELINES``), measured in the same run.

The mechanisms with per-item budgets (the IPLDP preprint's IPRR, KRR and URR: those that take the parameter
``budgets`` of ``reference.mechanism.ITEM_BUDGETS``) are a table of their own at (n, d) = (1e6, 100) and
(1e6, 1e4), reports and simulation, beside the peers' GRR clients at eps = 1 (no peer implements them), measured in
the same run; their workloads: IPRR with half the items non-sensitive and four budget levels in [0.1, 10] on the
other half, KRR at eps = 0.1 over every item (``Grr.from_budgets``), uRR at eps = 1 with the first ``d // 4`` items
sensitive, every user's item uniform. A third table times the estimators of ``reference.shared.direct`` at
(1e6, 1e4) on the counts of the reports of each of them and of GRR at eps = 1: the empirical estimate, Norm-Sub (of
the empirical estimate), the MLE in closed form (``mle_np``, water-filling) and the same MLE by EM to the l1
tolerance 1e-10 (``em``: at most 100,000 iterations; the iterations and whether it converged are shown),
beside multi-freq-ldpy's GRR estimators on the same GRR counts: ``MI``
(the inverse clipped at 0 and rescaled) and ``IBU`` (its EM on the dense d x d matrix, capped at
``PEER_IBU_ITERATIONS``, since it costs d^2 per iteration). The counts and the channel's column structure in
floats are made before timing; making the structure (exact) and converting it to floats is shown as *preparation*.

The mechanisms for a number of [-1, 1] (those with a ``grid`` parameter: Harmony, PM, Laplace, graded Laplace,
LHP) are a table of their own at n = 1e6 and 1e7, every user's number uniform on [-1, 1]: **reports** (every
user's release), **estimate** (the server's estimate from the reports, which are made before timing) and
**simulation** (the server's statistic drawn directly); and the whole of HierA (``hiera``: LHP's reports drawn a
million users at a time and counted, then PLC and steps 5-7 with mu = 2, reading A, clipped as printed) on the
paper's five levels with eps_0 = 1. No package the registries hold implements PM or Harmony (pure-ldp,
multi-freq-ldpy and ldp-toolbox 0.1.3 have frequency oracles only), so the reference points are plain NumPy
versions of the two written from the papers in this script (``numpy-plain``), measured in the same run.

The main table gives the **cost per released bit** of every reports row (nanoseconds per bit the users release in
all: ``d`` per user for a bit vector, the released bits for IDUE-PS and its baselines, ``log2 d`` for one item of
``d``; a peer's row is divided by the same count as ours), so that the distance to the hardware's limit shows.

The kernel's rows (``--kernel``, sizes ``NxD:kernel``) time the kernel's verdict, MinID-LDP and AvgID-LDP, on IDUE
over ``D`` items in the workload's three levels (by default 100,000 items): the channel's items come in classes,
which the kernel judges a pair of classes at a time. Beside them, ``ldpspec profile`` of an explicit d x d channel
file with random rational rows, at d = 50 and 100, and the time extrapolated to d = 2000 by its d^3 pairwise work.

Each measurement runs in a fresh subprocess. Time is wall-clock time of the operation alone (data
and parameters are made first). Peak memory is the growth of the process's resident set during the
operation: the kernel's high-water mark is reset just before it (Linux ``/proc/self/clear_refs``).
Library versions and the machine are printed with the table.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import time
from collections import Counter
from fractions import Fraction

SIZES = ((100_000, 100), (1_000_000, 100), (1_000_000, 1000))
"""(n, d) at which every registered mechanism is measured."""
SET_SIZES = ((1_000_000, 256),)
"""(n, d) at which the set-valued mechanisms are measured as well: their workloads give every user a uniform set of
m = min(8, d) items (m = 8 here) with the first d // 4 items sensitive (items 0..63 here)."""
SET_BASELINES = ("grr-sample", "rappor-sample")
"""The set-valued rows' reference points: Cao et al.'s baselines (Sec. 2.3), ours, as no peer implements these."""
IPLDP_SIZES = ((1_000_000, 100), (1_000_000, 10_000))
"""(n, d) at which the mechanisms with per-item budgets are measured (reports and simulation)."""
ESTIMATOR_SIZES = ((1_000_000, 10_000),)
"""(n, d) at which the estimators of a direct encoding are measured."""
IPLDP_PEER = "grr"
"""The peers' mechanism beside which the per-item-budget mechanisms are measured (no peer implements them)."""
ESTIMATORS = ("empirical", "norm-sub", "mle", "em")
"""Our estimators of a direct encoding (``reference.shared.direct``), in floats."""
PEER_ESTIMATORS = {"multi-freq-ldpy": ("mi", "ibu")}
"""The peers' GRR estimators, on the same GRR counts as ours."""
ESTIMATOR_BASELINE = "grr"
"""The registered mechanism whose counts the peers' estimators are given (GRR at eps = 1, as the peers' clients)."""
EM_TOLERANCE, EM_MAX_ITERATIONS = 1e-10, 100_000
"""EM's stopping rule in the estimator rows: the l1 change of an iteration, and the cap."""
PEER_IBU_ITERATIONS = 100
"""The cap on multi-freq-ldpy's IBU iterations (each multiplies the dense d x d matrix twice)."""
LIBRARIES = ("ldpspec", "multi-freq-ldpy", "pure-ldp", "numpy-plain")
PEER_MECHANISMS = {"multi-freq-ldpy": ("grr", "oue", "sue"), "pure-ldp": ("grr", "oue", "sue"), "numpy-plain": ()}
"""The registered mechanisms each peer library implements."""
EPSILON = 1.0  # the peers' budget, as in every workload
NUMERIC_SIZES = (1_000_000, 10_000_000)
"""The numbers of users at which the mechanisms for numbers are measured."""
NUMERIC_MODES = ("reports", "estimate", "simulation")
PLAIN = "numpy-plain"
"""The reference points of the numeric rows: Harmony and PM written plainly in NumPy below."""
PLAIN_MECHANISMS = ("harmony", "pm")
HIERA = "hiera"
"""The row of the whole HierA pipeline (LHP's reports, counts, PLC, the estimate)."""


def _plain_numpy(name: str, values):
    """Harmony and PM as their papers state them, in plain NumPy at eps = EPSILON: one release per user."""
    import numpy as np

    rng = np.random.default_rng(2)
    if name == "harmony":  # Nguyen et al.: discretise, randomised response, calibrate
        e = np.exp(EPSILON)
        scale = (e + 1) / (e - 1)

        def release():
            bits = np.where(rng.random(len(values)) < (1 + values) / 2, 1.0, -1.0)
            return np.where(rng.random(len(values)) < e / (e + 1), bits, -bits) * scale
        return release
    half = np.exp(EPSILON / 2)  # Wang et al. 2019, Algorithm 2
    C = (half + 1) / (half - 1)

    def release():
        low = (C + 1) / 2 * values - (C - 1) / 2
        high = low + C - 1
        centre = rng.random(len(values)) < half / (half + 1)
        inside = low + (high - low) * rng.random(len(values))
        left = rng.random(len(values)) < (low + C) / (C + 1)  # which tail, by its length
        u = rng.random(len(values))
        tail = np.where(left, -C + (low + C) * u, high + (C - high) * u)
        return np.where(centre, inside, tail)
    return release


def numeric(declaration) -> bool:
    """Whether the mechanism takes a number of [-1, 1] (it has a ``grid`` of inputs for its exact channel)."""
    return any(parameter.name == "grid" for parameter in declaration.parameters)


def _memory_kib(field: str) -> int:
    with open("/proc/self/status", encoding="ascii") as status:
        for line in status:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    raise RuntimeError(f"{field} not in /proc/self/status")


def _reset_peak() -> None:
    with open("/proc/self/clear_refs", "w", encoding="ascii") as handle:
        handle.write("5")  # resets VmHWM to the current resident set


def _peer(library: str, name: str, d: int, values: list):
    """The peer's per-user client for mechanism ``name``, or ``None`` when the peer has no such mechanism."""
    if library == "multi-freq-ldpy":
        from multi_freq_ldpy.pure_frequency_oracles.GRR import GRR_Client
        from multi_freq_ldpy.pure_frequency_oracles.UE import UE_Client

        if name == "grr":
            GRR_Client(0, d, EPSILON)  # compile (numba) before timing
            return lambda: [GRR_Client(x, d, EPSILON) for x in values]
        if name in ("oue", "sue"):
            optimal = name == "oue"
            UE_Client(0, d, EPSILON, optimal)
            return lambda: [UE_Client(x, d, EPSILON, optimal) for x in values]
        return None
    if library == "pure-ldp":
        from pure_ldp.frequency_oracles.direct_encoding import DEClient
        from pure_ldp.frequency_oracles.unary_encoding import UEClient

        if name == "grr":
            client = DEClient(EPSILON, d)
        elif name in ("oue", "sue"):
            client = UEClient(EPSILON, d, use_oue=name == "oue")
        else:
            return None
        return lambda: [client.privatise(x + 1) for x in values]  # pure-ldp numbers items from 1
    raise ValueError(library)


def set_valued(declaration) -> bool:
    """Whether every user of the mechanism holds a set of ``m`` items (it takes the parameter ``m`` of Cao et al.'s
    set-valued mechanisms)."""
    from ldpspec.reference.cao2022.sets import SET_SIZE

    return any(parameter is SET_SIZE for parameter in declaration.parameters)


def per_item_budgets(declaration) -> bool:
    """Whether the mechanism takes one budget per item (the IPLDP preprint's IPRR and its baselines KRR and URR)."""
    from ldpspec.reference.mechanism import ITEM_BUDGETS

    return any(parameter.name == ITEM_BUDGETS.name and parameter.kind == ITEM_BUDGETS.kind
               for parameter in declaration.parameters)


def _sensitive(mechanism) -> str:
    """The sensitive items of a set-valued mechanism, in a few words: ``all 256``, ``64: 0..63``."""
    sensitive = tuple(mechanism.sensitive)
    if len(sensitive) == mechanism.d:
        return f"all {mechanism.d}"
    if sensitive == tuple(range(len(sensitive))):
        return f"{len(sensitive)}: 0..{len(sensitive) - 1}"
    return str(len(sensitive))


def _estimator_operation(library: str, name: str, mode: str, n: int, d: int):
    """An estimator on the counts of ``n`` users' reports (made first): ours on the mechanism's column structure in
    floats, the peer's on GRR's counts."""
    import numpy as np

    from ldpspec.reference.registry import MECHANISMS
    from ldpspec.reference.shared.direct import ColumnStructure, em_np, empirical_np, mle_np, norm_sub_np

    mechanism, inputs = MECHANISMS[name].workload(n, d, np.random.default_rng(1))
    counts = mechanism.twin.counts(mechanism.twin.reports(inputs, np.random.default_rng(2)))
    if library == "multi-freq-ldpy":
        from multi_freq_ldpy.estimators.Histogram_estimator import IBU, MI

        p, q = float(mechanism.p), float(mechanism.q)
        observed = counts.astype(float)
        if mode == "mi":
            return (lambda: MI(observed, n, p, q)), {}, None
        matrix = np.full((d, d), q)
        np.fill_diagonal(matrix, p)
        frequencies = observed / observed.sum()
        IBU(2, np.array([[p, q], [q, p]]), np.array([0.5, 0.5]), 1, 1e-12, "max_abs")  # compile (numba) first
        return ((lambda: IBU(d, matrix, frequencies, PEER_IBU_ITERATIONS, 1e-12, "max_abs")),
                {"iterations": f"at most {PEER_IBU_ITERATIONS} (cap)"}, None)
    start = time.perf_counter()
    exact = mechanism.structure()
    structure = ColumnStructure([float(v) for v in exact.base], [float(v) for v in exact.extra])
    shape = {"preparation_seconds": time.perf_counter() - start}
    if mode == "empirical":
        return (lambda: empirical_np(structure, counts)), shape, None
    if mode == "norm-sub":
        values = empirical_np(structure, counts)
        return (lambda: norm_sub_np(values)), shape, None
    if mode == "mle":  # the closed form of a column-structured channel
        return (lambda: mle_np(structure, counts)), shape, None
    return ((lambda: em_np(structure, counts, EM_TOLERANCE, EM_MAX_ITERATIONS)), shape,
            lambda result: {"iterations": result.iterations, "converged": result.converged})


def _operation(library: str, name: str, mode: str, n: int, d: int):
    """Prepare data and parameters; return the operation to time (``None`` if the library lacks it), what the
    workload is beyond ``n`` and ``d`` (``m`` and the number of sensitive items, for a set-valued mechanism), and
    what to record of the operation's result (``None``: nothing)."""
    import numpy as np

    from ldpspec.reference.registry import MECHANISMS

    if mode in ESTIMATORS or mode in PEER_ESTIMATORS.get(library, ()):
        return _estimator_operation(library, name, mode, n, d)
    if mode in KERNEL_NOTIONS:
        return _kernel_operation(mode, d)
    if mode == EXPLICIT_PROFILE:
        return _explicit_profile_operation(d)
    if name == HIERA or numeric(MECHANISMS[name]):
        return _numeric_operation(library, name, mode, n)
    if library != "ldpspec" and (mode != "reports" or name not in PEER_MECHANISMS[library]):
        return None, {}, None
    mechanism, inputs = MECHANISMS[name].workload(n, d, np.random.default_rng(1))
    shape = {"m": mechanism.m, "sensitive": _sensitive(mechanism)} if set_valued(MECHANISMS[name]) else {}
    if library != "ldpspec":
        return _peer(library, name, d, np.asarray(inputs).tolist()), shape, None
    rng = np.random.default_rng(2)
    if mode == "reports":
        return (lambda: mechanism.twin.reports(inputs, rng)), shape, lambda reports: _released_bits(mechanism, reports)
    values = inputs if isinstance(inputs, list) else inputs.tolist()
    # users of each input, or of each set (a list, or an array row for sets of several sizes)
    population = Counter(tuple(v) if isinstance(v, (list, np.ndarray)) else v for v in values)
    return (lambda: mechanism.twin.simulate_counts(population, rng)), shape, None


def _kernel_operation(notion: str, d: int):
    """The kernel's verdict on IDUE over ``d`` items in the workload's three levels (solved first, on two items per
    level: the solution does not depend on the number of items the kernel is then given)."""
    from ldpspec.reference.gu2020.idue import PrivacyLevels, benchmark_levels, solve_levels, verify_idue

    levels = benchmark_levels(d)
    solution = solve_levels(PrivacyLevels.from_sizes(levels.budgets, [2] * levels.count), r=KERNEL_NOTIONS[notion])
    return ((lambda: verify_idue(levels, solution.a, solution.b, KERNEL_NOTIONS[notion])),
            {"levels": levels.count}, lambda verdict: {"holds": verdict.holds})


def _explicit_profile_operation(d: int):
    """``ldpspec profile`` of an explicit d x d channel file, in memory: the file is read (every entry exact) and
    profiled. Its rows are random rationals (weights 1 .. 49 over their sum), so no structure helps."""
    import numpy as np

    from ldpspec.spec.channel import Channel
    from ldpspec.spec.channelfile import channel_file_text, parse_channel_file
    from ldpspec.spec.loss import loss_profile

    weights = np.random.default_rng(1).integers(1, 50, size=(d, d))
    rows = [[Fraction(int(w), int(row.sum())) for w in row] for row in weights]
    text = channel_file_text(Channel(tuple(range(d)), tuple(range(d)), rows))

    def profile():
        channel = parse_channel_file(text, max_entries=d * d).channel
        return json.dumps(loss_profile(channel, max_work=d ** 3))

    return profile, {}, lambda document: {"json_mb": len(document) / 1e6}


def _released_bits(mechanism, reports) -> dict:
    """``{"released_bits": ...}``: the bits every user releases, in all, for the cost per released bit. A report
    packed as a bit vector releases its bits (``d``, or fewer for IDUE-PS releasing only the sampled bits); a report
    of one item of ``d`` releases ``log2 d`` bits. Other reports (sets of items, numbers) have no such count."""
    import numpy as np

    from ldpspec.reference.sampling import PackedItems

    if not len(reports) or reports.dtype.kind not in "ui":
        return {}
    head = reports.chunk(0, min(8, len(reports))) if isinstance(reports, PackedItems) else reports[:1]
    first = mechanism.twin.outputs(head)[0]  # the release as the channel labels it
    if isinstance(first, tuple) and first and all(type(bit) is int and bit in (0, 1) for bit in first):
        per_report = len(first)  # a bit vector
    elif type(first) is int:
        per_report = float(np.log2(getattr(mechanism, "d", 2)))  # one item of d (RR: one of two)
    else:
        return {}
    return {"released_bits": len(reports) * per_report}


def _numeric_operation(library: str, name: str, mode: str, n: int):
    """The operation of a numeric row: ``d`` plays no part (the workloads fix their levels or budgets)."""
    import numpy as np

    from ldpspec.reference.hiera2023.hiera import HierA
    from ldpspec.reference.registry import MECHANISMS

    rng = np.random.default_rng(2)
    if library == PLAIN:
        if name not in PLAIN_MECHANISMS or mode != "reports":
            return None, {}, None
        return _plain_numpy(name, np.random.default_rng(1).uniform(-1, 1, n)), {}, None
    if name == HIERA:
        lhp, values = MECHANISMS["lhp"].workload(n, 0, np.random.default_rng(1))
        hiera = HierA(lhp, mu=2, compensation="A", size="all", clip=True)
        return (lambda: hiera.twin.estimate(lhp.twin.counts_of(values, rng), n, rng)), {}, None
    mechanism, values = MECHANISMS[name].workload(n, 0, np.random.default_rng(1))
    if mode == "reports":
        return (lambda: mechanism.twin.reports(values, rng)), {}, None
    if mode == "estimate":
        reports = mechanism.twin.reports(values, rng)
        return (lambda: mechanism.twin.estimate(mechanism.twin.counts(reports), n)), {}, None
    grid = [float(v) for v in mechanism.grid]  # the population on the grid: each user's number rounded to it
    nearest = np.abs(values[:, None] - np.array(grid)[None, :]).argmin(axis=1)
    population = np.bincount(nearest, minlength=len(grid))
    return (lambda: mechanism.twin.simulate_counts(population, rng)), {}, None


def measure(library: str, name: str, mode: str, n: int, d: int) -> dict | None:
    """One measurement, in this process."""
    operation, shape, describe = _operation(library, name, mode, n, d)
    if operation is None:
        return None
    before = _memory_kib("VmRSS")
    _reset_peak()
    start = time.perf_counter()
    result = operation()
    seconds = time.perf_counter() - start
    peak = _memory_kib("VmHWM")
    if describe is not None:
        shape = {**shape, **describe(result)}
    del result
    return {"seconds": seconds, "peak_mib": max(0, peak - before) / 1024, **shape}


def _versions() -> dict:
    from importlib.metadata import PackageNotFoundError, version

    found = {}
    for package in ("ldpspec", "numpy", "multi-freq-ldpy", "pure-ldp", "numba"):
        try:
            found[package] = version(package)
        except PackageNotFoundError:
            found[package] = "not installed"
    return found


def _run(library, name, mode, n, d) -> dict | None:
    command = [sys.executable, "-m", "ldpspec.reference.tools.benchmark", "--one", library, name, mode, str(n), str(d)]
    result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode != 0:
        print(f"  {library} {name} {mode} n={n} d={d} failed: {result.stderr.strip().splitlines()[-1:]}",
              file=sys.stderr)
        return None
    return json.loads(result.stdout.strip().splitlines()[-1])


KERNEL_SIZES = ((0, 100_000),)
"""(n, d) of the kernel's rows: IDUE over d items in three levels (n plays no part)."""
KERNEL_NOTIONS = {"minid-ldp": "min", "avgid-ldp": "avg"}
"""The kernel's rows: each notion of IDUE's channel over all of its items."""
EXPLICIT_PROFILE = "profile-explicit"
EXPLICIT_PROFILE_SIZES = (50, 100)
"""d of the explicit profile rows (``--kernel``, sizes ``0xD:profile``): a d x d channel file, read and profiled; the
target is stated at d = 2000, which these rows extrapolate to by the d^3 pairwise work."""

SIZE_KINDS = {"": "every mechanism", "sets": "the set-valued mechanisms only", "kernel": "the kernel's verdicts",
              "profile": "ldpspec profile of an explicit D x D channel file (N is ignored)",
              "numeric": "the mechanisms for numbers and HierA (D is ignored)",
              "ipldp": "the mechanisms with per-item budgets, beside the peers' GRR clients",
              "estimators": "the estimators of a direct encoding"}
"""What a size ``NxD:KIND`` measures, by kind."""


def _sizes(text: str) -> list[tuple[int, int, str]]:
    """``NxD`` (every mechanism) and ``NxD:KIND`` (a kind of ``SIZE_KINDS``), comma-separated, as
    ``(n, d, kind)``."""
    sizes = []
    for size in text.split(","):
        dimensions, _, kind = size.partition(":")
        try:
            n, d = (int(value) for value in dimensions.split("x"))
        except ValueError:
            raise argparse.ArgumentTypeError(f"a size is NxD or NxD:KIND, KIND one of "
                                             f"{', '.join(k for k in SIZE_KINDS if k)}; got {size!r}") from None
        if kind not in SIZE_KINDS:
            raise argparse.ArgumentTypeError(f"a size is NxD or NxD:KIND, KIND one of "
                                             f"{', '.join(k for k in SIZE_KINDS if k)}; got {size!r}")
        sizes.append((n, d, kind))
    return sizes


def _row(cells) -> None:
    print("| " + " | ".join(str(cell) for cell in cells) + " |", flush=True)


def _measure_ipldp_rows(sizes, names, libraries) -> list:
    """The mechanisms with per-item budgets (reports and simulation), then the peers' GRR clients, at each size."""
    rows = []
    for n, d in sizes:
        jobs = [(name, mode, "ldpspec") for name in names for mode in ("reports", "simulation")
                if "ldpspec" in libraries]
        jobs += [(IPLDP_PEER, "reports", library) for library in libraries
                 if library != "ldpspec" and IPLDP_PEER in PEER_MECHANISMS[library]]
        for name, mode, library in jobs:
            result = _run(library, name, mode, n, d)
            if result is not None:
                rows.append((name, n, d, mode, library, result))
                _row([name, f"{n:,}", d, mode, library, f"{result['seconds']:.3f}", f"{result['peak_mib']:.1f}"])
    print()
    return rows


def _measure_numeric_rows(sizes, names, libraries) -> list:
    """The mechanisms for numbers (reports, estimate, simulation), the HierA pipeline, and the plain NumPy Harmony
    and PM, at each number of users."""
    rows = []
    for n, _ in sizes:
        jobs = [(name, mode, "ldpspec") for name in names for mode in NUMERIC_MODES if "ldpspec" in libraries]
        jobs += [(HIERA, "pipeline", "ldpspec")] if "ldpspec" in libraries else []
        jobs += [(name, "reports", PLAIN) for name in PLAIN_MECHANISMS if name in names and PLAIN in libraries]
        for name, mode, library in jobs:
            result = _run(library, name, mode, n, 0)
            if result is not None:
                rows.append((name, n, mode, library, result))
                _row([name, f"{n:,}", mode, library, f"{result['seconds']:.3f}", f"{result['peak_mib']:.1f}"])
    print()
    return rows


def _measure_estimator_rows(sizes, names, libraries) -> list:
    """Our estimators on the counts of each mechanism, then the peers' on GRR's counts, at each size."""
    rows = []
    for n, d in sizes:
        jobs = [(name, mode, "ldpspec") for name in names for mode in ESTIMATORS if "ldpspec" in libraries]
        jobs += [(ESTIMATOR_BASELINE, mode, library) for library in libraries
                 for mode in PEER_ESTIMATORS.get(library, ())]
        for name, mode, library in jobs:
            result = _run(library, name, mode, n, d)
            if result is None:
                continue
            rows.append((name, n, d, mode, library, result))
            converged = {True: "yes", False: "no", None: ""}[result.get("converged")]
            preparation = result.get("preparation_seconds")
            _row([name, f"{n:,}", d, mode, library, f"{result['seconds']:.4f}", f"{result['peak_mib']:.1f}",
                  result.get("iterations", ""), converged, "" if preparation is None else f"{preparation:.2f}"])
    print()
    return rows


def _measure_rows(sizes, names, libraries, set_columns: bool) -> list:
    """Measure and print every row (in a subprocess each); return them. The main table gives the cost per released
    bit of every reports row whose release is a bit vector or one item (the peers' rows: the same release as ours)."""
    rows = []
    for n, d in sizes:
        for name in names:
            released = None
            for library in libraries:
                if library != "ldpspec" and name not in PEER_MECHANISMS[library]:
                    continue
                for mode in ("reports", "simulation") if library == "ldpspec" else ("reports",):
                    result = _run(library, name, mode, n, d)
                    if result is None:
                        continue
                    rows.append((name, n, d, mode, library, result))
                    if mode == "reports":
                        released = result.get("released_bits", released)
                    if set_columns:
                        last = f" {result['m']} | {result['sensitive']} |"
                    else:
                        cost = 1e9 * result["seconds"] / released if mode == "reports" and released else None
                        last = f" {'' if cost is None else f'{cost:.2f}'} |"
                    print(f"| {name} | {n:,} | {d} | {mode} | {library} | {result['seconds']:.3f} | "
                          f"{result['peak_mib']:.1f} |{last}", flush=True)
    print()
    return rows


def _versus(ours: dict, theirs: dict, baseline: str) -> str:
    """Our time and peak memory as multiples of a baseline's (no ratio to a peak under 1 MiB: that is noise)."""
    duration = f"{ours['seconds'] / theirs['seconds']:.2f}x the time"
    if theirs["peak_mib"] < 1:
        return f"{duration} of {baseline} (its peak memory is under 1 MiB: no ratio)"
    return f"{duration} and {ours['peak_mib'] / theirs['peak_mib']:.2f}x the peak memory of {baseline}"


def main(argv=None) -> int:
    from ldpspec.reference.registry import MECHANISMS

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--one", nargs=5, metavar=("LIBRARY", "MECHANISM", "MODE", "N", "D"), help=argparse.SUPPRESS)
    default_sizes = ([f"{n}x{d}" for n, d in SIZES] + [f"{n}x{d}:sets" for n, d in SET_SIZES]
                     + [f"{n}x{d}:ipldp" for n, d in IPLDP_SIZES] + [f"{n}x{d}:estimators" for n, d in ESTIMATOR_SIZES]
                     + [f"{n}x0:numeric" for n in NUMERIC_SIZES] + [f"{n}x{d}:kernel" for n, d in KERNEL_SIZES]
                     + [f"0x{d}:profile" for d in EXPLICIT_PROFILE_SIZES])
    parser.add_argument("--sizes", type=_sizes, default=",".join(default_sizes),
                        help="comma-separated NxD (every mechanism) or NxD:KIND, KIND one of "
                             + "; ".join(f"{kind} ({meaning})" for kind, meaning in SIZE_KINDS.items() if kind)
                             + "; default: the pinned sizes")
    only = parser.add_mutually_exclusive_group()
    only.add_argument("--set-valued", action="store_true",
                      help="only the set-valued rows: the sizes NxD:sets (by default 1000000x256:sets, where the "
                           "workloads give m = 8)")
    only.add_argument("--ipldp", action="store_true",
                      help="only the rows of the mechanisms with per-item budgets (sizes NxD:ipldp) and of the "
                           "estimators (sizes NxD:estimators)")
    only.add_argument("--numeric", action="store_true",
                      help="only the rows of the mechanisms for numbers and of HierA (sizes NxD:numeric)")
    only.add_argument("--kernel", action="store_true",
                      help="only the kernel's rows: MinID-LDP and AvgID-LDP of IDUE over D items (sizes NxD:kernel), "
                           "and profiles of explicit D x D channel files (sizes 0xD:profile)")
    parser.add_argument("--libraries", default=",".join(LIBRARIES),
                        help="comma-separated, from " + ", ".join(LIBRARIES))
    parser.add_argument("--mechanisms", default=",".join(MECHANISMS),
                        help="comma-separated registered mechanisms (default: all)")
    arguments = parser.parse_args(argv)
    if arguments.one:
        library, name, mode, n, d = arguments.one
        print(json.dumps(measure(library, name, mode, int(n), int(d))))
        return 0

    def chosen(kind: str) -> list:
        selected = {"sets": arguments.set_valued, "ipldp": arguments.ipldp, "estimators": arguments.ipldp,
                    "numeric": arguments.numeric, "kernel": arguments.kernel, "profile": arguments.kernel}
        if any(selected.values()) and not selected.get(kind):
            return []
        return [(n, d) for n, d, size_kind in arguments.sizes if size_kind == kind]

    sizes, set_sizes, numeric_sizes, kernel_sizes = chosen(""), chosen("sets"), chosen("numeric"), chosen("kernel")
    profile_sizes = chosen("profile")
    ipldp_sizes, estimator_sizes = chosen("ipldp"), chosen("estimators")
    if arguments.set_valued and not set_sizes:
        parser.error("--set-valued needs a set-valued size (NxD:sets) among --sizes")
    if arguments.ipldp and not (ipldp_sizes or estimator_sizes):
        parser.error("--ipldp needs a size NxD:ipldp or NxD:estimators among --sizes")
    if arguments.numeric and not numeric_sizes:
        parser.error("--numeric needs a size NxD:numeric among --sizes")
    libraries = arguments.libraries.split(",")
    names = arguments.mechanisms.split(",")
    unknown = [name for name in names if name not in MECHANISMS]
    if unknown:
        parser.error(f"--mechanisms: unknown {', '.join(unknown)}; the registered mechanisms are "
                     f"{', '.join(MECHANISMS)}")
    print(f"machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}; "
          + ", ".join(f"{k} {v}" for k, v in _versions().items()))
    print(f"eps = {EPSILON}; time in seconds, peak memory in MiB\n")
    rows = []
    counted = [name for name in names if not numeric(MECHANISMS[name])]
    if sizes and counted:
        print("| mechanism | n | d | operation | library | time (s) | peak memory (MiB) | ns per released bit |")
        print("|---|---|---|---|---|---|---|---|")
        rows = _measure_rows(sizes, counted, libraries, set_columns=False)
    numeric_names = [name for name in names if numeric(MECHANISMS[name])]
    numeric_rows = []
    if numeric_sizes and numeric_names:
        print(f"Mechanisms for a number of [-1, 1] (every user's number uniform) and the HierA pipeline, beside "
              f"plain NumPy versions of Harmony and PM ({PLAIN}) at eps = {EPSILON}:\n")
        print("| mechanism | n | operation | library | time (s) | peak memory (MiB) |")
        print("|---|---|---|---|---|---|")
        numeric_rows = _measure_numeric_rows(numeric_sizes, numeric_names, libraries)
    set_names = [name for name in names if set_valued(MECHANISMS[name])]
    set_rows = []
    if set_sizes and set_names:
        print(f"Set-valued mechanisms (users hold sets of m items; Cao et al. 2022), beside the baselines "
              f"{', '.join(SET_BASELINES)}:\n")
        print("| mechanism | n | d | operation | library | time (s) | peak memory (MiB) | m | sensitive items |")
        print("|---|---|---|---|---|---|---|---|---|")
        set_rows = _measure_rows(set_sizes, set_names, libraries, set_columns=True)
    ipldp_names = [name for name in names if per_item_budgets(MECHANISMS[name])]
    ipldp_rows = []
    if ipldp_sizes and ipldp_names:
        print(f"Mechanisms with per-item budgets (the IPLDP preprint), beside the peers' {IPLDP_PEER.upper()} "
              f"clients at eps = {EPSILON}:\n")
        print("| mechanism | n | d | operation | library | time (s) | peak memory (MiB) |")
        print("|---|---|---|---|---|---|---|")
        ipldp_rows = _measure_ipldp_rows(ipldp_sizes, ipldp_names, libraries)
    estimator_names = ipldp_names + [name for name in names if name == ESTIMATOR_BASELINE]
    estimator_rows = []
    if estimator_sizes and estimator_names:
        print(f"Estimators of a direct encoding on the counts of n reports (EM to the l1 tolerance {EM_TOLERANCE:g}, "
              f"at most {EM_MAX_ITERATIONS:,} iterations), beside multi-freq-ldpy's on the counts of "
              f"{ESTIMATOR_BASELINE} at eps = {EPSILON}; preparation: the column structure, exact, then in floats "
              f"(not timed):\n")
        print("| mechanism | n | d | estimator | library | time (s) | peak memory (MiB) | EM iterations | converged "
              "| preparation (s) |")
        print("|---|---|---|---|---|---|---|---|---|---|")
        estimator_rows = _measure_estimator_rows(estimator_sizes, estimator_names, libraries)
    if kernel_sizes and "idue" in names and "ldpspec" in libraries:
        print("The kernel's verdict on IDUE over all of its items, in three levels {1, 1.2, 2} holding 5%, 5% and "
              "90% of them (solved first on two items per level):\n")
        print("| notion | items | levels | holds | time (s) | peak memory (MiB) |")
        print("|---|---|---|---|---|---|")
        for _, d in kernel_sizes:
            for notion in KERNEL_NOTIONS:
                result = _run("ldpspec", "idue", notion, 0, d)
                if result is not None:
                    _row([notion, f"{d:,}", result["levels"], result["holds"], f"{result['seconds']:.3f}",
                          f"{result['peak_mib']:.1f}"])
        print("\n(target: under 1 s each at 100,000 items)\n")

    if profile_sizes and "ldpspec" in libraries:
        print("`ldpspec profile` of an explicit d x d channel file (random rational rows), read and profiled in "
              "memory:\n")
        print("| d | time (s) | peak memory (MiB) | profile JSON (MB) | time at d = 2000 by d^3 (s) |")
        print("|---|---|---|---|---|")
        for _, d in profile_sizes:
            result = _run("ldpspec", "explicit", EXPLICIT_PROFILE, 0, d)
            if result is not None:
                _row([d, f"{result['seconds']:.2f}", f"{result['peak_mib']:.1f}", f"{result['json_mb']:.1f}",
                      f"{result['seconds'] * (2000 / d) ** 3:,.0f}"])
        print("\n(target: under 30 s and 2 GiB at d = 2000)\n")
    for n, d in sizes:
        for name in names:
            ours = [r for (m, nn, dd, mode, lib, r) in rows
                    if (m, nn, dd, mode, lib) == (name, n, d, "reports", "ldpspec")]
            peers = [(lib, r) for (m, nn, dd, mode, lib, r) in rows
                     if (m, nn, dd, mode) == (name, n, d, "reports") and lib != "ldpspec"]
            if ours and peers:
                fastest_library, fastest = min(peers, key=lambda item: item[1]["seconds"])
                memory = (f"{ours[0]['peak_mib'] / fastest['peak_mib']:.4f} of its peak memory"
                          if fastest["peak_mib"] >= 1 else "its peak memory is under 1 MiB (no ratio)")
                print(f"- {name} reports at n={n:,}, d={d}: {fastest['seconds'] / ours[0]['seconds']:.1f}x faster "
                      f"than the fastest peer ({fastest_library}), using {memory}")
    for n, d in set_sizes:  # no peer implements these: our own baselines are the reference points
        reports = {name: r for (name, nn, dd, mode, lib, r) in set_rows
                   if (nn, dd, mode, lib) == (n, d, "reports", "ldpspec")}
        baselines = [name for name in SET_BASELINES if name in reports]
        for name, ours in reports.items():
            if baselines and name not in baselines:
                print(f"- {name} reports at n={n:,}, d={d}, m={ours['m']}: "
                      + "; ".join(_versus(ours, reports[baseline], baseline) for baseline in baselines))
    for n, d in ipldp_sizes:  # no peer implements these: the peers' GRR clients are the reference points
        peers = {lib: r for (name, nn, dd, mode, lib, r) in ipldp_rows
                 if (name, nn, dd, mode) == (IPLDP_PEER, n, d, "reports") and lib != "ldpspec"}
        for name in ipldp_names:
            ours = [r for (m, nn, dd, mode, lib, r) in ipldp_rows
                    if (m, nn, dd, mode, lib) == (name, n, d, "reports", "ldpspec")]
            if ours and peers:
                print(f"- {name} reports at n={n:,}, d={d}: " + "; ".join(
                    f"{theirs['seconds'] / ours[0]['seconds']:.1f}x faster than {lib}'s {IPLDP_PEER.upper()} client"
                    for lib, theirs in peers.items()))
    for n, _ in numeric_sizes:
        for name in PLAIN_MECHANISMS:
            ours = [r for (m, nn, mode, lib, r) in numeric_rows
                    if (m, nn, mode, lib) == (name, n, "reports", "ldpspec")]
            plain = [r for (m, nn, mode, lib, r) in numeric_rows if (m, nn, mode, lib) == (name, n, "reports", PLAIN)]
            if ours and plain:
                print(f"- {name} reports at n={n:,}: {_versus(ours[0], plain[0], PLAIN)}")
        whole = [r for (m, nn, mode, lib, r) in numeric_rows if (m, nn) == (HIERA, n)]
        if whole:
            print(f"- HierA pipeline at n={n:,}: {whole[0]['seconds']:.2f} s and {whole[0]['peak_mib']:.0f} MiB "
                  "(target at n = 10,000,000: under 5 s and 1 GiB)")
    for name, n, d, mode, library, result in estimator_rows:
        if mode == "mle" and library == "ldpspec":
            print(f"- {name} MLE (closed form) at n={n:,}, d={d}: {result['seconds']:.3f} s")
        if mode == "em" and library == "ldpspec":
            print(f"- {name} MLE by EM at n={n:,}, d={d}: {result['seconds']:.3f} s, {result['iterations']:,} "
                  f"iterations, " + ("converged" if result["converged"] else
                                     f"not converged to {EM_TOLERANCE:g} within the cap"))
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Benchmark: time and peak memory of every registered mechanism's twin, beside multi-freq-ldpy and pure-ldp.

    pip install -e '.[bench]'
    python -m ldpspec.reference.tools.benchmark                 # every row
    python -m ldpspec.reference.tools.benchmark --set-valued    # only the set-valued rows

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

SIZES = ((100_000, 100), (1_000_000, 100), (1_000_000, 1000))
"""(n, d) at which every registered mechanism is measured."""
SET_SIZES = ((1_000_000, 256),)
"""(n, d) at which the set-valued mechanisms are measured as well: their workloads give every user a uniform set of
m = min(8, d) items (m = 8 here) with the first d // 4 items sensitive (items 0..63 here)."""
SET_BASELINES = ("grr-sample", "rappor-sample")
"""The set-valued rows' reference points: Cao et al.'s baselines (Sec. 2.3), ours, as no peer implements these."""
LIBRARIES = ("ldpspec", "multi-freq-ldpy", "pure-ldp")
PEER_MECHANISMS = {"multi-freq-ldpy": ("grr", "oue", "sue"), "pure-ldp": ("grr", "oue", "sue")}
"""The registered mechanisms each peer library implements."""
EPSILON = 1.0  # the peers' budget, as in every workload


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


def _sensitive(mechanism) -> str:
    """The sensitive items of a set-valued mechanism, in a few words: ``all 256``, ``64: 0..63``."""
    sensitive = tuple(mechanism.sensitive)
    if len(sensitive) == mechanism.d:
        return f"all {mechanism.d}"
    if sensitive == tuple(range(len(sensitive))):
        return f"{len(sensitive)}: 0..{len(sensitive) - 1}"
    return str(len(sensitive))


def _operation(library: str, name: str, mode: str, n: int, d: int):
    """Prepare data and parameters; return the operation to time (``None`` if the library lacks it) and what the
    workload is beyond ``n`` and ``d`` (``m`` and the number of sensitive items, for a set-valued mechanism)."""
    import numpy as np

    from ldpspec.reference.registry import MECHANISMS

    if library != "ldpspec" and (mode != "reports" or name not in PEER_MECHANISMS[library]):
        return None, {}
    mechanism, inputs = MECHANISMS[name].workload(n, d, np.random.default_rng(1))
    shape = {"m": mechanism.m, "sensitive": _sensitive(mechanism)} if set_valued(MECHANISMS[name]) else {}
    if library != "ldpspec":
        return _peer(library, name, d, np.asarray(inputs).tolist()), shape
    rng = np.random.default_rng(2)
    if mode == "reports":
        return (lambda: mechanism.twin.reports(inputs, rng)), shape
    values = inputs if isinstance(inputs, list) else inputs.tolist()
    # users of each input, or of each set (a list, or an array row for sets of several sizes)
    population = Counter(tuple(v) if isinstance(v, (list, np.ndarray)) else v for v in values)
    return (lambda: mechanism.twin.simulate_counts(population, rng)), shape


def measure(library: str, name: str, mode: str, n: int, d: int) -> dict | None:
    """One measurement, in this process."""
    operation, shape = _operation(library, name, mode, n, d)
    if operation is None:
        return None
    before = _memory_kib("VmRSS")
    _reset_peak()
    start = time.perf_counter()
    result = operation()
    seconds = time.perf_counter() - start
    peak = _memory_kib("VmHWM")
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


def _sizes(text: str) -> list[tuple[int, int, bool]]:
    """``NxD`` (every mechanism) and ``NxD:sets`` (the set-valued mechanisms only), comma-separated, as
    ``(n, d, set-valued only)``."""
    sizes = []
    for size in text.split(","):
        dimensions, _, kind = size.partition(":")
        try:
            n, d = (int(value) for value in dimensions.split("x"))
        except ValueError:
            raise argparse.ArgumentTypeError(f"a size is NxD or NxD:sets, got {size!r}") from None
        if kind not in ("", "sets"):
            raise argparse.ArgumentTypeError(f"a size is NxD or NxD:sets, got {size!r}")
        sizes.append((n, d, kind == "sets"))
    return sizes


def _measure_rows(sizes, names, libraries, set_columns: bool) -> list:
    """Measure and print every row (in a subprocess each); return them."""
    rows = []
    for n, d in sizes:
        for name in names:
            for library in libraries:
                if library != "ldpspec" and name not in PEER_MECHANISMS[library]:
                    continue
                for mode in ("reports", "simulation") if library == "ldpspec" else ("reports",):
                    result = _run(library, name, mode, n, d)
                    if result is None:
                        continue
                    rows.append((name, n, d, mode, library, result))
                    shape = f" {result['m']} | {result['sensitive']} |" if set_columns else ""
                    print(f"| {name} | {n:,} | {d} | {mode} | {library} | {result['seconds']:.3f} | "
                          f"{result['peak_mib']:.1f} |{shape}", flush=True)
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
    parser.add_argument("--sizes", type=_sizes,
                        default=",".join([f"{n}x{d}" for n, d in SIZES] + [f"{n}x{d}:sets" for n, d in SET_SIZES]),
                        help="comma-separated NxD (every mechanism) or NxD:sets (the set-valued mechanisms only); "
                             "default: the pinned sizes")
    parser.add_argument("--set-valued", action="store_true",
                        help="only the set-valued rows: the sizes NxD:sets (by default 1000000x256:sets, where the "
                             "workloads give m = 8)")
    parser.add_argument("--libraries", default=",".join(LIBRARIES),
                        help="comma-separated, from " + ", ".join(LIBRARIES))
    parser.add_argument("--mechanisms", default=",".join(MECHANISMS),
                        help="comma-separated registered mechanisms (default: all)")
    arguments = parser.parse_args(argv)
    if arguments.one:
        library, name, mode, n, d = arguments.one
        print(json.dumps(measure(library, name, mode, int(n), int(d))))
        return 0

    sizes = [(n, d) for n, d, sets_only in arguments.sizes if not (sets_only or arguments.set_valued)]
    set_sizes = [(n, d) for n, d, sets_only in arguments.sizes if sets_only]
    if arguments.set_valued and not set_sizes:
        parser.error("--set-valued needs a set-valued size (NxD:sets) among --sizes")
    libraries = arguments.libraries.split(",")
    names = arguments.mechanisms.split(",")
    print(f"machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}; "
          + ", ".join(f"{k} {v}" for k, v in _versions().items()))
    print(f"eps = {EPSILON}; time in seconds, peak memory in MiB\n")
    rows = []
    if sizes:
        print("| mechanism | n | d | operation | library | time (s) | peak memory (MiB) |")
        print("|---|---|---|---|---|---|---|")
        rows = _measure_rows(sizes, names, libraries, set_columns=False)
    set_names = [name for name in names if set_valued(MECHANISMS[name])]
    set_rows = []
    if set_sizes and set_names:
        print(f"Set-valued mechanisms (users hold sets of m items; Cao et al. 2022), beside the baselines "
              f"{', '.join(SET_BASELINES)}:\n")
        print("| mechanism | n | d | operation | library | time (s) | peak memory (MiB) | m | sensitive items |")
        print("|---|---|---|---|---|---|---|---|---|")
        set_rows = _measure_rows(set_sizes, set_names, libraries, set_columns=True)
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
    return 0


if __name__ == "__main__":
    sys.exit(main())

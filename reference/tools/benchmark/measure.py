"""One measurement: a row's operation, timed in a process of its own, with its peak memory (Linux ``/proc``).

Time is the wall-clock time of the operation alone (its data and parameters are made first). Peak memory is the
growth of the process's resident set during the operation: the kernel's high-water mark is reset just before it
(``/proc/self/clear_refs``). A fresh process for every measurement keeps one measurement's memory, caches and
compiled code out of the next.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from typing import NamedTuple

from ldpspec.reference.tools.benchmark.operations import operation

COMMAND = "ldpspec.reference.tools.benchmark"
"""The module a measurement's process runs (``python -m COMMAND --one ...``)."""


class Job(NamedTuple):
    """One measurement: the operation ``mode`` of mechanism ``name`` in ``library``, at ``n`` users and ``d``
    items."""

    name: str
    n: int
    d: int
    mode: str
    library: str


def measure(job: Job) -> dict | None:
    """The measurement, in this process: ``{"seconds", "peak_mib", ...}`` and what the operation records beside
    them; ``None`` when the library has no such operation."""
    prepared = operation(job.library, job.name, job.mode, job.n, job.d)
    if prepared.run is None:
        return None
    before = _memory_kib("VmRSS")
    _reset_peak()
    start = time.perf_counter()
    result = prepared.run()
    seconds = time.perf_counter() - start
    peak = _memory_kib("VmHWM")
    shape = prepared.shape if prepared.describe is None else {**prepared.shape, **prepared.describe(result)}
    del result
    return {"seconds": seconds, "peak_mib": max(0, peak - before) / 1024, **shape}


def measure_apart(job: Job) -> dict | None:
    """The measurement, in a process of its own (``--one``); ``None``, with a line on stderr, when it failed or the
    library has no such operation."""
    command = [sys.executable, "-m", COMMAND, "--one", job.library, job.name, job.mode, str(job.n), str(job.d)]
    result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode != 0:
        print(f"  {job.library} {job.name} {job.mode} n={job.n} d={job.d} failed: "
              f"{result.stderr.strip().splitlines()[-1:]}", file=sys.stderr)
        return None
    return json.loads(result.stdout.strip().splitlines()[-1])


def _memory_kib(field: str) -> int:
    with open("/proc/self/status", encoding="ascii") as status:
        for line in status:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    raise RuntimeError(f"{field} not in /proc/self/status")


def _reset_peak() -> None:
    with open("/proc/self/clear_refs", "w", encoding="ascii") as handle:
        handle.write("5")  # resets VmHWM to the current resident set

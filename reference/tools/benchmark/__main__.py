"""``python -m ldpspec.reference.tools.benchmark``: the benchmark's command line (the package's docstring says what
it measures). The hidden ``--one LIBRARY MECHANISM MODE N D`` is the one measurement each measurement's process
makes."""

from __future__ import annotations

import argparse
import json
import sys

from ldpspec.reference.registry import MECHANISMS
from ldpspec.reference.tools import benchmark
from ldpspec.reference.tools.benchmark.measure import Job, measure
from ldpspec.reference.tools.benchmark.peers import libraries
from ldpspec.reference.tools.benchmark.report import TABLES, print_report
from ldpspec.spec import value_text

ONLY = {
    "--set-valued": "only the set-valued rows: the sizes NxD:sets (by default 1000000x256:sets, where the workloads "
                    "give m = 8)",
    "--ipldp": "only the rows of the mechanisms with per-item budgets (sizes NxD:ipldp) and of the estimators (sizes "
               "NxD:estimators)",
    "--numeric": "only the rows of the mechanisms for numbers and of HierA (sizes NxD:numeric)",
    "--kernel": "only the kernel's rows: MinID-LDP and AvgID-LDP of IDUE over D items (sizes NxD:kernel), "
                "profiles of explicit D x D channel files (sizes 0xD:profile), and explicit D x D channel files read "
                "and checked or profiled (sizes 0xD:explicit)",
}
"""The options that measure only some tables (those whose ``Table.only`` is the option), with their help."""
KINDS = {table.kind: table.measures for table in TABLES}
"""What a size ``NxD:KIND`` measures, by kind (``""``: a plain ``NxD``)."""


def _sizes(text: str) -> list[tuple[int, int, str]]:
    """``NxD`` and ``NxD:KIND`` (a kind of ``KINDS``), comma-separated, as ``(n, d, kind)``."""
    sizes = []
    for size in text.split(","):
        dimensions, _, kind = size.partition(":")
        try:
            n, d = (int(value) for value in dimensions.split("x"))
        except ValueError:
            kind = None  # not NxD
        if kind not in KINDS:
            raise argparse.ArgumentTypeError(f"a size is NxD or NxD:KIND, KIND one of "
                                             f"{', '.join(known for known in KINDS if known)}; got {value_text(size)}")
        sizes.append((n, d, kind))
    return sizes


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m ldpspec.reference.tools.benchmark",
                                     description=benchmark.__doc__.split("\n\n")[0])
    parser.add_argument("--one", nargs=5, metavar=("LIBRARY", "MECHANISM", "MODE", "N", "D"), help=argparse.SUPPRESS)
    pinned = [f"{n}x{d}" + (f":{table.kind}" if table.kind else "") for table in TABLES for n, d in table.default]
    parser.add_argument("--sizes", type=_sizes, default=",".join(pinned),
                        help="comma-separated NxD (every mechanism not for numbers) or NxD:KIND, KIND one of "
                             + "; ".join(f"{kind} ({measures})" for kind, measures in KINDS.items() if kind)
                             + "; default: the pinned sizes")
    only = parser.add_mutually_exclusive_group()
    for option, meaning in ONLY.items():
        only.add_argument(option, action="store_true", help=meaning)
    parser.add_argument("--libraries", default=",".join(libraries()),
                        help="comma-separated, from " + ", ".join(libraries()))
    parser.add_argument("--mechanisms", default=",".join(MECHANISMS),
                        help="comma-separated registered mechanisms (default: all)")
    return parser


def main(argv=None) -> int:
    parser = _parser()
    arguments = parser.parse_args(argv)
    if arguments.one:
        library, name, mode, n, d = arguments.one
        print(json.dumps(measure(Job(name, int(n), int(d), mode, library))))
        return 0
    chosen = [option for option in ONLY if getattr(arguments, option[2:].replace("-", "_"))]
    sizes = {table.kind: [(n, d) for n, d, kind in arguments.sizes if kind == table.kind]
             for table in TABLES if not chosen or table.only in chosen}
    for option in chosen:
        kinds = [table.kind for table in TABLES if table.only == option]
        if not any(sizes[kind] for kind in kinds):
            parser.error(f"{option} needs a size {' or '.join(f'NxD:{kind}' for kind in kinds)} among --sizes")
    names, measured = arguments.mechanisms.split(","), arguments.libraries.split(",")
    for option, given, known, what in (("--mechanisms", names, MECHANISMS, "the registered mechanisms"),
                                       ("--libraries", measured, libraries(), "the libraries")):
        unknown = [value for value in given if value not in known]
        if unknown:
            parser.error(f"{option}: unknown {', '.join(unknown)}; {what} are {', '.join(known)}")
    print_report(sizes, names, measured)
    return 0


if __name__ == "__main__":
    sys.exit(main())

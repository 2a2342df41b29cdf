"""The ``ldpspec`` command line, for porters.

    ldpspec profile CHANNEL.json
        Print the privacy-loss profile as JSON (ldp_epsilon, pairwise and
        per-output losses, invertible outputs).

    ldpspec check CHANNEL.json --notion NAME [parameters]
        Print the verdict as JSON. Exit status 0 when the notion holds, 1 when
        it does not, 2 on bad input (the message on standard error names the
        parameter and what is allowed).

    ldpspec idue solve (--budgets JSON | --levels JSON) [--model opt0|opt1|opt2] [--notion min|avg]
        Print deployable IDUE parameters (per item and per level, decimal
        strings), the objective, the active constraints and the margin the
        kernel verified.

    ldpspec channel MECHANISM [parameters] [--output FILE]
        Write one of Gu et al.'s mechanisms as a channel file (for domains small
        enough to enumerate), with its budgets, for profile and check.

Parameters not given on the command line are taken from the channel file's
``privacy`` section.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from decimal import Decimal

from ldpspec.spec import notions
from ldpspec.spec.channelfile import read_channel_file
from ldpspec.spec.errors import SpecError
from ldpspec.spec.loss import loss_profile

NOTIONS = ("ldp", "id-ldp", "minid-ldp", "avgid-ldp", "uldp", *notions.SULDP_READINGS, "ipldp", "graded-ldp")


def _json_argument(text: str, name: str, *, numbers: bool = False):
    """Parse a JSON option. Labels turn JSON lists into tuples and non-integer numbers into
    floats; ``numbers=True`` (budgets, boundaries) keeps every digit of a number instead."""
    try:
        value = json.loads(text, parse_float=Decimal)
    except json.JSONDecodeError:
        raise SpecError(f"{name} must be JSON, for example '[\"a\", \"b\"]' or '[0.5, 1]'; got {text!r}") from None
    if numbers:
        return tuple(value) if isinstance(value, list) else value
    return _labels_from_json(value)


def _labels_from_json(value):
    if isinstance(value, Decimal):
        return float(value)
    if isinstance(value, list):
        return tuple(_labels_from_json(part) for part in value)
    return value


def _require(value, name: str, notion: str):
    if value is None:
        raise SpecError(f"notion {notion} needs {name}: give it on the command line or in the channel file's privacy section")
    return value


def _budgets_by_input(channel, values, name: str) -> dict:
    if not isinstance(values, tuple) or len(values) != len(channel.inputs):
        raise SpecError(f"{name} must be a JSON list with one budget per input ({len(channel.inputs)}), null for none")
    return {x: value for x, value in zip(channel.inputs, values) if value is not None}


def check(arguments) -> tuple[dict, bool]:
    """Run ``ldpspec check``; returns the verdict as JSON data and whether the notion holds."""
    stored = read_channel_file(arguments.channel)
    channel, notion = stored.channel, arguments.notion
    epsilon = arguments.epsilon if arguments.epsilon is not None else stored.epsilon
    budgets = (_budgets_by_input(channel, _json_argument(arguments.budgets, "--budgets", numbers=True), "--budgets")
               if arguments.budgets is not None and notion != "graded-ldp" else stored.budgets or None)
    sensitive = (_json_argument(arguments.sensitive, "--sensitive") if arguments.sensitive is not None
                 else stored.sensitive_inputs)
    protected = (_json_argument(arguments.protected, "--protected") if arguments.protected is not None
                 else stored.protected_outputs)

    if notion == "ldp":
        verdict = notions.ldp(channel, _require(epsilon, "--epsilon", notion))
    elif notion == "id-ldp":
        verdict = notions.id_ldp(channel, _require(budgets, "--budgets", notion),
                                 _require(arguments.pair_function, "--pair-function", notion))
    elif notion == "minid-ldp":
        verdict = notions.min_id_ldp(channel, _require(budgets, "--budgets", notion))
    elif notion == "avgid-ldp":
        verdict = notions.avg_id_ldp(channel, _require(budgets, "--budgets", notion))
    elif notion == "uldp":
        verdict = notions.uldp(channel, _require(sensitive, "--sensitive", notion),
                               _require(protected, "--protected", notion), _require(epsilon, "--epsilon", notion))
    elif notion in notions.SULDP_READINGS:
        sensitive = set(_require(sensitive, "--sensitive (the sensitive items)", notion))
        if arguments.non_sensitive is not None:
            non_sensitive = _json_argument(arguments.non_sensitive, "--non-sensitive")
        else:  # every other item that occurs in an input set
            non_sensitive = {item for s in channel.inputs if isinstance(s, tuple) for item in s} - sensitive
        verdict = notions.SULDP_READINGS[notion](channel, sensitive, non_sensitive,
                                                 _require(protected, "--protected", notion),
                                                 _require(epsilon, "--epsilon", notion))
    elif notion == "ipldp":
        verdict = notions.ipldp(channel, _require(budgets, "--budgets", notion))
    elif notion == "graded-ldp":
        boundaries = _json_argument(_require(arguments.boundaries, "--boundaries", notion), "--boundaries", numbers=True)
        level_budgets = _json_argument(_require(arguments.budgets, "--budgets (one per interval)", notion), "--budgets", numbers=True)
        if not isinstance(boundaries, tuple) or not isinstance(level_budgets, tuple):
            raise SpecError("--boundaries and --budgets must be JSON lists for graded-ldp")
        verdict = notions.graded_ldp(channel, boundaries, level_budgets,
                                     _require(arguments.pair_function, "--pair-function", notion))
    else:  # argparse restricts the choices
        raise SpecError(f"unknown notion {notion!r}")
    return verdict.to_json(), verdict.holds


# --- ldpspec idue solve ----------------------------------------------------------------------------

def _levels(arguments):
    from ldpspec.reference.gu2020.idue import PrivacyLevels

    if (arguments.budgets is None) == (arguments.levels is None):
        raise SpecError("give exactly one of --budgets (one budget per item) and --levels ([[budget, items], ...])")
    if arguments.budgets is not None:
        budgets = _json_argument(arguments.budgets, "--budgets", numbers=True)
        if not isinstance(budgets, tuple):
            raise SpecError("--budgets must be a JSON list with one budget per item")
        return PrivacyLevels.from_item_budgets(budgets)
    levels = _json_argument(arguments.levels, "--levels", numbers=True)
    if not isinstance(levels, tuple) or not all(isinstance(level, list) and len(level) == 2 for level in levels):
        raise SpecError("--levels must be a JSON list of [budget, number of items] pairs")
    return PrivacyLevels.from_sizes([level[0] for level in levels], [level[1] for level in levels])


def _solve(arguments, levels):
    from ldpspec.reference.gu2020.solvers import DEFAULT_BOX, solve

    options = {"self_pairs": arguments.self_pairs}
    if arguments.model == "opt0":
        options.update(box=None if arguments.no_box else DEFAULT_BOX, random_starts=arguments.starts, seed=arguments.seed)
    return solve(levels, arguments.model, arguments.notion, **options)


def idue_solve(arguments) -> dict:
    """Run ``ldpspec idue solve``: deployable IDUE parameters, verified by the kernel."""
    return _solve(arguments, _levels(arguments)).to_json()


# --- ldpspec channel ----------------------------------------------------------------------------------

CHANNEL_MECHANISMS = ("rr", "grr", "sue", "oue", "ue", "idue", "oue-ps", "rappor-ps", "idue-ps")
MAX_FILE_OUTPUTS = 1 << 12


def _need(value, name: str, mechanism: str):
    if value is None:
        raise SpecError(f"mechanism {mechanism} needs {name}")
    return value


def _explicit(structured, description: str):
    if structured.output_count > MAX_FILE_OUTPUTS:
        raise SpecError(f"{description} has {structured.output_count} outputs, more than {MAX_FILE_OUTPUTS}: too many "
                        "to write as a channel file; use a smaller domain, or the Python API's structured channel")
    return structured.explicit()


def channel_file(arguments) -> str:
    """Run ``ldpspec channel``: the channel file text of one of Gu et al.'s mechanisms."""
    from ldpspec.reference.shared.grr import grr_channel
    from ldpspec.reference.gu2020.idue import idue
    from ldpspec.reference.gu2020.idue_ps import idue_ps, itemset_budget, oue_ps, rappor_ps
    from ldpspec.reference.shared.rr import rr_channel
    from ldpspec.reference.shared.unary import oue, sue, unary_encoding
    from ldpspec.spec.channelfile import channel_file_text

    name = arguments.mechanism
    privacy, metadata = {}, {"mechanism": name}
    if name in ("rr", "grr", "sue", "oue", "oue-ps", "rappor-ps"):
        epsilon = _need(arguments.epsilon, "--epsilon", name)
        privacy["epsilon"] = epsilon
        metadata["epsilon"] = epsilon
    if name == "rr":
        channel = rr_channel(epsilon)
    elif name == "grr":
        channel = grr_channel(epsilon, _need(arguments.d, "--d", name))
    elif name in ("sue", "oue"):
        channel = _explicit((sue if name == "sue" else oue)(epsilon, _need(arguments.d, "--d", name)).channel(), name)
    elif name == "ue":
        encoding = unary_encoding(_need(arguments.p, "--p", name), _need(arguments.q, "--q", name), _need(arguments.d, "--d", name))
        channel = _explicit(encoding.channel(), name)
        metadata.update(p=arguments.p, q=arguments.q)
    elif name in ("oue-ps", "rappor-ps"):
        build = oue_ps if name == "oue-ps" else rappor_ps
        mechanism = build(epsilon, _need(arguments.m, "--m", name), _need(arguments.padding, "--padding", name),
                          arguments.release)
        channel = _explicit(mechanism.channel(), name)
        metadata.update(m=arguments.m, padding=arguments.padding, release=arguments.release)
    elif name in ("idue", "idue-ps"):
        levels = _levels(arguments)
        solution = _solve(arguments, levels)
        metadata.update(model=arguments.model, notion=arguments.notion,
                        a=[repr(a) for a in solution.a], b=[repr(b) for b in solution.b])
        if name == "idue":
            channel = _explicit(idue(levels, solution.a, solution.b).channel(), name)
            privacy["budgets"] = dict(zip(channel.inputs, levels.item_budgets()))
        else:
            padding = _need(arguments.padding, "--padding", name)
            mechanism = idue_ps(levels, solution.a, solution.b, padding, release=arguments.release)
            channel = _explicit(mechanism.channel(), name)
            dummy_budget = levels.budgets[0]  # the dummies join the level with the smallest budget
            item_budgets = levels.item_budgets()
            privacy["budgets"] = {s: itemset_budget(item_budgets, s, padding, dummy_budget) for s in channel.inputs}
            metadata.update(padding=padding, release=arguments.release, dummy_budget=str(dummy_budget))
    else:  # argparse restricts the choices
        raise SpecError(f"unknown mechanism {name!r}")
    return channel_file_text(channel, description=f"{name} written by ldpspec channel", metadata=metadata, **privacy)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="ldpspec", description="Exact privacy checks for local differential privacy channels.")
    commands = parser.add_subparsers(dest="command", required=True)

    profile = commands.add_parser("profile", help="print the privacy-loss profile of a channel file as JSON")
    profile.add_argument("channel", help="a channel file (JSON)")

    checker = commands.add_parser("check", help="check a privacy notion; exit 0 if it holds, 1 if not, 2 on bad input")
    checker.add_argument("channel", help="a channel file (JSON)")
    checker.add_argument("--notion", required=True, choices=NOTIONS)
    checker.add_argument("--epsilon", help="one budget (ldp, uldp, suldp-*)")
    checker.add_argument("--budgets", help="JSON list: one budget per input, null for none "
                                           "(id-ldp, minid-ldp, avgid-ldp, ipldp); one per interval for graded-ldp")
    checker.add_argument("--pair-function", choices=sorted(notions.PAIR_FUNCTIONS), help="r(eps_x, eps_x') for id-ldp and graded-ldp")
    checker.add_argument("--sensitive", help="JSON list: sensitive inputs (uldp) or sensitive items (suldp-*)")
    checker.add_argument("--non-sensitive", help="JSON list: non-sensitive items (suldp-*); default: the other items of the input sets")
    checker.add_argument("--protected", help="JSON list: protected outputs (uldp) or protected parts y0 (suldp-*)")
    checker.add_argument("--boundaries", help="JSON list: interval end points (graded-ldp)")

    idue_command = commands.add_parser("idue", help="IDUE tools").add_subparsers(dest="idue_command", required=True)
    solver = idue_command.add_parser("solve", help="deployable IDUE parameters from opt0, opt1 or opt2, verified by the kernel")
    _add_solver_options(solver)

    channel = commands.add_parser("channel", help="write a mechanism of Gu et al. as a channel file")
    channel.add_argument("mechanism", choices=CHANNEL_MECHANISMS)
    channel.add_argument("--epsilon", help="the budget (rr, grr, sue, oue, oue-ps, rappor-ps)")
    channel.add_argument("--d", type=int, help="domain size (grr, sue, oue, ue)")
    channel.add_argument("--p", help="keep probability of a 1-bit (ue)")
    channel.add_argument("--q", help="probability that a 0-bit becomes 1 (ue)")
    channel.add_argument("--m", type=int, help="number of items (oue-ps, rappor-ps)")
    channel.add_argument("--padding", type=int, help="padding length l (oue-ps, rappor-ps, idue-ps)")
    channel.add_argument("--release", choices=("all", "real"), default="all",
                         help="set mechanisms: release all m + l bits, or only the m real ones (default all)")
    channel.add_argument("--output", "-o", help="write the file here instead of standard output")
    _add_solver_options(channel, required=False)
    return parser


def _add_solver_options(parser, required: bool = True) -> None:
    parser.add_argument("--budgets", help="JSON list: one budget per item (idue, idue-ps)")
    parser.add_argument("--levels", help="JSON list of [budget, number of items] (idue, idue-ps)")
    parser.add_argument("--model", choices=("opt0", "opt1", "opt2"), default="opt0", help="optimisation model (default opt0)")
    parser.add_argument("--notion", choices=("min", "avg"), default="min", help="MinID-LDP (min, default) or AvgID-LDP (avg)")
    parser.add_argument("--self-pairs", choices=("all", "multi-item"), default="all",
                        help="constrain s = t for every level (all, as the authors' code) or only for levels with "
                             "two or more items (multi-item, as eq. (6) over i != j)")
    parser.add_argument("--no-box", action="store_true", help="opt0 without the authors' box 1/2 <= a <= 1, 0 <= b <= 1/2")
    parser.add_argument("--starts", type=int, default=8, help="opt0: random starts besides OUE, RAPPOR, opt1, opt2 (default 8)")
    parser.add_argument("--seed", type=int, default=0, help="opt0: seed of the random starts (default 0)")


def main(argv=None) -> int:
    parser = build_parser()
    arguments = parser.parse_args(argv)
    try:
        if arguments.command == "profile":
            result, status = loss_profile(read_channel_file(arguments.channel).channel), 0
        elif arguments.command == "check":
            result, holds = check(arguments)
            status = 0 if holds else 1
        elif arguments.command == "idue":
            result, status = idue_solve(arguments), 0
        else:
            text = channel_file(arguments)
            if arguments.output is None:
                sys.stdout.write(text)
            else:
                with open(arguments.output, "w", encoding="utf-8") as handle:
                    handle.write(text)
            return 0
    except SpecError as error:
        print(f"ldpspec: error: {error}", file=sys.stderr)
        return 2
    try:
        json.dump(result, sys.stdout, indent=1)
        sys.stdout.write("\n")
        sys.stdout.flush()
    except BrokenPipeError:  # the reader (for example `head`) closed the pipe early
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    return status


if __name__ == "__main__":
    sys.exit(main())

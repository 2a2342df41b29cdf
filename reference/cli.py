"""The ``ldpspec`` command line, for porters.

    ldpspec profile CHANNEL.json
        Print the privacy-loss profile as JSON (ldp_epsilon, pairwise and
        per-output losses, invertible outputs).

    ldpspec check CHANNEL.json --notion NAME [parameters]
        Print the verdict as JSON. Exit status 0 when the notion holds, 1 when
        it does not, 2 on bad input (the message on standard error names the
        parameter and what is allowed).

Parameters not given on the command line are taken from the channel file's
``privacy`` section.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from decimal import Decimal

from spec import notions
from spec.channelfile import read_channel_file
from spec.errors import SpecError
from spec.loss import loss_profile

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
    return parser


def main(argv=None) -> int:
    parser = build_parser()
    arguments = parser.parse_args(argv)
    try:
        if arguments.command == "profile":
            result, status = loss_profile(read_channel_file(arguments.channel).channel), 0
        else:
            result, holds = check(arguments)
            status = 0 if holds else 1
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

"""The ``ldpspec`` command line. Its mechanisms, notions and options come from the registry
(``ldpspec.reference.registry``); this module only wires them to argparse.

    ldpspec list [--json]
        The registered mechanisms and notions, with their parameters.

    ldpspec profile CHANNEL.json
        The privacy-loss profile as JSON (ldp_epsilon, pairwise and per-output losses, invertible outputs).

    ldpspec check CHANNEL.json --notion NAME [parameters]
        The verdict as JSON. Exit status 0 when the notion holds, 1 when it does not, 2 on bad input (the message
        on standard error names the parameter and what is allowed). Parameters not given are taken from the
        channel file's ``privacy`` section.

    ldpspec idue solve (--budgets JSON | --levels JSON) [--model opt0|opt1|opt2] [--notion min|avg] ...
        Deployable IDUE parameters (per item and per level), the objective, the active constraints and the margin
        the kernel verified.

    ldpspec channel MECHANISM [parameters] [--output FILE]
        A registered mechanism as a channel file (for domains small enough to enumerate), with the parameters of
        the notion it claims in the file's ``privacy`` section.
"""

from __future__ import annotations

import argparse
import json
import os
import sys

from ldpspec.reference.gu2020.idue import SOLVER_PARAMETERS, levels_of, solve_levels
from ldpspec.reference.registry import MECHANISMS, NOTIONS, listing
from ldpspec.spec.channelfile import channel_file_text, read_channel_file
from ldpspec.spec.errors import SpecError
from ldpspec.spec.loss import loss_profile
from ldpspec.spec.structured import StructuredChannel

MAX_FILE_OUTPUTS = 1 << 12
"""The most outputs ``ldpspec channel`` writes: a channel file lists every output of every input."""


def _metavar(parameter) -> str | None:
    if parameter.kind == "choice":
        return None  # argparse shows the choices
    return {"budget": "EPS", "number": "NUMBER", "integer": "INTEGER"}.get(parameter.kind, "JSON")


def _add_parameter(parser: argparse.ArgumentParser, parameter) -> None:
    """An option for a registry parameter: its text is kept and parsed by the parameter (errors exit with 2)."""
    text = parameter.help + (f" (default {parameter.default})" if parameter.default is not None else "")
    parser.add_argument(parameter.option, dest=parameter.name.replace("-", "_"), metavar=_metavar(parameter),
                        choices=parameter.choices or None, help=text)


def _given(arguments, parameters) -> dict:
    """``{parameter name: text}`` for the options given on the command line."""
    values = {}
    for parameter in parameters:
        value = getattr(arguments, parameter.name.replace("-", "_"), None)
        if value is not None:
            values[parameter.name] = value
    return values


# --- ldpspec check -------------------------------------------------------------------------------------------------

def _check_options() -> dict:
    """Every option of ``ldpspec check``, with the notions that use it: ``{option name: [(notion, parameter)]}``."""
    options = {}
    for notion in NOTIONS.values():
        for parameter in notion.parameters:
            options.setdefault(parameter.name, []).append((notion.name, parameter))
    return options


def check(arguments) -> tuple[dict, bool]:
    """Run ``ldpspec check``; returns the verdict as JSON data and whether the notion holds."""
    stored = read_channel_file(arguments.channel)
    notion = NOTIONS[arguments.notion]
    values = {}
    for parameter in notion.parameters:
        text = getattr(arguments, parameter.name.replace("-", "_"), None)
        if text is not None:
            values[parameter.keyword] = parameter.parse(text)
        elif parameter.file_key in stored.privacy:
            values[parameter.keyword] = stored.privacy[parameter.file_key]
    verdict = notion.check(stored.channel, values)
    return verdict.to_json(), verdict.holds


# --- ldpspec channel and idue solve --------------------------------------------------------------------------------

def channel_file(arguments) -> str:
    """Run ``ldpspec channel``: the channel file text of a registered mechanism."""
    declaration = MECHANISMS[arguments.mechanism]
    options = _given(arguments, declaration.parameters)
    mechanism = declaration.from_options(options)
    channel = mechanism.channel()
    if isinstance(channel, StructuredChannel):
        if channel.output_count > MAX_FILE_OUTPUTS:
            raise SpecError(f"{declaration.name} has {channel.output_count} outputs, more than {MAX_FILE_OUTPUTS}: too "
                            "many to write as a channel file; use a smaller domain, or the Python API's structured "
                            "channel")
        channel = channel.explicit()
    guarantee = mechanism.guarantee()
    metadata = {"mechanism": declaration.name, "notion": guarantee.notion,
                "parameters": {p.name: options.get(p.name, p.default) for p in declaration.parameters
                               if options.get(p.name, p.default) is not None},
                **getattr(mechanism, "metadata", {})}
    return channel_file_text(channel, privacy=guarantee.privacy_section(), metadata=metadata,
                             description=f"{declaration.name} written by ldpspec channel")


def idue_solve(arguments) -> dict:
    """Run ``ldpspec idue solve``: deployable IDUE parameters, verified by the kernel."""
    given = _given(arguments, SOLVER_PARAMETERS)
    options = {p.keyword: p.parse(given.get(p.name, p.default)) for p in SOLVER_PARAMETERS
               if given.get(p.name, p.default) is not None}
    levels = levels_of(options.pop("budgets", None), options.pop("levels", None))
    return solve_levels(levels, **options).to_json()


# --- the parser ---------------------------------------------------------------------------------------------------

def _add_no_box_alias(parser: argparse.ArgumentParser) -> None:
    # `--no-box` is the earlier spelling of `--box none`.
    parser.add_argument("--no-box", dest="box", action="store_const", const="none", help=argparse.SUPPRESS)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="ldpspec", description="Exact privacy checks for local differential privacy "
                                                                 "channels, and the mechanisms of the papers.")
    commands = parser.add_subparsers(dest="command", required=True)

    lister = commands.add_parser("list", help="list the registered mechanisms and notions")
    lister.add_argument("--json", action="store_true", help="print the listing as JSON")

    profile = commands.add_parser("profile", help="print the privacy-loss profile of a channel file as JSON")
    profile.add_argument("channel", help="a channel file (JSON)")

    notion_lines = [f"  {name}: " + (", ".join(p.option + ("" if p.required else " (optional)")
                                               for p in notion.parameters)
                                     or "no parameters") for name, notion in NOTIONS.items()]
    checker = commands.add_parser(
        "check", help="check a privacy notion; exit 0 if it holds, 1 if not, 2 on bad input",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="parameters of each notion (else taken from the file's privacy section):\n" + "\n".join(notion_lines))
    checker.add_argument("channel", help="a channel file (JSON)")
    checker.add_argument("--notion", required=True, choices=list(NOTIONS))
    for name, uses in _check_options().items():
        first = uses[0][1]
        meanings = {}  # one option; what it means, and for which notions
        for notion, parameter in uses:
            meanings.setdefault(parameter.help, []).append(notion)
        checker.add_argument(first.option, dest=name.replace("-", "_"), choices=first.choices or None,
                             metavar=_metavar(first),
                             help="; ".join(f"{meaning} ({', '.join(notions)})"
                                            for meaning, notions in meanings.items()))

    idue_command = commands.add_parser("idue", help="IDUE tools").add_subparsers(dest="idue_command", required=True)
    solver = idue_command.add_parser("solve", help="deployable IDUE parameters from opt0, opt1 or opt2, verified by "
                                                   "the kernel")
    for parameter in SOLVER_PARAMETERS:
        _add_parameter(solver, parameter)
    _add_no_box_alias(solver)

    channel = commands.add_parser("channel", help="write a registered mechanism as a channel file")
    mechanisms = channel.add_subparsers(dest="mechanism", required=True, metavar="MECHANISM")
    for declaration in MECHANISMS.values():
        sub = mechanisms.add_parser(declaration.name, help=declaration.title,
                                    description=f"{declaration.title} ({declaration.source}); claims "
                                                f"{declaration.notion}.")
        for parameter in declaration.parameters:
            _add_parameter(sub, parameter)
        if any(parameter.name == "box" for parameter in declaration.parameters):
            _add_no_box_alias(sub)
        sub.add_argument("--output", "-o", help="write the file here instead of standard output")
    return parser


def _list_text() -> str:
    lines = ["mechanisms:"]
    for m in MECHANISMS.values():
        usages = [f"{p.option} {_metavar(p) or '{' + ','.join(p.choices) + '}'}" for p in m.parameters]
        parameters = " ".join(usage if p.required else f"[{usage}]" for usage, p in zip(usages, m.parameters))
        lines.append(f"  {m.name:<10} {m.title} [{m.home}; claims {m.notion}]")
        lines.append(f"  {'':<10} {parameters}")
    lines.append("notions:")
    for n in NOTIONS.values():
        lines.append(f"  {n.name:<23} {n.definition}; " + (" ".join(p.option for p in n.parameters) or "-"))
    return "\n".join(lines) + "\n"


def _print_json(result) -> None:
    try:
        json.dump(result, sys.stdout, indent=1)
        sys.stdout.write("\n")
        sys.stdout.flush()
    except BrokenPipeError:  # the reader (for example `head`) closed the pipe early
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())


def main(argv=None) -> int:
    parser = build_parser()
    arguments = parser.parse_args(argv)
    try:
        if arguments.command == "list":
            if arguments.json:
                _print_json(listing())
            else:
                sys.stdout.write(_list_text())
            return 0
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
    _print_json(result)
    return status


if __name__ == "__main__":
    sys.exit(main())

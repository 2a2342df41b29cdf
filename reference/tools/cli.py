"""The ``ldpspec`` command line. Its mechanisms, notions and options come from the registry
(``ldpspec.reference.registry``); this module only wires them to argparse.

    ldpspec list [--json]
        The registered mechanisms and notions, with their parameters.

    ldpspec profile CHANNEL.json [--rows exact|renormalise|remainder] [--remainder-to LABEL] [--numbers decimal|binary]
        The privacy-loss profile as JSON (ldp_epsilon, pairwise and per-output losses, invertible outputs). A file
        with constant densities (format 2) is profiled on its explicit channel: atoms and cells. A file with
        exponential pieces has pairwise losses only (suprema over each cell; no explicit channel exists).

    ldpspec check CHANNEL.json --notion NAME [parameters] [--rows ...] [--remainder-to LABEL] [--numbers ...]
        The verdict as JSON. Parameters not given are taken from the channel file's ``privacy`` section. A matrix
        whose rows do not sum to exactly 1 (computed in floating point) is read under the reading the options
        declare, else the file's ``reading`` section (``spec.rows``); the verdict names it.

    ldpspec idue solve (--budgets JSON | --levels JSON) [--model opt0|opt1|opt2] [--notion min|avg] ...
        Deployable IDUE parameters (per item and per level), the objective, the active constraints and the margin
        the kernel verified.

    ldpspec channel MECHANISM [parameters] [--output FILE]
        A registered mechanism as a channel file (for domains small enough to enumerate), with the parameters of
        the notion it claims in the file's ``privacy`` section: format 1, or format 2 with the breakpoints of its
        densities for a mechanism with continuous outputs (Wheel, suWheel).

    ldpspec estimate --counts JSON (MECHANISM [parameters] | --channel CHANNEL.json) [--tolerance T]
                     [--max-iterations N] [--exact]
        The distribution of the items estimated from the counts of the reports of a direct encoding (one item
        reported for one item: GRR, KRR, uRR/URR, IPRR, or a channel file whose outputs are its inputs) as JSON:
        ``n``, the empirical estimate, its Norm-Sub, and the MLE: in closed form for a channel whose columns are
        constant off the diagonal with each diagonal entry above them (all of the registered ones), else the
        empirical estimate when it lies in the simplex (it is then the MLE), else by EM (with its iterations and
        whether it converged; a run that stops at the cap says so on standard error and still exits 0); ``method``
        names the one that answered. Floats by default; ``--exact`` prints the exact empirical estimate, Norm-Sub and
        MLE (in closed form or the empirical estimate; EM runs in floats) as decimal strings.

    ldpspec conform ANSWERS.json [--relative-error R] [--alpha A]
        Whether a port's answers (its outputs for the porting kit's vectors, and samples from its own random
        generator) conform: the report as JSON, exit 0 when they conform, 1 when not (``docs/porting/conform.md``).

Exit status (``EXIT``): 0 when the notion holds (or the command did its work), 1 when it does not hold, 2 on bad
input (one line on standard error names the parameter, what was given and what is allowed; a size limit names the
option that raises it), 3 on a bug of ldpspec (one line, and a request to report it; never a traceback), 4 when a
comparison is undecided at the largest precision (``spec.exact.MAX_BITS``).
"""

from __future__ import annotations

import argparse
import importlib.metadata
import json
import math
import os
import sys

import numpy as np

from ldpspec.reference.channelfile import channel_file_source, channel_file_text, read_channel_file
from ldpspec.reference.gu2020.idue import BOX, SOLVER_PARAMETERS, solve_levels
from ldpspec.reference.gu2020.levels import levels_of
from ldpspec.reference.gu2020.solvers import LISTED_ITEMS
from ldpspec.reference.porting.conform import ALPHA, RELATIVE_ERROR, conform
from ldpspec.reference.refute import command as refute_command
from ldpspec.reference.registry import MECHANISMS, NOTIONS, listing
from ldpspec.reference.shared.direct import (
    DirectMatrix,
    NotInvertible,
    column_structure,
    norm_sub,
    norm_sub_np,
)
from ldpspec.reference.tools import commands
from ldpspec.reference.tools.commands import EXIT, json_text, readable
from ldpspec.spec import (
    MAX_ENTRIES,
    MAX_PAIR_WORK,
    NUMBER_READINGS,
    ROW_RULES,
    ColumnClasses,
    InvalidParameter,
    Parameter,
    RowReading,
    SpecError,
    integer,
    json_with_decimals,
    label_to_json,
    loss_profile_summary,
    reporting,
    terminal_reporter,
    to_decimal_string,
    value_text,
)


def _metavar(parameter) -> str | None:
    if parameter.kind == "choice":
        return None  # argparse shows the choices
    return {"budget": "EPS", "number": "NUMBER", "integer": "INTEGER"}.get(parameter.kind, "JSON")


def _add_parameter(parser: argparse.ArgumentParser, parameter, *, required: bool = False) -> None:
    """An option for a registry parameter: its text is kept and parsed by the parameter (errors exit with 2).
    ``required``: the parameter has no default and must be given (a mechanism's; argparse says so in the usage)."""
    text = parameter.help + (f" (default {parameter.default})" if parameter.default is not None else "")
    parser.add_argument(parameter.option, dest=parameter.name.replace("-", "_"), metavar=_metavar(parameter),
                        choices=parameter.choices or None, help=text, required=required and parameter.required)


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


def _add_notion_options(parser: argparse.ArgumentParser) -> None:
    """``--notion`` and every notion's parameters, one option each (``ldpspec check`` and ``ldpspec refute``)."""
    parser.add_argument("--notion", required=True, choices=list(NOTIONS),
                        help="the privacy notion (the pages under \"Notions\" of the documentation define each); "
                             "its parameters are listed below")
    for name, uses in _check_options().items():
        first = uses[0][1]
        meanings = {}  # one option; what it means, and for which notions
        for notion, parameter in uses:
            meanings.setdefault(parameter.help, []).append(notion)
        parser.add_argument(first.option, dest=name.replace("-", "_"), choices=first.choices or None,
                            metavar=_metavar(first),
                            help="; ".join(f"{meaning} ({', '.join(notions)})"
                                           for meaning, notions in meanings.items()))


def check(arguments) -> tuple[dict, bool | None]:
    """Run ``ldpspec check`` (``commands.check``); returns the verdict as JSON data and whether the notion holds
    (``None``: undecided)."""
    parameters = {parameter.name: text for parameter in NOTIONS[arguments.notion].parameters
                  if (text := getattr(arguments, parameter.name.replace("-", "_"), None)) is not None}
    verdict = commands.check(channel_file_source(arguments.channel), arguments.notion, parameters,
                             _reading(arguments), max_entries=arguments.max_entries, max_work=arguments.max_work)
    if arguments.output is not None:
        _write(arguments.output, json_text(verdict.to_json(full=True)))
    return verdict.to_json(full=arguments.full), verdict.holds


# --- ldpspec channel and idue solve --------------------------------------------------------------------------------

def channel_file(arguments) -> str:
    """Run ``ldpspec channel``: the channel file text of a registered mechanism."""
    declaration = MECHANISMS[arguments.mechanism]
    options = _given(arguments, declaration.parameters)
    mechanism = declaration.from_options(options)
    classes = getattr(arguments, "classes", False)
    if classes and declaration.direct_encoding:  # its columns, grouped into classes
        structure = mechanism.structure()
        channel = ColumnClasses.from_columns(structure.base, structure.extra)
    else:
        channel = mechanism.channel(max_entries=arguments.max_entries)
    if classes and channel.input_classes() is None:
        raise InvalidParameter(f"--classes: {declaration.name}'s channel has no items in classes (only unary "
                               "encodings and direct encodings with a constant off-diagonal have); leave it out")
    guarantee = mechanism.guarantee()
    metadata = {"mechanism": declaration.name, "notion": guarantee.notion,
                "parameters": {p.name: options.get(p.name, p.default) for p in declaration.parameters
                               if options.get(p.name, p.default) is not None},
                **(mechanism.metadata if declaration.solved else {})}
    return channel_file_text(channel, privacy=guarantee.privacy_section(), metadata=metadata,
                             description=f"{declaration.name} written by ldpspec channel", classes=classes,
                             max_entries=arguments.max_entries)


def idue_solve(arguments) -> dict:
    """Run ``ldpspec idue solve``: deployable IDUE parameters, verified by the kernel."""
    given = _given(arguments, SOLVER_PARAMETERS)
    options = {p.keyword: p.parse(given.get(p.name, p.default)) for p in SOLVER_PARAMETERS
               if given.get(p.name, p.default) is not None}
    levels = levels_of(options.pop("budgets", None), options.pop("levels", None))
    return solve_levels(levels, **options).to_json(items=True if arguments.list_items else None)


# --- ldpspec estimate ----------------------------------------------------------------------------------------------

COUNTS = Parameter("counts", "numbers", "the number of reports of each item, a JSON list of integers >= 0 in item "
                   "order (for a channel file: in the order of its inputs), not all 0", example="[30, 50, 20]")
TOLERANCE = Parameter("tolerance", "number", "EM (for a channel without the column structure) stops when an "
                      "iteration changes the estimate by at most this much (l1), a number > 0", required=False,
                      default="1e-10")
MAX_ITERATIONS = Parameter("max-iterations", "integer", "EM stops after this many iterations (then "
                           "\"converged\" is false), an integer >= 1", required=False, default="100000", minimum=1)
ESTIMATE_PARAMETERS = (COUNTS, TOLERANCE, MAX_ITERATIONS)
MAX_COUNT = 2 ** 53
"""The largest count (and total) ``ldpspec estimate`` takes: the counts are held exactly in floats."""
"""The options of ``ldpspec estimate`` besides the channel (a mechanism and its parameters, or ``--channel``)."""


def direct_encodings() -> list:
    """The registered mechanisms that are direct encodings (one item reported for one item, ``Q(y|x)`` square over
    the items ``0 .. d-1``, with the column structure of ``reference.shared.direct``), as they declare."""
    return [declaration for declaration in MECHANISMS.values() if declaration.direct_encoding]


def _parse_counts(text: str, d: int, where: str = "--counts") -> list[int]:
    """The counts as typed: a JSON list of ``d`` integers >= 0, not all 0."""
    try:
        values = json_with_decimals(text, where)
    except InvalidParameter:  # a number beyond the decimal module's range, said where it is
        raise
    except (ValueError, RecursionError):
        values = None
    if not isinstance(values, list):
        raise InvalidParameter(f"{where} must be {COUNTS.help}; got {value_text(text, 60)}")
    if len(values) != d:
        raise InvalidParameter(f"{where} must have one count per item ({d} items); got {len(values)}")
    for k, value in enumerate(values):
        try:
            integer(value, f"{where}[{k}]", 0, MAX_COUNT)
        except InvalidParameter:  # said with 2^53, and the value cut short: JSON's integers have no length limit
            raise InvalidParameter(f"{where}[{k}] must be an integer in [0, 2^53]; got "
                                   f"{value_text(value, 40)}") from None
    if sum(values) > MAX_COUNT:
        raise InvalidParameter(f"{where} must total at most 2^53 reports (counts are held in floats); got "
                               f"{sum(values)}")
    if not any(values):
        raise InvalidParameter(f"{where} must count at least one report; got only zeros")
    return values


def _em_options(arguments) -> tuple[float, int]:
    given = _given(arguments, ESTIMATE_PARAMETERS[1:])
    tolerance = TOLERANCE.parse(given.get("tolerance", TOLERANCE.default))
    try:
        tolerance = float(tolerance) if tolerance.sign() > 0 else 0.0
    except OverflowError:
        tolerance = math.inf
    if not 0 < tolerance < math.inf:
        raise InvalidParameter(f"{TOLERANCE.option} must be a number > 0 (within the float range); got "
                               f"{value_text(given.get('tolerance'))}")
    return tolerance, MAX_ITERATIONS.parse(given.get("max-iterations", MAX_ITERATIONS.default))


def _direct_channel(arguments):
    """``(channel, items, reading)``: the exact ``DirectChannel`` to estimate with (a registered mechanism's
    ``ColumnStructure``; for a channel file, its column structure when every column is constant off the diagonal,
    else its ``DirectMatrix``), the file's inputs as the items, and how its rows were read (``None`` when they sum to
    exactly 1 as written)."""
    if (arguments.mechanism is None) == (arguments.channel is None):
        raise InvalidParameter("ldpspec estimate needs either a mechanism (" + ", ".join(m.name for m in
                                                                                  direct_encodings())
                               + ") or --channel CHANNEL.json (exactly one of them)")
    if arguments.mechanism is not None:
        declaration = MECHANISMS[arguments.mechanism]
        return declaration.from_options(_given(arguments, declaration.parameters)).structure(), None, None
    stored = read_channel_file(arguments.channel, arguments.max_entries, _reading(arguments))
    channel = stored.channel.matrix(arguments.max_entries)
    if channel is None or set(channel.outputs) != set(channel.inputs):
        raise InvalidParameter(f"--channel: {arguments.channel} is not a direct encoding: estimate needs a channel "
                               "whose outputs are its inputs (one item reported for one item)")
    if len(channel.inputs) < 2:
        raise InvalidParameter(f"--channel: {arguments.channel} must have at least 2 inputs to estimate from")
    items = list(channel.inputs)
    rows = [[channel.probability(x, y) for y in items] for x in items]  # the columns in the order of the inputs
    # GRR, uRR, IPRR, ... written as a file keep their O(d) estimators, exact and in floats
    return column_structure(rows) or DirectMatrix(rows), items, channel.reading()


def _number_text(value) -> str:
    text = value.text() if value.bits() < 1000 else to_decimal_string(value, 12) + " (approximately)"
    return text if len(text) <= 60 else to_decimal_string(value, 12) + " (approximately)"


def _singular(singularity, labels) -> str:
    """Why the channel is not invertible (its ``singularity()``), as the error says it: a constant column, two equal
    rows, or linear dependence."""
    if singularity.output is not None:
        label = value_text(labels[singularity.output], 40)
        return (f" (its column of output {label} is constant: P[{label}|x] = {_number_text(singularity.value)} for "
                "every x)")
    if singularity.inputs is not None:
        first, second = singularity.inputs
        return (f" (inputs {value_text(labels[first], 40)} and {value_text(labels[second], 40)} have the same "
                "row: no count tells them apart)")
    return " (its rows are linearly dependent)"


def estimate(arguments) -> dict:
    """Run ``ldpspec estimate``: the empirical estimate, Norm-Sub and the MLE from the counts of the reports, each
    as the channel computes it (``reference.shared.direct.DirectChannel``)."""
    channel, items, read = _direct_channel(arguments)
    d = channel.d
    if arguments.counts is None:
        raise InvalidParameter(f"ldpspec estimate needs {COUNTS.option} ({COUNTS.help})")
    counts = _parse_counts(arguments.counts, d)
    tolerance, max_iterations = _em_options(arguments)
    labels = list(items) if items is not None else list(range(d))
    impossible = next((y for y, reached in enumerate(channel.reachable()) if counts[y] and not reached), None)
    if impossible is not None:
        raise InvalidParameter(f"--counts[{impossible}] is {counts[impossible]}, but the channel never reports "
                               f"{value_text(labels[impossible])}")
    evident = channel.evident_singularity()
    if evident is not None:
        label = value_text(labels[evident.output], 40)
        raise InvalidParameter(f"the channel is not invertible: its column of output {label} is constant "
                               f"(P[{label}|x] = {_number_text(evident.value)} for every input x), so a "
                               "report of it says nothing of the input; the empirical estimator needs an invertible "
                               "direct encoding (a registered mechanism: a budget > 0)")
    work = channel.inverse_work() if arguments.exact else 0  # 0 for a column structure: nothing to invert
    if work > arguments.max_work:
        raise InvalidParameter(f"--exact inverts the {d} x {d} matrix of the channel exactly, about {work:.3g} steps "
                               f"(d^3 for rational entries, 10^d with exponentials), more than --max-work "
                               f"{arguments.max_work:,}; raise --max-work, or leave out --exact")
    try:
        values = channel.empirical(counts) if arguments.exact else channel.empirical_np(counts)
    except NotInvertible:
        raise InvalidParameter(f"the channel is not invertible{_singular(channel.singularity(), labels)}: the "
                               "empirical estimator needs an invertible direct encoding") from None
    if arguments.exact:
        first, second = [to_decimal_string(v) for v in values], [to_decimal_string(v) for v in norm_sub(values)]
    else:
        if not np.all(np.isfinite(values)):
            raise InvalidParameter("the channel is not invertible in floating point (the empirical estimate is not "
                                   "finite); try --exact")
        first, second = [float(v) for v in values], [float(v) for v in norm_sub_np(values)]
    # the maximiser in closed form (water-filling, exact with --exact) for a column structure with every extra_y > 0,
    # else the empirical estimate when it lies in the simplex, else by EM; the result names its method
    likelihood = channel.maximum_likelihood(counts, tolerance, max_iterations, exact=arguments.exact)
    if not likelihood.converged:
        print(f"ldpspec: warning: EM stopped after {likelihood.iterations:,} iterations ({MAX_ITERATIONS.option}) "
              f"without converging: its last change was {likelihood.change:.3g} > {TOLERANCE.option} "
              f"{tolerance:g}; the estimate is printed with \"converged\": false", file=sys.stderr)
    output = {"n": sum(counts)}
    if items is not None:
        output["items"] = [label_to_json(x) for x in items]
    if read is not None:
        output["reading"] = read.to_json()
    output.update({"empirical": first, "norm_sub": second, "mle": likelihood.to_json()})
    return output


# --- the parser ---------------------------------------------------------------------------------------------------

def _add_no_box_alias(parser: argparse.ArgumentParser) -> None:
    # `--no-box` is the earlier spelling of `--box none`.
    parser.add_argument("--no-box", dest="box", action="store_const", const="none", help=argparse.SUPPRESS)


DOCS_URL = "https://ldpspec.github.io/ldpspec/"
"""The documentation site (``mkdocs.yml``'s ``site_url``), named in the help."""

_EXAMPLES = (
    ("ldpspec list", "the mechanisms and notions"),
    ("ldpspec channel grr --epsilon 1 --d 3 -o grr.json", "a mechanism as a channel file"),
    ("ldpspec profile grr.json", "its privacy-loss profile"),
    ("ldpspec check grr.json --notion ldp", "exit 0: holds, 1: does not, 2: bad input, 4: undecided"),
    ("ldpspec check mine.json --notion ldp --epsilon 1 --rows renormalise", "a matrix computed in floats"),
    ("ldpspec idue solve --levels '[[1, 5], [2, 95]]'", "deployable IDUE parameters"),
)
EXAMPLES = ("examples:\n" + "\n".join(f"  {command}\n      {what}" for command, what in _EXAMPLES)
            + f"\n\neach command's options: ldpspec COMMAND --help\ndocumentation: {DOCS_URL} (pages \"Command line\" "
              "and \"Channel file format\")")
"""The top-level help's epilog (``tests/cli`` runs each example)."""


def _version() -> str:
    try:
        return importlib.metadata.version("ldpspec")
    except importlib.metadata.PackageNotFoundError:  # run from a checkout that was not installed
        return "unknown (not installed)"


class _Parser(argparse.ArgumentParser):
    """argparse, with its error (a value echoed in full: a 5,000-character option) made ``readable``."""

    def error(self, message: str):
        self.print_usage(sys.stderr)
        prefix = f"{self.prog}: error: "
        self.exit(EXIT["bad input"], f"{prefix}{readable(message, 1000 - len(prefix))}\n")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="ldpspec", description="Exact privacy checks for local differential privacy channels, and "
                                                 "the mechanisms of the papers.",
                     formatter_class=argparse.RawDescriptionHelpFormatter, epilog=EXAMPLES)
    parser.add_argument("--version", action="version", version=f"ldpspec {_version()}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    lister = commands.add_parser("list", help="list the registered mechanisms and notions")
    lister.add_argument("--json", action="store_true", help="print the listing as JSON")

    profile = commands.add_parser("profile", help="print the privacy-loss profile of a channel file as JSON")
    profile.add_argument("channel", help="a channel file (JSON)")
    _add_reading(profile)
    _add_listing(profile)
    _add_limits(profile, work=True)

    notion_lines = [f"  {name}: " + (", ".join(p.option + ("" if p.required else " (optional)")
                                               for p in notion.parameters)
                                     or "no parameters") for name, notion in NOTIONS.items()]
    checker = commands.add_parser(
        "check", help="check a privacy notion; exit 0 if it holds, 1 if not, 2 on bad input, 4 if undecided",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="parameters of each notion (else taken from the file's privacy section):\n" + "\n".join(notion_lines))
    checker.add_argument("channel", help="a channel file (JSON)")
    _add_notion_options(checker)
    _add_reading(checker)
    _add_listing(checker)
    _add_limits(checker, work=True)

    refuter = commands.add_parser(
        "refute", help="try to refute an implementation's privacy from its samples; exit 0 if not refuted, 1 if its "
                       "declared guarantee is violated, 2 on bad input",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Samples an implementation (a Python callable, a command, a file of releases, a registered "
                    "mechanism's twin) and bounds each pair's privacy loss from below with certified "
                    "Clopper-Pearson bounds, jointly at confidence 1 - alpha. A bound above the declared budget "
                    "refutes the guarantee; no sample can prove it (docs: \"Refuting an implementation's privacy "
                    "from samples\").",
        epilog="parameters of each notion (else the reference's claim):\n" + "\n".join(notion_lines))
    _add_notion_options(refuter)
    refute_command.add_arguments(refuter)

    conformer = commands.add_parser(
        "conform", help="check a port's answers against the porting kit's vectors (all of them, or what the file "
                        "declares in \"answers\"); exit 0 if they conform, 1 if not, 2 on bad input, 4 when a "
                        "sample set is too small for its test to detect anything")
    conformer.add_argument("answers", help="the port's answers file (JSON, format ldpspec-answers/2)")
    conformer.add_argument("--relative-error", default=str(RELATIVE_ERROR), metavar="R",
                           help=f"the relative error allowed in a number, in (0, 1) (default {RELATIVE_ERROR})")
    conformer.add_argument("--alpha", default=str(ALPHA), metavar="A",
                           help=f"the probability that a conforming sample set fails its test, in (0, 1) (default "
                                f"{ALPHA})")

    idue_command = commands.add_parser("idue", help="IDUE tools").add_subparsers(dest="idue_command", required=True)
    solver = idue_command.add_parser("solve", help="deployable IDUE parameters from opt0, opt1 or opt2, verified by "
                                                   "the kernel")
    for parameter in SOLVER_PARAMETERS:
        _add_parameter(solver, parameter)
    _add_no_box_alias(solver)
    solver.add_argument("--list-items", action="store_true",
                        help=f"list every item's a and b (by default only up to {LISTED_ITEMS:,} items; the items "
                             "of a level share the level's parameters)")

    channel = commands.add_parser("channel", help="write a registered mechanism as a channel file")
    mechanisms = channel.add_subparsers(dest="mechanism", required=True, metavar="MECHANISM")
    for declaration in MECHANISMS.values():
        sub = mechanisms.add_parser(declaration.name, help=declaration.title,
                                    description=f"{declaration.title} ({declaration.source}); claims "
                                                f"{declaration.notion or 'no notion with a finite budget'}.")
        for parameter in declaration.parameters:
            _add_parameter(sub, parameter, required=True)
        if BOX in declaration.parameters:
            _add_no_box_alias(sub)
        sub.add_argument("--output", "-o", help="write the file here instead of standard output")
        sub.add_argument("--classes", action="store_true",
                         help="write the channel with its items in classes (format 3: unary encodings and direct "
                              "encodings with a constant off-diagonal), a few lines at any number of items")
        _add_limits(sub, work=False)

    estimator = commands.add_parser(
        "estimate", help="estimate the distribution of the items from the counts of a direct encoding's reports",
        usage="ldpspec estimate --counts JSON [options] (MECHANISM [parameters] | --channel CHANNEL.json)",
        description="The empirical estimate, Norm-Sub and the MLE (EM) of the item distribution, from the counts "
                    "of the reports of a registered direct encoding (a subcommand with its parameters) or of a "
                    "channel file whose outputs are its inputs (--channel). The options below may also follow the "
                    "mechanism.")
    _add_estimate_options(estimator, None)
    estimator.add_argument("--channel", metavar="CHANNEL.json",
                           help="a channel file (JSON) whose outputs are its inputs, instead of a mechanism")
    _add_reading(estimator)
    _add_limits(estimator, work="inverse")
    mechanisms = estimator.add_subparsers(dest="mechanism", metavar="MECHANISM", required=False,
                                          title="mechanisms (or --channel)")
    for declaration in direct_encodings():
        sub = mechanisms.add_parser(declaration.name, help=declaration.title,
                                    description=f"{declaration.title} ({declaration.source}).")
        for parameter in declaration.parameters:
            _add_parameter(sub, parameter, required=True)
        _add_estimate_options(sub, argparse.SUPPRESS)  # given after the mechanism: kept, not reset to defaults
    return parser


def _add_estimate_options(parser: argparse.ArgumentParser, default) -> None:
    """``ldpspec estimate``'s own options, before or after the mechanism (``default=argparse.SUPPRESS`` on the
    mechanism's parser, so that an option given before the mechanism is not overwritten)."""
    for parameter in ESTIMATE_PARAMETERS:
        parser.add_argument(parameter.option, dest=parameter.name.replace("-", "_"), metavar=_metavar(parameter),
                            default=default, required=False,
                            help=parameter.help + (f" (default {parameter.default})" if parameter.default else ""))
    parser.add_argument("--exact", action="store_true", default=False if default is None else default,
                        help="the empirical estimate, Norm-Sub and the MLE computed exactly, as decimal strings (the "
                             "MLE in closed form or as the empirical estimate; EM, where neither answers, runs in "
                             "floats either way)")


def _limit(text: str) -> int:
    try:
        return commands.size_limit(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def _add_limits(parser: argparse.ArgumentParser, *, work: bool | str) -> None:
    """The size limits, checked before any work that grows faster than the input: raise them to go further.
    ``work``: whether the command has a ``--max-work`` limit, and ``"inverse"`` for the exact inverse of
    ``estimate --exact``."""
    parser.add_argument("--max-entries", type=_limit, default=MAX_ENTRIES, metavar="N",
                        help=f"refuse a channel of more than N probabilities (default {MAX_ENTRIES:,})")
    if work == "inverse":
        parser.add_argument("--max-work", type=_limit, default=MAX_PAIR_WORK, metavar="N",
                            help="with --channel --exact: refuse an exact inverse of the d x d matrix of more than N "
                                 f"steps (d^3 for rational entries, 10^d with exponentials; default {MAX_PAIR_WORK:,})")
    elif work:
        parser.add_argument("--max-work", type=_limit, default=MAX_PAIR_WORK, metavar="N",
                            help="refuse a pairwise check of more than N = inputs^2 x outputs steps "
                                 f"(default {MAX_PAIR_WORK:,})")


def _add_listing(parser: argparse.ArgumentParser) -> None:
    """The output is sized for a person by default; the complete listing on request."""
    parser.add_argument("--full", action="store_true",
                        help="print everything: every budget and every position of a long witness (by default a "
                             "long list is shown as its length and its first entries)")
    parser.add_argument("--output", "-o", metavar="FILE",
                        help="also write the complete result (as --full prints it) to FILE")


def _add_reading(parser: argparse.ArgumentParser) -> None:
    """How a matrix whose rows do not sum to exactly 1 is read (``spec.rows``); each option given replaces the
    file's ``reading`` section as a whole."""
    parser.add_argument("--rows", choices=ROW_RULES, default=None,
                        help="a row that does not sum to exactly 1: refused (exact, the default), divided by its sum "
                             "(renormalise), or its remainder given to one output (remainder)")
    parser.add_argument("--remainder-to", metavar="LABEL", default=None,
                        help="with --rows remainder: the output that takes the remainder, as JSON (\"c\", 2), or "
                             "as text; the last output by default")
    parser.add_argument("--numbers", choices=NUMBER_READINGS, default=None,
                        help="a number written in decimal: as written (decimal, the default), or the double nearest "
                             "to it, exactly (binary)")


def _reading(arguments) -> RowReading | None:
    """The reading the options declare, or ``None`` when none is given (the file's own section applies)."""
    return commands.row_reading(arguments.rows, arguments.numbers, arguments.remainder_to)


def _list_text() -> str:
    lines = ["mechanisms:"]
    for m in MECHANISMS.values():
        usages = [f"{p.option} {_metavar(p) or '{' + ','.join(p.choices) + '}'}" for p in m.parameters]
        parameters = " ".join(usage if p.required else f"[{usage}]" for usage, p in zip(usages, m.parameters))
        lines.append(f"  {m.name:<10} {m.title} [{m.home}; claims {m.notion or 'none'}]")
        lines.append(f"  {'':<10} {parameters}")
    lines.append("notions:")
    for n in NOTIONS.values():
        lines.append(f"  {n.name:<23} {n.definition}; " + (" ".join(p.option for p in n.parameters) or "-"))
    return "\n".join(lines) + "\n"


def _print_json(result) -> None:
    text = json_text(result)
    try:
        sys.stdout.write(text)
        sys.stdout.flush()
    except BrokenPipeError:  # the reader (for example `head`) closed the pipe early
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())


def _write(path: str | None, text: str) -> None:
    if path is None:
        sys.stdout.write(text)
        return
    try:
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(text)
    except OSError as error:
        raise SpecError(f"--output: cannot write {value_text(path)}: {error.strerror or error}") from None
    except ValueError as error:  # a path the system cannot name (a NUL byte)
        raise SpecError(f"--output: cannot write {value_text(path)}: {error}") from None


def _open_unit(text: str, option: str) -> float:
    """A number in (0, 1) as typed, held in a double (the tests of ``conform`` compute in doubles): a number too
    small for a double (below about 5e-324) is refused, not read as 0."""
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not 0 < value < 1:
        raise InvalidParameter(f"{option} must be a number in (0, 1) that a double holds (from about 5e-324); got "
                               f"{value_text(text, 40)}")
    return value


def _read_json(path: str, what: str):
    try:
        with open(path, encoding="utf-8") as handle:
            return json.load(handle)
    except OSError as error:
        raise SpecError(f"{what}: cannot read {value_text(path)}: {error.strerror or error}") from None
    except (ValueError, RecursionError) as error:
        raise SpecError(f"{what}: {value_text(path)} is not JSON: {str(error)[:120]}") from None


def _shard_progress():
    """Progress of a refutation's shards on the terminal line (``spec.progress``), when standard error is one."""
    reporter = terminal_reporter()
    if reporter is None:
        return None
    return lambda phase, done, total: reporter("drawing shards to " + ("choose events" if phase == 0 else "certify"),
                                               done, total)


def run(argv=None) -> int:
    """Parse the arguments and run the command; project errors propagate (``main`` turns them into exit codes)."""
    arguments = build_parser().parse_args(argv)
    if arguments.command == "list":
        _write(None, json.dumps(listing(), indent=1) + "\n" if arguments.json else _list_text())
        return EXIT["holds"]
    if arguments.command == "channel":
        _write(arguments.output, channel_file(arguments))
        return EXIT["holds"]
    if arguments.command == "profile":
        text, reading = channel_file_source(arguments.channel), _reading(arguments)
        limits = {"max_entries": arguments.max_entries, "max_work": arguments.max_work}
        if arguments.full or arguments.output is not None:  # the complete list, every pair's loss exact
            complete = commands.profile(text, reading, complete=True, **limits)
            if arguments.output is not None:
                _write(arguments.output, json_text(complete))
            result = complete if arguments.full else loss_profile_summary(complete)
        else:  # the summary alone: exact where the doubles of the pair losses leave it open (spec.loss)
            result = commands.profile(text, reading, **limits)
        status = EXIT["holds"]
    elif arguments.command == "estimate":
        result, status = estimate(arguments), EXIT["holds"]
    elif arguments.command == "conform":
        relative, alpha = _open_unit(arguments.relative_error, "--relative-error"), _open_unit(arguments.alpha,
                                                                                               "--alpha")
        result = conform(_read_json(arguments.answers, "answers"), relative, alpha)
        status = (EXIT["undecided"] if result["conforms"] is None else EXIT["holds"] if result["conforms"]
                  else EXIT["does not hold"])
    elif arguments.command == "refute":
        answer = refute_command.run(arguments, _shard_progress())
        if arguments.output is not None:
            _write(arguments.output, json_text(answer.to_json(full=True)))
        status = EXIT["does not hold"] if answer.refuted else EXIT["holds"]
        if arguments.json and arguments.text:
            raise InvalidParameter("give --json or --text, not both")
        if arguments.text or (not arguments.json and sys.stdout.isatty()):
            _write(None, answer.text() if not arguments.full else answer.text() + json_text(answer.to_json(True)))
            return status
        result = answer.to_json(full=arguments.full)
    elif arguments.command == "check":
        result, holds = check(arguments)
        status = commands.verdict_status(holds)
    else:
        result, status = idue_solve(arguments), EXIT["holds"]
    _print_json(result)
    return status


def main(argv=None) -> int:
    """The command line: ``run``, with every outcome mapped to its exit status (``EXIT``) and one line on standard
    error for anything but a verdict. Long loops show their progress on standard error when it is a terminal
    (``spec.progress``)."""
    try:
        with reporting(terminal_reporter()):
            return run(argv)
    except SystemExit as exit:  # argparse: --help (0), or a usage error it has already printed (2)
        return exit.code if isinstance(exit.code, int) else EXIT["bad input"]
    except KeyboardInterrupt:
        print("ldpspec: interrupted", file=sys.stderr)
        return 130
    except Exception as error:  # a verdict left undecided, bad input, or a bug (commands.failure says which)
        status, line = commands.failure(error)
        print(line, file=sys.stderr)
        return status


if __name__ == "__main__":
    sys.exit(main())

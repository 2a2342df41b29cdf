"""``ldpspec refute``: the command line of a refutation (``reference.tools.cli`` adds it to its parser).

    ldpspec refute (--callable MODULE:FUNCTION | --command "PROGRAM ARGS" | --releases-file FILE | --twin MECHANISM)
                   --notion NAME [the notion's parameters, as ldpspec check takes them] [--inputs JSON]
                   [--reference CHANNEL.json | --reference-mechanism NAME [--reference-options JSON]]
                   [--releases labels|bits|sets|numbers] [--length D] [--outputs JSON] [--interval JSON]
                   [--samples N] [--selection-share S] [--alpha A] [--seed S] [--max-pairs M]
                   [--workers N | --cluster ADDRESS] [--checkpoint FILE | --no-checkpoint] [--call-timeout SECONDS]
                   [--full] [--json] [--output FILE]

Exit status: 0 when nothing is refuted, 1 when the declared guarantee is violated (a refutation at confidence
``1 - alpha``, or a release the notion forbids), 2 on bad input or a failure of the implementation (the finished
shards stay in the checkpoint), 3 on a bug of ldpspec.
"""

from __future__ import annotations

import argparse
import os
import shlex
import sys
from decimal import Decimal
from fractions import Fraction

from ldpspec.reference.channelfile import read_channel_file
from ldpspec.reference.porting.bits import bit_law
from ldpspec.reference.refute.events import Kind, ReleaseError
from ldpspec.reference.refute.guarantee import declare, parse_values
from ldpspec.reference.refute.implementations import (
    Command,
    FileReleases,
    ImplementationError,
    PythonCallable,
    Registered,
    read_releases_file,
)
from ldpspec.reference.refute.run import MAX_PAIRS, SELECTION_SHARE, SHARD_SIZE, Plan, reference_model, refute
from ldpspec.reference.registry import MECHANISMS
from ldpspec.reference.validation import MAX_DOMAIN
from ldpspec.spec import NOTIONS, InvalidParameter, json_with_decimals, label_from_json, value_text

SAMPLES = 100_000
"""Releases per input by default."""
MAX_SHARD_BITS = 1 << 26
"""The most bits of a shard of bit vectors or sets (its releases are unpacked once, at a byte a bit): the shard size
is lowered to keep below it."""
MAX_CALL_TIMEOUT = 10 ** 6
"""The longest time limit of one call, in seconds (about eleven days)."""
ALPHA = "0.01"
"""The default probability that any bound of a run is wrong."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of ``ldpspec refute`` besides the notion's parameters (which ``ldpspec check`` shares)."""
    source = parser.add_argument_group("the implementation (exactly one)")
    source.add_argument("--callable", metavar="MODULE:FUNCTION",
                        help="a Python function (input, generator) -> one release; the module is imported from the "
                             "current folder or the installed packages")
    source.add_argument("--generator", choices=("numpy", "random"), default="numpy",
                        help="the generator --callable receives: numpy.random.Generator (default) or random.Random, "
                             "one per shard, seeded from --seed")
    source.add_argument("--command", dest="program", metavar="\"PROGRAM ARGS\"",
                        help="a program that reads one input per line (JSON) and prints one release per line (JSON); "
                             "started once per shard with LDPSPEC_SEED in its environment")
    source.add_argument("--releases-file", metavar="FILE",
                        help="releases already drawn, per input (format ldpspec-releases/1)")
    source.add_argument("--twin", metavar="MECHANISM", help="a registered mechanism's own sampler (its NumPy twin)")
    source.add_argument("--twin-options", metavar="JSON", default=None,
                        help="the twin's parameters as an object of texts, e.g. '{\"epsilon\": \"1\", \"d\": \"3\"}' "
                             "(default: its example)")
    guarantee = parser.add_argument_group("what the releases are compared with")
    guarantee.add_argument("--inputs", metavar="JSON",
                           help="the inputs to sample, a JSON list of labels (default: the reference's or the "
                                "twin's inputs, the file's, or 0 .. d-1 for a list of per-input budgets)")
    guarantee.add_argument("--reference", metavar="CHANNEL.json",
                           help="the exact channel the implementation is meant to be: it chooses each pair's most "
                                "distinguishing event, and every sample certifies (default: black-box, a selection "
                                "share chooses)")
    guarantee.add_argument("--reference-mechanism", metavar="NAME",
                           help="a registered mechanism as the reference channel (its parameters: "
                                "--reference-options)")
    guarantee.add_argument("--reference-options", metavar="JSON", default=None,
                           help="the reference mechanism's parameters as an object of texts (default: the twin's, "
                                "else the mechanism's example)")
    kind = parser.add_argument_group("how a release is read")
    kind.add_argument("--releases", choices=("labels", "bits", "sets", "numbers"), default=None,
                      help="labels (any JSON value; default), bits (a list of --length bits), sets (a list of "
                           "distinct items of 0 .. --length - 1) or numbers (a real number)")
    kind.add_argument("--length", type=int, metavar="D", help="bits and sets: the number of bits or items")
    kind.add_argument("--outputs", metavar="JSON", help="labels: the allowed releases, a JSON list (any other "
                                                        "release stops the run with exit 2)")
    kind.add_argument("--interval", metavar="JSON", help="numbers: [low, high], the interval a release lies in")
    run = parser.add_argument_group("the run")
    run.add_argument("--samples", type=_positive, default=SAMPLES, metavar="N",
                     help=f"releases per input (default {SAMPLES:,})")
    run.add_argument("--selection-share", default=None, metavar="S",
                     help=f"black-box: the share of each input's releases that chooses the events, in (0, 1) "
                          f"(default {SELECTION_SHARE}); the rest certify")
    run.add_argument("--alpha", default=ALPHA, metavar="A",
                     help=f"the probability that any bound of the run is wrong, in (0, 1) (default {ALPHA})")
    run.add_argument("--seed", type=_natural, default=0, help="the run's seed (default 0): the same seed gives "
                                                              "the same counts on any number of workers")
    run.add_argument("--max-pairs", type=_positive, default=MAX_PAIRS, metavar="M",
                     help=f"the most ordered pairs of inputs examined (default {MAX_PAIRS}; every pair when there "
                          "are no more)")
    run.add_argument("--pairs", metavar="JSON",
                     help="the ordered pairs of inputs to examine, a JSON list of [x, x'] (default: every pair, or "
                          "--max-pairs of them chosen as the answer says)")
    run.add_argument("--shard-size", type=_positive, default=SHARD_SIZE, metavar="N",
                     help=f"releases per shard (default {SHARD_SIZE:,}; lowered for long bit vectors, so that a "
                          "shard holds at most 2^26 bits)")
    run.add_argument("--workers", type=_positive, default=1, metavar="N",
                     help="local processes that draw shards (default 1: this process)")
    run.add_argument("--cluster", metavar="ADDRESS",
                     help="a Dask scheduler's address (tcp://host:8786): its workers draw the shards")
    run.add_argument("--checkpoint", metavar="FILE",
                     help="append each finished shard to FILE, kept after the run; a run started again with the same "
                          "options resumes from it (default: ldpspec-refute-ID.checkpoint in the current folder, "
                          "removed when the run completes)")
    run.add_argument("--no-checkpoint", action="store_true", help="keep the finished shards in memory only")
    run.add_argument("--call-timeout", type=float, default=60.0, metavar="SECONDS",
                     help="the longest one call (or one line of --command) may take (default 60)")
    output = parser.add_argument_group("the answer")
    output.add_argument("--full", action="store_true", help="list every examined pair")
    output.add_argument("--json", action="store_true",
                        help="print JSON (the default when standard output is not a terminal)")
    output.add_argument("--text", action="store_true",
                        help="print the summary as text even when standard output is not a terminal")
    output.add_argument("--output", "-o", metavar="FILE", help="also write the complete answer (JSON) to FILE")


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be an integer >= 1, got {value_text(text, 40)}")
    return value


def _natural(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = -1
    if not 0 <= value < 2 ** 128:
        raise argparse.ArgumentTypeError(f"must be an integer of [0, 2^128), got {value_text(text, 40)}")
    return value


def _unit(text: str, option: str) -> Fraction:
    """A number of ``(0, 1)`` as typed, exactly (``0.01`` is 1/100)."""
    try:
        value = Fraction(text)
    except (ValueError, ZeroDivisionError):
        value = None
    if value is None or not 0 < value < 1:
        raise InvalidParameter(f"{option} must be a number in (0, 1), such as 0.01; got {value_text(text, 40)}")
    return value


def _json(text: str | None, option: str):
    if text is None:
        return None
    try:
        return json_with_decimals(text, option)
    except (ValueError, RecursionError):
        raise InvalidParameter(f"{option} must be JSON; got {value_text(text, 60)}") from None


def _options(text: str | None, option: str) -> dict | None:
    value = _json(text, option)
    if value is not None and not (isinstance(value, dict) and all(isinstance(v, str) for v in value.values())):
        raise InvalidParameter(f"{option} must be a JSON object of texts, such as {{\"epsilon\": \"1\", \"d\": "
                               f"\"3\"}} (numbers as strings, read exactly); got {value_text(text, 60)}")
    return value


def _labels(text: str | None, option: str) -> tuple | None:
    value = _json(text, option)
    if value is None:
        return None
    if not isinstance(value, list) or not value:
        raise InvalidParameter(f"{option} must be a non-empty JSON list of labels; got {value_text(text, 60)}")
    return tuple(label_from_json(v, f"{option}[{k}]") for k, v in enumerate(value))


def _implementation(arguments):
    given = [name for name in ("callable", "program", "releases_file", "twin") if getattr(arguments, name)]
    if len(given) != 1:
        raise InvalidParameter("ldpspec refute needs exactly one implementation: --callable, --command, "
                               "--releases-file or --twin" + (f"; got {len(given)}" if given else ""))
    for option, needs in (("twin_options", "twin"), ("reference_options", "reference_mechanism")):
        if getattr(arguments, option) is not None and not getattr(arguments, needs):
            raise InvalidParameter(f"--{option.replace('_', '-')} gives the parameters of --{needs.replace('_', '-')}; "
                                   f"give that too, or leave it out")
    if arguments.callable:
        return PythonCallable(arguments.callable, arguments.generator, (os.getcwd(),))
    if arguments.program:
        argv = tuple(shlex.split(arguments.program))
        if not argv:
            raise InvalidParameter("--command is empty")
        return Command(argv, os.getcwd())
    if arguments.twin:
        if arguments.twin not in MECHANISMS:
            raise InvalidParameter(f"--twin must be a registered mechanism ({', '.join(MECHANISMS)}); got "
                                   f"{value_text(arguments.twin)}")
        options = _options(arguments.twin_options, "--twin-options") or MECHANISMS[arguments.twin].example()
        return Registered(arguments.twin, options)
    return "file"


def _reference(arguments, twin):
    """The reference channel: a channel file, a registered mechanism, or ``None`` (black-box)."""
    if arguments.reference and arguments.reference_mechanism:
        raise InvalidParameter("give --reference or --reference-mechanism, not both")
    if arguments.reference:
        return read_channel_file(arguments.reference)
    if arguments.reference_mechanism:
        name = arguments.reference_mechanism
        if name not in MECHANISMS:
            raise InvalidParameter(f"--reference-mechanism must be a registered mechanism; got {value_text(name)}")
        options = _options(arguments.reference_options, "--reference-options")
        if options is None:
            options = (dict(twin.options) if isinstance(twin, Registered) and twin.name == name
                       else MECHANISMS[name].example())
        return Registered(name, options)
    return None


def _kind(arguments, twin, reference) -> Kind:
    name = arguments.releases
    if name is None:
        if isinstance(twin, Registered):
            form = twin.form()
            if form == "numbers" and reference is not None:  # a reference chooses among its outputs (cells)
                form = "labels"
            if form == "bits" and not NOTIONS[arguments.notion].pairwise:  # only whole releases are bounded
                form = "labels"
            name = {"bits": "bits", "numbers": "numbers"}.get(form, "labels")
            if name == "bits" and arguments.length is None:
                arguments.length = bit_law(twin.channel(), twin.channel().inputs[0]).bits
        else:
            name = "labels"
    if name in ("bits", "sets"):
        if arguments.length is None or not 1 <= arguments.length <= MAX_DOMAIN:
            raise InvalidParameter(f"--releases {name} needs --length D, the number of bits or items, an integer in "
                                   f"[1, {MAX_DOMAIN:,}]" + ("" if arguments.length is None
                                                             else f"; got {arguments.length}"))
        return Kind(name, d=arguments.length)
    if name == "numbers":
        interval = _json(arguments.interval, "--interval")
        if interval is None:
            return Kind("numbers")
        if not (isinstance(interval, list) and len(interval) == 2
                and all(isinstance(v, (int, Decimal)) and not isinstance(v, bool) for v in interval)):
            raise InvalidParameter("--interval must be [low, high], two numbers; got "
                                   f"{value_text(arguments.interval, 60)}")
        low, high = (float(v) for v in interval)
        if not low <= high:
            raise InvalidParameter(f"--interval must have low <= high; got [{low}, {high}]")
        return Kind("numbers", low=low, high=high)
    outputs = _labels(arguments.outputs, "--outputs")
    return Kind("labels", outputs=None if outputs is None else frozenset(outputs))


def run(arguments, progress=None):
    """Run ``ldpspec refute``; returns the ``Answer``."""
    if arguments.cluster and arguments.workers > 1:
        raise InvalidParameter("give --workers (local processes) or --cluster (a Dask scheduler), not both")
    if not 0 < arguments.call_timeout <= MAX_CALL_TIMEOUT:
        raise InvalidParameter(f"--call-timeout must be a number of seconds in (0, {MAX_CALL_TIMEOUT:,}]; got "
                               f"{arguments.call_timeout}")
    alpha = _unit(arguments.alpha, "--alpha")
    implementation = _implementation(arguments)
    twin = implementation if isinstance(implementation, Registered) else None
    reference = _reference(arguments, twin)
    reference_channel = reference.channel() if isinstance(reference, Registered) else (
        reference.channel if reference is not None else None)
    notion = NOTIONS[arguments.notion]
    texts = {p.name: getattr(arguments, p.name.replace("-", "_"), None) for p in notion.parameters}
    values = parse_values(notion.name, texts)
    claimed = _claimed(reference, twin, notion.name)
    for parameter in notion.parameters:  # what the declaration leaves out: the reference's (or the twin's) claim
        if values.get(parameter.keyword) is None and parameter.keyword in claimed:
            values[parameter.keyword] = claimed[parameter.keyword]
    inputs = _labels(arguments.inputs, "--inputs")
    releases = None
    if implementation == "file":
        releases, digest = read_releases_file(arguments.releases_file)
        if inputs is None:
            inputs = tuple(releases)
        missing = [x for x in inputs if x not in releases]
        if missing:
            raise InvalidParameter(f"--inputs names inputs the releases file does not have: {value_text(missing, 5)}")
    if inputs is None:
        source = reference_channel if reference_channel is not None else (twin.channel() if twin else None)
        if source is not None:
            inputs = tuple(source.inputs)
        else:
            budgets = values.get("budgets")
            if isinstance(budgets, tuple) and notion.name in ("id-ldp", "minid-ldp", "avgid-ldp", "ipldp"):
                inputs = tuple(range(len(budgets)))
            else:
                raise InvalidParameter("--inputs: say which inputs to sample, a JSON list such as [0, 1, 2]")
    declared = declare(notion.name, values, inputs)
    kind = _kind(arguments, twin, reference)
    shard_size = arguments.shard_size
    if kind.bitwise and shard_size * kind.d > MAX_SHARD_BITS:  # a shard's bits, unpacked, stay in memory
        shard_size = max(1, MAX_SHARD_BITS // kind.d)
    if isinstance(twin, Registered) and kind.name == "labels" and twin.form() != "labels":
        implementation = Registered(twin.name, twin.options, labels=True)  # its releases as the channel's labels
    share = None if arguments.selection_share is None else _unit(arguments.selection_share, "--selection-share")
    if reference is not None and share is not None:
        raise InvalidParameter("--selection-share is for black-box runs; with a reference every sample certifies")
    share = Fraction(SELECTION_SHARE) if share is None and reference is None else share or Fraction(0)
    if implementation == "file":
        counts = tuple(len(releases[x]) for x in inputs)
        selection = tuple(int(n * share) for n in counts)
        implementation = FileReleases(arguments.releases_file, tuple(releases[x] for x in inputs), selection, digest)
        samples = counts
    else:
        samples, selection = arguments.samples, int(arguments.samples * share)
    if reference is None and (min(selection) if isinstance(selection, tuple) else selection) < 1:
        raise InvalidParameter("the selection share holds no release of some input: raise --samples or "
                               "--selection-share")
    certify = samples - selection if isinstance(samples, int) else min(n - s for n, s in zip(samples, selection))
    if certify < 1:
        raise InvalidParameter("no release is left to certify: lower --selection-share")
    pairs = _labels(arguments.pairs, "--pairs")
    if pairs is not None and not all(isinstance(pair, tuple) and len(pair) == 2 for pair in pairs):
        raise InvalidParameter("--pairs must be a JSON list of pairs [x, x'] of inputs; got "
                               f"{value_text(arguments.pairs, 60)}")
    plan = Plan(implementation, kind, notion.name, values, inputs, samples, selection, alpha, arguments.seed,
                shard_size, arguments.max_pairs, arguments.call_timeout, pairs)
    model = None if reference_channel is None else reference_model(reference_channel, declared, kind)
    source = None if reference is None else (f"the reference channel {arguments.reference}" if arguments.reference
                                             else f"the reference channel of {reference.title()}")
    if arguments.no_checkpoint and arguments.checkpoint:
        raise InvalidParameter("give --checkpoint FILE or --no-checkpoint, not both")
    path = arguments.checkpoint
    default = path is None and not arguments.no_checkpoint
    if default:  # nothing lost by default: a failed or interrupted run resumes when run again
        path = f"ldpspec-refute-{plan.identity()[:12]}.checkpoint"
    resume = f"the finished shards are kept in {path}, from which the same command resumes"
    try:
        answer = refute(plan, model, model_source=source, workers=arguments.workers, cluster=arguments.cluster,
                        checkpoint=path, progress=progress)
    except (ImplementationError, ReleaseError) as error:
        if path is None:
            raise
        raise type(error)(f"{error}; {resume}") from None
    except KeyboardInterrupt:
        if path is not None:
            print(f"ldpspec: {resume}", file=sys.stderr)
        raise
    if default:
        os.remove(path)
    return answer


def _claimed(reference, twin, notion: str) -> dict:
    """The parameters of ``notion`` that the reference claims (a channel file's privacy section, as ``ldpspec check``
    reads it; a mechanism's guarantee when it is of this notion), else that the twin claims; keyed by keyword."""
    if reference is not None and not isinstance(reference, Registered):
        privacy = reference.privacy
        return {parameter.keyword: privacy[parameter.file_key] for parameter in NOTIONS[notion].parameters
                if parameter.file_key in privacy}
    for mechanism in (reference, twin):
        if isinstance(mechanism, Registered):
            guarantee = mechanism.built().guarantee()
            if guarantee.notion == notion:
                return dict(guarantee.parameters)
    return {}

"""``ldpspec check`` and ``ldpspec profile`` on a channel file's text: what the command line prints, and what the
site's "Try it" page shows, computed by one piece of code.

This module imports the kernel (``ldpspec.spec``), the channel file reader (``ldpspec.reference.channelfile``) and
the standard library, nothing else: no NumPy. The site packages these three, byte for byte, and runs them in the
reader's browser under Pyodide (``docs/try.md``); the command line (``ldpspec.reference.tools.cli``) calls the same
functions. ``answer`` is the whole command as the page runs it: the standard output, the one line on standard error
and the exit status that ``ldpspec`` gives for the same file and options.
"""

from __future__ import annotations

import json
import math
import re

from ldpspec.reference.channelfile import parse_channel_file
from ldpspec.spec import (
    MAX_ENTRIES,
    MAX_PAIR_WORK,
    NOTIONS,
    InvalidParameter,
    RowReading,
    SpecError,
    Undecided,
    Verdict,
    json_ready,
    json_with_decimals,
    label_from_json,
    loss_profile,
    reporting,
    summary_profile,
    value_text,
)

EXIT = {"holds": 0, "does not hold": 1, "bad input": 2, "bug": 3, "undecided": 4}
"""The exit status of each outcome."""

MAX_MESSAGE = 980
"""The most characters of an error's message (``readable``): with ``ldpspec: error: ``, a line of at most 1,000."""


def row_reading(rows: str | None, numbers: str | None, remainder_to: str | None) -> RowReading | None:
    """The reading that ``--rows``, ``--numbers`` and ``--remainder-to`` declare, or ``None`` when none is given (the
    file's own ``reading`` section applies)."""
    if rows is None and numbers is None and remainder_to is None:
        return None
    target = remainder_to
    if target is not None:
        try:
            target = label_from_json(json_with_decimals(target, "--remainder-to"), "--remainder-to")
        except InvalidParameter:
            raise
        except (ValueError, RecursionError):  # a label given as plain text (not JSON)
            pass
        if rows != "remainder":
            raise InvalidParameter("--remainder-to names the output that takes a row's remainder: give it with "
                                   "--rows remainder")
    return RowReading(rows or "exact", numbers or "decimal", target)


def check(text: str, notion: str, parameters: dict[str, str], reading: RowReading | None = None, *,
          max_entries: int = MAX_ENTRIES, max_work: int = MAX_PAIR_WORK) -> Verdict:
    """``ldpspec check``: the verdict of ``notion`` on the channel file ``text`` (printed as ``to_json(full=False)``,
    and with ``--full`` as ``to_json(full=True)``). ``parameters``: the
    notion's parameters given as options, ``{parameter name: text}`` (another notion's are not read, as on the
    command line); a parameter not given is taken from the file's ``privacy`` section."""
    declared = NOTIONS.get(notion)
    if declared is None:
        raise InvalidParameter(f"--notion must be one of {', '.join(NOTIONS)}; got {value_text(notion, 40)}")
    stored = parse_channel_file(text, max_entries, reading,
                                max_pair_work=max_work if declared.pairs_on_a_matrix else None)
    values, names = {}, {}  # each value, and where it came from: a message names the option or the file's field
    for parameter in declared.parameters:
        given = parameters.get(parameter.name)
        if given is not None:
            values[parameter.keyword], names[parameter.keyword] = parameter.parse(given), parameter.option
        elif parameter.file_key in stored.privacy:
            values[parameter.keyword] = stored.privacy[parameter.file_key]
            names[parameter.keyword] = f"privacy.{parameter.file_key}"
    return declared.check(stored.channel, values, max_work, names)  # a PiecewiseChannel as in memory


def profile(text: str, reading: RowReading | None = None, *, max_entries: int = MAX_ENTRIES,
            max_work: int = MAX_PAIR_WORK, complete: bool = False) -> dict:
    """``ldpspec profile``: the privacy-loss profile of the channel file ``text``. By default its summary, exact
    where the doubles of the pair losses leave it open (``spec.loss``); ``complete``: the complete list, every pair's
    loss exact (``--full``)."""
    channel = parse_channel_file(text, max_entries, reading, max_pair_work=max_work).channel
    if complete:
        return loss_profile(channel, max_work, max_entries)
    return summary_profile(channel, max_work, max_entries)


def verdict_status(holds: bool | None) -> int:
    """The exit status of a verdict: the notion holds, does not hold, or is undecided (``None``)."""
    return EXIT["undecided"] if holds is None else EXIT["holds"] if holds else EXIT["does not hold"]


def size_limit(text: str) -> int:
    """A size limit (``--max-entries``, ``--max-work``) as typed: an integer >= 1."""
    try:
        value = int(text)
    except ValueError:
        raise ValueError(f"must be an integer >= 1, got {value_text(text, 40)}") from None
    if value < 1:
        raise ValueError(f"must be an integer >= 1, got {value_text(text, 40)}")
    return value


def json_text(result) -> str:
    """The JSON text of a command's result, built whole before anything is printed (a value ``json`` cannot write
    never leaves half a document on standard output): labels as ``label_to_json`` writes them, and a number that is
    not finite as the string ``"inf"``, ``"-inf"`` or ``"nan"`` (JSON has no such numbers)."""
    return json.dumps(_finite(json_ready(result)), indent=1, allow_nan=False) + "\n"


def _finite(value):
    if isinstance(value, float) and not math.isfinite(value):
        return "nan" if value != value else ("inf" if value > 0 else "-inf")
    if isinstance(value, dict):
        return {key: _finite(part) for key, part in value.items()}
    if isinstance(value, list):
        return [_finite(part) for part in value]
    return value


def readable(message: str, limit: int = MAX_MESSAGE) -> str:
    """A message as one line a person reads: line breaks written as spaces, each run of more than 60 digits (a
    number, a label) as its first and last digits and its length, and the whole cut to ``limit`` characters."""
    message = " ".join(message.splitlines())
    message = re.sub(r"\d{61,}", lambda run: f"{run.group()[:20]}...{run.group()[-8:]} ({len(run.group()):,} digits)",
                     message)
    if len(message) > limit:
        message = f"{message[:limit - 40]}... ({len(message):,} characters in all)"
    return message


def failure(error: Exception) -> tuple[int, str]:
    """The exit status of a command that raised ``error``, and the one line it writes on standard error."""
    if isinstance(error, Undecided):
        return EXIT["undecided"], f"ldpspec: undecided: {readable(str(error))}"
    if isinstance(error, SpecError):
        return EXIT["bad input"], f"ldpspec: error: {readable(str(error))}"
    return EXIT["bug"], (f"ldpspec: internal error ({type(error).__name__}: {str(error)[:200]}); this is a bug of "
                         "ldpspec, please report it with the command that caused it")


def answer(request: dict, progress=None) -> dict:
    """A whole ``ldpspec check`` or ``ldpspec profile`` as the site's page runs it: ``{"status", "stdout",
    "stderr"}``, what the command line gives for the same file and options.

    ``request``: ``command`` (``"check"`` or ``"profile"``), ``text`` (the channel file), and the options as the
    command line takes them, as texts: ``notion`` and ``parameters`` (``{parameter name: text}``) for a check;
    ``rows``, ``numbers``, ``remainder_to``, ``max_entries``, ``max_work`` (absent or ``None``: not given) and
    ``full`` (true or false). ``progress(what, done, total)``: where the kernel's long loops report (``spec.progress``).
    """
    limits = {}
    for key, option, default in (("max_entries", "--max-entries", MAX_ENTRIES), ("max_work", "--max-work",
                                                                                  MAX_PAIR_WORK)):
        given = request.get(key)
        try:
            limits[key] = default if given is None else size_limit(str(given))
        except ValueError as error:  # the last line of the command line's usage error (argparse)
            return {"status": EXIT["bad input"], "stdout": "",
                    "stderr": f"ldpspec {request.get('command')}: error: argument {option}: {error}\n"}
    try:
        reading = row_reading(request.get("rows"), request.get("numbers"), request.get("remainder_to"))
        with reporting(progress):
            if request["command"] == "check":
                verdict = check(request["text"], request["notion"], request.get("parameters") or {}, reading, **limits)
                result = verdict.to_json(full=bool(request.get("full")))
                status = verdict_status(verdict.holds)
            elif request["command"] == "profile":
                result, status = profile(request["text"], reading, complete=bool(request.get("full")), **limits), 0
            else:
                raise InvalidParameter(f"command must be check or profile, got {value_text(request['command'])}")
        return {"status": status, "stdout": json_text(result), "stderr": ""}
    except Exception as error:  # as the command line reports it: one line, never a traceback
        status, line = failure(error)
        return {"status": status, "stdout": "", "stderr": line + "\n"}

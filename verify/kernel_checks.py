"""Kernel checks: the notion verdicts a refutation rests on, recorded as the command line runs them.

A counterexample whose refutation rests on a notion's verdict on a channel ("this channel is ULDP", "this channel is
not MinID-LDP") carries, under the key ``kernel_checks``, one record per verdict: the channel written whole and exactly
as a channel file (``reference/channelfile.py``), the request ``ldpspec check`` takes, and the answer it gave when the
audit ran it through ``reference/tools/commands.py`` (``answer``, the code the command line runs, and the code the
site's "Try it" page runs in the reader's browser). A claim's page shows each check with a button that runs the same
request again in the browser (``verify/ledger_pages.py``). A counterexample that shows a channel but whose refutation
is not such a verdict (a variance, a ratio of errors) says why under ``no_kernel_check`` instead.

``kernel_check`` raises ``KernelCheckError`` when the command's answer is not the verdict the refutation rests on (or
is not a verdict at all): the check and the kernel disagree, which is a bug to find, never a record to keep.

The checks build their channels through the papers' builders, as their checks do: each paper's choice that shapes a
notion (``condition_11``, ``budget_owner``, ``pair_function``) picks the command's notion in that choice's builder.
"""

from __future__ import annotations

import json
import shlex
from collections.abc import Iterable, Iterator, Mapping
from fractions import Fraction

from ldpspec.reference.channelfile import channel_file_text
from ldpspec.reference.tools.commands import EXIT, answer
from ldpspec.spec import NOTIONS, label_to_json
from ldpspec.verify.claims import reading_key, running

KERNEL_CHECKS = "kernel_checks"
"""The key of a counterexample's kernel checks: a list of ``kernel_check`` records."""
NO_KERNEL_CHECK = "no_kernel_check"
"""The key of the sentence that says why a counterexample with a channel has no kernel check."""
FILE_NAME = "counterexample.json"
"""The channel file's name in the equivalent command line."""
EXPECTED = ("holds", "does not hold")
"""The verdicts a refutation rests on."""
OUTCOMES = {status: outcome for outcome, status in EXIT.items()}
"""The outcome of each exit status: ``{0: "holds", 1: "does not hold", 2: "bad input", ...}``."""


class KernelCheckError(RuntimeError):
    """The command line's answer on a counterexample is not the verdict its refutation rests on."""


def kernel_check(channel, notion: str, parameters: Mapping[str, str], *, what: str, expected: str,
                 classes: bool = False) -> dict:
    """``ldpspec check`` of ``notion`` on ``channel``, run now as the command line runs it, as a record:
    ``{"what", "command", "request", "answer"}``.

    ``channel``: the kernel's exact channel, written whole as a channel file. ``parameters``: the notion's
    parameters as typed on the command line, ``{parameter name: text}`` (``{"budgets": '["1/10", "5"]'}``; the
    helpers below write them). ``what``: one sentence, what the check shows. ``expected``: the verdict the
    refutation rests on, ``"holds"`` or ``"does not hold"``; any other answer raises ``KernelCheckError``.
    ``classes``: write a channel whose items come in classes (IDUE's) in format 3, one row per class."""
    if expected not in EXPECTED:
        raise ValueError(f"expected must be one of {EXPECTED}, got {expected!r}")
    declared = NOTIONS.get(notion)
    if declared is None:
        raise ValueError(f"no notion {notion!r}; the notions are {sorted(NOTIONS)}")
    options = {parameter.name: parameter.option for parameter in declared.parameters}
    unknown = sorted(set(parameters) - set(options))
    if unknown:
        raise ValueError(f"notion {notion} has no parameters {unknown}; its parameters are {sorted(options)}")
    if not all(isinstance(text, str) for text in parameters.values()):
        raise TypeError("each parameter is given as the text typed on the command line")
    ordered = {name: parameters[name] for name in options if name in parameters}
    request = {"command": "check", "text": channel_file_text(channel, description=what, classes=classes),
               "notion": notion, "parameters": ordered}
    result = answer(request)
    if result["status"] != EXIT[expected]:
        current = running()
        context = ("outside a check" if current is None else
                   f"in a check of {current.paper} under {reading_key(current.reading) or 'no choice'}")
        raise KernelCheckError(
            f"kernel check {context}: {what}: the refutation rests on '{expected}', but `{command_line(request)}` "
            f"gave {outcome_text(result)}: {(result['stderr'] or result['stdout']).strip()[:600]}")
    return {"what": what, "command": command_line(request), "request": request, "answer": result}


def command_line(request: Mapping) -> str:
    """The command line that a check's request runs, with its channel file named ``FILE_NAME``."""
    options = {parameter.name: parameter.option for parameter in NOTIONS[request["notion"]].parameters}
    words = ["ldpspec", "check", FILE_NAME, "--notion", request["notion"]]
    for name, text in request.get("parameters", {}).items():
        words += [options[name], shlex.quote(text)]
    return " ".join(words)


def outcome_text(result: Mapping) -> str:
    """An answer's verdict in words with its exit status: ``"does not hold (exit 1)"``."""
    return f"{OUTCOMES.get(result['status'], 'unknown')} (exit {result['status']})"


# --- parameters as typed on the command line -------------------------------------------------------------------------

def number_text(value) -> str:
    """A budget or a number as the command line reads it exactly: ``1/10``, ``5``, ``log(2)`` (a kernel number
    as its ``text()``)."""
    if isinstance(value, bool):
        raise TypeError(f"not a number: {value!r}")
    if hasattr(value, "text"):
        return value.text()
    if isinstance(value, (int, Fraction, str)):
        return str(value)
    raise TypeError(f"write {value!r} exactly (an int, a Fraction, a text or a kernel number), never a float")


def numbers_text(values: Iterable) -> str:
    """A JSON list of budgets or numbers (``None`` as ``null``): ``'["1/10", "5", null]'``."""
    return json.dumps([None if value is None else number_text(value) for value in values])


def input_budgets_text(channel, budgets: Mapping) -> str:
    """A budget for every input of ``channel``, in input order (``null`` for an input without one), from
    ``{input: budget}``."""
    return numbers_text(budgets.get(x) for x in channel.inputs)


def labels_text(labels: Iterable) -> str:
    """A JSON list of labels, tuples as lists: ``'[0, 1]'``, ``'["a", []]'``."""
    return json.dumps([label_to_json(label) for label in labels])


def pairs_text(pairs: Iterable) -> str:
    """A JSON list of pairs of labels (a policy graph)."""
    return json.dumps([[label_to_json(x), label_to_json(y)] for x, y in pairs])


# --- which counterexamples must carry checks ---------------------------------------------------------------------

def _shows_channel(value) -> bool:
    """Whether a counterexample (or a part of it) shows a channel: a key naming a channel or its rows, or a kernel
    verdict (a mapping with ``notion`` and ``holds``). The kernel checks themselves are not looked into."""
    if isinstance(value, Mapping):
        if "notion" in value and "holds" in value:
            return True
        return any(("channel" in str(key).lower() or "rows" in str(key).lower() or _shows_channel(item))
                   for key, item in value.items() if key not in (KERNEL_CHECKS, NO_KERNEL_CHECK))
    if isinstance(value, list):
        return any(_shows_channel(item) for item in value)
    return False


def shows_channel(counterexample: Mapping | None) -> bool:
    """Whether a counterexample shows a channel, so that it must carry ``kernel_checks`` or ``no_kernel_check``."""
    return bool(counterexample) and _shows_channel(counterexample)


def refuted_counterexamples(document: Mapping) -> Iterator[tuple[str, dict]]:
    """``(where, counterexample)`` for every refuted reading of a ledger document: ``"claim id [reading]"``."""
    for entry in document["claims"]:
        for result in entry["verdicts_by_reading"]:
            if result["verdict"] == "refuted" and result.get("counterexample"):
                yield f"{entry['id']} [{reading_key(result['reading']) or 'no choice'}]", result["counterexample"]


def unchecked_channels(document: Mapping) -> list[str]:
    """The refuted readings whose counterexample shows a channel yet carries neither ``kernel_checks`` nor
    ``no_kernel_check``."""
    return [where for where, counterexample in refuted_counterexamples(document) if shows_channel(counterexample)
            and not counterexample.get(KERNEL_CHECKS) and not counterexample.get(NO_KERNEL_CHECK)]


def distinct_checks(checks: Iterable[Mapping]) -> list[Mapping]:
    """``checks`` without repeats: one per request."""
    seen, kept = set(), []
    for check in checks:
        key = json.dumps(check["request"], sort_keys=True)
        if key not in seen:
            seen.add(key)
            kept.append(check)
    return kept

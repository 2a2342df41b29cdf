"""The channel file: a channel and its privacy parameters as JSON.

Format (documented on the site, page "Channel file format"):

```json
{
  "format": "ldpspec-channel/1",
  "description": "GRR on three items, eps = ln 2",
  "inputs": ["a", "b", "c"],
  "outputs": ["a", "b", "c"],
  "probabilities": [["0.5", "0.25", "0.25"], ["0.25", "0.5", "0.25"], ["0.25", "0.25", "0.5"]],
  "privacy": {
    "epsilon": "log(2)",
    "budgets": ["0.7", null, "1.5"]
  }
}
```

* ``inputs``/``outputs``: unique labels; a label is a string, an integer, a
  number, ``null``, or a list of labels (an item set, a bit vector, a pair).
* ``probabilities``: one row per input, one entry per output, ``P[y|x]``.
  Entries are decimal strings, exact fraction strings such as ``"1/3"``,
  expressions of them with ``+ - * /``, parentheses and ``exp(q)`` for rational
  ``q`` (``"exp(1)/(exp(1)+2)"``), or JSON numbers; every form is read exactly
  from its text. Rows must sum to exactly 1. Files written by the kernel carry
  the exact values the mechanisms compute.
* ``privacy`` (optional): the parameters of the notions, under the keys the notions declare
  (``ldpspec.spec.notions.PRIVACY_KEYS``): ``epsilon``, ``budgets`` (one per input, in input order, ``null`` for an
  input without a budget), ``pair_function``, ``policy``, ``sensitive_inputs``, ``protected_outputs``,
  ``sensitive_items``, ``non_sensitive_items``, ``boundaries``, ``interval_budgets``. The command line uses them
  when an option is not given. A budget is a number or ``log(x)`` (``"log(3)"``).
* Numbers are at most 2000 characters long, with a decimal exponent within ±2000 (``spec.exact``).
* ``description`` (optional): free text. ``metadata`` (optional): any JSON object.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from decimal import Decimal

from ldpspec.spec.channel import Channel, check_entries, label_to_json
from ldpspec.spec.errors import InvalidChannel, SpecError
from ldpspec.spec.notions import PRIVACY_KEYS
from ldpspec.spec.numbers import budget
from ldpspec.spec.parameters import input_budgets, label_from_json

FORMAT = "ldpspec-channel/1"
_TOP_LEVEL = {"format", "description", "metadata", "inputs", "outputs", "probabilities", "privacy"}


@dataclass(frozen=True)
class ChannelFile:
    """A channel with the privacy parameters stored beside it.

    ``privacy`` maps keys of the file's privacy section to values as the notions take them: budgets are exact
    numbers, ``budgets`` is ``{input: budget}`` (inputs without a budget left out), lists of labels are tuples.
    """

    channel: Channel
    privacy: dict = field(default_factory=dict)
    description: str = ""
    metadata: dict = field(default_factory=dict)


def _labels(document: dict, key: str) -> list:
    value = document.get(key)
    if not isinstance(value, list):
        raise InvalidChannel(f"channel file: '{key}' must be a list of labels")
    return [label_from_json(label, f"channel file: {key}[{k}]") for k, label in enumerate(value)]


def _number_text(value, where: str):
    if isinstance(value, (str, Decimal, int)) and not isinstance(value, bool):
        return value
    raise InvalidChannel(f"{where} must be a number: a decimal string, a fraction, an expression or a JSON number; "
                         f"got {type(value).__name__} {value!r}"[:300])


def parse_channel_file(text: str, max_entries: int | None = None) -> ChannelFile:
    """Read a channel file from its JSON text; raise ``SpecError`` naming what is wrong.

    A file of more than ``max_entries`` probabilities (``spec.channel.MAX_ENTRIES`` by default) is refused before its
    numbers are read.
    """
    try:
        document = json.loads(text, parse_float=Decimal)
    except json.JSONDecodeError as error:
        raise InvalidChannel(f"channel file is not valid JSON: {error}") from None
    except RecursionError:
        raise InvalidChannel("channel file nests lists or objects too deeply to read") from None
    except ValueError as error:  # an integer of more digits than Python converts
        raise InvalidChannel(f"channel file has a number that cannot be read: {error}") from None
    if not isinstance(document, dict):
        raise InvalidChannel("channel file must be a JSON object")
    unknown = set(document) - _TOP_LEVEL
    if unknown:
        raise InvalidChannel(f"channel file has unknown keys {sorted(unknown)}; allowed: {sorted(_TOP_LEVEL)}")
    if document.get("format", FORMAT) != FORMAT:
        raise InvalidChannel(f"channel file format must be {FORMAT!r}, got {document.get('format')!r}")
    inputs, outputs = _labels(document, "inputs"), _labels(document, "outputs")
    rows = document.get("probabilities")
    if not isinstance(rows, list) or not all(isinstance(row, list) for row in rows):
        raise InvalidChannel("channel file: 'probabilities' must be a list of rows (lists)")
    check_entries(len(inputs) * len(outputs), f"the channel file ({len(inputs):,} inputs x {len(outputs):,} outputs)",
                  max_entries)
    entries = [[_number_text(value, f"channel file: probabilities[{i}][{j}]") for j, value in enumerate(row)]
               for i, row in enumerate(rows)]
    channel = Channel(inputs, outputs, entries)

    section = document.get("privacy", {})
    if not isinstance(section, dict):
        raise InvalidChannel("channel file: 'privacy' must be an object")
    unknown = set(section) - set(PRIVACY_KEYS)
    if unknown:
        raise InvalidChannel(f"channel file: 'privacy' has unknown keys {sorted(unknown)}; "
                             f"allowed: {sorted(PRIVACY_KEYS)}")
    privacy = {}
    for key, value in section.items():
        if value is None:
            continue
        parameter = PRIVACY_KEYS[key]
        parsed = parameter.parse(value, f"privacy.{key}")
        privacy[key] = input_budgets(channel.inputs, parsed, f"privacy.{key}") if parameter.kind == "input-budgets" \
            else parsed
    description = document.get("description", "")
    metadata = document.get("metadata", {})
    if not isinstance(description, str) or not isinstance(metadata, dict):
        raise InvalidChannel("channel file: 'description' must be a string and 'metadata' an object")
    return ChannelFile(channel, privacy, description, json.loads(json.dumps(metadata, default=str)))


def read_channel_file(path, max_entries: int | None = None) -> ChannelFile:
    """Read a channel file from ``path`` (``max_entries`` as for ``parse_channel_file``)."""
    try:
        with open(path, encoding="utf-8") as handle:
            text = handle.read()
    except OSError as error:
        raise SpecError(f"cannot read channel file {path}: {error.strerror or error}") from None
    except UnicodeDecodeError:
        raise InvalidChannel(f"channel file {path} is not UTF-8 text") from None
    except ValueError as error:  # a path the system cannot name (a NUL byte)
        raise SpecError(f"cannot read channel file {path!r}: {error}") from None
    return parse_channel_file(text, max_entries)


def _privacy_to_json(channel: Channel, key: str, value):
    if key not in PRIVACY_KEYS:
        raise InvalidChannel(f"privacy has unknown key {key!r}; allowed: {sorted(PRIVACY_KEYS)}")
    parameter = PRIVACY_KEYS[key]
    parsed = parameter.parse(value, f"privacy.{key}") if parameter.kind != "input-budgets" else value
    if parameter.kind in ("budget", "number"):
        return parsed.text()
    if parameter.kind == "input-budgets":  # a mapping {input: budget}, which may compute its values when asked
        if isinstance(value, dict):
            unknown = [x for x in value if x not in set(channel.inputs)]
            if unknown:
                raise InvalidChannel(f"privacy.{key} names unknown inputs {unknown!r}")
        budgets = [value.get(x) for x in channel.inputs]
        return [None if b is None else budget(b, f"privacy.{key}[{x!r}]").text()
                for x, b in zip(channel.inputs, budgets)]
    if parameter.kind in ("budgets", "numbers"):
        return [v.text() for v in parsed]
    if parameter.kind in ("labels", "label-pairs"):
        return [label_to_json(v) for v in parsed]
    return parsed


def channel_file_text(channel: Channel, *, privacy: dict | None = None, description: str = "",
                      metadata: dict | None = None) -> str:
    """The JSON text of a channel file for ``channel``, with ``privacy`` keyed as the file's privacy section.

    Values are given as the code takes them: budgets as numbers or exact strings, ``budgets`` as
    ``{input: budget}``, labels as lists or tuples.
    """
    document = {"format": FORMAT}
    if description:
        document["description"] = description
    if metadata:
        document["metadata"] = metadata
    document["inputs"] = [label_to_json(x) for x in channel.inputs]
    document["outputs"] = [label_to_json(y) for y in channel.outputs]
    texts = {}  # id -> text: a mechanism's matrix repeats a few exact numbers
    document["probabilities"] = [[texts.get(id(p)) or texts.setdefault(id(p), p.text()) for p in row]
                                 for row in channel.rows]
    section = {key: _privacy_to_json(channel, key, value) for key, value in (privacy or {}).items()
               if value is not None}
    if section:
        document["privacy"] = section
    # One line per key and one line per row, so that files stay readable and diffable.
    lines = []
    for key, value in document.items():
        if key == "probabilities":
            rows = ",\n".join("  " + json.dumps(row) for row in value)
            lines.append(f' "probabilities": [\n{rows}\n ]')
        else:
            lines.append(f" {json.dumps(key)}: {json.dumps(value)}")
    return "{\n" + ",\n".join(lines) + "\n}\n"


def write_channel_file(path, channel: Channel, **options) -> None:
    """Write ``channel`` (with ``privacy``, ``description`` and ``metadata``, see ``channel_file_text``) to ``path``."""
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(channel_file_text(channel, **options))

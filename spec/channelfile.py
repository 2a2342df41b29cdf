"""The channel file: a channel and its privacy parameters as JSON.

Format (documented on the site, page "Channel file"):

```json
{
  "format": "ldpspec-channel/1",
  "description": "GRR on three items, eps = ln 2",
  "inputs": ["a", "b", "c"],
  "outputs": ["a", "b", "c"],
  "probabilities": [["0.5", "0.25", "0.25"], ["0.25", "0.5", "0.25"], ["0.25", "0.25", "0.5"]],
  "privacy": {
    "epsilon": "0.6931471805599453094172321214581765680755",
    "budgets": ["0.7", null, "1.5"],
    "sensitive_inputs": ["a"],
    "protected_outputs": ["a", "b", "c"]
  }
}
```

* ``inputs``/``outputs``: unique labels; a label is a string, an integer, a
  number, ``null``, or a list of labels (an item set, a bit vector, a pair).
* ``probabilities``: one row per input, one entry per output, ``P[y|x]``.
  Entries are decimal strings, exact fraction strings such as ``"1/3"``, or
  JSON numbers (read exactly from their text).
  Files written by the kernel carry 50 significant digits; rows must sum to 1
  within 1e-36, so an entry that is not an exact decimal needs at least about
  40 significant digits.
* ``privacy`` (optional): ``epsilon`` (one budget), ``budgets`` (one per input,
  in input order, ``null`` for an input without a budget, such as a
  non-sensitive item in IPLDP), ``sensitive_inputs``, ``protected_outputs``.
  The command line uses them as defaults for ``ldpspec check``.
* ``description`` (optional): free text. ``metadata`` (optional): any JSON object.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from decimal import Decimal

from ldpspec.spec.channel import Channel, normalize_label
from ldpspec.spec.errors import InvalidChannel, SpecError
from ldpspec.spec.numbers import budget, to_decimal_string

FORMAT = "ldpspec-channel/1"
_TOP_LEVEL = {"format", "description", "metadata", "inputs", "outputs", "probabilities", "privacy"}
_PRIVACY = {"epsilon", "budgets", "sensitive_inputs", "protected_outputs"}


@dataclass(frozen=True)
class ChannelFile:
    """A channel with the privacy parameters stored beside it."""

    channel: Channel
    epsilon: object = None
    budgets: dict = field(default_factory=dict)
    sensitive_inputs: tuple | None = None
    protected_outputs: tuple | None = None
    description: str = ""
    metadata: dict = field(default_factory=dict)


def _label_from_json(value, where: str):
    """JSON integers stay integers; other JSON numbers (parsed as Decimal) become floats."""
    if isinstance(value, Decimal):
        return normalize_label(float(value), where)
    if isinstance(value, list):
        return tuple(_label_from_json(part, where) for part in value)
    return normalize_label(value, where)


def _labels(document: dict, key: str) -> list:
    value = document.get(key)
    if not isinstance(value, list):
        raise InvalidChannel(f"channel file: '{key}' must be a list of labels")
    return [_label_from_json(label, f"channel file: {key}[{k}]") for k, label in enumerate(value)]


def _number_text(value, where: str) -> str:
    if isinstance(value, (str, Decimal, int)) and not isinstance(value, bool):
        return str(value)
    raise InvalidChannel(f"{where} must be a decimal string or a number, got {value!r}")


def parse_channel_file(text: str) -> ChannelFile:
    """Read a channel file from its JSON text; raise ``SpecError`` naming what is wrong."""
    try:
        document = json.loads(text, parse_float=Decimal)
    except json.JSONDecodeError as error:
        raise InvalidChannel(f"channel file is not valid JSON: {error}") from None
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
    entries = [[_number_text(value, f"channel file: probabilities[{i}][{j}]") for j, value in enumerate(row)]
               for i, row in enumerate(rows)]
    channel = Channel(inputs, outputs, entries)

    privacy = document.get("privacy", {})
    if not isinstance(privacy, dict):
        raise InvalidChannel("channel file: 'privacy' must be an object")
    unknown = set(privacy) - _PRIVACY
    if unknown:
        raise InvalidChannel(f"channel file: 'privacy' has unknown keys {sorted(unknown)}; allowed: {sorted(_PRIVACY)}")
    epsilon = None
    if privacy.get("epsilon") is not None:
        epsilon = budget(_number_text(privacy["epsilon"], "privacy.epsilon"), "privacy.epsilon")
    budgets = {}
    if "budgets" in privacy:
        values = privacy["budgets"]
        if not isinstance(values, list) or len(values) != len(channel.inputs):
            raise InvalidChannel(
                f"channel file: privacy.budgets must be a list with one entry per input ({len(channel.inputs)}), "
                "null for an input without a budget")
        for x, value in zip(channel.inputs, values):
            if value is not None:
                budgets[x] = budget(_number_text(value, f"privacy.budgets[{x!r}]"), f"privacy.budgets[{x!r}]")
    sensitive = protected = None
    if "sensitive_inputs" in privacy:
        sensitive = tuple(_labels(privacy, "sensitive_inputs"))
    if "protected_outputs" in privacy:
        protected = tuple(_labels(privacy, "protected_outputs"))
    description = document.get("description", "")
    metadata = document.get("metadata", {})
    if not isinstance(description, str) or not isinstance(metadata, dict):
        raise InvalidChannel("channel file: 'description' must be a string and 'metadata' an object")
    return ChannelFile(channel, epsilon, budgets, sensitive, protected, description,
                       json.loads(json.dumps(metadata, default=str)))


def read_channel_file(path) -> ChannelFile:
    """Read a channel file from ``path``."""
    try:
        with open(path, encoding="utf-8") as handle:
            text = handle.read()
    except OSError as error:
        raise SpecError(f"cannot read channel file {path}: {error.strerror}") from None
    return parse_channel_file(text)


def _label_to_json(label):
    return list(map(_label_to_json, label)) if isinstance(label, tuple) else label


def channel_file_text(channel: Channel, *, epsilon=None, budgets=None, sensitive_inputs=None,
                      protected_outputs=None, description: str = "", metadata=None) -> str:
    """The JSON text of a channel file for ``channel`` and the given privacy parameters."""
    document = {"format": FORMAT}
    if description:
        document["description"] = description
    if metadata:
        document["metadata"] = metadata
    document["inputs"] = [_label_to_json(x) for x in channel.inputs]
    document["outputs"] = [_label_to_json(y) for y in channel.outputs]
    document["probabilities"] = [[to_decimal_string(p) for p in row] for row in channel.rows]
    privacy = {}
    if epsilon is not None:
        privacy["epsilon"] = to_decimal_string(budget(epsilon))
    if budgets:
        privacy["budgets"] = [None if budgets.get(x) is None else to_decimal_string(budget(budgets[x], f"budgets[{x!r}]"))
                              for x in channel.inputs]
    if sensitive_inputs is not None:
        privacy["sensitive_inputs"] = [_label_to_json(normalize_label(x)) for x in sensitive_inputs]
    if protected_outputs is not None:
        privacy["protected_outputs"] = [_label_to_json(normalize_label(y)) for y in protected_outputs]
    if privacy:
        document["privacy"] = privacy
    # One line per key and one line per row, so that files stay readable and diffable.
    lines = []
    for key, value in document.items():
        if key == "probabilities":
            rows = ",\n".join("  " + json.dumps(row) for row in value)
            lines.append(f' "probabilities": [\n{rows}\n ]')
        else:
            lines.append(f" {json.dumps(key)}: {json.dumps(value)}")
    return "{\n" + ",\n".join(lines) + "\n}\n"


def write_channel_file(path, channel: Channel, **privacy) -> None:
    """Write ``channel`` (and privacy parameters, see ``channel_file_text``) to ``path``."""
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(channel_file_text(channel, **privacy))

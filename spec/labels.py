"""Labels: what a channel's inputs and outputs are named by, and how they are read and written.

A label is a string, an integer, a finite float or Decimal (a number read from a channel file keeps its exact value),
``None``, or a tuple of labels (an item set, a bit vector, a pair of components). Lists are accepted and stored as
tuples. Labels of one side must be unique.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Mapping
from decimal import Decimal
from fractions import Fraction

from ldpspec.spec.errors import InvalidChannel, InvalidParameter


def output_to_json(y):
    """An output for a report: as ``label_to_json``, but a bit vector of more than 64 bits as its length and the
    positions of its rarer value (a deployment's witness has 10^5 bits, nearly all alike)."""
    if isinstance(y, tuple) and len(y) > 64 and all(type(bit) is int and bit in (0, 1) for bit in y):
        ones = [k for k, bit in enumerate(y) if bit]
        if 2 * len(ones) <= len(y):
            return {"bits": len(y), "ones": ones}
        return {"bits": len(y), "zeros": [k for k, bit in enumerate(y) if not bit]}
    return label_to_json(y)


MESSAGE_VALUE_LIMIT = 80
"""The most characters ``value_text`` shows of a value by default: a message names a value, it does not list it."""


def value_text(value, limit: int = MESSAGE_VALUE_LIMIT) -> str:
    """A value for an error message, written as the user wrote it: JSON-like text with the shapes ``label_to_json``
    gives (tuples and lists as ``[...]``, strings in double quotes, ``null``, ``true``), a Decimal as its decimal text
    (``0.5``, ``0E+999999999``), a fraction as ``p/q``, an exact number (``Exact``, ``Nats``, mpmath) as its text, a
    NumPy value as the list or number it holds; anything else by its type (``a function``); a bit vector of more than
    64 bits as ``label_text`` shows it (its length and the positions of its rarer value). Cut to ``limit``
    characters, ending in ``...``: a value may have millions of entries, and only its start is read, never all of it.

    Never a Python repr: a user who typed ``0.5`` in a file reads ``0.5``, not ``Decimal('0.5')``."""
    if isinstance(value, tuple) and isinstance(output_to_json(value), dict):  # a bit vector of 10^5 bits
        return label_text(value, limit)
    parts: list[str] = []
    size = [0]

    def put(text: str) -> None:
        parts.append(text)
        size[0] += len(text)
        if size[0] > limit:
            raise _Full

    try:
        _write_value(value, put, 0, limit)
    except _Full:
        text = "".join(parts)
        return text[:max(limit - 3, 0)] + "..."
    return "".join(parts)


class LazyText:
    """A name for a message, written only when a message is: a channel of 10^6 entries names each entry it reads
    (``P["a"|0]``), and ``value_text`` costs microseconds, so the text is built from ``make`` on ``str()``."""

    __slots__ = ("_make",)

    def __init__(self, make):
        self._make = make

    def __str__(self) -> str:
        return self._make()

    def __format__(self, spec: str) -> str:
        return format(str(self), spec)


def entry_name(x, y, what: str = "") -> LazyText:
    """``P[y|x]`` (``what`` before ``|``: ``P[hot bit 3 | x]``), as a message writes it, built when needed."""
    return LazyText(lambda: f"P[{what}{value_text(y)}|{value_text(x)}]")


class _Full(Exception):
    """``value_text`` has written as much as it shows."""


def _write_value(value, put, depth: int, limit: int) -> None:
    if depth > MAX_LABEL_DEPTH:  # a value nested deeper than any label: its start is enough to recognise it
        put("[...]")
    elif value is None or isinstance(value, bool):
        put({None: "null", True: "true", False: "false"}[value])
    elif isinstance(value, str):
        put(_quoted(value[:limit + 1]))  # a seed or a file's text may have megabytes; the start is what is shown
    elif isinstance(value, int):
        # Python refuses to print an integer of more than 4,300 digits; a message needs only its size
        put(str(value) if value.bit_length() < 4 * MESSAGE_VALUE_LIMIT else
            f"{'a negative' if value < 0 else 'an'} integer of about {int(value.bit_length() * 0.30103):,} digits")
    elif isinstance(value, float):
        # repr of the float itself: a NumPy float is a float whose repr names its type
        put(repr(float(value)) if math.isfinite(value) else "NaN" if value != value else
            "Infinity" if value > 0 else "-Infinity")  # as JSON writes them
    elif isinstance(value, Decimal):
        put(str(value))
    elif isinstance(value, Fraction):
        put(str(value))  # p/q, as a fraction is typed
    elif isinstance(value, (tuple, list, set, frozenset)):
        # a set has no order: sorted by its text, so that a message is the same on every run
        items = sorted(value, key=value_text) if isinstance(value, (set, frozenset)) and len(value) <= 1000 else value
        put("[")
        for k, item in enumerate(items):
            if k:
                put(", ")
            _write_value(item, put, depth + 1, limit)
        put("]")
    elif isinstance(value, Mapping):
        put("{")
        for k, (key, item) in enumerate(value.items()):
            if k:
                put(", ")
            put(_quoted(key) if isinstance(key, str) else value_text(key))
            put(": ")
            _write_value(item, put, depth + 1, limit)
        put("}")
    elif type(value).__module__.split(".")[0] == "numpy" and hasattr(value, "tolist"):
        _write_value(value.tolist(), put, depth, limit)
    elif type(value).__module__.startswith("ldpspec.spec") and callable(getattr(value, "text", None)):
        put(value.text())  # an exact number of the kernel (Exact, Nats): the text it is written with
    elif type(value).__module__.split(".")[0] == "mpmath":
        put(str(value))
    else:
        name = type(value).__name__
        put(f"{'an' if name[:1].lower() in 'aeiou' else 'a'} {name}")


def _quoted(text: str) -> str:
    """A string as JSON writes it; a lone surrogate (which no terminal prints) escaped."""
    quoted = json.dumps(text, ensure_ascii=False)
    try:
        quoted.encode("utf-8")
    except UnicodeEncodeError:
        quoted = json.dumps(text)
    return quoted


def label_text(label, limit: int = 80) -> str:
    """A label for a sentence: its ``repr`` (a decimal as its text), or for a bit vector of more than 64 bits its
    length and the positions of its rarer value (``output_to_json``), cut to about ``limit`` characters: a witness's
    output may have 10^7 bits."""
    shown = output_to_json(label)
    if isinstance(shown, dict):
        rarer = "ones" if "ones" in shown else "zeros"
        positions = ", ".join(map(str, shown[rarer][:8])) + (", ..." if len(shown[rarer]) > 8 else "")
        return f"<{shown['bits']:,} bits, {rarer} at [{positions}]>"
    text = _label_repr(label)
    return text if len(text) <= limit else text[:limit - 3] + "..."


def _label_repr(label) -> str:
    """A label as Python writes a label of strings, integers and tuples (the verdicts' wording), but a decimal as the
    text the user wrote (``0.5``, not ``Decimal('0.5')``)."""
    if isinstance(label, tuple):
        inner = ", ".join(_label_repr(part) for part in label)
        return f"({inner},)" if len(label) == 1 else f"({inner})"
    if isinstance(label, Decimal):
        return str(label)
    return repr(label)


MAX_LABEL_DEPTH = 50
"""The deepest nesting of lists a label may have (a set of pairs is 3 deep): reading a label is a call per level."""


def normalize_label(label, name: str = "label", _depth: int = 0):
    """Return ``label`` in canonical form (lists become tuples), or raise InvalidChannel."""
    if _depth > MAX_LABEL_DEPTH:
        raise InvalidChannel(f"{name} must be nested at most {MAX_LABEL_DEPTH} lists deep")
    if label is None or isinstance(label, str):
        return label
    if isinstance(label, bool):
        raise InvalidChannel(f"{name} must be a string, an integer, a number, null or a list of those; got a boolean")
    if isinstance(label, int):
        return label
    if isinstance(label, float):
        if not math.isfinite(label):
            raise InvalidChannel(f"{name} must be finite, got {value_text(label)}")
        return label
    if isinstance(label, Decimal):
        if not label.is_finite():
            raise InvalidChannel(f"{name} must be finite, got {label}")
        return label
    if isinstance(label, (list, tuple)):
        return tuple(normalize_label(part, name, _depth + 1) for part in label)
    raise InvalidChannel(f"{name} must be a string, integer, float, null or a list of those; got "
                         f"{type(label).__name__} {value_text(label)}")


def unique_labels(labels: Iterable, side: str) -> tuple:
    normalized = tuple(normalize_label(label, f"{side} label") for label in labels)
    if not normalized:
        raise InvalidChannel(f"a channel needs at least one {side}; got none")
    seen = {}
    for label in normalized:
        if label in seen:
            raise InvalidChannel(f"{side} labels must be unique; {value_text(label)} appears twice"
                                 + ("" if _same_text(seen[label], label) else
                                    f" (as {value_text(seen[label])} and {value_text(label)})"))
        seen[label] = label
    return normalized


def label_map(labels: Iterable, values: Mapping, name: str, *, complete: bool = True) -> dict:
    """Attach ``values[label]`` to labels, with clear errors for unknown or missing labels.

    Used by every predicate that takes a per-label parameter (budgets, sets of labels).
    """
    labels = tuple(labels)
    known = set(labels)
    if not isinstance(values, Mapping):
        raise InvalidParameter(f"{name} must be a mapping from labels to values, got {type(values).__name__}")
    normalized = {}
    for key, value in values.items():
        label = normalize_label(key, f"{name} label")
        if label not in known:
            raise InvalidParameter(f"{name} names unknown label {value_text(key)}; the labels are "
                                   f"{value_text(labels)}")
        normalized[label] = value
    if complete:
        missing = [label for label in labels if label not in normalized]
        if missing:
            raise InvalidParameter(f"{name} must give a value for every label; none is given for "
                                   + ("label " if len(missing) == 1 else "labels ")
                                   + value_text(missing[0] if len(missing) == 1 else missing))
    return normalized


def label_subset(labels: Iterable, subset: Iterable, name: str) -> frozenset:
    """``subset`` as a set of known labels, with a clear error for unknown ones."""
    labels = tuple(labels)
    known = set(labels)
    result = set()
    for key in label_list(subset, name, InvalidParameter):
        label = normalize_label(key, f"{name} label")
        if label not in known:
            raise InvalidParameter(f"{name} names unknown label {value_text(key)}; the labels are "
                                   f"{value_text(labels)}")
        result.add(label)
    return frozenset(result)


def label_to_json(label):
    """A label as JSON: tuples become lists; a Decimal (a number read from a file) becomes the float that prints as
    it when there is one, else its text."""
    if isinstance(label, tuple):
        return [label_to_json(part) for part in label]
    if isinstance(label, Decimal):
        as_float = float(label)
        return as_float if Decimal(repr(as_float)) == label else str(label)
    return label


def json_ready(value):
    """``value`` (dicts, lists and tuples of labels, strings and numbers) as JSON data: every label as
    ``label_to_json`` writes it (a number read from a file is a Decimal, which ``json`` cannot write)."""
    if isinstance(value, dict):
        return {key: json_ready(part) for key, part in value.items()}
    if isinstance(value, (list, tuple)):
        return [json_ready(part) for part in value]
    if isinstance(value, Decimal):
        return label_to_json(value)
    return value


def sequence(value, name: str, error=InvalidParameter) -> tuple:
    """``value`` as a tuple when it is a list or tuple (not text, a mapping or a set), else ``error`` naming ``name``.

    The front door of every container argument: ``"10"`` is not the row ``[1, 0]``, and a set has no order.
    """
    if isinstance(value, (list, tuple)):
        return tuple(value)
    if hasattr(value, "tolist") and getattr(value, "ndim", 0) >= 1:  # a NumPy array
        return tuple(value.tolist())
    raise error(f"{name} must be a list, got {type(value).__name__} {value_text(value, 60)}")


def label_list(value, name: str, error=InvalidChannel) -> tuple:
    """Labels given as an iterable (list, tuple, range, set, generator); text is not a list of labels, nor a number."""
    if isinstance(value, (str, bytes, Mapping)) or not isinstance(value, Iterable):
        raise error(f"{name} must be a list of labels, got {type(value).__name__} {value_text(value, 60)}")
    return tuple(value)


def _same_text(first, second) -> bool:
    """Whether two equal labels are written alike (``0`` and ``0E+999999999`` are equal labels written apart)."""
    return value_text(first) == value_text(second)

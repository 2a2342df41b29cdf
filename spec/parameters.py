"""Parameters of notions and mechanisms, declared once and read by the command line, channel files and listings.

A ``Parameter`` says what a value means (``help``), how it is written (``kind``), and where it appears: the
command-line option ``--NAME``, the Python keyword of the predicate or mechanism, and, for a notion, the key of the
channel file's ``privacy`` section. ``parse`` turns a value as given (text on the command line, or a JSON value from
a channel file) into what the code takes, and raises ``InvalidParameter`` naming where it came from.

Numbers are never read through float64: JSON numbers are parsed as ``Decimal`` and budgets and numbers stay exact.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from decimal import Decimal

from ldpspec.spec.errors import InvalidChannel, InvalidParameter
from ldpspec.spec.exact import cut_text
from ldpspec.spec.labels import normalize_label, value_text
from ldpspec.spec.numbers import budget, exact_number, integer, integer_range
from ldpspec.spec.parse import MAX_DECIMAL_EXPONENT, MAX_TEXT

KINDS = {
    "budget": "a privacy budget >= 0, a decimal or a fraction such as 1/3 (read exactly)",
    "number": "a real number, a decimal or a fraction (read exactly)",
    "integer": "an integer",
    "choice": "one of the listed values",
    "budgets": "a JSON list of budgets",
    "input-budgets": "a JSON list with one budget per input of the channel, in input order, null for an input without "
                     "one",
    "levels": "a JSON list of [budget, number of items] pairs",
    "labels": "a JSON list of labels",
    "label-pairs": "a JSON list of pairs of labels",
    "numbers": "a JSON list of numbers (read exactly)",
}
"""How a parameter is written, by kind."""

_LISTS = {"budgets", "input-budgets", "levels", "labels", "label-pairs", "numbers"}


@dataclass(frozen=True)
class Parameter:
    """One parameter of a notion or a mechanism.

    Attributes:
        name: the command-line option without its dashes (``"self-pairs"`` is ``--self-pairs``).
        kind: how the value is written, a key of ``KINDS``.
        help: what it means and what is allowed, in the user's terms.
        keyword: the Python keyword argument; by default ``name`` with ``-`` replaced by ``_``.
        required: whether a value must be given (otherwise ``default`` or the code's own default applies).
        default: the value used when none is given, written as on the command line.
        choices: the allowed values of a ``choice``.
        example: a value that gives a small example (mechanisms), written as on the command line.
        file_key: the key of the channel file's ``privacy`` section that holds the value (notions).
        minimum, maximum: the range of an ``integer`` (``None``: unbounded on that side).
        edges: values at the edges of what the parameter allows that an implementation must still get right (the
            porting kit's vectors test each), as ``edges(example)``: ``[(value as typed, flag)]`` for a mechanism
            whose other parameters take their example values ``example`` (``{name: value as typed}``); the flag
            names what a slip there would get wrong.
    """

    name: str
    kind: str
    help: str
    keyword: str = ""
    required: bool = True
    default: str | None = None
    choices: tuple = ()
    example: str | None = None
    file_key: str | None = None
    minimum: int | None = None
    maximum: int | None = None
    edges: Callable[[Mapping], list] | None = None

    def __post_init__(self):
        if self.kind not in KINDS:
            raise ValueError(f"parameter {self.name}: kind must be one of {sorted(KINDS)}, got {self.kind!r}")
        if not self.keyword:
            object.__setattr__(self, "keyword", self.name.replace("-", "_"))

    @property
    def option(self) -> str:
        return f"--{self.name}"

    def to_json(self) -> dict:
        listing = {"name": self.name, "type": self.kind, "help": self.help}
        if self.choices:
            listing["choices"] = list(self.choices)
        if self.default is not None:
            listing["default"] = self.default
        if self.minimum is not None:
            listing["minimum"] = self.minimum
        if self.maximum is not None:
            listing["maximum"] = self.maximum
        if self.file_key is not None:
            listing["file_key"] = self.file_key
        return listing

    def parse(self, value, where: str | None = None):
        """The value in the form the code takes; ``value`` is command-line text or a decoded JSON value.

        ``where`` names the value in messages (default: the option, ``--NAME``).
        """
        where = where or self.option
        if isinstance(value, str) and self.kind in _LISTS:
            value = _json(value, where, self.kind)
        if self.kind == "budget":
            return budget(_number(value, where), where)
        if self.kind == "number":
            return exact_number(_number(value, where), where)
        if self.kind == "integer":
            return _integer(value, where, self.minimum, self.maximum)
        if self.kind == "choice":
            if value not in self.choices:
                raise InvalidParameter(f"{where} must be one of {', '.join(self.choices)}; got {value_text(value)}")
            return value
        items = _list(value, where, self.kind)
        if self.kind == "budgets":
            return tuple(budget(_number(v, f"{where}[{k}]"), f"{where}[{k}]") for k, v in enumerate(items))
        if self.kind == "input-budgets":  # one budget per input: a deployment repeats a few texts 10^5 times
            read = {}

            def one(k, v):
                if not isinstance(v, (str, int, float)):  # read as it is, to say what is wrong with it
                    return budget(_number(v, f"{where}[{k}]"), f"{where}[{k}]")
                key = (type(v), v)
                if key not in read:
                    read[key] = budget(_number(v, f"{where}[{k}]"), f"{where}[{k}]")
                return read[key]
            return tuple(None if v is None else one(k, v) for k, v in enumerate(items))
        if self.kind == "levels":
            levels = []
            for k, level in enumerate(items):
                if not isinstance(level, list) or len(level) != 2:
                    raise InvalidParameter(f"{where}[{k}] must be a pair [budget, number of items]; got "
                                           f"{value_text(level)}")
                levels.append((budget(_number(level[0], f"{where}[{k}][0]"), f"{where}[{k}][0]"),
                               _integer(level[1], f"{where}[{k}][1]")))
            return tuple(levels)
        if self.kind == "labels":
            return tuple(label_from_json(v, f"{where}[{k}]") for k, v in enumerate(items))
        if self.kind == "label-pairs":
            pairs = []
            for k, pair in enumerate(items):
                if not isinstance(pair, list) or len(pair) != 2:
                    raise InvalidParameter(f"{where}[{k}] must be a pair of labels; got {value_text(pair)}")
                pairs.append(tuple(label_from_json(v, f"{where}[{k}]") for v in pair))
            return tuple(pairs)
        return tuple(exact_number(_number(v, f"{where}[{k}]"), f"{where}[{k}]") for k, v in enumerate(items))  # numbers


def label_from_json(value, where: str):
    """A label read from JSON: integers stay integers and other numbers keep their exact value (as Decimal), so that
    a numerical label means the number written, not its nearest double."""
    try:
        return normalize_label(value, where)  # lists become tuples; numbers stay as read (Decimal)
    except InvalidChannel as error:
        raise InvalidParameter(str(error)) from None


def input_budgets(inputs, values: tuple, where: str) -> dict:
    """``{input: budget}`` from a list with one entry per input (``None`` entries are left out)."""
    inputs = tuple(inputs)
    if len(values) != len(inputs):
        raise InvalidParameter(f"{where} must give one budget per input ({len(inputs)} inputs, in input order, "
                               f"null for an input without one); got {len(values)}")
    return {x: value for x, value in zip(inputs, values) if value is not None}


class _Unreadable:
    """A JSON number beyond the range of ``Decimal`` (an exponent of 10^18 or more), kept to say where it is."""

    __slots__ = ("text",)

    def __init__(self, text: str):
        self.text = text


def json_with_decimals(text: str, where: str, error=InvalidParameter):
    """``json.loads(text)`` with every number that is not an integer read exactly, as ``Decimal``.

    A number beyond the range the ``decimal`` module reads at all (``1e99999999999999999999``) is refused by
    ``error`` naming where it is (``where`` and its path, ``where[0][1]`` or ``where: key.list[2]``) and the limits of
    a number; the caller's own errors (``ValueError`` for text that is not JSON or an integer of too many digits,
    ``RecursionError`` for nesting too deep) pass through."""
    unreadable = []

    def number(token: str):
        try:
            return Decimal(token)
        except ArithmeticError:
            unreadable.append(_Unreadable(token))
            return unreadable[-1]

    document = json.loads(text, parse_float=number)
    if unreadable:
        path = _path_to(document, unreadable[0]) or ""
        place = f"{where}{path}" if not path or path.startswith("[") else f"{where}: {path}"
        raise error(f"{place} must have at most {MAX_TEXT:,} digits and a decimal exponent within "
                    f"±{MAX_DECIMAL_EXPONENT:,}; got {cut_text(unreadable[0].text, 40)}")
    return document


def _path_to(node, target, path: str = "") -> str | None:
    """Where ``target`` (by identity) is in a decoded JSON document: ``[0].key[2]``; ``None`` when absent."""
    if node is target:
        return path
    if isinstance(node, list):
        items = ((f"{path}[{k}]", value) for k, value in enumerate(node))
    elif isinstance(node, dict):
        items = ((f"{path}.{key}" if path else str(key), value) for key, value in node.items())
    else:
        return None
    for place, value in items:
        if isinstance(value, (list, dict)) or value is target:
            found = _path_to(value, target, place)
            if found is not None:
                return found
    return None


def _json(text: str, where: str, kind: str):
    try:
        return json_with_decimals(text, where)
    except InvalidParameter:  # a number beyond the decimal module's range, said where it is
        raise
    except (ValueError, RecursionError):  # not JSON, an integer of too many digits, or nesting too deep
        raise InvalidParameter(f"{where} must be {KINDS[kind]}, for example '[1, 2]'; got {value_text(text)}") from None


def _list(value, where: str, kind: str) -> list:
    if not isinstance(value, list):
        raise InvalidParameter(f"{where} must be {KINDS[kind]}; got {value_text(value)}")
    return value


def _number(value, where: str):
    """A number as given: text, a JSON number, or a number from the Python API (``exact`` reads it)."""
    if value is None or isinstance(value, (bool, list, tuple, dict)):
        raise InvalidParameter(f"{where} must be a number (a decimal string or a JSON number); got {value_text(value)}")
    return value


def _integer(value, where: str, minimum: int | None = None, maximum: int | None = None) -> int:
    """An integer as typed (its decimal text) or as given (a JSON or Python integer)."""
    allowed = integer_range(minimum, maximum)
    if isinstance(value, str):
        text = value.strip()
        if len(text) > 100 or not text.lstrip("+-").isdigit():
            raise InvalidParameter(f"{where} must be {allowed}; got {value_text(value)}")
        value = int(text)
    try:
        return integer(value, where, minimum, maximum)
    except InvalidParameter:  # the value cut short: a JSON integer may have thousands of digits
        raise InvalidParameter(f"{where} must be {allowed}; got {value_text(value)}") from None

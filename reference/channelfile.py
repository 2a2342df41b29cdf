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

**Format 2: continuous outputs.** ``"format": "ldpspec-channel/2"`` holds a ``PiecewiseChannel``
(``spec.continuous``): for every input, discrete atoms beside densities constant between exact breakpoints, each
keyed by a component label (suWheel's revealed items ``R``; ``null`` when there is nothing beside the point).

```json
{
 "format": "ldpspec-channel/2",
 "description": "an atom beside a point of [-1, 1)",
 "inputs": ["a", "b"],
 "outputs": ["none"],
 "probabilities": [["1/4"], ["1/4"]],
 "cell_outputs": "label-cell",
 "densities": [
  {"input": "a", "label": null, "kind": "constant", "breakpoints": ["-1", "0", "1"], "values": ["1/2", "1/4"]},
  {"input": "b", "label": null, "kind": "constant", "breakpoints": ["-1", "0", "1"], "values": ["1/4", "1/2"]}
 ],
 "privacy": {"epsilon": "log(2)"}
}
```

* ``outputs``/``probabilities`` (optional in version 2): the atoms, one row per input; a row holds the atoms' masses
  and need not sum to 1.
* ``densities``: one object per input and label that has a density (a missing one is zero): ``input``, ``label``,
  ``kind`` and the keys of the kind. Kind ``"constant"``: ``breakpoints`` ``b_0 < ... < b_n`` (``n >= 1``, strictly
  increasing, exact numbers as above) and ``values`` ``v_1, ..., v_n >= 0``: the density is ``v_i`` on
  ``[b_{i-1}, b_i)`` and zero outside ``[b_0, b_n)``. Kind ``"exponential"`` adds ``rates`` ``r_1, ..., r_n``
  (rational): the density is ``v_i e^{r_i y}`` on ``[b_{i-1}, b_i)``; ``b_0`` may be ``"-inf"`` where ``r_1 > 0`` and
  ``b_n`` may be ``"inf"`` where ``r_n < 0``, and the finite ends of a piece with ``r_i != 0`` are rational. A kind
  the reader does not know is refused by name, never guessed.
* Every input's atoms and densities' integrals sum to exactly 1; a label is an atom (in ``outputs``) or a density,
  not both; an input has at most one density per label.
* ``cell_outputs`` (optional, ``"label-cell"`` by default): how the explicit channel names the output of a cell
  ``"[low, high)"`` of label ``R``: ``[R, cell]`` or, under ``"cell-label"``, ``[cell, R]`` (a SULDP output
  ``(y0, R)``); the cell alone when the label is ``null``. An atom's output is its label.
* ``component_order`` (optional): every label once, in the order the explicit channel lists their outputs; by default
  the atoms in ``outputs`` order, then the densities' labels in order of first appearance.
* The privacy section names outputs of the explicit channel (``PiecewiseChannel.explicit()``): atoms and cells. A
  channel with exponential pieces has no explicit channel (its ratios vary inside a cell): only the notions judged by
  pairwise losses apply to it.
* Limits: at most ``max_entries`` numbers (atoms, breakpoints and values together), and at most ``max_entries``
  probabilities in the explicit channel (inputs times atoms and cells, bounded from the breakpoints' text), both
  refused before any number is read.

**Format 3: inputs in classes.** ``"format": "ldpspec-channel/3"`` holds a channel over the items ``0 .. d-1``
whose items come in classes (``spec.structured.ClassedChannel``), so that a deployment of 10^5 items is a file of a
few lines that the kernel judges a pair of classes at a time:

```json
{
 "format": "ldpspec-channel/3",
 "structure": "unary-classes",
 "classes": [{"hot": ["1/2", "1/2"], "cold": ["3/4", "1/4"]}, {"hot": ["1/3", "2/3"], "cold": ["2/3", "1/3"]}],
 "class_sizes": [99000, 1000],
 "privacy": {"class_budgets": ["1", "2"]}
}
```

* ``structure``: ``"unary-classes"`` (``ClassedUnary``: a bit per item, the whole vector released; each class gives
  the pairs ``hot`` and ``cold``, ``(P[bit = 0], P[bit = 1])`` of an item's own bit and of the others' bits) or
  ``"column-classes"`` (``ColumnClasses``: one item released, ``P[y|x] = base_y + extra_y [y = x]``; each class
  gives ``base`` and ``extra``).
* ``class_sizes`` (the items in order: the first ``class_sizes[0]`` in class 0, and so on) or ``item_classes`` (each
  item's class): exactly one of them; at most ``MAX_CLASSED_ITEMS`` items.
* ``privacy``: as in version 1, over the items; ``class_budgets`` (one budget per class, ``null`` for none) stands
  for ``budgets`` with each item given its class's budget.
* Its explicit channel, when asked for (``explicit()``), is refused beyond ``max_entries`` probabilities like any.

``channel_file_text`` writes a channel in the first of the structures it declares (``file_structures``, part of the
channel protocol): version 1 for a matrix (a structured channel as its ``explicit()`` matrix), version 2 for a channel
with densities, and version 3 for a channel whose items come in classes when asked (``classes=True``);
``parse_channel_file`` reads all three, version 2 into a ``PiecewiseChannel`` and version 3 into a ``ClassedUnary`` or
``ColumnClasses``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from decimal import Decimal

from ldpspec.spec import (
    MAX_TEXT,
    ONE,
    PRIVACY_KEYS,
    ZERO,
    Channel,
    ClassedUnary,
    ColumnClasses,
    Density,
    Exact,
    Infinity,
    InvalidChannel,
    InvalidParameter,
    LazyText,
    PiecewiseChannel,
    RowReading,
    SpecError,
    TooLarge,
    budget,
    cell_first_output_label,
    cell_text,
    check_entries,
    check_pair_work,
    checked_channel,
    compare_points,
    default_output_label,
    exact_number,
    input_budgets,
    json_with_decimals,
    label_from_json,
    label_to_json,
    once_per_object,
    point,
    rational_text,
    sum_text,
    unique_labels,
    value_text,
)

FORMAT = "ldpspec-channel/1"
"""The format of a channel without densities."""
FORMAT_CONTINUOUS = "ldpspec-channel/2"
"""The format of a channel with densities (``PiecewiseChannel``)."""
FORMAT_CLASSES = "ldpspec-channel/3"
"""The format of a channel whose items come in classes (``ClassedUnary``, ``ColumnClasses``)."""
FORMATS = (FORMAT, FORMAT_CONTINUOUS, FORMAT_CLASSES)
_CLASSES_KEYS = {"format", "description", "metadata", "structure", "classes", "class_sizes", "item_classes",
                 "privacy"}
STRUCTURES = {"unary-classes": ("hot", "cold", ClassedUnary), "column-classes": ("base", "extra", ColumnClasses)}
"""The structures a version 3 file may hold, with the keys of each class and the channel that holds it."""
MAX_CLASSED_ITEMS = 10_000_000
"""The most items of a version 3 file (the channel keeps one class index per item)."""
_TOP_LEVEL = {"format", "description", "metadata", "inputs", "outputs", "probabilities", "privacy", "reading"}
_CONTINUOUS_KEYS = {"densities", "cell_outputs", "component_order"}
DENSITY_KINDS = {"constant": ("input", "label", "kind", "breakpoints", "values"),
                 "exponential": ("input", "label", "kind", "breakpoints", "values", "rates")}
"""The kinds of density a version 2 file may hold, with the keys of each."""
CELL_OUTPUTS = {"label-cell": default_output_label, "cell-label": cell_first_output_label}
"""How the explicit channel names a cell's output (``cell_outputs``): ``[label, cell]`` or ``[cell, label]``."""


@dataclass(frozen=True)
class ChannelFile:
    """A channel (a ``PiecewiseChannel`` for a file of version 2) with the privacy parameters stored beside it.

    ``privacy`` maps keys of the file's privacy section to values as the notions take them: budgets are exact
    numbers, ``budgets`` is ``{input: budget}`` (inputs without a budget left out), lists of labels are tuples.
    """

    channel: Channel | PiecewiseChannel
    privacy: dict = field(default_factory=dict)
    description: str = ""
    metadata: dict = field(default_factory=dict)


def _required(document: dict, key: str, what: str):
    """``document[key]``, or ``InvalidChannel`` saying that it is missing and what it holds."""
    if key not in document:
        raise InvalidChannel(f"channel file: '{key}' is missing ({what})")
    return document[key]


def _labels(document: dict, key: str) -> list:
    value = _required(document, key, f"the {key[:-1]} labels, a list")
    if not isinstance(value, list):
        raise InvalidChannel(f"channel file: '{key}' must be a list of labels")
    return [label_from_json(label, f"channel file: {key}[{k}]") for k, label in enumerate(value)]


def _is_number(value) -> bool:
    """Whether ``value`` is a number as ``_number_text`` takes it (text, a JSON number, an integer; not a boolean)."""
    return isinstance(value, (str, Decimal, int)) and not isinstance(value, bool)


def _number_text(value, where: str):
    if isinstance(value, (str, Decimal, int)) and not isinstance(value, bool):
        return value
    raise InvalidChannel(f"{where} must be a number: a decimal string, a fraction, an expression or a JSON number; "
                         f"got {type(value).__name__} {value_text(value)}"[:300])


def _discrete(document: dict, max_entries: int | None, reading: RowReading | None,
              max_pair_work: int | None = None) -> Channel:
    """The channel of a version 1 document, read under ``reading`` when one is given, else under the file's own
    ``reading`` section (the default reading when it has none)."""
    inputs, outputs = _labels(document, "inputs"), _labels(document, "outputs")
    rows = _required(document, "probabilities", "one row of P[y|x] per input")
    if not isinstance(rows, list) or not all(isinstance(row, list) for row in rows):
        raise InvalidChannel("channel file: 'probabilities' must be a list of rows (lists)")
    check_entries(len(inputs) * len(outputs), f"the channel file ({len(inputs):,} inputs x {len(outputs):,} outputs)",
                  max_entries)
    if max_pair_work is not None:  # the pairwise work a matrix's size alone decides, refused before any number
        check_pair_work(len(inputs), len(outputs), max_pair_work)
    for i, row in enumerate(rows):  # the place of an entry that is not a number is written only when one is found
        if not all(type(value) is str or _is_number(value) for value in row):
            for j, value in enumerate(row):
                _number_text(value, f"channel file: probabilities[{i}][{j}]")
    entries = rows
    if reading is None:
        section = document.get("reading")
        try:
            reading = RowReading.of(section)
        except InvalidParameter as error:
            raise InvalidChannel(f"channel file: {error}") from None
        if reading.remainder_to is not None:
            reading = RowReading(reading.rows, reading.numbers,
                                 label_from_json(reading.remainder_to, "channel file: reading.remainder_to"))
    try:
        return Channel(inputs, outputs, entries, reading=reading)
    except TooLarge:  # a limit, named as the option that raises it
        raise
    except (InvalidChannel, InvalidParameter) as error:  # said where it is: in the file (an entry by its labels)
        raise type(error)(f"channel file: {error}") from None


class _Numbers:
    """Reads a file's numbers exactly, each distinct text once (a mechanism's file repeats a few breakpoints)."""

    def __init__(self):
        self._read = {}

    def __call__(self, value, where: str) -> Exact:
        value = _number_text(value, where)
        key = (type(value), value)
        if key not in self._read:
            try:
                self._read[key] = exact_number(value, where)
            except InvalidParameter as error:
                raise InvalidChannel(str(error)) from None
        return self._read[key]


def _text_key(value) -> str:
    """A breakpoint's text: equal numbers written alike have one key (a bound on the distinct breakpoints)."""
    return value if isinstance(value, str) else f"{type(value).__name__}:{value!r}"


def _densities(document: dict, inputs: tuple, atoms: set) -> list:
    """The ``densities`` entries, their shape checked (no number read yet): ``[(where, input, label, entry)]``."""
    entries = _required(document, "densities", "one object per input and label with a density")
    if not isinstance(entries, list):
        raise InvalidChannel("channel file: 'densities' must be a list of densities (objects with the keys "
                             f"{list(DENSITY_KINDS['constant'])})")
    known_inputs = set(inputs)
    seen = {}
    result = []
    for k, entry in enumerate(entries):
        where = f"channel file: densities[{k}]"
        if not isinstance(entry, dict):
            raise InvalidChannel(f"{where} must be an object with the keys {list(DENSITY_KINDS['constant'])}; got "
                                 f"{type(entry).__name__}")
        kind = entry.get("kind")
        if not isinstance(kind, str) or kind not in DENSITY_KINDS:
            raise InvalidChannel(f"{where}.kind must be one of {sorted(DENSITY_KINDS)}, got {value_text(kind)}"[:300]
                                 + "; a kind this version does not know is refused, not guessed")
        keys = DENSITY_KINDS[kind]
        missing, unknown = [key for key in keys if key not in entry], sorted(set(entry) - set(keys))
        if missing or unknown:
            raise InvalidChannel(f"{where} (kind {value_text(kind)}) must have exactly the keys {list(keys)}; "
                                 + (f"missing {missing}" if missing else f"unknown {unknown}"))
        x = label_from_json(entry["input"], f"{where}.input")
        if x not in known_inputs:
            raise InvalidChannel(f"{where}.input {value_text(x)} is not one of the inputs"[:300])
        label = label_from_json(entry["label"], f"{where}.label")
        if label in atoms:
            raise InvalidChannel(f"{where}.label {value_text(label)} is also an atom (in 'outputs'); a label is an "
                                 "atom for every input or a density for every input")
        if (x, label) in seen:
            raise InvalidChannel(f"{where} repeats the density of input {value_text(x)} with label {value_text(label)} "
                                 f"(densities[{seen[x, label]}]); an input has at most one density per label"[:400])
        seen[x, label] = k
        breakpoints, values = entry["breakpoints"], entry["values"]
        rates = entry.get("rates", values)
        if not isinstance(breakpoints, list) or not isinstance(values, list) or not isinstance(rates, list):
            raise InvalidChannel(f"{where}: {' and '.join(repr(key) for key in keys[3:])} must be lists of numbers")
        if len(breakpoints) < 2 or len(values) != len(breakpoints) - 1 or len(rates) != len(values):
            if kind == "exponential":
                raise InvalidChannel(f"{where} needs n + 1 >= 2 breakpoints, n values and n rates; got "
                                     f"{len(breakpoints)} breakpoints, {len(values)} values and {len(rates)} rates")
            raise InvalidChannel(f"{where} needs n + 1 >= 2 breakpoints and n values; got {len(breakpoints)} "
                                 f"breakpoints and {len(values)} values")
        result.append((where, x, label, entry))
    return result


def _end_point(value, i: int, last: int, where: str):
    """``-inf`` as the first breakpoint or ``inf`` as the last (text only), else None; an infinity elsewhere is
    refused by name."""
    if value not in ("-inf", "inf"):
        return None
    if (value, i) not in (("-inf", 0), ("inf", last)):
        raise InvalidChannel(f"{where}.breakpoints[{i}] is {value_text(value)}: only the first breakpoint may be "
                             "\"-inf\" and only the last \"inf\"")
    return point(value, f"{where}.breakpoints[{i}]")


def _mass_text(total: Exact) -> str:
    """A total mass for a message (``spec.rows.sum_text``: visibly different from 1, and short)."""
    return sum_text(total)


def _continuous(document: dict, max_entries: int | None) -> PiecewiseChannel:
    """The channel of a version 2 document: every shape and size checked before a number is read."""
    try:
        inputs = unique_labels(_labels(document, "inputs"), "input")
    except InvalidChannel as error:
        raise InvalidChannel(f"channel file: {error}") from None
    if ("outputs" in document) != ("probabilities" in document):
        raise InvalidChannel("channel file: 'outputs' and 'probabilities' (the atoms) go together: give both or "
                             "neither")
    outputs = tuple(_labels(document, "outputs")) if "outputs" in document else ()
    seen = set()
    for y in outputs:
        if y in seen:
            raise InvalidChannel(f"channel file: output labels must be unique; {value_text(y)} appears twice"[:300])
        seen.add(y)
    rows = document.get("probabilities", [[] for _ in inputs])
    if not isinstance(rows, list) or not all(isinstance(row, list) for row in rows):
        raise InvalidChannel("channel file: 'probabilities' must be a list of rows (lists)")
    if len(rows) != len(inputs):
        raise InvalidChannel(f"channel file: 'probabilities' must have one row per input: {len(inputs)} inputs, "
                             f"{len(rows)} rows")
    for i, row in enumerate(rows):
        if len(row) != len(outputs):
            raise InvalidChannel(f"channel file: probabilities[{i}] must have one entry per atom in 'outputs': "
                                 f"{len(outputs)} atoms, {len(row)} entries")
    entries = _densities(document, inputs, set(outputs))
    cell_outputs = document.get("cell_outputs", "label-cell")
    if not isinstance(cell_outputs, str) or cell_outputs not in CELL_OUTPUTS:
        raise InvalidChannel(f"channel file: 'cell_outputs' must be one of {sorted(CELL_OUTPUTS)}, got "
                             f"{value_text(cell_outputs)}"[:300])

    # The limits, before any number is read: the numbers of the file, and the explicit channel of atoms and cells
    # (its cells bounded by the distinct texts of each label's breakpoints).
    numbers = len(inputs) * len(outputs) + sum(len(e["breakpoints"]) + len(e["values"]) + len(e.get("rates", ()))
                                               for *_, e in entries)
    check_entries(numbers, f"the channel file ({len(inputs):,} inputs; atoms, breakpoints and density values "
                           "together)", max_entries)
    texts = {}
    for _, _, label, entry in entries:
        texts.setdefault(label, set()).update(_text_key(b) for b in entry["breakpoints"])
    cells = len(outputs) + sum(len(points) - 1 for points in texts.values())
    check_entries(len(inputs) * cells, f"the explicit channel of this file ({len(inputs):,} inputs x at most "
                                       f"{cells:,} atoms and cells)", max_entries)

    number = _Numbers()
    components = {x: {} for x in inputs}
    for i, (x, row) in enumerate(zip(inputs, rows)):
        for j, (y, value) in enumerate(zip(outputs, row)):
            p = number(value, f"channel file: probabilities[{i}][{j}]")
            if p.sign() < 0 or (1 - p).sign() < 0:
                raise InvalidChannel(f"channel file: probabilities[{i}][{j}] (atom {value_text(y)} of input "
                                     f"{value_text(x)}) must be a probability in [0, 1], got {p.text()}"[:400])
            components[x][y] = p
    for where, x, label, entry in entries:
        last = len(entry["breakpoints"]) - 1
        points = [_end_point(b, i, last, where) or number(b, f"{where}.breakpoints[{i}]")
                  for i, b in enumerate(entry["breakpoints"])]
        for i in range(1, len(points)):
            if not compare_points(points[i - 1], points[i]) < 0:
                raise InvalidChannel(f"{where}.breakpoints must increase strictly: breakpoints[{i}] = "
                                     f"{points[i].text()} does not exceed breakpoints[{i - 1}] = "
                                     f"{points[i - 1].text()}"[:400])
        values = [number(v, f"{where}.values[{i}]") for i, v in enumerate(entry["values"])]
        for i, value in enumerate(values):
            if value.sign() < 0:
                raise InvalidChannel(f"{where}.values[{i}] must be a density >= 0, got {value.text()}"[:300])
        rates = None
        if entry["kind"] == "exponential":
            rates = [number(r, f"{where}.rates[{i}]") for i, r in enumerate(entry["rates"])]
        components[x][label] = Density(points, values, where, rates=rates)
    for i, x in enumerate(inputs):
        total = sum((part.mass if isinstance(part, Density) else part for part in components[x].values()), ZERO)
        if total != ONE:
            parts = f"its atoms in probabilities[{i}] and its densities" if outputs else "its densities"
            raise InvalidChannel(f"channel file: input {value_text(x)} must have total mass exactly 1 ({parts}), got "
                                 f"{_mass_text(total)}"[:400])
    order = [*outputs, *dict.fromkeys(label for _, _, label, _ in entries)]
    if "component_order" in document:
        given = _labels(document, "component_order")
        if len(given) != len(order) or set(given) != set(order):
            raise InvalidChannel(f"channel file: 'component_order' must name every label of 'outputs' and "
                                 f"'densities' once: the labels are {value_text(order)}, got {value_text(given)}"[:500])
        order = given
    try:
        channel = PiecewiseChannel(inputs, components, CELL_OUTPUTS[cell_outputs], order=order)
        channel.check_outputs()  # the atoms' and cells' outputs must be distinct (no mass computed)
    except InvalidChannel as error:
        raise InvalidChannel(f"channel file: {error}") from None
    return channel


def _classed(document: dict, max_entries: int | None, max_pair_work: int | None = None):
    """The channel of a version 3 document, and its privacy section with ``class_budgets`` spread over the items."""
    structure = _required(document, "structure", f"one of {sorted(STRUCTURES)}")
    if not isinstance(structure, str) or structure not in STRUCTURES:
        raise InvalidChannel(f"channel file: 'structure' must be one of {sorted(STRUCTURES)}, got "
                             f"{value_text(structure)}"[:300] + "; a structure this version does not know is refused")
    *keys, build = STRUCTURES[structure]
    classes = _required(document, "classes", f"a list of objects with the keys {list(keys)}")
    if not isinstance(classes, list) or not classes or not all(isinstance(c, dict) for c in classes):
        raise InvalidChannel(f"channel file: 'classes' must be a non-empty list of objects with the keys {list(keys)}")
    check_entries(len(classes) * 4, f"the channel file's {len(classes):,} classes", max_entries)
    number = _Numbers()
    values = {key: [] for key in keys}
    for c, entry in enumerate(classes):
        if set(entry) != set(keys):
            raise InvalidChannel(f"channel file: classes[{c}] must have exactly the keys {list(keys)}, got "
                                 f"{sorted(entry)}"[:300])
        for key in keys:
            where = f"channel file: classes[{c}].{key}"
            if structure == "unary-classes":
                pair = entry[key]
                if not isinstance(pair, list) or len(pair) != 2:
                    raise InvalidChannel(f"{where} must be a pair [P[bit = 0], P[bit = 1]]")
                values[key].append(tuple(number(v, f"{where}[{b}]") for b, v in enumerate(pair)))
            else:
                values[key].append(number(entry[key], where))
    if ("class_sizes" in document) == ("item_classes" in document):
        raise InvalidChannel("channel file: give exactly one of 'class_sizes' (the items in order, class by class) "
                             "and 'item_classes' (each item's class)")
    if "class_sizes" in document:
        sizes = document["class_sizes"]
        if not isinstance(sizes, list) or len(sizes) != len(classes) or \
                not all(type(m) is int and m >= 0 for m in sizes):
            raise InvalidChannel(f"channel file: 'class_sizes' must give one integer >= 0 per class "
                                 f"({len(classes)})")
        if sum(sizes) > MAX_CLASSED_ITEMS:
            raise InvalidChannel(f"channel file: at most {MAX_CLASSED_ITEMS:,} items, got {sum(sizes):,}")
        item_classes = [c for c, size in enumerate(sizes) for _ in range(size)]
    else:
        item_classes = document["item_classes"]
        if not isinstance(item_classes, list) or len(item_classes) > MAX_CLASSED_ITEMS:
            raise InvalidChannel(f"channel file: 'item_classes' must be a list of at most {MAX_CLASSED_ITEMS:,} "
                                 "class indices")
    given = "class_sizes" if "class_sizes" in document else "item_classes"
    if isinstance(item_classes, list) and len(item_classes) < 2:
        kind = "a unary encoding" if structure == "unary-classes" else "a direct encoding"
        raise InvalidChannel(f"channel file: '{given}' must give at least 2 items in all ({kind} needs at least 2); "
                             f"got {len(item_classes)}")
    first, second = (values[key] for key in keys)
    try:
        channel = build(first, second, item_classes)
    except InvalidChannel as error:
        raise InvalidChannel(f"channel file: {error}") from None
    if max_pair_work is not None:  # the pairwise work its classes and items decide, refused before a budget is read
        channel.check_pair_work(max_pair_work)
    section = document.get("privacy", {})
    if isinstance(section, dict) and "class_budgets" in section:
        section = dict(section)
        spread = section.pop("class_budgets")
        if "budgets" in section or not isinstance(spread, list) or len(spread) != len(classes):
            raise InvalidChannel(f"channel file: privacy.class_budgets must give one budget (or null) per class "
                                 f"({len(classes)}), instead of privacy.budgets")
        section["budgets"] = [spread[c] for c in channel.item_classes]
    return channel, section


def parse_channel_file(text: str, max_entries: int | None = None, reading: RowReading | None = None, *,
                       max_pair_work: int | None = None) -> ChannelFile:
    """Read a channel file (format 1, 2 or 3) from its JSON text; raise ``SpecError`` naming what is wrong.

    ``reading`` (``spec.rows.RowReading``) says how the numbers and rows of a version 1 file are read, in place of
    the file's own ``reading`` section; versions 2 and 3 are exact and take none. ``max_pair_work``: the caller will
    compare every pair of inputs (a profile, a pairwise notion); a matrix whose ``inputs^2 x outputs`` exceeds it is
    refused before its numbers are read, with the message the comparison would give.

    A file of more than ``max_entries`` probabilities (``spec.channel.MAX_ENTRIES`` by default) is refused before its
    numbers are read; so is a file of version 2 with more than ``max_entries`` numbers, or whose explicit channel
    (inputs times atoms and cells) may have more than ``max_entries`` probabilities.
    """
    try:
        document = json_with_decimals(text, "channel file", InvalidChannel)
    except InvalidChannel:  # a number beyond the decimal module's range, said where it is
        raise
    except json.JSONDecodeError as error:
        raise InvalidChannel(f"channel file is not valid JSON: {error}") from None
    except RecursionError:
        raise InvalidChannel("channel file nests lists or objects too deeply to read") from None
    except ValueError as error:  # an integer of more digits than Python converts
        raise InvalidChannel(f"channel file has a number that cannot be read: {error}") from None
    if not isinstance(document, dict):
        raise InvalidChannel("channel file must be a JSON object")
    version = document.get("format", FORMAT)
    if not isinstance(version, str) or version not in FORMATS:
        raise InvalidChannel(f"channel file format must be one of {', '.join(map(value_text, FORMATS))}, got "
                             f"{value_text(version)}"[:300])
    if version != FORMAT and (reading is not None and not reading.is_default or "reading" in document):
        raise InvalidChannel(f"a reading of rows that do not sum to 1 applies to a matrix (format "
                             f"{value_text(FORMAT)}); a file of format {value_text(version)} is read exactly")
    allowed = (_CLASSES_KEYS if version == FORMAT_CLASSES
               else _TOP_LEVEL | (_CONTINUOUS_KEYS if version == FORMAT_CONTINUOUS else set()))
    unknown = set(document) - allowed
    if unknown & _CONTINUOUS_KEYS:
        raise InvalidChannel(f"channel file has keys {sorted(unknown & _CONTINUOUS_KEYS)} of format "
                             f"{value_text(FORMAT_CONTINUOUS)}; give \"format\": \"{FORMAT_CONTINUOUS}\"")
    if unknown & (_CLASSES_KEYS - _TOP_LEVEL):
        raise InvalidChannel(f"channel file has keys {sorted(unknown & (_CLASSES_KEYS - _TOP_LEVEL))} of format "
                             f"{value_text(FORMAT_CLASSES)}; give \"format\": \"{FORMAT_CLASSES}\"")
    if unknown:
        raise InvalidChannel(f"channel file has unknown keys {sorted(unknown)}; allowed: {sorted(allowed)}")
    section = document.get("privacy", {})
    if version == FORMAT_CLASSES:
        channel, section = _classed(document, max_entries, max_pair_work)
    elif version == FORMAT_CONTINUOUS:
        channel = _continuous(document, max_entries)
    else:
        channel = _discrete(document, max_entries, reading, max_pair_work)

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


def read_channel_file(path, max_entries: int | None = None, reading: RowReading | None = None, *,
                      max_pair_work: int | None = None) -> ChannelFile:
    """Read a channel file from ``path`` (the options as for ``parse_channel_file``)."""
    return parse_channel_file(channel_file_source(path), max_entries, reading, max_pair_work=max_pair_work)


def channel_file_source(path) -> str:
    """The text of the channel file at ``path``; a file that cannot be read raises ``SpecError`` naming it."""
    try:
        with open(path, encoding="utf-8") as handle:
            return handle.read()
    except OSError as error:
        raise SpecError(f"cannot read channel file {path}: {error.strerror or error}") from None
    except UnicodeDecodeError:
        raise InvalidChannel(f"channel file {path} is not UTF-8 text") from None
    except ValueError as error:  # a path the system cannot name (a NUL byte)
        raise SpecError(f"cannot read channel file {value_text(path)}: {error}") from None


def _privacy_to_json(channel: Channel, key: str, value):
    if key not in PRIVACY_KEYS:
        raise InvalidChannel(f"privacy has unknown key {value_text(key)}; allowed: {sorted(PRIVACY_KEYS)}")
    parameter = PRIVACY_KEYS[key]
    if isinstance(value, tuple):  # as read from a file: a list of labels is a tuple, a pair of labels too
        value = [list(v) if isinstance(v, tuple) and parameter.kind in ("label-pairs", "levels") else v for v in value]
    parsed = parameter.parse(value, f"privacy.{key}") if parameter.kind != "input-budgets" else value
    if parameter.kind in ("budget", "number"):
        return parsed.text()
    if parameter.kind == "input-budgets":  # a mapping {input: budget}, which may compute its values when asked
        if isinstance(value, dict):
            inputs = set(channel.inputs)
            unknown = [x for x in value if x not in inputs]
            if unknown:
                raise InvalidChannel(f"privacy.{key} names unknown inputs {value_text(unknown)}")
        text = once_per_object(lambda b, x: budget(b, LazyText(lambda: f"privacy.{key}[{value_text(x)}]")).text())
        return [None if b is None else text(b, x) for x, b in ((x, value.get(x)) for x in channel.inputs)]
    if parameter.kind in ("budgets", "numbers"):
        return [v.text() for v in parsed]
    if parameter.kind in ("labels", "label-pairs"):
        return [label_to_json(v) for v in parsed]
    return parsed


def has_densities(channel) -> bool:
    """Whether some release of ``channel`` is a point drawn from a density: what a file of version 2 is for."""
    return checked_channel(channel).has_densities


def _cell_outputs(channel: PiecewiseChannel) -> str:
    """The name (``CELL_OUTPUTS``) of the way ``channel`` names its outputs."""
    actual = list(channel.iter_outputs())
    for name, output_label in CELL_OUTPUTS.items():
        named = []
        for label, kind in channel.kinds.items():
            if kind == "atom":
                named.append(output_label(label, None))
            else:
                named.extend(output_label(label, cell_text(low, high)) for low, high in channel.cells(label))
        if named == actual:
            return name
    raise InvalidChannel("a channel file names the output of a cell [label, cell] or [cell, label] (and an atom by its "
                         "label); this PiecewiseChannel names its outputs otherwise: write its explicit() channel")


def _matrix_document(channel, text, max_entries: int | None) -> dict:
    """The version 1 keys of ``channel``'s explicit matrix."""
    matrix = channel.explicit(max_entries)
    return {"inputs": [label_to_json(x) for x in matrix.inputs], "outputs": [label_to_json(y) for y in matrix.outputs],
            "probabilities": [[text(p) for p in row] for row in matrix.rows]}


def _densities_document(channel: PiecewiseChannel, text, max_entries: int | None) -> dict:
    """The version 2 keys of ``channel``: inputs, atoms, ``cell_outputs``, ``component_order`` (when needed),
    densities."""
    check_entries(len(channel.inputs) * channel.output_count, f"the cells of this channel "
                  f"({len(channel.inputs):,} inputs x {channel.output_count:,} outputs)", max_entries)
    document = {"inputs": [label_to_json(x) for x in channel.inputs]}
    atoms = [label for label, kind in channel.kinds.items() if kind == "atom"]
    if atoms:
        document["outputs"] = [label_to_json(y) for y in atoms]
        document["probabilities"] = [[text(channel.components[x].get(y, ZERO)) for y in atoms]
                                     for x in channel.inputs]
    document["cell_outputs"] = _cell_outputs(channel)
    densities = []
    for x in channel.inputs:
        for label, kind in channel.kinds.items():
            part = channel.components[x].get(label)
            if kind == "density" and part is not None:
                entry = {"input": label_to_json(x), "label": label_to_json(label),
                         "kind": "constant" if part.is_constant else "exponential",
                         "breakpoints": [b.text() if isinstance(b, Infinity) else text(b) for b in part.breakpoints],
                         "values": [text(v) for v in part.values]}
                if not part.is_constant:
                    entry["rates"] = [rational_text(r) for r in part.rates]
                densities.append(entry)
    read_order = [*atoms, *dict.fromkeys(label for x in channel.inputs for label, kind in channel.kinds.items()
                                          if kind == "density" and label in channel.components[x])]
    if read_order != list(channel.kinds):
        document["component_order"] = [label_to_json(label) for label in channel.kinds]
    document["densities"] = densities
    return document


def channel_file_text(channel, *, privacy: dict | None = None, description: str = "",
                      metadata: dict | None = None, classes: bool = False, max_entries: int | None = None) -> str:
    """The JSON text of a channel file for ``channel``, with ``privacy`` keyed as the file's privacy section.

    The channel is written in the first of its ``file_structures``: a channel with densities in version 2
    (``FORMAT_CONTINUOUS``), with its breakpoints; any other in version 1 (a structured one as its ``explicit()``
    matrix); with ``classes``, a channel whose items come in classes (``ClassedUnary``, ``ColumnClasses``) in version
    3 (``FORMAT_CLASSES``), and any other channel is refused. Values are given as the code takes them: budgets as
    numbers or exact strings, ``budgets`` as ``{input: budget}``, labels as lists or tuples. A file that would list
    more than ``max_entries`` probabilities (``MAX_ENTRIES`` by default; atoms and cells for densities) is refused
    before it is built.
    """
    channel = checked_channel(channel)
    structure = _file_structure(channel, classes)
    version, write = WRITERS[structure]
    document = {"format": version}
    if description:
        document["description"] = description
    if metadata:
        document["metadata"] = metadata
    text = once_per_object(_readable_text)  # a mechanism's matrix repeats a few exact numbers
    document.update(write(channel, text, max_entries))
    classed = version == FORMAT_CLASSES
    section = {key: _privacy_to_json(channel, key, value) for key, value in (privacy or {}).items()
               if value is not None}
    if classed and "budgets" in section:  # one budget per class when every class has one
        per_class = {}
        for item, value in zip(channel.inputs, section["budgets"]):
            per_class.setdefault(channel.item_classes[item], set()).add(value)
        if all(len(values) == 1 for values in per_class.values()) and len(per_class) == len(document["classes"]):
            section["class_budgets"] = [per_class[c].pop() for c in range(len(per_class))]
            del section["budgets"]
    if section:
        document["privacy"] = section
    # One line per key, one line per row and one line per density, so that files stay readable and diffable.
    lines = []
    for key, value in document.items():
        if key in ("probabilities", "densities", "classes"):
            items = ",\n".join("  " + json.dumps(item) for item in value)
            lines.append(f" {json.dumps(key)}: [\n{items}\n ]" if value else f" {json.dumps(key)}: []")
        else:
            lines.append(f" {json.dumps(key)}: {json.dumps(value)}")
    return "{\n" + ",\n".join(lines) + "\n}\n"


def _readable_text(number: Exact) -> str:
    """A number's exact text, refused when it is longer than a channel file's reader takes (``MAX_TEXT``): a file
    the kernel writes is one it reads back. Its size is estimated from its coefficients before it is written."""
    digits = sum(abs(c).bit_length() for _, c in number.num + number.den) * 0.30103
    text = number.text() if digits <= 2 * MAX_TEXT else None
    if text is None or len(text) > MAX_TEXT:
        size = f"{len(text):,}" if text is not None else f"about {int(digits):,}"
        raise InvalidParameter(
            f"this channel has a number (a probability, density or breakpoint) whose exact text takes {size} "
            f"characters, more than the {MAX_TEXT:,} a "
            f"number in a channel file may have (spec.exact.MAX_TEXT), so the file could not be read back: exact "
            "numbers grow with budgets written log(x) raised to large powers, and with many distinct budgets of "
            "different denominators; use fewer distinct budgets, budgets on one grid (for example multiples of 0.5), "
            "or decimals")
    return text


def _file_structure(channel, classes: bool) -> str:
    """The structure a channel file holds ``channel`` in: the first of its ``file_structures``, or with ``classes``
    the first that keeps its items in classes."""
    if not classes:
        return channel.file_structures[0]
    classed = [structure for structure in channel.file_structures if WRITERS[structure][0] == FORMAT_CLASSES]
    if not classed:
        raise InvalidParameter("a channel file of version 3 (items in classes) holds unary encodings and direct "
                               "encodings whose items come in classes; this channel has no items in classes")
    return classed[0]


def _unary_classes_document(channel: ClassedUnary, text, max_entries: int | None) -> dict:
    """The version 3 keys of a ``ClassedUnary``: each class's ``hot`` and ``cold`` bit, and each item's class."""
    classes = [{"hot": [text(v) for v in hot], "cold": [text(v) for v in cold]}
               for hot, cold in zip(channel.hot, channel.cold)]
    return {"structure": "unary-classes", "classes": classes, **_item_classes_document(channel, len(classes))}


def _column_classes_document(channel: ColumnClasses, text, max_entries: int | None) -> dict:
    """The version 3 keys of a ``ColumnClasses``: each class's ``base`` and ``extra``, and each item's class."""
    classes = [{"base": text(base), "extra": text(extra)} for base, extra in zip(channel.base, channel.extra)]
    return {"structure": "column-classes", "classes": classes, **_item_classes_document(channel, len(classes))}


def _item_classes_document(channel, count: int) -> dict:
    """Each item's class, as ``class_sizes`` when the classes follow one another, else as ``item_classes``."""
    items = list(channel.item_classes)
    if items == sorted(items):
        return {"class_sizes": [items.count(c) for c in range(count)]}
    return {"item_classes": items}


WRITERS = {"matrix": (FORMAT, _matrix_document), "densities": (FORMAT_CONTINUOUS, _densities_document),
           "unary-classes": (FORMAT_CLASSES, _unary_classes_document),
           "column-classes": (FORMAT_CLASSES, _column_classes_document)}
"""How each file structure a channel declares (``file_structures``) is written: its format and its keys."""


def write_channel_file(path, channel, **options) -> None:
    """Write ``channel`` (with ``privacy``, ``description`` and ``metadata``, see ``channel_file_text``) to ``path``."""
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(channel_file_text(channel, **options))

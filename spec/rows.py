"""How a channel's numbers are read when its rows do not sum to exactly 1: a declared reading, never a tolerance.

A matrix computed in floating point rarely has rows that sum to exactly 1: GRR at eps = 1 over three items, written
as the doubles ``0.5761168847658291, 0.21194155761708544, 0.21194155761708544``, sums to ``1 - 2e-17`` read as
decimals. The kernel judges exact channels only, so such a matrix is made exact by a reading that its user declares,
and every verdict on the channel names that reading (``parameters["reading"]``) with the largest deviation of a row
sum from 1. Nothing is compared within a tolerance: the reading fixes an exact channel, and the kernel decides it
exactly.

Two choices make a reading:

* ``numbers``: what a number written in decimal (a JSON number, a decimal string, a Python float) stands for.

  - ``"decimal"`` (the default): the number its text writes; a Python float is read as its shortest decimal
    (``repr``), the text that prints it.
  - ``"binary"``: the double nearest to that text, with its exact binary value, which is what a program that read
    the number as a double holds. Fractions (``"1/3"``) and expressions (``"exp(1)/(exp(1)+2)"``) are exact values,
    not doubles, and are read as they are under both.

* ``rows``: what a row that does not sum to exactly 1 stands for.

  - ``"exact"`` (the default): nothing; such a row is refused (``InvalidChannel``).
  - ``"renormalise"``: each row divided by its exact sum (a sampler that draws with weights).
  - ``"remainder"``: the row as given, with the deficit or surplus ``1 - sum`` added to one output (the last by
    default, ``remainder_to`` names another). An inverse-CDF sampler over cumulative sums does this for its last
    output: a uniform draw beyond the last cumulative sum falls to it, and a surplus shortens it. A surplus larger
    than that output's entry is refused: the sampler would then cut the outputs before it, which is another channel.

Every entry must be a number >= 0 under every reading; under ``exact`` each must also be at most 1.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction

from ldpspec.spec.errors import InvalidChannel, InvalidParameter
from ldpspec.spec.exact import ONE, ZERO, Exact, cut_text
from ldpspec.spec.labels import label_to_json, value_text
from ldpspec.spec.numbers import exact_number, to_decimal_string

ROW_RULES = ("exact", "renormalise", "remainder")
"""What a row that does not sum to exactly 1 stands for."""
NUMBER_READINGS = ("decimal", "binary")
"""What a number written in decimal stands for."""
DEVIATION_DIGITS = 6
"""Significant digits of the row deviation a verdict reports (it informs; the verdict is decided exactly)."""


@dataclass(frozen=True)
class RowReading:
    """A declared reading of a channel's numbers and rows (see the module's docstring).

    Attributes:
        rows: ``"exact"``, ``"renormalise"`` or ``"remainder"``.
        numbers: ``"decimal"`` or ``"binary"``.
        remainder_to: the output that takes a row's remainder under ``"remainder"``; ``None`` for the last output.
    """

    rows: str = "exact"
    numbers: str = "decimal"
    remainder_to: object = None

    def __post_init__(self):
        if self.rows not in ROW_RULES:
            raise InvalidParameter(f"rows must be one of {', '.join(ROW_RULES)}, got {value_text(self.rows)}")
        if self.numbers not in NUMBER_READINGS:
            raise InvalidParameter(f"numbers must be one of {', '.join(NUMBER_READINGS)}, got "
                                   f"{value_text(self.numbers)}")
        if self.remainder_to is not None and self.rows != "remainder":
            raise InvalidParameter(f"remainder_to names the output that takes a row's remainder, under rows = "
                                   f"'remainder' only; rows is {value_text(self.rows)}")

    @property
    def is_default(self) -> bool:
        """Whether this is the kernel's own reading: decimals as written, rows summing to exactly 1."""
        return self.rows == "exact" and self.numbers == "decimal"

    @classmethod
    def of(cls, value) -> RowReading:
        """A reading from a ``RowReading``, ``None`` (the default), or a mapping with the keys ``rows``,
        ``numbers`` and ``remainder_to`` (a channel file's ``reading`` section)."""
        if value is None:
            return cls()
        if isinstance(value, RowReading):
            return value
        if not isinstance(value, dict):
            raise InvalidParameter(f"reading must be an object with the keys rows, numbers and remainder_to; got "
                                   f"{type(value).__name__}")
        unknown = set(value) - {"rows", "numbers", "remainder_to"}
        if unknown:
            raise InvalidParameter(f"reading has unknown keys {sorted(unknown)}; allowed: numbers, remainder_to, "
                                   "rows")
        return cls(value.get("rows", "exact"), value.get("numbers", "decimal"), value.get("remainder_to"))

    def number(self, value, where: str) -> Exact:
        """An entry read exactly under this reading's ``numbers``."""
        if self.numbers == "binary" and _is_decimal(value):
            try:
                double = float(value)
            except (ValueError, OverflowError):
                double = float("nan")
            if double != double or double in (float("inf"), float("-inf")):
                raise InvalidParameter(f"{where} must be a finite double under numbers = 'binary', got "
                                       f"{str(value)[:60]}")
            return Exact.rational(Fraction(double))
        return exact_number(value, where)


def _is_decimal(value) -> bool:
    """Whether ``value`` is a number written in decimal: a float, a Decimal, or text of a decimal number."""
    if isinstance(value, (float, Decimal)) or type(value).__name__ in ("float64", "float32", "float16"):
        return True
    if isinstance(value, str):
        try:
            Decimal(value.strip())
        except ArithmeticError:
            return False
        return True
    return False


@dataclass(frozen=True)
class RowsRead:
    """What a reading did to a channel: the reading, and the row whose sum was farthest from 1."""

    reading: RowReading
    largest_deviation: Exact
    at_input: object
    remainder_to: object = None

    def to_json(self) -> dict:
        data = {"rows": self.reading.rows, "numbers": self.reading.numbers,
                "largest_row_deviation": to_decimal_string(self.largest_deviation, DEVIATION_DIGITS),
                "at_input": label_to_json(self.at_input)}
        if self.reading.rows == "remainder":
            data["remainder_to"] = label_to_json(self.remainder_to)
        return data


def read_rows(inputs: tuple, outputs: tuple, rows: list, reading: RowReading) -> tuple[list, RowsRead | None]:
    """``rows`` (lists of exact entries, each >= 0, and at most 1 under ``rows = "exact"``) made exact channel rows
    under ``reading``, with the record of what was done (``None`` under the default reading); ``InvalidChannel``
    names a row that no channel has under it. A row that sums to exactly 1 is kept as it is under every reading;
    the deviation reported is the largest over the rows (0, at no input, when every row sums to 1)."""
    target = None
    if reading.rows == "remainder":
        target = outputs[-1] if reading.remainder_to is None else reading.remainder_to
        if target not in outputs:
            raise InvalidChannel(f"remainder_to must be an output of the channel, got {value_text(target)}; the "
                                 f"outputs are "
                                 f"{value_text(list(outputs)[:10])}" + (" ..." if len(outputs) > 10 else ""))
        target = outputs.index(target)
    read, worst, worst_input = [], ZERO, None
    for x, row in zip(inputs, rows):
        total = _row_sum(row)
        if total == ONE:
            read.append(tuple(row))
            continue
        if reading.rows == "exact":
            raise InvalidChannel(f"row of input {value_text(x)} must sum to exactly 1, sums to "
                                 f"{sum_text(total)}; a matrix "
                                 "computed in floating point can be read with rows = 'renormalise' or 'remainder' "
                                 "(a declared reading, named in every verdict)")
        deviation = abs_exact(total - ONE)
        if worst_input is None or deviation > worst:
            worst, worst_input = deviation, x
        if reading.rows == "renormalise":
            if total == ZERO:
                raise InvalidChannel(f"row of input {value_text(x)} sums to 0: it has no distribution to renormalise")
            read.append(tuple(p / total for p in row))
            continue
        entry = row[target] + (ONE - total)
        if entry.sign() < 0:
            raise InvalidChannel(
                f"row of input {value_text(x)} sums to {to_decimal_string(total, 20)}: its surplus is larger than "
                f"P[{value_text(outputs[target])}|{value_text(x)}] = {row[target].text()}, the output that takes "
                f"the remainder (an "
                "inverse-CDF sampler would cut the outputs before it); name another output with remainder_to, or "
                "read the rows with 'renormalise'")
        read.append(tuple(row[:target]) + (entry,) + tuple(row[target + 1:]))
    if reading.is_default:
        return read, None
    return read, RowsRead(reading, worst, worst_input, None if target is None else outputs[target])


def sum_text(total: Exact) -> str:
    """A sum that is not exactly 1, for a message, so that it differs visibly from 1: its exact text when short;
    else, near 1, ``1 - d`` or ``1 + d`` with the deviation ``d`` exact when short (``1 - 1e-60``), else to six
    digits; else its value to 17 digits. An irrational sum adds its exact text, cut short."""
    text = total.text() if total.bits() < 8000 else None  # a long rational is not written out to be cut
    if text is not None and len(text) <= 60:
        return text
    deviation = total - ONE
    size = abs_exact(deviation)
    if size < Fraction(1, 10 ** 6):  # exactly: a float of a sum of 1e400 would overflow
        shown = _short_decimal(size.as_rational()) if size.bits() < 8000 else None
        written = shown is not None
        sign = "-" if deviation.sign() < 0 else "+"
        value = f"1 {sign} {shown if written else to_decimal_string(size, DEVIATION_DIGITS)}"
        approximately = not written
    else:
        value, approximately = to_decimal_string(total, 17), True
    if total.as_rational() is not None:
        return value + (" (approximately)" if approximately else "")
    text = total.text() if total.bits() < 2000 else "an exact expression too long to show"
    return f"{value} ({'approximately; ' if approximately else ''}exactly {cut_text(text, 60)})"


def _short_decimal(value: Fraction | None) -> str | None:
    """A rational with at most 20 significant digits as a short decimal (``1e-60``, ``2.5e-7``), exactly; else
    ``None``."""
    if value is None or not value:
        return None
    denominator, twos, fives = value.denominator, 0, 0
    while denominator % 2 == 0:
        denominator, twos = denominator // 2, twos + 1
    while denominator % 5 == 0:
        denominator, fives = denominator // 5, fives + 1
    if denominator != 1:
        return None
    places = max(twos, fives)
    digits = str(abs(value.numerator) * 10 ** places // value.denominator).rstrip("0")
    if len(digits) > 20:
        return None
    exponent = len(str(abs(value.numerator) * 10 ** places // value.denominator)) - 1 - places
    mantissa = digits[0] + ("." + digits[1:] if len(digits) > 1 else "")
    return mantissa if exponent == 0 else f"{mantissa}e{exponent}"


def _row_sum(row) -> Exact:
    """The exact sum of a row, each distinct entry object multiplied by its count (a mechanism repeats a few values
    over a whole row). A row of rationals is summed over each distinct denominator by whole numerators first: a row
    of 2,000 fractions over one denominator is one division, not 2,000 additions of Fractions."""
    numerators: dict = {}
    for p in row:
        if not p.is_rational():
            break
        denominator = p.den[0][1]  # a rational's form: ((0, numerator),) or () over ((0, denominator),)
        numerators[denominator] = numerators.get(denominator, 0) + (p.num[0][1] if p.num else 0)
    else:
        return Exact.rational(sum((Fraction(n, d) for d, n in numerators.items()), start=Fraction(0)))
    return exact_sum(row)


def exact_sum(values) -> Exact:
    """The exact sum of exact numbers, each distinct object once, times the number of times it comes. The numbers
    over one denominator are summed by their numerators' terms, in integers, and divided once: 10^5 masses of the
    cells of a Laplace density, each ``(e^{-a} - e^{-b}) / 2``, are one sum, not 10^5 exact additions each copying a
    partial sum that may grow with every term."""
    distinct, multiplicity = {}, {}
    for p in values:
        distinct[id(p)] = p
        multiplicity[id(p)] = multiplicity.get(id(p), 0) + 1
    # Denominators that are whole numbers share their least common multiple (the masses of exponential pieces with
    # rational coefficients: one sum, whatever their denominators); any other denominator is its own.
    common = math.lcm(*(p.den[0][1] for p in distinct.values() if len(p.den) == 1 and p.den[0][0] == 0))
    numerators: dict = {}  # denominator -> {exponent's key: [exponent, coefficient]}
    for key, count in multiplicity.items():
        p = distinct[key]
        if len(p.den) == 1 and p.den[0][0] == 0:
            den, count = ((0, common),), count * (common // p.den[0][1])
        else:
            den = p.den
        terms = numerators.setdefault(den, {})
        for q, c in p.num:
            # an exponent is an int or a Fraction, keyed by its integers: a tuple hashes in C, a Fraction in Python
            whole = type(q) is int or q.denominator == 1
            term = terms.setdefault(int(q) if whole else (q.numerator, q.denominator), [q, 0])
            term[1] += count * c
    sums = [Exact(tuple(sorted((q, c) for q, c in terms.values() if c)), den) for den, terms in numerators.items()]
    return sum(sums, start=ZERO)


def abs_exact(value: Exact) -> Exact:
    return -value if value.sign() < 0 else value

"""Numbers written as text, read exactly: decimals, fractions, and expressions of them with ``exp()``; budgets also
as ``log(x)``.

The forms are the ones ``Exact.text`` and ``Nats.text`` write, so every number the kernel prints reads back as itself.
Texts are limited to ``MAX_TEXT`` characters and decimal exponents to ``MAX_DECIMAL_EXPONENT``.

This module reads the grammar only: the numbers it builds are of the type its caller gives (``Exact``, which reads
its text here, and ``Nats.log`` for a budget's ``log(x)``), so the reader sits below the numbers it reads and
depends on none of them.
"""

from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation
from fractions import Fraction

from ldpspec.spec.errors import InvalidParameter
from ldpspec.spec.labels import value_text

_TOKEN = re.compile(r"\s*(?:(?P<number>\d+(?:\.\d*)?(?:[eE][+-]?\d+)?|\.\d+(?:[eE][+-]?\d+)?)|(?P<name>[a-z]+)|"
                    r"(?P<symbol>[-+*/()]))")


_SIMPLE = re.compile(r"(?P<sign>[+-]?)(?:(?P<whole>[0-9]+)(?:\.(?P<point>[0-9]*))?|\.(?P<after>[0-9]+))"
                     r"(?:[eE](?P<exponent>[+-]?[0-9]{1,3})|/(?P<denominator>[0-9]+))?")
SIMPLE_LENGTH = 40
"""The longest text the fast path reads (``simple_rational``): short enough that its digits and exponent are far
inside the limits of a number (``MAX_TEXT`` digits, exponents within ``MAX_DECIMAL_EXPONENT``), which it therefore
need not check."""


def simple_rational(text: str) -> Fraction | None:
    """The value of ``text`` when it is one of the common short forms, read from its digits; ``None`` for any other
    text, which the general parser reads (and refuses with its messages).

    The forms: an optionally signed decimal ``[+-]d[.d][e[+-]ddd]`` or ``[+-].d[e[+-]ddd]``, and an optionally signed
    fraction of two whole numbers ``[+-]d/d`` with a denominator that is not zero; ASCII digits only, no whitespace,
    at most ``SIMPLE_LENGTH`` characters. A channel of 4 million entries is read in seconds through it: the general
    parser tokenises, builds a ``Decimal`` and multiplies exact numbers for each entry. Each form means what the
    general parser makes of it: a decimal is its digits over a power of ten, ``a/b`` the quotient of two such
    decimals, a sign negates (``tests/kernel/test_fast_parse.py`` compares the two on tricky texts)."""
    if len(text) > SIMPLE_LENGTH:
        return None
    match = _SIMPLE.fullmatch(text)
    if match is None:
        return None
    sign, whole, point, after, exponent, denominator = match.groups()
    if denominator is not None:
        if point is not None:  # "1.5/2": a quotient of decimals, left to the general parser
            return None
        bottom = int(denominator)
        if not bottom:
            return None  # the general parser says "division by zero"
        value = Fraction(int(whole), bottom)
    else:
        digits = whole + (point or "") if after is None else after
        places = (len(point) if point else 0) if after is None else len(after)
        shift = int(exponent) - places if exponent is not None else -places
        value = Fraction(int(digits) * 10 ** shift) if shift >= 0 else Fraction(int(digits), 10 ** -shift)
    return -value if sign == "-" else value


MAX_TEXT = 2000
"""The most characters a number written as text may have."""

MAX_DECIMAL_EXPONENT = 2000
"""The largest magnitude of a decimal exponent (``1e2000``) a number written as text may have."""


def check_decimal_size(value: Decimal, name: str) -> None:
    """``InvalidParameter`` naming ``name`` when ``value`` has more digits or a larger exponent than a text may."""
    sign, digits, exponent = value.as_tuple()
    if len(digits) > MAX_TEXT or abs(exponent + len(digits)) > MAX_DECIMAL_EXPONENT:
        raise InvalidParameter(f"{name} must have at most {MAX_TEXT} digits and a decimal exponent within "
                               f"±{MAX_DECIMAL_EXPONENT}, got {value:.6e}")


def parse_number(text: str, name: str, number, *, log=None):
    """Read a number written as text: a decimal (``"0.25"``, ``"1e-3"``), a fraction (``"1/3"``), or an
    expression of those with ``+ - * /``, parentheses and ``exp(q)`` for rational ``q``
    (``"exp(1)/(exp(1)+2)"``). The common short forms are read from their digits (``simple_rational``).

    ``number`` is the exact number type built (``spec.exact.Exact``): ``number.rational(q)`` and ``number.exp(q)``
    make its leaves, its arithmetic the rest. With ``log`` (budgets: ``Nats.log``), the whole text may be
    ``[-][p*]log(expression)[/r]`` of a positive expression, and the result is ``log(expression, name) * (+-p) / r``.
    """
    if not isinstance(text, str):
        raise InvalidParameter(f"{name} must be a number written as text, got {type(text).__name__}")
    simple = simple_rational(text)
    if simple is not None:
        return number.rational(simple)
    if len(text) > MAX_TEXT:
        raise InvalidParameter(f"{name} must be at most {MAX_TEXT} characters, got {len(text)}")
    tokens, position, stripped = [], 0, text.strip()
    if stripped.lower() in ("nan", "+nan", "-nan"):
        raise InvalidParameter(f"{name} must be a real number, got NaN")
    if stripped.lower().lstrip("+-") in ("inf", "infinity"):
        raise InvalidParameter(f"{name} must be finite, got {value_text(text)}")
    while position < len(text):
        match = _TOKEN.match(text, position)
        if not match or match.end() == position:
            if text[position:].strip() == "":
                break
            raise InvalidParameter(f"{name} must be a decimal number, a fraction a/b or an expression of them with "
                                   f"exp(); cannot read {value_text(text)} at "
                                   f"{value_text(text[position:position + 10])}")
        kind = match.lastgroup
        tokens.append((kind, match.group(kind)))
        position = match.end()
    parser = _Parser(tokens, text, name, number)
    if log is not None and ("name", "log") in tokens:
        return parser.nats(log)
    value = parser.expression()
    parser.finish()
    return value


MAX_NESTING = 100
"""The deepest nesting of parentheses, ``exp(`` and signs (``--1``) a number written as text may have: each level is
a call of the reader, and Python's stack ends near a thousand."""


class _Parser:
    def __init__(self, tokens, text, name, number):
        self.tokens, self.text, self.name, self.position, self.number = tokens, text, name, 0, number
        self.depth = 0

    def _integer(self) -> int:
        kind, token = self.peek()
        if kind != "number" or not token.isdigit() or int(token) < 1:
            raise self.error("a budget in nats is written [-][p*]log(x)[/r] with whole numbers p, r >= 1")
        self.position += 1
        return int(token)

    def nats(self, log):
        """``[-][p*]log(expression)[/r]``: the forms in which ``Nats.text`` writes a quantity in nats."""
        sign = -1 if self.peek() == ("symbol", "-") else 1
        self.position += sign == -1
        power = 1
        if self.peek()[0] == "number":
            power = self._integer()
            self.expect("*")
        if self.peek() != ("name", "log"):
            raise self.error("a budget in nats is written [-][p*]log(x)[/r]")
        self.position += 1
        self.expect("(")
        inner = self.expression()
        self.expect(")")
        root = 1
        if self.peek() == ("symbol", "/"):
            self.position += 1
            root = self._integer()
        self.finish()
        return log(inner, self.name) * (sign * power) / root

    def error(self, what: str):
        return InvalidParameter(f"{self.name} must be a decimal number, a fraction a/b or an expression of them with "
                                f"exp(); {what} in {value_text(self.text)}")

    def peek(self):
        return self.tokens[self.position] if self.position < len(self.tokens) else (None, None)

    def expect(self, symbol: str):
        if self.peek() != ("symbol", symbol):
            raise self.error(f"expected {value_text(symbol)}")
        self.position += 1

    def finish(self):
        if self.position != len(self.tokens):
            raise self.error(f"unexpected {value_text(self.peek()[1])}")

    def expression(self):
        value = self.term()
        while self.peek() in (("symbol", "+"), ("symbol", "-")):
            operator = self.peek()[1]
            self.position += 1
            right = self.term()
            value = value + right if operator == "+" else value - right
        return value

    def term(self):
        value = self.factor()
        while self.peek() in (("symbol", "*"), ("symbol", "/")):
            operator = self.peek()[1]
            self.position += 1
            right = self.factor()
            if operator == "/":
                if not right:
                    raise self.error("division by zero")
                value = value / right
            else:
                value = value * right
        return value

    def factor(self):
        self.depth += 1
        try:
            if self.depth > MAX_NESTING:
                raise self.error(f"nested more than {MAX_NESTING} deep (parentheses, exp( and signs)")
            return self._factor()
        finally:
            self.depth -= 1

    def _factor(self):
        kind, token = self.peek()
        if (kind, token) in (("symbol", "-"), ("symbol", "+")):
            self.position += 1
            value = self.factor()
            return -value if token == "-" else value
        if kind == "number":
            self.position += 1
            try:
                decimal = Decimal(token)
            except InvalidOperation:  # the token pattern admits only numbers, so this is not expected
                raise self.error(f"cannot read the number {value_text(token)}") from None
            check_decimal_size(decimal, self.name)
            return self.number.rational(Fraction(decimal))
        if kind == "name":
            if token != "exp":
                raise self.error(f"unknown function {value_text(token)} (only exp() is allowed here)")
            self.position += 1
            self.expect("(")
            argument = self.expression()
            self.expect(")")
            exponent = argument.as_rational()
            if exponent is None:
                raise self.error("exp() takes a rational number")
            if abs(exponent) > 10 ** MAX_DECIMAL_EXPONENT:
                raise self.error("exp() of a number this large")
            return self.number.exp(exponent)
        if (kind, token) == ("symbol", "("):
            self.position += 1
            value = self.expression()
            self.expect(")")
            return value
        raise self.error("expected a number" if kind is None else f"unexpected {value_text(token)}")


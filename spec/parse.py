"""Numbers written as text, read exactly: decimals, fractions, and expressions of them with ``exp()``; budgets also
as ``log(x)``.

The forms are the ones ``Exact.text`` and ``Nats.text`` write, so every number the kernel prints reads back as itself.
Texts are limited to ``spec.exact.MAX_TEXT`` characters and decimal exponents to ``spec.exact.MAX_DECIMAL_EXPONENT``.
"""

from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation
from fractions import Fraction

from ldpspec.spec.errors import InvalidParameter
from ldpspec.spec.exact import MAX_DECIMAL_EXPONENT, MAX_TEXT, Exact, _check_decimal_size
from ldpspec.spec.nats import Nats

_TOKEN = re.compile(r"\s*(?:(?P<number>\d+(?:\.\d*)?(?:[eE][+-]?\d+)?|\.\d+(?:[eE][+-]?\d+)?)|(?P<name>[a-z]+)|"
                    r"(?P<symbol>[-+*/()]))")


def parse(text: str, name: str = "number", *, allow_log: bool = False):
    """Read a number written as text: a decimal (``"0.25"``, ``"1e-3"``), a fraction (``"1/3"``), or an
    expression of those with ``+ - * /``, parentheses and ``exp(q)`` for rational ``q``
    (``"exp(1)/(exp(1)+2)"``). With ``allow_log`` (budgets), the whole text may be ``log(expression)`` of a positive
    expression; the result is then a ``Nats``.
    """
    if not isinstance(text, str):
        raise InvalidParameter(f"{name} must be a number written as text, got {type(text).__name__}")
    if len(text) > MAX_TEXT:
        raise InvalidParameter(f"{name} must be at most {MAX_TEXT} characters, got {len(text)}")
    tokens, position, stripped = [], 0, text.strip()
    if stripped.lower() in ("nan", "+nan", "-nan"):
        raise InvalidParameter(f"{name} must be a real number, got NaN")
    if stripped.lower().lstrip("+-") in ("inf", "infinity"):
        raise InvalidParameter(f"{name} must be finite, got {text!r}")
    while position < len(text):
        match = _TOKEN.match(text, position)
        if not match or match.end() == position:
            if text[position:].strip() == "":
                break
            raise InvalidParameter(f"{name} must be a decimal number, a fraction a/b or an expression of them with "
                                   f"exp(); cannot read {text!r} at {text[position:position + 10]!r}")
        kind = match.lastgroup
        tokens.append((kind, match.group(kind)))
        position = match.end()
    parser = _Parser(tokens, text, name)
    if allow_log and ("name", "log") in tokens:
        return parser.nats()
    value = parser.expression()
    parser.finish()
    return value


MAX_NESTING = 100
"""The deepest nesting of parentheses, ``exp(`` and signs (``--1``) a number written as text may have: each level is
a call of the reader, and Python's stack ends near a thousand."""


class _Parser:
    def __init__(self, tokens, text, name):
        self.tokens, self.text, self.name, self.position = tokens, text, name, 0
        self.depth = 0

    def _integer(self) -> int:
        kind, token = self.peek()
        if kind != "number" or not token.isdigit() or int(token) < 1:
            raise self.error("a budget in nats is written [-][p*]log(x)[/r] with whole numbers p, r >= 1")
        self.position += 1
        return int(token)

    def nats(self) -> Nats:
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
        return Nats.log(inner, self.name) * (sign * power) / root

    def error(self, what: str):
        return InvalidParameter(f"{self.name} must be a decimal number, a fraction a/b or an expression of them with "
                                f"exp(); {what} in {self.text!r}")

    def peek(self):
        return self.tokens[self.position] if self.position < len(self.tokens) else (None, None)

    def expect(self, symbol: str):
        if self.peek() != ("symbol", symbol):
            raise self.error(f"expected {symbol!r}")
        self.position += 1

    def finish(self):
        if self.position != len(self.tokens):
            raise self.error(f"unexpected {self.peek()[1]!r}")

    def expression(self) -> Exact:
        value = self.term()
        while self.peek() in (("symbol", "+"), ("symbol", "-")):
            operator = self.peek()[1]
            self.position += 1
            right = self.term()
            value = value + right if operator == "+" else value - right
        return value

    def term(self) -> Exact:
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

    def factor(self) -> Exact:
        self.depth += 1
        try:
            if self.depth > MAX_NESTING:
                raise self.error(f"nested more than {MAX_NESTING} deep (parentheses, exp( and signs)")
            return self._factor()
        finally:
            self.depth -= 1

    def _factor(self) -> Exact:
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
                raise self.error(f"cannot read the number {token!r}") from None
            _check_decimal_size(decimal, self.name)
            return Exact.rational(Fraction(decimal))
        if kind == "name":
            if token != "exp":
                raise self.error(f"unknown function {token!r} (only exp() is allowed here)")
            self.position += 1
            self.expect("(")
            argument = self.expression()
            self.expect(")")
            exponent = argument.as_rational()
            if exponent is None:
                raise self.error("exp() takes a rational number")
            if abs(exponent) > 10 ** MAX_DECIMAL_EXPONENT:
                raise self.error("exp() of a number this large")
            return Exact.exp(exponent)
        if (kind, token) == ("symbol", "("):
            self.position += 1
            value = self.expression()
            self.expect(")")
            return value
        raise self.error("expected a number" if kind is None else f"unexpected {token!r}")


"""Quantities in nats: budgets and log-ratios, held exactly through their exponentials.

Budgets and log-ratios are quantities in nats. ``Nats`` holds one as ``ln(base) / root`` with ``base`` an
exact positive number (``e^eps`` for a rational budget ``eps``; the ratio itself for a log-ratio) and ``root`` a
positive integer (from halving, as the average of two budgets does), so that every comparison of budgets and
log-ratios is a comparison of exact numbers raised to integer powers.
"""

from __future__ import annotations

import math
from fractions import Fraction

from ldpspec.spec.errors import InvalidParameter
from ldpspec.spec.exact import IV, MP, ONE_POLY, START_BITS, Exact, Ordered, cut_text, rational_text, rational_value


class Nats(Ordered):
    """A quantity in nats, ``(power / root) * ln(base)``, held exactly: a budget, or the log of an exact ratio.

    ``base`` is an exact positive number; ``None`` stands for +infinity (the loss of an output one input produces
    and the other cannot) and an exact 0 for -infinity (the log of a probability 0). ``power`` is a non-zero integer
    and ``root`` a positive integer, without a common factor. A rational budget ``q`` is ``ln(e^q)``. Comparisons and
    arithmetic are exact; ``approximation()`` is for display.
    """

    __slots__ = ("base", "power", "root", "name")

    def __init__(self, base: Exact | None, power: int = 1, root: int = 1):
        if base is not None and len(base.num) == 1 and base.den == ONE_POLY and base.num[0][1] == 1:
            # ln(e^q) = q: keep a rational quantity as e^(q * power / root) with power = root = 1
            q = Fraction(base.num[0][0]) * power / root
            base, power, root = Exact.exp(q), 1, 1
        divisor = math.gcd(power, root)
        power, root = power // divisor, root // divisor
        if root > 1 and base is not None and base.is_rational() and base:  # (p/q)^(1/root) exactly, when it is
            rational = base.as_rational()
            top, bottom = _integer_root(rational.numerator, root), _integer_root(rational.denominator, root)
            if top is not None and bottom is not None:
                base, root = Exact.rational(Fraction(top, bottom)), 1
        self.base, self.power, self.root = base, power, root
        self.name = None  # the parameter it was given as (``named``), for messages

    def named(self, name: str) -> Nats:
        """This quantity, named for messages as the parameter it was given as (``--epsilon``); multiples keep it."""
        copy = Nats(self.base, self.power, self.root)
        copy.name = name
        return copy

    @classmethod
    def rational(cls, value) -> Nats:
        """The budget ``value`` (a rational number of nats): ``base = e^value``."""
        return cls(Exact.exp(Fraction(value)))

    @classmethod
    def log(cls, value, name: str = "value") -> Nats:
        """``ln(value)`` for an exact positive ``value``."""
        value = Exact.of(value, name)
        if value.sign() <= 0:
            raise InvalidParameter(f"{name}: log() takes a positive number, got {value.text()}")
        return cls(value)

    @classmethod
    def infinity(cls) -> Nats:
        return cls(None)

    @property
    def is_infinite(self) -> bool:
        return self.base is None

    def as_rational(self) -> Fraction | None:
        """The value when it is a rational number of nats (``ln(e^q) = q``), else ``None``."""
        base = self.base
        if base is None or base.den != ONE_POLY or len(base.num) != 1 or base.num[0][1] != 1:
            return None
        return Fraction(base.num[0][0]) * self.power / self.root

    def exponential(self) -> Exact:
        """``e^self`` as an exact number: a rational number of nats gives ``e^q``, ``log(x)`` gives ``x``."""
        if self.base is None:
            raise InvalidParameter("e^inf is not a number")
        rational = self.as_rational()
        if rational is not None:
            return Exact.exp(rational)
        if self.root != 1:
            base = self.base.text() if self.base.bits() < 400 else "x"
            raise InvalidParameter(
                f"{self.name + ': ' if self.name else ''}e^({cut_text(self.text())}) = {cut_text(base)}^({self.power}/"
                f"{self.root}) is not an exact number the kernel can hold (it holds rationals and e^q for rational "
                "q); give the budget as a rational number, or as log(x) with x a perfect "
                f"{'square' if self.root == 2 else f'{self.root}-th power'}")
        return self.base ** self.power

    def _common(self, other: Nats) -> tuple[Exact, Exact, int]:
        """Exact numbers ``A, B`` and a root ``L`` with ``self = ln(A)/L`` and ``other = ln(B)/L``."""
        roots = math.lcm(self.root, other.root)
        return (self.base ** (self.power * roots // self.root), other.base ** (other.power * roots // other.root),
                roots)

    def compare(self, other: Nats) -> int:
        other = _nats(other)
        if self.base is None or other.base is None:
            return (self.base is None) - (other.base is None)
        if not self.base or not other.base:  # -infinity
            return (bool(self.base)) - (bool(other.base))
        left, right = self.as_rational(), other.as_rational()
        if left is not None and right is not None:
            return (left > right) - (left < right)
        if self.base is other.base or (self.base.num == other.base.num and self.base.den == other.base.den):
            # (p/r) ln(b) against (p'/r') ln(b): the factors decide, with the sign of ln(b)
            side = self.base.compare(1)
            mine, theirs = Fraction(self.power, self.root), Fraction(other.power, other.root)
            return side * ((mine > theirs) - (mine < theirs))
        order = self._order_of_enclosures(other)
        if order is not None:
            return order
        left, right, _ = self._common(other)  # nearly equal: exactly, through powers of the two bases
        return left.compare(right)

    def _enclosure(self):
        """An interval holding the value (``spec.exact``'s interval context, ``START_BITS`` of precision)."""
        rational = self.as_rational()
        IV.prec = START_BITS
        if rational is not None:
            return IV.mpf(rational.numerator) / rational.denominator
        enclosure = self.base.enclosure()  # tight: excludes 0, relative width below 2^-ENCLOSURE_BITS
        IV.prec = START_BITS
        return IV.log(enclosure) * self.power / self.root

    def _order_of_enclosures(self, other: Nats) -> int | None:
        """-1 or 1 when the enclosures of the two values do not overlap, else ``None``: most comparisons are decided
        so, without raising the bases to the powers that ``_common`` takes (``x^r`` for a budget ``log(x)/r``)."""
        mine, theirs = self._enclosure(), other._enclosure()
        if mine.b < theirs.a:
            return -1
        if mine.a > theirs.b:
            return 1
        return None

    def __eq__(self, other) -> bool:
        other = _nats(other, strict=False)
        if other is NotImplemented:
            return NotImplemented
        return self.compare(other) == 0

    def __hash__(self) -> int:
        rational = self.as_rational()
        if rational is None:
            raise TypeError("a budget that is not a rational number of nats is not hashable")
        return hash(rational)

    def __add__(self, other) -> Nats:
        other = _nats(other, strict=False)
        if other is NotImplemented:
            return other
        if self.base is None or other.base is None:
            return Nats.infinity()
        left, right = self.as_rational(), other.as_rational()
        if left is not None and right is not None:
            return Nats.rational(left + right)
        left, right, roots = self._common(other)
        return Nats(left * right, 1, roots)

    __radd__ = __add__

    def __sub__(self, other) -> Nats:
        other = _nats(other, strict=False)
        if other is NotImplemented:
            return other
        if other.base is None:
            raise ValueError("cannot subtract an infinite quantity")
        return self + (-other)

    def __rsub__(self, other) -> Nats:
        other = _nats(other, strict=False)
        return NotImplemented if other is NotImplemented else other + (-self)

    def __neg__(self) -> Nats:
        if self.base is None or not self.base:
            raise ValueError("cannot negate an infinite quantity")
        rational = self.as_rational()
        if rational is not None:
            return Nats.rational(-rational)
        return Nats(self.base, -self.power, self.root)

    def __mul__(self, factor) -> Nats:
        factor = rational_value(factor)
        if factor is None:
            return NotImplemented
        if self.base is None:
            if factor <= 0:
                raise ValueError("infinity times a number that is not positive")
            return self
        if factor == 0:
            return Nats.rational(0)
        rational = self.as_rational()
        if rational is not None:
            return Nats.rational(rational * factor)
        power = self.power * factor.numerator
        result = Nats(self.base, power, self.root * factor.denominator)
        result.name = self.name  # eps / 2 is still the budget the user gave
        return result

    __rmul__ = __mul__

    def __truediv__(self, divisor) -> Nats:
        divisor = rational_value(divisor)
        if divisor is None or divisor == 0:
            return NotImplemented
        return self * (1 / divisor)

    def sign(self) -> int:
        if self.base is None:
            return 1
        if not self.base:
            return -1
        rational = self.as_rational()
        if rational is not None:
            return (rational > 0) - (rational < 0)
        return self.base.compare(1) * (1 if self.power > 0 else -1)

    def approximation(self):
        """The value in nats, to ``APPROXIMATION_DIGITS`` digits (``+inf`` or ``-inf`` when infinite)."""
        if self.base is None:
            return MP.inf
        if not self.base:
            return -MP.inf
        rational = self.as_rational()
        if rational is not None:
            return MP.mpf(rational.numerator) / rational.denominator
        return _approximate_log(self.base) * self.power / self.root

    def text(self) -> str:
        """Exact text: a rational number of nats as a decimal or fraction, else ``log(...)``; ``inf`` if infinite."""
        if self.base is None:
            return "inf"
        if not self.base:
            return "-inf"
        rational = self.as_rational()
        if rational is not None:
            return rational_text(rational)
        text = f"log({self.base.text()})"
        if self.power != 1:
            text = f"-{text}" if self.power == -1 else f"{self.power}*{text}"
        return text if self.root == 1 else f"{text}/{self.root}"

    def __float__(self) -> float:
        return float(self.approximation())

    def __repr__(self) -> str:
        return f"Nats({self.text()!r})"

    __str__ = text


def _integer_root(value: int, k: int) -> int | None:
    """The integer ``r >= 0`` with ``r^k = value``, or ``None`` when ``value`` is not a perfect k-th power."""
    if value < 0:
        return None
    if value < 2:
        return value
    if k >= value.bit_length():  # 2^k > value: no integer >= 2 is its k-th root (and 2^k would not fit in memory)
        return None
    # Newton's method on integers from above: 2^ceil(bits / k) exceeds the root, and from above the iteration
    # decreases to floor(value^(1/k)) and stops there (a guess from below, as a float gives, can stop at once)
    guess = 1 << -(-value.bit_length() // k)
    for _ in range(4 * value.bit_length() + 8):
        better = ((k - 1) * guess + value // guess ** (k - 1)) // k
        if better >= guess:
            break
        guess = better
    return guess if guess ** k == value else None


def _approximate_log(value: Exact):
    """``ln(value)`` of a positive number to ``APPROXIMATION_DIGITS`` digits (for display), also beyond the float
    range, and near 1 (a margin near 0) from the exact ``value - 1``, so that a tiny logarithm keeps its digits."""
    enclosure = value.enclosure()  # tight: excludes 0, relative width below 2^-ENCLOSURE_BITS
    if enclosure.a > 0.5 and enclosure.b < 2:
        excess = value - 1
        return MP.log1p(excess.approximation()) if excess else MP.mpf(0)
    IV.prec = START_BITS
    return MP.mpf(IV.log(enclosure).mid)


def _nats(value, strict: bool = True):
    if isinstance(value, Nats):
        return value
    rational = rational_value(value)
    if rational is not None:
        return Nats.rational(rational)
    if strict:
        raise TypeError(f"cannot compare a quantity in nats with {type(value).__name__}")
    return NotImplemented

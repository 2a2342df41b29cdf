"""Exact real numbers for the kernel, and quantities in nats held through their exponentials.

**The numbers.** Every probability the kernel meets is a rational number, or is built from rationals and ``e^q``
for rational ``q`` with ``+ - * /``: the probabilities of the mechanisms are arithmetic over ``e^eps`` for budgets
``eps`` that are exact decimals. So every such number is a fraction ``N / D`` of *exponential polynomials*
``N = sum_i c_i e^{q_i}`` with rational ``c_i`` and ``q_i`` (``Exact``).

**Deciding.** Such a number is zero exactly when its numerator is the zero polynomial. For distinct rationals ``q_i``,
the ``e^{q_i}`` are distinct integer powers of the one number ``t = e^{1/L}`` (``L`` the least common multiple of
the denominators), which is transcendental (Hermite-Lindemann: ``e^a`` is transcendental for every algebraic
``a != 0``); a Laurent polynomial with rational coefficients that is not the zero polynomial therefore does not
vanish at ``t``. So equality is decided exactly, by collecting terms. The sign of a number that is not zero is
decided by interval arithmetic (mpmath's interval context, rounding outward), starting at ``START_BITS`` of
precision and doubling until the interval excludes 0; the doubling stops at ``MAX_BITS``, and a comparison not decided
by then raises ``Undecided``, never a guess. A rational ratio never ties with ``e^eps`` for a rational
``eps != 0``; a ratio built from ``e^eps`` that equals it is found equal exactly.

Quantities in nats (budgets, log-ratios) are ``spec.nats.Nats``; numbers written as text are read by
``spec.parse``.
"""

from __future__ import annotations

import math
from decimal import Decimal
from fractions import Fraction
from numbers import Rational

from mpmath.ctx_iv import MPIntervalContext
from mpmath.ctx_mp import MPContext

from ldpspec.spec.errors import InvalidParameter, SpecError
from ldpspec.spec.labels import value_text
from ldpspec.spec.parse import MAX_TEXT, check_decimal_size, parse_number

START_BITS = 256
"""Interval precision of the first attempt to decide a sign (about 77 decimal digits)."""

MAX_BITS = 1 << 16
"""The largest interval precision tried (about 19,700 decimal digits); beyond it a comparison is ``Undecided``."""

APPROXIMATION_DIGITS = 60
"""Significant digits of the approximations shown to users (log-ratios, margins)."""

MAX_POWER = 10_000
"""The largest exponent of an exact power (``Exact.__pow__``): a budget ``log(x)/r`` is compared through ``x^r``, and
``x^(10^19)`` is not a number any computer holds."""

MAX_POWER_BITS = 1_000_000
"""The most bits (about 300,000 digits) an exact power may have, estimated before it is computed (``Exact.bits``)."""

MAX_TERMS = 20_000
"""The most terms ``c e^q`` the numerator or denominator of an exact number may have. Sums of fractions with
different denominators multiply the denominators, so a few dozen such entries could otherwise make a number of
astronomically many terms; past this size a computation stops with ``InvalidParameter``."""

# the kernel's own mpmath contexts: a caller changing mpmath's global precision cannot change a decision
IV = MPIntervalContext()
MP = MPContext()
MP.dps = APPROXIMATION_DIGITS


class Undecided(SpecError):
    """A comparison that interval arithmetic did not decide within ``MAX_BITS`` of precision.

    It is not an error of the input: the two numbers differ by less than about ``2^-MAX_BITS`` relative to their
    size, or are equal in a way the exact normal form does not reveal.
    """


# --- exponential polynomials: tuples of (exponent, coefficient), sorted by exponent ---------------------------
#
# An exponent is a rational (an int when it is whole, else a Fraction; the two hash and compare alike) and a
# coefficient a non-zero int: an exact number is a ratio of two such polynomials, so rational coefficients are
# never needed (both sides are scaled by the common denominator), and integer arithmetic keeps every step fast.

def _exponent(q) -> int | Fraction:
    q = Fraction(q)
    return q.numerator if q.denominator == 1 else q


def _poly(terms: dict) -> tuple:
    return tuple(sorted((q, c) for q, c in terms.items() if c))


def _add(a: tuple, b: tuple, sign: int = 1) -> tuple:
    terms = dict(a)
    for q, c in b:
        terms[q] = terms.get(q, 0) + sign * c
    return _poly(terms)


def _mul(a: tuple, b: tuple) -> tuple:
    if len(a) == 1 and a[0][0] == 0:
        return _scale(b, a[0][1])
    if len(b) == 1 and b[0][0] == 0:
        return _scale(a, b[0][1])
    if len(a) * len(b) > MAX_TERMS * 100:
        raise InvalidParameter(f"an exact number too large to compute with: a product of {len(a):,} and {len(b):,} "
                               f"terms of exp(), more than the limit of {MAX_TERMS:,} terms (spec.exact.MAX_TERMS)")
    terms = {}
    for q1, c1 in a:
        for q2, c2 in b:
            q = q1 + q2
            terms[q] = terms.get(q, 0) + c1 * c2
    return _poly(terms)


def _scale(a: tuple, c: int) -> tuple:
    """``a * c`` for an integer ``c``."""
    if c == 0:
        return ()
    return a if c == 1 else tuple((q, c1 * c) for q, c1 in a)


def _shift(a: tuple, q: int | Fraction) -> tuple:
    """``a * e^q``."""
    return a if q == 0 else tuple((q1 + q, c) for q1, c in a)


ONE_POLY = ((0, 1),)


def _interval(poly: tuple, bits: int):
    total = None
    for q, c in poly:
        term = _exp_interval(q, bits) if q != 0 else None
        IV.prec = bits
        term = IV.mpf(c) if term is None else c * term
        total = term if total is None else total + term
    IV.prec = bits
    return IV.mpf(0) if total is None else total


REDUCED_EXPONENT = 64
"""Beyond this magnitude ``e^q`` is enclosed as ``2^n e^r`` with ``r = q - n ln 2`` (see ``_exp_interval``)."""


def _exp_interval(q, bits: int):
    """An interval holding ``e^q`` whose relative width is about ``2^-bits``, whatever the size of ``q``.

    A large ``q`` is reduced to ``r = q - n ln 2`` with ``|r| <= 1`` (``ln 2`` and ``q`` enclosed at ``bits`` plus
    the bits of ``n``, so that ``r`` is known to ``2^-bits``), and ``e^q = 2^n e^r`` exactly from there: the time
    grows with the digits of ``q``, not with its size. Without this, mpmath takes ``e^q`` for a whole ``q`` beyond
    600 bits of precision as a power of ``e``, and the first precision at which ``e^(1e600)`` is tight is 4096 bits: a
    budget of ``1e1999`` took minutes."""
    if abs(q) <= REDUCED_EXPONENT:
        IV.prec = bits
        return IV.exp(IV.mpf(q.numerator) / q.denominator)
    magnitude = abs(q.numerator).bit_length() - q.denominator.bit_length() + 2
    IV.prec = bits + magnitude + 20
    x = IV.mpf(q.numerator) / q.denominator
    n = int((x / IV.ln2).mid)
    r = x - n * IV.ln2
    IV.prec = bits + 20
    return IV.ldexp(IV.exp(r), n)


ENCLOSURE_BITS = 200
"""Relative precision of an enclosure: its width is below ``2^-200`` of its size (about 60 decimal digits)."""


def _tight(interval) -> bool:
    """Whether ``interval`` excludes 0 and its width is below ``2^-ENCLOSURE_BITS`` of its smallest magnitude."""
    if not (interval.a > 0 or interval.b < 0):
        return False
    low, high = abs(interval.a), abs(interval.b)
    return bool((interval.b - interval.a) < min(low, high) * IV.ldexp(1, -ENCLOSURE_BITS))


def _poly_sign(poly: tuple) -> int:
    """The sign of a non-zero exponential polynomial at its value."""
    signs = {c > 0 for _, c in poly}
    if len(signs) == 1:  # every e^q is positive
        return 1 if signs.pop() else -1
    bits = START_BITS
    while bits <= MAX_BITS:
        value = _interval(poly, bits)
        if value.a > 0:
            return 1
        if value.b < 0:
            return -1
        bits *= 2
    raise Undecided(f"the sign of {_poly_text(poly)} is not decided at {MAX_BITS} bits of precision")


def _mpf_fraction(raw: tuple) -> Fraction:
    """A finite mpmath raw value ``(sign, mantissa, exponent, bits)`` as a Fraction, exactly."""
    sign, mantissa, exponent, _ = raw
    if mantissa == 0 and exponent != 0:
        raise InvalidParameter("not a finite number")
    fraction = Fraction(mantissa * 2 ** exponent) if exponent >= 0 else Fraction(mantissa, 2 ** -exponent)
    return -fraction if sign else fraction


def rational_value(value) -> Fraction | None:
    """``value`` as a Fraction when it is a rational number the kernel reads exactly; ``None`` otherwise."""
    if isinstance(value, bool):
        return None
    if isinstance(value, Fraction):
        return value
    if isinstance(value, int):
        return Fraction(value)
    if isinstance(value, Rational):
        return Fraction(value.numerator, value.denominator)
    return None


class Ordered:
    """``< <= > >=`` from a ``compare(other)`` method returning -1, 0 or 1 (exact numbers and budgets alike)."""

    __slots__ = ()

    def __lt__(self, other) -> bool:
        return self.compare(other) < 0

    def __le__(self, other) -> bool:
        return self.compare(other) <= 0

    def __gt__(self, other) -> bool:
        return self.compare(other) > 0

    def __ge__(self, other) -> bool:
        return self.compare(other) >= 0


class Exact(Ordered):
    """An exact real number: a fraction of two exponential polynomials ``sum_i c_i e^{q_i}``.

    Build one with ``Exact.of`` (rationals, decimal text, fractions ``"1/3"``, expressions ``"exp(1)/(exp(1)+2)"``,
    floats read as their shortest decimal, mpmath numbers read exactly) or ``Exact.exp(q)``; combine with
    ``+ - * /`` (also with ints and Fractions). Comparisons are exact (``==`` always; ``<`` may raise ``Undecided``).
    """

    __slots__ = ("num", "den", "_enclosure", "_fraction")

    def __init__(self, num: tuple, den: tuple = ONE_POLY, *, reduced: bool = False):
        """``num / den`` for two polynomials with integer coefficients; ``reduced`` skips the search for a
        polynomial that divides out (the caller knows there is none)."""
        if not den:
            raise ZeroDivisionError("division by an exact zero")
        self.num, self.den = _normalize(num, den, reduced)
        self._enclosure = self._fraction = None

    # --- construction ---

    @classmethod
    def rational(cls, value) -> Exact:
        value = value if type(value) is Fraction else Fraction(value)
        number = cls.__new__(cls)  # a Fraction is already in the canonical form: no common factor, denominator > 0
        number.num = ((0, value.numerator),) if value else ()
        number.den = ((0, value.denominator),)
        number._enclosure, number._fraction = None, value
        return number

    @classmethod
    def coprime(cls, numerator: int, denominator: int, shared: dict | None = None) -> Exact:
        """``numerator / denominator`` for two coprime ints with ``denominator >= 1`` (the caller has divided out
        their gcd), built without a Fraction, which ``as_rational`` makes when asked: a channel file's millions of
        entries are read through it (``spec.channel``). ``shared`` (``{int: polynomial}``, kept by the caller) gives
        equal coefficients one polynomial object: a matrix of 4 million fractions over a few thousand distinct
        numerators and denominators then holds a few thousand polynomials, not 8 million."""
        number = cls.__new__(cls)
        if shared is None:
            number.num = ((0, numerator),) if numerator else ()
            number.den = ONE_POLY if denominator == 1 else ((0, denominator),)
        else:
            top = shared.get(numerator)
            if top is None:
                top = shared[numerator] = ((0, numerator),)
            bottom = shared.get(denominator)
            if bottom is None:
                bottom = shared[denominator] = ((0, denominator),)
            number.num = top if numerator else ()
            number.den = bottom if denominator != 1 else ONE_POLY
        number._enclosure = number._fraction = None
        return number

    @classmethod
    def exp(cls, q) -> Exact:
        """``e^q`` for a rational ``q``."""
        q = Exact.of(q, "exponent").as_rational()
        if q is None:
            raise InvalidParameter("exp() takes a rational number")
        return cls(((_exponent(q), 1),), reduced=True)

    @classmethod
    def of(cls, value, name: str = "number") -> Exact:
        """``value`` read exactly, or ``InvalidParameter`` naming ``name``."""
        if isinstance(value, Exact):
            return value
        if isinstance(value, bool) or value is None:
            raise InvalidParameter(f"{name} must be a real number, got {value_text(value)}")
        rational = rational_value(value)
        if rational is not None:
            return cls.rational(rational)
        if isinstance(value, float) or type(value).__name__ in ("float64", "float32", "float16"):
            value = float(value)
            if math.isnan(value):
                raise InvalidParameter(f"{name} must be a real number, got NaN")
            if math.isinf(value):
                raise InvalidParameter(f"{name} must be finite, got {value_text(value)}")
            return cls.rational(Fraction(repr(value)))
        if type(value).__name__ in ("int64", "int32", "int16", "int8", "uint64", "uint32", "uint16", "uint8"):
            return cls.rational(int(value))
        if isinstance(value, Decimal):
            if value.is_nan():
                raise InvalidParameter(f"{name} must be a real number, got NaN")
            if value.is_infinite():
                raise InvalidParameter(f"{name} must be finite, got {value}")
            check_decimal_size(value, name)
            return cls.rational(Fraction(value))
        if hasattr(value, "_mpf_"):  # an mpmath number of any context: a binary rational, read exactly
            try:
                return cls.rational(_mpf_fraction(value._mpf_))
            except InvalidParameter:  # nan and infinities have a zero mantissa and a special exponent
                raise InvalidParameter(f"{name} must be a finite real number, got {value}") from None
        if isinstance(value, str):
            return parse_number(value, name, Exact)
        raise InvalidParameter(f"{name} must be a real number, got {type(value).__name__} {value_text(value)}")

    # --- what it is ---

    def is_rational(self) -> bool:
        return len(self.den) == 1 and self.den[0][0] == 0 and (not self.num or (len(self.num) == 1 and
                                                                                 self.num[0][0] == 0))

    def as_rational(self) -> Fraction | None:
        """The value as a Fraction when it is rational, else ``None``."""
        if self._fraction is None and self.is_rational():
            self._fraction = Fraction(self.num[0][1], self.den[0][1]) if self.num else Fraction(0)
        return self._fraction

    def bits(self) -> int:
        """The bits of the largest coefficient, plus those of the number of terms: about how the size of a power
        grows with its exponent."""
        coefficients = [c for _, c in self.num] + [c for _, c in self.den]
        return max(abs(c).bit_length() for c in coefficients) + max(len(self.num), len(self.den)).bit_length()

    def sign(self) -> int:
        """-1, 0 or 1, exactly (``Undecided`` only when interval arithmetic runs out of precision)."""
        if not self.num:
            return 0
        return _poly_sign(self.num) * _poly_sign(self.den)

    def enclosure(self):
        """An interval (mpmath's interval context) that contains the value, with a relative width below
        ``2^-ENCLOSURE_BITS``: the precision starts at ``START_BITS`` and doubles while the numerator's or the
        denominator's interval is wider than that relative to its size (a sum that nearly cancels), up to
        ``MAX_BITS``, beyond which it is ``Undecided``."""
        if self._enclosure is None:
            bits = START_BITS
            while True:
                numerator, denominator = _interval(self.num, bits), _interval(self.den, bits)
                if (not self.num or _tight(numerator)) and _tight(denominator):
                    break
                bits *= 2
                if bits > MAX_BITS:
                    raise Undecided(f"{self.text()[:200]} is not enclosed tightly at {MAX_BITS} bits of precision")
            self._enclosure = numerator / denominator
        return self._enclosure

    def bounds(self) -> tuple[Fraction, Fraction]:
        """Rationals ``(low, high)`` with ``low <= value <= high``, from the enclosure (rigorous)."""
        rational = self.as_rational()
        if rational is not None:
            return rational, rational
        low, high = self.enclosure()._mpi_
        return _mpf_fraction(low), _mpf_fraction(high)

    def approximation(self):
        """The value to ``APPROXIMATION_DIGITS`` digits, as an mpmath number (for display, never for decisions)."""
        rational = self.as_rational()
        if rational is not None:
            return MP.mpf(rational.numerator) / rational.denominator
        return MP.mpf(self.enclosure().mid)

    def __float__(self) -> float:
        """The nearest double (an infinity beyond the doubles, as ``float()`` of an mpmath number gives)."""
        rational = self.as_rational()
        if rational is None:
            return float(self.approximation())
        try:
            return float(rational)
        except OverflowError:  # Fraction's float() raises for 1e400
            return math.inf if rational > 0 else -math.inf

    # --- arithmetic ---

    def _constant(self) -> tuple[int, int] | None:
        """``(a, b)`` when the value is the rational ``a / b``."""
        if self.is_rational():
            return (self.num[0][1] if self.num else 0), self.den[0][1]
        return None

    def __add__(self, other) -> Exact:
        other = _coerce(other)
        if other is NotImplemented:
            return other
        mine, theirs = self._constant(), other._constant()
        if mine is not None and theirs is not None:
            return Exact.rational(Fraction(mine[0] * theirs[1] + theirs[0] * mine[1], mine[1] * theirs[1]))
        if mine is not None or theirs is not None:  # a/b + N/D = (aD + bN) / (bD): D does not divide N, so no
            (a, b), rest = (mine, other) if mine is not None else (theirs, self)  # polynomial divides out
            return Exact(_add(_scale(rest.num, b), _scale(rest.den, a)), _scale(rest.den, b), reduced=True)
        if self.den == other.den:
            return Exact(_add(self.num, other.num), self.den)
        # When one denominator is a multiple of the other, it is a common denominator: sums of many fractions
        # over powers of a few factors (the moments of an estimator) then keep the least common denominator
        # instead of the product of all of them.
        big, small = (self, other) if len(self.den) >= len(other.den) else (other, self)
        if len(small.den) > 1:
            multiple = _divide(big.den, small.den)
            if multiple is not None:  # big.den = small.den * quotient / scale
                quotient, ((_, scale),) = multiple
                return Exact(_add(_scale(big.num, scale), _mul(small.num, quotient)), _scale(big.den, scale))
        return Exact(_add(_mul(self.num, other.den), _mul(other.num, self.den)), _mul(self.den, other.den))

    __radd__ = __add__

    def __neg__(self) -> Exact:
        return Exact(_scale(self.num, -1), self.den, reduced=True)

    def __abs__(self) -> Exact:
        return -self if self.sign() < 0 else self

    def __sub__(self, other) -> Exact:
        other = _coerce(other)
        return NotImplemented if other is NotImplemented else self + (-other)

    def __rsub__(self, other) -> Exact:
        other = _coerce(other)
        return NotImplemented if other is NotImplemented else other + (-self)

    def __mul__(self, other) -> Exact:
        other = _coerce(other)
        if other is NotImplemented:
            return other
        mine, theirs = self._constant(), other._constant()
        if mine is not None and theirs is not None:
            return Exact.rational(Fraction(mine[0] * theirs[0], mine[1] * theirs[1]))
        constant = theirs or mine
        if constant is not None:  # a rational factor: scaling cannot make a polynomial divide out
            rest = self if theirs else other
            a, b = constant
            return Exact(_scale(rest.num, a), _scale(rest.den, b), reduced=True)
        return Exact(_mul(self.num, other.num), _mul(self.den, other.den))

    __rmul__ = __mul__

    def __truediv__(self, other) -> Exact:
        other = _coerce(other)
        if other is NotImplemented:
            return other
        if not other.num:
            raise ZeroDivisionError("division by an exact zero")
        constant = other._constant()
        if constant is not None:
            a, b = constant
            mine = self._constant()
            if mine is not None:
                return Exact.rational(Fraction(mine[0] * b, mine[1] * a))
            return Exact(_scale(self.num, b), _scale(self.den, a), reduced=True)
        return Exact(_mul(self.num, other.den), _mul(self.den, other.num))

    def __rtruediv__(self, other) -> Exact:
        other = _coerce(other)
        return NotImplemented if other is NotImplemented else other / self

    def __pow__(self, exponent: int) -> Exact:
        if not isinstance(exponent, int) or isinstance(exponent, bool):
            return NotImplemented
        bits = abs(exponent) * self.bits()
        if abs(exponent) > MAX_POWER or bits > MAX_POWER_BITS:
            size = (f"exponent {count_text(abs(exponent))}, more than the limit of {MAX_POWER:,} (spec.exact.MAX_POWER)"
                    if abs(exponent) > MAX_POWER else
                    f"about {count_text(bits)} bits, more than the limit of {MAX_POWER_BITS:,} "
                    "(spec.exact.MAX_POWER_BITS)")
            raise InvalidParameter(
                f"an exact power too large to compute: {size}. Budgets written p*log(x)/r are compared and added "
                "through x^p and x^r (budgets with different r through the least common multiple of the r): write "
                "them with smaller whole numbers p and r, and few different r, or as decimals")
        if exponent < 0:
            return Exact.rational(1) / (self ** -exponent)
        result, base = Exact.rational(1), self
        while exponent:
            if exponent & 1:
                result = result * base
            base = base * base
            exponent >>= 1
        return result

    # --- comparison ---

    def __eq__(self, other) -> bool:
        other = _coerce(other)
        if other is NotImplemented:
            return NotImplemented
        if self.den == other.den:
            return self.num == other.num
        return _mul(self.num, other.den) == _mul(other.num, self.den)

    def __hash__(self) -> int:
        rational = self.as_rational()
        if rational is None:
            raise TypeError("an exact number that is not rational is not hashable")
        return hash(rational)

    def compare(self, other) -> int:
        """-1, 0 or 1 as ``self`` is less than, equal to, or greater than ``other``."""
        coerced = _coerce(other)
        if coerced is NotImplemented:
            raise TypeError(f"cannot compare an exact number with {type(other).__name__}")
        other = coerced
        left, right = self.as_rational(), other.as_rational()
        if left is not None and right is not None:
            return (left > right) - (left < right)
        if right == 0:  # the sign is decided from the form alone; an enclosure of exp(-1e1999) takes long to build
            return self.sign()
        if left == 0:
            return -other.sign()
        if (left is None) != (right is None):  # a rational beside the other number's (cached) enclosure
            enclosure = (self if left is None else other).enclosure()
            rational = left if right is None else right
            IV.prec = 2 * ENCLOSURE_BITS
            point = IV.mpf(rational.numerator) / rational.denominator
            if point.b < enclosure.a or point.a > enclosure.b:
                side = -1 if point.b < enclosure.a else 1  # the rational's side of the other number
                return side if left is not None else -side
        # Enclosures that do not overlap decide at once; otherwise the exact difference decides.
        a, b = self.enclosure(), other.enclosure()
        if a.b < b.a:
            return -1
        if a.a > b.b:
            return 1
        return (self - other).sign()

    def __bool__(self) -> bool:
        return bool(self.num)

    # --- text ---

    def text(self) -> str:
        """The exact value as text that ``parse`` reads back: a decimal, a fraction ``a/b``, or an expression."""
        rational = self.as_rational()
        if rational is not None:
            return rational_text(rational)
        numerator = _poly_text(self.num)
        if self.den == ONE_POLY:
            return numerator
        if len(self.num) > 1:
            numerator = f"({numerator})"
        denominator = _poly_text(self.den)
        if len(self.den) > 1 or "*" in denominator:
            denominator = f"({denominator})"
        return f"{numerator}/{denominator}"

    def __repr__(self) -> str:
        return f"Exact({self.text()!r})"

    def __str__(self) -> str:
        return self.text()


def _normalize(num: tuple, den: tuple, reduced: bool) -> tuple[tuple, tuple]:
    """The canonical form of ``num / den`` (values unchanged, forms small):

    the denominator's smallest exponent is 0 (both sides times ``e^-q``); a denominator that divides the numerator
    is divided out (unless ``reduced``); the coefficients have no common factor; the denominator's leading
    coefficient is positive. So denominators that differ by a factor ``c e^q`` become equal.
    """
    if not num:
        return (), ONE_POLY
    if len(num) > MAX_TERMS or len(den) > MAX_TERMS:
        raise InvalidParameter(f"an exact number too large to compute with: {max(len(num), len(den)):,} terms of "
                               f"exp(), more than the limit of {MAX_TERMS:,} (spec.exact.MAX_TERMS)")
    low = den[0][0]
    if low != 0:
        num, den = _shift(num, -low), _shift(den, -low)
    if not reduced and len(den) > 1:
        quotient = _divide(num, den)
        if quotient is not None:
            num, den = quotient
    content = 0
    for _, c in num:
        content = math.gcd(content, c)
    for _, c in den:
        content = math.gcd(content, c)
    if den[-1][1] < 0:
        content = -content
    if content != 1:
        num = tuple((q, c // content) for q, c in num)
        den = tuple((q, c // content) for q, c in den)
    return num, den


def _divide(num: tuple, den: tuple) -> tuple[tuple, tuple] | None:
    """``(quotient, constant)`` with ``num / den = quotient / constant`` when ``den`` (two or more terms, smallest
    exponent 0) divides ``num`` exactly, else ``None``.

    Long division from the largest exponent down, in rationals: each step removes the remainder's leading term. The
    quotient's exponents are at least ``min(num)``, so the division fails once a step would go below that.
    """
    if len(num) < len(den) or num[-1][0] - num[0][0] < den[-1][0]:
        return None  # the quotient would have to span a negative range of exponents
    floor = num[0][0]
    lead_q, lead_c = den[-1]
    remainder, quotient = {q: Fraction(c) for q, c in num}, {}
    for _ in range(len(num) * len(den) + 1):
        if not remainder:
            scale = math.lcm(*(c.denominator for c in quotient.values()))
            return _poly({q: int(c * scale) for q, c in quotient.items()}), ((0, scale),)
        top = max(remainder)
        q, c = top - lead_q, remainder[top] / lead_c
        if q < floor:
            return None
        quotient[q] = quotient.get(q, 0) + c
        for qd, cd in den:
            key = qd + q
            value = remainder.get(key, 0) - c * cd
            if value:
                remainder[key] = value
            else:
                remainder.pop(key, None)
    return None


def _coerce(value):
    """The other operand of arithmetic or a comparison: Python's numbers (bool as int, as Python does), and floats
    read as ``Exact.of`` reads them (their shortest decimal)."""
    if isinstance(value, Exact):
        return value
    if isinstance(value, bool):
        return Exact.rational(int(value))
    rational = rational_value(value)
    if rational is not None:
        return Exact.rational(rational)
    if isinstance(value, float) or type(value).__name__ in ("float64", "float32", "float16"):
        return Exact.of(value)
    return NotImplemented


def _digits(value: int) -> str:
    """``str(value)`` for an integer >= 0 of any size (Python refuses to write more than 4300 digits at once)."""
    if value.bit_length() < 10_000:
        return str(value)
    half = int(value.bit_length() * 0.30103) // 2
    high, low = divmod(value, 10 ** half)
    return _digits(high) + _digits(low).rjust(half, "0")


def cut_text(text: str, limit: int = 80) -> str:
    """``text`` for a message: whole when at most ``limit`` characters, else its start and end with its length (a
    number or budget written out can have thousands of characters)."""
    return text if len(text) <= limit else f"{text[:limit - 20]}...{text[-10:]} ({len(text):,} characters)"


def count_text(count: int) -> str:
    """A count for a message: with thousands separators, or as a power of two when it has more than 30 digits (a
    unary encoding over 10^7 items has 2^10000000 outputs, whose digits Python refuses to print)."""
    if count < 10 ** 30:
        return f"{count:,}"
    exponent = count.bit_length() - 1
    return f"2^{exponent:,}" if count == 1 << exponent else f"more than 2^{exponent:,}"


def rational_text(value: Fraction) -> str:
    """A rational as a terminating decimal when it is one (``0.25``; ``1.5e-130`` when that is much shorter), else
    as ``a/b``."""
    denominator = value.denominator
    twos = fives = 0
    while denominator % 2 == 0:
        denominator //= 2
        twos += 1
    while denominator % 5 == 0:
        denominator //= 5
        fives += 1
    places = max(twos, fives)
    if denominator != 1:
        return _fraction_text(value)
    sign = "-" if value < 0 else ""
    digits = _digits(abs((value * 10 ** places).numerator))  # 10^places is about the size of the denominator
    if places > MAX_TEXT // 2 and len(digits) > 60:  # 1e-1999 stays short; other long decimals are fractions
        return _fraction_text(value)
    if places == 0:
        significant = digits.rstrip("0")
        if len(digits) - len(significant) > 10:  # 1e300, not three hundred zeros
            mantissa = significant[0] + ("." + significant[1:] if len(significant) > 1 else "")
            return f"{sign}{mantissa}e{len(digits) - 1}"
        return f"{sign}{digits}"
    if places > 60 and len(digits) <= 60:  # many leading zeros: scientific notation
        mantissa = digits[0] + ("." + digits[1:].rstrip("0") if digits[1:].rstrip("0") else "")
        return f"{sign}{mantissa}e-{places - len(digits) + 1}"
    text = digits.rjust(places + 1, "0")
    return f"{sign}{text[:-places]}.{text[-places:]}"


def _fraction_text(value: Fraction) -> str:
    return f"{'-' if value < 0 else ''}{_digits(abs(value.numerator))}/{_digits(value.denominator)}"


def _term_text(q, c: int) -> str:
    if q == 0:
        return ("-" if c < 0 else "") + _digits(abs(c))
    power = f"exp({rational_text(Fraction(q))})"
    if c == 1:
        return power
    if c == -1:
        return f"-{power}"
    return f"{'-' if c < 0 else ''}{_digits(abs(c))}*{power}"


def _poly_text(poly: tuple) -> str:
    if not poly:
        return "0"
    text = ""
    for q, c in reversed(poly):  # the largest exponent first
        term = _term_text(q, c)
        text += term if not text else (f" - {term[1:]}" if term.startswith("-") else f" + {term}")
    return text


ZERO = Exact.rational(0)
ONE = Exact.rational(1)

"""Checks of the mechanisms' inputs, shared by every mechanism: domains, items, item sets, and users' data.

Each check returns the value in canonical form or raises ``InvalidParameter`` naming the parameter and what is
allowed. This is the one place for the mechanisms' argument checks; an integer is read by the kernel's
``integer`` (``ldpspec.spec.numbers``), which the checks here build on.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from functools import cmp_to_key
from numbers import Integral

import numpy as np

from ldpspec.spec import (  # the kernel's exact readings of numbers and budgets
    InvalidParameter,
    LazyText,
    budget,
    exact_number,
    integer,
    value_text,
)

MAX_DOMAIN = 10_000_000
"""The largest domain a mechanism is built over: the mechanisms hold per-item parameters and counts."""


def domain_size(d, name: str = "d (domain size)") -> int:
    """An integer in ``[2, MAX_DOMAIN]``."""
    return integer(d, name, 2, MAX_DOMAIN)


def positive_integer(value, name: str, maximum: int | None = None) -> int:
    """An integer >= 1 (and at most ``maximum``)."""
    return integer(value, name, 1, maximum)


def number_of_users(n, name: str = "n (the number of users)") -> int:
    """The number of users an estimate is made from: an integer >= 1."""
    return integer(n, name, 1)


def unit_sign(value, name: str) -> int:
    """``-1`` or ``1`` (a number, not a bool)."""
    if isinstance(value, bool) or value not in (-1, 1):
        raise InvalidParameter(f"{name} must be the sign -1 or 1, got {value_text(value)}")
    return int(value)


def positive_budget(value, name: str, why: str):
    """A budget > 0 (``budget`` of the kernel, then not 0); ``why`` says why the mechanism needs it, for the
    message."""
    epsilon = budget(value, name)
    if epsilon.sign() == 0:
        raise InvalidParameter(f"{name} must be > 0 {why}")
    return epsilon


def flag(value, name: str) -> bool:
    """A switch: ``True`` or ``False`` (not a number or text that means one)."""
    if not isinstance(value, bool):
        raise InvalidParameter(f"{name} must be True or False, got {value_text(value)}")
    return value


def choice(value, choices, name: str):
    """One of the named ``choices`` (a tuple of strings, or a mapping keyed by them)."""
    if not isinstance(value, str) or value not in choices:
        raise InvalidParameter(f"{name} must be one of {', '.join(choices)}, got {value_text(value)}")
    return value


def item_index(item, d: int, name: str = "item") -> int:
    """An item of the domain ``0 .. d-1``."""
    return integer(item, name, 0, d - 1)


def item_set(items: Iterable, m: int, name: str = "an item set") -> tuple:
    """A set of items of ``0 .. m-1`` without repeats, returned sorted."""
    if isinstance(items, (str, bytes)) or not isinstance(items, Iterable):
        raise InvalidParameter(f"{name} must be a list of items of 0 .. {m - 1}, got {value_text(items)}"[:300])
    items = tuple(items)
    if any(isinstance(i, bool) or not isinstance(i, Integral) or not 0 <= i < m for i in items):
        raise InvalidParameter(f"{name} must hold integers in [0, {m - 1}], got {value_text(items)}")
    if len(set(items)) != len(items):
        raise InvalidParameter(f"{name} must not repeat items, got {value_text(items)}")
    return tuple(sorted(int(i) for i in items))


def item_array(items, d: int, name: str = "items") -> np.ndarray:
    """Many users' items: a one-dimensional integer array with values in ``0 .. d-1``."""
    items = np.asarray(items)
    if items.ndim != 1 or not (items.size == 0 or np.issubdtype(items.dtype, np.integer)) or (
            items.size and (items.min() < 0 or items.max() >= d)):
        raise InvalidParameter(f"{name} must be a one-dimensional integer array with values in [0, {d - 1}]")
    return items.astype(np.int64, copy=False)


def count_array(counts, d: int, name: str = "true_counts") -> np.ndarray:
    """One non-negative integer count per item: an array of length ``d``, or a mapping ``{item: count}``."""
    if isinstance(counts, Mapping):
        array = np.zeros(d, dtype=np.int64)
        for item, count in counts.items():
            named = LazyText(lambda item=item: f"{name}[{value_text(item)}]")  # written only if refused
            array[item_index(item, d, f"an item of {name}")] = user_count(count, named)
        return array
    counts = np.asarray(counts)
    if counts.shape != (d,) or not np.issubdtype(counts.dtype, np.integer) or np.any(counts < 0):
        raise InvalidParameter(f"{name} must be {d} non-negative integers (one per item), or a mapping item -> count")
    return counts.astype(np.int64, copy=False)


def user_count(value, name: str) -> int:
    """A number of users: an integer >= 0."""
    try:
        return integer(value, name, 0)
    except InvalidParameter:
        raise InvalidParameter(f"{name} (a number of users) must be a non-negative integer, got "
                               f"{value_text(value)}") from None


def item_budgets(values, name: str = "budgets", *, positive: bool = False) -> tuple:
    """One budget per item ``0 .. d-1`` (``d = len(values)``, at least 2), ``None`` for a non-sensitive item.

    Returns the budgets as ``Nats`` (and ``None``). With ``positive``, a sensitive item's budget must be ``> 0``.
    """
    if isinstance(values, (str, bytes, Mapping)) or not isinstance(values, Iterable):
        raise InvalidParameter(f"{name} must be a list with one budget per item 0 .. d-1 (null for a non-sensitive "
                               f"item), got {value_text(values)}"[:300])
    values = tuple(values)
    if not 2 <= len(values) <= MAX_DOMAIN:
        raise InvalidParameter(f"{name} must have one entry per item, for 2 to {MAX_DOMAIN:,} items (the domain size "
                               f"d); got {len(values):,}")
    budgets = tuple(None if value is None else budget(value, f"{name}[{k}]") for k, value in enumerate(values))
    if positive:
        for k, value in enumerate(budgets):
            if value is not None and value.sign() == 0:
                raise InvalidParameter(f"{name}[{k}] (the budget of sensitive item {k}) must be > 0, got 0; "
                                       f"write null for an item that needs no protection")
    return budgets


def smallest_budget(budgets: tuple, name: str = "budgets"):
    """``min E`` over the sensitive items of ``item_budgets``' result; there must be one."""
    sensitive = [value for value in budgets if value is not None]
    if not sensitive:
        raise InvalidParameter(f"{name} must give at least one sensitive item a budget (every entry is null)")
    return min(sensitive)


# --- numerical data (Hao et al.): values of [-1, 1] ---

def value(x, name: str = "x", low=-1, high=1):
    """One user's number of ``[low, high]``, exactly (a number, or its text such as ``"0.5"`` or ``"-1/3"``)."""
    if isinstance(x, bool):
        raise InvalidParameter(f"{name} must be a number in [{low}, {high}], got {value_text(x)}")
    number = exact_number(x, name)
    if number < low or number > high:
        raise InvalidParameter(f"{name} must be a number in [{low}, {high}], got {number.text()}")
    return number


def value_grid(values, name: str = "grid") -> tuple:
    """The inputs a numerical mechanism's exact channel is computed on: at least one number of ``[-1, 1]``, without
    repeats, returned in increasing order (exact numbers)."""
    if isinstance(values, (str, bytes, Mapping)) or not isinstance(values, Iterable):
        raise InvalidParameter(f"{name} must be a list of numbers in [-1, 1], got {value_text(values)}"[:300])
    numbers = [value(x, f"{name}[{k}]") for k, x in enumerate(values)]
    if not numbers:
        raise InvalidParameter(f"{name} must hold at least one number in [-1, 1]")
    ordered = sorted(numbers, key=cmp_to_key(lambda a, b: a.compare(b)))
    if any(a == b for a, b in zip(ordered, ordered[1:])):
        raise InvalidParameter(f"{name} must not repeat a number, got [{', '.join(x.text() for x in numbers)}]")
    return tuple(ordered)


def value_array(values, name: str = "values") -> np.ndarray:
    """Many users' numbers of ``[-1, 1]`` as float64: a numeric array, or numbers' texts (a channel's input labels)."""
    array = np.asarray(values)
    if array.dtype.kind in "US":  # labels such as "0.5" or "-1/3"
        from fractions import Fraction

        try:
            array = np.array([float(Fraction(str(x))) for x in array.ravel()]).reshape(array.shape)
        except (ValueError, ZeroDivisionError):
            raise InvalidParameter(f"{name} must be numbers in [-1, 1]; a text among them is not a number") from None
    # NaN makes min or max NaN and infinities are out of range, so two passes check finiteness too
    if array.ndim != 1 or array.dtype.kind not in "iuf" or (array.size and not (
            array.min() >= -1 and array.max() <= 1)):
        raise InvalidParameter(f"{name} must be a one-dimensional array of numbers in [-1, 1]")
    return array.astype(np.float64, copy=False)

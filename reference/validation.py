"""Validation shared by the mechanisms: domain sizes and items."""

from __future__ import annotations

from ldpspec.spec.errors import InvalidParameter


def domain_size(d, name: str = "d (domain size)") -> int:
    """An integer >= 2."""
    if not isinstance(d, int) or isinstance(d, bool) or d < 2:
        raise InvalidParameter(f"{name} must be an integer >= 2, got {d!r}")
    return d


def item_index(item, d: int, name: str = "item") -> int:
    """An item of the domain ``0 .. d-1``."""
    if not isinstance(item, int) or isinstance(item, bool) or not 0 <= item < d:
        raise InvalidParameter(f"{name} must be an integer in [0, {d - 1}], got {item!r}")
    return item

"""Padding-and-Sampling (Wang, Li, Jha, IEEE S&P 2018; Gu et al. Algorithm 1); formula sheet common §12.

Items are ``0 .. m-1``; the ``l`` dummy items are ``m .. m+l-1``. A user with
item set ``x``:

1. if ``|x| < l``, adds ``l - |x|`` distinct dummies chosen uniformly from the ``l``;
2. if ``|x| > l``, keeps ``l`` of its items chosen uniformly (truncation);
3. samples one item uniformly from the resulting ``l`` items.

So each real item of ``x`` is sampled with probability ``1 / max(|x|, l)`` and,
when ``|x| < l``, each dummy with probability ``(l - |x|) / l^2``.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from fractions import Fraction

from ldpspec.spec.errors import InvalidParameter


def item_set(items: Iterable, m: int) -> tuple:
    """Validate an item set over ``0 .. m-1``: distinct items, returned sorted."""
    items = tuple(items)
    if any(not isinstance(i, int) or isinstance(i, bool) or not 0 <= i < m for i in items):
        raise InvalidParameter(f"an item set must hold integers in [0, {m - 1}], got {items!r}")
    if len(set(items)) != len(items):
        raise InvalidParameter(f"an item set must not repeat items, got {items!r}")
    return tuple(sorted(items))


def padding_length(value) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < 1:
        raise InvalidParameter(f"padding_length must be an integer >= 1, got {value!r}")
    return value


def padding_and_sampling(items: Iterable, padding: int, m: int, rng: random.Random) -> int:
    """Algorithm 1: pad (or truncate) the set to ``padding`` items and sample one; returns an item or a dummy."""
    items, padding = list(item_set(items, m)), padding_length(padding)
    if len(items) < padding:
        items += rng.sample(range(m, m + padding), padding - len(items))
    elif len(items) > padding:
        items = rng.sample(items, padding)
    return rng.choice(items)


def ps_distribution(items: Iterable, padding: int, m: int) -> dict[int, Fraction]:
    """The exact distribution of the sampled item: ``1/max(|x|, l)`` per real item, ``(l - |x|)/l^2`` per dummy."""
    items, padding = item_set(items, m), padding_length(padding)
    distribution = {i: Fraction(1, max(len(items), padding)) for i in items}
    if len(items) < padding:
        for dummy in range(m, m + padding):
            distribution[dummy] = Fraction(padding - len(items), padding * padding)
    return distribution

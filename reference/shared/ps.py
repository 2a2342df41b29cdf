"""Padding-and-Sampling (Wang, Li, Jha, IEEE S&P 2018; Gu et al. Algorithm 1).

Items are ``0 .. m-1``; the ``l`` dummy items are ``m .. m+l-1``. A user with
item set ``x``:

1. if ``|x| < l``, adds ``l - |x|`` distinct dummies chosen uniformly from the ``l``;
2. if ``|x| > l``, keeps ``l`` of its items chosen uniformly (truncation);
3. samples one item uniformly from the resulting ``l`` items.

So each real item of ``x`` is sampled with probability ``1 / max(|x|, l)`` and,
when ``|x| < l``, each dummy with probability ``(l - |x|) / l^2`` (each of the ``l - |x|``
padding positions holds a given dummy with probability ``1 / l``). It is a building block
of IDUE-PS and of the set-valued mechanisms, not a mechanism the registry lists: it releases
an item of the user's set.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from fractions import Fraction

import numpy as np

from ldpspec.reference import plain_draws as draws
from ldpspec.reference.validation import MAX_DOMAIN, item_set, positive_integer


def padding_length(value) -> int:
    """The padding length ``l``, an integer >= 1."""
    return positive_integer(value, "padding (the padding length l)", MAX_DOMAIN)


def padding_and_sampling(items: Iterable, padding: int, m: int, rng: random.Random) -> int:
    """Algorithm 1: pad (or truncate) the set to ``padding`` items and sample one; returns an item or a dummy."""
    items, padding = list(item_set(items, m)), padding_length(padding)
    if len(items) < padding:
        items += draws.sample(rng, range(m, m + padding), padding - len(items))
    elif len(items) > padding:
        items = draws.sample(rng, items, padding)
    return draws.choice(rng, items)


def ps_distribution(items: Iterable, padding: int, m: int) -> dict[int, Fraction]:
    """The exact distribution of the sampled item: ``1/max(|x|, l)`` per real item, ``(l - |x|)/l^2`` per dummy."""
    items, padding = item_set(items, m), padding_length(padding)
    distribution = {i: Fraction(1, max(len(items), padding)) for i in items}
    if len(items) < padding:
        for dummy in range(m, m + padding):
            distribution[dummy] = Fraction(padding - len(items), padding * padding)
    return distribution


def padding_and_sampling_many(item_sets: Sequence[Iterable], padding: int, m: int,
                              rng: np.random.Generator) -> np.ndarray:
    """Padding-and-Sampling for every user at once: the sampled item (real, or a dummy ``>= m``).

    With ``L = max(|x|, l)``, draw ``j`` uniform in ``0 .. L-1``: ``j < |x|`` picks the ``j``-th item, otherwise a
    uniform dummy. This is the distribution of ``ps_distribution``: a real item has probability ``1/L``, and when
    ``|x| < l`` a dummy has ``(l - |x|)/l * 1/l``.
    """
    padding = padding_length(padding)
    sets = [item_set(s, m) for s in item_sets]
    sizes = np.fromiter((len(s) for s in sets), dtype=np.int64, count=len(sets))
    offsets = np.concatenate([[0], np.cumsum(sizes)])
    flat = np.fromiter((i for s in sets for i in s), dtype=np.int64, count=int(offsets[-1]))
    j = rng.integers(0, np.maximum(sizes, padding))
    real = j < sizes
    sampled = m + rng.integers(0, padding, size=len(sets))
    sampled[real] = flat[offsets[:-1][real] + j[real]]
    return sampled

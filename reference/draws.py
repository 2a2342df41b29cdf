"""The random choices of the plain references, each written once, from either source of randomness.

A plain reference's ``perturb(x, rng)`` draws only through these functions. ``rng`` is either

* a ``random.Random`` (the usual generator): a coin compares ``rng.random()`` with the probability as a double; or
* the porting kit's ``Stream`` (``reference.porting.stream``): every draw is the exact, language-neutral procedure a
  port reproduces bit for bit from the same seed, and a coin is true with the exact probability.

So the procedure a porter implements is the reference's own code, read with ``rng`` a stream: the order of the draws
and what each one draws are the same in both modes.

* ``coin(rng, p)``: true with probability ``p`` (exact ``p``; a double beside it for ``random.Random``);
* ``below(rng, n)``: a uniform integer of ``0 .. n-1``;
* ``choice(rng, items)``: ``items[below(rng, len(items))]``;
* ``sample(rng, items, k)``: ``k`` distinct items, uniformly, in the order drawn: a partial Fisher-Yates shuffle,
  for ``i = 0 .. k-1`` swap position ``i`` with ``i + below(rng, len(items) - i)`` and take the first ``k``;
* ``Weighted(items, weights).draw(rng)``: one of ``items`` with probability proportional to its exact weight, by a
  coin per item in order: item ``k`` with probability ``w_k / (w_k + ... + w_last)``, the last item when every coin
  fails;
* ``unit(rng)`` and ``exponential(rng)``: a uniform number of ``[0, 1)`` and an exponential of mean 1, for the
  mechanisms with continuous releases (PM, Laplace, Wheel). The stream has no procedure for them yet: given a
  ``Stream`` they refuse, by name, rather than draw something a port could not reproduce.
"""

from __future__ import annotations

from collections.abc import Sequence

from ldpspec.reference.porting.stream import Stream
from ldpspec.spec.errors import InvalidParameter


def coin(rng, p, approximation: float | None = None) -> bool:
    """True with probability ``p``; ``approximation``, when given, is ``p`` as a double for ``random.Random``
    (computed by the caller without overflow at large budgets, where converting the exact ``p`` would be slow)."""
    if isinstance(rng, Stream):
        return rng.bernoulli(p)
    return rng.random() < (float(p) if approximation is None else approximation)


def below(rng, n: int) -> int:
    """A uniform integer of ``0 .. n-1`` (``n >= 1``)."""
    if isinstance(rng, Stream):
        return rng.below(n)
    if n < 1:
        raise InvalidParameter(f"n (the number of choices) must be an integer >= 1, got {n!r}")
    return rng.randrange(n)


def choice(rng, items: Sequence):
    """One of ``items``, uniformly."""
    return items[below(rng, len(items))]


def sample(rng, items: Sequence, k: int) -> list:
    """``k`` distinct items of ``items``, uniformly, in the order drawn (a partial Fisher-Yates shuffle)."""
    pool = list(items)
    if not 0 <= k <= len(pool):
        raise InvalidParameter(f"cannot draw {k} distinct items from {len(pool)}")
    for i in range(k):
        j = i + below(rng, len(pool) - i)
        pool[i], pool[j] = pool[j], pool[i]
    return pool[:k]


class Weighted:
    """One of ``items`` with probability proportional to its exact weight (>= 0, not all 0): ``draw(rng)`` tosses a
    coin per item in order, item ``k`` with probability ``w_k / (w_k + ... + w_last)`` (computed once, here), and
    gives the last item when every coin fails."""

    def __init__(self, items: Sequence, weights: Sequence):
        if len(items) != len(weights) or not items:
            raise InvalidParameter("a weighted choice needs one weight per item, and at least one item")
        self.items = list(items)
        self.coins, remaining = [], sum(weights[1:], start=weights[0])
        for weight in weights[:-1]:
            self.coins.append((weight / remaining, float(weight / remaining)))
            remaining = remaining - weight

    def draw(self, rng):
        for item, (p, approximation) in zip(self.items, self.coins):
            if coin(rng, p, approximation):
                return item
        return self.items[-1]


def _continuous(rng, what: str) -> None:
    if isinstance(rng, Stream):
        raise InvalidParameter(f"{what} has no procedure over the porting kit's stream yet: draw it with a "
                               "random.Random")


def unit(rng) -> float:
    """A uniform number of ``[0, 1)``."""
    _continuous(rng, "a continuous release (a uniform number)")
    return rng.random()


def exponential(rng) -> float:
    """An exponential number of mean 1."""
    _continuous(rng, "a continuous release (an exponential number)")
    return rng.expovariate(1)

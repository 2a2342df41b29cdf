"""The random choices of the plain references, each written once, from either source of randomness.

A plain reference's ``perturb(x, rng)`` draws only through these functions. ``rng`` is either

* a ``random.Random`` (the usual generator): a coin compares ``rng.random()`` with the probability as a double; or
* the porting kit's ``Stream`` (``reference.stream``): every draw is the exact, language-neutral procedure a
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
* ``from_density(rng, density)``: a continuous release (PM, Laplace, graded Laplace, Wheel's ``y0``) stated to
  ``RELEASE_BITS`` binary digits after the point, drawn exactly from the release's exact density by coins on the
  masses of cells (below). Over the stream this is how every continuous release is drawn;
* ``unit(rng)`` and ``exponential(rng)``: a uniform number of ``[0, 1)`` and an exponential of mean 1, the floats
  with which the references draw continuous releases from a ``random.Random`` (faster, not to a stated number of
  bits). Given a ``Stream`` they refuse, by name: a float draw is nothing a port could reproduce bit for bit.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from ldpspec.reference.stream import Stream
from ldpspec.spec import Density, InvalidParameter, value_text


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
        raise InvalidParameter(f"n (the number of choices) must be an integer >= 1, got {value_text(n)}")
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


RELEASE_BITS = 32
"""The binary digits after the point to which a continuous release is stated over the stream."""


def is_stream(rng) -> bool:
    """Whether ``rng`` is the porting kit's stream (a reference draws a continuous release with ``from_density``
    from it, and with floats from a ``random.Random``)."""
    return isinstance(rng, Stream)


def from_density(rng, density: Density, bits: int = RELEASE_BITS) -> Fraction:
    """A point drawn with the exact density ``density``, stated to ``bits`` binary digits: the left end ``j / 2^bits``
    of the cell ``[j / 2^bits, (j + 1) / 2^bits)`` the point falls in, so that each ``j`` has exactly the density's
    mass on its cell (the rounding is a function of the point: post-processing, which no privacy notion can see).

    Write ``M(a, b)`` for the exact mass of the density on ``[a, b)``, and count cells on each side of 0 by their
    distance from it: distance ``t`` is cell ``j = t`` above 0 and ``j = -1 - t`` below. Three steps, each a coin
    whose probability is a ratio of masses:

    1. the side: above 0 with probability ``M(0, inf) / M(-inf, inf)``;
    2. a block of distances: ``[2^m - 1, 2^(m+1) - 1)`` for ``m = 0, 1, 2, ...`` in turn, block ``m`` with
       probability (its mass) / (the mass of it and every farther distance), until a coin is true;
    3. halving the block: its nearer half (the first ``floor(width / 2)`` distances) with probability (that half's
       mass) / (the block's mass), else the farther half, until one cell is left.
    """
    cell = Fraction(1, 2 ** bits)

    def mass(side: int, near: int, far: int | None):
        """The mass of the distances ``near .. far - 1`` on ``side`` (``far`` None: every distance from ``near``)."""
        if side > 0:
            return density.mass_between(near * cell, "inf" if far is None else far * cell)
        return density.mass_between("-inf" if far is None else -far * cell, -near * cell)

    side = 1 if coin(rng, mass(1, 0, None) / density.mass) else -1
    near, width = 0, 1
    while not coin(rng, mass(side, near, near + width) / mass(side, near, None)):
        near, width = near + width, 2 * width
    while width > 1:
        half = width // 2
        if coin(rng, mass(side, near, near + half) / mass(side, near, near + width)):
            width = half
        else:
            near, width = near + half, width - half
    return (near if side > 0 else -1 - near) * cell


def _continuous(rng, what: str) -> None:
    if isinstance(rng, Stream):
        raise InvalidParameter(f"{what} is a float draw, which the porting kit's stream does not make: over the "
                               "stream a continuous release is drawn with from_density")


def unit(rng) -> float:
    """A uniform number of ``[0, 1)``."""
    _continuous(rng, "a continuous release (a uniform number)")
    return rng.random()


def exponential(rng) -> float:
    """An exponential number of mean 1."""
    _continuous(rng, "a continuous release (an exponential number)")
    return rng.expovariate(1)

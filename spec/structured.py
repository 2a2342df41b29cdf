"""Structured channels: channels that know their privacy loss from their structure.

Unary encodings have ``2^d`` outputs, too many to enumerate. A structured
channel computes the pairwise privacy loss (the largest log-ratio over all
outputs, for one ordered pair of inputs) from its structure, and can still be
expanded to an explicit ``Channel`` when the output set is small; tests check
the two against each other.

Interface (``StructuredChannel``), for the mechanism issues to fill in:

* ``inputs``: the input labels;
* ``output_count``: the number of outputs (may be astronomically large);
* ``iter_outputs()``: the outputs, lazily;
* ``probability(x, y)``: one entry ``P[y|x]``;
* ``pair_loss(x, x2)``: ``(loss, y)`` with ``loss = max_y ln P[y|x]/P[y|x2]``
  over outputs with ``P[y|x] > 0`` (``+inf`` if one of them has
  ``P[y|x2] = 0``) and ``y`` an output attaining it;
* ``explicit(max_outputs)``: the explicit ``Channel``.

Predicates that depend only on pairwise losses (LDP, ID-LDP, graded LDP)
accept structured channels directly; the others expand them.
"""

from __future__ import annotations

import itertools
from abc import ABC, abstractmethod
from collections.abc import Iterator, Mapping, Sequence

from spec.channel import Channel, _unique_labels
from spec.errors import InvalidChannel, InvalidParameter
from spec.numbers import INF, RESOLUTION, ZERO, exact, log_ratio, probability

EXPLICIT_LIMIT = 1 << 16
"""Default largest number of outputs a structured channel expands to."""


class StructuredChannel(ABC):
    """A channel given by its structure rather than by an explicit matrix."""

    inputs: tuple

    @property
    @abstractmethod
    def output_count(self) -> int:
        """The number of outputs."""

    @abstractmethod
    def iter_outputs(self) -> Iterator:
        """The output labels, in a fixed order."""

    @abstractmethod
    def probability(self, x, y):
        """``P[y|x]`` as a kernel number."""

    @abstractmethod
    def pair_loss(self, x, other) -> tuple:
        """``(max_y ln P[y|x]/P[y|other], attaining y)`` from the structure."""

    def explicit(self, max_outputs: int = EXPLICIT_LIMIT) -> Channel:
        """The explicit channel; refuses when there are more than ``max_outputs`` outputs."""
        if self.output_count > max_outputs:
            raise InvalidParameter(
                f"channel has {self.output_count} outputs, more than max_outputs={max_outputs}; "
                "this check needs the explicit matrix, use a smaller domain")
        outputs = tuple(self.iter_outputs())
        return Channel(self.inputs, outputs, [[self.probability(x, y) for y in outputs] for x in self.inputs])


def bit_vector_probability(bit_distributions: Sequence, bits: Sequence[int]):
    """``prod_k bit_distributions[k][bits[k]]``, each bit given as ``(P[bit = 0], P[bit = 1])``.

    Plain arithmetic, so it serves kernel numbers, floats and z3 terms alike
    (DESIGN principle 4). Both probabilities of a bit are given, rather than
    ``p`` and ``1 - p``, because ``1 - p`` loses every digit when ``p`` is
    within ``10^-60`` of 1 (basic RAPPOR at a budget of a few hundred).
    """
    result = 1
    for distribution, bit in zip(bit_distributions, bits, strict=True):
        result = result * distribution[bit]
    return result


class IndependentBits(StructuredChannel):
    """A product of independent bits: input ``x`` draws bit ``k`` from ``bit_distributions[x][k]``.

    Each bit's distribution is a pair ``(P[bit = 0], P[bit = 1])`` summing to 1.
    The output is the whole bit vector, a tuple of 0s and 1s. Because the bits
    are independent, the ratio ``P[y|x]/P[y|x2]`` is a product of per-bit
    ratios and its maximum over ``y`` is the product of the per-bit maxima.
    """

    def __init__(self, inputs, bit_distributions: Mapping):
        self.inputs = _unique_labels(inputs, "input")
        if set(bit_distributions) != set(self.inputs):
            raise InvalidChannel("bit_distributions must give one list of bits per input, and only for the inputs")
        lengths = {len(bit_distributions[x]) for x in self.inputs}
        if len(lengths) != 1 or 0 in lengths:
            raise InvalidChannel(f"every input must have the same, non-zero number of bits; got lengths {sorted(lengths)}")
        self.bit_count = lengths.pop()
        self._bits = {}
        for x in self.inputs:
            row = []
            for k, pair in enumerate(bit_distributions[x]):
                if len(pair) != 2:
                    raise InvalidChannel(f"bit {k} of input {x!r} must be a pair (P[bit = 0], P[bit = 1]), got {pair!r}")
                zero = probability(pair[0], f"P[bit {k} = 0 | {x!r}]")
                one = probability(pair[1], f"P[bit {k} = 1 | {x!r}]")
                if abs(zero + one - 1) > RESOLUTION:
                    raise InvalidChannel(f"P[bit {k} = 0 | {x!r}] + P[bit {k} = 1 | {x!r}] must be 1, got {pair!r}")
                row.append((zero, one))
            self._bits[x] = tuple(row)

    @classmethod
    def from_one_probabilities(cls, inputs, one_probabilities: Mapping) -> "IndependentBits":
        """Bits given by ``P[bit = 1]`` alone (``P[bit = 0] = 1 - P[bit = 1]``)."""
        return cls(inputs, {x: [(1 - exact(p, "P[bit = 1]"), p) for p in ones] for x, ones in one_probabilities.items()})

    @property
    def output_count(self) -> int:
        return 2 ** self.bit_count

    def iter_outputs(self) -> Iterator:
        return itertools.product((0, 1), repeat=self.bit_count)

    def bit_distributions(self, x) -> tuple:
        """``(P[bit k = 0 | x], P[bit k = 1 | x])`` for every bit ``k``."""
        try:
            return self._bits[x]
        except KeyError:
            raise InvalidChannel(f"unknown input label {x!r}; the inputs are {list(self.inputs)!r}") from None

    def probability(self, x, y):
        bits = tuple(y)
        if len(bits) != self.bit_count or any(bit not in (0, 1) for bit in bits):
            raise InvalidChannel(f"output must be a tuple of {self.bit_count} bits, got {y!r}")
        return bit_vector_probability(self.bit_distributions(x), bits) + ZERO

    def pair_loss(self, x, other) -> tuple:
        total = ZERO
        worst = []
        for mine, theirs in zip(self.bit_distributions(x), self.bit_distributions(other)):
            # Over the bit values x can produce, the larger per-bit log-ratio wins.
            loss, bit = max(((log_ratio(mine[bit], theirs[bit]), bit) for bit in (1, 0) if mine[bit] > 0),
                            key=lambda item: item[0])
            total = INF if loss == INF or total == INF else total + loss
            worst.append(bit)
        return total, tuple(worst)

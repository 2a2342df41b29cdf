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
from spec.numbers import INF, ZERO, exact, log_ratio, RESOLUTION

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


def bit_vector_probability(one_probabilities: Sequence, bits: Sequence[int]):
    """``prod_k (p_k if bits[k] else 1 - p_k)``.

    Plain arithmetic, so it serves kernel numbers, floats and z3 terms alike
    (DESIGN principle 4).
    """
    result = 1
    for p, bit in zip(one_probabilities, bits, strict=True):
        result = result * (p if bit else 1 - p)
    return result


class IndependentBits(StructuredChannel):
    """A product of independent bits: input ``x`` sets bit ``k`` to 1 with probability ``one_probabilities[x][k]``.

    The output is the whole bit vector, a tuple of 0s and 1s. Because the bits
    are independent, the ratio ``P[y|x]/P[y|x2]`` is a product of per-bit
    ratios and its maximum over ``y`` is the product of the per-bit maxima.
    """

    def __init__(self, inputs, one_probabilities: Mapping):
        self.inputs = _unique_labels(inputs, "input")
        if set(one_probabilities) != set(self.inputs):
            raise InvalidChannel("one_probabilities must give one bit vector per input, and only for the inputs")
        lengths = {len(one_probabilities[x]) for x in self.inputs}
        if len(lengths) != 1 or 0 in lengths:
            raise InvalidChannel(f"every input must have the same, non-zero number of bits; got lengths {sorted(lengths)}")
        self.bit_count = lengths.pop()
        self._ones = {}
        for x in self.inputs:
            row = []
            for k, value in enumerate(one_probabilities[x]):
                p = exact(value, f"P[bit {k} = 1 | {x!r}]")
                if p < 0 or p > 1 + RESOLUTION:
                    raise InvalidChannel(f"P[bit {k} = 1 | {x!r}] must be a probability in [0, 1], got {value!r}")
                row.append(p)
            self._ones[x] = tuple(row)

    @property
    def output_count(self) -> int:
        return 2 ** self.bit_count

    def iter_outputs(self) -> Iterator:
        return itertools.product((0, 1), repeat=self.bit_count)

    def one_probabilities(self, x) -> tuple:
        """``P[bit k = 1 | x]`` for every bit ``k``."""
        try:
            return self._ones[x]
        except KeyError:
            raise InvalidChannel(f"unknown input label {x!r}; the inputs are {list(self.inputs)!r}") from None

    def probability(self, x, y):
        bits = tuple(y)
        if len(bits) != self.bit_count or any(bit not in (0, 1) for bit in bits):
            raise InvalidChannel(f"output must be a tuple of {self.bit_count} bits, got {y!r}")
        return bit_vector_probability(self.one_probabilities(x), bits) + ZERO

    def pair_loss(self, x, other) -> tuple:
        total = ZERO
        worst = []
        for a, b in zip(self.one_probabilities(x), self.one_probabilities(other)):
            # Candidates: the bit values x can produce; the larger per-bit log-ratio wins.
            candidates = []
            if a > 0:
                candidates.append((log_ratio(a, b), 1))
            if a < 1:
                candidates.append((log_ratio(1 - a, 1 - b), 0))
            loss, bit = max(candidates, key=lambda item: item[0])
            total = INF if loss == INF or total == INF else total + loss
            worst.append(bit)
        return total, tuple(worst)

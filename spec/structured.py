"""Structured channels: channels that know their privacy loss from their structure.

Unary encodings have ``2^d`` outputs, too many to enumerate. A structured channel answers the channel protocol
(``spec.protocol``) from its structure: above all the loss of a pair of inputs (the largest log-ratio over all
outputs) in one pass over the bits of an output, and, for a ``ClassedChannel``, classes of inputs whose pairs have
the same loss, so that a pairwise notion takes one pair per pair of classes. It can still be expanded to an explicit
``Channel`` when the output set is small (``explicit()``); tests check the two against each other.

Besides the protocol, a ``StructuredChannel`` has ``bit_count`` (the bits of an output: the steps of one pair's
loss), ``iter_outputs()`` (the outputs, lazily) and ``probability(x, y)`` (one entry ``P[y|x]``). The notions that
read a matrix entry by entry (ULDP, SULDP, IPLDP) expand it.
"""

from __future__ import annotations

import itertools
from abc import abstractmethod
from collections.abc import Iterator, Mapping, Sequence
from functools import cached_property, cmp_to_key

from ldpspec.spec.channel import Channel, check_entries, once_per_object
from ldpspec.spec.errors import InvalidChannel, InvalidParameter
from ldpspec.spec.exact import ONE, ZERO, Exact, count_text
from ldpspec.spec.labels import LazyText, unique_labels, value_text
from ldpspec.spec.nats import Nats
from ldpspec.spec.numbers import exact_number, integer, probability
from ldpspec.spec.protocol import ChannelProtocol
from ldpspec.spec.rows import sum_text


class StructuredChannel(ChannelProtocol):
    """A channel given by its structure rather than by an explicit matrix."""

    inputs: tuple
    bit_count: int

    @abstractmethod
    def iter_outputs(self) -> Iterator:
        """The output labels, in a fixed order."""

    @abstractmethod
    def probability(self, x, y):
        """``P[y|x]`` as a kernel number."""

    def pair_steps(self) -> tuple[int, str]:
        return self.bit_count, "bit"  # the structure gives a pair's loss in one pass over the bits

    def explicit(self, max_entries: int | None = None) -> Channel:
        """The explicit channel; refuses beforehand when it has more than ``max_entries`` probabilities
        (``MAX_ENTRIES`` by default)."""
        check_entries(len(self.inputs) * self.output_count,
                      f"the explicit matrix of this channel ({len(self.inputs):,} inputs x "
                      f"{count_text(self.output_count)} outputs)", max_entries)
        outputs = tuple(self.iter_outputs())
        return Channel(self.inputs, outputs, [[self.probability(x, y) for y in outputs] for x in self.inputs])


def bit_vector_probability(bit_distributions: Sequence, bits: Sequence[int]):
    """``prod_k bit_distributions[k][bits[k]]``, each bit given as ``(P[bit = 0], P[bit = 1])``.

    Plain arithmetic, so it serves kernel numbers, floats and z3 terms alike
    (each mechanism is written once). Both probabilities of a bit are given, rather than
    ``p`` and ``1 - p``, because in floating point ``1 - p`` loses every digit when ``p`` is
    within ``10^-16`` of 1 (basic RAPPOR at a budget of about 75); kernel numbers are exact either way.
    """
    result = 1
    for distribution, bit in zip(bit_distributions, bits, strict=True):
        result = result * distribution[bit]
    return result


def bit_vector_products(bit_distributions: Sequence) -> list:
    """``bit_vector_probability(bit_distributions, y)`` for every bit vector ``y`` in the order of
    ``itertools.product((0, 1), repeat=n)`` (the first bit slowest), each distinct product computed once.

    A vector's probability is the product of the factors its bits pick, and depends only on how many times it picks
    each of the (few, shared) factor objects: the products are keyed by that multiset, so a row of ``2^n`` entries
    takes a few exact products instead of ``n 2^n`` (OUE over 15 items took minutes). Each product is the first
    vector's with that multiset, multiplied in bit order as ``bit_vector_probability`` does."""
    index: dict = {}  # factor object -> its position in the key
    weight = len(bit_distributions) + 1
    products: dict = {}  # multiset key -> product
    keys, values = [0], [1]
    for distribution in bit_distributions:
        next_keys, next_values = [], []
        steps = []
        for factor in distribution:
            if id(factor) not in index:
                index[id(factor)] = (factor, weight ** len(index))  # holding the factor keeps its id from reuse
            steps.append((factor, index[id(factor)][1]))
        for key, value in zip(keys, values):
            for factor, step in steps:
                product = products.get(key + step)
                if product is None:
                    product = products[key + step] = value * factor
                next_keys.append(key + step)
                next_values.append(product)
        keys, values = next_keys, next_values
    return values


class IndependentBits(StructuredChannel):
    """A product of independent bits: input ``x`` draws bit ``k`` from ``bit_distributions[x][k]``.

    Each bit's distribution is a pair ``(P[bit = 0], P[bit = 1])`` summing to 1.
    The output is the whole bit vector, a tuple of 0s and 1s. Because the bits
    are independent, the ratio ``P[y|x]/P[y|x2]`` is a product of per-bit
    ratios and its maximum over ``y`` is the product of the per-bit maxima.
    """

    def __init__(self, inputs, bit_distributions: Mapping):
        self.inputs = unique_labels(inputs, "input")
        if set(bit_distributions) != set(self.inputs):
            raise InvalidChannel("bit_distributions must give one list of bits per input, and only for the inputs")
        lengths = {len(bit_distributions[x]) for x in self.inputs}
        if len(lengths) != 1 or 0 in lengths:
            raise InvalidChannel("every input must have the same, non-zero number of bits; got lengths "
                                 f"{sorted(lengths)}")
        self.bit_count = lengths.pop()
        self._bits = {}
        for x in self.inputs:
            self._bits[x] = tuple(_pair(pair, LazyText(lambda k=k, x=x: f"bit {k} of input {value_text(x)}"))
                                  for k, pair in enumerate(bit_distributions[x]))

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
            raise InvalidChannel(f"unknown input label {value_text(x)}; the inputs are "
                                 f"{value_text(list(self.inputs))}") from None

    def probability(self, x, y):
        bits = tuple(y)
        if len(bits) != self.bit_count or any(bit not in (0, 1) for bit in bits):
            raise InvalidChannel(f"output must be a tuple of {self.bit_count} bits, got {value_text(y)}")
        return bit_vector_probability(self.bit_distributions(x), bits) + ZERO

    def explicit(self, max_entries: int | None = None) -> Channel:
        """The explicit channel (its entries as ``probability`` gives them, each distinct product computed once:
        ``bit_vector_products``); refused beforehand beyond ``max_entries`` probabilities."""
        check_entries(len(self.inputs) * self.output_count,
                      f"the explicit matrix of this channel ({len(self.inputs):,} inputs x "
                      f"{count_text(self.output_count)} outputs)", max_entries)
        rows = [list(map(once_per_object(lambda p: p + ZERO), bit_vector_products(self.bit_distributions(x))))
                for x in self.inputs]
        return Channel(self.inputs, tuple(self.iter_outputs()), rows)

    def pair_loss(self, x, other) -> tuple:
        numerator, denominator = ONE, ONE
        worst = []
        for mine, theirs in zip(self.bit_distributions(x), self.bit_distributions(other)):
            bit, infinite = worst_bit(mine, theirs)
            worst.append(bit)
            if infinite:
                numerator = None
            elif numerator is not None and mine != theirs:
                numerator, denominator = numerator * mine[bit], denominator * theirs[bit]
        loss = Nats.infinity() if numerator is None else Nats(numerator / denominator)
        return loss, tuple(worst)


def worst_bit(mine: tuple, theirs: tuple) -> tuple[int, bool]:
    """``(bit, infinite)``: the value of one independent bit that maximises ``P[bit | x] / P[bit | x']`` over the
    values ``x`` can produce, given ``mine = (P[0 | x], P[1 | x])`` and ``theirs`` the same under ``x'``;
    ``infinite`` when ``x'`` cannot produce it. A bit distributed alike under both (ratio 1 either way) takes 1 if it
    can be 1."""
    if mine == theirs:
        return (1 if mine[1] else 0), False
    candidates = [bit for bit in (1, 0) if mine[bit]]
    impossible = [bit for bit in candidates if not theirs[bit]]
    if impossible:
        return impossible[0], True
    return max(candidates, key=lambda b: _Ratio(mine[b], theirs[b])), False


class ClassedChannel(StructuredChannel):
    """A structured channel whose inputs come in classes: for two distinct inputs, the loss of the ordered pair
    depends only on their two classes. The kernel then judges a pairwise notion (LDP; ID-LDP after splitting each
    class by the inputs' budgets) from one pair per pair of classes, in time independent of the number of inputs in a
    class (``judged_pairs``); ``pair_loss`` of any single pair still gives that pair's own loss and output."""

    @abstractmethod
    def input_classes(self) -> tuple[tuple, ...]:
        """The classes, each a tuple of inputs in the order of ``inputs``; together they hold every input once."""


class ClassedUnary(ClassedChannel, IndependentBits):
    """Unary encoding whose items come in classes (IDUE's privacy levels, one class for OUE or basic RAPPOR): input
    ``x`` is an item of ``0 .. d-1``; bit ``k`` is drawn from ``hot[c]`` when ``k = x`` and from ``cold[c]``
    otherwise, ``c`` the class of item ``k`` (each a pair ``(P[bit = 0], P[bit = 1])``). The whole vector of ``d``
    bits is released.

    For items ``x != x'`` every other bit has the same distribution under both, so the ratio ``P[y|x]/P[y|x']`` is the
    product of bit ``x``'s ratio (``hot`` over ``cold`` of ``x``'s class) and bit ``x'``'s (``cold`` over ``hot`` of
    ``x'``'s class), each maximised on its own (``worst_bit``): the loss depends only on the two classes, and takes a
    constant number of steps where the explicit product takes ``d``. Stored per class, the channel takes memory in
    ``d`` (the number of items) plus the classes, not ``d^2``."""

    file_structures = ("matrix", "unary-classes")

    def __init__(self, hot: Sequence, cold: Sequence, item_classes: Sequence[int]):
        if len(hot) != len(cold) or not hot:
            raise InvalidChannel(f"hot and cold must give one distribution per class; got {len(hot)} and {len(cold)}")
        self.hot = tuple(_pair(value, f"hot[{c}]") for c, value in enumerate(hot))  # an item's own bit, per class
        self.cold = tuple(_pair(value, f"cold[{c}]") for c, value in enumerate(cold))  # the other items' bits
        self.item_classes = _item_classes(item_classes, len(self.hot), "a unary encoding")
        self.inputs = tuple(range(len(self.item_classes)))
        self.bit_count = len(self.item_classes)

    def input_classes(self) -> tuple[tuple, ...]:
        return self._classes

    @cached_property
    def _classes(self) -> tuple[tuple, ...]:
        """The classes' members, found once (a notion asks for them several times; 10^6 items take a second)."""
        return _members(self.item_classes)

    @cached_property
    def _other_bits(self) -> tuple:
        """Each bit at the value it takes in a pair's worst output when it is neither input's own bit: 1 when its
        ``cold`` distribution can give 1 (its ratio is 1 either way). Built once, in C: each pair's output is this
        vector with two bits changed, copied rather than built bit by bit (10^6 items, several pairs)."""
        ones = [1 if cold[1] else 0 for cold in self.cold]
        return tuple(map(ones.__getitem__, self.item_classes))

    def bit_distributions(self, x) -> tuple:
        x = _item(x, self.bit_count, "input")
        return tuple(self.hot[c] if k == x else self.cold[c] for k, c in enumerate(self.item_classes))

    def pair_loss(self, x, other) -> tuple:
        x, other = _item(x, self.bit_count, "input"), _item(other, self.bit_count, "input")
        output = list(self._other_bits)
        if x == other:
            output[x] = 1 if self.hot[self.item_classes[x]][1] else 0
            return Nats.rational(0), tuple(output)
        changed = {x: (self.hot[self.item_classes[x]], self.cold[self.item_classes[x]]),
                   other: (self.cold[self.item_classes[other]], self.hot[self.item_classes[other]])}
        numerator, denominator, infinite = ONE, ONE, False
        for k in sorted(changed):  # in bit order, as the product over every bit multiplies them
            mine, theirs = changed[k]
            output[k], impossible = worst_bit(mine, theirs)
            infinite = infinite or impossible
            if not impossible and mine != theirs:
                numerator, denominator = numerator * mine[output[k]], denominator * theirs[output[k]]
        return (Nats.infinity() if infinite else Nats(numerator / denominator)), tuple(output)


class ColumnClasses(ClassedChannel):
    """A direct encoding whose column ``y`` is constant off the diagonal: ``P[y|x] = base_y + extra_y [y = x]`` over
    the items ``0 .. d-1`` (GRR, KRR, uRR, IPRR), with the columns in classes sharing ``(base, extra)``.

    For items ``x != x'`` the ratio ``P[y|x]/P[y|x']`` is ``(base_x + extra_x) / base_x`` at ``y = x``,
    ``base_x' / (base_x' + extra_x')`` at ``y = x'``, and 1 at every other output with ``base_y > 0`` (an output
    neither input can produce constrains nothing): the loss is the largest of these, and depends only on the classes
    of ``x`` and ``x'`` (and on whether a third output with ``base > 0`` exists, which the classes decide)."""

    bit_count = 1
    file_structures = ("matrix", "column-classes")

    def __init__(self, base: Sequence, extra: Sequence, item_classes: Sequence[int]):
        if len(base) != len(extra) or not base:
            raise InvalidChannel(f"base and extra must give one value per class; got {len(base)} and {len(extra)}")
        self.base = tuple(_probability(value, f"base[{c}]") for c, value in enumerate(base))  # anyone, per class
        self.extra = tuple(_probability(value, f"extra[{c}]") for c, value in enumerate(extra))  # what a holder adds
        classes = self.item_classes = _item_classes(item_classes, len(self.base), "a direct encoding")
        self.inputs = tuple(range(len(classes)))
        counts = [0] * len(self.base)
        for c in classes:
            counts[c] += 1
        total = sum(counts[c] * self.base[c] for c in range(len(counts)) if counts[c])
        wrong = next((c for c in range(len(counts)) if counts[c] and total + self.extra[c] != ONE), None)
        if wrong is not None:
            item = classes.index(wrong)
            raise InvalidChannel(f"every row must sum to 1 (sum_y base_y + extra_x = 1 for every item x): the row of "
                                 f"item {item} (class {wrong}, extra[{wrong}] = {_short(self.extra[wrong])}) sums to "
                                 f"{sum_text(total + self.extra[wrong])}")
        self._positive_base = sum(counts[c] for c in range(len(counts)) if self.base[c])

    @classmethod
    def from_columns(cls, base: Sequence, extra: Sequence) -> ColumnClasses:
        """From one ``(base, extra)`` per item, the items with equal values (the same object, or equal exactly) in one
        class."""
        if len(base) != len(extra):
            raise InvalidChannel(f"base and extra must give one value per item; got {len(base)} and {len(extra)}")
        classes, item_classes = group_equal(  # read exactly here, checked as probabilities once per class there
            list(zip(base, extra)), key=lambda pair: (id(pair[0]), id(pair[1])),
            read=lambda pair: (_number(pair[0], "base"), _number(pair[1], "extra")))
        return cls([b for b, _ in classes], [e for _, e in classes], item_classes)

    @property
    def output_count(self) -> int:
        return len(self.inputs)

    def iter_outputs(self) -> Iterator:
        return iter(self.inputs)

    def input_classes(self) -> tuple[tuple, ...]:
        return self._classes

    @cached_property
    def _classes(self) -> tuple[tuple, ...]:
        """The classes' members, found once (a notion asks for them several times)."""
        return _members(self.item_classes)

    def probability(self, x, y):
        c = self.item_classes[_item(y, len(self.inputs), "output")]
        return self.base[c] + self.extra[c] if _item(x, len(self.inputs), "input") == y else self.base[c]

    def pair_loss(self, x, other) -> tuple:
        x, other = _item(x, len(self.inputs), "input"), _item(other, len(self.inputs), "input")
        if x == other:
            return Nats.rational(0), x
        candidates = []  # (ratio numerator, denominator, output), in output order as the explicit scan meets them
        c, c2 = self.item_classes[x], self.item_classes[other]
        third = self._positive_base - bool(self.base[c]) - bool(self.base[c2]) > 0
        if third:
            y = next(y for y in self.inputs if y not in (x, other) and self.base[self.item_classes[y]])
            candidates.append((ONE, ONE, y))
        if self.base[c] + self.extra[c]:
            candidates.append((self.base[c] + self.extra[c], self.base[c], x))
        if self.base[c2]:
            candidates.append((self.base[c2], self.base[c2] + self.extra[c2], other))
        candidates.sort(key=lambda item: item[2])
        best = None
        for numerator, denominator, y in candidates:
            if not denominator:
                return Nats.infinity(), y
            if best is None or (numerator * best[1]).compare(best[0] * denominator) > 0:
                best = (numerator, denominator, y)
        if best is None:
            return Nats.rational(0), None
        return Nats(best[0] / best[1]), best[2]


class SampledOneHot(StructuredChannel):
    """A one-hot vector whose hot position is sampled, then every bit perturbed independently.

    Input ``x`` makes bit ``v`` hot with probability ``weights[x][v]``; with the
    remaining probability ``1 - sum_v weights[x][v]`` no bit is hot. Bit ``k``
    is then drawn from ``hot[k]`` if it is hot and from ``baseline[k]``
    otherwise (each a pair ``(P[0], P[1])``). This is padding-and-sampling
    followed by unary encoding (IDUE-PS): the sampled item is the hot bit, and
    a sampled dummy that is not released means no hot bit.

    Structure: with ``B(y) = prod_k baseline[k][y_k]`` and
    ``rho_v(y_v) = hot[v][y_v] / baseline[v][y_v]``,
    ``P[y|x] = B(y) (w_x(none) + sum_v w_x(v) rho_v(y_v))``. ``B(y)`` cancels in a
    ratio, which is then a ratio of two linear functions of independent
    two-valued choices ``rho_v``. Its maximum is attained by giving the larger
    ``rho_v`` to the bits with the largest ``w_x(v) / w_x'(v)`` (a prefix of that
    order, by Dinkelbach's optimality condition), so trying every prefix finds it
    exactly. The structure needs ``0 < baseline[k][1] < 1`` for every bit.
    """

    def __init__(self, inputs, baseline: Sequence, hot: Sequence, weights: Mapping):
        self.inputs = unique_labels(inputs, "input")
        if len(baseline) != len(hot) or not baseline:
            raise InvalidChannel(f"baseline and hot must give one distribution per bit; got {len(baseline)} and "
                                 f"{len(hot)}")
        self.bit_count = len(baseline)
        self._baseline = self._distributions(baseline, "baseline")
        self._hot = self._distributions(hot, "hot")
        for k, (zero, one) in enumerate(self._baseline):
            if not zero or not one:
                raise InvalidChannel(f"baseline bit {k} must have 0 < P[1] < 1 for the structured loss; use an "
                                     "explicit channel")
        if set(weights) != set(self.inputs):
            raise InvalidChannel("weights must give one distribution of the hot bit per input, and only for the inputs")
        self._weights = {}
        for x in self.inputs:
            row = {}
            for v, w in weights[x].items():
                if not isinstance(v, int) or not 0 <= v < self.bit_count:
                    raise InvalidChannel(f"hot bit of input {value_text(x)} must be a bit index in [0, "
                                         f"{self.bit_count - 1}], "
                                         f"got {value_text(v)}")
                w = _probability(w, f"P[hot bit {v} | {value_text(x)}]")
                if w:
                    row[v] = w
            none = 1 - sum(row.values(), start=ZERO)
            if none.sign() < 0:
                raise InvalidChannel(f"the hot-bit probabilities of input {value_text(x)} sum to more than 1")
            self._weights[x] = (row, none)

    def _distributions(self, pairs, name):
        return tuple(_pair(pair, f"{name} bit {k}") for k, pair in enumerate(pairs))

    @property
    def baseline(self) -> tuple:
        """Each bit's ``(P[0], P[1])`` when it is not hot."""
        return self._baseline

    @property
    def hot(self) -> tuple:
        """Each bit's ``(P[0], P[1])`` when it is hot."""
        return self._hot

    @property
    def output_count(self) -> int:
        return 2 ** self.bit_count

    def iter_outputs(self) -> Iterator:
        return itertools.product((0, 1), repeat=self.bit_count)

    def weights(self, x) -> tuple[dict, object]:
        """``({v: P[v is hot | x]}, P[no bit is hot | x])``."""
        try:
            return self._weights[x]
        except KeyError:
            raise InvalidChannel(f"unknown input label {value_text(x)}; the inputs are "
                                 f"{value_text(list(self.inputs))}") from None

    def _rho(self, v: int, bit: int):
        return self._hot[v][bit] / self._baseline[v][bit]

    def probability(self, x, y):
        bits = tuple(y)
        if len(bits) != self.bit_count or any(bit not in (0, 1) for bit in bits):
            raise InvalidChannel(f"output must be a tuple of {self.bit_count} bits, got {value_text(y)}")
        row, none = self.weights(x)
        base = bit_vector_probability(self._baseline, bits)
        return base * self._mixture(row, none, bits)

    def _mixture(self, row: dict, none, bits: tuple):
        return none + sum((w * self._rho(v, bits[v]) for v, w in row.items()), start=ZERO)

    def explicit(self, max_entries: int | None = None) -> Channel:
        """The explicit channel (its entries as ``probability`` gives them, each distinct number computed once: the
        baseline products by ``bit_vector_products``, the mixture once per value of the bits it weighs); refused
        beforehand beyond ``max_entries`` probabilities."""
        check_entries(len(self.inputs) * self.output_count,
                      f"the explicit matrix of this channel ({len(self.inputs):,} inputs x "
                      f"{count_text(self.output_count)} outputs)", max_entries)
        outputs = tuple(self.iter_outputs())
        bases = bit_vector_products(self._baseline)
        rows = []
        for x in self.inputs:
            row, none = self.weights(x)
            # The mixture depends on how many of the weighed bits of each kind (same weight, same hot and baseline
            # pairs) are 1: its value is computed once per such count, from the first output that has it.
            kinds: dict = {}
            for v, w in row.items():
                numbers = (w, *self._hot[v], *self._baseline[v])
                kinds.setdefault(tuple(number_key(n) for n in numbers), []).append(v)
            groups = list(kinds.values())
            mixtures, products = {}, {}
            entries = []
            for bits, base in zip(outputs, bases):
                key = tuple(sum(bits[v] for v in group) for group in groups)
                mixture = mixtures.get(key)
                if mixture is None:
                    mixture = mixtures[key] = self._mixture(row, none, bits)
                entry = products.get((id(base), key))
                if entry is None:
                    entry = products[(id(base), key)] = base * mixture
                entries.append(entry)
            rows.append(entries)
        return Channel(self.inputs, outputs, rows)

    def pair_loss(self, x, other) -> tuple:
        (w1, c1), (w2, c2) = self.weights(x), self.weights(other)
        support = sorted(set(w1) | set(w2))
        options = {}
        for v in support:  # (larger rho, its bit), (smaller rho, its bit)
            rho0, rho1 = self._rho(v, 0), self._rho(v, 1)
            options[v] = ((rho1, 1), (rho0, 0)) if rho1.compare(rho0) >= 0 else ((rho0, 0), (rho1, 1))

        def output_for(choice: dict) -> tuple:
            return tuple(choice.get(k, 0) for k in range(self.bit_count))

        # An output x can produce and `other` cannot: the denominator vanishes.
        if not c2 and all(not options[v][1][0] for v in w2):
            choice = {v: (options[v][1][1] if v in w2 else options[v][0][1]) for v in support}
            numerator = c1 + sum((w * self._rho(v, choice[v]) for v, w in w1.items()), start=ZERO)
            if numerator:
                return Nats.infinity(), output_for(choice)

        # Bits where `other` has weight 0 first, then by decreasing w_x(v) / w_x'(v).
        def before(u: int, v: int) -> int:
            if (u in w2) != (v in w2):
                return -1 if v in w2 else 1
            if u in w2:
                order_uv = (w1.get(v, ZERO) * w2[u]).compare(w1.get(u, ZERO) * w2[v])
                if order_uv:
                    return order_uv
            return (u > v) - (u < v)

        order = sorted(support, key=cmp_to_key(before))
        numerator = c1 + sum((w1.get(v, ZERO) * options[v][1][0] for v in support), start=ZERO)
        denominator = c2 + sum((w2.get(v, ZERO) * options[v][1][0] for v in support), start=ZERO)
        best, best_prefix = None, 0
        for j in range(len(order) + 1):
            if j:  # move bit order[j-1] from its smaller to its larger rho
                v = order[j - 1]
                gain = options[v][0][0] - options[v][1][0]
                numerator = numerator + w1.get(v, ZERO) * gain
                denominator = denominator + w2.get(v, ZERO) * gain
            if numerator and denominator:
                if best is None or (numerator * best[1]).compare(best[0] * denominator) > 0:
                    best, best_prefix = (numerator, denominator), j
        chosen = set(order[:best_prefix])
        choice = {v: options[v][0][1] if v in chosen else options[v][1][1] for v in support}
        return Nats(best[0] / best[1]), output_for(choice)


class _Ratio:
    """``numerator / denominator`` ordered exactly, for ``max``."""

    __slots__ = ("numerator", "denominator")

    def __init__(self, numerator: Exact, denominator: Exact):
        self.numerator, self.denominator = numerator, denominator

    def __lt__(self, other: _Ratio) -> bool:
        return (self.numerator * other.denominator).compare(other.numerator * self.denominator) < 0


def group_equal(values: Sequence, key=id, read=lambda value: value) -> tuple[list, list[int]]:
    """Values into classes of equal ones: ``(classes, index of each value's class)``. Each value is read
    (``read``, for example to exact numbers) and compared with the classes once per ``key`` (by default the object:
    a mechanism's items of one level share one), so 10^5 items of 3 levels take 3 comparisons, not 10^5."""
    classes, seen, indices = [], {}, []
    for value in values:
        k = key(value)
        if k not in seen:
            exact = read(value)
            index = next((c for c, known in enumerate(classes) if known == exact), None)
            if index is None:
                classes.append(exact)
                index = len(classes) - 1
            seen[k] = (value, index)  # holding the value keeps the ids in its key from reuse
        indices.append(seen[k][1])
    return classes, indices


def _item_classes(item_classes: Sequence[int], count: int, what: str) -> tuple:
    """Each item's class, an integer of ``0 .. count-1``, for at least two items (checked a whole list at a time:
    a channel may have 10^7 items)."""
    classes = tuple(item_classes)
    if len(classes) < 2:
        raise InvalidChannel(f"{what} needs at least 2 items, got {len(classes)}")
    if not set(map(type, classes)) <= {int} or not set(classes) <= set(range(count)):
        k, c = next((k, c) for k, c in enumerate(classes) if type(c) is not int or not 0 <= c < count)
        raise InvalidChannel(f"the class of item {k} must be an integer in [0, {count - 1}], got {value_text(c)}")
    return classes


def _item(x, count: int, side: str) -> int:
    """``x`` when it is one of the items ``0 .. count-1`` that label a channel's inputs (or outputs), else
    ``InvalidChannel`` naming it."""
    try:
        return integer(x, f"{side} label", 0, count - 1)
    except InvalidParameter:
        raise InvalidChannel(f"unknown {side} label {value_text(x)}; the items are 0 .. {count - 1}") from None


def _members(item_classes: Sequence[int]) -> tuple[tuple, ...]:
    """The items of each class that has any, in the order of their first items."""
    members: dict[int, list] = {}
    for k, c in enumerate(item_classes):
        members.setdefault(c, []).append(k)
    return tuple(tuple(items) for items in members.values())


def number_key(number: Exact):
    """A key equal for equal numbers that are rational (the Fraction), and for the same object otherwise."""
    rational = number.as_rational()
    return ("rational", rational) if rational is not None else ("object", id(number))


def _short(number: Exact) -> str:
    text = number.text() if number.bits() < 1000 else "a long exact number"
    return text if len(text) <= 60 else text[:45] + "..."


def _pair(value, name: str) -> tuple:
    """A bit's distribution ``(P[0], P[1])``, exact, summing to 1; ``InvalidChannel`` naming it otherwise."""
    if isinstance(value, (str, bytes)) or not isinstance(value, Sequence) or len(value) != 2:
        raise InvalidChannel(f"{name} must be a pair (P[bit = 0], P[bit = 1]), got {value_text(value)}"[:300])
    zero, one = _probability(value[0], f"{name} P[bit = 0]"), _probability(value[1], f"{name} P[bit = 1]")
    if zero + one != ONE:
        raise InvalidChannel(f"{name}: P[bit = 0] + P[bit = 1] must be 1, got {value_text(value)}")
    return zero, one


def _number(value, name: str) -> Exact:
    try:
        return exact_number(value, name)
    except InvalidParameter as error:
        raise InvalidChannel(str(error)) from None


def _probability(value, name: str) -> Exact:
    try:
        return probability(value, name)
    except InvalidParameter as error:
        raise InvalidChannel(str(error)) from None

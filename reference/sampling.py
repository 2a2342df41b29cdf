"""The NumPy twin: the same mechanisms for many users at once.

Per-user reports:

* GRR reports are an integer array, one item per user.
* Unary-encoding reports (UE, SUE, OUE, IDUE, IDUE-PS) are bit vectors packed
  eight to a byte (``numpy.packbits``, most significant bit first): ``n`` users
  over ``d`` bits take ``n * ceil(d / 8)`` bytes.

Every bit is drawn **exactly** Bernoulli(``p``) for the double ``p`` nearest the
mechanism's exact probability: a uniform random number ``U = 0.U1 U2 ...`` is
drawn one random byte at a time and compared with the binary expansion of
``p``; the first byte decides unless it equals ``p``'s first byte (one time in
256), and only those ties draw further bytes. There is no rounding of ``p`` to
a grid.

Aggregate simulation draws the server-side counts directly, exactly in
distribution, at a cost that does not grow with the number of users:

* unary encoding: the bits of different items are independent, so
  ``C_i ~ Bin(c_i, a_i) + Bin(n - c_i, b_i)``, one pair of binomial draws per item;
* GRR: users of item ``x`` keep it ``Bin(c_x, p)`` times and spread the rest
  uniformly over the other items (one multinomial per item);
* IDUE-PS: the hot-bit counts ``H`` are one multinomial per distinct item set,
  then ``C_k ~ Bin(H_k, a_k) + Bin(n - H_k, b_k)``.

Estimates use the reference's own estimator (``ldpspec.reference.shared.estimators``), which
is plain arithmetic and works on arrays.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction

import numpy as np

from ldpspec.reference.validation import domain_size
from ldpspec.reference.shared.estimators import count_estimate
from ldpspec.reference.shared.grr import grr_exact_probabilities
from ldpspec.reference.gu2020.idue_ps import IduePs
from ldpspec.reference.shared.ps import item_set, ps_distribution
from ldpspec.reference.shared.unary import UnaryEncoding
from ldpspec.spec.errors import InvalidParameter

CHUNK_BITS = 1 << 20
"""Bits generated per chunk: bounds the working memory to a few megabytes."""


# --- exact Bernoulli bits -------------------------------------------------------------------------

def _expansion(p: float) -> np.ndarray:
    """The bytes of the binary expansion of ``p`` in [0, 1): ``p = sum_j bytes[j] 256^-(j+1)`` (exactly)."""
    fraction, digits = Fraction(p), []
    while fraction:
        fraction *= 256
        digit = int(fraction)
        digits.append(digit)
        fraction -= digit
    return np.array(digits or [0], dtype=np.uint8)


class ExactBernoulli:
    """Draws bits with ``P[1] = probabilities[k]`` exactly, for the doubles given.

    ``probabilities`` is one probability per kind of bit (for example one per
    column); ``draw(kinds, rng)`` returns a boolean array with ``kinds``' shape.
    """

    def __init__(self, probabilities: Sequence[float]):
        values = np.asarray(probabilities, dtype=float)
        if values.ndim != 1 or np.any(~np.isfinite(values)) or np.any(values < 0) or np.any(values > 1):
            raise InvalidParameter("bit probabilities must be numbers in [0, 1]")
        self.always = values >= 1.0
        expansions = [_expansion(0.0 if v >= 1 else float(v)) for v in values]
        width = max(len(e) for e in expansions)
        self.digits = np.zeros((len(values), width + 1), dtype=np.uint8)  # a final 0 digit ends every expansion
        for k, e in enumerate(expansions):
            self.digits[k, : len(e)] = e
        self.length = np.array([len(e) for e in expansions])

    def draw(self, kinds: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        """One bit per entry of ``kinds`` (an integer array of probability indices)."""
        kinds = np.asarray(kinds)
        first = self.digits[kinds, 0]
        uniform = _random_bytes(rng, kinds.size).reshape(kinds.shape)
        bits = uniform < first
        tied = np.flatnonzero(uniform == first)
        self._resolve_ties(bits.reshape(-1), tied, kinds.reshape(-1)[tied], rng)
        return bits | self.always[kinds]

    def draw_columns(self, rows: int, rng: np.random.Generator) -> np.ndarray:
        """A ``rows x K`` array whose column ``k`` has probability ``probabilities[k]``."""
        columns = len(self.length)
        uniform = _random_bytes(rng, rows * columns).reshape(rows, columns)
        first = self.digits[:, 0]
        bits = uniform < first
        tied = np.flatnonzero(uniform == first)
        self._resolve_ties(bits.reshape(-1), tied, tied % columns, rng)
        return bits | self.always

    def _resolve_ties(self, flat_bits, tied, tied_kinds, rng) -> None:
        """Where ``U`` equals ``p`` so far, compare the next bytes (one time in 256 per step)."""
        position = 1
        while tied.size:
            still = position < self.length[tied_kinds]  # past p's last digit, U >= p: the bit stays 0
            tied, tied_kinds = tied[still], tied_kinds[still]
            digit = self.digits[tied_kinds, position]
            uniform = _random_bytes(rng, tied.size)
            flat_bits[tied[uniform < digit]] = True
            equal = uniform == digit
            tied, tied_kinds = tied[equal], tied_kinds[equal]
            position += 1


def _random_bytes(rng: np.random.Generator, count: int) -> np.ndarray:
    words = rng.bit_generator.random_raw((count + 7) // 8)
    return words.view(np.uint8)[:count]


def _unary_bits(encoding: UnaryEncoding, hot: np.ndarray, released: int, rng: np.random.Generator) -> np.ndarray:
    """Packed reports: row ``r`` has bit ``hot[r]`` drawn with ``a``, every other released bit with ``b``.

    ``hot[r] >= released`` means no released bit is hot (a dummy that is not sent).
    """
    n = len(hot)
    baseline = ExactBernoulli([float(bit.q) for bit in encoding.bits[:released]])
    hot_bits = ExactBernoulli([float(bit.p) for bit in encoding.bits])
    packed = np.empty((n, (released + 7) // 8), dtype=np.uint8)
    rows_per_chunk = max(1, CHUNK_BITS // released)
    for start in range(0, n, rows_per_chunk):
        stop = min(n, start + rows_per_chunk)
        bits = baseline.draw_columns(stop - start, rng)
        chunk_hot = hot[start:stop]
        shown = np.flatnonzero(chunk_hot < released)
        bits[shown, chunk_hot[shown]] = hot_bits.draw(chunk_hot[shown], rng)
        packed[start:stop] = np.packbits(bits, axis=1)
    return packed


def bit_counts(packed: np.ndarray, bits: int) -> np.ndarray:
    """``C_k``: the number of packed reports with bit ``k`` set."""
    counts = np.zeros(bits, dtype=np.int64)
    rows_per_chunk = max(1, CHUNK_BITS // max(bits, 1))
    for start in range(0, len(packed), rows_per_chunk):
        counts += np.unpackbits(packed[start:start + rows_per_chunk], axis=1, count=bits).sum(axis=0, dtype=np.int64)
    return counts


def _items(items, d: int) -> np.ndarray:
    items = np.asarray(items)
    if items.ndim != 1 or not np.issubdtype(items.dtype, np.integer) or (items.size and (items.min() < 0 or items.max() >= d)):
        raise InvalidParameter(f"items must be a one-dimensional integer array with values in [0, {d - 1}]")
    return items.astype(np.int64, copy=False)


def _true_counts(true_counts, d: int) -> np.ndarray:
    counts = np.asarray(true_counts)
    if counts.shape != (d,) or not np.issubdtype(counts.dtype, np.integer) or np.any(counts < 0):
        raise InvalidParameter(f"true_counts must be {d} non-negative integers")
    return counts.astype(np.int64, copy=False)


# --- GRR -------------------------------------------------------------------------------------------

def report_dtype(d: int) -> np.dtype:
    """The smallest unsigned integer type that holds the items ``0 .. d-1``."""
    return np.min_scalar_type(d - 1) if d - 1 <= np.iinfo(np.uint64).max else np.dtype(np.uint64)


def grr_reports(items, epsilon, d: int, rng: np.random.Generator) -> np.ndarray:
    """One report per user (the smallest unsigned type that holds ``d - 1``): the true item with probability ``p``,
    else one of the other items uniformly."""
    d = domain_size(d)
    items = _items(items, d)
    p, _ = grr_exact_probabilities(epsilon, d)
    keep_bits = ExactBernoulli([float(p)])
    dtype = report_dtype(d)
    reports = np.empty(len(items), dtype=dtype)
    users_per_chunk = CHUNK_BITS // 16  # keeps the temporaries well below the reports themselves
    for start in range(0, len(items), users_per_chunk):
        chunk = items[start:start + users_per_chunk].astype(dtype)
        other = rng.integers(0, d - 1, size=len(chunk), dtype=dtype)
        other += other >= chunk  # skip the true item
        keep = keep_bits.draw_columns(len(chunk), rng)[:, 0]
        reports[start:start + len(chunk)] = np.where(keep, chunk, other)
    return reports


def grr_report_counts(reports, d: int) -> np.ndarray:
    """``C_i``: the number of reports naming item ``i``."""
    return np.bincount(_items(reports, domain_size(d)), minlength=d)


def grr_simulate_counts(true_counts, epsilon, d: int, rng: np.random.Generator) -> np.ndarray:
    """The report counts of ``sum(true_counts)`` GRR users, drawn directly."""
    d = domain_size(d)
    counts = _true_counts(true_counts, d)
    p, _ = grr_exact_probabilities(epsilon, d)
    kept = rng.binomial(counts, float(p))
    spread = rng.multinomial(counts - kept, np.full(d - 1, 1 / (d - 1)))  # row x: over the items other than x
    received = np.zeros((d, d), dtype=np.int64)
    received[~np.eye(d, dtype=bool)] = spread.ravel()  # row x, columns y != x in order
    return kept + received.sum(axis=0)


def grr_estimate(report_counts, n: int, epsilon, d: int) -> np.ndarray:
    """``c_hat_i = (C_i - n q) / (p - q)``."""
    p, q = (float(v) for v in grr_exact_probabilities(epsilon, d))
    return count_estimate(np.asarray(report_counts, dtype=float), n, p, q)


# --- unary encoding (UE, SUE, OUE, IDUE) -----------------------------------------------------------

def unary_reports(items, encoding: UnaryEncoding, rng: np.random.Generator) -> np.ndarray:
    """Packed reports of unary encoding (any per-bit parameters): ``n x ceil(d/8)`` bytes."""
    return _unary_bits(encoding, _items(items, encoding.d), encoding.d, rng)


def unary_simulate_counts(true_counts, encoding: UnaryEncoding, rng: np.random.Generator) -> np.ndarray:
    """``C_i ~ Bin(c_i, a_i) + Bin(n - c_i, b_i)``, independently for every item."""
    counts = _true_counts(true_counts, encoding.d)
    n = counts.sum()
    a = np.array([float(bit.p) for bit in encoding.bits])
    b = np.array([float(bit.q) for bit in encoding.bits])
    return rng.binomial(counts, a) + rng.binomial(n - counts, b)


def unary_estimate(bit_counts_, n: int, encoding: UnaryEncoding) -> np.ndarray:
    """``c_hat_i = (C_i - n b_i) / (a_i - b_i)`` (Gu et al. eq. (7))."""
    a = np.array([float(bit.p) for bit in encoding.bits])
    b = np.array([float(bit.q) for bit in encoding.bits])
    return count_estimate(np.asarray(bit_counts_, dtype=float), n, a, b)


# --- IDUE-PS -----------------------------------------------------------------------------------------

def sample_padded_items(item_sets: Sequence, mechanism: IduePs, rng: np.random.Generator) -> np.ndarray:
    """Padding-and-Sampling for every user at once: the sampled item (real, or a dummy ``>= m``).

    With ``L = max(|x|, l)``, draw ``j`` uniform in ``0 .. L-1``: ``j < |x|`` picks
    the ``j``-th item, otherwise a uniform dummy; this is the distribution of ``ldpspec.reference.shared.ps``.
    """
    m, padding = mechanism.m, mechanism.padding
    sets = [item_set(s, m) for s in item_sets]
    sizes = np.fromiter((len(s) for s in sets), dtype=np.int64, count=len(sets))
    offsets = np.concatenate([[0], np.cumsum(sizes)])
    flat = np.fromiter((i for s in sets for i in s), dtype=np.int64, count=int(offsets[-1]))
    j = rng.integers(0, np.maximum(sizes, padding))
    real = j < sizes
    sampled = m + rng.integers(0, padding, size=len(sets))
    sampled[real] = flat[offsets[:-1][real] + j[real]]
    return sampled


def idue_ps_reports(item_sets: Sequence, mechanism: IduePs, rng: np.random.Generator) -> np.ndarray:
    """Packed IDUE-PS reports (``mechanism.released_bits`` bits per user)."""
    hot = sample_padded_items(item_sets, mechanism, rng)
    return _unary_bits(mechanism.encoding, hot, mechanism.released_bits, rng)


def idue_ps_simulate_counts(set_counts: Mapping, mechanism: IduePs, rng: np.random.Generator) -> np.ndarray:
    """The released bit counts of IDUE-PS users, from ``{item set: number of users}``, drawn directly."""
    width = mechanism.encoding.d
    hot = np.zeros(width, dtype=np.int64)
    n = 0
    for items, users in set_counts.items():
        if not isinstance(users, (int, np.integer)) or users < 0:
            raise InvalidParameter(f"the number of users of set {items!r} must be a non-negative integer")
        distribution = ps_distribution(items, mechanism.padding, mechanism.m)
        support = sorted(distribution)
        hot[support] += rng.multinomial(int(users), [float(distribution[v]) for v in support])
        n += int(users)
    released = mechanism.released_bits
    a = np.array([float(bit.p) for bit in mechanism.encoding.bits[:released]])
    b = np.array([float(bit.q) for bit in mechanism.encoding.bits[:released]])
    return rng.binomial(hot[:released], a) + rng.binomial(n - hot[:released], b)


def idue_ps_estimate(bit_counts_, n: int, mechanism: IduePs) -> np.ndarray:
    """``c_hat_i = l (C_i - n b_i) / (a_i - b_i)`` for the real items."""
    m = mechanism.m
    a = np.array([float(bit.p) for bit in mechanism.encoding.bits[:m]])
    b = np.array([float(bit.q) for bit in mechanism.encoding.bits[:m]])
    return mechanism.padding * count_estimate(np.asarray(bit_counts_[:m], dtype=float), n, a, b)

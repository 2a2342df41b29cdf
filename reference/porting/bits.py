"""The sample test of a bit-vector release: each bit, pairs of bits and the number of ones, against the exact channel.

A unary encoding releases ``d`` bits: ``2^d`` outcomes, too many for a goodness-of-fit test of the whole release (its
power falls as ``sqrt(2^d / n)``). This test looks at what a sampler gets wrong in practice, each a frequency whose
exact probability the channel's structure gives without enumerating the outcomes:

* **every bit**: the frequency of ``y_k = 1`` against ``P[y_k = 1 | x]`` (``d`` tests);
* **pairs of bits**: the frequency of ``y_j = y_k = 1`` against its exact probability, for every pair whose joint law
  under the exact channel is not the product of its marginals (a sampled one-hot vector: the bits the user's items can
  make hot), and for the neighbours ``(k, k + 1)``, whose joint law under a channel of independent bits is the product:
  a sampler that draws two neighbouring bits from one random number, or whose generator ties consecutive draws,
  shows there (``d - 1`` tests). Every pair would cost ``n d^2``;
* **the number of ones** ``S``: the frequency of ``lo <= S <= hi`` (``[lo, hi]`` about the mean plus or minus one
  standard deviation of the exact law of ``S``) against its exact probability (one test). ``E[S^2]`` sums the
  covariances of all ``d (d - 1) / 2`` pairs, so a correlation spread over many pairs, each too small to see (a
  sampler that sets a fixed number of bits, or draws bit ``k`` and bit ``k + d/2`` from one random number), moves
  the spread of ``S``, and with it this probability.

With ``T`` tests and ``n`` releases, a test fails when its frequency differs from its exact probability by
``t = sqrt(ln(2T / alpha) / (2n))`` or more (plus ``2 rounding``, below). By Hoeffding's inequality each test fails a
conforming sampler with probability at most ``alpha / T``, so all of them together at most ``alpha`` (Bonferroni).
A sampler whose releases are independent draws from a law under which one of the tested probabilities differs from
the exact one by ``delta >= t + sqrt(ln(1/(1 - power)) / (2n)) + 2 rounding`` fails with probability at least
``power`` (the one-sided Hoeffding bound on that test's frequency). ``d`` enters only through ``ln T``: at
``n = 10,000``, ``alpha = 1e-6`` and power 0.99 this ``delta`` is 0.045 for ``d = 8``, 0.047 for ``d = 100``,
0.048 for ``d = 1000``. A deviation no tested probability can reach (``delta`` above ``max(p, 1 - p)`` of every
tested probability ``p``) is no guarantee, and the report says so.

The exact probabilities are kernel numbers, rounded to doubles; the probability of the window of ``S`` is a
convolution of the bits' laws in doubles, every term non-negative. ``rounding = (16 K + 8 s + 64) 2^-53`` (``K``
bits, ``s`` bits a sampled one-hot vector can make hot) bounds the error of every probability used (the standard
bound ``gamma_m = m u / (1 - m u)`` on ``m`` roundings of non-negative terms, with ``m <= 6 K + 2 s + 8``); widening
the threshold by it keeps the guarantee exact.

Cost: one pass over the releases in blocks (time and memory linear in ``n d``), and ``O(d^2)`` once for the law of
``S`` (a few milliseconds at ``d = 1000``).

The structures read: a product of independent bits (``spec.structured.IndependentBits``: unary encodings, IDUE) and a
sampled one-hot vector (``spec.structured.SampledOneHot``: IDUE-PS and its baselines). The channel protocol has no
question for a bit's marginal law (it is about privacy; this is goodness of fit), so ``bit_law`` reads these two
structures; any other channel is tested as a whole release.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from ldpspec.reference.porting.outputs import release_text
from ldpspec.spec import IndependentBits, SampledOneHot

UNIT_ROUNDOFF = 2.0 ** -53
BLOCK = 1 << 21
"""Entries of the releases read at a time (memory: a block of this many small integers)."""


@dataclass(frozen=True)
class BitLaw:
    """What the test needs of the exact law of a release of ``K`` bits for one input, as doubles.

    Attributes:
        ones: ``P[y_k = 1 | x]`` for every bit.
        dependent: ``{(j, k): P[y_j = y_k = 1 | x]}``, ``j < k``, for the pairs whose joint law is not the product of
            their marginals.
        ones_count: ``P[S = s | x]`` for ``s = 0 .. K``, ``S`` the number of ones.
        rounding: a bound on the rounding error of each probability above, and of any sum of ``ones_count``.
    """

    ones: np.ndarray
    dependent: dict = field(default_factory=dict)
    ones_count: np.ndarray | None = None
    rounding: float = 0.0

    @property
    def bits(self) -> int:
        return len(self.ones)

    def pair_one(self, j: int, k: int) -> float:
        """``P[y_j = y_k = 1 | x]``."""
        return self.dependent.get((j, k), self.ones[j] * self.ones[k])

    def window(self) -> tuple[int, int, float]:
        """``(lo, hi, P[lo <= S <= hi])``: the mean of ``S`` plus or minus one standard deviation, widened to whole
        numbers."""
        s = np.arange(self.bits + 1)
        mean = float(self.ones_count @ s)
        deviation = math.sqrt(max(float(self.ones_count @ (s - mean) ** 2), 0.0))
        lo, hi = max(math.floor(mean - deviation), 0), min(math.ceil(mean + deviation), self.bits)
        return lo, hi, float(math.fsum(self.ones_count[lo:hi + 1]))


def _rounding(bits: int, hot: int = 0) -> float:
    return (16 * bits + 8 * hot + 64) * UNIT_ROUNDOFF


def _doubles(pairs: Sequence) -> list[tuple[float, float]]:
    """Each ``(P[0], P[1])`` as doubles; the pairs of one class (one object) are converted once."""
    converted = {}
    for pair in pairs:
        if id(pair) not in converted:
            converted[id(pair)] = (float(pair[0]), float(pair[1]))
    return [converted[id(pair)] for pair in pairs]


def ones_count_law(pairs: Sequence[tuple[float, float]]) -> np.ndarray:
    """The law of the number of ones of independent bits, each ``(P[0], P[1])``: ``P[S = s]`` for ``s = 0 .. K``,
    convolved in doubles (every term non-negative)."""
    law = np.zeros(len(pairs) + 1)
    law[0] = 1.0
    for k, (zero, one) in enumerate(pairs):
        moved = law[: k + 1] * one
        law[: k + 1] *= zero
        law[1: k + 2] += moved
    return law


def _independent_bits(channel: IndependentBits, x) -> BitLaw:
    pairs = _doubles(channel.bit_distributions(x))
    return BitLaw(np.array([one for _, one in pairs]), {}, ones_count_law(pairs), _rounding(len(pairs)))


def _sampled_one_hot(channel: SampledOneHot, x) -> BitLaw:
    """``P[y|x] = sum_v w_v P[y | v hot] + none P[y | no bit hot]``: bit ``k`` is 1 with ``b_k + w_k (h_k - b_k)``;
    bits ``j, k`` both with ``b_j b_k + w_j (h_j - b_j) b_k + w_k b_j (h_k - b_k)``, which differs from the product
    by ``-w_j w_k (h_j - b_j)(h_k - b_k)``: the pairs of bits both of which can be hot."""
    weights, none = channel.weights(x)
    baseline, hot = channel.baseline, channel.hot
    gain = {v: hot[v][1] - baseline[v][1] for v in weights}
    ones = [float(baseline[k][1] + weights[k] * gain[k]) if k in weights else float(baseline[k][1])
            for k in range(channel.bit_count)]
    dependent = {}
    support = sorted(v for v in weights if gain[v])
    for a, j in enumerate(support):
        for k in support[a + 1:]:
            dependent[(j, k)] = float(baseline[j][1] * baseline[k][1] + weights[j] * gain[j] * baseline[k][1]
                                      + weights[k] * baseline[j][1] * gain[k])
    base = _doubles(baseline)
    law = float(none) * ones_count_law(base)
    for v, w in weights.items():
        law += float(w) * ones_count_law([*base[:v], (float(hot[v][0]), float(hot[v][1])), *base[v + 1:]])
    return BitLaw(np.array(ones), dependent, law, _rounding(channel.bit_count, len(weights)))


READERS = ((IndependentBits, _independent_bits), (SampledOneHot, _sampled_one_hot))
"""The structures whose bits' laws the test reads, each with its reader."""


def bit_law(channel, x) -> BitLaw | None:
    """The law of the bits of ``x``'s release, from the channel's structure; ``None`` when the channel is not one of
    ``READERS``."""
    for structure, read in READERS:
        if isinstance(channel, structure):
            return read(channel, x)
    return None


# --- the test ----------------------------------------------------------------------------------------------------

def threshold(n: int, tests: int, alpha: float) -> float:
    """``t`` with ``2 exp(-2 n t^2) = alpha / tests``: a frequency of ``n`` draws is ``t`` or more from its
    probability with probability at most ``alpha / tests`` (Hoeffding)."""
    return math.sqrt((math.log(2 * tests) - math.log(alpha)) / (2 * n))  # 1/alpha overflows below 1e-308


def detected_deviation(n: int, tests: int, alpha: float, power: float, rounding: float = 0.0) -> float:
    """The smallest deviation of one tested probability that fails with probability at least ``power``."""
    return threshold(n, tests, alpha) + math.sqrt(-math.log1p(-power) / (2 * n)) + 2 * rounding


def samples_needed(deviation: float, tests: int, alpha: float, power: float, rounding: float = 0.0) -> int:
    """The fewest releases at which a deviation of ``deviation`` in one tested probability is detected with
    probability at least ``power``."""
    root = ((math.sqrt(math.log(2 * tests) - math.log(alpha)) + math.sqrt(-math.log1p(-power)))
            / (deviation - 2 * rounding))
    n = max(math.ceil(root * root / 2), 1)
    while detected_deviation(n, tests, alpha, power, rounding) > deviation:
        n += 1
    return n


@dataclass
class Tally:
    """What the test counts: the releases read, each bit's ones, the neighbours' and the dependent pairs' both-ones,
    the law of the number of ones, and the releases that are not ``K`` bits."""

    bits: int
    dependent: tuple
    n: int = 0
    ones: np.ndarray = None
    neighbours: np.ndarray = None
    pairs: np.ndarray = None
    ones_count: np.ndarray = None
    malformed: list = field(default_factory=list)
    """``(release, why)`` for each release that is not ``bits`` bits."""

    def __post_init__(self):
        self.ones = np.zeros(self.bits, dtype=np.int64)
        self.neighbours = np.zeros(max(self.bits - 1, 0), dtype=np.int64)
        self.pairs = np.zeros(len(self.dependent), dtype=np.int64)
        self.ones_count = np.zeros(self.bits + 1, dtype=np.int64)
        self._first = np.array([j for j, _ in self.dependent], dtype=np.int64)
        self._second = np.array([k for _, k in self.dependent], dtype=np.int64)

    def add(self, block: np.ndarray) -> None:
        """Count a block of well-formed releases (rows of ``K`` zeros and ones)."""
        block = block.astype(bool, copy=False)
        self.n += len(block)
        self.ones += block.sum(axis=0, dtype=np.int64)
        self.neighbours += (block[:, :-1] & block[:, 1:]).sum(axis=0, dtype=np.int64)
        if len(self.dependent):
            self.pairs += (block[:, self._first] & block[:, self._second]).sum(axis=0, dtype=np.int64)
        self.ones_count += np.bincount(block.sum(axis=1), minlength=self.bits + 1)


def _refusal(release, bits: int) -> str | None:
    """Why ``release`` is not a release of ``bits`` bits (``None`` when it is one): a list of 0s and 1s, which JSON may
    write as integers, as ``false``/``true`` or as the floats ``0.0``/``1.0`` (a library's float array)."""
    if not isinstance(release, (list, tuple)):
        return f"not a list of {bits} bits"
    if len(release) != bits:
        return f"{len(release)} entries; a release of this channel is {bits} bits"
    for k, bit in enumerate(release):
        if type(bit) not in (int, bool, float) or bit not in (0, 1):
            return f"entry {k} is {json.dumps(bit)[:20]}, not a bit (0 or 1)"
    return None


def tally(releases, bits: int, dependent: Sequence[tuple[int, int]] = ()) -> Tally:
    """Count ``releases`` (a list of lists of ``bits`` bits, each 0 or 1 as an integer, a boolean or a float, or an
    array of them) in blocks; a release that is anything else is kept aside with the reason, as malformed."""
    counts = Tally(bits, tuple(dependent))
    rows = max(BLOCK // max(bits, 1), 1)
    for start in range(0, len(releases), rows):
        chunk = releases[start:start + rows]
        try:
            block = np.asarray(chunk)
            fine = (block.ndim == 2 and block.shape[1] == bits and block.dtype.kind in "iubf"
                    and bool(((block == 0) | (block == 1)).all()))
        except (ValueError, TypeError):
            fine = False
        if not fine:  # release by release: the well-formed ones are counted, the others kept aside
            reasons = [_refusal(release, bits) for release in chunk]
            counts.malformed.extend((release, why) for release, why in zip(chunk, reasons) if why)
            block = np.array([release for release, why in zip(chunk, reasons) if not why],
                             dtype=np.int8).reshape(-1, bits)
        counts.add(block)
    return counts


def bit_test(law: BitLaw, releases, alpha: float, power: float, shown: int = 5) -> dict:
    """The test of ``releases`` (independent draws for one input) against ``law``: the tests, the threshold, the
    largest deviation, the failures (at most ``shown``, largest first), the stated power and whether they conform."""
    dependent = sorted(law.dependent)
    neighbours = [(k, k + 1) for k in range(law.bits - 1) if (k, k + 1) not in law.dependent]
    counts = tally(releases, law.bits, dependent)
    lo, hi, window = law.window()
    tests = law.bits + len(dependent) + len(neighbours) + 1
    n = counts.n
    limit = threshold(max(n, 1), tests, alpha) + law.rounding
    named = ([({"bit": k}, counts.ones[k], law.ones[k]) for k in range(law.bits)]
             + [({"pair": [j, k]}, counts.pairs[i], law.dependent[(j, k)]) for i, (j, k) in enumerate(dependent)]
             + [({"pair": [k, k + 1]}, counts.neighbours[k], law.pair_one(k, k + 1)) for k, _ in neighbours]
             + [({"ones_count": [lo, hi]}, counts.ones_count[lo:hi + 1].sum(), window)])
    results = []
    for test, count, probability in named:
        frequency = float(count) / n if n else 0.0
        results.append({"test": test, "observed": frequency, "expected": float(probability),
                        "deviation": abs(frequency - float(probability))})
    failures = sorted((r for r in results if r["deviation"] >= limit), key=lambda r: -r["deviation"])
    largest = max(results, key=lambda r: r["deviation"])
    detects = detected_deviation(max(n, 1), tests, alpha, power, law.rounding)
    reach = max(max(r["expected"], 1 - r["expected"]) for r in results)
    report = {"test": "bits", "bits": law.bits,
              "tests": {"bits": law.bits, "pairs": len(dependent) + len(neighbours), "ones_count": 1, "total": tests},
              "threshold": limit, "largest_deviation": largest, "power": power}
    if counts.malformed:
        report["detects_deviation_at_least"] = None
        report["guarantee"] = (f"not stated: {len(counts.malformed)} of the {n + len(counts.malformed)} releases are "
                               f"not {law.bits} bits (never_released)")
    elif detects <= reach:
        report["detects_deviation_at_least"] = detects
        report["guarantee"] = (f"a sampler under which a tested probability (a bit's, two tested bits' both being 1, "
                               f"or the number of ones in [{lo}, {hi}]) is off by {detects:.4f} or more fails with "
                               f"probability at least {power}")
    else:
        report["detects_deviation_at_least"] = None
        report["guarantee"] = (f"none at n = {n}: the deviation this n detects with probability {power} "
                               f"({detects:.3f}) is more than any tested probability can move ({reach:.3f})")
    report["n_to_detect_0.05"] = samples_needed(0.05, tests, alpha, power, law.rounding)
    report["failures"] = failures[:shown]
    passed = not failures and not counts.malformed and n > 0
    report["conforms"] = False if not passed else True if report["detects_deviation_at_least"] else None
    if counts.malformed:
        report["never_released"] = [{"release": release_text(release), "why": why}
                                    for release, why in counts.malformed[:shown]]
        report["never_released_count"] = len(counts.malformed)
    return report

"""The sample tests of a release that is one output of an explicit channel: the whole release against the channel's
row (every kind of release but bit vectors), and every output's frequency (a release that is one item: GRR, k-RR,
uRR, IPRR, ...).

**The whole release.** With ``n`` releases, ``k`` outputs of positive probability ``P`` and the empirical
distribution ``P_n``, the test rejects when ``||P_n - P||_1 >= lambda(alpha) = sqrt(2 (k ln 2 + ln(1/alpha)) / n)``:
by the Bretagnolle-Huber-Carol inequality ``P(||P_n - P||_1 >= lambda) <= 2^k e^(-n lambda^2 / 2)``, a conforming
port fails with probability at most ``alpha``, and a port whose releases follow ``Q`` with ``TV(Q, P) >= (lambda(alpha)
+ lambda(1 - power)) / 2`` fails with probability at least ``power``. The stated distance grows as ``sqrt(k)``: at
``d = 1000`` and 10,000 releases it is 0.375, too coarse for a slip in one item's probability.

**Every output's frequency.** A release that is one item is tested output by output, each count ``X_y`` of the ``n``
releases against ``Bin(n, P(y))`` with an exact binomial test. The row's most likely outputs (``m`` of them: GRR's
true item, a set's items under GRR-Sample) share ``alpha / 4``, the ``k - m`` others share ``alpha / 4``, and the
whole-release test above runs at ``alpha / 2`` (Bonferroni: ``alpha`` in all). An output whose count is at most
``lo - 1`` or at least ``hi + 1`` fails, where each side's tail is proven at most the output's share over two
(``reference.binomial``: certified tails, the exact probability enclosed by doubles on the safe side). A sampler under
which an output's probability is at most ``a`` (the proven Clopper-Pearson lower bound of ``lo`` at ``1 - power``)
or at least ``b`` (the upper bound of ``hi``) fails with probability at least ``power``. ``d`` enters only through
the share of ``alpha`` (``ln d``), and the detectable deviation scales as ``sqrt(P(y) / n)``, not as ``sqrt(d / n)``:
GRR at ``d = 1000`` with ``p`` and ``q`` swapped (the true item's probability from 0.0027 to 0.0010) is caught at
40,000 releases with probability above 0.999, where the whole-release test would need hundreds of millions. (No
test at ``alpha = 1e-6`` catches it at 20,000 releases with probability 0.99: the most powerful one, which rejects
a small count of the true item, has power 0.72 there.)

Cost: two certified tails and two certified bounds per distinct (probability, share) pair, a few milliseconds each,
cached; then one pass over the counts.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

from scipy.stats import binom

from ldpspec.reference.binomial import lower_bound, tail_enclosure, upper_bound
from ldpspec.spec import Exact, label_to_json

SHOWN_RELEASE = 60
"""A refused release is shown cut to this many characters of its JSON (with its length when cut)."""
TV_YARDSTICK = 0.05
"""The whole-release test's recommended size detects a total variation of this much (``n_to_detect_tv_0.05``)."""


def release_text(release) -> str:
    """A release as a report shows it: its JSON, cut to ``SHOWN_RELEASE`` characters, with its length when cut."""
    text = json.dumps(release)
    if len(text) <= SHOWN_RELEASE:
        return text
    return text[:SHOWN_RELEASE] + "…" + (f" ({len(release)} entries)" if isinstance(release, list) else "")


# --- the whole release -----------------------------------------------------------------------------------------------

def l1_threshold(outputs: int, n: int, alpha: float) -> float:
    """``lambda`` with ``2^outputs e^(-n lambda^2 / 2) = alpha``: the L1 distance a conforming sample reaches with
    probability at most ``alpha`` (Bretagnolle-Huber-Carol)."""
    return math.sqrt(2 * (outputs * math.log(2) - math.log(alpha)) / n)  # 1/alpha overflows below 1e-308


def detected_tv(outputs: int, n: int, alpha: float, power: float) -> float:
    """The total variation from the channel's row detected with probability at least ``power``."""
    return (l1_threshold(outputs, n, alpha) + l1_threshold(outputs, n, 1 - power)) / 2


def n_to_detect_tv(distance: float, outputs: int, alpha: float, power: float) -> int:
    """The fewest releases at which a total variation of ``distance`` is detected with probability ``power``: the
    stated distance falls as ``1/sqrt(n)``, so ``n = ceil(n_1 (d_1 / distance)^2)`` from its value at ``n = 1``, then
    checked upward against rounding."""
    n = max(math.ceil((detected_tv(outputs, 1, alpha, power) / distance) ** 2), 1)
    while detected_tv(outputs, n, alpha, power) > distance:
        n += 1
    return n


def whole_release_test(counts, probabilities, n: int, alpha: float, power: float) -> dict:
    """The L1 test of ``n`` releases, given the counts of the channel's outputs of positive probability and their
    exact probabilities (doubles, in the same order): the distance, the threshold, the stated power and the verdict.
    The stated total variation is no guarantee when no distribution on these outputs is that far from the channel's
    (``1 - min P``): then it is ``None``."""
    distance = math.fsum(abs(count / n - p) for count, p in zip(counts, probabilities))
    k = len(probabilities)
    detects = detected_tv(k, n, alpha, power)
    report = {"outputs": k, "l1_distance": distance, "threshold": l1_threshold(k, n, alpha), "power": power}
    if detects <= 1 - min(probabilities):
        report["detects_tv_at_least"] = detects
        report["guarantee"] = (f"a sampler whose releases are {detects:.4f} or more from the channel's row in total "
                               f"variation fails with probability at least {power}")
    else:
        report["detects_tv_at_least"] = None
        report["guarantee"] = (f"none at n = {n}: the total variation this n detects with probability {power} "
                               f"({detects:.3f}) is more than any distribution on the {k} outputs reaches "
                               f"({1 - min(probabilities):.3f})")
    report["n_to_detect_tv_0.05"] = n_to_detect_tv(TV_YARDSTICK, k, alpha, power)
    report["conforms"] = distance < report["threshold"]
    return report


# --- every output's frequency ----------------------------------------------------------------------------------------

def _double_below(value: Fraction) -> Fraction:
    """The largest double at most ``value`` (at least 0): a short rational keeps the certified tails fast."""
    near = float(value)
    if Fraction(near) > value:
        near = math.nextafter(near, -math.inf)
    return Fraction(max(near, 0.0))


def probability_bounds(value) -> tuple[Fraction, Fraction]:
    """Doubles ``low <= value <= high`` around an exact probability (a kernel number or a rational)."""
    low, high = value.bounds() if isinstance(value, Exact) else (Fraction(value), Fraction(value))
    return _double_below(low), min(1 - _double_below(1 - high), Fraction(1))


def _lower_tail_at_most(n: int, count: int, p: Fraction, level: Fraction) -> bool:
    """Whether ``P[Bin(n, p) <= count] <= level`` is proven (it is ``P[Bin(n, 1 - p) >= n - count]``)."""
    return tail_enclosure(n, n - count, 1 - p)[1] <= level


def _first_accepted(n: int, low: Fraction, level: Fraction) -> int:
    """The largest count ``c`` of ``n`` releases such that ``P[Bin(n, low) <= c - 1] <= level`` is proven: the counts
    below it are rejected (0 when not even a count of 0 is). SciPy's quantile proposes ``c``; the proofs decide: from
    the proposal, by doubling steps up while proven and then bisection (the tail grows with the count), so a
    proposal that is off, or not a number, still ends at the proven boundary."""
    if low == 0:
        return 0

    def rejected_below(c: int) -> bool:
        return c == 0 or _lower_tail_at_most(n, c - 1, low, level)

    proposed = binom.ppf(float(level), n, float(low))
    c = min(max(int(proposed), 0), n) if math.isfinite(proposed) else 0
    if rejected_below(c):
        step = 1
        while c + step <= n and rejected_below(c + step):
            c, step = c + step, 2 * step
        proven, unproven = c, min(c + step, n + 1)
    else:
        proven, unproven = 0, c
    while unproven - proven > 1:  # rejected_below(proven), not rejected_below(unproven)
        middle = (proven + unproven) // 2
        proven, unproven = (middle, unproven) if rejected_below(middle) else (proven, middle)
    return proven


@lru_cache(maxsize=1 << 14)
def accepted_counts(n: int, low: Fraction, high: Fraction, level: Fraction) -> tuple[int, int]:
    """``(lo, hi)``: the counts among ``n`` releases of an output whose exact probability is in ``[low, high]`` that
    the test accepts. Below ``lo``, ``P[X <= count] <= level`` is proven at ``low`` (so at every probability of the
    interval: the lower tail falls as ``p`` grows); above ``hi``, ``P[X >= count] <= level`` at ``high``, from the
    failures' count ``n - X``, whose law is ``Bin(n, 1 - p)``. A conforming count is rejected with probability at most
    ``2 level``."""
    return _first_accepted(n, low, level), n - _first_accepted(n, 1 - high, level)


@lru_cache(maxsize=1 << 14)
def detected_between(n: int, lo: int, hi: int, miss: Fraction) -> tuple[Fraction | None, Fraction | None]:
    """``(a, b)``: a sampler whose probability of the output is at most ``a`` or at least ``b`` gives a count outside
    ``[lo, hi]`` with probability at least ``1 - miss``: ``P[Bin(n, a) >= lo] <= miss`` and ``P[Bin(n, b) <= hi] <=
    miss`` are proven (the certified Clopper-Pearson bounds of ``lo`` and ``hi``). ``None`` on a side where no
    probability is detected (``lo = 0``, ``hi = n``)."""
    below = lower_bound(lo, n, miss) if lo > 0 else Fraction(0)
    above = upper_bound(hi, n, miss) if hi < n else Fraction(1)
    return (below if below > 0 else None), (above if above < 1 else None)


def output_levels(row: dict, alpha: float) -> dict:
    """Each output's share of ``alpha`` per side of its test (a rational): the ``m`` most likely outputs
    ``alpha / (8 m)``, the ``r`` others ``alpha / (8 r)`` (``alpha / (4 m)`` when there are none), so that the
    outputs' tests, both sides, take ``alpha / 2`` in all and the whole-release test the other half."""
    top = max(row.values())
    modes = sum(1 for p in row.values() if p == top)
    most_likely = _level(len(row), modes, modes, alpha)
    other = _level(len(row), modes, len(row) - modes, alpha) if len(row) > modes else None
    return {y: most_likely if p == top else other for y, p in row.items()}


def _level(outputs: int, modes: int, sharing: int, alpha: float) -> Fraction:
    """The level per side of each of ``sharing`` outputs that share a part of ``alpha / 2``: the whole of it when
    all ``outputs`` are most likely (``modes``), else half of it for the most likely and half for the others."""
    part = Fraction(alpha) / 2 / (2 if outputs > modes else 1)
    return part / (2 * sharing)


LARGEST_SIZE = 1 << 40
"""``n_to_detect_half`` looks no further than this many releases (``None`` beyond)."""


def n_to_detect_half(probability, outputs: int, modes: int, alpha: float, power: float) -> int | None:
    """The releases from which a most likely output whose probability falls to half its exact value is detected with
    probability ``power`` (the test of ``outputs`` outputs, ``modes`` of them most likely). Found by doubling, then
    bisection: detection grows with ``n`` but for the steps of whole counts, so at the ``n`` returned it holds and at
    ``n - 1`` it does not, though a smaller ``n`` may happen to hold too."""
    low, high = probability_bounds(probability)
    level = _level(outputs, modes, modes, alpha)
    miss = 1 - Fraction(power)

    def detects(n: int) -> bool:
        lo, hi = accepted_counts(n, low, high, level)
        below, _ = detected_between(n, lo, hi, miss)
        return below is not None and below >= high / 2

    n = 1
    while not detects(n):
        n *= 2
        if n > LARGEST_SIZE:
            return None
    fewest, most = n // 2, n  # detects(most); not detects(fewest) (or fewest = 0)
    while most - fewest > 1:
        middle = (fewest + most) // 2
        fewest, most = (fewest, middle) if detects(middle) else (middle, most)
    return most


@dataclass(frozen=True)
class OutputPlan:
    """The outputs test of ``n`` releases of one input, planned before any count is seen: each output's exact
    probability (as a double), its accepted counts ``[lo, hi]`` and the probabilities it detects, ``at_most`` and
    ``at_least`` (``None`` on a side where it detects none)."""

    n: int
    alpha: float
    power: float
    outputs: tuple
    probabilities: tuple
    accepted: tuple
    detected: tuple
    modes: int
    n_to_detect_half: int | None

    def test(self, observed: dict, shown: int = 5) -> dict:
        """The report on the counts ``observed`` (output to count; an output not there has none)."""
        n = self.n
        counts = [observed.get(y, 0) for y in self.outputs]
        results = []
        for y, count, expected, (lo, hi) in zip(self.outputs, counts, self.probabilities, self.accepted):
            results.append({"output": label_to_json(y), "observed": count / n, "expected": expected,
                            "deviation": abs(count / n - expected), "accepted": [lo / n, hi / n],
                            "fails": not lo <= count <= hi})
        whole = whole_release_test(counts, self.probabilities, n, self.alpha / 2, self.power)
        failures = sorted((r for r in results if r.pop("fails")), key=lambda r: -r["deviation"])
        at_most, at_least = self.detected[0]
        report = {"test": "outputs", "outputs": len(self.outputs),
                  "tests": {"most_likely": self.modes, "others": len(self.outputs) - self.modes, "whole_release": 1},
                  "largest_deviation": max(results, key=lambda r: r["deviation"]), "power": self.power,
                  "most_likely_detected": {"probability": self.probabilities[0],
                                           "at_most": None if at_most is None else float(at_most),
                                           "at_least": None if at_least is None else float(at_least)}}
        deviation = self.detects_deviation_above()
        report["detects_deviation_above"] = deviation
        if deviation is not None:
            mode = report["most_likely_detected"]
            sides = [f"at most {mode['at_most']:.4g}" if mode["at_most"] is not None else None,
                     f"at least {mode['at_least']:.4g}" if mode["at_least"] is not None else None]
            mode_text = (f"the most likely output's probability ({mode['probability']:.4g}) is "
                         + " or ".join(side for side in sides if side) + ", or " if any(sides) else "")
            tv = whole["detects_tv_at_least"]
            report["guarantee"] = (f"a sampler under which {mode_text}any output's probability is off by more than "
                                   f"{deviation:.4g} fails with probability at least {self.power}"
                                   + (f"; so does one {tv:.4f} or more from the channel's row in total variation"
                                      if tv is not None else ""))
        else:
            report["guarantee"] = f"none at n = {n}: no count of any output can be rejected at this n"
        report["n_to_detect_half"] = self.n_to_detect_half
        report["whole_release"] = {key: whole[key] for key in ("l1_distance", "threshold", "detects_tv_at_least")}
        report["failures"] = failures[:shown]
        passed = not failures and whole["conforms"]
        detects = deviation is not None or whole["detects_tv_at_least"] is not None
        report["conforms"] = False if not passed else True if detects else None
        return report

    def detects_deviation_above(self) -> float | None:
        """The deviation of one output's probability, either way, beyond which every sampler is caught with
        probability ``power`` (on a side where an output detects nothing, a move beyond ``p`` down or ``1 - p`` up is
        impossible); ``None`` when no output detects anything."""
        reaches = [max(p - float(below) if below is not None else p, float(above) - p if above is not None else 1 - p)
                   for p, (below, above) in zip(self.probabilities, self.detected)
                   if below is not None or above is not None]
        return max(reaches) if reaches else None


def output_plan(row: dict, n: int, alpha: float, power: float) -> OutputPlan:
    """The plan of the outputs test for ``row`` (each output of positive probability to its exact probability), the
    most likely outputs first."""
    levels = output_levels(row, alpha)
    top = max(row.values())
    outputs = sorted(row, key=lambda y: row[y] != top)  # stable: the most likely first, else the row's order
    miss = 1 - Fraction(power)
    accepted, detected = [], []
    for y in outputs:
        low, high = probability_bounds(row[y])
        lo, hi = accepted_counts(n, low, high, levels[y])
        accepted.append((lo, hi))
        detected.append(detected_between(n, lo, hi, miss))
    modes = sum(1 for y in outputs if row[y] == top)
    return OutputPlan(n, alpha, power, tuple(outputs), tuple(float(row[y]) for y in outputs), tuple(accepted),
                      tuple(detected), modes, n_to_detect_half(top, len(row), modes, alpha, power))


def output_test(row: dict, observed: dict, n: int, alpha: float, power: float, shown: int = 5) -> dict:
    """The outputs test of ``n`` releases of one input with counts ``observed`` (``output_plan``, then its test)."""
    return output_plan(row, n, alpha, power).test(observed, shown)

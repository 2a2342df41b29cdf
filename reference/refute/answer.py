"""The answer of a refutation: each examined pair with its event, counts, certified bound, budget, verdict and power.

The **bound** of a pair ``(x, x')`` is ``ln(L / U)``: ``L`` the certified Clopper-Pearson lower bound on ``P[E | x]``
and ``U`` the upper bound on ``P[E | x']`` (``reference.binomial``), each at level ``alpha / (2 m)`` for ``m`` examined
pairs, so that every bound of the run holds together with probability at least ``1 - alpha`` (Bonferroni over the
``2 m`` one-sided bounds), whatever the implementation does. ``ln(P[E|x] / P[E|x'])`` is at most the pair's privacy
loss, so the bound is a lower bound on the loss. It is compared with the declared budget of the pair (of the event,
for the notions whose budget belongs to an output) exactly, in the kernel's numbers: **violated** when it exceeds it.

**Power**: the smallest excess ``delta`` of the pair's loss on its event over the budget that the run catches with
probability at least 0.9, at its sample sizes and level, when ``P[E | x']`` is what the model predicted (the exact
reference channel, or the selection share): with ``k2`` the 0.95-quantile of ``Bin(n', P[E|x'])`` and ``k1`` the
smallest count whose lower bound clears ``e^b U(k2)``, ``P[E | x]`` must make ``Bin(n, P[E|x]) >= k1`` happen with
probability 0.95; the two counts are independent, so both happen with probability at least ``0.95^2 > 0.9``. In
doubles (SciPy's beta and binomial quantiles): a statement of what the run could see, not a verdict. When even
``P[E | x] = 1`` would not clear the budget, the run had no power on that pair and the answer says so.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from fractions import Fraction

from scipy.special import betaincinv
from scipy.stats import binom

from ldpspec.spec import Exact, Nats, label_text, label_to_json, rational_text, to_decimal_string

POWER = 0.9
"""The probability with which the stated excess is caught."""
SHOWN = 20
"""Pairs listed in the summary (``--full``: all)."""


def _cp_lower(k: int, n: int, level: float) -> float:
    return 0.0 if k <= 0 else float(betaincinv(k, n - k + 1, level))


def detectable_excess(q: float, b: float, n1: int, n2: int, level: float) -> tuple[float | None, float | None]:
    """``(delta, p)``: the excess over budget ``b`` (nats) caught with probability ``POWER`` when ``P[E|x'] = q``,
    and the ``P[E|x]`` it takes; ``(None, None)`` when no ``P[E|x] <= 1`` would be caught."""
    half = math.sqrt(POWER)  # each count meets its side with this probability
    k2 = int(binom.ppf(half, n2, q)) if q > 0 else 0
    upper = 1.0 if k2 >= n2 else 1 - float(betaincinv(n2 - k2, k2 + 1, level))
    target = math.exp(b) * upper
    if target >= 1 or _cp_lower(n1, n1, level) <= target:
        return None, None
    lo, hi = 1, n1  # the smallest k1 with L(k1) > target
    while lo < hi:
        middle = (lo + hi) // 2
        if _cp_lower(middle, n1, level) > target:
            hi = middle
        else:
            lo = middle + 1
    p = float(betaincinv(lo, n1 - lo + 1, half))  # P[Bin(n1, p) >= lo] = half
    if q <= 0:
        return math.inf, p
    return max(math.log(p / q) - b, 0.0), p


@dataclass
class PairResult:
    """One examined ordered pair ``(x, x')``.

    Attributes:
        pair: the two inputs.
        why: why it was examined.
        event: the event (``refute.events``).
        counts: ``(k, n, k', n')``: the releases of ``x`` in the event and in all, and of ``x'``.
        lower, upper: the certified bounds on ``P[E|x]`` and ``P[E|x']`` (rationals).
        budget: the declared budget of the pair for the event (``Nats``).
        predicted: ``P[E|x']`` as the model predicted it (for the power).
        excess, needed: the detectable excess and the ``P[E|x]`` it takes (``detectable_excess``).
    """

    pair: tuple
    why: str
    event: object
    counts: tuple
    lower: Fraction
    upper: Fraction
    budget: Nats
    predicted: float
    excess: float | None = None
    needed: float | None = None
    bound: Nats | None = field(default=None)

    def __post_init__(self):
        if self.lower > 0:
            self.bound = Nats.log(Exact.rational(self.lower / self.upper))

    @property
    def violated(self) -> bool:
        return self.bound is not None and self.bound > self.budget

    def bound_text(self) -> str:
        return "-inf" if self.bound is None else to_decimal_string(self.bound, 6)

    def to_json(self, full: bool = True) -> dict:
        k1, n1, k2, n2 = self.counts
        data = {"inputs": [label_to_json(x) for x in self.pair], "why": self.why,
                "event": self.event.to_json(full), "counts": {"x": [k1, n1], "x'": [k2, n2]},
                "bound": self.bound_text(), "budget": to_decimal_string(self.budget, 6),
                "verdict": "violated" if self.violated else "not refuted"}
        if self.excess is None:
            data["power"] = "none: no P[E|x] would clear the budget at these sample sizes"
        elif math.isinf(self.excess):
            data["power"] = (f"any infinite loss with P[E|x] >= {self.needed:.3g} (x' never releases E, as "
                             f"predicted)")
        else:
            data["power"] = {"excess": round(self.excess, 4), "probability": 0.9,
                             "at": f"P[E|x'] = {self.predicted:.4g}, P[E|x] >= {self.needed:.4g}"}
        if full:
            data["exact"] = {"lower": rational_text(self.lower), "upper": rational_text(self.upper),
                             "bound": None if self.bound is None else self.bound.text(), "budget": self.budget.text()}
        return data

    def line(self) -> str:
        x, x2 = (label_text(v, 24) for v in self.pair)
        k1, n1, k2, n2 = self.counts
        power = ("no power" if self.excess is None else "catches any infinite loss" if math.isinf(self.excess)
                 else f"catches +{self.excess:.3f}")
        return (f"  {x} vs {x2}: {self.event.text()}; {k1:,}/{n1:,} vs {k2:,}/{n2:,}; bound {self.bound_text()} "
                f"{'>' if self.violated else '<='} budget {to_decimal_string(self.budget, 6)}: "
                f"{'VIOLATED' if self.violated else 'not refuted'} ({power})")


MEANING = ("'violated' is a refutation: with probability at least 1 - alpha over the samples, every bound of this run "
           "is below the implementation's true privacy loss on its pair, so a bound above the budget shows that the "
           "implementation leaks more than it claims. 'not refuted' is not a proof of privacy: privacy is decided "
           "on exact channels (ldpspec check); samples can only refute.")


@dataclass
class Answer:
    """What a refutation found (``to_json``, ``text``)."""

    head: dict
    pairs: list
    failures: list
    unexamined: int
    level: Fraction = Fraction(0)
    """The level of each one-sided bound (``alpha / (2 m)``)."""

    @property
    def violations(self) -> list:
        return [pair for pair in self.pairs if pair.violated]

    @property
    def refuted(self) -> bool:
        return bool(self.violations or self.failures)

    def _ranked(self) -> list:
        """The pairs, violated first, then by how close their bound came to the budget."""
        def closeness(pair):
            if pair.bound is None:
                return -math.inf
            return float(pair.bound) - float(pair.budget)
        return sorted(self.pairs, key=lambda pair: (not pair.violated, -closeness(pair)))

    def power(self) -> str:
        """What the run could have seen, in one sentence: the smallest excess over a budget its pairs catch."""
        if not self.pairs:
            return ("none: no pair of inputs had an event to certify (the selection share saw no output often "
                    "enough, or the notion bounds no release these inputs share); only a release the notion forbids "
                    "could refute it")
        caught = [pair.excess for pair in self.pairs if pair.excess is not None]
        if not caught:
            return "none: no examined pair could show a loss above its budget at these sample sizes"
        if all(math.isinf(excess) for excess in caught):
            return "only an infinite loss (an event one input never releases)"
        return (f"an excess of {min(caught):.3g} nats or more over the budget, on the best-placed pair's event, is "
                f"caught with probability {POWER} ({len(caught):,} of {len(self.pairs):,} pairs have some power)")

    def to_json(self, full: bool = False) -> dict:
        ranked = self._ranked()
        shown = ranked if full else ranked[:SHOWN]
        head = self.head if full else {**self.head, "declared": _sized(self.head["declared"])}
        data = {"verdict": "violated" if self.refuted else "not refuted", **head, "power": self.power(),
                "violated_pairs": len(self.violations), "certain_failures": len(self.failures),
                "pairs_examined": len(self.pairs), "pairs_not_examined": self.unexamined,
                "failures": [failure.to_json() for failure in (self.failures if full else self.failures[:SHOWN])],
                "pairs": [pair.to_json(full) for pair in shown]}
        if not full and len(ranked) > SHOWN:
            data["pairs_shown"] = f"{SHOWN} of {len(ranked):,} (violated first, then the closest to the budget); "\
                                  "--full lists every pair"
        data["meaning"] = MEANING
        return data

    def text(self) -> str:
        head = self.head
        lines = [f"ldpspec refute: {head['implementation']}",
                 f"  declared: {head['declared']['notion']} {_parameters(head['declared']['parameters'])}",
                 f"  samples: {_count(head['samples']['certification'])} per input to certify"
                 + (f" (and {_count(head['samples']['selection'])} to choose the events)"
                    if head['samples']['selection'] else "")
                 + f"; events from {head['events']}; alpha {head['alpha']}",
                 f"  pairs examined: {len(self.pairs):,}" + (f" ({self.unexamined:,} more not examined)"
                                                            if self.unexamined else "")]
        if self.failures:
            lines.append(f"CERTAIN FAILURES ({len(self.failures):,}): releases the notion forbids, seen")
            lines += [f"  {failure.detail}" for failure in self.failures[:5]]
        ranked = self._ranked()
        verdict = (f"VIOLATED: {len(self.violations):,} pair(s) leak more than the declared budget, at confidence "
                   f"1 - {head['alpha']}" if self.violations else
                   "not refuted: no bound exceeds its budget" + (" (but see the certain failures above)"
                                                                  if self.failures else ""))
        lines.append(verdict)
        lines.append(f"  power: {self.power()}")
        lines += [pair.line() for pair in ranked[:10]]
        if len(ranked) > 10:
            lines.append(f"  ... {len(ranked) - 10:,} more pairs (--full, or --json for everything)")
        if head["declared"].get("unrefutable"):
            lines.append("  not refutable from samples: " + "; ".join(head["declared"]["unrefutable"]))
        lines.append(f"  violated: refuted at confidence 1 - {head['alpha']}; not refuted: no proof of privacy "
                     "(samples only refute)")
        return "\n".join(lines) + "\n"


def _sized(value):
    """``value`` with every list of more than ``SHOWN`` entries cut to its first ones and its length."""
    if isinstance(value, dict):
        return {key: _sized(part) for key, part in value.items()}
    if isinstance(value, list) and len(value) > SHOWN:
        return [*map(_sized, value[:SHOWN]), f"... ({len(value):,} in all; --full lists them)"]
    return value


def _count(value) -> str:
    return f"{value:,}" if isinstance(value, int) else f"{min(value):,} to {max(value):,}"


def _parameters(parameters: dict) -> str:
    text = ", ".join(f"{key} {value if isinstance(value, str) else json.dumps(value)}"
                     for key, value in parameters.items())
    return text if len(text) <= 120 else text[:117] + "..."

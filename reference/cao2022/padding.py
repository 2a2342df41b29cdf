"""Sets of any size (Cao et al. Sec. 3.3): padding with fake items or sampling down to ``m``, then a set mechanism.

Every mechanism of the paper takes sets of exactly ``m`` items. A user with fewer pads the set with fake items up to
``m``; a user with more keeps ``m`` of its items, drawn uniformly; the resulting set goes to the mechanism. The paper
says no more (reading ``dummies`` below, and the page of the mechanism):

* the fake items are ``m`` new items ``d .. d+m-1``, and a set of ``j < m`` items is padded with ``m - j`` of them
  drawn uniformly, as Wang, Li and Jha's padding-and-sampling does (``reference.shared.ps``);
* the mechanism runs over the ``d + m`` items, and the fake items are sensitive (``dummies="sensitive"``: a fake
  item is perturbed like a sensitive one, never revealed) or not (``"non-sensitive"``: a fake item can be revealed,
  which tells the server that the set was short);
* the estimates are those of the mechanism for the ``d`` real items: they count the items of the *normalised* sets,
  so a user with more than ``m`` items contributes only the ``m`` it kept.

The exact channel's inputs are the non-empty sets of at most ``max_set_size`` items; its output is the mechanism's
whole release. It is the mechanism's channel after the normalisation's (``spec.postprocess``), so every notion
judges the release a user with any set size makes.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterable, Mapping, Sequence
from functools import cached_property
from math import comb

import numpy as np

from ldpspec.reference import plain_draws as draws
from ldpspec.reference.cao2022.sets import (
    SET_SIZE,
    _plain_integers,
    all_sets,
    population_arrays,
    set_array,
    set_size,
    uniform_sets,
)
from ldpspec.reference.cao2022.sugrr import SuGRR, SuGRRSample
from ldpspec.reference.cao2022.surap import SuRAP, SuRAPSample
from ldpspec.reference.cao2022.wheel import SuWheel
from ldpspec.reference.mechanism import DOMAIN_SIZE, EPSILON, Benchmark, Guarantee, Mechanism
from ldpspec.reference.shared.urr import SENSITIVE, sensitive_items
from ldpspec.reference.validation import MAX_DOMAIN, choice, domain_size, item_set, positive_integer
from ldpspec.spec import ZERO, Channel, Exact, InvalidParameter, Parameter, check_entries, count_text

INNER = {"sugrr": SuGRR, "sugrr-sample": SuGRRSample, "surap": SuRAP, "surap-sample": SuRAPSample,
         "suwheel": SuWheel}
"""The mechanisms a normalised set can go to, by their registered names."""

DUMMIES = ("sensitive", "non-sensitive")
"""Whether the fake items are sensitive items of the mechanism (reading of Sec. 3.3)."""

class Padded:
    """Padding with fake items, or sampling, to ``m`` items, then the mechanism ``inner`` over ``d + m`` items."""

    def __init__(self, inner: str, epsilon, d: int, sensitive: Iterable[int], m: int, max_set_size: int | None = None,
                 dummies: str = "sensitive"):
        self.inner_name = choice(inner, INNER, "inner")
        self.d = domain_size(d)
        self.m = set_size(m, self.d)
        self.sensitive = sensitive_items(sensitive, self.d)
        self.dummies = choice(dummies, DUMMIES, "dummies")
        self.max_set_size = self.m + 1 if max_set_size is None else positive_integer(
            max_set_size, "max_set_size (the largest set a user holds)", self.d)
        self.fake_items = tuple(range(self.d, self.d + self.m))
        inner_sensitive = (*self.sensitive, *self.fake_items) if self.dummies == "sensitive" else self.sensitive
        self.inner = INNER[self.inner_name](epsilon, domain_size(self.d + self.m), inner_sensitive, self.m)
        self.epsilon = self.inner.epsilon

    # --- the normalisation ---

    @cached_property
    def twin(self) -> PaddedTwin:
        return PaddedTwin(self)

    def user_set(self, items: Iterable) -> tuple:
        """A user's set: 1 to ``d`` distinct items (the channel covers sets up to ``max_set_size``)."""
        items = item_set(items, self.d, "a user's set")
        if not items:
            raise InvalidParameter("a user's set must hold at least one item (padding an empty set would release "
                                   "only fake items), got ()")
        return items

    def normalised(self, items: Iterable) -> dict:
        """The exact distribution of the normalised set: ``{set of m items: probability}``."""
        items = self.user_set(items)
        if len(items) == self.m:
            return {items: Exact.rational(1)}
        if len(items) > self.m:
            return {kept: Exact.rational(1) / comb(len(items), self.m) for kept in _subsets(items, self.m)}
        return {items + fake: Exact.rational(1) / comb(self.m, self.m - len(items))
                for fake in _subsets(self.fake_items, self.m - len(items))}

    def normalise(self, items: Iterable, rng: random.Random) -> tuple:
        """One draw of the normalised set."""
        items = self.user_set(items)
        if len(items) > self.m:
            return tuple(sorted(draws.sample(rng, items, self.m)))
        return items + tuple(sorted(draws.sample(rng, self.fake_items, self.m - len(items))))

    def inputs(self) -> list[tuple]:
        """The channel's inputs: every non-empty set of at most ``max_set_size`` items."""
        return [s for size in range(1, self.max_set_size + 1) for s in all_sets(self.d, size)]

    # --- the exact channel ---

    def channel(self, max_entries: int | None = None):
        """The normalisation followed by the mechanism: ``P[y | s] = sum_t P[t | s] P_inner[y | t]``."""
        sets = sum(comb(self.d, size) for size in range(1, self.max_set_size + 1))
        normalised = comb(self.d + self.m, self.m)
        check_entries(sets * normalised, f"the normalisation of {count_text(sets)} sets to {count_text(normalised)}",
                      max_entries)
        inputs, padded = self.inputs(), list(all_sets(self.d + self.m, self.m))
        index = {t: j for j, t in enumerate(padded)}
        rows = []
        for s in inputs:
            row = [ZERO] * len(padded)
            for t, probability in self.normalised(s).items():
                row[index[t]] = probability
            rows.append(row)
        normalisation = Channel(inputs, padded, rows)
        return self.inner.channel(max_entries).preprocessed(normalisation)

    def guarantee(self) -> Guarantee:
        """The mechanism's notion, with the sensitive items of the user's domain. With non-sensitive fake items the
        release can reveal an item the user's set does not hold, which (10) forbids: the guarantee is claimed only
        with sensitive fake items, and the audit and the tests check it on the exact channel."""
        inner = self.inner.guarantee()
        parameters = dict(inner.parameters)
        parameters["sensitive_items"] = list(self.sensitive)
        outputs = self.channel().explicit().outputs
        parameters["protected_outputs"] = sorted({y0 for y0, _ in outputs if y0 is not None}, key=repr)
        return Guarantee(inner.notion, parameters)

    # --- one user ---

    def perturb(self, items: Iterable, rng: random.Random) -> tuple:
        return self.inner.perturb(self.normalise(items, rng), rng)

    def label(self, release: tuple, channel) -> tuple:
        """The exact channel's output for a release: the inner mechanism's label where the channel has densities
        (suWheel's float ``y0`` falls in a cell), the release itself otherwise."""
        return self.inner.label(release, channel) if channel.has_densities else release

    def counts(self, releases: Iterable[tuple]) -> list[int]:
        """The mechanism's counts over the ``d + m`` items (the fake ones last)."""
        return self.inner.counts(releases)

    def estimate(self, counts: Sequence[int], n: int) -> list:
        """The mechanism's estimates of the ``d`` real items (counts over ``d + m`` items in)."""
        return self.inner.estimate(counts, n)[:self.d]

    def estimate_moments(self, item_sets: Sequence[Iterable]) -> tuple[list, list]:
        """Exact mean and variance of every real item's estimate: per user, the mixture over the normalised sets of
        the mechanism's moments for one user (``E[X] = E_t E[X|t]``, ``Var X = E_t (Var[X|t] + E[X|t]^2) - E[X]^2``)."""
        means, variances = [ZERO] * self.d, [ZERO] * self.d
        for s in item_sets:
            first, second = [ZERO] * self.d, [ZERO] * self.d
            for t, probability in self.normalised(s).items():
                mean_t, variance_t = self.inner.estimate_moments([t])
                for x in range(self.d):
                    first[x] = first[x] + probability * mean_t[x]
                    second[x] = second[x] + probability * (variance_t[x] + mean_t[x] * mean_t[x])
            means = [a + b for a, b in zip(means, first)]
            variances = [v + s2 - f * f for v, s2, f in zip(variances, second, first)]
        return means, variances


def _subsets(items: Sequence, size: int) -> list[tuple]:
    return [tuple(sorted(c)) for c in itertools.combinations(items, size)]


class PaddedTwin:
    """Many users at once: the normalisation in NumPy (users grouped by set size), then the mechanism's twin."""

    def __init__(self, mechanism: Padded):
        self.mechanism = mechanism
        self.inner = mechanism.inner.twin

    def normalise(self, item_sets, rng: np.random.Generator) -> np.ndarray:
        """An ``(n, m)`` array of normalised sets. Users are grouped by set size, and each group is checked and
        drawn as one array."""
        mechanism = self.mechanism
        by_size: dict[int, list[int]] = {}
        for u, items in enumerate(item_sets):
            by_size.setdefault(len(items) if isinstance(items, (tuple, list, np.ndarray)) else -1, []).append(u)
        result = np.empty((sum(map(len, by_size.values())), mechanism.m), dtype=np.int64)
        for size, users in by_size.items():
            if size < 1:
                mechanism.user_set(item_sets[users[0]])  # refused with its message
            rows = [item_sets[u] for u in users]
            try:  # one array for the group when every item is a plain integer; otherwise set by set, with a message
                if _plain_integers(itertools.chain.from_iterable(rows)):
                    rows = np.array(rows, dtype=np.int64)
            except (TypeError, ValueError, OverflowError):
                pass
            result[users] = self._normalise_block(set_array(rows, mechanism.d, size), rng)
        return result

    def _normalise_block(self, block: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        """Normalise a checked ``(n, j)`` array of sets of one size ``j``: ``m - j`` fake items drawn without
        replacement (a random permutation's first ones) for short sets, ``m`` items kept for long sets."""
        m, size = self.mechanism.m, block.shape[1]
        if size >= m:
            keep = np.argsort(rng.random((len(block), size)), axis=1)[:, :m]
            return np.take_along_axis(block, keep, axis=1)
        fake = np.argsort(rng.random((len(block), m)), axis=1)[:, :m - size] + self.mechanism.d
        return np.concatenate([block, fake], axis=1)

    def reports(self, item_sets, rng: np.random.Generator):
        return self.inner.reports(self.normalise(item_sets, rng), rng)

    def outputs(self, reports) -> list:
        return self.inner.outputs(reports)

    def counts(self, reports) -> np.ndarray:
        return self.inner.counts(reports)

    def simulate_counts(self, population: Mapping, rng: np.random.Generator) -> np.ndarray:
        """The counts of ``population = {set: number of users}``: how many users of each set end with each
        normalised set, then the mechanism's aggregate simulation. A set with at least as many users as ways to
        normalise it draws one multinomial over them (every way equally likely); a set with fewer users draws each
        user's, so the cost is at most the smaller of the two for every distinct set, whatever ``n`` is."""
        mechanism, m = self.mechanism, self.mechanism.m
        by_size: dict[int, dict] = {}
        for items, users in population.items():
            size = len(items) if isinstance(items, (tuple, list, np.ndarray)) else -1  # -1: refused below
            by_size.setdefault(size, {})[items] = users
        normalised: dict[tuple, int] = {}
        drawn = []
        for size, part in by_size.items():
            if size < 1:
                mechanism.user_set(next(iter(part)))  # refused with its message
            sets, users = population_arrays(part, mechanism.d, size)
            ways = comb(m, m - size) if size < m else comb(size, m)
            many = users >= ways
            for items, count in zip(sets[many].tolist(), users[many].tolist()):
                items = tuple(items)
                outcomes = ([items + fake for fake in _subsets(mechanism.fake_items, m - size)] if size < m
                            else _subsets(items, m))
                for t, drawn_count in zip(outcomes, rng.multinomial(count, np.full(ways, 1 / ways))):
                    if drawn_count:
                        normalised[t] = normalised.get(t, 0) + int(drawn_count)
            few = ~many & (users > 0)
            if np.any(few):
                drawn.append(self._normalise_block(np.repeat(sets[few], users[few], axis=0), rng))
        if drawn:
            rows, counts = np.unique(np.sort(np.concatenate(drawn), axis=1), axis=0, return_counts=True)
            for row, count in zip(map(tuple, rows.tolist()), counts.tolist()):
                normalised[row] = normalised.get(row, 0) + count
        return self.inner.simulate_counts(normalised, rng)

    def estimate(self, counts, n: int) -> np.ndarray:
        return np.asarray(self.inner.estimate(counts, n))[:self.mechanism.d]


INNER_PARAMETER = Parameter("inner", "choice", "the set mechanism the normalised set goes to", choices=tuple(INNER),
                            example="sugrr-sample")
MAX_SET_SIZE = Parameter("max-set-size", "integer", "the largest set a user holds (the channel's inputs are the "
                         "non-empty sets of at most this many items; default m + 1)", required=False,
                         minimum=1, maximum=MAX_DOMAIN)
DUMMIES_PARAMETER = Parameter("dummies", "choice", "whether the fake items are sensitive items of the mechanism",
                              required=False, default="sensitive", choices=DUMMIES)


def _workload(n: int, d: int, rng: np.random.Generator):
    """suGRR-Sample with m = 8 behind the normalisation; users hold uniform sets of 1 to 2m items (each size
    equally likely), a quarter of the items sensitive."""
    m = min(8, d)
    largest = min(2 * m, d)
    sizes = rng.integers(1, largest + 1, size=n)
    sets = [None] * n
    for size in range(1, largest + 1):
        users = np.flatnonzero(sizes == size)
        for u, row in zip(users.tolist(), uniform_sets(len(users), d, size, rng)):
            sets[u] = row
    return Padded("sugrr-sample", 1, d, range(max(1, d // 4)), m, largest), sets


MECHANISMS = (
    Mechanism(
        name="padded", title="Sets of any size padded with fake items or sampled to m, then a set mechanism",
        home="cao2022", source="Cao et al. Sec. 3.3", notion="suldp-joint",
        parameters=(INNER_PARAMETER, EPSILON, DOMAIN_SIZE, SENSITIVE, SET_SIZE, MAX_SET_SIZE, DUMMIES_PARAMETER),
        build=Padded, claims=(), docs="mechanisms/padded.md", inputs="item-set", reports="inner",
        benchmark=Benchmark(workload=_workload, group="sets")),
)

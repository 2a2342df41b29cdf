"""What the set-valued mechanisms of Cao et al. share: users' sets of ``m`` items, the release ``(y0, R)``, and the
two readings of the release the paper leaves open.

Every user holds a set ``s`` of exactly ``m`` items of ``0 .. d-1`` (Definition 3; Sec. 3.3 normalises other sizes
by padding and sampling). A release is a pair ``(y0, R)``: the protected part ``y0`` and the tuple ``R`` of revealed
(invertible) non-sensitive items, sorted. The paper leaves two things about ``y0`` open, and each is a parameter:

* ``y0`` of suGRR (the audit's reading ``sugrr_y0``): the sensitive outputs of the ``m`` perturbed items "regarded as a
  set". Two items can produce the same sensitive output: ``"multiset"`` keeps it twice (and the estimator counts
  occurrences), ``"set"`` merges the two (the estimator counts users).
* an empty ``y0`` (the audit's reading ``empty``): when no sensitive output occurs (a Sample variant that revealed its
  item, or every item of suGRR revealed), ``"absent"`` releases no protected part (``y0 = None``, a purely invertible
  output) and ``"empty"`` releases the empty protected part ``()``, an element of ``Y_pro``.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Iterator, Mapping

import numpy as np

from ldpspec.reference.mechanism import Guarantee
from ldpspec.reference.validation import MAX_DOMAIN, domain_size, item_set, positive_integer, user_count
from ldpspec.spec import InvalidParameter, LazyText, Parameter, value_text

Y0_READINGS = ("multiset", "set")
"""How suGRR's sensitive outputs form ``y0`` (the audit's reading ``sugrr_y0``)."""

EMPTY_READINGS = ("absent", "empty")
"""What is released when there is no sensitive output (the audit's reading ``empty``)."""

SET_BLOCK = 1 << 17
"""The twins work through many sets in blocks of about this many (set, item) pairs (``blocks``): a block's temporary
arrays stay at about a megabyte each, whatever the number of users."""


def set_size(m, d: int) -> int:
    """``m``, the number of items of every user's set: an integer in ``[1, d]``."""
    m = positive_integer(m, "m (the number of items of every set)", MAX_DOMAIN)
    if m > d:
        raise InvalidParameter(f"m (the number of items of every set) must be at most d = {d}, got {m}")
    return m


def user_set(items: Iterable, d: int, m: int, name: str = "a user's set") -> tuple:
    """A set of exactly ``m`` distinct items of ``0 .. d-1``, sorted."""
    items = item_set(items, d, name)
    if len(items) != m:
        raise InvalidParameter(f"{name} must hold exactly m = {m} items (pad or sample it to m first, Sec. 3.3), "
                               f"got {len(items)}: {value_text(list(items))}")
    return items


def all_sets(d: int, m: int) -> Iterator[tuple]:
    """Every set of ``m`` items of ``0 .. d-1``, as sorted tuples."""
    return itertools.combinations(range(d), m)


def release(sensitive_outputs: Iterable[int], revealed: Iterable[int], y0: str, empty: str) -> tuple:
    """The release ``(y0, R)`` from the sensitive outputs (with repeats) and the revealed items."""
    outputs = sorted(sensitive_outputs)
    if y0 == "set":
        outputs = sorted(set(outputs))
    protected = tuple(outputs) if outputs or empty == "empty" else None
    return protected, tuple(sorted(revealed))


def set_array(item_sets, d: int, m: int) -> np.ndarray:
    """Many users' sets as an ``(n, m)`` integer array, each row ``m`` distinct items of ``0 .. d-1``."""
    array = np.asarray([user_set(s, d, m) for s in item_sets] if not isinstance(item_sets, np.ndarray)
                       else item_sets)
    if array.ndim != 2 or array.shape[1] != m or not np.issubdtype(array.dtype, np.integer):
        raise InvalidParameter(f"item_sets must be n sets of m = {m} items, got an array of shape {array.shape}")
    if array.size and (array.min() < 0 or array.max() >= d):
        raise InvalidParameter(f"item_sets must hold items in [0, {d - 1}]")
    for block in blocks(len(array), m):  # a sorted copy of a block at a time, not of the whole array
        ordered = np.sort(array[block], axis=1)
        if np.any(ordered[:, 1:] == ordered[:, :-1]):
            raise InvalidParameter("every set in item_sets must hold m distinct items")
    return array


def population_arrays(population: Mapping, d: int, m: int) -> tuple[np.ndarray, np.ndarray]:
    """``population = {set: number of users}`` as arrays: its distinct sets, each sorted, as a ``(k, m)`` array, and
    their numbers of users (``k`` of them), checked as ``user_set`` and ``user_count`` check them.

    Sets of plain integers with plain integer counts are read and checked as whole arrays: a population of uniform
    sets has about one distinct set per user. Anything else, or anything these checks refuse, is read one set at a
    time by those functions, which say what is wrong.
    """
    keys, users = list(population), list(population.values())
    try:
        if (
            all(len(items) == m for items in keys)
            and _plain_integers(itertools.chain.from_iterable(keys))
            and _plain_integers(users)
        ):
            sets = np.fromiter(itertools.chain.from_iterable(keys), dtype=np.int64, count=len(keys) * m)
            sets = sets.reshape(len(keys), m)
            sets.sort(axis=1)
            counts = np.fromiter(users, dtype=np.int64, count=len(users))
            in_range = not sets.size or (sets.min() >= 0 and sets.max() < d)
            if in_range and not np.any(sets[:, 1:] == sets[:, :-1]) and not np.any(counts < 0):
                return sets, counts
    except (TypeError, OverflowError):  # a set without a length, or a number beyond 64 bits: read one at a time
        pass
    sets, counts = np.zeros((len(keys), m), dtype=np.int64), np.zeros(len(keys), dtype=np.int64)
    for row, (items, count) in enumerate(zip(keys, users)):
        sets[row] = user_set(items, d, m, LazyText(lambda items=items: f"population set {value_text(items)}"))
        counts[row] = user_count(count, LazyText(lambda items=items: f"population[{value_text(items)}]"))
    return sets, counts


def _plain_integers(values: Iterable) -> bool:
    """Whether every value is a Python ``int`` (not a ``bool``) or a NumPy integer."""
    return all(kind is int or issubclass(kind, np.integer) for kind in set(map(type, values)))


def item_totals(sets: np.ndarray, weights: np.ndarray, d: int) -> np.ndarray:
    """``sum_{r, j} w_{r, j} [sets[r, j] = x]`` for every item ``x``, in integers, with ``w_{r, j}`` either
    ``weights[r]`` (one weight per row) or ``weights[r, j]``."""
    weights = np.asarray(weights, dtype=np.int64)
    totals = np.zeros(d, dtype=np.int64)
    for j in range(sets.shape[1]):  # one column at a time: no copy of the whole array
        np.add.at(totals, sets[:, j], weights if weights.ndim == 1 else weights[:, j])
    return totals


def holder_counts(population: Mapping, d: int, m: int) -> np.ndarray:
    """How many users hold each item, for ``population = {set: number of users}``."""
    sets, users = population_arrays(population, d, m)
    return item_totals(sets, users, d)


def blocks(n: int, per_row: int) -> Iterator[slice]:
    """Slices of ``0 .. n-1`` holding about ``SET_BLOCK`` (row, item) pairs each, for ``per_row`` pairs per row."""
    size = max(1, SET_BLOCK // max(per_row, 1))
    return (slice(start, start + size) for start in range(0, n, size))


def set_workload(build, *, sensitive: bool):
    """The benchmark's workload of a set-valued mechanism: ``build(1, d, [sensitive,] m)`` at eps = 1 with
    ``m = min(8, d)`` (with ``sensitive``: the first ``d // 4`` items, at least one, are sensitive), and every user a
    uniform set of ``m`` items, as the paper simulates its data."""
    def workload(n: int, d: int, rng: np.random.Generator):
        m = min(8, d)
        sensitive_items = (range(max(d // 4, 1)),) if sensitive else ()
        return build(1, d, *sensitive_items, m), uniform_sets(n, d, m, rng)
    return workload


def sample_one(sets: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One item of every row of ``sets`` (an ``(n, m)`` array), uniformly: the Sample variants' first step."""
    return sets[np.arange(len(sets)), rng.integers(0, sets.shape[1], size=len(sets))]


def sampled_counts(population: Mapping, d: int, m: int, rng: np.random.Generator) -> np.ndarray:
    """How many users of ``population = {set: number of users}`` sample each item: one multinomial per distinct
    set, exact in distribution at a cost that does not grow with the number of users."""
    sets, users = population_arrays(population, d, m)
    counts = np.zeros(d, dtype=np.int64)
    for block in blocks(len(sets), m):  # the same draws as one call for all sets, in less memory
        counts += item_totals(sets[block], rng.multinomial(users[block], np.full(m, 1 / m)), d)
    return counts


def uniform_sets(n: int, d: int, m: int, rng: np.random.Generator) -> np.ndarray:
    """``n`` uniform sets of ``m`` distinct items of ``0 .. d-1`` (the paper's simulated data): ``m`` uniform items
    per user, the rows with a repeat drawn again until none has one (rejection keeps the sets uniform). When most
    rows would repeat an item (``m`` more than half of ``d``), the first ``m`` items of a random permutation."""
    if 2 * m > d:
        return np.argsort(rng.random((n, d)), axis=1)[:, :m]
    sets = rng.integers(0, d, size=(n, m))
    while True:
        ordered = np.sort(sets, axis=1)
        repeated = np.flatnonzero(np.any(ordered[:, 1:] == ordered[:, :-1], axis=1))
        if not len(repeated):
            return sets
        sets[repeated] = rng.integers(0, d, size=(len(repeated), m))


class EverySensitive:
    """A baseline of Sec. 2.3: the utility-optimised mechanism it precedes with every item sensitive, so nothing is
    ever revealed (uRR is then GRR, uRAP basic RAPPOR). It takes no sensitive items and claims eps-LDP. Mixed in
    before the mechanism's class: ``class SetGRR(EverySensitive, SuGRR)``."""

    def __init__(self, epsilon, d: int, m: int):
        super().__init__(epsilon, domain_size(d), range(domain_size(d)), m)

    def guarantee(self) -> Guarantee:
        return Guarantee("ldp", {"epsilon": self.epsilon})


SET_SIZE = Parameter("m", "integer", "the number of items m of every user's set, 1 <= m <= d", example="2",
                     minimum=1, maximum=MAX_DOMAIN, edges=lambda example: [("1", "single-item-sets")])
Y0 = Parameter("y0", "choice", "suGRR's protected part: sensitive outputs as a multiset or a set (the audit's "
               "reading sugrr_y0)",
               required=False, default="multiset", choices=Y0_READINGS)
EMPTY = Parameter("empty", "choice", "with no sensitive output, release no protected part or an empty one "
                  "(the audit's reading empty)", required=False, default="absent", choices=EMPTY_READINGS)

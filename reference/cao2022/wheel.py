"""Wheel (Wang et al., PVLDB 2020) for sets and Cao et al.'s suWheel (Sec. 4.3, Algorithms 1 and 2).

Every item ``x`` is hashed to a point ``v_x = h(x)`` of the circle ``[0, 1)``. With

    p = 1 / (2m - 1 + m e^eps),      Omega = m p e^eps + 1 - m p,

the *arc* of ``v`` is ``[v, v + p)`` (wrapping around at 1), and the *covered area* ``C_v`` of a set ``s`` is the union
of its items' arcs, of total length ``l <= m p``. The user draws ``y0`` from the density (eq. (8))

    e^eps / Omega                       on C_v,
    (1 - l e^eps / Omega) / (1 - l)     elsewhere,

which is ``1 / Omega`` outside when the arcs do not overlap (``l = m p``).

* **Wheel** releases ``y0`` (and the hash function it used).
* **suWheel** also reveals every non-sensitive item of ``s`` whose arc does not contain ``y0`` (Algorithm 1, step 5):
  the release is ``(y0, R)``. For an item of ``s`` the probability that ``y0`` lies in its arc is
  ``P_true = p e^eps / Omega`` (its arc lies inside ``C_v``), so a non-sensitive item is revealed with
  ``r = 1 - P_true``.

The server (Algorithm 2) counts, for a sensitive item ``x``, the users whose ``y0`` lies in the arc of ``h(x)``
(``F_x``) and estimates the number of holders by ``(F_x - n p) / (P_true - p)``; for a non-sensitive item it counts the
users revealing it and estimates ``F_x / r``.

**The hash (the audit's readings ``hash`` and ``hash_values``).** The paper releases each user's hash function but does
not say how it is drawn. Here the hash is a parameter: the values ``h(0), ..., h(d-1)`` (rationals in ``[0, 1)``; by
default ``x / d``), fixed and public. The audit also checks the claims over a family of hash functions, released with
the output or not, and averaged over hash values drawn uniformly. ``P_false = p`` (the chance that ``y0`` lands in the
arc of an item the user does not hold) is an average over random hash values; for one fixed hash it depends on the set.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from fractions import Fraction
from functools import cached_property
from math import comb

import numpy as np

from ldpspec.reference import plain_draws as draws
from ldpspec.reference.cao2022.sets import (
    SET_SIZE,
    all_sets,
    blocks,
    population_arrays,
    set_array,
    set_size,
    set_workload,
    user_set,
)
from ldpspec.reference.mechanism import DOMAIN_SIZE, EPSILON, Benchmark, Guarantee, Mechanism
from ldpspec.reference.shared.urr import SENSITIVE, sensitive_items
from ldpspec.reference.twin_sampling import packed_bit_counts
from ldpspec.reference.validation import domain_size, number_of_users
from ldpspec.spec import (
    ONE,
    ZERO,
    Density,
    Exact,
    InvalidParameter,
    Parameter,
    PiecewiseChannel,
    budget,
    cell_text,
    check_entries,
    count_text,
    exact_number,
    label_list,
    sorted_unique,
)

SUWHEEL_NOTION = "suldp-marginal"
"""The notion suWheel holds with its parameters: SULDP under reading A of (11)."""


def wheel_parameters(E, m: int) -> tuple:
    """``(p, Omega, P_true)`` at ``E = e^eps`` for sets of ``m`` items. Plain arithmetic."""
    p = 1 / (2 * m - 1 + m * E)
    omega = m * p * E + 1 - m * p
    return p, omega, p * E / omega


def arc(v, p) -> list[tuple]:
    """The arc ``[v, v + p)`` of the circle ``[0, 1)``, as one or two intervals."""
    end = v + p
    if end <= 1:
        return [(v, end)]
    return [(v, ONE), (ZERO, end - 1)]


def _inside(cell: tuple, intervals: Iterable[tuple]) -> bool:
    low, high = cell
    return any(a <= low and high <= b for a, b in intervals)


class _SpreadHash:
    """The default hash ``h(x) = x / d``, computed per item (``d`` may be large)."""

    def __init__(self, d: int):
        self.d = d

    def __len__(self) -> int:
        return self.d

    def __getitem__(self, x: int) -> Exact:
        return Exact.rational(x) / self.d


class _Arcs:
    """The arc of every item, computed when first asked for."""

    def __init__(self, hash_values, p):
        self.hash_values, self.p, self._arcs = hash_values, p, {}

    def __getitem__(self, x: int) -> list[tuple]:
        if x not in self._arcs:
            self._arcs[x] = arc(self.hash_values[x], self.p)
        return self._arcs[x]


class _WheelBase:
    """What Wheel and suWheel share: the parameters, the hash, the density of ``y0`` and the cells."""

    def __init__(self, epsilon, d: int, sensitive: Iterable[int], m: int, hash_values: Sequence | None):
        self.epsilon = budget(epsilon, "epsilon")
        self.d = domain_size(d)
        self.m = set_size(m, self.d)
        self.sensitive = sensitive_items(sensitive, self.d)
        sensitive = set(self.sensitive)
        self.is_sensitive = [x in sensitive for x in range(self.d)]
        self.E = self.epsilon.exponential()
        self.p, self.omega, self.p_true = wheel_parameters(self.E, self.m)
        self.r = 1 - self.p_true
        self.hash = _SpreadHash(self.d) if hash_values is None else self._checked_hash(hash_values)
        self.arcs = _Arcs(self.hash, self.p)  # computed per item when first needed: d may be large
        self._densities = {}  # set -> (cells, values), computed once
        self._float_cells = {}  # set -> (cell lows, widths, masses) in floats, for the plain sampler

    def _checked_hash(self, hash_values) -> list:
        values = label_list(hash_values, "hash_values", InvalidParameter)
        if len(values) != self.d:
            raise InvalidParameter(f"hash_values must give one point of [0, 1) per item ({self.d}), got {len(values)}")
        points = [exact_number(v, f"hash_values[{x}]") for x, v in enumerate(values)]
        for x, v in enumerate(points):
            if not 0 <= v < 1:
                raise InvalidParameter(f"hash_values[{x}] must be in [0, 1), got {v.text()}")
        return points

    def hash_floats(self) -> np.ndarray:
        """The hash values as floats, for the twin."""
        if isinstance(self.hash, _SpreadHash):
            return np.arange(self.d) / self.d
        return np.array([float(v) for v in self.hash])

    def cells(self, items: Sequence[int]) -> list[tuple]:
        """The cells of ``[0, 1)`` between the end points of the arcs of ``items``."""
        points = sorted_unique([ZERO, ONE, *(end for x in items for piece in self.arcs[x] for end in piece)])
        return list(zip(points, points[1:]))

    def density(self, items: Sequence[int]) -> tuple[list, list]:
        """``(cells, values)``: the density of ``y0`` for the set ``items`` on the cells of its arcs (eq. (8))."""
        key = tuple(items)
        if key not in self._densities:
            self._densities[key] = self._density(key)
        return self._densities[key]

    def _density(self, items: tuple) -> tuple[list, list]:
        cells = self.cells(items)
        covered = [cell for cell in cells if any(_inside(cell, self.arcs[x]) for x in items)]
        length = sum((high - low for low, high in covered), ZERO)
        inside = self.E / self.omega
        outside = (1 - length * inside) / (1 - length)
        return cells, [inside if any(_inside(cell, self.arcs[x]) for x in items) else outside for cell in cells]

    def density_on(self, items: Sequence[int], cells: Sequence[tuple]) -> list:
        """The density of ``y0`` for the set ``items`` on each of ``cells`` (a refinement of the set's cells)."""
        own_cells, own_values = self.density(items)
        return [next(v for (a, b), v in zip(own_cells, own_values) if a <= low and high <= b) for low, high in cells]

    def revealed(self, items: Sequence[int], cell: tuple) -> tuple:
        """The non-sensitive items of the set whose arc does not contain the cell (suWheel's step 5)."""
        return tuple(x for x in items if not self.is_sensitive[x] and not _inside(cell, self.arcs[x]))

    def channel(self, max_entries: int | None = None) -> PiecewiseChannel:
        """The exact channel over every set of ``m`` items: ``y0`` with its density, and the revealed items."""
        components = {}
        check_entries(comb(self.d, self.m), f"the channel on {count_text(comb(self.d, self.m))} sets of {self.m} items",
                      max_entries)  # before sorting the arcs' ends
        cells = self.cells(range(self.d))  # every item's arc is a union of cells: each count is decided per cell
        check_entries(comb(self.d, self.m) * len(cells), f"the channel on {count_text(comb(self.d, self.m))} sets of "
                      f"{self.m} items and {len(cells):,} cells", max_entries)  # before building: an output per cell
        for s in all_sets(self.d, self.m):
            values = self.density_on(s, cells)
            by_revealed = {}
            for k, cell in enumerate(cells):
                by_revealed.setdefault(self.revealed(s, cell), [ZERO] * len(cells))[k] = values[k]
            points = [cells[0][0], *(high for _, high in cells)]
            components[s] = {revealed: Density(points, part) for revealed, part in by_revealed.items()}
        channel = PiecewiseChannel(list(components), components, output_label=lambda revealed, cell: (cell, revealed))
        channel.explicit(max_entries)
        return channel

    def guarantee(self) -> Guarantee:
        """eps-LDP for Wheel (it reveals nothing). suWheel claims SULDP; it holds under the marginal reading of
        (11), the one Theorem 7's proof uses (``y0`` alone), with ``Y_pro`` every cell of ``y0``. On the whole release
        it does not: revealing the non-sensitive items whose arc misses ``y0`` tells which sets could not have
        produced ``(y0, R)`` (page "suWheel")."""
        if all(self.is_sensitive):
            return Guarantee("ldp", {"epsilon": self.epsilon})
        # y0's outputs are the cells: every set's density is positive on every cell (outside the arcs too)
        protected = sorted(cell_text(low, high) for low, high in self.cells(range(self.d)))
        return Guarantee(SUWHEEL_NOTION, {"sensitive_items": list(self.sensitive), "non_sensitive_items": None,
                                          "protected_outputs": protected, "epsilon": self.epsilon})

    # --- one user ---

    def draw_y0(self, items: Sequence[int], rng: random.Random) -> float:
        """``y0`` from the density: a cell with its mass, then a uniform point of it. Over the porting kit's stream,
        drawn from the exact density to ``draws.RELEASE_BITS`` binary digits."""
        key = tuple(items)
        if draws.is_stream(rng):
            cells, values = self.density(key)
            return draws.from_density(rng, Density([cells[0][0], *(high for _, high in cells)], values))
        if key not in self._float_cells:
            cells, values = self.density(key)
            self._float_cells[key] = ([float(low) for low, _ in cells], [float(high - low) for low, high in cells],
                                      [float(v * (high - low)) for v, (low, high) in zip(values, cells)])
        lows, widths, masses = self._float_cells[key]
        u, k = draws.unit(rng) * sum(masses), 0
        while k < len(masses) - 1 and u >= masses[k]:
            u -= masses[k]
            k += 1
        return lows[k] + draws.unit(rng) * widths[k]

    def perturb(self, items: Iterable[int], rng: random.Random) -> tuple:
        """One user's release ``(y0, R)``, with ``y0`` a float (its cell decides every count)."""
        items = user_set(items, self.d, self.m)
        y0 = self.draw_y0(items, rng)
        return y0, tuple(x for x in items if not self.is_sensitive[x] and not self.in_arc(y0, x))

    def in_arc(self, y, x: int) -> bool:
        """Whether ``y`` lies in the arc of item ``x``: a float point, or a cell of the exact channel (its label
        ``"[low, high)"``; the channel's cells lie inside or outside every arc)."""
        if isinstance(y, str):
            low, high = (exact_number(end.strip(), "y") for end in y[1:-1].split(","))  # "[low, high)"
            return _inside((low, high), self.arcs[x])
        if isinstance(y, Fraction):  # drawn over the porting kit's stream: compared exactly
            y = Exact.rational(y)
            return any(low <= y < high for low, high in self.arcs[x])
        return any(float(low) <= y < float(high) for low, high in self.arcs[x])

    def label(self, release: tuple, channel: PiecewiseChannel) -> tuple:
        """The output of the exact channel that a release ``(y0, R)`` with a float ``y0`` falls in."""
        y0, revealed = release
        return channel.output_at(tuple(revealed), y0)

    def counts(self, releases: Iterable[tuple]) -> list[int]:
        """``F_x``: users whose ``y0`` lies in the arc of ``h(x)`` (sensitive ``x``), or that reveal ``x``."""
        counts = [0] * self.d
        for y0, revealed in releases:
            for x in range(self.d):
                if self.is_sensitive[x]:
                    counts[x] += self.in_arc(y0, x)
            for x in revealed:
                counts[x] += 1
        return counts

    def estimate(self, counts: Sequence[int], n: int) -> list:
        """``(F_x - n p) / (P_true - p)`` (sensitive), ``F_x / r`` (non-sensitive), exactly."""
        if len(counts) != self.d:
            raise InvalidParameter(f"counts must have one entry per item ({self.d}), got {len(counts)}")
        number_of_users(n)
        return [(c - n * self.p) / (self.p_true - self.p) if self.is_sensitive[x] else c / self.r
                for x, c in enumerate(counts)]

    def arc_mass(self, items: Sequence[int], x: int) -> Exact:
        """``P[y0 in arc(h(x)) | s]``, exactly: the density of ``s`` integrated over the arc of ``x``."""
        return self.mass_on(items, self.arcs[x])

    def mass_on(self, items: Sequence[int], pieces: Iterable[tuple]) -> Exact:
        """``P[y0 in pieces | s]``, exactly, for disjoint intervals ``pieces`` of ``[0, 1)`` (an arc, say)."""
        cells, values = self.density(items)
        total = ZERO
        for low, high in pieces:
            for (a, b), value in zip(cells, values):  # the overlap of the piece [low, high) with each cell
                overlap_low, overlap_high = (a if a > low else low), (b if b < high else high)
                if overlap_low < overlap_high:
                    total = total + value * (overlap_high - overlap_low)
        return total

    def estimate_moments(self, item_sets: Sequence[Iterable[int]]) -> tuple[list, list]:
        """Exact mean and variance of every estimate, for this hash: ``F_x`` sums one Bernoulli variable per user,
        with ``P[y0 in arc(h(x)) | s]`` (sensitive ``x``) or ``r [x in s]`` (non-sensitive)."""
        sets = [user_set(s, self.d, self.m) for s in item_sets]
        means, variances = [], []
        for x in range(self.d):
            if self.is_sensitive[x]:
                probabilities = [self.arc_mass(s, x) for s in sets]
                scale, offset = 1 / (self.p_true - self.p), len(sets) * self.p
            else:
                probabilities = [self.r if x in s else ZERO for s in sets]
                scale, offset = 1 / self.r, ZERO
            mean = sum(probabilities, ZERO)
            means.append((mean - offset) * scale)
            variances.append(sum((b * (1 - b) for b in probabilities), ZERO) * scale * scale)
        return means, variances


class SuWheel(_WheelBase):
    """suWheel (Cao et al. Algorithms 1 and 2) with a fixed public hash ``hash_values``."""

    def __init__(self, epsilon, d: int, sensitive: Iterable[int], m: int, hash_values: Sequence | None = None):
        super().__init__(epsilon, d, sensitive, m, hash_values)

    @cached_property
    def twin(self) -> WheelTwin:
        return WheelTwin(self)


class Wheel(_WheelBase):
    """Wheel for sets (Wang et al. 2020): suWheel with every item sensitive, releasing ``y0`` alone; eps-LDP."""

    def __init__(self, epsilon, d: int, m: int, hash_values: Sequence | None = None):
        super().__init__(epsilon, domain_size(d), range(domain_size(d)), m, hash_values)

    @cached_property
    def twin(self) -> WheelTwin:
        return WheelTwin(self)


def _after(y, v) -> np.ndarray:
    """``(y - v) mod 1``: how far the point ``y`` of the circle lies after ``v``; the same doubles as
    ``np.mod(y - v, 1.0)``. For points of ``[0, 1)`` the difference lies in ``(-1, 1)`` and the modulo adds 1 to the
    negative ones, which is all this does there (it is several times faster than the general modulo)."""
    offset = np.subtract(y, v)
    if offset.size and not (offset.min() > -1 and offset.max() < 1):
        return np.mod(offset, 1.0)
    offset += offset < 0
    return offset


class WheelTwin:
    """Wheel and suWheel for many users at once, in floats. A report is ``y0`` and the revealed items as a bit mask
    over the ``d`` items (a NumPy record array with the fields ``y0`` and ``revealed``, the mask packed eight to a
    byte as by ``numpy.packbits``). The users are worked through in blocks (``reference.cao2022.sets.blocks``), so the
    temporary arrays stay small whatever the number of users."""

    def __init__(self, mechanism: _WheelBase):
        self.mechanism = mechanism
        self.hash = mechanism.hash_floats()
        self.p = float(mechanism.p)
        self.inside = float(mechanism.E / mechanism.omega)
        self.dtype = np.dtype([("y0", np.float64), ("revealed", np.uint8, ((mechanism.d + 7) // 8,))])
        self.non_sensitive = ~np.array(mechanism.is_sensitive)
        self.bit = np.uint8(128) >> (np.arange(mechanism.d) % 8).astype(np.uint8)  # item x's bit in byte x // 8

    def draw_y0(self, sets: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        """``y0`` for every user. With a user's hash points sorted around the circle, point ``i`` starts a covered
        piece of length ``c_i = min(g_i, p)`` (``g_i`` the gap to the next point) followed by an uncovered piece of
        length ``g_i - c_i``; ``l = sum c_i``. The user lands in the covered area with probability ``l e^eps / Omega``
        and then uniformly in it, otherwise uniformly in the rest: the density of eq. (8). The two uniform numbers of
        every user are drawn first, for all users; the rest is done block by block."""
        cover, target = rng.random(len(sets)), rng.random(len(sets))
        y0 = np.empty(len(sets))
        for block in blocks(len(sets), sets.shape[1]):
            y0[block] = self._y0(sets[block], cover[block], target[block])
        return y0

    def _y0(self, sets: np.ndarray, cover: np.ndarray, target: np.ndarray) -> np.ndarray:
        """``y0`` for a block of users, from their two uniform numbers (``draw_y0``)."""
        points = np.sort(self.hash[sets], axis=1)
        gaps = np.diff(points, axis=1, append=points[:, :1] + 1.0)
        covered = np.minimum(gaps, self.p)
        uncovered = gaps - covered
        length = covered.sum(axis=1)
        in_cover = cover < length * self.inside
        pieces = np.where(in_cover[:, None], covered, uncovered)
        starts = np.where(in_cover[:, None], points, points + covered)
        target = target * pieces.sum(axis=1)
        ends = np.cumsum(pieces, axis=1)
        piece = np.minimum((ends <= target[:, None]).sum(axis=1), sets.shape[1] - 1)
        rows = np.arange(len(sets))
        before = np.where(piece > 0, ends[rows, piece - 1], 0.0)
        return np.mod(starts[rows, piece] + (target - before), 1.0)

    def reports(self, item_sets, rng: np.random.Generator) -> np.ndarray:
        """Every user's ``y0`` and the non-sensitive items of its set whose arc does not contain it."""
        mechanism = self.mechanism
        sets = set_array(item_sets, mechanism.d, mechanism.m)
        reports = np.zeros(len(sets), dtype=self.dtype)
        reports["y0"] = self.draw_y0(sets, rng)
        y0, revealed = reports["y0"], reports["revealed"]
        for block in blocks(len(sets), mechanism.m):
            items = sets[block]
            shown = (_after(y0[block, None], self.hash[items]) >= self.p) & self.non_sensitive[items]
            bits, byte, mask = np.where(shown, self.bit[items], 0), items // 8, revealed[block]
            rows = np.arange(len(items))
            for k in range(mechanism.m):  # the k-th item of every row: no row's byte is written twice in one step
                mask[rows, byte[:, k]] |= bits[:, k]
        return reports

    def outputs(self, reports: np.ndarray) -> list[tuple]:
        """The releases ``(y0, R)``, ``y0`` a float."""
        masks = np.unpackbits(reports["revealed"], axis=1, count=self.mechanism.d).astype(bool)
        return [(float(y0), tuple(np.flatnonzero(mask).tolist())) for y0, mask in zip(reports["y0"], masks)]

    def counts(self, reports: np.ndarray) -> np.ndarray:
        """``F_x``: users whose ``y0`` lies in the arc of ``h(x)`` (sensitive), or revealing ``x``."""
        mechanism = self.mechanism
        counts = packed_bit_counts(reports["revealed"], mechanism.d)
        sensitive = np.array(mechanism.sensitive)
        in_arcs = np.zeros(len(sensitive), dtype=np.int64)
        y0 = reports["y0"]
        for block in blocks(len(y0), len(sensitive)):
            in_arcs += np.count_nonzero(_after(y0[block, None], self.hash[sensitive]) < self.p, axis=0)
        counts[sensitive] = in_arcs
        return counts

    def simulate_counts(self, population: Mapping, rng: np.random.Generator) -> np.ndarray:
        """The counts of ``population = {set: number of users}``, drawn from one report per user. Unlike the other
        mechanisms' simulations its cost grows with the number of users: a user's counts depend on where all its
        items' arcs lie, so users with different sets share nothing to aggregate."""
        mechanism = self.mechanism
        sets, users = population_arrays(population, mechanism.d, mechanism.m)
        if not users.sum():
            return np.zeros(mechanism.d, dtype=np.int64)
        sets = np.repeat(sets, users, axis=0)  # one row per user
        return self.counts(self.reports(sets, rng))

    def estimate(self, counts, n: int) -> np.ndarray:
        """The estimates of Algorithm 2 in floats."""
        number_of_users(n)
        mechanism = self.mechanism
        counts = np.asarray(counts, dtype=float)
        return np.where(np.array(mechanism.is_sensitive), (counts - n * self.p) / (float(mechanism.p_true) - self.p),
                        counts / float(mechanism.r))


HASH_VALUES = Parameter("hash-values", "numbers", "h(0), ..., h(d-1): the public hash, points of [0, 1) "
                        "(default x / d)", required=False)


_SOURCE = "Cao, Zhu, He, Zhang 2022, Sec. 4.3; Wang et al. PVLDB 2020"
MECHANISMS = (
    Mechanism(
        name="suwheel", title="suWheel: Wheel's y0 with the non-sensitive items outside its arc revealed",
        home="cao2022", source=_SOURCE, notion=SUWHEEL_NOTION,
        parameters=(EPSILON, DOMAIN_SIZE, SENSITIVE, SET_SIZE, HASH_VALUES), build=SuWheel, claims=(),
        docs="mechanisms/wheel.md",
        inputs="item-set", reports="parts",
        benchmark=Benchmark(workload=set_workload(SuWheel, sensitive=True), group="sets")),
    Mechanism(
        name="wheel", title="Wheel for sets: a point of the circle, denser on the arcs of the user's items",
        home="cao2022", source="Wang et al. PVLDB 2020; Cao et al. Sec. 2.3", notion="ldp",
        parameters=(EPSILON, DOMAIN_SIZE, SET_SIZE, HASH_VALUES), build=Wheel, claims=(),
        docs="mechanisms/wheel.md", inputs="item-set", reports="parts",
        benchmark=Benchmark(workload=set_workload(Wheel, sensitive=False), group="sets")),
)

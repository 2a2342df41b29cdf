"""IDUE-PS: IDUE for item sets with Padding-and-Sampling (Gu et al. Sec. VI, Algorithm 2).

1. ``v = PS(x, l)``: one item of the padded set (``reference.shared.ps``);
2. encode ``v`` as a one-hot vector over the ``m`` items and ``l`` dummies;
3. perturb every bit with its IDUE probabilities ``(a_k, b_k)``; the dummies use
   the parameters of the level whose budget is ``eps_d``.

Which bits the user releases the paper leaves open (the reading "release" on the
page of Gu et al.), so it is a parameter: ``release="all"`` sends all ``m + l`` bits,
``release="real"`` only the ``m`` real bits (the authors' simulation generates only these).

The server estimates real items only, scaled by ``l`` (Sec. VI-B):
``c_hat_i = l (C_i - n b_i) / (a_i - b_i)``. The scaling is exact when every set
has at most ``l`` items; a larger set samples each of its items with probability
``1/|x| < 1/l``, so its items are under-counted. ``estimate_moments`` gives the
exact mean and variance of every estimate for given data, bias included.

IDUE-PS claims MinID-LDP (or AvgID-LDP) with the item-set budgets of eq. (16) (Theorem 4).
OUE-PS and RAPPOR-PS, the paper's baselines, use the OUE and SUE parameters on every bit
and are eps-LDP.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import replace
from fractions import Fraction
from functools import cached_property, partial

import numpy as np

from ldpspec.reference.gu2020.idue import (
    SOLVER_PARAMETERS,
    check_solver_options,
    level_parameters,
    recorded_levels,
    solve_levels,
)
from ldpspec.reference.gu2020.levels import (
    NOTIONS_BY_PAIR_FUNCTION,
    PrivacyLevels,
    benchmark_levels,
    idue,
    levels_of,
    with_dummies,
)
from ldpspec.reference.mechanism import EPSILON, Benchmark, Guarantee, Mechanism
from ldpspec.reference.shared.estimators import bit_counts, count_estimate
from ldpspec.reference.shared.ps import padding_and_sampling, padding_and_sampling_many, padding_length, ps_distribution
from ldpspec.reference.shared.unary import UnaryEncoding, oue_probabilities, sue_probabilities
from ldpspec.reference.twin_sampling import packed_bit_counts, unpacked_rows
from ldpspec.reference.validation import MAX_DOMAIN, choice, item_set, number_of_users, positive_integer, user_count
from ldpspec.spec import (
    Exact,
    InvalidParameter,
    Nats,
    Parameter,
    SampledOneHot,
    budget,
    check_entries,
    count_text,
    exact_number,
    sequence,
)

RELEASES = ("all", "real")
"""Which bits an IDUE-PS user releases: all ``m + l``, or only the ``m`` real ones."""


def itemset_budget(item_budgets: Sequence, items: Iterable, padding: int, dummy_budget):
    """Eq. (16): ``eps_x = ln(eta_x / |x| * sum_{i in x} e^{eps_i} + (1 - eta_x) e^{eps_d})``,
    ``eta_x = |x| / max(|x|, l)``."""
    padding = padding_length(padding)
    items = item_set(items, len(item_budgets))
    size = len(items)
    eta = Fraction(size, max(size, padding))
    real = (eta / size) * sum((budget(item_budgets[i], f"budgets[{i}]").exponential() for i in items),
                              start=Exact.rational(0)) if size else 0
    return Nats.log(real + (1 - eta) * budget(dummy_budget, "dummy_budget").exponential())


class ItemSetBudgets(Mapping):
    """The budget (16) of every subset of the ``m`` items, computed when asked for."""

    def __init__(self, item_budgets: Sequence, padding: int, dummy_budget):
        self.item_budgets, self.padding, self.dummy_budget = tuple(item_budgets), padding, dummy_budget

    def __getitem__(self, items):
        return itemset_budget(self.item_budgets, items, self.padding, self.dummy_budget)

    def __iter__(self) -> Iterator:
        m = len(self.item_budgets)
        return (s for size in range(m + 1) for s in itertools.combinations(range(m), size))

    def __len__(self) -> int:
        return 2 ** len(self.item_budgets)


class IduePs:
    """IDUE-PS over ``m`` items with padding length ``l``.

    Args:
        encoding: unary encoding over the ``m + l`` bits (items, then dummies).
        m: the number of real items.
        padding: ``l``.
        release: ``"all"`` (every bit) or ``"real"`` (the ``m`` real bits only).
        guarantee: the notion it claims; built by ``idue_ps``, ``oue_ps`` and ``rappor_ps``.
    """

    # --- the plain reference ---

    def __init__(self, encoding: UnaryEncoding, m: int, padding: int, release: str = "all",
                 guarantee: Guarantee | None = None):
        self._shape(m, padding, release, guarantee)
        if encoding.d != self.m + self.padding:
            raise InvalidParameter(f"the encoding must have m + padding = {self.m + self.padding} bits, got "
                                   f"{encoding.d}")
        self.encoding = encoding

    def _shape(self, m: int, padding: int, release: str, guarantee: Guarantee | None) -> None:
        """``m``, ``padding``, ``release`` and the guarantee, checked: all that the size of the channel depends on."""
        self.m = positive_integer(m, "m (the number of items)", MAX_DOMAIN)
        self.padding = padding_length(padding)
        self.release = choice(release, RELEASES, "release")
        self._guarantee = guarantee

    @cached_property
    def twin(self) -> IduePsTwin:
        return IduePsTwin(self)

    @property
    def released_bits(self) -> int:
        return self.m + self.padding if self.release == "all" else self.m

    def channel(self, inputs: Sequence | None = None, max_entries: int | None = None) -> SampledOneHot:
        """The exact channel on the given item sets (default: every subset of the ``m`` items). It holds a sampling
        distribution and two probabilities per released bit for each input set; refused beyond ``max_entries``."""
        count = 2 ** self.m if inputs is None else len(sequence(inputs, "inputs"))
        check_entries(count * 3 * self.released_bits,
                      f"the channel of {self.released_bits} released bits on {count_text(count)} item sets",
                      max_entries)
        if inputs is None:
            inputs = [s for size in range(self.m + 1) for s in itertools.combinations(range(self.m), size)]
        inputs = [item_set(s, self.m) for s in inputs]
        released = range(self.released_bits)
        baseline = [(bit.not_q, bit.q) for bit in self.encoding.bits[: self.released_bits]]
        hot = [(bit.not_p, bit.p) for bit in self.encoding.bits[: self.released_bits]]
        weights = {s: {v: w for v, w in ps_distribution(s, self.padding, self.m).items() if v in released}
                   for s in inputs}
        return SampledOneHot(inputs, baseline, hot, weights)

    def guarantee(self) -> Guarantee:
        if self._guarantee is None:
            raise InvalidParameter("this IDUE-PS was built from a bare encoding and claims no notion; "
                                   "build it with idue_ps, oue_ps or rappor_ps")
        return self._guarantee

    def perturb(self, items: Iterable, rng: random.Random) -> tuple[int, ...]:
        """One user's report: sample ``v`` by PS, perturb ``e_v`` bit by bit, release the chosen bits."""
        v = padding_and_sampling(items, self.padding, self.m, rng)
        return self.encoding.perturb(v, rng)[: self.released_bits]

    def counts(self, reports: Sequence[Sequence[int]]) -> list[int]:
        """``C_k``: the number of reports with released bit ``k`` set."""
        return bit_counts(reports, self.released_bits)

    def estimate(self, bit_counts: Sequence[int], n: int) -> list:
        """``c_hat_i = l (C_i - n b_i) / (a_i - b_i)`` for the ``m`` real items (exact)."""
        if len(bit_counts) != self.released_bits:
            raise InvalidParameter(f"bit_counts must have one entry per released bit ({self.released_bits}), "
                                   f"got {len(bit_counts)}")
        number_of_users(n)
        return [self.padding * count_estimate(c, n, bit.p, bit.q)
                for c, bit in zip(bit_counts[: self.m], self.encoding.bits)]

    def estimate_moments(self, item_sets: Sequence[Iterable]) -> tuple[list, list]:
        """Exact ``E[c_hat_i]`` and ``Var[c_hat_i]`` for every real item, given every user's item set.

        User ``u`` sets bit ``i`` with probability ``s_u = b_i + pi_u (a_i - b_i)``,
        ``pi_u = P[v_u = i]`` (1/max(|x_u|, l) if ``i`` is in the set, else 0),
        independently across users, so ``C_i`` has mean ``sum_u s_u`` and variance
        ``sum_u s_u (1 - s_u)``.
        """
        samplings = [ps_distribution(s, self.padding, self.m) for s in item_sets]
        n = len(samplings)
        means, variances = [], []
        for i, bit in enumerate(self.encoding.bits[: self.m]):
            a, b = bit.p, bit.q
            probabilities = [b + exact_number(sampling.get(i, 0), "share") * (a - b) for sampling in samplings]
            means.append(self.padding * (sum(probabilities) - n * b) / (a - b))
            variances.append(self.padding ** 2 * sum(s * (1 - s) for s in probabilities) / (a - b) ** 2)
        return means, variances


class IduePsTwin:
    """IDUE-PS for many users at once: packed reports of the released bits."""

    def __init__(self, mechanism: IduePs):
        self.mechanism = mechanism
        self.released = mechanism.released_bits

    def reports(self, item_sets: Sequence[Iterable], rng: np.random.Generator) -> np.ndarray:
        """Packed reports (``ceil(released bits / 8)`` bytes per user)."""
        mechanism = self.mechanism
        hot = padding_and_sampling_many(item_sets, mechanism.padding, mechanism.m, rng)
        return mechanism.encoding.twin.packed(hot, self.released, rng)

    def outputs(self, reports: np.ndarray) -> list[tuple]:
        return unpacked_rows(reports, self.released)

    def counts(self, reports: np.ndarray) -> np.ndarray:
        return packed_bit_counts(reports, self.released)

    def simulate_counts(self, population: Mapping, rng: np.random.Generator) -> np.ndarray:
        """The released bit counts of the users of ``population = {item set: number of users}``, drawn directly.

        The hot bits are one multinomial per distinct item set; then ``C_k ~ Bin(H_k, a_k) + Bin(n - H_k, b_k)``.
        """
        mechanism = self.mechanism
        hot = np.zeros(mechanism.encoding.d, dtype=np.int64)
        n = 0
        for items, users in population.items():
            users = user_count(users, f"population[{items!r}]")
            distribution = ps_distribution(items, mechanism.padding, mechanism.m)
            support = sorted(distribution)
            hot[support] += rng.multinomial(users, [float(distribution[v]) for v in support])
            n += users
        a, b = mechanism.encoding.twin.a[: self.released], mechanism.encoding.twin.b[: self.released]
        return rng.binomial(hot[: self.released], a) + rng.binomial(n - hot[: self.released], b)

    def estimate(self, bit_counts, n: int) -> np.ndarray:
        """``c_hat_i = l (C_i - n b_i) / (a_i - b_i)`` for the real items, in floats."""
        number_of_users(n)
        m, twin = self.mechanism.m, self.mechanism.encoding.twin
        real_counts = np.asarray(bit_counts[:m], dtype=float)
        return self.mechanism.padding * count_estimate(real_counts, n, twin.a[:m], twin.b[:m])


def idue_ps(levels: PrivacyLevels, a: Sequence, b: Sequence, padding: int, *, dummy_level: int = 0,
            release: str = "all", r: str = "min") -> IduePs:
    """IDUE-PS with per-level ``(a_t, b_t)``; the dummies use level ``dummy_level`` (default 0, the smallest budget).

    ``PrivacyLevels`` sorts levels by budget, so level 0 has ``eps_d = min E``, the project's reading of the paper's
    choice of the dummy budget (its value is lost in the extracted text; see the page of Gu et al.).
    """
    padding = padding_length(padding)
    extended = with_dummies(levels, padding, dummy_level)
    return IduePs(idue(extended, a, b, r), levels.items, padding, release, _guarantee(levels, padding, dummy_level, r))


def _guarantee(levels: PrivacyLevels, padding: int, dummy_level: int, r: str) -> Guarantee:
    """MinID-LDP (or AvgID-LDP) with the item-set budgets (16), the dummies at level ``dummy_level``'s budget."""
    budgets = ItemSetBudgets(levels.item_budgets(), padding, levels.budgets[dummy_level])
    return Guarantee(NOTIONS_BY_PAIR_FUNCTION[r], {"budgets": budgets})


class SolvedIduePs(IduePs):
    """IDUE-PS with the per-level ``(a_t, b_t)`` that ``parameters()`` returns (a solver's, or its recorded output),
    with what was found (``metadata``, per level; ``solution()``, per real item), as ``SolvedIdue``.

    The solver runs when the parameters are first needed (``encoding``, ``metadata``), not when the mechanism is
    built: its exact channel lists every item set, so its size, which the items and the padding decide, is refused
    before any parameter is computed (``ldpspec channel idue-ps`` over 10^6 items solved and verified IDUE over all
    of them, for 12 s, only to refuse 2^1,000,000 item sets). The arguments are checked when it is built."""

    def __init__(self, levels: PrivacyLevels, padding: int, dummy_level: int, release: str, r: str,
                 parameters: Callable[[], tuple]):
        padding = padding_length(padding)
        self._extended = with_dummies(levels, padding, dummy_level)
        self._shape(levels.items, padding, release, _guarantee(levels, padding, dummy_level, r))
        self._r, self._parameters = r, parameters

    @cached_property
    def _solved(self) -> tuple[list, list]:
        return self._parameters()

    @cached_property
    def encoding(self) -> UnaryEncoding:
        """IDUE over the items and the dummies, with the solved parameters (``idue``)."""
        return idue(self._extended, *self._solved, self._r)

    @property
    def metadata(self) -> dict:
        a, b = self._solved
        return {"a": [v.text() for v in a], "b": [v.text() for v in b]}

    def solution(self) -> dict:
        """The parameters per real item, ``{"a": [...], "b": [...]}`` as exact texts: what ``build`` takes back as
        ``solution`` instead of solving again."""
        bits = self.encoding.bits[:self.m]
        return {"a": [bit.p.text() for bit in bits], "b": [bit.q.text() for bit in bits]}


def oue_ps(epsilon, m: int, padding: int, release: str = "all") -> IduePs:
    """OUE-PS: OUE on every bit, with Padding-and-Sampling."""
    eps = budget(epsilon, "epsilon")
    bits = oue_probabilities(eps.exponential())
    m = positive_integer(m, "m (the number of items)", MAX_DOMAIN)
    encoding = UnaryEncoding.uniform(bits, m + padding_length(padding))
    return IduePs(encoding, m, padding, release, Guarantee("ldp", {"epsilon": eps}))


def rappor_ps(epsilon, m: int, padding: int, release: str = "all") -> IduePs:
    """RAPPOR-PS: basic RAPPOR (SUE) on every bit, with Padding-and-Sampling."""
    eps = budget(epsilon, "epsilon")
    bits = sue_probabilities((eps / 2).exponential())
    m = positive_integer(m, "m (the number of items)", MAX_DOMAIN)
    encoding = UnaryEncoding.uniform(bits, m + padding_length(padding))
    return IduePs(encoding, m, padding, release, Guarantee("ldp", {"epsilon": eps}))


def solved_idue_ps(budgets: Sequence | None = None, levels: Sequence | None = None, model: str = "opt0",
                   r: str = "min", self_pairs: str = "all", box: str = "authors", starts: int = 8, seed: int = 0, *,
                   padding: int, dummy_level: int = 0, release: str = "all", solution: Mapping | None = None
                   ) -> SolvedIduePs:
    """IDUE-PS with the parameters a model finds for the items' levels (the mechanism ``idue-ps``).

    As Gu et al. Sec. VI-B, the objective counts the original items, and the constraints are those of the extended
    domain, (17): the dummies join level ``dummy_level``. With ``self_pairs="all"`` they add no constraint; with
    ``"multi-item"`` they add one when they join a level of one item. ``solution``: the solver's output recorded
    per real item, taken instead of solving (as for ``solved_idue``).
    """
    privacy_levels = levels_of(budgets, levels)
    extended = with_dummies(privacy_levels, padding_length(padding), dummy_level)
    if solution is not None:  # bad input is refused now; the parameters are found when first needed
        recorded_levels(privacy_levels, solution)
    else:
        check_solver_options(privacy_levels, model, r, self_pairs, box, extended=extended)
    return SolvedIduePs(privacy_levels, padding, dummy_level, release, r,
                        partial(level_parameters, privacy_levels, solution, model, r, self_pairs, box, starts, seed,
                                extended=extended))


# --- Declarations ----------------------------------------------------------------------------------------------

ITEMS = Parameter("m", "integer", "the number of items m >= 1 (the items are 0 .. m-1; a user holds a set of them)",
                  example="2", minimum=1, edges=lambda example: [("1", "single-item-sets")])
PADDING = Parameter("padding", "integer", "the padding length l >= 1", example="2", minimum=1,
                    edges=lambda example: [("1", "set-larger-than-padding")])
RELEASE = Parameter("release", "choice", "which bits the user releases: all m + l, or only the m real ones",
                    choices=RELEASES, required=False, default="all")
DUMMY_LEVEL = Parameter("dummy-level", "integer", "the privacy level whose parameters the dummies use, counted from "
                        "the smallest budget (0: eps_d = min E)", required=False, default="0", minimum=0)

_SET_CLAIMS = ("gu2020.lemma2", "gu2020.theorem4", "gu2020.ps-estimator")


def _sets(n: int, d: int, rng: np.random.Generator) -> list[tuple]:
    """``n`` users' item sets, drawn from a pool of 1000 random sets of 1 to 8 items of ``0 .. d-1``."""
    pool = [tuple(sorted(set(rng.integers(0, d, rng.integers(1, 9)).tolist()))) for _ in range(1000)]
    return [pool[k] for k in rng.integers(0, len(pool), n)]


def _idue_ps_workload(n: int, d: int, rng: np.random.Generator):
    levels = benchmark_levels(d)
    solution = solve_levels(levels)
    return idue_ps(levels, solution.a, solution.b, 4), _sets(n, d, rng)


def _baseline_workload(build):
    return lambda n, d, rng: (build(1, d, 4), _sets(n, d, rng))


MECHANISMS = (
    Mechanism(
        name="idue-ps", title="IDUE for item sets, with Padding-and-Sampling", home="gu2020",
        source="Gu et al. Sec. VI, Algorithm 2", notion="minid-ldp",
        parameters=tuple(replace(p, example={"levels": "[[1, 1], [2, 1]]"}.get(p.name)) for p in SOLVER_PARAMETERS)
        + (PADDING, DUMMY_LEVEL, RELEASE),
        build=solved_idue_ps, claims=_SET_CLAIMS + ("gu2020.theorem4.avgid", "gu2020.sec8-avgid.applicable"),
        docs="mechanisms/idue-ps.md", inputs="item-set", reports="bit-vector", solved=True,
        benchmark=Benchmark(workload=_idue_ps_workload, group="items")),
    Mechanism(
        name="oue-ps", title="OUE with Padding-and-Sampling (baseline)", home="gu2020",
        source="Gu et al. Sec. VII-B (Wang et al. 2018)", notion="ldp", parameters=(EPSILON, ITEMS, PADDING, RELEASE),
        build=oue_ps, claims=_SET_CLAIMS, docs="mechanisms/idue-ps.md", inputs="item-set", reports="bit-vector",
        benchmark=Benchmark(workload=_baseline_workload(oue_ps), group="items")),
    Mechanism(
        name="rappor-ps", title="Basic RAPPOR with Padding-and-Sampling (baseline)", home="gu2020",
        source="Gu et al. Sec. VII-B (Wang et al. 2018)", notion="ldp", parameters=(EPSILON, ITEMS, PADDING, RELEASE),
        build=rappor_ps, claims=_SET_CLAIMS, docs="mechanisms/idue-ps.md", inputs="item-set", reports="bit-vector",
        benchmark=Benchmark(workload=_baseline_workload(rappor_ps), group="items")),
)

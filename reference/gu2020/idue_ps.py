"""IDUE-PS: IDUE for item sets with Padding-and-Sampling (Gu et al. Sec. VI, Algorithm 2).

1. ``v = PS(x, l)``: one item of the padded set (``ldpspec.reference.shared.ps``);
2. encode ``v`` as a one-hot vector over the ``m`` items and ``l`` dummies;
3. perturb every bit with its IDUE probabilities ``(a_k, b_k)``; the dummies use
   the parameters of the level whose budget is ``eps_d``.

Which bits the user releases is ambiguity A3 of the formula sheet, so it is a
parameter: ``release="all"`` sends all ``m + l`` bits (reading (i)),
``release="real"`` only the ``m`` real bits (reading (ii); the authors'
simulation generates only these).

The server estimates real items only, scaled by ``l`` (Sec. VI-B):
``c_hat_i = l (C_i - n b_i) / (a_i - b_i)``. The scaling is exact when every set
has at most ``l`` items; a larger set samples each of its items with probability
``1/|x| < 1/l``, so its items are under-counted. ``estimate_moments`` gives the
exact mean and variance of every estimate for given data, bias included.

OUE-PS and RAPPOR-PS (the paper's baselines) use the OUE and SUE parameters on
every bit.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterable, Sequence

from ldpspec.reference.shared.estimators import count_estimate
from ldpspec.reference.gu2020.idue import PrivacyLevels, idue
from ldpspec.reference.shared.ps import item_set, padding_and_sampling, padding_length, ps_distribution
from ldpspec.reference.shared.unary import UnaryEncoding, oue_probabilities, sue_probabilities
from ldpspec.spec.errors import InvalidParameter
from ldpspec.spec.numbers import budget, ctx, exact
from ldpspec.spec.structured import SampledOneHot

RELEASES = ("all", "real")


class IduePs:
    """IDUE-PS over ``m`` items with padding length ``l``.

    Args:
        encoding: unary encoding over the ``m + l`` bits (items, then dummies).
        m: the number of real items.
        padding: ``l``.
        release: ``"all"`` (every bit) or ``"real"`` (the ``m`` real bits only).
    """

    def __init__(self, encoding: UnaryEncoding, m: int, padding: int, release: str = "all"):
        self.padding = padding_length(padding)
        if encoding.d != m + self.padding:
            raise InvalidParameter(f"the encoding must have m + padding = {m + self.padding} bits, got {encoding.d}")
        if release not in RELEASES:
            raise InvalidParameter(f"release must be one of {RELEASES}, got {release!r}")
        self.encoding, self.m, self.release = encoding, m, release

    @property
    def released_bits(self) -> int:
        return self.encoding.d if self.release == "all" else self.m

    def perturb(self, items: Iterable, rng: random.Random) -> tuple[int, ...]:
        """One user's report: sample ``v`` by PS, perturb ``e_v`` bit by bit, release the chosen bits."""
        v = padding_and_sampling(items, self.padding, self.m, rng)
        return self.encoding.perturb(v, rng)[: self.released_bits]

    def channel(self, inputs: Sequence | None = None) -> SampledOneHot:
        """The exact channel on the given item sets (default: every subset of the ``m`` items)."""
        if inputs is None:
            inputs = [s for size in range(self.m + 1) for s in itertools.combinations(range(self.m), size)]
        inputs = [item_set(s, self.m) for s in inputs]
        released = range(self.released_bits)
        baseline = [(bit.not_q, bit.q) for bit in self.encoding.bits[: self.released_bits]]
        hot = [(bit.not_p, bit.p) for bit in self.encoding.bits[: self.released_bits]]
        weights = {s: {v: w for v, w in ps_distribution(s, self.padding, self.m).items() if v in released}
                   for s in inputs}
        return SampledOneHot(inputs, baseline, hot, weights)

    def estimate(self, bit_counts: Sequence[int], n: int) -> list[float]:
        """``c_hat_i = l (C_i - n b_i) / (a_i - b_i)`` for the ``m`` real items."""
        if len(bit_counts) < self.m:
            raise InvalidParameter(f"bit_counts must cover the {self.m} real items, got {len(bit_counts)}")
        return [self.padding * count_estimate(c, n, float(bit.p), float(bit.q))
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
            probabilities = [b + exact(sampling.get(i, 0), "share") * (a - b) for sampling in samplings]
            means.append(self.padding * (sum(probabilities) - n * b) / (a - b))
            variances.append(self.padding ** 2 * sum(s * (1 - s) for s in probabilities) / (a - b) ** 2)
        return means, variances


def idue_ps(levels: PrivacyLevels, a: Sequence, b: Sequence, padding: int, *, dummy_level: int = 0,
            release: str = "all") -> IduePs:
    """IDUE-PS with per-level ``(a_t, b_t)``; the dummies use level ``dummy_level`` (default 0, the smallest budget).

    ``PrivacyLevels`` sorts levels by budget, so level 0 has ``eps_d = min E``,
    the sheet's reading of the paper's choice of the dummy budget.
    """
    if not isinstance(dummy_level, int) or not 0 <= dummy_level < levels.count:
        raise InvalidParameter(f"dummy_level must be a level index in [0, {levels.count - 1}], got {dummy_level!r}")
    padding = padding_length(padding)
    extended = PrivacyLevels(levels.budgets, tuple(size + (padding if t == dummy_level else 0)
                                                   for t, size in enumerate(levels.sizes)),
                             levels.item_levels + (dummy_level,) * padding)
    return IduePs(idue(extended, a, b), levels.items, padding, release)


def oue_ps(epsilon, m: int, padding: int, release: str = "all") -> IduePs:
    """OUE-PS: OUE on every bit, with Padding-and-Sampling."""
    bits = oue_probabilities(ctx.exp(budget(epsilon, "epsilon")))
    return IduePs(UnaryEncoding.uniform(bits, m + padding_length(padding)), m, padding, release)


def rappor_ps(epsilon, m: int, padding: int, release: str = "all") -> IduePs:
    """RAPPOR-PS: basic RAPPOR (SUE) on every bit, with Padding-and-Sampling."""
    bits = sue_probabilities(ctx.exp(budget(epsilon, "epsilon") / 2))
    return IduePs(UnaryEncoding.uniform(bits, m + padding_length(padding)), m, padding, release)


def itemset_budget(item_budgets: Sequence, items: Iterable, padding: int, dummy_budget):
    """Eq. (16): ``eps_x = ln(eta_x / |x| * sum_{i in x} e^{eps_i} + (1 - eta_x) e^{eps_d})``, ``eta_x = |x| / max(|x|, l)``."""
    padding = padding_length(padding)
    items = item_set(items, len(item_budgets))
    size = len(items)
    eta = ctx.mpf(size) / max(size, padding)
    real = (eta / size) * sum(ctx.exp(exact(item_budgets[i], f"budgets[{i}]")) for i in items) if size else 0
    return ctx.log(real + (1 - eta) * ctx.exp(budget(dummy_budget, "dummy_budget")))

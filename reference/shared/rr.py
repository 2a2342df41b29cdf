"""Binary randomised response (Warner 1965), as Gu et al. use it in Sec. III-C.

The user holds a bit and reports the true bit with probability ``p = e^eps / (1 + e^eps)``, the other bit otherwise.
With ``f`` the observed frequency of 1s among ``n`` reports, ``E[f] = (2p - 1) f* + (1 - p)`` for the true
frequency ``f*``, so the frequency of true 1s is estimated by (as printed in the slides of Gu et al.)

    f_hat = (f - (1 - p)) / (2p - 1),

with ``Var[f_hat] = p (1 - p) / (n (2p - 1)^2)`` (every report is 1 with probability ``p`` or ``1 - p``, and
``p (1 - p)`` is the same for both). Binary RR is GRR on two items (``reference.shared.grr`` with ``d = 2``).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import cached_property

import numpy as np

from ldpspec.reference import plain_draws as draws
from ldpspec.reference.mechanism import EPSILON, Benchmark, Guarantee, Mechanism
from ldpspec.reference.shared.estimators import item_counts
from ldpspec.reference.twin_sampling import ITEMS_PER_CHUNK, ExactBernoulli, count_items, item_reports, put_items
from ldpspec.reference.validation import count_array, item_index, number_of_users
from ldpspec.spec import Channel, Exact, InvalidParameter, budget, check_entries, value_text


def rr_keep_probability(E):
    """``p = E / (1 + E)`` at ``E = e^eps``."""
    return E / (1 + E)


class RandomizedResponse:
    """Binary randomised response with budget ``epsilon``: inputs and outputs are the bits 0 and 1."""

    # --- the plain reference ---

    def __init__(self, epsilon):
        self.epsilon = budget(epsilon, "epsilon")
        E = self.epsilon.exponential()
        self.d = 2  # the items are the bits 0 and 1
        self.p = rr_keep_probability(E)
        self.flip = 1 / (1 + E)  # 1 - p, without the subtraction that loses every digit at a large budget

    @cached_property
    def twin(self) -> RandomizedResponseTwin:
        return RandomizedResponseTwin(self)

    def channel(self, max_entries: int | None = None) -> Channel:
        """The exact channel on the bits 0 and 1."""
        check_entries(4, "binary randomised response's channel", max_entries)
        return Channel((0, 1), (0, 1), [[self.p, self.flip], [self.flip, self.p]])

    def guarantee(self) -> Guarantee:
        return Guarantee("ldp", {"epsilon": self.epsilon})

    def perturb(self, bit: int, rng: random.Random) -> int:
        """One user's report: the true bit with probability ``p``, else the other bit."""
        bit = item_index(bit, 2, "bit")
        return bit if draws.coin(rng, self.p) else 1 - bit

    def counts(self, outputs: Sequence[int]) -> list[int]:
        """``[number of 0s, number of 1s]`` among the reports."""
        return item_counts(outputs, 2, "a report")

    def _check_estimable(self, n) -> None:
        if self.epsilon == 0:
            raise InvalidParameter("epsilon must be > 0 to estimate: at 0 the reports carry no information")
        number_of_users(n)

    def estimate(self, counts: Sequence[int], n: int) -> list:
        """``[f_hat]``, the estimated frequency of true 1s, from the counts of 0s and 1s (exact)."""
        self._check_estimable(n)
        if len(counts) != 2:
            raise InvalidParameter(f"counts must be [number of 0s, number of 1s], got {value_text(list(counts))}")
        f = Exact.rational(counts[1]) / n
        return [(f - self.flip) / (2 * self.p - 1)]

    def estimate_moments(self, bits: Sequence[int]) -> tuple[list, list]:
        """Exact mean and variance of ``f_hat`` for users holding ``bits``: ``f*`` and ``p(1-p)/(n(2p-1)^2)``."""
        n = len(bits)
        self._check_estimable(n)
        true_frequency = Exact.rational(item_counts(bits, 2, "a user's bit")[1]) / n
        return [true_frequency], [self.p * self.flip / (n * (2 * self.p - 1) ** 2)]


class RandomizedResponseTwin:
    """Binary randomised response for many users at once."""

    def __init__(self, mechanism: RandomizedResponse):
        self.mechanism = mechanism
        self._keep = ExactBernoulli([float(mechanism.p)])

    def reports(self, bits, rng: np.random.Generator) -> np.ndarray:
        """One report per user: the true bit with probability ``p``, else the other, packed eight to a byte."""
        bits = np.asarray(bits)
        if bits.ndim != 1 or (bits.size and (not np.issubdtype(bits.dtype, np.integer)
                                             or not np.isin(bits, (0, 1)).all())):
            raise InvalidParameter("bits must be a one-dimensional array of 0s and 1s")
        reports = item_reports(len(bits), 2)  # one bit each, packed eight to a byte
        for start in range(0, len(bits), ITEMS_PER_CHUNK):
            chunk = bits[start:start + ITEMS_PER_CHUNK]
            keep = self._keep.draw_columns(len(chunk), rng)[:, 0]
            put_items(reports, start, np.where(keep, chunk, 1 - chunk).astype(np.uint8))
        return reports

    def outputs(self, reports) -> list[int]:
        return np.asarray(reports).tolist()

    def counts(self, reports) -> np.ndarray:
        return count_items(reports, 2)

    def simulate_counts(self, true_counts, rng: np.random.Generator) -> np.ndarray:
        """``[C_0, C_1]`` of users holding ``true_counts = [c_0, c_1]``: each group keeps its bit ``Bin(c, p)``
        times."""
        c0, c1 = count_array(true_counts, 2)
        kept0, kept1 = rng.binomial(c0, float(self.mechanism.p)), rng.binomial(c1, float(self.mechanism.p))
        ones = kept1 + (c0 - kept0)
        return np.array([c0 + c1 - ones, ones], dtype=np.int64)

    def estimate(self, counts, n: int) -> np.ndarray:
        """``[f_hat]`` in floats."""
        self.mechanism._check_estimable(n)
        p, flip = float(self.mechanism.p), float(self.mechanism.flip)
        return np.array([(counts[1] / n - flip) / (2 * p - 1)])


def _workload(n: int, d: int, rng: np.random.Generator):
    return RandomizedResponse(1), rng.integers(0, 2, n)


MECHANISMS = (
    Mechanism(
        name="rr", title="Binary randomised response", home="shared",
        source="Warner 1965; Gu et al. Sec. III-C", notion="ldp", parameters=(EPSILON,), build=RandomizedResponse,
        claims=(), docs="mechanisms/grr.md", inputs="item", reports="item",
        benchmark=Benchmark(workload=_workload, group="items")),
)

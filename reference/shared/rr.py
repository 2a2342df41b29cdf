"""Binary randomised response (Warner); formula sheet common §5.

The user reports the true bit with probability ``p = e^eps / (1 + e^eps)`` and
the opposite bit otherwise. With ``f`` the observed frequency of 1s, the
frequency of true 1s is estimated by ``(f - (1 - p)) / (2p - 1)`` (as printed
in the slides of Gu et al.).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from ldpspec.spec.channel import Channel
from ldpspec.spec.errors import InvalidParameter
from ldpspec.spec.numbers import budget, ctx


def rr_keep_probability(E):
    """``p = E / (1 + E)`` at ``E = e^eps``."""
    return E / (1 + E)


def rr_channel(epsilon) -> Channel:
    """The exact channel on the bits 0 and 1."""
    E = ctx.exp(budget(epsilon, "epsilon"))
    p, flip = rr_keep_probability(E), 1 / (1 + E)
    return Channel((0, 1), (0, 1), [[p, flip], [flip, p]])


def rr_perturb(bit: int, epsilon, rng: random.Random) -> int:
    """One user's report: the true bit with probability ``p``, else the other bit."""
    if bit not in (0, 1):
        raise InvalidParameter(f"bit must be 0 or 1, got {bit!r}")
    p = float(rr_keep_probability(ctx.exp(budget(epsilon, "epsilon"))))
    return bit if rng.random() < p else 1 - bit


def rr_estimate(reports: Sequence[int], epsilon) -> float:
    """The estimated frequency of true 1s: ``(f - (1 - p)) / (2p - 1)``, ``f`` the frequency of reported 1s."""
    eps = budget(epsilon, "epsilon")
    if eps == 0:
        raise InvalidParameter("epsilon must be > 0 to estimate: at 0 the reports carry no information")
    if not reports:
        raise InvalidParameter("reports must not be empty")
    p = float(rr_keep_probability(ctx.exp(eps)))
    f = sum(reports) / len(reports)
    return (f - (1 - p)) / (2 * p - 1)

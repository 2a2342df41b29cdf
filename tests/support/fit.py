"""Goodness of fit: how a sampler is tied to the exact channel it claims.

Exact count distributions, exact moments of estimators and the rows of a channel are the audit's own helpers
(``ldpspec.verify.common``: ``count_distribution``, ``count_moments``, ``exact_moments`` and ``channel_row``).

Goodness-of-fit tests use fixed seeds and a significance level of 1e-6, so they are deterministic and fail only for
a real mismatch.
"""

from __future__ import annotations

from collections import Counter

import numpy as np
from scipy.stats import chisquare

ALPHA = 1e-6
SAMPLES = 30000


def assert_fits(observed: Counter, expected: dict):
    """Pearson chi-square of observed outcomes against exact probabilities; impossible outcomes must not occur."""
    impossible = [y for y in observed if expected.get(y, 0) == 0]
    assert not impossible, f"outcomes with probability 0 were drawn: {impossible[:3]}"
    outcomes = [y for y, p in expected.items() if p > 0]
    f_obs = np.array([observed.get(y, 0) for y in outcomes], dtype=float)
    f_exp = np.array([float(expected[y]) for y in outcomes]) * f_obs.sum()
    assert chisquare(f_obs, f_exp).pvalue > ALPHA


def labelled(mechanism, channel, releases) -> Counter:
    """Releases as the exact channel's outputs: a mechanism whose channel has densities says, with
    ``label(release, channel)``, which output of the exact channel (a cell) each release (a point) falls in."""
    if channel.has_densities:
        return Counter(mechanism.label(release, channel) for release in releases)
    return Counter(releases)

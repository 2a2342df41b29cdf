"""Goodness of fit and exact count distributions: how a sampler is tied to the exact channel it claims.

Exact moments of estimators and the rows of a channel are the audit's own helpers
(``ldpspec.verify.common.exact_moments`` and ``channel_row``).

Goodness-of-fit tests use fixed seeds and a significance level of 1e-6, so they are deterministic and fail only for
a real mismatch.
"""

from __future__ import annotations

import itertools
from collections import Counter

import numpy as np
from scipy.stats import chisquare

from ldpspec.spec.structured import StructuredChannel

ALPHA = 1e-6
SAMPLES = 30000


def explicit(channel):
    return channel.explicit() if isinstance(channel, StructuredChannel) else channel


def assert_fits(observed: Counter, expected: dict):
    """Pearson chi-square of observed outcomes against exact probabilities; impossible outcomes must not occur."""
    impossible = [y for y in observed if expected.get(y, 0) == 0]
    assert not impossible, f"outcomes with probability 0 were drawn: {impossible[:3]}"
    outcomes = [y for y, p in expected.items() if p > 0]
    f_obs = np.array([observed.get(y, 0) for y in outcomes], dtype=float)
    f_exp = np.array([float(expected[y]) for y in outcomes]) * f_obs.sum()
    assert chisquare(f_obs, f_exp).pvalue > ALPHA


def exact_count_distribution(rows: list[dict], count) -> dict:
    """Distribution of the summed count vectors of independent users whose outputs follow ``rows``."""
    distribution = {(): 1}
    for row in rows:
        updated = Counter()
        for partial, p in distribution.items():
            for y, q in row.items():
                if q > 0:
                    key = tuple(a + b for a, b in itertools.zip_longest(partial, count(y), fillvalue=0))
                    updated[key] += p * q
        distribution = dict(updated)
    return distribution


def labelled(mechanism, channel, releases) -> Counter:
    """Releases as the exact channel's outputs: a mechanism with continuous releases (a float point) says, with
    ``label(release, channel)``, which output of the exact channel (a cell) each falls in."""
    label = getattr(mechanism, "label", None)
    return Counter(label(release, channel) for release in releases) if label else Counter(releases)

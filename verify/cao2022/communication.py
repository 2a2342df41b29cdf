"""Cao et al. (2022), Table 3: each mechanism's communication cost, against the size of its release.

A user's report must let the server compute its counts exactly. Its cost is measured as ``log2 |Y|``, the length of
the shortest fixed-length code for the releases the mechanism can produce (``Y``: the outputs of its exact channel),
counted by formula here at any size (``release_bits``; the tests check the counts against the exact channels on
small domains). A row ``O(T)`` holds when ``log2 |Y| / T`` stays bounded along every axis: sizes grow as
logarithms, so the ratio is compared at ``t`` and ``t^2``, where a ratio of logarithms doubles.

Wheel's and suWheel's ``y0`` is a point of ``[0, 1)``: what the server needs of it is its cell between the arcs' end
points. How many cells there are depends on where the hash values lie, which the paper does not say (reading
``y0_precision``): anywhere (the default hash ``h(x) = x / d``: up to ``2d`` cells), or on the grid of multiples of
``p`` (at most ``floor(1/p) + 1`` cells).
"""

from __future__ import annotations

import math

from ldpspec.reference.cao2022.wheel import wheel_parameters
from ldpspec.verify.cao2022.privacy import exhaustive_step
from ldpspec.verify.cao2022.readings import Y0_PRECISION
from ldpspec.verify.claims import AuditSettings, builds, claim, decide


@builds(Y0_PRECISION, constructs=("wheel_parameters",))
def wheel_cells(d: int, m: int, eps: float, *, y0_precision: str) -> int:
    """The cells of ``[0, 1)`` between every item's arc ends, which the server needs of Wheel's and suWheel's ``y0``
    (Table 3, Sec. 4.4), as ``y0_precision`` reads where the hash values lie: the hash ``x / d`` (2d cells, as ``p``
    is irrational for eps > 0 and the arcs' ends ``x/d + p`` never meet the points ``y/d``), or hash values on
    multiples of ``p``."""
    p = wheel_parameters(math.exp(eps), m)[0]
    if y0_precision == "grid":
        return min(d, math.floor(1 / p)) + 1
    return 2 * d


def _log2_comb(n: int, r: int) -> float:
    return (math.lgamma(n + 1) - math.lgamma(r + 1) - math.lgamma(n - r + 1)) / math.log(2)


def _log2_sum(logs: list[float]) -> float:
    """``log2`` of a sum of terms given by their ``log2``."""
    top = max(logs)
    return top + math.log2(sum(2 ** (v - top) for v in logs))


def release_bits(name: str, d: int, k: int, m: int, eps: float, precision: str | None = None) -> float:
    """``log2 |Y|``: the releases of each mechanism, counted; Wheel's and suWheel's ``y0`` under ``precision`` (a
    value of ``y0_precision``; the running reading's when not given, through ``wheel_cells``)."""
    revealable = d - k
    if name == "GRR":  # the multiset of m outputs
        return _log2_comb(d + m - 1, m)
    if name in ("GRR-Sample", "suGRR-Sample"):  # one item (sensitive output or revealed item)
        return math.log2(d)
    if name in ("RAPPOR", "RAPPOR-Sample", "suRAP", "suRAP-Sample"):  # a vector of d bits
        return float(d)
    if name == "suGRR":  # a multiset of m - t sensitive outputs and t revealed items
        return _log2_sum([_log2_comb(k + m - t - 1, m - t) + _log2_comb(revealable, t)
                          for t in range(min(m, revealable) + 1)])
    cells = wheel_cells(d, m, eps) if precision is None else wheel_cells(d, m, eps, y0_precision=precision)
    if name == "Wheel":
        return math.log2(cells)
    return math.log2(cells) + _log2_sum([_log2_comb(revealable, t) for t in range(min(m, revealable) + 1)])


def printed_bits(name: str, d: int, k: int, m: int, eps: float, hashes: int = 1) -> float:
    """Table 3's row as printed (``|H|`` the number of hash functions, ``t`` the revealed items, at most
    ``min(m, d - k)``), plus 1 so that a vanishing term such as ``log(m e^eps)`` at ``m = 1, eps -> 0`` stays a
    bound on at least one bit."""
    log_d, t = math.log2(d), min(m, d - k)
    wheel = math.log2(m) + eps / math.log(2) + math.log2(hashes)
    rows = {"GRR": m * log_d, "GRR-Sample": log_d, "RAPPOR": d, "RAPPOR-Sample": d, "Wheel": wheel,
            "suGRR": m * log_d, "suGRR-Sample": log_d, "suRAP": d, "suRAP-Sample": d, "suWheel": wheel + t * log_d}
    return 1 + rows[name]


ROWS = ("GRR", "GRR-Sample", "RAPPOR", "RAPPOR-Sample", "Wheel", "suGRR", "suGRR-Sample", "suRAP", "suRAP-Sample",
        "suWheel")
AXES = {
    r"\(d \to \infty\) (\(k = d/4\), \(m = 4\), \(\varepsilon = 1\))": lambda t: (t, t // 4, 4, 1.0),
    r"\(m \to \infty\) (\(d = 64m\), \(k = 16m\), \(\varepsilon = 1\))": lambda t: (64 * t, 16 * t, t, 1.0),
    r"\(\varepsilon \to \infty\) (\(d = 256\), \(k = 64\), \(m = 8\))": lambda t: (256, 64, 8, float(t)),
    r"\(\varepsilon \to 0\) (\(d = 256\), \(k = 64\), \(m = 8\))": lambda t: (256, 64, 8, 1 / t),
}
GROWING = 1.5
"""A ratio that grows by this factor while t is squared grows without bound: a ratio of logarithms grows by 2 (as
``log t`` does) and one that tends to a constant changes by a few per cent."""


@claim("cao2022.table3", location="Sec. 4.4, Table 3",
       statement=r"Communication cost: GRR \(O(m \log d)\), GRR-Sample \(O(\log d)\), RAPPOR and RAPPOR-Sample "
                 r"\(O(d)\), Wheel \(O(\log(m e^{\varepsilon}) + \log |H|)\), suGRR \(O(m \log d)\), suGRR-Sample "
                 r"\(O(\log d)\), suRAP and suRAP-Sample \(O(d)\), suWheel \(O(\log(m e^{\varepsilon}) + t \log d + "
                 r"\log |H|)\); suWheel's cost is slightly higher than suGRR-Sample's but acceptable.",
       methods=("computation",),
       recorded={"y0_precision=cells": "refuted", "y0_precision=grid": "verified"},
       interpretation="Cost: log2 of the number of distinct releases (the shortest fixed-length code that keeps the "
                      r"server's counts exact), with one public hash (\(|H| = 1\)). A row holds when the cost divided "
                      r"by the printed order stays bounded along every axis (\(d\); \(m\) with \(d = 64m\); "
                      r"\(\varepsilon\) growing; \(\varepsilon \to 0\)). 'Slightly higher but acceptable' is not a "
                      "checkable statement and is not checked.",
       choices=(Y0_PRECISION,))
def table3(settings: AuditSettings, *, y0_precision: str):
    t1 = 2 ** 8 if settings.deep else 2 ** 6

    def failure(name):
        for axis, at in AXES.items():
            points = (t1, t1 * t1) if not axis.startswith(r"\(\varepsilon") else (8, 64)
            ratios = [release_bits(name, *at(t), y0_precision) / printed_bits(name, *at(t)) for t in points]
            if ratios[1] >= GROWING * ratios[0]:
                d, k, m, eps = at(points[1])
                return {"mechanism": name, "axis": axis, "t": list(points), "ratio": [round(r, 4) for r in ratios],
                        "at_largest": {"d": d, "sensitive_items": k, "m": m,
                                                                       "epsilon": eps,
                                                                       "release_bits": release_bits(name, d, k, m, eps,
                                                                                                    y0_precision),
                                                                       "printed_bits": printed_bits(name, d, k, m,
                                                                                                    eps)}}
        return None

    steps = [exhaustive_step(rf"each row of Table 3 along each axis, \(t\) from {t1} to {t1 * t1} (\(\varepsilon\) "
                             "from 8 to 64, and from 1/8 to 1/64)", list(ROWS), failure)]
    return decide(steps, "Every row bounds the release's size along every axis.",
                  "A row does not bound the release's size.")

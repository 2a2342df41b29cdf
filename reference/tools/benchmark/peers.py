"""The reference points the benchmark writes itself, and the names of the libraries it measures.

The peer libraries' per-user clients are not here: a mechanism that a peer library implements declares the peer's
client in its own module (``Benchmark.peers``), and the benchmark measures the peer exactly there. What stays here is
what no mechanism declares:

* **Harmony and PM in plain NumPy** (``numpy-plain``), written from their papers: no package the registries hold
  implements a mean estimator for numbers (pure-ldp, multi-freq-ldpy and ldp-toolbox 0.1.3 have frequency oracles
  only), so these are the reference points of the mechanisms for numbers;
* **multi-freq-ldpy's estimators** ``MI`` and ``IBU``, given GRR's counts, beside our estimators of a direct
  encoding.
"""

from __future__ import annotations

import numpy as np

from ldpspec.reference.registry import MECHANISMS

EPSILON = 1.0
"""The budget of the peers' clients and of the plain NumPy versions, as in every workload."""
OURS = "ldpspec"
"""Our library: the twins of the registered mechanisms."""
PLAIN = "numpy-plain"
"""The plain NumPy versions written here."""
PLAIN_MECHANISMS = ("harmony", "pm")
"""The registered mechanisms that have a plain NumPy version here."""
PEER_ESTIMATORS = {"multi-freq-ldpy": ("mi", "ibu")}
"""The peers' GRR estimators, given the same GRR counts as ours."""
ESTIMATOR_BASELINE = "grr"
"""The registered mechanism whose counts the peers' estimators are given (GRR at eps = 1, as the peers' clients)."""
PEER_IBU_ITERATIONS = 100
"""The cap on multi-freq-ldpy's IBU iterations (each multiplies the dense d x d matrix twice)."""


def peer_libraries() -> tuple[str, ...]:
    """The peer libraries: those a registered mechanism declares (``Benchmark.peers``) and those whose estimators are
    measured, sorted."""
    declared = {library for mechanism in MECHANISMS.values() for library in mechanism.benchmark.peers}
    return tuple(sorted(declared | set(PEER_ESTIMATORS)))


def libraries() -> tuple[str, ...]:
    """Every library the benchmark can measure: ours, the peers, the plain NumPy versions."""
    return (OURS, *peer_libraries(), PLAIN)


def plain_numpy(name: str, values: np.ndarray):
    """Harmony or PM as its paper states it, in plain NumPy at eps = ``EPSILON``: a function that makes one release
    per user of ``values`` (numbers of [-1, 1])."""
    rng = np.random.default_rng(2)
    if name == "harmony":  # Nguyen et al.: discretise, randomised response, calibrate
        e = np.exp(EPSILON)
        scale = (e + 1) / (e - 1)

        def release():
            bits = np.where(rng.random(len(values)) < (1 + values) / 2, 1.0, -1.0)
            return np.where(rng.random(len(values)) < e / (e + 1), bits, -bits) * scale
        return release
    half = np.exp(EPSILON / 2)  # Wang et al. 2019, Algorithm 2
    C = (half + 1) / (half - 1)

    def release():
        low = (C + 1) / 2 * values - (C - 1) / 2
        high = low + C - 1
        centre = rng.random(len(values)) < half / (half + 1)
        inside = low + (high - low) * rng.random(len(values))
        left = rng.random(len(values)) < (low + C) / (C + 1)  # which tail, by its length
        u = rng.random(len(values))
        tail = np.where(left, -C + (low + C) * u, high + (C - high) * u)
        return np.where(centre, inside, tail)
    return release


def peer_estimator(library: str, mode: str, mechanism, counts: np.ndarray, n: int, d: int):
    """The peer's GRR estimator ``mode`` on the counts of GRR's reports (``mechanism``, over ``d`` items, ``n``
    users): ``(operation, what to record beside its time)``, or ``None`` when the library has no such estimator.
    IBU's dense matrix is made, and IBU compiled (numba), before the operation."""
    if mode not in PEER_ESTIMATORS.get(library, ()):
        return None
    from multi_freq_ldpy.estimators.Histogram_estimator import IBU, MI

    p, q = float(mechanism.p), float(mechanism.q)
    observed = counts.astype(float)
    if mode == "mi":
        return (lambda: MI(observed, n, p, q)), {}
    matrix = np.full((d, d), q)
    np.fill_diagonal(matrix, p)
    frequencies = observed / observed.sum()
    IBU(2, np.array([[p, q], [q, p]]), np.array([0.5, 0.5]), 1, 1e-12, "max_abs")
    return ((lambda: IBU(d, matrix, frequencies, PEER_IBU_ITERATIONS, 1e-12, "max_abs")),
            {"iterations": f"at most {PEER_IBU_ITERATIONS} (cap)"})

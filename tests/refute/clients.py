"""Implementations for the refutation tests, written the way a library writes them (a float coin
``rng.random() < p``), each correct or with one slip planted, and a few that misbehave."""

from __future__ import annotations

import math
import time

import numpy as np


def grr(epsilon: float, d: int):
    """GRR with a float coin: ``release(x, rng)``."""
    p = math.exp(epsilon) / (math.exp(epsilon) + d - 1)

    def release(x, rng):
        if rng.random() < p:
            return x
        other = int(rng.integers(d - 1))
        return other + (other >= x)
    return release


def oue(epsilon: float, d: int, true_bit: float = 0.5):
    """OUE with float coins; ``true_bit`` is the probability of the user's own bit (0.5 when correct)."""
    q = 1 / (math.exp(epsilon) + 1)

    def release(x, rng):
        bits = (rng.random(d) < q).astype(np.uint8)
        bits[x] = rng.random() < true_bit
        return bits
    return release


def urr(epsilon: float, d: int, sensitive: int, leaked: int | None = None):
    """uRR (Murakami and Kawamoto; Cao et al. Sec. 2.2) over items ``0 .. d-1`` whose first ``sensitive`` are
    sensitive, with ``D = e^eps + sensitive - 1``: a sensitive input is kept with ``e^eps / D``, a non-sensitive one
    with ``(e^eps - 1) / D``, else a sensitive item other than the input is released, uniformly. The slip: the
    sensitive item ``leaked`` is released as itself, always."""
    E = math.exp(epsilon)
    D = E + sensitive - 1

    def release(x, rng):
        if x == leaked:
            return x
        if rng.random() < (E if x < sensitive else E - 1) / D:
            return x
        other = int(rng.integers(sensitive - (x < sensitive)))
        return other + (x < sensitive and other >= x)
    return release


def idue_grr(budgets: list, swapped: tuple | None = None):
    """A direct encoding for MinID-LDP with per-item budgets: item ``x`` is kept with ``e^b / (e^b + d - 1)`` at
    ``b = budgets[x]``, else another item uniformly (for every pair ``r = min`` holds: the ratio of a column is at most
    ``e^{budget of its item}``). The slip: the budgets of the two items of ``swapped`` exchanged."""
    budgets = list(budgets)
    if swapped is not None:
        a, b = swapped
        budgets[a], budgets[b] = budgets[b], budgets[a]
    d = len(budgets)

    def release(x, rng):
        E = math.exp(budgets[x])
        if rng.random() < E / (E + d - 1):
            return x
        other = int(rng.integers(d - 1))
        return other + (other >= x)
    return release


grr_3 = grr(1.0, 3)
grr_3_leaky = grr(1.5, 3)  # claims 1, is 1.5
oue_100 = oue(1.0, 100)
oue_100_biased = oue(1.0, 100, 0.6)


def raises(x, rng):
    if rng.random() < 0.01:
        raise ValueError("a bug in the client")
    return int(x)


def hangs(x, rng):
    if x == 1 and rng.random() < 0.001:
        time.sleep(60)
    return int(x)


def strays(x, rng):
    return 7 if rng.random() < 0.001 else int(x)


def constant(x, rng):
    return 0


def fails_once(x, rng):
    """GRR, which raises once (when a marker file is missing) in the certification of input 2: for the test of a
    resumed run."""
    import os

    marker = os.environ["LDPSPEC_TEST_MARKER"]
    fails_once.calls = getattr(fails_once, "calls", 0) + 1
    if x == 2 and fails_once.calls > 25_000 and not os.path.exists(marker):
        open(marker, "w").close()
        raise RuntimeError("interrupted")
    return grr_3(x, rng)


def idue_parameters(budgets: list, swapped: tuple | None = None) -> tuple:
    """IDUE's ``(a_i, b_i)`` as doubles from ldpspec's solver (as a library copies them from ``ldpspec idue solve``),
    those of the two items of ``swapped`` exchanged (their budgets swapped)."""
    from ldpspec.reference.porting.vectors import build

    solution = build("idue", {"budgets": str(list(budgets))}).solution()
    a = np.array([float(v) for v in solution["a"]])
    b = np.array([float(v) for v in solution["b"]])
    if swapped is not None:
        i, j = swapped
        a[[i, j]], b[[i, j]] = a[[j, i]], b[[j, i]]
    return a, b


def idue(budgets: list, swapped: tuple | None = None):
    """IDUE with float coins: bit ``i`` is 1 with ``a_i`` when ``i`` is the input, else with ``b_i``."""
    a, b = idue_parameters(budgets, swapped)

    def release(x, rng):
        bits = (rng.random(len(b)) < b).astype(np.uint8)
        bits[x] = rng.random() < a[x]
        return bits
    return release

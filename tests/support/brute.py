"""Brute-force readings of each definition, written from the papers' text, independent of the kernel.

They work on exact fractions and compare ``P[y|x] <= e^b P[y|x']`` directly (no logarithms, no shared code with
``spec``) and exactly: for ``b = 0`` by comparing the fractions, and for a rational ``b != 0`` (``e^b`` is then
irrational, so the two sides never tie) by mpmath's interval arithmetic, with the precision raised until the
intervals separate.
"""

from __future__ import annotations

from fractions import Fraction

import mpmath


def within(p: Fraction, bound: Fraction, other: Fraction) -> bool:
    """``p <= e^bound * other``, decided exactly."""
    bound = Fraction(bound)
    if p == 0:
        return True
    if other == 0:
        return False
    if bound == 0:
        return p <= other
    iv = mpmath.iv
    saved = iv.dps
    try:
        for digits in (60, 200, 1000, 5000):
            iv.dps = digits
            left = iv.mpf(p.numerator) / p.denominator
            right = iv.exp(iv.mpf(bound.numerator) / bound.denominator) * iv.mpf(other.numerator) / other.denominator
            if left.b < right.a:
                return True
            if left.a > right.b:
                return False
    finally:
        iv.dps = saved
    raise AssertionError(f"not decided at 5000 digits: {p} against e^{bound} * {other}")


def ldp(inputs, outputs, P, eps) -> bool:
    """For all x, x' and y: P[y|x] <= e^eps P[y|x']."""
    return all(within(P[x][y], eps, P[x2][y]) for x in inputs for x2 in inputs for y in outputs)


def id_ldp(inputs, outputs, P, budgets, r) -> bool:
    """For all x, x' and y: P[y|x] <= e^{r(eps_x, eps_x')} P[y|x']."""
    return all(within(P[x][y], r(budgets[x], budgets[x2]), P[x2][y])
               for x in inputs for x2 in inputs for y in outputs)


def uldp(inputs, outputs, P, sensitive, protected, eps) -> bool:
    """Murakami and Kawamoto: every y outside Y_pro has exactly one x in X_non with P[y|x] > 0 and
    P[y|x'] = 0 for every other x'; ratio within e^eps on Y_pro. The outputs are the mechanism's range: a y that no
    input produces is not one of them."""
    for y in outputs:
        if y in protected:
            continue
        reachable = [x for x in inputs if P[x][y] > 0]
        if reachable and not (len(reachable) == 1 and reachable[0] not in sensitive):
            return False
    return all(within(P[x][y], eps, P[x2][y]) for x in inputs for x2 in inputs for y in outputs if y in protected)


def ipldp(inputs, outputs, P, budgets) -> bool:
    """IPLDP Def. 3: sensitive outputs x_i within e^{eps_i} over all input pairs; each non-sensitive item
    x has Q(x|x) > 0 and Q(x|x') = 0 for x' != x."""
    for x in inputs:
        if x in budgets:
            if x in outputs and not all(within(P[a][x], budgets[x], P[b][x]) for a in inputs for b in inputs):
                return False
        else:
            if x not in outputs or P[x][x] <= 0 or any(P[x2][x] != 0 for x2 in inputs if x2 != x):
                return False
    return True


def suldp(inputs, outputs, P, sensitive, non_sensitive, protected, eps, reading) -> bool:
    """Cao et al. Def. 3 with outputs (y0, R): (9)-(10) on revealed items, (11) under the reading."""
    outputs = [o for o in outputs if any(P[s][o] > 0 for s in inputs)]  # the range: outputs some input produces
    revealable = {x for (_, R) in outputs for x in R}
    for (y0, R) in outputs:
        if not set(R) <= non_sensitive:
            return False
        if y0 is None and not R:
            return False
        if y0 is not None and y0 not in protected and not R:
            return False  # an output that reveals items is invertible whatever else it carries
        for s in inputs:
            if P[s][(y0, R)] > 0 and not set(R) <= set(s):
                return False  # (10)
    for x in revealable:
        for s in inputs:
            if x in s and sum(P[s][o] for o in outputs if x in o[1]) == 0:
                return False  # (9)
    if reading == "marginal":
        marginal = {s: {} for s in inputs}
        for s in inputs:
            for (y0, R) in outputs:
                marginal[s][y0] = marginal[s].get(y0, Fraction(0)) + P[s][(y0, R)]
        return all(within(marginal[s][y0], eps, marginal[s2][y0])
                   for s in inputs for s2 in inputs for y0 in marginal[s] if y0 in protected)
    if reading == "joint-unrevealed":
        return all(within(P[s][o], eps, P[s2][o]) for s in inputs for s2 in inputs for o in outputs
                   if o[0] in protected and not o[1])
    return all(within(P[s][o], eps, P[s2][o]) for s in inputs for s2 in inputs for o in outputs
               if o[0] in protected and set(o[1]) <= set(s) and set(o[1]) <= set(s2))


def interval_index(value: Fraction, boundaries) -> int:
    """[b0, b1), [b1, b2), ..., [b_{k-1}, b_k]."""
    for j in range(len(boundaries) - 1):
        if boundaries[j] <= value < boundaries[j + 1]:
            return j
    assert value == boundaries[-1]
    return len(boundaries) - 2

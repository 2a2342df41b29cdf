"""Cao et al. (2022), suWheel's utility claims: where ``y0`` falls (Sec. 4.3.1), unbiasedness (Theorem 8) and the
MSE (Theorem 9), each under every reading of how the hash values are drawn.

A user's counts are indicators: ``y0`` lies in the arc of ``h(x)`` (sensitive ``x``), or ``x`` is revealed
(non-sensitive ``x``). Everything these claims say follows from the probability ``b`` of each indicator, per user
(moments add over independent users). ``b`` is computed exactly from the piecewise-constant density of ``y0``:

* **fixed**: ``b`` is the density's mass on the arc of ``h(x)``, for one hash;
* **family**: the average of that mass over the four hashes of the audit, drawn uniformly;
* **uniform**: ``h(x)`` uniform on ``[0, 1)``, independent of the other items' values: for ``x`` outside the set, the
  mass of the arc ``[v, v + p)`` is a continuous, piecewise-linear function of ``v`` (its pieces end where ``v`` or
  ``v + p`` meets a cell's end), integrated exactly by the trapezoid rule; for ``x`` in the set the arc moves with
  ``y0``'s density, and its mass is computed for each configuration. The other items' values are those of the four
  hashes in turn; the marginal over them is decided when ``b`` is the same for every configuration.
"""

from __future__ import annotations

import functools

from ldpspec.reference.cao2022.sets import all_sets
from ldpspec.reference.cao2022.wheel import SuWheel, arc
from ldpspec.spec import ONE, ZERO, Exact, budget, sorted_unique
from ldpspec.verify.cao2022.builders import hash_family, release_channel, sugrr, surap
from ldpspec.verify.cao2022.privacy import BUDGETS, exhaustive_step, printed_r, revealed_probabilities, set_cases
from ldpspec.verify.cao2022.readings import HASH_VALUES
from ldpspec.verify.claims import AuditSettings, builds, claim, decide
from ldpspec.verify.common import tex_set


def printed_parameters(epsilon: str, m: int) -> dict:
    """p, P_true and r as printed (Algorithm 1's input, the text after it, Theorem 7's proof), from the budget."""
    E = budget(epsilon).exponential()
    p = 1 / (2 * m - 1 + m * E)
    omega = m * p * E + 1 - m * p
    return {"p": p, "P_true": p * E / omega, "r": 1 - E * p / omega}


def uniform_arc_mass(mechanism: SuWheel, items: tuple) -> Exact:
    """The mass of the arc ``[v, v + p)`` averaged over ``v`` uniform on ``[0, 1)``, for the density of ``items``.

    The mass is continuous and linear in ``v`` between the points where ``v`` or ``v + p`` (mod 1) meets a cell's
    end, so the trapezoid rule on those points is exact."""
    cells, _ = mechanism.density(items)
    p = mechanism.p
    ends = [low for low, _ in cells]
    shifted = [end - p if end >= p else end - p + 1 for end in ends]
    points = sorted_unique([ZERO, ONE, *ends, *shifted])
    mass = [mechanism.mass_on(items, arc(v, p) if v < 1 else arc(ZERO, p)) for v in points]
    return sum(((mass[j] + mass[j + 1]) * (points[j + 1] - points[j]) / 2 for j in range(len(points) - 1)), ZERO)


@builds(HASH_VALUES, constructs=("SuWheel",))
def suwheel_moments(case: tuple, hashes: list, *, hash_values: str) -> list[tuple]:
    """``(set, [b_x for every item], means, variances)`` for every set of ``m`` items: the probability ``b_x`` that
    the user's count of ``x`` is 1 (``y0`` in the arc of ``h(x)`` for a sensitive ``x``, ``x`` revealed otherwise),
    and the exact mean and variance of every item's estimate (Algorithm 2's estimator, which does not depend on the
    hash), for suWheel (Sec. 4.3) with its hash values drawn as ``hash_values`` reads Sec. 4.3.1.

    ``hashes`` is one hash (fixed), the family to average over (family), or the configurations of the other items'
    values (uniform), as ``hash_groups`` gives them."""
    d, m, k, eps = case
    mechanisms = [SuWheel(eps, d, range(k), m, h) for h in hashes]
    return [(s, row, *estimate_moments(mechanisms[0], row))
            for s, row in hit_probabilities(case, hash_values, mechanisms)]


@builds(HASH_VALUES, constructs=("hash_family",))
def hash_groups(d: int, *, hash_values: str) -> list[list]:
    """The hashes of one step (Sec. 4.3.1): each of the audit's four on its own (fixed), or all four at once (family:
    averaged over; uniform: the configurations of the other items' values)."""
    family = hash_family(d)
    return [[h] for h in family] if hash_values == "fixed" else [family]


def hit_probabilities(case: tuple, reading: str, mechanisms: list) -> list[tuple]:
    """``(set, [b_x for every item])`` for the suWheels ``mechanisms`` built by ``suwheel_moments`` (one per hash of
    its group), under the reading of the hash values.

    Under uniform, a probability that differs between configurations would leave the average over the other items'
    values undecided: the check stops with an error rather than pass or fail on it."""
    d, m, k, eps = case
    result = []
    for s in all_sets(d, m):
        per_hash = []
        for mechanism in mechanisms:
            row = []
            for x in range(d):
                if x < k and x not in s and reading == "uniform":
                    row.append(uniform_arc_mass(mechanism, s))
                elif x < k:
                    row.append(mechanism.arc_mass(s, x))
                else:
                    row.append(1 - mechanism.arc_mass(s, x) if x in s else ZERO)
            per_hash.append(row)
        if reading == "family":
            row = [sum((r[x] for r in per_hash), ZERO) / len(per_hash) for x in range(d)]
        else:  # fixed: one hash; uniform: the same value in every configuration
            row = per_hash[0]
            varying = [x for x in range(d) if any(r[x] != row[x] for r in per_hash)]
            if varying:
                raise RuntimeError(f"undecided: under a uniform hash, P[count of {varying[0]} is 1 | {s}] depends on "
                                   f"the other items' hash values (case {case}); the average over them is not computed")
        result.append((s, row))
    return result


def _cases(settings: AuditSettings, every_item_sensitive: bool = False) -> list[tuple]:
    """(d, m, k, eps) with eps > 0 (at eps = 0, P_true = p and the estimator is undefined)."""
    return [case for case in set_cases(4 if settings.deep else 3, max_m=2)
            if case[3] != "0" and (case[2] == case[0] or not every_item_sensitive)]


def _steps(settings: AuditSettings, reading: str, failure, every_item_sensitive: bool = False) -> list:
    """One exhaustive step per group of hashes; ``failure(case, moments)`` (``suwheel_moments``) describes a
    failing set, or None."""
    cases = _cases(settings, every_item_sensitive)
    steps = []
    for j, _ in enumerate(hash_groups(2, hash_values=reading)):
        def check(case, j=j):
            hashes = hash_groups(case[0], hash_values=reading)[j]
            found = failure(case, suwheel_moments(case, hashes, hash_values=reading))
            return None if found is None else {"d": case[0], "m": case[1], "sensitive_items": list(range(case[2])),
                                                "epsilon": case[3], "hash_values": reading, "hashes": hashes,
                                                **found}
        label = f"hash {j} of the four" if reading == "fixed" else "the four hashes"
        items = "every item sensitive" if every_item_sensitive else r"every \(k\)"
        steps.append(exhaustive_step(rf"suWheel, \(d \le {cases[-1][0]}\), \(m \le 2\), {items}, \(\varepsilon \in "
                                     rf"{tex_set(BUDGETS[1:])}\), every set and item, {label}", cases, check))
    return steps


@claim("cao2022.suwheel-probabilities", location="Sec. 4.3.1, after Algorithm 1",
       statement=r"For \(x \in s\), the output \(z_0\) falls in \(x\)'s covered area with probability \(P_{true} = p "
                 r"e^{\varepsilon} / (m p e^{\varepsilon} + 1 - m p)\); for \(x\) not in \(s\), with probability "
                 r"\(P_{false} = p\).",
       methods=("exhaustive",),
       recorded={"hash_values=fixed": "refuted", "hash_values=uniform": "verified", "hash_values=family": "refuted"},
       interpretation=r"\(x\)'s covered area is the arc \([h(x), h(x) + p)\) (wrapping at 1). The probability of "
                      r"\(z_0\) in it, exactly, for every set \(s\) of \(m\) items and every item \(x\), under each "
                      r"reading of how \(h\) is drawn; \(P_{true}\) and \(p\) as printed.",
       choices=(HASH_VALUES,))
def suwheel_probabilities(settings: AuditSettings, *, hash_values: str):
    def failure(case, probabilities):
        d, m = case[0], case[1]
        printed = printed_parameters(case[3], m)
        for s, row, _, _ in probabilities:
            for x in range(d):
                stated = printed["P_true"] if x in s else printed["p"]
                if row[x] != stated:
                    return {"user_set": list(s), "item": x, "probability": row[x].text(),
                            "probability_approx": str(float(row[x])),
                            "stated": (r"\(P_{true}\) " if x in s else r"\(p\) ") + stated.text(),
                            "stated_approx": str(float(stated))}
        return None

    steps = _steps(settings, hash_values, failure, every_item_sensitive=True)  # where y0 falls: every item counted
    return decide(steps, r"\(z_0\) falls in the arc with \(P_{true}\) for an item of the set and \(p\) otherwise, in "
                         "every case.",
                  r"The probability that \(z_0\) falls in an item's arc is not the stated one.")


def estimate_moments(mechanism: SuWheel, row: list) -> tuple[list, list]:
    """The exact mean and variance of every item's estimate for one user whose counts are 1 with the probabilities
    ``row``: the estimator of Algorithm 2 (the reference's ``estimate``) is affine in the counts."""
    at_zero = mechanism.estimate([0] * mechanism.d, 1)
    slope = [one - zero for one, zero in zip(mechanism.estimate([1] * mechanism.d, 1), at_zero)]
    means = [zero + a * b for zero, a, b in zip(at_zero, slope, row)]
    return means, [a * a * b * (1 - b) for a, b in zip(slope, row)]


@claim("cao2022.theorem8", location="Sec. 4.3.2, Theorem 8",
       statement="The suWheel estimate is unbiased.",
       methods=("exhaustive",),
       recorded={"hash_values=fixed": "refuted", "hash_values=uniform": "verified", "hash_values=family": "refuted"},
       interpretation=r"\(\mathbb E[\hat c_x]\) equals the number of users holding \(x\), for every item and every "
                      r"population, with Algorithm 2's estimator (\((F_x - n p) / (P_{true} - p)\) for a sensitive "
                      r"\(x\), \(F_x / r\) otherwise); exact means for each set a user can hold, under each reading of "
                      r"how \(h\) is drawn.",
       choices=(HASH_VALUES,))
def theorem8(settings: AuditSettings, *, hash_values: str):
    def failure(case, probabilities):
        for s, _, means, _ in probabilities:
            for x, mean in enumerate(means):
                if mean != (1 if x in s else 0):
                    return {"user_set": list(s), "item": x, "true_count": int(x in s),
                            "expected_estimate": mean.text(), "expected_estimate_approx": str(float(mean))}
        return None

    return decide(_steps(settings, hash_values, failure), "Every estimate's mean is the true count.",
                  "An estimate is biased.")


@functools.cache
def stated_variance(case: tuple, s: tuple, x: int) -> Exact:
    """Theorem 9's MSE for one user, per item, reconstructed from the proof's model: F_x sums f_x Bernoulli(P_true)
    and 1 - f_x Bernoulli(p) (sensitive x), or f_x Bernoulli(r) (non-sensitive x); P_true, p, r as printed."""
    printed = printed_parameters(case[3], case[1])
    p, p_true, r = printed["p"], printed["P_true"], printed["r"]
    f = 1 if x in s else 0
    if x < case[2]:
        return (f * p_true * (1 - p_true) + (1 - f) * p * (1 - p)) / (p_true - p) ** 2
    return f * (1 - r) / r


@builds(HASH_VALUES)
@functools.cache
def unbiased_variance(case: tuple, *, hash_values: str):
    """``(s, x) -> v_x``: suWheel's per-user variance of one item's count (Theorem 9, Sec. 4.3.2, ``stated_variance``),
    which is the exact MSE when the hash values are uniform (``cao2022.theorem9``). Under another reading of
    ``hash_values`` the estimate is biased (``cao2022.theorem8``) and its MSE is not this: it raises rather than
    return it. No lower-level constructor: ``stated_variance`` is also the statement Theorem 9's check compares."""
    if hash_values != "uniform":
        raise ValueError(f"suWheel with hash_values={hash_values}: the estimate is biased, and its exact MSE at these "
                         "sizes is not computed here")
    return lambda s, x: stated_variance(case, s, x)


@claim("cao2022.theorem9", location="Sec. 4.3.2, Theorem 9, (25)",
       statement=r"When \(\varepsilon = O(1)\), the MSE of suWheel is (25).",
       methods=("exhaustive",),
       recorded={"hash_values=fixed": "refuted", "hash_values=uniform": "verified", "hash_values=family": "refuted"},
       interpretation=r"The printed (25) is lost; it is reconstructed from the proof's model (\(F_x\) sums Bernoulli "
                      r"variables with \(P_{true}\), \(p\) or \(r\)) as an exact variance, which the paper takes as "
                      "the MSE of its unbiased estimate. The exact MSE (variance plus squared bias) of each item's "
                      r"estimate is compared with it for every budget of the grid, not only as \(\varepsilon\) tends "
                      "to 0; Table 2 checks the order of growth.",
       choices=(HASH_VALUES,))
def theorem9(settings: AuditSettings, *, hash_values: str):
    def failure(case, probabilities):
        for s, _, means, variances in probabilities:
            for x in range(case[0]):
                mse = variances[x] + (means[x] - (1 if x in s else 0)) ** 2
                stated = stated_variance(case, s, x)
                if mse != stated:
                    return {"user_set": list(s), "item": x, "exact_mse": mse.text(),
                            "exact_mse_approx": str(float(mse)), "stated_mse": stated.text(),
                            "stated_mse_approx": str(float(stated))}
        return None

    return decide(_steps(settings, hash_values, failure), "Every estimate's exact MSE is the stated one.",
                  "An MSE differs from the stated one.")


@claim("cao2022.revealed-with-r", location="Sec. 4.1.2, 4.2.2, 4.3.2: the proofs of Theorems 1, 4 and 7",
       statement=r"In suGRR, suRAP and suWheel, for any invertible output \(y \in Y_{inv}\) exactly one \(x \in "
                 r"X_{non}\) can be perturbed to it: it is output if and only if \(x \in s\), with probability \(r\) "
                 r"(suWheel: \(r = 1 - e^{\varepsilon} p / \Omega\)).",
       methods=("exhaustive",), recorded="verified",
       interpretation=r"For every set \(s\) of \(m\) items and every non-sensitive item \(x\), the probability that "
                      r"the release reveals \(x\) is \(r\) as printed when \(x \in s\) (suGRR: uRR's \(r = (E - 1) / "
                      r"(E + |X_{sen}| - 1)\), \(E = e^{\varepsilon/m}\); suRAP: \(r = (E - 1)/E\), \(E = "
                      r"e^{\varepsilon/(2m)}\); suWheel: \(1 - e^{\varepsilon} p / \Omega\)), and 0 otherwise: on the "
                      "exact channels of suGRR and suRAP, and on suWheel's exact hit probabilities under the reading "
                      "of the hash values.")
def revealed_with_r(settings: AuditSettings):
    cases = [case for case in set_cases(4 if settings.deep else 3) if case[3] != "0" and case[2] < case[0]]

    def failure(case):
        d, m, k, eps = case
        found = []
        for name, build in (("suGRR", sugrr), ("suRAP", surap)):
            mechanism = build(eps, d, range(k), m)
            channel = release_channel(mechanism)
            for x in range(k, d):
                for s, probability in zip(channel.explicit().inputs, revealed_probabilities(channel, x)):
                    found.append((name, s, x, probability))
        if m <= 2:
            for group in hash_groups(d):
                for s, row, _, _ in suwheel_moments(case, group):
                    found += [("suWheel", s, x, row[x]) for x in range(k, d)]
        for name, s, x, probability in found:
            stated = printed_r(name, eps, m, k) if x in s else ZERO
            if probability != stated:
                return {"mechanism": name, "d": d, "m": m, "sensitive_items": list(range(k)), "epsilon": eps,
                        "user_set": list(s), "item": x, "probability": Exact.of(probability).text(),
                        "stated": Exact.of(stated).text()}
        return None

    steps = [exhaustive_step(rf"suGRR, suRAP (\(d \le {cases[-1][0]}\), \(m \le 3\)) and suWheel (\(m \le 2\)), "
                             rf"every \(k < d\), \(\varepsilon \in {tex_set(BUDGETS[1:])}\), every set and "
                             "non-sensitive item", cases, failure)]
    return decide(steps, r"A non-sensitive item is revealed with the printed \(r\) by its holders and never by "
                         "others.", r"A non-sensitive item is revealed with another probability than \(r\).")

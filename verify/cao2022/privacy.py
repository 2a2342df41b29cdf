"""Cao et al. (2022), the privacy claims: SULDP and ULDP (Sec. 3.2), and Theorems 1, 4 and 7 (the mechanisms satisfy
SULDP), each checked on the exact channel of the whole release under every reading of condition (11)."""

from __future__ import annotations

import functools
import itertools
from collections.abc import Callable, Iterable
from fractions import Fraction

import z3
from hypothesis import strategies as st

from ldpspec.reference.cao2022.sets import all_sets
from ldpspec.reference.cao2022.sugrr import sugrr_distribution, sugrr_sample_distribution
from ldpspec.reference.cao2022.surap import Y0_READINGS as SURAP_RELEASES
from ldpspec.reference.shared.urap import urap_bits
from ldpspec.reference.shared.urr import urr_rows
from ldpspec.spec import ZERO, Channel, map_outputs, min_id_ldp, uldp
from ldpspec.spec import budget as exact_budget
from ldpspec.verify.cao2022.builders import (
    release_channel,
    sugrr,
    sugrr_sample,
    suldp,
    suldp_check,
    surap,
    surap_protects,
    surap_sample,
    suwheel_releases,
)
from ldpspec.verify.cao2022.readings import CONDITION_11, EMPTY, HASH, SUGRR_Y0, SURAP_Y0
from ldpspec.verify.claims import AuditSettings, Evidence, Fixed, Step, builds, claim, decide
from ldpspec.verify.common import tex_set
from ldpspec.verify.kernel_checks import KERNEL_CHECKS, kernel_check, labels_text, number_text, numbers_text, pairs_text
from ldpspec.verify.search import find_counterexample, search_step
from ldpspec.verify.symbolic import Condition, SymbolicBudget, proof_step, prove

BUDGETS = ("0", "1/2", "1", "3")
"""Budgets of the exhaustive checks: rationals, so that e^{eps/m} is exact for every m; 0 is the edge."""


def exhaustive_step(scope: str, cases: Iterable[tuple], failure: Callable) -> Step:
    """Try every case in order (smallest first); the first case ``failure`` describes (a dict, or None when the case
    passes) is the counterexample."""
    tried = 0
    for case in cases:
        tried += 1
        found = failure(case)
        if found is not None:
            return Step(Evidence("exhaustive", scope, f"counterexample at case {tried}"),
                        counterexample={"method": "exhaustive", "scope": scope, **found})
    return Step(Evidence("exhaustive", scope, f"holds in all {tried} cases"))


def set_cases(largest: int, max_m: int = 3) -> list[tuple]:
    """(d, m, k, eps), smallest first: domains of 2 to ``largest`` items, sets of 1 to ``max_m`` items, the first
    ``k`` items sensitive (the mechanisms treat items alike, so which ones does not matter)."""
    return [(d, m, k, eps) for d in range(2, largest + 1) for m in range(1, min(d, max_m) + 1)
            for k in range(1, d + 1) for eps in BUDGETS]


def _channel(builder, case: tuple, **readings) -> Channel:
    """The exact channel of the release of ``builder(eps, d, range(k), m, **readings)`` (a builder of
    ``builders``) for ``case = (d, m, k, eps)``, built once per audit: every reading of (11) judges the same
    channels."""
    d, m, k, eps = case
    return release_channel(builder(eps, d, range(k), m, **readings))


def _verdict_failure(verdict, case: tuple, mechanism: str) -> dict | None:
    if verdict.holds:
        return None
    d, m, k, eps = case[:4]
    return {"mechanism": mechanism, "d": d, "m": m, "sensitive_items": list(range(k)), "epsilon": eps,
            "witness": verdict.witness.to_json() if verdict.witness else None}


# --- Sec. 3.2: SULDP on sets of one item is ULDP -----------------------------------------------------------------

@st.composite
def _single_item_channels(draw):
    """A mechanism on items 0 .. d-1 with k sensitive items: protected outputs p0, p1, ... and invertible outputs
    r0, r1, ... (any input may produce any output)."""
    d = draw(st.integers(2, 3))
    k = draw(st.integers(1, d))
    protected = [f"p{j}" for j in range(draw(st.integers(1, 3)))]
    invertible = [f"r{j}" for j in range(draw(st.integers(0, 2)))]
    outputs = protected + invertible
    rows = []
    for _ in range(d):
        weights = draw(st.lists(st.integers(0, 4), min_size=len(outputs), max_size=len(outputs)))
        weights[0] = weights[0] or int(not any(weights))  # a row needs some mass
        rows.append([Fraction(w, sum(weights)) for w in weights])
    eps = draw(st.sampled_from(["0", "1/2", "log(2)", "1"]))
    return d, k, protected, invertible, rows, eps


def _as_release(channel: Channel, y, protected, empty: str) -> tuple:
    """An item mechanism's output as a release of a set of one item: a protected output is ``(y, ())``; an invertible
    one reveals the item that produces it (the first, when several do: (10) then fails for the others; two outputs
    revealing the same item are one release), with no protected part or the empty one (``empty``)."""
    if y in protected:
        return y, ()
    producers = [x for x, p in zip(channel.inputs, channel.column(y)) if p]
    return (None if empty == "absent" else ()), ((producers[0] if producers else "nobody"),)


@builds(EMPTY, constructs=("_as_release",))
def item_release(channel: Channel, y, protected, *, empty: str) -> tuple:
    """The release of a set of one item (Sec. 3.2, after Def. 3) for an output ``y`` of a mechanism on items: an
    invertible output reveals its item, with no or an empty protected part as ``empty`` reads Sec. 4.1-4.2."""
    return _as_release(channel, y, protected, empty)


@claim("cao2022.def3-reduces-to-uldp", location="Sec. 3.2, after Definition 3",
       statement=r"If every input set has size 1 (\(|s| = 1\)), SULDP degenerates to the ULDP model: ULDP is a special "
                 "case of SULDP.",
       methods=("hypothesis",),
       recorded={f"condition_11={c}, empty={e}": ("refuted" if (c, e) == ("marginal", "empty") else "verified")
                 for c in CONDITION_11.values for e in EMPTY.values},
       interpretation=r"For a mechanism on single items with protected outputs \(Y_{pro}\) and invertible outputs, "
                      "ULDP (Def. 2) holds exactly when SULDP (Def. 3) holds for the same mechanism on sets of one "
                      r"item, with a protected output \(y\) released as \((y, ())\) and an invertible output as "
                      "revealing the item that produces it, with no protected part or the empty one (the reading "
                      r"`empty`: a release that reveals an item has no sensitive output). Checked under every reading "
                      r"of (11) and of `empty`; the audit's sweep found that `empty` moves the verdict: under `empty` "
                      r"the empty \(y_0\) is an element of \(Y_{pro}\) that only the holder of a revealed item "
                      r"produces, and (11) on \(y_0\) alone then fails where ULDP holds.",
       choices=(CONDITION_11, EMPTY))
def def3_reduces_to_uldp(settings: AuditSettings, *, condition_11: str, empty: str):
    def channels(example) -> tuple[Channel, Channel]:
        """The mechanism on items, and the same mechanism on sets of one item (its releases)."""
        d, k, protected, invertible, rows, eps = example
        items = Channel(range(d), protected + invertible, rows)
        releases = map_outputs(items, lambda y: item_release(items, y, protected, empty=empty))  # two outputs
        # revealing x merge
        return items, Channel([(x,) for x in range(d)], releases.outputs, releases.rows)

    def violates(example):
        _, k, protected, _, _, eps = example
        items, sets = channels(example)
        return bool(uldp(items, range(k), protected, eps)) != bool(suldp(sets, range(k), eps,
                                                                          condition_11=condition_11))

    def describe(example) -> dict:
        d, k, protected, invertible, rows, eps = example
        items, sets = channels(example)
        item_uldp = bool(uldp(items, range(k), protected, eps))
        verb = "satisfies" if item_uldp else "does not satisfy"
        checks = [kernel_check(items, "uldp", {"sensitive": labels_text(range(k)), "protected": labels_text(protected),
                                               "epsilon": number_text(eps)},
                               what=f"The mechanism on items {verb} ULDP at budget {eps} (protected outputs "
                                    f"{', '.join(protected)})", expected="holds" if item_uldp else "does not hold"),
                  suldp_check(sets, range(k), eps, "The same mechanism on sets of one item",
                              expected="does not hold" if item_uldp else "holds")]
        return {"d": d, "sensitive_items": list(range(k)), "outputs": protected + invertible,
                "rows": [[str(p) for p in row] for row in rows], "epsilon": eps, KERNEL_CHECKS: checks}

    example = find_counterexample(_single_item_channels(), violates, settings)
    step = search_step(r"items \(0, \dots, d-1\) (\(d \le 3\)), \(k\) sensitive, up to 3 protected and 2 invertible "
                       r"outputs, random rows; \(\varepsilon \in \{0, 1/2, \ln 2, 1\}\)", example, describe, settings)
    return decide([step], "On sets of one item, SULDP and ULDP agree on every mechanism tried.",
                  "SULDP and ULDP disagree on a mechanism on single items.")


# --- Theorems 1, 4 and 7 ------------------------------------------------------------------------------------------

@claim("cao2022.theorem1", location="Sec. 4.1.2, Theorem 1",
       statement="suGRR and suGRR-Sample satisfy SULDP.",
       methods=("exhaustive", "z3"),
       recorded={f"condition_11={c}, sugrr_y0={y}, empty={e}": (
           "verified" if c != "marginal" or (y == "set" and e == "absent") else "refuted")
           for c in CONDITION_11.values for y in SUGRR_Y0.values for e in EMPTY.values},
       interpretation=r"\((X_{sen}, Y_{pro}, \varepsilon)\)-SULDP of the whole release, with \(Y_{pro}\) every "
                      r"protected part the mechanism releases, for every set size \(m\) and every sensitive set; "
                      r"suGRR-Sample has no repeated outputs, so the reading of suGRR's \(y_0\) does not concern it. "
                      "Exhaustive on a grid of budgets; where that finds no counterexample, z3 proves the ratio "
                      "conditions for every budget on small domains, from the mechanisms' own distributions over uRR's "
                      r"rows at a symbolic \(e^{(\varepsilon/m)}\).",
       choices=(CONDITION_11, SUGRR_Y0, EMPTY))
def theorem1(settings: AuditSettings, *, condition_11: str, sugrr_y0: str, empty: str):
    cases = set_cases(5 if settings.deep else 4)
    steps = [
        exhaustive_step(rf"suGRR, \(d \le {cases[-1][0]}\), \(m \le 3\), every \(k\), \(\varepsilon \in "
                        rf"{tex_set(BUDGETS)}\)", cases,
                        lambda case: _verdict_failure(
                            suldp(_channel(sugrr, case, sugrr_y0=sugrr_y0, empty=empty), range(case[2]), case[3],
                                  condition_11=condition_11), case, "suGRR")),
        exhaustive_step(rf"suGRR-Sample, \(d \le {cases[-1][0]}\), \(m \le 3\), every \(k\), \(\varepsilon \in "
                        rf"{tex_set(BUDGETS)}\)", cases,
                        lambda case: _verdict_failure(
                            suldp(_channel(sugrr_sample, case, empty=empty), range(case[2]), case[3],
                                  condition_11=condition_11), case, "suGRR-Sample")),
    ]
    if all(step.counterexample is None for step in steps):  # where the grid finds no counterexample
        largest, max_m = (4, 3) if settings.deep else (3, 2)
        steps.append(proof_step(rf"every \(\varepsilon > 0\): suGRR and suGRR-Sample, \(d \le {largest}\), \(m \le "
                                rf"{max_m}\), every \(k\), the ratio conditions of (11) ({condition_11})",
                                _sugrr_proof(condition_11, sugrr_y0, empty, largest, max_m)))
    return decide(steps, "Both mechanisms satisfy SULDP in every case.", "A mechanism violates SULDP.")


def sugrr_symbolic_channels(case: tuple, sugrr_y0: str, empty: str):
    """``(budget, [(name, e^eps, {set: {release: P}})])``: suGRR's and suGRR-Sample's channels for ``case`` (its eps
    unused) as z3 terms of ``t``, the budget of one uRR step: ``e^{eps/m}`` for suGRR, ``e^eps`` for the Sample
    variant. The mechanisms' own distributions, over uRR's rows at ``t``."""
    d, m, k, _ = case
    sensitive = [x < k for x in range(d)]
    budget = SymbolicBudget("eps", divisor=m)
    t = budget.variable
    rows = urr_rows(t, d, range(k))

    def item_distribution(x):
        return {z: p for z, p in enumerate(rows[x]) if not (isinstance(p, int) and p == 0)}

    full = {s: sugrr_distribution(s, item_distribution, sensitive, sugrr_y0, empty) for s in all_sets(d, m)}
    sample_rows = urr_rows(budget.exponentiated, d, range(k))

    def sample_item(x):
        return {z: p for z, p in enumerate(sample_rows[x]) if not (isinstance(p, int) and p == 0)}

    sample = {s: sugrr_sample_distribution(s, sample_item, sensitive, empty) for s in all_sets(d, m)}
    return budget, [("suGRR", budget.exponentiated, full), ("suGRR-Sample", budget.exponentiated, sample)]


def ratio_conditions(rows: dict, E, condition_11: str, protects: Callable = lambda output: True) -> list:
    """The ratio conditions of (11): on y0 alone (marginal: ``P[y0|s] <= E P[y0|s']``, summed over ``R``), or on
    the whole release, ``P[(y0, R)|s] <= E P[(y0, R)|s']`` for every protected ``y0`` and every ``R`` both sets hold
    (only ``R = ()`` under joint-unrevealed)."""
    conditions = []
    outputs = {y for row in rows.values() for y in row if y[0] is not None and protects(y)}
    if condition_11 == "marginal":
        marginal = {s: {} for s in rows}
        for s, row in rows.items():
            for y, p in row.items():
                y0 = y[0]
                if y in outputs:
                    marginal[s][y0] = marginal[s][y0] + p if y0 in marginal[s] else p
        for y0 in {y0 for row in marginal.values() for y0 in row}:
            for s in rows:
                for other in rows:
                    if s != other:
                        conditions.append(Condition((s, other), y0,
                                                    marginal[s].get(y0, 0) <= E * marginal[other].get(y0, 0)))
        return conditions
    for y0, revealed in outputs:
        if condition_11 == "joint-unrevealed" and revealed:
            continue
        holders = [s for s in rows if set(revealed) <= set(s)]
        for s in holders:
            for other in holders:
                if s != other:
                    y = (y0, revealed)
                    conditions.append(Condition((s, other), y, rows[s].get(y, 0) <= E * rows[other].get(y, 0)))
    return conditions


@functools.cache
def _sugrr_proof(condition_11: str, sugrr_y0: str, empty: str, largest: int, max_m: int):
    """z3 on every small case in turn; the first that is not proved is the result."""
    results = []
    for d in range(2, largest + 1):
        for m in range(1, min(d, max_m) + 1):
            for k in range(1, d + 1):
                budget, channels = sugrr_symbolic((d, m, k, None), sugrr_y0=sugrr_y0, empty=empty)
                conditions = [c for _, E, rows in channels
                              for c in suldp_conditions(rows, E, condition_11=condition_11)]
                result = prove(conditions, [budget],
                               description=rf"suGRR and suGRR-Sample, \(d = {d}\), \(m = {m}\), \(k = {k}\)")
                if not result.proved:
                    return result
                results.append(result)
    return results[-1]


@claim("cao2022.theorem4", location="Sec. 4.2.2, Theorem 4",
       statement="suRAP and suRAP-Sample satisfy SULDP.",
       methods=("exhaustive", "z3"),
       recorded={f"condition_11={c}, surap_y0={y}": (
           "refuted" if c == "marginal" and y == "vector" else "verified")
           for c in CONDITION_11.values for y in SURAP_Y0.values},
       interpretation=r"\((X_{sen}, Y_{pro}, \varepsilon)\)-SULDP of the whole perturbed vector, with \(Y_{pro}\) "
                      "every protected part the mechanism releases. Exhaustive on a grid of budgets; where that finds "
                      "no counterexample, z3 proves the ratio conditions for every budget on small domains, from "
                      "uRAP's bits at a symbolic budget.",
       choices=(CONDITION_11, SURAP_Y0))
def theorem4(settings: AuditSettings, *, condition_11: str, surap_y0: str):
    cases = set_cases(4 if settings.deep else 3)  # 2^d outputs
    steps = [
        exhaustive_step(rf"{name}, \(d \le {cases[-1][0]}\), \(m \le 3\), every \(k\), \(\varepsilon \in "
                        rf"{tex_set(BUDGETS)}\)", cases,
                        lambda case, build=build, name=name: _verdict_failure(
                            suldp(_channel(build, case, surap_y0=surap_y0), range(case[2]), case[3],
                                  surap_protects(surap_y0=surap_y0), condition_11=condition_11), case, name))
        for name, build in (("suRAP", surap), ("suRAP-Sample", surap_sample))
    ]
    if all(step.counterexample is None for step in steps):  # where the grid finds no counterexample
        largest = 4 if settings.deep else 3
        steps.append(proof_step(rf"every \(\varepsilon > 0\): suRAP and suRAP-Sample, \(d \le {largest}\), \(m \le "
                                r"2\), every \(k\), the ratio conditions of (11) "
                                f"({condition_11})", _surap_proof(condition_11, surap_y0, largest)))
    return decide(steps, "Both mechanisms satisfy SULDP in every case.", "A mechanism violates SULDP.")


def surap_symbolic_channels(case: tuple, surap_y0: str):
    """``[(name, budget, e^eps, {set: {release: P}})]``: suRAP's and suRAP-Sample's channels for ``case`` (its eps
    unused) as z3 terms of the budget of one bit, ``e^{eps/(2m)}`` for suRAP and ``e^{eps/2}`` for the Sample
    variant: uRAP's bits (``urap_bits``, plain arithmetic) set independently, the vector released as the mechanism
    releases it (``release``)."""
    d, m, k, _ = case
    labels = surap("1", d, range(k), m, surap_y0=surap_y0)  # release() depends on the reading and items only
    result = []
    for name, divisor in (("suRAP", 2 * m), ("suRAP-Sample", 2)):
        budget = SymbolicBudget("eps", divisor=divisor)
        bits = urap_bits(budget.variable, d, range(k))

        def vector_probability(vector, held, bits=bits):
            probability = 1
            for j, bit in enumerate(vector):
                one, zero = (bits[j].p, bits[j].not_p) if j in held else (bits[j].q, bits[j].not_q)
                factor = one if bit else zero
                if isinstance(factor, int) and factor == 0:  # a bit that cannot be set (a non-holder's
                    return 0                                   # non-sensitive bit): the vector is impossible
                probability = probability * factor
            return probability

        rows = {}
        for s in all_sets(d, m):
            row = {}
            holders = [set(s)] if name == "suRAP" else [{i} for i in s]  # the Sample variant encodes one item
            for vector in itertools.product((0, 1), repeat=d):
                terms = [term for held in holders
                         if not isinstance(term := vector_probability(vector, held), int) or term != 0]
                if not terms:
                    continue
                probability = sum(terms[1:], terms[0]) / len(holders)
                label = labels.release(vector)
                row[label] = row[label] + probability if label in row else probability
            rows[s] = row
        result.append((name, budget, budget.exponentiated, rows))
    return result


@functools.cache
def _surap_proof(condition_11: str, surap_y0: str, largest: int):
    """z3 on every small case in turn; the first that is not proved is the result."""
    result = None
    for d in range(2, largest + 1):
        for m in range(1, min(d, 2) + 1):
            for k in range(1, d + 1):
                for name, budget, E, rows in surap_symbolic((d, m, k, None), surap_y0=surap_y0):
                    result = prove(suldp_conditions(rows, E, surap_protects(surap_y0=surap_y0),
                                                    condition_11=condition_11), [budget],
                                   description=rf"{name}, \(d = {d}\), \(m = {m}\), \(k = {k}\)")
                    if not result.proved:
                        return result
    return result


@claim("cao2022.theorem7", location="Sec. 4.3.2, Theorem 7",
       statement="suWheel satisfies SULDP.",
       methods=("exhaustive", "z3"),
       recorded={f"condition_11={c}, hash={h}": ("verified" if c == "marginal" else "refuted")
                 for c in CONDITION_11.values for h in HASH.values},
       interpretation=r"\((X_{sen}, Y_{pro}, \varepsilon)\)-SULDP of the release \((y_0, R)\), \(y_0\) a point of [0, "
                      "1) with its exact piecewise-constant density (decided on the cells between the arcs' ends), for "
                      "each of four hashes (spread out, rotated, crowded with overlapping arcs, wrapping around 1) on "
                      "its own, and for a hash drawn uniformly from the four, released with the output or not. On "
                      r"\(y_0\) alone, z3 proves the density bound for every budget, set size and covered length.",
       choices=(CONDITION_11, HASH))
def theorem7(settings: AuditSettings, *, condition_11: str, hash: str):
    cases = set_cases(4 if settings.deep else 3, max_m=2)
    steps = []
    groups = [(h,) for h in range(4)] if hash == "fixed" else [tuple(range(4))]
    for j, group in enumerate(groups):
        def failure(case, j=j):
            hashes, channel = suwheel_releases(case, hash=hash)[j]
            found = _verdict_failure(suldp(channel, range(case[2]), case[3], condition_11=condition_11), case,
                                     "suWheel")
            return None if found is None else {**found, "hashes": hashes}
        label = "each hash" if hash == "fixed" else "the four hashes"
        steps.append(exhaustive_step(rf"suWheel, \(d \le {cases[-1][0]}\), \(m \le 2\), every \(k\), \(\varepsilon \in "
                                     rf"{tex_set(BUDGETS)}\), {label} (hash {group})", cases, failure))
    if condition_11 == "marginal":
        steps.append(proof_step(r"every \(\varepsilon > 0\), every \(m \ge 1\) (real), every covered length \(l\), "
                                r"\(l' \in [p, m p]\) (so every hash and every pair of sets): \(y_0\)'s density ratio "
                                r"at any point is at most \(e^{\varepsilon}\); a hash drawn from a family mixes these "
                                "densities, which keeps the bound",
                                _suwheel_marginal_proof()))
    return decide(steps, "suWheel satisfies SULDP in every case.", "suWheel violates SULDP.")


def suwheel_marginal_conditions(bound: str = "e^eps") -> tuple:
    """``(conditions, budget, assumptions)`` for z3: the density of y0 is e^eps / Omega on the covered area of the
    set and (1 - l e^eps / Omega) / (1 - l) elsewhere (eq. (8)), with l the covered length, between p (one arc) and
    m p (arcs apart). Its ratio between two sets at any point is one of in/out(l'), out(l)/in, out(l)/out(l'): each
    at most ``bound`` (e^eps for Theorem 7; the first is its (24), l' (e^eps - 1) <= m p (e^eps - 1)). ``bound="1"``
    asks for too much, which the tests use to see that the assumptions leave room for a counterexample."""
    budget = SymbolicBudget("eps")
    E = budget.variable
    factor = E if bound == "e^eps" else z3.RealVal(bound)
    m, p, length, other = z3.Reals("m p l l2")
    omega = m * p * E + 1 - m * p
    inside = E / omega

    def outside(covered):
        return (1 - covered * inside) / (1 - covered)

    assumptions = [m >= 1, p * (2 * m - 1 + m * E) == 1, p > 0,
                   p <= length, length <= m * p, p <= other, other <= m * p]
    conditions = [Condition(("s", "s'"), r"\(y_0 \in C_s\), not in \(C_{s'}\)", inside <= factor * outside(other)),
                  Condition(("s", "s'"), r"\(y_0\) not in \(C_s\), in \(C_{s'}\)", outside(length) <= factor * inside),
                  Condition(("s", "s'"), r"\(y_0\) in neither", outside(length) <= factor * outside(other))]
    return conditions, budget, assumptions


@functools.cache
def _suwheel_marginal_proof():
    conditions, budget, assumptions = suwheel_marginal_conditions()
    return prove(conditions, [budget], assumptions=assumptions, description=r"suWheel's \(y_0\) densities")



# --- Sec. 3.2: the protection of sensitive values -------------------------------------------------------------------

def same_non_sensitive_part(inputs: Iterable[tuple], sensitive: Iterable) -> list[tuple]:
    """The pairs of input sets that differ only in sensitive items: an eps-LDP mechanism on sets makes each pair
    e^eps-indistinguishable, and "the same protection on sensitive data" asks as much of the whole release."""
    sensitive = set(sensitive)
    inputs = list(inputs)
    return [(s, t) for j, s in enumerate(inputs) for t in inputs[j + 1:]
            if [x for x in s if x not in sensitive] == [x for x in t if x not in sensitive]]


def sensitive_protection(channel, sensitive: Iterable, epsilon):
    """The whole release is e^eps-indistinguishable on every pair of input sets that differ only in sensitive items:
    MinID-LDP with the budget eps for every set, on the policy graph of those pairs (Gu et al. Sec. VIII)."""
    explicit = channel.explicit()
    policy = same_non_sensitive_part(explicit.inputs, sensitive)
    return min_id_ldp(explicit, {s: epsilon for s in explicit.inputs}, policy=policy or [])


def sensitive_protection_check(channel, sensitive: Iterable, epsilon, subject: str, *, expected: str) -> dict:
    """The kernel check (verify/kernel_checks.py) of ``sensitive_protection``: ``ldpspec check --notion minid-ldp``
    with the budget ``epsilon`` for every set, on the policy graph of the pairs that differ only in sensitive items.
    ``subject`` names the channel in the check's sentence."""
    explicit = channel.explicit()
    policy = same_non_sensitive_part(explicit.inputs, sensitive)
    shown = (f"keeps every two sets that differ only in sensitive items within budget {epsilon} of each other, as "
             f"{epsilon}-LDP would" if expected == "holds" else
             f"tells two sets that differ only in sensitive items apart beyond budget {epsilon}, which {epsilon}-LDP "
             "forbids")
    return kernel_check(explicit, "minid-ldp", {"budgets": numbers_text(epsilon for _ in explicit.inputs),
                                                "policy": pairs_text(policy)},
                        what=f"{subject} {shown} (MinID-LDP with budget {epsilon} for every set, on the policy graph "
                             "of such pairs)", expected=expected)


@st.composite
def _set_channels(draw, empty: str):
    """A mechanism on sets of m items of 0 .. d-1 (the first k sensitive) that obeys (9)-(10) by construction: each
    set releases a protected label with any subset of its non-sensitive items, or (reading "absent" of the empty
    protected part) only non-sensitive items of it; random integer weights."""
    d = draw(st.integers(2, 3))
    m = draw(st.integers(1, min(d, 2)))
    k = draw(st.integers(1, d - 1))
    labels = ["a", "b"][:draw(st.integers(1, 2))]
    inputs = list(all_sets(d, m))
    outputs, rows = [], []
    for s in inputs:
        revealable = [x for x in s if x >= k]
        subsets = [r for size in range(len(revealable) + 1) for r in itertools.combinations(revealable, size)]
        releases = [(y0, r) for y0 in labels for r in subsets]
        if empty == "absent":
            releases += [(None, r) for r in subsets if r]
        weights = draw(st.lists(st.integers(0, 3), min_size=len(releases), max_size=len(releases)))
        weights[0] = weights[0] or int(not any(weights))
        rows.append(dict(zip(releases, (Fraction(w, sum(weights)) for w in weights))))
        outputs += [y for y in releases if y not in outputs]
    eps = draw(st.sampled_from(["1/2", "1", "log(2)"]))
    channel = Channel(inputs, outputs, [[row.get(y, 0) for y in outputs] for row in rows])
    return channel, k, eps


def _small_set_channels(empty: str):
    """Every mechanism of a small family, simplest first: sets of 2 of the items 0, 1, 2 (0 and 1 sensitive), one
    protected label ``a``; {0, 1} releases ``(a, ())``; {0, 2} and {1, 2} release ``(a, ())``, ``(a, (2,))`` and
    (reading "absent" of the empty protected part) ``(None, (2,))`` with probabilities in tenths; eps 1/2 or 1."""
    releases = [("a", ()), ("a", (2,))] + ([(None, (2,))] if empty == "absent" else [])
    rows = [w for w in itertools.product(range(11), repeat=len(releases)) if sum(w) == 10]
    cases = [(first, second, eps) for first in rows for second in rows for eps in ("1/2", "1")]
    cases.sort(key=lambda case: (sum(map(bool, case[0] + case[1])), case))
    for first, second, eps in cases:
        matrix = [[1] + [0] * (len(releases) - 1)] + [[Fraction(w, 10) for w in row] for row in (first, second)]
        yield Channel([(0, 1), (0, 2), (1, 2)], releases, matrix), 2, eps


@builds(EMPTY, constructs=("_set_channels", "_small_set_channels"))
def searched_set_channels(family: bool, *, empty: str):
    """The mechanisms on sets Sec. 3.2's remark is searched over (every one of a small family, ``family``, or a
    Hypothesis strategy): their releases obey (9)-(10), and a release that reveals items carries no protected part,
    or the empty one (Sec. 4.1-4.2, ``empty``)."""
    return _small_set_channels(empty) if family else _set_channels(empty)


@claim("cao2022.def3-protection", location="Sec. 3.2; Abstract; Sec. 1",
       statement="Condition (11) guarantees that the protection of sensitive values is not reduced: the mechanisms "
                 "achieve exactly the same protection on sensitive data as local differential privacy mechanisms, "
                 "and improve accuracy by loosening the protection of non-sensitive data.",
       methods=("exhaustive", "hypothesis"),
       recorded={f"condition_11={c}, empty={e}": ("verified" if (c, e) == ("joint", "empty") else "refuted")
                 for c in CONDITION_11.values for e in EMPTY.values},
       interpretation=r"An \(\varepsilon\)-LDP mechanism on sets makes any two input sets "
                      r"\(e^{\varepsilon}\)-indistinguishable from the whole release; on sensitive data that is: two "
                      "sets that differ only in sensitive items. (1) Every mechanism satisfying SULDP under the "
                      "reading of (11) has that property: every mechanism of a small family, then a random search, "
                      "both obeying (9)-(10), with or without releases that carry no protected part as the reading of "
                      r"the empty \(y_0\) says. (2) The paper's five mechanisms have it, under every reading of their "
                      "outputs.",
       choices=(CONDITION_11, EMPTY),
       fixes=(Fixed(SUGRR_Y0, r"part (2) builds suGRR under both readings of \(y_0\) itself", None),
              Fixed(SURAP_Y0, r"part (2) builds suRAP and suRAP-Sample under the readings `vector` and "
                              r"`sensitive-bits` of \(y_0\) itself (`uldp` releases what `vector` releases)", None),
              Fixed(HASH, "part (2) builds suWheel under every reading of the hash itself", None)))
def def3_protection(settings: AuditSettings, *, condition_11: str, empty: str):
    def satisfies_not_protects(example) -> bool:
        channel, k, eps = example
        satisfies = suldp(channel, range(k), eps, condition_11=condition_11)
        return bool(satisfies) and not sensitive_protection(channel, range(k), eps)

    def describe(example) -> dict:
        channel, k, eps = example
        return {"sets": [list(s) for s in channel.inputs], "sensitive_items": list(range(k)),
                "outputs": [[y0, list(r)] for y0, r in channel.outputs],
                "rows": [[str(p) for p in row] for row in channel.rows], "epsilon": eps,
                "found": f"SULDP ({condition_11}) holds, yet two sets that differ only in sensitive items are told "
                         r"apart beyond \(e^{\varepsilon}\)",
                KERNEL_CHECKS: [suldp_check(channel, range(k), eps, "The mechanism on sets", expected="holds"),
                                sensitive_protection_check(channel, range(k), eps, "The mechanism on sets",
                                                           expected="does not hold")]}

    family = exhaustive_step("every mechanism of a family: sets of 2 of 3 items, 2 sensitive, one protected label, "
                             r"probabilities in tenths, \(\varepsilon \in \{1/2, 1\}\)",
                             searched_set_channels(True, empty=empty),
                             lambda example: describe(example) if satisfies_not_protects(example) else None)
    steps = [family]
    if family.counterexample is None:
        example = find_counterexample(searched_set_channels(False, empty=empty), satisfies_not_protects, settings)
        steps.append(search_step(r"sets of \(m \le 2\) items of \(d \le 3\), \(k\) sensitive, protected labels `a`, "
                                 rf"`b`, releases with {'and without ' if empty == 'absent' else ''}a protected "
                                 r"part, random weights; \(\varepsilon \in \{1/2, 1, \ln "
                                 r"2\}\)", example, describe, settings))
    steps += _mechanism_protection_steps(settings.deep, empty)
    return decide(steps, r"SULDP under this reading protects sensitive items as \(\varepsilon\)-LDP does, and the five "
                         "mechanisms do.", r"Sensitive items are not protected as \(\varepsilon\)-LDP protects them.")


def under_every_value(build, choice, *args, **kwargs) -> list[tuple[str, object]]:
    """``[(value, object)]``: what the builder ``build`` builds under each value of ``choice``, for a claim that
    builds them all itself (``Fixed(choice, why, None)``; the builder records each value given as read)."""
    return [(value, build(*args, **kwargs, **{choice.name: value})) for value in choice.values]


@functools.cache
def _mechanism_protection_steps(deep: bool, empty: str) -> tuple:
    """The five mechanisms' step: the same for every reading of (11), so computed once per reading of the empty y0."""
    cases = [case for case in set_cases(4 if deep else 3, max_m=2)
             if case[2] < case[0] and (deep or case[3] in ("1/2", "3"))]  # some item non-sensitive

    def every_release(case):
        d, m, k, eps = case
        for y, mechanism in under_every_value(sugrr, SUGRR_Y0, eps, d, range(k), m, empty=empty):
            yield rf"suGRR (\(y_0\) {y})", release_channel(mechanism)
        yield "suGRR-Sample", _channel(sugrr_sample, case, empty=empty)
        # the uldp reading of y0 releases what the vector reading releases: the whole release is the same
        for build, name in ((surap, "suRAP"), (surap_sample, "suRAP-Sample")):
            for y, mechanism in under_every_value(build, SURAP_Y0, eps, d, range(k), m):
                if y in SURAP_RELEASES:
                    yield rf"{name} (\(y_0\) {y})", release_channel(mechanism)
        if m <= 2:
            for reading, releases in under_every_value(suwheel_releases, HASH, case):
                for _, channel in releases:
                    yield f"suWheel (hash {reading})", channel

    def failure(case):
        for name, channel in every_release(case):
            verdict = sensitive_protection(channel, range(case[2]), case[3])
            if not verdict.holds:
                return _verdict_failure(verdict, case, name)
        return None

    budgets = sorted({case[3] for case in cases}, key=Fraction)
    return (exhaustive_step(r"suGRR, suGRR-Sample, suRAP, suRAP-Sample (every reading of \(y_0\)), suWheel (every "
                            rf"reading of the hash), \(d \le {cases[-1][0]}\), \(m \le 2\), \(k < d\), \(\varepsilon "
                            rf"\in {tex_set(budgets)}\)", cases, failure),)


# --- Proofs of Theorems 1, 4 and 7: the probability of an invertible output -----------------------------------------

def printed_r(name: str, epsilon: str, m: int, k: int):
    """``r`` as printed (Sec. 4.1.1 through uRR, Sec. 4.2.1 (18), the proof of Theorem 7), from the budget: suGRR
    ``(E - 1) / (E + k - 1)`` with ``E = e^{eps/m}``; suRAP ``(E - 1) / E`` with ``E = e^{eps/(2m)}``; suWheel ``1 -
    e^eps p / Omega``."""
    eps = exact_budget(epsilon)
    if name == "suGRR":
        E = (eps / m).exponential()
        return (E - 1) / (E + k - 1)
    if name == "suRAP":
        E = (eps / (2 * m)).exponential()
        return (E - 1) / E
    E = eps.exponential()
    p = 1 / (2 * m - 1 + m * E)
    return 1 - E * p / (m * p * E + 1 - m * p)


def revealed_probabilities(channel, x) -> list:
    """``P[x in R | s]`` for every input set ``s`` of the exact channel of a release ``(y0, R)``."""
    explicit = channel.explicit()
    columns = [j for j, (_, revealed) in enumerate(explicit.outputs) if x in revealed]
    return [sum((row[j] for j in columns), ZERO) for row in explicit.rows]


# --- the builders of the symbolic (z3) forms: beside the constructors they call ------------------------------------


@builds(CONDITION_11, constructs=("ratio_conditions",))
def suldp_conditions(rows: dict, E, protects: Callable = lambda output: True, *, condition_11: str) -> list:
    """The ratio conditions of (11) (Def. 3, Sec. 3.2) for z3, as ``condition_11`` reads them, on symbolic rows
    ``{set: {release: P}}`` (``ratio_conditions``)."""
    return ratio_conditions(rows, E, condition_11, protects)


@builds(SUGRR_Y0, EMPTY, constructs=("sugrr_symbolic_channels",))
def sugrr_symbolic(case: tuple, *, sugrr_y0: str, empty: str):
    """suGRR's and suGRR-Sample's releases (Sec. 4.1.1) as z3 terms, under ``sugrr_y0`` and ``empty``
    (``sugrr_symbolic_channels``)."""
    return sugrr_symbolic_channels(case, sugrr_y0, empty)


@builds(SURAP_Y0, constructs=("surap_symbolic_channels",))
def surap_symbolic(case: tuple, *, surap_y0: str):
    """suRAP's and suRAP-Sample's releases (Sec. 4.2.1) as z3 terms, the vector released as ``surap_y0`` reads it
    (``surap_symbolic_channels``)."""
    return surap_symbolic_channels(case, surap_y0)

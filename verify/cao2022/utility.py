"""Cao et al. (2022), the utility claims: the estimators are unbiased (Theorems 2 and 5) and their variances are the
stated ones (Theorems 3 and 6), checked against the exact mean and variance of each estimate for every set a user
can hold.

Means and variances add over independent users, so a check over every single user's set covers every population.
The printed variances (16), (17), (21), (22) are lost; the checks use their reconstruction from the proofs' own
model (a count is a sum of independent Bernoulli variables), in counts rather than frequencies (``n`` times).
"""

from __future__ import annotations

import functools

from ldpspec.reference.cao2022.sets import all_sets
from ldpspec.reference.cao2022.sugrr import SuGRR
from ldpspec.spec import Exact
from ldpspec.verify.cao2022.builders import sugrr, sugrr_sample, surap, surap_sample
from ldpspec.verify.cao2022.privacy import BUDGETS, exhaustive_step, set_cases
from ldpspec.verify.cao2022.readings import SUGRR_Y0, VARIANCE_MODEL
from ldpspec.verify.claims import AuditSettings, builds, claim, decide
from ldpspec.verify.common import tex_set


def _cases(settings: AuditSettings) -> list[tuple]:
    return [case for case in set_cases(4 if settings.deep else 3) if case[3] != "0"]  # eps = 0: p = q


def _mean_failure(mechanism, name: str, case: tuple) -> dict | None:
    """The first set whose estimates do not have the true counts (1 for its items, 0 elsewhere) as their mean."""
    d = case[0]
    for s in _sets(mechanism):
        means, _ = mechanism.estimate_moments([s])
        truth = [Exact.rational(1 if x in s else 0) for x in range(d)]
        if means != truth:
            x = next(x for x in range(d) if means[x] != truth[x])
            return {"mechanism": name, "d": d, "m": case[1], "sensitive_items": list(range(case[2])),
                    "epsilon": case[3], "user_set": list(s), "item": x, "true_count": str(truth[x]),
                    "expected_estimate": means[x].text()}
    return None


def _sets(mechanism) -> list[tuple]:
    return list(all_sets(mechanism.d, mechanism.m))


def _mean_steps(settings: AuditSettings, full, sample, names: tuple, **options) -> list:
    """Exhaustive unbiasedness checks of a mechanism and its Sample variant (builders of ``builders``, called with
    ``(eps, d, sensitive, m)``, and ``options`` for the full one)."""
    cases = _cases(settings)
    return [
        exhaustive_step(rf"{names[0]}, \(d \le {cases[-1][0]}\), \(m \le 3\), every \(k\), \(\varepsilon \in "
                        rf"{tex_set(BUDGETS[1:])}\), every user set",
                        cases, lambda c: _mean_failure(full(c[3], c[0], range(c[2]), c[1], **options), names[0], c)),
        exhaustive_step(f"{names[1]}, the same cases", cases,
                        lambda c: _mean_failure(sample(c[3], c[0], range(c[2]), c[1]), names[1], c)),
    ]


@claim("cao2022.theorem2", location="Sec. 4.1.2, Theorem 2",
       statement="The suGRR and suGRR-Sample estimates are unbiased.",
       methods=("exhaustive",),
       recorded={"sugrr_y0=multiset": "verified", "sugrr_y0=set": "refuted"},
       interpretation=r"\(\mathbb E[\hat c_x]\) equals the number of users holding \(x\), for every item and every "
                      "population, with the estimators (14) and (15); exact means for each set a user can hold.",
       choices=(SUGRR_Y0,))
def theorem2(settings: AuditSettings, *, sugrr_y0: str):
    steps = _mean_steps(settings, sugrr, sugrr_sample, ("suGRR", "suGRR-Sample"), sugrr_y0=sugrr_y0)
    return decide(steps, "Every estimate's mean is the true count.", "An estimate is biased.")


@claim("cao2022.theorem5", location="Sec. 4.2.2, Theorem 5",
       statement="The suRAP and suRAP-Sample estimates are unbiased.",
       methods=("exhaustive",), recorded="verified",
       interpretation=r"\(\mathbb E[\hat c_x]\) equals the number of users holding \(x\), with the estimators (19) and "
                      "(20).")
def theorem5(settings: AuditSettings):
    steps = _mean_steps(settings, surap, surap_sample, ("suRAP", "suRAP-Sample"))
    return decide(steps, "Every estimate's mean is the true count.", "An estimate is biased.")


@builds(VARIANCE_MODEL)
@functools.cache
def reconstructed_variance(mechanism, sample: bool, *, variance_model: str):
    """``(s, x) -> v``: the reconstructed variance of c_hat_x for one user holding ``s`` (``f = [x in s]``): (16) and
    (21) from the proofs of Theorems 2 and 5, and (17) and (22) of the Sample variants (Theorems 3 and 6, Sec. 4.1.2
    and 4.2.2) by the model ``variance_model`` reads their 'similarly' as. The object the choice shapes is this
    formula; it is arithmetic on the mechanism's p, q, r, with no lower-level constructor to scan for. One function
    per mechanism and reading (cached), so that what callers compute from it can be cached on it."""
    model = variance_model
    m = mechanism.m
    sensitive_items = set(mechanism.sensitive)
    p, q, r = mechanism.p, mechanism.q, mechanism.r

    @functools.cache
    def variance(s: tuple, x: int):
        f = 1 if x in s else 0
        sensitive = x in sensitive_items
        if not sample:  # (16), (21): F_x sums f Bernoulli(p) and (m - f) Bernoulli(q) (suGRR), 1 - f of them (suRAP)
            if not sensitive:
                return f * (1 - r) / r
            others = (m - f) if isinstance(mechanism, SuGRR) else (1 - f)
            return (f * p * (1 - p) + others * q * (1 - q)) / (p - q) ** 2
        if model == "split":  # (17), (22) (i)
            if not sensitive:
                return m * f * (1 - r) / r
            return m * m * (Exact.rational(f) / m * p * (1 - p) + (1 - Exact.rational(f) / m) * q * (1 - q)) / (
                p - q) ** 2
        if not sensitive:  # (ii): a holder reveals x with r/m
            return f * (m - r) / r
        holder = p / m + (1 - Exact.rational(1) / m) * q
        return m * m * (f * holder * (1 - holder) + (1 - f) * q * (1 - q)) / (p - q) ** 2

    return variance


def _mse_failure(mechanism, name: str, case: tuple, sample: bool, model: str) -> dict | None:
    """The first set and item of one user whose exact MSE (variance plus squared bias) is not the stated one. The
    paper states MSE = variance by unbiasedness; a biased estimate differs by its squared bias."""
    for s in _sets(mechanism):
        means, variances = mechanism.estimate_moments([s])
        for x in range(mechanism.d):
            mse = variances[x] + (means[x] - (1 if x in s else 0)) ** 2
            stated = reconstructed_variance(mechanism, sample, variance_model=model)(s, x)
            if mse != stated:
                return {"mechanism": name, "d": case[0], "m": case[1], "sensitive_items": list(range(case[2])),
                        "epsilon": case[3], "user_set": list(s), "item": x, "exact_mse": mse.text(),
                        "stated_mse": Exact.of(stated).text()}
    return None


def _mse_steps(settings: AuditSettings, full, sample, names: tuple, model: str, **options) -> list:
    """Exhaustive MSE checks of a mechanism and its Sample variant: ``full`` and ``sample`` build them from
    ``(eps, d, sensitive, m)``, with ``options`` for the full one."""
    cases = _cases(settings)
    return [
        exhaustive_step(rf"{names[0]}, \(d \le {cases[-1][0]}\), \(m \le 3\), every \(k\), \(\varepsilon \in "
                        rf"{tex_set(BUDGETS[1:])}\), every user set",
                        cases, lambda c: _mse_failure(full(c[3], c[0], range(c[2]), c[1], **options), names[0], c,
                                                      False, model)),
        exhaustive_step(f"{names[1]}, the same cases", cases,
                        lambda c: _mse_failure(sample(c[3], c[0], range(c[2]), c[1]), names[1], c, True, model)),
    ]


@claim("cao2022.theorem3", location="Sec. 4.1.2, Theorem 3, (16), (17)",
       statement="The MSE of suGRR is (16) and that of suGRR-Sample is (17).",
       methods=("exhaustive",),
       recorded={f"sugrr_y0={y}, variance_model={v}": ("verified" if (y, v) == ("multiset", "per-user")
                                                       else "refuted")
                 for y in SUGRR_Y0.values for v in VARIANCE_MODEL.values},
       interpretation="The printed (16) and (17) are lost. The paper takes the MSE of its unbiased estimate to be the "
                      r"variance; (16) is reconstructed from the proof of Theorem 2: \(F_x\) sums \(c_x "
                      r"\operatorname{Bernoulli}(p)\) and \(n m - c_x \operatorname{Bernoulli}(q)\) variables (\(c_x "
                      r"\operatorname{Bernoulli}(r)\) for a non-sensitive \(x\)). (17) is checked under both models "
                      "its 'similarly' allows. The exact MSE (variance plus squared bias) of each item's estimate is "
                      "compared, per item, so that the paper's total over items follows.",
       choices=(SUGRR_Y0, VARIANCE_MODEL))
def theorem3(settings: AuditSettings, *, sugrr_y0: str, variance_model: str):
    steps = _mse_steps(settings, sugrr, sugrr_sample, ("suGRR (16)", "suGRR-Sample (17)"), variance_model,
                       sugrr_y0=sugrr_y0)
    return decide(steps, "Every estimate's exact MSE is the stated one.", "An MSE differs from the stated one.")


@claim("cao2022.theorem6", location="Sec. 4.2.2, Theorem 6, (21), (22)",
       statement="The MSE of suRAP is (21) and that of suRAP-Sample is (22).",
       methods=("exhaustive",),
       recorded={"variance_model=split": "refuted", "variance_model=per-user": "verified"},
       interpretation=r"The printed (21) and (22) are lost; reconstructed as for Theorem 3: bit \(x\) of a user is a "
                      r"Bernoulli(\(p\) or \(q\)) variable (\(r\) or 0 for a non-sensitive \(x\)), and (22) under both "
                      r"models. suRAP's reading of \(y_0\) does not change its counts.",
       choices=(VARIANCE_MODEL,))
def theorem6(settings: AuditSettings, *, variance_model: str):
    steps = _mse_steps(settings, surap, surap_sample, ("suRAP (21)", "suRAP-Sample (22)"), variance_model)
    return decide(steps, "Every estimate's exact MSE is the stated one.", "An MSE differs from the stated one.")


def _total_variance(mechanism) -> Exact:
    """The sum over items of the exact variances of the estimates, for one user holding each set of m items."""
    sets = _sets(mechanism)
    _, variances = mechanism.estimate_moments(sets)
    return sum(variances, Exact.rational(0))


@claim("cao2022.sec4-remarks", location="Sec. 4.1.1, 4.2.1",
       statement=r"suGRR in essence splits \(\varepsilon\), so its error grows as \(m\) grows. For GRR-based "
                 r"mechanisms \(p\), \(q\), \(r\) tend to 0 when the domain is large, which lowers utility; RAPPOR is "
                 "not affected this way. RAPPOR-based mechanisms improve on GRR-based ones.",
       methods=("exhaustive",), recorded="refuted",
       interpretation="Error: the sum over items of the exact variances of the estimates, for a population holding "
                      r"every set of \(m\) items once. (1) suGRR's error increases with \(m\) (\(d\), \(k\), "
                      r"\(\varepsilon\) fixed); (2) uRR's \(p\), \(q\), \(r\) decrease towards 0 as the domain grows, "
                      "and suRAP's do not change; (3) suRAP's error is below suGRR's, and suRAP-Sample's below "
                      "suGRR-Sample's, on the same population.")
def sec4_remarks(settings: AuditSettings):
    largest = 5 if settings.deep else 4
    grid = [(d, k, eps) for d in range(3, largest + 1) for k in range(1, d + 1) for eps in BUDGETS[1:]]

    def grows_with_m(case):
        d, k, eps = case
        errors = [_total_variance(sugrr(eps, d, range(k), m)) for m in range(1, d)]
        for m in range(1, len(errors)):
            if not errors[m] > errors[m - 1]:
                return {"d": d, "sensitive_items": list(range(k)), "epsilon": eps, "m": [m, m + 1],
                        "errors": [errors[m - 1].text(), errors[m].text()]}
        return None

    def shrinks_with_domain(case):
        d, k, eps = case
        small, large = sugrr(eps, d, range(k), 1), sugrr(eps, d + 1, range(k + 1), 1)
        rappor_small, rappor_large = surap(eps, d, range(k), 1), surap(eps, d + 1, range(k + 1), 1)
        if not (large.p < small.p and large.q < small.q and large.r < small.r):
            return {"mechanism": "suGRR", "d": [d, d + 1], "k": [k, k + 1], "epsilon": eps}
        if (rappor_large.p, rappor_large.q, rappor_large.r) != (rappor_small.p, rappor_small.q, rappor_small.r):
            return {"mechanism": "suRAP", "d": [d, d + 1], "k": [k, k + 1], "epsilon": eps}
        return None

    def rappor_better(case):
        d, k, eps = case
        for m in range(1, min(d, 3) + 1):
            pairs = (("suGRR vs suRAP", sugrr(eps, d, range(k), m), surap(eps, d, range(k), m)),
                     ("suGRR-Sample vs suRAP-Sample", sugrr_sample(eps, d, range(k), m),
                      surap_sample(eps, d, range(k), m)))
            for name, grr, rappor in pairs:
                grr_error, rappor_error = _total_variance(grr), _total_variance(rappor)
                if not rappor_error < grr_error:
                    return {"mechanisms": name, "d": d, "m": m, "sensitive_items": list(range(k)), "epsilon": eps,
                            "errors": {"GRR-based": grr_error.text(), "RAPPOR-based": rappor_error.text()},
                            "errors_approx": {"GRR-based": str(float(grr_error)),
                                              "RAPPOR-based": str(float(rappor_error))}}
        return None

    scope = rf"\(d\) from 3 to {largest}, every \(k\), \(\varepsilon \in {tex_set(BUDGETS[1:])}\)"
    steps = [exhaustive_step(rf"(1) suGRR's error against \(m\), {scope}", grid, grows_with_m),
             exhaustive_step(r"(2) \(p\), \(q\), \(r\) from \(d\) to \(d + 1\) items (one more sensitive), "
                             f"{scope}", grid,
                             shrinks_with_domain),
             exhaustive_step(rf"(3) RAPPOR-based against GRR-based, \(m \le 3\), {scope}", grid, rappor_better)]
    return decide(steps, "All three remarks hold in every case.", "A remark fails.")

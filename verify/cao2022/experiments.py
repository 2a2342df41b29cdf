"""Cao et al. (2022), Sec. 5: the figures' statements, decided from exact MSEs on the paper's data set sizes, and
Table 4 checked against the real item catalogs.

Of the real data sets (Sales, Anime, Movie) the project holds the item catalogs of two, as summaries
(``verify/data/movielens1m``: MovieLens 1M's ``movies.dat``; ``verify/data/anime``: the Anime Recommendations
Database's ``anime.csv``; each item's genres). The users' sets (``ratings.dat``, ``rating.csv``) and the Sales
transactions could not be obtained: no whole public copy could be had (the data sets' ``SOURCE.md`` say where the audit
looked). The figures' statements can still be decided for every population: an unbiased estimate's MSE (the readings
under which Theorems 2, 5 and 8 hold, as in Table 2) is ``(1/n) sum_x [f_x v1 + (1 - f_x) v0]``, where the per-user
variances ``v1, v0`` depend only on whether ``x`` is sensitive. So the MSE depends on the data only through how many
sensitive and non-sensitive items a user holds on average (``f_sen + f_non = m``), and is linear in it. A statement
that holds at both ends of that range holds for every data set of these sizes; one that fails at both ends fails
for every data set; otherwise it depends on the data, and stays open.

The sets of the real data sets vary in size; the paper pads and samples them to ``m`` (Sec. 3.3); the computation
takes every user's set to have ``m`` items, as padding does. The simulated data set is uniform: ``f_sen = k m / d``.
The sizes are Table 4's digit runs split as ``(n, d, |X_sen|, m)`` (Sales has two splits), and, for Movie and Anime,
the sizes the catalogs give: ``d`` the catalog's number of items and ``|X_sen|`` the number of its items of the
categories Sec. 5.1 names as sensitive (the reading ``adult_genres`` for Anime), with ``n`` and ``m`` as printed.
Table 4's ``|X_sen|`` is not what the named categories give on the catalogs (``cao2022.table4``), so both sizes are
checked.
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache

from ldpspec.spec import ZERO, Exact
from ldpspec.verify.cao2022.builders import eps_budgets, surap
from ldpspec.verify.cao2022.communication import release_bits
from ldpspec.verify.cao2022.orders import BASELINE, SU_MECHANISMS, UNBIASED, mse_parts, population_splits
from ldpspec.verify.cao2022.privacy import exhaustive_step
from ldpspec.verify.cao2022.readings import ADULT_GENRES, EPS_RANGE, FLAT, MSE_SCALE, SLIGHTLY, VARIANCE_MODEL
from ldpspec.verify.claims import AuditSettings, Evidence, Step, builds, claim, decide
from ldpspec.verify.common import tex_set
from ldpspec.verify.data import summary

DATASETS = {
    "Sales": (19789, 3752, 201, 54),
    "Sales (other split)": (19789, 3752, 2015, 4),
    "Anime": (71662, 12994, 1748, 231),
    "Movie": (5641, 3883, 799, 300),
    "Simulated": (100000, 256, 64, 8),
}
"""Table 4 as ``(n, d, |X_sen|, m)``."""

CATALOGS = {"Anime": "anime", "Movie": "movielens1m"}
"""The vendored item catalog of each real data set that has one (Sales has none)."""

SENSITIVE_CATEGORIES = {
    "Movie": {"hentai": ("Thriller", "Horror"), "hentai+ecchi": ("Thriller", "Horror")},
    "Anime": {"hentai": ("Hentai", "Thriller", "Horror"), "hentai+ecchi": ("Hentai", "Ecchi", "Thriller", "Horror")},
}
"""The catalog genres of the categories Sec. 5.1 names as sensitive, under each reading of ``adult_genres``: adult,
thriller and horror for Anime; "similarly" for Movie, whose catalog has Thriller and Horror but no adult genre."""


def catalog_count(dataset: str, genres) -> int:
    """How many items of ``dataset``'s catalog have at least one of ``genres``."""
    document = summary(CATALOGS[dataset])
    mask = sum(1 << document["genres"].index(genre) for genre in genres)
    return sum(1 for item in document["item_genres"] if item & mask)


@builds(ADULT_GENRES, constructs=("catalog_count",))
@cache
def catalog_sensitive(dataset: str, *, adult_genres: str) -> tuple[tuple, int, list]:
    """The sensitive items of a real data set's catalog (Sec. 5.1): ``(genres, count, completions)``, the catalog
    genres of the categories the text names as sensitive (adult as ``adult_genres`` reads it), how many items have
    one of them, and each other genre whose addition would give Table 4's printed count."""
    genres = SENSITIVE_CATEGORIES[dataset][adult_genres]
    printed = DATASETS[dataset][2]
    completions = [genre for genre in summary(CATALOGS[dataset])["genres"]
                   if genre not in genres and catalog_count(dataset, (*genres, genre)) == printed]
    return genres, catalog_count(dataset, genres), completions


def catalog_datasets() -> dict:
    """Movie's and Anime's sizes ``(n, d, |X_sen|, m)`` with ``d`` and ``|X_sen|`` counted on their catalogs for the
    named categories (``catalog_sensitive``), ``n`` and ``m`` as Table 4 prints them."""
    sizes = {}
    for dataset in CATALOGS:
        n, _, _, m = DATASETS[dataset]
        d = summary(CATALOGS[dataset])["items"]
        sizes[f"{dataset} (catalog)"] = (n, d, catalog_sensitive(dataset)[1], m)
    return sizes


def checked_sizes() -> dict:
    """The sizes the figures' statements are checked on: Table 4's, and the catalogs' under the running reading of
    ``adult_genres``."""
    return DATASETS | catalog_datasets()


SHARES = (Fraction(1, 8), Fraction(1, 4), Fraction(1, 2), Fraction(3, 4), Fraction(1))
"""Fig. 2's sensitive shares |X_sen| / |X| (the paper does not print its grid)."""


@builds(MSE_SCALE)
def mse(name: str, eps: str, n: int, d: int, k: int, m: int, f_sen, sensitive_part: bool = False, *,
        mse_scale: str) -> Exact:
    """The exact MSE of the frequency estimates (Sec. 3.4, (12), whose display is lost), or its sensitive part (the
    sensitive items' errors, Sec. 4.4): the sum over items, or the mean, as ``mse_scale`` reads it. The object the
    choice shapes is this scale; no lower-level constructor (the parts, ``mse_parts``, are the same under both
    readings)."""
    parts = mse_parts(name, eps, d, k, m, f_sen, m - f_sen)
    total = (parts[0] if sensitive_part else sum(parts, ZERO)) / n
    return total if mse_scale == "sum" else total / d


def data_ends(n: int, d: int, k: int, m: int, uniform: bool) -> list:
    """``f_sen`` at the ends of the data's range (one value for uniform data)."""
    if uniform:
        return [Fraction(k * m, d)]
    return [f_sen for f_sen, _ in population_splits(d, k, m)]


def _statement_steps(check, label: str, datasets: dict) -> list[Step]:
    """One step per data set: ``check(name, sizes, f_sen)`` gives a failure (dict) or None. A data set whose ends
    disagree is undecided (its step is inconclusive)."""
    steps = []
    for dataset, sizes in datasets.items():
        n, d, k, m = sizes
        failures = [check(dataset, sizes, f_sen) for f_sen in data_ends(n, d, k, m, dataset == "Simulated")]
        scope = rf"{label}; {dataset} \((n, d, |X_{{sen}}|, m) = {sizes}\), " + (
            "uniform sets" if dataset == "Simulated" else r"every population (both ends of \(f_{sen}\))")
        if all(failures):
            steps.append(Step(Evidence("computation", scope, "fails for every population of these sizes"),
                              counterexample={"method": "computation", "scope": scope, "data_set": dataset,
                                              **failures[0]}))
        elif any(failures):
            steps.append(Step(Evidence("computation", scope, r"depends on the data: holds at one end of \(f_{sen}\), "
                                                             "fails at the other"), inconclusive=True))
        else:
            steps.append(Step(Evidence("computation", scope, "holds for every population of these sizes")))
    return steps


def _approx(values: dict) -> dict:
    return {key: str(float(value)) for key, value in values.items()}


def fig1_curves(dataset: str, budgets=None, f_sen=None) -> dict:
    """MSE against eps for the five mechanisms (uniform data for the simulated set; ``f_sen`` otherwise); the budgets
    of the running check's reading of ``eps_range`` when not given."""
    budgets = eps_budgets() if budgets is None else budgets
    n, d, k, m = DATASETS[dataset]
    f_sen = Fraction(k * m, d) if f_sen is None else f_sen
    return {name: [mse(name, eps, n, d, k, m, f_sen) for eps in budgets] for name in SU_MECHANISMS}


@claim("cao2022.fig1", location="Sec. 5.2.1, Fig. 1",
       statement=r"All five mechanisms' MSE decreases as \(\varepsilon\) increases; the two GRR-based mechanisms have "
                 "clearly lower utility than the other three, because the domains are large; uRR with a split budget "
                 "equals suRR (suGRR), and suRAP is better than uRAP with a split budget; suWheel is the "
                 "best-performing mechanism.",
       methods=("computation",),
       recorded={f"eps_range={eps_range}, adult_genres={adult}": verdict for eps_range, verdict in
                 (("narrow", "verified"), ("wide", "refuted")) for adult in ADULT_GENRES.values},
       interpretation=r"On each data set's sizes (Table 4's, and for Movie and Anime their catalogs' \(d\) and "
                      r"\(|X_{sen}|\) for the named sensitive categories, under the reading `adult_genres`), for every "
                      "population, each budget of the reading: (1) each MSE decreases from one budget to the next; (2) "
                      "suGRR's and suGRR-Sample's MSE exceed those of suRAP, suRAP-Sample and suWheel; (3) suGRR is "
                      r"uRR applied to each item with \(\varepsilon / m\) (the same release: suGRR's definition), and "
                      r"suRAP's MSE is below that of uRAP applied to each item with \(\varepsilon / m\) and the \(m\) "
                      "reports summed; (4) suWheel's MSE is the smallest of the five.",
       choices=(EPS_RANGE, ADULT_GENRES), fixes=UNBIASED)
def fig1(settings: AuditSettings, *, eps_range: str, adult_genres: str):
    budgets = eps_budgets(eps_range=eps_range)

    def check(dataset, sizes, f_sen):
        n, d, k, m = sizes
        curves = {name: [mse(name, eps, n, d, k, m, f_sen) for eps in budgets] for name in SU_MECHANISMS}
        for name, curve in curves.items():
            for j in range(1, len(curve)):
                if not curve[j] < curve[j - 1]:
                    return {"part": "(1) decreasing", "mechanism": name, "epsilon": budgets[j - 1: j + 1],
                            "f_sen": str(f_sen), "mse": [str(float(v)) for v in curve[j - 1: j + 1]]}
        for j, eps in enumerate(budgets):
            at = {name: curve[j] for name, curve in curves.items()}
            if not min(at["suGRR"], at["suGRR-Sample"]) > max(at["suRAP"], at["suRAP-Sample"], at["suWheel"]):
                return {"part": "(2) GRR-based worse", "epsilon": eps, "f_sen": str(f_sen), "mse": _approx(at)}
            split = urap_split_mse(eps, n, d, k, m, f_sen)
            if not at["suRAP"] < split:
                return {"part": "(3) suRAP better than uRAP with a split budget", "epsilon": eps,
                        "f_sen": str(f_sen), "mse": _approx({"suRAP": at["suRAP"], "uRAP split": split})}
            best = min(at, key=lambda name: at[name])
            if best != "suWheel" or sum(1 for v in at.values() if v == at["suWheel"]) > 1:
                return {"part": "(4) suWheel best", "epsilon": eps, "f_sen": str(f_sen), "mse": _approx(at)}
        return None

    return decide(_statement_steps(check, rf"(1)-(4), \(\varepsilon \in {tex_set(budgets)}\)", checked_sizes()),
                  "Every statement holds on every data set's sizes, for every population.",
                  "A statement fails on a data set's sizes for every population.",
                  "A statement depends on the data set's users' sets, which could not be obtained.")


def urap_split_mse(eps: str, n: int, d: int, k: int, m: int, f_sen) -> Exact:
    """uRAP applied to each of the m items with eps / m, the m unary reports summed (Murakami and Kawamoto's
    suggestion for sets): a sensitive bit of a report is set with suRAP's p (the item) or q (another item), so a
    user's count of a sensitive x sums f Bernoulli(p) and m - f Bernoulli(q), and a non-sensitive x is revealed as by
    suRAP."""
    mechanism = surap(eps, d, range(k), m)
    p, q = mechanism.p, mechanism.q
    held = (p * (1 - p) + (m - 1) * q * (1 - q)) / (p - q) ** 2
    not_held = m * q * (1 - q) / (p - q) ** 2
    _, non_sensitive = mse_parts("suRAP", eps, d, k, m, f_sen, m - f_sen)
    return (f_sen * held + (k - f_sen) * not_held + non_sensitive) / n


@claim("cao2022.fig2", location="Sec. 5.2.2, Fig. 2",
       statement=r"With \(\varepsilon = 1\) and the sensitive items chosen by random sampling, all five mechanisms' "
                 r"MSE increases with \(|X_{sen}|\); at \(|X_{sen}| / |X| = 1\) the mechanisms coincide with the "
                 "original GRR, RAPPOR and so on, and the result is the worst.",
       methods=("computation",), recorded="verified",
       interpretation=r"Sensitive items drawn at random make \(\mathbb E[f_{sen}] = |X_{sen}| m / d\) for every "
                      r"population, and the MSE is linear in \(f_{sen}\), so the expected MSE is that of \(f_{sen} = "
                      r"|X_{sen}| m / d\): decided for every data set of the paper's sizes (Table 4's, and Movie's and "
                      r"Anime's with \(d\) their catalogs' number of items). Shares 1/8, 1/4, 1/2, 3/4, 1: (1) each "
                      "MSE increases with the share; (2) at share 1 each mechanism's MSE equals its baseline's (GRR "
                      r"with \(\varepsilon / m\) per item, GRR-Sample, RAPPOR, RAPPOR-Sample, Wheel) and is the "
                      "largest of its curve.",
       fixes=UNBIASED)
def fig2(settings: AuditSettings):
    def check(dataset, sizes):
        n, d, _, m = sizes
        ks = [max(1, int(share * d)) for share in SHARES]
        for name in SU_MECHANISMS:
            curve = [mse(name, "1", n, d, k, m, Fraction(k * m, d)) for k in ks]
            for j in range(1, len(curve)):
                if not curve[j] > curve[j - 1]:
                    return {"part": "(1) increasing", "mechanism": name, "sensitive_items": ks[j - 1: j + 1],
                            "mse": [str(float(v)) for v in curve[j - 1: j + 1]]}
            baseline = mse(BASELINE[name], "1", n, d, d, m, m)
            if curve[-1] != baseline:
                return {"part": "(2) share 1 is the baseline", "mechanism": name,
                        "mse": _approx({name: curve[-1], BASELINE[name]: baseline})}
        return None

    # the sensitive items are drawn at random: only n, d and m enter, and a catalog adds its d (the same under every
    # reading of adult_genres)
    sizes = checked_sizes()
    steps = [exhaustive_step(r"each data set's sizes (Table 4's, and Movie's and Anime's catalogs' \(d\)), "
                             r"\(\varepsilon = 1\), shares 1/8 .. 1, expected over the sensitive items",
                             list(sizes.items()), lambda case: _named(case[0], check(*case)))]
    return decide(steps, "Every MSE grows with the sensitive share and is its baseline's at share 1.",
                  "A statement fails.")


def _named(dataset: str, failure: dict | None) -> dict | None:
    return None if failure is None else {"data_set": dataset, **failure}


def simulated(d: int, m: int, eps: str = "1", share=Fraction(1, 4), n: int = 100000):
    """The simulated data set of Figs. 3 and 4: uniform sets, ``share`` of the items sensitive."""
    k = max(1, int(share * d))
    return n, d, k, m, Fraction(k * m, d)


FIG3_DOMAINS = (16, 32, 64, 128, 256, 512, 1024)
FIG4_SIZES = (1, 2, 4, 8, 16, 32, 64)


@builds(FLAT)
def stays_flat(curve, *, flat: str) -> bool:
    r"""Sec. 5.2.3: whether an MSE curve over the range of \(d\) 'stays flat': its largest value is less than twice,
    or ten times, its smallest (``flat``). No lower-level constructor: the comparison is this one."""
    return max(curve) < (2 if flat == "within-factor-2" else 10) * min(curve)


def fig3_curves(scale: str) -> dict:
    return {name: [mse(name, "1", *simulated(d, 8)[:4], simulated(d, 8)[4], mse_scale=scale) for d in FIG3_DOMAINS]
            for name in SU_MECHANISMS}


@claim("cao2022.fig3", location="Sec. 5.2.3, Fig. 3",
       statement=r"As \(d\) grows (\(d \in \{16, \dots, 1024\}\), sensitive share 0.25, \(\varepsilon = 1\), \(m = "
                 r"8\), simulated uniform data), suGRR and suGRR-Sample stay flat (their sensitive part grows as "
                 r"\(|X_{sen}|^2\), cancelling the lower true frequencies), while the other three, whose sensitive "
                 r"part grows as \(|X_{sen}|\), decrease.",
       methods=("computation",),
       recorded={f"mse_scale={scale}, flat={flat}": "refuted" for scale in ("sum", "mean")
                 for flat in ("within-factor-2", "within-factor-10")},
       interpretation=r"Exact MSE on the simulated data set (\(n = 100{,}000\), uniform sets). 'Flat': the largest and "
                      r"smallest MSE over the range of \(d\) differ by less than the factor the reading `flat` "
                      r"names; 'decrease': each step of \(d\) lowers the MSE.",
       choices=(MSE_SCALE, FLAT), fixes=UNBIASED)
def fig3(settings: AuditSettings, *, mse_scale: str, flat: str):
    curves = fig3_curves(mse_scale)

    def check(name):
        curve = curves[name]
        if name.startswith("suGRR"):
            if not stays_flat(curve):
                return {"mechanism": name, "expected": "flat", "d": list(FIG3_DOMAINS),
                        "mse": [str(float(v)) for v in curve]}
        elif any(not curve[j] < curve[j - 1] for j in range(1, len(curve))):
            return {"mechanism": name, "expected": "decreasing", "d": list(FIG3_DOMAINS),
                    "mse": [str(float(v)) for v in curve]}
        return None

    steps = [exhaustive_step(rf"each mechanism, \(d \in {tex_set(FIG3_DOMAINS)}\), MSE as the {mse_scale} over items",
                             list(SU_MECHANISMS), check)]
    return decide(steps, "suGRR and suGRR-Sample stay flat and the other three decrease.",
                  "A curve does not behave as stated.")


@claim("cao2022.sec5.2.3-sensitive-part", location="Sec. 5.2.3, explaining Fig. 3",
       statement=r"By the results of Sec. 4.4, the sensitive part of the MSE of the five mechanisms grows as "
                 r"\(|X_{sen}|\) grows, that is, as \(d\) grows.",
       methods=("computation",), recorded={"mse_scale=sum": "verified", "mse_scale=mean": "refuted"},
       interpretation=r"On Fig. 3's simulated data sets (\(n = 100{,}000\), uniform sets, \(m = 8\), \(\varepsilon = "
                      r"1\), a quarter of the \(d\) items sensitive, \(d \in \{16, \dots, 1024\}\)): the sensitive "
                      r"items' part of each mechanism's exact MSE increases with each step of \(d\), the MSE as the "
                      "reading `mse_scale` says.",
       choices=(MSE_SCALE,), fixes=UNBIASED)
def sec5_2_3_sensitive_part(settings: AuditSettings, *, mse_scale: str):
    def check(name):
        curve = [mse(name, "1", *simulated(d, 8)[:4], simulated(d, 8)[4], True, mse_scale=mse_scale)
                 for d in FIG3_DOMAINS]
        j = next((j for j in range(1, len(curve)) if not curve[j] > curve[j - 1]), None)
        return None if j is None else {"mechanism": name, "d": list(FIG3_DOMAINS[j - 1: j + 1]),
                                       "sensitive_part": [str(float(v)) for v in curve[j - 1: j + 1]]}

    steps = [exhaustive_step(rf"each mechanism, \(d \in {tex_set(FIG3_DOMAINS)}\), the MSE's sensitive part as the "
                             f"{mse_scale} over items", list(SU_MECHANISMS), check)]
    return decide(steps, r"Every mechanism's sensitive part grows with \(d\).",
                  r"A mechanism's sensitive part does not grow with \(d\).")


def fig4_curves() -> dict:
    return {name: [mse(name, "1", *simulated(256, m)[:4], simulated(256, m)[4]) for m in FIG4_SIZES]
            for name in SU_MECHANISMS}


@claim("cao2022.fig4", location="Sec. 5.2.4, Fig. 4",
       statement=r"As \(m\) grows (\(m \in \{1, 2, 4, \dots, 64\}\), sensitive share 0.25, \(\varepsilon = 1\), \(d = "
                 r"256\)), utility drops for all five mechanisms, and suWheel's MSE grows clearly less than the "
                 "others'.",
       methods=("computation",), recorded="verified", fixes=UNBIASED,
       interpretation=r"Exact MSE on the simulated data set (\(n = 100{,}000\), uniform sets; \(d\) is fixed, so the "
                      r"sum and the mean over items order alike): (1) each MSE increases with \(m\); (2) suWheel's "
                      r"growth factor MSE(\(m = 64\)) / MSE(\(m = 1\)) is below each other mechanism's.")
def fig4(settings: AuditSettings):
    curves = fig4_curves()

    def check(name):
        curve = curves[name]
        if any(not curve[j] > curve[j - 1] for j in range(1, len(curve))):
            return {"part": "(1) increasing", "mechanism": name, "m": list(FIG4_SIZES),
                    "mse": [str(float(v)) for v in curve]}
        if name != "suWheel":
            wheel = curves["suWheel"][-1] / curves["suWheel"][0]
            if not wheel < curve[-1] / curve[0]:
                return {"part": "(2) suWheel grows least", "mechanism": name,
                        "growth": {"suWheel": str(float(wheel)), name: str(float(curve[-1] / curve[0]))}}
        return None

    steps = [exhaustive_step(rf"each mechanism, \(m \in {tex_set(FIG4_SIZES)}\)", list(SU_MECHANISMS), check)]
    return decide(steps, r"Every MSE grows with \(m\), suWheel's least.", "A curve does not behave as stated.")


@claim("cao2022.headline", location="Abstract; Sec. 6",
       statement="The five mechanisms effectively reduce the estimation error and improve data utility; suWheel "
                 "performs best, with low communication cost and high utility.",
       methods=("computation",),
       recorded={f"adult_genres={a}, eps_range={e}, variance_model={v}": (
           "verified" if e == "narrow" else "refuted" if v == "split" else "open")
           for a in ADULT_GENRES.values for e in EPS_RANGE.values for v in VARIANCE_MODEL.values},
       interpretation=r"On each data set's sizes (Table 4's, and for Movie and Anime their catalogs' \(d\) and "
                      r"\(|X_{sen}|\) for the named sensitive categories, under the reading `adult_genres`), for every "
                      r"population, each budget of the reading `eps_range` (the abstract's statements are the "
                      r"experiments', whose budgets Fig. 1 does not print): (1) each mechanism's MSE is below its "
                      "baseline's (the existing mechanism with every item sensitive); (2) suWheel's MSE is the "
                      r"smallest of the five; (3) suWheel's release (\(y_0\) on a grid of multiples of \(p\), the "
                      r"revealed items) is shorter than suRAP's and suRAP-Sample's \(d\) bits. The Sample variants' "
                      "MSE under each reading of `variance_model`: the audit's sweep found that the budgets and the "
                      "variance model move the verdict.",
       choices=(ADULT_GENRES, EPS_RANGE, VARIANCE_MODEL), fixes=UNBIASED)
def headline(settings: AuditSettings, *, adult_genres: str, eps_range: str, variance_model: str):
    budgets = eps_budgets(eps_range=eps_range)

    def check(dataset, sizes, f_sen):
        n, d, k, m = sizes
        for eps in budgets:
            at = {name: mse(name, eps, n, d, k, m, f_sen) for name in SU_MECHANISMS}
            for name in SU_MECHANISMS:
                baseline = mse(BASELINE[name], eps, n, d, d, m, f_sen)
                if not at[name] < baseline:
                    return {"part": "(1) below the baseline", "mechanism": name, "epsilon": eps,
                            "f_sen": str(f_sen), "mse": _approx({name: at[name], BASELINE[name]: baseline})}
            if min(at, key=lambda name: at[name]) != "suWheel":
                return {"part": "(2) suWheel best", "epsilon": eps, "f_sen": str(f_sen), "mse": _approx(at)}
            bits = release_bits("suWheel", d, k, m, float(Fraction(eps)))
            if not bits < d:
                return {"part": "(3) communication", "epsilon": eps, "suWheel_bits": bits, "suRAP_bits": d}
        return None

    return decide(_statement_steps(check, rf"(1)-(3), \(\varepsilon \in {tex_set(budgets)}\)", checked_sizes()),
                  "Every statement holds on every data set's sizes, for every population.",
                  "A statement fails on a data set's sizes for every population.",
                  "A statement depends on the data set's users' sets, which could not be obtained.")


@claim("cao2022.sec1-wheel-cited", location="Sec. 1, related work (citing Wang et al. 2020)",
       statement="Wheel has lower communication than RAPPOR and PrivSet, and its MSE reaches the theoretical optimal "
                 r"lower bound for set-valued frequency estimation; PrivSet's optimal \(k\) must be found by "
                 "sequential search.",
       methods=("computation",), recorded="open",
       interpretation=r"(1) Wheel's release (\(y_0\) on a grid of multiples of \(p\), as Table 3's row needs) is "
                      r"shorter than RAPPOR's \(d\) bits on every data set's sizes and each budget of the reading "
                      r"`eps_range`. (2) PrivSet and the lower bound are Wang et al.'s; the paper states neither, and "
                      "neither is in this project: open.")
def sec1_wheel_cited(settings: AuditSettings):
    budgets = eps_budgets()

    def shorter(case):
        dataset, (n, d, k, m) = case
        for eps in budgets:
            bits = release_bits("Wheel", d, k, m, float(Fraction(eps)))
            if not bits < release_bits("RAPPOR", d, k, m, float(Fraction(eps))):
                return {"data_set": dataset, "epsilon": eps, "wheel_bits": bits, "rappor_bits": d}
        return None

    steps = [exhaustive_step(r"(1) Wheel against RAPPOR, each data set's sizes, \(\varepsilon \in "
                             rf"{tex_set(budgets)}\)",
                             list(DATASETS.items()), shorter),
             Step(Evidence("none", "(2) PrivSet, and Wang et al.'s lower bound on the MSE",
                           "not stated in the paper and not implemented here: undecided"), inconclusive=True)]
    return decide(steps, "", "Wheel's release is not shorter than RAPPOR's.",
                  "Wheel's release is shorter than RAPPOR's. No reading decides the rest: PrivSet, its search for "
                  r"\(k\) and the lower bound on the MSE are Wang et al.'s, neither stated in the paper nor held "
                  "here.")


@claim("cao2022.table4", location="Sec. 5.1, Table 4 and the paragraphs around it",
       statement=r"Table 4 gives the data sets' parameters \((n, d, |X_{sen}|, m)\): Sales 19789, 3752, 201, 54 (the "
                 "digits run together in the text; also readable as 2015, 4), its children's goods sensitive; Anime "
                 "71662, 12994, 1748, 231, the anime of the categories adult, thriller and horror sensitive; Movie "
                 "5641, 3883, 799, 300, treated similarly; the simulated data set 100000, 256, 64, 8.",
       methods=("computation",), recorded="refuted", choices=(ADULT_GENRES,),
       interpretation="Checked against the real item catalogs the project could obtain (summaries in verify/data): the "
                      r"Anime Recommendations Database's anime.csv (MyAnimeList's genres) and MovieLens \(1M\)'s "
                      "movies.dat. The sensitive items are a catalog's items of the named categories: for Anime "
                      "Thriller, Horror and the adult genre (Hentai, or Hentai and Ecchi: the reading `adult_genres`); "
                      "for Movie, 'similarly', Thriller and Horror (MovieLens has no adult genre). A printed "
                      r"\(|X_{sen}|\) other than that count refutes the row (the evidence names any one genre whose "
                      r"addition would give the printed count). A printed \(d\) equal to the catalog's size agrees; a "
                      "different one is undecided, since the domain may also hold items rated but not catalogued. "
                      r"\(n\) and \(m\), and the Sales row, need the users' sets and the Sales transactions, which "
                      "could not be obtained: undecided. The simulated row describes data the paper generates.")
def table4(settings: AuditSettings, *, adult_genres: str):
    steps = []
    for dataset, catalog in CATALOGS.items():
        _, d, k, _ = DATASETS[dataset]
        document = summary(catalog)
        genres, count, completions = catalog_sensitive(dataset, adult_genres=adult_genres)
        items = document["items"]
        scope = rf"{dataset}: \(d\) against the catalog ({catalog})"
        if items == d:
            steps.append(Step(Evidence("computation", scope, f"the catalog holds {items} items, as Table 4 prints")))
        else:
            steps.append(Step(Evidence("computation", scope, f"the catalog holds {items} items, Table 4 prints {d}: "
                                       "whether the users' sets hold items outside the catalog cannot be checked "
                                       "(not obtained)"), inconclusive=True))
        scope = rf"{dataset}: \(|X_{{sen}}|\) against the catalog's items of the genres {', '.join(genres)}"
        text = f"{count} items, Table 4 prints {k}" + (
            f"; adding the genre {' or '.join(completions)} would give {k}" if completions else "")
        steps.append(Step(Evidence("computation", scope, text), counterexample=None if count == k else {
            "method": "computation", "data_set": dataset, "catalog": catalog, "sensitive_genres": list(genres),
            "printed": k, "counted": count, "one_more_genre_giving_the_printed_count": completions}))
    steps.append(Step(Evidence("none", r"\(n\) and \(m\) of every real data set; Sales' \(d\) and \(|X_{sen}|\)",
                               "the users' sets (MovieLens' ratings.dat, the Anime database's rating.csv) and the "
                               "Sales transactions could not be obtained: undecided"), inconclusive=True))
    return decide(steps, "",
                  r"On the real catalogs the categories the text names as sensitive give another \(|X_{sen}|\) than "
                  "Table 4 prints.",
                  "What the catalogs can check agrees with Table 4; the rest needs the users' sets, which could not be "
                  "obtained.")


@builds(SLIGHTLY)
def slightly_above(higher: float, lower: float, *, slightly: str) -> bool:
    """Sec. 4.4: whether a cost ``higher`` is only 'slightly' above ``lower``: less than twice it or less than ten
    times it (``slightly``). No lower-level constructor: the comparison is this one."""
    return higher < (2 if slightly == "within-factor-2" else 10) * lower


@claim("cao2022.sec4.4-suwheel-cost", location="Sec. 4.4, after Table 3",
       statement="suWheel's communication cost is slightly higher than suGRR-Sample's, but still acceptable.",
       methods=("computation",), recorded="refuted", choices=(SLIGHTLY,),
       interpretation=r"Cost: \(\log_2 |Y|\), the bits of the shortest fixed-length code for the releases (as "
                      r"`cao2022.table3`; suWheel's \(y_0\) as the reading `y0_precision` says, one public hash). On "
                      r"each data set's sizes of Table 4 and each budget of the reading `eps_range`: (1) suWheel's "
                      "cost exceeds suGRR-Sample's; (2) 'slightly': by less than the factor the reading `slightly` "
                      "names (the paper gives no number). 'Acceptable' is not a checkable statement and is not "
                      "checked.")
def sec4_4_suwheel_cost(settings: AuditSettings, slightly: str):
    budgets = eps_budgets()
    cases = [(dataset, eps) for dataset in DATASETS for eps in budgets]

    def bits(case):
        dataset, eps = case
        _, d, k, m = DATASETS[dataset]
        return (release_bits("suWheel", d, k, m, float(Fraction(eps))),
                release_bits("suGRR-Sample", d, k, m, float(Fraction(eps))))

    def describe(case, part):
        wheel, sample = bits(case)
        return {"part": part, "data_set": case[0], "epsilon": case[1], "suWheel_bits": round(wheel, 3),
                "suGRR_Sample_bits": round(sample, 3), "ratio": round(wheel / sample, 3)}

    ratios = [bits(case)[0] / bits(case)[1] for case in cases]
    scope = rf"each data set of Table 4, \(\varepsilon \in {tex_set(budgets)}\)"
    steps = [exhaustive_step(rf"(1) suWheel's bits above suGRR-Sample's, {scope}", cases,
                             lambda case: None if bits(case)[0] > bits(case)[1] else describe(case, "(1) higher")),
             exhaustive_step(rf"(2) only slightly above, {scope} (the ratio ranges from "
                             rf"{min(ratios):.2f} to {max(ratios):.2f})", cases,
                             lambda case: None if slightly_above(*bits(case)) else describe(case, "(2) slightly"))]
    return decide(steps, "suWheel's release is longer than suGRR-Sample's, by less than the factor.",
                  "suWheel's release is not slightly longer than suGRR-Sample's.")


@claim("cao2022.sec1-rappor-sets", location="Sec. 1, related work (citing Qin et al. 2016)",
       statement="[22] implements frequency estimation of set-valued data based on RAPPOR; it is better than directly "
                 "splitting the privacy budget, but it still divides the budget by the number of items, so utility "
                 "stays low when the sets are large.",
       methods=("computation",), recorded="verified",
       interpretation=r"RAPPOR on sets (every bit at \(\varepsilon / m\), the baseline of Table 2) has a lower exact "
                      r"MSE than GRR with the budget split (\(\varepsilon / m\) per item), every item sensitive, on "
                      r"each data set's sizes of Table 4 and each budget of the reading `eps_range`; and its MSE grows "
                      r"with \(m\) (Fig. 4's simulated data set: \(d = 256\), \(\varepsilon = 1\), \(m \in "
                      rf"{tex_set(FIG4_SIZES)}\)).")
def sec1_rappor_sets(settings: AuditSettings):
    budgets = eps_budgets()

    def better(case):
        dataset, eps = case
        n, d, _, m = DATASETS[dataset]
        rappor, grr = mse("RAPPOR", eps, n, d, d, m, m), mse("GRR", eps, n, d, d, m, m)
        if not rappor < grr:
            return {"data_set": dataset, "epsilon": eps, "mse": _approx({"RAPPOR": rappor, "GRR split": grr})}
        return None

    def grows(_):
        curve = [mse("RAPPOR", "1", 100000, 256, 256, m, m) for m in FIG4_SIZES]  # Fig. 4's n and d
        for j in range(1, len(curve)):
            if not curve[j] > curve[j - 1]:
                return {"m": list(FIG4_SIZES[j - 1: j + 1]), "mse": [str(float(v)) for v in curve[j - 1: j + 1]]}
        return None

    steps = [exhaustive_step(rf"RAPPOR against GRR with a split budget, each data set of Table 4, \(\varepsilon \in "
                             rf"{tex_set(budgets)}\)", [(dataset, eps) for dataset in DATASETS for eps in budgets],
                             better),
             exhaustive_step(rf"RAPPOR's MSE against \(m \in {tex_set(FIG4_SIZES)}\), \(d = 256\), \(\varepsilon = 1\)",
                             ["RAPPOR"], grows)]
    return decide(steps, "RAPPOR on sets beats the split budget, and its MSE grows with the set size.",
                  "A part of the remark fails.")

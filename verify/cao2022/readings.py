"""What Cao et al. leave unstated, declared once: every claim that depends on one of these is checked under each value.

The page of the paper in the documentation explains each choice.
"""

from __future__ import annotations

from ldpspec.verify.claims import Choice, declare_choices

CONDITION_11 = Choice(
    "condition_11", ("marginal", "joint-unrevealed", "joint"),
    where=r"Def. 3, condition (11): 'for any output \(y_0 \in Y_{pro}\), \(M(y_0|s) \le e^{\varepsilon} M(y_0|s')\)' "
          r"does not say whether \(y_0\) is compared alone or together with the items revealed beside it.",
    meanings={"marginal": r"the marginal distribution of \(y_0\) alone (spec.suldp_marginal)",
              "joint-unrevealed": r"the whole release \((y_0, R)\), for releases that reveal nothing "
                                  "(spec.suldp_joint_unrevealed)",
              "joint": r"the whole release \((y_0, R)\), for every \(R\) both sets hold (spec.suldp_joint)"})

SUGRR_Y0 = Choice(
    "sugrr_y0", ("multiset", "set"),
    where=r"Sec. 4.1.1: suGRR's sensitive outputs 'are regarded as a set' (\(y_0\)), though two items can produce the "
          "same sensitive output.",
    meanings={"multiset": r"\(y_0\) keeps a repeated output twice and \(F_x\) counts occurrences",
              "set": r"repeats merge and \(F_x\) counts users"})

EMPTY = Choice(
    "empty", ("absent", "empty"),
    where="Sec. 4.1-4.2: when no sensitive output occurs (a Sample variant that revealed its item, or every item of "
          "suGRR revealed) the text does not say whether the release has an empty protected part.",
    meanings={"absent": "no protected part: the release is purely invertible",
              "empty": r"the empty protected part (), an element of \(Y_{pro}\)"})

SURAP_Y0 = Choice(
    "surap_y0", ("vector", "sensitive-bits", "uldp"),
    where=r"Sec. 4.2.1: '\(y_0\) equals the vector \(b\)', while \(b\)'s non-sensitive 1-bits are the invertible "
          "outputs.",
    meanings={"vector": r"\(y_0\) is the whole perturbed vector \(b\)",
              "sensitive-bits": r"\(y_0\) is \(b\) on the sensitive items",
              "uldp": "as uRAP's outputs (Murakami and Kawamoto): a vector with no non-sensitive 1 is protected "
                      r"(\(Y_{pro}\)); a vector with one is an invertible output, which (11) does not constrain"})

HASH = Choice(
    "hash", ("fixed", "family-released", "family-hidden"),
    where=r"Sec. 4.3, Algorithm 1: every user has a hash function \(h\), released with the output, but how \(h\) is "
          "drawn is not stated.",
    meanings={"fixed": "one public hash, the same for every user (several hashes tried, each on its own)",
              "family-released": r"each user draws \(h\) uniformly from a family of hashes and releases it with "
                                 r"\((y_0, R)\)",
              "family-hidden": r"each user draws \(h\) from the family and the output does not show which"})

HASH_VALUES = Choice(
    "hash_values", ("fixed", "uniform", "family"),
    where=r"Sec. 4.3.1: 'for \(x\) not in \(s\), \(z_0\) falls in \(x\)'s covered area with probability \(P_{false} = "
          r"p\)', and Theorems 8 and 9 count on it, but the hash values are not said to be random, nor how.",
    meanings={"fixed": "one public hash, the same for every user (several hashes tried, each on its own)",
              "uniform": r"each user draws \(h\) with values \(h(0)\), ..., \(h(d-1)\) independent and uniform on [0, "
                         r"1) (as Wheel's analysis assumes); probabilities and moments are averaged over \(h\)",
              "family": r"each user draws \(h\) uniformly from a finite family (the audit's four hashes); "
                        "probabilities and moments are averaged over the family"})

Y0_PRECISION = Choice(
    "y0_precision", ("cells", "grid"),
    where=r"Table 3 charges Wheel and suWheel \(\log(m e^{\varepsilon})\) bits for \(y_0\), a point of [0, 1); the "
          r"server's counts need \(y_0\)'s cell between the arcs' ends, and how many cells there are depends on where "
          "the hash values lie, which the paper does not say.",
    meanings={"cells": r"hash values anywhere in [0, 1) (the default \(h(x) = x / d\)): \(y_0\)'s cell among up to "
                       r"\(2d\)",
              "grid": r"hash values on the multiples of \(p\): \(y_0\)'s cell among at most \(\lfloor 1/p \rfloor + "
                      r"1\)"},
    fixed="grid")

MSE_SCALE = Choice(
    "mse_scale", ("sum", "mean"),
    where="Sec. 3.4, (12): the MSE's display is lost; the text says only that it is the variance plus the squared "
          "bias.",
    meanings={"sum": r"the sum over the \(d\) items of each estimate's expected squared error",
              "mean": r"the same divided by \(d\)"})

EPS_RANGE = Choice(
    "eps_range", ("narrow", "wide"),
    where=r"Sec. 4.4 ('in practice') and Fig. 1 (its \(x\)-axis): the budgets the statements are about are not "
          "printed.",
    meanings={"narrow": r"\(\varepsilon \in \{1/2, 1, 3/2, 2\}\)",
              "wide": r"\(\varepsilon \in \{1/2, 1, 2, 3, 4, 5, 6, 8\}\)"},
    fixed="wide")

VARIANCE_MODEL = Choice(
    "variance_model", ("split", "per-user"),
    where="Theorems 3 and 6: the variances (17) and (22) of the Sample variants are lost; the proofs say only "
          "'similarly' to the full mechanisms.",
    meanings={"split": r"\(F_x\) is a sum of \(n f_x/m \operatorname{Bernoulli}(p)\) and \(n(1 - f_x/m) "
                       r"\operatorname{Bernoulli}(q)\) variables (\(\operatorname{Bernoulli}(r)\) for a non-sensitive "
                       "item), as if each user split into holders and non-holders",
              "per-user": r"each user contributes one Bernoulli variable: a holder reports \(x\) with \(p/m + (1 - "
                          r"1/m) q\), a non-holder with \(q\) (a holder of a non-sensitive \(x\) reveals it with "
                          r"\(r/m\))"},
    fixed="per-user")

ADULT_GENRES = Choice(
    "adult_genres", ("hentai", "hentai+ecchi"),
    where="Sec. 5.1: the anime of the categories 'adult, thriller, horror' are sensitive; the Anime catalog's genres "
          "(MyAnimeList's) have no genre called adult, but Hentai (explicit) and Ecchi (suggestive), and the text does "
          "not say which of them it counts as adult.",
    meanings={"hentai": "adult = Hentai: the sensitive anime are those of the genres Hentai, Thriller or Horror",
              "hentai+ecchi": "adult = Hentai or Ecchi: the sensitive anime are those of the genres Hentai, Ecchi, "
                              "Thriller or Horror"})

EPS_BUDGETS = {"narrow": ("1/2", "1", "3/2", "2"), "wide": ("1/2", "1", "2", "3", "4", "5", "6", "8")}
"""The budgets of each reading of ``eps_range``."""

SLIGHTLY = Choice(
    "slightly", ("within-factor-2", "within-factor-10"),
    where="Sec. 4.4, after Table 3: suWheel's communication cost is 'slightly higher' than suGRR-Sample's, with no "
          "number for how much higher is slight.",
    meanings={"within-factor-2": "less than twice suGRR-Sample's cost",
              "within-factor-10": "less than ten times suGRR-Sample's cost (the same order of magnitude)"})

FLAT = Choice(
    "flat", ("within-factor-2", "within-factor-10"),
    where=r"Sec. 5.2.3, Fig. 3: suGRR and suGRR-Sample 'stay flat' as \(d\) grows, with no number for how much a flat "
          "curve may move.",
    meanings={"within-factor-2": r"the largest MSE over the range of \(d\) is less than twice the smallest",
              "within-factor-10": r"the largest MSE over the range of \(d\) is less than ten times the smallest"})

declare_choices("cao2022", CONDITION_11, SUGRR_Y0, EMPTY, SURAP_Y0, HASH, HASH_VALUES, Y0_PRECISION, MSE_SCALE,
                EPS_RANGE, VARIANCE_MODEL, ADULT_GENRES, SLIGHTLY, FLAT)

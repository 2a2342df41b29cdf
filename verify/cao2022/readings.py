"""What Cao et al. leave unstated, declared once: every claim that depends on one of these is checked under each value.

The page of the paper in the documentation explains each choice.
"""

from __future__ import annotations

from ldpspec.verify.ledger import Choice, declare_choices

CONDITION_11 = Choice(
    "condition_11", ("marginal", "joint-unrevealed", "joint"),
    where="Def. 3, condition (11): 'for any output y0 in Y_pro, M(y0|s) <= e^eps M(y0|s')' does not say whether y0 "
          "is compared alone or together with the items revealed beside it.",
    meanings={"marginal": "the marginal distribution of y0 alone (spec.suldp_marginal)",
              "joint-unrevealed": "the whole release (y0, R), for releases that reveal nothing "
                                  "(spec.suldp_joint_unrevealed)",
              "joint": "the whole release (y0, R), for every R both sets hold (spec.suldp_joint)"})

SUGRR_Y0 = Choice(
    "sugrr_y0", ("multiset", "set"),
    where="Sec. 4.1.1: suGRR's sensitive outputs 'are regarded as a set' (y0), though two items can produce the same "
          "sensitive output.",
    meanings={"multiset": "y0 keeps a repeated output twice and F_x counts occurrences",
              "set": "repeats merge and F_x counts users"})

EMPTY = Choice(
    "empty", ("absent", "empty"),
    where="Sec. 4.1-4.2: when no sensitive output occurs (a Sample variant that revealed its item, or every item of "
          "suGRR revealed) the text does not say whether the release has an empty protected part.",
    meanings={"absent": "no protected part: the release is purely invertible",
              "empty": "the empty protected part (), an element of Y_pro"})

SURAP_Y0 = Choice(
    "surap_y0", ("vector", "sensitive-bits"),
    where="Sec. 4.2.1: 'y0 equals the vector b', while b's non-sensitive 1-bits are the invertible outputs.",
    meanings={"vector": "y0 is the whole perturbed vector b", "sensitive-bits": "y0 is b on the sensitive items"})

HASH = Choice(
    "hash", ("fixed", "family-released", "family-hidden"),
    where="Sec. 4.3, Algorithm 1: every user has a hash function h, released with the output, but how h is drawn is "
          "not stated.",
    meanings={"fixed": "one public hash, the same for every user (several hashes tried, each on its own)",
              "family-released": "each user draws h uniformly from a family of hashes and releases it with (y0, R)",
              "family-hidden": "each user draws h from the family and the output does not show which"})

VARIANCE_MODEL = Choice(
    "variance_model", ("split", "per-user"),
    where="Theorems 3 and 6: the variances (17) and (22) of the Sample variants are lost; the proofs say only "
          "'similarly' to the full mechanisms.",
    meanings={"split": "F_x is a sum of n f_x/m Bernoulli(p) and n(1 - f_x/m) Bernoulli(q) variables (Bernoulli(r) "
                       "for a non-sensitive item), as if each user split into holders and non-holders",
              "per-user": "each user contributes one Bernoulli variable: a holder reports x with p/m + (1 - 1/m) q, "
                          "a non-holder with q (a holder of a non-sensitive x reveals it with r/m)"})

declare_choices("cao2022", CONDITION_11, SUGRR_Y0, EMPTY, SURAP_Y0, HASH, VARIANCE_MODEL)

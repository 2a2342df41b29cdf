"""What Hao et al. 2023 leave unstated, declared once: every claim that depends on one of these is checked under each
value.

The page of the paper in the documentation explains each choice.
"""

from __future__ import annotations

from ldpspec.verify.claims import Choice, declare_choices

PAIR_FUNCTION = Choice(
    "pair_function", ("max", "min", "avg"),
    where="Definition 2: the budget of a pair of inputs is 'the privacy budget function r(eps_x, eps_x')', left open; "
          "the proof of Theorem 2 bounds ratios by e^max, and MinID-LDP (which the paper cites) uses min.",
    meanings={"max": "r = max(eps_x, eps_x')", "min": "r = min(eps_x, eps_x')",
              "avg": "r = (eps_x + eps_x') / 2"})

LEVEL_BUDGET = Choice(
    "level_budget", ("perturbed", "true"),
    where="Algorithm 3, step 4: the value is kept with e^{eps_t*}/(e^{eps_t*} + 1), the budget of the perturbed "
          "level as printed and used in the proof; a reader may take the user's own (true) level instead.",
    meanings={"perturbed": "the value is perturbed with the budget of the reported level t*",
              "true": "the value is perturbed with the budget of the user's true level t"})

COMPENSATION = Choice(
    "compensation", ("A", "B", "C", "D"),
    where="Algorithm 5, step 5: the printed branches overlap and leave some levels unspecified; 'add mu - k + i "
          "datasets V_i' may replace or add to the merge's V_i; a public implementation merges in blocks.",
    meanings={"A": "replace: V_i* = max(1, mu - k + i) copies of V_i plus the conversions arriving at i",
              "B": "add: the mu - k + i compensation copies come on top of the merge's V_i",
              "C": "literal: the three branches run as written, a later assignment replacing an earlier one",
              "D": "blocks: levels in consecutive blocks of mu, every datum converted to its block's top level and "
                   "used once, no compensation"})

SIZE = Choice(
    "size", ("all", "n"),
    where="Algorithm 5, step 7: m* = (1/|V*|) sum_i S(V_i*); |V*| may count every datum of the V_i* with its copies "
          "or the users.",
    meanings={"all": "|V*| = sum_i N_i, every datum of every V_i* with its copies",
              "n": "|V*| = n, the number of users"})

CLIPPING = Choice(
    "clipping", ("printed", "none"),
    where="Algorithm 5, step 6 clips n_1* and n_2* to [0, N]; Theorem 3's proof takes expectations of the unclipped "
          "corrections.",
    meanings={"printed": "n_1* and n_2* clipped to [0, N_i] as printed",
              "none": "the unclipped corrections, as in the proof"})

VARIANCE_MEANING = Choice(
    "variance_meaning", ("conditional", "second-moment"),
    where="Sec. 2: 'the variance of the perturbed data is always greater than 1' does not say of what: the variance "
          "of one release given its input, or the spread of the released values themselves.",
    meanings={"conditional": "Var[v* | v] > 1 for every input v",
              "second-moment": "E[v*^2] = C^2 > 1: the released values' magnitude exceeds 1"})

COMPONENT_BUDGET = Choice(
    "component_budget", ("full", "split"),
    where="Sec. 5: each user privatises all d + 1 components of its gradient, and the paper does not say how the "
          "budget is spent across them.",
    meanings={"full": "every component at its level's budget (the user's release composes to d + 1 times it)",
              "split": "the level's budget divided over the d + 1 components"})

DATA = Choice(
    "data", ("age-like", "census-2010"),
    where="Sec. 6.1 draws Fig. 1 on US_AGE, the age attribute of the paper's IPUMS extract of the 2010 US census "
          "(about 1.52 million records), which could not be obtained; the audit decides on a stand-in for it, and "
          "the stand-in is the audit's choice, not the paper's.",
    meanings={"age-like": "a made-up age shape: ages 0 .. 100 flat to 60, then declining linearly to none at 100; "
                          "10^6 users",
              "census-2010": "the 2010 US census's own count at each age 0 .. 100 (100 and over; the Census Bureau's "
                             "table, not the IPUMS sample), scaled to 1.52 million users"})

CHOICES = declare_choices("hiera2023", PAIR_FUNCTION, LEVEL_BUDGET, COMPENSATION, SIZE, CLIPPING, VARIANCE_MEANING,
                          COMPONENT_BUDGET, DATA)

"""What Hao et al. 2023 leave unstated, declared once: every claim that depends on one of these is checked under each
value.

The page of the paper in the documentation explains each choice.
"""

from __future__ import annotations

from ldpspec.verify.claims import Choice, declare_choices

PAIR_FUNCTION = Choice(
    "pair_function", ("max", "min", "avg"),
    where=r"Definition 2: the budget of a pair of inputs is 'the privacy budget function \(r(\varepsilon_x, "
          r"\varepsilon_{x'})\)', left open; the proof of Theorem 2 bounds ratios by \(e^{\max}\), and MinID-LDP "
          "(which the paper cites) uses min.",
    meanings={"max": r"\(r = \max(\varepsilon_x, \varepsilon_{x'})\)",
              "min": r"\(r = \min(\varepsilon_x, \varepsilon_{x'})\)",
              "avg": r"\(r = (\varepsilon_x + \varepsilon_{x'}) / 2\)"})

LEVEL_BUDGET = Choice(
    "level_budget", ("perturbed", "true"),
    where=r"Algorithm 3, step 4: the value is kept with \(e^{\varepsilon_t^*}/(e^{\varepsilon_t^*} + 1)\), the budget "
          "of the perturbed level as printed and used in the proof; a reader may take the user's own (true) level "
          "instead.",
    meanings={"perturbed": r"the value is perturbed with the budget of the reported level \(t^*\)",
              "true": r"the value is perturbed with the budget of the user's true level \(t\)"})

COMPENSATION = Choice(
    "compensation", ("A", "B", "C", "D"),
    where=r"Algorithm 5, step 5: the printed branches overlap and leave some levels unspecified; 'add \(\mu - k + i\) "
          r"datasets \(V_i\)' may replace or add to the merge's \(V_i\); a public implementation merges in blocks.",
    meanings={"A": r"replace: \(V_i^* = \max(1, \mu - k + i)\) copies of \(V_i\) plus the conversions arriving at "
                   r"\(i\)",
              "B": r"add: the \(\mu - k + i\) compensation copies come on top of the merge's \(V_i\)",
              "C": "literal: the three branches run as written, a later assignment replacing an earlier one",
              "D": r"blocks: levels in consecutive blocks of \(\mu\), every datum converted to its block's top level "
                   "and used once, no compensation"})

SIZE = Choice(
    "size", ("all", "n"),
    where=r"Algorithm 5, step 7: \(m^* = (1/|V^*|) \sum_i S(V_i^*)\); \(|V^*|\) may count every datum of the \(V_i^*\) "
          "with its copies or the users.",
    meanings={"all": r"\(|V^*| = \sum_i N_i\), every datum of every \(V_i^*\) with its copies",
              "n": r"\(|V^*| = n\), the number of users"})

CLIPPING = Choice(
    "clipping", ("printed", "none"),
    where=r"Algorithm 5, step 6 clips \(n_1^*\) and \(n_2^*\) to [0, \(N\)]; Theorem 3's proof takes expectations of "
          "the unclipped corrections.",
    meanings={"printed": r"\(n_1^*\) and \(n_2^*\) clipped to [0, \(N_i\)] as printed",
              "none": "the unclipped corrections, as in the proof"})

VARIANCE_MEANING = Choice(
    "variance_meaning", ("conditional", "second-moment"),
    where="Sec. 2: 'the variance of the perturbed data is always greater than 1' does not say of what: the variance "
          "of one release given its input, or the spread of the released values themselves.",
    meanings={"conditional": r"\(\operatorname{Var}[v^* | v] > 1\) for every input \(v\)",
              "second-moment": r"\(\mathbb E[(v^*)^2] = C^2 > 1\): the released values' magnitude exceeds 1"})

COMPONENT_BUDGET = Choice(
    "component_budget", ("full", "split"),
    where=r"Sec. 5: each user privatises all \(d + 1\) components of its gradient, and the paper does not say how the "
          "budget is spent across them.",
    meanings={"full": r"every component at its level's budget (the user's release composes to \(d + 1\) times it)",
              "split": r"the level's budget divided over the \(d + 1\) components"})

DATA = Choice(
    "data", ("age-like", "census-2010"),
    where="Sec. 6.1 draws Fig. 1 on US_AGE, the age attribute of the paper's IPUMS extract of the 2010 US census "
          "(about 1.52 million records), which could not be obtained; the audit decides on a stand-in for it, and "
          "the stand-in is the audit's choice, not the paper's.",
    meanings={"age-like": "a made-up age shape: ages 0 .. 100 flat to 60, then declining linearly to none at 100; "
                          r"\(10^6\) users",
              "census-2010": "the 2010 US census's own count at each age 0 .. 100 (100 and over; the Census Bureau's "
                             "table, not the IPUMS sample), scaled to 1.52 million users"})

USER_LEVEL = Choice(
    "user_level", ("largest", "smallest"),
    where=r"Sec. 5: 'the classification of \(\nabla R\) is based on the privacy classification of certain attribute "
          "data corresponding to the component', so a user's components can sit at different levels, and the paper "
          "does not say at which level the user, whose components are released together, is protected.",
    meanings={"largest": "the user's level is the most lenient of its components' levels (the largest budget)",
              "smallest": "the user's level is the strictest of its components' levels (the smallest budget)"})

CHOICES = declare_choices("hiera2023", PAIR_FUNCTION, LEVEL_BUDGET, COMPENSATION, SIZE, CLIPPING, VARIANCE_MEANING,
                          COMPONENT_BUDGET, DATA, USER_LEVEL)

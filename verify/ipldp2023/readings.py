"""What the IPLDP preprint leaves unstated, declared once: every claim that depends on one of these is checked under
each value.

The page of the paper in the documentation explains each choice.
"""

from __future__ import annotations

from ldpspec.verify.claims import Choice, declare_choices

BUDGET_OWNER = Choice(
    "budget_owner", ("output", "input"),
    where="Sec. 4.1, after Definition 3: 'for x in D_S, it should satisfy eps_x-LDP' does not say whether x is the "
          "output whose column eps_x bounds (as Definition 3 writes it) or the user's input that eps_x protects.",
    meanings={"output": "every output x in D_S has P[x|x1] <= e^{eps_x} P[x|x2] for all inputs x1, x2",
              "input": "an input x in D_S is eps_x-indistinguishable from every other input on every output: "
                       "P[y|x] <= e^{eps_x} P[y|x'] and P[y|x'] <= e^{eps_x} P[y|x] for all x', y"})

HONESTY = Choice(
    "honesty", ("across-items", "one-budget", "all-budgets"),
    where="Sec. 5.2: 'as the privacy budget decreases, users with sensitive items are more honest' does not say which "
          "budgets change, nor what is compared.",
    meanings={"across-items": "in one IPRR, an item with a smaller budget is kept (reported truthfully) with at "
                              "least the probability of an item with a larger one",
              "one-budget": "lowering one sensitive item's budget, the others fixed, does not lower the probability "
                            "that its holders report it truthfully",
              "all-budgets": "lowering every budget together (multiplying all by the same factor < 1) does not lower "
                             "the probability that a sensitive item is reported truthfully"})

POPULATION = Choice(
    "population", ("iid", "fixed"),
    where="Theorem 3: the expected loss of (12) is stated for reports whose counts are binomial (Sec. 3.1 draws the "
          "users' items i.i.d. from p); the experiments instead fix a data set and compare with its true "
          "frequencies.",
    meanings={"iid": "the n users' items are drawn i.i.d. from p, so the output counts are multinomial(n, pQ)",
              "fixed": "the n users' items are fixed with frequencies p (n p_x holders of x), each user's report "
                       "drawn independently"})

LOSS_ORDER = Choice(
    "loss_order", ("at-most", "strictly"),
    where="Sec. 6: IPRR's losses are 'lower than' URR's at the smallest budget, for any p, E, D_S and D_N; "
          "'lower' may be strict or not.",
    meanings={"at-most": "IPRR's loss is at most URR's", "strictly": "IPRR's loss is strictly below URR's"})

BUDGET_ATTACHMENT = Choice(
    "budget_attachment", ("item-wise", "any-order"),
    where="Lemma 1: E1 >= E2 compares the sorted budget sets, but the loss depends on which item holds which "
          "budget, which the lemma does not fix.",
    meanings={"item-wise": "E1 and E2 are attached to the items so that every item's budget in E1 is at least its "
                           "budget in E2 (the sorted orders agree item by item)",
              "any-order": "each of E1 and E2 is attached to the items in any order; only their sorted versions are "
                           "compared"})

WORST_CASE_RELATION = Choice(
    "worst_case_relation", ("equals", "upper-bound"),
    where="Theorems 5 and 6: the relation symbols between the worst-case loss and the stated expressions were lost "
          "in extraction (=, <=, ~ or <~).",
    meanings={"equals": "the expression is the worst-case loss (exactly, or with ratio tending to 1 in the regime "
                        "named)",
              "upper-bound": "the expression bounds the worst-case loss from above (exactly, or in the limit of the "
                             "regime named)"})

THEOREM6_FACTOR = Choice(
    "theorem6_factor", ("with-1/n", "as-extracted"),
    where="Theorem 6: the factor 1/n of the l2 expression is in the proof's last line but not in the extracted "
          "statement.",
    meanings={"with-1/n": "the l2 expression carries the factor 1/n, as in the proof",
              "as-extracted": "the l2 expression as the statement is extracted, without 1/n"})

DESIGN_RESTRICTION = Choice(
    "design_restriction", ("equality", "at-most"),
    where="Sec. 5.1, restriction (6): the ratio of q_x to qbar_x is set to e^{eps_x}; a reader may instead keep the "
          "inequality of the design problem (5) on the restricted structure.",
    meanings={"equality": "q_x = e^{eps_x} qbar_x, as (6) is written",
              "at-most": "q_x <= e^{eps_x} qbar_x, with q_x and qbar_x both free"})

SAMPLE_COUNT = Choice(
    "sample_count", ("domain", "users"),
    where="Sec. 7.1: 'We use SR to calculate SR * |D| as the sample count n'; |D| is the item domain everywhere else, "
          "which gives 4 to 20 users on Zipf.",
    meanings={"domain": "n = SR * |D|, with |D| the number of items", "users": "n = SR * (the data set's users)"})

MSE_SCALE = Choice(
    "mse_scale", ("frequencies", "counts-over-n"),
    where="Sec. 7.1: MSE = sum_x (f_x - f_hat_x)^2 / n with f_x 'the frequency count' of x: counts or frequencies, "
          "and whether n divides once or twice, are not fixed.",
    meanings={"frequencies": "sum_x (p_x - p_hat_x)^2 with p the frequencies (counts / n)",
              "counts-over-n": "sum_x (c_x - c_hat_x)^2 / n with c the counts, as printed"})

CHOICES = declare_choices(
    "ipldp2023", BUDGET_OWNER, HONESTY, POPULATION, LOSS_ORDER, BUDGET_ATTACHMENT, WORST_CASE_RELATION,
    THEOREM6_FACTOR, DESIGN_RESTRICTION, SAMPLE_COUNT, MSE_SCALE)

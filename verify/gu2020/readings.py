"""What Gu et al. leave unstated, declared once: every claim that depends on one of these is checked under each value.

The page of the paper in the documentation explains each choice and the reconstructions the checks use.
"""

from __future__ import annotations

from ldpspec.verify.claims import Choice, declare_choices

BOX = Choice(
    "box", ("authors", "none"),
    where=r"Sec. V-D, problem (9): the prose constrains only \(a_t > b_t\); the authors' code (`min_opt0.m`) adds "
          "a box.",
    meanings={"authors": r"opt0 searches \(1/2 \le a_t \le 1\), \(0 \le b_t \le 1/2\) (the authors' code)",
              "none": r"opt0 searches every \(0 < b_t < a_t < 1\) (the prose)"})

SELF_PAIRS = Choice(
    "self_pairs", ("all", "multi-item"),
    where=r"Sec. V-B eq. (6) and Sec. VI-B eq. (17) range over pairs of distinct items \(i \ne j\), while the authors' "
          r"code constrains every level with itself and Sec. V-D counts \(T^2\) constraints.",
    meanings={"all": r"every level \(s\) is constrained with itself, \(a_s(1-b_s) \le e^{\varepsilon_s} b_s(1-a_s)\), "
                     r"and (17) holds for all \(i\), \(j\) including \(i = j\) (the authors' code)",
              "multi-item": "a level is constrained with itself only when it holds two or more items, and (17) ranges "
                            r"over \(i \ne j\) (the printed quantifier)"})

DUMMY_BUDGET = Choice(
    "dummy_budget", ("min", "any"),
    where=r"Sec. VI-B after Theorem 4: 'we can select \(\varepsilon_d\) to be any value from ...'; the range and the "
          "chosen value are lost in the extracted text.",
    meanings={"min": r"the dummies have the smallest budget, \(\varepsilon_d = \min \mathcal E\)",
              "any": "the dummies have any of the items' budgets"})

RELEASE = Choice(
    "release", ("all", "real"),
    where=r"Sec. VI, Algorithm 2: the perturbed vector has \(m + l\) bits; the paper does not say whether the \(l\) "
          "dummy bits are sent (the authors' simulation generates only the real ones).",
    meanings={"all": r"the user releases all \(m + l\) bits", "real": r"the user releases the \(m\) real bits only"})

BUDGET_ASSIGNMENT = Choice(
    "budget_assignment", ("exact-shares", "random-draw"),
    where="Sec. VII-A: the items' budgets 'are randomly selected from the three values with a certain budget "
          r"distribution'; the authors' code (`PG1.m`) gives each level exactly its share of the items.",
    meanings={"exact-shares": "each level holds exactly its share of the items, placed by a random permutation",
              "random-draw": "each item's budget is drawn independently with the levels' shares as probabilities"})

LESS = Choice(
    "less", ("strict", "no-more-than"),
    where="Sec. V-D after (9): '(9) will have less worst-case MSE than both RAPPOR and OUE' does not say whether "
          "equality is excluded; the feasibility argument given only shows 'no more'.",
    meanings={"strict": "strictly less", "no-more-than": "less or equal"})

UTILITY = Choice(
    "utility", ("approximate-variance", "exact-mse"),
    where="Sec. III-C: 'OUE can provide higher utility than RAPPOR' does not name the measure.",
    meanings={"approximate-variance": r"the per-item variance \(n q(1-q)/(p-q)^2\) that Wang et al. optimise",
              "exact-mse": "the exact total MSE of single-item data, count term included"})

SKEW = Choice(
    "skew", ("shares", "values"),
    where="Sec. I, contribution (4): 'the distribution of privacy budgets of all inputs is more skewed' is not "
          "defined.",
    meanings={"shares": "fewer inputs hold the smaller budget (the distribution over the inputs, as in Fig. 6)",
              "values": "the budgets' values are further apart"})

TOY_LAYOUT = Choice(
    "toy_layout", ("hiv-flips-more", "hiv-flips-less"),
    where="Sec. V-E, Table II (the slides' 'TABLE I'): the cells of IDUE's 1 - a row come out of the extraction as the "
          "token run '0.33 0.3 0.41', so which value belongs to HIV is not recoverable from the table itself.",
    meanings={"hiv-flips-more": r"\(1 - a_1 = 0.41\) for HIV and 0.33 for the others (as the prose says HIV's flip "
                                "probability may be larger)",
              "hiv-flips-less": r"\(1 - a_1 = 0.33\) for HIV and 0.41 for the others"})

PADDING = Choice(
    "padding", ("mean", "percentile-90"),
    where=r"Sec. VII-B, Fig. 7: the padding length \(l\) of the Clothing runs is not given; Sec. VII-B recalls that "
          "Wang et al. take the 90th percentile of the users' set sizes and recommends the mean under larger budgets "
          r"(the authors' code runs Retail with \(l = 10\), its mean being 10.3).",
    meanings={"mean": r"\(l\) is the users' mean number of items, rounded (2 on Clothing)",
              "percentile-90": r"\(l\) is the 90th percentile of the users' numbers of items (3 on Clothing)"})

TOP_K = Choice(
    "top_k", ("10", "20", "50", "100"),
    where=r"Sec. VII, Figs. 4, 8 and 9: RE is the average over the top \(k\) items 'with \(k\) = ...', the value lost "
          "in the extracted text (the authors' code evaluates the top 100).",
    meanings={"10": "RE over the top 10 items", "20": "RE over the top 20 items", "50": "RE over the top 50 items",
              "100": "RE over the top 100 items"})

SMALL_PORTION = Choice(
    "small_portion", ("minority", "negligible"),
    where="Sec. V-A: for GRR 'the term that is related to the true frequencies only takes a small portion of MSE', so "
          "that the approximate MSE may drop it; 'small' is not quantified.",
    meanings={"minority": "the frequency term is less than half of the total MSE (smaller than the rest), for every "
                          r"\(d\) and \(\varepsilon\)",
              "negligible": "the frequency term is at most 10% of the total MSE, for every "
                            r"\(d\) and \(\varepsilon\), small enough to drop"})

NEAR_OPTIMAL = Choice(
    "near_optimal", ("within-10%", "within-factor-2"),
    where="Sec. V-D and Sec. VII-A (Fig. 3): opt1 and opt2 'provide the near-optimal solution'; the gap to the optimum "
          "(opt0) allowed is not stated.",
    meanings={"within-10%": "the worst-case MSE of opt1's and of opt2's optimum is at most 10% above opt0's optimum",
              "within-factor-2": "the worst-case MSE of opt1's and of opt2's optimum is less than twice opt0's "
                                 "optimum (the same order, as Fig. 3's logarithmic axis shows it)"})

LARGE_SHARE = Choice(
    "large_share", ("50%", "70%"),
    where="Sec. VII-A, Fig. 6: IDUE is like OUE 'when the percentage of the more sensitive items is large (such as "
          "more than ...)'; the threshold is lost in the extracted text.",
    meanings={"50%": "the shares of Fig. 6 from 50% (a majority of the items more sensitive) up",
              "70%": "the shares of Fig. 6 from 70% up"})

ALMOST_SAME = Choice(
    "almost_same", ("1%", "5%"),
    where="Sec. VII-A, Fig. 6: IDUE has 'almost the same' total MSE and average RE as OUE at large shares; the "
          "tolerance is not stated.",
    meanings={"1%": "IDUE's total MSE, and each item's expected absolute error (hence any average RE), within 1% of "
                    "OUE's",
              "5%": "IDUE's total MSE, and each item's expected absolute error (hence any average RE), within 5% of "
                    "OUE's"})

SPECIAL_CASE = Choice(
    "special_case", ("contained", "equal"),
    where="Sec. IV-B: 'ULDP can be regarded as a special case of the proposed MinID-LDP under two privacy levels of "
          "inputs (sensitive and non-sensitive) but with incomplete privacy policy graph' does not say which graph, "
          "nor whether the notions coincide.",
    meanings={"contained": "for some incomplete policy graph and two levels of budgets, every ULDP channel is "
                           "MinID-LDP on that graph",
              "equal": "for some incomplete policy graph and two levels of budgets, MinID-LDP on that graph is ULDP: "
                       "the same channels satisfy both"})

CLOSED_FORM = Choice(
    "closed_form", ("finite-expression", "simple-formula"),
    where="Sec. V-A: 'the elements in the inversion matrix do not have closed-form expression in general' does not "
          "say what counts as a closed form.",
    meanings={"finite-expression": "a closed form is any finite expression in the matrix's entries (sums, products "
                                   "and quotients)",
              "simple-formula": "a closed form is a formula as simple as GRR's, a few values shared by many entries"})

SIMILAR = Choice(
    "similar", ("within-factor-2", "same-order"),
    where="Sec. VII-A, Fig. 3: 'mechanisms satisfying LDP and MinID-LDP have relatively similar utility' does not say "
          "how similar.",
    meanings={"within-factor-2": "at every budget, each LDP mechanism's MSE is within a factor of 2 of IDUE's",
              "same-order": "at every budget, each LDP mechanism's MSE is within a factor of 10 of IDUE's (the same "
                            "order of magnitude, as Fig. 3's logarithmic axis shows it)"})

CHOICES = declare_choices("gu2020", BOX, SELF_PAIRS, DUMMY_BUDGET, RELEASE, BUDGET_ASSIGNMENT, LESS, UTILITY, SKEW,
                          TOY_LAYOUT, PADDING, TOP_K, SMALL_PORTION, NEAR_OPTIMAL, LARGE_SHARE, ALMOST_SAME,
                          SPECIAL_CASE, CLOSED_FORM, SIMILAR)

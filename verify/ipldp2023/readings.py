"""What the IPLDP preprint leaves unstated, declared once: every claim that depends on one of these is checked under
each value.

The page of the paper in the documentation explains each choice.
"""

from __future__ import annotations

from ldpspec.verify.claims import Choice, declare_choices

BUDGET_OWNER = Choice(
    "budget_owner", ("output", "input"),
    where=r"Sec. 4.1, after Definition 3: 'for \(x \in D_S\), it should satisfy \(\varepsilon_x\)-LDP' does not say "
          r"whether \(x\) is the output whose column \(\varepsilon_x\) bounds (as Definition 3 writes it) or the "
          r"user's input that \(\varepsilon_x\) protects.",
    meanings={"output": r"every output \(x \in D_S\) has \(P[x|x_1] \le e^{\varepsilon_x} P[x|x_2]\) for all inputs "
                        r"\(x_1\), \(x_2\)",
              "input": r"an input \(x \in D_S\) is \(\varepsilon_x\)-indistinguishable from every other input on every "
                       r"output: \(P[y|x] \le e^{\varepsilon_x} P[y|x']\) and \(P[y|x'] \le e^{\varepsilon_x} P[y|x]\) "
                       r"for all \(x'\), \(y\)"})

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
          r"users' items i.i.d. from \(p\)); the experiments instead fix a data set and compare with its true "
          "frequencies.",
    meanings={"iid": r"the \(n\) users' items are drawn i.i.d. from \(p\), so the output counts are "
                     r"\(\operatorname{multinomial}(n, pQ)\)",
              "fixed": r"the \(n\) users' items are fixed with frequencies \(p\) (\(n p_x\) holders of \(x\)), each "
                       "user's report drawn independently"})

LOSS_ORDER = Choice(
    "loss_order", ("at-most", "strictly"),
    where=r"Sec. 6: IPRR's losses are 'lower than' URR's at the smallest budget, for any \(p\), \(\mathcal E\), "
          r"\(D_S\) and \(D_N\); 'lower' may be strict or not.",
    meanings={"at-most": "IPRR's loss is at most URR's", "strictly": "IPRR's loss is strictly below URR's"})

BUDGET_ATTACHMENT = Choice(
    "budget_attachment", ("item-wise", "any-order"),
    where=r"Lemma 1: \(\mathcal E_1 \ge \mathcal E_2\) compares the sorted budget sets, but the loss depends on which "
          "item holds which budget, which the lemma does not fix.",
    meanings={"item-wise": r"\(\mathcal E_1\) and \(\mathcal E_2\) are attached to the items so that every item's "
                           r"budget in \(\mathcal E_1\) is at least its budget in \(\mathcal E_2\) (the sorted orders "
                           "agree item by item)",
              "any-order": r"each of \(\mathcal E_1\) and \(\mathcal E_2\) is attached to the items in any order; only "
                           "their sorted versions are compared"})

WORST_CASE_RELATION = Choice(
    "worst_case_relation", ("equals", "upper-bound"),
    where="Theorems 5 and 6: the relation symbols between the worst-case loss and the stated expressions were lost in "
          r"extraction (\(=\), \(\le\), \(\sim\) or \(\lesssim\)).",
    meanings={"equals": "the expression is the worst-case loss (exactly, or with ratio tending to 1 in the regime "
                        "named)",
              "upper-bound": "the expression bounds the worst-case loss from above (exactly, or in the limit of the "
                             "regime named)"})

THEOREM6_FACTOR = Choice(
    "theorem6_factor", ("with-1/n", "as-extracted"),
    where=r"Theorem 6: the factor \(1/n\) of the \(\ell_2\) expression is in the proof's last line but not in the "
          "extracted statement.",
    meanings={"with-1/n": r"the \(\ell_2\) expression carries the factor \(1/n\), as in the proof",
              "as-extracted": r"the \(\ell_2\) expression as the statement is extracted, without \(1/n\)"})

DESIGN_RESTRICTION = Choice(
    "design_restriction", ("equality", "at-most"),
    where=r"Sec. 5.1, restriction (6): the ratio of \(q_x\) to \(\bar q_x\) is set to \(e^{\varepsilon_x}\); a reader "
          "may instead keep the inequality of the design problem (5) on the restricted structure.",
    meanings={"equality": r"\(q_x = e^{\varepsilon_x} \bar q_x\), as (6) is written",
              "at-most": r"\(q_x \le e^{\varepsilon_x} \bar q_x\), with \(q_x\) and \(\bar q_x\) both free"})

SAMPLE_COUNT = Choice(
    "sample_count", ("domain", "users"),
    where=r"Sec. 7.1: 'We use SR to calculate SR * \(|D|\) as the sample count \(n\)'; \(|D|\) is the item domain "
          "everywhere else, which gives 4 to 20 users on Zipf.",
    meanings={"domain": r"\(n\) = SR * \(|D|\), with \(|D|\) the number of "
                        "items", "users": r"\(n\) = SR * (the data set's users)"})

MSE_SCALE = Choice(
    "mse_scale", ("frequencies", "counts-over-n"),
    where=r"Sec. 7.1: MSE = \(\sum_x (f_x - \hat f_x)^2 / n\) with \(f_x\) 'the frequency count' of \(x\): counts or "
          r"frequencies, and whether \(n\) divides once or twice, are not fixed.",
    meanings={"frequencies": r"\(\sum_x (p_x - \hat p_x)^2\) with \(p\) the frequencies (counts / \(n\))",
              "counts-over-n": r"\(\sum_x (c_x - \hat c_x)^2 / n\) with \(c\) the counts, as printed"})

NOT_WEAKER = Choice(
    "not_weaker", ("as-requirement", "per-item"),
    where="Sec. 4.2: 'the relaxation does not mean that IPLDP is weaker than LDP in terms of the privacy protection' "
          "does not say which LDP, nor whether the protection is that of the whole channel or each item's.",
    meanings={"as-requirement": r"as a requirement on channels, \((D, \mathcal E)\)-IPLDP is at least as strong as "
                                r"the LDP it relaxes, \((\min \mathcal E)\)-LDP: every IPLDP channel satisfies it",
              "per-item": r"each item \(x\) keeps the protection its own budget asks for: an IPLDP channel bounds "
                          r"item \(x\)'s column as \(\varepsilon_x\)-LDP bounds it, \(P[x|x_1] \le e^{\varepsilon_x} "
                          r"P[x|x_2]\) for all inputs"})

LIMITED = Choice(
    "limited", ("capped", "vanishing"),
    where=r"Sec. 4.3: 'as the minimum privacy budget of \(\mathcal E\) decreases, the utility improvement under "
          "MinID-LDP is limited' names no bound and no measure of utility.",
    meanings={"capped": r"whatever the other budgets, no \(\mathcal E\)-MinID-LDP mechanism does better than the best "
                        r"\((2 \min \mathcal E)\)-LDP one, a cap that falls with \(\min \mathcal E\)",
              "vanishing": r"the improvement over the best \((\min \mathcal E)\)-LDP mechanism tends to nothing as "
                           r"\(\min \mathcal E\) decreases"})

DESIGN_HARDNESS = Choice(
    "design_hardness", ("literal", "motivation"),
    where=r"Sec. 5.1: 'directly computing the \(|D|^2\) probabilities that make \(Q\) invertible and satisfy IPLDP is "
          "impossible; the objective of (5) is likely to be non-convex, with non-linear constraints' is hedged "
          "('likely') and hyperbolic ('impossible'); it motivates restriction (6).",
    meanings={"literal": r"every clause is asserted: no direct computation yields an invertible IPLDP \(Q\); (5)'s "
                         r"objective is not convex; its constraints are non-linear in \(Q\)",
              "motivation": "the clauses motivate (6): (5) as written is not a convex program, its objective not "
                            r"convex and its constraints written as non-linear functions, \(\ln Q(y|x) / Q(y|x')\)"})

DIRECT_ENCODING = Choice(
    "direct_encoding", ("iprr-form", "any"),
    where="Sec. 6: '(13) and (14) apply even to other mechanisms that use direct encoding' does not say which "
          r"mechanisms; (13) and (14) are written in IPRR's \(r_x\).",
    meanings={"iprr-form": r"direct encodings for which \(r\) is defined: every column constant off the diagonal, "
                           r"\(Q(y|x) = b_y + a [y = x]\) (as URR and KRR)",
              "any": r"every direct encoding, a channel from \(D\) to \(D\) estimated by (12)"})

HONEST_GROUP = Choice(
    "honest_group", ("mostly", "fully"),
    where="Sec. 5.2: following Mangat's RR, indistinguishability 'can be guaranteed by a large proportion of dishonest "
          "responses from less sensitive or non-sensitive groups, even if individuals in the sensitive group are "
          "honest'; how honest, and how large a proportion, are not stated.",
    meanings={"mostly": "the sensitive group reports its item truthfully with probability above one half, and most "
                        "reports of that item come from the other groups",
              "fully": "the sensitive group always reports its item truthfully, as in Mangat's scheme, and most "
                       "reports of that item come from the other groups"})

CHOICES = declare_choices(
    "ipldp2023", BUDGET_OWNER, HONESTY, POPULATION, LOSS_ORDER, BUDGET_ATTACHMENT, WORST_CASE_RELATION,
    THEOREM6_FACTOR, DESIGN_RESTRICTION, SAMPLE_COUNT, MSE_SCALE, NOT_WEAKER, LIMITED, DESIGN_HARDNESS,
    DIRECT_ENCODING, HONEST_GROUP)

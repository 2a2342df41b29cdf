"""The builders of what the IPLDP preprint's choices shape (``builds`` in verify/claims.py): the IPLDP predicate
(``budget_owner``), and the comparisons and examples its loose words name.

Each builder takes its choice's value as the keyword argument named after it; a check leaves it to the running
reading unless its claim varies the choice (or fixes it on purpose). The builders of the other choices are in the
modules that hold the objects: ``losses.population_terms`` (``population``), ``losses.direct_encodings``
(``direct_encoding``), ``mechanisms.numerical_design`` (``design_restriction``), ``experiments.sample_count``
(``sample_count``) and ``experiments.mse_values`` (``mse_scale``).
"""

from __future__ import annotations

from fractions import Fraction

import z3

from ldpspec.reference.ipldp2023.iprr import IPRR
from ldpspec.spec import Channel, Exact, InvalidParameter, budget, ipldp, ldp, output_loss
from ldpspec.verify.claims import builds
from ldpspec.verify.ipldp2023.readings import (
    BUDGET_ATTACHMENT,
    BUDGET_OWNER,
    DESIGN_HARDNESS,
    HONEST_GROUP,
    HONESTY,
    LIMITED,
    LOSS_ORDER,
    NOT_WEAKER,
    THEOREM6_FACTOR,
    WORST_CASE_RELATION,
)
from ldpspec.verify.kernel_checks import input_budgets_text, kernel_check
from ldpspec.verify.symbolic import Condition

# --- budget_owner: the IPLDP predicate (Definition 3, Sec. 4.1) --------------------------------------------------

@builds(BUDGET_OWNER, constructs=("ipldp",))
def ipldp_holds(channel, budgets, *, budget_owner: str) -> bool:
    """Whether ``channel`` satisfies ``(D_S, E)``-IPLDP (Definition 3, Sec. 4.1), ``budgets`` giving ``eps_x`` for
    each sensitive item (the others are ``D_N``), under the reading ``budget_owner`` of whose budget bounds a pair.

    ``output``: the kernel's predicate (``spec.ipldp``): each sensitive output ``y``'s column within
    ``e^{eps_y}``. ``input``: each sensitive input ``x`` within ``e^{eps_x}`` of every other input on every output,
    both ways. Under both, condition 2 (a non-sensitive item is output by itself only, with probability > 0) is the
    kernel's, and the kernel refuses outputs that are not items. Every IPLDP predicate a check of the paper evaluates
    on an exact channel is this one (tests/audit/test_builders.py refuses a call of ``ipldp`` anywhere else)."""
    if budget_owner == "output":
        return bool(ipldp(channel, budgets))
    stray = [y for y in channel.outputs if y not in set(channel.inputs)]
    if stray:
        raise InvalidParameter(f"IPLDP maps items to items: outputs {stray!r} are not input items")
    sensitive = {x: budget(e) for x, e in dict(budgets).items()}
    for x in channel.inputs:
        if x in sensitive:
            continue
        producers = [x2 for x2, p in zip(channel.inputs, channel.column(x)) if p]
        if producers != [x]:
            return False
    rows = {x: channel.row(x) for x in channel.inputs}
    for x, eps in sensitive.items():
        bound = eps.exponential()
        for x2 in channel.inputs:
            if x2 != x and any(a > bound * b or b > bound * a for a, b in zip(rows[x], rows[x2])):
                return False
    return True


@builds(BUDGET_OWNER)
def ipldp_check(channel, budgets, subject: str, *, expected: str, budget_owner: str) -> dict:
    """The kernel check (verify/kernel_checks.py) of the IPLDP predicate ``ipldp_holds`` builds under the reading
    ``budget_owner``, on ``channel`` with ``budgets`` (``{sensitive item: budget}``): ``ldpspec check --notion
    ipldp`` (``output``: the kernel's predicate), or with the budget on the input ``--notion minid-ldp`` with the same
    budgets, which is that predicate when every item is sensitive (each input within its own budget of every other,
    both ways, bounds every pair by the smaller of their budgets); a channel with a non-sensitive item is refused.
    ``subject`` names the channel in the check's sentence; ``expected`` is the verdict the refutation rests on."""
    verb = "is" if expected == "holds" else "is not"
    if budget_owner == "output":
        return kernel_check(channel, "ipldp", {"budgets": input_budgets_text(channel, budgets)},
                            what=f"{subject} {verb} IPLDP with the budget on the output (Definition 3 as written)",
                            expected=expected)
    if set(budgets) != set(channel.inputs):
        raise InvalidParameter("with the budget on the input, the kernel checks IPLDP as MinID-LDP: every item must "
                               "be sensitive")
    return kernel_check(channel, "minid-ldp", {"budgets": input_budgets_text(channel, budgets)},
                        what=f"{subject} {verb} IPLDP with the budget on the input: every item is sensitive, so that "
                             "is MinID-LDP with the same budgets", expected=expected)


@builds(BUDGET_OWNER)
def ipldp_conditions(rows, E, sensitive, *, budget_owner: str) -> list:
    """The privacy conditions of Definition 3 (Sec. 4.1) on symbolic rows (z3 terms; ``E[x]`` the exponentiated
    budget of a sensitive item), under the reading ``budget_owner``: each sensitive output's column within its
    ``E_y`` (``output``), or each sensitive input within its ``E_x`` of every other input on every output
    (``input``). No lower-level constructor: every symbolic IPLDP condition is written here."""
    d = len(rows)
    conditions = []
    for y in range(d):
        for x in range(d):
            for x2 in range(d):
                a, b = z3.RealVal(0) + rows[x][y], z3.RealVal(0) + rows[x2][y]  # some entries are numbers
                if budget_owner == "output":
                    if y in sensitive:
                        conditions.append(Condition((x, x2), y, a <= E[y] * b))
                elif x in sensitive and x2 != x:
                    conditions += [Condition((x, x2), y, a <= E[x] * b), Condition((x2, x), y, b <= E[x] * a)]
    return conditions


@builds(BUDGET_OWNER)
def tightest_budgets(channel, *, budget_owner: str) -> dict:
    """Each item's smallest budget with which ``channel`` (from ``D`` to itself, every item sensitive) satisfies
    IPLDP under the reading ``budget_owner`` (Sec. 4.1): its output column's loss (``output``), or its largest loss
    against another input over every output (``input``, rational channels only). ``None`` when some loss is
    infinite. No lower-level constructor: it reads the kernel's losses, as other checks do for other purposes."""
    if budget_owner == "output":
        losses = {y: loss for y, (loss, _) in output_loss(channel).items()}
    else:  # the largest ratio between x's row and another row, entry by entry, both ways (exact rationals)
        rows = {x: [v.as_rational() if isinstance(v, Exact) else Fraction(v) for v in channel.row(x)]
                for x in channel.inputs}
        if any(v is None for row in rows.values() for v in row):
            raise InvalidParameter("tightest_budgets reads rational channels only")
        losses = {}
        for x in channel.inputs:
            worst = Fraction(1)
            for x2 in channel.inputs:
                for a, b in zip(rows[x], rows[x2]):
                    if (a == 0) != (b == 0):
                        return None
                    if a:
                        worst = max(worst, a / b, b / a)
            losses[x] = budget(f"log({worst})")
    if any(loss.is_infinite for loss in losses.values()):
        return None
    return losses


# --- not_weaker (Sec. 4.2) ---------------------------------------------------------------------------------------

@builds(NOT_WEAKER)
def shows_weaker(channel, budgets, *, not_weaker: str) -> bool:
    """The comparison 'IPLDP is not weaker than LDP' (Sec. 4.2) names, for one channel: whether it shows IPLDP
    weaker. ``as-requirement``: the channel is ``(D, E)``-IPLDP and not ``(min E)``-LDP. ``per-item``: it is IPLDP
    and some item's output column exceeds that item's own budget. No lower-level constructor: the comparison is the
    object, and the IPLDP predicate in it is ``ipldp_holds``'s."""
    if not ipldp_holds(channel, budgets):
        return False
    chosen = {x: budget(e) for x, e in budgets.items()}
    if not_weaker == "as-requirement":
        return not ldp(channel, min(chosen.values()))
    columns = {x: loss for x, (loss, _) in output_loss(channel).items()}
    return any(columns[x] > chosen[x] for x in chosen)


# --- limited (Sec. 4.3) --------------------------------------------------------------------------------------------

@builds(LIMITED)
def utility_cap(smallest, *, limited: str):
    """The LDP budget 'limited' (Sec. 4.3) compares a MinID-LDP mechanism's utility with, for ``min E`` =
    ``smallest``: ``2 min E`` (``capped``: the best ``(2 min E)``-LDP mechanism bounds it) or ``min E``
    (``vanishing``: the improvement over the best ``(min E)``-LDP mechanism). No lower-level constructor: the
    comparison's bound is the object."""
    return 2 * smallest if limited == "capped" else smallest


# --- design_hardness (Sec. 5.1) -----------------------------------------------------------------------------------

@builds(DESIGN_HARDNESS)
def asserted_clauses(*, design_hardness: str) -> tuple[str, ...]:
    """The clauses of Sec. 5.1's hedged sentence that are asserted: ``literal``: 'impossible' (no direct computation
    of an invertible IPLDP Q), the non-convex objective and the non-linear constraints; ``motivation``: the
    objective and the constraints as (5) writes them. No lower-level constructor: the set of clauses is the object."""
    if design_hardness == "literal":
        return ("impossible", "non-convex objective", "non-linear constraints")
    return ("non-convex objective", "constraints written non-linearly")


# --- honesty, honest_group (Sec. 5.2) -----------------------------------------------------------------------------

@builds(HONESTY)
def honesty_comparisons(budgets, factor, *, honesty: str) -> list:
    """The comparisons 'as the privacy budget decreases, users with sensitive items are more honest' (Sec. 5.2)
    names, for one IPRR budget list and a factor < 1: ``((smaller budgets, x), (larger budgets, y))`` pairs, each
    asserting that item ``x`` under the first list is reported truthfully with at least the probability of item ``y``
    under the second. ``across-items``: two items of one IPRR, ``x``'s budget at most ``y``'s; ``one-budget``: the
    first sensitive item's budget times ``factor``, the others fixed; ``all-budgets``: every budget times ``factor``.
    No lower-level constructor: the pairs compared are the object."""
    sensitive = [x for x, b in enumerate(budgets) if b is not None]
    if honesty == "across-items":
        return [((budgets, x), (budgets, y)) for x in sensitive for y in sensitive if budgets[x] <= budgets[y]]
    if honesty == "one-budget":
        x = sensitive[0]
        lowered = list(budgets)
        lowered[x] = budgets[x] * factor
        return [((lowered, x), (budgets, x))]
    lowered = [None if v is None else v * factor for v in budgets]
    return [((lowered, x), (budgets, x)) for x in sensitive]


@builds(HONEST_GROUP)
def mangat_example(*, honest_group: str) -> tuple:
    """The example of Sec. 5.2's Mangat sentence under the reading ``honest_group``: ``(channel, sensitive budgets,
    Q(x_1|x_1), the probability mass of x_1's reports from the other groups under the uniform p, scope)``.
    ``mostly``: IPRR on Fig. 1's setting; ``fully``: one sensitive item whose holders always report it. No
    lower-level constructor: the examples are written here only."""
    if honest_group == "mostly":
        budgets = [Fraction(1, 10), Fraction(1, 2), 1, None, None]  # Fig. 1: HIV, Cancer, Hepatitis; Flu, None
        mechanism = IPRR(budgets)
        others = sum((mechanism.qbar[0] for _ in range(4)), Exact.rational(0))
        scope = (r"IPRR on Fig. 1's setting (\(\mathcal E = \{0.1, 0.5, 1\}\) on HIV, Cancer, Hepatitis; Flu and None "
                 r"non-sensitive), uniform \(p\)")
        return (mechanism.channel(), {x: b for x, b in enumerate(budgets) if b is not None}, mechanism.q[0], others,
                scope)
    a = Fraction(91, 100)
    channel = Channel(range(3), range(3), [[1, 0, 0], [a, 1 - a, 0], [a, 0, 1 - a]])
    scope = (r"one sensitive item (budget 0.1) whose holders always report it; two non-sensitive items reporting it "
             r"with probability 0.91; uniform \(p\)")
    return channel, {0: Fraction(1, 10)}, Exact.rational(1), Exact.rational(2 * a), scope


# --- loss_order, budget_attachment (Sec. 6) ------------------------------------------------------------------------

@builds(LOSS_ORDER)
def lower(ours, theirs, *, at_most, loss_order: str) -> bool:
    """'IPRR's loss is lower than' another's (Sec. 6): ``ours`` at most ``theirs`` (``at-most``), or strictly below
    (``strictly``). ``at_most(a, b)`` is the comparison ``a <= b`` of the quantities (exact, or within the rounding
    of 50-digit arithmetic). No lower-level constructor: the comparison is the object."""
    if loss_order == "at-most":
        return at_most(ours, theirs)
    return at_most(ours, theirs) and not at_most(theirs, ours)


@builds(BUDGET_ATTACHMENT)
def attach_larger(budgets, larger_values, order, *, budget_attachment: str) -> list:
    """Lemma 1's larger budget set attached to the items (Sec. 6): ``larger_values[k]`` is item ``k``'s raised
    budget; ``item-wise`` keeps it on item ``k``, ``any-order`` attaches the raised values of the sensitive items to
    them in the order ``order``. No lower-level constructor: the attachment is the object."""
    larger = list(larger_values)
    if budget_attachment == "any-order":
        sensitive = [k for k, b in enumerate(budgets) if b is not None]
        values = [larger[k] for k in sensitive]
        permuted = [values[i] for i in sorted(range(len(values)), key=lambda i: order[i])]
        for k, v in zip(sensitive, permuted):
            larger[k] = v
    return larger


# --- worst_case_relation, theorem6_factor (Theorems 5 and 6) -------------------------------------------------------

@builds(WORST_CASE_RELATION)
def relation_holds(pairs, *, worst_case_relation: str) -> bool:
    """The relation Theorems 5 and 6 state between a worst-case loss and an expression (Sec. 6), for ``pairs`` of
    ``(worst, stated, within)``, ``within(a, b)`` saying that ``a`` is at most ``b`` (in the limit the theorem
    names): ``equals`` asks ``within`` both ways, ``upper-bound`` only ``within(worst, stated)``. No lower-level
    constructor: the relation is the object."""
    if worst_case_relation == "equals":
        return all(within(worst, stated) and within(stated, worst) for worst, stated, within in pairs)
    return all(within(worst, stated) for worst, stated, within in pairs)


@builds(THEOREM6_FACTOR)
def theorem6_l2(summands, d: int, n: int, *, theorem6_factor: str):
    """Theorem 6's printed l2 expression (Sec. 6) from its sum ``summands`` over ``D_S`` and ``|D| = d``:
    ``summands^2 (1 - 1/|D|)``, divided by ``n`` (``with-1/n``, as the proof's last line) or not (``as-extracted``).
    No lower-level constructor: the expression is the object."""
    l2 = summands * summands * (1 - Fraction(1, d))
    return l2 / n if theorem6_factor == "with-1/n" else l2


@builds(BUDGET_OWNER)
def ipldp_float(q, E, *, budget_owner: str) -> bool:
    """The IPLDP conditions (Sec. 4.1) on a float matrix ``q`` from ``D`` to itself with every item sensitive,
    ``E[x]`` the exponentiated budgets: a numerical pre-filter for searches whose finds ``ipldp_holds`` then
    confirms exactly. ``output``: each column's largest entry within ``E[y]`` of its smallest; ``input``: each row
    ``x`` within ``E[x]`` of every other row, entry by entry, both ways. No lower-level constructor: the conditions
    are written here."""
    d = len(E)
    if budget_owner == "output":
        return all(q[:, y].max() <= E[y] * q[:, y].min() for y in range(d))
    return all(q[x, y] <= E[x] * q[x2, y] and q[x2, y] <= E[x] * q[x, y]
               for x in range(d) for x2 in range(d) for y in range(d))

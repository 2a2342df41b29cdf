"""Every privacy notion of the four papers as an executable predicate over a channel.

Each predicate returns a ``Verdict``: truthy when the notion holds, with the
worst witness and the margin. Predicates see the whole channel they are given,
so the channel must describe everything a user releases, jointly.

| predicate | definition |
|---|---|
| ``ldp`` | ``P[y|x] <= e^eps P[y|x']`` for all ``x, x', y`` (Gu et al. Def. 1) |
| ``id_ldp`` | ``P[y|x] <= e^{r(eps_x, eps_x')} P[y|x']`` (Gu et al. Def. 2); ``min_id_ldp``, ``avg_id_ldp`` |
| ``uldp`` | Murakami and Kawamoto, as printed in Cao et al. Def. 2, eqs. (2)-(4) |
| ``suldp_marginal``, ``suldp_joint_unrevealed``, ``suldp_joint`` | Cao et al. Def. 3, three readings of (11) |
| ``ipldp`` | IPLDP preprint Def. 3 |
| ``graded_ldp`` | Hao et al. Def. 2 on a finite set of input values, or on every number of an interval |

Each predicate is written once against the channel protocol (``spec.protocol``), so it takes every kind of channel
of the kernel: a matrix, a structured channel (judged a pair of classes at a time where its inputs come in classes),
a channel with densities, and for the pairwise notions an ``AffineFamily`` (``spec.families``): a channel for every
number of an interval whose probabilities are affine on segments, decided exactly on its corners by the segment-end
lemma. The notions that read a matrix entry by entry (ULDP, SULDP, IPLDP) take the channel's ``explicit()`` matrix.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass

from ldpspec.spec import protocol
from ldpspec.spec.channel import Channel, map_outputs, once_per_object
from ldpspec.spec.errors import InvalidParameter
from ldpspec.spec.labels import (
    LazyText,
    label_list,
    label_map,
    label_subset,
    label_to_json,
    normalize_label,
    sequence,
    value_text,
)
from ldpspec.spec.numbers import budget, exact_number
from ldpspec.spec.parameters import Parameter, input_budgets
from ldpspec.spec.protocol import checked_channel, column_loss
from ldpspec.spec.verdict import Verdict, WorstCase

PAIR_FUNCTIONS: dict[str, Callable] = {
    "min": min,
    "avg": lambda a, b: (a + b) / 2,
    "max": max,
}
"""Named pair functions ``r(eps_x, eps_x')``: MinID-LDP uses ``min``, AvgID-LDP ``avg``."""


def _explicit(channel) -> Channel:
    """The matrix of a channel, for the notions that read it entry by entry."""
    return checked_channel(channel).explicit()


def _namer(names: Mapping | None) -> Callable[..., str]:
    """How the caller's user names each parameter in messages: ``names[keyword]`` (the option typed, such as
    ``--non-sensitive``, or the file field, such as ``privacy.budgets``; ``Notion.check`` passes them), else
    ``default``, else the keyword itself (what a caller of the Python API typed)."""
    names = names or {}
    return lambda keyword, default=None: names.get(keyword, default or keyword)


def _budget_map(labels, budgets: Mapping, name: str, *, complete: bool = True) -> dict:
    mapped = label_map(labels, budgets, name, complete=complete)
    read = once_per_object(budget)
    # each label's name is written only if its budget is refused (10^6 items name 10^6 budgets)
    return {label: read(value, LazyText(lambda label=label: f"{name}[{value_text(label)}]"))
            for label, value in mapped.items()}


def _json_budgets(budgets: Mapping) -> list:
    text = once_per_object(lambda value: value.text())
    return [[label_to_json(label), text(value)] for label, value in budgets.items()]


def _resolve_pair_function(r, name: str = "r (the pair function)") -> tuple[str, Callable]:
    if isinstance(r, str) and r in PAIR_FUNCTIONS:
        return r, PAIR_FUNCTIONS[r]
    if callable(r) and not isinstance(r, str):
        return getattr(r, "__name__", "custom"), r
    raise InvalidParameter(f"{name} must be one of {', '.join(PAIR_FUNCTIONS)} or a callable; got {value_text(r)}")


# --- LDP and ID-LDP -------------------------------------------------------------------------

def ldp(channel, epsilon, max_work: int | None = None, *, names: Mapping | None = None) -> Verdict:
    """``eps``-LDP: ``P[y|x] <= e^eps P[y|x']`` for all inputs ``x, x'`` and outputs ``y``.

    A matrix is checked one output at a time; a channel given by its structure a pair of inputs (or of classes of
    inputs) at a time, at most ``max_work`` steps (``spec.protocol.MAX_PAIR_WORK`` by default). An
    ``AffineFamily`` is decided on its corners, for every number of its interval (``parameters["inputs"]`` says so).
    ``names``: how the caller's user names the parameters in messages (``{"epsilon": "--epsilon"}``; every
    predicate takes it).
    """
    channel = checked_channel(channel)
    eps = budget(epsilon, _namer(names)("epsilon"))
    worst = WorstCase("ldp", {"epsilon": eps.text(), **_scope(channel)})
    for pair, y, loss in channel.worst_ratios(max_work):
        worst.ratio(pair, y, loss, eps)
    return worst.verdict(channel)


def _scope(channel) -> dict:
    """``{"inputs": ...}`` when a verdict on the channel covers more than its judged inputs, else ``{}``."""
    scope = channel.scope()
    return {} if scope is None else {"inputs": scope}


def _policy_pairs(channel, policy, name: str) -> frozenset | None:
    """The protected pairs of a policy graph, in both orders; ``None`` protects every pair."""
    if policy is None:
        return None
    pairs = set()
    for edge in policy:
        if len(edge) != 2:
            raise InvalidParameter(f"{name} must be a collection of pairs of inputs, got {value_text(edge)}")
        label_subset(channel.inputs, edge, name)  # rejects unknown labels
        first, second = normalize_label(edge[0]), normalize_label(edge[1])
        pairs |= {(first, second), (second, first)}
    return frozenset(pairs)


def _pairwise_budget_check(channel, notion: str, input_budgets: dict, r, parameters: dict, policy=None,
                           max_work: int | None = None, names: Mapping | None = None) -> Verdict:
    named = _namer(names)
    name, function = _resolve_pair_function(r, named("r", "r (the pair function)"))
    parameters = {**parameters, "pair_function": name}
    protected = _policy_pairs(channel, policy, named("policy"))
    if protected is not None:
        parameters["policy"] = sorted(([x, x2] for x, x2 in protected if repr(x) < repr(x2)), key=repr)
    worst = WorstCase(notion, parameters)
    pairs = _filtered_pairs(channel, input_budgets, name, function, max_work) if protected is None else None
    if pairs is not None:  # a matrix: the pairs whose margin may be the smallest, by doubles (spec.protocol)
        losses = {pair: channel.pair_loss(*pair) for pair in pairs}
    elif protected is None:  # inputs in classes: one pair per pair of classes split by budget, with its loss and budget
        losses = channel.pair_losses(max_work, _budget_labels(input_budgets))
    else:
        losses = channel.pair_losses(max_work, every_pair=True)
    for (x, x2), (loss, y) in losses.items():
        if protected is not None and (x, x2) not in protected:
            continue
        bound = budget(function(input_budgets[x], input_budgets[x2]), f"r(eps[{value_text(x)}], eps[{value_text(x2)}])")
        worst.ratio((x, x2), y, loss, bound)
    return worst.verdict(channel)


def _filtered_pairs(channel, input_budgets: dict, name: str, function, max_work: int | None) -> list[tuple] | None:
    """The pairs of inputs a pairwise notion on an explicit matrix decides exactly, in the scan's order, when the
    float filter applies (``accelerator.filtered_pairs``: every entry a rational with a double, a pair function of
    ``PAIR_FUNCTIONS``, every input's budget a finite double); ``None`` when it does not, and every judged pair is
    then decided exactly. The verdict is the one the scan over every pair gives: the pairs left out have a larger
    margin than one kept. The work beyond ``max_work`` is refused first, as the scan refuses it."""
    if channel.input_classes() is not None:
        return None
    if PAIR_FUNCTIONS.get(name) is not function:
        return None
    doubles = channel.doubles()  # None but for an explicit matrix of rationals
    if doubles is None:
        return None
    channel.check_pair_work(max_work)
    double = once_per_object(float)  # the inputs share a few budget objects
    budgets = [double(input_budgets[x]) for x in channel.inputs]
    pairs = protocol.ACCELERATOR.filtered_pairs(doubles, budgets, name)
    if pairs is None:
        return None
    inputs = channel.inputs
    return [(inputs[i], inputs[j]) for i, j in pairs]


def _budget_labels(input_budgets: dict) -> dict:
    """Each input's budget as a key: equal budgets (compared exactly) share one, so inputs of one class with equal
    budgets stay together."""
    irrational = []

    def label(value):
        rational = value.as_rational()
        if rational is not None:
            return rational
        index = next((k for k, seen in enumerate(irrational) if seen == value), None)
        if index is None:
            irrational.append(value)
            index = len(irrational) - 1
        return ("irrational", index)
    label = once_per_object(label)
    return {x: label(value) for x, value in input_budgets.items()}


def _id_ldp(channel, budgets: Mapping, r, notion: str, policy=None, max_work=None, names=None) -> Verdict:
    channel = checked_channel(channel)
    input_budgets = _budget_map(channel.inputs, budgets, _namer(names)("budgets"))
    return _pairwise_budget_check(channel, notion, input_budgets, r,
                                  {"budgets": _json_budgets(input_budgets), **_scope(channel)}, policy, max_work,
                                  names)


def id_ldp(channel, budgets: Mapping, r: str | Callable, policy: Iterable | None = None,
           max_work: int | None = None, *, names: Mapping | None = None) -> Verdict:
    """``E``-ID-LDP (Gu et al. Def. 2): ``P[y|x] <= e^{r(eps_x, eps_x')} P[y|x']``.

    Args:
        budgets: a budget ``eps_x >= 0`` for every input.
        r: ``"min"``, ``"avg"``, ``"max"`` or a callable of two budgets.
        policy: optional privacy policy graph (Gu et al. Sec. VIII, after
            Blowfish privacy): the pairs of inputs that must be indistinguishable.
            By default every pair is protected (the complete graph of the definition).
        max_work: the most ``inputs^2 x outputs`` steps to take (``spec.protocol.MAX_PAIR_WORK`` by default).
    """
    return _id_ldp(channel, budgets, r, "id-ldp", policy, max_work, names)


def min_id_ldp(channel, budgets: Mapping, policy: Iterable | None = None, max_work: int | None = None, *,
               names: Mapping | None = None) -> Verdict:
    """``E``-MinID-LDP (Gu et al. Def. 3): ID-LDP with ``r = min`` (optionally on a policy graph)."""
    return _id_ldp(channel, budgets, "min", "minid-ldp", policy, max_work, names)


def avg_id_ldp(channel, budgets: Mapping, policy: Iterable | None = None, max_work: int | None = None, *,
               names: Mapping | None = None) -> Verdict:
    """``E``-AvgID-LDP (Gu et al. Sec. VIII): ID-LDP with ``r = (eps_x + eps_x') / 2`` (optionally on a policy
    graph)."""
    return _id_ldp(channel, budgets, "avg", "avgid-ldp", policy, max_work, names)


# --- ULDP --------------------------------------------------------------------------------------

def uldp(channel, sensitive_inputs: Iterable, protected_outputs: Iterable, epsilon, *,
         names: Mapping | None = None) -> Verdict:
    """``(X_sen, Y_pro, eps)``-ULDP (Cao et al. Def. 2, eqs. (2)-(4)).

    1. Every invertible output ``y`` (``Y_inv = outputs - Y_pro``) is produced
       by exactly one input, and that input is non-sensitive (2)-(3).
    2. ``P[y|x] <= e^eps P[y|x']`` for all inputs and every protected output (4).

    An output that no input produces (a zero column) is not in the mechanism's range and constrains nothing: writing
    the matrix with or without it describes the same mechanism (uRAP's vectors with two non-sensitive 1s, say).
    """
    channel = _explicit(channel)
    named = _namer(names)
    eps = budget(epsilon, named("epsilon"))
    sensitive = label_subset(channel.inputs, sensitive_inputs, named("sensitive_inputs"))
    protected = label_subset(channel.outputs, protected_outputs, named("protected_outputs"))
    worst = WorstCase("uldp", {
        "epsilon": eps.text(),
        "sensitive_inputs": [x for x in channel.inputs if x in sensitive],
        "protected_outputs": [y for y in channel.outputs if y in protected],
    })
    for j, y in enumerate(channel.outputs):
        if y in protected:
            continue
        producers = [x for x, row in zip(channel.inputs, channel.rows) if row[j]]
        if producers and (len(producers) != 1 or producers[0] in sensitive):
            worst.structural_failure(
                "invertible output", tuple(producers), y,
                f"invertible output {y!r} must be produced by exactly one non-sensitive input; "
                f"produced by {producers!r}")
    for y, (loss, pair) in channel.output_losses().items():
        if y in protected and pair is not None:
            worst.ratio(pair, y, loss, eps)
    return worst.verdict(channel)


# --- SULDP -------------------------------------------------------------------------------------

class _SetValued:
    """The validated pieces of a set-valued channel for Cao et al. Definition 3."""

    def __init__(self, channel: Channel, sensitive_items, non_sensitive_items, protected_outputs, named):
        for s in channel.inputs:
            if not isinstance(s, tuple) or len(set(s)) != len(s):
                raise InvalidParameter("SULDP needs every input of the channel to be a set of items (a list without "
                                       f"repeats); got the input {value_text(s)}")
        domain = {item for s in channel.inputs for item in s}
        sensitive_name, non_sensitive_name = named("sensitive_items"), named("non_sensitive_items")
        self.sensitive = self._items(sensitive_items, sensitive_name, domain)
        if non_sensitive_items is None:  # every other item of the input sets
            non_sensitive_items = domain - self.sensitive
        self.non_sensitive = self._items(non_sensitive_items, non_sensitive_name, domain)
        overlap = self.sensitive & self.non_sensitive
        if overlap:
            raise InvalidParameter(f"{sensitive_name} and {non_sensitive_name} must be disjoint; both contain "
                                   f"{value_text(overlap)}")
        items = self.sensitive | self.non_sensitive
        # Def. 3 takes sets of one size m; the conditions read the same for sets of several sizes, which is what a
        # mechanism sees after Sec. 3.3's padding and sampling, so any family of input sets is judged.
        self.sets = {}
        for s in channel.inputs:
            unknown = [x for x in s if x not in items]
            if unknown:
                raise InvalidParameter(f"input {value_text(s)} has items {value_text(unknown)} outside "
                                       f"{sensitive_name} and {non_sensitive_name}")
            as_set = frozenset(s)
            if as_set in self.sets.values():
                raise InvalidParameter(f"input {value_text(s)} repeats another input as a set")
            self.sets[s] = as_set
        protected_name = named("protected_outputs")
        self.protected = frozenset(normalize_label(y0, f"{protected_name} entry")
                                   for y0 in label_list(protected_outputs, protected_name, InvalidParameter))
        self.parts = {}
        for y in channel.outputs:
            if not (isinstance(y, tuple) and len(y) == 2 and isinstance(y[1], tuple) and len(set(y[1])) == len(y[1])):
                raise InvalidParameter(
                    "every output must be a pair [protected part y0, list of revealed items without repeats]; got "
                    f"{value_text(y)}")
            parts = (y[0], frozenset(y[1]))
            if parts in self.parts.values():
                raise InvalidParameter(f"output {value_text(y)} repeats another output (the revealed items form a set)")
            self.parts[y] = parts

    @staticmethod
    def _items(items, name: str, domain: set) -> frozenset:
        """Items named by the user: each must occur in some input set (a typo must not make a check pass)."""
        result = frozenset(normalize_label(x, f"{name} item") for x in label_list(items, name, InvalidParameter))
        unknown = result - domain
        if unknown:
            raise InvalidParameter(f"{name} names items that occur in no input set: {value_text(unknown)}; the items "
                                   f"are {value_text(domain)}")
        return result

    def parameters(self, eps) -> dict:
        return {
            "epsilon": eps.text(),
            "sensitive_items": sorted(self.sensitive, key=repr),
            "non_sensitive_items": sorted(self.non_sensitive, key=repr),
            "protected_outputs": sorted(self.protected, key=repr),
        }

    def check_invertible_parts(self, channel: Channel, worst: WorstCase) -> None:
        """Conditions (9)-(10), and that every output is protected or invertible. An output that no input produces
        is not in the mechanism's range and constrains nothing."""
        revealed_anywhere = set()
        for j, y in enumerate(channel.outputs):
            if not any(row[j] for row in channel.rows):
                continue
            y0, revealed = self.parts[y]
            revealed_anywhere |= revealed
            outside = revealed - self.non_sensitive
            if outside:
                worst.structural_failure("invertible output", (), y,
                                         f"output {y!r} reveals {sorted(outside, key=repr)!r}, which are not "
                                         "non-sensitive items")
            if y0 is None and not revealed:
                worst.structural_failure("output space", (), y, f"output {y!r} has neither a protected part nor a "
                                                                "revealed item")
            if y0 is not None and y0 not in self.protected and not revealed:
                # An output that reveals items is invertible (Y_inv), whatever rides along with them (uRAP's
                # vectors with a non-sensitive 1 carry their sensitive bits too); one that reveals nothing must be
                # a protected output.
                worst.structural_failure("output space", (), y, f"output {y!r} reveals nothing and its protected "
                                                                "part is not in protected_outputs")
            for s, row in zip(channel.inputs, channel.rows):
                if row[j] and not revealed <= self.sets[s]:
                    worst.structural_failure(
                        "condition (10)", (s,), y,
                        f"input {s!r} produces output {y!r} with probability > 0, "
                        f"but it reveals items not in the input set")
        for x in sorted(revealed_anywhere, key=repr):
            for s, row in zip(channel.inputs, channel.rows):
                if x in self.sets[s]:
                    mass = sum((p for p, y in zip(row, channel.outputs) if x in self.parts[y][1]), start=0)
                    if not mass:
                        worst.structural_failure(
                            "condition (9)", (s,), x,
                            f"input {s!r} contains the revealable item {x!r} but never reveals it")


def _suldp_check(channel, sensitive_items, non_sensitive_items, protected_outputs, epsilon, notion,
                 ratio_check, names: Mapping | None) -> Verdict:
    channel = _explicit(channel)
    named = _namer(names)
    eps = budget(epsilon, named("epsilon"))
    structure = _SetValued(channel, sensitive_items, non_sensitive_items, protected_outputs, named)
    worst = WorstCase(notion, structure.parameters(eps))
    structure.check_invertible_parts(channel, worst)
    ratio_check(channel, structure, eps, worst)
    return worst.verdict(channel, witness_probabilities=False)


def _column_ratio(worst: WorstCase, inputs: Sequence, column: Sequence, output, eps) -> None:
    """Add the worst ratio of one column, over the given inputs, to ``worst``."""
    loss, pair = column_loss(inputs, column)
    if pair is not None:
        worst.ratio(pair, output, loss, eps)


def suldp_marginal(channel, sensitive_items, non_sensitive_items, protected_outputs, epsilon, *,
                   names: Mapping | None = None) -> Verdict:
    """SULDP, reading A of (11): the marginal of the protected part ``y0`` alone.

    ``P[y0|s] <= e^eps P[y0|s']`` for all input sets and every ``y0`` in
    ``protected_outputs``, where ``P[y0|s]`` sums over the revealed items.
    Outputs are pairs ``(y0, revealed items)``; conditions (9)-(10) as in all readings.
    ``non_sensitive_items=None`` means every item of the input sets that is not sensitive (in every reading).
    """
    def ratio_check(channel, structure, eps, worst):
        marginal = map_outputs(channel, lambda y: y[0])
        for y0 in marginal.outputs:
            if y0 in structure.protected:
                _column_ratio(worst, marginal.inputs, marginal.column(y0), y0, eps)
    return _suldp_check(channel, sensitive_items, non_sensitive_items, protected_outputs, epsilon,
                        "suldp-marginal", ratio_check, names)


def suldp_joint_unrevealed(channel, sensitive_items, non_sensitive_items, protected_outputs, epsilon, *,
                           names: Mapping | None = None) -> Verdict:
    """SULDP, reading B restricted to outputs that reveal nothing: ``(y0, {})``.

    ``P[(y0, {})|s] <= e^eps P[(y0, {})|s']`` for all input sets and every protected ``y0``.
    """
    def ratio_check(channel, structure, eps, worst):
        for y in channel.outputs:
            y0, revealed = structure.parts[y]
            if y0 in structure.protected and not revealed:
                _column_ratio(worst, channel.inputs, channel.column(y), y, eps)
    return _suldp_check(channel, sensitive_items, non_sensitive_items, protected_outputs, epsilon,
                        "suldp-joint-unrevealed", ratio_check, names)


def suldp_joint(channel, sensitive_items, non_sensitive_items, protected_outputs, epsilon, *,
                names: Mapping | None = None) -> Verdict:
    """SULDP, reading B: the whole release ``(y0, R)``.

    ``P[(y0, R)|s] <= e^eps P[(y0, R)|s']`` for every protected ``y0``, every
    revealed set ``R`` and all input sets ``s, s'`` that both contain ``R``
    (an output revealing an item outside ``s'`` is ruled out for ``s'`` by (10)).
    """
    def ratio_check(channel, structure, eps, worst):
        for y in channel.outputs:
            y0, revealed = structure.parts[y]
            if y0 not in structure.protected:
                continue
            holders = [i for i, s in enumerate(channel.inputs) if revealed <= structure.sets[s]]
            column = channel.column(y)
            _column_ratio(worst, [channel.inputs[i] for i in holders], [column[i] for i in holders], y, eps)
    return _suldp_check(channel, sensitive_items, non_sensitive_items, protected_outputs, epsilon,
                        "suldp-joint", ratio_check, names)


SULDP_READINGS: dict[str, Callable] = {
    "suldp-marginal": suldp_marginal,
    "suldp-joint-unrevealed": suldp_joint_unrevealed,
    "suldp-joint": suldp_joint,
}
"""The three readings of Cao et al.'s condition (11), by name: which part of the release it bounds (page "SULDP")."""


# --- IPLDP -------------------------------------------------------------------------------------

def ipldp(channel, budgets: Mapping, *, names: Mapping | None = None) -> Verdict:
    """``(D_S, E)``-IPLDP (IPLDP preprint Def. 3).

    The inputs are the item domain ``D``; outputs are items of ``D``. ``budgets``
    gives ``eps_y`` for each sensitive item (``D_S``); the other items are ``D_N``.

    1. For every sensitive output ``y``: ``P[y|x] <= e^{eps_y} P[y|x']`` for all
       inputs ``x, x'`` (the budget belongs to the output).
    2. For every non-sensitive item ``x``: ``P[x|x] > 0`` and ``P[x|x'] = 0`` for ``x' != x``.
    """
    channel = _explicit(channel)
    domain = set(channel.inputs)
    stray = [y for y in channel.outputs if y not in domain]
    if stray:
        raise InvalidParameter(f"IPLDP maps items to items: outputs {value_text(stray)} are not input items")
    item_budgets = _budget_map(channel.inputs, budgets, _namer(names)("budgets"), complete=False)
    worst = WorstCase("ipldp", {"budgets": _json_budgets(item_budgets)})
    losses = channel.output_losses()
    for x in channel.inputs:
        if x in item_budgets:
            if x in losses and losses[x][1] is not None:
                loss, pair = losses[x]
                worst.ratio(pair, x, loss, item_budgets[x])
            continue
        column = channel.column(x) if x in losses else tuple(0 for _ in channel.inputs)
        producers = [x2 for x2, p in zip(channel.inputs, column) if p]
        if producers != [x]:
            worst.structural_failure(
                "non-sensitive item", tuple(producers), x,
                f"non-sensitive item {x!r} must be output by itself only, with probability > 0; "
                f"it is output by {producers!r}")
    return worst.verdict(channel)


# --- graded LDP --------------------------------------------------------------------------------

def _interval_bounds(boundaries: Sequence, budgets: Sequence, named) -> tuple[list, list]:
    where, budgets_where = named("boundaries"), named("budgets")
    bounds = [exact_number(b, f"{where}[{j}]") for j, b in enumerate(sequence(boundaries, where))]
    if len(bounds) < 2 or any(a >= b for a, b in zip(bounds, bounds[1:])):
        raise InvalidParameter(f"{where} must be at least two strictly increasing numbers, got "
                               f"[{', '.join(b.text() for b in bounds)}]")
    budgets = sequence(budgets, budgets_where)
    if len(budgets) != len(bounds) - 1:
        raise InvalidParameter(f"{budgets_where} must give one budget per interval of {where}: {len(bounds) - 1} "
                               f"intervals, {len(budgets)} budgets")
    return bounds, [budget(value, f"{budgets_where}[{j}]") for j, value in enumerate(budgets)]


def graded_ldp(channel, boundaries: Sequence, budgets: Sequence, r: str | Callable,
               max_work: int | None = None, *, names: Mapping | None = None) -> Verdict:
    """Graded LDP (Hao et al. Def. 2) on a finite set of numerical inputs, or on every number of an interval.

    Interval ``j`` of ``boundaries`` has budget ``budgets[j]``. For any two different inputs,
    ``P[y|x] <= e^{r(eps_x, eps_x')} P[y|x']``. The definition leaves ``r`` open (the paper's proof of Theorem 2 uses
    ``max``), so it is required. ``max_work`` as for ``id_ldp``. Every verdict says which inputs it covers
    (``parameters["inputs"]``):

    * a channel's inputs are numbers (their labels, read exactly) and must include every interval end point; the
      verdict covers that grid only (a mechanism may leak more between grid points, so only a failure carries over
      to the interval);
    * an ``AffineFamily`` covers every number of the interval, decided on its corner channel by the segment-end
      lemma (``spec.families``); each of its segments must lie within one interval.
    """
    bounds, level_budgets = _interval_bounds(boundaries, budgets, _namer(names))
    parameters = {"boundaries": [b.text() for b in bounds], "budgets": [e.text() for e in level_budgets]}
    channel = checked_channel(channel)
    levels = channel.input_levels(bounds)
    parameters["inputs"] = channel.scope() or (
        f"the channel's {len(channel.inputs)} inputs, a grid: the verdict is exact on them and says nothing of the "
        "numbers between them (a failure on the grid is a failure on the interval)")
    input_budgets = {x: level_budgets[level] for x, level in levels.items()}
    return _pairwise_budget_check(channel, "graded-ldp", input_budgets, r, parameters, max_work=max_work,
                                  names=names)


# --- The notions, declared once --------------------------------------------------------------------

@dataclass(frozen=True)
class Notion:
    """A privacy notion as the command line, channel files and listings see it.

    Attributes:
        name: the name of ``ldpspec check --notion``.
        predicate: the function that decides it.
        parameters: what the predicate takes besides the channel, in order.
        definition: where the notion is defined.
        docs: its page in the documentation (relative to ``docs/``).
        pairwise: whether deciding it compares every pair of inputs (its predicate takes ``max_work``).
        scans_columns: whether on an explicit matrix it scans the columns (``inputs x outputs`` steps, as LDP
            does) rather than comparing every pair.
    """

    name: str
    predicate: Callable
    parameters: tuple
    definition: str
    docs: str
    pairwise: bool = False
    scans_columns: bool = False

    @property
    def pairs_on_a_matrix(self) -> bool:
        """Whether deciding it on a matrix takes ``inputs^2 x outputs`` steps, which the matrix's size alone decides
        (checked before a channel file's numbers are read)."""
        return self.pairwise and not self.scans_columns

    def check(self, channel, values: Mapping, max_work: int | None = None, names: Mapping | None = None) -> Verdict:
        """Decide the notion with ``values`` keyed by parameter keyword, as ``Parameter.parse`` returns them.

        A list of input budgets is mapped onto the channel's inputs; an optional parameter without a value
        gets the predicate's default. ``max_work`` bounds a pairwise check (``spec.protocol.MAX_PAIR_WORK``).
        ``names``: where each value came from, as its user wrote it, keyed by keyword (``{"non_sensitive_items":
        "--non-sensitive", "budgets": "privacy.budgets"}``): every message about a value names it so (by default a
        list of budgets is named by its option).
        """
        names = dict(names or {})
        arguments = {}
        for parameter in self.parameters:
            value = values.get(parameter.keyword)
            if value is None and parameter.required:
                raise InvalidParameter(
                    f"notion {self.name} needs {parameter.option} ({parameter.help}): give it on the command line or "
                    f"in the channel file's privacy section as privacy.{parameter.file_key}")
            if value is not None and parameter.kind == "input-budgets" and not isinstance(value, Mapping):
                value = input_budgets(channel.inputs, value, names.setdefault(parameter.keyword, parameter.option))
            arguments[parameter.keyword] = value
        if self.pairwise:
            arguments["max_work"] = max_work
        return self.predicate(channel, **arguments, names=names)

    def to_json(self) -> dict:
        return {"name": self.name, "definition": self.definition,
                "parameters": [parameter.to_json() for parameter in self.parameters]}


EPSILON = Parameter("epsilon", "budget", "the budget eps", file_key="epsilon")
INPUT_BUDGETS = Parameter("budgets", "input-budgets", "a budget eps_x for every input", file_key="budgets")
PAIR_FUNCTION = Parameter("pair-function", "choice", "r(eps_x, eps_x'), the budget of a pair of inputs",
                          keyword="r", choices=tuple(PAIR_FUNCTIONS), file_key="pair_function")
POLICY = Parameter("policy", "label-pairs", "the pairs of inputs that must be indistinguishable (a policy graph); "
                   "default: every pair", required=False, file_key="policy")
SENSITIVE_INPUTS = Parameter("sensitive", "labels", "the sensitive inputs X_sen", keyword="sensitive_inputs",
                             file_key="sensitive_inputs")
PROTECTED_OUTPUTS = Parameter("protected", "labels", "the protected outputs Y_pro", keyword="protected_outputs",
                              file_key="protected_outputs")
SENSITIVE_ITEMS = Parameter("sensitive", "labels", "the sensitive items", keyword="sensitive_items",
                            file_key="sensitive_items")
NON_SENSITIVE_ITEMS = Parameter("non-sensitive", "labels", "the non-sensitive items; default: every other item of "
                                "the input sets", keyword="non_sensitive_items", required=False,
                                file_key="non_sensitive_items")
PROTECTED_PARTS = Parameter("protected", "labels", "the protected parts y0 of the outputs",
                            keyword="protected_outputs", file_key="protected_outputs")
ITEM_BUDGETS = Parameter("budgets", "input-budgets", "a budget for every sensitive item, null for a non-sensitive "
                         "item", file_key="budgets")
BOUNDARIES = Parameter("boundaries", "numbers", "the interval end points b_0 < b_1 < ... < b_k",
                       file_key="boundaries")
INTERVAL_BUDGETS = Parameter("budgets", "budgets", "a budget for every interval", file_key="interval_budgets")

_SULDP = (SENSITIVE_ITEMS, NON_SENSITIVE_ITEMS, PROTECTED_PARTS, EPSILON)
NOTIONS: dict[str, Notion] = {notion.name: notion for notion in (
    Notion("ldp", ldp, (EPSILON,), "LDP (Erlingsson et al. 2014; Gu et al. Def. 1)", "notions/ldp.md", True,
           scans_columns=True),
    Notion("id-ldp", id_ldp, (INPUT_BUDGETS, PAIR_FUNCTION, POLICY), "Gu et al. Def. 2", "notions/id-ldp.md", True),
    Notion("minid-ldp", min_id_ldp, (INPUT_BUDGETS, POLICY), "Gu et al. Def. 3", "notions/id-ldp.md", True),
    Notion("avgid-ldp", avg_id_ldp, (INPUT_BUDGETS, POLICY), "Gu et al. Sec. VIII", "notions/id-ldp.md", True),
    Notion("uldp", uldp, (SENSITIVE_INPUTS, PROTECTED_OUTPUTS, EPSILON),
           "Murakami and Kawamoto 2019, as printed in Cao et al. Def. 2", "notions/uldp.md"),
    Notion("suldp-marginal", suldp_marginal, _SULDP, "Cao et al. Def. 3, condition (11) read on y0 alone",
           "notions/suldp.md"),
    Notion("suldp-joint-unrevealed", suldp_joint_unrevealed, _SULDP,
           "Cao et al. Def. 3, condition (11) read on outputs that reveal nothing", "notions/suldp.md"),
    Notion("suldp-joint", suldp_joint, _SULDP, "Cao et al. Def. 3, condition (11) read on the whole release",
           "notions/suldp.md"),
    Notion("ipldp", ipldp, (ITEM_BUDGETS,), "IPLDP preprint Def. 3", "notions/ipldp.md"),
    Notion("graded-ldp", graded_ldp, (BOUNDARIES, INTERVAL_BUDGETS, PAIR_FUNCTION), "Hao et al. Def. 2",
           "notions/graded-ldp.md", True),
)}
"""Every notion, by name: what ``ldpspec check``, channel files and ``ldpspec list`` read."""

PRIVACY_KEYS: dict[str, Parameter] = {parameter.file_key: parameter for notion in NOTIONS.values()
                                      for parameter in notion.parameters}
"""The keys of a channel file's ``privacy`` section, each with the parameter that reads it."""

"""A declared guarantee, read as what samples of an implementation can refute.

Every notion of the kernel (``spec.notions``) is a set of conditions on the channel. Samples see frequencies, so
they can refute two kinds of condition:

* a **ratio** ``P[E | x] <= e^b P[E | x']`` for a pair of inputs and an event ``E`` (a set of releases): a notion
  that bounds every output of ``E`` by ``e^{b_y}`` bounds ``E`` by ``e^{max_y b_y}`` (sum the outputs' bounds), so
  an event of outputs the notion constrains for the pair has the largest of their budgets;
* a **release that may never happen**: an output the notion forbids to an input (ULDP's invertible outputs of a
  sensitive input, an IPLDP non-sensitive item output by another item, a SULDP release revealing an item the input
  set lacks). One such release seen refutes the guarantee with certainty.

A condition that asks for a probability above 0 (IPLDP's ``P[x | x] > 0`` for a non-sensitive ``x``, SULDP's
condition (9)) cannot be refuted from samples, however many: ``unrefutable`` says which.

``declare(notion, values, inputs)`` reads the notion's parameters as the kernel's predicate takes them
(``Notion.check``: ``Parameter.parse`` values keyed by keyword; a list of input budgets in the order of ``inputs``).
The tests check each reading against the kernel's predicate on random channels: when the kernel says the notion
holds, no condition here is broken; when it says it fails, one is, or one of the unrefutable conditions is.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from ldpspec.spec import (
    NOTIONS,
    PAIR_FUNCTIONS,
    InvalidParameter,
    LazyText,
    Nats,
    budget,
    exact_number,
    input_budgets,
    label_list,
    label_map,
    label_subset,
    label_to_json,
    level_of,
    normalize_label,
    value_text,
)


@dataclass(frozen=True)
class Failure:
    """A release the declared notion forbids, seen: a refutation with certainty.

    Attributes:
        condition: the condition of the definition it breaks.
        inputs: the inputs that released it.
        release: the release (a label).
        detail: a sentence saying what the definition asks and what was seen.
    """

    condition: str
    inputs: tuple
    release: object
    detail: str

    def to_json(self) -> dict:
        return {"condition": self.condition, "inputs": [label_to_json(x) for x in self.inputs],
                "release": label_to_json(self.release), "detail": self.detail}


@dataclass(frozen=True)
class Declared:
    """A declared guarantee as samples can refute it.

    Attributes:
        notion: the name of the notion (``spec.NOTIONS``).
        parameters: the declared values, as JSON (budgets as exact text).
        inputs: the inputs whose releases are examined.
        pairwise: every event of a pair of inputs has the pair's budget (LDP, ID-LDP, graded LDP); otherwise only
            events of the releases the notion constrains for the pair (``release_budget``) can be certified.
        about: what a constrained label is: ``None`` for the whole release, or a description of the part of it the
            notion bounds (SULDP read on ``y0`` alone: ``part`` maps a release to it).
        unrefutable: the conditions of the notion that samples cannot refute.
    """

    notion: str
    parameters: dict
    inputs: tuple
    pairwise: bool
    pair_budget: Callable = field(repr=False)
    """``pair_budget(x, x2)``: the budget of every event of the ordered pair (``pairwise``), or ``None`` when the
    pair is not protected (a policy graph)."""
    release_budget: Callable = field(repr=False)
    """``release_budget(x, x2, label)``: the budget of one label (a release, or its ``part``) for the ordered pair,
    ``None`` when the notion does not bound it for the pair."""
    forbidden: Callable = field(repr=False)
    """``forbidden(x, release) -> Failure | None``: the condition a release of ``x`` breaks by being seen."""
    shared: Callable | None = field(default=None, repr=False)
    """``shared(release, inputs) -> Failure | None``: the condition broken by one release seen from several inputs
    (ULDP's invertible outputs: each is produced by exactly one input), for the releases ``watched`` marks."""
    watched: Callable | None = field(default=None, repr=False)
    about: str | None = None
    part: Callable | None = field(default=None, repr=False)
    unrefutable: tuple = ()

    def event_budget(self, x, x2, labels) -> Nats | None:
        """The budget of an event of the ordered pair made of ``labels`` (whole releases, or ``part`` s): the
        largest of their budgets, ``None`` when one of them is not bounded for the pair."""
        if self.pairwise:
            return self.pair_budget(x, x2)
        largest = None
        for label in labels:
            value = self.release_budget(x, x2, label)
            if value is None:
                return None
            largest = value if largest is None or value > largest else largest
        return largest

    def label_of(self, release):
        """What a release is, as the notion's conditions see it: the release, or its ``part``."""
        return release if self.part is None else self.part(release)

    def to_json(self) -> dict:
        data = {"notion": self.notion, "parameters": self.parameters,
                "inputs": [label_to_json(x) for x in self.inputs]}
        if self.about is not None:
            data["about"] = self.about
        if self.unrefutable:
            data["unrefutable"] = list(self.unrefutable)
        return data


def _never(*_):
    return None


def _text(value: Nats) -> str:
    return value.text()


def _inputs(inputs) -> tuple:
    labels = tuple(normalize_label(x, "input") for x in label_list(inputs, "inputs", InvalidParameter))
    if len(labels) < 2:
        raise InvalidParameter(f"inputs: a refutation compares pairs of inputs, so it needs at least 2; got "
                               f"{len(labels)}")
    if len(set(labels)) != len(labels):
        raise InvalidParameter("inputs: every input must be named once")
    return labels


def _input_budgets(inputs: tuple, value, where: str, *, complete: bool = True) -> dict:
    """``{input: budget}`` from a mapping or from a list in input order (as ``Notion.check`` maps it)."""
    if not isinstance(value, Mapping):
        value = input_budgets(inputs, tuple(value), where)
    mapped = label_map(inputs, value, where, complete=complete)
    return {x: budget(v, LazyText(lambda x=x: f"{where}[{value_text(x)}]")) for x, v in mapped.items() if v is not None}


def _protected_pairs(inputs: tuple, policy) -> frozenset | None:
    """The protected pairs of a policy graph, in both orders; ``None`` protects every pair."""
    if policy is None:
        return None
    pairs = set()
    for edge in label_list(policy, "policy", InvalidParameter):
        if len(edge) != 2:
            raise InvalidParameter(f"policy must be a list of pairs of inputs, got {value_text(edge)}")
        a, b = (normalize_label(x, "policy label") for x in edge)
        label_subset(inputs, (a, b), "policy")  # names an unknown input
        pairs |= {(a, b), (b, a)}
    return frozenset(pairs)


def _pairwise(notion: str, inputs: tuple, budgets: dict, r: str, policy, parameters: dict) -> Declared:
    function = PAIR_FUNCTIONS[r]
    protected = _protected_pairs(inputs, policy)

    def pair_budget(x, x2):
        if protected is not None and (x, x2) not in protected:
            return None
        return function(budgets[x], budgets[x2])

    return Declared(notion, parameters, inputs, True, pair_budget,
                    lambda x, x2, label: pair_budget(x, x2), _never)


def _ldp(inputs, values):
    eps = values["epsilon"]
    return _pairwise("ldp", inputs, dict.fromkeys(inputs, eps), "max", None, {"epsilon": _text(eps)})


def _id_ldp_family(notion: str, fixed_r: str | None):
    def declare(inputs, values):
        budgets = _input_budgets(inputs, values["budgets"], "--budgets")
        r = fixed_r or values["r"]
        if r not in PAIR_FUNCTIONS:
            raise InvalidParameter(f"--pair-function must be one of {', '.join(PAIR_FUNCTIONS)}; got {value_text(r)}")
        parameters = {"budgets": [[label_to_json(x), _text(budgets[x])] for x in inputs], "pair_function": r}
        if values.get("policy") is not None:
            parameters["policy"] = [[label_to_json(a) for a in edge] for edge in values["policy"]]
        return _pairwise(notion, inputs, budgets, r, values.get("policy"), parameters)
    return declare


def _uldp(inputs, values):
    eps = values["epsilon"]
    sensitive = label_subset(inputs, values["sensitive_inputs"], "--sensitive")
    protected = frozenset(normalize_label(y, "--protected label")
                          for y in label_list(values["protected_outputs"], "--protected", InvalidParameter))

    def release_budget(x, x2, y):
        return eps if y in protected else None

    def forbidden(x, y):
        if y not in protected and x in sensitive:
            return Failure("invertible output", (x,), y, f"an invertible output (not in --protected) must be "
                           f"produced by a non-sensitive input only (Cao et al. Def. 2, (3)); sensitive input {x!r} "
                           f"released {y!r}")
        return None

    def shared(y, producers):
        if len(producers) > 1:
            return Failure("invertible output", tuple(producers), y, f"an invertible output must be produced by "
                           f"exactly one input (Cao et al. Def. 2, (2)); {y!r} was released by {len(producers)} "
                           "inputs")
        return None

    parameters = {"epsilon": _text(eps), "sensitive_inputs": [label_to_json(x) for x in inputs if x in sensitive],
                  "protected_outputs": sorted((label_to_json(y) for y in protected), key=repr)}
    return Declared("uldp", parameters, inputs, False, _never, release_budget, forbidden, shared,
                    watched=lambda x, y: y not in protected)


def _suldp(reading: str):
    def declare(inputs, values):
        eps = values["epsilon"]
        sets = {}
        for s in inputs:
            if not isinstance(s, tuple) or len(set(s)) != len(s):
                raise InvalidParameter(f"inputs: every input of {reading} is a set of items (a list without "
                                       f"repeats); got {value_text(s)}")
            sets[s] = frozenset(s)
        domain = frozenset(item for s in inputs for item in s)

        def items(value, where):
            found = frozenset(normalize_label(x, f"{where} item") for x in label_list(value, where,
                                                                                       InvalidParameter))
            unknown = sorted(found - domain, key=repr)
            if unknown:
                raise InvalidParameter(f"{where} names items that occur in no input set: {value_text(unknown)}")
            return found
        sensitive = items(values["sensitive_items"], "--sensitive")
        non_sensitive = (domain - sensitive if values.get("non_sensitive_items") is None
                         else items(values["non_sensitive_items"], "--non-sensitive"))
        if sensitive & non_sensitive:
            raise InvalidParameter("--sensitive and --non-sensitive must be disjoint")
        protected = frozenset(normalize_label(y, "--protected label")
                              for y in label_list(values["protected_outputs"], "--protected", InvalidParameter))

        def parts(y):
            if not (isinstance(y, tuple) and len(y) == 2 and isinstance(y[1], tuple)
                    and len(set(y[1])) == len(y[1])):
                return None
            return y[0], frozenset(y[1])

        def forbidden(s, y):
            split = parts(y)
            if split is None:
                return Failure("output space", (s,), y, "a SULDP release is a pair [protected part y0, list of "
                               f"revealed items without repeats]; input {s!r} released {y!r}")
            y0, revealed = split
            if revealed - non_sensitive:
                return Failure("invertible output", (s,), y, f"a release may reveal non-sensitive items only (Cao et "
                               f"al. Def. 3); input {s!r} revealed {sorted(revealed - non_sensitive, key=repr)!r}")
            if revealed - sets[s]:
                return Failure("condition (10)", (s,), y, f"a release may reveal only items of the input set (Cao "
                               f"et al. Def. 3, (10)); input {s!r} revealed "
                               f"{sorted(revealed - sets[s], key=repr)!r}")
            if not revealed and (y0 is None or y0 not in protected):
                return Failure("output space", (s,), y, f"a release that reveals nothing must have a protected part "
                               f"of --protected; input {s!r} released {y!r}")
            return None

        if reading == "suldp-marginal":
            def release_budget(s, s2, y0):
                return eps if y0 in protected else None
            part, about = (lambda y: y[0]), "the protected part y0 of each release (condition (11) read on y0 alone)"
        elif reading == "suldp-joint-unrevealed":
            def release_budget(s, s2, y):
                split = parts(y)
                return eps if split is not None and split[0] in protected and not split[1] else None
            part, about = None, None
        else:
            def release_budget(s, s2, y):
                split = parts(y)
                if split is None or split[0] not in protected or not split[1] <= sets[s] & sets[s2]:
                    return None
                return eps
            part, about = None, None
        parameters = {"epsilon": _text(eps), "sensitive_items": sorted(map(label_to_json, sensitive), key=repr),
                      "non_sensitive_items": sorted(map(label_to_json, non_sensitive), key=repr),
                      "protected_outputs": sorted(map(label_to_json, protected), key=repr)}
        return Declared(reading, parameters, inputs, False, _never, release_budget, forbidden, about=about,
                        part=part, unrefutable=("condition (9): an input set holding a revealable item reveals it "
                                                "with a probability above 0",))
    return declare


def _ipldp(inputs, values):
    budgets = _input_budgets(inputs, values["budgets"], "--budgets", complete=False)
    items = frozenset(inputs)

    def release_budget(x, x2, y):
        return budgets.get(y)

    def forbidden(x, y):
        if y not in items:
            return Failure("output space", (x,), y, f"IPLDP maps items to items; input {x!r} released {y!r}, which "
                           "is not an item of --inputs")
        if y not in budgets and y != x:
            return Failure("non-sensitive item", (x,), y, f"a non-sensitive item is output by itself only (IPLDP "
                           f"preprint Def. 3); input {x!r} released non-sensitive item {y!r}")
        return None

    parameters = {"budgets": [[label_to_json(x), _text(budgets[x]) if x in budgets else None] for x in inputs]}
    return Declared("ipldp", parameters, inputs, False, _never, release_budget, forbidden,
                    unrefutable=("a non-sensitive item x is output by itself with a probability above 0",))


def _graded(inputs, values):
    bounds = [exact_number(b, f"--boundaries[{j}]") for j, b in enumerate(values["boundaries"])]
    if len(bounds) < 2 or any(a >= b for a, b in zip(bounds, bounds[1:])):
        raise InvalidParameter("--boundaries must be at least two strictly increasing numbers")
    level_budgets = list(values["budgets"])
    if len(level_budgets) != len(bounds) - 1:
        raise InvalidParameter(f"--budgets must give one budget per interval: {len(bounds) - 1} intervals, "
                               f"{len(level_budgets)} budgets")
    budgets = {}
    for x in inputs:
        if isinstance(x, (tuple, type(None))):
            raise InvalidParameter(f"inputs: graded LDP needs numerical inputs, got {value_text(x)}")
        budgets[x] = level_budgets[level_of(exact_number(x, LazyText(lambda x=x: f"input {value_text(x)}")), bounds)]
    r = values["r"]
    parameters = {"boundaries": [b.text() for b in bounds], "budgets": [_text(b) for b in level_budgets],
                  "pair_function": r}
    return _pairwise("graded-ldp", inputs, budgets, r, None, parameters)


READINGS: dict[str, Callable] = {
    "ldp": _ldp,
    "id-ldp": _id_ldp_family("id-ldp", None),
    "minid-ldp": _id_ldp_family("minid-ldp", "min"),
    "avgid-ldp": _id_ldp_family("avgid-ldp", "avg"),
    "uldp": _uldp,
    "suldp-marginal": _suldp("suldp-marginal"),
    "suldp-joint-unrevealed": _suldp("suldp-joint-unrevealed"),
    "suldp-joint": _suldp("suldp-joint"),
    "ipldp": _ipldp,
    "graded-ldp": _graded,
}
"""Every notion of the kernel as samples can refute it, by the notion's name (a test checks that none is missing)."""


def declare(notion: str, values: Mapping, inputs) -> Declared:
    """The guarantee ``notion`` with ``values`` (keyed by the predicate's keywords, as ``Parameter.parse`` returns
    them; ``Notion.check`` takes the same) over the examined ``inputs``."""
    if notion not in NOTIONS:
        raise InvalidParameter(f"notion must be one of {', '.join(NOTIONS)}; got {value_text(notion)}")
    inputs = _inputs(inputs)
    for parameter in NOTIONS[notion].parameters:
        if parameter.required and values.get(parameter.keyword) is None:
            raise InvalidParameter(f"notion {notion} needs {parameter.option} ({parameter.help})")
    return READINGS[notion](inputs, values)


def parse_values(notion: str, texts: Mapping) -> dict:
    """The notion's parameters read from text as ``ldpspec check`` reads them: ``{keyword: value}`` from
    ``{parameter name: text}``."""
    values = {}
    for parameter in NOTIONS[notion].parameters:
        text = texts.get(parameter.name)
        if text is not None:
            values[parameter.keyword] = parameter.parse(text)
    return values

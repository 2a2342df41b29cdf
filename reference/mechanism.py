"""What the project knows about a mechanism: its declaration, and the parts every mechanism has.

A mechanism lives in one module of ``reference/shared/`` or of its paper's folder. The module holds two classes,
each with a typed interface (``PlainReference``, ``Twin``) that a test checks for every registered mechanism:

* the **plain reference**, one user at a time, which a porter reads (standard library plus the kernel's exact
  numbers): ``channel()``, the exact channel of everything the user releases (a channel of ``ldpspec.spec``, such as
  a ``Channel`` or a structured channel when the outputs are too many to list); ``guarantee()``, the notion the
  mechanism claims with its parameters (``Guarantee``); ``perturb(x, rng)``, one user's release for input ``x``,
  drawn with a ``random.Random`` (or the porting kit's stream); ``counts(outputs)``, the server's statistic from the
  users' releases; ``estimate(counts, n)``, the estimates, exactly (kernel numbers); ``estimate_moments(inputs)``, the
  exact mean and variance of every estimate given each user's input; and ``twin``;
* the **NumPy twin**, many users at once: ``reports(inputs, rng)`` (compact reports, drawn with a
  ``numpy.random.Generator``), ``outputs(reports)`` (the reports as the channel's output labels), ``counts(reports)``,
  ``simulate_counts(population, rng)`` (the server's statistic drawn directly, exactly in distribution, at a cost
  that does not grow with the number of users) and ``estimate(counts, n)`` (floats).

The module ends with its ``MECHANISMS``: one ``Mechanism`` declaration per registered name, which says what the
mechanism is (what a user holds, what a report is, what the server aggregates, its capabilities) and how the
benchmark runs it. The paper's folder lists its modules' declarations, and ``ldpspec.reference.registry`` gathers
them; the command line, channel files, the documentation's tables, the benchmark, the porting vectors and the tests
read them from there, and infer nothing from names or type hints.
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Protocol

from ldpspec.spec import NOTIONS, InvalidParameter, Parameter

INPUTS = {
    "item": "one item of 0 .. d-1",
    "item-set": "a set of items of 0 .. d-1",
    "number": "a number of [-1, 1]",
}
"""What a user holds (``Mechanism.inputs``)."""

REPORTS = {
    "item": "one item of the domain, packed to the bits it needs",
    "index": "one index of a finite set of outputs other than the items (a codeword), packed to the bits it needs",
    "items": "one item per item of the user's set",
    "bit-vector": "a vector of bits, packed eight to a byte",
    "number": "a real number (float64)",
    "sign": "one of two values",
    "parts": "a record of parts (a level and a value; a point and revealed items)",
    "inner": "the reports of the mechanism it wraps (its parameter inner)",
}
"""What a report of the twin is (``Mechanism.reports``)."""

STATISTICS = {
    "counts": "counts of the channel's outputs (or of the items they name)",
    "sum": "the sum of the users' numerical releases (a mean estimator)",
}
"""What the server aggregates (``Mechanism.statistic``)."""

BENCHMARK_GROUPS = {
    "items": "frequency oracles over items, beside the peer libraries",
    "sets": "users holding sets of m items (Cao et al. 2022), beside their baselines GRR-Sample and RAPPOR-Sample",
    "per-item-budgets": "per-item budgets (the IPLDP preprint), beside the peers' GRR clients",
    "numbers": "a number of [-1, 1], beside plain NumPy versions of Harmony and PM",
}
"""The benchmark's tables (``Benchmark.group``)."""


@dataclass(frozen=True)
class Guarantee:
    """The notion a mechanism claims (a name of ``ldpspec.spec.NOTIONS``) and its parameters, keyed by the
    predicate's keywords (for example ``{"epsilon": eps}`` or ``{"budgets": {x: eps_x}}``). ``None``: no notion with
    a finite budget holds (graded Laplace across levels of different budgets); the tests check that the kernel finds
    an infinite loss."""

    notion: str | None
    parameters: Mapping = field(default_factory=dict)

    def privacy_section(self) -> dict:
        """The parameters under the keys of a channel file's ``privacy`` section (none without a notion)."""
        if self.notion is None:
            return {}
        notion = NOTIONS[self.notion]
        return {parameter.file_key: self.parameters[parameter.keyword] for parameter in notion.parameters
                if self.parameters.get(parameter.keyword) is not None}


# --- the interfaces ------------------------------------------------------------------------------------------------

class Twin(Protocol):
    """The NumPy twin of a mechanism: many users at once."""

    def reports(self, inputs, rng): ...

    def outputs(self, reports) -> list: ...

    def counts(self, reports): ...

    def simulate_counts(self, population, rng): ...

    def estimate(self, counts, n): ...


class PlainReference(Protocol):
    """The plain reference of a mechanism: one user at a time."""

    twin: Twin

    def channel(self, max_entries=None): ...

    def guarantee(self) -> Guarantee: ...

    def perturb(self, x, rng): ...

    def counts(self, outputs) -> list: ...

    def estimate(self, counts, n) -> list: ...

    def estimate_moments(self, inputs) -> tuple: ...


class DirectEncoding(Protocol):
    """``Mechanism.direct_encoding``: one item reported for one item, with the column structure
    ``Q(y|x) = base_y + extra_y [y = x]`` of ``reference.shared.direct`` (its estimators, ``ldpspec estimate``) and
    each item's ``(p, q)`` for the count estimator (``reference.shared.direct.DirectEncoding`` implements the rest)."""

    def structure(self): ...

    def report_probabilities(self) -> tuple: ...


class IntervalFamily(Protocol):
    """``Mechanism.interval_family``: the channel for every number of ``[-1, 1]``, affine on segments
    (``spec.families.AffineFamily``), beside the channel on the grid."""

    def family(self): ...


class ContinuousReleases(Protocol):
    """A mechanism whose exact channel has densities (``has_densities``): ``label`` names the output (a cell) of the
    exact channel that a release (a point) falls in."""

    def label(self, release, channel): ...


class SolvedParameters(Protocol):
    """``Mechanism.solved``: the parameters come from a numerical solver; ``build`` takes its recorded output
    (``solution``) instead of solving, ``solution()`` gives it back per item, and ``metadata`` records what was
    found, for the channel file."""

    metadata: dict

    def solution(self) -> dict: ...


def interface_gaps(value, interface: type) -> list[str]:
    """What ``value`` lacks of ``interface`` (a ``Protocol`` above): each member missing, and each method whose
    required positional parameters differ in number from the interface's or that lacks one of its keywords."""
    gaps = []
    for name, member in vars(interface).items():
        if name.startswith("_"):
            continue
        if not hasattr(value, name):
            gaps.append(f"{name} is missing")
        elif callable(member):
            found = getattr(value, name)
            if not callable(found):
                gaps.append(f"{name} is not a method")
                continue
            wanted, given = _arguments(member, bound=False), _arguments(found, bound=True)
            if wanted is not None and given is not None:
                if given[0] != wanted[0]:
                    gaps.append(f"{name} takes {given[0]} required arguments, the interface {wanted[0]}")
                missing = wanted[1] - given[1]
                if missing:
                    gaps.append(f"{name} lacks the keywords {sorted(missing)}")
    for name in getattr(interface, "__annotations__", {}):
        if not hasattr(value, name):
            gaps.append(f"{name} is missing")
    return gaps


def _arguments(function, *, bound: bool) -> tuple[int, set] | None:
    """``(required positional parameters, optional keywords)`` of a method (without ``self``)."""
    try:
        parameters = list(inspect.signature(function).parameters.values())
    except (TypeError, ValueError):
        return None
    if not bound:
        parameters = parameters[1:]
    positional = [p for p in parameters if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    required = sum(p.default is p.empty for p in positional)
    return required, {p.name for p in positional if p.default is not p.empty}


# --- the declaration -----------------------------------------------------------------------------------------------

@dataclass(frozen=True, kw_only=True)
class Benchmark:
    """How the benchmark runs a mechanism (``reference.tools.benchmark``).

    Attributes:
        workload: ``workload(n, d, rng) -> (mechanism, inputs)``: the mechanism over a domain of about ``d`` items
            and ``n`` users' inputs.
        group: the table it is measured in (``BENCHMARK_GROUPS``).
        peers: the same mechanism in peer libraries, ``{library: client}``; ``client(d, epsilon)`` prepares the
            library's per-user client (compiling it where the library compiles) and returns ``run(values)``, which
            makes every user's report and keeps them in a list.
        report_bits: ``report_bits(mechanism)``, the bits of information one report carries (``log2`` of the number
            of values it takes), for the cost per released bit, where the declared ``reports`` do not give them (an
            item of ``d`` carries ``log2 d``, a bit vector its bits).
    """

    workload: Callable
    group: str
    peers: Mapping[str, Callable] = field(default_factory=dict)
    report_bits: Callable | None = None

    def __post_init__(self):
        if self.group not in BENCHMARK_GROUPS:
            raise ValueError(f"group must be one of {sorted(BENCHMARK_GROUPS)}, got {self.group!r}")


@dataclass(frozen=True, kw_only=True)
class Mechanism:
    """The declaration of one mechanism.

    Attributes:
        name: the name on the command line (``ldpspec channel NAME``).
        title: what it is, in a few words.
        home: the folder of ``reference/`` it lives in: ``"shared"`` or a paper's key.
        source: where it is defined (paper, section).
        notion: the notion it claims with its example parameters (a name of ``ldpspec.spec.NOTIONS``), or None when
            it guarantees none with a finite budget.
        parameters: its parameters, in the order of ``build``'s keywords.
        build: makes the plain reference from the parameters' values (keyword arguments).
        claims: the ids of the audit's claims about it.
        docs: its page in the documentation (relative to ``docs/``).
        inputs: what a user holds (``INPUTS``).
        reports: what a report of the twin is (``REPORTS``).
        statistic: what the server aggregates (``STATISTICS``). ``"counts"``: counts of the channel's outputs.
            ``"sum"``: the sum of the users' numerical releases (a mean estimator, such as the Laplace mechanism's
            or PM's). Then ``perturb`` returns a number, ``counts(releases)`` is ``[sum]``, ``estimate([sum], n)`` is
            ``[sum / n]``, the twin's ``simulate_counts`` draws ``[sum]`` exactly in distribution, and
            ``estimate_moments`` gives the exact moments that the channel's densities give (``Density.moment``).
        direct_encoding: one item reported for one item with a column structure (``DirectEncoding``).
        interval_family: it has the channel for every number of its interval (``IntervalFamily``).
        solved: its parameters come from a numerical solver (``SolvedParameters``).
        benchmark: how the benchmark runs it (``Benchmark``).
    """

    name: str
    title: str
    home: str
    source: str
    notion: str | None
    parameters: tuple[Parameter, ...]
    build: Callable
    claims: tuple[str, ...]
    docs: str
    inputs: str
    reports: str
    statistic: str = "counts"
    direct_encoding: bool = False
    interval_family: bool = False
    solved: bool = False
    benchmark: Benchmark

    def __post_init__(self):
        for attribute, allowed in (("inputs", INPUTS), ("reports", REPORTS), ("statistic", STATISTICS)):
            if getattr(self, attribute) not in allowed:
                raise ValueError(f"mechanism {self.name}: {attribute} must be one of {sorted(allowed)}, got "
                                 f"{getattr(self, attribute)!r}")

    def interfaces(self) -> tuple[type, ...]:
        """The interfaces its plain reference has, by this declaration (``PlainReference`` and its capabilities)."""
        capabilities = ((self.direct_encoding, DirectEncoding), (self.interval_family, IntervalFamily),
                        (self.solved, SolvedParameters))
        return (PlainReference, *(interface for declared, interface in capabilities if declared))

    def example(self) -> dict:
        """Option values that give a small channel: ``{parameter name: value as typed}``."""
        return {parameter.name: parameter.example for parameter in self.parameters if parameter.example is not None}

    def from_options(self, options: Mapping, **given):
        """The plain reference from option values as typed (``{parameter name: text}``); defaults fill the rest.
        ``given`` goes to the build function as it is (a solved mechanism's recorded solver output: ``solution``)."""
        known = {parameter.name for parameter in self.parameters}
        unknown = sorted(set(options) - known)
        if unknown:
            raise InvalidParameter(f"mechanism {self.name} has no parameter {', '.join(unknown)}; "
                                   f"its parameters are {', '.join(sorted(known))}")
        values = {}
        for parameter in self.parameters:
            text = options.get(parameter.name, parameter.default)
            if text is None:
                if parameter.required:
                    raise InvalidParameter(f"mechanism {self.name} needs {parameter.option} ({parameter.help})")
                continue
            values[parameter.keyword] = parameter.parse(text)
        try:
            return self.build(**values, **given)
        except InvalidParameter as error:  # the build names a parameter by its keyword; the user typed its option
            raise InvalidParameter(self._as_typed(str(error))) from None

    def _as_typed(self, message: str) -> str:
        """``message`` with the parameter it starts with (``budgets[1] must ...``, ``hash_values must ...``) named
        by its option (``--budgets[1]``, ``--hash-values``), as the user typed it."""
        for parameter in self.parameters:
            match = re.match(rf"{re.escape(parameter.keyword)}(?=[ \[(])", message)
            if match:
                return parameter.option + message[match.end():]
        return message

    def to_json(self) -> dict:
        return {"name": self.name, "title": self.title, "paper": self.home, "source": self.source,
                "notion": self.notion, "inputs": self.inputs, "reports": self.reports, "statistic": self.statistic,
                "direct_encoding": self.direct_encoding, "parameters": [p.to_json() for p in self.parameters],
                "example": self.example(), "claims": list(self.claims), "docs": self.docs}


EPSILON = Parameter("epsilon", "budget", "the budget eps >= 0", example="1")
"""The budget of an eps-LDP mechanism."""

DOMAIN_SIZE = Parameter("d", "integer", "the number of items d >= 2 (the items are 0 .. d-1)", example="3", minimum=2,
                        edges=lambda example: [("2", "two-items")])
"""The size of an item domain."""

NUMERIC_GRID = Parameter("grid", "numbers", "the inputs of the exact channel, numbers of [-1, 1] (the mechanism "
                         "takes any number of [-1, 1]; the grid is where its channel is computed)",
                         required=False, default="[-1, 0, 1]", example="[-1, 0, 1]")
"""The finite set of inputs on which a mechanism for numbers of ``[-1, 1]`` is checked."""

ITEM_BUDGETS = Parameter("budgets", "input-budgets", "one budget per item 0 .. d-1 (d is the length of the list): "
                         "eps_x for a sensitive item x, null for a non-sensitive one", example="[0.5, 1, null]")
"""Per-item budgets (the IPLDP preprint's mechanisms and baselines): ``D_S`` are the items with a budget."""

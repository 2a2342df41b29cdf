"""What the project knows about a mechanism: its declaration, and the parts every mechanism has.

A mechanism lives in one module of ``reference/shared/`` or of its paper's folder. The module holds two classes:

* the **plain reference**, one user at a time, which a porter reads (standard library plus the kernel's exact
  numbers), with these methods:

  - ``channel()``: the exact channel of everything the user releases (``ldpspec.spec.Channel``, or a structured
    channel when the outputs are too many to list);
  - ``guarantee()``: the notion the mechanism claims, with its parameters (``Guarantee``);
  - ``perturb(x, rng)``: one user's release for input ``x``, drawn with a ``random.Random``;
  - ``counts(outputs)``: the server's counts from the users' releases;
  - ``estimate(counts, n)``: the estimates, exactly (kernel numbers);
  - ``estimate_moments(inputs)``: the exact mean and variance of every estimate, given each user's input;
  - ``twin``: the NumPy twin of the same mechanism;

* the **NumPy twin**, many users at once, with ``reports(inputs, rng)`` (compact reports, drawn with a
  ``numpy.random.Generator``), ``outputs(reports)`` (the reports as the channel's output labels), ``counts(reports)``,
  ``simulate_counts(population, rng)`` (the server's counts drawn directly, exactly in distribution, at a cost that
  does not grow with the number of users) and ``estimate(counts, n)`` (floats).

The module ends with its ``MECHANISMS``: one ``Mechanism`` declaration per registered name. The paper's folder lists
its modules' declarations, and ``ldpspec.reference.registry`` gathers them; the command line, channel files, the
documentation's tables, the benchmark and the tests read them from there.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from ldpspec.spec.errors import InvalidParameter
from ldpspec.spec.notions import NOTIONS
from ldpspec.spec.parameters import Parameter


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


@dataclass(frozen=True)
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
        workload: for the benchmark, ``workload(n, d, rng) -> (mechanism, inputs)``: the mechanism over a domain of
            about ``d`` items and ``n`` users' inputs.
        statistic: what the server aggregates. ``"counts"``: counts of the channel's outputs, as above.
            ``"sum"``: the sum of the users' numerical releases (a mean estimator, such as the Laplace mechanism's
            or PM's). Then ``perturb`` returns a number, ``label(release, channel)`` names the cell of the exact
            channel it falls in, ``counts(releases)`` is ``[sum]``, ``estimate([sum], n)`` is ``[sum / n]``, the twin's
            ``simulate_counts`` draws ``[sum]`` exactly in distribution, and ``estimate_moments`` gives the exact
            moments that the channel's densities give (``Density.moment``).
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
    workload: Callable
    statistic: str = "counts"

    def example(self) -> dict:
        """Option values that give a small channel: ``{parameter name: value as typed}``."""
        return {parameter.name: parameter.example for parameter in self.parameters if parameter.example is not None}

    def from_options(self, options: Mapping, **given):
        """The plain reference from option values as typed (``{parameter name: text}``); defaults fill the rest.
        ``given`` goes to the build function as it is (IDUE's recorded solver output: ``solution``)."""
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
        return self.build(**values, **given)

    def to_json(self) -> dict:
        return {"name": self.name, "title": self.title, "paper": self.home, "source": self.source,
                "notion": self.notion, "parameters": [parameter.to_json() for parameter in self.parameters],
                "example": self.example(), "claims": list(self.claims), "docs": self.docs}


EPSILON = Parameter("epsilon", "budget", "the budget eps >= 0", example="1")
"""The budget of an eps-LDP mechanism."""

DOMAIN_SIZE = Parameter("d", "integer", "the number of items d >= 2 (the items are 0 .. d-1)", example="3", minimum=2)
"""The size of an item domain."""

NUMERIC_GRID = Parameter("grid", "numbers", "the inputs of the exact channel, numbers of [-1, 1] (the mechanism "
                         "takes any number of [-1, 1]; the grid is where its channel is computed)",
                         required=False, default="[-1, 0, 1]", example="[-1, 0, 1]")
"""The finite set of inputs on which a mechanism for numbers of ``[-1, 1]`` is checked."""

ITEM_BUDGETS = Parameter("budgets", "input-budgets", "one budget per item 0 .. d-1 (d is the length of the list): "
                         "eps_x for a sensitive item x, null for a non-sensitive one", example="[0.5, 1, null]")
"""Per-item budgets (the IPLDP preprint's mechanisms and baselines): ``D_S`` are the items with a budget."""

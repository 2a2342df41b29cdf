"""A bridge to z3: prove a privacy notion for every budget in a range, or find a counterexample.

A budget ``eps`` enters a symbolic channel through a positive real variable
``t = e^{eps / divisor}`` (``divisor = 1`` gives ``E = e^eps``; ``divisor = 2``
gives ``s = e^{eps/2}`` as in basic RAPPOR). Probabilities are the mechanism's
own arithmetic applied to ``t`` (each mechanism is written once, over the exponentiated budgets), so they are rational
functions that z3's nonlinear real arithmetic decides exactly.

A range ``low <= eps <= high`` becomes ``t_low <= t <= t_high`` with rational
end points rounded outward (``t_low <= e^{low/divisor}``,
``t_high >= e^{high/divisor}``). A proof over the wider range is a proof over
the range. A counterexample is reported as budget values and is then checked by
the exact kernel through the caller's ``confirm`` function; a counterexample
the kernel does not confirm, or one outside the requested range, is reported as
such and never as a refutation (an untrusted solver, a trusted checker).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

import z3

from ldpspec.spec import Exact, Nats, exact_number, to_decimal_string


@dataclass(frozen=True)
class SymbolicBudget:
    """A budget ``eps`` in ``[low, high]`` (``high=None`` for no upper end), seen as ``t = e^{eps/divisor}``."""

    name: str
    low: object = 0
    high: object = None
    divisor: int = 1
    include_low: bool = False  # eps > low by default: the papers take eps > 0

    @property
    def variable(self) -> z3.ArithRef:
        return z3.Real(f"exp({self.name}/{self.divisor})" if self.divisor != 1 else f"exp({self.name})")

    @property
    def exponentiated(self) -> z3.ArithRef:
        """``e^eps = t^divisor``."""
        result = self.variable
        for _ in range(self.divisor - 1):
            result = result * self.variable
        return result

    def constraints(self) -> list:
        t = self.variable
        low = exact_number(self.low, f"{self.name} low").as_rational()
        constraints = []
        if low == 0:
            constraints.append(t >= 1 if self.include_low else t > 1)
        else:
            bound, _ = Exact.exp(low / self.divisor).bounds()  # a rational at most e^{low/divisor}
            constraints.append(t >= z3.RealVal(str(bound)))
        if self.high is not None:
            high = exact_number(self.high, f"{self.name} high").as_rational()
            _, bound = Exact.exp(high / self.divisor).bounds()  # a rational at least e^{high/divisor}
            constraints.append(t <= z3.RealVal(str(bound)))
        return constraints

    def epsilon_of(self, t_value) -> Nats:
        """``eps = divisor * ln t`` for a model value ``t`` (exact: the log of a rational)."""
        return Nats.log(t_value) * self.divisor

    def contains(self, epsilon: Nats) -> bool:
        low = exact_number(self.low, "low").as_rational()
        above = epsilon >= low if self.include_low else epsilon > low
        return above and (self.high is None or epsilon <= exact_number(self.high, "high").as_rational())


def model_value(value) -> Fraction:
    """A z3 model value as a Fraction (an algebraic value is approximated by a rational to 70 digits)."""
    if z3.is_algebraic_value(value):
        value = value.approx(70)
    return value.as_fraction()


@dataclass(frozen=True)
class Condition:
    """One condition of a notion: ``holds`` is a z3 formula; ``inputs`` and ``output`` say where."""

    inputs: tuple
    output: object
    holds: z3.BoolRef


@dataclass(frozen=True)
class SymbolicChannel:
    """Inputs, outputs, and ``P[y|x]`` as z3 terms over budget variables."""

    inputs: tuple
    outputs: tuple
    probability: Callable

    @classmethod
    def from_matrix(cls, inputs: Sequence, outputs: Sequence, rows: Sequence[Sequence]) -> SymbolicChannel:
        table = {(x, y): entry for x, row in zip(inputs, rows) for y, entry in zip(outputs, row)}
        return cls(tuple(inputs), tuple(outputs), lambda x, y: table[(x, y)])


def ldp_conditions(channel: SymbolicChannel, E) -> list[Condition]:
    """``P[y|x] <= E P[y|x']`` for all ordered pairs of distinct inputs and all outputs."""
    return [Condition((x, x2), y, channel.probability(x, y) <= E * channel.probability(x2, y))
            for x in channel.inputs for x2 in channel.inputs if x != x2 for y in channel.outputs]


def id_ldp_conditions(channel: SymbolicChannel, E_by_input: dict, r: str) -> list[Condition]:
    """``P[y|x] <= e^{r(eps_x, eps_x')} P[y|x']`` with ``r`` in ``min``, ``max``, ``avg``.

    ``e^{min}`` and ``e^{max}`` are the min and max of the exponentiated budgets;
    for ``avg`` the condition is squared, ``P[y|x]^2 <= E_x E_x' P[y|x']^2``,
    which is equivalent for non-negative probabilities and keeps it polynomial.
    """
    conditions = []
    for x in channel.inputs:
        for x2 in channel.inputs:
            if x == x2:
                continue
            a, b = E_by_input[x], E_by_input[x2]
            for y in channel.outputs:
                p, p2 = channel.probability(x, y), channel.probability(x2, y)
                if r == "min":
                    holds = p <= z3.If(a <= b, a, b) * p2
                elif r == "max":
                    holds = p <= z3.If(a >= b, a, b) * p2
                elif r == "avg":
                    holds = p * p <= a * b * p2 * p2
                else:
                    raise ValueError(f"pair function must be min, max or avg, got {r!r}")
                conditions.append(Condition((x, x2), y, holds))
    return conditions


@dataclass
class ProofResult:
    """The outcome of a proof attempt.

    ``status`` is ``"proved"``, ``"counterexample"`` (confirmed by the kernel),
    ``"unconfirmed"`` (z3 found a model the kernel does not confirm, or one
    outside the range), or ``"unknown"`` (z3 gave up or timed out).
    """

    status: str
    description: str
    failing: Condition | None = None
    budgets: dict = field(default_factory=dict)
    values: dict = field(default_factory=dict)

    @property
    def proved(self) -> bool:
        return self.status == "proved"

    def to_json(self) -> dict:
        return {
            "status": self.status,
            "description": self.description,
            "failing_condition": None if self.failing is None else {
                "inputs": list(self.failing.inputs), "output": self.failing.output},
            "budgets": {name: value.text() for name, value in self.budgets.items()},
            "values": {name: to_decimal_string(value) for name, value in self.values.items()},
        }


def prove(conditions: Iterable[Condition], budgets: Sequence[SymbolicBudget] = (), *,
          assumptions: Iterable = (), description: str = "",
          confirm: Callable[[dict], bool] | None = None, timeout_ms: int = 60_000) -> ProofResult:
    """Prove that every condition holds for all budgets in range (and under ``assumptions``).

    ``confirm(budget_values)`` receives ``{name: eps}`` at a counterexample and
    returns whether the exact kernel sees the violation there. Without it, a
    model is reported as ``unconfirmed``: only the kernel turns a model into a
    counterexample.
    """
    conditions = list(conditions)
    solver = z3.Solver()
    solver.set("timeout", timeout_ms)
    for budget in budgets:
        solver.add(*budget.constraints())
    solver.add(*assumptions)
    solver.add(z3.Or([z3.Not(condition.holds) for condition in conditions]))
    answer = solver.check()
    if answer == z3.unsat:
        return ProofResult("proved", description)
    if answer != z3.sat:
        return ProofResult("unknown", f"{description}: z3 answered {answer} ({solver.reason_unknown()})")
    model = solver.model()
    failing = next(condition for condition in conditions
                   if z3.is_false(model.eval(condition.holds, model_completion=True)))
    values = {str(declaration): model_value(model[declaration]) for declaration in model.decls()
              if z3.is_arith(model[declaration]) or z3.is_algebraic_value(model[declaration])}
    budget_values = {}
    for budget in budgets:
        t = model.eval(budget.variable, model_completion=True)
        budget_values[budget.name] = budget.epsilon_of(model_value(t))
    outside = [name for budget in budgets for name in [budget.name] if not budget.contains(budget_values[name])]
    if outside:
        return ProofResult("unconfirmed", f"{description}: z3's model lies outside the range for {outside}",
                           failing, budget_values, values)
    if confirm is None:
        return ProofResult("unconfirmed", f"{description}: z3 found a model, which no kernel check can confirm "
                           "(it is an assignment of the inequality's variables, not a channel)", failing,
                           budget_values, values)
    if not confirm(budget_values):
        return ProofResult("unconfirmed", f"{description}: the kernel does not confirm z3's model", failing,
                           budget_values, values)
    return ProofResult("counterexample", description, failing, budget_values, values)


def proof_step(scope: str, result: ProofResult):
    """The ledger step for one proof attempt."""
    from ldpspec.verify.claims import Evidence, Step

    if result.proved:
        return Step(Evidence("z3", scope, "proved"))
    if result.status == "counterexample":
        return Step(Evidence("z3", scope, f"counterexample: {result.description}"),
                    counterexample={"method": "z3", "scope": scope, **result.to_json()})
    return Step(Evidence("z3", scope, f"inconclusive ({result.status}): {result.description}"), inconclusive=True)

"""Random exact channels and counterexample search with shrinking (Hypothesis).

Channels are drawn as small integer weight matrices normalised per row, so
every probability is an exact fraction and a counterexample prints as one
(``"1/3"``). ``find_counterexample`` returns the smallest example Hypothesis
can shrink to, or ``None`` when the search found none.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING

import hypothesis
from hypothesis import strategies as st
from hypothesis.errors import NoSuchExample

from ldpspec.spec import Channel

if TYPE_CHECKING:  # the search strategies import the kernel only, so that its tests run without NumPy
    from ldpspec.verify.claims import AuditSettings


@dataclass(frozen=True)
class RandomChannel:
    """A channel with exact fractional entries, and the fractions it was built from."""

    inputs: tuple
    outputs: tuple
    fractions: tuple

    @property
    def channel(self) -> Channel:
        return Channel(self.inputs, self.outputs, self.fractions)

    def to_json(self) -> dict:
        return {"inputs": list(self.inputs), "outputs": list(self.outputs),
                "probabilities": [[str(p) for p in row] for row in self.fractions]}


def fractions_from_weights(weights) -> tuple:
    return tuple(tuple(Fraction(w, sum(row)) for w in row) for row in weights)


@st.composite
def random_channels(draw, *, min_inputs: int = 1, max_inputs: int = 4, max_outputs: int = 4,
                    inputs: tuple | None = None, outputs: tuple | None = None, max_weight: int = 6):
    """Exact channels with up to ``max_inputs`` inputs and ``max_outputs`` outputs.

    Entries are ``w / row sum`` with integer weights ``0..max_weight`` (zeros
    included, so impossible outputs and infinite ratios occur). Fixed label sets
    can be given with ``inputs``/``outputs``.
    """
    if inputs is None:
        inputs = tuple(range(draw(st.integers(min_inputs, max_inputs))))
    if outputs is None:
        outputs = tuple(f"y{j}" for j in range(draw(st.integers(1, max_outputs))))
    weights = []
    for _ in inputs:
        row = draw(st.lists(st.integers(0, max_weight), min_size=len(outputs), max_size=len(outputs))
                   .filter(lambda r: sum(r) > 0))
        weights.append(row)
    return RandomChannel(tuple(inputs), tuple(outputs), fractions_from_weights(weights))


budget_values = st.integers(0, 48).map(lambda k: Fraction(k, 8))
"""Budgets 0, 1/8, ..., 6: exact, small, and with ties."""

budget_increments = st.one_of(st.just(Fraction(0)), budget_values)
"""Amounts added to the tightest budgets that satisfy a premise. Zero is drawn often, because a
claim is most often violated where its premise is tight; uniform increments hide violations."""


def search_settings(settings: AuditSettings) -> hypothesis.settings:
    return hypothesis.settings(max_examples=settings.hypothesis_examples, derandomize=True, database=None,
                               deadline=None, suppress_health_check=list(hypothesis.HealthCheck))


def find_counterexample(strategy, violates: Callable, settings: AuditSettings) -> object | None:
    """The smallest example of ``strategy`` for which ``violates`` is true, or ``None``."""
    try:
        return hypothesis.find(strategy, violates, settings=search_settings(settings))
    except NoSuchExample:
        return None


def search_step(scope: str, example, describe: Callable, settings: AuditSettings):
    """The ledger step for one counterexample search; ``describe(example)`` gives its JSON."""
    from ldpspec.verify.claims import Evidence, Step

    method = f"Hypothesis ({settings.hypothesis_examples} examples, shrinking)"
    if example is None:
        return Step(Evidence(method, scope, "no counterexample found"))
    return Step(Evidence(method, scope, "counterexample found (shrunk)"),
                counterexample={"method": "hypothesis", "scope": scope, **describe(example)})

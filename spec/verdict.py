"""The answer of a privacy predicate: whether the notion holds, where it is tightest, and by how much."""

from __future__ import annotations

from dataclasses import dataclass, field

from ldpspec.spec.numbers import INF, holds_within_resolution, to_decimal_string


@dataclass(frozen=True)
class Witness:
    """One condition of a definition, at the place where it is worst.

    Attributes:
        condition: which condition of the definition this is, for example
            ``"ratio"`` or ``"invertible output"``.
        inputs: the inputs involved, usually the ordered pair ``(x, x')``.
        output: the output involved.
        log_ratio: ``ln P[y|x] / P[y|x']`` for a ratio condition (``inf`` when
            ``P[y|x'] = 0 < P[y|x]``), ``None`` for a structural condition.
        bound: the budget the log-ratio is compared with, ``None`` for a
            structural condition.
        detail: a sentence saying what was checked and what was found.
    """

    condition: str
    inputs: tuple
    output: object
    log_ratio: object = None
    bound: object = None
    detail: str = ""

    def to_json(self) -> dict:
        return {
            "condition": self.condition,
            "inputs": list(self.inputs),
            "output": self.output,
            "log_ratio": None if self.log_ratio is None else to_decimal_string(self.log_ratio),
            "bound": None if self.bound is None else to_decimal_string(self.bound),
            "detail": self.detail,
        }


@dataclass(frozen=True)
class Verdict:
    """Truthy when the notion holds.

    Attributes:
        notion: the predicate's name, for example ``"ldp"`` or ``"suldp-joint"``.
        holds: whether every condition holds (ties decided by ``spec.numbers.RESOLUTION``).
        margin: ``bound - log_ratio`` at the worst ratio condition, in nats;
            ``+inf`` when no ratio condition applies, ``-inf`` when a ratio is
            infinite or a structural condition fails.
        witness: the worst condition, ``None`` when nothing is constrained.
        parameters: the parameters the notion was checked with, as given.
    """

    notion: str
    holds: bool
    margin: object
    witness: Witness | None
    parameters: dict = field(default_factory=dict)

    def __bool__(self) -> bool:
        return self.holds

    def to_json(self) -> dict:
        return {
            "notion": self.notion,
            "holds": self.holds,
            "margin": to_decimal_string(self.margin),
            "witness": None if self.witness is None else self.witness.to_json(),
            "parameters": self.parameters,
        }


def ratio_witness(inputs: tuple, output, log_ratio, bound, condition: str = "ratio") -> Witness:
    """A witness for a ratio condition ``ln P[y|x]/P[y|x'] <= bound``."""
    return Witness(condition, inputs, output, log_ratio, bound,
                   f"ln P[{output!r}|{inputs[0]!r}] / P[{output!r}|{inputs[1]!r}] = "
                   f"{to_decimal_string(log_ratio, 20)} against the bound {to_decimal_string(bound, 20)}")


def structural_witness(condition: str, inputs: tuple, output, detail: str) -> Witness:
    return Witness(condition, inputs, output, None, None, detail)


class WorstCase:
    """Accumulates conditions and keeps the worst one.

    Structural failures beat every ratio condition; among ratio conditions the
    smallest margin wins, and the first one met wins a tie (so witnesses are
    deterministic).
    """

    def __init__(self, notion: str, parameters: dict):
        self.notion = notion
        self.parameters = parameters
        self.margin = INF
        self.witness = None
        self._structural_failure = False

    def ratio(self, inputs: tuple, output, log_ratio, bound, condition: str = "ratio") -> None:
        if self._structural_failure:
            return
        margin = -INF if log_ratio == INF else bound - log_ratio
        if self.witness is None or margin < self.margin:
            self.margin = margin
            self.witness = ratio_witness(inputs, output, log_ratio, bound, condition)

    def structural_failure(self, condition: str, inputs: tuple, output, detail: str) -> None:
        if not self._structural_failure:
            self._structural_failure = True
            self.margin = -INF
            self.witness = structural_witness(condition, inputs, output, detail)

    def verdict(self) -> Verdict:
        holds = not self._structural_failure and holds_within_resolution(self.margin)
        return Verdict(self.notion, holds, self.margin, self.witness, self.parameters)

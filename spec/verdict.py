"""The answer of a privacy predicate: whether the notion holds, where it is tightest, and by how much."""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from ldpspec.spec.exact import Exact, Undecided
from ldpspec.spec.labels import json_ready, label_text, label_to_json, output_to_json
from ldpspec.spec.nats import Nats
from ldpspec.spec.numbers import ctx, to_decimal_string


@dataclass(frozen=True)
class Witness:
    """One condition of a definition, at the place where it is worst.

    Attributes:
        condition: which condition of the definition this is, for example
            ``"ratio"`` or ``"invertible output"``.
        inputs: the inputs involved, usually the ordered pair ``(x, x')``.
        output: the output involved.
        log_ratio: ``ln P[y|x] / P[y|x']`` for a ratio condition (infinite when
            ``P[y|x'] = 0 < P[y|x]``), ``None`` for a structural condition; exact (``Nats``).
        bound: the budget the log-ratio is compared with, ``None`` for a
            structural condition; exact (``Nats``).
        detail: a sentence saying what was checked and what was found.
        probabilities: ``(P[y|x], P[y|x'])``, the two entries of the channel the ratio is made of, exact, for a
            ratio condition on a channel given as a matrix (``spec.Channel``); ``None`` for a channel given by its
            structure (densities, classes of inputs), and for SULDP, whose conditions are over the protected part of
            an output, not one output.
    """

    condition: str
    inputs: tuple
    output: object
    log_ratio: Nats | None = None
    bound: Nats | None = None
    detail: str = ""
    probabilities: tuple | None = None

    def to_json(self, full: bool = True) -> dict:
        """The witness as JSON; ``full=False`` cuts a long output (the positions of a bit vector's rarer value) to
        its first ``SHOWN`` entries, saying how many there are."""
        data = {
            "condition": self.condition,
            "inputs": [label_to_json(x) for x in self.inputs],
            "output": output_to_json(self.output) if full else _sized(output_to_json(self.output)),
            "log_ratio": None if self.log_ratio is None else to_decimal_string(self.log_ratio),
            "bound": None if self.bound is None else to_decimal_string(self.bound),
            "detail": self.detail,
        }
        if self.probabilities is not None:
            data["probabilities"] = [to_decimal_string(p) for p in self.probabilities]
        if self.log_ratio is not None:
            data["exact"] = {"log_ratio": self.log_ratio.text(), "bound": self.bound.text()}
            if self.probabilities is not None:
                data["exact"]["probabilities"] = [Exact.of(p).text() for p in self.probabilities]
        return data


@dataclass(frozen=True)
class Verdict:
    """Truthy when the notion holds.

    Attributes:
        notion: the predicate's name, for example ``"ldp"`` or ``"suldp-joint"``.
        holds: whether every condition holds, decided exactly; ``None`` when a comparison was undecided at the
            largest precision tried (``spec.exact.MAX_BITS``) and no condition fails.
        margin: ``bound - log_ratio`` at the worst ratio condition, in nats, as an approximation for display
            (exactly 0 at a tie); ``+inf`` when no ratio condition applies, ``-inf`` when a ratio is infinite or a
            structural condition fails.
        witness: the worst condition, ``None`` when nothing is constrained.
        parameters: the parameters the notion was checked with, as given.
        undecided: why the verdict is undecided, when it is.
    """

    notion: str
    holds: bool | None
    margin: object
    witness: Witness | None
    parameters: dict = field(default_factory=dict)
    undecided: str = ""

    def __bool__(self) -> bool:
        if self.holds is None:
            raise Undecided(f"{self.notion}: {self.undecided}")
        return self.holds

    def to_json(self, full: bool = True) -> dict:
        """The verdict as JSON. ``full=False`` keeps it small whatever the channel's size (the command line's
        default): budgets given per budget with the number of inputs that have it, every other long list cut to its
        first ``SHOWN`` entries with its length; ``full=True`` lists everything."""
        data = {
            "notion": self.notion,
            "holds": self.holds,
            "margin": to_decimal_string(self.margin),
            "witness": None if self.witness is None else self.witness.to_json(full),
            "parameters": json_ready(self.parameters) if full else {key: _sized(json_ready(value), key) for key, value
                                                                    in self.parameters.items()},
        }
        if self.holds is None:
            data["undecided"] = self.undecided
        return data


SHOWN = 20
"""The entries of a long list that a verdict shows by default (``to_json(full=False)``)."""


def _sized(value, key: str = ""):
    """``value`` for a person to read: a list of more than ``SHOWN`` entries as its length and its first entries
    (``budgets``, pairs ``[input, budget]``: as each distinct budget with the number of inputs that have it and the
    first of them); a bit vector's positions likewise. Short values are kept as they are."""
    if isinstance(value, dict) and "bits" in value:  # a bit vector: the positions of its rarer value
        rarer = "ones" if "ones" in value else "zeros"
        return {**value, rarer: _sized(value[rarer])} if len(value[rarer]) > SHOWN else value
    if not isinstance(value, list) or len(value) <= SHOWN:
        return value
    if key == "budgets" and all(isinstance(pair, list) and len(pair) == 2 for pair in value):
        groups = {}
        for label, text in value:
            groups.setdefault(text, [0, label])[0] += 1
        listed = [{"budget": text, "inputs": count, "first": label} for text, (count, label) in groups.items()]
        summary = {"inputs": len(value), "distinct budgets": len(listed), "by budget": listed[:SHOWN]}
    else:
        summary = {"entries": len(value), "first": value[:SHOWN]}
    return {**summary, "complete": "with --full (or to_json(full=True))"}


def ratio_witness(inputs: tuple, output, log_ratio: Nats, bound: Nats, condition: str = "ratio") -> Witness:
    """A witness for a ratio condition ``ln P[y|x]/P[y|x'] <= bound``."""
    return Witness(condition, inputs, output, log_ratio, bound,
                   f"ln P[{label_text(output)}|{label_text(inputs[0])}] / P[{label_text(output)}|"
                   f"{label_text(inputs[1])}] = "
                   f"{to_decimal_string(log_ratio, 20)} against the bound {to_decimal_string(bound, 20)}")


def structural_witness(condition: str, inputs: tuple, output, detail: str) -> Witness:
    return Witness(condition, inputs, output, None, None, detail)


class WorstCase:
    """Decides conditions exactly and keeps the worst one.

    A ratio condition ``log_ratio <= bound`` is decided exactly (``spec.exact``). A structural failure beats
    everything; then failing ratio conditions beat holding ones; among conditions of one kind the smallest margin
    wins, and the first one met wins a tie (so witnesses are deterministic).
    """

    def __init__(self, notion: str, parameters: dict):
        self.notion = notion
        self.parameters = parameters
        self.margin = ctx.inf
        self.witness = None
        self._failed = False
        self._structural_failure = False
        self._undecided = ""

    def ratio(self, inputs: tuple, output, log_ratio: Nats, bound: Nats, condition: str = "ratio") -> None:
        if self._structural_failure:
            return
        try:
            fails = log_ratio.compare(bound) > 0
        except Undecided as error:
            self._undecided = self._undecided or str(error)
            return
        if log_ratio.is_infinite:
            margin = -ctx.inf
        elif log_ratio == bound:
            margin = ctx.mpf(0)
        else:
            margin = (bound - log_ratio).approximation()  # the log of an exact quotient: accurate near 0 too
        if self.witness is None or (fails and not self._failed) or (fails == self._failed and margin < self.margin):
            self.margin = margin
            self.witness = ratio_witness(inputs, output, log_ratio, bound, condition)
        self._failed = self._failed or fails

    def structural_failure(self, condition: str, inputs: tuple, output, detail: str) -> None:
        if not self._structural_failure:
            self._structural_failure = True
            self.margin = -ctx.inf
            self.witness = structural_witness(condition, inputs, output, detail)

    def verdict(self, channel=None, *, witness_probabilities: bool = True) -> Verdict:
        """The verdict so far (the state is left as it is, so more conditions may follow). Given the ``channel``
        judged, the parameters name the reading that made its rows exact (``parameters["reading"]``, when it was
        given one; ``spec.rows``), and the witness of a ratio condition over its outputs carries the two
        probabilities its ratio is made of, where the channel holds them (``ratio_probabilities``; not for a
        condition over parts of outputs, ``witness_probabilities=False``)."""
        witness, parameters = self.witness, self.parameters
        read = None if channel is None else channel.reading()
        if read is not None:
            parameters = {**parameters, "reading": read.to_json()}
        if (channel is not None and witness_probabilities and witness is not None
                and witness.log_ratio is not None):
            x, x2 = witness.inputs
            probabilities = channel.ratio_probabilities(x, x2, witness.output)
            if probabilities is not None:
                witness = replace(witness, probabilities=probabilities)
        if self._structural_failure or self._failed:
            return Verdict(self.notion, False, self.margin, witness, parameters)
        if self._undecided:
            return Verdict(self.notion, None, self.margin, witness, parameters,
                           f"undecided at this precision: {self._undecided}")
        return Verdict(self.notion, True, self.margin, witness, parameters)

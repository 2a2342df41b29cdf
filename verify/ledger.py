"""Claims as data, the readings they are checked under, and the claims ledger.

A claim has a stable id (the paper's key, then a name; a part of a compound claim adds a suffix,
``gu2020.sec3c-baselines.grr-ldp``), the location in the paper, the statement as the paper makes it, how the
project interprets it where the text is lost or loose, the methods that check it, the recorded verdict, and a check
function. ``pytest verify`` runs every check, fails when a computed verdict differs from the recorded one, and writes
the ledger as JSON and Markdown.

**Readings.** Where a paper leaves something unstated that a check depends on (a feasible box, which outputs are
released, a tie rule, what a loose word means), the paper declares a ``Choice`` once: its name, its possible values,
and where the paper leaves it open. A claim names the choices it depends on; the audit runs its check under every
combination of their values (a *reading*, ``{choice: value}``), and the ledger gives a verdict per reading.

Verdicts of one reading:

* ``verified``: every method agrees with the statement, within the scope each method states;
* ``refuted``: a method found a counterexample, confirmed by the exact kernel; the ledger shows the smallest one
  found. This is a result of the audit, not a failure;
* ``open``: the statement cannot be decided by machine (it is normative, or a part of it is lost); the reason is
  given.

A claim's overall verdict is the verdict of every reading when they agree, and ``depends-on-reading`` when they do
not (the summary then says which reading gives which).
"""

from __future__ import annotations

import itertools
import json
import time
from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass, field
from pathlib import Path

from ldpspec.reference.registry import PAPERS

VERDICTS = ("verified", "refuted", "open")
"""The verdicts of one reading."""
DEPENDS = "depends-on-reading"
"""The overall verdict of a claim whose readings disagree."""


@dataclass(frozen=True)
class AuditSettings:
    """How hard the audit searches. The default fits CI; ``deep`` (``pytest verify --deep``) searches further."""

    deep: bool = False
    examples_factor: float = 1.0  # searches whose every example runs a solver use a fraction

    @property
    def hypothesis_examples(self) -> int:
        return max(10, int((2000 if self.deep else 150) * self.examples_factor))

    @property
    def max_inputs(self) -> int:
        """Largest channel (inputs and outputs) the random search draws."""
        return 6 if self.deep else 4


@dataclass(frozen=True)
class Choice:
    """Something a paper leaves unstated that a claim's verdict may depend on.

    Attributes:
        name: the name claims use, and the key of a reading.
        values: the possible values; each is what some reader could take the paper to mean.
        where: where the paper leaves it open, and why each value is a plausible reading.
        meanings: one sentence per value.
    """

    name: str
    values: tuple[str, ...]
    where: str
    meanings: Mapping[str, str] = field(default_factory=dict)

    def __post_init__(self):
        if len(self.values) < 2 or len(set(self.values)) != len(self.values):
            raise ValueError(f"choice {self.name} needs at least two distinct values, got {self.values!r}")
        missing = [value for value in self.values if value not in self.meanings]
        if missing:
            raise ValueError(f"choice {self.name}: say what {missing} mean")

    def to_json(self) -> dict:
        return {"name": self.name, "values": list(self.values), "where": self.where, "meanings": dict(self.meanings)}


CHOICES: dict[str, dict[str, Choice]] = {}
"""The choices of each paper: ``{paper key: {choice name: Choice}}``, declared by ``declare_choices``."""


def declare_choices(paper: str, *choices: Choice) -> tuple[Choice, ...]:
    """Declare a paper's choices (once, in ``verify/<paper>/readings.py``); returns them."""
    if paper not in PAPERS:
        raise ValueError(f"unknown paper {paper!r}; the papers are {sorted(PAPERS)}")
    if paper in CHOICES:
        raise ValueError(f"the choices of {paper} are declared twice")
    CHOICES[paper] = {choice.name: choice for choice in choices}
    return choices


def reading_key(reading: Mapping) -> str:
    """A reading as text, ``"release=all, self_pairs=all"`` (``""`` for a claim that depends on no choice)."""
    return ", ".join(f"{name}={value}" for name, value in reading.items())


@dataclass
class Evidence:
    """What one method did: its name, the scope it covered, and what it found."""

    method: str
    scope: str
    result: str


@dataclass
class Outcome:
    """The computed result of a claim's check under one reading."""

    verdict: str
    summary: str
    evidence: list[Evidence] = field(default_factory=list)
    counterexample: dict | None = None
    printed_vs_computed: list[dict] = field(default_factory=list)

    def __post_init__(self):
        if self.verdict not in VERDICTS:
            raise ValueError(f"verdict must be one of {VERDICTS}, got {self.verdict!r}")
        if self.verdict == "refuted" and not self.counterexample:
            raise ValueError("a refuted claim must carry its counterexample")


@dataclass(frozen=True)
class Claim:
    """A registered claim. ``recorded`` is one verdict for every reading, or ``{reading key: verdict}``."""

    id: str
    paper: str
    location: str
    statement: str
    methods: tuple[str, ...]
    recorded: str | Mapping
    check: Callable[..., Outcome]
    interpretation: str = ""
    choices: tuple[Choice, ...] = ()

    def readings(self) -> list[dict]:
        """Every combination of the values of the claim's choices (one empty reading when it has none)."""
        return [dict(zip((c.name for c in self.choices), values))
                for values in itertools.product(*(c.values for c in self.choices))]

    def recorded_verdict(self, reading: Mapping) -> str:
        return self.recorded if isinstance(self.recorded, str) else self.recorded[reading_key(reading)]


REGISTRY: dict[str, Claim] = {}


def claim(id: str, *, location: str, statement: str, methods: tuple[str, ...], recorded, interpretation: str = "",
          choices: tuple[Choice, ...] = ()):
    """Register the decorated function as the check of claim ``id``.

    The check is called as ``check(settings, **reading)``: one keyword argument per choice of ``choices``.
    ``recorded`` is a verdict, or ``{reading key: verdict}`` for a claim whose readings disagree.
    """
    paper = id.split(".", 1)[0]
    if paper not in PAPERS:
        raise ValueError(f"claim id {id!r} must start with a paper key {sorted(PAPERS)}")
    for choice in choices:
        if CHOICES.get(paper, {}).get(choice.name) is not choice:
            raise ValueError(f"claim {id}: choice {choice.name!r} is not one of the choices declared for {paper}")
    keys = [reading_key(dict(zip((c.name for c in choices), values)))
            for values in itertools.product(*(c.values for c in choices))]
    if isinstance(recorded, str):
        if recorded not in VERDICTS:
            raise ValueError(f"recorded verdict of {id} must be one of {VERDICTS}")
    elif set(recorded) != set(keys) or any(verdict not in VERDICTS for verdict in recorded.values()):
        raise ValueError(f"recorded verdicts of {id} must give one of {VERDICTS} for each reading {keys}")

    def register(check: Callable[..., Outcome]):
        if id in REGISTRY:
            raise ValueError(f"claim {id} is registered twice")
        REGISTRY[id] = Claim(id, paper, location, statement, tuple(methods), recorded, check, interpretation,
                             tuple(choices))
        return check

    return register


@dataclass
class Step:
    """The result of one method on one part of a claim."""

    evidence: Evidence
    counterexample: dict | None = None
    inconclusive: bool = False


def decide(steps: list[Step], verified: str, refuted: str, inconclusive: str = "") -> Outcome:
    """The verdict from the steps of a check.

    Refuted when any step has a counterexample confirmed by the kernel (the
    first such step, which searches smallest sizes first, gives it); open when
    a step is inconclusive (a solver gave up, or proposed a model the kernel
    does not confirm); verified otherwise.
    """
    evidence = [step.evidence for step in steps]
    for step in steps:
        if step.counterexample is not None:
            return Outcome("refuted", refuted, evidence, step.counterexample)
    if any(step.inconclusive for step in steps):
        return Outcome("open", inconclusive or "a method was inconclusive; see the evidence", evidence)
    return Outcome("verified", verified, evidence)


_OUTCOMES: dict[tuple, Outcome] = {}


def outcome(claim_id: str, settings: AuditSettings, reading: Mapping | None = None) -> Outcome:
    """The outcome of one claim under one reading, computed once per audit run.

    Claims that restate other claims (a paper's headline summarising its sections) call this rather than running
    the other claims' checks again.
    """
    reading = dict(reading or {})
    key = (claim_id, settings, reading_key(reading))
    if key not in _OUTCOMES:
        _OUTCOMES[key] = REGISTRY[claim_id].check(settings, **reading)
    return _OUTCOMES[key]


@dataclass
class ReadingResult:
    """A claim's verdict under one reading, with its evidence."""

    reading: dict
    verdict: str
    recorded: str
    summary: str
    evidence: list[dict]
    counterexample: dict | None
    printed_vs_computed: list[dict]


@dataclass
class Entry:
    """One line of the ledger: the claim, its verdict under every reading, and the overall verdict."""

    id: str
    paper: str
    location: str
    statement: str
    interpretation: str
    methods: list[str]
    choices: list[str]
    recorded: str
    verdict: str
    summary: str
    verdicts_by_reading: list[ReadingResult]
    seconds: float

    @property
    def matches(self) -> bool:
        return all(result.verdict == result.recorded for result in self.verdicts_by_reading)


def overall(results: list[ReadingResult]) -> tuple[str, str]:
    """The overall verdict and summary: the common verdict, or ``depends-on-reading`` and which gives what."""
    verdicts = {result.verdict for result in results}
    if len(verdicts) == 1:
        summaries = list(dict.fromkeys(result.summary for result in results if result.summary))
        return verdicts.pop(), " ".join(summaries)
    parts = []
    for verdict in VERDICTS:
        readings = [reading_key(result.reading) for result in results if result.verdict == verdict]
        if readings:
            parts.append(f"{verdict} under {'; '.join(readings)}")
    return DEPENDS, "The verdict depends on the reading: " + "; ".join(parts) + "."


def run_claim(claim: Claim, settings: AuditSettings) -> Entry:
    started = time.perf_counter()
    results = []
    for reading in claim.readings():
        result = outcome(claim.id, settings, reading)
        results.append(ReadingResult(reading, result.verdict, claim.recorded_verdict(reading), result.summary,
                                     [asdict(e) for e in result.evidence], result.counterexample,
                                     result.printed_vs_computed))
    verdict, summary = overall(results)
    recorded_overall, _ = overall([ReadingResult({}, r.recorded, r.recorded, "", [], None, []) for r in results])
    return Entry(claim.id, claim.paper, claim.location, claim.statement, claim.interpretation, list(claim.methods),
                 [choice.name for choice in claim.choices], recorded_overall, verdict, summary, results,
                 round(time.perf_counter() - started, 3))


def write_ledger(entries: list[Entry], directory: Path, *, complete: bool,
                 settings: AuditSettings) -> tuple[Path, Path]:
    """Write ``ledger.json`` and ``ledger.md`` to ``directory``; return their paths."""
    directory.mkdir(parents=True, exist_ok=True)
    entries = sorted(entries, key=lambda entry: entry.id)
    counts = {verdict: sum(entry.verdict == verdict for entry in entries) for verdict in (*VERDICTS, DEPENDS)}
    document = {
        "complete": complete,
        "depth": "deep" if settings.deep else "default",
        "counts": counts,
        "papers": {key: paper.citation for key, paper in PAPERS.items()},
        "choices": {paper: [choice.to_json() for choice in choices.values()] for paper, choices in CHOICES.items()},
        "claims": [{**asdict(entry), "matches_recorded": entry.matches} for entry in entries],
    }
    json_path = directory / "ledger.json"
    json_path.write_text(json.dumps(document, indent=1, default=str) + "\n", encoding="utf-8")
    markdown_path = directory / "ledger.md"
    markdown_path.write_text(ledger_markdown(document), encoding="utf-8")
    return json_path, markdown_path


def _cell(text) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


def _counts_text(counts: Mapping) -> str:
    text = f"{counts['verified']} verified, {counts['refuted']} refuted, {counts['open']} open"
    return text + (f", {counts[DEPENDS]} depending on the reading" if counts.get(DEPENDS) else "")


def ledger_markdown(document: dict) -> str:
    """The ledger as Markdown: a summary table, then one section per claim."""
    lines = ["# Claims ledger", "",
             f"{len(document['claims'])} claims: {_counts_text(document['counts'])}. Audit depth: {document['depth']}."
             + ("" if document["complete"] else " **Partial run: not every registered claim was checked.**")]
    return "\n".join(lines + _claims_markdown(document, document["claims"], heading="##")) + "\n"


def paper_ledger_markdown(document: dict, paper: str) -> str:
    """The ledger entries of one paper, for the paper's page of the site."""
    claims = [entry for entry in document["claims"] if entry["paper"] == paper]
    counts = {verdict: sum(entry["verdict"] == verdict for entry in claims) for verdict in (*VERDICTS, DEPENDS)}
    lines = ["## Ledger entries", "",
             f"{len(claims)} claims: {_counts_text(counts)} (audit depth: {document['depth']})."]
    return "\n".join(lines + _claims_markdown(document, claims, heading="###")) + "\n"


def _claims_markdown(document: dict, claims: list, heading: str) -> list[str]:
    lines = ["", "| claim | paper | location | verdict |", "|---|---|---|---|"]
    for entry in claims:
        anchor = entry["id"].replace(".", "").lower()
        lines.append(f"| [{entry['id']}](#{anchor}) | {entry['paper']} | {_cell(entry['location'])} | "
                     f"{entry['verdict']} |")
    for entry in claims:
        lines += ["", f"{heading} {entry['id']}", "",
                  f"**Paper:** {document['papers'][entry['paper']]}, {entry['location']}.", "",
                  f"**Statement (as the paper makes it):** {entry['statement']}", ""]
        if entry["interpretation"]:
            lines += [f"**Interpretation:** {entry['interpretation']}", ""]
        lines += [f"**Verdict:** {entry['verdict']} (recorded: {entry['recorded']}). {entry['summary']}", ""]
        several = len(entry["verdicts_by_reading"]) > 1
        if several:
            lines += [f"**Checked under every reading of** {', '.join(entry['choices'])}:", "",
                      "| reading | verdict | summary |", "|---|---|---|"]
            for result in entry["verdicts_by_reading"]:
                lines.append(f"| {_cell(reading_key(result['reading']))} | {result['verdict']} | "
                             f"{_cell(result['summary'])} |")
        for result in entry["verdicts_by_reading"]:
            if several:
                lines += ["", f"*Reading {reading_key(result['reading'])}:*"]
            lines += ["", "| method | scope | result |", "|---|---|---|"]
            for evidence in result["evidence"]:
                lines.append(f"| {_cell(evidence['method'])} | {_cell(evidence['scope'])} | "
                             f"{_cell(evidence['result'])} |")
            if result["printed_vs_computed"]:
                lines += ["", "| quantity | printed | computed |", "|---|---|---|"]
                for row in result["printed_vs_computed"]:
                    lines.append(f"| {_cell(row['quantity'])} | {_cell(row['printed'])} | {_cell(row['computed'])} |")
            if result["counterexample"]:
                lines += ["", "**Counterexample:**", "", "```json",
                          json.dumps(result["counterexample"], indent=1, default=str), "```"]
    return lines

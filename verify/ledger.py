"""Claims as data, and the claims ledger.

A claim has a stable id (the ids of the formula sheets; a part of a compound
claim adds a suffix, ``gu2020.sec3c-baselines.grr-ldp``), the paper and the
location, the statement as the paper makes it, the methods that check it, the
recorded verdict, and a check function. ``pytest verify`` runs every check,
fails when a computed verdict differs from the recorded one, and writes the
ledger as JSON and Markdown.

Verdicts:

* ``verified``: every method agrees with the statement, within the scope each
  method states;
* ``refuted``: a method found a counterexample, confirmed by the exact kernel;
  the ledger shows the smallest one found. This is a result of the audit, not
  a failure;
* ``open``: the statement cannot be decided by machine (it is normative, or a
  part of it is lost); the reason is given.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path

VERDICTS = ("verified", "refuted", "open")

PAPERS = {
    "gu2020": "Gu, Li, Xiong, Cao. Providing Input-Discriminative Protection for Local Differential Privacy. ICDE 2020",
    "cao2022": "Cao, Zhu, He, Zhang. Utility-Optimized LDP Set-Valued Data Frequency Estimation Mechanism. J. Computer Research and Development, 2022",
    "ipldp2023": "Item-Oriented Personalized LDP for Discrete Distribution Estimation. Preprints.org, 2023 (v1)",
    "hiera2023": "Hao, Wu, Wan. Hierarchical Aggregation for Numerical Data under Local Differential Privacy. Sensors 2023",
}


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


@dataclass
class Evidence:
    """What one method did: its name, the scope it covered, and what it found."""

    method: str
    scope: str
    result: str


@dataclass
class Outcome:
    """The computed result of a claim's check."""

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
    id: str
    paper: str
    location: str
    statement: str
    methods: tuple[str, ...]
    recorded: str
    check: Callable[[AuditSettings], Outcome]
    reading: str = ""  # which reconstruction or reading of the paper the check uses


REGISTRY: dict[str, Claim] = {}


def claim(id: str, *, location: str, statement: str, methods: tuple[str, ...], recorded: str, reading: str = ""):
    """Register the decorated function as the check of claim ``id``."""
    paper = id.split(".", 1)[0]
    if paper not in PAPERS:
        raise ValueError(f"claim id {id!r} must start with a paper key {sorted(PAPERS)}")
    if recorded not in VERDICTS:
        raise ValueError(f"recorded verdict of {id} must be one of {VERDICTS}")

    def register(check: Callable[[AuditSettings], Outcome]):
        if id in REGISTRY:
            raise ValueError(f"claim {id} is registered twice")
        REGISTRY[id] = Claim(id, paper, location, statement, tuple(methods), recorded, check, reading)
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


@dataclass
class Entry:
    """One line of the ledger: the claim, its recorded and computed verdicts, and the evidence."""

    id: str
    paper: str
    location: str
    statement: str
    reading: str
    methods: list[str]
    recorded: str
    verdict: str
    summary: str
    evidence: list[dict]
    counterexample: dict | None
    printed_vs_computed: list[dict]
    seconds: float

    @property
    def matches(self) -> bool:
        return self.verdict == self.recorded


def run_claim(claim: Claim, settings: AuditSettings) -> Entry:
    started = time.perf_counter()
    outcome = claim.check(settings)
    return Entry(claim.id, claim.paper, claim.location, claim.statement, claim.reading, list(claim.methods),
                 claim.recorded, outcome.verdict, outcome.summary, [asdict(e) for e in outcome.evidence],
                 outcome.counterexample, outcome.printed_vs_computed, round(time.perf_counter() - started, 3))


def write_ledger(entries: list[Entry], directory: Path, *, complete: bool, settings: AuditSettings) -> tuple[Path, Path]:
    """Write ``ledger.json`` and ``ledger.md`` to ``directory``; return their paths."""
    directory.mkdir(parents=True, exist_ok=True)
    entries = sorted(entries, key=lambda entry: entry.id)
    counts = {verdict: sum(entry.verdict == verdict for entry in entries) for verdict in VERDICTS}
    document = {
        "complete": complete,
        "depth": "deep" if settings.deep else "default",
        "counts": counts,
        "papers": PAPERS,
        "claims": [{**asdict(entry), "matches_recorded": entry.matches} for entry in entries],
    }
    json_path = directory / "ledger.json"
    json_path.write_text(json.dumps(document, indent=1, default=str) + "\n", encoding="utf-8")
    markdown_path = directory / "ledger.md"
    markdown_path.write_text(ledger_markdown(document), encoding="utf-8")
    return json_path, markdown_path


def _cell(text) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


def ledger_markdown(document: dict) -> str:
    """The ledger as Markdown: a summary table, then one section per claim."""
    counts = document["counts"]
    lines = ["# Claims ledger", "",
             f"{len(document['claims'])} claims: {counts['verified']} verified, {counts['refuted']} refuted, "
             f"{counts['open']} open. Audit depth: {document['depth']}."
             + ("" if document["complete"] else " **Partial run: not every registered claim was checked.**")]
    return "\n".join(lines + _claims_markdown(document, document["claims"], heading="##")) + "\n"


def paper_ledger_markdown(document: dict, paper: str) -> str:
    """The ledger entries of one paper, for the paper's page of the site."""
    claims = [entry for entry in document["claims"] if entry["paper"] == paper]
    counts = {verdict: sum(entry["verdict"] == verdict for entry in claims) for verdict in VERDICTS}
    lines = ["## Ledger entries", "",
             f"{len(claims)} claims: {counts['verified']} verified, {counts['refuted']} refuted, {counts['open']} open "
             f"(audit depth: {document['depth']})."]
    return "\n".join(lines + _claims_markdown(document, claims, heading="###")) + "\n"


def _claims_markdown(document: dict, claims: list, heading: str) -> list[str]:
    lines = ["", "| claim | paper | location | verdict |", "|---|---|---|---|"]
    for entry in claims:
        anchor = entry["id"].replace(".", "").lower()
        lines.append(f"| [{entry['id']}](#{anchor}) | {entry['paper']} | {_cell(entry['location'])} | {entry['verdict']} |")
    for entry in claims:
        lines += ["", f"{heading} {entry['id']}", "",
                  f"**Paper:** {document['papers'][entry['paper']]}, {entry['location']}.", "",
                  f"**Statement (as the paper makes it):** {entry['statement']}", ""]
        if entry["reading"]:
            lines += [f"**Reading:** {entry['reading']}", ""]
        lines += [f"**Verdict:** {entry['verdict']} (recorded: {entry['recorded']}). {entry['summary']}", ""]
        lines += ["| method | scope | result |", "|---|---|---|"]
        for evidence in entry["evidence"]:
            lines.append(f"| {_cell(evidence['method'])} | {_cell(evidence['scope'])} | {_cell(evidence['result'])} |")
        if entry["printed_vs_computed"]:
            lines += ["", "| quantity | printed | computed |", "|---|---|---|"]
            for row in entry["printed_vs_computed"]:
                lines.append(f"| {_cell(row['quantity'])} | {_cell(row['printed'])} | {_cell(row['computed'])} |")
        if entry["counterexample"]:
            lines += ["", "**Counterexample:**", "", "```json",
                      json.dumps(entry["counterexample"], indent=1, default=str), "```"]
    return lines

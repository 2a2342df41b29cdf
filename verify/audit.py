"""Running the audit: a claim's check under every reading, and the result as an entry of the ledger.

``pytest verify`` runs every registered claim through ``run_claim`` (``verify/test_audit.py``, one test per claim,
which fails when a computed verdict differs from the recorded one); the plugin then writes the entries as the ledger
(``ledger.py``). ``outcome`` computes a claim's outcome under one reading once per run, so that claims restating other
claims do not run their checks again.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import asdict, dataclass

from ldpspec.verify.claims import DEPENDS, REGISTRY, VERDICTS, AuditSettings, Claim, Outcome, reading_key

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
        readings = [f"`{reading_key(result.reading)}`" for result in results if result.verdict == verdict]
        if readings:
            parts.append(f"{verdict} under {'; '.join(readings)}")
    return DEPENDS, "The verdict depends on the reading: " + "; ".join(parts) + "."


def run_claim(claim: Claim, settings: AuditSettings) -> Entry:
    """The claim's entry of the ledger: its outcome under every reading, the overall verdict and the recorded one."""
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

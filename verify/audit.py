"""Running the audit: a claim's check under every reading, and the result as an entry of the ledger.

``pytest verify`` runs every registered claim through ``run_claim`` (``verify/test_audit.py``, one test per claim,
which fails when a computed verdict differs from the recorded one); the plugin then writes the entries as the ledger
(``ledger.py``). ``outcome`` computes a claim's outcome under one reading once per run, so that claims restating other
claims do not run their checks again.

A check runs under its complete reading (``verify/claims.py``): the claim's own reading, and every other choice of its
paper at its fixed value, or at the value a sweep sets. ``run_claim`` records which of those other choices the check
consulted (``reading_value``) and, when asked to, sweeps them: it reruns the check under each other value of each,
one choice at a time, and reports every verdict that moves (``Coverage``). A claim that restates another of its paper
passes its complete reading on, and takes on the choices the other consulted.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field, replace

from ldpspec.verify.claims import (
    CHOICES,
    DEPENDS,
    REGISTRY,
    VERDICTS,
    AuditSettings,
    Claim,
    Outcome,
    complete_reading,
    reading_context,
    reading_key,
    running,
)

_OUTCOMES: dict[tuple, list[tuple[dict, Outcome, frozenset]]] = {}
"""Per claim, settings and own reading: ``(values of the choices consulted, outcome, choices consulted)`` of each
run; a later run whose complete reading gives the same values to the consulted choices reuses the outcome."""

_FOREIGN: dict[tuple, set] = {}
"""Per claim, settings and own reading: the choices of other papers (``"paper.choice=value"``) read by the claims of
those papers its check restates (``outcome``), each at that paper's fixed value."""

SWEEP_MODES = ("all", "none")
"""What ``run_claim`` sweeps: every claim (the audit, ``pytest verify``), or none (a quick look at one claim)."""


def _run(claim_id: str, settings: AuditSettings, reading: Mapping | None = None,
         overrides: Mapping | None = None) -> tuple[Outcome, frozenset]:
    """The outcome of one claim under one reading, and the choices its check consulted (its own included).

    The other choices of its paper take their values from ``overrides``; by default, inside another check of the
    same paper, from that check's complete reading, and otherwise their fixed values."""
    claim = REGISTRY[claim_id]
    reading = dict(reading or {})
    outer = running()
    same_paper = outer is not None and outer.paper == claim.paper
    if overrides is None:
        overrides = outer.reading if same_paper else {}
    complete = complete_reading(claim.paper, reading, overrides)
    complete.update({fixed.choice.name: fixed.value for fixed in claim.fixes if fixed.value is not None})
    key = (claim_id, settings, reading_key(reading))
    found = next(((result, consulted) for values, result, consulted in _OUTCOMES.get(key, [])
                  if all(complete[name] == value for name, value in values.items())), None)
    if found is None:
        declared = {choice.name for choice in claim.choices} | {fixed.choice.name for fixed in claim.fixes}
        with reading_context(claim.paper, complete, declared) as record:
            result = claim.check(settings, **reading)
        consulted = frozenset(record.consulted)
        values = {name: complete[name] for name in consulted}
        # a new outcome: a check may return one it cached, which another reading's run must not see changed
        result = replace(result, evidence=[replace(e, scope=e.scope + built_under(values))
                                           if not e.scope.endswith(BUILT_UNDER_END) else e for e in result.evidence])
        _OUTCOMES.setdefault(key, []).append((values, result, consulted))
    else:
        result, consulted = found
    foreign = _FOREIGN.setdefault(key, set())
    if found is None:
        foreign |= record.foreign
    if same_paper:
        outer.consulted.update(consulted - set(reading) - {fixed.choice.name for fixed in claim.fixes})
        outer.foreign |= foreign
    elif outer is not None:  # another paper's claim, at its paper's fixed values: the outer sweep cannot vary them
        outer.foreign |= foreign | {f"{claim.paper}.{name}={complete[name]}" for name in consulted}
    return result, consulted


BUILT_UNDER_END = "(the values of the paper's choices its objects were built under)."


def built_under(values: Mapping[str, str]) -> str:
    """The end of an evidence's scope line: the value of every choice of the paper the check read, each one that
    shaped what was searched or computed (``""`` when it read none). Drawn from the running reading, never
    written by hand: tests/audit/test_ledger.py refuses a scope text in verify/ that names a reading itself."""
    if not values:
        return ""
    return (" Built under " + ", ".join(f"`{name}={value}`" for name, value in sorted(values.items()))
            + " " + BUILT_UNDER_END)


def outcome(claim_id: str, settings: AuditSettings, reading: Mapping | None = None) -> Outcome:
    """The outcome of one claim under one reading, computed once per audit run.

    Claims that restate other claims (a paper's headline summarising its sections) call this rather than running
    the other claims' checks again. Inside a check of the same paper, the choices the claim does not vary take the
    values of that check's complete reading, and the choices it consults count as consulted by that check.
    """
    return _run(claim_id, settings, reading)[0]


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
    consulted: list[str] = field(default_factory=list)
    not_consulted: list[str] = field(default_factory=list)
    sweep: list[dict] = field(default_factory=list)
    sweep_seconds: float = 0.0
    fixed_on_purpose: list[dict] = field(default_factory=list)
    other_papers: list[str] = field(default_factory=list)

    @property
    def moved(self) -> list[dict]:
        """Every verdict that moved when the sweep changed a choice the claim does not vary."""
        return [move for coverage in self.sweep for move in coverage["moved"]]

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


@dataclass
class Coverage:
    """A choice of the claim's paper that its check consulted but does not vary, and what the sweep found.

    ``status``: ``swept`` (every other value rerun, no verdict moved), ``moved`` (some verdict moved: ``moved`` lists
    each, with the reading, the value and both verdicts) or ``unswept`` (a run with ``sweep="none"``)."""

    choice: str
    fixed: str
    status: str
    values: list[str]
    moved: list[dict] = field(default_factory=list)


def sweep_claim(claim: Claim, settings: AuditSettings, verdicts: Mapping[str, str], consulted) -> list[Coverage]:
    """Rerun ``claim`` under each other value of each choice in ``consulted`` (one at a time, under every reading of
    the claim's own choices), compared with ``verdicts`` (``{reading key: verdict}`` at the fixed values). A choice
    first consulted under a swept value is swept in turn."""
    own = {choice.name for choice in claim.choices} | {fixed.choice.name for fixed in claim.fixes}
    declared = CHOICES.get(claim.paper, {})
    todo, done, coverage = sorted(consulted), set(), []
    while todo:
        name = todo.pop(0)
        done.add(name)
        choice = declared[name]
        others = [value for value in choice.values if value != choice.fixed]
        moved = []
        for value in others:
            for reading in claim.readings():
                result, seen = _run(claim.id, settings, reading, {name: value})
                todo += sorted(set(seen) - own - done - set(todo))
                fixed = verdicts[reading_key(reading)]
                if result.verdict != fixed:
                    moved.append({"reading": dict(reading), "choice": name, "value": value, "verdict": result.verdict,
                                  "fixed": choice.fixed, "fixed_verdict": fixed, "summary": result.summary})
        coverage.append(Coverage(name, choice.fixed, "moved" if moved else "swept", others, moved))
    return coverage


def run_claim(claim: Claim, settings: AuditSettings, sweep: str = "none") -> Entry:
    """The claim's entry of the ledger: its outcome under every reading, the overall verdict and the recorded one,
    and which choices of its paper it varies, consulted or never consulted. ``sweep`` (``SWEEP_MODES``): whether the
    consulted choices are swept (``sweep_claim``)."""
    if sweep not in SWEEP_MODES:
        raise ValueError(f"sweep must be one of {SWEEP_MODES}, got {sweep!r}")
    started = time.perf_counter()
    results, consulted = [], set()
    own = [choice.name for choice in claim.choices]
    fixed = [f.choice.name for f in claim.fixes]
    read = set()
    for reading in claim.readings():
        result, seen = _run(claim.id, settings, reading, {})
        read |= seen
        consulted |= set(seen) - set(own) - set(fixed)
        results.append(ReadingResult(reading, result.verdict, claim.recorded_verdict(reading), result.summary,
                                     [asdict(e) for e in result.evidence], result.counterexample,
                                     result.printed_vs_computed))
    verdict, summary = overall(results)
    recorded_overall, _ = overall([ReadingResult({}, r.recorded, r.recorded, "", [], None, []) for r in results])
    declared = CHOICES.get(claim.paper, {})
    seconds = round(time.perf_counter() - started, 3)
    if sweep == "all":
        coverage = sweep_claim(claim, settings, {reading_key(r.reading): r.verdict for r in results}, consulted)
    else:
        coverage = [Coverage(name, declared[name].fixed, "unswept",
                             [value for value in declared[name].values if value != declared[name].fixed])
                    for name in sorted(consulted)]
    consulted = sorted({c.choice for c in coverage} | consulted)
    return Entry(claim.id, claim.paper, claim.location, claim.statement, claim.interpretation, list(claim.methods),
                 own, recorded_overall, verdict, summary, results, seconds,
                 consulted, [name for name in declared if name not in own + fixed and name not in consulted],
                 [asdict(c) for c in coverage], max(0.0, round(time.perf_counter() - started - seconds, 3)),
                 [{**f.to_json(), "read": f.choice.name in read} for f in claim.fixes],
                 sorted(set().union(*(_FOREIGN.get((claim.id, settings, reading_key(r)), set())
                                      for r in claim.readings()))))

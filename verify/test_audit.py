"""One test per registered claim: under every reading, the computed verdict must equal the recorded one.

A refuted claim passes when it is recorded as refuted: the refutation, with
its counterexample, is the audit's result. A test fails when the
computation and the record disagree, or when the sweep (``verify/audit.py``)
finds a choice that the claim consults without varying it and that moves its verdict.

On a machine with two cores or more the claims are computed in two worker processes (fresh interpreters), one
paper's claims per process at a time (a paper's claims share their computations, cached in the process), and each
test reads its claim's result; with one core they are computed in the test itself. The verdicts are the same either
way: every search is derandomized. (Measured on this project's two-core machine: 113 s against 200 s.)
"""

from __future__ import annotations

import json
import multiprocessing
import os
import traceback
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict

import pytest

from ldpspec.verify.audit import run_claim
from ldpspec.verify.claims import load_claims, reading_key

CLAIMS = load_claims()


def _run_paper(claim_ids: list[str], settings, sweep: str) -> dict:
    """In a worker: ``{claim id: entry}``, or ``{claim id: traceback text}`` for a check that raised."""
    claims = load_claims()
    results = {}
    for claim_id in claim_ids:
        try:
            results[claim_id] = run_claim(claims[claim_id], settings, sweep)
        except Exception:  # reported by the claim's own test, with the traceback
            results[claim_id] = traceback.format_exc()
    return results


@pytest.fixture(scope="session")
def computed(audit_settings, sweep_mode, request) -> dict:
    """The entry of every claim this run selected (``-k`` included), computed in worker processes when they are
    from two papers or more and the machine has two cores; ``{}`` otherwise."""
    selected = {item.callspec.params["claim_id"] for item in request.session.items
                if getattr(item, "callspec", None) is not None and "claim_id" in item.callspec.params}
    by_paper = {}
    for claim_id in sorted(selected):
        by_paper.setdefault(CLAIMS[claim_id].paper, []).append(claim_id)
    workers = min(2, os.cpu_count() or 1)
    if workers < 2 or len(by_paper) < 2:
        return {}
    papers = sorted(by_paper, key=lambda paper: -len(by_paper[paper]))  # the largest first
    results = {}
    # fresh interpreters ("spawn"): a forked copy of this process ran the checks at half speed
    with ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn")) as pool:
        for part in pool.map(_run_paper, [by_paper[paper] for paper in papers], [audit_settings] * len(papers),
                             [sweep_mode] * len(papers)):
            results.update(part)
    return results


@pytest.mark.parametrize("claim_id", sorted(CLAIMS))
def test_claim(claim_id, audit_settings, sweep_mode, ledger_entries, computed):
    entry = computed[claim_id] if claim_id in computed else run_claim(CLAIMS[claim_id], audit_settings, sweep_mode)
    assert not isinstance(entry, str), f"{claim_id}: the check raised\n{entry}"
    ledger_entries.append(entry)
    differing = [result for result in entry.verdicts_by_reading if result.verdict != result.recorded]
    assert not differing, "\n".join(
        f"{claim_id} [{reading_key(result.reading) or 'no choice'}]: computed {result.verdict}, recorded "
        f"{result.recorded}. {result.summary}\n" + json.dumps(asdict(result), indent=1, default=str)
        for result in differing)
    # a choice fixed on purpose is one the check builds something from (through the choice's builder)
    unread = [fixed["choice"] for fixed in entry.fixed_on_purpose if not fixed["read"]]
    assert not unread, f"{claim_id} declares {unread} fixed on purpose, but its check never reads them"
    # the sweep: a choice the claim consults but does not vary must not move its verdict (verify/audit.py)
    assert not entry.moved, "\n".join(
        f"{claim_id} [{reading_key(move['reading']) or 'no choice'}]: choice {move['choice']} moves the verdict: "
        f"{move['fixed_verdict']} at {move['choice']}={move['fixed']} (fixed), {move['verdict']} at "
        f"{move['choice']}={move['value']}. The claim must vary {move['choice']}." for move in entry.moved)

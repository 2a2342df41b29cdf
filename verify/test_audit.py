"""One test per registered claim: under every reading, the computed verdict must equal the recorded one.

A refuted claim passes when it is recorded as refuted: the refutation, with
its counterexample, is the audit's result. A test fails only when the
computation and the record disagree.
"""

from __future__ import annotations

import json
from dataclasses import asdict

import pytest

from ldpspec.verify.audit import load_claims
from ldpspec.verify.ledger import reading_key, run_claim

CLAIMS = load_claims()


@pytest.mark.parametrize("claim_id", sorted(CLAIMS))
def test_claim(claim_id, audit_settings, ledger_entries):
    entry = run_claim(CLAIMS[claim_id], audit_settings)
    ledger_entries.append(entry)
    differing = [result for result in entry.verdicts_by_reading if result.verdict != result.recorded]
    assert not differing, "\n".join(
        f"{claim_id} [{reading_key(result.reading) or 'no choice'}]: computed {result.verdict}, recorded "
        f"{result.recorded}. {result.summary}\n" + json.dumps(asdict(result), indent=1, default=str)
        for result in differing)

"""One test per registered claim: the computed verdict must equal the recorded one.

A refuted claim passes when it is recorded as refuted: the refutation, with
its counterexample, is the audit's result. A test fails only when the
computation and the record disagree.
"""

from __future__ import annotations

import json

import pytest

from ldpspec.verify.audit import load_claims
from ldpspec.verify.ledger import run_claim

CLAIMS = load_claims()


@pytest.mark.parametrize("claim_id", sorted(CLAIMS))
def test_claim(claim_id, audit_settings, ledger_entries):
    entry = run_claim(CLAIMS[claim_id], audit_settings)
    ledger_entries.append(entry)
    assert entry.verdict == entry.recorded, (
        f"{claim_id}: computed {entry.verdict}, recorded {entry.recorded}. {entry.summary}\n"
        + json.dumps({"evidence": entry.evidence, "counterexample": entry.counterexample}, indent=1, default=str))

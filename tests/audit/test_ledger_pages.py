"""The ledger's pages on the site (verify/ledger_pages.py), from a ledger document of the audit's shape."""

import re

from ldpspec.verify.ledger_pages import (
    claim_markdown,
    claim_page,
    counterexample_markdown,
    paper_markdown,
    summary_markdown,
    table_markdown,
)


def _reading(verdict, counterexample=None, reading=None):
    return {"reading": reading or {}, "verdict": verdict, "recorded": verdict, "summary": f"it is {verdict}.",
            "evidence": [{"method": "z3", "scope": "every budget", "result": "proved"}],
            "counterexample": counterexample, "printed_vs_computed": []}


def _entry(claim_id, verdict, readings):
    return {"id": claim_id, "paper": claim_id.split(".")[0], "location": "Sec. 1", "statement": "MinID-LDP holds.",
            "interpretation": "", "methods": ["z3", "exhaustive"], "choices": ["box"] if len(readings) > 1 else [],
            "recorded": verdict, "verdict": verdict, "summary": f"overall {verdict}.",
            "verdicts_by_reading": readings, "seconds": 0.1, "matches_recorded": True}


CHANNEL = {"method": "exhaustive", "epsilon": "1", "sets": [[0, 1], [0, 2]], "outputs": ["a", "b", "c"],
           "rows": [["1", "0", "0"], ["0", "2/5", "3/5"]], "witness": {"inputs": [0, 1], "ratio": "inf"}}
DOCUMENT = {
    "complete": True, "depth": "default", "counts": {"verified": 2, "refuted": 1, "open": 0, "depends-on-reading": 1},
    "papers": {"alpha": "Alpha et al. 2020", "beta": "Beta et al. 2021"},
    "claims": [
        _entry("alpha.one", "verified", [_reading("verified")]),
        _entry("alpha.two", "refuted", [_reading("refuted", CHANNEL)]),
        _entry("beta.one", "depends-on-reading", [_reading("verified", reading={"box": "a"}),
                                                  _reading("refuted", {"method": "z3", "b": "1/2"},
                                                           reading={"box": "b"})]),
        _entry("beta.two", "verified", [_reading("verified")]),
    ],
}


def test_the_summary_counts_each_paper_and_links_every_claim_refuted_first():
    text = summary_markdown(DOCUMENT)
    rows = re.findall(r"^\| \[([^\]]+)\]\(#(\w+)\) \| (\d+) \| (\d+) \| (\d+) \| (\d+) \| (\d+) \|$", text, re.M)
    assert [row[1] for row in rows] == ["alpha", "beta"]
    totals = [sum(int(row[k]) for row in rows) for k in range(3, 7)]
    assert totals == [DOCUMENT["counts"][v] for v in ("verified", "refuted", "open", "depends-on-reading")]
    for entry in DOCUMENT["claims"]:
        assert f"]({claim_page(entry['id'])})" in text, entry["id"]
    alpha = text[text.index("{#alpha}"):text.index("{#beta}")]
    assert alpha.index("alpha.two") < alpha.index("alpha.one")  # the refuted claim first
    assert "(under box=b)" in text and "b = 1/2" in text  # the reading that refutes, and its counterexample in brief


def test_a_counterexample_shows_the_channel_rows_as_a_matrix_and_nested_fields_as_tables():
    lines = counterexample_markdown(CHANNEL)
    assert "| input \\ output | a | b | c |" in lines
    assert "| (0, 1) | 1 | 0 | 0 |" in lines and "| (0, 2) | 0 | 2/5 | 3/5 |" in lines
    assert "| epsilon | 1 |" in lines and "*witness:*" in lines and "| ratio | inf |" in lines


def test_a_counterexample_nested_at_any_depth_is_tables_not_json():
    witness = {"inputs": ["-1", "1"], "output": [1, -1], "log_ratio": "1.386", "exact": {"log_ratio": "log(4)"}}
    verdict = {"method": "exact", "outputs": [["a", [2]], [None, [0, 1]]],
               "verdict": {"notion": "graded-ldp", "holds": False, "witness": witness,
                           "parameters": {"budgets": ["log(2)", "log(2)"]}}}
    lines = counterexample_markdown(verdict)
    assert "| outputs | ((a, (2)), (—, (0, 1))) |" in lines  # lists of lists as tuples
    assert "*verdict:*" in lines and "| holds | False |" in lines
    assert "*verdict › witness:*" in lines and "| inputs | (-1, 1) |" in lines and "| log_ratio | 1.386 |" in lines
    assert "*verdict › witness › exact:*" in lines and "| log_ratio | log(4) |" in lines
    assert "*verdict › parameters:*" in lines and "| budgets | (log(2), log(2)) |" in lines
    assert not any("{" in line for line in lines), "a mapping left as JSON"


def test_a_claim_page_gives_every_reading_its_evidence_and_links_to_its_check():
    entry = DOCUMENT["claims"][2]
    text = claim_markdown(DOCUMENT, entry, code="[the check](x.py)", test="`the test`")
    assert text.count("## Reading ") == 2 and "**Counterexample:**" in text
    assert "[the check](x.py)" in text and "`the test`" in text and "(../papers/beta.md)" in text


def test_the_table_lists_every_claim_once_with_its_filter_values():
    text = table_markdown(DOCUMENT)
    rows = re.findall(r'<tr data-paper="(\w+)" data-notion="([^"]+)" data-verdict="([\w-]+)" data-method="([^"]+)">',
                      text)
    assert len(rows) == len(DOCUMENT["claims"])
    assert rows[0] == ("alpha", "ID-LDP", "verified", "z3|exhaustive")  # MinID-LDP is not plain LDP
    assert 'href="../ledger/beta.two/"' in text


def test_a_paper_page_lists_only_its_claims():
    text = paper_markdown(DOCUMENT, "beta")
    assert "beta.one" in text and "beta.two" in text and "alpha." not in text

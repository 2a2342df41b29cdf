"""Kernel checks (verify/kernel_checks.py): the notion verdicts a refuted claim's counterexample rests on, recorded as
``ldpspec check`` answers them, and shown on the claim's page with a button that runs each again in the browser.

The ledger's tests read the ledger the last audit wrote (``pytest verify``): every refuted reading whose
counterexample shows a channel carries its kernel checks or says why it has none, and every recorded answer is the
one the command line's code gives now, JSON for JSON."""

import html
import json
import re
from fractions import Fraction

import pytest

from ldpspec.reference.channelfile import parse_channel_file
from ldpspec.reference.tools.commands import answer
from ldpspec.spec import Channel
from ldpspec.verify.kernel_checks import (
    KERNEL_CHECKS,
    NO_KERNEL_CHECK,
    KernelCheckError,
    command_line,
    kernel_check,
    labels_text,
    numbers_text,
    refuted_counterexamples,
    shows_channel,
    unchecked_channels,
)
from ldpspec.verify.ledger import ledger_texts
from ldpspec.verify.ledger_pages import (
    KERNEL_CHECK_SCRIPT,
    claim_markdown,
    counterexample_brief,
    counterexample_markdown,
    kernel_checks_markdown,
)
from tests.support import ROOT

LEDGER = ROOT / "build" / "ledger" / "ledger.json"


def _ledger() -> dict:
    if not LEDGER.exists():
        pytest.skip(f"no ledger: run `pytest verify` first (expected {LEDGER})")
    return json.loads(LEDGER.read_text(encoding="utf-8"))


def _rr(p) -> Channel:
    """Randomised response on two inputs, keeping the input with probability ``p``."""
    return Channel((0, 1), (0, 1), [[p, 1 - p], [1 - p, p]])


RR = _rr(Fraction(3, 4))  # ln 3-LDP exactly


def _check(expected="holds", epsilon="log(3)", what="Randomised response at 3/4 is LDP at budget log(3)"):
    return kernel_check(RR, "ldp", {"epsilon": epsilon}, what=what, expected=expected)


# --- the record -------------------------------------------------------------------------------------------------------

def test_a_check_records_the_request_the_command_line_answers_and_its_answer():
    check = _check()
    assert check["command"] == "ldpspec check counterexample.json --notion ldp --epsilon 'log(3)'"
    assert check["request"]["notion"] == "ldp" and check["request"]["parameters"] == {"epsilon": "log(3)"}
    assert check["answer"] == answer(check["request"]) and check["answer"]["status"] == 0
    assert parse_channel_file(check["request"]["text"]).channel.rows == RR.rows  # the channel, whole and exact
    assert json.loads(check["answer"]["stdout"])["margin"] == "0"  # exactly at the budget: no tolerance


def test_a_check_whose_answer_is_not_the_verdict_the_refutation_rests_on_raises():
    with pytest.raises(KernelCheckError, match="rests on 'does not hold'.*holds \\(exit 0\\)"):
        _check(expected="does not hold")
    with pytest.raises(KernelCheckError, match="rests on 'holds'.*does not hold \\(exit 1\\)"):
        _check(epsilon="1")
    with pytest.raises(KernelCheckError, match="bad input \\(exit 2\\)"):  # a bad input is never a verdict
        _check(epsilon="-1")
    with pytest.raises(ValueError, match="expected"):
        _check(expected="refuted")
    with pytest.raises(ValueError, match="no parameters"):
        kernel_check(RR, "ldp", {"budgets": "[1, 1]"}, what="x", expected="holds")
    with pytest.raises(TypeError, match="never a float"):
        numbers_text([0.1])


def test_parameters_are_written_as_typed_on_the_command_line():
    assert numbers_text([Fraction(1, 10), 5, None, "log(2)"]) == '["1/10", "5", null, "log(2)"]'
    assert labels_text([(0, 1), "a", ()]) == '[[0, 1], "a", []]'
    request = {"notion": "id-ldp", "parameters": {"budgets": '["1/10", "5"]', "pair-function": "min"}}
    assert command_line(request) == ("ldpspec check counterexample.json --notion id-ldp --budgets "
                                     "'[\"1/10\", \"5\"]' --pair-function min")


# --- which counterexamples must carry checks: the scan, and a planted counterexample it must report -------------------

def _document(*counterexamples) -> dict:
    readings = [{"reading": {"box": str(k)}, "verdict": "refuted", "counterexample": c}
                for k, c in enumerate(counterexamples)]
    readings.append({"reading": {"box": "v"}, "verdict": "verified", "counterexample": None})
    return {"claims": [{"id": "alpha.one", "verdicts_by_reading": readings}]}


def test_the_scan_reports_a_counterexample_with_a_channel_and_neither_key():
    planted = [{"channel": [["1/2", "1/2"], ["1", "0"]], "budgets": ["1"]},  # a key naming a channel
               {"sets": [[0, 1]], "rows": [["1"]]},  # a channel's rows
               {"why": "a verdict", "MinID-LDP": {"notion": "minid-ldp", "holds": False}}]  # a kernel verdict
    quiet = [{"coefficients": {"1": "1.5"}},  # no channel shown
             {"rows": [["1"]], KERNEL_CHECKS: [_check()]},
             {"channel": "row 0: (1/2, 1/2)", NO_KERNEL_CHECK: "a variance, not a notion's verdict"}]
    assert all(shows_channel(c) for c in planted) and not shows_channel(quiet[0])
    found = unchecked_channels(_document(*planted, *quiet))
    assert found == ["alpha.one [box=0]", "alpha.one [box=1]", "alpha.one [box=2]"]


# --- the ledger the audit wrote ---------------------------------------------------------------------------------------

def test_every_refuted_counterexample_with_a_channel_carries_kernel_checks_or_says_why_not():
    missing = unchecked_channels(_ledger())
    claims = {where.split(" ")[0]: sum(w.startswith(where.split(" ")[0] + " ") for w in missing) for where in missing}
    assert not missing, (f"{len(missing)} refuted readings whose counterexample shows a channel but has neither "
                         f"kernel_checks nor no_kernel_check (readings by claim: {claims}); the first: {missing[0]}")


def test_every_recorded_kernel_check_is_what_the_command_line_answers_now():
    checks = {}
    for where, counterexample in refuted_counterexamples(_ledger()):
        for check in counterexample.get(KERNEL_CHECKS) or []:
            checks.setdefault(json.dumps(check["request"], sort_keys=True), (where, check))
    if not checks:
        pytest.skip("the ledger has no kernel checks: it was written before they were recorded")
    for where, check in checks.values():
        parse_channel_file(check["request"]["text"])  # raises if it is not a channel file
        assert check["answer"]["status"] in (0, 1), f"{where}: {check['what']}: {check['answer']}"
        assert check["command"] == command_line(check["request"]), where
        now = answer(check["request"])
        assert (now["status"], now["stdout"], now["stderr"]) == (
            check["answer"]["status"], check["answer"]["stdout"], check["answer"]["stderr"]), (
            f"{where}: {check['what']}: the ledger recorded {check['answer']}, the command line answers {now}")


# --- the claim's page -------------------------------------------------------------------------------------------------

CLOSING = "a sentence that ends a script: </script><script>alert(1)</script>"


def _entry(*counterexamples) -> dict:
    readings = [{"reading": {"box": str(k)}, "verdict": "refuted", "recorded": "refuted", "summary": "refuted.",
                 "evidence": [{"method": "exact", "scope": "one channel", "result": "fails"}],
                 "counterexample": c, "printed_vs_computed": []} for k, c in enumerate(counterexamples)]
    return {"id": "alpha.one", "paper": "alpha", "location": "Sec. 1", "statement": "LDP holds.",
            "interpretation": "", "methods": ["exact"], "choices": ["box"], "recorded": "refuted",
            "verdict": "refuted", "summary": "refuted.", "verdicts_by_reading": readings, "seconds": 0.1}


def _blocks(text: str) -> list[str]:
    return re.findall(r'<div class="kernel-check">\n.*?\n</div>', text, re.DOTALL)


def test_a_page_shows_each_check_once_with_its_command_its_verdict_and_the_button_block():
    first, second = _check(), _check(expected="does not hold", epsilon="1", what=CLOSING)
    entry = _entry({"rows": [["3/4", "1/4"]], KERNEL_CHECKS: [first, second, first]},
                   {"rows": [["3/4", "1/4"]], KERNEL_CHECKS: [second]},
                   {"coefficients": "1.5", NO_KERNEL_CHECK: "the refutation is a variance"})
    text = claim_markdown({"papers": {"alpha": "Alpha 2020"}}, entry, code=None, test="t")
    blocks = _blocks(text)
    assert len(blocks) == 2 and text.count("### Kernel check ") == 2  # de-duplicated by request, across readings
    assert "**Kernel check:** the same as [kernel check 2](#kernel-check-2) above." in text
    assert "```bash\nldpspec check counterexample.json --notion ldp --epsilon 1\n```" in text
    assert "The ledger's run of the kernel: does not hold (exit 1)." in text
    assert "[Try it](../try.md)" in text and "No kernel check to run again: the refutation is a variance." in text
    assert text.count(KERNEL_CHECK_SCRIPT) == 1 and text.rstrip().endswith(KERNEL_CHECK_SCRIPT)
    assert KERNEL_CHECK_SCRIPT == '<script type="module" src="../../javascripts/kernel-check.js"></script>'
    lines = blocks[1].split("\n")
    assert lines[0] == '<div class="kernel-check">' and lines[-1] == "</div>"
    assert lines[1].startswith('<script type="application/json" class="kernel-check-data">')
    assert lines[1].endswith("</script>") and lines[1].count("</") == 1  # nothing inside closes the element
    assert lines[2:4] == ['<button type="button" class="md-button kernel-check-run">Re-check in your browser</button>',
                          '<div class="kernel-check-result" role="status"></div>']
    data = json.loads(lines[1].removeprefix('<script type="application/json" class="kernel-check-data">')
                      .removesuffix("</script>"))
    assert data == {"request": second["request"], "answer": second["answer"], "what": CLOSING}


def test_a_page_without_kernel_checks_loads_no_script_and_the_tables_and_brief_leave_them_out():
    counterexample = {"rows": [["3/4", "1/4"]], "epsilon": "1", KERNEL_CHECKS: [_check()],
                      NO_KERNEL_CHECK: "unused"}
    shown = "\n".join(counterexample_markdown(counterexample))
    brief = counterexample_brief(counterexample)
    assert "kernel" not in shown and "kernel" not in brief and "ldpspec" not in brief and "epsilon" in brief
    text = claim_markdown({"papers": {"alpha": "Alpha 2020"}}, _entry({"rows": [["1"]]}), code=None, test="t")
    assert "kernel-check" not in text
    assert kernel_checks_markdown([], {}) == []


def test_the_ledger_texts_hold_a_checks_sentence_not_its_data():
    document = {"claims": [{**_entry({"rows": [["1"]], KERNEL_CHECKS: [_check()]}), "summary": "s."}]}
    texts = [text for _, text in ledger_texts(document)]
    assert "Randomised response at 3/4 is LDP at budget log(3)" in texts
    assert not any("ldpspec" in text or "probabilities" in text for text in texts)


def test_markdown_passes_the_button_block_through_untouched():
    """Python-Markdown with the site's extensions (mkdocs.yml) leaves the block as written: a raw HTML block between
    blank lines (no ``md_in_html``, so no ``markdown`` attribute)."""
    markdown = pytest.importorskip("markdown", reason="the docs extra renders the pages")
    pytest.importorskip("pymdownx", reason="the docs extra renders the pages")
    checks = [_check(), _check(expected="does not hold", epsilon="1", what=CLOSING)]
    source = "\n".join(kernel_checks_markdown(checks, {}))
    rendered = markdown.markdown(source, extensions=["admonition", "attr_list", "tables", "toc",
                                                     "pymdownx.arithmatex", "pymdownx.superfences",
                                                     "pymdownx.highlight"],
                                 extension_configs={"pymdownx.arithmatex": {"generic": True}})
    assert _blocks(rendered) == _blocks(source) and len(_blocks(source)) == 2
    assert 'id="kernel-check-2"' in rendered  # the heading a repeated check links to
    assert html.escape('"format"', quote=False) in rendered  # the channel file, folded

"""The ledger's pages on the site (verify/ledger_pages.py), from a ledger document of the audit's shape; and the
ledger's math: its texts write it in TeX, which every page renders, and none is left in the ASCII notation."""

import html
import importlib.util
import json
import re
from types import SimpleNamespace

import pytest

from ldpspec.verify.claims import CHOICES, load_claims
from ldpspec.verify.ledger import ascii_math, formulas, ledger_texts, table_cell
from ldpspec.verify.ledger_pages import (
    claim_markdown,
    claim_page,
    counterexample_brief,
    counterexample_markdown,
    paper_markdown,
    summary_markdown,
    table_markdown,
)
from tests.support import ROOT

LEDGER = ROOT / "build" / "ledger" / "ledger.json"


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
    assert "(under `box=b`)" in text and "`b` = 1/2" in text  # the reading that refutes, and its counterexample


def test_a_counterexample_shows_the_channel_rows_as_a_matrix_and_nested_fields_as_tables():
    lines = counterexample_markdown(CHANNEL)
    assert "| input \\ output | a | b | c |" in lines
    assert "| (0, 1) | 1 | 0 | 0 |" in lines and "| (0, 2) | 0 | 2/5 | 3/5 |" in lines
    assert "| `epsilon` | 1 |" in lines and "*`witness`:*" in lines and "| `ratio` | inf |" in lines


def test_a_counterexample_nested_at_any_depth_is_tables_not_json():
    witness = {"inputs": ["-1", "1"], "output": [1, -1], "log_ratio": "1.386", "exact": {"log_ratio": "log(4)"}}
    verdict = {"method": "exact", "outputs": [["a", [2]], [None, [0, 1]]],
               "verdict": {"notion": "graded-ldp", "holds": False, "witness": witness,
                           "parameters": {"budgets": ["log(2)", "log(2)"]}}}
    lines = counterexample_markdown(verdict)
    assert "| `outputs` | ((a, (2)), (—, (0, 1))) |" in lines  # lists of lists as tuples; keys as code
    assert "*`verdict`:*" in lines and "| `holds` | False |" in lines
    assert "*`verdict` › `witness`:*" in lines and "| `inputs` | (-1, 1) |" in lines
    assert "| `log_ratio` | 1.386 |" in lines
    assert "*`verdict` › `witness` › `exact`:*" in lines and "| `log_ratio` | log(4) |" in lines
    assert "*`verdict` › `parameters`:*" in lines and "| `budgets` | (log(2), log(2)) |" in lines
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


# --- the math of the ledger's texts --------------------------------------------------------------------------------

def _math_hook():
    """docs/hooks/math.py, which renders the site's TeX (needs the docs extra)."""
    pytest.importorskip("latex2mathml", reason="the math hook needs the docs extra: pip install -e '.[docs]'")
    spec = importlib.util.spec_from_file_location("math_hook", ROOT / "docs" / "hooks" / "math.py")
    hook = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(hook)
    return hook


def _math_problems(texts) -> list[str]:
    """What is wrong with the math of ``texts`` (``(where, text)``): ASCII math outside code and formulas, a formula
    left open, a formula the site cannot render."""
    hook = _math_hook()
    problems, rendered = [], {}
    for where, text in texts:
        if found := ascii_math(text):
            problems.append(f"{where}: ASCII math {found} in {text[:120]!r}")
        outside = re.sub(r"`[^`]*`", " ", text)
        if outside.count("\\(") != outside.count("\\)"):
            problems.append(f"{where}: a formula left open in {text[:120]!r}")
        for tex in formulas(text):
            if tex not in rendered:
                try:
                    hook._render(tex, "inline", where)
                    rendered[tex] = None
                except Exception as error:  # the hook's PluginError: TeX it cannot render
                    rendered[tex] = str(error)
            if rendered[tex]:
                problems.append(rendered[tex])
    return problems


def test_ascii_math_is_found_outside_code_spans_and_formulas_only():
    assert ascii_math("the ratio e^{2 eps}: the level e^eps") == ["e^", "eps", "e^", "eps"]
    assert ascii_math("d <= 3, m >= 2, i != j") == ["<=", ">=", "!="]
    assert ascii_math(r"the ratio \(e^{2\varepsilon}\) under `eps_range=wide`, \(d \le 3\)") == []
    assert ascii_math("steps, epsilon, the keepsake") == []  # words holding the letters, and the word epsilon
    assert formulas(r"\(a\) and `\(b\)` and \(c_i\)") == ["a", "c_i"]


def test_a_formula_keeps_its_bars_in_a_table_cell():
    assert table_cell(r"\(|X_{sen}| \le \|x\|\) | b") == r"\(\vert X_{sen}\vert  \le \Vert x\Vert \) \| b"
    markdown = pytest.importorskip("markdown", reason="the docs extra renders the pages")
    pytest.importorskip("pymdownx", reason="the docs extra renders the pages")
    hook = _math_hook()
    cell = table_cell(r"the share \(|X_{sen}| / |X| = 1\) is the worst")
    page = "\n".join(["| statement | verdict |", "|---|---|", f"| {cell} | refuted |"])
    body = markdown.markdown(page, extensions=["tables", "pymdownx.arithmatex"],
                             extension_configs={"pymdownx.arithmatex": {"generic": True}})
    page = SimpleNamespace(file=SimpleNamespace(src_uri="ledger/x.md"), toc=[])
    rendered = hook.on_page_content(body, page, config=None, files=None)
    assert rendered.count("<td>") == 2 and "<math" in rendered
    assert "\\" not in html.unescape(re.sub(r"<[^>]+>", "", rendered))


def test_the_table_writes_a_formula_as_the_span_the_math_hook_renders():
    document = {**DOCUMENT, "claims": [{**DOCUMENT["claims"][0], "location": r"Sec. 4.2 (assuming \(D = D_S\))"}]}
    text = table_markdown(document)
    assert r'<td>Sec. 4.2 (assuming <span class="arithmatex">\(D = D_S\)</span>)</td>' in text


def test_a_counterexample_in_brief_is_never_cut_inside_a_formula():
    note = "the two sets are told apart beyond " + r"\(e^{\varepsilon} \cdot e^{\varepsilon}\) " * 12
    brief = counterexample_brief({"why": note, "n": 3}, limit=120)
    assert brief.endswith(" …") and brief.count("\\(") == brief.count("\\)")


def test_the_registered_texts_write_their_math_in_tex_that_the_site_renders():
    claims = load_claims()
    texts = [(f"{c.id} {field}", getattr(c, field)) for c in claims.values() if ".test-" not in c.id
             for field in ("location", "statement", "interpretation")]
    texts += [(f"{paper} {choice.name}", text) for paper, choices in CHOICES.items() for choice in choices.values()
              for text in (choice.where, *choice.meanings.values())]
    problems = _math_problems(texts)
    assert not problems, "\n".join(problems[:20])


def test_the_ledger_writes_its_math_in_tex_that_the_site_renders():
    """Every text of the ledger the last audit wrote (``pytest verify``): summaries, evidence and counterexamples are
    made by the checks as they run."""
    if not LEDGER.exists():
        pytest.skip(f"no ledger: run `pytest verify` first (expected {LEDGER})")
    problems = _math_problems(ledger_texts(json.loads(LEDGER.read_text(encoding="utf-8"))))
    assert not problems, f"{len(problems)} problems:\n" + "\n".join(problems[:30])

"""The ledger as pages of the site, made from the audit's ``ledger.json`` when the site is built (docs/hooks/ledger.py).

* ``summary_markdown``: per paper, the counts of each verdict, then the claims refuted under some reading first, each
  with one line on what fails and its counterexample in brief, then the others;
* ``claim_markdown``: one claim: its statement and location, the paper's choices it varies, consults at a fixed value
  (and what the sweep found) or never consults, the readings it was checked under, the evidence (method,
  scope, result), the counterexample as tables, its kernel checks (each with a button that runs it again in the
  reader's browser, ``kernel_checks_markdown``), printed against computed values, and links to the check's code and
  to the test that pins its verdict;
* ``table_markdown``: every claim in one table, with filters by paper, notion, verdict and method
  (docs/javascripts/ledger-table.js);
* ``paper_markdown``: one paper's claims, for the end of its page.

Claim pages live at ``ledger/<claim id>.md``; every link here is relative to the page it is written on.

The texts carry their math as TeX (``\\(...\\)``, verify/ledger.py); arithmatex passes it to docs/hooks/math.py, which
renders it as MathML. In a Markdown table ``table_cell`` keeps a formula's bars from splitting the row; in the HTML
table of ``table_markdown`` a formula is written as the ``arithmatex`` span the hook renders (``html_text``). A
counterexample's keys are JSON keys, shown as code.
"""

from __future__ import annotations

import html
import json
import re

from ldpspec.verify.claims import DEPENDS, VERDICTS
from ldpspec.verify.kernel_checks import FILE_NAME, KERNEL_CHECKS, NO_KERNEL_CHECK, distinct_checks, outcome_text
from ldpspec.verify.ledger import CODE, FORMULA, counts_text, coverage_lines, coverage_text, reading_code, table_cell

CLAIM_FOLDER = "ledger"


def claim_page(claim_id: str) -> str:
    """The claim's page, relative to ``docs/``."""
    return f"{CLAIM_FOLDER}/{claim_id}.md"


def _counts(claims: list) -> dict:
    return {verdict: sum(entry["verdict"] == verdict for entry in claims) for verdict in (*VERDICTS, DEPENDS)}


def refuted_readings(entry: dict) -> list[dict]:
    """The readings under which the claim is refuted (all of them for a claim refuted outright)."""
    return [result for result in entry["verdicts_by_reading"] if result["verdict"] == "refuted"]


# --- counterexamples as tables -------------------------------------------------------------------------------------

def _scalar(value) -> bool:
    return value is None or isinstance(value, (str, int, float, bool))


def _holds_mapping(value) -> bool:
    return isinstance(value, dict) or (isinstance(value, list) and any(_holds_mapping(item) for item in value))


def _plain(value) -> str:
    """A value for a table cell: scalars as they are, lists (of lists, at any depth) as tuples, a mapping inside a
    list as compact JSON."""
    if _scalar(value):
        return "—" if value is None else str(value)
    if isinstance(value, list) and not _holds_mapping(value):
        return "(" + ", ".join(_plain(item) for item in value) + ")" if value else "(none)"
    return "`" + json.dumps(value, default=str).replace("`", "'") + "`"


def _matrix(counterexample: dict) -> list[str] | None:
    """A channel's rows (``rows``: a list of rows of equal length) as a table: one row per input, one column per
    output, labelled by ``inputs`` / ``sets`` and ``outputs`` when the counterexample gives them."""
    rows = counterexample.get("rows")
    if not (isinstance(rows, list) and rows and all(isinstance(row, list) for row in rows)
            and len({len(row) for row in rows}) == 1):
        return None
    outputs = counterexample.get("outputs")
    inputs = counterexample.get("inputs", counterexample.get("sets"))
    columns = [_plain(y) for y in outputs] if isinstance(outputs, list) and len(outputs) == len(rows[0]) else [
        f"output {j}" for j in range(len(rows[0]))]
    labels = [_plain(x) for x in inputs] if isinstance(inputs, list) and len(inputs) == len(rows) else [
        f"input {i}" for i in range(len(rows))]
    lines = ["| input \\ output | " + " | ".join(table_cell(c) for c in columns) + " |",
             "|---|" + "---|" * len(columns)]
    lines += [f"| {table_cell(label)} | " + " | ".join(table_cell(_plain(p)) for p in row) + " |"
              for label, row in zip(labels, rows)]
    return lines


SHOWN_APART = (KERNEL_CHECKS, NO_KERNEL_CHECK)
"""A counterexample's keys that its tables leave out: its kernel checks, shown after it (``kernel_checks_markdown``),
and the reason it has none."""


def counterexample_markdown(counterexample: dict, path: str = "") -> list[str]:
    """The counterexample as tables: its plain fields in one, the channel's rows as a matrix, each nested mapping (at
    any depth: a verdict, its witness, the witness's exact values) as a table of its own, labelled by where it sits
    (``verdict › witness``), and each list of mappings as a table with one row per mapping."""
    lines, fields, nested = [], [], []
    matrix = _matrix(counterexample)
    shown_in_matrix = {"rows", "outputs", "inputs", "sets"} if matrix else set()
    for key, value in counterexample.items():
        if key in shown_in_matrix or key in SHOWN_APART:
            continue
        deeper = isinstance(value, dict) or (isinstance(value, list) and value
                                             and all(isinstance(item, dict) for item in value))
        (nested if deeper else fields).append((key, value))
    if path and (fields or matrix):
        lines += ["", f"*{path}:*", ""]
    if fields:
        lines += ["| field | value |", "|---|---|"]
        lines += [f"| {table_cell(_key(key))} | {table_cell(_plain(value))} |" for key, value in fields]
    if matrix:
        lines += ["", "The channel's rows, \\(P[y \\mid x]\\):", "", *matrix]
    for key, value in nested:
        where = f"{path} › {_key(key)}" if path else _key(key)
        if isinstance(value, dict):
            lines += counterexample_markdown(value, where)
        else:
            keys = list(dict.fromkeys(k for item in value for k in item))
            lines += ["", f"*{where}:*", "", "| " + " | ".join(table_cell(_key(k)) for k in keys) + " |",
                      "|" + "---|" * len(keys)]
            lines += ["| " + " | ".join(table_cell(_plain(item.get(k))) for k in keys) + " |" for item in value]
    return lines


def _key(key) -> str:
    """A counterexample's key, a JSON key: as code."""
    return "`" + str(key).replace("`", "'") + "`"


def counterexample_brief(counterexample: dict, limit: int = 180) -> str:
    """The counterexample in one line: its plain fields, shortened at a space outside code and formulas (never
    inside one, which would leave it open)."""
    parts = [f"{_key(key)} = {_plain(value)}" for key, value in counterexample.items()
             if key not in ("method", "scope", *SHOWN_APART) and (_scalar(value) or isinstance(value, list))]
    text = "; ".join(parts)
    if len(text) <= limit:
        return text
    inside = [range(m.start() + 1, m.end()) for pattern in (CODE, FORMULA) for m in pattern.finditer(text)]
    cuts = [i for i, c in enumerate(text[:limit]) if c == " " and not any(i in span for span in inside)]
    return text[:cuts[-1]] + " …" if cuts else "…"


# --- kernel checks: a button that runs each again in the reader's browser -----------------------------------------

KERNEL_CHECK_SCRIPT = '<script type="module" src="../../javascripts/kernel-check.js"></script>'
"""The script that turns every kernel check's block into a working button (docs/javascripts/kernel-check.js), once at
the end of a claim's page that has any: the page is served at ``ledger/<claim id>/``, two folders below the site's
root."""


def kernel_check_data(check: dict) -> str:
    """A check's request, recorded answer and sentence as the JSON of its ``<script type="application/json">``
    element: ``</`` written ``<\\/`` (the same string in JSON), so that no text of it can close the element."""
    data = {"request": check["request"], "answer": check["answer"], "what": check["what"]}
    return json.dumps(data).replace("</", "<\\/")


def _check_heading(number: int) -> str:
    return f"Kernel check {number}"


def _check_anchor(number: int) -> str:
    """The id the table of contents gives the heading ``Kernel check N``."""
    return f"kernel-check-{number}"


def kernel_checks_markdown(checks: list, shown: dict, up: str = "../") -> list[str]:
    """A counterexample's kernel checks, each once per page: its sentence, the equivalent command line, the verdict
    the ledger's run of the kernel gave, the channel file (folded), and the block with the button that runs it again
    in the reader's browser. ``shown``: ``{request as JSON: number}`` of the checks already on the page, updated; a
    check shown before is linked to, not repeated. ``up``: the way from the page's source to ``docs/``."""
    new, before = [], []
    for check in distinct_checks(checks):
        key = json.dumps(check["request"], sort_keys=True)
        if key in shown:
            before.append(shown[key])
        else:
            shown[key] = len(shown) + 1
            new.append((shown[key], check))
    lines = []
    if new:
        lines += ["", f"**{'Kernel checks' if len(new) > 1 else 'Kernel check'}.** The "
                  f"{'verdicts' if len(new) > 1 else 'verdict'} this counterexample rests on, as `ldpspec check` "
                  f"gave {'them' if len(new) > 1 else 'it'} when the audit ran. The button runs "
                  f"{'each' if len(new) > 1 else 'this'} check again in your browser, with the kernel's own code "
                  "(`spec/`, byte for byte, under Pyodide; nothing is sent anywhere), and shows its verdict beside "
                  f"the ledger's; the [Try it]({up}try.md) page runs any channel file the same way."]
    for number, check in new:
        text = html.escape(check["request"]["text"], quote=False)
        lines += ["", f"### {_check_heading(number)}", "", check["what"] + ".", "", "```bash", check["command"], "```",
                  "", f"The ledger's run of the kernel: {outcome_text(check['answer'])}.", "",
                  f'<details class="kernel-check-file"><summary>The channel file, <code>{FILE_NAME}</code>'
                  f"</summary><pre><code>{text}</code></pre></details>", "",
                  '<div class="kernel-check">',
                  f'<script type="application/json" class="kernel-check-data">{kernel_check_data(check)}</script>',
                  '<button type="button" class="md-button kernel-check-run">Re-check in your browser</button>',
                  '<div class="kernel-check-result" role="status"></div>',
                  "</div>"]
    if before:
        links = ", ".join(f"[{_check_heading(number).lower()}](#{_check_anchor(number)})" for number in before)
        lines += ["", f"**{'Kernel checks' if len(before) > 1 else 'Kernel check'}:** the same as {links} above."]
    return lines


# --- the pages -----------------------------------------------------------------------------------------------------

def _verdict_badge(verdict: str) -> str:
    return f'<span class="ledger-verdict ledger-{verdict}">{verdict}</span>'


def summary_markdown(document: dict) -> str:
    """The audit summary: the counts, then per paper its refuted claims first, each in one line, then the others."""
    claims = document["claims"]
    lines = ["# Claims ledger", "",
             f"{len(claims)} claims of {len(document['papers'])} papers: {counts_text(document['counts'])}. Audit "
             f"depth: {document['depth']}."
             + ("" if document["complete"] else " **Partial run: not every registered claim was checked.**"), "",
             "Each claim has its page (follow its id); [the ledger table](ledger-table.md) lists them all, with "
             "filters. A claim refuted under some reading is refuted as the paper states it under that reading: "
             "the counterexample is on its page.", ""]
    if document.get("coverage"):
        lines += ["The papers' choices, counted once for each claim of the paper: "
                  f"{coverage_text(document['coverage'])}. A choice a claim does not vary is fixed; where its check "
                  "consults it, the audit reruns the check under the choice's other values (each claim's page says "
                  "which).", ""]
    lines += ["| paper | claims | verified | refuted | open | depends on the reading |", "|---|---|---|---|---|---|"]
    for key, citation in document["papers"].items():
        mine = [entry for entry in claims if entry["paper"] == key]
        counts = _counts(mine)
        lines.append(f"| [{table_cell(citation)}](#{key}) | {len(mine)} | {counts['verified']} | {counts['refuted']} | "
                     f"{counts['open']} | {counts[DEPENDS]} |")
    for key, citation in document["papers"].items():
        mine = [entry for entry in claims if entry["paper"] == key]
        refuted = [entry for entry in mine if refuted_readings(entry)]
        lines += ["", f"## {citation} {{#{key}}}", "", f"{len(mine)} claims: {counts_text(_counts(mine))}.", ""]
        if key in document.get("coverage_by_paper", {}):
            lines += [f"Its choices, (claim, choice) pairs: {coverage_text(document['coverage_by_paper'][key])}.", ""]
        fixed = [(entry["id"], f) for entry in mine for f in entry.get("fixed_on_purpose", [])]
        if fixed:
            lines += ["**Choices fixed on purpose** (declared on the claim; the sweep leaves them alone):", ""]
            lines += [f"- [{claim_id}]({claim_page(claim_id)}): `{f['choice']}`"
                      + (f" at `{f['value']}`" if f["value"] is not None else "") + f", {f['why']}"
                      for claim_id, f in fixed]
            lines.append("")
        if refuted:
            lines += ["**Refuted, under every reading or under some:**", ""]
            for entry in refuted:
                readings = refuted_readings(entry)
                first = readings[0]
                where = "" if entry["verdict"] == "refuted" else (
                    f" (under {'; '.join(reading_code(r['reading']) for r in readings)})")
                brief = counterexample_brief(first["counterexample"]) if first["counterexample"] else ""
                lines.append(f"- [{entry['id']}]({claim_page(entry['id'])}){where}: {first['summary']}"
                             + (f" Counterexample: {brief}" if brief else ""))
            lines.append("")
        others = [entry for entry in mine if entry not in refuted]
        if others:
            lines += ["| claim | location | verdict |", "|---|---|---|"]
            lines += [f"| [{entry['id']}]({claim_page(entry['id'])}) | {table_cell(entry['location'])} | "
                      f"{entry['verdict']} |" for entry in others]
    return "\n".join(lines) + "\n"


def claim_markdown(document: dict, entry: dict, *, code: str | None, test: str) -> str:
    """One claim's page. ``code``: a link to the function that checks it (``None``: unknown); ``test``: what pins
    its verdict (the audit's test of this claim)."""
    up = "../"
    lines = [f"# {entry['id']}", "",
             f"{_verdict_badge(entry['verdict'])} recorded: {entry['recorded']}", "",
             f"**Paper:** [{table_cell(document['papers'][entry['paper']])}]({up}papers/{entry['paper']}.md), "
             f"{entry['location']}.", "",
             f"**Statement (as the paper makes it):** {entry['statement']}", ""]
    if entry["interpretation"]:
        lines += [f"**Interpretation:** {entry['interpretation']}", ""]
    lines += [f"**Methods:** {', '.join(entry['methods'])}.", "", f"**Verdict:** {entry['summary']}", ""]
    lines += coverage_lines(entry)
    several = len(entry["verdicts_by_reading"]) > 1
    shown: dict = {}  # the kernel checks on the page so far
    if several:
        lines += [f"Checked under every reading of {', '.join(f'`{c}`' for c in entry['choices'])} (what each "
                  f"means: [the paper's page]({up}papers/{entry['paper']}.md)):", "",
                  "| reading | verdict | summary |", "|---|---|---|"]
        lines += [f"| {table_cell(reading_code(r['reading']))} | {r['verdict']} | {table_cell(r['summary'])} |"
                  for r in entry["verdicts_by_reading"]]
    for result in entry["verdicts_by_reading"]:
        if several:
            lines += ["", f"## Reading {reading_code(result['reading'])}: {result['verdict']}"]
        lines += ["", "| method | scope | result |", "|---|---|---|"]
        lines += [f"| {table_cell(e['method'])} | {table_cell(e['scope'])} | {table_cell(e['result'])} |"
                  for e in result["evidence"]]
        if result["printed_vs_computed"]:
            lines += ["", "Printed in the paper against computed here:", "",
                      "| quantity | printed | computed |", "|---|---|---|"]
            lines += [f"| {table_cell(row['quantity'])} | {table_cell(row['printed'])} | "
                      f"{table_cell(row['computed'])} |" for row in result["printed_vs_computed"]]
        if result["counterexample"]:
            counterexample = result["counterexample"]
            lines += ["", "**Counterexample:**", "", *counterexample_markdown(counterexample)]
            lines += kernel_checks_markdown(counterexample.get(KERNEL_CHECKS) or [], shown, up)
            if counterexample.get(NO_KERNEL_CHECK):
                lines += ["", f"No kernel check to run again: {counterexample[NO_KERNEL_CHECK]}."]
    lines += ["", "## Where it is checked", ""]
    lines.append(f"- The check: {code}." if code else "- The check: registered under this id in `verify/`.")
    lines.append(f"- The test that pins the recorded verdict: {test}.")
    lines.append("- The audit's machine-readable record: `build/ledger/ledger.json` after `pytest verify`.")
    if shown:
        lines += ["", KERNEL_CHECK_SCRIPT]
    return "\n".join(lines) + "\n"


NOTION_WORDS = (("ID-LDP", r"\b(?:Min|Avg)?ID-LDP\b"), ("SULDP", r"\bSULDP\b"), ("ULDP", r"\bULDP\b"),
                ("IPLDP", r"\bIPLDP\b"), ("graded LDP", r"\bgraded\b"), ("LDP", r"(?<![A-Za-z-])LDP\b"))
"""The notion families a claim is filed under in the table: those its statement names (a filter, not a verdict)."""


def claim_notions(entry: dict) -> list[str]:
    text = entry["statement"]
    found = [name for name, pattern in NOTION_WORDS if re.search(pattern, text, re.IGNORECASE if name ==
                                                                   "graded LDP" else 0)]
    return found or ["none named"]


def html_text(text: str) -> str:
    """``text`` for an HTML element of a page: escaped, its code spans as ``<code>``, and its formulas as the
    ``arithmatex`` spans that docs/hooks/math.py renders (Markdown does not reach inside an HTML block)."""
    parts = re.split(r"(`[^`]*`|\\\(.*?\\\))", text, flags=re.DOTALL)
    return "".join(html.escape(part) if k % 2 == 0 else
                   f"<code>{html.escape(part[1:-1])}</code>" if part.startswith("`") else
                   f'<span class="arithmatex">{html.escape(part)}</span>' for k, part in enumerate(parts))


def table_markdown(document: dict) -> str:
    """Every claim in one table with filters (the filtering is docs/javascripts/ledger-table.js; without scripts the
    whole table shows)."""
    claims = document["claims"]
    notions = sorted({notion for entry in claims for notion in claim_notions(entry)})
    methods = sorted({method for entry in claims for method in entry["methods"]})
    verdicts = [*VERDICTS, DEPENDS]

    def select(name: str, values) -> str:
        options = "".join(f'<option value="{html.escape(v)}">{html.escape(v)}</option>' for v in values)
        return (f'<label>{name} <select data-ledger-filter="{name}"><option value="">any</option>{options}'
                f"</select></label>")

    papers = list(document["papers"])
    rows = []
    for entry in claims:
        attributes = {"paper": entry["paper"], "notion": "|".join(claim_notions(entry)),
                      "verdict": entry["verdict"], "method": "|".join(entry["methods"])}
        data = " ".join(f'data-{key}="{html.escape(value)}"' for key, value in attributes.items())
        rows.append(f'<tr {data}><td><a href="../{CLAIM_FOLDER}/{entry["id"]}/">{html.escape(entry["id"])}</a></td>'
                    f'<td>{html.escape(entry["paper"])}</td><td>{html.escape(", ".join(claim_notions(entry)))}</td>'
                    f'<td>{_verdict_badge(entry["verdict"])}</td><td>{html.escape(", ".join(entry["methods"]))}</td>'
                    f'<td>{html_text(entry["location"])}</td></tr>')
    return "\n".join([
        "# Ledger table", "",
        f"All {len(claims)} claims. Filter by paper, by the notions a claim's statement names, by verdict and by "
        "method; each id opens the claim's page. The [summary](ledger.md) gives the counts per paper.", "",
        '<div class="ledger-filters">' + select("paper", papers) + select("notion", notions)
        + select("verdict", verdicts) + select("method", methods) + '<span data-ledger-count></span></div>', "",
        '<table class="ledger-table"><thead><tr><th>claim</th><th>paper</th><th>notions named</th><th>verdict</th>'
        "<th>methods</th><th>location</th></tr></thead><tbody>", *rows, "</tbody></table>", ""])


def paper_markdown(document: dict, paper: str) -> str:
    """One paper's claims, each linked to its page, for the end of the paper's page."""
    claims = [entry for entry in document["claims"] if entry["paper"] == paper]
    lines = ["## Ledger entries", "",
             f"{len(claims)} claims: {counts_text(_counts(claims))} (audit depth: {document['depth']}). Each id "
             "opens the claim's page: its evidence, readings and counterexample.", "",
             "| claim | location | verdict | summary |", "|---|---|---|---|"]
    lines += [f"| [{entry['id']}](../{claim_page(entry['id'])}) | {table_cell(entry['location'])} | "
              f"{entry['verdict']} | {table_cell(entry['summary'])} |" for entry in claims]
    return "\n".join(lines) + "\n"

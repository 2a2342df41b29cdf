"""The claims ledger: the audit's entries written as JSON (``ledger.json``, for machines) and Markdown (``ledger.md``,
one page for reading offline), and the cell of a Markdown table that the site's pages share.

The ledger's texts (statements, interpretations, summaries, evidence, counterexample notes) write their math in TeX,
``\\(...\\)`` inline, as the docs pages do; the site renders it as MathML (docs/hooks/math.py), and ``ledger.md`` shows
it as written. Code (options, file names, JSON keys, Python names) is in backticks. ``ascii_math`` finds math left in
the old ASCII notation (``e^eps``, ``<=``) in a text.

``ledger.json`` holds whether every registered claim was checked (``complete``), the audit's depth, the count of each
overall verdict, the papers' citations, each paper's choices, and one entry per claim: where the paper makes it, its
statement and interpretation, its overall verdict and the recorded one, and its verdict, evidence and counterexample
under every reading (``verdicts_by_reading``). The site's pages are made from it (``ledger_pages.py``). A
counterexample's kernel checks (``kernel_checks``, verify/kernel_checks.py) are there whole, each with its request and
the command line's answer; ``ledger.md`` lists each once, with its command line and verdict.

Each entry also says which declared choices of its paper the claim's check depends on (``verify/audit.py``): the
choices it varies (``choices``), the other choices its check consulted at their fixed values (``consulted``), with what
the sweep found for each (``sweep``: ``swept``, every other value rerun and no verdict moved; ``moved``; or
``unswept`` in a run that does not sweep), the choices its claim fixes on purpose (``fixed_on_purpose``, with the
reason), and the choices its check never consulted (``not_consulted``): every object a choice shapes is built by
the choice's builder (``verify/claims.py``), so those cannot change its verdict. ``coverage`` counts these (claim,
choice) pairs over all claims, and ``coverage_by_paper`` for each paper.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Mapping
from dataclasses import asdict
from pathlib import Path

from ldpspec.reference.registry import PAPERS
from ldpspec.verify.audit import Entry
from ldpspec.verify.claims import CHOICES, DEPENDS, VERDICTS, AuditSettings, reading_key
from ldpspec.verify.kernel_checks import KERNEL_CHECKS, distinct_checks, outcome_text


def write_ledger(entries: list[Entry], directory: Path, *, complete: bool,
                 settings: AuditSettings) -> tuple[Path, Path]:
    """Write ``ledger.json`` and ``ledger.md`` to ``directory``; return their paths."""
    directory.mkdir(parents=True, exist_ok=True)
    entries = sorted(entries, key=lambda entry: entry.id)
    counts = {verdict: sum(entry.verdict == verdict for entry in entries) for verdict in (*VERDICTS, DEPENDS)}
    document = {
        "complete": complete,
        "depth": "deep" if settings.deep else "default",
        "counts": counts,
        "papers": {key: paper.citation for key, paper in PAPERS.items()},
        "choices": {paper: [choice.to_json() for choice in choices.values()] for paper, choices in CHOICES.items()},
        "coverage": coverage_counts(entries),
        "coverage_by_paper": coverage_by_paper(entries),
        "claims": [{**asdict(entry), "matches_recorded": entry.matches} for entry in entries],
    }
    json_path = directory / "ledger.json"
    json_path.write_text(json.dumps(document, indent=1, default=str) + "\n", encoding="utf-8")
    markdown_path = directory / "ledger.md"
    markdown_path.write_text(ledger_markdown(document), encoding="utf-8")
    return json_path, markdown_path


FORMULA = re.compile(r"\\\((.*?)\\\)", re.DOTALL)
"""An inline formula of a ledger text, ``\\(...\\)``; group 1 is its TeX."""
CODE = re.compile(r"`[^`]*`")
ASCII_MATH = re.compile(r"e\^|(?<![A-Za-z_\\])eps(?![a-z])|<=|>=|!=")
"""Math in the ASCII notation the ledger's texts no longer use: ``e^``, ``eps``, ``<=``, ``>=``, ``!=``."""


def table_cell(text) -> str:
    """``text`` as the cell of a Markdown table: ``|`` escaped, and a newline (which would end the row) a space.

    Inside a formula a bar would be escaped into TeX's ``\\|`` (a double bar): there ``\\|`` becomes ``\\Vert`` and
    ``|`` becomes ``\\vert``, which TeX renders as the same bars and the table does not split on."""
    def formula(match: re.Match) -> str:
        tex = re.sub(r"\\\|", r"\\Vert ", match.group(1))
        return r"\(" + re.sub(r"\|", r"\\vert ", tex) + r"\)"

    return FORMULA.sub(formula, str(text)).replace("|", "\\|").replace("\n", " ")


def reading_code(reading: Mapping) -> str:
    """A reading as code, for a text: ``"`release=all, self_pairs=all`"`` (the choices' names are code)."""
    return f"`{reading_key(reading)}`"


def prose(text: str) -> str:
    """``text`` without its code spans and formulas: what must not hold ASCII math."""
    return FORMULA.sub(" ", CODE.sub(" ", text))


def ascii_math(text: str) -> list[str]:
    """The ASCII math left in ``text`` outside its code spans and formulas (``[]`` when there is none)."""
    return ASCII_MATH.findall(prose(text))


def formulas(text: str) -> list[str]:
    """The TeX of every formula of ``text`` (outside code spans)."""
    return FORMULA.findall(CODE.sub(" ", text))


def ledger_texts(document: dict) -> Iterator[tuple[str, str]]:
    """Every text of a ledger document that its pages show as prose, as ``(where, text)``: each claim's location,
    statement, interpretation and summary; per reading its summary, evidence, printed-against-computed rows and the
    string values of its counterexample (its keys are JSON keys, shown as code); and each paper's choices."""
    def strings(value, where):
        if isinstance(value, str):
            yield where, value
        elif isinstance(value, Mapping):
            for key, item in value.items():
                if key == KERNEL_CHECKS:  # shown as prose: each check's sentence (the rest is code and data)
                    for check in item:
                        yield f"{where} › {key} › what", check["what"]
                    continue
                yield from strings(item, f"{where} › {key}")
        elif isinstance(value, list):
            for item in value:
                yield from strings(item, where)

    for entry in document["claims"]:
        for field in ("location", "statement", "interpretation", "summary"):
            yield f"{entry['id']} {field}", entry[field]
        for result in entry["verdicts_by_reading"]:
            where = f"{entry['id']} [{reading_key(result['reading'])}]"
            yield f"{where} summary", result["summary"]
            for evidence in result["evidence"]:
                for field in ("method", "scope", "result"):
                    yield f"{where} evidence {field}", evidence[field]
            yield from strings(result["printed_vs_computed"], f"{where} printed vs computed")
            yield from strings(result["counterexample"] or {}, f"{where} counterexample")
    for paper, choices in document.get("choices", {}).items():
        for choice in choices:
            yield f"{paper} choice {choice['name']} where", choice["where"]
            for value, meaning in choice["meanings"].items():
                yield f"{paper} choice {choice['name']}={value}", meaning


def coverage_counts(entries: list[Entry]) -> dict:
    """The (claim, choice) pairs, each declared choice of a claim's paper once: varied by the claim, consulted at a
    fixed value and swept (``swept``, or ``moved`` where a verdict moved), consulted and not swept (``unswept``),
    fixed on purpose (``fixed``), or never consulted."""
    counts = {"varied": 0, "swept": 0, "moved": 0, "unswept": 0, "fixed": 0, "not_consulted": 0}
    for entry in entries:
        counts["varied"] += len(entry.choices)
        counts["fixed"] += len(entry.fixed_on_purpose)
        counts["not_consulted"] += len(entry.not_consulted)
        for coverage in entry.sweep:
            counts[coverage["status"]] += 1
    return counts


def coverage_by_paper(entries: list[Entry]) -> dict:
    """``coverage_counts`` for each paper's claims."""
    papers = dict.fromkeys(entry.paper for entry in entries)
    return {paper: coverage_counts([entry for entry in entries if entry.paper == paper]) for paper in papers}


def coverage_text(counts: Mapping) -> str:
    """The coverage counts in words."""
    return (f"{counts['varied']} varied, {counts['swept']} consulted at a fixed value and swept without a verdict "
            f"moving" + (f", {counts['moved']} moving a verdict" if counts.get("moved") else "")
            + (f", {counts['unswept']} consulted and not swept in this run" if counts.get("unswept") else "")
            + (f", {counts['fixed']} fixed on purpose" if counts.get("fixed") else "")
            + f", {counts['not_consulted']} never consulted")


def coverage_lines(entry: Mapping) -> list[str]:
    """The choices of the claim's paper, as Markdown lines: those the claim varies, those its check consulted at a
    fixed value with what the sweep found, and those it never consulted (``[]`` for an entry without them)."""
    fixed = entry.get("fixed_on_purpose", [])
    if "not_consulted" not in entry or not (entry["choices"] or entry["sweep"] or entry["not_consulted"] or fixed
                                            or entry.get("other_papers")):
        return []

    def names(items) -> str:
        return ", ".join(items)

    lines = ["**The paper's choices (readings):**", ""]
    if entry["choices"]:
        lines.append(f"- varied, a verdict per reading: {names(f'`{c}`' for c in entry['choices'])};")
    by_status = {status: [c for c in entry["sweep"] if c["status"] == status]
                 for status in ("swept", "moved", "unswept")}
    if by_status["swept"]:
        lines.append("- consulted at a fixed value, and rerun under every other value without its verdict moving: "
                     + names(f"`{c['choice']}={c['fixed']}` (rerun: {names(f'`{v}`' for v in c['values'])})"
                             for c in by_status["swept"]) + ";")
    for c in by_status["moved"]:
        moves = names(f"{reading_code(m['reading']) if m['reading'] else 'the claim'} {m['fixed_verdict']} at "
                      f"`{c['choice']}={c['fixed']}`, {m['verdict']} at `{c['choice']}={m['value']}`"
                      for m in c["moved"])
        lines.append(f"- consulted at the fixed value `{c['choice']}={c['fixed']}`, and **the verdict moves** under "
                     f"another: {moves};")
    if by_status["unswept"]:
        lines.append("- consulted at a fixed value, not swept in this run: "
                     + names(f"`{c['choice']}={c['fixed']}`" for c in by_status["unswept"]) + ";")
    for f in fixed:
        at = f"at `{f['choice']}={f['value']}`" if f["value"] is not None else f"`{f['choice']}`, under values it names"
        lines.append(f"- fixed on purpose, {at}: {f['why']};")
    if entry.get("other_papers"):
        lines.append("- read by another paper's claim that the check restates, at that paper's fixed value (the sweep "
                     f"of this claim does not vary them): {names(f'`{c}`' for c in entry['other_papers'])};")
    if entry["not_consulted"]:
        lines.append("- never read by the check (every object a choice shapes is built through the choice's builder, "
                     f"so these cannot move its verdict): {names(f'`{c}`' for c in entry['not_consulted'])}.")
    lines[-1] = lines[-1][:-1] + "." if lines[-1].endswith(";") else lines[-1]
    return lines + [""]


def counts_text(counts: Mapping) -> str:
    """The count of each verdict, in words: ``"77 verified, 20 refuted, 21 open, 37 depending on the reading"``."""
    text = f"{counts['verified']} verified, {counts['refuted']} refuted, {counts['open']} open"
    return text + (f", {counts[DEPENDS]} depending on the reading" if counts.get(DEPENDS) else "")


def tally_lines(document: dict) -> list[str]:
    """A few lines for the terminal: the verdicts of each paper's claims, then all of them, and what a test that
    passes means."""
    verdicts = ("verified", "refuted", "open", DEPENDS)
    by_paper = {paper: dict.fromkeys(verdicts, 0) for paper in document["papers"]}
    for entry in document["claims"]:
        by_paper.setdefault(entry["paper"], dict.fromkeys(verdicts, 0))[entry["verdict"]] += 1
    width = max(len("all"), *(len(paper) for paper in by_paper))
    lines = [f"{paper:<{width}}  {sum(counts.values()):>3} claims: {counts_text(counts)}"
             for paper, counts in by_paper.items() if sum(counts.values())]
    lines.append(f"{'all':<{width}}  {len(document['claims']):>3} claims: {counts_text(document['counts'])}"
                 + ("" if document["complete"] else " (a partial run: not every registered claim was checked)"))
    lines.append("a passed claim test is a claim whose computed verdict matches its record, whatever the verdict: "
                 "refuted and open claims pass too; the other tests are the kernel's self-checks and the mechanisms' "
                 "pinned channels, which must all pass")
    if document.get("coverage"):
        lines.append(f"the papers' choices, (claim, choice) pairs: {coverage_text(document['coverage'])}")
        for paper, counts in document.get("coverage_by_paper", {}).items():
            lines.append(f"  {paper:<{width}}  {coverage_text(counts)}")
    return lines


def ledger_markdown(document: dict) -> str:
    """The ledger as Markdown: a summary table, then one section per claim."""
    lines = ["# Claims ledger", "",
             f"{len(document['claims'])} claims: {counts_text(document['counts'])}. Audit depth: {document['depth']}."
             + ("" if document["complete"] else " **Partial run: not every registered claim was checked.**")]
    if document.get("coverage"):
        lines += ["", "The papers' choices, counted once for each claim of the paper (a choice a claim does not vary "
                  f"is fixed, and swept when its check consults it): {coverage_text(document['coverage'])}."]
    return "\n".join(lines + _claims_markdown(document)) + "\n"


def _claims_markdown(document: dict) -> list[str]:
    """The table of the claims, then one section per claim: its statement, verdicts, evidence and counterexample."""
    claims = document["claims"]
    lines = ["", "| claim | paper | location | verdict |", "|---|---|---|---|"]
    for entry in claims:
        anchor = entry["id"].replace(".", "").lower()
        lines.append(f"| [{entry['id']}](#{anchor}) | {entry['paper']} | {table_cell(entry['location'])} | "
                     f"{entry['verdict']} |")
    for entry in claims:
        lines += ["", f"## {entry['id']}", "",
                  f"**Paper:** {document['papers'][entry['paper']]}, {entry['location']}.", "",
                  f"**Statement (as the paper makes it):** {entry['statement']}", ""]
        if entry["interpretation"]:
            lines += [f"**Interpretation:** {entry['interpretation']}", ""]
        lines += [f"**Verdict:** {entry['verdict']} (recorded: {entry['recorded']}). {entry['summary']}", ""]
        lines += coverage_lines(entry)
        several = len(entry["verdicts_by_reading"]) > 1
        if several:
            lines += [f"**Checked under every reading of** {', '.join(f'`{c}`' for c in entry['choices'])}:", "",
                      "| reading | verdict | summary |", "|---|---|---|"]
            for result in entry["verdicts_by_reading"]:
                lines.append(f"| {table_cell(reading_code(result['reading']))} | {result['verdict']} | "
                             f"{table_cell(result['summary'])} |")
        for result in entry["verdicts_by_reading"]:
            if several:
                lines += ["", f"*Reading {reading_code(result['reading'])}:*"]
            lines += ["", "| method | scope | result |", "|---|---|---|"]
            for evidence in result["evidence"]:
                lines.append(f"| {table_cell(evidence['method'])} | {table_cell(evidence['scope'])} | "
                             f"{table_cell(evidence['result'])} |")
            if result["printed_vs_computed"]:
                lines += ["", "| quantity | printed | computed |", "|---|---|---|"]
                for row in result["printed_vs_computed"]:
                    lines.append(f"| {table_cell(row['quantity'])} | {table_cell(row['printed'])} | "
                                 f"{table_cell(row['computed'])} |")
            if result["counterexample"]:
                shown = {key: value for key, value in result["counterexample"].items() if key != KERNEL_CHECKS}
                lines += ["", "**Counterexample:**", "", "```json", json.dumps(shown, indent=1, default=str), "```"]
                checks = distinct_checks(result["counterexample"].get(KERNEL_CHECKS) or [])
                if checks:  # the requests and answers are in ledger.json
                    lines += ["", "Kernel checks (the command line's answer when the audit ran it):", ""]
                    lines += [f"- {check['what']}: `{check['command']}`: {outcome_text(check['answer'])}."
                              for check in checks]
    return lines

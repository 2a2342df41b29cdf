"""MkDocs hook: tables and navigation generated from the registry, so that the site never lists mechanisms, notions or
papers by hand.

The navigation's section "Mechanisms" gets every registered mechanism's page after its first entry, in the registry's
order (``mechanism_pages``); a page's title in the navigation is the ``title`` of its front matter, or its heading.

A page asks for a table with a marker line; the marker is replaced by the table:

* ``<!-- registry: mechanisms -->``: every registered mechanism;
* ``<!-- registry: notions -->``: every notion with its parameters;
* ``<!-- registry: privacy-keys -->``: the keys of a channel file's privacy section;
* ``<!-- registry: papers -->``: the papers;
* ``<!-- registry: choices KEY -->``: the unstated choices of paper KEY and the claims that depend on each;
* ``<!-- registry: api -->``: the mechanisms' modules, and the page that shows each one's API;
* ``<!-- registry: flags KIND -->``: the flags of the porting kit's vectors of KIND, each with its note and the number
  of tests that carry it.
"""

import inspect
import re
from pathlib import Path

from ldpspec.verify.ledger import table_cell

DOCS = Path(__file__).resolve().parents[1]

MARKER = re.compile(r"^<!-- registry: ([a-z-]+)(?: ([a-z0-9]+))? -->$", re.MULTILINE)


def _link(page: str, here: str, text: str) -> str:
    depth = here.count("/")
    return f"[{text}]({'../' * depth}{page})"


def _mechanisms(here: str) -> str:
    from ldpspec.reference.registry import MECHANISMS

    lines = ["| mechanism | what it is | home | claims | parameters | page |", "|---|---|---|---|---|---|"]
    for m in MECHANISMS.values():
        parameters = ", ".join(f"`--{p.name}`" + ("" if p.required else " (optional)") for p in m.parameters)
        claims = m.notion or "none (no finite budget)"
        lines.append(f"| `{m.name}` | {table_cell(m.title)} ({table_cell(m.source)}) | {m.home} | {claims} | "
                     f"{parameters} | {_link(m.docs, here, m.docs.rsplit('/', 1)[-1].removesuffix('.md'))} |")
    return "\n".join(lines)


def _notions(here: str) -> str:
    from ldpspec.reference.registry import NOTIONS

    lines = ["| notion | definition | parameters (`ldpspec check` option: meaning; channel file key) | page |",
             "|---|---|---|---|"]
    for n in NOTIONS.values():
        parameters = "; ".join(f"`{p.option}`: {table_cell(p.help)}" + ("" if p.required else " (optional)")
                               + f"; `{p.file_key}`" for p in n.parameters)
        lines.append(f"| `{n.name}` | {table_cell(n.definition)} | {parameters} | {_link(n.docs, here, 'page')} |")
    return "\n".join(lines)


def _privacy_keys(here: str) -> str:
    from ldpspec.reference.registry import NOTIONS
    from ldpspec.spec.parameters import KINDS

    uses = {}
    for n in NOTIONS.values():
        for p in n.parameters:
            uses.setdefault(p.file_key, []).append((n.name, p))
    lines = ["| key | written as | meaning (notions) |", "|---|---|---|"]
    for key, entries in uses.items():
        meanings = {}
        for name, p in entries:
            meanings.setdefault(p.help, []).append(f"`{name}`")
        lines.append(f"| `{key}` | {table_cell(KINDS[entries[0][1].kind])} | "
                     + "; ".join(f"{table_cell(m)} ({', '.join(ns)})" for m, ns in meanings.items()) + " |")
    return "\n".join(lines)


def _papers(here: str) -> str:
    from ldpspec.reference.registry import PAPERS

    lines = ["| key | paper | page |", "|---|---|---|"]
    for paper in PAPERS.values():
        page = _link(paper.docs, here, paper.key) if (DOCS / paper.docs).is_file() else "not yet"
        lines.append(f"| `{paper.key}` | {table_cell(paper.citation)} | {page} |")
    return "\n".join(lines)


def _choices(here: str, paper: str) -> str:
    from ldpspec.verify.claims import CHOICES, load_claims

    claims = load_claims()
    lines = ["| choice | values | where the paper leaves it open | claims that depend on it |", "|---|---|---|---|"]
    for choice in CHOICES.get(paper, {}).values():
        values = "<br>".join(f"`{value}`: {table_cell(choice.meanings[value])}" for value in choice.values)
        depending = ", ".join(f"`{c.id}`" for c in claims.values() if choice in c.choices)
        lines.append(f"| `{choice.name}` | {values} | {table_cell(choice.where)} | {depending} |")
    return "\n".join(lines)


def _api(here: str) -> str:
    from ldpspec.reference.registry import MECHANISMS

    modules = {}
    for m in MECHANISMS.values():
        modules.setdefault(inspect.getmodule(m.build).__name__, []).append(m)
    lines = ["| module | mechanisms | its API, on the page |", "|---|---|---|"]
    for module, mechanisms in modules.items():
        pages = ", ".join(_link(page, here, page.rsplit("/", 1)[-1].removesuffix(".md"))
                          for page in dict.fromkeys(m.docs for m in mechanisms))
        lines.append(f"| `{module}` | {', '.join(f'`{m.name}`' for m in mechanisms)} | {pages} |")
    return "\n".join(lines)


def _flags(here: str, kind: str) -> str:
    import json

    from ldpspec.reference.porting.vectors import VECTORS

    paths = [VECTORS / f"{kind}.json"] if (VECTORS / f"{kind}.json").is_file() else sorted(
        (VECTORS / kind).glob("*.json"))
    notes, counts = {}, {}
    for path in paths:
        document = json.loads(path.read_text(encoding="utf-8"))
        notes.update(document["notes"])
        for test in document["tests"]:
            for flag in test["flags"]:
                counts[flag] = counts.get(flag, 0) + 1
    lines = ["| flag | what it catches | tests |", "|---|---|---|"]
    for flag, note in notes.items():
        if counts.get(flag):
            lines.append(f"| `{flag}` | {table_cell(note)} | {counts[flag]} |")
    return "\n".join(lines)


MECHANISMS_SECTION = "Mechanisms"
"""The section of ``mkdocs.yml``'s navigation that the mechanisms' pages join."""


def mechanism_pages(nav: list) -> list:
    """``nav`` (as ``mkdocs.yml`` gives it) with every registered mechanism's page that it does not list already put
    in the section ``MECHANISMS_SECTION``, after the section's first entry, in the registry's order."""
    from ldpspec.reference.registry import MECHANISMS

    result = []
    for entry in nav:
        if isinstance(entry, dict) and MECHANISMS_SECTION in entry:
            section = list(entry[MECHANISMS_SECTION])
            listed = {value for item in section for value in (item.values() if isinstance(item, dict) else [item])}
            pages = [page for page in dict.fromkeys(m.docs for m in MECHANISMS.values()) if page not in listed]
            entry = {MECHANISMS_SECTION: section[:1] + pages + section[1:]}
        result.append(entry)
    return result


def on_config(config):
    config["nav"] = mechanism_pages(config["nav"])
    return config


TABLES = {"mechanisms": _mechanisms, "notions": _notions, "privacy-keys": _privacy_keys, "papers": _papers,
          "api": _api}


def on_page_markdown(markdown, page, config, files):
    here = page.file.src_uri

    def replace(match):
        name, argument = match.group(1), match.group(2)
        if name == "choices":
            return _choices(here, argument)
        if name == "flags":
            return _flags(here, argument)
        return TABLES[name](here)

    return MARKER.sub(replace, markdown)

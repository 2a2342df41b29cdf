"""MkDocs hook: the pages' TeX rendered to MathML when the site is built, so that a page shows its math with no
script and no network (every current browser renders MathML Core).

``pymdownx.arithmatex`` (generic mode) leaves each formula as ``<span class="arithmatex">\\(...\\)</span>`` or
``<div class="arithmatex">\\[...\\]</div>``; this hook replaces each with the ``<math>`` element latex2mathml makes of
it, and does the same for the formulas in headings as the table of contents shows them. Whatever latex2mathml does not
understand would come out as text in the page (a command's name, a row spacing like ``[1mm]``): the build fails on any
backslash left in the rendered text, naming the page and the formula, instead of showing raw TeX.
"""

import html
import re

from latex2mathml.converter import convert
from mkdocs.exceptions import PluginError

FORMULA = re.compile(r'<(span|div) class="arithmatex">(.*?)</\1>', re.DOTALL)
DELIMITERS = {"\\(": "\\)", "\\[": "\\]"}
HEADING_FORMULA = re.compile(r"\\\((.*?)\\\)")
"""A formula in a heading's title as the table of contents holds it: the text of the arithmatex span."""
SPELLINGS = [
    # latex2mathml renders these wrongly or not at all; each is rewritten to something it renders the same way.
    (re.compile(r"(\\[bB]igg?[lr]?)\s*\\(?:lVert|rVert|\|)"), "\\1‖"),  # a sized double bar: the sizing keeps it
    (re.compile(r"\\[lr]Vert(?![A-Za-z])"), "\\\\|"),
    (re.compile(r"\\arg(?![A-Za-z])"), "\\\\operatorname{arg}"),
    (re.compile(r"\\\\\s*\[[^\]]*\]"), "\\\\\\\\"),  # a row break's extra spacing (\\[1mm]): the plain row break
]


def _render(tex: str, display: str, where: str) -> str:
    for pattern, spelling in SPELLINGS:
        tex = pattern.sub(spelling, tex)
    try:
        mathml = convert(tex, display=display)
    except Exception as error:  # latex2mathml raises its own exception types for malformed TeX
        raise PluginError(f"{where}: cannot render {tex[:80]!r}: {error}") from error
    text = html.unescape(re.sub(r"<[^>]+>", " ", mathml))
    if "\\" in text:
        left = " ".join(sorted(set(re.findall(r"\\\S*", text))))
        raise PluginError(f"{where}: {left} left as text in {tex[:80]!r}; add a spelling to docs/hooks/math.py")
    return mathml


def _formula(match: re.Match, where: str) -> str:
    element, body = match.group(1), html.unescape(match.group(2)).strip()
    opening = body[:2]
    if opening not in DELIMITERS or not body.endswith(DELIMITERS[opening]):
        raise PluginError(f"{where}: a formula without its delimiters: {body[:80]!r}")
    if element == "span":
        return _render(body[2:-2], "inline", where)
    return f'<div class="math-display">{_render(body[2:-2], "block", where)}</div>'


def _render_titles(items, where: str) -> None:
    for item in items:
        item.title = HEADING_FORMULA.sub(
            lambda match: _render(html.unescape(match.group(1)), "inline", where), item.title)
        _render_titles(item.children, where)


def on_page_content(content, page, config, files):
    where = page.file.src_uri
    _render_titles(page.toc, f"{where} (table of contents)")
    return FORMULA.sub(lambda match: _formula(match, where), content)

"""MkDocs hook: the pages' TeX rendered to MathML when the site is built, so that a page shows its math with no
script and no network (every current browser renders MathML Core).

``pymdownx.arithmatex`` (generic mode) leaves each formula as ``<span class="arithmatex">\\(...\\)</span>`` or
``<div class="arithmatex">\\[...\\]</div>``; this hook replaces each with the ``<math>`` element latex2mathml makes of
it. A command latex2mathml does not know would come out as its own name in the page: the build fails on it, naming
the page and the formula, instead of showing raw TeX.
"""

import html
import re

from latex2mathml.converter import convert
from mkdocs.exceptions import PluginError

FORMULA = re.compile(r'<(span|div) class="arithmatex">(.*?)</\1>', re.DOTALL)
DELIMITERS = {"\\(": "\\)", "\\[": "\\]"}
SPELLINGS = {"\\lVert": "\\|", "\\rVert": "\\|", "\\arg": "\\operatorname{arg}"}
"""Commands latex2mathml lacks, written the way it knows (same rendering)."""
UNKNOWN = re.compile(r"\\[A-Za-z]+")


def _mathml(match: re.Match, where: str) -> str:
    element, body = match.group(1), html.unescape(match.group(2)).strip()
    opening = body[:2]
    if opening not in DELIMITERS or not body.endswith(DELIMITERS[opening]):
        raise PluginError(f"{where}: a formula without its delimiters: {body[:80]!r}")
    tex = body[2:-2]
    for command, spelling in SPELLINGS.items():
        tex = re.sub(re.escape(command) + r"(?![A-Za-z])", spelling.replace("\\", "\\\\"), tex)
    try:
        mathml = convert(tex, display="block" if element == "div" else "inline")
    except Exception as error:  # latex2mathml raises its own exception types for malformed TeX
        raise PluginError(f"{where}: cannot render {tex[:80]!r}: {error}") from error
    left = UNKNOWN.findall(html.unescape(re.sub(r"<[^>]+>", " ", mathml)))
    if left:
        raise PluginError(f"{where}: {', '.join(sorted(set(left)))} not rendered in {tex[:80]!r}; add a spelling "
                          "to docs/hooks/math.py")
    return mathml if element == "span" else f'<div class="math-display">{mathml}</div>'


def on_page_content(content, page, config, files):
    return FORMULA.sub(lambda match: _mathml(match, page.file.src_uri), content)

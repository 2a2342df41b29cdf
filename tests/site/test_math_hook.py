"""docs/hooks/math.py, the build-time TeX to MathML step: what it renders, and that it fails the build rather than
leave TeX as text in a page (the browser test checks the built pages themselves)."""

import html
import importlib.util
import re
from types import SimpleNamespace

import pytest

from tests.support import ROOT

pytest.importorskip("latex2mathml", reason="the math hook needs the docs extra: pip install -e '.[docs]'")
from mkdocs.exceptions import PluginError  # noqa: E402  (after the skip: mkdocs is in the docs extra too)

_spec = importlib.util.spec_from_file_location("math_hook", ROOT / "docs" / "hooks" / "math.py")
math_hook = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(math_hook)


def _page(toc=()):
    return SimpleNamespace(file=SimpleNamespace(src_uri="mechanisms/example.md"), toc=list(toc))


def _text(mathml: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", "", mathml))


def _render(content: str, toc=()) -> str:
    return math_hook.on_page_content(content, _page(toc), config=None, files=None)


def test_inline_and_display_formulas_become_math_elements():
    out = _render('<p>a <span class="arithmatex">\\(x^2\\)</span></p>'
                  '<div class="arithmatex">\\[ \\frac{a}{b} \\]</div>')
    assert '<math xmlns="http://www.w3.org/1998/Math/MathML" display="inline">' in out
    assert '<div class="math-display"><math xmlns="http://www.w3.org/1998/Math/MathML" display="block">' in out
    assert "arithmatex" not in out and "\\" not in out
    assert "<msup><mi>x</mi><mn>2</mn></msup>" in out and "<mfrac>" in out


def test_escaped_html_in_a_formula_is_read_as_tex():
    out = _render('<span class="arithmatex">\\(a &lt; b\\)</span>')
    assert _text(out) == "a<b"


def test_sized_double_bars_are_double_bars_not_a_backslash():
    for tex in ("\\bigl\\lVert x \\bigr\\rVert", "\\Bigl\\| x \\Bigr\\|", "\\lVert x \\rVert"):
        text = _text(_render(f'<span class="arithmatex">\\({tex}\\)</span>'))
        assert "\\" not in text and text.count("‖") == 2, (tex, text)


def test_row_spacing_in_cases_is_dropped_not_printed():
    out = _render('<div class="arithmatex">\\[ \\begin{cases} a, & x,\\\\[1mm] b, & y \\end{cases} \\]</div>')
    assert out.count("<mtr>") == 2 and "1mm" not in out and "[" not in _text(out)


def test_arg_is_an_operator():
    assert "<mo>arg</mo>" in _render('<span class="arithmatex">\\(\\arg\\max_x f\\)</span>')


@pytest.mark.parametrize("tex", ["\\unknowncommand x", "\\bigl\\vert x \\bigr\\vert"])
def test_tex_left_as_text_fails_the_build_naming_the_page(tex):
    with pytest.raises(PluginError, match=r"mechanisms/example\.md: .*left as text"):
        _render(f'<span class="arithmatex">\\({tex}\\)</span>')


def test_a_formula_without_delimiters_fails_the_build():
    with pytest.raises(PluginError, match="without its delimiters"):
        _render('<span class="arithmatex">x^2</span>')


def test_formulas_in_headings_are_rendered_in_the_table_of_contents():
    child = SimpleNamespace(title="The guarantee: \\(2\\max_j \\varepsilon_j\\)-LDP", children=[])
    top = SimpleNamespace(title="Plain", children=[child])
    _render("<p></p>", toc=[top])
    assert top.title == "Plain"
    assert child.title.startswith("The guarantee: <math") and child.title.endswith("</math>-LDP")
    assert _text(child.title) == "The guarantee: 2maxjεj-LDP"

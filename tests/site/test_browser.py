"""The documentation site as a reader meets it: built, served on the loopback address, opened in headless Chromium.

Every page of the built site is opened, and each must
* show its math rendered: no raw ``\\(``, ``\\[`` or ``$$`` in its visible text outside code (the table of contents
  included), every ``<math>`` element laid out by the browser's MathML engine, and no display formula taller than
  its box;
* log no console error;
* load nothing from outside the site (the browser also cannot resolve any other host, so such a load fails loudly);
* link only to pages and anchors that exist, and show every image it has (the papers' figures, made by the build).
The audit summary's counts must be the ledger's, with every claim's page one click away; the site search must find
each mechanism's page by the mechanism's name; and screenshots of the home page, a
mechanism's page and a refuted claim's page are saved for a person to look at (``LDPSPEC_SCREENSHOTS``, by default
``build/screenshots``).

Needs the docs extra (selenium), the audit's ledger (``pytest verify``; the ledger pages are built from it) and
Chromium with its driver (Debian's ``chromium`` and ``chromium-driver``, or ``LDPSPEC_CHROMIUM`` and
``LDPSPEC_CHROMEDRIVER``). Where one is missing the tests skip and say which, unless ``LDPSPEC_REQUIRE_BROWSER=1``
(CI's ``.ci/browser``), which makes a missing piece a failure.
"""

import contextlib
import functools
import html.parser
import json
import os
import urllib.parse
from pathlib import Path

import pytest

from tests.site.browser import LEDGER, VERSION, served
from tests.support import ROOT

SCREENSHOTS = Path(os.environ.get("LDPSPEC_SCREENSHOTS", ROOT / "build" / "screenshots"))

pytestmark = pytest.mark.slow

MECHANISM_NAMES = {  # a name a reader would type into the search box -> the page it must find
    "IDUE-PS": "mechanisms/idue-ps/",
    "uRR": "mechanisms/urr/",
    "suWheel": "mechanisms/wheel/",
    "IPRR": "mechanisms/iprr/",
    "Harmony": "mechanisms/harmony/",
    "Piecewise": "mechanisms/pm/",
}


def _pages(site_root: Path) -> list[str]:
    """Every page of the site, as a path relative to the version's root ('' for the home page)."""
    pages = []
    for page in sorted((site_root / VERSION).rglob("index.html")):
        relative = page.parent.relative_to(site_root / VERSION).as_posix()
        pages.append("" if relative == "." else relative + "/")
    return pages


SNAPSHOT = """
// the text a reader sees as prose: every shown text node, except code (where a page writes TeX on purpose)
const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
const shown = [];
for (let node = walker.nextNode(); node; node = walker.nextNode()) {
  const parent = node.parentElement;
  if (parent && !parent.closest('code, pre, script, style, math') && parent.checkVisibility()) shown.push(node.data);
}
const visible = shown.join(' ');
const maths = Array.from(document.querySelectorAll('math'));
return {
  text: visible,
  math: maths.length,
  // MathML the browser lays out has a display of 'math' or 'block math', and a width wherever it is shown
  unrendered: maths.filter(m => !getComputedStyle(m).display.includes('math')
                                || (m.checkVisibility() && m.getBoundingClientRect().width === 0)).length,
  // a display formula taller than its box scrolls (or is cut off) vertically
  cramped: Array.from(document.querySelectorAll('.math-display'))
    .filter(box => box.checkVisibility() && box.scrollHeight > box.clientHeight + 1).length,
  resources: performance.getEntriesByType('resource').map(entry => entry.name).concat([document.URL]),
  links: Array.from(document.querySelectorAll('a[href]')).map(a => a.href),
  images: Array.from(document.images).length,
  broken_images: Array.from(document.images).filter(image => !image.complete || image.naturalWidth === 0)
                                            .map(image => image.src),
};
"""
RAW_TEX = ("\\(", "\\[", "$$")


def _page_problems(browser, base_url: str, page: str) -> tuple[list[str], dict]:
    """What is wrong with one page as the browser shows it, and the page's snapshot (its links, math, images)."""
    origin = base_url.split(f"/{VERSION}/")[0] + "/"
    browser.get(base_url + page)
    snapshot = browser.execute_script(SNAPSHOT)
    errors = [entry["message"] for entry in browser.get_log("browser") if entry["level"] == "SEVERE"]
    raw = [token for token in RAW_TEX if token in snapshot["text"]]
    name = page or "(home)"
    problems = [f"{name}: raw TeX ({', '.join(raw)}) in the visible text"] if raw else []
    if snapshot["unrendered"]:
        problems.append(f"{name}: {snapshot['unrendered']} <math> elements not laid out as math")
    if snapshot["cramped"]:
        problems.append(f"{name}: {snapshot['cramped']} display formulas taller than their box (a vertical scroll bar)")
    problems += [f"{name}: console error: {message}" for message in errors]
    problems += [f"{name}: loads from outside the site: {url}" for url in snapshot["resources"]
                 if not url.startswith(origin)]
    problems += [f"{name}: an image that does not load: {url}" for url in snapshot["broken_images"]]
    return problems, snapshot


def test_every_page_renders_offline_with_math_and_no_console_error(site_root, base_url, browser):
    pages = _pages(site_root)
    assert len(pages) > 100, f"the built site has {len(pages)} pages: the ledger's claim pages are missing"
    problems, links, pages_with_math, images = [], {}, 0, 0
    for page in pages:
        found, snapshot = _page_problems(browser, base_url, page)
        problems += found
        images += snapshot["images"]
        pages_with_math += snapshot["math"] > 0
        for link in snapshot["links"]:
            links.setdefault(link, page)
    assert pages_with_math >= 20, f"only {pages_with_math} pages show math: is the math hook running?"
    assert images >= 8, f"only {images} images on the site: the papers' figures are missing"
    problems += _broken_links(site_root, base_url, links)
    assert not problems, f"{len(problems)} problems on {len(pages)} pages:\n" + "\n".join(problems)


BAD_PAGE = """<!doctype html><html><head><title>bad</title>
<script src="https://cdn.example.com/mathjax.js"></script></head><body>
<p>The budget \\(\\varepsilon\\) left as TeX.</p> <p><code>\\[ TeX shown as code is no fault \\]</code></p>
<p><math style="display: inline-block"><mi>x</mi></math></p>
<div class="math-display" style="height: 4px; overflow-x: auto">
  <math display="block"><mfrac><mi>a</mi><mi>b</mi></mfrac></math></div>
<img src="figures/missing.png" alt="a figure the build did not make">
<a href="good/">fine</a> <a href="good/#here">fine</a> <a href="good/#nowhere">no anchor</a> <a href="gone/">gone</a>
</body></html>"""


def test_the_checks_find_each_kind_of_fault_on_a_page_made_to_have_them(tmp_path, browser):
    """The sweep's checks can fail: a page with raw TeX, math the browser does not lay out as math, a display
    formula cut off by its box, a script from a CDN, a missing image, a link to a missing page and one to a missing
    anchor is reported for each."""
    (tmp_path / VERSION / "good").mkdir(parents=True)
    (tmp_path / VERSION / "index.html").write_text(BAD_PAGE, encoding="utf-8")
    (tmp_path / VERSION / "good" / "index.html").write_text('<html><body><h1 id="here">x</h1></body></html>')
    with served(tmp_path) as url:
        problems, snapshot = _page_problems(browser, url, "")
        problems += _broken_links(tmp_path, url, dict.fromkeys(snapshot["links"], ""))
    report = "\n".join(problems)
    for expected in ("raw TeX (\\() in", "1 <math> elements not laid out as math",
                     "loads from outside the site: https://cdn.example.com/mathjax.js",
                     "1 display formulas taller than their box", "console error", "an image that does not load",
                     "whose page has no anchor #nowhere",
                     "gone/, which does not exist"):
        assert expected in report, f"{expected!r} not reported:\n{report}"
    assert len(problems) == 7 + sum("console error" in problem for problem in problems), report


class _Ids(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.ids = set()

    def handle_starttag(self, tag, attributes):
        self.ids.update(value for name, value in attributes if name in ("id", "name") and value)


@functools.cache
def _ids(path: Path) -> frozenset:
    parser = _Ids()
    parser.feed(path.read_text(encoding="utf-8"))
    return frozenset(parser.ids)


def _broken_links(site_root: Path, base_url: str, links: dict[str, str]) -> list[str]:
    """Every link into the site must name a file of it, and an anchor that file has."""
    broken = []
    for link, page in sorted(links.items()):
        if not link.startswith(base_url):
            continue  # the repository, the papers: outside the site, not followed
        url = urllib.parse.urlsplit(link)
        path = site_root / urllib.parse.unquote(url.path).lstrip("/")
        if url.path.endswith("/"):
            path = path / "index.html"
        if not path.is_file():
            broken.append(f"{page or '(home)'}: links to {link}, which does not exist")
        elif url.fragment and path.suffix == ".html" and urllib.parse.unquote(url.fragment) not in _ids(path):
            broken.append(f"{page or '(home)'}: links to {link}, whose page has no anchor #{url.fragment}")
    return broken


def test_the_summary_counts_are_the_ledgers_and_every_claim_is_one_click_away(base_url, browser):
    document = json.loads(LEDGER.read_text(encoding="utf-8"))
    browser.get(base_url + "ledger/")
    rows = browser.execute_script(
        "return Array.from(document.querySelector('article table').tBodies[0].rows)"
        ".map(row => Array.from(row.cells).map(cell => cell.innerText.trim()));")
    columns = ("verified", "refuted", "open", "depends-on-reading")
    shown = [[int(cell) for cell in row[1:]] for row in rows]
    expected = [[sum(claim["paper"] == paper for claim in document["claims"])]
                + [sum(claim["paper"] == paper and claim["verdict"] == verdict for claim in document["claims"])
                   for verdict in columns] for paper in document["papers"]]
    assert shown == expected, f"the summary's counts per paper {shown} are not the ledger's {expected}"
    assert [sum(column) for column in zip(*shown)][1:] == [document["counts"][verdict] for verdict in columns]
    links = set(browser.execute_script("return Array.from(document.querySelectorAll('article a')).map(a => a.href)"))
    unlinked = [claim["id"] for claim in document["claims"] if f"{base_url}ledger/{claim['id']}/" not in links]
    assert not unlinked, f"claims without a link from the summary: {unlinked}"


@pytest.mark.parametrize("name", sorted(MECHANISM_NAMES))
def test_the_search_finds_a_mechanism_by_its_name(name, base_url, browser):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    browser.get(base_url)
    box = browser.find_element(By.CSS_SELECTOR, "input.md-search__input")  # in the header at this window width
    box.click()
    box.send_keys(name)

    def results(driver):
        found = driver.find_elements(By.CSS_SELECTOR, ".md-search-result__item a")
        return [a.get_attribute("href") for a in found] or None

    hrefs = WebDriverWait(browser, 30).until(results, f"no search results for {name!r}")
    wanted = base_url + MECHANISM_NAMES[name]
    assert any(href.split("#")[0] == wanted for href in hrefs[:5]), \
        f"searching {name!r} does not list {wanted} among its first results: {hrefs[:5]}"


def test_screenshots_of_the_home_page_a_mechanism_and_a_refuted_claim(base_url, browser):
    refuted = [claim for claim in json.loads(LEDGER.read_text(encoding="utf-8"))["claims"]
               if claim["verdict"] == "refuted"]
    assert refuted, "the ledger has no refuted claim to show"
    # a refuted privacy claim where there is one: its page shows the witness, the pair and the ratio over the budget
    refuted.sort(key=lambda claim: ("witness" not in json.dumps(claim["verdicts_by_reading"]), claim["id"]))
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    pages = {"home": "", "mechanism-idue": "mechanisms/idue/", "refuted-claim": f"ledger/{refuted[0]['id']}/"}
    for name, page in pages.items():
        browser.get(base_url + page)
        assert "404" not in browser.title, f"{page} is missing"
        with contextlib.suppress(Exception):  # the full page where Chromium can measure it; the window otherwise
            height = browser.execute_script("return document.documentElement.scrollHeight")
            browser.set_window_size(1400, min(height, 6000))
        path = SCREENSHOTS / f"{name}.png"
        assert browser.save_screenshot(str(path)) and path.stat().st_size > 10_000, f"no screenshot of {page}"
        browser.set_window_size(1400, 1000)

"""The Try-it page (docs/try.md) and the ledger's re-check buttons, in headless Chromium: the kernel in the reader's
browser must answer as the command line does.

* For every file in docs/examples (its profile, and a check under every notion with the file's own parameters) and for
  a few hundred seeded random small channels (exact fractions, decimals, and floats read under each reading), the
  page, driven like a reader (the example picked, the text pasted, the options chosen, Run clicked), shows the
  standard output, the error line and the exit status that ``ldpspec`` gives for the same file and options.
* A malformed file, pasted or uploaded, gets the command line's message; so does a file over the size limits.
* A long check shows its progress and can be cancelled, and the page checks again afterwards.
* Every refuted claim's counterexample that the ledger carries as a kernel check re-checks, on its page, to the
  ledger's answer.
* The kernel the site serves is the repository's, byte for byte; the page loads nothing from outside the site (every
  request of the page and its worker, from Chromium's network log).
* The bytes transferred on first use and the time to the first verdict, on a cold cache and on a warm one, are measured
  and written to ``build/site-measurements/`` (``try-it.json``, ``try-it-random.json``) for the README; they are not
  asserted.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import json
import random
import re
import urllib.request
import zipfile
from fractions import Fraction
from pathlib import Path

import pytest

from ldpspec.reference.tools.cli import main
from ldpspec.spec import NOTIONS
from tests.site.browser import LEDGER, VERSION, new_browser, served
from tests.support import ROOT

pytestmark = pytest.mark.slow

EXAMPLES = sorted((ROOT / "docs" / "examples").glob("*.json"))
RANDOM_CHANNELS = 300
MEASUREMENTS = ROOT / "build" / "site-measurements" / "try-it.json"

# Drives the page as a reader does, one case after another: pick an example or paste a text, choose the command, the
# notion and its parameters and the readings, click Run, and read what the page shows.
DRIVE = """
const [cases, done] = [arguments[0], arguments[arguments.length - 1]];
const $ = (id) => document.getElementById(id);
const until = (ready) => new Promise((resolve) => {
  const poll = () => ready() ? resolve() : setTimeout(poll, 5);
  poll();
});
const set = (element, value, event) => {
  element.value = value;
  element.dispatchEvent(new Event(event, {bubbles: true}));
};
(async () => {
  await until(() => $("try").dataset.ready === "true");
  const shown = [];
  for (const c of cases) {
    if (c.example) { set($("try-example"), c.example, "change"); await until(() => !$("try").dataset.loading); }
    else if (c.text !== undefined) set($("try-text"), c.text, "input");  // else: the text as it is (an upload)
    set($("try-command"), c.command, "change");
    if (c.command === "check") {
      set($("try-notion"), c.notion, "change");
      for (const [name, text] of Object.entries(c.parameters || {})) {
        set($("try-parameters").querySelector(`[data-parameter="${name}"]`), text, "input");
      }
    }
    set($("try-rows"), c.rows || "", "change");
    set($("try-numbers"), c.numbers || "", "change");
    set($("try-remainder-to"), c.remainder_to || "", "input");
    set($("try-max-entries"), c.max_entries || "", "input");
    set($("try-max-work"), c.max_work || "", "input");
    $("try-full").checked = !!c.full;
    const started = performance.now();
    $("try-run").click();
    await until(() => !["running", "idle"].includes($("try-result").dataset.state));
    shown.push({state: $("try-result").dataset.state, status: Number($("try-result").dataset.status),
                stdout: $("try-json").textContent, stderr: $("try-result").dataset.stderr,
                summary: $("try-summary").textContent, command_line: $("try-command-line").textContent,
                seconds: (performance.now() - started) / 1000});
  }
  done(shown);
})().catch((error) => done({error: String(error)}));
"""


def _cli(case: dict, folder: Path) -> dict:
    """What ``ldpspec`` prints for the case: its standard output, its error line and its exit status."""
    if case.get("example"):
        path = ROOT / "docs" / "examples" / case["example"]
    else:
        path = folder / "channel.json"
        path.write_text(case["text"], encoding="utf-8")
    argv = [case["command"], str(path)]
    if case["command"] == "check":
        argv += ["--notion", case["notion"]]
        for name, text in (case.get("parameters") or {}).items():
            argv += [f"--{name}", text]
    for key in ("rows", "numbers", "remainder_to", "max_entries", "max_work"):
        if case.get(key):
            argv += [f"--{key.replace('_', '-')}", case[key]]
    if case.get("full"):
        argv.append("--full")
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = main(argv)
    return {"status": status, "stdout": out.getvalue(), "stderr": err.getvalue()}


def _drive(browser, url: str, cases: list[dict]) -> list[dict]:
    browser.set_script_timeout(900)
    if browser.current_url != url:
        browser.get(url)
    shown = browser.execute_async_script(DRIVE, cases)
    assert isinstance(shown, list), f"the page's script failed: {shown}"
    return shown


def _compare(cases: list[dict], shown: list[dict], folder: Path) -> list[str]:
    differences = []
    for case, page in zip(cases, shown, strict=True):
        expected = _cli(case, folder)
        if page["state"] != "done":
            differences.append(f"{_name(case)}: the page ended {page['state']}")
        elif (page["status"], page["stdout"], page["stderr"]) != (expected["status"], expected["stdout"],
                                                                   _without_usage(expected["stderr"])):
            differences.append(f"{_name(case)}: page exit {page['status']}, {page['stdout'][:300]!r} "
                               f"{page['stderr'][:300]!r}; command line exit {expected['status']}, "
                               f"{expected['stdout'][:300]!r} {expected['stderr'][:300]!r}")
    return differences


def _without_usage(stderr: str) -> str:
    """The command line's error without argparse's usage lines before it (the page has no usage to show)."""
    lines = stderr.splitlines(keepends=True)
    return lines[-1] if stderr.startswith("usage: ") else stderr


def _name(case: dict) -> str:
    options = {key: value for key, value in case.items() if key not in ("text",) and value}
    return json.dumps(options)[:300] + ("" if case.get("example") else f" on {case['text'][:200]}")


# --- the cases ----------------------------------------------------------------------------------------------------

def example_cases() -> list[dict]:
    """Every example file: its profile, and a check under every notion with the parameters of its privacy section."""
    cases = []
    for path in EXAMPLES:
        cases.append({"example": path.name, "command": "profile"})
        cases += [{"example": path.name, "command": "check", "notion": notion} for notion in NOTIONS]
    return cases


def _row(rng: random.Random, outputs: int, kind: str) -> list:
    weights = [rng.choice((0, 1, 1, 2, 3, 5, 8)) for _ in range(outputs)]
    if not any(weights):
        weights[rng.randrange(outputs)] = 1
    total = sum(weights)
    if kind == "exact":
        return [str(Fraction(w, total)) for w in weights]
    if kind == "decimal":  # thousandths, the last entry taking what the others leave
        shares = [1000 * w // total for w in weights[:-1]]
        return [f"{s / 1000:.3f}" for s in shares] + [f"{(1000 - sum(shares)) / 1000:.3f}"]
    return [w / total for w in weights]  # floats as a program writes them: their sum need not be exactly 1


def random_cases(count: int, seed: int = 37) -> list[dict]:
    """Small channels (2 to 4 inputs and outputs) with exact, decimal and float rows, under the notions that take a
    matrix, with parameters given as options or left to the file, and the readings of float rows."""
    rng = random.Random(seed)
    cases = []
    for i in range(count):
        kind = ("exact", "decimal", "float")[i % 3]
        inputs = [f"x{j}" for j in range(rng.randint(2, 4))]
        outputs = inputs if rng.random() < 0.5 else [f"y{j}" for j in range(rng.randint(2, 4))]
        document = {"inputs": inputs, "outputs": outputs,
                    "probabilities": [_row(rng, len(outputs), kind) for _ in inputs]}
        budgets = [rng.choice(("0.5", "1", "log(3)", "2")) for _ in inputs]
        if rng.random() < 0.3:
            document["privacy"] = {"epsilon": rng.choice(("1", "log(2)")), "budgets": budgets}
        case = {"text": json.dumps(document), "command": "profile" if rng.random() < 0.25 else "check"}
        if case["command"] == "check":
            notion = rng.choice(("ldp", "id-ldp", "minid-ldp", "avgid-ldp", "ipldp", "uldp"))
            case["notion"] = notion
            parameters = {}
            if notion == "ldp" and "privacy" not in document:
                parameters["epsilon"] = rng.choice(("0.5", "1", "log(3)", "2.5"))
            elif notion in ("id-ldp", "minid-ldp", "avgid-ldp", "ipldp") and ("privacy" not in document
                                                                              or rng.random() < 0.3):
                parameters["budgets"] = json.dumps(budgets if notion != "ipldp" or outputs != inputs
                                                   else [b if rng.random() < 0.7 else None for b in budgets])
            if notion == "id-ldp":
                parameters["pair-function"] = rng.choice(("min", "avg", "max"))
            if notion == "uldp":
                parameters = {"sensitive": json.dumps(inputs[:1]), "protected": json.dumps(outputs[:1]),
                              "epsilon": rng.choice(("1", "2"))}
            case["parameters"] = parameters
        if kind == "float":
            case["rows"] = rng.choice((None, "renormalise", "remainder"))
            case["numbers"] = rng.choice((None, "binary"))
            if case["rows"] == "remainder" and rng.random() < 0.5:
                case["remainder_to"] = outputs[0]
        if rng.random() < 0.05:
            case["full"] = True
        cases.append(case)
    return cases


MALFORMED = [
    "{not json",
    json.dumps([["1/2", "1/2"]]),
    json.dumps({"inputs": ["a", "b"], "outputs": ["a", "b"], "probabilities": [["1/2", "1/3"], ["1/2", "1/2"]]}),
    json.dumps({"inputs": ["a", "a"], "outputs": ["y"], "probabilities": [["1"], ["1"]]}),
    json.dumps({"format": "ldpspec-channel/9", "inputs": ["a"], "outputs": ["y"], "probabilities": [["1"]]}),
    json.dumps({"inputs": ["a", "b"], "outputs": ["a", "b"], "probabilities": [["1/2", "1/2"], ["1/2", "1/2"]],
                "privacy": {"budgets": ["1"]}}),
]


# --- the tests ----------------------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def try_url(base_url) -> str:
    return base_url + "try/"


def test_every_example_answers_as_the_command_line(browser, try_url, tmp_path):
    cases = example_cases()
    assert len(cases) == len(EXAMPLES) * (1 + len(NOTIONS)) and EXAMPLES
    shown = _drive(browser, try_url, cases)
    differences = _compare(cases, shown, tmp_path)
    assert not differences, f"{len(differences)} of {len(cases)} differ:\n" + "\n".join(differences)
    assert any(page["status"] == 0 for page in shown) and any(page["status"] == 1 for page in shown)


def test_random_small_channels_answer_as_the_command_line(browser, try_url, tmp_path):
    cases = random_cases(RANDOM_CHANNELS)
    shown = _drive(browser, try_url, cases)
    differences = _compare(cases, shown, tmp_path)
    assert not differences, f"{len(differences)} of {len(cases)} differ:\n" + "\n".join(differences[:20])
    statuses = {page["status"] for page in shown}
    assert {0, 1, 2} <= statuses, f"the random cases reach only the exit statuses {statuses}"
    seconds = sorted(page["seconds"] for page in shown)  # written down for the README, not asserted
    MEASUREMENTS.parent.mkdir(parents=True, exist_ok=True)
    MEASUREMENTS.with_name("try-it-random.json").write_text(json.dumps(
        {"cases": len(seconds), "median seconds from Run to the answer": round(seconds[len(seconds) // 2], 3),
         "slowest": round(seconds[-1], 3)}, indent=1) + "\n", encoding="utf-8")


def test_a_malformed_or_oversized_file_gets_the_command_lines_message(browser, try_url, tmp_path):
    cases = [{"text": text, "command": "check", "notion": "ldp", "parameters": {"epsilon": "1"}} for text in MALFORMED]
    big = json.dumps({"inputs": ["a", "b", "c"], "outputs": ["a", "b", "c"],
                      "probabilities": [["1/3"] * 3] * 3})
    cases += [{"text": big, "command": "profile", "max_entries": "8"},
              {"text": big, "command": "profile", "max_work": "26"},
              {"text": big, "command": "profile", "max_entries": "0"}]
    shown = _drive(browser, try_url, cases)
    assert not (differences := _compare(cases, shown, tmp_path)), "\n".join(differences)
    assert all(page["status"] == 2 and page["stderr"].startswith("ldpspec") and ": error: " in page["stderr"]
               for page in shown), shown
    assert any("--max-entries" in page["stderr"] for page in shown[-3:])
    assert any("--max-work" in page["stderr"] for page in shown[-3:])


def test_an_uploaded_file_is_read_as_the_command_line_reads_it(browser, try_url, tmp_path):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    browser.get(try_url)
    path = tmp_path / "upload.json"
    path.write_text(MALFORMED[2], encoding="utf-8")
    browser.find_element(By.ID, "try-upload").send_keys(str(path))
    WebDriverWait(browser, 30).until(
        lambda driver: driver.execute_script("return document.getElementById('try-text').value") == MALFORMED[2],
        "the uploaded file is not in the text box")
    page = _drive(browser, try_url, [{"command": "profile"}])[0]
    expected = _cli({"text": MALFORMED[2], "command": "profile"}, tmp_path)
    assert (page["status"], page["stdout"], page["stderr"]) == (expected["status"], "", expected["stderr"])
    assert expected["status"] == 2 and "sum" in expected["stderr"]


def test_a_long_check_shows_its_progress_and_can_be_cancelled(browser, try_url, tmp_path):
    """A profile of 64 inputs and outputs compares 64^3 pairs and outputs, more than the kernel's quiet limit
    (``spec.progress.QUIET_WORK``): the page shows the kernel's progress; Cancel stops it; the next check runs."""
    rng = random.Random(5)
    labels = list(range(64))
    text = json.dumps({"inputs": labels, "outputs": labels,
                       "probabilities": [_row(rng, len(labels), "exact") for _ in labels]})
    browser.get(try_url)
    browser.set_script_timeout(600)
    seen = browser.execute_async_script("""
const [text, done] = [arguments[0], arguments[arguments.length - 1]];
const $ = (id) => document.getElementById(id);
const until = (ready) => new Promise((resolve) => {
  const poll = () => ready() ? resolve() : setTimeout(poll, 10);
  poll();
});
(async () => {
  await until(() => $("try").dataset.ready === "true");
  $("try-text").value = text;
  $("try-command").value = "profile"; $("try-command").dispatchEvent(new Event("change"));
  $("try-run").click();
  await until(() => $("try-status").textContent.includes("%"));
  const progress = $("try-status").textContent;
  const responsive = $("try-cancel").disabled === false;  // the page answers while the kernel works
  $("try-cancel").click();
  await until(() => $("try-result").dataset.state !== "running");
  done({progress, responsive, state: $("try-result").dataset.state, status: $("try-status").textContent});
})().catch((error) => done({error: String(error)}));
""", text)
    assert seen.get("state") == "cancelled", seen
    assert seen["responsive"], f"Cancel was not available while the kernel ran: {seen}"
    assert re.search(r"\d+% \([\d,]+ of [\d,]+\)$", seen["progress"]), f"no progress shown: {seen}"
    page = _drive(browser, try_url, [{"example": EXAMPLES[0].name, "command": "profile"}])[0]
    assert (page["status"], page["stdout"]) == (0, _cli({"example": EXAMPLES[0].name, "command": "profile"},
                                                        tmp_path)["stdout"])


def test_the_served_kernel_is_the_repositorys_byte_for_byte(base_url):
    with urllib.request.urlopen(base_url + "try/runtime/manifest.json") as response:
        manifest = json.load(response)
    with urllib.request.urlopen(base_url + "try/runtime/" + manifest["kernel"]) as response:
        archive = zipfile.ZipFile(io.BytesIO(response.read()))
    served_files = {name: archive.read(name) for name in archive.namelist()}
    spec_files = {f"ldpspec/spec/{path.name}" for path in (ROOT / "spec").glob("*.py")}
    assert spec_files <= set(served_files), f"spec/ files not served: {sorted(spec_files - set(served_files))}"
    different = [name for name, data in served_files.items()
                 if data != (ROOT / name.removeprefix("ldpspec/")).read_bytes()]
    assert not different, f"served files that differ from the repository: {different}"
    assert set(served_files) - spec_files == {"ldpspec/reference/__init__.py", "ldpspec/reference/channelfile.py",
                                              "ldpspec/reference/tools/__init__.py",
                                              "ldpspec/reference/tools/commands.py"}
    assert manifest["kernel_files"] == {name: hashlib.sha256(data).hexdigest() for name, data in served_files.items()}
    for name, entry in manifest["files"].items():  # every file the manifest names is served as it says
        with urllib.request.urlopen(base_url + "try/runtime/" + name) as response:
            data = response.read()
        assert (len(data), hashlib.sha256(data).hexdigest()) == (entry["bytes"], entry["sha256"]), name


def _first_verdict(browser, url: str) -> dict:
    page = _drive(browser, url, [{"example": "grr3.json", "command": "check", "notion": "ldp"}])[0]
    assert page["state"] == "done" and page["status"] == 0, page
    return page


def test_first_use_loads_only_the_site_and_is_measured(site_root, tmp_path):
    """A new browser (an empty cache) opens two claim pages with re-check buttons and the Try-it page, and nothing of
    the runtime loads; it checks an example; then the page is opened again (the cache warm) and checks again. Every
    request of the page and of its worker goes to the site; the bytes served and the time to the verdict are written
    down, not asserted."""
    log: list = []
    with served(site_root, log) as base:
        browser = new_browser(performance_log=True)
        try:
            origin = base.split(f"/{VERSION}/")[0] + "/"
            claim_pages = [f"ledger/{claim_id}/" for claim_id in sorted(_kernel_checks())[:2]]
            for page in [*claim_pages, "try/"]:  # opened, not used: nothing of the runtime loads
                browser.get(base + page)
                browser.execute_script("return document.readyState")
            early = [path for path, _, _ in log if "/try/runtime/" in path or "kernel-worker" in path]
            assert not early, f"the runtime loads before its first use: {early}"
            before = len(log)
            cold = _first_verdict(browser, base + "try/")
            cold_log = log[before:]
            browser.get(base + "try/")
            before = len(log)
            warm = _first_verdict(browser, base + "try/")
            warm_log = log[before:]
            requests = [json.loads(entry["message"])["message"] for entry in browser.get_log("performance")]
            urls = {event["params"]["request"]["url"] for event in requests
                    if event["method"] == "Network.requestWillBeSent"}
        finally:
            browser.quit()
    outside = sorted(url for url in urls if not url.startswith(origin) and not url.startswith("data:"))
    assert not outside, f"requests outside the site: {outside}"
    loaded = {path.split("/try/runtime/", 1)[1] for path, status, _ in cold_log if "/try/runtime/" in path}
    with (site_root / VERSION / "try" / "runtime" / "manifest.json").open() as handle:
        manifest = json.load(handle)
    assert set(manifest["files"]) | {"manifest.json"} >= loaded, loaded
    assert {"pyodide/pyodide.asm.wasm", manifest["kernel"], manifest["mpmath_wheel"]} <= loaded, loaded
    measured = {"first use, cold cache": {"bytes": sum(size for _, status, size in cold_log if status == 200),
                                          "seconds to the first verdict": round(cold["seconds"], 2)},
                "first use, warm cache": {"bytes": sum(size for _, status, size in warm_log if status == 200),
                                          "seconds to the first verdict": round(warm["seconds"], 2)},
                "runtime files": {name: entry["bytes"] for name, entry in manifest["files"].items()},
                "site bytes": sum(path.stat().st_size for path in (site_root / VERSION).rglob("*") if path.is_file()),
                "site bytes without try/runtime": sum(
                    path.stat().st_size for path in (site_root / VERSION).rglob("*")
                    if path.is_file() and "try/runtime" not in path.relative_to(site_root / VERSION).as_posix())}
    MEASUREMENTS.parent.mkdir(parents=True, exist_ok=True)
    MEASUREMENTS.write_text(json.dumps(measured, indent=1) + "\n", encoding="utf-8")
    print(json.dumps(measured, indent=1))


def _kernel_checks() -> dict[str, int]:
    """The ledger's claim pages with kernel checks: ``{claim id: the number of distinct checks}``."""
    if not LEDGER.exists():
        pytest.skip("no ledger: run `pytest verify` first")
    found = {}
    for claim in json.loads(LEDGER.read_text(encoding="utf-8"))["claims"]:
        requests = {json.dumps(check["request"], sort_keys=True)
                    for reading in claim["verdicts_by_reading"] if reading["verdict"] == "refuted"
                    for check in (reading.get("counterexample") or {}).get("kernel_checks", [])}
        if requests:
            found[claim["id"]] = len(requests)
    return found


def test_every_refuted_claims_channel_rechecks_to_the_ledgers_answer_on_its_page(browser, base_url):
    from selenium.webdriver.common.by import By

    pages = _kernel_checks()
    assert pages, "no refuted claim in the ledger carries a kernel check"
    problems = []
    for claim_id, count in sorted(pages.items()):
        browser.get(f"{base_url}ledger/{claim_id}/")
        buttons = browser.find_elements(By.CSS_SELECTOR, ".kernel-check .kernel-check-run")
        if len(buttons) < count:
            problems.append(f"{claim_id}: {len(buttons)} buttons for {count} kernel checks")
            continue
        browser.set_script_timeout(600)
        states = browser.execute_async_script("""
const done = arguments[arguments.length - 1];
const blocks = Array.from(document.querySelectorAll(".kernel-check"));
(async () => {
  const states = [];
  for (const block of blocks) {
    const result = block.querySelector(".kernel-check-result");
    block.querySelector(".kernel-check-run").click();
    await new Promise((resolve) => { const poll = () => ["agrees", "differs", "failed", "cancelled"]
      .includes(result.dataset.state) ? resolve() : setTimeout(poll, 20); poll(); });
    states.push([result.dataset.state, result.textContent]);
  }
  done(states);
})();
""")
        problems += [f"{claim_id}: {state}: {text[:300]}" for state, text in states if state != "agrees"]
        problems += [f"{claim_id}: the page does not say the counterexample was re-checked: {text[:200]}"
                     for state, text in states
                     if state == "agrees" and "re-checked by the code you just ran" not in text]
    assert not problems, "\n".join(problems)

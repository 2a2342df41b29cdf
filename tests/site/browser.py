"""The built site, served on the loopback address, and headless Chromium to open it: shared by the site's browser
tests (``conftest.py`` makes the fixtures).

Needs the docs extra (mkdocs, selenium), the audit's ledger (``pytest verify``; the ledger pages are built from it)
and Chromium with its driver (Debian's ``chromium`` and ``chromium-driver``, or ``LDPSPEC_CHROMIUM`` and
``LDPSPEC_CHROMEDRIVER``). Where one is missing the tests skip and say which, unless ``LDPSPEC_REQUIRE_BROWSER=1``
(CI's ``.ci/browser``), which makes a missing piece a failure.
"""

from __future__ import annotations

import contextlib
import fcntl
import functools
import http.server
import json
import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from tests.support import ROOT

LEDGER = ROOT / "build" / "ledger" / "ledger.json"
CHROMIUM = Path(os.environ.get("LDPSPEC_CHROMIUM", "/usr/bin/chromium"))
CHROMEDRIVER = Path(os.environ.get("LDPSPEC_CHROMEDRIVER", "/usr/bin/chromedriver"))
VERSION = "dev"
"""The site is served as mike publishes it: each version in its own folder, beside ``versions.json``."""


def missing(reason: str):
    if os.environ.get("LDPSPEC_REQUIRE_BROWSER") == "1":
        pytest.fail(f"{reason} (LDPSPEC_REQUIRE_BROWSER=1: the browser test must run)")
    pytest.skip(reason)


def built_site(shared: Path) -> Path:
    """The built site (``<root>/dev/``) in ``shared``, built once however many test workers ask for it."""
    if not LEDGER.exists():
        missing(f"the site's ledger pages come from the audit: run `pytest verify` first (no {LEDGER})")
    try:
        import latex2mathml  # noqa: F401  (docs/hooks/math.py)
        import mkdocs  # noqa: F401
    except ImportError:
        missing("the site is built with the docs extra: pip install -e '.[docs]'")
    root = shared / "site"
    with open(shared / "site.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (root / "versions.json").exists():
            build = subprocess.run(
                [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(root / VERSION)],
                cwd=ROOT, capture_output=True, text=True, env={**os.environ, "NO_MKDOCS_2_WARNING": "1"})
            assert build.returncode == 0, f"mkdocs build --strict failed:\n{build.stdout}\n{build.stderr}"
            (root / "versions.json").write_text(json.dumps([{"version": VERSION, "title": VERSION, "aliases": []}]))
    return root


class Handler(http.server.SimpleHTTPRequestHandler):
    """Serves the site quietly, and notes every response: ``(path, status, body bytes)`` in ``log`` (the server's
    own list), so that a test can say what a page loaded and how many bytes it cost."""

    log: list

    def log_message(self, *args):
        pass

    def send_response(self, code, message=None):
        self._status = code
        super().send_response(code, message)

    def send_header(self, keyword, value):
        if keyword.lower() == "content-length":
            self.log.append((self.path, self._status, int(value)))
        super().send_header(keyword, value)

    def end_headers(self):
        if getattr(self, "_status", None) == 304:
            self.log.append((self.path, 304, 0))
        super().end_headers()


@contextlib.contextmanager
def served(root: Path, log: list | None = None):
    """``root`` served on the loopback address; yields the address of its version folder. Every response is noted
    in ``log`` when one is given."""
    handler = functools.partial(type("LoggingHandler", (Handler,), {"log": log if log is not None else []}),
                                directory=str(root))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/{VERSION}/"
    finally:
        server.shutdown()


def new_browser(*, performance_log: bool = False):
    """Headless Chromium with a new, empty profile (an empty cache), that cannot resolve any host but the loopback
    address: a load from outside the site fails, and the failure is a console error."""
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
    except ImportError:
        missing("the browser test drives Chromium with selenium: pip install -e '.[docs]'")
    for path, package in ((CHROMIUM, "chromium"), (CHROMEDRIVER, "chromium-driver")):
        if not path.exists():
            missing(f"no {path}: install Debian's {package} (apt-get install chromium chromium-driver), or name "
                    "another with LDPSPEC_CHROMIUM / LDPSPEC_CHROMEDRIVER")
    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--window-size=1400,1000", "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"):
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL", **({"performance": "ALL"} if performance_log
                                                                      else {})})
    driver = webdriver.Chrome(options=options, service=Service(str(CHROMEDRIVER)))
    driver.set_page_load_timeout(60)
    return driver

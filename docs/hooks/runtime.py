"""MkDocs hook: the runtime of the "Try it" page, vendored at build time, and the page's lists.

The page (``docs/try.md``) runs the kernel in the reader's browser: CPython compiled to WebAssembly (Pyodide), with
mpmath and the kernel, all served by the site itself (``try/runtime/``), so that nothing is fetched from anywhere
else, at build time included for the kernel and at page load for everything. What is vendored is pinned in one place,
``docs/hooks/runtime.json``:

* Pyodide's distribution, the npm package ``pyodide`` at the pinned version, checked against the pinned npm
  ``integrity`` (SHA-512 of the package's tarball); only the files the runtime loads are served;
* mpmath's wheel from PyPI (``pip download``), checked against the pinned SHA-256;
* the kernel, packaged by this hook as ``ldpspec-kernel.zip``: ``spec/`` byte for byte, with the three modules
  that read a channel file and answer ``ldpspec check``/``profile`` (``KERNEL_FILES``).

Downloads are kept in ``build/runtime-cache`` and checked again at every build. ``try/runtime/manifest.json`` names
every served file with its size and SHA-256 (the browser test compares the kernel's with the repository).

Markers on the page: ``<!-- try: options -->`` (the notions and their parameters, the readings and the limits, from
the kernel) and
``<!-- try: examples -->`` (the files of ``docs/examples``).
"""

from __future__ import annotations

import base64
import hashlib
import io
import json
import os
import subprocess
import sys
import tarfile
import urllib.request
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PINS = json.loads((Path(__file__).with_name("runtime.json")).read_text(encoding="utf-8"))
CACHE = ROOT / "build" / "runtime-cache"
EXAMPLES = ROOT / "docs" / "examples"
SERVED = "try/runtime"
KERNEL_FILES = ["reference/__init__.py", "reference/channelfile.py", "reference/tools/__init__.py",
                "reference/tools/commands.py"]
"""Beside ``spec/``: what ``ldpspec check`` and ``profile`` need to read a file and answer (no NumPy)."""
ZIP_TIME = (1980, 1, 1, 0, 0, 0)  # every member's time: the same source gives the same archive


def _npm_registry() -> str:
    registry = os.environ.get("NPM_CONFIG_REGISTRY") or os.environ.get("npm_config_registry")
    return (registry or "https://registry.npmjs.org/").rstrip("/") + "/"


def _pyodide_tarball() -> bytes:
    pin = PINS["pyodide"]
    path = CACHE / f"{pin['package']}-{pin['version']}.tgz"
    if not path.exists():
        url = f"{_npm_registry()}{pin['package']}/-/{pin['package']}-{pin['version']}.tgz"
        try:
            with urllib.request.urlopen(url, timeout=120) as response:
                data = response.read()
        except OSError as error:
            raise RuntimeError(f"the Try-it page's runtime: cannot fetch {url} ({error}); the build needs the npm "
                               "registry once (the download is kept in build/runtime-cache)") from None
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
    data = path.read_bytes()
    algorithm, expected = pin["integrity"].split("-", 1)
    found = base64.b64encode(hashlib.new(algorithm, data).digest()).decode()
    if found != expected:
        path.unlink()
        raise RuntimeError(f"{path.name}: integrity {algorithm}-{found}, not the pinned {pin['integrity']} "
                           "(docs/hooks/runtime.json); the download was removed")
    return data


def _mpmath_wheel() -> Path:
    pin = PINS["mpmath"]
    path = CACHE / pin["wheel"]
    if not path.exists():
        CACHE.mkdir(parents=True, exist_ok=True)
        fetched = subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary=:all:",
                                  "--dest", str(CACHE), f"mpmath=={pin['version']}"], capture_output=True, text=True)
        if fetched.returncode != 0 or not path.exists():
            raise RuntimeError(f"the Try-it page's runtime: pip download mpmath=={pin['version']} failed: "
                               f"{fetched.stderr.strip()[-400:]}")
    found = hashlib.sha256(path.read_bytes()).hexdigest()
    if found != pin["sha256"]:
        path.unlink()
        raise RuntimeError(f"{path.name}: SHA-256 {found}, not the pinned {pin['sha256']} (docs/hooks/runtime.json);"
                           " the download was removed")
    return path


def kernel_sources() -> dict[str, bytes]:
    """The kernel as packaged: ``{name in the archive: the repository file's bytes}``."""
    sources = {f"ldpspec/spec/{path.name}": path.read_bytes() for path in sorted((ROOT / "spec").glob("*.py"))}
    sources.update({f"ldpspec/{name}": (ROOT / name).read_bytes() for name in KERNEL_FILES})
    return sources


def _kernel_zip() -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in sorted(kernel_sources().items()):
            archive.writestr(zipfile.ZipInfo(name, ZIP_TIME), data, zipfile.ZIP_DEFLATED)
    return buffer.getvalue()


def runtime_files() -> dict[str, bytes]:
    """Every file of ``try/runtime/``, by its path there."""
    pin = PINS["pyodide"]
    files = {}
    with tarfile.open(fileobj=io.BytesIO(_pyodide_tarball()), mode="r:gz") as tarball:
        for name in pin["files"]:
            member = tarball.extractfile(f"package/{name}")
            if member is None:
                raise RuntimeError(f"the pinned Pyodide package has no file {name} (docs/hooks/runtime.json)")
            files[f"pyodide/{name}"] = member.read()
    wheel = _mpmath_wheel()
    files[wheel.name] = wheel.read_bytes()
    files["ldpspec-kernel.zip"] = _kernel_zip()
    manifest = {"pyodide": pin["version"], "python": json.loads(files["pyodide/pyodide-lock.json"])["info"]["python"],
                "mpmath": PINS["mpmath"]["version"], "mpmath_wheel": wheel.name, "kernel": "ldpspec-kernel.zip",
                "kernel_files": {name: hashlib.sha256(data).hexdigest() for name, data in kernel_sources().items()},
                "files": {name: {"bytes": len(data), "sha256": hashlib.sha256(data).hexdigest()}
                          for name, data in sorted(files.items())}}
    files["manifest.json"] = (json.dumps(manifest, indent=1) + "\n").encode()
    return files


def _options() -> dict:
    """What the page offers, from the kernel: the notions and their parameters, the readings of rows and numbers,
    and the size limits' defaults."""
    from ldpspec.spec import MAX_ENTRIES, MAX_PAIR_WORK, NOTIONS, NUMBER_READINGS, ROW_RULES

    return {"notions": [notion.to_json() for notion in NOTIONS.values()], "rows": list(ROW_RULES),
            "numbers": list(NUMBER_READINGS), "max_entries": MAX_ENTRIES, "max_work": MAX_PAIR_WORK}


def _examples() -> list:
    examples = []
    for path in sorted(EXAMPLES.glob("*.json")):
        document = json.loads(path.read_text(encoding="utf-8"))
        examples.append({"name": path.name, "description": document.get("description", "")})
    return examples


def _embedded(element_id: str, data) -> str:
    text = json.dumps(data).replace("</", "<\\/")
    return f'<script type="application/json" id="{element_id}">{text}</script>'


def on_page_markdown(markdown, page, config, files):
    if "<!-- try: " not in markdown:
        return markdown
    return (markdown.replace("<!-- try: options -->", _embedded("try-options", _options()))
            .replace("<!-- try: examples -->", _embedded("try-examples", _examples())))


def on_post_build(config):
    folder = Path(config["site_dir"]) / SERVED
    for name, data in runtime_files().items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)

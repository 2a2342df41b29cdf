"""The Try-it page's runtime as the build makes it (``docs/hooks/runtime.py``), without a browser: the kernel it
packages imports nothing the browser lacks, and a download whose checksum is not the pinned one is refused."""

from __future__ import annotations

import ast
import hashlib
import importlib.util
import io
import json
import sys
import zipfile

import pytest

from tests.support import ROOT


@pytest.fixture(scope="module")
def runtime():
    spec = importlib.util.spec_from_file_location("ldpspec_docs_runtime", ROOT / "docs" / "hooks" / "runtime.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _optional(node: ast.AST, parents: dict) -> bool:
    """An import inside ``try`` whose handler catches ImportError: the module works without it."""
    while node in parents:
        node = parents[node]
        if isinstance(node, ast.Try) and any(
                isinstance(handler.type, ast.Name) and handler.type.id in ("ImportError", "ModuleNotFoundError")
                for handler in node.handlers):
            return True
    return False


def unmet_imports(sources: dict[str, bytes], available: set[str]) -> list[str]:
    """The imports of the packaged modules that the browser cannot meet: an ``ldpspec`` module not packaged, or a
    module neither in the standard library nor in ``available``; an import guarded by ``except ImportError`` is
    optional."""
    packaged = {name.removesuffix(".py").removesuffix("/__init__").replace("/", ".") for name in sources}
    unmet = []
    for name, data in sources.items():
        tree = ast.parse(data)
        parents = {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                modules = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0:
                modules = [node.module] + [f"{node.module}.{alias.name}" for alias in node.names]
                modules = [modules[0]] + [m for m in modules[1:] if m.startswith("ldpspec.")
                                          and m.rsplit(".", 1)[0] not in packaged]  # a submodule, not a name
            else:
                continue
            for module in modules:
                top = module.split(".")[0]
                met = (module in packaged or any(p.startswith(module + ".") for p in packaged)) if top == "ldpspec" \
                    else top in sys.stdlib_module_names or top in available
                if not met and not _optional(node, parents):
                    unmet.append(f"{name}:{node.lineno}: {module}")
    return unmet


def test_the_packaged_kernel_imports_only_itself_the_standard_library_and_mpmath(runtime):
    sources = runtime.kernel_sources()
    assert {f"ldpspec/spec/{p.name}" for p in (ROOT / "spec").glob("*.py")} <= set(sources)
    assert unmet_imports(sources, {"mpmath"}) == []


def test_the_import_check_finds_a_module_the_browser_lacks():
    planted = {"ldpspec/spec/a.py": b"import numpy\nfrom ldpspec.reference import registry\n",
               "ldpspec/spec/b.py": b"try:\n    import numpy\nexcept ImportError:\n    numpy = None\n"}
    assert unmet_imports(planted, {"mpmath"}) == ["ldpspec/spec/a.py:1: numpy",
                                                  "ldpspec/spec/a.py:2: ldpspec.reference",
                                                  "ldpspec/spec/a.py:2: ldpspec.reference.registry"]


def test_the_kernel_archive_is_the_same_for_the_same_sources(runtime):
    first, second = runtime._kernel_zip(), runtime._kernel_zip()
    assert first == second
    archive = zipfile.ZipFile(io.BytesIO(first))
    assert {name: archive.read(name) for name in archive.namelist()} == runtime.kernel_sources()


def test_a_download_whose_checksum_is_not_the_pinned_one_is_refused_and_removed(runtime, tmp_path, monkeypatch):
    monkeypatch.setattr(runtime, "CACHE", tmp_path)
    pins = json.loads(json.dumps(runtime.PINS))
    monkeypatch.setattr(runtime, "PINS", pins)
    wheel = tmp_path / pins["mpmath"]["wheel"]
    wheel.write_bytes(b"not the wheel")
    with pytest.raises(RuntimeError, match="not the pinned"):
        runtime._mpmath_wheel()
    assert not wheel.exists()
    tarball = tmp_path / f"pyodide-{pins['pyodide']['version']}.tgz"
    tarball.write_bytes(b"not the package")
    with pytest.raises(RuntimeError, match="not the pinned"):
        runtime._pyodide_tarball()
    assert not tarball.exists()
    wheel.write_bytes(b"a wheel")  # and a file that matches its pin is taken as it is, without a download
    pins["mpmath"]["sha256"] = hashlib.sha256(b"a wheel").hexdigest()
    assert runtime._mpmath_wheel() == wheel


def test_the_versions_are_pinned_in_one_place():
    """The pinned versions are written in docs/hooks/runtime.json and nowhere else in the code and the docs."""
    pins = json.loads((ROOT / "docs" / "hooks" / "runtime.json").read_text(encoding="utf-8"))
    versions = {pins["pyodide"]["version"], pins["mpmath"]["wheel"], pins["pyodide"]["integrity"]}
    found = [f"{path.relative_to(ROOT)}: {version}" for path in [*ROOT.glob("docs/**/*"), *ROOT.glob("tests/**/*.py"),
                                                                  ROOT / "README.md", ROOT / "pyproject.toml"]
             if path.is_file() and path.suffix in (".md", ".py", ".js", ".mjs", ".toml", ".yml")
             for version in versions if version in path.read_text(encoding="utf-8", errors="replace")]
    assert found == []

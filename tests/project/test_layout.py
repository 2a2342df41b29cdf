"""The project's shape: one import namespace, the package list, the registry's consistency, the docs navigation,
citations a reader can follow, and a wheel that holds the package only."""

from __future__ import annotations

import importlib
import importlib.util
import pkgutil
import re
import subprocess
import sys
import tomllib
import zipfile

import pytest
import yaml

import ldpspec
from ldpspec.reference.registry import MECHANISMS, NOTIONS, PAPERS
from ldpspec.spec.notions import PRIVACY_KEYS
from ldpspec.verify.claims import CHOICES, load_claims
from tests.support import DOCS, ROOT

FOLDERS = {"accelerator": "ldpspec.accelerator", "spec": "ldpspec.spec", "reference": "ldpspec.reference",
           "verify": "ldpspec.verify"}


def _package_folders() -> dict:
    """``{installed name: folder}`` for every folder with an ``__init__.py`` under the package's folders."""
    found = {}
    for top, name in FOLDERS.items():
        for init in (ROOT / top).rglob("__init__.py"):
            relative = init.parent.relative_to(ROOT / top)
            found[".".join((name, *relative.parts))] = init.parent
    return found


def test_every_package_folder_is_listed_in_pyproject():
    configuration = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]
    assert sorted(configuration["packages"]) == sorted(_package_folders()), \
        "list every folder with an __init__.py under [tool.setuptools] packages"
    assert configuration["package-dir"] == {name: folder for folder, name in FOLDERS.items()}


def test_every_module_is_imported_once_under_its_installed_name():
    for module in pkgutil.walk_packages(ldpspec.__path__, "ldpspec."):
        importlib.import_module(module.name)
    folders = tuple(str(ROOT / top) + "/" for top in FOLDERS)
    strays = sorted(name for name, module in list(sys.modules.items())
                    if (getattr(module, "__file__", None) or "").startswith(folders)
                    and not name.startswith("ldpspec."))
    assert not strays, f"modules of the package imported under a second name: {strays}"


OUTSIDE = re.compile(r"formula sheet|the sheet|sheet §|common §|DESIGN\.md|\.\./shared|shared/math|seeds/"
                     r"|ambiguity [AB]\d|reading B\d", re.IGNORECASE)


def test_code_and_docs_cite_only_the_papers_and_the_project():
    files = [path for top in ("spec", "reference", "verify", "tests", "docs") for path in (ROOT / top).rglob("*")
             if path.suffix in (".py", ".md", ".yml", ".toml") and path.is_file()]
    files += [ROOT / "README.md", ROOT / "mkdocs.yml", ROOT / "pyproject.toml"]
    offending = [f"{path.relative_to(ROOT)}:{number}: {line.strip()}"
                 for path in files if path.name != "test_layout.py"
                 for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
                 if OUTSIDE.search(line)]
    assert not offending, "references to documents outside the repository:\n" + "\n".join(offending)


def test_text_files_hold_no_control_characters():
    """A TeX command written through a string that was not raw loses its backslash to an escape (``\\text`` becomes a
    tab and ``ext``, ``\\ne`` a line break and ``e``), and the page shows broken math."""
    files = [path for top in ("spec", "reference", "verify", "tests", "docs") for path in (ROOT / top).rglob("*")
             if path.suffix in (".py", ".md", ".yml", ".toml", ".json", ".js") and path.is_file()]
    control = re.compile(r"[\x00-\x09\x0b-\x1f\x7f]")  # a tab included; a line break is only \n
    offending = [f"{path.relative_to(ROOT)}:{number}" for path in files
                 for number, line in enumerate(path.read_text(encoding="utf-8").split("\n"), start=1)
                 if control.search(line)]
    assert not offending, "control characters (a lost backslash?) at:\n" + "\n".join(offending)


def _nav_pages() -> set:
    class Loader(yaml.SafeLoader):
        pass

    Loader.add_multi_constructor("tag:yaml.org,2002:python/name:", lambda loader, suffix, node: None)
    Loader.add_constructor("!ENV", lambda loader, node: None)  # MkDocs' environment variables (site_url, repo_url)
    configuration = yaml.load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"), Loader=Loader)
    pages = set()

    def walk(entries):
        for entry in entries:
            if isinstance(entry, str):
                pages.add(entry)
            else:
                for value in entry.values():
                    walk(value) if isinstance(value, list) else pages.add(value)

    walk(_hook("registry").mechanism_pages(configuration["nav"]))
    return pages


def _hook(name: str):
    """A hook of the site's build (``docs/hooks/NAME.py``), as the build loads it."""
    specification = importlib.util.spec_from_file_location(f"docs_hook_{name}", DOCS / "hooks" / f"{name}.py")
    module = importlib.util.module_from_spec(specification)
    specification.loader.exec_module(module)
    return module


def test_the_navigation_lists_every_paper_mechanism_and_notion():
    """As the site is built: ``mkdocs.yml``'s navigation with the registered mechanisms' pages the hook adds."""
    pages = _nav_pages()
    papers_with_work = {claim.paper for claim in load_claims().values()} | {
        m.home for m in MECHANISMS.values() if m.home != "shared"}
    expected = {PAPERS[key].docs for key in papers_with_work} | {m.docs for m in MECHANISMS.values()} | {
        n.docs for n in NOTIONS.values()}
    assert expected <= pages, f"pages missing from mkdocs.yml's nav: {sorted(expected - pages)}"
    listed_papers = {page for page in pages if page.startswith("papers/")}
    assert listed_papers <= {paper.docs for paper in PAPERS.values()}, "every paper page belongs to a registered paper"
    for page in expected:
        assert (DOCS / page).is_file(), page


def test_every_paper_folder_belongs_to_a_registered_paper():
    for top in ("reference", "verify"):
        folders = {path.name for path in (ROOT / top).iterdir() if (path / "__init__.py").is_file()}
        not_papers = {"shared", "tools", "porting", "refute", "data"}
        assert folders - not_papers <= set(PAPERS), f"{top}/ has folders that are not papers"
    for paper in {claim.paper for claim in load_claims().values()}:
        assert (ROOT / "verify" / paper / "__init__.py").is_file()
    assert set(CHOICES) <= set(PAPERS)


def test_each_privacy_key_has_one_kind():
    for notion in NOTIONS.values():
        for parameter in notion.parameters:
            assert parameter.file_key is not None
            assert PRIVACY_KEYS[parameter.file_key].kind == parameter.kind, parameter.file_key


@pytest.mark.slow
def test_the_wheel_holds_the_ldpspec_package_and_its_metadata_only(tmp_path):
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "--quiet",
                    "--wheel-dir", str(tmp_path), str(ROOT)], check=True, capture_output=True)
    (wheel,) = tmp_path.glob("ldpspec-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    tops = {name.split("/", 1)[0] for name in names}
    assert tops == {"ldpspec", next(t for t in tops if t.endswith(".dist-info"))}, tops
    assert "ldpspec/spec/notions.py" in names and "ldpspec/verify/gu2020/readings.py" in names
    assert not any(name.startswith("ldpspec/__init__") for name in names)  # a namespace over the three folders

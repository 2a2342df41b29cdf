"""The audit's own code is easy to find one's way in: a claim's id leads to its file (``verify/claim_files.py``,
``verify/CLAIMS.md``), and no file of ``verify/`` imports another's private names."""

from __future__ import annotations

import ast
from types import SimpleNamespace

import pytest

from ldpspec.verify import claim_files
from ldpspec.verify.claims import load_claims
from tests.support import ROOT

VERIFY = ROOT / "verify"


# --- a claim's id leads to its file -------------------------------------------------------------------------------

@pytest.mark.parametrize("claim_id, part", [
    ("gu2020.theorem4", "theorem4"), ("gu2020.theorem4.avgid", "theorem4"),
    ("gu2020.fig3.opt1-opt2.near-optimal", "fig3"), ("ipldp2023.sec4.2-equal-budgets", "sec4.2-equal-budgets"),
    ("ipldp2023.sec5.1-design.nonconvex", "sec5.1-design"), ("cao2022.sec4.4-suwheel-best", "sec4.4-suwheel-best"),
])
def test_the_part_of_an_id(claim_id, part):
    assert claim_files.part_of(claim_id) == (claim_id.split(".")[0], part)


def test_every_part_is_in_one_file():
    assert claim_files.problems(load_claims()) == []


def test_claims_md_is_the_registry_s_table():
    assert claim_files.CLAIMS_MD.read_text(encoding="utf-8") == claim_files.table(load_claims()), \
        "verify/CLAIMS.md is stale: run python -m ldpspec.verify.claim_files"


def _fake(module: str):
    return SimpleNamespace(check=SimpleNamespace(__module__=module))


def test_a_part_in_two_files_breaks_the_rule():
    registry = {"gu2020.sec8-avgid.applicable": _fake("ldpspec.verify.gu2020.itemsets"),
                "gu2020.sec8-avgid.composition": _fake("ldpspec.verify.gu2020.notions"),
                "gu2020.theorem1": _fake("ldpspec.verify.cao2022.privacy")}
    found = claim_files.problems(registry)
    assert len(found) == 2
    assert "gu2020.sec8-avgid is in 2 files" in found[0] and "not in verify/gu2020/" in found[1]


# --- no private imports across files ------------------------------------------------------------------------------

def _module_of(path) -> str:
    relative = path.relative_to(VERIFY).with_suffix("")
    parts = relative.parts[:-1] if relative.name == "__init__" else relative.parts
    return ".".join(("ldpspec.verify", *parts))


def _is_verify_module(name: str) -> bool:
    if not name.startswith("ldpspec.verify"):
        return False
    path = VERIFY.joinpath(*name.split(".")[2:])
    return path.with_suffix(".py").is_file() or (path / "__init__.py").is_file()


def _private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def private_imports(source: str, own: str) -> list[str]:
    """Every private name of another module of the audit that ``source`` (the module ``own``) imports or reads as an
    attribute: ``from ldpspec.verify.x import _y``, ``x._y`` where ``x`` names a module of the audit."""
    tree = ast.parse(source)
    package = own if _is_verify_module(own) and (VERIFY.joinpath(*own.split(".")[2:]) / "__init__.py").is_file() \
        else own.rpartition(".")[0]
    modules: dict[str, str] = {}  # local name -> module of the audit it is bound to
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[:len(package.split(".")) - node.level + 1]
                base = ".".join(anchor + ([base] if base else []))
            if not base.startswith("ldpspec.verify"):
                continue
            for alias in node.names:
                if _private(alias.name) and base != own:
                    found.append(f"line {node.lineno}: from {base} import {alias.name}")
                if _is_verify_module(f"{base}.{alias.name}"):
                    modules[alias.asname or alias.name] = f"{base}.{alias.name}"
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.asname:
                    modules[alias.asname] = alias.name
                else:  # ``import a.b.c`` binds ``a``
                    modules[alias.name.split(".")[0]] = alias.name.split(".")[0]
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and _private(node.attr):
            dotted, value = [], node.value
            while isinstance(value, ast.Attribute):
                dotted.insert(0, value.attr)
                value = value.value
            if isinstance(value, ast.Name) and value.id in modules:
                target = ".".join([modules[value.id], *dotted])
                if _is_verify_module(target) and target != own:
                    found.append(f"line {node.lineno}: {target}.{node.attr}")
    return found


def test_no_file_of_the_audit_imports_another_s_private_names():
    found = {}
    for path in sorted(VERIFY.rglob("*.py")):
        own = _module_of(path)
        if hits := private_imports(path.read_text(encoding="utf-8"), own):
            found[str(path.relative_to(ROOT))] = hits
    assert found == {}


@pytest.mark.parametrize("source", [
    "from ldpspec.verify.cao2022.orders import _splits\n",
    "from ldpspec.verify.cao2022.orders import BASELINE, _splits as splits\n",
    "from .orders import _splits\n",
    "from ldpspec.verify.cao2022 import orders\norders._splits(1, 2, 3)\n",
    "import ldpspec.verify.cao2022.orders\nldpspec.verify.cao2022.orders._splits(1, 2, 3)\n",
    "from ldpspec.verify import cao2022\ncao2022.orders._splits(1, 2, 3)\n",
])
def test_a_private_import_across_files_is_found(source):
    assert private_imports(source, "ldpspec.verify.cao2022.experiments")


@pytest.mark.parametrize("source", [
    "from ldpspec.verify.cao2022.orders import population_splits\n",
    "from ldpspec.verify.cao2022 import orders\norders.population_splits(1, 2, 3)\n",
    "from ldpspec.verify.cao2022.experiments import _own\n",  # its own module
    "from __future__ import annotations\nx = object()\nx._private\n",
])
def test_a_public_or_own_import_is_not(source):
    assert private_imports(source, "ldpspec.verify.cao2022.experiments") == []

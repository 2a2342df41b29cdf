"""Every object a paper's choice shapes is built by the choice's builder, so no check fixes a choice by construction.

A builder (``builds`` in verify/claims.py) receives its choices' values through ``reading_value``, which records
them as consulted and lets the sweep rerun the check under every other value. The scan below fails when code in
verify/ calls a constructor a builder declares (``constructs``) anywhere but inside a builder of the same choices.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from ldpspec.verify.claims import (
    BUILDERS,
    CHOICES,
    Choice,
    Fixed,
    builds,
    declare_choices,
    load_claims,
    reading_context,
)

VERIFY = Path(__file__).resolve().parents[2] / "verify"


def _module(path: Path) -> str:
    return "ldpspec.verify." + ".".join(path.relative_to(VERIFY).with_suffix("").parts).removesuffix(".__init__")


def calls_outside_builders(sources: dict[str, str], builders=None) -> list[str]:
    """``module:line name()`` for every call of a declared constructor outside a builder of the same choices.

    ``sources``: ``{module name: source text}``. A call counts as inside a builder when one of its enclosing
    functions is a registered builder that declares the constructor."""
    builders = BUILDERS if builders is None else builders
    inside: dict[str, set[tuple[str, str]]] = {}
    for builder in builders:
        wrapped = builder.function.__wrapped__
        for constructor in builder.constructs:
            inside.setdefault(constructor.rsplit(".", 1)[-1], set()).add((wrapped.__module__, wrapped.__qualname__))
    found = []
    for module, source in sources.items():
        tree = ast.parse(source)

        def visit(node, scope: tuple[str, ...], module=module):
            for child in ast.iter_child_nodes(node):
                if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                    visit(child, (*scope, child.name), module)
                    continue
                if isinstance(child, ast.Call):
                    func = child.func
                    name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) \
                        else None
                    if name in inside:
                        enclosing = {(module, ".".join(scope[:k])) for k in range(1, len(scope) + 1)}
                        if not enclosing & inside[name]:
                            found.append(f"{module}:{child.lineno} {name}() in "
                                         f"{'.'.join(scope) or 'the module'}")
                visit(child, scope, module)

        visit(tree, ())
    return found


def verify_sources() -> dict[str, str]:
    """The papers' code: every module of verify/ but its test modules (the kernel's self-checks call predicates with
    every argument on purpose; they check the kernel, not a paper's claim)."""
    return {_module(path): path.read_text(encoding="utf-8") for path in sorted(VERIFY.rglob("*.py"))
            if not path.name.startswith("test_")}


@pytest.fixture(scope="module")
def claims():
    return load_claims()


def test_every_declared_choice_has_a_builder(claims):
    built = {(paper, choice.name) for paper, choices in CHOICES.items()
             for builder in BUILDERS for choice in builder.choices if choices.get(choice.name) is choice}
    missing = [f"{paper}.{name}" for paper, choices in CHOICES.items() for name in choices
               if (paper, name) not in built]
    assert not missing, f"choices without a builder (register one with builds): {missing}"


def test_no_check_constructs_what_a_choice_shapes_outside_its_builder(claims):
    found = calls_outside_builders(verify_sources())
    assert not found, ("constructed outside the builder of the choice they embody (call the builder, or fix the "
                       "choice on the claim with Fixed): " + "; ".join(found))


def test_every_builder_declares_constructors_that_exist_in_the_code(claims):
    """A builder's ``constructs`` names functions its own body calls, so the scan looks for something real."""
    sources = verify_sources()
    for builder in BUILDERS:
        wrapped = builder.function.__wrapped__
        tree = ast.parse(sources[wrapped.__module__])
        body = next(node for node in ast.walk(tree) if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
                    and node.name == wrapped.__name__)
        called = {(n.func.id if isinstance(n.func, ast.Name) else getattr(n.func, "attr", None))
                  for n in ast.walk(body) if isinstance(n, ast.Call)}
        for constructor in builder.constructs:
            assert constructor.rsplit(".", 1)[-1] in called, f"{builder.name} declares {constructor} but never calls it"


# The scan and the builder's guard can fail: a planted paper with one choice and one builder.

_PLANTED = Choice("planted_release", ("all", "real"), where="a test", meanings={"all": "a", "real": "b"})


@builds(_PLANTED, constructs=("make_release",))
def _planted_builder(*, planted_release):
    return planted_release


_PLANTED_BUILDER = BUILDERS.pop()  # kept out of the registry the audit's tests read


def test_the_scan_finds_a_construction_outside_the_builder():
    source = ("def make_release(kind):\n    return kind\n\n"
              "def _planted_builder(*, planted_release):\n    return make_release(planted_release)\n\n"
              "def a_check():\n    return make_release('real')\n")
    found = calls_outside_builders({_planted_builder.__wrapped__.__module__: source}, [_PLANTED_BUILDER])
    assert len(found) == 1 and "a_check" in found[0] and ":8 " in found[0]


def test_a_builder_reads_its_choice_and_refuses_an_undeclared_explicit_value():
    from ldpspec.reference.registry import PAPERS
    paper = next(iter(PAPERS))
    saved = CHOICES.pop(paper, None)
    try:
        declare_choices(paper, _PLANTED)
        with reading_context(paper, {"planted_release": "real"}) as record:
            assert _planted_builder() == "real"
            assert record.consulted == {"planted_release"}
            with pytest.raises(ValueError, match="neither varies nor fixes planted_release"):
                _planted_builder(planted_release="all")
        with reading_context(paper, {"planted_release": "real"}, {"planted_release"}) as record:
            assert _planted_builder(planted_release="all") == "all"
            assert record.consulted == {"planted_release"}  # built at a value its claim declares: read
        assert _planted_builder(planted_release="all") == "all"  # outside a check: a library call
    finally:
        CHOICES.pop(paper, None)
        if saved is not None:
            CHOICES[paper] = saved


def test_a_fixed_choice_is_declared_with_a_value_of_the_choice_and_a_reason():
    with pytest.raises(ValueError, match="not one of"):
        Fixed(_PLANTED, "why", "other")
    with pytest.raises(ValueError, match="say why"):
        Fixed(_PLANTED, " ", "all")


def builders_bypassed_outside_builders(sources: dict[str, str], builder_names: set, check_names: set) -> list[str]:
    """The functions that reach a builder past its guard (``built``, ``__wrapped__``) and are reached from a check,
    from a module's top level, or from nowhere, rather than only from builders."""
    calls: dict[str, set[str]] = {}  # callee's name -> names of the functions calling it ("" at top level)
    bypassing: set[str] = set()
    for module, source in sources.items():
        if module == "ldpspec.verify.claims":
            continue
        for node in ast.walk(ast.parse(source)):
            if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Module)):
                continue
            caller = getattr(node, "name", "")
            inside = ast.walk(node) if caller else (n for top in ast.iter_child_nodes(node)
                                                     if not isinstance(top, (ast.FunctionDef, ast.AsyncFunctionDef,
                                                                             ast.ClassDef)) for n in ast.walk(top))
            for inner in inside:
                if isinstance(inner, ast.Attribute) and inner.attr == "__wrapped__" and caller != "built":
                    bypassing.add(caller)
                if isinstance(inner, ast.Call):
                    name = getattr(inner.func, "id", getattr(inner.func, "attr", None))
                    if name == "built":
                        bypassing.add(caller)
                    if name:
                        calls.setdefault(name, set()).add(caller)
    todo, seen, bad = list(bypassing), set(), []
    while todo:
        name = todo.pop()
        if name in seen or name in builder_names:
            continue
        seen.add(name)
        callers = calls.get(name, set())
        if not callers or "" in callers:
            bad.append(name)
        todo += [caller for caller in callers if caller]
    return sorted(set(bad) | (seen & check_names))


def test_a_builder_bypassed_is_reached_only_from_builders(claims):
    """``built`` (verify/gu2020/experiments.py) calls a builder's function past its guard, for the cached
    computations a builder runs with the values it has read. Every function that calls it (or reaches ``__wrapped__``)
    must be reached only from builders: followed back through its callers in verify/, every path ends in a builder,
    never in a check or at a module's top level."""
    bad = builders_bypassed_outside_builders(verify_sources(),
                                             {builder.function.__wrapped__.__name__ for builder in BUILDERS},
                                             {claim.check.__name__ for claim in claims.values()})
    assert not bad, f"reach a builder past its guard without a builder above them: {bad}"


def test_the_bypass_scan_finds_a_check_that_calls_built():
    source = ("def _cached(v):\n    return built(solve, box=v)\n\n"
              "def a_builder(*, box):\n    return _cached(box)\n\n"
              "def a_check(settings):\n    return _cached('none')\n")
    assert builders_bypassed_outside_builders({"m": source}, {"a_builder"}, {"a_check"}) == ["a_check"]
    assert builders_bypassed_outside_builders({"m": source.replace("return _cached('none')", "return 1")},
                                              {"a_builder"}, {"a_check"}) == []

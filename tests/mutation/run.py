"""Mutation testing of the kernel and the porting kit, with mutmut 3 (tests/README.md, "Mutation testing").

    python tests/mutation/run.py run [SCOPE ...]   # SCOPE: a file or glob (spec/exact.py, spec/*.py); default: all
    python tests/mutation/run.py run NAME ...      # these mutants again (after adding tests), by name
    python tests/mutation/run.py run --again SCOPE # every mutant of SCOPE not yet killed, again
    python tests/mutation/run.py summary           # per file: mutants, killed, survived, timeouts, equivalent, score
    python tests/mutation/run.py show NAME         # one mutant's diff (mutmut's own commands pass through:
    python tests/mutation/run.py results           #   results, show, browse, tests-for-mutant)

Run from the repository's root, in a venv with the project installed (``pip install -e '.[verify]' mutmut``). mutmut
copies the sources into ``mutants/`` (git-ignored) and never touches the checkout; it runs each mutant in a forked
child, only the tests that reach the mutated function, one mutant at a time (``--max-children 1`` unless given).

Two things make mutmut fit this project, and both are here rather than in pyproject:

* The mapping. pyproject maps ``ldpspec.spec`` onto ``spec/`` (and ``ldpspec.reference`` onto ``reference/``); mutmut
  names a mutant after its path (``spec.exact.x_...``) and its trampoline compares that name with the running
  function's ``__module__``. So the kernel and the mechanisms are imported from ``mutants/`` under their folder names
  (``spec``, ``reference``), and ``ldpspec.spec`` / ``ldpspec.reference`` (and every module under them) are made the
  same module objects: one copy of each module, named as mutmut names it.
* The equivalents. ``tests/mutation/equivalent.toml`` lists the mutants that no test can kill because they compute
  the same thing, each with its mutation (the changed lines, as ``show`` prints them) and the reason. Each run reads
  it: a recorded mutant whose diff is still the recorded one is not run and counts as equivalent; one whose diff has
  changed (the function was edited) is run again and reported as a stale record.
"""

from __future__ import annotations

import fnmatch
import importlib
import importlib.abc
import importlib.util
import os
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
EQUIVALENT = ROOT / "tests" / "mutation" / "equivalent.toml"

# What is mutated, and the tests run against each file: the tests a reader would look in, and only those, so that a
# mutant that survives (and so runs every test that reaches it) costs seconds, not the minutes of the whole suite.
# Left out everywhere: the tests that run the code in a subprocess (a subprocess imports the checkout, not the
# mutants) and the slow simulations of stated power.
KERNEL_CORE = [
    "tests/kernel/test_exact.py",
    "tests/kernel/test_nats_edges.py",
    "tests/kernel/test_numbers_edges.py",
    "tests/kernel/test_parse_edges.py",
    "tests/kernel/test_exponential.py",
    "tests/kernel/test_fast_parse.py",
    "tests/kernel/test_validation.py",
    "tests/kernel/test_notions_known.py",
    "verify/test_kernel_self_checks.py",
]
KERNEL = ["tests/kernel", "verify/test_kernel_self_checks.py"]
SCOPES = {
    "spec/exact.py": KERNEL_CORE,
    "spec/nats.py": KERNEL_CORE,
    "spec/numbers.py": KERNEL_CORE,
    "spec/parse.py": KERNEL_CORE,
    "spec/labels.py": ["tests/kernel/test_validation.py", "tests/kernel/test_rows.py", "tests/kernel/test_classed.py"],
    "spec/*.py": KERNEL,
    "reference/stream.py": [
        "tests/porting/test_stream.py",
        "tests/porting/test_stream_edges.py",
        "tests/porting/test_draws.py",
    ],
    "reference/porting/conform.py": ["tests/porting/test_conform.py"],
    "reference/porting/bits.py": ["tests/porting/test_bits.py"],
}
MUTATED = ["spec/*.py", "reference/stream.py", "reference/porting/conform.py", "reference/porting/bits.py"]


def tests_of(scopes: list[str]) -> list[str]:
    """The tests run against the files of ``scopes``: for each, those of the first entry of ``SCOPES`` it matches."""
    chosen: list[str] = []
    for scope in scopes or MUTATED:
        files = sorted(str(p.relative_to(ROOT)) for p in ROOT.glob(scope)) or [scope]
        for file in files:
            tests = next(t for g, t in SCOPES.items() if fnmatch.fnmatch(file, g))
            chosen += [t for t in tests if t not in chosen]
    return chosen


ALIASES = {"ldpspec.spec": "spec", "ldpspec.reference": "reference"}


class _Alias(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """``ldpspec.spec.x`` is the module ``spec.x`` imported from ``mutants/`` (the same object, not a second copy)."""

    def find_spec(self, fullname, path=None, target=None):
        for long, short in ALIASES.items():
            if fullname == long or fullname.startswith(long + "."):
                real = importlib.import_module(short + fullname[len(long) :])
                return importlib.util.spec_from_loader(fullname, self, is_package=hasattr(real, "__path__"))
        return None

    def create_module(self, spec):
        long = next(k for k in ALIASES if spec.name == k or spec.name.startswith(k + "."))
        return sys.modules[ALIASES[long] + spec.name[len(long) :]]

    def exec_module(self, module):
        pass


def _configure(scopes: list[str]) -> None:
    """mutmut's configuration, set here: there is no ``[tool.mutmut]``, so plain ``mutmut run`` refuses to start
    (without this script's imports every mutant would survive)."""
    from mutmut import configuration

    configuration._guess_source_paths = lambda: ["spec", "reference"]
    cfg = configuration._load_config()
    cfg.resolved_mutated_source_paths = [ROOT / "mutants" / p for p in cfg.source_paths]
    cfg.only_mutate = scopes or MUTATED  # only the scope's files get trampolines: the tests run faster
    cfg.do_not_mutate = ["reference/porting/vectors/*", "reference/porting/example-js/*"]
    cfg.pytest_add_cli_args_test_selection = tests_of(scopes)
    cfg.pytest_add_cli_args = ["-p", "no:cacheprovider", "-p", "no:xdist"]
    # a mutant that makes the tests take four times their time plus 20 s of CPU is taken to hang (mutmut's default,
    # thirty times, spends minutes on each mutant that loops for ever)
    cfg.timeout_multiplier, cfg.timeout_constant = 2.0, 5.0
    cfg.also_copy = [*cfg.also_copy, Path("docs"), Path("verify/test_kernel_self_checks.py")]
    configuration._config = cfg


def _equivalents() -> dict[str, dict]:
    if not EQUIVALENT.exists():
        return {}
    return {entry["name"]: entry for entry in tomllib.loads(EQUIVALENT.read_text(encoding="utf-8"))["mutant"]}


def changed_lines(diff: str) -> str:
    """The lines a mutation removes and adds (``-``/``+``, headers dropped), stripped of indentation."""
    out = []
    for line in diff.splitlines():
        if line.startswith(("---", "+++")) or not line.startswith(("-", "+")):
            continue
        out.append(line[0] + line[1:].strip())
    return "\n".join(out)


def _install_equivalents_filter() -> None:
    """Wrap mutmut's list of mutants to run: a recorded equivalent whose mutation is unchanged is marked skipped."""
    import mutmut.__main__ as main
    from mutmut.mutation.diff_apply import get_diff_for_mutant

    records = _equivalents()
    collect = main.collect_source_file_mutation_data

    def collect_without_equivalents(*, mutant_names):
        mutants, by_path = collect(mutant_names=mutant_names)
        kept = []
        for m, name, result in mutants:
            record = records.get(name)
            if record is not None:
                now = changed_lines(get_diff_for_mutant(name, path=m.path))
                if now == record["diff"].strip():
                    m.exit_code_by_key[name] = 34
                    m.save()
                    continue
                print(f"STALE equivalent record {name}: its mutation is now\n{now}")
            kept.append((m, name, result))
        return kept, by_path

    main.collect_source_file_mutation_data = collect_without_equivalents


def _forget_not_killed() -> None:
    """Mark every mutant of the scope not killed as not yet run, so that the run that follows runs it again."""
    from mutmut.mutation.data import SourceFileMutationData
    from mutmut.stats import status_by_exit_code
    from mutmut.utils.file_utils import walk_mutatable_files

    for path in walk_mutatable_files():
        m = SourceFileMutationData(path=path)
        m.load()
        for name, code in m.exit_code_by_key.items():
            if status_by_exit_code[code] != "killed":
                m.exit_code_by_key[name] = None
        m.save()


def summary() -> None:
    """Per file: the mutants, how each ended, and the score: killed over the mutants not equivalent and run. A mutant
    that times out (loops for ever) or crashes the test process (unbounded recursion) is caught too: ``caught``
    counts them with the killed ones."""
    from mutmut.mutation.data import SourceFileMutationData
    from mutmut.stats import status_by_exit_code
    from mutmut.utils.file_utils import walk_mutatable_files

    records = _equivalents()
    columns = ["mutants", "killed", "timeout", "crashed", "survived", "no tests", "equiv", "unrun", "score", "caught"]
    print(f"{'file':30}" + "".join(f"{c:>9}" for c in columns))
    for path in sorted(walk_mutatable_files()):
        m = SourceFileMutationData(path=path)
        m.load()
        if not m.exit_code_by_key:
            continue
        counts: dict[str, int] = {}
        for name, code in m.exit_code_by_key.items():
            status = "equivalent" if code == 34 and name in records else status_by_exit_code[code]
            counts[status] = counts.get(status, 0) + 1
        total = len(m.exit_code_by_key)
        killed, timeout, crashed = counts.get("killed", 0), counts.get("timeout", 0), counts.get("segfault", 0)
        judged = total - counts.get("equivalent", 0) - counts.get("not checked", 0)
        row = [total, killed, timeout, crashed, counts.get("survived", 0), counts.get("no tests", 0)]
        row += [counts.get("equivalent", 0), counts.get("not checked", 0)]
        row += [f"{100 * killed / judged:.1f}%" if judged else "-"]
        row += [f"{100 * (killed + timeout + crashed) / judged:.1f}%" if judged else "-"]
        print(f"{str(path):30}" + "".join(f"{c:>9}" for c in row))


def main(argv: list[str]) -> None:
    os.chdir(ROOT)
    # the checkout itself must not be importable as ``spec`` or ``tests``: mutmut puts ``mutants/`` first
    sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() not in (ROOT, ROOT / "tests" / "mutation")]
    sys.meta_path.insert(0, _Alias())
    # mutmut's trampolines add frames to every call: the parser's deepest nesting (spec.parse.MAX_NESTING) needs room
    sys.setrecursionlimit(20_000)
    run = argv[:1] == ["run"]
    args, children = argv[1:], "1"  # one mutant at a time unless told
    if run and "--max-children" in args:
        at = args.index("--max-children")
        children = args[at + 1]
        del args[at : at + 2]
    # a mutant's name (spec.nats.xǁNatsǁsign__mutmut_4, as `results` lists them) runs that mutant again, in its file
    names = [a for a in args if run and "__mutmut_" in a]
    scopes = [a for a in args if run and not a.startswith("-") and a not in names]
    scopes += sorted({name.split(".x")[0].replace(".", "/") + ".py" for name in names} - set(scopes))
    for scope in scopes:
        if not any(fnmatch.fnmatch(scope, g) or fnmatch.fnmatch(g, scope) for g in MUTATED):
            sys.exit(f"{scope}: not in the mutated files {MUTATED}")
        if not any(ROOT.glob(scope)):
            sys.exit(f"{scope}: no such file")
    _configure(scopes)
    if argv[:1] == ["summary"]:
        summary()
        return
    from mutmut.__main__ import cli

    if run:
        (ROOT / "mutants" / "verify").mkdir(parents=True, exist_ok=True)  # for the self-checks copied there
        # which tests reach which function is found afresh on every run: mutmut's update of it for tests added since
        # the last run replaced, rather than added to, what a function was reached by (a mutant then ran against the
        # new tests only, and survived them)
        (ROOT / "mutants" / "mutmut-stats.json").unlink(missing_ok=True)
        _install_equivalents_filter()
        rest = [a for a in args if a.startswith("-")]
        if "--again" in rest:  # every mutant of the scope not killed, after tests were added or changed
            rest.remove("--again")
            _forget_not_killed()
        # mutmut overwrites with a plain copy each file outside the run's scope, and keeps a copy newer than its source
        # as it is: a file of this scope left plain by an earlier run of another scope is removed, to be mutated again
        for scope in scopes:
            for file in (ROOT / "mutants").glob(scope):
                if "mutmut generated" not in file.read_text(encoding="utf-8"):
                    file.unlink()
        argv = ["run", "--max-children", children, *rest, *names]
    try:
        cli.main(argv, prog_name="tests/mutation/run.py", standalone_mode=False)
    finally:
        if run:
            summary()


if __name__ == "__main__":
    main(sys.argv[1:])

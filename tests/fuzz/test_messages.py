"""No Python repr leaks into a message: a seeded run of a few hundred hostile inputs (malformed channel files, hostile
option values) through the command line, in this process, for ``check``, ``profile``, ``estimate``, ``channel`` and
``idue solve``. Every message must show the values as the user wrote them (``spec.value_text``): never
``Decimal('0.5')``, ``Fraction(1, 3)``, ``mpf('0.5')`` or ``<object at 0x...>``.

The run is reproducible (one seed) and short; ``tests/fuzz/test_fuzz.py`` is the long, Hypothesis-driven fuzzing of
the front door's contract, which this run keeps too. A leak is reported with the file that raised it."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from ldpspec.reference.registry import MECHANISMS
from ldpspec.reference.tools import cli
from ldpspec.reference.tools.cli import EXIT
from ldpspec.spec import SpecError
from ldpspec.spec.notions import NOTIONS
from tests.fuzz.contract import NASTY_TEXT, run, seed_files
from tests.support import ROOT

LEAKS = ("Decimal(", "Fraction(", "mpf(", "<object", "Exact(", "Nats(", "np.float64(", "array(")
"""The start of a Python repr: what a message must never show a user."""

SEED = 35
RUNS = 200

HOSTILE_JSON = ("0.5", "1.50", "-0.0", "2.0", "1e999999999", "0e999999999", "-1e-999999999", "[0.5, [1, 2.5]]",
                '["a", 0.5]', '{"a": 0.5}', '{"0.5": [1.5]}', "[[0.5, 0.5], [0.5]]", "[null]", "[]", "{}", "null",
                "true", '"x"', '"0.5"', '"log(2)"', "[0.5, 0.5]", "[1, 1]", "3", "-1", "[[0.5, 1.5]]",
                "[1e999999999, 1]", '[[0.5, "a"], [1.5, "a"]]', "12345678901234567890.5")
"""JSON values to put anywhere in a file: numbers a file reads as Decimals (where a repr would show), nested and of
every shape."""

HOSTILE_OPTIONS = (*HOSTILE_JSON, *NASTY_TEXT[:70])


def _replace_somewhere(document, rng: random.Random) -> str:
    """The document's text with one value (a leaf or a whole list or object, not the document) replaced by a hostile
    JSON value."""
    places = []

    def walk(node, path):
        if path:
            places.append(path)
        if isinstance(node, dict):
            for key, value in node.items():
                walk(value, (*path, key))
        elif isinstance(node, list):
            for index, value in enumerate(node):
                walk(value, (*path, index))

    walk(document, ())
    path = rng.choice(places)
    node = document
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = "\u0000hostile\u0000"
    return json.dumps(document).replace(json.dumps("\u0000hostile\u0000"), rng.choice(HOSTILE_JSON))


def _inputs(tmp_path, rng: random.Random):
    """Hostile command lines, drawn from one seed: ``(argv, file text or None)``."""
    seeds = seed_files()
    names = sorted(seeds)
    direct = sorted(name for name, declaration in MECHANISMS.items() if declaration.direct_encoding)
    for _ in range(RUNS):
        name = rng.choice(names)
        text, notion = seeds[name]
        for _ in range(rng.choice((1, 1, 2))):
            text = _replace_somewhere(json.loads(text), rng)
        path = str(tmp_path / "hostile.json")
        command = rng.choice(("check", "check", "profile", "estimate", "channel", "idue"))
        if command == "check":
            chosen = NOTIONS[rng.choice([notion, notion, *sorted(NOTIONS)])]
            argv = ["check", path, "--notion", chosen.name]
            if chosen.parameters and rng.random() < 0.5:
                argv += [rng.choice(chosen.parameters).option, rng.choice(HOSTILE_OPTIONS)]
        elif command == "profile":
            argv = ["profile", path]
        elif command == "estimate":
            counts = rng.choice(("[3, 1]", "[1, 2, 3]", "[1, 1, 1, 1]", *HOSTILE_OPTIONS[:12]))
            argv = (["estimate", "--counts", counts, "--channel", path] if rng.random() < 0.6 else
                    ["estimate", "--counts", counts, rng.choice(direct), "--budgets", rng.choice(HOSTILE_OPTIONS)])
        elif command == "channel":
            declaration = MECHANISMS[rng.choice(sorted(MECHANISMS))]
            options = dict(declaration.example())
            if declaration.parameters:
                options[rng.choice(declaration.parameters).name] = rng.choice(HOSTILE_OPTIONS)
            argv = ["channel", declaration.name, *(f"--{key}={value}" for key, value in options.items())]
        else:
            option = rng.choice(("--budgets", "--levels", "--levels", "--model", "--notion", "--box"))
            argv = ["idue", "solve", option, rng.choice(HOSTILE_OPTIONS)]
            if option not in ("--budgets", "--levels"):
                argv += ["--levels", "[[1, 2], [2, 3]]"]
        yield argv, text if path in argv else None


@pytest.fixture(scope="module")
def outcomes(tmp_path_factory) -> list[tuple[list, str | None, int, str]]:
    """``(argv, file text, exit status, standard error)`` of every input."""
    tmp_path = tmp_path_factory.mktemp("hostile")
    results = []
    for argv, text in _inputs(tmp_path, random.Random(SEED)):
        if text is not None:
            (tmp_path / "hostile.json").write_text(text, encoding="utf-8")
        status, _, err = run(argv)
        results.append((argv, text, status, err))
    return results


def _origin(argv) -> str:
    """The file (relative to the repository) that raised the message ``argv`` ends with: the raise of the innermost
    error in its chain whose message still holds the leak (a file reader that words an error again keeps the error it
    caught as its context)."""
    try:
        cli.run(argv)
    except SpecError as error:
        chain = [error]
        while isinstance(chain[-1].__context__, SpecError):
            chain.append(chain[-1].__context__)
        traceback = [e for e in chain if any(leak in str(e) for leak in LEAKS)][-1].__traceback__
        while traceback.tb_next is not None:
            traceback = traceback.tb_next
        return Path(traceback.tb_frame.f_code.co_filename).resolve().relative_to(ROOT).as_posix()
    raise AssertionError(f"ldpspec {' '.join(argv)} no longer ends with an error")


def leaks(outcomes) -> list[tuple[list, str, str]]:
    """``(argv, the file that raised it, message)`` of every message that shows a Python repr."""
    found = []
    for argv, text, _, err in outcomes:
        if not any(leak in err for leak in LEAKS):
            continue
        if text is not None:  # the file this input ran on, written again to find where its message was raised
            Path(argv[argv.index("--channel") + 1] if "--channel" in argv else argv[1]).write_text(text, "utf-8")
        found.append((argv, _origin(argv), err.strip()))
    return found


def test_no_message_shows_a_python_repr(outcomes):
    found = leaks(outcomes)
    assert not found, "\n".join(f"ldpspec {' '.join(argv)[:200]}\n    {origin}: {err[:300]}"
                                for argv, origin, err in found[:10])


def test_a_repr_in_a_message_is_found(monkeypatch):
    """The run can fail: with ``!r`` put back into a message of the command line, its leak is found there."""
    monkeypatch.setattr(cli, "value_text", lambda value, limit=80: repr(value))
    argv = ["estimate", "iprr", "--budgets", "[1, 2]", "--counts", "[[0.5], 1]"]
    status, _, err = run(argv)
    assert status == EXIT["bad input"] and "Decimal(" in err
    assert leaks([(argv, None, status, err)]) == [(argv, "reference/tools/cli.py", err.strip())]


def test_every_input_ends_as_the_front_door_promises(outcomes):
    """Exit 0, 1, 2 or 4, never 3 (a bug); and the run reaches both refusals and answers, so that it tests
    messages and is not refused wholesale."""
    statuses = {status for _, _, status, _ in outcomes}
    assert EXIT["bug"] not in statuses, [(argv, err) for argv, _, status, err in outcomes
                                         if status == EXIT["bug"]][:3]
    assert EXIT["bad input"] in statuses and statuses & {EXIT["holds"], EXIT["does not hold"]}
    assert len(outcomes) == RUNS

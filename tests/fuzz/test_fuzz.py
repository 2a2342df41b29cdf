"""Fuzzing the front door: mutated channel files, hostile command lines and junk through the Python API.

Each test draws its inputs with Hypothesis and checks the contract of ``tests.fuzz.contract``. The default run is a
few hundred inputs per test (CI); ``pytest tests/fuzz --fuzz 50000`` is the long run.
"""

from __future__ import annotations

import json
import string

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ldpspec import spec
from ldpspec.reference.registry import MECHANISMS
from ldpspec.reference.tools.cli import build_parser
from ldpspec.spec.notions import NOTIONS
from tests.fuzz.contract import NASTY_TEXT, TALLY, assert_contract, seed_files
from tests.support import fuzz_examples

RAW = "\u0000raw\u0000"
"""A placeholder replaced by raw JSON text after serialising (numbers JSON cannot hold as Python values)."""

RAW_JSON = ("1e999999", "-1e999999", "1E400", "9" * 5000, "-" + "9" * 4400, "[" * 2000 + "]" * 2000,
            "NaN", "Infinity", "-Infinity", "0.1", "1e-400", "{}", "[]", '"\\ud800"')

json_values = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(-(10**30), 10**30), st.sampled_from(NASTY_TEXT),
              st.floats(allow_nan=True, allow_infinity=True), st.text(string.printable, max_size=8),
              st.just(RAW)),
    lambda children: st.one_of(st.lists(children, max_size=4), st.dictionaries(st.text(max_size=6), children,
                                                                               max_size=3)),
    max_leaves=8)


def _paths(node, path=()):
    yield path
    if isinstance(node, dict):
        for key, value in node.items():
            yield from _paths(value, (*path, key))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from _paths(value, (*path, index))


def _get(node, path):
    for key in path:
        node = node[key]
    return node


BUDGETS = ("0", "1", "0.5", "log(2)", "log(3)", "log(3/2)", "1e300", "1e-30", "exp(1)", "1/3",
           "1.098612288668109691395245236922525704647", "-1", "log(0.5)", "1e2001", "nan")
"""Budgets to write into a privacy section: ties, near-ties, extremes and a few invalid ones."""

AMOUNTS = ("1/1000", "1e-40", "exp(-50)", "1/3", "1/(exp(1)+2)", "0.25")
"""Probability mass to move within a row: changes the ratios, keeps the row sum."""


def _shift(document, draw) -> None:
    """Move mass between two entries of a row, or between two pieces of a density (a valid channel with other
    ratios, or a negative entry)."""
    densities = document.get("densities") if isinstance(document, dict) else None
    if isinstance(densities, list) and densities and draw(st.booleans()):
        _shift_density(densities[draw(st.integers(0, len(densities) - 1))], draw)
        return
    classes = document.get("classes") if isinstance(document, dict) else None
    if isinstance(classes, list) and classes and isinstance(classes[0], dict):  # format 3: within a class's pair
        entry = classes[draw(st.integers(0, len(classes) - 1))]
        pair = entry.get(draw(st.sampled_from(sorted(entry)))) if isinstance(entry, dict) and entry else None
        if isinstance(pair, list) and len(pair) == 2:
            amount = draw(st.sampled_from(AMOUNTS))
            pair[0], pair[1] = f"({pair[0]}) - ({amount})", f"({pair[1]}) + ({amount})"
        return
    rows = document.get("probabilities") if isinstance(document, dict) else None
    if not isinstance(rows, list) or not rows or not isinstance(rows[0], list) or len(rows[0]) < 2:
        return
    row = rows[draw(st.integers(0, len(rows) - 1))]
    if not isinstance(row, list) or len(row) < 2:
        return
    i, j = draw(st.lists(st.integers(0, len(row) - 1), min_size=2, max_size=2, unique=True))
    amount = draw(st.sampled_from(AMOUNTS))
    row[i], row[j] = f"({row[i]}) - ({amount})", f"({row[j]}) + ({amount})"


def _shift_density(density, draw) -> None:
    """Move mass between two pieces of a piecewise-constant density (format 2): each value changes by the amount
    divided by its piece's length, so the integral is kept."""
    if not isinstance(density, dict):
        return
    points, values = density.get("breakpoints"), density.get("values")
    if not (isinstance(points, list) and isinstance(values, list) and len(values) >= 2
            and len(points) == len(values) + 1):
        return
    i, j = draw(st.lists(st.integers(0, len(values) - 1), min_size=2, max_size=2, unique=True))
    amount = draw(st.sampled_from(AMOUNTS))
    width = [f"(({points[k + 1]}) - ({points[k]}))" for k in (i, j)]
    values[i], values[j] = f"({values[i]}) - ({amount})/{width[0]}", f"({values[j]}) + ({amount})/{width[1]}"


def _privacy(document, draw) -> None:
    """Rewrite a budget of the privacy section."""
    section = document.get("privacy") if isinstance(document, dict) else None
    if not isinstance(section, dict) or not section:
        return
    key = draw(st.sampled_from(sorted(section)))
    if isinstance(section[key], list) and section[key]:
        section[key][draw(st.integers(0, len(section[key]) - 1))] = draw(st.sampled_from(BUDGETS + (None,)))
    else:
        section[key] = draw(st.sampled_from(BUDGETS))


@st.composite
def mutated_files(draw) -> bytes:
    """A valid channel file with one to three mutations: within its meaning (mass moved within a row, budgets
    rewritten) or of its JSON tree (a node replaced, deleted, inserted, wrapped or duplicated), then
    perhaps of its bytes."""
    seeds = seed_files()
    text, notion = seeds[draw(st.sampled_from(sorted(seeds)))]
    document = json.loads(text)
    raw_text = draw(st.sampled_from(RAW_JSON))
    # Half the files keep their structure (mass moved, budgets rewritten), so that verdicts are fuzzed too, not only
    # the reader's refusals.
    operations = ["shift", "privacy"]
    if draw(st.booleans()):
        operations += ["replace", "delete", "insert", "wrap", "duplicate"]
    for _ in range(draw(st.integers(1, 3))):
        operation = draw(st.sampled_from(operations))
        if operation == "shift":
            _shift(document, draw)
            continue
        if operation == "privacy":
            _privacy(document, draw)
            continue
        paths = [path for path in _paths(document) if path] or [()]
        path = draw(st.sampled_from(paths))
        if not path:
            document = draw(json_values) if operation == "replace" else [document]
            continue
        parent, key = _get(document, path[:-1]), path[-1]
        if operation == "replace":
            parent[key] = draw(json_values)
        elif operation == "delete":
            del parent[key]
        elif operation == "wrap":
            parent[key] = [parent[key]]
        elif operation == "insert" and isinstance(parent, list):
            parent.insert(key, draw(json_values))
        elif isinstance(parent, list):  # duplicate
            parent.insert(key, parent[key])
        else:
            parent[key + "_"] = parent[key]
    text = json.dumps(document).replace(json.dumps(RAW), raw_text)
    data = text.encode("utf-8", "surrogatepass")
    if all(draw(st.lists(st.booleans(), min_size=3, max_size=3))):  # one file in eight
        position = draw(st.integers(0, len(data)))
        data = draw(st.sampled_from([data[:position], data[:position] + b"\xff" + data[position:],
                                     data[:position] + draw(st.binary(max_size=3)) + data[position:]]))
    return data, draw(st.sampled_from([notion, notion, *sorted(NOTIONS)]))


def _options(notion_name: str):
    """Some of a notion's options, with hostile values; the rest come from the file."""
    parameters = NOTIONS[notion_name].parameters
    hostile = st.lists(st.tuples(st.sampled_from([p.option for p in parameters] + ["--max-work", "--max-entries"]),
                                 st.sampled_from(NASTY_TEXT)), min_size=1, max_size=2)
    return st.one_of(st.just([]), hostile)  # half the checks read every parameter from the file


@settings(max_examples=fuzz_examples(150), deadline=None, database=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow,
                                 HealthCheck.data_too_large])
@given(mutated_files(), st.data())
def test_mutated_channel_files(tmp_path, mutated, data):
    """The notion is most often the one the file was written for, so that most inputs reach a verdict."""
    data_bytes, notion = mutated
    path = tmp_path / "mutated.json"
    path.write_bytes(data_bytes)
    assert_contract(["profile", path])
    options = [part for option in data.draw(_options(notion)) for part in option]
    assert_contract(["check", path, "--notion", notion, *options])


def _command_lines():
    """Hostile command lines: every subcommand, with its own options, unknown ones and hostile values."""
    parser = build_parser()
    subcommands = {"list": ["list"], "profile": ["profile"], "check": ["check"], "idue": ["idue", "solve"]}
    subcommands.update({f"channel {name}": ["channel", name] for name in MECHANISMS})
    choices = parser._subparsers._group_actions[0].choices  # noqa: SLF001 - the options each subcommand declares

    def options_of(words):
        sub = choices[words[0]]
        if len(words) > 1:
            sub = sub._subparsers._group_actions[0].choices[words[1]]  # noqa: SLF001
        return sorted(option for action in sub._actions for option in action.option_strings  # noqa: SLF001
                      if option not in ("-h", "--help"))

    @st.composite
    def command_line(draw):
        words = list(subcommands[draw(st.sampled_from(sorted(subcommands)))])
        options = options_of(words) + ["--bogus"]
        argv = list(words)
        if words[0] in ("profile", "check"):
            argv.append(str(draw(st.sampled_from([None, *sorted(seed_files())])) or "absent.json"))
        for _ in range(draw(st.integers(0, 4))):
            argv += [draw(st.sampled_from(options)), draw(st.sampled_from(NASTY_TEXT))]
        return argv

    return command_line()


@settings(max_examples=fuzz_examples(150), deadline=None, database=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(_command_lines())
def test_hostile_command_lines(tmp_path, monkeypatch, argv):
    for name, (text, _) in seed_files().items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    assert_contract(argv)


junk = st.one_of(st.none(), st.booleans(), st.integers(-5, 10**20), st.floats(allow_nan=True, allow_infinity=True),
                 st.sampled_from(NASTY_TEXT), st.lists(st.sampled_from(NASTY_TEXT + (1, 2, None)), max_size=3),
                 st.dictionaries(st.sampled_from(["a", "b", 0, 1]), st.sampled_from(NASTY_TEXT + (1, None)),
                                 max_size=3),
                 st.sets(st.integers(0, 3), max_size=3), st.just(b"10"), st.just(object()),
                 st.just(iter([1, 2])), st.just(spec.Channel([0, 1], [0, 1], [[1, 0], [0, 1]])))


@settings(max_examples=fuzz_examples(300), deadline=None, database=None)
@given(st.sampled_from(sorted(NOTIONS)), st.lists(junk, min_size=12, max_size=12))
def test_junk_through_the_python_api(notion, values):
    """Every predicate, loss function, the channel constructor and every mechanism, called with the right number of
    arguments of the wrong kinds: a value or ``SpecError`` (a wrong number of arguments is Python's own TypeError)."""
    arity = 1 + len(NOTIONS[notion].parameters)
    calls = [lambda: NOTIONS[notion].predicate(*values[:arity]),
             lambda: spec.Channel(*values[:3]),
             lambda: spec.ldp_epsilon(values[0]),
             lambda: spec.loss_profile(values[0]),
             lambda: spec.posterior_leakage_range(values[0])]
    for declaration in MECHANISMS.values():
        keywords = {p.keyword: value for p, value in zip(declaration.parameters, values)}
        calls.append(lambda declaration=declaration, keywords=keywords: declaration.build(**keywords))
    for call in calls:
        try:
            call()
            TALLY[("api", "returned")] += 1
        except spec.SpecError:
            TALLY[("api", "SpecError")] += 1

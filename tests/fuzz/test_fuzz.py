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
from ldpspec.reference.porting.vectors import VECTORS
from ldpspec.reference.registry import MECHANISMS
from ldpspec.reference.tools.cli import build_parser
from ldpspec.spec.notions import NOTIONS
from tests.fuzz.contract import NASTY_TEXT, TALLY, assert_contract, seed_files
from tests.support import fuzz_examples

RAW = "\u0000raw\u0000"
"""A placeholder replaced by raw JSON text after serialising (numbers JSON cannot hold as Python values)."""

RAW_JSON = ("1e999999", "-1e999999", "1E400", "9" * 5000, "-" + "9" * 4400, "[" * 2000 + "]" * 2000,
            "NaN", "Infinity", "-Infinity", "0.1", "1e-400", "{}", "[]", '"\\ud800"',
            "1e99999999999999999999", "-1E+99999999999999999999", "1e-99999999999999999999", "1.5")
"""Raw JSON text: numbers JSON cannot hold as Python values, beyond the decimal module's range (an exponent of 20
digits), and a non-integer number (a label read as a Decimal)."""

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
           "1.098612288668109691395245236922525704647", "-1", "log(0.5)", "1e2001", "nan",
           "1e1999", "1e-1999", "log(2)/12345678901234567890", "12345678901234567890*log(2)", "10000*log(3)",
           "log(2)/10000", "log(1e2000)", "log(1 + 1e-1999)", "1/12345678901234567890")
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
    subcommands = {"list": ["list"], "profile": ["profile"], "check": ["check"], "idue": ["idue", "solve"],
                   "estimate": ["estimate"], "conform": ["conform"]}
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
        if words[0] == "conform":
            argv.append(draw(st.sampled_from(["answers.json", "absent.json", *sorted(seed_files())[:2]])))
        if words[0] == "estimate":  # a direct encoding with its example, or a channel file
            name = draw(st.sampled_from(DIRECT + [None]))
            argv += ["--counts", draw(st.sampled_from(["[3, 5, 2]", *NASTY_TEXT]))]
            argv += ([name, *(f"--{k}={v}" for k, v in MECHANISMS[name].example().items())] if name else
                     ["--channel", draw(st.sampled_from(sorted(seed_files())))])
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
    (tmp_path / "answers.json").write_text(json.dumps(seed_answers()), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    assert_contract(argv)


DIRECT = sorted(name for name, declaration in MECHANISMS.items() if declaration.direct_encoding)


def seed_answers() -> dict:
    """A conforming answers file: GRR's example parameter vector (its decimals) and a few releases of its sampler."""
    test = json.loads((VECTORS / "parameters" / "grr.json").read_text(encoding="utf-8"))["tests"][0]
    return {"format": "ldpspec-answers/2", "port": "fuzz", "answers": ["parameters", "samples"],
            "parameters": [{"mechanism": "grr", "id": test["id"], "result": test["result"],
                            "probabilities": test["channel"]["decimal"]}],
            "samples": [{"mechanism": "grr", "options": {"epsilon": "1", "d": "3"}, "input": 0,
                         "releases": [0, 0, 1, 0, 2, 0, 0, 1, 0, 0]}]}


HOSTILE_NUMBERS = ("1e999999999", "-1e999999999", "1e-999999999", "nan", "inf", "1/3", "", "9" * 5000, RAW)
"""What a port might write for a number: text a double cannot hold, or raw JSON beyond the decimal range."""


@settings(max_examples=fuzz_examples(60), deadline=None, database=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(st.data())
def test_hostile_answers_files(tmp_path, data):
    """conform on an answers file with a number (or a node) replaced: a probability of "1e999999999" made it build an
    integer of a billion digits."""
    document = seed_answers()
    paths = [path for path in _paths(document) if path]
    path = data.draw(st.sampled_from(paths))
    parent, key = _get(document, path[:-1]), path[-1]
    parent[key] = data.draw(st.one_of(st.sampled_from(HOSTILE_NUMBERS), json_values))
    text = json.dumps(document).replace(json.dumps(RAW), data.draw(st.sampled_from(RAW_JSON)))
    answers = tmp_path / "answers.json"
    answers.write_text(text, encoding="utf-8")
    options = data.draw(st.sampled_from([[], ["--alpha", "1e-320"], ["--alpha", "1e-400"],
                                         ["--relative-error", "1e-300"], ["--alpha", "nan"]]))
    assert_contract(["conform", answers, *options])


LARGE = (10 ** 5, 2 ** 64, 10 ** 40)
"""Sizes for a mechanism's integer parameters, far beyond every size limit: each must be refused before the work."""


def _large_options(draw) -> list[str]:
    """A registered mechanism with its example parameters, one or two of them made large: an integer parameter a
    large number, a list parameter a long list (of the example's first entry)."""
    name = draw(st.sampled_from(sorted(MECHANISMS)))
    declaration = MECHANISMS[name]
    options = dict(declaration.example())
    parameters = {p.name: p for p in declaration.parameters}
    for key in draw(st.lists(st.sampled_from(sorted(parameters)), min_size=1, max_size=2, unique=True)):
        parameter = parameters[key]
        if parameter.kind == "integer":
            options[key] = str(draw(st.sampled_from(LARGE)))
        elif parameter.kind in ("budgets", "levels", "numbers", "labels") and key in options:
            entries = json.loads(options[key])
            if entries:
                options[key] = json.dumps([entries[k % len(entries)] for k in range(10 ** 4)])
    limits = draw(st.sampled_from([[], [], ["--max-entries", "1000"]]))  # a limit raised allows the work
    return ["channel", name, *(f"--{k}={v}" for k, v in options.items()), *limits]


@settings(max_examples=fuzz_examples(80), deadline=None, database=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_every_mechanism_at_large_sizes(data):
    """Every ``channel`` mechanism with a size far beyond its limit: refused (exit 2, naming the limit) before the
    work; RAPPOR-Sample at d = 100,000 listed its sets first and ran out of memory."""
    argv = _large_options(data.draw)
    status = assert_contract(argv)
    assert status in (0, 2)


NUMBER_LABELS = ("1.5", "-0.25", "1e-30", "2.5e300", "0.1", "-0.0", "3.0", "1E+2", "7.25")
"""Labels written as JSON numbers that are not integers: read as Decimals, which ``json`` cannot write."""


def _relabel(value, names: dict):
    """``value`` (a label) with every atomic label replaced by its number (``names``: label JSON -> raw text)."""
    if isinstance(value, list):
        return [_relabel(part, names) for part in value]
    key = json.dumps(value)
    if key not in names:
        names[key] = f"\u0000label{len(names)}\u0000"
    return names[key]


LABEL_KEYS = ("sensitive_inputs", "protected_outputs", "sensitive_items", "non_sensitive_items", "policy")


@st.composite
def number_labelled_files(draw):
    """A seed channel file (matrix or densities) whose labels are all JSON numbers that are not integers (each atomic
    label its own), with the notion it was written for, so that the verdict and its parameters carry them."""
    seeds = seed_files()
    matrices = sorted(name for name in seeds if '"format": "ldpspec-channel/3"' not in seeds[name][0])
    name = draw(st.sampled_from(matrices))
    text, notion = seeds[name]
    document = json.loads(text)
    names: dict = {}
    for key in ("inputs", "outputs", "component_order"):
        if key in document:
            document[key] = [_relabel(label, names) for label in document[key]]
    for density in document.get("densities", []):
        density["input"], density["label"] = _relabel(density["input"], names), _relabel(density["label"], names)
    for key in LABEL_KEYS:
        if isinstance(document.get("privacy", {}).get(key), list):
            document["privacy"][key] = [_relabel(label, names) for label in document["privacy"][key]]
    document.pop("metadata", None)
    pool = draw(st.permutations(NUMBER_LABELS))
    text = json.dumps(document)
    for k, placeholder in enumerate(names.values()):
        number = pool[k] if k < len(pool) else f"{k}.5"
        text = text.replace(json.dumps(placeholder), number)
    return text, notion


@settings(max_examples=fuzz_examples(60), deadline=None, database=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(number_labelled_files(), st.booleans())
def test_number_labels_under_every_notion(tmp_path, labelled, full):
    """Every notion (set-valued ones included) on a channel whose labels are non-integer numbers: the verdict's
    witness and parameters are written as JSON (a Decimal label ended an SULDP verdict half printed, exit 3)."""
    text, notion = labelled
    path = tmp_path / "labelled.json"
    path.write_text(text, encoding="utf-8")
    assert_contract(["check", path, "--notion", notion, *(["--full"] if full else [])])
    assert_contract(["profile", path, *(["--full"] if full else [])])


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


HUGE_JSON = ("1e99999999999999999999", "-1E+99999999999999999999", "1e-99999999999999999999",
             "0.5e123456789012345678901")
"""JSON numbers whose exponent the decimal module does not read at all (it raised InvalidOperation: exit 3)."""


@st.composite
def files_with_a_huge_number(draw):
    """A seed channel file with one of its values (a probability, a budget, a label, a breakpoint...) replaced by a
    JSON number beyond the decimal range."""
    seeds = seed_files()
    text, notion = seeds[draw(st.sampled_from(sorted(seeds)))]
    document = json.loads(text)
    leaves = [path for path in _paths(document) if path and not isinstance(_get(document, path), (dict, list))]
    path = draw(st.sampled_from(leaves))
    _get(document, path[:-1])[path[-1]] = RAW
    return json.dumps(document).replace(json.dumps(RAW), draw(st.sampled_from(HUGE_JSON))), notion


@settings(max_examples=fuzz_examples(40), deadline=None, database=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(files_with_a_huge_number())
def test_a_number_beyond_the_decimal_range_anywhere_in_a_file(tmp_path, mutated):
    text, notion = mutated
    path = tmp_path / "huge.json"
    path.write_text(text, encoding="utf-8")
    assert assert_contract(["check", path, "--notion", notion]) == 2  # refused, where the number is
    assert assert_contract(["profile", path]) == 2


def _list_options():
    """Every option that takes a JSON list (of notions, mechanisms and estimate), with the command it belongs to."""
    commands = []
    for notion in NOTIONS.values():
        for parameter in notion.parameters:
            if parameter.kind in ("budgets", "input-budgets", "levels", "labels", "label-pairs", "numbers"):
                commands.append((("check", "grr3.json", "--notion", notion.name), parameter.option))
    for name, declaration in MECHANISMS.items():
        example = declaration.example()
        for parameter in declaration.parameters:
            if parameter.kind in ("budgets", "levels", "labels", "numbers"):
                others = [f"--{key}={value}" for key, value in example.items() if key != parameter.name]
                commands.append((("channel", name, *others), parameter.option))
    commands.append((("estimate", "grr", "--epsilon", "1", "--d", "3"), "--counts"))
    commands.append((("check", "grr3.json", "--notion", "ldp", "--rows", "remainder"), "--remainder-to"))
    return commands


@settings(max_examples=fuzz_examples(40), deadline=None, database=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(st.sampled_from(_list_options()), st.sampled_from(HUGE_JSON), st.sampled_from(["[{}]", "[1, {}]", "{}",
                                                                                      "[[{}, 1]]"]))
def test_option_values_beyond_the_decimal_range(tmp_path, monkeypatch, command, huge, shape):
    (tmp_path / "grr3.json").write_text(seed_files()["grr3.json"][0], encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    words, option = command
    assert assert_contract([*words, option, shape.format(huge)]) == 2


BUDGET_ENDS = ("1e1999", "1e-1999", "1e2000", "1/12345678901234567890", "log(2)/12345678901234567890",
               "12345678901234567890*log(2)", "log(2)/10000", "10000*log(3)", "log(1e2000)", "log(1e2000)/9999",
               "9999*log(1e2000)", "log(1 + 1e-1999)", "log(exp(1e1999))", "log(2)/9973")
"""Budgets at the ends of every form: huge and tiny decimals and fractions, and log(x)/r with huge or tiny x and r."""


def _budget_commands():
    """Every place a budget is typed: each notion's budget options (on a file of three inputs) and each mechanism's
    (its other parameters as in its example)."""
    commands = []
    for notion in NOTIONS.values():
        for parameter in notion.parameters:
            if parameter.kind == "budget":
                commands.append((("check", "grr3.json", "--notion", notion.name), parameter.option, "{}"))
            elif parameter.kind in ("budgets", "input-budgets"):
                commands.append((("check", "grr3.json", "--notion", notion.name), parameter.option,
                                 '["{}", 1, "log(2)"]'))
    for name, declaration in MECHANISMS.items():
        example = declaration.example()
        for parameter in declaration.parameters:
            others = [f"--{key}={value}" for key, value in example.items() if key != parameter.name]
            if parameter.kind == "budget":
                commands.append((("channel", name, *others), parameter.option, "{}"))
            elif parameter.kind == "budgets" and parameter.name in example:
                size = len(json.loads(example[parameter.name]))
                commands.append((("channel", name, *others), parameter.option,
                                 json.dumps(["{}", *["1"] * (size - 1)])))
    return commands


@settings(max_examples=fuzz_examples(60), deadline=None, database=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(st.sampled_from(_budget_commands()), st.sampled_from(BUDGET_ENDS))
def test_budgets_at_the_ends_of_every_form(tmp_path, monkeypatch, command, value):
    """A verdict or a clear refusal, at once: a budget of 1e1999 took minutes, log(2)/12345678901234567890 was an
    exact power refused deep inside without naming the option."""
    (tmp_path / "grr3.json").write_text(seed_files()["grr3.json"][0], encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    words, option, shape = command
    argv = [*words, option, shape.replace("{}", value)]
    if assert_contract(argv) == 0 and words[0] == "channel":  # the file it wrote is read back
        assert_contract([*argv, "--output", "written.json"])
        assert_contract(["profile", "written.json"])

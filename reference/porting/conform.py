"""``ldpspec conform``: whether a port conforms to the porting kit, or to the part of it the port declares.

A port runs the vectors (``reference/porting/vectors/``) and writes what it computed to an **answers file**, JSON
(every section optional; ``docs/porting/conform.md`` documents each field):

.. code-block:: json

    {"format": "ldpspec-answers/2", "port": "a name",
     "answers":    ["parameters", "estimators.estimate", "samples"],
     "stream":     [{"id": "seed 00", "first_bytes": "…", "draws": [{"value": 5, "bits_read": 3}, …]}],
     "parameters": [{"mechanism": "grr", "id": "example", "result": "valid", "probabilities": [[0.57, …], …]},
                    {"mechanism": "grr", "id": "invalid: epsilon=-1", "result": "invalid"}],
     "estimators": [{"mechanism": "grr", "id": "example", "estimate": [0.5, …], "variance": [0.1, …],
                     "direct": {"empirical": […], "norm_sub": […], "mle": […]}}],
     "sampling":   [{"mechanism": "grr", "id": "input 2", "releases": [1, 0, 2, …], "bits_read": 36}],
     "samples":    [{"mechanism": "grr", "options": {"epsilon": "1", "d": "3"}, "input": 0, "releases": [0, 2, …]}]}

An answer names the vector it answers as the vectors do: a stream test by its ``id``; a test of a mechanism's file
(``vectors/<kind>/<mechanism>.json``) by its ``mechanism`` and its ``id`` in that file.

**Deterministic answers** (``stream``, ``parameters``, ``estimators``, ``sampling``) are compared with the vectors:
releases, bytes, draws and bit counts exactly; numbers within a relative error (default ``RELATIVE_ERROR``) of the
exact value, or both below the smallest normal double ``2^-1022`` in magnitude (a double cannot hold either). A port
claims a mechanism by answering anything about it.

**What is checked.** Without ``answers``, the whole kit: every ``parameters``, ``estimators`` and ``sampling`` vector
of a claimed mechanism must be answered, and one left out fails; the ``stream`` section, when present, answers every
stream vector; sample sets are optional. With ``answers`` (``DECLARABLE``: the kinds, and ``estimators.estimate``,
``estimators.variance``, ``estimators.direct`` for part of an estimator's answer), only what it declares is checked,
and completely: each declared kind answers every vector of that kind of each claimed mechanism (``stream``: every
stream vector; ``samples``: at least one sample set per claimed mechanism). A section or an estimator's field that
the declaration leaves out makes the file malformed. The report's ``not_covered`` lists what was not checked: the
kinds left out, and the claimed mechanisms' vectors of those kinds.

**Samples** drawn with the port's own random generator, at the options each sample set declares (required, strings),
are tested against the exact channel. A release the channel never gives fails at once, and the report says why. A
bit-vector release whose channel is a structure of bits (``reference.porting.bits``: unary encodings, IDUE, IDUE-PS)
is tested bit by bit: every bit's frequency, pairs of bits and the number of ones, each against its exact
probability with Hoeffding's bound and a Bonferroni correction. A release that is one item (GRR, uRR, IPRR, ...) is
tested output by output, each count against its exact binomial law with certified tails, and whole
(``reference.porting.outputs``). Any other release is tested whole: the L1 distance of the empirical distribution
from the channel's row against the Bretagnolle-Huber-Carol bound. Each report states its power (the deviation
detected with probability ``POWER``) and the size a yardstick deviation needs (``n_to_detect_...``); where the
sample size lets the test detect nothing, the sample set is undecided (``conforms`` is ``None``).

Exit status: 0 when every answer that is checked conforms, 1 when one does not, 2 when the answers file is
malformed (one line naming the field), 4 when nothing fails but a sample set is undecided.
"""

from __future__ import annotations

import json
import math
from collections import Counter
from decimal import Decimal
from fractions import Fraction
from pathlib import Path

from ldpspec.reference.porting.bits import bit_law, bit_test
from ldpspec.reference.porting.outputs import output_test, release_text, whole_release_test
from ldpspec.reference.porting.vectors import MECHANISM_KINDS, VECTORS, build
from ldpspec.reference.registry import MECHANISMS
from ldpspec.spec import (
    MAX_LABEL_DEPTH,
    Exact,
    InvalidChannel,
    InvalidParameter,
    budget,
    check_decimal_size,
    label_to_json,
    normalize_label,
    output_distribution,
    to_decimal_string,
    value_text,
)

ANSWERS_FORMAT = "ldpspec-answers/2"
"""Version 2 names a test by its string id, and a mechanism's test by its mechanism too (version 1, for the vectors
of format 1, named them by running numbers)."""
RELATIVE_ERROR = 1e-9
"""The default relative error of a number: a double computation of a few dozen operations stays within about
``1e-13``; every flagged slip moves some number of its vectors by far more."""
ALPHA = 1e-6
"""The default probability that a conforming port's sample set fails the goodness-of-fit test."""
POWER = 0.99
"""The probability with which the stated smallest deviation is detected."""
TINY = Fraction(2) ** -1022
SHOWN = 5
"""Failures shown per section."""
ESTIMATOR_FIELDS = ("estimate", "variance", "direct")
"""The parts of an estimators answer a declaration can name: the estimate, its exact variance, and (for a direct
encoding) the empirical estimate, Norm-Sub and the MLE."""
DECLARABLE = ("stream", "parameters", "estimators", *(f"estimators.{field}" for field in ESTIMATOR_FIELDS),
              "sampling", "samples")
"""What an answers file can declare in ``answers``: a kind (``estimators``: all of ``ESTIMATOR_FIELDS``), or part of
the estimators' answers."""


def load_vectors() -> dict:
    """``{kind: {key: test}}``: the stream's tests by id, the tests of the kinds about mechanisms by
    ``(mechanism, id)``."""
    def read(path: Path) -> dict:
        return json.loads(path.read_text(encoding="utf-8"))

    vectors = {"stream": {test["id"]: test for test in read(VECTORS / "stream.json")["tests"]}}
    for kind in MECHANISM_KINDS:
        vectors[kind] = {}
        for path in sorted((VECTORS / kind).glob("*.json")):
            document = read(path)
            for test in document["tests"]:
                vectors[kind][(document["mechanism"], test["id"])] = test
    return vectors


# --- numbers ---------------------------------------------------------------------------------------------------------

def _number(value, where: str) -> Fraction:
    """A port's number: a JSON number or a decimal string (``"inf"``/``"-inf"`` are not numbers here)."""
    if isinstance(value, bool) or not isinstance(value, (int, float, str)):
        raise InvalidParameter(f"{where} must be a number or a decimal string, got {json.dumps(value)[:80]}")
    try:
        decimal = Decimal(value) if isinstance(value, str) else None
    except ArithmeticError:
        raise InvalidParameter(f"{where} must be a finite number, got {json.dumps(value)[:80]}") from None
    if decimal is not None:
        if not decimal.is_finite():
            raise InvalidParameter(f"{where} must be a finite number, got {json.dumps(value)[:80]}")
        check_decimal_size(decimal, where)  # 1e999999999 would be an integer of a billion digits
    try:
        number = Fraction(decimal if decimal is not None else value)
    except (ValueError, ArithmeticError, OverflowError):
        raise InvalidParameter(f"{where} must be a finite number, got {json.dumps(value)[:80]}") from None
    return number


def _expected(text: str) -> Fraction | None:
    """An exact text or a decimal of the vectors (a budget may be ``log(x)``) as a Fraction to 50 digits (None for an
    infinite end)."""
    if text in ("inf", "-inf"):
        return None
    try:
        return Fraction(Decimal(text))
    except ArithmeticError:
        number = budget(text, "a budget") if "log" in text else Exact.of(text)
        return Fraction(Decimal(to_decimal_string(number, 50)))


NON_FINITE = (None, "nan", "NaN", "inf", "-inf", "Infinity", "-Infinity")
"""What a port's overflow prints in JSON (null for a NaN or an infinity, or their names): a wrong answer, not a
malformed file."""


def _close(answer, expected_text: str, relative: float, where: str) -> bool:
    expected = _expected(expected_text)
    if expected is None:
        return answer == expected_text
    if answer in NON_FINITE or (isinstance(answer, float) and not math.isfinite(answer)):
        return False
    value = _number(answer, where)
    if abs(expected) < TINY and abs(value) < TINY:
        return True
    return abs(value - expected) <= Fraction(relative) * abs(expected)


def _all_close(answers, expected: list, relative: float, where: str) -> str | None:
    """``None`` when ``answers`` is a list of numbers each close to the expected text beside it, else why not."""
    if not isinstance(answers, list) or len(answers) != len(expected):
        return f"{where}: expected a list of {len(expected)} numbers, got {json.dumps(answers)[:80]}"
    for k, (answer, text) in enumerate(zip(answers, expected)):
        if not _close(answer, text, relative, f"{where}[{k}]"):
            return f"{where}[{k}]: got {json.dumps(answer)}, expected {text}"
    return None


# --- the deterministic vectors ---------------------------------------------------------------------------------------

def _stream_failure(answer: dict, test: dict, relative: float) -> str | None:
    if answer.get("first_bytes") != test["first_bytes"]:
        return f"first_bytes: got {str(answer.get('first_bytes'))[:32]}..., expected {test['first_bytes'][:32]}..."
    draws = answer.get("draws")
    if not isinstance(draws, list) or len(draws) != len(test["draws"]):
        return f"draws: expected a list of {len(test['draws'])} draws"
    for k, (got, expected) in enumerate(zip(draws, test["draws"])):
        if not isinstance(got, dict) or (got.get("value"), got.get("bits_read")) != (expected["value"],
                                                                                       expected["bits_read"]):
            return (f"draws[{k}] ({expected['draw']}): got {json.dumps(got)[:80]}, expected value "
                    f"{json.dumps(expected['value'])} after {expected['bits_read']} bits")
    return None


def _parameters_failure(answer: dict, test: dict, relative: float) -> str | None:
    result = answer.get("result")
    if result not in ("valid", "invalid"):
        named = value_text([answer.get("mechanism"), answer.get("id")])
        raise InvalidParameter(f"parameters answer {named}: result must be \"valid\" or \"invalid\", got "
                               f"{json.dumps(result)[:40]}")
    if result != test["result"]:
        reason = f" ({test['reason']})" if test["result"] == "invalid" else ""
        return f"result: got {result}, expected {test['result']}{reason}"
    if result == "invalid":
        return None
    channel = test["channel"]
    if "privacy" in answer:  # optional: the notion's parameters, as the privacy section gives them
        failure = _privacy_failure(answer["privacy"], channel.get("privacy", {}), relative)
        if failure:
            return failure
    if "decimal" in channel:
        rows = answer.get("probabilities")
        if not isinstance(rows, list) or len(rows) != len(channel["decimal"]):
            return f"probabilities: expected {len(channel['decimal'])} rows, one per input"
        for x, (row, expected) in enumerate(zip(rows, channel["decimal"])):
            failure = _all_close(row, expected, relative, f"probabilities[{x}]")
            if failure:
                return failure
        return None
    densities = answer.get("densities")
    if not isinstance(densities, list) or len(densities) != len(channel["densities"]):
        return f"densities: expected {len(channel['densities'])} densities, in the channel file's order"
    for k, (got, expected) in enumerate(zip(densities, channel["densities"])):
        for field in ("breakpoints", "values") + (("rates",) if "rates" in expected else ()):
            failure = _all_close(got.get(field) if isinstance(got, dict) else None, expected[field], relative,
                                 f"densities[{k}].{field}")
            if failure:
                return failure
    return None


def _privacy_failure(answer, expected: dict, relative: float) -> str | None:
    if not isinstance(answer, dict) or set(answer) != set(expected):
        return f"privacy: expected the keys {sorted(expected)}, got {json.dumps(answer)[:80]}"
    for key, value in expected.items():
        got = answer[key]
        if isinstance(value, list):
            if not isinstance(got, list) or len(got) != len(value):
                return f"privacy.{key}: expected a list of {len(value)}"
            pairs = list(enumerate(zip(got, value)))
        else:
            pairs = [(None, (got, value))]
        for k, (number, text) in pairs:
            where = f"privacy.{key}" + ("" if k is None else f"[{k}]")
            if not isinstance(text, str) or number is None:  # items, sets of items, null: exactly
                if number != text:
                    return f"{where}: got {json.dumps(number)}, expected {json.dumps(text)}"
            elif not _close(number, text, relative, where):
                return f"{where}: got {json.dumps(number)}, expected {json.dumps(text)}"
    return None


def _estimators_failure(answer: dict, test: dict, relative: float,
                        fields: tuple = ESTIMATOR_FIELDS) -> str | None:
    """The first difference in the fields checked (``fields``: the declared part of ``ESTIMATOR_FIELDS``)."""
    for field in ("estimate", "variance"):
        if field not in fields:
            continue
        if field not in answer:  # a library without this part of the estimator declares the parts it has
            return (f"{field}: not given; a port that does not compute it declares the parts it answers, as "
                    f"\"answers\": [\"estimators.{'estimate' if field == 'variance' else 'variance'}\"]")
        failure = _all_close(answer.get(field), test[field]["decimal"], relative, field)
        if failure:
            return failure
    if "mean" in answer:
        failure = _all_close(answer["mean"], test["mean"]["decimal"], relative, "mean")
        if failure:
            return failure
    if "direct" in test and "direct" in fields:
        direct = answer.get("direct")
        if not isinstance(direct, dict):
            return ("direct: a direct encoding's answer gives its empirical estimate, Norm-Sub and MLE; a port "
                    "without them declares \"answers\": [\"estimators.estimate\", \"estimators.variance\"]")
        for field in ("empirical", "norm_sub", "mle"):
            failure = _all_close(direct.get(field), test["direct"][field]["decimal"], relative, f"direct.{field}")
            if failure:
                return failure
    return None


def _sampling_failure(answer: dict, test: dict, relative: float) -> str | None:
    got, expected = answer.get("releases"), test["releases"]
    if not isinstance(got, list) or len(got) != len(expected):
        return f"releases: expected a list of {len(expected)} releases"
    for k, (release, wanted) in enumerate(zip(got, expected)):
        if release != wanted:
            return f"releases[{k}]: got {json.dumps(release)[:60]}, expected {json.dumps(wanted)[:60]}"
    if answer.get("bits_read") != test["bits_read"]:
        return f"bits_read: got {answer.get('bits_read')}, expected {test['bits_read']}"
    return None


COMPARE = {"stream": _stream_failure, "parameters": _parameters_failure, "estimators": _estimators_failure,
           "sampling": _sampling_failure}


def _key(kind: str, answer, index: int):
    """The vector an answer names: a stream test's id, or ``(mechanism, id)``."""
    if not isinstance(answer, dict) or not isinstance(answer.get("id"), str):
        raise InvalidParameter(f"{kind}[{index}] must be an object with the id of the test it answers (a string)")
    if kind == "stream":
        return answer["id"]
    if not isinstance(answer.get("mechanism"), str):
        raise InvalidParameter(f"{kind}[{index}] must name its mechanism")
    return answer["mechanism"], answer["id"]


def _mechanism_of(kind: str, key) -> str | None:
    return None if kind == "stream" else key[0]


def _named(key) -> str:
    """A test's key as the report and the messages write it: the stream test's id, or ``[mechanism, id]``."""
    return json.dumps(label_to_json(key))


# --- samples from the port's own generator ---------------------------------------------------------------------------

def _python_release(value, where: str, depth: int = 0):
    """A release read from JSON: lists become tuples (numbers stay floats, for a continuous point); nested at most
    ``MAX_LABEL_DEPTH`` lists deep, as a label."""
    if depth > MAX_LABEL_DEPTH:
        raise InvalidParameter(f"{where} must be nested at most {MAX_LABEL_DEPTH} lists deep")
    return tuple(_python_release(part, where, depth + 1) for part in value) if isinstance(value, list) else value


def _options(answer: dict, name: str, where: str) -> dict:
    """The options a sample set was drawn at: required (a default would test releases drawn at other options against
    the wrong channel), each a string, as on the command line."""
    example = json.dumps(MECHANISMS[name].example())
    if "options" not in answer:
        raise InvalidParameter(f"{where}.options is missing: give the options the releases were drawn at, each value "
                               f"a string as on the command line, e.g. {example} ({name}'s example)")
    options = answer["options"]
    if not isinstance(options, dict):
        raise InvalidParameter(f"{where}.options must be an object of {name}'s options, e.g. {example}; got "
                               f"{json.dumps(options)[:80]}")
    for key, value in options.items():
        if not isinstance(value, str):
            raise InvalidParameter(f"{where}.options.{key} must be a string (options are texts, as on the command "
                                   f"line: \"{key}\": {json.dumps(json.dumps(value))[:60]}); got "
                                   f"{json.dumps(value)[:60]}")
    return options


def _wrong_options_hint(report: dict, where: str) -> None:
    """When no release at all is one of the channel's, the likelier cause is a sample set drawn at other options
    than it declares (or none declared): the report says so."""
    if report.get("never_released_count") == report["n"]:
        report["hint"] = (f"no release is one of this channel's: were they drawn at other options than "
                          f"{where}.options ({json.dumps(report['options'])}, {report['mechanism']})?")


_NOT_A_LABEL = object()
"""A release that reads as no label of the channel."""


def sample_report(answer: dict, index: int, alpha: float) -> dict:
    """The test of one sample set, with its power: bit by bit for a bit-vector release whose channel is a structure
    of bits (``reference.porting.bits``), output by output for a release that is one item, else the L1 test of the
    whole release (``reference.porting.outputs``). ``conforms`` is ``None`` when the test could detect nothing at
    this sample size."""
    where = f"samples[{index}]"
    if not isinstance(answer, dict):
        raise InvalidParameter(f"{where} must be an object")
    name = answer.get("mechanism")
    if not isinstance(name, str) or name not in MECHANISMS:
        raise InvalidParameter(f"{where}.mechanism must be a registered mechanism, got {json.dumps(name)[:40]}")
    options = _options(answer, name, where)
    built = build(name, options)  # IDUE: from the solver output the vectors record for these options
    channel = built.channel()
    x = normalize_label(answer.get("input"), f"{where}.input")
    if x not in channel.inputs:
        raise InvalidParameter(f"{where}.input must be an input of the channel, got {json.dumps(answer.get('input'))}")
    releases = answer.get("releases")
    if not isinstance(releases, list) or not releases:
        raise InvalidParameter(f"{where}.releases must be a non-empty list")
    head = {"mechanism": name, "options": options, "input": label_to_json(x), "n": len(releases), "alpha": alpha}
    law = bit_law(channel, x) if MECHANISMS[name].reports == "bit-vector" else None
    if law is not None:
        report = {**head, **bit_test(law, releases, alpha, POWER, SHOWN)}
    else:
        row = output_distribution(channel, x)
        observed, refused = Counter(), []
        for release in releases:
            try:  # a point of a density falls in a cell of the exact channel (the mechanism's label)
                y = (built.label(_python_release(release, f"{where}.releases"), channel) if channel.has_densities
                     else normalize_label(release))
            except (InvalidChannel, InvalidParameter, TypeError, ValueError):
                y = _NOT_A_LABEL  # not None: null is a label a channel may have
            if y is _NOT_A_LABEL or y not in row:
                refused.append((release, "not an output of the channel"))
            elif row[y] == 0:
                refused.append((release, f"an output of probability 0 for input {json.dumps(head['input'])}"))
            else:
                observed[y] += 1
        support = {y: p for y, p in row.items() if p > 0}
        if MECHANISMS[name].reports == "item":
            report = {**head, **output_test(support, observed, len(releases), alpha, POWER, SHOWN)}
        else:
            report = {**head, "test": "whole release",
                      **whole_release_test([observed.get(y, 0) for y in support], [float(p) for p in support.values()],
                                           len(releases), alpha, POWER)}
            if report["detects_tv_at_least"] is None and report["conforms"]:
                report["conforms"] = None
        if refused:
            report["conforms"] = False
            report["never_released"] = [{"release": release_text(release), "why": why}
                                        for release, why in refused[:SHOWN]]
            report["never_released_count"] = len(refused)
    _wrong_options_hint(report, where)
    return report


# --- the whole check -------------------------------------------------------------------------------------------------

KINDS = (*COMPARE, "samples")


def declaration(answers: dict) -> dict | None:
    """What the file declares it answers: ``{kind: the estimator fields for estimators, else True}``; ``None`` when it
    declares nothing (the whole kit)."""
    if "answers" not in answers:
        return None
    declared = answers["answers"]
    if (not isinstance(declared, list) or not declared or not all(isinstance(item, str) for item in declared)
            or len(set(declared)) != len(declared)):
        raise InvalidParameter(f"answers must be a non-empty list of distinct names among {', '.join(DECLARABLE)}; "
                               f"got {json.dumps(declared)[:80]}")
    unknown = [item for item in declared if item not in DECLARABLE]
    if unknown:
        raise InvalidParameter(f"answers: unknown {', '.join(map(repr, unknown))}; the names are "
                               f"{', '.join(DECLARABLE)}")
    fields = [item.split(".", 1)[1] for item in declared if item.startswith("estimators.")]
    if "estimators" in declared and fields:
        raise InvalidParameter("answers: declare either estimators (every field) or some of estimators.estimate, "
                               "estimators.variance, estimators.direct, not both")
    covered = {kind: True for kind in declared if kind in KINDS}
    if fields:
        covered["estimators"] = tuple(field for field in ESTIMATOR_FIELDS if field in fields)
    elif "estimators" in covered:
        covered["estimators"] = ESTIMATOR_FIELDS
    for kind in KINDS:
        if kind in answers and kind not in covered:
            raise InvalidParameter(f"{kind}: the file declares \"answers\": {json.dumps(declared)}, which leaves out "
                                   f"{kind}; remove the section or declare it")
    return covered


def _check_fields(section: list, fields: tuple) -> None:
    """An estimators answer gives no field its declaration leaves out."""
    for index, answer in enumerate(section):
        if isinstance(answer, dict):
            for field in ESTIMATOR_FIELDS:
                if field in answer and field not in fields:
                    raise InvalidParameter(f"estimators[{index}].{field}: the file declares only "
                                           f"{', '.join('estimators.' + f for f in fields)}; remove the field or "
                                           f"declare estimators.{field}")


def _not_covered(covered: dict | None, answers: dict, vectors: dict, claimed: set) -> dict:
    """What the check did not look at: the kinds (and estimator fields) left out, and the vectors of the claimed
    mechanisms (every stream vector for the stream) that they hold."""
    if covered is None:  # the whole kit: the stream and the samples are optional
        left = [kind for kind in ("stream", "samples") if not answers.get(kind)]
    else:
        left = [kind for kind in KINDS if kind not in covered]
        if "estimators" in covered:
            left += [f"estimators.{field}" for field in ESTIMATOR_FIELDS if field not in covered["estimators"]]
    unchecked = {}
    for item in list(left):
        kind = item.split(".", 1)[0]
        if kind == "stream":
            unchecked[item] = list(vectors["stream"])
        elif kind in MECHANISM_KINDS:
            keys = [key for key in vectors[kind] if key[0] in claimed
                    and (item != "estimators.direct" or "direct" in vectors[kind][key])]
            if keys:
                unchecked[item] = [label_to_json(key) for key in keys]
            else:  # nothing of the claimed mechanisms is of this kind (estimators.direct for a unary encoding)
                left.remove(item)
    parts = []
    for item in left:
        if item == "samples":
            parts.append("samples (no sample set from the port's own generator was tested)")
        elif item in unchecked:
            mechanisms = sorted({key[0] for key in unchecked[item]}) if item != "stream" else []
            count = len(unchecked[item])
            parts.append(f"{item} ({count} vector{'' if count == 1 else 's'}"
                         + (f" of {', '.join(mechanisms)})" if mechanisms else ")"))
    statement = ("nothing: every kind was checked" if not left else
                 "not checked, and a pass says nothing about them: " + "; ".join(parts))
    return {"kinds": left, "vectors": unchecked, "statement": statement}


def conform(answers: dict, relative: float = RELATIVE_ERROR, alpha: float = ALPHA) -> dict:
    """The report: per kind, the answers compared and the failures (at most ``SHOWN`` shown); the vectors a claimed
    mechanism left unanswered among the kinds checked; the sample sets' tests; what was not covered; ``conforms``
    over everything checked."""
    if not isinstance(answers, dict) or answers.get("format") != ANSWERS_FORMAT:
        raise InvalidParameter(f"the answers file must be a JSON object with \"format\": \"{ANSWERS_FORMAT}\"")
    if not 0 < relative < 1:
        raise InvalidParameter(f"the relative error (--relative-error) must be in (0, 1), got {value_text(relative)}")
    if not 0 < alpha < 1:
        raise InvalidParameter(f"alpha (--alpha) must be in (0, 1), got {value_text(alpha)}")
    unknown = set(answers) - {"format", "port", "answers", *KINDS}
    if unknown:
        raise InvalidParameter(f"unknown sections of the answers file: {', '.join(sorted(unknown))}; the sections "
                               f"are {', '.join(KINDS)}, and answers declares which are given")
    covered = declaration(answers)
    if not any(answers.get(kind) for kind in KINDS):
        raise InvalidParameter("the answers file answers nothing: give at least one of the sections "
                               f"{', '.join(KINDS)}")
    fields = covered.get("estimators", ESTIMATOR_FIELDS) if covered is not None else ESTIMATOR_FIELDS
    vectors = load_vectors()
    report = {"port": answers.get("port"), "conforms": True,
              "declared": None if covered is None else list(answers["answers"])}
    claimed, answered = set(), {}
    for kind, compare in COMPARE.items():
        section = answers.get(kind, [])
        if not isinstance(section, list):
            raise InvalidParameter(f"{kind} must be a list of answers")
        if kind == "estimators":
            _check_fields(section, fields)
        failures, keys = [], set()
        for index, answer in enumerate(section):
            key = _key(kind, answer, index)
            if key not in vectors[kind]:
                raise InvalidParameter(f"{kind}[{index}] answers no vector: there is no {kind} test {_named(key)}")
            if key in keys:
                raise InvalidParameter(f"{kind}[{index}] answers {_named(key)} a second time")
            keys.add(key)
            test = vectors[kind][key]
            claimed.add(_mechanism_of(kind, key))
            failure = (compare(answer, test, relative, fields) if kind == "estimators"
                       else compare(answer, test, relative))
            if failure:
                failures.append({"test": label_to_json(key), "flags": test.get("flags", []), "failure": failure})
        answered[kind] = keys
        if covered is None or kind in covered:
            report[kind] = {"answered": len(section), "failed": len(failures), "failures": failures[:SHOWN]}
    samples = answers.get("samples", [])
    if not isinstance(samples, list):
        raise InvalidParameter("samples must be a list of sample sets")
    report["samples"] = [sample_report(answer, index, alpha) for index, answer in enumerate(samples)]
    sampled = {sample["mechanism"] for sample in report["samples"]}
    claimed |= sampled
    claimed.discard(None)
    missing = {}
    for kind in MECHANISM_KINDS:
        if covered is not None and kind not in covered:
            continue
        left = [key for key in vectors[kind] if _mechanism_of(kind, key) in claimed and key not in answered[kind]]
        if left:
            missing[kind] = [label_to_json(key) for key in left]
    if ("stream" in answers if covered is None else "stream" in covered) and len(answered["stream"]) < len(
            vectors["stream"]):
        missing["stream"] = [key for key in vectors["stream"] if key not in answered["stream"]]
    if covered is not None and "samples" in covered and claimed - sampled:
        missing["samples"] = sorted(claimed - sampled)  # a mechanism without a sample set
    report["mechanisms"] = sorted(claimed)
    report["unanswered"] = missing
    report["not_covered"] = _not_covered(covered, answers, vectors, claimed)
    if "estimators" in report:
        report["estimators"].update(_estimator_options(answered["estimators"], vectors, report["samples"]))
    if covered is None and missing:
        report["hint"] = (f"{sum(map(len, missing.values()))} vectors of the claimed mechanisms are unanswered; a port "
                          f"that answers part of the kit declares the kinds it answers, as \"answers\": "
                          f"{json.dumps([kind for kind in KINDS if answers.get(kind)])}")
    failed = (missing or any(report[kind]["failed"] for kind in COMPARE if kind in report)
              or any(sample["conforms"] is False for sample in report["samples"]))
    undecided = [f"samples[{index}] ({sample['mechanism']}, n = {sample['n']})"
                 for index, sample in enumerate(report["samples"]) if sample["conforms"] is None]
    report["conforms"] = False if failed else None if undecided else True
    if undecided:
        report["undecided"] = (f"{', '.join(undecided)}: too few releases for the test to detect anything (each "
                               f"report's guarantee and n_to_detect say how many it needs)")
    return report


def _estimator_options(answered: set, vectors: dict, samples: list) -> dict:
    """Which options the estimators were checked at (the vectors' own), and a note where a mechanism's sample sets
    were drawn at others: the estimator is not checked there."""
    checked = {}
    for key in sorted(answered):
        options = vectors["estimators"][key]["options"]
        if options not in checked.setdefault(key[0], []):
            checked[key[0]].append(options)
    elsewhere = sorted({sample["mechanism"] for sample in samples if sample["mechanism"] in checked
                        and sample["options"] not in checked[sample["mechanism"]]})
    result = {"at_options": checked}
    if elsewhere:
        result["note"] = (f"the estimators are checked at the options of their vectors only (at_options); the sample "
                          f"sets of {', '.join(elsewhere)} are at other options, where no estimator is checked")
    return result

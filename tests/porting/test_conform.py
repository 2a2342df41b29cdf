"""``ldpspec conform``: a port built from the Python reference conforms; each kind of wrong answer fails with exit 1
and names the test; a malformed answers file exits 2 naming the field; the stated power holds."""

from __future__ import annotations

import json
import math
import random
import re

import pytest

from ldpspec.reference.channelfile import channel_file_text, has_densities
from ldpspec.reference.porting.conform import (
    ALPHA,
    ANSWERS_FORMAT,
    POWER,
    conform,
    load_vectors,
)
from ldpspec.reference.porting.outputs import l1_threshold, whole_release_test
from ldpspec.reference.porting.vectors import release_json
from ldpspec.reference.registry import MECHANISMS
from ldpspec.reference.stream import Stream
from ldpspec.reference.tools.cli import main
from ldpspec.spec.errors import InvalidParameter
from ldpspec.spec.exact import Exact

VECTORS = load_vectors()


def _as_given(declaration, test: dict):
    """The mechanism from what a port is given: the options, and the solver's output where the vector records it."""
    return declaration.from_options(test["options"], **({"solution": test["solution"]} if "solution" in test else {}))


def reference_answers(name: str, samples: int = 3000) -> dict:
    """Every vector of one mechanism answered by the Python reference, in doubles, as a port would answer them."""
    declaration = MECHANISMS[name]
    answers = {"format": ANSWERS_FORMAT, "port": "python reference", "parameters": [], "estimators": [],
               "sampling": [], "samples": []}
    for (mechanism, test_id), test in VECTORS["parameters"].items():
        if mechanism != name:
            continue
        try:
            channel = _as_given(declaration, test).channel()
        except InvalidParameter:
            answers["parameters"].append({"mechanism": name, "id": test_id, "result": "invalid"})
            continue
        answer = {"mechanism": name, "id": test_id, "result": "valid"}
        if has_densities(channel):  # each density's breakpoints, values and rates, in the channel file's order
            answer["densities"] = [{field: [end if end in ("inf", "-inf") else float(Exact.of(end)) for end in
                                            density[field]] for field in ("breakpoints", "values", "rates")
                                    if field in density}
                                   for density in json.loads(channel_file_text(channel))["densities"]]
        else:
            answer["probabilities"] = [[float(p) for p in row] for row in channel.explicit().rows]
        answers["parameters"].append(answer)
    for (mechanism, test_id), test in VECTORS["estimators"].items():
        if mechanism != name:
            continue
        built = _as_given(declaration, test)
        population = [tuple(x) if isinstance(x, list) else x for x in test["population"]]
        means, variances = built.estimate_moments(population)
        estimate = built.estimate(test["counts"], test["n"])
        answer = {"mechanism": name, "id": test_id, "estimate": [float(e) for e in estimate],
                  "variance": [float(v) for v in variances], "mean": [float(m) for m in means]}
        if "direct" in test:  # the reference's own direct estimators, as decimal strings
            answer["direct"] = {field: test["direct"][field]["decimal"] for field in ("empirical", "norm_sub", "mle")}
        answers["estimators"].append(answer)
    for (mechanism, test_id), test in VECTORS["sampling"].items():
        if mechanism != name:
            continue
        built = _as_given(declaration, test)
        stream = Stream(test["seed"])
        x = tuple(test["input"]) if isinstance(test["input"], list) else test["input"]
        releases = [release_json(built.perturb(x, stream)) for _ in test["releases"]]
        answers["sampling"].append({"mechanism": name, "id": test_id, "releases": releases,
                                    "bits_read": stream.bits_read})
    built, rng = declaration.from_options(declaration.example()), random.Random(7)
    for x in built.channel().inputs:
        releases = [built.perturb(x, rng) for _ in range(samples)]
        answers["samples"].append({"mechanism": name, "options": declaration.example(),
                                   "input": list(x) if isinstance(x, tuple) else x,
                                   "releases": [list(r) if isinstance(r, tuple) else r for r in releases]})
    return answers


def run(tmp_path, answers: dict) -> int:
    """``ldpspec conform`` on ``answers`` written to a file: its exit status."""
    path = tmp_path / "answers.json"
    path.write_text(json.dumps(answers), encoding="utf-8")
    return main(["conform", str(path)])


report_of = conform


@pytest.fixture(scope="module")
def grr_answers() -> dict:
    return reference_answers("grr")


def test_the_reference_answering_as_a_port_conforms(grr_answers, tmp_path, capsys):
    status = run(tmp_path, grr_answers)
    report = json.loads(capsys.readouterr().out)
    assert status == 0, report
    assert report["conforms"] and report["mechanisms"] == ["grr"] and not report["unanswered"]
    assert report["parameters"]["answered"] == 11 and report["sampling"]["answered"] == 3
    assert all(sample["conforms"] and sample["test"] == "outputs" and sample["detects_deviation_above"] < 0.1
               for sample in report["samples"])


def test_a_continuous_mechanism_answered_by_the_reference_conforms():
    report = report_of(reference_answers("pm", samples=2000))
    assert report["conforms"], report


def answers_with(answers: dict, kind: str, index: int, **changes) -> dict:
    changed = json.loads(json.dumps(answers))
    changed[kind][index].update(changes)
    return changed


def test_swapped_probabilities_fail_and_name_the_flag(grr_answers):
    valid = next(k for k, a in enumerate(grr_answers["parameters"]) if a["result"] == "valid")
    rows = grr_answers["parameters"][valid]["probabilities"]
    swapped = [[min(row) if p == max(row) else max(row) for p in row] for row in rows]  # p and q exchanged
    report = report_of(answers_with(grr_answers, "parameters", valid, probabilities=swapped))
    assert not report["conforms"]
    (failure,) = report["parameters"]["failures"]
    assert "p-q-swapped" in failure["flags"] and failure["failure"].startswith("probabilities[0][0]")


def test_a_refusal_where_the_reference_accepts_fails(grr_answers):
    report = report_of(answers_with(grr_answers, "parameters", 0, result="invalid"))
    assert not report["conforms"] and "expected valid" in report["parameters"]["failures"][0]["failure"]


def test_a_number_one_part_in_a_million_off_fails_and_within_the_relative_error_passes(grr_answers):
    estimate = grr_answers["estimators"][0]["estimate"]
    assert not report_of(answers_with(grr_answers, "estimators", 0,
                                      estimate=[e * (1 + 1e-6) for e in estimate]))["conforms"]
    assert report_of(answers_with(grr_answers, "estimators", 0, estimate=[e * (1 + 1e-11) for e in estimate]))[
        "conforms"]


@pytest.mark.parametrize("overflow", [None, "NaN", "inf", float("nan")])
def test_a_number_the_port_could_not_compute_fails_its_test_and_is_not_a_malformed_file(grr_answers, tmp_path,
                                                                                         overflow):
    """A port whose e^eps overflows prints null (JSON's NaN) or a name for it: a wrong answer, exit 1."""
    estimate = grr_answers["estimators"][0]["estimate"]
    status = run(tmp_path, answers_with(grr_answers, "estimators", 0, estimate=[overflow] + estimate[1:]))
    assert status == 1


def test_privacy_answers_compare_items_and_protected_outputs_exactly():
    """suGRR-Sample's privacy section lists its sensitive items and protected outputs: compared as given."""
    (key, test), = [(k, t) for k, t in VECTORS["parameters"].items()
                    if k[0] == "sugrr-sample" and "choice" in t["flags"] and t["result"] == "valid"]
    privacy = test["channel"]["privacy"]
    assert privacy["protected_outputs"] == [[], [0], [1]]  # the empty protected part is one

    def report(**changes) -> dict:
        answer = {"mechanism": key[0], "id": key[1], "result": "valid",
                  "probabilities": [[float(Exact.of(p)) for p in row] for row in test["channel"]["probabilities"]],
                  "privacy": {**privacy, "epsilon": float(privacy["epsilon"]), **changes}}
        return report_of({"format": ANSWERS_FORMAT, "parameters": [answer]})["parameters"]

    assert report()["failed"] == 0
    assert report(protected_outputs=[[0], [1]])["failures"][0]["failure"].startswith("privacy.protected_outputs")
    assert report(sensitive_items=[1, 0])["failures"][0]["failure"].startswith("privacy.sensitive_items[0]")


def test_a_release_or_a_bit_count_off_fails(grr_answers):
    releases = grr_answers["sampling"][0]["releases"]
    moved = [(releases[0] + 1) % 3] + releases[1:]
    report = report_of(answers_with(grr_answers, "sampling", 0, releases=moved))
    assert report["sampling"]["failures"][0]["failure"].startswith("releases[0]")
    report = report_of(answers_with(grr_answers, "sampling", 0, bits_read=grr_answers["sampling"][0]["bits_read"] + 1))
    assert report["sampling"]["failures"][0]["failure"].startswith("bits_read")


def test_a_claimed_mechanism_must_answer_all_its_vectors(grr_answers):
    partial = json.loads(json.dumps(grr_answers))
    partial["sampling"].pop()
    report = report_of(partial)
    assert not report["conforms"] and report["unanswered"] == {"sampling": [["grr", "input 2"]]}


def test_samples_from_a_sampler_with_p_and_q_swapped_fail(grr_answers):
    rng, d = random.Random(3), 3
    p = math.e / (math.e + d - 1)
    swapped = [x if rng.random() >= p else rng.choice([y for y in range(d) if y != x]) for x in [0] * 3000]
    answers = {"format": ANSWERS_FORMAT, "samples": [{"mechanism": "grr", "options": {"epsilon": "1", "d": "3"},
                                                            "input": 0, "releases": swapped}]}
    (sample,) = report_of(answers)["samples"]
    assert not sample["conforms"] and sample["failures"][0]["output"] == 0  # the true item's frequency


def test_a_release_the_channel_never_gives_fails_at_once():
    answers = {"format": ANSWERS_FORMAT, "samples": [{"mechanism": "grr", "options": {"epsilon": "1", "d": "3"},
                                                            "input": 0, "releases": [0, 1, 2] * 100 + [3]}]}
    (sample,) = report_of(answers)["samples"]
    assert not sample["conforms"] and sample["never_released"] == [{"release": "3",
                                                                    "why": "not an output of the channel"}]


def test_the_stated_power_holds_for_a_sampler_off_by_the_stated_distance():
    """The whole-release test: releases off by exactly the stated total variation (mass moved from the true item to
    another, over GRR's 3 outputs) fail in at least 99% of 300 runs; the exact ones pass in all of them (alpha is
    1e-6)."""
    n, d = 2000, 3
    p, q = math.e / (math.e + d - 1), 1 / (math.e + d - 1)
    delta = (l1_threshold(d, n, ALPHA) + l1_threshold(d, n, 1 - POWER)) / 2
    rng = random.Random(11)

    def report(weights) -> dict:
        releases = rng.choices(range(d), weights=weights, k=n)
        return whole_release_test([releases.count(y) for y in range(d)], [p, q, q], n, ALPHA, POWER)

    off = [report([p - delta, q + delta, q]) for _ in range(300)]
    assert off[0]["detects_tv_at_least"] == pytest.approx(delta)
    assert sum(not r["conforms"] for r in off) >= 0.99 * 300
    assert all(report([p, q, q])["conforms"] for _ in range(300))


@pytest.mark.parametrize("answers, message", [
    ({"format": "something else", "stream": [{"id": "seed 00"}]}, "format"),
    ({"format": "ldpspec-answers/1", "stream": [{"id": 1}]}, "ldpspec-answers/2"),  # the running numbers of format 1
    ({"format": ANSWERS_FORMAT}, "answers nothing"),
    ({"format": ANSWERS_FORMAT, "stream": [{"id": "seed ff"}]}, 'no stream test "seed ff"'),
    ({"format": ANSWERS_FORMAT, "stream": [{"id": 1}]}, "the id of the test it answers"),
    ({"format": ANSWERS_FORMAT, "sampling": [{"mechanism": "grr", "id": "input 0", "releases": []},
                                             {"mechanism": "grr", "id": "input 0", "releases": []}]},
     "a second time"),
    ({"format": ANSWERS_FORMAT, "parameters": [{"id": "example"}]}, "must name its mechanism"),
    ({"format": ANSWERS_FORMAT, "sampling": [{"id": "input 0", "releases": []}]}, "must name its mechanism"),
    ({"format": ANSWERS_FORMAT, "estimators": [{"mechanism": "grr", "id": "padding=1"}]},
     'no estimators test \\["grr", "padding=1"\\]'),
    ({"format": ANSWERS_FORMAT, "extra": []}, "unknown sections"),
    ({"format": ANSWERS_FORMAT, "samples": [{"mechanism": "nope", "input": 0, "releases": [0]}]},
     "registered mechanism"),
    ({"format": ANSWERS_FORMAT, "samples": [{"mechanism": "grr", "options": {"epsilon": "1", "d": "3"}, "input": 7,
                                             "releases": [0]}]},
     "input of the channel"),
    ({"format": ANSWERS_FORMAT, "estimators": [{"mechanism": "grr", "id": "example", "estimate": ["x", 1, 1],
                                                "variance": []}]},
     "number or a decimal string|finite number"),
])
def test_a_malformed_answers_file_exits_2_naming_the_field(tmp_path, capsys, answers, message):
    status = run(tmp_path, answers)
    assert status == 2
    assert re.search(message, capsys.readouterr().err)


def test_a_file_that_is_not_json_exits_2(tmp_path, capsys):
    path = tmp_path / "answers.json"
    path.write_text("{", encoding="utf-8")
    assert main(["conform", str(path)]) == 2
    assert "is not JSON" in capsys.readouterr().err


def test_an_item_sets_budget_taken_as_a_plain_mean_fails_and_eq16_passes():
    """IDUE-PS's privacy section gives each item set's budget (16) of Gu et al.: ln of the mean of e^eps over the
    padded set. The plain mean of the budgets is smaller for a set of items with different budgets."""
    (key, test), = [(k, t) for k, t in VECTORS["parameters"].items() if k[0] == "idue-ps" and t["result"] == "valid"
                    and t["options"] == {"levels": "[[1, 1], [2, 1]]", "padding": "2"}]
    item_budgets, padding, dummy = [1.0, 2.0], 2, 1.0

    def set_budget(items, combine) -> float:
        dummies = max(padding - len(items), 0)
        return combine([item_budgets[i] for i in items] + [dummy] * dummies, max(len(items), padding))

    def log_mean_exp(budgets, size):
        return math.log(sum(math.exp(e) for e in budgets) / size)

    def plain_mean(budgets, size):
        return sum(budgets) / size

    def report(combine) -> dict:
        probabilities = [[float(p) for p in row] for row in test["channel"]["decimal"]]
        answer = {"mechanism": "idue-ps", "id": key[1], "result": "valid", "probabilities": probabilities,
                  "privacy": {"budgets": [set_budget(x, combine) for x in test["channel"]["inputs"]]}}
        return report_of({"format": ANSWERS_FORMAT, "parameters": [answer]})["parameters"]

    assert report(log_mean_exp)["failed"] == 0
    (failure,) = report(plain_mean)["failures"]
    assert "itemset-budget-plain-mean" in failure["flags"] and failure["failure"].startswith("privacy.budgets[2]")


# --- declared coverage ---------------------------------------------------------------------------------------------

def declared(answers: dict, kinds: list, keep=None) -> dict:
    """``answers`` declaring ``kinds``, with only the sections ``keep`` (by default the kinds declared)."""
    keep = {kind.split(".")[0] for kind in kinds} if keep is None else set(keep)
    changed = {key: value for key, value in json.loads(json.dumps(answers)).items()
               if key in ("format", "port") or key in keep}
    return {**changed, "answers": kinds}


def test_a_samples_only_file_conforms_and_states_what_it_does_not_cover(grr_answers, tmp_path, capsys):
    status = run(tmp_path, declared(grr_answers, ["samples"]))
    report = json.loads(capsys.readouterr().out)
    assert status == 0 and report["conforms"] and report["declared"] == ["samples"]
    assert report["not_covered"]["kinds"] == ["stream", "parameters", "estimators", "sampling"]
    vectors = report["not_covered"]["vectors"]
    assert vectors["stream"] == list(VECTORS["stream"])
    assert vectors["parameters"] == [list(key) for key in VECTORS["parameters"] if key[0] == "grr"]
    assert vectors["sampling"] == [["grr", "input 0"], ["grr", "input 1"], ["grr", "input 2"]]
    assert report["not_covered"]["statement"] == (
        "not checked, and a pass says nothing about them: stream (4 vectors); parameters (11 vectors of grr); "
        "estimators (1 vector of grr); sampling (3 vectors of grr)")
    assert "parameters" not in report and report["unanswered"] == {}


def test_the_whole_kit_without_a_declaration_states_the_optional_kinds_left_out(grr_answers):
    report = report_of(grr_answers)
    assert report["declared"] is None and report["conforms"]
    assert report["not_covered"]["kinds"] == ["stream"]  # the samples are there
    without_samples = {key: value for key, value in grr_answers.items() if key != "samples"}
    assert report_of(without_samples)["not_covered"]["kinds"] == ["stream", "samples"]


def test_estimates_without_variances_conform_when_declared(grr_answers):
    estimates = [{"mechanism": a["mechanism"], "id": a["id"], "estimate": a["estimate"]}
                 for a in grr_answers["estimators"]]
    answers = {**declared(grr_answers, ["estimators.estimate", "samples"]), "estimators": estimates}
    report = report_of(answers)
    assert report["conforms"], report
    assert report["not_covered"]["kinds"] == ["stream", "parameters", "sampling", "estimators.variance",
                                              "estimators.direct"]
    assert report["not_covered"]["vectors"]["estimators.variance"] == [["grr", "example"]]
    off = {**answers, "estimators": [{**estimates[0], "estimate": [e * (1 + 1e-6) for e in estimates[0]["estimate"]]}]}
    assert not report_of(off)["conforms"]
    full = declared(grr_answers, ["estimators"])  # the whole answer: the variance is required
    assert report_of(full)["conforms"]
    assert not report_of({**full, "estimators": estimates})["conforms"]


def test_a_declared_kind_must_be_complete_for_each_claimed_mechanism(grr_answers):
    answers = declared(grr_answers, ["parameters", "samples"])
    assert report_of(answers)["conforms"]
    answers["parameters"].pop()
    report = report_of(answers)
    assert not report["conforms"] and report["unanswered"] == {"parameters": [["grr", "invalid: d=1"]]}
    oue = reference_answers("oue", samples=10)  # OUE claimed through its parameters, without a sample set
    answers = declared(grr_answers, ["parameters", "samples"])
    answers["parameters"] += oue["parameters"]
    report = report_of(answers)
    assert not report["conforms"] and report["unanswered"] == {"samples": ["oue"]}
    stream = declared(grr_answers, ["stream", "samples"])
    assert report_of(stream)["unanswered"] == {"stream": list(VECTORS["stream"])}


@pytest.mark.parametrize("change, message", [
    ({"answers": ["samples"], "parameters": []}, "^ldpspec: error: parameters: the file declares"),
    ({"answers": ["parameters"]}, "^ldpspec: error: samples: the file declares"),
    ({"answers": ["samples"], "stream": []}, "^ldpspec: error: stream: the file declares"),
    ({"answers": ["estimators.estimate", "samples"],
      "estimators": [{"mechanism": "grr", "id": "example", "estimate": [1, 1, 1], "variance": [1, 1, 1]}]},
     r"^ldpspec: error: estimators\[0\]\.variance: the file declares only estimators\.estimate"),
    ({"answers": ["samples", "paramters"]}, "^ldpspec: error: answers: unknown 'paramters'"),
    ({"answers": ["estimators", "estimators.estimate", "samples"]}, "not both"),
    ({"answers": "samples"}, "^ldpspec: error: answers must be a non-empty list"),
    ({"answers": []}, "^ldpspec: error: answers must be a non-empty list"),
    ({"answers": ["samples", "samples"]}, "^ldpspec: error: answers must be a non-empty list of distinct"),
])
def test_an_answer_the_declaration_leaves_out_is_a_malformed_file(tmp_path, capsys, change, message):
    samples = {"samples": [{"mechanism": "grr", "input": 0, "releases": [0, 1, 2] * 100}]}
    status = run(tmp_path, {"format": ANSWERS_FORMAT, **samples, **change})
    assert status == 2
    assert re.search(message, capsys.readouterr().err)

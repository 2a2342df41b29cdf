"""``ldpspec conform`` as a library author meets it: clients written the way libraries write them (float coins,
NumPy arrays, their own generators) get a right answer, and each slip in an answers file gets a message that names the
field, the value and the fix. One test per item of the issue "The porter's front door" (items 1 to 9)."""

from __future__ import annotations

import json
import math
from fractions import Fraction

import numpy as np
import pytest

from ldpspec.reference.porting.conform import ALPHA, ANSWERS_FORMAT, POWER, conform
from ldpspec.reference.porting.outputs import (
    accepted_counts,
    detected_between,
    detected_tv,
    output_levels,
    output_plan,
    probability_bounds,
)
from ldpspec.reference.porting.vectors import build
from ldpspec.reference.tools.cli import main
from ldpspec.spec import output_distribution
from tests.porting.test_conform import reference_answers


class LibraryGRR:
    """GRR as a library writes it: a float coin from NumPy's generator, p and q in doubles."""

    def __init__(self, epsilon: float, d: int, seed: int, swapped: bool = False):
        e = math.exp(epsilon)
        self.d, self.rng = d, np.random.default_rng(seed)
        self.p, self.q = e / (e + d - 1), 1 / (e + d - 1)
        if swapped:  # the slip: keep the true item with q, as if p and q were exchanged
            self.p = self.q

    def perturb(self, x: int, n: int) -> list[int]:
        keep = self.rng.random(n) < self.p
        other = self.rng.integers(0, self.d - 1, n)
        return np.where(keep, x, np.where(other < x, other, other + 1)).tolist()


class LibraryOUE:
    """OUE as a library writes it: a NumPy float64 array of bits (0.0 and 1.0)."""

    def __init__(self, epsilon: float, d: int, seed: int):
        self.d, self.rng = d, np.random.default_rng(seed)
        self.q = 1 / (math.exp(epsilon) + 1)

    def perturb(self, x: int, n: int) -> list[list[float]]:
        probabilities = np.full(self.d, self.q)
        probabilities[x] = 0.5
        return (self.rng.random((n, self.d)) < probabilities).astype(np.float64).tolist()


def sample_set(mechanism: str, d: int, releases: list, **options) -> dict:
    return {"mechanism": mechanism, "options": {"epsilon": "1", "d": str(d), **options}, "input": 0,
            "releases": releases}


def run(tmp_path, capsys, answers: dict, *options: str) -> tuple[int, dict | None, str]:
    """``ldpspec conform`` on ``answers``: the exit status, the report (None on exit 2) and standard error."""
    path = tmp_path / "answers.json"
    path.write_text(json.dumps(answers), encoding="utf-8")
    status = main(["conform", str(path), *options])
    out, err = capsys.readouterr()
    return status, (json.loads(out) if status != 2 else None), err


def samples_only(*sets: dict) -> dict:
    return {"format": ANSWERS_FORMAT, "port": "a library", "answers": ["samples"], "samples": list(sets)}


# --- 1. float bits ---------------------------------------------------------------------------------------------------

def test_float_bits_from_a_numpy_client_conform(tmp_path, capsys):
    releases = LibraryOUE(1.0, 100, seed=1).perturb(0, 10_000)
    assert isinstance(releases[0][0], float)
    status, report, _ = run(tmp_path, capsys, samples_only(sample_set("oue", 100, releases)))
    assert status == 0, report["samples"][0]["guarantee"]
    assert report["samples"][0]["test"] == "bits" and report["samples"][0]["n"] == 10_000


# --- 2. forgotten options --------------------------------------------------------------------------------------------

def test_a_sample_set_without_options_is_refused_with_the_example(tmp_path, capsys):
    answers = samples_only({"mechanism": "grr", "input": 0, "releases": [0, 1, 2]})
    status, _, err = run(tmp_path, capsys, answers)
    assert status == 2
    assert ('samples[0].options is missing: give the options the releases were drawn at, each value a string as on '
            'the command line, e.g. {"epsilon": "1", "d": "3"} (grr\'s example)') in err


def test_releases_drawn_at_other_options_say_so_and_show_their_length(tmp_path, capsys):
    releases = LibraryOUE(1.0, 100, seed=2).perturb(0, 10_000)
    status, report, _ = run(tmp_path, capsys, samples_only(sample_set("oue", 3, releases)))
    assert status == 1
    (sample,) = report["samples"]
    assert sample["n"] == 10_000 and sample["never_released_count"] == 10_000
    assert sample["never_released"][0]["release"].endswith("… (100 entries)")
    assert sample["never_released"][0]["why"] == "100 entries; a release of this channel is 3 bits"
    assert sample["guarantee"] == "not stated: 10000 of the 10000 releases are not 3 bits (never_released)"
    assert sample["hint"] == ('no release is one of this channel\'s: were they drawn at other options than '
                              'samples[0].options ({"epsilon": "1", "d": "3"}, oue)?')
    grr = LibraryGRR(1.0, 100, seed=3).perturb(0, 1000)
    status, report, _ = run(tmp_path, capsys, samples_only(sample_set("grr", 3, [y + 3 for y in grr])))
    assert status == 1 and "hint" in report["samples"][0]
    assert report["samples"][0]["never_released"][0]["why"] == "not an output of the channel"


# --- 3. numbers as options -------------------------------------------------------------------------------------------

@pytest.mark.parametrize("options, message", [
    ({"epsilon": 1, "d": "3"}, 'samples[0].options.epsilon must be a string (options are texts, as on the command '
                               'line: "epsilon": "1"); got 1'),
    ({"epsilon": "1", "d": 3.0}, 'samples[0].options.d must be a string (options are texts, as on the command line: '
                                 '"d": "3.0"); got 3.0'),
    ([1, 3], 'samples[0].options must be an object of grr\'s options, e.g. {"epsilon": "1", "d": "3"}; got [1, 3]'),
])
def test_numbers_as_options_are_refused_with_the_value_and_what_is_expected(tmp_path, capsys, options, message):
    answers = samples_only({"mechanism": "grr", "options": options, "input": 0, "releases": [0]})
    status, _, err = run(tmp_path, capsys, answers)
    assert status == 2 and message in err, err


# --- 4. no power, no pass --------------------------------------------------------------------------------------------

def test_a_sample_set_too_small_to_detect_anything_is_undecided_exit_4(tmp_path, capsys):
    releases = LibraryGRR(1.0, 3, seed=4).perturb(0, 10)
    status, report, _ = run(tmp_path, capsys, samples_only(sample_set("grr", 3, releases)))
    assert status == 4 and report["conforms"] is None
    (sample,) = report["samples"]
    assert sample["conforms"] is None and sample["guarantee"].startswith("none at n = 10")
    assert report["undecided"].startswith("samples[0] (grr, n = 10): too few releases")
    # the same releases with one the channel never gives fail: a failure is a failure at any n
    status, report, _ = run(tmp_path, capsys, samples_only(sample_set("grr", 3, releases + [7])))
    assert status == 1 and report["conforms"] is False


# --- 5. the size each kind of release needs --------------------------------------------------------------------------

def test_every_kind_of_release_states_the_size_it_needs(tmp_path, capsys):
    grr = sample_set("grr", 3, LibraryGRR(1.0, 3, seed=5).perturb(0, 3000))
    oue = sample_set("oue", 100, LibraryOUE(1.0, 100, seed=6).perturb(0, 10_000))
    harmony = {"mechanism": "harmony", "options": {"epsilon": "1", "grid": "[-1, 0, 1]"}, "input": "0",
               "releases": []}
    built = build("harmony", harmony["options"])
    rng = np.random.default_rng(7)
    row = output_distribution(built.channel(), "0")
    labels, weights = list(row), np.array([float(p) for p in row.values()])
    harmony["releases"] = [json.loads(json.dumps(labels[k])) for k in rng.choice(len(labels), 2000, p=weights)]
    status, report, _ = run(tmp_path, capsys, samples_only(grr, oue, harmony))
    assert status == 0, report
    by_test = {sample["test"]: sample for sample in report["samples"]}
    assert set(by_test) == {"outputs", "bits", "whole release"}
    assert by_test["bits"]["n_to_detect_0.05"] == 8703  # the table of the conformance page, d = 100
    # outputs: at n_to_detect_half the true item's probability at half its value is caught, one release fewer not
    n = by_test["outputs"]["n_to_detect_half"]
    channel_row = {y: p for y, p in output_distribution(build("grr", grr["options"]).channel(), 0).items()}
    level = output_levels(channel_row, ALPHA)[0]
    low, high = probability_bounds(channel_row[0])

    def caught_at_half(size: int) -> bool:
        lo, hi = accepted_counts(size, low, high, level)
        below, _ = detected_between(size, lo, hi, 1 - Fraction(POWER))
        return below is not None and below >= high / 2

    assert caught_at_half(n) and not caught_at_half(n - 1)
    # whole release: the stated total variation reaches 0.05 at n_to_detect_tv_0.05, not one release earlier
    whole = by_test["whole release"]
    assert detected_tv(whole["outputs"], whole["n_to_detect_tv_0.05"], ALPHA, POWER) <= 0.05
    assert detected_tv(whole["outputs"], whole["n_to_detect_tv_0.05"] - 1, ALPHA, POWER) > 0.05


# --- 6. GRR's test does not fade with d ------------------------------------------------------------------------------

@pytest.mark.parametrize("d, n", [(3, 3000), (100, 10_000), (1000, 40_000)])
def test_a_correct_grr_library_conforms_and_p_q_swapped_fails(tmp_path, capsys, d, n):
    correct = sample_set("grr", d, LibraryGRR(1.0, d, seed=d).perturb(0, n))
    swapped = sample_set("grr", d, LibraryGRR(1.0, d, seed=d + 1, swapped=True).perturb(0, n))
    status, report, _ = run(tmp_path, capsys, samples_only(correct))
    assert status == 0, report["samples"][0]["failures"]
    status, report, _ = run(tmp_path, capsys, samples_only(swapped))
    assert status == 1
    assert report["samples"][0]["failures"][0]["output"] == 0  # the true item's frequency


def test_at_d_1000_the_swap_is_within_the_stated_power_at_40000_releases_and_not_at_20000():
    """At alpha = 1e-6 the true item's probability falling from 0.0027 to 0.0010 (p and q swapped) is caught with
    probability 0.99 at 40,000 releases; at 20,000 no level-1e-6 test is sure of it (the most powerful one, which
    rejects a small count of the true item, catches it with probability 0.72), and the report says so; at
    alpha = 0.005 the 20,000 releases suffice."""
    row = {y: p for y, p in output_distribution(build("grr", {"epsilon": "1", "d": "1000"}).channel(), 0).items()}
    q = 1 / (math.e + 999)
    assert output_plan(row, 40_000, ALPHA, POWER).test({})["most_likely_detected"]["at_most"] >= q
    assert output_plan(row, 20_000, ALPHA, POWER).test({})["most_likely_detected"]["at_most"] < q
    assert output_plan(row, 20_000, 0.005, POWER).test({})["most_likely_detected"]["at_most"] >= q


def test_the_swap_at_d_1000_and_20000_releases_fails_at_alpha_0_005(tmp_path, capsys):
    swapped = sample_set("grr", 1000, LibraryGRR(1.0, 1000, seed=8, swapped=True).perturb(0, 20_000))
    status, _, _ = run(tmp_path, capsys, samples_only(swapped), "--alpha", "0.005")
    assert status == 1


# --- 7. the scope names only what applies ----------------------------------------------------------------------------

def test_the_scope_of_a_unary_encoding_names_no_direct_estimators():
    oue = reference_answers("oue", samples=200)
    answers = {"format": ANSWERS_FORMAT, "answers": ["parameters", "estimators.estimate", "estimators.variance"],
               "parameters": oue["parameters"],
               "estimators": [{k: v for k, v in answer.items() if k in ("mechanism", "id", "estimate", "variance")}
                              for answer in oue["estimators"]]}
    report = conform(answers)
    assert report["conforms"], report
    assert "estimators.direct" not in report["not_covered"]["statement"]
    assert "estimators.direct" not in report["not_covered"]["kinds"]
    grr = reference_answers("grr", samples=200)  # a direct encoding: its direct estimators are left out, and said
    answers["parameters"], answers["estimators"] = grr["parameters"], [
        {k: v for k, v in answer.items() if k in ("mechanism", "id", "estimate", "variance")}
        for answer in grr["estimators"]]
    assert "estimators.direct (1 vector of grr)" in conform(answers)["not_covered"]["statement"]


# --- 8. which options the estimators were checked at ----------------------------------------------------------------

def test_the_estimators_state_their_options_and_note_samples_at_others():
    grr = reference_answers("grr", samples=200)
    answers = {"format": ANSWERS_FORMAT, "answers": ["estimators", "samples"], "estimators": grr["estimators"],
               "samples": [sample_set("grr", 1000, LibraryGRR(1.0, 1000, seed=9).perturb(0, 40_000))]}
    report = conform(answers)
    assert report["estimators"]["at_options"] == {"grr": [{"epsilon": "1", "d": "3"}]}
    assert report["estimators"]["note"] == ("the estimators are checked at the options of their vectors only "
                                            "(at_options); the sample sets of grr are at other options, where no "
                                            "estimator is checked")
    answers["samples"] = [sample_set("grr", 3, LibraryGRR(1.0, 3, seed=10).perturb(0, 3000))]
    assert "note" not in conform(answers)["estimators"]


# --- 9. hints toward the declaration ---------------------------------------------------------------------------------

def test_estimators_without_a_variance_point_to_the_declaration():
    grr = reference_answers("grr", samples=200)
    estimates = [{k: v for k, v in answer.items() if k != "variance"} for answer in grr["estimators"]]
    report = conform({"format": ANSWERS_FORMAT, "answers": ["estimators"], "estimators": estimates})
    (failure,) = report["estimators"]["failures"]
    assert failure["failure"] == ('variance: not given; a port that does not compute it declares the parts it '
                                  'answers, as "answers": ["estimators.estimate"]')


def test_a_file_without_a_declaration_that_answers_part_of_the_kit_gets_a_hint():
    grr = reference_answers("grr", samples=200)
    report = conform({"format": ANSWERS_FORMAT, "parameters": grr["parameters"], "samples": grr["samples"]})
    assert report["conforms"] is False
    assert report["hint"] == ('4 vectors of the claimed mechanisms are unanswered; a port that answers part of the '
                              'kit declares the kinds it answers, as "answers": ["parameters", "samples"]')

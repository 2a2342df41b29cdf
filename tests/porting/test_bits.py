"""The sample test of bit-vector releases (``reference/porting/bits.py``): the law it reads from a channel's structure
is the exact channel's; a correct sampler passes at d = 100 and d = 1000; slips of each kind (a bit's probability,
one item's bit, bits drawn together) fail at the recommended 10,000 releases; the stated power is never vacuous; and
through ``ldpspec conform``, a samples-only file passes for a correct sampler with its own generator and fails for one
whose true bit is off by 0.05 at d = 8, 100 and 1000.

Every sampler draws from a seeded NumPy generator: the outcomes are the same on every run."""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import numpy as np
import pytest

from ldpspec.reference.porting.bits import (
    bit_law,
    bit_test,
    detected_deviation,
    samples_needed,
)
from ldpspec.reference.porting.conform import ALPHA, ANSWERS_FORMAT, POWER
from ldpspec.reference.porting.outputs import whole_release_test
from ldpspec.reference.porting.vectors import build
from ldpspec.reference.registry import MECHANISMS
from ldpspec.reference.tools.cli import main
from ldpspec.spec.exact import ZERO

RECOMMENDED = 10_000
"""The releases per sample set the kit recommends for a bit vector (docs/porting/conform.md)."""
LARGEST_D = 8559
"""The largest d at which the recommended size detects a deviation of 0.05 (docs/porting/conform.md)."""
GRR_ROW = [np.e / (np.e + 2), 1 / (np.e + 2), 1 / (np.e + 2)]
"""GRR's row at epsilon = 1 and d = 3, for the whole-release test."""


def oue(d: int):
    return build("oue", {"epsilon": "1", "d": str(d)})


# --- the law, from the structure -------------------------------------------------------------------------------

BIT_VECTOR = sorted(name for name, m in MECHANISMS.items() if m.reports == "bit-vector")
SMALL = {"oue-ps": {"epsilon": "1", "m": "3", "padding": "2"}, "rappor-ps": {"epsilon": "1", "m": "3", "padding": "2"}}


@pytest.mark.parametrize("name", BIT_VECTOR)
def test_the_law_read_from_the_structure_is_the_exact_channels(name):
    """Each bit's probability, each pair's probability of both being 1, and the law of the number of ones, summed
    exactly over the explicit channel, agree with the law read from the structure within its stated rounding bound;
    and a pair left out of ``dependent`` has a joint law that is exactly the product of its marginals. A channel with
    no structure of bits (suRAP and its kin, whose channel is an explicit matrix) is tested whole instead."""
    declaration = MECHANISMS[name]
    channel = build(name, SMALL.get(name, declaration.example())).channel()
    if bit_law(channel, channel.inputs[0]) is None:
        assert channel.matrix() is not None, f"{name}: neither a structure of bits nor an explicit channel"
        return
    outputs = list(itertools.product((0, 1), repeat=channel.bit_count))
    for x in channel.inputs:
        law = bit_law(channel, x)
        exact = {y: channel.probability(x, y) for y in outputs}
        bits = range(law.bits)
        ones = [sum((p for y, p in exact.items() if y[k]), ZERO) for k in bits]
        for k in bits:
            assert abs(float(ones[k]) - law.ones[k]) <= law.rounding
        for j, k in itertools.combinations(bits, 2):
            both = sum((p for y, p in exact.items() if y[j] and y[k]), ZERO)
            assert abs(float(both) - law.pair_one(j, k)) <= law.rounding
            assert ((j, k) in law.dependent) == (both != ones[j] * ones[k]), (x, j, k)
        for s in range(law.bits + 1):
            count = sum((p for y, p in exact.items() if sum(y) == s), ZERO)
            assert abs(float(count) - law.ones_count[s]) <= law.rounding


def test_a_sampled_one_hot_vector_has_dependent_pairs_and_they_are_tested():
    channel = build("oue-ps", SMALL["oue-ps"]).channel()
    law = bit_law(channel, (0, 1, 2))
    assert sorted(law.dependent) == [(0, 1), (0, 2), (1, 2)]
    releases = [list(y) for y in itertools.product((0, 1), repeat=law.bits)] * 3
    report = bit_test(law, releases, ALPHA, POWER)
    assert report["tests"] == {"bits": 5, "pairs": 3 + 2, "ones_count": 1, "total": 11}  # neighbours (2, 3), (3, 4)


# --- samplers, correct and slipped ---------------------------------------------------------------------------------

def draw(d: int, n: int, seed: int, slip: str | None = None) -> np.ndarray:
    """``n`` OUE releases (epsilon 1) of input 0 over ``d`` items, drawn with NumPy's generator, with ``slip``."""
    law = bit_law(oue(d).channel(), 0)
    rng = np.random.default_rng(seed)
    probabilities = law.ones.copy()
    q = probabilities[1]
    if slip == "true bit +0.05":
        probabilities[0] += 0.05
    elif slip == "true bit -0.05":
        probabilities[0] -= 0.05
    elif slip == "other bits +0.05":
        probabilities[1:] += 0.05
    elif slip == "one other item's bit +0.05":
        probabilities[d // 2] += 0.05
    uniforms = rng.random((n, d))
    if slip == "neighbours from one number":  # bits 2i + 1 and 2i + 2 (not the true bit 0) share a uniform
        pairs = (d - 1) // 2
        uniforms[:, 2:2 + 2 * pairs:2] = uniforms[:, 1:1 + 2 * pairs:2]
    elif slip == "one number for every bit":
        uniforms[:] = uniforms[:, :1]
    elif slip == "halves antithetic":  # bit k and bit k + h from u and 1 - u (k >= 1)
        h = (d - 1) // 2
        uniforms[:, 1 + h:1 + 2 * h] = 1 - uniforms[:, 1:1 + h]
    releases = (uniforms < probabilities).astype(np.uint8)
    if slip == "fixed number of ones":  # the other bits: exactly round((d - 1) q) of them set, uniformly placed
        ones = round((d - 1) * q)
        order = np.argsort(rng.random((n, d - 1)), axis=1)
        releases[:, 1:] = (order < ones).astype(np.uint8)
    return releases


@pytest.mark.parametrize("d", [100, 1000])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_correct_sampler_passes(d, seed):
    report = bit_test(bit_law(oue(d).channel(), 0), draw(d, RECOMMENDED, seed), ALPHA, POWER)
    assert report["conforms"], report["failures"]
    assert report["detects_deviation_at_least"] < 0.05


SLIPS = {  # slip -> the test that sees it
    "true bit +0.05": "bit",
    "true bit -0.05": "bit",
    "other bits +0.05": "bit",
    "one other item's bit +0.05": "bit",
    "neighbours from one number": "pair",
    "one number for every bit": "pair",
    "halves antithetic": "ones_count",
    "fixed number of ones": "ones_count",
}


@pytest.mark.parametrize("d", [100, 1000])
@pytest.mark.parametrize("slip", sorted(SLIPS))
def test_each_slip_fails_at_the_recommended_size(d, slip):
    """Every slip fails, and the test that sees it is among the failures: a bit's test for a probability off by
    0.05 (one bit among 1000 included), a pair's for neighbouring bits drawn together, the number of ones' for a
    correlation spread over many pairs (each pair's share too small for its own test)."""
    report = bit_test(bit_law(oue(d).channel(), 0), draw(d, RECOMMENDED, 7, slip), ALPHA, POWER)
    assert not report["conforms"]
    assert any(SLIPS[slip] in failure["test"] for failure in report["failures"]), report["failures"]


# --- the stated power ---------------------------------------------------------------------------------------------

def test_the_recommended_size_detects_0_05_up_to_the_stated_d():
    """With d bits, the test makes 2d tests (d bits, d - 1 neighbours, the number of ones)."""
    assert detected_deviation(RECOMMENDED, 2 * LARGEST_D, ALPHA, POWER) <= 0.05
    assert detected_deviation(RECOMMENDED, 2 * (LARGEST_D + 1), ALPHA, POWER) > 0.05
    for d in (8, 100, 1000):
        assert samples_needed(0.05, 2 * d, ALPHA, POWER) <= RECOMMENDED
        assert detected_deviation(samples_needed(0.05, 2 * d, ALPHA, POWER) - 1, 2 * d, ALPHA, POWER) > 0.05


@pytest.mark.parametrize("n", [1, 5, 20, 50, 200, 2000])
def test_no_stated_power_is_vacuous(n):
    """The stated deviation is one some tested probability can move by (a bit with probability 1/2 moves by 1/2 at
    most); otherwise the report states that there is no guarantee. Likewise the whole release's total variation."""
    law = bit_law(oue(8).channel(), 0)
    report = bit_test(law, draw(8, n, 5), ALPHA, POWER)
    tested = [*law.ones, *(law.pair_one(k, k + 1) for k in range(law.bits - 1)), law.window()[2]]
    reach = max(max(p, 1 - p) for p in tested)
    stated = report["detects_deviation_at_least"]
    assert (stated is None) == (detected_deviation(n, report["tests"]["total"], ALPHA, POWER, law.rounding) > reach)
    assert stated is None or stated <= reach
    if stated is None:
        assert report["guarantee"].startswith(f"none at n = {n}")
    releases = max(n // 8, 1) * 8
    whole = whole_release_test([releases * 6 // 8, releases // 8, releases // 8], GRR_ROW, releases, ALPHA, POWER)
    tv = whole["detects_tv_at_least"]
    assert tv is None or tv <= 1 - 1 / (np.e + 2)  # no distribution on GRR's 3 outputs is farther
    assert (tv is None) == whole["guarantee"].startswith("none at n")


def test_the_old_vacuous_case_states_no_guarantee():
    """OUE at d = 14 with 20,000 releases was tested whole (2^14 outputs) and stated a detected total variation of
    1.0. Now it is tested bit by bit, with a true power; the whole-release test states none where its bound exceeds
    what any distribution reaches (GRR over 3 items, 10 releases)."""
    report = bit_test(bit_law(oue(14).channel(), 0), draw(14, 20_000, 9), ALPHA, POWER)
    assert report["conforms"] and report["detects_deviation_at_least"] < 0.04
    whole = whole_release_test([6, 2, 2], GRR_ROW, 10, ALPHA, POWER)
    assert whole["detects_tv_at_least"] is None and whole["guarantee"].startswith("none at n = 10")


# --- malformed releases -------------------------------------------------------------------------------------------

@pytest.mark.parametrize("bad, why", [([1, 0], "2 entries; a release of this channel is 3 bits"),
                                      ([1, 0, 2], "entry 2 is 2, not a bit"), ([1, 0, 0.5], "entry 2 is 0.5"),
                                      ("100", "not a list of 3 bits"), (None, "not a list"),
                                      ([[1], 0, 0], "entry 0 is [1], not a bit")])
def test_a_release_that_is_not_d_bits_fails_at_once_and_says_why(bad, why):
    law = bit_law(oue(3).channel(), 0)
    good = draw(3, 3000, 4).tolist()
    report = bit_test(law, good[:1000] + [bad] + good[1000:], ALPHA, POWER)
    assert not report["conforms"] and report["never_released_count"] == 1
    assert report["never_released"][0]["release"] == json.dumps(bad) and why in report["never_released"][0]["why"]
    assert report["guarantee"] == "not stated: 1 of the 3001 releases are not 3 bits (never_released)"
    assert report["largest_deviation"]["deviation"] < report["threshold"]  # the others are counted, and pass
    assert bit_test(law, good, ALPHA, POWER)["conforms"]


# --- through ldpspec conform: a samples-only file ------------------------------------------------------------------

def samples_only(d: int, slip: str | None) -> dict:
    releases = draw(d, RECOMMENDED, 11, slip).tolist()
    return {"format": ANSWERS_FORMAT, "port": "numpy sampler", "answers": ["samples"],
            "samples": [{"mechanism": "oue", "options": {"epsilon": "1", "d": str(d)}, "input": 0,
                         "releases": releases}]}


@pytest.mark.parametrize("d", [8, 100, 1000])
def test_a_samples_only_file_passes_for_a_correct_sampler_and_fails_with_the_true_bit_off_by_0_05(
        tmp_path, capsys, d):
    path = tmp_path / "answers.json"
    path.write_text(json.dumps(samples_only(d, None)), encoding="utf-8")
    assert main(["conform", str(path)]) == 0
    report = json.loads(capsys.readouterr().out)
    (sample,) = report["samples"]
    assert sample["test"] == "bits" and sample["n"] == RECOMMENDED and sample["detects_deviation_at_least"] < 0.05
    assert report["not_covered"]["kinds"] == ["stream", "parameters", "estimators", "sampling"]
    assert [["oue", "example"]] == report["not_covered"]["vectors"]["estimators"]
    assert report["not_covered"]["statement"].startswith("not checked, and a pass says nothing about them: stream")
    path.write_text(json.dumps(samples_only(d, "true bit +0.05")), encoding="utf-8")
    assert main(["conform", str(path)]) == 1
    (sample,) = json.loads(capsys.readouterr().out)["samples"]
    assert sample["failures"][0]["test"] == {"bit": 0}


def test_the_pages_table_of_the_recommended_size_is_computed():
    """docs/porting/conform.md's table of the deviation 10,000 releases detect and the releases 0.05 needs."""
    page = (Path(__file__).resolve().parents[2] / "docs" / "porting" / "conform.md").read_text(encoding="utf-8")
    sizes = (8, 100, 1000, LARGEST_D)
    rows = [
        "| \\(d\\) | " + " | ".join(str(d) for d in sizes) + " |",
        "|---|" + "---|" * len(sizes),
        "| \\(T = 2d\\) tests | " + " | ".join(f"{2 * d:,}" for d in sizes) + " |",
        "| detected deviation \\(\\delta\\) at \\(n = 10{,}000\\) | "
        + " | ".join(f"{detected_deviation(RECOMMENDED, 2 * d, ALPHA, POWER):.4f}" for d in sizes) + " |",
        "| releases needed for \\(\\delta = 0.05\\) (`n_to_detect_0.05`) | "
        + " | ".join(f"{samples_needed(0.05, 2 * d, ALPHA, POWER):,}" for d in sizes) + " |",
    ]
    assert "\n".join(rows) in page, "\n".join(rows)
    law = bit_law(oue(100).channel(), 0)
    report = bit_test(law, draw(100, RECOMMENDED, 1), ALPHA, POWER)
    assert report["tests"]["total"] == 200
    assert report["n_to_detect_0.05"] == samples_needed(0.05, 200, ALPHA, POWER, law.rounding) == 8703

"""The vendored summaries of Retail (FIMI) and Clothing (Rent the Runway), their rebuild scripts, and the exact
machinery the real-data claims of Gu et al. rest on (``ldpspec.verify.gu2020.real_data``)."""

from __future__ import annotations

import gzip
import importlib.util
import json
import random

import numpy as np
import pytest
from scipy.stats import binom

import ldpspec.verify.data as data
from ldpspec.verify.gu2020 import real_data

VENDORED = data.HERE
"""The folder of the vendored data sets (the tests below point ``data.HERE`` elsewhere)."""


def _rebuild_module(name: str):
    spec = importlib.util.spec_from_file_location(f"rebuild_{name}", VENDORED / name / "rebuild.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture
def scratch(tmp_path, monkeypatch):
    """``write_summary`` writes under a scratch folder instead of the vendored one."""
    for name in ("retail", "clothing"):
        (tmp_path / name).mkdir()
    monkeypatch.setattr(data, "HERE", tmp_path)
    return tmp_path


def _read(path) -> dict:
    with gzip.open(path, "rt", encoding="utf-8") as file:
        return json.load(file)


# --- the vendored summaries against Table III of Gu et al. -------------------------------------------------------

def test_retail_matches_table_iii():
    retail = data.summary("retail")
    assert (retail["users"], retail["records"], retail["items"]) == (88_162, 908_576, 16_470)
    assert len(retail["first_item_counts"]) == 16_470 and sum(retail["first_item_counts"]) == 88_162
    sizes = {int(size): users for size, users in retail["set_sizes"].items()}
    assert sum(sizes.values()) == 88_162 and sum(size * users for size, users in sizes.items()) == 908_576


def test_clothing_matches_table_iii_records_and_items():
    clothing = data.summary("clothing")
    assert (clothing["records"], clothing["items"]) == (192_544, 5_850)
    # Table III prints 105,508 users; the file holds 105,571 distinct user_id (SOURCE.md)
    assert clothing["users"] == 105_571
    assert clothing["item_ids"] == sorted(set(clothing["item_ids"])) and len(clothing["item_ids"]) == 5_850
    multi = [(users, items) for users, items in clothing["sets"]]
    assert sum(clothing["single"]) + sum(users for users, _ in multi) == clothing["users"]
    assert sum(clothing["single"]) + sum(users * len(items) for users, items in multi) == clothing["pairs"] == 192_278
    assert all(len(items) >= 2 and items == sorted(set(items)) and 0 <= items[0] and items[-1] < 5_850
               for _, items in multi)
    assert len({tuple(items) for _, items in multi}) == len(multi)


def test_the_loaded_sets_are_the_summary():
    sets = real_data.clothing_sets()
    assert (sets.n, sets.m, len(sets.items)) == (105_571, 5_850, 192_278)
    assert abs(sets.average - 192_278 / 105_571) < 1e-12
    assert real_data.padding_lengths(sets) == {"mean": 2, "percentile-90": 3}


def test_the_loader_refuses_an_unknown_data_set():
    assert {"retail", "clothing"} <= set(data.available())
    for name in ("no-such-data", "Retail"):
        with pytest.raises(KeyError, match=name):
            data.summary(name)


# --- the rebuild scripts -----------------------------------------------------------------------------------------

RETAIL_LINES = ["3 0 1 ", "1 2", "", "2 3 4 1", "0", "4 4 2"]


def test_retail_rebuild_summarises_and_is_deterministic(scratch):
    retail = _rebuild_module("retail")
    original = scratch / "retail.dat"
    original.write_text("\n".join(RETAIL_LINES) + "\n")
    retail.main([str(original), "--unchecked"])
    first = (scratch / "retail" / "summary.json.gz").read_bytes()
    retail.main([str(original), "--unchecked"])
    assert (scratch / "retail" / "summary.json.gz").read_bytes() == first
    assert _read(scratch / "retail" / "summary.json.gz") == {
        "data_set": "retail", "users": 5, "records": 13, "items": 5, "first_item_counts": [1, 1, 1, 1, 1],
        "set_sizes": {"1": 1, "2": 1, "3": 2, "4": 1}}


def test_retail_rebuild_checks_the_original(scratch):
    retail = _rebuild_module("retail")
    original = scratch / "retail.dat"
    original.write_text("0 1\n")
    with pytest.raises(SystemExit, match=retail.SHA256):
        retail.main([str(original)])
    assert not (scratch / "retail" / "summary.json.gz").exists()
    with pytest.raises(ValueError, match="never occur"):
        retail.summarise(["0 2"])
    with pytest.raises(ValueError, match="integers"):
        retail.summarise(["0 x"])


def test_clothing_rebuild_keeps_every_set_and_ignores_row_order(scratch):
    clothing = _rebuild_module("clothing")
    rows = [("7", "300"), ("7", "100"), ("8", "100"), ("9", "200"), ("9", "300"), ("9", "300"), ("10", "200"),
            ("11", "100"), ("11", "300"), ("12", "300")]
    for order, name in ((rows, "a.json"), (random.Random(1).sample(rows, len(rows)), "b.json")):
        original = scratch / name
        original.write_text("\n".join(json.dumps({"user_id": user, "item_id": item, "rating": "10"})
                                      for user, item in order) + "\n")
        clothing.main([str(original), "--unchecked"])
        written = (scratch / "clothing" / "summary.json.gz").read_bytes()
        if name == "a.json":
            first = written
    assert written == first
    assert _read(scratch / "clothing" / "summary.json.gz") == {
        "data_set": "clothing", "records": 10, "users": 6, "items": 3, "pairs": 9, "item_ids": [100, 200, 300],
        "single": [1, 1, 1], "sets": [[2, [0, 2]], [1, [1, 2]]]}
    with pytest.raises(SystemExit, match=clothing.SHA256):
        clothing.main([str(scratch / "a.json")])


# --- the exact machinery of the real-data claims --------------------------------------------------------------------

def _enumerated(counts, sample, n, a, b, padding):
    """``E|c_hat - c|`` and ``E(c_hat - c)^2`` by convolving the binomials' probability mass functions."""
    pmf = np.array([1.0])
    for count, q in zip(counts, sample):
        pmf = np.convolve(pmf, binom.pmf(np.arange(count + 1), count, b + (a - b) * q))
    held = sum(counts)
    pmf = np.convolve(pmf, binom.pmf(np.arange(n - held + 1), n - held, b))
    error = padding * (np.arange(len(pmf)) - n * b) / (a - b) - held
    return (pmf * np.abs(error)).sum(), (pmf * error ** 2).sum()


@pytest.mark.parametrize("counts, sample, n, a, b, padding", [
    ([3, 2], [1 / 2, 1 / 3], 12, 0.5, 0.2, 2),
    ([50], [1.0], 400, 0.7, 0.3, 1),
    ([0], [1.0], 5, 0.6, 0.01, 1),
    ([1000, 300, 7], [1 / 3, 1 / 5, 1 / 40], 20_000, 0.5, 0.05, 3),
    ([40, 0, 9], [1.0, 1 / 2, 1 / 7], 3_000, 0.9, 0.45, 7),
])
def test_exact_errors_agree_with_enumeration(counts, sample, n, a, b, padding):
    absolute, square = real_data.exact_errors(np.array([counts]), np.array(sample), n, a, b, padding)
    expected_absolute, expected_square = _enumerated(counts, sample, n, a, b, padding)
    assert absolute[0] == pytest.approx(expected_absolute, rel=1e-9)
    assert square[0] == pytest.approx(expected_square, rel=1e-9)


def test_counts_by_size_and_sampling_follow_padding_and_sampling():
    sets = real_data.ItemSets(4, np.array([1, 2, 3, 1]), np.array([0, 1, 3, 6]), np.array([0, 0, 1, 1, 2, 3, 1]))
    sizes, counts = sets.counts_by_size(np.array([1, 0]))
    assert sizes.tolist() == [1, 2, 3] and counts.tolist() == [[1, 1, 1], [1, 1, 0]]
    padding, draws = 2, 20_000
    rng = np.random.default_rng(3)
    total = sum(real_data.sampled_items(sets, padding, rng) for _ in range(draws))
    # item i is sampled by each holder with probability 1/max(|x|, l): 1/2 + 1/2, 1/2 + 1/3 + 1/2, 1/3, 1/3
    expected = np.array([1, 4 / 3, 1 / 3, 1 / 3]) * draws
    assert np.all(np.abs(total - expected) < 5 * np.sqrt(expected))


def test_top_estimates_is_a_stable_sort():
    rng = np.random.default_rng(0)
    for _ in range(50):
        estimate = rng.integers(0, 6, size=40).astype(float)
        assert real_data.top_estimates(estimate, 7).tolist() == np.argsort(-estimate, kind="stable")[:7].tolist()

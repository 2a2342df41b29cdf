"""Answers sized for a person: check and profile print a summary whatever the channel's size, and the complete
listing with --full or --output FILE."""

from __future__ import annotations

import json

import numpy as np

from ldpspec import spec
from ldpspec.spec.labels import label_text
from tests.fuzz.contract import run


def test_the_readmes_deployment_check_prints_under_10_kb_and_full_lists_every_budget(tmp_path):
    path = str(tmp_path / "deployment.json")
    status, _, err = run(["channel", "idue", "--levels", "[[1, 5000], [2, 95000]]", "--classes", "--output", path])
    assert status == 0, err
    status, out, _ = run(["check", path, "--notion", "minid-ldp"])
    assert status == 0 and len(out.encode()) < 10_000
    summary = json.loads(out)
    assert summary["parameters"]["budgets"]["inputs"] == 100_000
    assert [(g["budget"], g["inputs"], g["first"]) for g in summary["parameters"]["budgets"]["by budget"]] == [
        ("1", 5000, 0), ("2", 95000, 5000)]
    assert len(summary["witness"]["detail"]) < 300
    full_file = tmp_path / "full.json"
    status, full_out, _ = run(["check", path, "--notion", "minid-ldp", "--full"])
    assert status == 0
    full = json.loads(full_out)
    assert len(full["parameters"]["budgets"]) == 100_000
    assert dict(map(tuple, full["parameters"]["budgets"]))[4999] == "1"
    status, out, _ = run(["check", path, "--notion", "minid-ldp", "--output", str(full_file)])
    assert status == 0 and json.loads(out) == summary and json.loads(full_file.read_text()) == full
    assert full["witness"]["log_ratio"] == summary["witness"]["log_ratio"]


def test_a_profiles_summary_agrees_with_its_complete_listing(tmp_path):
    rng = np.random.default_rng(7)
    matrix = rng.random((30, 30))
    matrix /= matrix.sum(axis=1, keepdims=True)
    path = tmp_path / "random.json"
    path.write_text(json.dumps({"inputs": list(range(30)), "outputs": list(range(30)),
                                "probabilities": matrix.tolist(), "reading": {"rows": "renormalise"}}))
    status, out, _ = run(["profile", str(path)])
    assert status == 0
    summary = json.loads(out)
    status, out, _ = run(["profile", str(path), "--full"])
    full = json.loads(out)
    assert summary["ldp_epsilon_exact"] == full["ldp_epsilon_exact"]
    pairs = full["pairwise_loss"]
    assert summary["pairwise_loss"]["pairs"] == len(pairs) == 30 * 29
    losses = sorted((float(entry["loss"]) for entry in pairs), reverse=True)
    assert [float(entry["loss"]) for entry in summary["pairwise_loss"]["largest"]] == losses[:20]
    assert summary["pairwise_loss"]["largest"][0]["exact"] == full["ldp_epsilon_exact"]
    histogram = summary["pairwise_loss"]["histogram"]
    assert sum(b["pairs"] for b in histogram["bins"]) + histogram["infinite"] == len(pairs)
    worst = {}
    for entry in pairs:
        worst[entry["input"]] = max(worst.get(entry["input"], 0.0), float(entry["loss"]))
    partners = summary["pairwise_loss"]["worst_partner"]
    assert partners["inputs"] == 30
    assert all(float(entry["loss"]) == worst[entry["input"]] for entry in partners["largest"])
    assert summary["output_loss"]["outputs"] == 30 and len(summary["output_loss"]["largest"]) == 20
    assert len(json.dumps(summary)) < len(json.dumps(full)) / 5


def test_a_small_channel_is_shown_whole():
    status, out, _ = run(["profile", "docs/examples/grr3.json"])
    _, full, _ = run(["profile", "docs/examples/grr3.json", "--full"])
    assert status == 0 and json.loads(out) == json.loads(full)


def test_a_long_bit_vector_is_named_by_its_rarer_positions():
    vector = tuple(1 if k in (3, 70_000) else 0 for k in range(100_000))
    assert label_text(vector) == "<100,000 bits, ones at [3, 70000]>"
    many = tuple(k % 3 == 0 for k in range(99))  # not 0/1 ints: shown as its repr, cut short
    assert len(label_text(many)) == 80 and label_text(many).endswith("...")
    assert label_text("a") == "'a'"
    spread = tuple(int(k % 7 == 0) for k in range(1000))
    assert label_text(spread).startswith("<1,000 bits, ones at [0, 7, 14, 21, 28, 35, 42, 49, ...]")


def test_the_python_verdict_is_complete_unless_asked_for_a_summary():
    channel = spec.Channel(range(30), range(2), [["1/2", "1/2"]] * 30)
    verdict = spec.min_id_ldp(channel, dict.fromkeys(range(30), 1))
    assert len(verdict.to_json()["parameters"]["budgets"]) == 30
    assert verdict.to_json(full=False)["parameters"]["budgets"]["inputs"] == 30


def test_a_pairwise_limit_that_sizes_alone_decide_is_checked_before_any_number_is_read(tmp_path):
    """200^2 x 101 = 4,040,000 steps, over the default 4,000,000: refused with the work message although every entry
    is unreadable, which proves that no number was read (a 1000 x 1000 file is refused the same way, in the time it
    takes to read its JSON)."""
    path = tmp_path / "large.json"
    path.write_text(json.dumps({"inputs": list(range(200)), "outputs": list(range(101)),
                                "probabilities": [["not a number"] * 101] * 200}))
    for argv in (["profile", str(path)], ["check", str(path), "--notion", "minid-ldp", "--budgets", "[1]"]):
        status, _, err = run(argv)
        assert status == 2 and "4,040,000 steps, more than the limit of 4,000,000" in err, err
    status, _, err = run(["check", str(path), "--notion", "ldp", "--epsilon", "1"])  # a column scan: reads them
    assert status == 2 and "not a number" in err

"""Channel files of version 3 (items in classes): written by ``ldpspec channel --classes``, read back to the same
channel and the same verdicts as the explicit file, refused by name when malformed; a deployment of 10^5 items
checked and profiled whole."""

from __future__ import annotations

import json

import pytest

from ldpspec import spec
from ldpspec.reference import channelfile
from ldpspec.reference.tools.cli import main
from ldpspec.spec.errors import InvalidChannel

SMALL = [
    ("oue", ["--epsilon", "1", "--d", "4"], "ldp"),
    ("sue", ["--epsilon", "1000", "--d", "3"], "ldp"),
    ("idue", ["--levels", "[[1, 2], [2, 1]]"], "minid-ldp"),
    ("grr", ["--epsilon", "1", "--d", "4"], "ldp"),
    ("iprr", ["--budgets", "[0.5, 1, null, null]"], "ipldp"),
    ("urr", ["--epsilon", "1", "--d", "4", "--sensitive", "[0, 1]"], "uldp"),
]


def run(argv, capsys) -> tuple[int, str, str]:
    status = main(argv)
    captured = capsys.readouterr()
    return status, captured.out, captured.err


@pytest.mark.parametrize("name, options, notion", SMALL)
def test_a_file_with_classes_reads_back_to_the_explicit_channel_and_its_verdict(name, options, notion, capsys,
                                                                                  tmp_path):
    status, classed, err = run(["channel", name, *options, "--classes"], capsys)
    assert status == 0, err
    assert json.loads(classed)["format"] == "ldpspec-channel/3"
    status, explicit, err = run(["channel", name, *options], capsys)
    assert status == 0, err
    by_class, by_matrix = channelfile.parse_channel_file(classed), channelfile.parse_channel_file(explicit)
    assert by_class.channel.explicit().rows == by_matrix.channel.rows
    assert by_class.privacy == by_matrix.privacy
    verdicts = []
    for text in (classed, explicit):
        path = tmp_path / "channel.json"
        path.write_text(text, encoding="utf-8")
        status, out, err = run(["check", str(path), "--notion", notion], capsys)
        verdict = json.loads(out)
        verdicts.append((status, verdict["holds"], verdict["margin"], verdict["witness"]["log_ratio"]))
    assert verdicts[0] == verdicts[1]


def test_a_deployment_of_100000_items_is_written_checked_and_profiled(capsys, tmp_path):
    path = tmp_path / "deployment.json"
    status, _, err = run(["channel", "idue", "--levels", '[[1, 5000], ["1.2", 5000], [2, 90000]]', "--classes",
                          "--output", str(path)], capsys)
    assert status == 0, err
    document = json.loads(path.read_text(encoding="utf-8"))
    assert document["class_sizes"] == [5000, 5000, 90000] and document["privacy"] == {"class_budgets": ["1", "1.2",
                                                                                                        "2"]}
    status, out, err = run(["check", str(path), "--notion", "minid-ldp"], capsys)
    assert status == 0, err
    witness = json.loads(out)["witness"]
    assert witness["output"]["bits"] == 100_000 and len(witness["output"]["zeros"]) <= 2
    status, out, err = run(["profile", str(path)], capsys)
    profile = json.loads(out)
    assert status == 0 and profile["inputs"] == 100_000 and profile["outputs"] == "2^100,000"
    assert len(profile["pairwise_loss"]) == 9  # three classes: every ordered pair of them, each with two items
    assert [c["inputs"] for c in profile["input_classes"]] == [5000, 5000, 90000]


def test_classes_only_for_mechanisms_that_have_them(capsys):
    status, _, err = run(["channel", "pm", "--epsilon", "1", "--classes"], capsys)
    assert status == 2 and "--classes" in err


GOOD = {"format": "ldpspec-channel/3", "structure": "column-classes",
        "classes": [{"base": "1/8", "extra": "1/2"}, {"base": "1/4", "extra": "1/2"}], "class_sizes": [2, 1]}


@pytest.mark.parametrize("change, message", [
    ({"structure": "lattice"}, "'structure' must be one of"),
    ({"classes": []}, "'classes' must be a non-empty list"),
    ({"classes": [{"base": "1/8"}, {"base": "1/4", "extra": "1/2"}]}, r"classes\[0\] must have exactly the keys"),
    ({"item_classes": [0, 0, 1]}, "exactly one of 'class_sizes'"),
    ({"class_sizes": None}, "exactly one of 'class_sizes'"),
    ({"class_sizes": [2]}, "one integer >= 0 per class"),
    ({"class_sizes": [2, -1]}, "one integer >= 0 per class"),
    ({"class_sizes": [10 ** 8, 1]}, "at most 10,000,000 items"),
    ({"class_sizes": [1, 1]}, "sum to 1"),
    ({"privacy": {"class_budgets": ["1"]}}, "one budget .or null. per class"),
    ({"privacy": {"class_budgets": ["1", "2"], "budgets": ["1", "1", "2"]}}, "instead of privacy.budgets"),
    ({"probabilities": []}, "unknown keys"),
])
def test_a_malformed_file_of_version_3_is_refused_by_name(change, message):
    document = {**GOOD, **change}
    if change.get("class_sizes", 0) is None:
        del document["class_sizes"]
    with pytest.raises(InvalidChannel, match=message):
        channelfile.parse_channel_file(json.dumps(document))


def test_keys_of_version_3_in_a_file_of_version_1_name_the_format():
    with pytest.raises(InvalidChannel, match="ldpspec-channel/3"):
        channelfile.parse_channel_file(json.dumps({"inputs": [0], "outputs": [0], "probabilities": [["1"]],
                                            "class_sizes": [1]}))


def test_the_good_file_reads_with_each_items_class():
    stored = channelfile.parse_channel_file(json.dumps({**GOOD, "privacy": {"class_budgets": ["1", None]}}))
    assert stored.channel.item_classes == (0, 0, 1)
    assert stored.channel.explicit().rows[2] == (spec.Exact.of("1/8"), spec.Exact.of("1/8"), spec.Exact.of("3/4"))
    assert stored.privacy["budgets"] == {0: 1, 1: 1}

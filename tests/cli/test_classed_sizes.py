"""Unary encodings of millions of items in a few classes (issue 35, item 12): ``ldpspec check --notion minid-ldp``
on a file of class sizes 3 x 1,000,000 exited 2 after 14 s on the pair-work limit, which its sizes alone decide.

The pairs' losses and witness outputs are checked against the explicit computation in ``test_classed.py``; here,
the work that grew with the items where it need not: the classes found once, each pair's output copied from one
vector. No test measures time.
"""

from __future__ import annotations

import json

import pytest

from ldpspec import spec
from ldpspec.reference import channelfile
from ldpspec.spec import notions, structured
from tests.fuzz.contract import run


def classes_file(sizes: list[int]) -> str:
    return json.dumps({
        "format": "ldpspec-channel/3", "structure": "unary-classes",
        "classes": [{"hot": ["1/2", "1/2"], "cold": ["3/4", "1/4"]}, {"hot": ["1/3", "2/3"], "cold": ["2/3", "1/3"]},
                    {"hot": ["2/5", "3/5"], "cold": ["3/5", "2/5"]}][:len(sizes)],
        "class_sizes": sizes, "privacy": {"class_budgets": ["1", "2", "3"][:len(sizes)]}})


def test_the_classes_are_found_once(monkeypatch):
    """A pairwise notion asks for the classes several times (the work limit, the pairs, the refined pairs): each
    time was a pass over every item."""
    calls = []
    real = structured._members
    monkeypatch.setattr(structured, "_members", lambda item_classes: calls.append(1) or real(item_classes))
    channel = channelfile.parse_channel_file(classes_file([3000, 3000, 3000])).channel
    verdict = spec.min_id_ldp(channel, {x: [1, 2, 3][c] for x, c in enumerate(channel.item_classes)},
                              max_work=10 ** 8)
    assert verdict.holds is False and len(verdict.witness.output) == 9000
    assert len(calls) == 1


def test_each_pair_s_output_is_one_vector_with_two_bits_changed():
    """Every bit but the pair's two takes its value of ratio 1, as in the explicit scan: 1 where it can be 1."""
    channel = spec.ClassedUnary([("1/2", "1/2"), ("1", "0")], [("3/4", "1/4"), ("1", "0")], [0, 1, 0, 1, 0])
    loss, output = channel.pair_loss(0, 1)
    assert output == (1, 0, 1, 0, 1)  # bit 0: hot 1/2 over cold 3/4 -> 1; bit 1: never 1 -> 0; others as cold
    assert loss == spec.pair_loss(channel.explicit(), 0, 1)[0]
    assert channel.pair_loss(2, 2) == (spec.Nats.rational(0), (1, 0, 1, 0, 1))
    with pytest.raises(spec.InvalidChannel, match="unknown input label"):
        channel.pair_loss(0, 5)


def test_the_pair_work_of_a_classed_file_is_refused_before_its_budgets(tmp_path, monkeypatch):
    """3 classes of 10^6 items: 3^2 x 3,000,000 steps, more than the default limit, refused from the file's sizes
    before a budget is read (reading 3 x 10^6 budgets took the 14 s)."""
    def never(*arguments, **keywords):
        raise AssertionError("the budgets were read")

    monkeypatch.setattr(notions, "_budget_map", never)
    monkeypatch.setattr(channelfile, "input_budgets", never)
    path = tmp_path / "classes.json"
    path.write_text(classes_file([1_000_000] * 3), encoding="utf-8")
    status, out, err = run(["check", str(path), "--notion", "minid-ldp"])
    assert status == 2 and out == ""
    assert "3^2 x 3,000,000 = 27,000,000 steps, more than the limit of 4,000,000" in err and "--max-work" in err

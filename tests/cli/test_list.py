"""``ldpspec list``: every registered mechanism and notion, and the round trip of every mechanism's example."""

from __future__ import annotations

import json

import pytest

from ldpspec.reference.registry import MECHANISMS, NOTIONS
from ldpspec.reference.tools.cli import main

LISTING_KEYS = {"name", "paper", "notion", "parameters", "example"}


def run(capsys, *argv):
    status = main([str(a) for a in argv])
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def test_the_json_listing_has_every_mechanism_and_notion(capsys):
    status, out, _ = run(capsys, "list", "--json")
    listing = json.loads(out)
    assert status == 0
    assert [m["name"] for m in listing["mechanisms"]] == list(MECHANISMS)
    assert [n["name"] for n in listing["notions"]] == list(NOTIONS)
    for mechanism in listing["mechanisms"]:
        assert LISTING_KEYS <= set(mechanism) and (mechanism["notion"] is None or mechanism["notion"] in NOTIONS)
        assert all({"name", "type", "help"} <= set(p) for p in mechanism["parameters"])
        assert set(mechanism["example"]) <= {p["name"] for p in mechanism["parameters"]}
    for notion in listing["notions"]:
        assert all({"name", "type", "help"} <= set(p) for p in notion["parameters"])


def test_the_text_listing_names_every_mechanism_and_notion(capsys):
    status, out, _ = run(capsys, "list")
    assert status == 0
    assert all(f"  {name} " in out for name in [*MECHANISMS, *NOTIONS])


@pytest.mark.parametrize("mechanism", json.loads(json.dumps([m.to_json() for m in MECHANISMS.values()])),
                         ids=list(MECHANISMS))
def test_every_example_round_trips_through_channel_profile_and_check(tmp_path, capsys, mechanism):
    """``ldpspec channel NAME`` with the example's options, then ``profile`` and ``check --notion <its notion>`` on
    the file (of version 2 for a mechanism with continuous outputs: Wheel, suWheel). The verdicts are compared with the
    kernel's on the channel in memory in ``tests/cli/test_channelfile_v2.py``."""
    path = tmp_path / f"{mechanism['name']}.json"
    options = [part for name, value in mechanism["example"].items() for part in (f"--{name}", value)]
    status, _, err = run(capsys, "channel", mechanism["name"], *options, "--output", path)
    assert status == 0, err
    status, out, err = run(capsys, "profile", path, "--full")
    assert status == 0, err
    profile = json.loads(out)
    assert profile["inputs"] >= 2 and len(profile["pairwise_loss"]) == profile["inputs"] * (profile["inputs"] - 1)
    if mechanism["notion"] is None:  # no finite budget: even a huge one fails, on the tail of the written file
        status, out, err = run(capsys, "check", path, "--notion", "ldp", "--epsilon", "1000")
        assert status == 1, err
        assert json.loads(out)["witness"]["log_ratio"] == "inf"
        return
    status, out, err = run(capsys, "check", path, "--notion", mechanism["notion"])
    assert status == 0, err
    verdict = json.loads(out)
    assert verdict["notion"] == mechanism["notion"] and verdict["holds"] is True

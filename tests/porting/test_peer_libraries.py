"""Real Python LDP libraries through ``ldpspec conform``, as their users would check them: pure-ldp's and
multi-freq-ldpy's GRR and OUE clients, each drawing from its own generator, answer a samples-only file at d = 3, 100
and 1000 and conform (exit 0); a slip planted in a client's parameters (GRR's p and q swapped, OUE's true bit drawn
with q) fails (exit 1). The libraries are the benchmark's peers (``pip install -e '.[bench]'``); without them these
tests are skipped."""

from __future__ import annotations

import json
import random

import numpy as np
import pytest

from ldpspec.reference.porting.conform import ANSWERS_FORMAT
from ldpspec.reference.tools.cli import main

SIZES = {"grr": {3: 3000, 100: 10_000, 1000: 40_000}, "oue": {3: 10_000, 100: 10_000, 1000: 10_000}}
"""Releases per sample set: the bits' recommended 10,000; for GRR, enough for its outputs test to catch the true
item's probability at q (p and q swapped) with probability 0.99 (docs/porting/conform.md)."""


def releases(library: str, mechanism: str, d: int, n: int, slip: bool) -> list:
    """``n`` releases of item 0 from the library's client (seeded), with the slip planted when asked. The libraries
    are imported here, so that the tests are collected (and skipped) where they are not installed."""
    pytest.importorskip("pure_ldp")
    pytest.importorskip("multi_freq_ldpy")
    from multi_freq_ldpy.pure_frequency_oracles.GRR import GRR_Client
    from multi_freq_ldpy.pure_frequency_oracles.UE import UE_Client
    from pure_ldp.frequency_oracles.direct_encoding import DEClient
    from pure_ldp.frequency_oracles.unary_encoding import UEClient

    random.seed(d)
    np.random.seed(d)
    if library == "pure-ldp":
        client = (DEClient(1.0, d, index_mapper=lambda x: x) if mechanism == "grr"
                  else UEClient(1.0, d, use_oue=True, index_mapper=lambda x: x))
        if slip:
            client.p = client.q
        return [json.loads(json.dumps(np.asarray(client.privatise(0)).tolist())) for _ in range(n)]
    draw = (lambda: GRR_Client(0, d, 1.0)) if mechanism == "grr" else (lambda: UE_Client(0, d, 1.0, True).tolist())
    return [draw() for _ in range(n)]


# multi-freq-ldpy's clients compute their probabilities inside one function: no slip can be planted in them
@pytest.mark.parametrize("library, slip", [("pure-ldp", False), ("pure-ldp", True), ("multi-freq-ldpy", False)])
@pytest.mark.parametrize("mechanism", ["grr", "oue"])
@pytest.mark.parametrize("d", [3, 100, 1000])
def test_a_peer_library_conforms_and_a_planted_slip_fails(tmp_path, capsys, library, mechanism, d, slip):
    answers = {"format": ANSWERS_FORMAT, "port": library, "answers": ["samples"],
               "samples": [{"mechanism": mechanism, "options": {"epsilon": "1", "d": str(d)}, "input": 0,
                            "releases": releases(library, mechanism, d, SIZES[mechanism][d], slip)}]}
    path = tmp_path / "answers.json"
    path.write_text(json.dumps(answers), encoding="utf-8")
    status = main(["conform", str(path)])
    (sample,) = json.loads(capsys.readouterr().out)["samples"]
    assert status == (1 if slip else 0), (sample["guarantee"], sample.get("failures"))

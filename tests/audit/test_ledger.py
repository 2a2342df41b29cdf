"""The claims machinery: a false claim is refuted with a small counterexample, and the ledger records it."""

from __future__ import annotations

import json

import pytest

from ldpspec import spec
from ldpspec.verify.audit import run_claim
from ldpspec.verify.claims import (
    CHOICES,
    DEPENDS,
    REGISTRY,
    AuditSettings,
    Choice,
    Evidence,
    Outcome,
    Step,
    claim,
    decide,
)
from ldpspec.verify.common import channel_with_budgets, describe_channel_budgets, raised_budgets
from ldpspec.verify.gu2020.notions import _lemma1b_proof
from ldpspec.verify.ledger import write_ledger
from ldpspec.verify.search import find_counterexample, search_step
from ldpspec.verify.symbolic import proof_step

SETTINGS = AuditSettings()


def false_relaxation_check(settings):
    """A false variant of Lemma 1: 'every E-MinID-LDP channel is (min E)-LDP'."""
    steps = [proof_step("per output", _lemma1b_proof(lambda Emax, Em: Em))]

    def violates(example):
        random_channel, increments = example
        budgets = raised_budgets(random_channel.channel, increments)
        return budgets is not None and not spec.ldp(random_channel.channel, min(budgets.values()))

    example = find_counterexample(channel_with_budgets(settings), violates, settings)
    steps.append(search_step("random channels with MinID budgets", example,
                             lambda ex: describe_channel_budgets(ex, raised_budgets), settings))
    return decide(steps, "verified", "MinID-LDP does not imply (min E)-LDP.")


@pytest.fixture
def registered():
    added = []

    def register(id, check, recorded, choices=(), fixes=()):
        claim(id, location="test", statement="test statement", methods=("z3", "hypothesis"), recorded=recorded,
              choices=choices, fixes=fixes)(check)
        added.append(id)
        return REGISTRY[id]

    yield register
    for id in added:
        REGISTRY.pop(id, None)


def test_a_false_claim_is_refuted_with_a_shrunk_counterexample(registered):
    entry = run_claim(registered("gu2020.test-false-relaxation", false_relaxation_check, "refuted"), SETTINGS)
    assert entry.verdict == "refuted" and entry.matches
    # z3's model is not a channel, so it is inconclusive on its own; the kernel-checked search refutes.
    (result,) = entry.verdicts_by_reading
    assert result.reading == {} and result.evidence[0]["result"].startswith("inconclusive")
    counterexample = result.counterexample
    assert counterexample["method"] == "hypothesis"
    channel = counterexample["channel"]
    # Two inputs cannot violate it (both budgets cover the pair); shrinking reaches three.
    assert len(channel["inputs"]) == 3 and len(channel["outputs"]) == 2
    rebuilt = spec.Channel(channel["inputs"], channel["outputs"], channel["probabilities"])
    budgets = {int(x): value for x, value in counterexample["budgets"].items()}
    assert spec.min_id_ldp(rebuilt, budgets).holds
    assert not spec.ldp(rebuilt, min(spec.numbers.budget(v, "b") for v in budgets.values()))


def test_a_verdict_differing_from_the_record_does_not_match(registered):
    entry = run_claim(registered("gu2020.test-mismatch", false_relaxation_check, "verified"), SETTINGS)
    assert not entry.matches


def test_the_ledger_files_show_the_counterexample(registered, tmp_path):
    entry = run_claim(registered("gu2020.test-ledger", false_relaxation_check, "refuted"), SETTINGS)
    json_path, markdown_path = write_ledger([entry], tmp_path, complete=False, settings=SETTINGS)
    document = json.loads(json_path.read_text())
    assert document["complete"] is False and document["counts"]["refuted"] == 1
    assert document["claims"][0]["verdicts_by_reading"][0]["counterexample"]["channel"]["inputs"]
    markdown = markdown_path.read_text()
    assert "## gu2020.test-ledger" in markdown and "**Counterexample:**" in markdown
    assert "Partial run" in markdown


def test_claim_registration_rejects_bad_ids_and_verdicts(registered):
    with pytest.raises(ValueError, match="must start with a paper key"):
        claim("nopaper.x", location="", statement="", methods=(), recorded="verified")
    with pytest.raises(ValueError, match="recorded verdict"):
        claim("gu2020.x", location="", statement="", methods=(), recorded="true")
    registered("gu2020.test-duplicate", false_relaxation_check, "refuted")
    with pytest.raises(ValueError, match="registered twice"):
        claim("gu2020.test-duplicate", location="", statement="", methods=(),
              recorded="refuted")(false_relaxation_check)


def test_outcomes_and_decisions():
    with pytest.raises(ValueError, match="must carry its counterexample"):
        Outcome("refuted", "no example")
    with pytest.raises(ValueError, match="verdict must be one of"):
        Outcome("maybe", "")
    proved = Step(Evidence("z3", "s", "proved"))
    unsure = Step(Evidence("z3", "s", "unknown"), inconclusive=True)
    refuting = Step(Evidence("hypothesis", "s", "found"), counterexample={"x": 1})
    assert decide([proved], "ok", "bad").verdict == "verified"
    assert decide([proved, unsure], "ok", "bad").verdict == "open"
    assert decide([unsure, refuting], "ok", "bad").verdict == "refuted"


def test_every_registered_claim_is_well_formed():
    from ldpspec.verify.claims import load_claims

    claims = load_claims()
    assert claims
    for claim_id, registered_claim in claims.items():
        if ".test-" in claim_id:
            continue
        assert registered_claim.statement and registered_claim.location and registered_claim.methods
        for reading in registered_claim.readings():
            assert registered_claim.recorded_verdict(reading) in ("verified", "refuted", "open")
        for choice in registered_claim.choices:
            assert CHOICES[registered_claim.paper][choice.name] is choice


def test_a_claim_is_checked_under_every_reading_of_its_choices(registered):
    release = CHOICES["gu2020"]["release"]
    seen = []

    def check(settings, *, release):
        seen.append(release)
        if release == "all":
            return decide([Step(Evidence("z3", "s", "proved"))], "holds", "")
        return decide([Step(Evidence("z3", "s", "found"), counterexample={"release": release})], "", "fails")

    entry = run_claim(registered("gu2020.test-readings", check, {"release=all": "verified", "release=real": "refuted"},
                                 (release,)), SETTINGS)
    assert seen == ["all", "real"] and entry.matches
    assert entry.verdict == DEPENDS and entry.recorded == DEPENDS
    assert "verified under `release=all`" in entry.summary and "refuted under `release=real`" in entry.summary
    assert [(r.reading, r.verdict) for r in entry.verdicts_by_reading] == [({"release": "all"}, "verified"),
                                                                          ({"release": "real"}, "refuted")]


def test_choices_must_be_declared_for_the_paper_and_recorded_per_reading(registered):
    stray = Choice("stray", ("a", "b"), "nowhere", {"a": "one", "b": "other"})
    with pytest.raises(ValueError, match="not one of the choices declared for gu2020"):
        claim("gu2020.test-stray", location="", statement="", methods=(), recorded="verified", choices=(stray,))
    release = CHOICES["gu2020"]["release"]
    with pytest.raises(ValueError, match="for each reading"):
        claim("gu2020.test-partial", location="", statement="", methods=(), recorded={"release=all": "verified"},
              choices=(release,))
    with pytest.raises(ValueError, match="say what"):
        Choice("vague", ("a", "b"), "somewhere", {"a": "one"})


def test_the_terminal_tally_counts_each_papers_verdicts_and_says_what_passing_means():
    from ldpspec.verify.ledger import tally_lines

    claims = [{"paper": "p1", "verdict": "verified"}, {"paper": "p1", "verdict": "refuted"},
              {"paper": "p2", "verdict": "open"}, {"paper": "p2", "verdict": "depends-on-reading"},
              {"paper": "p2", "verdict": "depends-on-reading"}]
    document = {"papers": {"p1": "", "p2": "", "p3": ""}, "claims": claims, "complete": False,
                "counts": {"verified": 1, "refuted": 1, "open": 1, "depends-on-reading": 2}}
    lines = tally_lines(document)
    assert lines[0] == "p1     2 claims: 1 verified, 1 refuted, 0 open"
    assert lines[1] == "p2     3 claims: 0 verified, 0 refuted, 1 open, 2 depending on the reading"
    assert lines[2].startswith("all    5 claims: 1 verified, 1 refuted, 1 open, 2 depending on the reading (a partial")
    assert "refuted and open claims pass too" in lines[3] and len(lines) == 4  # p3, without claims, is left out


# --- the readings a check consults, and the sweep of the choices a claim does not vary (verify/audit.py) -----------

def _verdict(holds: bool, name: str = "x"):
    if holds:
        return decide([Step(Evidence("z3", "s", "proved"))], "holds", "")
    return decide([Step(Evidence("z3", "s", "found"), counterexample={name: 1})], "", "fails")


def test_a_choice_has_a_fixed_value_read_through_reading_value_outside_a_check():
    from ldpspec.verify.claims import reading_value, running

    box = CHOICES["gu2020"]["box"]
    assert box.fixed == box.values[0] and running() is None
    assert reading_value(box) == box.fixed  # outside a check: the fixed value, nothing recorded
    assert Choice("c", ("a", "b"), "w", {"a": "1", "b": "2"}, fixed="b").fixed == "b"
    assert Choice("c", ("a", "b"), "w", {"a": "1", "b": "2"}).to_json()["fixed"] == "a"
    with pytest.raises(ValueError, match="fixed value"):
        Choice("c", ("a", "b"), "w", {"a": "1", "b": "2"}, fixed="z")


def test_the_sweep_reports_a_consulted_choice_that_moves_the_verdict(registered, tmp_path):
    from ldpspec.verify.claims import reading_value

    box = CHOICES["gu2020"]["box"]
    seen = []

    def check(settings):
        seen.append(reading_value(box))
        return _verdict(reading_value(box) == box.fixed)

    entry = run_claim(registered("gu2020.test-sweep-moves", check, "verified"), SETTINGS, "all")
    assert entry.matches and seen == [box.fixed, *[v for v in box.values if v != box.fixed]]
    assert entry.consulted == ["box"] and "box" not in entry.not_consulted
    assert set(entry.not_consulted) == set(CHOICES["gu2020"]) - {"box"}
    (coverage,) = entry.sweep
    assert coverage["status"] == "moved" and coverage["fixed"] == box.fixed
    (move,) = entry.moved
    assert (move["choice"], move["value"], move["fixed_verdict"], move["verdict"]) == ("box", "none", "verified",
                                                                                       "refuted")
    _, markdown_path = write_ledger([entry], tmp_path, complete=False, settings=SETTINGS)
    assert "**the verdict moves**" in markdown_path.read_text()


def test_a_choice_that_does_not_move_the_verdict_is_swept_and_one_never_read_is_not_consulted(registered, tmp_path):
    from ldpspec.verify.claims import reading_value

    release, self_pairs = CHOICES["gu2020"]["release"], CHOICES["gu2020"]["self_pairs"]
    calls = []

    def check(settings, *, release):
        calls.append((release, reading_value(self_pairs)))
        return _verdict(release == "all")

    recorded = {"release=all": "verified", "release=real": "refuted"}
    entry = run_claim(registered("gu2020.test-sweep-holds", check, recorded, (release,)), SETTINGS, "all")
    assert entry.matches and not entry.moved and entry.consulted == ["self_pairs"]
    assert [c["status"] for c in entry.sweep] == ["swept"]
    assert "release" not in entry.not_consulted and "self_pairs" not in entry.not_consulted
    # every reading of the claim's own choice under every value of the consulted one
    assert sorted(calls) == sorted((r, s) for r in release.values for s in self_pairs.values)
    unswept = run_claim(REGISTRY["gu2020.test-sweep-holds"], SETTINGS, "none")
    assert [c["status"] for c in unswept.sweep] == ["unswept"] and unswept.consulted == ["self_pairs"]
    json_path, markdown_path = write_ledger([entry], tmp_path, complete=False, settings=SETTINGS)
    document = json.loads(json_path.read_text())
    assert document["coverage"]["varied"] == 1 and document["coverage"]["swept"] == 1
    assert document["claims"][0]["not_consulted"] == entry.not_consulted
    markdown = markdown_path.read_text()
    assert "`self_pairs=all` (rerun: `multi-item`)" in markdown
    assert "never read by the check (every object a choice shapes is built through" in markdown


def test_a_restated_claim_takes_the_outer_reading_and_passes_on_what_it_consulted(registered):
    from ldpspec.verify.audit import outcome
    from ldpspec.verify.claims import reading_value

    box = CHOICES["gu2020"]["box"]

    def inner(settings):
        return _verdict(reading_value(box) == box.fixed)

    registered("gu2020.test-inner", inner, "verified")

    def outer(settings):
        return outcome("gu2020.test-inner", settings)

    entry = run_claim(registered("gu2020.test-outer", outer, "verified"), SETTINGS, "all")
    assert entry.consulted == ["box"] and [m["value"] for m in entry.moved] == ["none"]


def test_a_choice_fixed_on_purpose_is_set_shown_and_left_alone_by_the_sweep(registered, tmp_path):
    from ldpspec.verify.claims import Fixed, reading_value

    box, self_pairs = CHOICES["gu2020"]["box"], CHOICES["gu2020"]["self_pairs"]
    other = next(value for value in box.values if value != box.fixed)
    seen = []

    def check(settings):
        seen.append((reading_value(box), reading_value(self_pairs)))
        return _verdict(reading_value(box) == other)  # would move under a sweep of box

    fixed = Fixed(box, "the figure states its box", other)
    entry = run_claim(registered("gu2020.test-fixed", check, "verified", fixes=(fixed,)), SETTINGS, "all")
    assert entry.matches and not entry.moved
    assert {value for value, _ in seen} == {other}  # never rerun at another box
    assert entry.consulted == ["self_pairs"] and "box" not in entry.not_consulted
    assert entry.fixed_on_purpose == [{"choice": "box", "value": other, "why": "the figure states its box",
                                       "read": True}]
    json_path, markdown_path = write_ledger([entry], tmp_path, complete=False, settings=SETTINGS)
    document = json.loads(json_path.read_text())
    assert document["coverage"]["fixed"] == 1 and document["coverage_by_paper"]["gu2020"]["fixed"] == 1
    assert f"fixed on purpose, at `box={other}`: the figure states its box" in markdown_path.read_text()
    with pytest.raises(ValueError, match="both varied and fixed"):
        registered("gu2020.test-fixed-twice", check, {f"box={v}": "verified" for v in box.values}, (box,),
                   (fixed,))


def test_a_fixed_choice_the_check_never_reads_is_reported():
    from ldpspec.verify.claims import Fixed

    box = CHOICES["gu2020"]["box"]
    claim("gu2020.test-fixed-unread", location="test", statement="s", methods=("z3",), recorded="verified",
          fixes=(Fixed(box, "a reason", box.fixed),))(lambda settings: _verdict(True))
    try:
        entry = run_claim(REGISTRY["gu2020.test-fixed-unread"], SETTINGS, "all")
    finally:
        REGISTRY.pop("gu2020.test-fixed-unread")
    assert entry.fixed_on_purpose[0]["read"] is False


def test_the_scope_line_ends_with_the_values_the_objects_were_built_under(registered):
    from ldpspec.verify.audit import BUILT_UNDER_END, built_under
    from ldpspec.verify.claims import reading_value

    release, self_pairs, box = (CHOICES["gu2020"][name] for name in ("release", "self_pairs", "box"))

    def check(settings, *, release):
        reading_value(release_choice)
        reading_value(self_pairs)
        return _verdict(True)

    release_choice = release
    entry = run_claim(registered("gu2020.test-scope", check, "verified", (release,)), SETTINGS, "all")
    by_reading = {result.reading["release"]: result for result in entry.verdicts_by_reading}
    for value, result in by_reading.items():
        (evidence,) = result.evidence
        assert evidence["scope"] == "s" + built_under({"release": value, "self_pairs": self_pairs.fixed})
        assert evidence["scope"].endswith(BUILT_UNDER_END) and f"`release={value}`" in evidence["scope"]
        assert "box" not in evidence["scope"]  # a choice the check did not read shaped nothing it searched
    assert built_under({}) == ""


def test_no_scope_line_in_verify_names_a_reading_by_hand():
    """The values a search ran under come from ``built_under``, never from a scope text written in a check: a
    scope literal that names a declared choice as `name=value` would say what was searched without the reading
    having set it."""
    import ast
    import re
    from pathlib import Path

    from ldpspec.verify.claims import load_claims

    load_claims()
    names = "|".join(sorted({name for choices in CHOICES.values() for name in choices}, key=len, reverse=True))
    written = re.compile(rf"`({names})=")
    found = []
    for path in sorted((Path(__file__).resolve().parents[2] / "verify").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", getattr(node.func, "attr", None)) == "Evidence":
                scope = node.args[1] if len(node.args) > 1 else next(
                    (k.value for k in node.keywords if k.arg == "scope"), None)
                for part in ast.walk(scope) if scope is not None else ():
                    if isinstance(part, ast.Constant) and isinstance(part.value, str) and written.search(part.value):
                        found.append(f"{path.name}:{node.lineno}")
    assert not found, f"scope lines that name a reading by hand: {found}"


def test_another_papers_choices_read_by_a_restated_claim_are_shown(registered, tmp_path):
    from ldpspec.verify.audit import outcome
    from ldpspec.verify.claims import reading_value

    box = CHOICES["gu2020"]["box"]

    def inner(settings):
        return _verdict(reading_value(box) == box.fixed)

    registered("gu2020.test-foreign-inner", inner, "verified")

    def outer(settings):
        return outcome("gu2020.test-foreign-inner", settings)

    entry = run_claim(registered("ipldp2023.test-foreign-outer", outer, "verified"), SETTINGS, "all")
    assert entry.other_papers == [f"gu2020.box={box.fixed}"] and entry.consulted == []
    _, markdown_path = write_ledger([entry], tmp_path, complete=False, settings=SETTINGS)
    assert f"at that paper's fixed value (the sweep of this claim does not vary them): `gu2020.box={box.fixed}`" \
        in markdown_path.read_text()

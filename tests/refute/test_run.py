"""A refutation run end to end: the same counts whichever executor draws the shards (one process, local processes, a
Dask cluster of two workers on the loopback interface), a run resumed from its checkpoint, every way an implementation
is given (a callable, a command, a file, a registered twin), the releases a notion forbids, and an implementation that
raises, hangs or releases what it may not."""

from __future__ import annotations

import json
import sys
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from ldpspec.reference.refute.events import Kind, ReleaseError
from ldpspec.reference.refute.guarantee import declare, parse_values
from ldpspec.reference.refute.implementations import (
    Command,
    FileReleases,
    ImplementationError,
    PythonCallable,
    Registered,
)
from ldpspec.reference.refute.run import Plan, reference_model, refute

HERE = Path(__file__).resolve().parent
LDP_1 = parse_values("ldp", {"epsilon": "1"})
LABELS = Kind("labels")


def plan(implementation, samples=20_000, selection=4_000, kind=LABELS, notion="ldp", values=LDP_1,
         inputs=(0, 1, 2), **options) -> Plan:
    return Plan(implementation, kind, notion, values, inputs, samples, selection, Fraction(1, 100),
                **{"shard_size": 4096, **options})


def counts(answer) -> list:
    return sorted((pair.pair, pair.counts, str(pair.event)) for pair in answer.pairs)


def callable_(name: str) -> PythonCallable:
    return PythonCallable(f"tests.refute.clients:{name}")


# --- executors --------------------------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def cluster():
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                                  dashboard_address=None) as local:
        yield local.scheduler_address


def test_one_process_two_workers_and_a_cluster_give_the_same_counts(cluster):
    for implementation in (callable_("grr_3"), Registered("grr", {"epsilon": "1", "d": "3"})):
        run = plan(implementation)
        alone = refute(run)
        assert counts(refute(run, workers=2)) == counts(alone)
        assert counts(refute(run, cluster=cluster)) == counts(alone)
        assert [pair.bound for pair in refute(run, cluster=cluster).pairs] == [pair.bound for pair in alone.pairs]


def test_another_seed_gives_other_counts():
    implementation = callable_("grr_3")
    assert counts(refute(plan(implementation, seed=1))) != counts(refute(plan(implementation, seed=2)))


# --- the checkpoint ---------------------------------------------------------------------------------------------------

def test_an_interrupted_run_resumes_from_its_checkpoint(tmp_path, monkeypatch):
    """The client raises once, in the certification of input 2 (a marker file says it did); the finished shards stay
    in the checkpoint; the run started again draws only the missing ones (each shard is recorded once) and ends with
    the counts of a run never interrupted; started once more, it draws nothing."""
    monkeypatch.setenv("LDPSPEC_TEST_MARKER", str(tmp_path / "raised"))
    run = plan(callable_("fails_once"))
    checkpoint = tmp_path / "run.checkpoint"
    with pytest.raises(ImplementationError, match="raised RuntimeError: interrupted"):
        refute(run, checkpoint=str(checkpoint))
    finished = [json.loads(line)["shard"] for line in checkpoint.read_text().splitlines()[1:]]
    assert finished
    resumed = refute(run, checkpoint=str(checkpoint))
    recorded = [json.loads(line)["shard"] for line in checkpoint.read_text().splitlines()[1:]]
    assert recorded[: len(finished)] == finished
    assert len(recorded) == len({tuple(shard) for shard in recorded}) > len(finished)  # each shard drawn once
    again = refute(run, checkpoint=str(checkpoint))
    assert len(checkpoint.read_text().splitlines()) - 1 == len(recorded)  # nothing drawn
    assert counts(again) == counts(resumed) == counts(refute(run))  # as if never interrupted


def test_a_checkpoint_of_another_run_is_refused(tmp_path):
    checkpoint = tmp_path / "run.checkpoint"
    refute(plan(callable_("grr_3"), samples=5000, selection=1000), checkpoint=str(checkpoint))
    with pytest.raises(Exception, match="belongs to another run"):
        refute(plan(callable_("grr_3"), samples=6000, selection=1000), checkpoint=str(checkpoint))
    (tmp_path / "junk").write_text("not a checkpoint\n")
    with pytest.raises(Exception, match="not a checkpoint"):
        refute(plan(callable_("grr_3")), checkpoint=str(tmp_path / "junk"))


# --- implementations that misbehave -----------------------------------------------------------------------------------

def test_a_client_that_raises_is_named_with_its_input_and_release():
    with pytest.raises(ImplementationError, match=r"raised ValueError: a bug in the client on input \d, release"):
        refute(plan(callable_("raises")))


@pytest.mark.parametrize("workers", [1, 2])
def test_a_client_that_hangs_is_stopped_by_the_time_limit(workers):
    with pytest.raises(ImplementationError, match=r"did not return within 2 s \(--call-timeout\) on input 1"):
        refute(plan(callable_("hangs"), timeout=2.0), workers=workers)


def test_a_client_that_hangs_on_a_cluster_is_stopped_too(cluster):
    with pytest.raises(ImplementationError, match=r"did not return within 2 s"):
        refute(plan(callable_("hangs"), timeout=2.0), cluster=cluster)


def test_a_release_outside_the_declared_outputs_stops_the_run():
    with pytest.raises(ReleaseError, match=r"released 7, which is not one of the declared outputs"):
        refute(plan(callable_("strays"), kind=Kind("labels", outputs=frozenset({0, 1, 2}))))


@pytest.mark.parametrize("kind, message", [(Kind("bits", d=3), "a list of 3 bits"),
                                           (Kind("numbers", low=0.0, high=1.0), "outside the declared numbers"),
                                           (Kind("sets", d=2), "a set of distinct items of 0 .. 1")])
def test_a_release_of_the_wrong_kind_is_named(kind, message):
    with pytest.raises(ReleaseError, match=message):
        refute(plan(callable_("strays"), kind=kind))


# --- every way of giving an implementation ----------------------------------------------------------------------------

def test_a_command_is_sampled_reproducibly_and_refuted_when_it_leaks():
    program = (sys.executable, str(HERE / "command_client.py"))
    correct, leaky = Command((*program, "1.0")), Command((*program, "1.5"))
    first = refute(plan(correct))
    assert not first.refuted
    assert counts(refute(plan(correct))) == counts(first)  # the shard's seed is LDPSPEC_SEED
    assert refute(plan(leaky, samples=100_000, selection=20_000)).refuted


def test_a_command_that_breaks_the_protocol_is_named():
    with pytest.raises(ImplementationError, match="not one JSON value per line"):
        refute(plan(Command((sys.executable, "-c", "print('hello'); print('x y')"))))
    with pytest.raises(ImplementationError, match="ended after 0 of"):
        refute(plan(Command((sys.executable, "-c", "import sys; sys.stderr.write('boom\\n')"))))


def test_a_file_of_releases_is_split_by_the_seed():
    rng = np.random.default_rng(5)
    from tests.refute.clients import grr, grr_3
    for release, refuted in ((grr_3, False), (grr(2.0, 3), True)):
        releases = tuple([release(x, rng) for _ in range(30_000)] for x in range(3))
        selection = (6000, 6000, 6000)
        source = FileReleases("releases.json", releases, selection)
        answer = refute(plan(source, samples=(30_000,) * 3, selection=selection))
        assert answer.refuted == refuted
        assert all(pair.counts[1] == 24_000 for pair in answer.pairs)


def test_registered_twins_with_a_reference_choose_the_exact_most_distinguishing_event():
    twin = Registered("grr", {"epsilon": "2", "d": "3"})
    declared = declare("ldp", LDP_1, (0, 1, 2))
    answer = refute(plan(twin, samples=20_000, selection=0), reference_model(twin.channel(), declared,
                                                                          Kind("labels")))
    assert answer.refuted
    assert all(pair.event.labels == frozenset({pair.pair[0]}) for pair in answer.pairs)  # {y = x}: ratio e^2


# --- releases a notion forbids ----------------------------------------------------------------------------------------

def test_a_forbidden_release_is_a_certain_failure():
    """ULDP: a sensitive input releases an invertible output (condition (3)); a constant client releases 0 from every
    input, so the invertible output 0 has several producers (condition (2))."""
    values = parse_values("uldp", {"epsilon": "1", "sensitive": "[0]", "protected": "[1, 2]"})
    answer = refute(plan(callable_("constant"), notion="uldp", values=values, samples=2000, selection=500))
    assert answer.refuted and not answer.violations
    conditions = {(failure.condition, failure.inputs) for failure in answer.failures}
    assert ("invertible output", (0,)) in conditions
    assert ("invertible output", (0, 1, 2)) in conditions
    text = json.dumps(answer.to_json())
    assert "Cao et al. Def. 2, (3)" in text and "Cao et al. Def. 2, (2)" in text


def test_sets_are_read_as_the_bits_of_their_items():
    kind = Kind("sets", d=4)
    batch = kind.batch([[0, 2], {3}, (), frozenset({1, 2})], "x")
    assert batch.bit_counts().tolist() == [1, 1, 2, 1]
    assert batch.ones().tolist() == [2, 1, 0, 2]
    for bad in ([4], [1, 1], ["a"], [[0]]):
        with pytest.raises(ReleaseError, match="a set of distinct items of 0 .. 3"):
            kind.batch([bad], "x")


def test_a_checkpoint_counts_only_the_events_it_counted(tmp_path):
    """The same plan with another reference channel chooses other events: the checkpoint's certification counts do
    not serve it, and its shards are drawn again."""
    from ldpspec.spec import Channel
    from ldpspec.spec.exact import Exact

    twin = Registered("grr", {"epsilon": "1", "d": "3"})
    declared = declare("ldp", LDP_1, (0, 1, 2))
    third = Exact.rational(1) / 3
    tilted = Channel(range(3), range(3), [[third, third, third], [third, third, third], [Exact.rational(1), 0, 0]])
    checkpoint = str(tmp_path / "run")
    run = plan(twin, selection=0)
    first = refute(run, reference_model(twin.channel(), declared, LABELS), checkpoint=checkpoint)
    other = refute(run, reference_model(tilted, declared, LABELS), checkpoint=checkpoint)
    fresh = refute(run, reference_model(tilted, declared, LABELS))
    assert counts(other) == counts(fresh) != counts(first)


def test_a_run_without_a_time_limit():
    assert not refute(plan(callable_("grr_3"), samples=3000, selection=600, timeout=None)).refuted

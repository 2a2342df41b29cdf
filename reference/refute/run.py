"""A refutation run: sample, choose the events, certify, bound each pair's loss.

**Phases.** Every input's releases are drawn in shards of ``shard_size`` (the last one shorter). Black-box, a first
phase draws the **selection share** of each input's samples; its frequencies choose the pairs and their events
(``events.empirical_model``). With a reference channel there is no selection phase: the exact channel chooses. The
**certification** phase then draws fresh samples, which only count the chosen events: the events never depend on
the samples that certify them, so each count is a binomial count of its event, and the Clopper-Pearson bounds hold.

**Seeds.** Shard ``j`` of input ``i`` in phase ``p`` draws from ``SeedSequence(seed, spawn_key=(p, i, j))``: its
releases do not depend on which process or machine draws it, so a run gives the same counts in one process, on
``workers`` local processes, or on a Dask cluster (``cluster``: the scheduler's address).

**Nothing lost.** With a ``checkpoint`` file, each finished shard's result is appended to it (JSON lines, after a
first line that identifies the run); a run started again with the same plan reads it and draws only the shards that
are missing. A failure of the implementation (``ImplementationError``) or a release outside the declared kind
(``ReleaseError``) stops the run; the shards already finished stay in the checkpoint.
"""

from __future__ import annotations

import base64
import hashlib
import json
import math
import multiprocessing
import os
import socket
from collections import Counter
from concurrent.futures import FIRST_EXCEPTION, ProcessPoolExecutor, wait
from dataclasses import dataclass, field
from fractions import Fraction
from urllib.parse import urlsplit

import numpy as np

try:
    import fcntl
except ImportError:  # Windows
    fcntl = None

from ldpspec.reference import binomial
from ldpspec.reference.porting.bits import bit_law
from ldpspec.reference.refute.answer import Answer, PairResult, detectable_excess
from ldpspec.reference.refute.events import (
    BitBatch,
    BitModel,
    Kind,
    LabelBatch,
    LabelModel,
    NumberBatch,
    choose,
    empirical_model,
)
from ldpspec.reference.refute.guarantee import Declared, Failure, declare
from ldpspec.reference.refute.implementations import STUCK, ImplementationError, Shard
from ldpspec.spec import (
    InvalidParameter,
    SpecError,
    label_to_json,
    normalize_label,
    output_distribution,
    rational_text,
    value_text,
)

SHARD_SIZE = 1 << 16
"""Releases per shard by default: large enough that a shard's overhead is small, small enough that a checkpoint
loses little."""
MAX_PAIRS = 200
"""Ordered pairs examined by default: every pair when there are at most this many."""
SELECTION_SHARE = 0.2
"""The share of each input's samples that chooses the events, black-box."""
MAX_WATCHED = 1000
"""Releases kept per shard for a condition across inputs (ULDP's invertible outputs)."""
SELECTION, CERTIFICATION = 0, 1


@dataclass(frozen=True)
class Plan:
    """Everything that decides a run's counts and bounds.

    Attributes:
        implementation: what is sampled, or the releases already drawn (``refute.implementations``).
        kind: how releases are read (``events.Kind``).
        notion, values, inputs: the declared guarantee (``guarantee.declare``).
        samples: releases per input in all (selection and certification), or one count per input (a file).
        selection: releases per input for the selection share (0 with a reference channel), or one per input.
        alpha: the probability that any bound of the run is wrong (a rational of ``(0, 1)``).
        seed: the run's seed.
        shard_size: releases per shard.
        max_pairs: the most ordered pairs examined.
        timeout: seconds one call may take (``None``: no limit).
        pairs: the ordered pairs to examine, when the user names them (``None``: chosen among every pair).
    """

    implementation: object
    kind: Kind
    notion: str
    values: dict = field(hash=False)
    inputs: tuple
    samples: int | tuple
    selection: int | tuple
    alpha: Fraction
    seed: int = 0
    shard_size: int = SHARD_SIZE
    max_pairs: int = MAX_PAIRS
    timeout: float | None = 60.0
    pairs: tuple | None = None

    def count(self, phase: int, index: int) -> int:
        """The releases of input number ``index`` in ``phase``."""
        samples = self.samples if isinstance(self.samples, int) else self.samples[index]
        selection = self.selection if isinstance(self.selection, int) else self.selection[index]
        return selection if phase == SELECTION else samples - selection

    @property
    def certification(self) -> int:
        """The fewest certifying releases of an input (all inputs have as many, but from a file)."""
        return min(self.count(CERTIFICATION, i) for i in range(len(self.inputs)))

    def identity(self) -> str:
        """A digest of what decides the counts (the checkpoint's key): the implementation, the kind, the inputs,
        the sizes, the seed, and what chooses the events (the notion, its values, alpha, the pairs)."""
        values = {key: _value_text(value) for key, value in sorted(self.values.items())}
        parts = [self.implementation.identity(), self.kind.to_json(), sorted(map(repr, self.kind.outputs or ())),
                 self.notion, values, [repr(x) for x in self.inputs], self.samples, self.selection, str(self.alpha),
                 self.seed, self.shard_size, self.max_pairs,
                 None if self.pairs is None else [repr(pair) for pair in self.pairs]]
        text = json.dumps(parts, sort_keys=True)
        return hashlib.sha256(text.encode()).hexdigest()


def _value_text(value) -> str:
    if hasattr(value, "text"):
        return value.text()
    if isinstance(value, dict):
        return repr(sorted((repr(k), _value_text(v)) for k, v in value.items()))
    if isinstance(value, (list, tuple)):
        return repr([_value_text(v) for v in value])
    return repr(value)


# --- shards ----------------------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Task:
    """A shard with what a worker needs to draw and read it (everything picklable)."""

    shard: Shard
    implementation: object
    kind: Kind
    notion: str
    values: dict
    inputs: tuple
    seed: int
    events: tuple = ()
    timeout: float | None = None


_DECLARED: dict = {}


def _declared(task: Task) -> Declared:
    key = (task.notion, _value_text(task.values), task.inputs)
    if key not in _DECLARED:
        _DECLARED[key] = declare(task.notion, task.values, task.inputs)
    return _DECLARED[key]


def run_shard(task: Task) -> dict:
    """Draw and read one shard (in whichever process or machine runs it): its batch (selection), or the counts of
    its events (certification), with the releases the notion forbids that it saw."""
    shard = task.shard
    x = task.inputs[shard.index]
    releases = task.implementation.draw(x, shard, task.seed, task.timeout)
    batch = task.kind.batch(releases, x)
    result = {"failures": [], "watched": []}
    if isinstance(batch, LabelBatch):
        declared = _declared(task)
        result["failures"], result["watched"] = _structural(declared, x, batch)
    if shard.phase == SELECTION:
        result["batch"] = batch
    else:
        part = _declared(task).part if isinstance(batch, LabelBatch) else None
        result["counts"] = [event.count(batch, part) for event in task.events]
        result["n"] = batch.n
        result["events"] = events_digest(task.events)
    return result


def events_digest(events) -> str:
    """What a certification shard counted, as a digest: a checkpoint's counts serve only the same events."""
    text = json.dumps([event.to_json(full=True) for event in events], sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()


def _structural(declared: Declared, x, batch: LabelBatch) -> tuple[list, list]:
    failures, watched = [], []
    for release in batch.counts:
        failure = declared.forbidden(x, release)
        if failure is not None and len(failures) < 5:
            failures.append(failure)
        if declared.watched is not None and declared.watched(x, release) and len(watched) < MAX_WATCHED:
            watched.append(release)
    return failures, watched


# --- executors ------------------------------------------------------------------------------------------------------

def execute(tasks: list, on_result, workers: int = 1, cluster: str | None = None) -> None:
    """Run ``tasks``, calling ``on_result(task, result)`` as each finishes (in the calling process): in this process,
    on ``workers`` local processes, or on the Dask cluster whose scheduler is at ``cluster``. The first error stops
    the run and is raised once the tasks under way have ended."""
    if not tasks:
        return
    if cluster is not None:
        _on_dask(tasks, on_result, cluster)
    elif workers > 1:
        _on_processes(tasks, on_result, workers)
    else:
        for task in tasks:
            on_result(task, run_shard(task))


def _on_processes(tasks: list, on_result, workers: int) -> None:
    with ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context("spawn")) as pool:
        pending = {pool.submit(run_shard, task): task for task in tasks}
        try:
            while pending:
                done, _ = wait(pending, return_when=FIRST_EXCEPTION)
                for future in done:
                    task = pending.pop(future)
                    on_result(task, future.result())
        finally:
            for future in pending:
                future.cancel()


def _on_dask(tasks: list, on_result, address: str) -> None:
    """The tasks on a Dask cluster. A call stuck where the worker cannot interrupt it (``implementations.STUCK``) is
    reported on a topic of the run; the run then stops at once and restarts that worker."""
    try:
        from distributed import Client
        from distributed import wait as dask_wait
    except ImportError:
        raise InvalidParameter("--cluster runs on Dask distributed, which is not installed: pip install "
                               "'ldpspec[cluster]'") from None
    _reachable(address)
    try:
        client = Client(address, timeout="30s")
    except (OSError, TimeoutError) as error:
        raise InvalidParameter(f"--cluster: no Dask scheduler answers at {value_text(address)}: {error}") from None
    topic = f"ldpspec-refute-{os.getpid()}-{id(tasks)}"
    with client:
        stuck = []
        client.subscribe_topic(topic, lambda event: stuck.append(event[1]))
        futures = client.map(_run_reporting, tasks, [topic] * len(tasks), pure=False)
        order = {future.key: task for future, task in zip(futures, tasks)}
        pending = set(futures)
        try:
            while pending:
                try:
                    done = dask_wait(pending, timeout=0.25, return_when="FIRST_COMPLETED").done
                except TimeoutError:
                    done = set()
                for future in done:
                    pending.discard(future)
                    on_result(order[future.key], future.result())
                if not stuck:
                    continue
                message, worker = stuck[0]["message"], stuck[0]["worker"]
                client.cancel(list(pending))
                try:
                    client.restart_workers([worker], timeout=30)
                except Exception:  # the worker is gone already, or cannot restart: the run ends either way
                    pass
                raise ImplementationError(message)
        finally:
            client.cancel(list(pending))


def _reachable(address: str) -> None:
    """A TCP scheduler address that refuses connections is named at once (Dask's client would retry for its whole
    timeout)."""
    if not address.startswith("tcp://"):
        return
    try:
        parts = urlsplit(address)
        host, port = parts.hostname, parts.port
    except ValueError:
        host = port = None
    if not host or not port:
        raise InvalidParameter(f"--cluster must be a scheduler's address tcp://HOST:PORT; got {value_text(address)}")
    try:
        socket.create_connection((host, port), timeout=10).close()
    except OSError as error:
        raise InvalidParameter(f"--cluster: no Dask scheduler answers at {value_text(address)}: "
                               f"{error.strerror or error}") from None


def _run_reporting(task: Task, topic: str) -> dict:
    """``run_shard`` on a Dask worker, with a stuck call reported on ``topic`` (with the worker's address)."""
    from distributed import get_worker

    worker = get_worker()
    STUCK.report = lambda message: worker.log_event(topic, {"message": message, "worker": worker.address})
    try:
        return run_shard(task)
    finally:
        del STUCK.report


# --- the checkpoint -------------------------------------------------------------------------------------------------

CHECKPOINT_FORMAT = "ldpspec-refute-checkpoint/1"


def _encode(result: dict) -> dict:
    data = {"failures": [[f.condition, [label_to_json(x) for x in f.inputs], label_to_json(f.release), f.detail]
                         for f in result["failures"]],
            "watched": [label_to_json(y) for y in result["watched"]]}
    batch = result.get("batch")
    if isinstance(batch, LabelBatch):
        data["labels"] = [[label_to_json(y), c] for y, c in batch.counts.items()]
        data["n"] = batch.n
    elif isinstance(batch, NumberBatch):
        data["numbers"] = base64.b64encode(batch.values.astype("<f8").tobytes()).decode()
    elif isinstance(batch, BitBatch):
        data["bits"] = base64.b64encode(batch.packed.tobytes()).decode()
        data["rows"] = len(batch.packed)
    if "counts" in result:
        data["counts"], data["n"], data["events"] = result["counts"], result["n"], result["events"]
    return data


def _decode(data: dict, kind: Kind) -> dict:
    result = {"failures": [Failure(c, tuple(normalize_label(x) for x in inputs), normalize_label(y), detail)
                           for c, inputs, y, detail in data["failures"]],
              "watched": [normalize_label(y) for y in data["watched"]]}
    if "labels" in data:
        result["batch"] = LabelBatch(Counter({normalize_label(y): c for y, c in data["labels"]}), data["n"])
    elif "numbers" in data:
        result["batch"] = NumberBatch(np.frombuffer(base64.b64decode(data["numbers"]), dtype="<f8").copy())
    elif "bits" in data:
        packed = np.frombuffer(base64.b64decode(data["bits"]), dtype=np.uint8).reshape(data["rows"], -1).copy()
        result["batch"] = BitBatch(packed, kind.d)
    if "counts" in data:
        result["counts"], result["n"], result["events"] = data["counts"], data["n"], data["events"]
    return result


class Checkpoint:
    """The finished shards of a run, appended to ``path`` as they finish and read back on a new start. The file is
    locked while the run holds it (a second run of the same plan at the same time is refused); a last line cut
    short by an interruption is dropped, and its shard drawn again."""

    def __init__(self, path: str | None, plan: Plan):
        self.path, self.plan, self.done, self.handle = path, plan, {}, None
        if path is None:
            return
        identity = plan.identity()
        try:
            self.handle = open(path, "a+", encoding="utf-8")
        except OSError as error:
            raise SpecError(f"--checkpoint: cannot write {value_text(path)}: {error.strerror or error}") from None
        try:
            if fcntl is not None:  # Windows has no fcntl: no lock there
                fcntl.flock(self.handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            self.close()
            raise InvalidParameter(f"--checkpoint: {value_text(path)} is in use by another run of the same plan; "
                                   "wait for it, or give another file") from None
        self.handle.seek(0)
        text = self.handle.read()
        if not text:
            self._append({"format": CHECKPOINT_FORMAT, "identity": identity})
            return
        lines = text.split("\n")
        try:
            head = json.loads(lines[0])
        except ValueError:
            head = None
        if not isinstance(head, dict) or head.get("format") != CHECKPOINT_FORMAT:
            self.close()
            raise InvalidParameter(f"--checkpoint: {value_text(path)} is not a checkpoint of ldpspec refute; give a "
                                   "new file or remove it")
        if head.get("identity") != identity:
            self.close()
            raise InvalidParameter(f"--checkpoint: {value_text(path)} belongs to another run (another implementation, "
                                   "guarantee, sizes or seed); give a new file, or run with the options it was "
                                   "written with")
        if not text.endswith("\n"):  # the last shard was cut short: drop it, it is drawn again
            self.handle.truncate(len(text.encode("utf-8")) - len(lines[-1].encode("utf-8")))
            lines = lines[:-1]
        for number, line in enumerate(lines[1:], start=2):
            if not line:
                continue
            try:
                entry = json.loads(line)
                self.done[Shard(*entry["shard"])] = _decode(entry["result"], plan.kind)
            except (ValueError, KeyError, TypeError, IndexError, RecursionError):  # edited by hand, or not ours
                self.close()
                raise InvalidParameter(f"--checkpoint: line {number} of {value_text(path)} is not a finished shard of "
                                       "ldpspec refute; give a new file or remove it") from None

    def _append(self, entry: dict) -> None:
        try:
            self.handle.seek(0, os.SEEK_END)
            self.handle.write(json.dumps(entry) + "\n")
            self.handle.flush()
            os.fsync(self.handle.fileno())
        except OSError as error:
            raise SpecError(f"--checkpoint: cannot write {value_text(self.path)}: {error.strerror or error}") from None

    def record(self, shard: Shard, result: dict) -> None:
        self.done[shard] = result
        if self.handle is not None:
            self._append({"shard": [shard.phase, shard.index, shard.number, shard.count, shard.start],
                          "result": _encode(result)})

    def close(self) -> None:
        if self.handle is not None:
            self.handle.close()  # the lock goes with it
            self.handle = None


# --- the run ----------------------------------------------------------------------------------------------------------

def shards(plan: Plan, phase: int) -> list:
    """Every shard of ``phase``: each input's releases cut into shards of ``plan.shard_size``."""
    size = plan.shard_size
    found = []
    for i in range(len(plan.inputs)):
        count = plan.count(phase, i)
        found += [Shard(phase, i, j, min(size, count - j * size), j * size) for j in range(math.ceil(count / size))]
    return found


def _gather(plan: Plan, phase: int, events: dict, checkpoint: Checkpoint, workers: int, cluster, progress) -> list:
    """Run one phase's shards that the checkpoint lacks; every shard's result, in order."""
    every = shards(plan, phase)
    digests = {index: events_digest(events.get(index, ())) for index in range(len(plan.inputs))}

    def done(shard) -> bool:  # a certification shard counted these events (another reference chooses others)
        found = checkpoint.done.get(shard)
        return found is not None and (phase == SELECTION or found.get("events") == digests[shard.index])
    todo = [Task(shard, plan.implementation, plan.kind, plan.notion, plan.values, plan.inputs, plan.seed,
                 events.get(shard.index, ()), plan.timeout) for shard in every if not done(shard)]
    finished = [len(every) - len(todo)]

    def on_result(task, result):
        checkpoint.record(task.shard, result)
        finished[0] += 1
        if progress is not None:
            progress(phase, finished[0], len(every))
    execute(todo, on_result, workers, cluster)
    return [(shard, checkpoint.done[shard]) for shard in every]


def candidate_pairs(declared: Declared, named: tuple | None = None) -> list:
    """The ordered pairs a run may examine: those named, else every pair of different inputs (with a budget, for a
    pairwise notion)."""
    inputs = declared.inputs
    if named is not None:
        for pair in named:
            if len(pair) != 2 or pair[0] == pair[1] or any(x not in inputs for x in pair):
                raise InvalidParameter(f"--pairs: {value_text(pair)} is not an ordered pair of two different inputs of "
                                       "--inputs")
        return list(dict.fromkeys(tuple(pair) for pair in named))
    return [(x, x2) for x in inputs for x2 in inputs if x != x2
            and (not declared.pairwise or declared.pair_budget(x, x2) is not None)]


def examined_pairs(model, declared: Declared, plan: Plan) -> tuple[dict, int, Fraction]:
    """``({pair: (event, predicted bound, predicted P[E|x'], why)}, pairs not examined, level)``: every pair when
    there are at most ``max_pairs``; else half of them the pairs with the tightest budgets, the rest those with the
    largest predicted excess of the bound over the budget."""
    pairs = candidate_pairs(declared, plan.pairs)
    m = min(len(pairs), plan.max_pairs)
    guide = float(plan.alpha) / (2 * max(m, 1))
    n = plan.certification
    chosen = choose(model, declared, pairs, n, n, guide)
    scored = {}
    for pair, (event, bound, predicted) in chosen.items():
        labels = getattr(event, "labels", ())
        budget = declared.event_budget(*pair, labels)
        if budget is None:
            continue
        scored[pair] = (event, bound, predicted, budget)
    if len(scored) <= plan.max_pairs:
        why = ("named" if plan.pairs is not None else "every pair" if len(pairs) <= plan.max_pairs
               else "every pair with an event")
        examined = {pair: (*value, why) for pair, value in scored.items()}
    else:
        tight = sorted(scored, key=lambda pair: (float(scored[pair][3]), -scored[pair][1]))[: plan.max_pairs // 2]
        examined = {pair: (*scored[pair], "the tightest budgets") for pair in tight}
        for pair in sorted(scored, key=lambda pair: -(scored[pair][1] - float(scored[pair][3]))):
            if len(examined) == plan.max_pairs:
                break
            examined.setdefault(pair, (*scored[pair], "the largest predicted excess over the budget"))
    level = plan.alpha / (2 * max(len(examined), 1))
    return examined, len(pairs) - len(examined), level


def refute(plan: Plan, model=None, *, model_source: str | None = None, workers: int = 1, cluster: str | None = None,
           checkpoint: str | None = None, progress=None) -> Answer:
    """Run ``plan``: the events come from ``model`` (the exact reference channel, ``reference_model``) or, without
    one, from the selection share; returns the ``Answer``."""
    declared = declare(plan.notion, plan.values, plan.inputs)
    if (model is None) == (not any(plan.count(SELECTION, i) for i in range(len(plan.inputs)))):
        raise InvalidParameter("a run chooses its events either on a reference channel or on a selection share of "
                               "the samples (--selection-share above 0), not both and not neither")
    store = Checkpoint(checkpoint, plan)
    try:
        return _refute(plan, model, model_source, declared, store, workers, cluster, progress)
    finally:
        store.close()


def _refute(plan, model, model_source, declared, store, workers, cluster, progress) -> Answer:
    failures, watched = [], {}

    def absorb(results):
        for shard, result in results:
            failures.extend(result["failures"])
            for y in result["watched"]:
                watched.setdefault(y, set()).add(plan.inputs[shard.index])

    if model is None:
        results = _gather(plan, SELECTION, {}, store, workers, cluster, progress)
        absorb(results)
        batches = {}
        for shard, result in results:
            x = plan.inputs[shard.index]
            batches[x] = result["batch"] if x not in batches else batches[x].merge(result["batch"])
        model = empirical_model(batches, plan.kind, declared)
        model_source = "the selection share"
    examined, unexamined, level = examined_pairs(model, declared, plan)
    events_of = {}
    for (x, x2), (event, *_rest) in examined.items():
        for label in (x, x2):
            index = plan.inputs.index(label)
            events_of.setdefault(index, [])
            if event not in events_of[index]:
                events_of[index].append(event)
    events_of = {index: tuple(events) for index, events in events_of.items()}
    results = _gather(plan, CERTIFICATION, events_of, store, workers, cluster, progress)
    absorb(results)
    counts, totals = {}, {}
    for shard, result in results:
        events = events_of.get(shard.index, ())
        x = plan.inputs[shard.index]
        totals[x] = totals.get(x, 0) + result["n"]
        for event, count in zip(events, result["counts"]):
            counts[(x, event)] = counts.get((x, event), 0) + count
    pairs = []
    for (x, x2), (event, _bound, predicted, budget, why) in examined.items():
        k1, n1, k2, n2 = counts.get((x, event), 0), totals.get(x, 0), counts.get((x2, event), 0), totals.get(x2, 0)
        lower, upper = binomial.lower_bound(k1, n1, level), binomial.upper_bound(k2, n2, level)
        excess, needed = detectable_excess(predicted, float(budget), n1, n2, float(level))
        pairs.append(PairResult((x, x2), why, event, (k1, n1, k2, n2), lower, upper, budget, predicted, excess,
                                needed))
    if declared.shared is not None:
        for y, producers in watched.items():
            failure = declared.shared(y, sorted(producers, key=repr))
            if failure is not None:
                failures.append(failure)
    unique = {}
    for failure in failures:
        unique.setdefault((failure.condition, failure.inputs, failure.release), failure)
    head = {"implementation": plan.implementation.describe(),
            "declared": declared.to_json(), "releases": plan.kind.to_json(),
            "alpha": rational_text(plan.alpha), "level_per_bound": rational_text(level),
            "samples": _sizes(plan),
            "events": model_source or getattr(model, "source", "the reference channel"),
            "seed": plan.seed, "shard_size": plan.shard_size}
    return Answer(head, pairs, list(unique.values()), unexamined, level)


def _sizes(plan: Plan) -> dict:
    def per_input(phase):
        counts = {plan.count(phase, i) for i in range(len(plan.inputs))}
        return counts.pop() if len(counts) == 1 else [plan.count(phase, i) for i in range(len(plan.inputs))]
    selection, certification = per_input(SELECTION), per_input(CERTIFICATION)
    return {"selection": selection, "certification": certification}


# --- reference channels -----------------------------------------------------------------------------------------------

def reference_model(channel, declared: Declared, kind: Kind):
    """The events' probabilities under each examined input from an exact channel (doubles: they choose events, they
    decide nothing): bit events from a structure of bits for bit releases, else the labels of its outputs."""
    missing = [x for x in declared.inputs if x not in set(channel.inputs)]
    if missing:
        raise InvalidParameter(f"--inputs names inputs the reference channel does not have: "
                               f"{', '.join(value_text(x, 40) for x in missing[:5])}")
    if kind.bitwise:
        laws = {x: bit_law(channel, x) for x in declared.inputs}
        if any(law is None for law in laws.values()):
            raise InvalidParameter("bit events need a reference channel that is a structure of bits (a unary "
                                   "encoding, IDUE, IDUE-PS); this one is not: read the releases as labels")
        if any(law.bits != kind.d for law in laws.values()):
            raise InvalidParameter(f"the reference channel has {next(iter(laws.values())).bits} bits; --releases "
                                   f"says {kind.d}")
        return BitModel({x: law.ones for x, law in laws.items()}, {x: law.ones_count for x, law in laws.items()},
                        lambda x, j, k: laws[x].pair_one(min(j, k), max(j, k)), source="the reference channel")
    if kind.name == "numbers":
        raise InvalidParameter("a reference channel chooses events among its outputs; releases read as numbers are "
                               "points, not outputs: leave out the reference (black-box), or release the channel's "
                               "cells as labels")
    rows, labels = {}, {}
    for x in declared.inputs:
        for y, p in output_distribution(channel, x).items():
            label = declared.label_of(y)
            labels.setdefault(label, len(labels))
            rows.setdefault(x, {}).setdefault(label, 0.0)
            rows[x][label] += float(p)
    ordered = list(labels)
    arrays = {x: np.array([rows[x].get(y, 0.0) for y in ordered]) for x in declared.inputs}
    return LabelModel(ordered, arrays, source="the reference channel")


__all__ = ["CERTIFICATION", "Plan", "SELECTION", "Shard", "Task", "execute", "reference_model", "refute", "run_shard"]

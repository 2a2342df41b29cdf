"""Soundness, measured: on every registered mechanism's own exact sampler (its NumPy twin), under its own notion and
budgets, in each way of choosing events (on the reference channel; black-box on a selection share; structured events
of bits and of numbers), the certified bound exceeds the exact log-ratio of its pair's event, which the kernel
computes, in at most the stated share ``alpha`` of seeded runs; and each one-sided Clopper-Pearson bound fails in at
most its level's share. Both are shown by a one-sided confidence bound on the observed rates, over all mechanisms and
runs (the runs are seeded: the test gives the same counts on every machine)."""

from __future__ import annotations

from fractions import Fraction

from scipy.special import betaincinv

from ldpspec.reference.refute.events import Bit, Intervals, Kind, Labels, Ones, TwoBits
from ldpspec.reference.refute.guarantee import declare
from ldpspec.reference.refute.implementations import Registered
from ldpspec.reference.refute.run import Plan, reference_model, refute
from ldpspec.reference.registry import MECHANISMS
from ldpspec.spec.continuous import output_distribution
from ldpspec.spec.exact import Exact
from ldpspec.spec.nats import Nats
from tests.support import DEEP

ALPHA = Fraction(1, 4)
RUNS = 100 if DEEP else 10
SAMPLES = 600
MODES = ("reference", "black-box", "structured")


def _event_probability(event, channel, declared, x, bits: bool):
    """``P[E | x]``, exactly (``None`` for an interval of numbers, whose pair is compared by its whole loss)."""
    if isinstance(event, Intervals):
        return None
    if isinstance(event, Labels):
        row = output_distribution(channel, x)
        return sum((p for y, p in row.items() if declared.label_of(y) in event.labels), start=Exact.rational(0))
    explicit = channel.explicit()
    row = explicit.rows[explicit.inputs.index(x)]

    def inside(y):
        if isinstance(event, Bit):
            return y[event.position] == event.value
        if isinstance(event, TwoBits):
            return (y[event.first], y[event.second]) == event.values
        assert isinstance(event, Ones)
        return sum(y) in event.counts
    return sum((p for y, p in zip(explicit.outputs, row) if inside(y)), start=Exact.rational(0))


def _setup(name: str, mode: str):
    """``(twin, channel, guarantee, declared, kind, model, selection)`` of one mechanism in one mode, ``None`` when
    the mode does not apply: ``reference`` and ``black-box`` read whole releases as labels (a number as the cell of
    the exact channel it falls in, for the reference only); ``structured`` reads bit vectors as bits (events on the
    reference for even seeds, on a selection share for odd ones: ``selection`` is then a pair) and numbers as numbers
    (black-box)."""
    options = MECHANISMS[name].example()
    twin = Registered(name, options)
    mechanism, channel = twin.built(), twin.channel()
    guarantee = mechanism.guarantee()
    inputs = tuple(channel.inputs)
    declared = declare(guarantee.notion, dict(guarantee.parameters), inputs)
    form = twin.form()
    if mode == "structured":
        if form == "bits" and declared.pairwise:
            kind = Kind("bits", d=channel.bit_count)
            model = reference_model(channel, declared, kind)
            return twin, channel, guarantee, declared, kind, model, (0, SAMPLES // 5)
        if form == "numbers":
            return twin, channel, guarantee, declared, Kind("numbers"), None, SAMPLES // 5
        return None
    if mode == "black-box" and form == "numbers":  # every point is its own label: nothing to choose
        return None
    twin, kind = Registered(name, options, labels=True), Kind("labels")
    if mode == "reference":
        return twin, channel, guarantee, declared, kind, reference_model(channel, declared, kind), 0
    return twin, channel, guarantee, declared, kind, None, SAMPLES // 5


def _runs(name: str, mode: str) -> tuple[int, int, int, int] | None:
    """``(runs, runs with a bound above its exact log-ratio, one-sided bounds, bounds that failed)`` for one
    mechanism in one mode (``None``: the mode does not apply); the levels of the compared bounds go to ``LEVELS``."""
    setup = _setup(name, mode)
    if setup is None:
        return None
    twin, channel, guarantee, declared, kind, reference, selections = setup
    inputs = declared.inputs
    bad_runs = bounds = failed = 0
    for seed in range(RUNS):
        selection = selections[seed % 2] if isinstance(selections, tuple) else selections
        model = reference if selection == 0 else None
        plan = Plan(twin, kind, guarantee.notion, dict(guarantee.parameters), inputs, SAMPLES, selection, ALPHA,
                    seed=seed, shard_size=SAMPLES)
        answer = refute(plan, model)
        bad = False
        for pair in answer.pairs:
            x, x2 = pair.pair
            p1 = _event_probability(pair.event, channel, declared, x, kind.bitwise)
            if p1 is None:  # an interval: its log-ratio is at most the pair's exact loss
                loss = channel.pair_loss(x, x2)[0]
                bad |= pair.bound is not None and pair.bound > loss
                continue
            p2 = _event_probability(pair.event, channel, declared, x2, kind.bitwise)
            bounds += 2
            failed += (pair.lower > p1) + (pair.upper < p2)
            LEVELS.append(float(answer.level))
            if pair.bound is not None:
                exact = Nats.infinity() if not p2 else None if not p1 else Nats.log(p1 / p2)
                bad |= exact is None or pair.bound > exact
        bad_runs += bad
    return RUNS, bad_runs, bounds, failed


LEVELS: list = []


def test_the_bounds_hold_in_at_least_the_stated_share_of_runs():
    """Every mechanism in every mode, then the shares over all of them (one test: under xdist it runs whole on one
    worker)."""
    tally = {}
    for name in sorted(MECHANISMS):
        if MECHANISMS[name].from_options(MECHANISMS[name].example()).guarantee().notion is None:
            continue  # graded Laplace across levels of different budgets claims no finite budget
        for mode in MODES:
            found = _runs(name, mode)
            if found is not None:
                tally[(name, mode)] = found
    runs = sum(t[0] for t in tally.values())
    bad_runs = sum(t[1] for t in tally.values())
    bounds = sum(t[2] for t in tally.values())
    failed = sum(t[3] for t in tally.values())
    empty = sorted(key for key, t in tally.items() if not t[2] and not (key[1] == "structured"
                                                                     and key[0] in ("pm", "laplace")))
    assert not empty, f"no bound compared with its exact event in {empty}"
    assert {mode for _, mode in tally} == set(MODES)
    assert sum(mode == "structured" for _, mode in tally) >= 9  # the unary encodings, IDUE-PS and its baselines, PM
    # the share of runs with a bound above its exact log-ratio: its one-sided 99.9% lower confidence bound (Clopper
    # and Pearson) must not exceed alpha
    lower = 0.0 if bad_runs == 0 else float(betaincinv(bad_runs, runs - bad_runs + 1, 0.001))
    assert lower <= float(ALPHA), (bad_runs, runs)
    # each one-sided bound fails with probability at most its level: the failures, a sum of independent-enough
    # indicators of mean at most the sum of the levels, stay within 3.1 standard deviations of it
    expected = sum(LEVELS) * 2
    assert failed <= expected + 3.1 * expected ** 0.5, (failed, expected, bounds)
    assert bounds >= 10 * len(tally) * RUNS  # not vacuous: about a dozen bounds per run

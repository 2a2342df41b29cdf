"""Each notion as samples can refute it (``refute.guarantee``) against the kernel's predicate, on random exact
channels: when the kernel says the notion holds, no condition the refuter reads is broken (a refutation of a channel
that satisfies the notion would be unsound); when the kernel says it fails, one of them is broken, or one of the
conditions the reading declares unrefutable is (so the reading misses nothing else)."""

from __future__ import annotations

from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from ldpspec.reference.refute.guarantee import READINGS, declare
from ldpspec.spec import NOTIONS, Channel
from ldpspec.spec.exact import Exact
from ldpspec.spec.nats import Nats
from ldpspec.spec.numbers import budget
from tests.support import examples

BUDGETS = ["0", "1/2", "1", "log(2)", "2"]


def test_every_notion_of_the_kernel_has_a_reading():
    assert set(READINGS) == set(NOTIONS)


@st.composite
def rows(draw, inputs: int, outputs: int):
    """Rows of rationals summing to 1, with zeros."""
    found = []
    for _ in range(inputs):
        weights = draw(st.lists(st.sampled_from([0, 1, 2, 3, 5, 8, 13]), min_size=outputs, max_size=outputs)
                       .filter(any))
        found.append([Fraction(w, sum(weights)) for w in weights])
    return found


def broken(declared, channel) -> list:
    """The conditions of ``declared`` the exact channel breaks: ratios of every label the notion bounds (summed over
    the releases that have it, for a reading about a part), releases it forbids, releases shared by inputs."""
    found = []
    labels = {}
    for j, y in enumerate(channel.outputs):
        labels.setdefault(declared.label_of(y), []).append(j)
    for i, x in enumerate(channel.inputs):
        for i2, x2 in enumerate(channel.inputs):
            if x == x2:
                continue
            for label, columns in labels.items():
                bound = (declared.pair_budget(x, x2) if declared.pairwise
                         else declared.release_budget(x, x2, label))
                if bound is None:
                    continue
                p1 = sum((channel.rows[i][j] for j in columns), start=Exact.rational(0))
                p2 = sum((channel.rows[i2][j] for j in columns), start=Exact.rational(0))
                if p1 and (not p2 or Nats.log(p1 / p2) > bound):
                    found.append(("ratio", x, x2, label))
    producers = {}
    for i, x in enumerate(channel.inputs):
        for j, y in enumerate(channel.outputs):
            if channel.rows[i][j]:
                if declared.forbidden(x, y) is not None:
                    found.append(("forbidden", x, y))
                if declared.watched is not None and declared.watched(x, y):
                    producers.setdefault(y, []).append(x)
    if declared.shared is not None:
        found += [("shared", y) for y, xs in producers.items() if declared.shared(y, xs) is not None]
    return found


def agree(verdict, declared, channel, unrefutable_broken: bool = False) -> None:
    found = broken(declared, channel)
    if verdict.holds:
        assert not found, f"the kernel says {declared.notion} holds, the refuter reads broken {found[:3]}"
    else:
        assert found or unrefutable_broken, f"the kernel says {declared.notion} fails; the refuter sees nothing"


@settings(max_examples=examples(150))
@given(data=st.data(), notion=st.sampled_from(["ldp", "id-ldp", "minid-ldp", "avgid-ldp"]))
def test_pairwise_notions(data, notion):
    k, m = data.draw(st.integers(2, 4)), data.draw(st.integers(2, 4))
    channel = Channel(range(k), range(m), data.draw(rows(k, m)))
    if notion == "ldp":
        values = {"epsilon": budget(data.draw(st.sampled_from(BUDGETS)))}
    else:
        values = {"budgets": {x: budget(data.draw(st.sampled_from(BUDGETS))) for x in range(k)}}
        if notion == "id-ldp":
            values["r"] = data.draw(st.sampled_from(["min", "avg", "max"]))
        if data.draw(st.booleans()):
            values["policy"] = [(0, 1)] + ([(1, 2)] if k > 2 else [])
    agree(NOTIONS[notion].check(channel, values), declare(notion, values, channel.inputs), channel)
    for x, x2 in [(0, 1), (1, 2)][: k - 1]:  # pair by pair: the channel of the two inputs alone
        pair = Channel([x, x2], channel.outputs, [channel.rows[x], channel.rows[x2]])
        restricted = dict(values)
        if "budgets" in values:
            restricted["budgets"] = {x: values["budgets"][x], x2: values["budgets"][x2]}
        restricted.pop("policy", None)
        agree(NOTIONS[notion].check(pair, restricted), declare(notion, restricted, pair.inputs), pair)


@settings(max_examples=examples(150))
@given(data=st.data())
def test_uldp(data):
    k, m = data.draw(st.integers(2, 3)), data.draw(st.integers(2, 4))
    channel = Channel(range(k), [f"y{j}" for j in range(m)], data.draw(rows(k, m)))
    values = {"epsilon": budget(data.draw(st.sampled_from(BUDGETS))),
              "sensitive_inputs": data.draw(st.sets(st.sampled_from(range(k)))),
              "protected_outputs": data.draw(st.sets(st.sampled_from(channel.outputs)))}
    agree(NOTIONS["uldp"].check(channel, values), declare("uldp", values, channel.inputs), channel)


@settings(max_examples=examples(150))
@given(data=st.data())
def test_ipldp(data):
    d = data.draw(st.integers(2, 4))
    channel = Channel(range(d), range(d), data.draw(rows(d, d)))
    budgets = [data.draw(st.sampled_from([None, *BUDGETS])) for _ in range(d)]
    values = {"budgets": {x: budget(b) for x, b in enumerate(budgets) if b is not None}}
    verdict = NOTIONS["ipldp"].check(channel, values)
    # unrefutable: a non-sensitive item output by itself with probability 0
    silent = any(channel.rows[x][x] == 0 for x in range(d) if budgets[x] is None)
    agree(verdict, declare("ipldp", values, channel.inputs), channel, silent)


@settings(max_examples=examples(150))
@given(data=st.data())
def test_graded_ldp(data):
    grid = ["0", "1/4", "1/2", "1"]
    boundaries = data.draw(st.sampled_from([["0", "1"], ["0", "1/2", "1"], ["0", "1/4", "1"]]))
    channel = Channel(grid, range(3), data.draw(rows(len(grid), 3)))
    values = {"boundaries": [Exact.of(b) for b in boundaries],
              "budgets": [budget(data.draw(st.sampled_from(BUDGETS))) for _ in boundaries[1:]],
              "r": data.draw(st.sampled_from(["min", "avg", "max"]))}
    agree(NOTIONS["graded-ldp"].check(channel, values), declare("graded-ldp", values, channel.inputs), channel)


SETS = [(0,), (1,), (0, 1), (1, 2), (0, 2)]
RELEASES = [(0, ()), (1, ()), (None, ()), (0, (2,)), (None, (2,)), (1, (0,)), (None, (0, 2)), (0, (1,))]


@settings(max_examples=examples(200))
@given(data=st.data(), reading=st.sampled_from(["suldp-marginal", "suldp-joint-unrevealed", "suldp-joint"]))
def test_suldp(data, reading):
    inputs = data.draw(st.lists(st.sampled_from(SETS), min_size=2, max_size=3, unique=True))
    outputs = data.draw(st.lists(st.sampled_from(RELEASES), min_size=2, max_size=4, unique=True))
    channel = Channel(inputs, outputs, data.draw(rows(len(inputs), len(outputs))))
    items = sorted({item for s in inputs for item in s})
    sensitive = data.draw(st.sets(st.sampled_from(items)))
    values = {"epsilon": budget(data.draw(st.sampled_from(BUDGETS))), "sensitive_items": sensitive,
              "non_sensitive_items": None, "protected_outputs": data.draw(st.sets(st.sampled_from([0, 1])))}
    verdict = NOTIONS[reading].check(channel, values)
    # unrefutable: condition (9), an input set holding an item some release reveals never reveals it
    revealed = {item for j, (_, items_shown) in enumerate(channel.outputs) for item in items_shown
                if any(row[j] for row in channel.rows)}
    nine = any(item in s and not sum(p for p, y in zip(row, channel.outputs) if item in y[1])
               for s, row in zip(channel.inputs, channel.rows) for item in revealed)
    agree(verdict, declare(reading, values, channel.inputs), channel, nine)

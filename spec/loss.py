"""Privacy loss of a channel, computed exactly.

Every loss is a ``Nats``: the log of an exact ratio of probabilities (``+inf`` when the denominator is 0).

* ``pair_loss(ch, x, x2)``: ``max_y ln P[y|x] / P[y|x2]`` over the outputs
  ``x`` can produce; ``+inf`` when ``x`` can produce an output ``x2`` cannot.
* ``pairwise_loss(ch)``: that, for every ordered pair of distinct inputs.
* ``output_loss(ch)``: for each output, ``max_{x,x'} ln P[y|x] / P[y|x']``;
  ``0`` for an output no input produces.
* ``ldp_epsilon(ch)``: the tightest ``eps`` for which the channel is
  ``eps``-LDP, the largest of the above (``0`` for a single input).
* ``invertible_outputs(ch)``: outputs produced by exactly one input.
* ``posterior_leakage_range(ch)``: for each input ``x`` and output ``y``, the
  smallest and largest ``ln P[x|y] / P[x]`` over all priors (Gu et al. eq. (4)),
  which are ``min_x' / max_x' ln P[y|x] / P[y|x']``.

The pairwise computations take ``inputs^2 x outputs`` steps; they refuse to start beyond ``max_work`` steps
(``MAX_PAIR_WORK`` by default) rather than run for hours.
"""

from __future__ import annotations

from ldpspec.spec.channel import Channel, count_text, label_to_json, output_to_json
from ldpspec.spec.errors import InvalidParameter
from ldpspec.spec.exact import ZERO, Exact
from ldpspec.spec.nats import Nats
from ldpspec.spec.numbers import to_decimal_string
from ldpspec.spec.structured import ClassedChannel, StructuredChannel, checked_channel

MAX_PAIR_WORK = 4_000_000
"""Default largest ``inputs^2 x outputs`` of a pairwise computation on an explicit channel."""


def _ratio(numerator: Exact, denominator: Exact) -> Nats:
    return Nats.infinity() if not denominator else Nats(numerator / denominator)


def _greater(a: tuple, b: tuple) -> bool:
    """``a[0]/a[1] > b[0]/b[1]`` for non-negative numerators and positive denominators, exactly."""
    return (a[0] * b[1]).compare(b[0] * a[1]) > 0


def check_pair_work(channel, max_work: int | None, *, by_class: bool = False) -> None:
    """Refuse a pairwise computation larger than ``max_work`` steps, naming the limit and how to raise it;
    ``by_class``: one pair per ordered pair of the classes of a ``ClassedChannel``, each pair's output built bit by
    bit."""
    limit = MAX_PAIR_WORK if max_work is None else max_work
    if isinstance(limit, bool) or not isinstance(limit, int) or limit < 1:
        raise InvalidParameter(f"max_work must be an integer >= 1, got {max_work!r}")
    if by_class:
        pairs, what = len(channel.input_classes()), "pair of input classes"
    else:
        pairs, what = len(channel.inputs), "pair of inputs"
    if isinstance(channel, StructuredChannel):  # the structure gives a pair's loss in one pass over the bits
        per_pair, unit = channel.bit_count, "bit"
    else:
        per_pair, unit = len(channel.outputs), "output"
    work = pairs ** 2 * per_pair
    if work > limit:
        raise InvalidParameter(
            f"this check compares every ordered {what} over every {unit}: {pairs:,}^2 x {per_pair:,} = {work:,} "
            f"steps, more than the limit of {limit:,}; raise the limit (max_work=..., or --max-work on the command "
            "line) to run it anyway")


def _pair_loss_of_rows(row, other_row, outputs) -> tuple:
    best, best_output = None, None
    for j, (p, p2) in enumerate(zip(row, other_row)):
        if not p:
            continue  # x never produces y: no constraint
        if not p2:
            return Nats.infinity(), outputs[j]
        if best is None or _greater((p, p2), best):
            best, best_output = (p, p2), outputs[j]
    if best is None:
        return Nats.rational(0), None
    return Nats(best[0] / best[1]), best_output


def pair_loss(channel, x, other) -> tuple:
    """``(loss, y)``: the largest log-ratio ``ln P[y|x]/P[y|other]`` and an output attaining it."""
    channel = checked_channel(channel)
    if isinstance(channel, StructuredChannel):
        return channel.pair_loss(x, other)
    return _pair_loss_of_rows(channel.row(x), channel.row(other), channel.outputs)


def class_pairs(channel: ClassedChannel, labels=None) -> list[tuple]:
    """``[(x, x2)]``: one ordered pair of distinct inputs for every ordered pair of classes that has one, where the
    classes are the channel's refined by ``labels`` (``{input: label}``, for example each input's budget: inputs of
    one class with different labels go to different classes). Each pair is the first of its pair of classes in the
    order the explicit scan meets pairs (``inputs`` by ``inputs``), and the pairs are in that order, so that a
    verdict built from them names the same witness as one built from every pair."""
    classes = []
    for members in channel.input_classes():
        parts: dict = {}
        for x in members:
            parts.setdefault(None if labels is None else labels[x], []).append(x)
        classes.extend(parts.values())
    position = {x: i for i, x in enumerate(channel.inputs)}
    pairs = []
    for first in classes:
        for second in classes:
            if first is second:
                if len(first) >= 2:
                    pairs.append((first[0], first[1]))
            else:
                pairs.append((first[0], second[0]))
    return sorted(pairs, key=lambda pair: (position[pair[0]], position[pair[1]]))


def pair_losses(channel, max_work: int | None = None, labels=None) -> dict:
    """``{(x, x2): (loss, y)}`` as the pairwise notions and ``ldp_epsilon`` read it: for a ``ClassedChannel``, one
    pair per ordered pair of its classes (refined by ``labels``, as ``class_pairs``), every other pair of the same
    classes having the same loss; for any other channel, every ordered pair of distinct inputs."""
    channel = checked_channel(channel)
    if isinstance(channel, ClassedChannel):
        check_pair_work(channel, max_work, by_class=True)
        return {pair: channel.pair_loss(*pair) for pair in class_pairs(channel, labels)}
    return pairwise_loss(channel, max_work)


def pairwise_loss(channel, max_work: int | None = None) -> dict:
    """``{(x, x2): (loss, y)}`` for every ordered pair of distinct inputs."""
    channel = checked_channel(channel)
    check_pair_work(channel, max_work)
    if isinstance(channel, StructuredChannel):
        return {(x, x2): channel.pair_loss(x, x2)
                for x in channel.inputs for x2 in channel.inputs if x != x2}
    result = {}
    for i, x in enumerate(channel.inputs):
        for k, x2 in enumerate(channel.inputs):
            if i != k:
                result[(x, x2)] = _pair_loss_of_rows(channel.rows[i], channel.rows[k], channel.outputs)
    return result


def _extremes(column) -> tuple[int, int]:
    """Positions of a largest and a smallest entry (the first of equal ones); two positions when the column is
    constant, so that a witness names two inputs, as the scan over pairs of inputs does."""
    high = low = 0
    for i in range(1, len(column)):
        if column[i].compare(column[high]) > 0:
            high = i
        if column[i].compare(column[low]) < 0:
            low = i
    if high == low and len(column) > 1:  # every entry equal (high only rises, low only falls, from position 0)
        low = 1
    return high, low


def column_loss(inputs, column) -> tuple:
    """``(loss, (x_high, x_low))``: the largest ``ln P[y|x] / P[y|x']`` within one output column.

    ``column`` holds ``P[y|x]`` for each of ``inputs``. The pair is ``None``
    (and the loss 0) when no input produces the output or there is one input.
    """
    if len(column) < 2 or not any(column):
        return Nats.rational(0), None
    high, low = _extremes(column)
    return _ratio(column[high], column[low]), (inputs[high], inputs[low])


def output_loss(channel: Channel) -> dict:
    """``{y: (loss, (x_high, x_low))}``: for each output, the largest log-ratio over input pairs.

    ``(x_high, x_low)`` is a pair attaining it; ``None`` when the output is
    produced by no input, or the channel has a single input.
    """
    channel = checked_channel(channel)
    if isinstance(channel, StructuredChannel):
        channel = channel.explicit()
    return {y: column_loss(channel.inputs, channel.column(y)) for y in channel.outputs}


def ldp_epsilon(channel, max_work: int | None = None) -> Nats:
    """The tightest ``eps`` such that the channel is ``eps``-LDP (``inf`` if none is)."""
    channel = checked_channel(channel)
    if isinstance(channel, StructuredChannel):
        losses = [loss for loss, _ in pair_losses(channel, max_work).values()]
    else:
        losses = [loss for loss, _ in output_loss(channel).values()]
    best = Nats.rational(0)
    for loss in losses:
        if loss.compare(best) > 0:
            best = loss
    return best


def invertible_outputs(channel: Channel) -> dict:
    """``{y: x}`` for the outputs that exactly one input ``x`` can produce."""
    channel = checked_channel(channel)
    if isinstance(channel, StructuredChannel):
        channel = channel.explicit()
    result = {}
    for j, y in enumerate(channel.outputs):
        producers = [x for x, row in zip(channel.inputs, channel.rows) if row[j]]
        if len(producers) == 1:
            result[y] = producers[0]
    return result


def posterior_leakage_range(channel: Channel) -> dict:
    """``{(x, y): (low, high)}``: the range of ``ln P[x|y]/P[x]`` over all priors.

    ``P[x|y]/P[x] = P[y|x] / sum_x' pi(x') P[y|x']``; over all priors ``pi``
    the denominator ranges over the convex hull of the column, so the extremes
    are ``min_x'`` and ``max_x'`` of ``ln P[y|x]/P[y|x']`` (``x' = x``
    included). Only outputs some input produces are listed; both ends are
    ``-inf`` when ``P[y|x] = 0``.
    """
    channel = checked_channel(channel)
    if isinstance(channel, StructuredChannel):
        channel = channel.explicit()
    result = {}
    for y in channel.outputs:
        column = channel.column(y)
        if not any(column):
            continue
        high, low = _extremes(column)
        for x, p in zip(channel.inputs, column):
            if not p:
                result[(x, y)] = (Nats(ZERO), Nats(ZERO))
            else:
                result[(x, y)] = (Nats(p / column[high]), _ratio(p, column[low]))
    return result


def loss_profile(channel, max_work: int | None = None) -> dict:
    """Everything above as JSON-ready data (the ``ldpspec profile`` output).

    Losses are shown as decimals (approximations) and, under ``exact``, as exact text.
    """
    channel = checked_channel(channel)
    explicit = channel if isinstance(channel, Channel) else None
    epsilon = ldp_epsilon(channel, max_work)
    pairs = pair_losses(channel, max_work)  # inputs in classes: one pair per pair of classes
    outputs = len(channel.outputs) if explicit else channel.output_count
    profile = {
        "inputs": len(channel.inputs),
        "outputs": outputs if outputs < 10 ** 30 else count_text(outputs),
        "ldp_epsilon": to_decimal_string(epsilon),
        "ldp_epsilon_exact": epsilon.text(),
        "pairwise_loss": [
            {"input": label_to_json(x), "other_input": label_to_json(x2), "loss": to_decimal_string(loss),
             "exact": loss.text(), "output": output_to_json(y)}
            for (x, x2), (loss, y) in pairs.items()
        ],
    }
    if isinstance(channel, ClassedChannel):
        profile["input_classes"] = [{"first": label_to_json(members[0]), "inputs": len(members)}
                                    for members in channel.input_classes()]
        profile["pairwise_loss_note"] = ("one pair of inputs per ordered pair of classes: every pair of the same two "
                                         "classes has the same loss")
    if explicit:
        profile["output_loss"] = [
            {"output": label_to_json(y), "loss": to_decimal_string(loss), "exact": loss.text(),
             "inputs": None if pair is None else [label_to_json(x) for x in pair]}
            for y, (loss, pair) in output_loss(channel).items()
        ]
        profile["invertible_outputs"] = [
            {"output": label_to_json(y), "input": label_to_json(x)} for y, x in invertible_outputs(channel).items()
        ]
    return profile

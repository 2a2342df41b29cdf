"""Privacy loss of a channel, computed exactly.

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
"""

from __future__ import annotations

from ldpspec.spec.channel import Channel
from ldpspec.spec.numbers import INF, ZERO, ctx, log_ratio, to_decimal_string
from ldpspec.spec.structured import StructuredChannel


def _log_table(channel: Channel) -> list[list]:
    """``ln P[y|x]`` for every entry, ``-inf`` for zeros."""
    return [[ctx.log(p) if p > 0 else -INF for p in row] for row in channel.rows]


def _pair_loss_from_logs(log_row, other_log_row, outputs) -> tuple:
    best, best_output = None, None
    for j, (a, b) in enumerate(zip(log_row, other_log_row)):
        if a == -INF:
            continue  # x never produces y: no constraint
        loss = INF if b == -INF else a - b
        if best is None or loss > best:
            best, best_output = loss, outputs[j]
            if loss == INF:
                break
    return best, best_output


def pair_loss(channel, x, other) -> tuple:
    """``(loss, y)``: the largest log-ratio ``ln P[y|x]/P[y|other]`` and an output attaining it."""
    if isinstance(channel, StructuredChannel):
        return channel.pair_loss(x, other)
    row, other_row = channel.row(x), channel.row(other)
    logs = [ctx.log(p) if p > 0 else -INF for p in row]
    other_logs = [ctx.log(p) if p > 0 else -INF for p in other_row]
    return _pair_loss_from_logs(logs, other_logs, channel.outputs)


def pairwise_loss(channel) -> dict:
    """``{(x, x2): (loss, y)}`` for every ordered pair of distinct inputs."""
    if isinstance(channel, StructuredChannel):
        return {(x, x2): channel.pair_loss(x, x2)
                for x in channel.inputs for x2 in channel.inputs if x != x2}
    logs = _log_table(channel)
    result = {}
    for i, x in enumerate(channel.inputs):
        for k, x2 in enumerate(channel.inputs):
            if i != k:
                result[(x, x2)] = _pair_loss_from_logs(logs[i], logs[k], channel.outputs)
    return result


def column_loss(inputs, column) -> tuple:
    """``(loss, (x_high, x_low))``: the largest ``ln P[y|x] / P[y|x']`` within one output column.

    ``column`` holds ``P[y|x]`` for each of ``inputs``. The pair is ``None``
    (and the loss 0) when no input produces the output or there is one input.
    """
    positive = [i for i, p in enumerate(column) if p > 0]
    if not positive or len(column) < 2:
        return ZERO, None
    high = max(positive, key=lambda i: column[i])
    low = min(range(len(column)), key=lambda i: column[i])
    return log_ratio(column[high], column[low]), (inputs[high], inputs[low])


def output_loss(channel: Channel) -> dict:
    """``{y: (loss, (x_high, x_low))}``: for each output, the largest log-ratio over input pairs.

    ``(x_high, x_low)`` is a pair attaining it; ``None`` when the output is
    produced by no input, or the channel has a single input.
    """
    return {y: column_loss(channel.inputs, channel.column(y)) for y in channel.outputs}


def ldp_epsilon(channel):
    """The tightest ``eps`` such that the channel is ``eps``-LDP (``inf`` if none is)."""
    if isinstance(channel, StructuredChannel):
        losses = [loss for loss, _ in pairwise_loss(channel).values()]
    else:
        losses = [loss for loss, _ in output_loss(channel).values()]
    return max(losses, default=ZERO)


def invertible_outputs(channel: Channel) -> dict:
    """``{y: x}`` for the outputs that exactly one input ``x`` can produce."""
    result = {}
    for j, y in enumerate(channel.outputs):
        producers = [x for x, row in zip(channel.inputs, channel.rows) if row[j] > 0]
        if len(producers) == 1:
            result[y] = producers[0]
    return result


def posterior_leakage_range(channel: Channel) -> dict:
    """``{(x, y): (low, high)}``: the range of ``ln P[x|y]/P[x]`` over all priors.

    ``P[x|y]/P[x] = P[y|x] / sum_x' pi(x') P[y|x']``; over all priors ``pi``
    the denominator ranges over the convex hull of the column, so the extremes
    are ``min_x'`` and ``max_x'`` of ``ln P[y|x]/P[y|x']`` (``x' = x``
    included). Only outputs some input produces are listed; ``low`` is ``-inf``
    when ``P[y|x] = 0``.
    """
    result = {}
    logs = _log_table(channel)
    for j, y in enumerate(channel.outputs):
        column = [row[j] for row in logs]
        if all(value == -INF for value in column):
            continue
        largest, smallest = max(column), min(column)
        for i, x in enumerate(channel.inputs):
            if column[i] == -INF:
                result[(x, y)] = (-INF, -INF)
            else:
                high = INF if smallest == -INF else column[i] - smallest
                result[(x, y)] = (column[i] - largest, high)
    return result


def loss_profile(channel) -> dict:
    """Everything above as JSON-ready data (the ``ldpspec profile`` output)."""
    explicit = channel if isinstance(channel, Channel) else None
    profile = {
        "inputs": len(channel.inputs),
        "outputs": len(channel.outputs) if explicit else channel.output_count,
        "ldp_epsilon": to_decimal_string(ldp_epsilon(channel)),
        "pairwise_loss": [
            {"input": x, "other_input": x2, "loss": to_decimal_string(loss), "output": y}
            for (x, x2), (loss, y) in pairwise_loss(channel).items()
        ],
    }
    if explicit:
        profile["output_loss"] = [
            {"output": y, "loss": to_decimal_string(loss), "inputs": None if pair is None else list(pair)}
            for y, (loss, pair) in output_loss(channel).items()
        ]
        profile["invertible_outputs"] = [
            {"output": y, "input": x} for y, x in invertible_outputs(channel).items()
        ]
    return profile

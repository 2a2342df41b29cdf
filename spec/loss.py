"""Privacy loss of a channel, computed exactly.

Every loss is a ``Nats``: the log of an exact ratio of probabilities (``+inf`` when the denominator is 0). Each
function takes any kind of channel of the kernel and asks it through the channel protocol (``spec.protocol``):

* ``pair_loss(ch, x, x2)``: ``max_y ln P[y|x] / P[y|x2]`` over the outputs
  ``x`` can produce; ``+inf`` when ``x`` can produce an output ``x2`` cannot.
* ``pairwise_loss(ch)``: that, for every ordered pair of distinct inputs; ``pair_losses(ch)`` for the pairs that
  decide a pairwise notion (one per pair of classes where the inputs come in classes).
* ``output_loss(ch)``: for each output, ``max_{x,x'} ln P[y|x] / P[y|x']``;
  ``0`` for an output no input produces.
* ``ldp_epsilon(ch)``: the tightest ``eps`` for which the channel is
  ``eps``-LDP, the largest of the above (``0`` for a single input).
* ``invertible_outputs(ch)``: outputs produced by exactly one input.
* ``posterior_leakage_range(ch)``: for each input ``x`` and output ``y``, the
  smallest and largest ``ln P[x|y] / P[x]`` over all priors (Gu et al. eq. (4)),
  which are ``min_x' / max_x' ln P[y|x] / P[y|x']``.

``loss_profile`` lists every pair's exact loss; ``summary_profile`` gives its summary (``loss_profile_summary``)
computing exactly only the pairs the doubles leave open, on a matrix of rationals.

The pairwise computations take ``inputs^2 x outputs`` steps (pairs of classes times the bits of an output, for a
structured channel); they refuse to start beyond ``max_work`` steps (``MAX_PAIR_WORK`` by default) rather than run
for hours.
"""

from __future__ import annotations

import json
from decimal import MAX_EMAX, MIN_EMIN, ROUND_FLOOR, Context, Decimal, localcontext
from fractions import Fraction

from ldpspec.spec import protocol
from ldpspec.spec.exact import ZERO, count_text
from ldpspec.spec.labels import label_to_json, output_to_json
from ldpspec.spec.nats import Nats
from ldpspec.spec.numbers import to_decimal_string
from ldpspec.spec.protocol import checked_channel, extremes, ratio

__all__ = ["invertible_outputs", "ldp_epsilon", "loss_profile", "output_loss",
           "pair_loss", "pair_losses", "pairwise_loss", "posterior_leakage_range", "summary_profile"]


def pair_loss(channel, x, other) -> tuple:
    """``(loss, y)``: the largest log-ratio ``ln P[y|x]/P[y|other]`` and an output attaining it."""
    return checked_channel(channel).pair_loss(x, other)


def pair_losses(channel, max_work: int | None = None, labels=None) -> dict:
    """``{(x, x2): (loss, y)}`` as the pairwise notions and ``ldp_epsilon`` read it: for a channel whose inputs come
    in classes, one pair per ordered pair of its classes (refined by ``labels``, ``{input: label}``), every other pair
    of the same classes having the same loss; for any other channel, every ordered pair of distinct inputs."""
    return checked_channel(channel).pair_losses(max_work, labels)


def pairwise_loss(channel, max_work: int | None = None) -> dict:
    """``{(x, x2): (loss, y)}`` for every ordered pair of distinct inputs."""
    return checked_channel(channel).pair_losses(max_work, every_pair=True)


def output_loss(channel) -> dict:
    """``{y: (loss, (x_high, x_low))}``: for each output, the largest log-ratio over input pairs.

    ``(x_high, x_low)`` is a pair attaining it; ``None`` when the output is
    produced by no input, or the channel has a single input.
    """
    return checked_channel(channel).output_losses()


def ldp_epsilon(channel, max_work: int | None = None) -> Nats:
    """The tightest ``eps`` such that the channel is ``eps``-LDP (``inf`` if none is)."""
    best = Nats.rational(0)
    for _, _, loss in checked_channel(channel).worst_ratios(max_work):
        if loss.compare(best) > 0:
            best = loss
    return best


def invertible_outputs(channel) -> dict:
    """``{y: x}`` for the outputs that exactly one input ``x`` can produce."""
    channel = checked_channel(channel).explicit()
    result = {}
    for j, y in enumerate(channel.outputs):
        producers = [x for x, row in zip(channel.inputs, channel.rows) if row[j]]
        if len(producers) == 1:
            result[y] = producers[0]
    return result


def posterior_leakage_range(channel) -> dict:
    """``{(x, y): (low, high)}``: the range of ``ln P[x|y]/P[x]`` over all priors.

    ``P[x|y]/P[x] = P[y|x] / sum_x' pi(x') P[y|x']``; over all priors ``pi``
    the denominator ranges over the convex hull of the column, so the extremes
    are ``min_x'`` and ``max_x'`` of ``ln P[y|x]/P[y|x']`` (``x' = x``
    included). Only outputs some input produces are listed; both ends are
    ``-inf`` when ``P[y|x] = 0``.
    """
    channel = checked_channel(channel).explicit()
    result = {}
    for y in channel.outputs:
        column = channel.column(y)
        if not any(column):
            continue
        high, low = extremes(column)
        for x, p in zip(channel.inputs, column):
            if not p:
                result[(x, y)] = (Nats(ZERO), Nats(ZERO))
            else:
                result[(x, y)] = (Nats(p / column[high]), ratio(p, column[low]))
    return result


SHOWN = 20
"""The entries of each long list a profile's summary shows (``loss_profile_summary``)."""
BINS = 10
"""The bins of the histogram of pair losses in a profile's summary."""
FLOAT_RANGE = Decimal("1e300")
"""Below this largest finite loss the histogram is computed in doubles; above it in decimals."""
_WIDE = Context(prec=60, Emax=MAX_EMAX, Emin=MIN_EMIN)


def _largest(entries: list, what: str) -> dict | list:
    """``entries`` (each with a ``loss``) when short; else their count and the ``SHOWN`` with the largest losses."""
    if len(entries) <= SHOWN:
        return entries
    ordered = sorted(entries, key=lambda entry: _sort_value(entry["loss"]), reverse=True)  # stable: ties in order
    return {what: len(entries), "largest": ordered[:SHOWN], "complete": "with --full"}


def _sort_value(text: str) -> tuple:
    """A loss (``>= 0``) as printed (``to_decimal_string``: a 50-digit decimal, ``exp(x)`` beyond about 10^900000,
    or ``inf``) as a key that orders like the number: ``(decimal exponent, mantissa in [1, 10))``. A float would make a
    loss beyond 1.8e308 infinite (and bin it as NaN), and a Decimal cannot hold ``4e-(10^400)``."""
    if text == "inf":
        return (_INFINITE, Decimal(0))
    if text.startswith("exp("):  # e^x = 10^(x / ln 10)
        with localcontext() as context:
            context.prec, context.Emax, context.Emin = 60, MAX_EMAX, MIN_EMIN
            tens = Decimal(text[4:-1]) / Decimal(10).ln()
            exponent = int(tens.to_integral_value(rounding=ROUND_FLOOR))
            return (exponent, Decimal(10) ** (tens - exponent))
    mantissa, _, exponent = text.partition("e")
    number = Decimal(mantissa)
    if not number:
        return (-_INFINITE, Decimal(0))
    return (int(exponent or 0) + number.adjusted(), number.scaleb(-number.adjusted()))


_INFINITE = 10 ** 30  # beyond every decimal exponent of a finite loss


def _decimal(key: tuple) -> Decimal:
    """The number of a ``_sort_value`` key as a Decimal; 0 for one too small for a Decimal (below 10^-10^17)."""
    exponent, mantissa = key
    if exponent < -10 ** 17:
        return Decimal(0)
    return mantissa.scaleb(min(exponent, 10 ** 17), context=_WIDE)  # no loss reaches 10^10^17 (exp() takes 10^2000)


def summary_profile(channel, max_work: int | None = None, max_entries: int | None = None) -> dict:
    """``loss_profile_summary(loss_profile(channel, ...))``, the same JSON, without the exact loss of every pair
    where the channel is a matrix of rationals with doubles (``Channel.doubles``): the pairs' worst ratios are
    computed in doubles (``accelerator.PairLossBounds``), within a proven slack (``accelerator.PAIR_SLACK``), and
    only the pairs that may be among the largest losses, may be an input's worst partner or the largest finite loss,
    or whose bin of the histogram the slack leaves open, are computed exactly. Every loss the summary shows is the
    exact pair loss, and every count is the one the complete list gives. The complete list stays exact
    (``loss_profile``, ``--full``)."""
    checked = checked_channel(channel)
    matrix = checked.matrix(max_entries)
    if matrix is None or matrix.input_classes() is not None or len(matrix.inputs) * (len(matrix.inputs) - 1) <= SHOWN:
        return loss_profile_summary(loss_profile(channel, max_work, max_entries))
    matrix.check_pair_work(max_work)
    doubles = matrix.doubles()
    if doubles is None:
        return loss_profile_summary(loss_profile(channel, max_work, max_entries))
    return loss_profile_summary(_profile(matrix, max_work, matrix, _pairs_summary(matrix, doubles)))


def _pairs_summary(channel, doubles) -> dict:
    """The summary of the pair losses of a matrix (``loss_profile_summary``'s ``pairwise_loss``), decided exactly
    where the doubles leave it open (``accelerator.PairLossBounds``; see ``summary_profile``)."""
    count, inputs = len(channel.inputs), channel.inputs
    bounds = protocol.ACCELERATOR.PairLossBounds(doubles)
    exact = {}

    def entry(i: int, j: int) -> dict:
        if (i, j) not in exact:
            loss, y = channel.pair_loss(inputs[i], inputs[j])
            exact[(i, j)] = {"input": label_to_json(inputs[i]), "other_input": label_to_json(inputs[j]),
                             "loss": to_decimal_string(loss), "exact": loss.text(), "output": output_to_json(y)}
        return exact[(i, j)]

    infinite_pairs = bounds.infinite_pairs()
    # the SHOWN largest: every infinite pair first (in order), then the finite pairs that may follow them
    wanted = SHOWN - len(infinite_pairs)
    chosen = [entry(i, j) for i, j in infinite_pairs[:SHOWN]]
    if wanted > 0 and bounds.finite_count():
        chosen = [entry(i, j) for i, j in infinite_pairs] + [entry(i, j) for i, j in bounds.largest(wanted)]
    total = count * (count - 1)
    ordered = sorted(chosen, key=lambda item: _sort_value(item["loss"]), reverse=True)  # stable, as _largest
    largest = {"pairs": total, "largest": ordered[:SHOWN], "complete": "with --full"}
    # each input's worst partner: its first infinite pair, else the first largest of its candidates
    worst = []
    for i in range(count):
        partner = bounds.first_infinite_partner(i)
        if partner is not None:
            worst.append(entry(i, partner))
            continue
        best_entry = None
        for j in bounds.worst_partners(i):
            candidate = entry(i, j)
            if best_entry is None or _sort_value(candidate["loss"]) > _sort_value(best_entry["loss"]):
                best_entry = candidate
        worst.append(best_entry)
    # the histogram: the largest finite loss exactly, then each loss's bin where its bounds give one
    finite = bounds.finite_count()
    top = float(max(_decimal(_sort_value(entry(i, j)["loss"])) for i, j in bounds.largest(1))) if finite else 0.0
    if top > 0:
        counts, open_pairs = bounds.histogram(top, BINS)
        for i, j in open_pairs:
            value = float(_decimal(_sort_value(entry(i, j)["loss"])))
            counts[min(BINS - 1, int(BINS * value / top))] += 1
    else:
        counts = [finite] + [0] * (BINS - 1)
    edges = [f"{top * k / BINS:.6g}" for k in range(BINS + 1)]
    bins = [{"from": edges[k], "to": edges[k + 1], "pairs": counts[k]} for k in range(BINS)]
    return {**largest, "histogram": {"bins": bins, "infinite": len(infinite_pairs)},
            "worst_partner": _largest(worst, "inputs")}


def loss_profile_summary(profile: dict) -> dict:
    """A profile (``loss_profile``) sized for a person, whatever the channel's size (the command line's default):
    each long list becomes its length and its ``SHOWN`` largest losses (ordered by their 50-digit decimals: a
    display order; the tightest budget ``ldp_epsilon`` is exact), the pair losses also a histogram and each input's
    worst partner, the invertible outputs their count and the first of them."""
    summary = dict(profile)
    pairs = profile["pairwise_loss"]
    if isinstance(pairs, list) and len(pairs) > SHOWN:  # a dict: summarised already (``summary_profile``)
        worst = {}  # each input's worst partner, keyed by the input's JSON
        for entry in pairs:
            key = json.dumps(entry["input"])
            if key not in worst or _sort_value(entry["loss"]) > _sort_value(worst[key]["loss"]):
                worst[key] = entry
        summary["pairwise_loss"] = {**_largest(pairs, "pairs"), "histogram": _histogram(pairs),
                                    "worst_partner": _largest(list(worst.values()), "inputs")}
    for key in ("output_loss",):
        if key in profile:
            summary[key] = _largest(profile[key], "outputs")
    if len(profile.get("invertible_outputs", ())) > SHOWN:
        summary["invertible_outputs"] = {"outputs": len(profile["invertible_outputs"]),
                                         "first": profile["invertible_outputs"][:SHOWN], "complete": "with --full"}
    return summary


def _histogram(pairs: list) -> dict:
    """How many pair losses fall in each of ``BINS`` equal bins from 0 to the largest finite loss, and how many are
    infinite."""
    finite = [_decimal(_sort_value(entry["loss"])) for entry in pairs if entry["loss"] != "inf"]
    top = max(finite, default=Decimal(0))
    counts = [0] * BINS
    if top < FLOAT_RANGE:  # in doubles, as always
        finite, top = [float(value) for value in finite], float(top)
        for value in finite:
            counts[min(BINS - 1, int(BINS * value / top)) if top > 0 else 0] += 1
        edges = [f"{top * k / BINS:.6g}" for k in range(BINS + 1)]
    else:  # a loss beyond the doubles (a density of exp(1e400)): in decimals, whose exponents reach 10^18
        with localcontext() as context:
            context.prec, context.Emax, context.Emin = 28, MAX_EMAX, MIN_EMIN
            for value in finite:
                counts[min(BINS - 1, int(BINS * value / top))] += 1
            edges = [to_decimal_string(Fraction(top * k / BINS), 6) for k in range(BINS + 1)]
    return {"bins": [{"from": edges[k], "to": edges[k + 1], "pairs": counts[k]} for k in range(BINS)],
            "infinite": len(pairs) - len(finite)}


def loss_profile(channel, max_work: int | None = None, max_entries: int | None = None) -> dict:
    """Everything above as JSON-ready data (the ``ldpspec profile`` output).

    Losses are shown as decimals (approximations) and, under ``exact``, as exact text. A channel that is a matrix in
    all but its form (``matrix()``, refused beyond ``max_entries`` probabilities) is profiled on it, with the losses of
    its outputs and its invertible outputs; a structure's outputs may be too many to list.

    ``loss_profile_summary`` sizes it for a person.
    """
    channel = checked_channel(channel)
    matrix = channel.matrix(max_entries)
    channel = channel if matrix is None else matrix
    epsilon = ldp_epsilon(channel, max_work)
    pairs = pair_losses(channel, max_work)  # inputs in classes: one pair per pair of classes
    return _profile(channel, max_work, matrix, [
        {"input": label_to_json(x), "other_input": label_to_json(x2), "loss": to_decimal_string(loss),
         "exact": loss.text(), "output": output_to_json(y)}
        for (x, x2), (loss, y) in pairs.items()
    ], epsilon)


def _profile(channel, max_work: int | None, matrix, pairwise, epsilon=None) -> dict:
    """The profile of ``channel`` (its ``matrix()`` when it has one) with ``pairwise`` as its pair losses: the
    complete list (``loss_profile``) or their summary (``summary_profile``)."""
    if epsilon is None:
        epsilon = ldp_epsilon(channel, max_work)
    outputs = channel.output_count
    profile = {
        "inputs": len(channel.inputs),
        "outputs": outputs if outputs < 10 ** 30 else count_text(outputs),
        "ldp_epsilon": to_decimal_string(epsilon),
        "ldp_epsilon_exact": epsilon.text(),
        "pairwise_loss": pairwise,
    }
    read = channel.reading()
    if read is not None:
        profile["reading"] = read.to_json()
    classes = channel.input_classes()
    if classes is not None:
        profile["input_classes"] = [{"first": label_to_json(members[0]), "inputs": len(members)}
                                    for members in classes]
        profile["pairwise_loss_note"] = ("one pair of inputs per ordered pair of classes: every pair of the same two "
                                         "classes has the same loss")
    if matrix is not None:
        profile["output_loss"] = [
            {"output": label_to_json(y), "loss": to_decimal_string(loss), "exact": loss.text(),
             "inputs": None if pair is None else [label_to_json(x) for x in pair]}
            for y, (loss, pair) in matrix.output_losses().items()
        ]
        profile["invertible_outputs"] = [
            {"output": label_to_json(y), "input": label_to_json(x)} for y, x in invertible_outputs(matrix).items()
        ]
    return profile

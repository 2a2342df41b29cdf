"""Helpers shared by the claim modules: per-output z3 proofs, tight premises, and their descriptions."""

from __future__ import annotations

import itertools

import z3
from hypothesis import strategies as st

from ldpspec.spec import Nats, output_distribution, pairwise_loss
from ldpspec.verify.claims import AuditSettings
from ldpspec.verify.search import budget_increments, random_channels
from ldpspec.verify.symbolic import Condition, prove

ALL_ENTRIES = r"all entries \(\ge 0\) and all budgets \(\ge 0\) (so channels of every size)"


def tex_set(values) -> str:
    """``values`` as a set in TeX, for a ledger text's formula: ``("1/2", "1")`` gives ``\\{1/2, 1\\}``, a tuple
    inside it ``(2, 1/2)``."""
    def item(value):
        return "(" + ", ".join(item(v) for v in value) + ")" if isinstance(value, (tuple, list)) else str(value)
    return r"\{" + ", ".join(item(value) for value in values) + r"\}"


def z3_min(a, b):
    return z3.If(a <= b, a, b)


def z3_max(a, b):
    return z3.If(a >= b, a, b)


def z3_reals(prefix: str, count: int) -> list:
    return [z3.Real(f"{prefix}{k}") for k in range(count)]


def pointwise(description: str, premises: list, goal, variables_nonnegative: list, budgets_at_least_one: list):
    """Prove ``premises => goal`` over non-negative entries and exponentiated budgets ``>= 1``."""
    assumptions = [v >= 0 for v in variables_nonnegative] + [E >= 1 for E in budgets_at_least_one] + premises
    return prove([Condition((), None, goal)], assumptions=assumptions, description=description)


def symmetric_input_budgets(channel) -> dict | None:
    """Budgets ``eps_x = max_x' max(L(x, x'), L(x', x))``, under which the channel is MinID-LDP.

    For each pair, ``min(eps_x, eps_x')`` is at least the pair's loss in both
    directions. ``None`` when a loss is infinite.
    """
    losses = pairwise_loss(channel)
    budgets = {x: Nats.rational(0) for x in channel.inputs}
    for (x, x2), (loss, _) in losses.items():
        if loss.is_infinite:
            return None
        budgets[x] = max(budgets[x], loss)
        budgets[x2] = max(budgets[x2], loss)
    return budgets


def channel_with_budgets(settings: AuditSettings):
    """A random channel, its symmetric MinID budgets, and random non-negative increments."""
    return st.tuples(random_channels(max_inputs=settings.max_inputs, max_outputs=settings.max_inputs),
                     st.lists(budget_increments, min_size=settings.max_inputs,
                              max_size=settings.max_inputs))


def raised_budgets(channel, increments) -> dict | None:
    budgets = symmetric_input_budgets(channel)
    if budgets is None:
        return None
    return {x: budgets[x] + increments[k] for k, x in enumerate(channel.inputs)}


def describe_channel_budgets(example, budgets_of) -> dict:
    random_channel, increments = example
    budgets = budgets_of(random_channel.channel, increments)
    return {"channel": random_channel.to_json(),
            "budgets": {str(x): e.text() for x, e in budgets.items()}}


channel_row = output_distribution


def exact_moments(rows: list[dict], estimate) -> tuple:
    """Exact mean and variance of ``estimate(outputs)`` over every joint output of independent users.

    ``rows[u]`` is user ``u``'s output distribution ``{y: P[y]}``; the sum runs
    over all combinations, so keep populations tiny (``count_moments`` groups outputs and affords more). ``estimate``
    returns one number, or a list of them (then the means and variances are lists).
    """
    import itertools
    from functools import reduce

    weighted = []
    for outputs in itertools.product(*(list(row.items()) for row in rows)):
        p = reduce(lambda a, b: a * b, (q for _, q in outputs))
        if p:
            weighted.append((p, [y for y, _ in outputs]))
    return _moments(weighted, estimate)


def count_distribution(rows: list[dict], count) -> dict:
    """The distribution of the summed count vectors of independent users whose outputs follow ``rows``:
    ``{counts: P}``, where one output ``y`` adds ``count(y)`` (a sequence of numbers) to the counts.

    Each user's outputs are first grouped by what they add, then the users are added one at a time, so the work is
    (distinct partial sums) x (distinct additions per user), not ``|outputs|^users``: a channel with hundreds of
    outputs whose counts have a few values per entry is affordable."""
    distribution = {(): 1}
    for row in rows:
        additions: dict = {}
        for y, q in row.items():
            if q:
                key = tuple(count(y))
                additions[key] = additions.get(key, 0) + q
        updated: dict = {}
        for partial, p in distribution.items():
            for addition, q in additions.items():
                key = tuple(a + b for a, b in itertools.zip_longest(partial, addition, fillvalue=0))
                updated[key] = updated.get(key, 0) + p * q
        distribution = updated
    return distribution


def count_moments(rows: list[dict], count, estimate) -> tuple:
    """Exact mean and variance of ``estimate(counts)`` over the users' summed counts (``count_distribution``): the
    moments of an estimator that reads only the counts, at the cost of the distinct count vectors."""
    return _moments([(p, list(counts)) for counts, p in count_distribution(rows, count).items()], estimate)


def _moments(weighted: list[tuple], estimate) -> tuple:
    """Mean and variance of ``estimate(outcome)`` over ``[(probability, outcome)]``; lists of them for an estimate
    that is a list."""
    means = seconds = None
    scalar = False
    for p, outcome in weighted:
        values = estimate(outcome)
        scalar = not isinstance(values, (list, tuple))
        values = [values] if scalar else list(values)
        if means is None:
            means, seconds = [0] * len(values), [0] * len(values)
        means = [m + p * v for m, v in zip(means, values)]
        seconds = [s + p * v * v for s, v in zip(seconds, values)]
    variances = [s - m * m for s, m in zip(seconds, means)]
    return (means[0], variances[0]) if scalar else (means, variances)


def prove_identity(description: str, left, right, assumptions: list):
    """z3: ``left == right`` under ``assumptions`` (a proof of an algebraic identity)."""
    return prove([Condition((), None, left == right)], assumptions=assumptions, description=description)


def two_channels_with_increments(settings: AuditSettings):
    """Two random exact channels on the same inputs, each with random budget increments (composition claims)."""
    inputs = st.integers(1, settings.max_inputs).map(lambda n: tuple(range(n)))
    increments = st.lists(budget_increments, min_size=settings.max_inputs, max_size=settings.max_inputs)
    return inputs.flatmap(lambda xs: st.tuples(
        st.tuples(random_channels(inputs=xs, max_outputs=3), increments),
        st.tuples(random_channels(inputs=xs, max_outputs=3), increments)))


def count_estimator_proofs() -> tuple:
    """z3: the estimator (C - n q)/(p - q) is unbiased, and its variance is n q(1-q)/(p-q)^2 + c (1-p-q)/(p-q),
    when C is a sum of c Bernoulli(p) and n - c Bernoulli(q) variables (every n, c and p != q).

    Gu et al.'s eq. (7)-(8) for IDUE are the same statements with (a_i, b_i) in place of (p, q).
    """
    n, c, p, q = z3.Reals("n c p q")
    unbiased = prove_identity("unbiased", (c * p + (n - c) * q - n * q) / (p - q), c, [p != q])
    variance = prove_identity("variance", (c * p * (1 - p) + (n - c) * q * (1 - q)) / (p - q) ** 2,
                              n * q * (1 - q) / (p - q) ** 2 + c * (1 - p - q) / (p - q), [p != q])
    return unbiased, variance

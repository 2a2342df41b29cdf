"""``python -m ldpspec.reference.tools.benchmark.refute``: ``ldpspec refute`` beside LDP-Auditor's estimator, on the
same draws, and the refuter's throughput.

**Tighter than the anchor.** LDP-Auditor (Arcolezi and Gambs, PETS 2024) audits plain LDP on one pair of inputs,
``v1 = 0`` and ``v2 = k - 1``, with one attack event per mechanism: it runs a distinguishing attack on each release and
counts the releases whose guess is ``v1`` (GRR: the release is ``v1``; a unary encoding: a uniform choice among the
bits set, or among all items when none is; OLH: a uniform choice among the items the release's hash maps to its
value, or among all items when none does), bounds the two frequencies by Clopper-Pearson (``proportion_confint(count,
n, alpha / 2, "beta")``, a two-sided interval at level ``alpha / 2``, so each side at ``alpha / 4``) and reports
``eps_emp = ln(lower / upper)``. Its estimator is these few lines; here it is applied to the very releases the
refuter certifies (drawn once per input by the mechanism's twin, 10^6 per input), with its attack's own randomness
drawn from a seeded generator. The refuter examines the same ordered pair ``(v1, v2)`` under the same plain LDP, with
its event chosen on the exact channel (the most distinguishing one at this sample size) and certified bounds at
``alpha / 2`` a side (one pair: its Bonferroni split). Both are compared with the exact ``eps`` (the limit), and for
each the samples per input it needs to reach 90% of it, from its event's frequencies (at their expected counts, by
bisection on ``n``): ``never`` when its event's ratio is below 90% of ``e^eps``.

**Beyond the anchor**, what LDP-Auditor cannot run: every ordered pair of 10 items, and the input-dependent notions
(MinID-LDP on IDUE, ULDP on uRR, IPLDP on IPRR), each pair's certified bound against its budget and its exact loss.

**Throughput** of the audit path: releases drawn and counted per second for GRR's twin (d = 100) and OUE's (d = 1000,
packed bits), and the tool's cost per call of a Python callable beyond the callable itself (an identity function).

    python -m ldpspec.reference.tools.benchmark.refute [--samples N] [--quick]
"""

from __future__ import annotations

import argparse
import math
import platform
import sys
import time
from fractions import Fraction

import numpy as np
from scipy.special import betaincinv

from ldpspec.reference.refute.events import Kind, Labels, TwoBits, predicted_bound
from ldpspec.reference.refute.guarantee import declare, parse_values
from ldpspec.reference.refute.implementations import FileReleases, PythonCallable, Registered, Shard
from ldpspec.reference.refute.run import Plan, Task, reference_model, refute, run_shard
from ldpspec.reference.shared.olh import hash_value
from ldpspec.spec import MAX_ENTRIES, Channel

ALPHA = Fraction(1, 100)
MECHANISM_NAMES = ("grr", "sue", "oue", "olh")
BUDGETS = ("0.5", "1", "2", "4")
DOMAINS = (2, 100)


# --- LDP-Auditor's estimator, applied to given releases ---------------------------------------------------------------

def auditor_guesses(name: str, releases, k: int, v1: int, mechanism, rng: np.random.Generator) -> int:
    """How many releases LDP-Auditor's attack guesses as ``v1`` (its ``attack_ue`` and ``attack_lh``, vectorised)."""
    if name == "grr":
        return int(np.count_nonzero(np.asarray(releases) == v1))
    u = rng.random(len(releases))
    if name in ("sue", "oue"):
        bits = np.unpackbits(releases, axis=1, count=k)
        ones = bits.sum(axis=1)
        hit = (ones == 0) & (u < 1 / k) | (bits[:, v1] == 1) & (u * np.maximum(ones, 1) < 1)
        return int(np.count_nonzero(hit))
    pairs = np.asarray(releases, dtype=np.int64)
    j, y = pairs[:, 0], pairs[:, 1]
    size = np.zeros(len(pairs), dtype=np.int64)
    for v in range(k):  # the items the release's hash maps to its value
        size += hash_value(j, v, mechanism.g, mechanism.k) == y
    mine = hash_value(j, v1, mechanism.g, mechanism.k) == y
    hit = (size == 0) & (u < 1 / k) | mine & (u * np.maximum(size, 1) < 1)
    return int(np.count_nonzero(hit))


def clopper_pearson_two_sided(count: int, n: int, level: float) -> tuple[float, float]:
    """statsmodels' ``proportion_confint(count, n, level, "beta")``: each side at ``level / 2``."""
    lower = 0.0 if count == 0 else float(betaincinv(count, n - count + 1, level / 2))
    upper = 1.0 if count == n else float(betaincinv(count + 1, n - count, 1 - level / 2))
    return lower, upper


def auditor_epsilon(true_positives: int, false_positives: int, n: int) -> float:
    lower = clopper_pearson_two_sided(true_positives, n, float(ALPHA) / 2)[0]
    upper = clopper_pearson_two_sided(false_positives, n, float(ALPHA) / 2)[1]
    return math.log(lower / upper) if lower > 0 else -math.inf


def samples_to_reach(p1: float, p2: float, target: float, level: float) -> int | None:
    """The fewest samples per input at which the bound from frequencies ``p1``, ``p2`` at their expected counts
    reaches ``target``; ``None`` when even infinitely many would not (``ln(p1 / p2) < target``)."""
    if p1 <= 0 or (p2 > 0 and math.log(p1 / p2) <= target):
        return None
    lo, hi = 1, 1
    while float(predicted_bound(p1, p2, hi, hi, level)) < target:
        hi *= 2
        if hi > 1 << 50:
            return None
    while lo < hi:
        middle = (lo + hi) // 2
        if float(predicted_bound(p1, p2, middle, middle, level)) >= target:
            hi = middle
        else:
            lo = middle + 1
    return lo


# --- the cells --------------------------------------------------------------------------------------------------------

def _reference(twin: Registered, inputs: tuple):
    """The exact channel on ``inputs``: the mechanism's own, or for OLH beyond ``MAX_ENTRIES`` its rows on the two
    inputs alone (``P[(j, y) | x] = p / |H|`` if ``y = h_j(x)``, else ``q' / |H|``, as ``LocalHashing.channel``)."""
    if twin.name != "olh":
        return twin.channel()
    olh = twin.built()
    if olh.d * olh.hashes * olh.g <= MAX_ENTRIES:
        return olh.channel()
    hit, miss = olh.perturbation.p / olh.hashes, olh.perturbation.q / olh.hashes
    pairs = [(j, y) for j in range(olh.hashes) for y in range(olh.g)]
    return Channel(inputs, pairs, [[hit if y == olh.hash(j, x) else miss for j, y in pairs] for x in inputs])


def anchor_cell(name: str, epsilon: str, k: int, samples: int, seed: int) -> dict:
    """One cell of the first table: the same releases, LDP-Auditor's estimate and the refuter's bound."""
    options = {"epsilon": epsilon, "d": str(k)}
    twin = Registered(name, options)
    v1, v2 = 0, k - 1
    inputs = (v1, v2)
    rng = np.random.default_rng(seed)
    drawn = {}
    for x in inputs:
        drawn[x] = twin.draw(x, Shard(0, x, 0, samples), seed)
    form = twin.form()
    kind = Kind("bits", d=k) if form == "bits" else Kind("labels")
    values = parse_values("ldp", {"epsilon": epsilon})
    declared = declare("ldp", values, inputs)
    model = reference_model(_reference(twin, inputs), declared, kind)
    if form == "labels":
        drawn = {x: np.asarray(drawn[x]) for x in inputs} if name != "olh" else drawn
    source = FileReleases("the same draws", tuple(drawn[x] for x in inputs), (0, 0))
    plan = Plan(source, kind, "ldp", values, inputs, (samples, samples), (0, 0), ALPHA, seed=seed,
                shard_size=1 << 20, pairs=((v1, v2),))
    answer = refute(plan, model)
    ours = answer.pairs[0]
    olh = twin.built() if name == "olh" else None
    true_positives = auditor_guesses(name, drawn[v1], k, v1, olh, rng)
    false_positives = auditor_guesses(name, drawn[v2], k, v1, olh, rng)
    theirs = auditor_epsilon(true_positives, false_positives, samples)
    exact = float(Fraction(epsilon))
    k1, n1, k2, n2 = ours.counts
    return {"mechanism": name, "epsilon": epsilon, "k": k, "exact": exact,
            "ours": float(ours.bound) if ours.bound is not None else -math.inf,
            "theirs": theirs, "event": ours.event.text(),
            "ours_n": samples_to_reach(k1 / n1, k2 / n2, 0.9 * exact, float(ALPHA) / 2),
            "theirs_n": samples_to_reach(true_positives / samples, false_positives / samples, 0.9 * exact,
                                         float(ALPHA) / 4)}


def beyond_rows(samples: int, seed: int) -> list[dict]:
    """Every ordered pair of 10 items, and the input-dependent notions: the refuter's bounds, budgets, exact losses."""
    setups = [
        ("grr", {"epsilon": "1", "d": "10"}, "ldp", None),
        ("oue", {"epsilon": "1", "d": "10"}, "ldp", None),
        ("idue", {"budgets": str([1] * 5 + [4] * 5)}, "minid-ldp", None),
        ("urr", {"epsilon": "1", "d": "10", "sensitive": "[0, 1, 2, 3, 4]"}, "uldp", None),
        ("iprr", {"budgets": "[0.5, 0.5, 1, 1, 2, 2, null, null, null, null]"}, "ipldp", None),
    ]
    rows = []
    for name, options, notion, _ in setups:
        twin = Registered(name, options)
        mechanism, channel = twin.built(), twin.channel()
        guarantee = mechanism.guarantee()
        inputs = tuple(channel.inputs)
        declared = declare(notion, dict(guarantee.parameters), inputs)
        form = twin.form()
        if form == "bits" and not declared.pairwise:
            form = "labels"
        kind = Kind("bits", d=channel.bit_count) if form == "bits" else Kind("labels")
        if form == "labels":
            twin = Registered(name, options, labels=True)
        plan = Plan(twin, kind, notion, dict(guarantee.parameters), inputs, samples, 0, ALPHA, seed=seed,
                    shard_size=1 << 18)
        started = time.perf_counter()
        answer = refute(plan, reference_model(channel, declared, kind))
        seconds = time.perf_counter() - started
        gaps = []
        for pair in answer.pairs:
            loss = channel.pair_loss(*pair.pair)[0]
            exact_loss = float(loss) if not loss.is_infinite else math.inf
            gaps.append((float(pair.budget), exact_loss, float(pair.bound) if pair.bound is not None else -math.inf))
        rows.append({"mechanism": name, "notion": notion, "pairs": len(answer.pairs),
                     "violated": len(answer.violations), "failures": len(answer.failures),
                     "bound_over_budget": (min(b / e for e, _, b in gaps if e > 0),
                                           max(b / e for e, _, b in gaps if e > 0)),
                     "bound_over_loss": (min(b / loss for _, loss, b in gaps if 0 < loss < math.inf),
                                         max(b / loss for _, loss, b in gaps if 0 < loss < math.inf)),
                     "seconds": seconds})
    return rows


# --- throughput -------------------------------------------------------------------------------------------------------

def _identity(x, rng):
    return x


def throughput(seconds: float = 2.0) -> list[tuple[str, float]]:
    """Releases per second through ``run_shard`` (draw, read, count the events), one process."""
    values = parse_values("ldp", {"epsilon": "1"})
    setups = [
        ("GRR twin, d = 100, releases per second", Registered("grr", {"epsilon": "1", "d": "100"}),
         Kind("labels"), (Labels(frozenset({0})), Labels(frozenset({1}))), 1 << 20),
        ("OUE twin, d = 1000, releases per second", Registered("oue", {"epsilon": "1", "d": "1000"}),
         Kind("bits", d=1000), (TwoBits(0, 1, (1, 0)), TwoBits(0, 2, (1, 0))), 1 << 18),
        ("a Python callable (the identity), calls per second",
         PythonCallable(f"{__name__}:_identity"), Kind("labels"), (Labels(frozenset({0})),), 1 << 18),
    ]
    found = []
    for what, implementation, kind, events, size in setups:
        run_shard(Task(Shard(1, 0, 0, 1000), implementation, kind, "ldp", values, (0, 1), 0, events))  # warm up
        done, number, started = 0, 0, time.perf_counter()
        while time.perf_counter() - started < seconds:
            run_shard(Task(Shard(1, 0, number, size), implementation, kind, "ldp", values, (0, 1), 0, events))
            done, number = done + size, number + 1
        found.append((what, done / (time.perf_counter() - started)))
    started = time.perf_counter()
    calls = 1 << 20
    for _ in range(calls):
        _identity(0, None)
    bare = (time.perf_counter() - started) / calls
    rate = found[-1][1]
    found.append(("a Python callable: the tool's cost per call beyond the call itself, microseconds",
                  (1 / rate - bare) * 1e6))
    return found


# --- the report -------------------------------------------------------------------------------------------------------

def _n(value: int | None) -> str:
    return "never" if value is None else f"{value:,}"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m ldpspec.reference.tools.benchmark.refute",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--samples", type=int, default=10 ** 6, help="releases per input (default 10^6)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--quick", action="store_true", help="one budget and the small domain only (a smoke run)")
    arguments = parser.parse_args(argv)
    import ldpspec.reference.refute  # noqa: F401  (its version is the package's)
    print(f"Run on: {platform.machine()}, Python {platform.python_version()}, numpy {np.__version__}; "
          f"{arguments.samples:,} releases per input, alpha = {float(ALPHA)}\n")
    budgets = BUDGETS[1:2] if arguments.quick else BUDGETS
    domains = DOMAINS[:1] if arguments.quick else DOMAINS
    print("| mechanism | k | eps (exact) | LDP-Auditor | ldpspec refute | ldpspec's event | samples to 90%: "
          "LDP-Auditor | samples to 90%: ldpspec |")
    print("|---|---|---|---|---|---|---|---|")
    cells = []
    for name in MECHANISM_NAMES:
        for k in domains:
            for epsilon in budgets:
                cell = anchor_cell(name, epsilon, k, arguments.samples, arguments.seed)
                cells.append(cell)
                print(f"| {name} | {k} | {cell['exact']:g} | {cell['theirs']:.4f} | {cell['ours']:.4f} | "
                      f"{cell['event']} | {_n(cell['theirs_n'])} | {_n(cell['ours_n'])} |", flush=True)
    at_least = sum(cell["ours"] >= cell["theirs"] for cell in cells)
    print(f"\nldpspec's bound at least LDP-Auditor's in {at_least} of {len(cells)} cells; strictly above in "
          f"{sum(cell['ours'] > cell['theirs'] for cell in cells)}.\n")
    print("| mechanism | notion | pairs | violated | certain failures | bound / budget (min, max) | "
          "bound / exact loss (min, max) | time (s) |")
    print("|---|---|---|---|---|---|---|---|")
    for row in beyond_rows(arguments.samples, arguments.seed):
        print(f"| {row['mechanism']} | {row['notion']} | {row['pairs']} | {row['violated']} | {row['failures']} | "
              f"{row['bound_over_budget'][0]:.3f}, {row['bound_over_budget'][1]:.3f} | "
              f"{row['bound_over_loss'][0]:.3f}, {row['bound_over_loss'][1]:.3f} | {row['seconds']:.1f} |",
              flush=True)
    print("\n| throughput (one process) | value |\n|---|---|")
    for what, value in throughput():
        print(f"| {what} | {value:,.3g} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())

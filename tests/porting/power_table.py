"""The measured power of ``ldpspec conform``'s sample tests: the table on the page "The conformance checker".

Each row draws sample sets from a sampler off by a fraction of the deviation the report states (0: the exact
sampler), runs the checker's own test on each (``whole_release_test``, ``output_plan``, ``bit_test``) and counts the
sets that fail.
Seeded (NumPy's PCG64 uniform doubles, which are the same on every platform), so the table is the same on every
machine; ``tests/porting/test_power.py`` checks that the page holds it. Print it with
``python -m tests.porting.power_table``.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from ldpspec.reference.porting.bits import bit_law, bit_test
from ldpspec.reference.porting.conform import ALPHA, POWER
from ldpspec.reference.porting.outputs import output_plan, whole_release_test
from ldpspec.reference.porting.vectors import build
from ldpspec.spec import output_distribution

FRACTIONS = (Fraction(0), Fraction(1, 4), Fraction(1, 2), Fraction(3, 4), Fraction(1))
"""The deviations drawn, as fractions of the stated one."""
GRR = {"options": {"epsilon": "1", "d": "3"}, "n": 2000, "runs": 1000, "seed": 2000}
"""The whole-release test on GRR's row at d = 3, 2000 releases per set, input 0; mass moved from the true item to item
1."""
ITEM = {"options": {"epsilon": "1", "d": "1000"}, "n": 40_000, "runs": 200, "seed": 40_000}
"""The outputs test of GRR at d = 1000, 40,000 releases per set, input 0; the true item's probability lowered towards
the largest the test is sure to catch (``at_most``), the mass spread evenly over the other items."""
OUE = {"options": {"epsilon": "1", "d": "100"}, "n": 10_000, "runs": 200, "seed": 10_000}
"""OUE at d = 100 with the recommended 10,000 releases per set, input 0; the true bit's probability raised."""


def grr_rates() -> tuple[float, list[int]]:
    """``(stated total variation, sets caught per fraction)``."""
    channel = build("grr", GRR["options"]).channel()
    row = [float(p) for p in channel.row(0)]
    n, rng = GRR["n"], np.random.default_rng(GRR["seed"])
    stated = whole_release_test([n, 0, 0], row, n, ALPHA, POWER)["detects_tv_at_least"]
    caught = []
    for fraction in FRACTIONS:
        moved = float(fraction) * stated
        cumulative = np.cumsum([row[0] - moved, row[1] + moved, row[2]])
        failed = 0
        for _ in range(GRR["runs"]):
            draws = np.searchsorted(cumulative, rng.random(n) * cumulative[-1], side="right")
            counts = np.bincount(draws, minlength=3)
            failed += not whole_release_test(counts.tolist(), row, n, ALPHA, POWER)["conforms"]
        caught.append(failed)
    return stated, caught


def bit_rates() -> tuple[float, list[int]]:
    """``(stated deviation of one tested probability, sets caught per fraction)``."""
    law = bit_law(build("oue", OUE["options"]).channel(), 0)
    n, rng = OUE["n"], np.random.default_rng(OUE["seed"])
    exact = (np.random.default_rng(0).random((n, law.bits)) < law.ones).astype(np.uint8)
    stated = bit_test(law, exact, ALPHA, POWER)["detects_deviation_at_least"]
    caught = []
    for fraction in FRACTIONS:
        probabilities = law.ones.copy()
        probabilities[0] += float(fraction) * stated
        failed = 0
        for _ in range(OUE["runs"]):
            block = (rng.random((n, law.bits)) < probabilities).astype(np.uint8)
            failed += not bit_test(law, block, ALPHA, POWER)["conforms"]
        caught.append(failed)
    return stated, caught


def item_rates() -> tuple[float, list[int]]:
    """``(stated deviation of the true item's probability, downwards; sets caught per fraction)``."""
    row = {y: p for y, p in output_distribution(build("grr", ITEM["options"]).channel(), 0).items() if p > 0}
    n, rng = ITEM["n"], np.random.default_rng(ITEM["seed"])
    plan = output_plan(row, n, ALPHA, POWER)
    exact = np.array(plan.probabilities)
    stated = exact[0] - plan.test({})["most_likely_detected"]["at_most"]
    caught = []
    for fraction in FRACTIONS:
        probabilities = exact.copy()
        probabilities[0] -= float(fraction) * stated
        probabilities[1:] += float(fraction) * stated / (len(exact) - 1)
        failed = 0
        for _ in range(ITEM["runs"]):
            counts = rng.multinomial(n, probabilities / probabilities.sum())
            failed += not plan.test(dict(zip(plan.outputs, counts.tolist())))["conforms"]
        caught.append(failed)
    return stated, caught


def table(grr: tuple | None = None, item: tuple | None = None, oue: tuple | None = None) -> str:
    """The page's table, in Markdown, from ``grr_rates()``, ``item_rates()`` and ``bit_rates()`` (computed when not
    given)."""
    def cells(caught: list[int], runs: int) -> str:
        return " | ".join(f"{failed / runs:.1%} ({failed}/{runs})" for failed in caught)

    grr_stated, grr_caught = grr or grr_rates()
    item_stated, item_caught = item or item_rates()
    oue_stated, oue_caught = oue or bit_rates()
    head = " | ".join("0 (the exact sampler)" if f == 0 else str(f) for f in FRACTIONS)
    return "\n".join([
        f"| sample sets caught; the sampler off by this fraction of the stated deviation: | {head} |",
        "|---|" + "---|" * len(FRACTIONS),
        f"| whole release, GRR's row at \\(d = 3\\), \\(n = {GRR['n']}\\): mass moved from the true item to another; "
        f"stated total variation {grr_stated:.4f} | {cells(grr_caught, GRR['runs'])} |",
        f"| outputs, GRR at \\(d = 1000\\), \\(n = {ITEM['n']:,}\\): the true item's probability lowered; stated "
        f"deviation {item_stated:.6f} | {cells(item_caught, ITEM['runs'])} |",
        f"| OUE, \\(d = 100\\), \\(n = {OUE['n']:,}\\): the true bit's probability raised; stated deviation "
        f"{oue_stated:.4f} | {cells(oue_caught, OUE['runs'])} |",
    ])


if __name__ == "__main__":
    print(table())

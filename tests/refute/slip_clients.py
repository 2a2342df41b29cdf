"""The clients of the planted-slip tests (``test_slips.py``), by name, each made at import (the workers that draw
their shards import this module)."""

from tests.refute.clients import idue, oue, urr

SWAPS = {3: ([1, 4, 4], (0, 2), (0, 1, 2)), 100: ([1, 1] + [4] * 98, (0, 99), (0, 1, 50, 99)),
         1000: ([1, 1] + [4] * 998, (0, 999), (0, 1, 500, 999))}
"""IDUE's budgets, the two items whose parameters the slip exchanges, and the inputs sampled, by domain size."""

for d in (3, 100, 1000):
    globals()[f"oue_{d}"] = oue(1.0, d)
    globals()[f"oue_{d}_biased"] = oue(1.0, d, true_bit=0.6)

for d, sensitive in ((3, 2), (100, 10), (1000, 100)):
    globals()[f"urr_{d}"] = urr(1.0, d, sensitive)
    globals()[f"urr_{d}_leaked"] = urr(1.0, d, sensitive, leaked=0)

for d, (budgets, swapped, _) in SWAPS.items():
    globals()[f"idue_{d}"] = idue(budgets)
    globals()[f"idue_{d}_swapped"] = idue(budgets, swapped)

"""The closed forms the Cao et al. audit computes at large sizes, tied to the exact channels and moments of the
reference on small domains: per-item variances and MSE parts (Table 2, Sec. 4.4, the figures), release counts
(Table 3), and suWheel's hit probabilities under each reading of the hash (Theorems 8 and 9)."""

from __future__ import annotations

import math
import random
from fractions import Fraction

import pytest

from ldpspec.reference.cao2022.sets import all_sets
from ldpspec.reference.cao2022.sugrr import SetGRR, SetGRRSample, SuGRR, SuGRRSample
from ldpspec.reference.cao2022.surap import SetRAPPOR, SuRAP
from ldpspec.reference.cao2022.wheel import SuWheel, Wheel, arc
from ldpspec.spec.exact import ZERO
from ldpspec.verify.cao2022 import suwheel
from ldpspec.verify.cao2022.builders import hash_family
from ldpspec.verify.cao2022.communication import release_bits
from ldpspec.verify.cao2022.orders import MECHANISMS, mse_parts

CASES = [(3, 1, 1, "1"), (4, 2, 2, "1/2"), (4, 2, 1, "3"), (5, 3, 2, "1")]


def _reference(name: str, eps: str, d: int, k: int, m: int):
    build, _, _ = MECHANISMS[name]
    return build(eps, d, range(k), m)


@pytest.mark.parametrize("case", CASES, ids=str)
@pytest.mark.parametrize("name", ["GRR", "GRR-Sample", "RAPPOR", "RAPPOR-Sample", "suGRR", "suGRR-Sample", "suRAP",
                                  "suRAP-Sample"])
def test_mse_parts_are_the_exact_variances_of_the_reference(name, case):
    """For one user holding any set, the MSE parts (by class of item) sum to the exact variances the reference
    computes from its channel: the closed forms are the mechanisms' own, baselines included."""
    d, m, k, eps = case
    mechanism = _reference(name, eps, d, k, m)
    for s in all_sets(d, m):
        _, variances = mechanism.estimate_moments([s])
        f_non = sum(1 for x in s if x >= k)
        assert sum(mse_parts(name, eps, d, k, m, m - f_non, f_non), ZERO) == sum(variances, ZERO), s


@pytest.mark.parametrize("case", [(2, 1, 1, "1/2"), (3, 2, 1, "1"), (3, 1, 2, "3")], ids=str)
def test_fixed_hash_moments_are_the_references(case):
    """Under one fixed hash, the audit's hit probabilities and moments are the reference's exact moments."""
    d, m, k, eps = case
    for h in hash_family(d):
        mechanism = SuWheel(eps, d, range(k), m, h)
        for s, _, means, variances in suwheel.suwheel_moments(case, [h], hash_values="fixed"):
            assert (means, variances) == tuple(mechanism.estimate_moments([s])), (h, s)


def test_the_arc_mass_averaged_over_a_uniform_hash_matches_a_riemann_sum():
    """The exact trapezoid integral of the arc's mass over v, against a fine midpoint sum in floats."""
    mechanism = SuWheel("1", 4, range(4), 2, ["0", "1/5", "3/4", "9/10"])
    p, steps = float(mechanism.p), 20000
    for s in [(0, 1), (0, 2), (2, 3)]:
        cells, values = mechanism.density(s)
        pieces = [(float(a), float(b), float(value)) for (a, b), value in zip(cells, values)]
        masses = [sum(value * max(0.0, min(b, high) - max(a, low)) for low, high in arc((j + 0.5) / steps, p)
                      for a, b, value in pieces) for j in range(steps)]
        assert abs(float(suwheel.uniform_arc_mass(mechanism, s)) - sum(masses) / steps) < 1e-6


@pytest.mark.parametrize("case", [(3, 1, 1, "1"), (4, 2, 2, "1"), (4, 2, 1, "1/2")], ids=str)
def test_release_counts_are_the_exact_channels_output_counts(case):
    d, m, k, eps = case
    exact = {
        "GRR": SetGRR(eps, d, m), "GRR-Sample": SetGRRSample(eps, d, m), "RAPPOR": SetRAPPOR(eps, d, m),
        "suGRR": SuGRR(eps, d, range(k), m), "suGRR-Sample": SuGRRSample(eps, d, range(k), m),
        "suRAP": SuRAP(eps, d, range(k), m), "Wheel": Wheel(eps, d, m),
    }
    for name, mechanism in exact.items():
        outputs = len(mechanism.channel().explicit().outputs) if name == "Wheel" else len(mechanism.channel().outputs)
        assert math.isclose(release_bits(name, d, k, m, float(Fraction(eps)), "cells"), math.log2(outputs)), name
    suwheel_outputs = len(SuWheel(eps, d, range(k), m).channel().explicit().outputs)
    assert math.log2(suwheel_outputs) <= release_bits("suWheel", d, k, m, float(Fraction(eps)), "cells") + 1e-12


def test_the_grid_reading_counts_the_cells_of_a_grid_hash():
    """Hash values on multiples of p: the channel's cells are at most floor(1/p) + 1."""
    eps, d, m = "1", 6, 2
    p = Wheel(eps, d, m).p
    grid = [(x % math.floor(1 / float(p))) * p for x in range(d)]
    mechanism = Wheel(eps, d, m, [g.text() for g in grid])
    cells = len(mechanism.channel().explicit().outputs)
    assert math.log2(cells) <= release_bits("Wheel", d, d, m, 1.0, "grid") + 1e-12


def test_uniform_and_family_readings_differ_from_a_fixed_hash_only_where_hashes_matter():
    """An item of the set has P_true under every hash (its arc lies in the covered area), so every reading agrees
    on it; a random case keeps this honest beyond the audit's grid."""
    rng = random.Random(5)
    d, m, k, eps = 4, 2, 4, "1"
    hashes = [[f"{rng.randrange(40)}/40" for _ in range(d)] for _ in range(3)]
    for reading in ("fixed", "family", "uniform"):
        group = hashes[:1] if reading == "fixed" else hashes
        for s, row, _, _ in suwheel.suwheel_moments((d, m, k, eps), group, hash_values=reading):
            for x in s:
                assert row[x] == suwheel.printed_parameters(eps, m)["P_true"]

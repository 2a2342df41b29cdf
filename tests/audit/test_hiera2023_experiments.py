"""The closed forms behind the audit's Fig. 1 and Fig. 2 checks of Hao et al. 2023, against exact enumeration and
against the mechanisms' own exact moments."""

from __future__ import annotations

import math

import numpy as np
import pytest

from ldpspec.reference.hiera2023.hiera import HierA
from ldpspec.reference.hiera2023.lhp import LHP
from ldpspec.verify.hiera2023 import experiments as ex


@pytest.mark.parametrize(("compensation", "size"), [("A", "all"), ("D", "all"), ("D", "n")])
@pytest.mark.parametrize("mu", [1, 2, 3])
def test_the_added_variance_of_the_conversions_is_exact(compensation, size, mu):
    """Three levels (e^eps = 4, 3, 2), three users: Var(m*) from exact enumeration equals Var(m*_1) plus the closed
    form of what PLC adds."""
    lhp = LHP(["-1", "-1/3", "1/3", "1"], ["log(4)", "log(3)", "log(2)"], grid=["-1", "0", "1"])
    users = ["-1", "0", "1"]  # one user in each level
    variance = HierA(lhp, mu, compensation, size, clip=False).exact_moments(users)[1]
    base = lhp.estimate_moments(users)[1][0]
    added = ex.added_conversion_variance([math.log(4), math.log(3), math.log(2)], [1, 1, 1], mu, compensation)
    assert float(variance) == pytest.approx(float(base) + added, rel=1e-12)


def test_the_float_variances_match_the_mechanisms_exact_moments():
    """Harmony's, PM's, graded Laplace's and HierA's mu = 1 variances in floats, for a few users on the grid, against
    the mechanisms' exact moments."""
    from ldpspec.reference.hiera2023.graded_laplace import GradedLaplace
    from ldpspec.reference.hiera2023.levels import PAPER_BOUNDARIES
    from ldpspec.reference.shared.harmony import Harmony
    from ldpspec.reference.shared.pm import PiecewiseMechanism

    counts = np.zeros(len(ex.GRID), dtype=np.int64)
    users = {"-0.95": 2, "-0.30": 1, "0.10": 3, "0.75": 1, "1.00": 2}
    for value, count in users.items():
        counts[ex.GRID.index(value)] = count
    population = [value for value, count in users.items() for _ in range(count)]
    mechanisms = {"harmony": Harmony("0.5"), "pm": PiecewiseMechanism("0.5"),
                  "graded-laplace": GradedLaplace(PAPER_BOUNDARIES, ["2.5", "2", "1.5", "1", "0.5"])}
    for method, mechanism in mechanisms.items():
        exact = mechanism.estimate_moments(population)[1][0]
        assert ex.baseline_mse(method, counts, 0.5) == pytest.approx(float(exact), rel=1e-9)
    lhp = LHP(PAPER_BOUNDARIES, ["2.5", "2", "1.5", "1", "0.5"], grid=list(users))
    exact = lhp.estimate_moments(population)[1][0]
    assert ex.hiera_unclipped_mu1_mse(counts, 0.5) == pytest.approx(float(exact), rel=1e-9)

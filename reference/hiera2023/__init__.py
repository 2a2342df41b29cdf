"""The mechanisms of Hao et al. 2023 (graded LDP for numbers): graded Laplace and LHP, the user side of HierA. The
collector's side (PLC and HierA's aggregation) is in ``plc`` and ``hiera``; the baselines Harmony, PM and Laplace are
in ``reference.shared``."""

from ldpspec.reference.hiera2023 import graded_laplace, lhp

MECHANISMS = (*graded_laplace.MECHANISMS, *lhp.MECHANISMS)
"""The registered mechanisms of this paper."""

"""The mechanisms of Hao et al. 2023 (graded LDP for numbers): graded Laplace and LHP, the user side of HierA. The
collector's side (PLC and HierA's aggregation) is in ``plc`` and ``hiera``; the baselines Harmony, PM and Laplace are
in ``reference.shared``."""

MODULES = (
    "graded_laplace",
    "lhp",
)
"""The modules of this folder that declare mechanisms (their ``MECHANISMS``), in the order the registry lists them."""

"""The mechanisms of Gu, Li, Xiong, Cao (ICDE 2020): IDUE, its solvers opt0/opt1/opt2, and IDUE-PS with its
baselines OUE-PS and RAPPOR-PS."""

from ldpspec.reference.gu2020 import idue, idue_ps

MECHANISMS = (*idue.MECHANISMS, *idue_ps.MECHANISMS)
"""The registered mechanisms of this paper."""

"""The mechanisms of the IPLDP preprint (2023): IPRR. Its baselines KRR and URR are GRR and uRR built from per-item
budgets (``reference.shared``)."""

from ldpspec.reference.ipldp2023 import iprr

MECHANISMS = (*iprr.MECHANISMS,)
"""The registered mechanisms of this paper."""

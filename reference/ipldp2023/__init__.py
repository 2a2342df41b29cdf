"""The mechanisms of the IPLDP preprint (2023): IPRR. Its baselines KRR and URR are GRR and uRR built from per-item
budgets (``reference.shared``)."""

MODULES = (
    "iprr",
)
"""The modules of this folder that declare mechanisms (their ``MECHANISMS``), in the order the registry lists them."""

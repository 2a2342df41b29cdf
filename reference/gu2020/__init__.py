"""The mechanisms of Gu, Li, Xiong, Cao (ICDE 2020): IDUE, its solvers opt0/opt1/opt2, and IDUE-PS with its
baselines OUE-PS and RAPPOR-PS."""

MODULES = (
    "idue",
    "idue_ps",
)
"""The modules of this folder that declare mechanisms (their ``MECHANISMS``), in the order the registry lists them."""

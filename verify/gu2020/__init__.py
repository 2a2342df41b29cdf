"""Claims of Gu, Li, Xiong, Cao, "Providing Input-Discriminative Protection for Local Differential Privacy" (ICDE 2020).

The paper's unstated choices are declared in ``readings``; one module per part of the paper holds its claims.
Importing the package registers every claim.
"""

from ldpspec.verify.gu2020 import (  # noqa: F401  (registration)
    baselines,
    figures,
    idue,
    itemsets,
    notions,
    readings,  # noqa: F401  (the choices, before the claims that use them)
)

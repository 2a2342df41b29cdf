"""Claims of Gu, Li, Xiong, Cao, "Providing Input-Discriminative Protection for Local Differential Privacy" (ICDE 2020).

The paper's unstated choices are declared in ``readings``, and what they shape is built by their builders (``builders``,
and the solvers' and experiments' in ``experiments``, ``real_data`` and ``figures``); one module per part of the paper
holds its claims.
Importing the package registers every claim.
"""

from ldpspec.verify.gu2020 import (  # noqa: F401  (registration)
    baselines,
    builders,  # the builders of what the choices shape
    figures,
    idue,
    itemsets,
    notions,
    readings,  # noqa: F401  (the choices, before the claims that use them)
)

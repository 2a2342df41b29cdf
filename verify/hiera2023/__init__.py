"""Claims of Hao et al. 2023 (graded LDP for numbers, HierA).

The paper's unstated choices are declared in ``readings``; one module per part of the paper holds its claims.
Importing the package registers every claim.
"""

from ldpspec.verify.hiera2023 import (  # noqa: F401  (registration)
    estimation,
    experiments,
    privacy,
    readings,  # noqa: F401  (the choices, before the claims that use them)
    sgd,
)

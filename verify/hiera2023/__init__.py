"""Claims of Hao et al. 2023 (graded LDP for numbers, HierA).

The paper's unstated choices are declared in ``readings``, and what they shape is built by ``builders`` (the data set
of Fig. 1 by ``experiments.us_age``); one module per part of the paper holds its claims. Importing the package
registers every builder and claim.
"""

from ldpspec.verify.hiera2023 import (  # noqa: F401  (registration)
    builders,
    estimation,
    experiments,
    privacy,
    readings,  # noqa: F401  (the choices, before the claims that use them)
    sgd,
)

"""Claims of Cao, Zhu, He, Zhang (2022), utility-optimised LDP for set-valued data.

The paper's unstated choices are declared in ``readings``; one module per part of the paper holds its claims.
Importing the package registers every claim.
"""

from ldpspec.verify.cao2022 import (  # noqa: F401  (registration)
    communication,
    experiments,
    orders,
    privacy,
    readings,  # noqa: F401  (the choices, before the claims that use them)
    suwheel,
    utility,
)

"""Claims of the IPLDP preprint (2023).

The paper's unstated choices are declared in ``readings``; one module per part of the paper holds its claims.
Importing the package registers every claim.
"""

from ldpspec.verify.ipldp2023 import (  # noqa: F401  (registration)
    experiments,
    losses,
    mechanisms,
    notion,
    readings,  # noqa: F401  (the choices, before the claims that use them)
)

"""Claims of the IPLDP preprint (2023). Importing the package registers every claim."""

from ldpspec.verify.ipldp2023 import claims  # noqa: F401  (registration)

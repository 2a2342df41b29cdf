"""Claims of Gu, Li, Xiong, Cao, "Providing Input-Discriminative Protection for Local Differential Privacy" (ICDE 2020).

Formula sheet: ``gu2020-idldp.md`` (claims §8) and ``common.md`` §3-§12. One
module per part of the paper; importing the package registers every claim.
"""

from ldpspec.verify.gu2020 import baselines, figures, idue, itemsets, notions  # noqa: F401  (registration)

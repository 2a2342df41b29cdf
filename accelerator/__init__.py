"""The kernel's accelerator: NumPy arithmetic on the doubles of a matrix, which tells the kernel what work it may skip.

The trusted kernel (``ldpspec.spec``) decides every verdict with exact numbers, on the standard library and mpmath
alone. Where NumPy is importable it imports this package and asks it which rows, columns and pairs of a matrix of
rationals can matter: the doubles of the entries (each correctly rounded, so within a relative ``2^-53`` of its
entry, and 0 exactly when the entry is) bound every ratio and loss within a proven slack, and everything outside the
bounds is left out. What is kept is decided exactly by the kernel, in the order of its scan, so the verdicts,
margins and witnesses are the exact path's (DESIGN principle 15; ``tests/kernel/test_accelerator.py`` compares the
two on drawn matrices, including the doubles that misbehave).

This package depends on NumPy only, and on nothing of the kernel: the kernel uses it, never the other way (the
import contracts in ``pyproject.toml``). ``LDPSPEC_ACCELERATOR=0`` in the environment turns it off.
"""

from ldpspec.accelerator.doubles import (
    PAIR_BLOCK,
    PAIR_SLACK,
    PairLossBounds,
    as_array,
    column_extremes,
    filtered_pairs,
    largest_ratios,
    row_pair_candidates,
)

__all__ = ["PAIR_BLOCK", "PAIR_SLACK", "PairLossBounds", "as_array", "column_extremes", "filtered_pairs",
           "largest_ratios", "row_pair_candidates"]

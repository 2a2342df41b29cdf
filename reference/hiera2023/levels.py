"""Privacy levels of numbers (Hao et al. Sec. 3.1): the domain ``[-1, 1]`` cut into ``k`` intervals, each with a budget.

The intervals are ``[b_0, b_1), [b_1, b_2), ..., [b_{k-1}, b_k]`` (half-open, the last closed, as in the paper's
experiments), with ``b_0 = -1`` and ``b_k = 1``; interval ``j`` (1-based, as the paper numbers levels) has budget
``eps_j``. The paper orders the budgets from low to high privacy (``eps_1 > ... > eps_k``) but allows the intervals to
be reordered (Sec. 4.1), so no order is enforced here; what needs one (PLC converts only towards smaller budgets)
checks it where it is used.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ldpspec.reference.validation import value
from ldpspec.spec import InvalidParameter, Parameter, budget, exact_number, level_of, value_text

PAPER_BOUNDARIES = ("-1", "-0.6", "-0.2", "0.2", "0.6", "1")
"""The five equal intervals of the paper's experiments (Sec. 6)."""

PAPER_MULTIPLIERS = (5, 4, 3, 2, 1)
"""The experiments' budgets are ``5 eps_0, 4 eps_0, 3 eps_0, 2 eps_0, eps_0``, in interval order (Sec. 6)."""

BOUNDARIES = Parameter("boundaries", "numbers", "the interval end points -1 = b_0 < b_1 < ... < b_k = 1 of the k "
                       "privacy levels", example="[-1, 0, 1]")
LEVEL_BUDGETS = Parameter("budgets", "budgets", "one budget eps_j > 0 per interval, in interval order",
                          example="[2, 1]")
LEVEL_GRID = Parameter("grid", "numbers", "the inputs of the exact channel, numbers of [-1, 1]; by default the "
                       "boundaries", required=False, example="[-1, -0.5, 0, 0.5, 1]")


class Levels:
    """``k >= 1`` intervals of ``[-1, 1]`` with one budget ``> 0`` each."""

    def __init__(self, boundaries: Sequence, budgets: Sequence):
        if isinstance(boundaries, (str, bytes)) or not isinstance(boundaries, Sequence):
            raise InvalidParameter(f"boundaries must be a list of numbers -1 = b_0 < ... < b_k = 1, got "
                                   f"{value_text(boundaries)}"[:300])
        self.boundaries = tuple(exact_number(b, f"boundaries[{j}]") for j, b in enumerate(boundaries))
        if len(self.boundaries) < 2 or self.boundaries[0] != -1 or self.boundaries[-1] != 1 or any(
                a >= b for a, b in zip(self.boundaries, self.boundaries[1:])):
            raise InvalidParameter("boundaries must be at least two strictly increasing numbers from -1 to 1, got "
                                   f"[{', '.join(b.text() for b in self.boundaries)}]")
        if isinstance(budgets, (str, bytes)) or not isinstance(budgets, Sequence):
            raise InvalidParameter(f"budgets must be a list with one budget per interval, got {value_text(budgets)}")
        self.k = len(self.boundaries) - 1
        if len(budgets) != self.k:
            raise InvalidParameter(f"budgets must give one budget per interval: {self.k} intervals, {len(budgets)} "
                                   "budgets")
        self.budgets = tuple(budget(e, f"budgets[{j}]") for j, e in enumerate(budgets))
        for j, e in enumerate(self.budgets):
            if e.sign() == 0:
                raise InvalidParameter(f"budgets[{j}] (the budget of level {j + 1}) must be > 0, got 0")
        self.exponentials = tuple(e.exponential() for e in self.budgets)
        self._inner = np.array([float(b) for b in self.boundaries[1:-1]])  # the inner end points, for ``indices``

    @classmethod
    def paper(cls, eps0) -> Levels:
        """The experiments' levels: five equal intervals with budgets ``5 eps_0, ..., eps_0``."""
        eps0 = budget(eps0, "eps0")
        return cls(PAPER_BOUNDARIES, [eps0 * m for m in PAPER_MULTIPLIERS])

    def level(self, v) -> int:
        """The 1-based level of the number ``v`` of ``[-1, 1]``."""
        return level_of(value(v, "v"), self.boundaries) + 1

    def indices(self, values) -> np.ndarray:
        """The 0-based level of each of many numbers (floats, as the twins draw them): the intervals are closed on the
        left, the last one also on the right, as ``level``."""
        return np.searchsorted(self._inner, values, side="right")

    def grid(self, grid: Sequence | None) -> tuple:
        """``grid``, or the boundaries when it is None (every interval end point: what graded LDP on a grid needs)."""
        from ldpspec.reference.validation import value_grid

        return value_grid(self.boundaries if grid is None else grid)

    def to_json(self) -> dict:
        return {"boundaries": [b.text() for b in self.boundaries], "budgets": [e.text() for e in self.budgets]}

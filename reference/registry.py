"""Everything the project registers, in one place: the papers, the notions and the mechanisms.

The command line (``ldpspec list``, ``channel``, ``check``), channel files, the documentation's tables, the
benchmark and the tests read these tables; nothing else lists mechanisms, notions or papers.

* A notion is declared in ``ldpspec.spec.notions`` (``NOTIONS``).
* A mechanism is declared at the end of its module (``MECHANISMS``), whose name its folder's ``__init__`` lists
  (``MODULES``, one line per module); this module gathers the folders below.
* A paper is one entry of ``PAPERS``; its claims are the folder ``verify/<key>/``, its mechanisms the folder
  ``reference/<key>/`` (when it has mechanisms of its own), its page ``docs/papers/<key>.md``.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass

from ldpspec.reference import cao2022, gu2020, hiera2023, ipldp2023, shared
from ldpspec.reference.mechanism import Mechanism
from ldpspec.spec import NOTIONS, Notion


@dataclass(frozen=True)
class Paper:
    """A paper the project covers: its key (the prefix of its claims' ids), citation and documentation page."""

    key: str
    citation: str

    @property
    def docs(self) -> str:
        return f"papers/{self.key}.md"

    def to_json(self) -> dict:
        return {"key": self.key, "citation": self.citation, "docs": self.docs}


PAPERS: dict[str, Paper] = {paper.key: paper for paper in (
    Paper("gu2020", "Gu, Li, Xiong, Cao. Providing Input-Discriminative Protection for Local Differential Privacy. "
                    "ICDE 2020"),
    Paper("cao2022", "Cao, Zhu, He, Zhang. Utility-Optimized LDP Set-Valued Data Frequency Estimation Mechanism. "
                     "J. Computer Research and Development, 2022"),
    Paper("ipldp2023", "Item-Oriented Personalized LDP for Discrete Distribution Estimation. Preprints.org, 2023 (v1)"),
    Paper("hiera2023", "Hao, Wu, Wan. Hierarchical Aggregation for Numerical Data under Local Differential Privacy. "
                       "Sensors 2023"),
)}
"""The papers, by key."""

FOLDERS = (shared, gu2020, cao2022, ipldp2023, hiera2023)
"""The folders of mechanisms: ``shared``, then one per paper."""

MECHANISMS: dict[str, Mechanism] = {
    mechanism.name: mechanism
    for folder in FOLDERS for module in folder.MODULES
    for mechanism in importlib.import_module(f"{folder.__name__}.{module}").MECHANISMS}
"""Every registered mechanism, by name."""

__all__ = ["MECHANISMS", "NOTIONS", "PAPERS", "Mechanism", "Notion", "Paper"]


def listing() -> dict:
    """What ``ldpspec list --json`` prints."""
    return {"papers": [paper.to_json() for paper in PAPERS.values()],
            "mechanisms": [mechanism.to_json() for mechanism in MECHANISMS.values()],
            "notions": [notion.to_json() for notion in NOTIONS.values()]}

"""Loading the registered claims: the folder ``verify/<key>/`` of every paper of the registry."""

from __future__ import annotations

import importlib
import importlib.util

from ldpspec.reference.registry import PAPERS
from ldpspec.verify.ledger import REGISTRY, Claim


def paper_packages() -> list[str]:
    """The audit's packages: ``ldpspec.verify.<key>`` for every paper that has claims so far."""
    return [f"ldpspec.verify.{key}" for key in PAPERS if importlib.util.find_spec(f"ldpspec.verify.{key}")]


def load_claims() -> dict[str, Claim]:
    """Import every paper's package (each registers its choices and claims) and return the registry."""
    for package in paper_packages():
        importlib.import_module(package)
    return REGISTRY

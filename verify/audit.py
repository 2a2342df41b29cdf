"""Loading the registered claims: one module per paper."""

from __future__ import annotations

import importlib

from ldpspec.verify.ledger import REGISTRY, Claim

PAPER_MODULES = ("ldpspec.verify.gu2020", "ldpspec.verify.ipldp2023")


def load_claims() -> dict[str, Claim]:
    """Import every paper module (each registers its claims) and return the registry."""
    for module in PAPER_MODULES:
        importlib.import_module(module)
    return REGISTRY

"""The audit: every claim of the four papers as a registered, machine-checked claim.

Run it with ``pytest verify`` (add ``--deep`` for a longer search). The ledger
is written to ``build/ledger/ledger.json`` and ``build/ledger/ledger.md``.
"""

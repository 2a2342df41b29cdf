"""The audit: every claim of the four papers as a registered, machine-checked claim.

Run it with ``pytest verify`` (add ``--deep`` for a longer search). The ledger
is written to ``build/ledger/ledger.json`` and ``build/ledger/ledger.md``.

Finding a claim: a claim id is ``<paper>.<part>[.<detail>]``, the part running to the first dot that no digit
follows (``gu2020.fig3.idue-beats-ldp``: part ``fig3``; ``ipldp2023.sec4.2-equal-budgets``: part
``sec4.2-equal-budgets``). Every claim of one part is in one module of ``verify/<paper>/``, and ``verify/CLAIMS.md``
lists each part with its file (``claim_files.py`` states the rule and writes the table; a test checks both). No
module imports another's private (underscored) names: what two modules share is public.
"""

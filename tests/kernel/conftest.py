"""The kernel's tests run in two environments: with everything (the default run), and with the standard library,
mpmath, pytest and Hypothesis alone (``.ci/kernel``), where the kernel must decide without NumPy. Without NumPy the
modules below are not collected: each builds channels with the mechanisms (``reference/``, which needs NumPy), reads
channel files (``reference/channelfile.py``), proves with z3, or tests the accelerator itself. Every other module
here runs in both."""

import importlib.util

NEEDS_NUMPY = [
    "test_exponential.py",  # channel files (reference/channelfile.py) and NumPy densities
    "test_families.py",  # z3 proofs over every budget
    "test_float_filter.py",  # the accelerator itself
    "test_loss.py",  # the mechanisms' channels (SUE)
    "test_notions_known.py",  # the mechanisms' channels (GRR, OUE, SUE)
    "test_rows.py",  # NumPy float matrices, and the registry's mechanisms
    "test_validation.py",  # the mechanisms' argument checks
]

collect_ignore = [] if importlib.util.find_spec("numpy") else NEEDS_NUMPY

"""Mechanisms shared by the papers: RR, GRR, unary encodings, uRR, uRAP, and for numbers Harmony, PM and Laplace; and
the building blocks Padding-and-Sampling and the count estimator. Also the home of a well-known mechanism from a paper
the project does not cover (see the page "Contributing")."""

MODULES = (
    "rr",
    "grr",
    "unary",
    "urr",
    "urap",
    "olh",
    "hadamard",
    "harmony",
    "pm",
    "laplace",
)
"""The modules of this folder that declare mechanisms (their ``MECHANISMS``), in the order the registry lists them."""

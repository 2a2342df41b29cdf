"""The mechanisms of Cao, Zhu, He, Zhang (2022): utility-optimised mechanisms for set-valued data under SULDP."""

MODULES = (
    "sugrr",
    "surap",
    "wheel",
    "padding",
)
"""The modules of this folder that declare mechanisms (their ``MECHANISMS``), in the order the registry lists them."""

"""The mechanisms of Cao, Zhu, He, Zhang (2022): utility-optimised mechanisms for set-valued data under SULDP."""

from ldpspec.reference.cao2022 import padding, sugrr, surap, wheel

MECHANISMS = (*sugrr.MECHANISMS, *surap.MECHANISMS, *wheel.MECHANISMS, *padding.MECHANISMS)
"""The registered mechanisms of this paper."""

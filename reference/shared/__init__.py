"""Mechanisms shared by the papers: RR, GRR, unary encodings, uRR, uRAP, and for numbers Harmony, PM and Laplace; and
the building blocks Padding-and-Sampling and the count estimator."""

from ldpspec.reference.shared import grr, harmony, laplace, pm, rr, unary, urap, urr

MECHANISMS = (
    *rr.MECHANISMS, *grr.MECHANISMS, *unary.MECHANISMS, *urr.MECHANISMS, *urap.MECHANISMS,
    *harmony.MECHANISMS, *pm.MECHANISMS, *laplace.MECHANISMS,
)
"""The registered mechanisms of this folder."""

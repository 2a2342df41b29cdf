"""Mechanisms shared by the papers: RR, GRR, unary encodings, uRR, uRAP; and the building blocks Padding-and-Sampling
and the count estimator."""

from ldpspec.reference.shared import grr, rr, unary, urap, urr

MECHANISMS = (
    *rr.MECHANISMS, *grr.MECHANISMS, *unary.MECHANISMS, *urr.MECHANISMS, *urap.MECHANISMS,
)
"""The registered mechanisms of this folder."""

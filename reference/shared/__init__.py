"""Mechanisms shared by the papers: RR, GRR, unary encodings; and the building blocks Padding-and-Sampling and the
count estimator."""

from ldpspec.reference.shared import grr, rr, unary

MECHANISMS = (*rr.MECHANISMS, *grr.MECHANISMS, *unary.MECHANISMS)
"""The registered mechanisms of this folder."""

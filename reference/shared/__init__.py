"""Mechanisms shared by the papers: RR, GRR, unary encodings, Padding-and-Sampling, the count estimator."""

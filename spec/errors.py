"""Errors of the kernel. Every message names the parameter and what is allowed."""


class SpecError(ValueError):
    """Base class: the input to the kernel is not valid."""


class InvalidParameter(SpecError):
    """A parameter (budget, label set, option) is outside its allowed range."""


class InvalidChannel(SpecError):
    """A channel is malformed: labels, shape, or probabilities."""

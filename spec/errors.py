"""Errors of the kernel. Every message names the parameter and what is allowed."""


class SpecError(ValueError):
    """Base class: the input to the kernel is not valid."""


class InvalidParameter(SpecError):
    """A parameter (budget, label set, option) is outside its allowed range."""


class TooLarge(InvalidParameter):
    """A computation refused before it starts for its size, not for its values: raising the limit the message names
    runs it (``max_entries``, ``max_work``)."""


class InvalidChannel(SpecError):
    """A channel is malformed: labels, shape, or probabilities."""

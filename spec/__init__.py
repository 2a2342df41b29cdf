"""The trusted kernel: exact channels, every privacy notion as a predicate, privacy loss.

Depends on the standard library and mpmath only. See ``spec.numbers`` and
``spec.exact`` for how numbers are held and decided: exactly, with no tolerance.
"""

from ldpspec.spec.channel import Channel, compose, map_outputs, postprocess
from ldpspec.spec.channelfile import (
    ChannelFile,
    channel_file_text,
    parse_channel_file,
    read_channel_file,
    write_channel_file,
)
from ldpspec.spec.continuous import Density, PiecewiseChannel
from ldpspec.spec.errors import InvalidChannel, InvalidParameter, SpecError, TooLarge
from ldpspec.spec.exact import Exact, Undecided
from ldpspec.spec.families import AffineFamily
from ldpspec.spec.loss import (
    invertible_outputs,
    ldp_epsilon,
    loss_profile,
    loss_profile_summary,
    output_loss,
    pair_loss,
    pairwise_loss,
    posterior_leakage_range,
)
from ldpspec.spec.nats import Nats
from ldpspec.spec.notions import (
    NOTIONS,
    PAIR_FUNCTIONS,
    SULDP_READINGS,
    Notion,
    avg_id_ldp,
    graded_ldp,
    id_ldp,
    ipldp,
    ldp,
    min_id_ldp,
    suldp_joint,
    suldp_joint_unrevealed,
    suldp_marginal,
    uldp,
)
from ldpspec.spec.numbers import DISPLAY_DIGITS
from ldpspec.spec.parameters import Parameter
from ldpspec.spec.rows import RowReading
from ldpspec.spec.structured import ClassedChannel, ClassedUnary, ColumnClasses, IndependentBits, StructuredChannel
from ldpspec.spec.verdict import Verdict, Witness

__all__ = [
    "Channel", "RowReading", "compose", "map_outputs", "postprocess",
    "ChannelFile", "channel_file_text", "parse_channel_file", "read_channel_file", "write_channel_file",
    "InvalidChannel", "InvalidParameter", "SpecError", "TooLarge",
    "invertible_outputs", "ldp_epsilon", "loss_profile", "loss_profile_summary", "output_loss", "pair_loss",
    "pairwise_loss",
    "posterior_leakage_range",
    "NOTIONS", "Notion", "Parameter", "PAIR_FUNCTIONS", "SULDP_READINGS",
    "avg_id_ldp", "graded_ldp", "id_ldp", "ipldp", "ldp", "min_id_ldp",
    "suldp_joint", "suldp_joint_unrevealed", "suldp_marginal", "uldp",
    "DISPLAY_DIGITS", "Exact", "Nats", "Undecided",
    "AffineFamily", "ClassedChannel", "ClassedUnary", "ColumnClasses", "Density", "IndependentBits",
    "PiecewiseChannel", "StructuredChannel",
    "Verdict", "Witness",
]

"""The trusted kernel: exact channels, every privacy notion as a predicate, privacy loss.

Depends on the standard library and mpmath only. See ``spec.numbers`` and ``spec.exact`` for how numbers are held
and decided: exactly, with no tolerance.

This is the kernel's public face: the rest of the project (``reference``, ``verify``) imports the kernel from here,
never from its modules (a contract of ``tests/project/test_imports.py``). Where NumPy is importable the kernel skips
work with the accelerator (``ldpspec.accelerator``), whose answers are the exact path's.
"""

from ldpspec.spec.channel import MAX_ENTRIES, Channel, check_entries, compose, map_outputs, once_per_object, postprocess
from ldpspec.spec.continuous import (
    Density,
    Infinity,
    PiecewiseChannel,
    cell_first_output_label,
    cell_text,
    compare_points,
    default_output_label,
    output_distribution,
    point,
    sorted_unique,
)
from ldpspec.spec.errors import InvalidChannel, InvalidParameter, SpecError, TooLarge
from ldpspec.spec.exact import ONE, ZERO, Exact, Undecided, count_text, rational_text
from ldpspec.spec.families import AffineFamily
from ldpspec.spec.labels import (
    MAX_LABEL_DEPTH,
    LazyText,
    json_ready,
    label_list,
    label_map,
    label_subset,
    label_text,
    label_to_json,
    normalize_label,
    sequence,
    unique_labels,
    value_text,
)
from ldpspec.spec.loss import (
    invertible_outputs,
    ldp_epsilon,
    loss_profile,
    loss_profile_summary,
    output_loss,
    pair_loss,
    pairwise_loss,
    posterior_leakage_range,
    summary_profile,
)
from ldpspec.spec.nats import Nats
from ldpspec.spec.notions import (
    NOTIONS,
    PAIR_FUNCTIONS,
    PRIVACY_KEYS,
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
from ldpspec.spec.numbers import (
    DISPLAY_DIGITS,
    budget,
    ctx,
    exact_number,
    integer,
    probability,
    to_decimal_string,
)
from ldpspec.spec.parameters import Parameter, input_budgets, json_with_decimals, label_from_json
from ldpspec.spec.parse import MAX_TEXT, check_decimal_size
from ldpspec.spec.progress import reporting, terminal_reporter
from ldpspec.spec.protocol import MAX_PAIR_WORK, check_pair_work, checked_channel, column_loss, level_of
from ldpspec.spec.rows import NUMBER_READINGS, ROW_RULES, RowReading, sum_text
from ldpspec.spec.structured import (
    ClassedChannel,
    ClassedUnary,
    ColumnClasses,
    IndependentBits,
    SampledOneHot,
    StructuredChannel,
    bit_vector_probability,
    group_equal,
)
from ldpspec.spec.verdict import Verdict, Witness

__all__ = [
    # channels: the explicit matrix, its labels, and the channels given by their structure
    "Channel", "MAX_ENTRIES", "MAX_LABEL_DEPTH", "check_entries", "compose", "count_text", "json_ready",
    "label_list", "label_map", "label_subset", "label_text", "label_to_json", "map_outputs", "normalize_label",
    "once_per_object", "postprocess", "sequence", "unique_labels", "value_text", "LazyText",
    "AffineFamily", "ClassedChannel", "ClassedUnary", "ColumnClasses", "IndependentBits", "SampledOneHot",
    "StructuredChannel", "bit_vector_probability", "group_equal",
    "Density", "Infinity", "PiecewiseChannel", "cell_first_output_label", "cell_text", "compare_points",
    "default_output_label", "output_distribution", "point", "sorted_unique",
    # errors
    "InvalidChannel", "InvalidParameter", "SpecError", "TooLarge",
    # privacy loss and the channel protocol's limits
    "invertible_outputs", "ldp_epsilon", "loss_profile", "loss_profile_summary", "output_loss", "pair_loss",
    "pairwise_loss", "posterior_leakage_range", "summary_profile",
    "MAX_PAIR_WORK", "check_pair_work", "checked_channel", "column_loss", "level_of",
    # the notions and their parameters
    "NOTIONS", "Notion", "PAIR_FUNCTIONS", "PRIVACY_KEYS", "SULDP_READINGS",
    "avg_id_ldp", "graded_ldp", "id_ldp", "ipldp", "ldp", "min_id_ldp",
    "suldp_joint", "suldp_joint_unrevealed", "suldp_marginal", "uldp",
    "Parameter", "input_budgets", "json_with_decimals", "label_from_json",
    # exact numbers, and numbers read from text and arguments
    "DISPLAY_DIGITS", "Exact", "MAX_TEXT", "Nats", "ONE", "Undecided", "ZERO", "budget", "check_decimal_size", "ctx",
    "exact_number", "integer", "probability", "rational_text", "to_decimal_string",
    # row readings of float matrices
    "NUMBER_READINGS", "ROW_RULES", "RowReading", "sum_text",
    # verdicts, and the progress of long checks
    "Verdict", "Witness", "reporting", "terminal_reporter",
]

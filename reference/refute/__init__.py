"""Refuting an implementation's privacy from its samples (``ldpspec refute``).

A sample can refute a declared guarantee at a stated confidence; it can never prove one (privacy is decided on exact
channels, by the kernel). A run samples an implementation (``implementations``: a Python callable, a command, a file
of releases, a registered mechanism's twin) on chosen inputs, chooses for each examined pair of inputs the event that
best separates them (``events``: on an exact reference channel, or on a selection share of the samples kept apart
from the samples that certify), and bounds each pair's privacy loss from below with Clopper-Pearson bounds certified
in exact and interval arithmetic (``binomial``), jointly at confidence ``1 - alpha``. Each bound is compared exactly
with the pair's budget under the declared notion, read as samples can refute it (``guarantee``); the answer
(``answer``) gives each pair's verdict, **violated** or **not refuted**, and the power the run had. Shards are seeded
from one seed and drawn in one process, on local processes, or on a Dask cluster, with a checkpoint (``run``).

    from ldpspec.reference.refute import Kind, Plan, PythonCallable, parse_values, refute
    plan = Plan(PythonCallable("mylib:release"), Kind("labels"), "ldp", parse_values("ldp", {"epsilon": "1"}),
                inputs=(0, 1, 2), samples=100_000, selection=20_000, alpha=Fraction(1, 100))
    answer = refute(plan)          # answer.refuted, answer.to_json(), answer.text()

The page "Refuting an implementation's privacy from samples" of the documentation walks through it.
"""

from ldpspec.reference.refute.answer import Answer, PairResult
from ldpspec.reference.refute.events import Kind, ReleaseError
from ldpspec.reference.refute.guarantee import Declared, declare, parse_values
from ldpspec.reference.refute.implementations import (
    Command,
    FileReleases,
    ImplementationError,
    PythonCallable,
    Registered,
    read_releases_file,
)
from ldpspec.reference.refute.run import Plan, reference_model, refute

__all__ = ["Answer", "Command", "Declared", "FileReleases", "ImplementationError", "Kind", "PairResult", "Plan",
           "PythonCallable", "Registered", "ReleaseError", "declare", "parse_values", "read_releases_file",
           "reference_model", "refute"]

"""Cao et al. (2022): the builders of what the paper's unstated choices shape (``builds`` in verify/claims.py).

Every check of the paper builds these objects here and nowhere else, so that the choice each one embodies is read
from the running reading (and swept by the audit) instead of being fixed by a default argument:

* the SULDP predicate of Def. 3, exact and symbolic (``condition_11``);
* the releases of the mechanisms of Sec. 4.1 and 4.2, exact and symbolic, and suRAP's protected outputs
  (``sugrr_y0``, ``empty``, ``surap_y0``);
* suWheel's release with its hash (Sec. 4.3, ``hash``);
* the budget grid of Sec. 4.4 and Fig. 1 (``eps_range``).

The builders of suWheel's hit probabilities (``hash_values``), the variance model of the Sample variants
(``variance_model``), the number of cells of ``y0`` (``y0_precision``), the MSE's scale (``mse_scale``) and the
catalogs' sensitive items (``adult_genres``) are in the modules that hold those computations (``suwheel``,
``utility``, ``communication``, ``experiments``).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable

from ldpspec.reference.cao2022.sugrr import SuGRR, SuGRRSample
from ldpspec.reference.cao2022.surap import SuRAP, SuRAPSample
from ldpspec.reference.cao2022.wheel import SuWheel
from ldpspec.spec import PiecewiseChannel, suldp_joint, suldp_joint_unrevealed, suldp_marginal
from ldpspec.verify.cao2022.readings import CONDITION_11, EMPTY, EPS_BUDGETS, EPS_RANGE, HASH, SUGRR_Y0, SURAP_Y0
from ldpspec.verify.claims import builds
from ldpspec.verify.kernel_checks import kernel_check, labels_text, number_text

# --- Def. 3, condition (11): the SULDP predicate -------------------------------------------------------------------


@builds(CONDITION_11, constructs=("suldp_marginal", "suldp_joint_unrevealed", "suldp_joint"))
def suldp(channel, sensitive: Iterable, epsilon, protects: Callable = lambda output: True, *, condition_11: str):
    """The SULDP predicate of Def. 3 (Sec. 3.2) on the exact channel of a release ``(y0, R)``, with condition (11)
    as ``condition_11`` reads it: on ``y0`` alone, on the whole release for releases that reveal nothing, or on the
    whole release for every ``R``. ``Y_pro`` is every protected part the channel releases among the outputs
    ``protects`` keeps (the others are invertible outputs)."""
    arguments = (channel, list(sensitive), None, protected_parts(channel, protects), epsilon)
    if condition_11 == "marginal":
        return suldp_marginal(*arguments)
    if condition_11 == "joint-unrevealed":
        return suldp_joint_unrevealed(*arguments)
    return suldp_joint(*arguments)


def protected_parts(channel, protects: Callable = lambda output: True) -> list:
    """``Y_pro`` of ``suldp``: every protected part ``y0`` the channel releases among the outputs ``protects`` keeps."""
    outputs = channel.explicit().outputs
    return sorted({y0 for y0, revealed in outputs if y0 is not None and protects((y0, revealed))}, key=repr)


@builds(CONDITION_11)
def suldp_check(channel, sensitive: Iterable, epsilon, subject: str, *, expected: str, condition_11: str) -> dict:
    """The kernel check (verify/kernel_checks.py) of the SULDP predicate ``suldp`` builds under the reading
    ``condition_11``, on ``channel`` (an explicit channel of releases ``(y0, R)``): ``ldpspec check --notion
    suldp-<condition_11>`` with the same sensitive items, protected parts and budget. ``subject`` names the channel
    in the check's sentence; ``expected`` is the verdict the refutation rests on."""
    verb = "satisfies" if expected == "holds" else "does not satisfy"
    return kernel_check(channel, f"suldp-{condition_11}",
                        {"sensitive": labels_text(sensitive), "protected": labels_text(protected_parts(channel)),
                         "epsilon": number_text(epsilon)},
                        what=f"{subject} {verb} SULDP at budget {epsilon} with condition (11) read as "
                             f"`condition_11={condition_11}`", expected=expected)


# --- Sec. 4.1 and 4.2: the releases of suGRR, suGRR-Sample, suRAP, suRAP-Sample ---------------------------------------
# The mechanisms are built once per audit for each reading (a cache under the builder: the reading is in its key).


@builds(SUGRR_Y0, EMPTY, constructs=("SuGRR",))
@functools.cache
def sugrr(epsilon, d: int, sensitive: Iterable[int], m: int, *, sugrr_y0: str, empty: str) -> SuGRR:
    """suGRR (Sec. 4.1.1): its release ``(y0, R)`` keeps repeated sensitive outputs (``y0`` a multiset) or merges
    them (a set: ``sugrr_y0``), and has no or an empty protected part when every item is revealed (``empty``).
    ``sensitive`` must be hashable (a ``range``)."""
    return SuGRR(epsilon, d, sensitive, m, sugrr_y0, empty)


@builds(EMPTY, constructs=("SuGRRSample",))
@functools.cache
def sugrr_sample(epsilon, d: int, sensitive: Iterable[int], m: int, *, empty: str) -> SuGRRSample:
    """suGRR-Sample (Sec. 4.1.1): a revealed item is released with no or an empty protected part (``empty``)."""
    return SuGRRSample(epsilon, d, sensitive, m, empty)


def surap_release(reading: str) -> str:
    """The mechanism's ``y0`` parameter for a reading of suRAP's y0: the uldp reading releases the whole vector."""
    return "vector" if reading == "uldp" else reading


@builds(SURAP_Y0, constructs=("SuRAP",))
@functools.cache
def surap(epsilon, d: int, sensitive: Iterable[int], m: int, *, surap_y0: str) -> SuRAP:
    """suRAP (Sec. 4.2.1): its protected part ``y0`` is the whole perturbed vector or its sensitive bits
    (``surap_y0``; the uldp reading releases the whole vector and protects only part of it, ``surap_protects``)."""
    return SuRAP(epsilon, d, sensitive, m, surap_release(surap_y0))


@builds(SURAP_Y0, constructs=("SuRAPSample",))
@functools.cache
def surap_sample(epsilon, d: int, sensitive: Iterable[int], m: int, *, surap_y0: str) -> SuRAPSample:
    """suRAP-Sample (Sec. 4.2.1), its protected part as ``surap_y0`` reads it (as ``surap``)."""
    return SuRAPSample(epsilon, d, sensitive, m, surap_release(surap_y0))


@builds(SURAP_Y0)
def surap_protects(*, surap_y0: str) -> Callable:
    """suRAP's protected outputs ``Y_pro`` (Sec. 4.2.1), as a predicate on releases: under uldp, the vectors with no
    non-sensitive 1 (those reveal nothing); otherwise every release's protected part. No lower-level constructor:
    the predicate is built here, from the release's revealed part alone."""
    if surap_y0 == "uldp":
        return lambda output: not output[1]
    return lambda output: True


@functools.cache
def _channel(mechanism):
    """The exact channel of a built mechanism, once per audit (the builders' caches keep each mechanism)."""
    return mechanism.channel()


def release_channel(mechanism):
    """The exact channel of the whole release of a mechanism built here."""
    return _channel(mechanism)


# --- Sec. 4.3: suWheel's release and its hash ----------------------------------------------------------------------


def hash_family(d: int) -> list[list[str]]:
    """Hashes of the items ``0 .. d-1`` to the circle: spread out, rotated, crowded (overlapping arcs), and
    wrapping around 1. Called only by the builders of what the hash shapes (``hash``, ``hash_values``)."""
    return [[f"{x}/{d}" for x in range(d)],
            [f"{2 * x + 1}/{2 * d}" for x in range(d)],
            [f"{x}/{20 * d}" for x in range(d)],
            [f"{(20 * x + 19 * d) % (20 * d)}/{20 * d}" for x in range(d)]]


_WHEEL_RELEASES: dict = {}
"""suWheel's channels built so far, by ``(case, hashes)`` and ``(case, hash reading)``: built once per audit."""


@builds(HASH, constructs=("hash_family", "SuWheel", "mixture"))
def suwheel_releases(case: tuple, *, hash: str) -> list[tuple[list, PiecewiseChannel]]:
    """suWheel's release (Sec. 4.3, Algorithm 1) for ``case = (d, m, k, eps)`` under the reading ``hash``:
    ``[(hashes, channel)]``, one per hash of the audit's four (``hash_family``) when one public hash is fixed (each
    tried on its own), or one channel when ``h`` is drawn uniformly from the four and released with the output (the
    protected part carries it), or not."""
    d, m, k, eps = case
    family = hash_family(d)

    def channel(hashes: list) -> PiecewiseChannel:
        key = (case, tuple(hashes))
        if key not in _WHEEL_RELEASES:
            _WHEEL_RELEASES[key] = SuWheel(eps, d, range(k), m, hashes).channel()
        return _WHEEL_RELEASES[key]

    if hash == "fixed":
        return [([hashes], channel(hashes)) for hashes in family]
    key = (case, hash)
    if key not in _WHEEL_RELEASES:
        parts = [(j, f"1/{len(family)}", channel(hashes)) for j, hashes in enumerate(family)]
        if hash == "family-released":  # the protected part carries the hash: (h, y0 cell), R
            _WHEEL_RELEASES[key] = PiecewiseChannel.mixture(
                parts, released=True, output_label=lambda key, cell: ((key[0], cell), key[1]))
        else:
            _WHEEL_RELEASES[key] = PiecewiseChannel.mixture(
                parts, released=False, output_label=lambda revealed, cell: (cell, revealed))
    return [(family, _WHEEL_RELEASES[key])]


# --- Sec. 4.4 and Fig. 1: the budgets "in practice" ----------------------------------------------------------------


@builds(EPS_RANGE)
def eps_budgets(*, eps_range: str) -> tuple[str, ...]:
    """The budgets Sec. 4.4's 'in practice' and Fig. 1's x-axis are about (not printed): ``EPS_BUDGETS`` of the
    reading ``eps_range``. No lower-level constructor: the grid is a constant of each reading."""
    return EPS_BUDGETS[eps_range]

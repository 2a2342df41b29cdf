"""Claims as data, the readings they are checked under, and how a claim's verdict is decided.

A claim has a stable id (the paper's key, then a name; a part of a compound claim adds a suffix,
``gu2020.sec3c-baselines.grr-ldp``), the location in the paper, the statement as the paper makes it, how the
project interprets it where the text is lost or loose, the methods that check it, the recorded verdict, and a check
function. Each paper's package, ``verify/<key>/``, registers its claims with the ``claim`` decorator when it is
imported; ``load_claims`` imports them all.

**Readings.** Where a paper leaves something unstated that a check depends on (a feasible box, which outputs are
released, a tie rule, what a loose word means), the paper declares a ``Choice`` once: its name, its possible values,
and where the paper leaves it open. A claim names the choices it depends on; the audit runs its check under every
combination of their values (a *reading*, ``{choice: value}``), and the ledger gives a verdict per reading.

Verdicts of one reading:

* ``verified``: every method agrees with the statement, within the scope each method states;
* ``refuted``: a method found a counterexample, confirmed by the exact kernel; the ledger shows the smallest one
  found. This is a result of the audit, not a failure;
* ``open``: the statement cannot be decided by machine (it is normative, or a part of it is lost); the reason is
  given.

A claim's overall verdict is the verdict of every reading when they agree, and ``depends-on-reading`` when they do
not (the summary then says which reading gives which).

**Fixed values.** A declared choice that a claim does not vary is not left to a default argument: each ``Choice``
has a ``fixed`` value (its first unless said otherwise), used wherever a claim does not vary it. While a check runs,
a context variable holds its complete reading: the claim's own reading, and for every other choice of its paper its
fixed value or the value a sweep sets (``verify/audit.py``). The paper's code reads a choice's value with
``reading_value(choice)``, which also records that the running check consulted it; a value read this way must be
passed as an argument to any cached function, never read inside one, so that it is part of the cache's key. The
audit then reruns every claim under each other value of every choice its check consulted but does not vary (the
*sweep*): a verdict that moves means the claim depends on that choice and must vary it. A choice a check never
consults cannot change its verdict unless the code fixes it by construction without reading it (docs/audit.md lists
the places known to do so); the ledger says which choices each check read.

**Texts.** A claim's statement, interpretation, location, its check's summaries, evidence and counterexample notes,
and a choice's ``where`` and ``meanings`` write their math in TeX, inline ``\\(...\\)``, in the docs' notation
(``\\(\\varepsilon\\)``, ``\\(e^{\\varepsilon}\\)``, ``\\(X_{sen}\\)``, ``\\(\\mathcal E\\)`` for a budget set,
``\\(\\le\\)``), and code (options, file names, JSON keys, Python names, a reading ``box=authors``) in backticks:
the site renders the formulas as MathML, ``ledger.md`` shows them as written. Write them as raw strings (``r"..."``,
``rf"..."`` with TeX's braces doubled). tests/audit/test_ledger_pages.py refuses math left in ASCII (``e^eps``,
``<=``) and TeX the site cannot render.
"""

from __future__ import annotations

import importlib
import importlib.util
import itertools
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field

from ldpspec.reference.registry import PAPERS

VERDICTS = ("verified", "refuted", "open")
"""The verdicts of one reading."""
DEPENDS = "depends-on-reading"
"""The overall verdict of a claim whose readings disagree."""


@dataclass(frozen=True)
class AuditSettings:
    """How hard the audit searches. The default fits CI; ``deep`` (``pytest verify --deep``) searches further."""

    deep: bool = False
    examples_factor: float = 1.0  # searches whose every example runs a solver use a fraction

    @property
    def hypothesis_examples(self) -> int:
        return max(10, int((2000 if self.deep else 150) * self.examples_factor))

    @property
    def max_inputs(self) -> int:
        """Largest channel (inputs and outputs) the random search draws."""
        return 6 if self.deep else 4


@dataclass(frozen=True)
class Choice:
    """Something a paper leaves unstated that a claim's verdict may depend on.

    Attributes:
        name: the name claims use, and the key of a reading.
        values: the possible values; each is what some reader could take the paper to mean.
        where: where the paper leaves it open, and why each value is a plausible reading.
        meanings: one sentence per value.
        fixed: the value used where a claim does not vary the choice (``None``: the first value); read it with
            ``reading_value``.
    """

    name: str
    values: tuple[str, ...]
    where: str
    meanings: Mapping[str, str] = field(default_factory=dict)
    fixed: str | None = None

    def __post_init__(self):
        if len(self.values) < 2 or len(set(self.values)) != len(self.values):
            raise ValueError(f"choice {self.name} needs at least two distinct values, got {self.values!r}")
        missing = [value for value in self.values if value not in self.meanings]
        if missing:
            raise ValueError(f"choice {self.name}: say what {missing} mean")
        if self.fixed is None:
            object.__setattr__(self, "fixed", self.values[0])
        elif self.fixed not in self.values:
            raise ValueError(f"choice {self.name}: the fixed value {self.fixed!r} is not one of {self.values!r}")

    def to_json(self) -> dict:
        return {"name": self.name, "values": list(self.values), "where": self.where, "meanings": dict(self.meanings),
                "fixed": self.fixed}


CHOICES: dict[str, dict[str, Choice]] = {}
"""The choices of each paper: ``{paper key: {choice name: Choice}}``, declared by ``declare_choices``."""


def declare_choices(paper: str, *choices: Choice) -> tuple[Choice, ...]:
    """Declare a paper's choices (once, in ``verify/<paper>/readings.py``); returns them."""
    if paper not in PAPERS:
        raise ValueError(f"unknown paper {paper!r}; the papers are {sorted(PAPERS)}")
    if paper in CHOICES:
        raise ValueError(f"the choices of {paper} are declared twice")
    CHOICES[paper] = {choice.name: choice for choice in choices}
    return choices


@dataclass
class Running:
    """The check that is running: its paper, its complete reading (a value for every declared choice of the paper)
    and the choices it has consulted so far (``reading_value``)."""

    paper: str
    reading: dict
    consulted: set = field(default_factory=set)


_RUNNING: ContextVar[Running | None] = ContextVar("ldpspec_verify_running", default=None)


def running() -> Running | None:
    """The check running now (``None`` outside the audit's checks)."""
    return _RUNNING.get()


def complete_reading(paper: str, reading: Mapping, overrides: Mapping | None = None) -> dict:
    """A value for every declared choice of ``paper``: ``reading``'s, else ``overrides``', else the fixed one."""
    overrides = overrides or {}
    return {name: reading.get(name, overrides.get(name, choice.fixed))
            for name, choice in CHOICES.get(paper, {}).items()}


@contextmanager
def reading_context(paper: str, reading: Mapping) -> Iterator[Running]:
    """Run a check of ``paper`` under the complete ``reading``; yields what records the choices it consults."""
    token = _RUNNING.set(Running(paper, dict(reading)))
    try:
        yield _RUNNING.get()
    finally:
        _RUNNING.reset(token)


def reading_value(choice: Choice) -> str:
    """The value of ``choice`` for the check that is running, recorded as consulted by it; outside a check (or in a
    check of another paper) its fixed value.

    Read it before calling a cached function and pass it as an argument: read inside one, a cached result would
    serve every later reading."""
    current = _RUNNING.get()
    if current is None or CHOICES.get(current.paper, {}).get(choice.name) is not choice:
        return choice.fixed
    current.consulted.add(choice.name)
    return current.reading[choice.name]


def reading_key(reading: Mapping) -> str:
    """A reading as text, ``"release=all, self_pairs=all"`` (``""`` for a claim that depends on no choice)."""
    return ", ".join(f"{name}={value}" for name, value in reading.items())


@dataclass
class Evidence:
    """What one method did: its name, the scope it covered, and what it found."""

    method: str
    scope: str
    result: str


@dataclass
class Outcome:
    """The computed result of a claim's check under one reading."""

    verdict: str
    summary: str
    evidence: list[Evidence] = field(default_factory=list)
    counterexample: dict | None = None
    printed_vs_computed: list[dict] = field(default_factory=list)

    def __post_init__(self):
        if self.verdict not in VERDICTS:
            raise ValueError(f"verdict must be one of {VERDICTS}, got {self.verdict!r}")
        if self.verdict == "refuted" and not self.counterexample:
            raise ValueError("a refuted claim must carry its counterexample")


@dataclass(frozen=True)
class Claim:
    """A registered claim. ``recorded`` is one verdict for every reading, or ``{reading key: verdict}``."""

    id: str
    paper: str
    location: str
    statement: str
    methods: tuple[str, ...]
    recorded: str | Mapping
    check: Callable[..., Outcome]
    interpretation: str = ""
    choices: tuple[Choice, ...] = ()

    def readings(self) -> list[dict]:
        """Every combination of the values of the claim's choices (one empty reading when it has none)."""
        return [dict(zip((c.name for c in self.choices), values))
                for values in itertools.product(*(c.values for c in self.choices))]

    def recorded_verdict(self, reading: Mapping) -> str:
        return self.recorded if isinstance(self.recorded, str) else self.recorded[reading_key(reading)]


REGISTRY: dict[str, Claim] = {}


def claim(id: str, *, location: str, statement: str, methods: tuple[str, ...], recorded, interpretation: str = "",
          choices: tuple[Choice, ...] = ()):
    """Register the decorated function as the check of claim ``id``.

    The check is called as ``check(settings, **reading)``: one keyword argument per choice of ``choices``.
    ``recorded`` is a verdict, or ``{reading key: verdict}`` for a claim whose readings disagree.
    """
    paper = id.split(".", 1)[0]
    if paper not in PAPERS:
        raise ValueError(f"claim id {id!r} must start with a paper key {sorted(PAPERS)}")
    for choice in choices:
        if CHOICES.get(paper, {}).get(choice.name) is not choice:
            raise ValueError(f"claim {id}: choice {choice.name!r} is not one of the choices declared for {paper}")
    keys = [reading_key(dict(zip((c.name for c in choices), values)))
            for values in itertools.product(*(c.values for c in choices))]
    if isinstance(recorded, str):
        if recorded not in VERDICTS:
            raise ValueError(f"recorded verdict of {id} must be one of {VERDICTS}")
    elif set(recorded) != set(keys) or any(verdict not in VERDICTS for verdict in recorded.values()):
        raise ValueError(f"recorded verdicts of {id} must give one of {VERDICTS} for each reading {keys}")

    def register(check: Callable[..., Outcome]):
        if id in REGISTRY:
            raise ValueError(f"claim {id} is registered twice")
        REGISTRY[id] = Claim(id, paper, location, statement, tuple(methods), recorded, check, interpretation,
                             tuple(choices))
        return check

    return register


@dataclass
class Step:
    """The result of one method on one part of a claim."""

    evidence: Evidence
    counterexample: dict | None = None
    inconclusive: bool = False


def decide(steps: list[Step], verified: str, refuted: str, inconclusive: str = "") -> Outcome:
    """The verdict from the steps of a check.

    Refuted when any step has a counterexample confirmed by the kernel (the
    first such step, which searches smallest sizes first, gives it); open when
    a step is inconclusive (a solver gave up, or proposed a model the kernel
    does not confirm); verified otherwise.
    """
    evidence = [step.evidence for step in steps]
    for step in steps:
        if step.counterexample is not None:
            return Outcome("refuted", refuted, evidence, step.counterexample)
    if any(step.inconclusive for step in steps):
        return Outcome("open", inconclusive or "a method was inconclusive; see the evidence", evidence)
    return Outcome("verified", verified, evidence)


def paper_packages() -> list[str]:
    """The audit's packages: ``ldpspec.verify.<key>`` for every paper that has claims so far."""
    return [f"ldpspec.verify.{key}" for key in PAPERS if importlib.util.find_spec(f"ldpspec.verify.{key}")]


def load_claims() -> dict[str, Claim]:
    """Import every paper's package (each registers its choices and claims) and return the registry."""
    for package in paper_packages():
        importlib.import_module(package)
    return REGISTRY

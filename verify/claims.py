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
*sweep*): a verdict that moves means the claim depends on that choice and must vary it.

**Builders.** What a choice shapes (a release and its protected part, a mechanism's variant, a hash, a budget
assignment, a data set, a solver's start, the comparison a loose word names) is built by the choice's builders
only: functions registered with ``builds(choice, constructs=...)``, which receive the choice's value as a keyword
argument read through ``reading_value``. ``constructs`` names the lower-level constructors of those objects;
tests/audit/test_builders.py fails when code in verify/ calls one outside a builder, so a check cannot fix a choice
by construction without the ledger seeing it. A check that needs a fixed value on purpose says so in its claim
(``fixes=(Fixed(choice, why, value),)``): the value is set in its complete reading, the sweep leaves it alone, and
the ledger shows it with the reason. Only such a claim (or one that varies the choice) may pass the value to a
builder explicitly.

**Texts.** A claim's statement, interpretation, location, its check's summaries, evidence and counterexample notes,
and a choice's ``where`` and ``meanings`` write their math in TeX, inline ``\\(...\\)``, in the docs' notation
(``\\(\\varepsilon\\)``, ``\\(e^{\\varepsilon}\\)``, ``\\(X_{sen}\\)``, ``\\(\\mathcal E\\)`` for a budget set,
``\\(\\le\\)``), and code (options, file names, JSON keys, Python names, a reading ``box=authors``) in backticks:
the site renders the formulas as MathML, ``ledger.md`` shows them as written. Write them as raw strings (``r"..."``,
``rf"..."`` with TeX's braces doubled). tests/audit/test_ledger_pages.py refuses math left in ASCII (``e^eps``,
``<=``) and TeX the site cannot render.
"""

from __future__ import annotations

import functools
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
    """The check that is running: its paper, its complete reading (a value for every declared choice of the paper),
    the choices it has consulted so far (``reading_value``), and the choices its claim varies or fixes on purpose
    (which its code may pass to a builder explicitly)."""

    paper: str
    reading: dict
    consulted: set = field(default_factory=set)
    declared: frozenset = frozenset()
    foreign: set = field(default_factory=set)


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
def reading_context(paper: str, reading: Mapping, declared=frozenset()) -> Iterator[Running]:
    """Run a check of ``paper`` under the complete ``reading``; yields what records the choices it consults.
    ``declared``: the names of the choices the claim varies or fixes on purpose."""
    token = _RUNNING.set(Running(paper, dict(reading), declared=frozenset(declared)))
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


@dataclass(frozen=True)
class Fixed:
    """A choice a claim's check holds at one value on purpose, or builds under several values itself (``value``
    ``None``; ``why`` says which), with the reason. The ledger shows it; the sweep leaves it alone."""

    choice: Choice
    why: str
    value: str | None = None

    def __post_init__(self):
        if self.value is not None and self.value not in self.choice.values:
            raise ValueError(f"Fixed({self.choice.name}): {self.value!r} is not one of {self.choice.values!r}")
        if not self.why.strip():
            raise ValueError(f"Fixed({self.choice.name}): say why the check fixes it")

    def to_json(self) -> dict:
        return {"choice": self.choice.name, "value": self.value, "why": self.why}


@dataclass(frozen=True)
class Builder:
    """A function that builds what one or more choices shape, registered with ``builds``.

    ``constructs``: the names (``module.name``, the last part matched against calls) of the lower-level
    constructors of those objects, which code in verify/ calls only inside a builder."""

    function: Callable
    choices: tuple[Choice, ...]
    constructs: tuple[str, ...]

    @property
    def name(self) -> str:
        return f"{self.function.__module__}.{self.function.__qualname__}"


BUILDERS: list[Builder] = []
"""Every registered builder, in the order the papers' packages registered them."""


def builds(*choices: Choice, constructs: tuple[str, ...] = ()):
    """Register the decorated function as a builder of what ``choices`` shape.

    The function takes each choice's value as the keyword argument named after it; the wrapper reads it with
    ``reading_value`` when the caller does not pass it. A caller inside a check may pass it only when its claim
    varies the choice or fixes it on purpose (``Fixed``); otherwise the value would be fixed by construction, which
    is what builders exist to prevent."""
    names = [choice.name for choice in choices]
    if not choices or len(set(names)) != len(names):
        raise ValueError(f"builds needs distinct choices, got {names}")

    def register(function: Callable):
        @functools.wraps(function)
        def build(*args, **kwargs):
            current = _RUNNING.get()
            for choice in choices:
                ours = current is not None and CHOICES.get(current.paper, {}).get(choice.name) is choice
                if choice.name not in kwargs:
                    kwargs[choice.name] = reading_value(choice)
                elif ours and choice.name in current.declared:
                    current.consulted.add(choice.name)  # built at a value the claim varies or fixes: read
                elif ours:
                    raise ValueError(
                        f"{function.__qualname__} was given {choice.name}={kwargs[choice.name]!r} by a check whose "
                        f"claim neither varies nor fixes {choice.name}: leave it to the reading, or declare "
                        f"fixes=(Fixed({choice.name.upper()}, why, value),) on the claim")
            return function(*args, **kwargs)

        build.builder = Builder(build, tuple(choices), tuple(constructs))
        BUILDERS.append(build.builder)
        return build

    return register


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
    fixes: tuple[Fixed, ...] = ()

    def readings(self) -> list[dict]:
        """Every combination of the values of the claim's choices (one empty reading when it has none)."""
        return [dict(zip((c.name for c in self.choices), values))
                for values in itertools.product(*(c.values for c in self.choices))]

    def recorded_verdict(self, reading: Mapping) -> str:
        return self.recorded if isinstance(self.recorded, str) else self.recorded[reading_key(reading)]


REGISTRY: dict[str, Claim] = {}


def claim(id: str, *, location: str, statement: str, methods: tuple[str, ...], recorded, interpretation: str = "",
          choices: tuple[Choice, ...] = (), fixes: tuple[Fixed, ...] = ()):
    """Register the decorated function as the check of claim ``id``.

    The check is called as ``check(settings, **reading)``: one keyword argument per choice of ``choices``.
    ``recorded`` is a verdict, or ``{reading key: verdict}`` for a claim whose readings disagree. ``fixes``: the
    choices its check holds fixed on purpose (``Fixed``), shown in the ledger and left alone by the sweep.
    """
    paper = id.split(".", 1)[0]
    if paper not in PAPERS:
        raise ValueError(f"claim id {id!r} must start with a paper key {sorted(PAPERS)}")
    for choice in (*choices, *(fixed.choice for fixed in fixes)):
        if CHOICES.get(paper, {}).get(choice.name) is not choice:
            raise ValueError(f"claim {id}: choice {choice.name!r} is not one of the choices declared for {paper}")
    if {c.name for c in choices} & {f.choice.name for f in fixes}:
        raise ValueError(f"claim {id}: a choice is both varied and fixed")
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
                             tuple(choices), tuple(fixes))
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

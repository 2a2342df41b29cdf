"""The implementations a refutation samples: a Python callable, a command, a registered mechanism's own sampler.

Each is a small picklable description that a worker turns into releases: ``draw(x, shard, seed, timeout)`` gives
the ``shard.count`` releases of input ``x`` in one shard of the run (``Shard``), with randomness from the shard's
own seed (``shard_seed``), so that a shard gives the same releases on whichever machine draws it; ``describe()`` says
what it is, and ``identity()`` what decides its releases (a checkpoint's key).

* ``PythonCallable("module:function")``: ``function(x, generator)`` returns one release; the generator is a
  ``numpy.random.Generator`` (``generator="numpy"``) or a ``random.Random`` (``"random"``), made once per shard from
  its seed. ``path`` lists folders put on ``sys.path`` first (the folder the run started in), so that a worker on
  another machine finds the module where the run's user does.
* ``Command(argv)``: a program started once per shard, with the shard's seed in the environment variable
  ``LDPSPEC_SEED`` (a decimal integer below 2^63); it reads one input per line (JSON) on standard input and prints
  one release per line (JSON) on standard output, in order.
* ``Registered(name, options)``: a registered mechanism's NumPy twin, which draws many releases at once (the
  project's own exact samplers).
* ``FileReleases``: releases already drawn, put in an order drawn from the run's seed and cut into the shards.

A call that raises, a call that takes longer than ``timeout`` seconds, a command that exits or prints something
that is not JSON: ``ImplementationError``, naming the input and the release's number.
"""

from __future__ import annotations

import ctypes
import hashlib
import importlib
import json
import os
import random
import selectors
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field

import numpy as np

from ldpspec.reference.porting.bits import bit_law
from ldpspec.reference.porting.vectors import build
from ldpspec.reference.registry import MECHANISMS
from ldpspec.spec import InvalidChannel, InvalidParameter, SpecError, normalize_label, value_text


class ImplementationError(SpecError):
    """The implementation failed: it raised, hung past the time limit, or broke the command protocol."""


class CallTimeout(BaseException):
    """Raised in the sampling thread when one call has taken longer than the time limit (a ``BaseException``, so
    that an implementation's own ``except Exception`` does not swallow it)."""


@dataclass(frozen=True)
class Shard:
    """One unit of work: ``count`` releases of input number ``index`` in ``phase`` (0: the selection share, 1: the
    certification), shard number ``number``, whose first release is the ``start``-th of that input in that phase."""

    phase: int
    index: int
    number: int
    count: int
    start: int = 0


def shard_seed(seed: int, shard: Shard) -> np.random.SeedSequence:
    """The shard's own seed, from the run's: ``SeedSequence(seed, spawn_key=(phase, index, number))``."""
    return np.random.SeedSequence(seed, spawn_key=(shard.phase, shard.index, shard.number))


def generator(seed: np.random.SeedSequence, kind: str = "numpy"):
    """The random generator of one shard: NumPy's ``default_rng``, or a ``random.Random`` seeded from 128 bits of
    the seed."""
    if kind == "random":
        return random.Random(int.from_bytes(seed.generate_state(4, np.uint32).tobytes(), "little"))
    return np.random.default_rng(seed)


def seed_integer(seed: np.random.SeedSequence) -> int:
    """The shard's seed as an integer below 2^63 (for a command's ``LDPSPEC_SEED``)."""
    return int(seed.generate_state(1, np.uint64)[0] >> np.uint64(1))


# --- a Python callable ----------------------------------------------------------------------------------------------

_LOADED: dict = {}


def load_callable(target: str, path: tuple = ()):
    """``module:function`` imported (``path`` first on ``sys.path``); ``InvalidParameter`` says what is wrong."""
    if target in _LOADED:
        return _LOADED[target]
    module_name, _, name = target.partition(":")
    if not module_name or not name:
        raise InvalidParameter(f"--callable must be MODULE:FUNCTION (for example mylib.client:release); got "
                               f"{value_text(target)}")
    for folder in reversed(path):
        if folder not in sys.path:
            sys.path.insert(0, folder)
    try:
        module = importlib.import_module(module_name)
    except Exception as error:  # the module's own import failed: say so, not a traceback
        raise InvalidParameter(f"--callable: cannot import {value_text(module_name)}: {type(error).__name__}: "
                               f"{str(error)[:200]}") from None
    function = module
    for attribute in name.split("."):
        function = getattr(function, attribute, None)
    if not callable(function):
        raise InvalidParameter(f"--callable: {value_text(module_name)} has no function {value_text(name)}")
    _LOADED[target] = function
    return function


STUCK = threading.local()
"""``STUCK.report(message)``, when the thread that samples sets it: how to say that a call is stuck in code that an
exception cannot reach (a Dask worker's thread blocked in C), so that the run ends without waiting for it."""


class _Watchdog:
    """Stops the sampling thread when one call has run longer than ``timeout`` seconds: the thread counts its calls
    (``progress``); a second thread looks every ``timeout / 4`` seconds and, when the count has not moved for
    ``timeout``, raises ``CallTimeout`` in it: by a signal in the main thread, which also ends a ``sleep``; by an
    asynchronous exception in another thread (a Dask worker's), which a call blocked in C only sees when it returns,
    so if the call has not returned after another ``timeout``, ``STUCK.report`` says so (``message``)."""

    def __init__(self, timeout: float | None, progress, message: str = ""):
        self.timeout, self.progress, self.message = timeout, progress, message
        self.report = getattr(STUCK, "report", None)
        self.target = threading.get_ident()
        self.main = threading.current_thread() is threading.main_thread()
        self.done = threading.Event()
        self.fired = False
        self.thread = None

    def __enter__(self):
        if self.timeout is None:
            return self
        if self.main:
            self.previous = signal.signal(signal.SIGALRM, self._raise)
        self.thread = threading.Thread(target=self._watch, daemon=True)
        self.thread.start()
        return self

    def _raise(self, *_):
        raise CallTimeout

    def _watch(self):
        last, since = self.progress(), time.monotonic()
        while not self.done.wait(self.timeout / 4):
            now = self.progress()
            if now != last:
                last, since = now, time.monotonic()
            elif time.monotonic() - since >= self.timeout:
                self.fired = True
                if self.main:
                    signal.pthread_kill(self.target, signal.SIGALRM)
                else:
                    ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(self.target),
                                                               ctypes.py_object(CallTimeout))
                    if not self.done.wait(self.timeout) and self.report is not None:
                        self.report(self.message.format(calls=self.progress() + 1))
                return

    def __exit__(self, *_):
        if self.thread is not None:
            self.done.set()
            self.thread.join()
            if self.main:
                signal.signal(signal.SIGALRM, self.previous)
        return False


@dataclass(frozen=True)
class PythonCallable:
    target: str
    kind: str = "numpy"
    path: tuple = ()

    def describe(self) -> str:
        return f"the Python callable {self.target} (with a {self.kind} generator)"

    def identity(self) -> str:
        """What decides its releases (for a checkpoint): the function and its generator, not where it was found."""
        return f"callable {self.target} {self.kind}"

    def draw(self, x, shard: Shard, seed: int, timeout: float | None = None) -> list:
        function = load_callable(self.target, self.path)
        rng, count = generator(shard_seed(seed, shard), self.kind), shard.count
        releases = []
        append = releases.append
        stuck = "" if timeout is None else (
            f"{self.target} did not return within {timeout:g} s (--call-timeout) on input {value_text(x, 60)}, "
            "release {calls:,} of its shard; it is blocked in code that cannot be interrupted, and its worker is "
            "restarted")
        try:
            with _Watchdog(timeout, releases.__len__, stuck):
                for _ in range(count):
                    append(function(x, rng))
        except CallTimeout:
            raise ImplementationError(f"{self.target} did not return within {timeout:g} s (--call-timeout) on input "
                                      f"{value_text(x, 60)}, release {len(releases) + 1:,} of its shard") from None
        except Exception as error:
            raise ImplementationError(f"{self.target} raised {type(error).__name__}: {str(error)[:200]} on input "
                                      f"{value_text(x, 60)}, release {len(releases) + 1:,} of its shard") from None
        return releases


# --- a command ------------------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Command:
    argv: tuple
    cwd: str | None = None

    def describe(self) -> str:
        return "the command " + " ".join(self.argv)

    def identity(self) -> str:
        return "command " + json.dumps(list(self.argv))

    def draw(self, x, shard: Shard, seed: int, timeout: float | None = None) -> list:
        line = (json.dumps(_json_input(x)) + "\n").encode()
        count = shard.count
        environment = {**os.environ, "LDPSPEC_SEED": str(seed_integer(shard_seed(seed, shard)))}
        try:
            process = subprocess.Popen(self.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                       stderr=subprocess.PIPE, env=environment, cwd=self.cwd)
        except OSError as error:
            raise InvalidParameter(f"--command: cannot start {value_text(self.argv[0])}: "
                                   f"{error.strerror or error}") from None
        writer = threading.Thread(target=_feed, args=(process.stdin, line, count), daemon=True)
        writer.start()
        releases, buffer = [], b""
        selector = selectors.DefaultSelector()
        selector.register(process.stdout, selectors.EVENT_READ)
        descriptor = process.stdout.fileno()
        try:
            while len(releases) < count:
                if not selector.select(timeout):
                    raise ImplementationError(f"{self.describe()} printed no release within {timeout:g} s "
                                              f"(--call-timeout) on input {value_text(x, 60)}, release "
                                              f"{len(releases) + 1:,} of its shard")
                chunk = os.read(descriptor, 1 << 20)
                if not chunk:
                    error = process.stderr.read(2000).decode(errors="replace").strip().splitlines()
                    raise ImplementationError(f"{self.describe()} ended after {len(releases):,} of {count:,} "
                                              f"releases of input {value_text(x, 60)}"
                                              + (f"; its last error line: {error[-1][:200]}" if error else ""))
                buffer += chunk
                *lines, buffer = buffer.split(b"\n")
                for text in lines:
                    if len(releases) == count:
                        break
                    try:
                        releases.append(json.loads(text))
                    except ValueError:
                        raise ImplementationError(f"{self.describe()} printed {value_text(text, 80)} for input "
                                                  f"{value_text(x, 60)}, release {len(releases) + 1:,}: not one JSON "
                                                  "value per line") from None
        finally:
            selector.close()
            process.kill()
            process.wait()
            writer.join(timeout=1)
        return releases


def _feed(stream, line: bytes, count: int) -> None:
    try:
        block = line * min(count, 4096)
        left = count
        while left > 0:
            take = min(left, 4096)
            stream.write(block if take == 4096 else line * take)
            left -= take
        stream.close()
    except (BrokenPipeError, ValueError, OSError):  # the command ended or was stopped: its reader says why
        pass


def _json_input(x):
    return list(map(_json_input, x)) if isinstance(x, tuple) else x


# --- a registered mechanism's twin ----------------------------------------------------------------------------------

@dataclass(frozen=True)
class Registered:
    """A registered mechanism's own sampler, its NumPy twin, which draws many releases at once. ``form()`` says how
    its releases come: ``"bits"`` (packed rows of a bit vector whose channel is a structure of bits), ``"items"`` (an
    integer array whose values are the channel's output labels), ``"numbers"`` (an array of doubles) or
    ``"labels"`` (the twin's outputs, the channel's output labels). With ``labels=True`` every release is its
    output label (a bit vector as a tuple of bits, a number as the cell of the exact channel it falls in), for events
    chosen among the channel's outputs."""

    name: str
    options: dict = field(default_factory=dict)
    labels: bool = False

    def title(self) -> str:
        options = ", ".join(f"{key} {value}" for key, value in self.options.items())
        return self.name + (f" ({options})" if options else "")

    def describe(self) -> str:
        return f"the NumPy twin of {self.title()}"

    def identity(self) -> str:
        return f"twin {self.name} {json.dumps(self.options, sort_keys=True)} {self.labels}"

    def _key(self) -> tuple:
        return self.name, tuple(sorted(self.options.items()))

    def built(self):
        """The plain reference (built once per process)."""
        if self._key() not in _BUILT:
            _BUILT[self._key()] = build(self.name, dict(self.options))
        return _BUILT[self._key()]

    def channel(self):
        """The exact channel (built once per process, when first asked for)."""
        key = (*self._key(), "channel")
        if key not in _BUILT:
            _BUILT[key] = self.built().channel()
        return _BUILT[key]

    def form(self) -> str:
        if self.labels:
            return "labels"
        key = (*self._key(), "form")
        if key not in _BUILT:
            _BUILT[key] = self._form()
        return _BUILT[key]

    def _form(self) -> str:

        declaration = MECHANISMS[self.name]
        if declaration.reports == "bit-vector" and bit_law(self.channel(), self.channel().inputs[0]) is not None:
            return "bits"
        if declaration.statistic == "sum":
            return "numbers"
        if declaration.reports in ("item", "index"):
            mechanism = self.built()
            probe = mechanism.twin.reports(self._inputs(self.channel().inputs[0], 4), np.random.default_rng(0))
            values = np.asarray(probe)
            if values.ndim == 1 and values.dtype.kind in "iu" and mechanism.twin.outputs(probe) == values.tolist():
                return "items"
        return "labels"

    @staticmethod
    def _inputs(x, count: int):
        return np.full(count, x) if isinstance(x, int) else [x] * count

    def draw(self, x, shard: Shard, seed: int, timeout: float | None = None):
        mechanism = self.built()
        reports = mechanism.twin.reports(self._inputs(x, shard.count), generator(shard_seed(seed, shard)))
        form = self.form()
        if form == "bits":
            return reports
        if form in ("items", "numbers"):
            return np.asarray(reports)
        outputs = mechanism.twin.outputs(reports)
        if hasattr(mechanism, "label") and self.channel().has_densities:  # a point, as the cell it falls in
            channel = self.channel()
            return [mechanism.label(release, channel) for release in outputs]
        return outputs


_BUILT: dict = {}


# --- a file of releases ---------------------------------------------------------------------------------------------

RELEASES_FORMAT = "ldpspec-releases/1"


@dataclass(frozen=True)
class FileReleases:
    """Releases written to a file, per input: ``{"format": "ldpspec-releases/1", "releases": [{"input": x,
    "releases": [...]}, ...]}``. Nothing is drawn: each input's releases are put in an order drawn from the run's seed
    (``SeedSequence(seed, spawn_key=(2, i))``), the first ``selection[i]`` of that order are the selection share and
    the rest certify, shard by shard."""

    path: str
    releases: tuple
    """The releases of each input, in the order of ``inputs``: a list, or an array as a twin draws them."""
    selection: tuple
    digest: str = ""
    """The SHA-256 of the file's bytes (``read_releases_file``), which identifies its releases in a checkpoint."""

    def describe(self) -> str:
        return f"the releases of {self.path}"

    def identity(self) -> str:
        counts = [len(values) for values in self.releases]
        return f"file {self.digest or self.path} {counts} {list(self.selection)}"

    def draw(self, x, shard: Shard, seed: int, timeout: float | None = None) -> list:
        values = self.releases[shard.index]
        order = np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(2, shard.index))).permutation(
            len(values))
        start = (0 if shard.phase == 0 else self.selection[shard.index]) + shard.start
        chosen = order[start:start + shard.count]
        if isinstance(values, np.ndarray):  # items, numbers or packed bits drawn in bulk
            return values[chosen]
        return [values[k] for k in chosen]


def read_releases_file(path: str) -> tuple[dict, str]:
    """``({input label: list of releases}, SHA-256 of the file)`` from a file of releases (``FileReleases``), in the
    file's order."""
    try:
        with open(path, "rb") as handle:
            data = handle.read()
        document = json.loads(data.decode("utf-8"))
    except OSError as error:
        raise SpecError(f"--releases-file: cannot read {value_text(path)}: {error.strerror or error}") from None
    except (ValueError, RecursionError) as error:
        raise InvalidParameter(f"--releases-file: {value_text(path)} is not JSON: {str(error)[:120]}") from None
    if not isinstance(document, dict) or document.get("format") != RELEASES_FORMAT:
        raise InvalidParameter(f"--releases-file: {value_text(path)} must be an object with \"format\": "
                               f"\"{RELEASES_FORMAT}\" and \"releases\"")
    entries = document.get("releases")
    if not isinstance(entries, list) or not entries:
        raise InvalidParameter("--releases-file: \"releases\" must be a non-empty list of {\"input\": ..., "
                               "\"releases\": [...]}")
    found = {}
    for k, entry in enumerate(entries):
        where = f"--releases-file: releases[{k}]"
        if not isinstance(entry, dict) or "input" not in entry or not isinstance(entry.get("releases"), list):
            raise InvalidParameter(f"{where} must be an object {{\"input\": ..., \"releases\": [...]}}")
        try:
            x = normalize_label(entry["input"], f"{where}.input")
        except InvalidChannel as error:
            raise InvalidParameter(str(error)) from None
        if not entry["releases"]:
            raise InvalidParameter(f"{where}.releases is empty")
        found.setdefault(x, []).extend(entry["releases"])
    return found, hashlib.sha256(data).hexdigest()

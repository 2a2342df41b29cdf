"""Progress of the kernel's long loops, for a person waiting at a terminal.

The kernel reports what it does (``steps(what, total)``) and reports nothing anywhere by default: a program that
uses the kernel decides where progress goes by installing a reporter (``reporting``). The command line installs one
that writes a single line to standard error, rewritten in place at most a few times a second, when standard error is
a terminal (``terminal_reporter``); piped or redirected, it writes nothing. A loop of less than ``QUIET_WORK``
elementary steps (entries read, ratios compared) reports nothing either.
"""

from __future__ import annotations

import contextlib
import sys
import time
from collections.abc import Callable, Iterable, Iterator

QUIET_WORK = 200_000
"""Loops of fewer elementary steps are not reported (they end in a second or two)."""
INTERVAL = 0.2
"""Seconds between two rewrites of the terminal line."""

_reporter: Callable[[str, int, int], None] | None = None


@contextlib.contextmanager
def reporting(reporter: Callable[[str, int, int], None] | None):
    """Send progress to ``reporter(what, done, total)`` inside the block (``done == total`` ends a loop)."""
    global _reporter
    previous, _reporter = _reporter, reporter
    try:
        yield
    finally:
        _reporter = previous


def steps(items: Iterable, what: str, total: int, work_per_item: int = 1) -> Iterator:
    """``items`` (``total`` of them, each ``work_per_item`` elementary steps), reporting each as ``what`` to the
    installed reporter, if any."""
    reporter = _reporter
    if reporter is None or total * work_per_item < QUIET_WORK:
        yield from items
        return
    done = 0
    for item in items:
        yield item
        done += 1
        reporter(what, done, total)
    reporter(what, total, total)


def terminal_reporter(stream=None) -> Callable[[str, int, int], None] | None:
    """A reporter that rewrites one line of ``stream`` (standard error) when it is a terminal; ``None`` otherwise."""
    stream = sys.stderr if stream is None else stream
    if not stream.isatty():
        return None
    last = [0.0]

    def report(what: str, done: int, total: int) -> None:
        now = time.monotonic()
        if done < total and now - last[0] < INTERVAL:
            return
        last[0] = now
        line = f"ldpspec: {what}: {100 * done // total}% ({done:,} of {total:,})"
        stream.write("\r" + line + ("\n" if done >= total else "\x1b[K"))
        stream.flush()

    return report

"""Progress of long loops: reported to an installed reporter, nothing by default, nothing for short loops, and on a
terminal only."""

from __future__ import annotations

import io

from ldpspec import spec
from ldpspec.spec import progress


def test_long_loops_report_each_step_and_their_end_to_the_installed_reporter():
    calls = []
    with progress.reporting(lambda what, done, total: calls.append((what, done, total))):
        channel = spec.Channel(range(500), range(500), [[int(i == j) for j in range(500)] for i in range(500)])
        spec.ldp_epsilon(channel)
        spec.pairwise_loss(spec.Channel(range(500), range(2), [["1/2", "1/2"]] * 500), max_work=10 ** 9)
    for what in ("reading the rows", "scanning the columns", "comparing pairs of inputs"):
        mine = [(done, total) for name, done, total in calls if name == what]
        assert mine and mine[-1][0] == mine[-1][1], what
        assert [done for done, _ in mine] == sorted(done for done, _ in mine), what


def test_nothing_is_reported_without_a_reporter_or_for_a_short_loop():
    calls = []
    spec.Channel(range(500), range(500), [[int(i == j) for j in range(500)] for i in range(500)])  # no reporter
    with progress.reporting(lambda *call: calls.append(call)):
        spec.ldp_epsilon(spec.Channel(range(3), range(3), [[1, 0, 0], [0, 1, 0], [0, 0, 1]]))
    assert calls == []


class Terminal(io.StringIO):
    def isatty(self):
        return True


def test_the_terminal_reporter_writes_one_rewritten_line_on_a_terminal_only():
    assert progress.terminal_reporter(io.StringIO()) is None  # piped or redirected: nothing
    stream = Terminal()
    report = progress.terminal_reporter(stream)
    for done in range(1, 1001):
        report("comparing pairs of inputs", done, 1000)
    text = stream.getvalue()
    assert text.startswith("\rldpspec: comparing pairs of inputs: 0% (1 of 1,000)")
    assert text.endswith("\rldpspec: comparing pairs of inputs: 100% (1,000 of 1,000)\n")
    assert text.count("\r") < 20  # at most a few rewrites a second, and the end

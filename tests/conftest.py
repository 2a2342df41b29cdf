"""The tests' profiles: ``pytest -m "not slow"`` (fast), ``pytest`` (default), ``pytest --deep`` (deep).

The slow tier is measured: the tests listed in ``tests/slow.txt`` (``python -m tests.support.slow_tier`` rewrites it)
are marked ``slow`` here, beside the few marked in their modules.

``--deep`` is added by the project's pytest plugin; here it multiplies the examples of every property test by ten
(``tests.support.examples``). ``--fuzz N`` sets the number of mutated inputs of each fuzz test (``tests/fuzz``).
The default profile draws the same examples on every run; ``--deep`` and ``--fuzz`` draw new ones.
"""

import pytest
from hypothesis import settings

import tests.support
from tests.support.slow_tier import read_slow_list

# The default run is reproducible: Hypothesis draws the same examples on every machine, so CI fails only for a change
# in the code, never for a new random draw. The deep profile and long fuzz runs draw afresh each time: they explore,
# and whatever they find becomes a regression test. No profile has a deadline: a test that measured time would fail
# on a busy machine (Hypothesis' default deadline is 200 ms per example), and no test here depends on the machine's
# speed (tests/project/test_no_timing.py checks it).
settings.register_profile("reproducible", derandomize=True, deadline=None)
settings.register_profile("explore", deadline=None)


def pytest_configure(config):
    tests.support.DEEP = bool(config.getoption("--deep"))
    tests.support.FUZZ = config.getoption("--fuzz")
    settings.load_profile("explore" if tests.support.DEEP or tests.support.FUZZ else "reproducible")


def pytest_terminal_summary(terminalreporter, config):
    """Under ``--fuzz N``, how the fuzzed inputs ended: the figures of a long run."""
    if not config.getoption("--fuzz"):
        return
    from tests.fuzz.contract import TALLY

    terminalreporter.section("fuzz: inputs by command and outcome")
    for (command, outcome), count in sorted(TALLY.items(), key=lambda item: (item[0][0], str(item[0][1]))):
        terminalreporter.write_line(f"{command:>10} {outcome!s:>10} {count:>9,}")
    terminalreporter.write_line(f"{'total':>10} {'':>10} {sum(TALLY.values()):>9,}")


@pytest.hookimpl(tryfirst=True)  # before `-m "not slow"` deselects by the marks
def pytest_collection_modifyitems(config, items):
    slow = set(read_slow_list())
    for item in items:
        if item.nodeid in slow:
            item.add_marker(pytest.mark.slow)

"""The tests' profiles: ``pytest -m "not slow"`` (fast), ``pytest`` (default), ``pytest --deep`` (deep).

``--deep`` is added by the project's pytest plugin; here it multiplies the examples of every property test by ten
(``tests.support.examples``).
"""

import tests.support


def pytest_configure(config):
    tests.support.DEEP = bool(config.getoption("--deep"))

"""The site's fixtures: the built site, its address on the loopback interface, and a browser (``browser.py``)."""

import os

import pytest

from tests.site.browser import built_site, new_browser, served


@pytest.fixture(scope="session")
def site_root(tmp_path_factory):
    shared = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):  # each worker has its own folder in the run's: build in the run's
        shared = shared.parent
    return built_site(shared)


@pytest.fixture(scope="session")
def base_url(site_root) -> str:
    with served(site_root) as url:
        yield url


@pytest.fixture(scope="session")
def browser():
    driver = new_browser()
    yield driver
    driver.quit()

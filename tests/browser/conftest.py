"""Browser tests drive Debian's Chromium through Playwright.

Without /usr/bin/chromium the tests here are skipped with a reason shown in the summary,
unless TENBOU_REQUIRE_BROWSER=1 (as in CI), where they fail instead.
"""

import os
from pathlib import Path

import pytest

from tests.browser.builders import seat_a_game

# Playwright's sync API runs an event loop in the test thread; Django would otherwise
# refuse database access from it.
os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"

# Debian's package; TENBOU_CHROMIUM points elsewhere on other systems.
CHROMIUM = Path(os.environ.get("TENBOU_CHROMIUM", "/usr/bin/chromium"))
BROWSER_DIR = Path(__file__).resolve().parent
MISSING_REASON = "Chromium not installed: run `make browser`"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    # Without these Chromium keeps calling home, which fails on a machine with no network.
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def _browser_required() -> bool:
    return os.environ.get("TENBOU_REQUIRE_BROWSER") == "1"


def _is_browser_test(item: pytest.Item) -> bool:
    return item.path.is_relative_to(BROWSER_DIR)


def pytest_collection_modifyitems(config, items):
    # This hook sees every collected item, not only this folder's.
    if CHROMIUM.exists() or _browser_required():
        return
    skip = pytest.mark.skip(reason=MISSING_REASON)
    for item in items:
        if _is_browser_test(item):
            item.add_marker(skip)


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item):
    # Runs before any fixture, so the missing browser is reported instead of a launch error.
    if _is_browser_test(item) and _browser_required() and not CHROMIUM.exists():
        pytest.fail(f"{MISSING_REASON} (TENBOU_REQUIRE_BROWSER=1)", pytrace=False)


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    return {
        **browser_type_launch_args,
        "executable_path": str(CHROMIUM),
        "args": CHROMIUM_ARGS,
    }


@pytest.fixture(scope="session")
def base_url(live_server):
    # Lets tests write page.goto("/"); it also replaces pytest-playwright's own fallback
    # fixture, which pytest 9 warns about.
    return live_server.url


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings):
    # Real hashing is deliberately slow; tests only need logins to work.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def game(transactional_db, organiser):
    return seat_a_game(organiser)

"""Fixtures shared by every test folder. Keep them small; folder-specific ones live beside
the tests that use them."""

from pathlib import Path

import pytest
from django.utils import translation

from tournaments.translations import compile_all

ORGANISER_PASSWORD = "a-long-test-password"


def pytest_configure(config):
    # The pages are tested in Japanese too: compile the catalogues the way `make test` does,
    # for runs that call pytest directly (only when a .po is newer than its .mo).
    compile_all(Path(__file__).resolve().parent.parent / "locale")


@pytest.fixture(autouse=True)
def _language_of_each_test_its_own():
    # A request asking for Japanese leaves Japanese active in the thread (LocaleMiddleware
    # activates it and nothing undoes that): the next test starts from the default again.
    yield
    translation.deactivate()


@pytest.fixture
def organiser(django_user_model):
    return django_user_model.objects.create_user(
        username="organiser", password=ORGANISER_PASSWORD, first_name="Olive"
    )


@pytest.fixture
def organiser_client(client, organiser):
    client.force_login(organiser)
    return client

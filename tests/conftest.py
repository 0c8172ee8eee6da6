"""Fixtures shared by every test folder. Keep them small; folder-specific ones live beside
the tests that use them."""

from contextlib import contextmanager
from pathlib import Path

import pytest
from django.core.cache import cache
from django.test import TestCase, override_settings
from django.utils import translation

from tournaments.translations import compile_all

ORGANISER_PASSWORD = "a-long-test-password"


def pytest_configure(config):
    # The pages are tested in Japanese too: compile the catalogues the way `make test` does,
    # for runs that call pytest directly (only when a .po is newer than its .mo).
    compile_all(Path(__file__).resolve().parent.parent / "locale")


@pytest.fixture(scope="session", autouse=True)
def _fast_password_hashing():
    # Real hashing is deliberately slow (about a third of a second a password here); tests
    # only need logins to work. Set once for the whole run rather than for each test.
    with override_settings(PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher"]):
        yield


@pytest.fixture(autouse=True)
def _language_of_each_test_its_own():
    # A request asking for Japanese leaves Japanese active in the thread (LocaleMiddleware
    # activates it and nothing undoes that): the next test starts from the default again.
    yield
    translation.deactivate()


def make_organiser(user_model):
    return user_model.objects.create_user(
        username="organiser", password=ORGANISER_PASSWORD, first_name="Olive"
    )


@pytest.fixture
def organiser(django_user_model):
    return make_organiser(django_user_model)


@contextmanager
def kept_for_module(django_db_blocker):
    """Rows that a module's tests share, built once inside this block and rolled back after
    the module's last test, as Django's `TestCase.setUpTestData` does for a class (and with
    its transactions, so that versions are bumped at once as in any test). Each test runs in
    a savepoint inside it, so what one test changes is gone before the next. Tests take the
    rows through function fixtures that read them afresh (`fresh`)."""
    with django_db_blocker.unblock():
        atomics = TestCase._enter_atomics()
        try:
            yield
        finally:
            TestCase._rollback_atomics(atomics)


def fresh(obj):
    """`obj` read again for one test, with an empty cache: no test sees what an earlier test
    of the module changed in memory or left in the page cache under the shared versions."""
    cache.clear()
    return type(obj).objects.get(pk=obj.pk)


@pytest.fixture
def organiser_client(client, organiser):
    client.force_login(organiser)
    return client

"""Signing in and out with Django's own sessions: logging out ends the session, a password
changed elsewhere or a deactivated account signs the other sessions out, and whether the
reader organises an event follows every change."""

from __future__ import annotations

import pytest
from django.contrib.auth import SESSION_KEY
from django.contrib.sessions.models import Session as WebSession
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from config.settings import cache_config, session_engine
from tests.conftest import ORGANISER_PASSWORD

pytestmark = pytest.mark.django_db

# A page only for those signed in, which reads nothing but the user.
PRIVATE = "password_change"


@pytest.fixture(
    autouse=True,
    params=["django.contrib.sessions.backends.db", "django.contrib.sessions.backends.cached_db"],
)
def engine(request, settings):
    """Each test with database sessions (a cache in each process's memory) and with
    database sessions read through the cache (a shared cache)."""
    settings.SESSION_ENGINE = request.param
    return request.param


def _signed_in(organiser) -> Client:
    """Signed in through the login form, as a person is."""
    client = Client()
    response = client.post(
        reverse("login"), {"username": "organiser", "password": ORGANISER_PASSWORD}
    )
    assert response.status_code == 302
    return client


def test_logging_out_deletes_the_session(organiser):
    client = _signed_in(organiser)
    row = WebSession.objects.get()
    assert row.get_decoded()[SESSION_KEY] == str(organiser.pk)
    assert client.get(reverse(PRIVATE)).status_code == 200
    client.post(reverse("logout"))
    assert not WebSession.objects.filter(pk=row.pk).exists()
    assert client.get(reverse(PRIVATE)).status_code == 302  # to the login page


def test_an_old_session_cookie_no_longer_signs_in_after_logging_out(organiser):
    client = _signed_in(organiser)
    stolen = Client()
    stolen.cookies = client.cookies.__class__(client.cookies)
    assert stolen.get(reverse(PRIVATE)).status_code == 200
    client.post(reverse("logout"))
    assert stolen.get(reverse(PRIVATE)).status_code == 302


def test_a_password_changed_elsewhere_signs_other_sessions_out(organiser):
    client = _signed_in(organiser)
    organiser.set_password("a-brand-new-password")
    organiser.save()
    assert client.get(reverse(PRIVATE)).status_code == 302


def test_a_deactivated_user_is_signed_out_at_once(organiser):
    client = _signed_in(organiser)
    organiser.is_active = False
    organiser.save()
    assert client.get(reverse(PRIVATE)).status_code == 302


def test_a_deleted_user_is_signed_out(organiser):
    client = _signed_in(organiser)
    organiser.delete()
    assert client.get(reverse(PRIVATE)).status_code == 302


def test_a_signed_in_request_costs_the_same_few_queries_for_any_number_of_events(
    organiser, event, game
):
    client = _signed_in(organiser)
    page = reverse("tournaments:game", args=[game.pk])
    client.get(page)  # its parts are kept from here on

    def queries() -> int:
        with CaptureQueriesContext(connection) as captured:
            assert client.get(page).status_code == 200
        return len(captured)

    few = queries()
    for number in range(20):
        other = type(event).objects.create(
            name=f"Other {number}", slug=f"other-{number}", starts_on=event.starts_on
        )
        other.organisers.add(organiser)
    assert queries() == few <= 5


def test_whether_the_reader_organises_an_event_follows_every_change(organiser, event, game):
    client = _signed_in(organiser)
    page = reverse("tournaments:game", args=[game.pk])

    def organises() -> bool:
        # Only organisers see the game's table link, whether the page is kept or not.
        return 'id="link-title"' in client.get(page).content.decode()

    assert organises()
    # Handed over to someone else: the next request knows it.
    event.organisers.remove(organiser)
    assert not organises()
    event.organisers.add(organiser)
    assert organises()


def test_sessions_go_through_the_cache_only_when_it_is_shared():
    assert session_engine(cache_config("redis://127.0.0.1:6379/1")).endswith(".cached_db")
    assert session_engine(cache_config("")).endswith(".db")


def test_a_session_of_nobody_signed_in_keeps_its_data(client):
    session = client.session
    session["table_links"] = {"7": 3}
    session.save()
    assert WebSession.objects.get().get_decoded() == {"table_links": {"7": 3}}


def test_an_unknown_session_cookie_signs_nobody_in(organiser):
    client = Client()
    client.cookies["sessionid"] = "x" * 32
    assert client.get(reverse(PRIVATE)).status_code == 302

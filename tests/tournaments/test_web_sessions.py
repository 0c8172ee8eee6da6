"""Web sessions read the signed-in user in the same query, and sign people in and out
exactly as Django's own database sessions do."""

from __future__ import annotations

import pytest
from django.contrib.auth import SESSION_KEY
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.conftest import ORGANISER_PASSWORD
from tournaments import websessions
from tournaments.models import WebSession

pytestmark = pytest.mark.django_db

# A page only for those signed in, which reads nothing but the user.
PRIVATE = "password_change"


def _signed_in(organiser) -> Client:
    """Signed in through the login form, as a person is."""
    client = Client()
    response = client.post(
        reverse("login"), {"username": "organiser", "password": ORGANISER_PASSWORD}
    )
    assert response.status_code == 302
    return client


def test_a_signed_in_request_reads_its_session_and_user_in_one_query(organiser):
    client = _signed_in(organiser)
    with CaptureQueriesContext(connection) as queries:
        response = client.get(reverse(PRIVATE))
    assert response.status_code == 200
    assert response.context["user"] == organiser
    sql = [q["sql"] for q in queries.captured_queries]
    assert len(sql) == 1, sql
    assert "tournaments_websession" in sql[0] and "auth_user" in sql[0]


def test_the_session_row_names_its_user_and_logging_out_deletes_it(organiser):
    client = _signed_in(organiser)
    row = WebSession.objects.get()
    assert row.user_id == organiser.pk
    assert row.get_decoded()[SESSION_KEY] == str(organiser.pk)
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


def test_deleting_a_user_deletes_their_sessions(organiser):
    _signed_in(organiser)
    assert WebSession.objects.filter(user=organiser).count() == 1
    organiser.delete()
    assert not WebSession.objects.exists()


def test_a_session_of_nobody_signed_in_names_no_user(client):
    session = client.session
    session["seen"] = True
    session.save()
    assert WebSession.objects.get().user_id is None


def test_a_user_id_that_is_not_a_number_names_no_user():
    store = websessions.SessionStore()
    row = store.create_model_instance({SESSION_KEY: "not-a-number"})
    assert row.user_id is None


def test_the_backend_reads_the_user_itself_outside_a_request(organiser, django_user_model):
    # No session being read: Django's own query.
    backend = websessions.ModelBackend()
    with CaptureQueriesContext(connection) as queries:
        assert backend.get_user(organiser.pk) == organiser
    assert len(queries.captured_queries) == 1
    assert backend.get_user(organiser.pk + 1000) is None


def test_the_backend_takes_the_session_user_only_for_the_id_asked(organiser, django_user_model):
    other = django_user_model.objects.create_user(username="other", password="x-long-password")
    store = websessions.SessionStore()
    store.loaded_user = organiser
    token = websessions._reading.set(store)
    try:
        backend = websessions.ModelBackend()
        with CaptureQueriesContext(connection) as queries:
            assert backend.get_user(str(organiser.pk)) is organiser
        assert not queries.captured_queries
        assert backend.get_user(other.pk) == other  # read, not the session's user
    finally:
        websessions._reading.reset(token)


def test_an_organisers_events_come_with_the_session_and_follow_every_change(organiser, event, game):
    client = _signed_in(organiser)
    page = reverse("tournaments:game", args=[game.pk])
    client.get(page)  # its parts are kept from here on
    with CaptureQueriesContext(connection) as queries:
        response = client.get(page)
    assert response.context["is_organiser"]
    assert len(queries.captured_queries) == 2, [q["sql"] for q in queries.captured_queries]
    assert not any(
        "tournaments_event_organisers" in q["sql"] and "tournaments_websession" not in q["sql"]
        for q in queries.captured_queries
    )
    # Handed over to someone else: the next request knows it.
    event.organisers.remove(organiser)
    assert not client.get(page).context["is_organiser"]
    event.organisers.add(organiser)
    assert client.get(page).context["is_organiser"]


def test_a_session_without_a_user_keeps_its_data(client):
    session = client.session
    session["table_links"] = {"7": 3}
    session.save()
    store = websessions.SessionStore(session.session_key)
    assert store.load() == {"table_links": {"7": 3}}
    assert store.loaded_user is None and store.loaded_organised is None


def test_an_expired_or_unknown_session_loads_nothing_and_gets_a_new_key(organiser):
    _signed_in(organiser)
    row = WebSession.objects.get()
    WebSession.objects.filter(pk=row.pk).update(expire_date=row.expire_date.replace(year=2000))
    store = websessions.SessionStore(row.session_key)
    assert store.load() == {} and store.session_key is None
    unknown = websessions.SessionStore("x" * 32)
    assert unknown.load() == {} and unknown.session_key is None

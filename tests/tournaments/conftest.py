"""Fixtures for the Django app: an event with an organiser, a session, players, a game."""

from __future__ import annotations

import datetime

import pytest
from django.test import Client

from tournaments import services
from tournaments.models import Event, Game, Player, Session


@pytest.fixture
def event(organiser):
    event = Event.objects.create(
        name="Thursday League", slug="thursday", starts_on=datetime.date(2026, 9, 3)
    )
    event.organisers.add(organiser)
    return event


@pytest.fixture
def session(event):
    return Session.objects.create(event=event, number=1, date=datetime.date(2026, 9, 3))


@pytest.fixture
def players():
    return [Player.objects.create(display_name=name) for name in ("Aki", "Ben", "Chie", "Dan")]


@pytest.fixture
def game(session, players) -> Game:
    return services.create_game(session, players, table_number=1)


@pytest.fixture
def final_game(session) -> Game:
    # Four other players: a player sits in one unfinished game of a session at a time.
    others = [Player.objects.create(display_name=name) for name in ("Eri", "Fumi", "Gen", "Hana")]
    return services.create_game(
        session, others, table_number=2, entry_mode=Game.EntryMode.FINAL_SCORES
    )


@pytest.fixture
def stranger(django_user_model):
    return django_user_model.objects.create_user(username="stranger", password="x-long-password")


@pytest.fixture
def anonymous():
    # A client of its own: `organiser_client` logs the `client` fixture in.
    return Client()


@pytest.fixture
def stranger_client(stranger):
    client = Client()
    client.force_login(stranger)
    return client


@pytest.fixture
def staff_client(organiser):
    """The organiser as the site's superuser: the admin is for superusers only."""
    organiser.is_staff = True
    organiser.is_superuser = True
    organiser.save()
    client = Client()
    client.force_login(organiser)
    return client

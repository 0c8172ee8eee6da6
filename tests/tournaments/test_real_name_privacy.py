"""Who sees a player's real name: the player's login chooses (everyone, anyone signed in,
or only the organisers of their events); the default is what every page did before. The
choice holds on the player's page, and the event files give no names to the public."""

from __future__ import annotations

import datetime
import json

import pytest
from django.test import Client
from django.urls import reverse

from tests.tournaments.builders import final_game
from tournaments import services
from tournaments.models import Event, Player, Session

pytestmark = pytest.mark.django_db

SHOWN = Player.RealNameShown


@pytest.fixture
def emi(organiser, django_user_model):
    event = Event.objects.create(name="Open", slug="open", starts_on=datetime.date(2026, 5, 1))
    event.organisers.add(organiser)
    session = Session.objects.create(event=event, number=1, date=event.starts_on)
    final_game(session, ["Emi T.", "Aki", "Ben", "Chie"], [40000, 30000, 20000, 10000], 1)
    emi = Player.objects.get(display_name="Emi T.")
    emi.real_name = "Emi Tanaka"
    emi.last_name, emi.first_name = "Tanaka", "Emi"
    emi.user = django_user_model.objects.create_user(username="emi", password="x-long-pass")
    emi.save()
    return emi


def _client(user=None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def _shows_real_name(client: Client, player: Player) -> bool:
    page = client.get(reverse("tournaments:player", args=[player.pk]))
    assert page.status_code == 200
    return "Emi Tanaka" in page.content.decode()


def _choose(emi, shown) -> None:
    Player.objects.filter(pk=emi.pk).update(real_name_shown=shown)
    emi.refresh_from_db()


def test_by_default_the_real_name_shows_to_anyone_signed_in_as_before(emi, stranger, organiser):
    assert emi.real_name_shown == SHOWN.SIGNED_IN
    assert not _shows_real_name(_client(), emi)
    assert _shows_real_name(_client(stranger), emi)
    assert _shows_real_name(_client(organiser), emi)


def test_a_player_who_shows_their_name_to_everyone_is_named_to_visitors(emi):
    _choose(emi, SHOWN.EVERYONE)

    assert _shows_real_name(_client(), emi)


def test_a_player_who_shows_their_name_only_to_organisers_is_named_to_no_one_else(
    emi, stranger, organiser, django_user_model
):
    _choose(emi, SHOWN.ORGANISERS)
    admin = django_user_model.objects.create_superuser(username="root", password="x-long-pass")

    assert not _shows_real_name(_client(), emi)
    assert not _shows_real_name(_client(stranger), emi)
    assert _shows_real_name(_client(organiser), emi)
    assert _shows_real_name(_client(emi.user), emi)
    assert _shows_real_name(_client(admin), emi)


def test_only_the_players_own_login_chooses_who_sees_the_real_name(emi, organiser):
    url = reverse("tournaments:player_edit", args=[emi.pk])
    details = {"display_name": "Emi T.", "real_name": "Emi Tanaka", "country": ""}

    as_organiser = _client(organiser)
    assert 'name="real_name_shown"' not in as_organiser.get(url).content.decode()
    as_organiser.post(url, {**details, "real_name_shown": SHOWN.EVERYONE})
    emi.refresh_from_db()
    assert emi.real_name_shown == SHOWN.SIGNED_IN

    as_emi = _client(emi.user)
    assert 'name="real_name_shown"' in as_emi.get(url).content.decode()
    response = as_emi.post(url, {**details, "real_name_shown": SHOWN.ORGANISERS})
    assert response.status_code == 302
    emi.refresh_from_db()
    assert emi.real_name_shown == SHOWN.ORGANISERS


def test_a_choice_that_is_not_offered_is_refused_with_a_message(emi):
    url = reverse("tournaments:player_edit", args=[emi.pk])

    response = _client(emi.user).post(
        url, {"display_name": "Emi T.", "real_name_shown": "nobody", "country": ""}
    )

    assert response.status_code == 200
    assert "Select a valid choice." in response.content.decode()
    emi.refresh_from_db()
    assert emi.real_name_shown == SHOWN.SIGNED_IN


@pytest.mark.parametrize("shown", list(SHOWN))
def test_the_event_file_names_no_one_to_the_public_whatever_the_choice(emi, organiser, shown):
    _choose(emi, shown)
    url = reverse("tournaments:event_export", args=["open"])

    public = _client().get(url).content.decode()
    signed_in = _client(emi.user).get(url).content.decode()
    organisers = json.loads(_client(organiser).get(url).content)

    for text in (public, signed_in):
        assert "Tanaka" not in text
    named = {p["name"]: p for p in organisers["players"]}
    assert named["Emi T."]["last_name"] == "Tanaka"


def test_the_ema_results_are_for_the_organisers_only(emi, stranger):
    _choose(emi, SHOWN.EVERYONE)
    url = reverse("tournaments:ema_results", args=["open"])

    assert _client(stranger).get(url).status_code == 403
    assert _client().get(url).status_code == 302


def test_a_merge_keeps_the_stricter_of_the_two_choices(emi):
    twin = Player.objects.create(display_name="Emi (club)", real_name_shown=SHOWN.EVERYONE)
    _choose(emi, SHOWN.ORGANISERS)

    kept = services.merge_players(twin.pk, emi.pk)

    assert kept.real_name_shown == SHOWN.ORGANISERS
    assert kept.real_name == "Emi Tanaka"
    assert not _shows_real_name(_client(), kept)

"""A table calls a referee from its game page with one tap and a reason; the call shows on
the director's session page and the live screen until an organiser acknowledges it and then
resolves it, each step in the trail. One open call per table: a second tap makes none."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, transaction
from django.test import Client
from django.urls import reverse

from tests.tournaments.sanma_builders import sanma_event, sanma_game
from tournaments import services
from tournaments.models import RefereeCall, TrailEntry
from tournaments.trail import Actor

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


def url(name: str, *args) -> str:
    return reverse(f"tournaments:{name}", args=args)


def table_client(game) -> Client:
    """A phone at the table, holding the game's table link."""
    link = services.renew_table_link(game.pk)
    phone = Client()
    phone.post(url("table_link", link.pk), {"code": link.code})
    return phone


def test_the_table_calls_a_referee_with_one_tap_and_the_director_sees_it(organiser_client, game):
    phone = table_client(game)
    page = phone.get(url("game", game.pk)).content.decode()
    assert "Call a referee" in page and 'name="reason" value="wrong_score"' in page
    response = phone.post(
        url("referee_call", game.pk), {"reason": "wrong_score", "note": "  hand 3   fu  "}
    )
    assert response.status_code == 302
    call = RefereeCall.objects.get()
    assert (call.game, call.reason, call.note) == (game, "wrong_score", "hand 3 fu")
    assert call.acknowledged_at is None and call.resolved_at is None
    assert call.called_by.startswith("Table 1 link")
    page = phone.get(url("game", game.pk)).content.decode()
    assert "Referee called: please wait." in page and "Call a referee" not in page
    session_page = organiser_client.get(game.session.get_absolute_url()).content.decode()
    assert "Referee calls" in session_page and "A wrong score: hand 3 fu" in session_page
    live = Client().get(url("live", game.session.event.slug), **HTMX).content.decode()
    assert "Referee calls" in live and "A wrong score" in live
    entry = TrailEntry.objects.get(kind=TrailEntry.Kind.REFEREE_CALLED)
    assert entry.game == game and entry.table_link_id is not None


def test_a_repeated_tap_makes_no_second_call(game):
    phone = table_client(game)
    phone.post(url("referee_call", game.pk), {"reason": "ruling"})
    response = phone.post(url("referee_call", game.pk), {"reason": "dispute"}, follow=True)
    assert "A referee is already called to this table: please wait." in response.content.decode()
    assert RefereeCall.objects.count() == 1
    assert RefereeCall.objects.get().reason == "ruling"
    assert TrailEntry.objects.filter(kind=TrailEntry.Kind.REFEREE_CALLED).count() == 1


def test_acknowledged_then_resolved_in_two_steps_each_in_the_trail(
    organiser_client, anonymous, game
):
    made = services.call_referee(game.pk, "dispute", actor=Actor())
    call = made.call
    # Resolving before acknowledging is refused: the table must know someone comes.
    response = organiser_client.post(
        url("referee_resolve", game.pk), {"call": call.pk, "back": "session"}, follow=True
    )
    assert "Acknowledge the call first" in response.content.decode()
    call.refresh_from_db()
    assert call.resolved_at is None

    response = organiser_client.post(
        url("referee_acknowledge", game.pk), {"call": call.pk, "back": "session"}
    )
    assert response["Location"] == game.session.get_absolute_url()
    call.refresh_from_db()
    assert call.acknowledged_at is not None and call.acknowledged_by == "Olive (organiser)"
    assert "A referee is on the way." in anonymous.get(url("game", game.pk)).content.decode()
    live = anonymous.get(url("live", game.session.event.slug)).content.decode()
    assert "referee on the way" in live

    organiser_client.post(url("referee_resolve", game.pk), {"call": call.pk})
    call.refresh_from_db()
    assert call.resolved_at is not None
    assert (
        "Referee calls" not in anonymous.get(url("live", game.session.event.slug)).content.decode()
    )
    session_page = organiser_client.get(game.session.get_absolute_url()).content.decode()
    assert "Referee calls" not in session_page
    kinds = list(TrailEntry.objects.order_by("pk").values_list("kind", flat=True))
    assert kinds[-3:] == ["referee_called", "referee_coming", "referee_resolved"]
    trail = organiser_client.get(url("event_trail", game.session.event.slug)).content.decode()
    assert "Referee called" in trail and "Referee on the way" in trail
    assert "Referee call resolved" in trail and "A dispute" in trail
    # After it is resolved, the table may call again: a new call.
    assert services.call_referee(game.pk, "other", actor=Actor()).new


def test_a_step_for_a_call_not_seen_is_refused(organiser_client, game):
    call = services.call_referee(game.pk, "ruling", actor=Actor()).call
    response = organiser_client.post(
        url("referee_acknowledge", game.pk), {"call": call.pk + 1}, follow=True
    )
    assert "This referee call is resolved already." in response.content.decode()
    call.refresh_from_db()
    assert call.acknowledged_at is None


@pytest.mark.parametrize(
    "data, message",
    [
        ({"reason": "angry"}, "Choose why you call a referee."),
        ({}, "Choose why you call a referee."),
        ({"reason": "other", "note": "x" * 121}, "Say it in at most 120 characters."),
    ],
)
def test_bad_calls_are_refused_with_a_message(game, data, message):
    phone = table_client(game)
    response = phone.post(url("referee_call", game.pk), data, follow=True)
    assert message in response.content.decode()
    assert not RefereeCall.objects.exists()


def test_the_service_refuses_a_long_note_and_an_unknown_reason(game):
    with pytest.raises(services.GameChangeRefused, match="at most 120"):
        services.call_referee(game.pk, "other", "y" * 121, actor=Actor())
    with pytest.raises(services.GameChangeRefused, match="Choose why"):
        services.call_referee(game.pk, "boredom", actor=Actor())


def test_only_the_table_and_organisers_call_and_only_organisers_answer(
    game, stranger_client, anonymous
):
    assert (
        stranger_client.post(url("referee_call", game.pk), {"reason": "ruling"}).status_code == 403
    )
    assert anonymous.post(url("referee_call", game.pk), {"reason": "ruling"}).status_code == 302
    assert not RefereeCall.objects.exists()
    call = services.call_referee(game.pk, "ruling", actor=Actor()).call
    phone = table_client(game)
    response = phone.post(url("referee_acknowledge", game.pk), {"call": call.pk})
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    call.refresh_from_db()
    assert call.acknowledged_at is None
    assert "On my way" not in phone.get(url("game", game.pk)).content.decode()


def test_a_table_of_three_calls_a_referee(organiser, organiser_client):
    event = sanma_event(organiser)
    game = sanma_game(event.sessions.get(), ["Aki", "Ben", "Chie"])
    response = organiser_client.post(url("referee_call", game.pk), {"reason": "ruling"})
    assert response.status_code == 302
    assert RefereeCall.objects.get().game == game
    page = organiser_client.get(url("game", game.pk)).content.decode()
    assert "On my way" in page  # the organiser answers from the game page too


def test_the_database_holds_one_open_call_per_table_whatever_the_timing(game):
    services.call_referee(game.pk, "ruling", actor=Actor())
    with pytest.raises(IntegrityError), transaction.atomic():
        RefereeCall.objects.create(game=game, reason="dispute", called_by="a second phone")

"""The director's round signals ("N minutes left", "last hand") reach every table's game
page and the live screen, stay through reloads (stored on the session), and leave when
cleared or when the round is over; refused for bad input and for anyone but organisers."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.tournaments.sanma_builders import sanma_event, sanma_game
from tournaments import services
from tournaments.models import Event, Player, RoundSignal, Session

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


def url(name: str, *args) -> str:
    return reverse(f"tournaments:{name}", args=args)


def signal_url(session: Session, name: str = "signal_send") -> str:
    return url(name, session.event.slug, session.number)


@pytest.fixture
def second_game(session):
    players = [Player.objects.create(display_name=f"P{n}") for n in range(4)]
    return services.create_game(session, players, table_number=2)


def test_ten_minutes_left_reaches_every_table_and_the_live_screen(
    organiser_client, anonymous, session, game, second_game
):
    response = organiser_client.post(signal_url(session), {"signal": "minutes", "minutes": "10"})
    assert response.status_code == 302
    session.refresh_from_db()
    assert (session.signal, session.signal_minutes) == ("minutes", 10)
    assert session.signal_at is not None
    assert (
        "Sent to every table: 10 minutes left."
        in organiser_client.get(response["Location"]).content.decode()
    )
    for table in (game, second_game):
        page = anonymous.get(url("game", table.pk)).content.decode()
        assert "10 minutes left" in page and "round-signal" in page
    live = anonymous.get(url("live", session.event.slug), **HTMX).content.decode()
    assert "10 minutes left" in live


def test_a_typed_number_of_minutes_is_sent_and_a_sent_signal_replaces_the_last(
    organiser_client, session, game
):
    organiser_client.post(signal_url(session), {"signal": "minutes", "minutes": "7"})
    assert "7 minutes left" in organiser_client.get(url("game", game.pk)).content.decode()
    organiser_client.post(signal_url(session), {"signal": "last_hand", "minutes": ""})
    session.refresh_from_db()
    assert (session.signal, session.signal_minutes) == (RoundSignal.LAST_HAND, None)
    page = organiser_client.get(url("game", game.pk)).content.decode()
    assert "Last hand" in page and "7 minutes left" not in page


def test_the_signal_bumps_the_play_version_so_a_cached_page_shows_it(
    organiser_client, anonymous, session, game
):
    event = session.event
    before = Event.objects.get(pk=event.pk)
    anonymous.get(url("live", event.slug), **HTMX)  # cached now
    organiser_client.post(signal_url(session), {"signal": "last_hand"})
    after = Event.objects.get(pk=event.pk)
    assert after.play_token != before.play_token
    assert after.results_token == before.results_token  # the standings did not change
    assert "Last hand" in anonymous.get(url("live", event.slug), **HTMX).content.decode()


def test_a_cleared_signal_leaves_the_tables(organiser_client, anonymous, session, game):
    organiser_client.post(signal_url(session), {"signal": "last_hand"})
    response = organiser_client.post(signal_url(session, "signal_clear"))
    assert response.status_code == 302
    session.refresh_from_db()
    assert (session.signal, session.signal_at) == ("", None)
    assert "round-signal" not in anonymous.get(url("game", game.pk)).content.decode()
    assert "round-signal" not in anonymous.get(url("live", session.event.slug)).content.decode()


def test_the_signal_leaves_when_every_game_of_the_round_is_finished(client, session, game):
    services.send_signal(session.pk, RoundSignal.LAST_HAND)
    assert "Last hand" in client.get(url("game", game.pk)).content.decode()
    services.add_hand(game.pk, 1, {"result": "draw", "riichi": [], "tenpai": []})
    services.call_time(game.pk)
    assert "round-signal" not in client.get(url("game", game.pk)).content.decode()
    assert "round-signal" not in client.get(url("live", session.event.slug)).content.decode()


@pytest.mark.parametrize(
    "data, message",
    [
        ({"signal": "minutes", "minutes": "0"}, "Give at least 1 minute left."),
        ({"signal": "minutes", "minutes": "61"}, "Give at most 60 minutes left."),
        ({"signal": "minutes", "minutes": "ten"}, "whole minutes"),
        ({"signal": "minutes", "minutes": ""}, "Give the minutes left, e.g. 10."),
        ({"signal": "shout"}, "Choose a signal: minutes left or last hand."),
        ({}, "Choose a signal"),
    ],
)
def test_bad_signals_are_refused_with_a_message_and_nothing_is_stored(
    organiser_client, session, data, message
):
    response = organiser_client.post(signal_url(session), data, follow=True)
    assert response.status_code == 200
    assert message in response.content.decode()
    session.refresh_from_db()
    assert session.signal == "" and session.signal_minutes is None


def test_the_service_refuses_minutes_out_of_bounds():
    with pytest.raises(services.GameChangeRefused, match="from 1 to 60"):
        services.send_signal(0, RoundSignal.MINUTES_LEFT, minutes=600)


def test_only_organisers_send_signals(client, stranger_client, session, game):
    assert client.post(signal_url(session), {"signal": "last_hand"}).status_code == 302  # login
    assert stranger_client.post(signal_url(session), {"signal": "last_hand"}).status_code == 403
    assert stranger_client.post(signal_url(session, "signal_clear")).status_code == 403
    session.refresh_from_db()
    assert session.signal == ""


def test_the_session_page_offers_the_signals_to_organisers_only(
    organiser_client, anonymous, session, game
):
    page = organiser_client.get(session.get_absolute_url()).content.decode()
    assert "Tell every table" in page
    for minutes in (5, 10, 15):
        assert f'name="minutes" value="{minutes}"' in page
    assert 'name="signal" value="last_hand"' in page
    assert "Tell every table" not in anonymous.get(session.get_absolute_url()).content.decode()


def test_a_signal_reaches_the_tables_of_three_in_japanese(organiser, client):
    event = sanma_event(organiser)
    session = event.sessions.get()
    game = sanma_game(session, ["Aki", "Ben", "Chie"])
    services.send_signal(session.pk, RoundSignal.MINUTES_LEFT, minutes=5)
    page = client.get(url("game", game.pk), HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    assert "残り5分" in page
    live = client.get(url("live", event.slug), HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    assert "残り5分" in live

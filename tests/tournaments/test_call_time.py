"""Games stopped by the clock: calling time on one game or on a whole session, reopening,
and the session's round clock."""

from __future__ import annotations

import datetime
from decimal import Decimal

import pytest
from django.urls import reverse
from django.utils import timezone

from tournaments import services
from tournaments.models import Game, Player
from tournaments.views.rounds import clock_context

pytestmark = pytest.mark.django_db

RON = {"result": "ron", "riichi": [], "wins": [{"winner": 1, "loser": 0, "han": 3, "fu": 40}]}
DRAW = {"result": "draw", "riichi": [0], "tenpai": [0]}


def url(name: str, *args) -> str:
    return reverse(f"tournaments:{name}", args=args)


def other_players(prefix: str) -> list[Player]:
    return [Player.objects.create(display_name=f"{prefix}{i}") for i in range(4)]


def test_calling_time_ends_the_game_after_its_last_hand(organiser_client, game):
    services.add_hand(game.pk, 1, RON)
    response = organiser_client.post(url("game_call_time", game.pk), follow=True)
    assert "Time called: the game ended after its last hand." in response.content.decode()
    game.refresh_from_db()
    assert game.is_finished
    assert game.ended_by == "time" and game.ended_early == "time"
    assert game.to_record()["ended_early"] == "time"
    seats = {s.seat: s for s in game.seats.all()}
    assert [seats[i].score for i in range(4)] == [19800, 30200, 25000, 25000]
    assert seats[1].placement == 1
    assert sum(s.match_points for s in seats.values()) == Decimal(0)
    assert (
        "The game ended because time was called."
        in organiser_client.get(url("game", game.pk)).content.decode()
    )


def test_a_game_ended_by_time_counts_in_the_standings(organiser_client, client, event, game):
    services.add_hand(game.pk, 1, RON)
    services.call_time(game.pk)
    page = client.get(url("standings", event.slug)).content.decode()
    assert "1 finished game" in page


def test_reopening_a_game_ended_by_time_lets_play_go_on(organiser_client, game):
    services.add_hand(game.pk, 1, RON)
    services.call_time(game.pk)
    organiser_client.post(url("game_reopen", game.pk))
    game.refresh_from_db()
    assert not game.is_finished and game.ended_early == "" and game.ended_by == ""
    assert "ended_early" not in game.to_record()
    services.add_hand(game.pk, 2, DRAW)
    assert game.hands.count() == 2


def test_time_cannot_be_called_on_a_game_without_hands(organiser_client, game):
    response = organiser_client.post(url("game_call_time", game.pk), follow=True)
    assert "No hand of this game has been entered, so it cannot end by time" in (
        response.content.decode()
    )
    game.refresh_from_db()
    assert not game.is_finished and game.ended_early == ""


def test_time_cannot_be_called_on_a_finished_or_final_score_game(game, final_game):
    services.add_hand(game.pk, 1, RON)
    services.call_time(game.pk)
    with pytest.raises(services.GameChangeRefused, match="finished"):
        services.call_time(game.pk)
    with pytest.raises(services.GameChangeRefused, match="final scores only"):
        services.call_time(final_game.pk)


def test_only_organisers_call_time(stranger_client, anonymous, game):
    services.add_hand(game.pk, 1, RON)
    assert stranger_client.post(url("game_call_time", game.pk)).status_code == 403
    assert anonymous.post(url("game_call_time", game.pk)).status_code == 302
    slug = game.event.slug
    assert stranger_client.post(url("session_call_time", slug, 1)).status_code == 403
    assert stranger_client.post(url("clock_start", slug, 1), {"minutes": "5"}).status_code == 403
    game.refresh_from_db()
    assert not game.is_finished
    assert game.session.clock_ends_at is None


def test_calling_time_on_a_session_ends_every_unfinished_game_with_hands(
    organiser_client, session, game, players
):
    services.add_hand(game.pk, 1, RON)
    services.create_game(session, other_players("U"), table_number=2)
    done = services.create_game(session, other_players("D"), table_number=3)
    for number in range(1, 9):
        services.add_hand(done.pk, number, {"result": "draw", "riichi": [], "tenpai": []})
    going = services.create_game(session, other_players("G"), table_number=4)
    services.add_hand(going.pk, 1, DRAW)
    confirm = organiser_client.get(url("session_call_time", session.event.slug, 1))
    text = confirm.content.decode()
    assert "Table 1: 1 hand entered" in text and "Table 2: <strong>no hand entered" in text
    assert "Table 3" not in text
    response = organiser_client.post(url("session_call_time", session.event.slug, 1), follow=True)
    text = response.content.decode()
    assert "Time called on tables 1, 4." in text
    assert "Not ended, as no hand was entered: table 2." in text
    by_table = {g.table_number: g for g in Game.objects.all()}
    assert by_table[1].ended_by == "time" and by_table[4].ended_by == "time"
    assert by_table[3].ended_by == "last_hand" and by_table[3].ended_early == ""
    assert not by_table[2].is_finished


def test_calling_time_on_a_session_stops_its_round_clock_at_time(organiser_client, session, game):
    services.add_hand(game.pk, 1, RON)
    services.start_round_clock(session.pk, 90)
    organiser_client.post(url("session_call_time", session.event.slug, 1))
    session.refresh_from_db()
    assert session.clock_ends_at <= timezone.now()
    page = organiser_client.get(url("session", session.event.slug, 1)).content.decode()
    assert clock_context(session)["left"] == "Time" and "Time" in page


def test_calling_time_leaves_a_clock_already_run_out_as_it_was(session, game):
    services.add_hand(game.pk, 1, RON)
    earlier = timezone.now() - datetime.timedelta(minutes=100)
    services.start_round_clock(session.pk, 90, now=earlier)
    services.call_time_on_session(session.pk)
    session.refresh_from_db()
    assert session.clock_ends_at == earlier + datetime.timedelta(minutes=90)


def test_the_round_clock_starts_shows_and_stops(organiser_client, client, session):
    response = organiser_client.post(
        url("clock_start", session.event.slug, 1), {"minutes": "90"}, follow=True
    )
    assert "The round clock runs: 90 minutes" in response.content.decode()
    session.refresh_from_db()
    left = session.clock_ends_at - timezone.now()
    assert datetime.timedelta(minutes=89) < left <= datetime.timedelta(minutes=90)
    # Everyone sees it, counted down by the script from the end time.
    page = client.get(url("session", session.event.slug, 1)).content.decode()
    assert f'data-clock-ends="{session.clock_ends_at.isoformat()}"' in page
    assert "js/round-clock.js" in page
    assert "1:29:5" in page or "1:30:00" in page
    organiser_client.post(url("clock_stop", session.event.slug, 1))
    session.refresh_from_db()
    assert session.clock_ends_at is None
    assert (
        "data-clock-ends" not in client.get(url("session", session.event.slug, 1)).content.decode()
    )


@pytest.mark.parametrize(
    ("minutes", "message"),
    [
        ("0", "at least 1 minute"),
        ("601", "at most 600 minutes"),
        ("", "Give the round"),
        ("x", "whole minutes"),
    ],
)
def test_a_bad_clock_length_is_refused_and_nothing_runs(
    organiser_client, session, minutes, message
):
    response = organiser_client.post(
        url("clock_start", session.event.slug, 1), {"minutes": minutes}, follow=True
    )
    assert message in response.content.decode()
    session.refresh_from_db()
    assert session.clock_ends_at is None


def test_the_clock_says_time_once_it_has_run_out(session):
    now = timezone.now()
    services.start_round_clock(session.pk, 1, now=now - datetime.timedelta(minutes=5))
    session.refresh_from_db()
    clock = clock_context(session, now=now)
    assert clock["left"] == "Time" and clock["over"]
    services.start_round_clock(session.pk, 75, now=now)
    session.refresh_from_db()
    assert clock_context(session, now=now)["left"] == "1:15:00"

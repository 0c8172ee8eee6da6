"""The admin: every model is there for superusers, and nothing that would need the game
replayed can be changed through it."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from tournaments import services
from tournaments.models import Event, Game, GameSeat, Hand, Penalty, Player, Session, Win

pytestmark = pytest.mark.django_db

RON = {"result": "ron", "riichi": [2], "wins": [{"winner": 1, "loser": 0, "han": 3, "fu": 40}]}
MODELS = [Player, Event, Session, Game, GameSeat, Hand, Win, Penalty]
VIEW_ONLY = [Hand, Win, Penalty]


def admin_url(model, action: str, *args) -> str:
    return reverse(f"admin:tournaments_{model._meta.model_name}_{action}", args=args)


@pytest.fixture
def played(game, organiser):
    services.add_hand(game.pk, 1, RON, user=organiser)
    services.add_penalty(game.pk, 2, -10, "Slow play", user=organiser)
    return game


@pytest.mark.parametrize("model", MODELS, ids=lambda m: m.__name__)
def test_a_superuser_can_list_and_open_every_model(staff_client, played, model):
    response = staff_client.get(admin_url(model, "changelist"))
    assert response.status_code == 200

    obj = model.objects.first()
    response = staff_client.get(admin_url(model, "change", obj.pk))
    assert response.status_code == 200


def test_a_user_without_staff_status_is_sent_to_the_admin_login(stranger):
    client = Client()
    client.force_login(stranger)

    response = client.get(admin_url(Event, "changelist"))

    assert response.status_code == 302 and "/admin/login/" in response.url


def test_the_lists_can_be_searched_and_filtered(staff_client, played):
    response = staff_client.get(admin_url(Player, "changelist"), {"q": "aki"})
    # Only the result list: a random CSRF token elsewhere on the page may spell any name.
    results = response.content.decode().split('id="result_list"', 1)[1].split("</table>", 1)[0]
    assert "Aki" in results and "Ben" not in results

    response = staff_client.get(admin_url(Game, "changelist"), {"status__exact": "finished"})
    assert "0 games" in response.content.decode()


@pytest.mark.parametrize("model", VIEW_ONLY, ids=lambda m: m.__name__)
def test_hands_wins_and_penalties_are_view_only_and_say_where_to_change_them(
    staff_client, played, model
):
    obj = model.objects.first()
    assert staff_client.get(admin_url(model, "add")).status_code == 403
    assert staff_client.get(admin_url(model, "delete", obj.pk)).status_code == 403

    response = staff_client.get(admin_url(model, "change", obj.pk))
    html = response.content.decode()
    assert "game page" in html
    assert 'name="_save"' not in html

    response = staff_client.get(admin_url(model, "changelist"))
    assert "game page" in response.content.decode()


def test_a_hand_cannot_be_changed_through_the_admin(staff_client, played):
    hand = Hand.objects.get()

    response = staff_client.post(admin_url(Hand, "change", hand.pk), {"result": "tsumo"})

    assert response.status_code == 403
    hand.refresh_from_db()
    assert hand.result == "ron"


def test_a_games_results_are_read_only_in_the_admin(staff_client, played):
    response = staff_client.get(admin_url(Game, "change", played.pk))
    html = response.content.decode()
    assert 'name="table_number"' in html
    assert 'name="status"' not in html and 'name="seats-0-score"' not in html
    assert "cannot be edited here" in html

    data = {
        "table_number": "5",
        "status": "finished",
        "seats-TOTAL_FORMS": "4",
        "seats-INITIAL_FORMS": "4",
        "seats-MIN_NUM_FORMS": "0",
        "seats-MAX_NUM_FORMS": "1000",
    }
    for index, seat in enumerate(played.ordered_seats()):
        data[f"seats-{index}-id"] = seat.pk
        data[f"seats-{index}-game"] = played.pk
        data[f"seats-{index}-score"] = "99000"
    response = staff_client.post(admin_url(Game, "change", played.pk), data)

    assert response.status_code == 302
    played.refresh_from_db()
    assert played.table_number == 5 and played.status == Game.Status.IN_PROGRESS
    assert [s.score for s in played.ordered_seats()] == [19800, 31200, 24000, 25000]


def test_games_are_not_added_through_the_admin(staff_client, session):
    assert staff_client.get(admin_url(Game, "add")).status_code == 403


def test_an_events_rules_are_read_only_in_the_admin(staff_client, event, session):
    html = staff_client.get(admin_url(Event, "change", event.pk)).content.decode()
    assert 'name="rules_preset"' not in html and "Rules page, which re-scores" in html
    assert 'name="sessions-0-number"' in html  # sessions are edited inline

    data = {
        "name": "Thursday League",
        "slug": "thursday",
        "kind": "league",
        "starts_on": "2026-09-03",
        "is_public": "on",
        "organisers": [event.organisers.get().pk],
        "rules_preset": "ema",
        "sessions-TOTAL_FORMS": "1",
        "sessions-INITIAL_FORMS": "1",
        "sessions-MIN_NUM_FORMS": "0",
        "sessions-MAX_NUM_FORMS": "1000",
        "sessions-0-id": session.pk,
        "sessions-0-event": event.pk,
        "sessions-0-number": "1",
        "sessions-0-date": "2026-09-03",
        "sessions-0-title": "Opening night",
    }
    response = staff_client.post(admin_url(Event, "change", event.pk), data)

    assert response.status_code == 302
    event.refresh_from_db()
    session.refresh_from_db()
    assert event.rules_preset == "ari-ari"
    assert session.title == "Opening night"


def test_putting_another_player_in_a_seat_keeps_its_results_and_renames_the_record(
    staff_client, played
):
    seat = played.ordered_seats()[1]
    emi = Player.objects.create(display_name="Emi")

    response = staff_client.post(admin_url(GameSeat, "change", seat.pk), {"player": emi.pk})

    assert response.status_code == 302
    seat.refresh_from_db()
    assert seat.player == emi and seat.score == 31200
    assert played.to_record()["players"] == ["Aki", "Emi", "Chie", "Dan"]


def test_a_seat_cannot_take_a_player_already_at_the_table(staff_client, played, players):
    seat = played.ordered_seats()[1]

    response = staff_client.post(admin_url(GameSeat, "change", seat.pk), {"player": players[0].pk})

    assert response.status_code == 200
    assert "Aki already plays at this table." in response.content.decode()
    seat.refresh_from_db()
    assert seat.player == players[1]

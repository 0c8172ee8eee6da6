"""Deleting a game made by mistake, clearing final scores, and the seating checks: one
unfinished game per table of a session, and a player in one unfinished game at a time."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Permission
from django.db import IntegrityError, transaction
from django.test import Client
from django.urls import reverse

from tournaments import services
from tournaments.models import Event, Game, GameSeat, Hand, Player

pytestmark = pytest.mark.django_db

DRAW_NOTEN = {"result": "draw", "riichi": [], "tenpai": []}
WINDS = ("east", "south", "west", "north")


def url(name: str, *args) -> str:
    return reverse(f"tournaments:{name}", args=args)


def page(response) -> str:
    return response.content.decode()


def token(event: Event) -> str:
    return Event.objects.get(pk=event.pk).play_token


def seat_data(players, table="2") -> dict:
    data = {"table_number": table, "entry_mode": "hands"}
    return data | {wind: p.pk for wind, p in zip(WINDS, players, strict=True)}


def others(prefix="X") -> list[Player]:
    return [Player.objects.create(display_name=f"{prefix}{i}") for i in range(4)]


def finish_with_draws(game: Game) -> None:
    for number in range(1, 9):
        services.add_hand(game.pk, number, DRAW_NOTEN)


# Deleting a game


def test_an_organiser_deletes_an_empty_game_after_a_confirmation_page(
    organiser_client, event, game, players
):
    before = token(event)
    confirm = organiser_client.get(url("game_delete", game.pk))
    assert confirm.status_code == 200
    assert "Delete the game" in page(confirm) and "Aki, Ben, Chie, Dan" in page(confirm)

    response = organiser_client.post(url("game_delete", game.pk))

    assert response.status_code == 302 and response.url == url("session", "thursday", 1)
    assert not Game.objects.filter(pk=game.pk).exists()
    assert not GameSeat.objects.exists()
    assert Player.objects.count() == 4
    assert token(event) != before
    # The players are free again: a new game at the same table takes them.
    services.create_game(game.session, players, table_number=1)


def test_the_game_page_offers_the_deletion_to_organisers_only(
    organiser_client, stranger_client, game
):
    assert url("game_delete", game.pk) in page(organiser_client.get(url("game", game.pk)))
    assert url("game_delete", game.pk) not in page(stranger_client.get(url("game", game.pk)))


def test_strangers_and_visitors_cannot_delete_a_game(stranger_client, anonymous, game):
    assert stranger_client.post(url("game_delete", game.pk)).status_code == 403
    response = anonymous.post(url("game_delete", game.pk))
    assert response.status_code == 302 and "/login/" in response.url
    assert Game.objects.filter(pk=game.pk).exists()


def test_a_game_with_hands_is_deleted_only_after_its_hands_are_undone(organiser_client, game):
    services.add_hand(game.pk, 1, DRAW_NOTEN)

    confirm = page(organiser_client.get(url("game_delete", game.pk)))
    assert "This game has 1 hand." in confirm and 'class="big danger"' not in confirm

    response = organiser_client.post(url("game_delete", game.pk))
    assert response.status_code == 302
    assert Game.objects.filter(pk=game.pk).exists() and Hand.objects.count() == 1
    follow = page(organiser_client.get(response.url))
    assert "This game has 1 hand. Clear them first, then delete the game." in follow

    services.undo_last_hand(game.pk)
    organiser_client.post(url("game_delete", game.pk))
    assert not Game.objects.filter(pk=game.pk).exists()


def test_a_final_score_game_is_deleted_after_its_scores_are_cleared_and_standings_follow(
    organiser_client, event, final_game
):
    services.set_final_scores(final_game.pk, [40000, 30000, 20000, 10000], 0)
    assert "Eri" in page(organiser_client.get(url("standings", "thursday")))
    organiser_client.post(url("game_delete", final_game.pk))
    assert Game.objects.filter(pk=final_game.pk).exists()

    response = organiser_client.post(url("final_scores_clear", final_game.pk))

    assert response.status_code == 302
    final_game.refresh_from_db()
    assert final_game.status == Game.Status.IN_PROGRESS and final_game.ended_by == ""
    seats = list(final_game.seats.all())
    assert all(s.entered_score is None and s.match_points is None for s in seats)
    assert all(s.open_session_id == final_game.session_id for s in seats)
    assert "Eri" not in page(organiser_client.get(url("standings", "thursday")))

    organiser_client.post(url("game_delete", final_game.pk))
    assert not Game.objects.filter(pk=final_game.pk).exists()


def test_a_stranger_cannot_clear_final_scores(stranger_client, final_game):
    services.set_final_scores(final_game.pk, [40000, 30000, 20000, 10000], 0)
    assert stranger_client.post(url("final_scores_clear", final_game.pk)).status_code == 403
    assert final_game.seats.filter(entered_score=40000).exists()


def test_the_admin_deletes_an_empty_game_of_ones_own_event_and_no_other(
    staff_client, game, final_game, django_user_model
):
    delete = reverse("admin:tournaments_game_delete", args=[final_game.pk])
    services.set_final_scores(final_game.pk, [40000, 30000, 20000, 10000], 0)
    assert staff_client.post(delete, {"post": "yes"}).status_code == 403
    assert Game.objects.filter(pk=final_game.pk).exists()

    response = staff_client.post(
        reverse("admin:tournaments_game_delete", args=[game.pk]), {"post": "yes"}
    )
    assert response.status_code == 302
    assert not Game.objects.filter(pk=game.pk).exists()

    # Staff who are not superusers do not reach the admin at all, even with permissions.
    helper = django_user_model.objects.create_user("helper", is_staff=True)
    helper.user_permissions.set(Permission.objects.filter(content_type__app_label="tournaments"))
    client = Client()
    client.force_login(helper)
    services.clear_final_scores(final_game.pk)
    response = client.post(delete, {"post": "yes"})
    assert response.status_code == 302 and "/admin/login/" in response["Location"]
    assert Game.objects.filter(pk=final_game.pk).exists()


# Seating checks


def test_a_second_unfinished_game_at_a_table_is_refused_with_a_form_error(organiser_client, game):
    response = organiser_client.post(url("game_create", "thursday", 1), seat_data(others(), "1"))

    assert response.status_code == 200
    assert "Table 1 has a game going on already in this session." in page(response)
    assert Game.objects.count() == 1


def test_a_finished_table_takes_its_next_game(organiser_client, game, players):
    finish_with_draws(game)

    response = organiser_client.post(url("game_create", "thursday", 1), seat_data(players, "1"))

    assert response.status_code == 302
    assert Game.objects.filter(table_number=1).count() == 2


def test_a_player_in_an_unfinished_game_is_refused_at_another_table(
    organiser_client, game, players
):
    four = [players[0], *others()[:3]]

    response = organiser_client.post(url("game_create", "thursday", 1), seat_data(four))

    assert response.status_code == 200
    assert (
        "Aki is playing at table 1 of this session, and that game is not finished. "
        "Finish or delete that game first, or choose another player."
    ) in page(response)
    assert Game.objects.count() == 1


def test_moving_a_game_to_a_taken_table_is_refused(organiser_client, game, session):
    other = services.create_game(session, others(), table_number=2)

    data = seat_data([s.player for s in other.ordered_seats()], "1")
    response = organiser_client.post(url("game_edit", other.pk), data)

    assert response.status_code == 200 and "Table 1 has a game going on" in page(response)
    other.refresh_from_db()
    assert other.table_number == 2


def test_the_service_refuses_both_clashes_in_one_sentence_each(game, session, players):
    with pytest.raises(services.GameChangeRefused) as refused:
        services.create_game(session, players, table_number=1)
    assert str(refused.value) == (
        "Table 1 has a game going on already in this session. Finish or delete that game "
        "first, or choose another table number. Aki, Ben, Chie and Dan are playing at table 1 "
        "of this session, and that game is not finished. Finish or delete that game first, "
        "or choose other players."
    )
    assert Game.objects.count() == 1


def test_the_database_keeps_one_unfinished_game_per_table_and_per_player(game, session):
    with pytest.raises(IntegrityError), transaction.atomic():
        Game.objects.create(session=session, table_number=1)
    other = Game.objects.create(session=session, table_number=2)
    with pytest.raises(IntegrityError), transaction.atomic():
        GameSeat.objects.create(
            game=other, seat=0, player=game.seats.get(seat=0).player, open_session=session
        )


def test_reopening_a_game_whose_table_was_taken_meanwhile_is_refused(game, session, players):
    finish_with_draws(game)
    services.create_game(session, others(), table_number=1)

    with pytest.raises(services.GameChangeRefused, match="Table 1 has a game going on"):
        services.reopen_game(game.pk)

    game.refresh_from_db()
    assert game.is_finished
    assert not game.seats.filter(open_session__isnull=False).exists()


def test_finishing_a_game_frees_its_players_for_another_table(game, session, players):
    finish_with_draws(game)
    assert not GameSeat.objects.filter(open_session__isnull=False).exists()

    second = services.create_game(session, players, table_number=2)

    assert second.seats.filter(open_session=session).count() == 4


def test_the_admin_refuses_a_seat_for_a_player_at_another_unfinished_table(
    staff_client, game, session
):
    other = services.create_game(session, others(), table_number=2)
    seat = other.seats.get(seat=0)
    aki = game.seats.get(seat=0).player

    response = staff_client.post(
        reverse("admin:tournaments_gameseat_change", args=[seat.pk]), {"player": aki.pk}
    )

    assert response.status_code == 200
    assert "Aki is playing at table 1 of this session" in response.content.decode()
    seat.refresh_from_db()
    assert seat.player_id != aki.pk

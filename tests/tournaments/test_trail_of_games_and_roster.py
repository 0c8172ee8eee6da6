"""The trail keeps what changes a day besides its hands: a game deleted, a game created by
hand (with its substitutes), a player withdrawn and back; the trail page says each in
words. Seating a round does not fill the trail with one line per table."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.tournaments.sanma_builders import sanma_event
from tournaments import services
from tournaments.models import Player, TrailEntry
from tournaments.trail import Actor

pytestmark = pytest.mark.django_db

Kind = TrailEntry.Kind


def url(name: str, *args) -> str:
    return reverse(f"tournaments:{name}", args=args)


def trail_page(client, event) -> str:
    return client.get(url("event_trail", event.slug)).content.decode()


def test_deleting_a_game_is_in_the_trail_with_its_table_and_players(organiser_client, game):
    event = game.session.event
    response = organiser_client.post(url("game_delete", game.pk))
    assert response.status_code == 302
    entry = TrailEntry.objects.get(kind=Kind.GAME_DELETED)
    assert entry.game is None  # gone, but the entry stays
    assert (entry.session_number, entry.table_number) == (1, 1)
    assert entry.before == {"table": 1, "seats": ["Aki", "Ben", "Chie", "Dan"]}
    assert entry.author == "Olive (organiser)"
    page = trail_page(organiser_client, event)
    assert "Game deleted" in page and "table 1: Aki, Ben, Chie, Dan" in page
    assert "S1 T1" in page


def test_a_game_that_holds_results_is_not_deleted_and_not_in_the_trail(organiser_client, game):
    services.add_hand(game.pk, 1, {"result": "draw", "riichi": [], "tenpai": []})
    organiser_client.post(url("game_delete", game.pk))
    assert not TrailEntry.objects.filter(kind=Kind.GAME_DELETED).exists()


def test_a_game_created_by_hand_is_in_the_trail_with_its_substitute(
    organiser_client, session, players
):
    data = {
        "table_number": "4",
        "entry_mode": "final_scores",
        "east": players[0].pk,
        "south": players[1].pk,
        "west": players[2].pk,
        "north": players[3].pk,
        "substitutes": ["3"],
    }
    response = organiser_client.post(url("game_create", session.event.slug, 1), data)
    assert response.status_code == 302
    entry = TrailEntry.objects.get(kind=Kind.GAME_CREATED)
    assert entry.table_number == 4 and entry.game.table_number == 4
    assert entry.after == {"table": 4, "seats": ["Aki", "Ben", "Chie", "Dan (substitute)"]}
    page = trail_page(organiser_client, session.event)
    assert "Game created" in page and "table 4: Aki, Ben, Chie, Dan (substitute)" in page


def test_a_refused_game_leaves_no_trail(organiser_client, session, players, game):
    data = {
        "table_number": "1",  # taken by `game`
        "entry_mode": "hands",
        "east": players[0].pk,
        "south": players[1].pk,
        "west": players[2].pk,
        "north": players[3].pk,
    }
    response = organiser_client.post(url("game_create", session.event.slug, 1), data)
    assert response.status_code == 200
    assert not TrailEntry.objects.filter(kind=Kind.GAME_CREATED).exists()


def test_seating_a_round_writes_no_line_per_table(session, players):
    services.create_game(session, players, table_number=1)
    assert not TrailEntry.objects.exists()


def test_withdrawing_a_player_and_taking_them_back_are_in_the_trail(organiser_client, event):
    services.add_names_to_roster(event.pk, ["Aki", "Ben"], create=True)
    aki = Player.objects.get(display_name="Aki")
    organiser_client.post(url("roster_withdraw", event.slug, aki.pk), {"from_session": "3"})
    entry = TrailEntry.objects.get(kind=Kind.PLAYER_WITHDRAWN)
    assert entry.game is None and entry.event == event
    assert entry.after == {"player": "Aki", "withdrawn_from": 3}
    organiser_client.post(url("roster_return", event.slug, aki.pk))
    back = TrailEntry.objects.get(kind=Kind.PLAYER_RETURNED)
    assert back.before == {"player": "Aki", "withdrawn_from": 3}
    page = trail_page(organiser_client, event)
    assert "Player withdrawn" in page and "Aki withdrawn from session 3 on" in page
    assert "Player back" in page and "Aki takes part" in page


def test_a_refused_withdrawal_leaves_no_trail(organiser_client, event):
    services.add_names_to_roster(event.pk, ["Aki"], create=True)
    aki = Player.objects.get(display_name="Aki")
    organiser_client.post(url("roster_withdraw", event.slug, aki.pk), {"from_session": "0"})
    assert not TrailEntry.objects.exists()


def test_the_trail_of_a_three_player_event_in_japanese(organiser, organiser_client):
    event = sanma_event(organiser)
    session = event.sessions.get()
    players = services.players_by_name(["Aki", "Ben", "Chie"], create=True)
    game = services.create_game(session, players, table_number=2, actor=Actor.of(organiser))
    services.delete_game(game.pk, actor=Actor.of(organiser))
    services.add_to_roster(event.pk, players)
    services.withdraw_from_roster(event.pk, players[0].pk, 2, actor=Actor.of(organiser))
    page = organiser_client.get(
        url("event_trail", event.slug), HTTP_ACCEPT_LANGUAGE="ja"
    ).content.decode()
    assert "対局作成" in page and "対局削除" in page and "table 2: Aki, Ben, Chie" not in page
    assert "Akiは第2回戦から棄権" in page

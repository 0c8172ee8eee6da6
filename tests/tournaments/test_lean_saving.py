"""A hand's save writes what changed in plain statements and reads nothing twice."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tournaments import services
from tournaments.models import GameSeat, TrailEntry

pytestmark = pytest.mark.django_db

RON_FORM = {
    "result": "ron",
    "riichi": [],
    "w1_winner": "1",
    "loser": "0",
    "w1_han": "3",
    "w1_fu": "40",
}


def _saving(client: Client, game, number: int, form: dict) -> list[str]:
    address = reverse("tournaments:hand_new", args=[game.pk])
    with CaptureQueriesContext(connection) as saving:
        response = client.post(address, {**form, "number": str(number), "action": "save"})
    assert response.status_code == 302
    return [query["sql"] for query in saving.captured_queries]


def _seat_updates(statements: list[str]) -> list[str]:
    return [sql for sql in statements if sql.startswith('UPDATE "tournaments_gameseat"')]


def test_a_ron_writes_the_seats_it_changed_in_plain_updates_one_for_seats_alike(
    organiser_client, game
):
    statements = _saving(organiser_client, game, 1, RON_FORM)
    updates = _seat_updates(statements)
    # The winner, the discarder, and the two others, who only played one more hand; no
    # CASE per field and seat, as a bulk update builds.
    assert len(updates) == 3
    assert not [sql for sql in updates if "CASE" in sql]
    assert len([sql for sql in updates if '"wins"' in sql]) == 1
    assert len([sql for sql in updates if '"deal_ins"' in sql]) == 1
    others = [sql for sql in updates if '"score"' not in sql]
    assert len(others) == 1 and " IN (" in others[0]
    seats = list(game.seats.order_by("seat"))
    assert [s.score for s in seats] == [19800, 30200, 25000, 25000]
    assert [s.hands for s in seats] == [1, 1, 1, 1]
    assert [s.wins for s in seats] == [0, 1, 0, 0]
    assert [s.deal_ins for s in seats] == [1, 0, 0, 0]


def test_a_seat_whose_results_a_hand_leaves_alone_is_not_written(organiser_client, game):
    # As if every seat had counted this hand already: then only the scores and the figures
    # of the winner and the discarder move, and the two other seats stay as they are.
    GameSeat.objects.filter(game=game).update(hands=1)
    updates = _seat_updates(_saving(organiser_client, game, 1, RON_FORM))
    assert len(updates) == 2
    assert not [sql for sql in updates if '"hands"' in sql]
    seats = list(game.seats.order_by("seat"))
    assert [s.score for s in seats] == [19800, 30200, 25000, 25000]
    assert [s.hands for s in seats] == [1, 1, 1, 1]


def test_a_hand_saved_through_a_table_link_reads_its_game_once(game):
    link = services.renew_table_link(game.pk)
    phone = Client()
    address, code = link.get_absolute_url().split("#")
    assert phone.post(address, {"code": code}).status_code == 302
    statements = _saving(phone, game, 1, RON_FORM)
    games = [
        sql for sql in statements if sql.startswith("SELECT") and 'FROM "tournaments_game"' in sql
    ]
    # The access check's read, then the read under the game's lock: the trail's author
    # ("Table 1 link #n") is named from the locked game, not read again.
    assert len(games) == 2
    entry = TrailEntry.objects.get(kind="hand_added")
    assert entry.author == f"Table 1 link #{link.pk}"
    assert entry.table_link_id == link.pk


def test_a_draw_with_everyone_tenpai_writes_the_dealer_and_the_three_others(organiser_client, game):
    draw = {"result": "draw", "riichi": [], "tenpai": ["0", "1", "2", "3"]}
    updates = _seat_updates(_saving(organiser_client, game, 1, draw))
    # Nobody pays: the dealer counts a dealer's hand too, the others just one more hand.
    assert len(updates) == 2
    dealer = game.seats.get(seat=0).pk
    assert [sql for sql in updates if '"dealer_hands"' in sql][0].endswith(f"IN ({dealer})")
    assert [s.hands for s in game.seats.order_by("seat")] == [1, 1, 1, 1]
    assert [s.score for s in game.seats.order_by("seat")] == [25000] * 4


def test_a_new_hand_is_saved_without_looking_for_its_entry_first(organiser_client, game):
    # Its receipt's unique entry catches a resend that got past every check; the receipts
    # are read only when something refused the hand.
    statements = _saving(organiser_client, game, 1, RON_FORM)
    assert not [sql for sql in statements if sql.startswith("SELECT") and "entryreceipt" in sql]
    assert [sql for sql in statements if sql.startswith('INSERT INTO "tournaments_entryreceipt"')]

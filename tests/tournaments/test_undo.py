"""Undoing the last hand names the hand: a page asks first, the POST carries the hand's
number and version, and a second tap or a stale page is refused rather than undoing the
hand after it. An organiser restores an undone hand from the trail."""

from __future__ import annotations

import datetime
import html
import re

import pytest
from django.test import Client
from django.urls import reverse

from tournaments import services
from tournaments.models import Event, Hand, Player, Session, TrailEntry

pytestmark = pytest.mark.django_db

RON = {"result": "ron", "riichi": [], "wins": [{"winner": 1, "loser": 0, "han": 3, "fu": 40}]}
DRAW = {"result": "draw", "riichi": [], "tenpai": [0]}
TSUMO = {"result": "tsumo", "riichi": [], "wins": [{"winner": 2, "han": 2, "fu": 30}]}


def url(name, *args):
    return reverse(f"tournaments:{name}", args=args)


def text(response) -> str:
    body = html.unescape(re.sub(r"<[^>]+>", " ", response.content.decode()))
    return " ".join(body.split())


def docs(game):
    return game.to_record()["hands"]


def add(game, *hands):
    for doc in hands:
        services.add_hand(game.pk, len(docs(game)) + 1, doc)


def undo_form(page: str) -> dict[str, str]:
    """The hidden fields of the undo page's form, as a browser posts them."""
    fields = dict(re.findall(r'<input type="hidden" name="(number|version)" value="([^"]*)"', page))
    assert set(fields) == {"number", "version"}
    return fields


def test_the_game_page_offers_undo_as_a_link_to_a_page_that_names_the_hand(organiser_client, game):
    add(game, RON, DRAW)
    page = organiser_client.get(url("game", game.pk)).content.decode()
    assert f'href="{url("hand_undo", game.pk)}">Undo hand 2</a>' in page
    assert f'action="{url("hand_undo", game.pk)}"' not in page  # no one-tap form

    confirm = organiser_client.get(url("hand_undo", game.pk))
    assert confirm.status_code == 200
    shown = text(confirm)
    assert "Undo hand 2?" in shown and "Draw · tenpai: Aki" in shown
    assert len(docs(game)) == 2  # asking changes nothing


def test_undo_posted_from_the_page_removes_the_hand_it_names(organiser_client, game):
    add(game, RON, DRAW)
    fields = undo_form(organiser_client.get(url("hand_undo", game.pk)).content.decode())
    assert fields["number"] == "2"
    response = organiser_client.post(url("hand_undo", game.pk), fields, follow=True)
    assert "Hand 2 undone." in text(response)
    assert docs(game) == [RON]
    entry = TrailEntry.objects.get(kind=TrailEntry.Kind.HAND_UNDONE)
    assert entry.hand_number == 2 and entry.before == {"hand": DRAW}


def test_a_second_tap_on_undo_is_refused_and_leaves_the_hand_before(organiser_client, game):
    add(game, RON, DRAW)
    fields = undo_form(organiser_client.get(url("hand_undo", game.pk)).content.decode())
    organiser_client.post(url("hand_undo", game.pk), fields)
    response = organiser_client.post(url("hand_undo", game.pk), fields, follow=True)
    assert "Hand 2 is undone already: nothing else was undone." in text(response)
    assert docs(game) == [RON]


def test_undo_of_a_hand_that_was_corrected_meanwhile_is_refused(organiser_client, game):
    add(game, RON, DRAW)
    fields = undo_form(organiser_client.get(url("hand_undo", game.pk)).content.decode())
    # The table undoes hand 2 and enters it again, corrected, before the old page is sent.
    services.undo_last_hand(game.pk)
    add(game, TSUMO)
    response = organiser_client.post(url("hand_undo", game.pk), fields, follow=True)
    assert "Hand 2 was changed since you asked to undo it: nothing was undone." in text(response)
    assert docs(game) == [RON, TSUMO]


def test_undo_of_a_hand_that_is_no_longer_the_last_is_refused(organiser_client, game):
    add(game, RON)
    fields = undo_form(organiser_client.get(url("hand_undo", game.pk)).content.decode())
    add(game, DRAW)
    response = organiser_client.post(url("hand_undo", game.pk), fields, follow=True)
    assert "Hand 1 is no longer the last hand: the game has 2 hands now." in text(response)
    assert docs(game) == [RON, DRAW]


def test_an_undo_that_does_not_name_its_hand_only_asks(organiser_client, game):
    add(game, RON)
    response = organiser_client.post(url("hand_undo", game.pk))
    assert response.status_code == 200 and "Undo hand 1?" in text(response)
    assert docs(game) == [RON]


def test_a_table_link_undoes_only_after_the_named_confirmation_and_the_trail_says_so(game):
    link = services.renew_table_link(game.pk)
    phone = Client()
    address, code = link.get_absolute_url().split("#")
    phone.post(address, {"code": code})
    add(game, RON, DRAW)
    page = phone.get(url("hand_undo", game.pk)).content.decode()
    assert "Undo hand 2?" in text(phone.get(url("hand_undo", game.pk)))
    phone.post(url("hand_undo", game.pk), undo_form(page))
    assert docs(game) == [RON]
    entry = TrailEntry.objects.get(kind=TrailEntry.Kind.HAND_UNDONE)
    assert entry.table_link_id == link.pk


# Restoring from the trail.


def restore_buttons(page: str) -> list[str]:
    return re.findall(r'action="([^"]*/restore/)"', page)


def test_an_organiser_restores_an_undone_hand_from_the_trail(organiser_client, game):
    add(game, RON, DRAW)
    services.undo_last_hand(game.pk, number=2)
    page = organiser_client.get(url("event_trail", "thursday")).content.decode()
    (action,) = restore_buttons(page)
    assert "Restore hand 2" in page
    response = organiser_client.post(action, follow=True)
    assert "Hand 2 restored." in text(response)
    assert docs(game) == [RON, DRAW]
    assert TrailEntry.objects.filter(kind=TrailEntry.Kind.HAND_ADDED, hand_number=2).count() == 2


def test_a_hand_is_restored_only_while_it_would_be_the_next_hand(organiser_client, game):
    add(game, RON, DRAW)
    services.undo_last_hand(game.pk, number=2)
    add(game, TSUMO)
    entry = TrailEntry.objects.get(kind=TrailEntry.Kind.HAND_UNDONE)
    response = organiser_client.post(url("trail_restore", "thursday", entry.pk), follow=True)
    assert "Hand 2 cannot be restored: the game's next hand is hand 3 now." in text(response)
    assert docs(game) == [RON, TSUMO]
    # Restoring twice in a row: the second is refused the same way.
    services.undo_last_hand(game.pk, number=2)
    organiser_client.post(url("trail_restore", "thursday", entry.pk))
    organiser_client.post(url("trail_restore", "thursday", entry.pk))
    assert docs(game) == [RON, DRAW]


def test_only_an_undone_hand_has_a_restore_button_and_others_cannot_restore(
    organiser_client, stranger_client, anonymous, game
):
    add(game, RON, DRAW)
    services.delete_hand(game.pk, 1)
    assert (
        restore_buttons(organiser_client.get(url("event_trail", "thursday")).content.decode()) == []
    )
    added = TrailEntry.objects.filter(kind=TrailEntry.Kind.HAND_ADDED).first()
    response = organiser_client.post(url("trail_restore", "thursday", added.pk), follow=True)
    assert "Only an undone hand of a game can be restored." in text(response)

    services.undo_last_hand(game.pk)
    entry = TrailEntry.objects.get(kind=TrailEntry.Kind.HAND_UNDONE)
    assert stranger_client.post(url("trail_restore", "thursday", entry.pk)).status_code == 403
    response = anonymous.post(url("trail_restore", "thursday", entry.pk))
    assert response.status_code == 302 and "login" in response["Location"]
    assert organiser_client.get(url("trail_restore", "thursday", entry.pk)).status_code == 405
    assert not Hand.objects.filter(game=game).exists()


def test_undo_and_restore_work_at_a_table_of_three(organiser_client, organiser):
    event = Event.objects.create(
        name="Sanma", slug="sanma", starts_on=datetime.date(2026, 9, 3), rules_preset="tenhou-sanma"
    )
    event.organisers.add(organiser)
    session = Session.objects.create(event=event, number=1, date=datetime.date(2026, 9, 3))
    trio = [Player.objects.create(display_name=name) for name in ("Aki", "Ben", "Chie")]
    game = services.create_game(session, trio, table_number=1)
    add(game, RON, DRAW)
    confirm = organiser_client.get(url("hand_undo", game.pk)).content.decode()
    organiser_client.post(url("hand_undo", game.pk), undo_form(confirm))
    assert docs(game) == [RON]
    (action,) = restore_buttons(organiser_client.get(url("event_trail", "sanma")).content.decode())
    organiser_client.post(action)
    assert docs(game) == [RON, DRAW]
    game.refresh_from_db()
    assert sum(s.score for s in game.seats.all()) == 3 * 35000

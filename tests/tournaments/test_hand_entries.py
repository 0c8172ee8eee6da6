"""Each hand entry (an add, an edit, an undo) carries an id made when the player confirms
it, held once per game by the database: the same entry sent again is answered with what was
stored (the page a first save gives), never an error, never a second hand or trail entry;
a different entry for a number already taken is refused as before."""

from __future__ import annotations

import re
import uuid

import pytest
from django.contrib.messages import get_messages
from django.db import IntegrityError, transaction
from django.test import Client
from django.urls import reverse

from tournaments import services
from tournaments.models import EntryReceipt, Hand, TrailEntry

pytestmark = pytest.mark.django_db

RON = {"result": "ron", "riichi": [], "wins": [{"winner": 1, "loser": 0, "han": 3, "fu": 40}]}
RON_4 = {"result": "ron", "riichi": [], "wins": [{"winner": 1, "loser": 0, "han": 4, "fu": 40}]}
DRAW = {"result": "draw", "riichi": [], "tenpai": [0]}
NOTEN = {"result": "draw", "riichi": [], "tenpai": []}
RON_FORM = {"result": "ron", "riichi": [], "w1_winner": "1", "loser": "0", "w1_han": "3",
            "w1_fu": "40"}  # fmt: skip
NOTEN_FORM = {"result": "draw", "riichi": [], "tenpai": []}


def url(name: str, *args) -> str:
    return reverse(f"tournaments:{name}", args=args)


def trail(game, kind: str) -> int:
    return TrailEntry.objects.filter(game=game, kind=kind).count()


def said(response) -> str:
    """The last message the response leaves for the next page (the redirects are not
    followed, so earlier ones wait too)."""
    return [str(m) for m in get_messages(response.wsgi_request)][-1]


def at_table(game) -> Client:
    client = Client()
    link = services.renew_table_link(game.pk)
    address, code = link.get_absolute_url().split("#")
    assert client.post(address, {"code": code}).status_code == 302
    return client


# The one save path: add_hand, replace_hand and undo_last_hand.


def test_an_add_sent_twice_stores_one_hand_and_answers_the_stored_one(game):
    entry = uuid.uuid4()
    hand = services.add_hand(game.pk, 1, RON, entry=entry)
    assert hand.entry == entry
    with pytest.raises(services.EntrySentBefore) as again:
        services.add_hand(game.pk, 1, RON, entry=str(entry))
    assert again.value.receipt.kind == "add" and again.value.receipt.number == 1
    assert Hand.objects.filter(game=game).count() == 1
    assert trail(game, "hand_added") == 1
    assert EntryReceipt.objects.filter(game=game).count() == 1


def test_an_add_resent_after_its_game_ended_is_answered_not_refused(game):
    number = 1
    while not services.preview_hand(game, NOTEN).result.finished:
        services.add_hand(game.pk, number, NOTEN)
        number += 1
    entry = uuid.uuid4()
    services.add_hand(game.pk, number, NOTEN, entry=entry)
    game.refresh_from_db()
    assert game.is_finished
    with pytest.raises(services.EntrySentBefore):
        services.add_hand(game.pk, number, NOTEN, entry=entry)
    assert trail(game, "hand_added") == number


def test_a_different_entry_for_a_number_taken_is_still_refused(game):
    services.add_hand(game.pk, 1, RON, entry=uuid.uuid4())
    with pytest.raises(services.HandAlreadyEntered):
        services.add_hand(game.pk, 1, DRAW, entry=uuid.uuid4())
    assert Hand.objects.filter(game=game).count() == 1


def test_an_edit_sent_twice_changes_the_hand_once(game):
    services.add_hand(game.pk, 1, RON)
    entry = uuid.uuid4()
    services.replace_hand(game.pk, 1, RON_4, entry=entry)
    with pytest.raises(services.EntrySentBefore) as again:
        services.replace_hand(game.pk, 1, RON_4, entry=entry)
    assert again.value.receipt.kind == "edit" and again.value.receipt.number == 1
    assert trail(game, "hand_edited") == 1
    stored = Hand.objects.get(game=game)
    assert stored.entry == entry and stored.wins.get().han == 4


def test_an_undo_sent_twice_undoes_one_hand(game):
    for number in (1, 2, 3):
        services.add_hand(game.pk, number, DRAW)
    entry = uuid.uuid4()
    assert services.undo_last_hand(game.pk, number=3, entry=entry) == 3
    with pytest.raises(services.EntrySentBefore) as again:
        services.undo_last_hand(game.pk, number=3, entry=entry)
    assert again.value.receipt.kind == "undo" and again.value.receipt.number == 3
    assert Hand.objects.filter(game=game).count() == 2
    assert trail(game, "hand_undone") == 1


def test_the_database_holds_an_entry_once_per_game(game, session):
    entry = uuid.uuid4()
    EntryReceipt.objects.create(game=game, entry=entry, kind="add", number=1)
    with pytest.raises(IntegrityError), transaction.atomic():
        EntryReceipt.objects.create(game=game, entry=entry, kind="add", number=2)


def test_an_entry_id_that_is_not_a_uuid_is_refused(game):
    with pytest.raises(services.GameChangeRefused):
        services.add_hand(game.pk, 1, RON, entry="1; drop table")
    assert not Hand.objects.filter(game=game).exists()


# The hand form, the edit form and the undo form.


def _confirm_page_entry(response) -> str:
    found = re.search(r'name="entry" value="([0-9a-f-]{36})"', response.content.decode())
    assert found, "the confirm step carries the entry's id"
    return found.group(1)


def test_the_confirm_step_gives_the_hand_an_id_and_its_save_resent_gives_the_same_page(
    organiser_client, game
):
    preview = organiser_client.post(
        url("hand_new", game.pk), {**RON_FORM, "number": "1", "action": "preview"}
    )
    assert preview.status_code == 200
    entry = _confirm_page_entry(preview)
    save = {**RON_FORM, "number": "1", "action": "save", "entry": entry}
    first = organiser_client.post(url("hand_new", game.pk), save)
    again = organiser_client.post(url("hand_new", game.pk), save)
    assert first.status_code == again.status_code == 302
    assert first["Location"] == again["Location"] == game.get_absolute_url()
    assert said(again) == "Hand 1 saved."
    assert Hand.objects.get(game=game).entry == uuid.UUID(entry)
    assert trail(game, "hand_added") == 1


def test_the_form_keeps_the_id_its_script_made_at_confirm(organiser_client, game):
    entry = str(uuid.uuid4())
    preview = organiser_client.post(
        url("hand_new", game.pk), {**RON_FORM, "number": "1", "action": "preview", "entry": entry}
    )
    assert _confirm_page_entry(preview) == entry
    page = organiser_client.get(url("hand_new", game.pk)).content.decode()
    assert 'name="entry" value="" data-entry-id' in page and "js/entry-id.js" in page


def test_a_phone_resending_the_hand_that_ended_its_game_is_told_it_is_saved(game):
    number = 1
    while not services.preview_hand(game, NOTEN).result.finished:
        services.add_hand(game.pk, number, NOTEN)
        number += 1
    phone = at_table(game)
    save = {**NOTEN_FORM, "number": str(number), "action": "save", "entry": str(uuid.uuid4())}
    first = phone.post(url("hand_new", game.pk), save)
    assert first.status_code == 302
    first_said = said(first)
    assert first_said.startswith(f"Hand {number} saved. The game is over")
    again = phone.post(url("hand_new", game.pk), save)
    # Not "Someone entered hand N already", not "This game is finished": the same page.
    assert again.status_code == 302 and again["Location"] == first["Location"]
    assert said(again) == first_said
    assert trail(game, "hand_added") == number
    # Without the stored entry, the finished game still refuses the table link.
    other = {**save, "entry": str(uuid.uuid4())}
    assert phone.post(url("hand_new", game.pk), other).status_code == 403


def test_a_hand_resent_after_another_was_entered_is_not_called_someone_elses(
    organiser_client, game
):
    entry = str(uuid.uuid4())
    save = {**RON_FORM, "number": "1", "action": "save", "entry": entry}
    assert organiser_client.post(url("hand_new", game.pk), save).status_code == 302
    services.add_hand(game.pk, 2, DRAW)
    again = organiser_client.post(url("hand_new", game.pk), save)
    assert again.status_code == 302 and said(again) == "Hand 1 saved."
    taken = organiser_client.post(url("hand_new", game.pk), {**save, "entry": str(uuid.uuid4())})
    assert taken.status_code == 409 and "Someone entered hand 1 already" in taken.content.decode()
    assert Hand.objects.filter(game=game).count() == 2


def test_an_edit_form_resent_changes_the_hand_once(organiser_client, game):
    services.add_hand(game.pk, 1, RON)
    version = services.hand_version(RON)
    preview = organiser_client.post(
        url("hand_edit", game.pk, 1),
        {**RON_FORM, "w1_han": "4", "version": version, "action": "preview"},
    )
    entry = _confirm_page_entry(preview)
    save = {**RON_FORM, "w1_han": "4", "version": version, "action": "save", "entry": entry}
    first = organiser_client.post(url("hand_edit", game.pk, 1), save)
    again = organiser_client.post(url("hand_edit", game.pk, 1), save)
    assert first.status_code == again.status_code == 302
    # Not "someone else changed hand 1": the hand is as this edit made it.
    assert said(again) == "Hand 1 changed."
    assert trail(game, "hand_edited") == 1


def test_an_undo_form_resent_undoes_one_hand(organiser_client, game):
    for number in (1, 2):
        services.add_hand(game.pk, number, DRAW)
    page = organiser_client.get(url("hand_undo", game.pk))
    entry = _confirm_page_entry(page)
    undo = {"number": "2", "version": services.hand_version(DRAW), "entry": entry}
    first = organiser_client.post(url("hand_undo", game.pk), undo)
    again = organiser_client.post(url("hand_undo", game.pk), undo)
    assert first.status_code == again.status_code == 302
    assert said(again) == "Hand 2 undone."  # not "Hand 2 is undone already"
    assert Hand.objects.filter(game=game).count() == 1
    assert trail(game, "hand_undone") == 1

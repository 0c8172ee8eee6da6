"""The same hand entry sent twice at the same instant (a phone's retry racing its first
send): real requests in threads, each with its own connection (PostgreSQL only: SQLite has
no row locks). One hand, one trail entry, and both answers are the stored hand."""

from __future__ import annotations

import json
import threading
import uuid

import pytest
from django.db import connection
from django.test import Client
from django.urls import reverse

from tournaments import services
from tournaments.models import EntryReceipt, Hand, TrailEntry

from .test_concurrency import _skip_on_sqlite

DRAW = {"result": "draw", "riichi": [], "tenpai": [0]}
RON_FORM = {"result": "ron", "riichi": [], "w1_winner": "1", "loser": "0", "w1_han": "3",
            "w1_fu": "40"}  # fmt: skip
ROUNDS = 4


def _phones(game, count: int) -> list[Client]:
    link = services.renew_table_link(game.pk)
    phones = []
    for _ in range(count):
        phone = Client()
        address, code = link.get_absolute_url().split("#")
        assert phone.post(address, {"code": code}).status_code == 302
        phones.append(phone)
    return phones


def _at_once(calls) -> list:
    """Run each call in its own thread, all released at the same instant."""
    barrier = threading.Barrier(len(calls))
    answers: list = [None] * len(calls)
    errors: list = []

    def run(index, call):
        try:
            barrier.wait(timeout=10)
            answers[index] = call()
        except Exception as err:  # reported in the main thread, where pytest sees it
            errors.append(err)
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i, c)) for i, c in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert not errors, errors
    return answers


def _sync(phone, game, body):
    return lambda: phone.post(
        reverse("tournaments:hand_sync", args=[game.pk]),
        data=json.dumps(body),
        content_type="application/json",
    )


@pytest.mark.django_db(transaction=True)
def test_the_same_add_sent_twice_at_once_is_stored_once_and_both_answers_are_the_hand(game):
    _skip_on_sqlite()
    phones = _phones(game, 2)
    for number in range(1, ROUNDS + 1):
        scores = list(services.preview_hand(game, DRAW).report.scores_after)
        body = {"entry": str(uuid.uuid4()), "kind": "add", "number": number, "hand": DRAW,
                "scores": scores}  # fmt: skip
        answers = _at_once([_sync(phone, game, body) for phone in phones])
        assert sorted(a.status_code for a in answers) == [200, 200], [a.content for a in answers]
        assert sorted(a.json()["status"] for a in answers) == ["already", "saved"]
        assert {a.json()["number"] for a in answers} == {number}
        assert answers[0].json()["record"] == answers[1].json()["record"]
        assert Hand.objects.filter(game=game).count() == number
        added = TrailEntry.objects.filter(game=game, kind="hand_added", hand_number=number)
        assert added.count() == 1
    assert EntryReceipt.objects.filter(game=game).count() == ROUNDS


@pytest.mark.django_db(transaction=True)
def test_the_same_undo_sent_twice_at_once_undoes_one_hand(game):
    _skip_on_sqlite()
    for number in range(1, ROUNDS + 2):
        services.add_hand(game.pk, number, DRAW)
    phones = _phones(game, 2)
    for number in range(ROUNDS + 1, 1, -1):
        body = {"entry": str(uuid.uuid4()), "kind": "undo", "number": number}
        answers = _at_once([_sync(phone, game, body) for phone in phones])
        assert sorted(a.json()["status"] for a in answers) == ["already", "saved"]
        assert {a.json()["number"] for a in answers} == {number}
        assert Hand.objects.filter(game=game).count() == number - 1
    assert TrailEntry.objects.filter(game=game, kind="hand_undone").count() == ROUNDS


@pytest.mark.django_db(transaction=True)
def test_the_same_edit_sent_twice_at_once_changes_the_hand_once(game):
    _skip_on_sqlite()
    services.add_hand(game.pk, 1, DRAW)
    phones = _phones(game, 2)
    address = reverse("tournaments:hand_edit", args=[game.pk, 1])
    for han in range(2, 2 + ROUNDS):
        form = {**RON_FORM, "w1_han": str(han), "action": "save", "entry": str(uuid.uuid4())}
        answers = _at_once([lambda p=phone, f=form: p.post(address, f) for phone in phones])
        assert [a.status_code for a in answers] == [302, 302], [a.content for a in answers]
        assert Hand.objects.get(game=game).wins.get().han == han
    assert TrailEntry.objects.filter(game=game, kind="hand_edited").count() == ROUNDS
    assert EntryReceipt.objects.filter(game=game, kind="edit").count() == ROUNDS


@pytest.mark.django_db(transaction=True)
def test_the_same_hand_form_saved_twice_at_once_gives_both_the_saved_page(game):
    _skip_on_sqlite()
    phones = _phones(game, 2)
    address = reverse("tournaments:hand_new", args=[game.pk])
    for number in range(1, ROUNDS + 1):
        form = {"result": "draw", "riichi": [], "tenpai": ["0"], "number": str(number),
                "action": "save", "entry": str(uuid.uuid4())}  # fmt: skip
        answers = _at_once([lambda p=phone, f=form: p.post(address, f) for phone in phones])
        # Both sent back to the game as a first save is: no "someone entered it already".
        assert [a.status_code for a in answers] == [302, 302], [a.content for a in answers]
        assert {a["Location"] for a in answers} == {game.get_absolute_url()}
        assert Hand.objects.filter(game=game).count() == number
        added = TrailEntry.objects.filter(game=game, kind="hand_added", hand_number=number)
        assert added.count() == 1

"""Two phones at one table save the same hand through the table link at the same moment.

Real requests in two threads, each with its own browser session and database connection
(PostgreSQL only: SQLite has no row locks): exactly one hand is stored, with exactly one
trail entry naming the table link, and the other phone is told the hand was entered.
"""

from __future__ import annotations

import threading

import pytest
from django.db import connection
from django.test import Client
from django.urls import reverse

from tournaments import services
from tournaments.models import Hand, TrailEntry

from .test_concurrency import _skip_on_sqlite

RON = {"result": "ron", "riichi": [], "w1_winner": "1", "loser": "0", "w1_han": "3", "w1_fu": "40"}
TSUMO = {"result": "tsumo", "riichi": [], "w1_winner": "3", "w1_han": "2", "w1_fu": "30"}
ROUNDS = 4


def _phones(link, count: int) -> list[Client]:
    phones = []
    for _ in range(count):
        phone = Client()
        address, code = link.get_absolute_url().split("#")
        assert phone.post(address, {"code": code}).status_code == 302
        phones.append(phone)
    return phones


def _save_at_once(phones: list[Client], address: str, number: int) -> list:
    """POST the save of hand `number` from both phones at the same instant."""
    barrier = threading.Barrier(len(phones))
    responses: list = [None] * len(phones)
    errors: list = []

    def save(index, form):
        try:
            data = {**form, "number": str(number), "action": "save"}
            barrier.wait(timeout=10)
            responses[index] = phones[index].post(address, data)
        except Exception as err:  # reported in the main thread, where pytest sees it
            errors.append(err)
        finally:
            connection.close()

    threads = [threading.Thread(target=save, args=(i, f)) for i, f in enumerate((RON, TSUMO))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert not errors, errors
    return responses


@pytest.mark.django_db(transaction=True)
def test_two_phones_saving_the_same_hand_through_the_link_store_it_once(game):
    _skip_on_sqlite()
    link = services.renew_table_link(game.pk)
    phones = _phones(link, 2)
    address = reverse("tournaments:hand_new", args=[game.pk])
    for number in range(1, ROUNDS + 1):
        responses = _save_at_once(phones, address, number)
        codes = sorted(r.status_code for r in responses)
        assert codes == [302, 409], codes
        refused = [r for r in responses if r.status_code == 409][0]
        assert f"Someone entered hand {number} already" in refused.content.decode()
        assert Hand.objects.filter(game=game).count() == number
        entries = TrailEntry.objects.filter(game=game, kind="hand_added", hand_number=number)
        assert entries.count() == 1
        assert entries.get().table_link_id == link.pk
    assert TrailEntry.objects.filter(kind="hand_added").count() == ROUNDS

"""Two organisers save the next hand of one game at the same moment.

Real requests in two threads, each with its own client and database connection: one hand
is stored, the other organiser is told that someone entered it already, and never are two
hands stored under one number or one hand lost.
"""

from __future__ import annotations

import threading

import pytest
from django.db import connection
from django.test import Client
from django.urls import reverse

from tournaments.models import Hand

# Small enough that no order of winners ends the game within the rounds (3 han rons won
# in a row put Aki below zero at the fourth hand, and the fifth could not be entered).
RON = {"result": "ron", "riichi": ["2"], "w1_winner": "1", "loser": "0", "w1_han": "1"}
TSUMO = {"result": "tsumo", "riichi": [], "w1_winner": "3", "w1_han": "5"}
ROUNDS = 5


def _skip_on_sqlite():
    # SQLite has no row locks, and in its shared in-memory test database a second writer
    # fails at once with "database table is locked" instead of waiting its turn.
    if connection.vendor == "sqlite":
        pytest.skip(
            "SQLite cannot run concurrent writers (no select_for_update; 'database table is "
            "locked'): run with DATABASE_URL=postgres://..."
        )


def _save_at_once(game, organisers, forms, number):
    """POST the save of hand `number` from each organiser at the same instant."""
    barrier = threading.Barrier(len(organisers))
    responses: list = [None] * len(organisers)
    errors: list = []

    def save(index):
        try:
            client = Client()
            client.force_login(organisers[index])
            data = {**forms[index], "w1_fu": "40", "number": str(number), "action": "save"}
            barrier.wait(timeout=10)
            responses[index] = client.post(reverse("tournaments:hand_new", args=[game.pk]), data)
        except Exception as err:  # reported in the main thread, where pytest sees it
            errors.append(err)
        finally:
            connection.close()

    threads = [threading.Thread(target=save, args=(i,)) for i in range(len(organisers))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert not errors, errors
    return responses


@pytest.fixture
def second_organiser(django_user_model, event):
    user = django_user_model.objects.create_user(username="second", password="x-long-password")
    event.organisers.add(user)
    return user


@pytest.mark.django_db(transaction=True)
def test_two_organisers_saving_the_same_hand_store_it_once(game, organiser, second_organiser):
    _skip_on_sqlite()
    game_url = reverse("tournaments:game", args=[game.pk])
    for number in range(1, ROUNDS + 1):
        responses = _save_at_once(game, [organiser, second_organiser], [RON, TSUMO], number)

        saved = [r for r in responses if r.status_code == 302 and r["Location"] == game_url]
        refused = [r for r in responses if r.status_code == 409]
        assert len(saved) == 1 and len(refused) == 1, [r.status_code for r in responses]
        assert f"Someone entered hand {number} already" in refused[0].content.decode()

        hands = list(Hand.objects.filter(game=game).order_by("number"))
        assert [h.number for h in hands] == list(range(1, number + 1))
    # Every stored hand is one of the two entries, whole: its wins came with it.
    for hand in Hand.objects.filter(game=game).prefetch_related("wins"):
        assert hand.result in ("ron", "tsumo") and hand.wins.count() == 1

"""Hands at two tables of one event are saved side by side: neither waits for the other.

Table 7's save is held open inside its transaction, after everything it writes and before
it commits; table 8's save must then go through from start to commit, under a lock
timeout that turns any wait for a row table 7 holds (its game's, the event's, a
session's) into an error. Real threads, each with its own PostgreSQL connection.
"""

from __future__ import annotations

import datetime
import threading

import pytest
from django.db import connection

from tournaments import services, trail
from tournaments.models import Event, Hand, Player, Session

pytestmark = pytest.mark.django_db(transaction=True)

DRAW = {"result": "draw", "riichi": [], "tenpai": [0]}
WAIT_SECONDS = 10


@pytest.fixture
def two_tables():
    event = Event.objects.create(name="Room", slug="room", starts_on=datetime.date(2026, 1, 1))
    session = Session.objects.create(event=event, number=1, date=datetime.date(2026, 1, 1))
    games = {}
    for table in (7, 8):
        players = [Player.objects.create(display_name=f"T{table} P{n}") for n in range(4)]
        games[table] = services.create_game(session, players, table_number=table)
    return event, games


def test_a_hand_at_one_table_does_not_wait_for_a_hand_at_another(two_tables, monkeypatch):
    if connection.vendor == "sqlite":
        pytest.skip("SQLite has one lock for the whole database: run with DATABASE_URL=postgres://")
    event, games = two_tables
    play_before = Event.objects.get(pk=event.pk).play_token
    seven_holds, eight_done = threading.Event(), threading.Event()
    errors: dict[int, BaseException] = {}
    write = trail.write

    def write_then_hold(*args, **kwargs):
        entry = write(*args, **kwargs)
        if threading.current_thread().name == "table-7":
            # Everything of table 7's hand is written; its transaction stays open.
            seven_holds.set()
            eight_done.wait(WAIT_SECONDS)
        return entry

    monkeypatch.setattr(trail, "write", write_then_hold)

    def seven():
        try:
            services.add_hand(games[7].pk, 1, DRAW)
        except BaseException as err:  # reported in the main thread
            errors[7] = err
        finally:
            seven_holds.set()
            connection.close()

    def eight():
        try:
            assert seven_holds.wait(WAIT_SECONDS), "table 7 never reached its commit"
            with connection.cursor() as cursor:
                cursor.execute("SET lock_timeout = '2s'")
            services.add_hand(games[8].pk, 1, DRAW)
            # Committed while table 7 is still open.
            assert Hand.objects.filter(game=games[7]).count() == 0
        except BaseException as err:
            errors[8] = err
        finally:
            eight_done.set()
            connection.close()

    threads = [
        threading.Thread(target=seven, name="table-7"),
        threading.Thread(target=eight, name="table-8"),
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert not errors, errors
    assert Hand.objects.filter(game=games[7]).count() == 1
    assert Hand.objects.filter(game=games[8]).count() == 1
    # Both changes showed: the event's play version was replaced after they committed.
    assert Event.objects.get(pk=event.pk).play_token != play_before

"""The filters written once as QuerySet methods: events a user organises (the superuser
rule in one place), finished seats of an event, and the next session and table numbers."""

from __future__ import annotations

import datetime

import pytest
from django.contrib.auth.models import AnonymousUser

from tests.tournaments.builders import final_game
from tournaments.models import Event, Game, GameSeat, Session

pytestmark = pytest.mark.django_db


@pytest.fixture
def two_events(organiser, stranger):
    mine = Event.objects.create(name="Mine", slug="mine", starts_on=datetime.date(2026, 1, 1))
    mine.organisers.add(organiser)
    theirs = Event.objects.create(
        name="Theirs", slug="theirs", starts_on=datetime.date(2026, 1, 1), is_public=False
    )
    theirs.organisers.add(stranger)
    return mine, theirs


def test_a_user_organises_their_own_events_a_superuser_all_a_visitor_none(
    organiser, django_user_model, two_events
):
    mine, theirs = two_events
    root = django_user_model.objects.create_superuser("root", password="x")
    assert list(Event.objects.organised_by(organiser)) == [mine]
    assert set(Event.objects.organised_by(root)) == {mine, theirs}
    assert not Event.objects.organised_by(AnonymousUser()).exists()
    assert mine.is_organiser(organiser) and not theirs.is_organiser(organiser)
    assert theirs.is_organiser(root) and not mine.is_organiser(AnonymousUser())


def test_finished_seats_of_an_event_leave_out_games_going_on_and_other_sessions(two_events):
    mine, _ = two_events
    one = Session.objects.create(event=mine, number=1, date=datetime.date(2026, 1, 1))
    two = Session.objects.create(event=mine, number=2, date=datetime.date(2026, 1, 8))
    final_game(one, ["A", "B", "C", "D"], [40000, 30000, 20000, 10000], 1)
    final_game(two, ["A", "B", "C", "D"], [40000, 30000, 20000, 10000], 1)
    going = final_game(two, ["E", "F", "G", "H"], [40000, 30000, 20000, 10000], 2)
    Game.objects.filter(pk=going.pk).update(status=Game.Status.IN_PROGRESS)
    assert GameSeat.objects.finished_in(mine).count() == 8
    assert GameSeat.objects.finished_in(mine, first_session=2).count() == 4
    assert GameSeat.objects.finished_in(mine, last_session=1).count() == 4


def test_the_next_session_and_table_numbers_follow_the_highest(two_events):
    mine, theirs = two_events
    assert mine.sessions.next_number() == 1
    Session.objects.create(event=mine, number=3, date=datetime.date(2026, 1, 1))
    session = Session.objects.create(event=theirs, number=7, date=datetime.date(2026, 1, 1))
    assert mine.sessions.next_number() == 4
    assert session.games.next_table_number() == 1
    final_game(session, ["A", "B", "C", "D"], [40000, 30000, 20000, 10000], 5)
    assert session.games.next_table_number() == 6

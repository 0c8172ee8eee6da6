"""An event's two versions are replaced once its change commits, in one statement, and
never by a change that is rolled back."""

from __future__ import annotations

import datetime

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from tournaments import versions
from tournaments.models import Event

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def events():
    day = datetime.date(2026, 1, 1)
    return [Event.objects.create(name=f"E{n}", slug=f"e{n}", starts_on=day) for n in range(2)]


def _versions(event) -> tuple[str, str]:
    return tuple(Event.objects.filter(pk=event.pk).values_list("results_token", "play_token")[0])


def test_the_versions_are_replaced_once_the_change_commits(events):
    event = events[0]
    results, play = _versions(event)
    with transaction.atomic():
        versions.changed(event.pk, results=True)
        assert _versions(event) == (results, play)  # not yet: nothing is committed
    after = _versions(event)
    assert after[0] != results and after[1] != play


def test_a_change_of_play_leaves_the_results_version_alone(events):
    event = events[0]
    results, play = _versions(event)
    with transaction.atomic():
        versions.changed(event.pk)
    assert _versions(event)[0] == results and _versions(event)[1] != play


def test_a_change_rolled_back_replaces_nothing(events):
    event = events[0]
    before = _versions(event)
    with pytest.raises(ZeroDivisionError), transaction.atomic():
        versions.changed(event.pk, results=True)
        raise ZeroDivisionError
    assert _versions(event) == before
    with transaction.atomic():
        try:
            with transaction.atomic():
                versions.changed(event.pk, results=True)
                raise ZeroDivisionError
        except ZeroDivisionError:
            pass
        versions.changed(events[1].pk)
    assert _versions(event) == before
    assert _versions(events[1]) != before


def test_many_changes_in_one_transaction_bump_each_version_once(events):
    with CaptureQueriesContext(connection) as queries:
        with transaction.atomic():
            for _ in range(5):
                versions.changed([e.pk for e in events])
            versions.changed(events[0].pk, results=True)
    updates = [q["sql"] for q in queries.captured_queries if q["sql"].startswith("UPDATE")]
    assert len(updates) == 2  # play of both events; results (and play) of the first


def test_outside_a_transaction_the_versions_are_replaced_at_once(events):
    before = _versions(events[0])
    versions.changed(events[0].pk)
    assert _versions(events[0])[1] != before[1]


def test_no_events_no_statement(events):
    with CaptureQueriesContext(connection) as queries:
        versions.changed([])
    assert queries.captured_queries == []


def test_an_event_whose_results_changed_gets_both_versions_in_one_statement(events):
    event = events[0]
    before = _versions(event)
    with CaptureQueriesContext(connection) as queries:
        with transaction.atomic():
            versions.changed(event.pk)
            versions.changed(event.pk, results=True)
    updates = [q["sql"] for q in queries.captured_queries if q["sql"].startswith("UPDATE")]
    assert len(updates) == 1
    after = _versions(event)
    assert after[0] != before[0] and after[1] != before[1]

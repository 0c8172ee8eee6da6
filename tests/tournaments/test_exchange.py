"""An event exported as tenbou-game/1 records and imported into an empty event."""

from __future__ import annotations

import datetime
import io
import json
import random
import zipfile

import pytest

from scoring import score
from scoring.simulate import random_record
from tournaments import exchange, services
from tournaments.models import Event, Game, GameSeat, Session
from tournaments.standings import event_standings

pytestmark = pytest.mark.django_db


@pytest.fixture
def played(event, players):
    """An event with finished and unfinished games of every entry mode, and a penalty."""
    event.rules_overrides = {"kiriage": True}
    event.save()
    rng = random.Random(7)
    one = Session.objects.create(event=event, number=1, date=datetime.date(2026, 9, 3))
    two = Session.objects.create(event=event, number=2, date=datetime.date(2026, 9, 10))
    for table in (1, 2, 3):
        doc = random_record(rng, event.rules_spec())
        services.create_game_from_record(one, doc, players, table_number=table)
    doc = random_record(rng, event.rules_spec(), complete=False)
    services.create_game_from_record(two, doc, players[::-1], table_number=1)
    final = {
        "format": "tenbou-game/1",
        "rules": "ari-ari",
        "players": [],
        "final_scores": [41300, 24900, 20800, 12000],
        "leftover_sticks": 1,
        "penalties": [{"seat": 2, "match_points": -2.5, "reason": "slow play"}],
    }
    services.create_game_from_record(two, final, players, table_number=2)
    return event


def results(event):
    return list(
        GameSeat.objects.filter(game__session__event=event)
        .order_by("game__session__number", "game__table_number", "seat")
        .values_list(
            "game__session__number",
            "game__table_number",
            "game__status",
            "player__display_name",
            "score",
            "placement",
            "match_points",
            "penalty_points",
        )
    )


def test_an_exported_event_imports_into_an_empty_event_with_identical_results(played):
    data = json.loads(json.dumps(exchange.export_event(played)))  # through real JSON
    copy = Event.objects.create(name="Copy", slug="copy", starts_on=played.starts_on)
    assert exchange.import_event(copy, data) == 5
    copy.refresh_from_db()
    assert copy.rules_spec() == played.rules_spec()
    assert results(copy) == results(played)
    assert [(r.player, r.match_points) for r in event_standings(copy).rows] == [
        (r.player, r.match_points) for r in event_standings(played).rows
    ]
    assert Game.objects.filter(session__event=copy, status="in_progress").count() == 1


def test_every_exported_record_scores_on_its_own_with_the_engine(played):
    for game in exchange.export_event(played)["games"]:
        result = score(game["record"])
        stored = Game.objects.get(
            session__event=played, session__number=game["session"], table_number=game["table"]
        )
        if result["finished"]:
            assert result["final_scores"] == [s.score for s in stored.ordered_seats()]


def test_the_zip_export_holds_one_record_per_game(played):
    archive = zipfile.ZipFile(io.BytesIO(exchange.export_zip(played)))
    names = archive.namelist()
    assert len(names) == 5 and names[0] == "thursday/s01-t01-001.json"
    assert json.loads(archive.read(names[-1]))["final_scores"] == [41300, 24900, 20800, 12000]


def test_an_import_into_an_event_with_sessions_is_refused(played):
    with pytest.raises(exchange.ImportRefused, match="empty event"):
        exchange.import_event(played, exchange.export_event(played))


def test_a_damaged_export_is_refused_and_leaves_the_event_empty(played):
    data = exchange.export_event(played)
    data["games"][2]["record"]["hands"][0]["result"] = "win"
    copy = Event.objects.create(name="Copy", slug="copy", starts_on=played.starts_on)
    with pytest.raises(exchange.ImportRefused, match="unknown result 'win'"):
        exchange.import_event(copy, data)
    assert not copy.sessions.exists()
    copy.refresh_from_db()
    assert copy.rules_spec() == "ari-ari"


def test_something_that_is_not_an_export_is_refused(event):
    with pytest.raises(exchange.ImportRefused, match="not a Tenbou event export"):
        exchange.import_event(event, [{"format": "tenbou-game/1"}])

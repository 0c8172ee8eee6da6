"""An event exported as tenbou-game/1 records and imported into an empty event."""

from __future__ import annotations

import datetime
import io
import json
import random
import re
import zipfile
from types import SimpleNamespace

import pytest
from django.core.management import CommandError, call_command

from scoring import score
from scoring.simulate import random_record
from tests.tournaments.builders import small_league
from tournaments import exchange, services
from tournaments.models import Event, Game, GameSeat, Player, Session
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


# A large import: checked whole first, written in batches, taken back whole if a write fails.


def league_export(organiser, games: int) -> dict:
    """The small league's export with its first game `games` times over (final scores)."""
    data = json.loads(json.dumps(exchange.export_event(small_league(organiser, slug="src"))))
    one = data["games"][0]
    data["games"] = [{**one, "table": 1 + index % 500} for index in range(games)]
    return data


@pytest.fixture
def empty(organiser):
    event = Event.objects.create(
        name="Copy", slug="copy", starts_on=datetime.date(2026, 1, 1), rules_preset="ema"
    )
    event.organisers.add(organiser)
    return event


def test_an_import_writes_everything_in_one_transaction(organiser, empty, monkeypatch):
    data = league_export(organiser, 5)
    opened = []
    real_atomic = exchange.transaction.atomic

    def counting_atomic(*args, **kwargs):
        opened.append(1)
        return real_atomic(*args, **kwargs)

    # The transactions the import itself opens (those of services nest inside them).
    monkeypatch.setattr(exchange, "transaction", SimpleNamespace(atomic=counting_atomic))
    assert exchange.import_event(empty, data) == 5
    assert len(opened) == 1
    assert Game.objects.filter(session__event=empty).count() == 5


def test_an_import_past_its_time_limit_is_taken_back_and_refused(organiser, empty, monkeypatch):
    data = league_export(organiser, 50)
    clock = iter(range(0, 1000, 1))
    # One second passes per look at the clock: the limit of 10 s is passed at game 10.
    monkeypatch.setattr(exchange.time, "monotonic", lambda: next(clock))

    with pytest.raises(exchange.ImportRefused) as refused:
        exchange.import_event(empty, data, time_limit=10)

    assert str(refused.value).startswith(
        "it takes longer than 10 seconds to write on this server (10 of 50 games written), "
        "and nothing was kept."
    )
    assert not Session.objects.filter(event=empty).exists()
    assert not Game.objects.filter(session__event=empty).exists()
    empty.refresh_from_db()
    assert (empty.rules_preset, empty.rules_overrides) == ("ema", {})


@pytest.mark.slow
def test_a_write_that_fails_late_takes_back_the_whole_import(organiser, empty, monkeypatch):
    data = league_export(organiser, 250)
    data["games"][-1]["record"] = {**data["games"][-1]["record"], "players": list("WXYZ")}
    players_before = set(Player.objects.values_list("pk", flat=True))
    written = []
    real_create = services.create_game_from_record

    def failing_create(*args, **kwargs):
        if len(written) == 230:
            raise services.GameChangeRefused("table 42 was taken meanwhile")
        written.append(1)
        return real_create(*args, **kwargs)

    monkeypatch.setattr(exchange.services, "create_game_from_record", failing_create)
    with pytest.raises(exchange.ImportRefused) as refused:
        # No time limit: the failure tested is the write's, however busy the machine.
        exchange.import_event(empty, data, time_limit=0)

    assert str(refused.value) == (
        "the export could not be written, and nothing was kept: table 42 was taken meanwhile"
    )
    assert len(written) == 230
    assert not Session.objects.filter(event=empty).exists()
    assert not Game.objects.filter(session__event=empty).exists()
    assert set(Player.objects.values_list("pk", flat=True)) == players_before
    empty.refresh_from_db()
    assert (empty.rules_preset, empty.rules_overrides) == ("ema", {})


def test_a_bad_game_late_in_the_export_is_refused_before_anything_is_written(
    organiser, empty, monkeypatch
):
    data = league_export(organiser, 1500)
    data["games"][1400]["record"] = {
        **data["games"][1400]["record"],
        "final_scores": [41300, 24900, 21800, 13000],
    }
    monkeypatch.setattr(
        exchange.services,
        "create_game_from_record",
        lambda *a, **k: pytest.fail("a game was written before the whole export was checked"),
    )
    with pytest.raises(exchange.ImportRefused, match="game 1401: the final scores add up to"):
        exchange.import_event(empty, data)
    assert not Session.objects.filter(event=empty).exists()
    empty.refresh_from_db()
    assert empty.rules_preset == "ema"


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d["sessions"].append(dict(d["sessions"][0])), "session 1 is listed twice"),
        (lambda d: d["sessions"][0].update(number=0), "sessions go from 1 to 10,000"),
        (lambda d: d["sessions"][0].update(date="soon"), "has no date (YYYY-MM-DD)"),
        (lambda d: d["games"][3].update(table=10**30), "game 4 has table"),
        (lambda d: d["games"][3].update(session=[1]), "game 4 names session [1], not listed"),
        (
            lambda d: d["games"][3]["record"].update(players=["A", "A", "B", "C"]),
            "game 4 seats one player twice",
        ),
        (
            lambda d: [g.update(source_id="2019-log") for g in d["games"][2:4]],
            "game 4 is the log 2019-log of game 3 again",
        ),
    ],
)
def test_a_damaged_export_is_refused_with_the_reason_and_nothing_written(
    organiser, empty, change, message
):
    data = league_export(organiser, 5)
    data["games"] = [json.loads(json.dumps(g)) for g in data["games"]]
    change(data)
    with pytest.raises(exchange.ImportRefused, match=re.escape(message)):
        exchange.import_event(empty, data)
    assert not Session.objects.filter(event=empty).exists()


def test_the_import_event_command_imports_without_the_time_limit(
    organiser, empty, tmp_path, settings
):
    settings.IMPORT_TIME_LIMIT = 1e-9
    path = tmp_path / "export.json"
    path.write_text(json.dumps(league_export(organiser, 5)))
    out = io.StringIO()

    call_command("import_event", "copy", str(path), stdout=out)

    assert out.getvalue().strip() == "Imported 5 games into Copy."
    assert Game.objects.filter(session__event=empty).count() == 5
    with pytest.raises(CommandError, match="Nothing was imported: an event export goes into an"):
        call_command("import_event", "copy", str(path))

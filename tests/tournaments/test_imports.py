"""Importing Tenhou logs: checked against the log, one transaction per game, once each."""

from __future__ import annotations

import datetime
import gzip
import json
from pathlib import Path

import pytest
from django.core.management import call_command
from django.db.models import QuerySet

from tenhou import convert_file
from tournaments import imports, services
from tournaments.models import Event, Game, Hand, Player, Session

pytestmark = pytest.mark.django_db

SAMPLES = Path(__file__).resolve().parents[1] / "data" / "tenhou"
LOGS = sorted(SAMPLES.glob("*.json")) + sorted(SAMPLES.glob("*.xml"))


@pytest.fixture
def online(organiser):
    event = Event.objects.create(
        name="Online League",
        slug="online",
        starts_on=datetime.date(2026, 1, 1),
        rules_preset="tenhou",
    )
    event.organisers.add(organiser)
    return event


@pytest.fixture
def online_session(online):
    return Session.objects.create(event=online, number=1, date=datetime.date(2026, 1, 8))


def import_path(session, path, *, data=None, create=True):
    check = imports.check_log(session.event, path.name, data or path.read_bytes())
    players = imports.resolve_players(check, {}, create_unknown=create)
    return imports.import_game(
        session, check, players, table_number=session.games.next_table_number()
    )


@pytest.mark.parametrize("path", LOGS, ids=lambda p: p.name)
def test_every_sample_log_imports_with_the_logs_own_final_scores(online_session, path):
    game = import_path(online_session, path)
    expected = convert_file(path)
    assert game.status == Game.Status.FINISHED
    assert [s.score for s in game.ordered_seats()] == expected.final_scores
    assert [s.player.display_name for s in game.ordered_seats()] == expected.players
    assert game.hands.count() == len(expected.hand_deltas)
    assert game.source_id == expected.log_id


def test_a_log_with_altered_point_changes_is_refused_naming_the_hand(online_session):
    path = SAMPLES / "2019123123gm-00a9-0000-f4386d0e.json"
    doc = json.loads(path.read_text())
    # Hand 3 of this log: seat 1 rons seat 3 for 1,500. Claim 2,000 was paid instead.
    doc["log"][2][-1][1] = [0, 2000, 0, -2000]
    doc["log"][3][1] = [32700, 27000, 19600, 20700]
    check = imports.check_log(online_session.event, path.name, json.dumps(doc).encode())
    assert not check.importable
    assert any(p.startswith("hand 3: the engine pays [0, 1500, 0, -1500]") for p in check.problems)
    with pytest.raises(services.GameChangeRefused, match="hand 3"):
        imports.import_game(online_session, check, ["A", "B", "C", "D"], table_number=1)
    assert not Game.objects.exists() and not Player.objects.exists()


def test_the_same_log_is_not_imported_twice_even_in_the_other_format(online_session):
    import_path(online_session, SAMPLES / "2019021004gm-00a9-0000-e2f6516d.json")
    check = imports.check_log(
        online_session.event,
        "2019021004gm-00a9-0000-e2f6516d.xml",
        (SAMPLES / "2019021004gm-00a9-0000-e2f6516d.xml").read_bytes(),
    )
    assert any("already imported" in p for p in check.problems)
    assert Game.objects.count() == 1


def test_a_gzip_compressed_log_imports(online_session):
    path = SAMPLES / "2023053016gm-0029-0000-e54b3b98.xml"
    game = import_path(online_session, path, data=gzip.compress(path.read_bytes()))
    assert [s.score for s in game.ordered_seats()] == [53800, 16100, 29300, 800]


@pytest.mark.parametrize(
    "data, message",
    [
        (b"hello", "not a Tenhou log: neither JSON nor XML"),
        (b"", "not a Tenhou log: it is empty"),
        ((SAMPLES / "2019021004gm-00a9-0000-e2f6516d.json").read_bytes()[:900], "truncated log"),
        ((SAMPLES / "2019021004gm-00a9-0000-e2f6516d.xml").read_bytes()[:900], "truncated log"),
    ],
)
def test_a_bad_file_gives_a_clear_reason_and_stores_nothing(online_session, data, message):
    check = imports.check_log(online_session.event, "bad.log", data)
    assert not check.importable
    assert message in check.problems[0]
    assert not Game.objects.exists()


def test_a_three_player_log_is_refused_by_a_four_player_event(online_session):
    path = SAMPLES.parent / "tenhou-sanma" / "2024070112gm-00b9-0000-3a5c7e11.json"
    check = imports.check_log(online_session.event, "sanma.json", path.read_bytes())
    assert not check.importable
    assert check.problems == [
        "This log is of a three-player game; this event plays four-player games (rules preset "
        "tenhou). Import it into a three-player event, such as one with the tenhou-sanma preset."
    ]
    assert not Game.objects.exists()


def test_a_log_the_events_rules_settle_differently_is_refused(organiser):
    # Tenhou's rules changed to play no abortive draws; this log has a nine-terminals abort
    # in hand 2.
    event = Event.objects.create(
        name="No aborts",
        slug="no-aborts",
        starts_on=datetime.date(2026, 1, 1),
        rules_preset="tenhou",
        rules_overrides={"abortive_draws": False},
    )
    path = SAMPLES / "2019080322gm-00a9-0000-81e85e04.json"
    check = imports.check_log(event, path.name, path.read_bytes())
    assert check.problems == [
        "the rules of this event cannot settle it: hand 2: abortive draws are not played "
        "under these rules"
    ]


def test_unknown_names_need_a_decision_and_close_names_are_suggested(online_session):
    Player.objects.create(display_name="hn-koda")
    path = SAMPLES / "2019021004gm-00a9-0000-e2f6516d.json"
    check = imports.check_log(online_session.event, path.name, path.read_bytes())
    assert [m.exact for m in check.names] == [False, False, False, False]
    assert [p.display_name for p in check.names[1].suggestions] == ["hn-koda"]
    with pytest.raises(services.GameChangeRefused, match="no player is called"):
        imports.resolve_players(check, {}, create_unknown=False)
    koda = Player.objects.get(display_name="hn-koda")
    seated = imports.resolve_players(check, {1: str(koda.pk)}, create_unknown=True)
    game = imports.import_game(online_session, check, seated, table_number=1)
    assert game.seats.get(seat=1).player == koda
    assert Player.objects.count() == 4


def test_the_command_imports_files_prints_a_line_each_and_a_summary(online_session, capsys):
    files = [
        str(SAMPLES / "2019021004gm-00a9-0000-e2f6516d.json"),
        str(SAMPLES / "2019080322gm-00a9-0000-81e85e04.xml"),
    ]
    call_command("import_logs", "online", "2", *files, "--create-players")
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "Created session 2 of Online League."
    assert out[1].startswith("imported ") and "table 1" in out[1] and "47,800" in out[1]
    assert out[2].startswith("imported ") and "table 2" in out[2]
    assert out[3] == "2 imported, 0 failed."
    assert Game.objects.filter(session__number=2).count() == 2


def test_the_command_exits_1_when_a_file_fails_and_keeps_the_others(
    online_session, capsys, tmp_path
):
    bad = tmp_path / "broken.json"
    bad.write_text('{"log": [')
    good = SAMPLES / "2019103023gm-00a9-0000-f90e0fe9.json"
    with pytest.raises(SystemExit) as exit_:
        call_command(
            "import_logs", "online", "1", str(bad), str(good), str(good), "--create-players"
        )
    assert exit_.value.code == 1
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith(f"FAILED {bad}: truncated log")
    assert out[1].startswith(f"imported {good} (Tenhou, South game, 鳳南喰赤)")
    assert out[2].startswith(f"FAILED {good} (Tenhou, South game, 鳳南喰赤): already imported")
    assert out[3] == "1 imported, 2 failed."
    assert Game.objects.count() == 1 and Hand.objects.count() == 7


def test_the_command_refuses_unknown_names_without_create_players(online_session, capsys):
    with pytest.raises(SystemExit):
        call_command("import_logs", "online", "1", str(LOGS[0]))
    out = capsys.readouterr().out
    assert "no player is called" in out and "0 imported, 1 failed." in out
    assert not Player.objects.exists()


def test_the_command_names_an_unknown_event():
    with pytest.raises(Exception, match="No event with the slug 'nope'"):
        call_command("import_logs", "nope", "1", str(LOGS[0]))


def upload(client, event, *paths, session="0"):
    files = [open(p, "rb") for p in paths]  # noqa: SIM115 - closed below
    try:
        return client.post(
            f"/events/{event.slug}/import/",
            {"files": files, "session": session, "new_session_date": "2026-02-01"},
        )
    finally:
        for f in files:
            f.close()


def test_the_import_page_checks_uploads_then_imports_what_the_organiser_confirms(
    client, organiser, online
):
    client.force_login(organiser)
    assert client.get(f"/events/{online.slug}/import/").status_code == 200
    good = SAMPLES / "2019123123gm-00a9-0000-f4386d0e.json"
    bad = SAMPLES / "2019123123gm-00a9-0000-f4386d0e.xml"  # the same game again
    response = upload(client, online, good, bad)
    assert response.status_code == 302
    preview = client.get(response.url)
    text = preview.content.decode()
    assert "1 of 2 logs can be" in text
    assert "the same game as 2019123123gm-00a9-0000-f4386d0e.json in this upload" in text
    assert "ハス太" in text and "38,800" in text
    assert not Game.objects.exists()  # nothing is stored before the confirmation
    # What the browser sends: the checked game, and "new player" for each unknown name.
    choices = {f"player-0-{seat}": "new" for seat in range(4)}
    response = client.post(response.url, {"import-0": "on", "import-1": "on", **choices})
    assert response.status_code == 302
    assert Game.objects.count() == 1
    session = Session.objects.get(event=online)
    assert (session.number, session.date) == (1, datetime.date(2026, 2, 1))
    assert response.url == session.get_absolute_url()
    game = Game.objects.get()
    assert [s.score for s in game.ordered_seats()] == [38800, 18600, 27600, 15000]
    assert "Imported 1 game into" in client.get(response.url).content.decode()


def test_an_unknown_name_left_without_a_choice_is_asked_again(client, organiser, online):
    Player.objects.create(display_name="ハス")  # close to ハス太, so a choice is required
    client.force_login(organiser)
    response = upload(client, online, SAMPLES / "2019123123gm-00a9-0000-f4386d0e.json")
    again = client.post(response.url, {"import-0": "on", "player-0-0": ""})
    assert again.status_code == 200
    assert "no player is called" in again.content.decode()
    assert not Game.objects.exists()


def test_the_import_page_shows_each_bad_file_with_its_reason(client, organiser, online, tmp_path):
    client.force_login(organiser)
    junk = tmp_path / "notes.txt"
    junk.write_text("not a log")
    response = upload(client, online, junk)
    preview = client.get(response.url)
    assert "not a Tenhou log: neither JSON nor XML" in preview.content.decode()
    assert "0 of 1 log" in preview.content.decode()


def test_only_organisers_may_import(client, online, stranger):
    path = SAMPLES / "2019123123gm-00a9-0000-f4386d0e.json"
    assert client.get(f"/events/{online.slug}/import/").status_code == 302  # to log in
    client.force_login(stranger)
    assert client.get(f"/events/{online.slug}/import/").status_code == 403
    assert upload(client, online, path).status_code == 403
    assert not Game.objects.exists()


def test_an_upload_without_files_says_so(client, organiser, online):
    client.force_login(organiser)
    response = client.post(f"/events/{online.slug}/import/", {"session": "0"})
    assert response.status_code == 200
    assert "This field is required" in response.content.decode()


def test_the_event_page_offers_the_log_import_to_organisers_only(client, organiser, online):
    link = f'href="/events/{online.slug}/import/"'
    assert link not in client.get(f"/events/{online.slug}/").content.decode()
    client.force_login(organiser)
    assert link in client.get(f"/events/{online.slug}/").content.decode()


def test_a_log_imported_by_someone_else_meanwhile_is_refused_cleanly(online_session, monkeypatch):
    path = SAMPLES / "2019021004gm-00a9-0000-e2f6516d.json"
    check = imports.check_log(online_session.event, path.name, path.read_bytes())
    players = imports.resolve_players(check, {}, create_unknown=True)
    imports.import_game(online_session, check, players, table_number=1)
    # Another import that raced past the early check: only the database can stop it.
    monkeypatch.setattr(QuerySet, "exists", lambda self: False)
    with pytest.raises(services.GameChangeRefused, match="imported already"):
        imports.import_game(online_session, check, players, table_number=2)
    monkeypatch.undo()
    assert Game.objects.count() == 1
    assert Hand.objects.filter(game__table_number=2).count() == 0

"""The log import under hostile use: uploads wait in a table (one pending import a user,
a size quota, an expiry), never in the web session; a log id is unique within an event
only, so nobody can claim another event's game, and another event's name is shown only to
those who may read it; a forged player choice is refused with a message."""

from __future__ import annotations

import datetime
import json

import pytest
from django.contrib.sessions.models import Session as WebSession
from django.core.files.uploadedfile import SimpleUploadedFile
from django.utils import timezone

from tournaments import imports, services
from tournaments.models import Event, Game, PendingImport, Player, Session
from tournaments.views.imports import PENDING_IMPORT_QUOTA

from .test_imports import SAMPLES, import_path

pytestmark = pytest.mark.django_db

GAME = SAMPLES / "2019123123gm-00a9-0000-f4386d0e.json"
LOG_ID = "2019123123gm-00a9-0000-f4386d0e"


def make_event(slug: str, owner, *, is_public=True) -> Event:
    event = Event.objects.create(
        name=f"Event {slug}",
        slug=slug,
        starts_on=datetime.date(2026, 1, 1),
        rules_preset="tenhou",
        is_public=is_public,
    )
    event.organisers.add(owner)
    return event


@pytest.fixture
def mine(organiser):
    return make_event("mine", organiser)


@pytest.fixture
def theirs(stranger):
    return make_event("theirs", stranger)


def post_files(client, event, files):
    return client.post(
        f"/events/{event.slug}/import/",
        {"files": files, "session": "0", "new_session_date": "2026-02-01"},
    )


def sample_files(count: int):
    data = GAME.read_bytes()
    return [SimpleUploadedFile(f"log-{i:02d}.json", data) for i in range(count)]


def largest_session_row() -> int:
    rows = WebSession.objects.values_list("session_data", flat=True)
    return max((len(data) for data in rows), default=0)


# Stored uploads


@pytest.mark.slow
def test_two_uploads_of_sixty_files_keep_the_web_session_small_and_one_pending_import(
    client, organiser, mine
):
    client.force_login(organiser)
    first = post_files(client, mine, sample_files(60))
    assert first.status_code == 302
    second = post_files(client, mine, sample_files(60))
    assert second.status_code == 302
    assert WebSession.objects.exists()
    assert largest_session_row() < 10 * 1024
    pending = PendingImport.objects.get(user=organiser)
    assert len(pending.logs) == 60
    assert pending.logs[0]["game"]["log_id"] == LOG_ID  # converted once, kept converted
    # The second upload replaced the first: its address has gone.
    assert client.get(first.url).status_code == 404
    assert client.get(second.url).status_code == 200


def test_uploads_over_the_quota_are_refused_and_nothing_waits(client, organiser, mine):
    client.force_login(organiser)
    each = 1_900_000
    count = PENDING_IMPORT_QUOTA // each + 1
    files = [SimpleUploadedFile(f"big-{i}.json", b" " * each) for i in range(count)]
    response = post_files(client, mine, files)
    assert response.status_code == 200
    text = response.content.decode()
    assert "upload at most 12 MB of logs at a time" in text
    assert not PendingImport.objects.exists()


def test_an_expired_import_is_gone_and_old_ones_are_cleaned_on_the_next_upload(
    client, organiser, stranger, mine, theirs
):
    client.force_login(stranger)
    old = post_files(client, theirs, sample_files(1))
    PendingImport.objects.filter(user=stranger).update(
        expires_at=timezone.now() - datetime.timedelta(minutes=1)
    )
    response = client.get(old.url)
    assert response.status_code == 404
    client.force_login(organiser)
    post_files(client, mine, sample_files(1))
    assert list(PendingImport.objects.values_list("user", flat=True)) == [organiser.pk]


def test_another_users_pending_import_cannot_be_opened(client, organiser, stranger, mine):
    mine.organisers.add(stranger)
    client.force_login(organiser)
    response = post_files(client, mine, sample_files(1))
    client.force_login(stranger)
    assert client.get(response.url).status_code == 404
    assert client.post(response.url, {"import-0": "on"}).status_code == 404
    assert not Game.objects.exists()


# Log ids per event


def test_a_log_in_a_private_event_is_not_named_to_a_stranger_who_previews_it(
    client, organiser, stranger, theirs
):
    private = make_event("hidden", organiser, is_public=False)
    hidden = Session.objects.create(event=private, number=1, date=datetime.date(2026, 1, 8))
    import_path(hidden, GAME)
    client.force_login(stranger)
    response = post_files(client, theirs, sample_files(1))
    preview = client.get(response.url)
    text = preview.content.decode()
    assert preview.status_code == 200
    assert "Event hidden" not in text and "already imported" not in text
    assert "1 of 1 log can be" in text
    # And the stranger imports the game into their own event all the same.
    choices = {f"player-0-{seat}": "new" for seat in range(4)}
    done = client.post(response.url, {"import-0": "on", **choices})
    assert done.status_code == 302
    assert Game.objects.filter(source_id=LOG_ID).count() == 2
    assert Game.objects.get(session__event=theirs).source_event == theirs


def test_a_reader_of_the_other_event_is_told_the_log_is_there_too(organiser, mine):
    other = make_event("other", organiser)
    import_path(Session.objects.create(event=other, number=1, date=datetime.date(2026, 1, 8)), GAME)
    check = imports.check_log(mine, GAME.name, GAME.read_bytes(), user=organiser)
    assert check.importable
    assert check.notes == ["Also imported into Event other."]


def test_a_log_already_in_this_event_is_refused(organiser, mine):
    session = Session.objects.create(event=mine, number=1, date=datetime.date(2026, 1, 8))
    import_path(session, GAME)
    check = imports.check_log(mine, GAME.name, GAME.read_bytes(), user=organiser)
    assert not check.importable
    assert check.problems == ["already imported into this event as " + str(Game.objects.get())]
    with pytest.raises(services.GameChangeRefused, match="already imported into this event"):
        imports.import_game(session, check, ["A", "B", "C", "D"], table_number=2)
    assert Game.objects.count() == 1


def test_a_claimed_log_id_does_not_stop_another_events_import(organiser, stranger, mine, theirs):
    # Someone puts a real game's id on another game's log and imports it first.
    forged = json.loads((SAMPLES / "2019021004gm-00a9-0000-e2f6516d.json").read_text())
    forged["ref"] = LOG_ID
    claim = imports.check_log(theirs, "forged.json", json.dumps(forged).encode(), user=stranger)
    assert claim.log_id == LOG_ID
    session = Session.objects.create(event=theirs, number=1, date=datetime.date(2026, 1, 8))
    imports.import_game(
        session, claim, imports.resolve_players(claim, {}, create_unknown=True), table_number=1
    )
    real = Session.objects.create(event=mine, number=1, date=datetime.date(2026, 1, 8))
    game = import_path(real, GAME)
    assert game.source_id == LOG_ID and game.source_event == mine


def test_a_ref_that_is_not_a_log_id_is_not_taken_as_one(mine):
    doc = json.loads(GAME.read_text())
    doc["ref"] = "../../anything"
    check = imports.check_log(mine, "upload.json", json.dumps(doc).encode())
    assert check.log_id == ""
    check = imports.check_log(mine, f"{LOG_ID}.json", json.dumps(doc).encode())
    assert check.log_id == LOG_ID


# A forged choice


@pytest.mark.parametrize("choice", ["abc", "1.5", "-3", "9" * 30, "١٢"])
def test_a_player_choice_that_is_not_a_player_is_refused_with_a_message(
    client, organiser, mine, choice
):
    Player.objects.create(display_name="ハス")  # close to a name in the log: a choice is asked
    client.force_login(organiser)
    response = post_files(client, mine, sample_files(1))
    again = client.post(response.url, {"import-0": "on", "player-0-0": choice})
    assert again.status_code == 200
    text = again.content.decode()
    assert "is not in the list; choose a player from the list or a new one." in text
    assert not Game.objects.exists()
    assert not Session.objects.filter(event=mine).exists()

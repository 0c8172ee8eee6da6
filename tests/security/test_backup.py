"""A backup restores to an identical site: every standings number, game and login."""

from __future__ import annotations

import datetime
import io
import json

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.core.management import CommandError, call_command
from django.urls import reverse
from django.utils import timezone

from tests.tournaments.builders import small_league, tied_event
from tournaments import services, totals
from tournaments.models import (
    Event,
    Game,
    GameSeat,
    Hand,
    Penalty,
    Player,
    RosterEntry,
    TrailEntry,
)

pytestmark = pytest.mark.django_db


def site_picture(client) -> dict:
    """Everything a reader sees of every event, as exported numbers, plus the stored rows."""
    cache.clear()
    picture = {}
    for event in Event.objects.order_by("slug"):
        for page in ("standings", "results"):
            address = reverse(f"tournaments:{page}", args=[event.slug])
            response = client.get(address, {"_export": "json"})
            assert response.status_code == 200
            rows = json.loads(response.content)
            for row in rows:
                row.pop("Game", None)  # the database's own id, new in a restored site
            picture[f"{event.slug} {page}"] = rows
        picture[f"{event.slug} sessions"] = sorted(
            event.sessions.values_list("number", "date", "title", "clock_minutes", "clock_ends_at")
        )
        picture[f"{event.slug} event"] = (
            event.name,
            event.rules_spec(),
            event.is_public,
            sorted(event.organisers.values_list("username", flat=True)),
            sorted(
                event.roster.values_list("player__display_name", "withdrawn_from", "is_substitute")
            ),
        )
    picture["games"] = sorted(
        (
            g.session.event.slug,
            g.session.number,
            g.table_number,
            g.status,
            g.ended_by,
            g.ended_early,
            g.locked,
            g.source_id,
            g.hands.count(),
            tuple(
                (s.player.display_name, s.score, s.placement, s.match_points, s.is_substitute)
                for s in g.ordered_seats()
            ),
        )
        for g in Game.objects.select_related("session__event")
    )
    picture["trail"] = sorted(
        repr(
            (
                t.event.slug,
                t.game and (t.game.session.number, t.game.table_number),
                t.session_number,
                t.table_number,
                t.hand_number,
                t.kind,
                t.user and t.user.username,
                t.author,
                json.dumps(t.before, sort_keys=True, default=str),
                json.dumps(t.after, sort_keys=True, default=str),
                t.at,
            )
        )
        for t in TrailEntry.objects.select_related("event", "game__session", "user")
    )
    picture["hands"] = sorted(
        (h.game.session.event.slug, h.game.session.number, h.game.table_number, h.number)
        + (h.result, h.dealer, json.dumps(h.deltas))
        for h in Hand.objects.select_related("game__session__event")
    )
    picture["penalties"] = sorted(
        (p.game.session.event.slug, p.seat, p.match_points, p.reason) for p in Penalty.objects.all()
    )
    picture["players"] = sorted(
        (p.display_name, p.real_name, p.ema_number, p.active, p.user and p.user.username)
        for p in Player.objects.all()
    )
    picture["users"] = sorted(
        (u.username, u.email, u.is_staff, u.is_superuser, u.is_active)
        for u in get_user_model().objects.all()
    )
    return picture


def wipe() -> None:
    Event.objects.all().delete()
    Player.objects.all().delete()
    get_user_model().objects.all().delete()


@pytest.fixture
def full_site(organiser, django_user_model):
    call_command("demo", "--force", stdout=open("/dev/null", "w"))
    league = small_league(organiser)
    tied_event()
    small_league(organiser, slug="hidden", is_public=False)
    helper = django_user_model.objects.create_user(
        "helper", email="helper@example.org", password="helper-long-password"
    )
    league.organisers.add(helper)
    services.add_names_to_roster(league.pk, ["A", "B", "C", "D", "E"], create=False)
    services.withdraw_from_roster(league.pk, Player.objects.get(display_name="E").pk, 2)
    services.set_substitute(league.pk, Player.objects.get(display_name="D").pk, True)
    aki = Player.objects.get(display_name="A")
    aki.user = helper
    aki.save()
    GameSeat.objects.filter(game__session__event=league, player__display_name="B").update(
        is_substitute=True
    )
    going = (
        Game.objects.in_progress()
        .filter(entry_mode=Game.EntryMode.HANDS, hands__isnull=False)
        .distinct()
        .first()
    )
    services.call_time(going.pk)
    Game.objects.filter(pk=going.pk).update(locked=True)
    services.add_penalty(going.pk, 1, -5, "Slow play", actor=None)
    league.sessions.filter(number=1).update(
        clock_minutes=90, clock_ends_at=timezone.now() + datetime.timedelta(minutes=30)
    )
    # Substitutes marked around the services: the event's totals are counted again.
    totals.results_changed(league.pk)
    assert Hand.objects.exists() and Penalty.objects.exists() and RosterEntry.objects.exists()
    assert TrailEntry.objects.exists()
    return league


def test_a_backup_restores_to_an_identical_site(client, full_site, tmp_path, organiser):
    client.force_login(organiser)
    organiser.is_superuser = True  # reads the private events too
    organiser.save()
    before = site_picture(client)
    path = tmp_path / "site.json"

    call_command("backup", str(path), stdout=open("/dev/null", "w"))
    wipe()
    assert not Game.objects.exists()
    call_command("restore", str(path), stdout=open("/dev/null", "w"))

    restored = get_user_model().objects.get(username="organiser")
    assert not restored.has_usable_password()  # no hashes unless asked
    client.force_login(restored)
    assert site_picture(client) == before


def test_a_backup_leaves_out_password_hashes_unless_asked(full_site, tmp_path):
    plain, secret = tmp_path / "plain.json", tmp_path / "secret.json"

    call_command("backup", str(plain), stdout=open("/dev/null", "w"))
    call_command("backup", str(secret), "--with-passwords", stdout=open("/dev/null", "w"))

    assert "pbkdf2" not in plain.read_text() and "md5$" not in plain.read_text()
    users = json.loads(secret.read_text())["users"]
    assert all(user["password"] for user in users)
    assert oct(secret.stat().st_mode & 0o777) == "0o600"


def test_a_restore_with_passwords_lets_everyone_log_in_again(full_site, tmp_path, client):
    path = tmp_path / "secret.json"
    call_command("backup", str(path), "--with-passwords", stdout=open("/dev/null", "w"))
    wipe()

    call_command("restore", str(path), stdout=open("/dev/null", "w"))

    response = client.post(
        "/accounts/login/", {"username": "helper", "password": "helper-long-password"}
    )
    assert response.status_code == 302


def test_a_restore_into_a_database_with_data_is_refused(full_site, tmp_path):
    path = tmp_path / "site.json"
    call_command("backup", str(path), stdout=open("/dev/null", "w"))
    games = Game.objects.count()

    with pytest.raises(CommandError, match="the database is not empty"):
        call_command("restore", str(path))

    assert Game.objects.count() == games


def test_a_damaged_backup_restores_nothing(full_site, tmp_path):
    path = tmp_path / "site.json"
    call_command("backup", str(path), stdout=open("/dev/null", "w"))
    data = json.loads(path.read_text())
    data["events"][-1]["games"][0]["record"]["final_scores"] = [1, 2, 3, "x"]
    path.write_text(json.dumps(data))
    wipe()

    with pytest.raises(CommandError, match="Nothing was restored from .*: event"):
        call_command("restore", str(path))

    assert not Event.objects.exists() and not Player.objects.exists()
    assert not get_user_model().objects.exists()


@pytest.mark.parametrize(
    "content, message",
    [
        ("not json", "is not a Tenbou backup: it is not JSON"),
        ('{"format": "tenbou-event/1"}', "this is not a Tenbou backup"),
        ("[" * 100_000, "is not a Tenbou backup: it is not JSON"),
    ],
)
def test_a_file_that_is_not_a_backup_is_refused(tmp_path, content, message):
    path = tmp_path / "other.json"
    path.write_text(content)

    with pytest.raises(CommandError, match=message):
        call_command("restore", str(path))

    assert not Event.objects.exists()


def test_a_backup_to_standard_output_is_the_same_json(full_site):
    out = io.StringIO()

    call_command("backup", "-", stdout=out)

    data = json.loads(out.getvalue())
    assert data["format"] == "tenbou-backup/1"
    assert {event["slug"] for event in data["events"]} >= {"league", "hidden", "split"}
    assert "password" not in data["users"][0]


def test_a_backup_into_a_missing_folder_is_refused(tmp_path):
    with pytest.raises(CommandError, match="does not exist. Create it first"):
        call_command("backup", str(tmp_path / "nowhere" / "site.json"))

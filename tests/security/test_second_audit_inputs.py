"""Hostile input from the second audit: each request is refused with a message, costs
little, and leaves the database as it was."""

from __future__ import annotations

import datetime
import functools
import gzip
import http.client
import io
import json
import os
import re
import socket
import stat
import subprocess
import sys
import time
import tracemalloc
from decimal import Decimal
from pathlib import Path
from urllib.parse import urlencode

import pytest
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import CommandError, call_command
from django.test import Client
from django.urls import reverse

from scoring.errors import ScoringError
from tenhou import convert
from tenhou.limits import MAX_BATCH_GZIP_MEMBERS, Budget, gunzip
from tests.tournaments.builders import small_league
from tournaments import exchange, imports, services
from tournaments.models import Event, Game, PendingImport, Player, Session, TrailEntry

from .test_upload_limits import upload_in_a_fresh_process

MEGABYTE = 1024 * 1024
XML_REFUSAL = "not a Tenhou log: XML with a document type or entities"


def xml_bomb(padding: int) -> bytes:
    """Billion laughs, its DOCTYPE after a comment of `padding` spaces: a check of the
    file's head alone does not see it."""
    entities = b'<!ENTITY lol0 "lol">' + b"".join(
        b'<!ENTITY lol%d "%s">' % (n, b"&lol%d;" % (n - 1) * 10) for n in range(1, 10)
    )
    return (
        b'<?xml version="1.0"?><!--'
        + b" " * padding
        + b"-->\n<!DOCTYPE mjloggm ["
        + entities
        + b']><mjloggm ver="2.3"><GO type="169"/>&lol9;</mjloggm>'
    )


# 1. XML entities anywhere in the document


def test_an_xml_bomb_with_its_doctype_5_mb_in_is_refused_with_little_memory():
    data = xml_bomb(5 * MEGABYTE)
    tracemalloc.start()
    try:
        with pytest.raises(ScoringError) as refused:
            convert(data, name="laughs.xml")
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert str(refused.value) == XML_REFUSAL
    # The file itself is 5 MB; the billion laughs would be gigabytes.
    assert peak < 40 * MEGABYTE, peak


def test_an_xml_bomb_in_gzip_is_refused_by_the_import_page_with_a_small_peak(tmp_path):
    path = tmp_path / "laughs.xml.gz"
    path.write_bytes(gzip.compress(xml_bomb(5 * MEGABYTE)))
    assert path.stat().st_size < 20 * 1024
    result = upload_in_a_fresh_process(path, rules_preset="tenhou")
    assert result["status"] == 200
    assert "laughs.xml.gz" in result["page"]
    assert XML_REFUSAL in result["page"]
    assert result["games"] == 0
    assert result["cpu"] < 2.0, result
    # Python, Django and the 5 MB document; the entities would take gigabytes.
    assert result["peak_mb"] < 200, result


def test_an_entity_declared_late_without_a_doctype_at_the_head_is_refused():
    data = b"<mjloggm>" + b"<GO/>" * 2000 + b"</mjloggm>"
    data = b'<!DOCTYPE m SYSTEM "file:///etc/passwd">' + data
    with pytest.raises(ScoringError, match=XML_REFUSAL):
        convert(data, name="external.xml")


def test_a_real_mjlog_still_converts():
    sample = Path("tests/data/tenhou/2019021004gm-00a9-0000-e2f6516d.xml")
    assert convert(sample.read_bytes(), name=sample.name).log_id == sample.stem


# 13. The files of one upload share one budget of gzip members and inflated bytes


def test_the_files_of_one_upload_share_one_count_of_gzip_members():
    budget = Budget()
    two = gzip.compress(b"{}") * 2
    for _ in range(MAX_BATCH_GZIP_MEMBERS // 2):
        assert gunzip(two, budget=budget) == b"{}{}"
    with pytest.raises(ScoringError) as refused:
        gunzip(two, budget=budget)
    assert str(refused.value) == (
        "not read: the files of this upload hold more than 60 gzip parts in all; upload "
        "fewer files at a time"
    )


def test_a_file_refused_for_its_size_still_spends_the_budget():
    budget = Budget()
    bomb = gzip.compress(bytes(21 * MEGABYTE))
    with pytest.raises(ScoringError, match="larger than 20 MB once decompressed"):
        gunzip(bomb, budget=budget)
    with pytest.raises(ScoringError) as refused:
        gunzip(gzip.compress(b"{}"), budget=budget)
    assert str(refused.value) == (
        "not read: the files of this upload come to more than 20 MB once decompressed; "
        "upload fewer files at a time"
    )


@pytest.mark.django_db
def test_sixty_gzip_bombs_in_one_upload_cost_a_fraction_of_a_second(client, organiser):
    event = Event.objects.create(
        name="Online", slug="online", starts_on=datetime.date(2026, 1, 1), rules_preset="tenhou"
    )
    event.organisers.add(organiser)
    client.force_login(organiser)
    bomb = gzip.compress(b" " * (21 * MEGABYTE), compresslevel=9)
    assert len(bomb) < 30 * 1024
    files = [SimpleUploadedFile(f"bomb-{n:02d}.json.gz", bomb) for n in range(60)]
    cpu = time.process_time()
    response = client.post(
        "/events/online/import/",
        {"files": files, "session": "0", "new_session_date": "2026-02-01"},
        follow=True,
    )
    cpu = time.process_time() - cpu
    assert response.status_code == 200
    page = response.content.decode()
    assert "bomb-00.json.gz" in page and "bomb-59.json.gz" in page
    assert "upload fewer files at a time" in page
    # Each of the sixty inflated to 20 MB took 5.3 s in all before the shared budget.
    assert cpu < 1.5, cpu
    assert Game.objects.count() == 0
    pending = PendingImport.objects.get(user=organiser)
    assert [log["game"] for log in pending.logs] == [None] * 60


# 5. Every number and text of an event import, checked before anything is written


def url(name: str, *args) -> str:
    return reverse(f"tournaments:{name}", args=args)


def league_export(organiser) -> dict:
    return exchange.export_event(small_league(organiser))


def import_document(client, document: dict):
    # json.dumps writes Infinity for float("inf"), as a hostile file may.
    content = json.dumps(document).encode()
    upload = SimpleUploadedFile("export.json", content, content_type="application/json")
    return client.post(url("event_import", "thursday"), {"file": upload})


def with_rules(document, rules):
    return {**document, "rules": rules}


def with_penalty(document, **penalty):
    games = json.loads(json.dumps(document["games"]))
    games[2]["record"]["penalties"][0].update(penalty)
    return {**document, "games": games}


def with_name(document, name):
    games = json.loads(json.dumps(document["games"]))
    games[0]["record"]["players"][0] = name
    return {**document, "games": games}


HOSTILE_IMPORTS = {
    "a preset that is a list": (
        lambda d: with_rules(d, {"preset": []}),
        "its rules name no known preset; the presets are ari-ari, club,",
    ),
    "start points of 10**30": (
        lambda d: with_rules(d, {"preset": "ari-ari", "overrides": {"start_points": 10**30}}),
        "its rule option &#x27;start_points&#x27; has a value the rules page would refuse",
    ),
    "penalty match points of 1e308": (
        lambda d: with_penalty(d, match_points=1e308),
        "game 3, penalty 1: match points are a number other than 0 of at most 99,999.9",
    ),
    "penalty match points of Infinity": (
        lambda d: with_penalty(d, match_points=float("inf")),
        "game 3, penalty 1: match points are a number other than 0 of at most 99,999.9",
    ),
    "penalty match points of 99,999,999": (
        lambda d: with_penalty(d, match_points=99_999_999),
        "game 3, penalty 1: match points are a number other than 0 of at most 99,999.9",
    ),
    "a penalty reason of 100,000 characters": (
        lambda d: with_penalty(d, reason="x" * 100_000),
        "game 3, penalty 1: the reason is text of at most 200 characters",
    ),
    "a NUL in a name": (
        lambda d: with_name(d, "A\x00B"),
        "game 1, seat 1: U+0000 (a control character) is not allowed in a name.",
    ),
}


@pytest.mark.django_db
@pytest.mark.parametrize("case", list(HOSTILE_IMPORTS))
def test_a_hostile_event_import_is_refused_and_writes_nothing(
    organiser_client, organiser, event, case
):
    change, message = HOSTILE_IMPORTS[case]
    document = change(league_export(organiser))
    players = set(Player.objects.values_list("pk", flat=True))
    trail = TrailEntry.objects.count()

    response = import_document(organiser_client, document)

    assert response.status_code == 200
    page = response.content.decode()
    assert "Nothing was imported: " in page
    assert message in page, page[page.find("Nothing was") :][:300]
    event.refresh_from_db()
    assert not event.sessions.exists()
    assert event.rules_spec() == "ari-ari"
    assert TrailEntry.objects.count() == trail
    assert set(Player.objects.values_list("pk", flat=True)) == players


@pytest.mark.django_db
def test_the_league_export_still_imports_after_the_checks(organiser_client, organiser, event):
    response = import_document(organiser_client, league_export(organiser))
    assert response.status_code == 302
    assert Game.objects.filter(session__event=event).count() == 3


# 11. Characters refused in a player's name, on every path that stores one

REFUSED = {
    "\x1b": "U+001B (a control character) is not allowed in a name.",
    "\x7f": "U+007F (a control character) is not allowed in a name.",
    "\u202e": "U+202E RIGHT-TO-LEFT OVERRIDE is not allowed in a name.",
    "\u2066": "U+2066 LEFT-TO-RIGHT ISOLATE is not allowed in a name.",
    "\u200b": "U+200B ZERO WIDTH SPACE is not allowed in a name.",
    "\u200d": "U+200D ZERO WIDTH JOINER is not allowed in a name.",
    "\ufeff": "U+FEFF ZERO WIDTH NO-BREAK SPACE is not allowed in a name.",
    "\u00ad": "U+00AD SOFT HYPHEN is not allowed in a name.",
    "\ue000": "U+E000 is not allowed in a name.",
}


@pytest.mark.django_db
@pytest.mark.parametrize("character", list(REFUSED), ids=lambda c: f"U+{ord(c):04X}")
def test_the_player_form_refuses_the_character_by_name(organiser_client, character):
    response = organiser_client.post(
        url("player_create"), {"display_name": f"Ann{character}[31mBob"}
    )
    assert response.status_code in (200, 400)
    assert REFUSED[character] in response.content.decode()
    assert not Player.objects.exists()


@pytest.mark.django_db
@pytest.mark.parametrize("character", list(REFUSED), ids=lambda c: f"U+{ord(c):04X}")
def test_the_roster_paste_refuses_the_character_by_line(organiser_client, event, character):
    response = organiser_client.post(
        url("roster_paste", event.slug), {"names": f"Aki\nBo{character}b", "create": "on"}
    )
    assert response.status_code == 400
    assert f"line 2: {REFUSED[character]}" in response.content.decode()
    assert not Player.objects.exists()
    assert not event.roster.exists()


@pytest.mark.django_db
def test_the_admin_refuses_a_right_to_left_override(admin_client):
    response = admin_client.post(
        "/admin/tournaments/player/add/",
        {"display_name": "Ann\u202eboB", "real_name": "", "ema_number": "", "active": "on"},
    )
    assert response.status_code == 200
    assert REFUSED["\u202e"] in response.content.decode()
    assert not Player.objects.exists()


@pytest.mark.django_db
def test_a_name_is_stored_in_nfc_with_its_whitespace_collapsed(organiser_client):
    response = organiser_client.post(url("player_create"), {"display_name": " Jose\u0301  Luis\t"})
    assert response.status_code == 302
    assert list(Player.objects.values_list("display_name", flat=True)) == ["Jos\u00e9 Luis"]


@pytest.mark.django_db
def test_a_japanese_name_with_an_ideographic_iteration_mark_is_kept():
    assert Player.objects.create(display_name="佐々木　和了").display_name == "佐々木 和了"


@pytest.mark.django_db
def test_saving_a_player_any_other_way_refuses_the_character_too():
    with pytest.raises(ValidationError, match="U\\+202E RIGHT-TO-LEFT OVERRIDE"):
        Player.objects.create(display_name="Ann\u202eboB")
    assert not Player.objects.exists()


@pytest.mark.django_db
def test_a_name_stored_before_the_check_does_not_stop_other_changes(organiser):
    (legacy,) = Player.objects.bulk_create([Player(display_name="Zero\u200bWidth")])
    legacy.user = organiser
    legacy.save(update_fields=["user"])
    assert Player.objects.get().user == organiser
    legacy.display_name = "Zero\u200bWidth Two"
    with pytest.raises(ValidationError, match="U\\+200B ZERO WIDTH SPACE"):
        legacy.save()
    assert Player.objects.get().display_name == "Zero\u200bWidth"


# 10. Restore checks every field it writes


@pytest.fixture
def backup_file(organiser, tmp_path):
    league = small_league(organiser)
    game = Game.objects.filter(session__event=league).first()
    services.add_penalty(game.pk, 0, Decimal("-5"), "Slow play", user=organiser)
    path = tmp_path / "site.json"
    call_command("backup", str(path), stdout=io.StringIO())
    Event.objects.all().delete()
    Player.objects.all().delete()
    get_user_model().objects.all().delete()
    return path


def restore_changed(path, change) -> str:
    data = json.loads(path.read_text())
    change(data)
    path.write_text(json.dumps(data))
    with pytest.raises(CommandError) as refused:
        call_command("restore", str(path), stdout=io.StringIO())
    return str(refused.value)


def nothing_restored() -> bool:
    return not (
        Event.objects.exists()
        or Player.objects.exists()
        or Session.objects.exists()
        or TrailEntry.objects.exists()
        or get_user_model().objects.exists()
    )


@pytest.mark.django_db
@pytest.mark.parametrize("slug", ["two words", "../admin", "new", "x" * 81, "ünï"])
def test_restore_refuses_an_invalid_slug_and_stores_nothing(backup_file, slug):
    def change(data):
        data["events"][0]["slug"] = slug

    message = restore_changed(backup_file, change)

    assert "Nothing was restored from" in message
    assert "event 1: slug: " in message
    assert nothing_restored()


@pytest.mark.django_db
def test_restore_refuses_a_trail_kind_of_100000_characters(backup_file):
    def change(data):
        assert data["events"][0]["trail"]
        data["events"][0]["trail"][0]["kind"] = "k" * 100_000

    message = restore_changed(backup_file, change)

    assert "event league, trail entry 1: kind: " in message
    assert len(message) < 1000
    assert nothing_restored()


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("change", "message"),
    [
        (
            lambda d: d["players"][0].update(display_name="A\u202eB"),
            "player 1: display_name: U+202E RIGHT-TO-LEFT OVERRIDE is not allowed in a name.",
        ),
        (
            lambda d: d["events"][0].update(rules_overrides={"start_points": 10**30}),
            "has a value the rules page would refuse",
        ),
        (
            lambda d: d["events"][0]["sessions"][0].update(title="t" * 100_000),
            "event 1, session 1: title: ",
        ),
        (
            lambda d: d["events"][0]["games"][0]["record"]["penalties"][0].update(
                match_points=1e308
            ),
            "penalty 1: match points are a number other than 0 of at most 99,999.9",
        ),
        (lambda d: d["users"][0].update(username="a b/c"), "username: "),
    ],
    ids=["name", "rules", "title", "penalty", "username"],
)
def test_restore_refuses_other_fields_out_of_bounds(backup_file, change, message):
    assert message in restore_changed(backup_file, change)
    assert nothing_restored()


@pytest.mark.django_db
def test_an_unchanged_backup_still_restores(backup_file, client):
    call_command("restore", str(backup_file), stdout=io.StringIO())
    assert client.get("/").status_code == 200
    assert Event.objects.get().slug == "league"


# 12. Backups are private from the first byte and never follow a link


@pytest.mark.django_db
def test_a_backup_is_written_0600_even_under_umask_022(organiser, tmp_path, monkeypatch):
    small_league(organiser)
    seen = []
    real_fdopen = os.fdopen

    def watching(descriptor, *args, **kwargs):
        # The mode of the file as it is created, before a single byte is in it.
        seen.append(stat.S_IMODE(os.fstat(descriptor).st_mode))
        return real_fdopen(descriptor, *args, **kwargs)

    monkeypatch.setattr(os, "fdopen", watching)
    old = os.umask(0o022)
    try:
        call_command("backup", str(tmp_path / "site.json"), stdout=io.StringIO())
    finally:
        os.umask(old)
    assert seen == [0o600]
    assert stat.S_IMODE((tmp_path / "site.json").stat().st_mode) == 0o600
    assert json.loads((tmp_path / "site.json").read_text())["events"][0]["slug"] == "league"
    assert [p.name for p in tmp_path.iterdir()] == ["site.json"]


@pytest.mark.django_db
def test_a_backup_refuses_a_symlink_at_the_target(organiser, tmp_path):
    small_league(organiser)
    elsewhere = tmp_path / "elsewhere.txt"
    elsewhere.write_text("keep me")
    (tmp_path / "site.json").symlink_to(elsewhere)

    with pytest.raises(CommandError, match="is a symbolic link"):
        call_command("backup", str(tmp_path / "site.json"), stdout=io.StringIO())

    assert elsewhere.read_text() == "keep me"
    assert (tmp_path / "site.json").is_symlink()


@pytest.mark.django_db
def test_a_backup_replaces_an_older_backup_and_leaves_no_partial_file(organiser, tmp_path):
    small_league(organiser)
    path = tmp_path / "site.json"
    path.write_text("old")
    os.chmod(path, 0o644)
    call_command("backup", str(path), stdout=io.StringIO())
    assert json.loads(path.read_text())["format"] == "tenbou-backup/1"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert [p.name for p in tmp_path.iterdir()] == ["site.json"]


# 9. A taken address: one neutral message, a suggestion that confirms no other event


@pytest.mark.django_db
def test_a_private_events_address_gets_a_neutral_message_and_a_random_suggestion(
    stranger_client, organiser
):
    for slug in ("hidden-cup", "hidden-cup-2", "hidden-cup-3"):
        Event.objects.create(name=slug, slug=slug, starts_on="2026-01-01", is_public=False)
    data = {"name": "Mine", "kind": "league", "starts_on": "2026-02-01", "rules_preset": "ema"}

    response = stranger_client.post(url("event_create"), {**data, "slug": "hidden-cup"})

    assert response.status_code == 200
    page = response.content.decode()
    assert "The address “hidden-cup” is not available. Choose another" in page
    assert "another event" not in page
    suggested = re.search(r"for example “(hidden-cup-[0-9a-f]{4})”", page)
    assert suggested, page
    assert not Event.objects.filter(slug=suggested[1]).exists()
    # Not the next number, which would tell that -2 and -3 exist.
    assert "“hidden-cup-4”" not in page
    assert Event.objects.count() == 3


@pytest.mark.django_db
def test_the_suggested_address_is_taken_when_the_organiser_follows_it(stranger_client):
    Event.objects.create(name="Cup", slug="cup", starts_on="2026-01-01", is_public=False)
    data = {"name": "Cup", "kind": "league", "starts_on": "2026-02-01", "rules_preset": "ema"}

    response = stranger_client.post(url("event_create"), data)

    assert response.status_code == 302
    assert Event.objects.filter(slug__regex=r"^cup-[0-9a-f]{4}$").count() == 1


# 13. A balanced plan too large for a request goes to the command line


def seating_roster(event, count: int) -> None:
    for start in range(0, count, 500):
        names = [f"P{n:04d}" for n in range(start, min(count, start + 500))]
        services.add_names_to_roster(event.pk, names, create=True)
    Session.objects.create(event=event, number=1, date=datetime.date(2026, 9, 3))


@pytest.mark.django_db
def test_a_balanced_plan_of_1000_players_over_30_rounds_is_sent_to_the_command_line(
    organiser_client, event
):
    seating_roster(event, 1000)
    cpu = time.process_time()
    response = organiser_client.post(
        url("seat_players", event.slug, 1), {"preview": "1", "method": "balanced", "rounds": "30"}
    )
    cpu = time.process_time() - cpu

    assert response.status_code == 200
    page = response.content.decode()
    assert (
        "A balanced plan for 1000 players over 30 rounds is too large to make here "
        "(at most 12,000 players × rounds)." in page
    )
    assert "python manage.py seating_plan --players 1000 --rounds 30" in page
    assert "proposal" not in response.context
    assert not Game.objects.exists()
    assert cpu < 1.5, cpu  # the planner took 4.8 s for this plan


@pytest.mark.django_db
def test_a_plan_at_the_bound_is_still_made_in_the_page(organiser_client, event):
    seating_roster(event, 400)
    response = organiser_client.post(
        url("seat_players", event.slug, 1), {"preview": "1", "method": "balanced", "rounds": "30"}
    )
    assert response.status_code == 200
    assert len(response.context["proposal"].tables) == 100


@pytest.mark.django_db
def test_a_random_seating_of_1000_players_is_not_bounded_by_rounds(organiser_client, event):
    seating_roster(event, 1000)
    response = organiser_client.post(
        url("seat_players", event.slug, 1), {"preview": "1", "method": "random", "rounds": "30"}
    )
    assert len(response.context["proposal"].tables) == 250


# 14. Table-link codes stay out of access logs


class UnixConnection(http.client.HTTPConnection):
    """HTTP over a Unix socket: the test's gunicorn takes no port."""

    def __init__(self, path: str):
        super().__init__("localhost", timeout=30)
        self.socket_path = path

    def connect(self):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.settimeout(30)
        self.sock.connect(self.socket_path)


def unix_request(path: str, method: str, address: str, body=None, headers=None):
    connection = UnixConnection(path)
    try:
        connection.request(method, address, body=body, headers=headers or {})
        response = connection.getresponse()
        return response.status, dict(response.getheaders()), response.read().decode()
    finally:
        connection.close()


SET_UP_LINK = """
import datetime, django
django.setup()
from tournaments import services
from tournaments.models import Event, Player, Session
event = Event.objects.create(name="Cup", slug="cup", starts_on=datetime.date(2026, 1, 1))
session = Session.objects.create(event=event, number=1, date=datetime.date(2026, 1, 1))
players = [Player.objects.create(display_name=f"P{n}") for n in range(4)]
game = services.create_game(session, players, table_number=1)
print(services.renew_table_link(game.pk).get_absolute_url())
"""


def test_a_table_link_opened_through_gunicorn_leaves_its_code_out_of_every_log(tmp_path):
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DATABASE_URL": f"sqlite:///{tmp_path / 'site.db'}",
        "DEBUG": "1",
    }
    root = Path(__file__).resolve().parents[2]
    run = functools.partial(
        subprocess.run, cwd=root, env=env, capture_output=True, text=True, timeout=120
    )
    migrated = run([sys.executable, "manage.py", "migrate", "--verbosity", "0"])
    assert migrated.returncode == 0, migrated.stderr
    made = run([sys.executable, "-c", SET_UP_LINK])
    assert made.returncode == 0, made.stderr
    slip = made.stdout.strip()
    address, code = slip.split("#")
    assert address.startswith("/t/") and len(code) >= 16

    sock = str(tmp_path / "gunicorn.sock")
    access_log, error_log = tmp_path / "access.log", tmp_path / "error.log"
    server = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "config.wsgi", "--workers", "1",
         "--bind", f"unix:{sock}", "--access-logfile", str(access_log),
         "--error-logfile", str(error_log), "--capture-output"],
        cwd=root, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 60
        while not os.path.exists(sock):
            assert server.poll() is None, error_log.read_text()
            assert time.monotonic() < deadline, "gunicorn did not start"
            time.sleep(0.1)
        # A phone scanning the QR code requests the address without its fragment.
        status, headers, page = unix_request(sock, "GET", address)
        assert status == 200
        assert code not in page
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page)[1]
        cookie = headers["Set-Cookie"].split(";")[0]
        # Then the page's script posts the code in the body.
        status, headers, _ = unix_request(
            sock,
            "POST",
            address,
            body=urlencode({"csrfmiddlewaretoken": token, "code": code}),
            headers={
                "Content-Type": "application/x-www-form-urlencoded",
                "Cookie": cookie,
                "Referer": f"http://localhost{address}",
            },
        )
        assert status == 302
        game_page = headers["Location"]
        assert game_page.startswith("/games/")
        status, _, _ = unix_request(
            sock, "GET", game_page, headers={"Cookie": headers["Set-Cookie"].split(";")[0]}
        )
        assert status == 200
    finally:
        server.terminate()
        server.wait(timeout=30)

    logged = access_log.read_text()
    assert f'"GET {address} HTTP/1.1" 200' in logged
    assert f'"POST {address} HTTP/1.1" 302' in logged
    assert f'"GET {game_page} HTTP/1.1" 200' in logged
    assert code not in logged
    assert code not in error_log.read_text()


@pytest.mark.django_db
def test_the_slip_and_its_qr_code_carry_the_code_after_the_fragment_mark(organiser_client, game):
    link = services.renew_table_link(game.pk)
    slip = organiser_client.get(url("game_slip", game.pk)).content.decode()
    assert f"http://testserver/t/{link.pk}/#{link.code}" in slip
    assert f"/t/{link.pk}/{link.code}/" not in slip


@pytest.mark.django_db
def test_the_table_link_page_posts_a_code_and_refuses_a_wrong_one(game):
    link = services.renew_table_link(game.pk)
    phone = Client()
    page = phone.get(url("table_link", link.pk)).content.decode()
    assert "js/table-link" in page and 'name="code"' in page
    assert phone.post(url("table_link", link.pk), {"code": "wrong"}).status_code == 404
    assert phone.post(url("table_link", link.pk), {"code": link.code}).status_code == 302


@pytest.mark.django_db
def test_a_slip_printed_with_the_code_in_the_path_still_opens(game):
    link = services.renew_table_link(game.pk)
    response = Client().get(f"/t/{link.pk}/{link.code}/")
    assert response.status_code == 302 and response["Location"] == game.get_absolute_url()


# 11, continued: a name from an online log


@pytest.mark.django_db
def test_a_log_name_with_a_right_to_left_override_creates_no_player(organiser):
    event = Event.objects.create(
        name="Online", slug="online", starts_on=datetime.date(2026, 1, 1), rules_preset="tenhou"
    )
    session = Session.objects.create(event=event, number=1, date=datetime.date(2026, 1, 8))
    path = Path("tests/data/tenhou/2019123123gm-00a9-0000-f4386d0e.json")
    doc = json.loads(path.read_text())
    doc["name"][1] = "Ann\u202eboB"
    check = imports.check_log(event, path.name, json.dumps(doc).encode())
    players = imports.resolve_players(check, {}, create_unknown=True)

    with pytest.raises(services.GameChangeRefused) as refused:
        imports.import_game(session, check, players, table_number=1)

    assert str(refused.value) == (
        f"{path.name}, seat 2: U+202E RIGHT-TO-LEFT OVERRIDE is not allowed in a name. "
        "Choose a player for that seat."
    )
    assert not Player.objects.exists()
    assert not Game.objects.exists()

"""The load test: the hands its tables post (form, preview, confirmation), its readers (a
third with the live screen open), its bound on the p99, its check of the database, and a
tiny run against a real gunicorn."""

from __future__ import annotations

import datetime
import html
import json
import os
import random
import re
import signal
import socket
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command
from django.db import connection
from django.http import QueryDict

import scoring
from perf import loadtest
from perf.management.commands.load_test import bound_line, database_url, over_bound
from scoring.game import next_state, play_hand, start_state
from scoring.record import parse_hand
from scoring.rules import resolve_rules
from tournaments import services
from tournaments.forms.hands import HandForm, seat_labels
from tournaments.models import Event, Game, GameSeat, Hand, Player, TableLink

PROJECT_DIR = Path(__file__).resolve().parents[2]


# --- what the tables post ----------------------------------------------------------------


def test_planned_games_replay_to_their_end_and_every_hand_fits_the_hand_form():
    rules = resolve_rules("ari-ari")
    names = ["Aki", "Ben", "Chie", "Dan"]
    kinds = set()
    for seed in range(40):
        plan = loadtest.plan_hands(random.Random(seed), "ari-ari")
        doc = {"format": "tenbou-game/1", "rules": "ari-ari", "players": names, "hands": plan}
        assert scoring.replay(scoring.parse_record(doc)).finished
        state = start_state(rules)
        for number, hand in enumerate(plan, start=1):
            data = QueryDict(mutable=True)
            for key, value in [("number", str(number)), *loadtest.form_fields(hand)]:
                data.appendlist(key, value)
            form = HandForm(
                data,
                seats=seat_labels(names, state.dealer),
                rules=rules,
                scores=state.scores,
                with_number=True,
            )
            assert form.is_valid(), (seed, number, hand, form.errors)
            assert parse_hand(form.to_hand(), number) == parse_hand(hand, number)
            kinds.add(hand["result"])
            report, settlement = play_hand(state, parse_hand(hand, number), rules, number=number)
            state = next_state(state, report, settlement, rules)
    assert {"ron", "tsumo", "draw"} <= kinds


class ScriptedServer:
    """Answers a table's phone as the app would, except that chosen saves are stored but
    their answer is lost, and optionally the answer of a second copy is "entered already"."""

    def __init__(self, lose_answers: set[int], *, stored_late: bool = False):
        self.stored = 0
        self.lose_answers = lose_answers
        self.stored_late = stored_late  # the lost save is stored only after the next form
        self.late = False
        self.previews: list[int] = []
        self.posts: list[int] = []  # the saves
        self.saved_fields: list[list[tuple[str, str]]] = []

    def request(self, method, path, fields=None, extra=None):
        if path.startswith("/t/"):
            return loadtest.Answer(302, "/games/1/", "")
        if method == "GET":
            body = (
                '<input type="hidden" name="csrfmiddlewaretoken" value="tok">'
                f'<input type="hidden" name="number" value="{self.stored + 1}">'
            )
            if self.late:
                self.stored, self.late = self.stored + 1, False
            return loadtest.Answer(200, "", body)
        posted = dict(fields)
        number = int(posted["number"])
        if posted["action"] == "preview":
            self.previews.append(number)
            if number <= self.stored:
                return loadtest.Answer(409, "", "Someone entered hand already")
            return loadtest.Answer(200, "", confirm_page(fields, token="tok2"))
        self.posts.append(number)
        self.saved_fields.append(fields)
        if number <= self.stored:
            return loadtest.Answer(409, "", "Someone entered hand already")
        if number in self.lose_answers:
            self.lose_answers.discard(number)
            if self.stored_late:
                self.late = True
            else:
                self.stored += 1
            raise TimeoutError("timed out")
        self.stored += 1
        return loadtest.Answer(302, "/games/1/", "")


def _play_one_table(monkeypatch, server: ScriptedServer) -> loadtest.Table:
    monkeypatch.setattr(loadtest.Browser, "request", server.request)
    plan = [{"result": "draw", "riichi": [], "tenpai": [0]} for _ in range(4)]
    table = loadtest.Table(number=1, game_id=1, link="/t/1/code/", players=[], plan=plan)
    room = loadtest.Room(host="127.0.0.1", port=1, slug="x", seconds=5, hand_every=0.002)
    loadtest.play_table(room, table, loadtest.Recorder(), time.monotonic() + 5, seed=1)
    return table


def confirm_page(fields, *, token: str) -> str:
    """The preview as the app draws it: the confirm form carries the hand in hidden fields."""
    hidden = "".join(
        f'<input type="hidden" name="{name}" value="{html.escape(value)}">'
        for name, value in fields
        if name not in ("csrfmiddlewaretoken", "action")
    )
    return (
        '<form method="post" class="confirm-actions">\n'
        f'<input type="hidden" name="csrfmiddlewaretoken" value="{token}">\n{hidden}\n'
        '<button type="submit" name="action" value="save" class="big">Confirm and save</button>'
        '<button type="submit" name="action" value="edit" class="secondary">Change it</button>'
        "</form>"
    )


def test_every_hand_is_previewed_and_then_saved_from_the_preview(monkeypatch):
    server = ScriptedServer(set())
    table = _play_one_table(monkeypatch, server)
    assert len(table.entered) == server.stored == 4 and not table.stopped
    assert server.previews == server.posts == [1, 2, 3, 4]
    # The save posts the preview's fields and token, not the form's.
    first = server.saved_fields[0]
    assert first[0] == ("csrfmiddlewaretoken", "tok2") and first[-1] == ("action", "save")
    assert ("number", "1") in first and ("result", "draw") in first


def test_a_save_whose_answer_is_lost_is_found_stored_by_the_next_form(monkeypatch):
    server = ScriptedServer({2})
    table = _play_one_table(monkeypatch, server)
    assert len(table.entered) == server.stored == 4
    assert table.recovered == 1 and not table.uncertain and not table.stopped
    assert server.posts == [1, 2, 3, 4]  # hand 2 was not sent twice


def test_a_lost_save_stored_after_the_next_form_is_refused_at_the_preview(monkeypatch):
    server = ScriptedServer({2}, stored_late=True)
    table = _play_one_table(monkeypatch, server)
    assert len(table.entered) == server.stored == 4
    assert table.recovered == 1 and not table.stopped
    assert server.previews == [1, 2, 2, 3, 4]  # the second preview of hand 2 answered 409
    assert server.posts == [1, 2, 3, 4]


def test_the_confirmation_posts_the_preview_pages_hidden_fields_unescaped():
    page = confirm_page([("number", "3"), ("reason", 'a "late" call & more')], token="t")
    assert loadtest.confirm_fields(page) == [
        ("csrfmiddlewaretoken", "t"),
        ("number", "3"),
        ("reason", 'a "late" call & more'),
        ("action", "save"),
    ]
    assert loadtest.confirm_fields("<p>The hand form again, with an error</p>") is None


def test_the_live_screen_reader_polls_the_panels_own_address_as_htmx_does(monkeypatch):
    asked = []

    def live_server(method, path, fields=None, extra=None):
        asked.append((path, dict(extra or {})))
        page = len(asked) % 3
        panel = (
            f'<div id="live-panel" class="live-panel" hx-get="/events/x/live/?page={page}'
            '&amp;top=8&amp;session=2" hx-trigger="every 0.05s" hx-swap="outerHTML">'
        )
        return loadtest.Answer(200, "", f"<main>{panel}</div></main>")

    monkeypatch.setattr(loadtest.Browser, "request", lambda self, *a, **k: live_server(*a, **k))
    room = loadtest.Room(host="127.0.0.1", port=1, slug="x", seconds=1, reload_every=0.01)
    loadtest.play_live(room, loadtest.Recorder(), time.monotonic() + 0.5, seed=1)
    assert asked[0] == ("/events/x/live/", {})
    assert asked[1] == (
        "/events/x/live/?page=1&top=8&session=2",
        {"HX-Request": "true", "HX-Target": "live-panel"},
    )
    assert asked[2][0] == "/events/x/live/?page=2&top=8&session=2"
    # Polled at the panel's own interval: about ten polls in half a second, not hundreds.
    assert 4 <= len(asked) <= 12


def test_a_live_screen_without_a_poll_address_is_an_error():
    recorder = loadtest.Recorder()

    def request(self, method, path, fields=None, extra=None):
        return loadtest.Answer(200, "", "<main>No panel</main>")

    room = loadtest.Room(host="127.0.0.1", port=1, slug="x", seconds=1, reload_every=0.01)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(loadtest.Browser, "request", request)
        loadtest.play_live(room, recorder, time.monotonic() + 0.5, seed=1)
    assert recorder.errors["live screen"] == {"the live screen names no address to poll": 1}


def test_a_third_of_the_readers_keep_the_live_screen_open(monkeypatch):
    started = {"table": 0, "player": 0, "live": 0}
    for name, kind in (("play_table", "table"), ("play_player", "player"), ("play_live", "live")):
        monkeypatch.setattr(loadtest, name, lambda *a, _k=kind, **k: started.__setitem__(
            _k, started[_k] + 1
        ))  # fmt: skip
    tables = [
        loadtest.Table(number=n, game_id=n, link=f"/t/{n}/", players=[], plan=[])
        for n in range(1, 4)
    ]
    room = loadtest.Room(host="127.0.0.1", port=1, slug="x", seconds=0.01)
    loadtest.run(room, tables)
    assert started == {"table": 3, "player": 8, "live": 4}


# --- the bound on the p99 ---------------------------------------------------------------


def _result(tables: int, p99: float) -> loadtest.RunResult:
    total = loadtest.Figures("all", 100, 10.0, p99 / 4, p99 / 2, p99, 0)
    room = [
        loadtest.Table(number=n, game_id=n, link="", players=[], plan=[]) for n in range(tables)
    ]
    return loadtest.RunResult(seconds=10, figures=[total], errors={}, tables=room)


def test_the_p99_bound_is_250_ms_up_to_100_tables_and_500_ms_up_to_200():
    assert loadtest.p99_bound(1) == loadtest.p99_bound(100) == 0.25
    assert loadtest.p99_bound(101) == loadtest.p99_bound(200) == 0.5
    assert loadtest.p99_bound(201) is None


def test_a_p99_over_its_bound_is_marked_over_and_named_as_a_failure():
    assert bound_line(_result(100, 0.2504)) == (
        "p99 of all requests: 250 ms, bound 250 ms for 100 table(s): OK."
    )
    assert over_bound(_result(100, 0.2504)) == ""
    assert bound_line(_result(100, 0.251)) == (
        "p99 of all requests: 251 ms, bound 250 ms for 100 table(s): OVER."
    )
    assert over_bound(_result(100, 0.251)) == (
        "the p99 of all requests, 251 ms, is over its bound of 250 ms"
    )
    assert bound_line(_result(200, 0.49)).endswith("bound 500 ms for 200 table(s): OK.")
    assert over_bound(_result(250, 9.0)) == ""
    assert bound_line(_result(250, 9.0)) == (
        "p99 of all requests: 9000 ms (no bound for more than 200 tables)."
    )


# --- the database check ------------------------------------------------------------------


@pytest.fixture
def played():
    """Two tables of the load-test event, each with three of its planned hands saved."""
    tables = loadtest.prepare(tables=2, say=lambda _: None)
    for table in tables:
        table.plan = table.plan[:3] if len(table.plan) > 3 else table.plan
        for number, doc in enumerate(table.plan, start=1):
            services.add_hand(table.game_id, number, doc)
            table.entered.append(doc)
    return tables


@pytest.mark.django_db
def test_prepare_seats_every_table_with_a_live_link_and_reuses_the_event_and_players():
    first = loadtest.prepare(tables=3, say=lambda _: None)
    assert len(first) == 3 and Player.objects.count() == 12
    games = Game.objects.filter(pk__in=[t.game_id for t in first])
    assert all(g.status == Game.Status.IN_PROGRESS for g in games)
    assert TableLink.objects.live().filter(game__in=games).count() == 3
    live = TableLink.objects.live().get(game_id=first[0].game_id)
    assert first[0].link == f"/t/{live.pk}/{live.code}/"
    second = loadtest.prepare(tables=3, say=lambda _: None)
    assert Event.objects.filter(slug=loadtest.SLUG).count() == 1
    assert Player.objects.count() == 12
    assert {g.session.number for g in Game.objects.filter(pk__in=[t.game_id for t in second])} == {
        2
    }


@pytest.mark.django_db
def test_the_check_passes_when_every_saved_hand_is_stored_and_results_match_a_replay(played):
    check = loadtest.check_database(loadtest.client_record(played))
    assert check.ok, check.problems
    assert check.games == 2
    assert check.hands == sum(len(t.entered) for t in played)


@pytest.mark.django_db
def test_the_check_reports_a_tampered_stored_result(played):
    seat = GameSeat.objects.filter(game_id=played[0].game_id).order_by("seat").first()
    seat.score += 1000
    seat.save()
    check = loadtest.check_database(loadtest.client_record(played))
    assert not check.ok
    assert check.problems == [
        f"table 1 (game {played[0].game_id}): seat 0 ({seat.player}) has score {seat.score}, "
        f"a fresh replay gives {seat.score - 1000}"
    ]


@pytest.mark.django_db
def test_the_check_reports_a_lost_hand(played):
    Hand.objects.filter(game_id=played[1].game_id).order_by("-number").first().delete()
    problems = loadtest.check_database(loadtest.client_record(played)).problems
    saved = len(played[1].entered)
    assert problems[0] == (
        f"table 2 (game {played[1].game_id}): 1 hand(s) lost: the table saved {saved}, "
        f"the database holds {saved - 1}"
    )


@pytest.mark.django_db
def test_the_check_reports_a_hand_stored_that_the_table_never_saved(played):
    table = played[0]
    record = loadtest.client_record(played)
    record["games"][str(table.game_id)]["hands"] = table.entered[:-1]
    problems = loadtest.check_database(record).problems
    assert problems == [
        f"table 1 (game {table.game_id}): 1 hand(s) more than the table saved: it saved "
        f"{len(table.entered) - 1}, the database holds {len(table.entered)}"
    ]
    # A save whose answer never came may or may not have been stored: both are accepted.
    record["games"][str(table.game_id)]["uncertain"] = True
    assert loadtest.check_database(record).ok


@pytest.mark.django_db
def test_the_check_reports_a_hand_stored_otherwise_than_entered(played):
    table = played[0]
    record = loadtest.client_record(played)
    changed = {"result": "chombo", "riichi": [], "offender": 3}
    record["games"][str(table.game_id)]["hands"][0] = changed
    problems = loadtest.check_database(record).problems
    assert len(problems) == 1
    assert problems[0].startswith(f"table 1 (game {table.game_id}): hand 1 is stored as ")
    assert problems[0].endswith(f"but the table entered {changed}")


@pytest.mark.django_db
def test_the_check_reports_a_game_that_is_gone(played):
    Game.objects.filter(pk=played[1].game_id).delete()
    problems = loadtest.check_database(loadtest.client_record(played)).problems
    assert problems == [
        f"table 2 (game {played[1].game_id}): the game is missing from the database"
    ]


def test_percentiles_are_nearest_rank():
    values = [float(v) for v in range(1, 101)]
    assert loadtest.percentile(values, 0.5) == 50
    assert loadtest.percentile(values, 0.95) == 95
    assert loadtest.percentile(values, 0.99) == 99
    assert loadtest.percentile([3.0], 0.99) == 3
    assert loadtest.percentile([], 0.5) == 0


# --- the command's refusals --------------------------------------------------------------


def test_the_app_server_gets_the_database_this_process_uses():
    sqlite = {"ENGINE": "django.db.backends.sqlite3", "NAME": "/srv/tenbou/db.sqlite3"}
    assert database_url(sqlite) == "sqlite:////srv/tenbou/db.sqlite3"
    pg = {
        "ENGINE": "django.db.backends.postgresql",
        "NAME": "tenbou",
        "USER": "app",
        "PASSWORD": "p@ss/word",
        "HOST": "db.internal",
        "PORT": 5433,
    }
    assert database_url(pg) == "postgres://app:p%40ss%2Fword@db.internal:5433/tenbou"
    local = {"ENGINE": "django.db.backends.postgresql", "NAME": "t", "USER": "postgres"}
    assert database_url(local) == "postgres://postgres@127.0.0.1:5432/t"


def test_a_database_in_memory_is_refused_with_what_to_give_instead():
    with pytest.raises(CommandError, match="SQLite in memory, which another process cannot"):
        database_url({"ENGINE": "django.db.backends.sqlite3", "NAME": ":memory:"})
    with pytest.raises(CommandError, match="SQLite or PostgreSQL, not"):
        database_url({"ENGINE": "django.db.backends.mysql", "NAME": "x"})


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--tables", "0"], "at least 1, not '0'"),
        (["--seconds", "-5"], "above 0, not '-5'"),
        (["--workers", "many"], "at least 1, not 'many'"),
        (["--redis", "--cache-url", "redis://127.0.0.1:6379/1"], "--redis or --cache-url"),
    ],
)
def test_bad_arguments_are_refused_before_anything_is_made(args, message):
    with pytest.raises(CommandError, match=message):
        call_command("load_test", *args)
    assert not Event.objects.exists() and not Player.objects.exists()


@pytest.mark.django_db
def test_a_check_file_that_is_not_the_clients_record_is_refused(tmp_path):
    missing = tmp_path / "none.json"
    with pytest.raises(CommandError, match="is not a file written by load_test --save"):
        call_command("load_test", "--check", str(missing))
    wrong = tmp_path / "wrong.json"
    wrong.write_text(json.dumps({"games": {"1": {"hands": []}}}))
    with pytest.raises(CommandError, match="is not a file written by load_test --save"):
        call_command("load_test", "--check", str(wrong))


@pytest.mark.skipif(
    connection.vendor != "sqlite", reason="the test database is in memory on SQLite"
)
@pytest.mark.django_db
def test_a_run_on_the_in_memory_test_database_is_refused_before_anything_is_made():
    with pytest.raises(CommandError, match="another process cannot reach"):
        call_command("load_test", "--tables", "1", "--seconds", "1")
    assert not Event.objects.exists()


# --- a tiny run against gunicorn ---------------------------------------------------------


def _manage(db: Path, *args: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in ("CACHE_URL", "DATABASE_URL")}
    env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
    env.update(DJANGO_SETTINGS_MODULE="config.settings", DATABASE_URL=f"sqlite:///{db}")
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=PROJECT_DIR,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )


def _rows(out: str) -> dict[str, list[str]]:
    return {
        m.group(1): m.group(2).split()
        for m in re.finditer(
            r"^  (standings|game page|live screen|table link|hand form|hand preview|hand saved"
            r"|all)\s+(.*)$",
            out,
            re.M,
        )
    }


@pytest.mark.slow
def test_a_tiny_run_reports_its_figures_checks_the_database_and_frees_its_port(tmp_path):
    db = tmp_path / "load.sqlite3"
    assert _manage(db, "migrate", "-v", "0").returncode == 0
    saved = tmp_path / "clients.json"
    run = _manage(
        db, "load_test", "--tables", "2", "--seconds", "5", "--workers", "2",
        "--hand-every", "0.5", "--reload-every", "1", "--save", str(saved), "--report-only",
    )  # fmt: skip
    assert run.returncode == 0, run.stdout + run.stderr
    out = run.stdout
    assert "2 tables, 8 players, 5 s against gunicorn (2 workers)" in out
    rows = _rows(out)
    assert set(rows) == {
        "standings", "game page", "live screen", "table link", "hand form", "hand preview",
        "hand saved", "all",
    }  # fmt: skip
    for kind, row in rows.items():
        count, per_second, p50, _, p95, _, p99, _, errors = row
        assert int(count) > 0 and float(per_second) > 0, kind
        assert int(p50) <= int(p95) <= int(p99) and errors == "0", kind
    assert "Database check: OK. 2 games" in out
    # On a shared machine a tiny run may be slow: --report-only marks it, and exits zero.
    assert re.search(r"^p99 of all requests: \d+ ms, bound 250 ms for 2 table\(s\): (OK|OVER)\.$",
                     out, re.M)  # fmt: skip

    # What the clients saved is what the database holds.
    record = json.loads(saved.read_text())
    with sqlite3.connect(db) as conn:
        stored = dict(
            conn.execute(
                "SELECT game_id, COUNT(*) FROM tournaments_hand GROUP BY game_id"
            ).fetchall()
        )
        for pk, entry in record["games"].items():
            assert stored.get(int(pk), 0) == len(entry["hands"])
        assert sum(stored.values()) == int(rows["hand saved"][0]) > 0
        # The app server is gone and its port is free again.
        port = int(re.search(r"on 127\.0\.0\.1:(\d+)", out).group(1))
        with pytest.raises(OSError), socket.create_connection(("127.0.0.1", port), timeout=1):
            pass

        # A stored result changed behind the app's back: the check must say so.
        game = next(int(pk) for pk, entry in record["games"].items() if entry["hands"])
        conn.execute(
            "UPDATE tournaments_gameseat SET score = score + 300 WHERE game_id = ? AND seat = 1",
            (game,),
        )
    checked = _manage(db, "load_test", "--check", str(saved))
    assert checked.returncode != 0
    assert "Database check: FAILED, 1 problem(s):" in checked.stdout
    assert re.search(
        rf"\(game {game}\): seat 1 .* has score -?\d+, a fresh replay gives", checked.stdout
    )
    assert "The database check found 1 problem(s)." in checked.stderr


@pytest.mark.slow
def test_ctrl_c_stops_the_app_server_and_frees_its_port(tmp_path):
    db = tmp_path / "load.sqlite3"
    assert _manage(db, "migrate", "-v", "0").returncode == 0
    env = {
        k: v for k, v in os.environ.items() if k not in ("CACHE_URL", "DJANGO_ALLOW_ASYNC_UNSAFE")
    }
    env.update(DJANGO_SETTINGS_MODULE="config.settings", DATABASE_URL=f"sqlite:///{db}")
    args = ["load_test", "--tables", "1", "--seconds", "120", "--workers", "1"]
    process = subprocess.Popen(
        [sys.executable, "-u", "manage.py", *args],
        cwd=PROJECT_DIR,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        # As in a terminal: Ctrl-C interrupts (a background job would ignore it).
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    try:
        lines = []
        for line in process.stdout:
            lines.append(line)
            if "against gunicorn" in line:
                break
        port = int(re.search(r"on 127\.0\.0\.1:(\d+)", "".join(lines)).group(1))
        socket.create_connection(("127.0.0.1", port), timeout=5).close()
        process.send_signal(signal.SIGINT)
        out = process.stdout.read()
        assert process.wait(timeout=120) != 0
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert "Interrupted: the app server is stopped." in out
    with pytest.raises(OSError), socket.create_connection(("127.0.0.1", port), timeout=1):
        pass


@pytest.mark.django_db
def test_a_fresh_room_leaves_out_the_sessions_of_earlier_runs():
    loadtest.prepare(tables=2, say=lambda *_: None)
    loadtest.prepare(tables=2, say=lambda *_: None)
    assert Event.objects.get(slug=loadtest.SLUG).sessions.count() == 2
    tables = loadtest.prepare(tables=2, fresh=True, say=lambda *_: None)
    event = Event.objects.get(slug=loadtest.SLUG)
    assert list(event.sessions.values_list("number", flat=True)) == [1]
    assert sorted(Game.objects.filter(session__event=event).values_list("pk", flat=True)) == sorted(
        table.game_id for table in tables
    )


@pytest.mark.django_db
def test_fresh_refuses_an_event_with_games_of_other_players_and_deletes_nothing():
    event = Event.objects.create(name="Club night", slug="club", starts_on=datetime.date.today())
    session = event.sessions.create(number=1, date=event.starts_on)
    players = services.players_by_name(["Aki", "Ben", "Chie", "Dan"], create=True)
    game = services.create_game(session, players, table_number=1)
    with pytest.raises(loadtest.NotALoadTest, match="did not make: it is not deleted"):
        loadtest.prepare(tables=1, slug=event.slug, fresh=True, say=lambda *_: None)
    assert Event.objects.filter(pk=event.pk).exists()
    assert Game.objects.filter(pk=game.pk).exists()

"""`python manage.py load_test`: a tournament room against gunicorn on this machine, then
a check of the database against what the clients saw."""

from __future__ import annotations

import json
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.parse
from argparse import ArgumentTypeError
from contextlib import ExitStack
from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.db import connection

from perf import loadtest

HOST = "127.0.0.1"
PROJECT_DIR = Path(settings.BASE_DIR)


def whole(least: int):
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            value = least - 1
        if value < least:
            raise ArgumentTypeError(f"Give a whole number of at least {least}, not {text!r}.")
        return value

    return parse


def seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = 0.0
    if not value > 0:
        raise ArgumentTypeError(f"Give a number of seconds above 0, not {text!r}.")
    return value


def database_url(db: dict) -> str:
    """The DATABASE_URL of a Django database entry, for the app server to reach the same
    database this command prepares and checks."""
    engine = db["ENGINE"]
    if engine == "django.db.backends.sqlite3":
        name = str(db["NAME"])
        if name == ":memory:" or name.startswith("file:"):
            raise CommandError(
                "The database is SQLite in memory, which another process cannot reach: give "
                "a file (DATABASE_URL=sqlite:////path/to/file.sqlite3) or PostgreSQL."
            )
        return f"sqlite:///{Path(name).resolve()}"
    if engine in ("django.db.backends.postgresql", "django.contrib.gis.db.backends.postgis"):
        user = urllib.parse.quote(db.get("USER") or "", safe="")
        password = urllib.parse.quote(db.get("PASSWORD") or "", safe="")
        login = f"{user}:{password}@" if password else (f"{user}@" if user else "")
        host = db.get("HOST") or "127.0.0.1"
        port = db.get("PORT") or 5432
        return f"postgres://{login}{host}:{port}/{urllib.parse.quote(db['NAME'], safe='')}"
    raise CommandError(f"The load test runs on SQLite or PostgreSQL, not {engine}.")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        return sock.getsockname()[1]


def wait_for_port(port: int, process: subprocess.Popen, what: str, limit: float = 60) -> None:
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise CommandError(f"{what} stopped as it started (exit {process.returncode}).")
        try:
            with socket.create_connection((HOST, port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.2)
    raise CommandError(f"{what} did not listen on {HOST}:{port} within {limit:.0f} s.")


def stop(process: subprocess.Popen) -> None:
    """Stop a server started in its own process group: politely, then for sure."""
    if process.poll() is not None:
        return
    try:
        os.killpg(process.pid, signal.SIGTERM)
        process.wait(timeout=30)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()
    except ProcessLookupError:
        process.wait()


def _interrupted(signum, frame):
    raise KeyboardInterrupt


class Command(BaseCommand):
    help = (
        "Prepare a session of games in progress with table links (event load-test, kept "
        "for later runs), start gunicorn on 127.0.0.1, and for --seconds let every table "
        "enter hands through the hand form, its preview and confirmation while four readers "
        "a table follow the room (a third of them with the live screen open, the others "
        "reloading the standings and their game). Prints requests per second, p50/p95/p99 "
        "and errors per kind of request, and the p99 of all requests against its bound "
        "(250 ms up to 100 tables, 500 ms up to 200), then checks that every hand saved is "
        "stored once and that every game's stored results equal a fresh replay. Exits "
        "non-zero on any error, a problem in the database or a p99 over its bound."
    )

    def add_arguments(self, parser):
        parser.add_argument("--tables", type=whole(1), default=100)
        parser.add_argument("--seconds", type=seconds, default=120.0)
        parser.add_argument(
            "--workers",
            type=whole(1),
            default=2 * (os.cpu_count() or 1) + 1,
            help="gunicorn workers (default: twice the cores and one, as gunicorn's own "
            "documentation advises to start from)",
        )
        parser.add_argument(
            "--reload-every", type=seconds, default=10.0, help="seconds between a player's reloads"
        )
        parser.add_argument(
            "--hand-every", type=seconds, default=10.0, help="seconds between a table's hands"
        )
        parser.add_argument("--timeout", type=seconds, default=30.0, help="per request")
        parser.add_argument("--slug", default=loadtest.SLUG, help="the event to use or make")
        parser.add_argument(
            "--fresh",
            action="store_true",
            help="make the event anew, without the sessions of earlier runs",
        )
        parser.add_argument("--seed", type=whole(0), default=1)
        parser.add_argument(
            "--cache-url",
            default=None,
            help="the app server's CACHE_URL (default: this process's CACHE_URL, if any)",
        )
        parser.add_argument(
            "--redis", action="store_true", help="start a Redis of its own for the app server"
        )
        parser.add_argument(
            "--save", metavar="FILE", help="write what the clients saved to FILE (JSON)"
        )
        parser.add_argument(
            "--check",
            metavar="FILE",
            help="only check the database against a FILE written by --save",
        )
        parser.add_argument(
            "--report-only",
            action="store_true",
            help="print the p99's bound, but exit zero when the p99 is over it",
        )

    def handle(self, *args, **options):
        if options["check"]:
            self._check(self._read(options["check"]))
            return
        if options["redis"] and options["cache_url"]:
            raise CommandError("Give --redis or --cache-url, not both.")
        url = database_url(connection.settings_dict)
        previous = signal.signal(signal.SIGTERM, _interrupted)
        try:
            with ExitStack() as cleanup:
                self._run(options, url, cleanup)
        except KeyboardInterrupt:
            raise CommandError("Interrupted: the app server is stopped.") from None
        finally:
            signal.signal(signal.SIGTERM, previous)

    def _run(self, options, url: str, cleanup: ExitStack) -> None:
        try:
            tables = loadtest.prepare(
                tables=options["tables"], slug=options["slug"], seed=options["seed"],
                fresh=options["fresh"], say=self.stdout.write,
            )  # fmt: skip
        except loadtest.NotALoadTest as refused:
            raise CommandError(str(refused)) from None
        cache_url = options["cache_url"]
        if cache_url is None:
            cache_url = os.environ.get("CACHE_URL", "")
        if options["redis"]:
            cache_url = self._start_redis(cleanup)
        port = self._start_gunicorn(options["workers"], url, cache_url, cleanup)
        room = loadtest.Room(
            host=HOST,
            port=port,
            slug=options["slug"],
            seconds=options["seconds"],
            reload_every=options["reload_every"],
            hand_every=options["hand_every"],
            timeout=options["timeout"],
        )
        self.stdout.write(
            f"{len(tables)} tables, {len(tables) * 4} players, {room.seconds:g} s against "
            f"gunicorn ({options['workers']} workers) on {HOST}:{port}, "
            f"{connection.vendor}, cache: {_cache_name(cache_url)}"
        )
        loadtest.warm_up(room, tables, workers=options["workers"])
        result = loadtest.run(room, tables, seed=options["seed"])
        cleanup.close()  # the app server stops before the figures and the check
        self._report(result)
        record = loadtest.client_record(result.tables)
        if options["save"]:
            Path(options["save"]).write_text(json.dumps(record))
        check = self._check(record, raise_on_problems=False)
        failures = []
        if result.error_count:
            failures.append(f"{result.error_count} request(s) failed (listed above)")
        if not check.ok:
            failures.append(f"the database check found {len(check.problems)} problem(s)")
        over = over_bound(result)
        if over and not options["report_only"]:
            failures.append(over)
        if failures:
            raise CommandError("The load test failed: " + "; ".join(failures) + ".")

    def _start_redis(self, cleanup: ExitStack) -> str:
        server = shutil.which("redis-server")
        if server is None:
            raise CommandError("--redis needs redis-server: install it or give --cache-url.")
        port = free_port()
        process = subprocess.Popen(
            [server, "--port", str(port), "--bind", HOST, "--save", "", "--appendonly", "no"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
        cleanup.callback(stop, process)
        wait_for_port(port, process, "redis-server")
        return f"redis://{HOST}:{port}/0"

    def _start_gunicorn(self, workers: int, url: str, cache_url: str, cleanup) -> int:
        static = Path(tempfile.mkdtemp(prefix="tenbou-load-static-"))
        cleanup.callback(shutil.rmtree, static, ignore_errors=True)
        env = {
            **{k: v for k, v in os.environ.items() if k != "DJANGO_ALLOW_ASYNC_UNSAFE"},
            "DJANGO_SETTINGS_MODULE": "config.settings",
            "DATABASE_URL": url,
            "CACHE_URL": cache_url,
            # As in production: DEBUG off, served over plain HTTP on loopback only.
            "DEBUG": "0",
            "SECRET_KEY": secrets.token_urlsafe(50),
            "ALLOWED_HOSTS": HOST,
            "SECURE_SSL_REDIRECT": "0",
            "SESSION_COOKIE_SECURE": "0",
            "CSRF_COOKIE_SECURE": "0",
            "STATIC_ROOT": str(static),
            "LOG_LEVEL": "WARNING",
            # The room sends no mail; production's check for a mail host is not the point.
            "EMAIL_TO_CONSOLE": "1",
        }
        collected = subprocess.run(
            [sys.executable, "manage.py", "collectstatic", "--noinput", "-v", "0"],
            cwd=PROJECT_DIR,
            env=env,
            capture_output=True,
            text=True,
        )
        if collected.returncode:
            raise CommandError(f"collectstatic failed: {collected.stderr.strip()[-500:]}")
        port = free_port()
        process = subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "config.wsgi", "--workers", str(workers),
             "--bind", f"{HOST}:{port}", "--log-level", "warning", "--timeout", "60"],
            cwd=PROJECT_DIR,
            env=env,
            start_new_session=True,
        )  # fmt: skip
        cleanup.callback(stop, process)
        wait_for_port(port, process, "gunicorn")
        return port

    def _report(self, result: loadtest.RunResult) -> None:
        w = self.stdout.write
        w(f"Ran {result.seconds:.1f} s: {result.total.count} requests, "
          f"{result.total.per_second:.1f} per second.")  # fmt: skip
        w(f"  {'request':12} {'count':>7} {'per s':>7} {'p50':>9} {'p95':>9} {'p99':>9} "
          f"{'errors':>6}")  # fmt: skip
        for row in result.figures:
            w(
                f"  {row.kind:12} {row.count:7d} {row.per_second:7.1f} {row.p50 * 1000:6.0f} ms "
                f"{row.p95 * 1000:6.0f} ms {row.p99 * 1000:6.0f} ms {row.errors:6d}"
            )
        w(bound_line(result))
        done = loadtest.summary(result.tables)
        w(f"Hands saved: {done['hands']} at {len(result.tables)} tables; "
          f"{done['finished']} game(s) played to their end.")  # fmt: skip
        if done["recovered"] or done["uncertain"]:
            w(f"  {done['recovered']} save(s) got no answer but were found stored afterwards; "
              f"{done['uncertain']} table(s) ended on a save without an answer (stored or "
              "not: the check accepts both).")  # fmt: skip
        for kind, reasons in result.errors.items():
            for reason, count in reasons.most_common(5):
                w(f"  error, {kind}: {reason} ({count}x)")
        for table in result.tables:
            if table.stopped:
                w(f"  table {table.number} stopped entering hands: {table.stopped}")

    def _read(self, path: str) -> dict:
        try:
            record = json.loads(Path(path).read_text())
            games = record["games"]
            for entry in games.values():
                entry["table"], entry["hands"], entry["uncertain"]  # noqa: B018
        except (OSError, ValueError, KeyError, TypeError, AttributeError) as err:
            raise CommandError(
                f"{path} is not a file written by load_test --save ({type(err).__name__}: {err})."
            ) from None
        return record

    def _check(self, record: dict, *, raise_on_problems: bool = True) -> loadtest.Check:
        check = loadtest.check_database(record)
        if check.ok:
            self.stdout.write(
                f"Database check: OK. {check.games} games, {check.hands} hands: every hand "
                "saved is stored once and as entered, and every game's stored results equal "
                "a fresh replay."
            )
            return check
        self.stdout.write(f"Database check: FAILED, {len(check.problems)} problem(s):")
        for problem in check.problems:
            self.stdout.write(f"  {problem}")
        if raise_on_problems:
            raise CommandError(f"The database check found {len(check.problems)} problem(s).")
        return check


def bound_line(result: loadtest.RunResult) -> str:
    """The p99 of all requests against the bound of a room of this many tables."""
    tables, p99 = len(result.tables), result.total.p99 * 1000
    bound = loadtest.p99_bound(tables)
    if bound is None:
        return f"p99 of all requests: {p99:.0f} ms (no bound for more than 200 tables)."
    verdict = "OVER" if over_bound(result) else "OK"
    return (
        f"p99 of all requests: {p99:.0f} ms, bound {bound * 1000:.0f} ms for "
        f"{tables} table(s): {verdict}."
    )


def over_bound(result: loadtest.RunResult) -> str:
    """Why the run's p99 is over its bound, or "" when it is within it (or unbounded)."""
    bound = loadtest.p99_bound(len(result.tables))
    # Judged as printed, to the millisecond.
    if bound is None or round(result.total.p99 * 1000) <= round(bound * 1000):
        return ""
    return (
        f"the p99 of all requests, {result.total.p99 * 1000:.0f} ms, is over its bound of "
        f"{bound * 1000:.0f} ms"
    )


def _cache_name(url: str) -> str:
    if not url:
        return "each process's memory"
    parts = urllib.parse.urlsplit(url)
    return f"{parts.scheme}://{parts.hostname}:{parts.port}{parts.path}"

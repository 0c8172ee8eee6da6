"""The cache from CACHE_URL, and two app servers sharing one database and one Redis.

The two-server test runs when the tests run on PostgreSQL and `redis-server` is installed:
it starts a Redis of its own and two gunicorn processes on loopback, enters a hand that
ends a game through the first, and reads the standings from the second.
"""

from __future__ import annotations

import http.cookiejar
import os
import re
import shutil
import socket
import subprocess
import sys
import time
import urllib.parse
import urllib.request
from pathlib import Path

import pytest
import redis
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.db import connection
from django.test import Client

from config.settings import cache_config
from tournaments import services
from tournaments.models import Event, Game, Session

from .builders import final_game
from .test_foundation import read_setting

PROJECT_DIR = Path(__file__).resolve().parents[2]


# --- CACHE_URL -----------------------------------------------------------------------------


def test_without_cache_url_each_process_caches_in_its_own_memory():
    assert cache_config("") == {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}
    backend = read_setting("settings.CACHES['default']['BACKEND']", env={})
    assert backend == "django.core.cache.backends.locmem.LocMemCache"


def test_a_redis_cache_url_uses_djangos_redis_cache_with_its_clients_kept():
    assert cache_config("redis://127.0.0.1:6379/1") == {
        "BACKEND": "config.cache.KeptClientRedisCache",
        "LOCATION": "redis://127.0.0.1:6379/1",
    }
    env = {"CACHE_URL": "rediss://cache.internal:6380/2"}
    found = read_setting(
        "settings.CACHES['default']['BACKEND'], settings.CACHES['default']['LOCATION']", env=env
    )
    assert found == "config.cache.KeptClientRedisCache rediss://cache.internal:6380/2"


def test_a_cache_url_that_is_not_redis_is_refused_with_what_to_write():
    with pytest.raises(ImproperlyConfigured, match="give redis://host:port/db"):
        cache_config("memcached://127.0.0.1:11211")


# --- two app servers ---------------------------------------------------------------------


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _wait_for_port(port: int, process: subprocess.Popen, what: str) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise AssertionError(f"{what} stopped at start (exit {process.returncode})")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.2)
    raise AssertionError(f"{what} did not listen on port {port} within 60 s")


def _stop(process: subprocess.Popen) -> None:
    process.terminate()
    try:
        process.wait(timeout=20)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


@pytest.fixture
def redis_url():
    server = shutil.which("redis-server")
    if server is None:
        pytest.skip("redis-server is not installed")
    port = _free_port()
    process = subprocess.Popen(
        [server, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        _wait_for_port(port, process, "redis-server")
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        _stop(process)


def test_the_redis_cache_keeps_one_client_over_its_pool_and_reads_what_it_wrote(redis_url):
    from config.cache import KeptClientRedisCache

    backend = KeptClientRedisCache(redis_url, {})
    backend.set("standings", {"html": "<table>"}, 60)
    assert backend.get("standings") == {"html": "<table>"}
    assert backend.add("lock", 1, 60) and not backend.add("lock", 1, 60)
    backend.delete("lock")
    clients = [backend._cache.get_client(write=write) for write in (False, True, False)]
    assert all(client is clients[0] for client in clients)


def _database_url() -> str:
    db = connection.settings_dict
    user = urllib.parse.quote(db["USER"] or "")
    password = f":{urllib.parse.quote(db['PASSWORD'])}" if db["PASSWORD"] else ""
    return (
        f"postgres://{user}{password}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"
    )


@pytest.fixture
def app_servers(redis_url):
    """Two gunicorn processes on the test database and the Redis above: their URLs."""
    if connection.vendor != "postgresql":
        pytest.skip("two app servers need a database both can reach: run on PostgreSQL")
    env = {
        **{k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "CACHE_URL")},
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DATABASE_URL": _database_url(),
        "CACHE_URL": redis_url,
        "SECRET_KEY": settings.SECRET_KEY,
        "DEBUG": "1",
    }
    env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
    processes, urls = [], []
    try:
        for name in ("first", "second"):
            port = _free_port()
            process = subprocess.Popen(
                [sys.executable, "-m", "gunicorn", "config.wsgi", "--workers", "1",
                 "--bind", f"127.0.0.1:{port}", "--log-level", "warning"],
                cwd=PROJECT_DIR,
                env=env,
            )  # fmt: skip
            processes.append(process)
            _wait_for_port(port, process, f"the {name} gunicorn")
            urls.append(f"http://127.0.0.1:{port}")
        yield urls, redis_url
    finally:
        for process in processes:
            _stop(process)


class Browser:
    """Just enough of a browser: cookies, and the CSRF token of the last page read."""

    def __init__(self, session_cookie: str):
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))
        self.session_cookie = session_cookie

    def _request(self, url: str, data: bytes | None = None) -> tuple[int, str]:
        request = urllib.request.Request(url, data=data)
        request.add_header("Cookie", self._cookies(url))
        try:
            with self.opener.open(request, timeout=30) as response:
                return response.status, response.read().decode()
        except urllib.error.HTTPError as err:
            return err.code, err.read().decode()

    def _cookies(self, url: str) -> str:
        host = urllib.parse.urlsplit(url).hostname
        found = {
            c.name: c.value for c in self.jar if c.domain.lstrip(".") in (host, f"{host}.local")
        }
        found["sessionid"] = self.session_cookie
        return "; ".join(f"{k}={v}" for k, v in found.items())

    def get(self, url: str) -> str:
        status, body = self._request(url)
        assert status == 200, (url, status, body[:500])
        return body

    def post_form(self, url: str, fields: dict[str, str]) -> int:
        page = self.get(url)
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)
        data = urllib.parse.urlencode({"csrfmiddlewaretoken": token, **fields}).encode()
        status, _ = self._request(url, data)
        return status


def _standings_names(html: str) -> list[str]:
    return re.findall(r'href="/players/\d+/[^"]*">([^<]+)</a>', html)


@pytest.mark.django_db(transaction=True)
def test_a_hand_entered_through_one_server_shows_at_once_in_the_others_standings(
    organiser, app_servers
):
    (first, second), redis_url = app_servers
    event = Event.objects.create(name="Shared", slug="shared", starts_on="2026-01-01")
    event.organisers.add(organiser)
    session = Session.objects.create(event=event, number=1, date="2026-01-08")
    final_game(session, ["Aki", "Ben", "Chie", "Dan"], [41300, 24900, 21800, 12000], 1)
    players = services.players_by_name(["Eri", "Fumi", "Gen", "Hana"], create=True)
    game = services.create_game(session, players, table_number=2)
    browser = Client()
    browser.force_login(organiser)
    you = Browser(browser.cookies["sessionid"].value)

    standings = f"{second}/events/shared/standings/"
    before = you.get(standings)
    # The second server cached the standings in the one Redis, not in its own memory.
    assert redis.Redis.from_url(redis_url).dbsize() > 0
    assert "Aki" in _standings_names(before) and "Eri" not in _standings_names(before)

    # Through the first server: the dealer (Eri) rons Gen for a yakuman; Gen is below zero
    # and the game is over.
    hand = {"result": "ron", "w1_winner": "0", "loser": "2", "w1_han": "Y", "w1_yakuman": "1"}
    new_hand = f"{first}/games/{game.pk}/hands/new/"
    status = you.post_form(new_hand, {**hand, "number": "1", "action": "save"})
    assert status in (200, 302)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED

    after = you.get(standings)
    names = _standings_names(after)
    assert {"Eri", "Fumi", "Gen", "Hana"} <= set(names)
    assert names.index("Eri") < names.index("Gen")

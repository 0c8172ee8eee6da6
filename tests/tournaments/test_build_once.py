"""A part missing from the cache is built by one request at a time: others wait for it."""

from __future__ import annotations

import threading

import pytest
from django.core.cache import cache

from tournaments import pagecache


@pytest.fixture(autouse=True)
def _empty_cache():
    cache.clear()
    yield
    cache.clear()


def test_a_missing_part_is_built_once_and_kept():
    calls = []
    first = pagecache.cached("part", (1, "token"), lambda: calls.append(1) or "html")
    again = pagecache.cached("part", (1, "token"), lambda: calls.append(1) or "other")
    assert (first, again, calls) == ("html", "html", [1])
    assert cache.get(pagecache.key("part", 1, "token") + ":building") is None


def test_a_request_waits_for_the_part_another_is_building(monkeypatch):
    monkeypatch.setattr(pagecache, "BUILD_POLL_SECONDS", 0.01)
    name = pagecache.key("part", 2, "token")
    assert cache.add(f"{name}:building", 1, 30)  # another request is building it

    def finish():
        cache.set(name, "built elsewhere", 60)
        cache.delete(f"{name}:building")

    timer = threading.Timer(0.1, finish)
    timer.start()
    try:

        def refuse():
            raise AssertionError("built a second time")

        assert pagecache.cached("part", (2, "token"), refuse) == "built elsewhere"
    finally:
        timer.cancel()


def test_a_builder_that_gives_up_leaves_the_part_to_the_next_request(monkeypatch):
    monkeypatch.setattr(pagecache, "BUILD_POLL_SECONDS", 0.01)
    name = pagecache.key("part", 3, "token")
    cache.add(f"{name}:building", 1, 30)
    threading.Timer(0.05, lambda: cache.delete(f"{name}:building")).start()
    assert pagecache.cached("part", (3, "token"), lambda: "built here") == "built here"


def test_a_builder_slower_than_the_wait_is_not_waited_for(monkeypatch):
    monkeypatch.setattr(pagecache, "BUILD_POLL_SECONDS", 0.01)
    monkeypatch.setattr(pagecache, "BUILD_WAIT_SECONDS", 0.05)
    name = pagecache.key("part", 4, "token")
    cache.add(f"{name}:building", 1, 30)
    assert pagecache.cached("part", (4, "token"), lambda: "built here") == "built here"


def test_a_failed_build_releases_its_claim():
    def fail():
        raise RuntimeError("broken")

    with pytest.raises(RuntimeError):
        pagecache.cached("part", (5, "token"), fail)
    assert pagecache.cached("part", (5, "token"), lambda: "fine") == "fine"

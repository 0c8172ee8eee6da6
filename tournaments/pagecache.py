"""The mechanics of the one view cache (`tournaments.versions` says what is kept, under
which version): keys, building a missing entry once, and normalising a query.

A key names the view, the version of what it shows and the active language, so that a
change shows at once, and a page rendered in one language is never served in another.
Requests that differ only in what a page ignores (unknown query parameters, out-of-range
numbers) share one entry: they are normalised before the key is made, so that nobody can
make the server render the same page again and again by varying its address.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable
from typing import TypeVar

from django.core.cache import cache
from django.http import QueryDict
from django.utils.translation import get_language

# Entries stay valid until their version changes; this only bounds how long an unused
# entry is kept.
CACHE_SECONDS = 60 * 60

T = TypeVar("T")


def key(kind: str, *parts) -> str:
    """The cache key of one part of a page; the active language is always part of it."""
    raw = "\x1f".join([kind, *(str(p) for p in parts), get_language() or ""])
    return f"page:{kind}:{hashlib.sha256(raw.encode()).hexdigest()[:40]}"


# While one request builds a missing part, others asking for the same part wait for it
# (polling the cache) rather than build it too: after a change, a room of phones asks for
# the same standings at once. A builder that takes longer than this is not waited for.
BUILD_WAIT_SECONDS = 10.0
BUILD_POLL_SECONDS = 0.02


def cached(kind: str, parts: tuple, build: Callable[[], T]) -> T:
    """The cached value of `kind` for `parts`, built (and kept) when missing, by one
    request at a time across every process that shares the cache."""
    name = key(kind, *parts)
    value = cache.get(name)
    if value is None:
        value = build_once(name, build)
    return value


def keep(kind: str, parts: tuple, value) -> None:
    """Keep `value` as the part `kind` for `parts`, made already by the change that made it
    current (see `cached`)."""
    cache.set(key(kind, *parts), value, CACHE_SECONDS)


def build_once(name: str, build: Callable[[], T]) -> T:
    """Build the value of cache key `name` and keep it, unless another request is building
    it already: then wait for that one's value (or, should it fail or take too long,
    build it here after all)."""
    lock = f"{name}:building"
    if not cache.add(lock, 1, int(BUILD_WAIT_SECONDS) + 1):
        deadline = time.monotonic() + BUILD_WAIT_SECONDS
        while time.monotonic() < deadline:
            time.sleep(BUILD_POLL_SECONDS)
            value = cache.get(name)
            if value is not None:
                return value
            if cache.get(lock) is None:
                # Finished just now, or gave up without a value.
                value = cache.get(name)
                if value is not None:
                    return value
                break
        value = build()
        cache.set(name, value, CACHE_SECONDS)
        return value
    try:
        value = build()
        cache.set(name, value, CACHE_SECONDS)
    finally:
        cache.delete(lock)
    return value


def only(query: QueryDict, allowed: dict[str, Callable[[str], str | None]]) -> QueryDict:
    """A copy of `query` with the parameters in `allowed`, each kept only when its check
    returns a value (the value to keep), in a fixed order."""
    kept = QueryDict(mutable=True)
    for name, check in allowed.items():
        raw = query.get(name)
        if raw is None:
            continue
        value = check(raw)
        if value is not None:
            kept[name] = value
    return kept


def whole_number(low: int, high: int) -> Callable[[str], str | None]:
    """A check for `only`: a whole number, held between `low` and `high`."""

    def check(raw: str) -> str | None:
        try:
            number = int(raw)
        except ValueError:
            return None
        return str(min(max(number, low), high))

    return check


def one_of(names) -> Callable[[str], str | None]:
    """A check for `only`: one of `names` (a column to order by, with or without "-")."""
    choices = frozenset(names)

    def check(raw: str) -> str | None:
        return raw if raw.lstrip("-") in choices else None

    return check

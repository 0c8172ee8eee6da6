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

from django.contrib.messages import get_messages
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse, QueryDict
from django.middleware.csrf import get_token
from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.crypto import salted_hmac
from django.utils.html import escape
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


# A whole page is kept with slots in place of what differs from one request to the next
# (the reader's form token and name, the time a clock is shown at), filled in as it is
# served. A slot carries a mark made from the site's secret key, so that no text a user
# types (a player's name on the standings, say) can be taken for one.
def slot(name: str) -> str:
    """The text a kept page holds in place of the fresh value `name` (see `page`)."""
    return f"slot-{name}-{salted_hmac('tenbou.pagecache.slot', name).hexdigest()[:16]}"


TOKEN_SLOT = slot("csrf-token")
READER_SLOT = slot("reader-name")


def page(
    request: HttpRequest,
    kind: str,
    parts: tuple,
    template: str,
    context: Callable[[], dict],
    *,
    query: str = "",
    fresh: dict[str, str] | None = None,
) -> HttpResponse:
    """The page `template` renders from `context()`, kept whole for every reader who sees
    it alike: under `parts` (what the page shows: versions, times of change, the rows read
    fresh, what the reader may do there), the address and the day. `fresh` maps the
    `slot` of each value the context holds in its place to that value, put in (escaped)
    as the page is served. Rendered afresh, and not kept, for a request whose address is
    not written as the page writes it (`query`: its query once normalised) and for one
    with messages to show."""
    if (
        request.method != "GET"
        or request.META.get("QUERY_STRING", "") != query
        or len(get_messages(request))
    ):
        body = render_to_string(template, context(), request)
    else:
        # One page for every reader alike: what a page shows of who reads it is in `parts`
        # (organising the event, holding its table link...); the header shows whether
        # they are signed in, whether they run the site, and their name, put in here.
        user = request.user
        reader = (user.is_authenticated, user.is_superuser)
        where = (request.build_absolute_uri(request.path), query, bool(request.htmx))
        slots = {"csrf_token": TOKEN_SLOT, "reader_name": READER_SLOT}
        body = cached(
            f"page:{kind}",
            (*parts, reader, where, timezone.localdate().isoformat()),
            lambda: render_to_string(template, {**context(), **slots}, request),
        )
        if TOKEN_SLOT in body:
            body = body.replace(TOKEN_SLOT, get_token(request))
        if READER_SLOT in body:
            name = user.get_short_name() or user.get_username()
            body = body.replace(READER_SLOT, escape(name))
    for name, value in (fresh or {}).items():
        body = body.replace(name, escape(value))
    return HttpResponse(body)


def row(instance) -> tuple:
    """Every stored value of a model instance as read: for a key of what it shows."""
    return tuple(getattr(instance, field.attname) for field in instance._meta.concrete_fields)

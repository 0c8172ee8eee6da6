"""The two versions of an event's pages, and the one cache of rendered views.

Every cached view of an event is kept under one of two versions that the event carries:

- `results`: what its standings count and show: a finished game's final scores, the
  rules, players' names, the sessions;
- `play`: anything at a table as well (a hand of a game still going, a seat, a table
  link, the roster); it changes whenever `results` does.

A game's page for readers is kept under the game's time of change instead
(`Game.updated_at`), which every change of its hands, seats or results sets: a hand at
another table, or another game's end, leaves it be (the live screen's cards key on it too).
A change that alters what a game shows without saving the game (a player renamed or
merged, a stage's rules) sets the time of change of the games it touches with
`games_changed`.

A change marks its events with `changed` inside its transaction; the new versions are
written once the transaction commits, in one short statement of their own. So a reader
never caches what was read before the commit under the new version, and a hand at one
table never holds the event's row while another table's hand waits for it.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Iterable
from typing import TypeVar

from django.db import connection, transaction
from django.utils import timezone

from . import pagecache

RESULTS = "results"
PLAY = "play"
# The fields of `Event` that hold them.
TOKENS = ("results_token", "play_token")

T = TypeVar("T")


def new_version() -> str:
    return secrets.token_hex(16)


class _Pending:
    """The events a transaction changed, bumped once after it commits."""

    def __init__(self) -> None:
        self.play: set[int] = set()
        self.results: set[int] = set()

    def __call__(self) -> None:
        # An event whose results changed gets both new versions in one statement.
        bump(self.play - self.results, results=False)
        bump(self.results, results=True)


def changed(events: int | Iterable[int], *, results: bool = False) -> None:
    """Mark events (ids) as changed: their `play` version, and with `results` their
    `results` version too, are replaced after the current transaction commits (at once
    outside one). The one place that replaces them."""
    ids = {events} if isinstance(events, int) else {e for e in events if e is not None}
    if not ids:
        return
    if not connection.in_atomic_block or _in_test_transaction():
        bump(ids, results=results)
        return
    pending = _pending()
    if pending is None:
        pending = _Pending()
        transaction.on_commit(pending)
    (pending.results if results else pending.play).update(ids)


def _in_test_transaction() -> bool:
    # A test case's transaction is rolled back, never committed: inside it (one test at a
    # time, no other reader) the versions are replaced at once.
    blocks = connection.atomic_blocks
    return bool(blocks) and blocks[0]._from_testcase


def _pending() -> _Pending | None:
    # The bump this transaction registered already, unless a rolled-back savepoint took it
    # away (then a new one is registered with what follows).
    for _savepoints, func, *_robust in connection.run_on_commit:
        if isinstance(func, _Pending):
            return func
    return None


def bump(ids: Iterable[int], *, results: bool) -> None:
    from .models import Event

    ids = sorted(set(ids))
    if not ids:
        return
    fields = {"play_token": new_version()}
    if results:
        fields["results_token"] = new_version()
    Event.objects.filter(pk__in=ids).update(**fields)


def games_changed(games) -> None:
    """Set anew the time of change of `games` (a queryset): what their pages show changed
    though the games themselves did not."""
    games.update(updated_at=timezone.now())


def version_of(event, version: str) -> str:
    """The current token of `version` (RESULTS or PLAY) of `event` as loaded."""
    return event.results_token if version == RESULTS else event.play_token


def cached(
    kind: str,
    event,
    version: str,
    build: Callable[[], T],
    *,
    query: str = "",
    parts: tuple = (),
) -> T:
    """A rendered view (or a whole page body) of `event`, kept under the event, one of its
    two versions, the language and the normalised query (see `pagecache.only`); `parts`
    names what else the view depends on (who reads it, say). Built by one request at a
    time when missing."""
    return pagecache.cached(
        kind, (event.pk, version, version_of(event, version), query, *parts), build
    )


def page(
    request,
    kind: str,
    event,
    version: str,
    template: str,
    context: Callable[[], dict],
    *,
    query: str = "",
    parts: tuple = (),
):
    """A whole page of `event` (see `pagecache.page`), kept under one of the event's two
    versions and everything else stored on the event's row as read (its name, its rules,
    who may read it): a change of either shows at once."""
    return pagecache.page(
        request,
        kind,
        (event.pk, version, version_of(event, version), shown(event), *parts),
        template,
        context,
        query=query,
    )


def shown(event) -> tuple:
    """What is stored on the event's row as read, but its versions."""
    return tuple(
        value
        for field, value in zip(event._meta.concrete_fields, pagecache.row(event), strict=True)
        if field.name not in TOKENS
    )

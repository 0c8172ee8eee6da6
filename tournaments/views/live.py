"""The live screen: a page for a projector in the playing room.

It shows the standings (the top of the table always, then the rest a page at a time),
each table's round, scores and status, and the round clock, in large type, and refreshes
itself every few seconds through htmx polling. A whole room may keep it open, each screen
at its own page, so each part of the panel is kept for as long as what it shows stays the
same: the standings under the results version; a page of tables under the results
version and its own games' latest change, so that a hand at one table draws only its own
page again; the session on the screen, its games, the clock, signal and referee calls
together under the play version. The panel carries the clock's end time, never the time
left: the browser counts down with its own clock, set against the server's time once,
when the page loads.
"""

from __future__ import annotations

from typing import Any

from django.db.models import (
    Exists,
    OuterRef,
    Prefetch,
    Q,
)
from django.db.models.functions import Lower
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import pgettext

from .. import access, versions
from ..models import WINDS, Event, Game, GameSeat, PhoneContact, Session
from ..standings import event_standings
from ..wording import formatting, phones
from .room import open_calls, signal_context
from .rounds import clock_context
from .sheets import round_name
from .stages import stage_totals_hidden

POLL_SECONDS = 5
TOP = 8  # always shown
PAGE = 8  # of the rest, one page per poll
# Two rows of four cards: whole on a projector at 1280x720 as at 1920x1080, even with
# every name on two lines under a signal and referee calls.
TABLES_PER_PAGE = 8
# Between rounds, the next round's seating by name: two columns of this many lines over
# the place of the tables, one page per poll.
SEATING_PER_PAGE = 24


def _number(value, *, default: int, low: int, high: int) -> int:
    try:
        number = int(value)
    except (TypeError, ValueError):
        return default
    return min(max(number, low), high)


def _session_in_play(event: Event) -> Session | None:
    """The session the room is playing: the latest with a game in progress, else the latest
    with any game, else the last-numbered (a round seated ahead of time has no game yet and
    must not take the screen from the one being played)."""
    games = Game.objects.filter(session=OuterRef("pk"))
    return (
        event.sessions.annotate(
            playing=Exists(games.filter(status=Game.Status.IN_PROGRESS)),
            played=Exists(games),
        )
        .order_by("-playing", "-played", "-number")
        .first()
    )


def _games_of(session: Session) -> tuple[list[tuple[int, Any]], bool]:
    """The session's games in table order, each one's id and time of change, and whether
    its round has begun: anything entered in any of its games (a hand, a final score, or
    an end). A game gone past its first hand or finished says so itself; only while none
    has are their hands and seats asked (a second query, between rounds and in the first
    hands)."""
    games = list(
        session.games.order_by("table_number", "pk").values_list(
            "pk", "updated_at", "status", "round_now"
        )
    )
    begun = any(
        status == Game.Status.FINISHED or round_now not in ("", "E1-0")
        for _pk, _at, status, round_now in games
    )
    if games and not begun:
        entered = Q(hands__isnull=False) | Q(seats__entered_score__isnull=False)
        begun = session.games.filter(entered).exists()
    return [(pk, at) for pk, at, _status, _round in games], begun


def _head(session: Session) -> dict:
    """What the room is told above the standings: the round clock (its end time only: the
    browser counts down to it), the director's signal and the open referee calls."""
    return {
        "clock": clock_context(session) | {"now": None, "left": "", "over": False}
        if session.clock_ends_at
        else None,
        "signal": signal_context(session),
        "calls": open_calls(session),
    }


NO_HEAD = {"clock": None, "signal": None, "calls": []}

Room = tuple[Session | None, list[tuple[int, Any]], bool, dict]


def _room(event: Event, chosen: Session | None) -> Room:
    """The session on the screen (`chosen`, else the one the room is playing), its games,
    whether its round has begun, and its head. Any of them changes only with a change at
    a table, the clock, a signal or a call, each of which replaces the play version: they
    are kept together under it, so that a poll in a busy room, which finds the version
    new, reads them in one build."""

    def build() -> Room:
        session = chosen or _session_in_play(event)
        if session is None:
            return None, [], False, NO_HEAD
        return session, *_games_of(session), _head(session)

    query = f"s={chosen.pk}" if chosen else "playing"
    return versions.cached("live-room", event, versions.PLAY, build, query=query)


def _last_contact(games: list[int]):
    """When a phone of one of the tables `games` last reached the server: a phone's report
    replaces no version (every table's would wait on the event's row), so each poll reads
    it, for the tables of its page alone."""
    contacts = PhoneContact.objects.filter(game_id__in=games).order_by("-at")
    return contacts.values_list("at", flat=True).first()


def _seating(session: Session, page: int) -> tuple[list[dict], int, int]:
    """One page of the session's seats by name A-Z, with table and wind; the page number
    shown (from 1) and the number of pages."""
    seats = GameSeat.objects.filter(game__session=session)
    pages = max(1, -(-seats.count() // SEATING_PER_PAGE))
    index = page % pages
    rows = (
        seats.order_by(Lower("player__display_name"), "player__display_name", "pk").values_list(
            "player__display_name", "game__table_number", "seat"
        )
    )[index * SEATING_PER_PAGE : (index + 1) * SEATING_PER_PAGE]
    lines = [{"name": name, "table": table, "wind": WINDS[seat]} for name, table, seat in rows]
    return lines, index + 1, pages


def _phone(game: Game) -> dict | None:
    """A table's phone: the time it last reached the server (the panel is cached: the time,
    never "minutes ago") and the hands waiting on it; for a finished game only while hands
    wait on it."""
    contact = getattr(game, "phone_contact", None)
    if contact is None or (game.is_finished and not contact.waiting):
        return None
    return {
        "time": phones.contact_time(contact.at),
        "waiting": contact.waiting,
        "line": phones.contact_line(contact.at, contact.waiting),
    }


def _state(game: Game) -> str:
    """A table's state as a CSS class of its card: playing, locked, finished or time."""
    if game.is_finished:
        return "time" if game.ended_by == "time" else "finished"
    return "locked" if game.locked else "playing"


def _status(state: str) -> str:
    return {
        "time": pgettext("a table's state on the live screen", "Time"),
        "finished": pgettext("a table's state on the live screen", "Finished"),
        "locked": pgettext("a table's state on the live screen", "Locked"),
        "playing": pgettext("a table's state on the live screen", "Playing"),
    }[state]


# What a table's card shows of its seats, read on every poll; in the order of the seats
# alone (the model's own order joins every seat to its game, session and event).
LIVE_SEATS = (
    GameSeat.objects.select_related("player")
    .only("game_id", "seat", "score", "is_substitute", "player__display_name")
    .order_by("seat")
)


def _standing_lines(event: Event) -> list[dict]:
    """Every line of the standings as the panel shows it. Kept under the results version:
    a hand at a table draws the panel's tables again, never the standings, which only a
    finished game (or a name, the rules, a penalty) changes."""

    def build() -> list[dict]:
        # Before a final the organisers may hide the totals: the room's screen shows none.
        if stage_totals_hidden(event):
            return []
        return [
            {
                "rank": row.rank_label,
                "name": row.player,
                "points": formatting.match_points(row.match_points),
                "games": row.games,
            }
            for row in event_standings(event, lines=0).rows  # totals only
        ]

    return versions.cached("live-standings", event, versions.RESULTS, build)


def _ranks(request, event: Event, lines: list[dict], top: int, index: int, pages: int) -> str:
    """The standings' section: the top lines, then page `index` of the ranks further
    down. Kept under the results version: a hand at a table never draws it again."""

    def build() -> str:
        context = {
            "top": lines[:top],
            "rest": lines[top:][index * PAGE : (index + 1) * PAGE],
            "rest_page": index + 1,
            "rest_pages": pages,
        }
        return render_to_string("tournaments/partials/live_ranks.html", context, request)

    return versions.cached(
        "live-ranks", event, versions.RESULTS, build, query=f"top={top}&page={index}"
    )


def _tables(request, event: Event, session: Session, games: list[tuple], index: int, pages: int):
    """The cards of page `index` of the session's tables. Kept under the results version
    (names), the page's games and their latest change and phone contact: a hand at a
    table of another page leaves the page be."""
    shown = games[index * TABLES_PER_PAGE : (index + 1) * TABLES_PER_PAGE]
    ids = [pk for pk, _at in shown]
    changed = max((at for _pk, at in shown), default=None)

    def build() -> str:
        read = (
            Game.objects.filter(pk__in=ids)
            .prefetch_related(Prefetch("seats", queryset=LIVE_SEATS))
            .select_related("phone_contact")
            .order_by("table_number", "pk")
        )
        tables = [
            {
                "number": g.table_number,
                "state": _state(g),
                "status": _status(_state(g)),
                "round": round_name(g.round_now)
                if g.entry_mode == Game.EntryMode.HANDS and not g.is_finished
                else "",
                "seats": [
                    {
                        "name": s.player.display_name,
                        "score": formatting.points(s.score),
                        "sub": s.is_substitute,
                    }
                    for s in g.ordered_seats()
                ],
                "phone": _phone(g),
            }
            for g in read
        ]
        context = {"tables": tables, "table_page": index + 1, "table_pages": pages}
        return render_to_string("tournaments/partials/live_tables.html", context, request)

    return versions.cached(
        "live-tables",
        event,
        versions.RESULTS,
        build,
        query=f"s={session.pk}&page={index}",
        parts=(tuple(ids), str(changed), str(_last_contact(ids))),
    )


def _seats(request, event: Event, session: Session, index: int, pages: int) -> str:
    """Between rounds, page `index` of where everyone sits, A-Z. Kept under the play
    version: seating a round replaces it."""

    def build() -> str:
        seating, _index, _pages = _seating(session, index)
        context = {"seating": seating, "seating_page": index + 1, "seating_pages": pages}
        return render_to_string("tournaments/partials/live_seating.html", context, request)

    return versions.cached(
        "live-seats", event, versions.PLAY, build, query=f"s={session.pk}&page={index}"
    )


def _panel(request: HttpRequest, event, chosen: Session | None, page: int, top: int) -> str:
    """The panel a poll returns for the session `chosen` (None: the one in play), put
    together from its parts, each kept as long as what it shows stays the same."""
    lines = _standing_lines(event)
    rest_pages = max(1, -(-len(lines[top:]) // PAGE))
    session, games, begun, head = _room(event, chosen)
    between_rounds = bool(games) and not begun
    if between_rounds:
        # The tables show nothing yet: the room reads where it sits instead.
        seats = len(games) * event.player_count
        pages = max(1, -(-seats // SEATING_PER_PAGE))
        room = _seats(request, event, session, page % pages, pages)
    else:
        pages = max(1, -(-len(games) // TABLES_PER_PAGE))
        room = (
            _tables(request, event, session, games, page % pages, pages)
            if session
            else render_to_string("tournaments/partials/live_tables.html", {"table_pages": 1})
        )
    # The next poll shows the next page of each; the count wraps, so it stays small.
    next_page = (page + 1) % (rest_pages * pages)
    next_url = reverse("tournaments:live", args=[event.slug]) + f"?page={next_page}&top={top}"
    # A screen left on the event follows the round being played; one opened for a session
    # stays on it.
    if chosen is not None:
        next_url += f"&session={session.number}"
    context = {
        "event": event,
        "session": session,
        "ranks": _ranks(request, event, lines, top, page % rest_pages, rest_pages),
        "room": room,
        "between_rounds": between_rounds,
        "next_url": next_url,
        "poll_seconds": POLL_SECONDS,
        **head,
    }
    return render_to_string("tournaments/partials/live_panel.html", context, request=request)


@access.readable_event
def live(request: HttpRequest, event: Event) -> HttpResponse:
    if request.GET.get("session"):
        number = _number(request.GET["session"], default=0, low=0, high=100_000)
        session = event.sessions.filter(number=number).first()
        if session is None:
            raise Http404("No such session.")
    else:
        session = None  # the one the room is playing
    page = _number(request.GET.get("page"), default=0, low=0, high=10_000)
    top = _number(request.GET.get("top"), default=TOP, low=1, high=30)
    panel = _panel(request, event, session, page, top)
    if request.htmx:
        return HttpResponse(panel)
    return render(request, "tournaments/live.html", {"event": event, "panel": panel})

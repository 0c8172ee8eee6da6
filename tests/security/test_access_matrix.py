"""Who may open each address of the app: every URL name of `tournaments`, as an event's
organiser, as the holder of a game's table link, as a stranger (signed in, organising
nothing) and anonymously, in a public and in a private event.

The table below is the spec. A new URL without its row fails the test. Each write view is
also posted to, empty; a refused post leaves the database as it was.
"""

from __future__ import annotations

import datetime
from decimal import Decimal

import pytest
from django.apps import apps
from django.conf import settings
from django.db import transaction
from django.test import Client
from django.urls import reverse

from tournaments import access, services, urls
from tournaments.models import Event, Game, PendingImport, Player, Session, WebSession

ROLES = ("organiser", "table link", "stranger", "anonymous")
KINDS = ("public", "private")

OK = 200
GO = 302  # on to another page of the app
LOGIN = "login"  # sent to the login page
NO = 403  # may see it, may not change it
GONE = 404  # not there for this visitor
POST_ONLY = 405


def row(get, public, private, post=None):
    """`public` and `private`: what the organiser, the table link's holder, the stranger
    and an anonymous visitor get, in that order; `post` likewise for an empty POST, when
    the view writes (a pair of tuples: public, private)."""
    return {"args": get, "get": {"public": public, "private": private}, "post": post}


# The statuses every role meets on the pages of an event it may read, and on its
# organisers' pages.
READ = (OK, OK, OK, OK), (OK, GONE, GONE, GONE)
ORGANISERS = (OK, LOGIN, NO, LOGIN), (OK, LOGIN, GONE, LOGIN)
# A view that only takes a POST, behind a login (GET by an organiser: 405).
POSTED_AFTER_LOGIN = (POST_ONLY, LOGIN, NO, LOGIN), (POST_ONLY, LOGIN, GONE, LOGIN)
# The same with the POST check first: anyone's GET is a 405.
POSTED_FIRST = (POST_ONLY,) * 4, (POST_ONLY,) * 4
# The game's hands: the organiser and the table at the game through its link.
HANDS = (OK, OK, NO, LOGIN), (OK, OK, GONE, GONE)
# The table link reads its game even in a private event.
GAME = (OK, OK, OK, OK), (OK, OK, GONE, GONE)


def refused_writes(organiser):
    """The POST statuses of an organisers' view: the organiser's own answer given."""
    return (organiser, LOGIN, NO, LOGIN), (organiser, LOGIN, GONE, LOGIN)


# fmt: off
SPEC = {
    # Events, sessions and players.
    "home":               row("",                 (OK, OK, OK, OK), (OK, OK, OK, OK)),
    "event_create":       row("",                 (OK, LOGIN, OK, LOGIN), (OK, LOGIN, OK, LOGIN)),
    "event":              row("event",            *READ),
    "event_edit":         row("event",            *ORGANISERS, post=refused_writes(OK)),
    "event_rules":        row("event",            *READ, post=((OK, LOGIN, NO, LOGIN), (OK, GONE, GONE, GONE))),
    "event_organisers":   row("event",            *ORGANISERS, post=refused_writes(OK)),
    "organiser_remove":   row("event co",         *POSTED_AFTER_LOGIN, post=refused_writes(GO)),
    "session_create":     row("event",            *ORGANISERS, post=refused_writes(OK)),
    "session":            row("session",          *READ),
    "session_edit":       row("session",          *ORGANISERS, post=refused_writes(OK)),
    "game_create":        row("session",          *ORGANISERS, post=refused_writes(OK)),
    "game_edit":          row("game",             *ORGANISERS, post=refused_writes(OK)),
    # The round clock and calling time.
    "clock_start":        row("session",          *POSTED_AFTER_LOGIN, post=refused_writes(GO)),
    "clock_stop":         row("session",          *POSTED_AFTER_LOGIN, post=refused_writes(GO)),
    "session_call_time":  row("session",          *ORGANISERS, post=refused_writes(GO)),
    "game_call_time":     row("game",             *POSTED_AFTER_LOGIN, post=refused_writes(GO)),
    "live":               row("event",            *READ),
    "event_trail":        row("event",            *ORGANISERS),
    "event_trail_csv":    row("event",            *ORGANISERS),
    # Table links and slips: the link itself opens for anyone holding its code.
    "table_link":         row("link",             (GO, GO, GO, GO), (GO, GO, GO, GO)),
    "table_link_renew":   row("game",             *POSTED_AFTER_LOGIN, post=refused_writes(GO)),
    "table_link_revoke":  row("game",             *POSTED_AFTER_LOGIN, post=refused_writes(GO)),
    "game_lock":          row("game",             *POSTED_AFTER_LOGIN, post=refused_writes(GO)),
    "game_slip":          row("game",             *ORGANISERS),
    "session_links_make": row("session",          *POSTED_AFTER_LOGIN, post=refused_writes(GO)),
    "session_slips":      row("session",          *ORGANISERS),
    "seat_players":       row("session",          *ORGANISERS, post=refused_writes(OK)),
    "seating_list":       row("session",          *READ),
    # The roster.
    "roster":             row("event",            *READ),
    "roster_pick":        row("event",            *POSTED_AFTER_LOGIN, post=refused_writes(400)),
    "roster_new":         row("event",            *POSTED_AFTER_LOGIN, post=refused_writes(400)),
    "roster_paste":       row("event",            *POSTED_AFTER_LOGIN, post=refused_writes(400)),
    "roster_withdraw":    row("event player",     *POSTED_AFTER_LOGIN, post=refused_writes(400)),
    "roster_return":      row("event player",     *POSTED_AFTER_LOGIN, post=refused_writes(GO)),
    "roster_remove":      row("event player",     *POSTED_AFTER_LOGIN, post=refused_writes(GO)),
    # Standings, results, exports.
    "standings":          row("event",            *READ),
    "results":            row("event",            *READ),
    "statistics":         row("event",            *READ),
    "event_export":       row("event",            *READ),
    "event_export_zip":   row("event",            *READ),
    "event_import":       row("event",            *ORGANISERS, post=refused_writes(OK)),
    # Printable sheets.
    "scoresheet":         row("session table",    *READ),
    "scoresheet_blank":   row("session table",    *READ),
    "game_sheet":         row("game",             *GAME),
    # Importing logs.
    "import_upload":      row("event",            *ORGANISERS, post=refused_writes(OK)),
    "import_preview":     row("event import",     *ORGANISERS, post=refused_writes(GO)),
    # Players: a player known only from a private event is not there for anyone else.
    "players":            row("",                 (OK, OK, OK, OK), (OK, OK, OK, OK)),
    "player_create":      row("",                 (OK, LOGIN, OK, LOGIN), (OK, LOGIN, OK, LOGIN)),
    "player":             row("player",           (OK, OK, OK, OK), (OK, GONE, GONE, GONE)),
    "player_link":        row("player",           *ORGANISERS, post=refused_writes(OK)),
    # A game and its hands.
    "game":               row("game",             *GAME),
    "game_record":        row("game",             *GAME),
    "hand_new":           row("game",             *HANDS, post=((OK, OK, NO, LOGIN), (OK, OK, GONE, GONE))),
    "hand_count":         row("game",             *HANDS),
    "hand_edit":          row("game hand",        *HANDS, post=((OK, OK, NO, LOGIN), (OK, OK, GONE, GONE))),
    "hand_delete":        row("game hand",        *HANDS, post=((GO, GO, NO, LOGIN), (GO, GO, GONE, GONE))),
    "hand_undo":          row("game",             *POSTED_FIRST, post=((GO, GO, NO, LOGIN), (GO, GO, GONE, GONE))),
    "final_scores":       row("finished",         *refused_writes(GO), post=refused_writes(GO)),
    "final_scores_clear": row("finished",         *POSTED_FIRST, post=refused_writes(GO)),
    "game_delete":        row("game",             *ORGANISERS, post=refused_writes(GO)),
    "game_finish":        row("game",             *POSTED_FIRST, post=refused_writes(GO)),
    "game_reopen":        row("finished",         *POSTED_FIRST, post=refused_writes(GO)),
    "penalty_new":        row("game",             *ORGANISERS, post=refused_writes(OK)),
    "penalty_delete":     row("game penalty",     *POSTED_FIRST, post=refused_writes(GO)),
}
# fmt: on

URL_NAMES = sorted(pattern.name for pattern in urls.urlpatterns)


# One world for the whole module, in a transaction rolled back at its end; each test runs
# in a savepoint of it.


def _event(kind: str, organisers) -> dict:
    slug = f"{kind}-event"
    event = Event.objects.create(
        name=f"The {kind} event",
        slug=slug,
        starts_on=datetime.date(2026, 9, 3),
        is_public=kind == "public",
    )
    event.organisers.add(*organisers)
    session = Session.objects.create(event=event, number=1, date=datetime.date(2026, 9, 3))
    playing_players = [Player.objects.create(display_name=f"{kind} {n}") for n in "ABCD"]
    done_players = [Player.objects.create(display_name=f"{kind} {n}") for n in "EFGH"]
    services.add_to_roster(event.pk, playing_players + done_players)
    playing = services.create_game(session, playing_players, table_number=1)
    services.add_hand(playing.pk, 1, {"result": "draw", "riichi": [], "tenpai": [0]})
    penalty = services.add_penalty(playing.pk, 0, Decimal("-1"), "late")
    link = services.renew_table_link(playing.pk)
    finished = services.create_game(
        session, done_players, table_number=2, entry_mode=Game.EntryMode.FINAL_SCORES
    )
    services.set_final_scores(finished.pk, [40000, 30000, 20000, 10000], 0)
    services.finish_game(finished.pk)
    return {
        "event": event,
        "session": session,
        "playing": playing,
        "finished": finished,
        "penalty": penalty,
        "link": link,
        "player": playing_players[0],
    }


def _signed_in(user) -> str:
    client = Client()
    client.force_login(user)
    return client.cookies[settings.SESSION_COOKIE_NAME].value


def _holding(link) -> str:
    client = Client()
    assert client.get(link.get_absolute_url()).status_code == GO
    return client.cookies[settings.SESSION_COOKIE_NAME].value


@pytest.fixture(scope="module")
def world(django_db_setup, django_db_blocker):
    with django_db_blocker.unblock(), transaction.atomic():
        users = apps.get_model(settings.AUTH_USER_MODEL).objects
        organiser = users.create_user(username="organiser", password="a-long-test-password")
        second = users.create_user(username="second", password="a-long-test-password")
        stranger = users.create_user(username="stranger", password="x-long-password")
        events = {kind: _event(kind, [organiser, second]) for kind in KINDS}
        sessions = {
            "organiser": _signed_in(organiser),
            "stranger": _signed_in(stranger),
            **{f"table link {kind}": _holding(events[kind]["link"]) for kind in KINDS},
        }
        yield {"events": events, "sessions": sessions, "organiser": organiser, "second": second}
        transaction.set_rollback(True)


def _client(world, role: str, kind: str) -> Client:
    client = Client()
    key = {
        "organiser": "organiser",
        "stranger": "stranger",
        "table link": f"table link {kind}",
    }.get(role)
    if key is not None:
        client.cookies[settings.SESSION_COOKIE_NAME] = world["sessions"][key]
    return client


def _args(world, kind: str, names: str) -> list:
    made = world["events"][kind]
    event, session = made["event"], made["session"]
    args = []
    for name in names.split():
        args += {
            "event": lambda: [event.slug],
            "session": lambda: [event.slug, session.number],
            "table": lambda: [made["playing"].table_number],
            "game": lambda: [made["playing"].pk],
            "finished": lambda: [made["finished"].pk],
            "hand": lambda: [1],
            "penalty": lambda: [made["penalty"].pk],
            "player": lambda: [made["player"].pk],
            "co": lambda: [world["second"].pk],
            "link": lambda: [made["link"].pk, made["link"].code],
            "import": lambda: [_pending_import(world, event)],
        }[name]()
    return args


def _pending_import(world, event) -> str:
    """The organiser's upload of no logs, waiting to be confirmed."""
    PendingImport.objects.create(
        token="waiting-import",
        user=world["organiser"],
        event=event,
        session_number=2,
        session_date=datetime.date(2026, 9, 10),
        logs=[],
        uploaded_bytes=0,
        expires_at=datetime.datetime(2100, 1, 1, tzinfo=datetime.UTC),
    )
    return "waiting-import"


def _status(response):
    if response.status_code == GO and "/accounts/login/" in response["Location"]:
        return LOGIN
    return response.status_code


def _database():
    """Every stored row but the web sessions (a visit may write its own session)."""
    models = apps.get_app_config("tournaments").get_models(include_auto_created=True)
    rows = {
        model._meta.label: list(model.objects.order_by("pk").values())
        for model in models
        if model is not WebSession
    }
    users = apps.get_model(settings.AUTH_USER_MODEL).objects
    rows["users"] = list(users.order_by("pk").values("pk", "username", "is_active"))
    return rows


def test_every_url_of_the_app_has_a_row_in_the_spec():
    assert sorted(SPEC) == URL_NAMES


def test_every_view_of_the_app_declares_who_may_use_it():
    undeclared = [
        pattern.name
        for pattern in urls.urlpatterns
        if not getattr(pattern.callback, access.ACCESS, None)
    ]
    assert undeclared == []


@pytest.mark.django_db
@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("name", URL_NAMES)
def test_each_visitor_gets_what_the_spec_says_from_every_url(world, name, role, kind):
    spec = SPEC[name]
    who = ROLES.index(role)
    address = reverse(f"tournaments:{name}", args=_args(world, kind, spec["args"]))
    client = _client(world, role, kind)
    assert _status(client.get(address)) == spec["get"][kind][who], ("GET", address)
    if spec["post"] is None:
        return
    expected = dict(zip(KINDS, spec["post"], strict=True))[kind][who]
    refused = expected in (LOGIN, NO, GONE, POST_ONLY)
    before = _database() if refused else None
    assert _status(client.post(address)) == expected, ("POST", address)
    if refused:
        assert _database() == before, ("POST", address)

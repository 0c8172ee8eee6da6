"""Who may open each address of the app: every URL name of `tournaments`, as an event's
organiser, as the holder of a game's table link, as a stranger (signed in, organising
nothing) and anonymously, in a public and in a private event.

The table below is the spec. A new URL without its row fails the test. Each write view is
also posted to (with a change it would accept, `DATA`, where an empty post would change
nothing anyway); a refused post leaves the database as it was.
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
from tournaments.models import (
    Event,
    Game,
    PendingImport,
    Player,
    Rating,
    Registration,
    Session,
    Stage,
    Team,
    TrailEntry,
)
from tournaments.services.ratings import save_rating

ROLES = ("organiser", "table link", "stranger", "anonymous")
KINDS = ("public", "private")

OK = 200
GO = 302  # on to another page of the app
LOGIN = "login"  # sent to the login page
NO = 403  # may see it, may not change it
GONE = 404  # not there for this visitor
POST_ONLY = 405


def row(args: str, get, post=None) -> dict:
    """`args`: what the address is made of (see `_args`). `get` and `post`: what the
    organiser, the table link's holder, the stranger and an anonymous visitor get, in that
    order, in a public then in a private event; `post` for an empty POST to a view that
    writes."""
    return {"args": args, "get": get, "post": post}


# The statuses, as (public event, private event), each for the four roles in order.
ANYONE = (OK, OK, OK, OK), (OK, OK, OK, OK)


def signed_in(answer=OK):
    """Anyone signed in; anonymous visitors (a table link's too) are sent to log in."""
    return (answer, LOGIN, answer, LOGIN), (answer, LOGIN, answer, LOGIN)


# The pages of an event for anyone who may read it.
READERS = (OK, OK, OK, OK), (OK, GONE, GONE, GONE)
# A game is read by its table link too, even in a private event.
GAME_READERS = (OK, OK, OK, OK), (OK, OK, GONE, GONE)
# A private event's players are not there for those who may not read it.
PLAYER_READERS = (OK, OK, OK, OK), (OK, GONE, GONE, GONE)


def organisers(organiser=OK):
    """The event's organisers only: the others are sent to log in, refused (403), or do
    not see the event at all (404)."""
    return (organiser, LOGIN, NO, LOGIN), (organiser, LOGIN, GONE, LOGIN)


def readers_post_organisers(organiser=OK):
    """A page anyone who may read the event reads, whose form only its organisers post."""
    return (organiser, LOGIN, NO, LOGIN), (organiser, GONE, GONE, GONE)


def hand_entry(answer=OK):
    """The organisers and the table at the game through its link."""
    return (answer, answer, NO, LOGIN), (answer, answer, GONE, GONE)


def phone(answer=OK):
    """As `hand_entry`, for the addresses a phone's script calls: whoever is not let in is
    refused, never sent to a login page."""
    return (answer, answer, NO, NO), (answer, answer, GONE, GONE)


# Hand entry on a finished game: organisers are sent back to the game; a table link works
# only while its game is open, so its holder is an anonymous visitor there.
FINISHED_ENTRY = (GO, LOGIN, NO, LOGIN), (GO, GONE, GONE, GONE)


# A view that takes only a POST says so first, to anyone.
POST_ONLY_FOR_ANYONE = (POST_ONLY,) * 4, (POST_ONLY,) * 4


# fmt: off
SPEC = {
    # Events, sessions and players.
    "home":               row("",              ANYONE),
    "event_create":       row("",              signed_in(), signed_in()),
    "event":              row("event",         READERS),
    "event_edit":         row("event",         organisers(), organisers()),
    "event_rules":        row("event",         READERS, readers_post_organisers(GO)),
    "event_organisers":   row("event",         organisers(), organisers(GO)),
    "organiser_remove":   row("event co",      POST_ONLY_FOR_ANYONE, organisers(GO)),
    "session_create":     row("event",         organisers(), organisers(GO)),
    "session":            row("session",       READERS),
    "session_edit":       row("session",       organisers(), organisers()),
    "game_create":        row("session",       organisers(), organisers()),
    "game_edit":          row("game",          organisers(), organisers()),
    # The round clock and calling time.
    "clock_start":        row("session",       POST_ONLY_FOR_ANYONE, organisers(GO)),
    "clock_stop":         row("session",       POST_ONLY_FOR_ANYONE, organisers(GO)),
    "session_call_time":  row("session",       organisers(), organisers(GO)),
    "game_call_time":     row("game",          POST_ONLY_FOR_ANYONE, organisers(GO)),
    # Round signals from the director; referee calls from a table, taken by organisers.
    "signal_send":        row("session",       POST_ONLY_FOR_ANYONE, organisers(GO)),
    "signal_clear":       row("session",       POST_ONLY_FOR_ANYONE, organisers(GO)),
    "referee_call":       row("game",          POST_ONLY_FOR_ANYONE, hand_entry(GO)),
    "referee_acknowledge": row("game",         POST_ONLY_FOR_ANYONE, organisers(GO)),
    "referee_resolve":    row("game",          POST_ONLY_FOR_ANYONE, organisers(GO)),
    "live":               row("event",         READERS),
    "event_trail":        row("event",         organisers()),
    "event_trail_csv":    row("event",         organisers()),
    "trail_restore":      row("event entry",   POST_ONLY_FOR_ANYONE, organisers(GO)),
    # Table links and slips: the link itself opens for anyone who has its code (the page
    # at /t/ID/ takes it from the address's fragment; slips of old carry it in the path).
    "table_link":         row("link",          ANYONE),
    "table_link_in_path": row("link code",     ((GO,) * 4, (GO,) * 4)),
    "table_link_renew":   row("game",          POST_ONLY_FOR_ANYONE, organisers(GO)),
    "table_link_revoke":  row("game",          POST_ONLY_FOR_ANYONE, organisers(GO)),
    "game_lock":          row("game",          POST_ONLY_FOR_ANYONE, organisers(GO)),
    "game_slip":          row("game",          organisers()),
    "session_links_make": row("session",       POST_ONLY_FOR_ANYONE, organisers(GO)),
    "session_slips":      row("session",       organisers()),
    "seat_players":       row("session",       organisers(), organisers()),
    "seating_list":       row("session",       READERS),
    # Check-in before seating (an empty post is a 400 with the list again).
    "check_in":           row("session",       organisers(), organisers(400)),
    "game_entry_mode":    row("game",          POST_ONLY_FOR_ANYONE, organisers(GO)),
    # The roster (an empty pick is a 400 with the form again).
    "roster":             row("event",         READERS),
    "roster_pick":        row("event",         POST_ONLY_FOR_ANYONE, organisers(400)),
    "roster_new":         row("event",         POST_ONLY_FOR_ANYONE, organisers(GO)),
    "roster_paste":       row("event",         POST_ONLY_FOR_ANYONE, organisers(GO)),
    "roster_withdraw":    row("event player",  POST_ONLY_FOR_ANYONE, organisers(GO)),
    "roster_return":      row("event player",  POST_ONLY_FOR_ANYONE, organisers(GO)),
    "roster_remove":      row("event player",  POST_ONLY_FOR_ANYONE, organisers(GO)),
    # Registration before the day: a player's page (registration is closed in these
    # events, so a post is refused with the reason: 400) and the organisers' list.
    "registration":       row("event",         READERS, ((400, LOGIN, 400, LOGIN),
                                                         (400, GONE, GONE, GONE))),
    "registration_withdraw": row("event",      POST_ONLY_FOR_ANYONE,
                                 ((GO, LOGIN, GO, LOGIN), (GO, GONE, GONE, GONE))),
    "registrations":      row("event",         organisers(), organisers(GO)),
    "registration_confirm": row("event registration", POST_ONLY_FOR_ANYONE, organisers(GO)),
    "registration_decline": row("event registration", POST_ONLY_FOR_ANYONE, organisers(GO)),
    "roster_substitute":  row("event player",  POST_ONLY_FOR_ANYONE, organisers(GO)),
    # Stages: the list, a stage's standings, the director's forms and the cut.
    "stages":             row("event",         READERS),
    "stage_create":       row("event",         organisers(), organisers()),
    "stage":              row("event stage",   READERS),
    "stage_edit":         row("event stage",   organisers(), organisers()),
    "stage_cut":          row("event stage",   organisers(), organisers()),
    "stage_hide":         row("event stage",   POST_ONLY_FOR_ANYONE, organisers(GO)),
    "stage_remove":       row("event stage",   POST_ONLY_FOR_ANYONE, organisers(GO)),
    # Teams: the list and settings, one team, the team table, a session's line-ups (a
    # captain posts theirs; nobody here captains a team, so the organisers' post only).
    "teams":              row("event",         READERS, readers_post_organisers()),
    "team":               row("event team",    READERS, readers_post_organisers()),
    "team_standings":     row("event",         READERS),
    "lineups":            row("session",       READERS, readers_post_organisers()),
    "placement_export":   row("event",         READERS),
    # Standings, results, exports.
    "standings":          row("event",         READERS),
    "ema_results":        row("event",         organisers()),
    "results":            row("event",         READERS),
    "statistics":         row("event",         READERS),
    "event_export":       row("event",         READERS),
    "event_export_zip":   row("event",         READERS),
    "event_import":       row("event",         organisers(), organisers()),
    # Printable sheets.
    "scoresheet":         row("session table", READERS),
    "scoresheet_blank":   row("session table", READERS),
    "game_sheet":         row("game",          GAME_READERS),
    # Importing logs.
    "import_upload":      row("event",         organisers(), organisers()),
    "import_preview":     row("event import",  organisers(), organisers(GO)),
    # Players.
    "players":            row("",              ANYONE),
    "player_create":      row("",              signed_in(), signed_in(GO)),
    "player":             row("player",        PLAYER_READERS),
    "player_link":        row("player",        organisers(), organisers(GO)),
    "player_edit":        row("player",        organisers(), organisers(GO)),
    # An empty post is answered with the page again, asking for the other player.
    "player_merge":       row("player",        organisers(), organisers()),
    # A game and its hands; the finished game's organiser is sent back to it.
    "game":               row("game",          GAME_READERS),
    "game_record":        row("game",          GAME_READERS),
    "game_manifest":      row("game",          GAME_READERS),
    "game_service_worker": row("game",         GAME_READERS),
    "hand_new":           row("game",          hand_entry(), hand_entry(GO)),
    "hand_count":         row("game",          hand_entry()),
    # A phone's script: never sent to log in; an empty post is not JSON (422).
    "hand_record":        row("game",          phone()),
    "hand_sync":          row("game",          POST_ONLY_FOR_ANYONE, phone(422)),
    "hand_edit":          row("game hand",     hand_entry(), hand_entry(GO)),
    "hand_delete":        row("game hand",     hand_entry(), hand_entry(GO)),
    # Undo asks first, naming the hand; a POST that does not name it asks again.
    "hand_undo":          row("game",          hand_entry(), hand_entry()),
    # A finished game: its table link no longer enters anything.
    "final_scores":       row("finished",      FINISHED_ENTRY, FINISHED_ENTRY),
    "final_scores_clear": row("finished",      POST_ONLY_FOR_ANYONE, organisers(GO)),
    "game_delete":        row("game",          organisers(), organisers(GO)),
    "game_finish":        row("game",          POST_ONLY_FOR_ANYONE, organisers(GO)),
    "game_reopen":        row("finished",      POST_ONLY_FOR_ANYONE, organisers(GO)),
    "penalty_new":        row("game",          organisers(), organisers(GO)),
    "penalty_delete":     row("game penalty",  POST_ONLY_FOR_ANYONE, organisers(GO)),
    # Ratings: the organiser made one over each event, public over the public event and
    # private over the private one; its maker alone changes it.
    "ratings":            row("",              ANYONE),
    "rating_create":      row("",              signed_in(), signed_in()),
    "rating":             row("rating",        READERS),
    "rating_player":      row("rating rated",  READERS),
    "rating_edit":        row("rating",        organisers(), organisers()),
    "rating_delete":      row("rating",        POST_ONLY_FOR_ANYONE, organisers(GO)),
}
# fmt: on

# What a POST sends where an empty one would change nothing even when allowed: a refused
# post of a change that would be accepted must leave the database as it was.
RON = {"result": "ron", "riichi": [], "w1_winner": "1", "loser": "0", "w1_han": "3",
       "w1_fu": "40", "action": "save"}  # fmt: skip
DATA = {
    "event_rules": {"preset": "tenhou"},
    "event_organisers": {"who": "stranger"},
    "session_create": {"number": "2", "date": "2026-09-10"},
    "clock_start": {"minutes": "90"},
    "signal_send": {"signal": "last_hand"},
    "referee_call": {"reason": "ruling"},
    "game_lock": {"locked": "1"},
    "roster_new": {"new-display_name": "Newcomer"},
    "roster_paste": {"names": "Newcomer", "create": "on"},
    "roster_withdraw": {"from_session": "2"},
    "registration": {"display_name": "Newcomer"},
    "registrations": {"registration_open": "on", "registration_places": "20"},
    "player_create": {"display_name": "Newcomer"},
    "player_link": {"who": "stranger"},
    "player_edit": {"display_name": "Renamed", "country": "DE"},
    "penalty_new": {"seat": "0", "match_points": "-5", "reason": "late"},
    "hand_new": {**RON, "number": "2"},
    "hand_edit": RON,
    "rating_create": {
        "name": "Season",
        "formula": "best_n",
        "best_of": "2",
        "reckoning_date": "2026-12-31",
    },
    "rating_edit": {
        "name": "Renamed",
        "formula": "best_n",
        "best_of": "2",
        "reckoning_date": "2026-12-31",
    },
}

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
    asking = Player.objects.create(display_name=f"{kind} asking")
    registration = Registration.objects.create(
        event=event,
        player=asking,
        status=Registration.Status.ASKED,
        asked_at=datetime.datetime(2026, 8, 1, tzinfo=datetime.UTC),
    )
    finished = services.create_game(
        session, done_players, table_number=2, entry_mode=Game.EntryMode.FINAL_SCORES
    )
    services.set_final_scores(finished.pk, [40000, 30000, 20000, 10000], 0)
    services.finish_game(finished.pk)
    stage = Stage.objects.create(
        event=event, number=1, name="Qualifying", first_session=1, last_session=1
    )
    team = Team.objects.create(event=event, name=f"{kind} team")
    rating = save_rating(
        None,
        user=organisers[0],
        name=f"The {kind} rating",
        formula=Rating.Formula.BEST_N,
        reckoning_date=datetime.date(2026, 12, 31),
        best_of=2,
        events=[event],
        is_public=kind == "public",
    )
    return {
        "rating": rating,
        "rated": done_players[0],
        "event": event,
        "team": team,
        "stage": stage,
        "session": session,
        "playing": playing,
        "finished": finished,
        "penalty": penalty,
        "link": link,
        "player": playing_players[0],
        "registration": registration,
    }


def _signed_in(user) -> str:
    client = Client()
    client.force_login(user)
    return client.cookies[settings.SESSION_COOKIE_NAME].value


def _holding(link) -> str:
    client = Client()
    address, code = link.get_absolute_url().split("#")
    assert client.post(address, {"code": code}).status_code == GO
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
    """The parts of an address, named in the spec's first column."""
    made = world["events"][kind]
    event = made["event"]
    parts = {
        "event": [event.slug],
        "session": [event.slug, made["session"].number],
        "table": [made["playing"].table_number],
        "game": [made["playing"].pk],
        "finished": [made["finished"].pk],
        "hand": [1],
        "penalty": [made["penalty"].pk],
        "player": [made["player"].pk],
        "co": [world["second"].pk],
        "link": [made["link"].pk],
        "code": [made["link"].code],
        "import": ["waiting-import"],
        "registration": [made["registration"].pk],
        "stage": [made["stage"].number],
        "team": [made["team"].pk],
        "rating": [made["rating"].pk],
        "rated": [made["rated"].pk],
        "entry": [TrailEntry.objects.filter(event=event).values_list("pk", flat=True).first()],
    }
    if "import" in names.split():
        # The organiser's upload of no logs, waiting to be confirmed.
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
    return [part for name in names.split() for part in parts[name]]


def _status(response):
    if response.status_code == GO and "/accounts/login/" in response["Location"]:
        return LOGIN
    return response.status_code


def _database():
    """Every stored row of the app (web sessions are Django's, outside it)."""
    models = apps.get_app_config("tournaments").get_models(include_auto_created=True)
    rows = {model._meta.label: list(model.objects.order_by("pk").values()) for model in models}
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
    place = KINDS.index(kind), ROLES.index(role)
    address = reverse(f"tournaments:{name}", args=_args(world, kind, spec["args"]))
    client = _client(world, role, kind)
    assert _status(client.get(address)) == spec["get"][place[0]][place[1]], ("GET", address)
    if spec["post"] is None:
        return
    expected = spec["post"][place[0]][place[1]]
    refused = expected in (LOGIN, NO, GONE, POST_ONLY)
    before = _database() if refused else None
    assert _status(client.post(address, DATA.get(name, {}))) == expected, ("POST", address)
    if refused:
        assert _database() == before, ("POST", address)

"""Cached pages are never stale: after every kind of change, each page served (from the
cache where it can be) is exactly the page rendered from nothing, and the change shows."""

from __future__ import annotations

import datetime
import re
from decimal import Decimal

import pytest
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import translation

from perf import bench
from tests.tournaments.builders import final_game
from tournaments import exchange, pagecache, services
from tournaments.models import Event, Game, GameSeat, Player, Session

pytestmark = pytest.mark.django_db

DRAW = {"result": "draw", "riichi": [], "tenpai": [0]}
RON = {"result": "ron", "riichi": [], "wins": [{"winner": 1, "loser": 2, "han": 3, "fu": 30}]}


@pytest.fixture
def league():
    event = bench.build_league(players=10, games=8, slug="fresh", say=lambda _: None)
    playing = bench.start_game(event)
    services.add_hand(playing.pk, 1, DRAW)
    session = event.sessions.order_by("-number").first()
    spare = [Player.objects.create(display_name=f"Spare {n}") for n in range(4)]
    final = services.create_game(
        session, spare, table_number=90, entry_mode=Game.EntryMode.FINAL_SCORES
    )
    # A later session with one finished game, for a change of sessions to take away.
    later = Session.objects.create(
        event=event, number=session.number + 1, date=datetime.date(2029, 1, 1)
    )
    final_game(later, ["Late 1", "Late 2", "Late 3", "Late 4"], [35000, 30000, 20000, 15000], 1)
    return {"event": event, "playing": playing, "final": final, "session": session, "later": later}


def urls(league) -> dict[str, str]:
    event, session = league["event"], league["session"]
    finished = Game.objects.filter(session__event=event, status=Game.Status.FINISHED)
    game = finished.order_by("pk").first()
    player = GameSeat.objects.filter(game=league["playing"], seat=0).get().player_id
    slug = event.slug
    return {
        "event": reverse("tournaments:event", args=[slug]),
        "standings": reverse("tournaments:standings", args=[slug]),
        "standings, all columns, by player": reverse("tournaments:standings", args=[slug])
        + "?columns=all&sort=-player",
        # A page of a few players ordered by a column worked out on first use.
        "standings, paged, by average placement": reverse("tournaments:standings", args=[slug])
        + "?per_page=3&page=2&sort=average_placement",
        "results": reverse("tournaments:results", args=[slug]),
        "statistics": reverse("tournaments:statistics", args=[slug]),
        "player": reverse("tournaments:player", args=[player]),
        "game": reverse("tournaments:game", args=[game.pk]),
        "game in play": reverse("tournaments:game", args=[league["playing"].pk]),
        "game sheet": reverse("tournaments:game_sheet", args=[league["playing"].pk]),
        "seating list": reverse("tournaments:seating_list", args=[slug, session.number]),
        "live screen": reverse("tournaments:live", args=[slug]),
    }


def pages(client: Client, league) -> dict[str, str]:
    out = {}
    for name, url in urls(league).items():
        response = client.get(url)
        assert response.status_code == 200, name
        out[name] = normal(response.content.decode())
    return out


def normal(page: str) -> str:
    """The page without what differs from one response to the next: each carries a new
    form token, and the live screen the server's time."""
    page = re.sub(r"[A-Za-z0-9]{64}", "(token)", page)
    return re.sub(r"\d{4}-\d\d-\d\dT[\d:.]+\+00:00", "(now)", page)


def served_as_fresh(client: Client, league) -> dict[str, str]:
    """The pages as served now, after checking each equals the page rendered from an
    empty cache."""
    served = pages(client, league)
    cache.clear()
    fresh = pages(client, league)
    for name in served:
        assert served[name] == fresh[name], f"{name} was stale"
    return served


def first_finished(league) -> Game:
    return Game.objects.filter(
        session__event=league["event"], status=Game.Status.FINISHED
    ).order_by("pk")[0]


def enter_hand(league):
    services.add_hand(league["playing"].pk, 2, RON)


def edit_hand(league):
    services.replace_hand(league["playing"].pk, 1, RON)


def delete_hand(league):
    services.delete_hand(league["playing"].pk, 1)


def final_scores(league):
    services.set_final_scores(league["final"].pk, [41300, 24900, 21800, 12000], 0)


def penalty(league):
    services.add_penalty(first_finished(league).pk, 0, Decimal("-20.0"), "Late")


def delete_game(league):
    services.delete_game(league["final"].pk)


def substitute(league):
    services.set_substitutes(first_finished(league).pk, [1])


def substitute_in_play(league):
    services.set_substitutes(league["playing"].pk, [2])


def roster(league):
    services.add_to_roster(league["event"].pk, [Player.objects.create(display_name="Newcomer")])


def rules(league):
    services.change_event_rules(league["event"].pk, "ari-ari", {"uma": [20, 10, -10, -20]})


def rename(league):
    player = GameSeat.objects.filter(game=league["playing"], seat=0).get().player
    player.display_name = "Renamed Player"
    player.save()


def session_date(league):
    session = league["session"]
    session.date = datetime.date(2030, 5, 6)
    session.save()


def session_added(league):
    """A new session with a finished game: a new session column and filter choice."""
    event = league["event"]
    number = event.sessions.count() + 1
    session = Session.objects.create(event=event, number=number, date=datetime.date(2030, 1, 1))
    names = [p.display_name for p in Player.objects.order_by("pk")[:4]]
    final_game(session, names, [41300, 24900, 21800, 12000], 1)


def session_deleted(league):
    league["later"].delete()


def merge(league):
    """The later session's "Late 1" turns out to be the first player at the game going on."""
    kept = GameSeat.objects.filter(game=league["playing"], seat=0).get().player_id
    services.merge_players(kept, Player.objects.get(display_name="Late 1").pk)


CHANGES = {
    "a hand entered": (enter_hand, {"game in play", "game sheet", "statistics", "player"}),
    "a hand edited": (edit_hand, {"game in play", "game sheet", "statistics"}),
    "a hand deleted": (delete_hand, {"game in play", "game sheet", "statistics"}),
    "final scores": (final_scores, {"standings", "results", "event"}),
    "a penalty": (penalty, {"standings", "results", "game"}),
    "a game deleted": (delete_game, {"event", "statistics", "seating list"}),
    "a substitute": (substitute, {"standings", "game"}),
    "a substitute at a game going on": (substitute_in_play, {"game in play"}),
    "the roster": (roster, {"seating list"}),
    "the rules": (rules, {"standings", "results", "game"}),
    "a rename": (rename, {"standings", "results", "event", "player", "game in play"}),
    "a session's date": (session_date, {"event", "standings"}),
    "a session added": (session_added, {"event", "standings", "results"}),
    "a session deleted": (session_deleted, {"event", "standings", "results"}),
    "two players merged": (merge, {"standings", "results", "player", "statistics"}),
}


@pytest.mark.slow
@pytest.mark.parametrize("change", CHANGES)
def test_every_kind_of_change_shows_at_once_on_every_cached_page(league, change):
    client = Client()
    before = served_as_fresh(client, league)
    assert pages(client, league) == before  # served again from the cache, unchanged
    make, changed = CHANGES[change]
    make(league)
    after = served_as_fresh(client, league)
    for name in changed:
        assert after[name] != before[name], f"{change} does not show on the {name} page"


def test_an_import_shows_at_once(organiser):
    source = bench.build_league(players=8, games=4, slug="source", say=lambda _: None)
    copy = Event.objects.create(name="Copy", slug="copy", starts_on=datetime.date(2026, 1, 1))
    standings = reverse("tournaments:standings", args=["copy"])
    statistics = reverse("tournaments:statistics", args=["copy"])
    client = Client()
    assert "No finished games yet" in client.get(standings).content.decode()
    client.get(statistics)
    exchange.import_event(copy, exchange.export_event(source), user=organiser)
    page = normal(client.get(standings).content.decode())
    assert "No finished games yet" not in page
    cache.clear()
    assert normal(client.get(standings).content.decode()) == page
    assert "No hands recorded yet" not in client.get(statistics).content.decode()


def test_a_page_rendered_in_one_language_is_kept_apart_from_another():
    with translation.override("en"):
        english = pagecache.key("standings", 1, "token")
    with translation.override("ja"):
        japanese = pagecache.key("standings", 1, "token")
    assert english != japanese


@pytest.mark.slow
def test_addresses_that_differ_only_in_what_a_page_ignores_share_one_rendering(league):
    client = Client()
    slug = league["event"].slug
    for url in (
        reverse("tournaments:standings", args=[slug]),
        reverse("tournaments:results", args=[slug]),
        reverse("tournaments:statistics", args=[slug]),
    ):

        def junk(n: int) -> dict:
            return {"utm": f"x{n}", "sort": f"nonsense{n}", "page": str(1000 + n)}

        assert client.get(url, junk(0)).status_code == 200
        kept = len(cache._cache)  # the local-memory cache of the tests
        for n in range(1, 12):
            assert client.get(url, junk(n)).status_code == 200
            assert client.get(url, {"per_page": str(-n)}).status_code == 200
        # Unknown parameters and columns, and pages past the last, are one rendering (kept
        # as its page part and, for the standings, the frame of its table).
        assert len(cache._cache) <= kept + 2, url
        page = client.get(url, {"sort": "-player", "utm": "<script>"}).content.decode()
        table = page[page.index('<div class="table-container">') :]
        assert "utm" not in table and "<script>" not in table


def test_the_statistics_export_counts_a_hand_of_a_game_still_going_at_once(league):
    client = Client()
    url = reverse("tournaments:statistics", args=[league["event"].slug])
    before = client.get(url, {"_export": "csv"}).content
    services.add_hand(league["playing"].pk, 2, RON)
    after = client.get(url, {"_export": "csv"}).content
    assert after != before
    cache.clear()
    assert client.get(url, {"_export": "csv"}).content == after


def lock(league):
    services.lock_game(league["playing"].pk, True)


def new_link(league):
    services.renew_table_link(league["playing"].pk)


def revoke_link(league):
    services.renew_table_link(league["playing"].pk)
    services.revoke_table_link(league["playing"].pk)


# What only organisers see on a game page (its trail, its table link, its tools) follows
# every change too.
ORGANISER_CHANGES = {
    **CHANGES,
    "a game locked": (lock, {"game in play"}),
    "a new table link": (new_link, {"game in play"}),
    "a table link revoked": (revoke_link, {"game in play"}),
}


@pytest.mark.slow
@pytest.mark.parametrize("change", ORGANISER_CHANGES)
def test_every_change_shows_at_once_on_an_organisers_game_pages(league, change, organiser):
    league["event"].organisers.add(organiser)
    client = Client()
    client.force_login(organiser)

    def game_pages():
        served = pages(client, league)
        return {name: served[name] for name in ("game", "game in play", "game sheet")}

    def served_as_fresh_for_organiser():
        served = game_pages()
        cache.clear()
        fresh = game_pages()
        for name in served:
            assert served[name] == fresh[name], f"{name} was stale for the organiser"
        return served

    before = served_as_fresh_for_organiser()
    make, changed = ORGANISER_CHANGES[change]
    make(league)
    after = served_as_fresh_for_organiser()
    for name in changed & set(after):
        assert after[name] != before[name], f"{change} does not show on the {name} page"


def test_another_games_end_leaves_a_game_page_as_it_was_kept(league):
    """A reader's game page is kept under the game's own time of change: final scores at
    another table (which change the standings) do not make it read the game again."""
    client = Client()
    game_url = reverse("tournaments:game", args=[league["playing"].pk])
    kept = normal(client.get(game_url).content.decode())
    final_scores(league)
    with CaptureQueriesContext(connection) as reads:
        assert normal(client.get(game_url).content.decode()) == kept
    assert not [q for q in reads.captured_queries if "tournaments_hand" in q["sql"]]
    enter_hand(league)
    assert normal(client.get(game_url).content.decode()) != kept

"""The standings and results pages: the numbers worked out by hand, sorting, shared ranks,
filters, who may see them, and a constant number of queries however big the event."""

from __future__ import annotations

import datetime
import random
from decimal import Decimal
from html.parser import HTMLParser

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from perf import bench
from tests.conftest import fresh, kept_for_module, make_organiser
from tests.tournaments.builders import final_game, small_league, tied_event
from tournaments import services
from tournaments.models import Event, Game, GameSeat, Player, Session
from tournaments.standings import event_standings
from tournaments.views import standings as standings_views

pytestmark = pytest.mark.django_db


def url(name: str, *args) -> str:
    return reverse(f"tournaments:{name}", args=args)


def make_league(organiser, *, slug="league", is_public=True) -> Event:
    return small_league(organiser, slug=slug, is_public=is_public)


def make_big_league(organiser, *, sessions: int, tables: int, slug="big") -> Event:
    """More sessions, tables and players: for counting queries at another size."""
    event = Event.objects.create(name="Big", slug=slug, starts_on=datetime.date(2026, 1, 1))
    event.organisers.add(organiser)
    names = [f"P{i:02d}" for i in range(tables * 4)]
    scores = [[41300, 24900, 21800, 12000], [35000, 30000, 20000, 15000]]
    for number in range(1, sessions + 1):
        session = Session.objects.create(
            event=event, number=number, date=datetime.date(2026, 1, number)
        )
        random.Random(number).shuffle(names)
        for table in range(1, tables + 1):
            seated = names[(table - 1) * 4 : table * 4]
            final_game(session, seated, scores[table % 2], table)
    return event


# Built once for the module; every test reads it afresh (see tests/conftest.py).
@pytest.fixture(scope="module")
def _built(django_db_setup, django_db_blocker):
    with kept_for_module(django_db_blocker):
        organiser = make_organiser(get_user_model())
        yield organiser, make_league(organiser)


@pytest.fixture
def organiser(_built, db):
    return fresh(_built[0])


@pytest.fixture
def league(_built, db):
    return fresh(_built[1])


class TableParser(HTMLParser):
    """The header and the cells' text of the first <table> of a page."""

    def __init__(self):
        super().__init__()
        self.headers: list[str] = []
        self.rows: list[list[str]] = []
        self.links: list[list[str | None]] = []
        self._cell: list[str] | None = None
        self._link: str | None = None
        self._in_head = False
        self._tables = 0

    def handle_starttag(self, tag, attrs):
        if tag == "table":
            self._tables += 1
        if self._tables != 1:
            return
        if tag == "thead":
            self._in_head = True
        elif tag == "tr" and not self._in_head:
            self.rows.append([])
            self.links.append([])
        elif tag in ("th", "td"):
            self._cell, self._link = [], None
        elif tag == "a" and self._cell is not None:
            self._link = dict(attrs).get("href")

    def handle_endtag(self, tag):
        if self._tables != 1:
            return
        if tag == "thead":
            self._in_head = False
        elif tag in ("th", "td") and self._cell is not None:
            text = " ".join("".join(self._cell).split())
            if self._in_head:
                self.headers.append(text)
            else:
                self.rows[-1].append(text)
                self.links[-1].append(self._link)
            self._cell = None
        elif tag == "table":
            self._tables += 1

    def handle_data(self, data):
        if self._cell is not None:
            self._cell.append(data)


def parse_table(response) -> TableParser:
    parser = TableParser()
    parser.feed(response.content.decode())
    return parser


def column(parsed: TableParser, header: str) -> list[str]:
    index = parsed.headers.index(header)
    return [row[index] for row in parsed.rows]


# What the page shows


def test_the_standings_page_shows_the_numbers_worked_out_by_hand(client, league):
    response = client.get(url("standings", league.slug))
    assert response.status_code == 200
    parsed = parse_table(response)
    assert parsed.headers == [
        "Rank",
        "Player",
        "Games",
        "Total",
        "Avg place",
        "1st",
        "2nd",
        "3rd",
        "4th",
        "Avg score",
        "Penalties",
        "S1 pts",
        "S1 places",
        "S2 pts",
        "S2 places",
    ]
    # Seed 7.2: 41,300 is +11.3 +30 uma +20 oka = +61.3; B: 4.9 + 55.0; E: -45 -45 -5.
    assert parsed.rows == [
        ["1", "A", "2", "+111.3", "1.00", "2", "0", "0", "0", "35,650", "–"]
        + ["+61.3", "1", "+50.0", "1"],
        ["2", "B", "2", "+59.9", "1.50", "1", "1", "0", "0", "29,950", "–"]
        + ["+59.9", "2·1", "–", ""],
        ["3", "C", "3", "+1.8", "2.33", "0", "2", "1", "0", "27,267", "–"]
        + ["−8.2", "3·2", "+10.0", "2"],
        ["4", "D", "3", "−83.0", "3.33", "0", "0", "2", "1", "19,000", "–"]
        + ["−68.0", "4·3", "−15.0", "3"],
        ["5", "E", "2", "−95.0", "4.00", "0", "0", "0", "2", "15,000", "−5.0"]
        + ["−45.0", "4", "−50.0", "4"],
    ]


def test_each_player_links_to_their_player_page(client, league):
    parsed = parse_table(client.get(url("standings", league.slug)))
    a = league.sessions.get(number=1).games.get(table_number=1).seats.get(seat=0).player
    assert parsed.links[0][1] == url("player", a.pk)


def test_the_page_states_the_tie_order_and_links_the_three_exports(client, league):
    page = client.get(url("standings", league.slug)).content.decode()
    assert "ranked by total match points, then by more first places" in page
    for export in ("csv", "xlsx", "json"):
        assert f'href="?_export={export}"' in page


def test_the_default_order_is_the_ranking_and_columns_sort_numerically(client, league):
    def players(sort=None):
        query = {"sort": sort} if sort else {}
        return column(parse_table(client.get(url("standings", league.slug), query)), "Player")

    assert players() == ["A", "B", "C", "D", "E"]
    assert players("rank") == ["A", "B", "C", "D", "E"]
    assert players("-rank") == ["E", "D", "C", "B", "A"]
    # A first click shows the most points first; as text, "+111.3" would come after "+59.9".
    assert players("match_points") == ["A", "B", "C", "D", "E"]
    assert players("-match_points") == ["E", "D", "C", "B", "A"]
    assert players("average_placement") == ["A", "B", "C", "D", "E"]
    # Equal values keep the ranking's order.
    assert players("games") == ["C", "D", "A", "B", "E"]
    # Session 1: A +61.3, B +59.9, C -8.2, E -45.0, D -68.0; B missed session 2: last.
    assert players("s1_points") == ["A", "B", "C", "E", "D"]
    assert players("s2_points") == ["A", "C", "D", "E", "B"]
    assert players("player") == ["A", "B", "C", "D", "E"]
    assert players("-player") == ["E", "D", "C", "B", "A"]
    assert players("no_such_column") == ["A", "B", "C", "D", "E"]


def test_players_equal_on_every_tie_break_share_a_rank(client, organiser):
    tied_event()
    parsed = parse_table(client.get(url("standings", "split")))
    assert [row[:4] for row in parsed.rows] == [
        ["1=", "P", "1", "+30.0"],
        ["1=", "Q", "1", "+30.0"],
        ["3=", "R", "1", "−30.0"],
        ["3=", "S", "1", "−30.0"],
    ]


def test_an_event_without_finished_games_has_empty_standings(client, event, game):
    response = client.get(url("standings", event.slug))
    assert response.status_code == 200
    assert "No finished games yet." in response.content.decode()
    assert "0 finished games." in response.content.decode()


# Filters


def test_a_range_of_sessions_narrows_the_standings_and_its_columns(client, league):
    response = client.get(url("standings", league.slug), {"first_session": 2, "last_session": 2})
    parsed = parse_table(response)
    assert "S1 pts" not in parsed.headers and "S2 pts" in parsed.headers
    assert [(row[1], row[3]) for row in parsed.rows] == [
        ("A", "+50.0"),
        ("C", "+10.0"),
        ("D", "−15.0"),
        ("E", "−50.0"),
    ]
    assert "1 finished game of session 2." in response.content.decode()


def test_a_minimum_of_games_ranks_only_the_players_shown(client, league):
    response = client.get(url("standings", league.slug), {"min_games": 3})
    assert [row[:2] for row in parse_table(response).rows] == [["1", "C"], ["2", "D"]]
    assert "players with at least 3 games" in response.content.decode()


@pytest.mark.parametrize(
    "query",
    [
        {"first_session": "abc"},
        {"first_session": "9"},
        {"last_session": "1.5"},
        {"first_session": "2", "last_session": "1"},
        {"min_games": "-1"},
        {"min_games": "lots"},
        {"min_games": "99999999999999999999999"},
        {"min_games": "2", "first_session": "x"},
    ],
)
def test_bad_filter_values_show_a_message_and_the_unfiltered_standings(client, league, query):
    response = client.get(url("standings", league.slug), query)
    assert response.status_code == 200
    assert "so these standings" in response.content.decode()
    assert column(parse_table(response), "Player") == ["A", "B", "C", "D", "E"]


def test_bad_filter_values_fall_back_to_the_unfiltered_export_too(client, league):
    response = client.get(url("standings", league.slug), {"min_games": "x", "_export": "csv"})
    assert response.status_code == 200
    assert response.content.decode().count("\n") == 6  # the header and five players


# Results


def test_the_results_page_lists_every_seat_of_every_finished_game(client, league, players):
    services.create_game(league.sessions.get(number=2), players, table_number=2)  # unfinished
    response = client.get(url("results", league.slug))
    assert response.status_code == 200
    parsed = parse_table(response)
    assert parsed.headers == [
        "Session",
        "Table",
        "Player",
        "Place",
        "Match points",
        "Final score",
        "Penalty",
        "Wind",
        "Game",
    ]
    assert len(parsed.rows) == 12
    first = league.sessions.get(number=1).games.get(table_number=1)
    last = league.sessions.get(number=2).games.get(table_number=1)
    assert parsed.rows[:4] == [
        ["1", "1", "A", "1", "+61.3", "41,300", "–", "East", f"#{first.pk}"],
        ["1", "1", "B", "2", "+4.9", "24,900", "–", "South", f"#{first.pk}"],
        ["1", "1", "C", "3", "−18.2", "21,800", "–", "West", f"#{first.pk}"],
        ["1", "1", "D", "4", "−48.0", "12,000", "–", "North", f"#{first.pk}"],
    ]
    assert parsed.rows[-1] == [
        "2",
        "1",
        "E",
        "4",
        "−50.0",
        "15,000",
        "−5.0",
        "North",
        f"#{last.pk}",
    ]
    assert parsed.links[0][8] == url("game", first.pk)
    assert parsed.links[0][0] == url("session", league.slug, 1)


def test_results_count_their_rows_by_games_without_reading_a_seat(
    client, league, players, monkeypatch
):
    monkeypatch.setattr(standings_views, "RESULTS_GAMES_PER_PAGE", 2)
    services.create_game(league.sessions.get(number=2), players, table_number=2)  # unfinished
    assert GameSeat.objects.count_finished_in(league) == 12
    assert GameSeat.objects.finished_in(league).count() == 12
    with CaptureQueriesContext(connection) as reading:
        response = client.get(url("results", league.slug), {"page": "9"})
    counts = [q["sql"] for q in reading.captured_queries if "COUNT(" in q["sql"]]
    assert counts and not [sql for sql in counts if "tournaments_gameseat" in sql]
    # Three games, two to a page: page 9 is the last page, with the third game's seats.
    assert len(parse_table(response).rows) == 4


def test_results_sort_by_match_points_with_the_most_first(client, league):
    response = client.get(url("results", league.slug), {"sort": "match_points"})
    points = column(parse_table(response), "Match points")
    assert points[:3] == ["+61.3", "+55.0", "+50.0"]
    assert points[-1] == "−50.0"


# Who may see what


@pytest.fixture
def secret(organiser):
    return make_league(organiser, slug="secret", is_public=False)


READ_PAGES = ["standings", "results", "event_export", "event_export_zip"]


@pytest.mark.parametrize("name", READ_PAGES)
def test_anyone_may_read_a_public_events_pages(client, league, name):
    assert client.get(url(name, league.slug)).status_code == 200


@pytest.mark.parametrize("name", READ_PAGES)
def test_a_private_event_is_not_found_for_strangers_and_visitors(
    anonymous, stranger_client, secret, name
):
    assert anonymous.get(url(name, secret.slug)).status_code == 404
    assert stranger_client.get(url(name, secret.slug)).status_code == 404
    assert anonymous.get(url(name, secret.slug), {"_export": "csv"}).status_code == 404


@pytest.mark.parametrize("name", READ_PAGES)
def test_the_organisers_read_their_private_event(organiser_client, secret, name):
    assert organiser_client.get(url(name, secret.slug)).status_code == 200


def test_the_import_page_is_for_organisers_only(
    anonymous, stranger_client, organiser_client, league
):
    target = url("event_import", league.slug)
    response = anonymous.get(target)
    assert response.status_code == 302 and response.url.startswith(reverse("login"))
    assert stranger_client.get(target).status_code == 403
    assert stranger_client.post(target, {}).status_code == 403
    assert organiser_client.get(target).status_code == 200


def test_the_import_page_of_a_private_event_is_not_found_for_strangers(stranger_client, secret):
    assert stranger_client.get(url("event_import", secret.slug)).status_code == 404


def test_the_event_page_links_standings_results_and_exports(anonymous, organiser_client, league):
    page = anonymous.get(url("event", league.slug)).content.decode()
    for name in READ_PAGES:
        assert url(name, league.slug) in page
    assert url("event_import", league.slug) not in page
    page = organiser_client.get(url("event", league.slug)).content.decode()
    assert url("event_import", league.slug) in page


# Queries


def count_queries(client, target, query=None) -> int:
    with CaptureQueriesContext(connection) as context:
        assert client.get(target, query or {}).status_code == 200
    return len(context.captured_queries)


@pytest.mark.slow
@pytest.mark.parametrize("name", ["standings", "results"])
def test_the_pages_take_the_same_few_queries_at_any_size(
    anonymous, organiser_client, organiser, league, name, django_assert_max_num_queries
):
    big = make_big_league(organiser, sessions=4, tables=3)
    assert len(parse_table(anonymous.get(url(name, "big"))).rows) == (
        12 if name == "standings" else 48
    )
    # The event, the sessions (or the number of rows), and the rows themselves; the
    # standings sum in the database and read their sessions and latest lines apart.
    most = 5 if name == "standings" else 3
    for query in ({}, {"sort": "player"}, {"first_session": "2"}, {"_export": "xlsx"}):
        for event in (league, big):
            with django_assert_max_num_queries(most):
                assert anonymous.get(url(name, event.slug), query).status_code == 200
        # Logged in: the web session and the user as well.
        sizes = [count_queries(organiser_client, url(name, e.slug), query) for e in (league, big)]
        assert sizes[0] == sizes[1] <= most + 2


def test_a_long_league_shows_the_latest_ten_sessions_as_columns_and_counts_them_all(
    client, organiser
):
    event = bench.build_league(players=8, games=12, slug="long", say=lambda _: None)
    # Twelve sessions of one game each.
    for number, game in enumerate(Game.objects.filter(session__event=event).order_by("pk"), 1):
        session, _ = Session.objects.get_or_create(
            event=event, number=100 + number, defaults={"date": datetime.date(2025, 3, number)}
        )
        game.session = session
        game.save(update_fields=["session"])
    # The page shows the latest three and offers the rest behind a link.
    recent = client.get(f"/events/{event.slug}/standings/").content.decode()
    assert "S112 pts" in recent and "S110 pts" in recent and "S109 pts" not in recent
    assert "?columns=all" in recent and "Show all 10 session columns" in recent
    text = client.get(f"/events/{event.slug}/standings/?columns=all").content.decode()
    assert "Session columns show sessions 103–112" in text
    assert "Show only the latest 3 sessions" in text
    assert "S112 pts" in text and "S103 pts" in text and "S102 pts" not in text
    # A player of session 101, which has no columns: their total still counts it.
    early = GameSeat.objects.get(game__session__number=101, seat=0).player_id
    row = next(r for r in event_standings(event).rows if r.player_id == early)
    seats = GameSeat.objects.filter(game__session__event=event, player_id=early)
    assert row.match_points == sum(seats.values_list("match_points", flat=True))
    # Lines are carried for the latest ten sessions of the range; a range reaches the others.
    assert 101 not in row.sessions
    alone = event_standings(event, first_session=101, last_session=101)
    line = next(r for r in alone.rows if r.player_id == early).sessions[101]
    assert line.match_points == seats.get(game__session__number=101).match_points
    cells = next(
        r for r in parse_table(client.get(url("standings", event.slug))).rows if r[1] == row.player
    )
    shown = f"+{row.match_points}" if row.match_points > 0 else f"−{-row.match_points}"
    assert cells[3] == shown


def test_cached_standings_follow_every_change_to_results_names_and_games(client, organiser):
    event = Event.objects.create(name="Cached", slug="cached", starts_on=datetime.date(2026, 1, 1))
    session = Session.objects.create(event=event, number=1, date=datetime.date(2026, 1, 1))
    players = services.players_by_name(["Kai", "Lea", "Mo", "Noa"], create=True)
    game = services.create_game(session, players, table_number=1, entry_mode="final_scores")
    standings_url = f"/events/{event.slug}/standings/"
    assert "No finished games yet" in client.get(standings_url).content.decode()

    services.set_final_scores(game.pk, [41300, 24900, 21800, 12000], 0)
    assert "+61.3" in client.get(standings_url).content.decode()

    services.add_penalty(game.pk, 0, Decimal("-10.0"), "late")
    text = client.get(standings_url).content.decode()
    assert "+51.3" in text and "+61.3" not in text

    kai = Player.objects.get(display_name="Kai")
    kai.display_name = "Kai R."
    kai.save()
    assert "Kai R." in client.get(standings_url).content.decode()

    Game.objects.filter(pk=game.pk).delete()
    assert "No finished games yet" in client.get(standings_url).content.decode()


def test_a_hand_in_a_game_still_going_leaves_cached_standings_alone(event, game):
    token = Event.objects.get(pk=event.pk).results_token
    services.add_hand(game.pk, 1, {"result": "draw", "riichi": [], "tenpai": [0]})
    assert Event.objects.get(pk=event.pk).results_token == token
    # The dealer was tenpai, so E1 is played again: eight more hands to the end of S4.
    for number in range(2, 10):
        services.add_hand(game.pk, number, {"result": "draw", "riichi": [], "tenpai": []})
    game.refresh_from_db()
    assert game.is_finished
    assert Event.objects.get(pk=event.pk).results_token != token

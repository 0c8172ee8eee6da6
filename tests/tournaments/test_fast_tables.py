"""Every table renders through django-tables2's own template: its rows, pages and order."""

from __future__ import annotations

import re

import pytest
from django.db.models import Count, Prefetch, Q
from django.test import RequestFactory
from django_tables2 import RequestConfig

from perf import bench
from tournaments.models import Event, Game, GameSeat, Player
from tournaments.standings import event_standings
from tournaments.statistics import event_player_statistics
from tournaments.tables import (
    EventTable,
    GameTable,
    PlayerGamesTable,
    PlayerTable,
    ResultsTable,
    SessionTable,
    StandingsTable,
    StatisticsTable,
)

pytestmark = pytest.mark.django_db


def rendered(make_table, query: str = "") -> str:
    request = RequestFactory().get("/x/" + query)
    table = make_table()
    RequestConfig(request, paginate={"per_page": 7}).configure(table)
    return re.sub(r">\s+<", "><", table.as_html(request)).strip()


@pytest.fixture
def league():
    event = bench.build_league(players=9, games=14, slug="fast", say=lambda _: None)
    bench.start_game(event)
    return event


def test_every_table_renders_its_rows_pages_and_order(league):
    event = league
    seats = (
        GameSeat.objects.finished_in(event)
        .select_related("game__session__event", "player")
        .order_by("game__session__number", "game__table_number", "game_id", "seat")
    )
    standings = event_standings(event)
    player = Player.objects.filter(seats__game__session__event=event).first()
    player_seats = list(
        GameSeat.objects.filter(player=player).select_related("game__session__event")
    )
    session = event.sessions.first()
    makers = {
        "standings": lambda: StandingsTable(standings),
        "results": lambda: ResultsTable(seats),
        "statistics": lambda: StatisticsTable(
            [p.as_row() for p in event_player_statistics(event)], event_slug=event.slug
        ),
        "player games": lambda: PlayerGamesTable(player_seats),
        "events": lambda: EventTable(
            Event.objects.annotate(session_count=Count("sessions")), organised={event.pk}
        ),
        "sessions": lambda: SessionTable(
            event.sessions.annotate(
                game_count=Count("games"),
                finished_count=Count("games", filter=Q(games__status=Game.Status.FINISHED)),
            )
        ),
        "games": lambda: GameTable(
            list(
                session.games.prefetch_related(
                    Prefetch("seats", queryset=GameSeat.objects.select_related("player"))
                )
            ),
            organiser=True,
        ),
        "players": lambda: PlayerTable(Player.objects.annotate(games_played=Count("seats"))),
        "empty standings": lambda: StandingsTable(event_standings(event, first_session=99)),
    }
    for name, make in makers.items():
        first = rendered(make)
        assert "<tbody" in first, name
        rows = first.split("<tbody", 1)[1].count("<tr")
        assert 1 <= rows <= 7, name
        if name in {"standings", "results", "statistics"}:
            second = rendered(make, "?page=2")
            assert second != first and "<tbody" in second, name
            ordered = rendered(make, "?sort=-player")
            assert ordered != first and "<tbody" in ordered, name
    empty = rendered(makers["empty standings"])
    assert "No finished games yet." in empty


def test_the_standings_show_each_player_once_across_their_pages(league):
    standings = event_standings(league)
    names = []
    for page in (1, 2):
        html = rendered(lambda: StandingsTable(standings), f"?page={page}")
        names += re.findall(r'<a href="/players/\d+/">([^<]+)</a>', html)
    assert sorted(names) == sorted(row.player for row in standings.rows)

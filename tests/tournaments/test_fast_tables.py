"""The tables' one-pass body rendering prints exactly what django-tables2's template does."""

from __future__ import annotations

import re

import pytest
from django.db.models import Count, Prefetch, Q
from django.template.loader import render_to_string
from django.test import RequestFactory

from perf import bench
from tournaments.models import Event, Game, GameSeat, Player
from tournaments.standings import event_standings
from tournaments.statistics import statistics
from tournaments.tables import (
    FAST_TEMPLATE,
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


def both(make_table, query: str = "") -> tuple[str, str]:
    """The table rendered through the fast template and through django-tables2's own."""
    request = RequestFactory().get("/x/" + query)
    out = []
    for template in (FAST_TEMPLATE, "django_tables2/table.html"):
        table = make_table()
        table.template_name = template
        from django_tables2 import RequestConfig

        RequestConfig(request, paginate={"per_page": 7}).configure(table)
        html = render_to_string(template, {"table": table, "request": request})
        out.append(re.sub(r">\s+<", "><", html).strip())
    return out[0], out[1]


@pytest.fixture
def league():
    event = bench.build_league(players=9, games=14, slug="fast", say=lambda _: None)
    bench.start_game(event)
    return event


def test_every_table_renders_the_same_html_as_django_tables2(league):
    event = league
    seats = (
        GameSeat.objects.finished_in(event)
        .select_related("game__session__event", "player")
        .order_by("game__session__number", "game__table_number", "game_id", "seat")
    )
    standings = event_standings(event)
    games = Game.objects.filter(session__event=event)
    player = Player.objects.filter(seats__game__session__event=event).first()
    player_seats = list(
        GameSeat.objects.filter(player=player).select_related("game__session__event")
    )
    session = event.sessions.first()
    makers = {
        "standings": lambda: StandingsTable(standings),
        "results": lambda: ResultsTable(seats),
        "statistics": lambda: StatisticsTable(
            [p.as_row() for p in statistics(games)], event_slug=event.slug
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
        for query in ("", "?page=2", "?sort=-player"):
            if query == "?sort=-player" and name not in {"standings", "results", "statistics"}:
                continue
            fast, reference = both(make, query)
            assert "<tbody" in fast, name
            assert fast == reference, (name, query)


def test_the_fast_template_renders_rows_in_one_pass(league):
    table = StandingsTable(event_standings(league))
    table.template_name = FAST_TEMPLATE
    html = table.tbody_html()
    assert html is not None and html.count("<tr ") == len(event_standings(league).rows)

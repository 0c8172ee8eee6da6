"""Exports are the tables' rows in the tables' order; the XLSX file reads back as a styled
sheet; the cost of an export is a few queries however many games there are, and an
address cannot force a new file to be built by adding parameters."""

from __future__ import annotations

import datetime
import io
import json
from decimal import Decimal

import openpyxl
import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test import RequestFactory
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.conftest import fresh, kept_for_module, make_organiser
from tests.tournaments.builders import final_game, small_league
from tournaments import exports
from tournaments.models import Event, GameSeat, Player, Session
from tournaments.standings import event_standings
from tournaments.statistics import event_player_statistics
from tournaments.tables import (
    MAX_SESSION_COLUMNS,
    BoundedRequestConfig,
    ResultsTable,
    StandingsTable,
    StatisticsTable,
)
from tournaments.views.standings import PLAY_ORDER

from .test_standings_views import make_big_league
from .test_statistics import build_online

pytestmark = pytest.mark.django_db

SORTS = [
    {},
    {"sort": "-match_points"},
    {"sort": "player"},
    {"sort": "-player"},
    {"sort": "wind"},
    {"sort": "s1_points"},
    {"sort": "-s2_places"},
    {"sort": "win_rate"},
    {"sort": "no-such-column"},
]
HOSTILE = ["=1+2", "#N/A", "<b>Bold</b> & co", "\t@x"]


def configured(table, query: dict):
    request = RequestFactory().get("/", {**query, "_export": "csv"})
    BoundedRequestConfig(request, paginate=False).configure(table)
    return table


def build_league(organiser):
    event = small_league(organiser)
    session = Session.objects.create(event=event, number=3, date=datetime.date(2026, 3, 1))
    # A name with a tab is refused now; one stored before must still export as text
    # (bulk_create skips the name check).
    Player.objects.bulk_create([Player(display_name="\t@x")])
    final_game(
        session, HOSTILE, [41300, 24900, 21800, 12000], 1,
        [{"seat": 0, "match_points": -2.5, "reason": "late"}],
    )  # fmt: skip
    return event


# Built once for the module; every test reads them afresh (see tests/conftest.py).
@pytest.fixture(scope="module")
def _built(django_db_setup, django_db_blocker):
    with kept_for_module(django_db_blocker):
        organiser = make_organiser(get_user_model())
        yield organiser, build_league(organiser), build_online(organiser)


@pytest.fixture
def organiser(_built, db):
    return fresh(_built[0])


@pytest.fixture
def league(_built, db):
    return fresh(_built[1])


@pytest.fixture
def online(_built, db):
    return fresh(_built[2])


def results_table(event):
    seats = (
        GameSeat.objects.finished_in(event)
        .select_related("game__session__event", "player")
        .order_by(*PLAY_ORDER)
    )
    return ResultsTable(seats)


@pytest.mark.parametrize("query", SORTS)
def test_result_rows_are_exported_in_the_tables_order_with_numbers_as_numbers(league, query):
    table = configured(results_table(league), query)
    content = exports.table_file(table, "json", "Results")
    records = json.loads(content, parse_float=Decimal)

    assert len(records) == GameSeat.objects.finished_in(league).count()
    assert [r["Game"] for r in records] == [row.get_cell_value("game") for row in table.rows]
    assert all(isinstance(r["Match points"], Decimal) for r in records)
    assert all(isinstance(r["Final score"], int) for r in records)


@pytest.mark.parametrize("query", SORTS)
@pytest.mark.parametrize("filters", [{}, {"first_session": 2}, {"last_session": 1, "min_games": 2}])
def test_standings_rows_leave_an_unplayed_session_empty(league, query, filters):
    standings = event_standings(league, **filters)
    table = configured(StandingsTable(standings, session_columns=MAX_SESSION_COLUMNS), query)
    records = json.loads(exports.table_file(table, "json", "Standings"))

    assert len(records) == len(standings.rows) > 0
    # Empty cells (a session not played) are null, not "".
    assert any(value is None for r in records for value in r.values()) or filters
    assert not any(value == "" for r in records for k, value in r.items() if k.endswith("pts"))


@pytest.mark.parametrize("query", SORTS)
def test_statistics_rows_are_exported_whole(online, query):
    rows = [p.as_row() for p in event_player_statistics(online)]
    table = configured(StatisticsTable(rows, event_slug=online.slug), query)

    records = json.loads(exports.table_file(table, "json", "Statistics"))

    assert len(records) == len(rows) > 0
    assert sorted(r["Player"] for r in records) == sorted(row["player"] for row in rows)


def test_an_empty_table_exports_only_its_headers(organiser):
    event = Event.objects.create(name="Empty", slug="empty", starts_on=datetime.date(2026, 1, 1))

    content = exports.table_file(configured(results_table(event), {}), "csv", "Results")

    assert content.decode("utf-8-sig").splitlines() == [
        "Session,Table,Player,Place,Match points,Final score,Penalty,Wind,Game"
    ]


# The XLSX file


def test_the_xlsx_sheet_has_a_bold_header_kept_in_view_widths_and_typed_cells(client, league):
    response = client.get(reverse("tournaments:results", args=["league"]), {"_export": "xlsx"})
    book = openpyxl.load_workbook(io.BytesIO(response.content))
    sheet = book.active
    header = [cell.value for cell in sheet[1]]

    assert book.sheetnames == ["Results"]
    assert sheet.freeze_panes == "A2"
    assert all(cell.font.b for cell in sheet[1]) and not sheet.cell(row=2, column=1).font.b
    assert sheet.column_dimensions["A"].width == len("Session") + 2
    player = header.index("Player") + 1
    names = {sheet.cell(row=r, column=player).value for r in range(2, sheet.max_row + 1)}
    assert set(HOSTILE) <= names  # "&" and "<" come back as they were
    for row in range(2, sheet.max_row + 1):
        cell = sheet.cell(row=row, column=player)
        assert cell.data_type == "s"  # "#N/A" is not an error value, "=1+2" no formula
        assert cell.quotePrefix == exports.is_formula_like(cell.value)
    points = header.index("Match points") + 1
    assert {sheet.cell(row=r, column=points).number_format for r in range(2, 6)} == {"0.0"}
    assert isinstance(sheet.cell(row=2, column=header.index("Final score") + 1).value, int)


def test_control_characters_that_a_cell_cannot_hold_are_dropped(client, organiser):
    event = Event.objects.create(name="Odd", slug="odd", starts_on=datetime.date(2026, 1, 1))
    session = Session.objects.create(event=event, number=1, date=datetime.date(2026, 1, 1))
    final_game(session, ["xy", "B", "C", "D"], [41300, 24900, 21800, 12000], 1)
    # A name stored before names were checked (a form refuses it now).
    Player.objects.filter(display_name="xy").update(display_name="x\x0by")

    response = client.get(reverse("tournaments:results", args=["odd"]), {"_export": "xlsx"})

    sheet = openpyxl.load_workbook(io.BytesIO(response.content)).active
    header = [cell.value for cell in sheet[1]]
    assert "xy" in {row[header.index("Player")] for row in sheet.iter_rows(values_only=True)}


def test_decimal_places_choose_the_number_format():
    assert exports.number_format(Decimal("-83.0")) == "0.0"
    assert exports.number_format(Decimal("2.33")) == "0.00"
    assert exports.number_format(Decimal("5")) == "0"


# Cost


@pytest.mark.slow
@pytest.mark.parametrize("fmt", ["csv", "xlsx", "json"])
def test_an_export_costs_the_same_few_queries_at_any_size(client, organiser, fmt):
    def queries(slug):
        address = reverse("tournaments:results", args=[slug])
        with CaptureQueriesContext(connection) as captured:
            assert client.get(address, {"_export": fmt}).status_code == 200
        return len(captured)

    make_big_league(organiser, sessions=2, tables=2, slug="small")
    make_big_league(organiser, sessions=6, tables=3, slug="large")

    assert queries("small") == queries("large") <= 4


def test_extra_parameters_do_not_build_the_file_again(client, league):
    address = reverse("tournaments:results", args=["league"])
    client.get(address, {"_export": "csv"})

    with CaptureQueriesContext(connection) as captured:
        again = client.get(address, {"_export": "csv", "junk": "1", "per_page": "3", "page": "9"})

    assert again.status_code == 200
    assert not any("tournaments_gameseat" in q["sql"] for q in captured.captured_queries)
    # A different order is a different file.
    with CaptureQueriesContext(connection) as captured:
        client.get(address, {"_export": "csv", "sort": "player"})
    assert any("tournaments_gameseat" in q["sql"] for q in captured.captured_queries)


def test_the_standings_file_follows_the_filters(client, league):
    address = reverse("tournaments:standings", args=["league"])
    everything = client.get(address, {"_export": "csv"}).content
    one = client.get(address, {"_export": "csv", "first_session": "1", "last_session": "1"})

    assert one.content != everything
    # An invalid filter is no filter: the whole league, the same file.
    invalid = client.get(address, {"_export": "csv", "first_session": "x"})
    assert invalid.content == everything


@pytest.mark.parametrize("query", [{}, {"sort": "-wins"}, {"sort": "nonsense", "x": "1"}])
def test_a_statistics_file_made_already_is_sent_without_counting_again(
    client,
    online,
    query,
):
    address = reverse("tournaments:statistics", args=[online.slug])
    first = client.get(address, {**query, "_export": "csv"})

    with CaptureQueriesContext(connection) as captured:
        again = client.get(address, {**query, "_export": "csv"})

    assert again.content == first.content
    assert not any("tournaments_hand" in q["sql"] for q in captured.captured_queries)
    other = "-riichi" if query.get("sort") != "-riichi" else "player"
    assert client.get(address, {"sort": other, "_export": "csv"}).content != first.content

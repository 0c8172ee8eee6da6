"""Exports read their rows without django-tables2's per-cell work, yet give exactly what
`Table.as_values()` gives; the XLSX file is written directly and reads back as a styled
sheet; the cost of an export is a few queries however many games there are, and an
address cannot force a new file to be built by adding parameters."""

from __future__ import annotations

import datetime
import io
from decimal import Decimal

import openpyxl
import pytest
from django.db import connection
from django.test import RequestFactory
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.tournaments.builders import final_game, small_league
from tournaments import exports, xlsx
from tournaments.models import Event, Game, GameSeat, Session
from tournaments.standings import cached_standings
from tournaments.statistics import statistics
from tournaments.tables import (
    MAX_SESSION_COLUMNS,
    BoundedRequestConfig,
    ResultsTable,
    StandingsTable,
    StatisticsTable,
)
from tournaments.views.standings import PLAY_ORDER

from .test_standings_views import make_big_league
from .test_statistics import online  # noqa: F401  (a fixture)

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


def slow_values(table) -> tuple[list, list]:
    values = [list(row) for row in table.as_values()]
    return values[0], values[1:]


def fast_values(table) -> tuple[list, list]:
    headers, rows = exports.table_values(table)
    return list(headers), [list(row) for row in rows]


@pytest.fixture
def league(organiser):
    event = small_league(organiser)
    session = Session.objects.create(event=event, number=3, date=datetime.date(2026, 3, 1))
    final_game(
        session, HOSTILE, [41300, 24900, 21800, 12000], 1,
        [{"seat": 0, "match_points": -2.5, "reason": "late"}],
    )  # fmt: skip
    return event


def results_table(event):
    seats = (
        GameSeat.objects.finished_in(event)
        .select_related("game__session__event", "player")
        .order_by(*PLAY_ORDER)
    )
    return ResultsTable(seats)


@pytest.mark.parametrize("query", SORTS)
def test_result_rows_are_exactly_those_of_django_tables2(league, query):
    fast = fast_values(configured(results_table(league), query))
    slow = slow_values(configured(results_table(league), query))

    assert fast == slow
    assert len(fast[1]) == GameSeat.objects.finished_in(league).count()
    assert [type(value) for value in fast[1][0]] == [type(value) for value in slow[1][0]]


@pytest.mark.parametrize("query", SORTS)
@pytest.mark.parametrize("filters", [{}, {"first_session": 2}, {"last_session": 1, "min_games": 2}])
def test_standings_rows_are_exactly_those_of_django_tables2(league, query, filters):
    standings = cached_standings(league, **filters)

    def table():
        return StandingsTable(standings, session_columns=MAX_SESSION_COLUMNS)

    fast = fast_values(configured(table(), query))

    assert fast == slow_values(configured(table(), query))
    assert fast[1], "the league has rows to compare"
    # Empty cells (a session not played) are None in both, not "".
    assert any(value is None for row in fast[1] for value in row) or filters


@pytest.mark.parametrize("query", SORTS)
def test_statistics_rows_are_exactly_those_of_django_tables2(online, query):  # noqa: F811
    rows = [p.as_row() for p in statistics(Game.objects.filter(session__event=online))]

    def table():
        return StatisticsTable(rows, event_slug=online.slug)

    fast = fast_values(configured(table(), query))

    assert fast == slow_values(configured(table(), query))
    assert len(fast[1]) == len(rows) > 0


def test_a_column_whose_value_needs_the_row_falls_back_to_django_tables2(league):
    class Odd(ResultsTable):
        def value_player(self, bound_row):  # only django-tables2's rows can answer this
            return f"row of {bound_row.record.player.display_name}"

    fast = fast_values(configured(Odd(results_table(league).data.data), {}))

    assert fast == slow_values(configured(Odd(results_table(league).data.data), {}))
    assert fast[1][0][fast[0].index("Player")].startswith("row of ")


def test_an_empty_table_exports_only_its_headers(organiser):
    event = Event.objects.create(name="Empty", slug="empty", starts_on=datetime.date(2026, 1, 1))

    headers, rows = fast_values(configured(results_table(event), {}))

    assert rows == [] and headers == slow_values(configured(results_table(event), {}))[0]


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


def test_the_xlsx_writer_refuses_what_a_cell_cannot_hold_and_drops_control_characters():
    content = xlsx.sheet("T", ["A"], [["x\x00y"]], widths=[5], quoted=lambda text: False)
    sheet = openpyxl.load_workbook(io.BytesIO(content)).active
    assert sheet["A2"].value == "xy"
    with pytest.raises(TypeError, match="cannot go into a spreadsheet cell"):
        xlsx.sheet("T", ["A"], [[object()]], widths=[5], quoted=lambda text: False)


def test_decimal_places_choose_the_number_format():
    assert xlsx.number_format(Decimal("-83.0")) == "0.0"
    assert xlsx.number_format(Decimal("2.33")) == "0.00"
    assert xlsx.number_format(Decimal("5")) == "0"


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
    online,  # noqa: F811
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

"""Exports of the standings and results (CSV, XLSX, JSON) carry the page's numbers exactly;
an event export imported through the import page rebuilds the same standings; a bad
upload is refused with the reason and stores nothing."""

from __future__ import annotations

import copy
import csv
import datetime
import io
import json
import zipfile
from decimal import Decimal

import openpyxl
import pytest
from django.contrib.auth import get_user_model
from django.core.files.uploadedfile import SimpleUploadedFile

from tests.conftest import fresh, kept_for_module, make_organiser
from tests.tournaments.builders import tied_event
from tournaments import exchange
from tournaments.models import Event, Game, Player, Session

from .test_standings_views import final_game, make_league, parse_table, url

pytestmark = pytest.mark.django_db

TEXT_COLUMNS = {"Player", "Wind"}
FILTERS = [
    {},
    {"sort": "-match_points"},
    {"sort": "s1_points"},
    {"first_session": "2", "last_session": "2"},
    {"min_games": "3", "sort": "player"},
]


def build_league(organiser):
    return make_league(organiser)


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


@pytest.fixture
def empty_copy(organiser):
    # Different rules from the league's, to see that a refused import leaves them alone.
    event = Event.objects.create(
        name="Copy",
        slug="copy",
        starts_on=datetime.date(2026, 1, 1),
        rules_overrides={"kiriage": True},
    )
    event.organisers.add(organiser)
    return event


def page_value(header: str, text: str):
    """What a cell of the page stands for: its text for names, ranks and places, else its
    number (a dash is no penalty, or no game in that session)."""
    if header in TEXT_COLUMNS or header.endswith(" places"):
        return text
    if header == "Rank":
        return Decimal(text.removesuffix("="))  # "3=" is a shared third place
    if text == "–":
        return Decimal(0) if header in ("Penalties", "Penalty") else None
    return Decimal(text.replace("−", "-").replace("+", "").replace(",", "").removeprefix("#"))


def export_value(header: str, value):
    """The same for a cell of an export: CSV text, an XLSX cell value or a JSON value."""
    if header in TEXT_COLUMNS or header.endswith(" places"):
        # A session's places: "3·2", or one game's place as a number.
        return "" if value is None else str(value)
    if value is None or value == "":
        return None
    assert not isinstance(value, bool)
    return Decimal(str(value))


def page(client, name: str, query: dict) -> tuple[list[str], list[list]]:
    parsed = parse_table(client.get(url(name, "league"), query))
    rows = [
        [page_value(h, text) for h, text in zip(parsed.headers, row, strict=True)]
        for row in parsed.rows
    ]
    return parsed.headers, rows


def csv_export(response) -> tuple[list[str], list[list[str]]]:
    assert response.content.startswith("\ufeff".encode())  # so that Excel reads UTF-8
    header, *rows = csv.reader(io.StringIO(response.content.decode("utf-8-sig")))
    return header, rows


def xlsx_export(response):
    sheet = openpyxl.load_workbook(io.BytesIO(response.content)).active
    header, *rows = (list(row) for row in sheet.iter_rows(values_only=True))
    return sheet, header, rows


def json_export(response) -> list[dict]:
    return json.loads(response.content, parse_float=Decimal)


def as_values(header, rows):
    return [[export_value(h, v) for h, v in zip(header, row, strict=True)] for row in rows]


# Standings and results, in three formats


@pytest.mark.parametrize("query", FILTERS)
@pytest.mark.parametrize("name", ["standings", "results"])
def test_the_csv_export_has_the_pages_numbers_in_the_pages_order(client, league, name, query):
    response = client.get(url(name, "league"), {**query, "_export": "csv"})
    assert response.status_code == 200
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert response["Content-Disposition"] == f'attachment; filename="league-{name}.csv"'
    header, rows = csv_export(response)
    page_header, page_rows = page(client, name, query)
    assert header == page_header
    assert as_values(header, rows) == page_rows


@pytest.mark.parametrize("query", FILTERS)
@pytest.mark.parametrize("name", ["standings", "results"])
def test_the_xlsx_export_has_the_pages_numbers_in_the_pages_order(client, league, name, query):
    response = client.get(url(name, "league"), {**query, "_export": "xlsx"})
    assert response["Content-Disposition"] == f'attachment; filename="league-{name}.xlsx"'
    sheet, header, rows = xlsx_export(response)
    page_header, page_rows = page(client, name, query)
    assert header == page_header
    assert as_values(header, rows) == page_rows
    assert sheet.title == name.title()


@pytest.mark.parametrize("query", FILTERS)
@pytest.mark.parametrize("name", ["standings", "results"])
def test_the_json_export_has_the_pages_numbers_in_the_pages_order(client, league, name, query):
    response = client.get(url(name, "league"), {**query, "_export": "json"})
    assert response["Content-Disposition"] == f'attachment; filename="league-{name}.json"'
    records = json_export(response)
    page_header, page_rows = page(client, name, query)
    assert all(list(record) == page_header for record in records)
    assert as_values(page_header, [list(r.values()) for r in records]) == page_rows


def test_match_points_are_exported_as_exact_tenths_not_floats(client, league):
    get = client.get
    _, rows = csv_export(get(url("standings", "league"), {"_export": "csv"}))
    assert [row[3] for row in rows] == ["111.3", "59.9", "1.8", "-83.0", "-95.0"]
    assert [row[4] for row in rows] == ["1.00", "1.50", "2.33", "3.33", "4.00"]
    assert [row[10] for row in rows] == ["0.0", "0.0", "0.0", "0.0", "-5.0"]
    assert rows[2][11:13] == ["-8.2", "3·2"]

    text = get(url("standings", "league"), {"_export": "json"}).content.decode()
    assert '"Total": 111.3,' in text and '"Total": -83.0,' in text and '"Total": 1.8,' in text
    assert '"Avg place": 2.33,' in text and '"S2 pts": null' in text

    sheet, header, rows = xlsx_export(get(url("standings", "league"), {"_export": "xlsx"}))
    total = header.index("Total") + 1
    assert [sheet.cell(row=r, column=total).number_format for r in range(2, 7)] == ["0.0"] * 5
    place = header.index("Avg place") + 1
    assert sheet.cell(row=2, column=place).number_format == "0.00"


def test_a_sessions_single_place_is_a_number_in_the_spreadsheet(client, league):
    sheet, header, rows = xlsx_export(client.get(url("standings", "league"), {"_export": "xlsx"}))
    places = [row[header.index("S1 places")] for row in rows]
    assert any(type(place) is int for place in places)
    assert all(type(place) is int or "·" in place for place in places if place)
    assert "3·2" in [row[12] for row in rows]


def test_shared_ranks_are_exported_as_numbers_shared_by_the_tied_players(client, organiser):
    tied_event()
    _, rows = csv_export(client.get(url("standings", "split"), {"_export": "csv"}))
    assert [row[:4] for row in rows] == [
        ["1", "P", "1", "30.0"],
        ["1", "Q", "1", "30.0"],
        ["3", "R", "1", "-30.0"],
        ["3", "S", "1", "-30.0"],
    ]
    records = json_export(client.get(url("standings", "split"), {"_export": "json"}))
    assert [record["Rank"] for record in records] == [1, 1, 3, 3]
    _, _, rows = xlsx_export(client.get(url("standings", "split"), {"_export": "xlsx"}))
    assert [row[0] for row in rows] == [1, 1, 3, 3]


def test_a_name_that_looks_like_a_formula_stays_text_in_the_spreadsheet(client, organiser):
    event = Event.objects.create(name="Odd", slug="odd", starts_on=datetime.date(2026, 1, 1))
    session = Session.objects.create(event=event, number=1, date=datetime.date(2026, 1, 1))
    names = ["=1+2", "@SUM(A1)", "B", "C"]
    final_game(session, names, [41300, 24900, 21800, 12000], 1)
    sheet, header, rows = xlsx_export(client.get(url("standings", "odd"), {"_export": "xlsx"}))
    assert [row[1] for row in rows] == names
    assert sheet.cell(row=2, column=2).data_type == "s"


def test_an_unknown_export_format_shows_the_page(client, league):
    response = client.get(url("standings", "league"), {"_export": "yaml"})
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/html")


@pytest.mark.slow
def test_the_export_covers_every_row_not_only_the_first_page(client, organiser):
    from .test_standings_views import make_big_league

    make_big_league(organiser, sessions=9, tables=3)  # 108 seats: two pages of results
    parsed = parse_table(client.get(url("results", "big")))
    assert len(parsed.rows) == 100
    _, rows = csv_export(client.get(url("results", "big"), {"_export": "csv"}))
    assert len(rows) == 108


# The whole event: export, zip, import


def test_the_event_export_downloads_as_json_named_after_the_event(client, league):
    response = client.get(url("event_export", "league"))
    assert response.status_code == 200
    assert response["Content-Disposition"] == 'attachment; filename="league.json"'
    data = json.loads(response.content)
    assert data == json.loads(json.dumps(exchange.export_event(league)))
    assert [g["session"] for g in data["games"]] == [1, 1, 2]


def test_the_zip_holds_one_record_per_game(client, league):
    response = client.get(url("event_export_zip", "league"))
    assert response["Content-Type"] == "application/zip"
    assert response["Content-Disposition"] == 'attachment; filename="league-records.zip"'
    archive = zipfile.ZipFile(io.BytesIO(response.content))
    assert archive.namelist() == [
        "league/s01-t01-001.json",
        "league/s01-t02-002.json",
        "league/s02-t01-003.json",
    ]
    records = [json.loads(archive.read(name)) for name in archive.namelist()]
    assert [r["players"] for r in records][2] == ["A", "C", "D", "E"]


def upload(content: bytes, name="league.json") -> SimpleUploadedFile:
    return SimpleUploadedFile(name, content, content_type="application/json")


def test_an_exported_event_imported_through_the_page_has_identical_standings(
    organiser_client, league, empty_copy
):
    export = organiser_client.get(url("event_export", "league")).content
    response = organiser_client.post(url("event_import", "copy"), {"file": upload(export)})
    assert response.status_code == 302 and response.url == url("event", "copy")
    shown = organiser_client.get(response.url).content.decode()
    assert "Imported 3 games into Copy." in shown

    empty_copy.refresh_from_db()
    assert empty_copy.rules_spec() == league.rules_spec()
    original = parse_table(organiser_client.get(url("standings", "league")))
    imported = parse_table(organiser_client.get(url("standings", "copy")))
    assert imported.headers == original.headers
    assert imported.rows == original.rows
    assert imported.links == original.links  # the same players, found by name
    for name in ("standings", "results"):
        exports = [
            csv_export(organiser_client.get(url(name, slug), {"_export": "csv"}))
            for slug in ("league", "copy")
        ]
        if name == "results":  # new games, new ids
            exports = [(h, [row[:-1] for row in rows]) for h, rows in exports]
        assert exports[0] == exports[1]


def damaged(data: dict) -> dict:
    data = copy.deepcopy(data)
    data["games"][1]["record"]["final_scores"][0] += 1000
    return data


def sessions_twice(data: dict) -> dict:
    data = copy.deepcopy(data)
    data["sessions"].append(data["sessions"][0])
    return data


@pytest.mark.parametrize(
    ("content", "reason"),
    [
        (b"this is not json", "This file is not JSON"),
        (b"\xff\xfe\xfa broken", "This file is not JSON"),
        (b"[" * 100_000, "This file nests more than 64 levels deep"),
        (b"", "The submitted file is empty"),
        (b'{"format": "tenbou-game/1"}', "not a Tenbou event export"),
        (b"[1, 2, 3]", "not a Tenbou event export"),
        (damaged, "Nothing was imported: "),
        (sessions_twice, "Nothing was imported: session 1 is listed twice."),
    ],
)
def test_a_bad_upload_is_refused_with_the_reason_and_nothing_is_stored(
    organiser_client, league, empty_copy, content, reason
):
    if callable(content):
        content = json.dumps(content(exchange.export_event(league))).encode()
    counts = (Session.objects.count(), Game.objects.count(), Player.objects.count())
    response = organiser_client.post(url("event_import", "copy"), {"file": upload(content)})
    assert response.status_code == 200
    text = response.content.decode()
    assert reason in text
    assert 'class="field invalid"' in text
    assert (Session.objects.count(), Game.objects.count(), Player.objects.count()) == counts
    empty_copy.refresh_from_db()
    assert empty_copy.rules_overrides == {"kiriage": True}


def test_a_damaged_game_is_named_in_the_refusal(organiser_client, league, empty_copy):
    content = json.dumps(damaged(exchange.export_event(league))).encode()
    response = organiser_client.post(url("event_import", "copy"), {"file": upload(content)})
    assert "add up to" in response.content.decode()


def test_an_export_goes_only_into_an_empty_event(organiser_client, league):
    export = organiser_client.get(url("event_export", "league")).content
    games = Game.objects.count()
    page_before = organiser_client.get(url("event_import", "league")).content.decode()
    assert "This event already has sessions" in page_before
    response = organiser_client.post(url("event_import", "league"), {"file": upload(export)})
    assert response.status_code == 200
    assert "goes into an empty event: this one has sessions." in response.content.decode()
    assert Game.objects.count() == games


def test_an_import_needs_a_file(organiser_client, empty_copy):
    response = organiser_client.post(url("event_import", "copy"), {})
    assert response.status_code == 200
    assert "This field is required." in response.content.decode()
    assert not empty_copy.sessions.exists()

